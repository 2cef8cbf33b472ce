// SPDX-License-Identifier: Apache-2.0
// expo.c: one Expo sub-step (spec/algorithms.md A.3-A.12). Over the sub-step everything that
// depends on (q, u) is frozen: M (CRBA, factored in the tree's sparsity), the free acceleration
// M^-1 (tau - h) (A5), the active points' Jacobian J and drift J-dot u, and their anchors. The
// contact points then follow the linear system x' = A x + a with x = (p - p0, p') (A9), whose
// first and second time integrals come from one augmented exponential (A13, src/math/expm.h),
// for any J (rank deficient too: A is never inverted, A.10). The average and double-average
// forces (A14), each projected on the friction cone (A15), move the velocity and the
// configuration (A16, A17). The anchor update happens in the contact update after the sub-step
// (A.9, step.c). Inside the sub-step the anchor is taken as not slipping (p0' = 0), as consim
// does (A.3).
#include "math/expm.h"
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


// A, a, x0 of the LDS (A9) for the nc active points, with W = M^-1 J^T (rows) and Upsilon
static void build_lds(sni_soft* c, int nc, int nv, const sn_real* afree) {
    int m3 = 3 * nc, n = 2 * m3;
    // W's rows: M^-1 J_r^T by solves with the tree's factor (never a dense inverse)
    // (done by the caller, which holds d); here Upsilon = J W^T and b = J afree + J-dot u
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
    memset(c->A, 0, (size_t)n * (size_t)n * sizeof(sn_real));
    for (int r = 0; r < m3; r++) {
        c->A[(size_t)r * (size_t)n + (size_t)(m3 + r)] = 1;
        sn_real* row = c->A + (size_t)(m3 + r) * (size_t)n;
        for (int q = 0; q < m3; q++) {
            int e = q % 3;
            const sn_soft_params* P = &c->prm[c->act[q / 3]];
            sn_real k = e == 2 ? P->k_normal : P->k_tangent;
            sn_real b = e == 2 ? P->b_normal : P->b_tangent;
            row[q] = -c->ups[r * m3 + q] * k;
            row[m3 + q] = -c->ups[r * m3 + q] * b;
        }
        c->ea[r] = 0;
        c->ea[m3 + r] = c->bfree[r];
        c->x0[r] = c->xc[r];
        c->x0[m3 + r] = c->xc[m3 + r];
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


// the integrals X1, X2 of the LDS over h (A13)
static sn_status integrals(sni_soft* c, int nc, sn_real h) {
    int n = 6 * nc;
    // the balancing's warm start holds while the active set keeps its size
    if (nc != c->expo_nc) memset(c->bal, 0, (size_t)(n + 3) * sizeof(sn_real));
    c->expo_nc = nc;
    sni_expm_opts o = {c->max_mul, c->balance, c->full};
    return sni_lds_integrals(n, c->A, c->ea, c->x0, h, &o, c->bal, c->X1, c->X2, NULL, c->lds);
}


// the average and double-average forces (A14), each on the cone (A15)
static void forces(sni_soft* c, int nc, sn_real h) {
    int m3 = 3 * nc;
    for (int r = 0; r < m3; r++) {
        int e = r % 3;
        const sn_soft_params* P = &c->prm[c->act[r / 3]];
        sn_real k = e == 2 ? P->k_normal : P->k_tangent;
        sn_real b = e == 2 ? P->b_normal : P->b_tangent;
        c->lam[r] = -(k * c->X1[r] + b * c->X1[m3 + r]) / h;
        c->lam2[r] = -(k * c->X2[r] + b * c->X2[m3 + r]) / (0.5 * h * h);
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
        return SN_OK;
    case SNI_EXPO_EXP:
        return integrals(c, nc, h);
    case SNI_EXPO_CONE:
        forces(c, nc, h);
        return SN_OK;
    case SNI_EXPO_INTEGRATE:
        integrate_state(s, nc, h);
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
    st = integrals(c, nc, h);
    if (st != SN_OK) return st;
    forces(c, nc, h);
    integrate_state(s, nc, h);
    return SN_OK;
}
