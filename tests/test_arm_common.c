// SPDX-License-Identifier: Apache-2.0
// test_arm_common.c: see test_arm_common.h.
#include "test_arm_common.h"

#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void ta_random_joints(int n, int sliders, sn_arm_joint_desc* j) {
    memset(j, 0, (size_t)n * sizeof *j);
    for (int k = 0; k < n; k++) {
        sn_arm_joint_desc* d = &j[k];
        d->type = sliders && tc_uniform(0, 1) < 0.25 ? SN_JOINT_PRISMATIC : SN_JOINT_REVOLUTE;
        double s = 0;
        while (s < 0.1) {
            for (int i = 0; i < 3; i++)
                d->axis[i] = tc_uniform(-1, 1);
            s = sqrt(d->axis[0] * d->axis[0] + d->axis[1] * d->axis[1] + d->axis[2] * d->axis[2]);
        }
        for (int i = 0; i < 3; i++) {
            d->axis[i] /= s;
            d->origin[i] = tc_uniform(-0.1, 0.1);
            d->frame[i] = tc_uniform(-0.15, 0.15);
            d->com[i] = tc_uniform(-0.1, 0.1);
        }
        d->origin[2] += 0.15;
        d->mass = tc_uniform(0.5, 2);
        // diagonal 0.03..0.04, products within 0.001: principal moments within 0.028..0.042,
        // so every triangle inequality holds
        d->inertia[0] = tc_uniform(0.03, 0.04);
        d->inertia[3] = tc_uniform(0.03, 0.04);
        d->inertia[5] = tc_uniform(0.03, 0.04);
        d->inertia[1] = tc_uniform(-0.001, 0.001);
        d->inertia[2] = tc_uniform(-0.001, 0.001);
        d->inertia[4] = tc_uniform(-0.001, 0.001);
    }
}

sn_arm* ta_arm(int n, const sn_arm_joint_desc* j, const double* g, int sweeps) {
    sn_arm_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.njoint = n;
    desc.joints = j;
    if (g) memcpy(desc.gravity, g, sizeof desc.gravity);
    desc.sweeps = sweeps;
    sn_arm* a = NULL;
    sn_error e;
    if (sn_arm_create(&desc, NULL, &a, &e) != SN_OK) {
        printf("  sn_arm_create: %s\n", e.msg);
        return NULL;
    }
    return a;
}

void ta_random_rotation(double* R) {
    double q[4], s = 0;
    while (s < 0.1) {
        s = 0;
        for (int i = 0; i < 4; i++) {
            q[i] = tc_uniform(-1, 1);
            s += q[i] * q[i];
        }
    }
    s = sqrt(s);
    double w = q[0] / s, x = q[1] / s, y = q[2] / s, z = q[3] / s;
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    memcpy(R, r, sizeof r);
}

void ta_matvec(int n, const double* A, const double* x, double* y) {
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = 0; k < n; k++)
            s += A[i * n + k] * x[k];
        y[i] = s;
    }
}

double ta_quad(int n, const double* A, const double* x) {
    double y[TA_MAXN], s = 0;
    ta_matvec(n, A, x, y);
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

int ta_solve(int n, const double* A, const double* b, double* x) {
    double M[TA_MAXN * TA_MAXN], r[TA_MAXN];
    memcpy(M, A, (size_t)n * n * sizeof *M);
    memcpy(r, b, (size_t)n * sizeof *r);
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(M[i * n + c]) > fabs(M[p * n + c])) p = i;
        if (!(fabs(M[p * n + c]) > 0)) return -1;
        if (p != c) {
            for (int k = 0; k < n; k++) {
                double t = M[c * n + k];
                M[c * n + k] = M[p * n + k];
                M[p * n + k] = t;
            }
            double t = r[c];
            r[c] = r[p];
            r[p] = t;
        }
        for (int i = c + 1; i < n; i++) {
            double f = M[i * n + c] / M[c * n + c];
            for (int k = c; k < n; k++)
                M[i * n + k] -= f * M[c * n + k];
            r[i] -= f * r[c];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = r[i];
        for (int k = i + 1; k < n; k++)
            s -= M[i * n + k] * x[k];
        x[i] = s / M[i * n + i];
    }
    return 0;
}

int ta_inverse(int n, const double* A, double* Ainv) {
    for (int c = 0; c < n; c++) {
        double e[TA_MAXN] = {0}, col[TA_MAXN];
        e[c] = 1;
        if (ta_solve(n, A, e, col) != 0) return -1;
        for (int i = 0; i < n; i++)
            Ainv[i * n + c] = col[i];
    }
    return 0;
}

double ta_err(int n, const double* a, const double* b) {
    double e = 0, s = 0;
    for (int i = 0; i < n; i++) {
        e = fmax(e, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return e / (1 + s);
}

// the joints' active sets: what each fixes (the velocity or the impulse)
enum { FREE, AT_LOWER, AT_UPPER, STUCK, SLIDE_POS, SLIDE_NEG, NSET };

static int set_allowed(int set, double mu, double lo, double hi) {
    switch (set) {
    case FREE:
        return mu == 0;
    case AT_LOWER:
        return isfinite(lo);
    case AT_UPPER:
        return isfinite(hi);
    default:
        return mu > 0 && (set != STUCK || (lo <= 0 && hi >= 0));
    }
}

int ta_exact_velocity(int n, const double* A, const double* t, const double* mu, const double* lo,
                      const double* hi, double dt, double tol, double* v) {
    double Y[TA_MAXN * TA_MAXN];
    if (ta_inverse(n, A, Y) != 0) return 0;
    int total = 1, found = 0;
    for (int i = 0; i < n; i++)
        total *= NSET;
    for (int code = 0; code < total; code++) {
        int set[TA_MAXN], c = code, ok = 1;
        for (int i = 0; i < n; i++) {
            set[i] = c % NSET;
            c /= NSET;
            ok &= set_allowed(set[i], mu[i], lo[i], hi[i]);
        }
        if (!ok) continue;
        // lambda known on the free and sliding joints, v on the others (the set X)
        double lam[TA_MAXN] = {0}, vx[TA_MAXN];
        int X[TA_MAXN], nx = 0;
        for (int i = 0; i < n; i++) {
            double b = dt * mu[i];
            if (set[i] == SLIDE_POS) lam[i] = -b;
            if (set[i] == SLIDE_NEG) lam[i] = b;
            if (set[i] == AT_LOWER || set[i] == AT_UPPER || set[i] == STUCK) {
                vx[nx] = set[i] == AT_LOWER ? lo[i] : set[i] == AT_UPPER ? hi[i] : 0;
                X[nx++] = i;
            }
        }
        if (nx > 0) {
            double S[TA_MAXN * TA_MAXN], r[TA_MAXN], lx[TA_MAXN];
            for (int p = 0; p < nx; p++) {
                r[p] = vx[p] - t[X[p]];
                for (int j = 0; j < n; j++)
                    r[p] -= Y[X[p] * n + j] * lam[j];
                for (int q = 0; q < nx; q++)
                    S[p * nx + q] = Y[X[p] * n + X[q]];
            }
            if (ta_solve(nx, S, r, lx) != 0) continue;
            for (int p = 0; p < nx; p++)
                lam[X[p]] = lx[p];
        }
        double w[TA_MAXN], vmax = 0, lmax = 0;
        ta_matvec(n, Y, lam, w);
        for (int i = 0; i < n; i++) {
            w[i] += t[i];
            vmax = fmax(vmax, fabs(w[i]));
            lmax = fmax(lmax, fabs(lam[i]) + dt * mu[i]);
        }
        double tv = tol * (1 + vmax), tl = tol * (1 + lmax);
        for (int i = 0; i < n && ok; i++) {
            double b = dt * mu[i];
            ok = w[i] >= lo[i] - tv && w[i] <= hi[i] + tv;
            if (set[i] == SLIDE_POS) ok &= w[i] >= -tv;
            if (set[i] == SLIDE_NEG) ok &= w[i] <= tv;
            if (set[i] == STUCK) ok &= fabs(lam[i]) <= b + tl;
            if (set[i] == AT_LOWER) ok &= lam[i] >= (lo[i] < 0 ? b : -b) - tl;
            if (set[i] == AT_UPPER) ok &= lam[i] <= (hi[i] > 0 ? -b : b) + tl;
        }
        if (!ok) continue;
        if (!found) memcpy(v, w, (size_t)n * sizeof *v);
        found++;
    }
    return found;
}
