// SPDX-License-Identifier: Apache-2.0
// sn_loopid.h: inverse and forward dynamics of closed-loop systems at the acceleration level
// (issue 16 item 5; docs/loopid.md). With the loops' rows J (a slot for every direction each
// pin, equality and orientation constraint names, then the mimic joints, as sn_system_solve_ik
// counts them) and h the nonlinear force (Coriolis, centrifugal, gravity: sn_system_nonlinear):
//
//   M udot + h = tau + J^T lambda,   J udot = -Jdot u,   tau nonzero on the actuated DOFs only.
//
// The rows are the step's: a constraint whose named directions its joints or the constraints
// before it already hold (a planar loop's out-of-plane one, to 1e-3 of the rows' size, found at
// attachment: sn_system_constraint_directions) keeps only the others, in the first of its slots
// (directions fixed in body1), its other slots' rows zero and their lambda 0; a constraint that
// keeps every direction has its named rows (a pin's world axes, an equality's own axes).
//
// Inverse dynamics: given the accelerations of independent DOFs, the loops fix the others; tau
// is the least-squares (minimum-norm when the actuation is redundant) actuation and lambda the
// minimum-norm constraint forces that produce them. Forward dynamics: udot and lambda for a
// given tau. Joint damping, springs, friction, limits and contacts are not counted. The calls
// leave the system's state as it was.
#ifndef SN_LOOPID_H
#define SN_LOOPID_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a loop inverse- or forward-dynamics call found.
typedef struct sn_loop_id_report {
    int rows;               ///< the loops' rows (the length of lambda)
    int rank;               ///< the rank of J
    int mobility;           ///< nv - rank: the closed mechanism's degrees of freedom
    int actuation_rank;     ///< the actuation's rank on the closed mechanism (inverse dynamics)
    int redundancy;         ///< actuated DOFs beyond actuation_rank (> 0: minimum-norm tau)
    sn_real accel_residual; ///< |J udot + Jdot u| (rad/s^2, m/s^2): the loops' share not met
    sn_real force_residual; ///< |M udot + h - tau - J^T lambda| (N, N m): the forces not met
    sn_real jdot_u_norm;    ///< |Jdot u| (the loops' velocity product)
} sn_loop_id_report;

/// The number of the loops' rows (the length of lambda): 3 per pin and orientation constraint,
/// the named axes of each equality constraint, 1 per 1-DOF mimic joint. -1 if s is NULL.
SN_API int sn_system_loop_row_count(const sn_system* s);

/// Inverse dynamics of the closed mechanism at the current state. ind_dofs (n_ind distinct DOF
/// indices; NULL: the actuated DOFs, and n_ind their number) are the independent coordinates
/// with desired accelerations udot_ind (n_ind); the loops fix the other DOFs' accelerations.
/// act_dofs (n_act distinct DOF indices; NULL: every DOF of every joint but floating ones) carry
/// the torques. Outputs: tau_out (nv, zero off the actuated DOFs; sn_system_set_generalized_force
/// takes it as is), lambda_out (sn_system_loop_row_count entries; may be NULL), udot_out (nv; may
/// be NULL), report (may be NULL). Returns SN_OK when the accelerations are met (both residuals
/// within 1e-9 of their scale); SN_ERR_UNREACHED when the loops cannot take the desired
/// accelerations (too many independent DOFs, accel_residual) or the actuation cannot produce them
/// (underactuated, force_residual): the outputs are then the least-squares best;
/// SN_ERR_SINGULAR when the independent DOFs do not fix the mechanism (the minimum-norm udot is
/// returned). Refused (SN_ERR_ARG, message naming the argument): NULL s, tau_out or udot_ind,
/// sizes out of range, a DOF index out of range or repeated, non-finite udot_ind.
SN_API sn_status sn_system_loop_inverse_dynamics(sn_system* s, const int* ind_dofs, int n_ind,
                                                 const sn_real* udot_ind, const int* act_dofs,
                                                 int n_act, sn_real* tau_out, sn_real* lambda_out,
                                                 sn_real* udot_out, sn_loop_id_report* report);

/// Inverse dynamics as sn_system_loop_inverse_dynamics, actuated through the system's actuators
/// (the model's <actuator> elements, then those of sn_system_add_actuator, in their order):
/// command_out (nact entries, nact = sn_system_actuator_count) gets the joint-side commands
/// tau_a that sn_system_set_actuator_torques takes (the motor torque is tau_a / G), of least norm
/// where the actuators are redundant. Actuator a adds tau_a to its joint's DOF and
/// (r_c / G) tau_a to each coupled joint c's, as the step applies it; the motor operating region
/// (clipping), output damping and friction are not counted. ind_dofs NULL: the driven joints'
/// DOFs, each once, in the actuators' order (n_ind their number). tau_out (nv; may be NULL) gets
/// the generalized force of the commands; lambda_out, udot_out and report as
/// sn_system_loop_inverse_dynamics. Returns and refuses as it does (SN_ERR_UNREACHED names "the
/// actuators" when they cannot produce the accelerations), and SN_ERR_ARG for a NULL command_out or
/// nact not the actuator count.
SN_API sn_status sn_system_loop_inverse_dynamics_actuators(
    sn_system* s, const int* ind_dofs, int n_ind, const sn_real* udot_ind, sn_real* command_out,
    int nact, sn_real* tau_out, sn_real* lambda_out, sn_real* udot_out, sn_loop_id_report* report);

/// Forward dynamics of the closed mechanism at the current state: udot_out (nv) and lambda_out
/// (the rows' forces, minimum-norm where the rows are dependent; may be NULL) under the
/// generalized force tau (nv; NULL: zero), from the KKT system [M J^T; J 0] solved by least
/// squares. Refused (SN_ERR_ARG): NULL s or udot_out, nv not the model's, non-finite tau.
SN_API sn_status sn_system_loop_forward_dynamics(sn_system* s, const sn_real* tau, int nv,
                                                 sn_real* udot_out, sn_real* lambda_out,
                                                 sn_loop_id_report* report);

#ifdef __cplusplus
}
#endif
#endif
