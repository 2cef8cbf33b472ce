// SPDX-License-Identifier: Apache-2.0
// lsq.h: dense least squares of small systems by Householder QR with column pivoting: the rank
// (pivots below tol of the largest are zero), the minimum-norm least-squares solution (a second
// QR of the kept rows' transpose, a complete orthogonal decomposition), and an orthonormal basis
// of a matrix's column space. Row-major; A is overwritten.
#ifndef SNI_LSQ_H
#define SNI_LSQ_H

#include "sinew/sn_base.h"

#include <stddef.h>

// scratch (in sn_reals) for sni_lsq_solve and sni_lsq_range on an m x n matrix
size_t sni_lsq_work(int m, int n);
// x (n) = the minimum-norm minimizer of |A x - b| (A m x n, b m; both overwritten); returns the
// rank, *residual = |A x - b| (may be NULL); work of sni_lsq_work(m, n) reals, iwork 2 n ints
int sni_lsq_solve(sn_real* A, int m, int n, sn_real* b, sn_real* x, sn_real tol, sn_real* residual,
                  sn_real* work, int* iwork);
// Q (m x rank, row-major, leading dimension m) = an orthonormal basis of A's columns (A m x n,
// overwritten); returns the rank
int sni_lsq_range(sn_real* A, int m, int n, sn_real tol, sn_real* Q, sn_real* work, int* iwork);

#endif
