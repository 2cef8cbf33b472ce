// SPDX-License-Identifier: Apache-2.0
// rows.c: the rows of the world constraints in a step: each side's link frame as the kernel's
// body, the kernel's slices times the link's Jacobians (the rows on the systems' DOFs), their
// responses Y = M~^-1 J^T through the systems' own loops, the Delassus matrix G of all rows and
// the rows' targets (docs/constraints.md "Constraints between systems"); the impulses stored
// after the solve.
#include "base/smath.h"
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>


void sni_couple_side(const sn_system* s, int b, sni_maxc_body* kb, sn_real* jp, sn_real* jr) {
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    int nv = m->nv;
    v3_copy(kb->x, d->body_pos + 3 * (size_t)b);
    memcpy(kb->R, d->body_rot + 9 * (size_t)b, 9 * sizeof(sn_real));
    v3_set(kb->v, 0, 0, 0);
    v3_set(kb->w, 0, 0, 0);
    if (!jp) return;
    sn_point_jacobian(m, d, b, kb->x, jp, jr);
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < nv; i++) {
            kb->v[r] += jp[(size_t)r * nv + i] * d->u[i];
            kb->w[r] += jr[(size_t)r * nv + i] * d->u[i];
        }
}


// the constraint can act: its systems are in this step's solve
static int con_in_solve(sn_system* const* sys, const sni_couple_con* k) {
    return sys[k->sa]->solve.in_solver && (k->sb < 0 || sys[k->sb]->solve.in_solver);
}


int sni_couple_acts_on(const sn_world* w, const sn_system* s) {
    const sni_couple* cp = w->couple;
    if (!cp) return 0;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        if ((k->sa == s->index || k->sb == s->index) && con_in_solve(w->sys, k)) return 1;
    }
    return 0;
}


int sni_couple_begin(sni_solver* sv) {
    sni_couple* cp = sv->couple;
    if (!cp) return 0;
    cp->acting = cp->shared = 0;
    for (int i = 0; i < cp->ncon; i++)
        if (con_in_solve(sv->sys, &cp->con[i])) cp->acting = 1;
    return cp->acting;
}


void sni_couple_mark(sni_solver* sv) {
    sni_couple* cp = sv->couple;
    if (!cp || !cp->acting) return;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        if (!con_in_solve(sv->sys, k)) continue;
        sv->sys[k->sa]->solve.active = 1;
        if (k->sb >= 0) sv->sys[k->sb]->solve.active = 1;
    }
}


// the system of a row's side e (0: a, 1: b; -1: none) and its nv; a constraint between two links
// of one system has its rows on side a only
static int row_sys(const sni_couple_con* k, int e) {
    if (e == 0) return k->sa;
    return k->sb == k->sa ? -1 : k->sb;
}


static int sys_nv(const sni_solver* sv, int si) {
    return si >= 0 ? sv->sys[si]->m->nv : 0;
}


// rows of side (jp, jr) times the kernel's slice K (nrow x 6) added into J (nrow rows of nv)
static void slice_rows(const sn_real* K, int nrow, const sn_real* jp, const sn_real* jr, int nv,
                       sn_real* J, size_t stride) {
    for (int r = 0; r < nrow; r++) {
        const sn_real* kr = K + 6 * r;
        sn_real* jrow = J + stride * (size_t)r;
        for (int i = 0; i < nv; i++)
            jrow[i] += kr[0] * jp[i] + kr[1] * jp[nv + i] + kr[2] * jp[2 * (size_t)nv + i] +
                       kr[3] * jr[i] + kr[4] * jr[nv + i] + kr[5] * jr[2 * (size_t)nv + i];
    }
}


// Y = M~^-1 J^T of one row on system s (J: nv), through the system's loops
static void row_response(const sn_system* s, int body, const sn_real* J, sn_real* Y) {
    const sn_model* m = s->m;
    memcpy(Y, J, (size_t)m->nv * sizeof(sn_real));
    sni_half_solve(m, &s->step.mtilde, Y);
    if (s->loops.active) sni_loops_project_half(s, Y, 1, -2);
    (void)body;
    sni_half_solve_rest(m, &s->step.mtilde, Y);
}


// the targets' feedback per step: the loops' (sn_world_set_loop_erp)
static sn_real feedback(const sn_world* w) {
    sn_real b = 0.2 * w->loop_erp;
    return b < 0 ? 0 : b > 0.3 ? 0.3 : b;
}


// the rows' acceleration at constant joint velocities (cdd, k->nrow): the kernel's J-dot x-dot
// jd and its slices times each link's acceleration at u-dot = 0 (at d->u)
static void rows_cdd(const sni_couple_con* k, const sn_system* sa, const sn_system* sb,
                     const sni_maxc_body* A, const sni_maxc_body* B, const sn_real* jd,
                     sn_real* cdd) {
    sn_real la[3], aa[3], lb[3] = {0, 0, 0}, ab[3] = {0, 0, 0};
    sn_point_jdot_u(sa->m, sa->d, k->ba, A->x, la, aa);
    if (sb) sn_point_jdot_u(sb->m, sb->d, k->bb, B->x, lb, ab);
    for (int r = 0; r < k->nrow; r++) {
        const sn_real *ka = k->Ka + 6 * r, *kb = k->Kb + 6 * r;
        cdd[r] = jd[r] + v3_dot(ka, la) + v3_dot(ka + 3, aa);
        if (sb) cdd[r] += v3_dot(kb, lb) + v3_dot(kb + 3, ab);
    }
}


// the slices of a ball, hinge or weld with both levers to the anchors' midpoint: its impulses
// then make no moment about any point (a pair's angular momentum is kept to rounding, whatever
// the closure error); the rows differ from the gradient of c by the order of that error, which
// the targets' feedback removes
static void mid_slices(const sni_couple_con* k, const sni_maxc_body* A, const sni_maxc_body* B,
                       sn_real* Ka, sn_real* Kb) {
    sni_maxc_con km = k->k;
    sn_real pa[3], pb[3], mid[3], t[3];
    m3_mul_v3(pa, A->R, k->k.ra);
    v3_add(pa, pa, A->x);
    v3_copy(pb, k->k.rb);
    if (B) {
        m3_mul_v3(pb, B->R, k->k.rb);
        v3_add(pb, pb, B->x);
    }
    for (int e = 0; e < 3; e++)
        mid[e] = 0.5 * (pa[e] + pb[e]);
    v3_sub(t, mid, A->x);
    m3t_mul_v3(km.ra, A->R, t);
    v3_copy(km.rb, mid);
    if (B) {
        v3_sub(t, mid, B->x);
        m3t_mul_v3(km.rb, B->R, t);
    }
    sni_maxc_eval(&km, A, B, NULL, Ka, Kb, NULL);
}


// constraint i's rows this step: kinds, J on each side, Y, targets (the rows off when it cannot
// act or a wire is slack)
static void con_rows(sni_solver* sv, sn_world* w, int i) {
    sni_couple* cp = sv->couple;
    sni_couple_con* k = &cp->con[i];
    int n = k->nrow, r0 = k->row0;
    for (int r = 0; r < n; r++) {
        cp->kind[r0 + r] = SNI_COUPLE_ROW_OFF;
        cp->eps[r0 + r] = 0;
    }
    k->acted = 0;
    if (!con_in_solve(sv->sys, k)) return;
    const sn_system* sa = sv->sys[k->sa];
    const sn_system* sb = k->sb >= 0 ? sv->sys[k->sb] : NULL;
    size_t st = 3 * (size_t)cp->nvmax;
    sn_real *jpa = cp->jp, *jra = cp->jr, *jpb = cp->jp + st, *jrb = cp->jr + st;
    sni_maxc_body A, B;
    sni_couple_side(sa, k->ba, &A, jpa, jra);
    if (sb) sni_couple_side(sb, k->bb, &B, jpb, jrb);
    if (k->wire) {
        // a wire whose anchors meet has no direction: slack
        sn_real pa[3], pb[3], d[3];
        m3_mul_v3(pa, A.R, k->k.ra);
        v3_add(pa, pa, A.x);
        v3_copy(pb, k->k.rb);
        if (sb) {
            m3_mul_v3(pb, B.R, k->k.rb);
            v3_add(pb, pb, B.x);
        }
        v3_sub(d, pa, pb);
        if (v3_norm(d) < 1e-9) return;
    }
    sn_real c[SNI_MAXC_ROWS_MAX], Ka[6 * SNI_MAXC_ROWS_MAX], Kb[6 * SNI_MAXC_ROWS_MAX];
    sn_real jd[SNI_MAXC_ROWS_MAX];
    if (sni_maxc_eval(&k->k, &A, sb ? &B : NULL, c, Ka, Kb, jd) != SN_OK) return;
    if (k->k.kind == SNI_MAXC_BALL || k->k.kind == SNI_MAXC_HINGE || k->k.kind == SNI_MAXC_WELD)
        mid_slices(k, &A, sb ? &B : NULL, Ka, Kb);
    memcpy(k->Ka, Ka, 6 * (size_t)n * sizeof(sn_real));
    memcpy(k->Kb, Kb, 6 * (size_t)n * sizeof(sn_real));
    // the rows' acceleration at constant joint velocities: the kernel's J-dot x-dot and its
    // slices times each link's acceleration at u-dot = 0, so that the positions the step
    // integrates meet the target to second order
    sn_real* cdd = cp->cdd + r0;
    rows_cdd(k, sa, sb, &A, &B, jd, cdd);
    sn_real dt = sv->dt, beta = feedback(w);
    if (k->wire == 2) {
        // compliant: an implicit spring-damper beyond the length, G + eps on the diagonal
        if (!(c[0] > 0)) return;
        sn_real ks = k->d.stiffness, bs = k->d.damping;
        cp->eps[r0] = 1 / (dt * dt * ks + dt * bs);
        cp->target[r0] = -ks * c[0] / (dt * ks + bs);
    } else {
        for (int r = 0; r < n; r++) {
            // a slack rigid wire: the gap may close within the step, no further
            sn_real fb = k->wire && c[r] < 0 ? 1 : beta;
            cp->target[r0 + r] = -fb * c[r] / dt - 0.5 * dt * cdd[r];
        }
    }
    int kind = k->wire ? SNI_COUPLE_ROW_WIRE : SNI_COUPLE_ROW_EQ;
    int sbr = row_sys(k, 1), nva = sa->m->nv, nvb = sys_nv(sv, sbr);
    for (int r = 0; r < n; r++) {
        sn_real* J = cp->rowbuf + cp->roff[r0 + r];
        memset(J, 0, 2 * (size_t)(nva + nvb) * sizeof(sn_real));
        cp->kind[r0 + r] = kind;
    }
    sn_real* J0 = cp->rowbuf + cp->roff[r0];
    size_t stride = cp->roff[r0 + 1] - cp->roff[r0]; // every row of a constraint alike
    slice_rows(Ka, n, jpa, jra, nva, J0, stride);
    if (sb && sbr < 0) slice_rows(Kb, n, jpb, jrb, nva, J0, stride); // both on system a
    if (sbr >= 0) slice_rows(Kb, n, jpb, jrb, nvb, J0 + nva, stride);
    for (int r = 0; r < n; r++) {
        sn_real* J = cp->rowbuf + cp->roff[r0 + r];
        row_response(sa, k->ba, J, J + nva + nvb);
        if (sbr >= 0) row_response(sb, k->bb, J + nva, J + 2 * nva + nvb);
    }
    k->acted = 1;
}


// G_rs = sum over the systems rows r and s share of J_r Y_s
static sn_real coupling(const sni_solver* sv, const sni_couple_con* kr, int r,
                        const sni_couple_con* ks, int s) {
    const sni_couple* cp = sv->couple;
    const sn_real* Rr = cp->rowbuf + cp->roff[r];
    const sn_real* Rs = cp->rowbuf + cp->roff[s];
    int nra = sys_nv(sv, row_sys(kr, 0)), nrb = sys_nv(sv, row_sys(kr, 1));
    int nsa = sys_nv(sv, row_sys(ks, 0)), nsb = sys_nv(sv, row_sys(ks, 1));
    sn_real g = 0;
    for (int e = 0; e < 2; e++) {
        int si = row_sys(kr, e);
        if (si < 0) continue;
        const sn_real* J = Rr + (e ? nra : 0);
        int f = row_sys(ks, 0) == si ? 0 : row_sys(ks, 1) == si ? 1 : -1;
        if (f < 0) continue;
        const sn_real* Y = Rs + nsa + nsb + (f ? nsa : 0);
        int nv = e ? nrb : nra;
        for (int i = 0; i < nv; i++)
            g += J[i] * Y[i];
    }
    return g;
}


// whether two constraints' rows act on a common system
static int share(const sni_couple_con* a, const sni_couple_con* b) {
    for (int e = 0; e < 2; e++) {
        int s = row_sys(a, e);
        if (s >= 0 && (s == row_sys(b, 0) || s == row_sys(b, 1))) return 1;
    }
    return 0;
}


void sni_couple_prepare(sni_solver* sv) {
    sni_couple* cp = sv->couple;
    if (!cp || !cp->acting) return;
    // the world holds the solver: its loop feedback
    sn_world* w = sv->sys[0]->world;
    for (int i = 0; i < cp->ncon; i++)
        con_rows(sv, w, i);
    int n = cp->nrow;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* ki = &cp->con[i];
        for (int r = ki->row0; r < ki->row0 + ki->nrow; r++) {
            cp->lam[r] = cp->plam[r] = 0;
            if (cp->kind[r] == SNI_COUPLE_ROW_OFF) continue;
            for (int j = i; j < cp->ncon; j++) {
                const sni_couple_con* kj = &cp->con[j];
                // constraints on no common system: their block of G stays 0
                if (!share(ki, kj)) continue;
                for (int s = j == i ? r : kj->row0; s < kj->row0 + kj->nrow; s++) {
                    if (cp->kind[s] == SNI_COUPLE_ROW_OFF) continue;
                    sn_real g = coupling(sv, ki, r, kj, s);
                    cp->G[(size_t)r * n + s] = cp->G[(size_t)s * n + r] = g;
                }
            }
        }
    }
    for (int r = 0; r < n; r++)
        cp->act[r] = cp->kind[r] == SNI_COUPLE_ROW_EQ;
    cp->fna = -1; // G is new: no factor of it yet
    cp->shared = 0;
    for (int b = 0; b < sv->nblock && !cp->shared; b++)
        for (int i = 0; i < cp->ncon; i++) {
            const sni_couple_con* k = &cp->con[i];
            int sa = sv->blk_sa[b], sb = sv->blk_sb[b];
            if (k->acted &&
                (sa == k->sa || sa == k->sb || (sb >= 0 && (sb == k->sa || sb == k->sb))))
                cp->shared = 1;
        }
    // a wire starts from its state of the last step: taut or slack
    for (int i = 0; i < cp->ncon; i++)
        if (cp->con[i].wire && cp->kind[cp->con[i].row0] != SNI_COUPLE_ROW_OFF)
            cp->act[cp->con[i].row0] = cp->con[i].taut;
}


// J^T lambda of the world constraints' rows on system si, added into dv
void sni_couple_add_jt_lambda(const sni_solver* sv, int si, sn_real* dv) {
    const sni_couple* cp = sv->couple;
    if (!cp || !cp->acting) return;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        int nva = sys_nv(sv, row_sys(k, 0));
        for (int e = 0; e < 2; e++) {
            if (row_sys(k, e) != si) continue;
            int nv = sv->sys[si]->m->nv;
            for (int r = k->row0; r < k->row0 + k->nrow; r++) {
                if (cp->kind[r] == SNI_COUPLE_ROW_OFF || cp->lam[r] == 0) continue;
                const sn_real* J = cp->rowbuf + cp->roff[r] + (e ? nva : 0);
                for (int q = 0; q < nv; q++)
                    dv[q] += J[q] * cp->lam[r];
            }
        }
    }
}


void sni_couple_store(sni_solver* sv) {
    sni_couple* cp = sv->couple;
    if (!cp) return;
    for (int i = 0; i < cp->ncon; i++) {
        sni_couple_con* k = &cp->con[i];
        int on = cp->acting && k->acted;
        for (int r = 0; r < k->nrow; r++)
            k->lambda[r] = on ? cp->lam[k->row0 + r] : 0;
        k->taut = on && k->wire && cp->act[k->row0] && cp->lam[k->row0] != 0;
        if (!on) k->acted = 0;
        // the force and torque on a: the slice's transpose times the impulses, over dt
        for (int e = 0; e < 6; e++) {
            sn_real f = 0, g = 0;
            for (int r = 0; r < k->nrow; r++) {
                f += k->Ka[6 * r + e] * k->lambda[r];
                g += k->Kb[6 * r + e] * k->lambda[r];
            }
            k->wrench[e] = on ? f / sv->dt : 0;
            k->wrench_b[e] = on && k->sb >= 0 ? g / sv->dt : 0;
        }
    }
}


int sni_couple_blame(sn_world* w, char* msg, size_t n) {
    static const char* kind_name[] = {"BALL",   "DISTANCE", "PLANE", "LINE", "HINGE",
                                      "SLIDER", "WELD",     "GEAR",  "WIRE"};
    sni_couple* cp = w->couple;
    int found = 0;
    if (n) msg[0] = 0;
    for (int i = 0; cp && i < cp->ncon; i++) {
        sni_couple_con* k = &cp->con[i];
        int bad = 0;
        for (int r = 0; r < k->nrow; r++)
            bad |= !isfinite(k->lambda[r]);
        for (int e = 0; e < 6; e++)
            bad |= !isfinite(k->wrench[e]) || !isfinite(k->wrench_b[e]);
        if (!bad) continue;
        memset(k->lambda, 0, sizeof k->lambda);
        memset(k->wrench, 0, sizeof k->wrench);
        memset(k->wrench_b, 0, sizeof k->wrench_b);
        k->taut = 0;
        if (found++) continue;
        int kind = (int)k->d.kind;
        const char* kn = kind >= 0 && kind <= SN_CONSTRAINT_WIRE ? kind_name[kind] : "?";
        if (k->sb >= 0)
            snprintf(msg, n,
                     "world constraint %d (%s between system %d body %d and system %d "
                     "body %d)",
                     i, kn, k->sa, k->ba, k->sb, k->bb);
        else
            snprintf(msg, n, "world constraint %d (%s between system %d body %d and the world)", i,
                     kn, k->sa, k->ba);
    }
    return found > 0;
}


int sni_couple_acting(const sn_world* w) {
    return w->couple && w->couple->acting;
}


// a force f (3) and torque t about point x, as a body wrench about the world origin into out
static void add_wrench(sn_real* out, const sn_real* x, const sn_real* f, const sn_real* t) {
    sn_real m[3];
    v3_cross(m, x, f);
    for (int e = 0; e < 3; e++) {
        out[e] += m[e] + t[e];
        out[3 + e] += f[e];
    }
}


void sni_couple_wrenches(sn_system* s) {
    const sni_couple* cp = s->world->couple;
    if (!cp || !cp->acting) return;
    const sn_data* d = s->d;
    for (int i = 0; i < cp->ncon; i++) {
        const sni_couple_con* k = &cp->con[i];
        if (!k->acted) continue;
        if (k->sa == s->index) {
            add_wrench(s->ctl.ext_body + 6 * (size_t)k->ba, d->body_pos + 3 * (size_t)k->ba,
                       k->wrench, k->wrench + 3);
            s->ctl.has_ext = 1;
        }
        if (k->sb == s->index) {
            add_wrench(s->ctl.ext_body + 6 * (size_t)k->bb, d->body_pos + 3 * (size_t)k->bb,
                       k->wrench_b, k->wrench_b + 3);
            s->ctl.has_ext = 1;
        }
    }
}


int sni_couple_touches(const sn_world* w, const sn_system* s) {
    const sni_couple* cp = w->couple;
    for (int i = 0; cp && i < cp->ncon; i++)
        if (cp->con[i].sa == s->index || cp->con[i].sb == s->index) return 1;
    return 0;
}


void sni_couple_forget(sn_system* s) {
    sni_couple* cp = s->world->couple;
    for (int i = 0; cp && i < cp->ncon; i++) {
        sni_couple_con* k = &cp->con[i];
        if (k->sa != s->index && k->sb != s->index) continue;
        memset(k->lambda, 0, sizeof k->lambda);
        k->taut = 0;
    }
}


// the constrained systems' velocities set to the sweep velocities (to 1) or back (to 0), with
// their velocity kinematics
static void swap_velocities(sni_solver* sv, int to) {
    sni_couple* cp = sv->couple;
    for (int si = 0; si < cp->nuoff; si++) {
        if (cp->uoff[si] == SIZE_MAX) continue;
        sn_system* s = sv->sys[si];
        if (!s->solve.active) continue;
        sn_real* keep = cp->usave + cp->uoff[si];
        size_t n = (size_t)s->m->nv * sizeof(sn_real);
        if (to) {
            memcpy(keep, s->d->u, n);
            memcpy(s->d->u, s->solve.v, n);
        } else {
            memcpy(s->d->u, keep, n);
        }
        sn_fk_vel(s->m, s->d);
    }
}


int sni_couple_refine(sni_solver* sv) {
    sni_couple* cp = sv->couple;
    if (!cp || !cp->acting) return 0;
    swap_velocities(sv, 1);
    sn_real dt = sv->dt;
    for (int i = 0; i < cp->ncon; i++) {
        sni_couple_con* k = &cp->con[i];
        if (!k->acted || k->wire == 2) continue;
        const sn_system* sa = sv->sys[k->sa];
        const sn_system* sb = k->sb >= 0 ? sv->sys[k->sb] : NULL;
        sni_maxc_body A, B;
        size_t st = 3 * (size_t)cp->nvmax;
        sni_couple_side(sa, k->ba, &A, cp->jp, cp->jr);
        if (sb) sni_couple_side(sb, k->bb, &B, cp->jp + st, cp->jr + st);
        sn_real jd[SNI_MAXC_ROWS_MAX], cdd[SNI_MAXC_ROWS_MAX];
        if (sni_maxc_eval(&k->k, &A, sb ? &B : NULL, NULL, NULL, NULL, jd) != SN_OK) continue;
        rows_cdd(k, sa, sb, &A, &B, jd, cdd);
        for (int r = 0; r < k->nrow; r++) {
            int q = k->row0 + r;
            cp->target[q] += 0.5 * dt * (cp->cdd[q] - cdd[r]);
            cp->cdd[q] = cdd[r];
        }
    }
    swap_velocities(sv, 0);
    return 1;
}
