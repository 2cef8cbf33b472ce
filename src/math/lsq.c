// SPDX-License-Identifier: Apache-2.0
// lsq.c: Householder QR with column pivoting (largest remaining column first), and from it the
// minimum-norm least-squares solution and a column-space basis (lsq.h).
#include "math/lsq.h"

#include <math.h>
#include <string.h>

size_t sni_lsq_work(int m, int n) {
    size_t a = (size_t)m, b = (size_t)n;
    size_t big = a > b ? a : b;
    return 2 * a * b + 4 * big + 8;
}

// A (m x n, row-major) = Q R P^T in place: R on and above the diagonal, the reflectors' vectors
// below it (v_k = (1, A[k+1..m-1][k])), their factors in beta (min(m, n)), the column order in
// perm; the rank: pivots |R_kk| above tol |R_00|. norms: n scratch
static int qr_pivot(sn_real* A, int m, int n, sn_real tol, sn_real* beta, int* perm,
                    sn_real* norms) {
    int kmax = m < n ? m : n, rank = 0;
    sn_real first = 0;
    for (int j = 0; j < n; j++) {
        perm[j] = j;
        sn_real s = 0;
        for (int i = 0; i < m; i++)
            s += A[(size_t)i * n + j] * A[(size_t)i * n + j];
        norms[j] = s;
    }
    for (int k = 0; k < kmax; k++) {
        int p = k;
        for (int j = k + 1; j < n; j++)
            if (norms[j] > norms[p]) p = j;
        if (p != k) {
            for (int i = 0; i < m; i++) {
                sn_real t = A[(size_t)i * n + k];
                A[(size_t)i * n + k] = A[(size_t)i * n + p];
                A[(size_t)i * n + p] = t;
            }
            int t = perm[k];
            perm[k] = perm[p];
            perm[p] = t;
            sn_real tn = norms[k];
            norms[k] = norms[p];
            norms[p] = tn;
        }
        // the reflector that maps column k below the diagonal onto its first entry
        sn_real s = 0;
        for (int i = k; i < m; i++)
            s += A[(size_t)i * n + k] * A[(size_t)i * n + k];
        sn_real nrm = sqrt(s);
        if (k == 0) first = nrm;
        if (nrm <= tol * first || nrm == 0) {
            beta[k] = 0;
            break;
        }
        rank++;
        sn_real a0 = A[(size_t)k * n + k];
        sn_real alpha = a0 > 0 ? -nrm : nrm;
        sn_real v0 = a0 - alpha;
        for (int i = k + 1; i < m; i++)
            A[(size_t)i * n + k] /= v0;
        beta[k] = -v0 / alpha; // H = I - beta v v^T with v0 = 1
        A[(size_t)k * n + k] = alpha;
        for (int j = k + 1; j < n; j++) {
            sn_real dot = A[(size_t)k * n + j];
            for (int i = k + 1; i < m; i++)
                dot += A[(size_t)i * n + k] * A[(size_t)i * n + j];
            dot *= beta[k];
            A[(size_t)k * n + j] -= dot;
            for (int i = k + 1; i < m; i++)
                A[(size_t)i * n + j] -= dot * A[(size_t)i * n + k];
            // the remaining norm, recomputed (the downdate loses digits on small columns)
            sn_real r = 0;
            for (int i = k + 1; i < m; i++)
                r += A[(size_t)i * n + j] * A[(size_t)i * n + j];
            norms[j] = r;
        }
    }
    return rank;
}

// x (m) = H_k x, H_k = I - beta_k v_k v_k^T with the reflector k of qr_pivot
static void apply_reflector(const sn_real* A, int m, int n, int k, const sn_real* beta,
                            sn_real* x) {
    sn_real dot = x[k];
    for (int i = k + 1; i < m; i++)
        dot += A[(size_t)i * n + k] * x[i];
    dot *= beta[k];
    x[k] -= dot;
    for (int i = k + 1; i < m; i++)
        x[i] -= dot * A[(size_t)i * n + k];
}

// x (m) = H_{r-1} ... H_0 x (Q^T x)
static void apply_qt(const sn_real* A, int m, int n, int r, const sn_real* beta, sn_real* x) {
    for (int k = 0; k < r; k++)
        apply_reflector(A, m, n, k, beta, x);
}

// x (m) = H_0 ... H_{r-1} x (Q x)
static void apply_q(const sn_real* A, int m, int n, int r, const sn_real* beta, sn_real* x) {
    for (int k = r - 1; k >= 0; k--)
        apply_reflector(A, m, n, k, beta, x);
}

int sni_lsq_solve(sn_real* A, int m, int n, sn_real* b, sn_real* x, sn_real tol, sn_real* residual,
                  sn_real* work, int* iwork) {
    int big = m > n ? m : n;
    sn_real* beta = work;
    sn_real* norms = beta + big;
    sn_real* z = norms + big;
    sn_real* T = z + big; // R's first r rows transposed (n x r), then their QR
    sn_real* beta2 = T + (size_t)m * n + big;
    memset(x, 0, (size_t)n * sizeof(sn_real));
    int r = qr_pivot(A, m, n, tol, beta, iwork, norms);
    apply_qt(A, m, n, r, beta, b);
    if (residual) {
        sn_real s = 0;
        for (int i = r; i < m; i++)
            s += b[i] * b[i];
        *residual = sqrt(s);
    }
    if (r == 0) return 0;
    // T z = c with T = [R11 R12] (r x n): z = Q2 R2^-T c where T^T = Q2 R2
    for (int i = 0; i < n; i++)
        for (int k = 0; k < r; k++)
            T[(size_t)i * r + k] = i >= k ? A[(size_t)k * n + i] : 0;
    int* perm2 = iwork + n; // the rows of T in the order the second QR took them
    qr_pivot(T, n, r, 0, beta2, perm2, norms);
    for (int k = 0; k < r; k++) { // R2^T y = P2^T c, forward
        sn_real v = b[perm2[k]];
        for (int i = 0; i < k; i++)
            v -= T[(size_t)i * r + k] * z[i];
        z[k] = v / T[(size_t)k * r + k];
    }
    for (int i = r; i < n; i++)
        z[i] = 0;
    apply_q(T, n, r, r, beta2, z);
    for (int i = 0; i < n; i++)
        x[iwork[i]] = z[i];
    return r;
}


int sni_lsq_range(sn_real* A, int m, int n, sn_real tol, sn_real* Q, sn_real* work, int* iwork) {
    int big = m > n ? m : n;
    sn_real* beta = work;
    sn_real* norms = beta + big;
    sn_real* e = norms + big;
    int r = qr_pivot(A, m, n, tol, beta, iwork, norms);
    for (int k = 0; k < r; k++) {
        memset(e, 0, (size_t)m * sizeof(sn_real));
        e[k] = 1;
        apply_q(A, m, n, r, beta, e);
        for (int i = 0; i < m; i++)
            Q[(size_t)i * m + k] = e[i];
    }
    return r;
}
