// SPDX-License-Identifier: Apache-2.0
// test_contact.c: the contact solver against the analytic cases of tier C
// (shared/spec/validation.md): a box sliding to a stop, a ball bouncing with restitution, a
// resting body that neither sinks nor creeps; and joint limits and joint friction as rows.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// a free 1 kg box (0.2 m cube) or sphere (radius 0.1 m)
static const char* box_urdf =
    "<robot name=\"box\"><link name=\"box\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.0066667\" ixy=\"0\" ixz=\"0\" iyy=\"0.0066667\" iyz=\"0\" izz=\"0.0066667\"/>"
    "</inertial><collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></link>"
    "</robot>";
static const char* ball_urdf =
    "<robot name=\"ball\"><link name=\"ball\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.004\" ixy=\"0\" ixz=\"0\" iyy=\"0.004\" iyz=\"0\" izz=\"0.004\"/>"
    "</inertial><collision><geometry><sphere radius=\"0.1\"/></geometry></collision></link>"
    "</robot>";

typedef struct scene {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} scene;


static int scene_open(scene* sc, const char* urdf, double dt) {
    memset(sc, 0, sizeof *sc);
    sc->m = tc_load_string(urdf, 0);
    if (!sc->m) return 1;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    if (sn_world_create(&o, &sc->w, NULL) != SN_OK) return 1;
    if (sn_world_add_system(sc->w, sc->m, &sc->s, NULL) != SN_OK) return 1;
    return sn_world_set_ground(sc->w, 1, 0) != SN_OK;
}


static void scene_close(scene* sc) {
    sn_world_destroy(sc->w);
    sn_model_destroy(sc->m);
}


// C1: 3 m/s, mu = 0.5: stops after v0^2 / (2 mu g) = 0.917431 m in 0.611621 s, then stays
static int test_box_slides_to_a_stop(void) {
    scene sc;
    SNT_CHECK(scene_open(&sc, box_urdf, 0.001) == 0);
    SNT_STATUS_OK(sn_world_set_material(sc.w, 0.5, 0, 0));
    double q[7] = {0, 0, 0.1, 1, 0, 0, 0}, u[6] = {3, 0, 0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
    double t_stop = -1;
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        if (t_stop < 0 && sn_system_u(sc.s)[0] < 1e-9) t_stop = sn_world_time(sc.w);
    }
    double x = sn_system_q(sc.s)[0], z = sn_system_q(sc.s)[2];
    printf("  stopped after %.6f m at t = %.4f s; z = %.6f m\n", x, t_stop, z);
    SNT_NEAR_REL(x, 0.917431, 0.01, 1);
    SNT_NEAR(t_stop, 0.611621, 0.002);
    SNT_NEAR(z, 0.1, 1e-3);
    // no creep afterwards
    double x1 = x;
    for (int k = 0; k < 1000; k++)
        SNT_STATUS_OK(sn_world_integrate(sc.w));
    SNT_NEAR(sn_system_q(sc.s)[0], x1, 1e-9);
    scene_close(&sc);
    return 0;
}


// C4: a ball dropped from 1 m with e = 0.8 rises to 0.64 and 0.4096 m
static int test_ball_bounces(void) {
    scene sc;
    SNT_CHECK(scene_open(&sc, ball_urdf, 0.0001) == 0);
    SNT_STATUS_OK(sn_world_set_material(sc.w, 0.8, 0.8, 0));
    double q[7] = {0, 0, 1.1, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
    double peaks[3] = {0}, zprev = 1.1, vprev = 0;
    int np = 0;
    for (int k = 0; k < 60000 && np < 3; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double z = sn_system_q(sc.s)[2], v = sn_system_u(sc.s)[2];
        if (vprev > 0 && v <= 0 && zprev > 0.15) peaks[np++] = z - 0.1;
        zprev = z, vprev = v;
    }
    printf("  bounce heights %.4f %.4f %.4f m\n", peaks[0], peaks[1], peaks[2]);
    SNT_CHECK(np == 3);
    SNT_NEAR_REL(peaks[0], 0.64, 0.01, 1);
    SNT_NEAR_REL(peaks[1], 0.4096, 0.015, 1);
    SNT_NEAR_REL(peaks[2], 0.262144, 0.02, 1);
    scene_close(&sc);
    return 0;
}


// without restitution an impact never adds kinetic energy, and the box comes to rest on the
// ground without sinking
static int test_inelastic_impact_and_rest(void) {
    scene sc;
    SNT_CHECK(scene_open(&sc, box_urdf, 0.001) == 0);
    double q[7] = {0, 0, 0.5, 0.9238795, 0.3826834, 0, 0}, u[6] = {0.5, 0, -1, 1, 2, 0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
    double emax = sn_system_kinetic_energy(sc.s) + sn_system_potential_energy(sc.s);
    for (int k = 0; k < 3000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double e = sn_system_kinetic_energy(sc.s) + sn_system_potential_energy(sc.s);
        SNT_CHECK_MSG(e <= emax + 1e-9, "step %d: energy %.9g above %.9g", k, e, emax);
        emax = e;
    }
    double z = sn_system_q(sc.s)[2];
    printf("  at rest at z = %.6f m (0.1 expected), %d contacts\n", z,
           sn_system_contact_count(sc.s));
    SNT_NEAR(z, 0.1, 1e-3);
    SNT_CHECK(sn_system_kinetic_energy(sc.s) < 1e-8);
    scene_close(&sc);
    return 0;
}


SNT_SUITE(SNT_TEST(test_box_slides_to_a_stop), SNT_TEST(test_ball_bounces),
          SNT_TEST(test_inelastic_impact_and_rest))
