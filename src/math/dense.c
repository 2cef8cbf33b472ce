// SPDX-License-Identifier: Apache-2.0
// dense.c: the LU factor with partial pivoting, in place, and its solve (Golub and Van Loan,
// sec. 3.4); the Cholesky factor and its solves are inline in dense.h.
#include "math/dense.h"

#include <math.h>


sn_status sni_lu_factor(sn_real* A, int n, int* piv) {
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(A[i * n + c]) > fabs(A[p * n + c])) p = i;
        if (!(fabs(A[p * n + c]) > 0)) return SN_ERR_SINGULAR;
        piv[c] = p;
        if (p != c)
            for (int j = 0; j < n; j++) {
                sn_real t = A[c * n + j];
                A[c * n + j] = A[p * n + j], A[p * n + j] = t;
            }
        for (int i = c + 1; i < n; i++) {
            sn_real f = A[i * n + c] /= A[c * n + c];
            if (f == 0) continue;
            for (int j = c + 1; j < n; j++)
                A[i * n + j] -= f * A[c * n + j];
        }
    }
    return SN_OK;
}


void sni_lu_solve(const sn_real* A, int n, const int* piv, sn_real* b) {
    // the row exchanges first (the factor's rows were exchanged whole), then L y = P b
    for (int c = 0; c < n; c++)
        if (piv[c] != c) {
            sn_real t = b[c];
            b[c] = b[piv[c]], b[piv[c]] = t;
        }
    for (int i = 1; i < n; i++)
        for (int c = 0; c < i; c++)
            b[i] -= A[i * n + c] * b[c];
    for (int i = n - 1; i >= 0; i--) {
        sn_real x = b[i];
        for (int j = i + 1; j < n; j++)
            x -= A[i * n + j] * b[j];
        b[i] = x / A[i * n + i];
    }
}
