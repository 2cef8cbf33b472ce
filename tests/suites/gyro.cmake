# SPDX-License-Identifier: Apache-2.0
# spinning bodies: the gyroscopic couple explicit (seed 000) and at the step's midpoint (issue 12)
sn_add_suite(test_gyro heapcount.c)
