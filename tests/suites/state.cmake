# SPDX-License-Identifier: Apache-2.0
# world checkpoints: resume bit for bit, refusals, the golden determinism hash (issue 12 item 8).
# SNT_BUILD_ID keys the hash pinned per build (compiler, version, build type, sanitizers)
sn_add_suite(test_state heapcount.c)
if(SN_SANITIZE)
  set(SNT_SAN ON)
else()
  set(SNT_SAN OFF)
endif()
target_compile_definitions(test_state PRIVATE
  SNT_BUILD_ID="${CMAKE_C_COMPILER_ID}-${CMAKE_C_COMPILER_VERSION}-${CMAKE_BUILD_TYPE}-san${SNT_SAN}")
