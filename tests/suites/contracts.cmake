# SPDX-License-Identifier: Apache-2.0
# every public function called with every kind of bad argument its parameters admit: the calls
# are generated from the headers at build time (scripts/contract_calls.py, docs/contracts.md),
# so a new function is called as soon as it is declared, or the test fails naming it
file(GLOB SNT_CONTRACT_HEADERS ${PROJECT_SOURCE_DIR}/include/sinew/*.h)
set(SNT_CONTRACT_C ${CMAKE_CURRENT_BINARY_DIR}/contract_calls.c)
set(SNT_CONTRACT_MODEL ${PROJECT_SOURCE_DIR}/models/double_pendulum.urdf)
add_custom_command(OUTPUT ${SNT_CONTRACT_C}
  COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/scripts/contract_calls.py
    ${PROJECT_SOURCE_DIR}/include/sinew ${SNT_CONTRACT_C} ${SNT_CONTRACT_MODEL}
  DEPENDS ${PROJECT_SOURCE_DIR}/scripts/contract_calls.py ${SNT_CONTRACT_HEADERS}
  COMMENT "contract calls from the public headers")
add_executable(test_contracts contracts/test_contracts.c ${SNT_CONTRACT_C})
target_include_directories(test_contracts PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/contracts)
target_link_libraries(test_contracts PRIVATE snt_common)
add_test(NAME test_contracts COMMAND test_contracts WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_contracts PROPERTIES TIMEOUT 900)
# issue 17's findings 2, 3 and 4, call by call
sn_add_suite(test_contract_findings)
