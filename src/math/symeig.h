// SPDX-License-Identifier: Apache-2.0
// symeig.h: the eigendecomposition of a small dense symmetric matrix (internal): S = V L V^T with
// V orthogonal, by Householder reduction to tridiagonal form (with the reflections accumulated)
// and the implicit QL iteration with Wilkinson's shift (Golub & Van Loan 8.3). About 7 n^3
// flops with the vectors. Used by Expo's modal path (docs/expo.md "The modal path").
//
// Row-major, no allocation: the caller's arrays.
#ifndef SNI_SYMEIG_H
#define SNI_SYMEIG_H

#include "sinew/sn_base.h"

// S (n x n, row-major, symmetric: only its lower triangle is read) = V diag(L) V^T: L (n) the
// eigenvalues in ascending order, V (n x n, row-major) the eigenvectors in its columns
// (V[i * n + j] is entry i of vector j). S is overwritten (the reflections).
// e (n): scratch. Errors: SN_ERR_ARG (n < 0, NULL arrays), SN_ERR_NONFINITE (S not finite),
// SN_ERR_SINGULAR (the iteration did not converge in 60 sweeps per eigenvalue: not seen on
// finite input); L and V are unspecified on error.
sn_status sni_symeig(int n, sn_real* S, sn_real* L, sn_real* V, sn_real* e);

#endif
