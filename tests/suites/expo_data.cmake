# SPDX-License-Identifier: Apache-2.0
# the Expo paper's scenario data (issue 13): .npy/.npz readers, Pinocchio <-> sinew coordinates,
# the linear feedback of trot and jump (bench/expo/)
sn_add_suite(test_expo_data ${PROJECT_SOURCE_DIR}/bench/expo/npy.c
  ${PROJECT_SOURCE_DIR}/bench/expo/robot.c ${PROJECT_SOURCE_DIR}/bench/expo/controller.c
  ${PROJECT_SOURCE_DIR}/bench/expo/id.c ${PROJECT_SOURCE_DIR}/bench/expo/scenario.c)
target_include_directories(test_expo_data PRIVATE ${PROJECT_SOURCE_DIR}/bench/expo)
target_compile_options(test_expo_data PRIVATE ${SN_WARN})
