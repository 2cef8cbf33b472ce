// SPDX-License-Identifier: Apache-2.0
// inverse_dynamics.c: the force and torque every joint transmits during a step, and the
// joint-space dynamics at a state: M(q), h(q, u) and forward dynamics with the library's
// algorithms on an sn_data of one's own (no world needed).
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
    // the algorithms on a data of our own
    sn_data* d = NULL;
    if (sn_data_create(m, NULL, &d, &err) != SN_OK) return 1;
    d->q[0] = 0.3, d->q[1] = -0.2, d->u[0] = 1.0, d->u[1] = 0.5;
    sn_fk(m, d);
    sn_fk_vel(m, d);
    sn_crba(m, d);
    sn_nonlinear(m, d);
    printf("M = [[%.4f, %.4f], [%.4f, %.4f]]  h = (%.4f, %.4f)\n", d->mass_matrix[0],
           d->mass_matrix[1], d->mass_matrix[2], d->mass_matrix[3], d->nonlinear[0],
           d->nonlinear[1]);
    // a world step with its inverse dynamics: the wrench at every URDF joint
    sn_world_opts opts = {0};
    sn_world* w = NULL;
    sn_system* s = NULL;
    if (sn_world_create(&opts, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK)
        return 1;
    sn_system_set_state(s, d->q, m->nq, d->u, m->nv);
    sn_system_set_compute_inverse_dynamics(s, 1);
    sn_world_integrate(w);
    for (int j = 0; j < m->nujoint; j++) {
        double f[3], t[3];
        if (sn_system_joint_wrench(s, j, f, t) != SN_OK) continue;
        printf("joint %-10s force (%8.3f %8.3f %8.3f) N, torque (%8.3f %8.3f %8.3f) N m\n",
               sn_model_name(m, SN_OBJ_URDF_JOINT, j), f[0], f[1], f[2], t[0], t[1], t[2]);
    }
    sn_world_destroy(w);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}
