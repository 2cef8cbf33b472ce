// SPDX-License-Identifier: Apache-2.0
// sn_arm.h: the dynamic arm component of seed 002 (docs/arm.md): a fixed-base serial chain with
// named inputs, parameters and states, stepped by its own equations. No world, no contacts.
//
// The step, in the seed's order (dt the step, theta the joint positions, theta-dot the
// velocities; every matrix n x n for n joints):
//   Ms = M(theta_n; C0), Me = M(theta_n; C1)        mass matrix (CRBA) with the carried inertia
//   G  = sum_k S_k^T [H_k]x S_k                     the spin momenta's gyroscopic matrix (skew)
//   theta' = (Ms - dt/2 G)^-1 (Ms + dt/2 G) theta_n-dot          the Cayley step: does no work
//   A  = Me + dt D
//   theta* = A^-1 (Ms theta' + dt (u - h(theta_n, theta'; g, W, C0)))   h by RNEA
//   theta_n+1-dot = argmin_v 1/2 (v - theta*)^T A (v - theta*) + dt sum_j mu_j |v_j|
//                   subject to l <= theta_n + dt v <= h          (projected Gauss-Seidel)
//   theta_n+1 = min(max(theta_n + dt theta_n+1-dot, l), h)
//   P_k = O o FK_k(theta_n+1),  Omega_k = R(O) W_k(theta_n+1, theta_n+1-dot)
// S_k is the angular-velocity Jacobian of frame k (3 x n, world axes).
//
// Frames and conventions. Joint k (k = 1..n) and frame k: the chain starts at the placement O
// (the base frame, frame 0, in the world). Joint k's origin is at J_k in frame k-1; the joint
// turns (revolute) or slides (prismatic) along its axis a_k, given in frame k-1's axes; frame k
// is at K_k from joint k's origin, in the joint's moved axes, and is turned with it. So, with
// (p, R) frame k-1's pose, joint k at p + R J_k and frame k at (p + R J_k + R Rj K_k, R Rj),
// Rj = exp(theta_k [a_k]x) (a revolute joint; a prismatic one moves by theta_k a_k instead).
// Every link's inertia, its carried inertia C_k, its spin momentum H_k and the point where its
// wrench W_k acts belong to frame k. Arrays per link are in link order, k = 1..n.
#ifndef SN_ARM_H
#define SN_ARM_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sn_arm sn_arm;

/// One joint and the link it moves, in the seed's parameters.
typedef struct sn_arm_joint_desc {
    int type;           ///< SN_JOINT_REVOLUTE (0 is taken as revolute), _CONTINUOUS or _PRISMATIC
    sn_real axis[3];    ///< a_k: the axis in frame k-1's axes (normalized; not zero)
    sn_real origin[3];  ///< J_k: joint k's origin in frame k-1 (m)
    sn_real frame[3];   ///< K_k: frame k's origin from joint k, in the moved axes (m)
    sn_real mass;       ///< the link's mass (kg, >= 0; 0 only with a zero inertia, as in a
                        ///< URDF; each joint must move some mass)
    sn_real com[3];     ///< its centre of mass in frame k (m)
    sn_real inertia[6]; ///< its inertia about the centre of mass, frame k axes, xx xy xz yy yz zz
    sn_real armature;   ///< rotor inertia on the mass-matrix diagonal (kg m^2, seed 000's)
    sn_real damping;    ///< D_k: viscous damping (N m s; N s/m for a prismatic joint), >= 0
    sn_real friction;   ///< mu_k: Coulomb friction (N m; N), >= 0
    int limited;        ///< 1: lower and upper are the joint's stops; 0: none
    sn_real lower;      ///< l_k: the lower stop (rad or m; -INFINITY: none below)
    sn_real upper;      ///< h_k: the upper stop (INFINITY: none above), lower <= upper
} sn_arm_joint_desc;

/// The component's parameters.
typedef struct sn_arm_desc {
    int njoint;                      ///< n, 1..SN_ARM_MAX_JOINTS
    const sn_arm_joint_desc* joints; ///< n joints, base to tip
    sn_real placement_pos[3];        ///< O: the base frame's origin in the world (m)
    sn_real placement_rot[9];        ///< O: its rotation, world <- base, row-major (all 0: I)
    sn_real gravity[3];              ///< g, world axes (m/s^2); all 0 means zero gravity
    int sweeps;                      ///< SWEEPS of the projected Gauss-Seidel (0: 20)
} sn_arm_desc;

/// The most joints an arm may have.
#define SN_ARM_MAX_JOINTS 256

/// The inputs of one step; a NULL array is all zeros (C1 NULL: equal to C0).
typedef struct sn_arm_inputs {
    const sn_real* torques;  ///< u: joint torques (n; N m, or N for a prismatic joint)
    const sn_real* wrench;   ///< W: per link, force (3, N) then torque (3, N m) acting at frame
                             ///< k's origin, world axes (n x 6)
    const sn_real* momentum; ///< H: spin angular momentum carried by each link, in frame k's
                             ///< axes (n x 3; N m s): rotors, reaction wheels, spindles
    const sn_real* inertia0; ///< C0: inertia carried by each link at the step's start: mass
                             ///< (kg), centre of mass in frame k (3, m), inertia about it in frame
                             ///< k's axes (6: xx xy xz yy yz zz, kg m^2) (n x 10)
    const sn_real* inertia1; ///< C1: the same at the step's end (n x 10); NULL: C0
} sn_arm_inputs;

/// What the last step computed (pointers into the arm, valid until its next step).
typedef struct sn_arm_report {
    const sn_real* theta_prime; ///< theta': the velocity after the Cayley step (n)
    const sn_real* theta_star;  ///< theta*: the velocity before stops and friction (n)
    const sn_real* bias;        ///< h(theta_n, theta'; g, W, C0) (n)
    const sn_real* impulse;     ///< the stops' and friction's generalized impulses: A (v - theta*)
                                ///< (n; N m s)
    int sweeps;                 ///< sweeps run (a sweep that moves no velocity by more than
                                ///< 1e-15 (1 + |v_j|) ends them; 0 after an all-stick start)
    int stuck_start;            ///< 1: the sweeps started from the exact all-stick solution
    sn_real energy_star;        ///< 1/2 theta*^T A theta*
    sn_real energy_end;         ///< 1/2 v^T A v of the new velocity v (never above energy_star
                                ///< when theta_n is within the stops)
} sn_arm_report;

/// An arm from the seed's parameters (copied). At rest, each joint at 0 or, when 0 is outside its
/// stops, at the nearer stop. opts: allocator and log (NULL: defaults; timestep is not used).
/// Refused with a message naming the joint and field.
SN_API sn_status sn_arm_create(const sn_arm_desc* desc, const sn_world_opts* opts, sn_arm** out,
                               sn_error* err);
/// An arm from a model (a URDF or MJCF file's, sn_load): a fixed base and a serial chain of
/// revolute, continuous or prismatic joints (fixed joints merged; no loops, mimic joints or
/// tendons). Frame k is the child link of the k-th movable joint. D, mu, l, h and the armature
/// come from the model (URDF <dynamics damping friction>, <limit lower upper>); gravity
/// (0, 0, -9.81), placement the identity, SWEEPS 20. The model is referenced, not copied: it
/// must outlive the arm. desc may be NULL; if given, its njoint and joints must be 0 and NULL,
/// and its placement, gravity and sweeps are used (then all-zero gravity means zero gravity).
SN_API sn_status sn_arm_from_model(const sn_model* m, const sn_arm_desc* desc,
                                   const sn_world_opts* opts, sn_arm** out, sn_error* err);
SN_API void sn_arm_destroy(sn_arm* arm);
/// The last refusal's reason (never NULL).
SN_API const char* sn_arm_last_error(const sn_arm* arm);

/// Joints n (SN_NONE for NULL).
SN_API int sn_arm_joint_count(const sn_arm* arm);
/// The model the arm steps (its own for sn_arm_create; bodies 1..n, frames by sn_arm_frame_id).
SN_API const sn_model* sn_arm_model(const sn_arm* arm);
/// The model frame (URDF link) of arm frame k = 1..n; -1 when out of range.
SN_API int sn_arm_frame_id(const sn_arm* arm, int k);

/// One step of dt (s, finite, > 0 and at most 1) with the inputs (NULL: all zero). A refused
/// input or a failed step (SN_ERR_NONFINITE, SN_ERR_SINGULAR) leaves the state as it was.
SN_API sn_status sn_arm_step(sn_arm* arm, sn_real dt, const sn_arm_inputs* in);

// ---- states (arrays owned by the arm, valid while it lives) ----
/// theta (n).
SN_API const sn_real* sn_arm_q(const sn_arm* arm);
/// theta-dot (n).
SN_API const sn_real* sn_arm_qd(const sn_arm* arm);
/// P: frame k's origin in the world, k = 1..n (n x 3).
SN_API const sn_real* sn_arm_frame_pos(const sn_arm* arm);
/// P: frame k's rotation, world <- frame, row-major (n x 9).
SN_API const sn_real* sn_arm_frame_rot(const sn_arm* arm);
/// Omega: frame k's angular velocity, world axes (n x 3; rad/s).
SN_API const sn_real* sn_arm_frame_omega(const sn_arm* arm);
/// Set theta and theta-dot (either NULL: kept); each finite and theta within the stops, else
/// refused (state kept). The frames follow.
SN_API sn_status sn_arm_set_state(sn_arm* arm, const sn_real* q, int nq, const sn_real* qd,
                                  int nqd);

// ---- parameters (each validated; the state is kept) ----
/// g in the world (m/s^2).
SN_API sn_status sn_arm_set_gravity(sn_arm* arm, const sn_real g[3]);
SN_API void sn_arm_gravity(const sn_arm* arm, sn_real g[3]);
/// O: the base frame in the world (rot NULL: the identity; a rotation to 1e-9).
SN_API sn_status sn_arm_set_placement(sn_arm* arm, const sn_real pos[3], const sn_real rot[9]);
/// D (n, >= 0).
SN_API sn_status sn_arm_set_damping(sn_arm* arm, const sn_real* damping, int n);
/// mu (n, >= 0).
SN_API sn_status sn_arm_set_friction(sn_arm* arm, const sn_real* friction, int n);
/// l and h (n each, l <= h, -INFINITY / INFINITY: none); refused when theta is outside them.
SN_API sn_status sn_arm_set_stops(sn_arm* arm, const sn_real* lower, const sn_real* upper, int n);
/// SWEEPS (1..100000).
SN_API sn_status sn_arm_set_sweeps(sn_arm* arm, int sweeps);
/// The parameters now: D, mu, l, h (each n, nullable) and SWEEPS.
SN_API void sn_arm_params(const sn_arm* arm, sn_real* damping, sn_real* friction, sn_real* lower,
                          sn_real* upper, int* sweeps);

// ---- what the step used ----
/// The last step's intermediate results (zeros and NULL pointers before the first step and
/// after a failed one).
SN_API void sn_arm_report_get(const sn_arm* arm, sn_arm_report* r);
/// M(theta; C) at the current theta into M (n x n, row-major), C nullable (n x 10 as in
/// sn_arm_inputs). Does not change the state.
SN_API sn_status sn_arm_mass_matrix(sn_arm* arm, const sn_real* C, sn_real* M);
/// G = sum_k S_k^T [H_k]x S_k at the current theta into G (n x n), H as in sn_arm_inputs.
SN_API sn_status sn_arm_gyroscopic_matrix(sn_arm* arm, const sn_real* H, sn_real* G);
/// 1/2 theta-dot^T M(theta; C) theta-dot (J), C nullable; NaN for NULL.
SN_API sn_real sn_arm_kinetic_energy(sn_arm* arm, const sn_real* C);

#ifdef __cplusplus
}
#endif

#endif
