// SPDX-License-Identifier: Apache-2.0
// constraints.c: the built-in constraints of maximal coordinates (docs/constraints.md): c, the
// Jacobian slices and J-dot x-dot, each row from one of three hand-derived forms: a direction
// row (c = e . d, d = p_a - p_b, e fixed in the world or on b), a distance row (c = |d| - L) and
// an angular row (c = u . t, u an axis of a's frame, t one of b's).
#include "maxc/constraints.h"

#include "base/smath.h"

#include <math.h>
#include <string.h>

static const int g_rows[SNI_MAXC_KIND_COUNT] = {3, 1, 1, 2, 5, 5, 6};

int sni_maxc_rows(sni_maxc_kind kind) {
    if ((int)kind < 0 || kind >= SNI_MAXC_KIND_COUNT) return 0;
    return g_rows[kind];
}

// one side of the constraint in the world: lever s = R r, anchor p = x + s, its velocity
// p-dot = v + w x s, the velocity-product part of its acceleration beta = w x (w x s), the
// frame's axes f[i] = R Q e_i
typedef struct side {
    const sni_maxc_body* body;
    sn_real s[3], p[3], pdot[3], beta[3], f[3][3];
} side;

static void side_make(side* sd, const sni_maxc_body* b, const sn_real* r, const sn_real* Q) {
    sd->body = b;
    m3_mul_v3(sd->s, b->R, r);
    v3_add(sd->p, b->x, sd->s);
    v3_cross(sd->pdot, b->w, sd->s);
    v3_add(sd->pdot, sd->pdot, b->v);
    sn_real ws[3];
    v3_cross(ws, b->w, sd->s);
    v3_cross(sd->beta, b->w, ws);
    sn_real F[9];
    m3_mul(F, b->R, Q);
    for (int i = 0; i < 3; i++)
        v3_set(sd->f[i], F[i], F[3 + i], F[6 + i]);
}

// the outputs of one evaluation, filled row by row
typedef struct rows {
    int n;
    sn_real c[SNI_MAXC_ROWS_MAX], Ja[SNI_MAXC_ROWS_MAX * 6], Jb[SNI_MAXC_ROWS_MAX * 6],
        jdot[SNI_MAXC_ROWS_MAX];
} rows;

static void row_put(rows* o, sn_real c, const sn_real* ja_v, const sn_real* ja_w,
                    const sn_real* jb_v, const sn_real* jb_w, sn_real jdot) {
    int i = o->n++;
    o->c[i] = c;
    v3_copy(o->Ja + 6 * i, ja_v);
    v3_copy(o->Ja + 6 * i + 3, ja_w);
    v3_copy(o->Jb + 6 * i, jb_v);
    v3_copy(o->Jb + 6 * i + 3, jb_w);
    o->jdot[i] = jdot;
}

// c = e . d with d = p_a - p_b; e a unit direction in the world, fixed on b when on_b (it then
// turns with w_b), else fixed in the world.
//   c-dot = e . (d-dot) + on_b (w_b x e) . d
//   J_a = [e, s_a x e], J_b = [-e, -(s_b x e) + on_b (e x d)]
//   J-dot x-dot = e . (beta_a - beta_b) + on_b [(w_b x (w_b x e)) . d + 2 (w_b x e) . d-dot]
static void row_direction(rows* o, const side* a, const side* b, const sn_real* e, int on_b) {
    sn_real d[3], dd[3], jaw[3], jbv[3], jbw[3], db[3];
    v3_sub(d, a->p, b->p);
    v3_sub(dd, a->pdot, b->pdot);
    v3_cross(jaw, a->s, e);
    v3_scale(jbv, e, -1);
    v3_cross(jbw, e, b->s); // -(s_b x e)
    v3_sub(db, a->beta, b->beta);
    sn_real jdot = v3_dot(e, db);
    if (on_b) {
        const sn_real* wb = b->body->w;
        sn_real we[3], wwe[3];
        v3_addcross(jbw, e, d);
        v3_cross(we, wb, e);
        v3_cross(wwe, wb, we);
        jdot += v3_dot(wwe, d) + 2 * v3_dot(we, dd);
    }
    row_put(o, v3_dot(e, d), e, jaw, jbv, jbw, jdot);
}

// c = |d| - L, n = d / |d|:
//   c-dot = n . d-dot; J_a = [n, s_a x n], J_b = [-n, -(s_b x n)]
//   J-dot x-dot = (|d-dot|^2 - (n . d-dot)^2) / |d| + n . (beta_a - beta_b)
static void row_distance(rows* o, const side* a, const side* b, sn_real len) {
    sn_real d[3], dd[3], n[3], jaw[3], jbv[3], jbw[3], db[3];
    v3_sub(d, a->p, b->p);
    v3_sub(dd, a->pdot, b->pdot);
    sn_real r = v3_norm(d);
    v3_scale(n, d, 1 / r);
    v3_cross(jaw, a->s, n);
    v3_scale(jbv, n, -1);
    v3_cross(jbw, n, b->s);
    v3_sub(db, a->beta, b->beta);
    sn_real nd = v3_dot(n, dd);
    sn_real jdot = (v3_dot(dd, dd) - nd * nd) / r + v3_dot(n, db);
    row_put(o, r - len, n, jaw, jbv, jbw, jdot);
}

// c = u . t, u = a's axis i, t = b's axis j (both unit, turning with their bodies):
//   c-dot = (u x t) . (w_a - w_b); J_a = [0, u x t], J_b = [0, -(u x t)]
//   J-dot x-dot = ((w_a x u) x t + u x (w_b x t)) . (w_a - w_b)
static void row_angular(rows* o, const side* a, const side* b, int i, int j) {
    static const sn_real zero[3] = {0, 0, 0};
    const sn_real *u = a->f[i], *t = b->f[j];
    const sn_real *wa = a->body->w, *wb = b->body->w;
    sn_real ut[3], mut[3], wu[3], wt[3], k[3], dw[3];
    v3_cross(ut, u, t);
    v3_scale(mut, ut, -1);
    v3_cross(wu, wa, u);
    v3_cross(wt, wb, t);
    v3_cross(k, wu, t);
    v3_addcross(k, u, wt);
    v3_sub(dw, wa, wb);
    row_put(o, v3_dot(u, t), zero, ut, zero, mut, v3_dot(k, dw));
}

static void rows_ball(rows* o, const side* a, const side* b) {
    static const sn_real ex[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++)
        row_direction(o, a, b, ex[i], 0);
}

// the orientation rows of a weld: c = (f_a2 . f_b3, f_a3 . f_b1, f_a1 . f_b2), zero when the
// frames are aligned, with Jacobians near (f1, f2, f3) there
static void rows_align(rows* o, const side* a, const side* b) {
    row_angular(o, a, b, 1, 2);
    row_angular(o, a, b, 2, 0);
    row_angular(o, a, b, 0, 1);
}

static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

static int body_finite(const sni_maxc_body* b) {
    return finite_n(b->x, 3) && finite_n(b->R, 9) && finite_n(b->v, 3) && finite_n(b->w, 3);
}

sn_status sni_maxc_eval(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                        sn_real* c, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    if (!k || !a || sni_maxc_rows(k->kind) == 0) return SN_ERR_ARG;
    if (!body_finite(a) || (b && !body_finite(b))) return SN_ERR_NONFINITE;
    sni_maxc_body world;
    if (!b) {
        memset(&world, 0, sizeof world);
        m3_identity(world.R);
        b = &world;
    }
    side sa, sb;
    side_make(&sa, a, k->ra, k->Qa);
    side_make(&sb, b, k->rb, k->Qb);
    rows o;
    o.n = 0;
    switch (k->kind) {
    case SNI_MAXC_BALL:
        rows_ball(&o, &sa, &sb);
        break;
    case SNI_MAXC_DISTANCE: {
        sn_real d[3];
        v3_sub(d, sa.p, sb.p);
        if (!(k->length > 0) || !(v3_norm(d) >= 1e-12)) return SN_ERR_ARG;
        row_distance(&o, &sa, &sb, k->length);
        break;
    }
    case SNI_MAXC_PLANE:
        row_direction(&o, &sa, &sb, sb.f[0], 1);
        break;
    case SNI_MAXC_LINE:
        row_direction(&o, &sa, &sb, sb.f[1], 1);
        row_direction(&o, &sa, &sb, sb.f[2], 1);
        break;
    case SNI_MAXC_HINGE:
        rows_ball(&o, &sa, &sb);
        row_angular(&o, &sa, &sb, 0, 1);
        row_angular(&o, &sa, &sb, 0, 2);
        break;
    case SNI_MAXC_SLIDER:
        row_direction(&o, &sa, &sb, sb.f[1], 1);
        row_direction(&o, &sa, &sb, sb.f[2], 1);
        rows_align(&o, &sa, &sb);
        break;
    case SNI_MAXC_WELD:
        rows_ball(&o, &sa, &sb);
        rows_align(&o, &sa, &sb);
        break;
    default:
        return SN_ERR_ARG;
    }
    size_t n = (size_t)o.n;
    if (c) memcpy(c, o.c, n * sizeof(sn_real));
    if (Ja) memcpy(Ja, o.Ja, 6 * n * sizeof(sn_real));
    if (Jb) memcpy(Jb, o.Jb, 6 * n * sizeof(sn_real));
    if (jdot) memcpy(jdot, o.jdot, n * sizeof(sn_real));
    return SN_OK;
}
