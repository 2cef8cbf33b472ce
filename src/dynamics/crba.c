// SPDX-License-Identifier: Apache-2.0
// crba.c: the joint-space mass matrix by the composite-rigid-body algorithm (Featherstone,
// RBDA ch. 6), in world-frame quantities so that composite inertias add without transforms.
// M[i][j] = S_j . (Ic_i S_i) for every DOF j on the path from DOF i to the root.
#include "dynamics/dyn.h"


sn_status sn_crba(const sn_model* m, sn_data* d) {
    SNI_CHECK_MD(m, d);
    int nv = m->nv;
    sn_real* ic = d->ws_inertia; // composite inertias, 10 numbers each
    memcpy(ic, d->body_rbi, 10 * (size_t)m->nbody * sizeof(sn_real));
    for (int b = m->nbody - 1; b > 0; b--) {
        sn_real* p = ic + 10 * m->body_parent[b];
        const sn_real* c = ic + 10 * b;
        for (int k = 0; k < 10; k++) p[k] += c[k];
    }
    memset(d->mass_matrix, 0, (size_t)nv * nv * sizeof(sn_real));
    for (int i = 0; i < nv; i++) {
        sn_real f[6];
        rbi_mul(f, ic + 10 * m->dof_body[i], d->dof_motion + 6 * i);
        for (int j = i; j >= 0; j = m->dof_parent[j]) {
            sn_real v = s6_dot(f, d->dof_motion + 6 * j);
            d->mass_matrix[i * nv + j] = v;
            d->mass_matrix[j * nv + i] = v;
        }
        d->mass_matrix[i * nv + i] += m->dof_armature[i];
    }
    return SN_OK;
}
