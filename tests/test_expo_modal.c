// SPDX-License-Identifier: Apache-2.0
// test_expo_modal.c: Expo's modal path (src/soft/expo.c's integrals, src/math/lds_modal.c;
// docs/expo.md "The modal path"): a point mass against the closed-form damped oscillation with it
// on; the path taken exactly when it should be (B = c K with one c, the standard balanced
// exponential: then its figures differ from the exponential's in the last digits, else they are
// the exponential's bit for bit); Solo12 dropped on its feet, modal against the exponential;
// the option's refusals and its checkpoint.
#include "common.h"
#include "harness/snt.h"
#include "soft_setup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAV 9.81

// one free sphere of mass 1 whose centre is a soft point, at z at rest, on soft parameters P
// (NULL: the defaults): soft_setup.c's
static int point_mass1(sn_world** w, sn_system** s, double dt, const sn_soft_params* P, double z) {
    pm p;
    if (point_mass(&p, 1.0, dt, P, z)) return 1;
    *w = p.w, *s = p.s;
    return 0;
}

// the mass m on the spring k and damper b under gravity from rest with the spring unloaded at
// z0: z(t), z'(t)
static void oscillation(double m, double k, double b, double z0, double t, double* z, double* zd) {
    double wn = sqrt(k / m), zeta = b / (2 * sqrt(k * m)), wd = wn * sqrt(1 - zeta * zeta);
    double x0 = m * GRAV / k, s = zeta * wn, e = exp(-s * t);
    double c = cos(wd * t), sn = sin(wd * t), B = s * x0 / wd;
    *z = z0 - x0 + e * (x0 * c + B * sn);
    *zd = e * (-s * (x0 * c + B * sn) + (-x0 * wd * sn + B * wd * c));
}

// with the modal path on, Expo is the closed form to 1e-9 at 1, 10 and 50 ms (the default
// parameters: B / K = 3e-3 on every row)
static int test_modal_point_mass_exact(void) {
    const double dts[3] = {0.001, 0.01, 0.05};
    for (int k = 0; k < 3; k++) {
        sn_world* w;
        sn_system* s;
        if (point_mass1(&w, &s, dts[k], NULL, -0.01)) return 1;
        SNT_CHECK(sn_system_expo_modal(s) == 1); // the default
        SNT_STATUS_OK(sn_system_set_expo_modal(s, 1));
        int steps = (int)(0.2 / dts[k] + 0.5);
        double worst = 0, worstv = 0;
        for (int i = 1; i <= steps; i++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            double z, zd;
            oscillation(1.0, 1e5, 300, -0.01, i * dts[k], &z, &zd);
            worst = fmax(worst, fabs(sn_system_q(s)[2] - z));
            worstv = fmax(worstv, fabs(sn_system_u(s)[2] - zd));
            SNT_CHECK(sn_system_soft_contact_count(s) == 1);
        }
        printf("  Expo modal, dt %g ms: largest error %.3e m, %.3e m/s over 0.2 s\n", 1e3 * dts[k],
               worst, worstv);
        SNT_CHECK(worst < 2e-17 && worstv < 5e-15); // measured 3.5e-18 m, 6.2e-16 m/s
        sn_world_destroy(w);
    }
    return 0;
}

// the point mass sliding and pressed in over 20 steps of 10 ms with the given parameters and
// Expo options (modal on or off): the final (q, u)
static int slide(const sn_soft_params* P, int modal, int max_mul, int full, double* x) {
    sn_world* w;
    sn_system* s;
    if (point_mass1(&w, &s, 0.01, P, -0.002)) return 1;
    double q[7] = {0, 0, -0.002, 1, 0, 0, 0}, u[6] = {0.1, 0.2, 0.3, 0.3, -0.2, 0.05};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_expo_options(s, max_mul, 1, full));
    SNT_STATUS_OK(sn_system_set_expo_modal(s, modal));
    for (int i = 0; i < 20; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    memcpy(x, sn_system_q(s), 7 * sizeof(double));
    memcpy(x + 7, sn_system_u(s), 6 * sizeof(double));
    sn_world_destroy(w);
    return 0;
}

static double maxdiff(const double* a, const double* b, int n) {
    double d = 0;
    for (int i = 0; i < n; i++)
        d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

// the path is taken when every row has the same b / k (also with K_t != K_n) and the options are
// the standard balanced exponential: its figures then differ from the exponential's, by less
// than 1e-10; otherwise (different ratios, a cap, the full mode, the option off) the exponential
// runs, bit for bit the same as with the option off
static int test_modal_condition(void) {
    sn_soft_params P = {1e5, 1e5, 300, 300, 0.5, 0};
    sn_soft_params Q = {1e5, 4e4, 300, 120, 0.5, 0};  // K_t != K_n, the same ratio 3e-3
    sn_soft_params R = {1e5, 4e4, 300, 300, 0.5, 0};  // ratios 3e-3 and 7.5e-3
    sn_soft_params Z = {1e5, 4e4, 0, 0, 0.5, 0};      // undamped: ratio 0
    const sn_soft_params* sets[4] = {&P, &Q, &R, &Z}; // modal for all but R
    for (int k = 0; k < 4; k++) {
        double on[13], off[13];
        if (slide(sets[k], 1, -1, 0, on) || slide(sets[k], 0, -1, 0, off)) return 1;
        double d = maxdiff(on, off, 13);
        printf("  parameter set %d: modal vs exponential, largest difference %.3e\n", k, d);
        if (k == 2) {
            SNT_CHECK(d == 0);
        } else {
            SNT_CHECK_MSG(d > 0, "set %d: the modal path was not taken", k);
            SNT_CHECK(d < 1e-10);
        }
    }
    for (int mul = 0; mul <= 4; mul += 2) { // the paper's capped exponentials stay as they are
        double on[13], off[13];
        if (slide(&P, 1, mul, 0, on) || slide(&P, 0, mul, 0, off)) return 1;
        SNT_CHECK(maxdiff(on, off, 13) == 0);
    }
    double on[13], off[13];
    if (slide(&P, 1, -1, 1, on) || slide(&P, 0, -1, 1, off)) return 1;
    SNT_CHECK(maxdiff(on, off, 13) == 0);
    return 0;
}

// Solo12 (the 2020 URDF) dropped from 0.1 m above its standing pose, its joint PD holding the
// pose, 1 s of 2 ms steps on the default parameters: the modal path against the exponential
static int solo_drop(int modal, double* traj, int steps) {
    const char* path = tc_model_path("erd_solo/robots/solo12_f15b08f_2020-04-28.urdf");
    if (!path) return SNT_SKIP;
    sn_model* m = tc_load_file(path, 1);
    SNT_CHECK(m && m->nv == 18 && m->nq == 19);
    sn_world* w;
    sn_system* s;
    if (soft_world(0.002, &w)) return 1;
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    SNT_STATUS_OK(sn_system_set_expo_modal(s, modal));
    const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
    const double zero[3] = {0, 0, 0};
    for (int k = 0; k < 4; k++)
        SNT_STATUS_OK(
            sn_system_add_soft_point_frame(s, sn_model_find(m, SN_OBJ_FRAME, feet[k]), zero, NULL));
    double q[19] = {0, 0, 0.4, 1, 0, 0, 0, 0, 0.8, -1.6, 0, 0.8, -1.6, 0, -0.8, 1.6, 0, -0.8, 1.6};
    double u[18] = {0}, kp[18] = {0}, kd[18] = {0};
    for (int i = 6; i < 18; i++)
        kp[i] = 5, kd[i] = 0.2;
    SNT_STATUS_OK(sn_system_set_state(s, q, 19, u, 18));
    SNT_STATUS_OK(sn_system_set_pd_gains(s, kp, kd, 18));
    SNT_STATUS_OK(sn_system_set_pd_target(s, q, 19, u, 18));
    int touched = 0;
    for (int k = 0; k < steps; k++) {
        sn_status st = sn_world_integrate(w);
        SNT_CHECK_MSG(st == SN_OK, "step %d: %s", k, sn_world_last_error(w));
        memcpy(traj + (size_t)k * 37, sn_system_q(s), 19 * sizeof(double));
        memcpy(traj + (size_t)k * 37 + 19, sn_system_u(s), 18 * sizeof(double));
        if (sn_system_soft_contact_count(s) == 4) touched++;
    }
    SNT_CHECK(touched > steps / 2); // it lands and stands on its 4 feet
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_modal_solo_drop(void) {
    enum { STEPS = 500 };
    static double a[STEPS * 37], b[STEPS * 37];
    int st = solo_drop(1, a, STEPS);
    if (st) return st;
    if ((st = solo_drop(0, b, STEPS))) return st;
    double dq = 0, du = 0, um = 0;
    int at = 0;
    for (int k = 0; k < STEPS; k++) {
        double x = maxdiff(a + k * 37, b + k * 37, 19),
               y = maxdiff(a + k * 37 + 19, b + k * 37 + 19, 18);
        if (x > dq) dq = x, at = k;
        du = fmax(du, y);
        for (int i = 0; i < 18; i++)
            um = fmax(um, fabs(b[k * 37 + 19 + i]));
    }
    printf("  Solo12 dropped 1 s at 2 ms, modal vs exponential: largest difference %.3e in q (step "
           "%d), %.3e in u (|u| up to %.3f)\n",
           dq, at, du, um);
    SNT_CHECK(dq > 0);
    // docs/expo.md: 8.9e-16 m in q, 1.7e-13 in u (asserted 1e-14, 2e-13 of |u|)
    SNT_CHECK(dq < 1e-14 && du < 2e-13 * fmax(1, um));
    return 0;
}

static int test_modal_option(void) {
    sn_world* w;
    sn_system* s;
    if (point_mass1(&w, &s, 0.01, NULL, -0.001)) return 1;
    SNT_CHECK(sn_system_set_expo_modal(s, 2) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(w), "modal") != NULL);
    SNT_CHECK(sn_system_set_expo_modal(NULL, 1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_expo_modal(NULL) == SN_NONE);
    SNT_STATUS_OK(sn_system_set_expo_modal(s, 0));
    SNT_CHECK(sn_system_expo_modal(s) == 0);
    // the option is configuration: a checkpoint taken with it off is refused by a world with it
    // on, and taken by one with it off
    SNT_STATUS_OK(sn_world_integrate(w));
    size_t need = 0;
    SNT_STATUS_OK(sn_world_checkpoint_size(w, &need));
    static unsigned char buf[1 << 16];
    SNT_CHECK(need <= sizeof buf);
    SNT_STATUS_OK(sn_world_save_state(w, buf, need, NULL));
    sn_world* w2;
    sn_system* s2;
    if (point_mass1(&w2, &s2, 0.01, NULL, -0.001)) return 1;
    SNT_CHECK(sn_world_load_state(w2, buf, need) != SN_OK);
    SNT_STATUS_OK(sn_system_set_expo_modal(s2, 0));
    SNT_STATUS_OK(sn_world_load_state(w2, buf, need));
    sn_world_destroy(w2);
    sn_world_destroy(w);
    return 0;
}

SNT_SUITE(SNT_TEST(test_modal_point_mass_exact), SNT_TEST(test_modal_condition),
          SNT_TEST(test_modal_solo_drop), SNT_TEST(test_modal_option))
