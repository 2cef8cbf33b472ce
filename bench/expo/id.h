// SPDX-License-Identifier: Apache-2.0
// id.h: the controller of solo-squat and romeo-walk: inverse dynamics along a joint-space
// reference derived from the data, on sinew's own dynamics. The simpler controller the issue
// allows in place of TSID's task-space QP (docs/expo.md, "The paper's scenarios", states the
// differences).
//
// 1. The reference. On a grid of times (1 ms for the squat, the data's 2 ms for the walk), a
//    weighted Gauss-Newton inverse kinematics finds q_r(t) that puts the centre of mass on its
//    reference c(t), the feet (Solo12: the FOOT frames' positions; Romeo: the ankle frames'
//    positions and orientations) on theirs, the base orientation on its initial one, and the
//    joints near the initial posture (a small weight); v_r(t) solves the same least squares for
//    the task velocities (c'(t), the feet's velocities, 0); a_r(t) is the central difference of
//    v_r on the grid. Each sample starts from the previous one.
// 2. The law. a* = a_r + kp (q_r (-) q) + kd (v_r - v) (sinew's coordinates: base position and
//    world rotation vector, joints), b = M a* + h (RNEA); the contact forces f of the active
//    contact points are the least-norm solution of the six base rows, J_base^T f = b_base; then
//    tau = b - J^T f, whose base rows are zero. No friction cone, no unilaterality, no torque
//    bound: TSID's QP has them (and a contact-consistent acceleration); this does not.
#ifndef EXPO_ID_H
#define EXPO_ID_H

#include "controller.h"

#define EXPO_ID_MAX_CONTACTS 8

typedef struct expo_id expo_id;

/// The squat: c(t) = c0 + (0, 0, amp) sin(w t) from q0 (Pinocchio's coordinates, NOTES.md),
/// amp 0.03 m, w 2 rad/s, the feet held, kp 2 (TSID's kp_com and kp_posture), kd 2 sqrt(kp);
/// `duration` seconds of reference (the grid ends there, then holds).
expo_id* expo_id_create_squat(const expo_robot* r, const double* q0_pin, double duration,
                              char err[EXPO_ERR_LEN]);
/// The walk from romeo_walking_traj_tsid.npz: CoM and ankle positions (shifted by the offset of
/// the right ankle at q0 from x_RF[:, 0]), ankle orientations and the waist's held at q0's,
/// contacts on the support foot of contact_phase (4 points on its ankle frame: x in {-0.05,
/// 0.10}, y in {-0.05, 0.05}, z = -0.07), then t_post seconds standing on both feet at the last
/// sample; kp 10 (TSID's), kd 2 sqrt(kp).
expo_id* expo_id_create_walk(const expo_robot* r, const char* npz_path, const double* q0_pin,
                             double t_post, char err[EXPO_ERR_LEN]);
/// The controller interface (controller.h); destroy it with expo_controller_destroy.
expo_controller* expo_id_controller(expo_id* c);

/// The reference at time t in sinew's coordinates (any output nullable); returns the number of
/// contact points active then and writes their bodies and world points (at q_r(t)).
int expo_id_reference(const expo_id* c, double t, double* q, double* v, double* a);
/// After a torque call: the contact forces found (3 per active point, world) and their count.
int expo_id_last_forces(const expo_id* c, double* f);
/// The worst task residual of the inverse kinematics over the grid (m or rad).
double expo_id_ik_residual(const expo_id* c);
/// Times of the grid and its step.
double expo_id_duration(const expo_id* c);

#endif
