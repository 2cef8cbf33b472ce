// SPDX-License-Identifier: Apache-2.0
// test_step.c: the simulation step of seed 000 ("Joint torque of a simulation step" steps 1-6,
// "PD Controller", "Actuators", "Integration Steps"), one assertion per numbered statement, with
// the analytic cases of shared/spec/validation.md (B1-B5). docs/step.md documents what is pinned
// here. Every test prints the numbers it measured.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81


// ---- small helpers ----

static char* strf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char* s = malloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static double clampd(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

static double max_abs(const double* x, int n) {
    double r = 0;
    for (int i = 0; i < n; i++)
        r = fmax(r, fabs(x[i]));
    return r;
}

// a model, a world with one system of it, and the time step
typedef struct rig {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} rig;

static int rig_open_model(rig* r, sn_model* m, double dt) {
    memset(r, 0, sizeof *r);
    SNT_CHECK(m);
    r->m = m;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    SNT_STATUS_OK(sn_world_create(&o, &r->w, NULL));
    SNT_STATUS_OK(sn_world_add_system(r->w, m, &r->s, NULL));
    return 0;
}

// takes ownership of xml
static int rig_open(rig* r, char* xml, double dt, int allow_warnings) {
    sn_model* m = tc_load_string(xml, allow_warnings);
    free(xml);
    return rig_open_model(r, m, dt);
}

static void rig_close(rig* r) {
    sn_world_destroy(r->w);
    sn_model_destroy(r->m);
    memset(r, 0, sizeof *r);
}

static double total_energy(sn_system* s) {
    return sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
}

// ---- quaternions (w, x, y, z) ----

static void qmul(double* d, const double* a, const double* b) {
    double r[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                   a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                   a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                   a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
    memcpy(d, r, sizeof r);
}

static void qconj(double* d, const double* a) {
    d[0] = a[0], d[1] = -a[1], d[2] = -a[2], d[3] = -a[3];
}

// rotation vector of a unit quaternion, the shorter rotation
static void qlog(double* r, const double* q) {
    double s = q[0] < 0 ? -1 : 1;
    double w = s * q[0], x = s * q[1], y = s * q[2], z = s * q[3];
    double n = sqrt(x * x + y * y + z * z);
    double k = n > 1e-300 ? 2 * atan2(n, w) / n : 2;
    r[0] = k * x, r[1] = k * y, r[2] = k * z;
}

static void qexp(double* q, const double* r) {
    double th = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    double s = th > 1e-300 ? sin(th / 2) / th : 0.5;
    q[0] = cos(th / 2), q[1] = s * r[0], q[2] = s * r[1], q[3] = s * r[2];
}

// v' = q v q*
static void qrot(double* o, const double* q, const double* v) {
    double p[4] = {0, v[0], v[1], v[2]}, c[4], t[4];
    qconj(c, q);
    qmul(t, q, p);
    qmul(t, t, c);
    o[0] = t[1], o[1] = t[2], o[2] = t[3];
}

// ---- analytic pendulum ----

// complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean
static double ellip_k(double k) {
    double a = 1, b = sqrt(1 - k * k);
    for (int i = 0; i < 40; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return M_PI / (2 * a);
}

// period of a pendulum whose small-swing period is 2 pi sqrt(leq / g), at amplitude A
static double pendulum_period(double leq, double A) {
    return 4 * sqrt(leq / GRAV) * ellip_k(sin(A / 2));
}

// The swing growth of TRAPEZOID and EULER, from the schemes of seed 000 step 6. With
// E = u^2/2 + V(q), V = w^2 (1 - cos q), a = -V'(q), one step changes E by
//   TRAPEZOID (u+ = u + h a, q+ = q + h (u + u+)/2):  h^2/2 V''(q) u^2         + O(h^3)
//   EULER     (u+ = u + h a, q+ = q + h u):           h^2/2 (V''(q) u^2 + a^2) + O(h^3)
//   SEMI_IMPLICIT (q+ = q + h u+):                    h^2/2 (V''(q) u^2 - a^2), zero on average
// Averaged over one swing of amplitude A (sin(q/2) = k sin(phi), k = sin(A/2), dt ~ dphi /
// sqrt(1 - k^2 sin^2 phi)), dE/dt = h/2 <...>, and dA/dt = (dE/dt) / (w^2 sin A). For small A
// this is the linear oscillator: amplitude growth per step sqrt(1 + h^2 w^2 / 2) (TRAPEZOID) and
// sqrt(1 + h^2 w^2) (EULER). Returns dA/dt divided by h w^2.
static double swing_rate(double A, int euler) {
    double k2 = sin(A / 2) * sin(A / 2), num = 0, den = 0;
    const int n = 400; // Simpson on [0, pi/2]
    for (int i = 0; i <= n; i++) {
        double p = 0.5 * M_PI * i / n, wt = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        double s2 = sin(p) * sin(p), c2 = 1 - s2, r = 1 / sqrt(1 - k2 * s2);
        double f = 4 * k2 * c2 * (1 - 2 * k2 * s2);  // V'' u^2 / w^4
        if (euler) f += 4 * k2 * s2 * (1 - k2 * s2); // a^2 / w^4
        num += wt * f * r;
        den += wt * r;
    }
    return 0.5 * (num / den) / sin(A);
}

// amplitude after time t from A0, for h w^2 = hw2
static double swing_predicted(double A0, double hw2, double t, int euler) {
    double A = A0;
    const int n = 200;
    double dt = t / n;
    for (int i = 0; i < n; i++) {
        double k1 = hw2 * swing_rate(A, euler);
        double k2 = hw2 * swing_rate(A + 0.5 * dt * k1, euler);
        double k3 = hw2 * swing_rate(A + 0.5 * dt * k2, euler);
        double k4 = hw2 * swing_rate(A + dt * k3, euler);
        A += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return A;
}

// a point pendulum of length L (the bob's inertia 1e-9 kg m^2), hinge about y at the origin;
// q is the angle from the downward vertical
static char* pendulum_xml(double L) {
    return strf("<robot name=\"pendulum\"><link name=\"world\"/><link name=\"bob\"><inertial>"
                "<origin xyz=\"0 0 %.17g\"/><mass value=\"1\"/><inertia ixx=\"1e-9\" ixy=\"0\" "
                "ixz=\"0\" iyy=\"1e-9\" iyz=\"0\" izz=\"1e-9\"/></inertial></link>"
                "<joint name=\"hinge\" type=\"continuous\"><parent link=\"world\"/>"
                "<child link=\"bob\"/><axis xyz=\"0 1 0\"/></joint></robot>",
                -L);
}

static double pendulum_leq(double L) {
    return (L * L + 1e-9) / L;
}

typedef struct swing {
    double peak;   // max |q| over the last period
    double t_peak; // when
    double max_de; // max |E - E0| over the run
    double e0;
} swing;

static int run_swing(double L, double A0, sn_scheme sc, double dt, double dur, swing* out) {
    rig r;
    if (rig_open(&r, pendulum_xml(L), dt, 0)) return 1;
    double q0 = A0, u0 = 0;
    SNT_STATUS_OK(sn_system_set_state(r.s, &q0, 1, &u0, 1));
    SNT_STATUS_OK(sn_system_set_scheme(r.s, sc));
    double window = pendulum_period(pendulum_leq(L), A0);
    long n = lround(dur / dt);
    memset(out, 0, sizeof *out);
    out->e0 = total_energy(r.s);
    for (long i = 1; i <= n; i++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double t = (double)i * dt, q = sn_system_q(r.s)[0];
        if (t >= dur - window && fabs(q) > out->peak) out->peak = fabs(q), out->t_peak = t;
        out->max_de = fmax(out->max_de, fabs(total_energy(r.s) - out->e0));
    }
    SNT_CHECK(sn_system_scheme_used(r.s) == sc);
    rig_close(&r);
    return 0;
}

// ---- 1. the undamped pendulum at 1 rad, 20 s, dt = 1 ms (seed 000 step 6; validation B4) ----

static int test_pendulum_swing_per_scheme(void) {
    const double L = 1, A0 = 1, h = 1e-3, dur = 20;
    double hw2 = h * GRAV / pendulum_leq(L);
    swing sw[4];
    const char* names[4] = {"SEMI_IMPLICIT", "TRAPEZOID", "EULER", "RUNGE_KUTTA_4"};
    for (int sc = 0; sc < 4; sc++) {
        SNT_CHECK(run_swing(L, A0, (sn_scheme)sc, h, dur, &sw[sc]) == 0);
        printf("  L = 1 m, 1 rad, 20 s: %-13s swing %.7f rad (%+.4f %%) at t = %.3f s, "
               "max |dE| %.3e J\n",
               names[sc], sw[sc].peak, 100 * (sw[sc].peak - 1), sw[sc].t_peak, sw[sc].max_de);
    }
    // SEMI_IMPLICIT keeps the swing within 0.1 % (seed 000)
    SNT_CHECK_MSG(fabs(sw[0].peak - A0) < 1e-3 * A0, "SEMI_IMPLICIT swing %.7f", sw[0].peak);
    SNT_NEAR(sw[0].peak, 1.0000009, 5e-7); // docs/step.md's figure
    // TRAPEZOID and EULER grow as the averaged analysis of their schemes predicts, within 0.2 %
    // of the growth; the linear-oscillator formula overestimates at 1 rad
    for (int e = 0; e < 2; e++) {
        const swing* s = &sw[1 + e];
        double pred = swing_predicted(A0, hw2, s->t_peak, e);
        double lin = A0 * exp(s->t_peak * hw2 * (e ? 0.5 : 0.25));
        printf("  %s: measured growth %.5f %%, predicted %.5f %% (linear oscillator: %.3f %%)\n",
               names[1 + e], 100 * (s->peak - A0), 100 * (pred - A0), 100 * (lin - A0));
        SNT_CHECK(s->peak > A0 * 1.03);
        // docs/step.md: 4.49638 % against 4.49637, 9.19427 % against 9.19431 (asserted 2e-5 of it)
        SNT_NEAR(s->peak - A0, pred - A0, 2e-5 * (pred - A0));
        SNT_CHECK(lin - A0 > 1.05 * (pred - A0));
    }
    // the growth at 1 m and 1 rad is 4.5 % (TRAPEZOID), 9.2 % (EULER)
    SNT_NEAR(sw[1].peak, 1.0449638, 2e-7); // docs/step.md's figures, to their last digit
    SNT_NEAR(sw[2].peak, 1.0919427, 2e-7);
    // RK4 keeps the swing to 1e-6
    SNT_NEAR(sw[3].peak, A0, 1e-6);
    // |dE|: RK4 < SEMI_IMPLICIT < TRAPEZOID < EULER (MuJoCo's EnergyConservation ordering)
    SNT_CHECK(sw[3].max_de < 1e-3 * sw[0].max_de);
    SNT_CHECK(sw[3].max_de < 5e-12); // docs/step.md: 1.7e-12 J
    SNT_CHECK(sw[0].max_de < 0.1 * sw[1].max_de);
    SNT_CHECK(sw[1].max_de < sw[2].max_de);
    // SEMI_IMPLICIT's energy error stays O(h): its modified energy is E - h/2 u V'(q), so
    // |E - E0| <= h/2 max |u V'|, which is h w E_swing / 2 for a linear oscillator
    double eswing = GRAV * L * (1 - cos(A0)), bound = h * sqrt(hw2 / h) * eswing;
    printf("  SEMI_IMPLICIT max |dE| %.4e J, bound h w E_swing %.4e J\n", sw[0].max_de, bound);
    SNT_CHECK(sw[0].max_de < bound);
    return 0;
}

// small swings: the growth per step is exactly that of the linear oscillator
static int test_pendulum_swing_linear_regime(void) {
    const double L = 1, A0 = 0.02, h = 1e-3, dur = 20;
    double hw2 = h * GRAV / pendulum_leq(L), h2w2 = h * hw2;
    for (int e = 0; e < 2; e++) {
        swing s;
        SNT_CHECK(run_swing(L, A0, e ? SN_SCHEME_EULER : SN_SCHEME_TRAPEZOID, h, dur, &s) == 0);
        double n = s.t_peak / h;
        double lin = A0 * pow(1 + (e ? 1.0 : 0.5) * h2w2, 0.5 * n);
        double pred = swing_predicted(A0, hw2, s.t_peak, e);
        printf("  %s at %.2f rad: growth %.5f %%, linear sqrt(1 + h^2 w^2%s)^n %.5f %%, "
               "averaged %.5f %%\n",
               e ? "EULER" : "TRAPEZOID", A0, 100 * (s.peak / A0 - 1), e ? "" : "/2",
               100 * (lin / A0 - 1), 100 * (pred / A0 - 1));
        // within 1e-4 of the growth (docs/step.md; the nonlinearity at 0.02 rad is 1e-4 of it;
        // measured 2.5e-5 and 6.7e-5 from the linear formula)
        SNT_NEAR(s.peak - A0, lin - A0, 1e-4 * (lin - A0));
        SNT_NEAR(s.peak - A0, pred - A0, 1e-4 * (pred - A0));
    }
    return 0;
}

// the length at which TRAPEZOID's swing grows by 9 % in 20 s (the number of seed 000)
static int test_pendulum_trapezoid_nine_percent(void) {
    const double A0 = 1, h = 1e-3, dur = 20;
    double lo = 0.2, hi = 1;
    for (int i = 0; i < 40; i++) {
        double mid = 0.5 * (lo + hi);
        double g = swing_predicted(A0, h * GRAV / pendulum_leq(mid), dur, 0) - A0;
        if (g > 0.09)
            lo = mid;
        else
            hi = mid;
    }
    double L = 0.5 * (lo + hi);
    swing s;
    SNT_CHECK(run_swing(L, A0, SN_SCHEME_TRAPEZOID, h, dur, &s) == 0);
    double pred = swing_predicted(A0, h * GRAV / pendulum_leq(L), s.t_peak, 0);
    printf("  TRAPEZOID grows 9 %% at L = %.4f m: measured %.4f %% (last peak at %.3f s), "
           "predicted %.4f %%\n",
           L, 100 * (s.peak - A0), s.t_peak, 100 * (pred - A0));
    SNT_CHECK(L > 0.45 && L < 0.6);
    SNT_CHECK(s.peak > 1.08 && s.peak < 1.10);
    SNT_NEAR(s.peak - A0, pred - A0, 1e-4 * (pred - A0)); // 8.7786 % against 8.7786
    // SEMI_IMPLICIT at the same length keeps the swing within 0.1 %
    SNT_CHECK(run_swing(L, A0, SN_SCHEME_SEMI_IMPLICIT, h, dur, &s) == 0);
    printf("  SEMI_IMPLICIT at L = %.4f m: %+.5f %%\n", L, 100 * (s.peak - A0));
    SNT_CHECK(fabs(s.peak - A0) < 1e-3);
    return 0;
}

// ---- 2. free fall per scheme (validation B1) ----

static int test_free_fall_per_scheme(void) {
    const double h = 1e-3, t = 1;
    const char* slider = "<robot name=\"slider\"><link name=\"world\"/><link name=\"b\"><inertial>"
                         "<mass value=\"2\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" "
                         "iyz=\"0\" izz=\"0.1\"/></inertial></link><joint name=\"z\" "
                         "type=\"prismatic\"><parent link=\"world\"/><child link=\"b\"/>"
                         "<axis xyz=\"0 0 1\"/></joint></robot>";
    const char* box = "<robot name=\"box\"><link name=\"b\"><inertial><mass value=\"2\"/>"
                      "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" "
                      "izz=\"0.3\"/></inertial></link></robot>";
    const double expect[4] = {-0.5 * GRAV * h * t, 0, 0.5 * GRAV * h * t, 0};
    for (int model = 0; model < 2; model++)
        for (int sc = 0; sc < 4; sc++) {
            rig r;
            SNT_CHECK(rig_open(&r, strf("%s", model ? box : slider), h, 0) == 0);
            SNT_STATUS_OK(sn_system_set_scheme(r.s, (sn_scheme)sc));
            for (int i = 0; i < 1000; i++)
                SNT_STATUS_OK(sn_world_integrate(r.w));
            int zi = model ? 2 : 0;
            double z = sn_system_q(r.s)[zi], v = sn_system_u(r.s)[zi];
            double err = z - (-0.5 * GRAV * t * t);
            printf("  free fall, %s, scheme %d: z(1 s) error %+.12e m, v error %+.1e m/s\n",
                   model ? "floating box" : "prismatic", sc, err, v + GRAV * t);
            // docs/step.md: z to 3e-14 of the closed form, v to 1e-13 (asserted 1e-13, 2e-13)
            SNT_NEAR(err, expect[sc], 1e-13);
            SNT_NEAR(v, -GRAV * t, 2e-13);
            SNT_NEAR(sn_world_time(r.w), t, 1e-12);
            if (model) { // no drift sideways, no rotation
                SNT_NEAR(sn_system_q(r.s)[0], 0, 0);
                SNT_NEAR(sn_system_q(r.s)[3], 1, 0);
            }
            rig_close(&r);
        }
    printf("  SEMI_IMPLICIT error -1/2 g h t = %.6e m\n", -0.5 * GRAV * h * t);
    return 0;
}

// ---- 3. mass-spring-damper (validation B5) ----

static const char* msd_urdf(int with_spring) {
    return with_spring
               ? "<robot name=\"msd\"><link name=\"world\"/><link name=\"b\"><inertial>"
                 "<mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" "
                 "iyz=\"0\" izz=\"0.1\"/></inertial></link><joint name=\"x\" type=\"prismatic\">"
                 "<parent link=\"world\"/><child link=\"b\"/><axis xyz=\"1 0 0\"/>"
                 "<dynamics damping=\"2\" stiffness=\"100\" spring_mount=\"0\"/></joint></robot>"
               : "<robot name=\"msd\"><link name=\"world\"/><link name=\"b\"><inertial>"
                 "<mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" "
                 "iyz=\"0\" izz=\"0.1\"/></inertial></link><joint name=\"x\" type=\"prismatic\">"
                 "<parent link=\"world\"/><child link=\"b\"/><axis xyz=\"1 0 0\"/></joint>"
                 "</robot>";
}

// x(t) of the MSD from x0 = 0.1 at rest; api: the spring and damper set through the API
static int run_msd(double h, sn_scheme sc, int api, double* x_end, double* xs, int nsave) {
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", msd_urdf(!api)), h, 0) == 0);
    if (api) {
        double b = 2;
        SNT_STATUS_OK(sn_system_set_joint_damping(r.s, &b, 1));
        SNT_STATUS_OK(sn_system_add_spring(r.s, 0, 60, 0.25));
        SNT_STATUS_OK(sn_system_add_spring(r.s, 0, 40, -0.375)); // together: 100 at rest 0
    }
    double k, rest;
    sn_system_springs(r.s, &k, &rest);
    SNT_NEAR(k, 100, 0);
    SNT_NEAR(rest, 0, 1e-17);
    double x0 = 0.1;
    SNT_STATUS_OK(sn_system_set_q(r.s, &x0, 1));
    // 1/2 k x0^2 (the API's two springs, 60 at 0.25 and 40 at -0.375, balance at 0 like the
    // URDF's one)
    SNT_NEAR(sn_system_spring_energy(r.s), 0.5, 1e-15);
    SNT_STATUS_OK(sn_system_set_scheme(r.s, sc));
    long n = lround(1 / h);
    for (long i = 0; i < n; i++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        if (xs && i < nsave) xs[2 * i] = sn_system_q(r.s)[0], xs[2 * i + 1] = sn_system_u(r.s)[0];
    }
    *x_end = sn_system_q(r.s)[0];
    rig_close(&r);
    return 0;
}

static int test_mass_spring_damper(void) {
    const double m = 1, k = 100, c = 2, x0 = 0.1;
    double wn = sqrt(k / m), zeta = c / (2 * sqrt(k * m)), wd = wn * sqrt(1 - zeta * zeta);
    double exact = exp(-zeta * wn) * (x0 * cos(wd) + zeta * wn * x0 / wd * sin(wd));
    printf("  x(1 s) exact %.10f m\n", exact);
    SNT_NEAR(exact, -0.0336852, 5e-8);
    // steps 3, 4 and 6 are exactly this recurrence: (m + w) du = h (-c u - k x)
    const double h = 1e-3;
    static double xs[2 * 1000], ys[2 * 1000];
    for (int sc = 0; sc < 3; sc++) {
        double xe, xa;
        SNT_CHECK(run_msd(h, (sn_scheme)sc, 0, &xe, xs, 1000) == 0);
        SNT_CHECK(run_msd(h, (sn_scheme)sc, 1, &xa, ys, 1000) == 0);
        // the URDF spring and damper are the API ones
        SNT_CHECK(memcmp(xs, ys, sizeof xs) == 0);
        double w = 0.5 * h * c + 0.25 * h * h * k, x = x0, u = 0, dev = 0;
        for (int i = 0; i < 1000; i++) {
            double un = u + h * (-c * u - k * x) / (m + w);
            x += h * (sc == 0 ? un : sc == 1 ? 0.5 * (u + un) : u);
            u = un;
            dev = fmax(dev, fmax(fabs(x - xs[2 * i]), fabs(u - xs[2 * i + 1])));
        }
        printf("  scheme %d: x(1 s) = %.10f, error %+.3e; max deviation from the recurrence "
               "%.1e\n",
               sc, xe, xe - exact, dev);
        SNT_CHECK(dev < 2e-15); // docs/step.md: 6e-16
        // docs/step.md's errors: +9.06e-5, -7.7e-4 (TRAPEZOID), -1.65e-3 (EULER)
        const double err_doc[3] = {9.062e-5, -7.705e-4, -1.655e-3};
        SNT_NEAR(xe - exact, err_doc[sc], 1e-7);
    }
    // SEMI_IMPLICIT converges like O(dt)
    double e1, e2, e3, r1, r2;
    SNT_CHECK(run_msd(1e-3, SN_SCHEME_SEMI_IMPLICIT, 0, &e1, NULL, 0) == 0);
    SNT_CHECK(run_msd(5e-4, SN_SCHEME_SEMI_IMPLICIT, 0, &e2, NULL, 0) == 0);
    e1 -= exact, e2 -= exact;
    printf("  SEMI_IMPLICIT error %.4e (dt 1e-3), %.4e (dt 5e-4), ratio %.4f\n", e1, e2, e1 / e2);
    SNT_CHECK(fabs(e1) < 2e-4 && fabs(e2) < 1e-4);
    SNT_CHECK(e1 / e2 > 1.9 && e1 / e2 < 2.1);
    // RUNGE_KUTTA_4 is accurate, and fourth order
    SNT_CHECK(run_msd(1e-3, SN_SCHEME_RK4, 0, &r1, NULL, 0) == 0);
    SNT_CHECK(run_msd(5e-4, SN_SCHEME_RK4, 0, &r2, NULL, 0) == 0);
    SNT_CHECK(run_msd(1e-3, SN_SCHEME_RK4, 1, &e3, NULL, 0) == 0);
    r1 -= exact, r2 -= exact;
    printf("  RUNGE_KUTTA_4 error %.4e (dt 1e-3), %.4e (dt 5e-4), ratio %.3f\n", r1, r2, r1 / r2);
    SNT_CHECK(fabs(r1) < 5e-11);                 // docs/step.md: -2.4e-11
    SNT_CHECK(r1 / r2 > 15.5 && r1 / r2 < 16.5); // fourth order: 15.96
    SNT_NEAR(e3, r1 + exact, 1e-15);
    return 0;
}

// ---- 4. pendulum periods (validation B2, B3) ----

// period from the first and third downward zero crossings, linear interpolation in between
static int measure_period(sn_model* m, double A0, double h, double* period) {
    rig r;
    SNT_CHECK(rig_open_model(&r, m, h) == 0);
    double q0 = A0, u0 = 0;
    SNT_STATUS_OK(sn_system_set_state(r.s, &q0, 1, &u0, 1));
    SNT_STATUS_OK(sn_system_set_scheme(r.s, SN_SCHEME_RK4));
    double tc[3];
    int nc = 0;
    double qp = A0;
    for (long i = 1; nc < 3 && i < 10000000; i++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double q = sn_system_q(r.s)[0];
        if ((qp > 0) != (q > 0)) tc[nc++] = ((double)i - 1 + qp / (qp - q)) * h;
        qp = q;
    }
    SNT_CHECK(nc == 3);
    *period = tc[2] - tc[0];
    r.m = NULL; // the caller owns the model
    rig_close(&r);
    return 0;
}

static int test_pendulum_periods(void) {
    const double h = 1e-4;
    const double amp[4] = {0.1, 0.5, 1, M_PI / 2};
    const double table[4] = {2.007321, 2.037868, 2.139138, 2.367842};
    char* xml = pendulum_xml(1);
    sn_model* m = tc_load_string(xml, 0);
    free(xml);
    SNT_CHECK(m);
    for (int i = 0; i < 4; i++) {
        double T, exact = pendulum_period(pendulum_leq(1), amp[i]);
        SNT_CHECK(measure_period(m, amp[i], h, &T) == 0);
        printf("  point pendulum, theta0 = %.4f: T = %.8f s, B2 %.6f (rel %.1e), elliptic "
               "%.8f (rel %.1e)\n",
               amp[i], T, table[i], fabs(T / table[i] - 1), exact, fabs(T / exact - 1));
        SNT_NEAR_REL(T, table[i], 1e-4, 0);       // the validation tolerance
        SNT_NEAR(T, table[i], 6e-7);              // the table's 7 digits
        SNT_NEAR_REL(T, exact, 5e-13, 0);         // the exact period (docs/step.md: 1.4e-13)
        SNT_NEAR_REL(exact, table[i], 2.5e-7, 0); // the table and the formula agree
    }
    sn_model_destroy(m);
    // uniform rod of length 1 and mass 1, pivoted at its end: I = m L^2 / 3, T0 = 2 pi
    // sqrt(2 L / (3 g)) = 1.637947 s
    m = tc_load_string(
        "<robot name=\"rod\"><link name=\"world\"/><link name=\"rod\"><inertial>"
        "<origin xyz=\"0 0 -0.5\"/><mass value=\"1\"/><inertia "
        "ixx=\"0.08333333333333333\" ixy=\"0\" ixz=\"0\" iyy=\"0.08333333333333333\" "
        "iyz=\"0\" izz=\"0.001\"/></inertial></link><joint name=\"pivot\" "
        "type=\"continuous\"><parent link=\"world\"/><child link=\"rod\"/>"
        "<axis xyz=\"0 1 0\"/></joint></robot>",
        0);
    SNT_CHECK(m);
    double T, A0 = 0.01, T0 = 2 * M_PI * sqrt(2.0 / (3 * GRAV));
    SNT_CHECK(measure_period(m, A0, h, &T) == 0);
    double exact = pendulum_period(2.0 / 3, A0);
    printf("  rod, theta0 = %.2f: T = %.8f s, T0 %.8f (B3 1.637947, rel %.1e), elliptic %.8f (rel "
           "%.1e)\n",
           A0, T, T0, fabs(T / 1.637947 - 1), exact, fabs(T / exact - 1));
    SNT_NEAR(T0, 1.637947, 5e-7);
    SNT_NEAR_REL(T, 1.637947, 1e-4, 0);
    SNT_NEAR_REL(T, exact, 5e-13, 0); // docs/step.md: to 1e-13
    sn_model_destroy(m);
    return 0;
}

// ---- 5. the torque table of step 5 ----

// A tree with every kind of 1-DOF and spherical joint, rotor inertia, damping and springs:
//   world -weld- base -ja (revolute)- a -jb (prismatic)- b -jc (spherical)- c -jd (revolute)- d
//                                     a -je (continuous)- e
#define INERTIA(m, x, y, z, i)                                                                     \
    "<inertial><origin xyz=\"" x " " y " " z "\" rpy=\"0.3 -0.2 0.1\"/><mass value=\"" m "\"/>"    \
    "<inertia ixx=\"" i "\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"" i "\" iyz=\"0.0015\" izz=\"" i    \
    "\"/></inertial>"
static const char* tree_urdf =
    "<robot name=\"tree\"><link name=\"world\"/>"
    "<link name=\"base\">" INERTIA(
        "2", "0.05", "0", "0.02",
        "0.05") "</link>"
                "<link name=\"a\">" INERTIA(
                    "1.5", "0.1", "0.02", "0.2",
                    "0.03") "</link>"
                            "<link name=\"b\">" INERTIA(
                                "0.8", "0.05", "-0.03", "0.1",
                                "0.02") "</link>"
                                        "<link name=\"c\">" INERTIA(
                                            "0.6", "0", "0.1", "0.15",
                                            "0.015") "</link>"
                                                     "<link name=\"d\">" INERTIA(
                                                         "0.4", "0.12", "0", "-0.05",
                                                         "0.01") "</link>"
                                                                 "<link name=\"e\">" INERTIA(
                                                                     "0.7", "-0.1", "0.05", "0",
                                                                     "0.02") "</link>"
                                                                             "<joint name=\"weld\" "
                                                                             "type=\"fixed\"><"
                                                                             "parent "
                                                                             "link=\"world\"/"
                                                                             "><child "
                                                                             "link=\"base\"/>"
                                                                             "<origin xyz=\"0.1 "
                                                                             "-0.2 0.5\" rpy=\"0.1 "
                                                                             "0 0.2\"/></joint>"
                                                                             "<joint name=\"ja\" "
                                                                             "type=\"revolute\"><"
                                                                             "parent "
                                                                             "link=\"base\"/"
                                                                             "><child link=\"a\"/>"
                                                                             "<origin xyz=\"0 0 "
                                                                             "0.1\" rpy=\"0.2 0.1 "
                                                                             "0\"/><axis xyz=\"0 1 "
                                                                             "0\"/>"
                                                                             "<dynamics "
                                                                             "damping=\"0.3\" "
                                                                             "rotor_inertia=\"0."
                                                                             "02\"/></joint>"
                                                                             "<joint name=\"jb\" "
                                                                             "type=\"prismatic\"><"
                                                                             "parent "
                                                                             "link=\"a\"/><child "
                                                                             "link=\"b\"/>"
                                                                             "<origin xyz=\"0.2 0 "
                                                                             "0.3\" rpy=\"0 0.3 "
                                                                             "0\"/><axis xyz=\"1 0 "
                                                                             "0\"/>"
                                                                             "<dynamics "
                                                                             "damping=\"0.5\" "
                                                                             "stiffness=\"40\" "
                                                                             "spring_mount=\"0.1\"/"
                                                                             "></joint>"
                                                                             "<joint name=\"jc\" "
                                                                             "type=\"spherical\"><"
                                                                             "parent "
                                                                             "link=\"b\"/><child "
                                                                             "link=\"c\"/>"
                                                                             "<origin xyz=\"0.1 0 "
                                                                             "0.2\" rpy=\"0 0 "
                                                                             "0.4\"/><dynamics "
                                                                             "damping=\"0.2\"/></"
                                                                             "joint>"
                                                                             "<joint name=\"jd\" "
                                                                             "type=\"revolute\"><"
                                                                             "parent "
                                                                             "link=\"c\"/><child "
                                                                             "link=\"d\"/>"
                                                                             "<origin xyz=\"0 0.15 "
                                                                             "0.25\"/><axis "
                                                                             "xyz=\"0.6 0 0.8\"/>"
                                                                             "<dynamics "
                                                                             "stiffness=\"15\" "
                                                                             "spring_mount=\"-0."
                                                                             "3\" "
                                                                             "rotor_inertia=\"0."
                                                                             "01\"/></joint>"
                                                                             "<joint name=\"je\" "
                                                                             "type=\"continuous\"><"
                                                                             "parent "
                                                                             "link=\"a\"/><child "
                                                                             "link=\"e\"/>"
                                                                             "<origin xyz=\"-0.1 "
                                                                             "0.1 0.2\"/><axis "
                                                                             "xyz=\"1 0 "
                                                                             "0\"/><dynamics "
                                                                             "damping=\"0.1\"/></"
                                                                             "joint>"
                                                                             "</robot>";

// the tree with PD, feedforward, limits, an extra spring, an actuator coupled to ja, and the
// inputs the table test checks
typedef struct tree_inputs {
    double q[8], u[7], kp[7], kd[7], qref[8], uref[7], ff[7], lo[7], hi[7];
    double act_cmd;
    int ja, jb, jc, jd, je; // joint ids
    sn_actuator_desc act;
} tree_inputs;

static int tree_setup(rig* r, tree_inputs* in, double dt) {
    SNT_CHECK(rig_open(r, strf("%s", tree_urdf), dt, 0) == 0);
    const sn_model* m = r->m;
    SNT_CHECK(m->nq == 8 && m->nv == 7 && m->njoint == 5);
    in->ja = sn_model_find(m, SN_OBJ_JOINT, "ja");
    in->jb = sn_model_find(m, SN_OBJ_JOINT, "jb");
    in->jc = sn_model_find(m, SN_OBJ_JOINT, "jc");
    in->jd = sn_model_find(m, SN_OBJ_JOINT, "jd");
    in->je = sn_model_find(m, SN_OBJ_JOINT, "je");
    tc_seed(31337);
    tc_random_state(m, in->q, in->u);
    for (int i = 0; i < 7; i++) {
        in->u[i] *= 2;
        in->kp[i] = tc_uniform(50, 500);
        in->kd[i] = tc_uniform(1, 10);
        in->uref[i] = tc_uniform(-1, 1);
        in->ff[i] = tc_uniform(-5, 5);
        in->lo[i] = -INFINITY, in->hi[i] = INFINITY;
    }
    // a target rotation of 2.5 rad for the spherical joint: its shorter rotation matters
    double rv[3] = {1.5, -1.2, 1.6}, dq[4];
    for (int k = 0; k < 8; k++)
        in->qref[k] = in->q[k] + tc_uniform(-0.5, 0.5);
    int a = m->joint_qadr[in->jc];
    qexp(dq, rv);
    qmul(in->qref + a, dq, in->q + a);
    for (int k = 0; k < 4; k++) // the target given as the negated quaternion: same orientation
        in->qref[a + k] = -in->qref[a + k];
    // ja's command saturates
    int va = m->joint_vadr[in->ja];
    in->lo[va] = -1.5, in->hi[va] = 2.0;
    SNT_STATUS_OK(sn_system_set_state(r->s, in->q, 8, in->u, 7));
    SNT_STATUS_OK(sn_system_set_pd_gains(r->s, in->kp, in->kd, 7));
    SNT_STATUS_OK(sn_system_set_pd_target(r->s, in->qref, 8, in->uref, 7));
    SNT_STATUS_OK(sn_system_set_generalized_force(r->s, in->ff, 7));
    SNT_STATUS_OK(sn_system_set_actuation_limits(r->s, in->lo, in->hi, 7));
    SNT_STATUS_OK(sn_system_add_spring(r->s, in->jd, 25, 0.2));
    memset(&in->act, 0, sizeof in->act);
    in->act.joint = in->je;
    in->act.gear = 6;
    in->act.ncoupling = 1;
    in->act.coupling_joint[0] = in->ja;
    in->act.coupling_ratio[0] = 0.7;
    in->act.kt = 0.08, in->act.vbus = 24, in->act.resistance = 0.4, in->act.kv = 25;
    in->act.peak_torque = 3;
    in->act.output_damping = 0.05;
    SNT_STATUS_OK(sn_system_add_actuator(r->s, &in->act, NULL));
    in->act_cmd = 40; // 40 / 6 > the motor's bound at this speed: clipped
    SNT_STATUS_OK(sn_system_set_actuator_torques(r->s, &in->act_cmd, 1));
    return 0;
}

// q_ref - q of the tree (spherical: the rotation vector of q^-1 q_ref, the shorter one,
// expressed in the joint frame like u)
static void tree_pd_error(const sn_model* m, const tree_inputs* in, const double* q, double* e) {
    for (int j = 0; j < m->njoint; j++) {
        int a = m->joint_qadr[j], v = m->joint_vadr[j];
        if (m->joint_type[j] != SN_JOINT_SPHERICAL) {
            e[v] = in->qref[a] - q[a];
            continue;
        }
        double qi[4], rel[4], rv[3];
        qconj(qi, q + a);
        qmul(rel, qi, in->qref + a); // child frame
        qlog(rv, rel);
        qrot(e + v, q + a, rv); // to the joint frame
    }
}

// world force at a body point and a world torque on another body, and their J^T F
typedef struct ext_load {
    int body_f, body_t;
    double point[3], force[3], torque[3];
} ext_load;

static void ext_generalized(const sn_model* m, sn_data* d, const ext_load* x, double* out) {
    double xw[3], jp[3 * 7], jr[3 * 7];
    const double* R = d->body_rot + 9 * x->body_f;
    for (int i = 0; i < 3; i++)
        xw[i] = d->body_pos[3 * x->body_f + i] + R[3 * i] * x->point[0] +
                R[3 * i + 1] * x->point[1] + R[3 * i + 2] * x->point[2];
    memset(out, 0, (size_t)m->nv * sizeof(double));
    sn_point_jacobian(m, d, x->body_f, xw, jp, NULL);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < m->nv; k++)
            out[k] += jp[r * m->nv + k] * x->force[r];
    sn_point_jacobian(m, d, x->body_t, xw, NULL, jr);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < m->nv; k++)
            out[k] += jr[r * m->nv + k] * x->torque[r];
}

// the clipped motor torque of the tree's actuator at velocities u (step 2), by hand
static double tree_motor_torque(const tree_inputs* in, const sn_model* m, const double* u,
                                double* wm_out) {
    const sn_actuator_desc* a = &in->act;
    double wm = a->gear * u[m->joint_vadr[a->joint]] +
                a->coupling_ratio[0] * u[m->joint_vadr[a->coupling_joint[0]]];
    double stall = a->kt * a->vbus / a->resistance, b = a->kt / (a->resistance * a->kv);
    double lo = clampd(-stall - b * wm, -a->peak_torque, a->peak_torque);
    double hi = clampd(stall - b * wm, -a->peak_torque, a->peak_torque);
    if (wm_out) *wm_out = wm;
    return clampd(in->act_cmd / a->gear, lo, hi);
}

static int test_step_torque_table(void) {
    const double dt = 2e-3;
    rig r;
    tree_inputs in;
    SNT_CHECK(tree_setup(&r, &in, dt) == 0);
    const sn_model* m = r.m;
    int nv = m->nv;
    ext_load x = {sn_model_find(m, SN_OBJ_BODY, "d"),
                  sn_model_find(m, SN_OBJ_BODY, "c"),
                  {0.1, 0, 0.05},
                  {3, -2, 5},
                  {0.4, 0.1, -0.3}};
    double M[49], hv[7], ext[7], q0[8], u0[7], du[7];
    SNT_STATUS_OK(sn_world_integrate1(r.w));
    memcpy(M, sn_system_mass_matrix(r.s), sizeof M);
    memcpy(hv, sn_system_nonlinear(r.s), sizeof hv);
    ext_generalized(m, sn_system_data(r.s), &x, ext);
    SNT_STATUS_OK(sn_system_set_external_force(r.s, x.body_f, x.point, x.force));
    SNT_STATUS_OK(sn_system_set_external_torque(r.s, x.body_t, x.torque));
    memcpy(q0, sn_system_q(r.s), sizeof q0);
    memcpy(u0, sn_system_u(r.s), sizeof u0);
    SNT_STATUS_OK(sn_world_integrate2(r.w));
    for (int i = 0; i < nv; i++)
        du[i] = sn_system_u(r.s)[i] - u0[i];
    double pd[7], damp[7], act[7], spr[7], ex[7];
    SNT_STATUS_OK(sn_system_step_torques(r.s, pd, damp, act, spr, ex));

    // the sum of the terms is the equation of motion of the step: M du/dt + h
    double lhs[7], sum[7];
    for (int i = 0; i < nv; i++) {
        lhs[i] = hv[i];
        for (int k = 0; k < nv; k++)
            lhs[i] += M[i * nv + k] * du[k] / dt;
        sum[i] = pd[i] + damp[i] + act[i] + spr[i] + ex[i];
    }
    double rel = tc_rel_err(sum, lhs, nv, 1);
    printf("  sum of the table vs M du/dt + h: rel %.2e (|M du/dt + h| max %.3f, |du| max %.4f)\n",
           rel, max_abs(lhs, nv), max_abs(du, nv));
    SNT_CHECK(rel < 1e-13); // docs/step.md: 5e-15
    SNT_CHECK(max_abs(du, nv) > 0.05);

    // each term by its formula
    double e[7], b[7], ks[7] = {0}, qs[7] = {0}, tm, wm;
    tree_pd_error(m, &in, q0, e);
    for (int i = 0; i < nv; i++)
        b[i] = m->dof_damping[i];
    b[m->joint_vadr[in.je]] += in.act.output_damping;
    int vb = m->joint_vadr[in.jb], vd = m->joint_vadr[in.jd], va = m->joint_vadr[in.ja],
        ve = m->joint_vadr[in.je];
    ks[vb] = 40, qs[vb] = 0.1;
    ks[vd] = 15 + 25, qs[vd] = (15 * -0.3 + 25 * 0.2) / 40;
    tm = tree_motor_torque(&in, m, u0, &wm);
    double ws[7], wact[7] = {0};
    sn_system_springs(r.s, ws, NULL);
    wact[ve] = in.act.gear * tm;
    wact[va] = in.act.coupling_ratio[0] * tm;
    double err_pd = 0, err_d = 0, err_a = 0, err_s = 0, err_x = 0, err_free = 0;
    int clamped = 0;
    for (int i = 0; i < nv; i++) {
        int qa = m->joint_qadr[m->dof_joint[i]];
        double raw = in.ff[i] + in.kp[i] * e[i] + in.kd[i] * (in.uref[i] - u0[i]);
        double cmd = clampd(raw, in.lo[i], in.hi[i]);
        clamped += cmd != raw;
        double imp = (0.5 * in.kd[i] + 0.25 * dt * in.kp[i]) * du[i];
        err_pd = fmax(err_pd, fabs(pd[i] - (cmd - imp)) / fmax(1, fabs(pd[i])));
        if (cmd == raw) { // the seed's form without the clamp
            double f = in.ff[i] + in.kp[i] * (e[i] - 0.25 * dt * du[i]) +
                       in.kd[i] * (in.uref[i] - 0.5 * (u0[i] + u0[i] + du[i]));
            err_free = fmax(err_free, fabs(pd[i] - f) / fmax(1, fabs(f)));
        }
        err_d = fmax(err_d, fabs(damp[i] - (-0.5 * b[i] * (2 * u0[i] + du[i]))));
        err_a = fmax(err_a, fabs(act[i] - wact[i]));
        double sp = m->joint_nv[m->dof_joint[i]] == 1
                        ? ks[i] * (qs[i] - q0[qa]) - 0.25 * dt * ks[i] * du[i]
                        : 0;
        err_s = fmax(err_s, fabs(spr[i] - sp));
        err_x = fmax(err_x, fabs(ex[i] - ext[i]));
        SNT_NEAR(ws[i], ks[i], 1e-15);
    }
    printf("  term errors: PD %.1e (unclamped form %.1e; %d DOF clamped), damping %.1e, "
           "actuators %.1e (tau_m %.4f at %.2f rad/s), springs %.1e, external %.1e\n",
           err_pd, err_free, clamped, err_d, err_a, tm, wm, err_s, err_x);
    SNT_CHECK(clamped == 1);
    SNT_CHECK(err_pd < 1e-12 && err_free < 1e-12);
    SNT_CHECK(err_d < 1e-13 && err_a < 1e-13 && err_s < 1e-12 && err_x < 1e-12);
    // the actuator is clipped: 40 / 6 = 6.67 N m asked, the peak is 3
    SNT_CHECK(fabs(tm) <= 3 && tm != in.act_cmd / in.act.gear);
    // the spherical joint's PD error: the target's sign does not matter, the rotation is the
    // shorter one (2.5 rad, not 2 pi - 2.5)
    int vc = m->joint_vadr[in.jc];
    SNT_NEAR(sqrt(e[vc] * e[vc] + e[vc + 1] * e[vc + 1] + e[vc + 2] * e[vc + 2]),
             sqrt(1.5 * 1.5 + 1.2 * 1.2 + 1.6 * 1.6), 1e-12);
    // the error is expressed like u, in the joint frame: it is the rotation vector of
    // q_ref q^-1 (checked against the step's command for the three DOFs)
    for (int k = 0; k < 3; k++) {
        int i = vc + k;
        double cmd = pd[i] + (0.5 * in.kd[i] + 0.25 * dt * in.kp[i]) * du[i];
        double ek = (cmd - in.ff[i] - in.kd[i] * (in.uref[i] - u0[i])) / in.kp[i];
        SNT_NEAR(ek, (k == 0 ? 1.5 : k == 1 ? -1.2 : 1.6), 1e-9);
    }

    // getGeneralizedForce: tau_cmd + tau_act at the current state, with the position error of
    // the last step and the current velocity; not damping, springs, external or implicit terms
    double gf[7], u1[7];
    memcpy(u1, sn_system_u(r.s), sizeof u1);
    SNT_STATUS_OK(sn_system_generalized_force(r.s, gf, 7));
    double tm1 = tree_motor_torque(&in, m, u1, NULL), err_gf = 0;
    for (int i = 0; i < nv; i++) {
        double cmd = clampd(in.ff[i] + in.kp[i] * e[i] + in.kd[i] * (in.uref[i] - u1[i]), in.lo[i],
                            in.hi[i]);
        double a = i == ve ? in.act.gear * tm1 : i == va ? in.act.coupling_ratio[0] * tm1 : 0;
        err_gf = fmax(err_gf, fabs(gf[i] - (cmd + a)));
    }
    printf("  getGeneralizedForce vs tau_cmd + tau_act at the current state: %.1e\n", err_gf);
    SNT_CHECK(err_gf < 1e-12);
    rig_close(&r);
    return 0;
}

// the implicit part is not clamped: after a velocity jump the applied PD torque exceeds the
// limit by exactly (kd/2 + dt/4 kp) |du|
static int test_pd_exceeds_limit_after_velocity_jump(void) {
    const double dt = 1e-3, kp = 400, kd = 20, lim = 5;
    const char* xml =
        "<robot name=\"hinge\"><link name=\"world\"/><link name=\"l\"><inertial>"
        "<mass value=\"1\"/><inertia ixx=\"0.5\" ixy=\"0\" ixz=\"0\" iyy=\"0.5\" "
        "iyz=\"0\" izz=\"1\"/></inertial></link><joint name=\"j\" type=\"continuous\">"
        "<parent link=\"world\"/><child link=\"l\"/><axis xyz=\"0 0 1\"/>"
        "<limit effort=\"5\"/></joint></robot>";
    for (int how = 0; how < 2; how++) {
        rig r;
        SNT_CHECK(rig_open(&r, strf("%s", xml), dt, 0) == 0);
        double zero = 0, ref = 1, uref = how ? 50 : 0, u0 = how ? 50 : 0;
        SNT_STATUS_OK(sn_system_set_pd_gains(r.s, &kp, &kd, 1));
        SNT_STATUS_OK(sn_system_set_pd_target(r.s, &ref, 1, &uref, 1));
        SNT_STATUS_OK(sn_system_set_state(r.s, &zero, 1, &u0, 1));
        if (how == 0) { // an impact: a world force of 5000 N on the link's rim, one step
            double p[3] = {1, 0, 0}, f[3] = {0, -5000, 0};
            SNT_STATUS_OK(sn_system_set_external_force(r.s, 1, p, f));
        } else { // heavy joint damping at 50 rad/s
            double b = 20;
            SNT_STATUS_OK(sn_system_set_joint_damping(r.s, &b, 1));
        }
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double du = sn_system_u(r.s)[0] - u0, pd;
        SNT_STATUS_OK(sn_system_step_torques(r.s, &pd, NULL, NULL, NULL, NULL));
        double excess = (0.5 * kd + 0.25 * dt * kp) * fabs(du);
        printf("  %s: du = %.4f rad/s, applied PD %.6f N m, limit %.0f, excess %.6f = "
               "(kd/2 + dt/4 kp)|du| %.6f\n",
               how ? "damping at 50 rad/s" : "impact", du, pd, lim, pd - lim, excess);
        SNT_CHECK(du < -0.5);
        SNT_CHECK(pd > lim + 5);
        SNT_NEAR(pd - lim, excess, 1e-12 * excess);
        rig_close(&r);
    }
    return 0;
}

// RUNGE_KUTTA_4's table: the weighted means of its four stages, explicit (no implicit part);
// they sum to M du/dt + h when M is constant and h = 0
static int test_rk4_table_and_actuator_stage(void) {
    const double dt = 1e-2;
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", msd_urdf(1)), dt, 0) == 0);
    double x0 = 0.1, u0 = -0.4, kp = 30, kd = 3, ref = -0.05, uref = 0.2, ff = 0.7;
    SNT_STATUS_OK(sn_system_set_state(r.s, &x0, 1, &u0, 1));
    SNT_STATUS_OK(sn_system_set_pd_gains(r.s, &kp, &kd, 1));
    SNT_STATUS_OK(sn_system_set_pd_target(r.s, &ref, 1, &uref, 1));
    SNT_STATUS_OK(sn_system_set_generalized_force(r.s, &ff, 1));
    sn_actuator_desc a;
    memset(&a, 0, sizeof a);
    a.joint = 0, a.gear = 3, a.kt = 0.1, a.vbus = 24, a.resistance = 0.5, a.kv = 10;
    SNT_STATUS_OK(sn_system_add_actuator(r.s, &a, NULL));
    double cmd = 2;
    SNT_STATUS_OK(sn_system_set_actuator_torques(r.s, &cmd, 1));
    double p[3] = {0, 0, 0}, f[3] = {1.5, 0, 0};
    SNT_STATUS_OK(sn_system_set_external_force(r.s, 1, p, f));
    SNT_STATUS_OK(sn_system_set_scheme(r.s, SN_SCHEME_RK4));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_CHECK(sn_system_scheme_used(r.s) == SN_SCHEME_RK4);
    double du = sn_system_u(r.s)[0] - u0, t[5];
    SNT_STATUS_OK(sn_system_step_torques(r.s, t, t + 1, t + 2, t + 3, t + 4));
    double sum = t[0] + t[1] + t[2] + t[3] + t[4];
    printf("  RK4 table: PD %.6f, damping %.6f, actuator %.6f, spring %.6f, external %.3f; "
           "sum %.12f vs m du/dt %.12f\n",
           t[0], t[1], t[2], t[3], t[4], sum, du / dt);
    SNT_NEAR(sum, du / dt, 1e-12);
    SNT_NEAR(t[4], 1.5, 0);
    // the actuator states describe the last stage: motor speed G u4, u4 = u0 + dt k3
    sn_actuator_state st;
    SNT_STATUS_OK(sn_system_actuator_states(r.s, &st, 1));
    SNT_CHECK(fabs(st.motor_speed - 3 * u0) > 1e-3);
    // u4 from the stage means: reproduce RK4 by hand on x'' = (F(x, v)) / m
    double k[4], xs = x0, us = u0, uu[4];
    for (int i = 0; i < 4; i++) {
        double c = i == 0 ? 0 : i == 3 ? 1 : 0.5;
        if (i > 0) xs = x0 + c * dt * uu[i - 1], us = u0 + c * dt * k[i - 1];
        uu[i] = us;
        double wm = 3 * us, stall = 0.1 * 24 / 0.5, b = 0.1 / (0.5 * 10);
        double tm = clampd(cmd / 3, -stall - b * wm, stall - b * wm);
        k[i] = ff + kp * (ref - xs) + kd * (uref - us) - 2 * us + 100 * (0 - xs) + 3 * tm + 1.5;
        if (i == 3) {
            SNT_NEAR(st.motor_speed, wm, 1e-12);
            SNT_NEAR(st.motor_torque, tm, 1e-12);
        }
    }
    SNT_NEAR(du, dt / 6 * (k[0] + 2 * k[1] + 2 * k[2] + k[3]), 1e-13);
    rig_close(&r);
    return 0;
}

// ---- 6. PD stability: ANYmal C in the air, kp = 1e4, kd = 1e2, dt = 10 ms ----

static int test_pd_stability_quadruped(void) {
    const char* path = tc_model_path("raisim_anymal_c/urdf/anymal.urdf");
    if (!path) {
        printf("  shared/models is absent: skipped\n");
        return SNT_SKIP;
    }
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.base = SN_BASE_FIXED;
    o.balance_inertia = 1;
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf(path, &o, &m, &err) != SN_OK) {
        printf("  FAIL %s: %s\n", path, err.msg); // a shared model that fails to load is a failure
        return 1;
    }
    SNT_CHECK(m->nv == 12 && m->nq == 12);
    const double dt = 0.01;
    double kp[12], kd[12], qref[12], uref[12] = {0}, lo[12], hi[12];
    for (int i = 0; i < 12; i++) {
        int leg = i / 3, hind = leg >= 2;
        kp[i] = 1e4, kd[i] = 1e2;
        qref[i] = i % 3 == 0 ? 0.05 : i % 3 == 1 ? (hind ? -0.4 : 0.4) : (hind ? 0.8 : -0.8);
        lo[i] = -INFINITY, hi[i] = INFINITY; // no clamp: the gains alone decide
    }
    // mode 0: the built-in (implicit) PD, SEMI_IMPLICIT; mode 1: the explicit PD the test
    // computes; mode 2: the built-in PD under RUNGE_KUTTA_4, whose stages are explicit
    double e_imp = 0, e_exp = 0, u_imp = 0;
    int diverged_at = -1, rk4_diverged_at = -1;
    const char* label[3] = {"implicit PD", "explicit PD", "RK4 with the built-in PD"};
    for (int mode = 0; mode < 3; mode++) {
        rig r;
        SNT_CHECK(rig_open_model(&r, m, dt) == 0);
        double q0[12], u0[12] = {0};
        for (int i = 0; i < 12; i++)
            q0[i] = qref[i] + 0.3 * (i % 2 ? 1 : -1);
        SNT_STATUS_OK(sn_system_set_state(r.s, q0, 12, u0, 12));
        SNT_STATUS_OK(sn_system_set_actuation_limits(r.s, lo, hi, 12));
        // joint limits off too: the PD alone is under test (ANYmal's limits would stop the
        // explicit PD's divergence)
        sn_system_set_joint_limits_enabled(r.s, 0);
        if (mode != 1) {
            SNT_STATUS_OK(sn_system_set_pd_gains(r.s, kp, kd, 12));
            SNT_STATUS_OK(sn_system_set_pd_target(r.s, qref, 12, uref, 12));
        }
        if (mode == 2) SNT_STATUS_OK(sn_system_set_scheme(r.s, SN_SCHEME_RK4));
        double maxq = 0;
        for (int n = 0; n < 300; n++) {
            const double *q = sn_system_q(r.s), *u = sn_system_u(r.s);
            if (mode == 1) { // the explicit PD the test computes: tau = kp (q_ref - q) - kd u
                double tau[12];
                for (int i = 0; i < 12; i++)
                    tau[i] = kp[i] * (qref[i] - q[i]) - kd[i] * u[i];
                SNT_STATUS_OK(sn_system_set_generalized_force(r.s, tau, 12));
            }
            sn_status st = sn_world_integrate(r.w);
            double e = 0;
            for (int i = 0; i < 12; i++)
                e = fmax(e, fabs(sn_system_q(r.s)[i] - qref[i]));
            maxq = fmax(maxq, e);
            if (mode == 0) SNT_STATUS_OK(st);
            if (mode > 0 && (st != SN_OK || e > 1e3)) {
                *(mode == 1 ? &diverged_at : &rk4_diverged_at) = n + 1;
                e_exp = st != SN_OK ? INFINITY : e;
                printf("  %s: step %d %s (max |q - q_ref| %.3g rad)\n", label[mode], n + 1,
                       st != SN_OK ? "failed (non-finite)" : "diverged", e);
                break;
            }
            if (mode > 0 && n < 3)
                printf("  %s: step %d, max |q - q_ref| %.3g\n", label[mode], n + 1, e);
            if (mode == 0 && (n + 1) % 100 == 0)
                printf("  implicit PD: t = %.1f s, max |q - q_ref| %.3e rad (max so far %.3f)\n",
                       (n + 1) * dt, e, maxq);
            if (mode == 0) e_imp = e;
        }
        if (mode == 0) {
            u_imp = max_abs(sn_system_u(r.s), 12);
            // bounded: never beyond the initial error; at rest at the static equilibrium
            // kp (q_ref - q) = h(q, 0) (the gravity torque)
            SNT_CHECK(maxq <= 0.3 + 1e-9);
            const double* h = sn_system_nonlinear(r.s);
            double res = 0;
            for (int i = 0; i < 12; i++)
                res = fmax(res, fabs(kp[i] * (qref[i] - sn_system_q(r.s)[i]) - h[i]));
            printf("  implicit PD after 3 s: max |q - q_ref| %.3e rad, max |u| %.1e rad/s, "
                   "equilibrium residual %.1e N m (gravity up to %.2f N m)\n",
                   e_imp, u_imp, res, max_abs(h, 12));
            // docs/step.md: 5.4e-4 rad, |u| < 1e-6, residual 3.8e-5 N m of 5.44
            SNT_CHECK(e_imp < 6e-4);
            SNT_CHECK(u_imp < 1e-6);
            SNT_CHECK(res < 2e-5 * max_abs(h, 12));
        }
        r.m = NULL;
        rig_close(&r);
    }
    SNT_CHECK_MSG(diverged_at > 0, "the explicit PD did not diverge (max error %.3g)", e_exp);
    SNT_CHECK(diverged_at == 2); // docs/step.md: 22 rad after one step, 2.9e3 after two
    // documented (docs/step.md): RK4's stages treat the PD explicitly, so it has the explicit
    // PD's stability limit
    SNT_CHECK(rk4_diverged_at > 0 && rk4_diverged_at < 100);
    sn_model_destroy(m);
    return 0;
}

// ---- 7. actuators: motor operating regions ----

// a hinge about z (no gravity torque), joint inertia 2 kg m^2
static const char* hinge2_urdf =
    "<robot name=\"h2\"><link name=\"world\"/><link name=\"a\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"2\"/></inertial></link>"
    "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"2\" ixy=\"0\" ixz=\"0\" "
    "iyy=\"2\" iyz=\"0\" izz=\"3\"/></inertial></link>"
    "<joint name=\"j0\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/>"
    "<axis xyz=\"0 0 1\"/></joint><joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/>"
    "<child link=\"b\"/><origin xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></joint></robot>";

static int test_motor_operating_regions(void) {
    const double dt = 1e-3;
    // G = 10, Kt = 0.1 N m/A, Vbus = 48 V, R = 0.5 ohm, Kv = 20 rad/s/V:
    // stall 0.1 * 48 / 0.5 = 9.6 N m, back-EMF damping 0.1 / (0.5 * 20) = 0.01 N m s/rad
    const double G = 10, stall = 9.6, bemf = 0.01;
    struct pt {
        double peak, u, cmd, tm, lo, hi;
        const char* what;
    } pts[] = {
        {5, 0, 30, 3, -5, 5, "below stall and peak"},
        {5, 0, 100, 5, -5, 5, "peak clip"},
        {0, 0, 200, 9.6, -9.6, 9.6, "stall clip (no peak)"},
        {5, 50, 100, 4.6, -5, 4.6, "motoring at 500 rad/s: stall - b w"},
        {5, 90, 100, 0.6, -5, 0.6, "motoring at 900 rad/s"},
        {5, 120, 10, -2.4, -5, -2.4, "above no-load speed: must brake"},
        {0, 90, -300, -18.6, -18.6, 0.6, "regenerative: braking beyond stall"},
        {0, -90, -300, -0.6, -0.6, 18.6, "motoring backwards at -900 rad/s"},
        {5, -90, 300, 5, -0.6, 5, "regenerative backwards, peak clip"},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        // the hand computation of the point agrees with the formulas of step 2
        double wm = G * pts[i].u, pk = pts[i].peak > 0 ? pts[i].peak : INFINITY;
        SNT_NEAR(clampd(-stall - bemf * wm, -pk, pk), pts[i].lo, 1e-12);
        SNT_NEAR(clampd(stall - bemf * wm, -pk, pk), pts[i].hi, 1e-12);
        rig r;
        SNT_CHECK(rig_open(&r, strf("%s", hinge2_urdf), dt, 0) == 0);
        sn_actuator_desc a;
        memset(&a, 0, sizeof a);
        a.joint = 0, a.gear = G, a.kt = 0.1, a.vbus = 48, a.resistance = 0.5, a.kv = 20;
        a.peak_torque = pts[i].peak;
        int id = -1;
        SNT_STATUS_OK(sn_system_add_actuator(r.s, &a, &id));
        SNT_CHECK(id == 0 && sn_system_actuator_count(r.s) == 1);
        double u[2] = {pts[i].u, 0};
        SNT_STATUS_OK(sn_system_set_u(r.s, u, 2));
        SNT_STATUS_OK(sn_system_set_actuator_torques(r.s, &pts[i].cmd, 1));
        SNT_STATUS_OK(sn_world_integrate(r.w));
        sn_actuator_state st;
        SNT_STATUS_OK(sn_system_actuator_states(r.s, &st, 1));
        double act[2], du = sn_system_u(r.s)[0] - pts[i].u;
        SNT_STATUS_OK(sn_system_step_torques(r.s, NULL, NULL, act, NULL, NULL));
        printf("  %-42s w_m %7.1f: region [%6.2f, %6.2f], tau_m %6.2f, joint %7.2f N m "
               "(2 du/dt %7.2f)%s\n",
               pts[i].what, st.motor_speed, st.torque_min, st.torque_max, st.motor_torque, act[0],
               2 * du / dt, st.clipped ? ", clipped" : "");
        SNT_NEAR(st.command, pts[i].cmd, 0);
        SNT_NEAR(st.motor_speed, wm, 1e-12);
        SNT_NEAR(st.torque_min, pts[i].lo, 1e-12);
        SNT_NEAR(st.torque_max, pts[i].hi, 1e-12);
        SNT_NEAR(st.motor_torque, pts[i].tm, 1e-12);
        SNT_CHECK(st.clipped == (pts[i].tm != pts[i].cmd / G));
        SNT_NEAR(act[0], G * pts[i].tm, 1e-11);
        SNT_NEAR(act[1], 0, 0);
        SNT_NEAR(2 * du / dt, G * pts[i].tm, 1e-9); // the joint gets G tau_m
        // without the region: tau_m = tau_a / G
        sn_system_set_motor_region_enforced(r.s, 0);
        SNT_STATUS_OK(sn_system_set_u(r.s, u, 2));
        SNT_STATUS_OK(sn_world_integrate(r.w));
        SNT_STATUS_OK(sn_system_actuator_states(r.s, &st, 1));
        SNT_STATUS_OK(sn_system_step_torques(r.s, NULL, NULL, act, NULL, NULL));
        SNT_NEAR(st.motor_torque, pts[i].cmd / G, 0);
        SNT_CHECK(st.clipped == 0);
        SNT_NEAR(act[0], pts[i].cmd, 1e-13 * fabs(pts[i].cmd));
        rig_close(&r);
    }
    return 0;
}

// couplings, output damping, effort limits that do not clip actuators, and the effort clamp
static int test_couplings_and_effort_clamp(void) {
    const double dt = 1e-3;
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", hinge2_urdf), dt, 0) == 0);
    sn_actuator_desc a;
    memset(&a, 0, sizeof a);
    a.joint = 1, a.gear = 4, a.ncoupling = 1, a.coupling_joint[0] = 0, a.coupling_ratio[0] = 2.5;
    a.kt = 0.2, a.vbus = 10, a.resistance = 1, a.kv = 5; // no peak
    a.output_damping = 0.3;
    SNT_STATUS_OK(sn_system_add_actuator(r.s, &a, NULL));
    double u[2] = {6, 2}, cmd = 5, lo[2] = {-0.5, -0.5}, hi[2] = {0.5, 0.5}, ff[2] = {2, -2};
    SNT_STATUS_OK(sn_system_set_u(r.s, u, 2));
    SNT_STATUS_OK(sn_system_set_actuator_torques(r.s, &cmd, 1));
    SNT_STATUS_OK(sn_system_set_actuation_limits(r.s, lo, hi, 2));
    SNT_STATUS_OK(sn_system_set_generalized_force(r.s, ff, 2));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    // w_m = G u1 + r_c u0 = 8 + 15 = 23; stall 2, b = 0.04: tau_m,max = 2 - 0.92 = 1.08 < 5/4
    double wm = 4 * 2 + 2.5 * 6, tm = clampd(1.25, -2 - 0.04 * wm, 2 - 0.04 * wm);
    double pd[2], damp[2], act[2], du[2];
    sn_actuator_state st;
    SNT_STATUS_OK(sn_system_actuator_states(r.s, &st, 1));
    SNT_NEAR(st.motor_speed, 23, 1e-14);
    SNT_NEAR(tm, 1.08, 1e-14);
    SNT_NEAR(st.motor_torque, tm, 1e-14);
    SNT_STATUS_OK(sn_system_step_torques(r.s, pd, damp, act, NULL, NULL));
    for (int i = 0; i < 2; i++)
        du[i] = sn_system_u(r.s)[i] - u[i];
    printf("  coupling: tau_m %.4f, joint torques (%.4f, %.4f) = (r_c, G) tau_m; command "
           "(%.2f, %.2f) clamped to 0.5; output damping on j1 %.4f\n",
           tm, act[0], act[1], pd[0], pd[1], damp[1]);
    SNT_NEAR(act[1], 4 * tm, 1e-14);
    SNT_NEAR(act[0], 2.5 * tm, 1e-14);
    // the actuation limits clamp tau_ff (FORCE_AND_TORQUE: no implicit part) and not the actuator
    SNT_NEAR(pd[0], 0.5, 0);
    SNT_NEAR(pd[1], -0.5, 0);
    // the actuator's output damping b_out is damping of its joint
    SNT_NEAR(damp[1], -0.5 * 0.3 * (2 * u[1] + du[1]), 1e-15);
    SNT_NEAR(damp[0], 0, 0);
    // the joint accelerations: j0 by (0.5 - 2.5 tau_m) / 2, j1 implicitly with w = dt/2 b_out
    SNT_NEAR(du[0], dt * (0.5 + 2.5 * tm) / 2, 1e-15);
    SNT_NEAR(du[1], dt * (-0.5 + 4 * tm - 0.3 * u[1]) / (3 + 0.5 * dt * 0.3), 1e-15);
    rig_close(&r);

    // the URDF effort clamps the feedforward plus the PD torque together
    const char* xml =
        "<robot name=\"e\"><link name=\"world\"/><link name=\"l\"><inertial>"
        "<mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" "
        "iyz=\"0\" izz=\"1\"/></inertial></link><joint name=\"j\" type=\"continuous\">"
        "<parent link=\"world\"/><child link=\"l\"/><axis xyz=\"0 0 1\"/>"
        "<limit effort=\"5\"/></joint></robot>";
    SNT_CHECK(rig_open(&r, strf("%s", xml), dt, 0) == 0);
    SNT_NEAR(r.m->dof_effort_limit[0], 5, 0);
    double kp = 10, kd = 0, ref = 0.4, z = 0, f = 3, p;
    SNT_STATUS_OK(sn_system_set_generalized_force(r.s, &f, 1));
    SNT_STATUS_OK(sn_world_integrate(r.w)); // 3 < 5: passes
    SNT_STATUS_OK(sn_system_step_torques(r.s, &p, NULL, NULL, NULL, NULL));
    SNT_NEAR(p, 3, 0);
    SNT_STATUS_OK(sn_system_set_state(r.s, &z, 1, &z, 1));
    SNT_STATUS_OK(sn_system_set_pd_gains(r.s, &kp, &kd, 1));
    SNT_STATUS_OK(sn_system_set_pd_target(r.s, &ref, 1, &z, 1));
    SNT_STATUS_OK(sn_world_integrate(r.w)); // 3 + 10 * 0.4 = 7 > 5
    double u1 = sn_system_u(r.s)[0];
    SNT_STATUS_OK(sn_system_step_torques(r.s, &p, NULL, NULL, NULL, NULL));
    printf("  effort 5: tau_ff 3 + PD 4 -> command %.6f (applied, with the implicit part)\n", p);
    SNT_NEAR(p, 5 - 0.25 * dt * kp * u1, 1e-15);
    SNT_NEAR(u1, dt * 5 / (1 + 0.25 * dt * dt * kp), 1e-15);
    // setActuationLimits replaces the URDF effort; +-inf is no clamp
    double l2 = -1, h2 = 2, li = -INFINITY, hii = INFINITY;
    SNT_STATUS_OK(sn_system_set_actuation_limits(r.s, &l2, &h2, 1));
    SNT_STATUS_OK(sn_system_set_state(r.s, &z, 1, &z, 1));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_STATUS_OK(sn_system_step_torques(r.s, &p, NULL, NULL, NULL, NULL));
    SNT_NEAR(p + 0.25 * dt * kp * sn_system_u(r.s)[0], 2, 1e-15);
    SNT_STATUS_OK(sn_system_set_actuation_limits(r.s, &li, &hii, 1));
    SNT_STATUS_OK(sn_system_set_state(r.s, &z, 1, &z, 1));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_STATUS_OK(sn_system_step_torques(r.s, &p, NULL, NULL, NULL, NULL));
    SNT_NEAR(p + 0.25 * dt * kp * sn_system_u(r.s)[0], 7, 1e-14);
    // bad ranges are refused
    double nan = NAN;
    SNT_CHECK(sn_system_set_actuation_limits(r.s, &h2, &l2, 1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_set_actuation_limits(r.s, &nan, &h2, 1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_set_actuation_limits(r.s, &l2, &h2, 2) == SN_ERR_ARG);
    // an actuator torque is not clipped by the effort
    SNT_STATUS_OK(sn_system_set_actuation_limits(r.s, &l2, &h2, 1));
    sn_actuator_desc plain;
    memset(&plain, 0, sizeof plain);
    plain.joint = 0; // gear 1, no region
    SNT_STATUS_OK(sn_system_add_actuator(r.s, &plain, NULL));
    double big = 50;
    SNT_STATUS_OK(sn_system_set_actuator_torques(r.s, &big, 1));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    double ac;
    SNT_STATUS_OK(sn_system_step_torques(r.s, NULL, NULL, &ac, NULL, NULL));
    SNT_NEAR(ac, 50, 0);
    // checks of the actuator description
    sn_actuator_desc bad = plain;
    bad.joint = 5;
    SNT_CHECK(sn_system_add_actuator(r.s, &bad, NULL) == SN_ERR_ARG);
    bad = plain, bad.kt = 1; // no resistance
    SNT_CHECK(sn_system_add_actuator(r.s, &bad, NULL) == SN_ERR_ARG);
    bad = plain, bad.gear = -1;
    SNT_CHECK(sn_system_add_actuator(r.s, &bad, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_system_set_actuator_torques(r.s, &big, 2) == SN_ERR_ARG);
    rig_close(&r);
    return 0;
}

// ---- 8. with damping and no input, total energy never increases ----

static int test_energy_never_increases_with_damping(void) {
    const double dt = 1e-3;
    int steps = 0;
    double worst = -INFINITY;
    for (int t = 0; t < 6; t++) {
        char* xml = tc_random_urdf(4 + 2 * t, t % 2, 900 + (unsigned long long)t);
        rig r;
        SNT_CHECK(rig_open(&r, xml, dt, 1) == 0);
        // joints past their limits are moved back by a position correction (erp), which may
        // lift the links against gravity; it is not a velocity effect and is off here
        SNT_STATUS_OK(sn_world_set_erp(r.w, 0));
        double q[128], u[128];
        tc_seed(77 + (unsigned long long)t);
        tc_random_state(r.m, q, u);
        SNT_STATUS_OK(sn_system_set_state(r.s, q, r.m->nq, u, r.m->nv));
        double e = total_energy(r.s), e0 = e;
        for (int n = 0; n < 1500; n++) {
            SNT_STATUS_OK(sn_world_integrate(r.w));
            double en = total_energy(r.s);
            double rise = (en - e) / fmax(1, fabs(e));
            worst = fmax(worst, rise);
            SNT_CHECK_MSG(rise <= 1e-13, "tree %d step %d: E rose from %.15g to %.15g", t, n, e,
                          en);
            e = en;
            steps++;
        }
        printf("  tree %d (%s, nv %d): E %.6f -> %.6f J over 1.5 s\n", t,
               t % 2 ? "floating" : "fixed", r.m->nv, e0, e);
        SNT_CHECK(e < e0);
        rig_close(&r);
    }
    printf("  %d steps, largest relative rise of E in one step %.2e\n", steps, worst);
    return 0;
}

// ---- 9. rules and bookkeeping ----

static int test_scheme_replacement_rules(void) {
    const char* mimic =
        "<robot name=\"mimic\"><link name=\"world\"/><link name=\"a\"><inertial><origin xyz=\"0 "
        "0 -0.5\"/><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" "
        "iyz=\"0\" izz=\"0.01\"/></inertial></link><link name=\"b\"><inertial><origin xyz=\"0 "
        "0 -0.5\"/><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" "
        "iyz=\"0\" izz=\"0.01\"/></inertial></link><joint name=\"j1\" type=\"continuous\">"
        "<parent link=\"world\"/><child link=\"a\"/><axis xyz=\"0 1 0\"/></joint>"
        "<joint name=\"j2\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>"
        "<origin xyz=\"0 0 -1\"/><axis xyz=\"0 1 0\"/><mimic joint=\"j1\"/></joint></robot>";
    const char* loop =
        "<robot name=\"loop\"><link name=\"world\"/><link name=\"a\"><inertial><origin xyz=\"0 "
        "0 -0.5\"/><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" "
        "iyz=\"0\" izz=\"0.01\"/></inertial></link><link name=\"b\"><inertial><origin xyz=\"0 "
        "0 -0.5\"/><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" "
        "iyz=\"0\" izz=\"0.01\"/></inertial></link><joint name=\"j1\" type=\"continuous\">"
        "<parent link=\"world\"/><child link=\"a\"/><axis xyz=\"0 1 0\"/></joint>"
        "<joint name=\"j2\" type=\"continuous\"><parent link=\"world\"/><child link=\"b\"/>"
        "<origin xyz=\"0.5 0 0\"/><axis xyz=\"0 1 0\"/></joint>"
        "<constraints><pin body1=\"a\" body2=\"b\" anchor=\"0.25 0 -1\"/></constraints></robot>";
    const char* plain = msd_urdf(1);
    const char* models[3] = {plain, mimic, loop};
    for (int i = 0; i < 3; i++) {
        for (int sc = 0; sc < 4; sc++) {
            rig r;
            SNT_CHECK(rig_open(&r, strf("%s", models[i]), 1e-3, 1) == 0);
            SNT_STATUS_OK(sn_system_set_scheme(r.s, (sn_scheme)sc));
            SNT_CHECK(sn_system_scheme(r.s) == (sn_scheme)sc);
            SNT_STATUS_OK(sn_world_integrate(r.w));
            sn_scheme used = sn_system_scheme_used(r.s);
            sn_scheme want =
                (i > 0 && sc == SN_SCHEME_RK4) ? SN_SCHEME_SEMI_IMPLICIT : (sn_scheme)sc;
            SNT_CHECK_MSG(used == want, "model %d scheme %d: used %d", i, sc, used);
            SNT_CHECK(sn_system_scheme(r.s) == (sn_scheme)sc); // the setting is kept
            rig_close(&r);
        }
        printf("  %s: RUNGE_KUTTA_4 %s\n",
               i == 0   ? "no constraint"
               : i == 1 ? "mimic"
                        : "pin",
               i ? "is replaced by SEMI_IMPLICIT" : "runs");
    }
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", plain), 1e-3, 0) == 0);
    SNT_CHECK(sn_system_scheme(r.s) == SN_SCHEME_SEMI_IMPLICIT); // the default
    SNT_CHECK(sn_system_set_scheme(r.s, (sn_scheme)7) == SN_ERR_ARG);
    rig_close(&r);
    return 0;
}

// a floating box with a hinged arm
static const char* floating_arm_urdf =
    "<robot name=\"fa\"><link name=\"base\"><inertial><mass value=\"3\"/><inertia ixx=\"0.1\" "
    "ixy=\"0\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" izz=\"0.3\"/></inertial></link>"
    "<link name=\"arm\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1\"/><inertia "
    "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.02\"/></inertial></link>"
    "<link name=\"ball\"><inertial><origin xyz=\"0 0 -0.1\"/><mass value=\"0.5\"/><inertia "
    "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
    "<joint name=\"hinge\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
    "<origin xyz=\"0.1 0 0\"/><axis xyz=\"0 1 0\"/></joint>"
    "<joint name=\"ball\" type=\"spherical\"><parent link=\"base\"/><child link=\"ball\"/>"
    "<origin xyz=\"-0.1 0 0\"/></joint></robot>";

static int test_pd_gains_floating_base(void) {
    const double dt = 1e-3;
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", floating_arm_urdf), dt, 0) == 0);
    SNT_CHECK(r.m->nv == 10 && r.m->nq == 12);
    SNT_CHECK(sn_system_control_mode(r.s) == SN_CONTROL_FORCE_AND_TORQUE);
    double kp[10], kd[10], qref[12], uref[10] = {0};
    for (int i = 0; i < 10; i++)
        kp[i] = 1e3, kd[i] = 10;
    memcpy(qref, sn_system_q(r.s), sizeof qref);
    qref[0] = 5, qref[2] = -3; // a base target far away: ignored, the base gains are zero
    qref[7] = 0.5;
    SNT_STATUS_OK(sn_system_set_pd_gains(r.s, kp, kd, 10));
    SNT_CHECK(sn_system_control_mode(r.s) == SN_CONTROL_PD_PLUS_FEEDFORWARD);
    SNT_STATUS_OK(sn_system_set_pd_target(r.s, qref, 12, uref, 10));
    // the step's base rows: M du/dt + h = 0 (no base gain, no base entry in w)
    double M[100], h[10], u0[10], pd[10], res = 0;
    SNT_STATUS_OK(sn_world_integrate1(r.w));
    memcpy(M, sn_system_mass_matrix(r.s), sizeof M);
    memcpy(h, sn_system_nonlinear(r.s), sizeof h);
    memcpy(u0, sn_system_u(r.s), sizeof u0);
    SNT_STATUS_OK(sn_world_integrate2(r.w));
    SNT_STATUS_OK(sn_system_step_torques(r.s, pd, NULL, NULL, NULL, NULL));
    for (int i = 0; i < 6; i++) {
        double x = h[i];
        for (int k = 0; k < 10; k++)
            x += M[10 * i + k] * (sn_system_u(r.s)[k] - u0[k]) / dt;
        res = fmax(res, fabs(x));
        SNT_NEAR(pd[i], 0, 0);
    }
    printf("  floating base: PD torques %.3g on the base DOFs, %.3f on the hinge; base rows of "
           "M du/dt + h: %.1e (weight %.2f N)\n",
           max_abs(pd, 6), pd[6], res, 4.5 * GRAV);
    SNT_CHECK(fabs(pd[6]) > 100);
    SNT_CHECK(res < 1e-10 * 4.5 * GRAV);
    // back to FORCE_AND_TORQUE: kp = kd = 0 in steps 1 and 4
    SNT_STATUS_OK(sn_system_set_control_mode(r.s, SN_CONTROL_FORCE_AND_TORQUE));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_STATUS_OK(sn_system_step_torques(r.s, pd, NULL, NULL, NULL, NULL));
    SNT_NEAR(max_abs(pd, 10), 0, 0);
    SNT_CHECK(sn_system_set_control_mode(r.s, (sn_control_mode)5) == SN_ERR_ARG);
    // gains are checked
    kp[3] = -1;
    SNT_CHECK(sn_system_set_pd_gains(r.s, kp, kd, 10) == SN_ERR_ARG);
    kp[3] = NAN;
    SNT_CHECK(sn_system_set_pd_gains(r.s, kp, kd, 10) == SN_ERR_NONFINITE);
    kp[3] = 1;
    SNT_CHECK(sn_system_set_pd_gains(r.s, kp, kd, 9) == SN_ERR_ARG);
    SNT_CHECK(sn_system_control_mode(r.s) == SN_CONTROL_FORCE_AND_TORQUE); // unchanged
    SNT_CHECK(sn_system_set_pd_target(r.s, qref, 11, uref, 10) == SN_ERR_ARG);
    qref[3] = qref[4] = qref[5] = qref[6] = 0;
    SNT_CHECK(sn_system_set_pd_target(r.s, qref, 12, uref, 10) == SN_ERR_ARG);
    rig_close(&r);
    return 0;
}

static int test_state_setters(void) {
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", floating_arm_urdf), 1e-3, 0) == 0);
    double q[12], u[10], qs[12], us[10];
    tc_seed(5);
    tc_random_state(r.m, q, u);
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 12, u, 10));
    memcpy(qs, sn_system_q(r.s), sizeof qs);
    memcpy(us, sn_system_u(r.s), sizeof us);
    int w0 = sn_world_warning_count(r.w);
    double bq[12], bu[10];
    // wrong sizes, non-finite entries, zero quaternions: refused, nothing changes
    struct {
        int which, nq, nv, bad_q, bad_u;
        sn_status want;
    } cases[] = {
        {0, 11, 10, -1, -1, SN_ERR_ARG},      {0, 12, 9, -1, -1, SN_ERR_ARG},
        {0, 12, 10, 1, -1, SN_ERR_NONFINITE}, {0, 12, 10, -1, 4, SN_ERR_NONFINITE},
        {0, 12, 10, 103, -1, SN_ERR_ARG},     {0, 12, 10, 108, -1, SN_ERR_ARG},
        {1, 13, 0, -1, -1, SN_ERR_ARG},       {1, 12, 0, 9, -1, SN_ERR_NONFINITE},
        {1, 12, 0, 108, -1, SN_ERR_ARG},      {2, 0, 11, -1, -1, SN_ERR_ARG},
        {2, 0, 10, -1, 9, SN_ERR_NONFINITE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bq, q, sizeof bq);
        memcpy(bu, u, sizeof bu);
        if (cases[i].bad_q >= 100) // zero quaternion at that address (base 3, ball 8)
            memset(bq + cases[i].bad_q - 100, 0, 4 * sizeof(double));
        else if (cases[i].bad_q >= 0)
            bq[cases[i].bad_q] = i % 2 ? INFINITY : NAN;
        if (cases[i].bad_u >= 0) bu[cases[i].bad_u] = NAN;
        sn_status st = cases[i].which == 0
                           ? sn_system_set_state(r.s, bq, cases[i].nq, bu, cases[i].nv)
                       : cases[i].which == 1 ? sn_system_set_q(r.s, bq, cases[i].nq)
                                             : sn_system_set_u(r.s, bu, cases[i].nv);
        SNT_CHECK_MSG(st == cases[i].want, "case %zu: status %d, want %d", i, st, cases[i].want);
        SNT_CHECK_MSG(memcmp(qs, sn_system_q(r.s), sizeof qs) == 0, "case %zu changed q", i);
        SNT_CHECK_MSG(memcmp(us, sn_system_u(r.s), sizeof us) == 0, "case %zu changed u", i);
        SNT_CHECK(strlen(sn_world_last_error(r.w)) > 0);
    }
    SNT_CHECK(sn_world_warning_count(r.w) == w0);
    // a non-unit quaternion is normalized with a warning (base and ball: two warnings)
    memcpy(bq, q, sizeof bq);
    for (int k = 0; k < 4; k++)
        bq[3 + k] *= 2, bq[8 + k] *= 0.5;
    SNT_STATUS_OK(sn_system_set_q(r.s, bq, 12));
    printf("  warnings %d: \"%s\"\n", sn_world_warning_count(r.w) - w0, sn_world_last_warning(r.w));
    SNT_CHECK(sn_world_warning_count(r.w) == w0 + 2);
    SNT_CHECK(strstr(sn_world_last_warning(r.w), "normalized") != NULL);
    for (int k = 0; k < 12; k++)
        SNT_NEAR(sn_system_q(r.s)[k], q[k], 1e-15);
    SNT_CHECK(memcmp(us, sn_system_u(r.s), sizeof us) == 0); // setGeneralizedCoordinate keeps u
    // setGeneralizedVelocity keeps q
    SNT_STATUS_OK(sn_system_set_u(r.s, u, 10));
    SNT_CHECK(memcmp(us, sn_system_u(r.s), sizeof us) == 0);
    rig_close(&r);
    return 0;
}

// springs act on 1-DOF joints: the URDF stiffness of a spherical joint is not a spring, and
// addSpring refuses one; springs on one joint add up
static int test_springs_one_dof_only(void) {
    char* xml = strf("%s", floating_arm_urdf);
    char* at = strstr(xml, "<origin xyz=\"-0.1 0 0\"/></joint>");
    SNT_CHECK(at);
    char* full = strf("%.*s<origin xyz=\"-0.1 0 0\"/><dynamics stiffness=\"10\"/></joint>%s",
                      (int)(at - xml), xml, at + strlen("<origin xyz=\"-0.1 0 0\"/></joint>"));
    free(xml);
    rig r;
    SNT_CHECK(rig_open(&r, full, 1e-3, 1) == 0);
    int ball = sn_model_find(r.m, SN_OBJ_JOINT, "ball"),
        hinge = sn_model_find(r.m, SN_OBJ_JOINT, "hinge");
    SNT_CHECK(ball >= 0 && hinge >= 0 && r.m->joint_type[ball] == SN_JOINT_SPHERICAL);
    double k[10], rest[10];
    sn_system_springs(r.s, k, rest);
    SNT_NEAR(max_abs(k, 10), 0, 0);
    SNT_CHECK(r.m->nwarning == 1 && strstr(r.m->warnings[0], "stiffness")); // dropped, warned
    SNT_CHECK(sn_system_add_spring(r.s, ball, 5, 0) == SN_ERR_ARG);
    SNT_CHECK(sn_system_add_spring(r.s, 0, 5, 0) == SN_ERR_ARG); // the floating base
    SNT_CHECK(sn_system_add_spring(r.s, hinge, -1, 0) == SN_ERR_ARG);
    SNT_CHECK(sn_system_add_spring(r.s, hinge, 1, NAN) == SN_ERR_ARG);
    SNT_CHECK(sn_system_add_spring(r.s, 17, 1, 0) == SN_ERR_ARG);
    SNT_STATUS_OK(sn_system_add_spring(r.s, hinge, 30, 0.5));
    SNT_STATUS_OK(sn_system_add_spring(r.s, hinge, 10, -0.5));
    sn_system_springs(r.s, k, rest);
    int v = r.m->joint_vadr[hinge];
    printf("  hinge: stiffness %.1f, rest %.3f; ball: %.1f\n", k[v], rest[v],
           k[r.m->joint_vadr[ball]]);
    SNT_NEAR(k[v], 40, 0);
    SNT_NEAR(rest[v], 0.25, 1e-15);
    SNT_NEAR(max_abs(k, 10), 40, 0);
    SNT_STATUS_OK(sn_world_integrate(r.w));
    double spr[10];
    SNT_STATUS_OK(sn_system_step_torques(r.s, NULL, NULL, NULL, spr, NULL));
    double du = sn_system_u(r.s)[v];
    SNT_NEAR(spr[v], 40 * (0.25 - 0) - 0.25 * 1e-3 * 40 * du, 1e-13);
    spr[v] = 0;
    SNT_NEAR(max_abs(spr, 10), 0, 0);
    rig_close(&r);
    return 0;
}

// an external force or torque acts during the next step only
static int test_external_force_one_step(void) {
    const double dt = 1e-3;
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", floating_arm_urdf), dt, 0) == 0);
    double g0[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_world_set_gravity(r.w, g0));
    double p[3] = {0.3, 0.1, -0.2}, f[3] = {4.5, -9, 2.25}, t[3] = {0.2, 0.3, 0};
    double ex[10], M[100], h[10], u0[10], res[10];
    // two calls before a step add up; the force acts in that step only
    SNT_STATUS_OK(sn_system_set_external_force(r.s, 1, p, f));
    SNT_STATUS_OK(sn_system_set_external_force(r.s, 1, p, f));
    SNT_STATUS_OK(sn_system_set_external_torque(r.s, 2, t));
    for (int step = 0; step < 3; step++) {
        SNT_STATUS_OK(sn_world_integrate1(r.w));
        memcpy(M, sn_system_mass_matrix(r.s), sizeof M);
        memcpy(h, sn_system_nonlinear(r.s), sizeof h);
        memcpy(u0, sn_system_u(r.s), sizeof u0);
        SNT_STATUS_OK(sn_world_integrate2(r.w));
        SNT_STATUS_OK(sn_system_step_torques(r.s, NULL, NULL, NULL, NULL, ex));
        for (int i = 0; i < 10; i++) { // the step's generalized force: M du/dt + h
            res[i] = h[i];
            for (int k = 0; k < 10; k++)
                res[i] += M[10 * i + k] * (sn_system_u(r.s)[k] - u0[k]) / dt;
        }
        printf("  step %d: M du/dt + h = (%.6f, %.6f, %.6f | %.6f, %.6f, %.6f | %.6f ...), "
               "external term max %.3g\n",
               step + 1, res[0], res[1], res[2], res[3], res[4], res[5], res[6], max_abs(ex, 10));
        for (int i = 0; i < 10; i++)
            SNT_NEAR(res[i], ex[i], 1e-11);
        if (step == 0) {
            for (int k = 0; k < 3; k++) // the base's linear entries are the world force
                SNT_NEAR(ex[k], 2 * f[k], 1e-14);
            SNT_CHECK(fabs(ex[6]) > 0.1); // the torque reaches the hinge
        } else {
            SNT_NEAR(max_abs(ex, 10), 0, 0);
        }
    }
    // bad inputs
    double nanv[3] = {NAN, 0, 0};
    SNT_CHECK(sn_system_set_external_force(r.s, 1, p, nanv) == SN_ERR_NONFINITE);
    SNT_CHECK(sn_system_set_external_torque(r.s, 1, nanv) == SN_ERR_NONFINITE);
    SNT_CHECK(sn_system_set_external_force(r.s, 9, p, f) == SN_ERR_ARG);
    SNT_STATUS_OK(sn_world_integrate2(r.w));
    SNT_STATUS_OK(sn_system_step_torques(r.s, NULL, NULL, NULL, NULL, ex));
    SNT_NEAR(max_abs(ex, 10), 0, 0); // the refused calls left nothing behind
    rig_close(&r);
    return 0;
}

// integrate1 then integrate2 is integrate; a controller may read M and h and change its gains
// between the two (Integration Steps, step 7)
static int test_integrate_split(void) {
    const double dt = 2e-3;
    rig a, b;
    tree_inputs ia, ib;
    SNT_CHECK(tree_setup(&a, &ia, dt) == 0);
    SNT_CHECK(tree_setup(&b, &ib, dt) == 0);
    double kp2[7], kd2[7];
    for (int i = 0; i < 7; i++)
        kp2[i] = 2 * ia.kp[i], kd2[i] = 0.5 * ia.kd[i];
    for (int n = 0; n < 50; n++) {
        if (n == 20) SNT_STATUS_OK(sn_system_set_pd_gains(a.s, kp2, kd2, 7));
        SNT_STATUS_OK(sn_world_integrate(a.w));
        SNT_STATUS_OK(sn_world_integrate1(b.w));
        (void)sn_system_mass_matrix(b.s);
        (void)sn_system_nonlinear(b.s);
        (void)sn_system_inverse_mass(b.s);
        (void)sn_system_kinetic_energy(b.s);
        if (n == 20) SNT_STATUS_OK(sn_system_set_pd_gains(b.s, kp2, kd2, 7));
        SNT_STATUS_OK(sn_world_integrate2(b.w));
    }
    SNT_CHECK(memcmp(sn_system_q(a.s), sn_system_q(b.s), 8 * sizeof(double)) == 0);
    SNT_CHECK(memcmp(sn_system_u(a.s), sn_system_u(b.s), 7 * sizeof(double)) == 0);
    SNT_CHECK(sn_world_time(a.w) == sn_world_time(b.w));
    printf("  50 steps: integrate and integrate1 + integrate2 agree bit for bit (t = %.3f s)\n",
           sn_world_time(a.w));
    rig_close(&a);
    rig_close(&b);
    return 0;
}

// a step whose result is not finite returns SN_ERR_NONFINITE and changes nothing
static int test_failed_step_leaves_state(void) {
    const char* light = "<robot name=\"l\"><link name=\"world\"/><link name=\"b\"><inertial>"
                        "<mass value=\"0.01\"/><inertia ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" "
                        "iyy=\"1e-4\" iyz=\"0\" izz=\"1e-4\"/></inertial></link><joint name=\"x\" "
                        "type=\"prismatic\"><parent link=\"world\"/><child link=\"b\"/>"
                        "<axis xyz=\"1 0 0\"/></joint></robot>";
    sn_model* ml = tc_load_string(light, 0);
    sn_model* mt = tc_load_string(floating_arm_urdf, 0);
    SNT_CHECK(ml && mt);
    sn_world* w;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_CHECK(sn_world_timestep(w) == 0.001);
    sn_system *good, *bad;
    SNT_STATUS_OK(sn_world_add_system(w, mt, &good, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, ml, &bad, NULL));
    SNT_CHECK(sn_world_system_count(w) == 2 && sn_world_system(w, 1) == bad);
    for (int i = 0; i < 10; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double q0 = 0.25, u0 = -1;
    SNT_STATUS_OK(sn_system_set_state(bad, &q0, 1, &u0, 1));
    double gq[12], gu[10], t0 = sn_world_time(w), huge = 1e308;
    memcpy(gq, sn_system_q(good), sizeof gq);
    memcpy(gu, sn_system_u(good), sizeof gu);
    SNT_STATUS_OK(sn_system_set_generalized_force(bad, &huge, 1));
    // a force pending on the system stepped before the failing one stays pending (below: the
    // recovering step applies it)
    double fx[3] = {3, 0, 0}, at[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_system_set_external_force(good, 1, at, fx));
    sn_status st = sn_world_integrate(w);
    printf("  tau = 1e308 on 0.01 kg: status %s, \"%s\"\n", sn_status_str(st),
           sn_world_last_error(w));
    SNT_CHECK(st == SN_ERR_NONFINITE);
    SNT_CHECK(sn_system_q(bad)[0] == q0 && sn_system_u(bad)[0] == u0);
    SNT_CHECK(memcmp(gq, sn_system_q(good), sizeof gq) == 0); // the system stepped before it too
    SNT_CHECK(memcmp(gu, sn_system_u(good), sizeof gu) == 0);
    SNT_CHECK(sn_world_time(w) == t0);
    // recovers once the input is sane, as a twin world that never took the failed step
    double zero = 0;
    SNT_STATUS_OK(sn_system_set_generalized_force(bad, &zero, 1));
    SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK(sn_world_time(w) > t0);
    SNT_NEAR(sn_system_q(bad)[0], q0 + 1e-3 * u0, 1e-15);
    sn_world* w2;
    sn_system *good2, *bad2;
    SNT_STATUS_OK(sn_world_create(NULL, &w2, NULL));
    SNT_STATUS_OK(sn_world_add_system(w2, mt, &good2, NULL));
    SNT_STATUS_OK(sn_world_add_system(w2, ml, &bad2, NULL));
    for (int i = 0; i < 10; i++)
        SNT_STATUS_OK(sn_world_integrate(w2));
    SNT_STATUS_OK(sn_system_set_state(bad2, &q0, 1, &u0, 1));
    SNT_STATUS_OK(sn_system_set_external_force(good2, 1, at, fx));
    SNT_STATUS_OK(sn_world_integrate(w2));
    double du = 0;
    for (int i = 0; i < 10; i++)
        du = fmax(du, fabs(sn_system_u(good)[i] - sn_system_u(good2)[i]));
    printf("  the pending force survives the failed step: u off the twin world's by %.1e\n", du);
    SNT_CHECK(memcmp(sn_system_u(good), sn_system_u(good2), sizeof gu) == 0);
    SNT_CHECK(memcmp(sn_system_q(good), sn_system_q(good2), sizeof gq) == 0);
    sn_world_destroy(w2);
    // timestep and gravity setters check their inputs
    SNT_CHECK(sn_world_set_timestep(w, 0) == SN_ERR_ARG);
    SNT_CHECK(sn_world_set_timestep(w, NAN) == SN_ERR_ARG);
    double g[3] = {0, NAN, 0}, g2[3];
    SNT_CHECK(sn_world_set_gravity(w, g) == SN_ERR_NONFINITE);
    sn_world_gravity(w, g2);
    SNT_CHECK(g2[0] == 0 && g2[1] == 0 && g2[2] == -9.81);
    sn_world_destroy(w);
    sn_model_destroy(ml);
    sn_model_destroy(mt);
    return 0;
}

// a step that fails on a system before one the contact solver corrected leaves no correction
// behind: the penetrating sphere's pending push-out does not move it in a later step
static int test_failed_step_leaves_no_correction(void) {
    sn_world* w;
    sn_system *spin, *ball;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double size[3] = {0.2, 0.2, 0.2};
    SNT_STATUS_OK(sn_world_add_box(w, size, 1, &spin));
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &ball));
    double qa[7] = {5, 0, 1, 1, 0, 0, 0}, ua[6] = {0, 0, 0, 1e170, 3e169, 0};
    double qb[7] = {0, 0, 0.08, 1, 0, 0, 0}, ub[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(spin, qa, 7, ua, 6));
    SNT_STATUS_OK(sn_system_set_state(ball, qb, 7, ub, 6));
    sn_status st = sn_world_integrate(w);
    printf("  a box spinning at 1e170 rad/s beside a sphere 2 cm deep: %s\n", sn_status_str(st));
    SNT_CHECK(st != SN_OK);
    SNT_CHECK(sn_system_q(ball)[2] == 0.08);
    double g[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_world_set_gravity(w, g));
    qa[2] = 3, qb[2] = 2;
    memset(ua, 0, sizeof ua);
    SNT_STATUS_OK(sn_system_set_state(spin, qa, 7, ua, 6));
    SNT_STATUS_OK(sn_system_set_state(ball, qb, 7, ub, 6));
    SNT_STATUS_OK(sn_world_integrate(w));
    printf("  then at rest in the air without gravity: z = %.9f m after a step (set 2)\n",
           sn_system_q(ball)[2]);
    SNT_CHECK(sn_system_q(ball)[2] == 2 && sn_system_q(spin)[2] == 3);
    sn_world_destroy(w);
    return 0;
}

// no heap allocation in a step, whatever is active
typedef struct counter {
    long calls;
} counter;
static void* count_alloc(size_t size, size_t align, void* ctx) {
    ((counter*)ctx)->calls++;
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void count_free(void* p, size_t size, void* ctx) {
    (void)size, (void)ctx;
    free(p);
}

static int no_heap_on(sn_model* m, const char* name) {
    counter c = {0};
    sn_allocator al = {count_alloc, count_free, &c};
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    int nv = m->nv, nq = m->nq;
    double* buf = calloc((size_t)(6 * nv + 2 * nq), sizeof(double));
    double *kp = buf, *kd = kp + nv, *ur = kd + nv, *tau = ur + nv, *q = tau + nv, *u = q + nq;
    tc_seed(11);
    tc_random_state(m, q, u);
    for (int i = 0; i < nv; i++)
        kp[i] = 100, kd[i] = 2, tau[i] = 0.1;
    SNT_STATUS_OK(sn_system_set_state(s, q, nq, u, nv));
    SNT_STATUS_OK(sn_system_set_pd_gains(s, kp, kd, nv));
    SNT_STATUS_OK(sn_system_set_pd_target(s, q, nq, ur, nv));
    SNT_STATUS_OK(sn_system_set_generalized_force(s, tau, nv));
    for (int j = 0; j < m->njoint && sn_system_actuator_count(s) < 2; j++)
        if (m->joint_nv[j] == 1) {
            sn_actuator_desc a;
            memset(&a, 0, sizeof a);
            a.joint = j, a.gear = 5, a.kt = 0.1, a.vbus = 24, a.resistance = 1, a.kv = 10;
            SNT_STATUS_OK(sn_system_add_actuator(s, &a, NULL));
        }
    double at[2] = {1, -1}, p[3] = {0.1, 0, 0}, f[3] = {1, 2, 3};
    if (sn_system_actuator_count(s))
        SNT_STATUS_OK(sn_system_set_actuator_torques(s, at, sn_system_actuator_count(s)));
    sn_system_set_compute_inverse_dynamics(s, 1);
    tc_heap_install();
    long before = tc_heap_calls(), lib_before = c.calls;
    for (int sc = 0; sc < 4; sc++) {
        SNT_STATUS_OK(sn_system_set_scheme(s, (sn_scheme)sc));
        for (int n = 0; n < 5; n++) {
            SNT_STATUS_OK(sn_system_set_external_force(s, m->nbody - 1, p, f));
            SNT_STATUS_OK(sn_world_integrate(w));
            SNT_STATUS_OK(sn_world_integrate1(w));
            (void)sn_system_mass_matrix(s);
            (void)sn_system_nonlinear(s);
            SNT_STATUS_OK(sn_world_integrate2(w));
            SNT_STATUS_OK(sn_system_generalized_force(s, tau, nv));
        }
    }
    long calls = tc_heap_calls() - before, lib = c.calls - lib_before;
    printf("  %s (nv %d): 40 steps, every scheme, PD, actuators, external forces, inverse "
           "dynamics: %ld heap calls, %ld allocator calls\n",
           name, nv, calls, lib);
    SNT_CHECK(calls == 0 && lib == 0);
    free(buf);
    sn_world_destroy(w);
    return 0;
}

static int test_no_heap_in_integrate(void) {
    tc_heap_install();
    long before = tc_heap_calls();
    void* volatile probe = malloc(64); // the counter sees a deliberate allocation
    free(probe);
    SNT_CHECK(tc_heap_calls() > before);
    for (int t = 0; t < 3; t++) {
        char* xml = tc_random_urdf(6 + 3 * t, t % 2, 4100 + (unsigned long long)t);
        sn_model* m = tc_load_string(xml, 1);
        free(xml);
        SNT_CHECK(m);
        SNT_CHECK(no_heap_on(m, "random tree") == 0);
        sn_model_destroy(m);
    }
    const char* path = tc_model_path("raisim_anymal_c/urdf/anymal.urdf");
    if (path) {
        sn_model* m = NULL;
        if (sn_load_urdf(path, NULL, &m, NULL) == SN_OK) {
            SNT_CHECK(no_heap_on(m, "ANYmal C") == 0);
            sn_model_destroy(m);
        }
    }
    return 0;
}

// ---- 10. inverse dynamics of the step ----

// for each joint, S^T (its transmitted wrench) is the joint's share of the step's torque: the
// table's sum, i.e. M du/dt + h, minus the external forces (they act on the bodies, not through
// the joint) and minus the rotor inertia's own torque armature du/dt
static int test_inverse_dynamics_joint_torques(void) {
    const double dt = 2e-3;
    for (int sc = 0; sc < 4; sc++) {
        rig r;
        tree_inputs in;
        SNT_CHECK(tree_setup(&r, &in, dt) == 0);
        const sn_model* m = r.m;
        int nv = m->nv;
        SNT_CHECK(sn_system_joint_wrench(r.s, 0, NULL, NULL) == SN_ERR_ARG); // off
        sn_system_set_compute_inverse_dynamics(r.s, 1);
        SNT_CHECK(sn_system_joint_wrench(r.s, 0, NULL, NULL) == SN_ERR_ARG); // no step yet
        SNT_STATUS_OK(sn_system_set_scheme(r.s, (sn_scheme)sc));
        ext_load x = {sn_model_find(m, SN_OBJ_BODY, "d"),
                      sn_model_find(m, SN_OBJ_BODY, "c"),
                      {0.1, 0, 0.05},
                      {3, -2, 5},
                      {0.4, 0.1, -0.3}};
        double M[49], hv[7], ext[7], u0[7], du[7], R[9], pos[3];
        SNT_STATUS_OK(sn_world_integrate1(r.w));
        sn_data* d = sn_system_data(r.s);
        memcpy(M, sn_system_mass_matrix(r.s), sizeof M);
        memcpy(hv, sn_system_nonlinear(r.s), sizeof hv);
        ext_generalized(m, d, &x, ext);
        SNT_STATUS_OK(sn_system_set_external_force(r.s, x.body_f, x.point, x.force));
        SNT_STATUS_OK(sn_system_set_external_torque(r.s, x.body_t, x.torque));
        // the joint frames at the step's start
        double axis[5][3], frame[5][9];
        for (int j = 0; j < m->njoint; j++) {
            int p = m->body_parent[m->joint_body[j]];
            memcpy(R, d->body_rot + 9 * p, sizeof R);
            double Rj[9];
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++) {
                    double s = 0;
                    for (int l = 0; l < 3; l++)
                        s += R[3 * i + l] * m->joint_rot[9 * j + 3 * l + k];
                    Rj[3 * i + k] = s;
                }
            memcpy(frame[j], Rj, sizeof Rj);
            for (int i = 0; i < 3; i++)
                axis[j][i] = Rj[3 * i] * m->joint_axis[3 * j] +
                             Rj[3 * i + 1] * m->joint_axis[3 * j + 1] +
                             Rj[3 * i + 2] * m->joint_axis[3 * j + 2];
        }
        (void)pos;
        memcpy(u0, sn_system_u(r.s), sizeof u0);
        SNT_STATUS_OK(sn_world_integrate2(r.w));
        for (int i = 0; i < nv; i++)
            du[i] = sn_system_u(r.s)[i] - u0[i];
        double t[5][7], want[7], err = 0, err_tab = 0;
        SNT_STATUS_OK(sn_system_step_torques(r.s, t[0], t[1], t[2], t[3], t[4]));
        for (int i = 0; i < nv; i++) {
            want[i] = hv[i] - ext[i] - m->dof_armature[i] * du[i] / dt;
            for (int k = 0; k < nv; k++)
                want[i] += M[i * nv + k] * du[k] / dt;
            if (sc != SN_SCHEME_RK4) { // the table gives the same number
                double tab =
                    t[0][i] + t[1][i] + t[2][i] + t[3][i] - m->dof_armature[i] * du[i] / dt;
                err_tab = fmax(err_tab, fabs(tab - want[i]) / fmax(1, fabs(want[i])));
            }
        }
        for (int j = 0; j < m->njoint; j++) {
            double f[3], n[3];
            SNT_STATUS_OK(sn_system_joint_wrench(r.s, m->joint_ujoint[j], f, n));
            int v = m->joint_vadr[j], type = m->joint_type[j];
            if (type == SN_JOINT_SPHERICAL) {
                for (int k = 0; k < 3; k++) { // the torque in the joint frame, like u
                    double s = frame[j][k] * n[0] + frame[j][3 + k] * n[1] + frame[j][6 + k] * n[2];
                    err = fmax(err, fabs(s - want[v + k]) / fmax(1, fabs(want[v + k])));
                }
                continue;
            }
            const double* vec = type == SN_JOINT_PRISMATIC ? f : n;
            double s = axis[j][0] * vec[0] + axis[j][1] * vec[1] + axis[j][2] * vec[2];
            err = fmax(err, fabs(s - want[v]) / fmax(1, fabs(want[v])));
        }
        printf("  scheme %d: joint axis . wrench vs M du/dt + h - J^T F - armature du/dt: %.1e "
               "(table: %.1e; |tau| max %.2f)\n",
               sc, err, err_tab, max_abs(want, nv));
        SNT_CHECK(err < 5e-13 && err_tab < 5e-13); // docs/step.md: 6e-14
        SNT_CHECK(max_abs(want, nv) > 1);
        rig_close(&r);
    }
    return 0;
}

// the weld of a fixed base carries the weight of a robot at rest, and its moment
static int test_inverse_dynamics_weld_carries_weight(void) {
    const char* xml =
        "<robot name=\"w\"><link name=\"world\"/><link name=\"base\"><inertial><origin "
        "xyz=\"0.1 0.05 0.2\"/><mass value=\"2\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" "
        "iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link><link name=\"arm\"><inertial>"
        "<origin xyz=\"0.3 0 0.1\"/><mass value=\"1.5\"/><inertia ixx=\"0.02\" ixy=\"0\" "
        "ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.02\"/></inertial></link>"
        "<joint name=\"weld\" type=\"fixed\"><parent link=\"world\"/><child link=\"base\"/>"
        "<origin xyz=\"1 2 0.5\"/></joint><joint name=\"yaw\" type=\"continuous\">"
        "<parent link=\"base\"/><child link=\"arm\"/><origin xyz=\"0 0 0.3\"/>"
        "<axis xyz=\"0 0 1\"/></joint></robot>";
    rig r;
    SNT_CHECK(rig_open(&r, strf("%s", xml), 1e-3, 0) == 0);
    double q = 0.7, u = 0;
    SNT_STATUS_OK(sn_system_set_state(r.s, &q, 1, &u, 1));
    sn_system_set_compute_inverse_dynamics(r.s, 1);
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_NEAR(sn_system_u(r.s)[0], 0, 0); // at rest: gravity has no torque about z
    int weld = sn_model_find(r.m, SN_OBJ_URDF_JOINT, "weld");
    SNT_CHECK(weld >= 0);
    double f[3], n[3];
    SNT_STATUS_OK(sn_system_joint_wrench(r.s, weld, f, n));
    // the moment about the weld origin (1, 2, 0.5) of the weight of both bodies
    double c1[3] = {1.1, 2.05, 0.7}, c2[3] = {1 + 0.3 * cos(q), 2 + 0.3 * sin(q), 0.9};
    double nz[3] = {0, 0, 0};
    for (int b = 0; b < 2; b++) {
        const double* c = b ? c2 : c1;
        double w = (b ? 1.5 : 2) * GRAV, rx = c[0] - 1, ry = c[1] - 2;
        nz[0] += ry * w, nz[1] -= rx * w; // (c - x) x (0, 0, w)
    }
    printf("  weld: force (%.3g, %.3g, %.12f) N (weight %.12f), torque (%.9f, %.9f, %.3g)\n", f[0],
           f[1], f[2], 3.5 * GRAV, n[0], n[1], n[2]);
    SNT_NEAR(f[0], 0, 1e-12);
    SNT_NEAR(f[1], 0, 1e-12);
    SNT_NEAR(f[2], 3.5 * GRAV, 1e-12);
    for (int k = 0; k < 3; k++)
        SNT_NEAR(n[k], nz[k], 1e-12);
    rig_close(&r);
    return 0;
}

SNT_SUITE(SNT_TEST(test_pendulum_swing_per_scheme), SNT_TEST(test_pendulum_swing_linear_regime),
          SNT_TEST(test_pendulum_trapezoid_nine_percent), SNT_TEST(test_free_fall_per_scheme),
          SNT_TEST(test_mass_spring_damper), SNT_TEST(test_pendulum_periods),
          SNT_TEST(test_step_torque_table), SNT_TEST(test_pd_exceeds_limit_after_velocity_jump),
          SNT_TEST(test_rk4_table_and_actuator_stage), SNT_TEST(test_pd_stability_quadruped),
          SNT_TEST(test_motor_operating_regions), SNT_TEST(test_couplings_and_effort_clamp),
          SNT_TEST(test_energy_never_increases_with_damping),
          SNT_TEST(test_scheme_replacement_rules), SNT_TEST(test_pd_gains_floating_base),
          SNT_TEST(test_state_setters), SNT_TEST(test_springs_one_dof_only),
          SNT_TEST(test_external_force_one_step), SNT_TEST(test_integrate_split),
          SNT_TEST(test_failed_step_leaves_state), SNT_TEST(test_failed_step_leaves_no_correction),
          SNT_TEST(test_no_heap_in_integrate), SNT_TEST(test_inverse_dynamics_joint_torques),
          SNT_TEST(test_inverse_dynamics_weld_carries_weight))
