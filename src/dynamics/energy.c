// SPDX-License-Identifier: Apache-2.0
// energy.c: kinetic and potential energy, centre of mass and momentum from the body
// quantities of forward kinematics.
#include "dynamics/dyn.h"

sn_real sn_kinetic_energy(const sn_model* m, const sn_data* d) {
    SNI_REFUSE_NULL(m, (sn_real)NAN);
    SNI_REFUSE_NULL(d, (sn_real)NAN);
    sn_real e = 0;
    for (int b = 1; b < m->nbody; b++) {
        sn_real f[6];
        const sn_real* v = d->body_vel + 6 * b;
        rbi_mul(f, d->body_rbi + 10 * b, v);
        e += s6_dot(v, f);
    }
    for (int i = 0; i < m->nv; i++)
        e += m->dof_armature[i] * d->u[i] * d->u[i];
    return 0.5 * e;
}

sn_real sn_potential_energy(const sn_model* m, const sn_data* d) {
    SNI_REFUSE_NULL(m, (sn_real)NAN);
    SNI_REFUSE_NULL(d, (sn_real)NAN);
    // every body, the fixed base (body 0, the links welded to the world) included
    sn_real e = 0;
    for (int b = 0; b < m->nbody; b++)
        e -= m->body_mass[b] * v3_dot(d->gravity, d->body_com + 3 * b);
    return e;
}

sn_real sn_com(const sn_model* m, const sn_data* d, sn_real com[3]) {
    SNI_REFUSE_NULL(m, (sn_real)NAN);
    SNI_REFUSE_NULL(d, (sn_real)NAN);
    sn_real mt = 0, c[3] = {0, 0, 0};
    for (int b = 0; b < m->nbody; b++) {
        mt += m->body_mass[b];
        v3_addscl(c, d->body_com + 3 * b, m->body_mass[b]);
    }
    if (com) {
        if (mt > 0)
            v3_scale(com, c, 1 / mt);
        else
            v3_set(com, 0, 0, 0);
    }
    return mt;
}

void sn_momentum(const sn_model* m, const sn_data* d, sn_real lin[3], sn_real ang[3]) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    sn_real h[6] = {0, 0, 0, 0, 0, 0};
    for (int b = 1; b < m->nbody; b++) {
        sn_real f[6];
        rbi_mul(f, d->body_rbi + 10 * b, d->body_vel + 6 * b);
        for (int e = 0; e < 6; e++)
            h[e] += f[e];
    }
    if (lin) v3_copy(lin, h + 3);
    if (ang) v3_copy(ang, h);
}
