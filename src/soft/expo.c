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
// does (A.3). Each point's rows are in its contact frame (rows t1, t2, n: sni_soft_frames), where
// K and B are diagonal and the cone is about the third axis; the forces W^T lambda need no
// rotation back (J^T R^T lambda_R = J^T lambda).
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


sn_status sni_soft_expo(sn_system* s, sn_real h) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    sni_soft* c = s->soft;
    int nv = m->nv;
    int nc = 0;
    for (int i = 0; i < c->n; i++)
        if (c->pt[i].active) c->act[nc++] = i;
    if (nc == 0) return free_substep(s, h);
    int m3 = 3 * nc, n = 2 * m3;
    sni_soft_frames(c, nc, nv); // the LDS in each point's contact frame (t1, t2, n)
    // the free acceleration (A5) and W = M^-1 J^T
    sn_status st = sni_soft_factor(s);
    if (st != SN_OK) return st;
    sn_nonlinear(m, d);
    sn_real* afree = c->acc;
    for (int k = 0; k < nv; k++)
        afree[k] = s->step.tau_exp[k] - d->nonlinear[k];
    sn_solve_mass(m, d, afree);
    for (int r = 0; r < m3; r++) {
        sn_real* Wr = c->W + (size_t)r * (size_t)nv;
        memcpy(Wr, c->Jc + (size_t)r * (size_t)nv, (size_t)nv * sizeof(sn_real));
        sn_solve_mass(m, d, Wr);
    }
    build_lds(c, nc, nv, afree);
    // the balancing's warm start holds while the active set keeps its size
    if (nc != c->expo_nc) memset(c->bal, 0, (size_t)(n + 3) * sizeof(sn_real));
    c->expo_nc = nc;
    sni_expm_opts o = {c->max_mul, c->balance, c->full};
    st = sni_lds_integrals(n, c->A, c->ea, c->x0, h, &o, c->bal, c->X1, c->X2, NULL, c->lds);
    if (st != SN_OK) return st;
    // the average and double-average forces (A14), each on the cone (A15)
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
    // u+ = u + h (afree + W^T lambda-bar), q+ = q (+) h (u + h/2 (afree + W^T lambda-bar-bar))
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
    sn_integrate_q(m, c->q, c->vsum, h, c->q);
    return SN_OK;
}
