// SPDX-License-Identifier: Apache-2.0
// test_expo_slip.c: Expo's slipping contacts inside the sub-step (issue 13; docs/expo.md
// "Slipping contacts inside the sub-step"): at dt 10 ms in one sub-step a box sliding on the
// ground decelerates at mu g and stops where v0^2 / (2 mu g) says, its kinetic energy never
// rising and without spin (the paper's variant gains energy there); a frictionless hinged tip
// resting on the ground keeps its energy; a block on an incline steeper than the cone slides at
// g (sin a - mu cos a); a box put at rest on a moving plate comes to its speed; a cube dropped
// spinning comes to rest; sticking cases (a
// box at rest, Solo12 standing) give the paper variant's numbers; the setting is refused outside 0,
// 1 and a checkpoint compares it.
#include "common.h"
#include "harness/snt.h"
#include "soft_setup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAV 9.81


// a flat 1 kg box (0.3 x 0.3 x 0.1 m, on its 8 corners) put on the ground sliding along x at v0
// (its bottom corners 1 nm in), Expo at dt in one sub-step, slip on or off
static int sliding_box(double dt, int slip, double v0, sn_world** w, sn_system** s) {
    if (soft_world(dt, w)) return 1;
    const double size[3] = {0.3, 0.3, 0.1};
    SNT_STATUS_OK(sn_world_add_box(*w, size, 1.0, s));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(*s, NULL));
    SNT_STATUS_OK(sn_system_set_soft_integrator(*s, SN_SOFT_EXPO, 1));
    SNT_STATUS_OK(sn_system_set_expo_slip(*s, slip));
    SNT_CHECK(sn_system_expo_slip(*s) == slip);
    double q[7] = {0, 0, 0.05 - 1e-9, 1, 0, 0, 0}, u[6] = {v0, 0, 0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(*s, q, 7, u, 6));
    return 0;
}


// the box at 10 ms: v(t) = v0 - mu g t until it stops at v0^2 / (2 mu g), the kinetic energy
// never rising, |omega| small; the paper's variant (slip off) is shown to gain energy there. At
// 1 ms (both variants printed) it stops within 1 % of v0^2 / (2 mu g) with little spin
static int test_box_slides_to_rest(void) {
    const double v0 = 0.2, mu = 1.0;
    for (int run = 0; run < 4; run++) {
        int slip = run != 1 && run != 3;
        double dt = run >= 2 ? 0.001 : 0.01;
        sn_world* w;
        sn_system* s;
        if (sliding_box(dt, slip, v0, &w, &s)) return 1;
        double ke = 0.5 * v0 * v0, rises = 0, wmax = 0, verr = 0;
        int stop = -1;
        int steps = (int)(0.5 / dt + 0.5);
        for (int k = 0; k < steps; k++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            const double* u = sn_system_u(s);
            double e = sn_system_kinetic_energy(s);
            rises = fmax(rises, e - ke);
            ke = e;
            wmax = fmax(wmax, sqrt(u[3] * u[3] + u[4] * u[4] + u[5] * u[5]));
            double want = v0 - mu * GRAV * dt * (k + 1);
            if (want > 0) verr = fmax(verr, fabs(u[0] - want));
            if (stop < 0 && fabs(u[0]) < 1e-3) stop = k + 1;
        }
        double x = sn_system_q(s)[0], xs = v0 * v0 / (2 * mu * GRAV);
        printf("  box sliding at %.1f m/s, Expo 1 x %g ms, slip %s: v off v0 - mu g t by %.3e "
               "m/s while it slides, below 1 mm/s after %d steps, stopped at x %.6f m (v0^2 / "
               "2 mu g = %.6f), kinetic energy rose by at most %.3e J, |omega| <= %.3e rad/s\n",
               v0, dt * 1e3, slip ? "on" : "off", verr, stop, x, xs, rises, wmax);
        if (slip && dt > 0.005) {
            // docs/expo.md: within 1.1e-4 m/s, stops after 3 steps at 2.035 mm, |omega| 3.3e-4
            SNT_CHECK(verr < 2e-4);           // 0.2 % of the speed mu g dt lost per step
            SNT_CHECK(stop > 0 && stop <= 3); // it stops at 20.4 ms
            SNT_NEAR(x, 2.035e-3, 2e-6);      // where it stops (2.039 mm the closed form)
            SNT_CHECK(rises <= 1e-15);        // the kinetic energy never rises (every step)
            SNT_CHECK(wmax < 5e-4);           // no spin
            SNT_CHECK(fabs(sn_system_u(s)[0]) < 1e-9); // at rest at the end
        } else if (slip) { // 1 ms: where it stops, little spin (the paper's variant: 4.6 % and
                           // 0.40 rad/s here)
            SNT_NEAR(x, xs, 0.01 * xs);
            SNT_CHECK(wmax < 0.1);
        } else if (dt > 0.005) {
            SNT_CHECK(rises > 1e-3); // the defect: the paper's variant gains energy sliding
        }
        sn_world_destroy(w);
    }
    return 0;
}


// a 1 kg arm (0.4 m, hinged 0.3 m up) resting its tip on the ground (z = 0.05) with mu = 0, Expo
// at 10 ms: the energy E = T + V + K c^2 / 2 of the arm (c the tip spring's compression) never
// exceeds its start (the paper's variant spins the arm up), the tip carries m g / 2 at the end
static const char* tip_urdf =
    "<robot name=\"tip\"><link name=\"world\"/>"
    "<joint name=\"hinge\" type=\"revolute\"><parent link=\"world\"/><child link=\"arm\"/>"
    "<origin xyz=\"0 0 0.3\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\" "
    "effort=\"0\" velocity=\"100\"/></joint>"
    "<link name=\"arm\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1\"/><inertia "
    "ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"0.013333\" iyz=\"0\" izz=\"0.013333\"/>"
    "</inertial></link></robot>";

static int tip_run(int slip, double* erise, double* umax, double* ftip) {
    sn_model* m = tc_load_string(tip_urdf, 1);
    SNT_CHECK(m != NULL && m->nv == 1);
    sn_world* w;
    if (soft_world(0.01, &w)) return 1;
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0.05));
    sn_soft_params P = sn_soft_params_default();
    P.mu = 0;
    SNT_STATUS_OK(sn_world_set_soft_params(w, &P));
    sn_system* s;
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    SNT_STATUS_OK(sn_system_set_expo_slip(s, slip));
    const double tip[3] = {0.4, 0, 0};
    SNT_STATUS_OK(sn_system_add_soft_point(s, 1, tip, NULL));
    double th = asin(0.25 / 0.4), q = th + 1e-9, u = 0;
    SNT_STATUS_OK(sn_system_set_state(s, &q, 1, &u, 1));
    // V = m g z_c, z_c = 0.3 - 0.2 sin(q) (the hinge turns the arm down for q > 0); at rest at
    // the start, the spring unloaded
    double e0 = GRAV * (0.3 - 0.2 * sin(q)), rise = -1, um = 0;
    sn_soft_point sp;
    for (int k = 0; k < 300; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        double qq = sn_system_q(s)[0], uu = sn_system_u(s)[0];
        SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
        double c = sp.active ? fmax(sp.anchor[2] - sp.position[2], 0) : 0;
        double e = sn_system_kinetic_energy(s) + GRAV * (0.3 - 0.2 * sin(qq)) + 0.5e5 * c * c;
        rise = fmax(rise, e - e0);
        um = fmax(um, fabs(uu));
    }
    SNT_STATUS_OK(sn_system_soft_point(s, 0, &sp));
    *erise = rise, *umax = um, *ftip = sp.active ? sp.force[2] : 0;
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_frictionless_tip(void) {
    double rise1, u1, f1, rise0, u0, f0;
    if (tip_run(1, &rise1, &u1, &f1) || tip_run(0, &rise0, &u0, &f0)) return 1;
    printf(
        "  frictionless tip, Expo 1 x 10 ms, 3 s: slip on: energy at most %.3e J from its start, "
        "|u| <= %.3e rad/s, tip force %.9f N (m g / 2 = %.9f); slip off: %.3e J, %.3e rad/s\n",
        rise1, u1, f1, GRAV / 2, rise0, u0);
    SNT_CHECK(rise1 < 1e-9 && u1 < 1e-3);
    SNT_NEAR(f1, GRAV / 2, 1e-9);
    SNT_CHECK(u0 > 1); // the defect: the paper's variant spins the arm up
    return 0;
}


// a block on an incline steeper than the cone (tan a = 1.5, mu 1) at 10 ms: it slides at
// g (sin a - mu cos a) (test_soft.c's set-up, there at 1 ms)
static int test_incline_slides_10ms(void) {
    double a = atan(1.5), x1, v1, x2, v2, st, want = GRAV * (sin(a) - cos(a));
    int slip;
    if (incline(a, SN_SOFT_EXPO, 1, 0.01, 1.0, &x1, &v1, &st, &slip, NULL)) return 1;
    if (incline(a, SN_SOFT_EXPO, 1, 0.01, 2.0, &x2, &v2, &st, &slip, NULL)) return 1;
    printf("  tan a = 1.5, mu = 1, Expo 1 x 10 ms: acceleration %.9f m/s^2 between 1 and 2 s, "
           "g (sin a - mu cos a) = %.9f\n",
           v2 - v1, want);
    SNT_CHECK(slip == 1);
    SNT_NEAR(v2 - v1, want, 1e-9); // docs/expo.md: to 9 digits
    return 0;
}


// a slipping start on a moving body: a 1 kg box put at rest on a 10 kg plate that a damping PD
// (kd 1e4) holds at 0.2 m/s along x (another system, prismatic), Expo at 10 ms: after 2 s the box
// moves with the plate and sticks (the paper's variant: reported)
static const char* belt_urdf =
    "<robot name=\"belt\"><link name=\"world\"/>"
    "<joint name=\"x\" type=\"prismatic\"><parent link=\"world\"/><child link=\"plate\"/>"
    "<origin xyz=\"0 0 0.05\"/><axis xyz=\"1 0 0\"/><limit lower=\"-50\" upper=\"50\" "
    "effort=\"1e6\" velocity=\"10\"/></joint>"
    "<link name=\"plate\"><inertial><mass value=\"10\"/><inertia ixx=\"0.3\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"1.4\" iyz=\"0\" izz=\"1.7\"/></inertial><collision><geometry><box "
    "size=\"3 0.5 0.1\"/></geometry></collision></link></robot>";

static int belt_run(int slip, double* vbox, double* vplate, int* slipping, sn_status* last) {
    sn_model* m = tc_load_string(belt_urdf, 1);
    SNT_CHECK(m != NULL && m->nv == 1);
    sn_world* w;
    if (soft_world(0.01, &w)) return 1;
    sn_system *plate, *box;
    if (driven_joint(w, m, 0.2, &plate)) return 1;
    const double size[3] = {0.1, 0.1, 0.05};
    SNT_STATUS_OK(sn_world_add_box(w, size, 1.0, &box));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(box, NULL));
    SNT_STATUS_OK(sn_system_set_expo_slip(box, slip));
    double q[7] = {0, 0, 0.125 - 1e-9, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(box, q, 7, u, 6));
    *last = SN_OK;
    for (int i = 0; i < 200 && *last == SN_OK; i++)
        *last = sn_world_integrate(w);
    *vbox = sn_system_u(box)[0], *vplate = sn_system_u(plate)[0];
    *slipping = 0;
    for (int i = 0; i < 8; i++) {
        sn_soft_point sp;
        SNT_STATUS_OK(sn_system_soft_point(box, i, &sp));
        *slipping |= sp.slipping;
    }
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_slipping_start_on_belt(void) {
    double vb1, vp1, vb0, vp0;
    int sl1, sl0;
    sn_status st1, st0;
    if (belt_run(1, &vb1, &vp1, &sl1, &st1) || belt_run(0, &vb0, &vp0, &sl0, &st0)) return 1;
    printf("  box put at rest on a plate at 0.2 m/s, Expo 1 x 10 ms, 2 s: slip on: box %.9f m/s, "
           "plate %.9f m/s, slipping %d; slip off: the steps %s\n",
           vb1, vp1, sl1, st0 == SN_OK ? "went on" : "failed");
    SNT_CHECK(st1 == SN_OK);
    SNT_NEAR(vb1, vp1, 1e-6);
    SNT_CHECK(!sl1);
    // the paper's variant is reported, not asserted: it failed on the branch that wrote this test;
    // with the modal path and the impulses handed between systems as applied, it goes on
    printf("  slip off: box %.9f m/s, plate %.9f m/s\n", vb0, vp0);
    return 0;
}


// a 1 kg cube (0.2 m, 8 corners; mu 1: at its tipping limit while sliding) dropped spinning from
// 2 cm at 0.5 m/s and 1 rad/s, Expo at 10 ms: its landing at 0.6 m/s sets anchors millimetres
// deep, points that rise above them keep their slide's stretch (no force, A.9); bounded before
// each sub-step, the cube comes to rest on 4 corners within 0.3 s (the paper's variant leaves
// the ground spinning)
static int cube_run(int slip, double* ke_end, double* wmax, int* contacts) {
    sn_world* w;
    sn_system* s;
    if (soft_world(0.01, &w)) return 1;
    const double size[3] = {0.2, 0.2, 0.2};
    SNT_STATUS_OK(sn_world_add_box(w, size, 1.0, &s));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(s, NULL));
    SNT_STATUS_OK(sn_system_set_expo_slip(s, slip));
    double q[7] = {0, 0, 0.12, 1, 0, 0, 0}, u[6] = {0.5, 0, 0, 0, 0, 1};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    *wmax = 0;
    for (int k = 0; k < 100; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        const double* uu = sn_system_u(s);
        if (k >= 30) *wmax = fmax(*wmax, sqrt(uu[3] * uu[3] + uu[4] * uu[4] + uu[5] * uu[5]));
    }
    *ke_end = sn_system_kinetic_energy(s);
    *contacts = sn_system_soft_contact_count(s);
    sn_world_destroy(w);
    return 0;
}

static int test_tumbling_cube_rests(void) {
    double ke1, w1, ke0, w0;
    int n1, n0;
    if (cube_run(1, &ke1, &w1, &n1) || cube_run(0, &ke0, &w0, &n0)) return 1;
    printf("  0.2 m cube dropped spinning, Expo 1 x 10 ms, 1 s: slip on: kinetic energy %.3e J at "
           "the end, |omega| <= %.3e rad/s after 0.3 s, %d corners on; slip off: %.3e J, %.3e "
           "rad/s, %d corners\n",
           ke1, w1, n1, ke0, w0, n0);
    SNT_CHECK(ke1 < 1e-30 && w1 < 1e-14 && n1 == 4); // docs/expo.md: 1.8e-32 J, 1.5e-15 rad/s
    SNT_CHECK(w0 > 1);                               // the paper's variant spins
    return 0;
}


// q and u of two systems equal bit for bit
static int same_state(const sn_system* a, const sn_system* b, const sn_model* m, double* diff) {
    const double *qa = sn_system_q(a), *qb = sn_system_q(b), *ua = sn_system_u(a),
                 *ub = sn_system_u(b);
    double d = 0;
    for (int i = 0; i < m->nq; i++)
        d = fmax(d, fabs(qa[i] - qb[i]));
    for (int i = 0; i < m->nv; i++)
        d = fmax(d, fabs(ua[i] - ub[i]));
    *diff = d;
    return d == 0;
}


// sticking contacts never slip: a box put at rest on the ground and Solo12 standing (test_soft.c's
// pose and PD) step the same with slip on and off, bit for bit
static int test_sticking_unchanged(void) {
    sn_world *w1, *w0;
    sn_system *s1, *s0;
    if (sliding_box(0.01, 1, 0.0, &w1, &s1) || sliding_box(0.01, 0, 0.0, &w0, &s0)) return 1;
    for (int k = 0; k < 300; k++) {
        SNT_STATUS_OK(sn_world_integrate(w1));
        SNT_STATUS_OK(sn_world_integrate(w0));
    }
    double d;
    int same = same_state(s1, s0, sn_system_model(s1), &d);
    printf("  box at rest, 3 s at 10 ms: slip on and off differ by %.3e\n", d);
    SNT_CHECK(same);
    sn_world_destroy(w1);
    sn_world_destroy(w0);

    const char* path = tc_model_path("erd_solo/robots/solo12_f15b08f_2020-04-28.urdf");
    if (!path) return SNT_SKIP;
    sn_model* m = tc_load_file(path, 1);
    SNT_CHECK(m && m->nv == 18);
    sn_world* w[2];
    sn_system* s[2];
    const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
    for (int v = 0; v < 2; v++) {
        if (soft_world(0.01, &w[v])) return 1;
        SNT_STATUS_OK(sn_world_add_system(w[v], m, &s[v], NULL));
        SNT_STATUS_OK(sn_system_set_soft_integrator(s[v], SN_SOFT_EXPO, 1));
        SNT_STATUS_OK(sn_system_set_expo_slip(s[v], 1 - v));
        const double zero[3] = {0, 0, 0};
        for (int k = 0; k < 4; k++)
            SNT_STATUS_OK(sn_system_add_soft_point_frame(
                s[v], sn_model_find(m, SN_OBJ_FRAME, feet[k]), zero, NULL));
        double q[19] = {0, 0,   0.3,  1, 0,    0,   0, 0,    0.8, -1.6,
                        0, 0.8, -1.6, 0, -0.8, 1.6, 0, -0.8, 1.6};
        double u[18] = {0};
        SNT_STATUS_OK(sn_system_set_state(s[v], q, 19, u, 18));
        sn_data* d = sn_system_data(s[v]);
        sn_fk(m, d);
        double low = 1e9;
        for (int k = 0; k < 4; k++) {
            double p[3], R[9];
            sn_frame_pose(m, d, sn_model_find(m, SN_OBJ_FRAME, feet[k]), p, R);
            low = fmin(low, p[2]);
        }
        q[2] -= low + 1e-9;
        SNT_STATUS_OK(sn_system_set_state(s[v], q, 19, u, 18));
        double kp[18] = {0}, kd[18] = {0};
        for (int i = 6; i < 18; i++)
            kp[i] = 5, kd[i] = 0.2;
        SNT_STATUS_OK(sn_system_set_pd_gains(s[v], kp, kd, 18));
        SNT_STATUS_OK(sn_system_set_pd_target(s[v], q, 19, u, 18));
    }
    int slipped = 0;
    for (int k = 0; k < 300; k++) {
        SNT_STATUS_OK(sn_world_integrate(w[0]));
        SNT_STATUS_OK(sn_world_integrate(w[1]));
        for (int i = 0; i < 4; i++) {
            sn_soft_point sp;
            SNT_STATUS_OK(sn_system_soft_point(s[0], i, &sp));
            slipped |= sp.slipping;
        }
    }
    same = same_state(s[0], s[1], m, &d);
    printf("  Solo12 standing, 3 s at 10 ms: slip on and off differ by %.3e (a foot slipped: %d)\n",
           d, slipped);
    SNT_CHECK(!slipped);
    SNT_CHECK(same);
    sn_world_destroy(w[0]);
    sn_world_destroy(w[1]);
    sn_model_destroy(m);
    return 0;
}


// the setting: 0 or 1 only (a message, nothing changed); a checkpoint compares it as
// configuration (a state saved with it off does not load where it is on), and a run resumed
// from a checkpoint of a sliding box repeats bit for bit
static int test_setting_and_checkpoint(void) {
    sn_world* w;
    sn_system* s;
    if (sliding_box(0.01, 1, 0.2, &w, &s)) return 1;
    SNT_CHECK(sn_system_set_expo_slip(s, 2) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(w), "Expo slip 2") != NULL);
    SNT_CHECK(sn_system_expo_slip(s) == 1);
    SNT_CHECK(sn_system_set_expo_slip(NULL, 1) == SN_ERR_ARG);
    static unsigned char buf[1 << 16];
    size_t n = 0;
    SNT_STATUS_OK(sn_world_integrate(w));
    SNT_STATUS_OK(sn_world_save_state(w, buf, sizeof buf, &n));
    for (int k = 0; k < 5; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double q5[7];
    memcpy(q5, sn_system_q(s), sizeof q5);
    SNT_STATUS_OK(sn_world_load_state(w, buf, n));
    for (int k = 0; k < 5; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK(memcmp(q5, sn_system_q(s), sizeof q5) == 0);
    sn_world* w0;
    sn_system* s0;
    if (sliding_box(0.01, 0, 0.2, &w0, &s0)) return 1;
    sn_status st = sn_world_load_state(w0, buf, n);
    printf("  a checkpoint with slip on loaded where it is off: %s\n", sn_world_last_error(w0));
    SNT_CHECK(st != SN_OK);
    SNT_CHECK(strstr(sn_world_last_error(w0), "slipping contacts") != NULL);
    sn_world_destroy(w);
    sn_world_destroy(w0);
    return 0;
}


SNT_SUITE(SNT_TEST(test_box_slides_to_rest), SNT_TEST(test_frictionless_tip),
          SNT_TEST(test_incline_slides_10ms), SNT_TEST(test_sticking_unchanged),
          SNT_TEST(test_slipping_start_on_belt), SNT_TEST(test_tumbling_cube_rests),
          SNT_TEST(test_setting_and_checkpoint))
