// SPDX-License-Identifier: Apache-2.0
// sim.h: the world and system structures (internal). Every array is allocated when a system is
// added; the step only reads and writes them.
#ifndef SNI_SIM_H
#define SNI_SIM_H

#include "base/base.h"
#include "dynamics/dyn.h"
#include "sinew/sn_world.h"
#include "solver/solver.h"

// SNI_CARVE(c, p, n): p gets room for n of its elements from the carver c (64-byte aligned). The
// measuring pass (c->base NULL) only counts and leaves p as it is, so a layout function runs on
// the live structure both to measure and, once the memory is there, to carve
#define SNI_CARVE(c, p, n) ((p) = sni_carve_keep((c), (n), sizeof *(p), (p)))
static inline void* sni_carve_keep(carver* c, size_t n, size_t size, void* old) {
    void* p = sni_carve(c, n, size);
    return c->base ? p : old;
}


// one contact between body `body` of system sa and body `body_b` of system sb (-1: the ground)
typedef struct sni_contact {
    int sa, geom, body;
    int sb, geom_b, body_b;
    sn_real pos[3];     // world contact point
    sn_real normal[3];  // world normal, from b towards a
    sn_real frame[9];   // rows t1, t2, n of the contact frame
    sn_real depth;      // penetration (negative: a gap within the margin)
    sn_real mu, e, eth; // the pair's material: friction, restitution, its threshold
    sn_real impulse[3]; // world impulse on a over the step (b receives its opposite)
    int slide;          // the solver's case: 0 open, 1 stick, 2 slide
} sni_contact;

struct sn_system {
    sn_world* world;
    const sn_model* m;
    sn_data* d;
    // ---- control inputs ----
    int mode;            // sn_control_mode
    int scheme;          // sn_scheme as set
    int scheme_used;     // after the replacement rules
    int has_contacted;   // set by the contact solver; reset by a state change
    int has_constraints; // loop or mimic constraints: RK4 is replaced
    int compute_id;      // inverse dynamics after each step
    int id_valid;        // joint wrenches of the last step are available
    int mor_enforced;
    int limits_off;     // joint limits are not solver rows
    int w_dirty;        // the implicit diagonal must be recomputed
    int dyn_valid;      // mass matrix / h / M^-1 valid bits: 1, 2, 4
    int kin_valid;      // d's kinematics (sn_fk, sn_fk_vel) match d->q, d->u
    sn_real w_dt;       // the time step w was computed for
    sn_real* kp;        // (nv)
    sn_real* kd;        // (nv)
    sn_real* q_ref;     // (nq)
    sn_real* u_ref;     // (nv)
    sn_real* tau_ff;    // (nv)
    sn_real* lim_lo;    // actuation limits (nv)
    sn_real* lim_hi;    // (nv)
    sn_real* damping;   // b_joint (nv)
    sn_real* spring_k;  // (nv)
    sn_real* spring_kq; // sum of k * rest (nv)
    sn_real* b_out;     // actuators' output damping per DOF (nv)
    sn_real* fric_out;  // actuators' output friction per DOF (nv)
    sn_real* ext;       // J^T F of the external forces of the next step (nv)
    sn_real* ext_body;  // the same as world forces at the origin per body (nbody x 6)
    sn_real* ext_last;  // J^T F of the last step (nv)
    sn_real* row_prev;  // the last step's impulse of each DOF's joint rows: limit, velocity
                        // limit, friction (3 x nv), for the warm start
    sn_real* pseudo; // this step's pseudo-velocity removing penetrations and limit excursions (nv)
    sn_real* gs_v;   // the velocity while the solver sweeps: u* + M~^-1 J^T lambda (nv)
    sn_real* gs_fix; // the same with the impulses of a subspace solve's unknowns taken out (nv)
    sni_factor mtilde; // the step's factor of M~ = M + diag(w) (nv x nv, nv): sni_step_factor
    sn_real* dinv;     // 1 / D of it (nv)
    int has_ext;
    // ---- step results and scratch ----
    sn_real* w;         // implicit diagonal (nv)
    sn_real* pos_err;   // q_ref - q of the last step (nv)
    sn_real* stage_err; // q_ref - q at an RK4 stage after the first (nv)
    sn_real* tau_cmd;   // (nv)
    sn_real* tau_act;   // (nv)
    sn_real* tau_exp;   // (nv)
    sn_real* du;        // u+ - u of the last step (nv)
    sn_real* q0;        // state at the start of the step (nq)
    sn_real* u0;        // (nv)
    sn_real* rk;        // RK4 scratch: 4 velocity and 4 acceleration stages (8 nv) + q (nq)
    sn_real* rk_tab;    // RK4 torque table: stage means of cmd, damping, actuators, springs (4 nv)
    sn_real* body_acc;  // accelerations of the last step, gravity included (nbody x 6)
    sn_real*
        id_body;     // subtree wrenches of the last step, moment about the origin first (nbody x 6)
    sn_real* id_pos; // body poses and velocities at the last step's start, for the fixed
    sn_real* id_rot; // joints' wrenches computed on demand (nbody x 3, x 9, x 6)
    sn_real* id_vel;
    // ---- contacts ----
    sn_real* geom_center; // bounding sphere of each geometry: centre in its body frame
    sn_real* geom_radius; // and radius (0: never collides)                    (ngeom x 3, ngeom)
    unsigned* body_group; // collision group bits per body (default 1)         (nbody)
    unsigned* body_mask;  // the groups each body collides with (default all)  (nbody)
    int* body_material;   // contact material id per body (default 0)            (nbody)
    int self_collision;   // contacts between the system's own bodies
    int index;            // position in the world's list
    int in_solver;        // this step's scheme lets the contact solver act
    int solve_mark;       // M~ factored for this step's solve
    // ---- loop constraints (src/sim/loops.c) ----
    sn_real* loop_anchor2; // body2's anchor in its link frame, fixed at attachment (nc x 3)
    sn_real* loop_rot2;    // orientation constraints: body2's link frame in body1's (nc x 9)
    sn_real* loop_axes;    // the directions each constraint keeps, in body1's frame (nc x 3 x 3)
    int* loop_naxis;       // and their number (nc)
    sn_real* loop_err;     // p1 - p2 at the start of the last step (nc x 3)
    sn_real* loop_imp;     // impulse on body1's anchor over the last step, world (nc x 3)
    sn_real* loop_J;       // the step's rows (3 nc x nv), and Z = L^-T J^T as rows (3 nc x nv)
    sn_real* loop_W;
    sn_real* loop_D;    // D = J M~^-1 J^T of the step's rows (nr x nr)
    sn_real* loop_L;    // its pivoted Cholesky factor: row perm[a]'s entries (nr x nr)
    sn_real* loop_diag; // the factorization's remaining diagonal (nr)
    int* loop_used;     // rows already pivoted (nr)
    // the structured factor (loops.c): rows in groups that share no DOF but a few shared ones
    int* loop_group; // group of each row (nr), rows ordered by group (nr), offsets (ng + 1)
    int* loop_cnt;   // per DOF: rows whose Z holds it, first such row, shared index (3 nv)
    sn_real* loop_P; // D^-1 U: every row's response to the shared DOFs (3 nc x SHARED_MAX)
    sn_real* loop_U; // the rows' half solves at the shared DOFs (3 nc x SNI_LOOP_SHARED_MAX)
    sn_real* loop_C; // the shared DOFs' Schur system, factored (SHARED_MAX^2)
    int loop_struct; // this step's D is factored by groups (1) or densely (0)
    int loop_ngroup, loop_nshared;
    int loop_dense_only;      // always the dense factor (for tests)
    int loop_project_general; // project through the whole factor (for tests)
    sn_real* loop_axis;       // each row's world axis in the last step (3 nc x 3)
    sn_real* loop_rhs;        // (3 nc)
    sn_real* loop_lam;
    sn_real* loop_tmp; // (3 (3 nc + nv))
    int* loop_path;    // a projected row's DOFs (nv)
    int* loop_same;    // per row: its nonzeros are last step's (3 nc)
    int* loop_keep;    // the rows kept (independent), in order
    int* loop_jn;      // nonzeros of each row of J (nr), then of each row of Z = L^-T J^T (nr)
    int* loop_idx;     // their DOFs: J rows (nr x nv), then Z rows (nr x nv)
    int loop_nrow, loop_nkeep;
    int loop_active; // this step eliminated the loops (the contact solver projects through them)
    int factored;    // M~ is factored for this step already
    int loop_g;      // gs_fix holds M~^-1 J_c^T lambda_c of the contact solver (for loops_finish)
    // ---- actuators ----
    int nact, act_cap;
    sn_actuator_desc* act;
    sn_real* act_cmd;             // (act_cap)
    sn_actuator_state* act_state; // (act_cap)
    size_t bytes;
};

#define SNI_LOOP_SHARED_MAX 32 // most shared DOFs of the loops' structured factor

struct sn_world {
    sn_allocator alloc;
    sn_log_fn log;
    void* log_ctx;
    sn_real dt;
    sn_real gravity[3];
    sn_real time;
    int nsys, sys_cap;
    sn_system** sys;
    int ground; // a ground plane z = ground_height
    sn_real ground_height;
    int hf_nx, hf_ny; // a heightfield (hf_nx 0: none)
    sn_real hf_x0, hf_y0, hf_dx, hf_dy, hf_zmax;
    sn_real* hf_z;    // (hf_nx * hf_ny)
    sn_real margin;   // contacts are reported below this gap
    sn_real loop_erp; // loop closure feedback: beta = clamp(0.2 loop_erp, 0, 0.3) / dt
    sn_real friction, restitution, restitution_threshold; // the default material pair
    sn_real pair_material[16][16][3]; // friction, restitution, threshold per pair of ids
    unsigned char pair_set[16][16];   // 1 when a pair was set
    // ---- the contacts of this step (collision), and their solver ----
    int ncontact, contact_cap, contact_overflow;
    sni_contact* contacts; // (contact_cap)
    sni_solver solver;     // the contact solver's settings and state (src/solver/)
    // ---- the broad phase: world boxes of the collision geometries, swept along x ----
    int nbp;                 // geometries that can touch another system or body
    int* bp_sys;             // (nbp) system and geometry of each
    int* bp_geom;            //
    int* bp_order;           // (nbp) by the boxes' lower x, kept from step to step (nearly sorted)
    sn_real* bp_box;         // (nbp x 6) lower corner, upper corner
    int npair_cap;           // room for the candidate pairs of a step
    int* bp_pair;            // (npair_cap x 2) entries of the candidate pairs
    int brute_force;         // test every pair instead (for tests)
    struct sni_tsink* tsink; // while a geometry meets a heightfield: its candidate contacts
    sn_model** owned;        // models the world made (free bodies), destroyed with it
    int nowned, owned_cap;
    // ---- the one block of the arrays above (contacts, broad phase, solver), made again when a
    // system is added ----
    void* arrays;
    size_t arrays_bytes;
    int nwarning;
    char last_warning[512];
    char last_error[512];
};

void sni_world_warn(sn_world* w, const char* fmt, ...);
// loops.c: body2's anchors from the current configuration; the step's elimination of the loop
// constraints after u* (factors M~, moves s->du onto the constraints); the projection of
// impulse responses Y (rows of nv) onto the constrained mechanism; the constraint impulses
void sni_loops_attach(sn_system* s);
sn_status sni_loops_begin(sn_system* s, sn_real dt);
void sni_loops_project(const sn_system* s, sn_real* Y, int nrows);
// the same on rows still in the half solve's state (z = L^-T j^T, before the rest of the solve),
// nonzero on the path of DOF last to the root (-2: anywhere)
void sni_loops_project_half(const sn_system* s, sn_real* Z, int nrows, int last);
void sni_loops_finish(sn_system* s, const sn_real* g);
// u's admissible part (the M~-orthogonal projection onto J u = 0) into out
void sni_loops_admissible(const sn_system* s, const sn_real* u, sn_real* out);
// the last step's constraint impulses as external forces on their bodies (for inverse dynamics)
void sni_loops_wrenches(sn_system* s, sn_real dt);
sn_status sni_world_fail(sn_world* w, sn_status code, const char* fmt, ...);

// control.c: steps 1-3 at the system's current d->q, d->u (kinematics computed)
void sni_compute_w(sn_system* s, sn_real dt);
void sni_stage_torque(sn_system* s, const sn_real* q, const sn_real* u, sn_real* err, sn_real* cmd,
                      sn_real* act, sn_real* exp, int record);
void sni_actuator_torques(sn_system* s, const sn_real* u, sn_real* tau_act, int record);
void sni_pd_error(const sn_system* s, const sn_real* q, sn_real* err);

// model_actuators.c: the model's declared actuators, added to a new system
sn_status sni_system_actuators_from_model(sn_system* s);

// collide.c
int sni_geom_max_contacts(int type);
void sni_collide_ground(sn_world* w, int si);
// the plane (unit normal n, points x with n.x = off) of the terrain under (x, y); 0 if there is
// none (no heightfield there and no ground)
int sni_terrain_plane(const sn_world* w, sn_real x, sn_real y, sn_real* n, sn_real* off);
void sni_collide_systems(sn_world* w);

// step.c
// the stage "factor M~": M~ = M + diag(w) at d's kinematics into s->mtilde (and s->dinv), once per
// step for the systems the loops or the contact solver use; the only place it is factored
sn_status sni_step_factor(sn_system* s);
void sni_step_wrenches(sn_system* s, sn_real dt);
void sni_system_invalidate(sn_system* s);
void sni_ensure_kinematics(sn_system* s);

#endif
