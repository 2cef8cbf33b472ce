// SPDX-License-Identifier: Apache-2.0
// user.c: user constraints (docs/constraints.md "User constraints"): the callback's evaluation at
// the bodies' stage states, and the finite-difference check of its Jacobian slices and J-dot
// x-dot when it is added.
#include "base/smath.h"
#include "maxc/maxc.h"

#include <math.h>
#include <string.h>

static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

// the callback at states a, b (NULL: the world); 0, or its own nonzero return; -1000 when an
// output is not finite
static int call(const sn_user_constraint* uc, const sni_maxc_body* a, const sni_maxc_body* b,
                sn_real* c, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    sni_maxc_body world;
    if (!b) {
        memset(&world, 0, sizeof world);
        m3_identity(world.R);
        b = &world;
    }
    int n = uc->rows;
    memset(c, 0, (size_t)n * sizeof *c);
    memset(Ja, 0, 6 * (size_t)n * sizeof *Ja);
    memset(Jb, 0, 6 * (size_t)n * sizeof *Jb);
    memset(jdot, 0, (size_t)n * sizeof *jdot);
    int rc = uc->eval(uc->ctx, a->x, a->R, a->v, a->w, b->x, b->R, b->v, b->w, c, Ja, Jb, jdot);
    if (rc != 0) return rc;
    if (!finite_n(c, n) || !finite_n(Ja, 6 * n) || !finite_n(Jb, 6 * n) || !finite_n(jdot, n))
        return -1000;
    if (uc->body_b < 0) memset(Jb, 0, 6 * (size_t)n * sizeof *Jb);
    return 0;
}

int sni_mx_user_call(const sn_user_constraint* uc, const sni_maxc_body* a, const sni_maxc_body* b,
                     sn_real* c, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    return call(uc, a, b, c, Ja, Jb, jdot);
}

sn_status sni_mx_user_eval(sn_maximal* mx, const sni_mx_con* k, sn_real* c, sn_real* Ja,
                           sn_real* Jb, sn_real* jdot) {
    const sn_user_constraint* uc = &k->uc;
    int rc = call(uc, sni_mx_sb(mx, uc->body_a), sni_mx_sb(mx, uc->body_b), c, Ja, Jb, jdot);
    if (rc == -1000)
        return sni_mx_fail(mx, SN_ERR_NONFINITE,
                           "constraint %d (user): the callback gave a "
                           "non-finite c, J or jdot",
                           (int)(k - mx->con));
    if (rc != 0)
        return sni_mx_fail(mx, SN_ERR_ARG, "constraint %d (user): the callback returned %d",
                           (int)(k - mx->con), rc);
    return SN_OK;
}

// R <- exp(h [e]) R for a world vector e (Rodrigues)
static void rotate(sn_real* R, const sn_real* e, sn_real h) {
    sn_real n = v3_norm(e);
    if (!(n > 0)) return;
    sn_real u[3], E[9], t[9];
    v3_scale(u, e, 1 / n);
    axis_sincos_to_m3(E, u, sin(h * n), cos(h * n));
    m3_mul(t, E, R);
    memcpy(R, t, sizeof t);
}

// the body moved by h along velocity column j (0..2: x += h e_j; 3..5: R = exp(h e_j) R)
static void perturb(sni_maxc_body* b, int j, sn_real h) {
    if (j < 3) {
        b->x[j] += h;
    } else {
        sn_real e[3] = {0, 0, 0};
        e[j - 3] = 1;
        rotate(b->R, e, h);
    }
}

// the body moved along its motion for time h (velocities held)
static void advance(sni_maxc_body* b, sn_real h) {
    v3_addscl(b->x, b->v, h);
    rotate(b->R, b->w, h);
}

// J x-dot of both slices (rows n)
static void jxdot(const sn_real* Ja, const sn_real* Jb, const sni_maxc_body* a,
                  const sni_maxc_body* b, int n, sn_real* out) {
    for (int r = 0; r < n; r++) {
        out[r] = v3_dot(Ja + 6 * r, a->v) + v3_dot(Ja + 6 * r + 3, a->w);
        if (b) out[r] += v3_dot(Jb + 6 * r, b->v) + v3_dot(Jb + 6 * r + 3, b->w);
    }
}

#define NCHECK 3 // the current state and two moved ones

sn_status sni_mx_user_check(sn_maximal* mx, const sn_user_constraint* uc) {
    const char* f = "sn_maximal_add_user_constraint";
    const sn_real h = 1e-6;
    sn_real tol = uc->check_tol > 0 ? uc->check_tol : 1e-6;
    int n = uc->rows;
    sn_real c0[SNI_MAXC_ROWS_MAX], Ja[6 * SNI_MAXC_ROWS_MAX], Jb[6 * SNI_MAXC_ROWS_MAX],
        jd[SNI_MAXC_ROWS_MAX];
    sn_real cp[SNI_MAXC_ROWS_MAX], cm[SNI_MAXC_ROWS_MAX], Jp[2][6 * SNI_MAXC_ROWS_MAX],
        Jm[2][6 * SNI_MAXC_ROWS_MAX], jt[SNI_MAXC_ROWS_MAX], gp[SNI_MAXC_ROWS_MAX],
        gm[SNI_MAXC_ROWS_MAX];
    for (int s = 0; s < NCHECK; s++) {
        sni_maxc_body A = mx->body[uc->body_a].st, B;
        sni_maxc_body* pb = NULL;
        if (uc->body_b >= 0) {
            B = mx->body[uc->body_b].st;
            pb = &B;
        }
        if (s > 0) { // moved a little and given velocities of both signs, so J-dot x-dot shows
            static const sn_real dv[3] = {0.31, -0.47, 0.23}, dw[3] = {-0.53, 0.29, 0.61};
            sn_real k = s == 1 ? 1 : -0.7;
            v3_addscl(A.v, dv, k);
            v3_addscl(A.w, dw, k);
            advance(&A, 0.01);
            if (pb) {
                v3_addscl(B.v, dw, -k);
                v3_addscl(B.w, dv, k);
                advance(&B, 0.01);
            }
        }
        int rc = call(uc, &A, pb, c0, Ja, Jb, jd);
        if (rc != 0)
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: check: the callback %s at check state %d", f,
                               rc == -1000 ? "gave a non-finite c, J or jdot" : "failed", s);
        // J against central differences of c along each velocity direction of each body
        for (int side = 0; side < (pb ? 2 : 1); side++) {
            const sn_real* J = side ? Jb : Ja;
            for (int j = 0; j < 6; j++) {
                sni_maxc_body Ap = A, Am = A, Bp, Bm;
                if (pb) Bp = Bm = B;
                perturb(side ? &Bp : &Ap, j, h);
                perturb(side ? &Bm : &Am, j, -h);
                if (call(uc, &Ap, pb ? &Bp : NULL, cp, Jp[0], Jp[1], jt) != 0 ||
                    call(uc, &Am, pb ? &Bm : NULL, cm, Jm[0], Jm[1], jt) != 0)
                    return sni_mx_fail(mx, SN_ERR_ARG,
                                       "%s: check: the callback failed at a "
                                       "perturbed state",
                                       f);
                for (int r = 0; r < n; r++) {
                    sn_real fd = (cp[r] - cm[r]) / (2 * h), an = J[6 * r + j];
                    sn_real scale = 1;
                    for (int i = 0; i < 6; i++)
                        scale = fmax(scale, fmax(fabs(Ja[6 * r + i]), fabs(Jb[6 * r + i])));
                    if (!(fabs(fd - an) <= tol * scale))
                        return sni_mx_fail(mx, SN_ERR_ARG,
                                           "%s: check: %s[row %d][column %d] is %.9g, finite "
                                           "differences of c give %.9g (check state %d)",
                                           f, side ? "Jb" : "Ja", r, j, an, fd, s);
                }
            }
        }
        // J-dot x-dot against central differences of J x-dot along the motion
        sni_maxc_body Ap = A, Am = A, Bp, Bm;
        advance(&Ap, h);
        advance(&Am, -h);
        if (pb) {
            Bp = Bm = B;
            advance(&Bp, h);
            advance(&Bm, -h);
        }
        if (call(uc, &Ap, pb ? &Bp : NULL, cp, Jp[0], Jp[1], jt) != 0 ||
            call(uc, &Am, pb ? &Bm : NULL, cm, Jm[0], Jm[1], jt) != 0)
            return sni_mx_fail(mx, SN_ERR_ARG, "%s: check: the callback failed along the motion",
                               f);
        jxdot(Jp[0], Jp[1], &A, pb, n, gp);
        jxdot(Jm[0], Jm[1], &A, pb, n, gm);
        for (int r = 0; r < n; r++) {
            sn_real fd = (gp[r] - gm[r]) / (2 * h);
            sn_real scale = fmax(1, fmax(fabs(jd[r]), fabs(gp[r])));
            if (!(fabs(fd - jd[r]) <= tol * scale))
                return sni_mx_fail(mx, SN_ERR_ARG,
                                   "%s: check: jdot[row %d] is %.9g, finite differences of J "
                                   "x-dot give %.9g (check state %d)",
                                   f, r, jd[r], fd, s);
        }
    }
    return SN_OK;
}
