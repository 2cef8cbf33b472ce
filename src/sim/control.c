// SPDX-License-Identifier: Apache-2.0
// control.c: steps 1-3 of seed 000's simulation step at a given state: the PD command and its
// clamp, the actuators clipped to their motor operating regions, and the explicit torque with
// damping, springs and external forces. Step 4's implicit diagonal w is computed here too.
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// w = dt/2 (b + b_out + kd) + dt^2/4 (kp + k_s); kp = kd = 0 in FORCE_AND_TORQUE
void sni_compute_w(sn_system* s, sn_real dt) {
    int pd = s->ctl.mode == SN_CONTROL_PD_PLUS_FEEDFORWARD;
    for (int v = 0; v < s->m->nv; v++) {
        sn_real kd = pd ? s->ctl.kd[v] : 0, kp = pd ? s->ctl.kp[v] : 0;
        s->ctl.w[v] = 0.5 * dt * (s->ctl.damping[v] + s->act.b_out[v] + kd) +
                      0.25 * dt * dt * (kp + s->ctl.spring_k[v]);
    }
    s->ctl.w_dt = dt;
    s->valid |= SNI_VALID_W;
}


// rotation vector of a unit quaternion, the shorter rotation (angle at most pi)
static void quat_log(sn_real* r, const sn_real* q) {
    sn_real w = q[0], x = q[1], y = q[2], z = q[3];
    if (w < 0) w = -w, x = -x, y = -y, z = -z;
    sn_real sn = sqrt(x * x + y * y + z * z);
    sn_real angle = 2 * atan2(sn, w);
    sn_real k = sn > 1e-12 ? angle / sn : 2 / (w > 0 ? w : 1);
    r[0] = k * x, r[1] = k * y, r[2] = k * z;
}


// q_ref - q per DOF: differences for 1-DOF joints; for a spherical joint the rotation vector of
// q^-1 q_ref (the shorter rotation), expressed in the joint frame like u, which is the rotation
// vector of q_ref q^-1; zero for a floating base (its gains are zero)
void sni_pd_error(const sn_system* s, const sn_real* q, sn_real* err) {
    const sn_model* m = s->m;
    for (int j = 0; j < m->njoint; j++) {
        int a = m->joint_qadr[j], v = m->joint_vadr[j];
        switch (m->joint_type[j]) {
        case SN_JOINT_FLOATING:
            memset(err + v, 0, 6 * sizeof(sn_real));
            break;
        case SN_JOINT_SPHERICAL: {
            const sn_real* c = q + a;
            sn_real n = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3]);
            sn_real inv[4] = {c[0] / n, -c[1] / n, -c[2] / n, -c[3] / n}, rel[4];
            sn_real r[4];
            const sn_real* t = s->ctl.q_ref + a;
            sn_real nt = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2] + t[3] * t[3]);
            for (int k = 0; k < 4; k++)
                r[k] = t[k] / nt;
            quat_mul(rel, r, inv);
            quat_log(err + v, rel);
            break;
        }
        default:
            err[v] = s->ctl.q_ref[a] - q[a];
            break;
        }
    }
}


static sn_real clamp(sn_real x, sn_real lo, sn_real hi) {
    return x < lo ? lo : x > hi ? hi : x;
}


// step 2: tau_act at velocities u; record: keep each actuator's state for getActuatorStates()
void sni_actuator_torques(sn_system* s, const sn_real* u, sn_real* tau_act, int record) {
    const sn_model* m = s->m;
    memset(tau_act, 0, (size_t)m->nv * sizeof(sn_real));
    for (int i = 0; i < s->act.n; i++) {
        const sn_actuator_desc* a = &s->act.desc[i];
        int v = m->joint_vadr[a->joint];
        sn_real g = a->gear, wm = g * u[v];
        for (int c = 0; c < a->ncoupling; c++)
            wm += a->coupling_ratio[c] * u[m->joint_vadr[a->coupling_joint[c]]];
        sn_real lo = -INFINITY, hi = INFINITY, tm = s->act.cmd[i] / g;
        if (s->act.mor_enforced && a->kt > 0) {
            sn_real stall = a->kt * a->vbus / a->resistance;
            sn_real b = a->kt / (a->resistance * a->kv);
            sn_real peak = a->peak_torque > 0 ? a->peak_torque : (sn_real)INFINITY;
            lo = clamp(-stall - b * wm, -peak, peak);
            hi = clamp(stall - b * wm, -peak, peak);
            tm = clamp(tm, lo, hi);
        }
        tau_act[v] += g * tm;
        for (int c = 0; c < a->ncoupling; c++)
            tau_act[m->joint_vadr[a->coupling_joint[c]]] += a->coupling_ratio[c] * tm;
        if (record) {
            sn_actuator_state* st = &s->act.state[i];
            st->command = s->act.cmd[i];
            st->motor_speed = wm;
            st->motor_torque = tm;
            st->torque_min = lo;
            st->torque_max = hi;
            st->clipped = tm != s->act.cmd[i] / g;
        }
    }
}


// steps 1-3 at (q, u): err (nv) gets q_ref - q, cmd the clamped command, act the actuators,
// exp the explicit torque. Springs act on 1-DOF joints.
void sni_stage_torque(sn_system* s, const sn_real* q, const sn_real* u, sn_real* err, sn_real* cmd,
                      sn_real* act, sn_real* exp, int record) {
    const sn_model* m = s->m;
    int pd = s->ctl.mode == SN_CONTROL_PD_PLUS_FEEDFORWARD;
    if (pd)
        sni_pd_error(s, q, err);
    else
        memset(err, 0, (size_t)m->nv * sizeof(sn_real));
    sni_actuator_torques(s, u, act, record);
    for (int v = 0; v < m->nv; v++) {
        sn_real t = s->ctl.tau_ff[v];
        if (pd) t += s->ctl.kp[v] * err[v] + s->ctl.kd[v] * (s->ctl.u_ref[v] - u[v]);
        cmd[v] = clamp(t, s->ctl.lim_lo[v], s->ctl.lim_hi[v]);
        exp[v] = cmd[v] - (s->ctl.damping[v] + s->act.b_out[v]) * u[v] + act[v] + s->ctl.ext[v];
    }
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint_nv[j] != 1) continue;
        int v = m->joint_vadr[j];
        if (s->ctl.spring_k[v] != 0)
            exp[v] += s->ctl.spring_kq[v] - s->ctl.spring_k[v] * q[m->joint_qadr[j]];
    }
    if (m->ntendon) sni_tendon_forces(s, q, u, exp, record); // tendon/tendon.c
}
