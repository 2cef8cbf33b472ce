// SPDX-License-Identifier: Apache-2.0
// symeig.c: S = V L V^T for a small symmetric S (symeig.h): Householder tridiagonalization
// Q^T S Q = T with Q accumulated, then the implicit QL iteration with Wilkinson's shift on T
// (one Givens rotation per row of the active block, each applied to the columns of V = Q G).
#include "math/symeig.h"

#include <float.h>
#include <math.h>

// beta_k of reflection k, kept in S's upper triangle (row k, column n - 1: never read as S)
#define BETA(S, n, k) (S)[(size_t)(k) * (size_t)(n) + (size_t)(n)-1]

// the reflections H_k = I - beta_k v_k v_k^T (k = 0 .. n-3, v_k on rows k+1 .. n-1) of
// T = H_{n-3} .. H_0 S H_0 .. H_{n-3}: v_k kept in S's column k below the diagonal (S[i][k],
// i > k), beta_k at BETA; the diagonal of T into L, its subdiagonal into sub (n - 1)
static void tridiagonalize(int n, sn_real* S, sn_real* L, sn_real* sub) {
    for (int k = 0; k + 2 < n; k++) {
        sn_real* col = S + k; // S[i * n + k]
        sn_real xn = 0;
        for (int i = k + 1; i < n; i++)
            xn += col[(size_t)i * n] * col[(size_t)i * n];
        xn = sqrt(xn);
        sn_real x0 = col[(size_t)(k + 1) * n];
        if (xn == 0) {
            BETA(S, n, k) = 0;
            sub[k] = 0;
            continue;
        }
        sn_real alpha = x0 > 0 ? -xn : xn; // v = x - alpha e1, no cancellation
        col[(size_t)(k + 1) * n] = x0 - alpha;
        // v^T v = |x|^2 - 2 alpha x0 + alpha^2 = 2 (|x|^2 - alpha x0)
        sn_real b = 1 / (xn * xn - alpha * x0);
        BETA(S, n, k) = b;
        sub[k] = alpha;
        // p = b A22 v (A22's lower triangle), K = b/2 p^T v, w = p - K v, A22 -= v w^T + w v^T
        sn_real* p = L; // L as scratch for p (rows k+1 .. n-1)
        for (int i = k + 1; i < n; i++) {
            sn_real s = 0;
            for (int j = k + 1; j <= i; j++)
                s += S[(size_t)i * n + j] * col[(size_t)j * n];
            for (int j = i + 1; j < n; j++)
                s += S[(size_t)j * n + i] * col[(size_t)j * n];
            p[i] = b * s;
        }
        sn_real K = 0;
        for (int i = k + 1; i < n; i++)
            K += p[i] * col[(size_t)i * n];
        K *= 0.5 * b;
        for (int i = k + 1; i < n; i++)
            p[i] -= K * col[(size_t)i * n];
        for (int i = k + 1; i < n; i++) {
            sn_real vi = col[(size_t)i * n], wi = p[i];
            for (int j = k + 1; j <= i; j++)
                S[(size_t)i * n + j] -= vi * p[j] + wi * col[(size_t)j * n];
        }
    }
    if (n >= 2) sub[n - 2] = S[(size_t)(n - 1) * n + (n - 2)];
    for (int i = 0; i < n; i++)
        L[i] = S[(size_t)i * n + i];
}


// V = H_0 H_1 .. H_{n-3} (the reflections in S's columns), backwards: H_k touches rows and
// columns k+1 .. n-1 only, where the product of the later ones is
static void accumulate(int n, const sn_real* S, sn_real* V) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            V[(size_t)i * n + j] = i == j;
    for (int k = n - 3; k >= 0; k--) {
        sn_real b = BETA(S, n, k);
        if (b == 0) continue;
        const sn_real* v = S + k;
        for (int j = k + 1; j < n; j++) { // column j: V_j -= b v (v^T V_j)
            sn_real s = 0;
            for (int i = k + 1; i < n; i++)
                s += v[(size_t)i * n] * V[(size_t)i * n + j];
            s *= b;
            for (int i = k + 1; i < n; i++)
                V[(size_t)i * n + j] -= s * v[(size_t)i * n];
        }
    }
}


// the implicit QL iteration on T (diagonal d, subdiagonal e, e[n-1] = 0), the rotations applied
// to V's columns; SN_ERR_SINGULAR when an eigenvalue takes more than 60 iterations
static sn_status ql(int n, sn_real* d, sn_real* e, sn_real* V) {
    for (int l = 0; l < n; l++) {
        for (int it = 0;; it++) {
            int m = l;
            for (; m + 1 < n; m++) {
                sn_real dd = fabs(d[m]) + fabs(d[m + 1]);
                if (fabs(e[m]) <= DBL_EPSILON * dd || e[m] == 0) break;
            }
            if (m == l) break;
            if (it == 60) return SN_ERR_SINGULAR;
            // Wilkinson's shift from the leading 2 x 2 block, the bulge chased from m up to l
            sn_real g = (d[l + 1] - d[l]) / (2 * e[l]);
            sn_real r = hypot(g, 1);
            g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
            sn_real s = 1, c = 1, p = 0;
            int i = m - 1;
            for (; i >= l; i--) {
                sn_real f = s * e[i], b = c * e[i];
                r = hypot(f, g);
                e[i + 1] = r;
                if (r == 0) { // underflow: the block splits here
                    d[i + 1] -= p;
                    e[m] = 0;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - p;
                r = (d[i] - g) * s + 2 * c * b;
                p = s * r;
                d[i + 1] = g + p;
                g = c * r - b;
                for (int k = 0; k < n; k++) {
                    sn_real* vk = V + (size_t)k * n;
                    sn_real t = vk[i + 1];
                    vk[i + 1] = s * vk[i] + c * t;
                    vk[i] = c * vk[i] - s * t;
                }
            }
            if (r == 0 && i >= l) continue;
            d[l] -= p;
            e[l] = g;
            e[m] = 0;
        }
    }
    return SN_OK;
}


sn_status sni_symeig(int n, sn_real* S, sn_real* L, sn_real* V, sn_real* e) {
    if (n < 0 || (n > 0 && (!S || !L || !V || !e))) return SN_ERR_ARG;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            if (!isfinite(S[(size_t)i * n + j])) return SN_ERR_NONFINITE;
    if (n == 0) return SN_OK;
    tridiagonalize(n, S, L, e);
    e[n - 1] = 0;
    accumulate(n, S, V);
    sn_status st = ql(n, L, e, V);
    if (st != SN_OK) return st;
    // ascending order (selection: n swaps at most)
    for (int i = 0; i + 1 < n; i++) {
        int k = i;
        for (int j = i + 1; j < n; j++)
            if (L[j] < L[k]) k = j;
        if (k == i) continue;
        sn_real t = L[i];
        L[i] = L[k];
        L[k] = t;
        for (int r = 0; r < n; r++) {
            t = V[(size_t)r * n + i];
            V[(size_t)r * n + i] = V[(size_t)r * n + k];
            V[(size_t)r * n + k] = t;
        }
    }
    return SN_OK;
}
