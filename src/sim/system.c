// SPDX-License-Identifier: Apache-2.0
// system.c: the calls on one system: its state and the lazily computed dynamics of seed 000
// (mass matrix, nonlinear term, M^-1, energies), control inputs with their checks, external
// forces, actuators, the scheme, and the reports of its contacts and collision settings.
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)


// ---- state ----

const sn_model* sn_system_model(const sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    return s->m;
}
sn_data* sn_system_data(sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    return s->d;
}
const sn_real* sn_system_q(const sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    return s->d->q;
}
const sn_real* sn_system_u(const sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    return s->d->u;
}


// kinematics and the cached dynamics must be recomputed (lazily); a new state also ends the
// contact solver's warm-start history and drops a position correction not yet applied (a step
// that failed after the solve leaves one on the systems it did not reach)
void sni_system_state_set(sn_system* s) {
    sni_solver_forget(&s->world->solver);
    sni_couple_forget(s); // the warm start of the world constraints that join it
    memset(s->solve.pseudo, 0, (size_t)s->m->nv * sizeof(sn_real));
    memset(s->solve.row_prev, 0, 3 * (size_t)s->m->nv * sizeof(sn_real));
    memset(s->gyro.fprev, 0, (size_t)s->m->nv * sizeof(sn_real));
    s->loops.pc_pending = 0; // no position correction's opening to tell from the drift
    memcpy(s->d->gravity, s->world->gravity, 3 * sizeof(sn_real));
    sni_system_invalidate(s, SNI_VALID_STATE);
    sni_soft_state_set(s);
}


void sni_ensure_kinematics(sn_system* s) {
    if (s->valid & SNI_VALID_KIN) return;
    sn_fk(s->m, s->d);
    sn_fk_vel(s->m, s->d);
    s->valid |= SNI_VALID_KIN;
}


static int all_finite(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


// checks shared by the state setters; warns about each quaternion it will normalize
static sn_status check_q(sn_system* s, const sn_real* q, int nq) {
    const sn_model* m = s->m;
    sn_world* w = s->world;
    if (!q) return SET_ERR(w, SN_ERR_ARG, "q is NULL");
    if (nq != m->nq) return SET_ERR(w, SN_ERR_ARG, "nq %d is not the model's nq = %d", nq, m->nq);
    if (!all_finite(q, nq)) return SET_ERR(w, SN_ERR_NONFINITE, "q is not finite");
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        const sn_real* e = q + m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        sn_real n = quat_norm_safe(e);
        if (!(n > 0))
            return SET_ERR(w, SN_ERR_ARG, "q: the quaternion of joint '%s' is zero",
                           m->names + m->joint_name[j]);
        if (fabs(n - 1) > 1e-9)
            sni_world_warn(w, "the quaternion of joint '%s' has norm %.9g and was normalized",
                           m->names + m->joint_name[j], n);
    }
    return SN_OK;
}


sn_status sn_system_set_state(sn_system* s, const sn_real* q, int nq, const sn_real* u, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!q) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_state: q is NULL");
    if (!u) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_state: u is NULL");
    sn_status st = check_q(s, q, nq);
    if (st != SN_OK) return st;
    if (nv != s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "nv %d is not the model's nv = %d", nv, s->m->nv);
    if (!all_finite(u, nv)) return SET_ERR(s->world, SN_ERR_NONFINITE, "u is not finite");
    st = sn_set_state(s->m, s->d, q, nq, u, nv);
    if (st != SN_OK) return st;
    s->has_contacted = 0;
    sni_system_state_set(s);
    return SN_OK;
}


sn_status sn_system_set_q(sn_system* s, const sn_real* q, int nq) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!q) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_q: q is NULL");
    sn_status st = check_q(s, q, nq);
    if (st != SN_OK) return st;
    st = sn_set_state(s->m, s->d, q, nq, NULL, 0);
    if (st != SN_OK) return st;
    s->has_contacted = 0;
    sni_system_state_set(s);
    return SN_OK;
}


int sn_system_has_contacted(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->has_contacted;
}


sn_status sn_system_set_u(sn_system* s, const sn_real* u, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!u) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_u: u is NULL");
    if (nv != s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "nv %d is not the model's nv = %d", nv, s->m->nv);
    if (!all_finite(u, nv)) return SET_ERR(s->world, SN_ERR_NONFINITE, "u is not finite");
    memcpy(s->d->u, u, (size_t)nv * sizeof(sn_real));
    sni_system_state_set(s);
    return SN_OK;
}


// ---- dynamics getters (lazy) ----

const sn_real* sn_system_mass_matrix(sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    sni_ensure_kinematics(s);
    if (!(s->valid & SNI_VALID_MASS)) {
        sn_crba(s->m, s->d);
        s->valid |= SNI_VALID_MASS;
    }
    return s->d->mass_matrix;
}


const sn_real* sn_system_nonlinear(sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    sni_ensure_kinematics(s);
    if (!(s->valid & SNI_VALID_BIAS)) {
        sn_nonlinear(s->m, s->d);
        s->valid |= SNI_VALID_BIAS;
    }
    return s->d->nonlinear;
}


const sn_real* sn_system_inverse_mass(sn_system* s) {
    SNI_REFUSE_NULL(s, NULL);
    if (!(s->valid & SNI_VALID_MINV)) {
        sn_system_mass_matrix(s);
        if (sn_inverse_mass(s->m, s->d) != SN_OK) return NULL;
        s->valid |= SNI_VALID_MINV;
    }
    return s->d->inverse_mass;
}


sn_status sn_system_kinematics(sn_system* s) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    sni_ensure_kinematics(s);
    return SN_OK;
}


sn_real sn_system_kinetic_energy(sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_real)NAN);
    sni_ensure_kinematics(s);
    return sn_kinetic_energy(s->m, s->d);
}


sn_real sn_system_potential_energy(sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_real)NAN);
    sni_ensure_kinematics(s);
    return sn_potential_energy(s->m, s->d);
}


// ---- control ----

sn_status sn_system_set_control_mode(sn_system* s, sn_control_mode mode) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (mode != SN_CONTROL_FORCE_AND_TORQUE && mode != SN_CONTROL_PD_PLUS_FEEDFORWARD)
        return SET_ERR(s->world, SN_ERR_ARG, "unknown control mode %d", (int)mode);
    s->ctl.mode = mode;
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


sn_control_mode sn_system_control_mode(const sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_control_mode)SN_NONE);
    return (sn_control_mode)s->ctl.mode;
}


static sn_status check_vec(sn_system* s, const sn_real* x, int n, const char* nname, int want,
                           const char* what, int nonneg) {
    if (!x) return SET_ERR(s->world, SN_ERR_ARG, "%s is NULL", what);
    if (n != want)
        return SET_ERR(s->world, SN_ERR_ARG, "%s %d: %s needs %d entries", nname, n, what, want);
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            return SET_ERR(s->world, SN_ERR_NONFINITE, "%s[%d] is not finite", what, i);
        if (nonneg && x[i] < 0)
            return SET_ERR(s->world, SN_ERR_ARG, "%s[%d] = %g is negative", what, i, x[i]);
    }
    return SN_OK;
}


sn_status sn_system_set_pd_gains(sn_system* s, const sn_real* kp, const sn_real* kd, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!kp) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_pd_gains: kp is NULL");
    if (!kd) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_pd_gains: kd is NULL");
    sn_status st = check_vec(s, kp, nv, "nv", s->m->nv, "kp", 1);
    if (st == SN_OK) st = check_vec(s, kd, nv, "nv", s->m->nv, "kd", 1);
    if (st != SN_OK) return st;
    memcpy(s->ctl.kp, kp, (size_t)nv * sizeof(sn_real));
    memcpy(s->ctl.kd, kd, (size_t)nv * sizeof(sn_real));
    // the floating base is not actuated
    for (int j = 0; j < s->m->njoint; j++)
        if (s->m->joint_type[j] == SN_JOINT_FLOATING)
            for (int k = 0; k < 6; k++)
                s->ctl.kp[s->m->joint_vadr[j] + k] = s->ctl.kd[s->m->joint_vadr[j] + k] = 0;
    s->ctl.mode = SN_CONTROL_PD_PLUS_FEEDFORWARD;
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


sn_status sn_system_set_pd_target(sn_system* s, const sn_real* q_ref, int nq, const sn_real* u_ref,
                                  int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!q_ref)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_pd_target: q_ref is NULL");
    if (!u_ref)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_pd_target: u_ref is NULL");
    sn_status st = check_vec(s, q_ref, nq, "nq", s->m->nq, "q_ref", 0);
    if (st == SN_OK) st = check_vec(s, u_ref, nv, "nv", s->m->nv, "u_ref", 0);
    if (st != SN_OK) return st;
    const sn_model* m = s->m;
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        const sn_real* e = q_ref + m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        if (!(quat_norm_safe(e) > 0))
            return SET_ERR(s->world, SN_ERR_ARG, "q_ref: the quaternion of joint '%s' is zero",
                           m->names + m->joint_name[j]);
    }
    memcpy(s->ctl.q_ref, q_ref, (size_t)nq * sizeof(sn_real));
    memcpy(s->ctl.u_ref, u_ref, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sn_system_set_generalized_force(sn_system* s, const sn_real* tau, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!tau)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_generalized_force: tau is NULL");
    sn_status st = check_vec(s, tau, nv, "nv", s->m->nv, "tau", 0);
    if (st != SN_OK) return st;
    memcpy(s->ctl.tau_ff, tau, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sn_system_set_actuation_limits(sn_system* s, const sn_real* lower, const sn_real* upper,
                                         int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!lower)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_actuation_limits: lower is NULL");
    if (!upper)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_actuation_limits: upper is NULL");
    if (nv != s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "actuation limits need nv = %d entries", s->m->nv);
    for (int i = 0; i < nv; i++)
        if (isnan(lower[i]) || isnan(upper[i]) || lower[i] > upper[i])
            return SET_ERR(s->world, SN_ERR_ARG, "actuation limit %d: [%g, %g] is not a range", i,
                           lower[i], upper[i]);
    memcpy(s->ctl.lim_lo, lower, (size_t)nv * sizeof(sn_real));
    memcpy(s->ctl.lim_hi, upper, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sn_system_set_joint_damping(sn_system* s, const sn_real* b, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!b) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_joint_damping: b is NULL");
    sn_status st = check_vec(s, b, nv, "nv", s->m->nv, "damping", 1);
    if (st != SN_OK) return st;
    memcpy(s->ctl.damping, b, (size_t)nv * sizeof(sn_real));
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


sn_status sn_system_add_spring(sn_system* s, int joint, sn_real k, sn_real rest) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_model* m = s->m;
    if (joint < 0 || joint >= m->njoint || m->joint_nv[joint] != 1)
        return SET_ERR(s->world, SN_ERR_ARG, "a spring needs a 1-DOF joint (joint %d)", joint);
    if (!isfinite(k) || !isfinite(rest) || k < 0)
        return SET_ERR(s->world, SN_ERR_ARG, "spring stiffness k %g / rest %g: finite, k >= 0", k,
                       rest);
    int v = m->joint_vadr[joint];
    s->ctl.spring_k[v] += k;
    s->ctl.spring_kq[v] += k * rest;
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


void sn_system_springs(const sn_system* s, sn_real* stiffness, sn_real* rest) {
    SNI_REFUSE_NULL_VOID(s);
    for (int v = 0; v < s->m->nv; v++) {
        if (stiffness) stiffness[v] = s->ctl.spring_k[v];
        if (rest) rest[v] = s->ctl.spring_k[v] > 0 ? s->ctl.spring_kq[v] / s->ctl.spring_k[v] : 0;
    }
}


sn_real sn_system_spring_energy(const sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_real)NAN);
    const sn_model* m = s->m;
    sn_real e = 0;
    for (int v = 0; v < m->nv; v++) {
        sn_real k = s->ctl.spring_k[v];
        if (!(k > 0)) continue;
        sn_real x = s->d->q[m->joint_qadr[m->dof_joint[v]]] - s->ctl.spring_kq[v] / k;
        e += 0.5 * k * x * x;
    }
    return e;
}


// a world force f at world point x and a world torque t on body b: J^T (f, t), and the body's
// spatial force at the origin for inverse dynamics
static sn_status apply_wrench(sn_system* s, int body, const sn_real* x, const sn_real* f,
                              const sn_real* t) {
    const sn_model* m = s->m;
    if (body < 0 || body >= m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG, "body %d out of range", body);
    sni_ensure_kinematics(s);
    sn_real fs[6] = {0, 0, 0, 0, 0, 0}; // (moment about the origin, force)
    if (f) {
        if (!isfinite(f[0]) || !isfinite(f[1]) || !isfinite(f[2]) || !isfinite(x[0]) ||
            !isfinite(x[1]) || !isfinite(x[2]))
            return SET_ERR(s->world, SN_ERR_NONFINITE, "external force or point is not finite");
        v3_copy(fs + 3, f);
        v3_cross(fs, x, f);
    }
    if (t) {
        if (!isfinite(t[0]) || !isfinite(t[1]) || !isfinite(t[2]))
            return SET_ERR(s->world, SN_ERR_NONFINITE, "external torque is not finite");
        v3_addscl(fs, t, 1);
    }
    for (int e = 0; e < 6; e++)
        s->ctl.ext_body[6 * body + e] += fs[e];
    for (int k = sni_body_last_dof(m, body); k >= 0; k = m->dof_parent[k])
        s->ctl.ext[k] += s6_dot(s->d->dof_motion + 6 * k, fs);
    s->ctl.has_ext = 1;
    return SN_OK;
}


sn_status sn_system_set_external_force(sn_system* s, int body, const sn_real point[3],
                                       const sn_real force[3]) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!point)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_external_force: point is NULL");
    if (!force)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_external_force: force is NULL");
    if (!point || !force)
        return SET_ERR(s->world, SN_ERR_ARG, "sn_system_set_external_force: %s is NULL",
                       point ? "force" : "point");
    if (body < 0 || body >= s->m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG, "body %d out of range", body);
    sni_ensure_kinematics(s);
    sn_real x[3];
    m3_mul_v3(x, s->d->body_rot + 9 * body, point);
    v3_add(x, x, s->d->body_pos + 3 * body);
    return apply_wrench(s, body, x, force, NULL);
}


sn_status sn_system_set_external_torque(sn_system* s, int body, const sn_real torque[3]) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!torque)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_external_torque: torque is NULL");
    if (!torque)
        return SET_ERR(s->world, SN_ERR_ARG, "sn_system_set_external_torque: torque is NULL");
    return apply_wrench(s, body, NULL, NULL, torque);
}


sn_status sn_system_set_constraint_force(sn_system* s, int body, const sn_real point[3],
                                         const sn_real force[3]) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!point)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_constraint_force: point is NULL");
    if (!force)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_constraint_force: force is NULL");
    return sn_system_set_external_force(s, body, point, force);
}


// ---- actuators ----

sn_status sn_system_add_actuator(sn_system* s, const sn_actuator_desc* a, int* id) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!a)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_add_actuator: a is NULL (no actuator description)");
    if (!a) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_add_actuator: the description is NULL");
    const sn_model* m = s->m;
    sn_world* w = s->world;
    if (a->joint < 0 || a->joint >= m->njoint || m->joint_nv[a->joint] != 1)
        return SET_ERR(w, SN_ERR_ARG, "an actuator drives a 1-DOF joint (got %d)", a->joint);
    sn_real vals[] = {a->gear, a->kt,          a->vbus,           a->resistance,
                      a->kv,   a->peak_torque, a->output_damping, a->output_friction};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
        if (!isfinite(vals[i]) || vals[i] < 0)
            return SET_ERR(w, SN_ERR_ARG, "actuator constants must be finite and >= 0");
    if (a->kt > 0 && (!(a->resistance > 0) || !(a->kv > 0)))
        return SET_ERR(w, SN_ERR_ARG, "a motor with kt > 0 needs resistance > 0 and kv > 0");
    if (a->ncoupling < 0 || a->ncoupling > 4) return SET_ERR(w, SN_ERR_ARG, "at most 4 couplings");
    for (int c = 0; c < a->ncoupling; c++)
        if (a->coupling_joint[c] < 0 || a->coupling_joint[c] >= m->njoint ||
            m->joint_nv[a->coupling_joint[c]] != 1 || !isfinite(a->coupling_ratio[c]))
            return SET_ERR(w, SN_ERR_ARG, "coupling %d: a 1-DOF joint and a finite ratio", c);
    if (s->act.n == s->act.cap) {
        int cap = s->act.cap ? 2 * s->act.cap : 8;
        sn_actuator_desc* na = sni_alloc(&w->alloc, (size_t)cap * sizeof *na);
        sn_real* nc = sni_alloc(&w->alloc, (size_t)cap * sizeof *nc);
        sn_actuator_state* ns = sni_alloc(&w->alloc, (size_t)cap * sizeof *ns);
        if (!na || !nc || !ns) {
            sni_free(&w->alloc, na, (size_t)cap * sizeof *na);
            sni_free(&w->alloc, nc, (size_t)cap * sizeof *nc);
            sni_free(&w->alloc, ns, (size_t)cap * sizeof *ns);
            return SET_ERR(w, SN_ERR_NOMEM, "out of memory");
        }
        if (s->act.n) {
            memcpy(na, s->act.desc, (size_t)s->act.n * sizeof *na);
            memcpy(nc, s->act.cmd, (size_t)s->act.n * sizeof *nc);
            memcpy(ns, s->act.state, (size_t)s->act.n * sizeof *ns);
        }
        sni_free(&w->alloc, s->act.desc, (size_t)s->act.cap * sizeof *na);
        sni_free(&w->alloc, s->act.cmd, (size_t)s->act.cap * sizeof *nc);
        sni_free(&w->alloc, s->act.state, (size_t)s->act.cap * sizeof *ns);
        s->act.desc = na, s->act.cmd = nc, s->act.state = ns, s->act.cap = cap;
    }
    sn_actuator_desc* d = &s->act.desc[s->act.n];
    *d = *a;
    if (d->gear == 0) d->gear = 1;
    int v = m->joint_vadr[a->joint];
    s->act.b_out[v] += a->output_damping;
    s->act.fric_out[v] += a->output_friction;
    s->act.cmd[s->act.n] = 0;
    memset(&s->act.state[s->act.n], 0, sizeof s->act.state[0]);
    if (id) *id = s->act.n;
    s->act.n++;
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


int sn_system_actuator_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->act.n;
}


sn_status sn_system_set_actuator_torques(sn_system* s, const sn_real* tau, int n) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!tau)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_actuator_torques: tau is NULL");
    sn_status st = check_vec(s, tau, n, "n", s->act.n, "actuator torques", 0);
    if (st != SN_OK) return st;
    if (n > 0) memcpy(s->act.cmd, tau, (size_t)n * sizeof(sn_real)); // NULL without actuators
    return SN_OK;
}


sn_status sn_system_set_actuator_torque(sn_system* s, int i, sn_real tau) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (i < 0 || i >= s->act.n)
        return s->act.n
                   ? SET_ERR(s->world, SN_ERR_ARG,
                             "actuator i %d: the system has actuators 0 to %d", i, s->act.n - 1)
                   : SET_ERR(s->world, SN_ERR_ARG, "actuator i %d: the system has none", i);
    if (!isfinite(tau))
        return SET_ERR(s->world, SN_ERR_NONFINITE, "actuator %d's torque tau %g is not finite", i,
                       tau);
    s->act.cmd[i] = tau;
    return SN_OK;
}


void sn_system_set_motor_region_enforced(sn_system* s, int enforced) {
    SNI_REFUSE_NULL_VOID(s);
    s->act.mor_enforced = enforced != 0;
}


sn_status sn_system_actuator_states(const sn_system* s, sn_actuator_state* out, int n) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_actuator_states: out is NULL");
    if (!out) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_actuator_states: out is NULL");
    if (n != s->act.n)
        return SET_ERR(s->world, SN_ERR_ARG, "n %d actuator states asked for, the system has %d", n,
                       s->act.n);
    memcpy(out, s->act.state, (size_t)n * sizeof *out);
    return SN_OK;
}


// ---- getGeneralizedForce ----

sn_status sn_system_generalized_force(sn_system* s, sn_real* out, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_generalized_force: out is NULL");
    if (!out) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_generalized_force: out is NULL");
    if (nv != s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "out has %d entries, not nv = %d", nv, s->m->nv);
    const sn_real* u = s->d->u;
    int pd = s->ctl.mode == SN_CONTROL_PD_PLUS_FEEDFORWARD;
    for (int v = 0; v < nv; v++) {
        sn_real t = s->ctl.tau_ff[v];
        if (pd) t += s->ctl.kp[v] * s->step.pos_err[v] + s->ctl.kd[v] * (s->ctl.u_ref[v] - u[v]);
        out[v] = t < s->ctl.lim_lo[v]   ? s->ctl.lim_lo[v]
                 : t > s->ctl.lim_hi[v] ? s->ctl.lim_hi[v]
                                        : t;
    }
    sn_real* act = s->act.tau;
    sni_actuator_torques(s, u, act, 0);
    for (int v = 0; v < nv; v++)
        out[v] += act[v];
    return SN_OK;
}


// ---- schemes and inverse dynamics ----

sn_status sn_system_set_scheme(sn_system* s, sn_scheme scheme) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (scheme < SN_SCHEME_SEMI_IMPLICIT || scheme > SN_SCHEME_RK4)
        return SET_ERR(s->world, SN_ERR_ARG, "unknown integration scheme %d", (int)scheme);
    if (scheme != SN_SCHEME_SEMI_IMPLICIT && s->rotor.n > 0)
        return SET_ERR(s->world, SN_ERR_ARG,
                       "scheme %d: the system has %d spinning rotors (sn_system_set_rotor), "
                       "whose Cayley step is a part of the SEMI_IMPLICIT step only",
                       (int)scheme, s->rotor.n);
    s->step.scheme = scheme;
    return SN_OK;
}


sn_scheme sn_system_scheme(const sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_scheme)SN_NONE);
    return (sn_scheme)s->step.scheme;
}
sn_scheme sn_system_scheme_used(const sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_scheme)SN_NONE);
    return (sn_scheme)s->step.scheme_used;
}


sn_status sn_system_set_gyroscopic(sn_system* s, sn_gyroscopic mode) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (mode != SN_GYROSCOPIC_EXPLICIT && mode != SN_GYROSCOPIC_MIDPOINT)
        return SET_ERR(s->world, SN_ERR_ARG, "mode %d is not an sn_gyroscopic", (int)mode);
    s->gyro.mode = mode;
    memset(s->gyro.fprev, 0, (size_t)s->m->nv * sizeof(sn_real));
    return SN_OK;
}


sn_gyroscopic sn_system_gyroscopic(const sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_gyroscopic)SN_NONE);
    return (sn_gyroscopic)s->gyro.mode;
}
void sn_system_set_compute_inverse_dynamics(sn_system* s, int on) {
    SNI_REFUSE_NULL_VOID(s);
    // the sensors read the inverse dynamics' snapshot: it stays on while there are any
    if (!on && s->sens.n > 0) {
        sni_world_warn(s->world,
                       "inverse dynamics stays on: the system has %d sensors, which read it",
                       s->sens.n);
        return;
    }
    s->id.compute = on != 0;
}


// the i-th world contact that involves system s, or NULL
static const sni_contact* nth_contact(const sn_system* s, int i, int* side_b) {
    const sn_world* w = s->world;
    for (int k = 0; k < w->ncontact; k++) {
        const sni_contact* c = &w->contacts[k];
        if (c->sa != s->index && c->sb != s->index) continue;
        if (i-- == 0) {
            *side_b = c->sa != s->index;
            return c;
        }
    }
    return NULL;
}


int sn_system_contact_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    int n = 0, side;
    while (nth_contact(s, n, &side))
        n++;
    return n;
}


sn_status sn_system_contact(const sn_system* s, int i, sn_contact* out) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_contact: out is NULL");
    int b = 0;
    if (!s) return SN_ERR_ARG;
    if (!out) return SET_ERR(s->world, SN_ERR_ARG, "sn_system_contact: out is NULL");
    const sni_contact* c = i >= 0 ? nth_contact(s, i, &b) : NULL;
    if (!c)
        return SET_ERR(s->world, SN_ERR_ARG, "contact i %d: the system has %d contacts", i,
                       sn_system_contact_count(s));
    sn_real sign = b ? -1 : 1;
    out->body = b ? c->body_b : c->body;
    out->geom = b ? c->geom_b : c->geom;
    out->other_system = b ? c->sa : c->sb;
    out->other_body = b ? c->body : c->body_b;
    out->self = c->sa == c->sb;
    v3_copy(out->position, c->pos);
    v3_scale(out->normal, c->normal, sign);
    out->depth = c->depth;
    v3_scale(out->impulse, c->impulse, sign);
    out->sliding = c->slide == 2;
    out->constraint = -1;
    return SN_OK;
}


void sn_system_set_joint_limits_enabled(sn_system* s, int enabled) {
    SNI_REFUSE_NULL_VOID(s);
    s->ctl.limits_off = !enabled;
}


// ---- collision filters ----

sn_status sn_system_set_collision_filter(sn_system* s, int body, unsigned group, unsigned mask) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (body < 0 || body >= s->m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG, "body %d: the model has bodies 0 to %d", body,
                       s->m->nbody - 1);
    s->body_group[body] = group;
    s->body_mask[body] = mask;
    return SN_OK;
}


void sn_system_set_self_collision(sn_system* s, int enabled) {
    SNI_REFUSE_NULL_VOID(s);
    s->self_collision = enabled != 0;
}


// ---- materials and reporting ----

sn_status sn_system_set_body_material(sn_system* s, int body, int material) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (body < 0 || body >= s->m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG, "body %d: the model has bodies 0 to %d", body,
                       s->m->nbody - 1);
    if (material < 0 || material > 15)
        return SET_ERR(s->world, SN_ERR_ARG, "material id %d: ids are 0 to 15", material);
    s->body_material[body] = material;
    return SN_OK;
}


sn_status sn_system_body_contact_force(const sn_system* s, int body, sn_real force[3],
                                       sn_real torque[3]) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (body < 0 || body >= s->m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG, "body %d: the model has bodies 0 to %d", body,
                       s->m->nbody - 1);
    const sn_world* w = s->world;
    sn_real f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    const sn_real* o = s->d->body_pos + 3 * body;
    for (int k = 0; k < w->ncontact; k++) {
        const sni_contact* c = &w->contacts[k];
        for (int side = 0; side < 2; side++) {
            if ((side ? c->sb : c->sa) != s->index || (side ? c->body_b : c->body) != body)
                continue;
            sn_real fk[3], r[3];
            v3_scale(fk, c->impulse, (side ? -1 : 1) / w->dt);
            v3_add(f, f, fk);
            v3_sub(r, c->pos, o);
            v3_addcross(t, r, fk);
        }
    }
    if (force) v3_copy(force, f);
    if (torque) v3_copy(torque, t);
    return SN_OK;
}


// ---- placements and masses changed (seed 001 updateMassInfo) ----

void sni_system_placements(const sn_model* m, sn_real* buf, int to_model) {
    size_t nj = (size_t)m->njoint, nb = (size_t)m->nbody;
    sn_real* parts[] = {m->joint_pos, m->joint_rot, m->joint_axis, m->body_mass, m->subtree_mass};
    size_t count[] = {3 * nj, 9 * nj, 3 * nj, nb, nb};
    for (size_t k = 0; k < 5; k++) {
        size_t bytes = count[k] * sizeof(sn_real);
        if (to_model)
            memcpy(parts[k], buf, bytes);
        else
            memcpy(buf, parts[k], bytes);
        buf += count[k];
    }
}


sn_status sn_system_update_mass_info(sn_system* s, int* nreduced) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_model* m = s->m;
    sni_data_classify_joints(m, s->d);
    sni_system_invalidate(s, ~0u);
    // body2's anchors where body1's are now, and the directions each constraint keeps: the
    // examination of sn_world_add_system again
    sni_loops_attach(s);
    int n = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        int named = m->constraint_type[c] == SN_CONSTRAINT_EQUALITY ? m->constraint_naxis[c] : 3;
        n += s->loops.naxis[c] < named;
    }
    if (nreduced) *nreduced = n;
    return SN_OK;
}


sn_status sn_system_constraint_directions(const sn_system* s, int i, int* n) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!n)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_constraint_directions: n is NULL");
    if (!n) return SET_ERR(s->world, SN_ERR_ARG, "n is NULL");
    if (i < 0 || i >= s->m->nconstraint)
        return SET_ERR(s->world, SN_ERR_ARG, "constraint i %d: the model has %d loop constraints",
                       i, s->m->nconstraint);
    *n = s->loops.naxis[i];
    return SN_OK;
}
