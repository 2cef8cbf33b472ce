# SPDX-License-Identifier: Apache-2.0
# every refusal of a world or system call leaves a message naming the argument and the reason
sn_add_suite(test_refusals)
