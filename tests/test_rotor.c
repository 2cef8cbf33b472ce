// SPDX-License-Identifier: Apache-2.0
// test_rotor.c: rotors spinning on 1-DOF joints (issue 15 item 3, sn_system_set_rotor): the
// Cayley step does no work and G is skew (random trees); a gyroscope on a 2-DOF gimbal precesses
// at m g r / H with the rotor set and falls without it, and agrees with the same wheel modelled as
// a link on a continuous joint; off by default (bit for bit); the refusals; the checkpoint.
// Every test prints the numbers it measured.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81

// ---- the gyroscope ----

// a ring (0.1 kg) on a yaw joint about z, an arm on a pitch joint about y, and at r = 0.2 m along
// the arm a wheel of 1 kg, spin inertia IS = 0.01 about the arm (x) and IP = 0.005 across it,
// spinning on a continuous joint about x. "rotor": the wheel's mass and transverse inertia ride
// with the arm, its spin is the rotor of the spin joint (armature IS, gear ratio 1) on a link of
// negligible inertia; "link": the wheel is the spin joint's link (the exact model)
#define GY_M 1.0
#define GY_R 0.2
#define GY_IS 0.01
#define GY_IP 0.005
#define GY_RING 1e-3
#define GY_SPIN 1000.0

#define GY_HEAD                                                                                    \
    "<link name=\"world\"/><link name=\"ring\"><inertial><mass value=\"0.1\"/><inertia "           \
    "ixx=\"1e-3\" ixy=\"0\" ixz=\"0\" iyy=\"1e-3\" iyz=\"0\" izz=\"1e-3\"/></inertial></link>"     \
    "<joint name=\"yaw\" type=\"continuous\"><parent link=\"world\"/><child link=\"ring\"/>"       \
    "<axis xyz=\"0 0 1\"/></joint>"                                                                \
    "<joint name=\"pitch\" type=\"continuous\"><parent link=\"ring\"/><child link=\"arm\"/>"       \
    "<axis xyz=\"0 1 0\"/></joint>"

static const char* gyro_rotor_urdf =
    "<robot name=\"gyro_rotor\">" GY_HEAD
    "<link name=\"arm\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1\"/><inertia "
    "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.005\" iyz=\"0\" izz=\"0.005\"/></inertial></link>"
    "<link name=\"rotor\"><inertial><mass value=\"1e-6\"/><inertia ixx=\"1e-12\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"1e-12\" iyz=\"0\" izz=\"1e-12\"/></inertial></link>"
    "<joint name=\"spin\" type=\"continuous\"><parent link=\"arm\"/><child link=\"rotor\"/>"
    "<origin xyz=\"0.2 0 0\"/><axis xyz=\"1 0 0\"/><dynamics rotor_inertia=\"0.01\"/></joint>"
    "</robot>";

static const char* gyro_link_urdf =
    "<robot name=\"gyro_link\">" GY_HEAD
    "<link name=\"arm\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1e-6\"/><inertia "
    "ixx=\"1e-12\" ixy=\"0\" ixz=\"0\" iyy=\"1e-12\" iyz=\"0\" izz=\"1e-12\"/></inertial></link>"
    "<link name=\"wheel\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" "
    "ixz=\"0\" iyy=\"0.005\" iyz=\"0\" izz=\"0.005\"/></inertial></link>"
    "<joint name=\"spin\" type=\"continuous\"><parent link=\"arm\"/><child link=\"wheel\"/>"
    "<origin xyz=\"0.2 0 0\"/><axis xyz=\"1 0 0\"/></joint>"
    "</robot>";

typedef struct scene {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} scene;

static void scene_close(scene* sc) {
    sn_world_destroy(sc->w);
    sn_model_destroy(sc->m);
    memset(sc, 0, sizeof *sc);
}

// the gyroscope at rest but for its spin (yaw, pitch, spin): rotor 1 sets the spin joint's rotor
static int gyro_open(scene* sc, int link, int rotor, double dt, sn_scheme scheme, double g) {
    memset(sc, 0, sizeof *sc);
    sc->m = tc_load_string(link ? gyro_link_urdf : gyro_rotor_urdf, 0);
    SNT_CHECK(sc->m != NULL && sc->m->nv == 3);
    SNT_STATUS_OK(tc_world_open(sc->m, dt, &sc->w, &sc->s));
    double grav[3] = {0, 0, -g};
    SNT_STATUS_OK(sn_world_set_gravity(sc->w, grav));
    SNT_STATUS_OK(sn_system_set_scheme(sc->s, scheme));
    if (rotor) SNT_STATUS_OK(sn_system_set_rotor(sc->s, 2, GY_IS, 1));
    double q[3] = {0, 0, 0}, u[3] = {0, 0, GY_SPIN};
    SNT_STATUS_OK(sn_system_set_state(sc->s, q, 3, u, 3));
    return 0;
}

typedef struct gyro_run {
    double rate;      // least-squares slope of the yaw angle over the run (rad/s)
    double yaw_end;   // yaw and pitch at the end
    double pitch_end; //
    double pitch_max; // largest |pitch|
    double pitch_mean;
} gyro_run;

// T s of the gyroscope; the precession rate by a least-squares line through (t, yaw)
static int gyro_run_for(scene* sc, double T, gyro_run* r) {
    memset(r, 0, sizeof *r);
    long n = (long)floor(T / sn_world_timestep(sc->w) + 0.5);
    double st = 0, sy = 0, stt = 0, sty = 0;
    for (long k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc->w));
        double t = sn_world_time(sc->w), y = sn_system_q(sc->s)[0], p = sn_system_q(sc->s)[1];
        st += t, sy += y, stt += t * t, sty += t * y;
        r->pitch_max = fmax(r->pitch_max, fabs(p));
        r->pitch_mean += p / (double)n;
    }
    r->rate = (n * sty - st * sy) / (n * stt - st * st);
    r->yaw_end = sn_system_q(sc->s)[0];
    r->pitch_end = sn_system_q(sc->s)[1];
    return 0;
}


// A fast-spinning wheel precesses at Omega = m g r / H (H = IS w_s). The fast-top limit: the
// arm released at rest dips and nutates at w_n = H / sqrt(I_yaw I_pitch) (I_pitch = m r^2 + IP,
// I_yaw = I_pitch + ring) with a dip of about m g r I_pitch / H^2 on average and twice that at
// most, and the yaw lags the line Omega t by at most Omega / w_n (a cycloid): the slope of the
// least-squares line through (t, yaw) over T s is Omega within Omega (2 / (w_n T) + the dip's
// relative size). The step's splitting (the Cayley step at u_t, gravity explicit after it) has a
// steady state whose end-of-step velocity keeps a pitch rate dt m g r / (2 I_pitch) (from
// G (u + du/2) = -tau: the mean, not the end, velocity is level): the arm sinks at that rate, a
// first-order error (0.022 rad/s at dt 1 ms), and the mean pitch is the dip plus half the sink
// over T. Without the rotor setting the wheel's spin couples to nothing and the arm falls.
static int test_gyroscope_precesses(void) {
    double H = GY_IS * GY_SPIN, mgr = GY_M * GRAV * GY_R;
    double ip = GY_M * GY_R * GY_R + GY_IP, iy = ip + GY_RING;
    double Om = mgr / H, wn = H / sqrt(iy * ip), dip = mgr * ip / (H * H), T = 2;
    double tol = Om * (2 / (wn * T) + dip);
    printf("  Omega = m g r / H = %.6f rad/s, nutation %.1f rad/s, dip %.3g rad; tolerance %.3g "
           "rad/s (%.2g relative)\n",
           Om, wn, dip, tol, tol / Om);
    const double dts[2] = {1e-3, 1e-4};
    gyro_run r[2];
    for (int i = 0; i < 2; i++) {
        scene sc;
        SNT_CHECK(gyro_open(&sc, 0, 1, dts[i], SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
        SNT_CHECK(gyro_run_for(&sc, T, &r[i]) == 0);
        // the rotor's DOF feels no couple (its link's 1e-12 kg m^2 couples it to the arm)
        double spin_change = sn_system_u(sc.s)[2] - GY_SPIN;
        scene_close(&sc);
        double sink = dts[i] * mgr / (2 * ip), mean = dip + 0.5 * sink * T;
        printf("  rotor, dt %g: precession %.6f rad/s (rel err %.2e), pitch mean %.4e (dip + "
               "sink %.4e), max %.4e rad, spin change %.2e rad/s\n",
               dts[i], r[i].rate, (r[i].rate - Om) / Om, r[i].pitch_mean, mean, r[i].pitch_max,
               spin_change);
        SNT_NEAR(r[i].rate, Om, tol);
        // docs/step.md: measured 0.196202 rad/s at 1 ms, 0.196212 at 0.1 ms (pinned to a few
        // units of the sixth digit, inside the derived tolerance above)
        SNT_NEAR(r[i].rate, i ? 0.196212 : 0.196202, 3e-6);
        SNT_NEAR(r[i].pitch_mean, mean, 0.1 * mean);
        SNT_CHECK(r[i].pitch_max < 2 * dip + 1.1 * sink * T);
        SNT_CHECK(fabs(spin_change) < 1e-6);
    }
    // without the rotor setting: it falls (the pitch is gravity's about the pivot; no precession)
    scene sc;
    SNT_CHECK(gyro_open(&sc, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    gyro_run f;
    SNT_CHECK(gyro_run_for(&sc, 0.2, &f) == 0);
    scene_close(&sc);
    double fall = 0.5 * mgr / ip * 0.2 * 0.2; // small-angle start of the pendulum's fall
    printf("  no rotor: after 0.2 s pitch %.4f rad (pendulum start %.4f), yaw %.2e rad\n",
           f.pitch_end, fall, f.yaw_end);
    SNT_CHECK(f.pitch_end > 0.5 * fall && fabs(f.yaw_end) < 1e-6); // precessing: 0.039 rad
    return 0;
}


// The same wheel as a link on the spin joint (the articulated system's exact coupling through M
// and h), stepped by RUNGE_KUTTA_4 at dt 1e-4 (SEMI_IMPLICIT would take its fast spin's couple
// explicitly and blow up), against the rotor model. The rotor model leaves out the wheel's
// coupling with the arm's turn about its own axis, IS (w_arm . x), of relative size
// (w_arm . x) / w_s ~ Omega * pitch / w_s ~ 1e-6 here: the two agree to the rotor model's time
// discretization (first order: measured at two dt)
static int test_rotor_against_link(void) {
    double T = 2;
    gyro_run ex, ro[2];
    scene sc;
    SNT_CHECK(gyro_open(&sc, 1, 0, 1e-4, SN_SCHEME_RK4, GRAV) == 0);
    SNT_CHECK(gyro_run_for(&sc, T, &ex) == 0);
    double spin_link = sn_system_u(sc.s)[2];
    scene_close(&sc);
    const double dts[2] = {1e-3, 1e-4};
    for (int i = 0; i < 2; i++) {
        SNT_CHECK(gyro_open(&sc, 0, 1, dts[i], SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
        SNT_CHECK(gyro_run_for(&sc, T, &ro[i]) == 0);
        scene_close(&sc);
    }
    printf("  link (RK4, dt 1e-4): precession %.7f rad/s, yaw(2 s) %.7f, pitch mean %.4e, spin "
           "%.9g\n",
           ex.rate, ex.yaw_end, ex.pitch_mean, spin_link);
    for (int i = 0; i < 2; i++)
        printf("  rotor dt %g: precession %.7f rad/s (diff %.2e), yaw(2 s) diff %.2e, pitch mean "
               "diff %.2e\n",
               dts[i], ro[i].rate, ro[i].rate - ex.rate, ro[i].yaw_end - ex.yaw_end,
               ro[i].pitch_mean - ex.pitch_mean);
    double d3 = fabs(ro[0].rate - ex.rate), d4 = fabs(ro[1].rate - ex.rate);
    // first order: a tenth of dt, about a tenth of the difference; at dt 1e-4 within 1e-4 relative
    SNT_CHECK(d4 < 0.3 * d3 + 1e-7 * ex.rate);
    SNT_CHECK(d4 < 1e-4 * ex.rate && d3 < 2e-3 * ex.rate);
    // docs/step.md: -1.0e-5 rad/s at 1 ms, -1.8e-7 at 0.1 ms (asserted below 1.5e-5 and 3e-7)
    SNT_CHECK(d3 < 1.5e-5 && d4 < 3e-7);
    // the pitch: the link model's dip, and the rotor model's sink of dt m g r / (2 I_pitch)
    // (test_gyroscope_precesses); the link model at dt 1e-4 under RK4 does not sink
    double ip = GY_M * GY_R * GY_R + GY_IP, mgr = GY_M * GRAV * GY_R;
    double dip = mgr * ip / (GY_IS * GY_SPIN * GY_IS * GY_SPIN);
    SNT_NEAR(ex.pitch_mean, dip, 0.05 * dip);
    for (int i = 0; i < 2; i++) {
        double sink = 0.5 * dts[i] * mgr / (2 * ip) * T;
        SNT_NEAR(ro[i].pitch_mean - ex.pitch_mean, sink, 0.1 * sink);
    }
    return 0;
}


// ---- no work ----

// a random tree (floating base) with a rotor on every 1-DOF joint
static int random_rotors(unsigned long long seed, scene* sc) {
    memset(sc, 0, sizeof *sc);
    char* xml = tc_random_urdf(9, 1, seed);
    sc->m = tc_load_string(xml, 1);
    free(xml);
    SNT_CHECK(sc->m != NULL);
    SNT_STATUS_OK(tc_world_open(sc->m, 1e-3, &sc->w, &sc->s));
    int nrot = 0;
    for (int v = 0; v < sc->m->nv; v++) {
        int j = sc->m->dof_joint[v];
        if (sc->m->joint_nv[j] != 1) continue;
        SNT_STATUS_OK(sn_system_set_rotor(sc->s, v, tc_uniform(1e-5, 1e-3), tc_uniform(-100, 100)));
        nrot++;
    }
    SNT_CHECK(nrot > 0);
    return 0;
}

static double quad_m(const double* M, const double* u, int n) {
    double e = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            e += u[i] * M[i * n + k] * u[k];
    return e;
}

// The Cayley increment keeps u^T M u to rounding for any dt; G is skew; and x^T G u is the power
// of the rotors' couples H x w_p(u) on the carriers turning at w_p(x) (w_p from the forward
// kinematics of velocity x: an independent route to S_p)
static int test_cayley_does_no_work(void) {
    double worst_e = 0, worst_skew = 0, worst_pow = 0;
    tc_seed(15);
    for (int trial = 0; trial < 20; trial++) {
        scene sc;
        SNT_CHECK(random_rotors(1000 + trial, &sc) == 0);
        const sn_model* m = sc.m;
        int nv = m->nv, nq = m->nq;
        double *q = calloc((size_t)nq, sizeof *q), *u = calloc((size_t)nv, sizeof *u);
        double *x = calloc((size_t)nv, sizeof *x), *du = calloc((size_t)nv, sizeof *du);
        double* G = calloc((size_t)nv * nv, sizeof *G);
        double* wx = calloc(3 * (size_t)m->nbody, sizeof *wx);
        tc_random_state(m, q, u);
        for (int v = 0; v < nv; v++)
            u[v] *= 10, x[v] = tc_uniform(-1, 1);
        // w_p(x) for every body, then the state u
        SNT_STATUS_OK(sn_system_set_state(sc.s, q, nq, x, nv));
        sni_ensure_kinematics(sc.s);
        for (int b = 0; b < m->nbody; b++)
            memcpy(wx + 3 * b, sc.s->d->body_vel + 6 * b, 3 * sizeof(double));
        SNT_STATUS_OK(sn_system_set_state(sc.s, q, nq, u, nv));
        sni_ensure_kinematics(sc.s);
        sni_rotor_matrix(sc.s, u, G);
        double gmax = 0, skew = 0, xgu = 0, pw = 0, pscale = 0;
        for (int i = 0; i < nv; i++)
            for (int k = 0; k < nv; k++) {
                gmax = fmax(gmax, fabs(G[i * nv + k]));
                skew = fmax(skew, fabs(G[i * nv + k] + G[k * nv + i]));
                xgu += x[i] * G[i * nv + k] * u[k];
            }
        for (int v = 0; v < nv; v++) {
            double I = sc.s->rotor.inertia[v];
            if (I == 0) continue;
            int p = m->body_parent[m->dof_body[v]];
            const double* ax = sc.s->d->dof_motion + 6 * v;
            if (m->joint_type[m->dof_joint[v]] == SN_JOINT_PRISMATIC) ax += 3;
            double H[3], c[3];
            for (int e = 0; e < 3; e++)
                H[e] = I * sc.s->rotor.ratio[v] * u[v] * ax[e];
            const double* wp = sc.s->d->body_vel + 6 * p;
            c[0] = H[1] * wp[2] - H[2] * wp[1];
            c[1] = H[2] * wp[0] - H[0] * wp[2];
            c[2] = H[0] * wp[1] - H[1] * wp[0];
            for (int e = 0; e < 3; e++) {
                pw += c[e] * wx[3 * p + e];
                pscale += fabs(c[e] * wx[3 * p + e]);
            }
        }
        worst_skew = fmax(worst_skew, skew / gmax);
        worst_pow = fmax(worst_pow, fabs(xgu - pw) / fmax(pscale, 1e-300));
        // u^T M u before and after, at dt from 1 ms to 1 s
        for (int k = 0; k < 4; k++) {
            double dt = pow(10, -3 + k);
            SNT_STATUS_OK(sni_rotor_cayley(sc.s, dt, u, du));
            const double* M = sc.s->d->mass_matrix;
            double e0 = quad_m(M, u, nv);
            for (int v = 0; v < nv; v++)
                du[v] += u[v];
            double e1 = quad_m(M, du, nv), moved = 0;
            for (int v = 0; v < nv; v++)
                moved = fmax(moved, fabs(du[v] - u[v]));
            SNT_CHECK(moved > 0);
            worst_e = fmax(worst_e, fabs(e1 - e0) / e0);
        }
        free(q), free(u), free(x), free(du), free(G), free(wx);
        scene_close(&sc);
    }
    printf("  20 random trees (floating base, a rotor on every 1-DOF joint), dt 1e-3 .. 1 s: "
           "|u'^T M u' - u^T M u| / u^T M u <= %.2e; |G + G^T| / max|G| <= %.2e; x^T G u against "
           "the couples' power: rel %.2e\n",
           worst_e, worst_skew, worst_pow);
    // docs/step.md: 2.1e-15, exactly 0, 8e-16 (rounding; asserted below 3e-14 and 2e-14)
    SNT_CHECK(worst_e < 3e-14);
    SNT_CHECK(worst_skew == 0); // built skew (G_ba = -G_ab)
    SNT_CHECK(worst_pow < 2e-14);
    return 0;
}


// 10,000 full steps of the gyroscope without gravity, nutating (yaw 0.3, pitch 0.2 rad/s at the
// start): the Cayley part keeps the kinetic energy; the rest of the step (the arm's velocity
// products in h, explicit in SEMI_IMPLICIT) drifts by what is reported. Its spin's 5000 J would
// hide it: the drift is shown against the carrier's energy (total less 1/2 IS w_s^2)
static int energy_run(double dt, double* drift) {
    scene sc;
    SNT_CHECK(gyro_open(&sc, 0, 1, dt, SN_SCHEME_SEMI_IMPLICIT, 0) == 0);
    double q[3] = {0, 0, 0}, u[3] = {0.3, 0.2, GY_SPIN};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 3, u, 3));
    double spin = 0.5 * GY_IS * GY_SPIN * GY_SPIN;
    double e0 = sn_system_kinetic_energy(sc.s), ec = e0 - spin, worst = 0, wmax = 0;
    long n = (long)floor(10 / dt + 0.5);
    for (long k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        worst = fmax(worst, fabs(sn_system_kinetic_energy(sc.s) - e0));
        wmax = fmax(wmax, fabs(sn_system_u(sc.s)[1]));
    }
    double end = sn_system_kinetic_energy(sc.s) - e0;
    printf("  %ld steps dt %g s, no gravity: carrier energy %.4e J (total %.6g J); drift at the "
           "end %.3e J (%.2e of the carrier's, %.2e of the total), worst %.3e J; pitch rate up to "
           "%.3g rad/s\n",
           n, dt, ec, e0, end, end / ec, end / e0, worst, wmax);
    scene_close(&sc);
    *drift = end / ec;
    return 0;
}

// (the same 10 s at dt 0.5 ms: the drift is the rest of the step's, first order in dt)
static int test_energy_over_10000_steps(void) {
    double d1, d2;
    SNT_CHECK(energy_run(1e-3, &d1) == 0);
    SNT_CHECK(energy_run(5e-4, &d2) == 0);
    printf("  drift ratio dt 1 ms / 0.5 ms: %.3f\n", d1 / d2);
    SNT_CHECK(fabs(d1) < 3e-3);
    SNT_CHECK(d1 / d2 > 1.6 && d1 / d2 < 2.4);
    return 0;
}


// ---- off by default ----

// two trajectories of n steps are the same bit for bit
static int same_run(scene* a, scene* b, int n, int* differ) {
    *differ = 0;
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(a->w));
        SNT_STATUS_OK(sn_world_integrate(b->w));
        if (memcmp(sn_system_q(a->s), sn_system_q(b->s), 3 * sizeof(double)) ||
            memcmp(sn_system_u(a->s), sn_system_u(b->s), 3 * sizeof(double)))
            *differ = 1;
    }
    return 0;
}

// With armature and no rotor the step is seed 000's bit for bit: a system never given a rotor,
// one whose rotor was set and removed, and one given only spin inertia 0 step alike; so does a
// rotor carried by the fixed world (on the yaw joint: its G is zero). The step allocates nothing.
static int test_off_by_default(void) {
    scene a, b;
    int differ;
    SNT_CHECK(gyro_open(&a, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_CHECK(a.m->dof_armature[2] == GY_IS);
    SNT_CHECK(gyro_open(&b, 0, 1, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_STATUS_OK(sn_system_set_rotor(b.s, 2, 0, 0));
    SNT_CHECK(same_run(&a, &b, 2000, &differ) == 0);
    SNT_CHECK(!differ);
    scene_close(&b);
    SNT_CHECK(gyro_open(&b, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_STATUS_OK(sn_system_set_rotor(b.s, 1, 0, 5));
    double I = -1, N = -1;
    SNT_STATUS_OK(sn_system_rotor(b.s, 1, &I, &N));
    SNT_CHECK(I == 0 && N == 0);
    double q[3] = {0, 0, 0}, u[3] = {0, 0, GY_SPIN};
    SNT_STATUS_OK(sn_system_set_state(a.s, q, 3, u, 3));
    SNT_CHECK(same_run(&a, &b, 2000, &differ) == 0);
    SNT_CHECK(!differ);
    scene_close(&b);
    // a rotor on the yaw joint is carried by the world: no couple, the same numbers
    SNT_CHECK(gyro_open(&b, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_STATUS_OK(sn_system_set_rotor(b.s, 0, 0.5, 30));
    SNT_STATUS_OK(sn_system_set_state(a.s, q, 3, u, 3));
    SNT_CHECK(same_run(&a, &b, 2000, &differ) == 0);
    SNT_CHECK(!differ && b.s->rotor.applied == 1);
    printf("  2000 steps x 3: no rotor, rotor set then removed, inertia 0, a rotor carried by "
           "the world: bit-identical q and u; the falling arm at pitch %.4f rad\n",
           sn_system_q(a.s)[1]);
    scene_close(&b);
    // no allocation in a step with a rotor
    SNT_CHECK(gyro_open(&b, 0, 1, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_STATUS_OK(sn_world_integrate(b.w));
    tc_heap_install();
    long before = tc_heap_calls();
    for (int k = 0; k < 100; k++)
        SNT_STATUS_OK(sn_world_integrate(b.w));
    long calls = tc_heap_calls() - before;
    printf("  100 steps with a rotor: %ld heap calls\n", calls);
    SNT_CHECK(calls == 0);
    scene_close(&b);
    scene_close(&a);
    return 0;
}


// ---- refusals ----

static int refused(sn_status got, sn_status want, const sn_world* w, const char* word) {
    const char* msg = sn_world_last_error(w);
    printf("  %d: %s\n", (int)got, msg);
    SNT_CHECK_MSG(got == want, "status %d, wanted %d", (int)got, (int)want);
    SNT_CHECK_MSG(strstr(msg, word) != NULL, "'%s' does not name '%s'", msg, word);
    return 0;
}

static int test_refusals(void) {
    scene sc;
    SNT_CHECK(gyro_open(&sc, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    sn_system* s = sc.s;
    const sn_world* w = sc.w;
    SNT_CHECK(refused(sn_system_set_rotor(s, 2, NAN, 1), SN_ERR_NONFINITE, w, "spin_inertia") == 0);
    SNT_CHECK(
        refused(sn_system_set_rotor(s, 2, INFINITY, 1), SN_ERR_NONFINITE, w, "spin_inertia") == 0);
    SNT_CHECK(refused(sn_system_set_rotor(s, 2, -1e-3, 1), SN_ERR_ARG, w, "spin_inertia") == 0);
    SNT_CHECK(refused(sn_system_set_rotor(s, 2, 1e-3, NAN), SN_ERR_NONFINITE, w, "gear_ratio") ==
              0);
    SNT_CHECK(refused(sn_system_set_rotor(s, 2, 1e-3, 0), SN_ERR_ARG, w, "gear_ratio") == 0);
    SNT_CHECK(refused(sn_system_set_rotor(s, 3, 1e-3, 1), SN_ERR_ARG, w, "dof 3") == 0);
    SNT_CHECK(refused(sn_system_set_rotor(s, -1, 1e-3, 1), SN_ERR_ARG, w, "dof -1") == 0);
    SNT_CHECK(refused(sn_system_rotor(s, 7, NULL, NULL), SN_ERR_ARG, w, "dof 7") == 0);
    SNT_CHECK(sn_system_set_rotor(NULL, 0, 1e-3, 1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_rotor(NULL, 0, NULL, NULL) == SN_ERR_ARG);
    // nothing was set by the refusals
    double I = -1, N = -1;
    SNT_STATUS_OK(sn_system_rotor(s, 2, &I, &N));
    SNT_CHECK(I == 0 && N == 0 && s->rotor.n == 0);
    // the other schemes: refused both ways
    SNT_STATUS_OK(sn_system_set_scheme(s, SN_SCHEME_RK4));
    SNT_CHECK(refused(sn_system_set_rotor(s, 2, 1e-3, 1), SN_ERR_ARG, w, "SEMI_IMPLICIT") == 0);
    SNT_STATUS_OK(sn_system_set_scheme(s, SN_SCHEME_SEMI_IMPLICIT));
    SNT_STATUS_OK(sn_system_set_rotor(s, 2, 1e-3, -3));
    SNT_STATUS_OK(sn_system_rotor(s, 2, &I, &N));
    SNT_CHECK(I == 1e-3 && N == -3);
    SNT_CHECK(
        refused(sn_system_set_scheme(s, SN_SCHEME_TRAPEZOID), SN_ERR_ARG, w, "SEMI_IMPLICIT") == 0);
    SNT_CHECK(sn_system_scheme(s) == SN_SCHEME_SEMI_IMPLICIT);
    scene_close(&sc);
    // a DOF of a multi-DOF joint (the top's spherical joint, a floating base)
    const char* ball = "<robot name=\"b\"><link name=\"world\"/><link name=\"a\"><inertial><mass "
                       "value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" "
                       "izz=\"1\"/></inertial></link><joint name=\"ball\" type=\"spherical\">"
                       "<parent link=\"world\"/><child link=\"a\"/></joint></robot>";
    sc.m = tc_load_string(ball, 0);
    SNT_CHECK(sc.m != NULL);
    SNT_STATUS_OK(tc_world_open(sc.m, 1e-3, &sc.w, &sc.s));
    SNT_CHECK(refused(sn_system_set_rotor(sc.s, 1, 1e-3, 1), SN_ERR_ARG, sc.w, "'ball'") == 0);
    scene_close(&sc);
    return 0;
}


// ---- checkpoints ----

// 300 steps, a checkpoint, 300 more; the checkpoint loaded into a world set up the same goes on
// bit for bit. A world without the rotor, or with another ratio, is refused
static int test_checkpoint(void) {
    scene a, b;
    SNT_CHECK(gyro_open(&a, 0, 1, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    for (int k = 0; k < 300; k++)
        SNT_STATUS_OK(sn_world_integrate(a.w));
    size_t n = 0;
    SNT_STATUS_OK(sn_world_checkpoint_size(a.w, &n));
    void* buf = malloc(n);
    SNT_STATUS_OK(sn_world_save_state(a.w, buf, n, NULL));
    for (int k = 0; k < 300; k++)
        SNT_STATUS_OK(sn_world_integrate(a.w));
    SNT_CHECK(gyro_open(&b, 0, 1, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_STATUS_OK(sn_world_load_state(b.w, buf, n));
    for (int k = 0; k < 300; k++)
        SNT_STATUS_OK(sn_world_integrate(b.w));
    int same = !memcmp(sn_system_q(a.s), sn_system_q(b.s), 3 * sizeof(double)) &&
               !memcmp(sn_system_u(a.s), sn_system_u(b.s), 3 * sizeof(double)) &&
               sn_world_time(a.w) == sn_world_time(b.w);
    printf("  resumed after 300 steps: q, u after 300 more %s (yaw %.9f); checkpoint %zu bytes\n",
           same ? "bit-identical" : "DIFFER", sn_system_q(b.s)[0], n);
    SNT_CHECK(same);
    scene_close(&b);
    SNT_CHECK(gyro_open(&b, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_CHECK(refused(sn_world_load_state(b.w, buf, n), SN_ERR_MODEL, b.w, "foreign") == 0);
    SNT_STATUS_OK(sn_system_set_rotor(b.s, 2, GY_IS, 2));
    SNT_CHECK(refused(sn_world_load_state(b.w, buf, n), SN_ERR_MODEL, b.w, "gear ratios") == 0);
    // a world without rotors writes what it always did: the rotor removed, the same size as a
    // world that never had one
    size_t n0 = 0, n1 = 0;
    SNT_STATUS_OK(sn_system_set_rotor(b.s, 2, 0, 0));
    SNT_STATUS_OK(sn_world_checkpoint_size(b.w, &n1));
    scene_close(&b);
    SNT_CHECK(gyro_open(&b, 0, 0, 1e-3, SN_SCHEME_SEMI_IMPLICIT, GRAV) == 0);
    SNT_STATUS_OK(sn_world_checkpoint_size(b.w, &n0));
    printf("  without rotors %zu bytes, with the rotor %zu\n", n0, n);
    SNT_CHECK(n0 == n1 && n > n0);
    scene_close(&b);
    free(buf);
    scene_close(&a);
    return 0;
}


SNT_SUITE(SNT_TEST(test_cayley_does_no_work), SNT_TEST(test_energy_over_10000_steps),
          SNT_TEST(test_gyroscope_precesses), SNT_TEST(test_rotor_against_link),
          SNT_TEST(test_off_by_default), SNT_TEST(test_refusals), SNT_TEST(test_checkpoint))
