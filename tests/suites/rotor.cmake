# SPDX-License-Identifier: Apache-2.0
# spinning rotors on 1-DOF joints: the Cayley step of their gyroscopic couple (issue 15 item 3)
sn_add_suite(test_rotor heapcount.c)
