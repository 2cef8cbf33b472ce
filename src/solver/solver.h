// SPDX-License-Identifier: Apache-2.0
// solver.h: the contact solver of seed 000's step 4 (internal): the impulses of contacts, joint
// limits and joint friction of every system of a world at once, by per-block Gauss-Seidel
// (shared/spec/algorithms.md, Part B). The solver owns its state in one struct, kept in the world
// (w->solver); its arrays are laid out by the world's carver when a system is added.
//
// A step's solve runs in phases (solver.c drives them):
//   gather           the blocks of this step: contacts, then each system's limit and friction rows
//   prepare rows     each block's rows J, its own Delassus block G and Y = M~^-1 J^T (rows.c)
//   conflicts        one-sided joint rows that the loops set against each other: the later
//                    ones left out (conflict.c)
//   restitution      the contacts with restitution followed through the step as impacts in time
//                    order, where their gaps close: the normal velocity a bounce leaves becomes
//                    its row's target (with the other rows' impulses first solved without them,
//                    when there are other rows) (bounce.c)
//   warm start       impulses from the last step's, a bounce's from its impacts (sweep.c, bounce.c)
//   sweeps           Gauss-Seidel over the blocks, in velocity form or in Delassus form, with the
//                    subspace step when the rows settle slowly (sweep.c, subspace.c)
//   store impulses   u+, the joint rows' impulses for the next warm start, the contacts' world
//                    impulses (solver.c)
//   position correction  pseudo-velocities that remove penetrations and limit excursions (sweep.c),
//                    and move a bounce's positions as its impact time says (bounce.c)
// A contact is a 3-row block solved exactly on its Coulomb cone (local.c); a joint row is a 1-row
// block. Every impulse acts through M~^-1 = (M + diag w)^-1, the step's factor of it.
#ifndef SNI_SOLVER_H
#define SNI_SOLVER_H

#include "base/base.h"
#include "sinew/sn_world.h"

#define SNI_SM_MAX 96       // most unknowns of the solver's subspace step
#define SNI_DELASSUS_MAX 24 // most blocks of the sweeps in Delassus form

typedef struct sni_contact sni_contact; // sim/sim.h

// the solver's state in each system (s->solve)
typedef struct sni_solver_sys {
    int in_solver;       // this step's scheme lets the contact solver act
    int active;          // a block of this step's solve acts on the system
    sn_real* v;          // the velocity while the solver sweeps: u* + M~^-1 J^T lambda (nv)
    sn_real* v_fix;      // the same with the impulses of a subspace solve's unknowns taken out (nv)
    sn_real* row_prev;   // the last step's impulse of each DOF's joint rows: limit, velocity limit,
                         // friction (3 x nv), for the warm start
    sn_real* pseudo;     // this step's pseudo-velocity removing penetrations and limit excursions,
                         // for step 6 (nv)
    sn_real* loop_dv;    // M~^-1 J_c^T lambda_c of this step, for the loops' impulses (nv)
    int has_loop_dv;     // loop_dv was made this step
    int conflict_warned; // a conflict of one-sided rows through the loops was warned about
} sni_solver_sys;

// the sizes the solver's arrays are made for: every system of the world
typedef struct sni_solver_size {
    int block_cap;   // blocks: room for every contact and two rows per 1-DOF joint
    int contact_cap; // contacts remembered for the warm start
    int nvmax;       // the largest system's nv
} sni_solver_size;

typedef struct sni_solver {
    // ---- settings (sn_world_set_solver, sn_world_set_erp, sn_world_set_warm_start) ----
    int max_iter;    // sweeps per step at most
    sn_real tol;     // done when no impulse, or no row's velocity, moves by more than this
    sn_real erp;     // share of a penetration or limit excursion removed per step
    int warm_start;  // start from the last step's impulses
    int no_delassus; // tests: sweep in velocity form only
    int pc_dense;    // tests: the position correction in Delassus form whatever it costs
    // ---- statistics ----
    int iterations;       // sweeps of the last step
    long dl_steps;        // steps swept in Delassus form
    long pc_exact_solves; // position corrections solved exactly (sweep.c's pc_exact)
    // ---- sizes (the world's carver lays the arrays out for them) ----
    sni_solver_size size;
    // ---- this solve's view of the world (set by sni_world_contact_solve) ----
    sn_system** sys;
    int nsys;
    sni_contact* contacts;
    int ncontact;
    sn_real dt;
    struct sni_couple* couple; // the world's constraints between systems (couple/couple.h)
    // ---- the blocks of this step (gather, prepare rows) ----
    // A block touches one system (a joint's limit or friction, a ground contact) or two (a
    // contact between two systems). Its rows are J_a (dim x nv of system a) and J_b (system b),
    // with Y = M~^-1 J^T kept per side; the coupling of two blocks sums over the systems they
    // share.
    int nblock;
    int* blk_kind;       // sn_row_kind (SN_ROW_CONTACT .. SN_ROW_FRICTION)     (block_cap)
    int* blk_index;      // the contact (in the world's list) or the joint
    int* blk_dim;        // rows: 3 for a contact, 1 for a joint row
    int* blk_sa;         // the systems a block touches (sb -1: one)
    int* blk_sb;         //
    int* blk_la;         // the last DOF of the path a block's rows act on, per side (-1: none,
    int* blk_lb;         // -2: every DOF)
    int* blk_plen;       // the DOFs a contact's rows act on, per side: their number (block_cap x 2)
    int* blk_path;       // and the list                              (block_cap x 2 x nvmax)
    sn_real* blk_Ja;     // rows on system a                          (block_cap x 3 x nvmax)
    sn_real* blk_Jb;     // rows on system b
    sn_real* blk_Ya;     // Y = M~^-1 J^T on each side (a row's velocity change per unit impulse)
    sn_real* blk_Yb;     //
    sn_real* blk_G;      // each block's own Delassus block J M~^-1 J^T   (block_cap x 9)
    sn_real* blk_target; // the rows' target velocities                 (block_cap x 3)
    sn_real* point_jac;  // a point Jacobian while the rows are made      (3 x nvmax)
    // ---- the sweeps ----
    sn_real* blk_lambda; // the rows' impulses                          (block_cap x 3)
    sn_real* blk_c;      // the rows' velocities at the end of the last sweep (block_cap x 3)
    // ---- the sweeps in Delassus form ----
    sn_real* dl_G;    // the sweeps' couplings in Delassus form (DELASSUS_MAX^2 x 9)
    sn_real* dl_c0;   // the rows' velocities at zero impulse (DELASSUS_MAX x 3)
    sn_real* dl_sync; // the impulses the sweep velocities hold (DELASSUS_MAX x 3)
    // ---- the subspace step: the active rows solved as one linear system ----
    sn_real* sm_A;          // (SNI_SM_MAX x SNI_SM_MAX)
    sn_real* sm_LU;         // its factor, with the ridge (SNI_SM_MAX x SNI_SM_MAX)
    sn_real* sm_r;          // residual (SNI_SM_MAX)
    sn_real* sm_b;          // right side (SNI_SM_MAX)
    sn_real* sm_x;          // unknowns (SNI_SM_MAX)
    int* sm_blk;            // the block and row of each unknown (row 3: a sliding contact's
    int* sm_row;            // normal) (SNI_SM_MAX)
    int* sm_piv;            // the LU's pivots (SNI_SM_MAX)
    sn_real* sm_A0;         // the first try's matrix, reused by the retries (a submatrix of it)
    int *sm_blk0, *sm_row0; // the first try's unknowns (SNI_SM_MAX)
    int* sm_map;            // a retry's unknowns among them (SNI_SM_MAX)
    int sm_n0;              // the first try's number of unknowns
    int* sm_frozen;   // per block: 1 held at its impulse, 2 a joint row held at sm_fval (block_cap)
    sn_real* sm_fval; // (block_cap)
    // ---- the position correction ----
    sn_real* pc_target;  // each block's position row's target velocity (block_cap)
    sn_real* pc_impulse; // and its pseudo-impulse (block_cap)
    sn_real* pc_c;       // its row's pseudo-velocity at the last sweep's visit (block_cap)
    int* pc_rows;        // its rows' blocks in Delassus form (3 x DELASSUS_MAX), their
    sn_real* pc_p;       // impulses (3 x DELASSUS_MAX); their couplings, velocities at zero
                         // impulse and the impulses the pseudo-velocities hold are in dl_G,
                         // dl_c0 and dl_sync, free once the sweeps are done
    // ---- the restitution phase: the bounce set (contacts with e > 0) through the step ----
    int bn_count;      // candidates this step
    int* bn_list;      // their blocks                                     (block_cap)
    int* bn_set;       // the blocks of one impact                         (block_cap)
    int* bn_state;     // per block: SNI_BOUNCE_*                          (block_cap)
    int* bn_past;      // 1: found penetrating, its impact in the last step (block_cap)
    sn_real* bn_gap;   // the normal row's gap at the current event time   (block_cap)
    sn_real* bn_jv;    // J_n v at the sweep velocities                    (block_cap)
    sn_real* bn_base;  // the row's speed V(t) = J_n v + base + acc t      (block_cap)
    sn_real* bn_acc;   //                                                  (block_cap)
    sn_real* bn_entry; // the time the impact of a row is dated (earlier when found penetrating)
    sn_real* bn_ev;    // the impulse of the current impact                (block_cap)
    sn_real* bn_tgt;   // and its target speed                             (block_cap)
    sn_real* bn_lam;   // the impulse of every impact                      (block_cap)
    sn_real* bn_ltime; // sum of impulse x time of the impacts             (block_cap)
    // ---- the warm start ----
    sni_contact* previous; // the last step's contacts (contact_cap)
    int nprevious;
} sni_solver;

// a block's part in the restitution phase (bn_state)
enum {
    SNI_BOUNCE_NONE = 0,    // not a contact with restitution
    SNI_BOUNCE_FREE = 1,    // no impact yet this step
    SNI_BOUNCE_BOUNCED = 2, // bounced and stays apart for the rest of the step
    SNI_BOUNCE_SETTLED = 3, // an impact without bounce (or too slow to leave): a plain contact
};

// a joint row's slot in its system's row_prev (the warm start of joint rows): 0 position limit,
// 1 velocity limit, 2 friction
static inline int sni_solver_row_slot(int kind) {
    return kind == SN_ROW_LIMIT_LOWER || kind == SN_ROW_LIMIT_UPPER ? 0
           : kind == SN_ROW_FRICTION                                ? 2
                                                                    : 1;
}

// a joint's row (J = e_v of its DOF): a position or velocity limit, friction
static inline int sni_solver_joint_row(int kind) {
    return kind >= SN_ROW_LIMIT_LOWER && kind <= SN_ROW_FRICTION;
}

// ---- tendon.c: a limited tendon's one-sided row (1 x nv, its Jacobian) ----
// the tendon rows of system si (gather): a block per limited tendon outside its range
void sni_solver_tendon_gather(sni_solver* sv, int si);
// 1 when a tendon of s is outside its range (a row this step)
int sni_solver_tendon_acts(const sn_system* s);
// block k's row: the tendon's Jacobian (sign: the length), every DOF; target 0
void sni_solver_tendon_rows(sni_solver* sv, int k);
// erp of the tendon's excursion past its limit, per step (the position correction's target)
sn_real sni_solver_tendon_excursion(const sni_solver* sv, int k);

// ---- solver.c: settings, memory, the phase driver, reports ----
// the default settings
void sni_solver_init(sni_solver* sv);
// the solver's arrays from the carver for sizes z (a measuring pass leaves sv's pointers as they
// are: see SNI_CARVE in sim/sim.h)
void sni_solver_layout(sni_solver* sv, const sni_solver_size* z, carver* c);
// forget the warm-start history (a state was set)
void sni_solver_forget(sni_solver* sv);
// the step's impulses of every system in the solver: each system's u* (s->step.u1) becomes its u+.
// The step has factored the M~ of every system sni_solver_acts_on names
void sni_world_contact_solve(sn_world* w, sn_real dt);

// ---- rows.c: gather, prepare rows ----
void sni_solver_gather(sni_solver* sv);
// 1 when this step's solve will act on system s (a contact or a joint row of it will be a block),
// before the loops' elimination (the answer for a system with loops: its velocity limits are
// checked after it)
int sni_solver_acts_on(const sn_world* w, const sn_system* s);
void sni_solver_prepare_rows(sni_solver* sv);

// ---- bounce.c: restitution where the surfaces meet ----
// the bounce set: the contacts with restitution whose normal row can act; their number
int sni_solver_bounce_count(sni_solver* sv);
// their impacts through the step from the sweep velocities (u*, or u* with the impulses of the
// other rows): the targets of the rows that bounce; leaves the sweep velocities at u*
void sni_solver_restitution(sni_solver* sv);
// after the warm start: a bounced row's normal impulse from its impacts
void sni_solver_bounce_warm_start(sni_solver* sv);
// after the position correction: the pseudo-velocity that puts a bounce's positions where its
// impact time says
void sni_solver_bounce_shift(sni_solver* sv);

// ---- conflict.c: one-sided joint rows the loops set against each other ----
// after prepare rows: a row that depends on the one-sided rows before it with coefficients that
// let their allowed impulses cancel is left out (no impulse, no position correction), warned
// once per system
void sni_solver_conflicts(sni_solver* sv);

// ---- sweep.c: warm start, the sweeps, the position correction ----
void sni_solver_warm_start(sni_solver* sv);
void sni_solver_sweeps(sni_solver* sv);
void sni_solver_position_correction(sni_solver* sv);
// the velocity of block x's rows at the systems' sweep velocities: J_a v_a + J_b v_b (3)
void sni_solver_row_velocity(const sni_solver* sv, int x, sn_real* c);
// C = J_a Y_b^T (dim_a x dim_b, in a 3 x 3 array): block a's rows times block b's columns of
// M~^-1 J^T, over the systems they share
void sni_solver_coupling(const sni_solver* sv, int a, int b, sn_real* C);
// the impulse x of joint row k clipped to what the row allows
sn_real sni_solver_joint_clamp(const sni_solver* sv, int k, sn_real x);

// ---- subspace.c: the subspace step (1 when its impulses are the sweeps' state now) ----
int sni_solver_subspace_step(sni_solver* sv);

// ---- local.c: the exact single-contact solve ----
// G (3x3, rows t1 t2 n), c (3), mu: the impulse of one contact; returns the case (0 open,
// 1 stick, 2 slide)
int sni_contact_local(const sn_real* G, const sn_real* c, sn_real mu, sn_real* lam);

#endif
