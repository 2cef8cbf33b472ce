// SPDX-License-Identifier: Apache-2.0
// spec.h: the editable description a parser fills (internal). Names are offsets into the name
// pool; links and joints refer to each other by name until sni_compile resolves them.
#ifndef SNI_SPEC_H
#define SNI_SPEC_H

#include "base/base.h"
#include "sinew/sn_model.h"

typedef struct sni_link {
    long name;
    int line;
    int generated; // made by the reader (an MJCF joint's anchor): not a name for a body
    int has_inertial;
    int inertial_line;
    sn_real mass;
    sn_real com[3];     // link frame
    sn_real inertia[9]; // about the com, link frame axes
} sni_link;

typedef struct sni_joint {
    long name;
    int line;
    int type;         // sn_joint_type, -1 unknown
    long parent_name; // -1 when missing
    long child_name;
    long mimic_name; // -1 when none
    int mimic_line;
    sn_real pos[3];
    sn_real rot[9];
    sn_real axis[3];
    int has_limit, has_lower, has_upper;
    sn_real lower, upper, effort, velocity;
    sn_real damping, friction, stiffness, spring_ref, armature;
    sn_real mimic_multiplier, mimic_offset;
    sn_real kp, kd; // the file's servo gains (MJCF position and velocity actuators), 0 none
    // MJCF springdamper (MuJoCo's): both > 0 on a joint with one DOF replace its stiffness and
    // damping by those of a mass-spring-damper with this time constant and damping ratio, the
    // mass being the joint's inertia at the nominal configuration (compile pass); 0: none
    sn_real spring_timeconst, spring_dampratio;
    int parent, child; // resolved link ids
} sni_joint;

typedef struct sni_geom {
    long name; // the file's name (MJCF), -1: none
    int link;
    int line;
    int is_visual;
    int type;
    long mesh;        // name-pool offset of the resolved path, -1
    long material;    // name-pool offset of the material name, -1
    sn_real friction; // the file's sliding friction, NaN: none given
    int condim;       // MJCF condim, 0: none given
    sn_real size[3];
    sn_real pos[3];
    sn_real rot[9];
} sni_geom;

typedef struct sni_material {
    long name;
    int line;
    sn_real rgba[4];
} sni_material;

typedef struct sni_constraint {
    int type;
    int line;
    const char* element; // the file's element for messages (MJCF "connect", "weld"), NULL: by type
    long body1, body2;   // names
    sn_real anchor[3];
    int has_anchor2; // body2's point given (an MJCF site2), in body2's link frame
    sn_real anchor2[3];
    int has_rot2; // an orientation constraint's body2 frame in body1's given (MJCF sites)
    sn_real rot2[9];
    int naxis;
    sn_real axes[6];
} sni_constraint;

// a pair of bodies that never collide (MJCF <contact><exclude>): link names
typedef struct sni_exclude {
    long body1, body2;
    int line;
} sni_exclude;

// <actuator> (an extension): names until sni_compile resolves the joints
typedef struct sni_actuator {
    long name;
    long joint_name;
    int line;
    sn_real gear, kt, vbus, resistance, kv, peak_torque, output_damping, output_friction;
    int ncoupling;
    long coupling_name[SN_ACTUATOR_MAX_COUPLINGS];
    int coupling_line[SN_ACTUATOR_MAX_COUPLINGS];
    sn_real coupling_ratio[SN_ACTUATOR_MAX_COUPLINGS];
} sni_actuator;

// a soft contact parameter set of sinew's extension (docs/expo.md "Soft parameters": URDF
// <sinew:soft_contact>, MJCF <custom><numeric name="sinew:soft_contact[:A:B]">): a material
// pair's, or the world's (material -1 -1)
typedef struct sni_soft_spec {
    int material[2];     // the pair's ids, -1 -1: the world's parameters
    sn_real value[5];    // k_normal, k_tangent, b_normal, b_tangent, mu; NaN: not given
    int bilateral;       // 0 or 1, -1: not given
    int line;            //
    const char* element; // the file's element, for messages
} sni_soft_spec;

// a link's contact material id (<sinew:material>) or one of its soft points (<sinew:soft_point>)
typedef struct sni_soft_ref {
    long link; // its name
    int line;
    int id;            // the material id
    sn_real offset[3]; // the point in the link's frame
    const char* element;
} sni_soft_ref;

// an MJCF tendon (<tendon><fixed> or <spatial>) and its path (docs/constraints.md "Tendons"):
// the entries tendon_elems[elem0 .. elem0 + nelem)
typedef struct sni_tendon {
    long name;
    int line;
    int type; // sn_tendon_type
    int limited;
    sn_real range[2];
    sn_real stiffness, damping;
    sn_real springlength; // NaN: the length at the nominal configuration (MuJoCo's -1)
    int elem0, nelem;
} sni_tendon;

// one entry of a tendon's path: a joint and its coefficient (fixed), a site (a point on a link),
// or a pulley (its divisor)
typedef struct sni_tendon_elem {
    int kind;       // sn_tendon_path
    int line;       //
    long joint;     // the joint's name (SN_TENDON_PATH_JOINT)
    long link;      // the site's (a wrap's sidesite's) link name, -1: the world
    int geom;       // a wrap's geom: its index in the spec's geoms (SN_TENDON_PATH_GEOM)
    sn_real coef;   // the joint's coefficient, a pulley's divisor, 1 for a wrap with a sidesite
    sn_real pos[3]; // the site (a wrap's sidesite) in its link's frame
} sni_tendon_elem;

// an MJCF actuator on a tendon: force = gain ctrl + bias[0] + bias[1] l + bias[2] l-dot, with
// l = gear L, clamped to forcerange; the generalized force gear J^T force
typedef struct sni_tendon_act {
    long name;
    int line;
    int tendon; // index into the spec's tendons
    sn_real gear, gain, bias[3];
    sn_real ctrlrange[2], forcerange[2]; // -inf, inf: not limited
} sni_tendon_act;

// a sensor the file declares (MJCF <sensor>, URDF <sinew:sensor>; docs/sensors.md): names until
// sni_compile resolves them
typedef struct sni_sensor_spec {
    int type; // sn_sensor_type
    int line;
    const char* element; // the file's element, for messages
    long name;           // -1: none ("sensor<i>")
    long link;           // the link it is on, -1: a joint sensor's joint's child link
    long joint;          // a joint sensor's URDF joint, -1: (a force sensor) the link's own
    sn_real pos[3];      // in the link's frame
    sn_real rot[9];      // link <- sensor
    sn_real cutoff;      // 0: none
} sni_sensor_spec;

typedef struct sni_spec {
    const sn_allocator* alloc;
    const char* file;     // for messages
    sni_buf names;        // NUL-terminated names
    sni_buf links;        // sni_link
    sni_buf joints;       // sni_joint
    sni_buf geoms;        // sni_geom
    sni_buf materials;    // sni_material
    sni_buf constraints;  // sni_constraint
    sni_buf actuators;    // sni_actuator
    sni_buf excludes;     // sni_exclude
    sni_buf soft;         // sni_soft_spec
    sni_buf soft_refs;    // sni_soft_ref: materials (offset unused) and points (id -1)
    sni_buf tendons;      // sni_tendon
    sni_buf tendon_elems; // sni_tendon_elem
    sni_buf tendon_acts;  // sni_tendon_act
    sni_buf sensors;      // sni_sensor_spec
    sni_buf warnings;     // NUL-terminated warning texts
    int nwarning;
    int constraints_line;
    int has_nominal;
    sn_real* nominal; // nnominal entries, allocated
    size_t nominal_bytes;
    int nnominal;
    sn_base_mode base;
    int balance_inertia;
    int strict_inertia;
    sn_log_fn log;
    void* log_ctx;
    int format; // sn_format: the reader that filled the spec
    // MJCF <option>
    sn_real option_timestep; // 0: not set
    sn_real option_gravity[3];
    int option_has_gravity;
    int option_scheme;      // -1: not set
    int option_contact_off; // <flag contact="disable">
    int option_has_ground;  // a horizontal plane in <worldbody>, at option_ground_height
    sn_real option_ground_height;
    sn_real option_ground_friction;
    int option_ground_condim;
    // sinew's extension (docs/expo.md): the contact model asked for (-1: none) and where
    int option_contact_model;
    int contact_model_line;
    // MJCF <keyframe>: nkey keys of nq coordinates and nv velocities (sinew's conventions)
    int nkey;
    long* key_name; // name-pool offsets
    sn_real* key_q;
    sn_real* key_u;
    size_t key_bytes;   // of the one allocation holding the three
    int key_nq, key_nv; // the sizes the keys were read with
} sni_spec;

#define SNI_NSOFT(s) ((int)((s)->soft.len / sizeof(sni_soft_spec)))
#define SNI_NSOFTREF(s) ((int)((s)->soft_refs.len / sizeof(sni_soft_ref)))
#define SNI_NLINK(s) ((int)((s)->links.len / sizeof(sni_link)))
#define SNI_NJOINT(s) ((int)((s)->joints.len / sizeof(sni_joint)))
#define SNI_NGEOM(s) ((int)((s)->geoms.len / sizeof(sni_geom)))
#define SNI_NMAT(s) ((int)((s)->materials.len / sizeof(sni_material)))
#define SNI_NCON(s) ((int)((s)->constraints.len / sizeof(sni_constraint)))
#define SNI_NACT(s) ((int)((s)->actuators.len / sizeof(sni_actuator)))
#define SNI_NEXCL(s) ((int)((s)->excludes.len / sizeof(sni_exclude)))
#define SNI_NTENDON(s) ((int)((s)->tendons.len / sizeof(sni_tendon)))
#define SNI_NTENDON_ELEM(s) ((int)((s)->tendon_elems.len / sizeof(sni_tendon_elem)))
#define SNI_NTENDON_ACT(s) ((int)((s)->tendon_acts.len / sizeof(sni_tendon_act)))
#define SNI_NSENSOR(s) ((int)((s)->sensors.len / sizeof(sni_sensor_spec)))
#define SNI_NAME(s, off) ((s)->names.data + (off))

void sni_spec_init(sni_spec* s, const sn_allocator* a, const char* file);
void sni_spec_free(sni_spec* s);
long sni_spec_name(sni_spec* s, const char* str);
void sni_spec_warn(sni_spec* s, int line, const char* element, const char* fmt, ...);
// ---- sinew's soft contact extension (docs/expo.md "Soft parameters"; model.c) ----
// a new parameter set with nothing given (NaN values, bilateral -1, the world's), NULL when out
// of memory
sni_soft_spec* sni_spec_soft_add(sni_spec* s, const char* element, int line);
// what is wrong with a parameter set as given (NULL: nothing), into msg
const char* sni_spec_soft_check(const sni_soft_spec* e, char* msg, size_t n);
// a link's material id (offset NULL) or soft point (id -1); NULL when out of memory
sni_soft_ref* sni_spec_soft_ref_add(sni_spec* s, const char* link, int id, const sn_real* offset,
                                    const char* element, int line);

// compile a spec into a model; the spec is left intact
sn_status sni_compile(sni_spec* s, const sn_allocator* a, sn_model** out, sn_error* err);


#endif
