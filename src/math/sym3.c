// SPDX-License-Identifier: Apache-2.0
// sym3.c: the eigenvalues and eigenvectors of a symmetric 3 x 3 matrix by cyclic Jacobi rotations
// (Golub and Van Loan, sec. 8.5), sorted ascending.
#include "math/sym3.h"

#include "base/smath.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <string.h>


void sni_sym3_eigen(const sn_real* A, sn_real ev[3], sn_real V[9]) {
    sn_real a[9];
    memcpy(a, A, sizeof a);
    m3_identity(V);
    for (int sweep = 0; sweep < 50; sweep++) {
        sn_real off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
        if (!(off > 1e-30 * (a[0] * a[0] + a[4] * a[4] + a[8] * a[8]))) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                sn_real apq = a[3 * p + q];
                if (apq == 0) continue;
                sn_real th = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
                sn_real t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                sn_real c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) { // columns p, q
                    sn_real x = a[3 * k + p], y = a[3 * k + q];
                    a[3 * k + p] = c * x - sn * y, a[3 * k + q] = sn * x + c * y;
                }
                for (int k = 0; k < 3; k++) { // rows p, q
                    sn_real x = a[3 * p + k], y = a[3 * q + k];
                    a[3 * p + k] = c * x - sn * y, a[3 * q + k] = sn * x + c * y;
                }
                for (int k = 0; k < 3; k++) {
                    sn_real x = V[3 * k + p], y = V[3 * k + q];
                    V[3 * k + p] = c * x - sn * y, V[3 * k + q] = sn * x + c * y;
                }
            }
    }
    int o[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[4 * o[j]] < a[4 * o[i]]) {
                int t = o[i];
                o[i] = o[j], o[j] = t;
            }
    sn_real W[9];
    memcpy(W, V, sizeof W);
    for (int i = 0; i < 3; i++) {
        ev[i] = a[4 * o[i]];
        for (int k = 0; k < 3; k++)
            V[3 * k + i] = W[3 * k + o[i]];
    }
}


// eigenvalues of a symmetric 3x3 matrix, ascending (closed form, trigonometric)
void sni_sym3_eigenvalues(const sn_real* a, sn_real ev[3]) {
    sn_real p1 = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    sn_real tr = a[0] + a[4] + a[8];
    if (p1 <= 1e-300) {
        ev[0] = a[0], ev[1] = a[4], ev[2] = a[8];
    } else {
        sn_real q = tr / 3;
        sn_real p2 =
            (a[0] - q) * (a[0] - q) + (a[4] - q) * (a[4] - q) + (a[8] - q) * (a[8] - q) + 2 * p1;
        sn_real p = sqrt(p2 / 6);
        sn_real b[9];
        for (int i = 0; i < 9; i++)
            b[i] = (a[i] - (i % 4 == 0 ? q : 0)) / p;
        sn_real r = (b[0] * (b[4] * b[8] - b[5] * b[7]) - b[1] * (b[3] * b[8] - b[5] * b[6]) +
                     b[2] * (b[3] * b[7] - b[4] * b[6])) /
                    2;
        sn_real phi = r <= -1 ? M_PI / 3 : r >= 1 ? 0 : acos(r) / 3;
        ev[2] = q + 2 * p * cos(phi);
        ev[0] = q + 2 * p * cos(phi + 2 * M_PI / 3);
        ev[1] = 3 * q - ev[0] - ev[2];
    }
    // sort ascending
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (ev[j] > ev[j + 1]) {
                sn_real t = ev[j];
                ev[j] = ev[j + 1];
                ev[j + 1] = t;
            }
}
