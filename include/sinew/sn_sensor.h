// SPDX-License-Identifier: Apache-2.0
// sn_sensor.h: sensors of a system (seed 000, "Inverse Dynamics": an IMU turns the inverse
// dynamics on; issue 16 item 1). A sensor sits on a frame of the robot (a link, with an optional
// offset and rotation: the sensor frame) or at a joint, and reads what the step computed, in the
// sensor frame: an IMU's linear acceleration (gravity's reaction included: +g up at rest),
// angular velocity and orientation; a force/torque sensor's joint wrench (the step's inverse
// dynamics); and the MJCF kinds accelerometer, gyro, framequat, framepos, force, torque,
// jointpos and jointvel. docs/sensors.md gives every formula.
//
// When: the sensors are evaluated at the end of each step, without allocation, and describe the
// state at the step's START (q, u before the step) with the step's acceleration
// u-dot = (u+ - u) / dt, impulses of contacts, limits and loops included: the same instant as
// sn_system_joint_wrench, and the same as MuJoCo's sensordata after mj_step (which evaluates the
// sensors in mj_forward, before it integrates). Read them after sn_world_integrate.
//
// Where from: sn_system_add_sensor, or the model file (MJCF <sensor>, URDF <sinew:sensor>,
// docs/sensors.md): sn_world_add_system gives a system every sensor of its model. Any sensor
// turns inverse dynamics on (sn_system_set_compute_inverse_dynamics) and keeps it on.
// A soft-contact world's step computes no inverse dynamics and reads no sensors.
#ifndef SN_SENSOR_H
#define SN_SENSOR_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Kinds of sensors; the number of values each reads is sn_sensor_dim.
typedef enum sn_sensor_type {
    SN_SENSOR_IMU = 0,           ///< 10: acceleration (3), angular velocity (3), quat w x y z (4)
    SN_SENSOR_FORCE_TORQUE = 1,  ///< 6: force (3), torque about the sensor origin (3)
    SN_SENSOR_ACCELEROMETER = 2, ///< 3: the IMU's acceleration (MJCF accelerometer)
    SN_SENSOR_GYRO = 3,          ///< 3: the IMU's angular velocity (MJCF gyro)
    SN_SENSOR_FRAME_QUAT = 4,    ///< 4: the sensor frame's orientation in the world (framequat)
    SN_SENSOR_FRAME_POS = 5,     ///< 3: the sensor origin in the world, world axes (framepos)
    SN_SENSOR_FORCE = 6,         ///< 3: the force/torque sensor's force (MJCF force)
    SN_SENSOR_TORQUE = 7,        ///< 3: its torque (MJCF torque)
    SN_SENSOR_JOINT_POS = 8,     ///< 1: a revolute or prismatic joint's position (jointpos)
    SN_SENSOR_JOINT_VEL = 9,     ///< 1: its velocity (jointvel)
} sn_sensor_type;

/// Longest sensor name, its terminating NUL included.
#define SN_SENSOR_NAME_MAX 64

/// A sensor to add. Zero fields are defaults: no offset, identity rotation, no cutoff.
typedef struct sn_sensor_desc {
    int type;         ///< an sn_sensor_type
    const char* name; ///< copied; unique within the system; NULL or "": "sensor<id>"
    /// the link (frame id, SN_OBJ_FRAME) carrying an IMU, accelerometer, gyro, framequat or
    /// framepos; unused by the joint sensors
    int frame;
    /// the URDF joint (SN_OBJ_URDF_JOINT) of a force/torque, force or torque sensor (the sensor
    /// is on its child link and reads the wrench the parent link transmits to the child's
    /// subtree, fixed joints included), or of a jointpos / jointvel sensor (1 DOF)
    int joint;
    sn_real pos[3];  ///< the sensor origin in the link's frame (m)
    sn_real quat[4]; ///< the sensor frame's rotation in the link's frame, w x y z; all 0: none
    sn_real cutoff;  ///< > 0: every value but a quaternion's clamped to [-cutoff, cutoff]
} sn_sensor_desc;

/// What a sensor is, and where its values are among sn_system_sensor_values.
typedef struct sn_sensor_info {
    int type;  ///< sn_sensor_type
    int frame; ///< the link it is on (a joint sensor: the joint's child link)
    int joint; ///< the URDF joint of a joint sensor, else SN_NONE
    int adr;   ///< index of its first value in sn_system_sensor_values
    int dim;   ///< number of values (sn_sensor_dim)
    sn_real cutoff;
    char name[SN_SENSOR_NAME_MAX];
} sn_sensor_info;

/// Number of values a sensor of this type reads (0 for an unknown type).
SN_API int sn_sensor_dim(int type);
/// The type's name as the docs write it ("imu", "force_torque", "accelerometer", ...), "?" if
/// unknown.
SN_API const char* sn_sensor_type_name(int type);

/// Add a sensor; *id (nullable) receives its index. Turns inverse dynamics on. Refused with
/// SN_ERR_ARG and sn_world_last_error naming the field and the reason: desc NULL, an unknown
/// type, a frame or joint out of range, a jointpos / jointvel on a joint without exactly 1 DOF,
/// a pos, quat or cutoff not finite, a quat that is not zero and not of norm near 1 (within
/// 1e-6; it is normalized), a cutoff below 0, a name too long or already taken; SN_ERR_NOMEM.
/// Allocates (the system's sensor table grows), so call it outside a step; the values of the
/// last step are gone until the next step. O(sensors).
SN_API sn_status sn_system_add_sensor(sn_system* s, const sn_sensor_desc* desc, int* id);
/// Number of sensors of the system (SN_NONE when s is NULL).
SN_API int sn_system_sensor_count(const sn_system* s);
/// Index of the sensor named `name`, SN_NONE if none.
SN_API int sn_system_sensor_find(const sn_system* s, const char* name);
/// What sensor i is. SN_ERR_ARG when i is out of range or out is NULL.
SN_API sn_status sn_system_sensor_info(const sn_system* s, int i, sn_sensor_info* out);
/// Number of values of all the sensors together (the sum of their dims).
SN_API int sn_system_sensor_value_count(const sn_system* s);
/// The values of every sensor after the last step, sensor after sensor (info.adr, info.dim):
/// owned by the system, valid until the next sn_system_add_sensor; NULL when no step has
/// evaluated the sensors since the last sensor was added (or the last checkpoint load).
SN_API const sn_real* sn_system_sensor_values(const sn_system* s);
/// Copy sensor i's values of the last step into out (n >= its dim). SN_ERR_ARG: i out of range,
/// out NULL, n too small, or no step has evaluated the sensors yet. No allocation, O(dim).
SN_API sn_status sn_system_sensor_read(const sn_system* s, int i, sn_real* out, int n);

#ifdef __cplusplus
}
#endif
#endif
