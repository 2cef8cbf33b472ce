// SPDX-License-Identifier: Apache-2.0
// collide.h: collision (internal). The contacts of the articulated systems' collision geometry
// with the ground and the heightfield (ground.c), between systems and within one through the
// broad phase (broad.c) and the primitive pairs in closed form (pairs.c), the pairs without one
// through the shapes' support functions (convex.c, GJK/EPA), and the bounding spheres every phase
// culls with (bounds.c). The step calls sni_collide_ground and sni_collide_systems; both append
// to the world's contact list.
#ifndef SNI_COLLIDE_H
#define SNI_COLLIDE_H

#include "base/smath.h"
#include "sinew/sn_data.h"
#include "sinew/sn_model.h"
#include "sinew/sn_world.h"


// ---- the step's entry points (ground.c, broad.c) ----

// most contact points a geometry of type `type` (sn_geom_type) can produce against a plane
int sni_geom_max_contacts(int type);
// the contacts of every collision geometry of system si with the ground (plane or heightfield)
void sni_collide_ground(sn_world* w, int si);
// the plane (unit normal n, points x with n.x = off) of the terrain under (x, y); 0 if there is
// none (no heightfield there and no ground)
int sni_terrain_plane(const sn_world* w, sn_real x, sn_real y, sn_real* n, sn_real* off);
// the contacts between systems, and within the systems with self-collision on
void sni_collide_systems(sn_world* w);


// ---- the geometries in the world (bounds.c) ----

// the bounding sphere of each geometry of s in its body's frame (s->geom_center, geom_radius;
// radius 0: the geometry never collides); once, when the system is added
void sni_geom_bounds(sn_system* s);
// the world centre c of the bounding sphere of geometry g of system s
void sni_geom_bound_center(const sn_system* s, int g, sn_real* c);
// the world pose (R, p) of geometry g at the data's current kinematics
void sni_geom_pose(const sn_model* m, const sn_data* d, int g, sn_real* R, sn_real* p);


// ---- the contact list and the primitive pairs (pairs.c) ----

// an orthonormal contact frame f (rows t1, t2, n) around the unit normal n
void sni_contact_frame(sn_real* f, const sn_real* n);
// a contact of geometry ga of system sa (at world point x) with geometry gb of system sb (-1:
// the ground), normal n from b to a, and the gap (negative when penetrating); its material
void sni_contact_add(sn_world* w, int sa, int ga, int sb, int gb, const sn_real* x,
                     const sn_real* n, sn_real gap);
// the contacts of geometry ga of system sa with geometry gb of system sb, any shapes
void sni_collide_pair(sn_world* w, int sa, int ga, int sb, int gb);


// ---- convex shapes through their support functions (convex.c) ----

// a shape in the world: type (sn_geom_type), pose, size as in sn_model; a mesh's vertices
typedef struct sni_convex {
    int type;
    sn_real R[9], p[3];
    const sn_real* size;
    const sn_real* vert; // mesh vertices in the shape frame (nvert x 3)
    int nvert;
    sn_real center[3]; // a point inside, world frame (GJK's first direction)
} sni_convex;

// geometry g of system s (pose R, p) as a convex shape (pairs.c)
void sni_geom_convex(sni_convex* c, const sn_system* s, int g, const sn_real* R, const sn_real* p);
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
