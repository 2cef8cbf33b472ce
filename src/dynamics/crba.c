// SPDX-License-Identifier: Apache-2.0
// crba.c: the joint-space mass matrix by the composite-rigid-body algorithm (Featherstone,
// RBDA ch. 6), in world-frame quantities so that composite inertias add without transforms.
// M[i][j] = S_j . (Ic_i S_i) for every DOF j on the path from DOF i to the root.
// A floating root's six columns are (0, e_k) and (e_k, p x e_k), so its six products with a
// force F are F_lin and F_ang + F_lin x p: computed at once instead of six dot products.
#include "dynamics/dyn.h"

// the six products of the floating root's motion subspace with the force f
static inline void root_products(sn_real* out, const sn_real* f, const sn_real* p) {
    v3_copy(out, f + 3);
    v3_copy(out + 3, f);
    v3_addcross(out + 3, f + 3, p);
}

// p += c for two distinct composite inertias
static inline void add10(sn_real* restrict p, const sn_real* restrict c) {
    p[0] += c[0], p[1] += c[1], p[2] += c[2], p[3] += c[3], p[4] += c[4];
    p[5] += c[5], p[6] += c[6], p[7] += c[7], p[8] += c[8], p[9] += c[9];
}

sn_status sn_crba(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    sni_crba_extra(m, d, NULL, d->mass_matrix);
    return SN_OK;
}


void sni_crba_extra(const sn_model* m, sn_data* d, const sn_real* extra, sn_real* M) {
    int nv = m->nv;
    sn_real* ic = d->ws_inertia; // composite inertias, 10 numbers each
    memcpy(ic, d->body_rbi, 10 * (size_t)m->nbody * sizeof(sn_real));
    if (extra)
        for (int b = 1; b < m->nbody; b++)
            add10(ic + 10 * b, extra + 10 * b);
    for (int b = m->nbody - 1; b > 0; b--)
        add10(ic + 10 * m->body_parent[b], ic + 10 * b);
    // only the tree's pattern is written (M[i][j], j on i's path to the root, and its mirror):
    // the other entries are zero from the data's creation and stay so (no O(nv^2) clearing)
    // DOFs below `base` belong to a floating root (0 or 6)
    int base = m->nbody > 1 && m->joint_type[m->body_joint[1]] == SN_JOINT_FLOATING &&
                       m->body_parent[1] == 0
                   ? 6
                   : 0;
    const sn_real* p = d->body_pos + 3;
    for (int i = 0; i < nv; i++) {
        sn_real f[6];
        rbi_mul(f, ic + 10 * m->dof_body[i], d->dof_motion + 6 * i);
        int j = i;
        for (; j >= base; j = m->dof_parent[j]) {
            sn_real v = s6_dot(f, d->dof_motion + 6 * j);
            M[i * nv + j] = v;
            M[j * nv + i] = v;
        }
        if (j >= 0) {
            // j is the last root DOF on the path: fill root DOFs 0..min(i, 5)
            sn_real r[6];
            root_products(r, f, p);
            int last = i < base ? i : base - 1;
            for (int k = 0; k <= last; k++) {
                M[i * nv + k] = r[k];
                M[k * nv + i] = r[k];
            }
        }
        M[i * nv + i] += m->dof_armature[i];
    }
}
