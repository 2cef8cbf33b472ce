// SPDX-License-Identifier: Apache-2.0
// test_humanoid.c: the bundled humanoid (models/humanoid.urdf, 27 DOF, capsules, spheres and
// boxes) pushed over from standing, unactuated, falls onto the ground and comes to rest without
// exploding: no step fails, the energy never grows by more than the position correction can
// add, nothing sinks, and the kinetic energy dies out.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// a world at 1 ms with the ground and model m's system
static int ground_world(sn_model* m, sn_world** w, sn_system** s) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    SNT_STATUS_OK(sn_world_create(&o, w, NULL));
    SNT_STATUS_OK(sn_world_add_system(*w, m, s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(*w, 1, 0));
    return 0;
}

static int test_humanoid_falls_and_rests(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/humanoid.urdf", SNT_SOURCE_DIR);
    sn_model* m = tc_load_file(path, 0);
    SNT_CHECK(m);
    SNT_CHECK(m->nq == 28 && m->nv == 27);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_CHECK(ground_world(m, &w, &s) == 0);
    double q[28] = {0, 0, 0.96, 1}, u[27] = {0.5, 0, 0, 0, 0.5};
    SNT_STATUS_OK(sn_system_set_state(s, q, 28, u, 27));
    double e_prev = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
    double e0 = e_prev, grow = 0, ke_max = 0, zmin = 1;
    long its = 0;
    int it_max = 0, capped = 0, nc_max = 0, n = 6000;
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        double ke = sn_system_kinetic_energy(s), e = ke + sn_system_potential_energy(s);
        SNT_CHECK_MSG(isfinite(e), "step %d: energy %g", k, e);
        grow = fmax(grow, e - e_prev);
        e_prev = e;
        ke_max = fmax(ke_max, ke);
        int it = sn_system_solver_iterations(s);
        its += it;
        if (getenv("SNT_HIST") && it >= 150)
            printf("    capped at t %.3f nc %d KE %.3e\n", (k + 1) * 0.001,
                   sn_system_contact_count(s), sn_system_kinetic_energy(s));
        it_max = it > it_max ? it : it_max;
        capped += it >= 150;
        int nc = sn_system_contact_count(s);
        nc_max = nc > nc_max ? nc : nc_max;
        for (int i = 0; i < nc; i++) {
            sn_contact c;
            SNT_STATUS_OK(sn_system_contact(s, i, &c));
            zmin = fmin(zmin, c.position[2]);
        }
    }
    double ke = sn_system_kinetic_energy(s);
    printf("  energy %.3f J -> %.3f J; largest rise in one step %.3g J; peak kinetic energy "
           "%.3f J; at 6 s %.3g J; pelvis at z %.4f m\n",
           e0, e_prev, grow, ke_max, ke, sn_system_q(s)[2]);
    printf("  up to %d contacts, deepest contact point z %.4f m; solver: %.1f sweeps per step, "
           "at most %d, %d steps at the limit\n",
           nc_max, zmin, (double)its / n, it_max, capped);
    // docs/contact.md's figures (measured: peak kinetic energy 171.1 J, largest rise in one step
    // 7.2e-5 J, deepest point 1.2 mm, 1.4e-11 J at 6 s; 7.4 sweeps per step, 8 steps at the
    // limit), each asserted with a stated margin (the fall is chaotic: builds differ in the
    // last bits and so in the path)
    SNT_CHECK(ke_max < e0 - e_prev + 10); // a fall from 0.96 m: its potential energy and the push
    SNT_CHECK(grow < 2e-4);               // the position correction's lift, 2.5x
    SNT_CHECK(zmin > -0.002);             // nothing sinks more than 2 mm, even at impacts
    SNT_CHECK(ke < 1e-8);                 // at rest
    // the solver's cost (10.6 sweeps per step before, 37 before the subspace step, 112 before
    // joint rows were warm-started): 20 % above today's, and few steps at the limit
    SNT_CHECK((double)its / n < 9);
    SNT_CHECK(capped <= 20);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

// MuJoCo's own humanoid (../shared/models/mujoco_humanoid/humanoid.xml) with self-collision on,
// 3 s from its reference pose, with its <contact> section (strip 0) and without it (strip 1).
// MuJoCo's filters hold: bodies joined through the massless links between the joints of one
// MJCF body never collide (before that rule, each thigh started 9.6 cm deep in the pelvis, the
// position correction could not be met, and its sweeps threw the humanoid to 1e32 J; they are
// now also scaled to at most 2 cm or rad per step), and neither do the excluded pairs. No
// self-contact starts deep, and the humanoid falls and settles, gaining nothing
static int humanoid_self_collision(int strip, double* deepest, double* e0, double* e1,
                                   double* ke_max, int* nself) {
    const char* path = tc_model_path("mujoco_humanoid/humanoid.xml");
    FILE* f = fopen(path, "rb");
    SNT_CHECK(f);
    char* text = calloc(1, 1 << 16);
    size_t n = fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    char *a = strstr(text, "<contact>"), *b = strstr(text, "</contact>");
    if (strip && a && b) memset(a, ' ', (size_t)(b + strlen("</contact>") - a));
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    sn_model* m = NULL;
    SNT_STATUS_OK(sn_load_mjcf_string(text, n, "humanoid.xml", dir, NULL, &m, NULL));
    free(text);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_CHECK(ground_world(m, &w, &s) == 0);
    sn_system_set_self_collision(s, 1);
    *e0 = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
    *ke_max = *deepest = 0;
    *nself = 0;
    for (int k = 0; k < 3000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        *ke_max = fmax(*ke_max, sn_system_kinetic_energy(s));
        for (int i = 0; i < sn_system_contact_count(s); i++) {
            sn_contact c;
            SNT_STATUS_OK(sn_system_contact(s, i, &c));
            *nself += c.self;
            if (c.self && k == 0) *deepest = fmax(*deepest, c.depth);
        }
    }
    *e1 = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_mujoco_humanoid_with_self_collision(void) {
    if (!tc_model_path("mujoco_humanoid/humanoid.xml")) {
        printf("  ../shared/models absent\n");
        return SNT_SKIP;
    }
    for (int strip = 0; strip < 2; strip++) {
        double deepest, e0, e1, ke_max;
        int nself;
        SNT_CHECK(humanoid_self_collision(strip, &deepest, &e0, &e1, &ke_max, &nself) == 0);
        printf("  %s: deepest self-contact at the start %.3f m; 3 s: energy %.1f J -> %.1f J, "
               "kinetic at most %.1f J; %d self-contacts over the steps\n",
               strip ? "without <contact>" : "as loaded", deepest, e0, e1, ke_max, nself);
        SNT_CHECK(isfinite(e1) && e1 < e0 && ke_max < 400);
        SNT_CHECK(deepest < 0.01 && nself > 0);
    }
    return 0;
}

SNT_SUITE(SNT_TEST(test_humanoid_falls_and_rests),
          SNT_TEST(test_mujoco_humanoid_with_self_collision))
