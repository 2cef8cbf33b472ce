// SPDX-License-Identifier: Apache-2.0
// lds_modal.c: the contact LDS's integrals by modal decomposition (lds_modal.h). One mode
// y'' + 2a y' + l y = g (2a = c l) with y(0) = y0, y'(0) = v0 is
//   y(t) = y0 (1 - l P1(t)) + v0 p(t) + g P1(t),
// p the impulse response (p(0) = 0, p'(0) = 1) and P1, P2, P3 its time integrals from 0
// (integrating the equation: p' + 2a p + l P1 = 1, p + 2a P1 + l P2 = t, P1 + 2a P2 + l P3 =
// t^2/2). p .. P3 at t = h come, by the dimensionless alpha = a h and w2 = l h^2, from
//   - the Taylor series of p (both roots r h of s^2 + 2 alpha s + w2 within 2 of the origin),
//   - divided differences of phi_k(z) = sum_j z^j / (j + k)! at the two real roots when they are
//     at least 0.5 apart (overdamped): P_k = h^(k+1) phi_k[z1, z2], no cancellation,
//   - else (underdamped or near-critical, w2 > 0.9) p and p' in closed form and the three
//     relations above solved for P1, P2, P3 (l h^2 is then not small: no cancellation to speak of).
#include "math/lds_modal.h"

#include "math/symeig.h"

#include <math.h>
#include <string.h>

size_t sni_lds_modal_work(int m) {
    if (m < 0) m = 0;
    return 2 * (size_t)m * (size_t)m + 14 * (size_t)m + 1;
}


// phi_0 .. phi_3 at a real z <= 0
static void phis(sn_real z, sn_real f[4]) {
    if (z >= -1) { // phi_3 by its series, then phi_k = 1/k! + z phi_(k+1)
        sn_real t = 1.0 / 6, s = t;
        for (int j = 1; j < 30 && fabs(t) > 1e-18; j++) {
            t *= z / (j + 3);
            s += t;
        }
        f[3] = s;
        f[2] = 0.5 + z * f[3];
        f[1] = 1 + z * f[2];
        f[0] = 1 + z * f[1];
        return;
    }
    f[0] = exp(z);
    f[1] = (f[0] - 1) / z;
    f[2] = (f[1] - 1) / z;
    f[3] = (f[2] - 0.5) / z;
}


// the Taylor branch's factors (no division in its loop; entry 0 unused): 1 / (j (j+1)),
// 1 / (j+1), 1 / ((j+1)(j+2)), 1 / ((j+1)(j+2)(j+3)); |z| <= 2 needs under 30 terms
#define TAYLOR_TERMS 40
#define F0(j) (1.0 / ((j) * ((j) + 1.0)))
#define F1(j) (1.0 / ((j) + 1.0))
#define F2(j) (1.0 / (((j) + 1.0) * ((j) + 2.0)))
#define F3(j) (1.0 / (((j) + 1.0) * ((j) + 2.0) * ((j) + 3.0)))
#define ROW(F)                                                                                     \
    {                                                                                              \
        0, F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13),       \
            F(14), F(15), F(16), F(17), F(18), F(19), F(20), F(21), F(22), F(23), F(24), F(25),    \
            F(26), F(27), F(28), F(29), F(30), F(31), F(32), F(33), F(34), F(35), F(36), F(37),    \
            F(38), F(39)                                                                           \
    }
static const sn_real inv0[TAYLOR_TERMS] = ROW(F0), inv1[TAYLOR_TERMS] = ROW(F1),
                     inv2[TAYLOR_TERMS] = ROW(F2), inv3[TAYLOR_TERMS] = ROW(F3);


void sni_lds_mode(sn_real l, sn_real c, sn_real h, sn_real P[4]) {
    sn_real al = 0.5 * c * l * h, w2 = l * h * h, h2 = h * h;
    if (al <= 1 && w2 <= 1) { // Taylor: p = h sum e_j, e_(j+2) = -(2 al (j+1) e_(j+1) + w2 e_j)
        sn_real em = 0, e = 1, s0 = 0, s1 = 0, s2 = 0, s3 = 0; // e_(j-1), e_j
        for (int j = 1; j < TAYLOR_TERMS; j++) {
            s0 += e;
            s1 += e * inv1[j];
            s2 += e * inv2[j];
            s3 += e * inv3[j];
            sn_real en = -(2 * al * j * e + w2 * em) * inv0[j];
            if (fabs(e) + fabs(en) < 1e-19) break;
            em = e;
            e = en;
        }
        P[0] = h * s0;
        P[1] = h2 * s1;
        P[2] = h2 * h * s2;
        P[3] = h2 * h2 * s3;
        return;
    }
    sn_real d2 = al * al - w2;
    if (d2 >= 0.0625) { // overdamped, roots z1 > z2 at least 0.5 apart
        sn_real be = sqrt(d2);
        sn_real z1 = -w2 / (al + be), z2 = -(al + be);
        sn_real f1[4], f2[4];
        phis(z1, f1);
        phis(z2, f2);
        sn_real hk = 1 / (2 * be); // 1 / (z1 - z2)
        for (int k = 0; k < 4; k++) {
            hk *= h;
            P[k] = hk * (f1[k] - f2[k]);
        }
        return;
    }
    // p = h e^-al sinc(be), p' = e^-al (cos(be) - al sinc(be)) (sin, cos for d2 < 0; sinh,
    // cosh for d2 >= 0); 1 - p' - 2a p = 1 - e^-al (cos + al sinc)
    sn_real be = sqrt(fabs(d2)), sc = 1, co = 1;
    if (d2 < 0) {
        co = cos(be);
        if (be > 1e-8) sc = sin(be) / be;
    } else {
        co = cosh(be);
        if (be > 1e-8) sc = sinh(be) / be;
    }
    sn_real ea = exp(-al);
    sn_real ca = 2 * al / h; // 2a = c l
    P[0] = h * ea * sc;
    P[1] = h2 * (1 - ea * (co + al * sc)) / w2;
    P[2] = h2 * (h - P[0] - ca * P[1]) / w2;
    P[3] = h2 * (0.5 * h2 - P[1] - ca * P[2]) / w2;
}


sn_status sni_lds_modal(int m, const sn_real* U, const sn_real* k, sn_real c, const sn_real* b,
                        const sn_real* x0, sn_real h, sn_real* X1, sn_real* X2, sn_real* work) {
    if (m < 0 || !U || !k || !b || !x0 || !X1 || !X2 || !work) return SN_ERR_ARG;
    if (!isfinite(h) || !isfinite(c)) return SN_ERR_NONFINITE;
    if (h < 0 || c < 0) return SN_ERR_ARG;
    for (int i = 0; i < m; i++) {
        if (!isfinite(k[i]) || !isfinite(b[i]) || !isfinite(x0[i]) || !isfinite(x0[m + i]))
            return SN_ERR_NONFINITE;
        if (!(k[i] > 0)) return SN_ERR_ARG;
    }
    size_t mm = (size_t)m * (size_t)m;
    sn_real *S = work, *V = S + mm, *l = V + mm, *e = l + m, *sq = e + m;
    sn_real *y0 = sq + m, *v0 = y0 + m, *g = v0 + m;
    sn_real *Y1 = g + m, *D1 = Y1 + m, *Y2 = D1 + m, *D2 = Y2 + m, *R = D2 + m;
    // S = K^1/2 U K^1/2 (lower triangle), z = K^1/2 (d0, d0', b)
    for (int i = 0; i < m; i++)
        sq[i] = sqrt(k[i]);
    for (int i = 0; i < m; i++)
        for (int j = 0; j <= i; j++)
            S[(size_t)i * m + j] = sq[i] * U[(size_t)i * m + j] * sq[j];
    sn_status st = sni_symeig(m, S, l, V, e);
    if (st != SN_OK) return st;
    // y0, v0, g = V^T K^1/2 (d0, d0', b)
    for (int j = 0; j < m; j++)
        y0[j] = v0[j] = g[j] = 0;
    for (int i = 0; i < m; i++) {
        const sn_real* Vi = V + (size_t)i * m;
        sn_real a0 = sq[i] * x0[i], a1 = sq[i] * x0[m + i], a2 = sq[i] * b[i];
        for (int j = 0; j < m; j++) {
            y0[j] += Vi[j] * a0;
            v0[j] += Vi[j] * a1;
            g[j] += Vi[j] * a2;
        }
    }
    // each mode: int y, int int y, y(h) - y0 = int y', int (y - y0) = int int y'
    sn_real h2 = h * h;
    for (int j = 0; j < m; j++) {
        sn_real lj = l[j] > 0 ? l[j] : 0, P[4];
        sni_lds_mode(lj, c, h, P);
        sn_real cl = c * lj, q1, q2; // h - l P2 = p + c l P1, h^2/2 - l P3 = P1 + c l P2
        if (lj * h2 <= 1) {
            q1 = h - lj * P[2];
            q2 = 0.5 * h2 - lj * P[3];
        } else {
            q1 = P[0] + cl * P[1];
            q2 = P[1] + cl * P[2];
        }
        Y1[j] = q1 * y0[j] + P[1] * v0[j] + P[2] * g[j];
        Y2[j] = q2 * y0[j] + P[2] * v0[j] + P[3] * g[j];
        D1[j] = -lj * P[1] * y0[j] + P[0] * v0[j] + P[1] * g[j];
        D2[j] = -lj * P[2] * y0[j] + P[1] * v0[j] + P[2] * g[j];
    }
    // back: d = K^-1/2 V y into R (X1 then X2), checked before they are written
    for (int i = 0; i < m; i++) {
        const sn_real* Vi = V + (size_t)i * m;
        sn_real s1 = 0, s2 = 0, s3 = 0, s4 = 0;
        for (int j = 0; j < m; j++) {
            s1 += Vi[j] * Y1[j];
            s2 += Vi[j] * D1[j];
            s3 += Vi[j] * Y2[j];
            s4 += Vi[j] * D2[j];
        }
        sn_real r = 1 / sq[i];
        R[i] = s1 * r, R[m + i] = s2 * r, R[2 * m + i] = s3 * r, R[3 * m + i] = s4 * r;
    }
    for (int i = 0; i < 4 * m; i++)
        if (!isfinite(R[i])) return SN_ERR_NONFINITE;
    memcpy(X1, R, 2 * (size_t)m * sizeof(sn_real));
    memcpy(X2, R + 2 * m, 2 * (size_t)m * sizeof(sn_real));
    return SN_OK;
}
