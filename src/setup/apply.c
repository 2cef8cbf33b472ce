// SPDX-License-Identifier: Apache-2.0
// apply.c: what a model file says, applied to the world and system that simulate it
// (sn_system_apply_file, sn_setup.h), and the constraints' errors over every kind of constraint.
// The order is the one `sinew run` has always had: start state, assembly, gravity, ground and
// materials, soft contacts, scheme, servos; the command line's options come after it.
#include "sim/sim.h"
#include "sinew/sn_setup.h"
#include "sinew/sn_soft.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPEN_TOL 1e-6        // constraints open by more than this are assembled (m, rad)
#define ASSEMBLE_ITER 100    // sn_system_assemble's iterations
#define ASSEMBLE_TOL 1e-12   // and its tolerance
#define DEFAULT_FRICTION 0.8 // the ground's friction when the file gives none
#define NMATERIAL 15         // material ids 1..15 hold the distinct frictions of bodies


sn_status sn_system_constraint_error(sn_system* s, sn_constraint_error* out) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_constraint_error: out is NULL");
    const sn_model* m = s->m;
    memset(out, 0, sizeof *out);
    if (m->nconstraint) {
        sn_system_loop_error(s, &out->pin_rms, &out->pin_worst);
        sn_system_orientation_error(s, &out->orientation_worst);
    }
    const sn_real* q = s->d->q;
    for (int j = 0; m->joint_mimic && j < m->njoint; j++) {
        // mimic couplings and locks: q = multiplier q_leader + offset
        int l = m->joint_mimic[j];
        if (l == SN_NONE) continue;
        sn_real e = q[m->joint_qadr[j]] - m->joint_mimic_multiplier[j] * q[m->joint_qadr[l]] -
                    m->joint_mimic_offset[j];
        out->coupling_worst = fmax(out->coupling_worst, fabs(e));
    }
    out->worst = fmax(fmax(out->pin_worst, out->orientation_worst), out->coupling_worst);
    return SN_OK;
}


// the keyframe named `key` (a name, or an index in digits); -1 with the reason in the world
static int find_key(sn_system* s, const char* key) {
    const sn_model* m = s->m;
    int k = sn_model_find(m, SN_OBJ_KEY, key);
    if (k >= 0) return k;
    char* end;
    long idx = strtol(key, &end, 10);
    if (*key && *end == 0 && idx >= 0 && idx < m->nkey) return (int)idx;
    char list[256] = "";
    for (int i = 0; i < m->nkey; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s '%s'", i ? "," : "", m->names + m->key_name[i]);
    }
    sni_world_fail(s->world, SN_ERR_ARG, "no key '%s': the model has %s%s", key,
                   m->nkey ? "the keys" : "no keyframes", list);
    return -1;
}


// the start state: the key, then q0 and u0 over it; the state is left as it was on failure
static sn_status start_state(sn_system* s, const sn_setup_opts* o) {
    const sn_model* m = s->m;
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    sn_real* q = sni_alloc(&s->world->alloc, (nq + 1) * sizeof(sn_real));
    sn_real* u = sni_alloc(&s->world->alloc, (nv + 1) * sizeof(sn_real));
    if (!q || !u) {
        sni_free(&s->world->alloc, q, (nq + 1) * sizeof(sn_real));
        sni_free(&s->world->alloc, u, (nv + 1) * sizeof(sn_real));
        return sni_world_fail(s->world, SN_ERR_NOMEM, "no memory for the start state");
    }
    memcpy(q, s->d->q, nq * sizeof(sn_real));
    sn_status st = SN_OK;
    if (o->key) {
        int k = find_key(s, o->key);
        if (k < 0)
            st = SN_ERR_ARG;
        else {
            memcpy(q, m->key_q + (size_t)k * nq, nq * sizeof(sn_real));
            memcpy(u, m->key_u + (size_t)k * nv, nv * sizeof(sn_real));
        }
    }
    if (st == SN_OK && o->q0) memcpy(q, o->q0, nq * sizeof(sn_real));
    if (st == SN_OK && o->u0) memcpy(u, o->u0, nv * sizeof(sn_real));
    if (st == SN_OK) st = sn_system_set_state(s, q, m->nq, u, m->nv);
    sni_free(&s->world->alloc, q, (nq + 1) * sizeof(sn_real));
    sni_free(&s->world->alloc, u, (nv + 1) * sizeof(sn_real));
    return st;
}


// the file's contact friction (MJCF geom friction and condim): a body takes the largest of its
// collision geoms' friction and condim; a pair of bodies, or a body and the ground, the larger
// of the two frictions, or none when neither condim exceeds 1 (frictionless), as MuJoCo
// combines them. Material ids 1 to 15 hold the distinct bodies (beyond 15, the nearest)
static void body_frictions(sn_system* s, sn_real ground_mu, int ground_condim,
                           sn_real restitution) {
    const sn_model* m = s->m;
    sn_real vals[NMATERIAL];
    int cds[NMATERIAL], nval = 0;
    for (int b = 1; b < m->nbody; b++) {
        sn_real mu = -1;
        int cd = 0;
        for (int g = 0; g < m->ngeom; g++)
            if (!m->geom_is_visual[g] && m->frame_body[m->geom_frame[g]] == b &&
                isfinite(m->geom_friction[g])) {
                mu = fmax(mu, m->geom_friction[g]);
                cd = m->geom_condim[g] > cd ? m->geom_condim[g] : cd;
            }
        if (mu < 0) continue;
        int id = -1;
        for (int i = 0; i < nval && id < 0; i++)
            if (vals[i] == mu && (cds[i] == 1) == (cd == 1)) id = i;
        if (id < 0 && nval < NMATERIAL) vals[nval] = mu, cds[nval] = cd, id = nval++;
        for (int i = 0; i < nval; i++)
            if (id < 0 || fabs(vals[i] - mu) < fabs(vals[id] - mu)) id = i;
        sn_system_set_body_material(s, b, id + 1);
    }
    for (int i = 0; i < nval; i++) {
        sn_real mu0 = ground_condim == 1 && cds[i] == 1 ? 0 : fmax(ground_mu, vals[i]);
        sn_world_set_material_pair(s->world, 0, i + 1, mu0, restitution, 0);
        for (int j = i; j < nval; j++) {
            sn_real mu = cds[i] == 1 && cds[j] == 1 ? 0 : fmax(vals[i], vals[j]);
            sn_world_set_material_pair(s->world, i + 1, j + 1, mu, restitution, 0);
        }
    }
}


// the ground plane and the materials of the ground and the bodies
static sn_status ground_and_materials(sn_system* s, const sn_setup_opts* o, sn_setup_report* r) {
    const sn_model* m = s->m;
    sn_world* w = s->world;
    r->ground_height = m->option_has_ground ? m->option_ground_height : 0;
    r->ground = o->ground != SN_GROUND_OFF;
    if (o->ground == SN_GROUND_FROM_FILE) {
        // the file's ground: none when it turns contacts off, or, in MJCF as in MuJoCo, none
        // without a plane
        r->contact_off = m->option_contact_off;
        r->no_plane = !r->contact_off && m->format == SN_FORMAT_MJCF && !m->option_has_ground;
        if (r->contact_off || r->no_plane) r->ground = 0;
    }
    sn_status st = sn_world_set_ground(w, r->ground, r->ground_height);
    if (st != SN_OK) return st;
    sn_system_set_self_collision(s, o->self_collision);
    // the ground's friction: the option, else the file's plane's (MJCF), else 0.8
    int file = !o->friction_set && m->option_has_ground;
    sn_real mu = file              ? m->option_ground_friction
                 : o->friction_set ? o->friction
                                   : DEFAULT_FRICTION;
    int condim = file ? m->option_ground_condim : 3;
    if (file && condim == 1) mu = 0; // frictionless against bodies without friction
    st = sn_world_set_material(w, mu, o->restitution, 0);
    if (st != SN_OK) return st;
    body_frictions(s, file ? m->option_ground_friction : mu, condim, o->restitution);
    return SN_OK;
}


// the file's soft contacts (sinew's extension, docs/expo.md "Soft parameters"): the contact
// model, the world's parameters and the pairs', the bodies' material ids (over those of
// body_frictions), and the soft points the file names (when the system has none yet: a second
// call adds none)
static sn_status soft_settings(sn_system* s, sn_setup_report* r) {
    const sn_model* m = s->m;
    sn_world* w = s->world;
    sn_status st = SN_OK;
    if (m->option_contact_model >= 0)
        st = sn_world_set_contact_model(w, (sn_contact_model)m->option_contact_model);
    for (int i = 0; i < m->nsoft && st == SN_OK; i++) {
        const sn_real* v = m->soft_param + 5 * i;
        sn_soft_params p = {v[0], v[1], v[2], v[3], v[4], m->soft_bilateral[i]};
        int a = m->soft_material[2 * i], b = m->soft_material[2 * i + 1];
        st = a < 0 ? sn_world_set_soft_params(w, &p) : sn_world_set_soft_pair(w, a, b, &p);
    }
    for (int b = 0; b < m->nbody && m->body_material && st == SN_OK; b++)
        if (m->body_material[b] >= 0) st = sn_system_set_body_material(s, b, m->body_material[b]);
    if (st == SN_OK && m->nsoft_point && sn_system_soft_point_count(s) == 0)
        for (int i = 0; i < m->nsoft_point && st == SN_OK; i++) {
            st = sn_system_add_soft_point_frame(s, m->soft_point_frame[i],
                                                m->soft_point_offset + 3 * i, NULL);
            r->soft_points += st == SN_OK;
        }
    r->soft = sn_world_contact_model(w) == SN_CONTACT_SOFT;
    return st;
}


// the file's servos (MJCF position and velocity actuators) hold the start pose
static sn_status servos(sn_system* s, sn_setup_report* r) {
    const sn_model* m = s->m;
    int nv = m->nv;
    for (int v = 0; v < nv; v++)
        if (m->dof_kp[v] > 0 || m->dof_kd[v] > 0) r->servos = 1;
    if (!r->servos) return SN_OK;
    sn_status st = sn_system_set_pd_gains(s, m->dof_kp, m->dof_kd, nv);
    sn_real* u = sni_alloc(&s->world->alloc, ((size_t)nv + 1) * sizeof(sn_real));
    if (!u) return sni_world_fail(s->world, SN_ERR_NOMEM, "no memory for the servo targets");
    if (st == SN_OK) st = sn_system_set_pd_target(s, s->d->q, m->nq, u, nv);
    sni_free(&s->world->alloc, u, ((size_t)nv + 1) * sizeof(sn_real));
    return st;
}


sn_status sn_system_apply_file(sn_system* s, const sn_setup_opts* opts, sn_setup_report* report) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    sn_setup_opts none;
    memset(&none, 0, sizeof none);
    const sn_setup_opts* o = opts ? opts : &none;
    sn_setup_report local;
    sn_setup_report* r = report ? report : &local;
    memset(r, 0, sizeof *r);
    const sn_model* m = s->m;
    sn_world* w = s->world;
    if (o->ground < SN_GROUND_FROM_FILE || o->ground > SN_GROUND_OFF)
        return sni_world_fail(w, SN_ERR_ARG, "unknown ground rule %d", (int)o->ground);
    if (o->friction_set && !(o->friction >= 0 && isfinite(o->friction)))
        return sni_world_fail(w, SN_ERR_ARG, "the ground's friction must be finite and >= 0");
    if (!(o->restitution >= 0 && isfinite(o->restitution)))
        return sni_world_fail(w, SN_ERR_ARG, "the restitution must be finite and >= 0");
    if (m->option_timestep > 0) {
        sn_status st = sn_world_set_timestep(w, m->option_timestep);
        if (st != SN_OK) return st;
    }
    sn_status st = start_state(s, o);
    if (st != SN_OK) return st;
    sn_constraint_error e;
    sn_system_constraint_error(s, &e);
    r->open_before = r->open_after = e.worst;
    if (!o->no_assemble && e.worst > OPEN_TOL) {
        // loops that start open (MJCF sites apart, a hand-given q0) are closed before the run:
        // the steps would close them by 30 % a step, at great speed
        r->assembled = 1;
        r->assembly = sn_system_assemble(s, ASSEMBLE_ITER, ASSEMBLE_TOL, &r->open_after);
    }
    if (m->option_has_gravity) sn_world_set_gravity(w, m->option_gravity);
    st = ground_and_materials(s, o, r);
    if (st == SN_OK) st = soft_settings(s, r);
    if (st == SN_OK && m->option_scheme >= 0)
        st = sn_system_set_scheme(s, (sn_scheme)m->option_scheme);
    if (st == SN_OK && !o->no_servos) st = servos(s, r);
    return st;
}
