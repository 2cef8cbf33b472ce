// SPDX-License-Identifier: Apache-2.0
// points.c: soft contact points (seed 004; spec/algorithms.md A.2, A.9): a system's points and
// their block, the points' kinematics, the contact update (detection of what a point touches
// (surface.c), the contact frame, anchors, riding on a moving body, the spring-damper force, the
// friction cone and the slipping anchor), and the read access.
#include "base/smath.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)


// ---- a system's part and its block ----

// the block of c for cap points (measure with c->block NULL)
static void soft_layout(sni_soft* c, int cap, const sn_model* mdl, carver* cv) {
    int nq = mdl->nq, nv = mdl->nv;
    size_t m = 3 * (size_t)cap;
    SNI_CARVE(cv, c->body, (size_t)cap);
    SNI_CARVE(cv, c->off, m);
    SNI_CARVE(cv, c->rad, (size_t)cap);
    SNI_CARVE(cv, c->roll, m);
    SNI_CARVE(cv, c->save_roll, m);
    SNI_CARVE(cv, c->pt, (size_t)cap);
    SNI_CARVE(cv, c->save, (size_t)cap);
    SNI_CARVE(cv, c->tmp, (size_t)cap);
    SNI_CARVE(cv, c->q, (size_t)nq);
    SNI_CARVE(cv, c->qs, (size_t)nq);
    SNI_CARVE(cv, c->qn, (size_t)nq);
    sn_real** vecs[] = {&c->u,      &c->us,     &c->acc,  &c->vsum,   &c->k[0],
                        &c->k[1],   &c->k[2],   &c->k[3], &c->vst[0], &c->vst[1],
                        &c->vst[2], &c->vst[3], &c->r,    &c->rt,     &c->z,
                        &c->zt,     &c->dz,     &c->wh,   &c->err};
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++)
        SNI_CARVE(cv, *vecs[k], (size_t)nv);
    SNI_CARVE(cv, c->G, (size_t)nv * (size_t)nv);
    SNI_CARVE(cv, c->piv, (size_t)nv);
    SNI_CARVE(cv, c->pos, m);
    SNI_CARVE(cv, c->vel, m);
    SNI_CARVE(cv, c->jdu, m);
    SNI_CARVE(cv, c->prm, (size_t)cap);
    SNI_CARVE(cv, c->J, m * (size_t)nv);
    SNI_CARVE(cv, c->Jc, m * (size_t)nv);
    SNI_CARVE(cv, c->jdc, m);
    SNI_CARVE(cv, c->xc, 2 * m);
    SNI_CARVE(cv, c->Jt, 3 * (size_t)nv);
    SNI_CARVE(cv, c->snap, 18 * (size_t)mdl->nbody);
    SNI_CARVE(cv, c->react, (size_t)nv);
    SNI_CARVE(cv, c->W, m * (size_t)nv);
    SNI_CARVE(cv, c->ups, m * m);
    SNI_CARVE(cv, c->bfree, m);
    SNI_CARVE(cv, c->lam, m);
    SNI_CARVE(cv, c->lam2, m);
    SNI_CARVE(cv, c->act, (size_t)cap);
    SNI_CARVE(cv, c->smode, (size_t)cap);
    SNI_CARVE(cv, c->sdir, 2 * (size_t)cap);
    size_t n = 2 * m; // Expo's LDS: x = (p - p0, p'), 6 per point
    SNI_CARVE(cv, c->A, n * n);
    SNI_CARVE(cv, c->ea, n);
    SNI_CARVE(cv, c->x0, n);
    SNI_CARVE(cv, c->X1, n);
    SNI_CARVE(cv, c->X2, n);
    SNI_CARVE(cv, c->xh, n);
    SNI_CARVE(cv, c->bal, n + 3);
    c->lds_n = sni_soft_expo_reals(cap);
    SNI_CARVE(cv, c->lds, c->lds_n);
}


// room for cap points: a new block, the points and their state copied (outside a step)
static sn_status soft_reserve(sn_system* s, sni_soft* c, int cap) {
    if (cap <= c->cap) return SN_OK;
    sni_soft old = *c;
    carver cv = {NULL, 0};
    soft_layout(c, cap, s->m, &cv);
    void* block = sni_alloc(&s->world->alloc, cv.off);
    if (!block) return SN_ERR_NOMEM;
    memset(block, 0, cv.off);
    c->block = block;
    c->bytes = cv.off;
    cv.base = block;
    cv.off = 0;
    soft_layout(c, cap, s->m, &cv);
    c->cap = cap;
    if (old.block) {
        memcpy(c->body, old.body, (size_t)old.n * sizeof(int));
        memcpy(c->off, old.off, 3 * (size_t)old.n * sizeof(sn_real));
        memcpy(c->rad, old.rad, (size_t)old.n * sizeof(sn_real));
        memcpy(c->roll, old.roll, 3 * (size_t)old.n * sizeof(sn_real));
        memcpy(c->pt, old.pt, (size_t)old.n * sizeof(sni_soft_pt));
        sni_free(&s->world->alloc, old.block, old.bytes);
    }
    return SN_OK;
}


sni_soft* sni_soft_get(sn_system* s) {
    if (s->soft) return s->soft;
    sni_soft* c = sni_alloc(&s->world->alloc, sizeof *c);
    if (!c) {
        sni_world_fail(s->world, SN_ERR_NOMEM, "no memory for the soft contact points");
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->integrator = SN_SOFT_EXPO;
    c->substeps = 1;
    c->max_mul = -1;
    c->balance = 1;
    c->modal = 1;
    c->slip_lds = 1;
    if (soft_reserve(s, c, 4) != SN_OK) {
        sni_free(&s->world->alloc, c, sizeof *c);
        sni_world_fail(s->world, SN_ERR_NOMEM, "no memory for the soft contact points");
        return NULL;
    }
    s->soft = c;
    return c;
}


void sni_soft_free(sn_system* s) {
    sni_soft* c = s->soft;
    if (!c) return;
    if (c->block) sni_free(&s->world->alloc, c->block, c->bytes);
    sni_free(&s->world->alloc, c, sizeof *c);
    s->soft = NULL;
}


void sni_soft_state_set(sn_system* s) {
    if (s->soft) s->soft->reset = 1;
}


void sn_system_soft_release(sn_system* s) {
    SNI_REFUSE_NULL_VOID(s);
    if (!s->soft) return;
    sni_soft* c = s->soft;
    memset(c->pt, 0, (size_t)c->n * sizeof(sni_soft_pt));
    c->reset = 0;
}


sn_status sn_system_set_soft_integrator(sn_system* s, sn_soft_integrator integrator, int substeps) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (integrator < SN_SOFT_EXPO || integrator > SN_SOFT_IMPLICIT_EULER)
        return SET_ERR(s->world, SN_ERR_ARG, "unknown soft integrator %d", (int)integrator);
    if (substeps < 1 || substeps > (1 << 20))
        return SET_ERR(s->world, SN_ERR_ARG, "soft substeps %d: must be 1 .. %d", substeps,
                       1 << 20);
    sni_soft* c = sni_soft_get(s);
    if (!c) return SN_ERR_NOMEM;
    c->integrator = integrator;
    c->substeps = substeps;
    return SN_OK;
}


sn_soft_integrator sn_system_soft_integrator(const sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_soft_integrator)SN_NONE);
    return s->soft ? (sn_soft_integrator)s->soft->integrator : SN_SOFT_EXPO;
}


int sn_system_soft_substeps(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->soft ? s->soft->substeps : 1;
}


sn_status sn_system_set_expo_options(sn_system* s, int max_mul, int balance, int full) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (max_mul < -1 || max_mul > 4 || (balance != 0 && balance != 1) || (full != 0 && full != 1))
        return SET_ERR(s->world, SN_ERR_ARG,
                       "Expo options: max_mul %d must be -1 .. 4, balance %d and full %d 0 or 1",
                       max_mul, balance, full);
    sni_soft* c = sni_soft_get(s);
    if (!c) return SN_ERR_NOMEM;
    c->max_mul = max_mul;
    c->balance = balance;
    c->full = full;
    return SN_OK;
}


sn_status sn_system_set_expo_modal(sn_system* s, int on) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (on != 0 && on != 1)
        return SET_ERR(s->world, SN_ERR_ARG, "Expo's modal path: on %d must be 0 or 1", on);
    sni_soft* c = sni_soft_get(s);
    if (!c) return SN_ERR_NOMEM;
    c->modal = on;
    return SN_OK;
}


sn_status sn_system_set_expo_slip(sn_system* s, int on) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (on != 0 && on != 1)
        return SET_ERR(s->world, SN_ERR_ARG, "Expo slip %d: must be 0 or 1", on);
    sni_soft* c = sni_soft_get(s);
    if (!c) return SN_ERR_NOMEM;
    c->slip_lds = on;
    return SN_OK;
}


int sn_system_expo_modal(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->soft ? s->soft->modal : 1;
}


int sn_system_expo_slip(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->soft ? s->soft->slip_lds : 1;
}


sn_status sn_system_add_soft_point(sn_system* s, int body, const sn_real offset[3], int* id) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!offset)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_add_soft_point: offset is NULL");
    if (body < 1 || body >= s->m->nbody)
        return SET_ERR(s->world, SN_ERR_ARG,
                       "soft point: body %d is not a moving body of the system (1 .. %d)", body,
                       s->m->nbody - 1);
    if (!offset || !isfinite(offset[0]) || !isfinite(offset[1]) || !isfinite(offset[2]))
        return SET_ERR(s->world, SN_ERR_ARG, "soft point: the offset is NULL or not finite");
    if (sn_system_soft_point_count(s) >= SN_SOFT_POINTS_MAX)
        return SET_ERR(s->world, SN_ERR_LIMIT,
                       "soft point: the system has %d, the most it may have", SN_SOFT_POINTS_MAX);
    sni_soft* c = sni_soft_get(s);
    if (!c) return SN_ERR_NOMEM;
    if (c->n == c->cap && soft_reserve(s, c, 2 * c->cap) != SN_OK)
        return SET_ERR(s->world, SN_ERR_NOMEM, "no memory for %d soft points", 2 * c->cap);
    int i = c->n++;
    c->body[i] = body;
    v3_copy(c->off + 3 * i, offset);
    c->rad[i] = 0;
    memset(c->roll + 3 * i, 0, 3 * sizeof(sn_real));
    memset(&c->pt[i], 0, sizeof c->pt[i]);
    if (id) *id = i;
    return SN_OK;
}


sn_status sn_system_add_soft_point_frame(sn_system* s, int frame, const sn_real offset[3],
                                         int* id) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!offset)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_add_soft_point_frame: offset is NULL");
    const sn_model* m = s->m;
    if (frame < 0 || frame >= m->nframe)
        return SET_ERR(s->world, SN_ERR_ARG, "soft point: frame %d out of range (0 .. %d)", frame,
                       m->nframe - 1);
    if (!offset || !isfinite(offset[0]) || !isfinite(offset[1]) || !isfinite(offset[2]))
        return SET_ERR(s->world, SN_ERR_ARG, "soft point: the offset is NULL or not finite");
    // the point in the body frame: frame origin + frame rotation offset
    const sn_real* R = m->frame_rot + 9 * frame;
    sn_real b[3];
    m3_mul_v3(b, R, offset);
    v3_add(b, b, m->frame_pos + 3 * frame);
    return sn_system_add_soft_point(s, m->frame_body[frame], b, id);
}


// a rolling point: the lowest point of a sphere of radius r centred at c (body frame)
static sn_status add_rolling(sn_system* s, int body, const sn_real* c, sn_real r) {
    int id = -1;
    sn_status st = sn_system_add_soft_point(s, body, c, &id);
    if (st == SN_OK) s->soft->rad[id] = r;
    return st;
}


// the number of soft points the collision geometry of s gives (as below)
static long geometry_point_count(const sn_model* m) {
    long n = 0;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_is_visual[g] || m->frame_body[m->geom_frame[g]] < 1) continue;
        int t = m->geom_type[g];
        n += t == SN_GEOM_BOX        ? 8
             : t == SN_GEOM_CYLINDER ? 16
             : t == SN_GEOM_MESH     ? m->geom_vert_num[g]
             : t == SN_GEOM_SPHERE   ? 1
             : t == SN_GEOM_CAPSULE  ? 2
                                     : 0;
    }
    return n;
}


sn_status sn_system_add_soft_geometry_points(sn_system* s, int* added) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_model* m = s->m;
    int n0 = sn_system_soft_point_count(s);
    if (added) *added = 0;
    long more = geometry_point_count(m);
    if (n0 + more > SN_SOFT_POINTS_MAX)
        return SET_ERR(s->world, SN_ERR_LIMIT,
                       "soft points: the collision geometry gives %ld points (mesh vertices "
                       "count one each), more than the %d a system may have with the %d it has; "
                       "name the points instead (sn_system_add_soft_point_frame)",
                       more, SN_SOFT_POINTS_MAX, n0);
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_is_visual[g]) continue;
        int f = m->geom_frame[g], body = m->frame_body[f];
        if (body < 1) continue; // on the world: never moves
        // the geometry's frame in the body frame: body <- link <- geom
        const sn_real *Rl = m->frame_rot + 9 * f, *gs = m->geom_size + 3 * g;
        sn_real R[9], o[3];
        m3_mul(R, Rl, m->geom_rot + 9 * g);
        m3_mul_v3(o, Rl, m->geom_pos + 3 * g);
        v3_add(o, o, m->frame_pos + 3 * f);
        sn_status st = SN_OK;
        int t = m->geom_type[g];
        if (t == SN_GEOM_BOX || t == SN_GEOM_CYLINDER || t == SN_GEOM_MESH) {
            // body-fixed points: a box's 8 corners, a cylinder's 2 x 8 rim points, a collision
            // mesh's vertices
            int np = t == SN_GEOM_BOX ? 8 : t == SN_GEOM_CYLINDER ? 16 : m->geom_vert_num[g];
            for (int k = 0; k < np && st == SN_OK; k++) {
                sn_real l[3], b[3];
                if (t == SN_GEOM_BOX) {
                    for (int e = 0; e < 3; e++)
                        l[e] = (k >> e & 1 ? 0.5 : -0.5) * gs[e];
                } else if (t == SN_GEOM_CYLINDER) {
                    double a = 2 * 3.14159265358979323846 * (k % 8) / 8;
                    l[0] = gs[0] * cos(a), l[1] = gs[0] * sin(a);
                    l[2] = (k < 8 ? -0.5 : 0.5) * gs[1];
                } else {
                    v3_copy(l, m->mesh_vert + 3 * ((size_t)m->geom_vert_adr[g] + (size_t)k));
                }
                m3_mul_v3(b, R, l);
                v3_add(b, b, o);
                st = sn_system_add_soft_point(s, body, b, NULL);
            }
        } else if (t == SN_GEOM_SPHERE) {
            st = add_rolling(s, body, o, gs[0]);
        } else if (t == SN_GEOM_CAPSULE) { // its two end spheres
            for (int k = 0; k < 2 && st == SN_OK; k++) {
                sn_real l[3] = {0, 0, (k ? 0.5 : -0.5) * gs[1]}, b[3];
                m3_mul_v3(b, R, l);
                v3_add(b, b, o);
                st = add_rolling(s, body, b, gs[0]);
            }
        } // ellipsoids: not yet
        if (st != SN_OK) return st;
    }
    if (added) *added = sn_system_soft_point_count(s) - n0;
    return SN_OK;
}


int sn_system_soft_point_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->soft ? s->soft->n : 0;
}


int sn_system_soft_contact_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    if (!s->soft) return 0;
    int k = 0;
    for (int i = 0; i < s->soft->n; i++)
        k += s->soft->pt[i].active;
    return k;
}


sn_status sn_system_soft_point(const sn_system* s, int i, sn_soft_point* out) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_soft_point: out is NULL");
    int n = sn_system_soft_point_count(s);
    if (i < 0 || i >= n || !out)
        return SET_ERR(s->world, SN_ERR_ARG, "soft point i %d: out of range (0 .. %d) or no output",
                       i, n - 1);
    const sni_soft* c = s->soft;
    const sni_soft_pt* p = &c->pt[i];
    memset(out, 0, sizeof *out);
    out->body = c->body[i];
    v3_add(out->offset, c->off + 3 * i, c->roll + 3 * i);
    out->active = p->active;
    out->slipping = p->slip;
    v3_copy(out->position, p->p);
    v3_copy(out->velocity, p->pd);
    v3_copy(out->anchor, p->p0);
    out->penetration = p->depth;
    v3_copy(out->force, p->f);
    return SN_OK;
}


// ---- kinematics and the contact update ----

// the body of geometry g of system other - 1 when it moves (> 0); 0 for the terrain and static
// bodies
static int moving_body(const sn_system* s, int other, int g) {
    if (other <= 0 || other > s->world->nsys) return 0;
    const sn_model* m = s->world->sys[other - 1]->m;
    return g >= 0 && g < m->ngeom ? m->frame_body[m->geom_frame[g]] : 0;
}

// the outward normal of the surface rolling point i's sphere meets: an active contact's frame
// normal; else the nearest surface's at the sphere's centre (e_z with none)
static void rolling_normal(const sn_system* s, int i, sn_real* n) {
    const sni_soft* c = s->soft;
    if (c->pt[i].active) {
        v3_copy(n, c->pt[i].fr + 6);
        return;
    }
    int b = c->body[i];
    sn_real x[3];
    m3_mul_v3(x, s->d->body_rot + 9 * b, c->off + 3 * i);
    v3_add(x, x, s->d->body_pos + 3 * b);
    sni_soft_touch t;
    if (sni_soft_touch_find(s, b, x, c->rad[i], &t))
        v3_copy(n, t.n);
    else
        v3_set(n, 0, 0, 1);
}

void sni_soft_kin(sn_system* s, const sn_real* q, const sn_real* u, int handover) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    sni_soft* c = s->soft;
    int nv = m->nv;
    if (d->q != q) memcpy(d->q, q, (size_t)m->nq * sizeof(sn_real));
    if (d->u != u) memcpy(d->u, u, (size_t)nv * sizeof(sn_real));
    sn_fk(m, d);
    sn_fk_vel(m, d);
    for (int i = 0; i < c->n; i++) {
        int b = c->body[i];
        sn_real* p = c->pos + 3 * i;
        const sn_real* R = d->body_rot + 9 * b;
        if (c->rad[i] > 0 && (handover || !c->pt[i].active)) {
            // a rolling point: its sphere's point nearest the surface it meets (along -n). An
            // active one is handed over to it (between sub-steps only): the anchor moves with the
            // contact point in the tangent plane, keeping the spring's stretch, so rolling
            // neither stretches the spring nor sinks the sphere
            sn_real n[3], down[3], old[3], now[3], d3[3];
            rolling_normal(s, i, n);
            v3_scale(down, n, -c->rad[i]);
            m3_mul_v3(old, R, c->roll + 3 * i);
            m3t_mul_v3(c->roll + 3 * i, R, down);
            m3_mul_v3(now, R, c->roll + 3 * i);
            v3_sub(d3, now, old);
            if (c->pt[i].active) {
                sni_soft_pt* pt = &c->pt[i];
                v3_addscl(d3, pt->fr + 6, -v3_dot(pt->fr + 6, d3));
                v3_add(pt->p0, pt->p0, d3);
                int ob = moving_body(s, pt->other, pt->ogeom);
                if (ob > 0) { // on a moving body: the anchor rides on it
                    const sn_real *Rb, *pb, *vb;
                    sni_soft_body_state(s, pt->other - 1, ob, &Rb, &pb, &vb);
                    sn_real E[9], dm[3], ER[9], db[3];
                    sni_soft_body_move(s, pt->other - 1, vb, E, dm);
                    m3_mul(ER, E, Rb);
                    m3t_mul_v3(db, ER, d3);
                    v3_add(pt->ab, pt->ab, db);
                }
            }
        }
        sn_real bp[3];
        v3_add(bp, c->off + 3 * i, c->roll + 3 * i);
        m3_mul_v3(p, R, bp);
        v3_add(p, p, d->body_pos + 3 * b);
        sn_real* J = c->J + 3 * (size_t)i * (size_t)nv;
        sn_point_jacobian(m, d, b, p, J, NULL);
        sn_real* v = c->vel + 3 * i;
        for (int r = 0; r < 3; r++) {
            sn_real x = 0;
            for (int k = 0; k < nv; k++)
                x += J[r * nv + k] * u[k];
            v[r] = x;
        }
        sn_real ang[3];
        sn_point_jdot_u(m, d, b, p, c->jdu + 3 * i, ang);
    }
}


// the radial projection on the cone (A15), in the contact frame (f[2] normal): the normal part
// kept, the tangential part scaled to mu f_n; the force is zero when it pulls
static void cone_project(sn_real* f, sn_real mu) {
    if (f[2] < 0) {
        f[0] = f[1] = f[2] = 0;
        return;
    }
    sn_real ft = sqrt(f[0] * f[0] + f[1] * f[1]);
    if (ft > mu * f[2]) {
        sn_real s = mu * f[2] / ft;
        f[0] *= s;
        f[1] *= s;
    }
}


// A.9 for one point at (p, pd) touching the surface t (found: there is one): the contact frame
// R (rows t1, t2, n) is set where the contact starts (t's normal there) and kept while it lasts;
// K and B are diag(k_t, k_t, k_n) and diag(b_t, b_t, b_n) in it. The force law is the
// self-consistent one (A.9 step 5, Python): lambda = R^T (K R (p0 - p) + B R (p0' - p')), with
// p0' the tangential velocity of a slipping contact and 0 otherwise
static void update_point(const sn_soft_params* P, sni_soft_pt* c, const sn_real* p,
                         const sn_real* pd, int rolling, const sni_soft_touch* t, int found) {
    v3_copy(c->p, p);
    v3_copy(c->pd, pd);
    if (!c->active) {
        c->depth = found ? -t->gap : 0;
        if (!found || !(t->gap <= 0)) {
            c->slip = 0;
            memset(c->f, 0, sizeof c->f);
            return;
        }
        c->active = 1;
        c->slip = 0;
        c->other = t->other, c->ogeom = t->geom;
        sni_contact_frame(c->fr, t->n);
        v3_copy(c->p0, p);
        // a rolling point starts inside a surface its sphere already presses: its anchor is on
        // the surface, so the spring carries that penetration (a new point anchored where it
        // is would let the sphere sink by m g / K at each change of point)
        if (rolling) v3_addscl(c->p0, t->n, -t->gap);
        memset(c->p0d, 0, sizeof c->p0d);
    } else if (!P->bilateral && (!found || t->gap > 0)) {
        // the step's impulse so far stays, with what it touched and where (the other side's
        // reaction: step.c hands it over after the contact ended)
        sn_real imp[3], ab[3];
        int other = c->other, ogeom = c->ogeom;
        v3_copy(imp, c->imp);
        v3_copy(ab, c->ab);
        memset(c, 0, sizeof *c);
        v3_copy(c->imp, imp);
        v3_copy(c->ab, ab);
        c->other = other, c->ogeom = ogeom;
        v3_copy(c->p, p);
        v3_copy(c->pd, pd);
        c->depth = found ? -t->gap : 0;
        return;
    }
    c->depth = found ? -t->gap : c->depth;
    const sn_real* R = c->fr;
    const sn_real* n = R + 6;
    v3_copy(c->p0d, pd);
    v3_addscl(c->p0d, n, -v3_dot(n, pd)); // the tangential velocity (used when slipping)
    if (!c->slip) memset(c->p0d, 0, sizeof c->p0d);
    const sn_real k[3] = {P->k_tangent, P->k_tangent, P->k_normal};
    const sn_real b[3] = {P->b_tangent, P->b_tangent, P->b_normal};
    sn_real dp[3], dv[3], dl[3], vl[3], f[3];
    v3_sub(dp, c->p0, p);
    v3_sub(dv, c->p0d, pd);
    m3_mul_v3(dl, R, dp);
    m3_mul_v3(vl, R, dv);
    for (int e = 0; e < 3; e++)
        f[e] = k[e] * dl[e] + b[e] * vl[e];
    if (P->bilateral) {
        c->slip = 0;
        m3t_mul_v3(c->f, R, f);
        return;
    }
    if (f[2] < 0) { // the spring would pull: no force, the anchor kept
        c->slip = 0;
        memset(c->f, 0, sizeof c->f);
        return;
    }
    sn_real ft = sqrt(f[0] * f[0] + f[1] * f[1]);
    if (ft > P->mu * f[2]) {
        // slipping: onto the cone, the anchor moved in the tangent plane to give that force
        // (A18), its normal stretch kept
        c->slip = 1;
        cone_project(f, P->mu);
        v3_copy(c->p0d, pd);
        v3_addscl(c->p0d, n, -v3_dot(n, pd));
        v3_sub(dv, c->p0d, pd);
        m3_mul_v3(vl, R, dv);
        for (int e = 0; e < 2; e++)
            dl[e] = (f[e] - b[e] * vl[e]) / k[e];
        m3t_mul_v3(dp, R, dl);
        v3_add(c->p0, p, dp);
    } else {
        c->slip = 0;
    }
    m3t_mul_v3(c->f, R, f);
}


// point i touches body ob of system k, which moves: the point's velocity and drift (and, on the
// system's own body, its Jacobian) become relative to that body's material point at p; an active
// contact's anchor and frame ride on the body (p0, fr from ab, frb)
static void relative(const sn_system* s, int i, sni_soft_pt* pt, int k, int ob) {
    sni_soft* c = s->soft;
    const sn_real* p = c->pos + 3 * i;
    sn_real* v = c->vel + 3 * i;
    const sn_real *Rb, *pb, *vb;
    sni_soft_body_state(s, k, ob, &Rb, &pb, &vb);
    // the body's velocity at p: v0 + w x p (its twist held over the step for another system)
    sn_real w[3];
    v3_copy(w, vb + 3);
    v3_addcross(w, vb, p);
    v3_sub(v, v, w);
    if (s->world->sys[k] == s) { // self-contact: J_a - J_b, and the drifts' difference
        const sn_model* m = s->m;
        int nv = m->nv;
        sn_real* J = c->J + 3 * (size_t)i * (size_t)nv;
        sn_point_jacobian(m, s->d, ob, p, c->Jt, NULL);
        for (int r = 0; r < 3 * nv; r++)
            J[r] -= c->Jt[r];
        sn_real lin[3], ang[3];
        sn_point_jdot_u(m, s->d, ob, p, lin, ang);
        v3_sub(c->jdu + 3 * i, c->jdu + 3 * i, lin);
    } else { // another system's body, its twist held: its material point at p accelerates w x v
        sn_real acc[3];
        v3_cross(acc, vb, w);
        v3_sub(c->jdu + 3 * i, c->jdu + 3 * i, acc);
    }
    if (!pt->active) return;
    sn_real E[9], dm[3], a[3], ER[9];
    sni_soft_body_move(s, k, vb, E, dm);
    m3_mul(ER, E, Rb); // the body's rotation now
    m3_mul_v3(a, Rb, pt->ab);
    v3_add(a, a, pb);
    m3_mul_v3(pt->p0, E, a);
    v3_add(pt->p0, pt->p0, dm);
    for (int e = 0; e < 3; e++)
        m3_mul_v3(pt->fr + 3 * e, ER, pt->frb + 3 * e);
}


// an active contact on a moving body: its anchor and frame in that body's frame
static void ride(const sn_system* s, sni_soft_pt* pt, int k, int ob) {
    const sn_real *Rb, *pb, *vb;
    sni_soft_body_state(s, k, ob, &Rb, &pb, &vb);
    sn_real E[9], dm[3], x0[3], ER[9];
    sni_soft_body_move(s, k, vb, E, dm);
    m3_mul(ER, E, Rb);
    v3_sub(x0, pt->p0, dm);
    m3t_mul_v3(x0, E, x0); // where the anchor's material point was at the step's start
    v3_sub(x0, x0, pb);
    m3t_mul_v3(pt->ab, Rb, x0);
    for (int e = 0; e < 3; e++)
        m3t_mul_v3(pt->frb + 3 * e, ER, pt->fr + 3 * e);
}


void sni_soft_update(const sn_system* s, sni_soft_pt* pts) {
    const sn_world* w = s->world;
    sni_soft* c = s->soft;
    for (int i = 0; i < c->n; i++) {
        const sn_real* p = c->pos + 3 * i;
        int b = c->body[i];
        sni_soft_touch t;
        int found = pts[i].active ? sni_soft_touch_eval(s, pts[i].other, pts[i].ogeom, p, 0, &t)
                                  : sni_soft_touch_find(s, b, p, 0, &t);
        // the pair's parameters: the point's body material and the other side's (the terrain's
        // is 0, as for the hard contacts)
        int mb = found && t.other > 0 ? w->sys[t.other - 1]->body_material[t.body] : 0;
        c->prm[i] = sni_soft_pair(w, s->body_material[b], mb);
        // in contact (or coming into it) with a moving body: relative to it
        int ob = found && (pts[i].active || t.gap <= 0) ? moving_body(s, t.other, t.geom) : 0;
        if (ob > 0) relative(s, i, &pts[i], t.other - 1, ob);
        int was = pts[i].active;
        update_point(&c->prm[i], &pts[i], p, c->vel + 3 * i, c->rad[i] > 0, &t, found);
        // a new anchor, or one the slip moved, rides on from here (an anchor kept is not taken
        // back and forth: the first-order motion of another system's body would drift it)
        if (ob > 0 && pts[i].active && (!was || pts[i].slip)) ride(s, &pts[i], t.other - 1, ob);
    }
}


void sni_soft_impulse(sni_soft* c, int nc, sn_real h, const sn_real* lam) {
    for (int k = 0; k < nc; k++) {
        sni_soft_pt* pt = &c->pt[c->act[k]];
        sn_real f[3];
        m3t_mul_v3(f, pt->fr, lam + 3 * k);
        v3_addscl(pt->imp, f, h);
    }
}


void sni_soft_frames(sni_soft* c, int nc, int nv) {
    int m3 = 3 * nc;
    for (int k = 0; k < nc; k++) {
        int i = c->act[k];
        const sni_soft_pt* pt = &c->pt[i];
        const sn_real* R = pt->fr;
        const sn_real* J = c->J + 3 * (size_t)i * (size_t)nv;
        sn_real* Jc = c->Jc + 3 * (size_t)k * (size_t)nv;
        for (int e = 0; e < 3; e++) {
            const sn_real* r = R + 3 * e;
            for (int j = 0; j < nv; j++)
                Jc[e * nv + j] = r[0] * J[j] + r[1] * J[nv + j] + r[2] * J[2 * nv + j];
        }
        sn_real d[3];
        v3_sub(d, pt->p, pt->p0);
        m3_mul_v3(c->jdc + 3 * k, R, c->jdu + 3 * i);
        m3_mul_v3(c->xc + 3 * k, R, d);
        m3_mul_v3(c->xc + m3 + 3 * k, R, pt->pd);
    }
}


void sni_soft_cone(sn_real* f, sn_real mu) {
    cone_project(f, mu);
}
