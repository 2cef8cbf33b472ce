// SPDX-License-Identifier: Apache-2.0
// test_maximal_model.c: any model in maximal coordinates (src/maxc/from_model.c; issue 14,
// docs/constraints.md "Any model in maximal coordinates"). sn_maximal_from_model then
// sn_maximal_joint_state gives q and u back (a serial arm, a floating base, spherical joints,
// prismatic joints with a mimic), the bodies carry the model's energy and momentum, and a double
// pendulum and a 4-link chain in maximal coordinates follow the articulated system (sn_world, no
// ground, no damping) at the link tips. Every test prints the numbers it measured.
#include "common.h"
#include "harness/snt.h"
#include "sinew/sn.h"
#include "sinew/sn_maximal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static sn_model* load_data(const char* name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/maximal/%s", SNT_SOURCE_DIR, name);
    return tc_load_file(path, 0);
}

// largest |a - b| over n entries; quaternion blocks of the model compared as rotations (q ~ -q)
static double max_diff(const double* a, const double* b, int n) {
    double e = 0;
    for (int i = 0; i < n; i++)
        e = fmax(e, fabs(a[i] - b[i]));
    return e;
}

// ---- from_model then joint_state: q and u back ----

// model `rel` (shared models) at 5 random states: q and u back to 1e-12, the energies and the
// momentum of the bodies equal the model's (1e-9 relative); returns 0, or SNT_SKIP without the
// shared models
static int round_trip(const char* rel, int expect_floating, int expect_ball, int expect_slider) {
    const char* path = tc_model_path(rel);
    if (!path) return SNT_SKIP;
    sn_model* m = NULL;
    sn_error lerr;
    SNT_CHECK_MSG(sn_load(path, NULL, &m, &lerr) == SN_OK, "%s", lerr.msg);
    int nball = 0, nslider = 0;
    for (int j = 0; j < m->njoint; j++)
        nball += m->joint_type[j] == SN_JOINT_SPHERICAL,
            nslider += m->joint_type[j] == SN_JOINT_PRISMATIC;
    SNT_CHECK(expect_floating < 0 || m->is_floating == expect_floating);
    SNT_CHECK((nball > 0) == expect_ball && (nslider > 0) == expect_slider);
    double* q = calloc((size_t)m->nq, sizeof(double));
    double* u = calloc((size_t)m->nv, sizeof(double));
    double* q2 = calloc((size_t)m->nq, sizeof(double));
    double* u2 = calloc((size_t)m->nv, sizeof(double));
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    double eq = 0, eu = 0, ee = 0, ep = 0, ec = 0;
    int ncon = 0, nbody = 0, nrow = 0;
    tc_seed(14);
    for (int trial = 0; trial < 5; trial++) {
        tc_random_state(m, q, u);
        sn_maximal* mx = NULL;
        sn_error err;
        sn_status st = sn_maximal_from_model(m, q, u, NULL, &mx, &err);
        SNT_CHECK_MSG(st == SN_OK, "%s: %s", rel, err.msg);
        SNT_CHECK(sn_maximal_model(mx) == m);
        SNT_STATUS_OK(sn_maximal_joint_state(mx, q2, m->nq, u2, m->nv));
        // the model's own normalized quaternions (sn_set_state) are what come back
        SNT_STATUS_OK(sn_set_state(m, d, q, m->nq, u, m->nv));
        eq = fmax(eq, max_diff(d->q, q2, m->nq));
        eu = fmax(eu, max_diff(u, u2, m->nv));
        SNT_STATUS_OK(sn_fk(m, d));
        SNT_STATUS_OK(sn_fk_vel(m, d));
        // energies and momentum: the bodies carry the model's
        // less the rotor inertia's share, which no body carries
        double ke = sn_kinetic_energy(m, d), pe = sn_potential_energy(m, d), pw = 0;
        for (int i = 0; i < m->nv; i++)
            ke -= 0.5 * m->dof_armature[i] * u[i] * u[i];
        // the potential energy of the links welded to the world is not in the maximal system
        pw = -m->body_mass[0] * (d->gravity[0] * d->body_com[0] + d->gravity[1] * d->body_com[1] +
                                 d->gravity[2] * d->body_com[2]);
        double kx = sn_maximal_kinetic_energy(mx), px = sn_maximal_potential_energy(mx);
        ee = fmax(ee, fabs(ke - kx) / fmax(fabs(ke), 1));
        ee = fmax(ee, fabs(pe - pw - px) / fmax(fabs(pe), 1));
        double l1[3], a1[3], l2[3], a2[3];
        sn_momentum(m, d, l1, a1);
        sn_maximal_momentum(mx, l2, a2);
        double scale = 1;
        for (int k = 0; k < 3; k++)
            scale = fmax(scale, fmax(fabs(l1[k]), fabs(a1[k])));
        ep = fmax(ep, fmax(max_diff(l1, l2, 3), max_diff(a1, a2, 3)) / scale);
        // the joints' constraints hold at any q (the loops and mimic gears only where q closes
        // them)
        int mimic = 0;
        for (int j = 0; j < m->njoint; j++)
            mimic |= m->joint_mimic[j] >= 0;
        double rms, worst;
        SNT_STATUS_OK(sn_maximal_constraint_error(mx, &rms, &worst));
        if (!m->nconstraint && !mimic) ec = fmax(ec, worst);
        ncon = sn_maximal_constraint_count(mx), nbody = sn_maximal_body_count(mx);
        nrow = sn_maximal_row_count(mx);
        sn_maximal_destroy(mx);
    }
    printf("  %s: %d bodies, %d constraints (%d rows); q back to %.2e, u to %.2e; energy "
           "%.2e, momentum %.2e (relative); joints' c %.2e\n",
           rel, nbody, ncon, nrow, eq, eu, ee, ep, ec);
    SNT_CHECK(nbody == m->nbody - 1);
    // docs/constraints.md: q and u back to at most 9.4e-16, energies and momentum to 5.0e-16
    // relative, the joints' c at most 6.1e-16 (rounding; asserted below 1e-14)
    SNT_CHECK(eq <= 1e-14 && eu <= 1e-14);
    SNT_CHECK(ee <= 1e-14 && ep <= 1e-14 && ec <= 1e-14);
    sn_data_destroy(d);
    free(q), free(u), free(q2), free(u2);
    sn_model_destroy(m);
    return 0;
}

// a serial arm with a fixed base (its root link is the world body: the first joint is a hinge
// to the world)
static int test_round_trip_arm(void) {
    return round_trip("raisim_kinova/urdf/kinova.urdf", 0, 0, 0);
}

static int test_round_trip_ur5(void) {
    return round_trip("erd_ur5/urdf/ur5_robot.urdf", 0, 0, 0);
}

// a floating base: no constraint on the base, its pose and twist from the body
static int test_round_trip_anymal(void) {
    return round_trip("raisim_anymal_c/urdf/anymal.urdf", 1, 0, 0);
}

// spherical joints (Cassie's two ball joints and its four loops as balls)
static int test_round_trip_cassie(void) {
    return round_trip("menagerie_cassie/cassie.xml", 1, 1, 0);
}

// prismatic fingers, one of them a mimic of the other (a gear)
static int test_round_trip_panda(void) {
    return round_trip("erd_panda/urdf/panda_collision.urdf", -1, 0, 1);
}

// ---- the chain in maximal coordinates against the articulated chain ----

// the world positions of the link tips (0 0 -1 in each link) of the chain at q
static void tips(const sn_model* m, sn_data* d, const double* q, double* out) {
    sn_set_state(m, d, q, m->nq, NULL, 0);
    sn_fk(m, d);
    for (int j = 0; j < m->njoint; j++) {
        int f = m->joint_ujoint[j] >= 0 ? m->ujoint_child[m->joint_ujoint[j]] : 0;
        double p[3], R[9];
        sn_frame_pose(m, d, f, p, R);
        for (int k = 0; k < 3; k++)
            out[3 * j + k] = p[k] - R[3 * k + 2];
    }
}

typedef struct chain_result {
    double tip, angle, rate; // largest differences over the run (m, rad, rad/s)
    double e_mx, e_art;      // largest energy changes (J)
    double c_worst;          // largest constraint error of the maximal system (m or rad)
} chain_result;

// the chain `file` from q0 at rest for T s at dt: sn_maximal against sn_world, both by `scheme`
// (0 semi-implicit, 1 RK4), compared every 10 ms
static int chain_run(const char* file, const double* q0, double T, double dt, int rk4,
                     chain_result* r) {
    sn_model* m = load_data(file);
    SNT_CHECK(m != NULL);
    memset(r, 0, sizeof *r);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(tc_world_open(m, dt, &w, &s));
    SNT_STATUS_OK(sn_system_set_scheme(s, rk4 ? SN_SCHEME_RK4 : SN_SCHEME_SEMI_IMPLICIT));
    double u0[8] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q0, m->nq, u0, m->nv));
    sn_maximal* mx = NULL;
    sn_error err;
    SNT_CHECK_MSG(sn_maximal_from_model(m, q0, NULL, NULL, &mx, &err) == SN_OK, "%s", err.msg);
    SNT_STATUS_OK(sn_maximal_set_timestep(mx, dt));
    SNT_STATUS_OK(sn_maximal_set_scheme(mx, rk4 ? SN_MAXIMAL_RK4 : SN_MAXIMAL_SEMI_IMPLICIT));
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    double e0a = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
    double e0m = sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx);
    long steps = (long)floor(T / dt + 0.5), every = (long)floor(0.01 / dt + 0.5);
    double q[8], u[8], ta[24], tm[24];
    for (long k = 1; k <= steps; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        SNT_CHECK_MSG(sn_maximal_step(mx) == SN_OK, "step %ld: %s", k, sn_maximal_last_error(mx));
        double rms, worst;
        SNT_STATUS_OK(sn_maximal_constraint_error(mx, &rms, &worst));
        r->c_worst = fmax(r->c_worst, worst);
        if (k % every) continue;
        SNT_STATUS_OK(sn_maximal_joint_state(mx, q, m->nq, u, m->nv));
        const sn_real* qa = sn_system_q(s);
        const sn_real* ua = sn_system_u(s);
        r->angle = fmax(r->angle, max_diff(q, qa, m->nq));
        r->rate = fmax(r->rate, max_diff(u, ua, m->nv));
        tips(m, d, qa, ta);
        tips(m, d, q, tm);
        r->tip = fmax(r->tip, max_diff(ta, tm, 3 * m->njoint));
        double ea = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
        double em = sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx);
        r->e_art = fmax(r->e_art, fabs(ea - e0a));
        r->e_mx = fmax(r->e_mx, fabs(em - e0m));
    }
    sn_data_destroy(d);
    sn_maximal_destroy(mx);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static void chain_print(const char* name, const char* scheme, const chain_result* r) {
    printf("  %s, %s: tips within %.3e m, angles %.3e rad, rates %.3e rad/s; energy change "
           "maximal %.3e J, articulated %.3e J; constraint error <= %.3e\n",
           name, scheme, r->tip, r->angle, r->rate, r->e_mx, r->e_art, r->c_worst);
}

// the double pendulum from (1, -0.5) rad for 2 s at dt 1e-4: by RK4 the two agree at the tips
// to 1e-4 m (issue 14's figure); semi-implicit Euler's energy error is the scheme's (both
// systems' of the same order)
static int test_double_pendulum(void) {
    const double q0[2] = {1.0, -0.5};
    chain_result r;
    SNT_CHECK(chain_run("double_pendulum.urdf", q0, 2, 1e-4, 1, &r) == 0);
    chain_print("double pendulum", "RK4", &r);
    // docs/constraints.md: tips 8.1e-11 m, angles 1.5e-10 rad, energy 3.5e-10 J (articulated
    // 1.1e-13), constraint error 2.5e-11 (asserted below 3e-10, 5e-10, 1e-9, 1e-12, 1e-10)
    SNT_CHECK(r.tip <= 3e-10 && r.angle <= 5e-10);
    SNT_CHECK(r.e_mx <= 1e-9 && r.e_art <= 1e-12 && r.c_worst <= 1e-10);
    SNT_CHECK(chain_run("double_pendulum.urdf", q0, 2, 1e-4, 0, &r) == 0);
    chain_print("double pendulum", "semi-implicit", &r);
    // two first-order schemes: their difference is of their errors' size (measured 3.6e-4 m)
    // docs/constraints.md: tips 3.6e-4 m, energy 1.0e-3 J (maximal) and 2.7e-3 J (articulated)
    SNT_CHECK(r.tip <= 5e-4);
    SNT_CHECK(r.e_mx <= 10 * fmax(r.e_art, 1e-6));
    SNT_NEAR(r.e_mx, 1.0e-3, 0.05e-3);
    SNT_NEAR(r.e_art, 2.7e-3, 0.05e-3);
    return 0;
}

// a 4-link chain from (0.8, -0.4, 0.3, 0.6) rad, likewise
static int test_chain4(void) {
    const double q0[4] = {0.8, -0.4, 0.3, 0.6};
    chain_result r;
    SNT_CHECK(chain_run("chain4.urdf", q0, 2, 1e-4, 1, &r) == 0);
    chain_print("4-link chain", "RK4", &r);
    // docs/constraints.md: tips 1.8e-10 m, energy 1.8e-9 J (constraint error 2.9e-11); asserted
    // below 5e-10, 5e-9, 1e-10
    SNT_CHECK(r.tip <= 5e-10);
    SNT_CHECK(r.e_mx <= 5e-9 && r.c_worst <= 1e-10);
    return 0;
}

// ---- the model's loops ----

// models/fourbar.urdf (a pin closes the crank-rocker): in maximal coordinates its pin is a ball
// whose third row the hinges make redundant (the core's pivoted factor keeps the independent
// ones); from the file's start state (sn_system_apply_file), by RK4 at dt 1e-4 for 1 s the loop
// stays closed and the energy kept, and for the first 0.1 s the angles follow the articulated
// system's (later the crank's full turns through near-toggle positions make the two drift
// apart: 4e-2 rad at 1 s, where the articulated system's own energy changed by 1e-3 J)
static int test_fourbar_loop(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/fourbar.urdf", SNT_SOURCE_DIR);
    sn_model* m = tc_load_file(path, 1);
    SNT_CHECK(m != NULL && m->nconstraint == 1);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(tc_world_open(m, 1e-4, &w, &s));
    sn_setup_opts o;
    memset(&o, 0, sizeof o);
    o.ground = SN_GROUND_OFF;
    sn_setup_report rep;
    SNT_STATUS_OK(sn_system_apply_file(s, &o, &rep));
    SNT_STATUS_OK(sn_system_set_scheme(s, SN_SCHEME_RK4));
    sn_maximal* mx = NULL;
    sn_error err;
    SNT_CHECK_MSG(sn_maximal_from_model(m, sn_system_q(s), sn_system_u(s), NULL, &mx, &err) ==
                      SN_OK,
                  "%s", err.msg);
    SNT_CHECK(sn_maximal_constraint_count(mx) == 4 && sn_maximal_row_count(mx) == 17);
    SNT_STATUS_OK(sn_maximal_set_timestep(mx, 1e-4));
    SNT_STATUS_OK(sn_maximal_set_scheme(mx, SN_MAXIMAL_RK4));
    double e0 = sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx);
    double c0, cw = 0, de = 0, dq = 0, q[3];
    SNT_STATUS_OK(sn_maximal_constraint_error(mx, &c0, &cw));
    for (int k = 1; k <= 10000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        SNT_CHECK_MSG(sn_maximal_step(mx) == SN_OK, "step %d: %s", k, sn_maximal_last_error(mx));
        double rms, worst;
        SNT_STATUS_OK(sn_maximal_constraint_error(mx, &rms, &worst));
        cw = fmax(cw, worst);
        de = fmax(de, fabs(sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx) - e0));
        if (k <= 1000) {
            SNT_STATUS_OK(sn_maximal_joint_state(mx, q, 3, NULL, 0));
            dq = fmax(dq, max_diff(q, sn_system_q(s), 3));
        }
    }
    printf("  four-bar, RK4 at 1e-4 for 1 s: closure <= %.3e m, energy kept to %.3e J of %.4f; "
           "angles within %.3e rad of the articulated system's over the first 0.1 s\n",
           cw, de, e0, dq);
    // docs/constraints.md: closure 3.7e-11 m, energy 2.5e-9 J, angles 5.9e-5 rad (asserted below
    // 1e-10, 1e-8, 1e-4)
    SNT_CHECK(cw <= 1e-10 && de <= 1e-8 && dq <= 1e-4);
    sn_maximal_destroy(mx);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

// ---- a mimic joint as a gear ----

// joint 2 mimics joint 1 with multiplier 2 and offset 0.1: started on the relation and moving,
// the maximal system keeps q2 = 2 q1 + 0.1 (a gear of the wrong sign or offset would pull it
// elsewhere: the stabilization closes any start error)
static int test_mimic_gear(void) {
    const char* xml =
        "<robot name=\"mimic\"><link name=\"world\"/>"
        "<link name=\"a\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"1\"/><inertia "
        "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
        "<link name=\"b\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"1\"/><inertia "
        "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
        "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/>"
        "<axis xyz=\"0 1 0\"/></joint>"
        "<joint name=\"j2\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>"
        "<origin xyz=\"0 0 -1\"/><axis xyz=\"0 1 0\"/><mimic joint=\"j1\" multiplier=\"2\" "
        "offset=\"0.1\"/></joint></robot>";
    sn_model* m = tc_load_string(xml, 1);
    SNT_CHECK(m != NULL && m->nv == 2 && m->joint_mimic[1] == 0);
    double q[2] = {0.2, 0.5}, u[2] = {1, 2};
    sn_maximal* mx = NULL;
    sn_error err;
    SNT_CHECK_MSG(sn_maximal_from_model(m, q, u, NULL, &mx, &err) == SN_OK, "%s", err.msg);
    SNT_CHECK(sn_maximal_constraint_count(mx) == 3 && sn_maximal_row_count(mx) == 11);
    SNT_STATUS_OK(sn_maximal_set_timestep(mx, 1e-3));
    SNT_STATUS_OK(sn_maximal_set_scheme(mx, SN_MAXIMAL_RK4));
    double worst = 0, moved = 0;
    for (int k = 0; k < 1000; k++) {
        SNT_STATUS_OK(sn_maximal_step(mx));
        double qq[2], uu[2];
        SNT_STATUS_OK(sn_maximal_joint_state(mx, qq, 2, uu, 2));
        worst = fmax(worst, fmax(fabs(qq[1] - 2 * qq[0] - 0.1), fabs(uu[1] - 2 * uu[0])));
        moved = fmax(moved, fabs(qq[0] - q[0]));
    }
    printf("  mimic j2 = 2 j1 + 0.1 as a gear, 1 s RK4 at 1 ms: held to %.3e (rad, rad/s) while j1 "
           "moved by up to %.3f rad\n",
           worst, moved);
    // docs/constraints.md: held to 2.9e-10 while q1 moves by 0.26 rad (asserted below 1e-9)
    SNT_CHECK(worst <= 1e-9 && moved > 0.1);
    sn_maximal_destroy(mx);
    sn_model_destroy(m);
    return 0;
}

// ---- what is left out, warned ----

typedef struct log_count {
    int n;
    char first[512];
} log_count;

static void count_log(sn_log_level level, const char* msg, void* ctx) {
    log_count* c = ctx;
    if (level >= SN_LOG_WARNING && c->n++ == 0) snprintf(c->first, sizeof c->first, "%s", msg);
}

// the arm's position limits (and nothing else) are said once; the pendulum warns of nothing
static int test_warnings(void) {
    const char* path = tc_model_path("raisim_kinova/urdf/kinova.urdf");
    if (!path) return SNT_SKIP;
    sn_model* m = tc_load_file(path, 1);
    SNT_CHECK(m != NULL);
    int limited = 0;
    for (int i = 0; i < m->nv; i++)
        limited += m->dof_limited[i] != 0;
    log_count c = {0, ""};
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.log = count_log, o.log_ctx = &c;
    sn_maximal* mx = NULL;
    SNT_STATUS_OK(sn_maximal_from_model(m, NULL, NULL, &o, &mx, NULL));
    printf("  kinova: %d warnings, the first: %s\n", c.n, c.first);
    SNT_CHECK(limited > 0 && c.n >= 1 && strstr(c.first, "position limits"));
    sn_maximal_destroy(mx);
    sn_model_destroy(m);
    m = load_data("double_pendulum.urdf");
    SNT_CHECK(m != NULL);
    c.n = 0;
    SNT_STATUS_OK(sn_maximal_from_model(m, NULL, NULL, &o, &mx, NULL));
    SNT_CHECK(c.n == 0);
    sn_maximal_destroy(mx);
    sn_model_destroy(m);
    return 0;
}

// ---- refusals ----

static int test_refusals(void) {
    sn_model* m = load_data("double_pendulum.urdf");
    SNT_CHECK(m != NULL);
    sn_maximal* mx = (sn_maximal*)&m; // must be overwritten with NULL
    sn_error err;
    SNT_CHECK(sn_maximal_from_model(NULL, NULL, NULL, NULL, &mx, &err) == SN_ERR_ARG);
    SNT_CHECK(mx == NULL && strstr(err.msg, "m is NULL"));
    SNT_CHECK(sn_maximal_from_model(m, NULL, NULL, NULL, NULL, &err) == SN_ERR_ARG);
    double q[2] = {0.1, NAN}, u[2] = {0, 0};
    SNT_CHECK(sn_maximal_from_model(m, q, u, NULL, &mx, &err) == SN_ERR_NONFINITE);
    SNT_CHECK(mx == NULL && strstr(err.msg, "q[1]"));
    q[1] = 0.2, u[0] = INFINITY;
    SNT_CHECK(sn_maximal_from_model(m, q, u, NULL, &mx, &err) == SN_ERR_NONFINITE);
    SNT_CHECK(strstr(err.msg, "u[0]") != NULL);
    u[0] = 0;
    SNT_STATUS_OK(sn_maximal_from_model(m, q, u, NULL, &mx, &err));
    double q3[3];
    SNT_CHECK(sn_maximal_joint_state(mx, q3, 3, u, 2) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_maximal_last_error(mx), "nq 3") != NULL);
    SNT_CHECK(sn_maximal_joint_state(NULL, q, 2, u, 2) == SN_ERR_ARG);
    SNT_STATUS_OK(sn_maximal_joint_state(mx, q, 2, NULL, 0));
    SNT_NEAR(q[1], 0.2, 1e-15);
    sn_maximal_destroy(mx);
    // a body without mass (a massless link on a joint) has no place in maximal coordinates
    const char* xml =
        "<robot name=\"r\"><link name=\"world\"/><link name=\"a\"/>"
        "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" "
        "iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>"
        "<joint name=\"j1\" type=\"revolute\"><parent link=\"world\"/><child link=\"a\"/>"
        "<axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"
        "<joint name=\"j2\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
        "<axis xyz=\"1 0 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"
        "</robot>";
    sn_model* m2 = tc_load_string(xml, 1);
    SNT_CHECK(m2 != NULL);
    sn_status st = sn_maximal_from_model(m2, NULL, NULL, NULL, &mx, &err);
    printf("  a massless link: %s (%s)\n", sn_status_str(st), err.msg);
    SNT_CHECK(st == SN_ERR_MODEL && mx == NULL && strstr(err.msg, "'a'"));
    sn_model_destroy(m2);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_round_trip_arm), SNT_TEST(test_round_trip_ur5),
          SNT_TEST(test_round_trip_anymal), SNT_TEST(test_round_trip_cassie),
          SNT_TEST(test_round_trip_panda), SNT_TEST(test_double_pendulum), SNT_TEST(test_chain4),
          SNT_TEST(test_fourbar_loop), SNT_TEST(test_mimic_gear), SNT_TEST(test_warnings),
          SNT_TEST(test_refusals))
