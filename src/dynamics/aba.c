// SPDX-License-Identifier: Apache-2.0
// aba.c: forward dynamics by the articulated-body algorithm (Featherstone, RBDA ch. 7) in
// world-frame quantities: articulated inertias of children add to their parent without any
// transform. Rotor inertia enters as an addition to the joint-space D_i, which is exact for
// M + diag(armature). Multi-DOF joints (spherical, floating) invert their D_i by Cholesky.
#include "dynamics/dyn.h"


// in-place inverse of a small SPD matrix (n <= 6) by Cholesky; 0 if not positive definite
static int spd_inverse(sn_real* a, int n) {
    sn_real l[36] = {0}, inv[36] = {0};
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            sn_real s = a[i * n + j];
            for (int k = 0; k < j; k++) s -= l[i * 6 + k] * l[j * 6 + k];
            if (i == j) {
                if (!(s > 0)) return 0;
                l[i * 6 + i] = sqrt(s);
            } else {
                l[i * 6 + j] = s / l[j * 6 + j];
            }
        }
    }
    // inverse column by column: solve L L^T x = e_c
    for (int c = 0; c < n; c++) {
        sn_real y[6];
        for (int i = 0; i < n; i++) {
            sn_real s = i == c ? 1 : 0;
            for (int k = 0; k < i; k++) s -= l[i * 6 + k] * y[k];
            y[i] = s / l[i * 6 + i];
        }
        for (int i = n - 1; i >= 0; i--) {
            sn_real s = y[i];
            for (int k = i + 1; k < n; k++) s -= l[k * 6 + i] * inv[k * 6 + c];
            inv[i * 6 + c] = s / l[i * 6 + i];
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) a[i * n + j] = inv[i * 6 + j];
    return 1;
}


// backward pass for one body: U, D^-1, u, and the contribution to the parent
static int aba_body(const sn_model* m, sn_data* d, int b, const sn_real* tau, sn_real* uu) {
    int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
    sn_real* ia = d->ws_art + 36 * b;
    sn_real* pa = d->ws_bias + 6 * b;
    const sn_real* S = d->dof_motion + 6 * v0;
    sn_real* U = d->ws_u + 6 * v0;
    sn_real* dinv = d->ws_dinv + 36 * j;
    for (int k = 0; k < nd; k++) {
        m6_mul_v6(U + 6 * k, ia, S + 6 * k);
        uu[v0 + k] = (tau ? tau[v0 + k] : 0) - s6_dot(S + 6 * k, pa);
    }
    for (int r = 0; r < nd; r++)
        for (int c = 0; c < nd; c++) dinv[r * nd + c] = s6_dot(S + 6 * r, U + 6 * c);
    for (int k = 0; k < nd; k++) dinv[k * nd + k] += m->dof_armature[v0 + k];
    if (nd == 1) {
        if (!(dinv[0] > 0)) return 0;
        dinv[0] = 1 / dinv[0];
    } else if (!spd_inverse(dinv, nd)) {
        return 0;
    }
    int parent = m->body_parent[b];
    if (parent == 0) return 1; // the world's articulated inertia is never used
    // Ia = IA - U D^-1 U^T ; pa' = pA + Ia c + U D^-1 u
    sn_real w[36], du[6];
    for (int r = 0; r < nd; r++) {
        du[r] = 0;
        for (int c = 0; c < nd; c++) du[r] += dinv[r * nd + c] * uu[v0 + c];
        for (int e = 0; e < 6; e++) {
            sn_real s = 0;
            for (int c = 0; c < nd; c++) s += dinv[r * nd + c] * U[6 * c + e];
            w[6 * r + e] = s; // (D^-1 U^T) row r
        }
    }
    sn_real art[36];
    for (int r = 0; r < 6; r++)
        for (int c = r; c < 6; c++) {
            sn_real s = ia[6 * r + c];
            for (int k = 0; k < nd; k++) s -= U[6 * k + r] * w[6 * k + c];
            art[6 * r + c] = art[6 * c + r] = s;
        }
    sn_real pnew[6];
    m6_mul_v6(pnew, art, d->dof_bias + 6 * b);
    for (int e = 0; e < 6; e++) {
        pnew[e] += pa[e];
        for (int k = 0; k < nd; k++) pnew[e] += U[6 * k + e] * du[k];
    }
    sn_real* iap = d->ws_art + 36 * parent;
    sn_real* pap = d->ws_bias + 6 * parent;
    for (int e = 0; e < 36; e++) iap[e] += art[e];
    for (int e = 0; e < 6; e++) pap[e] += pnew[e];
    return 1;
}


sn_status sn_aba(const sn_model* m, sn_data* d, const sn_real* tau, sn_real* udot) {
    sn_real* uu = d->ws_vec;
    // initialise articulated inertias and bias forces with the bodies' own
    for (int b = 1; b < m->nbody; b++) {
        const sn_real* rbi = d->body_rbi + 10 * b;
        const sn_real* v = d->body_vel + 6 * b;
        sn_real iv[6];
        rbi_to_m6(d->ws_art + 36 * b, rbi);
        sn_real* pa = d->ws_bias + 6 * b;
        memset(pa, 0, 6 * sizeof(sn_real));
        rbi_mul(iv, rbi, v);
        mot_addcross_force(pa, v, iv);
    }
    for (int b = m->nbody - 1; b > 0; b--)
        if (!aba_body(m, d, b, tau, uu)) return SN_ERR_SINGULAR;
    // forward pass
    sn_real* acc = d->ws_acc;
    memset(acc, 0, 6 * sizeof(sn_real));
    v3_scale(acc + 3, d->gravity, -1);
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        const sn_real* ap = acc + 6 * m->body_parent[b];
        sn_real* a = acc + 6 * b;
        for (int e = 0; e < 6; e++) a[e] = ap[e] + d->dof_bias[6 * b + e];
        const sn_real* U = d->ws_u + 6 * v0;
        const sn_real* dinv = d->ws_dinv + 36 * j;
        sn_real rhs[6];
        for (int k = 0; k < nd; k++) rhs[k] = uu[v0 + k] - s6_dot(U + 6 * k, a);
        for (int r = 0; r < nd; r++) {
            sn_real s = 0;
            for (int c = 0; c < nd; c++) s += dinv[r * nd + c] * rhs[c];
            d->udot[v0 + r] = s;
            for (int e = 0; e < 6; e++) a[e] += d->dof_motion[6 * (v0 + r) + e] * s;
        }
    }
    if (udot && udot != d->udot) memcpy(udot, d->udot, (size_t)m->nv * sizeof(sn_real));
    return SN_OK;
}
