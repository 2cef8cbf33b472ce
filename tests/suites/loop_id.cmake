# SPDX-License-Identifier: Apache-2.0
# inverse and forward dynamics of closed loops (src/loopid/, docs/loopid.md; issue 16 item 5):
# the four-bar (also against the step, and redundantly actuated), the Strandbeest, the Minitaur
# (shared model), the delta (models/delta.urdf; computed-torque control through the step)
sn_add_suite(test_loop_id)
