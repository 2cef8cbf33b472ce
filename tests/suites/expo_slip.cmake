# SPDX-License-Identifier: Apache-2.0
# Expo's slipping contacts inside the sub-step (issue 13): sliding, frictionless, incline, sticking
sn_add_suite(test_expo_slip soft_setup.c)
