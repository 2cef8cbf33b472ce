// SPDX-License-Identifier: Apache-2.0
// pd_control.c: seed 000's PD controller. The double pendulum, without gravity, is driven from
// rest to a target pose by joint PD gains (integrated implicitly, so stiff gains stay stable).
#include <math.h>
#include <sinew/sn.h>
#include <stdio.h>

#ifndef SN_EXAMPLE_MODELS
#define SN_EXAMPLE_MODELS "models"
#endif

int main(void) {
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf(SN_EXAMPLE_MODELS "/double_pendulum.urdf", NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
        return 1;
    }
    sn_world_opts opts = {0};
    opts.timestep = 0.001;
    sn_world* w = NULL;
    sn_system* s = NULL;
    if (sn_world_create(&opts, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK)
        return 1;
    const double zero_g[3] = {0, 0, 0}; // the target pose is held by the gains alone
    sn_world_set_gravity(w, zero_g);
    double kp[2] = {200, 200}, kd[2] = {20, 20}, target[2] = {0.5, -0.5}, u_ref[2] = {0, 0};
    sn_system_set_pd_gains(s, kp, kd, 2);
    sn_system_set_pd_target(s, target, 2, u_ref, 2);
    for (int k = 0; k < 3000; k++)
        sn_world_integrate(w);
    const double* q = sn_system_q(s);
    printf("after %.1f s: q = (%.6f, %.6f), target (%.1f, %.1f), error %.2e rad\n",
           sn_world_time(w), q[0], q[1], target[0], target[1],
           fmax(fabs(q[0] - target[0]), fabs(q[1] - target[1])));
    int ok = fabs(q[0] - target[0]) < 1e-3 && fabs(q[1] - target[1]) < 1e-3;
    sn_world_destroy(w);
    sn_model_destroy(m);
    return ok ? 0 : 1;
}
