// SPDX-License-Identifier: Apache-2.0
// test_restitution.c: restitution applies when the surfaces meet (issue 12, items 4 and 5). A
// ball dropped with e = 0.5 rises to h e^(2n) and comes to rest after the flight times of the
// geometric series, sqrt(2h/g) (1 + 2e / (1 - e)); a Newton's cradle with gaps passes the
// velocity down the row, and one whose balls touch gives the rigid simultaneous-impact result;
// a ball bounces on a ball resting on the ground as on the ground. Every test prints what it
// measured; docs/contact.md ("Restitution") quotes these numbers.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAV 9.81


static sn_world* world_new(double dt, double gravity) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    sn_world* w = NULL;
    if (sn_world_create(&o, &w, NULL) != SN_OK) return NULL;
    double g[3] = {0, 0, -gravity};
    if (sn_world_set_gravity(w, g) != SN_OK) {
        sn_world_destroy(w);
        return NULL;
    }
    return w;
}


// ---- a ball dropped on the ground ----

typedef struct drop {
    double peak[4]; // the heights of the lowest point at the first four apexes
    int npeak;
    double rest;   // the time after which the ball stays on the ground at rest
    double lowest; // the deepest the ball went below the ground (m)
} drop;


// a ball (r 0.1 m, 1 kg) dropped from h (its lowest point) with restitution e and threshold eth,
// for T seconds
static int drop_ball_th(double dt, double h, double e, double eth, int scheme, double T,
                        drop* out) {
    memset(out, 0, sizeof *out);
    sn_world* w = world_new(dt, GRAV);
    if (!w) return 1;
    sn_system* s;
    double r = 0.1;
    int bad = sn_world_set_ground(w, 1, 0) != SN_OK ||
              sn_world_set_material(w, 0.5, e, eth) != SN_OK ||
              sn_world_add_sphere(w, r, 1, &s) != SN_OK;
    double q[7] = {0, 0, h + r, 1, 0, 0, 0}, u[6] = {0};
    bad = bad || sn_system_set_state(s, q, 7, u, 6) != SN_OK ||
          sn_system_set_scheme(s, (sn_scheme)scheme) != SN_OK;
    double vprev = 0, zprev = h, last_moving = 0;
    int n = (int)(T / dt + 0.5);
    for (int k = 0; k < n && !bad; k++) {
        bad = sn_world_integrate(w) != SN_OK;
        double z = sn_system_q(s)[2] - r, v = sn_system_u(s)[2];
        // the apex: the higher of the steps either side of the velocity's sign change
        if (vprev > 0 && v <= 0 && out->npeak < 4) out->peak[out->npeak++] = fmax(z, zprev);
        if (fabs(v) > 1e-5 || z > 1e-5) last_moving = sn_world_time(w);
        out->lowest = fmin(out->lowest, z);
        vprev = v, zprev = z;
    }
    out->rest = last_moving;
    sn_world_destroy(w);
    return bad;
}


static int drop_ball(double dt, double h, double e, int scheme, double T, drop* out) {
    return drop_ball_th(dt, h, e, 0, scheme, T, out);
}


static double rest_time(double h, double e) {
    return sqrt(2 * h / GRAV) * (1 + 2 * e / (1 - e));
}


// the four bounce heights of a ball dropped from 1 m with e = 0.5 are h e^(2n) within tol
// (relative), and the ball dips at most `dip` below the ground (docs/contact.md's figures)
static int bounce_heights(double dt, int scheme, const char* name, double tol, double dip) {
    drop d;
    SNT_CHECK(drop_ball(dt, 1, 0.5, scheme, 1.35, &d) == 0);
    printf("  %s dt %g: heights", name, dt);
    for (int i = 0; i < d.npeak; i++)
        printf(" %.6f (%+.2f %%)", d.peak[i], 100 * (d.peak[i] / pow(0.25, i + 1) - 1));
    printf(" m; lowest %.2e m\n", d.lowest);
    SNT_CHECK(d.npeak == 4);
    for (int i = 0; i < 4; i++)
        SNT_NEAR_REL(d.peak[i], pow(0.25, i + 1), tol, 0);
    SNT_CHECK(d.lowest >= -dip);
    return 0;
}


static int test_bounce_heights_1ms(void) {
    // docs/contact.md: to 0.02 %, 1.0 mm below the ground (asserted 0.05 %, 1.05 mm)
    return bounce_heights(1e-3, SN_SCHEME_SEMI_IMPLICIT, "semi-implicit", 5e-4, 1.05e-3);
}


static int test_bounce_heights_01ms(void) {
    // exact to the six printed digits (asserted 1e-4), never below the ground (to 1 um)
    return bounce_heights(1e-4, SN_SCHEME_SEMI_IMPLICIT, "semi-implicit", 1e-4, 1e-6);
}


// the other schemes bounce at the surface too (docs/contact.md gives their figures)
static int test_bounce_heights_schemes(void) {
    // docs/contact.md: trapezoid and Euler within 0.02 % (asserted 0.05 %), RK4 0.17 % at the
    // fourth (asserted 0.3 %); dips 2.1 mm (trapezoid, RK4) and 1.0 mm (Euler), asserted +5 %
    if (bounce_heights(1e-3, SN_SCHEME_TRAPEZOID, "trapezoid", 5e-4, 2.2e-3)) return 1;
    if (bounce_heights(1e-3, SN_SCHEME_EULER, "euler", 5e-4, 1.05e-3)) return 1;
    return bounce_heights(1e-3, SN_SCHEME_RK4, "rk4", 3e-3, 2.2e-3);
}


// the ball comes to rest after the flight times of the geometric series (1.3546 s from 1 m,
// e = 0.5): measured -0.04 % (1 ms), -0.01 % (0.1 ms), asserted within 0.1 %; e = 0.8 from
// 0.5 m: -0.12 %, asserted within 0.2 %
static int test_rest_time(void) {
    double dts[2] = {1e-3, 1e-4};
    double t = rest_time(1, 0.5);
    for (int i = 0; i < 2; i++) {
        drop d;
        SNT_CHECK(drop_ball(dts[i], 1, 0.5, SN_SCHEME_SEMI_IMPLICIT, 2.5, &d) == 0);
        printf("  dt %g: at rest from %.4f s (analytic %.4f s, %+.2f %%)\n", dts[i], d.rest, t,
               100 * (d.rest / t - 1));
        SNT_NEAR_REL(d.rest, t, 1e-3, 0);
    }
    // e = 0.8 from 0.5 m: 2.8743 s
    drop d;
    SNT_CHECK(drop_ball(1e-3, 0.5, 0.8, SN_SCHEME_SEMI_IMPLICIT, 4, &d) == 0);
    printf("  e 0.8 from 0.5 m: at rest from %.4f s (analytic %.4f s)\n", d.rest,
           rest_time(0.5, 0.8));
    SNT_NEAR_REL(d.rest, rest_time(0.5, 0.8), 2e-3, 0);
    return 0;
}


// a gap within the margin bounces only when it closes: in zero gravity a ball 0.85 mm above the
// ground approaching at 0.3 m/s (e = 0.5) keeps its speed for 2.83 ms, then leaves at 0.15 m/s
// from the surface; dropped from 0.5 mm (inside the margin from the start) it rises to
// e^2 0.5 mm = 0.125 mm
static int test_gap_bounces_at_the_surface(void) {
    for (int grav = 0; grav < 2; grav++) {
        double dt = 1e-3;
        sn_world* w = world_new(dt, grav ? GRAV : 0);
        SNT_CHECK(w != NULL);
        sn_system* s;
        SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
        SNT_STATUS_OK(sn_world_set_material(w, 0.5, 0.5, 0));
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &s));
        double gap = grav ? 5e-4 : 8.5e-4, v0 = grav ? 0 : -0.3, tc = 8.5e-4 / 0.3;
        double q[7] = {0, 0, 0.1 + gap, 1, 0, 0, 0}, u[6] = {0, 0, v0, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
        double lowest = 1, peak = 0, vprev = 0, zprev = 0, err = 0;
        for (int k = 0; k < 12; k++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            double t = sn_world_time(w), z = sn_system_q(s)[2] - 0.1, v = sn_system_u(s)[2];
            lowest = fmin(lowest, z);
            if (!grav) {
                // the exact path: down at 0.3 m/s until 2.83 ms, up at 0.15 m/s after
                double ze = t < tc ? gap - 0.3 * t : 0.15 * (t - tc), ve = t < tc ? -0.3 : 0.15;
                err = fmax(err, fmax(fabs(z - ze), fabs(v - ve)));
            }
        }
        if (grav) {
            // on to the apex of the first bounce
            for (int k = 0; k < 200; k++) {
                SNT_STATUS_OK(sn_world_integrate(w));
                double z = sn_system_q(s)[2] - 0.1, v = sn_system_u(s)[2];
                lowest = fmin(lowest, z);
                if (vprev > 0 && v <= 0) {
                    peak = fmax(z, zprev);
                    break;
                }
                vprev = v, zprev = z;
            }
            printf("  dropped from 0.5 mm: rises to %.6f mm (%.6f), lowest %.1e m\n", peak * 1e3,
                   0.125, lowest);
            // 0.124750 mm (e^2 0.5 mm = 0.125: the rise starts 1 step late), to 5 nm
            SNT_NEAR(peak, 1.2475e-4, 5e-9);
        } else {
            printf("  0.85 mm at 0.3 m/s: off the exact path by %.1e (m and m/s), lowest %.1e m\n",
                   err, lowest);
            SNT_CHECK(err < 1e-15); // docs/contact.md: 8e-17
        }
        SNT_CHECK(lowest > -1e-12);
        sn_world_destroy(w);
    }
    return 0;
}


// the threshold: an impact slower than it does not bounce. From 1 m with e = 0.5 and a threshold
// of 1 m/s, the impacts at 4.43, 2.21 and 1.11 m/s bounce (0.25, 0.0625, 0.015625 m), the one at
// 0.55 m/s does not: at rest from sqrt(2h/g) (1 + 2 (e + e^2 + e^3)) = 1.2417 s
static int test_threshold(void) {
    drop d;
    SNT_CHECK(drop_ball_th(1e-3, 1, 0.5, 1, SN_SCHEME_SEMI_IMPLICIT, 2, &d) == 0);
    double t = sqrt(2 / GRAV) * (1 + 2 * (0.5 + 0.25 + 0.125));
    printf("  threshold 1 m/s: %d apexes:", d.npeak);
    for (int i = 0; i < d.npeak; i++)
        printf(" %.6f", d.peak[i]);
    printf(" m; at rest from %.4f s (analytic %.4f s)\n", d.rest, t);
    // docs/contact.md: the heights to 0.02 % (asserted 0.05 %), at rest 0.02 % late (0.1 %)
    SNT_CHECK(d.npeak == 3);
    for (int i = 0; i < 3; i++)
        SNT_NEAR_REL(d.peak[i], pow(0.25, i + 1), 5e-4, 0);
    SNT_NEAR_REL(d.rest, t, 1e-3, 0);
    return 0;
}


// ---- Newton's cradle ----
// Free spheres (r 5 cm, 1 kg) on the x axis in zero gravity: free spheres cannot hang (a
// pendulum would need a joint to the world per ball), and without gravity the velocities
// along the row are the whole state of the cradle. The world's pair (0, 0) has restitution 1
// and friction 0.

typedef struct cradle {
    sn_world* w;
    sn_system* b[8];
    int n;
} cradle;


// n balls; ball 0 at distance d0 (surface to surface) from ball 1 moving at v0; the others at
// rest with gaps gap between them
static int cradle_open(cradle* c, int n, double d0, double gap, double v0, double dt) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->w = world_new(dt, 0);
    if (!c->w || sn_world_set_material_pair(c->w, 0, 0, 0, 1, 0) != SN_OK) return 1;
    double x = 0;
    for (int i = 0; i < n; i++) {
        if (sn_world_add_sphere(c->w, 0.05, 1, &c->b[i]) != SN_OK) return 1;
        double q[7] = {x, 0, 0, 1, 0, 0, 0}, u[6] = {i == 0 ? v0 : 0, 0, 0, 0, 0, 0};
        if (sn_system_set_state(c->b[i], q, 7, u, 6) != SN_OK) return 1;
        x += 0.1 + (i == 0 ? d0 : gap);
    }
    return 0;
}


static void cradle_sums(const cradle* c, double* p, double* ke) {
    *p = *ke = 0;
    for (int i = 0; i < c->n; i++) {
        const double* u = sn_system_u(c->b[i]);
        *p += u[0];
        *ke += 0.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
}


// the velocity passes down a row with 0.5 mm gaps (smaller than the contact margin, crossed
// within one step): the last ball leaves at v0, the others stop; momentum and energy are kept to
// 1e-9 at every step and the last ball is where the sequence of impacts puts it
static int test_cradle_with_gaps(void) {
    double dts[2] = {1e-3, 1e-4}, v0 = 2, gap = 5e-4;
    double worst[5] = {0}; // last ball's speed, the others', momentum, energy, last ball's place
    int ns[2] = {3, 5};
    for (int id = 0; id < 2; id++)
        for (int in = 0; in < 2; in++)
            for (int phase = 0; phase < 4; phase++) {
                int n = ns[in];
                double dt = dts[id], d0 = 5e-3 + 0.37e-3 * phase; // impacts at varied fractions
                cradle c;
                SNT_CHECK(cradle_open(&c, n, d0, gap, v0, dt) == 0);
                double p0, e0, perr = 0, eerr = 0;
                cradle_sums(&c, &p0, &e0);
                int steps = (int)(0.02 / dt + 0.5);
                for (int k = 0; k < steps; k++) {
                    SNT_STATUS_OK(sn_world_integrate(c.w));
                    double p, ke;
                    cradle_sums(&c, &p, &ke);
                    perr = fmax(perr, fabs(p - p0)), eerr = fmax(eerr, fabs(ke - e0));
                }
                double vlast = sn_system_u(c.b[n - 1])[0], vrest = 0;
                for (int i = 0; i < n - 1; i++)
                    vrest = fmax(vrest, fabs(sn_system_u(c.b[i])[0]));
                // the last ball started at x_n = (n - 1) 0.1 + d0 + (n - 2) gap and leaves once
                // the first has crossed d0 and the velocity every gap: at t it is at
                // x_n + v0 t - d0 - (n - 2) gap
                double t = sn_world_time(c.w);
                double xlast = (n - 1) * 0.1 + v0 * t;
                double xerr = sn_system_q(c.b[n - 1])[0] - xlast;
                if (phase == 0 || perr > 1e-9 || eerr > 1e-9)
                    printf("  %d balls, dt %g, d0 %.2f mm: last ball %.12f m/s, others <= %.1e; "
                           "momentum %.1e, energy %.1e J; last ball off by %.1e m\n",
                           n, dt, d0 * 1e3, vlast, vrest, perr, eerr, xerr);
                double err[5] = {fabs(vlast - v0), vrest, perr, eerr, fabs(xerr)};
                for (int i = 0; i < 5; i++)
                    worst[i] = fmax(worst[i], err[i]);
                // docs/contact.md: the speed to 1e-12 (measured exact), the others at most
                // 6e-17 m/s (asserted 1e-15), momentum and energy exactly (1e-14), the place
                // to 4e-15 m (asserted 2e-14)
                SNT_NEAR(vlast, v0, 1e-12);
                SNT_CHECK(vrest < 1e-15);
                SNT_CHECK(perr < 1e-14 && eerr < 1e-14);
                SNT_NEAR(xerr, 0, 2e-14);
                sn_world_destroy(c.w);
            }
    printf("  worst of 16 runs: last ball's speed off by %.1e, the others' %.1e m/s; momentum "
           "%.1e, energy %.1e J; the last ball's place %.1e m\n",
           worst[0], worst[1], worst[2], worst[3], worst[4]);
    return 0;
}


// balls touching at rest: the impact of the first is one simultaneous impact on the row, whose
// LCP with e = 1 (each contact separates at least as fast as it approached: the first at v0, the
// others at 0) moves the touching balls as one body of (n - 1) m: the first rebounds at
// (2 - n) / n v0, the others leave together at 2 v0 / n (three balls: v0 (-1/3, 2/3, 2/3));
// momentum and energy are kept, but it is not the sequential "last ball leaves"
static int test_cradle_touching(void) {
    double v0 = 2;
    // the first ball arrives with a gap (the others touch), or all touch from the start
    for (int n = 3; n <= 5; n++)
        for (int start = 0; start < 2; start++) {
            cradle c;
            SNT_CHECK(cradle_open(&c, n, start ? 0 : 5e-3, 0, v0, 1e-3) == 0);
            double p0, e0, p, ke;
            cradle_sums(&c, &p0, &e0);
            // the impact's step, then 20 more: the steps after it start the touching contacts
            // from the impact's impulses (the warm start), which the sweeps take back to their
            // tolerance (1e-8)
            int k = 0;
            while (k++ < 20 && sn_system_u(c.b[0])[0] > 0)
                SNT_STATUS_OK(sn_world_integrate(c.w));
            double err = fabs(sn_system_u(c.b[0])[0] - (2.0 - n) / n * v0);
            for (int i = 1; i < n; i++)
                err = fmax(err, fabs(sn_system_u(c.b[i])[0] - 2 * v0 / n));
            for (k = 0; k < 20; k++)
                SNT_STATUS_OK(sn_world_integrate(c.w));
            cradle_sums(&c, &p, &ke);
            printf("  %d touching (%s): v =", n, start ? "from the start" : "the first arrives");
            for (int i = 0; i < n; i++)
                printf(" %.12f", sn_system_u(c.b[i])[0]);
            printf(" m/s (after the impact: off by %.1e); momentum %.1e, energy %.1e J\n", err,
                   p - p0, ke - e0);
            SNT_CHECK(err < 1e-12);
            SNT_NEAR(sn_system_u(c.b[0])[0], (2.0 - n) / n * v0, 1e-8);
            for (int i = 1; i < n; i++)
                SNT_NEAR(sn_system_u(c.b[i])[0], 2 * v0 / n, 1e-8);
            SNT_NEAR(p, p0, 1e-9);
            SNT_NEAR(ke, e0, 1e-9);
            sn_world_destroy(c.w);
        }
    return 0;
}


// ---- two bodies ----

// a small ball (r 5 cm, 0.1 kg) dropped from 0.3 m onto a heavy ball (r 0.2 m, 1000 kg) resting
// on the ground: the pair of their materials has e = 0.5 (the ground's, e = 0); the small ball
// rises to 0.3 e^(2n) (within 1 %: the heavy ball takes 1e-4 of the impulse) and comes to rest on
// top after the series' flight times
static int test_ball_on_ball(void) {
    double dts[2] = {1e-3, 1e-4};
    for (int id = 0; id < 2; id++) {
        double dt = dts[id];
        sn_world* w = world_new(dt, GRAV);
        SNT_CHECK(w != NULL);
        sn_system *big, *ball;
        SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
        SNT_STATUS_OK(sn_world_set_material(w, 0.8, 0, 0));
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.2, 1000, &big));
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 0.1, &ball));
        SNT_STATUS_OK(sn_system_set_body_material(big, 1, 1));
        SNT_STATUS_OK(sn_system_set_body_material(ball, 1, 2));
        SNT_STATUS_OK(sn_world_set_material_pair(w, 1, 2, 0.5, 0.5, 0));
        double h = 0.3, top = 0.4;
        double qb[7] = {0, 0, 0.2, 1, 0, 0, 0}, q[7] = {0, 0, top + h + 0.05, 1, 0, 0, 0};
        double u[6] = {0};
        SNT_STATUS_OK(sn_system_set_state(big, qb, 7, u, 6));
        SNT_STATUS_OK(sn_system_set_state(ball, q, 7, u, 6));
        double peak[4], vprev = 0, zprev = 0, last_moving = 0;
        int np = 0, n = (int)(1.5 / dt + 0.5);
        for (int k = 0; k < n; k++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            double z = sn_system_q(ball)[2] - 0.05 - (sn_system_q(big)[2] + 0.2);
            double v = sn_system_u(ball)[2];
            if (vprev > 0 && v <= 0 && np < 4) peak[np++] = fmax(z, zprev);
            if (fabs(v) > 1e-5 || z > 1e-5) last_moving = sn_world_time(w);
            vprev = v, zprev = z;
        }
        printf("  dt %g: heights above the heavy ball", dt);
        for (int i = 0; i < np; i++)
            printf(" %.6f (%+.2f %%)", peak[i], 100 * (peak[i] / (h * pow(0.25, i + 1)) - 1));
        printf(" m; at rest from %.4f s (analytic %.4f s)\n", last_moving, rest_time(h, 0.5));
        // docs/contact.md: heights to 0.01 % (asserted 0.05 %), at rest 0.12 % early at 1 ms
        // (asserted 0.2 %)
        SNT_CHECK(np == 4);
        for (int i = 0; i < 4; i++)
            SNT_NEAR_REL(peak[i], h * pow(0.25, i + 1), 5e-4, 0);
        SNT_NEAR_REL(last_moving, rest_time(h, 0.5), 2e-3, 0);
        sn_world_destroy(w);
    }
    return 0;
}


// two bodies of one system with self-collision: two balls on sliders along x from a fixed base
// (siblings, so they may collide), 0.5 mm apart, one at 1 m/s: they exchange velocities at
// e = 1 and keep their momentum
static int test_self_collision_bounce(void) {
    const char* urdf =
        "<robot name=\"sliders\"><link name=\"world\"/>"
        "<link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"0.001\" ixy=\"0\" "
        "ixz=\"0\" iyy=\"0.001\" iyz=\"0\" izz=\"0.001\"/></inertial><collision><geometry>"
        "<sphere radius=\"0.05\"/></geometry></collision></link>"
        "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"0.001\" ixy=\"0\" "
        "ixz=\"0\" iyy=\"0.001\" iyz=\"0\" izz=\"0.001\"/></inertial><collision><geometry>"
        "<sphere radius=\"0.05\"/></geometry></collision></link>"
        "<joint name=\"ja\" type=\"prismatic\"><parent link=\"world\"/><child link=\"a\"/>"
        "<axis xyz=\"1 0 0\"/><limit lower=\"-10\" upper=\"10\" effort=\"1\" "
        "velocity=\"100\"/></joint>"
        "<joint name=\"jb\" type=\"prismatic\"><parent link=\"world\"/><child link=\"b\"/>"
        "<origin xyz=\"0.1005 0 0\"/><axis xyz=\"1 0 0\"/><limit lower=\"-10\" "
        "upper=\"10\" effort=\"1\" velocity=\"100\"/></joint></robot>";
    sn_model* m = tc_load_string(urdf, 0);
    SNT_CHECK(m != NULL);
    sn_world* w = world_new(1e-3, 0);
    SNT_CHECK(w != NULL);
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    sn_system_set_self_collision(s, 1);
    SNT_STATUS_OK(sn_world_set_material(w, 0, 1, 0));
    double q[2] = {0, 0}, u[2] = {1, 0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 2, u, 2));
    int touched = 0;
    for (int k = 0; k < 20; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        touched |= sn_system_contact_count(s) > 0;
    }
    const double* v = sn_system_u(s);
    // b leaves at 1 m/s once a has crossed the gap (0.5 ms): at 20 ms it is 19.5 mm on
    double xb = sn_system_q(s)[1];
    printf("  sliders: u = %.12f %.12f m/s; b moved %.9f m (%.9f)\n", v[0], v[1], xb, 0.0195);
    SNT_CHECK(touched);
    SNT_NEAR(v[0], 0, 1e-12); // docs/contact.md: to 1e-12
    SNT_NEAR(v[1], 1, 1e-12);
    SNT_NEAR(xb, 0.0195, 1e-9);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


SNT_SUITE(SNT_TEST(test_bounce_heights_1ms), SNT_TEST(test_bounce_heights_01ms),
          SNT_TEST(test_bounce_heights_schemes), SNT_TEST(test_rest_time), SNT_TEST(test_threshold),
          SNT_TEST(test_gap_bounces_at_the_surface), SNT_TEST(test_cradle_with_gaps),
          SNT_TEST(test_cradle_touching), SNT_TEST(test_ball_on_ball),
          SNT_TEST(test_self_collision_bounce))
