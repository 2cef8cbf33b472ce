// SPDX-License-Identifier: Apache-2.0
// test_arm.c: the arm component of seed 002 (issue 15, sn_arm.h): the Cayley step does no work
// (per step on random chains, over 10,000 steps on a constant-M gimbal, and a gyroscope that
// precesses at tau / |H|); the equivalence with an sn_system SEMI_IMPLICIT step (a chain of the
// seed's parameters, models/arm7.urdf, the shared UR5) and the documented damping difference; the
// carried inertia (the step's momentum identity, a released payload, a payload's weight, C as a
// link's own inertia); the frames against the model's kinematics and the seed's FK formula, and
// the link wrenches through the Jacobians, the placement turning gravity. The stops, friction,
// refusals and allocation are test_arm_pgs.c's. Every test prints what it measured.
#include "common.h"
#include "harness/snt.h"
#include "test_arm_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// independent of the arm: the model's own kinematics at (q, qd)
static sn_data* model_data(const sn_model* m, const double* q, const double* qd) {
    sn_data* d = NULL;
    if (sn_data_create(m, NULL, &d, NULL) != SN_OK) return NULL;
    if (sn_set_state(m, d, q, m->nq, qd, m->nv) != SN_OK || sn_fk(m, d) != SN_OK ||
        sn_fk_vel(m, d) != SN_OK) {
        sn_data_destroy(d);
        return NULL;
    }
    return d;
}

static void cross3(const double* a, const double* b, double* c) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

// y = R x (3 x 3, row-major)
static void rot3(const double* R, const double* x, double* y) {
    for (int i = 0; i < 3; i++)
        y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
}

static void random_vec(int n, double lo, double hi, double* x) {
    for (int i = 0; i < n; i++)
        x[i] = tc_uniform(lo, hi);
}

// ---- 1. the Cayley step does no work ----

// G = sum_k S_k^T [H_k]x S_k from the model's frame Jacobians (S_k = J_r of frame k, H_k turned
// into the world by frame k's rotation)
static int gyro_by_jacobians(sn_arm* a, const double* H, double* G) {
    const sn_model* m = sn_arm_model(a);
    int n = sn_arm_joint_count(a);
    sn_data* d = model_data(m, sn_arm_q(a), sn_arm_qd(a));
    if (!d) return -1;
    memset(G, 0, (size_t)n * n * sizeof *G);
    double jr[3 * TA_MAXN];
    for (int k = 0; k < n; k++) {
        double p[3], R[9], hw[3];
        int f = sn_arm_frame_id(a, k + 1);
        sn_frame_pose(m, d, f, p, R);
        rot3(R, H + 3 * k, hw);
        sn_frame_jacobian(m, d, f, NULL, jr);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double sj[3] = {jr[j], jr[n + j], jr[2 * n + j]}, c[3];
                cross3(hw, sj, c);
                G[i * n + j] += jr[i] * c[0] + jr[n + i] * c[1] + jr[2 * n + i] * c[2];
            }
    }
    sn_data_destroy(d);
    return 0;
}

static int test_cayley_no_work_per_step(void) {
    tc_seed(1501);
    double worst_e = 0, worst_res = 0, worst_g = 0, least_turn = 1e300;
    int trials = 300;
    for (int t = 0; t < trials; t++) {
        int n = 2 + t % 6;
        sn_arm_joint_desc j[TA_MAXN];
        ta_random_joints(n, 1, j);
        j[0].type = j[1].type = SN_JOINT_REVOLUTE; // two turning joints: G is not zero
        sn_arm* a = ta_arm(n, j, NULL, 0);
        SNT_CHECK(a != NULL);
        double q[TA_MAXN], qd[TA_MAXN], H[3 * TA_MAXN], Ms[TA_MAXN * TA_MAXN];
        double G[TA_MAXN * TA_MAXN], G2[TA_MAXN * TA_MAXN];
        random_vec(n, -1, 1, q);
        random_vec(n, -2, 2, qd);
        random_vec(3 * n, -3, 3, H);
        double dt = tc_uniform(0.001, 0.05);
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
        SNT_STATUS_OK(sn_arm_mass_matrix(a, NULL, Ms));
        SNT_STATUS_OK(sn_arm_gyroscopic_matrix(a, H, G));
        // skew exactly, and the seed's sum by the model's Jacobians
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++)
                SNT_CHECK_MSG(G[i * n + k] == -G[k * n + i], "G[%d][%d] = %.17g, G[%d][%d] = %.17g",
                              i, k, G[i * n + k], k, i, G[k * n + i]);
        SNT_CHECK(gyro_by_jacobians(a, H, G2) == 0);
        double gmax = 0, gerr = 0;
        for (int i = 0; i < n * n; i++) {
            gmax = fmax(gmax, fabs(G2[i]));
            gerr = fmax(gerr, fabs(G[i] - G2[i]));
        }
        worst_g = fmax(worst_g, gerr / gmax);
        sn_arm_inputs in = {0};
        in.momentum = H;
        SNT_STATUS_OK(sn_arm_step(a, dt, &in));
        sn_arm_report r;
        sn_arm_report_get(a, &r);
        const double* tp = r.theta_prime;
        // (Ms - dt/2 G) theta' = (Ms + dt/2 G) theta_n-dot
        double lhs[TA_MAXN], rhs[TA_MAXN], scale = 0, res = 0, turn = 0;
        for (int i = 0; i < n; i++) {
            lhs[i] = rhs[i] = 0;
            for (int k = 0; k < n; k++) {
                lhs[i] += (Ms[i * n + k] - 0.5 * dt * G[i * n + k]) * tp[k];
                rhs[i] += (Ms[i * n + k] + 0.5 * dt * G[i * n + k]) * qd[k];
            }
            scale = fmax(scale, fabs(rhs[i]));
            turn = fmax(turn, fabs(tp[i] - qd[i]));
        }
        for (int i = 0; i < n; i++)
            res = fmax(res, fabs(lhs[i] - rhs[i]) / scale);
        worst_res = fmax(worst_res, res);
        least_turn = fmin(least_turn, turn);
        double e0 = ta_quad(n, Ms, qd), e1 = ta_quad(n, Ms, tp);
        worst_e = fmax(worst_e, fabs(e1 - e0) / e0);
        sn_arm_destroy(a);
    }
    printf("  %d random chains (2..7 joints, sliders among them, random H, dt 1..50 ms): "
           "|theta'^T Ms theta' / theta-dot^T Ms theta-dot - 1| <= %.2e; Cayley residual %.2e; "
           "G vs sum S^T [H]x S by the Jacobians %.2e; least change of the velocity %.3f rad/s\n",
           trials, worst_e, worst_res, worst_g, least_turn);
    SNT_CHECK(worst_e < 1e-14);
    SNT_CHECK(worst_res < 1e-14);
    SNT_CHECK(worst_g < 1e-13);
    SNT_CHECK(least_turn > 1e-4); // the spin momenta did turn the velocity
    return 0;
}

// the gimbal of arm_design.md: joint 1 about z, joint 2 about y, both through one point; link 1
// spherical (c1), link 2 spherical (c2), centres of mass at the point: M = diag(c1 + c2, c2) at
// every angle and h = 0 at any velocity in zero gravity
#define GIM_C1 0.01
#define GIM_C2 0.02
static sn_arm* gimbal(void) {
    sn_arm_joint_desc j[2];
    memset(j, 0, sizeof j);
    j[0].axis[2] = 1;
    j[1].axis[1] = 1;
    j[0].mass = 1; // at the pivot: no part in M
    j[0].inertia[0] = j[0].inertia[3] = j[0].inertia[5] = GIM_C1;
    j[1].inertia[0] = j[1].inertia[3] = j[1].inertia[5] = GIM_C2;
    j[1].mass = 1;
    return ta_arm(2, j, NULL, 0);
}

static int test_cayley_energy_gimbal(void) {
    sn_arm* a = gimbal();
    SNT_CHECK(a != NULL);
    double qd[2] = {1.3, -0.7}, H[6] = {0, 0, 0, 0.4, -0.25, 0.3};
    SNT_STATUS_OK(sn_arm_set_state(a, NULL, 0, qd, 2));
    sn_arm_inputs in = {0};
    in.momentum = H;
    double e0 = sn_arm_kinetic_energy(a, NULL), dev = 0, mdev = 0;
    SNT_NEAR(e0, 0.5 * ((GIM_C1 + GIM_C2) * qd[0] * qd[0] + GIM_C2 * qd[1] * qd[1]), 1e-16);
    double turned = 0;
    for (int s = 0; s < 10000; s++) {
        SNT_STATUS_OK(sn_arm_step(a, 1e-3, &in));
        double e = sn_arm_kinetic_energy(a, NULL);
        dev = fmax(dev, fabs(e - e0) / e0);
        turned = fmax(turned, fabs(sn_arm_qd(a)[1] - qd[1]));
        if (s % 1000 == 0) {
            double M[4];
            SNT_STATUS_OK(sn_arm_mass_matrix(a, NULL, M));
            mdev = fmax(mdev, fmax(fabs(M[0] - GIM_C1 - GIM_C2), fabs(M[3] - GIM_C2)));
            mdev = fmax(mdev, fmax(fabs(M[1]), fabs(M[2])));
        }
    }
    double e1 = sn_arm_kinetic_energy(a, NULL);
    printf("  gimbal, H on link 2, 10,000 steps of 1 ms: kinetic energy drift %+.2e relative "
           "(largest %.2e), M constant to %.1e, joint 2's velocity moved by up to %.3f rad/s\n",
           (e1 - e0) / e0, dev, mdev, turned);
    SNT_CHECK(mdev < 1e-15);
    SNT_CHECK(dev < 1e-12);
    SNT_CHECK(turned > 0.1); // the gyroscopic coupling was at work
    sn_arm_destroy(a);
    return 0;
}

// A gyroscope: the gimbal's link 2 spins with H = h x (its own axes), a constant torque tau about
// joint 2 (y, perpendicular to H). Linearized at theta = 0 (G_12 = h cos theta_2, M constant):
//   I1 w1' = h w2,  I2 w2' = tau - h w1;  from rest: w1 = tau/h (1 - cos W t), W = h/sqrt(I1 I2),
//   theta_1(T) = tau/h (T - sin(W T)/W),  theta_2 = tau I1 / h^2 (1 - cos W t)  (small: it does
// not fall). The mean precession theta_1(T)/T differs from tau/h by at most 1/(W T) relative;
// the step (Cayley on the nutation, W dt = 0.04) and cos theta_2 add far less.
static int test_gyroscope_precesses(void) {
    double h = 10, tau = 0.5, dt = 1e-4, T = 2, I1 = GIM_C1 + GIM_C2, I2 = GIM_C2;
    double W = h / sqrt(I1 * I2);
    sn_arm* a = gimbal();
    SNT_CHECK(a != NULL);
    double H[6] = {0, 0, 0, h, 0, 0}, u[2] = {0, tau};
    sn_arm_inputs in = {0};
    in.momentum = H;
    in.torques = u;
    int steps = (int)(T / dt + 0.5);
    double th2max = 0;
    for (int s = 0; s < steps; s++) {
        SNT_STATUS_OK(sn_arm_step(a, dt, &in));
        th2max = fmax(th2max, fabs(sn_arm_q(a)[1]));
    }
    double rate = sn_arm_q(a)[0] / T, expect = tau / h;
    double lin = tau / h * (T - sin(W * T) / W);
    printf("  gyroscope h = %g N m s, tau = %g N m: mean precession %.8f rad/s (tau/h %.8f, "
           "relative %+.2e, bound 1/(W T) %.2e); theta_1(T) %.9f vs the linear solution %.9f; "
           "|theta_2| <= %.3e (2 tau I1/h^2 = %.3e)\n",
           h, tau, rate, expect, rate / expect - 1, 1 / (W * T), sn_arm_q(a)[0], lin, th2max,
           2 * tau * I1 / (h * h));
    SNT_CHECK(fabs(rate / expect - 1) < 1 / (W * T));
    SNT_CHECK(fabs(sn_arm_q(a)[0] - lin) < 1e-3 * lin);
    // theta_2: the nutation (amplitude 2 tau I1/h^2) on the first-order drift of the splitting
    // (Cayley, then dt M^-1 u): the discrete steady state v = -G^-1 u + dt/2 M^-1 u gives joint 2
    // dt tau / (2 I2), so theta_2(T) = dt tau T / (2 I2) within the nutation
    double drift = dt * tau * T / (2 * I2);
    printf("  theta_2(T) %.4e, the splitting's drift dt tau T / (2 I2) = %.4e\n", sn_arm_q(a)[1],
           drift);
    SNT_CHECK(fabs(sn_arm_q(a)[1] - drift) <= 1.05 * 2 * tau * I1 / (h * h));
    SNT_CHECK(th2max <= drift + 1.05 * 2 * tau * I1 / (h * h));
    // without the spin the same torque simply turns joint 2 (tau T^2 / (2 I2) = 50 rad)
    double zero[2] = {0, 0};
    SNT_STATUS_OK(sn_arm_set_state(a, zero, 2, zero, 2));
    in.momentum = NULL;
    for (int s = 0; s < steps; s++)
        SNT_STATUS_OK(sn_arm_step(a, dt, &in));
    printf("  without H: theta_1 %.3g, theta_2 %.4f rad (tau T^2/(2 I2) = %.4f)\n", sn_arm_q(a)[0],
           sn_arm_q(a)[1], tau * T * T / (2 * I2));
    SNT_CHECK(sn_arm_q(a)[0] == 0);
    SNT_CHECK(fabs(sn_arm_q(a)[1] / (tau * T * T / (2 * I2)) - 1) < 1e-3);
    sn_arm_destroy(a);
    return 0;
}

// ---- 4. the articulated system's SEMI_IMPLICIT step ----

typedef struct twin {
    sn_world* w;
    sn_system* s;
} twin;

// a world without ground, gravity g, the system of m, SEMI_IMPLICIT, no damping, no limits, no
// actuation limits
static int twin_open(twin* tw, const sn_model* m, double dt, const double* g) {
    sn_world_opts wo = {0};
    wo.timestep = dt;
    sn_error e;
    SNT_STATUS_OK(sn_world_create(&wo, &tw->w, &e));
    SNT_STATUS_OK(sn_world_set_gravity(tw->w, g));
    SNT_STATUS_OK(sn_world_add_system(tw->w, m, &tw->s, &e));
    SNT_STATUS_OK(sn_system_set_scheme(tw->s, SN_SCHEME_SEMI_IMPLICIT));
    sn_system_set_joint_limits_enabled(tw->s, 0);
    double zero[64] = {0}, lo[64], hi[64];
    for (int i = 0; i < m->nv; i++) {
        lo[i] = (double)-INFINITY;
        hi[i] = (double)INFINITY;
    }
    SNT_STATUS_OK(sn_system_set_joint_damping(tw->s, zero, m->nv));
    SNT_STATUS_OK(sn_system_set_actuation_limits(tw->s, lo, hi, m->nv));
    return 0;
}

// the arm (D = 0, no friction, no stops) and the system from (q0, qd0) for `steps` steps of dt
// under the torques amp_i sin(2 pi f_i t + phase_i): the largest |q| and |qd| differences
static int run_twins(sn_arm* a, double dt, int steps, const double* q0, const double* qd0,
                     double amp, int sync, double* dq, double* dqd) {
    int n = sn_arm_joint_count(a);
    const sn_model* m = sn_arm_model(a);
    double g[3], zero[64] = {0}, lo[64], hi[64];
    for (int i = 0; i < n; i++) {
        lo[i] = (double)-INFINITY;
        hi[i] = (double)INFINITY;
    }
    SNT_STATUS_OK(sn_arm_set_damping(a, zero, n));
    SNT_STATUS_OK(sn_arm_set_friction(a, zero, n));
    SNT_STATUS_OK(sn_arm_set_stops(a, lo, hi, n));
    sn_arm_gravity(a, g);
    twin tw;
    SNT_CHECK(twin_open(&tw, m, dt, g) == 0);
    SNT_STATUS_OK(sn_arm_set_state(a, q0, n, qd0, n));
    SNT_STATUS_OK(sn_system_set_state(tw.s, q0, n, qd0, n));
    *dq = *dqd = 0;
    double f[64], ph[64], u[64];
    for (int i = 0; i < n; i++) {
        f[i] = tc_uniform(0.3, 2);
        ph[i] = tc_uniform(0, 6.283);
    }
    sn_arm_inputs in = {0};
    in.torques = u;
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            u[i] = amp * sin(6.283185307179586 * f[i] * s * dt + ph[i]);
        if (sync) SNT_STATUS_OK(sn_system_set_state(tw.s, sn_arm_q(a), n, sn_arm_qd(a), n));
        SNT_CHECK_MSG(sn_arm_step(a, dt, &in) == SN_OK, "step %d: %s", s, sn_arm_last_error(a));
        SNT_STATUS_OK(sn_system_set_generalized_force(tw.s, u, n));
        SNT_STATUS_OK(sn_world_integrate(tw.w));
        SNT_CHECK(sn_system_scheme_used(tw.s) == SN_SCHEME_SEMI_IMPLICIT);
        const double *qa = sn_arm_q(a), *ua = sn_arm_qd(a);
        const double *qs = sn_system_q(tw.s), *us = sn_system_u(tw.s);
        for (int i = 0; i < n; i++) {
            *dq = fmax(*dq, fabs(qa[i] - qs[i]));
            *dqd = fmax(*dqd, fabs(ua[i] - us[i]));
        }
    }
    sn_world_destroy(tw.w);
    return 0;
}

static int test_equals_system_step(void) {
    tc_seed(1504);
    double g[3] = {0, 0, -9.81}, worst_q = 0, worst_qd = 0;
    for (int t = 0; t < 4; t++) {
        int n = 3 + t;
        sn_arm_joint_desc j[TA_MAXN];
        ta_random_joints(n, 1, j);
        sn_arm* a = ta_arm(n, j, g, 0);
        SNT_CHECK(a != NULL);
        double q0[TA_MAXN], qd0[TA_MAXN], dq, dqd;
        random_vec(n, -0.5, 0.5, q0);
        random_vec(n, -0.5, 0.5, qd0);
        SNT_CHECK(run_twins(a, 1e-3, 1000, q0, qd0, 2, 0, &dq, &dqd) == 0);
        printf("  %d joints (seed's parameters), 1 s of 1 ms steps: |q_arm - q_sys| <= %.2e, "
               "|qd_arm - qd_sys| <= %.2e\n",
               n, dq, dqd);
        worst_q = fmax(worst_q, dq);
        worst_qd = fmax(worst_qd, dqd);
        sn_arm_destroy(a);
    }
    SNT_CHECK(worst_q < 1e-12);
    SNT_CHECK(worst_qd < 1e-10);
    return 0;
}

// a serial URDF chain: its damping and friction zero on both sides (the model's own D and mu
// would enter the system's step; the arm's are set to zero by run_twins). 1 s free (e[0], e[1]:
// q and qd), then 1 s with the system set to the arm's state before every step (e[2], e[3]: one
// step's difference)
static int urdf_twins(const char* path, const char* name) {
    sn_model* m = tc_load_file(path, 1);
    SNT_CHECK(m != NULL);
    for (int i = 0; i < m->nv; i++)
        m->dof_damping[i] = m->dof_friction[i] = 0;
    sn_arm* a = NULL;
    sn_error e;
    SNT_STATUS_OK(sn_arm_from_model(m, NULL, NULL, &a, &e));
    int n = sn_arm_joint_count(a);
    SNT_CHECK(n == m->nv);
    double q0[64], qd0[64], r[4];
    random_vec(n, -0.5, 0.5, q0);
    random_vec(n, -0.5, 0.5, qd0);
    SNT_CHECK(run_twins(a, 1e-3, 1000, q0, qd0, 0.5, 0, r, r + 1) == 0);
    SNT_CHECK(run_twins(a, 1e-3, 1000, q0, qd0, 0.5, 1, r + 2, r + 3) == 0);
    // the chain's own sensitivity: the arm against itself with theta-dot_1 moved by 1e-15
    sn_arm* b = NULL;
    SNT_STATUS_OK(sn_arm_from_model(m, NULL, NULL, &b, &e));
    double zero[64] = {0}, lo[64], hi[64], qd1[64], u[64], sens = 0;
    for (int i = 0; i < n; i++) {
        lo[i] = (double)-INFINITY;
        hi[i] = (double)INFINITY;
        qd1[i] = qd0[i];
    }
    qd1[0] += 1e-15;
    SNT_STATUS_OK(sn_arm_set_damping(b, zero, n));
    SNT_STATUS_OK(sn_arm_set_friction(b, zero, n));
    SNT_STATUS_OK(sn_arm_set_stops(b, lo, hi, n));
    SNT_STATUS_OK(sn_arm_set_state(a, q0, n, qd0, n));
    SNT_STATUS_OK(sn_arm_set_state(b, q0, n, qd1, n));
    sn_arm_inputs in = {0};
    in.torques = u;
    for (int s = 0; s < 1000; s++) {
        for (int i = 0; i < n; i++)
            u[i] = 0.5 * sin(0.01 * s * (i + 1));
        SNT_STATUS_OK(sn_arm_step(a, 1e-3, &in));
        SNT_STATUS_OK(sn_arm_step(b, 1e-3, &in));
        for (int i = 0; i < n; i++)
            sens = fmax(sens, fabs(sn_arm_q(a)[i] - sn_arm_q(b)[i]));
    }
    sn_arm_destroy(b);
    printf("  %s (%d joints), 1 s of 1 ms steps: |q_arm - q_sys| <= %.2e, |qd_arm - qd_sys| <= "
           "%.2e; one step from the same state (over the same 1 s): %.2e, %.2e; the arm against "
           "itself with theta-dot_1 + 1e-15: |dq| <= %.2e after 1 s\n",
           name, n, r[0], r[1], r[2], r[3], sens);
    // per step: rounding (CRBA and a dense factor against ABA); over 1 s the chain's own
    // sensitivity amplifies it: 1e-12, or within ten times what a 1e-15 change of one velocity
    // becomes (arm7: that grows to ~1e-9, the twins differ by ~4e-11)
    SNT_CHECK(r[2] < 1e-13 && r[3] < 1e-11);
    SNT_CHECK(r[0] < fmax(1e-12, 10 * sens) && r[0] < 1e-9 && r[1] < 1e-8);
    sn_arm_destroy(a);
    sn_model_destroy(m);
    return 0;
}

static int test_equals_system_step_urdf(void) {
    tc_seed(1505);
    SNT_CHECK(urdf_twins(SNT_SOURCE_DIR "/models/arm7.urdf", "models/arm7.urdf") == 0);
    const char* ur5 = tc_model_path("erd_ur5/urdf/ur5_robot.urdf");
    if (!ur5) {
        printf("  SKIP: ../shared is absent (the UR5, erd_ur5/urdf/ur5_robot.urdf)\n");
        return SNT_SKIP;
    }
    SNT_CHECK(urdf_twins(ur5, "shared UR5") == 0);
    return 0;
}

// D != 0: the arm is (M + dt D) v+ = M v + dt (u - h), seed 000 is (M + dt/2 D)(v+ - v) =
// dt (u - h - D v); one step of each from one state against its formula
static int test_damping_difference(void) {
    tc_seed(1506);
    int n = 4;
    double g[3] = {0, 0, -9.81}, dt = 0.01;
    sn_arm_joint_desc j[TA_MAXN];
    ta_random_joints(n, 0, j);
    sn_arm* a = ta_arm(n, j, g, 0);
    SNT_CHECK(a != NULL);
    double q[TA_MAXN], qd[TA_MAXN], u[TA_MAXN], D[TA_MAXN], M[TA_MAXN * TA_MAXN];
    random_vec(n, -1, 1, q);
    random_vec(n, -2, 2, qd);
    random_vec(n, -3, 3, u);
    random_vec(n, 0.5, 2, D);
    SNT_STATUS_OK(sn_arm_set_damping(a, D, n));
    SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
    SNT_STATUS_OK(sn_arm_mass_matrix(a, NULL, M));
    sn_arm_inputs in = {0};
    in.torques = u;
    SNT_STATUS_OK(sn_arm_step(a, dt, &in));
    sn_arm_report r;
    sn_arm_report_get(a, &r);
    double h[TA_MAXN], A[TA_MAXN * TA_MAXN], b[TA_MAXN], v_arm[TA_MAXN], v_sys[TA_MAXN];
    memcpy(h, r.bias, sizeof h);
    // the arm's formula
    memcpy(A, M, sizeof A);
    ta_matvec(n, M, qd, b);
    for (int i = 0; i < n; i++) {
        A[i * n + i] += dt * D[i];
        b[i] += dt * (u[i] - h[i]);
    }
    SNT_CHECK(ta_solve(n, A, b, v_arm) == 0);
    double e_arm = ta_err(n, sn_arm_qd(a), v_arm);
    // seed 000's
    memcpy(A, M, sizeof A);
    for (int i = 0; i < n; i++) {
        A[i * n + i] += 0.5 * dt * D[i];
        b[i] = dt * (u[i] - h[i] - D[i] * qd[i]);
    }
    SNT_CHECK(ta_solve(n, A, b, v_sys) == 0);
    for (int i = 0; i < n; i++)
        v_sys[i] += qd[i];
    twin tw;
    SNT_CHECK(twin_open(&tw, sn_arm_model(a), dt, g) == 0);
    SNT_STATUS_OK(sn_system_set_joint_damping(tw.s, D, n));
    SNT_STATUS_OK(sn_system_set_state(tw.s, q, n, qd, n));
    SNT_STATUS_OK(sn_system_set_generalized_force(tw.s, u, n));
    SNT_STATUS_OK(sn_world_integrate(tw.w));
    double e_sys = ta_err(n, sn_system_u(tw.s), v_sys);
    double diff = ta_err(n, sn_arm_qd(a), sn_system_u(tw.s));
    double fdiff = ta_err(n, v_arm, v_sys);
    printf("  D = %.2f..%.2f, dt 10 ms: arm vs (M + dt D) v+ = M v + dt (u - h) %.2e; system vs "
           "(M + dt/2 D)(v+ - v) = dt (u - h - D v) %.2e; arm - system %.3e (the formulas' %.3e)\n",
           D[0], D[3], e_arm, e_sys, diff, fdiff);
    SNT_CHECK(e_arm < 1e-14 && e_sys < 1e-14);
    SNT_CHECK(diff > 1e-6 && fabs(diff - fdiff) < 1e-13);
    sn_world_destroy(tw.w);
    sn_arm_destroy(a);
    return 0;
}

// ---- 5. carried inertia ----

static void random_payload(double* c) {
    c[0] = tc_uniform(0.2, 1);
    random_vec(3, -0.1, 0.1, c + 1);
    c[4] = tc_uniform(0.002, 0.004);
    c[7] = tc_uniform(0.002, 0.004);
    c[9] = tc_uniform(0.002, 0.004);
    c[5] = c[6] = c[8] = 0.0001;
}

static int test_carried_momentum_identity(void) {
    tc_seed(1507);
    double g[3] = {0.5, -1, -9.81}, worst = 0;
    for (int t = 0; t < 50; t++) {
        int n = 2 + t % 5;
        sn_arm_joint_desc j[TA_MAXN];
        ta_random_joints(n, 1, j);
        sn_arm* a = ta_arm(n, j, g, 0);
        SNT_CHECK(a != NULL);
        double q[TA_MAXN], qd[TA_MAXN], u[TA_MAXN], H[3 * TA_MAXN], W[6 * TA_MAXN];
        double C0[10 * TA_MAXN] = {0}, C1[10 * TA_MAXN] = {0};
        random_vec(n, -1, 1, q);
        random_vec(n, -2, 2, qd);
        random_vec(n, -3, 3, u);
        random_vec(3 * n, -1, 1, H);
        random_vec(6 * n, -2, 2, W);
        for (int k = 0; k < n; k++) {
            if (tc_uniform(0, 1) < 0.6) random_payload(C0 + 10 * k);
            if (tc_uniform(0, 1) < 0.4) random_payload(C1 + 10 * k);
        }
        C0[10 * (n - 1)] += 0.5; // the tip carries something at the start
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
        double Ms[TA_MAXN * TA_MAXN], Me[TA_MAXN * TA_MAXN];
        SNT_STATUS_OK(sn_arm_mass_matrix(a, C0, Ms));
        SNT_STATUS_OK(sn_arm_mass_matrix(a, C1, Me));
        sn_arm_inputs in = {u, W, H, C0, C1};
        double dt = 0.005;
        SNT_STATUS_OK(sn_arm_step(a, dt, &in));
        sn_arm_report r;
        sn_arm_report_get(a, &r);
        double lhs[TA_MAXN], rhs[TA_MAXN];
        ta_matvec(n, Me, r.theta_star, lhs);
        ta_matvec(n, Ms, r.theta_prime, rhs);
        for (int i = 0; i < n; i++)
            rhs[i] += dt * (u[i] - r.bias[i]);
        worst = fmax(worst, ta_err(n, lhs, rhs));
        // no stops, no friction: the new velocity is theta*
        SNT_CHECK(memcmp(sn_arm_qd(a), r.theta_star, (size_t)n * sizeof(double)) == 0);
        sn_arm_destroy(a);
    }
    printf("  50 random chains, C0 != C1, H, W, u, g: |Me theta* - Ms theta' - dt (u - h)| <= "
           "%.2e (relative)\n",
           worst);
    SNT_CHECK(worst < 1e-14);
    return 0;
}

// one joint about y, its link's inertia 0.05 about it; a 2 kg point payload at 0.3 m released
// (C1 = 0): Ms = 0.05 + 2 0.3^2 = 0.23, Me = 0.05; g = 0, u = 0: Ms theta_n-dot = Me theta_n+1-dot
static int test_release_payload(void) {
    sn_arm_joint_desc j;
    memset(&j, 0, sizeof j);
    j.axis[1] = 1;
    j.mass = 1;
    j.inertia[0] = j.inertia[3] = j.inertia[5] = 0.05;
    sn_arm* a = ta_arm(1, &j, NULL, 0);
    SNT_CHECK(a != NULL);
    double C0[10] = {2, 0.3, 0, 0}, C1[10] = {0}, Ms, Me, qd = 1.7;
    SNT_STATUS_OK(sn_arm_set_state(a, NULL, 0, &qd, 1));
    SNT_STATUS_OK(sn_arm_mass_matrix(a, C0, &Ms));
    SNT_STATUS_OK(sn_arm_mass_matrix(a, C1, &Me));
    SNT_NEAR(Ms, 0.23, 1e-16);
    SNT_NEAR(Me, 0.05, 1e-16);
    sn_arm_inputs in = {0};
    in.inertia0 = C0;
    in.inertia1 = C1;
    SNT_STATUS_OK(sn_arm_step(a, 0.01, &in));
    double v1 = sn_arm_qd(a)[0];
    printf("  released 2 kg at 0.3 m: velocity %.17g -> %.17g (ratio %.15f, Ms/Me = %.15f), "
           "momentum %.17g -> %.17g\n",
           qd, v1, v1 / qd, 0.23 / 0.05, Ms * qd, Me * v1);
    SNT_NEAR_REL(Ms * qd, Me * v1, 1e-15, 0);
    SNT_NEAR_REL(v1 / qd, 0.23 / 0.05, 2e-15, 0);
    SNT_NEAR_REL(sn_arm_q(a)[0], 0.01 * v1, 1e-15, 0);
    // picked up again: the inverse ratio
    in.inertia0 = C1;
    in.inertia1 = C0;
    SNT_STATUS_OK(sn_arm_step(a, 0.01, &in));
    SNT_NEAR_REL(sn_arm_qd(a)[0], qd, 4e-15, 0);
    sn_arm_destroy(a);
    return 0;
}

// a horizontal link (joint about y, centre of mass 0.2 m out along x, 1 kg) carrying a 1.5 kg
// point at 0.5 m: the holding torque grows by m g r = 1.5 9.81 0.5 (h = -r x m g about y)
static int test_payload_weight(void) {
    sn_arm_joint_desc j;
    memset(&j, 0, sizeof j);
    j.axis[1] = 1;
    j.mass = 1;
    j.com[0] = 0.2;
    j.inertia[0] = j.inertia[3] = j.inertia[5] = 0.01;
    double g[3] = {0, 0, -9.81};
    sn_arm* a = ta_arm(1, &j, g, 0);
    SNT_CHECK(a != NULL);
    double C0[10] = {1.5, 0.5, 0, 0}, zero = 0;
    sn_arm_report r;
    SNT_STATUS_OK(sn_arm_step(a, 1e-3, NULL));
    sn_arm_report_get(a, &r);
    double h0 = r.bias[0];
    SNT_STATUS_OK(sn_arm_set_state(a, &zero, 1, &zero, 1));
    sn_arm_inputs in = {0};
    in.inertia0 = C0;
    SNT_STATUS_OK(sn_arm_step(a, 1e-3, &in));
    sn_arm_report_get(a, &r);
    double h1 = r.bias[0];
    printf("  horizontal link: h = %.15f N m alone (-m g r = %.15f), %.15f with the payload, "
           "difference %.15f (m g r = %.15f)\n",
           h0, -1 * 9.81 * 0.2, h1, h0 - h1, 1.5 * 9.81 * 0.5);
    SNT_NEAR(h0, -9.81 * 0.2, 1e-14);
    SNT_NEAR(h0 - h1, 1.5 * 9.81 * 0.5, 1e-14);
    sn_arm_destroy(a);
    return 0;
}

// the inertia of (m1, c1, I1) and (m2, c2, I2) together about their common centre (I as xx xy xz
// yy yz zz)
static void combine(double m1, const double* c1, const double* I1, double m2, const double* c2,
                    const double* I2, double* m, double* c, double* I) {
    *m = m1 + m2;
    for (int i = 0; i < 3; i++)
        c[i] = (m1 * c1[i] + m2 * c2[i]) / *m;
    const int ix[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    double d1[3], d2[3];
    for (int i = 0; i < 3; i++) {
        d1[i] = c1[i] - c[i];
        d2[i] = c2[i] - c[i];
    }
    double s1 = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];
    double s2 = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];
    for (int e = 0; e < 6; e++) {
        int a = ix[e][0], b = ix[e][1];
        I[e] = I1[e] + I2[e] + m1 * ((a == b) * s1 - d1[a] * d1[b]) +
               m2 * ((a == b) * s2 - d2[a] * d2[b]);
    }
}

static int test_carried_inertia_is_link_inertia(void) {
    tc_seed(1508);
    double worst = 0;
    for (int t = 0; t < 20; t++) {
        int n = 3 + t % 4, k = t % n;
        sn_arm_joint_desc j[TA_MAXN], j2[TA_MAXN];
        ta_random_joints(n, 1, j);
        double C[10 * TA_MAXN] = {0};
        random_payload(C + 10 * k);
        memcpy(j2, j, sizeof j);
        combine(j[k].mass, j[k].com, j[k].inertia, C[10 * k], C + 10 * k + 1, C + 10 * k + 4,
                &j2[k].mass, j2[k].com, j2[k].inertia);
        sn_arm *a = ta_arm(n, j, NULL, 0), *b = ta_arm(n, j2, NULL, 0);
        SNT_CHECK(a && b);
        double q[TA_MAXN], Ma[TA_MAXN * TA_MAXN], Mb[TA_MAXN * TA_MAXN];
        random_vec(n, -1.5, 1.5, q);
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, NULL, 0));
        SNT_STATUS_OK(sn_arm_set_state(b, q, n, NULL, 0));
        SNT_STATUS_OK(sn_arm_mass_matrix(a, C, Ma));
        SNT_STATUS_OK(sn_arm_mass_matrix(b, NULL, Mb));
        worst = fmax(worst, ta_err(n * n, Ma, Mb));
        SNT_STATUS_OK(sn_arm_mass_matrix(a, NULL, Mb));
        SNT_CHECK(ta_err(n * n, Ma, Mb) > 1e-4); // C does count
        sn_arm_destroy(a);
        sn_arm_destroy(b);
    }
    printf("  20 chains: M(theta; C on link k) vs the arm whose link k includes C: %.2e\n", worst);
    SNT_CHECK(worst < 1e-14);
    return 0;
}

// ---- 6. frames ----

static void rodrigues(const double* a, double th, double* R) {
    double c = cos(th), s = sin(th), v = 1 - c;
    double r[9] = {
        c + a[0] * a[0] * v,        a[0] * a[1] * v - a[2] * s, a[0] * a[2] * v + a[1] * s,
        a[1] * a[0] * v + a[2] * s, c + a[1] * a[1] * v,        a[1] * a[2] * v - a[0] * s,
        a[2] * a[0] * v - a[1] * s, a[2] * a[1] * v + a[0] * s, c + a[2] * a[2] * v};
    memcpy(R, r, sizeof r);
}

static void mat3_mul(const double* A, const double* B, double* C) {
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            C[3 * i + k] = A[3 * i] * B[k] + A[3 * i + 1] * B[3 + k] + A[3 * i + 2] * B[6 + k];
}

// the arm's P and Omega against (1) the model's frame pose and Jacobian turned by O and (2) the
// seed's formula: joint k at p + R J_k, frame k at (p + R J_k + R Rj K_k, R Rj)
static int check_frames(sn_arm* a, const sn_arm_joint_desc* j, const double* O_p, const double* O_R,
                        double* e_model, double* e_fk) {
    int n = sn_arm_joint_count(a);
    const sn_model* m = sn_arm_model(a);
    const double *q = sn_arm_q(a), *qd = sn_arm_qd(a);
    sn_data* d = model_data(m, q, qd);
    SNT_CHECK(d != NULL);
    const double *P = sn_arm_frame_pos(a), *PR = sn_arm_frame_rot(a), *Om = sn_arm_frame_omega(a);
    double p[3], R[9], jr[3 * TA_MAXN];
    memcpy(p, O_p, sizeof p);
    memcpy(R, O_R, sizeof R);
    *e_model = *e_fk = 0;
    for (int k = 0; k < n; k++) {
        int f = sn_arm_frame_id(a, k + 1);
        double mp[3], mR[9], wp[3], wR[9], w[3] = {0}, ww[3];
        sn_frame_pose(m, d, f, mp, mR);
        rot3(O_R, mp, wp);
        for (int i = 0; i < 3; i++)
            wp[i] += O_p[i];
        mat3_mul(O_R, mR, wR);
        sn_frame_jacobian(m, d, f, NULL, jr);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < n; c++)
                w[i] += jr[i * n + c] * qd[c];
        rot3(O_R, w, ww);
        for (int i = 0; i < 3; i++) {
            *e_model = fmax(*e_model, fabs(P[3 * k + i] - wp[i]));
            *e_model = fmax(*e_model, fabs(Om[3 * k + i] - ww[i]));
        }
        for (int i = 0; i < 9; i++)
            *e_model = fmax(*e_model, fabs(PR[9 * k + i] - wR[i]));
        // the seed's formula
        double jp[3], Rj[9], Rn[9], t[3];
        rot3(R, j[k].origin, jp);
        for (int i = 0; i < 3; i++)
            jp[i] += p[i];
        if (j[k].type == SN_JOINT_PRISMATIC) {
            double s[3];
            rot3(R, j[k].axis, s);
            for (int i = 0; i < 3; i++)
                jp[i] += q[k] * s[i];
            memcpy(Rn, R, sizeof Rn);
        } else {
            rodrigues(j[k].axis, q[k], Rj);
            mat3_mul(R, Rj, Rn);
        }
        rot3(Rn, j[k].frame, t);
        for (int i = 0; i < 3; i++)
            p[i] = jp[i] + t[i];
        memcpy(R, Rn, sizeof R);
        for (int i = 0; i < 3; i++)
            *e_fk = fmax(*e_fk, fabs(P[3 * k + i] - p[i]));
        for (int i = 0; i < 9; i++)
            *e_fk = fmax(*e_fk, fabs(PR[9 * k + i] - R[i]));
    }
    sn_data_destroy(d);
    return 0;
}

static int test_frames(void) {
    tc_seed(1509);
    double worst_m = 0, worst_fk = 0, moved = 0;
    for (int t = 0; t < 40; t++) {
        int n = 1 + t % 7;
        sn_arm_joint_desc j[TA_MAXN];
        ta_random_joints(n, 1, j);
        double g[3] = {1, 2, -9.81};
        sn_arm* a = ta_arm(n, j, g, 0);
        SNT_CHECK(a != NULL);
        double Op[3], OR[9], q[TA_MAXN], qd[TA_MAXN], em, ef;
        random_vec(3, -1, 1, Op);
        ta_random_rotation(OR);
        SNT_STATUS_OK(sn_arm_set_placement(a, Op, OR));
        random_vec(n, -2, 2, q);
        random_vec(n, -2, 2, qd);
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
        SNT_CHECK(check_frames(a, j, Op, OR, &em, &ef) == 0);
        worst_m = fmax(worst_m, em);
        worst_fk = fmax(worst_fk, ef);
        // after steps: the frames at the new state
        double P0[3 * TA_MAXN];
        memcpy(P0, sn_arm_frame_pos(a), (size_t)3 * n * sizeof(double));
        for (int s = 0; s < 20; s++)
            SNT_STATUS_OK(sn_arm_step(a, 0.01, NULL));
        SNT_CHECK(check_frames(a, j, Op, OR, &em, &ef) == 0);
        worst_m = fmax(worst_m, em);
        worst_fk = fmax(worst_fk, ef);
        moved = fmax(moved, ta_err(3 * n, sn_arm_frame_pos(a), P0));
        sn_arm_destroy(a);
    }
    printf("  40 chains with a random placement O: P, R and Omega vs O o (sn_frame_pose, "
           "R(O) J_r theta-dot) %.2e; vs the seed's FK formula %.2e (frames moved %.3f m)\n",
           worst_m, worst_fk, moved);
    SNT_CHECK(worst_m < 1e-14);
    SNT_CHECK(worst_fk < 1e-13);
    SNT_CHECK(moved > 1e-3);
    return 0;
}

// W on frame k (world axes, at its origin) enters h as -(J_p^T F + J_r^T T), the Jacobians in
// the world (R(O) times the model's)
static int test_wrench_through_jacobian(void) {
    tc_seed(1510);
    double worst = 0;
    for (int t = 0; t < 30; t++) {
        int n = 1 + t % 6;
        sn_arm_joint_desc j[TA_MAXN];
        ta_random_joints(n, 1, j);
        double g[3] = {0, 0, -9.81};
        sn_arm* a = ta_arm(n, j, g, 0);
        SNT_CHECK(a != NULL);
        double Op[3], OR[9], q[TA_MAXN], qd[TA_MAXN], W[6 * TA_MAXN];
        random_vec(3, -1, 1, Op);
        ta_random_rotation(OR);
        SNT_STATUS_OK(sn_arm_set_placement(a, Op, OR));
        random_vec(n, -2, 2, q);
        random_vec(n, -2, 2, qd);
        random_vec(6 * n, -5, 5, W);
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
        SNT_STATUS_OK(sn_arm_step(a, 0.01, NULL));
        sn_arm_report r;
        sn_arm_report_get(a, &r);
        double h0[TA_MAXN], expect[TA_MAXN];
        memcpy(h0, r.bias, (size_t)n * sizeof(double));
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
        sn_arm_inputs in = {0};
        in.wrench = W;
        const sn_model* m = sn_arm_model(a);
        sn_data* d = model_data(m, q, qd);
        SNT_CHECK(d != NULL);
        for (int i = 0; i < n; i++)
            expect[i] = h0[i];
        for (int k = 0; k < n; k++) {
            double jp[3 * TA_MAXN], jr[3 * TA_MAXN], F[3], T[3];
            sn_frame_jacobian(m, d, sn_arm_frame_id(a, k + 1), jp, jr);
            // R(O)^T W: the wrench in the model's (base) axes
            for (int i = 0; i < 3; i++) {
                F[i] = OR[i] * W[6 * k] + OR[3 + i] * W[6 * k + 1] + OR[6 + i] * W[6 * k + 2];
                T[i] = OR[i] * W[6 * k + 3] + OR[3 + i] * W[6 * k + 4] + OR[6 + i] * W[6 * k + 5];
            }
            for (int c = 0; c < n; c++)
                for (int i = 0; i < 3; i++)
                    expect[c] -= jp[i * n + c] * F[i] + jr[i * n + c] * T[i];
        }
        sn_data_destroy(d);
        SNT_STATUS_OK(sn_arm_step(a, 0.01, &in));
        sn_arm_report_get(a, &r);
        worst = fmax(worst, ta_err(n, r.bias, expect));
        SNT_CHECK(ta_err(n, r.bias, h0) > 1e-3);
        sn_arm_destroy(a);
    }
    printf("  30 chains, random W and placement: h(W) vs h(0) - J^T W %.2e (relative)\n", worst);
    SNT_CHECK(worst < 1e-14);
    return 0;
}

// the placement turns gravity: an arm placed by (p, R) under g steps as the same arm unplaced
// under R^T g (the base's axes), and its frames are O o the unplaced arm's
static int test_placement_turns_gravity(void) {
    tc_seed(1511);
    double worst = 0, worst_f = 0;
    for (int t = 0; t < 10; t++) {
        int n = 2 + t % 5;
        sn_arm_joint_desc j[TA_MAXN];
        ta_random_joints(n, 1, j);
        double g[3] = {1.5, -2, -9.81}, R[9], p[3], gb[3];
        ta_random_rotation(R);
        random_vec(3, -1, 1, p);
        for (int i = 0; i < 3; i++)
            gb[i] = R[i] * g[0] + R[3 + i] * g[1] + R[6 + i] * g[2];
        sn_arm *a = ta_arm(n, j, g, 0), *b = ta_arm(n, j, gb, 0);
        SNT_CHECK(a && b);
        SNT_STATUS_OK(sn_arm_set_placement(a, p, R));
        double q[TA_MAXN], qd[TA_MAXN];
        random_vec(n, -1, 1, q);
        random_vec(n, -1, 1, qd);
        SNT_STATUS_OK(sn_arm_set_state(a, q, n, qd, n));
        SNT_STATUS_OK(sn_arm_set_state(b, q, n, qd, n));
        for (int s = 0; s < 200; s++) {
            SNT_STATUS_OK(sn_arm_step(a, 2e-3, NULL));
            SNT_STATUS_OK(sn_arm_step(b, 2e-3, NULL));
        }
        worst = fmax(worst, fmax(ta_err(n, sn_arm_q(a), sn_arm_q(b)),
                                 ta_err(n, sn_arm_qd(a), sn_arm_qd(b))));
        for (int k = 0; k < n; k++) {
            double P[3];
            rot3(R, sn_arm_frame_pos(b) + 3 * k, P);
            for (int i = 0; i < 3; i++)
                worst_f = fmax(worst_f, fabs(sn_arm_frame_pos(a)[3 * k + i] - P[i] - p[i]));
        }
        sn_arm_destroy(a);
        sn_arm_destroy(b);
    }
    printf("  10 chains, 200 steps: placed under g vs unplaced under R(O)^T g: state %.2e, frames "
           "%.2e\n",
           worst, worst_f);
    SNT_CHECK(worst < 1e-13 && worst_f < 1e-14);
    return 0;
}


SNT_SUITE(SNT_TEST(test_cayley_no_work_per_step), SNT_TEST(test_cayley_energy_gimbal),
          SNT_TEST(test_gyroscope_precesses), SNT_TEST(test_equals_system_step),
          SNT_TEST(test_equals_system_step_urdf), SNT_TEST(test_damping_difference),
          SNT_TEST(test_carried_momentum_identity), SNT_TEST(test_release_payload),
          SNT_TEST(test_payload_weight), SNT_TEST(test_carried_inertia_is_link_inertia),
          SNT_TEST(test_frames), SNT_TEST(test_wrench_through_jacobian),
          SNT_TEST(test_placement_turns_gravity))
