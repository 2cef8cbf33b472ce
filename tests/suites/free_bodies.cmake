# SPDX-License-Identifier: Apache-2.0
# free bodies built from a spec give the models their URDF text gave, bit for bit (issue 11)
sn_add_suite(test_free_bodies)
