// SPDX-License-Identifier: Apache-2.0
// expo.c: one Expo sub-step (spec/algorithms.md A.3-A.12). Over the sub-step everything that
// depends on (q, u) is frozen: M (CRBA, factored in the tree's sparsity), the free acceleration
// M^-1 (tau - h) (A5), the active points' Jacobian J and drift J-dot u, and their anchors. The
// contact points then follow the linear system x' = A x + a with x = (p - p0, p') (A9), whose
// first and second time integrals come from one augmented exponential (A13, src/math/expm.h),
// for any J (rank deficient too: A is never inverted, A.10). The average and double-average
// forces (A14), each projected on the friction cone (A15), move the velocity and the
// configuration (A16, A17). The anchor update happens in the contact update after the sub-step
// (A.9, step.c). With the slipping rows off (the paper's variant) the anchor is taken as not
// slipping inside the sub-step (p0' = 0), as consim does (A.3); with them on (the default) a
// slipping point's tangential force is Coulomb's law on its normal one and its anchor slides
// (slip_modes, slide_anchors below).
#include "math/expm.h"
#include "math/lds_modal.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <string.h>


size_t sni_soft_expo_reals(int cap) {
    return sni_lds_work(6 * cap);
}


// no active contact: u' = M^-1 (tau - h), u+ = u + h u', q+ = q (+) h (u + h/2 u')
static sn_status free_substep(sn_system* s, sn_real h) {
    return sni_soft_euler(s, h); // with no active point its force term is empty
}


// Upsilon = J W^T, b = J afree + J-dot u, a and x0 of the LDS (A9) for the nc active points,
// with W = M^-1 J^T (rows; the caller's)
static void build_lds(sni_soft* c, int nc, int nv, const sn_real* afree) {
    int m3 = 3 * nc;
    for (int r = 0; r < m3; r++) {
        const sn_real* Jr = c->Jc + (size_t)r * (size_t)nv; // contact-frame rows
        for (int q = 0; q <= r; q++) {
            const sn_real* Wq = c->W + (size_t)q * (size_t)nv;
            sn_real x = 0;
            for (int k = 0; k < nv; k++)
                x += Jr[k] * Wq[k];
            c->ups[r * m3 + q] = c->ups[q * m3 + r] = x;
        }
        sn_real b = c->jdc[r];
        for (int k = 0; k < nv; k++)
            b += Jr[k] * afree[k];
        c->bfree[r] = b;
    }
    for (int r = 0; r < m3; r++) {
        c->ea[r] = 0;
        c->ea[m3 + r] = c->bfree[r];
        c->x0[r] = c->xc[r];
        c->x0[m3 + r] = c->xc[m3 + r];
    }
}


// the LDS's A (A9) with each active point's mode (c->smode): x' = A x + a, p'' = b + Upsilon
// lambda, lambda = D x. A sticking point's rows of D are its springs, -K (p - p0) - B p'. A
// slipping one's tangential force is Coulomb's law in its LDS normal force, lambda_t = -mu
// lambda_n s (s its slip direction, c->sdir), lambda_n = -(k_n (p - p0)_n + b_n p'_n): its
// columns of Upsilon D are zero in the tangential entries and (-Upsilon_n + mu Upsilon_t s)
// (k_n, b_n) in the normal ones. A keeps the augmented structure [0 I; . .] either way
static void build_a(sni_soft* c, int nc) {
    int m3 = 3 * nc, n = 2 * m3;
    memset(c->A, 0, (size_t)n * (size_t)n * sizeof(sn_real));
    for (int r = 0; r < m3; r++) {
        c->A[(size_t)r * (size_t)n + (size_t)(m3 + r)] = 1;
        sn_real* row = c->A + (size_t)(m3 + r) * (size_t)n;
        const sn_real* ups = c->ups + (size_t)r * (size_t)m3;
        for (int q = 0; q < m3; q++) {
            int e = q % 3, i = q / 3;
            const sn_soft_params* P = &c->prm[c->act[i]];
            if (c->smode[i]) {
                if (e != 2) continue; // the tangential columns stay zero
                const sn_real* sd = c->sdir + 2 * i;
                sn_real g = -ups[q] + P->mu * (sd[0] * ups[q - 2] + sd[1] * ups[q - 1]);
                row[q] = g * P->k_normal;
                row[m3 + q] = g * P->b_normal;
                continue;
            }
            sn_real k = e == 2 ? P->k_normal : P->k_tangent;
            sn_real b = e == 2 ? P->b_normal : P->b_tangent;
            row[q] = -ups[q] * k;
            row[m3 + q] = -ups[q] * b;
        }
    }
}


// the unit vector of (x, y) into s; 0 when it has no direction
static int unit2(sn_real x, sn_real y, sn_real* s) {
    sn_real l = sqrt(x * x + y * y);
    if (!(l > 0) || !isfinite(l)) return 0;
    s[0] = x / l, s[1] = y / l;
    return 1;
}


// point i's tangential velocity v_t (c->xc) is faster than a normal force fn on the cone can
// stop within the time T = max(h, 1 / omega): |v_t| > mu fn T s^T Upsilon_tt s, s = v_t / |v_t|
// (into sd), omega = sqrt(k_t s^T Upsilon_tt s) its tangential spring's frequency. Below the
// spring's time scale (h < 1 / omega: the LDS resolves the spring) a slower point sticks,
// whatever h: the spring takes up v_t within its stretch and keeps it within the cone
static int too_fast(const sni_soft* c, int nc, int i, sn_real fn, sn_real h, sn_real* sd) {
    int m3 = 3 * nc;
    const sn_real* v = c->xc + m3 + 3 * i;
    if (!unit2(v[0], v[1], sd)) return 0;
    const sn_real* u0 = c->ups + (size_t)(3 * i) * (size_t)m3 + 3 * i; // Upsilon_tt's rows
    const sn_real* u1 = u0 + m3;
    sn_real ut = sd[0] * (u0[0] * sd[0] + u0[1] * sd[1]) + sd[1] * (u1[0] * sd[0] + u1[1] * sd[1]);
    const sn_soft_params* P = &c->prm[c->act[i]];
    sn_real T = ut > 0 ? fmax(h, 1 / sqrt(P->k_tangent * ut)) : h;
    return sqrt(v[0] * v[0] + v[1] * v[1]) > P->mu * fmax(fn, 0) * T * ut;
}


// an active point's anchor is held in the frame of another system's moving body (ab, derived
// again at each contact update): expo.c leaves it to the update
static int anchor_rides(const sn_system* s, const sni_soft_pt* pt) {
    if (pt->other <= 0) return 0;
    if (pt->other > s->world->nsys) return 1;
    const sn_model* m = s->world->sys[pt->other - 1]->m;
    int g = pt->ogeom;
    return g >= 0 && g < m->ngeom && m->frame_body[m->geom_frame[g]] > 0;
}


// active point i's tangential stretch x (its LDS state x0, p - p0 in its frame) beyond cap
// (twice the cone's, 2 mu f_n / k_t, at its starting normal force f_n; 0 when its spring pulls):
// the anchor moves along the stretch to leave cap, in x0 and in pt.p0. Such stretches are left
// by the contact update when a point's spring pulls (no force, the anchor kept, A.9) while it
// slides, e.g. a point above an anchor set deep by a fast landing: held, the sticking LDS
// releases them as a spring force far beyond the cone. The test is on the stretch alone: a
// sticking point whose damping holds its trial force inside the cone while its stretch exceeds
// twice the cone's (a fast point turning back) is moved too
static void relax_anchor(sn_system* s, int i, sn_real* x, sn_real cap) {
    sni_soft* c = s->soft;
    sni_soft_pt* pt = &c->pt[c->act[i]];
    sn_real l = sqrt(x[0] * x[0] + x[1] * x[1]);
    if (!(l > cap) || !isfinite(l) || anchor_rides(s, pt)) return;
    sn_real sh[2] = {x[0] * (1 - cap / l), x[1] * (1 - cap / l)};
    for (int e = 0; e < 3; e++)
        pt->p0[e] += pt->fr[e] * sh[0] + pt->fr[3 + e] * sh[1];
    x[0] -= sh[0], x[1] -= sh[1];
}


// each active point's mode for the first solve: slipping when mu = 0 (no tangential force), when
// the last contact update put its force on the cone (pt.slip), its slip direction s then from its
// spring's tangential stretch p - p0 (the update moved the anchor to give the cone's force
// -mu f_n s, A18), and when it slides faster than its normal force f_n = -(k_n (p - p0)_n + b_n
// p'_n) on the cone can stop (too_fast), s along its tangential velocity.
// Before, each point's stretch is bounded (relax_anchor). Bilateral points and the paper's
// variant (c->slip_lds 0) stick and keep their anchors
static void slip_modes(sn_system* s, int nc, sn_real h) {
    sni_soft* c = s->soft;
    int m3 = 3 * nc;
    for (int i = 0; i < nc; i++) {
        const sn_soft_params* P = &c->prm[c->act[i]];
        sn_real* sd = c->sdir + 2 * i;
        c->smode[i] = 0;
        sd[0] = sd[1] = 0;
        if (!c->slip_lds || P->bilateral) continue;
        if (P->mu == 0) {
            c->smode[i] = 1;
            continue;
        }
        sn_real* x = c->x0 + 3 * i;
        sn_real fn = -(P->k_normal * x[2] + P->b_normal * x[m3 + 2]);
        relax_anchor(s, i, x, 2 * P->mu * fmax(fn, 0) / P->k_tangent);
        if (c->pt[c->act[i]].slip && unit2(x[0], x[1], sd))
            c->smode[i] = 1;
        else
            c->smode[i] = too_fast(c, nc, i, fn, h, sd);
    }
}


// the active points into c->act, their number returned
static int active_points(sni_soft* c) {
    int nc = 0;
    for (int i = 0; i < c->n; i++)
        if (c->pt[i].active) c->act[nc++] = i;
    return nc;
}


// the free acceleration (A5) into c->acc
static void free_acceleration(sn_system* s) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    sn_nonlinear(m, d);
    sn_real* afree = s->soft->acc;
    for (int k = 0; k < m->nv; k++)
        afree[k] = s->step.tau_exp[k] - d->nonlinear[k];
    sn_solve_mass(m, d, afree);
}


// W's rows M^-1 J_r^T by solves with the tree's factor (never a dense inverse): all 3 nc right-
// hand sides at once in x (nv x 3nc, a dof's entries side by side, in the exponential's
// workspace, free until the exponential), by the operations of sn_solve_mass (minv.c's
// sni_solve_factor: L^T D L in the tree's sparsity) in the same order for each right-hand side,
// so each parent walk serves them all; one solve per row when x does not fit
static void contact_w(sn_system* s, int nc) {
    sni_soft* c = s->soft;
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    int nv = m->nv, m3 = 3 * nc;
    const sn_real* J = c->Jc; // the active points' rows in their contact frames
    if ((size_t)nv * (size_t)m3 > c->lds_n) {
        for (int r = 0; r < m3; r++) {
            sn_real* Wr = c->W + (size_t)r * (size_t)nv;
            memcpy(Wr, J + (size_t)r * (size_t)nv, (size_t)nv * sizeof(sn_real));
            sn_solve_mass(m, d, Wr);
        }
        return;
    }
    sn_real* x = c->lds;
    for (int r = 0; r < m3; r++) {
        const sn_real* Jr = J + (size_t)r * (size_t)nv;
        for (int k = 0; k < nv; k++)
            x[(size_t)k * m3 + r] = Jr[k];
    }
    const sn_real* l = d->mass_factor;
    for (int k = nv - 1; k >= 0; k--) { // L^T z = b, leaves to root
        const sn_real* xk = x + (size_t)k * m3;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) {
            sn_real f = l[(size_t)k * nv + i];
            sn_real* xi = x + (size_t)i * m3;
            for (int r = 0; r < m3; r++)
                xi[r] -= f * xk[r];
        }
    }
    for (int k = 0; k < nv; k++) {
        sn_real dk = d->mass_factor_d[k];
        sn_real* xk = x + (size_t)k * m3;
        for (int r = 0; r < m3; r++)
            xk[r] /= dk;
    }
    for (int k = 0; k < nv; k++) { // L x = y, root to leaves
        sn_real* xk = x + (size_t)k * m3;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i]) {
            sn_real f = l[(size_t)k * nv + i];
            const sn_real* xi = x + (size_t)i * m3;
            for (int r = 0; r < m3; r++)
                xk[r] -= f * xi[r];
        }
    }
    for (int r = 0; r < m3; r++)
        for (int k = 0; k < nv; k++)
            c->W[(size_t)r * (size_t)nv + (size_t)k] = x[(size_t)k * m3 + r];
}


// the modal path's condition (docs/expo.md "The modal path"): the LDS c->A, c->ea is
// [[0, I], [-U K, -r U K]], (0, b) with U = c->ups, K = diag(k) > 0 from the points' parameters
// and one ratio r (to 1e-12) for every row; k into kr (3 nc), r into *ratio
static int modal_lds(const sni_soft* c, int nc, sn_real* kr, sn_real* ratio) {
    int m3 = 3 * nc, n = 2 * m3;
    sn_real r0 = 0;
    for (int q = 0; q < m3; q++) {
        const sn_soft_params* P = &c->prm[c->act[q / 3]];
        sn_real k = q % 3 == 2 ? P->k_normal : P->k_tangent;
        sn_real b = q % 3 == 2 ? P->b_normal : P->b_tangent;
        if (!(k > 0) || !isfinite(k) || !(b >= 0) || !isfinite(b)) return 0;
        sn_real r = b / k;
        if (q == 0) r0 = r;
        if (!(fabs(r - r0) <= 1e-12 * r0)) return 0;
        kr[q] = k;
    }
    for (int i = 0; i < m3; i++) {
        const sn_real* top = c->A + (size_t)i * (size_t)n;
        const sn_real* bot = c->A + (size_t)(m3 + i) * (size_t)n;
        const sn_real* u = c->ups + (size_t)i * (size_t)m3;
        if (c->ea[i] != 0 || c->ea[m3 + i] != c->bfree[i]) return 0;
        for (int j = 0; j < n; j++)
            if (top[j] != (j == m3 + i)) return 0;
        for (int j = 0; j < m3; j++) {
            sn_real uk = u[j] * kr[j], tol = 1e-12 * fabs(uk);
            if (!(fabs(bot[j] + uk) <= tol) || !(fabs(bot[m3 + j] + r0 * uk) <= 2 * tol)) return 0;
        }
    }
    *ratio = r0;
    return 1;
}


// the integrals X1, X2 of the LDS over h (A13)
static sn_status lds_solve(sni_soft* c, int nc, sn_real h) {
    int n = 6 * nc;
    // the balancing's warm start holds while the active set keeps its size
    if (nc != c->expo_nc) memset(c->bal, 0, (size_t)(n + 3) * sizeof(sn_real));
    c->expo_nc = nc;
    sn_real ratio, *kr = c->lds; // the modal path: the standard exponential's stand-in
    if (c->modal && c->max_mul < 0 && c->balance && !c->full &&
        sni_lds_modal_work(3 * nc) + (size_t)(3 * nc) <= c->lds_n && modal_lds(c, nc, kr, &ratio)) {
        sn_status st = sni_lds_modal(3 * nc, c->ups, kr, ratio, c->bfree, c->x0, h, c->X1, c->X2,
                                     c->lds + 3 * nc);
        if (st != SN_ERR_SINGULAR) return st; // the eigensolver not converged: the exponential
    }
    sni_expm_opts o = {c->max_mul, c->balance, c->full};
    return sni_lds_integrals(n, c->A, c->ea, c->x0, h, &o, c->bal, c->X1, c->X2, NULL, c->lds);
}


// point i's average force from the integral X of the LDS state over a time T (X1 over h, X2
// over h^2 / 2): its springs', or Coulomb's law on its normal one when it slips (build_a)
static void point_force(const sni_soft* c, int nc, int i, const sn_real* X, sn_real T, sn_real* f) {
    int m3 = 3 * nc;
    const sn_soft_params* P = &c->prm[c->act[i]];
    const sn_real* d = X + 3 * i;
    const sn_real* v = X + m3 + 3 * i;
    f[2] = -(P->k_normal * d[2] + P->b_normal * v[2]) / T;
    if (c->smode[i]) {
        f[0] = -P->mu * f[2] * c->sdir[2 * i];
        f[1] = -P->mu * f[2] * c->sdir[2 * i + 1];
        return;
    }
    for (int e = 0; e < 2; e++)
        f[e] = -(P->k_tangent * d[e] + P->b_tangent * v[e]) / T;
}


// after the first solve: a sticking point whose average force leaves the cone while it moves
// faster than that force can stop within the sub-step (|v_t| > mu f_n h s^T Upsilon_tt s, s its
// tangential velocity's direction) slips along that velocity (a slower one sticks: its force is
// put on the cone as in the paper's variant, and the contact update marks it slipping for the next
// sub-step), and a slipping point that stops within the sub-step (its tangential velocity at h
// against its slip direction; x(h) = x0 + A X1 + a h) sticks. 1 when a mode changed
static int slip_recheck(sni_soft* c, int nc, sn_real h) {
    int m3 = 3 * nc, n = 2 * m3, changed = 0;
    for (int i = 0; i < nc; i++) {
        const sn_soft_params* P = &c->prm[c->act[i]];
        if (P->bilateral || P->mu == 0) continue;
        if (!c->smode[i]) {
            sn_real f[3], sd[2];
            point_force(c, nc, i, c->X1, h, f);
            if (!(f[2] > 0) || !(sqrt(f[0] * f[0] + f[1] * f[1]) > P->mu * f[2])) continue;
            if (!too_fast(c, nc, i, f[2], h, sd)) continue;
            c->smode[i] = 1, changed = 1;
            c->sdir[2 * i] = sd[0], c->sdir[2 * i + 1] = sd[1];
            continue;
        }
        sn_real vt = 0;
        for (int e = 0; e < 2; e++) {
            int r = m3 + 3 * i + e;
            const sn_real* Ar = c->A + (size_t)r * (size_t)n;
            sn_real v = c->x0[r] + c->ea[r] * h;
            for (int k = 0; k < n; k++)
                v += Ar[k] * c->X1[k];
            vt += v * c->sdir[2 * i + e];
        }
        if (vt < 0) c->smode[i] = 0, changed = 1;
    }
    return changed;
}


// the integrals, solved again with the points' modes the first solve corrected (slip_recheck)
static sn_status integrals(sni_soft* c, int nc, sn_real h) {
    c->expo_passes = 1;
    sn_status st = lds_solve(c, nc, h);
    if (st != SN_OK || !c->slip_lds || !slip_recheck(c, nc, h)) return st;
    c->expo_passes = 2;
    build_a(c, nc);
    return lds_solve(c, nc, h);
}


// the average and double-average forces (A14), each on the cone (A15)
static void forces(sni_soft* c, int nc, sn_real h) {
    for (int i = 0; i < nc; i++) {
        point_force(c, nc, i, c->X1, h, c->lam + 3 * i);
        point_force(c, nc, i, c->X2, 0.5 * h * h, c->lam2 + 3 * i);
    }
    for (int i = 0; i < nc; i++) {
        const sn_soft_params* P = &c->prm[c->act[i]];
        if (P->bilateral) continue;
        sni_soft_cone(c->lam + 3 * i, P->mu);
        sni_soft_cone(c->lam2 + 3 * i, P->mu);
    }
    sni_soft_impulse(c, nc, h, c->lam); // what the bodies touched receive (step.c)
}


// u+ = u + h (afree + W^T lambda-bar), q+ = q (+) h (u + h/2 (afree + W^T lambda-bar-bar))
static void integrate_state(sn_system* s, int nc, sn_real h) {
    sni_soft* c = s->soft;
    int nv = s->m->nv, m3 = 3 * nc;
    const sn_real* afree = c->acc;
    for (int k = 0; k < nv; k++) {
        sn_real f1 = 0, f2 = 0;
        for (int r = 0; r < m3; r++) {
            sn_real w = c->W[(size_t)r * (size_t)nv + (size_t)k];
            f1 += w * c->lam[r];
            f2 += w * c->lam2[r];
        }
        c->vsum[k] = c->u[k] + 0.5 * h * (afree[k] + f2);
        c->u[k] += h * (afree[k] + f1);
    }
    sn_integrate_q(s->m, c->q, c->vsum, h, c->q);
}


// a point that slipped in the LDS carried no tangential spring force there, but its anchor was
// held: over the sub-step its spring stretched by its tangential displacement. Left so, the
// contact update could take that stretch (v h, far beyond the cone's mu f_n / k_t) as a sticking
// force whenever the normal damping raises its trial cone, and the next sub-step's springs
// would release it. So the anchor slides with the point as far as it must to bound the stretch
// by twice the cone's at the LDS's normal force at h, f_n(h) = -(k_n x_n(h) + b_n x_n'(h)) (x(h) =
// x0 + A X1 + a h): the update still finds the point beyond the cone, marks it slipping and sets
// the anchor by A18. Anchors on a moving body are held in that body's frame and derived again at
// the update: they are left to it (the paper's behaviour)
static void slide_anchors(sn_system* s, int nc, sn_real h) {
    sni_soft* c = s->soft;
    int m3 = 3 * nc, n = 2 * m3;
    for (int i = 0; i < nc; i++) {
        sni_soft_pt* pt = &c->pt[c->act[i]];
        const sn_soft_params* P = &c->prm[c->act[i]];
        if (!c->smode[i] || anchor_rides(s, pt)) continue;
        int r = m3 + 3 * i + 2; // the normal velocity's row
        const sn_real* Ar = c->A + (size_t)r * (size_t)n;
        sn_real vn = c->x0[r] + c->ea[r] * h;
        for (int k = 0; k < n; k++)
            vn += Ar[k] * c->X1[k];
        sn_real dn = c->x0[3 * i + 2] + c->X1[r];
        sn_real fn = fmax(-(P->k_normal * dn + P->b_normal * vn), 0);
        sn_real cap = 2 * P->mu * fn / P->k_tangent;
        // the stretch at h with the anchor held: x0's plus the displacement (X1's velocity rows)
        const sn_real* x0 = c->x0 + 3 * i;
        const sn_real* dx = c->X1 + m3 + 3 * i;
        sn_real d[2] = {x0[0] + dx[0], x0[1] + dx[1]};
        sn_real l = sqrt(d[0] * d[0] + d[1] * d[1]);
        if (!(l > cap) || !isfinite(l)) continue;
        sn_real shift[2] = {d[0] * (1 - cap / l), d[1] * (1 - cap / l)};
        const sn_real* R = pt->fr; // rows t1, t2, n
        for (int e = 0; e < 3; e++)
            pt->p0[e] += R[e] * shift[0] + R[3 + e] * shift[1];
    }
}


sn_status sni_soft_expo_phase(sn_system* s, sn_real h, int phase) {
    sni_soft* c = s->soft;
    int nc = active_points(c);
    if (nc == 0) return phase == SNI_EXPO_FACTOR ? free_substep(s, h) : SN_OK;
    switch (phase) {
    case SNI_EXPO_FACTOR:
        return sni_soft_factor(s);
    case SNI_EXPO_FREE:
        free_acceleration(s);
        return SN_OK;
    case SNI_EXPO_W:
        sni_soft_frames(c, nc, s->m->nv); // the LDS in each point's contact frame (t1, t2, n)
        contact_w(s, nc);
        return SN_OK;
    case SNI_EXPO_LDS:
        build_lds(c, nc, s->m->nv, c->acc);
        slip_modes(s, nc, h);
        build_a(c, nc);
        return SN_OK;
    case SNI_EXPO_EXP:
        return integrals(c, nc, h);
    case SNI_EXPO_CONE:
        forces(c, nc, h);
        return SN_OK;
    case SNI_EXPO_INTEGRATE:
        integrate_state(s, nc, h);
        slide_anchors(s, nc, h);
        return SN_OK;
    default:
        return SN_ERR_ARG;
    }
}


sn_status sni_soft_expo(sn_system* s, sn_real h) {
    sni_soft* c = s->soft;
    int nc = active_points(c);
    if (nc == 0) return free_substep(s, h);
    sn_status st = sni_soft_factor(s);
    if (st != SN_OK) return st;
    free_acceleration(s);
    sni_soft_frames(c, nc, s->m->nv); // the LDS in each point's contact frame (t1, t2, n)
    contact_w(s, nc);
    build_lds(c, nc, s->m->nv, c->acc);
    slip_modes(s, nc, h);
    build_a(c, nc);
    st = integrals(c, nc, h);
    if (st != SN_OK) return st;
    forces(c, nc, h);
    integrate_state(s, nc, h);
    slide_anchors(s, nc, h);
    return SN_OK;
}
