// SPDX-License-Identifier: Apache-2.0
// test_symeig.c: the symmetric eigendecomposition (src/math/symeig.c): V L V^T rebuilds S, V is
// orthogonal, on random matrices, matrices built from known eigenvalues (repeated, zero,
// negative, spread over many decades), diagonal, rank-deficient Gram matrices and tiny sizes;
// refusals and no allocation.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "math/symeig.h"

#include <float.h>
#include <stdint.h>

#define NMAX 48
static sn_real g_S[NMAX * NMAX], g_A[NMAX * NMAX], g_V[NMAX * NMAX], g_L[NMAX], g_e[NMAX];

// common.c's xorshift, from one seed
static void reseed(void) {
    tc_seed(0x9e3779b97f4a7c15u);
}
static double urand(void) { // uniform in [-1, 1)
    return tc_uniform(-1, 1);
}

// decomposes g_S (kept) and checks: ascending values, ||V L V^T - S|| <= 1e-13 ||S||,
// ||V^T V - I|| <= 1e-14 (max entry, scaled by n / 12 beyond n = 12); the values into g_L
static int check(int n, const char* what) {
    for (int i = 0; i < n * n; i++)
        g_A[i] = g_S[i];
    SNT_STATUS_OK(sni_symeig(n, g_A, g_L, g_V, g_e));
    for (int i = 0; i + 1 < n; i++)
        SNT_CHECK_MSG(g_L[i] <= g_L[i + 1], "%s n %d: values not ascending", what, n);
    double ns = tc_frobenius(n, g_S), rec = 0, orth = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0, o = 0;
            for (int k = 0; k < n; k++) {
                s += g_V[i * n + k] * g_L[k] * g_V[j * n + k];
                o += g_V[k * n + i] * g_V[k * n + j];
            }
            rec = fmax(rec, fabs(s - g_S[i * n + j]));
            orth = fmax(orth, fabs(o - (i == j)));
        }
    double otol = 1e-14 * (n > 12 ? n / 12.0 : 1);
    SNT_CHECK_MSG(rec <= 1e-13 * ns, "%s n %d: reconstruction %.3g of |S| %.3g", what, n, rec, ns);
    SNT_CHECK_MSG(orth <= otol, "%s n %d: V^T V - I %.3g", what, n, orth);
    return 0;
}

static int test_symeig_random(void) {
    reseed();
    for (int n = 1; n <= NMAX; n++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++)
                g_S[i * n + j] = g_S[j * n + i] = urand();
        if (check(n, "random")) return 1;
    }
    return 0;
}

// known eigenvalues: the computed ones match them to 1e-13 |S|
static int known(int n, const double* l, const char* what) {
    static double Q[NMAX * NMAX], ls[NMAX];
    tc_random_orthogonal(n, 2, Q);
    tc_from_eigen(n, Q, l, g_S);
    if (check(n, what)) return 1;
    for (int i = 0; i < n; i++)
        ls[i] = l[i];
    for (int i = 1; i < n; i++) // insertion sort
        for (int j = i; j > 0 && ls[j] < ls[j - 1]; j--) {
            double t = ls[j];
            ls[j] = ls[j - 1];
            ls[j - 1] = t;
        }
    double mx = 0;
    for (int i = 0; i < n; i++)
        mx = fmax(mx, fabs(ls[i]));
    for (int i = 0; i < n; i++)
        SNT_CHECK_MSG(fabs(g_L[i] - ls[i]) <= 1e-13 * mx, "%s n %d: value %d %.17g vs %.17g", what,
                      n, i, g_L[i], ls[i]);
    return 0;
}

static int test_symeig_known_values(void) {
    reseed();
    double l[NMAX];
    int sizes[] = {2, 3, 5, 8, 12, 24, 48};
    for (int t = 0; t < 7; t++) {
        int n = sizes[t];
        for (int i = 0; i < n; i++) // repeated: three values only
            l[i] = (double)(i % 3) - 1;
        if (known(n, l, "repeated")) return 1;
        for (int i = 0; i < n; i++) // all equal
            l[i] = 2.5;
        if (known(n, l, "equal")) return 1;
        for (int i = 0; i < n; i++) // half zero, the rest positive (a singular SPSD matrix)
            l[i] = i % 2 ? 0 : 1 + i;
        if (known(n, l, "zero")) return 1;
        for (int i = 0; i < n; i++) // spread over 12 decades
            l[i] = pow(10.0, 12.0 * i / (n - 1) - 6);
        if (known(n, l, "graded")) return 1;
        for (int i = 0; i < n; i++) // clustered pairs
            l[i] = 1 + (i / 2) + (i % 2) * 1e-9;
        if (known(n, l, "clustered")) return 1;
    }
    return 0;
}

static int test_symeig_diagonal_and_small(void) {
    int n = 7;
    double d[7] = {3, -1, 0, 3, 1e-300, 5, -2};
    for (int i = 0; i < n * n; i++)
        g_S[i] = 0;
    for (int i = 0; i < n; i++)
        g_S[i * n + i] = d[i];
    if (check(n, "diagonal")) return 1;
    double ex[7] = {-2, -1, 0, 1e-300, 3, 3, 5};
    for (int i = 0; i < n; i++)
        SNT_CHECK(g_L[i] == ex[i]);
    // the zero matrix; n = 1; a 2 x 2 in closed form
    for (int i = 0; i < n * n; i++)
        g_S[i] = 0;
    if (check(n, "zero")) return 1;
    for (int i = 0; i < n; i++)
        SNT_CHECK(g_L[i] == 0);
    g_S[0] = -4;
    if (check(1, "1x1")) return 1;
    SNT_CHECK(g_L[0] == -4 && g_V[0] == 1);
    double a = 2, b = 1, c = 0.5; // [[a, b], [b, c]]
    g_S[0] = a, g_S[1] = g_S[2] = b, g_S[3] = c;
    if (check(2, "2x2")) return 1;
    double m = 0.5 * (a + c), r = sqrt(0.25 * (a - c) * (a - c) + b * b);
    SNT_NEAR(g_L[0], m - r, 1e-15);
    SNT_NEAR(g_L[1], m + r, 1e-15);
    SNT_STATUS_OK(sni_symeig(0, g_A, g_L, g_V, g_e));
    return 0;
}

// Gram matrices J J^T of rank r < n (the contact matrices of redundant contacts, A.10): n - r
// values at zero (to 1e-13 |S|), the others positive
static int test_symeig_rank_deficient(void) {
    reseed();
    static double J[NMAX * NMAX];
    for (int n = 3; n <= NMAX; n += 5) {
        for (int r = 1; r < n; r += (n + 3) / 4) {
            for (int i = 0; i < n * r; i++)
                J[i] = urand();
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < r; k++)
                        s += J[i * r + k] * J[j * r + k];
                    g_S[i * n + j] = s;
                }
            if (check(n, "rank-deficient")) return 1;
            double ns = tc_frobenius(n, g_S);
            for (int i = 0; i < n - r; i++)
                SNT_CHECK_MSG(fabs(g_L[i]) <= 1e-13 * ns, "n %d r %d: value %d %.3g", n, r, i,
                              g_L[i]);
            SNT_CHECK(g_L[n - r] > 1e-6 * ns);
        }
    }
    return 0;
}

static int test_symeig_refusals(void) {
    for (int i = 0; i < 9; i++)
        g_S[i] = i == 4;
    SNT_CHECK(sni_symeig(-1, g_S, g_L, g_V, g_e) == SN_ERR_ARG);
    SNT_CHECK(sni_symeig(3, NULL, g_L, g_V, g_e) == SN_ERR_ARG);
    SNT_CHECK(sni_symeig(3, g_S, g_L, NULL, g_e) == SN_ERR_ARG);
    g_S[3] = NAN; // lower triangle
    SNT_CHECK(sni_symeig(3, g_S, g_L, g_V, g_e) == SN_ERR_NONFINITE);
    g_S[3] = 0;
    g_S[7] = INFINITY;
    SNT_CHECK(sni_symeig(3, g_S, g_L, g_V, g_e) == SN_ERR_NONFINITE);
    return 0;
}

static int test_symeig_no_allocation(void) {
    reseed();
    int n = 24;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            g_A[i * n + j] = g_A[j * n + i] = urand();
    tc_heap_install();
    long before = tc_heap_calls();
    SNT_STATUS_OK(sni_symeig(n, g_A, g_L, g_V, g_e));
    SNT_CHECK(tc_heap_calls() == before);
    return 0;
}

SNT_SUITE(SNT_TEST(test_symeig_random), SNT_TEST(test_symeig_known_values),
          SNT_TEST(test_symeig_diagonal_and_small), SNT_TEST(test_symeig_rank_deficient),
          SNT_TEST(test_symeig_refusals), SNT_TEST(test_symeig_no_allocation))
