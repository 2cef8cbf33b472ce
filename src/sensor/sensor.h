// SPDX-License-Identifier: Apache-2.0
// sensor.h: a system's sensors (internal; public API in sinew/sn_sensor.h, docs/sensors.md). The
// table (sensor.c) is one block per system, grown when a sensor is added (never in a step); the
// evaluation (eval.c) runs at the end of each step on the inverse dynamics' snapshot of the
// step's start (sni_invdyn) and writes the values in place.
#ifndef SNI_SENSOR_H
#define SNI_SENSOR_H

#include "base/base.h"
#include "sinew/sn_sensor.h"

#define SNI_SENSOR_DIM_MAX 10 // an IMU's

// one sensor, resolved: its body and its frame in the body
typedef struct sni_sensor {
    int type;       // sn_sensor_type
    int frame;      // the link it is on
    int ujoint;     // a joint sensor's URDF joint, else SN_NONE
    int body;       // the link's body
    int qadr, vadr; // a jointpos / jointvel sensor's coordinate and velocity
    int adr, dim;   // its values in sni_sensors.value
    sn_real pos[3]; // the sensor origin in the body frame
    sn_real rot[9]; // body <- sensor
    sn_real cutoff; // > 0: values clamped
    char name[SN_SENSOR_NAME_MAX];
} sni_sensor;

// a system's sensors: n of room for cap, their values (nvalue of room for
// SNI_SENSOR_DIM_MAX * cap), in one block of `bytes`
typedef struct sni_sensors {
    int n, cap, nvalue;
    sni_sensor* list; // (cap)
    sn_real* value;   // (SNI_SENSOR_DIM_MAX x cap)
    size_t bytes;
} sni_sensors;

// a reason why a sensor of this type cannot sit on `frame` / at URDF joint `ujoint` of m (the
// one each type uses), written into why; 0 when it can
int sni_sensor_problem(const sn_model* m, int type, int frame, int ujoint, char* why, size_t n);

struct sn_system;
// the sensors of s's model (the file's), added when the system is made
sn_status sni_sensors_from_model(struct sn_system* s);
// the table freed (world.c, with the system)
void sni_sensors_free(struct sn_system* s);
// every sensor's values from the step just computed: the inverse dynamics' snapshot of the
// step's start (sni_step_wrenches ran) and its state q0, u0. No allocation
void sni_sensors_evaluate(struct sn_system* s);

#endif
