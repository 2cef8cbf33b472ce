// SPDX-License-Identifier: Apache-2.0
// test_sensors.c: sensors (issue 16 item 1, docs/sensors.md) against analytic values: an IMU at
// rest reads +g up in its own frame, whatever way the frame is turned; an IMU in free fall reads
// nothing; an IMU on a body spinning about a vertical axis reads omega and the centripetal
// acceleration -omega^2 r (plus g up when the axis is held); a force/torque sensor under a hanging
// mass reads m g up and the moment of the weight about the sensor; joint sensors read the step's
// start state; the model file's sensors (MJCF <sensor>) reach the system; reads allocate nothing;
// bad arguments are refused with a message. Every test prints the numbers it measured. The
// comparison with MuJoCo 2.2.2 on the same MJCF file is in test_mujoco_oracle.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81
#define DT 1e-3

// a 2 kg bob on a revolute joint about y, its centre of mass 0.5 m below the pivot, and a 1 kg
// load welded under it (fixed joint "mount" 0.6 m below the pivot, the load's centre of mass
// 0.3 m along x and 0.1 m below the mount)
static const char* pendulum_urdf =
    "<robot name=\"p\"><link name=\"world\"/>"
    "<link name=\"bob\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"2\"/>"
    "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial>"
    "</link>"
    "<joint name=\"hinge\" type=\"continuous\"><parent link=\"world\"/><child link=\"bob\"/>"
    "<axis xyz=\"0 1 0\"/></joint>"
    "<link name=\"load\"><inertial><origin xyz=\"0.3 0 -0.1\"/><mass value=\"1\"/>"
    "<inertia ixx=\"0.002\" ixy=\"0\" ixz=\"0\" iyy=\"0.002\" iyz=\"0\" izz=\"0.002\"/>"
    "</inertial></link>"
    "<joint name=\"mount\" type=\"fixed\"><parent link=\"bob\"/><child link=\"load\"/>"
    "<origin xyz=\"0 0 -0.6\"/></joint></robot>";

// a disc spinning on a vertical revolute joint (z), its centre of mass on the axis
static const char* spinner_urdf =
    "<robot name=\"s\"><link name=\"world\"/>"
    "<link name=\"disc\"><inertial><mass value=\"3\"/>"
    "<inertia ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.05\" iyz=\"0\" izz=\"0.1\"/></inertial>"
    "</link>"
    "<joint name=\"spin\" type=\"continuous\"><parent link=\"world\"/><child link=\"disc\"/>"
    "<origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/></joint></robot>";

typedef struct scene {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} scene;

static int scene_open(scene* sc, const char* urdf) {
    memset(sc, 0, sizeof *sc);
    sc->m = tc_load_string(urdf, 0);
    SNT_CHECK(sc->m != NULL);
    SNT_STATUS_OK(tc_world_open(sc->m, DT, &sc->w, &sc->s));
    return 0;
}

static void scene_close(scene* sc) {
    sn_world_destroy(sc->w);
    sn_model_destroy(sc->m);
}

static sn_sensor_desc desc_of(int type, const char* name, int frame, int joint) {
    sn_sensor_desc d;
    memset(&d, 0, sizeof d);
    d.type = type, d.name = name, d.frame = frame, d.joint = joint;
    return d;
}

static double max_diff(const double* a, const double* b, int n) {
    double e = 0;
    for (int k = 0; k < n; k++)
        e = fmax(e, fabs(a[k] - b[k]));
    return e;
}


// An IMU at rest reads +g up, in its own frame: on the disc at rest (sensor frame = link frame),
// and turned 90 degrees about x (the world's up is then the sensor's -y) and placed off the link
// origin; angular velocity zero; the orientation its rotation. Also with gravity (1, -2, -3).
static int test_imu_at_rest_reads_g_up(void) {
    scene sc;
    if (scene_open(&sc, spinner_urdf)) return 1;
    int disc = sn_model_find(sc.m, SN_OBJ_FRAME, "disc");
    sn_sensor_desc a = desc_of(SN_SENSOR_IMU, "imu", disc, 0);
    sn_sensor_desc b = desc_of(SN_SENSOR_IMU, "turned", disc, 0);
    double h = sqrt(0.5);
    b.quat[0] = h, b.quat[1] = h; // 90 degrees about x: sensor y = world z
    b.pos[0] = 0.1, b.pos[2] = -0.2;
    int ia = -1, ib = -1;
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &a, &ia));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &b, &ib));
    SNT_CHECK(ia == 0 && ib == 1 && sn_system_sensor_value_count(sc.s) == 20);
    double va[10], vb[10];
    SNT_CHECK(sn_system_sensor_read(sc.s, 0, va, 10) == SN_ERR_ARG); // no step yet
    SNT_CHECK(sn_system_sensor_values(sc.s) == NULL);
    double err = 0;
    for (int k = 0; k < 100; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, ia, va, 10));
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, ib, vb, 10));
        const double want_a[10] = {0, 0, GRAV, 0, 0, 0, 1, 0, 0, 0};
        const double want_b[10] = {0, GRAV, 0, 0, 0, 0, h, h, 0, 0};
        err = fmax(err, fmax(max_diff(va, want_a, 10), max_diff(vb, want_b, 10)));
    }
    printf("  at rest, 100 steps: imu (%.17g, %.17g, %.17g), turned (%.17g, %.17g, %.17g); "
           "largest error %.3g\n",
           va[0], va[1], va[2], vb[0], vb[1], vb[2], err);
    SNT_CHECK(err < 5e-14); // docs/sensors.md: to 2e-15 (rounding; asserted below 5e-14)
    // the values in one array, sensor after sensor
    const double* all = sn_system_sensor_values(sc.s);
    SNT_CHECK(all && memcmp(all, va, sizeof va) == 0 && memcmp(all + 10, vb, sizeof vb) == 0);
    // another gravity: the reading is its opposite (on the world itself)
    double g[3] = {1, -2, -3};
    SNT_STATUS_OK(sn_world_set_gravity(sc.w, g));
    sn_sensor_desc c = desc_of(SN_SENSOR_ACCELEROMETER, "on_world", 0, 0);
    int ic = -1;
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &c, &ic));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    double vc[3];
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, ic, vc, 3));
    printf("  gravity (1, -2, -3): a sensor on the world reads (%.17g, %.17g, %.17g)\n", vc[0],
           vc[1], vc[2]);
    SNT_CHECK(fabs(vc[0] + 1) < 1e-15 && fabs(vc[1] - 2) < 1e-15 && fabs(vc[2] - 3) < 1e-15);
    scene_close(&sc);
    return 0;
}


// A free body in free fall reads no acceleration; spinning about its z axis at omega it reads
// omega (body axes) and, at r from its centre, the centripetal -omega^2 r toward the axis only
static int test_imu_free_fall_and_spin(void) {
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = DT;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    double size[3] = {0.2, 0.2, 0.2};
    SNT_STATUS_OK(sn_world_add_box(w, size, 2.0, &s));
    const double omega = 7.0, r = 0.25;
    sn_sensor_desc c = desc_of(SN_SENSOR_IMU, "centre", 0, 0);
    sn_sensor_desc e = desc_of(SN_SENSOR_IMU, "edge", 0, 0);
    e.pos[0] = r;
    SNT_STATUS_OK(sn_system_add_sensor(s, &c, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(s, &e, NULL));
    double u[6] = {0.3, 0, 1, 0, 0, omega}; // a throw, spinning about z (world = body z)
    SNT_STATUS_OK(sn_system_set_u(s, u, 6));
    double ec = 0, ee = 0, vc[10], ve[10];
    for (int k = 0; k < 200; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        SNT_STATUS_OK(sn_system_sensor_read(s, 0, vc, 10));
        SNT_STATUS_OK(sn_system_sensor_read(s, 1, ve, 10));
        const double want_c[6] = {0, 0, 0, 0, 0, omega};
        const double want_e[6] = {-omega * omega * r, 0, 0, 0, 0, omega};
        ec = fmax(ec, max_diff(vc, want_c, 6));
        ee = fmax(ee, max_diff(ve, want_e, 6));
    }
    // the orientation: a turn of omega t about z at the last step's start
    double t = 199 * DT, qz[4] = {cos(omega * t / 2), 0, 0, sin(omega * t / 2)};
    double eq = max_diff(ve + 6, qz, 4);
    printf("  free fall, 200 steps: centre reads (%.3g, %.3g, %.3g), edge (%.17g, %.3g, %.3g) "
           "(want %.17g), gyro z %.17g; errors %.3g, %.3g, orientation %.3g\n",
           vc[0], vc[1], vc[2], ve[0], ve[1], ve[2], -omega * omega * r, ve[5], ec, ee, eq);
    // docs/sensors.md: 0 at the centre, -12.25 at r, the orientation (to 5e-15; asserted below
    // 1e-13)
    SNT_CHECK(ec < 1e-13 && ee < 1e-13 && eq < 1e-13);
    sn_world_destroy(w);
    return 0;
}


// A disc spinning about a vertical axis held by a revolute joint: omega and -omega^2 r toward the
// axis, plus g up (the joint holds it); constant in the sensor frame as the disc turns
static int test_imu_on_spinning_body(void) {
    scene sc;
    if (scene_open(&sc, spinner_urdf)) return 1;
    int disc = sn_model_find(sc.m, SN_OBJ_FRAME, "disc");
    const double omega = 12.0, r = 0.4;
    sn_sensor_desc d = desc_of(SN_SENSOR_IMU, "rim", disc, 0);
    d.pos[0] = r;
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &d, NULL));
    double q[1] = {0}, u[1] = {omega};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 1, u, 1));
    double v[10], err = 0, pos_err = 0;
    int fp = -1;
    sn_sensor_desc p = desc_of(SN_SENSOR_FRAME_POS, "rim_pos", disc, 0);
    p.pos[0] = r;
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &p, &fp));
    for (int k = 0; k < 500; k++) {
        double q0 = sn_system_q(sc.s)[0];
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, 0, v, 10));
        const double want[6] = {-omega * omega * r, 0, GRAV, 0, 0, omega};
        err = fmax(err, max_diff(v, want, 6));
        // framepos: the rim point at the step's start angle
        double x[3], wx[3] = {r * cos(q0), r * sin(q0), 1};
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, fp, x, 3));
        pos_err = fmax(pos_err, max_diff(x, wx, 3));
    }
    printf("  spinning at %g rad/s, r = %g m, 500 steps: reads (%.17g, %.3g, %.17g), gyro "
           "(%.3g, %.3g, %.17g); largest error %.3g (want %.17g); framepos error %.3g\n",
           omega, r, v[0], v[1], v[2], v[3], v[4], v[5], err, -omega * omega * r, pos_err);
    // docs/sensors.md: (-57.6, 0, 9.81) to 2e-14 after 500 steps (asserted below 5e-13)
    SNT_CHECK(err < 5e-13 && pos_err < 1e-12);
    scene_close(&sc);
    return 0;
}


// A force/torque sensor under a hanging mass reads m g up and the weight's moment about the
// sensor: at the fixed joint "mount" (load: 1 kg, centre of mass (0.3, 0, -0.1) from it) force
// (0, 0, m g), torque c x (m g z) = (0, -0.3 m g, 0); turned 90 degrees about z, the torque is
// the sensor's (-0.3 m g, 0, 0). At the hinge (bob and load, 3 kg): force 3 g up and the torque
// about the hinge's origin, the moment of the load's offset; the MJCF-style force and torque
// sensors split the same six numbers
static int test_force_sensor_under_hanging_mass(void) {
    scene sc;
    if (scene_open(&sc, pendulum_urdf)) return 1;
    int mount = sn_model_find(sc.m, SN_OBJ_URDF_JOINT, "mount");
    int hinge = sn_model_find(sc.m, SN_OBJ_URDF_JOINT, "hinge");
    // the system hangs at rest with the centre of mass of bob and load (link axes (cx, 0, cz))
    // straight below the hinge: R_y(theta) (cx, 0, cz) has x = cos theta cx + sin theta cz = 0
    double cx = 1.0 * 0.3 / 3.0, cz = (2 * -0.5 + 1.0 * -0.7) / 3.0;
    double theta = atan2(-cx, cz);
    if (-sin(theta) * cx + cos(theta) * cz > 0) theta += M_PI; // below, not above
    double q[1] = {theta}, u[1] = {0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 1, u, 1));
    sn_sensor_desc a = desc_of(SN_SENSOR_FORCE_TORQUE, "ft", 0, mount);
    sn_sensor_desc b = desc_of(SN_SENSOR_FORCE_TORQUE, "ft_turned", 0, mount);
    b.quat[0] = sqrt(0.5), b.quat[3] = sqrt(0.5);
    sn_sensor_desc f = desc_of(SN_SENSOR_FORCE, "f", 0, mount);
    sn_sensor_desc t = desc_of(SN_SENSOR_TORQUE, "t", 0, mount);
    sn_sensor_desc hg = desc_of(SN_SENSOR_FORCE_TORQUE, "hinge_ft", 0, hinge);
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &a, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &b, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &f, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &t, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &hg, NULL));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    double va[6], vb[6], vf[3], vt[3], vh[6];
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, 0, va, 6));
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, 1, vb, 6));
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, 2, vf, 3));
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, 3, vt, 3));
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, 4, vh, 6));
    // in the load's frame (turned by theta about y): gravity's direction there
    double mg = 1.0 * GRAV, up[3] = {-sin(theta), 0, cos(theta)}; // world z in link axes
    double c[3] = {0.3, 0, -0.1}, want_t[3];
    want_t[0] = c[1] * up[2] - c[2] * up[1], want_t[1] = c[2] * up[0] - c[0] * up[2];
    want_t[2] = c[0] * up[1] - c[1] * up[0];
    double want[6] = {mg * up[0],     mg * up[1],     mg * up[2],
                      mg * want_t[0], mg * want_t[1], mg * want_t[2]};
    // turned 90 degrees about z: sensor x = link y, sensor y = -link x
    double want_b[6] = {want[1], -want[0], want[2], want[4], -want[3], want[5]};
    double e = fmax(max_diff(va, want, 6), max_diff(vb, want_b, 6));
    e = fmax(e, fmax(max_diff(vf, va, 3), max_diff(vt, va + 3, 3)));
    // the hinge carries 3 kg: force 3 g up; its torque about the hinge is the weight's moment
    // about an axis through the centre of mass: zero at rest
    double wh[6] = {3 * GRAV * up[0], 3 * GRAV * up[1], 3 * GRAV * up[2], 0, 0, 0};
    double eh = max_diff(vh, wh, 6);
    printf("  hanging at theta = %.6f: mount force (%.17g, %.3g, %.17g) |f| %.17g (m g %.17g), "
           "torque (%.3g, %.17g, %.3g); hinge |f| %.17g (3 m g); errors %.3g, %.3g\n",
           theta, va[0], va[1], va[2], sqrt(va[0] * va[0] + va[1] * va[1] + va[2] * va[2]), mg,
           va[3], va[4], va[5], sqrt(vh[0] * vh[0] + vh[1] * vh[1] + vh[2] * vh[2]), e, eh);
    // docs/sensors.md: to 8e-15 (rounding; asserted below 2e-13)
    SNT_CHECK(e < 2e-13 && eh < 2e-13);
    // at the step's start the system was at rest: the joint wrench getter says the same
    double fw[3], tw[3];
    SNT_STATUS_OK(sn_system_joint_wrench(sc.s, mount, fw, tw));
    SNT_CHECK(fabs(fw[2] - mg) < 1e-12 && fabs(fw[0]) < 1e-12 && fabs(fw[1]) < 1e-12);
    scene_close(&sc);
    return 0;
}


// Joint sensors read the step's start state; IMU and the rest take its acceleration: a swinging
// pendulum's accelerometer matches the analytic point acceleration of a rigid pendulum
static int test_joint_sensors_and_swing(void) {
    scene sc;
    if (scene_open(&sc, pendulum_urdf)) return 1;
    int hinge = sn_model_find(sc.m, SN_OBJ_URDF_JOINT, "hinge");
    int bob = sn_model_find(sc.m, SN_OBJ_FRAME, "bob");
    sn_sensor_desc p = desc_of(SN_SENSOR_JOINT_POS, "angle", 0, hinge);
    sn_sensor_desc v = desc_of(SN_SENSOR_JOINT_VEL, "rate", 0, hinge);
    sn_sensor_desc a = desc_of(SN_SENSOR_ACCELEROMETER, "acc", bob, 0);
    sn_sensor_desc g = desc_of(SN_SENSOR_GYRO, "gyro", bob, 0);
    a.pos[2] = -0.6; // at the mount
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &p, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &v, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &a, NULL));
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &g, NULL));
    double q[1] = {0.7}, u[1] = {-1.3};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 1, u, 1));
    double e = 0, x[3];
    for (int k = 0; k < 300; k++) {
        double q0 = sn_system_q(sc.s)[0], u0 = sn_system_u(sc.s)[0];
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double udot = (sn_system_u(sc.s)[0] - u0) / DT;
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, 0, x, 1));
        e = fmax(e, fabs(x[0] - q0));
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, 1, x, 1));
        e = fmax(e, fabs(x[0] - u0));
        // the point p = (0, 0, -L) of the link, link axes, w = (0, u, 0): alpha x p =
        // (-L udot, 0, 0), w x (w x p) = (0, 0, L u^2); minus gravity: + g times world z in link
        // axes, (-sin q, 0, cos q)
        double L = 0.6, up[3] = {-sin(q0), 0, cos(q0)};
        double want[3] = {-L * udot + GRAV * up[0], 0, L * u0 * u0 + GRAV * up[2]};
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, 2, x, 3));
        e = fmax(e, max_diff(x, want, 3));
        SNT_STATUS_OK(sn_system_sensor_read(sc.s, 3, x, 3));
        double wg[3] = {0, u0, 0};
        e = fmax(e, max_diff(x, wg, 3));
    }
    printf("  swinging pendulum, 300 steps: joint sensors, accelerometer and gyro against the "
           "step's start state and acceleration, largest error %.3g\n",
           e);
    SNT_CHECK(e < 3e-12); // docs/sensors.md: 1.3e-13 (asserted below 3e-12)
    scene_close(&sc);
    return 0;
}


// Sensors are read after each step without allocating; a step with them allocates nothing
static int test_no_allocation(void) {
    scene sc;
    if (scene_open(&sc, pendulum_urdf)) return 1;
    int bob = sn_model_find(sc.m, SN_OBJ_FRAME, "bob");
    int mount = sn_model_find(sc.m, SN_OBJ_URDF_JOINT, "mount");
    for (int t = 0; t <= SN_SENSOR_JOINT_VEL; t++) {
        char name[32];
        snprintf(name, sizeof name, "s%d", t);
        int j = t == SN_SENSOR_JOINT_POS || t == SN_SENSOR_JOINT_VEL
                    ? sn_model_find(sc.m, SN_OBJ_URDF_JOINT, "hinge")
                    : mount;
        sn_sensor_desc d = desc_of(t, name, bob, j);
        SNT_STATUS_OK(sn_system_add_sensor(sc.s, &d, NULL));
    }
    double q[1] = {0.4}, u[1] = {0};
    SNT_STATUS_OK(sn_system_set_state(sc.s, q, 1, u, 1));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    tc_heap_install();
    long before = tc_heap_calls();
    double sum = 0, x[10];
    for (int k = 0; k < 200; k++) {
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        for (int i = 0; i < sn_system_sensor_count(sc.s); i++) {
            SNT_STATUS_OK(sn_system_sensor_read(sc.s, i, x, 10));
            sum += x[0];
        }
        sum += sn_system_sensor_values(sc.s)[0];
    }
    long calls = tc_heap_calls() - before;
    printf("  200 steps with %d sensors (%d values) read after each: %ld heap calls (sum %.6g)\n",
           sn_system_sensor_count(sc.s), sn_system_sensor_value_count(sc.s), calls, sum);
    SNT_CHECK(calls == 0);
    scene_close(&sc);
    return 0;
}


// Refusals name the argument and the reason; a sensor keeps inverse dynamics on
static int test_refusals(void) {
    scene sc;
    if (scene_open(&sc, pendulum_urdf)) return 1;
    int mount = sn_model_find(sc.m, SN_OBJ_URDF_JOINT, "mount");
    sn_sensor_desc d = desc_of(SN_SENSOR_IMU, "imu", 1, 0);
    struct {
        sn_sensor_desc d;
        const char* says;
    } bad[8];
    for (int k = 0; k < 8; k++)
        bad[k].d = d;
    bad[0].d.type = 42, bad[0].says = "not an sn_sensor_type";
    bad[1].d.frame = 99, bad[1].says = "frame 99";
    bad[2].d.type = SN_SENSOR_JOINT_POS, bad[2].d.joint = mount, bad[2].says = "fixed";
    bad[3].d.quat[0] = 2, bad[3].says = "norm";
    bad[4].d.pos[1] = (double)NAN, bad[4].says = "pos[1]";
    bad[5].d.cutoff = -1, bad[5].says = "cutoff";
    bad[6].d.type = SN_SENSOR_FORCE, bad[6].d.joint = -1, bad[6].says = "joint -1";
    bad[7].d.name = "imu", bad[7].says = "taken";
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &d, NULL));
    for (int k = 0; k < 8; k++) {
        SNT_CHECK(sn_system_add_sensor(sc.s, &bad[k].d, NULL) == SN_ERR_ARG);
        const char* msg = sn_world_last_error(sc.w);
        printf("  refused: %s\n", msg);
        SNT_CHECK_MSG(strstr(msg, bad[k].says), "case %d: '%s' lacks '%s'", k, msg, bad[k].says);
    }
    SNT_CHECK(sn_system_add_sensor(sc.s, NULL, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_system_add_sensor(NULL, &d, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_system_sensor_count(sc.s) == 1);
    SNT_CHECK(sn_system_sensor_find(sc.s, "imu") == 0 && sn_system_sensor_find(sc.s, "x") == -1);
    sn_sensor_info info;
    SNT_STATUS_OK(sn_system_sensor_info(sc.s, 0, &info));
    SNT_CHECK(info.type == SN_SENSOR_IMU && info.dim == 10 && info.adr == 0 &&
              !strcmp(info.name, "imu"));
    SNT_CHECK(sn_system_sensor_info(sc.s, 1, &info) == SN_ERR_ARG);
    double x[10];
    SNT_CHECK(sn_system_sensor_read(sc.s, 0, x, 9) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(sc.w), "10 values"));
    // the IMU turned inverse dynamics on, and it stays on
    sn_system_set_compute_inverse_dynamics(sc.s, 0);
    SNT_CHECK(strstr(sn_world_last_warning(sc.w), "stays on"));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    double f[3], t[3];
    SNT_STATUS_OK(sn_system_joint_wrench(sc.s, mount, f, t));
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, 0, x, 10));
    // an unnamed sensor is called after its index
    sn_sensor_desc u = desc_of(SN_SENSOR_GYRO, NULL, 1, 0);
    SNT_STATUS_OK(sn_system_add_sensor(sc.s, &u, NULL));
    SNT_CHECK(sn_system_sensor_find(sc.s, "sensor1") == 1);
    // adding one drops the last step's values until the next step
    SNT_CHECK(sn_system_sensor_values(sc.s) == NULL);
    printf("  sn_sensor_dim: imu %d, force_torque %d, framequat %d, jointpos %d, unknown %d\n",
           sn_sensor_dim(SN_SENSOR_IMU), sn_sensor_dim(SN_SENSOR_FORCE_TORQUE),
           sn_sensor_dim(SN_SENSOR_FRAME_QUAT), sn_sensor_dim(SN_SENSOR_JOINT_POS),
           sn_sensor_dim(99));
    SNT_CHECK(!strcmp(sn_sensor_type_name(SN_SENSOR_ACCELEROMETER), "accelerometer"));
    scene_close(&sc);
    return 0;
}


// The file's sensors reach the system (the library applies them when the system is made): URDF
// <sinew:sensor> and MJCF <sensor>, at rest (+g up, m g at the joint); refusals name file, line
// and element; MJCF sensor kinds sinew does not read are listed in the load warning
static int test_sensors_from_files(void) {
    static const char* urdf =
        "<robot name=\"r\"><link name=\"world\"/>"
        "<link name=\"arm\"><inertial><mass value=\"2\"/>"
        "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/>"
        "</inertial></link>"
        "<joint name=\"spin\" type=\"continuous\"><parent link=\"world\"/><child link=\"arm\"/>"
        "<origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/></joint>"
        "<sinew:sensor name=\"imu\" type=\"imu\" link=\"arm\" xyz=\"0.1 0 0\" "
        "rpy=\"1.5707963267948966 0 0\"/>"
        "<sinew:sensor name=\"ft\" type=\"force_torque\" joint=\"spin\"/>"
        "<sinew:sensor name=\"angle\" type=\"jointpos\" joint=\"spin\"/></robot>";
    scene sc;
    if (scene_open(&sc, urdf)) return 1;
    SNT_CHECK(sc.m->nsensor == 3 && sn_system_sensor_count(sc.s) == 3);
    SNT_CHECK(sn_model_find(sc.m, SN_OBJ_SENSOR, "ft") == 1);
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    double imu[10], ft[6];
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, sn_system_sensor_find(sc.s, "imu"), imu, 10));
    SNT_STATUS_OK(sn_system_sensor_read(sc.s, sn_system_sensor_find(sc.s, "ft"), ft, 6));
    // rolled 90 degrees about x: the world's up is the sensor's y
    double want_imu[3] = {0, GRAV, 0}, want_ft[6] = {0, 0, 2 * GRAV, 0, 0, 0};
    double e = fmax(max_diff(imu, want_imu, 3), max_diff(ft, want_ft, 6));
    printf("  URDF <sinew:sensor>: imu (%.3g, %.17g, %.3g), ft force z %.17g (2 g); error %.3g\n",
           imu[0], imu[1], imu[2], ft[2], e);
    SNT_CHECK(e < 1e-12);
    scene_close(&sc);
    // MJCF: a site on a body hanging from a hinge, at rest
    static const char* mjcf =
        "<mujoco><worldbody><body name=\"b\" pos=\"0 0 1\"><joint name=\"h\" type=\"hinge\" "
        "axis=\"0 1 0\"/><inertial pos=\"0 0 -0.5\" mass=\"3\" diaginertia=\"0.1 0.1 0.1\"/>"
        "<site name=\"s\" pos=\"0 0 -0.5\" quat=\"0 1 0 0\"/></body></worldbody><sensor>"
        "<accelerometer name=\"acc\" site=\"s\"/><force name=\"f\" site=\"s\"/>"
        "<framepos objtype=\"xbody\" objname=\"b\"/><magnetometer site=\"s\"/>"
        "<touch site=\"s\"/></sensor></mujoco>";
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load_mjcf_string(mjcf, strlen(mjcf), "s.xml", NULL, NULL, &m, &err));
    SNT_CHECK(m->nsensor == 3 && sn_model_find(m, SN_OBJ_SENSOR, "sensor2") == 2);
    int listed = 0;
    for (int i = 0; i < m->nwarning && i < 64; i++)
        listed |= strstr(m->warnings[i], "<magnetometer> sensors") != NULL &&
                  strstr(m->warnings[i], "<touch> sensors") != NULL;
    SNT_CHECK_MSG(listed, "the load warning does not list the sensors left out");
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(tc_world_open(m, DT, &w, &s));
    SNT_STATUS_OK(sn_world_integrate(w));
    double acc[3], f[3], p[3];
    SNT_STATUS_OK(sn_system_sensor_read(s, 0, acc, 3));
    SNT_STATUS_OK(sn_system_sensor_read(s, 1, f, 3));
    SNT_STATUS_OK(sn_system_sensor_read(s, 2, p, 3));
    // the site is turned upside down (180 degrees about x): up is its -z
    double wa[3] = {0, 0, -GRAV}, wf[3] = {0, 0, -3 * GRAV}, wp[3] = {0, 0, 1};
    e = fmax(max_diff(acc, wa, 3), fmax(max_diff(f, wf, 3), max_diff(p, wp, 3)));
    printf("  MJCF <sensor>: accelerometer z %.17g, force z %.17g (site upside down), framepos z "
           "%.17g; error %.3g\n",
           acc[2], f[2], p[2], e);
    SNT_CHECK(e < 1e-12);
    sn_world_destroy(w);
    sn_model_destroy(m);
    // refusals: file, line, element and the reason
    static const struct {
        const char* xml;
        int mjcf;
        const char* says;
    } bad[] = {
        {"<mujoco><worldbody><body name=\"b\"><joint name=\"h\"/><geom size=\"0.1\"/></body>"
         "</worldbody><sensor>\n<gyro site=\"nowhere\"/></sensor></mujoco>",
         1, "site 'nowhere'"},
        {"<mujoco><worldbody><body name=\"b\"><joint name=\"h\"/><geom size=\"0.1\"/></body>"
         "</worldbody><sensor>\n<framepos objtype=\"body\" objname=\"b\"/></sensor></mujoco>",
         1, "objtype 'body'"},
        {"<mujoco><worldbody><body name=\"b\"><joint name=\"h\"/><geom size=\"0.1\"/></body>"
         "</worldbody><sensor>\n<jointpos joint=\"nope\"/></sensor></mujoco>",
         1, "joint 'nope'"},
        {"<mujoco><worldbody><body name=\"b\"><joint name=\"h\" type=\"ball\"/><geom "
         "size=\"0.1\"/></body></worldbody><sensor>\n<jointpos joint=\"h\"/></sensor></mujoco>",
         1, "spherical"},
        {"<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" "
         "ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>\n"
         "<sinew:sensor name=\"x\" type=\"compass\" link=\"a\"/></robot>",
         0, "type 'compass'"},
        {"<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" "
         "ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>\n"
         "<sinew:sensor name=\"x\" type=\"imu\" link=\"b\"/></robot>",
         0, "link 'b'"},
        {"<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" "
         "ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>\n"
         "<sinew:sensor name=\"x\" type=\"force\" link=\"a\"/></robot>",
         0, "names a joint"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        m = NULL;
        memset(&err, 0, sizeof err);
        sn_status st = bad[k].mjcf ? sn_load_mjcf_string(bad[k].xml, strlen(bad[k].xml), "bad.xml",
                                                         NULL, NULL, &m, &err)
                                   : sn_load_urdf_string(bad[k].xml, strlen(bad[k].xml), "bad.urdf",
                                                         NULL, NULL, &m, &err);
        printf("  refused: %s:%d <%s>: %s\n", err.file, err.line, err.element, err.msg);
        SNT_CHECK_MSG(st != SN_OK && !m && strstr(err.msg, bad[k].says) && err.line == 2,
                      "case %zu: status %d, line %d, '%s'", k, (int)st, err.line, err.msg);
    }
    return 0;
}


// With contacts the step's acceleration includes the impulses: a box resting on the ground reads
// +g up (the ground's push), not the free fall the step would make without it
static int test_imu_on_the_ground(void) {
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = DT;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double size[3] = {0.2, 0.2, 0.2};
    SNT_STATUS_OK(sn_world_add_box(w, size, 2.0, &s));
    double q[7] = {0, 0, 0.1, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    sn_sensor_desc d = desc_of(SN_SENSOR_IMU, "imu", 0, 0);
    SNT_STATUS_OK(sn_system_add_sensor(s, &d, NULL));
    for (int k = 0; k < 500; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double v[10], want[6] = {0, 0, GRAV, 0, 0, 0};
    SNT_STATUS_OK(sn_system_sensor_read(s, 0, v, 10));
    double e = max_diff(v, want, 6);
    printf("  a box resting on the ground after 0.5 s (%d contacts): reads (%.3g, %.3g, %.17g), "
           "error %.3g\n",
           sn_system_contact_count(s), v[0], v[1], v[2], e);
    // docs/sensors.md: (0, 0, 9.81) to 1e-15 (asserted below 3e-14)
    SNT_CHECK(sn_system_contact_count(s) > 0 && e < 3e-14);
    sn_world_destroy(w);
    return 0;
}


SNT_SUITE(SNT_TEST(test_imu_at_rest_reads_g_up), SNT_TEST(test_imu_free_fall_and_spin),
          SNT_TEST(test_imu_on_spinning_body), SNT_TEST(test_imu_on_the_ground),
          SNT_TEST(test_force_sensor_under_hanging_mass), SNT_TEST(test_joint_sensors_and_swing),
          SNT_TEST(test_no_allocation), SNT_TEST(test_refusals), SNT_TEST(test_sensors_from_files))
