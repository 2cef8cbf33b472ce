// SPDX-License-Identifier: Apache-2.0
// convex.h: convex shapes through their support functions (internal)
#ifndef SNI_CONVEX_H
#define SNI_CONVEX_H

#include "base/smath.h"
#include "sinew/sn_model.h"

// a shape in the world: type (sn_geom_type), pose, size as in sn_model; a mesh's vertices
typedef struct sni_convex {
    int type;
    sn_real R[9], p[3];
    const sn_real* size;
    const sn_real* vert; // mesh vertices in the shape frame (nvert x 3)
    int nvert;
    sn_real center[3]; // a point inside, world frame (GJK's first direction)
} sni_convex;

// the point of the shape farthest along the world direction d
void sni_convex_support(const sni_convex* c, const sn_real* d, sn_real* out);
// whether shapes a and b are closer than margin: then the normal n (unit, from b towards a),
// the gap (negative: penetration) and the point x midway between the surfaces
int sni_convex_contact(const sni_convex* a, const sni_convex* b, sn_real margin, sn_real* x,
                       sn_real* n, sn_real* gap);
// the contact manifold of shapes a and b closer than margin: up to four points x with their
// gaps, one normal n (from b towards a). Where a face, an edge or a cylinder's side meets
// another, the points outline the touching region; otherwise it is sni_convex_contact's point.
// Returns the number of points (0: no contact).
int sni_convex_manifold(const sni_convex* a, const sni_convex* b, sn_real margin, sn_real (*x)[3],
                        sn_real* n, sn_real* gap);
#define SNI_FEAT_MAX 16
// the surface points of a shape within tol of its supporting plane along the unit world
// direction d (a face, an edge, a cap's rim, a side line, a vertex), at most SNI_FEAT_MAX
int sni_convex_feature(const sni_convex* c, const sn_real* d, sn_real tol, sn_real (*out)[3]);
// at most four of the n points p (with gaps, across the normal nrm) that outline them: the
// deepest, the farthest from it, the farthest from their line on either side; their indices
int sni_pick4(sn_real (*p)[3], const sn_real* gap, int n, const sn_real* nrm, int* pick);

#endif
