// SPDX-License-Identifier: Apache-2.0
// maximal.c: an sn_maximal added to a world (sn_world_add_maximal): each of its bodies a free
// body system (its mass and inertia about the centre of mass, the link frame at the centre of
// mass, so an sn_maximal body's frame is the system's link frame and anchors carry over as
// they are), its state copied, its constraints world constraints. The world's gravity and time
// step then apply, and its velocity-level step with the contacts replaces the sn_maximal's own.
// An sn_maximal made from a model brings the model's collision geometry: each body's free-body
// system collides as the model body's collision geometries (placed in the centre-of-mass frame),
// with the materials, filters and self-collision switch of a system of the model
// (sn_world_add_maximal_as), and the bodies of one model collide with each other as in the
// articulated system (broad.c). sn_world_maximal_joint_state reads the model's joint
// coordinates back; sn_world_copy_settings gives a second world the first's environment.
#include "couple/couple.h"
#include "maxc/maxc.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

#define FAIL(w, ...) sni_world_fail((w), SN_ERR_ARG, __VA_ARGS__)

// a free body without collision geometry stands in for an sn_maximal body: a sphere of this
// radius whose collision filter (group 0, mask 0) meets nothing
#define STAND_IN_RADIUS 0.01


// everything checked before the world changes: the constraints a world takes, `like`'s model
static sn_status check_maximal(sn_world* w, const sn_maximal* mx, const sn_system* like) {
    if (!mx) return FAIL(w, "sn_world_add_maximal: mx is NULL");
    if (mx->nbody == 0) return FAIL(w, "sn_world_add_maximal: the sn_maximal has no bodies");
    if (like && !mx->model)
        return FAIL(w, "sn_world_add_maximal_as: like is given but mx was not made from a model");
    if (like && like->m != mx->model)
        return FAIL(w, "sn_world_add_maximal_as: like is a system of another model than mx's");
    for (int i = 0; i < mx->ncon; i++) {
        const sni_mx_con* k = &mx->con[i];
        if (k->user)
            return FAIL(w,
                        "sn_world_add_maximal: constraint %d is a user constraint (a callback "
                        "on the sn_maximal's bodies): not supported between systems of a world",
                        i);
        if (k->d.kind == SN_CONSTRAINT_GEAR)
            return FAIL(w,
                        "sn_world_add_maximal: constraint %d is a GEAR%s: not supported between "
                        "systems of a world",
                        i, mx->model ? " (a mimic joint of the model)" : "");
        sn_status st = sni_couple_check_desc(w, &k->d);
        if (st != SN_OK) return st;
    }
    return SN_OK;
}

// the model body whose maximal body is i (-1: none)
static int model_body(const sn_maximal* mx, int i) {
    for (int b = 1; b < mx->map_nlink; b++)
        if (mx->link_body[b] == i) return b;
    return -1;
}

// body i of a model-made mx as a free-body system carrying model body b's collision geometry,
// placed in the maximal body's frame (the centre of mass, the body's axes)
static sn_status add_model_body(sn_world* w, const sn_maximal* mx, int i, int b, sn_system** out) {
    const sn_model* m = mx->model;
    int n = 0;
    for (int g = 0; g < m->ngeom; g++)
        if (!m->geom_is_visual[g] && m->frame_body[m->geom_frame[g]] == b) n++;
    size_t ni = (size_t)(n ? n : 1);
    int* ids = sni_alloc(&w->alloc, ni * sizeof(int));
    sn_real* pos = sni_alloc(&w->alloc, 3 * ni * sizeof(sn_real));
    sn_real* rot = sni_alloc(&w->alloc, 9 * ni * sizeof(sn_real));
    sn_status st = ids && pos && rot ? SN_OK : FAIL(w, "sn_world_add_maximal: out of memory");
    int k = 0;
    for (int g = 0; st == SN_OK && g < m->ngeom; g++) {
        int f = m->geom_frame[g];
        if (m->geom_is_visual[g] || m->frame_body[f] != b) continue;
        // a mesh whose file was not read never collides in the articulated system either
        if (m->geom_type[g] == SN_GEOM_MESH && m->geom_vert_num[g] == 0) continue;
        const sn_real* Rf = m->frame_rot + 9 * f;
        sn_real* p = pos + 3 * k;
        m3_mul_v3(p, Rf, m->geom_pos + 3 * g);
        v3_add(p, p, m->frame_pos + 3 * f);
        v3_add(p, p, mx->link_off + 3 * b);
        m3_mul(rot + 9 * k, Rf, m->geom_rot + 9 * g);
        ids[k++] = g;
    }
    if (st == SN_OK)
        st = sni_world_add_geom_body(w, sn_model_name(m, SN_OBJ_BODY, b), mx->body[i].mass,
                                     mx->body[i].I, m, ids, pos, rot, k, out);
    sni_free(&w->alloc, ids, ni * sizeof(int));
    sni_free(&w->alloc, pos, 3 * ni * sizeof(sn_real));
    sni_free(&w->alloc, rot, 9 * ni * sizeof(sn_real));
    return st;
}

sn_status sn_world_add_maximal_as(sn_world* w, const sn_maximal* mx, const sn_system* like,
                                  int* first) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!mx) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_maximal_as: mx is NULL");
    sn_status st = check_maximal(w, mx, like);
    if (st != SN_OK) return st;
    int s0 = w->nsys;
    for (int i = 0; i < mx->nbody; i++) {
        const sni_mx_body* b = &mx->body[i];
        sn_system* s = NULL;
        int mb = mx->model ? model_body(mx, i) : -1;
        if (mb >= 0) {
            st = add_model_body(w, mx, i, mb, &s);
            if (st != SN_OK) return st;
            s->mx_model = mx->model;
            s->mx_tag = s0;
            s->mx_body = mb;
            if (like) {
                s->body_group[1] = like->body_group[mb];
                s->body_mask[1] = like->body_mask[mb];
                s->body_material[1] = like->body_material[mb];
                s->self_collision = like->self_collision;
            }
        } else {
            sn_body_desc bd;
            memset(&bd, 0, sizeof bd);
            bd.shape = SN_GEOM_SPHERE;
            bd.size[0] = STAND_IN_RADIUS;
            bd.mass = b->mass;
            const sn_real* I = b->I;
            bd.inertia[0] = I[0], bd.inertia[1] = I[1], bd.inertia[2] = I[2];
            bd.inertia[3] = I[4], bd.inertia[4] = I[5], bd.inertia[5] = I[8];
            st = sn_world_add_body(w, &bd, &s);
            if (st != SN_OK) return st; // its message names the body's mass or inertia
            sn_system_set_collision_filter(s, 1, 0, 0);
        }
        sn_real q[7], u[6];
        memcpy(q, b->st.x, 3 * sizeof(sn_real));
        memcpy(q + 3, b->quat, 4 * sizeof(sn_real));
        memcpy(u, b->st.v, 3 * sizeof(sn_real));
        memcpy(u + 3, b->st.w, 3 * sizeof(sn_real));
        st = sn_system_set_state(s, q, 7, u, 6);
        if (st != SN_OK) return st;
    }
    for (int i = 0; i < mx->ncon; i++) {
        sn_constraint_desc d = mx->con[i].d;
        d.system_a = w->sys[s0 + d.body_a];
        d.body_a = 1;
        if (d.body_b >= 0) {
            d.system_b = w->sys[s0 + d.body_b];
            d.body_b = 1;
        } else {
            d.system_b = NULL;
            d.body_b = -1;
        }
        st = sn_world_add_constraint(w, &d, NULL);
        if (st != SN_OK) return st;
    }
    if (first) *first = s0;
    return SN_OK;
}

sn_status sn_world_add_maximal(sn_world* w, const sn_maximal* mx, int* first) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!mx) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_maximal: mx is NULL");
    return sn_world_add_maximal_as(w, mx, NULL, first);
}

sn_status sn_world_maximal_joint_state(const sn_world* w, sn_maximal* mx, int first, sn_real* q,
                                       int nq, sn_real* u, int nv) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!mx)
        return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_maximal_joint_state: mx is NULL");
    sn_world* ww = (sn_world*)w; // the message buffer only
    if (!mx) return FAIL(ww, "sn_world_maximal_joint_state: mx is NULL");
    if (first < 0 || first + mx->nbody > w->nsys)
        return FAIL(ww,
                    "sn_world_maximal_joint_state: first %d: the world has %d systems, mx %d "
                    "bodies",
                    first, w->nsys, mx->nbody);
    for (int i = 0; i < mx->nbody; i++) {
        const sn_system* s = w->sys[first + i];
        if (s->m->nq != 7 || s->m->nv != 6 || s->m->nbody != 2)
            return FAIL(ww,
                        "sn_world_maximal_joint_state: system %d is not a free body (first %d "
                        "is not where mx was added)",
                        first + i, first);
    }
    for (int i = 0; i < mx->nbody; i++) {
        const sn_data* d = w->sys[first + i]->d;
        sn_status st = sn_maximal_set_body_state(mx, i, d->q, d->q + 3, d->u, d->u + 3);
        if (st != SN_OK) return FAIL(ww, "sn_world_maximal_joint_state: %s", mx->err);
    }
    if (!q && !u) return SN_OK;
    sn_status st = sn_maximal_joint_state(mx, q, nq, u, nv);
    if (st != SN_OK) return FAIL(ww, "%s", mx->err);
    return SN_OK;
}

sn_status sn_world_copy_settings(sn_world* dst, const sn_world* src) {
    SNI_REFUSE_NULL(dst, SN_ERR_ARG);
    if (!src)
        return sni_world_fail((sn_world*)dst, SN_ERR_ARG, "sn_world_copy_settings: src is NULL");
    if (!src) return FAIL(dst, "sn_world_copy_settings: src is NULL");
    sn_status st = sn_world_set_timestep(dst, src->dt);
    if (st == SN_OK) st = sn_world_set_gravity(dst, src->gravity);
    if (st == SN_OK) st = sn_world_set_ground(dst, src->ground, src->ground_height);
    if (st == SN_OK && src->hf_nx)
        st = sn_world_set_heightfield(dst, src->hf_nx, src->hf_ny, src->hf_x0, src->hf_y0,
                                      src->hf_dx, src->hf_dy, src->hf_z);
    if (st == SN_OK)
        st =
            sn_world_set_material(dst, src->friction, src->restitution, src->restitution_threshold);
    if (st == SN_OK) st = sn_world_set_loop_erp(dst, src->loop_erp);
    if (st == SN_OK) st = sn_world_set_erp(dst, src->solver.erp);
    if (st == SN_OK) st = sn_world_set_solver(dst, src->solver.max_iter, src->solver.tol);
    if (st != SN_OK) return st;
    sn_world_set_warm_start(dst, src->solver.warm_start);
    dst->margin = src->margin;
    memcpy(dst->pair_material, src->pair_material, sizeof dst->pair_material);
    memcpy(dst->pair_set, src->pair_set, sizeof dst->pair_set);
    return SN_OK;
}
