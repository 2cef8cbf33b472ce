// SPDX-License-Identifier: Apache-2.0
// baselines.c: the soft contacts' forward dynamics and the paper's baseline integrators
// (spec/algorithms.md A.13): explicit Euler, RK4 on the configuration's group with the stages'
// forces on copies of the contact state, and implicit Euler solved by Newton to 1e-6 on a
// finite-difference Jacobian (sinew has no analytic ABA derivatives yet). Each takes one sub-step
// of h from (c->q, c->u), d's kinematics and the points' scratch being at that state and the
// points' contact state updated there; the step (step.c) updates the contacts after it.
#include "math/dense.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <string.h>

#define NEWTON_TOL 1e-6    // |g| below which Newton stops (the paper's scripts)
#define NEWTON_ITER 30     // iterations at most
#define NEWTON_HALVINGS 20 // line-search halvings at most


sn_status sni_soft_factor(sn_system* s) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    const sni_soft* c = s->soft;
    int nv = m->nv;
    sn_crba(m, d);
    if (c->wh_on)
        for (int i = 0; i < nv; i++)
            d->mass_matrix[i * nv + i] += c->wh[i];
    return sn_factor_mass(m, d);
}


sn_status sni_soft_accel(sn_system* s, const sn_real* tau, const sni_soft_pt* pts, sn_real* udot) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    const sni_soft* c = s->soft;
    int nv = m->nv;
    sn_status st = sni_soft_factor(s);
    if (st != SN_OK) return st;
    sn_nonlinear(m, d);
    for (int i = 0; i < nv; i++)
        udot[i] = tau[i] - d->nonlinear[i];
    for (int i = 0; i < c->n; i++) {
        if (!pts[i].active) continue;
        const sn_real* J = c->J + 3 * (size_t)i * (size_t)nv;
        const sn_real* f = pts[i].f;
        for (int k = 0; k < nv; k++)
            udot[k] += J[k] * f[0] + J[nv + k] * f[1] + J[2 * nv + k] * f[2];
    }
    sn_solve_mass(m, d, udot);
    return SN_OK;
}


sn_status sni_soft_euler(sn_system* s, sn_real h) {
    sni_soft* c = s->soft;
    int nv = s->m->nv;
    sn_status st = sni_soft_accel(s, s->step.tau_exp, c->pt, c->acc);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++) {
        c->vsum[i] = c->u[i] + 0.5 * h * c->acc[i];
        c->u[i] += h * c->acc[i];
    }
    sn_integrate_q(s->m, c->q, c->vsum, h, c->q);
    return SN_OK;
}


// a stage's acceleration at (q, u): the kinematics there, the contact update on a copy
static sn_status stage_accel(sn_system* s, const sn_real* q, const sn_real* u, sn_real* acc) {
    sni_soft* c = s->soft;
    sni_soft_kin(s, q, u, 0);
    memcpy(c->tmp, c->pt, (size_t)c->n * sizeof(sni_soft_pt));
    sni_soft_update(s, c->tmp);
    return sni_soft_accel(s, s->step.tau_exp, c->tmp, acc);
}


sn_status sni_soft_rk4(sn_system* s, sn_real h) {
    sni_soft* c = s->soft;
    const sn_model* m = s->m;
    int nv = m->nv;
    static const sn_real cst[3] = {0.5, 0.5, 1}, wt[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    sn_status st = sni_soft_accel(s, s->step.tau_exp, c->pt, c->k[0]);
    if (st != SN_OK) return st;
    memcpy(c->vst[0], c->u, (size_t)nv * sizeof(sn_real));
    sn_real t0 = c->tnow; // the stages' times (where other systems' bodies are)
    for (int j = 1; j < 4; j++) {
        sn_real cj = cst[j - 1] * h;
        c->tnow = t0 + cj;
        sn_integrate_q(m, c->q, c->vst[j - 1], cj, c->qs);
        for (int i = 0; i < nv; i++)
            c->vst[j][i] = c->u[i] + cj * c->k[j - 1][i];
        st = stage_accel(s, c->qs, c->vst[j], c->k[j]);
        if (st != SN_OK) return st;
    }
    c->tnow = t0;
    for (int i = 0; i < nv; i++) {
        sn_real a = 0, v = 0;
        for (int j = 0; j < 4; j++) {
            a += wt[j] * c->k[j][i];
            v += wt[j] * c->vst[j][i];
        }
        c->u[i] += h * a;
        c->vsum[i] = v;
    }
    sn_integrate_q(m, c->q, c->vsum, h, c->q);
    return SN_OK;
}


static sn_real norm2(const sn_real* x, int n) {
    sn_real s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}


// the implicit Euler residual at the end velocity z: with q+ = q (+) h z (which makes the
// configuration part of g = z (-) (x (+) h f(z)) vanish), r = z - u - h udot(q+, z)
static sn_status residual(sn_system* s, sn_real h, const sn_real* z, sn_real* r) {
    sni_soft* c = s->soft;
    int nv = s->m->nv;
    sn_integrate_q(s->m, c->q, z, h, c->qn);
    sn_status st = stage_accel(s, c->qn, z, c->acc);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++)
        r[i] = z[i] - c->u[i] - h * c->acc[i];
    return SN_OK;
}


sn_status sni_soft_implicit_euler(sn_system* s, sn_real h) {
    sni_soft* c = s->soft;
    const sn_model* m = s->m;
    int nv = m->nv;
    // the first guess: one explicit Euler step of the velocity
    sn_status st = sni_soft_accel(s, s->step.tau_exp, c->pt, c->acc);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++)
        c->z[i] = c->u[i] + h * c->acc[i];
    sn_real t0 = c->tnow; // the residuals are at the sub-step's end
    c->tnow = t0 + h;
    st = residual(s, h, c->z, c->r);
    if (st != SN_OK) return st;
    sn_real rn = norm2(c->r, nv), eps = 1e-10;
    int it = 0;
    for (; it < NEWTON_ITER && rn >= NEWTON_TOL; it++) {
        // G = dr/dz by forward differences, column by column
        for (int j = 0; j < nv; j++) {
            memcpy(c->zt, c->z, (size_t)nv * sizeof(sn_real));
            sn_real dz = 1e-7 * (1 + fabs(c->z[j]));
            c->zt[j] += dz;
            st = residual(s, h, c->zt, c->rt);
            if (st != SN_OK) return st;
            for (int i = 0; i < nv; i++)
                c->G[i * nv + j] = (c->rt[i] - c->r[i]) / dz;
        }
        for (int i = 0; i < nv; i++) {
            c->G[i * nv + i] += eps;
            c->dz[i] = -c->r[i];
        }
        if (sni_lu_factor(c->G, nv, c->piv) != SN_OK) return SN_ERR_SINGULAR;
        sni_lu_solve(c->G, nv, c->piv, c->dz);
        // backtracking: the first step length that lowers |r|
        sn_real alpha = 1, rt = rn;
        int k = 0;
        for (; k <= NEWTON_HALVINGS; k++, alpha *= 0.5) {
            for (int i = 0; i < nv; i++)
                c->zt[i] = c->z[i] + alpha * c->dz[i];
            st = residual(s, h, c->zt, c->rt);
            if (st != SN_OK) return st;
            rt = norm2(c->rt, nv);
            if (rt < rn) break;
        }
        if (k > NEWTON_HALVINGS) { // no descent: more regularization, or give up
            eps *= 10;
            if (eps > 1e-3) break;
            continue;
        }
        if (k == 0) eps = fmax(eps / 10, 1e-10);
        memcpy(c->z, c->zt, (size_t)nv * sizeof(sn_real));
        memcpy(c->r, c->rt, (size_t)nv * sizeof(sn_real));
        rn = rt;
    }
    c->tnow = t0;
    c->newton_iter += it;
    if (!(rn < NEWTON_TOL)) c->newton_fails++;
    memcpy(c->u, c->z, (size_t)nv * sizeof(sn_real));
    sn_integrate_q(m, c->q, c->z, h, c->q);
    return SN_OK;
}
