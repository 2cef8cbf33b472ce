// SPDX-License-Identifier: Apache-2.0
// massprop.c: volume, centroid and inertia of the solid a closed triangle mesh encloses, as sums
// over the tetrahedra its outward triangles span with the origin (signed volumes, so the sums
// hold for any closed surface and any origin). A tetrahedron (0, a, b, c) of volume v has first
// moment v s / 4 and second moment v / 20 (s s^T + a a^T + b b^T + c c^T), s = a + b + c. Used
// for convex hulls (free mesh bodies) and for MJCF mesh geoms' mass. The order of the sums is
// the MJCF reader's (its results are compared with MuJoCo's and kept bit for bit); keep it.
#include "math/massprop.h"

#include "base/smath.h"

#include <string.h>

void sni_massprop_add(sni_massprop* m, const sn_real* a, const sn_real* b, const sn_real* c) {
    sn_real bc[3], s[3];
    v3_cross(bc, b, c);
    sn_real v = v3_dot(a, bc) / 6;
    m->volume += v;
    v3_add(s, a, b);
    v3_add(s, s, c);
    v3_addscl(m->first, s, v / 4);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m->second[3 * i + j] +=
                v / 20 * (s[i] * s[j] + a[i] * a[j] + b[i] * b[j] + c[i] * c[j]);
}


void sni_massprop_add_indexed(sni_massprop* m, const sn_real* p, const int* tri, int ntri) {
    for (int t = 0; t < ntri; t++)
        sni_massprop_add(m, p + 3 * tri[3 * t], p + 3 * tri[3 * t + 1], p + 3 * tri[3 * t + 2]);
}


void sni_massprop_add_corners(sni_massprop* m, const sn_real* tri, size_t ntri) {
    for (size_t t = 0; t < ntri; t++)
        sni_massprop_add(m, tri + 9 * t, tri + 9 * t + 3, tri + 9 * t + 6);
}


void sni_massprop_centroid(const sni_massprop* m, sn_real* com) {
    v3_scale(com, m->first, m->volume != 0 ? 1 / m->volume : 0);
}


void sni_massprop_inertia(const sni_massprop* m, const sn_real* com, sn_real rho, sn_real* I) {
    sn_real S[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            S[3 * i + j] = rho * (m->second[3 * i + j] - m->volume * com[i] * com[j]);
    // off the diagonal -S, not 0 - S: the two differ in the sign of a zero
    sn_real tr = S[0] + S[4] + S[8];
    for (int i = 0; i < 9; i++)
        I[i] = i % 4 == 0 ? tr - S[i] : -S[i];
}
