// SPDX-License-Identifier: Apache-2.0
// test_loops.c: loop constraints eliminated exactly in the step (seed 000 "Kinematic loops",
// seed 001). The bundled four-bar is closed exactly at its nominal configuration and stays
// closed while it swings; an initial error shrinks by 0.7 per step; a pin and an equality
// constraint with the two in-plane axes give the same motion; a duplicated pin changes nothing;
// constraint impulses lie along the constrained axes and change no momentum of a floating
// mechanism; contacts cannot open a loop at any iteration limit; a parallelogram driven through
// its singular (collinear) pose does not explode.
#include "common.h"
#include "harness/snt.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define FOURBAR SNT_SOURCE_DIR "/models/fourbar.urdf"

typedef struct rig {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} rig;

static int rig_open(rig* r, sn_model* m, int gravity) {
    memset(r, 0, sizeof *r);
    r->m = m;
    if (!m) return 1;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    if (sn_world_create(&o, &r->w, NULL) != SN_OK) return 1;
    if (sn_world_add_system(r->w, m, &r->s, NULL) != SN_OK) return 1;
    double g0[3] = {0, 0, 0};
    if (!gravity && sn_world_set_gravity(r->w, g0) != SN_OK) return 1;
    return 0;
}

static void rig_close(rig* r) {
    sn_world_destroy(r->w);
    sn_model_destroy(r->m);
}

// the four-bar's URDF with its <constraints> element replaced by `constraints`
static char* fourbar_with(const char* constraints) {
    FILE* f = fopen(FOURBAR, "rb");
    if (!f) return NULL;
    char* text = calloc(1, 1 << 16);
    size_t n = fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    text[n] = 0;
    char* a = strstr(text, "  <constraints");
    char* b = strstr(text, "</constraints>");
    if (!a || !b) return NULL;
    b += strlen("</constraints>");
    char* out = calloc(1, (1 << 16) + strlen(constraints));
    memcpy(out, text, (size_t)(a - text));
    strcat(out, constraints);
    strcat(out, b);
    free(text);
    return out;
}

#define NOMINAL "nominal_config=\"-1.5707963267948966 1.0598055794978531 -1.7419501646378182\""


static int test_fourbar_closed_at_nominal(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 1) == 0);
    double rms, worst;
    SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &worst));
    printf("  at nominal_config: closure rms %.2e, worst %.2e m\n", rms, worst);
    // rounding: body2's anchor is attached where body1's is (docs/loops.md: 4.8e-17 m)
    SNT_CHECK(worst < 2e-16);
    rig_close(&r);
    return 0;
}


// swinging freely under gravity for 3 s at 1 ms: the loop stays closed, the energy stays
static int test_fourbar_swings_closed(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 1) == 0);
    double e0 = sn_system_kinetic_energy(r.s) + sn_system_potential_energy(r.s);
    double rms_max = 0, worst_max = 0, emin = e0, emax = e0, umax = 0;
    for (int k = 0; k < 3000; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double rms, worst;
        SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &worst));
        rms_max = fmax(rms_max, rms), worst_max = fmax(worst_max, worst);
        double e = sn_system_kinetic_energy(r.s) + sn_system_potential_energy(r.s);
        emin = fmin(emin, e), emax = fmax(emax, e);
        umax = fmax(umax, fabs(sn_system_u(r.s)[0]));
    }
    printf("  3 s under gravity: crank speed up to %.2f rad/s; closure rms up to %.2e m, worst "
           "%.2e m; energy %.6f .. %.6f J (start %.6f)\n",
           umax, rms_max, worst_max, emin, emax, e0);
    SNT_CHECK(umax > 1);
    // the drift of a crank at up to 27 rad/s (0.1 m: 2.7 m/s at its pin) at 1 ms: about
    // dt^2 v^2 / L = 7e-5 m per step, settling near 3.3 times that
    // (docs/loops.md: rms up to 6.5e-5 m, worst 9.1e-5; asserted 1e-4 and 3e-4)
    SNT_CHECK(worst_max < 3e-4 && rms_max < 1e-4);
    SNT_CHECK(emax - e0 < 0.01 * fabs(e0) + 1e-3 && e0 - emin < 0.02 * fabs(e0) + 1e-2);
    rig_close(&r);
    return 0;
}


// an initial error shrinks by 1 - clamp(0.2 erp, 0, 0.3) = 0.7 per step (erp 1.5)
static int test_error_shrinks_by_0_7(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 0) == 0);
    double q[3], u[3] = {0, 0, 0};
    memcpy(q, sn_system_q(r.s), sizeof q);
    q[1] += 0.01; // opens the loop by about 1 mm
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 3, u, 3));
    double e[21];
    SNT_STATUS_OK(sn_system_loop_error(r.s, &e[0], NULL));
    double worst_ratio = 0;
    for (int k = 1; k <= 20; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        SNT_STATUS_OK(sn_system_loop_error(r.s, &e[k], NULL));
        if (k <= 10) worst_ratio = fmax(worst_ratio, fabs(e[k] / e[k - 1] - 0.7));
    }
    printf("  error %.3e m -> %.3e after 1 step (x %.4f), %.3e after 20 (x %.2e; 0.7^20 = %.2e); "
           "ratio off 0.7 by at most %.1e over 10 steps\n",
           e[0], e[1], e[1] / e[0], e[20], e[20] / e[0], pow(0.7, 20), worst_ratio);
    // docs/loops.md: 0.7000 per step (off by 1.9e-5 at most; asserted 1e-4), 7.98e-4 after 20
    SNT_CHECK(worst_ratio < 1e-4);
    SNT_NEAR(e[20] / e[0], 7.98e-4, 2e-6);
    // with erp 0.5 the rate is 10 % per step
    SNT_STATUS_OK(sn_world_set_loop_erp(r.w, 0.5));
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 3, u, 3));
    SNT_STATUS_OK(sn_system_loop_error(r.s, &e[0], NULL));
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_STATUS_OK(sn_system_loop_error(r.s, &e[1], NULL));
    printf("  erp 0.5: x %.4f per step\n", e[1] / e[0]);
    SNT_NEAR(e[1] / e[0], 0.9, 1e-4); // docs/loops.md: 0.9000
    rig_close(&r);
    return 0;
}


// sn_system_assemble closes a four-bar opened by 0.4 rad at its crank in five Gauss-Newton
// steps (quadratic convergence), leaves velocities that keep the loop closed, and with no
// iteration allowed it reports the error and leaves the state as it was
static int test_assemble_closes_an_opened_fourbar(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 0) == 0);
    double q[3], u[3] = {1, -2, 0.5}, e0, e1, res;
    memcpy(q, sn_system_q(r.s), sizeof q);
    q[0] += 0.4;
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 3, u, 3));
    SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &e0));
    SNT_CHECK(sn_system_assemble(r.s, 0, 1e-12, &res) == SN_ERR_SINGULAR);
    SNT_CHECK(res == e0 && !memcmp(sn_system_q(r.s), q, sizeof q));
    double errs[8];
    int it = 0;
    for (; it < 8; it++) { // one iteration at a time
        SNT_CHECK(sn_system_assemble(r.s, 1, 1e-13, &errs[it]) != SN_ERR_ARG);
        if (errs[it] <= 1e-13) break;
    }
    SNT_CHECK(it < 8);
    SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &e1));
    double dq = fabs(sn_system_q(r.s)[0] - q[0]);
    printf("  opened by %.3f m; worst error after each Gauss-Newton step:", e0);
    for (int k = 0; k <= it; k++)
        printf(" %.1e", errs[k]);
    printf("; the crank moved %.3f rad\n", dq);
    SNT_CHECK(e1 <= 1e-15 && it <= 5); // docs/loops.md: 1e-16 m in 5 steps
    for (int k = 1; k <= it; k++) // quadratic: e_k <= C e_(k-1)^2 (C 1.3 to 1.8 per metre here)
        SNT_CHECK(errs[k - 1] > 0.01 || errs[k] <= 5 * errs[k - 1] * errs[k - 1] + 1e-15);
    // the velocity is admissible: a step in zero gravity keeps the loop closed to rounding
    SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &e1));
    SNT_CHECK(e1 < 1e-5);
    rig_close(&r);
    return 0;
}

// `urdf` falling from its nominal configuration under gravity: the joint coordinates after 0.3 s
static int swing(const char* urdf, double* q_out, int warnings) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_string(urdf, warnings), 1) == 0);
    if (warnings) {
        printf("  warning: %s\n", r.m->nwarning ? r.m->warnings[0] : "(none)");
        SNT_CHECK(r.m->nwarning == 1 && strstr(r.m->warnings[0], "redundant"));
    }
    for (int k = 0; k < 300; k++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    memcpy(q_out, sn_system_q(r.s), 3 * sizeof(double));
    rig_close(&r);
    return 0;
}

// a pin gives the equality's motion (the hinges hold the out-of-plane direction: that row is
// left out as redundant): the two differ only through the drift (a pin's rows are taken at each
// body's own anchor, an equality's at body2's), 7e-8 rad after 0.3 s with closure errors of
// 5e-6 m; later, as the crank reverses, the swing amplifies that (1e-2 rad after 1 s). A
// duplicated pin warns at load and changes nothing.
static int test_pin_equality_and_duplicates_agree(void) {
    const char* eq =
        "  <constraints " NOMINAL ">\n    <equality body1=\"coupler\" body2=\"rocker\" "
        "anchor=\"0.4 0 0\"><axis xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></equality>\n"
        "  </constraints>";
    const char* pin = "  <constraints " NOMINAL ">\n    <pin body1=\"coupler\" body2=\"rocker\" "
                      "anchor=\"0.4 0 0\"/>\n  </constraints>";
    const char* two = "  <constraints " NOMINAL ">\n    <pin body1=\"coupler\" body2=\"rocker\" "
                      "anchor=\"0.4 0 0\"/>\n    <pin body1=\"coupler\" body2=\"rocker\" "
                      "anchor=\"0.4 0 0\"/>\n  </constraints>";
    double qe[3], qp[3], q2[3];
    char* u1 = fourbar_with(eq);
    char* u2 = fourbar_with(pin);
    char* u3 = fourbar_with(two);
    SNT_CHECK(u1 && u2 && u3);
    SNT_CHECK(swing(u1, qe, 0) == 0);
    SNT_CHECK(swing(u2, qp, 0) == 0);
    SNT_CHECK(swing(u3, q2, 1) == 0);
    double d1 = 0, d2 = 0;
    for (int i = 0; i < 3; i++)
        d1 = fmax(d1, fabs(qe[i] - qp[i])), d2 = fmax(d2, fabs(qp[i] - q2[i]));
    printf("  after 0.3 s: equality vs pin %.2e rad, one pin vs two %.2e rad (crank at %.4f rad)\n",
           d1, d2, qe[0]);
    SNT_CHECK(d1 < 2e-7); // docs/loops.md: 6.9e-8 rad
    SNT_CHECK(d2 == 0);
    free(u1), free(u2), free(u3);
    return 0;
}


// the impulse of the equality constraint lies along its axes (none along the free y); the
// constraint force balances: crank, coupler and rocker at rest in a pose held by gravity only
// through the loop
static int test_impulse_along_the_axes(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 1) == 0);
    double worst_y = 0, mag = 0;
    for (int k = 0; k < 500; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double imp[3], sep[3];
        SNT_STATUS_OK(sn_system_constraint(r.s, 0, imp, sep));
        worst_y = fmax(worst_y, fabs(imp[1]));
        mag = fmax(mag, sqrt(imp[0] * imp[0] + imp[2] * imp[2]));
    }
    printf("  impulses up to %.3e N s in the plane, %.1e along the free y\n", mag, worst_y);
    SNT_CHECK(mag > 1e-4);
    SNT_CHECK(worst_y < 1e-15);
    SNT_CHECK(sn_system_constraint(r.s, 1, NULL, NULL) == SN_ERR_ARG);
    // the world's contact problem lists the constraint after the solver's blocks (none here)
    sn_contact_row row;
    double imp[3];
    SNT_STATUS_OK(sn_system_constraint(r.s, 0, imp, NULL));
    SNT_CHECK(sn_world_contact_row_count(r.w) == 1);
    SNT_STATUS_OK(sn_world_contact_row(r.w, 0, &row));
    SNT_CHECK(row.kind == 6 && row.index == 0 && row.system == 0 && row.dim == 3);
    SNT_CHECK(!memcmp(row.impulse, imp, sizeof imp));
    SNT_CHECK(sn_world_contact_row(r.w, 1, &row) == SN_ERR_ARG);
    rig_close(&r);
    return 0;
}


// a floating four-bar (its ground bar a free body) in zero gravity, thrown with a random
// velocity. The semi-implicit step does not keep a tumbling tree's momentum exactly by itself, so
// each step is compared with the same step of the tree without the loop, from the same state:
// the two end velocities, measured at the step's start configuration, carry the same linear and
// angular momentum (the loop's impulses are internal: equal, opposite, collinear)
#define FREE4_LINKS                                                                                \
    "<link name=\"ground\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"2\"/>"                 \
    "<inertia ixx=\"1e-3\" ixy=\"0\" ixz=\"0\" iyy=\"0.03\" iyz=\"0\" izz=\"0.03\"/>"              \
    "</inertial></link><link name=\"crank\"><inertial><origin xyz=\"0.05 0 0\"/>"                  \
    "<mass value=\"1\"/><inertia ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"8.3e-4\" iyz=\"0\" "       \
    "izz=\"8.3e-4\"/></inertial></link><link name=\"coupler\"><inertial><origin "                  \
    "xyz=\"0.2 0 0\"/><mass value=\"1\"/><inertia ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" "               \
    "iyy=\"0.0133\" iyz=\"0\" izz=\"0.0133\"/></inertial></link><link name=\"rocker\">"            \
    "<inertial><origin xyz=\"0.15 0 0\"/><mass value=\"1\"/><inertia ixx=\"1e-4\" ixy=\"0\" "      \
    "ixz=\"0\" iyy=\"0.0075\" iyz=\"0\" izz=\"0.0075\"/></inertial></link>"                        \
    "<joint name=\"a\" type=\"continuous\"><parent link=\"ground\"/><child link=\"crank\"/>"       \
    "<axis xyz=\"0 1 0\"/></joint><joint name=\"b\" type=\"continuous\"><parent "                  \
    "link=\"crank\"/><child link=\"coupler\"/><origin xyz=\"0.1 0 0\"/><axis xyz=\"0 1 0\"/>"      \
    "</joint><joint name=\"c\" type=\"continuous\"><parent link=\"ground\"/><child "               \
    "link=\"rocker\"/><origin xyz=\"0.4 0 0\"/><axis xyz=\"0 1 0\"/></joint>"

static void momentum_at(const sn_model* m, sn_data* d, const double* q, const double* u, double* l,
                        double* a) {
    sn_set_state(m, d, q, m->nq, u, m->nv);
    sn_fk(m, d);
    sn_fk_vel(m, d);
    sn_momentum(m, d, l, a);
}

static int test_loop_impulses_change_no_momentum(void) {
    const char* loop = "<robot name=\"free4\">" FREE4_LINKS
                       "<constraints nominal_config=\"0 0 0 1 0 0 0 -1.5707963267948966 "
                       "1.0598055794978531 -1.7419501646378182\"><pin body1=\"coupler\" "
                       "body2=\"rocker\" anchor=\"0.4 0 0\"/></constraints></robot>";
    const char* tree = "<robot name=\"free4\">" FREE4_LINKS "</robot>";
    rig r, t;
    SNT_CHECK(rig_open(&r, tc_load_string(loop, 0), 0) == 0);
    SNT_CHECK(rig_open(&t, tc_load_string(tree, 0), 0) == 0);
    double q[10], u[9] = {0.3, -0.2, 0.5, 1.0, -2.0, 0.7, 4.0, -1.0, 2.0};
    memcpy(q, sn_system_q(r.s), sizeof q);
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 10, u, 9));
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(r.m, NULL, &d, NULL));
    double worst_l = 0, worst_a = 0, imp_max = 0, rms_max = 0;
    for (int k = 0; k < 2000; k++) {
        double q0[10], u0[9], la[3], aa[3], lb[3], ab[3];
        memcpy(q0, sn_system_q(r.s), sizeof q0);
        memcpy(u0, sn_system_u(r.s), sizeof u0);
        SNT_STATUS_OK(sn_system_set_state(t.s, q0, 10, u0, 9));
        SNT_STATUS_OK(sn_world_integrate(r.w));
        SNT_STATUS_OK(sn_world_integrate(t.w));
        momentum_at(r.m, d, q0, sn_system_u(r.s), la, aa);
        momentum_at(r.m, d, q0, sn_system_u(t.s), lb, ab);
        for (int i = 0; i < 3; i++) {
            worst_l = fmax(worst_l, fabs(la[i] - lb[i]));
            worst_a = fmax(worst_a, fabs(aa[i] - ab[i]));
        }
        double imp[3], rms;
        SNT_STATUS_OK(sn_system_constraint(r.s, 0, imp, NULL));
        imp_max = fmax(imp_max, sqrt(imp[0] * imp[0] + imp[1] * imp[1] + imp[2] * imp[2]));
        SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, NULL));
        rms_max = fmax(rms_max, rms);
    }
    printf(
        "  2 s tumbling, impulses up to %.3f N s: per step, the loop changes the linear momentum "
        "by at most %.1e and the angular by %.1e; closure rms up to %.1e m\n",
        imp_max, worst_l, worst_a, rms_max);
    SNT_CHECK(imp_max > 1e-3);
    SNT_CHECK(worst_l < 5e-14); // docs/loops.md: 8.2e-15
    // the angular share is that of the pin's lever: (p1 - p2) x impulse, with p1 - p2 the drift
    SNT_CHECK(worst_a < 1e-8);
    SNT_CHECK(rms_max < 1e-4);
    sn_data_destroy(d);
    rig_close(&r);
    rig_close(&t);
    return 0;
}


// the four-bar with a collision sphere at the coupler's middle swings into the ground: with the
// contact solver allowed one sweep or 150, the loop stays as closed as in free swinging (the
// contact impulses act through the constrained mechanism)
static int swing_into_ground(int iters, double* worst, int* touched) {
    char* xml = fourbar_with("  <constraints " NOMINAL ">\n    <equality body1=\"coupler\" "
                             "body2=\"rocker\" anchor=\"0.4 0 0\"><axis xyz=\"1 0 0\"/><axis "
                             "xyz=\"0 0 1\"/></equality>\n  </constraints>");
    SNT_CHECK(xml);
    char* at = strstr(xml, "<link name=\"coupler\">");
    SNT_CHECK(at);
    at += strlen("<link name=\"coupler\">");
    char* full = calloc(1, strlen(xml) + 256);
    memcpy(full, xml, (size_t)(at - xml));
    strcat(full, "<collision><origin xyz=\"0.2 0 0\"/><geometry><sphere radius=\"0.02\"/>"
                 "</geometry></collision>");
    strcat(full, at);
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_string(full, 0), 1) == 0);
    SNT_STATUS_OK(sn_world_set_ground(r.w, 1, 0.05));
    SNT_STATUS_OK(sn_world_set_solver(r.w, iters, 1e-8));
    *worst = 0, *touched = 0;
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double wst;
        SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &wst));
        *worst = fmax(*worst, wst);
        *touched += sn_system_contact_count(r.s) > 0;
    }
    rig_close(&r);
    free(xml), free(full);
    return 0;
}

static int test_contacts_cannot_open_a_loop(void) {
    double w1, w150;
    int t1, t150;
    SNT_CHECK(swing_into_ground(1, &w1, &t1) == 0);
    SNT_CHECK(swing_into_ground(150, &w150, &t150) == 0);
    printf("  2 s against the ground (%d and %d steps touching): closure worst %.2e m with 1 "
           "sweep, %.2e with 150\n",
           t1, t150, w1, w150);
    SNT_CHECK(t1 > 100 && t150 > 100);
    SNT_CHECK(w1 < 3e-4 && w150 < 3e-4);
    // docs/loops.md: 9.1e-5 m with 1 sweep and with 150, as without the ground (to 1e-6 of it)
    SNT_CHECK(fabs(w1 - w150) < 1e-6 * w150);
    return 0;
}


// a parallelogram (crank and rocker 0.2 m, coupler and ground 0.4 m) spun through its collinear
// poses, where the loop's rows lose rank: no failed step, the closure stays bounded, the energy
// does not grow
static int test_parallelogram_through_singular_pose(void) {
    const char* xml =
        "<robot name=\"para\"><link name=\"world\"/>"
        "<link name=\"crank\"><inertial><origin xyz=\"0.1 0 0\"/><mass value=\"1\"/>"
        "<inertia ixx=\"1e-5\" ixy=\"0\" ixz=\"0\" iyy=\"3.3e-3\" iyz=\"0\" izz=\"3.3e-3\"/>"
        "</inertial></link><link name=\"coupler\"><inertial><origin xyz=\"0.2 0 0\"/>"
        "<mass value=\"1\"/><inertia ixx=\"1e-5\" ixy=\"0\" ixz=\"0\" iyy=\"0.0133\" iyz=\"0\" "
        "izz=\"0.0133\"/></inertial></link><link name=\"rocker\"><inertial><origin "
        "xyz=\"0.1 0 0\"/><mass value=\"1\"/><inertia ixx=\"1e-5\" ixy=\"0\" ixz=\"0\" "
        "iyy=\"3.3e-3\" iyz=\"0\" izz=\"3.3e-3\"/></inertial></link>"
        "<joint name=\"a\" type=\"continuous\"><parent link=\"world\"/><child link=\"crank\"/>"
        "<axis xyz=\"0 1 0\"/></joint><joint name=\"b\" type=\"continuous\"><parent "
        "link=\"crank\"/><child link=\"coupler\"/><origin xyz=\"0.2 0 0\"/><axis xyz=\"0 1 0\"/>"
        "</joint><joint name=\"c\" type=\"continuous\"><parent link=\"world\"/><child "
        "link=\"rocker\"/><origin xyz=\"0.4 0 0\"/><axis xyz=\"0 1 0\"/></joint>"
        "<constraints nominal_config=\"-1.5707963267948966 1.5707963267948966 "
        "-1.5707963267948966\"><equality body1=\"coupler\" body2=\"rocker\" anchor=\"0.4 0 0\">"
        "<axis xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></equality></constraints></robot>";
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_string(xml, 0), 0) == 0);
    double q[3], u[3] = {6, -6, 6}; // the parallelogram's own motion: coupler level
    memcpy(q, sn_system_q(r.s), sizeof q);
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 3, u, 3));
    double ke0 = -1, ke_max = 0, worst = 0;
    int passes = 0;
    double prev = q[0];
    for (int k = 0; k < 3000; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        if (k == 0) ke0 = sn_system_kinetic_energy(r.s);
        ke_max = fmax(ke_max, sn_system_kinetic_energy(r.s));
        double wst, c = sn_system_q(r.s)[0];
        SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &wst));
        worst = fmax(worst, wst);
        // the collinear poses: the crank at 0 or pi (mod 2 pi)
        if (floor(c / M_PI) != floor(prev / M_PI)) passes++;
        prev = c;
    }
    printf("  3 s at about 6 rad/s: %d passes through the collinear pose; kinetic energy %.4f J at "
           "the start, at most %.4f; closure worst %.2e m\n",
           passes, ke0, ke_max, worst);
    // docs/loops.md: kinetic energy never above its start, closure worst 1.6e-12 m (asserted
    // below 1e-10)
    SNT_CHECK(passes >= 4);
    SNT_CHECK(ke_max <= ke0 * (1 + 1e-9));
    SNT_CHECK(worst < 1e-10);
    rig_close(&r);
    return 0;
}


// the parallelogram spun at 6 rad/s for 3 s: passes through the collinear pose, the coupler's
// largest tilt (q_a + q_coupler), crank c's largest lag behind crank a, the kinetic energy at
// the start and its largest, the worst closure
typedef struct spin {
    int passes;
    double tilt, lag, ke0, ke_max, worst;
} spin;

static int spin_parallelogram(rig* r, spin* o) {
    double q[4], u[4] = {6, -6, 6, 6};
    memcpy(q, sn_system_q(r->s), sizeof q);
    SNT_STATUS_OK(sn_system_set_state(r->s, q, 4, u, 4));
    double prev = q[0];
    memset(o, 0, sizeof *o);
    o->ke0 = -1;
    for (int k = 0; k < 3000; k++) {
        SNT_STATUS_OK(sn_world_integrate(r->w));
        const double* qk = sn_system_q(r->s);
        if (k == 0) o->ke0 = sn_system_kinetic_energy(r->s);
        o->ke_max = fmax(o->ke_max, sn_system_kinetic_energy(r->s));
        double wst;
        SNT_STATUS_OK(sn_system_loop_error(r->s, NULL, &wst));
        o->worst = fmax(o->worst, wst);
        o->tilt = fmax(o->tilt, fabs(remainder(qk[0] + qk[1], 2 * M_PI)));
        o->lag = fmax(o->lag, fabs(remainder(qk[3] - qk[0], 2 * M_PI)));
        if (floor(qk[0] / M_PI) != floor(prev / M_PI)) o->passes++;
        prev = qk[0];
    }
    printf("  3 s at about 6 rad/s: %d passes through the collinear pose; coupler tilt at most "
           "%.1e rad, crank c off crank a by %.1e rad; kinetic energy %.4f J at the start, at "
           "most %.4f; closure worst %.2e m\n",
           o->passes, o->tilt, o->lag, o->ke0, o->ke_max, o->worst);
    return 0;
}

// the bundled parallelogram with one redundant bar (models/parallelogram.urdf): one row of its
// four is redundant at every pose, but which direction of the second loop it is turns with the
// cranks (along crank c), so the structural test examined at several poses keeps both of its
// directions and the step's pivoted factor leaves the redundant one out at each pose (seed 001:
// "a redundant bar of a parallelogram ... is detected in every step"). Examined at the nominal
// pose alone it kept one (warned): the horizontal direction, which with the cranks horizontal
// is the redundant one (both runs are printed; both stay closed). Spun at 6 rad/s through the
// collinear poses, the extra bar keeps it a parallelogram (the coupler level: q_a + q_coupler = 0
// to the drift, crank c with crank a), no step fails, the energy does not grow
static int test_parallelogram_with_redundant_bar(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(SNT_SOURCE_DIR "/models/parallelogram.urdf", 0), 0) == 0);
    printf("  %d warnings; directions kept %d and %d at %d poses\n", sn_world_warning_count(r.w),
           r.s->loops.naxis[0], r.s->loops.naxis[1], r.s->loops.nposes);
    SNT_CHECK(sn_world_warning_count(r.w) == 0);
    SNT_CHECK(r.s->loops.nposes == 4);
    SNT_CHECK(r.s->loops.naxis[0] == 2 && r.s->loops.naxis[1] == 2);
    spin several, one;
    if (spin_parallelogram(&r, &several)) return 1;
    // measured: tilt 4.5e-8 rad, lag 9.0e-8 rad, closure worst 1.3e-10 m (asserted with a
    // margin of 8x to 11x), the kinetic energy never above its start
    SNT_CHECK(several.passes >= 4);
    SNT_CHECK(several.tilt < 5e-7);
    SNT_CHECK(several.lag < 1e-6);
    SNT_CHECK(several.ke_max <= several.ke0 * (1 + 1e-9));
    SNT_CHECK(several.worst < 1e-9);
    rig_close(&r);
    // the nominal pose alone (as before several poses)
    SNT_CHECK(rig_open(&r, tc_load_file(SNT_SOURCE_DIR "/models/parallelogram.urdf", 0), 0) == 0);
    r.s->loops.max_poses = 1;
    SNT_STATUS_OK(sn_system_update_mass_info(r.s, NULL));
    printf("  one pose: %d warning: %s\n", sn_world_warning_count(r.w), sn_world_last_warning(r.w));
    SNT_CHECK(sn_world_warning_count(r.w) == 1);
    SNT_CHECK(strstr(sn_world_last_warning(r.w), "loop constraint 1") &&
              strstr(sn_world_last_warning(r.w), "keeps 1 of its 2 directions"));
    SNT_CHECK(r.s->loops.naxis[0] == 2 && r.s->loops.naxis[1] == 1);
    if (spin_parallelogram(&r, &one)) return 1;
    rig_close(&r);
    // measured: tilt 1.1e-9 rad, lag 8.8e-10 rad, closure worst 2.7e-10 m
    SNT_CHECK(one.passes >= 4 && one.ke_max <= one.ke0 * (1 + 1e-9));
    SNT_CHECK(one.tilt < 1e-8 && one.lag < 1e-8 && one.worst < 2e-9);
    return 0;
}


// a mimic joint (URDF <mimic>): two pendulums, the second following 2 q1 + 0.1, swing together
// with the relation held to rounding (it is linear: no drift); set off it by hand, the error
// shrinks by 0.7 per step
static int test_mimic_joint(void) {
    const char* xml =
        "<robot name=\"twins\"><link name=\"world\"/>"
        "<link name=\"a\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"1\"/><inertia "
        "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
        "<link name=\"b\"><inertial><origin xyz=\"0 0 -0.3\"/><mass value=\"2\"/><inertia "
        "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
        "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/>"
        "<axis xyz=\"0 1 0\"/></joint>"
        "<joint name=\"j2\" type=\"continuous\"><parent link=\"world\"/><child link=\"b\"/>"
        "<origin xyz=\"1 0 0\"/><axis xyz=\"0 1 0\"/><mimic joint=\"j1\" multiplier=\"2\" "
        "offset=\"0.1\"/></joint></robot>";
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_string(xml, 0), 1) == 0);
    double q[2] = {0.4, 0.9}, u[2] = {0, 0};
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 2, u, 2));
    double worst = 0, qmax = 0;
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        const double* qq = sn_system_q(r.s);
        const double* uu = sn_system_u(r.s);
        worst = fmax(worst, fabs(qq[1] - 2 * qq[0] - 0.1));
        worst = fmax(worst, fabs(uu[1] - 2 * uu[0]));
        qmax = fmax(qmax, fabs(qq[0]));
    }
    printf("  2 s swinging (up to %.3f rad): q2 - 2 q1 - 0.1 and u2 - 2 u1 at most %.1e\n", qmax,
           worst);
    SNT_CHECK(qmax > 0.3);
    SNT_CHECK(worst < 3e-13); // docs/loops.md: 4.2e-14
    // off the relation by 0.01 rad, at rest: 0.7 per step
    double g0[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_world_set_gravity(r.w, g0));
    q[0] = 0.2, q[1] = 0.51;
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 2, u, 2));
    double e0 = 0.01, e1, e5;
    SNT_STATUS_OK(sn_world_integrate(r.w));
    e1 = sn_system_q(r.s)[1] - 2 * sn_system_q(r.s)[0] - 0.1;
    for (int k = 0; k < 4; k++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    e5 = sn_system_q(r.s)[1] - 2 * sn_system_q(r.s)[0] - 0.1;
    printf("  error 0.01 -> %.6f after 1 step, %.3e after 5 (0.7^5 x 0.01 = %.3e)\n", e1, e5,
           0.01 * pow(0.7, 5));
    SNT_NEAR(e1 / e0, 0.7, 1e-9);
    SNT_NEAR(e5, 0.01 * pow(0.7, 5), 1e-12);
    rig_close(&r);
    return 0;
}


// Minitaur (../shared/models, four five-bar legs closed by equality constraints) on the ground,
// its eight motors under PD at the nominal configuration, then moving them by 0.2 rad at 1 Hz:
// seed 001 says its toes stay within about 2 um (rms) at 1 ms while it stands and moves its legs
static int test_minitaur_loops_stay_closed(void) {
    const char* path = tc_model_path("raisim_minitaur/minitaur.urdf");
    if (!path) {
        printf("  ../shared/models absent\n");
        return SNT_SKIP;
    }
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(path, 1), 1) == 0);
    const sn_model* m = r.m;
    SNT_CHECK(m->nconstraint == 4 && m->nominal_config);
    SNT_STATUS_OK(sn_world_set_ground(r.w, 1, 0));
    int nv = m->nv, nq = m->nq;
    double kp[64] = {0}, kd[64] = {0}, qr[64], ur[64] = {0};
    SNT_CHECK(nv <= 64 && nq <= 64);
    memcpy(qr, m->nominal_config, (size_t)nq * sizeof(double));
    int motors = 0;
    for (int j = 0; j < m->njoint; j++)
        if (strstr(sn_model_name(m, SN_OBJ_JOINT, j), "motor"))
            kp[m->joint_vadr[j]] = 100, kd[m->joint_vadr[j]] = 2, motors++;
    SNT_CHECK(motors == 8);
    SNT_STATUS_OK(sn_system_set_pd_gains(r.s, kp, kd, nv));
    SNT_STATUS_OK(sn_system_set_pd_target(r.s, qr, nq, ur, nv));
    double sq[2] = {0, 0}, worst[2] = {0, 0};
    int n[2] = {0, 0}, nc = 0;
    for (int k = 0; k < 6000; k++) {
        int phase = k >= 4000; // 2-4 s standing, 4-6 s moving its legs
        if (phase) {
            double q2[64];
            memcpy(q2, qr, sizeof q2);
            for (int j = 0; j < m->njoint; j++)
                if (strstr(sn_model_name(m, SN_OBJ_JOINT, j), "motor"))
                    q2[m->joint_qadr[j]] += 0.2 * sin(2 * M_PI * 0.001 * k);
            SNT_STATUS_OK(sn_system_set_pd_target(r.s, q2, nq, ur, nv));
        }
        SNT_STATUS_OK(sn_world_integrate(r.w));
        if (k < 2000) continue;
        double rms, wst;
        SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &wst));
        sq[phase] += rms * rms, n[phase]++;
        worst[phase] = fmax(worst[phase], wst);
        nc = sn_system_contact_count(r.s);
    }
    printf("  standing (2-4 s): closure rms %.2e m, worst %.2e; moving its legs (4-6 s): rms "
           "%.2e m, worst %.2e; %d contacts\n",
           sqrt(sq[0] / n[0]), worst[0], sqrt(sq[1] / n[1]), worst[1], nc);
    SNT_CHECK(nc >= 4);
    // README: closed to 0.4 um rms while it moves its legs (measured 4.1e-7 m, worst 1.1e-6;
    // standing 2.2e-8 rms); asserted with a margin of 25 % (moving) and 2x (standing)
    SNT_CHECK(sqrt(sq[0] / n[0]) < 5e-8 && sqrt(sq[1] / n[1]) < 5e-7);
    SNT_CHECK(worst[0] < 1e-7 && worst[1] < 1.5e-6);
    rig_close(&r);
    return 0;
}


// inverse dynamics of a step counts the loop's forces: the four-bar's hinges are passive, so
// the torque each one transmits about its axis (y) must be zero; without the constraint force
// the crank's would carry the whole loop's load
static int test_inverse_dynamics_includes_loop_forces(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 1) == 0);
    sn_system_set_compute_inverse_dynamics(r.s, 1);
    double worst = 0, fmax_ = 0;
    for (int k = 0; k < 500; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        for (int j = 0; j < r.m->nujoint; j++) {
            if (r.m->ujoint_joint[j] < 0) continue;
            double f[3], t[3];
            SNT_STATUS_OK(sn_system_joint_wrench(r.s, j, f, t));
            worst = fmax(worst, fabs(t[1]));
            fmax_ = fmax(fmax_, sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]));
        }
    }
    printf("  hinge forces up to %.2f N; torque about the hinge axes at most %.1e N m\n", fmax_,
           worst);
    SNT_CHECK(fmax_ > 1);
    SNT_CHECK(worst < 3e-12); // docs/loops.md: 2.7e-13 N m
    rig_close(&r);
    return 0;
}


// a velocity set by hand that opens the loop (the rocker alone at 5 rad/s): the first step makes
// it admissible, and EULER and TRAPEZOID move the positions with its admissible part, so the loop
// stays closed; SEMI_IMPLICIT moves them with the admissible velocity it ends with
static int test_hand_set_velocity_keeps_the_loop(void) {
    const sn_scheme schemes[3] = {SN_SCHEME_SEMI_IMPLICIT, SN_SCHEME_EULER, SN_SCHEME_TRAPEZOID};
    const char* names[3] = {"semi-implicit", "euler", "trapezoid"};
    for (int k = 0; k < 3; k++) {
        rig r;
        SNT_CHECK(rig_open(&r, tc_load_file(FOURBAR, 0), 0) == 0);
        SNT_STATUS_OK(sn_system_set_scheme(r.s, schemes[k]));
        double q[3], u[3] = {0, 0, 5};
        memcpy(q, sn_system_q(r.s), sizeof q);
        SNT_STATUS_OK(sn_system_set_state(r.s, q, 3, u, 3));
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double worst, ke = sn_system_kinetic_energy(r.s);
        SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &worst));
        printf("  %-13s after one step: closure worst %.2e m, kinetic energy %.4f J (the rocker "
               "alone had %.4f)\n",
               names[k], worst, ke, 0.5 * (0.0075 + 1 * 0.15 * 0.15) * 25);
        // docs/loops.md: 2.7e-7 m (1.4 mm if the positions moved with the rocker's velocity)
        SNT_CHECK(worst < 5e-7);
        SNT_CHECK(ke < 0.5 * (0.0075 + 0.0225) * 25);
        rig_close(&r);
    }
    return 0;
}


// two coaxial hinges in series (world - a - b, both about y at the origin) and a pin between
// the world and b on their common axis: the two joints hold all three directions. The loader
// examines single joints; the pin over the two is warned about once when the system is added,
// its rows are left out of every step (zero impulse), and the chain moves as without it
static int test_constraint_held_by_its_joints(void) {
    const char* links =
        "<link name=\"world\"/><link name=\"a\"><inertial><origin xyz=\"0.2 0 0\"/><mass "
        "value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
        "izz=\"0.01\"/></inertial></link><link name=\"b\"><inertial><origin xyz=\"0 0 -0.3\"/>"
        "<mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
        "izz=\"0.01\"/></inertial></link><joint name=\"ja\" type=\"continuous\"><parent "
        "link=\"world\"/><child link=\"a\"/><axis xyz=\"0 1 0\"/></joint><joint name=\"jb\" "
        "type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 1 0\"/>"
        "</joint>";
    char with[2048], without[2048];
    snprintf(with, sizeof with,
             "<robot name=\"coax\">%s<constraints nominal_config=\"0.3 -0.2\"><pin "
             "body1=\"world\" body2=\"b\" anchor=\"0 0.3 0\"/></constraints></robot>",
             links);
    snprintf(without, sizeof without, "<robot name=\"coax\">%s</robot>", links);
    rig r, p;
    SNT_CHECK(rig_open(&r, tc_load_string(with, 0), 1) == 0);
    SNT_CHECK(rig_open(&p, tc_load_string(without, 0), 1) == 0);
    printf("  %d warning: %s\n", sn_world_warning_count(r.w), sn_world_last_warning(r.w));
    SNT_CHECK(sn_world_warning_count(r.w) == 1);
    SNT_CHECK(strstr(sn_world_last_warning(r.w),
                     "loop constraint 0 (pin 'world' - 'b') is redundant with its joints"));
    double q[2] = {0.3, -0.2}, u[2] = {0, 0};
    SNT_STATUS_OK(sn_system_set_state(p.s, q, 2, u, 2));
    double d = 0;
    for (int k = 0; k < 500; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        SNT_STATUS_OK(sn_world_integrate(p.w));
        for (int i = 0; i < 2; i++)
            d = fmax(d, fabs(sn_system_q(r.s)[i] - sn_system_q(p.s)[i]));
    }
    double imp[3];
    SNT_STATUS_OK(sn_system_constraint(r.s, 0, imp, NULL));
    printf("  0.5 s: %.1e rad from the chain without the pin (b swings to %.3f rad); the pin's "
           "impulse (%g %g %g)\n",
           d, sn_system_q(r.s)[1], imp[0], imp[1], imp[2]);
    SNT_CHECK(d == 0);
    SNT_CHECK(fabs(sn_system_q(r.s)[1] + 0.2) > 0.05); // it did swing
    SNT_CHECK(imp[0] == 0 && imp[1] == 0 && imp[2] == 0);
    rig_close(&r);
    rig_close(&p);
    return 0;
}


// the bundled slider-crank spun by its crank (zero gravity): the slider follows the
// closed form x = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)) through several turns, to the drift
static int test_slider_crank_follows_its_closed_form(void) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(SNT_SOURCE_DIR "/models/slider_crank.urdf", 0), 0) == 0);
    // the crank alone set to 20 rad/s: the first step shares that with the rod and slider
    double q[3], u[3] = {20, 0, 0};
    memcpy(q, sn_system_q(r.s), sizeof q);
    SNT_STATUS_OK(sn_system_set_state(r.s, q, 3, u, 3));
    double worst = 0, turns = 0, prev = q[0];
    for (int k = 0; k < 4000; k++) {
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double th = sn_system_q(r.s)[0], x = sn_system_q(r.s)[2];
        double xe = 0.1 * cos(th) + sqrt(0.09 - 0.01 * sin(th) * sin(th));
        worst = fmax(worst, fabs(x - xe));
        turns += fabs(th - prev) / (2 * M_PI);
        prev = th;
    }
    double rms, wst;
    SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &wst));
    printf("  %.1f crank turns: the slider within %.2e m of the closed form (closure now %.1e m)\n",
           turns, worst, wst);
    SNT_CHECK(turns > 2);
    SNT_CHECK(worst < 1e-4);
    rig_close(&r);
    return 0;
}


// the bundled Strandbeest (79 DOF, 36 loops) walking on its crank: its loops' D is factored by
// legs (blocks) and the shared chassis and crank DOFs (Woodbury); the same run with the dense,
// pivoted factor agrees to rounding (until a foot's contact amplifies it), and the loops stay
// within seed 001's 34 um rms and 0.1 mm worst at 2 ms
static long beest_delassus_steps; // the last run's steps swept in Delassus form

static int beest(const char* file, int dense, double* q, double* q30, double* rms_out,
                 double* worst_out, int* structured, double* pins) {
    rig r;
    SNT_CHECK(rig_open(&r, tc_load_file(file, 0), 1) == 0);
    sn_world_destroy(r.w);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.002;
    SNT_STATUS_OK(sn_world_create(&o, &r.w, NULL));
    SNT_STATUS_OK(sn_world_add_system(r.w, r.m, &r.s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(r.w, 1, 0));
    r.s->loops.dense_only = dense == 1;
    r.w->solver.no_delassus = dense == 2;
    if (pins) {
        // 72 pins, in hinge pairs: the first keeps its two in-plane directions, the second none
        printf("  %d warning: %s\n", sn_world_warning_count(r.w), sn_world_last_warning(r.w));
        SNT_CHECK(r.m->nconstraint == 72);
        SNT_CHECK(sn_world_warning_count(r.w) == 1);
        SNT_CHECK(strstr(sn_world_last_warning(r.w), "keeps 2 of its 3 directions") &&
                  strstr(sn_world_last_warning(r.w), "and 71 more"));
        for (int c = 0; c < 72; c++)
            SNT_CHECK(r.s->loops.naxis[c] == (c % 2 ? 0 : 2));
        pins[0] = pins[1] = pins[2] = 0;
    }
    int nv = r.m->nv, nq = r.m->nq;
    double kp[128] = {0}, kd[128] = {0}, qr[128], ur[128] = {0};
    memcpy(qr, sn_system_q(r.s), (size_t)nq * sizeof(double));
    kd[r.m->joint_vadr[1]] = 200, ur[r.m->joint_vadr[1]] = -3;
    SNT_STATUS_OK(sn_system_set_pd_gains(r.s, kp, kd, nv));
    SNT_STATUS_OK(sn_system_set_pd_target(r.s, qr, nq, ur, nv));
    double sq = 0, worst = 0;
    *structured = 0;
    for (int k = 0; k < 500; k++) {
        double qc[4]; // the chassis' orientation at the step's start, where the rows are taken
        memcpy(qc, sn_system_q(r.s) + 3, sizeof qc);
        SNT_STATUS_OK(sn_world_integrate(r.w));
        double rms, wst;
        SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &wst));
        sq += rms * rms, worst = fmax(worst, wst);
        *structured += r.s->loops.structured;
        if (k == 29) memcpy(q30, sn_system_q(r.s), (size_t)nq * sizeof(double));
        for (int c = 0; pins && c < 72; c++) {
            double imp[3];
            SNT_STATUS_OK(sn_system_constraint(r.s, c, imp, NULL));
            double n = sqrt(imp[0] * imp[0] + imp[1] * imp[1] + imp[2] * imp[2]);
            if (c % 2) {
                pins[0] = fmax(pins[0], n);
            } else { // across the legs' plane: the chassis' y axis (quaternion w x y z)
                double ny[3] = {2 * (qc[1] * qc[2] - qc[0] * qc[3]),
                                1 - 2 * (qc[1] * qc[1] + qc[3] * qc[3]),
                                2 * (qc[2] * qc[3] + qc[0] * qc[1])};
                pins[1] = fmax(pins[1], fabs(imp[0] * ny[0] + imp[1] * ny[1] + imp[2] * ny[2]));
                pins[2] = fmax(pins[2], n);
            }
        }
    }
    *rms_out = sqrt(sq / 500), *worst_out = worst;
    beest_delassus_steps = r.w->solver.dl_steps;
    memcpy(q, sn_system_q(r.s), (size_t)nq * sizeof(double));
    rig_close(&r);
    return 0;
}

#define BEEST SNT_SOURCE_DIR "/models/strandbeest.urdf"
#define BEEST_PINS SNT_SOURCE_DIR "/models/strandbeest_pins.urdf"

static int test_strandbeest_structured_factor(void) {
    double qs[128], qd[128], qs30[128], qd30[128], rs, ws, rd, wd;
    int ss, sd;
    SNT_CHECK(beest(BEEST, 0, qs, qs30, &rs, &ws, &ss, NULL) == 0);
    SNT_CHECK(beest(BEEST, 1, qd, qd30, &rd, &wd, &sd, NULL) == 0);
    double d30 = 0;
    for (int i = 0; i < 80; i++)
        d30 = fmax(d30, fabs(qs30[i] - qd30[i]));
    printf("  1 s walking at 2 ms: structured factor in %d of 500 steps (dense run: %d); states "
           "%.1e apart after 30 steps (later the feet's contacts amplify rounding); closure rms "
           "%.2e m, worst %.2e (dense: %.2e, %.2e); walked %.3f m\n",
           ss, sd, d30, rs, ws, rd, wd, qs[0]);
    SNT_CHECK(ss == 500 && sd == 0);
    SNT_CHECK(d30 < 2e-13); // docs/loops.md: 9.4e-15
    SNT_CHECK(rs < 34e-6 && ws < 1e-4 && rd < 34e-6 && wd < 1e-4);
    SNT_CHECK(fabs(qs[0]) > 0.5); // it walks
    return 0;
}


// a few contacts on the large system: the sweeps run in Delassus form (c_a = c0_a + sum G_ab
// lambda_b instead of v += Y dl over 79 DOFs); the same steps in velocity form agree to rounding
static int test_strandbeest_delassus_sweeps(void) {
    double qg[128], qv[128], qg30[128], qv30[128], rg, wg, rv, wv;
    int sg, sv;
    SNT_CHECK(beest(BEEST, 0, qg, qg30, &rg, &wg, &sg, NULL) == 0);
    long ng = beest_delassus_steps;
    SNT_CHECK(beest(BEEST, 2, qv, qv30, &rv, &wv, &sv, NULL) == 0);
    long nvf = beest_delassus_steps;
    double d30 = 0;
    for (int i = 0; i < 80; i++)
        d30 = fmax(d30, fabs(qg30[i] - qv30[i]));
    printf("  Delassus form in %ld of 500 steps (velocity-form run: %ld); states %.1e apart after "
           "30 steps; closure rms %.2e / %.2e m, walked %.3f / %.3f m\n",
           ng, nvf, d30, rg, rv, qg[0], qv[0]);
    SNT_CHECK(ng > 400 && nvf == 0);
    SNT_CHECK(d30 < 2e-13); // docs/contact.md: 6.2e-15
    SNT_CHECK(rg < 34e-6 && wg < 1e-4 && rv < 34e-6 && wv < 1e-4);
    return 0;
}


// the same machine with each loop's hinge closed by two pins on its axis, 4 cm apart (seed 001's
// benchmark variant; 72 pins here, 84 in RaiSim's own tree of it): the structural test at load
// keeps each pair's first pin's two in-plane directions and nothing of the second, so a step
// carries the same 72 rows as the equality constraints', the second pins report zero force and
// the first no force across the plane, and it walks like the equality machine
static int test_strandbeest_closed_by_pins(void) {
    double qp[128], qe[128], qp30[128], qe30[128], rp, wp, re, we, pins[3];
    int sp, se;
    SNT_CHECK(beest(BEEST_PINS, 0, qp, qp30, &rp, &wp, &sp, pins) == 0);
    SNT_CHECK(beest(BEEST, 0, qe, qe30, &re, &we, &se, NULL) == 0);
    double d30 = 0;
    for (int i = 0; i < 80; i++)
        d30 = fmax(d30, fabs(qp30[i] - qe30[i]));
    printf("  72 pins: structured factor in %d of 500 steps; after 30 steps %.1e from the equality "
           "machine; closure rms %.2e m, worst %.2e (equality: %.2e, %.2e); second pins' impulses "
           "at most %.1e N s, first pins' across the plane %.1e (of up to %.3f); walked %.3f m "
           "(equality: %.3f)\n",
           sp, d30, rp, wp, re, we, pins[0], pins[1], pins[2], qp[0], qe[0]);
    SNT_CHECK(sp == 500);
    SNT_CHECK(pins[0] == 0);
    // docs/loops.md: below 1e-17 N s (of 6.9), 3.6e-6 from the equality machine after 30 steps,
    // walks 0.659 m (equality 0.657)
    SNT_CHECK(pins[1] < 1e-16 && pins[2] > 0);
    SNT_CHECK(d30 < 1e-5 && fabs(qp[0] - qe[0]) < 0.005);
    SNT_CHECK(rp < 34e-6 && wp < 1e-4);
    SNT_CHECK(fabs(qp[0]) > 0.5);
    return 0;
}


static sn_model* mjcf(const char* xml) {
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_mjcf_string(xml, strlen(xml), "test.xml", ".", NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "  %s\n", err.msg);
        return NULL;
    }
    return m;
}

// an MJCF weld (a pin and an orientation constraint) holds a free body to an arm exactly as a
// fixed joint does: the arm swings under gravity for 1 s with the body welded to its tip, and
// the same arm with the body as a child without a joint must follow the same angle; the weld's
// orientation rows keep the body's frame on the arm's to 1e-6 rad; its impulses balance the
// body's weight and inertia (the inverse dynamics of the welded body vanish)
// one run of test_mjcf_weld_is_a_fixed_joint at time step dt: the largest angle difference, pin
// gap and orientation error over 1 s, and the final angle
static int weld_run(const char* welded, const char* fixed, double dt, double out[4]) {
    rig rw, rf;
    SNT_CHECK(rig_open(&rw, mjcf(welded), 1) == 0 && rig_open(&rf, mjcf(fixed), 1) == 0);
    SNT_CHECK(rw.m->nconstraint == 2 && rw.m->constraint_type[0] == SN_CONSTRAINT_PIN &&
              rw.m->constraint_type[1] == SN_CONSTRAINT_ORIENTATION);
    SNT_CHECK(rw.m->nv == 7 && rf.m->nv == 1);
    SNT_STATUS_OK(sn_world_set_timestep(rw.w, dt));
    SNT_STATUS_OK(sn_world_set_timestep(rf.w, dt));
    double dq = 0, werr = 0, perr = 0;
    int n = (int)(1 / dt + 0.5);
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(rw.w));
        SNT_STATUS_OK(sn_world_integrate(rf.w));
        dq = fmax(dq, fabs(sn_system_q(rw.s)[0] - sn_system_q(rf.s)[0]));
        double imp[3], sep[3];
        SNT_STATUS_OK(sn_system_constraint(rw.s, 1, imp, sep));
        werr = fmax(werr, sqrt(sep[0] * sep[0] + sep[1] * sep[1] + sep[2] * sep[2]));
        SNT_STATUS_OK(sn_system_constraint(rw.s, 0, imp, sep));
        perr = fmax(perr, sqrt(sep[0] * sep[0] + sep[1] * sep[1] + sep[2] * sep[2]));
    }
    out[0] = dq, out[1] = perr, out[2] = werr, out[3] = sn_system_q(rf.s)[0];
    rig_close(&rw);
    rig_close(&rf);
    return 0;
}

// an MJCF weld (a pin and an orientation constraint) holds a free body to an arm as a fixed
// joint does: the arm swings under gravity for 1 s with the body welded to its tip, and the same
// arm with the body as a child without a joint must follow the same angle up to the loops'
// first-order drift (the free body moves along the tangent of the tip's arc each step): at 1 ms
// within 1e-3 rad, and halving the step must halve the difference at least; the orientation
// rows hold the body's frame to 1e-9 rad
static int test_mjcf_weld_is_a_fixed_joint(void) {
    static const char* const welded =
        "<mujoco><worldbody>"
        "<body name='a' pos='0 0 1'><joint name='h' axis='0 1 0' damping='0.01'/>"
        "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.03'/></body>"
        "<body name='b' pos='0.5 0 1' euler='30 0 20'><freejoint/>"
        "<geom type='box' size='0.1 0.05 0.2' pos='0 0.05 -0.1'/></body>"
        "</worldbody><equality><weld body1='b' body2='a' anchor='0.5 0 0'/></equality></mujoco>";
    static const char* const fixed =
        "<mujoco><worldbody>"
        "<body name='a' pos='0 0 1'><joint name='h' axis='0 1 0' damping='0.01'/>"
        "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.03'/>"
        "<body name='b' pos='0.5 0 0' euler='30 0 20'>"
        "<geom type='box' size='0.1 0.05 0.2' pos='0 0.05 -0.1'/></body></body>"
        "</worldbody></mujoco>";
    double r1[4], r2[4];
    SNT_CHECK(weld_run(welded, fixed, 1e-3, r1) == 0 && weld_run(welded, fixed, 5e-4, r2) == 0);
    printf("  1 s of swinging (to %.3f rad): the welded arm within %.1e rad of the fixed one at "
           "1 ms, %.1e at 0.5 ms; the weld opens by at most %.1e m (%.1e) and %.1e rad\n",
           r1[3], r1[0], r2[0], r1[1], r2[1], fmax(r1[2], r2[2]));
    SNT_CHECK(fabs(r1[3]) > 0.5); // it swung
    SNT_CHECK(r1[0] < 1e-3 && r2[0] < 0.5 * r1[0]);
    SNT_CHECK(r1[1] < 1e-4 && r2[1] < 0.5 * r1[1]);
    SNT_CHECK(r1[2] < 1e-14 && r2[2] < 1e-14); // docs/mjcf.md: 7e-16 rad
    return 0;
}

// every shared MJCF model with <connect> constraints runs with its loops closed: 2 s from its
// first key (else its reference configuration) at the file's time step (1 ms when it gives
// none), the file's gravity, no ground. Every step succeeds; after the first 50 steps (which
// close the gaps of connects between sites that start apart: 0.7 per step) the closure error
// stays below 0.25 mm at every step and 50 um RMS. Cassie is run from its `home` key: at its
// reference configuration its loops are singular and its limits violated (docs/mjcf.md)
// a contact whose response has rank 2 (the hook holds the beam's point along the line to it):
// the sticking impulse has no bound along the null direction, and once took 1e10 N s there
// (the beam left with 1e31 J after 23 steps). Now the beam pushes out of the ground, then rocks
// on it without gaining energy, the hook closed
static int test_pinned_beam_leans_on_the_ground(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/mjcf/pinned_beam.xml", SNT_DATA_DIR);
    sn_model* m = NULL;
    SNT_STATUS_OK(sn_load_mjcf(path, NULL, &m, NULL));
    rig r;
    SNT_CHECK(rig_open(&r, m, 1) == 0);
    SNT_STATUS_OK(sn_world_set_ground(r.w, 1, 0));
    double gap0, res;
    SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &gap0));
    SNT_STATUS_OK(sn_system_assemble(r.s, 50, 1e-12, &res));
    int failed = -1;
    double e_settled = 0, gain = -1e300, ke_max = 0, worst = 0, lam_max = 0;
    for (int k = 0; k < 3000 && failed < 0; k++) {
        if (sn_world_integrate(r.w) != SN_OK) failed = k;
        double e = sn_system_kinetic_energy(r.s) + sn_system_potential_energy(r.s), wst;
        ke_max = fmax(ke_max, sn_system_kinetic_energy(r.s));
        SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &wst));
        worst = fmax(worst, wst);
        for (int i = 0; i < sn_system_contact_count(r.s); i++) {
            sn_contact c;
            SNT_STATUS_OK(sn_system_contact(r.s, i, &c));
            lam_max = fmax(lam_max, sqrt(c.impulse[0] * c.impulse[0] + c.impulse[1] * c.impulse[1] +
                                         c.impulse[2] * c.impulse[2]));
        }
        if (k == 99) e_settled = e;
        if (k > 99) gain = fmax(gain, e - e_settled);
    }
    printf("  hook 0.3 m open, assembled to %.1e m; 3 s on the ground: largest contact impulse "
           "%.3g N s, kinetic energy at most %.3g J, energy after 0.1 s %.6g J and at most %+.2e "
           "J above it; hook open at most %.2e m\n",
           res, lam_max, ke_max, e_settled, gain, worst);
    SNT_CHECK_MSG(failed < 0, "step %d failed", failed);
    SNT_CHECK(gap0 > 0.29 && res < 1e-12);
    SNT_CHECK(lam_max < 50 && ke_max < 20);
    SNT_CHECK(gain < 0.02);  // docs/mjcf.md: +0.015 J
    SNT_CHECK(worst < 2e-5); // hook open at most 7.1 um
    rig_close(&r);
    return 0;
}

static int test_shared_mjcf_connects_stay_closed(void) {
    if (!tc_model_path("")) {
        printf("  ../shared/models absent\n");
        return SNT_SKIP;
    }
    char* files[256];
    int nfile = tc_list_files(tc_model_path(""), ".xml", files, 256), nrun = 0, bad = 0;
    for (int f = 0; f < nfile; f++) {
        sn_model* m = NULL;
        if (sn_load_mjcf(files[f], NULL, &m, NULL) != SN_OK || m->nconstraint == 0) {
            sn_model_destroy(m);
            free(files[f]);
            continue;
        }
        const char* label = files[f] + strlen(tc_model_path(""));
        while (*label == '/')
            label++;
        rig r;
        SNT_CHECK(rig_open(&r, m, 1) == 0);
        double dt = m->option_timestep > 0 ? m->option_timestep : 0.001;
        SNT_STATUS_OK(sn_world_set_timestep(r.w, dt));
        if (m->option_has_gravity) SNT_STATUS_OK(sn_world_set_gravity(r.w, m->option_gravity));
        if (m->nkey) SNT_STATUS_OK(sn_system_set_state(r.s, m->key_q, m->nq, m->key_u, m->nv));
        // no key, and the reference configuration past joint limits (a warning says so): the
        // limits act as they are (raisim_cassie: the foot cranks 0.52 rad past theirs, set
        // against the feet by the loops, see test_cassie_from_qpos0)
        int outside = 0;
        for (int i = 0; i < m->nwarning && i < 64 && !m->nkey; i++)
            outside |= strstr(m->warnings[i], "is outside its limits") != NULL;
        // a start far from closed (sites apart by design: connect.xml, weld.xml,
        // equality_site.xml; site frames turned 90 degrees: equality_site_body_compare.xml) is
        // assembled first; the steps alone would close it by 30 % per
        // step at great speed (cassie's key, 1.5 mm open, is left to them)
        double gap0, turn0, res = 0;
        int assembled = 0;
        SNT_STATUS_OK(sn_system_loop_error(r.s, NULL, &gap0));
        SNT_STATUS_OK(sn_system_orientation_error(r.s, &turn0));
        if (gap0 > 1e-2 || turn0 > 1e-2) {
            SNT_STATUS_OK(sn_system_assemble(r.s, 50, 1e-12, &res));
            assembled = 1;
        }
        int nstep = (int)(2 / dt + 0.5), failed = -1;
        double sq = 0, worst = 0, first = 0, at20 = 0;
        for (int k = 0; k < nstep && failed < 0; k++) {
            double rms, wst;
            if (k == 0) {
                SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &first));
            }
            if (sn_world_integrate(r.w) != SN_OK) failed = k;
            SNT_STATUS_OK(sn_system_loop_error(r.s, &rms, &wst));
            if (k == 19) at20 = wst;
            if (k < 50) continue;
            sq += rms * rms;
            worst = fmax(worst, wst);
        }
        double rms_all = sqrt(sq / (nstep - 50));
        printf("  %-66s dt %.0e: %d loops, gap at start %.1e m (after 20 steps %.1e), then rms "
               "%.1e m, worst %.1e m%s%s\n",
               label, dt, m->nconstraint, first, at20, rms_all, worst,
               outside     ? " (starts past its joint limits)"
               : assembled ? " (assembled first)"
                           : "",
               failed >= 0 ? "  STEP FAILED" : "");
        // a gap at the start (sites apart) closes by 0.7 per step; the motion that closing it
        // starts (connect.xml: 160 kg beams pulled 0.4 m in 20 ms) slows that down and may open
        // the loops by up to 1 % of it later (as velocity squared times the step squared)
        int open = first > 1e-6;
        double tol_rms = open ? 2e-3 * first : 5e-5, tol_worst = open ? 1e-2 * first : 2.5e-4;
        if (open && !(at20 <= 5e-3 * first)) bad++; // 0.7^20 = 8e-4 without the motion
        if (failed >= 0 || !(rms_all < tol_rms) || !(worst < tol_worst)) bad++;
        nrun++;
        rig_close(&r);
        free(files[f]);
    }
    SNT_CHECK_MSG(bad == 0, "%d models opened their loops (above)", bad);
    SNT_CHECK_MSG(nrun >= 10, "only %d shared MJCF models with connects ran", nrun);
    return 0;
}

// ---- <equality> attributes through defaults and classes ----

// a two-link arm hinged to the world and a free ball, with `def` inside <default> and `eq` inside
// <equality>
static sn_model* eq_model(const char* def, const char* eq, sn_error* err) {
    char xml[4096];
    snprintf(xml, sizeof xml,
             "<mujoco>\n<default>%s</default>\n<worldbody>\n"
             "<body name=\"arm\" pos=\"0 0 2\"><joint name=\"h1\" axis=\"0 1 0\"/>"
             "<geom type=\"capsule\" fromto=\"0 0 0 0.5 0 0\" size=\"0.02\"/>"
             "<body name=\"arm2\" pos=\"0.5 0 0\"><joint name=\"h2\" axis=\"0 1 0\"/>"
             "<geom type=\"capsule\" fromto=\"0 0 0 0.5 0 0\" size=\"0.02\"/>"
             "<site name=\"tip\" pos=\"0.5 0 0\"/></body></body>\n"
             "<body name=\"ball\" pos=\"1 0 2\"><freejoint/><geom type=\"sphere\" size=\"0.05\"/>"
             "<site name=\"centre\"/></body>\n"
             "</worldbody>\n<equality>%s</equality>\n</mujoco>\n",
             def, eq);
    sn_model* m = NULL;
    if (sn_load_mjcf_string(xml, strlen(xml), "eq.xml", ".", NULL, &m, err) != SN_OK) return NULL;
    return m;
}

// whether two models have the same constraints, mimic couplings and "not read" warning
static int same_equalities(const sn_model* a, const sn_model* b) {
    if (!a || !b) return a == b;
    if (a->nconstraint != b->nconstraint || a->njoint != b->njoint) return 0;
    int n = a->nconstraint;
    for (int i = 0; i < n; i++)
        if (a->constraint_type[i] != b->constraint_type[i] ||
            a->constraint_frame1[i] != b->constraint_frame1[i] ||
            a->constraint_frame2[i] != b->constraint_frame2[i] ||
            a->constraint_naxis[i] != b->constraint_naxis[i])
            return 0;
    if (n && (memcmp(a->constraint_anchor, b->constraint_anchor, 3 * n * sizeof(sn_real)) ||
              memcmp(a->constraint_anchor2, b->constraint_anchor2, 3 * n * sizeof(sn_real)) ||
              memcmp(a->constraint_rot2, b->constraint_rot2, 9 * n * sizeof(sn_real))))
        return 0;
    for (int j = 0; j < a->njoint; j++)
        if (a->joint_mimic[j] != b->joint_mimic[j] ||
            a->joint_mimic_multiplier[j] != b->joint_mimic_multiplier[j] ||
            a->joint_mimic_offset[j] != b->joint_mimic_offset[j])
            return 0;
    if (a->nwarning != b->nwarning) return 0;
    for (int i = 0; i < a->nwarning && i < 64; i++)
        if (strcmp(a->warnings[i], b->warnings[i])) return 0;
    return 1;
}

static int has_warning(const sn_model* m, const char* text) {
    for (int i = 0; m && i < m->nwarning && i < 64; i++)
        if (strstr(m->warnings[i], text)) return 1;
    return 0;
}

// every attribute of <connect>, <weld> and <equality><joint> the reader takes gives the same
// model on the element, in <default><equality> and in a class's <equality>; without it the model
// differs (or is refused)
static int test_mjcf_equality_attributes_through_defaults(void) {
    static const struct {
        const char *tag, *base, *attr;
    } cases[] = {
        {"connect", "anchor=\"0 0 0\"", "active=\"false\""},
        {"connect", "body1=\"ball\"", "anchor=\"0.1 0 0\""},
        {"connect", "anchor=\"0 0 0\"", "body1=\"ball\""},
        {"connect", "body1=\"ball\" anchor=\"0 0 0\"", "body2=\"arm2\""},
        {"connect", "site2=\"tip\"", "site1=\"centre\""},
        {"connect", "site1=\"centre\"", "site2=\"tip\""},
        {"weld", "body1=\"ball\" body2=\"arm2\"", "active=\"false\""},
        {"weld", "body1=\"ball\" body2=\"arm2\"", "anchor=\"0.1 0 0\""},
        {"weld", "body1=\"ball\" body2=\"arm2\"", "relpose=\"0 0 0.2 0 1 0 0\""},
        {"weld", "body1=\"ball\" body2=\"arm2\"", "torquescale=\"0\""},
        {"weld", "body2=\"arm2\"", "body1=\"ball\""},
        {"weld", "body1=\"ball\"", "body2=\"arm2\""},
        {"weld", "site2=\"tip\"", "site1=\"centre\""},
        {"weld", "site1=\"centre\"", "site2=\"tip\""},
        {"joint", "joint1=\"h2\"", "active=\"false\""},
        {"joint", "joint2=\"h1\"", "joint1=\"h2\""},
        {"joint", "joint1=\"h2\"", "joint2=\"h1\""},
        {"joint", "joint1=\"h2\" joint2=\"h1\"", "polycoef=\"0.3 2\""},
        {"connect", "body1=\"ball\" anchor=\"0 0 0\"", "solref=\"0.02 1\""},
        {"weld", "body1=\"ball\"", "solimp=\"0.9 0.95 0.001\""},
    };
    int n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        char eq[512], def[512];
        sn_error e;
        snprintf(eq, sizeof eq, "<%s %s %s/>", cases[i].tag, cases[i].base, cases[i].attr);
        sn_model* on = eq_model("", eq, &e);
        SNT_CHECK_MSG(on, "%s %s: %s", cases[i].tag, cases[i].attr, e.msg);
        snprintf(eq, sizeof eq, "<%s %s/>", cases[i].tag, cases[i].base);
        snprintf(def, sizeof def, "<equality %s/>", cases[i].attr);
        sn_model* main_def = eq_model(def, eq, &e);
        snprintf(eq, sizeof eq, "<%s class=\"c\" %s/>", cases[i].tag, cases[i].base);
        snprintf(def, sizeof def, "<default class=\"c\"><equality %s/></default>", cases[i].attr);
        sn_model* cls = eq_model(def, eq, &e);
        snprintf(eq, sizeof eq, "<%s %s/>", cases[i].tag, cases[i].base);
        sn_model* without = eq_model("", eq, &e);
        SNT_CHECK_MSG(same_equalities(on, main_def), "%s %s: <default><equality> is not read",
                      cases[i].tag, cases[i].attr);
        SNT_CHECK_MSG(same_equalities(on, cls), "%s %s: a class's <equality> is not read",
                      cases[i].tag, cases[i].attr);
        SNT_CHECK_MSG(!same_equalities(on, without), "%s %s makes no difference", cases[i].tag,
                      cases[i].attr);
        sn_model_destroy(on);
        sn_model_destroy(main_def);
        sn_model_destroy(cls);
        sn_model_destroy(without);
    }
    printf("  %d equality attributes read the same on the element, in <default> and in a class\n",
           n);
    // the numbers: a polycoef through a class couples h2 = 0.3 + 2 h1; a relpose through the
    // default puts the anchor on the ball at (0, 0, 0.2) from the anchor on arm2; torquescale 0
    // leaves only the pin; solref listed as not read
    sn_error e;
    sn_model* m = eq_model("<default class=\"c\"><equality polycoef=\"0.3 2\"/></default>",
                           "<joint class=\"c\" joint1=\"h2\" joint2=\"h1\"/>", &e);
    SNT_CHECK(m);
    int h1 = sn_model_find(m, SN_OBJ_JOINT, "h1"), h2 = sn_model_find(m, SN_OBJ_JOINT, "h2");
    SNT_CHECK(h1 >= 0 && h2 >= 0 && m->joint_mimic[h2] == h1);
    SNT_CHECK(m->joint_mimic_multiplier[h2] == 2 && m->joint_mimic_offset[h2] == 0.3);
    sn_model_destroy(m);
    m = eq_model("<equality relpose=\"0 0 0.2 1 0 0 0\" torquescale=\"0\"/>",
                 "<weld body1=\"ball\" body2=\"arm2\" anchor=\"0.1 0 0\"/>", &e);
    SNT_CHECK(m && m->nconstraint == 1 && m->constraint_type[0] == SN_CONSTRAINT_PIN);
    SNT_CHECK(m->constraint_anchor[0] == 0.1 && m->constraint_anchor[1] == 0 &&
              m->constraint_anchor[2] == 0);
    SNT_CHECK(m->constraint_anchor2[0] == 0.1 && m->constraint_anchor2[1] == 0 &&
              m->constraint_anchor2[2] == 0.2);
    sn_model_destroy(m);
    m = eq_model("<equality solref=\"0.02 1\"/>", "<connect body1=\"ball\" anchor=\"0 0 0\"/>", &e);
    SNT_CHECK(m && has_warning(m, "solref/solimp"));
    sn_model_destroy(m);
    // a bad active is refused, wherever it is given
    SNT_CHECK(
        !eq_model("<equality active=\"no\"/>", "<connect body1=\"ball\" anchor=\"0 0 0\"/>", &e));
    SNT_CHECK(e.code == SN_ERR_PARSE && strstr(e.msg, "active=\"no\""));
    return 0;
}

// the ball's height after t seconds at 1 ms steps, pinned where it is by a connect that `def`
// and `eq` make active or inactive
static int ball_fall(const char* def, const char* eq, double t, double* z0, double* z) {
    sn_error e;
    rig r;
    SNT_CHECK(rig_open(&r, eq_model(def, eq, &e), 1) == 0);
    SNT_STATUS_OK(sn_world_set_ground(r.w, 0, 0));
    int qz = -1;
    for (int j = 0; j < r.m->njoint; j++)
        if (r.m->joint_type[j] == SN_JOINT_FLOATING) qz = r.m->joint_qadr[j] + 2;
    SNT_CHECK(qz >= 0);
    *z0 = sn_system_q(r.s)[qz];
    int n = (int)lround(t / 0.001);
    for (int i = 0; i < n; i++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    *z = sn_system_q(r.s)[qz];
    rig_close(&r);
    return 0;
}

// an inactive connect, given on the element, in <default><equality> or in a class, lets the
// ball fall freely: after 0.5 s its height is the unconstrained run's, bit for bit, and
// z0 - g t^2 / 2 to within g dt t (the semi-implicit step's first-order lag); an active one
// (active="true" on the element over an inactive default) holds it within 1e-6 m
static int test_mjcf_inactive_connect_falls_freely(void) {
    const double t = 0.5, g = 9.81, dt = 0.001;
    double z0, zfree, z;
    SNT_CHECK(ball_fall("", "", t, &z0, &zfree) == 0);
    SNT_CHECK(z0 == 2);
    SNT_NEAR(zfree, z0 - 0.5 * g * t * t, g * dt * t);
    static const char* const off[][2] = {
        {"", "<connect body1=\"ball\" anchor=\"0 0 0\" active=\"false\"/>"},
        {"<equality active=\"false\"/>", "<connect body1=\"ball\" anchor=\"0 0 0\"/>"},
        {"<default class=\"off\"><equality active=\"false\"/></default>",
         "<connect class=\"off\" body1=\"ball\" anchor=\"0 0 0\"/>"},
    };
    for (int i = 0; i < 3; i++) {
        SNT_CHECK(ball_fall(off[i][0], off[i][1], t, &z0, &z) == 0);
        SNT_CHECK_MSG(z == zfree, "case %d: %.17g, free %.17g", i, z, zfree);
    }
    SNT_CHECK(ball_fall("<equality active=\"false\"/>",
                        "<connect body1=\"ball\" anchor=\"0 0 0\" active=\"true\"/>", t, &z0,
                        &z) == 0);
    SNT_NEAR(z, z0, 1e-6);
    printf("  inactive connect: the ball falls %.6f m in %g s (g t^2/2 = %.6f m); active: %.2e m\n",
           z0 - zfree, t, 0.5 * g * t * t, z0 - z);
    return 0;
}

SNT_SUITE(
    SNT_TEST(test_fourbar_closed_at_nominal), SNT_TEST(test_fourbar_swings_closed),
    SNT_TEST(test_error_shrinks_by_0_7), SNT_TEST(test_assemble_closes_an_opened_fourbar),
    SNT_TEST(test_pin_equality_and_duplicates_agree), SNT_TEST(test_impulse_along_the_axes),
    SNT_TEST(test_loop_impulses_change_no_momentum), SNT_TEST(test_contacts_cannot_open_a_loop),
    SNT_TEST(test_parallelogram_through_singular_pose),
    SNT_TEST(test_parallelogram_with_redundant_bar), SNT_TEST(test_mimic_joint),
    SNT_TEST(test_minitaur_loops_stay_closed), SNT_TEST(test_inverse_dynamics_includes_loop_forces),
    SNT_TEST(test_hand_set_velocity_keeps_the_loop), SNT_TEST(test_constraint_held_by_its_joints),
    SNT_TEST(test_slider_crank_follows_its_closed_form),
    SNT_TEST(test_strandbeest_structured_factor), SNT_TEST(test_strandbeest_closed_by_pins),
    SNT_TEST(test_strandbeest_delassus_sweeps), SNT_TEST(test_mjcf_weld_is_a_fixed_joint),
    SNT_TEST(test_pinned_beam_leans_on_the_ground), SNT_TEST(test_shared_mjcf_connects_stay_closed),
    SNT_TEST(test_mjcf_equality_attributes_through_defaults),
    SNT_TEST(test_mjcf_inactive_connect_falls_freely))
