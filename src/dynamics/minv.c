// SPDX-License-Identifier: Apache-2.0
// minv.c: the sparse L^T D L factorization of the mass matrix in the tree's branch-induced
// sparsity (Featherstone, RBDA sec. 6.5): L[k][i] is nonzero only when DOF i is an ancestor of
// DOF k, so the factor costs O(nv * depth^2) and a solve O(nv * depth); entries outside that
// pattern are never read. M^-1 comes from this factor on shallow trees and from the
// articulated-body algorithm's sweeps (aba.c), which need neither M nor the factor, on deep ones.
#include "dynamics/dyn.h"

#include <math.h>

sn_status sn_factor_mass(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    sni_factor f = {d->mass_factor, d->mass_factor_d};
    return sni_factor_mass_diag(m, d->mass_matrix, NULL, &f);
}


sn_status sni_factor_mass_diag(const sn_model* m, const sn_real* M, const sn_real* diag,
                               const sni_factor* f) {
    int nv = m->nv;
    sn_real* h = f->L;
    sn_real* fd = f->D;
    // the factor reads and writes the lower pattern only: row k at k and its ancestors. A small
    // M is copied whole (one memcpy is cheaper than the walks below 48 DOFs: ANYmal's factor
    // took 5 % more instructions with the walks)
    if (nv < 48) {
        memcpy(h, M, (size_t)nv * nv * sizeof(sn_real));
        if (diag)
            for (int k = 0; k < nv; k++)
                h[k * nv + k] += diag[k];
    } else {
        for (int k = 0; k < nv; k++) {
            h[k * nv + k] = M[k * nv + k] + (diag ? diag[k] : 0);
            for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
                h[k * nv + i] = M[k * nv + i];
        }
    }
    for (int k = nv - 1; k >= 0; k--) {
        sn_real hkk = h[k * nv + k];
        fd[k] = hkk;
        if (!(hkk > 0) || !isfinite(hkk)) {
            for (int i = 0; i < k; i++)
                fd[i] = NAN;
            return SN_ERR_SINGULAR;
        }
        sn_real inv = 1 / hkk;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) {
            sn_real a = h[k * nv + i] * inv;
            for (int j = i; j >= 0; j = m->dof_parent[j])
                h[i * nv + j] -= a * h[k * nv + j];
            h[k * nv + i] = a;
        }
    }
    for (int k = 0; k < nv; k++)
        fd[k] = h[k * nv + k];
    return SN_OK;
}

// x <- L^-T x: the first half of a solve. A row whose nonzeros are the DOFs of one path to the
// root stays on that path, so the Delassus matrix J M^-1 J^T = Z^T D^-1 Z (Z = L^-T J^T) needs
// only these half solves
void sni_half_solve(const sn_model* m, const sni_factor* f, sn_real* x) {
    int nv = m->nv;
    const sn_real* l = f->L;
    for (int k = nv - 1; k >= 0; k--) {
        sn_real xk = x[k];
        if (xk == 0) continue;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
            x[i] -= l[k * nv + i] * xk;
    }
}


// sni_half_solve on the three rows x, x + nv, x + 2 nv at once (one walk of the tree)
void sni_half_solve3(const sn_model* m, const sni_factor* f, sn_real* x) {
    int nv = m->nv;
    const sn_real* l = f->L;
    sn_real *x0 = x, *x1 = x + nv, *x2 = x + 2 * nv;
    for (int k = nv - 1; k >= 0; k--) {
        sn_real a = x0[k], b = x1[k], c = x2[k];
        if (a == 0 && b == 0 && c == 0) continue;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) {
            sn_real lk = l[k * nv + i];
            x0[i] -= lk * a, x1[i] -= lk * b, x2[i] -= lk * c;
        }
    }
}

// sni_half_solve_rest on three rows at once
void sni_half_solve_rest3(const sn_model* m, const sni_factor* f, sn_real* x) {
    int nv = m->nv;
    const sn_real* l = f->L;
    const sn_real* fd = f->D;
    sn_real *x0 = x, *x1 = x + nv, *x2 = x + 2 * nv;
    for (int k = 0; k < nv; k++) {
        sn_real di = 1 / fd[k];
        sn_real a = x0[k] * di, b = x1[k] * di, c = x2[k] * di;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) {
            sn_real lk = l[k * nv + i];
            a -= lk * x0[i], b -= lk * x1[i], c -= lk * x2[i];
        }
        x0[k] = a, x1[k] = b, x2[k] = c;
    }
}

// x <- L^-1 D^-1 x: the second half of a solve (after sni_half_solve)
void sni_half_solve_rest(const sn_model* m, const sni_factor* f, sn_real* x) {
    int nv = m->nv;
    const sn_real* l = f->L;
    const sn_real* fd = f->D;
    for (int k = 0; k < nv; k++) {
        sn_real a = x[k] * (1 / fd[k]);
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
            a -= l[k * nv + i] * x[i];
        x[k] = a;
    }
}


void sn_solve_mass(const sn_model* m, const sn_data* d, sn_real* x) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    SNI_REFUSE_NULL_VOID(x);
    sni_factor f = {d->mass_factor, d->mass_factor_d};
    sni_solve_factor(m, &f, x);
}


void sni_solve_factor(const sn_model* m, const sni_factor* f, sn_real* x) {
    int nv = m->nv;
    const sn_real* l = f->L;
    const sn_real* fd = f->D;
    // L^T z = b, leaves to root
    for (int k = nv - 1; k >= 0; k--)
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
            x[i] -= l[k * nv + i] * x[k];
    for (int k = 0; k < nv; k++)
        x[k] /= fd[k];
    // L x = y, root to leaves
    for (int k = 0; k < nv; k++)
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
            x[k] -= l[k * nv + i] * x[i];
}

// M^-1 = L^-1 D^-1 L^-T column by column, using its symmetry. Column c is x = M^-1 e_c. Rows
// above c are already known (x_i = M^-1[c][i] from column i). Solving L^T z = e_c changes only
// the ancestors of c, all above it, so z_c = 1 and row c of D^-1 z is 1/D_c; the forward
// substitution L x = D^-1 z then gives the rows at and below c:
//   x_c = 1/D_c - sum_{i anc c} L[c][i] x_i,   x_k = -sum_{i anc k} L[k][i] x_i  (k > c).
// About nv^2 * depth / 2 operations, a quarter of nv full solves: the cheaper route on shallow
// trees; ABA's sweeps (aba.c), O(nv^2) without M, on deep ones (d->minv_aba, data.c)
static sn_status inverse_by_factor(const sn_model* m, sn_data* d) {
    sn_status st = sn_crba(m, d);
    if (st == SN_OK) st = sn_factor_mass(m, d);
    if (st != SN_OK) return st;
    int nv = m->nv;
    const sn_real* l = d->mass_factor;
    sn_real* x = d->inverse_mass;
    for (int c = 0; c < nv; c++) {
        for (int k = c; k < nv; k++) {
            sn_real s = k == c ? 1 / d->mass_factor_d[c] : 0;
            for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
                s -= l[k * nv + i] * x[i * nv + c];
            x[k * nv + c] = s;
            x[c * nv + k] = s;
        }
    }
    return SN_OK;
}

sn_status sn_inverse_mass(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    if (!d->inverse_mass || !d->ws_minv)
        return sni_refuse(SN_ERR_ARG, "sn_inverse_mass: d is a light data without M^-1");
    return d->minv_aba ? sni_aba_inverse_mass(m, d) : inverse_by_factor(m, d);
}
