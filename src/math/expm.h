// SPDX-License-Identifier: Apache-2.0
// expm.h: the matrix exponential (internal): scaling and squaring with the diagonal Pade
// approximants r_1, r_2, r_3, r_5, r_7, r_9, r_13 (Higham 2005; algorithms.md A.11), an optional
// cap on the matrix products (the paper's "Pade order"), balancing by powers of two, e^X V for a
// skinny block V without forming e^X when it can, a full-accuracy mode (a scaled Taylor series
// summed and squared in long double: the reference of the tests), and the integrals of a linear
// dynamical system x' = A x + a from one augmented exponential (A.5, (A13)).
//
// All matrices are dense and row-major. No function allocates: the caller passes a workspace of
// the size the *_work query returns (sn_real entries). Workspaces and outputs must not overlap
// the inputs.
#ifndef SNI_EXPM_H
#define SNI_EXPM_H

#include "sinew/sn_base.h"

#include <stddef.h>

// the options. Mind that a zero-initialised struct means max_mul = 0 (r1, the trapezoidal rule,
// unscaled) without balancing: set max_mul = -1 and balance = 1 for the standard algorithm (or
// pass NULL, which means exactly that)
typedef struct sni_expm_opts {
    int max_mul; // -1: the standard algorithm (A.11, orders 3,5,7,9,13 + scaling); >= 0: the
                 // cap nu_max of A.11's table (0 -> r1, 1 -> r2, 2 -> r3, 3 -> r5, 4 -> r7,
                 // 5 -> r9, 6 -> r13, >6 -> r13 with nu-6 squarings)
    int balance; // 1: balance (powers of 2, A.11), warm-started from *bal when given
    int full;    // 1: the full-accuracy mode (to rounding; the reference in tests); max_mul is
                 // then ignored
} sni_expm_opts;

// the approximant and scaling A.11 chooses for a matrix of 1-norm norm1 (finite, >= 0) under
// the options o (NULL: the standard algorithm): *order in {1, 2, 3, 5, 7, 9, 13} and *squarings
// s >= 0 (the matrix is scaled by 2^-s); the full mode reports order 0 (Taylor) and its own s
void sni_expm_select(sn_real norm1, const sni_expm_opts* o, int* order, int* squarings);

// balances X (n x n) in place by powers of two: X <- D^-1 X D with D = diag(d); d (n) holds the
// warm start on entry (entries <= 0 or not finite, or all of d if any is, are taken as 1) and D
// on exit. Stops when a sweep changes nothing (at most 64 sweeps). Returns the 1-norm of the
// balanced X. O(n^2) per sweep.
sn_real sni_expm_balance(int n, sn_real* X, sn_real* d);

// sn_real entries of workspace for sni_expm_apply with an n x n matrix and c columns, and for
// sni_expm with c = n (it grows with n and c)
size_t sni_expm_work(int n, int c);

// out (n x c, row-major) = e^X V for X (n x n) and V (n x c). bal (n, may be NULL): the
// balancing's warm start, updated (used only with o->balance). o NULL: the standard algorithm,
// balanced. Without scaling (s = 0) no n x n solve is made: out = D Q^-1 (P D^-1 V); with s > 0
// R = Q^-1 P is squared s - k times and applied 2^k times to the block, k = floor(log2(n / c) +
// 0.529) clamped to [0, s]. Errors: SN_ERR_ARG (NULL or n, c < 0), SN_ERR_NONFINITE (X or V not
// finite, or the result overflows), SN_ERR_SINGULAR (the Pade denominator Q is singular: only
// possible with a cap on a matrix with eigenvalues far in the right half plane); out is
// unspecified on error. Cost: about (nu + 4/3) n^3 + 2^k 2 n^2 c flops, nu the products of A.11.
sn_status sni_expm_apply(int n, const sn_real* X, int c, const sn_real* V, const sni_expm_opts* o,
                         sn_real* bal, sn_real* out, sn_real* work);

// E (n x n) = e^X, with the options of sni_expm_apply (the balancing is not warm-started);
// work: sni_expm_work(n, n) entries
sn_status sni_expm(int n, const sn_real* X, const sni_expm_opts* o, sn_real* E, sn_real* work);

// sn_real entries of workspace for sni_lds_integrals with an n-state LDS (it grows with n, so a
// workspace sized for the most contacts serves every smaller set)
size_t sni_lds_work(int n);

// x' = A x + a, x(0) = x0 over h (A n x n, a and x0 n): X1 = int_0^h x, X2 = int_0^h int_0^s x
// ((A11), n each) from one exponential of the augmented (n + 3) x (n + 3) matrix h C of (A13)
// applied to two columns (three when xh is wanted), so A is never inverted and may be singular;
// optionally x(h) too (xh, may be NULL). bal (n + 3, may be NULL): the balancing's warm start.
// h must be finite and >= 0. Errors as sni_expm_apply, and SN_ERR_ARG for h < 0; on error X1,
// X2 and xh are left as they were (bal may have moved: it is only a warm start).
sn_status sni_lds_integrals(int n, const sn_real* A, const sn_real* a, const sn_real* x0, sn_real h,
                            const sni_expm_opts* o, sn_real* bal, sn_real* X1, sn_real* X2,
                            sn_real* xh, sn_real* work);

#endif
