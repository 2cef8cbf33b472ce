# SPDX-License-Identifier: Apache-2.0
# soft (spring-damper) contacts and their integrators: Expo and the baselines (issue 13)
sn_add_suite(test_soft heapcount.c soft_setup.c)
