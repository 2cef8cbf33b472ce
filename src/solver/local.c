// SPDX-License-Identifier: Apache-2.0
// local.c: the exact solve of one contact on its Coulomb cone (shared/spec/algorithms.md, Part B):
// opening, sticking, or sliding (the point of the cone's intersection with the
// zero-normal-velocity plane where the friction opposes the slip, by fixed-point iteration or a
// scan and bisection along that curve).
#include "base/smath.h"
#include "solver/solver.h"

#include <math.h>
#include <string.h>


// The sliding case puts lambda on the cone, lambda = r (t, 1/mu) with t a unit friction direction,
// at zero normal velocity, and asks Coulomb's condition: the friction t anti-parallel to the
// tangential velocity after the impulse, v_t = (G lambda + c)_t. (algorithms.md B.2 bisects the
// slope of the contact-space energy along the same curve; the two differ when the normal and
// tangential rows of G couple, as at the corners of a box, and the energy's root then tilts the
// friction by up to ten degrees: a box sliding on four corners decelerates 2 % below mu g. The
// tier-C cases need Coulomb's law itself.)

// G (3x3) with a ridge of 1e-13 of its trace where it is singular (where the mechanism cannot
// move a row at all: a planar mechanism across its plane, a direction its loops hold), and its
// null direction z (unit; zero when G has rank 3 or less than 2): an impulse along z moves
// nothing (a pin takes it), so the sticking impulse keeps no part along it
static void regularize(const sn_real* G_in, sn_real* G, sn_real* z) {
    memcpy(G, G_in, 9 * sizeof(sn_real));
    sn_real det0 = G[0] * (G[4] * G[8] - G[5] * G[7]) - G[1] * (G[3] * G[8] - G[5] * G[6]) +
                   G[2] * (G[3] * G[7] - G[4] * G[6]);
    sn_real tr = G[0] + G[4] + G[8];
    v3_set(z, 0, 0, 0);
    if (!(fabs(det0) > 1e-12 * tr * tr * tr)) {
        G[0] += 1e-13 * tr, G[4] += 1e-13 * tr, G[8] += 1e-13 * tr;
        sn_real x01[3], x02[3], x12[3];
        v3_cross(x01, G_in, G_in + 3);
        v3_cross(x02, G_in, G_in + 6);
        v3_cross(x12, G_in + 3, G_in + 6);
        const sn_real* best = x01;
        if (v3_dot(x02, x02) > v3_dot(best, best)) best = x02;
        if (v3_dot(x12, x12) > v3_dot(best, best)) best = x12;
        sn_real nb = sqrt(v3_dot(best, best));
        if (nb > 1e-6 * tr * tr) v3_scale(z, best, 1 / nb);
    }
}


// the sticking impulse l0 (v = 0: l0 = -G^-1 c) less its part along z
static void stick_impulse(const sn_real* G, const sn_real* c, const sn_real* z, sn_real* l0) {
    sn_real inv[9], det;
    inv[0] = G[4] * G[8] - G[5] * G[7];
    inv[1] = G[2] * G[7] - G[1] * G[8];
    inv[2] = G[1] * G[5] - G[2] * G[4];
    inv[3] = G[5] * G[6] - G[3] * G[8];
    inv[4] = G[0] * G[8] - G[2] * G[6];
    inv[5] = G[2] * G[3] - G[0] * G[5];
    inv[6] = G[3] * G[7] - G[4] * G[6];
    inv[7] = G[1] * G[6] - G[0] * G[7];
    inv[8] = G[0] * G[4] - G[1] * G[3];
    det = G[0] * inv[0] + G[1] * inv[3] + G[2] * inv[6];
    m3_mul_v3(l0, inv, c);
    v3_scale(l0, l0, -1 / det);
    sn_real lz = v3_dot(l0, z);
    l0[0] -= lz * z[0], l0[1] -= lz * z[1], l0[2] -= lz * z[2];
}


// sliding, by a fixed-point iteration t <- -v_t / |v_t| on the friction direction as a unit
// vector dir (no trigonometry): it converges in a few steps when the rows couple weakly. 1 with
// lam set when it converged; dir is its last direction either way
static int slide_fixed_point(const sn_real* G, const sn_real* c, sn_real mu, sn_real den_min,
                             sn_real* dir, sn_real* lam) {
    sn_real l[3], v[3];
    for (int it = 0; it < 4; it++) {
        sn_real den = G[8] / mu + G[6] * dir[0] + G[7] * dir[1];
        if (!(den > den_min)) break;
        sn_real r = -c[2] / den;
        l[0] = r * dir[0], l[1] = r * dir[1], l[2] = r / mu;
        m3_mul_v3(v, G, l);
        v3_add(v, v, c);
        sn_real vt = sqrt(v[0] * v[0] + v[1] * v[1]);
        if (!(vt > 0)) break;
        sn_real n0 = -v[0] / vt, n1 = -v[1] / vt;
        sn_real diff = fabs(n0 - dir[0]) + fabs(n1 - dir[1]);
        dir[0] = n0, dir[1] = n1;
        if (diff < 1e-13) {
            den = G[8] / mu + G[6] * dir[0] + G[7] * dir[1];
            if (!(den > den_min)) break;
            r = -c[2] / den;
            v3_set(lam, r * dir[0], r * dir[1], r / mu);
            return 1;
        }
    }
    return 0;
}


// sliding, by a scan of the directions for Coulomb's condition. With den(t) = G_nt.t + G_nn / mu
// > 0 the tangential velocity times den is affine in t, x(t) = A t + b (A = -c_n G_tt + c_t
// G_nt^T, b = (c_t G_nn - c_n G_tn) / mu), and Coulomb's condition is f(t) = x0 t1 - x1 t0 = 0
// with x.t <= 0. Directions are stepped by 7.5 degrees both ways from dir (the fixed point's last
// one: the root is usually near it); a sign change facing the slip is refined by regula falsi
// (Illinois) between the two unit vectors. 1 with lam set when a root was found
static int slide_scan(const sn_real* G, const sn_real* c, sn_real mu, sn_real den_min,
                      const sn_real* dir, sn_real* lam) {
    sn_real A[4] = {-c[2] * G[0] + c[0] * G[6], -c[2] * G[1] + c[0] * G[7],
                    -c[2] * G[3] + c[1] * G[6], -c[2] * G[4] + c[1] * G[7]};
    sn_real b[2] = {(c[0] * G[8] - c[2] * G[2]) / mu, (c[1] * G[8] - c[2] * G[5]) / mu};
#define SN_F(t)                                                                                    \
    ((A[0] * (t)[0] + A[1] * (t)[1] + b[0]) * (t)[1] -                                             \
     (A[2] * (t)[0] + A[3] * (t)[1] + b[1]) * (t)[0])
#define SN_OK_DIR(t)                                                                               \
    (G[6] * (t)[0] + G[7] * (t)[1] + G[8] / mu > den_min &&                                        \
     (A[0] * (t)[0] + A[1] * (t)[1] + b[0]) * (t)[0] +                                             \
             (A[2] * (t)[0] + A[3] * (t)[1] + b[1]) * (t)[1] <=                                    \
         0)
    enum { N = 24 };
    const sn_real cs = 0.99144486137381041114, sn = 0.13052619222005159155; // 7.5 degrees
    sn_real from[2][2], from_f[2];
    int from_ok[2];
    for (int w2 = 0; w2 < 2; w2++) {
        from[w2][0] = dir[0], from[w2][1] = dir[1];
        from_f[w2] = SN_F(dir);
        from_ok[w2] = SN_OK_DIR(dir);
    }
    for (int k = 1; k <= N; k++)
        for (int w2 = 0; w2 < 2; w2++) {
            sn_real* prev = from[w2];
            sn_real sg = w2 ? -sn : sn;
            sn_real t[2] = {cs * prev[0] - sg * prev[1], sg * prev[0] + cs * prev[1]};
            sn_real f = SN_F(t);
            int ok = SN_OK_DIR(t);
            if (from_ok[w2] && ok && (f > 0) != (from_f[w2] > 0)) {
                sn_real lo[2] = {prev[0], prev[1]}, hi[2] = {t[0], t[1]}, flo = from_f[w2], fhi = f;
                sn_real m[2] = {t[0], t[1]};
                int side = 0;
                for (int it = 0; it < 60; it++) {
                    sn_real al = flo / (flo - fhi); // the chord's zero between lo and hi
                    sn_real m0 = (1 - al) * lo[0] + al * hi[0], m1 = (1 - al) * lo[1] + al * hi[1];
                    sn_real nm = sqrt(m0 * m0 + m1 * m1);
                    m0 /= nm, m1 /= nm;
                    sn_real step = fabs(m0 - m[0]) + fabs(m1 - m[1]);
                    m[0] = m0, m[1] = m1;
                    sn_real fm = SN_F(m);
                    if (fm == 0 || step < 1e-14) break;
                    if ((fm > 0) == (flo > 0)) {
                        lo[0] = m[0], lo[1] = m[1], flo = fm;
                        if (side == -1) fhi *= 0.5;
                        side = -1;
                    } else {
                        hi[0] = m[0], hi[1] = m[1], fhi = fm;
                        if (side == 1) flo *= 0.5;
                        side = 1;
                    }
                }
                sn_real den = G[8] / mu + G[6] * m[0] + G[7] * m[1];
                sn_real r = -c[2] / den;
                v3_set(lam, r * m[0], r * m[1], r / mu);
                return 1;
            }
            prev[0] = t[0], prev[1] = t[1], from_f[w2] = f, from_ok[w2] = ok;
        }
#undef SN_F
#undef SN_OK_DIR
    return 0;
}


// G (3x3, rows t1 t2 n), c (3), mu: the impulse of one contact; returns the case (0 open,
// 1 stick, 2 slide)
int sni_contact_local(const sn_real* G_in, const sn_real* c, sn_real mu, sn_real* lam) {
    if (c[2] >= 0) {
        v3_set(lam, 0, 0, 0);
        return 0;
    }
    sn_real G[9], z[3];
    regularize(G_in, G, z);
    if (!(G[8] > 0)) {
        v3_set(lam, 0, 0, 0);
        return 0;
    }
    if (mu <= 0) {
        v3_set(lam, 0, 0, -c[2] / G[8]);
        return 2;
    }
    sn_real l0[3];
    stick_impulse(G, c, z, l0);
    sn_real lt = sqrt(l0[0] * l0[0] + l0[1] * l0[1]);
    if (l0[2] >= 0 && lt <= mu * l0[2]) {
        v3_copy(lam, l0);
        return 1;
    }
    // sliding: a fixed point, else a scan of the directions. A sliding direction whose normal
    // response den is near zero asks for an unbounded impulse (Painleve's paradox: a pinned rod
    // dragged along its slip jams); directions where friction takes away more than 999/1000 of
    // the normal response are not taken, and the sticking impulse on the cone stands in when no
    // other direction holds
    const sn_real den_min = 1e-3 * G[8] / mu;
    sn_real dir[2] = {l0[0] / lt, l0[1] / lt};
    if (!(lt > 0)) dir[0] = 1, dir[1] = 0;
    if (slide_fixed_point(G, c, mu, den_min, dir, lam)) return 2;
    if (slide_scan(G, c, mu, den_min, dir, lam)) return 2;
    // no root found (a degenerate G): the sticking impulse projected on the cone, unless G's
    // null direction makes it grow without bound (where a pin holds the body and the contact
    // asks for a velocity the pin forbids): then the normal impulse that stops the normal
    // velocity, with full friction against the last direction tried when that leaves the normal
    // response positive, else without friction
    sn_real l0n = l0[2] > 0 ? l0[2] : 0, free_n = -c[2] / G[8];
    if (l0n <= 1e3 * free_n) {
        sn_real scale = mu * l0n / (lt > 0 ? lt : 1);
        v3_set(lam, l0[0] * scale, l0[1] * scale, l0n);
        return 2;
    }
    sn_real den = G[8] / mu + G[6] * dir[0] + G[7] * dir[1];
    if (den > den_min) {
        sn_real r = -c[2] / den;
        v3_set(lam, r * dir[0], r * dir[1], r / mu);
    } else {
        v3_set(lam, 0, 0, free_n);
    }
    return 2;
}
