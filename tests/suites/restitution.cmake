# SPDX-License-Identifier: Apache-2.0
# restitution when the surfaces meet: bounce heights, rest time, Newton's cradle (issue 12)
sn_add_suite(test_restitution)
