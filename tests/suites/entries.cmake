# SPDX-License-Identifier: Apache-2.0
# the loops' internal entries of getContacts, setActuatorTorque, the step-5 table's constraint
# shares (issue 16, item 4)
sn_add_suite(test_entries heapcount.c)
