# SPDX-License-Identifier: Apache-2.0
# joint limits the loops set against each other; Cassie from q = 0 (issue 12, item 6)
sn_add_suite(test_loop_limits)
