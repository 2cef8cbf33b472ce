# SPDX-License-Identifier: Apache-2.0
# no energy from nothing: the limits' correction through loops, the passivity test of every
# shared model and the soak's 1,000-step subset (issue 17, findings 5 and 6)
sn_add_suite(test_passivity ${PROJECT_SOURCE_DIR}/bench/soak_run.c)
