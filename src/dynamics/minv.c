// SPDX-License-Identifier: Apache-2.0
// minv.c: the sparse L^T D L factorization of the mass matrix in the tree's branch-induced
// sparsity (Featherstone, RBDA sec. 6.5): L[k][i] is nonzero only when DOF i is an ancestor of
// DOF k, so the factor costs O(nv * depth^2) and a solve O(nv * depth). M^-1 is assembled by
// solves with unit vectors; it is never formed by a dense inversion.
#include <math.h>

#include "dynamics/dyn.h"


sn_status sn_factor_mass(const sn_model* m, sn_data* d) {
    SNI_CHECK_MD(m, d);
    int nv = m->nv;
    sn_real* h = d->mass_factor;
    memcpy(h, d->mass_matrix, (size_t)nv * nv * sizeof(sn_real));
    for (int k = nv - 1; k >= 0; k--) {
        sn_real hkk = h[k * nv + k];
        d->mass_factor_d[k] = hkk;
        if (!(hkk > 0) || !isfinite(hkk)) {
            for (int i = 0; i < k; i++) d->mass_factor_d[i] = NAN;
            return SN_ERR_SINGULAR;
        }
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) {
            sn_real a = h[k * nv + i] / hkk;
            for (int j = i; j >= 0; j = m->dof_parent[j]) h[i * nv + j] -= a * h[k * nv + j];
            h[k * nv + i] = a;
        }
    }
    for (int k = 0; k < nv; k++) d->mass_factor_d[k] = h[k * nv + k];
    return SN_OK;
}


void sn_solve_mass(const sn_model* m, const sn_data* d, sn_real* x) {
    int nv = m->nv;
    const sn_real* l = d->mass_factor;
    // L^T z = b, leaves to root
    for (int k = nv - 1; k >= 0; k--)
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) x[i] -= l[k * nv + i] * x[k];
    for (int k = 0; k < nv; k++) x[k] /= d->mass_factor_d[k];
    // L x = y, root to leaves
    for (int k = 0; k < nv; k++)
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) x[k] -= l[k * nv + i] * x[i];
}


sn_status sn_inverse_mass(const sn_model* m, sn_data* d) {
    SNI_CHECK_MD(m, d);
    sn_status st = sn_factor_mass(m, d);
    if (st != SN_OK) return st;
    int nv = m->nv;
    sn_real* col = d->ws_vec;
    for (int c = 0; c < nv; c++) {
        memset(col, 0, (size_t)nv * sizeof(sn_real));
        col[c] = 1;
        sn_solve_mass(m, d, col);
        for (int r = 0; r < nv; r++) d->inverse_mass[r * nv + c] = col[r];
    }
    return SN_OK;
}
