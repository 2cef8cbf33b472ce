// SPDX-License-Identifier: Apache-2.0
// aba.c: forward dynamics by the articulated-body algorithm (Featherstone, RBDA ch. 7) in
// world-frame quantities: articulated inertias of children add to their parent without any
// transform. Rotor inertia enters as an addition to the joint-space D_i, which is exact for
// M + diag(armature). One-DOF joints take a specialised path (a rank-one update); spherical
// joints invert their 3x3 D_i by Cholesky; a floating root, whose motion subspace is invertible,
// solves for its spatial acceleration directly with one 6x6 Cholesky factorization.
#include "dynamics/dyn.h"
#include "math/dense.h"

// Articulated inertias are symmetric 6x6 matrices stored packed: the 21 entries of the upper
// triangle, row by row. P(r, c) with r <= c is the index below.
// clang-format off
#define SYM6_ENTRIES(X)                                                                            \
    X(0, 0, 0)  X(1, 0, 1)  X(2, 0, 2)  X(3, 0, 3)  X(4, 0, 4)  X(5, 0, 5)                         \
    X(6, 1, 1)  X(7, 1, 2)  X(8, 1, 3)  X(9, 1, 4)  X(10, 1, 5)                                    \
    X(11, 2, 2) X(12, 2, 3) X(13, 2, 4) X(14, 2, 5)                                                \
    X(15, 3, 3) X(16, 3, 4) X(17, 3, 5)                                                            \
    X(18, 4, 4) X(19, 4, 5)                                                                        \
    X(20, 5, 5)
// clang-format on

static const unsigned char sym6_index[6][6] = {
    {0, 1, 2, 3, 4, 5},     {1, 6, 7, 8, 9, 10},    {2, 7, 11, 12, 13, 14},
    {3, 8, 12, 15, 16, 17}, {4, 9, 13, 16, 18, 19}, {5, 10, 14, 17, 19, 20},
};

// d = A x for a packed symmetric A
static inline void sym6_mul_v6(sn_real* d, const sn_real* a, const sn_real* x) {
    d[0] = a[0] * x[0] + a[1] * x[1] + a[2] * x[2] + a[3] * x[3] + a[4] * x[4] + a[5] * x[5];
    d[1] = a[1] * x[0] + a[6] * x[1] + a[7] * x[2] + a[8] * x[3] + a[9] * x[4] + a[10] * x[5];
    d[2] = a[2] * x[0] + a[7] * x[1] + a[11] * x[2] + a[12] * x[3] + a[13] * x[4] + a[14] * x[5];
    d[3] = a[3] * x[0] + a[8] * x[1] + a[12] * x[2] + a[15] * x[3] + a[16] * x[4] + a[17] * x[5];
    d[4] = a[4] * x[0] + a[9] * x[1] + a[13] * x[2] + a[16] * x[3] + a[18] * x[4] + a[19] * x[5];
    d[5] = a[5] * x[0] + a[10] * x[1] + a[14] * x[2] + a[17] * x[3] + a[19] * x[4] + a[20] * x[5];
}

// the packed spatial inertia of a body from its 10 numbers (see rbi_to_m6)
static inline void sym6_from_rbi(sn_real* a, const sn_real* rbi) {
    const sn_real m = rbi[0], hx = rbi[1], hy = rbi[2], hz = rbi[3], *ib = rbi + 4;
    a[0] = ib[0], a[1] = ib[3], a[2] = ib[4], a[3] = 0, a[4] = -hz, a[5] = hy;
    a[6] = ib[1], a[7] = ib[5], a[8] = hz, a[9] = 0, a[10] = -hx;
    a[11] = ib[2], a[12] = -hy, a[13] = hx, a[14] = 0;
    a[15] = m, a[16] = 0, a[17] = 0, a[18] = m, a[19] = 0, a[20] = m;
}

// Cholesky factor of a small SPD matrix (n <= 6) with row stride stride, lower triangle in l
// (stride 6); 0 if not SPD
static int cholesky(sn_real* l, const sn_real* a, int n, int stride) {
    return sni_chol_ld(l, 6, a, stride, n, 0) == SN_OK;
}

// x <- (L L^T)^-1 x
static void cholesky_solve(const sn_real* l, sn_real* x, int n) {
    sni_chol_solve1(l, 6, n, x);
}

// add the articulated inertia Ia = IA - U D^-1 U^T (given as IA and the rank-nd correction)
// and the bias pa = pA + Ia c + U D^-1 u to the parent. w holds D^-1 U^T (nd rows of 6).
static void add_to_parent(sn_data* d, int b, int parent, int nd, const sn_real* U, const sn_real* w,
                          const sn_real* du) {
    const sn_real* ia = d->ws_art + 36 * b;
    const sn_real* c = d->dof_bias + 6 * b;
    sn_real* iap = d->ws_art + 36 * parent;
    sn_real* pap = d->ws_bias + 6 * parent;
    const sn_real* pa = d->ws_bias + 6 * b;
    // Ia c = IA c - U (w c)
    sn_real iac[6], wc[6];
    sym6_mul_v6(iac, ia, c);
    for (int k = 0; k < nd; k++)
        wc[k] = s6_dot(w + 6 * k, c);
    for (int e = 0; e < 6; e++) {
        sn_real s = pa[e] + iac[e];
        for (int k = 0; k < nd; k++)
            s += U[6 * k + e] * (du[k] - wc[k]);
        pap[e] += s;
    }
#define SYM6_RANK_ND(k, r, col)                                                                    \
    {                                                                                              \
        sn_real s = ia[k];                                                                         \
        for (int q = 0; q < nd; q++)                                                               \
            s -= U[6 * q + r] * w[6 * q + col];                                                    \
        iap[k] += s;                                                                               \
    }
    SYM6_ENTRIES(SYM6_RANK_ND)
#undef SYM6_RANK_ND
}

// backward pass of a 1-DOF body
static int backward_1dof(const sn_model* m, sn_data* d, int b, int v, const sn_real* tau,
                         const sn_real* diag, sn_real* uu) {
    const sn_real* ia = d->ws_art + 36 * b;
    const sn_real* s = d->dof_motion + 6 * v;
    sn_real* U = d->ws_u + 6 * v;
    sym6_mul_v6(U, ia, s);
    sn_real dd = s6_dot(s, U) + m->dof_armature[v] + (diag ? diag[v] : 0);
    if (!(dd > 0)) return 0;
    sn_real inv = 1 / dd;
    d->ws_dinv[36 * m->dof_joint[v]] = inv;
    uu[v] = (tau ? tau[v] : 0) - s6_dot(s, d->ws_bias + 6 * b);
    int parent = m->body_parent[b];
    if (parent == 0) return 1; // the world's articulated inertia is never used
    // Ia = IA - U U^T / D ; pa = pA + Ia c + U u / D, with Ia c = IA c - U (U.c) / D
    sn_real w[6];
    for (int e = 0; e < 6; e++)
        w[e] = inv * U[e];
    const sn_real* c = d->dof_bias + 6 * b;
    sn_real iac[6];
    sym6_mul_v6(iac, ia, c);
    sn_real k = inv * uu[v] - s6_dot(w, c);
    s6_addto(iac, d->ws_bias + 6 * b);
    s6_addscl(iac, U, k);
    s6_addto(d->ws_bias + 6 * parent, iac);
    sn_real* iap = d->ws_art + 36 * parent;
#define SYM6_RANK_ONE(idx, r, col) iap[idx] += ia[idx] - U[r] * w[col];
    SYM6_ENTRIES(SYM6_RANK_ONE)
#undef SYM6_RANK_ONE
    return 1;
}

// backward pass of a multi-DOF body (spherical; a floating joint below the root)
static int backward_ndof(const sn_model* m, sn_data* d, int b, const sn_real* tau,
                         const sn_real* diag, sn_real* uu) {
    int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
    const sn_real* ia = d->ws_art + 36 * b;
    const sn_real* S = d->dof_motion + 6 * v0;
    sn_real* U = d->ws_u + 6 * v0;
    sn_real* lfac = d->ws_dinv + 36 * j; // Cholesky factor of D, stride 6
    sn_real dm[36];
    for (int k = 0; k < nd; k++) {
        sym6_mul_v6(U + 6 * k, ia, S + 6 * k);
        uu[v0 + k] = (tau ? tau[v0 + k] : 0) - s6_dot(S + 6 * k, d->ws_bias + 6 * b);
    }
    for (int r = 0; r < nd; r++)
        for (int c = 0; c < nd; c++)
            dm[r * nd + c] = s6_dot(S + 6 * r, U + 6 * c) +
                             (r == c ? m->dof_armature[v0 + r] + (diag ? diag[v0 + r] : 0) : 0);
    if (!cholesky(lfac, dm, nd, nd)) return 0;
    int parent = m->body_parent[b];
    if (parent == 0) return 1;
    // w = D^-1 U^T, du = D^-1 u
    sn_real w[36], du[6];
    for (int e = 0; e < 6; e++) {
        sn_real col[6];
        for (int k = 0; k < nd; k++)
            col[k] = U[6 * k + e];
        cholesky_solve(lfac, col, nd);
        for (int k = 0; k < nd; k++)
            w[6 * k + e] = col[k];
    }
    for (int k = 0; k < nd; k++)
        du[k] = uu[v0 + k];
    cholesky_solve(lfac, du, nd);
    add_to_parent(d, b, parent, nd, U, w, du);
    return 1;
}

// the floating root: IA a + pA = f with f = S^-T tau, then udot = S^-1 (a - a0 - c)
static int solve_floating_root(const sn_model* m, sn_data* d, int b, const sn_real* tau,
                               sn_real* acc) {
    int v0 = m->joint_vadr[m->body_joint[b]];
    const sn_real* p = d->body_pos + 3 * b;
    sn_real l[36], f[6];
    // S u = (w, pdot + p x w)  =>  S^T f = (f_lin, f_ang + f_lin x p)
    sn_real tl[3] = {0, 0, 0}, ta[3] = {0, 0, 0};
    if (tau) v3_copy(tl, tau + v0), v3_copy(ta, tau + v0 + 3);
    v3_copy(f + 3, tl);
    v3_copy(f, ta);
    v3_addcross(f, p, tl); // f_ang = tau_ang - tau_lin x p = tau_ang + p x tau_lin
    const sn_real* ia = d->ws_art + 36 * b;
    const sn_real* pa = d->ws_bias + 6 * b;
    sn_real full[36];
    for (int r = 0; r < 6; r++)
        for (int col = 0; col < 6; col++)
            full[6 * r + col] = ia[sym6_index[r][col]];
    if (!cholesky(l, full, 6, 6)) return 0;
    sn_real* a = acc + 6 * b;
    for (int e = 0; e < 6; e++)
        a[e] = f[e] - pa[e];
    cholesky_solve(l, a, 6);
    // udot = S^-1 (a - a_parent - c): w = a_ang, pdot = a_lin - p x w
    sn_real rel[6];
    const sn_real* ap = acc + 6 * m->body_parent[b];
    const sn_real* c = d->dof_bias + 6 * b;
    for (int e = 0; e < 6; e++)
        rel[e] = a[e] - ap[e] - c[e];
    v3_copy(d->udot + v0 + 3, rel);
    v3_copy(d->udot + v0, rel + 3);
    v3_addcross(d->udot + v0, rel, p); // - p x w = w x p
    return 1;
}

sn_status sn_aba(const sn_model* m, sn_data* d, const sn_real* tau, sn_real* udot) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    return sni_aba(m, d, tau, NULL, udot);
}


// a floating root whose six DOFs carry no added diagonal takes the direct 6x6 solve
static int root_is_plain(const sn_model* m, const sn_real* diag) {
    if (m->nbody < 2 || m->joint_type[m->body_joint[1]] != SN_JOINT_FLOATING ||
        m->body_parent[1] != 0)
        return 0;
    int v0 = m->joint_vadr[m->body_joint[1]];
    for (int k = 0; k < 6; k++)
        if (m->dof_armature[v0 + k] != 0 || (diag && diag[v0 + k] != 0)) return 0;
    return 1;
}


sn_status sni_aba(const sn_model* m, sn_data* d, const sn_real* tau, const sn_real* diag,
                  sn_real* udot) {
    sn_real* uu = d->ws_vec;
    sn_real* acc = d->ws_acc;
    // initialise articulated inertias and bias forces with the bodies' own
    for (int b = 1; b < m->nbody; b++) {
        sym6_from_rbi(d->ws_art + 36 * b, d->body_rbi + 10 * b);
        memcpy(d->ws_bias + 6 * b, d->body_bias + 6 * b, 6 * sizeof(sn_real));
    }
    // backward pass, leaves to root; a floating root is solved in the forward pass
    int root_free = root_is_plain(m, diag);
    for (int b = m->nbody - 1; b > 0; b--) {
        int j = m->body_joint[b];
        if (b == 1 && root_free) continue;
        int ok = m->joint_nv[j] == 1 ? backward_1dof(m, d, b, m->joint_vadr[j], tau, diag, uu)
                                     : backward_ndof(m, d, b, tau, diag, uu);
        if (!ok) return SN_ERR_SINGULAR;
    }
    // forward pass, root to leaves
    memset(acc, 0, 6 * sizeof(sn_real));
    v3_scale(acc + 3, d->gravity, -1);
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        if (b == 1 && root_free) {
            if (!solve_floating_root(m, d, b, tau, acc)) return SN_ERR_SINGULAR;
            continue;
        }
        sn_real* a = acc + 6 * b;
        s6_add(a, acc + 6 * m->body_parent[b], d->dof_bias + 6 * b);
        const sn_real* U = d->ws_u + 6 * v0;
        const sn_real* S = d->dof_motion + 6 * v0;
        if (nd == 1) {
            sn_real x = d->ws_dinv[36 * j] * (uu[v0] - s6_dot(U, a));
            d->udot[v0] = x;
            s6_addscl(a, S, x);
            continue;
        }
        sn_real x[6];
        for (int k = 0; k < nd; k++)
            x[k] = uu[v0 + k] - s6_dot(U + 6 * k, a);
        cholesky_solve(d->ws_dinv + 36 * j, x, nd);
        for (int k = 0; k < nd; k++) {
            d->udot[v0 + k] = x[k];
            for (int e = 0; e < 6; e++)
                a[e] += S[6 * k + e] * x[k];
        }
    }
    if (udot && udot != d->udot) memcpy(udot, d->udot, (size_t)m->nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sni_aba_resolve(const sn_model* m, const sn_data* d, const sn_real* diag,
                          const sn_real* f, sn_real* x, sn_real* p, sn_real* acc, sn_real* uu) {
    int root_free = root_is_plain(m, diag);
    memset(p, 0, 6 * (size_t)m->nbody * sizeof(sn_real));
    // backward: the bias forces of f alone, with the last pass's U and D
    for (int b = m->nbody - 1; b > 0; b--) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        int parent = m->body_parent[b];
        const sn_real* pb = p + 6 * (size_t)b;
        if (b == 1 && root_free) continue;
        for (int k = 0; k < nd; k++)
            uu[v0 + k] = f[v0 + k] - s6_dot(d->dof_motion + 6 * (size_t)(v0 + k), pb);
        if (parent == 0) continue;
        sn_real y[6];
        memcpy(y, uu + v0, (size_t)nd * sizeof(sn_real));
        if (nd == 1)
            y[0] *= d->ws_dinv[36 * j];
        else
            cholesky_solve(d->ws_dinv + 36 * j, y, nd);
        sn_real* pp = p + 6 * (size_t)parent;
        s6_addto(pp, pb);
        for (int k = 0; k < nd; k++)
            s6_addscl(pp, d->ws_u + 6 * (size_t)(v0 + k), y[k]);
    }
    // forward, from rest
    memset(acc, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        sn_real* a = acc + 6 * (size_t)b;
        const sn_real* ap = acc + 6 * (size_t)m->body_parent[b];
        if (b == 1 && root_free) {
            // IA a + p = S^-T f: the root's articulated inertia is the pass's, whole
            sn_real l[36], full[36], t[6], fl[3] = {f[v0], f[v0 + 1], f[v0 + 2]};
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++)
                    full[6 * r + c] = d->ws_art[36 * b + sym6_index[r][c]];
            if (!cholesky(l, full, 6, 6)) return SN_ERR_SINGULAR;
            v3_copy(t, f + v0 + 3);
            v3_addcross(t, d->body_pos + 3 * b, fl);
            v3_copy(t + 3, fl);
            for (int e = 0; e < 6; e++)
                a[e] = t[e] - p[6 * b + e];
            cholesky_solve(l, a, 6);
            v3_copy(x + v0 + 3, a);
            v3_copy(x + v0, a + 3);
            v3_addcross(x + v0, a, d->body_pos + 3 * b);
            continue;
        }
        sn_real y[6];
        for (int k = 0; k < nd; k++)
            y[k] = uu[v0 + k] - s6_dot(d->ws_u + 6 * (size_t)(v0 + k), ap);
        if (nd == 1)
            y[0] *= d->ws_dinv[36 * j];
        else
            cholesky_solve(d->ws_dinv + 36 * j, y, nd);
        memcpy(a, ap, 6 * sizeof(sn_real));
        for (int k = 0; k < nd; k++) {
            x[v0 + k] = y[k];
            s6_addscl(a, d->dof_motion + 6 * (size_t)(v0 + k), y[k]);
        }
    }
    return SN_OK;
}


void sni_aba_joint_inertia(const sn_model* m, const sn_data* d, int b, sn_real* D) {
    int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
    const sn_real* S = d->dof_motion + 6 * v0;
    for (int q = 0; q < nd; q++) {
        sn_real u[6];
        sym6_mul_v6(u, d->ws_art + 36 * b, S + 6 * q);
        for (int r = 0; r < nd; r++)
            D[r * nd + q] = s6_dot(S + 6 * r, u) + (r == q ? m->dof_armature[v0 + r] : 0);
    }
}


// ---- M^-1 by the articulated-body algorithm ----
//
// The inverse of the joint-space inertia by ABA's two sweeps run on the identity (Carpentier,
// "Analytical inverse of the joint space inertia matrix", 2018), in world-frame quantities so that
// no spatial transform is needed between a body and its parent. Row block i of M^-1 (the DOFs of
// body i) is, with U_i = IA_i S_i, D_i = S_i^T U_i + armature and F_i the forces its descendants
// pass up per column:
//   backward (leaves to root), columns j of i's subtree:  M^-1[i, j] = D_i^-1 (E_ij - S_i^T F_i[:,
//   j])
//     and the parent's F gets F_i[:, j] + U_i M^-1[i, j], its IA gets IA_i - U_i D_i^-1 U_i^T;
//   forward (root to leaves), columns j >= i:  M^-1[i, j] -= D_i^-1 U_i^T P_parent[:, j],
//     P_i[:, j] = S_i M^-1[i, j] + P_parent[:, j] (the accelerations of a unit force on DOF j).
// Children's subtrees hold disjoint columns, so a child assigns its parent's F (nothing to
// clear); F and P live in one 6 x nv slot per body depth, free again once a subtree is done
// (bodies are depth-first). Then the lower triangle is the upper one's transpose.

// x <- D^-1 x for joint j (nd DOFs): D^-1 kept dense (row-major nd x nd) by minv_backward, so
// that a column costs one small product rather than two triangular solves
static inline void dinv_apply(const sn_data* d, int j, int nd, sn_real* x) {
    const sn_real* di = d->ws_dinv + 36 * j;
    if (nd == 1) {
        x[0] *= di[0];
        return;
    }
    sn_real y[6];
    for (int r = 0; r < nd; r++) {
        sn_real s = 0;
        for (int c = 0; c < nd; c++)
            s += di[r * nd + c] * x[c];
        y[r] = s;
    }
    memcpy(x, y, (size_t)nd * sizeof(sn_real));
}

// the backward sweep of body b: its rows of M^-1 over its subtree's columns, D^-1 and U kept
static int minv_backward(const sn_model* m, sn_data* d, int b) {
    int nv = m->nv, j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
    int end = d->body_dof_end[b], parent = m->body_parent[b];
    size_t slot = 6 * (size_t)nv;
    const sn_real* ia = d->ws_art + 36 * b;
    const sn_real* S = d->dof_motion + 6 * v0;
    sn_real* U = d->ws_u + 6 * v0;
    const sn_real* F = d->ws_minv + slot * (size_t)d->body_depth[b];
    sn_real* Fp = d->ws_minv + slot * (size_t)d->body_depth[parent];
    sn_real* Mi = d->inverse_mass;
    sn_real dm[36];
    for (int k = 0; k < nd; k++)
        sym6_mul_v6(U + 6 * k, ia, S + 6 * k);
    for (int r = 0; r < nd; r++)
        for (int c = 0; c < nd; c++)
            dm[r * nd + c] = s6_dot(S + 6 * r, U + 6 * c) + (r == c ? m->dof_armature[v0 + r] : 0);
    sn_real* di = d->ws_dinv + 36 * j;
    if (nd == 1) {
        if (!(dm[0] > 0) || !isfinite(dm[0])) return 0;
        di[0] = 1 / dm[0];
        Mi[(size_t)v0 * nv + v0] = di[0];
    } else {
        // D^-1 by its Cholesky factor, column by column: the rows over the joint's own columns
        sn_real l[36];
        if (!cholesky(l, dm, nd, nd)) return 0;
        for (int c = 0; c < nd; c++) {
            sn_real x[6] = {0, 0, 0, 0, 0, 0};
            x[c] = 1;
            cholesky_solve(l, x, nd);
            for (int r = 0; r < nd; r++) {
                di[r * nd + c] = x[r];
                Mi[(size_t)(v0 + r) * nv + v0 + c] = x[r];
            }
        }
    }
    // the descendants' columns: -D^-1 S^T F
    if (nd == 1) {
        // (with the parent's forces over the same columns in the same pass: F + U M^-1[b, :])
        sn_real dinv = d->ws_dinv[36 * j];
        sn_real* row = Mi + (size_t)v0 * nv;
        if (parent > 0)
            for (int e = 0; e < 6; e++)
                Fp[6 * v0 + e] = U[e] * row[v0];
        for (int c = v0 + 1; c < end; c++) {
            const sn_real* f = F + 6 * c;
            sn_real x = -dinv * s6_dot(S, f);
            row[c] = x;
            if (parent > 0)
                for (int e = 0; e < 6; e++)
                    Fp[6 * c + e] = f[e] + U[e] * x;
        }
    } else {
        for (int c = v0 + nd; c < end; c++) {
            sn_real x[6];
            for (int r = 0; r < nd; r++)
                x[r] = -s6_dot(S + 6 * r, F + 6 * c);
            dinv_apply(d, j, nd, x);
            for (int r = 0; r < nd; r++)
                Mi[(size_t)(v0 + r) * nv + c] = x[r];
        }
    }
    if (parent == 0) return 1;
    // the parent's forces over this subtree's columns: F + U M^-1[b, :] (F is 0 on the joint's
    // own columns; a one-DOF joint's are made above)
    if (nd > 1) {
        for (int c = v0; c < end; c++) {
            sn_real* f = Fp + 6 * c;
            for (int e = 0; e < 6; e++)
                f[e] = c < v0 + nd ? 0 : F[6 * c + e];
            for (int r = 0; r < nd; r++)
                s6_addscl(f, U + 6 * r, Mi[(size_t)(v0 + r) * nv + c]);
        }
    }
    // the parent's articulated inertia: IA - U D^-1 U^T
    sn_real w[36];
    for (int e = 0; e < 6; e++) {
        sn_real col[6];
        for (int k = 0; k < nd; k++)
            col[k] = U[6 * k + e];
        dinv_apply(d, j, nd, col);
        for (int k = 0; k < nd; k++)
            w[6 * k + e] = col[k];
    }
    sn_real* iap = d->ws_art + 36 * parent;
#define SYM6_RANK_ND(idx, r, col)                                                                  \
    {                                                                                              \
        sn_real s = ia[idx];                                                                       \
        for (int q = 0; q < nd; q++)                                                               \
            s -= U[6 * q + r] * w[6 * q + col];                                                    \
        iap[idx] += s;                                                                             \
    }
    SYM6_ENTRIES(SYM6_RANK_ND)
#undef SYM6_RANK_ND
    return 1;
}

// the forward sweep of body b: its rows of M^-1 over the columns from its first DOF on, and the
// accelerations P_b for its children
static void minv_forward(const sn_model* m, sn_data* d, int b) {
    int nv = m->nv, j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
    int end = d->body_dof_end[b], parent = m->body_parent[b];
    size_t slot = 6 * (size_t)nv;
    const sn_real* S = d->dof_motion + 6 * v0;
    const sn_real* U = d->ws_u + 6 * v0;
    sn_real* P = d->ws_minv + slot * (size_t)d->body_depth[b];
    const sn_real* Pp = parent > 0 ? d->ws_minv + slot * (size_t)d->body_depth[parent] : NULL;
    sn_real* Mi = d->inverse_mass;
    if (nd == 1) {
        sn_real dinv = d->ws_dinv[36 * j];
        sn_real* row = Mi + (size_t)v0 * nv;
        if (!Pp) {
            for (int c = v0; c < nv; c++) {
                sn_real x = c < end ? row[c] : 0;
                for (int e = 0; e < 6; e++)
                    P[6 * c + e] = S[e] * x;
                row[c] = x;
            }
            return;
        }
        sn_real w[6]; // D^-1 U
        for (int e = 0; e < 6; e++)
            w[e] = dinv * U[e];
        for (int c = v0; c < end; c++) {
            const sn_real* pp = Pp + 6 * c;
            sn_real x = row[c] - s6_dot(w, pp);
            for (int e = 0; e < 6; e++)
                P[6 * c + e] = pp[e] + S[e] * x;
            row[c] = x;
        }
        for (int c = end; c < nv; c++) {
            const sn_real* pp = Pp + 6 * c;
            sn_real x = -s6_dot(w, pp);
            for (int e = 0; e < 6; e++)
                P[6 * c + e] = pp[e] + S[e] * x;
            row[c] = x;
        }
        return;
    }
    for (int c = v0; c < nv; c++) {
        sn_real x[6], y[6];
        for (int r = 0; r < nd; r++)
            x[r] = c < end ? Mi[(size_t)(v0 + r) * nv + c] : 0;
        sn_real* p = P + 6 * c;
        if (Pp) {
            const sn_real* pp = Pp + 6 * c;
            for (int r = 0; r < nd; r++)
                y[r] = s6_dot(U + 6 * r, pp);
            dinv_apply(d, j, nd, y);
            for (int r = 0; r < nd; r++)
                x[r] -= y[r];
            memcpy(p, pp, 6 * sizeof(sn_real));
        } else {
            memset(p, 0, 6 * sizeof(sn_real));
        }
        for (int r = 0; r < nd; r++) {
            Mi[(size_t)(v0 + r) * nv + c] = x[r];
            s6_addscl(p, S + 6 * r, x[r]);
        }
    }
}

sn_status sni_aba_inverse_mass(const sn_model* m, sn_data* d) {
    int nv = m->nv;
    for (int b = 1; b < m->nbody; b++)
        sym6_from_rbi(d->ws_art + 36 * b, d->body_rbi + 10 * b);
    for (int b = m->nbody - 1; b > 0; b--)
        if (!minv_backward(m, d, b)) return SN_ERR_SINGULAR;
    for (int b = 1; b < m->nbody; b++)
        minv_forward(m, d, b);
    sn_real* Mi = d->inverse_mass;
    for (int r = 0; r < nv; r++)
        for (int c = r + 1; c < nv; c++)
            Mi[(size_t)c * nv + r] = Mi[(size_t)r * nv + c];
    return SN_OK;
}
