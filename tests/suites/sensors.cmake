# SPDX-License-Identifier: Apache-2.0
# sensors (src/sensor/, docs/sensors.md; issue 16 item 1): IMU, force/torque and the MJCF kinds
# against analytic values, no allocation, refusals; MuJoCo 2.2.2 on the same MJCF file is in
# test_mujoco_oracle
sn_add_suite(test_sensors heapcount.c)
