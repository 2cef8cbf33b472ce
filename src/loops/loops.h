// SPDX-License-Identifier: Apache-2.0
// loops.h: loop constraints of a system, eliminated exactly in every step (internal; seed 000,
// "Kinematic loops"; seed 001): pins, equality and orientation constraints and mimic joints as
// rows J of the step, their factorization D = J M~^-1 J^T, the projection of the contact solver's
// responses onto the constrained mechanism, and the reports (docs/loops.md).
#ifndef SNI_LOOPS_H
#define SNI_LOOPS_H

#include "sinew/sn_world.h"

#define SNI_LOOP_SHARED_MAX 32 // most shared DOFs of the loops' structured factor
// a pivot below this share of the largest diagonal of D (or of a cluster's S) is a redundant (or
// nearly so) row
#define SNI_LOOP_RANK_TOL 1e-6

// the loops' clusters (cluster.c): the bodies the loop constraints close, in sets that share no
// body and each hang from one body (its top); a cluster's rows act on its DOFs and, through the
// top's motion, above it. A step eliminates the loops by the articulated-body algorithm with each
// cluster one joint of many DOFs whose rows are solved with it (O(n), no M~), when every cluster
// is small and the system large enough (SNI_CLUSTER_NV_MIN); the contact solver's responses then
// come from the same solve
#define SNI_CLUSTER_DOF_MAX 24 // most DOFs of a cluster
#define SNI_CLUSTER_ROW_MAX 24 // most rows of a cluster
#define SNI_CLUSTER_NV_MIN 24  // the fewest DOFs of a system that takes the clusters by itself
typedef struct sni_loop_clusters {
    int usable; // the loops fall into clusters within the sizes (attachment)
    int mode;   // 0: by the system's size, 1: always where usable, -1: never (tests)
    int n;      // clusters
    long steps; // the steps that eliminated the loops this way (tests)
    // ---- the structure (attachment) ----
    int* body;   // per body its cluster, -1: none (nbody)
    int* con;    // per constraint its cluster, -1: none (nconstraint)
    int* mimic;  // per mimic joint's row, in the rows' order, its cluster (nr)
    int* top;    // per cluster the body it hangs from, 0: the world (nr)
    int* boff;   // per cluster its first body in bodies (nr + 1)
    int* bodies; // the clusters' bodies, each cluster's ascending (nbody)
    int* doff;   // per cluster its first DOF in dofs (nr + 1)
    int* dofs;   // the clusters' DOFs, each cluster's ascending (nv)
    int* moff;   // per cluster its n_K x n_K matrices' start in Ac (nr)
    int* uf;     // union-find over the bodies (attachment's scratch) (nbody)
    // ---- a step's rows by cluster ----
    int* roff;  // per cluster its first row in rows (nr + 1)
    int* rows;  // the rows, each cluster's in order (nr)
    int* rank;  // per cluster the rows its factor keeps (nr)
    int* perm;  // per cluster's rows: pivot order, local indices (nr)
    int* joff;  // per cluster its n_K x n_r matrix's start in R (nr)
    int* soff;  // per cluster its n_r x n_r factor's start in S (nr)
    sn_real* E; // per row the wrench it takes on its cluster's top per unit impulse (nr x 6)
    int* lever; // per cluster: some row's E is not 0 (a pin open by e) (nr)
    // ---- the factor (sni_loops_cluster_factor) ----
    sn_real* art; // articulated inertias, full 6x6; a cluster's bodies: composite within it
                  // (nbody x 36)
    sn_real* U;   // per DOF: IA S (outside clusters) or the composite's I S (nv x 6)
    sn_real* Dl;  // per joint outside clusters: Cholesky factor of D, stride 6 (njoint x 36)
    sn_real* Ac;  // per cluster: A^-1 - R J A^-1, the constrained inverse (CLUSTER_DOF_MAX nv)
    sn_real* R;   // per cluster: A^-1 J^T S^-1 (n_K x n_r) (CLUSTER_DOF_MAX nr)
    sn_real* S;   // per cluster: the pivoted factor of S = J A^-1 J^T (CLUSTER_ROW_MAX nr)
    sn_real* X;   // per cluster DOF: its response to the top's acceleration (nv x 6)
    sn_real* Lam; // per row: its impulse's response to the top's acceleration (nr x 6)
    // ---- a solve's scratch ----
    sn_real* p;   // bias forces; or the bodies' motions of sni_loops_cluster_dot (nbody x 6)
    sn_real* acc; // accelerations (nbody x 6)
    sn_real* uu;  // per DOF: its force less the subtree's (nv)
    sn_real* dg;  // the pivoted factor's scratch (nr)
    int* used;    // (nr)
} sni_loop_clusters;

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
    sn_real* at;   // where body1 takes each impulse at the step's start, world: a pin's body1
                   // anchor, else body2's (nc x 3; the rows' scratch, for the contact entries)
    // ---- this step's rows (nr = 3 nc + the mimic joints) ----
    int nrow, nkeep;
    int active;   // this step eliminated the loops (the contact solver projects through them)
    sn_real* J;   // the step's rows (nr x nv), zero outside their nonzeros
    sn_real* W;   // Z = L^-T J^T as rows (nr x nv), the same
    int* jn;      // the nonzeros of each row of J (nr)
    int* jidx;    // and their DOFs (nr x nv)
    int* zn;      // the nonzeros of each row of Z (nr)
    int* zidx;    // and their DOFs (nr x nv)
    int* same;    // per row: its nonzeros are last step's (nr)
    sn_real* rhs; // -beta e (nr)
    int* row_con; // each row's constraint, -1 for a mimic joint's (nr)
    // ---- the position correction's opening of the loops (issue 17, finding 5) ----
    // The contact solver's position correction moves the positions along the loops to first
    // order only; its second-order opening, fed back by the velocity (-beta e), would be kinetic
    // energy made from nothing. A step whose positions moved with it records the errors its
    // motion predicts to first order (pc_pred); the next step feeds back only those through the
    // velocity and closes the rest, the opening, through the positions (pc_u).
    int pc_pending;   // pc_pred holds the last step's prediction (state)
    int pc_any;       // pc_u is nonzero this step
    int pc_limit;     // this step's position correction moves a joint or tendon limit's row
    int pc_solved;    // the contact solver's position correction started from pc_u (so that
                      // the closure cannot push a body into the ground): its pseudo-velocity
                      // holds it
    sn_real* pc_pred; // the errors predicted at this step's start (nc x 3)
    sn_real* pc_rhs;  // per row: minus the opening along its axis (nr)
    sn_real* pc_u;    // the pseudo-velocity that closes the opening in this step (nv)
    sn_real* lam;     // the rows' impulses (nr)
    int* cols;        // a constraint's DOFs that move its anchors (nv)
    sn_real* colvec;  // and their relative motion per unit rate (3 x nv)
    int* mark;        // the DOFs a half solve has reached (nv; all 0 between rows)
    // ---- the solves ----
    sn_real* sol;  // the right sides and solutions of solves with D (nr x 3)
    sn_real* resp; // M~^-1 J^T x (nv)
    sn_real* zd;   // D_f^-1 z on a projected row's path (nv x 3)
    int* path;     // a projected row's DOFs (nv)
    // ---- the dense, pivoted factor of D ----
    sn_real* D;    // D = J M~^-1 J^T of the step's rows (nr x nr)
    sn_real* L;    // its pivoted Cholesky factor, row perm[a]'s entries (nr x nr); or the
                   // groups' blocks B_g one after another (structured)
    sn_real* diag; // the factorization's remaining diagonal (nr)
    int* used;     // rows already pivoted (nr)
    int* keep;     // the rows kept (independent), in order, the others after them (nr)
    // ---- the structured factor: rows in groups that share no DOF but a few shared ones ----
    int structured; // this step's D is factored by groups (1) or densely (0)
    int ngroup, nshared;
    int* cnt;       // per DOF: the rows whose Z holds it (nv)
    int* is_shared; // per DOF: held by so many rows that it is shared (nv)
    int* shared;    // the shared DOFs (nshared <= SNI_LOOP_SHARED_MAX)
    int* first_row; // per DOF: the first row through it, while the groups are made (nv)
    int* dof_group; // per DOF: the group of the rows through it (-1: shared, or none) (nv)
    int* uf;        // union-find over the rows (nr)
    int* gid;       // a union-find root's group (nr)
    int* order;     // the rows ordered by group (nr)
    int* off;       // each group's first entry in order (ngroup + 1)
    int* fill;      // the next slot per group while order is filled (nr)
    int* block_at;  // where each group's block starts in L (nr)
    sn_real* U;     // the rows' half solves at the shared DOFs (nr x SNI_LOOP_SHARED_MAX)
    sn_real* V;     // B^-1 U (nr x SNI_LOOP_SHARED_MAX)
    sn_real* P;     // D^-1 U: every row's response to the shared DOFs (nr x SHARED_MAX)
    sn_real* C;     // the shared DOFs' Schur system, factored (SHARED_MAX^2)
    int dense_only; // always the dense factor (for tests)
    // ---- the elimination's route (cluster.c) ----
    int route;            // this step: 0 through the factor of M~, 1 through the clusters
    int z_lists;          // zidx holds the lists of the last step's rows (a cluster step has none)
    sni_loop_clusters cl; // the clusters
    // ---- attachment ----
    sn_real* basis; // the rows kept so far, orthonormal (nr x nv)
    sn_real* rows3; // a constraint's rows (3 x nv)
    int max_poses;  // the structural test's poses: 0 the default (SNI_STRUCT_POSES), 1 the
                    // current configuration alone (for tests)
    int nposes;     // the poses the last examination used
    // ---- sn_system_assemble ----
    sn_real* save_q; // the state before, restored on failure (nq, nv)
    sn_real* save_u; //
    sn_real* next_q; // the next iterate's positions (nq)
    sn_real* next_u; // the admissible velocity at the result (nv)
} sni_loops;

// body2's anchors from the current configuration (the nominal one, when the system is added)
// (rows.c), and the directions each constraint keeps (structure.c)
void sni_loops_attach(sn_system* s);
// the step's elimination of the loop constraints after u*, through the step's factor of M~:
// rows, errors, D's factor, and s->step.u1 moved onto the constraints (factor.c)
sn_status sni_loops_begin(sn_system* s, sn_real dt);
// the projection of impulse responses Y (rows of nv) onto the constrained mechanism
void sni_loops_project(const sn_system* s, sn_real* Y, int nrows);
// the same on rows still in the half solve's state (z = L^-T j^T, before the rest of the solve),
// nonzero on the path of DOF last to the root (-2: anywhere)
void sni_loops_project_half(const sn_system* s, sn_real* Z, int nrows, int last);
// the step's constraint impulses, with g = M~^-1 J_c^T lambda_c of the contact solver (the
// clusters' route: J_c^T lambda_c; NULL: none)
void sni_loops_finish(sn_system* s, const sn_real* g);
// u's admissible part (the M~-orthogonal projection onto J u = 0) into out
void sni_loops_admissible(const sn_system* s, const sn_real* u, sn_real* out);
// the last step's constraint impulses as external forces on their bodies (for inverse dynamics)
void sni_loops_wrenches(sn_system* s, sn_real dt);

// constraint i against its links: 1 welded together (one body), 2 the one joint between them
// holds every direction it constrains by seed 001's lever-arm rule (*joint, nullable, names it),
// 0 neither; the same at every pose (model/placement.c)
int sni_constraint_held(const sn_model* m, int i, int* joint);

// ---- within the module ----
// rows.c: constraint c's world anchors p1 (on body1) and p2 (on body2), body1's link rotation R1
void sni_loops_anchors(const sn_system* s, int c, sn_real* p1, sn_real* p2, sn_real* R1);
// an orientation constraint's error: the rotation vector of R1 Q R2^T (world axes)
void sni_loops_orient_error(const sn_system* s, int c, sn_real* e);
// the anchors and R1 as sni_loops_anchors, and constraint c's error vector dp: p1 - p2, or an
// orientation's rotation vector
void sni_loops_error(const sn_system* s, int c, sn_real* p1, sn_real* p2, sn_real* R1, sn_real* dp);
// the directions constraint c names, in world axes, into a (their number)
int sni_loops_named_axes(const sn_model* m, int c, const sn_real* R1, sn_real (*a)[3]);
// the directions of constraint c the step's rows hold (the named ones less those structurally
// redundant, found at attachment), in world axes, into a (their number, sn_system_constraint_
// directions')
int sni_loops_kept_axes(const sn_system* s, int c, const sn_real* R1, sn_real (*a)[3]);
// the relative motions of constraint c's anchors (an orientation's: of its links) per unit rate
// of each DOF that moves them: DOFs into cols (nv), 3-vectors into vec (3 x nv); their number
int sni_loops_columns(const sn_system* s, int c, const sn_real* p1, const sn_real* p2, int* cols,
                      sn_real* vec);
// structure.c: the directions each constraint keeps, examined at the current configuration and
// at a few others near it on the loops (those of sni_loops_attach; warned once)
void sni_loops_structure(sn_system* s);
// this step's rows J at the configuration, their errors and -beta e, and Z = L^-T J^T
void sni_loops_rows(sn_system* s, sn_real beta);
// cluster.c: the clusters of the system's loops (at attachment, after the structure)
void sni_loops_clusters(sn_system* s);
// whether this step eliminates the loops by clusters (every cluster within the sizes, the system
// large enough or cl.mode 1, no world constraint and no midpoint gyroscopic couple on it)
int sni_loops_cluster_route(const sn_world* w, const sn_system* s);
// the articulated factor with the clusters at this configuration, for the rows of this step
// (sni_loops_rows with route 1): SN_ERR_SINGULAR when a block is not positive definite
sn_status sni_loops_cluster_factor(sn_system* s);
// solve M~ x = f + J^T lam, J x = r (f, r nullable: zero) by the factor, the rows a cluster
// leaves out with lam 0; x (nv) and lam (nrow)
void sni_loops_cluster_solve(const sn_system* s, const sn_real* f, const sn_real* r, sn_real* x,
                             sn_real* lam);
// out = J v for every row (nrow): the rows hold their clusters' DOFs, the rest through E
void sni_loops_cluster_dot(const sn_system* s, const sn_real* v, sn_real* out);
// out = J^T lam (nv), the same rows
void sni_loops_cluster_jt(const sn_system* s, const sn_real* lam, sn_real* out);
// factor.c: the elimination with feedback beta (sni_loops_begin's, or the assembly's): D
// factored, lambda_0 = D^-1 (-beta e - J u1), u1 += M~^-1 J^T lambda_0
sn_status sni_loops_eliminate(sn_system* s, sn_real beta);
// the loops' errors at the next step's start predicted to first order from this step's rows for
// the positions' velocity ubar (pc_pred, pc_pending set): called when a position correction
// moved the positions (factor.c)
void sni_loops_predict(sn_system* s, const sn_real* ubar, sn_real dt);

#endif
