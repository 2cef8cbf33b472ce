// SPDX-License-Identifier: Apache-2.0
// test_lds_modal.c: the contact LDS's integrals by modal decomposition (src/math/lds_modal.c)
// against the augmented exponential's full-accuracy mode (expm.h, to rounding): one mode over
// free, under-, critically and overdamped regimes and the series' borders; the whole LDS on
// random positive definite and singular U with per-row stiffness; refusals; no allocation.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "math/expm.h"
#include "math/lds_modal.h"

#include <float.h>
#include <stdint.h>

#define MMAX 24
static sn_real g_work[400000];
static sn_real g_mwork[4000];
static const sni_expm_opts o_full = {-1, 1, 1};
static const sni_expm_opts o_full_nobal = {-1, 0, 1}; // see mode_reference

// common.c's xorshift, from one seed
static void reseed(void) {
    tc_seed(0x9e3779b97f4a7c15u);
}
static double urand(void) { // uniform in [-1, 1)
    return tc_uniform(-1, 1);
}

// p, P1, P2, P3 of one mode from the full-accuracy augmented exponential, in the time unit h
// (tau = t / h: y'' + 2 alpha y' + w2 y = 0, alpha = c l h / 2, w2 = l h^2, over tau = 1) so that
// the four are of comparable size (the full mode is accurate relative to the result's norm):
// x0 = (0, 1), a = 0 gives X1 = (P1, p), X2 = (P2, P1); x0 = 0, a = (0, 1) gives X1 = (P2, P1),
// X2 = (P3, P2); then P_k = h^(k+1) of those
static int mode_reference(double l, double c, double h, double P[4]) {
    double A[4] = {0, 1, -l * h * h, -c * l * h}, z[2] = {0, 0}, e[2] = {0, 1}, X1[2], X2[2];
    SNT_STATUS_OK(sni_lds_integrals(2, A, z, e, 1, &o_full_nobal, NULL, X1, X2, NULL, g_work));
    P[0] = X1[1] * h;
    P[1] = X1[0] * h * h;
    SNT_STATUS_OK(sni_lds_integrals(2, A, e, z, 1, &o_full_nobal, NULL, X1, X2, NULL, g_work));
    P[2] = X1[0] * h * h * h;
    P[3] = X2[0] * h * h * h * h;
    return 0;
}

// each P_k to 1e-12 of its size, or of the undamped envelope h^k min(h, 1/sqrt(l)) / k! near a
// zero of an oscillation; plus 1e-15 sqrt(l) h: the phase sqrt(l) h of an oscillation over h
// carries the rounding of l h^2 into both sides (conditioning, not the method)
static int mode_check(double l, double c, double h, double* worst) {
    double P[4], R[4];
    sni_lds_mode(l, c, h, P);
    if (mode_reference(l, c, h, R)) return 1;
    double env = l > 0 ? fmin(h, 1 / sqrt(l)) : h, f = 1, tol = 1e-12 + 1e-15 * sqrt(l) * h;
    for (int k = 0; k < 4; k++) {
        double scale = fmax(fabs(R[k]), 1e-3 * env / f);
        double err = scale > 0 ? fabs(P[k] - R[k]) / scale : fabs(P[k]); // h = 0: exactly 0
        *worst = fmax(*worst, err / tol); // the share of the tolerance used
        SNT_CHECK_MSG(err <= tol, "l %.6g c %.6g h %.6g: P%d %.17g vs %.17g (%.3g)", l, c, h, k,
                      P[k], R[k], err);
        env *= h;
        f *= k + 1;
    }
    return 0;
}

static int test_modal_mode_regimes(void) {
    double hs[] = {0, 1e-5, 1e-4, 1e-3, 2e-3, 1e-2, 5e-2};
    double cs[] = {0, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 0.1};
    double worst = 0;
    for (int ih = 0; ih < 7; ih++)
        for (int ic = 0; ic < 7; ic++)
            for (int il = -1; il <= 36; il++) { // l = 0 (free motion), then 1e-3 .. 1e9
                double l = il < 0 ? 0 : pow(10.0, -3 + il / 3.0);
                if (mode_check(l, cs[ic], hs[ih], &worst)) return 1;
            }
    // critical damping c = 2 / sqrt(l) and either side of it, and the borders of the series
    // (alpha = c l h / 2 = 1, l h^2 = 1) and of the overdamped branch (alpha^2 - l h^2 = 1/16)
    for (int ih = 1; ih < 7; ih++) {
        double h = hs[ih];
        for (int il = 0; il <= 30; il++) {
            double l = pow(10.0, il / 3.0);
            double cc = 2 / sqrt(l);
            double rel[] = {1, 1 - 1e-12, 1 + 1e-12, 1 - 1e-6, 1 + 1e-6, 0.9, 1.1, 1.5, 3};
            for (int r = 0; r < 9; r++)
                if (mode_check(l, cc * rel[r], h, &worst)) return 1;
            double w = sqrt(l) * h, d2;
            for (int s = -1; s <= 1; s++) {
                double al = 1 + s * 1e-9; // alpha at 1
                if (mode_check(l, 2 * al / (l * h), h, &worst)) return 1;
                d2 = 0.0625 * (1 + s * 1e-9); // alpha^2 - w^2 at 1/16
                if (mode_check(l, 2 * sqrt(w * w + d2) / (l * h), h, &worst)) return 1;
            }
            double lb = 1 / (h * h) * (1 + 1e-9); // l h^2 at 1
            if (mode_check(lb, 1e-3, h, &worst) || mode_check(lb * (1 - 2e-9), 1e-3, h, &worst))
                return 1;
        }
    }
    printf("# one mode: the worst difference is %.3g of its tolerance\n", worst);
    return 0;
}

// U = J J^T / mass with J (m x r), rank r
static void random_U(int m, int r, double* U) {
    static double J[MMAX * MMAX];
    for (int i = 0; i < m * r; i++)
        J[i] = urand();
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int q = 0; q < r; q++)
                s += J[i * r + q] * J[j * r + q];
            U[i * m + j] = s / 3.0;
        }
}

static double max_abs(int n, const double* x) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s = fmax(s, fabs(x[i]));
    return s;
}

// the whole LDS against sni_lds_integrals' full mode: each half of X1, X2 to 1e-12 of its size
static int test_modal_vs_full(void) {
    reseed();
    static double U[MMAX * MMAX], A[4 * MMAX * MMAX];
    double k[MMAX], b[MMAX], a[2 * MMAX], x0[2 * MMAX];
    double X1[2 * MMAX], X2[2 * MMAX], R1[2 * MMAX], R2[2 * MMAX];
    double hs[] = {1e-5, 1e-4, 1e-3, 5e-3, 1e-2, 5e-2};
    double cs[] = {0, 1e-4, 3e-3, 1e-2};
    double worst = 0;
    for (int nc = 1; nc <= 8; nc++) {
        int m = 3 * nc, n = 2 * m;
        for (int rk = 0; rk < 3; rk++) { // full rank, rank 3 (one body), rank m - 2
            int r = rk == 0 ? m : rk == 1 ? (m < 3 ? m : 3) : (m > 3 ? m - 2 : 1);
            random_U(m, r, U);
            for (int i = 0; i < m; i++) {
                k[i] = i % 3 == 2 ? 1e5 : 3e4 * (1 + 0.5 * urand()); // K_t != K_n
                b[i] = -9.81 * (i % 3 == 2) + urand();
                x0[i] = 1e-3 * urand();
                x0[m + i] = 0.1 * urand();
            }
            for (int ih = 0; ih < 6; ih++)
                for (int ic = 0; ic < 4; ic++) {
                    double c = cs[ic], h = hs[ih];
                    for (int i = 0; i < n * n; i++)
                        A[i] = 0;
                    for (int i = 0; i < m; i++) {
                        A[i * n + m + i] = 1;
                        for (int j = 0; j < m; j++) {
                            A[(m + i) * n + j] = -U[i * m + j] * k[j];
                            A[(m + i) * n + m + j] = -U[i * m + j] * c * k[j];
                        }
                        a[i] = 0;
                        a[m + i] = b[i];
                    }
                    SNT_STATUS_OK(
                        sni_lds_integrals(n, A, a, x0, h, &o_full, NULL, R1, R2, NULL, g_work));
                    SNT_STATUS_OK(sni_lds_modal(m, U, k, c, b, x0, h, X1, X2, g_mwork));
                    const double* got[2] = {X1, X2};
                    const double* ref[2] = {R1, R2};
                    for (int v = 0; v < 2; v++)
                        for (int half = 0; half < 2; half++) {
                            const double* g = got[v] + half * m;
                            const double* e = ref[v] + half * m;
                            double sc = max_abs(m, e), err = 0;
                            for (int i = 0; i < m; i++)
                                err = fmax(err, fabs(g[i] - e[i]));
                            err /= sc;
                            worst = fmax(worst, err);
                            SNT_CHECK_MSG(err <= 1e-12,
                                          "nc %d rank %d h %g c %g: X%d half %d differs by %.3g",
                                          nc, r, h, c, v + 1, half, err);
                        }
                }
        }
    }
    printf("# modal vs full: worst relative difference %.3g\n", worst);
    return 0;
}

static int test_modal_refusals(void) {
    double U[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, k[3] = {1, 1, 1}, b[3] = {0}, x0[6] = {0};
    double X1[6] = {7, 7, 7, 7, 7, 7}, X2[6];
    SNT_CHECK(sni_lds_modal(-1, U, k, 0, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_ARG);
    SNT_CHECK(sni_lds_modal(3, NULL, k, 0, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_ARG);
    SNT_CHECK(sni_lds_modal(3, U, k, -1, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_ARG);
    SNT_CHECK(sni_lds_modal(3, U, k, 0, b, x0, -1e-3, X1, X2, g_mwork) == SN_ERR_ARG);
    SNT_CHECK(sni_lds_modal(3, U, k, NAN, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_NONFINITE);
    k[1] = 0;
    SNT_CHECK(sni_lds_modal(3, U, k, 0, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_ARG);
    k[1] = 1;
    x0[4] = INFINITY;
    SNT_CHECK(sni_lds_modal(3, U, k, 0, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_NONFINITE);
    x0[4] = 0;
    U[3] = NAN;
    SNT_CHECK(sni_lds_modal(3, U, k, 0, b, x0, 1e-3, X1, X2, g_mwork) == SN_ERR_NONFINITE);
    for (int i = 0; i < 6; i++)
        SNT_CHECK(X1[i] == 7); // left as they were
    U[3] = 0;
    SNT_STATUS_OK(sni_lds_modal(0, U, k, 0, b, x0, 1e-3, X1, X2, g_mwork));
    SNT_CHECK(sni_lds_modal_work(24) == 2 * 24 * 24 + 14 * 24 + 1);
    return 0;
}

static int test_modal_no_allocation(void) {
    reseed();
    static double U[MMAX * MMAX];
    double k[MMAX], b[MMAX], x0[2 * MMAX], X1[2 * MMAX], X2[2 * MMAX];
    random_U(12, 12, U);
    for (int i = 0; i < 12; i++)
        k[i] = 1e5, b[i] = urand(), x0[i] = urand(), x0[12 + i] = urand();
    tc_heap_install();
    long before = tc_heap_calls();
    SNT_STATUS_OK(sni_lds_modal(12, U, k, 3e-3, b, x0, 1e-3, X1, X2, g_mwork));
    SNT_CHECK(tc_heap_calls() == before);
    return 0;
}

SNT_SUITE(SNT_TEST(test_modal_mode_regimes), SNT_TEST(test_modal_vs_full),
          SNT_TEST(test_modal_refusals), SNT_TEST(test_modal_no_allocation))
