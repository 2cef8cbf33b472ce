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

// the most rows of an sn_maximal (its dense J M^-1 J^T is rows^2 reals: 2 GiB at this cap; the
// indices stay in int, the products in size_t)
#define SNI_MX_ROWS_CAP 16384

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
    sn_real force[3], torque[3];       // the last step's world force and torque on body a
    sn_real gq[2];     // GEAR: joint_a's and joint_b's coordinates at the last accepted state
                       // (hinge angles unwrapped across +-pi from these)
    int off;           // scratch, WIRE: left out of this solve (its multiplier pushed)
    int act_new;       // scratch, WIRE: in the first evaluation's solve (active next step)
    int taut;          // scratch, WIRE: active at the step's start or made taut by an impact
    sn_real gq_new[2]; // scratch, GEAR: gq at the new state (stored when the step succeeds)
    int proj;          // scratch, WIRE: in this step's position projection (violated)
    sn_real lam_new[SNI_MAXC_ROWS_MAX];  // scratch: this step's lambda (stored on success)
    sn_real force_new[3], torque_new[3]; // scratch: this step's force, torque (likewise)
} sni_mx_con;

// one row of this step's solve: its slices at up to four bodies (a gear's two joints), the
// slices' M^-1 J^T, c, c-dot, J-dot x-dot and the right-hand side
#define SNI_MX_ROW_BODIES 4
typedef struct sni_mx_row {
    int con;                         // its constraint
    int nb;                          // bodies with a slice
    int body[SNI_MX_ROW_BODIES];     // their ids
    sn_real J[SNI_MX_ROW_BODIES][6]; // slices (v, w)
    sn_real W[SNI_MX_ROW_BODIES][6]; // M_b^-1 J_b^T
    sn_real c, cdot, jdot, rhs, lam;
} sni_mx_row;

// a body's integrated state (RK4 stages and the copy restored on failure)
typedef struct sni_mx_y {
    sn_real x[3], q[4], v[3], w[3];
} sni_mx_y;

// a body's per-evaluation quantities
typedef struct sni_mx_bw {
    sn_real Iw[9], Iwinv[9]; // R I R^T and its inverse
    sn_real phi[6];          // m g + F + springs, tau - w x I_world w
    sn_real u[6];            // M^-1 phi (the unconstrained acceleration)
    sn_real acc[6];          // the constrained acceleration
} sni_mx_bw;

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
    sni_mx_row* row;   // this evaluation's rows (cap_row)
    int nact;          // of them in the solve
    sn_real* A;        // J M^-1 J^T (cap_row x cap_row) and its pivoted factor
    int* perm;         // the factor's pivot order (cap_row)
    sn_real* rhs;      // cap_row (permuted right-hand side)
    sni_mx_bw* bw;     // per body (cap_body)
    sni_maxc_body* sb; // the bodies' stage states (cap_body)
    sni_mx_y* y0;      // the state before the step (cap_body)
    sni_mx_y* ys;      // an RK4 stage (cap_body)
    sni_mx_y* ksum;    // RK4's weighted sum of derivatives (cap_body)
    int stab_user;     // 1: alpha, beta set by the user (else 1/(10 dt) each, following dt)
    int project;       // 1: post-stabilization after each step (sn_maximal_set_projection)
    int rank;          // the last solve's rank (rows kept by the pivoted factor)
    int* env;          // per row: its first column in J M^-1 J^T's profile (cap_row)
    int* adj;          // per body, its rows (row * 4 + slice), rows ascending (4 cap_row)
    int* adj_start;    // body b's rows: adj[adj_start[b] .. adj_start[b + 1]) (cap_body + 1)
    int* adj_cur;      // fill cursor (cap_body)
    int dense_only;    // 1: always the dense pivoted factor (tests compare the two)
    int used_dense;    // the last solve fell back to the dense pivoted factor
    // ---- the model it was made from (sn_maximal_from_model; NULL otherwise) ----
    const sn_model* model;
    int* link_body;            // per model body: its sn_maximal body (-1: the world / merged)
    sn_real* link_off;         // per model body: its link frame in the maximal body's frame (pos 3)
    int* joint_con;            // per model joint: its constraint (-1: none, a free joint)
    int map_nlink, map_njoint; // the sizes of link_body (link_off: 3 x), joint_con, for the free
                               // in sn_maximal_destroy (allocated with mx->al)
    // (from_model.c) q at creation: hinge angles are read within pi of it, quaternions with its
    // sign (so that q comes back as it was given); map_nq entries
    int map_nq;
    sn_real* joint_qref;
};

// from_model.c: frees the model map (link_body, link_off, joint_con, joint_qref); a NULL map is
// a no-op. sn_maximal_destroy calls it.
void sni_maxc_model_free(sn_maximal* mx);

// ---- shared between system.c, step.c, user.c and gear.c ----

// the message of a refusal into mx->err (printf-style); returns code
sn_status sni_mx_fail(sn_maximal* mx, sn_status code, const char* fmt, ...);
// the accelerations of all bodies at the stage states mx->sb (bw[].acc) and the multipliers
// (row[].lam; the reports: report() in step.c, into con[].lam_new/force_new/torque_new); no
// allocation. SN_ERR_SINGULAR (conflicting rows), SN_ERR_NONFINITE, SN_ERR_ARG (a callback failed),
// with mx->err set.
sn_status sni_mx_accel(sn_maximal* mx);
// the rows of all constraints at the stage states, c, J, J-dot x-dot and c-dot of each; mx->nact
// set. The rigid wires' rows by mode: 0 none, 1 the step's candidates (taut or c >= 0, not off),
// 2 all not clearly slack, 3 the violated ones (c > 0), 4 those marked proj
sn_status sni_mx_rows(sn_maximal* mx, int mode);
// a hinge's angle (rotation of b's frame in a's about axis 1; unwrapped to within pi of ref) or
// a slider's displacement (b's anchor from a's along a's axis 1), with its slices and J-dot x-dot
// (gear.c; docs/constraints.md "Gear")
sn_status sni_mx_coord(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                       sn_real ref, sn_real* q, sn_real* Ja, sn_real* Jb, sn_real* jdot);
// a user constraint's evaluation at the stage states (user.c): c, slices, jdot (rows each)
sn_status sni_mx_user_eval(sn_maximal* mx, const sni_mx_con* k, sn_real* c, sn_real* Ja,
                           sn_real* Jb, sn_real* jdot);
// the callback of a user constraint at states a, b (NULL: the world), nothing written but the
// outputs: 0, its own nonzero return, or -1000 when an output is not finite (user.c)
int sni_mx_user_call(const sn_user_constraint* uc, const sni_maxc_body* a, const sni_maxc_body* b,
                     sn_real* c, sn_real* Ja, sn_real* Jb, sn_real* jdot);
// the finite-difference check of a user constraint at the bodies' current states (user.c)
sn_status sni_mx_user_check(sn_maximal* mx, const sn_user_constraint* uc);
// the world-frame stage body of body i (NULL for -1: the world)
static inline const sni_maxc_body* sni_mx_sb(const sn_maximal* mx, int i) {
    return i < 0 ? NULL : &mx->sb[i];
}

#endif
