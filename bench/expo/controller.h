// SPDX-License-Identifier: Apache-2.0
// controller.h: the controllers of the Expo paper's scenarios behind one interface. A controller
// reads the state in sinew's coordinates (q, u of sn_system_q / sn_system_u) and writes the
// generalized force tau (nv, sinew's order and frames; the six base entries 0).
//
// The linear feedback of solo-trot and solo-jump (consim's linear_feedback_controller.py, as
// ../shared/models/consim_expo/NOTES.md states it), in Pinocchio's coordinates:
//   tau = [0_6, u_ref[k] + K_k dx],  dx = [difference(q, q_ref(t)) (18), v_ref(t) - v (18)]
// k = floor(t / dt_ref) (held), q_ref(t) = interpolate(q_ref[k], q_ref[k+1], t / dt_ref - k)
// (the SE(3) geodesic for the base), v_ref(t) linear between v_ref[k] and v_ref[k+1]; past the
// last sample everything is held. The reference's base height is shifted by z_shift first (the
// scripts: trot -15.37e-3 m, jump -1e-6 m).
#ifndef EXPO_CONTROLLER_H
#define EXPO_CONTROLLER_H

#include "robot.h"

typedef struct expo_controller expo_controller;

/// The common interface: torque(t, q, u) -> tau, all in sinew's coordinates.
struct expo_controller {
    int (*torque)(expo_controller* c, double t, const double* q, const double* u, double* tau);
    void (*destroy)(expo_controller* c);
    const expo_robot* robot;
    char err[EXPO_ERR_LEN]; ///< the last failure
};

/// tau (robot->nv) at time t for the state (q, u); 0, or -1 with c->err set (tau then zero).
int expo_controller_torque(expo_controller* c, double t, const double* q, const double* u,
                           double* tau);
/// Free a controller. NULL is a no-op.
void expo_controller_destroy(expo_controller* c);

/// The linear feedback's data, read from REFDIR/MOTION_reference_states.npy,
/// MOTION_reference_controls.npy and MOTION_feedback.npy.
typedef struct expo_feedback {
    expo_controller base;
    int n;         ///< control samples N (states: N + 1)
    int nx;        ///< nq + nv of the robot (37 for Solo12)
    int nu;        ///< joint torques (12)
    double dt_ref; ///< 0.01 s
    double* x_ref; ///< reference states, Pinocchio's coordinates, z shifted   ((N + 1) x nx)
    double* u_ref; ///< feed-forward joint torques, Pinocchio's joint order     (N x nu)
    double* gain;  ///< K_k, row-major                                         (N x nu x (nx - 1))
    double* work;  ///< scratch                                                (4 nx)
} expo_feedback;

/// Read a motion ("trot", "jump") for robot r (which must outlive the controller). NULL with err
/// set on a missing or malformed file or shapes that do not fit the robot.
expo_feedback* expo_feedback_create(const expo_robot* r, const char* refdir, const char* motion,
                                    double dt_ref, double z_shift, char err[EXPO_ERR_LEN]);
/// The reference at time t in Pinocchio's coordinates (q_pin: nq, v_pin: nv; either nullable)
/// and the sample index k it holds.
int expo_feedback_reference(const expo_feedback* f, double t, double* q_pin, double* v_pin);
/// dx of the law at (t, q_pin, v_pin) (nx - 1 entries); returns k.
int expo_feedback_dx(const expo_feedback* f, double t, const double* q_pin, const double* v_pin,
                     double* dx);

#endif
