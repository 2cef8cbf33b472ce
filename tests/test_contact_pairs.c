// SPDX-License-Identifier: Apache-2.0
// test_contact_pairs.c: contacts between systems: two free balls colliding head-on conserve
// momentum, exchange their velocities when the impact is elastic and move together when it is
// not; a ball resting on another resting on the ground stays put.
#include "common.h"
#include "harness/snt.h"

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
    sn_world* w = NULL;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    sn_system *a, *b;
    SNT_STATUS_OK(sn_world_add_system(w, m, &a, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &b, NULL));
    double g[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_world_set_gravity(w, g));
    SNT_STATUS_OK(sn_world_set_material(w, 0.8, e, 0));
    double qa[7] = {-0.5, 0, 1, 1, 0, 0, 0}, qb[7] = {0.5, 0, 1, 1, 0, 0, 0};
    double ua[6] = {1, 0, 0, 0, 0, 0}, ub[6] = {-1, 0, 0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(a, qa, 7, ua, 6));
    SNT_STATUS_OK(sn_system_set_state(b, qb, 7, ub, 6));
    int touched = 0;
    for (int k = 0; k < 1000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        touched |= sn_system_contact_count(a) > 0;
        double p = sn_system_u(a)[0] + sn_system_u(b)[0];
        SNT_CHECK_MSG(fabs(p) < 1e-12, "step %d: momentum %.3g", k, p);
    }
    SNT_CHECK(touched);
    *va = sn_system_u(a)[0];
    *vb = sn_system_u(b)[0];
    sn_world_destroy(w);
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
    printf("  bottom z %.6f, top z %.6f, top x %.3g after 2 s\n", za[2], zb[2], zb[0]);
    SNT_NEAR(za[2], 0.1, 1e-3);
    SNT_NEAR(zb[2], 0.3, 2e-3);
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


// C7: a stack of five boxes rests for 10 s with less than 1 mm drift
static int test_stack_of_five_boxes_rests(void) {
    sn_model* m = tc_load_string(box_urdf, 0);
    SNT_CHECK(m);
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    sn_system* s[5];
    double u[6] = {0};
    for (int i = 0; i < 5; i++) {
        SNT_STATUS_OK(sn_world_add_system(w, m, &s[i], NULL));
        double q[7] = {0, 0, 0.1 + 0.2 * i, 1, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(s[i], q, 7, u, 6));
    }
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
    double worst = 0, e1 = 0;
    for (int i = 0; i < 5; i++) {
        const double* q = sn_system_q(s[i]);
        double dx = q[0], dy = q[1], dz = q[2] - (0.1 + 0.2 * i);
        worst = fmax(worst, sqrt(dx * dx + dy * dy + dz * dz));
        e1 += sn_system_potential_energy(s[i]) + sn_system_kinetic_energy(s[i]);
    }
    printf("  worst drift after 10 s: %.3g m; energy change %.3g J; at most %d solver "
           "iterations, %d contacts\n",
           worst, e1 - e0, maxit,
           sn_system_contact_count(s[0]) + sn_system_contact_count(s[2]) +
               sn_system_contact_count(s[4]));
    SNT_CHECK(worst < 1e-3);
    SNT_CHECK(e1 <= e0 + 1e-6 * fabs(e0)); // no energy gain beyond a micro-joule
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
    printf("  top box at (%.4f, %.4f, %.4f), |u| %.3g\n", q[0], q[1], q[2],
           sqrt(sn_system_kinetic_energy(b)));
    SNT_NEAR(sn_system_q(a)[2], 0.1, 1e-3);
    SNT_NEAR(q[2], 0.3, 2e-3); // flat on the lower box
    SNT_CHECK(sn_system_kinetic_energy(b) < 1e-6);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


SNT_SUITE(SNT_TEST(test_elastic_balls_exchange_velocities), SNT_TEST(test_inelastic_balls_stop),
          SNT_TEST(test_ball_on_ball_rests), SNT_TEST(test_stack_of_five_boxes_rests),
          SNT_TEST(test_box_falls_onto_box))
