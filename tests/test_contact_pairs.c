// SPDX-License-Identifier: Apache-2.0
// test_contact_pairs.c: contacts between systems: two free balls colliding head-on conserve
// momentum, exchange their velocities when the impact is elastic and move together when it is
// not; a ball resting on another resting on the ground stays put.
#include "common.h"
#include "harness/snt.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char* ball_urdf =
    "<robot name=\"ball\"><link name=\"ball\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.004\" ixy=\"0\" ixz=\"0\" iyy=\"0.004\" iyz=\"0\" izz=\"0.004\"/>"
    "</inertial><collision><geometry><sphere radius=\"0.1\"/></geometry></collision></link>"
    "</robot>";


// two balls 1 m apart on the x axis, flying at each other at 1 m/s in zero gravity
static int collide(double e, double* va, double* vb) {
    sn_model* m = tc_load_string(ball_urdf, 0);
    SNT_CHECK(m);
    double pmax;
    int touched;
    SNT_CHECK(tc_head_on(m, e, va, vb, &pmax, &touched) == 0);
    SNT_CHECK_MSG(pmax < 1e-12, "momentum %.3g", pmax);
    SNT_CHECK(touched);
    sn_model_destroy(m);
    return 0;
}


static int test_elastic_balls_exchange_velocities(void) {
    double va, vb;
    SNT_CHECK(collide(1, &va, &vb) == 0);
    printf("  after the impact: %.9f and %.9f m/s\n", va, vb);
    SNT_NEAR(va, -1, 1e-9);
    SNT_NEAR(vb, 1, 1e-9);
    return 0;
}


static int test_inelastic_balls_stop(void) {
    double va, vb;
    SNT_CHECK(collide(0, &va, &vb) == 0);
    printf("  after the impact: %.3g and %.3g m/s\n", va, vb);
    SNT_NEAR(va, 0, 1e-9);
    SNT_NEAR(vb, 0, 1e-9);
    return 0;
}


// a ball on a ball on the ground: both at rest, the top one neither sinks nor rolls off
static int test_ball_on_ball_rests(void) {
    sn_model* m = tc_load_string(ball_urdf, 0);
    SNT_CHECK(m);
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    sn_system *a, *b;
    SNT_STATUS_OK(sn_world_add_system(w, m, &a, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &b, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double qa[7] = {0, 0, 0.1, 1, 0, 0, 0}, qb[7] = {0, 0, 0.3, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(a, qa, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(b, qb, 7, u, 6));
    for (int k = 0; k < 2000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    const double* za = sn_system_q(a);
    const double* zb = sn_system_q(b);
    printf("  bottom z %.9f, top z %.9f, top x %.3g after 2 s\n", za[2], zb[2], zb[0]);
    // resting, not hovering: each box on what is under it to 10 um (a 1.6 mm hover fails)
    SNT_NEAR(za[2], 0.1, 1e-5);
    SNT_NEAR(zb[2] - za[2], 0.2, 1e-7);
    SNT_NEAR(zb[0], 0, 1e-9);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


static const char* box_urdf =
    "<robot name=\"box\"><link name=\"box\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.0066667\" ixy=\"0\" ixz=\"0\" iyy=\"0.0066667\" iyz=\"0\" izz=\"0.0066667\"/>"
    "</inertial><collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></link>"
    "</robot>";


// box i's height in a stack of boxes on the ground, each sink into the one below
static double stack_z(int i, double sink) {
    return 0.1 + 0.2 * i - sink * (i + 1);
}

// five boxes of model m stacked at rest on the ground of a new world *w, each sink into the one
// below, as systems s
static int stack_world(sn_model* m, double sink, sn_world** w, sn_system** s) {
    SNT_STATUS_OK(sn_world_create(NULL, w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(*w, 1, 0));
    double u[6] = {0};
    for (int i = 0; i < 5; i++) {
        SNT_STATUS_OK(sn_world_add_system(*w, m, &s[i], NULL));
        double q[7] = {0, 0, stack_z(i, sink), 1, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(s[i], q, 7, u, 6));
    }
    return 0;
}


// five boxes stacked, each 3 mm into the one below (the lowest into the ground): one step's
// position correction solved exactly (20 rows in Delassus form, sweep.c's pc_exact) against
// the same by sweeps alone at a tolerance of 1e-14 and up to 100000 of them: the same positions
// to 3.3e-16 m (the sweeps' default limit of 150 leaves them 1.4e-8 m off)
static int stacked_step(int sweeps_only, double* q, long* exact) {
    sn_model* m = tc_load_string(box_urdf, 0);
    SNT_CHECK(m);
    sn_world* w = NULL;
    sn_system* s[5];
    SNT_CHECK(stack_world(m, 0.003, &w, s) == 0);
    SNT_STATUS_OK(sn_world_set_solver(w, sweeps_only ? 100000 : 150, 1e-14));
    w->solver.no_delassus = sweeps_only;
    w->solver.pc_dense = !sweeps_only; // (five boxes' rows are cheaper to sweep)
    SNT_STATUS_OK(sn_world_integrate(w));
    for (int i = 0; i < 5; i++)
        memcpy(q + 7 * i, sn_system_q(s[i]), 7 * sizeof(double));
    *exact = w->solver.pc_exact_solves;
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_position_correction_exact_equals_sweeps(void) {
    double qa[35], qb[35];
    long ea, eb;
    SNT_CHECK(stacked_step(0, qa, &ea) == 0);
    SNT_CHECK(stacked_step(1, qb, &eb) == 0);
    double d = 0, lift = 0;
    for (int i = 0; i < 35; i++)
        d = fmax(d, fabs(qa[i] - qb[i]));
    for (int i = 0; i < 5; i++)
        lift = fmax(lift, qa[7 * i + 2] - stack_z(i, 0.003));
    printf("  exact solves %ld (sweeps only: %ld); positions apart by %.2g m; the correction lifts "
           "a box by up to %.3g mm\n",
           ea, eb, d, 1e3 * lift);
    SNT_CHECK(ea == 1 && eb == 0);
    SNT_CHECK(lift > 1e-4); // the correction acted (erp 0.2 of up to 15 mm)
    SNT_CHECK(d < 1e-13);
    return 0;
}


// C7: a stack of five boxes rests for 10 s: drift 3.3 um (docs/contact.md), asserted below 10 um;
// each box on the one under it (gap 1.6e-12 m: a hovering box fails)
static int test_stack_of_five_boxes_rests(void) {
    sn_model* m = tc_load_string(box_urdf, 0);
    SNT_CHECK(m);
    sn_world* w = NULL;
    sn_system* s[5];
    SNT_CHECK(stack_world(m, 0, &w, s) == 0);
    double e0 = 0;
    for (int i = 0; i < 5; i++)
        e0 += sn_system_potential_energy(s[i]);
    int maxit = 0;
    long sumit = 0;
    for (int k = 0; k < 10000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        int it = sn_system_solver_iterations(s[0]);
        sumit += it;
        if (it > maxit) maxit = it;
    }
    printf("  mean solver iterations %.1f\n", sumit / 10000.0);
    double worst = 0, e1 = 0, gap = 0;
    for (int i = 0; i < 5; i++) {
        const double* q = sn_system_q(s[i]);
        double below = i ? sn_system_q(s[i - 1])[2] + 0.1 : 0;
        gap = fmax(gap, fabs(q[2] - 0.1 - below));
        double dx = q[0], dy = q[1], dz = q[2] - stack_z(i, 0);
        worst = fmax(worst, sqrt(dx * dx + dy * dy + dz * dz));
        e1 += sn_system_potential_energy(s[i]) + sn_system_kinetic_energy(s[i]);
    }
    printf("  worst drift after 10 s: %.3g m; largest gap between boxes %.3g m; energy change "
           "%.3g J; at most %d solver iterations, %d contacts\n",
           worst, gap, e1 - e0, maxit,
           sn_system_contact_count(s[0]) + sn_system_contact_count(s[2]) +
               sn_system_contact_count(s[4]));
    SNT_CHECK(worst < 1e-5);
    // docs/contact.md: the position correction solved exactly (sweep.c, pc_exact)
    SNT_CHECK(gap < 1e-10);           // measured 1.6e-12 m (1.9e-11 with its sweeps)
    SNT_CHECK(fabs(e1 - e0) < 1e-9);  // -1.7e-10 J (-2.0e-9)
    SNT_CHECK(sumit / 10000.0 < 3.5); // 2.7 sweeps per step (4.7)
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


// a box dropped tilted onto another box comes to rest on it
static int test_box_falls_onto_box(void) {
    sn_model* m = tc_load_string(box_urdf, 0);
    SNT_CHECK(m);
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    sn_system *a, *b;
    SNT_STATUS_OK(sn_world_add_system(w, m, &a, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &b, NULL));
    double u[6] = {0}, qa[7] = {0, 0, 0.1, 1, 0, 0, 0};
    double c = cos(0.2), sn = sin(0.2);
    double qb[7] = {0.02, 0, 0.45, c, sn * 0.6, sn * 0.8, 0};
    SNT_STATUS_OK(sn_system_set_state(a, qa, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(b, qb, 7, u, 6));
    for (int k = 0; k < 3000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    const double* q = sn_system_q(b);
    // flat: its orientation a turn about z alone (quaternion x, y components 0)
    double tilt = hypot(q[4], q[5]);
    printf("  top box at (%.4f, %.4f, %.9f), tilt %.3g, |u| %.3g\n", q[0], q[1], q[2], tilt,
           sqrt(sn_system_kinetic_energy(b)));
    SNT_NEAR(sn_system_q(a)[2], 0.1, 1e-5);
    SNT_NEAR(q[2], 0.3, 1e-5); // flat on the lower box, not hovering over it
    SNT_CHECK(tilt < 1e-6);
    SNT_CHECK(sn_system_kinetic_energy(b) < 1e-6);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


// free bodies made by the world: the mass matrix is the shape's, at the identity orientation
static int test_free_bodies(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    sn_system *sp, *bx, *cy, *ca;
    double size[3] = {0.1, 0.2, 0.3};
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 2, &sp));
    SNT_STATUS_OK(sn_world_add_box(w, size, 3, &bx));
    SNT_STATUS_OK(sn_world_add_cylinder(w, 0.1, 0.4, 1, &cy));
    SNT_STATUS_OK(sn_world_add_capsule(w, 0.1, 0.4, 1, &ca));
    SNT_CHECK(sn_world_add_box(w, NULL, 1, &bx) == SN_ERR_ARG);
    SNT_CHECK(sn_world_add_sphere(w, -1, 1, &sp) == SN_ERR_ARG);
    SNT_CHECK(sn_world_add_sphere(w, 1, 0, &sp) == SN_ERR_ARG);
    const double* M = sn_system_mass_matrix(sn_world_system(w, 0));
    SNT_NEAR(M[0], 2, 1e-15);
    SNT_NEAR(M[3 * 6 + 3], 0.4 * 2 * 0.01, 1e-15);
    M = sn_system_mass_matrix(sn_world_system(w, 1));
    SNT_NEAR(M[3 * 6 + 3], 3 * (0.04 + 0.09) / 12, 1e-15);
    SNT_NEAR(M[5 * 6 + 5], 3 * (0.01 + 0.04) / 12, 1e-15);
    M = sn_system_mass_matrix(sn_world_system(w, 2));
    SNT_NEAR(M[5 * 6 + 5], 0.5 * 0.01, 1e-15);
    SNT_NEAR(M[3 * 6 + 3], (3 * 0.01 + 0.16) / 12, 1e-15);
    // a capsule of zero length is a sphere: its inertia tends to 2/5 m r^2
    sn_system* c0;
    SNT_STATUS_OK(sn_world_add_capsule(w, 0.1, 1e-9, 1, &c0));
    M = sn_system_mass_matrix(c0);
    SNT_NEAR(M[3 * 6 + 3], 0.4 * 0.01, 1e-9);
    sn_world_destroy(w);
    return 0;
}


// a capsule lying across another capsule lying on the ground, a ball on top of both: at rest at
// the heights of the radii
static int test_capsules_and_ball_rest(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    sn_system *c1, *c2, *b;
    SNT_STATUS_OK(sn_world_add_capsule(w, 0.05, 0.4, 1, &c1));
    SNT_STATUS_OK(sn_world_add_capsule(w, 0.05, 0.4, 1, &c2));
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 0.5, &b));
    double h = sqrt(0.5), u[6] = {0};
    // lying along x (rotated about y), then along y (about x)
    double q1[7] = {0, 0, 0.05, h, 0, h, 0}, q2[7] = {0, 0, 0.15, h, h, 0, 0};
    double q3[7] = {0, 0, 0.25, 1, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(c1, q1, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(c2, q2, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(b, q3, 7, u, 6));
    for (int k = 0; k < 2000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    printf("  heights after 2 s: %.6f %.6f %.6f m (0.05, 0.15, 0.25)\n", sn_system_q(c1)[2],
           sn_system_q(c2)[2], sn_system_q(b)[2]);
    SNT_NEAR(sn_system_q(c1)[2], 0.05, 1e-4);
    SNT_NEAR(sn_system_q(c2)[2], 0.15, 2e-4);
    SNT_NEAR(sn_system_q(b)[2], 0.25, 3e-4);
    sn_world_destroy(w);
    return 0;
}


// filters: two balls whose masks exclude each other's group pass through each other, and a
// body whose mask lacks the ground's bit falls through the ground
static int test_collision_filters(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    sn_system *a, *b;
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &a));
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &b));
    SNT_STATUS_OK(sn_system_set_collision_filter(a, 1, 2, 1)); // group 2, hits the ground only
    SNT_STATUS_OK(sn_system_set_collision_filter(b, 1, 4, 1)); // group 4, likewise
    double qa[7] = {0, 0, 0.1, 1, 0, 0, 0}, qb[7] = {0, 0, 0.5, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(a, qa, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(b, qb, 7, u, 6));
    for (int k = 0; k < 1000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    printf("  filtered balls: z %.4f and %.4f m (both on the ground, one inside the other)\n",
           sn_system_q(a)[2], sn_system_q(b)[2]);
    SNT_NEAR(sn_system_q(a)[2], 0.1, 1e-4);
    SNT_NEAR(sn_system_q(b)[2], 0.1, 1e-4);
    SNT_STATUS_OK(sn_system_set_collision_filter(a, 1, 2, 0)); // nothing, not even the ground
    for (int k = 0; k < 500; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK(sn_system_q(a)[2] < -0.5);
    SNT_CHECK(sn_system_set_collision_filter(a, 7, 1, 1) == SN_ERR_ARG);
    sn_world_destroy(w);
    return 0;
}


// self-collision: a three-link arm folding onto itself; its tip ball stops on the first link's
// ball with self-collision on, and passes through it when off
static const char* arm_urdf =
    "<robot name=\"arm\"><link name=\"world\"/>"
    "<link name=\"l1\"><inertial><origin xyz=\"0.5 0 0\"/><mass value=\"1\"/><inertia ixx=\"0.01\" "
    "ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial><collision><origin "
    "xyz=\"0.5 0 0\"/><geometry><sphere radius=\"0.1\"/></geometry></collision></link>"
    "<link name=\"l2\"><inertial><origin xyz=\"0.5 0 0\"/><mass value=\"1\"/><inertia ixx=\"0.01\" "
    "ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
    "<link name=\"l3\"><inertial><origin xyz=\"0.5 0 0\"/><mass value=\"1\"/><inertia ixx=\"0.01\" "
    "ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial><collision><origin "
    "xyz=\"0.5 0 0\"/><geometry><sphere radius=\"0.1\"/></geometry></collision></link>"
    "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"l1\"/>"
    "<axis xyz=\"0 0 1\"/></joint>"
    "<joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child link=\"l2\"/>"
    "<origin xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></joint>"
    "<joint name=\"j3\" type=\"continuous\"><parent link=\"l2\"/><child link=\"l3\"/>"
    "<origin xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></joint></robot>";


static double fold(int self) {
    sn_model* m = tc_load_string(arm_urdf, 0);
    sn_world* w = NULL;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    sn_world_create(&o, &w, NULL);
    double g[3] = {0, 0, 0};
    sn_world_set_gravity(w, g);
    sn_system* s = NULL;
    sn_world_add_system(w, m, &s, NULL);
    sn_system_set_self_collision(s, self);
    // l2 folded back along l1 (q2 = pi), l3 at 0.6 rad from l1, turning towards its ball
    double q[3] = {0, M_PI, M_PI - 0.6}, u[3] = {0, 0, 1};
    sn_system_set_state(s, q, 3, u, 3);
    double dmin = INFINITY;
    for (int k = 0; k < 1500; k++) {
        sn_world_integrate(w);
        sn_data* d = sn_system_data(s);
        sn_fk(m, d);
        double a[3], b[3], x[3] = {0.5, 0, 0}, ra[9], rb[9];
        int f1 = sn_model_find(m, SN_OBJ_FRAME, "l1"), f3 = sn_model_find(m, SN_OBJ_FRAME, "l3");
        sn_frame_pose(m, d, f1, a, ra);
        sn_frame_pose(m, d, f3, b, rb);
        double pa[3], pb[3];
        for (int i = 0; i < 3; i++) {
            pa[i] = a[i] + ra[3 * i] * x[0];
            pb[i] = b[i] + rb[3 * i] * x[0];
        }
        double dd = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]));
        if (dd < dmin) dmin = dd;
    }
    sn_world_destroy(w);
    sn_model_destroy(m);
    return dmin;
}


static int test_self_collision(void) {
    double on = fold(1), off = fold(0);
    printf("  closest approach of the two balls: %.4f m with self-collision, %.4f m without "
           "(0.2 m is touching)\n",
           on, off);
    SNT_CHECK(on > 0.2 - 2e-3);
    SNT_CHECK(off < 0.1);
    return 0;
}


// materials per pair, the contact force sum on a body, the contact rows, the other object
static int test_materials_and_reporting(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double size[3] = {0.2, 0.2, 0.2};
    sn_system *slow, *fast, *top;
    SNT_STATUS_OK(sn_world_add_box(w, size, 1, &slow));
    SNT_STATUS_OK(sn_world_add_box(w, size, 1, &fast));
    SNT_STATUS_OK(sn_world_add_box(w, size, 2, &top));
    // 'fast' is ice on the ground (material 3: mu 0.1), 'slow' keeps the default 0.8
    SNT_STATUS_OK(sn_system_set_body_material(fast, 1, 3));
    SNT_STATUS_OK(sn_world_set_material_pair(w, 3, 0, 0.1, 0, 0));
    SNT_CHECK(sn_world_set_material_pair(w, 16, 0, 0.1, 0, 0) == SN_ERR_ARG);
    SNT_CHECK(sn_system_set_body_material(fast, 1, -1) == SN_ERR_ARG);
    double u[6] = {2, 0, 0, 0, 0, 0}, u0[6] = {0};
    double qs[7] = {0, 0, 0.1, 1, 0, 0, 0}, qf[7] = {0, 1, 0.1, 1, 0, 0, 0};
    double qt[7] = {0, 3, 0.1, 1, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(slow, qs, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(fast, qf, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(top, qt, 7, u0, 6));
    for (int k = 0; k < 1000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double xs = sn_system_q(slow)[0], xf = sn_system_q(fast)[0];
    // after 1 s the first has stopped (v^2 / 2 mu g), the second still slides (v t - mu g t^2 / 2)
    double xs_want = 4 / (2 * 0.8 * 9.81), xf_want = 2 - 0.5 * 0.1 * 9.81;
    printf("  sliding from 2 m/s for 1 s: %.4f m on mu 0.8, %.4f m on mu 0.1 (%.4f, %.4f)\n", xs,
           xf, xs_want, xf_want);
    SNT_NEAR_REL(xs, xs_want, 0.01, 1);
    SNT_NEAR_REL(xf, xf_want, 0.002, 1);
    // at rest: the contact forces on 'top' carry its weight, with no moment about its centre
    double f[3], t[3];
    SNT_STATUS_OK(sn_system_body_contact_force(top, 1, f, t));
    printf("  contact force on the 2 kg box: (%.6f, %.6f, %.6f) N, moment %.2e N m\n", f[0], f[1],
           f[2], sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]));
    // docs/contact.md: m g, moment 2e-16 N m (asserted 1e-9 N and 1e-14 N m)
    SNT_NEAR(f[2], 2 * 9.81, 1e-9);
    SNT_NEAR(f[0], 0, 1e-9);
    SNT_CHECK(sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) < 1e-14);
    // the contacts name the ground as the other object; the rows carry the impulses
    sn_contact c;
    SNT_STATUS_OK(sn_system_contact(top, 0, &c));
    SNT_CHECK(c.other_system == -1 && c.other_body == -1 && !c.self);
    int rows = sn_world_contact_row_count(w), contacts = 0;
    double nsum = 0;
    for (int i = 0; i < rows; i++) {
        sn_contact_row r;
        SNT_STATUS_OK(sn_world_contact_row(w, i, &r));
        if (r.kind == 0 && r.system == 2) nsum += r.impulse[2], contacts++;
    }
    SNT_CHECK(contacts == 4);
    SNT_NEAR(nsum, 2 * 9.81 * 0.001, 1e-9);
    SNT_CHECK(sn_world_contact_row(w, rows, NULL) == SN_ERR_ARG);
    sn_world_destroy(w);
    return 0;
}


SNT_SUITE(SNT_TEST(test_free_bodies), SNT_TEST(test_materials_and_reporting),
          SNT_TEST(test_capsules_and_ball_rest), SNT_TEST(test_collision_filters),
          SNT_TEST(test_self_collision), SNT_TEST(test_elastic_balls_exchange_velocities),
          SNT_TEST(test_inelastic_balls_stop), SNT_TEST(test_ball_on_ball_rests),
          SNT_TEST(test_position_correction_exact_equals_sweeps),
          SNT_TEST(test_stack_of_five_boxes_rests), SNT_TEST(test_box_falls_onto_box))
