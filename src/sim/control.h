// SPDX-License-Identifier: Apache-2.0
// control.h: a system's control (internal): the inputs of seed 000's steps 1-3 (gains, targets,
// the feedforward force, actuation limits, damping, springs, external forces), the implicit
// diagonal w of step 4 made from them, and the actuators (control.c, model_actuators.c).
#ifndef SNI_CONTROL_H
#define SNI_CONTROL_H

#include "sinew/sn_world.h"

typedef struct sni_control {
    int mode;           // sn_control_mode
    int limits_off;     // joint limits are not solver rows
    sn_real* kp;        // PD gains (nv)
    sn_real* kd;        // (nv)
    sn_real* q_ref;     // PD targets (nq)
    sn_real* u_ref;     // (nv)
    sn_real* tau_ff;    // the feedforward generalized force (nv)
    sn_real* lim_lo;    // actuation limits (nv)
    sn_real* lim_hi;    // (nv)
    sn_real* damping;   // b_joint (nv)
    sn_real* spring_k;  // spring stiffness (nv)
    sn_real* spring_kq; // sum of k * rest (nv)
    sn_real* ext;       // J^T F of the external forces of the next step (nv)
    sn_real* ext_body;  // the same as world forces at the origin per body (nbody x 6)
    int has_ext;        // ext / ext_body hold forces
    sn_real* w;         // the implicit diagonal of step 4 (nv), for the time step w_dt
    sn_real w_dt;       // (valid while the system's SNI_VALID_W bit is set)
} sni_control;

typedef struct sni_actuators {
    int n, cap;               // actuators, and room for them (the arrays below grow)
    sn_actuator_desc* desc;   // (cap)
    sn_real* cmd;             // the commanded torques of setActuatorTorques() (cap)
    sn_actuator_state* state; // the states of the last step (cap)
    int mor_enforced;         // the motor operating regions clip the torques
    sn_real* b_out;           // the actuators' output damping per DOF (nv)
    sn_real* fric_out;        // and output friction per DOF (nv)
    sn_real* tau;             // the actuators' torques at the current state (nv):
                              // getGeneralizedForce()'s scratch
} sni_actuators;

// w = dt/2 (b + b_out + kd) + dt^2/4 (kp + k_s) into s->ctl.w, valid for dt
void sni_compute_w(sn_system* s, sn_real dt);
// steps 1-3 at (q, u) (kinematics computed): err (nv) gets q_ref - q, cmd the clamped command,
// act the actuators (record: keep their states for getActuatorStates()), exp the explicit torque
void sni_stage_torque(sn_system* s, const sn_real* q, const sn_real* u, sn_real* err, sn_real* cmd,
                      sn_real* act, sn_real* exp, int record);
// step 2: the actuators' torques at velocities u
void sni_actuator_torques(sn_system* s, const sn_real* u, sn_real* tau_act, int record);
// q_ref - q per DOF (nv)
void sni_pd_error(const sn_system* s, const sn_real* q, sn_real* err);
// model_actuators.c: the model's declared actuators, added to a new system
sn_status sni_system_actuators_from_model(sn_system* s);

#endif
