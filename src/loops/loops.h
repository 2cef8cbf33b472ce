// SPDX-License-Identifier: Apache-2.0
// loops.h: loop constraints of a system, eliminated exactly in every step (internal; seed 000,
// "Kinematic loops"; seed 001): pins, equality and orientation constraints and mimic joints as
// rows J of the step, their factorization D = J M~^-1 J^T, the projection of the contact solver's
// responses onto the constrained mechanism, and the reports (docs/loops.md).
#ifndef SNI_LOOPS_H
#define SNI_LOOPS_H

#include "sinew/sn_world.h"

#define SNI_LOOP_SHARED_MAX 32 // most shared DOFs of the loops' structured factor

typedef struct sni_loops {
    // ---- the constraints, fixed at attachment ----
    sn_real* anchor2; // body2's anchor in its link frame (nc x 3)
    sn_real* rot2;    // orientation constraints: body2's link frame in body1's (nc x 9)
    sn_real* axes;    // the directions each constraint keeps, in body1's frame (nc x 3 x 3)
    int* naxis;       // and their number (nc)
    // ---- the last step's report ----
    sn_real* err;  // p1 - p2 at the start of the last step (nc x 3)
    sn_real* imp;  // impulse on body1's anchor over the last step, world (nc x 3)
    sn_real* axis; // each row's world axis in the last step (3 nc x 3)
    // ---- this step's rows (nr = 3 nc + the mimic joints) ----
    int nrow, nkeep;
    int active;   // this step eliminated the loops (the contact solver projects through them)
    sn_real* J;   // the step's rows (nr x nv), and 3 rows of scratch after them
    sn_real* W;   // Z = L^-T J^T as rows (nr x nv)
    int* jn;      // nonzeros of each row of J (nr), then of each row of Z = L^-T J^T (nr)
    int* idx;     // their DOFs: J rows (nr x nv), then Z rows (nr x nv)
    int* same;    // per row: its nonzeros are last step's (nr)
    sn_real* rhs; // -beta e (nr)
    sn_real* lam; // the rows' impulses (nr)
    sn_real* tmp; // (3 (nr + nv))
    int* path;    // a projected row's DOFs (nv)
    // ---- the dense, pivoted factor of D ----
    sn_real* D;    // D = J M~^-1 J^T of the step's rows (nr x nr)
    sn_real* L;    // its pivoted Cholesky factor: row perm[a]'s entries (nr x nr)
    sn_real* diag; // the factorization's remaining diagonal (nr)
    int* used;     // rows already pivoted (nr)
    int* keep;     // the rows kept (independent), in order (nr)
    // ---- the structured factor: rows in groups that share no DOF but a few shared ones ----
    int structured; // this step's D is factored by groups (1) or densely (0)
    int ngroup, nshared;
    int* group;     // group of each row (nr), rows ordered by group (nr), offsets (ng + 1)
    int* cnt;       // per DOF: rows whose Z holds it, first such row, shared index (3 nv)
    sn_real* P;     // D^-1 U: every row's response to the shared DOFs (nr x SHARED_MAX)
    sn_real* U;     // the rows' half solves at the shared DOFs (nr x SNI_LOOP_SHARED_MAX)
    sn_real* C;     // the shared DOFs' Schur system, factored (SHARED_MAX^2)
    int dense_only; // always the dense factor (for tests)
    // ---- sn_system_assemble ----
    sn_real* save_q; // the state before, restored on failure (nq, nv)
    sn_real* save_u; //
    sn_real* next_q; // the next iterate's positions (nq)
    sn_real* next_u; // the admissible velocity at the result (nv)
} sni_loops;

// body2's anchors from the current configuration (the nominal one, when the system is added)
void sni_loops_attach(sn_system* s);
// the step's elimination of the loop constraints after u*: rows, errors, D's factor through the
// step's factor of M~, and s's u1 moved onto the constraints
sn_status sni_loops_begin(sn_system* s, sn_real dt);
// the projection of impulse responses Y (rows of nv) onto the constrained mechanism
void sni_loops_project(const sn_system* s, sn_real* Y, int nrows);
// the same on rows still in the half solve's state (z = L^-T j^T, before the rest of the solve),
// nonzero on the path of DOF last to the root (-2: anywhere)
void sni_loops_project_half(const sn_system* s, sn_real* Z, int nrows, int last);
// the step's constraint impulses, with g = M~^-1 J_c^T lambda_c of the contact solver (NULL:
// none)
void sni_loops_finish(sn_system* s, const sn_real* g);
// u's admissible part (the M~-orthogonal projection onto J u = 0) into out
void sni_loops_admissible(const sn_system* s, const sn_real* u, sn_real* out);
// the last step's constraint impulses as external forces on their bodies (for inverse dynamics)
void sni_loops_wrenches(sn_system* s, sn_real dt);

#endif
