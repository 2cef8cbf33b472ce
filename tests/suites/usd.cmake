# SPDX-License-Identifier: Apache-2.0
# the USD text reader (src/usd/, docs/usd.md; issue 16 item 6): the bundled .usda twins of the
# four-bar and the Strandbeest, loop joints, units, drives, refusals
sn_add_suite(test_usd)
