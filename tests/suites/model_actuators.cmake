# SPDX-License-Identifier: Apache-2.0
# actuators and springs declared in the model file (the URDF extensions of docs/urdf.md)
sn_add_suite(test_model_actuators)
