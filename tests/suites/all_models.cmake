# SPDX-License-Identifier: Apache-2.0
# every URDF and MJCF file of shared/models loaded and stepped 50 times with a ground (issue 17
# finding 1: the sanitizer build runs the readers and the step on all of them); the files sinew
# refuses on purpose are listed, with their messages, in the test
sn_add_suite(test_all_models)
