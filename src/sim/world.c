// SPDX-License-Identifier: Apache-2.0
// world.c: the world: creation and destruction, its settings (time step, gravity, ground,
// heightfield, materials, the solver's and the loops' settings) and the systems it holds, each
// with every array allocated when it is added (layout). The systems' own calls are in system.c.
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)
// the contact solver's most iterations per step (sn_world_set_solver): a bound a step can keep
#define SNI_SOLVER_MAX_ITER 1000000


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
    sni_last_error_set(w->last_error);
    return code;
}


// ---- world ----

sn_status sn_world_create(const sn_world_opts* opts, sn_world** out, sn_error* err) {
    if (out) *out = NULL;
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_world_create: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_world_create: out is NULL");
    *out = NULL;
    sn_real dt = opts && opts->timestep != 0 ? opts->timestep : 0.001;
    if (!(dt >= SN_TIMESTEP_MIN && dt <= SN_TIMESTEP_MAX))
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "sn_world_create: opts->timestep: time step %g s is outside %g to %g s",
                         dt, SN_TIMESTEP_MIN, SN_TIMESTEP_MAX);
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
    sni_soft_free(s);
    sni_rotor_free(s);
    sni_sensors_free(s);
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
    sni_soft_world_free(w);
    sni_couple_free(&w->alloc, w->couple);
    for (int i = 0; i < w->nowned; i++)
        sn_model_destroy(w->owned[i]);
    sni_free(&w->alloc, w->owned, (size_t)w->owned_cap * sizeof(sn_model*));
    sni_free(&w->alloc, w->sys, (size_t)w->sys_cap * sizeof(sn_system*));
    sn_allocator a = w->alloc;
    sni_free(&a, w, sizeof *w);
}


sn_status sn_world_set_timestep(sn_world* w, sn_real dt) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!(dt >= SN_TIMESTEP_MIN && dt <= SN_TIMESTEP_MAX))
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_world_set_timestep: dt %g s is outside %g to %g s (SN_TIMESTEP_MIN, "
                       "SN_TIMESTEP_MAX)",
                       dt, SN_TIMESTEP_MIN, SN_TIMESTEP_MAX);
    w->dt = dt;
    return SN_OK;
}


sn_real sn_world_timestep(const sn_world* w) {
    SNI_REFUSE_NULL(w, (sn_real)NAN);
    return w->dt;
}
sn_real sn_world_time(const sn_world* w) {
    SNI_REFUSE_NULL(w, (sn_real)NAN);
    return w->time;
}
int sn_world_warning_count(const sn_world* w) {
    SNI_REFUSE_NULL(w, SN_NONE);
    return w->nwarning;
}
const char* sn_world_last_warning(const sn_world* w) {
    return w ? w->last_warning : "sn_world_last_warning: w is NULL";
}
const char* sn_world_last_error(const sn_world* w) {
    return w ? w->last_error : "sn_world_last_error: w is NULL";
}
int sn_world_system_count(const sn_world* w) {
    SNI_REFUSE_NULL(w, SN_NONE);
    return w->nsys;
}


sn_system* sn_world_system(sn_world* w, int i) {
    SNI_REFUSE_NULL(w, NULL);
    if (i < 0 || i >= w->nsys) {
        SET_ERR(w, SN_ERR_ARG, "sn_world_system: i %d is out of range (%d systems)", i, w->nsys);
        return NULL;
    }
    return w->sys[i];
}


sn_status sn_world_set_gravity(sn_world* w, const sn_real g[3]) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!g) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_set_gravity: g is NULL");
    if (!g) return SET_ERR(w, SN_ERR_ARG, "sn_world_set_gravity: g is NULL");
    if (!isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2]))
        return SET_ERR(w, SN_ERR_NONFINITE, "gravity is not finite");
    memcpy(w->gravity, g, 3 * sizeof(sn_real));
    for (int i = 0; i < w->nsys; i++)
        sni_system_state_set(w->sys[i]);
    return SN_OK;
}


void sn_world_gravity(const sn_world* w, sn_real g[3]) {
    if (!w) {
        sni_refuse(SN_ERR_ARG, "sn_world_gravity: w is NULL");
        if (g) v3_set(g, (sn_real)NAN, (sn_real)NAN, (sn_real)NAN);
        return;
    }
    if (!g) {
        sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_gravity: g is NULL");
        return;
    }
    memcpy(g, w->gravity, 3 * sizeof(sn_real));
}


// ---- adding a system ----


// defaults from the model: effort limits, damping, springs; targets at the initial state
static void system_defaults(sn_system* s) {
    const sn_model* m = s->m;
    sni_geom_bounds(s);
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
    if (out) *out = NULL;
    if (!w) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_world_add_system: w is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!m || !out) {
        SET_ERR(w, SN_ERR_ARG, "sn_world_add_system: %s is NULL", !m ? "m" : "out");
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "%s", w->last_error);
    }
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
    sni_system_placements(m, s->placed, 0); // the model as it is set up (checkpoints)
    sni_loops_attach(s); // body2's anchors where body1's are, at this (nominal) configuration
    memcpy(s->d->gravity, w->gravity, sizeof w->gravity);
    system_defaults(s);
    sni_system_state_set(s);
    s->index = w->nsys;
    w->sys[w->nsys++] = s;
    st = sni_world_arrays_alloc(w);
    if (st == SN_OK) st = sni_system_actuators_from_model(s);
    if (st == SN_OK) st = sni_sensors_from_model(s); // the file's sensors (sensor/sensor.c)
    if (st == SN_OK && sni_soft_on(w) && !sni_soft_get(s)) st = SN_ERR_NOMEM;
    if (st != SN_OK) {
        w->nsys--;
        system_free(s);
        return sni_error(err, st, NULL, 0, NULL, "%s", w->last_error);
    }
    *out = s;
    return SN_OK;
}


// ---- contacts ----

sn_status sn_world_set_ground(sn_world* w, int enabled, sn_real height) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!isfinite(height))
        return SET_ERR(w, SN_ERR_ARG, "the ground's height %g is not finite", height);
    w->ground = enabled != 0;
    w->ground_height = height;
    return SN_OK;
}


sn_status sn_world_set_heightfield(sn_world* w, int nx, int ny, sn_real x0, sn_real y0, sn_real dx,
                                   sn_real dy, const sn_real* z) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (nx == 0) {
        heightfield_free(w);
        return SN_OK;
    }
    if (nx < 2 || ny < 2 || (double)nx * ny > 1 << 26)
        return SET_ERR(w, SN_ERR_ARG, "heightfield: nx %d x ny %d points (2 to 2^26 in all)", nx,
                       ny);
    if (!z) return SET_ERR(w, SN_ERR_ARG, "heightfield: no heights (z is NULL)");
    if (!isfinite(x0) || !isfinite(y0))
        return SET_ERR(w, SN_ERR_ARG, "heightfield: the corner x0 %g, y0 %g must be finite", x0,
                       y0);
    if (!(dx > 0) || !(dy > 0) || !isfinite(dx) || !isfinite(dy))
        return SET_ERR(w, SN_ERR_ARG, "heightfield: spacing dx %g x dy %g must be finite and > 0",
                       dx, dy);
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
    SNI_REFUSE_NULL(w, (sn_real)NAN);
    if (isnan(x) || isnan(y)) {
        SET_ERR((sn_world*)w, SN_ERR_ARG, "sn_world_terrain_height: %s is NaN",
                isnan(x) ? "x" : "y");
        if (normal) v3_set(normal, (sn_real)NAN, (sn_real)NAN, (sn_real)NAN);
        return (sn_real)NAN;
    }
    sn_real n[3] = {0, 0, 1}, off = -(sn_real)INFINITY;
    if (isfinite(x) && isfinite(y) && !sni_terrain_plane(w, x, y, n, &off))
        off = -(sn_real)INFINITY;
    if (normal) v3_copy(normal, n);
    if (!isfinite(off)) return off;
    return (off - n[0] * x - n[1] * y) / n[2];
}


// a material's numbers: friction and threshold finite and >= 0, restitution within [0, 1] (above
// 1 a contact would bounce higher than it came, and the gravity step's approach of a body at
// rest would make it hop)
static sn_status check_material(sn_world* w, sn_real friction, sn_real restitution,
                                sn_real threshold) {
    if (!(friction >= 0) || !isfinite(friction) || !(threshold >= 0) || !isfinite(threshold))
        return SET_ERR(w, SN_ERR_ARG,
                       "material: friction %g and restitution threshold %g must be finite and "
                       ">= 0",
                       friction, threshold);
    if (!(restitution >= 0) || !(restitution <= 1))
        return SET_ERR(w, SN_ERR_ARG, "material: restitution %g must be within 0 to 1",
                       restitution);
    return SN_OK;
}


sn_status sn_world_set_material(sn_world* w, sn_real friction, sn_real restitution,
                                sn_real threshold) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    sn_status st = check_material(w, friction, restitution, threshold);
    if (st != SN_OK) return st;
    w->friction = friction;
    w->restitution = restitution;
    w->restitution_threshold = threshold;
    return SN_OK;
}


sn_status sn_world_set_erp(sn_world* w, sn_real erp) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!(erp >= 0) || !(erp <= 1)) return SET_ERR(w, SN_ERR_ARG, "erp in [0, 1]");
    w->solver.erp = erp;
    return SN_OK;
}


sn_status sn_world_set_solver(sn_world* w, int max_iterations, sn_real tolerance) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (max_iterations < 1 || max_iterations > SNI_SOLVER_MAX_ITER)
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_world_set_solver: max_iterations %d: the solver needs at least 1 "
                       "iteration, at most %d",
                       max_iterations, SNI_SOLVER_MAX_ITER);
    if (!(tolerance > 0) || !isfinite(tolerance))
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_world_set_solver: tolerance %g must be finite and > 0 (the solver's "
                       "tolerance)",
                       tolerance);
    w->solver.max_iter = max_iterations;
    w->solver.tol = tolerance;
    return SN_OK;
}


void sn_world_set_warm_start(sn_world* w, int enabled) {
    SNI_REFUSE_NULL_VOID(w);
    w->solver.warm_start = enabled != 0;
    sni_solver_forget(&w->solver);
}


sn_status sn_world_set_material_pair(sn_world* w, int a, int b, sn_real friction,
                                     sn_real restitution, sn_real threshold) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (a < 0 || a > 15 || b < 0 || b > 15)
        return SET_ERR(w, SN_ERR_ARG, "material ids a %d and b %d: each must be 0 to 15", a, b);
    sn_status st = check_material(w, friction, restitution, threshold);
    if (st != SN_OK) return st;
    sn_real v[3] = {friction, restitution, threshold};
    memcpy(w->pair_material[a][b], v, sizeof v);
    memcpy(w->pair_material[b][a], v, sizeof v);
    w->pair_set[a][b] = w->pair_set[b][a] = 1;
    return SN_OK;
}


sn_status sn_world_set_loop_erp(sn_world* w, sn_real erp) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!(erp >= 0) || !isfinite(erp))
        return SET_ERR(w, SN_ERR_ARG, "the loops' erp must be finite and >= 0");
    w->loop_erp = erp;
    return SN_OK;
}
