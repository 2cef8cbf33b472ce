// SPDX-License-Identifier: Apache-2.0
// api.c: the world constraints' API (sn_maximal.h: sn_world_add_constraint and its reports):
// checks with messages, the storage grown when a constraint is added (never in a step), the
// workspace of the exact solve made for all constraints at once.
#include "base/smath.h"
#include "couple/couple.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define FAIL(w, ...) sni_world_fail((w), SN_ERR_ARG, __VA_ARGS__)


void sni_couple_free(const sn_allocator* al, sni_couple* c) {
    if (!c) return;
    sni_free(al, c->ws, c->ws_bytes);
    sni_free(al, c->con, (size_t)c->cap * sizeof(sni_couple_con));
    sni_free(al, c, sizeof *c);
}


int sni_couple_joins(const sn_world* w, int sa, int ba, int sb, int bb) {
    const sni_couple* cp = w->couple;
    if (!cp) return 0;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        int kind = k->d.kind;
        if (kind != SN_CONSTRAINT_BALL && kind != SN_CONSTRAINT_HINGE &&
            kind != SN_CONSTRAINT_SLIDER && kind != SN_CONSTRAINT_WELD)
            continue;
        if ((k->sa == sa && k->ba == ba && k->sb == sb && k->bb == bb) ||
            (k->sa == sb && k->ba == bb && k->sb == sa && k->bb == ba))
            return 1;
    }
    return 0;
}


static int row_nv(const sn_world* w, const sni_couple_con* k) {
    int n = w->sys[k->sa]->m->nv;
    if (k->sb >= 0 && k->sb != k->sa) n += w->sys[k->sb]->m->nv;
    return n;
}


// the workspace for constraints con[0 .. ncon) (the same function measures and carves)
static void ws_layout(sni_couple* cp, const sn_world* w, int ncon, carver* c) {
    int n = 0, nvmax = 1;
    size_t rb = 0;
    for (int i = 0; i < ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        n += k->nrow;
        rb += 2 * (size_t)row_nv(w, k) * (size_t)k->nrow;
        int na = w->sys[k->sa]->m->nv, nb = k->sb >= 0 ? w->sys[k->sb]->m->nv : 0;
        nvmax = na > nvmax ? na : nvmax;
        nvmax = nb > nvmax ? nb : nvmax;
    }
    size_t nn = (size_t)n, nus = 0;
    int nuoff = 0;
    for (int i = 0; i < ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        nuoff = k->sa + 1 > nuoff ? k->sa + 1 : nuoff;
        nuoff = k->sb + 1 > nuoff ? k->sb + 1 : nuoff;
    }
    for (int si = 0; si < nuoff; si++)
        for (int i = 0; i < ncon; i++)
            if (cp->con[i].sa == si || cp->con[i].sb == si) {
                nus += (size_t)w->sys[si]->m->nv;
                break;
            }
    SNI_CARVE(c, cp->roff, nn + 1);
    SNI_CARVE(c, cp->rowbuf, rb);
    SNI_CARVE(c, cp->G, nn * nn);
    SNI_CARVE(c, cp->L, nn * nn);
    SNI_CARVE(c, cp->target, nn);
    SNI_CARVE(c, cp->eps, nn);
    SNI_CARVE(c, cp->lam, nn);
    SNI_CARVE(c, cp->plam, nn);
    SNI_CARVE(c, cp->r0, nn);
    SNI_CARVE(c, cp->x, nn);
    SNI_CARVE(c, cp->kind, nn);
    SNI_CARVE(c, cp->act, nn);
    SNI_CARVE(c, cp->drop, nn);
    SNI_CARVE(c, cp->idx, nn);
    SNI_CARVE(c, cp->fidx, nn);
    SNI_CARVE(c, cp->cdd, nn);
    SNI_CARVE(c, cp->uoff, (size_t)nuoff);
    SNI_CARVE(c, cp->usave, nus);
    SNI_CARVE(c, cp->jp, 6 * (size_t)nvmax);
    SNI_CARVE(c, cp->jr, 6 * (size_t)nvmax);
    if (!c->base) return;
    cp->nrow = n;
    cp->nvmax = nvmax;
    size_t off = 0;
    for (int i = 0; i < ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        for (int r = 0; r < k->nrow; r++) {
            cp->roff[k->row0 + r] = off;
            off += 2 * (size_t)row_nv(w, k);
        }
    }
    cp->roff[n] = off;
    cp->nuoff = nuoff;
    size_t uo = 0;
    for (int si = 0; si < nuoff; si++) {
        cp->uoff[si] = SIZE_MAX;
        for (int i = 0; i < ncon; i++)
            if (cp->con[i].sa == si || cp->con[i].sb == si) {
                cp->uoff[si] = uo;
                uo += (size_t)w->sys[si]->m->nv;
                break;
            }
    }
    memset(cp->G, 0, nn * nn * sizeof(sn_real));
    memset(cp->kind, 0, nn * sizeof(int));
    memset(cp->act, 0, nn * sizeof(int));
    memset(cp->lam, 0, nn * sizeof(sn_real));
    memset(cp->plam, 0, nn * sizeof(sn_real));
    memset(cp->eps, 0, nn * sizeof(sn_real));
}


// the workspace made again for ncon constraints (the old one kept on failure)
static sn_status ws_alloc(sn_world* w, sni_couple* cp, int ncon) {
    carver c = {NULL, 0};
    ws_layout(cp, w, ncon, &c);
    void* p = sni_alloc(&w->alloc, c.off);
    if (!p) return sni_world_fail(w, SN_ERR_NOMEM, "out of memory for the world constraints");
    sni_free(&w->alloc, cp->ws, cp->ws_bytes);
    cp->ws = p;
    cp->ws_bytes = c.off;
    carver c2 = {p, 0};
    ws_layout(cp, w, ncon, &c2);
    return SN_OK;
}


static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


// a joint frame: all zero is the identity; otherwise a rotation (orthonormal, det +1, 1e-9)
static int frame_ok(const sn_real* Q, sn_real* out) {
    int zero = 1;
    for (int i = 0; i < 9; i++)
        zero &= Q[i] == 0;
    if (zero) {
        m3_identity(out);
        return 1;
    }
    if (!finite_n(Q, 9)) return 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            sn_real d = Q[i] * Q[j] + Q[3 + i] * Q[3 + j] + Q[6 + i] * Q[6 + j];
            if (fabs(d - (i == j)) > 1e-9) return 0;
        }
    sn_real det = Q[0] * (Q[4] * Q[8] - Q[5] * Q[7]) - Q[1] * (Q[3] * Q[8] - Q[5] * Q[6]) +
                  Q[2] * (Q[3] * Q[7] - Q[4] * Q[6]);
    if (det < 0) return 0;
    memcpy(out, Q, 9 * sizeof(sn_real));
    return 1;
}


static int system_index(const sn_world* w, const sn_system* s) {
    for (int i = 0; i < w->nsys; i++)
        if (w->sys[i] == s) return i;
    return -1;
}


static const char* g_kind_name[] = {"BALL",   "DISTANCE", "PLANE", "LINE", "HINGE",
                                    "SLIDER", "WELD",     "GEAR",  "WIRE"};


// d checked and turned into k (the rows not yet placed)
// the kind: one a world takes
static sn_status con_kind(sn_world* w, const sn_constraint_desc* d) {
    if ((int)d->kind < SN_CONSTRAINT_BALL || (int)d->kind > SN_CONSTRAINT_WIRE)
        return FAIL(w, "sn_world_add_constraint: kind %d is not an sn_constraint_kind",
                    (int)d->kind);
    if (d->kind == SN_CONSTRAINT_GEAR)
        return FAIL(w, "sn_world_add_constraint: kind GEAR couples two joints of an sn_maximal; "
                       "between systems of a world it is not supported");
    return SN_OK;
}

// what does not depend on the systems: anchors, frames, length, a wire's stiffness and damping
static sn_status con_shape(sn_world* w, const sn_constraint_desc* d, sni_couple_con* k,
                           const char* kn) {
    if (!finite_n(d->anchor_a, 3) || !finite_n(d->anchor_b, 3))
        return FAIL(w, "sn_world_add_constraint (%s): anchor_a or anchor_b is not finite", kn);
    for (int i = 0; i < 3; i++)
        if (fabs(d->anchor_a[i]) > SNI_COUPLE_SIZE_MAX ||
            fabs(d->anchor_b[i]) > SNI_COUPLE_SIZE_MAX)
            return FAIL(w,
                        "sn_world_add_constraint (%s): anchor_a (%g, %g, %g) or anchor_b (%g, "
                        "%g, %g) has a component beyond %g m",
                        kn, d->anchor_a[0], d->anchor_a[1], d->anchor_a[2], d->anchor_b[0],
                        d->anchor_b[1], d->anchor_b[2], SNI_COUPLE_SIZE_MAX);
    k->d = *d;
    sni_maxc_con* kc = &k->k;
    if (!frame_ok(d->frame_a, kc->Qa))
        return FAIL(w,
                    "sn_world_add_constraint (%s): frame_a is not a rotation (orthonormal, "
                    "determinant 1) nor all zero",
                    kn);
    if (!frame_ok(d->frame_b, kc->Qb))
        return FAIL(w,
                    "sn_world_add_constraint (%s): frame_b is not a rotation (orthonormal, "
                    "determinant 1) nor all zero",
                    kn);
    memcpy(k->d.frame_a, kc->Qa, sizeof kc->Qa);
    memcpy(k->d.frame_b, kc->Qb, sizeof kc->Qb);
    v3_copy(kc->ra, d->anchor_a);
    v3_copy(kc->rb, d->anchor_b);
    if (d->kind == SN_CONSTRAINT_DISTANCE || d->kind == SN_CONSTRAINT_WIRE) {
        if (!(d->length > 0) || !isfinite(d->length))
            return FAIL(w, "sn_world_add_constraint (%s): length %g must be positive", kn,
                        d->length);
        if (d->length > SNI_COUPLE_SIZE_MAX)
            return FAIL(w, "sn_world_add_constraint (%s): length %g is beyond %g m", kn, d->length,
                        SNI_COUPLE_SIZE_MAX);
        kc->length = d->length;
    }
    if (d->kind == SN_CONSTRAINT_WIRE) {
        if (!(d->stiffness >= 0) || !isfinite(d->stiffness))
            return FAIL(w, "sn_world_add_constraint (WIRE): stiffness %g must be >= 0 (0: rigid)",
                        d->stiffness);
        if (!(d->damping >= 0) || !isfinite(d->damping))
            return FAIL(w, "sn_world_add_constraint (WIRE): damping %g must be >= 0", d->damping);
        if (d->stiffness == 0 && d->damping > 0)
            return FAIL(w,
                        "sn_world_add_constraint (WIRE): damping %g needs a stiffness > 0 (a "
                        "rigid wire has no damping)",
                        d->damping);
        kc->kind = SNI_MAXC_DISTANCE;
        k->wire = d->stiffness > 0 ? 2 : 1;
        k->nrow = 1;
    } else {
        kc->kind = (sni_maxc_kind)d->kind; // BALL .. WELD share their order
        k->nrow = sni_maxc_rows(kc->kind);
    }
    return SN_OK;
}


static sn_status con_make(sn_world* w, const sn_constraint_desc* d, sni_couple_con* k) {
    memset(k, 0, sizeof *k);
    sn_status st = con_kind(w, d);
    if (st != SN_OK) return st;
    const char* kn = g_kind_name[d->kind];
    if (!d->system_a) return FAIL(w, "sn_world_add_constraint (%s): system_a is NULL", kn);
    k->sa = system_index(w, d->system_a);
    if (k->sa < 0)
        return FAIL(w, "sn_world_add_constraint (%s): system_a is not a system of this world", kn);
    const sn_model* ma = d->system_a->m;
    if (d->body_a < 0 || d->body_a >= ma->nbody)
        return FAIL(w, "sn_world_add_constraint (%s): body_a %d: system_a has bodies 0 to %d", kn,
                    d->body_a, ma->nbody - 1);
    k->ba = d->body_a;
    k->sb = -1, k->bb = -1;
    if (d->system_b && d->body_b >= 0) {
        k->sb = system_index(w, d->system_b);
        if (k->sb < 0)
            return FAIL(w, "sn_world_add_constraint (%s): system_b is not a system of this world",
                        kn);
        const sn_model* mb = d->system_b->m;
        if (d->body_b >= mb->nbody)
            return FAIL(w, "sn_world_add_constraint (%s): body_b %d: system_b has bodies 0 to %d",
                        kn, d->body_b, mb->nbody - 1);
        k->bb = d->body_b;
        if (k->sb == k->sa && k->bb == k->ba)
            return FAIL(w,
                        "sn_world_add_constraint (%s): body_a and body_b are the same body %d "
                        "of one system",
                        kn, k->ba);
    } else if (d->system_b && d->body_b < -1) {
        return FAIL(w, "sn_world_add_constraint (%s): body_b %d (-1 is the world)", kn, d->body_b);
    }
    return con_shape(w, d, k, kn);
}

sn_status sni_couple_check_desc(sn_world* w, const sn_constraint_desc* d) {
    if (sni_soft_on(w))
        return FAIL(w, "sn_world_add_constraint: world constraints act in the hard contact "
                       "solver; this world uses soft contacts");
    sn_status st = con_kind(w, d);
    if (st != SN_OK) return st;
    sni_couple_con k;
    memset(&k, 0, sizeof k);
    return con_shape(w, d, &k, g_kind_name[d->kind]);
}

sn_status sn_world_add_constraint(sn_world* w, const sn_constraint_desc* d, int* id) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!d) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_constraint: d is NULL");
    if (!d) return FAIL(w, "sn_world_add_constraint: d is NULL");
    if (sni_soft_on(w))
        return FAIL(w, "sn_world_add_constraint: world constraints act in the hard contact "
                       "solver; this world uses soft contacts");
    sni_couple_con k;
    sn_status st = con_make(w, d, &k);
    if (st != SN_OK) return st;
    sni_couple* cp = w->couple;
    if (!cp) {
        cp = sni_alloc(&w->alloc, sizeof *cp);
        if (!cp) return sni_world_fail(w, SN_ERR_NOMEM, "out of memory for a world constraint");
        memset(cp, 0, sizeof *cp);
        w->couple = cp;
    }
    if (cp->ncon == cp->cap) {
        int cap = cp->cap ? 2 * cp->cap : 4;
        sni_couple_con* nc = sni_alloc(&w->alloc, (size_t)cap * sizeof *nc);
        if (!nc) return sni_world_fail(w, SN_ERR_NOMEM, "out of memory for a world constraint");
        if (cp->ncon) memcpy(nc, cp->con, (size_t)cp->ncon * sizeof *nc);
        sni_free(&w->alloc, cp->con, (size_t)cp->cap * sizeof *nc);
        cp->con = nc;
        cp->cap = cap;
    }
    k.row0 = cp->nrow;
    cp->con[cp->ncon] = k;
    st = ws_alloc(w, cp, cp->ncon + 1);
    if (st != SN_OK) return st;
    cp->ncon++;
    if (id) *id = cp->ncon - 1;
    return SN_OK;
}


int sn_world_constraint_count(const sn_world* w) {
    SNI_REFUSE_NULL(w, SN_NONE);
    return w->couple ? w->couple->ncon : 0;
}


static sn_status check_id(const sn_world* w, int id, const char* fn) {
    int n = sn_world_constraint_count(w);
    if (id < 0 || id >= n)
        return FAIL((sn_world*)(void*)w, "%s: constraint id %d: the world has %d", fn, id, n);
    return SN_OK;
}


sn_status sn_world_constraint_force(const sn_world* w, int id, sn_real force[3], sn_real torque[3],
                                    int* taut) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    sn_status st = check_id(w, id, "sn_world_constraint_force");
    if (st != SN_OK) return st;
    const sni_couple_con* k = &w->couple->con[id];
    if (force) v3_copy(force, k->wrench);
    if (torque) v3_copy(torque, k->wrench + 3);
    if (taut) *taut = k->taut;
    return SN_OK;
}


sn_status sn_world_constraint_error(sn_world* w, int id, sn_real* worst) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!worst)
        return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_constraint_error: worst is NULL");
    sn_status st = check_id(w, id, "sn_world_constraint_error");
    if (st != SN_OK) return st;
    const sni_couple_con* k = &w->couple->con[id];
    sn_system* sa = w->sys[k->sa];
    sn_system* sb = k->sb >= 0 ? w->sys[k->sb] : NULL;
    sni_ensure_kinematics(sa);
    if (sb) sni_ensure_kinematics(sb);
    sni_maxc_body A, B;
    sni_couple_side(sa, k->ba, &A, NULL, NULL);
    if (sb) sni_couple_side(sb, k->bb, &B, NULL, NULL);
    sn_real c[SNI_MAXC_ROWS_MAX], e = 0;
    st = sni_maxc_eval(&k->k, &A, sb ? &B : NULL, c, NULL, NULL, NULL);
    if (st == SN_ERR_ARG && k->wire) {
        c[0] = -k->k.length; // the anchors meet: slack
    } else if (st != SN_OK) {
        return sni_world_fail(w, st, "sn_world_constraint_error: constraint %d: %s", id,
                              st == SN_ERR_NONFINITE ? "a body's state is not finite"
                                                     : "its anchors meet (no direction)");
    }
    for (int r = 0; r < k->nrow; r++) {
        sn_real a = k->wire ? (c[r] > 0 ? c[r] : 0) : fabs(c[r]);
        e = a > e ? a : e;
    }
    if (worst) *worst = e;
    return SN_OK;
}
