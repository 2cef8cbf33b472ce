// SPDX-License-Identifier: Apache-2.0
// soak_run.h: one model file run for a number of steps as a user would run it (sn_load,
// sn_system_apply_file: the file's time step, gravity, ground, key), with random torques within
// the DOFs' effort limits or none, and the energy balance of the run measured against the
// integrator's bound (docs/reliability.md). Shared by bench/soak.c (the soak, 20,000 steps of
// every shared model) and tests/test_passivity.c (its 1,000-step subset and the passivity test).
#ifndef SN_SOAK_RUN_H
#define SN_SOAK_RUN_H

#include <sinew/sn.h>

typedef struct soak_opts {
    long steps;              // steps to take
    int hold;                // steps each random torque is held (10)
    double torque_scale;     // |tau_i| <= torque_scale x effort limit of DOF i (0: no torque)
    double torque_cap;       // and <= torque_cap N m (or N) when > 0 (DOFs with no limit: 0)
    double damping;          // joint damping at least this on every DOF but a floating base's
    unsigned long long seed; // of the torques' generator
    int gyroscopic;          // the systems' sn_gyroscopic mode (0: the default, explicit)
} soak_opts;

typedef struct soak_result {
    int loaded;       // 0: the file is not a model (sn_load refused it; msg says why)
    long steps;       // steps completed
    sn_status status; // of the first step that failed (SN_OK: none)
    long fail_step;   // its index (-1: none)
    char msg[1024];   // its message (sn_world_last_error) or the load's
    long clear;       // the first step after which the state is feasible (-1: never)
    double e0;        // total energy at the start (kinetic, gravity, joint springs)
    double work;      // work done by the torques and tendons: sum of dt tau . u+ over the steps
    double loop_work; // work of the loops' impulses: sum of dt tau_loop . u+ (their feedback)
    double bound;     // the integrator's bound at the end (see soak_run.c)
    double excess;    // max of the rise of E - W - W_loop less B (> 0: the balance is broken)
    double ratio;     // max of the rise of E - W - W_loop over B: <= 1 within the bound
    double rise;      // the largest rise of E - W - W_loop between two steps after clear (J)
    double ke_max;    // the largest kinetic energy (J)
    long rss_growth;  // resident set size at the end minus after the first step (kB)
    int nv;
} soak_result;

// runs path as described above; 0 when every step succeeded and the balance held
// (excess <= 0), 1 otherwise (result says which)
int soak_run(const char* path, const soak_opts* o, soak_result* r);

#endif
