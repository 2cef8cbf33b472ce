// SPDX-License-Identifier: Apache-2.0
// world.c: the world and its systems: creation with every array allocated up front, state and
// control setters with their checks, and the getters of seed 000 (mass matrix, nonlinear term,
// generalized force, actuator states, joint wrenches).
#include "dynamics/dyn.h"
#include "model/hull.h"
#include "model/mesh.h"
#include "sim/sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)


void sni_world_warn(sn_world* w, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->last_warning, sizeof w->last_warning, fmt, ap);
    va_end(ap);
    w->nwarning++;
    if (w->log) w->log(SN_LOG_WARNING, w->last_warning, w->log_ctx);
}


sn_status sni_world_fail(sn_world* w, sn_status code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->last_error, sizeof w->last_error, fmt, ap);
    va_end(ap);
    return code;
}


// ---- world ----

sn_status sn_world_create(const sn_world_opts* opts, sn_world** out, sn_error* err) {
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_world_create: out is NULL");
    *out = NULL;
    sn_real dt = opts && opts->timestep != 0 ? opts->timestep : 0.001;
    if (!(dt > 0) || !isfinite(dt))
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "time step %g must be positive", dt);
    sn_allocator a = sni_allocator_or_default(opts ? opts->allocator : NULL);
    sn_world* w = sni_alloc(&a, sizeof *w);
    if (!w) return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "out of memory");
    w->alloc = a;
    w->log = opts ? opts->log : NULL;
    w->log_ctx = opts ? opts->log_ctx : NULL;
    w->dt = dt;
    w->gravity[2] = -9.81;
    w->ground = 0;
    w->margin = 1e-3;
    w->loop_erp = 1.5;
    w->friction = 0.8;
    sni_solver_init(&w->solver);
    *out = w;
    return SN_OK;
}


static void system_free(sn_system* s) {
    if (!s) return;
    sn_allocator a = s->world->alloc;
    sn_data_destroy(s->d);
    sni_free(&a, s->act.desc, (size_t)s->act.cap * sizeof(sn_actuator_desc));
    sni_free(&a, s->act.cmd, (size_t)s->act.cap * sizeof(sn_real));
    sni_free(&a, s->act.state, (size_t)s->act.cap * sizeof(sn_actuator_state));
    sni_free(&a, s, s->bytes);
}


static void heightfield_free(sn_world* w) {
    sni_free(&w->alloc, w->hf_z, (size_t)w->hf_nx * (size_t)w->hf_ny * sizeof(sn_real));
    w->hf_z = NULL;
    w->hf_nx = w->hf_ny = 0;
}


void sn_world_destroy(sn_world* w) {
    if (!w) return;
    for (int i = 0; i < w->nsys; i++)
        system_free(w->sys[i]);
    sni_world_arrays_free(w);
    heightfield_free(w);
    for (int i = 0; i < w->nowned; i++)
        sn_model_destroy(w->owned[i]);
    sni_free(&w->alloc, w->owned, (size_t)w->owned_cap * sizeof(sn_model*));
    sni_free(&w->alloc, w->sys, (size_t)w->sys_cap * sizeof(sn_system*));
    sn_allocator a = w->alloc;
    sni_free(&a, w, sizeof *w);
}


sn_status sn_world_set_timestep(sn_world* w, sn_real dt) {
    if (!w) return SN_ERR_ARG;
    if (!(dt > 0) || !isfinite(dt))
        return SET_ERR(w, SN_ERR_ARG, "time step %g must be positive", dt);
    w->dt = dt;
    return SN_OK;
}


sn_real sn_world_timestep(const sn_world* w) {
    return w->dt;
}
sn_real sn_world_time(const sn_world* w) {
    return w->time;
}
int sn_world_warning_count(const sn_world* w) {
    return w->nwarning;
}
const char* sn_world_last_warning(const sn_world* w) {
    return w->last_warning;
}
const char* sn_world_last_error(const sn_world* w) {
    return w->last_error;
}
int sn_world_system_count(const sn_world* w) {
    return w->nsys;
}


sn_system* sn_world_system(sn_world* w, int i) {
    return w && i >= 0 && i < w->nsys ? w->sys[i] : NULL;
}


sn_status sn_world_set_gravity(sn_world* w, const sn_real g[3]) {
    if (!w || !g) return SN_ERR_ARG;
    if (!isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2]))
        return SET_ERR(w, SN_ERR_NONFINITE, "gravity is not finite");
    memcpy(w->gravity, g, 3 * sizeof(sn_real));
    for (int i = 0; i < w->nsys; i++)
        sni_system_state_set(w->sys[i]);
    return SN_OK;
}


void sn_world_gravity(const sn_world* w, sn_real g[3]) {
    memcpy(g, w->gravity, 3 * sizeof(sn_real));
}


// ---- adding a system ----

// bounding spheres of the collision geometries in their bodies' frames
static void geom_bounds(sn_system* s) {
    const sn_model* m = s->m;
    for (int g = 0; g < m->ngeom; g++) {
        int f = m->geom_frame[g];
        const sn_real* sz = m->geom_size + 3 * g;
        sn_real* c = s->geom_center + 3 * g;
        m3_mul_v3(c, m->frame_rot + 9 * f, m->geom_pos + 3 * g);
        v3_add(c, c, m->frame_pos + 3 * f);
        sn_real r = 0;
        switch (m->geom_type[g]) {
        case SN_GEOM_SPHERE:
            r = sz[0];
            break;
        case SN_GEOM_CAPSULE:
            r = sz[0] + 0.5 * sz[1];
            break;
        case SN_GEOM_CYLINDER:
            r = sqrt(sz[0] * sz[0] + 0.25 * sz[1] * sz[1]);
            break;
        case SN_GEOM_BOX:
            r = 0.5 * sqrt(sz[0] * sz[0] + sz[1] * sz[1] + sz[2] * sz[2]);
            break;
        case SN_GEOM_ELLIPSOID:
            r = fmax(fmax(sz[0], sz[1]), sz[2]);
            break;
        case SN_GEOM_MESH: {
            // the sphere around the box of the vertices (none read: never collides)
            int nv = m->geom_vert_num[g];
            const sn_real* v = m->mesh_vert + 3 * (size_t)(nv ? m->geom_vert_adr[g] : 0);
            sn_real lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, mid[3], t[3];
            for (int k = 0; k < nv; k++)
                for (int i = 0; i < 3; i++) {
                    if (k == 0 || v[3 * k + i] < lo[i]) lo[i] = v[3 * k + i];
                    if (k == 0 || v[3 * k + i] > hi[i]) hi[i] = v[3 * k + i];
                }
            for (int i = 0; i < 3; i++)
                mid[i] = 0.5 * (lo[i] + hi[i]);
            for (int k = 0; k < nv; k++) {
                v3_sub(t, v + 3 * k, mid);
                if (v3_norm(t) > r) r = v3_norm(t);
            }
            if (nv == 0) r = 0;
            // the centre: mid in the geometry frame, then the link frame, then the body frame
            sn_real lm[3];
            m3_mul_v3(lm, m->geom_rot + 9 * g, mid);
            v3_add(lm, lm, m->geom_pos + 3 * g);
            m3_mul_v3(c, m->frame_rot + 9 * f, lm);
            v3_add(c, c, m->frame_pos + 3 * f);
            break;
        }
        default:
            r = 0;
            break;
        }
        s->geom_radius[g] = m->geom_is_visual[g] ? 0 : r;
    }
}


// defaults from the model: effort limits, damping, springs; targets at the initial state
static void system_defaults(sn_system* s) {
    const sn_model* m = s->m;
    geom_bounds(s);
    for (int b = 0; b < m->nbody; b++) {
        s->body_group[b] = 1;
        s->body_mask[b] = ~0u;
    }
    for (int v = 0; v < m->nv; v++) {
        s->ctl.lim_lo[v] = -m->dof_effort_limit[v];
        s->ctl.lim_hi[v] = m->dof_effort_limit[v];
        s->ctl.damping[v] = m->dof_damping[v];
    }
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint_nv[j] != 1) continue;
        int v = m->joint_vadr[j];
        s->ctl.spring_k[v] = m->dof_stiffness[v];
        s->ctl.spring_kq[v] = m->dof_stiffness[v] * m->joint_spring_ref[j];
    }
    memcpy(s->ctl.q_ref, s->d->q, (size_t)m->nq * sizeof(sn_real));
    s->act.mor_enforced = 1;
    sni_system_invalidate(s, SNI_VALID_W);
    s->step.has_constraints = m->nconstraint > 0;
    for (int j = 0; j < m->njoint; j++)
        if (m->joint_mimic[j] >= 0) s->step.has_constraints = 1;
}


sn_status sn_world_add_system(sn_world* w, const sn_model* m, sn_system** out, sn_error* err) {
    if (err) memset(err, 0, sizeof *err);
    if (!w || !m || !out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "NULL argument");
    *out = NULL;
    if (w->nsys == w->sys_cap) {
        int cap = w->sys_cap ? 2 * w->sys_cap : 4;
        sn_system** grown = sni_alloc(&w->alloc, (size_t)cap * sizeof *grown);
        if (!grown) return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "out of memory");
        if (w->sys) memcpy(grown, w->sys, (size_t)w->nsys * sizeof *grown);
        sni_free(&w->alloc, w->sys, (size_t)w->sys_cap * sizeof *grown);
        w->sys = grown;
        w->sys_cap = cap;
    }
    // the system and its arrays in one block: measured, then carved
    sn_system probe;
    memset(&probe, 0, sizeof probe);
    carver c = {NULL, sizeof(sn_system)};
    sni_system_layout(&probe, m, &c);
    sn_system* s = sni_alloc(&w->alloc, c.off);
    if (!s) return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "out of memory");
    carver c2 = {(char*)s, sizeof(sn_system)};
    sni_system_layout(s, m, &c2);
    s->bytes = c.off;
    s->world = w;
    s->m = m;
    sn_data_opts dopts = {&w->alloc, 0};
    sn_status st = sn_data_create(m, &dopts, &s->d, err);
    if (st != SN_OK) {
        sni_free(&w->alloc, s, s->bytes);
        return st;
    }
    if (m->nominal_config) memcpy(s->d->q, m->nominal_config, (size_t)m->nq * sizeof(sn_real));
    sni_loops_attach(s); // body2's anchors where body1's are, at this (nominal) configuration
    memcpy(s->d->gravity, w->gravity, sizeof w->gravity);
    system_defaults(s);
    sni_system_state_set(s);
    s->index = w->nsys;
    w->sys[w->nsys++] = s;
    st = sni_world_arrays_alloc(w);
    if (st == SN_OK) st = sni_system_actuators_from_model(s);
    if (st != SN_OK) {
        w->nsys--;
        system_free(s);
        return sni_error(err, st, NULL, 0, NULL, "%s", w->last_error);
    }
    *out = s;
    return SN_OK;
}


// ---- state ----

const sn_model* sn_system_model(const sn_system* s) {
    return s->m;
}
sn_data* sn_system_data(sn_system* s) {
    return s->d;
}
const sn_real* sn_system_q(const sn_system* s) {
    return s->d->q;
}
const sn_real* sn_system_u(const sn_system* s) {
    return s->d->u;
}


// kinematics and the cached dynamics must be recomputed (lazily); a new state also ends the
// contact solver's warm-start history
void sni_system_state_set(sn_system* s) {
    sni_solver_forget(&s->world->solver);
    memset(s->solve.row_prev, 0, 3 * (size_t)s->m->nv * sizeof(sn_real));
    memcpy(s->d->gravity, s->world->gravity, 3 * sizeof(sn_real));
    sni_system_invalidate(s, SNI_VALID_STATE);
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
    if (!q || nq != m->nq)
        return SET_ERR(w, SN_ERR_ARG, "q has %d entries, not nq = %d", nq, m->nq);
    if (!all_finite(q, nq)) return SET_ERR(w, SN_ERR_NONFINITE, "q is not finite");
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        const sn_real* e = q + m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        sn_real n = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
        if (!(n > 1e-12))
            return SET_ERR(w, SN_ERR_ARG, "the quaternion of joint '%s' is zero",
                           m->names + m->joint_name[j]);
        if (fabs(n - 1) > 1e-9)
            sni_world_warn(w, "the quaternion of joint '%s' has norm %.9g and was normalized",
                           m->names + m->joint_name[j], n);
    }
    return SN_OK;
}


sn_status sn_system_set_state(sn_system* s, const sn_real* q, int nq, const sn_real* u, int nv) {
    if (!s) return SN_ERR_ARG;
    sn_status st = check_q(s, q, nq);
    if (st != SN_OK) return st;
    if (!u || nv != s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "u has %d entries, not nv = %d", nv, s->m->nv);
    if (!all_finite(u, nv)) return SET_ERR(s->world, SN_ERR_NONFINITE, "u is not finite");
    st = sn_set_state(s->m, s->d, q, nq, u, nv);
    if (st != SN_OK) return st;
    s->has_contacted = 0;
    sni_system_state_set(s);
    return SN_OK;
}


sn_status sn_system_set_q(sn_system* s, const sn_real* q, int nq) {
    if (!s) return SN_ERR_ARG;
    sn_status st = check_q(s, q, nq);
    if (st != SN_OK) return st;
    st = sn_set_state(s->m, s->d, q, nq, NULL, 0);
    if (st != SN_OK) return st;
    s->has_contacted = 0;
    sni_system_state_set(s);
    return SN_OK;
}


sn_status sn_system_set_u(sn_system* s, const sn_real* u, int nv) {
    if (!s) return SN_ERR_ARG;
    if (!u || nv != s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "u has %d entries, not nv = %d", nv, s->m->nv);
    if (!all_finite(u, nv)) return SET_ERR(s->world, SN_ERR_NONFINITE, "u is not finite");
    memcpy(s->d->u, u, (size_t)nv * sizeof(sn_real));
    sni_system_state_set(s);
    return SN_OK;
}


// ---- dynamics getters (lazy) ----

const sn_real* sn_system_mass_matrix(sn_system* s) {
    sni_ensure_kinematics(s);
    if (!(s->valid & SNI_VALID_MASS)) {
        sn_crba(s->m, s->d);
        s->valid |= SNI_VALID_MASS;
    }
    return s->d->mass_matrix;
}


const sn_real* sn_system_nonlinear(sn_system* s) {
    sni_ensure_kinematics(s);
    if (!(s->valid & SNI_VALID_BIAS)) {
        sn_nonlinear(s->m, s->d);
        s->valid |= SNI_VALID_BIAS;
    }
    return s->d->nonlinear;
}


const sn_real* sn_system_inverse_mass(sn_system* s) {
    if (!(s->valid & SNI_VALID_MINV)) {
        sn_system_mass_matrix(s);
        if (sn_inverse_mass(s->m, s->d) != SN_OK) return NULL;
        s->valid |= SNI_VALID_MINV;
    }
    return s->d->inverse_mass;
}


sn_real sn_system_kinetic_energy(sn_system* s) {
    sni_ensure_kinematics(s);
    return sn_kinetic_energy(s->m, s->d);
}


sn_real sn_system_potential_energy(sn_system* s) {
    sni_ensure_kinematics(s);
    return sn_potential_energy(s->m, s->d);
}


// ---- control ----

sn_status sn_system_set_control_mode(sn_system* s, sn_control_mode mode) {
    if (!s || (mode != SN_CONTROL_FORCE_AND_TORQUE && mode != SN_CONTROL_PD_PLUS_FEEDFORWARD))
        return SN_ERR_ARG;
    s->ctl.mode = mode;
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


sn_control_mode sn_system_control_mode(const sn_system* s) {
    return (sn_control_mode)s->ctl.mode;
}


static sn_status check_vec(sn_system* s, const sn_real* x, int n, int want, const char* what,
                           int nonneg) {
    if (!x || n != want)
        return SET_ERR(s->world, SN_ERR_ARG, "%s has %d entries, not %d", what, n, want);
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            return SET_ERR(s->world, SN_ERR_NONFINITE, "%s[%d] is not finite", what, i);
        if (nonneg && x[i] < 0)
            return SET_ERR(s->world, SN_ERR_ARG, "%s[%d] = %g is negative", what, i, x[i]);
    }
    return SN_OK;
}


sn_status sn_system_set_pd_gains(sn_system* s, const sn_real* kp, const sn_real* kd, int nv) {
    if (!s) return SN_ERR_ARG;
    sn_status st = check_vec(s, kp, nv, s->m->nv, "kp", 1);
    if (st == SN_OK) st = check_vec(s, kd, nv, s->m->nv, "kd", 1);
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
    if (!s) return SN_ERR_ARG;
    sn_status st = check_vec(s, q_ref, nq, s->m->nq, "q_ref", 0);
    if (st == SN_OK) st = check_vec(s, u_ref, nv, s->m->nv, "u_ref", 0);
    if (st != SN_OK) return st;
    const sn_model* m = s->m;
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        const sn_real* e = q_ref + m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        if (!(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3] > 1e-24))
            return SET_ERR(s->world, SN_ERR_ARG, "the target quaternion of joint '%s' is zero",
                           m->names + m->joint_name[j]);
    }
    memcpy(s->ctl.q_ref, q_ref, (size_t)nq * sizeof(sn_real));
    memcpy(s->ctl.u_ref, u_ref, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sn_system_set_generalized_force(sn_system* s, const sn_real* tau, int nv) {
    if (!s) return SN_ERR_ARG;
    sn_status st = check_vec(s, tau, nv, s->m->nv, "tau", 0);
    if (st != SN_OK) return st;
    memcpy(s->ctl.tau_ff, tau, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sn_system_set_actuation_limits(sn_system* s, const sn_real* lower, const sn_real* upper,
                                         int nv) {
    if (!s || !lower || !upper || nv != s->m->nv)
        return s ? SET_ERR(s->world, SN_ERR_ARG, "actuation limits need nv = %d entries", s->m->nv)
                 : SN_ERR_ARG;
    for (int i = 0; i < nv; i++)
        if (isnan(lower[i]) || isnan(upper[i]) || lower[i] > upper[i])
            return SET_ERR(s->world, SN_ERR_ARG, "actuation limit %d: [%g, %g] is not a range", i,
                           lower[i], upper[i]);
    memcpy(s->ctl.lim_lo, lower, (size_t)nv * sizeof(sn_real));
    memcpy(s->ctl.lim_hi, upper, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}


sn_status sn_system_set_joint_damping(sn_system* s, const sn_real* b, int nv) {
    if (!s) return SN_ERR_ARG;
    sn_status st = check_vec(s, b, nv, s->m->nv, "damping", 1);
    if (st != SN_OK) return st;
    memcpy(s->ctl.damping, b, (size_t)nv * sizeof(sn_real));
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


sn_status sn_system_add_spring(sn_system* s, int joint, sn_real k, sn_real rest) {
    if (!s) return SN_ERR_ARG;
    const sn_model* m = s->m;
    if (joint < 0 || joint >= m->njoint || m->joint_nv[joint] != 1)
        return SET_ERR(s->world, SN_ERR_ARG, "a spring needs a 1-DOF joint (got %d)", joint);
    if (!isfinite(k) || !isfinite(rest) || k < 0)
        return SET_ERR(s->world, SN_ERR_ARG, "spring stiffness %g / rest %g", k, rest);
    int v = m->joint_vadr[joint];
    s->ctl.spring_k[v] += k;
    s->ctl.spring_kq[v] += k * rest;
    sni_system_invalidate(s, SNI_VALID_W);
    return SN_OK;
}


void sn_system_springs(const sn_system* s, sn_real* stiffness, sn_real* rest) {
    for (int v = 0; v < s->m->nv; v++) {
        if (stiffness) stiffness[v] = s->ctl.spring_k[v];
        if (rest) rest[v] = s->ctl.spring_k[v] > 0 ? s->ctl.spring_kq[v] / s->ctl.spring_k[v] : 0;
    }
}


sn_real sn_system_spring_energy(const sn_system* s) {
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
    if (!s || !point || !force) return SN_ERR_ARG;
    if (body < 0 || body >= s->m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG, "body %d out of range", body);
    sni_ensure_kinematics(s);
    sn_real x[3];
    m3_mul_v3(x, s->d->body_rot + 9 * body, point);
    v3_add(x, x, s->d->body_pos + 3 * body);
    return apply_wrench(s, body, x, force, NULL);
}


sn_status sn_system_set_external_torque(sn_system* s, int body, const sn_real torque[3]) {
    if (!s || !torque) return SN_ERR_ARG;
    return apply_wrench(s, body, NULL, NULL, torque);
}


sn_status sn_system_set_constraint_force(sn_system* s, int body, const sn_real point[3],
                                         const sn_real force[3]) {
    return sn_system_set_external_force(s, body, point, force);
}


// ---- actuators ----

sn_status sn_system_add_actuator(sn_system* s, const sn_actuator_desc* a, int* id) {
    if (!s || !a) return SN_ERR_ARG;
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
    return s->act.n;
}


sn_status sn_system_set_actuator_torques(sn_system* s, const sn_real* tau, int n) {
    if (!s) return SN_ERR_ARG;
    sn_status st = check_vec(s, tau, n, s->act.n, "actuator torques", 0);
    if (st != SN_OK) return st;
    memcpy(s->act.cmd, tau, (size_t)n * sizeof(sn_real));
    return SN_OK;
}


void sn_system_set_motor_region_enforced(sn_system* s, int enforced) {
    s->act.mor_enforced = enforced != 0;
}


sn_status sn_system_actuator_states(const sn_system* s, sn_actuator_state* out, int n) {
    if (!s || !out || n != s->act.n) return SN_ERR_ARG;
    memcpy(out, s->act.state, (size_t)n * sizeof *out);
    return SN_OK;
}


// ---- getGeneralizedForce ----

sn_status sn_system_generalized_force(sn_system* s, sn_real* out, int nv) {
    if (!s || !out || nv != s->m->nv) return SN_ERR_ARG;
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
    if (!s || scheme < SN_SCHEME_SEMI_IMPLICIT || scheme > SN_SCHEME_RK4) return SN_ERR_ARG;
    s->step.scheme = scheme;
    return SN_OK;
}


sn_scheme sn_system_scheme(const sn_system* s) {
    return (sn_scheme)s->step.scheme;
}
sn_scheme sn_system_scheme_used(const sn_system* s) {
    return (sn_scheme)s->step.scheme_used;
}
void sn_system_set_compute_inverse_dynamics(sn_system* s, int on) {
    s->id.compute = on != 0;
}


// ---- contacts ----

sn_status sn_world_set_ground(sn_world* w, int enabled, sn_real height) {
    if (!w || !isfinite(height)) return SN_ERR_ARG;
    w->ground = enabled != 0;
    w->ground_height = height;
    return SN_OK;
}


sn_status sn_world_set_heightfield(sn_world* w, int nx, int ny, sn_real x0, sn_real y0, sn_real dx,
                                   sn_real dy, const sn_real* z) {
    if (!w) return SN_ERR_ARG;
    if (nx == 0) {
        heightfield_free(w);
        return SN_OK;
    }
    if (nx < 2 || ny < 2 || (double)nx * ny > 1 << 26)
        return SET_ERR(w, SN_ERR_ARG, "heightfield: %d x %d points (2 to 2^26 in all)", nx, ny);
    if (!z) return SET_ERR(w, SN_ERR_ARG, "heightfield: no heights");
    if (!(dx > 0) || !(dy > 0) || !isfinite(dx) || !isfinite(dy) || !isfinite(x0) || !isfinite(y0))
        return SET_ERR(w, SN_ERR_ARG, "heightfield: spacing %g x %g must be finite and > 0", dx,
                       dy);
    size_t n = (size_t)nx * (size_t)ny;
    sn_real zmax = -(sn_real)INFINITY;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(z[k]))
            return SET_ERR(w, SN_ERR_NONFINITE, "heightfield: height %zu (i %zu, j %zu) is %g", k,
                           k % (size_t)nx, k / (size_t)nx, z[k]);
        if (z[k] > zmax) zmax = z[k];
    }
    sn_real* copy = sni_alloc(&w->alloc, n * sizeof(sn_real));
    if (!copy) return SET_ERR(w, SN_ERR_NOMEM, "heightfield: out of memory");
    memcpy(copy, z, n * sizeof(sn_real));
    heightfield_free(w);
    w->hf_z = copy;
    w->hf_nx = nx, w->hf_ny = ny;
    w->hf_x0 = x0, w->hf_y0 = y0, w->hf_dx = dx, w->hf_dy = dy, w->hf_zmax = zmax;
    return SN_OK;
}


sn_real sn_world_terrain_height(const sn_world* w, sn_real x, sn_real y, sn_real* normal) {
    sn_real n[3] = {0, 0, 1}, off = -(sn_real)INFINITY;
    if (w && isfinite(x) && isfinite(y) && !sni_terrain_plane(w, x, y, n, &off))
        off = -(sn_real)INFINITY;
    if (normal) v3_copy(normal, n);
    if (!isfinite(off)) return off;
    return (off - n[0] * x - n[1] * y) / n[2];
}


sn_status sn_world_set_material(sn_world* w, sn_real friction, sn_real restitution,
                                sn_real threshold) {
    if (!w) return SN_ERR_ARG;
    if (!(friction >= 0) || !(restitution >= 0) || !(threshold >= 0) || !isfinite(friction) ||
        !isfinite(restitution) || !isfinite(threshold))
        return SET_ERR(w, SN_ERR_ARG,
                       "material: friction, restitution and threshold must be "
                       "finite and >= 0");
    w->friction = friction;
    w->restitution = restitution;
    w->restitution_threshold = threshold;
    return SN_OK;
}


sn_status sn_world_set_erp(sn_world* w, sn_real erp) {
    if (!w || !(erp >= 0) || !(erp <= 1))
        return w ? SET_ERR(w, SN_ERR_ARG, "erp in [0, 1]") : SN_ERR_ARG;
    w->solver.erp = erp;
    return SN_OK;
}


sn_status sn_world_set_solver(sn_world* w, int max_iterations, sn_real tolerance) {
    if (!w || max_iterations < 1 || !(tolerance > 0)) return SN_ERR_ARG;
    w->solver.max_iter = max_iterations;
    w->solver.tol = tolerance;
    return SN_OK;
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
    int n = 0, side;
    while (nth_contact(s, n, &side))
        n++;
    return n;
}


sn_status sn_system_contact(const sn_system* s, int i, sn_contact* out) {
    int b = 0;
    const sni_contact* c = s && out && i >= 0 ? nth_contact(s, i, &b) : NULL;
    if (!c) return SN_ERR_ARG;
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
    return SN_OK;
}


void sn_system_set_joint_limits_enabled(sn_system* s, int enabled) {
    s->ctl.limits_off = !enabled;
}


void sn_world_set_warm_start(sn_world* w, int enabled) {
    w->solver.warm_start = enabled != 0;
    sni_solver_forget(&w->solver);
}


// ---- collision filters ----

sn_status sn_system_set_collision_filter(sn_system* s, int body, unsigned group, unsigned mask) {
    if (!s || body < 0 || body >= s->m->nbody) return SN_ERR_ARG;
    s->body_group[body] = group;
    s->body_mask[body] = mask;
    return SN_OK;
}


void sn_system_set_self_collision(sn_system* s, int enabled) {
    s->self_collision = enabled != 0;
}


// ---- free rigid bodies: a one-link floating model made and owned by the world ----

// a free body: its collision shape (URDF geometry), mass, inertia about the centre of mass
// (xx, xy, xz, yy, yz, zz) and the centre of mass in the body frame
static sn_status add_free_body(sn_world* w, const char* shape, sn_real mass, const sn_real* I,
                               const sn_real* com, sn_system** out) {
    if (!w || !out) return SN_ERR_ARG;
    *out = NULL;
    if (!(mass > 0) || !isfinite(mass))
        return SET_ERR(w, SN_ERR_ARG, "a free body needs a positive finite mass");
    char xml[5120];
    int len = snprintf(xml, sizeof xml,
                       "<robot name=\"body\"><link name=\"body\"><inertial><origin xyz=\"%.17g "
                       "%.17g %.17g\"/><mass value=\"%.17g\"/><inertia ixx=\"%.17g\" ixy=\"%.17g\" "
                       "ixz=\"%.17g\" iyy=\"%.17g\" iyz=\"%.17g\" izz=\"%.17g\"/></inertial>"
                       "<collision><geometry>%s</geometry></collision></link></robot>",
                       com[0], com[1], com[2], mass, I[0], I[1], I[2], I[3], I[4], I[5], shape);
    if (len < 0 || (size_t)len >= sizeof xml)
        return SET_ERR(w, SN_ERR_ARG, "the shape's description is too long");
    if (w->nowned == w->owned_cap) {
        int cap = w->owned_cap ? 2 * w->owned_cap : 8;
        sn_model** grown = sni_alloc(&w->alloc, (size_t)cap * sizeof *grown);
        if (!grown) return SET_ERR(w, SN_ERR_NOMEM, "out of memory");
        if (w->owned) memcpy(grown, w->owned, (size_t)w->nowned * sizeof *grown);
        sni_free(&w->alloc, w->owned, (size_t)w->owned_cap * sizeof *grown);
        w->owned = grown;
        w->owned_cap = cap;
    }
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.allocator = &w->alloc;
    sn_model* m = NULL;
    sn_error err;
    sn_status st = sn_load_urdf_string(xml, strlen(xml), "free body", NULL, &o, &m, &err);
    if (st != SN_OK) return SET_ERR(w, st, "%s", err.msg);
    st = sn_world_add_system(w, m, out, &err);
    if (st != SN_OK) {
        sn_model_destroy(m);
        return SET_ERR(w, st, "%s", err.msg);
    }
    w->owned[w->nowned++] = m;
    return SN_OK;
}


static int positive3(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i])) return 0;
    return 1;
}


sn_status sn_world_add_sphere(sn_world* w, sn_real radius, sn_real mass, sn_system** out) {
    if (!positive3(&radius, 1))
        return w ? SET_ERR(w, SN_ERR_ARG, "radius must be positive") : SN_ERR_ARG;
    char g[128];
    snprintf(g, sizeof g, "<sphere radius=\"%.17g\"/>", radius);
    sn_real i = 0.4 * mass * radius * radius, I[6] = {i, 0, 0, i, 0, i}, c[3] = {0, 0, 0};
    return add_free_body(w, g, mass, I, c, out);
}


sn_status sn_world_add_box(sn_world* w, const sn_real size[3], sn_real mass, sn_system** out) {
    if (!size || !positive3(size, 3))
        return w ? SET_ERR(w, SN_ERR_ARG, "box sizes must be positive") : SN_ERR_ARG;
    char g[160];
    snprintf(g, sizeof g, "<box size=\"%.17g %.17g %.17g\"/>", size[0], size[1], size[2]);
    sn_real x = size[0] * size[0], y = size[1] * size[1], z = size[2] * size[2];
    sn_real I[6] = {mass * (y + z) / 12, 0, 0, mass * (x + z) / 12, 0, mass * (x + y) / 12};
    sn_real c[3] = {0, 0, 0};
    return add_free_body(w, g, mass, I, c, out);
}


sn_status sn_world_add_cylinder(sn_world* w, sn_real radius, sn_real length, sn_real mass,
                                sn_system** out) {
    sn_real d[2] = {radius, length};
    if (!positive3(d, 2))
        return w ? SET_ERR(w, SN_ERR_ARG, "radius and length must be positive") : SN_ERR_ARG;
    char g[160];
    snprintf(g, sizeof g, "<cylinder radius=\"%.17g\" length=\"%.17g\"/>", radius, length);
    sn_real t = mass * (3 * radius * radius + length * length) / 12;
    sn_real I[6] = {t, 0, 0, t, 0, 0.5 * mass * radius * radius}, c[3] = {0, 0, 0};
    return add_free_body(w, g, mass, I, c, out);
}


sn_status sn_world_add_capsule(sn_world* w, sn_real radius, sn_real length, sn_real mass,
                               sn_system** out) {
    sn_real d[2] = {radius, length};
    if (!positive3(d, 2))
        return w ? SET_ERR(w, SN_ERR_ARG, "radius and length must be positive") : SN_ERR_ARG;
    char g[160];
    snprintf(g, sizeof g, "<capsule radius=\"%.17g\" length=\"%.17g\"/>", radius, length);
    // mass shared by volume between the cylinder and the two hemispheres
    sn_real r = radius, L = length, vc = r * r * L, vs = 4.0 / 3.0 * r * r * r;
    sn_real mc = mass * vc / (vc + vs), ms = mass - mc;
    sn_real izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
    sn_real ixx = mc * (3 * r * r + L * L) / 12 + ms * (0.4 * r * r + 0.25 * L * L + 0.375 * L * r);
    sn_real I[6] = {ixx, 0, 0, ixx, 0, izz}, c[3] = {0, 0, 0};
    return add_free_body(w, g, mass, I, c, out);
}


// ---- materials and reporting ----

sn_status sn_system_set_body_material(sn_system* s, int body, int material) {
    if (!s || body < 0 || body >= s->m->nbody || material < 0 || material > 15) return SN_ERR_ARG;
    s->body_material[body] = material;
    return SN_OK;
}


sn_status sn_world_set_material_pair(sn_world* w, int a, int b, sn_real friction,
                                     sn_real restitution, sn_real threshold) {
    if (!w || a < 0 || a > 15 || b < 0 || b > 15) return SN_ERR_ARG;
    if (!(friction >= 0) || !(restitution >= 0) || !(threshold >= 0) || !isfinite(friction) ||
        !isfinite(restitution) || !isfinite(threshold))
        return SET_ERR(w, SN_ERR_ARG,
                       "material: friction, restitution and threshold must be "
                       "finite and >= 0");
    sn_real v[3] = {friction, restitution, threshold};
    memcpy(w->pair_material[a][b], v, sizeof v);
    memcpy(w->pair_material[b][a], v, sizeof v);
    w->pair_set[a][b] = w->pair_set[b][a] = 1;
    return SN_OK;
}


sn_status sn_system_body_contact_force(const sn_system* s, int body, sn_real force[3],
                                       sn_real torque[3]) {
    if (!s || body < 0 || body >= s->m->nbody) return SN_ERR_ARG;
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


sn_status sn_world_add_mesh(sn_world* w, const char* path, const sn_real scale[3], sn_real mass,
                            sn_system** out) {
    if (!w) return SN_ERR_ARG;
    if (!path || !path[0]) return SET_ERR(w, SN_ERR_ARG, "no mesh file named");
    if (strpbrk(path, "\"<>&"))
        return SET_ERR(w, SN_ERR_ARG, "the mesh path '%s' holds one of \" < > &", path);
    sn_real one[3] = {1, 1, 1};
    const sn_real* sc = scale ? scale : one;
    if (!positive3(sc, 3)) return SET_ERR(w, SN_ERR_ARG, "mesh scales must be positive");
    // the hull of the file's vertices, and the solid it bounds at uniform density
    sni_buf v = {NULL, 0, 0, &w->alloc, 0};
    char msg[600];
    int line = 0, *tri = NULL, ntri = 0;
    sn_status st = sni_mesh_read(path, sc, &w->alloc, &v, &line, msg, sizeof msg);
    if (st != SN_OK) {
        sni_buf_free(&v);
        return SET_ERR(w, st, "%s", msg);
    }
    int nv = (int)(v.len / (3 * sizeof(sn_real)));
    st = sni_hull((const sn_real*)(void*)v.data, nv, &w->alloc, &tri, &ntri);
    sn_real vol = 0, com[3] = {0, 0, 0}, C[9];
    if (st == SN_OK) sni_hull_mass((const sn_real*)(void*)v.data, tri, ntri, &vol, com, C);
    sni_free(&w->alloc, tri, (size_t)ntri * 3 * sizeof(int));
    sni_buf_free(&v);
    if (st == SN_ERR_NOMEM) return SET_ERR(w, st, "out of memory");
    if (st != SN_OK || !(vol > 0))
        return SET_ERR(w, SN_ERR_MODEL, "%s: the mesh is flat; a free body needs a solid hull",
                       path);
    // inertia about the centroid: rho (C - V c c^T), then I = tr(S) 1 - S
    sn_real rho = mass / vol, S[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            S[3 * i + j] = rho * (C[3 * i + j] - vol * com[i] * com[j]);
    sn_real tr = S[0] + S[4] + S[8];
    sn_real I[6] = {tr - S[0], -S[1], -S[2], tr - S[4], -S[5], tr - S[8]};
    char g[4200];
    int len = snprintf(g, sizeof g, "<mesh filename=\"%s\" scale=\"%.17g %.17g %.17g\"/>", path,
                       sc[0], sc[1], sc[2]);
    if (len < 0 || (size_t)len >= sizeof g)
        return SET_ERR(w, SN_ERR_ARG, "the mesh path is too long");
    return add_free_body(w, g, mass, I, com, out);
}


sn_status sn_world_set_loop_erp(sn_world* w, sn_real erp) {
    if (!w || !(erp >= 0) || !isfinite(erp))
        return w ? SET_ERR(w, SN_ERR_ARG, "the loops' erp must be finite and >= 0") : SN_ERR_ARG;
    w->loop_erp = erp;
    return SN_OK;
}
