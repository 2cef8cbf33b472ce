# SPDX-License-Identifier: Apache-2.0
# any model in maximal coordinates: from_model then joint_state round trips, and chains in
# maximal coordinates against the articulated system (src/maxc/from_model.c; issue 14)
sn_add_suite(test_maximal_model)
