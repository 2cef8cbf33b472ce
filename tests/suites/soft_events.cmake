# SPDX-License-Identifier: Apache-2.0
# contact events inside the soft sub-step (issue 13, sinew's option; docs/expo.md)
sn_add_suite(test_soft_events heapcount.c soft_setup.c)
