# SPDX-License-Identifier: Apache-2.0
# the constraints of maximal coordinates: c, J and J-dot x-dot against finite differences
# (src/maxc/constraints.c; seed 003, issue 14)
sn_add_suite(test_constraints heapcount.c)
