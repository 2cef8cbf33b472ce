// SPDX-License-Identifier: Apache-2.0
// expo.c: one Expo sub-step (spec/algorithms.md A.3-A.12). Waits for the matrix exponential
// (src/math/expm.h, branch i13-expm).
#include "sim/sim.h"
#include "soft/soft.h"


size_t sni_soft_expo_reals(int cap) {
    (void)cap;
    return 0;
}


sn_status sni_soft_expo(sn_system* s, sn_real h) {
    (void)h;
    return sni_world_fail(s->world, SN_ERR_ARG,
                          "the Expo integrator is not built yet: choose SN_SOFT_EULER, "
                          "SN_SOFT_RK4 or SN_SOFT_IMPLICIT_EULER");
}
