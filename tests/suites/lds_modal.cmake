# SPDX-License-Identifier: Apache-2.0
# the contact LDS's integrals by modal decomposition (src/math/lds_modal.c; Expo's modal path)
sn_add_suite(test_lds_modal heapcount.c)
