// SPDX-License-Identifier: Apache-2.0
// step.c: an sn_maximal's step (seed 003; docs/constraints.md "A system in maximal
// coordinates"): the rows of all constraints at the stage states, J M^-1 J^T lambda = -J-dot
// x-dot - J M^-1 (Phi + Phi_p) - 2 alpha c-dot - beta^2 c by a pivoted Cholesky factor (rows that
// the others make redundant are left out), the wires' active set, and the schemes (semi-implicit
// Euler, RK4 on quaternions). No allocation: the workspace is sized in system.c.
#include "base/smath.h"
#include "maxc/maxc.h"

#include <math.h>
#include <string.h>

// a pivot below this share of the largest diagonal of J M^-1 J^T is a redundant row
#define PIVOT_REL 1e-10
// a redundant row's equation may miss by this much relative to 1 + max |rhs| (else: conflicting)
#define CONFLICT_REL 1e-4
// the profile factor's smallest pivot, relative to the largest diagonal (below: the pivoted one)
#define PROFILE_REL 1e-8
// a taut wire stays a candidate while slack by less than this share of its length (its
// multiplier then decides: released when it would push)
#define WIRE_SLACK_REL 1e-3

static int is_wire(const sni_mx_con* c) {
    return !c->user && c->d.kind == SN_CONSTRAINT_WIRE;
}

// a slice of row r at body b (-1: the world, nothing)
static void slice_add(sni_mx_row* r, int b, const sn_real* J, sn_real s) {
    if (b < 0) return;
    int k = 0;
    while (k < r->nb && r->body[k] != b)
        k++;
    if (k == r->nb) {
        r->body[r->nb++] = b;
        memset(r->J[k], 0, sizeof r->J[k]);
    }
    for (int j = 0; j < 6; j++)
        r->J[k][j] += s * J[j];
}

static sni_mx_row* row_new(sn_maximal* mx, int con) {
    sni_mx_row* r = &mx->row[mx->nact++];
    r->con = con;
    r->nb = 0;
    r->lam = 0;
    return r;
}

// the distance between a wire's anchors at the stage states
static sn_real wire_length(const sn_maximal* mx, const sni_mx_con* k) {
    const sni_maxc_body* a = &mx->sb[k->d.body_a];
    const sni_maxc_body* b = sni_mx_sb(mx, k->d.body_b);
    sn_real pa[3], pb[3], d[3];
    m3_mul_v3(pa, a->R, k->d.anchor_a);
    v3_add(pa, pa, a->x);
    if (b) {
        m3_mul_v3(pb, b->R, k->d.anchor_b);
        v3_add(pb, pb, b->x);
    } else {
        v3_copy(pb, k->d.anchor_b);
    }
    v3_sub(d, pa, pb);
    return v3_norm(d);
}


// n rows of constraint ci between bodies a and b (-1: the world): c, the slices Ja, Jb (n x 6)
// and J-dot x-dot
static void rows_put(sn_maximal* mx, int ci, int a, int b, int n, const sn_real* c,
                     const sn_real* Ja, const sn_real* Jb, const sn_real* jd) {
    for (int i = 0; i < n; i++) {
        sni_mx_row* r = row_new(mx, ci);
        slice_add(r, a, Ja + 6 * i, 1);
        slice_add(r, b, Jb + 6 * i, 1);
        r->c = c[i];
        r->jdot = jd[i];
    }
}
static sn_status rows_builtin(sn_maximal* mx, int ci, int mode) {
    sni_mx_con* k = &mx->con[ci];
    if (is_wire(k) && (k->d.stiffness > 0 || mode == 0)) return SN_OK; // no row
    if (is_wire(k) && wire_length(mx, k) < (1 - WIRE_SLACK_REL) * k->d.length)
        return SN_OK; // clearly slack (its ends may even coincide: no direction)
    sn_real c[SNI_MAXC_ROWS_MAX], Ja[6 * SNI_MAXC_ROWS_MAX], Jb[6 * SNI_MAXC_ROWS_MAX],
        jd[SNI_MAXC_ROWS_MAX];
    sn_status st =
        sni_maxc_eval(&k->k, sni_mx_sb(mx, k->d.body_a), sni_mx_sb(mx, k->d.body_b), c, Ja, Jb, jd);
    if (st != SN_OK)
        return sni_mx_fail(mx, st, "constraint %d: its rows are undefined at this state (%s)", ci,
                           st == SN_ERR_NONFINITE ? "a body's state is not finite"
                                                  : "coinciding anchors of a distance or wire");
    if (is_wire(k)) {
        int cand = mode == 2 || c[0] >= 0 || (k->taut && c[0] > -WIRE_SLACK_REL * k->d.length);
        if (mode == 3) cand = c[0] > 0;
        if (mode == 4) cand = k->proj;
        if (!cand || (mode == 1 && k->off)) return SN_OK;
    }
    rows_put(mx, ci, k->d.body_a, k->d.body_b, k->nrow, c, Ja, Jb, jd);
    return SN_OK;
}

static sn_status rows_gear(sn_maximal* mx, int ci) {
    sni_mx_con* g = &mx->con[ci];
    sni_mx_row* r = row_new(mx, ci);
    r->c = -g->d.offset;
    r->jdot = 0;
    for (int s = 0; s < 2; s++) {
        const sni_mx_con* j = &mx->con[s ? g->d.joint_b : g->d.joint_a];
        sn_real q, Ja[6], Jb[6], jd, f = s ? -g->d.ratio : 1;
        sn_status st = sni_mx_coord(&j->k, sni_mx_sb(mx, j->d.body_a), sni_mx_sb(mx, j->d.body_b),
                                    g->gq[s], &q, Ja, Jb, &jd);
        if (st != SN_OK)
            return sni_mx_fail(mx, st,
                               "constraint %d (GEAR): the coordinate of constraint %d is "
                               "undefined at this state",
                               ci, s ? g->d.joint_b : g->d.joint_a);
        slice_add(r, j->d.body_a, Ja, f);
        slice_add(r, j->d.body_b, Jb, f);
        r->c += f * q;
        r->jdot += f * jd;
    }
    return SN_OK;
}

static sn_status rows_user(sn_maximal* mx, int ci) {
    sni_mx_con* k = &mx->con[ci];
    sn_real c[SNI_MAXC_ROWS_MAX], Ja[6 * SNI_MAXC_ROWS_MAX], Jb[6 * SNI_MAXC_ROWS_MAX],
        jd[SNI_MAXC_ROWS_MAX];
    sn_status st = sni_mx_user_eval(mx, k, c, Ja, Jb, jd);
    if (st != SN_OK) return st;
    rows_put(mx, ci, k->uc.body_a, k->uc.body_b, k->nrow, c, Ja, Jb, jd);
    return SN_OK;
}

sn_status sni_mx_rows(sn_maximal* mx, int mode) {
    mx->nact = 0;
    for (int ci = 0; ci < mx->ncon; ci++) {
        const sni_mx_con* k = &mx->con[ci];
        sn_status st;
        if (k->user)
            st = rows_user(mx, ci);
        else if (k->d.kind == SN_CONSTRAINT_GEAR)
            st = rows_gear(mx, ci);
        else
            st = rows_builtin(mx, ci, mode);
        if (st != SN_OK) return st;
    }
    for (int i = 0; i < mx->nact; i++) {
        sni_mx_row* r = &mx->row[i];
        r->cdot = 0;
        for (int k = 0; k < r->nb; k++) {
            const sni_maxc_body* b = &mx->sb[r->body[k]];
            r->cdot += v3_dot(r->J[k], b->v) + v3_dot(r->J[k] + 3, b->w);
        }
    }
    return SN_OK;
}

// per body: R I R^T, its inverse, Phi + Phi_p (with the compliant wires' forces), M^-1 of it
static void body_terms(sn_maximal* mx) {
    for (int i = 0; i < mx->nbody; i++) {
        const sni_mx_body* b = &mx->body[i];
        const sni_maxc_body* s = &mx->sb[i];
        sni_mx_bw* w = &mx->bw[i];
        m3_rotate_sym(w->Iw, s->R, b->I);
        m3_rotate_sym(w->Iwinv, s->R, b->Iinv);
        for (int j = 0; j < 3; j++)
            w->phi[j] = b->mass * mx->g[j] + b->F[j];
        sn_real Iww[3];
        m3_mul_v3(Iww, w->Iw, s->w);
        v3_copy(w->phi + 3, b->tau);
        sn_real p[3];
        v3_cross(p, s->w, Iww);
        v3_sub(w->phi + 3, w->phi + 3, p);
    }
}

// a compliant wire's tension T = k (|d| - L) + c n . d-dot beyond its length (>= 0: it never
// pushes), applied at the anchors: -T n on a, T n on b. Its report: lambda = -T.
static void wire_force(sn_maximal* mx, sni_mx_con* k, int report) {
    const sni_maxc_body* a = &mx->sb[k->d.body_a];
    const sni_maxc_body* b = sni_mx_sb(mx, k->d.body_b);
    sn_real sa[3], pa[3], va[3], sb[3] = {0, 0, 0}, pb[3], vb[3] = {0, 0, 0}, d[3], dd[3];
    m3_mul_v3(sa, a->R, k->d.anchor_a);
    v3_add(pa, a->x, sa);
    v3_cross(va, a->w, sa);
    v3_add(va, va, a->v);
    if (b) {
        m3_mul_v3(sb, b->R, k->d.anchor_b);
        v3_add(pb, b->x, sb);
        v3_cross(vb, b->w, sb);
        v3_add(vb, vb, b->v);
    } else {
        v3_copy(pb, k->d.anchor_b);
    }
    v3_sub(d, pa, pb);
    v3_sub(dd, va, vb);
    sn_real r = v3_norm(d), T = 0;
    sn_real n[3] = {0, 0, 0};
    if (r > k->d.length && r > 0) {
        v3_scale(n, d, 1 / r);
        T = fmax(k->d.stiffness * (r - k->d.length) + k->d.damping * v3_dot(n, dd), 0);
    }
    sn_real f[3], t[3];
    v3_scale(f, n, -T);
    v3_cross(t, sa, f);
    sni_mx_bw* wa = &mx->bw[k->d.body_a];
    v3_add(wa->phi, wa->phi, f);
    v3_add(wa->phi + 3, wa->phi + 3, t);
    if (b) {
        sni_mx_bw* wb = &mx->bw[k->d.body_b];
        v3_sub(wb->phi, wb->phi, f);
        sn_real tb[3];
        v3_cross(tb, sb, f);
        v3_sub(wb->phi + 3, wb->phi + 3, tb);
    }
    if (report) {
        memset(k->lam_new, 0, sizeof k->lam_new);
        k->lam_new[0] = -T;
        v3_copy(k->force_new, f);
        v3_copy(k->torque_new, t);
        k->act_new = T > 0;
    }
}

// W = M^-1 J^T per slice
static void slices_W(sn_maximal* mx) {
    for (int i = 0; i < mx->nact; i++) {
        sni_mx_row* r = &mx->row[i];
        for (int k = 0; k < r->nb; k++) {
            const sni_mx_body* b = &mx->body[r->body[k]];
            v3_scale(r->W[k], r->J[k], 1 / b->mass);
            m3_mul_v3(r->W[k] + 3, mx->bw[r->body[k]].Iwinv, r->J[k] + 3);
        }
    }
}

// per body its rows (ascending), and per row the first column of A's profile: the first row
// that shares a body with it
static void profile(sn_maximal* mx) {
    int n = mx->nact, nb = mx->nbody;
    int *st = mx->adj_start, *cur = mx->adj_cur;
    memset(st, 0, (size_t)(nb + 1) * sizeof *st);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < mx->row[i].nb; k++)
            st[mx->row[i].body[k] + 1]++;
    for (int b = 0; b < nb; b++)
        st[b + 1] += st[b];
    memcpy(cur, st, (size_t)nb * sizeof *cur);
    for (int i = 0; i < n; i++) {
        const sni_mx_row* r = &mx->row[i];
        mx->env[i] = i;
        for (int k = 0; k < r->nb; k++) {
            int b = r->body[k];
            mx->adj[cur[b]++] = 4 * i + k;
            int first = mx->adj[st[b]] / 4;
            if (first < mx->env[i]) mx->env[i] = first;
        }
    }
}

// A = J M^-1 J^T within its profile (lower triangle), by bodies: every pair of rows at a body
// adds J_i W_j of their slices there; the largest diagonal in *dmax
static void build_A_profile(sn_maximal* mx, sn_real* dmax) {
    int n = mx->nact, ld = mx->cap_row;
    sn_real* A = mx->A;
    for (int i = 0; i < n; i++)
        memset(A + (size_t)i * ld + mx->env[i], 0, (size_t)(i - mx->env[i] + 1) * sizeof *A);
    for (int b = 0; b < mx->nbody; b++)
        for (int p = mx->adj_start[b]; p < mx->adj_start[b + 1]; p++) {
            int i = mx->adj[p] / 4, ki = mx->adj[p] % 4;
            for (int q = mx->adj_start[b]; q <= p; q++) {
                int j = mx->adj[q] / 4, kj = mx->adj[q] % 4;
                A[(size_t)i * ld + j] += s6_dot(mx->row[i].J[ki], mx->row[j].W[kj]);
            }
        }
    *dmax = 0;
    for (int i = 0; i < n; i++)
        *dmax = fmax(*dmax, A[(size_t)i * ld + i]);
}

// Cholesky of A within its profile (no pivoting: the fill stays in the profile); 0 if a pivot is
// not above PROFILE_REL of the largest diagonal (redundant rows: the dense pivoted factor then)
static int factor_profile(sn_maximal* mx, sn_real dmax) {
    int n = mx->nact, ld = mx->cap_row;
    sn_real* A = mx->A;
    const int* env = mx->env;
    for (int i = 0; i < n; i++) {
        sn_real* Li = A + (size_t)i * ld;
        for (int j = env[i]; j <= i; j++) {
            const sn_real* Lj = A + (size_t)j * ld;
            int k0 = env[i] > env[j] ? env[i] : env[j];
            sn_real s = Li[j];
            for (int k = k0; k < j; k++)
                s -= Li[k] * Lj[k];
            if (j < i) {
                Li[j] = s / Lj[j];
            } else {
                if (!(s > PROFILE_REL * dmax)) return 0;
                Li[i] = sqrt(s);
            }
        }
    }
    return 1;
}

// lambda from the profile factor
static void solve_profile(sn_maximal* mx) {
    int n = mx->nact, ld = mx->cap_row;
    const sn_real* A = mx->A;
    sn_real* y = mx->rhs;
    for (int i = 0; i < n; i++) {
        const sn_real* Li = A + (size_t)i * ld;
        sn_real s = mx->row[i].rhs;
        for (int k = mx->env[i]; k < i; k++)
            s -= Li[k] * y[k];
        y[i] = s / Li[i];
    }
    for (int i = n - 1; i >= 0; i--) {
        const sn_real* Li = A + (size_t)i * ld;
        y[i] /= Li[i];
        for (int k = mx->env[i]; k < i; k++)
            y[k] -= Li[k] * y[i];
    }
    for (int i = 0; i < n; i++)
        mx->row[i].lam = y[i];
    mx->rank = n;
}

// A = J M^-1 J^T over the rows' shared bodies, dense (both triangles)
static void build_A(sn_maximal* mx) {
    int n = mx->nact;
    size_t ld = (size_t)mx->cap_row;
    for (int i = 0; i < n; i++) {
        const sni_mx_row* ri = &mx->row[i];
        for (int j = 0; j <= i; j++) {
            const sni_mx_row* rj = &mx->row[j];
            sn_real s = 0;
            for (int a = 0; a < ri->nb; a++)
                for (int b = 0; b < rj->nb; b++)
                    if (ri->body[a] == rj->body[b]) s += s6_dot(ri->J[a], rj->W[b]);
            mx->A[(size_t)i * ld + j] = mx->A[(size_t)j * ld + i] = s;
        }
    }
}

// lambda (row[].lam) from A lambda = row[].rhs by Cholesky with diagonal pivoting; rows whose
// pivot falls below PIVOT_REL of the largest diagonal are left out (lambda 0); mx->rank set
static void pivoted_solve(sn_maximal* mx);
static void solve_pivoted(sn_maximal* mx) {
    int n = mx->nact;
    size_t ld = (size_t)mx->cap_row;
    sn_real* A = mx->A;
    sn_real* y = mx->rhs;
    int* p = mx->perm;
    sn_real dmax = 0;
    for (int i = 0; i < n; i++) {
        p[i] = i;
        y[i] = mx->row[i].rhs;
        dmax = fmax(dmax, A[(size_t)i * ld + i]);
    }
    sn_real tol = PIVOT_REL * dmax;
    int rank = 0;
    for (int k = 0; k < n; k++) {
        int q = k;
        for (int i = k + 1; i < n; i++)
            if (A[(size_t)i * ld + i] > A[(size_t)q * ld + q]) q = i;
        if (!(A[(size_t)q * ld + q] > tol)) break;
        if (q != k) { // symmetric exchange of k and q (rows, columns, rhs, order)
            for (int j = 0; j < n; j++) {
                sn_real t = A[(size_t)k * ld + j];
                A[(size_t)k * ld + j] = A[(size_t)q * ld + j];
                A[(size_t)q * ld + j] = t;
            }
            for (int i = 0; i < n; i++) {
                sn_real t = A[(size_t)i * ld + k];
                A[(size_t)i * ld + k] = A[(size_t)i * ld + q];
                A[(size_t)i * ld + q] = t;
            }
            sn_real t = y[k];
            y[k] = y[q];
            y[q] = t;
            int ti = p[k];
            p[k] = p[q];
            p[q] = ti;
        }
        sn_real d = sqrt(A[(size_t)k * ld + k]);
        A[(size_t)k * ld + k] = d;
        for (int i = k + 1; i < n; i++)
            A[(size_t)i * ld + k] /= d;
        for (int i = k + 1; i < n; i++) {
            sn_real l = A[(size_t)i * ld + k];
            for (int j = k + 1; j <= i; j++)
                A[(size_t)i * ld + j] -= l * A[(size_t)j * ld + k];
            for (int j = k + 1; j <= i; j++)
                A[(size_t)j * ld + i] = A[(size_t)i * ld + j];
        }
        rank = k + 1;
    }
    mx->rank = rank;
    pivoted_solve(mx);
}

// lambda from the pivoted factor of solve_pivoted (mx->A, perm, rank) for row[].rhs
static void pivoted_solve(sn_maximal* mx) {
    int n = mx->nact, rank = mx->rank;
    size_t ld = (size_t)mx->cap_row;
    const sn_real* A = mx->A;
    sn_real* y = mx->rhs;
    const int* p = mx->perm;
    for (int i = 0; i < n; i++)
        y[i] = mx->row[p[i]].rhs;
    for (int i = 0; i < rank; i++) {
        sn_real s = y[i];
        for (int k = 0; k < i; k++)
            s -= A[(size_t)i * ld + k] * y[k];
        y[i] = s / A[(size_t)i * ld + i];
    }
    for (int i = rank - 1; i >= 0; i--) {
        sn_real s = y[i];
        for (int k = i + 1; k < rank; k++)
            s -= A[(size_t)k * ld + i] * y[k];
        y[i] = s / A[(size_t)i * ld + i];
    }
    for (int i = 0; i < n; i++)
        mx->row[p[i]].lam = i < rank ? y[i] : 0;
}

// lambda (row[].lam) from A lambda = row[].rhs: the profile factor (a chain's A is banded: O(n)),
// else (redundant rows) the dense pivoted one
static void solve_A(sn_maximal* mx) {
    slices_W(mx);
    if (!mx->dense_only) {
        sn_real dmax;
        profile(mx);
        build_A_profile(mx, &dmax);
        if (factor_profile(mx, dmax)) {
            solve_profile(mx);
            mx->used_dense = 0;
            return;
        }
    }
    build_A(mx);
    solve_pivoted(mx);
    mx->used_dense = 1;
}

// acc = M^-1 phi + sum of rows W lambda
static void accelerations(sn_maximal* mx) {
    for (int i = 0; i < mx->nbody; i++)
        memcpy(mx->bw[i].acc, mx->bw[i].u, sizeof mx->bw[i].acc);
    for (int i = 0; i < mx->nact; i++) {
        const sni_mx_row* r = &mx->row[i];
        for (int k = 0; k < r->nb; k++)
            s6_addscl(mx->bw[r->body[k]].acc, r->W[k], r->lam);
    }
}

static int bw_finite(const sni_mx_bw* w) {
    for (int j = 0; j < 6; j++)
        if (!isfinite(w->acc[j])) return 0;
    return 1;
}

// the rows, A, lambda and the accelerations; the wires' active set: a wire row whose multiplier
// pushes (lambda > 0) is left out and the rest solved again (at most once per wire)
static sn_status solve_rows(sn_maximal* mx) {
    for (int ci = 0; ci < mx->ncon; ci++)
        mx->con[ci].off = 0;
    for (int pass = 0;; pass++) {
        sn_status st = sni_mx_rows(mx, 1);
        if (st != SN_OK) return st;
        for (int i = 0; i < mx->nact; i++) {
            sni_mx_row* r = &mx->row[i];
            sn_real ju = 0;
            for (int k = 0; k < r->nb; k++)
                ju += s6_dot(r->J[k], mx->bw[r->body[k]].u);
            r->rhs = -r->jdot - ju - 2 * mx->alpha * r->cdot - mx->beta * mx->beta * r->c;
        }
        solve_A(mx);
        int worst = -1;
        sn_real push = 0;
        for (int i = 0; i < mx->nact; i++) {
            const sni_mx_row* r = &mx->row[i];
            if (is_wire(&mx->con[r->con]) && r->lam > push) {
                push = r->lam;
                worst = i;
            }
        }
        if (worst < 0 || pass > mx->ncon) break;
        mx->con[mx->row[worst].con].off = 1;
    }
    accelerations(mx);
    for (int i = 0; i < mx->nbody; i++)
        if (!bw_finite(&mx->bw[i]))
            return sni_mx_fail(mx, SN_ERR_NONFINITE, "body %d's acceleration is not finite", i);
    // every row's equation, the redundant ones too: J (acc - u) = rhs
    sn_real big = 0;
    for (int i = 0; i < mx->nact; i++)
        big = fmax(big, fabs(mx->row[i].rhs));
    for (int i = 0; i < mx->nact; i++) {
        const sni_mx_row* r = &mx->row[i];
        sn_real s = 0;
        for (int k = 0; k < r->nb; k++) {
            const sni_mx_bw* w = &mx->bw[r->body[k]];
            for (int j = 0; j < 6; j++)
                s += r->J[k][j] * (w->acc[j] - w->u[j]);
        }
        if (!(fabs(s - r->rhs) <= CONFLICT_REL * (1 + big)))
            return sni_mx_fail(mx, SN_ERR_SINGULAR,
                               "J M^-1 J^T is singular: constraint %d's row contradicts the "
                               "others (its equation misses by %g of %g; rank %d of %d rows)",
                               r->con, fabs(s - r->rhs), 1 + big, mx->rank, mx->nact);
    }
    return SN_OK;
}

sn_status sni_mx_accel(sn_maximal* mx) {
    body_terms(mx);
    for (int ci = 0; ci < mx->ncon; ci++) {
        sni_mx_con* k = &mx->con[ci];
        if (is_wire(k) && k->d.stiffness > 0) wire_force(mx, k, 0);
    }
    for (int i = 0; i < mx->nbody; i++) {
        sni_mx_bw* w = &mx->bw[i];
        v3_scale(w->u, w->phi, 1 / mx->body[i].mass);
        m3_mul_v3(w->u + 3, w->Iwinv, w->phi + 3);
    }
    return solve_rows(mx);
}

// the first evaluation's multipliers into the constraints' scratch reports (lam_new, force_new,
// torque_new, act_new; sn_maximal_step stores them when the step succeeds)
static void report(sn_maximal* mx) {
    for (int ci = 0; ci < mx->ncon; ci++) {
        sni_mx_con* k = &mx->con[ci];
        if (is_wire(k) && k->d.stiffness > 0) {
            wire_force(mx, k, 1);
            continue;
        }
        memset(k->lam_new, 0, sizeof k->lam_new);
        memset(k->force_new, 0, sizeof k->force_new);
        memset(k->torque_new, 0, sizeof k->torque_new);
        k->act_new = 0;
    }
    int prev = -1, sub = 0;
    for (int i = 0; i < mx->nact; i++) {
        const sni_mx_row* r = &mx->row[i];
        sni_mx_con* k = &mx->con[r->con];
        sub = r->con == prev ? sub + 1 : 0;
        prev = r->con;
        k->lam_new[sub] = r->lam;
        k->act_new = 1;
        for (int b = 0; b < r->nb; b++)
            if (r->body[b] == k->d.body_a) {
                for (int j = 0; j < 3; j++) {
                    k->force_new[j] += r->J[b][j] * r->lam;
                    k->torque_new[j] += r->J[b][3 + j] * r->lam;
                }
            }
    }
}

static void y_to_sb(sn_maximal* mx, const sni_mx_y* y) {
    for (int i = 0; i < mx->nbody; i++) {
        sni_maxc_body* s = &mx->sb[i];
        v3_copy(s->x, y[i].x);
        v3_copy(s->v, y[i].v);
        v3_copy(s->w, y[i].w);
        quat_to_m3(s->R, y[i].q);
    }
}

static void quat_normalize(sn_real* q) {
    sn_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

// q <- exp(h w) q for a world angular velocity w (left multiplication)
static void quat_advance(sn_real* q, const sn_real* w, sn_real h) {
    sn_real n = v3_norm(w), a = 0.5 * h * n;
    sn_real s = n > 0 ? sin(a) / n : 0.5 * h;
    sn_real dq[4] = {cos(a), s * w[0], s * w[1], s * w[2]}, r[4];
    quat_mul(r, dq, q);
    memcpy(q, r, sizeof r);
    quat_normalize(q);
}

// the inelastic impact of wires that became taut while moving apart: a velocity change
// M^-1 J^T mu that removes the hit wires' c-dot and leaves every bilateral row's; tension only,
// by an active set as in solve_rows: a taut wire that was not hit keeps c-dot <= 0 (target 0)
// and is left out when it already separates (c-dot < 0) or when its impulse would push (mu > 0),
// the most pushing one first, and the rest solved again (a hit wire that would push likewise)
static sn_status wire_impacts(sn_maximal* mx) {
    int any = 0;
    for (int ci = 0; ci < mx->ncon && !any; ci++)
        any = is_wire(&mx->con[ci]) && mx->con[ci].d.stiffness == 0;
    if (!any) return SN_OK; // no rigid wire: nothing to evaluate
    for (int ci = 0; ci < mx->ncon; ci++)
        mx->con[ci].off = 0;
    int solved = 0;
    for (int pass = 0;; pass++) {
        sn_status st = sni_mx_rows(mx, 1);
        if (st != SN_OK) return st;
        any = 0;
        int drop = 0;
        for (int i = 0; i < mx->nact; i++) {
            sni_mx_row* r = &mx->row[i];
            sni_mx_con* k = &mx->con[r->con];
            int hit = is_wire(k) && !k->taut && r->cdot > 0;
            if (is_wire(k) && !hit && r->cdot < 0) { // separating: not held
                k->off = 1;
                drop = 1;
            }
            r->rhs = is_wire(k) ? -r->cdot : 0;
            any |= hit;
        }
        if (!any) break; // nothing hit (or every hit wire left out)
        if (drop) continue;
        if (!solved) body_terms(mx);
        solve_A(mx);
        solved = 1;
        int worst = -1;
        sn_real push = 0;
        for (int i = 0; i < mx->nact; i++) {
            const sni_mx_row* r = &mx->row[i];
            if (is_wire(&mx->con[r->con]) && r->lam > push) {
                push = r->lam;
                worst = i;
            }
        }
        if (worst < 0 || pass > 2 * mx->ncon) break;
        mx->con[mx->row[worst].con].off = 1;
    }
    if (!any || !solved) return SN_OK;
    for (int i = 0; i < mx->nact; i++) {
        const sni_mx_row* r = &mx->row[i];
        for (int k = 0; k < r->nb; k++) {
            sni_mx_y* y = &mx->y0[r->body[k]];
            for (int j = 0; j < 3; j++) {
                y->v[j] += r->W[k][j] * r->lam;
                y->w[j] += r->W[k][3 + j] * r->lam;
            }
        }
    }
    for (int i = 0; i < mx->nact; i++) // the impacting wires are taut from here on
        if (is_wire(&mx->con[mx->row[i].con])) mx->con[mx->row[i].con].taut = 1;
    y_to_sb(mx, mx->y0);
    return SN_OK;
}

static sn_status step_semi_implicit(sn_maximal* mx) {
    sn_status st = sni_mx_accel(mx);
    if (st != SN_OK) return st;
    report(mx);
    sn_real h = mx->dt;
    for (int i = 0; i < mx->nbody; i++) {
        sni_mx_y* y = &mx->ys[i];
        *y = mx->y0[i];
        const sn_real* a = mx->bw[i].acc;
        v3_addscl(y->v, a, h);
        v3_addscl(y->w, a + 3, h);
        v3_addscl(y->x, y->v, h);
        quat_advance(y->q, y->w, h);
    }
    return SN_OK;
}

// the derivative of y at the stage states into k-weighted sum: ksum += wgt f(y); and the next
// stage's state ys = y0 + h_next f(y)
static void rk4_stage(sn_maximal* mx, sn_real wgt, sn_real h_next) {
    for (int i = 0; i < mx->nbody; i++) {
        const sni_maxc_body* s = &mx->sb[i];
        const sn_real* a = mx->bw[i].acc;
        sni_mx_y f;
        v3_copy(f.x, s->v);
        v3_copy(f.v, a);
        v3_copy(f.w, a + 3);
        // q-dot = 1/2 (0, w) q, q the stage's quaternion
        const sn_real* q = mx->ys[i].q;
        sn_real wq[4] = {0, s->w[0], s->w[1], s->w[2]};
        quat_mul(f.q, wq, q);
        for (int j = 0; j < 4; j++)
            f.q[j] *= 0.5;
        sni_mx_y* k = &mx->ksum[i];
        const sni_mx_y* y0 = &mx->y0[i];
        sni_mx_y* ys = &mx->ys[i];
        for (int j = 0; j < 3; j++) {
            k->x[j] += wgt * f.x[j];
            k->v[j] += wgt * f.v[j];
            k->w[j] += wgt * f.w[j];
            ys->x[j] = y0->x[j] + h_next * f.x[j];
            ys->v[j] = y0->v[j] + h_next * f.v[j];
            ys->w[j] = y0->w[j] + h_next * f.w[j];
        }
        for (int j = 0; j < 4; j++) {
            k->q[j] += wgt * f.q[j];
            ys->q[j] = y0->q[j] + h_next * f.q[j];
        }
        quat_normalize(ys->q);
    }
}

static sn_status step_rk4(sn_maximal* mx) {
    sn_real h = mx->dt;
    static const sn_real wgt[4] = {1, 2, 2, 1}, nxt[4] = {0.5, 0.5, 1, 0};
    memset(mx->ksum, 0, (size_t)mx->nbody * sizeof *mx->ksum);
    for (int i = 0; i < mx->nbody; i++)
        mx->ys[i] = mx->y0[i];
    for (int s = 0; s < 4; s++) {
        y_to_sb(mx, mx->ys);
        sn_status st = sni_mx_accel(mx);
        if (st != SN_OK) return st;
        if (s == 0) report(mx);
        rk4_stage(mx, wgt[s], nxt[s] * h);
    }
    for (int i = 0; i < mx->nbody; i++) {
        const sni_mx_y* k = &mx->ksum[i];
        sni_mx_y* y = &mx->ys[i];
        *y = mx->y0[i];
        v3_addscl(y->x, k->x, h / 6);
        v3_addscl(y->v, k->v, h / 6);
        v3_addscl(y->w, k->w, h / 6);
        for (int j = 0; j < 4; j++)
            y->q[j] += h / 6 * k->q[j];
        quat_normalize(y->q);
    }
    return SN_OK;
}

static int y_finite(const sni_mx_y* y) {
    const sn_real* p = y->x;
    for (int j = 0; j < 13; j++)
        if (!isfinite(p[j])) return 0;
    return 1;
}


// the rows' impulses W lambda summed per body into bw[].acc (a scratch 6-vector here)
static void sum_W(sn_maximal* mx) {
    for (int i = 0; i < mx->nbody; i++)
        memset(mx->bw[i].acc, 0, sizeof mx->bw[i].acc);
    for (int i = 0; i < mx->nact; i++) {
        const sni_mx_row* r = &mx->row[i];
        for (int k = 0; k < r->nb; k++)
            s6_addscl(mx->bw[r->body[k]].acc, r->W[k], r->lam);
    }
}

// whether this evaluation's rows are those of the factor in mx->A (their constraints in adj[0,
// n); a constraint's rows come together and a wire has one)
static int same_rows(const sn_maximal* mx, int n) {
    if (mx->nact != n) return 0;
    for (int i = 0; i < n; i++)
        if (mx->adj[i] != mx->row[i].con) return 0;
    return 1;
}

// post-stabilization (Ascher, Chin, Reich 1994; docs/constraints.md "Projection") of the new
// state mx->ys: one Gauss-Newton step of the positions onto c = 0, dx = -M^-1 J^T (J M^-1 J^T)^-1
// c (the rotation part applied on the group: q <- exp(dtheta) q), then the velocities onto
// J v = 0 the same way at the projected positions, with the positions' factor when the rows are
// the same (and for the positions RK4's last factor likewise). Rigid wires only while violated (c >
// 0; for the velocities also c-dot > 0: a wire never pushes), compliant ones not at all; gears and
// user constraints included.
static sn_status project(sn_maximal* mx) {
    // the rows of the factor in mx->A (the step's last solve), to compare (adj is scratch here)
    int n1 = mx->nact, dense1 = mx->used_dense;
    for (int i = 0; i < n1; i++)
        mx->adj[i] = mx->row[i].con;
    y_to_sb(mx, mx->ys);
    for (int ci = 0; ci < mx->ncon; ci++)
        mx->con[ci].proj = 0;
    sn_status st = sni_mx_rows(mx, 3);
    if (st != SN_OK || mx->nact == 0) return st;
    body_terms(mx);
    for (int i = 0; i < mx->nact; i++)
        mx->row[i].rhs = -mx->row[i].c;
    // RK4's last factor (its fourth stage, at y0 + h f3, O(h^2) from the new state) when the rows
    // are the same: the error as with a new factor (4.4e-16 on the double pendulum), one factor
    // saved. Semi-implicit Euler's is at the step's start, O(h) away: reusing it measured 2.3e-7
    // instead of 2.2e-11 (a Gauss-Newton step with the old J M^-1 J^T), so it refactors.
    if (mx->scheme == SN_MAXIMAL_RK4 && same_rows(mx, n1)) {
        slices_W(mx);
        if (dense1)
            pivoted_solve(mx);
        else
            solve_profile(mx);
    } else {
        solve_A(mx);
        n1 = mx->nact;
        dense1 = mx->used_dense;
        for (int i = 0; i < n1; i++)
            mx->adj[i] = mx->row[i].con;
    }
    sum_W(mx);
    for (int i = 0; i < mx->nact; i++)
        if (is_wire(&mx->con[mx->row[i].con])) mx->con[mx->row[i].con].proj = 1;
    for (int b = 0; b < mx->nbody; b++) {
        sni_mx_y* y = &mx->ys[b];
        v3_add(y->x, y->x, mx->bw[b].acc);
        quat_advance(y->q, mx->bw[b].acc + 3, 1);
    }
    y_to_sb(mx, mx->ys);
    st = sni_mx_rows(mx, 4);
    if (st != SN_OK) return st;
    int n = 0, same = 1;
    for (int i = 0; i < mx->nact; i++) { // a wire that separates is not held
        const sni_mx_row* r = &mx->row[i];
        if (is_wire(&mx->con[r->con]) && !(r->cdot > 0)) continue;
        if (n != i) mx->row[n] = *r;
        same = same && n < n1 && mx->adj[n] == r->con;
        n++;
    }
    mx->nact = n;
    same = same && n == n1;
    if (n == 0) return SN_OK;
    body_terms(mx);
    for (int i = 0; i < n; i++)
        mx->row[i].rhs = -mx->row[i].cdot;
    if (same) { // the positions' factor (J M^-1 J^T moved by O(dx) only)
        slices_W(mx);
        if (dense1)
            pivoted_solve(mx);
        else
            solve_profile(mx);
    } else {
        solve_A(mx);
    }
    sum_W(mx);
    for (int b = 0; b < mx->nbody; b++) {
        v3_add(mx->ys[b].v, mx->ys[b].v, mx->bw[b].acc);
        v3_add(mx->ys[b].w, mx->ys[b].w, mx->bw[b].acc + 3);
    }
    return SN_OK;
}

sn_status sn_maximal_step(sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    for (int i = 0; i < mx->nbody; i++) {
        const sni_mx_body* b = &mx->body[i];
        sni_mx_y* y = &mx->y0[i];
        v3_copy(y->x, b->st.x);
        memcpy(y->q, b->quat, sizeof y->q);
        v3_copy(y->v, b->st.v);
        v3_copy(y->w, b->st.w);
        mx->sb[i] = b->st;
    }
    for (int ci = 0; ci < mx->ncon; ci++)
        mx->con[ci].taut = mx->con[ci].active;
    sn_status st = wire_impacts(mx);
    if (st == SN_OK) st = mx->scheme == SN_MAXIMAL_RK4 ? step_rk4(mx) : step_semi_implicit(mx);
    for (int i = 0; st == SN_OK && i < mx->nbody; i++)
        if (!y_finite(&mx->ys[i]))
            st = sni_mx_fail(mx, SN_ERR_NONFINITE, "body %d's new state is not finite", i);
    if (st == SN_OK && mx->project) {
        st = project(mx);
        for (int i = 0; st == SN_OK && i < mx->nbody; i++)
            if (!y_finite(&mx->ys[i]))
                st = sni_mx_fail(mx, SN_ERR_NONFINITE,
                                 "body %d's state is not finite after the projection", i);
    }
    if (st == SN_OK) y_to_sb(mx, mx->ys);
    for (int ci = 0; st == SN_OK && ci < mx->ncon; ci++) { // gears: hinge angles unwrapped
        sni_mx_con* g = &mx->con[ci];
        if (g->user || g->d.kind != SN_CONSTRAINT_GEAR) continue;
        for (int s = 0; s < 2 && st == SN_OK; s++) {
            int jc = s ? g->d.joint_b : g->d.joint_a;
            const sni_mx_con* j = &mx->con[jc];
            sn_real Ja[6], Jb[6], jd;
            st = sni_mx_coord(&j->k, sni_mx_sb(mx, j->d.body_a), sni_mx_sb(mx, j->d.body_b),
                              g->gq[s], &g->gq_new[s], Ja, Jb, &jd);
            if (st != SN_OK)
                sni_mx_fail(mx, st,
                            "constraint %d (GEAR): constraint %d's coordinate is "
                            "undefined at the new state",
                            ci, jc);
        }
    }
    if (st != SN_OK) return st;
    for (int i = 0; i < mx->nbody; i++) {
        sni_mx_body* b = &mx->body[i];
        const sni_mx_y* y = &mx->ys[i];
        v3_copy(b->st.x, y->x);
        v3_copy(b->st.v, y->v);
        v3_copy(b->st.w, y->w);
        memcpy(b->quat, y->q, sizeof b->quat);
        quat_to_m3(b->st.R, b->quat);
        memset(b->F, 0, sizeof b->F);
        memset(b->tau, 0, sizeof b->tau);
    }
    for (int ci = 0; ci < mx->ncon; ci++) {
        sni_mx_con* k = &mx->con[ci];
        if (is_wire(k)) k->active = k->act_new;
        memcpy(k->lambda, k->lam_new, sizeof k->lambda);
        v3_copy(k->force, k->force_new);
        v3_copy(k->torque, k->torque_new);
        if (!k->user && k->d.kind == SN_CONSTRAINT_GEAR) memcpy(k->gq, k->gq_new, sizeof k->gq);
    }
    mx->t += mx->dt;
    return SN_OK;
}
