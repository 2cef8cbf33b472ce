# SPDX-License-Identifier: Apache-2.0
# bad inputs of the URDF loader (shared/spec/bad-inputs.md 3.1-3.5, 3.7)
sn_add_suite(test_bad_inputs)
