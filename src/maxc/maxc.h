// SPDX-License-Identifier: Apache-2.0
// maxc.h: an sn_maximal's insides (internal; seed 003, docs/constraints.md): its bodies, its
// constraints (built-in, gear, wire, user), its workspace for the step, and the map back to the
// model it was made from. system.c: the API; step.c: the step; user.c: user constraints and the
// finite-difference check; from_model.c: a model in maximal coordinates and its joint state.
#ifndef SNI_MAXC_MAXC_H
#define SNI_MAXC_MAXC_H

#include "base/base.h"
#include "maxc/constraints.h"
#include "sinew/sn_maximal.h"

// one body: mass properties fixed at creation, the state, this step's applied force
typedef struct sni_mx_body {
    sn_real mass;
    sn_real I[9];     // inertia about the COM, body axes (3x3)
    sn_real Iinv[9];  // its inverse
    sni_maxc_body st; // x, R (body to world, row-major), v, w (world)
    sn_real quat[4];  // R's quaternion (w x y z), the integrated orientation
    sn_real F[3];     // world force at the COM, next step only
    sn_real tau[3];   // world torque, next step only
} sni_mx_body;

// one constraint
typedef struct sni_mx_con {
    sn_constraint_desc d;  // as given (defaults filled: identity frames, ratio 1)
    int user;              // 1: d is unused, uc holds it
    sn_user_constraint uc; //
    sni_maxc_con k;        // the built-in kernel's description (BALL..WELD, DISTANCE of a wire)
    int row0, nrow;        // its rows in the system's row vector
    int active;            // WIRE: its row was in this step's solve (taut)
    sn_real lambda[SNI_MAXC_ROWS_MAX]; // the last step's multipliers (N or N m per row)
} sni_mx_con;

struct sn_maximal {
    sn_allocator al;
    sn_log_fn log;
    void* log_ctx;
    char err[512]; // the last refusal
    // ---- settings ----
    sn_real dt, g[3], alpha, beta, t;
    sn_maximal_scheme scheme;
    // ---- bodies and constraints (grown as they are added; never in a step) ----
    int nbody, cap_body;
    sni_mx_body* body;
    int ncon, cap_con;
    sni_mx_con* con;
    int nrow; // rows of all constraints
    // ---- the step's workspace, sized when a body or constraint is added ----
    int cap_row;
    sn_real* J;    // rows x 6 nbody (dense in this first version; block-sparse later)
    sn_real* A;    // J M^-1 J^T (rows x rows) and its factor
    sn_real* rhs;  // rows
    sn_real* lam;  // rows
    sn_real* acc;  // 6 nbody accelerations
    sn_real* save; // the state before the step (restored on failure), and RK4 stages
    // ---- the model it was made from (sn_maximal_from_model; NULL otherwise) ----
    const sn_model* model;
    int* link_body;    // per model body: its sn_maximal body (-1: the world / merged)
    sn_real* link_off; // per model body: its link frame in the maximal body's frame (pos 3)
    int* joint_con;    // per model joint: its constraint (-1: none, a free joint)
    // (from_model.c) the sizes the map was allocated with, and q at creation: hinge angles are
    // read within pi of it, quaternions with its sign (so that q comes back as it was given)
    int map_nbody, map_njoint, map_nq;
    sn_real* joint_qref; // (model nq)
};

// from_model.c: frees the model map (link_body, link_off, joint_con, joint_qref); a NULL map is
// a no-op. sn_maximal_destroy calls it.
void sni_maxc_model_free(sn_maximal* mx);

#endif
