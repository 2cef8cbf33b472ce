// SPDX-License-Identifier: Apache-2.0
// sn_ik.h: inverse kinematics of a system (seed 000's solveIK; issue 16 item 2). Targets put
// frames (links) at world positions and orientations; the solver finds a configuration q that
// reaches them by damped least squares (Levenberg-Marquardt with an adaptive damping) in the
// velocity space, each step integrated onto q as the time step integrates (quaternions of
// floating and spherical joints stay unit). Joint position limits hold at every iterate (an
// active set); the loops (pins, equality and orientation constraints, mimic joints) stay closed:
// the task step lies in the null space of the loops' rows and each iterate is projected back onto
// them by Gauss-Newton steps. docs/ik.md gives the algorithm and its figures.
//
// The call leaves the system unchanged: it returns the solution in q_out and a report. The
// caller applies it with sn_system_set_q (or sn_system_set_state), which, like seed 000's applied
// solveIK() solution, resets the "has been in contact" flag (sn_system_has_contacted).
#ifndef SN_IK_H
#define SN_IK_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a target asks of its frame (bits of sn_ik_target.mask).
typedef enum sn_ik_mask {
    SN_IK_POSITION = 1, ///< the frame's origin at `position`
    SN_IK_ROTATION = 2, ///< the frame's rotation (world <- link) at `rotation`
} sn_ik_mask;

/// One target. Weights scale the target's rows in the least squares (0: 1); the tolerance of the
/// options applies to the unweighted errors.
typedef struct sn_ik_target {
    int frame;               ///< the link (a frame id of the model)
    int mask;                ///< SN_IK_POSITION | SN_IK_ROTATION (at least one)
    sn_real position[3];     ///< world position of the frame's origin (m)
    sn_real rotation[9];     ///< world <- link rotation, row-major (a proper rotation)
    sn_real position_weight; ///< weight of the three position rows (0: 1; 1/m)
    sn_real rotation_weight; ///< weight of the three rotation rows (0: 1; 1/rad)
} sn_ik_target;

/// Options; a zeroed struct means the defaults.
typedef struct sn_ik_opts {
    sn_real damping;            ///< the initial damping lambda (0: 1e-3), adapted each iteration
    sn_real tolerance;          ///< every target's position (m) and rotation (rad) error (0: 1e-10)
    sn_real loop_tolerance;     ///< the loops' largest row error (m, rad) (0: 1e-12)
    int max_iterations;         ///< 0: 500
    int ignore_limits;          ///< 1: joint position limits are not held (0: they are)
    int fix_base;               ///< 1: the floating joints' DOFs do not move
    const unsigned char* fixed; ///< nv flags: DOFs that do not move (NULL: none)
    const sn_real* start;       ///< the starting q (nq; NULL: the system's q)
} sn_ik_opts;

/// What the solve did.
typedef struct sn_ik_report {
    int iterations;         ///< least-squares steps tried (accepted or not)
    int converged;          ///< 1 when every target is within tolerance and the loops are closed
    sn_real position_error; ///< the largest position error over the targets at q_out (m)
    sn_real rotation_error; ///< the largest rotation error (angle, rad)
    sn_real loop_error;     ///< the loops' largest row error at q_out (m, rad; 0 without loops)
    sn_real damping;        ///< the damping lambda at the end
    int limited;            ///< DOFs at a position limit at q_out
} sn_ik_report;

/// solveIK: a configuration q_out (nq entries, nq = the model's) that puts the targets' frames at
/// their poses (ntarget >= 1). Returns SN_OK when every target is within opts->tolerance and the
/// loops within opts->loop_tolerance; SN_ERR_UNREACHED when not (out of reach, against limits or
/// fixed DOFs, or not converged in max_iterations): q_out is then the best configuration found
/// (limits held, loops closed as far as they close) and the report says how far it is. Refused
/// (SN_ERR_ARG, with a message naming the argument and the reason; q_out untouched): a frame id
/// out of range, a mask without a bit or with unknown bits, a non-finite position, a rotation
/// that is not one (|R^T R - I| or |det R - 1| above 1e-6), negative or non-finite weights or
/// options, a fixed DOF flag not 0 or 1. opts and report may be NULL. The system's state is left
/// as it was (its cached kinematics are recomputed when next asked); scratch is allocated with
/// the world's allocator and freed before the call returns (SN_ERR_NOMEM if it cannot be).
SN_API sn_status sn_system_solve_ik(sn_system* s, const sn_ik_target* targets, int ntarget,
                                    const sn_ik_opts* opts, sn_real* q_out, int nq,
                                    sn_ik_report* report);

/// The errors of the targets at configuration q (nq): position error (m) and rotation angle (rad)
/// of target i into errors[2 i], errors[2 i + 1] (0 for what the mask leaves out). The system's
/// state is left as it was. Refuses what sn_system_solve_ik refuses.
SN_API sn_status sn_system_ik_errors(sn_system* s, const sn_ik_target* targets, int ntarget,
                                     const sn_real* q, int nq, sn_real* errors);

#ifdef __cplusplus
}
#endif
#endif
