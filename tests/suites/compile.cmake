# SPDX-License-Identifier: Apache-2.0
# white-box tests of the compiler's passes on specs built by hand (src/model/spec.h)
sn_add_suite(test_compile)
