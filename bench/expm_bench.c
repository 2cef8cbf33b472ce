// SPDX-License-Identifier: Apache-2.0
// expm_bench.c: the time of sni_lds_integrals (src/math/expm.h) on the contact LDS of nc = 1, 2,
// 4, 8 points (n = 6 nc states, the exponential of N = n + 3; Solo's 4 feet: N = 27) for the
// paper's products caps max_mul 0, 2, 4 and the standard algorithm (-1), balanced with the warm
// start Expo keeps; the full-accuracy reference mode for scale. Not a test.
//
//   sinew_bench_expm                 the table, us per call (median of 5 blocks)
//   sinew_bench_expm NC MUL CALLS    CALLS calls of one case and nothing else timed: run it under
//                                    valgrind --tool=callgrind --collect-atstart=no for Ir
#define _POSIX_C_SOURCE 199309L
#include "bench_util.h"
#include "math/expm.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NC_MAX 8
#define NS_MAX (6 * NC_MAX)

typedef struct lds_case {
    int n;
    sni_expm_opts o;
    sn_real A[NS_MAX * NS_MAX], a[NS_MAX], x0[NS_MAX], bal[NS_MAX + 3];
    sn_real X1[NS_MAX], X2[NS_MAX];
    sn_real* work;
    int failed;
} lds_case;

static uint64_t rng = 0x2545f4914f6cdd1du;
static double urand(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-52 - 1.0;
}

// A = [[0, I], [-Y K, -Y B]] (A9) with Y = J J^T / 4 for a random J (3 nc x 18, a 4 kg body;
// rank deficient beyond 6 points), K = 1e5, B = 300; a and x0 of contact size
static void make_case(lds_case* c, int nc) {
    int m = 3 * nc, n = 2 * m, nv = 18;
    double J[3 * NC_MAX * 18];
    for (int i = 0; i < m * nv; i++)
        J[i] = urand();
    memset(c->A, 0, sizeof c->A);
    for (int i = 0; i < m; i++) {
        c->A[i * n + m + i] = 1;
        for (int j = 0; j < m; j++) {
            double y = 0;
            for (int k = 0; k < nv; k++)
                y += J[i * nv + k] * J[j * nv + k];
            y /= 4;
            c->A[(m + i) * n + j] = -1e5 * y;
            c->A[(m + i) * n + m + j] = -300 * y;
        }
    }
    for (int i = 0; i < n; i++) {
        c->a[i] = i < m ? 0 : 9.81 * urand();
        c->x0[i] = i < m ? 1e-3 * urand() : 0.1 * urand();
    }
    c->n = n;
    memset(c->bal, 0, sizeof c->bal);
}

static void run_once(void* ctx) {
    lds_case* c = ctx;
    if (sni_lds_integrals(c->n, c->A, c->a, c->x0, 0.01, &c->o, c->bal, c->X1, c->X2, NULL,
                          c->work) != SN_OK)
        c->failed = 1;
}

int main(int argc, char** argv) {
    static lds_case c;
    static sn_real work[1 << 16];
    c.work = work;
    if (sni_lds_work(NS_MAX) > sizeof work / sizeof work[0]) return 1;
    if (argc == 4) { // one case, for callgrind
        int nc = atoi(argv[1]), calls = atoi(argv[3]);
        if (nc < 1 || nc > NC_MAX || calls < 1) return 2;
        make_case(&c, nc);
        c.o = (sni_expm_opts){atoi(argv[2]), 1, 0};
        run_once(&c); // the warm start settles
        CALLGRIND_TOGGLE_COLLECT;
        for (int k = 0; k < calls; k++)
            run_once(&c);
        CALLGRIND_TOGGLE_COLLECT;
        printf("nc %d max_mul %d: %d calls%s\n", nc, c.o.max_mul, calls, c.failed ? " FAILED" : "");
        return c.failed;
    }
    int ncs[] = {1, 2, 4, 8}, muls[] = {0, 2, 4, -1};
    printf("sni_lds_integrals, h = 10 ms, K = 1e5, B = 300: us per call, median of 5 blocks (and "
           "the fastest of 20)\n");
    printf("%3s %4s %9s %9s %9s %9s %9s %8s %8s %6s\n", "nc", "N", "mul 0", "mul 2", "mul 4",
           "std (-1)", "full", "||hC||", "balanced", "s");
    for (int i = 0; i < 4; i++) {
        make_case(&c, ncs[i]);
        double t[5], tmin[5];
        for (int k = 0; k < 5; k++) {
            c.o = k < 4 ? (sni_expm_opts){muls[k], 1, 0} : (sni_expm_opts){-1, 1, 1};
            memset(c.bal, 0, sizeof c.bal);
            run_once(&c);
            // about 0.2 s per case
            double t0 = bench_now();
            int probe = 0;
            while (bench_now() - t0 < 0.02)
                run_once(&c), probe++;
            t[k] = 1e6 * bench_measure(run_once, &c, probe * 10 > 5 ? probe * 10 : 5, NULL);
            // the fastest of 20 short blocks: what the machine does when nothing else runs
            int blk = probe / 4 > 1 ? probe / 4 : 1;
            double best = 1e30;
            for (int b = 0; b < 20; b++) {
                double b0 = bench_now();
                for (int q = 0; q < blk; q++)
                    run_once(&c);
                double tb = (bench_now() - b0) / blk;
                best = tb < best ? tb : best;
            }
            tmin[k] = 1e6 * best;
        }
        // the norm of h C after balancing and the standard algorithm's squarings
        int N = c.n + 3;
        static sn_real C[(NS_MAX + 3) * (NS_MAX + 3)];
        memset(C, 0, sizeof C);
        double hn = 0;
        for (int r = 0; r < c.n; r++)
            for (int q = 0; q < c.n; q++)
                C[r * N + q] = 0.01 * c.A[r * c.n + q];
        for (int r = 0; r < c.n; r++)
            C[r * N + c.n] = 0.01 * c.a[r], C[r * N + c.n + 1] = 0.01 * c.x0[r];
        C[c.n * N + c.n + 1] = C[(c.n + 1) * N + c.n + 2] = 0.01;
        double raw = 0; // the 1-norm before balancing
        for (int q = 0; q < N; q++) {
            double col = 0;
            for (int r = 0; r < N; r++)
                col += fabs(C[r * N + q]);
            raw = col > raw ? col : raw;
        }
        sn_real d[NS_MAX + 3] = {0};
        hn = sni_expm_balance(N, C, d);
        int order, s;
        sni_expm_select(hn, NULL, &order, &s);
        printf("%3d %4d %9.2f %9.2f %9.2f %9.2f %9.2f %8.1f %8.1f %6d\n", ncs[i], N, t[0], t[1],
               t[2], t[3], t[4], raw, hn, s);
        printf("%3s %4s %9.2f %9.2f %9.2f %9.2f %9.2f   (fastest block)\n", "", "", tmin[0],
               tmin[1], tmin[2], tmin[3], tmin[4]);
    }
    if (c.failed) printf("a call FAILED\n");
    return c.failed;
}
