// SPDX-License-Identifier: Apache-2.0
// test_contact.c: contacts, joint limits and joint friction (the contact issue) against the
// analytic cases of tier C (shared/spec/validation.md) and seed 000's step-4 rules: a box
// sliding to a stop (C1) and down an incline (C2), a ball bouncing with restitution (C4),
// tunnelling (C6, pinned), resting bodies that neither sink nor creep, joint friction that holds
// or slides with exactly its bound, joint position and velocity limits, ANYmal C standing on its
// feet under PD, energy across impacts, determinism and no allocation in a step. docs/contact.md
// documents what is pinned here; every test prints the numbers it measured.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81


static char* strf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char* s = malloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static double total_energy(sn_system* s) {
    return sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
}

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


// ---- C2: a block on an incline ----

typedef struct incline_result {
    double x, u;  // position and velocity along the incline at the end
    double drift; // the largest of |z - 0.1|, |y|, and the quaternion's vector part at the end
    int it_max;   // the solver's most iterations in one step
    int capped;   // steps that ended at the iteration limit
} incline_result;

// The ground stays horizontal and gravity is tilted by alpha about y, g = 9.81 (sin alpha, 0,
// -cos alpha): the box of box_urdf starts at rest on the ground and runs for T seconds.
static int incline_run(double mu, double alpha, double T, incline_result* r) {
    scene sc;
    SNT_CHECK(scene_open(&sc, box_urdf, 0.001) == 0);
    double g[3] = {GRAV * sin(alpha), 0, -GRAV * cos(alpha)};
    SNT_STATUS_OK(sn_world_set_gravity(sc.w, g));
    SNT_STATUS_OK(sn_world_set_material(sc.w, mu, 0, 0));
    double q[7] = {0, 0, 0.1, 1, 0, 0, 0}, u0[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u0, 6));
    int n = (int)lround(T / 0.001);
    memset(r, 0, sizeof *r);
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        int it = sn_system_solver_iterations(sc.s);
        if (it > r->it_max) r->it_max = it;
        r->capped += it >= 150;
    }
    const double* qe = sn_system_q(sc.s);
    r->x = qe[0];
    r->u = sn_system_u(sc.s)[0];
    r->drift = fmax(fmax(fabs(qe[2] - 0.1), fabs(qe[1])),
                    fmax(fabs(qe[4]), fmax(fabs(qe[5]), fabs(qe[6]))));
    SNT_CHECK(sn_system_contact_count(sc.s) == 4);
    scene_close(&sc);
    return 0;
}

// C2: alpha = 30 deg, mu = 0.3: a = g (sin alpha - mu cos alpha) = 2.356287 m/s^2 (1 %); just
// below tan 30 deg = 0.57735 (mu = 0.57) it still slides, at 0.062446 m/s^2
static int test_incline_c2(void) {
    const double alpha = M_PI / 6, T = 1;
    incline_result r;
    SNT_CHECK(incline_run(0.3, alpha, T, &r) == 0);
    double a_exp = GRAV * (sin(alpha) - 0.3 * cos(alpha));
    // semi-implicit steps: u_n = a n dt, x_n = a dt^2 n (n + 1) / 2
    double a_u = r.u / T, a_x = 2 * r.x / (T * (T + 0.001));
    printf("  mu = 0.3: a = %.6f m/s^2 from u, %.6f from x (expected %.6f); off-axis drift "
           "%.2e; at most %d solver iterations\n",
           a_u, a_x, a_exp, r.drift, r.it_max);
    // docs/contact.md: a = 2.356287 from u and x (the closed form's six digits: asserted 1e-6
    // relative), off-axis drift 1.4e-10 (asserted 1e-9)
    SNT_NEAR(a_exp, 2.356287, 1e-6);
    SNT_NEAR_REL(a_u, a_exp, 1e-6, 1);
    SNT_NEAR_REL(a_x, a_exp, 1e-6, 1);
    SNT_CHECK(r.drift < 1e-9);
    SNT_CHECK(incline_run(0.57, alpha, T, &r) == 0);
    a_exp = GRAV * (sin(alpha) - 0.57 * cos(alpha));
    printf("  mu = 0.57: a = %.6f m/s^2 (expected %.6f)\n", r.u / T, a_exp);
    SNT_NEAR_REL(r.u / T, a_exp, 0.01, 1);
    SNT_NEAR(r.u / T, 0.062594, 2e-6); // docs/contact.md's figure (0.24 % above the closed form)
    return 0;
}

// C2, static: mu >= tan 30 deg: the block stays put. The four corners share the load in a
// statically indeterminate way, and the block Gauss-Seidel can end with opposed sideways friction
// at the corners that uses part of each cone: with mu = 0.6 (4 % above tan 30 deg) the block slips
// 0.66 um in its first steps and then sticks for good (asserted below 1 um); with mu = 0.58
// (0.5 % above) it creeps at about 0.1 mm/s (asserted below 0.2 mm/s). Pinned here, and listed as
// a known limitation in docs/contact.md.
static int test_incline_c2_static(void) {
    const double alpha = M_PI / 6;
    incline_result r;
    SNT_CHECK(incline_run(0.6, alpha, 5, &r) == 0);
    printf("  mu = 0.60: after 5 s x = %.3e m, u = %.3e m/s, drift %.2e; %d steps at the "
           "iteration limit (max %d)\n",
           r.x, r.u, r.drift, r.capped, r.it_max);
    SNT_CHECK(fabs(r.x) < 1e-6 && fabs(r.u) < 1e-15 && r.drift < 2e-7);
    SNT_CHECK(incline_run(0.58, alpha, 0.25, &r) == 0);
    printf("  mu = 0.58: after 0.25 s x = %.3e m, u = %.3e m/s (known creep)\n", r.x, r.u);
    SNT_CHECK(fabs(r.u) < 2e-4 && fabs(r.x) < 1e-4);
    return 0;
}

// ---- joint friction, joint limits, velocity limits ----

// a fixed-base mechanism with one joint at the origin: `type` about or along `axis`, a 2 kg link
// with its centre of mass at `com` and principal inertia 0.01 kg m^2 about it (a link at 0.5 m:
// joint inertia I = 0.01 + 2 * 0.5^2 = 0.51 kg m^2, gravity torque at most 9.81 N m); `limit` is
// the <limit> element, `friction` the <dynamics friction>
static char* joint_xml(const char* type, const char* axis, const char* com, const char* limit,
                       double friction) {
    return strf("<robot name=\"j\"><link name=\"world\"/><link name=\"arm\"><inertial>"
                "<origin xyz=\"%s\"/><mass value=\"2\"/><inertia ixx=\"0.01\" ixy=\"0\" "
                "ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>"
                "<joint name=\"j\" type=\"%s\"><parent link=\"world\"/><child link=\"arm\"/>"
                "<axis xyz=\"%s\"/>%s<dynamics friction=\"%.17g\"/></joint></robot>",
                com, type, axis, limit, friction);
}

static const char* wide_limit =
    "<limit lower=\"-100\" upper=\"100\" effort=\"1000\" velocity=\"1000\"/>";
static const double ARM_I = 0.51, ARM_TG = 2 * GRAV * 0.5;

// takes ownership of xml; the system starts at q = q0, u = u0
static int joint_open(scene* sc, char* xml, double q0, double u0) {
    memset(sc, 0, sizeof *sc);
    sc->m = tc_load_string(xml, 0);
    free(xml);
    SNT_CHECK(sc->m && sc->m->nv == 1);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    SNT_STATUS_OK(sn_world_create(&o, &sc->w, NULL));
    SNT_STATUS_OK(sn_world_add_system(sc->w, sc->m, &sc->s, NULL));
    SNT_STATUS_OK(sn_system_set_state(sc->s, &q0, 1, &u0, 1));
    return 0;
}

// the arm released horizontally (link along +x, hinge about y: the gravity torque is
// m g L cos q = 9.81 N m at q = 0) against a friction bound tau_c (joint friction plus the
// actuator's output friction tau_out): it holds when tau_c > 9.81 N m, else every step follows
//   u+ = u + dt (m g L cos q - tau_c) / I,  q+ = q + dt u+
// exactly (the friction row opposes the motion with its bound). Returns the largest deviation
// from that recursion over n steps (or the largest |q|, |u| when held).
static int friction_run(const char* type, double tau_c, double tau_out, int n, double* dev,
                        double* u_first) {
    scene sc;
    SNT_CHECK(joint_open(&sc, joint_xml(type, "0 1 0", "0.5 0 0", wide_limit, tau_c), 0, 0) == 0);
    if (tau_out > 0) {
        sn_actuator_desc a;
        memset(&a, 0, sizeof a);
        a.joint = 0, a.gear = 1, a.output_friction = tau_out;
        SNT_STATUS_OK(sn_system_add_actuator(sc.s, &a, NULL));
    }
    const double dt = 0.001, bound = tau_c + tau_out;
    int held = bound > ARM_TG;
    double q = 0, u = 0;
    *dev = 0;
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        if (!held) {
            u += dt * (ARM_TG * cos(q) - bound) / ARM_I;
            q += dt * u;
        }
        double uq = sn_system_u(sc.s)[0], qq = sn_system_q(sc.s)[0];
        if (k == 0) *u_first = uq;
        *dev = fmax(*dev, fmax(fabs(uq - u), fabs(qq - q)));
    }
    scene_close(&sc);
    return 0;
}

// seed 000 step 4: "friction stops a joint if the bound allows it, and otherwise opposes the
// motion with the bound"; stiction is exact (no creep)
static int test_joint_friction_holds_and_slides(void) {
    double dev, u1;
    SNT_CHECK(friction_run("revolute", 12, 0, 3000, &dev, &u1) == 0);
    printf("  friction 12 N m > gravity torque 9.81 N m: max |q|, |u| over 3 s %.2e\n", dev);
    SNT_CHECK(dev < 1e-12);
    SNT_CHECK(friction_run("revolute", 4, 0, 300, &dev, &u1) == 0);
    double u1_exp = 0.001 * (ARM_TG - 4) / ARM_I;
    printf("  friction 4 N m: first step u = %.15g rad/s (dt (9.81 - 4) / 0.51 = %.15g), "
           "max deviation from the recursion over 0.3 s %.2e\n",
           u1, u1_exp, dev);
    SNT_NEAR_REL(u1, u1_exp, 1e-12, 1e-300);
    SNT_CHECK(dev < 1e-12);
    // a prismatic joint along z carrying its 2 kg (weight 19.62 N) is held by 20 N, slides
    // with (19.62 - 10) / 2 m/s^2 against 10 N
    for (int c = 0; c < 2; c++) {
        scene sc;
        double f = c ? 10 : 20;
        SNT_CHECK(joint_open(&sc, joint_xml("prismatic", "0 0 1", "0 0 0", wide_limit, f), 0, 0) ==
                  0);
        for (int k = 0; k < 100; k++)
            SNT_STATUS_OK(sn_world_integrate(sc.w));
        double u = sn_system_u(sc.s)[0], u_exp = c ? -0.1 * (2 * GRAV - 10) / 2 : 0;
        printf("  prismatic, friction %.0f N: u after 0.1 s %.15g m/s (expected %.15g)\n", f, u,
               u_exp);
        SNT_NEAR(u, u_exp, 1e-12);
        scene_close(&sc);
    }
    return 0;
}

// a joint spinning about the vertical (no gravity torque) at 2 rad/s is decelerated by
// tau_c / I and stops exactly after u0 I / tau_c = 1.02 s, then stays stopped
static int test_joint_friction_stops_a_moving_joint(void) {
    scene sc;
    SNT_CHECK(joint_open(&sc, joint_xml("revolute", "0 0 1", "0.5 0 0", wide_limit, 1), 0, 2) == 0);
    double t_stop = -1, q_stop = 0, u_min = 1;
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double u = sn_system_u(sc.s)[0];
        u_min = fmin(u_min, u);
        if (t_stop < 0 && u == 0) t_stop = sn_world_time(sc.w), q_stop = sn_system_q(sc.s)[0];
        if (t_stop < 0 && k < 1000) SNT_NEAR(u, 2 - (k + 1) * 0.001 / ARM_I, 1e-12);
    }
    printf("  stopped at t = %.4f s (1.02 expected) after %.6f rad (u0^2 I / (2 tau_c) = 1.02); "
           "then q = %.9f, u = %g\n",
           t_stop, q_stop, sn_system_q(sc.s)[0], sn_system_u(sc.s)[0]);
    SNT_NEAR(t_stop, 1.02, 0.0015);
    SNT_NEAR(q_stop, 1.02, 2e-3);
    SNT_CHECK(u_min >= 0);                     // never reversed
    SNT_CHECK(sn_system_q(sc.s)[0] == q_stop); // stays stopped, exactly
    SNT_CHECK(sn_system_u(sc.s)[0] == 0);
    scene_close(&sc);
    return 0;
}

// the actuator's output friction adds to the joint's friction in the bound
// (tau_c,joint + tau_c,out) dt of seed 000 step 5
static int test_output_friction_adds(void) {
    double dev, u1, dev_ref, u1_ref;
    // 5 + 5 N m > 9.81 N m: held; 5 N m alone is not enough
    SNT_CHECK(friction_run("revolute", 5, 5, 2000, &dev, &u1) == 0);
    printf("  joint 5 + output 5 N m: held, max |q|, |u| %.2e\n", dev);
    SNT_CHECK(dev < 1e-12);
    SNT_CHECK(friction_run("revolute", 5, 0, 10, &dev, &u1) == 0);
    SNT_CHECK(u1 > 0 && dev < 1e-12);
    // joint 3 + output 2 N m slides exactly as joint 5 N m
    SNT_CHECK(friction_run("revolute", 3, 2, 300, &dev, &u1) == 0);
    SNT_CHECK(friction_run("revolute", 5, 0, 300, &dev_ref, &u1_ref) == 0);
    printf("  joint 3 + output 2 N m: first step u = %.15g rad/s, joint 5 N m: %.15g; deviation "
           "from the recursion with 5 N m %.2e\n",
           u1, u1_ref, dev);
    SNT_NEAR_REL(u1, 0.001 * (ARM_TG - 5) / ARM_I, 1e-12, 1e-300);
    SNT_CHECK(dev < 1e-12);
    // output friction alone makes a friction row
    SNT_CHECK(friction_run("revolute", 0, 10, 1000, &dev, &u1) == 0);
    printf("  output friction 10 N m alone: held, max |q|, |u| %.2e\n", dev);
    SNT_CHECK(dev < 1e-12);
    return 0;
}

// a URDF continuous joint is a revolute joint without position limits (RaiSim has no separate
// type): seed 000's friction rule ("every revolute or prismatic joint with friction") applies
static int test_continuous_joint_friction(void) {
    double dev, u1;
    SNT_CHECK(friction_run("continuous", 12, 0, 1000, &dev, &u1) == 0);
    printf("  continuous joint, friction 12 N m > 9.81 N m: max |q|, |u| over 1 s %.3g\n", dev);
    SNT_CHECK_MSG(dev < 1e-12,
                  "a continuous joint's <dynamics friction> is not a solver row (the arm falls)");
    return 0;
}

typedef struct limit_run {
    int impact;          // the first step that starts outside the range
    double e, u_in;      // how far outside it started, and its velocity then
    double u_out;        // the velocity after that step
    double beyond;       // the farthest the joint got back past the limit into its range after
    double deeper;       // the farthest outside after the impact step
    double u10;          // the velocity 10 steps after the impact
    double q_end, u_end; // at 2 s
} limit_run;

// Runs a one-joint mechanism with a lower limit `lower` for 2 s and records the impact.
static int limit_track(scene* sc, double lower, limit_run* r) {
    memset(r, 0, sizeof *r);
    r->impact = -1;
    r->beyond = -INFINITY;
    for (int k = 0; k < 2000; k++) {
        double q0 = sn_system_q(sc->s)[0], u0 = sn_system_u(sc->s)[0];
        SNT_STATUS_OK(sn_world_integrate(sc->w));
        double q = sn_system_q(sc->s)[0], u = sn_system_u(sc->s)[0];
        if (r->impact < 0 && q0 < lower)
            r->impact = k, r->e = lower - q0, r->u_in = u0, r->u_out = u;
        if (r->impact < 0) continue;
        r->beyond = fmax(r->beyond, q - lower);
        if (k > r->impact) r->deeper = fmax(r->deeper, lower - q - r->e);
        if (k == r->impact + 10) r->u10 = u;
    }
    r->q_end = sn_system_q(sc->s)[0], r->u_end = sn_system_u(sc->s)[0];
    SNT_CHECK(r->impact > 0);
    return 0;
}

// the arm of joint_xml on a hinge about y with its link along -x, released at q = 0: gravity
// drives it onto its lower limit -0.5 rad
static int limit_arm(double erp, limit_run* r) {
    scene sc;
    SNT_CHECK(joint_open(&sc,
                         joint_xml("revolute", "0 1 0", "-0.5 0 0",
                                   "<limit lower=\"-0.5\" upper=\"0.5\" effort=\"100\" "
                                   "velocity=\"100\"/>",
                                   0),
                         0, 0) == 0);
    SNT_STATUS_OK(sn_world_set_erp(sc.w, erp));
    SNT_CHECK(limit_track(&sc, -0.5, r) == 0);
    scene_close(&sc);
    return 0;
}

// a prismatic joint along x (no gravity along it) from q = 0.5 at u0, pushed by force f,
// onto its lower limit 0
static int limit_slider(double erp, double u0, double f, limit_run* r) {
    scene sc;
    const char* lim = "<limit lower=\"0\" upper=\"1\" effort=\"100\" velocity=\"100\"/>";
    SNT_CHECK(joint_open(&sc, joint_xml("prismatic", "1 0 0", "0 0 0", lim, 0), 0.5, u0) == 0);
    SNT_STATUS_OK(sn_world_set_erp(sc.w, erp));
    SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, &f, 1));
    SNT_CHECK(limit_track(&sc, 0, r) == 0);
    scene_close(&sc);
    return 0;
}

// seed 000: a position-limit row acts once the joint is outside its range; the row's target
// velocity is erp (limit - q) / dt (the erp share of the excursion removed per step). Pinned:
// the joint overshoots by at most one step's travel, the impact step never lets it go deeper
// and leaves at most the erp push-out velocity; with erp = 0 it stops dead where it is; a
// joint held against its limit (gravity, a constant force) settles onto it.
static int test_joint_limit_rules(void) {
    const double dt = 0.001, erp = 0.2;
    limit_run r;
    SNT_CHECK(limit_arm(erp, &r) == 0);
    printf("  arm onto -0.5 rad: impact at %.3f s at %.4f rad/s, %.3e rad outside; after the "
           "impact step u = %.6f rad/s (erp e / dt = %.6f); at 2 s %.2e rad outside, u %.1e\n",
           r.impact * dt, r.u_in, r.e, r.u_out, erp * r.e / dt, -0.5 - r.q_end, r.u_end);
    SNT_CHECK(r.u_in < 0 && r.e > 0 && r.e <= fabs(r.u_in) * dt * (1 + 1e-12));
    SNT_NEAR(r.u_in, -4.2952, 1e-4); // docs/contact.md's figures, to their last digit
    SNT_NEAR(r.e, 2.284e-3, 1e-6);
    SNT_CHECK(r.u_out >= 0 && r.u_out <= erp * r.e / dt * (1 + 1e-12));
    SNT_CHECK(r.deeper <= 1e-15);
    SNT_CHECK(-0.5 - r.q_end >= 0 && -0.5 - r.q_end < 1e-12 && fabs(r.u_end) < 1e-9);
    SNT_CHECK(limit_slider(0, -1.2345, 0, &r) == 0);
    printf("  slider at %.4f m/s, erp = 0: stops dead %.3e m outside (u %g after the impact, q "
           "%.6e m and u %g at 2 s)\n",
           r.u_in, r.e, r.u_out, r.q_end, r.u_end);
    SNT_CHECK(r.u_out == 0 && r.u_end == 0 && r.q_end == -r.e);
    SNT_NEAR(r.e, 1.207e-3, 1e-6);
    SNT_CHECK(limit_slider(erp, 0, -5, &r) == 0);
    printf("  slider pushed by 5 N: %.3e m outside at %.4f m/s; at 2 s q = %.3e m, u = %.1e\n", r.e,
           r.u_in, r.q_end, r.u_end);
    SNT_CHECK(r.u_out >= 0 && r.u_out <= erp * r.e / dt * (1 + 1e-12));
    SNT_CHECK(r.q_end <= 0 && r.q_end > -1e-20 && fabs(r.u_end) < 1e-9); // -1.9e-137 m
    return 0;
}

// Joint limits stop the joint at the limit with zero restitution (the issue): after the impact
// the joint does not come back off its limit. FAILS at the time of writing (solver.c): the
// impact step leaves the joint with the erp push-out velocity erp e / dt (e: how far the joint
// overshot in the step before, up to |u| dt), and nothing takes it away once the joint is back
// in range: the arm falling onto its limit at 4.3 rad/s leaves it at 0.46 rad/s (10.6 %) and
// rises 4.1 mrad back into its range, 1.8 times its overshoot; the free slider hitting its
// limit at 1.2345 m/s leaves at 0.2414 m/s for good (19.6 %). The effective restitution is
// anywhere between 0 and erp, depending on where in a step the limit is crossed.
static int test_joint_limit_no_bounce(void) {
    limit_run arm, sl;
    SNT_CHECK(limit_arm(0.2, &arm) == 0);
    SNT_CHECK(limit_slider(0.2, -1.2345, 0, &sl) == 0);
    printf("  arm: impact at %.4f rad/s, leaves at %.4f rad/s (%.1f %%), back %.3e rad into "
           "its range (overshoot %.3e rad)\n",
           fabs(arm.u_in), arm.u_out, 100 * arm.u_out / fabs(arm.u_in), arm.beyond, arm.e);
    printf("  free slider: impact at %.4f m/s, leaves at %.4f m/s (%.1f %%), still %.4f m/s 10 "
           "steps later, q = %.4f m at 2 s\n",
           fabs(sl.u_in), sl.u_out, 100 * sl.u_out / fabs(sl.u_in), sl.u10, sl.q_end);
    SNT_CHECK_MSG(arm.beyond <= 1e-9 && fabs(sl.u10) <= 1e-9,
                  "joints come back off their limits after an impact (arm %.3e rad back into "
                  "range, slider leaves at %.4f m/s)",
                  arm.beyond, sl.u10);
    return 0;
}

// joint rows are warm-started like contacts: an arm resting on its limit under gravity (the
// limit's row solved alone) needs one sweep per step when it starts from the last step's impulse,
// two (the solve and the check) without the warm start; an arm held by its friction likewise
static int test_joint_rows_warm_start(void) {
    const char* lim = "<limit lower=\"-0.5\" upper=\"0.5\" effort=\"100\" velocity=\"100\"/>";
    for (int fr = 0; fr <= 1; fr++)
        for (int warm = 0; warm <= 1; warm++) {
            scene sc;
            // about y with the centre of mass at x = 0.5: gravity pulls q up to its upper limit
            SNT_CHECK(joint_open(&sc,
                                 joint_xml("revolute", "0 1 0", "0.5 0 0", fr ? wide_limit : lim,
                                           fr ? 12 : 0),
                                 fr ? 0 : 0.5, 0) == 0);
            sn_world_set_warm_start(sc.w, warm);
            int it_min = 1000, it_max = 0, rows = 0;
            for (int k = 0; k < 300; k++) {
                SNT_STATUS_OK(sn_world_integrate(sc.w));
                if (k < 100) continue;
                int it = sn_system_solver_iterations(sc.s);
                rows += sn_world_contact_row_count(sc.w);
                it_min = it < it_min ? it : it_min;
                it_max = it > it_max ? it : it_max;
            }
            printf("  %s, warm start %s: %d..%d sweeps per step, q = %.3g\n",
                   fr ? "held by friction" : "on its limit", warm ? "on" : "off", it_min, it_max,
                   sn_system_q(sc.s)[0]);
            SNT_CHECK(rows >= 200); // a row in (nearly) every step
            if (warm)
                SNT_CHECK(it_max == 1);
            else
                SNT_CHECK(it_min == 2);
            scene_close(&sc);
        }
    return 0;
}

// velocity limits: a joint whose entry of u* exceeds its velocity limit gets an impulse that
// caps it, unless a position-limit impulse acts on the joint; both switch off with
// sn_system_set_joint_limits_enabled(s, 0)
static int test_velocity_limits(void) {
    const char* lim = "<limit lower=\"-100\" upper=\"100\" effort=\"1000\" velocity=\"2\"/>";
    // about the vertical: no gravity torque; tau = 5.1 N m accelerates at 10 rad/s^2
    scene sc;
    SNT_CHECK(joint_open(&sc, joint_xml("revolute", "0 0 1", "0.5 0 0", lim, 0), 0, 0) == 0);
    double tau = 5.1, umax = 0;
    SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, &tau, 1));
    for (int k = 0; k < 500; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        umax = fmax(umax, sn_system_u(sc.s)[0]);
    }
    double u_cap = sn_system_u(sc.s)[0];
    tau = -5.1;
    SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, &tau, 1));
    double umin = 0;
    for (int k = 0; k < 1000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        umin = fmin(umin, sn_system_u(sc.s)[0]);
    }
    double u_neg = sn_system_u(sc.s)[0];
    printf("  capped at %.17g rad/s (max %.17g), reversed: %.17g (min %.17g); limit 2\n", u_cap,
           umax, u_neg, umin);
    SNT_CHECK(umax <= 2 + 1e-12 && fabs(u_cap - 2) < 1e-12);
    SNT_CHECK(umin >= -2 - 1e-12 && fabs(u_neg + 2) < 1e-12);
    // outside its position range (q = -100.001) and moving back in at 5 rad/s: the position
    // limit acts (with no impulse: u* is above its target), so the velocity limit does not
    double q0 = -100.001, u0 = 5;
    tau = 0;
    SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, &tau, 1));
    SNT_STATUS_OK(sn_system_set_state(sc.s, &q0, 1, &u0, 1));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    double u_out = sn_system_u(sc.s)[0];
    SNT_STATUS_OK(sn_world_integrate(sc.w)); // inside the range now: capped
    double u_in = sn_system_u(sc.s)[0];
    printf("  outside the range at 5 rad/s: u = %.17g (not capped); back inside: %.17g\n", u_out,
           u_in);
    SNT_CHECK(u_out == 5);
    SNT_CHECK(fabs(u_in - 2) < 1e-12);
    // limits off: no cap, and the position limit is passed
    sn_system_set_joint_limits_enabled(sc.s, 0);
    q0 = 99, u0 = 0;
    tau = 5.1;
    SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, &tau, 1));
    SNT_STATUS_OK(sn_system_set_state(sc.s, &q0, 1, &u0, 1));
    for (int k = 0; k < 1000; k++)
        SNT_STATUS_OK(sn_world_integrate(sc.w));
    printf("  limits off: u = %.6f rad/s, q = %.6f after 1 s at 10 rad/s^2 from 99\n",
           sn_system_u(sc.s)[0], sn_system_q(sc.s)[0]);
    SNT_NEAR(sn_system_u(sc.s)[0], 10, 1e-9);
    SNT_CHECK(sn_system_q(sc.s)[0] > 100);
    scene_close(&sc);
    // the gravity-driven arm of test_joint_limit_gravity_no_bounce passes its limit when off
    SNT_CHECK(joint_open(&sc,
                         joint_xml("revolute", "0 1 0", "-0.5 0 0",
                                   "<limit lower=\"-0.5\" upper=\"0.5\" effort=\"100\" "
                                   "velocity=\"100\"/>",
                                   0),
                         0, 0) == 0);
    sn_system_set_joint_limits_enabled(sc.s, 0);
    double qmin = 0;
    for (int k = 0; k < 1000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        qmin = fmin(qmin, sn_system_q(sc.s)[0]);
    }
    printf("  arm with limits off swings to %.4f rad (limit -0.5)\n", qmin);
    SNT_CHECK(qmin < -1);
    scene_close(&sc);
    return 0;
}

// ---- ANYmal C standing ----

typedef struct stand_result {
    double slip[4];        // horizontal motion of each foot's contact point from 1 s to 10 s (m)
    double z_lo, z_hi;     // base height range from 1 s on
    double z0, z_end;      // initial and final base height
    double settle_slip[4]; // horizontal motion of each foot from 0 to 1 s
    int it_max, ncontact_min, ncontact_max, sliding;
    double it_mean;
} stand_result;

// ANYmal C (floating base) in the standing pose of the RaiSim examples (HAA +-0.03, HFE +-0.4,
// KFE -+0.8), the base lowered until the lowest foot sphere touches the ground, under PD with
// the pose as target for 10 s. The contact point of a foot is below its sphere's centre.
static int anymal_stand(const sn_model* m, double dt, double kp, double kd, stand_result* r) {
    memset(r, 0, sizeof *r);
    int fg[4], nf = 0;
    for (int g = 0; g < m->ngeom && nf < 4; g++)
        if (!m->geom_is_visual[g] && m->geom_type[g] == SN_GEOM_SPHERE) fg[nf++] = g;
    SNT_CHECK(nf == 4 && m->nq == 19 && m->nv == 18);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double q[19] = {0, 0, 0, 1, 0, 0, 0}, u[18] = {0}, kpv[18] = {0}, kdv[18] = {0};
    for (int i = 0; i < 12; i++) {
        int leg = i / 3, hind = leg >= 2, right = leg % 2;
        q[7 + i] = i % 3 == 0   ? (right ? -0.03 : 0.03)
                   : i % 3 == 1 ? (hind ? -0.4 : 0.4)
                                : (hind ? 0.8 : -0.8);
        kpv[6 + i] = kp, kdv[6 + i] = kd;
    }
    sn_data* d = sn_system_data(s);
    double fp[4][3], f1[4][3], f0[4][3];
    // the feet's sphere centres at the current state
#define FEET()                                                                                     \
    do {                                                                                           \
        sn_fk(m, d);                                                                               \
        for (int f = 0; f < 4; f++) {                                                              \
            int g_ = fg[f];                                                                        \
            double p_[3], R_[9];                                                                   \
            sn_frame_pose(m, d, m->geom_frame[g_], p_, R_);                                        \
            for (int a_ = 0; a_ < 3; a_++)                                                         \
                fp[f][a_] = p_[a_] + R_[3 * a_] * m->geom_pos[3 * g_] +                            \
                            R_[3 * a_ + 1] * m->geom_pos[3 * g_ + 1] +                             \
                            R_[3 * a_ + 2] * m->geom_pos[3 * g_ + 2];                              \
        }                                                                                          \
    } while (0)
    SNT_STATUS_OK(sn_system_set_state(s, q, 19, u, 18));
    FEET();
    double zmin = INFINITY;
    for (int f = 0; f < 4; f++)
        zmin = fmin(zmin, fp[f][2] - m->geom_size[3 * fg[f]]);
    q[2] = -zmin;
    r->z0 = q[2];
    SNT_STATUS_OK(sn_system_set_state(s, q, 19, u, 18));
    SNT_STATUS_OK(sn_system_set_pd_gains(s, kpv, kdv, 18));
    SNT_STATUS_OK(sn_system_set_pd_target(s, q, 19, u, 18));
    FEET();
    memcpy(f0, fp, sizeof fp);
    int n = (int)lround(10 / dt), n1 = (int)lround(1 / dt);
    r->z_lo = INFINITY, r->z_hi = -INFINITY, r->ncontact_min = 1000;
    long it_sum = 0;
    for (int k = 1; k <= n; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        FEET();
        int it = sn_system_solver_iterations(s), nc = sn_system_contact_count(s);
        it_sum += it;
        if (it > r->it_max) r->it_max = it;
        if (k == n1) memcpy(f1, fp, sizeof fp);
        for (int f = 0; f < 4; f++) {
            if (k <= n1)
                r->settle_slip[f] =
                    fmax(r->settle_slip[f], hypot(fp[f][0] - f0[f][0], fp[f][1] - f0[f][1]));
            else
                r->slip[f] = fmax(r->slip[f], hypot(fp[f][0] - f1[f][0], fp[f][1] - f1[f][1]));
        }
        if (k < n1) continue;
        double z = sn_system_q(s)[2];
        r->z_lo = fmin(r->z_lo, z), r->z_hi = fmax(r->z_hi, z);
        if (nc < r->ncontact_min) r->ncontact_min = nc;
        if (nc > r->ncontact_max) r->ncontact_max = nc;
        for (int i = 0; i < nc; i++) {
            sn_contact c;
            SNT_STATUS_OK(sn_system_contact(s, i, &c));
            SNT_CHECK(c.geom == fg[0] || c.geom == fg[1] || c.geom == fg[2] || c.geom == fg[3]);
            r->sliding += c.sliding;
        }
    }
#undef FEET
    r->it_mean = (double)it_sum / n;
    r->z_end = sn_system_q(s)[2];
    sn_world_destroy(w);
    return 0;
}

static sn_model* load_anymal(int* skip) {
    *skip = 0;
    const char* path = tc_model_path("raisim_anymal_c/urdf/anymal.urdf");
    if (!path) {
        printf("  shared/models is absent: skipped\n");
        *skip = 1;
        return NULL;
    }
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.balance_inertia = 1;
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf(path, &o, &m, &err) != SN_OK) {
        printf("  FAIL %s: %s\n", path, err.msg); // the caller fails on NULL without a skip
        return NULL;
    }
    return m;
}

// the test: ANYmal C standing under PD for 10 s at dt = 1 ms and 5 ms: feet slip less
// than 1 mm, base height steady
static int test_anymal_stands(void) {
    int skip;
    sn_model* m = load_anymal(&skip);
    if (skip) return SNT_SKIP;
    SNT_CHECK(m);
    const double dts[2] = {0.001, 0.005};
    for (int c = 0; c < 2; c++) {
        stand_result r;
        SNT_CHECK(anymal_stand(m, dts[c], 500, 15, &r) == 0);
        double slip = fmax(fmax(r.slip[0], r.slip[1]), fmax(r.slip[2], r.slip[3]));
        double slip0 = fmax(fmax(r.settle_slip[0], r.settle_slip[1]),
                            fmax(r.settle_slip[2], r.settle_slip[3]));
        printf("  dt = %g ms, kp 500, kd 15: feet slip 1-10 s %.2e %.2e %.2e %.2e mm (%.3f mm "
               "while settling 0-1 s); base height %.6f -> %.6f m, range 1-10 s %.2e mm; %d-%d "
               "contacts, %d sliding; solver iterations mean %.1f, max %d\n",
               dts[c] * 1e3, r.slip[0] * 1e3, r.slip[1] * 1e3, r.slip[2] * 1e3, r.slip[3] * 1e3,
               slip0 * 1e3, r.z0, r.z_end, (r.z_hi - r.z_lo) * 1e3, r.ncontact_min, r.ncontact_max,
               r.sliding, r.it_mean, r.it_max);
        // the issue asked for < 1 mm; docs/contact.md: 7.0e-4 mm (6.9e-4 at 5 ms), 0.47 mm while
        // settling, base 0.542673 -> 0.538067 m, range 1.7e-5 mm, 1.3 (max 5) and 1.6 (max 6)
        // sweeps per step; asserted: 1e-3 mm, 0.6 mm, 1e-5 m, 1e-4 mm, 2 (max 8)
        SNT_CHECK(slip < 1e-6);
        SNT_CHECK(slip0 < 6e-4);
        SNT_CHECK(r.z_hi - r.z_lo < 1e-7);
        SNT_NEAR(r.z0, 0.542673, 1e-6);
        SNT_NEAR(r.z_end, 0.538067, 1e-5); // sags under PD, does not sink or fall
        SNT_CHECK(r.it_mean < 2 && r.it_max <= 8);
        SNT_CHECK(r.ncontact_min == 4 && r.ncontact_max == 4 && r.sliding == 0);
    }
    sn_model_destroy(m);
    return 0;
}

// ---- energy across impacts ----

// 1 kg bodies: a 0.3 x 0.2 x 0.1 m box, a capsule (radius 0.05 m, 0.3 m between the centres of
// its end spheres) and a cylinder (radius 0.08 m, length 0.2 m), inertias of solid bodies
static const char* brick_urdf =
    "<robot name=\"brick\"><link name=\"b\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.0041667\" ixy=\"0\" ixz=\"0\" iyy=\"0.0083333\" iyz=\"0\" "
    "izz=\"0.0108333\"/></inertial><collision><geometry><box size=\"0.3 0.2 0.1\"/>"
    "</geometry></collision></link></robot>";
static const char* capsule_urdf =
    "<robot name=\"capsule\"><link name=\"c\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.0105\" ixy=\"0\" ixz=\"0\" iyy=\"0.0105\" iyz=\"0\" izz=\"0.00125\"/>"
    "</inertial><collision><geometry><capsule radius=\"0.05\" length=\"0.3\"/></geometry>"
    "</collision></link></robot>";
static const char* cylinder_urdf =
    "<robot name=\"cylinder\"><link name=\"c\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.004933\" ixy=\"0\" ixz=\"0\" iyy=\"0.004933\" iyz=\"0\" izz=\"0.0032\"/>"
    "</inertial><collision><geometry><cylinder radius=\"0.08\" length=\"0.2\"/></geometry>"
    "</collision></link></robot>";

static void random_quat(double* q) {
    double n = 0;
    do {
        n = 0;
        for (int i = 0; i < 4; i++) {
            q[i] = tc_uniform(-1, 1);
            n += q[i] * q[i];
        }
    } while (n > 1 || n < 1e-3);
    for (int i = 0; i < 4; i++)
        q[i] /= sqrt(n);
}

typedef struct energy_stats {
    long impulse_steps; // steps in which a contact carried an impulse
    double worst_total; // largest E+ - max(E, E_free) over those steps
    double worst_ke;    // largest KE(q, u+) - KE(q, u*) over all steps
    int bad_total, bad_ke, rests;
    double worst_depth; // deepest contact seen
} energy_stats;

// One drop of a free body (q: 7, u: 6) for 2 s. Each step is repeated from the same state in a
// world without ground: its velocity is u*, the step's velocity without impulses, and E_free
// its energy after the step. Two measures: the impulses' work, KE(q, u+) - KE(q, u*) at the
// step's configuration (an inelastic impulse never makes it positive), and the total energy
// after a step with an impulse against max(E before, E_free) (the semi-implicit step of a body
// tumbling in free flight may itself gain a little; contacts must not add to it).
static int energy_drop(const char* urdf, double dt, double mu, double erp, const double* q0,
                       const double* u0, energy_stats* st) {
    scene sc, fr;
    SNT_CHECK(scene_open(&sc, urdf, dt) == 0);
    SNT_CHECK(scene_open(&fr, urdf, dt) == 0);
    SNT_STATUS_OK(sn_world_set_ground(fr.w, 0, 0));
    SNT_STATUS_OK(sn_world_set_material(sc.w, mu, 0, 0));
    SNT_STATUS_OK(sn_world_set_erp(sc.w, erp));
    SNT_STATUS_OK(sn_system_set_state(sc.s, q0, 7, u0, 6));
    int n = (int)lround(2.0 / dt);
    double e = total_energy(sc.s);
    for (int k = 0; k < n; k++) {
        double q[7], u[6], us[6];
        memcpy(q, sn_system_q(sc.s), sizeof q);
        memcpy(u, sn_system_u(sc.s), sizeof u);
        SNT_STATUS_OK(sn_system_set_state(fr.s, q, 7, u, 6));
        SNT_STATUS_OK(sn_world_integrate(fr.w));
        double e_free = total_energy(fr.s);
        memcpy(us, sn_system_u(fr.s), sizeof us);
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double e1 = total_energy(sc.s);
        int imp = 0;
        for (int i = 0; i < sn_system_contact_count(sc.s); i++) {
            sn_contact c;
            SNT_STATUS_OK(sn_system_contact(sc.s, i, &c));
            imp |= c.impulse[0] != 0 || c.impulse[1] != 0 || c.impulse[2] != 0;
            st->worst_depth = fmax(st->worst_depth, c.depth);
        }
        SNT_STATUS_OK(sn_system_set_state(fr.s, q, 7, us, 6));
        double ke_free = sn_system_kinetic_energy(fr.s);
        SNT_STATUS_OK(sn_system_set_state(fr.s, q, 7, sn_system_u(sc.s), 6));
        double dke = sn_system_kinetic_energy(fr.s) - ke_free;
        st->worst_ke = fmax(st->worst_ke, dke);
        st->bad_ke += dke > 1e-13; // docs/contact.md: at most 6e-15 J
        if (imp) {
            double de = e1 - fmax(e, e_free);
            st->impulse_steps++;
            st->worst_total = fmax(st->worst_total, de);
            st->bad_total += de > 1e-9;
        }
        e = e1;
    }
    st->rests += sn_system_kinetic_energy(sc.s) < 1e-6;
    scene_close(&sc);
    scene_close(&fr);
    return 0;
}

// random drops (orientation, height, linear and angular velocity, friction 0.8 or 0.3; five at
// dt = 1 ms, one at 5 ms) of a cube, a box, a capsule and a cylinder; returns the failures
static int energy_drops(double erp, int* failures) {
    const char* urdf[4] = {box_urdf, brick_urdf, capsule_urdf, cylinder_urdf};
    const char* name[4] = {"cube", "box", "capsule", "cylinder"};
    tc_seed(2024);
    *failures = 0;
    for (int b = 0; b < 4; b++) {
        energy_stats st;
        memset(&st, 0, sizeof st);
        st.worst_total = st.worst_ke = -INFINITY;
        for (int drop = 0; drop < 6; drop++) {
            double q[7] = {tc_uniform(-0.2, 0.2), tc_uniform(-0.2, 0.2), tc_uniform(0.3, 1)};
            random_quat(q + 3);
            double u[6] = {tc_uniform(-2, 2), tc_uniform(-2, 2), tc_uniform(-4, 1),
                           tc_uniform(-8, 8), tc_uniform(-8, 8), tc_uniform(-8, 8)};
            SNT_CHECK(energy_drop(urdf[b], drop == 5 ? 0.005 : 0.001, drop % 2 ? 0.3 : 0.8, erp, q,
                                  u, &st) == 0);
        }
        printf("  erp %.1f, %s: %ld steps with impulses; impulse work at most %+.2e J (%d steps "
               "> 1e-13 J); energy after a step at most %+.2e J above max(before, free flight) "
               "(%d steps > 1e-9 J); deepest contact %.2e m; %d of 6 at rest after 2 s\n",
               erp, name[b], st.impulse_steps, st.worst_ke, st.bad_ke, st.worst_total, st.bad_total,
               st.worst_depth, st.rests);
        *failures += st.bad_ke + st.bad_total;
    }
    return 0;
}


static int energy_drops_work_only(double erp, int* failures) {
    const char* urdf[4] = {box_urdf, brick_urdf, capsule_urdf, cylinder_urdf};
    const char* name[4] = {"cube", "box", "capsule", "cylinder"};
    tc_seed(2024);
    *failures = 0;
    for (int b = 0; b < 4; b++) {
        energy_stats st;
        memset(&st, 0, sizeof st);
        st.worst_total = st.worst_ke = -INFINITY;
        for (int drop = 0; drop < 6; drop++) {
            double q[7] = {tc_uniform(-0.2, 0.2), tc_uniform(-0.2, 0.2), tc_uniform(0.3, 1)};
            random_quat(q + 3);
            double u[6] = {tc_uniform(-2, 2), tc_uniform(-2, 2), tc_uniform(-4, 1),
                           tc_uniform(-8, 8), tc_uniform(-8, 8), tc_uniform(-8, 8)};
            SNT_CHECK(energy_drop(urdf[b], drop == 5 ? 0.005 : 0.001, drop % 2 ? 0.3 : 0.8, erp, q,
                                  u, &st) == 0);
        }
        printf("  erp %.1f, %s: %ld steps with impulses; impulse work at most %+.2e J (%d steps "
               "> 1e-13 J); energy after a step at most %+.2e J above max(before, free flight) "
               "(%d steps > 1e-9 J); deepest contact %.2e m; %d of 6 at rest after 2 s\n",
               erp, name[b], st.impulse_steps, st.worst_ke, st.bad_ke, st.worst_total, st.bad_total,
               st.worst_depth, st.rests);
        *failures += st.bad_ke;
    }
    return 0;
}

// Impacts without restitution never add energy: with erp = 0 no impulse does positive work and
// no step with an impulse ends with more energy than the step without contacts would have
static int test_impacts_never_add_energy(void) {
    int failures;
    SNT_CHECK(energy_drops(0, &failures) == 0);
    SNT_CHECK(failures == 0);
    return 0;
}

// The same drops with the default erp 0.2: no impulse does positive work (the issue: impacts
// without restitution never add kinetic energy). The penetration a fast landing leaves (a point
// reaching the ground faster than margin / dt = 1 m/s) is removed through the positions only
// (the split impulse of solver.c), which raises the potential energy by at most m g times the
// removed depth; energy_drops counts those steps, so only the impulse work is asserted here.
static int test_impacts_never_add_energy_default_erp(void) {
    int failures;
    SNT_CHECK(energy_drops_work_only(0.2, &failures) == 0);
    SNT_CHECK_MSG(failures == 0, "%d steps where impulses did positive work with erp = 0.2",
                  failures);
    return 0;
}

// ---- determinism ----

// a scene with everything the solver does: a tumbling box and capsule dropped on the ground,
// an arm with friction falling onto its joint limit, and ANYmal C (if present) dropped onto its
// feet under PD
typedef struct det_scene {
    sn_model* m[4];
    sn_system* s[4];
    sn_world* w;
    int n;
} det_scene;

static int det_open(det_scene* ds, sn_model* anymal, int warm) {
    memset(ds, 0, sizeof *ds);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.002;
    SNT_STATUS_OK(sn_world_create(&o, &ds->w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(ds->w, 1, 0));
    SNT_STATUS_OK(sn_world_set_material(ds->w, 0.6, 0.3, 0.5));
    sn_world_set_warm_start(ds->w, warm);
    char* arm = joint_xml("revolute", "0 1 0", "-0.5 0 0",
                          "<limit lower=\"-0.5\" upper=\"0.5\" effort=\"100\" velocity=\"3\"/>", 2);
    ds->m[0] = tc_load_string(brick_urdf, 0);
    ds->m[1] = tc_load_string(capsule_urdf, 0);
    ds->m[2] = tc_load_string(arm, 0);
    free(arm);
    ds->m[3] = anymal;
    ds->n = anymal ? 4 : 3;
    for (int i = 0; i < ds->n; i++) {
        SNT_CHECK(ds->m[i]);
        SNT_STATUS_OK(sn_world_add_system(ds->w, ds->m[i], &ds->s[i], NULL));
    }
    double qb[7] = {0, 0, 0.4, 0.9, 0.3, 0.2, 0.1}, ub[6] = {1, 0, -2, 3, -1, 2};
    double qc[7] = {0, 1.5, 0.3, 0.8, -0.2, 0.5, 0.1}, uc[6] = {-0.5, 0.3, -1, 0, 5, 1};
    double s = 1 / sqrt(0.95), s2 = 1 / sqrt(0.94);
    for (int i = 3; i < 7; i++)
        qb[i] *= s, qc[i] *= s2;
    SNT_STATUS_OK(sn_system_set_state(ds->s[0], qb, 7, ub, 6));
    SNT_STATUS_OK(sn_system_set_state(ds->s[1], qc, 7, uc, 6));
    if (anymal) {
        double q[19] = {4, 0, 0.6, 1, 0, 0, 0}, u[18] = {0.2}, kp[18] = {0}, kd[18] = {0};
        for (int i = 0; i < 12; i++) {
            int leg = i / 3, hind = leg >= 2;
            q[7 + i] = i % 3 == 0 ? 0.03 : i % 3 == 1 ? (hind ? -0.4 : 0.4) : (hind ? 0.8 : -0.8);
            kp[6 + i] = 500, kd[6 + i] = 15;
        }
        SNT_STATUS_OK(sn_system_set_state(ds->s[3], q, 19, u, 18));
        SNT_STATUS_OK(sn_system_set_pd_gains(ds->s[3], kp, kd, 18));
        SNT_STATUS_OK(sn_system_set_pd_target(ds->s[3], q, 19, u, 18));
    }
    return 0;
}

static void det_close(det_scene* ds) {
    sn_world_destroy(ds->w);
    for (int i = 0; i < 3; i++)
        sn_model_destroy(ds->m[i]);
}

// the state of every system, q then u, into buf (at most cap doubles); returns the count
static int det_state(det_scene* ds, double* buf) {
    int k = 0;
    for (int i = 0; i < ds->n; i++) {
        const sn_model* m = sn_system_model(ds->s[i]);
        memcpy(buf + k, sn_system_q(ds->s[i]), (size_t)m->nq * sizeof(double));
        k += m->nq;
        memcpy(buf + k, sn_system_u(ds->s[i]), (size_t)m->nv * sizeof(double));
        k += m->nv;
    }
    return k;
}

static int det_set(det_scene* ds, const double* buf) {
    int k = 0;
    for (int i = 0; i < ds->n; i++) {
        const sn_model* m = sn_system_model(ds->s[i]);
        SNT_STATUS_OK(sn_system_set_state(ds->s[i], buf + k, m->nq, buf + k + m->nq, m->nv));
        k += m->nq + m->nv;
    }
    return 0;
}

static int det_run(det_scene* ds, int n, int* contacts) {
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(ds->w));
        for (int i = 0; i < ds->n; i++)
            *contacts += sn_system_contact_count(ds->s[i]);
    }
    return 0;
}

// one run of the scene: 300 steps, the state saved, 300 more; then the saved state set again
// (in place) and 300 steps. out: the state at 600 steps, the saved state, the state after the
// resumption in place
static int det_case(sn_model* anymal, int warm, double* end, double* mid, double* again, int* n,
                    int* contacts) {
    det_scene ds;
    SNT_CHECK(det_open(&ds, anymal, warm) == 0);
    SNT_CHECK(det_run(&ds, 300, contacts) == 0);
    *n = det_state(&ds, mid);
    SNT_CHECK(det_run(&ds, 300, contacts) == 0);
    det_state(&ds, end);
    SNT_CHECK(det_set(&ds, mid) == 0);
    SNT_CHECK(det_run(&ds, 300, contacts) == 0);
    det_state(&ds, again);
    det_close(&ds);
    return 0;
}

// a fresh world of the scene set to a saved state and run for 300 steps
static int det_resume(sn_model* anymal, int warm, const double* mid, double* out, int* contacts) {
    det_scene ds;
    SNT_CHECK(det_open(&ds, anymal, warm) == 0);
    SNT_CHECK(det_set(&ds, mid) == 0);
    SNT_CHECK(det_run(&ds, 300, contacts) == 0);
    det_state(&ds, out);
    det_close(&ds);
    return 0;
}

// The same scene run twice gives bit-identical states. Saving the state and resuming from it
// (in the same world or a fresh one) continues bit-identically when the warm start is off; with
// it on (the default) the solver also depends on the last step's impulses, which a saved state
// does not hold (sn_world_set_warm_start), and the resumed run differs in the last bits.
static int test_deterministic_and_resumable(void) {
    int skip;
    sn_model* anymal = load_anymal(&skip);
    SNT_CHECK(anymal || skip); // present but not loaded: a failure
    enum { CAP = 256 };
    static double mid[CAP], end1[CAP], end2[CAP], again[CAP], fresh[CAP], wmid[CAP], wend[CAP],
        wagain[CAP], wfresh[CAP];
    int n = 0, contacts = 0;
    // warm start on: twice; off: resumed in place and in a fresh world
    SNT_CHECK(det_case(anymal, 1, wend, wmid, wagain, &n, &contacts) == 0);
    SNT_CHECK(det_case(anymal, 1, end2, mid, again, &n, &contacts) == 0);
    SNT_CHECK(n <= CAP && contacts > 0);
    size_t bytes = (size_t)n * sizeof(double);
    int twice = memcmp(wend, end2, bytes) == 0 && memcmp(wmid, mid, bytes) == 0;
    SNT_CHECK(det_resume(anymal, 1, wmid, wfresh, &contacts) == 0);
    double warm_diff = fmax(tc_rel_err(wend, wagain, n, 1), tc_rel_err(wend, wfresh, n, 1));
    SNT_CHECK(det_case(anymal, 0, end1, mid, again, &n, &contacts) == 0);
    SNT_CHECK(det_resume(anymal, 0, mid, fresh, &contacts) == 0);
    int in_place = memcmp(end1, again, bytes) == 0, in_fresh = memcmp(end1, fresh, bytes) == 0;
    printf("  %d systems (%d state entries), %d contacts over the runs: run twice %s; warm start "
           "off: resumed in place %s, in a fresh world %s; warm start on: resumed runs differ "
           "by %.1e\n",
           anymal ? 4 : 3, n, contacts, twice ? "identical" : "DIFFERENT",
           in_place ? "identical" : "DIFFERENT", in_fresh ? "identical" : "DIFFERENT", warm_diff);
    sn_model_destroy(anymal);
    SNT_CHECK(twice);
    SNT_CHECK(in_place && in_fresh);
    // docs/contact.md: with the warm start on a resumed run differs, by 2.3e-4 (relative, after
    // 300 steps); a bound, not a promise of difference
    SNT_CHECK(warm_diff < 1e-3);
    return skip ? SNT_SKIP : 0; // without ../shared ANYmal's part did not run
}

// ---- no allocation ----

typedef struct counter {
    long calls;
} counter;
static void* count_alloc(size_t size, size_t align, void* ctx) {
    ((counter*)ctx)->calls++;
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void count_free(void* p, size_t size, void* ctx) {
    (void)size, (void)ctx;
    free(p);
}

// no heap allocation in a step with contacts, limits and friction rows, nor in the contact
// getters
static int test_no_heap_with_contacts(void) {
    tc_heap_install();
    long before = tc_heap_calls();
    void* volatile probe = malloc(64); // the counter sees a deliberate allocation
    free(probe);
    SNT_CHECK(tc_heap_calls() > before);
    int skip;
    sn_model* anymal = load_anymal(&skip);
    SNT_CHECK(anymal || skip); // present but not loaded: a failure
    sn_model* ms[5] = {tc_load_string(box_urdf, 0), tc_load_string(capsule_urdf, 0),
                       tc_load_string(cylinder_urdf, 0), NULL, anymal};
    char* arm = joint_xml("revolute", "0 1 0", "-0.5 0 0",
                          "<limit lower=\"-0.5\" upper=\"0.5\" effort=\"100\" velocity=\"1\"/>", 2);
    ms[3] = tc_load_string(arm, 0);
    free(arm);
    counter c = {0};
    sn_allocator al = {count_alloc, count_free, &c};
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    sn_world* w;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    SNT_STATUS_OK(sn_world_set_material(w, 0.7, 0.4, 0.1));
    sn_system* s[5];
    int ns = anymal ? 5 : 4;
    for (int i = 0; i < ns; i++) {
        SNT_CHECK(ms[i]);
        SNT_STATUS_OK(sn_world_add_system(w, ms[i], &s[i], NULL));
        if (ms[i]->is_floating) {
            double q[19] = {1.5 * i, 0, 0.15, 0.9, 0.3, 0.2, 0.1}, u[18] = {0, 0, -1, 2, 1, 0};
            if (i == 4) {
                q[0] = 8, q[2] = 0.6, q[3] = 1, q[4] = q[5] = q[6] = 0, u[2] = 0;
                for (int j = 0; j < 12; j++)
                    q[7 + j] = j % 3 == 0   ? 0
                               : j % 3 == 1 ? (j >= 6 ? -0.4 : 0.4)
                                            : (j >= 6 ? 0.8 : -0.8);
            }
            double nq = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
            for (int k = 3; k < 7; k++)
                q[k] /= nq;
            SNT_STATUS_OK(sn_system_set_state(s[i], q, ms[i]->nq, u, ms[i]->nv));
        }
    }
    sn_system_set_compute_inverse_dynamics(s[0], 1);
    tc_heap_install();
    long h0 = tc_heap_calls(), l0 = c.calls;
    int contacts = 0, iters = 0;
    for (int k = 0; k < 600; k++) {
        if (k % 2) {
            SNT_STATUS_OK(sn_world_integrate(w));
        } else {
            SNT_STATUS_OK(sn_world_integrate1(w));
            SNT_STATUS_OK(sn_world_integrate2(w));
        }
        for (int i = 0; i < ns; i++) {
            for (int j = 0; j < sn_system_contact_count(s[i]); j++) {
                sn_contact ct;
                SNT_STATUS_OK(sn_system_contact(s[i], j, &ct));
                contacts++;
            }
            iters += sn_system_solver_iterations(s[i]);
        }
    }
    long calls = tc_heap_calls() - h0, lib = c.calls - l0;
    printf("  %d systems, 600 steps, %d contacts, %d solver iterations: %ld heap calls, %ld "
           "allocator calls\n",
           ns, contacts, iters, calls, lib);
    SNT_CHECK(contacts > 0 && iters > 0);
    SNT_CHECK(calls == 0 && lib == 0);
    sn_world_destroy(w);
    for (int i = 0; i < 5; i++)
        sn_model_destroy(ms[i]);
    return skip ? SNT_SKIP : 0; // without ../shared ANYmal's part did not run
}

// ---- C6: tunnelling, speculative contacts and the erp push-out ----

// a 0.1 kg sphere of radius 0.02 m
static const char* pellet_urdf =
    "<robot name=\"pellet\"><link name=\"p\"><inertial><mass value=\"0.1\"/>"
    "<inertia ixx=\"1.6e-5\" ixy=\"0\" ixz=\"0\" iyy=\"1.6e-5\" iyz=\"0\" izz=\"1.6e-5\"/>"
    "</inertial><collision><geometry><sphere radius=\"0.02\"/></geometry></collision></link>"
    "</robot>";

// C6 pinned. The ground is a half-space, so nothing passes through it: a body is seen at the
// step after it entered, however deep. A contact is reported once the gap is below the 1 mm
// margin, so a body approaching at |v| dt < margin is stopped exactly at the surface (a
// speculative contact); a faster one can end a step up to |v| dt - margin deep. The step that
// sees it targets the normal velocity erp depth / dt: the body is pushed out and leaves with
// that velocity (the restitution is 0, but the push-out is kept). At 100 m/s, dt = 1 ms, the
// pellet travels 10 cm per step: 5 cm deep, it leaves at 10 m/s. Thin bodies (the 5 mm plate
// of C6) do not exist yet: objects with |v| dt > thickness may tunnel through them.
static int test_tunnelling_c6_pinned(void) {
    const double dt = 0.001, r = 0.02, erp = 0.2;
    for (int c = 0; c < 2; c++) {
        scene sc;
        SNT_CHECK(scene_open(&sc, pellet_urdf, dt) == 0);
        if (c) SNT_STATUS_OK(sn_world_set_erp(sc.w, 0));
        // 5 cm above the ground at 100 m/s
        double q[7] = {0, 0, r + 0.05, 1, 0, 0, 0}, u[6] = {0, 0, -100, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
        SNT_STATUS_OK(sn_world_integrate(sc.w)); // unseen: 5 cm > the margin
        SNT_CHECK(sn_system_contact_count(sc.s) == 0);
        double depth = r - sn_system_q(sc.s)[2];
        SNT_STATUS_OK(sn_world_integrate(sc.w)); // seen 5 cm deep
        SNT_CHECK(sn_system_contact_count(sc.s) == 1);
        sn_contact ct;
        SNT_STATUS_OK(sn_system_contact(sc.s, 0, &ct));
        double v = sn_system_u(sc.s)[2], zmin = INFINITY, zmax = -INFINITY;
        for (int k = 0; k < 2000; k++) {
            SNT_STATUS_OK(sn_world_integrate(sc.w));
            double z = sn_system_q(sc.s)[2];
            zmin = fmin(zmin, z), zmax = fmax(zmax, z);
        }
        if (!c) {
            printf("  100 m/s, dt 1 ms: after one step %.4f m deep (unseen); the next step sees "
                   "depth %.4f m and stops it (u %.3g m/s); erp %.1f removes the depth through "
                   "the positions: %.2e m from the surface after 2 s, never above it (%.1e)\n",
                   depth, ct.depth, v, erp, sn_system_q(sc.s)[2] - r, zmax - r);
            SNT_NEAR(depth, 0.05 + 0.001 * 9.81 * 0.001, 1e-9);
            SNT_NEAR(ct.depth, depth, 1e-12);
            SNT_NEAR(v, 0, 1e-9);       // no push-out velocity: no flight
            SNT_CHECK(zmax - r < 1e-9); // it never leaves the surface
            SNT_CHECK(fabs(sn_system_q(sc.s)[2] - r) < 1e-6);
        } else {
            printf("  erp = 0: stopped %.4f m deep (u %.3g m/s) and stays there: z %.6f..%.6f m\n",
                   depth, v, zmin, zmax);
            SNT_NEAR(v, 0, 1e-12);
            SNT_CHECK(zmax - zmin < 1e-9 && fabs(zmin - (r - depth)) < 1e-9);
        }
        scene_close(&sc);
    }
    // slower than margin / dt = 1 m/s: the speculative contact stops the pellet at the surface
    for (int c = 0; c < 2; c++) {
        scene sc;
        SNT_CHECK(scene_open(&sc, pellet_urdf, dt) == 0);
        double v0 = c ? 0.9 : 0.3;
        double q[7] = {0, 0, r + 0.0123, 1, 0, 0, 0}, u[6] = {0, 0, -v0, 0, 0, 0};
        SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
        double zmin = INFINITY, zend;
        for (int k = 0; k < 500; k++) {
            SNT_STATUS_OK(sn_world_integrate(sc.w));
            zmin = fmin(zmin, sn_system_q(sc.s)[2]);
        }
        zend = sn_system_q(sc.s)[2];
        printf("  %.1f m/s: lowest gap %.2e m, at rest on the surface: gap %.2e m, u %.1e\n", v0,
               zmin - r, zend - r, sn_system_u(sc.s)[2]);
        SNT_CHECK(zmin - r > -1e-12 && fabs(zend - r) < 1e-12);
        SNT_CHECK(fabs(sn_system_u(sc.s)[2]) < 1e-12);
        scene_close(&sc);
    }
    // a ball of restitution 0 reaching the ground at 4.43 m/s (dropped from 1 m), 3 mm above
    // it at the start of a step: unseen (3 mm > the margin), it ends the step 1.43 mm deep, is
    // stopped there without a hop, and its depth is removed through the positions
    scene sc;
    SNT_CHECK(scene_open(&sc, ball_urdf, dt) == 0);
    double v0 = sqrt(2 * GRAV * 1.0), q[7] = {0, 0, 0.1 + 0.003, 1, 0, 0, 0},
           u[6] = {0, 0, -v0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 7, u, 6));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    SNT_CHECK(sn_system_contact_count(sc.s) == 0);
    double depth = 0.1 - sn_system_q(sc.s)[2];
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    double vout = sn_system_u(sc.s)[2], hop = 0, zend;
    for (int k = 0; k < 1000; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        hop = fmax(hop, sn_system_q(sc.s)[2] - 0.1);
    }
    zend = sn_system_q(sc.s)[2];
    printf("  ball, e = 0, at %.3f m/s from 3 mm: %.3e m deep, leaves at %.4f m/s, rises "
           "%.2e m above the surface, rests at gap %.1e m\n",
           v0, depth, vout, hop, zend - 0.1);
    SNT_NEAR(depth, v0 * dt + GRAV * dt * dt - 0.003, 1e-12);
    SNT_NEAR(vout, 0, 1e-9);
    SNT_CHECK(hop < 1e-9);
    SNT_CHECK(fabs(zend - 0.1) < 1e-6);
    scene_close(&sc);
    return 0;
}


SNT_SUITE(SNT_TEST(test_box_slides_to_a_stop), SNT_TEST(test_ball_bounces),
          SNT_TEST(test_inelastic_impact_and_rest), SNT_TEST(test_incline_c2),
          SNT_TEST(test_incline_c2_static), SNT_TEST(test_joint_friction_holds_and_slides),
          SNT_TEST(test_joint_friction_stops_a_moving_joint), SNT_TEST(test_output_friction_adds),
          SNT_TEST(test_continuous_joint_friction), SNT_TEST(test_joint_limit_rules),
          SNT_TEST(test_joint_limit_no_bounce), SNT_TEST(test_joint_rows_warm_start),
          SNT_TEST(test_velocity_limits), SNT_TEST(test_anymal_stands),
          SNT_TEST(test_impacts_never_add_energy),
          SNT_TEST(test_impacts_never_add_energy_default_erp),
          SNT_TEST(test_deterministic_and_resumable), SNT_TEST(test_no_heap_with_contacts),
          SNT_TEST(test_tunnelling_c6_pinned))
