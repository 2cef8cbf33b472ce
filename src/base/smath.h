// SPDX-License-Identifier: Apache-2.0
// smath.h: small inline vector algebra on plain arrays (internal). Rotation matrices are
// row-major 3x3; quaternions are w, x, y, z; spatial 6-vectors are angular first.
#ifndef SNI_SMATH_H
#define SNI_SMATH_H

#include "sinew/sn_base.h"

#include <math.h>
#include <string.h>

static inline void v3_set(sn_real* d, sn_real x, sn_real y, sn_real z) {
    d[0] = x;
    d[1] = y;
    d[2] = z;
}
static inline void v3_copy(sn_real* d, const sn_real* a) {
    memcpy(d, a, 3 * sizeof(sn_real));
}
static inline void v3_add(sn_real* d, const sn_real* a, const sn_real* b) {
    d[0] = a[0] + b[0];
    d[1] = a[1] + b[1];
    d[2] = a[2] + b[2];
}
static inline void v3_sub(sn_real* d, const sn_real* a, const sn_real* b) {
    d[0] = a[0] - b[0];
    d[1] = a[1] - b[1];
    d[2] = a[2] - b[2];
}
static inline void v3_scale(sn_real* d, const sn_real* a, sn_real s) {
    d[0] = a[0] * s;
    d[1] = a[1] * s;
    d[2] = a[2] * s;
}
// d += a * s
static inline void v3_addscl(sn_real* d, const sn_real* a, sn_real s) {
    d[0] += a[0] * s;
    d[1] += a[1] * s;
    d[2] += a[2] * s;
}
static inline sn_real v3_dot(const sn_real* a, const sn_real* b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline sn_real v3_norm(const sn_real* a) {
    return sqrt(v3_dot(a, a));
}
// d = a x b (d may not alias a or b)
static inline void v3_cross(sn_real* d, const sn_real* a, const sn_real* b) {
    d[0] = a[1] * b[2] - a[2] * b[1];
    d[1] = a[2] * b[0] - a[0] * b[2];
    d[2] = a[0] * b[1] - a[1] * b[0];
}
// d += a x b
static inline void v3_addcross(sn_real* d, const sn_real* a, const sn_real* b) {
    d[0] += a[1] * b[2] - a[2] * b[1];
    d[1] += a[2] * b[0] - a[0] * b[2];
    d[2] += a[0] * b[1] - a[1] * b[0];
}

// d = R a
static inline void m3_mul_v3(sn_real* d, const sn_real* r, const sn_real* a) {
    sn_real x = r[0] * a[0] + r[1] * a[1] + r[2] * a[2];
    sn_real y = r[3] * a[0] + r[4] * a[1] + r[5] * a[2];
    sn_real z = r[6] * a[0] + r[7] * a[1] + r[8] * a[2];
    v3_set(d, x, y, z);
}
// d = R^T a
static inline void m3t_mul_v3(sn_real* d, const sn_real* r, const sn_real* a) {
    sn_real x = r[0] * a[0] + r[3] * a[1] + r[6] * a[2];
    sn_real y = r[1] * a[0] + r[4] * a[1] + r[7] * a[2];
    sn_real z = r[2] * a[0] + r[5] * a[1] + r[8] * a[2];
    v3_set(d, x, y, z);
}
// d = A^T B (d may not alias)
static inline void m3t_mul(sn_real* d, const sn_real* a, const sn_real* b) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
}
// d = A B (d may not alias)
static inline void m3_mul(sn_real* d, const sn_real* a, const sn_real* b) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}
// d = A B^T
static inline void m3_mul_t(sn_real* d, const sn_real* a, const sn_real* b) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d[3 * i + j] =
                a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
}
static inline void m3_identity(sn_real* d) {
    memset(d, 0, 9 * sizeof(sn_real));
    d[0] = d[4] = d[8] = 1;
}
// d = R I R^T for a symmetric I
static inline void m3_rotate_sym(sn_real* d, const sn_real* r, const sn_real* inertia) {
    sn_real t[9];
    m3_mul(t, r, inertia);
    m3_mul_t(d, t, r);
}

// q scaled by its largest |q_k| into s: that largest value, 0 for the zero quaternion, NaN when
// a component is not finite (s untouched then)
static inline sn_real quat_scaled(const sn_real* q, sn_real* s) {
    sn_real big = 0;
    for (int k = 0; k < 4; k++) {
        if (!isfinite(q[k])) return (sn_real)NAN;
        if (fabs(q[k]) > big) big = fabs(q[k]);
    }
    if (big == 0) return 0;
    for (int k = 0; k < 4; k++)
        s[k] = q[k] / big;
    return big;
}
// the norm of a quaternion (any 4-vector) without overflow or underflow: the components are
// scaled by the largest |q_k| first, so (1e200, 1e200, 0, 0) has norm 1.414e200 (not inf) and
// (1e-170, 0, 0, 0) 1e-170 (not 0). 0 only for the zero quaternion; NaN when a component is
// not finite. Every quaternion a user gives (states, targets, files) is normalized by it.
static inline sn_real quat_norm_safe(const sn_real* q) {
    sn_real s[4];
    sn_real big = quat_scaled(q, s);
    if (!(big > 0)) return big;
    return big * sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
}
// out = q / |q| by quat_norm_safe (out may be q): 1, or 0 (out untouched) when q is zero or not
// finite. The largest component is divided first, so the result is unit to rounding.
static inline int quat_normalize_safe(sn_real* out, const sn_real* q) {
    sn_real s[4];
    if (!(quat_scaled(q, s) > 0)) return 0;
    sn_real n = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
    for (int k = 0; k < 4; k++)
        out[k] = s[k] / n;
    return 1;
}
// rotation matrix of a unit quaternion (w, x, y, z)
static inline void quat_to_m3(sn_real* r, const sn_real* q) {
    sn_real w = q[0], x = q[1], y = q[2], z = q[3];
    r[0] = 1 - 2 * (y * y + z * z);
    r[1] = 2 * (x * y - w * z);
    r[2] = 2 * (x * z + w * y);
    r[3] = 2 * (x * y + w * z);
    r[4] = 1 - 2 * (x * x + z * z);
    r[5] = 2 * (y * z - w * x);
    r[6] = 2 * (x * z - w * y);
    r[7] = 2 * (y * z + w * x);
    r[8] = 1 - 2 * (x * x + y * y);
}
// the unit quaternion (w x y z) of a rotation matrix
static inline void m3_to_quat(sn_real* q, const sn_real* R) {
    sn_real tr = R[0] + R[4] + R[8];
    if (tr > 0) {
        sn_real k = 2 * sqrt(1 + tr);
        q[0] = k / 4, q[1] = (R[7] - R[5]) / k, q[2] = (R[2] - R[6]) / k, q[3] = (R[3] - R[1]) / k;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        sn_real k = 2 * sqrt(1 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / k, q[1] = k / 4, q[2] = (R[1] + R[3]) / k, q[3] = (R[2] + R[6]) / k;
    } else if (R[4] > R[8]) {
        sn_real k = 2 * sqrt(1 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / k, q[1] = (R[1] + R[3]) / k, q[2] = k / 4, q[3] = (R[5] + R[7]) / k;
    } else {
        sn_real k = 2 * sqrt(1 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / k, q[1] = (R[2] + R[6]) / k, q[2] = (R[5] + R[7]) / k, q[3] = k / 4;
    }
}
// d = a * b
static inline void quat_mul(sn_real* d, const sn_real* a, const sn_real* b) {
    sn_real w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    sn_real x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    sn_real y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    sn_real z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    d[0] = w;
    d[1] = x;
    d[2] = y;
    d[3] = z;
}
// rotation about a unit axis, given the sine and cosine of the angle
static inline void axis_sincos_to_m3(sn_real* r, const sn_real* a, sn_real s, sn_real c) {
    sn_real t = 1 - c;
    sn_real x = a[0], y = a[1], z = a[2];
    r[0] = t * x * x + c;
    r[1] = t * x * y - s * z;
    r[2] = t * x * z + s * y;
    r[3] = t * x * y + s * z;
    r[4] = t * y * y + c;
    r[5] = t * y * z - s * x;
    r[6] = t * x * z - s * y;
    r[7] = t * y * z + s * x;
    r[8] = t * z * z + c;
}
// URDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll)
static inline void rpy_to_m3(sn_real* r, sn_real roll, sn_real pitch, sn_real yaw) {
    sn_real cr = cos(roll), sr = sin(roll), cp = cos(pitch), sp = sin(pitch);
    sn_real cy = cos(yaw), sy = sin(yaw);
    r[0] = cy * cp;
    r[1] = cy * sp * sr - sy * cr;
    r[2] = cy * sp * cr + sy * sr;
    r[3] = sy * cp;
    r[4] = sy * sp * sr + cy * cr;
    r[5] = sy * sp * cr - cy * sr;
    r[6] = -sp;
    r[7] = cp * sr;
    r[8] = cp * cr;
}

// ---- spatial algebra at the world origin, (angular, linear) ----

// d = a x b for motions (d may not alias)
static inline void mot_cross_mot(sn_real* d, const sn_real* a, const sn_real* b) {
    v3_cross(d, a, b);
    v3_cross(d + 3, a, b + 3);
    v3_addcross(d + 3, a + 3, b);
}
// d += a x b for motions
static inline void mot_addcross_mot(sn_real* d, const sn_real* a, const sn_real* b) {
    v3_addcross(d, a, b);
    v3_addcross(d + 3, a, b + 3);
    v3_addcross(d + 3, a + 3, b);
}
// d += v x* f for a motion v and a force f
static inline void mot_addcross_force(sn_real* d, const sn_real* v, const sn_real* f) {
    v3_addcross(d, v, f);
    v3_addcross(d, v + 3, f + 3);
    v3_addcross(d + 3, v, f + 3);
}
static inline sn_real s6_dot(const sn_real* a, const sn_real* b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}
// d = a + b for three distinct 6-vectors
static inline void s6_add(sn_real* restrict d, const sn_real* restrict a,
                          const sn_real* restrict b) {
    d[0] = a[0] + b[0], d[1] = a[1] + b[1], d[2] = a[2] + b[2];
    d[3] = a[3] + b[3], d[4] = a[4] + b[4], d[5] = a[5] + b[5];
}
// d += a for two distinct 6-vectors
static inline void s6_addto(sn_real* restrict d, const sn_real* restrict a) {
    d[0] += a[0], d[1] += a[1], d[2] += a[2], d[3] += a[3], d[4] += a[4], d[5] += a[5];
}
// d += a * k for two distinct 6-vectors
static inline void s6_addscl(sn_real* restrict d, const sn_real* restrict a, sn_real k) {
    d[0] += a[0] * k, d[1] += a[1] * k, d[2] += a[2] * k;
    d[3] += a[3] * k, d[4] += a[4] * k, d[5] += a[5] * k;
}
// d = A x for a 6x6 row-major A
static inline void m6_mul_v6(sn_real* d, const sn_real* a, const sn_real* x) {
    for (int i = 0; i < 6; i++)
        d[i] = s6_dot(a + 6 * i, x);
}

#endif
