# SPDX-License-Identifier: Apache-2.0
# what soft contact points touch: the heightfield, static bodies (issue 13 item 1)
sn_add_suite(test_soft_geom soft_setup.c)
