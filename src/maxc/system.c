// SPDX-License-Identifier: Apache-2.0
// system.c: an sn_maximal's API (docs/constraints.md "A system in maximal coordinates"):
// creation, bodies and constraints (the workspace grown here, never in a step), settings, state,
// forces, and the reports (constraint forces and errors, energies, momentum).
#include "base/smath.h"
#include "math/dense.h"
#include "maxc/maxc.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

sn_status sni_mx_fail(sn_maximal* mx, sn_status code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mx->err, sizeof mx->err, fmt, ap);
    va_end(ap);
    sni_last_error_set(mx->err);
    if (mx->log) mx->log(SN_LOG_ERROR, mx->err, mx->log_ctx);
    return code;
}

static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

sn_status sn_maximal_create(const sn_world_opts* opts, sn_maximal** out, sn_error* err) {
    if (out) *out = NULL;
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_maximal_create: out is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_maximal_create: out is NULL");
    *out = NULL;
    sn_real dt = opts ? opts->timestep : 0;
    if (dt != 0 && !(dt >= SN_TIMESTEP_MIN && dt <= SN_TIMESTEP_MAX))
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "sn_maximal_create: opts->timestep %g is not 0 (the default) nor within "
                         "%g to %g s",
                         dt, SN_TIMESTEP_MIN, SN_TIMESTEP_MAX);
    sn_allocator al = sni_allocator_or_default(opts ? opts->allocator : NULL);
    sn_maximal* mx = sni_alloc(&al, sizeof *mx);
    if (!mx) return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "sn_maximal_create: no memory");
    mx->al = al;
    mx->log = opts ? opts->log : NULL;
    mx->log_ctx = opts ? opts->log_ctx : NULL;
    mx->dt = dt > 0 ? dt : 1e-3;
    v3_set(mx->g, 0, 0, -9.81);
    mx->alpha = mx->beta = 1 / (10 * mx->dt);
    mx->scheme = SN_MAXIMAL_SEMI_IMPLICIT;
    *out = mx;
    return SN_OK;
}

void sn_maximal_destroy(sn_maximal* mx) {
    if (!mx) return;
    const sn_allocator* a = &mx->al;
    size_t nb = (size_t)mx->cap_body, nr = (size_t)mx->cap_row;
    sni_free(a, mx->body, nb * sizeof *mx->body);
    sni_free(a, mx->bw, nb * sizeof *mx->bw);
    sni_free(a, mx->sb, nb * sizeof *mx->sb);
    sni_free(a, mx->y0, nb * sizeof *mx->y0);
    sni_free(a, mx->ys, nb * sizeof *mx->ys);
    sni_free(a, mx->ksum, nb * sizeof *mx->ksum);
    sni_free(a, mx->con, (size_t)mx->cap_con * sizeof *mx->con);
    sni_free(a, mx->row, nr * sizeof *mx->row);
    sni_free(a, mx->A, nr * nr * sizeof *mx->A);
    sni_free(a, mx->perm, nr * sizeof *mx->perm);
    sni_free(a, mx->rhs, nr * sizeof *mx->rhs);
    sni_free(a, mx->env, nr * sizeof *mx->env);
    sni_free(a, mx->adj, 4 * nr * sizeof *mx->adj);
    sni_free(a, mx->adj_start, (nb + 1) * sizeof *mx->adj_start);
    sni_free(a, mx->adj_cur, nb * sizeof *mx->adj_cur);
    sni_maxc_model_free(mx); // from_model.c's map (sized by the model it was made from)
    sn_allocator al = mx->al;
    sni_free(&al, mx, sizeof *mx);
}

const char* sn_maximal_last_error(const sn_maximal* mx) {
    return mx ? mx->err : "sn_maximal_last_error: mx is NULL";
}

// the next capacity >= need, doubling (need itself when doubling would overflow an int)
static int next_cap(int cap, int need) {
    int c = cap > 0 ? cap : 4;
    while (c < need) {
        if (c > INT_MAX / 2) return need;
        c *= 2;
    }
    return c;
}

// one array of the workspace: its pointer, element size, and count for a capacity
typedef struct warr {
    void** p;
    size_t elem;
    int mul, add; // count = mul * cap (cap^2 when mul is 0) + add
} warr;

static size_t warr_count(const warr* w, int cap) {
    return w->mul ? (size_t)w->mul * (size_t)cap + (size_t)w->add : (size_t)cap * (size_t)cap;
}

// a set of arrays regrown together to capacity cap (the first n elements of each kept), all or
// nothing
static int regrow_set(const sn_allocator* a, warr* w, int nw, int n, int oldcap, int cap) {
    void* p[8];
    for (int i = 0; i < nw; i++) {
        p[i] = sni_alloc(a, warr_count(&w[i], cap) * w[i].elem);
        if (!p[i]) {
            for (int k = 0; k < i; k++)
                sni_free(a, p[k], warr_count(&w[k], cap) * w[k].elem);
            return 0;
        }
    }
    for (int i = 0; i < nw; i++) {
        if (*w[i].p && n > 0 && w[i].mul == 1) memcpy(p[i], *w[i].p, (size_t)n * w[i].elem);
        if (*w[i].p) sni_free(a, *w[i].p, warr_count(&w[i], oldcap) * w[i].elem);
        *w[i].p = p[i];
    }
    return 1;
}

// room for nbody bodies, ncon constraints and nrow rows (all or nothing per kind)
static sn_status reserve(sn_maximal* mx, int nbody, int ncon, int nrow) {
    const sn_allocator* a = &mx->al;
    if (nbody > mx->cap_body) {
        int cap = next_cap(mx->cap_body, nbody);
        warr w[] = {{(void**)&mx->body, sizeof *mx->body, 1, 0},
                    {(void**)&mx->bw, sizeof *mx->bw, 1, 0},
                    {(void**)&mx->sb, sizeof *mx->sb, 1, 0},
                    {(void**)&mx->y0, sizeof *mx->y0, 1, 0},
                    {(void**)&mx->ys, sizeof *mx->ys, 1, 0},
                    {(void**)&mx->ksum, sizeof *mx->ksum, 1, 0},
                    {(void**)&mx->adj_start, sizeof *mx->adj_start, 1, 1},
                    {(void**)&mx->adj_cur, sizeof *mx->adj_cur, 1, 0}};
        if (!regrow_set(a, w, 8, mx->nbody, mx->cap_body, cap))
            return sni_mx_fail(mx, SN_ERR_NOMEM, "no memory for %d bodies", cap);
        mx->cap_body = cap;
    }
    if (ncon > mx->cap_con) {
        int cap = next_cap(mx->cap_con, ncon);
        warr w[] = {{(void**)&mx->con, sizeof *mx->con, 1, 0}};
        if (!regrow_set(a, w, 1, mx->ncon, mx->cap_con, cap))
            return sni_mx_fail(mx, SN_ERR_NOMEM, "no memory for %d constraints", cap);
        mx->cap_con = cap;
    }
    if (nrow > mx->cap_row) {
        int cap = next_cap(mx->cap_row, nrow);
        warr w[] = {
            {(void**)&mx->row, sizeof *mx->row, 1, 0},   {(void**)&mx->A, sizeof *mx->A, 0, 0},
            {(void**)&mx->perm, sizeof *mx->perm, 1, 0}, {(void**)&mx->rhs, sizeof *mx->rhs, 1, 0},
            {(void**)&mx->env, sizeof *mx->env, 1, 0},   {(void**)&mx->adj, sizeof *mx->adj, 4, 0}};
        if (!regrow_set(a, w, 6, 0, mx->cap_row, cap)) // scratch: nothing to keep
            return sni_mx_fail(mx, SN_ERR_NOMEM, "no memory for %d rows", cap);
        mx->cap_row = cap;
    }
    return SN_OK;
}

// the inverse of a symmetric positive definite 3x3 from its Cholesky factor L (lower, in place
// of sni_chol): column j solves L L^T x = e_j (no determinant: no overflow at any scale whose
// inverse is representable); symmetrized; 0 if not finite
static int inv3_chol(sn_real* d, const sn_real* L) {
    for (int j = 0; j < 3; j++) {
        sn_real x[3] = {0, 0, 0};
        x[j] = 1;
        sni_chol_solve1(L, 3, 3, x);
        for (int i = 0; i < 3; i++)
            d[3 * i + j] = x[i];
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < i; j++)
            d[3 * i + j] = d[3 * j + i] = 0.5 * (d[3 * i + j] + d[3 * j + i]);
    return finite_n(d, 9);
}

sn_status sn_maximal_add_body(sn_maximal* mx, sn_real mass, const sn_real inertia[6], int* id) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!inertia)
        return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG, "sn_maximal_add_body: inertia is NULL");
    if (!inertia) return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_add_body: inertia is NULL");
    if (!isfinite(mass) || !(mass > 0))
        return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_add_body: mass %g is not finite and > 0",
                           mass);
    if (!finite_n(inertia, 6))
        return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_add_body: inertia is not finite");
    sn_real I[9] = {inertia[0], inertia[1], inertia[2], inertia[1], inertia[3],
                    inertia[4], inertia[2], inertia[4], inertia[5]};
    sn_real L[9];
    memcpy(L, I, sizeof L);
    sn_real scale = fmax(fmax(fabs(I[0]), fabs(I[4])), fabs(I[8]));
    if (!(scale > 0) || sni_chol(L, 3, 1e-12 * scale) != SN_OK)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "sn_maximal_add_body: inertia (xx xy xz yy yz zz) = (%g %g %g %g %g "
                           "%g) is not positive definite",
                           inertia[0], inertia[1], inertia[2], inertia[3], inertia[4], inertia[5]);
    sn_real Iinv[9];
    if (!inv3_chol(Iinv, L))
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "sn_maximal_add_body: inertia (xx xy xz yy yz zz) = (%g %g %g %g %g "
                           "%g): its inverse is not finite (too small a scale)",
                           inertia[0], inertia[1], inertia[2], inertia[3], inertia[4], inertia[5]);
    if (mx->nbody == INT_MAX)
        return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_add_body: no more bodies (%d)", mx->nbody);
    sn_status st = reserve(mx, mx->nbody + 1, mx->ncon, mx->nrow);
    if (st != SN_OK) return st;
    sni_mx_body* b = &mx->body[mx->nbody];
    memset(b, 0, sizeof *b);
    b->mass = mass;
    memcpy(b->I, I, sizeof I);
    memcpy(b->Iinv, Iinv, sizeof Iinv);
    m3_identity(b->st.R);
    b->quat[0] = 1;
    if (id) *id = mx->nbody;
    mx->nbody++;
    return SN_OK;
}

// a frame given as 9 numbers: all zero the identity; else a rotation (orthonormal, det +1)
static int frame_fill(sn_real* Q, const sn_real* f) {
    int zero = 1;
    for (int i = 0; i < 9; i++)
        zero = zero && f[i] == 0;
    if (zero) {
        m3_identity(Q);
        return 1;
    }
    if (!finite_n(f, 9)) return 0;
    sn_real QtQ[9];
    m3t_mul(QtQ, f, f);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (fabs(QtQ[3 * i + j] - (i == j)) > 1e-9) return 0;
    sn_real det = f[0] * (f[4] * f[8] - f[5] * f[7]) - f[1] * (f[3] * f[8] - f[5] * f[6]) +
                  f[2] * (f[3] * f[7] - f[4] * f[6]);
    if (!(det > 0)) return 0;
    memcpy(Q, f, 9 * sizeof(sn_real));
    return 1;
}

// the gear's two coordinates at the bodies' current states: joint_b's hinge angle unwrapped to
// within pi of refb, then joint_a's to within pi of ratio q_b + offset (where the gear holds it),
// so that a consistent pair of angles beyond +-pi has no error; written to g->gq only on success
static sn_status gear_init(sn_maximal* mx, sni_mx_con* g, sn_real refb) {
    for (int i = 0; i < mx->nbody; i++)
        mx->sb[i] = mx->body[i].st;
    sn_real q[2];
    for (int s = 1; s >= 0; s--) {
        const sni_mx_con* j = &mx->con[s ? g->d.joint_b : g->d.joint_a];
        sn_real Ja[6], Jb[6], jd, ref = s ? refb : g->d.ratio * q[1] + g->d.offset;
        sn_status st = sni_mx_coord(&j->k, sni_mx_sb(mx, j->d.body_a), sni_mx_sb(mx, j->d.body_b),
                                    ref, &q[s], Ja, Jb, &jd);
        if (st != SN_OK) return st;
    }
    memcpy(g->gq, q, sizeof q);
    return SN_OK;
}

// after a body's state is set: every gear's reference angles again (joint_b's from its last
// value, joint_a's from the gear's relation); a gear whose coordinates are undefined at the new
// state keeps its last ones (its step then reports it)
static void gears_refresh(sn_maximal* mx) {
    for (int ci = 0; ci < mx->ncon; ci++) {
        sni_mx_con* g = &mx->con[ci];
        if (!g->user && g->d.kind == SN_CONSTRAINT_GEAR) (void)gear_init(mx, g, g->gq[1]);
    }
}

static const char* g_kind_name[] = {"BALL",   "DISTANCE", "PLANE", "LINE", "HINGE",
                                    "SLIDER", "WELD",     "GEAR",  "WIRE"};

// the checks of a built-in constraint's description; SN_OK or SN_ERR_ARG with the message
static sn_status check_desc(sn_maximal* mx, const sn_constraint_desc* d) {
    const char* f = "sn_maximal_add_constraint";
    if (d->system_a || d->system_b)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "%s: system_a and system_b must be NULL in an "
                           "sn_maximal (world constraints: sn_world_add_constraint)",
                           f);
    if ((int)d->kind < 0 || d->kind > SN_CONSTRAINT_WIRE)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: kind %d is not a constraint kind", f, (int)d->kind);
    const char* kn = g_kind_name[d->kind];
    if (d->kind == SN_CONSTRAINT_GEAR) {
        int js[2] = {d->joint_a, d->joint_b};
        for (int s = 0; s < 2; s++) {
            const char* jn = s ? "joint_b" : "joint_a";
            if (js[s] < 0 || js[s] >= mx->ncon)
                return sni_mx_fail(mx, SN_ERR_ARG, "%s: GEAR: %s %d is not a constraint id (0..%d)",
                                   f, jn, js[s], mx->ncon - 1);
            const sni_mx_con* j = &mx->con[js[s]];
            if (j->user || (j->d.kind != SN_CONSTRAINT_HINGE && j->d.kind != SN_CONSTRAINT_SLIDER))
                return sni_mx_fail(mx, SN_ERR_ARG, "%s: GEAR: %s %d is a %s, not a hinge or slider",
                                   f, jn, js[s],
                                   j->user ? "user constraint" : g_kind_name[j->d.kind]);
        }
        if (d->joint_a == d->joint_b)
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: GEAR: joint_a and joint_b are both %d", f,
                               d->joint_a);
        if (!isfinite(d->ratio) || !isfinite(d->offset))
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: GEAR: ratio %g or offset %g is not finite", f,
                               d->ratio, d->offset);
        return SN_OK;
    }
    if (d->body_a < 0 || d->body_a >= mx->nbody)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: %s: body_a %d is not a body id (0..%d)", f, kn,
                           d->body_a, mx->nbody - 1);
    if (d->body_b < -1 || d->body_b >= mx->nbody)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "%s: %s: body_b %d is not a body id (0..%d) or -1 (the "
                           "world)",
                           f, kn, d->body_b, mx->nbody - 1);
    if (d->body_a == d->body_b)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "%s: %s: body_a and body_b are both %d (a body's "
                           "constraint with itself)",
                           f, kn, d->body_a);
    if (!finite_n(d->anchor_a, 3) || !finite_n(d->anchor_b, 3))
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: %s: anchor_a or anchor_b is not finite", f, kn);
    sn_real Q[9];
    if (!frame_fill(Q, d->frame_a))
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "%s: %s: frame_a is not a rotation (orthonormal, "
                           "det +1) nor all zero",
                           f, kn);
    if (!frame_fill(Q, d->frame_b))
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "%s: %s: frame_b is not a rotation (orthonormal, "
                           "det +1) nor all zero",
                           f, kn);
    if (d->kind == SN_CONSTRAINT_DISTANCE || d->kind == SN_CONSTRAINT_WIRE) {
        if (!isfinite(d->length) || !(d->length > 0))
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: %s: length %g is not finite and > 0", f, kn,
                               d->length);
    }
    if (d->kind == SN_CONSTRAINT_WIRE) {
        if (!isfinite(d->stiffness) || d->stiffness < 0)
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: WIRE: stiffness %g is not finite and >= 0", f,
                               d->stiffness);
        if (!isfinite(d->damping) || d->damping < 0)
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: WIRE: damping %g is not finite and >= 0", f,
                               d->damping);
    }
    return SN_OK;
}

static int desc_rows(const sn_constraint_desc* d) {
    if (d->kind == SN_CONSTRAINT_GEAR || d->kind == SN_CONSTRAINT_WIRE) return 1;
    return sni_maxc_rows((sni_maxc_kind)d->kind);
}

sn_status sn_maximal_add_constraint(sn_maximal* mx, const sn_constraint_desc* d, int* id) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!d) return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG, "sn_maximal_add_constraint: d is NULL");
    if (!d) return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_add_constraint: d is NULL");
    sn_status st = check_desc(mx, d);
    if (st != SN_OK) return st;
    int nr = desc_rows(d);
    if (nr > SNI_MX_ROWS_CAP - mx->nrow)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "sn_maximal_add_constraint: %d rows more would exceed the most rows "
                           "of an sn_maximal (%d; it has %d)",
                           nr, SNI_MX_ROWS_CAP, mx->nrow);
    st = reserve(mx, mx->nbody, mx->ncon + 1, mx->nrow + nr);
    if (st != SN_OK) return st;
    sni_mx_con* c = &mx->con[mx->ncon];
    memset(c, 0, sizeof *c);
    c->d = *d;
    if (c->d.kind == SN_CONSTRAINT_GEAR) {
        if (c->d.ratio == 0) c->d.ratio = 1;
        c->d.body_a = mx->con[d->joint_a].d.body_a; // the force report's body
        st = gear_init(mx, c, 0);
        if (st != SN_OK)
            return sni_mx_fail(mx, st,
                               "sn_maximal_add_constraint: GEAR: the joints' coordinates "
                               "are undefined at the current state");
    } else {
        frame_fill(c->d.frame_a, d->frame_a);
        frame_fill(c->d.frame_b, d->frame_b);
        c->k.kind = d->kind == SN_CONSTRAINT_WIRE ? SNI_MAXC_DISTANCE : (sni_maxc_kind)d->kind;
        v3_copy(c->k.ra, d->anchor_a);
        v3_copy(c->k.rb, d->anchor_b);
        memcpy(c->k.Qa, c->d.frame_a, sizeof c->k.Qa);
        memcpy(c->k.Qb, c->d.frame_b, sizeof c->k.Qb);
        c->k.length = d->length;
    }
    c->row0 = mx->nrow;
    c->nrow = nr;
    if (id) *id = mx->ncon;
    mx->ncon++;
    mx->nrow += nr;
    return SN_OK;
}

sn_status sn_maximal_add_user_constraint(sn_maximal* mx, const sn_user_constraint* uc, int* id) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!uc)
        return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG,
                           "sn_maximal_add_user_constraint: uc is NULL");
    const char* f = "sn_maximal_add_user_constraint";
    if (!uc) return sni_mx_fail(mx, SN_ERR_ARG, "%s: uc is NULL", f);
    if (uc->rows < 1 || uc->rows > SNI_MAXC_ROWS_MAX)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: rows %d is not in 1..%d", f, uc->rows,
                           SNI_MAXC_ROWS_MAX);
    if (!uc->eval) return sni_mx_fail(mx, SN_ERR_ARG, "%s: eval is NULL", f);
    if (uc->body_a < 0 || uc->body_a >= mx->nbody)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: body_a %d is not a body id (0..%d)", f, uc->body_a,
                           mx->nbody - 1);
    if (uc->body_b < -1 || uc->body_b >= mx->nbody)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: body_b %d is not a body id (0..%d) or -1", f,
                           uc->body_b, mx->nbody - 1);
    if (uc->body_a == uc->body_b)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: body_a and body_b are both %d", f, uc->body_a);
    if (!isfinite(uc->check_tol) || uc->check_tol < 0)
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: check_tol %g is not finite and >= 0", f,
                           uc->check_tol);
    if (uc->rows > SNI_MX_ROWS_CAP - mx->nrow)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "%s: %d rows more would exceed the most rows of an sn_maximal (%d; it "
                           "has %d)",
                           f, uc->rows, SNI_MX_ROWS_CAP, mx->nrow);
    sn_status st = reserve(mx, mx->nbody, mx->ncon + 1, mx->nrow + uc->rows);
    if (st != SN_OK) return st;
    if (uc->check) {
        st = sni_mx_user_check(mx, uc);
        if (st != SN_OK) return st;
    }
    sni_mx_con* c = &mx->con[mx->ncon];
    memset(c, 0, sizeof *c);
    c->user = 1;
    c->uc = *uc;
    c->d.kind = (sn_constraint_kind)-1;
    c->d.body_a = uc->body_a;
    c->d.body_b = uc->body_b;
    c->row0 = mx->nrow;
    c->nrow = uc->rows;
    if (id) *id = mx->ncon;
    mx->ncon++;
    mx->nrow += uc->rows;
    return SN_OK;
}

int sn_maximal_body_count(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, SN_NONE);
    return mx ? mx->nbody : 0;
}
int sn_maximal_constraint_count(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, SN_NONE);
    return mx ? mx->ncon : 0;
}
int sn_maximal_row_count(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, SN_NONE);
    return mx ? mx->nrow : 0;
}

sn_status sn_maximal_set_timestep(sn_maximal* mx, sn_real dt) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!(dt >= SN_TIMESTEP_MIN && dt <= SN_TIMESTEP_MAX))
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "sn_maximal_set_timestep: dt %g is outside %g to %g s (finite and > 0 "
                           "within SN_TIMESTEP_MIN, SN_TIMESTEP_MAX)",
                           dt, SN_TIMESTEP_MIN, SN_TIMESTEP_MAX);
    mx->dt = dt;
    if (!mx->stab_user) mx->alpha = mx->beta = 1 / (10 * dt);
    return SN_OK;
}
sn_real sn_maximal_timestep(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, (sn_real)NAN);
    return mx ? mx->dt : 0;
}
sn_status sn_maximal_set_gravity(sn_maximal* mx, const sn_real g[3]) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!g) return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG, "sn_maximal_set_gravity: g is NULL");
    if (!g || !finite_n(g, 3))
        return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_set_gravity: g is NULL or not finite");
    v3_copy(mx->g, g);
    return SN_OK;
}
sn_status sn_maximal_gravity(const sn_maximal* mx, sn_real g[3]) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!g) return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG, "sn_maximal_gravity: g is NULL");
    v3_copy(g, mx->g);
    return SN_OK;
}
sn_maximal_scheme sn_maximal_scheme_of(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, (sn_maximal_scheme)SN_NONE);
    return mx->scheme;
}
sn_status sn_maximal_set_scheme(sn_maximal* mx, sn_maximal_scheme scheme) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (scheme != SN_MAXIMAL_SEMI_IMPLICIT && scheme != SN_MAXIMAL_RK4)
        return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_set_scheme: scheme %d is not a scheme",
                           (int)scheme);
    mx->scheme = scheme;
    return SN_OK;
}
sn_status sn_maximal_set_stabilization(sn_maximal* mx, sn_real alpha, sn_real beta) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (!isfinite(alpha) || alpha < 0 || !isfinite(beta) || beta < 0)
        return sni_mx_fail(mx, SN_ERR_ARG,
                           "sn_maximal_set_stabilization: alpha %g and beta %g "
                           "must be finite and >= 0",
                           alpha, beta);
    mx->alpha = alpha;
    mx->beta = beta;
    mx->stab_user = 1;
    return SN_OK;
}
sn_status sn_maximal_set_projection(sn_maximal* mx, int on) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    if (on != 0 && on != 1)
        return sni_mx_fail(mx, SN_ERR_ARG, "sn_maximal_set_projection: on %d is not 0 or 1", on);
    mx->project = on;
    return SN_OK;
}
int sn_maximal_projection(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, SN_NONE);
    return mx ? mx->project : 0;
}
sn_real sn_maximal_time(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, (sn_real)NAN);
    return mx ? mx->t : 0;
}

static sn_status body_id(const sn_maximal* mx, int body, const char* f) {
    if (!mx) return SN_ERR_ARG;
    if (body < 0 || body >= mx->nbody)
        return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG, "%s: body %d is not a body id (0..%d)", f,
                           body, mx->nbody - 1);
    return SN_OK;
}

sn_status sn_maximal_set_body_state(sn_maximal* mx, int body, const sn_real x[3],
                                    const sn_real quat[4], const sn_real v[3], const sn_real w[3]) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    const char* f = "sn_maximal_set_body_state";
    sn_status st = body_id(mx, body, f);
    if (st != SN_OK) return st;
    if ((x && !finite_n(x, 3)) || (v && !finite_n(v, 3)) || (w && !finite_n(w, 3)) ||
        (quat && !finite_n(quat, 4)))
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: body %d: x, quat, v or w is not finite", f, body);
    sn_real qu[4] = {1, 0, 0, 0};
    if (quat) { // normalized scaled by its largest component (no overflow nor underflow)
        sn_real big = fmax(fmax(fabs(quat[0]), fabs(quat[1])), fmax(fabs(quat[2]), fabs(quat[3])));
        if (!(big > 0)) return sni_mx_fail(mx, SN_ERR_ARG, "%s: body %d: quat has norm 0", f, body);
        sn_real s[4], n2 = 0;
        for (int i = 0; i < 4; i++) {
            s[i] = quat[i] / big;
            n2 += s[i] * s[i];
        }
        sn_real n = sqrt(n2);
        for (int i = 0; i < 4; i++)
            qu[i] = s[i] / n;
        if (!finite_n(qu, 4))
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: body %d: quat (%g %g %g %g) has no finite unit",
                               f, body, quat[0], quat[1], quat[2], quat[3]);
    }
    sni_mx_body* b = &mx->body[body];
    if (x) v3_copy(b->st.x, x);
    if (v) v3_copy(b->st.v, v);
    if (w) v3_copy(b->st.w, w);
    if (quat) {
        memcpy(b->quat, qu, sizeof qu);
        quat_to_m3(b->st.R, b->quat);
    }
    gears_refresh(mx);
    return SN_OK;
}

sn_status sn_maximal_body_state(const sn_maximal* mx, int body, sn_real x[3], sn_real quat[4],
                                sn_real v[3], sn_real w[3]) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    sn_status st = body_id(mx, body, "sn_maximal_body_state");
    if (st != SN_OK) return st;
    const sni_mx_body* b = &mx->body[body];
    if (x) v3_copy(x, b->st.x);
    if (quat) memcpy(quat, b->quat, 4 * sizeof(sn_real));
    if (v) v3_copy(v, b->st.v);
    if (w) v3_copy(w, b->st.w);
    return SN_OK;
}

sn_status sn_maximal_set_body_force(sn_maximal* mx, int body, const sn_real force[3],
                                    const sn_real torque[3]) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    const char* f = "sn_maximal_set_body_force";
    sn_status st = body_id(mx, body, f);
    if (st != SN_OK) return st;
    if ((force && !finite_n(force, 3)) || (torque && !finite_n(torque, 3)))
        return sni_mx_fail(mx, SN_ERR_ARG, "%s: body %d: force or torque is not finite", f, body);
    sni_mx_body* b = &mx->body[body];
    if (force) v3_copy(b->F, force);
    if (torque) v3_copy(b->tau, torque);
    return SN_OK;
}

sn_status sn_maximal_constraint_force(const sn_maximal* mx, int id, sn_real* lambda, int n,
                                      sn_real force[3], sn_real torque[3]) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    const char* f = "sn_maximal_constraint_force";
    if (id < 0 || id >= mx->ncon)
        return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG, "%s: id %d is not a constraint id (0..%d)",
                           f, id, mx->ncon - 1);
    const sni_mx_con* c = &mx->con[id];
    if (lambda && n < c->nrow)
        return sni_mx_fail((sn_maximal*)mx, SN_ERR_ARG,
                           "%s: n %d is less than constraint %d's "
                           "%d rows",
                           f, n, id, c->nrow);
    if (lambda) memcpy(lambda, c->lambda, (size_t)c->nrow * sizeof(sn_real));
    if (force) v3_copy(force, c->force);
    if (torque) v3_copy(torque, c->torque);
    return SN_OK;
}

// a wire's anchors' distance at the bodies' states
static sn_real wire_dist(const sn_maximal* mx, const sni_mx_con* c) {
    sn_real pa[3], pb[3], d[3];
    const sni_mx_body* a = &mx->body[c->d.body_a];
    m3_mul_v3(pa, a->st.R, c->d.anchor_a);
    v3_add(pa, pa, a->st.x);
    if (c->d.body_b >= 0) {
        const sni_mx_body* b = &mx->body[c->d.body_b];
        m3_mul_v3(pb, b->st.R, c->d.anchor_b);
        v3_add(pb, pb, b->st.x);
    } else {
        v3_copy(pb, c->d.anchor_b);
    }
    v3_sub(d, pa, pb);
    return v3_norm(d);
}

static const sni_maxc_body* body_st(const sn_maximal* mx, int i) {
    return i < 0 ? NULL : &mx->body[i].st;
}

// every constraint's rows at the bodies' states, evaluated here without the step's workspace:
// nothing of mx is written but the reason of a failure (mx->err)
sn_status sn_maximal_constraint_error(const sn_maximal* mx, sn_real* rms, sn_real* worst) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    sn_maximal* m = (sn_maximal*)mx; // for a failure's message only
    sn_real s = 0, big = 0;
    int n = 0;
    for (int ci = 0; ci < mx->ncon; ci++) {
        const sni_mx_con* k = &mx->con[ci];
        sn_real c[SNI_MAXC_ROWS_MAX], Ja[6 * SNI_MAXC_ROWS_MAX], Jb[6 * SNI_MAXC_ROWS_MAX],
            jd[SNI_MAXC_ROWS_MAX];
        int nr = k->nrow;
        sn_status st = SN_OK;
        if (k->user) {
            int rc = sni_mx_user_call(&k->uc, body_st(mx, k->uc.body_a), body_st(mx, k->uc.body_b),
                                      c, Ja, Jb, jd);
            if (rc != 0)
                return sni_mx_fail(m, rc == -1000 ? SN_ERR_NONFINITE : SN_ERR_ARG,
                                   "sn_maximal_constraint_error: constraint %d (user): the "
                                   "callback %s",
                                   ci, rc == -1000 ? "gave a non-finite c, J or jdot" : "failed");
        } else if (k->d.kind == SN_CONSTRAINT_WIRE) {
            if (k->d.stiffness > 0) continue;               // a spring: no row, not counted
            c[0] = fmax(wire_dist(mx, k) - k->d.length, 0); // a slack wire has no error
            if (!isfinite(c[0])) st = SN_ERR_NONFINITE;
        } else if (k->d.kind == SN_CONSTRAINT_GEAR) {
            c[0] = -k->d.offset;
            for (int j = 0; j < 2 && st == SN_OK; j++) {
                const sni_mx_con* h = &mx->con[j ? k->d.joint_b : k->d.joint_a];
                sn_real q, a6[6], b6[6], jdq;
                st = sni_mx_coord(&h->k, body_st(mx, h->d.body_a), body_st(mx, h->d.body_b),
                                  k->gq[j], &q, a6, b6, &jdq);
                c[0] += (j ? -k->d.ratio : 1) * q;
            }
        } else {
            st = sni_maxc_eval(&k->k, body_st(mx, k->d.body_a), body_st(mx, k->d.body_b), c, Ja, Jb,
                               jd);
        }
        if (st != SN_OK)
            return sni_mx_fail(m, st,
                               "sn_maximal_constraint_error: constraint %d's rows are undefined "
                               "at the current state",
                               ci);
        for (int r = 0; r < nr; r++) {
            s += c[r] * c[r];
            big = fmax(big, fabs(c[r]));
        }
        n += nr;
    }
    if (rms) *rms = n > 0 ? sqrt(s / n) : 0;
    if (worst) *worst = big;
    return SN_OK;
}

sn_real sn_maximal_kinetic_energy(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, (sn_real)NAN);
    sn_real e = 0;
    for (int i = 0; i < mx->nbody; i++) {
        const sni_mx_body* b = &mx->body[i];
        sn_real Iw[9], Iww[3];
        m3_rotate_sym(Iw, b->st.R, b->I);
        m3_mul_v3(Iww, Iw, b->st.w);
        e += 0.5 * b->mass * v3_dot(b->st.v, b->st.v) + 0.5 * v3_dot(b->st.w, Iww);
    }
    return e;
}

// the stretch of a compliant wire beyond its length at the bodies' states (0 when slack)
static sn_real wire_stretch(const sn_maximal* mx, const sni_mx_con* c) {
    return fmax(wire_dist(mx, c) - c->d.length, 0);
}

sn_real sn_maximal_potential_energy(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, (sn_real)NAN);
    sn_real e = 0;
    for (int i = 0; i < mx->nbody; i++)
        e -= mx->body[i].mass * v3_dot(mx->g, mx->body[i].st.x);
    for (int i = 0; i < mx->ncon; i++) {
        const sni_mx_con* c = &mx->con[i];
        if (!c->user && c->d.kind == SN_CONSTRAINT_WIRE && c->d.stiffness > 0) {
            sn_real s = wire_stretch(mx, c);
            e += 0.5 * c->d.stiffness * s * s;
        }
    }
    return e;
}

void sn_maximal_momentum(const sn_maximal* mx, sn_real linear[3], sn_real angular[3]) {
    SNI_REFUSE_NULL_VOID(mx);
    sn_real p[3] = {0, 0, 0}, l[3] = {0, 0, 0};
    for (int i = 0; mx && i < mx->nbody; i++) {
        const sni_mx_body* b = &mx->body[i];
        sn_real mv[3], Iw[9], Iww[3];
        v3_scale(mv, b->st.v, b->mass);
        v3_add(p, p, mv);
        v3_addcross(l, b->st.x, mv);
        m3_rotate_sym(Iw, b->st.R, b->I);
        m3_mul_v3(Iww, Iw, b->st.w);
        v3_add(l, l, Iww);
    }
    if (linear) v3_copy(linear, p);
    if (angular) v3_copy(angular, l);
}
