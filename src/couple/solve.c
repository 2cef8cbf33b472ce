// SPDX-License-Identifier: Apache-2.0
// solve.c: the exact solve of the world constraints' rows. At the sweep velocities the rows'
// velocities without their own impulses are r0 = J v - G lambda; the impulses lambda solve
// (G + E)_AA lambda_A = target_A - r0_A on the active rows A (every bilateral row, the taut
// wires; E the compliant rows' compliance), by a Cholesky factor that leaves out a row dependent
// on the rows before it (a weld whose rows other welds already hold: two planar arms holding
// one box); a wire's row leaves A when its impulse would push and enters it when the rows'
// velocity would stretch it (an exact active-set solve of the small mixed complementarity
// problem). The sweep velocities then follow the impulses' change: v += Y dl.
#include "couple/couple.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

#define PIVOT_DROP 1e-10  // a pivot below this share of its diagonal: the row depends on others
#define STRETCH_TOL 1e-12 // m/s: a slack wire's row enters the active set beyond this


static int row_sys(const sni_couple_con* k, int e) {
    if (e == 0) return k->sa;
    return k->sb == k->sa ? -1 : k->sb;
}


// the constraint a row belongs to
static const sni_couple_con* row_con(const sni_couple* cp, int r) {
    int lo = 0, hi = cp->ncon - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (cp->con[mid].row0 <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &cp->con[lo];
}


// J_r v at the sweep velocities (pseudo: the pseudo-velocities)
static sn_real row_velocity(const sni_solver* sv, int r, int pseudo) {
    const sni_couple* cp = sv->couple;
    const sni_couple_con* k = row_con(cp, r);
    const sn_real* J = cp->rowbuf + cp->roff[r];
    sn_real g = 0;
    for (int e = 0; e < 2; e++) {
        int si = row_sys(k, e);
        if (si < 0) continue;
        const sn_system* s = sv->sys[si];
        const sn_real* v = pseudo ? s->solve.pseudo : s->solve.v;
        for (int i = 0; i < s->m->nv; i++)
            g += J[i] * v[i];
        J += s->m->nv;
    }
    return g;
}


// v += Y_r dl on the row's systems (pseudo: the pseudo-velocities)
static void row_push(sni_solver* sv, int r, sn_real dl, int pseudo) {
    const sni_couple* cp = sv->couple;
    const sni_couple_con* k = row_con(cp, r);
    int nva = sv->sys[k->sa]->m->nv, sbr = row_sys(k, 1);
    int nvb = sbr >= 0 ? sv->sys[sbr]->m->nv : 0;
    const sn_real* Y = cp->rowbuf + cp->roff[r] + nva + nvb;
    for (int e = 0; e < 2; e++) {
        int si = row_sys(k, e);
        if (si < 0) continue;
        sn_system* s = sv->sys[si];
        sn_real* v = pseudo ? s->solve.pseudo : s->solve.v;
        for (int i = 0; i < s->m->nv; i++)
            v[i] += Y[i] * dl;
        Y += s->m->nv;
    }
}


void sni_couple_warm_start(sni_solver* sv) {
    sni_couple* cp = sv->couple;
    if (!cp || !cp->acting) return;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        for (int q = 0; q < k->nrow; q++) {
            int r = k->row0 + q;
            sn_real l = 0;
            if (sv->warm_start && cp->kind[r] != SNI_COUPLE_ROW_OFF &&
                (!k->wire || (cp->act[r] && k->lambda[q] < 0)))
                l = k->lambda[q];
            cp->lam[r] = l;
            cp->plam[r] = 0;
            if (l != 0) row_push(sv, r, l, 0);
        }
    }
}


// L L^T = A (na x na, stride na) leaving out a row whose pivot is below PIVOT_DROP of its
// diagonal (drop[j] 1: its column of L zero)
static void factor_drop(sn_real* L, int na, int* drop) {
    for (int j = 0; j < na; j++) {
        sn_real* lj = L + (size_t)j * na;
        sn_real diag = lj[j], d = diag;
        for (int k = 0; k < j; k++)
            d -= lj[k] * lj[k];
        drop[j] = !(d > PIVOT_DROP * diag);
        if (drop[j]) {
            for (int i = j; i < na; i++)
                L[(size_t)i * na + j] = 0;
            continue;
        }
        sn_real p = sqrt(d);
        lj[j] = p;
        for (int i = j + 1; i < na; i++) {
            sn_real* li = L + (size_t)i * na;
            sn_real s = li[j];
            for (int k = 0; k < j; k++)
                s -= li[k] * lj[k];
            li[j] = s / p;
        }
    }
}


// x <- (L L^T)^-1 x on the rows kept (a dropped row's x is 0)
static void solve_drop(const sn_real* L, int na, const int* drop, sn_real* x) {
    for (int j = 0; j < na; j++) {
        if (drop[j]) {
            x[j] = 0;
            continue;
        }
        const sn_real* lj = L + (size_t)j * na;
        sn_real s = x[j];
        for (int k = 0; k < j; k++)
            s -= lj[k] * x[k];
        x[j] = s / lj[j];
    }
    for (int j = na - 1; j >= 0; j--) {
        if (drop[j]) continue;
        sn_real s = x[j];
        for (int k = j + 1; k < na; k++)
            s -= L[(size_t)k * na + j] * x[k];
        x[j] = s / L[(size_t)j * na + j];
    }
}


// the impulses of the active rows (pseudo: target 0, no compliance) into cp->x (every row; 0
// off the active set)
static void solve_active(sni_couple* cp, int pseudo) {
    int n = cp->nrow, na = 0;
    for (int r = 0; r < n; r++) {
        cp->x[r] = 0;
        if (cp->kind[r] != SNI_COUPLE_ROW_OFF && cp->act[r] && !(pseudo && cp->eps[r] > 0))
            cp->idx[na++] = r;
    }
    // the factor of these rows' block (with the compliance when it is in it) made once
    int eps = 0;
    for (int a = 0; a < na && !pseudo; a++)
        eps |= cp->eps[cp->idx[a]] > 0;
    int same = cp->fna == na && cp->feps == eps;
    for (int a = 0; a < na && same; a++)
        same = cp->fidx[a] == cp->idx[a];
    if (!same) {
        for (int a = 0; a < na; a++) {
            int r = cp->idx[a];
            for (int b = 0; b <= a; b++)
                cp->L[(size_t)a * na + b] = cp->G[(size_t)r * n + cp->idx[b]];
            if (eps) cp->L[(size_t)a * na + a] += cp->eps[r];
        }
        factor_drop(cp->L, na, cp->drop);
        memcpy(cp->fidx, cp->idx, (size_t)na * sizeof(int));
        cp->fna = na, cp->feps = eps;
    }
    // the right side in x's first na entries (idx is increasing: x[a] is free once read)
    for (int a = 0; a < na; a++) {
        int r = cp->idx[a];
        cp->x[a] = (pseudo ? 0 : cp->target[r]) - cp->r0[r];
    }
    solve_drop(cp->L, na, cp->drop, cp->x);
    for (int a = na - 1; a >= 0; a--) {
        int r = cp->idx[a];
        sn_real v = cp->x[a];
        cp->x[a] = 0;
        cp->x[r] = v;
    }
}


// a wire's row that the solve leaves pushing leaves the active set (the most pushing first); a
// slack one that the rows' velocity would stretch enters it. 1 when the set changed
static int update_active(sni_couple* cp) {
    int n = cp->nrow, worst = -1;
    sn_real wmax = 0;
    for (int r = 0; r < n; r++)
        if (cp->kind[r] == SNI_COUPLE_ROW_WIRE && cp->act[r] && cp->x[r] > wmax)
            wmax = cp->x[r], worst = r;
    if (worst >= 0) {
        cp->act[worst] = 0;
        return 1;
    }
    sn_real smax = STRETCH_TOL;
    for (int r = 0; r < n; r++) {
        if (cp->kind[r] != SNI_COUPLE_ROW_WIRE || cp->act[r]) continue;
        sn_real u = cp->r0[r] - cp->target[r];
        for (int s = 0; s < n; s++)
            if (cp->x[s] != 0) u += cp->G[(size_t)r * n + s] * cp->x[s];
        if (u > smax) smax = u, worst = r;
    }
    if (worst >= 0) {
        cp->act[worst] = 1;
        return 1;
    }
    return 0;
}


sn_real sni_couple_exact(sni_solver* sv, int pseudo) {
    sni_couple* cp = sv->couple;
    if (!cp || !cp->acting) return 0;
    int n = cp->nrow;
    sn_real* lam = pseudo ? cp->plam : cp->lam;
    for (int r = 0; r < n; r++) {
        cp->r0[r] = 0;
        if (cp->kind[r] == SNI_COUPLE_ROW_OFF) continue;
        sn_real g = row_velocity(sv, r, pseudo);
        for (int s = 0; s < n; s++)
            if (lam[s] != 0 && cp->kind[s] != SNI_COUPLE_ROW_OFF)
                g -= cp->G[(size_t)r * n + s] * lam[s];
        cp->r0[r] = g;
    }
    for (int it = 0; it < 2 * n + 2; it++) {
        solve_active(cp, pseudo);
        if (pseudo || !update_active(cp)) break;
    }
    sn_real change = 0;
    for (int r = 0; r < n; r++) {
        if (cp->kind[r] == SNI_COUPLE_ROW_OFF) continue;
        sn_real dl = cp->x[r] - lam[r];
        if (dl == 0) continue;
        lam[r] = cp->x[r];
        change = fabs(dl) > change ? fabs(dl) : change;
        row_push(sv, r, dl, pseudo);
    }
    return cp->shared ? change : 0;
}
