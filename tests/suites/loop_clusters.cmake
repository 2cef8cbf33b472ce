# SPDX-License-Identifier: Apache-2.0
# the loops eliminated by clusters against the factor route (issue 18, loops in linear time)
sn_add_suite(test_loop_clusters)
