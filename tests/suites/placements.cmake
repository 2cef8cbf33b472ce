# SPDX-License-Identifier: Apache-2.0
# joint placements and masses set through the API (src/model/placement.c, docs/loops.md; issue 16
# item 3): round trips, FK after a move, the redundancy test run again, seed 001's lever-arm rule
sn_add_suite(test_placements)
