// SPDX-License-Identifier: Apache-2.0
// constraints.h: constraints between rigid bodies in maximal coordinates (internal; seed 003,
// docs/constraints.md). A body's state is its COM position x in the world, its rotation R
// (row-major, body to world), its linear velocity v and angular velocity w, both in the world.
// A constraint joins body a to body b (b NULL: the world, a fixed frame at the origin) through
// one joint frame on each: an anchor point r (body coordinates, from the COM) and an orientation
// Q (row-major, columns the frame's axes in body coordinates; axis 1 is the hinge, slider, line
// and plane-normal axis). It gives c(x), the Jacobian slices J_a, J_b (rows x 6, row-major,
// columns (v, w)) with c-dot = J_a x-dot_a + J_b x-dot_b, and J-dot x-dot.
#ifndef SNI_MAXC_CONSTRAINTS_H
#define SNI_MAXC_CONSTRAINTS_H

#include "sinew/sn_base.h"

typedef struct sni_maxc_body {
    sn_real x[3], R[9], v[3], w[3];
} sni_maxc_body;

typedef enum sni_maxc_kind {
    SNI_MAXC_BALL,     // 3 rows: the anchors coincide
    SNI_MAXC_DISTANCE, // 1 row: the anchors are `length` apart (a rigid rod)
    SNI_MAXC_PLANE,    // 1 row: a's anchor on the plane through b's anchor, normal b's axis 1
    SNI_MAXC_LINE,     // 2 rows: a's anchor on the line through b's anchor along b's axis 1
    SNI_MAXC_HINGE,    // 5 rows: ball, and the frames' axes 1 parallel
    SNI_MAXC_SLIDER,   // 5 rows: line, and the frames aligned
    SNI_MAXC_WELD,     // 6 rows: ball, and the frames aligned
    SNI_MAXC_KIND_COUNT
} sni_maxc_kind;

// the largest number of rows of one constraint
#define SNI_MAXC_ROWS_MAX 6

typedef struct sni_maxc_con {
    sni_maxc_kind kind;
    sn_real ra[3], rb[3]; // anchors, body coordinates of a and b (b's: world, when b is NULL)
    sn_real Qa[9], Qb[9]; // joint frames, rotations in body coordinates
    sn_real length;       // SNI_MAXC_DISTANCE only: the rod's length (> 0)
} sni_maxc_con;

// the number of rows of a kind (0 for an unknown kind)
int sni_maxc_rows(sni_maxc_kind kind);

// c, J_a, J_b and J-dot x-dot (rows entries each; J_a, J_b rows x 6) of constraint k between a
// and b (NULL: the world; Jb may then be NULL). Any of c, Ja, Jb, jdot may be NULL (not
// computed). SN_ERR_ARG on a NULL a or k, an unknown kind, a distance of length <= 0 or anchors
// closer than 1e-12 m (the row's direction undefined); SN_ERR_NONFINITE on a NaN or Inf in a
// body's state; outputs then untouched.
sn_status sni_maxc_eval(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                        sn_real* c, sn_real* Ja, sn_real* Jb, sn_real* jdot);

#endif
