# SPDX-License-Identifier: Apache-2.0
# the Expo paper's experiments (issue 13, A.14): ground truth, local error with the soft
# anchors reset from checkpoints, closed-loop stability (bench/expo/experiments.c) on solo-trot
sn_add_suite(test_expo_experiments ${PROJECT_SOURCE_DIR}/bench/expo/experiments.c
  ${PROJECT_SOURCE_DIR}/bench/expo/npy.c ${PROJECT_SOURCE_DIR}/bench/expo/robot.c
  ${PROJECT_SOURCE_DIR}/bench/expo/controller.c ${PROJECT_SOURCE_DIR}/bench/expo/id.c
  ${PROJECT_SOURCE_DIR}/bench/expo/scenario.c)
target_include_directories(test_expo_experiments PRIVATE ${PROJECT_SOURCE_DIR}/bench/expo)
target_compile_options(test_expo_experiments PRIVATE ${SN_WARN})
