# SPDX-License-Identifier: Apache-2.0
# constraints between the systems of a world (src/couple/; issue 14)
sn_add_suite(test_couple heapcount.c)
