# SPDX-License-Identifier: Apache-2.0
# the matrix exponential and the augmented LDS integrals (src/math/expm.c; issue 13, A.5, A.11)
sn_add_suite(test_expm heapcount.c)
