# SPDX-License-Identifier: Apache-2.0
# inverse kinematics (src/ik/, docs/ik.md; issue 16 item 2): ANYmal's feet, a 7-DOF arm, a target
# out of reach, the Strandbeest's crank with its loops closed, the contact flag, refusals
sn_add_suite(test_ik)
