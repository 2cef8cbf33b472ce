// SPDX-License-Identifier: Apache-2.0
// sn_world.h: the world and its time step (seed 000, "Joint torque of a simulation step" and
// "Integration Steps"). A world holds gravity, the time step, the simulated time and one or more
// articulated systems; each system owns its state, its control inputs and its workspaces, all
// allocated when it is added: no step allocates.
//
// One step of length dt, per system (docs/step.md writes it out):
//   1. tau_cmd = clamp(tau_ff + kp (q_ref - q) + kd (u_ref - u), limits)
//   2. tau_act = the actuators' torques clipped to their motor operating regions
//   3. tau_exp = tau_cmd - (b + b_out) u + tau_act + k_s (q_s - q) + J^T F_ext
//   4. w = dt/2 (b + b_out + kd) + dt^2/4 (kp + k_s);  u* = u + dt (M + diag w)^-1 (tau_exp - h)
//      (contact, limit and friction impulses enter here with the contact solver)
//   6. q+ = q (+) dt * ubar with ubar = u+ (SEMI_IMPLICIT), (u + u+)/2 (TRAPEZOID), u (EULER);
//      RUNGE_KUTTA_4 evaluates steps 1-3 and u-dot = M^-1 (tau_exp - h) (no w) at four stages.
//
// Refusals (docs/contracts.md): a call refuses a NULL pointer that is not called nullable, an
// index or size out of range, an unknown enum value and a NaN or infinite number with
// SN_ERR_ARG (or the status named); a getter returns NULL, NaN or SN_NONE instead, and a call
// that returns nothing does nothing (its outputs NaN). The message names the argument and the
// reason, in sn_world_last_error and in sn_last_error (sn_base.h), which is the only place a
// call on a NULL world or system can say why.
#ifndef SN_WORLD_H
#define SN_WORLD_H

#include "sn_data.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sn_world sn_world;
typedef struct sn_system sn_system;

/// Integration schemes of seed 000.
typedef enum sn_scheme {
    SN_SCHEME_SEMI_IMPLICIT = 0, ///< q+ = q (+) dt u+ (default)
    SN_SCHEME_TRAPEZOID = 1,     ///< q+ = q (+) dt (u + u+)/2
    SN_SCHEME_EULER = 2,         ///< q+ = q (+) dt u
    SN_SCHEME_RK4 = 3,           ///< classical Runge-Kutta on steps 1-4 (see the replacement rules)
} sn_scheme;

/// How a step takes the gyroscopic couple w x (I w) of each body on a spherical or floating joint
/// (I about the joint's centre: a spherical joint's anchor, a floating body's centre of mass).
typedef enum sn_gyroscopic {
    SN_GYROSCOPIC_EXPLICIT = 0, ///< in h at the step's start (seed 000; default)
    SN_GYROSCOPIC_MIDPOINT = 1, ///< at the step's midpoint velocity and momentum: does no work
} sn_gyroscopic;

/// Control modes of seed 000.
typedef enum sn_control_mode {
    SN_CONTROL_FORCE_AND_TORQUE = 0,    ///< kp = kd = 0 in steps 1 and 4
    SN_CONTROL_PD_PLUS_FEEDFORWARD = 1, ///< PD_PLUS_FEEDFORWARD_TORQUE
} sn_control_mode;

/// Options of sn_world_create. A zeroed struct means defaults.
typedef struct sn_world_opts {
    const sn_allocator* allocator; ///< NULL: libc
    sn_log_fn log;                 ///< receives warnings (NULL: only counted)
    void* log_ctx;
    sn_real timestep; ///< 0: 0.001 s
} sn_world_opts;

/// One actuator with a motor operating region (seed 000 step 2). Fields left 0 mean: gear 1,
/// no couplings, an unbounded region (kt = 0 turns the region off), no output damping/friction.
typedef struct sn_actuator_desc {
    int joint;     ///< driven movable joint (1 DOF)
    sn_real gear;  ///< gear ratio G
    int ncoupling; ///< couplings (c, r_c), at most 4
    int coupling_joint[4];
    sn_real coupling_ratio[4];
    sn_real kt;              ///< torque constant (N m / A)
    sn_real vbus;            ///< bus voltage (V)
    sn_real resistance;      ///< winding resistance (ohm)
    sn_real kv;              ///< speed constant (rad/s / V)
    sn_real peak_torque;     ///< motor-side peak torque (N m); 0: unbounded
    sn_real output_damping;  ///< b_out, joint side (N m s/rad)
    sn_real output_friction; ///< tau_c,out, joint side (N m), for the contact issue's solver
} sn_actuator_desc;

/// State of one actuator after the last step (getActuatorStates()).
typedef struct sn_actuator_state {
    sn_real command;      ///< tau_a as set
    sn_real motor_speed;  ///< omega_m
    sn_real motor_torque; ///< tau_m after clipping
    sn_real torque_min;   ///< tau_m,min of the region at omega_m
    sn_real torque_max;   ///< tau_m,max
    int clipped;          ///< 1 when tau_a / G was outside the region
} sn_actuator_state;

// ---- world ----

/// Create an empty world: gravity (0, 0, -9.81), time step opts->timestep or 1 ms, time 0.
SN_API sn_status sn_world_create(const sn_world_opts* opts, sn_world** out, sn_error* err);
/// Destroy a world and its systems (not the models). NULL is a no-op.
SN_API void sn_world_destroy(sn_world* w);
/// The time steps a world, an sn_maximal and a world's options accept, in seconds. Below
/// SN_TIMESTEP_MIN the simulated time stops advancing (t + dt == t) once t passes 4.5e6 s
/// (2^-52 t > dt), and a step moves nothing a double can tell from rounding; above
/// SN_TIMESTEP_MAX a step is longer than any motion a robot's dynamics resolve (the arm's step
/// takes the same bound). docs/contracts.md.
#define SN_TIMESTEP_MIN 1e-9
#define SN_TIMESTEP_MAX 1.0
/// Time step in seconds, SN_TIMESTEP_MIN to SN_TIMESTEP_MAX (5e-324, 1e300, NaN: SN_ERR_ARG
/// with a message naming dt).
SN_API sn_status sn_world_set_timestep(sn_world* w, sn_real dt);
/// The time step; NaN for a NULL w (with sn_last_error).
SN_API sn_real sn_world_timestep(const sn_world* w);
/// Gravity (m/s^2, world frame), (0, 0, -9.81) by default; finite, else SN_ERR_ARG. Every
/// system's data takes it.
SN_API sn_status sn_world_set_gravity(sn_world* w, const sn_real g[3]);
/// The gravity into g; a NULL w fills g with NaN, a NULL g is refused (sn_world_last_error).
SN_API void sn_world_gravity(const sn_world* w, sn_real g[3]);
/// Simulated time in seconds.
SN_API sn_real sn_world_time(const sn_world* w);
/// Warnings raised so far (normalized quaternions...) and the last one's text ("" if none).
SN_API int sn_world_warning_count(const sn_world* w);
SN_API const char* sn_world_last_warning(const sn_world* w);
/// Text of the last failure of a world or system call ("" if none).
SN_API const char* sn_world_last_error(const sn_world* w);

/// Add an articulated system of model m (which must outlive the world). Its state starts at the
/// model's nominal_config if it has one, else the zero configuration, at rest. *out is owned by
/// the world.
SN_API sn_status sn_world_add_system(sn_world* w, const sn_model* m, sn_system** out,
                                     sn_error* err);
SN_API int sn_world_system_count(const sn_world* w);
SN_API sn_system* sn_world_system(sn_world* w, int i);

/// One step: sn_world_integrate1 then sn_world_integrate2. On failure (a non-finite result) the
/// state of every system is left as it was and the call returns SN_ERR_NONFINITE. A step whose
/// state has run away (not finite, a speed above 1e8, a body beyond 1e6 m of the origin, a
/// non-finite mass matrix) says so in sn_world_last_error ("the state ran away"), not "the mass
/// matrix is singular" (docs/contracts.md).
SN_API sn_status sn_world_integrate(sn_world* w);
/// Kinematics at the current state (positions, velocities, frames); the mass matrix, h and M^-1
/// are computed on demand by their getters. A controller reads them, then sets its commands.
SN_API sn_status sn_world_integrate1(sn_world* w);
/// The rest of the step: commands, actuators, velocity, position, time.
SN_API sn_status sn_world_integrate2(sn_world* w);

// ---- contacts (the contact issue's first part: the ground plane) ----

/// A contact of a system with the ground after the last step.
typedef struct sn_contact {
    int body;            ///< the system's body
    int geom;            ///< the model's collision geometry
    int other_system;    ///< index of the other system in the world, -1 for the ground
    int other_body;      ///< its body (-1 for the ground)
    int self;            ///< 1 for a contact between two bodies of the same system
    sn_real position[3]; ///< world point on the body
    sn_real normal[3];   ///< world normal, pointing from the other object to this body
    sn_real depth;       ///< penetration at the step's start (negative: a gap within the margin)
    sn_real impulse[3];  ///< world impulse on the body over the step (divide by dt for a force)
    int sliding;         ///< 1 when the contact slid (the impulse is on the friction cone)
    int constraint;      ///< -1 for a contact; a loop constraint's internal entry
                         ///< (sn_system_contact_entry): the model's constraint index
} sn_contact;

/// The ground plane z = height (off by default). Every collision geometry of every system
/// (sphere, capsule, box, cylinder, convex mesh) touches it.
SN_API sn_status sn_world_set_ground(sn_world* w, int enabled, sn_real height);
/// A heightfield ground: heights z[i + nx j] at x = x0 + i dx, y = y0 + j dy (nx, ny >= 2,
/// dx, dy > 0), each cell split into two triangles along its (i, j)-(i+1, j+1) diagonal. Inside
/// its rectangle it replaces the ground plane; outside, the plane holds (when enabled). A
/// geometry meets the plane of the triangle under its centre: bumps narrower than the geometry
/// are not seen. The world copies the heights; nx = 0 removes the field. Contacts with it report
/// other_system -1, like the ground, and use material 0.
SN_API sn_status sn_world_set_heightfield(sn_world* w, int nx, int ny, sn_real x0, sn_real y0,
                                          sn_real dx, sn_real dy, const sn_real* z);
/// The terrain height under (x, y): the heightfield inside its rectangle, else the ground
/// plane's height (or -inf with no ground). The normal (may be NULL) points up.
SN_API sn_real sn_world_terrain_height(const sn_world* w, sn_real x, sn_real y, sn_real* normal);
/// The default material pair: Coulomb friction (0.8), restitution (0) and the impact speed
/// below which nothing bounces (0). Friction and threshold must be finite and >= 0, the
/// restitution within 0 to 1 (SN_ERR_ARG with a message otherwise).
SN_API sn_status sn_world_set_material(sn_world* w, sn_real friction, sn_real restitution,
                                       sn_real threshold);
/// Share of a penetration (or of a joint's excursion past its limit) removed per step: 0.2. The
/// correction moves positions only (a split impulse): it adds no velocity.
SN_API sn_status sn_world_set_erp(sn_world* w, sn_real erp);
/// Contact solver: iteration limit (150) and the impulse change that ends it (1e-8).
SN_API sn_status sn_world_set_solver(sn_world* w, int max_iterations, sn_real tolerance);
/// Start the contact solver from the impulses of the last step's matching contacts (on by
/// default). The solver then depends on the previous step as well as on the state: a world
/// checkpoint (sn_state.h) holds that history, so a run resumed from one repeats bit for bit;
/// setting q and u by hand does not. Setting a state clears the history.
SN_API void sn_world_set_warm_start(sn_world* w, int enabled);
/// Joint position and velocity limits as solver rows (on by default; the URDF <limit>).
SN_API void sn_system_set_joint_limits_enabled(sn_system* s, int enabled);
/// Collision filter of a body: contacts between two bodies happen when each one's group has a
/// bit of the other's mask. Defaults: group 1, mask all; the ground is group 1 (a body whose
/// mask lacks bit 0 passes through it).
SN_API sn_status sn_system_set_collision_filter(sn_system* s, int body, unsigned group,
                                                unsigned mask);
/// Contacts between the system's own bodies (off by default); bodies joined by a joint never
/// collide with each other.
SN_API void sn_system_set_self_collision(sn_system* s, int enabled);
/// Single free rigid bodies (6-DOF, a floating base of one link), made and owned by the world:
/// uniform density, at the origin at rest; set their state like any system's.
SN_API sn_status sn_world_add_sphere(sn_world* w, sn_real radius, sn_real mass, sn_system** out);
SN_API sn_status sn_world_add_box(sn_world* w, const sn_real size[3], sn_real mass,
                                  sn_system** out);
/// A cylinder or capsule along its local z axis (length without the caps).
SN_API sn_status sn_world_add_cylinder(sn_world* w, sn_real radius, sn_real length, sn_real mass,
                                       sn_system** out);
SN_API sn_status sn_world_add_capsule(sn_world* w, sn_real radius, sn_real length, sn_real mass,
                                      sn_system** out);
/// A convex mesh body: the convex hull of the vertices of an OBJ or STL file (scaled per axis;
/// NULL: 1 1 1), its inertia that of the solid hull at uniform density. The body frame is the
/// file's frame (the centre of mass is where the hull puts it). A flat mesh is refused.
SN_API sn_status sn_world_add_mesh(sn_world* w, const char* path, const sn_real scale[3],
                                   sn_real mass, sn_system** out);
/// A free body of given mass properties (sn_world_add_body). Zero fields are defaults: a zero
/// inertia is the shape's own at uniform density (a mesh's: its solid hull's, with the hull's
/// centre of mass when com is zero too), a zero com the body frame's origin, a zero mesh scale
/// 1 1 1. shape 0 is SN_GEOM_BOX.
typedef struct sn_body_desc {
    int shape;          ///< SN_GEOM_BOX, _SPHERE, _CYLINDER, _CAPSULE, _ELLIPSOID or _MESH
    sn_real size[3];    ///< as sn_model's geom_size: box full lengths; sphere radius; cylinder
                        ///< and capsule radius and length (along z, without caps); ellipsoid
                        ///< semi-axes; a mesh's scale
    const char* mesh;   ///< SN_GEOM_MESH: the OBJ or STL file (its convex hull collides)
    sn_real mass;       ///< kg, positive
    sn_real com[3];     ///< centre of mass in the body frame (where the shape is centred)
    sn_real inertia[6]; ///< about the centre of mass, body axes: xx xy xz yy yz zz (kg m^2)
} sn_body_desc;
/// A free body (6-DOF, made and owned by the world, at the origin at rest) of the given mass,
/// centre of mass and inertia, colliding as the given shape: the compiled model's mass, com and
/// inertia are the ones given, exactly. Refused with a message: a mass not positive, an inertia
/// not positive definite or whose principal moments break A + B >= C, an unknown shape, sizes
/// not positive.
SN_API sn_status sn_world_add_body(sn_world* w, const sn_body_desc* desc, sn_system** out);
// ---- loop constraints (seed 001: <constraints> pins and equality constraints) ----

/// Loop closure feedback: every step removes clamp(0.2 erp, 0, 0.3) of each constrained
/// direction's error (erp 1.5 by default: 30 % per step).
SN_API sn_status sn_world_set_loop_erp(sn_world* w, sn_real erp);
/// Constraint i of the model (pins and equality constraints in the model's order) after the last
/// step: the impulse on body1's anchor over the step, world frame (body2 receives its opposite;
/// divide by dt for a force), and the anchor separation p1 - p2 at the step's start. Either
/// pointer may be NULL. A constraint the others make redundant reports zero.
SN_API sn_status sn_system_constraint(const sn_system* s, int i, sn_real impulse[3],
                                      sn_real separation[3]);
/// The directions loop constraint i keeps in the step's rows (into *n): those it names (a pin's
/// three, an equality's axes) less those its joints or the constraints before it hold at every
/// pose examined (seed 001's structural redundancy: the nominal or current configuration and
/// three poses near it on the loops; docs/loops.md), as found when the system was added or by
/// the last sn_system_update_mass_info (or restored by a checkpoint). SN_ERR_ARG: i out of range, n
/// NULL.
SN_API sn_status sn_system_constraint_directions(const sn_system* s, int i, int* n);
/// Seed 001 updateMassInfo: after the placements (sn_model_set_joint_pos, _rot, _axis) or the
/// masses (sn_model_set_body_mass) of the model s simulates changed, bring s up to date: its
/// cached kinematics and mass matrix are recomputed when next asked for, body2's anchors are
/// attached again at the current configuration (as sn_world_add_system does at the nominal one),
/// and the structural redundancy test runs again, at the current configuration and three poses
/// near it on the loops (q and u are left as they were, bit for bit; its scratch comes from the
/// world's allocator and is freed). The number of constraints that keep fewer directions than
/// they name goes to *nreduced (nullable). Call it for every system that simulates the model.
SN_API sn_status sn_system_update_mass_info(sn_system* s, int* nreduced);
/// The loops' closure error at the current state: the root mean square and the largest of the
/// constrained components of p1 - p2 over every constraint (a pin's three, an equality's axes).
SN_API sn_status sn_system_loop_error(sn_system* s, sn_real* rms, sn_real* worst);
/// The largest angle (radians) by which an orientation constraint (an MJCF weld's) is off at
/// the current state; 0 without orientation constraints.
SN_API sn_status sn_system_orientation_error(sn_system* s, sn_real* worst);
/// Assemble the loops: move q to where every constraint holds (pins' and equalities' anchors
/// together, orientations and mimic relations as the model says), by Gauss-Newton steps of least
/// M-weighted size, at most max_iter of them, until no row's error exceeds tol (metres, radians);
/// then make u admissible. The largest error left goes to residual (may be NULL). For a start
/// whose constraints are far from holding (MJCF sites apart), which the steps would otherwise
/// close by 30 % per step at great speed. SN_ERR_SINGULAR when tol is not reached; on any other
/// error the state is left as it was.
SN_API sn_status sn_system_assemble(sn_system* s, int max_iter, sn_real tol, sn_real* residual);

/// Contact materials: every body has a material id (0 by default, the ground is 0); a pair of ids
/// has a friction coefficient, a restitution and a restitution threshold. Pairs not set use the
/// world's default material (sn_world_set_material). Ids run from 0 to 15; the order of a pair
/// does not matter.
SN_API sn_status sn_system_set_body_material(sn_system* s, int body, int material);
SN_API sn_status sn_world_set_material_pair(sn_world* w, int a, int b, sn_real friction,
                                            sn_real restitution, sn_real threshold);
/// The sum of the contact forces (impulse / dt) on a body in the last step, and their moment
/// about the body's origin, world frame.
SN_API sn_status sn_system_body_contact_force(const sn_system* s, int body, sn_real force[3],
                                              sn_real torque[3]);
/// The kinds of row blocks of the contact problem (sn_contact_row.kind).
typedef enum sn_row_kind {
    SN_ROW_CONTACT = 0,        ///< a contact: rows t1, t2, n
    SN_ROW_LIMIT_LOWER = 1,    ///< a joint at or below its lower position limit
    SN_ROW_LIMIT_UPPER = 2,    ///< a joint at or above its upper position limit
    SN_ROW_VELOCITY_LOWER = 3, ///< a joint whose velocity would fall below -velocity limit
    SN_ROW_VELOCITY_UPPER = 4, ///< a joint whose velocity would exceed its velocity limit
    SN_ROW_FRICTION = 5,       ///< a joint's friction
    SN_ROW_LOOP = 6,           ///< a loop constraint
    SN_ROW_TENDON_LOWER = 7,   ///< a limited tendon at or below its lower length (index: tendon)
    SN_ROW_TENDON_UPPER = 8,   ///< a limited tendon at or above its upper length (index: tendon)
} sn_row_kind;

/// One row block of the world's contact problem after the last step (getContactProblem()).
typedef struct sn_contact_row {
    int kind;           ///< an sn_row_kind: 0 contact, 1 lower limit, 2 upper limit, 3 and 4
                        ///< velocity limits, 5 joint friction, 6 loop constraint (after the
                        ///< others, per system in the model's order; impulse: world, on body1's
                        ///< anchor)
    int system;         ///< the (first) system the block acts on
    int other_system;   ///< the second one, -1 if none
    int index;          ///< the contact (in the world's list), the movable joint or the tendon
    int dim;            ///< 3 for a contact (t1, t2, n), 1 for a joint row
    sn_real impulse[3]; ///< the block's impulse in its own rows
} sn_contact_row;
SN_API int sn_world_contact_row_count(const sn_world* w);
SN_API sn_status sn_world_contact_row(const sn_world* w, int i, sn_contact_row* out);
/// Contacts of the last step and the solver's iterations.
SN_API int sn_system_contact_count(const sn_system* s);
SN_API sn_status sn_system_contact(const sn_system* s, int i, sn_contact* out);
SN_API int sn_system_solver_iterations(const sn_system* s);
/// getContacts with the loop constraints (seed 001): the contacts of sn_system_contact (entries 0
/// to sn_system_contact_count - 1, constraint -1), then one internal entry per loop constraint
/// of the model that has directions of its own (sn_model's constraints in order, those whose
/// every direction the joints hold left out), when the last step eliminated the loops (none
/// before the first step, nor after a checkpoint load until the next step). An entry pairs the
/// system with itself: body is body1's, other_body body2's, other_system the system's own index,
/// self 1, geom -1, constraint the constraint's index, impulse sn_system_constraint's (world, on
/// body1, over the step; an orientation constraint's is an angular impulse), position where
/// body1 takes it at the step's start (a pin: body1's anchor; an equality or orientation
/// constraint: body2's anchor), normal zero, depth the separation's length |p1 - p2| at the
/// step's start, sliding 0. SN_ERR_ARG with a message for an index out of range or a NULL out.
SN_API int sn_system_contact_entry_count(const sn_system* s);
SN_API sn_status sn_system_contact_entry(const sn_system* s, int i, sn_contact* out);

// ---- systems: state ----

/// The model the system was added with (the world does not own it); NULL for a NULL s.
SN_API const sn_model* sn_system_model(const sn_system* s);
/// The system's data: state, kinematics of the last integrate1 or state change, workspaces.
SN_API sn_data* sn_system_data(sn_system* s);
/// setState: q (nq) and u (nv). Sizes and finiteness are checked (SN_ERR_ARG, SN_ERR_NONFINITE);
/// a non-unit quaternion is normalized with a warning, without overflow or underflow
/// ((1e200, 1e200, 0, 0) is (0.707, 0.707, 0, 0), (1e-170, 0, 0, 0) is (1, 0, 0, 0)); a zero one
/// is SN_ERR_ARG. On error nothing
/// changes. Resets the "has been in contact" flag of the scheme rules.
SN_API sn_status sn_system_set_state(sn_system* s, const sn_real* q, int nq, const sn_real* u,
                                     int nv);
/// setGeneralizedCoordinate (nq), as sn_system_set_state.
SN_API sn_status sn_system_set_q(sn_system* s, const sn_real* q, int nq);
/// Seed 000's "has been in contact" flag: 1 once a contact of the system entered a step's
/// solver (it turns the EULER and RK4 schemes into SEMI_IMPLICIT in the PD mode), 0 again after
/// sn_system_set_state, sn_system_set_q or an applied inverse-kinematics solution (sn_ik.h).
SN_API int sn_system_has_contacted(const sn_system* s);
/// setGeneralizedVelocity (nv).
SN_API sn_status sn_system_set_u(sn_system* s, const sn_real* u, int nv);
/// q (nq) and u (nv) of the system; NULL for a NULL s (sn_last_error says so).
SN_API const sn_real* sn_system_q(const sn_system* s);
SN_API const sn_real* sn_system_u(const sn_system* s);

/// Bring the kinematics of the system's data (sn_fk, then sn_fk_vel: body poses, velocities,
/// motion subspaces) up to date with its state when a state change or a step left them stale;
/// does nothing when they are current. For the frame and point queries of sn_data.h on
/// sn_system_data (sn_frame_pose, sn_frame_jacobian...). SN_ERR_ARG for a NULL s.
SN_API sn_status sn_system_kinematics(sn_system* s);
/// getMassMatrix (with rotor inertia), getNonlinearities (world gravity), getInverseMassMatrix
/// at the current state, computed when first asked after a state change. nv x nv, row-major.
/// NULL (the arrays) and NaN (the energies) for a NULL s, with sn_last_error.
SN_API const sn_real* sn_system_mass_matrix(sn_system* s);
SN_API const sn_real* sn_system_nonlinear(sn_system* s);
SN_API const sn_real* sn_system_inverse_mass(sn_system* s);
SN_API sn_real sn_system_kinetic_energy(sn_system* s);
SN_API sn_real sn_system_potential_energy(sn_system* s);

// ---- systems: control ----

/// setControlMode: FORCE_AND_TORQUE (feedforward forces only) or PD_PLUS_FEEDFORWARD (seed 000
/// step 3). Setting PD gains switches to the latter.
SN_API sn_status sn_system_set_control_mode(sn_system* s, sn_control_mode mode);
SN_API sn_control_mode sn_system_control_mode(const sn_system* s);
/// setPdGains (nv each, finite, >= 0). The six gains of a floating base are forced to zero.
/// Switches the mode to SN_CONTROL_PD_PLUS_FEEDFORWARD.
SN_API sn_status sn_system_set_pd_gains(sn_system* s, const sn_real* kp, const sn_real* kd, int nv);
/// setPdTarget: position target (nq; quaternions as quaternions) and velocity target (nv).
SN_API sn_status sn_system_set_pd_target(sn_system* s, const sn_real* q_ref, int nq,
                                         const sn_real* u_ref, int nv);
/// setGeneralizedForce: tau_ff (nv). It stays applied until changed.
SN_API sn_status sn_system_set_generalized_force(sn_system* s, const sn_real* tau, int nv);
/// setActuationLimits: tau_cmd is clamped to [lower, upper] per DOF (nv each; +-inf: none).
/// The default is the URDF effort limit.
SN_API sn_status sn_system_set_actuation_limits(sn_system* s, const sn_real* lower,
                                                const sn_real* upper, int nv);
/// getGeneralizedForce: tau_cmd + tau_act at the current state, the PD term with the position
/// error of the last step and the current velocity (seed 000). out has nv entries.
SN_API sn_status sn_system_generalized_force(sn_system* s, sn_real* out, int nv);
/// setJointDamping: b_joint (nv, >= 0). The default is the URDF damping.
SN_API sn_status sn_system_set_joint_damping(sn_system* s, const sn_real* b, int nv);
/// addSpring: a spring of stiffness k (>= 0) and rest position q_s on the 1-DOF joint `joint`
/// (springs on the same joint add up; the URDF <dynamics stiffness spring_mount> is one).
SN_API sn_status sn_system_add_spring(sn_system* s, int joint, sn_real k, sn_real rest);
/// getSprings: total stiffness and stiffness-weighted rest position per DOF (nv each).
SN_API void sn_system_springs(const sn_system* s, sn_real* stiffness, sn_real* rest);
/// The joint springs' potential energy, 1/2 k (q - rest) squared summed over the DOFs with the
/// totals of sn_system_springs (zero where each DOF's springs balance; several springs on one
/// joint differ from the sum of their own energies by a constant). Not part of
/// sn_system_potential_energy, which is gravity's (getPotentialEnergy).
SN_API sn_real sn_system_spring_energy(const sn_system* s);

/// setExternalForce: a world force on `body` at a point given in the body frame. Applied during
/// the next step only, then cleared (call it again before every step to keep it).
SN_API sn_status sn_system_set_external_force(sn_system* s, int body, const sn_real point[3],
                                              const sn_real force[3]);
/// setExternalTorque: a world torque on `body`, for the next step only.
SN_API sn_status sn_system_set_external_torque(sn_system* s, int body, const sn_real torque[3]);
/// setConstraintForce: as setExternalForce (a force the user's own constraint applies), next step
/// only; kept apart so that inverse dynamics can report it separately later.
SN_API sn_status sn_system_set_constraint_force(sn_system* s, int body, const sn_real point[3],
                                                const sn_real force[3]);

// ---- systems: actuators ----

/// Add an actuator; *id (nullable) receives its index. Checked: joint with 1 DOF, positive gear,
/// non-negative constants, resistance > 0 and kv > 0 when kt > 0.
SN_API sn_status sn_system_add_actuator(sn_system* s, const sn_actuator_desc* a, int* id);
SN_API int sn_system_actuator_count(const sn_system* s);
/// setActuatorTorques: tau_a of every actuator (n = the actuator count), joint side.
SN_API sn_status sn_system_set_actuator_torques(sn_system* s, const sn_real* tau, int n);
/// setActuatorTorque: tau_a of actuator i alone (the others keep theirs), as the vector form.
/// SN_ERR_ARG for i outside 0 to the actuator count - 1, SN_ERR_NONFINITE for a NaN or infinite
/// tau; on error nothing changes.
SN_API sn_status sn_system_set_actuator_torque(sn_system* s, int i, sn_real tau);
/// setMotorOperatingRegionEnforced(false): tau_m = tau_a / G.
SN_API void sn_system_set_motor_region_enforced(sn_system* s, int enforced);
/// getActuatorStates of the last step (n = the actuator count).
SN_API sn_status sn_system_actuator_states(const sn_system* s, sn_actuator_state* out, int n);

// ---- systems: tendons (MJCF <tendon>; docs/constraints.md "Tendons") ----

/// Tendons of the system's model (m->ntendon).
SN_API int sn_system_tendon_count(const sn_system* s);
/// Length of tendon t at the system's state (fixed: sum coef q; spatial: the path through its
/// sites). SN_ERR_ARG when t is out of range or length is NULL.
SN_API sn_status sn_system_tendon_length(sn_system* s, int t, sn_real* length);
/// Rate of change of tendon t's length at the system's state: J u.
SN_API sn_status sn_system_tendon_velocity(sn_system* s, int t, sn_real* velocity);
/// Jacobian of tendon t's length (1 x nv) at the system's state: L-dot = J u.
SN_API sn_status sn_system_tendon_jacobian(sn_system* s, int t, sn_real* J, int nv);
/// Force along tendon t in the last step: spring -k (L - L0), damper -b L-dot and gear times the
/// force of each actuator on it (its limit's impulses are contact-solver rows, not included).
/// Taken at the step's start state, except under SN_SCHEME_RK4, where it is the fourth stage's
/// (the start advanced a full step along the third stage's slope), as the actuator states are.
SN_API sn_status sn_system_tendon_force(sn_system* s, int t, sn_real* force);
/// Potential energy of the tendons' springs at the system's state: sum of k/2 (L - L0)^2 (the
/// joints' springs are sn_system_spring_energy's).
SN_API sn_real sn_system_tendon_spring_energy(sn_system* s);
/// Control inputs of the actuators on tendons (n = m->ntactuator, in file order), held until set
/// again; clamped to each actuator's ctrlrange when it is limited. SN_ERR_NONFINITE on NaN.
SN_API sn_status sn_system_set_tendon_controls(sn_system* s, const sn_real* ctrl, int n);

// ---- systems: integration and inverse dynamics ----

/// The integration scheme asked for (SEMI_IMPLICIT by default); the step may replace it by the
/// rules of seed 000 (see sn_system_scheme_used).
SN_API sn_status sn_system_set_scheme(sn_system* s, sn_scheme scheme);
SN_API sn_scheme sn_system_scheme(const sn_system* s);
/// The scheme the last step used after the replacement rules of seed 000.
SN_API sn_scheme sn_system_scheme_used(const sn_system* s);
/// The gyroscopic couple g_b = w_b x (I_b w_b) of the bodies on spherical and floating joints
/// (I_b about a spherical joint's anchor or a floating body's centre of mass, world axes):
/// SN_GYROSCOPIC_EXPLICIT (the default) takes it in h at the step's start, as seed 000 does;
/// under SEMI_IMPLICIT a fast spin then grows its wobble by sqrt(1 + (dt W)^2) per step (W the
/// gyroscopic frequency, about the spin for an unequal inertia) until the step fails with
/// SN_ERR_NONFINITE, and the step warns once per system (sn_world_last_warning, naming the body and
/// this option) when dt W exceeds 0.03. SN_GYROSCOPIC_MIDPOINT takes it as w_mid x (I_b w_mid),
/// w_mid the mean of the step's start and end angular velocities (the implicit midpoint rule): it
/// does no work, so a torque-free body keeps its kinetic energy and |L| to rounding, and a top
/// spinning at 200 rad/s precesses at dt 1 ms (docs/step.md). It applies under SEMI_IMPLICIT only
/// (TRAPEZOID, EULER and RUNGE_KUTTA_4 take the couple in h as they do; the setting is kept). The
/// contact solver and the loops act after it through M~ as in every step; the last step's impulses
/// are coupled as a known force. Cost with k such bodies: M~ factored every step (as contacts do),
/// 3k solves with its factor and a few 3k x 3k LU factorizations; no allocation. Couples of other
/// bodies (a flywheel on a revolute joint) stay explicit. SN_ERR_ARG for an unknown value.
SN_API sn_status sn_system_set_gyroscopic(sn_system* s, sn_gyroscopic mode);
SN_API sn_gyroscopic sn_system_gyroscopic(const sn_system* s);
/// A rotor spinning on the 1-DOF joint of DOF `dof` (beyond seed 000; off until set): a motor's
/// rotor of spin inertia `spin_inertia` (kg m^2, about its own axis) geared to the joint by
/// `gear_ratio`, carried by the joint's parent body (the stator is on the parent link) and spinning
/// about the joint axis a (world axes) at gear_ratio * u_dof, so its spin momentum is
/// H = spin_inertia * gear_ratio * u_dof * a. A prismatic joint's rotor drives a screw along its
/// axis: a is the direction of travel and gear_ratio is in rad/m (2 pi / lead). Its couple on the
/// parent, H x w_parent, enters the step as the skew matrix G = sum S_p^T [H]x S_p (S_p the
/// parent's angular Jacobian rows) by seed 002's Cayley step (M - dt/2 G) u' = (M + dt/2 G) u,
/// which does no work; u' - u is added to the free velocity (docs/step.md "Spinning rotors"). The
/// reflected inertia spin_inertia * gear_ratio^2 on the mass-matrix diagonal is NOT added here: it
/// is the model's armature (URDF <dynamics rotor_inertia>, MJCF armature), which the user sets as
/// well; the two are separate and neither counts the other. spin_inertia 0 removes the rotor (a
/// system without rotors steps bit for bit as seed 000's). Refused (SN_ERR_ARG or
/// SN_ERR_NONFINITE, with sn_world_last_error naming the argument): dof out of range, a DOF of a
/// spherical or floating joint, spin_inertia NaN, infinite or negative, gear_ratio NaN, infinite
/// or 0 (with spin_inertia > 0; a negative ratio is a reversing gear), a system whose scheme is not
/// SN_SCHEME_SEMI_IMPLICIT (sn_system_set_scheme then refuses other schemes while a rotor is set),
/// a world with soft contacts; SN_ERR_NOMEM. The first rotor allocates the Cayley step's scratch
/// (2 nv^2 + 3 nv numbers); the step allocates nothing. Cost per step: CRBA and an nv x nv LU.
SN_API sn_status sn_system_set_rotor(sn_system* s, int dof, sn_real spin_inertia,
                                     sn_real gear_ratio);
/// The rotor of DOF `dof`: its spin inertia and gear ratio (0 and 0 when none); NULL skips one.
/// SN_ERR_ARG for a dof out of range.
SN_API sn_status sn_system_rotor(const sn_system* s, int dof, sn_real* spin_inertia,
                                 sn_real* gear_ratio);
/// setComputeInverseDynamics: after each step, the force and torque at every joint.
SN_API void sn_system_set_compute_inverse_dynamics(sn_system* s, int on);
/// getForceAtJointInWorldFrame / getTorqueAtJointInWorldFrame of the last step for the URDF joint
/// `ujoint` (torque about the joint origin): the inverse dynamics at the step's start state with
/// u-dot = (u+ - u) / dt and the step's external forces. SN_ERR_ARG unless inverse dynamics is
/// on and a step has run.
SN_API sn_status sn_system_joint_wrench(sn_system* s, int ujoint, sn_real force[3],
                                        sn_real torque[3]);
/// The applied joint torque of the last step, term by term (seed 000 step 5 table), nv each:
/// feedforward and PD, damping, actuators, springs, external forces. NULL skips a term. After a
/// RUNGE_KUTTA_4 step: the weighted means of the four stages' (explicit) terms.
SN_API sn_status sn_system_step_torques(const sn_system* s, sn_real* pd, sn_real* damping,
                                        sn_real* actuators, sn_real* springs, sn_real* external);
/// The rest of the step-5 table, nv each (NULL skips a term): the joint friction lambda_f / dt
/// (the friction rows' impulses), the contacts and joint limits (the rest of J_c^T lambda_c / dt:
/// contacts, position and velocity limits, tendon limits, constraints between systems) and the
/// loop constraints' J_l^T lambda_l / dt (seed 001). After a SEMI_IMPLICIT step the eight terms
/// of the table sum to M (u+ - u) / dt + h at the step's start to rounding. Zero where the last
/// step had no such rows (and after a checkpoint load until the next step); soft contacts are
/// not in them.
SN_API sn_status sn_system_step_constraint_torques(const sn_system* s, sn_real* friction,
                                                   sn_real* contacts, sn_real* loops);

#ifdef __cplusplus
}
#endif
#endif
