# SPDX-License-Identifier: Apache-2.0
# an sn_maximal stepped alone (src/maxc/system.c, step.c, user.c, gear.c; seed 003, issue 14):
# momentum, drift, energy, wires, gears, user constraints, refusals, no allocation
sn_add_suite(test_maximal heapcount.c maximal_setup.c)
# defects found in review: wire impacts, gears beyond +-pi, failed steps' reports, extreme scales
sn_add_suite(test_maximal_fix maximal_setup.c)
