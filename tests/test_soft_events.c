// SPDX-License-Identifier: Apache-2.0
// test_soft_events.c: contact events inside the soft sub-step (sn_system_set_soft_events;
// docs/expo.md "Contact events inside the sub-step"): a point mass dropped onto the soft ground
// against the closed form, with every integrator; a tilted, spinning box's impact step against a
// fine reference and its order in dt; the option off and a resting box (no event) bit for bit;
// the checkpoint's set-up; no allocation; the refusals.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "soft_setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81


// one free sphere of `mass` kg whose centre is a soft point, at height z falling at v0 (> 0 down):
// soft_setup.c's point mass, set moving
static int point_mass_m(sn_world** w, sn_system** s, double mass, double dt, double z, double v0) {
    pm p;
    if (point_mass(&p, mass, dt, NULL, z)) return 1;
    *w = p.w, *s = p.s;
    double q[7] = {0, 0, z, 1, 0, 0, 0}, u[6] = {0, 0, -v0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(*s, q, 7, u, 6));
    return 0;
}

static int point_mass_v(sn_world** w, sn_system** s, double dt, double z, double v0) {
    return point_mass_m(w, s, 1.0, dt, z, v0);
}


// the closed form of a point of mass m released at height z0 > 0 falling at v0 onto the ground
// (K 1e5, B 300, the defaults): free fall to the touch-down t1, then the damped oscillation
// about the anchor at z = 0 (valid while the spring-damper pushes: the caller keeps t short)
static void drop_closed_form(double m, double z0, double v0, double t, double* z, double* zd) {
    const double k = 1e5, b = 300;
    double t1 = (-v0 + sqrt(v0 * v0 + 2 * GRAV * z0)) / GRAV, v1 = v0 + GRAV * t1;
    if (t <= t1) {
        *z = z0 - v0 * t - 0.5 * GRAV * t * t;
        *zd = -v0 - GRAV * t;
        return;
    }
    double wn = sqrt(k / m), zeta = b / (2 * sqrt(k * m)), s = zeta * wn;
    double wd = wn * sqrt(1 - zeta * zeta), tt = t - t1;
    // y = z - z_eq, z_eq = -m g / k: y(0) = m g / k, y'(0) = -v1
    double y0 = m * GRAV / k, y1 = -v1, A = (y1 + s * y0) / wd;
    double e = exp(-s * tt), c = cos(wd * tt), sn = sin(wd * tt);
    *z = -m * GRAV / k + e * (y0 * c + A * sn);
    *zd = e * (-s * (y0 * c + A * sn) + wd * (-y0 * sn + A * c));
}


// a point of 10 kg dropped at 0.5 m/s touching down 30 % into the first step of dt, n sub-steps
// of integrator it, to 10 ms (the contact on from 0.3 dt; its force stays positive to 20 ms): the
// error of z and of 10 ms z' to the closed form, events off or on
static int drop_error(sn_soft_integrator it, int n, double dt, int events, double* err,
                      double* anchor) {
    const double v0 = 0.5, t0 = 0.3 * dt, z0 = v0 * t0 + 0.5 * GRAV * t0 * t0;
    sn_world* w;
    sn_system* s;
    if (point_mass_m(&w, &s, 10.0, dt, z0, v0)) return 1;
    SNT_STATUS_OK(sn_system_set_soft_integrator(s, it, n));
    SNT_STATUS_OK(sn_system_set_soft_events(s, events));
    int steps = (int)lround(0.01 / dt);
    for (int k = 0; k < steps; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK(sn_system_soft_contact_count(s) == 1);
    SNT_CHECK(events ? sn_system_soft_event_count(s) >= 1 : sn_system_soft_event_count(s) == 0);
    double z, zd;
    drop_closed_form(10.0, z0, v0, steps * dt, &z, &zd);
    const double* q = sn_system_q(s);
    const double* u = sn_system_u(s);
    *err = fmax(fabs(q[2] - z), fabs(u[2] - zd) * 0.01);
    sn_soft_point p;
    SNT_STATUS_OK(sn_system_soft_point(s, 0, &p));
    *anchor = p.anchor[2];
    sn_world_destroy(w);
    return 0;
}


// Expo at one 10 ms sub-step: without events the contact starts at the step's end, its anchor
// 0.7 v dt too deep (the first-order impact error); with events the touch-down is found by the
// quadratic (exact in free fall), the free piece is exact and so is Expo on the linear contact:
// the closed form to rounding. At one sub-step of 1 ms (explicit Euler is stable there) every
// integrator's anchor is on the surface: to rounding where the free piece is exact in free fall
// (explicit Euler, RK4, Expo), within g tau^2 / 2 for implicit Euler (q+ = q + h u+). Its error to
// the closed form then is the integrator's own in the contact: RK4 and Expo gain 1e4x and more,
// explicit Euler 3.5x, implicit Euler none (its first-order damping error is larger than the
// late start's, which partly offset it: 1.9e-4 with events, 1.6e-4 without)
static int test_drop_against_closed_form(void) {
    double off, on, a_off, a_on;
    if (drop_error(SN_SOFT_EXPO, 1, 0.01, 0, &off, &a_off) ||
        drop_error(SN_SOFT_EXPO, 1, 0.01, 1, &on, &a_on))
        return 1;
    printf("  Expo 1 x 10 ms, drop at 0.5 m/s, 10 ms: error %.3e without events, %.3e with (ratio "
           "%.3g); anchor %.3e, %.3e m\n",
           off, on, off / on, a_off, a_on);
    // docs/expo.md: 2.2e-3 without, 2.2e-18 with, the anchor on the surface (2e-19 m)
    SNT_CHECK(off > 1e-3);
    SNT_CHECK(on < 2e-17);
    SNT_CHECK(fabs(a_on) < 2e-18);
    SNT_NEAR(-a_off, 0.7 * 0.53 * 0.01, 0.1 * 0.7 * 0.53 * 0.01);
    const struct {
        sn_soft_integrator it;
        const char* name;
        double gain, anchor;
    } t[] = {{SN_SOFT_EULER, "explicit Euler", 3, 1e-15},
             {SN_SOFT_RK4, "RK4", 1e4, 1e-15},
             {SN_SOFT_IMPLICIT_EULER, "implicit Euler", 0.75, 0.5 * GRAV * 0.3e-3 * 0.3e-3 * 1.01},
             {SN_SOFT_EXPO, "Expo", 1e12, 1e-15}};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        if (drop_error(t[k].it, 1, 0.001, 0, &off, &a_off) ||
            drop_error(t[k].it, 1, 0.001, 1, &on, &a_on))
            return 1;
        printf("  %-14s 1 x 1 ms: error %.3e without events, %.3e with (ratio %.3g); anchor "
               "%.3e, %.3e m\n",
               t[k].name, off, on, off / on, a_off, a_on);
        SNT_CHECK(off > t[k].gain * on);
        SNT_CHECK(fabs(a_on) <= t[k].anchor);
        SNT_NEAR(-a_off, 0.7 * 0.5 * 0.001, 0.1 * 0.7 * 0.5 * 0.001);
    }
    return 0;
}


// a touch-down due 0.05 % of a step after its end: no split in the first step, which leaves the
// point 3e-6 m above the plane, within the tolerance (1e-3 h |v_n|); the next step catches it at
// its start, its anchor on the surface, and Expo then follows the closed form as if the contact
// had started 5 us early
static int test_touchdown_at_step_end(void) {
    const double dt = 0.01, v0 = 0.5, t0 = (1 + 5e-4) * dt, z0 = v0 * t0 + 0.5 * GRAV * t0 * t0;
    sn_world* w;
    sn_system* s;
    if (point_mass_m(&w, &s, 10.0, dt, z0, v0)) return 1;
    SNT_STATUS_OK(sn_system_set_soft_events(s, 1));
    SNT_STATUS_OK(sn_world_integrate(w));
    sn_soft_point p;
    SNT_STATUS_OK(sn_system_soft_point(s, 0, &p));
    SNT_CHECK_MSG(!p.active && p.position[2] > 0 && p.position[2] < 1e-3 * dt * -p.velocity[2],
                  "active %d z %g vz %g", p.active, p.position[2], p.velocity[2]);
    SNT_CHECK(sn_system_soft_event_count(s) == 0);
    SNT_STATUS_OK(sn_world_integrate(w));
    SNT_STATUS_OK(sn_system_soft_point(s, 0, &p));
    SNT_CHECK(p.active && p.anchor[2] == 0);
    SNT_CHECK(sn_system_soft_event_count(s) == 0);
    double z, zd;
    drop_closed_form(10.0, z0, v0, 2 * dt, &z, &zd);
    double err = fmax(fabs(sn_system_q(s)[2] - z), 0.01 * fabs(sn_system_u(s)[2] - zd));
    printf("  touch-down due 5 us after a step's end: caught at the next step's start, error %.3e "
           "to the closed form (the early start's 5 us at 0.6 m/s: %.3e m)\n",
           err, 5e-6 * 0.6);
    SNT_CHECK(err < 4e-6);
    sn_world_destroy(w);
    // without events the contact starts at the second step's end, 10 ms late
    double off;
    if (point_mass_m(&w, &s, 10.0, dt, z0, v0)) return 1;
    for (int k = 0; k < 2; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    off = fmax(fabs(sn_system_q(s)[2] - z), 0.01 * fabs(sn_system_u(s)[2] - zd));
    printf("  without events: error %.3e\n", off);
    SNT_CHECK(off > 1000 * err);
    sn_world_destroy(w);
    return 0;
}


// a 0.2 x 0.1 x 0.05 m box of 1 kg, tilted (0.3 rad about x, 0.2 about y) and spinning, its
// lowest corner 30 % of dt above the ground at 0.5 m/s: the state after one step of Expo with n
// sub-steps (q 7, u 6)
static int box_step(double dt, int n, int events, int steps, double* x) {
    sn_world* w;
    if (soft_world(dt, &w)) return 1;
    const double size[3] = {0.2, 0.1, 0.05};
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_box(w, size, 10.0, &s));
    int added = 0;
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, &added));
    SNT_CHECK(added == 8);
    // the orientation: about x by 0.3, then about y by 0.2 (q = qy qx, w first)
    double cx = cos(0.15), sx = sin(0.15), cy = cos(0.1), sy = sin(0.1);
    double qw = cy * cx, qx = cy * sx, qy = sy * cx, qz = -sy * sx;
    double q[7] = {0, 0, 1, qw, qx, qy, qz}, u[6] = {0.2, -0.1, -0.5, 1.5, -2.0, 1.0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_soft_integrator(s, SN_SOFT_EXPO, n));
    SNT_STATUS_OK(sn_system_set_soft_events(s, events));
    // the slipping corner with its springs (the paper's LDS): with the slipping rows
    // (sn_system_set_expo_slip, the default) the mode chosen per sub-step is a discrete decision
    // and the impact step's error stays first order (13.9x smaller with events at 2 ms, not 380x)
    SNT_STATUS_OK(sn_system_set_expo_slip(s, 0));
    // the lowest corner's height (the rotation's third row times the corner offsets), and the
    // centre's height that puts its touch-down about 30 % into the step (taking its velocity as
    // the centre's: the fraction is the same at every dt to first order, which is what matters)
    double zmin = 1e9;
    int low = -1;
    double R20 = 2 * (qx * qz - qw * qy), R21 = 2 * (qy * qz + qw * qx),
           R22 = 1 - 2 * (qx * qx + qy * qy);
    for (int i = 0; i < 8; i++) {
        double c[3] = {(i & 1 ? 0.5 : -0.5) * size[0], (i & 2 ? 0.5 : -0.5) * size[1],
                       (i & 4 ? 0.5 : -0.5) * size[2]};
        double z = R20 * c[0] + R21 * c[1] + R22 * c[2];
        if (z < zmin) zmin = z, low = i;
    }
    double t0 = 0.3 * dt;
    q[2] = -zmin + 0.5 * t0 + 0.5 * GRAV * t0 * t0;
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    for (int k = 0; k < steps; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    // the corner touched down in the step (it may have bounced off again by its end)
    if (events) SNT_CHECK(sn_system_soft_event_count(s) >= 1);
    memcpy(x, sn_system_q(s), 7 * sizeof(double));
    memcpy(x + 7, sn_system_u(s), 6 * sizeof(double));
    sn_soft_point p;
    SNT_STATUS_OK(sn_system_soft_point(s, low, &p));
    x[13] = p.active;
    memcpy(x + 14, p.anchor, 3 * sizeof(double));
    sn_world_destroy(w);
    return 0;
}


// the errors of box_step's x against the reference r: of the configuration (m, and the
// quaternion's change), of the velocity (m/s, rad/s) and of the height of the lowest corner's
// anchor (where its contact started: the contact state the step hands on, which the rest of the
// contact keeps; its tangential part follows the slipping corner)
static void box_err(const double* x, const double* r, double* eq, double* eu, double* ea) {
    *eq = *eu = 0;
    for (int i = 0; i < 7; i++)
        *eq = fmax(*eq, fabs(x[i] - r[i]));
    for (int i = 0; i < 6; i++)
        *eu = fmax(*eu, fabs(x[7 + i] - r[7 + i]));
    *ea = fabs(x[16] - r[16]);
}


// the impact step of a 10 kg box (one step of dt, its lowest corner touching about 30 % in,
// slipping): Expo at one sub-step against Expo with events at 1024 sub-steps. Without events the
// contact starts at the step's end, its anchor 0.6 v dt too deep and the step's velocity missing
// the impulse of the first 0.7 dt: both first order in dt. With events the anchor is on the
// surface (to 1e-10 m) and the velocity's error is Expo's own on the frozen dynamics: second
// order, 380x smaller at dt 2 ms (on the paper's LDS, springs on the slipping corner)
static int test_box_impact_order(void) {
    const double dts[4] = {0.002, 0.001, 0.0005, 0.00025};
    double eu[2][4], ea[2][4];
    for (int k = 0; k < 4; k++) {
        double ref[17], x[17], eq[2];
        if (box_step(dts[k], 1024, 1, 1, ref)) return 1;
        SNT_CHECK(ref[13] == 1);
        for (int ev = 0; ev < 2; ev++) {
            if (box_step(dts[k], 1, ev, 1, x)) return 1;
            SNT_CHECK(x[13] == 1);
            box_err(x, ref, &eq[ev], &eu[ev][k], &ea[ev][k]);
        }
        printf(
            "  box impact step, dt %g ms: errors of q, u, anchor height %.3e, %.3e, %.3e without "
            "events, %.3e, %.3e, %.3e with (u: ratio %.3g)\n",
            1e3 * dts[k], eq[0], eu[0][k], ea[0][k], eq[1], eu[1][k], ea[1][k],
            eu[0][k] / eu[1][k]);
        // docs/expo.md: 380x to 3100x smaller with events, the anchor within 3e-11 m
        SNT_CHECK(eu[0][k] > 300 * eu[1][k]);
        SNT_CHECK(ea[1][k] < 5e-11 && ea[0][k] > 0.5 * 0.4 * dts[k]);
    }
    for (int k = 1; k < 4; k++) {
        double p0 = log2(eu[0][k - 1] / eu[0][k]), p1 = log2(eu[1][k - 1] / eu[1][k]);
        double pa = log2(ea[0][k - 1] / ea[0][k]);
        printf("  orders of the velocity's error: %.3f without events, %.3f with; of the anchor's "
               "without: %.3f\n",
               p0, p1, pa);
        SNT_CHECK(p0 > 0.9 && p0 < 1.15);
        SNT_CHECK(p1 > 1.85 && p1 < 2.2);
        SNT_CHECK(pa > 0.9 && pa < 1.1);
    }
    return 0;
}


// the option off is the old step: a never-set system and one set on then off give the same bits
// over a drop and its bounce, and the events count stays 0
static int test_off_bit_for_bit(void) {
    const sn_soft_integrator its[4] = {SN_SOFT_EULER, SN_SOFT_RK4, SN_SOFT_IMPLICIT_EULER,
                                       SN_SOFT_EXPO};
    for (int k = 0; k < 4; k++) {
        double x[2][13];
        for (int j = 0; j < 2; j++) {
            sn_world* w;
            sn_system* s;
            if (point_mass_v(&w, &s, 0.002, 0.004, 0.5)) return 1;
            SNT_STATUS_OK(sn_system_set_soft_integrator(s, its[k], 2));
            if (j) {
                SNT_STATUS_OK(sn_system_set_soft_events(s, 1));
                SNT_CHECK(sn_system_soft_events(s) == 1);
                SNT_STATUS_OK(sn_system_set_soft_events(s, 0));
            }
            SNT_CHECK(sn_system_soft_events(s) == 0);
            for (int i = 0; i < 100; i++)
                SNT_STATUS_OK(sn_world_integrate(w));
            SNT_CHECK(sn_system_soft_event_count(s) == 0);
            memcpy(x[j], sn_system_q(s), 7 * sizeof(double));
            memcpy(x[j] + 7, sn_system_u(s), 6 * sizeof(double));
            sn_world_destroy(w);
        }
        SNT_CHECK(memcmp(x[0], x[1], sizeof x[0]) == 0);
    }
    return 0;
}


// a box resting on its four lower corners (started a micrometre in, at rest: it sinks to
// m g / (4 K) and settles without lifting): no event, the same bits with events on and off
static int test_resting_box_no_event(void) {
    const sn_soft_integrator its[4] = {SN_SOFT_EULER, SN_SOFT_RK4, SN_SOFT_IMPLICIT_EULER,
                                       SN_SOFT_EXPO};
    const int nsub[4] = {40, 8, 2, 1};
    for (int k = 0; k < 4; k++) {
        double x[2][13];
        for (int ev = 0; ev < 2; ev++) {
            sn_world* w;
            if (soft_world(0.01, &w)) return 1;
            const double size[3] = {0.2, 0.1, 0.05};
            sn_system* s;
            SNT_STATUS_OK(sn_world_add_box(w, size, 1.0, &s));
            SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, NULL));
            double q[7] = {0, 0, 0.025 - 1e-6, 1, 0, 0, 0}, u[6] = {0};
            SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
            SNT_STATUS_OK(sn_system_set_soft_integrator(s, its[k], nsub[k]));
            SNT_STATUS_OK(sn_system_set_soft_events(s, ev));
            for (int i = 0; i < 200; i++) {
                SNT_STATUS_OK(sn_world_integrate(w));
                SNT_CHECK_MSG(sn_system_soft_contact_count(s) == 4, "integrator %d step %d: %d", k,
                              i, sn_system_soft_contact_count(s));
            }
            SNT_CHECK(sn_system_soft_event_count(s) == 0);
            SNT_NEAR(sn_system_q(s)[2], 0.025 - GRAV / 4e5, 2e-6);
            memcpy(x[ev], sn_system_q(s), 7 * sizeof(double));
            memcpy(x[ev] + 7, sn_system_u(s), 6 * sizeof(double));
            sn_world_destroy(w);
        }
        SNT_CHECK(memcmp(x[0], x[1], sizeof x[0]) == 0);
    }
    return 0;
}


// the option is set-up: a checkpoint with events on is refused by a world with them off, taken
// by one with them on, and resumes bit for bit
static int test_checkpoint(void) {
    sn_world *wa, *wb, *wc;
    sn_system *sa, *sb, *sc;
    if (point_mass_v(&wa, &sa, 0.002, 0.004, 0.5) || point_mass_v(&wb, &sb, 0.002, 0.2, 0) ||
        point_mass_v(&wc, &sc, 0.002, 0.2, 0))
        return 1;
    SNT_STATUS_OK(sn_system_set_soft_events(sa, 1));
    SNT_STATUS_OK(sn_system_set_soft_events(sb, 1));
    SNT_STATUS_OK(sn_system_set_soft_events(sc, 0));
    for (int i = 0; i < 2; i++)
        SNT_STATUS_OK(sn_world_integrate(wa));
    size_t n = 0;
    SNT_STATUS_OK(sn_world_checkpoint_size(wa, &n));
    void* buf = malloc(n);
    SNT_CHECK(buf != NULL);
    SNT_STATUS_OK(sn_world_save_state(wa, buf, n, NULL));
    SNT_CHECK(sn_world_load_state(wc, buf, n) == SN_ERR_MODEL);
    SNT_STATUS_OK(sn_world_load_state(wb, buf, n));
    for (int i = 0; i < 20; i++) {
        SNT_STATUS_OK(sn_world_integrate(wa));
        SNT_STATUS_OK(sn_world_integrate(wb));
    }
    SNT_CHECK(sn_system_soft_event_count(sa) >= 1);
    SNT_CHECK(memcmp(sn_system_q(sa), sn_system_q(sb), 7 * sizeof(double)) == 0);
    SNT_CHECK(memcmp(sn_system_u(sa), sn_system_u(sb), 6 * sizeof(double)) == 0);
    free(buf);
    sn_world_destroy(wa);
    sn_world_destroy(wb);
    sn_world_destroy(wc);
    return 0;
}


// steps with events (splits included) allocate nothing
static int test_no_allocation(void) {
    const sn_soft_integrator its[4] = {SN_SOFT_EULER, SN_SOFT_RK4, SN_SOFT_IMPLICIT_EULER,
                                       SN_SOFT_EXPO};
    tc_heap_install();
    for (int k = 0; k < 4; k++) {
        sn_world* w;
        sn_system* s;
        if (point_mass_v(&w, &s, 0.002, 0.003, 0.3)) return 1;
        const double off[3] = {0.005, 0, 0};
        SNT_STATUS_OK(sn_system_add_soft_point(s, 1, off, NULL));
        SNT_STATUS_OK(sn_system_set_soft_integrator(s, its[k], 2));
        SNT_STATUS_OK(sn_system_set_soft_events(s, 1));
        long before = tc_heap_calls();
        for (int i = 0; i < 100; i++)
            SNT_STATUS_OK(sn_world_integrate(w));
        long calls = tc_heap_calls() - before;
        SNT_CHECK(sn_system_soft_event_count(s) >= 1);
        SNT_CHECK_MSG(calls == 0, "integrator %d: %ld heap calls in 100 steps", k, calls);
        sn_world_destroy(w);
    }
    return 0;
}


static int test_refusals(void) {
    sn_world* w;
    sn_system* s;
    if (point_mass_v(&w, &s, 0.01, 0.1, 0)) return 1;
    SNT_CHECK(sn_system_set_soft_events(NULL, 1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_set_soft_events(s, 2) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(w), "soft events") != NULL);
    SNT_CHECK(sn_system_set_soft_events(s, -1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_soft_events(s) == 0);
    SNT_CHECK(sn_system_soft_events(NULL) == SN_NONE);
    SNT_CHECK(sn_system_soft_event_count(NULL) == SN_NONE);
    sn_world_destroy(w);
    return 0;
}


// a catch at a sub-step's start next to a contact on a moving body: a 1 kg box resting on a
// turntable (another system, 2 rad/s) 0.5 m off its axis, its foot on a slider of the same robot
// 5 um above the plate falling at 1 m/s: events catch the foot at the step's start. The box keeps
// riding the table (roll and pitch rates below 0.01 rad/s, yaw at the table's 2 rad/s to 0.05);
// the catch's second contact update once subtracted the table's motion twice from the box's
// points (their velocities, drifts), leaving it at 0.34 / -0.17 / 1.67 rad/s after one 10 ms step
static const char* table_urdf =
    "<robot name=\"tt\"><link name=\"world\"/>"
    "<joint name=\"z\" type=\"continuous\"><parent link=\"world\"/><child link=\"plate\"/>"
    "<origin xyz=\"0 0 0.05\"/><axis xyz=\"0 0 1\"/></joint>"
    "<link name=\"plate\"><inertial><mass value=\"10\"/><inertia ixx=\"1\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"2\"/></inertial><collision><geometry><box "
    "size=\"3 3 0.1\"/></geometry></collision></link></robot>";
static const char* footed_urdf =
    "<robot name=\"rb\"><link name=\"box\"><inertial><mass value=\"1\"/><inertia "
    "ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.001\" iyz=\"0\" izz=\"0.0017\"/></inertial>"
    "</link><joint name=\"s\" type=\"prismatic\"><parent link=\"box\"/><child link=\"foot\"/>"
    "<origin xyz=\"0.15 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" "
    "effort=\"1e3\" velocity=\"10\"/></joint><link name=\"foot\"><inertial><mass "
    "value=\"0.1\"/><inertia ixx=\"1e-5\" ixy=\"0\" ixz=\"0\" iyy=\"1e-5\" iyz=\"0\" "
    "izz=\"1e-5\"/></inertial></link></robot>";

static int test_catch_beside_moving_body(void) {
    sn_model* m = tc_load_string(table_urdf, 1);
    sn_model* r = tc_load_string(footed_urdf, 1);
    SNT_CHECK(m != NULL && r != NULL);
    sn_world* w;
    if (soft_world(0.01, &w)) return 1;
    sn_system *plate, *s;
    if (driven_joint(w, m, 2.0, &plate)) return 1;
    SNT_STATUS_OK(sn_world_add_system(w, r, &s, NULL));
    for (int i = 0; i < 4; i++) {
        const double off[3] = {i & 1 ? 0.05 : -0.05, i & 2 ? 0.05 : -0.05, -0.025};
        SNT_STATUS_OK(sn_system_add_soft_point(s, 1, off, NULL));
    }
    const double of[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_system_add_soft_point(s, 2, of, NULL));
    SNT_STATUS_OK(sn_system_set_soft_events(s, 1));
    const double bz = 0.125 - 1e-5;
    double q[8] = {0.5, 0, bz, 1, 0, 0, 0, 0.1 + 5e-6 - bz}, u[7] = {0, 1.0, 0, 0, 0, 0, -1};
    SNT_STATUS_OK(sn_system_set_state(s, q, 8, u, 7));
    SNT_STATUS_OK(sn_world_integrate(w));
    const double* uu = sn_system_u(s);
    sn_soft_point foot;
    SNT_STATUS_OK(sn_system_soft_point(s, 4, &foot));
    printf("  box on a table at 2 rad/s, its foot caught at the step's start: rates %.2e %.2e "
           "%.6f rad/s, foot active %d\n",
           uu[3], uu[4], uu[5], foot.active);
    SNT_CHECK(foot.active);
    SNT_CHECK(fabs(uu[3]) < 0.01 && fabs(uu[4]) < 0.01);
    SNT_NEAR(uu[5], 2.0, 0.05);
    sn_world_destroy(w);
    sn_model_destroy(m);
    sn_model_destroy(r);
    return 0;
}


SNT_SUITE(SNT_TEST(test_catch_beside_moving_body), SNT_TEST(test_drop_against_closed_form),
          SNT_TEST(test_touchdown_at_step_end), SNT_TEST(test_box_impact_order),
          SNT_TEST(test_off_bit_for_bit), SNT_TEST(test_resting_box_no_event),
          SNT_TEST(test_checkpoint), SNT_TEST(test_no_allocation), SNT_TEST(test_refusals))
