// SPDX-License-Identifier: Apache-2.0
// experiments.h: the Expo paper's experiments (spec A.14) on sinew's soft contacts: a scenario
// in a soft world, its ground truth, the local integration error of a method against it, and
// the closed-loop stability of a method.
//
// A scenario's world: the scenario's robot (its own URDF collision elements dropped: only the
// soft points touch), soft contacts at its points (Solo12's four FOOT frames; Romeo's eight
// sole points), the paper's K 1e5, B 300, mu 1 unless given, flat ground at z 0, no torque
// bound; the world's step is the control step dt_c, the controller's torque held over it.
//
// Ground truth (A.14): the same integrator family run closed loop with n_gt sub-steps per
// control step (expo_n_gt: 2^floor(log2(dt_c / (1/64 ms))); explicit Euler 8 times that),
// each step's world checkpoint kept in memory (sn_state.h: q, u, the soft contacts' anchors
// and flags). The local error of a method at n_dt sub-steps: for every control step i, the
// world is restored to the ground truth's checkpoint i (the integrator settings are part of
// what a checkpoint compares, so the ground truth's are set before the load and the method's
// after it), the controller runs at that state, one control step is simulated, and
//   e_i = [difference(q_{i+1}, q_gt_{i+1}), v_{i+1} - v_gt_{i+1}]   (Pinocchio's coordinates)
// whose inf-norm and 2-norm are averaged over the steps (A20).
#ifndef EXPO_EXPERIMENTS_H
#define EXPO_EXPERIMENTS_H

#include "scenario.h"
#include "sinew/sn.h"

#include <stddef.h>

/// The integrators compared: Expo with at most 0..4 matrix products (Pade orders without
/// scaling) and the standard one, explicit Euler, RK4 and implicit Euler.
typedef enum expo_method {
    EXPO_M_EXPO0 = 0,
    EXPO_M_EXPO1,
    EXPO_M_EXPO2,
    EXPO_M_EXPO3,
    EXPO_M_EXPO4,
    EXPO_M_EXPO,
    EXPO_M_EULER,
    EXPO_M_RK4,
    EXPO_M_IMPLICIT_EULER,
    EXPO_M_COUNT
} expo_method;

/// "expo0" .. "expo4", "expo", "euler", "rk4", "implicit_euler".
const char* expo_method_name(expo_method m);
/// The method of a name; -1 if unknown.
int expo_method_parse(const char* name);
/// The method whose run is m's ground truth: Expo (standard) for every Expo variant, else m.
expo_method expo_method_truth(expo_method m);
/// log2 of the ground truth's sub-steps for a control step dt (i_gt of A.14: 7 for 2 ms, 9 for
/// 10 ms, 11 for 40 ms).
int expo_i_gt(double dt);
/// The ground truth's sub-steps for method m at dt: 2^i_gt (explicit Euler: 2^(i_gt + 3)).
int expo_n_gt(expo_method m, double dt);
/// The largest log2(n_dt) tested for m (A.14): i_gt - 3 (Expo, RK4, implicit Euler), i_gt
/// (explicit Euler).
int expo_i_max(expo_method m, double dt);

/// A scenario in a soft world.
typedef struct expo_sim {
    expo_scenario sc;
    sn_world* w;
    sn_system* s;
    int nq, nv;
    double dt;   ///< the control step (the world's step)
    double mass; ///< the robot's mass, kg
    sn_soft_params prm;
    double* tau;  ///< the controller's output (nv)
    double* work; ///< scratch (4 (nq + nv))
    char err[EXPO_ERR_LEN];
} expo_sim;

/// Open scenario `name` in a soft world with the soft parameters prm (NULL: the paper's) and
/// control step dt (<= 0: the scenario's). 0, or -1 with err set.
int expo_sim_open(expo_sim* x, const char* name, const char* shared_dir, const sn_soft_params* prm,
                  double dt, char err[EXPO_ERR_LEN]);
void expo_sim_close(expo_sim* x);
/// Put the robot at the scenario's initial state (the soft contacts released; the world's clock
/// runs on: the controller is given t = k dt).
int expo_sim_reset(expo_sim* x);
/// Select method m with n sub-steps per control step.
int expo_sim_configure(expo_sim* x, expo_method m, int n);
/// One control step k (t = k dt): the controller at the current state, then the world's step.
/// 0, or -1 with x->err set (the controller or the step failed).
int expo_sim_step(expo_sim* x, int k);
/// Largest |u| entry of the current state (inf when not finite).
double expo_sim_speed(const expo_sim* x);

/// A ground-truth run: the checkpoints and states of steps 0 .. nsteps.
typedef struct expo_truth {
    expo_method method;
    int n;          ///< sub-steps per control step
    int nsteps;     ///< control steps done (fewer than asked if the run failed)
    int failed;     ///< 1 if the run stopped early (a failed step or |u| > 1e5)
    size_t* cp_len; ///< (nsteps + 1)
    unsigned char** cp;
    double* q;      ///< (nsteps + 1) x nq
    double* u;      ///< (nsteps + 1) x nv
    double seconds; ///< its wall time
} expo_truth;

/// Run m's ground truth (method expo_method_truth(m) at expo_n_gt) for nsteps control steps
/// from the initial state. 0, or -1 with x->err set (nothing allocated); a run that fails part
/// way returns 0 with failed set and the steps done.
int expo_truth_run(expo_sim* x, expo_method m, int nsteps, expo_truth* gt);
void expo_truth_free(expo_truth* gt);

/// The local error of method m at n sub-steps against gt (m's own ground truth).
typedef struct expo_local {
    double err_inf;   ///< mean over the steps of |e_i|_inf
    double err_2;     ///< mean over the steps of |e_i|_2
    double t_substep; ///< mean wall time of a sub-step, s (the world steps only)
    double rtf;       ///< real-time factor dt / (n t_substep)
    int nsteps;       ///< steps measured
    int nfail;        ///< steps that failed (left out of the means)
} expo_local;
int expo_local_error(expo_sim* x, const expo_truth* gt, expo_method m, int n, expo_local* out);

/// Closed loop with method m at n sub-steps for nsteps control steps from the initial state,
/// no reset. Returns the step at which it failed (a failed step, a non-finite velocity or
/// |u| > 1e5), or nsteps when it stayed bounded; -1 with x->err set on a set-up error.
int expo_stability(expo_sim* x, expo_method m, int n, int nsteps);

#endif
