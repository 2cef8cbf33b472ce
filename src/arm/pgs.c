// SPDX-License-Identifier: Apache-2.0
// pgs.c: the arm's stops and Coulomb friction (seed 002): the new velocity
//   v = argmin 1/2 (v - t)^T A (v - t) + dt sum_j mu_j |v_j|,  lo_j <= v_j <= hi_j,
// lo_j = (l_j - theta_j)/dt, hi_j = (h_j - theta_j)/dt, by projected Gauss-Seidel on the joints'
// generalized impulses lambda through the step's system: v = t + A^-1 lambda. Only the joints
// with friction or a stop take part (the set C); the others follow exactly through A^-1. Joint
// j's update, the others' impulses fixed, is the exact minimum along v_j: with a = (A^-1)_jj and
// x0 = v_j - a lambda_j its velocity without its own impulse, v_j = clamp(shrink(x0, a dt mu_j),
// lo_j, hi_j) and lambda_j = (v_j - x0) / a.
//
// Why it never adds kinetic energy (docs/arm.md): with E(lambda) = 1/2 v^T A v, the sweeps
// minimize, one coordinate at a time, the dual function Psi(lambda) = E(lambda) - E(0) +
// sum_j sigma_j(lambda_j), sigma_j >= 0 the support function of joint j's set (its box and
// friction), zero at lambda_j = 0 when theta_j is within its stops. From lambda = 0, Psi <= 0 after
// every update, so E <= E(0) = 1/2 t^T A t.
//
// Exactness. One joint in C: its first update is the solution. Every joint with friction
// sticking: the impulses that hold them (v_F = 0) solve a |F| x |F| system; when they are within
// their bounds dt mu_j and the other joints of C are within their stops with them, that is the
// solution (its conditions are the problem's optimality conditions), taken as it is: no sweep
// runs (one would find each joint at its minimum and only add rounding). Otherwise the sweeps
// start from lambda = 0 and converge as SWEEPS grows.
#include "arm/arm.h"
#include "math/dense.h"

#include <math.h>
#include <string.h>

static sn_real shrink(sn_real x, sn_real by) {
    return x > by ? x - by : x < -by ? x + by : 0;
}

// the all-stick start: 1 when admissible (a->lam, a->v set), else 0
static int stick_start(sn_arm* a, int nc, const sn_real* t, const sn_real* lo, const sn_real* hi,
                       const sn_real* bound) {
    int n = a->n, nf = 0;
    int* fr = a->piv; // positions in C of the joints with friction
    for (int c = 0; c < nc; c++)
        if (bound[c] > 0) fr[nf++] = c;
    if (nf == 0) return 0;
    sn_real* S = a->stick;
    sn_real* r = a->stick + (size_t)n * n;
    for (int p = 0; p < nf; p++) {
        for (int q = 0; q < nf; q++)
            S[p * nf + q] = a->Ainv[(size_t)fr[q] * n + a->idx[fr[p]]];
        r[p] = -t[a->idx[fr[p]]];
    }
    if (sni_chol(S, nf, 0) != SN_OK) return 0;
    sni_chol_solve1(S, nf, nf, r);
    for (int p = 0; p < nf; p++)
        if (!(fabs(r[p]) <= bound[fr[p]])) return 0;
    memcpy(a->v, t, (size_t)n * sizeof(sn_real));
    for (int p = 0; p < nf; p++) {
        const sn_real* col = a->Ainv + (size_t)fr[p] * n;
        for (int i = 0; i < n; i++)
            a->v[i] += col[i] * r[p];
    }
    for (int c = 0; c < nc; c++) {
        int j = a->idx[c];
        if (bound[c] > 0) a->v[j] = 0; // held exactly (rounding would leave ~1e-17)
        if (a->v[j] < lo[c] || a->v[j] > hi[c]) return 0;
    }
    memset(a->lam, 0, (size_t)nc * sizeof(sn_real));
    for (int p = 0; p < nf; p++)
        a->lam[fr[p]] = r[p];
    return 1;
}

int sni_arm_pgs(sn_arm* a, const sn_real* t, sn_real dt) {
    int n = a->n, nc = 0;
    memcpy(a->v, t, (size_t)n * sizeof(sn_real));
    for (int j = 0; j < n; j++)
        if (a->friction[j] > 0 || a->lower[j] > (double)-INFINITY || a->upper[j] < (double)INFINITY)
            a->idx[nc++] = j;
    if (nc == 0) return 0;
    // per joint of C: its box and friction bound (a->q1, a->rhs, a->tmp are free here)
    sn_real *lo = a->q1, *hi = a->rhs, *bound = a->tmp;
    const sn_real* th = a->d->q;
    for (int c = 0; c < nc; c++) {
        int j = a->idx[c];
        lo[c] = (a->lower[j] - th[j]) / dt;
        hi[c] = (a->upper[j] - th[j]) / dt;
        bound[c] = dt * a->friction[j];
    }
    // no friction and theta* within every stop: lambda = 0 is the solution
    int free = 1;
    for (int c = 0; c < nc && free; c++)
        free = bound[c] == 0 && t[a->idx[c]] >= lo[c] && t[a->idx[c]] <= hi[c];
    if (free) return 0;
    // the columns of A^-1 of C's joints, from A's factor
    sni_factor f = {a->fac_L, a->fac_D};
    for (int c = 0; c < nc; c++) {
        sn_real* col = a->Ainv + (size_t)c * n;
        memset(col, 0, (size_t)n * sizeof(sn_real));
        col[a->idx[c]] = 1;
        sni_solve_factor(a->m, &f, col);
    }
    a->rep_stuck = stick_start(a, nc, t, lo, hi, bound);
    // admissible, the all-stick start is the solution: sweeps would only add rounding to it
    if (a->rep_stuck) return 0;
    memset(a->lam, 0, (size_t)nc * sizeof(sn_real));
    int s = 0;
    while (s < a->sweeps) {
        s++;
        int changed = 0;
        for (int c = 0; c < nc; c++) {
            int j = a->idx[c];
            const sn_real* col = a->Ainv + (size_t)c * n;
            sn_real ajj = col[j];
            sn_real x0 = a->v[j] - ajj * a->lam[c];
            sn_real x = fmin(fmax(shrink(x0, ajj * bound[c]), lo[c]), hi[c]);
            sn_real l = (x - x0) / ajj, dl = l - a->lam[c];
            if (dl == 0) continue;
            // a change of v_j within rounding does not count as a change
            if (fabs(dl * ajj) > 1e-15 * (1 + fabs(x))) changed = 1;
            a->lam[c] = l;
            for (int i = 0; i < n; i++)
                a->v[i] += col[i] * dl;
            a->v[j] = x; // the 1-D minimum exactly (the sum above leaves x + rounding)
        }
        if (!changed) break;
    }
    return s;
}
