// SPDX-License-Identifier: Apache-2.0
// test_entries.c: issue 16, item 4. The loop constraints as internal entries of getContacts
// (seed 001): on the four-bar and the Strandbeest closed by pins (one entry per loop: the second
// pin of each hinge has no direction of its own), each entry's impulse is sn_system_constraint's
// to the bit, and J^T of the entries is the loops' share of the step. The step-5 table's
// friction, contact/limit and loop shares: with the five other terms they sum to M du/dt + h at
// the step's start; a joint's friction and limit shares are its rows' impulses / dt.
// setActuatorTorque, one actuator, steps as the vector form. Refusals with messages; no
// allocation in a step or in the getters.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOURBAR SNT_SOURCE_DIR "/models/fourbar.urdf"
#define BEEST_PINS SNT_SOURCE_DIR "/models/strandbeest_pins.urdf"
#define NVMAX 128

typedef struct rig {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} rig;

static int rig_open(rig* r, const char* file, const char* xml, double dt, int ground) {
    memset(r, 0, sizeof *r);
    r->m = file ? tc_load_file(file, 1) : tc_load_string(xml, 1);
    SNT_CHECK(r->m != NULL);
    SNT_STATUS_OK(tc_world_open(r->m, dt, &r->w, &r->s));
    if (ground) SNT_STATUS_OK(sn_world_set_ground(r->w, 1, 0));
    return 0;
}

static void rig_close(rig* r) {
    sn_world_destroy(r->w);
    sn_model_destroy(r->m);
}

// the step's start: M and h there, q0 and u0
typedef struct start {
    double M[NVMAX * NVMAX], h[NVMAX], q[NVMAX], u[NVMAX];
} start;

static void take_start(sn_system* s, start* t) {
    const sn_model* m = sn_system_model(s);
    memcpy(t->M, sn_system_mass_matrix(s), (size_t)(m->nv * m->nv) * sizeof(double));
    memcpy(t->h, sn_system_nonlinear(s), (size_t)m->nv * sizeof(double));
    memcpy(t->q, sn_system_q(s), (size_t)m->nq * sizeof(double));
    memcpy(t->u, sn_system_u(s), (size_t)m->nv * sizeof(double));
}

// the largest entry of |M du/dt + h - the eight terms of the table| and of the terms themselves
static int table_residual(sn_system* s, const start* t, double dt, double* res, double* big) {
    const sn_model* m = sn_system_model(s);
    int nv = m->nv;
    static double x[8][NVMAX];
    SNT_STATUS_OK(sn_system_step_torques(s, x[0], x[1], x[2], x[3], x[4]));
    SNT_STATUS_OK(sn_system_step_constraint_torques(s, x[5], x[6], x[7]));
    const double* u1 = sn_system_u(s);
    *res = *big = 0;
    for (int i = 0; i < nv; i++) {
        double lhs = t->h[i], sum = 0;
        for (int j = 0; j < nv; j++)
            lhs += t->M[i * nv + j] * (u1[j] - t->u[j]) / dt;
        for (int k = 0; k < 8; k++) {
            sum += x[k][i];
            *big = fmax(*big, fabs(x[k][i]));
        }
        *res = fmax(*res, fabs(lhs - sum));
    }
    return 0;
}

// J^T of the loop entries at the step's start (q0): body1 takes the impulse at the entry's
// position, body2 its opposite at its own anchor (a pin's: position - separation)
static int entries_jt(sn_system* s, const double* q0, double* g, int* nentry) {
    const sn_model* m = sn_system_model(s);
    int nv = m->nv;
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    SNT_STATUS_OK(sn_set_state(m, d, q0, m->nq, NULL, 0));
    SNT_STATUS_OK(sn_fk(m, d));
    static double jp[3 * NVMAX];
    memset(g, 0, (size_t)nv * sizeof(double));
    *nentry = 0;
    int n = sn_system_contact_entry_count(s);
    for (int i = sn_system_contact_count(s); i < n; i++) {
        sn_contact e;
        double imp[3], sep[3];
        SNT_STATUS_OK(sn_system_contact_entry(s, i, &e));
        SNT_CHECK(e.constraint >= 0 && e.self == 1 && e.geom == -1);
        SNT_STATUS_OK(sn_system_constraint(s, e.constraint, imp, sep));
        for (int k = 0; k < 3; k++) // sn_system_constraint's impulse, to the bit
            SNT_CHECK(memcmp(&imp[k], &e.impulse[k], sizeof(double)) == 0);
        int pin = m->constraint_type[e.constraint] == SN_CONSTRAINT_PIN;
        for (int side = 0; side < 2; side++) {
            int b = side ? e.other_body : e.body;
            if (b <= 0) continue;
            double x[3];
            for (int k = 0; k < 3; k++)
                x[k] = e.position[k] - (side && pin ? sep[k] : 0);
            sn_point_jacobian(m, d, b, x, jp, NULL);
            for (int v = 0; v < nv; v++)
                for (int k = 0; k < 3; k++)
                    g[v] += (side ? -1 : 1) * jp[k * nv + v] * e.impulse[k];
        }
        (*nentry)++;
    }
    sn_data_destroy(d);
    return 0;
}

// the loops' share of the table against J^T of the entries: the largest difference, relative
static int loop_share_check(sn_system* s, const double* q0, double dt, double* rel, int* nentry) {
    int nv = sn_system_model(s)->nv;
    static double g[NVMAX], share[NVMAX];
    SNT_CHECK(entries_jt(s, q0, g, nentry) == 0);
    SNT_STATUS_OK(sn_system_step_constraint_torques(s, NULL, NULL, share));
    double diff = 0, big = 0;
    for (int v = 0; v < nv; v++) {
        diff = fmax(diff, fabs(g[v] / dt - share[v]));
        big = fmax(big, fabs(share[v]));
    }
    *rel = diff / big;
    SNT_CHECK(big > 0);
    return 0;
}


static int test_fourbar_entries(void) {
    rig r;
    SNT_CHECK(rig_open(&r, FOURBAR, NULL, 0.001, 0) == 0);
    int nv = r.m->nv;
    SNT_CHECK(sn_system_contact_entry_count(r.s) == 0); // before the first step: none
    double tau[NVMAX] = {0};
    tau[0] = 0.3;
    SNT_STATUS_OK(sn_system_set_generalized_force(r.s, tau, nv));
    start t;
    for (int k = 0; k < 200; k++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    take_start(r.s, &t);
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_CHECK(sn_system_contact_count(r.s) == 0);
    SNT_CHECK(sn_system_contact_entry_count(r.s) == r.m->nconstraint);
    sn_contact e;
    SNT_STATUS_OK(sn_system_contact_entry(r.s, 0, &e));
    SNT_CHECK(e.other_system == 0 && e.constraint == 0 && e.body > 0 && e.other_body > 0 &&
              e.body != e.other_body);
    double rel, res, big;
    int n;
    SNT_CHECK(loop_share_check(r.s, t.q, 0.001, &rel, &n) == 0);
    SNT_CHECK(table_residual(r.s, &t, 0.001, &res, &big) == 0);
    printf("  four-bar after 0.2 s: %d entry, impulse (%.6e, %.6e, %.6e) N s at (%.4f, %.4f, "
           "%.4f); J^T of the entries vs the loops' share: %.1e relative; table residual %.1e "
           "of %.3f N m\n",
           n, e.impulse[0], e.impulse[1], e.impulse[2], e.position[0], e.position[1], e.position[2],
           rel, res, big);
    // docs/step.md: 1.5e-16 relative, residual 3.5e-14 of 1.49 N m (asserted 2e-15, 1e-13 of it)
    SNT_CHECK(n == 1 && rel < 2e-15 && res < 1e-13 * big);
    // refusals
    SNT_CHECK(sn_system_contact_entry(r.s, 1, &e) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(r.w), "contact entry i 1: the system has 1"));
    SNT_CHECK(sn_system_contact_entry(r.s, -1, &e) == SN_ERR_ARG);
    SNT_CHECK(sn_system_contact_entry(r.s, 0, NULL) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(r.w), "out is NULL"));
    rig_close(&r);
    return 0;
}


// the Strandbeest closed by 72 pins walks on the ground: one entry per loop (36), after the
// feet's contacts; the table sums to M du/dt + h with contacts, loops and the crank's PD
static int test_strandbeest_one_entry_per_loop(void) {
    rig r;
    SNT_CHECK(rig_open(&r, BEEST_PINS, NULL, 0.002, 1) == 0);
    int nv = r.m->nv, nq = r.m->nq;
    static double kp[NVMAX], kd[NVMAX], qr[NVMAX], ur[NVMAX];
    memcpy(qr, sn_system_q(r.s), (size_t)nq * sizeof(double));
    kd[r.m->joint_vadr[1]] = 200, ur[r.m->joint_vadr[1]] = -3;
    SNT_STATUS_OK(sn_system_set_pd_gains(r.s, kp, kd, nv));
    SNT_STATUS_OK(sn_system_set_pd_target(r.s, qr, nq, ur, nv));
    static start t;
    for (int k = 0; k < 150; k++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    take_start(r.s, &t);
    tc_heap_install();
    long before = tc_heap_calls();
    SNT_STATUS_OK(sn_world_integrate(r.w));
    int nc = sn_system_contact_count(r.s), ne = sn_system_contact_entry_count(r.s);
    static double fr[NVMAX], ct[NVMAX], lp[NVMAX];
    SNT_STATUS_OK(sn_system_step_constraint_torques(r.s, fr, ct, lp));
    for (int i = 0; i < ne; i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact_entry(r.s, i, &c));
        SNT_CHECK((c.constraint < 0) == (i < nc));
        SNT_CHECK(c.constraint < 0 || c.constraint % 2 == 0); // the first pin of each hinge
    }
    long calls = tc_heap_calls() - before;
    double rel, res, big;
    int n;
    SNT_CHECK(loop_share_check(r.s, t.q, 0.002, &rel, &n) == 0);
    SNT_CHECK(table_residual(r.s, &t, 0.002, &res, &big) == 0);
    double cmax = 0;
    for (int v = 0; v < nv; v++)
        cmax = fmax(cmax, fabs(ct[v]));
    printf("  Strandbeest (72 pins) at 0.3 s: %d contacts + %d loop entries; J^T of the entries "
           "vs the loops' share %.1e relative; table residual %.1e of %.1f (contacts' share up "
           "to %.1f); %ld heap calls in the step and the getters\n",
           nc, ne - nc, rel, res, big, cmax, calls);
    SNT_CHECK(nc > 0 && ne - nc == 36 && n == 36);
    // docs/step.md: 1.5e-16 relative, residual 4.7e-12 of 298 N m (asserted 2e-15, 5e-14 of it)
    SNT_CHECK(rel < 2e-15 && res < 5e-14 * big && cmax > 0);
    SNT_CHECK(calls == 0);
    rig_close(&r);
    return 0;
}


// a pendulum with joint friction, started past its lower limit: the friction share is its
// friction row's impulse / dt and the contact/limit share its limit row's, to the bit; the table
// sums to M du/dt + h
static const char* PENDULUM =
    "<robot name=\"p\"><link name=\"world\"/><link name=\"a\"><inertial><origin xyz=\"0 0 -0.5\"/>"
    "<mass value=\"2\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
    "izz=\"0.01\"/></inertial></link><joint name=\"j\" type=\"revolute\"><parent link=\"world\"/>"
    "<child link=\"a\"/><axis xyz=\"0 1 0\"/><limit lower=\"-0.5\" upper=\"0.5\" effort=\"100\" "
    "velocity=\"100\"/><dynamics friction=\"0.4\"/></joint></robot>";

// one step of the pendulum from (q, u): the shares, the rows' impulses, the table's residual
static int pendulum_step(double q, double u, double* x, double* row, int* kinds, double* res,
                         double* big) {
    rig r;
    SNT_CHECK(rig_open(&r, NULL, PENDULUM, 0.001, 0) == 0);
    SNT_STATUS_OK(sn_system_set_state(r.s, &q, 1, &u, 1));
    start t;
    take_start(r.s, &t);
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_STATUS_OK(sn_system_step_constraint_torques(r.s, x, x + 1, x + 2));
    row[0] = row[1] = 0;
    *kinds = 0;
    for (int i = 0; i < sn_world_contact_row_count(r.w); i++) {
        sn_contact_row cr;
        SNT_STATUS_OK(sn_world_contact_row(r.w, i, &cr));
        if (cr.kind == SN_ROW_FRICTION) row[0] += cr.impulse[0], *kinds |= 1;
        if (cr.kind == SN_ROW_LIMIT_LOWER) row[1] += cr.impulse[0], *kinds |= 2;
    }
    SNT_CHECK(table_residual(r.s, &t, 0.001, res, big) == 0);
    rig_close(&r);
    return 0;
}

static int test_friction_and_limit_shares(void) {
    double x[3], row[2], res, big;
    int kinds;
    // swinging inside its range at 2 rad/s: friction opposes the motion at its bound
    SNT_CHECK(pendulum_step(0.2, 2, x, row, &kinds, &res, &big) == 0);
    printf("  pendulum at 2 rad/s: friction share %.15f N m (row %.6e N m s), contacts/limits "
           "%g, loops %g; table residual %.1e of %.2f\n",
           x[0], row[0], x[1], x[2], res, big);
    SNT_CHECK(kinds == 1);
    SNT_CHECK(x[0] == row[0] / 0.001 && fabs(x[0] + 0.4) < 1e-12 && x[1] == 0 && x[2] == 0);
    SNT_CHECK(res < 1e-12 * big); // docs/step.md: 4.3e-14 of 0.40 N m
    // moving past its lower limit: the limit row stops it
    SNT_CHECK(pendulum_step(-0.6, -1, x, row, &kinds, &res, &big) == 0);
    printf("  past the lower limit at -1 rad/s: limit share %.6f N m (row %.6e N m s), friction "
           "%.1e; table residual %.1e of %.1f\n",
           x[1], row[1], x[0], res, big);
    SNT_CHECK(kinds & 2);
    SNT_CHECK(x[1] == row[1] / 0.001 && x[1] > 0 && x[0] == row[0] / 0.001);
    SNT_CHECK(res < 1e-15 * big); // docs/step.md: 0 of 504.5 N m
    return 0;
}


// a box resting on the ground (a free body): the contact share balances its weight over the step
static int test_contact_share_box(void) {
    rig r;
    SNT_CHECK(rig_open(&r, SNT_SOURCE_DIR "/models/box.urdf", NULL, 0.001, 1) == 0);
    start t;
    for (int k = 0; k < 300; k++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    take_start(r.s, &t);
    SNT_STATUS_OK(sn_world_integrate(r.w));
    double res, big, ct[6];
    SNT_CHECK(table_residual(r.s, &t, 0.001, &res, &big) == 0);
    SNT_STATUS_OK(sn_system_step_constraint_torques(r.s, NULL, ct, NULL));
    // the sum of the contacts' world impulses / dt, the linear part of J^T lambda / dt
    double fz = 0;
    for (int i = 0; i < sn_system_contact_count(r.s); i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(r.s, i, &c));
        SNT_CHECK(c.constraint == -1);
        fz += c.impulse[2] / 0.001;
    }
    printf("  box at rest: %d contacts, their vertical force %.9f N, table residual %.1e of %.3f\n",
           sn_system_contact_count(r.s), fz, res, big);
    SNT_CHECK(sn_system_contact_entry_count(r.s) == sn_system_contact_count(r.s));
    // docs/step.md: 1.8e-15 of 9.81 N, one rounding of the largest term
    SNT_CHECK(res < 4 * DBL_EPSILON * big && fz > 0);
    rig_close(&r);
    return 0;
}


// setActuatorTorque on one actuator steps as setActuatorTorques with the same vector, to the bit
static int test_set_actuator_torque(void) {
    rig a, b;
    SNT_CHECK(rig_open(&a, FOURBAR, NULL, 0.001, 0) == 0);
    SNT_CHECK(rig_open(&b, FOURBAR, NULL, 0.001, 0) == 0);
    sn_actuator_desc d;
    memset(&d, 0, sizeof d);
    d.gear = 10;
    for (int k = 0; k < 2; k++) {
        d.joint = k == 0 ? 0 : 2; // the crank's and the rocker's joints
        SNT_STATUS_OK(sn_system_add_actuator(a.s, &d, NULL));
        SNT_STATUS_OK(sn_system_add_actuator(b.s, &d, NULL));
    }
    double tau[2] = {0.25, -0.1};
    // no actuators yet: an empty command is taken (the Python bindings' fuzz found the
    // zero-length copy from a NULL command array, undefined behaviour under UBSan)
    rig none;
    SNT_CHECK(rig_open(&none, FOURBAR, NULL, 0.001, 0) == 0);
    SNT_STATUS_OK(sn_system_set_actuator_torques(none.s, tau, 0));
    SNT_CHECK(sn_system_set_actuator_torques(none.s, tau, 1) == SN_ERR_ARG);
    rig_close(&none);
    SNT_STATUS_OK(sn_system_set_actuator_torques(a.s, tau, 2));
    SNT_STATUS_OK(sn_system_set_actuator_torque(b.s, 1, -0.1));
    SNT_STATUS_OK(sn_system_set_actuator_torque(b.s, 0, 0.25));
    // refusals leave the torques as they were
    SNT_CHECK(sn_system_set_actuator_torque(b.s, 2, 1) == SN_ERR_ARG);
    printf("  refused: %s\n", sn_world_last_error(b.w));
    SNT_CHECK(strstr(sn_world_last_error(b.w), "actuator i 2: the system has actuators 0 to 1"));
    SNT_CHECK(sn_system_set_actuator_torque(b.s, -1, 1) == SN_ERR_ARG);
    SNT_CHECK(sn_system_set_actuator_torque(b.s, 0, (double)NAN) == SN_ERR_NONFINITE);
    SNT_CHECK(sn_system_set_actuator_torque(b.s, 0, (double)INFINITY) == SN_ERR_NONFINITE);
    printf("  refused: %s\n", sn_world_last_error(b.w));
    SNT_CHECK(strstr(sn_world_last_error(b.w), "actuator 0's torque tau inf is not finite"));
    for (int k = 0; k < 100; k++) {
        SNT_STATUS_OK(sn_world_integrate(a.w));
        SNT_STATUS_OK(sn_world_integrate(b.w));
    }
    int nv = a.m->nv;
    double acta[NVMAX], actb[NVMAX];
    SNT_STATUS_OK(sn_system_step_torques(a.s, NULL, NULL, acta, NULL, NULL));
    SNT_STATUS_OK(sn_system_step_torques(b.s, NULL, NULL, actb, NULL, NULL));
    SNT_CHECK(memcmp(sn_system_q(a.s), sn_system_q(b.s), (size_t)a.m->nq * sizeof(double)) == 0);
    SNT_CHECK(memcmp(acta, actb, (size_t)nv * sizeof(double)) == 0);
    printf("  after 0.1 s both forms give crank torque %.6f N m, the same state to the bit\n",
           acta[a.m->joint_vadr[0]]);
    SNT_CHECK(fabs(acta[a.m->joint_vadr[0]] - 0.25) < 1e-15); // G tau_m = 10 (0.25 / 10)
    rig_close(&a);
    rig_close(&b);
    rig c;
    SNT_CHECK(rig_open(&c, FOURBAR, NULL, 0.001, 0) == 0);
    SNT_CHECK(sn_system_set_actuator_torque(c.s, 0, 1) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(c.w), "actuator i 0: the system has none"));
    rig_close(&c);
    return 0;
}


// sn_system_kinematics brings the system's own data up to date after a state change: its frame
// poses and velocities then equal those of a separate sn_data at the same state, to the bit
static int test_system_kinematics(void) {
    rig r;
    SNT_CHECK(rig_open(&r, FOURBAR, NULL, 0.001, 0) == 0);
    const int nq = r.m->nq, nv = r.m->nv, frame = 2; // the coupler, its origin on the crank
    double q[NVMAX], u[NVMAX];
    for (int i = 0; i < nq; i++)
        q[i] = 0.3 + 0.2 * i;
    for (int i = 0; i < nv; i++)
        u[i] = 1.0 - 0.7 * i;
    SNT_STATUS_OK(sn_system_set_q(r.s, q, nq));
    SNT_STATUS_OK(sn_system_set_u(r.s, u, nv));
    SNT_STATUS_OK(sn_system_kinematics(r.s));
    SNT_STATUS_OK(sn_system_kinematics(r.s)); // current: nothing to do, nothing changes
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(r.m, NULL, &d, NULL));
    SNT_STATUS_OK(sn_set_state(r.m, d, q, nq, u, nv));
    SNT_STATUS_OK(sn_fk_motion(r.m, d));
    double pa[3], Ra[9], pb[3], Rb[9], va[3], wa[3], vb[3], wb[3];
    sn_frame_pose(r.m, sn_system_data(r.s), frame, pa, Ra);
    sn_frame_pose(r.m, d, frame, pb, Rb);
    sn_frame_velocity(r.m, sn_system_data(r.s), frame, va, wa);
    sn_frame_velocity(r.m, d, frame, vb, wb);
    SNT_CHECK(memcmp(pa, pb, sizeof pa) == 0 && memcmp(Ra, Rb, sizeof Ra) == 0);
    SNT_CHECK(memcmp(va, vb, sizeof va) == 0 && memcmp(wa, wb, sizeof wa) == 0);
    printf("  frame %d at (%.6f, %.6f, %.6f), moving at (%.6f, %.6f, %.6f): as a fresh sn_data\n",
           frame, pa[0], pa[1], pa[2], va[0], va[1], va[2]);
    SNT_CHECK(sn_system_kinematics(NULL) == SN_ERR_ARG);
    sn_data_destroy(d);
    rig_close(&r);
    return 0;
}


SNT_SUITE(SNT_TEST(test_fourbar_entries), SNT_TEST(test_strandbeest_one_entry_per_loop),
          SNT_TEST(test_friction_and_limit_shares), SNT_TEST(test_contact_share_box),
          SNT_TEST(test_set_actuator_torque), SNT_TEST(test_system_kinematics))
