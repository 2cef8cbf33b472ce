# SPDX-License-Identifier: Apache-2.0
# MuJoCo as an independent oracle (tests/test_mujoco_oracle.c): needs libmujoco-dev (2.2.x).
# Without it the suite is left out with a message, or, with SN_REQUIRE_ORACLE (scripts/test.sh,
# so CI), the configuration fails.
option(SN_REQUIRE_ORACLE "fail the configuration when MuJoCo (the test oracle) is missing" OFF)
find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
find_library(MUJOCO_LIB mujoco)
if(NOT MUJOCO_INCLUDE_DIR OR NOT MUJOCO_LIB)
  if(SN_REQUIRE_ORACLE)
    message(FATAL_ERROR "MuJoCo (libmujoco-dev, the oracle) not found and SN_REQUIRE_ORACLE is on")
  endif()
  message(STATUS "MuJoCo not found (mujoco/mujoco.h, libmujoco): test_mujoco_oracle is not built")
else()
  message(STATUS "MuJoCo oracle suite: ${MUJOCO_LIB}")
  sn_add_suite(test_mujoco_oracle)
  target_include_directories(test_mujoco_oracle PRIVATE ${MUJOCO_INCLUDE_DIR})
  target_link_libraries(test_mujoco_oracle PRIVATE ${MUJOCO_LIB})
  # the second test runs `sinew inspect --json` through popen
  target_compile_definitions(test_mujoco_oracle PRIVATE SNT_CLI_PATH="$<TARGET_FILE:sinew_cli>")
  add_dependencies(test_mujoco_oracle sinew_cli)
endif()
