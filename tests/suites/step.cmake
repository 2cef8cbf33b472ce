# SPDX-License-Identifier: Apache-2.0
# the simulation step of seed 000 (issue 3): schemes, PD, actuators, torque table, validation B1-B5
sn_add_suite(test_step heapcount.c)
