# SPDX-License-Identifier: Apache-2.0
# soft contacts' parameters per material pair, from the API and model files (issue 13 item 1)
sn_add_suite(test_soft_params)
