// SPDX-License-Identifier: Apache-2.0
// test_soft_geom.c: what soft contact points touch (issue 13 item 1; docs/expo.md): a flat
// heightfield gives the ground plane's results to rounding; on a uniform slope the contact frame
// is the slope's (K diagonal in it, the cone about its normal): a block sticks with the stretches
// m g sin a / K_t and m g cos a / K_n and does not creep, or slides at g (sin a - mu cos a), with
// Expo and the baselines; a ball rolls down it at 5/7 g sin a; static bodies (geometry welded to
// the world) carry points as the ground does.
#include "common.h"
#include "harness/snt.h"
#include "soft_setup.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GRAV 9.81


// a world of time step dt on soft contacts: the ground plane z = 0 (ground 1) or none
static int geom_world(double dt, int ground, sn_world** w) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    SNT_STATUS_OK(sn_world_create(&o, w, NULL));
    if (ground) SNT_STATUS_OK(sn_world_set_ground(*w, 1, 0));
    SNT_STATUS_OK(sn_world_set_contact_model(*w, SN_CONTACT_SOFT));
    return 0;
}


// a heightfield plane z = sx x over [-L, L]^2 (one cell, both triangles the same plane)
static int slope_field(sn_world* w, double sx, double L) {
    const double z[4] = {-sx * L, sx * L, -sx * L, sx * L};
    SNT_STATUS_OK(sn_world_set_heightfield(w, 2, 2, -L, -L, 2 * L, 2 * L, z));
    return 0;
}


static const sn_soft_integrator ITS[4] = {SN_SOFT_EXPO, SN_SOFT_EULER, SN_SOFT_RK4,
                                          SN_SOFT_IMPLICIT_EULER};
static const char* NAMES[4] = {"Expo", "explicit Euler", "RK4", "implicit Euler"};
static const int SUBS[4] = {1, 10, 2, 1}; // sub-steps at 1 ms (explicit Euler's stability)


// ---- a flat heightfield is the ground plane ----

// a box (2 kg, 0.2 x 0.1 x 0.05) on its 8 corner points dropped from 1.5 cm with a spin, and a
// ball (1 kg, r 5 cm) on its rolling point dropped from 2 cm rolling, over the ground plane z = h
// (field 0) or a flat heightfield at h (field 1): their q after 0.6 s (7 + 7)
static int box_drop(int field, sn_soft_integrator it, int nsub, double* q) {
    sn_world* w;
    if (geom_world(0.002, !field, &w)) return 1;
    const double h = 0.3;
    if (!field) SNT_STATUS_OK(sn_world_set_ground(w, 1, h));
    if (field) {
        const double z[9] = {h, h, h, h, h, h, h, h, h};
        SNT_STATUS_OK(sn_world_set_heightfield(w, 3, 3, -2, -2, 2, 2, z));
    }
    sn_system *s, *ball;
    const double size[3] = {0.2, 0.1, 0.05};
    SNT_STATUS_OK(sn_world_add_box(w, size, 2.0, &s));
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 1.0, &ball));
    int n = 0, nb = 0;
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, &n));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(ball, &nb));
    SNT_CHECK(n == 8 && nb == 1);
    SNT_STATUS_OK(sn_system_set_soft_integrator(s, it, nsub));
    SNT_STATUS_OK(sn_system_set_soft_integrator(ball, it, nsub));
    double c = cos(0.05), sn = sin(0.05);
    double q0[7] = {0, 0, h + 0.04, c, sn, 0, 0}, u0[6] = {0.3, 0, 0, 0, 0, 1};
    SNT_STATUS_OK(sn_system_set_state(s, q0, 7, u0, 6));
    double qb[7] = {1, 0, h + 0.07, 1, 0, 0, 0}, ub[6] = {0.5, 0, 0, 0, 10, 0};
    SNT_STATUS_OK(sn_system_set_state(ball, qb, 7, ub, 6));
    int touched = 0;
    for (int i = 0; i < 300; i++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        touched |=
            (sn_system_soft_contact_count(s) > 0) + 2 * (sn_system_soft_contact_count(ball) > 0);
    }
    SNT_CHECK(touched == 3);
    memcpy(q, sn_system_q(s), 7 * sizeof(double));
    memcpy(q + 7, sn_system_q(ball), 7 * sizeof(double));
    sn_world_destroy(w);
    return 0;
}


static int test_flat_field_is_ground(void) {
    for (int k = 0; k < 4; k++) {
        double a[14], b[14];
        if (box_drop(0, ITS[k], SUBS[k], a) || box_drop(1, ITS[k], SUBS[k], b)) return 1;
        double d = 0;
        for (int i = 0; i < 14; i++)
            d = fmax(d, fabs(a[i] - b[i]));
        printf("  %s: box dropped spinning on 8 points and a ball rolling, 0.6 s: ground z %.9f, "
               "%.9f m, flat field z %.9f, %.9f m, largest difference of q %.3g\n",
               NAMES[k], a[2], a[9], b[2], b[9], d);
        SNT_CHECK(d == 0);
    }
    return 0;
}


// ---- a block on a uniform slope ----

// a point mass (1 kg) at rest on the slope z = -tan(a) x (downhill +x), its soft point 1 nm
// inside; integrator it, T seconds at 1 ms: the velocity along the slope, the position, and
// the last point's state
typedef struct slope_run {
    double v_down, x_down; // along the downhill tangent t = (cos a, 0, -sin a)
    double stretch_t;      // (p - p0) . t
    double press_n;        // (p0 - p) . n, n = (sin a, 0, cos a)
    double off_plane;      // (p - p0) . e_y: none expected
    int slip, active;
} slope_run;

static int slope(double a, const sn_soft_params* P, sn_soft_integrator it, int nsub, double T,
                 slope_run* r) {
    sn_world* w;
    if (geom_world(0.001, 0, &w)) return 1;
    if (slope_field(w, -tan(a), 50)) return 1;
    if (P) SNT_STATUS_OK(sn_world_set_soft_params(w, P));
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.01, 1.0, &s));
    const double off[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_system_add_soft_point(s, 1, off, NULL));
    SNT_STATUS_OK(sn_system_set_soft_integrator(s, it, nsub));
    const double n[3] = {sin(a), 0, cos(a)}, t[3] = {cos(a), 0, -sin(a)};
    double q[7] = {-1e-9 * n[0], 0, -1e-9 * n[2], 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    double nrm[3];
    double z0 = sn_world_terrain_height(w, 0, 0, nrm);
    SNT_CHECK(fabs(z0) < 1e-12 && fabs(nrm[0] - n[0]) < 1e-15 && fabs(nrm[2] - n[2]) < 1e-15);
    int steps = (int)(T / 0.001 + 0.5);
    for (int k = 0; k < steps; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    sn_soft_point sp;
    SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
    const double* qq = sn_system_q(s);
    const double* uu = sn_system_u(s);
    r->v_down = uu[0] * t[0] + uu[2] * t[2];
    r->x_down = qq[0] * t[0] + qq[2] * t[2];
    double d[3] = {sp.position[0] - sp.anchor[0], sp.position[1] - sp.anchor[1],
                   sp.position[2] - sp.anchor[2]};
    r->stretch_t = d[0] * t[0] + d[2] * t[2];
    r->press_n = -(d[0] * n[0] + d[2] * n[2]);
    r->off_plane = d[1];
    r->slip = sp.slipping;
    r->active = sp.active;
    sn_world_destroy(w);
    return 0;
}


// tan a = 0.5 < mu = 1, K_t = 2e5 and K_n = 1e5 apart (a K in world axes would mix them): the
// block sticks, stretched m g sin a / K_t along the slope and pressed m g cos a / K_n into it,
// and does not creep from 5 to 10 s
static int test_slope_sticks(void) {
    double a = atan(0.5);
    sn_soft_params P = sn_soft_params_default();
    P.k_tangent = 2e5;
    double want_t = GRAV * sin(a) / P.k_tangent, want_n = GRAV * cos(a) / P.k_normal;
    double cone = P.mu * GRAV * cos(a) / P.k_tangent;
    for (int k = 0; k < 4; k++) {
        slope_run r5, r10;
        if (slope(a, &P, ITS[k], SUBS[k], 5.0, &r5) || slope(a, &P, ITS[k], SUBS[k], 10.0, &r10))
            return 1;
        printf("  %s: stretch along the slope %.9e m (m g sin a / K_t, relative error %.2e; the "
               "cone's %.4e), into it %.9e m (m g cos a / K_n, %.2e), creep %.3e m from 5 to 10 "
               "s\n",
               NAMES[k], r10.stretch_t, r10.stretch_t / want_t - 1, cone, r10.press_n,
               r10.press_n / want_n - 1, r10.x_down - r5.x_down);
        SNT_CHECK(r10.active && !r10.slip);
        // docs/expo.md: to 2e-15 relative with every integrator (asserted 1e-14)
        SNT_NEAR(r10.stretch_t, want_t, 1e-14 * want_t);
        SNT_NEAR(r10.press_n, want_n, 1e-14 * want_n);
        SNT_CHECK(fabs(r10.off_plane) < 1e-15);
        SNT_CHECK(r10.stretch_t < cone);
        SNT_CHECK(fabs(r10.x_down - r5.x_down) < 1e-12);
        SNT_CHECK(fabs(r10.v_down) < 1e-12);
    }
    return 0;
}


// tan a = 1.5 > mu = 1: the block slides at g (sin a - mu cos a), measured between 1 and 2 s,
// pressed m g cos a / K_n into the slope, its anchor moving in the slope's plane
static int test_slope_slides(void) {
    double a = atan(1.5), want = GRAV * (sin(a) - cos(a));
    double want_n = GRAV * cos(a) / 1e5;
    for (int k = 0; k < 4; k++) {
        slope_run r1, r2;
        if (slope(a, NULL, ITS[k], SUBS[k], 1.0, &r1) || slope(a, NULL, ITS[k], SUBS[k], 2.0, &r2))
            return 1;
        double acc = r2.v_down - r1.v_down;
        printf("  %s: acceleration down the slope %.9f m/s^2 between 1 and 2 s (g (sin a - mu cos "
               "a), relative error %.2e), into it %.9e m (m g cos a / K_n, %.2e), slipping %d\n",
               NAMES[k], acc, acc / want - 1, r2.press_n, r2.press_n / want_n - 1, r2.slip);
        SNT_CHECK(r2.active && r2.slip);
        // docs/expo.md: to 1.3e-12 relative (Expo 5e-14), pressed to 2e-11 (asserted 5e-12, 5e-11)
        SNT_NEAR(acc, want, 5e-12 * want);
        SNT_NEAR(r2.press_n, want_n, 5e-11 * want_n);
        SNT_CHECK(fabs(r2.off_plane) < 1e-15);
    }
    return 0;
}


// an elastic bounce off the slope (tan a = 0.5; B = 0, mu = 0, no gravity): a point mass falling
// straight down at 1 m/s leaves along the mirror image of its velocity about the slope's normal:
// its tangential velocity sin a kept to rounding (no tangential force: the frame's cone), its
// normal one cos a reversed up to what the contact's start and end steps cost (measured: Expo
// loses 2.1e-4 of it, RK4 gains 5.8e-5)
static int test_slope_bounce(void) {
    double a = atan(0.5);
    sn_soft_params P = sn_soft_params_default();
    P.b_normal = P.b_tangent = 0;
    P.mu = 0;
    const sn_soft_integrator its[2] = {SN_SOFT_EXPO, SN_SOFT_RK4};
    for (int k = 0; k < 2; k++) {
        sn_world* w;
        if (geom_world(0.00025, 0, &w)) return 1;
        if (slope_field(w, -tan(a), 50)) return 1;
        SNT_STATUS_OK(sn_world_set_soft_params(w, &P));
        const double g0[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_world_set_gravity(w, g0));
        sn_system* s;
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.01, 1.0, &s));
        const double off[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_system_add_soft_point(s, 1, off, NULL));
        SNT_STATUS_OK(sn_system_set_soft_integrator(s, its[k], 1));
        double q[7] = {0, 0, 0.01, 1, 0, 0, 0}, u[6] = {0, 0, -1, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
        int touched = 0;
        for (int i = 0; i < 200; i++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            touched |= sn_system_soft_contact_count(s) > 0;
        }
        const double n[3] = {sin(a), 0, cos(a)}, t[3] = {cos(a), 0, -sin(a)};
        const double* v = sn_system_u(s);
        double vt = v[0] * t[0] + v[2] * t[2], vn = v[0] * n[0] + v[2] * n[2];
        printf("  %s, 0.25 ms: bounce off the slope at 1 m/s: tangential %.15f m/s (sin a = "
               "%.15f), normal %.9f m/s (cos a = %.9f), sideways %.1e\n",
               k ? "RK4" : "Expo", vt, sin(a), vn, cos(a), v[1]);
        SNT_CHECK(touched && sn_system_soft_contact_count(s) == 0);
        SNT_NEAR(vt, sin(a), 1e-14);
        // docs/expo.md: Expo loses 2.1e-4 of it, RK4 gains 5.8e-5 (asserted to 2e-5 of cos a)
        SNT_NEAR(vn, cos(a) * (k ? 1 + 5.8e-5 : 1 - 2.14e-4), 2e-5 * cos(a));
        if (k == 0) SNT_CHECK(vn <= cos(a)); // Expo: a loss, never a gain (RK4 gains 6e-5)
        SNT_CHECK(fabs(v[1]) < 1e-15);
        sn_world_destroy(w);
    }
    return 0;
}


// a ball (radius 5 cm, 1 kg, I = 2/5 m r^2) on its rolling point, at rest on the slope tan a =
// 0.3 (mu = 1 > 2/7 tan a: no slip): it rolls down at 5/7 g sin a, its point handed over to the
// sphere's point nearest the slope (along -n) with the anchor moved in the slope's plane; the
// error falls about 4x per halving of the sub-step (measured: 5.7e-3, 1.6e-3, 4.2e-4 m/s^2)
static int ball_down(int nsub, double* acc, int* slipped) {
    double a = atan(0.3), r = 0.05;
    sn_world* w;
    if (geom_world(0.01, 0, &w)) return 1;
    if (slope_field(w, -tan(a), 50)) return 1;
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_sphere(w, r, 1.0, &s));
    int n = 0;
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, &n));
    SNT_CHECK(n == 1);
    SNT_STATUS_OK(sn_system_set_soft_integrator(s, SN_SOFT_EXPO, nsub));
    const double t[3] = {cos(a), 0, -sin(a)};
    double q[7] = {(r - 1e-9) * sin(a), 0, (r - 1e-9) * cos(a), 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    double v[2];
    *slipped = 0;
    for (int i = 1; i <= 200; i++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        sn_soft_point sp;
        SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
        SNT_CHECK(sp.active);
        *slipped |= sp.slipping;
        if (i == 100 || i == 200)
            v[i / 100 - 1] = sn_system_u(s)[0] * t[0] + sn_system_u(s)[2] * t[2];
    }
    *acc = v[1] - v[0];
    sn_world_destroy(w);
    return 0;
}


static int test_ball_rolls_down_slope(void) {
    double a = atan(0.3), want = 5.0 / 7.0 * GRAV * sin(a), e[3];
    for (int j = 0; j < 3; j++) {
        double acc;
        int slipped;
        if (ball_down(4 << j, &acc, &slipped)) return 1;
        e[j] = acc - want;
        printf("  ball rolling down tan a = 0.3, Expo %d x %.4g ms: acceleration %.9f m/s^2 "
               "between 1 and 2 s (5/7 g sin a = %.9f, error %.3e)\n",
               4 << j, 10.0 / (4 << j), acc, want, e[j]);
        SNT_CHECK(!slipped);
        // docs/expo.md: 5.7e-3, 1.6e-3, 4.2e-4 m/s^2 (asserted within 30 % of each)
        const double doc[3] = {5.70e-3, 1.62e-3, 4.19e-4};
        SNT_CHECK(fabs(e[j]) < 1.3 * doc[j]);
    }
    for (int j = 1; j < 3; j++)
        SNT_CHECK(fabs(e[j]) < 0.35 * fabs(e[j - 1]));
    return 0;
}


// ---- static bodies: geometry welded to the world ----

// a system of one fixed link carrying a collision geometry `geom` (URDF, e.g. "<box size=\"1 1
// 1\"/>") at xyz, rpy: a static body (its geometry is on body 0, the world). The model is kept
// in *m (the caller destroys it after the world)
static int static_body(sn_world* w, const char* geom, const double* xyz, const double* rpy,
                       sn_model** m, sn_system** s) {
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<robot name=\"fixture\"><link name=\"world\"/><joint name=\"weld\" "
             "type=\"fixed\"><parent link=\"world\"/><child link=\"shape\"/><origin xyz=\"%.17g "
             "%.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/></joint><link "
             "name=\"shape\"><collision><geometry>%s"
             "</geometry></collision></link></robot>",
             xyz[0], xyz[1], xyz[2], rpy[0], rpy[1], rpy[2], geom);
    *m = tc_load_string(xml, 1);
    SNT_CHECK(*m != NULL);
    SNT_CHECK((*m)->nv == 0);
    SNT_STATUS_OK(sn_world_add_system(w, *m, s, NULL));
    return 0;
}


// the 2 kg box of box_drop at rest on its 8 corner points, its lower face 1 nm below z = h, on
// the ground plane (fixture 0) or on a static box whose top is at h (fixture 1); Expo at 10 ms,
// 3 s: its q and the four lower corners' forces and penetrations
static int box_rest(int fixture, sn_soft_integrator it, int nsub, double* q, double* fz,
                    double* pen) {
    const double h = 0.5;
    sn_world* w;
    if (geom_world(0.01, !fixture, &w)) return 1;
    if (!fixture) SNT_STATUS_OK(sn_world_set_ground(w, 1, h));
    sn_model* fm = NULL;
    sn_system* table;
    const double at[3] = {0.1, -0.2, h - 0.1}, rpy[3] = {0, 0, 0};
    if (fixture && static_body(w, "<box size=\"1 0.8 0.2\"/>", at, rpy, &fm, &table)) return 1;
    sn_system* s;
    const double size[3] = {0.2, 0.1, 0.05};
    SNT_STATUS_OK(sn_world_add_box(w, size, 2.0, &s));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, NULL));
    SNT_STATUS_OK(sn_system_set_soft_integrator(s, it, nsub));
    double q0[7] = {0, 0, h + 0.025 - 1e-9, 1, 0, 0, 0}, u0[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q0, 7, u0, 6));
    for (int i = 0; i < 300; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    memcpy(q, sn_system_q(s), 7 * sizeof(double));
    int k = 0;
    for (int i = 0; i < 8; i++) {
        sn_soft_point sp;
        SNT_STATUS_OK(sn_system_soft_point(s, i, &sp));
        SNT_CHECK(sp.active == (sp.offset[2] < 0) && !sp.slipping);
        if (!sp.active) continue;
        fz[k] = sp.force[2];
        pen[k++] = sp.penetration;
    }
    SNT_CHECK(k == 4);
    sn_world_destroy(w);
    sn_model_destroy(fm);
    return 0;
}


static int test_box_on_static_box(void) {
    const double mg4 = 2.0 * GRAV / 4;
    for (int k = 0; k < 4; k += 2) { // Expo and RK4
        double qa[7], qb[7], fa[4], fb[4], pa[4], pb[4];
        if (box_rest(0, ITS[k], SUBS[k], qa, fa, pa) || box_rest(1, ITS[k], SUBS[k], qb, fb, pb))
            return 1;
        double dq = 0, df = 0, dp = 0;
        for (int i = 0; i < 7; i++)
            dq = fmax(dq, fabs(qa[i] - qb[i]));
        for (int i = 0; i < 4; i++) {
            df = fmax(df, fabs(fb[i] - mg4));
            dp = fmax(dp, fabs(pb[i] - (mg4 / 1e5 + 1e-9))); // started 1 nm in
            df = fmax(df, fabs(fa[i] - mg4));
        }
        printf(
            "  %s: box at rest on a static box, 3 s at 10 ms: corners' force within %.3e N of "
            "m g / 4 = %.6f N, penetration within %.3e m of m g / (4 K) + 1 nm = %.6e m; q differs "
            "from the ground's by %.3e\n",
            NAMES[k], df, mg4, dp, mg4 / 1e5 + 1e-9, dq);
        // docs/expo.md: m g / 4 to 1.7e-12 N, penetration to 5.6e-18 m (asserted 1e-11, 5e-17)
        SNT_CHECK(df < 1e-11 && dp < 5e-17 && dq < 1e-14);
    }
    return 0;
}


// the collision filters hold for soft points as for hard contacts: a box whose mask lacks the
// static box's group falls through it onto the ground and rests there
static int test_filter_passes_through(void) {
    for (int filt = 0; filt < 2; filt++) {
        sn_world* w;
        if (geom_world(0.01, 1, &w)) return 1;
        sn_model* fm;
        sn_system* table;
        const double at[3] = {0, 0, 0.2}, rpy[3] = {0, 0, 0};
        if (static_body(w, "<box size=\"1 1 0.2\"/>", at, rpy, &fm, &table)) return 1;
        SNT_STATUS_OK(sn_system_set_collision_filter(table, 0, 2, ~0u));
        sn_system* s;
        const double size[3] = {0.2, 0.1, 0.05};
        SNT_STATUS_OK(sn_world_add_box(w, size, 2.0, &s));
        SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, NULL));
        if (filt) SNT_STATUS_OK(sn_system_set_collision_filter(s, 1, 1, 1)); // the ground only
        double q0[7] = {0, 0, 0.4, 1, 0, 0, 0}, u0[6] = {0};
        SNT_STATUS_OK(sn_system_set_state(s, q0, 7, u0, 6));
        for (int i = 0; i < 300; i++)
            SNT_STATUS_OK(sn_world_integrate(w));
        double z = sn_system_q(s)[2], fz = 0;
        for (int i = 0; i < 8; i++) {
            sn_soft_point sp;
            SNT_STATUS_OK(sn_system_soft_point(s, i, &sp));
            fz += sp.force[2];
        }
        printf("  box %s, dropped from 0.4 m: at rest at z %.6f m (the anchors set at the "
               "impact's depth), its points carrying %.9f N (m g %.9f)\n",
               filt ? "filtered from the static box's group" : "over a static box (top 0.3 m)", z,
               fz, 2.0 * GRAV);
        if (filt)
            SNT_CHECK(z < 0.025 && z > 0);
        else
            SNT_CHECK(z < 0.325 && z > 0.3);
        SNT_NEAR(fz, 2.0 * GRAV, 1e-6);
        sn_world_destroy(w);
        sn_model_destroy(fm);
    }
    return 0;
}


// a ball (radius 5 cm, 1 kg) on its rolling point put on the top of a static sphere (radius 0.3
// m): it stays there at rest, its centre m g / K_n below touching, the force m g along e_z
static int test_ball_on_static_sphere(void) {
    sn_world* w;
    if (geom_world(0.01, 1, &w)) return 1;
    sn_model* fm;
    sn_system* fix;
    const double c[3] = {0.2, 0.1, 0.4}, rpy[3] = {0, 0, 0};
    if (static_body(w, "<sphere radius=\"0.3\"/>", c, rpy, &fm, &fix)) return 1;
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 1.0, &s));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, NULL));
    double q[7] = {c[0], c[1], c[2] + 0.35 - 1e-9, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    for (int i = 0; i < 300; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    sn_soft_point sp;
    SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
    const double* qq = sn_system_q(s);
    double want = c[2] + 0.35 - GRAV / 1e5;
    printf("  ball on a static sphere's top, Expo 10 ms, 3 s: centre z %.12f m (%.12f), x, y off "
           "by %.2e, %.2e; force %.12f N (m g %.12f), penetration %.6e m\n",
           qq[2], want, qq[0] - c[0], qq[1] - c[1], sp.force[2], GRAV, sp.penetration);
    SNT_CHECK(sp.active && !sp.slipping);
    SNT_NEAR(qq[2], want, 1e-12);
    SNT_CHECK(fabs(qq[0] - c[0]) < 1e-15 && fabs(qq[1] - c[1]) < 1e-15);
    SNT_NEAR(sp.force[2], GRAV, 1e-9);
    SNT_CHECK(fabs(sp.force[0]) < 1e-12 && fabs(sp.force[1]) < 1e-12);
    SNT_NEAR(sp.penetration, GRAV / 1e5, 1e-12);
    sn_world_destroy(w);
    sn_model_destroy(fm);
    return 0;
}


// a point mass (1 kg) put on a static sphere (radius 0.3 m) at the polar angle th = 0.3 (tan th
// < mu = 1): it sticks, the spring stretched m g sin th / K_t along the sphere and pressed
// m g cos th / K_n into it (K_t = 2e5, K_n = 1e5: the frame is the sphere's at the contact), and
// on a lying static cylinder likewise; on a static capsule's side and a standing cylinder's cap
// (off its axis): pressed m g / K_n
static int test_point_on_static_curves(void) {
    sn_soft_params P = sn_soft_params_default();
    P.k_tangent = 2e5;
    const char* shapes[4] = {"<sphere radius=\"0.3\"/>", "<capsule radius=\"0.3\" length=\"1\"/>",
                             "<cylinder radius=\"0.3\" length=\"1\"/>",
                             "<cylinder radius=\"0.5\" length=\"0.6\"/>"};
    const char* names[4] = {"sphere", "capsule's side", "lying cylinder's side",
                            "standing cylinder's cap"};
    const double ths[4] = {0.3, 0, 0.3, 0.2}; // the cap: the point off the axis, n = e_z
    for (int k = 0; k < 4; k++) {
        sn_world* w;
        if (geom_world(0.001, 0, &w)) return 1;
        SNT_STATUS_OK(sn_world_set_soft_params(w, &P));
        sn_model* fm;
        sn_system* fix;
        const double c[3] = {0, 0, 0.4}, rpy[3] = {k == 1 || k == 2 ? 1.5707963267948966 : 0, 0, 0};
        if (static_body(w, shapes[k], c, rpy, &fm, &fix)) return 1;
        sn_system* s;
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.01, 1.0, &s));
        const double off[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_system_add_soft_point(s, 1, off, NULL));
        double th = k == 3 ? 0 : ths[k];
        const double n[3] = {sin(th), 0, cos(th)}, t[3] = {cos(th), 0, -sin(th)};
        double rr = 0.3 - 1e-9;
        double q[7] = {c[0] + rr * n[0] + (k == 3 ? ths[k] : 0), 0, c[2] + rr * n[2], 1, 0, 0, 0};
        double u[6] = {0};
        SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
        for (int i = 0; i < 3000; i++)
            SNT_STATUS_OK(sn_world_integrate(w));
        sn_soft_point sp;
        SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
        double d[3] = {sp.position[0] - sp.anchor[0], sp.position[1] - sp.anchor[1],
                       sp.position[2] - sp.anchor[2]};
        double st = d[0] * t[0] + d[2] * t[2], pr = -(d[0] * n[0] + d[2] * n[2]);
        double wt = GRAV * sin(th) / P.k_tangent, wn = GRAV * cos(th) / P.k_normal;
        printf("  point on a static %s at %.1f rad, Expo 1 ms, 3 s: stretch along it %.9e m (m g "
               "sin th / K_t, error %.2e m), into it %.9e m (m g cos th / K_n, %.2e m), speed %.2e "
               "m/s\n",
               names[k], th, st, st - wt, pr, pr - wn, fabs(sn_system_u(s)[0]));
        SNT_CHECK(sp.active && !sp.slipping);
        // docs/expo.md: to 1.5e-16 m (asserted 5e-12 of the 1e-4 m press, 5e-16 m)
        SNT_NEAR(st, wt, 5e-12 * wn);
        SNT_NEAR(pr, wn, 5e-12 * wn);
        SNT_CHECK(fabs(d[1]) < 1e-15);
        sn_world_destroy(w);
        sn_model_destroy(fm);
    }
    return 0;
}


// static geometry through support functions (GJK, EPA): a convex mesh (a 1 x 1 x 0.2 block, an
// OBJ file of its corners, on a fixed URDF link: top at z = 0.4) and an ellipsoid (semi-axes 0.3,
// 0.2, 0.1 at z = 0.4 in an MJCF <worldbody>). A point mass on the mesh's top and on the
// ellipsoid's top is pressed m g / K_n; put on the ellipsoid where its normal is 0.4 rad from the
// vertical (x = a sin u, z = c cos u with tan 0.4 = (c / a) tan u) it sticks (K_t = 2e5)
// stretched m g sin 0.4 / K_t and pressed m g cos 0.4 / K_n in the frame of that normal, to EPA's
// accuracy (measured: 2.2e-5 of the stretch)
static const char* ellipsoid_mjcf =
    "<mujoco model=\"fixture\"><worldbody><geom type=\"ellipsoid\" size=\"0.3 0.2 0.1\" "
    "pos=\"3 0 0.4\"/></worldbody></mujoco>";

static int block_obj(char* path, size_t n) {
    char dir[] = "/tmp/sinew_softgeomXXXXXX";
    SNT_CHECK(mkdtemp(dir) != NULL);
    snprintf(path, n, "%s/block.obj", dir);
    FILE* f = fopen(path, "w");
    SNT_CHECK(f != NULL);
    for (int k = 0; k < 8; k++)
        fprintf(f, "v %g %g %g\n", k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.1 : -0.1);
    fprintf(f, "f 1 3 2\nf 2 3 4\nf 5 6 7\nf 6 8 7\nf 1 2 5\nf 2 6 5\nf 3 7 4\nf 4 7 8\n"
               "f 1 5 3\nf 3 5 7\nf 2 4 6\nf 4 8 6\n");
    fclose(f);
    return 0;
}

static int test_point_on_static_convex(void) {
    sn_model* me = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load_mjcf_string(ellipsoid_mjcf, strlen(ellipsoid_mjcf), "fixture.xml", NULL,
                                      NULL, &me, &err));
    SNT_CHECK(me->nv == 0 && me->ngeom == 1 && me->geom_type[0] == SN_GEOM_ELLIPSOID);
    char obj[128], geom[256];
    if (block_obj(obj, sizeof obj)) return 1;
    snprintf(geom, sizeof geom, "<mesh filename=\"%s\"/>", obj);
    sn_soft_params P = sn_soft_params_default();
    P.k_tangent = 2e5;
    const double ea = 0.3, ec = 0.1, phi = 0.4, uu = atan(ea / ec * tan(phi));
    for (int k = 0; k < 3; k++) {
        sn_world* w;
        if (geom_world(0.001, 0, &w)) return 1;
        SNT_STATUS_OK(sn_world_set_soft_params(w, &P));
        sn_system* fix;
        sn_model* mm = NULL;
        const double at[3] = {0, 0, 0.3}, rpy[3] = {0, 0, 0};
        if (k == 0) {
            if (static_body(w, geom, at, rpy, &mm, &fix)) return 1;
            SNT_CHECK(mm->geom_type[0] == SN_GEOM_MESH && mm->geom_vert_num[0] == 8);
        } else {
            SNT_STATUS_OK(sn_world_add_system(w, me, &fix, NULL));
        }
        sn_system* s;
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.01, 1.0, &s));
        const double off[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_system_add_soft_point(s, 1, off, NULL));
        double th = k == 2 ? phi : 0;
        const double n[3] = {sin(th), 0, cos(th)}, t[3] = {cos(th), 0, -sin(th)};
        double x0[3] = {0.1, 0.2, 0.4}; // on the block's top
        if (k == 1) x0[0] = 3, x0[1] = 0, x0[2] = 0.5;
        if (k == 2) x0[0] = 3 + ea * sin(uu), x0[1] = 0, x0[2] = 0.4 + ec * cos(uu);
        double q[7] = {x0[0] - 1e-9 * n[0], x0[1], x0[2] - 1e-9 * n[2], 1, 0, 0, 0}, u[6] = {0};
        SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
        for (int i = 0; i < 1000; i++)
            SNT_STATUS_OK(sn_world_integrate(w));
        sn_soft_point sp;
        SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
        double d[3] = {sp.position[0] - sp.anchor[0], sp.position[1] - sp.anchor[1],
                       sp.position[2] - sp.anchor[2]};
        double st = d[0] * t[0] + d[2] * t[2], pr = -(d[0] * n[0] + d[2] * n[2]);
        double wt = GRAV * sin(th) / P.k_tangent, wn = GRAV * cos(th) / P.k_normal;
        printf("  point on a static %s, Expo 1 ms, 1 s: stretch along it %.9e m (m g sin th / K_t, "
               "error %.2e m), into it %.9e m (m g cos th / K_n, %.2e m), sideways %.1e m\n",
               k == 0   ? "convex mesh's top"
               : k == 1 ? "ellipsoid's top"
                        : "ellipsoid at 0.4 rad",
               st, st - wt, pr, pr - wn, d[1]);
        SNT_CHECK(sp.active && !sp.slipping);
        // the mesh's face is exact; the ellipsoid's normal is EPA's, to about 2e-5 rad
        double tol = k == 0 ? 1e-12 : 1e-4;
        SNT_NEAR(st, wt, tol * wn);
        SNT_NEAR(pr, wn, tol * wn);
        SNT_CHECK(fabs(d[1]) < tol * wn);
        sn_world_destroy(w);
        sn_model_destroy(mm);
    }
    sn_model_destroy(me);
    remove(obj);
    *strrchr(obj, '/') = 0;
    rmdir(obj);
    return 0;
}


// ---- moving bodies: the system's own (self-contact) and other systems' ----

// the forces of points [i0, i1) of s: their sum's z, the largest |x|, |y| of their sum (fxy) and
// of one point (fpt)
static double sum_fz(sn_system* s, int i0, int i1, double* fxy, double* fpt) {
    double f[3] = {0, 0, 0};
    *fpt = 0;
    for (int i = i0; i < i1; i++) {
        sn_soft_point sp;
        if (sn_system_soft_point(s, i, &sp) != SN_OK) return NAN;
        for (int e = 0; e < 3; e++)
            f[e] += sp.force[e];
        *fpt = fmax(*fpt, fmax(fabs(sp.force[0]), fabs(sp.force[1])));
    }
    *fxy = fmax(fabs(f[0]), fabs(f[1]));
    return f[2];
}


// two systems: a box (1 kg, 0.1 x 0.1 x 0.05) put on a free box (4 kg, 0.4 x 0.4 x 0.1) put on
// the ground, each on its 8 corner points (the lower box's upper corners are outside the top one),
// the top first or second in the world's order (the lower one then sees its reaction from the
// same step or the last). At rest after 3 s: the top's points carry m1 g, the lower box's (the
// ground's) (m1 + m2) g
static int stack(int top_first, sn_soft_integrator it, int nsub, double dt, double* f1, double* f2,
                 double* fpt, double* vmax) {
    sn_world* w;
    if (geom_world(dt, 1, &w)) return 1;
    const double s1[3] = {0.1, 0.1, 0.05}, s2[3] = {0.4, 0.4, 0.1};
    sn_system *top = NULL, *low = NULL;
    for (int k = 0; k < 2; k++) {
        if ((k == 0) == (top_first != 0))
            SNT_STATUS_OK(sn_world_add_box(w, s1, 1.0, &top));
        else
            SNT_STATUS_OK(sn_world_add_box(w, s2, 4.0, &low));
    }
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(top, NULL));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(low, NULL));
    SNT_STATUS_OK(sn_system_set_soft_integrator(top, it, nsub));
    SNT_STATUS_OK(sn_system_set_soft_integrator(low, it, nsub));
    double ql[7] = {0, 0, 0.05 - 1e-9, 1, 0, 0, 0}, qt[7] = {0.03, -0.02, 0.125 - 2e-9, 1, 0, 0, 0};
    double u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(low, ql, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(top, qt, 7, u, 6));
    int steps = (int)(3.0 / dt + 0.5);
    for (int i = 0; i < steps; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double fxy1, fxy2, fpt1, fpt2;
    *f1 = sum_fz(top, 0, 8, &fxy1, &fpt1);
    *f2 = sum_fz(low, 0, 8, &fxy2, &fpt2);
    *fpt = fpt1;
    *vmax = 0;
    for (int k = 0; k < 6; k++)
        *vmax = fmax(*vmax, fmax(fabs(sn_system_u(top)[k]), fabs(sn_system_u(low)[k])));
    SNT_CHECK(fxy1 < 1e-9 && fxy2 < 1e-9);
    SNT_CHECK(sn_system_soft_contact_count(top) == 4 && sn_system_soft_contact_count(low) == 4);
    sn_world_destroy(w);
    return 0;
}


static int test_box_on_free_box(void) {
    const struct {
        sn_soft_integrator it;
        int nsub;
        double dt;
    } t[3] = {{SN_SOFT_EXPO, 1, 0.01}, {SN_SOFT_EXPO, 1, 0.001}, {SN_SOFT_RK4, 2, 0.001}};
    for (int k = 0; k < 3; k++)
        for (int top_first = 0; top_first < 2; top_first++) {
            double f1, f2, fpt, v;
            if (stack(top_first, t[k].it, t[k].nsub, t[k].dt, &f1, &f2, &fpt, &v)) return 1;
            printf("  %s, dt %g ms, the top box %s: its points carry %.9f N (m1 g %.9f), the "
                   "lower box's %.9f N ((m1 + m2) g %.9f); speeds below %.2e; tangential force "
                   "held by the top's points (summing to 0) up to %.2e N\n",
                   t[k].it == SN_SOFT_EXPO ? "Expo" : "RK4", 1e3 * t[k].dt,
                   top_first ? "first" : "second", f1, GRAV, f2, 5 * GRAV, v, fpt);
            SNT_NEAR(f1, GRAV, 1e-9);
            SNT_NEAR(f2, 5 * GRAV, 1e-9);
            SNT_CHECK(v < 1e-13); // docs/expo.md: speeds below 1e-13 m/s
        }
    return 0;
}


// another system's moving body carries a block: a plate (10 kg, on a prismatic x joint from the
// world, its velocity held at 0.2 m/s by a stiff damping PD) under a free 1 kg box on its 8
// corners. Started at rest (Expo at 1 ms) the box slips until it moves with the plate, then its
// anchors ride on the plate: after 2 s it sticks, moving at the plate's speed, its points carrying
// m g with no net tangential force (an anchor left in world axes would stretch by v t and keep it
// slipping); started at the plate's speed (Expo at 10 ms) it never slips. (At 10 ms the slipping
// start fails on the plain ground as well, not only here: a box put on the ground sliding at 0.2
// m/s leaves it at 0.6 m/s spinning at 26 rad/s, Expo's sliding at a dt the tangential springs
// stretch beyond the cone many times over; docs/expo.md)
static const char* conveyor_urdf =
    "<robot name=\"conveyor\"><link name=\"world\"/>"
    "<joint name=\"belt\" type=\"prismatic\"><parent link=\"world\"/><child link=\"plate\"/>"
    "<origin xyz=\"0 0 0.05\"/><axis xyz=\"1 0 0\"/><limit lower=\"-100\" upper=\"100\" "
    "effort=\"1e6\" velocity=\"100\"/></joint>"
    "<link name=\"plate\"><inertial><mass value=\"10\"/><inertia ixx=\"0.3\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"0.9\" iyz=\"0\" izz=\"1.2\"/></inertial><collision><geometry><box "
    "size=\"4 0.6 0.1\"/></geometry></collision></link></robot>";

static int test_block_rides_plate(void) {
    sn_model* m = tc_load_string(conveyor_urdf, 1);
    SNT_CHECK(m != NULL && m->nv == 1);
    const double dts[2] = {0.01, 0.001}, vb = 0.2;
    for (int k = 0; k < 2; k++) {
        sn_world* w;
        if (geom_world(dts[k], 0, &w)) return 1;
        sn_system *plate, *box;
        if (driven_joint(w, m, vb, &plate)) return 1;
        const double size[3] = {0.1, 0.1, 0.05};
        SNT_STATUS_OK(sn_world_add_box(w, size, 1.0, &box));
        SNT_STATUS_OK(sn_system_add_soft_geometry_points(box, NULL));
        // at 1 ms from rest; at 10 ms moving with the plate already (Expo at 10 ms does not
        // take the box's slipping start: below)
        double q[7] = {0, 0, 0.125 - 1e-9, 1, 0, 0, 0}, u[6] = {k ? 0 : vb, 0, 0, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(box, q, 7, u, 6));
        int slipped = 0, steps = (int)(2.0 / dts[k] + 0.5);
        for (int i = 0; i < steps; i++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            sn_soft_point sp;
            SNT_STATUS_OK(sn_system_soft_point(box, 0, &sp));
            slipped |= sp.slipping;
        }
        double fxy, fpt, fz = sum_fz(box, 0, 8, &fxy, &fpt);
        double vbox = sn_system_u(box)[0], vpl = sn_system_u(plate)[0];
        int slip_now = 0;
        for (int i = 0; i < 8; i++) {
            sn_soft_point sp;
            SNT_STATUS_OK(sn_system_soft_point(box, i, &sp));
            slip_now |= sp.slipping;
        }
        printf("  Expo %g ms: box on a plate moving at %.6f m/s: after 2 s at %.9f m/s (x %.6f m, "
               "plate %.6f m), slipped %d, now %d; its points carry %.9f N (m g %.9f), net "
               "tangential %.2e N\n",
               1e3 * dts[k], vpl, vbox, sn_system_q(box)[0], sn_system_q(plate)[0], slipped,
               slip_now, fz, GRAV, fxy);
        SNT_CHECK(slipped == (k == 1) && !slip_now);
        SNT_NEAR(vbox, vpl, 1e-9);
        SNT_NEAR(vpl, vb, 1e-9);
        SNT_NEAR(fz, GRAV, 1e-9);
        SNT_CHECK(fxy < 2e-11); // docs/expo.md: 6.1e-12 N
        sn_world_destroy(w);
    }
    sn_model_destroy(m);
    return 0;
}


// a box (1 kg) on a turntable (another system: a 10 kg cylinder on a revolute z joint, held at
// 1 rad/s by a damping PD), 0.3 m from the axis, started turning with it: the anchors ride on
// the turning table (its screw motion over each step, its material point's acceleration in the
// LDS's drift), so the box stays at 0.3 m and turns with the table, static friction giving
// m w^2 r = 0.3 N inwards, after 2 s at Expo 10 and 1 ms
static const char* turntable_urdf =
    "<robot name=\"turntable\"><link name=\"world\"/>"
    "<joint name=\"spin\" type=\"continuous\"><parent link=\"world\"/><child link=\"table\"/>"
    "<origin xyz=\"0 0 0.05\"/><axis xyz=\"0 0 1\"/><limit effort=\"1e6\" velocity=\"100\"/>"
    "</joint><link name=\"table\"><inertial><mass value=\"10\"/><inertia ixx=\"0.6\" "
    "ixy=\"0\" ixz=\"0\" iyy=\"0.6\" iyz=\"0\" izz=\"1.25\"/></inertial><collision>"
    "<geometry><cylinder radius=\"0.5\" length=\"0.1\"/></geometry></collision></link></robot>";

static int test_box_on_turntable(void) {
    sn_model* m = tc_load_string(turntable_urdf, 1);
    SNT_CHECK(m != NULL && m->nv == 1);
    const double dts[2] = {0.01, 0.001}, wz = 1.0, r = 0.3;
    for (int k = 0; k < 2; k++) {
        sn_world* w;
        if (geom_world(dts[k], 0, &w)) return 1;
        sn_system *table, *box;
        if (driven_joint(w, m, wz, &table)) return 1;
        const double size[3] = {0.1, 0.1, 0.05};
        SNT_STATUS_OK(sn_world_add_box(w, size, 1.0, &box));
        SNT_STATUS_OK(sn_system_add_soft_geometry_points(box, NULL));
        double q[7] = {r, 0, 0.125 - 1e-9, 1, 0, 0, 0}, u[6] = {0, wz * r, 0, 0, 0, wz};
        SNT_STATUS_OK(sn_system_set_state(box, q, 7, u, 6));
        int slipped = 0, steps = (int)(2.0 / dts[k] + 0.5);
        double rmin = 1, rmax = 0;
        for (int i = 0; i < steps; i++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            const double* qq = sn_system_q(box);
            double rr = sqrt(qq[0] * qq[0] + qq[1] * qq[1]);
            rmin = fmin(rmin, rr), rmax = fmax(rmax, rr);
            for (int j = 0; j < 8; j++) {
                sn_soft_point sp;
                SNT_STATUS_OK(sn_system_soft_point(box, j, &sp));
                slipped |= sp.slipping;
            }
        }
        const double* qq = sn_system_q(box);
        double ang = atan2(qq[1], qq[0]), tab = sn_system_q(table)[0];
        double f[3] = {0, 0, 0};
        for (int j = 0; j < 8; j++) {
            sn_soft_point sp;
            SNT_STATUS_OK(sn_system_soft_point(box, j, &sp));
            for (int e = 0; e < 3; e++)
                f[e] += sp.force[e];
        }
        double fin = -(f[0] * cos(ang) + f[1] * sin(ang)), fat = -f[0] * sin(ang) + f[1] * cos(ang);
        printf("  Expo %g ms: box on a turntable at 1 rad/s, 2 s: radius within [%.9f, %.9f] m "
               "(%.1f), its angle %.9f rad, the table's %.9f; slipped %d; the points carry %.9f N "
               "up, %.6f N inwards (m w^2 r = %.3f), %.2e N along\n",
               1e3 * dts[k], rmin, rmax, r, ang, tab, slipped, f[2], fin, wz * wz * r, fat);
        SNT_CHECK(!slipped);
        // docs/expo.md: radius to 1e-6 m, the table's angle to 2e-7 rad, 0.300064 / 0.300001 N in
        SNT_CHECK(rmin > r - 2e-6 && rmax < r + 2e-6);
        SNT_NEAR(ang, tab, 3e-7);
        SNT_NEAR(fin, k ? 0.300001 : 0.300064, 2e-6);
        SNT_NEAR(f[2], GRAV, 1e-6);
        SNT_NEAR(fin, wz * wz * r, 0.02 * wz * wz * r);
        // the force along the motion at the step's end: second order in dt (the frame and the
        // LDS's drift are frozen over the step while the table turns)
        SNT_CHECK(fabs(fat) < 0.2 * wz * wz * r * (dts[k] / 0.01) * (dts[k] / 0.01));
        sn_world_destroy(w);
    }
    sn_model_destroy(m);
    return 0;
}


// a checkpoint of the turntable world (5 ms; Expo in 2 sub-steps, RK4 in 10) saved at step 30 and
// loaded into a new world repeats steps 30-60 bit for bit: what each point touches, its anchor and
// frame on the table, and the step's impulses (the table's reaction) are state
static int turntable_world(const sn_model* m, sn_soft_integrator it, sn_world** w,
                           sn_system** table, sn_system** box) {
    if (geom_world(0.005, 0, w)) return 1;
    if (driven_joint(*w, m, 1, table)) return 1;
    const double size[3] = {0.1, 0.1, 0.05};
    SNT_STATUS_OK(sn_world_add_box(*w, size, 1.0, box));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(*box, NULL));
    SNT_STATUS_OK(sn_system_set_soft_integrator(*box, it, it == SN_SOFT_RK4 ? 10 : 2));
    double q[7] = {0.3, 0, 0.13, 1, 0, 0, 0}, u[6] = {0, 0.1, 0, 0, 0, 0}; // dropped on it
    SNT_STATUS_OK(sn_system_set_state(*box, q, 7, u, 6));
    return 0;
}

static int test_checkpoint_between_systems(void) {
    sn_model* m = tc_load_string(turntable_urdf, 1);
    SNT_CHECK(m != NULL);
    const sn_soft_integrator its[2] = {SN_SOFT_EXPO, SN_SOFT_RK4};
    for (int k = 0; k < 2; k++) {
        sn_world *wa, *wb;
        sn_system *ta, *ba, *tb, *bb;
        if (turntable_world(m, its[k], &wa, &ta, &ba) || turntable_world(m, its[k], &wb, &tb, &bb))
            return 1;
        size_t n = 0;
        void* buf = NULL;
        for (int i = 0; i < 60; i++) {
            if (i == 30) {
                SNT_CHECK(sn_system_soft_contact_count(ba) > 0);
                SNT_STATUS_OK(sn_world_checkpoint_size(wa, &n));
                buf = malloc(n);
                SNT_STATUS_OK(sn_world_save_state(wa, buf, n, NULL));
            }
            SNT_STATUS_OK(sn_world_integrate(wa));
        }
        SNT_STATUS_OK(sn_world_load_state(wb, buf, n));
        free(buf);
        for (int i = 30; i < 60; i++)
            SNT_STATUS_OK(sn_world_integrate(wb));
        SNT_CHECK(memcmp(sn_system_q(ba), sn_system_q(bb), 7 * sizeof(double)) == 0);
        SNT_CHECK(memcmp(sn_system_u(ba), sn_system_u(bb), 6 * sizeof(double)) == 0);
        SNT_CHECK(memcmp(sn_system_q(ta), sn_system_q(tb), sizeof(double)) == 0);
        SNT_CHECK(memcmp(sn_system_u(ta), sn_system_u(tb), sizeof(double)) == 0);
        uint64_t ha, hb;
        SNT_STATUS_OK(sn_world_state_hash(wa, &ha));
        SNT_STATUS_OK(sn_world_state_hash(wb, &hb));
        printf("  %s: the turntable world resumed at step 30 repeats steps 30-60 bit for bit "
               "(state hashes %016llx %016llx)\n",
               k ? "RK4" : "Expo", (unsigned long long)ha, (unsigned long long)hb);
        SNT_CHECK(ha == hb);
        sn_world_destroy(wa);
        sn_world_destroy(wb);
    }
    sn_model_destroy(m);
    return 0;
}


// two systems meeting in flight (no gravity, no ground): balls of 1 and 2 kg (radius 5 cm) on
// their rolling points head-on, each the other's moving body. Each system's step gives the other
// its points' impulse as a held reaction, the next step (or this one, stepped after it): once the
// contact is over the total momentum is the initial one (Expo and explicit Euler hand over exactly
// the impulses they applied), the balls part, and at dt 1 ms the energy did not grow. At 10 ms,
// about the contact's duration (pi sqrt(m / K) = 10 ms for 1 kg), each ball bounces off the other
// as off a wall moving at its start velocity within one step: the explicit coupling gains energy
// (0.56 J -> 6.5 J), the limit docs/expo.md states
static int test_balls_meet(void) {
    const sn_soft_integrator its[3] = {SN_SOFT_EXPO, SN_SOFT_EXPO, SN_SOFT_EULER};
    const int subs[3] = {1, 1, 8};
    const double dts[3] = {0.01, 0.001, 0.001};
    for (int k = 0; k < 3; k++) {
        sn_world* w;
        if (geom_world(dts[k], 0, &w)) return 1;
        const double g0[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_world_set_gravity(w, g0));
        sn_system *a, *b;
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 1.0, &a));
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 2.0, &b));
        SNT_STATUS_OK(sn_system_add_soft_geometry_points(a, NULL));
        SNT_STATUS_OK(sn_system_add_soft_geometry_points(b, NULL));
        SNT_STATUS_OK(sn_system_set_soft_integrator(a, its[k], subs[k]));
        SNT_STATUS_OK(sn_system_set_soft_integrator(b, its[k], subs[k]));
        double qa[7] = {-0.2, 0, 0, 1, 0, 0, 0}, qb[7] = {0.2, 0, 0, 1, 0, 0, 0};
        double ua[6] = {1, 0, 0, 0, 0, 0}, ub[6] = {-0.25, 0, 0, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(a, qa, 7, ua, 6));
        SNT_STATUS_OK(sn_system_set_state(b, qb, 7, ub, 6));
        double p0 = 1.0 * 1 + 2.0 * -0.25, e0 = 0.5 * 1 + 0.5 * 2 * 0.0625;
        int touched = 0;
        for (int i = 0; i < (int)(1 / dts[k] + 0.5); i++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            touched |= sn_system_soft_contact_count(a) + sn_system_soft_contact_count(b) > 0;
        }
        double va = sn_system_u(a)[0], vb = sn_system_u(b)[0];
        double p1 = 1.0 * va + 2.0 * vb, e1 = 0.5 * va * va + vb * vb;
        printf("  %s, dt %g ms: balls of 1 and 2 kg met at 1.25 m/s: velocities after %.6f, %.6f "
               "m/s; momentum %.15f (was %.15f), energy %.6f J (was %.6f)\n",
               k == 2 ? "explicit Euler" : "Expo", 1e3 * dts[k], va, vb, p1, p0, e1, e0);
        SNT_CHECK(touched);
        SNT_CHECK(sn_system_soft_contact_count(a) + sn_system_soft_contact_count(b) == 0);
        SNT_NEAR(p1, p0, 2e-15); // docs/expo.md: momentum kept to 1e-15
        SNT_CHECK(vb > va);
        if (k == 0)
            SNT_CHECK(e1 > 5 * e0); // the explicit coupling's limit (docs/expo.md)
        else
            SNT_CHECK(e1 <= e0);
        sn_world_destroy(w);
    }
    return 0;
}


// one-sided: a 1 kg ball (its rolling point) flies at 1 m/s into a free 2 kg box without points,
// no gravity: the box moves only by the impulses handed over. The total momentum stays 1 with
// every integrator, in both world orders, also when the contact starts and ends inside one world
// step (sub-steps; the hand-over of a contact that ended within the step: before, the box stayed
// at 0 and the momentum was -0.5 with explicit Euler 10 ms x 2), and when the integrator weighs
// its stage forces (RK4's four, implicit Euler's at the end velocity: before, RK4 handed over the
// sub-step's first force and kept 1.40 at 10 ms, implicit Euler 0.74 at 5 ms)
static int test_ball_into_box(void) {
    const sn_soft_integrator its[6] = {SN_SOFT_EULER, SN_SOFT_EXPO, SN_SOFT_EXPO,
                                       SN_SOFT_RK4,   SN_SOFT_RK4,  SN_SOFT_IMPLICIT_EULER};
    const int subs[6] = {2, 16, 64, 1, 1, 1};
    const double dts[6] = {0.01, 0.05, 0.05, 0.001, 0.01, 0.005};
    const double tol[6] = {1e-12, 1e-12, 1e-12, 1e-12, 1e-12, 1e-6}; // Newton's to 1e-6
    for (int k = 0; k < 6; k++)
        for (int rev = 0; rev < 2; rev++) {
            sn_world* w;
            if (geom_world(dts[k], 0, &w)) return 1;
            const double g0[3] = {0, 0, 0}, bs[3] = {0.2, 0.2, 0.2};
            SNT_STATUS_OK(sn_world_set_gravity(w, g0));
            sn_system *a, *b;
            if (rev) SNT_STATUS_OK(sn_world_add_box(w, bs, 2.0, &b));
            SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 1.0, &a));
            if (!rev) SNT_STATUS_OK(sn_world_add_box(w, bs, 2.0, &b));
            SNT_STATUS_OK(sn_system_add_soft_geometry_points(a, NULL));
            SNT_STATUS_OK(sn_system_set_soft_integrator(a, its[k], subs[k]));
            double qa[7] = {-0.3, 0, 0, 1, 0, 0, 0}, qb[7] = {0.2, 0, 0, 1, 0, 0, 0};
            double ua[6] = {1, 0, 0, 0, 0, 0}, ub[6] = {0};
            SNT_STATUS_OK(sn_system_set_state(a, qa, 7, ua, 6));
            SNT_STATUS_OK(sn_system_set_state(b, qb, 7, ub, 6));
            for (int i = 0; i < (int)(1 / dts[k] + 0.5); i++)
                SNT_STATUS_OK(sn_world_integrate(w));
            double va = sn_system_u(a)[0], vb = sn_system_u(b)[0];
            printf("  %s x %d at %g ms%s: ball %.6f, box %.6f m/s, momentum %.12f (was 1)\n",
                   NAMES[its[k]], subs[k], 1e3 * dts[k], rev ? ", box stepped first" : "", va, vb,
                   va + 2 * vb);
            SNT_CHECK(vb > 0.3); // the box was pushed
            SNT_CHECK(vb >= va); // and is ahead of the ball
            SNT_NEAR(va + 2 * vb, 1.0, tol[k]);
            sn_world_destroy(w);
        }
    return 0;
}


// self-contact: one system of two bodies on prismatic z joints from the world (siblings, no
// joint between them): a plate (4 kg, 0.4 x 0.4 x 0.1) on the ground and a block (1 kg, 0.1 x 0.1
// x 0.05) on the plate, each on its 8 corner points, with self-collision on: the relative
// Jacobian J_a - J_b puts the block's springs into the one LDS. At rest: the block's points carry
// m1 g, the plate's (m1 + m2) g; with self-collision off the block falls through the plate
static const char* sibling_urdf =
    "<robot name=\"siblings\"><link name=\"world\"/>"
    "<joint name=\"lift_plate\" type=\"prismatic\"><parent link=\"world\"/><child "
    "link=\"plate\"/><axis xyz=\"0 0 1\"/><limit lower=\"-10\" upper=\"10\" effort=\"0\" "
    "velocity=\"100\"/></joint>"
    "<link name=\"plate\"><inertial><mass value=\"4\"/><inertia ixx=\"0.06\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"0.06\" iyz=\"0\" izz=\"0.1\"/></inertial><collision><geometry><box "
    "size=\"0.4 0.4 0.1\"/></geometry></collision></link>"
    "<joint name=\"lift_block\" type=\"prismatic\"><parent link=\"world\"/><child "
    "link=\"block\"/><origin xyz=\"0.03 -0.02 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-10\" "
    "upper=\"10\" effort=\"0\" velocity=\"100\"/></joint>"
    "<link name=\"block\"><inertial><mass value=\"1\"/><inertia ixx=\"0.001\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"0.001\" iyz=\"0\" izz=\"0.001\"/></inertial><collision><geometry><box "
    "size=\"0.1 0.1 0.05\"/></geometry></collision></link></robot>";

static int test_self_contact(void) {
    sn_model* m = tc_load_string(sibling_urdf, 1);
    SNT_CHECK(m != NULL && m->nv == 2);
    const double dts[2] = {0.01, 0.001};
    for (int self = 1; self >= 0; self--)
        for (int k = 0; k < 2; k++) {
            sn_world* w;
            if (geom_world(dts[k], 1, &w)) return 1;
            sn_system* s;
            SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
            sn_system_set_self_collision(s, self);
            int n = 0;
            SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, &n));
            SNT_CHECK(n == 16);
            double q[2] = {0.05 - 1e-9, 0.125 - 2e-9}, u[2] = {0, 0};
            SNT_STATUS_OK(sn_system_set_state(s, q, 2, u, 2));
            int steps = (int)(3.0 / dts[k] + 0.5);
            for (int i = 0; i < steps; i++)
                SNT_STATUS_OK(sn_world_integrate(w));
            // the points in geometry order: the plate's 8, then the block's 8
            double fxy1, fxy2, fpt1, fpt2;
            double f2 = sum_fz(s, 0, 8, &fxy2, &fpt2), f1 = sum_fz(s, 8, 16, &fxy1, &fpt1);
            const double* qq = sn_system_q(s);
            const double* uu = sn_system_u(s);
            printf("  self-collision %s, Expo %g ms: the block's points carry %.9f N, the plate's "
                   "%.9f N; block at z %.6f m, speeds %.2e %.2e\n",
                   self ? "on" : "off", 1e3 * dts[k], f1, f2, qq[1], uu[0], uu[1]);
            if (self) {
                SNT_NEAR(f1, GRAV, 1e-9);
                SNT_NEAR(f2, 5 * GRAV, 1e-9);
                SNT_CHECK(fpt1 < 1e-12 && fpt2 < 1e-12);
                SNT_CHECK(fabs(uu[0]) < 1e-9 && fabs(uu[1]) < 1e-9);
                SNT_NEAR(qq[1] - qq[0], 0.075 - 1e-9 - GRAV / 4e5, 1e-12);
            } else {
                SNT_CHECK(qq[1] < 0.025); // through the plate, onto the ground
            }
            sn_world_destroy(w);
        }
    sn_model_destroy(m);
    return 0;
}


// self-contact with a rotation in the relative Jacobian: a 1 kg arm (uniform, 0.4 m, on a hinge
// 0.3 m up) rests its tip point on a 4 kg plate (a sibling on a prismatic z joint) standing on the
// ground on its corners, mu = 0. The tip carries m g x_c / x_tip = m g / 2 (the hinge the rest),
// the ground the plate's weight and that half (Expo at 1 ms: at 10 ms a frictionless tip fails on
// the plain ground as well, the arm spinning up to 78 rad/s: Expo's LDS holds the tangential
// springs the cone then removes; docs/expo.md)
static const char* arm_urdf =
    "<robot name=\"arm_on_plate\"><link name=\"world\"/>"
    "<joint name=\"lift\" type=\"prismatic\"><parent link=\"world\"/><child link=\"plate\"/>"
    "<axis xyz=\"0 0 1\"/><limit lower=\"-10\" upper=\"10\" effort=\"0\" "
    "velocity=\"100\"/></joint>"
    "<link name=\"plate\"><inertial><mass value=\"4\"/><inertia ixx=\"0.3\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"0.3\" iyz=\"0\" izz=\"0.6\"/></inertial><collision><geometry><box "
    "size=\"1 1 0.1\"/></geometry></collision></link>"
    "<joint name=\"hinge\" type=\"revolute\"><parent link=\"world\"/><child link=\"arm\"/>"
    "<origin xyz=\"0 0 0.3\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\" "
    "effort=\"0\" velocity=\"100\"/></joint>"
    "<link name=\"arm\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1\"/><inertia "
    "ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"0.013333\" iyz=\"0\" izz=\"0.013333\"/>"
    "</inertial></link></robot>";

static int test_arm_on_plate(void) {
    sn_model* m = tc_load_string(arm_urdf, 1);
    SNT_CHECK(m != NULL && m->nv == 2 && m->nbody == 3);
    sn_world* w;
    if (geom_world(0.001, 0, &w)) return 1;
    SNT_STATUS_OK(sn_world_set_ground(w, 1, -0.05));
    sn_soft_params P = sn_soft_params_default();
    P.mu = 0;
    SNT_STATUS_OK(sn_world_set_soft_params(w, &P));
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    sn_system_set_self_collision(s, 1);
    int n = 0;
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, &n));
    SNT_CHECK(n == 8);
    const double tip[3] = {0.4, 0, 0};
    int arm = sn_model_find(m, SN_OBJ_BODY, "arm");
    SNT_CHECK(arm > 0);
    SNT_STATUS_OK(sn_system_add_soft_point(s, arm, tip, NULL));
    double th = asin(0.25 / 0.4);
    double q[2] = {-1e-9, th + 1e-9}, u[2] = {0, 0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 2, u, 2));
    for (int i = 0; i < 3000; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double fxy, fpt, fg = sum_fz(s, 0, 8, &fxy, &fpt);
    sn_soft_point sp;
    SNT_STATUS_OK(sn_system_soft_point(s, 8, &sp));
    const double* uu = sn_system_u(s);
    printf("  arm on a plate (self-contact, Expo 1 ms, 3 s): tip force %.9f N (m g / 2 = %.9f), "
           "ground %.9f N (%.9f), tip tangential %.2e N, speeds %.2e %.2e\n",
           sp.force[2], GRAV / 2, fg, 4.5 * GRAV, fabs(sp.force[0]), uu[0], uu[1]);
    SNT_CHECK(sp.active);
    SNT_NEAR(sp.force[2], GRAV / 2, 1e-9);
    SNT_NEAR(fg, 4.5 * GRAV, 1e-9);
    SNT_CHECK(fabs(sp.force[0]) < 1e-12 && fabs(uu[0]) < 1e-9 && fabs(uu[1]) < 1e-9);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


SNT_SUITE(SNT_TEST(test_flat_field_is_ground), SNT_TEST(test_slope_sticks),
          SNT_TEST(test_slope_slides), SNT_TEST(test_slope_bounce),
          SNT_TEST(test_ball_rolls_down_slope), SNT_TEST(test_box_on_static_box),
          SNT_TEST(test_filter_passes_through), SNT_TEST(test_ball_on_static_sphere),
          SNT_TEST(test_point_on_static_curves), SNT_TEST(test_point_on_static_convex),
          SNT_TEST(test_box_on_free_box), SNT_TEST(test_block_rides_plate),
          SNT_TEST(test_box_on_turntable), SNT_TEST(test_checkpoint_between_systems),
          SNT_TEST(test_balls_meet), SNT_TEST(test_ball_into_box), SNT_TEST(test_self_contact),
          SNT_TEST(test_arm_on_plate))
