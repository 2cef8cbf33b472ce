# SPDX-License-Identifier: Apache-2.0
# the file's settings applied by the library (sn_setup.h): every shared model run by the library
# alone and by `sinew run --record`, bit for bit
sn_add_suite(test_setup)
target_compile_definitions(test_setup PRIVATE SNT_CLI_PATH="$<TARGET_FILE:sinew_cli>")
add_dependencies(test_setup sinew_cli)
