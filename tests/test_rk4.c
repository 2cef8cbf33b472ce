// SPDX-License-Identifier: Apache-2.0
// test_rk4.c: RUNGE_KUTTA_4 with contacts, joint limits and joint friction (the contact solver's
// velocity change: its impact share at the step's start as seed 000 says, the held load as a
// constant acceleration over the four stages, which run without contacts) and its
// order on rotations (the stages combined on the rotation group, docs/step.md): a box resting
// and sliding, a pendulum on its limit, a friction-held arm, RaiSim's ant MJCF on the floor, and
// the observed order of a free body and a heavy top on a spherical joint. Every test prints the
// numbers it measured.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81

static const char* box_urdf =
    "<robot name=\"box\"><link name=\"box\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.0066667\" ixy=\"0\" ixz=\"0\" iyy=\"0.0066667\" iyz=\"0\" izz=\"0.0066667\"/>"
    "</inertial><collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></link>"
    "</robot>";

typedef struct scene {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} scene;

static int scene_open(scene* sc, sn_model* m, double dt, int ground) {
    memset(sc, 0, sizeof *sc);
    sc->m = m;
    SNT_CHECK(m != NULL);
    SNT_STATUS_OK(tc_world_open(sc->m, dt, &sc->w, &sc->s));
    if (ground) SNT_STATUS_OK(sn_world_set_ground(sc->w, 1, 0));
    SNT_STATUS_OK(sn_system_set_scheme(sc->s, SN_SCHEME_RK4));
    return 0;
}

static void scene_close(scene* sc) {
    sn_world_destroy(sc->w);
    sn_model_destroy(sc->m);
}


// a box put on the ground at rest stays there: 1 s at dt 1 ms, at z = 0.1 to 1e-9 (the contact's
// change enters the stages as the constant force that holds the box; applied whole at the start
// it made the box settle 0.5 g dt^2 = 4.9 um above; before contacts in RK4: z = -4.8 m)
static int test_box_rests(void) {
    scene sc;
    SNT_CHECK(scene_open(&sc, tc_load_string(box_urdf, 0), 0.001, 1) == 0);
    double q[7] = {0, 0, 0.1, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
    double zmin = 1;
    for (int k = 0; k < 1000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        zmin = fmin(zmin, sn_system_q(sc.s)[2]);
    }
    const sn_real* qe = sn_system_q(sc.s);
    printf("  RK4 box at rest: z = %.9f m after 1 s (lowest %.9f), x %.2e, y %.2e; scheme used "
           "%d, %d contacts\n",
           qe[2], zmin, qe[0], qe[1], (int)sn_system_scheme_used(sc.s),
           sn_system_contact_count(sc.s));
    SNT_CHECK(sn_system_scheme_used(sc.s) == SN_SCHEME_RK4);
    SNT_NEAR(qe[2], 0.1, 1e-9);
    SNT_CHECK(zmin > 0.1 - 1e-9);
    SNT_NEAR(qe[0], 0, 1e-9);
    SNT_NEAR(qe[1], 0, 1e-9);
    scene_close(&sc);
    return 0;
}


// C1 with RK4: 3 m/s, mu = 0.5: stops after v0^2 / (2 mu g) = 0.917431 m in 0.611621 s (the
// tolerances of test_contact's SEMI_IMPLICIT case)
static int test_box_slides_to_a_stop(void) {
    scene sc;
    SNT_CHECK(scene_open(&sc, tc_load_string(box_urdf, 0), 0.001, 1) == 0);
    SNT_STATUS_OK(sn_world_set_material(sc.w, 0.5, 0, 0));
    double q[7] = {0, 0, 0.1, 1, 0, 0, 0}, u[6] = {3, 0, 0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
    double t_stop = -1;
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        if (t_stop < 0 && sn_system_u(sc.s)[0] < 1e-9) t_stop = sn_world_time(sc.w);
    }
    double x = sn_system_q(sc.s)[0], z = sn_system_q(sc.s)[2];
    printf("  RK4: stopped after %.6f m at t = %.4f s; z = %.6f m\n", x, t_stop, z);
    // docs/step.md: stops after 0.917431 m (v0^2 / (2 mu g) to its sixth digit) at 0.6120 s
    SNT_NEAR(x, 0.917431, 3e-6);
    SNT_NEAR(t_stop, 0.611621, 0.002);
    SNT_NEAR(t_stop, 0.6120, 3e-4);
    SNT_NEAR(z, 0.1, 1e-3);
    double x1 = x;
    for (int k = 0; k < 1000; k++)
        SNT_STATUS_OK(sn_world_integrate(sc.w));
    SNT_NEAR(sn_system_q(sc.s)[0], x1, 1e-9);
    scene_close(&sc);
    return 0;
}


// a 2 kg arm (link 0.5 m, I = 0.51 kg m^2 about the hinge, gravity torque up to 9.81 N m) on a
// hinge about y at q0
static sn_model* arm(const char* com, double lower, double upper, double friction) {
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<robot name=\"j\"><link name=\"world\"/><link name=\"arm\"><inertial>"
             "<origin xyz=\"%s\"/><mass value=\"2\"/><inertia ixx=\"0.01\" ixy=\"0\" "
             "ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
             "<joint name=\"j\" type=\"revolute\"><parent link=\"world\"/><child link=\"arm\"/>"
             "<axis xyz=\"0 1 0\"/><limit lower=\"%g\" upper=\"%g\" effort=\"100\" "
             "velocity=\"100\"/><dynamics friction=\"%g\"/></joint></robot>",
             com, lower, upper, friction);
    return tc_load_string(xml, 0);
}


// a pendulum released horizontally swings onto its lower limit -0.5 rad and is held there; a
// joint friction of 12 N m (> 9.81 N m) holds the arm (before: RK4 ignored both: the arm fell
// through its limit and slid through the friction). The friction row stops u* = u + dt a; its
// change -dt a enters the stages as a constant force, so the arm stays at q = 0 to 1e-9 (when the
// change was applied at the step's start, the stages started from u - dt a and the arm crept at
// dt a / 2 = 9.6e-3 rad/s against gravity, a = 9.81 / 0.51 rad/s^2; docs/step.md)
static int test_limit_and_friction(void) {
    scene sc;
    SNT_CHECK(scene_open(&sc, arm("-0.5 0 0", -0.5, 0.5, 0), 0.001, 0) == 0);
    double q0 = 0, u0 = 0, qmin = 0;
    SNT_STATUS_OK(sn_system_set_state(sc.s, &q0, 1, &u0, 1));
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        qmin = fmin(qmin, sn_system_q(sc.s)[0]);
    }
    double q = sn_system_q(sc.s)[0], u = sn_system_u(sc.s)[0];
    printf("  RK4 limit: q = %.6f rad after 2 s (lowest %.6f), u = %.2e rad/s\n", q, qmin, u);
    SNT_NEAR(q, -0.5, 1e-6);
    // the impact at ~2.3 rad/s is applied at the step's start: 1.4e-4 rad past the limit at most
    SNT_CHECK(qmin > -0.5 - 3e-4);
    SNT_NEAR(u, 0, 1e-6);
    scene_close(&sc);

    SNT_CHECK(scene_open(&sc, arm("0.5 0 0", -100, 100, 12), 0.001, 0) == 0);
    SNT_STATUS_OK(sn_system_set_state(sc.s, &q0, 1, &u0, 1));
    for (int k = 0; k < 1000; k++)
        SNT_STATUS_OK(sn_world_integrate(sc.w));
    q = sn_system_q(sc.s)[0];
    u = sn_system_u(sc.s)[0];
    printf("  RK4 friction 12 N m against 9.81 N m: q = %.4e rad, u = %.2e rad/s after 1 s "
           "(the creep of the change applied at the start: dt a / 2 = %.4e rad/s)\n",
           q, u, 0.5e-3 * GRAV / 0.51);
    // docs/step.md: measured exactly 0 after 1 s
    SNT_CHECK(q == 0 && u == 0);
    scene_close(&sc);
    return 0;
}


// RaiSim's ant MJCF (integrator RK4) stays on the floor for 3 s (before: 43 m below it)
static int test_raisim_ant(void) {
    const char* path = tc_model_path("raisim_ant_mjcf/ant.xml");
    if (!path) return SNT_SKIP;
    sn_model* m = NULL;
    SNT_STATUS_OK(sn_load(path, NULL, &m, NULL));
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, NULL));
    SNT_CHECK(sn_system_scheme(s) == SN_SCHEME_RK4);
    long n = (long)floor(3 / sn_world_timestep(w) + 0.5);
    double zmin = INFINITY, z0 = sn_system_q(s)[2];
    int maxc = 0;
    for (long k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        zmin = fmin(zmin, sn_system_q(s)[2]);
        int c = sn_system_contact_count(s);
        if (c > maxc) maxc = c;
    }
    printf("  ant: torso z %.4f -> %.4f m, lowest %.4f m over 3 s; scheme used %d, up to %d "
           "contacts\n",
           z0, sn_system_q(s)[2], zmin, (int)sn_system_scheme_used(s), maxc);
    SNT_CHECK(sn_system_scheme_used(s) == SN_SCHEME_RK4);
    SNT_CHECK(zmin > 0.2); // the torso sphere (radius 0.25) on its legs, never into the floor
    SNT_NEAR(sn_system_q(s)[2], 0.363, 2e-3); // docs/step.md: torso z 0.75 -> 0.363 m
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


// ---- the order on rotations ----

typedef struct run_out {
    double q[7], u[6];
    double e0, emax; // energy at the start, largest |E - E0|
} run_out;

// system sc from (q, u) for T s at dt; ground off, gravity g
static int rot_run(sn_model* m, const double* g, const double* q, int nq, const double* u, int nv,
                   double T, double dt, run_out* r) {
    scene sc;
    memset(r, 0, sizeof *r);
    SNT_CHECK(scene_open(&sc, m, dt, 0) == 0);
    SNT_STATUS_OK(sn_world_set_gravity(sc.w, g));
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, nq, u, nv));
    r->e0 = sn_system_kinetic_energy(sc.s) + sn_system_potential_energy(sc.s);
    long n = (long)floor(T / dt + 0.5);
    for (long k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double e = sn_system_kinetic_energy(sc.s) + sn_system_potential_energy(sc.s);
        r->emax = fmax(r->emax, fabs(e - r->e0));
    }
    memcpy(r->q, sn_system_q(sc.s), (size_t)nq * sizeof(double));
    memcpy(r->u, sn_system_u(sc.s), (size_t)nv * sizeof(double));
    sc.m = NULL;
    sn_world_destroy(sc.w);
    return 0;
}

// error of a run against the reference: rotation angle between the quaternions (at qa) plus the
// angular velocity's difference
static double rot_err(const run_out* a, const run_out* ref, int qa, int va) {
    double d = 0;
    for (int k = 0; k < 4; k++)
        d += a->q[qa + k] * ref->q[qa + k];
    double ang = 2 * acos(fmin(1, fabs(d)));
    double du = 0;
    for (int k = 0; k < 3; k++)
        du = fmax(du, fabs(a->u[va + k] - ref->u[va + k]));
    return ang + du;
}

// runs at dt, dt/2, dt/4 and dt/256; the two observed orders log2(e(h) / e(h/2))
static int orders(sn_model* m, const double* g, const double* q, int nq, const double* u, int nv,
                  double T, double dt, int qa, int va, double* p, double* e) {
    run_out ref, r[3];
    SNT_CHECK(rot_run(m, g, q, nq, u, nv, T, dt / 256, &ref) == 0);
    for (int i = 0; i < 3; i++) {
        SNT_CHECK(rot_run(m, g, q, nq, u, nv, T, dt / (1 << i), &r[i]) == 0);
        e[i] = rot_err(&r[i], &ref, qa, va);
    }
    p[0] = log2(e[0] / e[1]);
    p[1] = log2(e[1] / e[2]);
    return 0;
}

// a free body (I = 1, 2, 3 kg m^2) spinning about its intermediate axis with a small
// perturbation, zero gravity, 2 s: the error falls 16x per halving of dt (before: 4x), and the
// energy over 10 s at dt 1 ms stays within 1e-12 relative (measured 3.6e-14; before: 1.1e-7)
static int test_free_body_order(void) {
    const char* urdf =
        "<robot name=\"b\"><link name=\"b\"><inertial><mass value=\"1\"/>"
        "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"2\" iyz=\"0\" izz=\"3\"/></inertial>"
        "</link></robot>";
    sn_model* m = tc_load_string(urdf, 0);
    SNT_CHECK(m && m->nv == 6);
    const double g[3] = {0, 0, 0}, q[7] = {0, 0, 0, 1, 0, 0, 0}, u[6] = {0, 0, 0, 0.02, 2, 0.02};
    double p[2], e[3];
    SNT_CHECK(orders(m, g, q, 7, u, 6, 2, 0.02, 3, 3, p, e) == 0);
    printf("  free body: errors %.3e %.3e %.3e at dt 20, 10, 5 ms: orders %.3f %.3f\n", e[0], e[1],
           e[2], p[0], p[1]);
    // docs/step.md: 16.0x and 16.0x per halving (orders 4.003, 4.001; asserted above 3.95)
    SNT_CHECK(p[0] > 3.95 && p[1] > 3.95);
    run_out r;
    SNT_CHECK(rot_run(m, g, q, 7, u, 6, 10, 0.001, &r) == 0);
    printf("  free body: energy %.6f J, largest relative change %.3e over 10 s at dt 1 ms\n", r.e0,
           r.emax / r.e0);
    SNT_CHECK(r.emax / r.e0 < 5e-13); // docs/step.md: 3.6e-14 of itself (asserted below 5e-13)
    sn_model_destroy(m);
    return 0;
}


// a heavy top on a spherical joint (MJCF ball): 1 kg, centre of mass 0.3 m up its axis, tilted
// 0.3 rad and spinning at 20 rad/s, 1 s: the error falls 16x per halving (before: 4x)
static int test_heavy_top_order(void) {
    const char* xml = "<mujoco model=\"top\"><worldbody><body name=\"top\" pos=\"0 0 0\">"
                      "<joint name=\"ball\" type=\"ball\"/>"
                      "<inertial pos=\"0 0 0.3\" mass=\"1\" diaginertia=\"0.02 0.02 0.04\"/>"
                      "</body></worldbody></mujoco>";
    const char* path = "test_rk4_top.xml";
    FILE* f = fopen(path, "w");
    SNT_CHECK(f != NULL);
    fputs(xml, f);
    fclose(f);
    sn_model* m = NULL;
    SNT_STATUS_OK(sn_load(path, NULL, &m, NULL));
    remove(path);
    SNT_CHECK(m && m->nv == 3 && m->nq == 4);
    const double g[3] = {0, 0, -GRAV};
    double q[4] = {cos(0.15), sin(0.15), 0, 0};
    // spin 20 rad/s about the tilted axis (parent-frame angular velocity)
    double u[3] = {0, -20 * sin(0.3), 20 * cos(0.3)};
    double p[2], e[3];
    SNT_CHECK(orders(m, g, q, 4, u, 3, 1, 0.004, 0, 0, p, e) == 0);
    printf("  heavy top: errors %.3e %.3e %.3e at dt 4, 2, 1 ms: orders %.3f %.3f\n", e[0], e[1],
           e[2], p[0], p[1]);
    // docs/step.md: 16.8x and 18.0x per halving (orders 4.07, 4.17; asserted above 4.0)
    SNT_CHECK(p[0] > 4.0 && p[1] > 4.0);
    sn_model_destroy(m);
    return 0;
}


SNT_SUITE(SNT_TEST(test_box_rests), SNT_TEST(test_box_slides_to_a_stop),
          SNT_TEST(test_limit_and_friction), SNT_TEST(test_raisim_ant),
          SNT_TEST(test_free_body_order), SNT_TEST(test_heavy_top_order))
