// SPDX-License-Identifier: Apache-2.0
// build.h: the USD robot builder's shared state (src/usd/physics.c, frames.c, shapes.c only): the
// affine frames, the bodies and joints found on the stage, the builder that turns them into a
// spec, and the helpers the three files share (docs/usd.md).
#ifndef SNI_USD_BUILD_H
#define SNI_USD_BUILD_H

#include "base/smath.h"
#include "usd/usd.h"

#include <math.h>
#include <string.h>

#define PIN_GAP 0.02   // metres between a loop joint's anchor and its other pins
#define AGREE_POS 1e-5 // metres: a joint's two anchors disagree beyond this (warned)
#define AGREE_ROT 1e-5 // radians: its two frames' axes disagree beyond this (warned)
#define ROT_TOL 1e-6   // a body's transform is a rotation to this (else: scaled, refused)
#define MAX_OPS 32     // transform operations of one prim
#define DEG (3.14159265358979323846 / 180)

typedef struct aff {
    sn_real A[9]; // linear part (rotation, scale)
    sn_real t[3];
} aff;

typedef struct body {
    int prim;
    int tree_joint; // index into joints, -1: a root
    int parent;     // body index, -1: the world
    int visited;
    long name;
    aff W;            // its frame in the world (metres)
    aff L;            // its link frame in the world
    aff O;            // its frame in its link frame
    int density_read; // density below read (its physics:density, NaN: none)
    sn_real density;
    int link; // the spec's link
} body;

typedef struct joint {
    int prim;
    int kind; // sn_joint_type
    int b[2]; // body index of body0, body1; -1: the world
    aff F[2]; // the frames the local poses are in (a body's, a static prim's, identity)
    aff X[2]; // localPos/localRot of each side (metres)
    int axis; // 0 x, 1 y, 2 z
    int exclude;
    int enabled;
    int loop;     // closes a loop
    int reversed; // the tree runs from body1 to body0
    long name;
} joint;

typedef struct builder {
    sni_usd_doc* d;
    sni_spec* s;
    aff* world;   // per prim, stage units
    int* owner;   // per prim: the body its geometry belongs to, -1: static
    body* bodies; // nbody
    joint* joints;
    int nbody, njoint;
    int* adj0;    // the joints at each body (CSR, ascending; the world is node nbody)
    int* adj;     //
    int* childof; // per joint: the body it is the tree joint of, -1: a loop
    int* first;   // per body: its first child in joint order, -1
    int* sib;     // per body: its next sibling, -1
    int max_links;
    int* binding;  // per prim: the physics material it binds, -1 none, -2 not looked up
    int* freebody; // the bodies of the free joints, in the spec's order (nfree)
    int nfree;
    sni_buf density; // per spec geometry: its density (kg/m^3), 0 for visual ones
    sn_real mpu, kpu;
    int has_world_link;
    int floating; // one free articulation: the spec's floating base
    int warned_mesh, warned_over;
} builder;

// ---- small algebra on affine frames ----

static inline void sni_usd_aff_identity(aff* x) {
    m3_identity(x->A);
    v3_set(x->t, 0, 0, 0);
}
// d = a b
static inline void sni_usd_aff_mul(aff* d, const aff* a, const aff* b) {
    aff r;
    m3_mul(r.A, a->A, b->A);
    m3_mul_v3(r.t, a->A, b->t);
    v3_add(r.t, r.t, a->t);
    *d = r;
}
// the inverse of a rigid frame (A a rotation)
static inline void sni_usd_rigid_inv(aff* d, const aff* a) {
    aff r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.A[3 * i + j] = a->A[3 * j + i];
    m3_mul_v3(r.t, r.A, a->t);
    v3_scale(r.t, r.t, -1);
    *d = r;
}
// the inverse of a general affine map; 0 when singular
static inline int sni_usd_aff_inv(aff* d, const aff* a) {
    const sn_real* m = a->A;
    sn_real det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                  m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (!(fabs(det) > 1e-300)) return 0;
    aff r;
    r.A[0] = (m[4] * m[8] - m[5] * m[7]) / det;
    r.A[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    r.A[2] = (m[1] * m[5] - m[2] * m[4]) / det;
    r.A[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    r.A[4] = (m[0] * m[8] - m[2] * m[6]) / det;
    r.A[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    r.A[6] = (m[3] * m[7] - m[4] * m[6]) / det;
    r.A[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    r.A[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    m3_mul_v3(r.t, r.A, a->t);
    v3_scale(r.t, r.t, -1);
    *d = r;
    return 1;
}
// how far A is from a rotation: max |A^T A - I|, and det < 0 counts as far
static inline sn_real sni_usd_rot_error(const sn_real* A) {
    sn_real e = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            sn_real v = A[i] * A[j] + A[3 + i] * A[3 + j] + A[6 + i] * A[6 + j] - (i == j);
            if (fabs(v) > e) e = fabs(v);
        }
    sn_real det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                  A[2] * (A[3] * A[7] - A[4] * A[6]);
    return det < 0 ? 1 : e;
}
static inline void sni_usd_rot_axis(sn_real* R, int axis, sn_real angle) {
    sn_real a[3] = {0, 0, 0};
    a[axis] = 1;
    axis_sincos_to_m3(R, a, sin(angle), cos(angle));
}
static inline void sni_usd_quat_to_m3(sn_real* R, const sn_real* q) {
    sn_real u[4] = {1, 0, 0, 0};
    quat_normalize_safe(u, q);
    quat_to_m3(R, u);
}


// ---- frames.c: messages, property helpers, the prims' frames ----

// an error about a prim (its line, its path as the element); fmt takes two %s (a1, a2 nullable)
sn_status sni_usd_refuse(builder* b, int prim, sn_status code, const char* fmt, const char* a1,
                         const char* a2);
// a warning about a prim; fmt takes one %s
void sni_usd_warn(builder* b, int prim, const char* fmt, const char* a1);
// a property's value by name (absent: 0, the default left; an error: -1, recorded in the doc)
int sni_usd_get_reals(builder* b, int prim, const char* name, sn_real* v, int n);
int sni_usd_get_token(builder* b, int prim, const char* name, char* buf, size_t cap);
int sni_usd_get_bool(builder* b, int prim, const char* name, int* v);
// is the prim's type t? is it on the stage (defined, not under a class, over or inactive prim)?
int sni_usd_type_is(const sni_usd_doc* d, int prim, const char* t);
int sni_usd_on_stage(const sni_usd_doc* d, int prim);
// every prim's frame in the world, in stage units, the stage's up axis turned to +z
sn_status sni_usd_world_frames(builder* b);
// a prim's frame in metres, refused when it is not rigid or not finite
sn_status sni_usd_rigid_frame(builder* b, int prim, const char* what, aff* out);

// ---- shapes.c: geometry and masses ----

// the geometry of a gprim (Cube, Sphere, Cylinder, Capsule; a static Plane the ground)
sn_status sni_usd_geometry(builder* b, int prim);
// every body's mass, centre of mass and inertia in its link frame (after the geometry)
sn_status sni_usd_masses(builder* b);

#endif
