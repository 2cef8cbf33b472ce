# SPDX-License-Identifier: Apache-2.0
# RUNGE_KUTTA_4 with contacts, limits and friction, and its order on rotations (issue 12)
sn_add_suite(test_rk4)
