// SPDX-License-Identifier: Apache-2.0
// eval.c: the sensors' values at the end of a step (docs/sensors.md). Everything is taken at the
// step's start state with the step's acceleration, from the inverse dynamics' snapshot
// (sni_invdyn: body poses, velocities, accelerations with gravity's reaction, subtree wrenches),
// as the joint wrenches are. For a sensor frame at world point p with rotation R (world <-
// sensor) on a body of angular velocity w, origin velocity v0 and spatial acceleration
// (alpha, a0 - g) about the world origin:
//   angular velocity    w_s = R^T w
//   point velocity      v_p = v0 + w x p
//   specific force      f_s = R^T ((a0 - g) + alpha x p + w x v_p)   (+g up at rest)
//   joint wrench        F_s = R^T f,  N_s = R^T (n0 + f x p)          (about the sensor origin)
#include "base/smath.h"
#include "sensor/sensor.h"
#include "sim/sim.h"

#include <string.h>


// the sensor frame in the world at the snapshot: origin p, rotation R (world <- sensor)
static void sensor_frame(const sn_system* s, const sni_sensor* e, sn_real p[3], sn_real R[9]) {
    const sn_real* Rb = s->id.rot + 9 * e->body;
    m3_mul_v3(p, Rb, e->pos);
    v3_add(p, p, s->id.pos + 3 * e->body);
    m3_mul(R, Rb, e->rot);
}


// the specific force at p, world: the point's classical acceleration minus gravity
static void specific_force(const sn_system* s, const sni_sensor* e, const sn_real p[3],
                           sn_real out[3]) {
    const sn_real* v = s->id.vel + 6 * e->body;
    const sn_real* a = s->id.body_acc + 6 * e->body;
    sn_real vp[3];
    v3_copy(vp, v + 3);
    v3_addcross(vp, v, p);
    v3_copy(out, a + 3);
    v3_addcross(out, a, p);
    v3_addcross(out, v, vp);
}


// the orientation as a quaternion w x y z with w >= 0
static void orientation(const sn_real R[9], sn_real q[4]) {
    m3_to_quat(q, R);
    if (q[0] < 0)
        for (int k = 0; k < 4; k++)
            q[k] = -q[k];
}


// the force (3) and the torque about p (3) the joint transmits, sensor axes R
static void wrench(const sn_system* s, const sni_sensor* e, const sn_real p[3], const sn_real R[9],
                   sn_real out[6]) {
    sn_real w[6], n[3];
    sni_step_ujoint_wrench(s, e->ujoint, w);
    v3_copy(n, w);
    v3_addcross(n, w + 3, p);
    m3t_mul_v3(out, R, w + 3);
    m3t_mul_v3(out + 3, R, n);
}


static void evaluate_one(const sn_system* s, const sni_sensor* e, sn_real* out) {
    sn_real p[3], R[9], x[6];
    sensor_frame(s, e, p, R);
    const sn_real* w = s->id.vel + 6 * e->body;
    switch (e->type) {
    case SN_SENSOR_IMU:
        specific_force(s, e, p, x);
        m3t_mul_v3(out, R, x);
        m3t_mul_v3(out + 3, R, w);
        orientation(R, out + 6);
        break;
    case SN_SENSOR_ACCELEROMETER:
        specific_force(s, e, p, x);
        m3t_mul_v3(out, R, x);
        break;
    case SN_SENSOR_GYRO:
        m3t_mul_v3(out, R, w);
        break;
    case SN_SENSOR_FRAME_QUAT:
        orientation(R, out);
        break;
    case SN_SENSOR_FRAME_POS:
        v3_copy(out, p);
        break;
    case SN_SENSOR_FORCE_TORQUE:
        wrench(s, e, p, R, out);
        break;
    case SN_SENSOR_FORCE:
    case SN_SENSOR_TORQUE:
        wrench(s, e, p, R, x);
        v3_copy(out, e->type == SN_SENSOR_FORCE ? x : x + 3);
        break;
    case SN_SENSOR_JOINT_POS:
        out[0] = s->step.q0[e->qadr];
        break;
    case SN_SENSOR_JOINT_VEL:
        out[0] = s->step.u0[e->vadr];
        break;
    }
    // the cutoff bounds every value but a quaternion's
    if (e->cutoff > 0) {
        int n = e->type == SN_SENSOR_FRAME_QUAT ? 0 : e->type == SN_SENSOR_IMU ? 6 : e->dim;
        for (int k = 0; k < n; k++)
            out[k] = out[k] > e->cutoff ? e->cutoff : out[k] < -e->cutoff ? -e->cutoff : out[k];
    }
}


void sni_sensors_evaluate(sn_system* s) {
    if (!s->sens.n || !(s->valid & SNI_VALID_ID)) return;
    for (int i = 0; i < s->sens.n; i++)
        evaluate_one(s, &s->sens.list[i], s->sens.value + s->sens.list[i].adr);
    s->valid |= SNI_VALID_SENSOR;
}
