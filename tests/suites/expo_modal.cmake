# SPDX-License-Identifier: Apache-2.0
# Expo's modal path (src/soft/expo.c, src/math/lds_modal.c; issue 13)
sn_add_suite(test_expo_modal soft_setup.c)
