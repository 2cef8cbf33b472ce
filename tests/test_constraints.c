// SPDX-License-Identifier: Apache-2.0
// test_constraints.c: the constraints of maximal coordinates (src/maxc/constraints.c,
// docs/constraints.md). At random states (poses, velocities, anchors, frames; seeded) J x-dot is
// the time derivative of c and J-dot x-dot that of J x-dot, both by central differences along
// the motion (x + t v, R advanced by exp(t w) in the world, velocities held); c = 0 at
// configurations built to satisfy each constraint (and moved along its free directions), and
// c != 0 away from them; refusals; no allocation.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "math/dense.h"
#include "maxc/constraints.h"
#include "maxc/maxc.h"

#include <stdint.h>

// common.c's xorshift
static void reseed(uint64_t s) {
    tc_seed(s ? s : 0x9e3779b97f4a7c15u);
}
static double urand(void) { // uniform in [-1, 1)
    return tc_uniform(-1, 1);
}

// R = exp(angle [axis]) for a unit axis (Rodrigues)
static void rot_axis(double* R, const double* axis, double angle) {
    double s = sin(angle), c = cos(angle), t = 1 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    double r[9] = {t * x * x + c,     t * x * y - s * z, t * x * z + s * y,
                   t * x * y + s * z, t * y * y + c,     t * y * z - s * x,
                   t * x * z - s * y, t * y * z + s * x, t * z * z + c};
    memcpy(R, r, sizeof r);
}

static void mul3(double* d, const double* a, const double* b) { // d = a b (no alias)
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}
static void mul3_t(double* d, const double* a, const double* b) { // d = a b^T
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d[3 * i + j] =
                a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
}
static void mulv(double* d, const double* R, const double* v) {
    for (int i = 0; i < 3; i++)
        d[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}

static void random_unit(double* u) {
    double n;
    do {
        for (int i = 0; i < 3; i++)
            u[i] = urand();
        n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (n < 0.1 || n > 1);
    for (int i = 0; i < 3; i++)
        u[i] /= n;
}
static void random_rotation(double* R) {
    double u[3];
    random_unit(u);
    rot_axis(R, u, 3.14159 * urand());
}
static void random_body(sni_maxc_body* b) {
    for (int i = 0; i < 3; i++) {
        b->x[i] = urand();
        b->v[i] = urand();
        b->w[i] = 2 * urand();
    }
    random_rotation(b->R);
}
static void random_con(sni_maxc_con* k, sni_maxc_kind kind) {
    memset(k, 0, sizeof *k);
    k->kind = kind;
    for (int i = 0; i < 3; i++) {
        k->ra[i] = 0.5 * urand();
        k->rb[i] = 0.5 * urand();
    }
    random_rotation(k->Qa);
    random_rotation(k->Qb);
    k->length = 0.3 + 0.5 * (urand() + 1);
}

// the body moved for time t: x + t v, exp(t [w]) R, velocities held
static void advance(sni_maxc_body* out, const sni_maxc_body* b, double t) {
    *out = *b;
    double n = sqrt(b->w[0] * b->w[0] + b->w[1] * b->w[1] + b->w[2] * b->w[2]);
    for (int i = 0; i < 3; i++)
        out->x[i] = b->x[i] + t * b->v[i];
    if (n > 0) {
        double u[3] = {b->w[0] / n, b->w[1] / n, b->w[2] / n}, E[9];
        rot_axis(E, u, t * n);
        mul3(out->R, E, b->R);
    }
}

// J x-dot of k at the state (a, b)
static int jxdot(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                 double* out) {
    double Ja[36], Jb[36];
    if (sni_maxc_eval(k, a, b, NULL, Ja, Jb, NULL) != SN_OK) return -1;
    int n = sni_maxc_rows(k->kind);
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < 3; j++) {
            s += Ja[6 * i + j] * a->v[j] + Ja[6 * i + 3 + j] * a->w[j];
            if (b) s += Jb[6 * i + j] * b->v[j] + Jb[6 * i + 3 + j] * b->w[j];
        }
        out[i] = s;
    }
    return 0;
}

// max |x - y| / max(max |y|, floor)
static double rel(const double* x, const double* y, int n, double floor) {
    double e = 0, s = floor;
    for (int i = 0; i < n; i++) {
        e = fmax(e, fabs(x[i] - y[i]));
        s = fmax(s, fabs(y[i]));
    }
    return e / s;
}

static const char* kind_name(int k) {
    static const char* names[] = {"ball", "distance", "plane", "line", "hinge", "slider", "weld"};
    return names[k];
}

static int check_fd(sni_maxc_kind kind, int world, double* worst_j, double* worst_jd) {
    const double h = 1e-5;
    for (int trial = 0; trial < 200; trial++) {
        sni_maxc_con k;
        sni_maxc_body a, b;
        random_body(&a);
        random_body(&b);
        random_con(&k, kind);
        const sni_maxc_body* pb = world ? NULL : &b;
        double c0[6], Ja[36], Jb[36], jd[6], jx[6];
        int n = sni_maxc_rows(kind);
        SNT_STATUS_OK(sni_maxc_eval(&k, &a, pb, c0, Ja, Jb, jd));
        SNT_CHECK(jxdot(&k, &a, pb, jx) == 0);
        sni_maxc_body ap, am, bp, bm;
        advance(&ap, &a, h);
        advance(&am, &a, -h);
        advance(&bp, &b, h);
        advance(&bm, &b, -h);
        double cp[6], cm[6], jxp[6], jxm[6], cfd[6], jfd[6];
        SNT_STATUS_OK(sni_maxc_eval(&k, &ap, world ? NULL : &bp, cp, NULL, NULL, NULL));
        SNT_STATUS_OK(sni_maxc_eval(&k, &am, world ? NULL : &bm, cm, NULL, NULL, NULL));
        SNT_CHECK(jxdot(&k, &ap, world ? NULL : &bp, jxp) == 0);
        SNT_CHECK(jxdot(&k, &am, world ? NULL : &bm, jxm) == 0);
        for (int i = 0; i < n; i++) {
            cfd[i] = (cp[i] - cm[i]) / (2 * h);
            jfd[i] = (jxp[i] - jxm[i]) / (2 * h);
        }
        double ej = rel(jx, cfd, n, 1e-2), ed = rel(jd, jfd, n, 1e-2);
        *worst_j = fmax(*worst_j, ej);
        *worst_jd = fmax(*worst_jd, ed);
        SNT_CHECK_MSG(ej <= 1e-7, "%s%s trial %d: J x-dot against d/dt c: rel %.3g",
                      kind_name(kind), world ? " (world)" : "", trial, ej);
        SNT_CHECK_MSG(ed <= 1e-7, "%s%s trial %d: J-dot x-dot against d/dt (J x-dot): rel %.3g",
                      kind_name(kind), world ? " (world)" : "", trial, ed);
    }
    return 0;
}

static int test_constraints_finite_differences(void) {
    reseed(0x5eed0003u);
    for (int kind = 0; kind < SNI_MAXC_KIND_COUNT; kind++)
        for (int world = 0; world < 2; world++) {
            double wj = 0, wd = 0;
            if (check_fd((sni_maxc_kind)kind, world, &wj, &wd)) return 1;
            printf("  %-8s %-6s 200 states: J x-dot rel %.1e, J-dot x-dot rel %.1e\n",
                   kind_name(kind), world ? "world" : "bodies", wj, wd);
        }
    return 0;
}

// a placed on b so that k holds, moved along its free directions when `free` (else exactly at
// the joint frames' coincidence; the distance: its anchor `length` away); when `violate`, a
// random relative rotation and offset instead
static void place(sni_maxc_body* a, const sni_maxc_body* b, const sni_maxc_con* k, int free,
                  int violate) {
    double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, T[3] = {0, 0, 0}, u[3];
    double Fb[9], fb[3][3];
    mul3(Fb, b->R, k->Qb);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            fb[i][j] = Fb[3 * j + i];
    double t1 = urand(), t2 = urand();
    if (violate) {
        random_rotation(G);
        random_unit(u);
        for (int i = 0; i < 3; i++)
            T[i] = 0.2 * u[i];
    } else if (k->kind == SNI_MAXC_DISTANCE) {
        random_rotation(G);
        random_unit(u);
        for (int i = 0; i < 3; i++)
            T[i] = k->length * u[i];
    } else if (free) {
        double e1[3] = {1, 0, 0};
        switch (k->kind) {
        case SNI_MAXC_BALL:
            random_rotation(G);
            break;
        case SNI_MAXC_PLANE:
            random_rotation(G);
            for (int i = 0; i < 3; i++)
                T[i] = t1 * fb[1][i] + t2 * fb[2][i];
            break;
        case SNI_MAXC_LINE:
            random_rotation(G);
            for (int i = 0; i < 3; i++)
                T[i] = t1 * fb[0][i];
            break;
        case SNI_MAXC_HINGE:
            rot_axis(G, e1, 3 * t1);
            break;
        case SNI_MAXC_SLIDER:
            for (int i = 0; i < 3; i++)
                T[i] = t1 * fb[0][i];
            break;
        default:
            break;
        }
    }
    // R_a Q_a = R_b Q_b G, p_a = p_b + T
    double FbG[9], pb[3], sa[3];
    mul3(FbG, Fb, G);
    mul3_t(a->R, FbG, k->Qa);
    mulv(pb, b->R, k->rb);
    mulv(sa, a->R, k->ra);
    for (int i = 0; i < 3; i++)
        a->x[i] = b->x[i] + pb[i] + T[i] - sa[i];
}

static int test_constraints_zero_when_satisfied(void) {
    reseed(0x5eed0004u);
    for (int kind = 0; kind < SNI_MAXC_KIND_COUNT; kind++)
        for (int world = 0; world < 2; world++)
            for (int trial = 0; trial < 50; trial++) {
                sni_maxc_con k;
                sni_maxc_body a, b;
                random_body(&a);
                random_body(&b);
                if (world) {
                    memset(&b, 0, sizeof b);
                    b.R[0] = b.R[4] = b.R[8] = 1;
                }
                random_con(&k, (sni_maxc_kind)kind);
                const sni_maxc_body* pb = world ? NULL : &b;
                int n = sni_maxc_rows(k.kind);
                double c[6], cmax;
                for (int mode = 0; mode < 3; mode++) { // coincident, free motion, violated
                    place(&a, &b, &k, mode == 1, mode == 2);
                    SNT_STATUS_OK(sni_maxc_eval(&k, &a, pb, c, NULL, NULL, NULL));
                    cmax = 0;
                    for (int i = 0; i < n; i++)
                        cmax = fmax(cmax, fabs(c[i]));
                    if (mode < 2)
                        SNT_CHECK_MSG(cmax <= 1e-13, "%s trial %d mode %d: |c| %.3g",
                                      kind_name(kind), trial, mode, cmax);
                    else
                        SNT_CHECK_MSG(cmax >= 1e-4, "%s trial %d: violated but |c| %.3g",
                                      kind_name(kind), trial, cmax);
                }
            }
    return 0;
}

// each row of a hinge, slider and weld is independent at a satisfied state: J J^T's smallest
// pivot (Cholesky of the rows' Gram matrix over both slices) is far from zero
static int test_constraints_rows_independent(void) {
    reseed(0x5eed0005u);
    double pworst = INFINITY;
    for (int kind = 0; kind < SNI_MAXC_KIND_COUNT; kind++)
        for (int trial = 0; trial < 50; trial++) {
            sni_maxc_con k;
            sni_maxc_body a, b;
            random_body(&a);
            random_body(&b);
            random_con(&k, (sni_maxc_kind)kind);
            place(&a, &b, &k, 1, 0);
            double Ja[36], Jb[36], G[36];
            int n = sni_maxc_rows(k.kind);
            SNT_STATUS_OK(sni_maxc_eval(&k, &a, &b, NULL, Ja, Jb, NULL));
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int m = 0; m < 6; m++)
                        s += Ja[6 * i + m] * Ja[6 * j + m] + Jb[6 * i + m] * Jb[6 * j + m];
                    G[n * i + j] = s;
                }
            // the pivots of J J^T = L L^T (dense.h's Cholesky): L_jj^2
            SNT_STATUS_OK(sni_chol(G, n, 0));
            double pmin = INFINITY;
            for (int j = 0; j < n; j++) {
                double d = G[n * j + j] * G[n * j + j];
                pmin = fmin(pmin, d);
                SNT_CHECK_MSG(d > 0.5, "%s trial %d: pivot %d is %.3g", kind_name(kind), trial, j,
                              d);
            }
            pworst = fmin(pworst, pmin);
        }
    printf("  smallest pivot of J J^T over 350 satisfied states: %.3g\n", pworst);
    return 0;
}

static int test_constraints_refusals(void) {
    reseed(0x5eed0006u);
    sni_maxc_con k;
    sni_maxc_body a, b;
    random_body(&a);
    random_body(&b);
    random_con(&k, SNI_MAXC_BALL);
    double c[6] = {7, 7, 7, 7, 7, 7};
    SNT_CHECK(sni_maxc_eval(NULL, &a, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    SNT_CHECK(sni_maxc_eval(&k, NULL, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    k.kind = SNI_MAXC_KIND_COUNT;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    k.kind = (sni_maxc_kind)-1;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    SNT_CHECK(sni_maxc_rows(SNI_MAXC_KIND_COUNT) == 0);
    k.kind = SNI_MAXC_DISTANCE;
    k.length = 0;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    k.length = NAN;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    k.length = 1;
    k.kind = SNI_MAXC_BALL;
    place(&a, &b, &k, 0, 0); // anchors coincide: no direction for a distance
    k.kind = SNI_MAXC_DISTANCE;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_ARG);
    k.kind = SNI_MAXC_WELD;
    a.w[1] = NAN;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_NONFINITE);
    a.w[1] = 0;
    b.R[4] = INFINITY;
    SNT_CHECK(sni_maxc_eval(&k, &a, &b, c, NULL, NULL, NULL) == SN_ERR_NONFINITE);
    for (int i = 0; i < 6; i++)
        SNT_CHECK(c[i] == 7); // untouched by every refusal
    return 0;
}

static int test_constraints_no_allocation(void) {
    reseed(0x5eed0007u);
    sni_maxc_con k;
    sni_maxc_body a, b;
    random_body(&a);
    random_body(&b);
    double c[6], Ja[36], Jb[36], jd[6];
    tc_heap_install();
    long before = tc_heap_calls();
    for (int kind = 0; kind < SNI_MAXC_KIND_COUNT; kind++) {
        random_con(&k, (sni_maxc_kind)kind);
        SNT_STATUS_OK(sni_maxc_eval(&k, &a, &b, c, Ja, Jb, jd));
        SNT_STATUS_OK(sni_maxc_eval(&k, &a, NULL, c, Ja, NULL, jd));
    }
    SNT_CHECK(tc_heap_calls() == before);
    return 0;
}

// ---- the gear's coordinates (src/maxc/gear.c): a hinge's angle, a slider's displacement ----

// q, its slices' J x-dot and J-dot x-dot of a hinge or slider coordinate at (a, b)
static int coord(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b, double ref,
                 double* q, double* jx, double* jd) {
    double Ja[6], Jb[6];
    if (sni_mx_coord(k, a, b, ref, q, Ja, Jb, jd) != SN_OK) return -1;
    double s = 0;
    for (int j = 0; j < 3; j++) {
        s += Ja[j] * a->v[j] + Ja[3 + j] * a->w[j];
        if (b) s += Jb[j] * b->v[j] + Jb[3 + j] * b->w[j];
    }
    *jx = s;
    return 0;
}

static int test_gear_coordinates_finite_differences(void) {
    reseed(0x5eed0007u);
    const double h = 1e-5;
    for (int kind = SNI_MAXC_HINGE; kind <= SNI_MAXC_SLIDER; kind++)
        for (int world = 0; world < 2; world++) {
            double wj = 0, wd = 0;
            for (int trial = 0; trial < 200; trial++) {
                sni_maxc_con k;
                sni_maxc_body a, b;
                random_body(&a);
                random_body(&b);
                random_con(&k, (sni_maxc_kind)kind);
                const sni_maxc_body* pb = world ? NULL : &b;
                double q, jx, jd;
                SNT_CHECK(coord(&k, &a, pb, 0, &q, &jx, &jd) == 0);
                sni_maxc_body ap, am, bp, bm;
                advance(&ap, &a, h);
                advance(&am, &a, -h);
                advance(&bp, &b, h);
                advance(&bm, &b, -h);
                double qp, qm, jxp, jxm, t;
                SNT_CHECK(coord(&k, &ap, world ? NULL : &bp, q, &qp, &jxp, &t) == 0);
                SNT_CHECK(coord(&k, &am, world ? NULL : &bm, q, &qm, &jxm, &t) == 0);
                double cfd = (qp - qm) / (2 * h), jfd = (jxp - jxm) / (2 * h);
                double ej = fabs(jx - cfd) / fmax(fabs(cfd), 1e-2);
                double ed = fabs(jd - jfd) / fmax(fabs(jfd), 1e-2);
                wj = fmax(wj, ej);
                wd = fmax(wd, ed);
                SNT_CHECK_MSG(ej <= 1e-7 && ed <= 1e-7,
                              "%s coordinate%s trial %d: J x-dot rel %.3g, J-dot x-dot rel %.3g",
                              kind_name(kind), world ? " (world)" : "", trial, ej, ed);
            }
            printf("  %-6s coordinate %-6s 200 states: J x-dot rel %.1e, J-dot x-dot rel %.1e\n",
                   kind_name(kind), world ? "world" : "bodies", wj, wd);
        }
    return 0;
}

// the coordinates' values: b's frame turned by theta about a's axis 1 (any theta, unwrapped
// from a reference), b's anchor moved by s along it
static int test_gear_coordinates_values(void) {
    reseed(0x5eed0008u);
    for (int trial = 0; trial < 100; trial++) {
        sni_maxc_con k;
        sni_maxc_body a, b;
        random_body(&a);
        random_con(&k, SNI_MAXC_HINGE);
        double theta = 12 * urand(), s = urand();
        // F_b = F_a Rx(theta): R_b = R_a Q_a Rx Q_b^T; anchors: p_b = p_a + s f_a1
        const double ex[3] = {1, 0, 0};
        double Rx[9], T[9], U[9], Fa[9];
        rot_axis(Rx, ex, theta);
        mul3(Fa, a.R, k.Qa);
        mul3(T, Fa, Rx);
        mul3_t(U, T, k.Qb);
        b = a;
        memcpy(b.R, U, sizeof U);
        double sa[3], sb[3], fa1[3] = {Fa[0], Fa[3], Fa[6]};
        mulv(sa, a.R, k.ra);
        mulv(sb, b.R, k.rb);
        for (int i = 0; i < 3; i++)
            b.x[i] = a.x[i] + sa[i] + s * fa1[i] - sb[i];
        double q, Ja[6], Jb[6], jd;
        double ref = theta + 3 * urand(); // within pi: the unwrapped angle is theta itself
        SNT_STATUS_OK(sni_mx_coord(&k, &a, &b, ref, &q, Ja, Jb, &jd));
        SNT_NEAR(q, theta, 1e-12);
        k.kind = SNI_MAXC_SLIDER;
        SNT_STATUS_OK(sni_mx_coord(&k, &a, &b, 0, &q, Ja, Jb, &jd));
        SNT_NEAR(q, s, 1e-12);
    }
    sni_maxc_con k;
    sni_maxc_body a;
    random_body(&a);
    random_con(&k, SNI_MAXC_BALL);
    double q, Ja[6], Jb[6], jd;
    SNT_CHECK(sni_mx_coord(&k, &a, NULL, 0, &q, Ja, Jb, &jd) == SN_ERR_ARG);
    return 0;
}

SNT_SUITE(SNT_TEST(test_constraints_finite_differences),
          SNT_TEST(test_constraints_zero_when_satisfied),
          SNT_TEST(test_constraints_rows_independent), SNT_TEST(test_constraints_refusals),
          SNT_TEST(test_constraints_no_allocation),
          SNT_TEST(test_gear_coordinates_finite_differences),
          SNT_TEST(test_gear_coordinates_values))
