# SPDX-License-Identifier: Apache-2.0
# the symmetric eigendecomposition (src/math/symeig.c; Expo's modal path, issue 13)
sn_add_suite(test_symeig heapcount.c)
