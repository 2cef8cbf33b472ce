// SPDX-License-Identifier: Apache-2.0
// symeig.c: S = V L V^T for a small symmetric S (symeig.h): Householder tridiagonalization
// Q^T S Q = T with Q accumulated, then the implicit QL iteration with Wilkinson's shift on T
// (one Givens rotation per row of the active block, each applied to V = Q G). V is built as V^T
// so that the reflections and rotations run along contiguous rows; transposed at the end.
#include "math/symeig.h"

#include <float.h>
#include <math.h>

// sqrt(f^2 + g^2) without hypot's care (slow) where no square can overflow or underflow
static inline sn_real pyth(sn_real f, sn_real g) {
    sn_real a = fabs(f) > fabs(g) ? fabs(f) : fabs(g);
    if (a < 1e150 && a > 1e-150) return sqrt(f * f + g * g);
    return hypot(f, g);
}


// A (n x n, both triangles) to T = H_(n-3) .. H_0 A H_0 .. H_(n-3), H_k = I - beta_k v_k v_k^T
// acting on rows k+1 .. n-1: T's diagonal into d, its subdiagonal into sub (n - 1); v_k kept in
// A's row k (columns k+1 .. n-1, contiguous), beta_k at A[k+1][k]
static void tridiagonalize(int n, sn_real* A, sn_real* d, sn_real* sub, sn_real* p) {
    for (int k = 0; k + 2 < n; k++) {
        sn_real* v = A + (size_t)k * n; // row k = column k: x = v[k+1 .. n-1]
        sn_real xn = 0;
        for (int i = k + 1; i < n; i++)
            xn += v[i] * v[i];
        xn = sqrt(xn);
        sn_real x0 = v[k + 1];
        d[k] = v[k];
        if (xn == 0) {
            A[(size_t)(k + 1) * n + k] = 0;
            sub[k] = 0;
            continue;
        }
        sn_real alpha = x0 > 0 ? -xn : xn; // v = x - alpha e1, no cancellation
        v[k + 1] = x0 - alpha;
        // v^T v = |x|^2 - 2 alpha x0 + alpha^2 = 2 (|x|^2 - alpha x0)
        sn_real b = 1 / (xn * xn - alpha * x0);
        A[(size_t)(k + 1) * n + k] = b;
        sub[k] = alpha;
        // p = b A22 v, K = b/2 p^T v, w = p - K v, A22 -= v w^T + w v^T (both triangles)
        for (int i = k + 1; i < n; i++) {
            const sn_real* ai = A + (size_t)i * n;
            sn_real s = 0;
            for (int j = k + 1; j < n; j++)
                s += ai[j] * v[j];
            p[i] = b * s;
        }
        sn_real K = 0;
        for (int i = k + 1; i < n; i++)
            K += p[i] * v[i];
        K *= 0.5 * b;
        for (int i = k + 1; i < n; i++)
            p[i] -= K * v[i];
        for (int i = k + 1; i < n; i++) {
            sn_real* ai = A + (size_t)i * n;
            sn_real vi = v[i], wi = p[i];
            for (int j = k + 1; j < n; j++)
                ai[j] -= vi * p[j] + wi * v[j];
        }
    }
    if (n >= 2) {
        d[n - 2] = A[(size_t)(n - 2) * n + (n - 2)];
        sub[n - 2] = A[(size_t)(n - 1) * n + (n - 2)];
    }
    d[n - 1] = A[(size_t)(n - 1) * n + (n - 1)];
}


// W = Q^T = H_(n-3) .. H_0 (Q = H_0 .. H_(n-3)), row by row: W's row j is Q's column j, and
// H_k touches entries k+1 .. n-1 of each row, where the later ones have acted
static void accumulate(int n, const sn_real* A, sn_real* W) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            W[(size_t)i * n + j] = i == j;
    for (int k = n - 3; k >= 0; k--) {
        sn_real b = A[(size_t)(k + 1) * n + k];
        if (b == 0) continue;
        const sn_real* v = A + (size_t)k * n;
        for (int j = k + 1; j < n; j++) { // row j: W_j -= b (W_j . v) v
            sn_real* wj = W + (size_t)j * n;
            sn_real s = 0;
            for (int i = k + 1; i < n; i++)
                s += wj[i] * v[i];
            s *= b;
            for (int i = k + 1; i < n; i++)
                wj[i] -= s * v[i];
        }
    }
}


// rows a, b (n) <- c a - s b, s a + c b (separate rows: vectorized)
static inline void rotate_rows(int n, sn_real* restrict a, sn_real* restrict b, sn_real c,
                               sn_real s) {
    for (int k = 0; k < n; k++) {
        sn_real x = a[k], y = b[k];
        a[k] = c * x - s * y;
        b[k] = s * x + c * y;
    }
}


// the implicit QL iteration on T (diagonal d, subdiagonal e, e[n-1] = 0), the rotations applied
// to W's rows (W = V^T: contiguous); SN_ERR_SINGULAR when an eigenvalue takes more than 60
// iterations
static sn_status ql(int n, sn_real* d, sn_real* e, sn_real* W) {
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
            sn_real r = pyth(g, 1);
            g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
            sn_real s = 1, c = 1, p = 0;
            int i = m - 1;
            for (; i >= l; i--) {
                sn_real f = s * e[i], b = c * e[i];
                r = pyth(f, g);
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
                rotate_rows(n, W + (size_t)i * n, W + (size_t)(i + 1) * n, c, s);
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
        for (int j = 0; j <= i; j++) {
            if (!isfinite(S[(size_t)i * n + j])) return SN_ERR_NONFINITE;
            S[(size_t)j * n + i] = S[(size_t)i * n + j]; // both triangles from here on
        }
    if (n == 0) return SN_OK;
    tridiagonalize(n, S, L, e, V); // V's first row as scratch
    e[n - 1] = 0;
    accumulate(n, S, V); // V^T for now: the rotations act on rows
    sn_status st = ql(n, L, e, V);
    if (st != SN_OK) return st;
    for (int i = 0; i < n; i++) // V = (V^T)^T in place
        for (int j = 0; j < i; j++) {
            sn_real t = V[(size_t)i * n + j];
            V[(size_t)i * n + j] = V[(size_t)j * n + i];
            V[(size_t)j * n + i] = t;
        }
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
