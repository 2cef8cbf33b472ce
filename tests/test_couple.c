// SPDX-License-Identifier: Apache-2.0
// test_couple.c: constraints between the systems of a world (src/couple/, issue 14; the
// section "Constraints between systems" of docs/constraints.md): welds, pins, rigid lengths and
// wires between links of different systems, eliminated exactly with the contacts. Each test
// asserts numbers: closures, forces against the weight they hold, momentum, a wire's length,
// fall and static stretch, bit-identical trajectories of a system nothing couples, no heap call
// in a step, a checkpoint's round trip.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "sinew/sn_maximal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARM_FILE SNT_DATA_DIR "/couple_arm.urdf"
#define G0 9.81


// ---- set-up ----

// tests/data/couple_arm.urdf mounted at (x, 0, z) instead of (0, 0, 1)
static sn_model* load_arm(double x, double z) {
    FILE* f = fopen(ARM_FILE, "rb");
    if (!f) return NULL;
    static char text[8192], out[8400];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    const char* key = "xyz=\"0 0 1\" rpy=\"0 0 0\"";
    char* at = strstr(text, key);
    if (!at) return NULL;
    *at = 0;
    snprintf(out, sizeof out, "%sxyz=\"%.17g 0 %.17g\" rpy=\"0 0 0\"%s", text, x, z,
             at + strlen(key));
    return tc_load_string(out, 0);
}


static sn_world* world_new(double dt, int gravity) {
    sn_world* w = NULL;
    sn_error err;
    if (sn_world_create(NULL, &w, &err) != SN_OK) return NULL;
    sn_world_set_timestep(w, dt);
    if (!gravity) {
        double g[3] = {0, 0, 0};
        sn_world_set_gravity(w, g);
    }
    return w;
}


static sn_system* add_model(sn_world* w, const sn_model* m) {
    sn_system* s = NULL;
    sn_error err;
    return sn_world_add_system(w, m, &s, &err) == SN_OK ? s : NULL;
}


// PD holding the arm at q (kp, kd on each joint)
static void hold(sn_system* s, const double* q, double kp, double kd) {
    double k[3] = {kp, kp, kp}, d[3] = {kd, kd, kd}, u[3] = {0, 0, 0};
    sn_system_set_state(s, q, 3, u, 3);
    sn_system_set_pd_gains(s, k, d, 3);
    sn_system_set_pd_target(s, q, 3, u, 3);
}


// the largest error of every world constraint now
static double worst_error(sn_world* w) {
    double e = 0;
    for (int i = 0; i < sn_world_constraint_count(w); i++) {
        double x = INFINITY;
        if (sn_world_constraint_error(w, i, &x) != SN_OK) return INFINITY;
        e = fmax(e, x);
    }
    return e;
}


static sn_constraint_desc desc(sn_constraint_kind kind, sn_system* sa, int ba, sn_system* sb,
                               int bb) {
    sn_constraint_desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.system_a = sa;
    d.body_a = ba;
    d.system_b = sb;
    d.body_b = bb;
    return d;
}


// a free box of mass m and size s at x (its link frame at its centre of mass)
static sn_system* add_box(sn_world* w, double m, double s, const double* x) {
    sn_system* b = NULL;
    double size[3] = {s, s, s};
    if (sn_world_add_box(w, size, m, &b) != SN_OK) return NULL;
    double q[7] = {x[0], x[1], x[2], 1, 0, 0, 0}, u[6] = {0};
    sn_system_set_state(b, q, 7, u, 6);
    return b;
}


// ---- two arms welded to one box ----

// the world of the weld test: two arms with bent elbows (shoulder a, elbow -2a, wrist a: the hand
// level), arm 1 at the origin reaching along +x, arm 2 mirrored reaching along -x, and a 0.2 m
// box of mass mb between their hands, welded to both
typedef struct weld_scene {
    sn_world* w;
    sn_model *m1, *m2;
    sn_system *a1, *a2, *box;
    int hand;
} weld_scene;

static int weld_scene_open(weld_scene* sc, double dt, double mb) {
    memset(sc, 0, sizeof *sc);
    double a = 0.5, reach = 0.6 * cos(a);
    sc->w = world_new(dt, 1);
    sc->m1 = load_arm(0, 1);
    sc->m2 = load_arm(2 * reach + 0.4, 1);
    if (!sc->w || !sc->m1 || !sc->m2) return 1;
    sc->a1 = add_model(sc->w, sc->m1);
    sc->a2 = add_model(sc->w, sc->m2);
    double xb[3] = {reach + 0.2, 0, 1};
    sc->box = add_box(sc->w, mb, 0.2, xb);
    if (!sc->a1 || !sc->a2 || !sc->box) return 1;
    sc->hand = sn_model_find(sc->m1, SN_OBJ_BODY, "hand");
    if (sc->hand < 0) return 1;
    double q1[3] = {a, -2 * a, a}, q2[3] = {M_PI - a, 2 * a, -a};
    hold(sc->a1, q1, 400, 20);
    hold(sc->a2, q2, 400, 20);
    // the box is body a: the reports are the forces on it
    sn_constraint_desc d = desc(SN_CONSTRAINT_WELD, sc->box, 1, sc->a1, sc->hand);
    d.anchor_a[0] = -0.1;
    d.anchor_b[0] = 0.1;
    if (sn_world_add_constraint(sc->w, &d, NULL) != SN_OK) return 1;
    d = desc(SN_CONSTRAINT_WELD, sc->box, 1, sc->a2, sc->hand);
    d.anchor_a[0] = 0.1;
    d.anchor_b[0] = 0.1;
    // arm 2's hand is turned by pi about y: its frame in the hand's axes makes it the box's
    double Qb[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
    memcpy(d.frame_b, Qb, sizeof Qb);
    return sn_world_add_constraint(sc->w, &d, NULL) != SN_OK;
}

static void weld_scene_close(weld_scene* sc) {
    sn_world_destroy(sc->w);
    sn_model_destroy(sc->m1);
    sn_model_destroy(sc->m2);
}


static int test_two_arms_weld_box(void) {
    weld_scene sc;
    double mb = 2.0, dt = 1e-3;
    if (weld_scene_open(&sc, dt, mb)) {
        weld_scene_close(&sc);
        SNT_FAIL_AT("weld scene: %s", sc.w ? sn_world_last_error(sc.w) : "no world");
    }
    double e0 = worst_error(sc.w), emax = 0, drop = 0;
    const double* qb = sn_system_q(sc.box);
    for (int k = 0; k < 2000; k++) {
        sn_status st = sn_world_integrate(sc.w);
        SNT_CHECK_MSG(st == SN_OK, "step %d: %s", k, sn_world_last_error(sc.w));
        emax = fmax(emax, worst_error(sc.w));
        drop = fmax(drop, 1 - qb[2]);
    }
    double f1[3], f2[3], t1[3];
    int taut = -1;
    SNT_STATUS_OK(sn_world_constraint_force(sc.w, 0, f1, t1, &taut));
    SNT_STATUS_OK(sn_world_constraint_force(sc.w, 1, f2, NULL, NULL));
    const double* ub = sn_system_u(sc.box);
    double speed = 0;
    for (int i = 0; i < 6; i++)
        speed = fmax(speed, fabs(ub[i]));
    double fz = f1[2] + f2[2];
    printf("  welds: closure %.3g m at the start, max %.3g m (max over 6 rows x 2 welds, 2 s); "
           "the box sank %.3g m (PD sag) and moves at %.3g m/s at the end; vertical forces "
           "%.6f + %.6f = %.9f N, m g = %.9f N (rel %.3g); x: %.6f %+.6f\n",
           e0, emax, drop, speed, f1[2], f2[2], fz, mb * G0, fabs(fz - mb * G0) / (mb * G0), f1[0],
           f2[0]);
    SNT_CHECK(taut == 0);
    SNT_CHECK(emax < 1e-6);
    SNT_CHECK(speed < 1e-6);
    SNT_NEAR_REL(fz, mb * G0, 1e-6, 1);
    SNT_NEAR(f1[0] + f2[0], 0, 1e-6 * mb * G0);
    weld_scene_close(&sc);
    return 0;
}


// ---- momentum of two free bodies joined by a ball ----

// a free body with a spherical inertia (k per axis): its free flight keeps its angular
// momentum exactly in the world's step (no gyroscopic term), so any change is the constraint's
static sn_system* add_ball_body(sn_world* w, double m, double k) {
    sn_body_desc b;
    memset(&b, 0, sizeof b);
    b.shape = SN_GEOM_SPHERE;
    b.size[0] = 0.1;
    b.mass = m;
    b.inertia[0] = b.inertia[3] = b.inertia[5] = k;
    sn_system* s = NULL;
    return sn_world_add_body(w, &b, &s) == SN_OK ? s : NULL;
}


// linear momentum and angular momentum about the world origin of free bodies (COM at the link
// origin, spherical inertia k)
static void momentum(sn_system* const* s, const double* mass, const double* k, int n, double* p,
                     double* L) {
    memset(p, 0, 3 * sizeof(double));
    memset(L, 0, 3 * sizeof(double));
    for (int i = 0; i < n; i++) {
        const double *q = sn_system_q(s[i]), *u = sn_system_u(s[i]);
        for (int e = 0; e < 3; e++)
            p[e] += mass[i] * u[e];
        L[0] += mass[i] * (q[1] * u[2] - q[2] * u[1]) + k[i] * u[3];
        L[1] += mass[i] * (q[2] * u[0] - q[0] * u[2]) + k[i] * u[4];
        L[2] += mass[i] * (q[0] * u[1] - q[1] * u[0]) + k[i] * u[5];
    }
}


static int test_momentum_ball(void) {
    sn_world* w = world_new(1e-3, 0);
    double mass[2] = {1.5, 0.7}, k[2] = {0.02, 0.01};
    sn_system* s[2] = {add_ball_body(w, mass[0], k[0]), add_ball_body(w, mass[1], k[1])};
    SNT_CHECK(s[0] && s[1]);
    // a at the origin, b 0.5 m along x; the ball at x = 0.2 (a's anchor (0.2, 0, 0), b's
    // (-0.3, 0, 0)); spinning and drifting with velocities that keep the anchors together
    double qa[7] = {0, 0, 0, 1, 0, 0, 0}, qb[7] = {0.5, 0, 0, 1, 0, 0, 0};
    double wa[3] = {0.3, -0.8, 1.1}, wb[3] = {-0.5, 0.4, 2.0}, v0[3] = {0.1, -0.2, 0.05};
    // v_anchor = v + w x r: both anchors at v0 + ...; choose va, vb so that they agree
    double ra[3] = {0.2, 0, 0}, rb[3] = {-0.3, 0, 0}, ua[6], ub[6];
    for (int e = 0; e < 3; e++)
        ua[3 + e] = wa[e], ub[3 + e] = wb[e];
    double wra[3] = {wa[1] * ra[2] - wa[2] * ra[1], wa[2] * ra[0] - wa[0] * ra[2],
                     wa[0] * ra[1] - wa[1] * ra[0]};
    double wrb[3] = {wb[1] * rb[2] - wb[2] * rb[1], wb[2] * rb[0] - wb[0] * rb[2],
                     wb[0] * rb[1] - wb[1] * rb[0]};
    for (int e = 0; e < 3; e++) {
        ua[e] = v0[e] - wra[e];
        ub[e] = v0[e] - wrb[e];
    }
    SNT_STATUS_OK(sn_system_set_state(s[0], qa, 7, ua, 6));
    SNT_STATUS_OK(sn_system_set_state(s[1], qb, 7, ub, 6));
    sn_constraint_desc d = desc(SN_CONSTRAINT_BALL, s[0], 1, s[1], 1);
    memcpy(d.anchor_a, ra, sizeof ra);
    memcpy(d.anchor_b, rb, sizeof rb);
    SNT_STATUS_OK(sn_world_add_constraint(w, &d, NULL));
    double p0[3], L0[3], p[3], L[3], dp = 0, dL = 0, emax = 0, fmaxn = 0;
    momentum(s, mass, k, 2, p0, L0);
    double np0 = sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
    double nL0 = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    for (int it = 0; it < 2000; it++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        momentum(s, mass, k, 2, p, L);
        for (int e = 0; e < 3; e++) {
            dp = fmax(dp, fabs(p[e] - p0[e]) / np0);
            dL = fmax(dL, fabs(L[e] - L0[e]) / nL0);
        }
        emax = fmax(emax, worst_error(w));
        double f[3];
        sn_world_constraint_force(w, 0, f, NULL, NULL);
        fmaxn = fmax(fmaxn, sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]));
    }
    printf("  ball between two spinning free bodies, 2 s at 1 ms: linear momentum rel %.3g, "
           "angular rel %.3g, closure max %.3g m, the ball's force up to %.3g N\n",
           dp, dL, emax, fmaxn);
    SNT_CHECK(fmaxn > 0.1); // the ball does work: without it the bodies fly apart
    SNT_CHECK(dp < 1e-12);
    SNT_CHECK(dL < 1e-12);
    SNT_CHECK(emax < 1e-6);
    sn_world_destroy(w);
    return 0;
}


// ---- a wire: slack, taut, compliant ----

static int test_wire(void) {
    double dt = 1e-3, L = 1.0, m = 0.5;
    // slack: the sphere 0.4 m below the hook at (0, 0, 2) falls at g until the wire tightens
    sn_world* w = world_new(dt, 1);
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, m, &s));
    double q[7] = {0, 0, 1.6, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    sn_constraint_desc d = desc(SN_CONSTRAINT_WIRE, s, 1, NULL, -1);
    d.anchor_b[2] = 2.0;
    d.length = L;
    SNT_STATUS_OK(sn_world_add_constraint(w, &d, NULL));
    // free fall for 0.2 s (falls 0.196 m: still slack)
    for (int k = 0; k < 200; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    int taut = -1;
    double f[3];
    SNT_STATUS_OK(sn_world_constraint_force(w, 0, f, NULL, &taut));
    const double* qs = sn_system_q(s);
    const double* us = sn_system_u(s);
    // semi-implicit Euler: v_n = -g n dt, z_n = z0 - g dt^2 n (n + 1) / 2
    double vz = -G0 * 200 * dt, z = 1.6 - G0 * dt * dt * 200 * 201 / 2;
    printf("  wire slack: after 0.2 s vz %.15f (free fall %.15f), z %.15f (%.15f), taut %d, "
           "force %g\n",
           us[2], vz, qs[2], z, taut, f[2]);
    SNT_CHECK(taut == 0 && f[2] == 0);
    SNT_NEAR(us[2], vz, 1e-12);
    SNT_NEAR(qs[2], z, 1e-12);
    sn_world_destroy(w);

    // taut: the sphere at L from the hook, 60 degrees out, released: it swings on |d| = L
    w = world_new(dt, 1);
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, m, &s));
    double th = M_PI / 3;
    double q2[7] = {L * sin(th), 0, 2.0 - L * cos(th), 1, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(s, q2, 7, u, 6));
    SNT_STATUS_OK(sn_world_add_constraint(w, &d, NULL));
    double dev = 0, tension_min = INFINITY, push = 0, vmax = 0;
    int slack_steps = 0;
    for (int k = 0; k < 3000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        qs = sn_system_q(s);
        us = sn_system_u(s);
        double r = sqrt(qs[0] * qs[0] + qs[1] * qs[1] + (qs[2] - 2) * (qs[2] - 2));
        dev = fmax(dev, fabs(r - L));
        SNT_STATUS_OK(sn_world_constraint_force(w, 0, f, NULL, &taut));
        slack_steps += !taut;
        // the force on the sphere points to the hook: tension
        double along = (f[0] * qs[0] + f[1] * qs[1] + f[2] * (qs[2] - 2)) / r;
        push = fmax(push, along);
        tension_min = fmin(tension_min, -along);
        vmax = fmax(vmax, sqrt(us[0] * us[0] + us[1] * us[1] + us[2] * us[2]));
    }
    printf("  wire taut: 3 s swing from 60 deg, ||d| - L| max %.3g m, speed up to %.3f m/s, "
           "tension %.4f N at least (m g cos 60 = %.4f), outward force never (max %.3g N), slack "
           "steps %d\n",
           dev, vmax, tension_min, m * G0 * 0.5, push, slack_steps);
    SNT_CHECK(dev < 1e-6);
    SNT_CHECK(slack_steps == 0);
    SNT_CHECK(push <= 0);
    SNT_CHECK(tension_min > 0.9 * m * G0 * 0.5);
    sn_world_destroy(w);

    // compliant: stiffness k, damping b; at rest the stretch is m g / k
    double ks = 2000, bs = 20;
    w = world_new(dt, 1);
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, m, &s));
    double q3[7] = {0, 0, 2.0 - L, 1, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(s, q3, 7, u, 6));
    d.stiffness = ks;
    d.damping = bs;
    SNT_STATUS_OK(sn_world_add_constraint(w, &d, NULL));
    for (int k = 0; k < 4000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    qs = sn_system_q(s);
    double stretch = (2.0 - qs[2]) - L;
    SNT_STATUS_OK(sn_world_constraint_force(w, 0, f, NULL, &taut));
    printf("  compliant wire k %g N/m: stretch at rest %.12f m, m g / k %.12f m; force %.9f N "
           "(m g %.9f), taut %d\n",
           ks, stretch, m * G0 / ks, f[2], m * G0, taut);
    SNT_NEAR_REL(stretch, m * G0 / ks, 1e-9, 0);
    SNT_NEAR_REL(f[2], m * G0, 1e-9, 0);
    SNT_CHECK(taut == 1);
    sn_world_destroy(w);
    return 0;
}


SNT_SUITE(SNT_TEST(test_two_arms_weld_box), SNT_TEST(test_momentum_ball), SNT_TEST(test_wire))
