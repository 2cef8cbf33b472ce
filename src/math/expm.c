// SPDX-License-Identifier: Apache-2.0
// expm.c: the matrix exponential by scaling and squaring of diagonal Pade approximants (Higham,
// "The scaling and squaring method for the matrix exponential revisited", SIAM J. Matrix Anal.
// Appl. 26(4), 2005; algorithms.md A.11): the order from the 1-norm and the thresholds theta_j,
// an optional cap on the products, balancing by powers of two, e^X V for a skinny V; a reference
// mode summing a scaled Taylor series in long double; and the integrals of x' = A x + a from the
// augmented matrix of (A13) (A.5).
#include "math/expm.h"

#include "math/dense.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

// ---- the approximants: r_j = (V - U)^-1 (V + U), V the even and U the odd terms of p_j ----

// the coefficients of p_j (A19) scaled to integers, lowest power first
static const double pade1[] = {2, 1};
static const double pade2[] = {12, 6, 1};
static const double pade3[] = {120, 60, 12, 1};
static const double pade5[] = {30240, 15120, 3360, 420, 30, 1};
static const double pade7[] = {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1};
static const double pade9[] = {17643225600.0, 8821612800.0, 2075673600, 302702400, 30270240,
                               2162160,       110880,       3960,       90,        1};
static const double pade13[] = {64764752532480000.0,
                                32382376266240000.0,
                                7771770303897600.0,
                                1187353796428800.0,
                                129060195264000.0,
                                10559470521600.0,
                                670442572800.0,
                                33522128640.0,
                                1323241920.0,
                                40840800.0,
                                960960.0,
                                16380.0,
                                182.0,
                                1.0};

// the largest 1-norm at which r_j alone meets the unit roundoff 2^-53 (Higham 2005)
static const double theta3 = 1.495585217958292e-2;
static const double theta5 = 2.539398330063230e-1;
static const double theta7 = 9.504178996162932e-1;
static const double theta9 = 2.097847961257068;
static const double theta13 = 5.371920351148152;

// the full mode scales X to this 1-norm before summing the Taylor series
#define FULL_NORM 0.5
#define FULL_TERMS_MAX 60
#define BALANCE_SWEEPS_MAX 64
#define BALANCE_STEP_MAX 64 // powers of two one row may move in one visit


static const double* pade_coefficients(int order) {
    switch (order) {
    case 1:
        return pade1;
    case 2:
        return pade2;
    case 3:
        return pade3;
    case 5:
        return pade5;
    case 7:
        return pade7;
    case 9:
        return pade9;
    default:
        return pade13;
    }
}


void sni_expm_select(sn_real norm1, const sni_expm_opts* o, int* order, int* squarings) {
    if (!(norm1 >= 0) || !isfinite(norm1)) norm1 = 0; // not a norm: the callers refuse it first
    if (o && o->full) {
        int s = 0;
        while (ldexp(norm1, -s) > FULL_NORM)
            s++;
        *order = 0, *squarings = s;
        return;
    }
    // the multiplication count nu of the standard choice, then the cap, then A.11's table
    int nu;
    if (norm1 < theta3)
        nu = 2;
    else if (norm1 < theta5)
        nu = 3;
    else if (norm1 < theta7)
        nu = 4;
    else if (norm1 < theta9)
        nu = 5;
    else {
        int e;
        frexp(norm1 / theta13, &e);
        nu = 6 + (e > 0 ? e : 0);
    }
    if (o && o->max_mul >= 0 && o->max_mul < nu) nu = o->max_mul;
    static const int order_of_nu[] = {1, 2, 3, 5, 7, 9, 13};
    *order = order_of_nu[nu < 6 ? nu : 6];
    *squarings = nu > 6 ? nu - 6 : 0;
}


// ---- dense helpers (n x n row-major unless said) ----

static sn_real norm1(int n, const sn_real* X) {
    sn_real m = 0;
    for (int j = 0; j < n; j++) {
        sn_real c = 0;
        for (int i = 0; i < n; i++)
            c += fabs(X[i * n + j]);
        if (c > m) m = c;
    }
    return m;
}


// ---- the products: tiles of two rows held in registers (the tile loop is what the compiler
// vectorizes), every sum in ascending k as a plain triple loop would make it, so results do not
// depend on the tiling. The matrices of the standard algorithm share X's block structure:
// rows n1 .. n - 1 are zero before column n1 (the augmented LDS of (A13): n1 = n - 3), so their
// products skip those blocks (the skipped terms are exact zeros) ----

// c0, c1 (W entries) = a0, a1 (rows, entries k0 .. k1 - 1) times B's rows k0 .. k1 - 1 (ld ldb,
// already offset to the tile's first column); sparse: skip the k where both rows are 0; c1 NULL:
// a0's row alone. sub_tile: one row c -= l B (the solves)
// GCC's loop vectorizer would vectorize the k loop as in-order reductions (two k in a vector,
// the sums still one by one), twice the instructions of the tile vectorized across its columns
// (the SLP vectorizer, kept); other compilers vectorize the tile as written
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-loop-vectorize")
#endif
#define MM_LIST_MAX 32 // the most nonzeros of a pair of rows taken as a list
#define MM_TILE(W)                                                                                 \
    static void mm_tile##W(int k0, int k1, const sn_real* restrict a0, const sn_real* a1,          \
                           const sn_real* restrict B, int ldb, int sparse, sn_real* restrict c0,   \
                           sn_real* restrict c1) {                                                 \
        sn_real s0[W] = {0}, s1[W] = {0};                                                          \
        if (sparse) {                                                                              \
            for (int k = k0; k < k1; k++) {                                                        \
                sn_real x = a0[k], y = a1[k];                                                      \
                if (x == 0 && y == 0) continue;                                                    \
                const sn_real* bk = B + (size_t)k * ldb;                                           \
                for (int j = 0; j < W; j++)                                                        \
                    s0[j] += x * bk[j], s1[j] += y * bk[j];                                        \
            }                                                                                      \
        } else {                                                                                   \
            for (int k = k0; k < k1; k++) {                                                        \
                sn_real x = a0[k], y = a1[k];                                                      \
                const sn_real* bk = B + (size_t)k * ldb;                                           \
                for (int j = 0; j < W; j++)                                                        \
                    s0[j] += x * bk[j], s1[j] += y * bk[j];                                        \
            }                                                                                      \
        }                                                                                          \
        memcpy(c0, s0, sizeof s0);                                                                 \
        if (c1) memcpy(c1, s1, sizeof s1);                                                         \
    }                                                                                              \
    static void sub_tile##W(int k0, int k1, const sn_real* restrict l, const sn_real* restrict B,  \
                            int ldb, sn_real* restrict c) {                                        \
        sn_real s[W];                                                                              \
        memcpy(s, c, sizeof s);                                                                    \
        for (int k = k0; k < k1; k++) {                                                            \
            sn_real x = l[k];                                                                      \
            const sn_real* bk = B + (size_t)k * ldb;                                               \
            for (int j = 0; j < W; j++)                                                            \
                s[j] -= x * bk[j];                                                                 \
        }                                                                                          \
        memcpy(c, s, sizeof s);                                                                    \
    }
MM_TILE(8)
MM_TILE(4)
MM_TILE(3)
MM_TILE(2)
MM_TILE(1)

// the same over the listed k only (ascending: the rows' nonzeros), for mostly-zero rows
#define MM_LTILE(W)                                                                                \
    static void mm_ltile##W(int cnt, const int* ks, const sn_real* restrict a0, const sn_real* a1, \
                            const sn_real* restrict B, int ldb, sn_real* restrict c0,              \
                            sn_real* restrict c1) {                                                \
        sn_real s0[W] = {0}, s1[W] = {0};                                                          \
        for (int q = 0; q < cnt; q++) {                                                            \
            int k = ks[q];                                                                         \
            sn_real x = a0[k], y = a1[k];                                                          \
            const sn_real* bk = B + (size_t)k * ldb;                                               \
            for (int j = 0; j < W; j++)                                                            \
                s0[j] += x * bk[j], s1[j] += y * bk[j];                                            \
        }                                                                                          \
        memcpy(c0, s0, sizeof s0);                                                                 \
        if (c1) memcpy(c1, s1, sizeof s1);                                                         \
    }
MM_LTILE(8)
MM_LTILE(4)
MM_LTILE(3)
MM_LTILE(2)
MM_LTILE(1)


// columns j0 .. j1 - 1 of rows a0, a1 (into c0, c1: whole rows of C) over k0 .. k1 - 1, by tiles
// of 8, 4, 2 and 1 columns
static void mm_cols(int k0, int k1, const sn_real* a0, const sn_real* a1, const sn_real* B, int ldb,
                    int j0, int j1, int sparse, sn_real* c0, sn_real* c1) {
    int j = j0;
#define MM_AT(W) mm_tile##W(k0, k1, a0, a1, B + j, ldb, sparse, c0 + j, c1 ? c1 + j : NULL)
    for (; j + 8 <= j1; j += 8)
        MM_AT(8);
    if (j + 4 <= j1) MM_AT(4), j += 4;
    if (j + 3 == j1) MM_AT(3), j += 3;
    if (j + 2 <= j1) MM_AT(2), j += 2;
    if (j < j1) MM_AT(1);
#undef MM_AT
}


// mm_cols over the listed k only
static void mm_cols_list(int cnt, const int* ks, const sn_real* a0, const sn_real* a1,
                         const sn_real* B, int ldb, int j0, int j1, sn_real* c0, sn_real* c1) {
    int j = j0;
#define MM_AT(W) mm_ltile##W(cnt, ks, a0, a1, B + j, ldb, c0 + j, c1 ? c1 + j : NULL)
    for (; j + 8 <= j1; j += 8)
        MM_AT(8);
    if (j + 4 <= j1) MM_AT(4), j += 4;
    if (j + 3 == j1) MM_AT(3), j += 3;
    if (j + 2 <= j1) MM_AT(2), j += 2;
    if (j < j1) MM_AT(1);
#undef MM_AT
}


// c0 (a row, columns j0 .. j1 - 1) -= l (entries k0 .. k1 - 1) times B's rows k0 .. k1 - 1
static void sub_cols(int k0, int k1, const sn_real* l, const sn_real* B, int ldb, int j0, int j1,
                     sn_real* c0) {
    int j = j0;
    for (; j + 8 <= j1; j += 8)
        sub_tile8(k0, k1, l, B + j, ldb, c0 + j);
    if (j + 4 <= j1) sub_tile4(k0, k1, l, B + j, ldb, c0 + j), j += 4;
    if (j + 3 == j1) sub_tile3(k0, k1, l, B + j, ldb, c0 + j), j += 3;
    if (j + 2 <= j1) sub_tile2(k0, k1, l, B + j, ldb, c0 + j), j += 2;
    if (j < j1) sub_tile1(k0, k1, l, B + j, ldb, c0 + j);
}


// four rows of C (ld ldc) = the four rows of A at a (ld lda) times B (ld ldb, offset to the
// tile's first column), W columns, over k0 <= k < k1, or over ks[k0 .. k1 - 1] when ks
#define MM4_TILE(W)                                                                                \
    static void mm4_tile##W(int k0, int k1, const int* ks, const sn_real* restrict a, int lda,     \
                            const sn_real* restrict B, int ldb, sn_real* restrict w, int ldc) {    \
        sn_real s0[W] = {0}, s1[W] = {0}, s2[W] = {0}, s3[W] = {0};                                \
        const sn_real *a0 = a, *a1 = a + lda, *a2 = a1 + lda, *a3 = a2 + lda;                      \
        for (int q = k0; q < k1; q++) {                                                            \
            int k = ks ? ks[q] : q;                                                                \
            const sn_real* bk = B + (size_t)k * ldb;                                               \
            sn_real x0 = a0[k], x1 = a1[k], x2 = a2[k], x3 = a3[k];                                \
            for (int j = 0; j < W; j++)                                                            \
                s0[j] += x0 * bk[j], s1[j] += x1 * bk[j], s2[j] += x2 * bk[j],                     \
                    s3[j] += x3 * bk[j];                                                           \
        }                                                                                          \
        memcpy(w, s0, sizeof s0);                                                                  \
        memcpy(w + ldc, s1, sizeof s1);                                                            \
        memcpy(w + 2 * ldc, s2, sizeof s2);                                                        \
        memcpy(w + 3 * ldc, s3, sizeof s3);                                                        \
    }
MM4_TILE(2)
MM4_TILE(3)


// C = A B, n x n, both with the block structure n1 (n1 = n: dense); sparse: A has many zeros
// (X itself: its position rows), skipped
static void mat_mul(int n, int n1, int sparse, const sn_real* restrict A, const sn_real* restrict B,
                    sn_real* restrict C) {
    int t = n - n1; // the last columns
    for (int i = 0; i < n1; i += 2) {
        int two = i + 1 < n1; // else the odd last row, computed twice, stored once
        const sn_real* a0 = A + (size_t)i * n;
        sn_real* c0 = C + (size_t)i * n;
        const sn_real* a1 = two ? a0 + n : a0;
        sn_real* c1 = two ? c0 + n : NULL;
        // a pair of mostly-zero rows (X's position rows) over the list of its nonzeros
        int cnt = 0, lead = 0, ks[MM_LIST_MAX];
        for (int k = 0; sparse && k < n && cnt <= MM_LIST_MAX; k++)
            if (a0[k] != 0 || a1[k] != 0) {
                if (cnt < MM_LIST_MAX) ks[cnt] = k;
                cnt++, lead += k < n1;
            }
        // the last columns over every k: here unless they are 2 or 3, done four rows at a time
        int tail = !(t == 2 || t == 3) || i >= n1 / 4 * 4;
        if (sparse && cnt <= MM_LIST_MAX && 4 * cnt <= n) {
            mm_cols_list(lead, ks, a0, a1, B, n, 0, n1, c0, c1);
            if (tail) mm_cols_list(cnt, ks, a0, a1, B, n, n1, n, c0, c1);
            continue;
        }
        mm_cols(0, n1, a0, a1, B, n, 0, n1, 0, c0, c1); // the leading block: k < n1
        if (tail) mm_cols(0, n, a0, a1, B, n, n1, n, 0, c0, c1);
    }
    for (int i = 0; (t == 2 || t == 3) && i + 4 <= n1; i += 4) {
        if (t == 2)
            mm4_tile2(0, n, NULL, A + (size_t)i * n, n, B + n1, n, C + (size_t)i * n + n1, n);
        else
            mm4_tile3(0, n, NULL, A + (size_t)i * n, n, B + n1, n, C + (size_t)i * n + n1, n);
    }
    for (int i = n1; i < n; i++) { // the trailing block, zero before n1
        sn_real* ci = C + (size_t)i * n;
        const sn_real* ai = A + (size_t)i * n;
        for (int j = 0; j < n1; j++)
            ci[j] = 0;
        for (int j = n1; j < n; j++) {
            sn_real x = 0;
            for (int k = n1; k < n; k++)
                x += ai[k] * B[(size_t)k * n + j];
            ci[j] = x;
        }
    }
}


// W (n x c, row-major) = A W0, A with the block structure n1. The zero rows of W0 are skipped
// when they are most (the first application to the LDS's unit columns); c = 2, 3 by four rows
static void mat_mul_block(int n, int n1, const sn_real* restrict A, int c,
                          const sn_real* restrict W0, sn_real* restrict W) {
    int ks[MM_LIST_MAX], cnt = 0, lead = 0;
    for (int k = 0; k < n && cnt <= MM_LIST_MAX; k++) {
        int nz = 0;
        for (int j = 0; j < c; j++)
            nz |= W0[(size_t)k * c + j] != 0;
        if (!nz) continue;
        if (cnt < MM_LIST_MAX) ks[cnt] = k;
        cnt++, lead += k < n1;
    }
    int list = cnt <= MM_LIST_MAX && 4 * cnt <= n;
    for (int i = 0; i < n;) {
        int k0 = i < n1 ? 0 : n1;
        int q0 = i < n1 ? 0 : lead;
        const sn_real* a0 = A + (size_t)i * n;
        if ((c == 2 || c == 3) && i + 4 <= n && (i + 3 < n1) == (i < n1)) {
            int from = list ? q0 : k0, to = list ? cnt : n;
            if (c == 2)
                mm4_tile2(from, to, list ? ks : NULL, a0, n, W0, 2, W + (size_t)i * c, 2);
            else
                mm4_tile3(from, to, list ? ks : NULL, a0, n, W0, 3, W + (size_t)i * c, 3);
            i += 4;
            continue;
        }
        int two = i + 1 < n && (i + 1 < n1) == (i < n1); // a pair shares its k range
        sn_real* w1 = two ? W + (size_t)(i + 1) * c : NULL;
        if (list)
            mm_cols_list(cnt - q0, ks + q0, a0, two ? a0 + n : a0, W0, c, 0, c, W + (size_t)i * c,
                         w1);
        else
            mm_cols(k0, n, a0, two ? a0 + n : a0, W0, c, 0, c, 0, W + (size_t)i * c, w1);
        i += two ? 2 : 1;
    }
}


#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif


// M = c0 I + sum_i coef[i] P[i] over np matrices
static void lincomb(int n, sn_real c0, int np, const sn_real* coef, const sn_real* const* P,
                    sn_real* M) {
    size_t nn = (size_t)n * n;
    if (np == 3) { // order 13's sums, unrolled so that the entries are what is vectorized
        const sn_real *p0 = P[0], *p1 = P[1], *p2 = P[2];
        sn_real b0 = coef[0], b1 = coef[1], b2 = coef[2];
        for (size_t e = 0; e < nn; e++)
            M[e] = b0 * p0[e] + b1 * p1[e] + b2 * p2[e];
    } else
        for (size_t e = 0; e < nn; e++) {
            sn_real s = 0;
            for (int i = 0; i < np; i++)
                s += coef[i] * P[i][e];
            M[e] = s;
        }
    for (int i = 0; i < n; i++)
        M[(size_t)i * n + i] += c0;
}


static int all_finite(size_t m, const sn_real* x) {
    for (size_t i = 0; i < m; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


// ---- balancing ----

sn_real sni_expm_balance(int n, sn_real* X, sn_real* d) {
    int fresh = 0;
    for (int i = 0; i < n; i++)
        if (!(d[i] > 0) || !isfinite(d[i])) fresh = 1;
    if (fresh)
        for (int i = 0; i < n; i++)
            d[i] = 1;
    else // the warm start: X <- D^-1 X D (d holds powers of two: 1 / d[i] is exact)
        for (int i = 0; i < n; i++) {
            sn_real r = 1 / d[i];
            for (int j = 0; j < n; j++)
                X[i * n + j] *= d[j] * r;
        }
    for (int sweep = 0; sweep < BALANCE_SWEEPS_MAX; sweep++) {
        int changed = 0;
        for (int i = 0; i < n; i++) {
            sn_real c = 0, r = 0;
            for (int k = 0; k < n; k++)
                c += fabs(X[k * n + i]), r += fabs(X[i * n + k]);
            if (!(c > 0) || !(r > 0)) continue; // a zero row or column: no scale helps
            // c^2 + r^2 relative to max(c, r)^2, so that entries near the overflow compare too
            sn_real m = c > r ? c : r, c0 = c / m, r0 = r / m, f = 1;
            for (int step = 0; 2 * c < r && step < BALANCE_STEP_MAX; step++)
                f *= 2, c *= 2, r /= 2;
            for (int step = 0; c >= 2 * r && step < BALANCE_STEP_MAX; step++)
                f /= 2, c /= 2, r *= 2;
            c /= m, r /= m;
            if (f == 1 || !(c * c + r * r < (sn_real)0.95 * (c0 * c0 + r0 * r0))) continue;
            // column i times f, row i divided by f (the diagonal entry is unchanged)
            d[i] *= f;
            sn_real g = 1 / f; // exact: f is a power of two
            for (int k = 0; k < n; k++)
                X[k * n + i] *= f, X[i * n + k] *= g;
            changed = 1;
        }
        if (!changed) break;
    }
    return norm1(n, X);
}


// ---- the workspace ----

// long double entries of the full mode, carved after the n x n balanced copy
static size_t full_ld(int n, int c) {
    return 4 * (size_t)n * n + (size_t)n * c;
}

static size_t ld_ratio(void) {
    return (sizeof(long double) + sizeof(sn_real) - 1) / sizeof(sn_real);
}


size_t sni_expm_work(int n, int c) {
    if (n <= 0) return 1;
    if (c < 0) c = 0;
    size_t nn = (size_t)n * n;
    size_t standard = 8 * nn + 2 * (size_t)n * c + 2 * (size_t)n;
    size_t slack = _Alignof(long double) / sizeof(sn_real) + 1;
    size_t full = nn + slack + ld_ratio() * full_ld(n, c);
    // + n: the balancing's D when the caller keeps no warm start
    return (standard > full ? standard : full) + (size_t)n;
}


static long double* full_area(int n, sn_real* work) {
    uintptr_t p = (uintptr_t)(work + (size_t)n * n);
    uintptr_t al = _Alignof(long double);
    return (long double*)((p + al - 1) / al * al);
}


// ---- the preparation shared by every mode ----

typedef struct plan {
    int order, squarings;
    int n1;           // X's block structure: rows n1 .. n - 1 are zero before column n1
    const sn_real* d; // the balancing D (n), NULL: identity
} plan;


// the smallest n1 such that rows n1 .. n - 1 of X are zero in the columns before n1 (n: none);
// the products, powers, Pade sums, Q's factor and its solves keep that zero block
static int leading_block(int n, const sn_real* X) {
    int n1 = n, first = n; // first: the least first-nonzero column of rows n1 .. n - 1
    for (int i = n - 1; i >= 1; i--) {
        int f = 0;
        while (f < n && X[(size_t)i * n + f] == 0)
            f++;
        if (f < first) first = f;
        if (first >= i) n1 = i;
    }
    return n1;
}


// Xb (the workspace's first n x n) = 2^-s D^-1 X D, the order and s chosen on D^-1 X D
static sn_status prepare(int n, const sn_real* X, const sni_expm_opts* o, sn_real* bal,
                         sn_real* dwork, sn_real* Xb, plan* pl) {
    size_t nn = (size_t)n * n;
    if (!all_finite(nn, X)) return SN_ERR_NONFINITE;
    memcpy(Xb, X, nn * sizeof *Xb);
    int balance = o ? o->balance : 1;
    sn_real nrm;
    pl->d = NULL;
    if (balance) {
        sn_real* d = bal ? bal : dwork;
        if (!bal) d[0] = 0; // no warm start
        nrm = sni_expm_balance(n, Xb, d);
        if (!isfinite(nrm) && bal) { // a warm start from a far other matrix overflowed it
            memcpy(Xb, X, nn * sizeof *Xb);
            d[0] = 0;
            nrm = sni_expm_balance(n, Xb, d);
        }
        pl->d = d;
    } else
        nrm = norm1(n, Xb);
    if (!isfinite(nrm)) return SN_ERR_NONFINITE; // finite entries whose sums overflow
    sni_expm_select(nrm, o, &pl->order, &pl->squarings);
    pl->n1 = leading_block(n, Xb);
    if (pl->squarings) { // times 2^-s: exact (as ldexp) but for results below DBL_MIN
        sn_real f = ldexp(1, -pl->squarings);
        for (size_t e = 0; e < nn; e++)
            Xb[e] = pl->squarings < 960 ? Xb[e] * f : ldexp(Xb[e], -pl->squarings);
    }
    return SN_OK;
}


// ---- the standard algorithm ----

// P = V + U and the LU factor of Q = V - U of r_order(Y) (workspace w after Y: 7 n x n, piv)
static sn_status pade_pq(int n, int n1, const sn_real* Y, int order, sn_real* w, sn_real** P,
                         sn_real** Q, int* piv) {
    size_t nn = (size_t)n * n;
    sn_real* pw[5] = {NULL, w, w + nn, w + 2 * nn, w + 3 * nn}; // Y^2, Y^4, Y^6, Y^8
    sn_real* U = w + 4 * nn;
    sn_real* V = w + 5 * nn;
    sn_real* T = w + 6 * nn;
    const double* b = pade_coefficients(order);
    if (order == 13) {
        mat_mul(n, n1, 1, Y, Y, pw[1]);
        mat_mul(n, n1, 0, pw[1], pw[1], pw[2]);
        mat_mul(n, n1, 0, pw[1], pw[2], pw[3]);
        const sn_real* even[3] = {pw[1], pw[2], pw[3]};
        // U = Y (Y^6 (b13 Y^6 + b11 Y^4 + b9 Y^2) + b7 Y^6 + b5 Y^4 + b3 Y^2 + b1 I)
        sn_real hi[3] = {b[9], b[11], b[13]}, lo[3] = {b[3], b[5], b[7]};
        lincomb(n, 0, 3, hi, even, T);
        mat_mul(n, n1, 0, pw[3], T, pw[4]);
        lincomb(n, b[1], 3, lo, even, T);
        for (size_t e = 0; e < nn; e++)
            T[e] += pw[4][e];
        mat_mul(n, n1, 1, Y, T, U);
        // V = Y^6 (b12 Y^6 + b10 Y^4 + b8 Y^2) + b6 Y^6 + b4 Y^4 + b2 Y^2 + b0 I
        sn_real vhi[3] = {b[8], b[10], b[12]}, vlo[3] = {b[2], b[4], b[6]};
        lincomb(n, 0, 3, vhi, even, T);
        mat_mul(n, n1, 0, pw[3], T, pw[4]);
        lincomb(n, b[0], 3, vlo, even, V);
        for (size_t e = 0; e < nn; e++)
            V[e] += pw[4][e];
    } else {
        // the even powers Y^2 .. Y^(2m), m = order / 2, one product each
        int m = order / 2;
        for (int i = 1; i <= m; i++)
            mat_mul(n, n1, i == 1, i == 1 ? Y : pw[i - 1], i == 1 ? Y : pw[1], pw[i]);
        sn_real ce[4] = {0}, co[4] = {0};
        for (int i = 1; i <= m; i++)
            ce[i - 1] = b[2 * i], co[i - 1] = 2 * i + 1 <= order ? b[2 * i + 1] : 0;
        const sn_real* even[4] = {pw[1], pw[2], pw[3], pw[4]};
        lincomb(n, b[0], m, ce, even, V);
        if (order >= 3) {
            lincomb(n, b[1], m, co, even, T);
            mat_mul(n, n1, 1, Y, T, U);
        } else
            for (size_t e = 0; e < nn; e++)
                U[e] = b[1] * Y[e];
    }
    // P = V + U in V, Q = V - U in U
    for (size_t e = 0; e < nn; e++) {
        sn_real v = V[e], u = U[e];
        V[e] = v + u, U[e] = v - u;
    }
    *P = V, *Q = U;
    return sni_lu_factor(U, n, piv);
}


// R (n x c, row-major) = Q^-1 P on the factor of sni_lu_factor (its row exchanges, unit L below
// the diagonal, U on and above), row by row with the row's tile in registers: every entry's sum
// in the order of sni_lu_solve (which this replaces), whatever c
static void solve_block(int n, int n1, int c, const sn_real* LU, const int* piv, const sn_real* P,
                        sn_real* R) {
    memcpy(R, P, (size_t)n * c * sizeof *R);
    for (int k = 0; k < n; k++)
        if (piv[k] != k)
            for (int j = 0; j < c; j++) {
                sn_real t = R[(size_t)k * c + j];
                R[(size_t)k * c + j] = R[(size_t)piv[k] * c + j], R[(size_t)piv[k] * c + j] = t;
            }
    // the block structure: rows n1.. of L are zero before column n1 (the pivots stay in the
    // leading block), and when R is n x n with P's structure, its rows n1.. are zero there too
    int j0 = c == n ? n1 : 0;
    for (int i = 1; i < n; i++) // L Y = P R
        sub_cols(i < n1 ? 0 : n1, i, LU + (size_t)i * n, R, c, i < n1 ? 0 : j0, c,
                 R + (size_t)i * c);
    for (int i = n - 1; i >= 0; i--) { // U R = Y
        sn_real* ri = R + (size_t)i * c;
        int jb = i < n1 ? 0 : j0;
        sub_cols(i + 1, n, LU + (size_t)i * n, R, c, jb, c, ri);
        sn_real d = LU[(size_t)i * n + i];
        for (int j = jb; j < c; j++)
            ri[j] /= d;
    }
}


// R <- R^(2^times), the result in *R (a or b)
static sn_real* square(int n, int n1, int times, sn_real* a, sn_real* b) {
    for (int t = 0; t < times; t++) {
        mat_mul(n, n1, 0, a, a, b);
        sn_real* s = a;
        a = b, b = s;
    }
    return a;
}


// ---- the full-accuracy mode: Taylor on 2^-s X to long double rounding, squared s times ----

// S (long double, n x n) = e^(Y 2^s), Y the scaled balanced matrix
static long double* full_exp(int n, const sn_real* Y, int s, long double* w) {
    size_t nn = (size_t)n * n;
    long double *Yl = w, *T = w + nn, *S = w + 2 * nn, *tmp = w + 3 * nn;
    for (size_t e = 0; e < nn; e++)
        Yl[e] = Y[e], T[e] = Y[e], S[e] = Y[e];
    for (int i = 0; i < n; i++)
        S[(size_t)i * n + i] += 1;
    // T <- T Y / k; S <- S + T until T no longer changes any entry of S at long double
    // precision: entry by entry, not on the norms (a balanced matrix's small entries become large
    // when the balancing is undone, so a term small against the norm may still count)
    for (int k = 2; k < FULL_TERMS_MAX; k++) {
        int done = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                long double acc = 0;
                for (int l = 0; l < n; l++)
                    acc += T[(size_t)i * n + l] * Yl[(size_t)l * n + j];
                tmp[(size_t)i * n + j] = acc / k;
            }
        for (size_t e = 0; e < nn; e++) {
            T[e] = tmp[e], S[e] += T[e];
            done &= fabsl(T[e]) <= LDBL_EPSILON * 0.125L * fabsl(S[e]);
        }
        if (done) break;
    }
    for (int t = 0; t < s; t++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                long double acc = 0;
                for (int l = 0; l < n; l++)
                    acc += S[(size_t)i * n + l] * S[(size_t)l * n + j];
                tmp[(size_t)i * n + j] = acc;
            }
        long double* x = S;
        S = tmp, tmp = x;
    }
    return S;
}


// ---- e^X V ----

static sn_status check_out(size_t m, const sn_real* out) {
    return all_finite(m, out) ? SN_OK : SN_ERR_NONFINITE;
}


static sn_status apply_full(int n, int c, const sn_real* V, const plan* pl, sn_real* out,
                            sn_real* work) {
    long double* w = full_area(n, work);
    long double* S = full_exp(n, work, pl->squarings, w);
    long double* W = w + 4 * (size_t)n * n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < c; j++)
            W[(size_t)i * c + j] = pl->d ? (long double)V[i * c + j] / pl->d[i] : V[i * c + j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < c; j++) {
            long double acc = 0;
            for (int l = 0; l < n; l++)
                acc += S[(size_t)i * n + l] * W[(size_t)l * c + j];
            out[i * c + j] = (sn_real)(pl->d ? acc * pl->d[i] : acc);
        }
    return check_out((size_t)n * c, out);
}


static sn_status apply_standard(int n, int c, const sn_real* V, const plan* pl, sn_real* out,
                                sn_real* work) {
    size_t nn = (size_t)n * n;
    int n1 = pl->n1;
    sn_real* W0 = work + 8 * nn; // the block, row-major (c per row)
    sn_real* W1 = W0 + (size_t)n * c;
    sn_real* col = W1 + (size_t)n * c;
    int* piv = (int*)(col + n);
    sn_real *P, *Q;
    sn_status st = pade_pq(n, n1, work, pl->order, work + nn, &P, &Q, piv);
    if (st != SN_OK) return st;
    for (int i = 0; i < n; i++) // W0 = D^-1 V
        for (int j = 0; j < c; j++)
            W0[(size_t)i * c + j] = pl->d ? V[i * c + j] / pl->d[i] : V[i * c + j];
    int s = pl->squarings;
    if (s == 0) { // W = Q^-1 (P W0): no n x n solve
        mat_mul_block(n, n1, P, c, W0, W1);
        solve_block(n, n1, c, Q, piv, W1, W0);
    } else {
        // R = Q^-1 P squared s - k times, then applied 2^k times to the block (applying Q^-1 P
        // 2^s times instead, when 2^s c < n, cost fewer instructions but 1.3 us more on Solo's
        // 27 x 27: the one-column solves are chains of dependent sums)
        sn_real* R = work + nn; // the powers are no longer needed
        solve_block(n, n1, n, Q, piv, P, R);
        int k = (int)floor(log2((double)n / c) + 0.529);
        k = k < 0 ? 0 : k > s ? s : k;
        R = square(n, n1, s - k, R, work + 2 * nn);
        for (long t = 0; t < (1L << k); t++) {
            mat_mul_block(n, n1, R, c, W0, W1);
            sn_real* x = W0;
            W0 = W1, W1 = x;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < c; j++)
            out[i * c + j] = pl->d ? pl->d[i] * W0[(size_t)i * c + j] : W0[(size_t)i * c + j];
    return check_out((size_t)n * c, out);
}


sn_status sni_expm_apply(int n, const sn_real* X, int c, const sn_real* V, const sni_expm_opts* o,
                         sn_real* bal, sn_real* out, sn_real* work) {
    if (n < 0 || c < 0 || (n > 0 && (!X || !work)) || (n > 0 && c > 0 && (!V || !out)))
        return SN_ERR_ARG;
    if (n == 0) return SN_OK;
    if (!all_finite((size_t)n * c, V)) return SN_ERR_NONFINITE;
    plan pl;
    // the balancing's own D sits at the end of the block area when no bal is given
    sn_real* dwork = work + sni_expm_work(n, c) - n;
    sn_status st = prepare(n, X, o, bal, dwork, work, &pl);
    if (st != SN_OK || c == 0) return st;
    if (o && o->full) return apply_full(n, c, V, &pl, out, work);
    return apply_standard(n, c, V, &pl, out, work);
}


sn_status sni_expm(int n, const sn_real* X, const sni_expm_opts* o, sn_real* E, sn_real* work) {
    if (n < 0 || (n > 0 && (!X || !E || !work))) return SN_ERR_ARG;
    if (n == 0) return SN_OK;
    size_t nn = (size_t)n * n;
    plan pl;
    sn_real* dwork = work + sni_expm_work(n, n) - n;
    sn_status st = prepare(n, X, o, NULL, dwork, work, &pl);
    if (st != SN_OK) return st;
    if (o && o->full) {
        long double* S = full_exp(n, work, pl.squarings, full_area(n, work));
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                long double e = S[(size_t)i * n + j];
                E[(size_t)i * n + j] = (sn_real)(pl.d ? e * pl.d[i] / pl.d[j] : e);
            }
        return check_out(nn, E);
    }
    sn_real *P, *Q;
    int* piv = (int*)(work + 8 * nn + 2 * nn + n);
    st = pade_pq(n, pl.n1, work, pl.order, work + nn, &P, &Q, piv);
    if (st != SN_OK) return st;
    sn_real* R = work + nn;
    solve_block(n, pl.n1, n, Q, piv, P, R);
    R = square(n, pl.n1, pl.squarings, R, work + 2 * nn);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            sn_real e = R[(size_t)i * n + j];
            E[(size_t)i * n + j] = pl.d ? e * pl.d[i] / pl.d[j] : e;
        }
    return check_out(nn, E);
}


// ---- the integrals of the LDS (A.5) ----

size_t sni_lds_work(int n) {
    if (n < 0) n = 0;
    size_t N = (size_t)n + 3;
    return N * N + 6 * N + sni_expm_work((int)N, 3);
}


sn_status sni_lds_integrals(int n, const sn_real* A, const sn_real* a, const sn_real* x0, sn_real h,
                            const sni_expm_opts* o, sn_real* bal, sn_real* X1, sn_real* X2,
                            sn_real* xh, sn_real* work) {
    if (n < 0 || !A || !a || !x0 || !X1 || !X2 || !work) return SN_ERR_ARG;
    if (!isfinite(h)) return SN_ERR_NONFINITE;
    if (h < 0) return SN_ERR_ARG;
    int N = n + 3, c = xh ? 3 : 2;
    sn_real* C = work;
    sn_real* V = C + (size_t)N * N;
    sn_real* out = V + 3 * (size_t)N;
    // h C = h [[A, a, x0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]] (A13)
    memset(C, 0, (size_t)N * N * sizeof *C);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            C[i * N + j] = h * A[i * n + j];
        C[i * N + n] = h * a[i];
        C[i * N + n + 1] = h * x0[i];
    }
    C[n * N + n + 1] = h;
    C[(n + 1) * N + n + 2] = h;
    // V = [e_(n+1), e_(n+2), (x0; 1; 0; 0)] (0-based columns): X1, X2 and x(h)
    memset(V, 0, (size_t)N * c * sizeof *V);
    V[(n + 1) * c + 0] = 1;
    V[(n + 2) * c + 1] = 1;
    if (xh) {
        for (int i = 0; i < n; i++)
            V[i * c + 2] = x0[i];
        V[n * c + 2] = 1;
    }
    sn_status st = sni_expm_apply(N, C, c, V, o, bal, out, out + 3 * (size_t)N);
    if (st != SN_OK) return st;
    for (int i = 0; i < n; i++) {
        X1[i] = out[i * c + 0];
        X2[i] = out[i * c + 1];
        if (xh) xh[i] = out[i * c + 2];
    }
    return SN_OK;
}
