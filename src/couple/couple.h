// SPDX-License-Identifier: Apache-2.0
// couple.h: constraints between the systems of a world (internal; seed 003 "constraints between
// different objects", issue 14; docs/constraints.md "Constraints between systems").
// A world constraint joins a link of one system to a link of another (or the world) through the
// built-in kernel sni_maxc_eval (src/maxc/constraints.h), each side's "body" being its link frame
// (x the link origin, R, v the origin's velocity, w). Its rows on a system's DOFs are the kernel's
// 6-column slices times the link origin's point Jacobian and the link's angular Jacobian.
// The contact solver eliminates the rows of every world constraint together, EXACTLY: a dense
// factor of their Delassus matrix G = sum over sides J M~^-1 J^T (each side's response projected
// through its system's own loops) with an active set for one-sided wire rows, as the last update
// of every Gauss-Seidel sweep (and of the position correction's): whatever the iteration limit,
// J v+ = target to rounding. Files: api.c (the API, the storage, sn_world_add_maximal), rows.c
// (the rows of a step, their responses and G, the reports), solve.c (the exact solve).
#ifndef SNI_COUPLE_COUPLE_H
#define SNI_COUPLE_COUPLE_H

#include "base/base.h"
#include "maxc/constraints.h"
#include "sinew/sn_maximal.h"

typedef struct sni_solver sni_solver;

// the largest length and anchor component (m) sn_world_add_constraint accepts: beyond it the
// rows' targets and second-order terms overflow (a rod of 1e300 m: every step non-finite)
#define SNI_COUPLE_SIZE_MAX 1e6

// one world constraint
typedef struct sni_couple_con {
    sn_constraint_desc d;              // as given (defaults filled: identity frames); set-up
    sni_maxc_con k;                    // the kernel's description (a wire: its DISTANCE row)
    int sa, sb;                        // the systems' indices in the world (sb -1: the world)
    int ba, bb;                        // their bodies (model body indices; bb -1: the world)
    int nrow;                          // rows (a wire 1)
    int row0;                          // its first row among all world constraints' rows
    int wire;                          // 1 rigid wire, 2 compliant wire, 0 bilateral
    sn_real lambda[SNI_MAXC_ROWS_MAX]; // the last step's impulses (state: the warm start; report)
    int taut;                          // a wire's row acted in the last step (report)
    int acted;                         // the constraint was in the last step's solve (report)
    sn_real Ka[6 * SNI_MAXC_ROWS_MAX]; // the kernel's slices on a and b in this step (scratch)
    sn_real Kb[6 * SNI_MAXC_ROWS_MAX]; //
    sn_real wrench[6];   // the last step's force and torque on a about its link origin (report)
    sn_real wrench_b[6]; // and on b about its link origin (report, for inverse dynamics)
} sni_couple_con;

// row kinds of the exact solve
enum {
    SNI_COUPLE_ROW_OFF = 0,  // not in this step's solve (a slack wire far from its length)
    SNI_COUPLE_ROW_EQ = 1,   // bilateral: J v = target
    SNI_COUPLE_ROW_WIRE = 2, // one-sided: J v (+ eps lambda) <= target, lambda <= 0 (tension)
};

// a world's constraints and the workspace of their exact solve
typedef struct sni_couple {
    int ncon, cap;
    sni_couple_con* con;
    int nrow;   // rows of all constraints
    int nvmax;  // the largest nv of a constrained system
    int acting; // this step's solve has world constraint rows
    int shared; // and they share a system with a block of the contact solver: their exact
                // update then joins the sweeps' convergence test and the sweeps run in velocity
                // form; otherwise they are an island of their own, solved without touching the
                // sweeps (a system nothing couples steps bit for bit as without them)
    // ---- the workspace (made when a constraint is added; never in a step) ----
    void* ws;
    size_t ws_bytes;
    size_t* roff;    // each row's J_a, J_b, Y_a, Y_b in rowbuf (nrow + 1)
    sn_real* rowbuf; // per row: J_a (nv_a), J_b (nv_b), Y_a (nv_a), Y_b (nv_b)
    sn_real* G;      // J M~^-1 J^T of all rows (nrow x nrow)
    sn_real* L;      // the factor of the active rows' block (nrow x nrow)
    sn_real* target; // the rows' target velocities (nrow)
    sn_real* eps;    // a compliant row's compliance on G's diagonal (nrow)
    sn_real* lam;    // the rows' impulses in this solve (nrow)
    sn_real* plam;   // the position correction's pseudo-impulses (nrow)
    sn_real* r0;     // the rows' velocities without the rows' own impulses (nrow)
    sn_real* x;      // a solve's impulses (nrow)
    int* kind;       // SNI_COUPLE_ROW_* (nrow)
    int* act;        // 1: in the active set (nrow)
    int* drop;       // 1: the factor left the row out (dependent on the rows before it) (nrow)
    int* idx;        // the active rows, in order (nrow)
    int* fidx;       // the rows L factors (nrow), their number, and whether with compliance:
    int fna, feps;   // a solve on the same rows reuses the factor (fna -1: none this step)
    sn_real* cdd;    // each row's acceleration at constant velocities in its target (nrow)
    int nuoff;       // the constrained systems' velocities saved while the targets are refined:
    size_t* uoff;    // per system index (nuoff; SIZE_MAX: not constrained) its place in usave
    sn_real* usave;  //
    sn_real* jp;     // a point Jacobian and an angular Jacobian (3 x nvmax each)
    sn_real* jr;     //
} sni_couple;

// ---- api.c ----
void sni_couple_free(const sn_allocator* al, sni_couple* c);
// 1 when a bilateral world constraint that fixes the relative position of two bodies (BALL,
// HINGE, SLIDER, WELD) joins body ba of system sa and body bb of system sb (either order): the
// collision's pair filter leaves their contacts out (they would fight the constraint's rows).
// DISTANCE, WIRE, PLANE and LINE leave relative motion: their bodies still collide.
int sni_couple_joins(const sn_world* w, int sa, int ba, int sb, int bb);
// whether sn_world_add_constraint would take d, on what does not depend on its systems (the
// world's contact model, the kind, anchors, frames, length, a wire's stiffness and damping):
// SN_OK, or its refusal with the message (sn_world_add_maximal checks before it adds a body)
sn_status sni_couple_check_desc(sn_world* w, const sn_constraint_desc* d);

// ---- rows.c ----
// 1 when world constraints act on system s this step (both their systems in the solver)
int sni_couple_acts_on(const sn_world* w, const sn_system* s);
// solver.c's begin: whether the world constraints act in this solve (sv->couple->acting); the
// systems they join become active in the solve (mark)
int sni_couple_begin(sni_solver* sv);
void sni_couple_mark(sni_solver* sv);
// after prepare rows: each row's J, Y = M~^-1 J^T (through its system's loops), G and target
void sni_couple_prepare(sni_solver* sv);
// M~^-1 J^T lambda of the rows on system si into dv (unsolved: adds J^T lambda; the caller solves)
void sni_couple_add_jt_lambda(const sni_solver* sv, int si, sn_real* dv);
// the impulses kept for the next step's warm start and the reports
void sni_couple_store(sni_solver* sv);
// a state was set on system s: the world constraints that join it forget their warm start
void sni_couple_forget(sn_system* s);
// whether a world constraint joins system s (RUNGE_KUTTA_4 is then replaced, as with loops)
int sni_couple_touches(const sn_world* w, const sn_system* s);
// after a step that failed with a non-finite state: the first world constraint whose impulses
// in it are not finite, described into msg (n bytes, e.g. "world constraint 0 (DISTANCE between
// system 0 body 1 and the world)"); 0 and msg "" when none. Every constraint's warm start and
// reports are zeroed where they are not finite (the next step starts them afresh)
int sni_couple_blame(sn_world* w, char* msg, size_t n);
// whether world constraints acted in this step's solve
int sni_couple_acting(const sn_world* w);
// the last step's constraint forces on system s's links as external forces (s->ctl.ext_body:
// moment about the world origin, then force), for its inverse dynamics
void sni_couple_wrenches(sn_system* s);
// the kernel's body of system s's link b at its kinematics, and (jp, jr non-NULL) the origin's
// point Jacobian and the link's angular Jacobian (3 x nv each)
void sni_couple_side(const sn_system* s, int b, sni_maxc_body* kb, sn_real* jp, sn_real* jr);

// after the sweeps: each row's second-order term taken again at the sweep velocities (u+
// instead of the step's start u) and the targets moved by the change; 1 when the rows acted
int sni_couple_refine(sni_solver* sv);

// ---- solve.c ----
// the warm start: lambda from the last step's, pushed into the sweep velocities
void sni_couple_warm_start(sni_solver* sv);
// the exact update of the rows at the sweep velocities (pseudo: of the position correction's
// pseudo-velocities, target 0 on the rows that acted); the largest impulse change when the rows
// share a system with the sweeps' blocks (0 otherwise: the sweeps need not wait for them)
sn_real sni_couple_exact(sni_solver* sv, int pseudo);

#endif
