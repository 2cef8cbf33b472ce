// SPDX-License-Identifier: Apache-2.0
// sim.h: the world and system structures (internal). Every array is allocated when a system is
// added; the step only reads and writes them.
#ifndef SNI_SIM_H
#define SNI_SIM_H

#include "base/base.h"
#include "sinew/sn_world.h"


struct sn_system {
    sn_world* world;
    const sn_model* m;
    sn_data* d;
    // ---- control inputs ----
    int mode;            // sn_control_mode
    int scheme;          // sn_scheme as set
    int scheme_used;     // after the replacement rules
    int has_contacted;   // set by the contact solver; reset by a state change
    int has_constraints; // loop or mimic constraints: RK4 is replaced
    int compute_id;      // inverse dynamics after each step
    int id_valid;        // joint wrenches of the last step are available
    int mor_enforced;
    int w_dirty;        // the implicit diagonal must be recomputed
    int dyn_valid;      // mass matrix / h / M^-1 valid bits: 1, 2, 4
    int kin_valid;      // d's kinematics (sn_fk, sn_fk_vel) match d->q, d->u
    sn_real w_dt;       // the time step w was computed for
    sn_real* kp;        // (nv)
    sn_real* kd;        // (nv)
    sn_real* q_ref;     // (nq)
    sn_real* u_ref;     // (nv)
    sn_real* tau_ff;    // (nv)
    sn_real* lim_lo;    // actuation limits (nv)
    sn_real* lim_hi;    // (nv)
    sn_real* damping;   // b_joint (nv)
    sn_real* spring_k;  // (nv)
    sn_real* spring_kq; // sum of k * rest (nv)
    sn_real* b_out;     // actuators' output damping per DOF (nv)
    sn_real* fric_out;  // actuators' output friction per DOF (nv)
    sn_real* ext;       // J^T F of the external forces of the next step (nv)
    sn_real* ext_body;  // the same as world forces at the origin per body (nbody x 6)
    sn_real* ext_last;  // J^T F of the last step (nv)
    int has_ext;
    // ---- step results and scratch ----
    sn_real* w;        // implicit diagonal (nv)
    sn_real* pos_err;  // q_ref - q of the last step (nv)
    sn_real* tau_cmd;  // (nv)
    sn_real* tau_act;  // (nv)
    sn_real* tau_exp;  // (nv)
    sn_real* du;       // u+ - u of the last step (nv)
    sn_real* q0;       // state at the start of the step (nq)
    sn_real* u0;       // (nv)
    sn_real* rk;       // RK4 scratch: 4 velocity and 4 acceleration stages (8 nv) + q (nq)
    sn_real* rk_tab;   // RK4 torque table: stage means of cmd, damping, actuators, springs (4 nv)
    sn_real* body_acc; // accelerations of the last step, gravity included (nbody x 6)
    sn_real*
        id_body;     // subtree wrenches of the last step, moment about the origin first (nbody x 6)
    sn_real* id_pos; // body poses and velocities at the last step's start, for the fixed
    sn_real* id_rot; // joints' wrenches computed on demand (nbody x 3, x 9, x 6)
    sn_real* id_vel;
    // ---- actuators ----
    int nact, act_cap;
    sn_actuator_desc* act;
    sn_real* act_cmd;             // (act_cap)
    sn_actuator_state* act_state; // (act_cap)
    size_t bytes;
};

struct sn_world {
    sn_allocator alloc;
    sn_log_fn log;
    void* log_ctx;
    sn_real dt;
    sn_real gravity[3];
    sn_real time;
    int nsys, sys_cap;
    sn_system** sys;
    int nwarning;
    char last_warning[512];
    char last_error[512];
};

void sni_world_warn(sn_world* w, const char* fmt, ...);
sn_status sni_world_fail(sn_world* w, sn_status code, const char* fmt, ...);

// control.c: steps 1-3 at the system's current d->q, d->u (kinematics computed)
void sni_compute_w(sn_system* s, sn_real dt);
void sni_stage_torque(sn_system* s, const sn_real* q, const sn_real* u, sn_real* err, sn_real* cmd,
                      sn_real* act, sn_real* exp, int record);
void sni_actuator_torques(sn_system* s, const sn_real* u, sn_real* tau_act, int record);
void sni_pd_error(const sn_system* s, const sn_real* q, sn_real* err);

// model_actuators.c: the model's declared actuators, added to a new system
sn_status sni_system_actuators_from_model(sn_system* s);

// step.c
sn_status sni_system_step(sn_system* s, sn_real dt);
void sni_step_wrenches(sn_system* s, sn_real dt);
void sni_system_invalidate(sn_system* s);
void sni_ensure_kinematics(sn_system* s);

#endif
