// SPDX-License-Identifier: Apache-2.0
// dense.h: small dense linear algebra (internal): the Cholesky factor L L^T of a symmetric
// positive definite matrix and its solves, the LU factor with partial pivoting and its solve, on
// row-major matrices. The factor and the solves that run inside a step's inner loops (the ABA's
// joint blocks, the loops' blocks, the subspace step) are static inline so that each caller gets
// them specialised to its sizes; the LU is rare and stays in dense.c.
#ifndef SNI_DENSE_H
#define SNI_DENSE_H

#include "sinew/sn_base.h"

#include <math.h>
#include <stddef.h>

#define SNI_CHOL_NB_MAX 32 // most right-hand sides of one solve


// L L^T = A for a symmetric A (n x n; row strides lda, ldl; L's lower triangle written, in place
// when L is A and ldl is lda); SN_ERR_SINGULAR if a pivot is not above tol (0: not positive
// definite)
static inline sn_status sni_chol_ld(sn_real* L, int ldl, const sn_real* A, int lda, int n,
                                    sn_real tol) {
    for (int j = 0; j < n; j++) {
        sn_real d = A[j * lda + j];
        for (int k = 0; k < j; k++)
            d -= L[j * ldl + k] * L[j * ldl + k];
        if (!(d > tol)) return SN_ERR_SINGULAR;
        d = sqrt(d);
        L[j * ldl + j] = d;
        for (int i = j + 1; i < n; i++) {
            sn_real x = A[i * lda + j];
            for (int k = 0; k < j; k++)
                x -= L[i * ldl + k] * L[j * ldl + k];
            L[i * ldl + j] = x / d;
        }
    }
    return SN_OK;
}


// A = L L^T in place (A n x n, row-major, L in the lower triangle); SN_ERR_SINGULAR if a pivot is
// not above tol
static inline sn_status sni_chol(sn_real* A, int n, sn_real tol) {
    return sni_chol_ld(A, n, A, n, n, tol);
}


// x <- (L L^T)^-1 x for one right-hand side x (n); L has row stride ldl
static inline void sni_chol_solve1(const sn_real* L, int ldl, int n, sn_real* x) {
    for (int i = 0; i < n; i++) {
        sn_real s = x[i];
        for (int k = 0; k < i; k++)
            s -= L[i * ldl + k] * x[k];
        x[i] = s / L[i * ldl + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        sn_real s = x[i];
        for (int k = i + 1; k < n; k++)
            s -= L[k * ldl + i] * x[k];
        x[i] = s / L[i * ldl + i];
    }
}


// x <- (L L^T)^-1 x for rows idx[0 .. n) of x (a block of a larger system; idx NULL: rows
// 0 .. n), nb <= SNI_CHOL_NB_MAX right-hand sides interleaved (row i's at x[i * nb + j]); L has
// row stride ldl
static inline void sni_chol_solve_rows(const sn_real* L, int ldl, int n, const int* idx, sn_real* x,
                                       int nb) {
    sn_real acc[SNI_CHOL_NB_MAX]; // row i's values, in registers for a few right-hand sides
    for (int i = 0; i < n; i++) {
        sn_real* xi = x + (size_t)(idx ? idx[i] : i) * nb;
        for (int j = 0; j < nb; j++)
            acc[j] = xi[j];
        for (int k = 0; k < i; k++) {
            const sn_real* xk = x + (size_t)(idx ? idx[k] : k) * nb;
            sn_real l = L[i * ldl + k];
            for (int j = 0; j < nb; j++)
                acc[j] -= l * xk[j];
        }
        sn_real d = L[i * ldl + i];
        for (int j = 0; j < nb; j++)
            xi[j] = acc[j] / d;
    }
    for (int i = n - 1; i >= 0; i--) {
        sn_real* xi = x + (size_t)(idx ? idx[i] : i) * nb;
        for (int j = 0; j < nb; j++)
            acc[j] = xi[j];
        for (int k = i + 1; k < n; k++) {
            const sn_real* xk = x + (size_t)(idx ? idx[k] : k) * nb;
            sn_real l = L[k * ldl + i];
            for (int j = 0; j < nb; j++)
                acc[j] -= l * xk[j];
        }
        sn_real d = L[i * ldl + i];
        for (int j = 0; j < nb; j++)
            xi[j] = acc[j] / d;
    }
}


// x <- (L L^T)^-1 x for the factor of sni_chol (n x n), nb right-hand sides interleaved
static inline void sni_chol_solve(const sn_real* L, int n, sn_real* x, int nb) {
    sni_chol_solve_rows(L, n, n, NULL, x, nb);
}


// x <- (L L^T)^-1 x for the leading rank x rank block of a pivoted factor: L(a, k) is stored at
// L[perm[a] * ld + k] (k < a), the pivot L(a, a) at L[perm[a] * ld + a]; nb right-hand sides
// interleaved (x[i * nb + j])
static inline void sni_chol_solve_pivoted(const sn_real* L, const int* perm, int ld, int rank,
                                          sn_real* x, int nb) {
    for (int i = 0; i < rank; i++) {
        const sn_real* li = L + (size_t)perm[i] * ld;
        for (int k = 0; k < i; k++)
            for (int j = 0; j < nb; j++)
                x[i * nb + j] -= li[k] * x[k * nb + j];
        for (int j = 0; j < nb; j++)
            x[i * nb + j] /= li[i];
    }
    for (int i = rank - 1; i >= 0; i--) {
        for (int k = i + 1; k < rank; k++) {
            sn_real l = L[(size_t)perm[k] * ld + i];
            for (int j = 0; j < nb; j++)
                x[i * nb + j] -= l * x[k * nb + j];
        }
        for (int j = 0; j < nb; j++)
            x[i * nb + j] /= L[(size_t)perm[i] * ld + i];
    }
}


// the pivoted Cholesky factor of a symmetric positive semidefinite D (n x n, row-major):
// symmetric pivoting, the largest remaining diagonal first, until the pivots fall to tol or below.
// Left-looking: no rows are moved; L(a, k) of the a-th pivot row is stored at L[perm[a] * n + k]
// (the layout of sni_chol_solve_pivoted, ld n). dg and used are scratch (n). perm gets the
// pivoted rows first, in order, then the rows left out; returns their number (the rank)
static inline int sni_chol_pivoted(const sn_real* D, int n, sn_real tol, sn_real* L, int* perm,
                                   sn_real* dg, int* used) {
    for (int i = 0; i < n; i++)
        dg[i] = D[i * n + i], used[i] = 0;
    int rank = 0;
    for (; rank < n; rank++) {
        int p = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (p < 0 || dg[i] > dg[p])) p = i;
        if (p < 0 || !(dg[p] > tol)) break;
        used[p] = 1;
        perm[rank] = p;
        sn_real piv = sqrt(dg[p]);
        const sn_real* lp = L + (size_t)p * n;
        L[(size_t)p * n + rank] = piv;
        for (int i = 0; i < n; i++) {
            if (used[i]) continue;
            sn_real* li = L + (size_t)i * n;
            sn_real v = D[i * n + p];
            for (int q = 0; q < rank; q++)
                v -= li[q] * lp[q];
            li[rank] = v / piv;
            dg[i] -= li[rank] * li[rank];
        }
    }
    for (int k = rank, i = 0; i < n; i++) // the rows left out follow
        if (!used[i]) perm[k++] = i;
    return rank;
}


// LU factor of A (n x n, row-major) in place with partial pivoting (row exchanges in piv, n);
// SN_ERR_SINGULAR if a pivot column is zero
sn_status sni_lu_factor(sn_real* A, int n, int* piv);
// b <- A^-1 b with the factor of sni_lu_factor
void sni_lu_solve(const sn_real* LU, int n, const int* piv, sn_real* b);

#endif
