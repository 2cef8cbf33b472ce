// SPDX-License-Identifier: Apache-2.0
// maximal_setup.c: what the tests of an sn_maximal stepped alone share (test_maximal,
// test_maximal_fix): a system, box bodies, a double pendulum, its energy and error.
#include "maximal_setup.h"

#include <math.h>
#include <string.h>

sn_maximal* open_mx(double dt) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    sn_maximal* mx = NULL;
    if (sn_maximal_create(&o, &mx, NULL) != SN_OK) return NULL;
    return mx;
}

int add_box(sn_maximal* mx, double m, double a, double b, double c) {
    double I[6] = {m * (b * b + c * c) / 12, 0, 0,
                   m * (a * a + c * c) / 12, 0, m * (a * a + b * b) / 12};
    int id = -1;
    if (sn_maximal_add_body(mx, m, I, &id) != SN_OK) return -1;
    return id;
}

double norm3(const double* a) {
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}
void cross3(double* d, const double* a, const double* b) {
    double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(d, t, sizeof t);
}

// a quaternion of angle t about unit axis u
void quat_axis(double* q, const double* u, double t) {
    q[0] = cos(t / 2);
    for (int i = 0; i < 3; i++)
        q[i + 1] = sin(t / 2) * u[i];
}

// ---- a double pendulum: two rods of length 1, mass 1, hinged about y (world, then 0 to 1) ----

// the hinge frame: axis 1 along y (columns y, z, x)
const double g_frame_y[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};

sn_maximal* double_pendulum(double dt, double th1, double th2) {
    sn_maximal* mx = open_mx(dt);
    if (!mx) return NULL;
    int b0 = add_box(mx, 1, 0.05, 0.05, 1), b1 = add_box(mx, 1, 0.05, 0.05, 1);
    static const double y[3] = {0, 1, 0};
    double q0[4], q1[4], x0[3], x1[3];
    quat_axis(q0, y, th1);
    quat_axis(q1, y, th2);
    // rod i points along -z of its body, rotated by th about y: its axis is (-sin th, 0, -cos th)
    x0[0] = -0.5 * sin(th1), x0[1] = 0, x0[2] = -0.5 * cos(th1);
    x1[0] = -sin(th1) - 0.5 * sin(th2), x1[1] = 0, x1[2] = -cos(th1) - 0.5 * cos(th2);
    sn_maximal_set_body_state(mx, b0, x0, q0, NULL, NULL);
    sn_maximal_set_body_state(mx, b1, x1, q1, NULL, NULL);
    sn_constraint_desc d;
    memset(&d, 0, sizeof d);
    d.kind = SN_CONSTRAINT_HINGE;
    d.body_a = b0;
    d.body_b = -1;
    d.anchor_a[2] = 0.5;
    memcpy(d.frame_a, g_frame_y, sizeof d.frame_a);
    memcpy(d.frame_b, g_frame_y, sizeof d.frame_b);
    if (sn_maximal_add_constraint(mx, &d, NULL) != SN_OK) goto fail;
    d.body_a = b1;
    d.body_b = b0;
    d.anchor_a[2] = 0.5;
    d.anchor_b[2] = -0.5;
    if (sn_maximal_add_constraint(mx, &d, NULL) != SN_OK) goto fail;
    return mx;
fail:
    sn_maximal_destroy(mx);
    return NULL;
}

double energy(const sn_maximal* mx) {
    return sn_maximal_kinetic_energy(mx) + sn_maximal_potential_energy(mx);
}

double worst_error(const sn_maximal* mx) {
    double w = -1;
    if (sn_maximal_constraint_error(mx, NULL, &w) != SN_OK) return -1;
    return w;
}
