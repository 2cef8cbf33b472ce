// SPDX-License-Identifier: Apache-2.0
// dense.h: small dense linear algebra (internal): Cholesky and LU factors of row-major n x n
// matrices in place, and their solves. Used by the contact solver's subspace step and the loops'
// small blocks.
#ifndef SNI_DENSE_H
#define SNI_DENSE_H

#include "sinew/sn_base.h"

// Cholesky A = L L^T of a symmetric A (n x n, row-major) in place, L in the lower triangle; 0 if a
// pivot is not above tol (0: not positive definite)
int sni_chol(sn_real* A, int n, sn_real tol);
// b <- (L L^T)^-1 b with the factor of sni_chol
void sni_chol_solve(const sn_real* L, int n, sn_real* b);
// LU factor of A (n x n, row-major) in place with partial pivoting (row exchanges in piv, n);
// 0 if singular
int sni_lu_factor(sn_real* A, int n, int* piv);
// b <- A^-1 b with the factor of sni_lu_factor
void sni_lu_solve(const sn_real* LU, int n, const int* piv, sn_real* b);

#endif
