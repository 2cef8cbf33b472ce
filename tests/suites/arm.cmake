# SPDX-License-Identifier: Apache-2.0
# the dynamic arm component of seed 002 (issue 15): the Cayley step, the equivalence with the
# system's step, carried inertia and frames (test_arm); stops, friction, refusals and allocation
# (test_arm_pgs)
sn_add_suite(test_arm test_arm_common.c)
sn_add_suite(test_arm_pgs test_arm_common.c heapcount.c)
