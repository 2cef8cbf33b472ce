// SPDX-License-Identifier: Apache-2.0
// sn_data.h: the mutable state and workspaces of one model, and the rigid-body algorithms.
//
// All spatial quantities are in the world frame and taken about the world origin, angular part
// first: a motion (w, v0) is the angular velocity and the velocity of the body point that is at
// the world origin; a force (n0, f) is the moment about the world origin and the force.
// Every algorithm is a function of (const sn_model*, sn_data*); none allocates. A NULL m or d, a
// frame, body or joint out of range, a NaN dt are refused (docs/contracts.md): SN_ERR_ARG, or
// for a function that returns nothing its outputs filled with NaN, the reason in sn_last_error.
// Stages:
//   sn_fk        positions: body poses, DOF motion subspaces, world inertias
//   sn_fk_vel    velocities: body spatial velocities           (after sn_fk)
//   sn_crba      mass matrix M with rotor inertia               (after sn_fk)
//   sn_nonlinear h(q, u) = gravity + Coriolis + centrifugal     (after sn_fk_vel)
//   sn_aba       forward dynamics                               (after sn_fk_vel)
//   sn_factor_mass / sn_solve_mass                             (after sn_crba)
//   sn_inverse_mass  M^-1, from M's factor or by ABA's sweeps   (after sn_fk)
#ifndef SN_DATA_H
#define SN_DATA_H

#include "sn_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Options of sn_data_create. A zeroed struct means defaults.
typedef struct sn_data_opts {
    const sn_allocator* allocator; ///< NULL: libc
    size_t max_bytes;              ///< 0: 4 GiB
} sn_data_opts;

/// State, results and workspaces of one model. One data per thread. Fields are written by the
/// stage named in their comment; shapes in parentheses; matrices row-major.
typedef struct sn_data {
    // ---- state ----
    sn_real* q;         ///< generalized coordinates                            (nq)
    sn_real* u;         ///< generalized velocities                             (nv)
    sn_real gravity[3]; ///< gravity, default (0, 0, -9.81)

    // ---- position stage: sn_fk ----
    sn_real* body_pos;         ///< body origin, world                                 (nbody x 3)
    sn_real* body_rot;         ///< body rotation, world <- body                       (nbody x 9)
    sn_real* body_com;         ///< centre of mass, world                              (nbody x 3)
    sn_real* dof_motion;       ///< motion subspace column of each DOF: (w, v0)         (nv x 6)
    sn_real* body_rbi;         ///< body inertia at the world origin: m, m*c (3),
                               ///< inertia about the origin xx yy zz xy xz yz      (nbody x 10)
    sn_real* body_inertia_com; ///< inertia about the centre of mass, world axes:
                               ///< xx yy zz xy xz yz                                 (nbody x 6)
    sn_real* joint_anchor;     ///< joint frame origin, world                          (njoint x 3)
    int fk_valid;              ///< 1 after sn_fk until q changes through the API

    // ---- velocity stage: sn_fk_vel ----
    sn_real* body_vel;  ///< spatial velocity (w, v0)                           (nbody x 6)
    sn_real* dof_bias;  ///< velocity-product acceleration of each body's joint  (nbody x 6)
    sn_real* body_bias; ///< velocity-product force v x* (I v) of each body      (nbody x 6)

    // ---- dynamics ----
    sn_real* mass_matrix; ///< M with rotor inertia (sn_crba)                     (nv x nv)
    sn_real* nonlinear;   ///< h(q, u) (sn_nonlinear)                             (nv)
    sn_real* mass_factor; ///< L^T D L factor of M in the tree's sparsity (sn_factor_mass) (nv x nv)
    sn_real* mass_factor_d; ///< the diagonal D                                     (nv)
    sn_real* inverse_mass;  ///< M^-1 (sn_inverse_mass)                             (nv x nv)
    /// accelerations of the last sn_aba (after a world's step: its free acceleration,
    /// (M + diag w)^-1 (tau_exp - h), before impulses)                          (nv)
    sn_real* udot;
    sn_real* body_acc;   ///< spatial acceleration (sn_fk_acc), gravity excluded  (nbody x 6)
    sn_real* body_force; ///< force transmitted by the joint into the body (sn_rnea) (nbody x 6)
    sn_real*
        ujoint_wrench; ///< force (3) and torque about the joint origin (3), world,
                       ///< transmitted from parent to child (sn_inverse_dynamics) (nujoint x 6)

    // ---- workspaces (private) ----
    sn_real* ws_inertia;    ///< body spatial inertia at the world origin, 6x6    (nbody x 36)
    sn_real* ws_art;        ///< articulated inertias                               (nbody x 36)
    sn_real* ws_bias;       ///< articulated bias forces                            (nbody x 6)
    sn_real* ws_acc;        ///< accelerations with gravity (RNEA, ABA)             (nbody x 6)
    sn_real* ws_u;          ///< U = IA S per DOF                                   (nv x 6)
    sn_real* ws_dinv;       ///< D^-1 per joint, at most 6x6                        (njoint x 36)
    sn_real* ws_vec;        ///< scratch vectors                                    (4 x nv)
    sn_real* ws_frame;      ///< per-frame wrench scratch                            (nframe x 6)
    int* frame_rank;        ///< position of each frame in m->frame_order (set at creation) (nframe)
    int* frame_subtree_end; ///< one past the last frame_order position of its subtree  (nframe)
    int* joint_axis_kind;   ///< per joint: 0/1/2 axis is +-x/y/z, -1 general; +4 when the
                            ///< joint frame is not rotated (set at creation)       (njoint)
    int* body_depth;   ///< bodies from the world to it, itself included (set at creation) (nbody)
    int* body_dof_end; ///< one past the last DOF of its subtree (set at creation) (nbody)
    int minv_aba;      ///< sn_inverse_mass's route: 1 ABA's sweeps, 0 M's tree factor (set at
                       ///< creation: the cheaper by their operation counts, data.c)
    sn_real* ws_minv;  ///< sn_inverse_mass's forces and accelerations, a 6 x nv slot per
                       ///< body depth                     (6 x nv x (max body depth + 1))

    // ---- private ----
    const sn_model* model_;
    size_t size_;
    sn_allocator allocator_;
} sn_data;

/// Create the data of a model: q = zero configuration, u = 0, default gravity. One allocation,
/// whose size grows with nv^2 (the dense matrices); above opts->max_bytes (default 4 GiB) the
/// call fails with SN_ERR_LIMIT instead of asking the allocator.
SN_API sn_status sn_data_create(const sn_model* m, const sn_data_opts* opts, sn_data** out,
                                sn_error* err);
/// Free a data. NULL is a no-op.
SN_API void sn_data_destroy(sn_data* d);
/// Back to the zero configuration, u = 0, default gravity.
SN_API void sn_data_reset(const sn_model* m, sn_data* d);

/// Set q (nq entries, which must equal m->nq) and u (nv entries, m->nv; u NULL leaves u and nv
/// is ignored). Checks the sizes (SN_ERR_ARG), finiteness (SN_ERR_NONFINITE), and that d was
/// created for m (SN_ERR_ARG); normalizes quaternions (a zero quaternion is SN_ERR_ARG; one whose
/// norm is within 8 DBL_EPSILON of 1 is kept bit for bit, so a state read and set again repeats
/// exactly). On any error the state is left as it was. Invalidates the computed stages.
SN_API sn_status sn_set_state(const sn_model* m, sn_data* d, const sn_real* q, int nq,
                              const sn_real* u, int nv);

// ---- kinematics ----
// The algorithms below return SN_ERR_ARG (and do nothing) when m or d is NULL or d was created
// for another model; otherwise SN_OK unless stated.

/// Forward kinematics of positions: body poses, motion subspaces, world inertias. O(nbody).
SN_API sn_status sn_fk(const sn_model* m, sn_data* d);
/// Body spatial velocities and velocity-product terms. O(nbody). Requires sn_fk.
SN_API sn_status sn_fk_vel(const sn_model* m, sn_data* d);
/// The kinematics alone, for pose and velocity queries: body poses, joint anchors, motion
/// subspaces and body velocities (what sn_fk then sn_fk_vel give there, bit for bit), without the
/// world inertias and velocity-product terms the dynamics need. O(nbody). After it the dynamics
/// algorithms need sn_fk (and sn_fk_vel) again.
SN_API sn_status sn_fk_motion(const sn_model* m, sn_data* d);
/// Body spatial accelerations for the given u-dot (NULL: zero), without gravity. Requires fk_vel.
SN_API sn_status sn_fk_acc(const sn_model* m, sn_data* d, const sn_real* udot);

/// World pose of a frame (link): position (3) and rotation world <- link (9). Requires sn_fk.
/// A frame outside 0 to nframe - 1 (or a NULL m or d) is refused: pos and rot (each nullable)
/// are filled with NaN, the reason in sn_last_error.
SN_API void sn_frame_pose(const sn_model* m, const sn_data* d, int frame, sn_real pos[3],
                          sn_real rot[9]);
/// Linear velocity of the frame origin and angular velocity, world. Requires sn_fk_vel.
SN_API void sn_frame_velocity(const sn_model* m, const sn_data* d, int frame, sn_real lin[3],
                              sn_real ang[3]);
/// Classical linear acceleration of the frame origin and angular acceleration, world, from the
/// body accelerations of the last sn_fk_acc or sn_rnea. Requires sn_fk_vel.
SN_API void sn_frame_acceleration(const sn_model* m, const sn_data* d, int frame, sn_real lin[3],
                                  sn_real ang[3]);

/// Jacobians of the material point of `body` now at world point `point`: jp (3 x nv) maps u to
/// its world velocity, jr (3 x nv) to the body's world angular velocity. Either may be NULL.
/// Requires sn_fk. O(depth).
SN_API void sn_point_jacobian(const sn_model* m, const sn_data* d, int body, const sn_real point[3],
                              sn_real* jp, sn_real* jr);
/// Jacobians of a frame's origin (jp) and orientation (jr), 3 x nv each, world.
SN_API void sn_frame_jacobian(const sn_model* m, const sn_data* d, int frame, sn_real* jp,
                              sn_real* jr);
/// J-dot times u for the point of `body` at `point`: the point's acceleration at u-dot = 0 without
/// gravity (lin) and the body's angular acceleration at u-dot = 0 (ang). Requires sn_fk_vel.
SN_API void sn_point_jdot_u(const sn_model* m, const sn_data* d, int body, const sn_real point[3],
                            sn_real lin[3], sn_real ang[3]);

// ---- dynamics ----

/// Mass matrix by CRBA, rotor inertia on the diagonal, into d->mass_matrix. O(nv * depth).
SN_API sn_status sn_crba(const sn_model* m, sn_data* d);
/// Nonlinear term h(q, u) with d->gravity, into d->nonlinear, by RNEA. Requires sn_fk_vel.
SN_API sn_status sn_nonlinear(const sn_model* m, sn_data* d);
/// RNEA: tau = M udot + h (udot NULL: zero) with d->gravity; writes body_acc and body_force.
/// Rotor inertia is included (tau_i += armature_i * udot_i). Requires sn_fk_vel.
SN_API sn_status sn_rnea(const sn_model* m, sn_data* d, const sn_real* udot, sn_real* tau);
/// Forward dynamics by ABA: udot = M^-1 (tau - h) (tau NULL: zero), into d->udot and `udot`
/// (nullable). Includes rotor inertia. Requires sn_fk_vel. O(nbody).
SN_API sn_status sn_aba(const sn_model* m, sn_data* d, const sn_real* tau, sn_real* udot);
/// Factor M = L^T D L in the sparsity of the tree. Requires sn_crba. O(nv * depth^2).
SN_API sn_status sn_factor_mass(const sn_model* m, sn_data* d);
/// x <- M^-1 x with the factor. O(nv * depth).
SN_API void sn_solve_mass(const sn_model* m, const sn_data* d, sn_real* x);
/// d->inverse_mass = M^-1 (rotor inertia included). Requires sn_fk only. Two routes, chosen when
/// the data is made: on small trees CRBA and M's tree factor (it fills d->mass_matrix and
/// d->mass_factor too), above 24 DOFs ABA's sweeps on the identity, O(nv^2) without M or its
/// factor (leaves them as they were). docs/benchmarks.md, "M^-1".
SN_API sn_status sn_inverse_mass(const sn_model* m, sn_data* d);

/// Inverse dynamics: tau = M udot + h and the force and torque transmitted at every URDF joint,
/// world frame (d->ujoint_wrench; torque about the joint origin). Requires sn_fk_vel.
SN_API sn_status sn_inverse_dynamics(const sn_model* m, sn_data* d, const sn_real* udot,
                                     sn_real* tau);
/// Force (3) and torque (3) of the last sn_inverse_dynamics at URDF joint `ujoint`, world.
SN_API void sn_joint_wrench_world(const sn_model* m, const sn_data* d, int ujoint, sn_real force[3],
                                  sn_real torque[3]);

// ---- configuration space ----

/// q_out = q (+) dt * u: 1-DOF joints add dt * u; a floating base moves its position with the
/// world linear velocity and turns its quaternion by exp(dt * w_world) * quat; a spherical joint
/// turns by exp(dt * w_joint) * quat (angular velocity in the parent-fixed joint frame).
/// Quaternions are renormalized. q_out may alias q. O(nq).
SN_API void sn_integrate_q(const sn_model* m, const sn_real* q, const sn_real* u, sn_real dt,
                           sn_real* q_out);

// ---- energy and momentum ----

/// 1/2 u^T M u with M including the rotor inertia (from body velocities). Requires sn_fk_vel.
SN_API sn_real sn_kinetic_energy(const sn_model* m, const sn_data* d);
/// -sum m_i g . c_i (= sum m g z for g = (0,0,-g)) over every body, the links welded to the
/// world included. Requires sn_fk.
SN_API sn_real sn_potential_energy(const sn_model* m, const sn_data* d);
/// Centre of mass of the whole system (links welded to the world included), world; returns the
/// total mass. Requires sn_fk.
SN_API sn_real sn_com(const sn_model* m, const sn_data* d, sn_real com[3]);
/// Linear momentum and angular momentum about the world origin. Requires sn_fk_vel.
SN_API void sn_momentum(const sn_model* m, const sn_data* d, sn_real lin[3], sn_real ang[3]);

#ifdef __cplusplus
}
#endif
#endif
