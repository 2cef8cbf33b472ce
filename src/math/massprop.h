// SPDX-License-Identifier: Apache-2.0
// massprop.h: mass properties of the solid a closed triangle mesh encloses (internal; used when
// models load, never by a step). Each outward triangle and the origin span a tetrahedron of
// signed volume a.(b x c)/6; sums over the tetrahedra are exact for a closed surface, wherever
// the origin is.
#ifndef SNI_MASSPROP_H
#define SNI_MASSPROP_H

#include "base/base.h"

// the sums over the tetrahedra, at unit density; zero-initialised before the first triangle
typedef struct sni_massprop {
    sn_real volume;    // signed volume
    sn_real first[3];  // first moment: the integral of r over the solid
    sn_real second[9]; // second moment about the origin: the integral of r r^T over the solid
} sni_massprop;

// add the tetrahedron (0, a, b, c) of one outward triangle a b c
void sni_massprop_add(sni_massprop* m, const sn_real* a, const sn_real* b, const sn_real* c);
// add the ntri outward triangles given as index triples into the points p (n x 3)
void sni_massprop_add_indexed(sni_massprop* m, const sn_real* p, const int* tri, int ntri);
// add the ntri outward triangles given as corners, 9 numbers each (x y z of a, b, c)
void sni_massprop_add_corners(sni_massprop* m, const sn_real* tri, size_t ntri);
// the centroid, first / volume (0 0 0 when the volume is 0)
void sni_massprop_centroid(const sni_massprop* m, sn_real* com);
// the inertia tensor (3 x 3) about the centroid com at density rho:
// S = rho (second - volume com com^T), I = tr(S) 1 - S
void sni_massprop_inertia(const sni_massprop* m, const sn_real* com, sn_real rho, sn_real* I);

#endif
