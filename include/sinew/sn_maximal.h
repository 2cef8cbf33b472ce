// SPDX-License-Identifier: Apache-2.0
// sn_maximal.h: rigid bodies in maximal coordinates and constraints with their own c, J and J-dot
// (seed 003, docs/constraints.md), and constraints between bodies of different systems of a world
// (seed 001: "constraints between different objects", wires).
//
// Two ways to use them:
//  - an sn_maximal: N free rigid bodies (state: centre of mass x and rotation in the world; linear
//    velocity v and angular velocity w, both in the world) and constraints between them or the
//    world, stepped alone by the seed's method: x-ddot = M^-1 (Phi + Phi_p + J^T lambda) with
//    J M^-1 J^T lambda = -J-dot x-dot - J M^-1 (Phi + Phi_p) - 2 alpha c-dot - beta^2 c (drift
//    stabilization), by semi-implicit Euler or RK4; any URDF/MJCF model can be turned into one
//    (each link a body, each joint a constraint), and its joint coordinates read back;
//  - world constraints (sn_world_add_constraint): the same constraints between a body of one
//    system (articulated or free) and a body of another or the world, eliminated by the world's
//    step together with the contacts so that no contact opens them.
// A constraint's Jacobian slices have 6 columns per body, linear velocity first: (v, w).
#ifndef SN_MAXIMAL_H
#define SN_MAXIMAL_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Built-in constraint kinds. A constraint joins body a to body b (or the world) through one
/// joint frame on each: an anchor point and an orientation whose first axis is the hinge,
/// slider, line or plane-normal axis.
typedef enum sn_constraint_kind {
    SN_CONSTRAINT_BALL = 0,     ///< 3 rows: the anchors coincide (ball-and-socket)
    SN_CONSTRAINT_DISTANCE = 1, ///< 1 row: the anchors `length` apart (a rigid rod)
    SN_CONSTRAINT_PLANE = 2,    ///< 1 row: a's anchor on b's plane (normal: b's axis 1)
    SN_CONSTRAINT_LINE = 3,     ///< 2 rows: a's anchor on b's line (along b's axis 1)
    SN_CONSTRAINT_HINGE = 4,    ///< 5 rows: ball and the axes 1 parallel (revolute)
    SN_CONSTRAINT_SLIDER = 5,   ///< 5 rows: line and the frames aligned (prismatic)
    SN_CONSTRAINT_WELD = 6,     ///< 6 rows: ball and the frames aligned (fixed)
    SN_CONSTRAINT_GEAR = 7, ///< 1 row: coordinate(joint_a) - ratio coordinate(joint_b) = offset,
                            ///< each joint a hinge (its angle) or slider (its displacement)
    SN_CONSTRAINT_WIRE = 8, ///< 1 one-sided row: the anchors at most `length` apart, tension
                            ///< only; with stiffness > 0 a spring of that stiffness (N/m)
                            ///< and damping (N s/m) acting only beyond `length` instead
} sn_constraint_kind;

/// One constraint. Zero fields are defaults: a zero frame the body's axes, body_b -1 the world.
typedef struct sn_constraint_desc {
    sn_constraint_kind kind;
    sn_system* system_a; ///< world constraints: a's system; NULL in an sn_maximal
    sn_system* system_b; ///< world constraints: b's system (NULL: the world)
    int body_a;          ///< a's body (a system's body index, or an sn_maximal's body id)
    int body_b;          ///< b's body; -1 (or system_b NULL in a world): the world
    sn_real anchor_a[3]; ///< the anchor on a, in a's body frame (an sn_maximal body: its COM frame)
    sn_real anchor_b[3]; ///< on b, in b's body frame (the world's, for the world)
    sn_real frame_a[9];  ///< the joint frame's rotation in a's frame, row-major, columns the axes
    sn_real frame_b[9];  ///< the same on b (all zero: identity)
    sn_real length;      ///< DISTANCE, WIRE: the length (m, > 0)
    sn_real stiffness;   ///< WIRE: 0 rigid; > 0 compliant (N/m)
    sn_real damping;     ///< WIRE, compliant: damping along the wire (N s/m)
    int joint_a,
        joint_b;    ///< GEAR: the constraints (hinge or slider ids) whose coordinates it couples
    sn_real ratio;  ///< GEAR: the ratio (0 means 1)
    sn_real offset; ///< GEAR: the offset (rad or m)
} sn_constraint_desc;

/// A user constraint: `rows` rows (1..6) on body a and body b (-1: the world). The callback fills,
/// at the bodies' current states (x, R row-major body to world, v, w world), c (rows), the
/// Jacobian slices Ja, Jb (rows x 6, row-major, columns (v, w); Jb ignored for the world) and
/// jdot = J-dot x-dot (rows). It returns 0 on success; anything else fails the step (state kept).
typedef int (*sn_constraint_fn)(void* ctx, const sn_real* xa, const sn_real* Ra, const sn_real* va,
                                const sn_real* wa, const sn_real* xb, const sn_real* Rb,
                                const sn_real* vb, const sn_real* wb, sn_real* c, sn_real* Ja,
                                sn_real* Jb, sn_real* jdot);

typedef struct sn_user_constraint {
    int rows;
    int body_a, body_b;
    sn_constraint_fn eval;
    void* ctx;
    int check;         ///< 1: check J and J-dot x-dot against finite differences when added
    sn_real check_tol; ///< the check's relative tolerance (0: 1e-6)
} sn_user_constraint;

// ---- a system in maximal coordinates, stepped alone ----

typedef struct sn_maximal sn_maximal;

/// Schemes of an sn_maximal's step.
typedef enum sn_maximal_scheme {
    SN_MAXIMAL_SEMI_IMPLICIT = 0, ///< v+ = v + dt a; x+ = x + dt v+, R+ = exp(dt w+) R (default)
    SN_MAXIMAL_RK4 = 1,           ///< classical Runge-Kutta; quaternion RK4, each stage normalized
} sn_maximal_scheme;

/// An empty system: gravity (0, 0, -9.81), dt 1 ms, stabilization alpha = beta = 1/(10 dt)
/// scaled with dt (sn_maximal_set_stabilization), no bodies. opts: allocator and log (NULL:
/// defaults).
SN_API sn_status sn_maximal_create(const sn_world_opts* opts, sn_maximal** out, sn_error* err);
SN_API void sn_maximal_destroy(sn_maximal* mx);
/// The last refusal's reason (never NULL).
SN_API const char* sn_maximal_last_error(const sn_maximal* mx);

/// A body of `mass` (kg > 0) and inertia about its COM in its axes (xx xy xz yy yz zz, positive
/// definite), at the origin at rest; its id (0, 1, ...) in *id.
SN_API sn_status sn_maximal_add_body(sn_maximal* mx, sn_real mass, const sn_real inertia[6],
                                     int* id);
/// A built-in constraint (system_a, system_b must be NULL); its id in *id. The constraint's
/// rows count toward the system's; refused with a message naming the field that is wrong.
SN_API sn_status sn_maximal_add_constraint(sn_maximal* mx, const sn_constraint_desc* d, int* id);
/// A user constraint; with uc->check the Jacobian and J-dot x-dot are compared with finite
/// differences of c and J x-dot at the current state and at perturbed states, and a wrong one is
/// refused (SN_ERR_ARG) with a message naming the slice (Ja or Jb, row, column) or the jdot row.
SN_API sn_status sn_maximal_add_user_constraint(sn_maximal* mx, const sn_user_constraint* uc,
                                                int* id);

/// Bodies (SN_NONE for NULL).
SN_API int sn_maximal_body_count(const sn_maximal* mx);
/// Constraints, built-in and user (SN_NONE for NULL).
SN_API int sn_maximal_constraint_count(const sn_maximal* mx);
/// Rows of all constraints (a wire counts 1).
SN_API int sn_maximal_row_count(const sn_maximal* mx);

/// Time step (s, finite and > 0); the default stabilization follows it (1/(10 dt) each) until
/// sn_maximal_set_stabilization sets its own.
SN_API sn_status sn_maximal_set_timestep(sn_maximal* mx, sn_real dt);
/// The time step (s).
SN_API sn_real sn_maximal_timestep(const sn_maximal* mx);
/// Gravity (m/s^2, world, finite).
SN_API sn_status sn_maximal_set_gravity(sn_maximal* mx, const sn_real g[3]);
/// The gravity into g (m/s^2, world). SN_ERR_ARG for a NULL mx or g.
SN_API sn_status sn_maximal_gravity(const sn_maximal* mx, sn_real g[3]);
/// The step's scheme (SN_MAXIMAL_SEMI_IMPLICIT by default).
SN_API sn_status sn_maximal_set_scheme(sn_maximal* mx, sn_maximal_scheme scheme);
/// The step's scheme ((sn_maximal_scheme)SN_NONE for NULL).
SN_API sn_maximal_scheme sn_maximal_scheme_of(const sn_maximal* mx);
/// Drift stabilization: c-ddot + 2 alpha c-dot + beta^2 c = 0 is imposed (1/s each, finite and
/// >= 0; 0 0: off). Default 1/(10 dt) each: 100/s at 1 ms (docs/constraints.md measures it).
SN_API sn_status sn_maximal_set_stabilization(sn_maximal* mx, sn_real alpha, sn_real beta);
/// Post-stabilization (1: on, 0: off, the default): after each step the positions are projected
/// onto c = 0 by one Gauss-Newton step dx = -M^-1 J^T (J M^-1 J^T)^-1 c (rotations on the group)
/// and then the velocities onto J v = 0 the same way (Ascher, Chin, Reich 1994); rigid wires only
/// while violated, gears and user constraints included. It keeps semi-implicit Euler's
/// constraint error below 1e-6 where the drift stabilization alone cannot (its O(dt) error in c),
/// at two more row evaluations and one more factor per step (RK4: its last factor reused), but
/// semi-implicit Euler's energy then drifts at first order in dt (docs/constraints.md
/// "Projection"). Off by default: the seed's method as it is, and RK4 does not need it.
SN_API sn_status sn_maximal_set_projection(sn_maximal* mx, int on);
/// Whether the step projects (SN_NONE for NULL).
SN_API int sn_maximal_projection(const sn_maximal* mx);
/// The simulated time (s): the steps taken times their time steps (NaN for NULL).
SN_API sn_real sn_maximal_time(const sn_maximal* mx);

/// A body's state: COM position, orientation quaternion (w x y z, normalized when set), linear and
/// angular velocity in the world. Any of the pointers may be NULL (left as is / not read).
SN_API sn_status sn_maximal_set_body_state(sn_maximal* mx, int body, const sn_real x[3],
                                           const sn_real quat[4], const sn_real v[3],
                                           const sn_real w[3]);
SN_API sn_status sn_maximal_body_state(const sn_maximal* mx, int body, sn_real x[3],
                                       sn_real quat[4], sn_real v[3], sn_real w[3]);
/// A world force at the COM and a world torque on a body for the next step only.
SN_API sn_status sn_maximal_set_body_force(sn_maximal* mx, int body, const sn_real force[3],
                                           const sn_real torque[3]);

/// One step. No allocation. Rows that the others make redundant are left out (pivoted factor);
/// contradicting ones are SN_ERR_SINGULAR. On failure (SN_ERR_SINGULAR, SN_ERR_NONFINITE, a user
/// callback's error: SN_ERR_ARG) the state is as it was and the reason in sn_maximal_last_error.
SN_API sn_status sn_maximal_step(sn_maximal* mx);

/// The last step's constraint force of constraint `id`: lambda (its rows; n >= them; NULL: not
/// read) and the world force and torque (about its COM) it put on body a (NULL: not read), at
/// the state the step started from. A wire's lambda is <= 0 (tension); a gear's body a is its
/// joint_a's body a.
SN_API sn_status sn_maximal_constraint_force(const sn_maximal* mx, int id, sn_real* lambda, int n,
                                             sn_real force[3], sn_real torque[3]);
/// The constraint error at the current state: the rms and the largest |c| over the rows (m or
/// rad; a rigid wire counts one row, 0 when slack; a compliant wire is a spring and counts none;
/// NULL: not read). It writes nothing to mx (safe alongside other readers of mx) except, when it
/// fails (a user callback's error, an undefined row), the reason for sn_maximal_last_error.
SN_API sn_status sn_maximal_constraint_error(const sn_maximal* mx, sn_real* rms, sn_real* worst);
/// Energies (kinetic, potential in gravity) and momentum (linear; angular about the origin).
SN_API sn_real sn_maximal_kinetic_energy(const sn_maximal* mx);
SN_API sn_real sn_maximal_potential_energy(const sn_maximal* mx);
SN_API void sn_maximal_momentum(const sn_maximal* mx, sn_real linear[3], sn_real angular[3]);

// ---- any model in maximal coordinates ----

/// The model's links as bodies (fixed links merged as the model does; a fixed base is the
/// world body, so its children's joints attach to the world; a floating base free) and its
/// joints as constraints (revolute: hinge, prismatic: slider, spherical: ball; a URDF mimic
/// joint: a gear; the model's loops: pin a ball, pin and orientation a weld, equality a plane or
/// a line), at configuration q (NULL: the model's q0) and velocity u (NULL: zero). Position
/// limits, joint damping, friction, springs, rotor inertia and actuators are left out, each
/// kind warned once through opts' log. Refused (SN_ERR_MODEL, naming it): a body without mass,
/// an orientation loop without its pin. Nothing is returned on failure (*out NULL).
SN_API sn_status sn_maximal_from_model(const sn_model* m, const sn_real* q, const sn_real* u,
                                       const sn_world_opts* opts, sn_maximal** out, sn_error* err);
/// For an sn_maximal made by sn_maximal_from_model: the equivalent joint coordinates (nq, nv of
/// the model) from the bodies' relative poses and velocities: hinge angles within pi of their
/// values at creation, quaternions with the sign they had then, so that from_model(q, u) then
/// joint_state gives q and u back. q or u may be NULL (not written; its size not checked).
SN_API sn_status sn_maximal_joint_state(const sn_maximal* mx, sn_real* q, int nq, sn_real* u,
                                        int nv);
/// The model it was made from (NULL for one built by hand).
SN_API const sn_model* sn_maximal_model(const sn_maximal* mx);

// ---- constraints between the systems of a world ----

/// A constraint between body_a of system_a and body_b of system_b (NULL: the world), anchors in
/// the bodies' link frames. The world's step eliminates every world constraint's rows together
/// with the systems' loops and the contacts: no contact and no iteration limit opens them. The
/// rows' targets remove the loops' share of the error per step (sn_world_set_loop_erp) and the
/// step's second-order drift. A BALL, HINGE, SLIDER or WELD removes the contacts between its
/// two bodies (DISTANCE, WIRE, PLANE, LINE keep them); a system a world constraint joins steps
/// SEMI_IMPLICIT whatever scheme is asked for (sn_system_scheme_used). Every kind but GEAR;
/// refused with a message naming the field (a system of another world, a body out of range, a
/// frame not a rotation, a length not positive or beyond 1e6 m, an anchor component beyond
/// 1e6 m, a damping without stiffness, a soft-contact world). A step its rows make non-finite
/// fails naming the constraint, the state kept.
SN_API sn_status sn_world_add_constraint(sn_world* w, const sn_constraint_desc* d, int* id);
SN_API int sn_world_constraint_count(const sn_world* w);
/// The last step's force of world constraint `id` on body a: world force and torque about its
/// link frame's origin (N, N m; the impulse over the step / dt), and whether a wire is taut.
SN_API sn_status sn_world_constraint_force(const sn_world* w, int id, sn_real force[3],
                                           sn_real torque[3], int* taut);
/// The constraint error of world constraint `id` at the current state (m or rad, its largest row).
SN_API sn_status sn_world_constraint_error(sn_world* w, int id, sn_real* worst);
/// An sn_maximal's bodies added to a world as free-body systems (body i is system first + i;
/// mass, inertia, link frame at the COM with the body's axes) and its constraints as world
/// constraints, at its current state; the world's gravity and time step apply. A body built by
/// hand has no geometry: it collides with nothing. A body of an sn_maximal made from a model
/// collides as the model body's collision geometries (their sizes, meshes and file frictions;
/// the base link of a fixed base is the world and brings none), and the bodies of one model
/// collide with each other only as the articulated system's would: with self-collision on, and
/// never a joint's parent and child (nor an excluded pair); material 0, collision filter group
/// 1 mask all (sn_world_add_maximal_as copies a system's). GEAR constraints (a model's mimic
/// joints) and user constraints are refused.
SN_API sn_status sn_world_add_maximal(sn_world* w, const sn_maximal* mx, int* first);
/// sn_world_add_maximal for an sn_maximal made from a model, its bodies taking the contact
/// materials, collision filters and self-collision switch that system `like` (of the same model,
/// in any world, e.g. one configured by sn_system_apply_file) gives the model's bodies; like NULL:
/// the defaults. Refused: like of another model, or mx not made from a model.
SN_API sn_status sn_world_add_maximal_as(sn_world* w, const sn_maximal* mx, const sn_system* like,
                                         int* first);
/// For an sn_maximal added to world w at system `first`: its bodies' states set from the
/// systems' (so that sn_maximal_constraint_error and the energies read the world's state), and,
/// for one made from a model, the model's equivalent joint coordinates q (nq) and u (nv) as
/// sn_maximal_joint_state gives them (q and u may be NULL: the bodies' states only). Refused:
/// first out of range, or its systems not free bodies.
SN_API sn_status sn_world_maximal_joint_state(const sn_world* w, sn_maximal* mx, int first,
                                              sn_real* q, int nq, sn_real* u, int nv);
/// The environment of world src given to world dst: time step, gravity, ground, heightfield,
/// default material and the material pairs, contact and loop feedback (erp), the solver's
/// iteration limit, tolerance and warm start (not its systems, constraints or soft contacts).
SN_API sn_status sn_world_copy_settings(sn_world* dst, const sn_world* src);

#ifdef __cplusplus
}
#endif

#endif
