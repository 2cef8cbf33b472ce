// SPDX-License-Identifier: Apache-2.0
// test_expo_experiments.c: the machinery of the Expo paper's experiments (bench/expo/
// experiments.c, spec A.14) on solo-trot's first 50 ms (25 control steps of 2 ms): the reset to a
// ground-truth checkpoint (anchors and flags included) reproduces the ground truth bit for bit;
// each method's local error against its own ground truth falls with n_dt towards 0, Expo's at first
// order; Expo in one sub-step of the control step (jump 10 ms, squat 40 ms, trot 2 ms) is stable
// where explicit Euler is not. Skipped without ../shared.
#include "common.h"
#include "experiments.h"
#include "harness/snt.h"
#include "sinew/sn_soft.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEPS 25 // 50 ms of the trot

static int open_trot(expo_sim* x, double dt) {
    char err[EXPO_ERR_LEN];
    const char* shared = tc_shared_dir();
    if (!shared || !tc_model_path("consim_expo/references/trot_feedback.npy")) return -1;
    if (expo_sim_open(x, "trot", shared, NULL, dt, err) != 0) {
        printf("  %s\n", err);
        return -2;
    }
    return 0;
}

// the helpers' bookkeeping (A.14's sub-step counts)
static int test_counts(void) {
    SNT_CHECK(expo_i_gt(0.002) == 7 && expo_i_gt(0.01) == 9 && expo_i_gt(0.04) == 11);
    SNT_CHECK(expo_n_gt(EXPO_M_EXPO2, 0.002) == 128 && expo_n_gt(EXPO_M_EULER, 0.002) == 1024);
    SNT_CHECK(expo_i_max(EXPO_M_RK4, 0.01) == 6 && expo_i_max(EXPO_M_EULER, 0.01) == 9);
    SNT_CHECK(expo_method_truth(EXPO_M_EXPO0) == EXPO_M_EXPO);
    SNT_CHECK(expo_method_truth(EXPO_M_IMPLICIT_EULER) == EXPO_M_IMPLICIT_EULER);
    for (int m = 0; m < EXPO_M_COUNT; m++)
        SNT_CHECK(expo_method_parse(expo_method_name((expo_method)m)) == m);
    SNT_CHECK(expo_method_parse("expo5") == -1);
    return 0;
}

// Expo: the reset reproduces the ground truth exactly, the error falls at first order
static int test_expo_local_error(void) {
    expo_sim x;
    int rc = open_trot(&x, 0);
    if (rc == -1) return SNT_SKIP;
    SNT_CHECK(rc == 0);
    expo_truth gt;
    SNT_CHECK_MSG(expo_truth_run(&x, EXPO_M_EXPO, STEPS, &gt) == 0, "%s", x.err);
    SNT_CHECK(gt.nsteps == STEPS && !gt.failed && gt.n == 128);
    // the feet are in contact at every step: the anchors matter
    sn_soft_point p;
    SNT_CHECK(sn_system_soft_contact_count(x.s) == 4);
    SNT_CHECK(sn_system_soft_point(x.s, 0, &p) == SN_OK && p.active);
    expo_local e;
    // the ground truth's own integrator and sub-steps from its checkpoints: bit for bit
    SNT_CHECK_MSG(expo_local_error(&x, &gt, EXPO_M_EXPO, gt.n, &e) == 0, "%s", x.err);
    printf("  expo x 128 from the ground truth's checkpoints: error %.3g\n", e.err_inf);
    SNT_CHECK(e.nsteps == STEPS && e.nfail == 0 && e.err_inf < 1e-15 && e.err_2 < 1e-15);
    // (not 0: the difference of equal configurations through Pinocchio's quaternions) and the
    // state itself bit for bit: the last step's end equals the ground truth's
    SNT_CHECK(
        memcmp(sn_system_q(x.s), gt.q + (size_t)STEPS * x.nq, (size_t)x.nq * sizeof(double)) == 0);
    SNT_CHECK(
        memcmp(sn_system_u(x.s), gt.u + (size_t)STEPS * x.nv, (size_t)x.nv * sizeof(double)) == 0);
    // the state alone is not enough: with the anchors released (a new contact at the point's
    // position) the same step misses the springs' stretch
    {
        SNT_CHECK(sn_world_load_state(x.w, gt.cp[10], gt.cp_len[10]) == SN_OK);
        sn_system_soft_release(x.s);
        SNT_CHECK(expo_sim_step(&x, 10) == 0);
        double d = 0;
        for (int i = 0; i < x.nv; i++)
            d = fmax(d, fabs(sn_system_u(x.s)[i] - gt.u[11 * x.nv + i]));
        printf("  anchors released at step 10: velocity off by %.3g\n", d);
        SNT_NEAR(d, 0.117, 0.01); // docs/expo.md: 0.12
    }
    double prev = 0, err[5];
    for (int i = 0; i <= 4; i++) {
        SNT_CHECK_MSG(expo_local_error(&x, &gt, EXPO_M_EXPO, 1 << i, &e) == 0, "%s", x.err);
        err[i] = e.err_inf;
        printf("  expo x %2d: err_inf %.4e err_2 %.4e\n", 1 << i, e.err_inf, e.err_2);
        SNT_CHECK(e.nfail == 0 && e.err_2 >= e.err_inf && e.err_2 <= sqrt(36.0) * e.err_inf);
        if (i) {
            double order = log2(prev / e.err_inf);
            printf("    order %.3f\n", order);
            SNT_CHECK(order > 0.95 && order < 1.4); // docs/expo.md: 1.09 to 1.25
        }
        prev = e.err_inf;
    }
    // docs/expo.md: 2.3e-5 at one sub-step, 9.2e-7 at 16 (asserted 3e-5, 1.2e-6)
    SNT_CHECK(err[0] < 3e-5 && err[4] < 1.2e-6 && err[4] < err[0] / 12);
    // Expo with 0 and 2 matrix products against the same ground truth: larger errors at one
    // sub-step of 2 ms (the Pade approximants without scaling), converging as h falls
    expo_local e0, e2, e0f;
    SNT_CHECK(expo_local_error(&x, &gt, EXPO_M_EXPO0, 1, &e0) == 0);
    SNT_CHECK(expo_local_error(&x, &gt, EXPO_M_EXPO2, 1, &e2) == 0);
    SNT_CHECK(expo_local_error(&x, &gt, EXPO_M_EXPO0, 16, &e0f) == 0);
    printf("  one sub-step: expo0 %.4e expo2 %.4e expo %.4e; expo0 x 16 %.4e\n", e0.err_inf,
           e2.err_inf, err[0], e0f.err_inf);
    // docs/expo.md: expo0 330x worse at one sub-step (asserted 200x)
    SNT_CHECK(e0.err_inf > 200 * err[0] && e0f.err_inf < e0.err_inf / 8);
    expo_truth_free(&gt);
    expo_sim_close(&x);
    return 0;
}

// explicit Euler, RK4, implicit Euler: each against its own ground truth, the error falls
// towards 0 as n_dt grows (and is 0 at the ground truth's n)
static int test_baselines_local_error(void) {
    expo_sim x;
    int rc = open_trot(&x, 0);
    if (rc == -1) return SNT_SKIP;
    SNT_CHECK(rc == 0);
    const expo_method ms[3] = {EXPO_M_EULER, EXPO_M_RK4, EXPO_M_IMPLICIT_EULER};
    const int lo[3] = {32, 16, 1}, hi[3] = {128, 64, 16};
    for (int j = 0; j < 3; j++) {
        expo_truth gt;
        SNT_CHECK_MSG(expo_truth_run(&x, ms[j], STEPS, &gt) == 0, "%s", x.err);
        SNT_CHECK(gt.nsteps == STEPS && !gt.failed);
        expo_local a, b, z;
        SNT_CHECK(expo_local_error(&x, &gt, ms[j], lo[j], &a) == 0);
        SNT_CHECK(expo_local_error(&x, &gt, ms[j], hi[j], &b) == 0);
        SNT_CHECK(expo_local_error(&x, &gt, ms[j], gt.n, &z) == 0);
        double order = log2(a.err_inf / b.err_inf) / log2((double)hi[j] / lo[j]);
        printf("  %s: x %d %.4e, x %d %.4e (order %.2f), x %d (its ground truth) %.3g\n",
               expo_method_name(ms[j]), lo[j], a.err_inf, hi[j], b.err_inf, order, gt.n, z.err_inf);
        SNT_CHECK(z.err_inf < 1e-15 && a.nfail == 0 && b.nfail == 0);
        // explicit and implicit Euler first order, RK4 at least that (its error here is
        // dominated by the contacts' non-smooth force)
        // docs/expo.md: 1.08, 4.25, 0.86 (asserted within 0.15)
        const double doc[3] = {1.08, 4.25, 0.86};
        SNT_CHECK(order > 0.8 && order < (j == 1 ? 5.0 : 1.6));
        SNT_NEAR(order, doc[j], 0.15);
        SNT_CHECK(b.err_inf < 1e-3);
        // another family's ground truth is refused
        if (j == 0) SNT_CHECK(expo_local_error(&x, &gt, EXPO_M_RK4, 1, &a) != 0);
        expo_truth_free(&gt);
    }
    expo_sim_close(&x);
    return 0;
}

// Table II's figures: Expo in one sub-step of the control step stays bounded on solo-jump at
// 10 ms (the first 1.2 s: the take-off and the rise; the landing fails with every integrator,
// docs/expo.md) and on solo-squat at 40 ms (4 s), explicit Euler in one sub-step does not (h >
// 2 B / K = 6 ms). (The trot's loop at 10 ms fails by 2.03 s with Expo, explicit Euler and
// RK4 at any sub-step count: its feedback held over 10 ms; at the trot's 2 ms Expo is stable.)
static int test_stability(void) {
    const char* shared = tc_shared_dir();
    if (!shared || !tc_model_path("consim_expo/references/jump_feedback.npy")) return SNT_SKIP;
    const char* scen[3] = {"jump", "squat", "trot"};
    const int n[3] = {120, 100, 500};
    for (int i = 0; i < 3; i++) {
        expo_sim x;
        char err[EXPO_ERR_LEN];
        SNT_CHECK_MSG(expo_sim_open(&x, scen[i], shared, NULL, 0, err) == 0, "%s", err);
        int k = expo_stability(&x, EXPO_M_EXPO, 1, n[i]);
        double sp = expo_sim_speed(&x);
        int ke = expo_stability(&x, EXPO_M_EULER, 1, n[i]);
        printf("  %s, expo x 1 at %g ms: %d of %d steps, |u| %.3g at the end; euler x 1 failed "
               "at step %d\n",
               scen[i], 1e3 * x.dt, k, n[i], sp, ke);
        SNT_CHECK(k == n[i] && sp < 100);
        // explicit Euler at 2 ms is below 2 B / K: it fails later (the feet's modes), not at once
        SNT_CHECK(ke >= 0 && ke < (i == 2 ? n[i] : 20));
        expo_sim_close(&x);
    }
    return 0;
}

SNT_SUITE(SNT_TEST(test_counts), SNT_TEST(test_expo_local_error),
          SNT_TEST(test_baselines_local_error), SNT_TEST(test_stability))
