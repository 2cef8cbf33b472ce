// SPDX-License-Identifier: Apache-2.0
// sim.h: the world and system structures (internal). A system is made of named parts, each
// declared by its module's header: control and actuators (sim/control.h), the step (below), the
// contact solver's per-system state (solver/solver.h), loop constraints (loops/loops.h), inverse
// dynamics (below). Every array is allocated when a system is added; the step only reads and
// writes them. What a system's cached results match is one bit set (SNI_VALID_*).
#ifndef SNI_SIM_H
#define SNI_SIM_H

#include "base/base.h"
#include "collision/collide.h"
#include "dynamics/dyn.h"
#include "loops/loops.h"
#include "sensor/sensor.h"
#include "sim/control.h"
#include "sinew/sn_world.h"
#include "solver/solver.h"
#include "tendon/tendon.h"

// SNI_CARVE(c, p, n): p gets room for n of its elements from the carver c (64-byte aligned). The
// measuring pass (c->base NULL) only counts and leaves p as it is, so a layout function runs on
// the live structure both to measure and, once the memory is there, to carve
#define SNI_CARVE(c, p, n) ((p) = sni_carve_keep((c), (n), sizeof *(p), (p)))
static inline void* sni_carve_keep(carver* c, size_t n, size_t size, void* old) {
    void* p = sni_carve(c, n, size);
    return c->base ? p : old;
}


// a world's and a system's soft contacts (soft/soft.h)
typedef struct sni_soft_world sni_soft_world;
typedef struct sni_soft sni_soft;


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

// what a system's cached results match (s->valid): set by whoever computes them, cleared by
// sni_system_invalidate
enum {
    SNI_VALID_KIN = 1,      // d's kinematics (sn_fk, sn_fk_vel) match d->q, d->u
    SNI_VALID_MASS = 2,     // d->mass_matrix (sn_system_mass_matrix)
    SNI_VALID_BIAS = 4,     // d->nonlinear (sn_system_nonlinear)
    SNI_VALID_MINV = 8,     // d->inverse_mass (sn_system_inverse_mass)
    SNI_VALID_W = 16,       // ctl.w, for the time step ctl.w_dt
    SNI_VALID_MTILDE = 32,  // step.mtilde: M~ factored at this step's start (sni_step_factor)
    SNI_VALID_ID = 64,      // id: the joint wrenches of the last step
    SNI_VALID_SENSOR = 128, // sens: the sensors' values of the last step (sensor/eval.c)
    // what a new state (set, or made by a step) leaves out of date
    SNI_VALID_STATE =
        SNI_VALID_KIN | SNI_VALID_MASS | SNI_VALID_BIAS | SNI_VALID_MINV | SNI_VALID_MTILDE,
};

// a system's step (step.c): the scheme, the state at the step's start, the step's velocity and
// torques, the scratch of its stages and the factor of M~
typedef struct sni_step {
    int scheme;          // sn_scheme as set
    int scheme_used;     // after the replacement rules
    int has_constraints; // loop or mimic constraints: RK4 is replaced
    // ---- the state at the step's start, the new one ----
    sn_real* q0;    // (nq)
    sn_real* u0;    // (nv)
    sn_real* u1;    // u* after the free velocity, u+ after the contact solve (nv)
    sn_real* ubar;  // the velocity the positions move with in step 6 (nv)
    sn_real* u_adm; // u0's admissible part (loops, TRAPEZOID and EULER) (nv)
    sn_real* q1;    // q+ until the commit (nq)
    sn_real* du;    // u+ - u of the last step (nv)
    // ---- torques (steps 1-3) ----
    sn_real* pos_err;   // q_ref - q of the last step (nv)
    sn_real* stage_err; // q_ref - q at an RK4 stage after the first (nv)
    sn_real* tau_cmd;   // (nv)
    sn_real* tau_act;   // (nv)
    sn_real* tau_exp;   // (nv)
    sn_real* ext_last;  // J^T F of the last step (nv)
    // ---- RUNGE_KUTTA_4 ----
    sn_real* rk_acc[4]; // the four stages' accelerations (nv each)
    sn_real* rk_vel[3]; // the velocities of stages 2, 3, 4 (nv each)
    sn_real* rk_q;      // a stage's positions (nq)
    sn_real* rk_u0;     // the start velocity with the impact share of the solver's change (nv)
    sn_real* rk_dc;     // the rest of the change / dt, a constant stage acceleration (nv)
    sn_real* rk_tan[4]; // the stages' velocities in the tangent space of q0 (nv each)
    sn_real* tab_cmd;   // the torque table: the stages' weighted means of tau_cmd, damping,
    sn_real* tab_damp;  // actuators and springs (nv each)
    sn_real* tab_act;   //
    sn_real* tab_spring;
    // ---- the factor of M~ (stage "factor M~", SNI_VALID_MTILDE) ----
    sni_factor mtilde; // M~ = M + diag(w) (nv x nv, nv)
    sn_real* dinv;     // 1 / D of it (nv)
} sni_step;

// the gyroscopic couple of the bodies on spherical and floating joints (gyro.c): the option, the
// explicit couple's warning, and the midpoint couple's scratch. k = nbody bodies, each with its
// centre o (a spherical joint's anchor, a floating body's centre of mass)
typedef struct sni_gyro {
    int mode;         // sn_gyroscopic
    int nbody;        // k: the bodies on spherical or floating joints
    int* body;        // (k)
    int ready;        // principal axes and coefficients computed (the first step)
    int warned;       // the explicit couple's warning was given
    int applied;      // the last step's free velocity took the midpoint couple
    int newton;       // Newton iterations of the last step's midpoint momentum
    sn_real* axes;    // principal axes of the inertia about o, body frame, columns (k x 9)
    sn_real* coef;    // the gyroscopic frequency per unit spin about each principal axis (k x 3)
    sn_real* inertia; // inertia about o, world axes, at the step's start (k x 9)
    sn_real* omega;   // angular velocities at the step's start (3k)
    sn_real* X;       // L^-T J^T of M~'s factor, one row of nv per column of J^T (3k x nv)
    sn_real* lambda;  // J M~^-1 J^T (3k x 3k)
    sn_real* lu;      // a 3k x 3k system and its LU factor
    int* piv;         // (3k)
    sn_real *a0, *a, *f, *mom, *y; // (3k each)
    sn_real* tau;                  // tau_exp plus the explicit couple (nv)
    sn_real* z;                    // (nv)
    sn_real* ustar;                // the free velocity u* with the midpoint couple (nv)
    sn_real* fprev; // the last step's impulses of contacts, limits and friction / dt (nv)
} sni_gyro;

// the rotors spinning on 1-DOF joints (rotor.c): the settings per DOF and the Cayley step's
// scratch, allocated when the first rotor is set (bytes 0: none yet) and kept with the system
typedef struct sni_rotor {
    int n;            // rotors set (spin inertia not 0)
    int applied;      // the last step's free velocity took the Cayley increment
    int soft_warned;  // a soft world's step said it does not take them
    sn_real* inertia; // spin inertia I of the rotor on each DOF, 0: none (nv)
    sn_real* ratio;   // gear ratio N: the rotor spins at N u_dof (nv; 0 where none)
    sn_real* G;       // the gyroscopic matrix sum S^T [H]x S (nv x nv)
    sn_real* lu;      // M - dt/2 G and its LU factor (nv x nv)
    sn_real* b;       // the right-hand side, then the increment (nv)
    int* piv;         // (nv)
    size_t bytes;     // the block of the arrays above
} sni_rotor;

// inverse dynamics of a system's last step (step.c; SNI_VALID_ID)
typedef struct sni_invdyn {
    int compute;       // after each step
    sn_real* udot;     // the step's mean acceleration (u+ - u) / dt, when impulses or RK4 made it
                       // differ from the ABA's (nv)
    sn_real* body_acc; // accelerations of the last step, gravity included (nbody x 6)
    sn_real* body;     // subtree wrenches of the last step, moment about the origin first
                       // (nbody x 6)
    sn_real* pos;      // body poses and velocities at the last step's start, for the fixed
    sn_real* rot;      // joints' wrenches computed on demand (nbody x 3, x 9, x 6)
    sn_real* vel;
} sni_invdyn;

struct sn_system {
    sn_world* world;
    const sn_model* m;
    sn_data* d;
    int index;             // position in the world's list
    unsigned valid;        // SNI_VALID_* bits
    sni_control ctl;       // control inputs (sim/control.h)
    sni_actuators act;     // actuators (sim/control.h)
    sni_step step;         // the step's state and scratch
    sni_solver_sys solve;  // the contact solver's state (solver/solver.h)
    sni_loops loops;       // loop constraints (loops/loops.h)
    sni_invdyn id;         // inverse dynamics of the last step
    sni_gyro gyro;         // the gyroscopic couple's option and scratch (gyro.c)
    sni_rotor rotor;       // spinning rotors on 1-DOF joints (rotor.c)
    sni_tendon_sys tendon; // tendon actuators' inputs, the tendons' forces (tendon/tendon.h)
    sni_sensors sens;      // the sensors and their values of the last step (sensor/sensor.h)
    // the model's joint placements and masses when the system was added (its set-up, which a
    // checkpoint's fingerprint covers; changed since, they are a checkpoint's state): joint_pos,
    // joint_rot, joint_axis, body_mass, subtree_mass one after another    (15 njoint + 2 nbody)
    sn_real* placed;
    // ---- collision ----
    int has_contacted;    // set by the contact solver; reset by a state change
    sn_real* geom_center; // bounding sphere of each geometry: centre in its body frame
    sn_real* geom_radius; // and radius (0: never collides)                    (ngeom x 3, ngeom)
    unsigned* body_group; // collision group bits per body (default 1)         (nbody)
    unsigned* body_mask;  // the groups each body collides with (default all)  (nbody)
    int* body_material;   // contact material id per body (default 0)            (nbody)
    int self_collision;   // contacts between the system's own bodies
    // a body of a model in maximal coordinates (sn_world_add_maximal, couple/maximal.c): the
    // systems made for one sn_maximal share mx_tag and collide with each other as the bodies of
    // the model's articulated system would (only with self-collision on, never a joint's
    // parent and child, nor an excluded pair); mx_model the model (NULL: none), mx_body its body
    const sn_model* mx_model;
    int mx_tag, mx_body;
    sni_soft* soft; // soft contact points, their integrator (soft/soft.h; NULL: none)
    size_t bytes;   // the block holding the system and its arrays
};

// the cached results of s that bits (SNI_VALID_*) name are out of date: the one place validity
// is cleared
static inline void sni_system_invalidate(sn_system* s, unsigned bits) {
    s->valid &= ~bits;
}

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
    int ncontact, contact_cap;
    int contact_overflow;      // contacts dropped for want of room, over the world's life
    int contact_overflow_said; // and warned about (once)
    sni_contact* contacts;     // (contact_cap)
    sni_solver solver;         // the contact solver's settings and state (src/solver/)
    sni_soft_world* soft;      // the contact model, soft parameters (soft/soft.h; NULL: hard)
    struct sni_couple* couple; // constraints between systems (couple/couple.h; NULL: none)
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

// layout.c: a system's arrays from the carver (the same call measures and carves); the world's
// arrays (contacts, broad phase, contact solver) made for every system, and freed
void sni_system_layout(sn_system* s, const sn_model* m, carver* c);
sn_status sni_world_arrays_alloc(sn_world* w);
void sni_world_arrays_free(sn_world* w);

// world.c: the world's warning and last error; a system's validity
void sni_world_warn(sn_world* w, const char* fmt, ...);
sn_status sni_world_fail(sn_world* w, sn_status code, const char* fmt, ...);
// a new state was set (or a step failed): its cached results are out of date, and the contact
// solver's warm-start history ends
void sni_system_state_set(sn_system* s);
// the model's joint placements and masses (joint_pos, joint_rot, joint_axis, body_mass,
// subtree_mass: 15 njoint + 2 nbody reals) copied into buf (to_model 0) or from buf into the
// model (1: the model is the caller's, as sn_model_set_joint_pos writes it; system.c)
void sni_system_placements(const sn_model* m, sn_real* buf, int to_model);
// d's kinematics at d->q, d->u (SNI_VALID_KIN)
void sni_ensure_kinematics(sn_system* s);


// bodies.c: a free body (owned by the world) of mass `mass` and inertia I (3x3 about the centre
// of mass, body axes; the body frame at the centre of mass) colliding as the collision geometries
// geoms[0..ngeom) of model src, geometry k placed at pos[3k], rot[9k] (body <- geometry) in the
// body frame, with src's sizes, meshes, frictions and condims; ngeom 0: no geometry. The model
// it makes is named name's link. Refused with the world's last error set
sn_status sni_world_add_geom_body(sn_world* w, const char* name, sn_real mass, const sn_real* I,
                                  const sn_model* src, const int* geoms, const sn_real* pos,
                                  const sn_real* rot, int ngeom, sn_system** out);

// step.c
// the stage "factor M~": M~ = M + diag(w) at d's kinematics into s->step.mtilde (and dinv), once
// per step for the systems the loops or the contact solver use; the only place it is factored
sn_status sni_step_factor(sn_system* s);
// the joint wrenches of the step just computed (inverse dynamics)
void sni_step_wrenches(sn_system* s, sn_real dt);
// the wrench URDF joint `ujoint` transmitted in the last step (inverse dynamics on, a step run):
// w = (moment about the world origin, force), world, from the parent link to the child's subtree
void sni_step_ujoint_wrench(const sn_system* s, int ujoint, sn_real w[6]);

// gyro.c
// the bodies on spherical and floating joints (count and list; list NULL: count only)
int sni_gyro_bodies(const sn_model* m, int* list);
// the midpoint couple applies to this step (option on, such bodies, SEMI_IMPLICIT)
int sni_gyro_active(const sn_system* s);
// the free velocity with the midpoint couple (d's kinematics at the step's start; tau_exp
// computed): s->step.u1 = u0 + dt M~^-1 (tau_exp - h + J^T g_t - J^T g_mid), M~ factored
sn_status sni_gyro_free_velocity(sn_system* s, sn_real dt);
// the impulses of this step's contacts, limits, friction and loops, M~ (u+ - u*) / dt, kept for
// the next step's midpoint couple (zero when the couple did not apply)
void sni_gyro_impulses(sn_system* s, sn_real dt);
// the explicit couple's warning (SEMI_IMPLICIT): once per system, when a body's spin makes it
// unsafe at dt
void sni_gyro_check(sn_system* s, sn_real dt);

// rotor.c
// the Cayley increment applies to this step (rotors set, SEMI_IMPLICIT)
int sni_rotor_active(const sn_system* s);
// the gyroscopic matrix G (nv x nv, row-major) of the rotors at velocity u and d's kinematics
void sni_rotor_matrix(const sn_system* s, const sn_real* u, sn_real* G);
// the Cayley step's increment du = u' - u, (M - dt/2 G) u' = (M + dt/2 G) u, with M = sn_crba's
// and G at u (d's kinematics; d->mass_matrix written); SN_ERR_SINGULAR if the LU fails
sn_status sni_rotor_cayley(sn_system* s, sn_real dt, const sn_real* u, sn_real* du);
// the free velocity's Cayley increment at the step's start (s->step.u0), added to s->step.u1
// (and to the midpoint couple's u*)
sn_status sni_rotor_free_velocity(sn_system* s, sn_real dt);
// the rotors' scratch freed (world.c, with the system)
void sni_rotor_free(sn_system* s);

#endif
