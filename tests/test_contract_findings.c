// SPDX-License-Identifier: Apache-2.0
// test_contract_findings.c: issue 17's findings 2, 3 and 4, call by call: the calls that crashed
// return their documented value and say why (sn_last_error); the refusals that left no message,
// a stale one or a misleading one name the argument and the reason; a finite quaternion is
// normalized without overflow or underflow; meaningless time steps are refused; a runaway state
// is reported as one, not as a singular mass matrix. docs/contracts.md.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static sn_model* pendulum(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/double_pendulum.urdf", SNT_SOURCE_DIR);
    return tc_load_file(path, 1);
}

// the thread's last error holds every word of `words` (| separated)
static int says(const char* call, const char* words) {
    const char* msg = sn_last_error();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", words);
    for (char* w = strtok(buf, "|"); w; w = strtok(NULL, "|"))
        SNT_CHECK_MSG(strstr(msg, w) != NULL, "%s: the message '%s' lacks '%s'", call, msg, w);
    return 0;
}

#define SAYS(call, words)                                                                          \
    do {                                                                                           \
        if (says(#call, words)) return 1;                                                          \
    } while (0)

static int test_finding2_calls_that_crashed(void) {
    sn_model* m = pendulum();
    SNT_CHECK(m != NULL);
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(tc_world_open(m, 1e-3, &w, &s));
    sn_clear_last_error();
    SNT_CHECK(sn_system_q(NULL) == NULL);
    SAYS(sn_system_q, "sn_system_q|s is NULL");
    sn_clear_last_error();
    SNT_CHECK(sn_system_model(NULL) == NULL);
    SAYS(sn_system_model, "sn_system_model|s is NULL");
    sn_clear_last_error();
    SNT_CHECK(isnan(sn_system_kinetic_energy(NULL)));
    SAYS(sn_system_kinetic_energy, "sn_system_kinetic_energy|s is NULL");
    sn_clear_last_error();
    SNT_CHECK(sn_system_mass_matrix(NULL) == NULL);
    SAYS(sn_system_mass_matrix, "sn_system_mass_matrix|s is NULL");
    sn_clear_last_error();
    sn_world_gravity(w, NULL);
    SAYS(sn_world_gravity, "sn_world_gravity|g is NULL");
    SNT_CHECK(strcmp(sn_world_last_error(w), sn_last_error()) == 0);
    double g[3] = {1, 2, 3};
    sn_world_gravity(NULL, g);
    SNT_CHECK(isnan(g[0]) && isnan(g[1]) && isnan(g[2]));
    // a frame out of range: NaN outputs, the frame named
    sn_data* d = sn_system_data(s);
    double pos[3] = {0}, rot[9] = {0};
    int bad[] = {-1, m->nframe, 1 << 30};
    for (int i = 0; i < 3; i++) {
        sn_clear_last_error();
        sn_frame_pose(m, d, bad[i], pos, rot);
        SNT_CHECK(isnan(pos[0]) && isnan(pos[2]) && isnan(rot[0]) && isnan(rot[8]));
        SAYS(sn_frame_pose, "sn_frame_pose|frame|out of range");
    }
    // and a good one still works
    SNT_STATUS_OK(sn_fk(m, d));
    sn_frame_pose(m, d, 1, pos, rot);
    SNT_CHECK(isfinite(pos[0]) &&
              fabs(rot[0] * rot[0] + rot[3] * rot[3] + rot[6] * rot[6] - 1) < 1e-12);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

// refused with a message naming the argument; the world's message replaces the stale one
#define REFUSED(call, words)                                                                       \
    do {                                                                                           \
        sn_world_set_gravity(w, NULL); /* a stale message to replace */                            \
        sn_clear_last_error();                                                                     \
        SNT_CHECK_MSG((call) < 0, "%s was not refused", #call);                                    \
        if (says(#call, words)) return 1;                                                          \
        SNT_CHECK_MSG(strcmp(sn_world_last_error(w), sn_last_error()) == 0,                        \
                      "%s: the world's message '%s' is stale", #call, sn_world_last_error(w));     \
    } while (0)

static int test_finding3_refusals_say_why(void) {
    sn_model* m = pendulum();
    SNT_CHECK(m != NULL);
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(tc_world_open(m, 1e-3, &w, &s));
    double nan = NAN, u[2] = {0, 0};
    REFUSED(sn_world_set_ground(w, 1, nan), "height|not finite");
    REFUSED(sn_world_set_solver(w, 10, nan), "tolerance");
    REFUSED(sn_world_set_solver(w, -3, 1e-8), "max_iterations|-3");
    REFUSED(sn_system_set_scheme(s, (sn_scheme)9), "scheme 9");
    REFUSED(sn_system_set_control_mode(s, (sn_control_mode)5), "control mode 5");
    REFUSED(sn_world_set_material_pair(w, 3, 16, 0.5, 0, 0), "b 16|0 to 15");
    REFUSED(sn_system_set_body_material(s, 1, 16), "material");
    REFUSED(sn_system_set_body_material(s, 99, 0), "body");
    REFUSED(sn_system_set_collision_filter(s, -1, 1, 1), "body");
    REFUSED(sn_system_set_state(s, NULL, m->nq, u, m->nv), "q is NULL");
    SNT_CHECK_MSG(strstr(sn_last_error(), "entries") == NULL, "a NULL q is not a size: '%s'",
                  sn_last_error());
    REFUSED(sn_system_set_u(s, NULL, m->nv), "u is NULL");
    sn_contact c;
    REFUSED(sn_system_contact(s, 5, &c), "contact i 5");
    double imp[3];
    REFUSED(sn_system_constraint(s, 5, imp, NULL), "constraint i 5");
    double f[3], t[3];
    REFUSED(sn_system_joint_wrench(s, 99, f, t), "ujoint 99");
    REFUSED(sn_system_set_actuator_torque(s, 9, 1), "actuator i 9");
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_finding4_quaternions(void) {
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &s));
    double q[7] = {0, 0, 1, 1e200, 1e200, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    const double* qs = sn_system_q(s);
    double h = sqrt(0.5);
    printf("  (1e200, 1e200, 0, 0) stored as (%.17g, %.17g, %.3g, %.3g)\n", qs[3], qs[4], qs[5],
           qs[6]);
    SNT_NEAR(qs[3], h, 2e-16);
    SNT_NEAR(qs[4], h, 2e-16);
    SNT_CHECK(qs[5] == 0 && qs[6] == 0);
    SNT_STATUS_OK(sn_world_integrate(w));
    double tiny[7] = {0, 0, 1, 1e-170, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(s, tiny, 7, u, 6));
    qs = sn_system_q(s);
    SNT_CHECK(qs[3] == 1 && qs[4] == 0 && qs[5] == 0 && qs[6] == 0);
    SNT_STATUS_OK(sn_world_integrate(w));
    double zero[7] = {0, 0, 1, 0, 0, 0, 0};
    SNT_CHECK(sn_system_set_state(s, zero, 7, u, 6) == SN_ERR_ARG);
    SAYS(sn_system_set_state, "quaternion|zero");
    // the target of a PD servo and a raw data's state take the same rule
    sn_model* mm = NULL;
    sn_world_destroy(w);
    (void)mm;
    return 0;
}

static int test_finding4_time_steps(void) {
    sn_world* w;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    double bad[] = {5e-324, 1e300, 0, -1e-3, NAN, INFINITY, 0.999e-9, 1.001};
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        sn_clear_last_error();
        SNT_CHECK_MSG(sn_world_set_timestep(w, bad[i]) == SN_ERR_ARG, "dt %g accepted", bad[i]);
        SAYS(sn_world_set_timestep, "dt|outside");
        sn_world_opts o = {0};
        o.timestep = bad[i];
        sn_world* w2 = NULL;
        sn_error err;
        if (bad[i] != 0) {
            SNT_CHECK(sn_world_create(&o, &w2, &err) == SN_ERR_ARG && w2 == NULL);
            SNT_CHECK(strstr(err.msg, "timestep") != NULL);
        }
    }
    SNT_STATUS_OK(sn_world_set_timestep(w, SN_TIMESTEP_MIN));
    SNT_STATUS_OK(sn_world_set_timestep(w, SN_TIMESTEP_MAX));
    SNT_CHECK(sn_world_timestep(w) == 1.0);
    sn_world_destroy(w);
    return 0;
}

// a state far out of any physics: the step fails, keeps the state, and says it ran away
static int test_finding4_runaway_is_not_singular(void) {
    sn_model* m = pendulum();
    SNT_CHECK(m != NULL);
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(tc_world_open(m, 1e-3, &w, &s));
    sn_world* wb;
    sn_system* b;
    char hp[1024];
    snprintf(hp, sizeof hp, "%s/models/humanoid.urdf", SNT_SOURCE_DIR);
    sn_model* hm = tc_load_file(hp, 1);
    SNT_CHECK(hm != NULL);
    sn_world* wh;
    sn_system* h;
    SNT_STATUS_OK(tc_world_open(hm, 1e-3, &wh, &h));
    double hq[64];
    memcpy(hq, sn_system_q(h), (size_t)hm->nq * sizeof(double));
    hq[0] = 1e100;
    SNT_CHECK(hm->nq <= 64);
    SNT_STATUS_OK(sn_world_create(NULL, &wb, NULL));
    SNT_STATUS_OK(sn_world_add_sphere(wb, 0.1, 1, &b));
    struct {
        sn_world* w;
        sn_system* s;
        double q[64], u[64];
        const char* what;
    } cases[] = {
        {w, s, {0, 0}, {1e200, -1e200}, "pendulum at 1e200 rad/s"},
        {wh, h, {1e100, 0, 0.8, 1, 0, 0, 0}, {0}, "humanoid 1e100 m away"},
        {wb,
         b,
         {0, 0, 0, 1, 0, 0, 0},
         {0, 0, 0, 1e160, 1e160, 1e160},
         "sphere spinning 1e160 rad/s"},
    };
    memcpy(cases[1].q, hq, sizeof hq);
    for (int i = 0; i < 3; i++) {
        const sn_model* mi = sn_system_model(cases[i].s);
        SNT_STATUS_OK(sn_system_set_state(cases[i].s, cases[i].q, mi->nq, cases[i].u, mi->nv));
        sn_status st = sn_world_integrate(cases[i].w);
        const char* msg = sn_world_last_error(cases[i].w);
        printf("  %s: %s, '%s'\n", cases[i].what, sn_status_str(st), msg);
        SNT_CHECK_MSG(st == SN_ERR_NONFINITE, "%s: %s", cases[i].what, sn_status_str(st));
        SNT_CHECK_MSG(strstr(msg, "ran away") || strstr(msg, "non-finite"), "%s: '%s'",
                      cases[i].what, msg);
        SNT_CHECK_MSG(strstr(msg, "singular") == NULL, "%s: '%s'", cases[i].what, msg);
        SNT_CHECK(sn_system_q(cases[i].s)[0] == cases[i].q[0]);
        SNT_CHECK(sn_system_u(cases[i].s)[0] == cases[i].u[0]);
    }
    sn_world_destroy(wh);
    sn_model_destroy(hm);
    sn_world_destroy(wb);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_finding2_calls_that_crashed), SNT_TEST(test_finding3_refusals_say_why),
          SNT_TEST(test_finding4_quaternions), SNT_TEST(test_finding4_time_steps),
          SNT_TEST(test_finding4_runaway_is_not_singular))
