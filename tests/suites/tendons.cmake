# SPDX-License-Identifier: Apache-2.0
# MJCF tendons (src/tendon/, src/solver/tendon.c): Jacobians against finite differences, limits
# as solver rows (alone, with contacts, at iteration limits), no allocation, refusals; the
# comparison with MuJoCo 2.2.2 is in test_mujoco_oracle
sn_add_suite(test_tendons heapcount.c)
