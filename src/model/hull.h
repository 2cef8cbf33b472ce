// SPDX-License-Identifier: Apache-2.0
// hull.h: convex hulls of point sets and the mass properties of the solids they bound (internal;
// used when models load, never by a step)
#ifndef SNI_HULL_H
#define SNI_HULL_H

#include "base/base.h"
#include "base/smath.h"

// the hull of the n points p (n x 3) as outward triangles (index triples into p, allocated with
// a: *ntri x 3 ints). SN_ERR_MODEL when the points are flat, collinear or fewer than four;
// SN_ERR_NOMEM.
sn_status sni_hull(const sn_real* p, int n, const sn_allocator* a, int** tri, int* ntri);
// volume, centroid and second moment (the integral of r r^T over the solid, about the origin,
// unit density) of the solid bounded by the outward triangles
void sni_hull_mass(const sn_real* p, const int* tri, int ntri, sn_real* volume, sn_real* com,
                   sn_real* second);

#endif
