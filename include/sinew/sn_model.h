// SPDX-License-Identifier: Apache-2.0
// sn_model.h: the compiled, immutable model of an articulated system and its loaders.
//
// A model is a kinematic tree of bodies. Links joined by fixed joints are merged into one body
// for dynamics; every link stays addressable as a frame. Body 0 is the world. A floating base is
// body 1, attached to the world by a floating joint named "ROOT". Bodies are ordered parents
// before children (depth-first, children in file order), and so are the joints and the degrees of
// freedom: this is the order of getMovableJointNames() in the seeds. Conventions are in
// docs/conventions.md: q = [base position (3), base quaternion w,x,y,z (4), joints],
// u = [base linear velocity, world (3), base angular velocity, world (3), joints].
#ifndef SN_MODEL_H
#define SN_MODEL_H

#include "sn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Joint types. A spherical joint has a quaternion (4) in q and an angular velocity (3) in u,
/// expressed in the joint frame fixed to the parent. A floating joint has 7 and 6.
typedef enum sn_joint_type {
    SN_JOINT_FIXED = 0,
    SN_JOINT_REVOLUTE = 1,
    SN_JOINT_CONTINUOUS = 2,
    SN_JOINT_PRISMATIC = 3,
    SN_JOINT_SPHERICAL = 4,
    SN_JOINT_FLOATING = 5,
} sn_joint_type;

/// Kinds of named object for sn_model_find.
typedef enum sn_object {
    SN_OBJ_BODY = 0,       ///< a dynamic body (merged links), named after its first link
    SN_OBJ_JOINT = 1,      ///< a movable joint (the ids of the joint_* arrays)
    SN_OBJ_FRAME = 2,      ///< a URDF link
    SN_OBJ_URDF_JOINT = 3, ///< any URDF joint, fixed ones included (the ids of the ujoint_* arrays)
    SN_OBJ_ACTUATOR = 4,   ///< an actuator of the <actuator> extension (the actuator_* arrays)
    SN_OBJ_KEY = 5,        ///< a state the file names (MJCF <keyframe>; the key_* arrays)
    SN_OBJ_TENDON = 6,     ///< an MJCF tendon (the tendon_* arrays)
    SN_OBJ_TENDON_ACTUATOR = 7, ///< an MJCF actuator on a tendon (the tactuator_* arrays)
    SN_OBJ_SENSOR = 8,          ///< a sensor the file declares (the sensor_* arrays)
} sn_object;

/// Tendon kinds (MJCF <tendon>; docs/constraints.md "Tendons").
typedef enum sn_tendon_type {
    SN_TENDON_FIXED = 0,   ///< L = sum of coef_i q_i over 1-DOF joints
    SN_TENDON_SPATIAL = 1, ///< L = the length of a path through sites (pulleys divide it)
} sn_tendon_type;

/// Entries of a tendon's path (the tpath_* arrays).
typedef enum sn_tendon_path {
    SN_TENDON_PATH_JOINT = 0,  ///< a 1-DOF joint and its coefficient (fixed tendons)
    SN_TENDON_PATH_SITE = 1,   ///< a point fixed on a link (spatial tendons)
    SN_TENDON_PATH_PULLEY = 2, ///< a pulley: the next branch's segments count 1/divisor
    SN_TENDON_PATH_GEOM = 3,   ///< a sphere or cylinder the path wraps around (MuJoCo's wrap)
} sn_tendon_path;

/// The file format a model was read from.
typedef enum sn_format {
    SN_FORMAT_URDF = 0, ///< URDF (sn_load_urdf), and models built through the API
    SN_FORMAT_MJCF = 1, ///< MJCF (sn_load_mjcf)
    SN_FORMAT_USD = 2,  ///< USD's text form, .usda (sn_load_usd)
} sn_format;

/// Couplings one actuator may have (the size of sn_actuator_desc.coupling_joint).
#define SN_ACTUATOR_MAX_COUPLINGS 4

/// Geometry kinds stored for later issues (collision and visual).
typedef enum sn_geom_type {
    SN_GEOM_BOX = 0,
    SN_GEOM_CYLINDER = 1,
    SN_GEOM_SPHERE = 2,
    SN_GEOM_MESH = 3,
    SN_GEOM_CAPSULE = 4,
    SN_GEOM_ELLIPSOID = 5, ///< semi-axes along the geometry's x, y, z (MJCF)
} sn_geom_type;

/// Loop-constraint kinds of seed 001.
typedef enum sn_constraint_type {
    SN_CONSTRAINT_PIN = 0,
    SN_CONSTRAINT_EQUALITY = 1,
    /// body1 and body2 keep their relative orientation (three rows of relative angular
    /// velocity); an MJCF <weld> is a pin followed by one of these
    SN_CONSTRAINT_ORIENTATION = 2
} sn_constraint_type;

/// How the base is chosen by the loader.
typedef enum sn_base_mode {
    SN_BASE_AUTO = 0,  ///< a root link named "world" gives a fixed base, otherwise floating
    SN_BASE_FIXED = 1, ///< the root link is welded to the world
    SN_BASE_FLOATING =
        2, ///< the root link gets a floating joint (a root named "world" is an error)
} sn_base_mode;

/// Load options. A zeroed struct means defaults.
typedef struct sn_load_opts {
    const sn_allocator* allocator; ///< NULL: libc
    sn_log_fn log; ///< receives warnings; NULL: warnings are only stored in the model
    void* log_ctx;
    sn_base_mode base;
    int balance_inertia;     ///< nonzero: inertias that violate the triangle inequality become
                             ///< their mean principal moment times identity (warned)
    int strict_inertia;      ///< nonzero: such inertias are an error instead of a warning
    size_t max_file_bytes;   ///< 0: 64 MiB
    int max_links;           ///< 0: 200000 links (and as many joints)
    const char* package_dir; ///< directory that replaces "package://NAME"; NULL: see docs
} sn_load_opts;

/// The compiled model. Immutable after loading; read its fields directly. Array shapes are given
/// in parentheses; matrices are row-major; vectors are in the parent body's frame unless stated.
///
/// Threads: a loaded model is read-only. Adding it to worlds, stepping them and reading them
/// never write it (no cache is filled lazily: every workspace is the system's own), so one model
/// may be shared by worlds stepped in several threads at once, and models may be loaded in
/// several threads at once (the loaders keep no global state). Only the calls that take a
/// non-const model change it (sn_model_set_joint_pos, _rot, _axis, sn_model_set_body_mass,
/// sn_model_destroy), and so does sn_world_load_state of a checkpoint that holds changed
/// placements (sn_state.h); none of them may run while another thread uses the model. A world
/// and its systems belong to one thread at a time. tests/test_threads.c checks this under
/// ThreadSanitizer.
typedef struct sn_model {
    // ---- sizes ----
    int nq;          ///< generalized coordinates
    int nv;          ///< generalized velocities (degrees of freedom)
    int nbody;       ///< dynamic bodies, world included
    int njoint;      ///< movable joints (the floating base joint included), in u order
    int nframe;      ///< URDF links
    int nujoint;     ///< URDF joints, fixed ones included, plus "ROOT" for a floating base
    int ngeom;       ///< collision and visual geometries
    int nconstraint; ///< loop constraints of <constraints>
    int nmaterial;   ///< named materials
    int nactuator;   ///< actuators of the <actuator> extension (docs/urdf.md)
    int is_floating; ///< 1 when body 1 has a floating joint
    int max_depth;   ///< most joints on a path from the world to a body
    int nmeshvert;   ///< vertices of the collision meshes that were read

    int format; ///< the sn_format it was read from

    // ---- the file's simulation settings (MJCF <option>); a world takes them through
    // sn_system_apply_file (sn_setup.h) ----
    int has_option;            ///< 1 when the file set any of the settings below
    sn_real option_timestep;   ///< time step in seconds, 0 when not set
    sn_real option_gravity[3]; ///< gravity, valid when option_has_gravity
    int option_has_gravity;
    int option_scheme; ///< the integrator as an sn_scheme value (see sn_world.h), -1 when not set
    int option_contact_off;         ///< 1 when the file turns contacts off (MJCF flag contact)
    int option_has_ground;          ///< 1 when the file has a ground plane (MJCF worldbody plane)
    sn_real option_ground_height;   ///< its height, valid when option_has_ground
    sn_real option_ground_friction; ///< its sliding friction, valid when option_has_ground
    int option_ground_condim;       ///< its MJCF condim, valid when option_has_ground
    /// The contact model the file asks for (sinew's extension, docs/expo.md "Soft parameters"),
    /// an sn_contact_model value (sn_soft.h), -1 when not set
    int option_contact_model;
    int nsoft;       ///< soft contact parameter sets the file gives (the world's first, if given)
    int nsoft_point; ///< soft contact points the file names
    int nkey;        ///< states named in the file (MJCF <keyframe>)
    int ntendon;     ///< tendons (MJCF <tendon>)
    int ntpath;      ///< entries of all tendons' paths
    int ntactuator;  ///< actuators on tendons (MJCF <actuator tendon=...>)
    int nsensor;     ///< sensors the file declares (MJCF <sensor>, URDF <sinew:sensor>)

    // ---- bodies (nbody); body 0 is the world ----
    int* body_parent;      ///< parent body, SN_NONE for the world                (nbody)
    int* body_joint;       ///< movable joint into the body, SN_NONE for world     (nbody)
    int* body_name;        ///< offset into names (the body's first link)         (nbody)
    sn_real* body_mass;    ///< mass of the merged links                          (nbody)
    sn_real* body_com;     ///< centre of mass in the body frame                  (nbody x 3)
    sn_real* body_inertia; ///< inertia about the centre of mass, body frame      (nbody x 9)
    sn_real* subtree_mass; ///< mass of the body and its descendants              (nbody)

    // ---- the file's soft contacts (sinew's extension; sn_system_apply_file applies them) ----
    int* soft_material;    ///< a parameter set's material pair, -1 -1: the world's  (nsoft x 2)
    sn_real* soft_param;   ///< k_normal, k_tangent, b_normal, b_tangent, mu (N/m, N s/m), those
                           ///< the file leaves out the world's set's, else sn_soft_params_default's
                           ///<                                                       (nsoft x 5)
    int* soft_bilateral;   ///< 1: the set's contacts are bilateral                   (nsoft)
    int* body_material;    ///< the contact material id the file gives a body, SN_NONE (nbody)
    int* soft_point_frame; ///< the link (frame) of a soft point                (nsoft_point)
    sn_real* soft_point_offset; ///< the point in that link's frame            (nsoft_point x 3)

    // ---- movable joints (njoint), in u order ----
    int* joint_type;     ///< sn_joint_type                                     (njoint)
    int* joint_body;     ///< child body of the joint                           (njoint)
    int* joint_qadr;     ///< first index in q                                  (njoint)
    int* joint_vadr;     ///< first index in u                                  (njoint)
    int* joint_nq;       ///< entries in q                                      (njoint)
    int* joint_nv;       ///< entries in u                                      (njoint)
    int* joint_name;     ///< offset into names                                 (njoint)
    int* joint_ujoint;   ///< the URDF joint it came from                       (njoint)
    sn_real* joint_pos;  ///< joint frame origin in the parent body frame       (njoint x 3)
    sn_real* joint_rot;  ///< joint frame rotation, parent body <- joint frame  (njoint x 9)
    sn_real* joint_axis; ///< unit axis in the joint frame (revolute, prismatic) (njoint x 3)
    int* joint_mimic;    ///< leader joint of a URDF mimic, SN_NONE if none     (njoint)
    sn_real* joint_mimic_multiplier; ///< e = q - m*q_leader - c: m                (njoint)
    sn_real* joint_mimic_offset;     ///< c                                        (njoint)
    sn_real* joint_spring_ref;       ///< spring rest position (1-DOF joints)      (njoint)

    // ---- degrees of freedom (nv) ----
    int* dof_joint;              ///< movable joint of the DOF                          (nv)
    int* dof_parent;             ///< previous DOF towards the root, SN_NONE at the root (nv)
    int* dof_body;               ///< body the DOF moves                                (nv)
    sn_real* dof_armature;       ///< rotor inertia added on the mass-matrix diagonal   (nv)
    sn_real* dof_damping;        ///< viscous damping (URDF dynamics damping)           (nv)
    sn_real* dof_friction;       ///< Coulomb friction (URDF dynamics friction)         (nv)
    sn_real* dof_stiffness;      ///< spring stiffness (URDF dynamics stiffness)        (nv)
    int* dof_limited;            ///< 1 when lower/upper bound the position             (nv)
    sn_real* dof_lower;          ///< position lower limit                              (nv)
    sn_real* dof_upper;          ///< position upper limit                              (nv)
    sn_real* dof_velocity_limit; ///< |u| bound, +inf when none                    (nv)
    sn_real* dof_effort_limit;   ///< |tau| bound, +inf when none                  (nv)
    sn_real* dof_kp; ///< the file's position-servo gain (MJCF <position kp>), 0 none       (nv)
    sn_real* dof_kd; ///< the file's velocity-servo gain (MJCF <velocity kv>), 0 none       (nv)

    // ---- frames: one per URDF link (nframe) ----
    int* frame_body;        ///< body the link belongs to                          (nframe)
    int* frame_parent;      ///< parent link, SN_NONE for the root link             (nframe)
    int* frame_name;        ///< offset into names                                 (nframe)
    int* frame_order;       ///< frames depth-first, parents before children       (nframe)
    sn_real* frame_pos;     ///< link origin in the body frame                     (nframe x 3)
    sn_real* frame_rot;     ///< link rotation, body <- link                       (nframe x 9)
    sn_real* frame_mass;    ///< the link's own mass                               (nframe)
    sn_real* frame_com;     ///< the link's own centre of mass, link frame         (nframe x 3)
    sn_real* frame_inertia; ///< the link's own inertia about its com, link frame  (nframe x 9)

    // ---- URDF joints, fixed ones included (nujoint) ----
    int* ujoint_type;   ///< sn_joint_type                                     (nujoint)
    int* ujoint_parent; ///< parent link (frame), SN_NONE for "ROOT"            (nujoint)
    int* ujoint_child;  ///< child link (frame)                                (nujoint)
    int* ujoint_joint;  ///< movable joint id, SN_NONE for a fixed joint       (nujoint)
    int* ujoint_name;   ///< offset into names                                 (nujoint)

    // ---- geometry (ngeom): stored for collision and rendering ----
    int* geom_type;         ///< sn_geom_type                                      (ngeom)
    int* geom_frame;        ///< link it is attached to                            (ngeom)
    int* geom_is_visual;    ///< 1 visual, 0 collision                             (ngeom)
    int* geom_material;     ///< material id, SN_NONE                              (ngeom)
    int nexclude;           ///< body pairs that never collide (MJCF <contact><exclude>)
    int* exclude_body;      ///< their bodies                                (nexclude x 2)
    sn_real* geom_friction; ///< the file's sliding friction (MJCF friction[0]), NaN when the
                            ///< file gives none (URDF)                      (ngeom)
    int* geom_condim;       ///< MJCF condim (1: frictionless, unless the other geom's is
                            ///< larger), 0 when the file gives none          (ngeom)
    int* geom_mesh;         ///< offset into names of the resolved mesh path, or SN_NONE (ngeom)
    sn_real* geom_size;     ///< box: x y z; cylinder: radius length 0; sphere: r 0 0; mesh: scale;
                            ///< ellipsoid: semi-axes                            (ngeom x 3)
    sn_real* geom_pos;      ///< origin in the link frame                          (ngeom x 3)
    sn_real* geom_rot;      ///< rotation, link <- geom                            (ngeom x 9)
    int* geom_vert_adr;     ///< a collision mesh's first vertex in mesh_vert, or SN_NONE (ngeom)
    int* geom_vert_num;     ///< its distinct vertices; 0 when the file was not read: it
                            ///< then never collides (the load warned)               (ngeom)
    sn_real* mesh_vert;     ///< collision mesh vertices in the geometry frame, scaled; the
                            ///< shape is their convex hull                       (nmeshvert x 3)

    // ---- materials (nmaterial) ----
    int* material_name;     ///< offset into names                                 (nmaterial)
    sn_real* material_rgba; ///< colour                                            (nmaterial x 4)

    // ---- loop constraints (nconstraint), as written in <constraints> ----
    int* constraint_type;       ///< sn_constraint_type                              (nconstraint)
    int* constraint_frame1;     ///< body1 link                                      (nconstraint)
    int* constraint_frame2;     ///< body2 link                                      (nconstraint)
    int* constraint_naxis;      ///< 3 for a pin, 1 or 2 for an equality             (nconstraint)
    sn_real* constraint_anchor; ///< anchor in body1's link frame                  (nconstraint x 3)
    sn_real* constraint_axes;   ///< unit axes in body1's link frame              (nconstraint x 6)
    /// body2's point in its link frame when the file gives it (an MJCF connect between sites),
    /// else NaN: the point that coincides with the anchor at the nominal configuration
    sn_real* constraint_anchor2; ///<                                             (nconstraint x 3)
    /// an orientation constraint's body2 link frame in body1's when the file gives it (an MJCF
    /// weld between sites), else NaN: the relative orientation at the nominal configuration
    sn_real* constraint_rot2; ///<                                                (nconstraint x 9)
    sn_real* nominal_config;  ///< <constraints nominal_config>, or NULL           (nq)

    // ---- keyframes (nkey): states the file names, in sinew's conventions ----
    int* key_name;  ///< offset into names                                     (nkey)
    sn_real* key_q; ///< generalized coordinates                               (nkey x nq)
    sn_real* key_u; ///< generalized velocities                                (nkey x nv)

    // ---- actuators (nactuator), in file order: seed 000 "Actuators", docs/urdf.md ----
    // omega_m = G u_j + sum_c r_c u_c; the actuator adds G tau_m to joint j, r_c tau_m to c
    int* actuator_name;                ///< offset into names                            (nactuator)
    int* actuator_joint;               ///< driven movable joint j (1 DOF)               (nactuator)
    sn_real* actuator_gear;            ///< gear ratio G > 0                             (nactuator)
    sn_real* actuator_kt;              ///< torque constant Kt (N m/A); 0: no region     (nactuator)
    sn_real* actuator_vbus;            ///< bus voltage Vbus (V)                         (nactuator)
    sn_real* actuator_resistance;      ///< winding resistance R (ohm)                   (nactuator)
    sn_real* actuator_kv;              ///< speed constant Kv (rad/s per V)              (nactuator)
    sn_real* actuator_peak_torque;     ///< motor side (N m); +inf: none                 (nactuator)
    sn_real* actuator_output_damping;  ///< b_out, joint side (N m s/rad)                (nactuator)
    sn_real* actuator_output_friction; ///< tau_c,out, joint side (N m)                  (nactuator)
    int* actuator_ncoupling;           ///< couplings used (0 to 4)                      (nactuator)
    int* actuator_coupling_joint;      ///< coupled joints c, SN_NONE unused         (nactuator x 4)
    sn_real* actuator_coupling_ratio;  ///< ratios r_c, 0 unused                     (nactuator x 4)

    // ---- tendons (ntendon), in file order (docs/constraints.md "Tendons") ----
    int* tendon_name;          ///< offset into names                               (ntendon)
    int* tendon_type;          ///< sn_tendon_type                                  (ntendon)
    int* tendon_adr;           ///< first entry of its path in the tpath_* arrays   (ntendon)
    int* tendon_num;           ///< entries of its path                             (ntendon)
    int* tendon_limited;       ///< 1: range bounds the length (one-sided solver rows) (ntendon)
    sn_real* tendon_range;     ///< lower, upper length when limited            (ntendon x 2)
    sn_real* tendon_stiffness; ///< spring: force -k (L - L0) along the tendon       (ntendon)
    sn_real* tendon_damping;   ///< damper: force -b L-dot                           (ntendon)
    sn_real* tendon_length0;   ///< L0: the file's springlength, else the length with the
                               ///< hinges and slides at joint_spring_ref, free and ball
                               ///< joints at q0 (MuJoCo 2.2.2's qpos_spring)      (ntendon)
    int* tpath_type;           ///< sn_tendon_path                                   (ntpath)
    int* tpath_joint;          ///< a joint entry's movable joint, else SN_NONE      (ntpath)
    int* tpath_frame;          ///< a site's (a wrap's sidesite's) link, SN_NONE: the world (or
                               ///< none)                                           (ntpath)
    sn_real* tpath_coef;       ///< a joint's coefficient, a pulley's divisor; a wrap: 1 when it
                               ///< has a sidesite, else 0                          (ntpath)
    sn_real* tpath_pos;        ///< a site's (sidesite's) point in its link's frame (world:
                               ///< world)                                      (ntpath x 3)
    int* tpath_geom;           ///< a wrap's geometry (sphere, cylinder), else SN_NONE (ntpath)
    // ---- actuators on tendons (ntactuator): MuJoCo's transmission, l = gear L ----
    // force = gain ctrl + bias0 + bias1 l + bias2 l-dot (ctrl clamped to ctrlrange, force to
    // forcerange); the generalized force is gear J^T force (J: the tendon's Jacobian)
    int* tactuator_name;           ///< offset into names                          (ntactuator)
    int* tactuator_tendon;         ///< the tendon                                 (ntactuator)
    sn_real* tactuator_gear;       ///< gear                                       (ntactuator)
    sn_real* tactuator_gain;       ///< gain                                       (ntactuator)
    sn_real* tactuator_bias;       ///< bias0, bias1, bias2                    (ntactuator x 3)
    sn_real* tactuator_ctrlrange;  ///< -inf, inf when not limited             (ntactuator x 2)
    sn_real* tactuator_forcerange; ///< -inf, inf when not limited            (ntactuator x 2)

    // ---- sensors the file declares (nsensor): sn_world_add_system gives them to the system
    // (sn_sensor.h, docs/sensors.md) ----
    int* sensor_type;       ///< sn_sensor_type                                      (nsensor)
    int* sensor_frame;      ///< the link it is on (a joint sensor: the joint's child) (nsensor)
    int* sensor_ujoint;     ///< a joint sensor's URDF joint, else SN_NONE           (nsensor)
    int* sensor_name;       ///< offset into names                                   (nsensor)
    sn_real* sensor_pos;    ///< the sensor origin in the link's frame           (nsensor x 3)
    sn_real* sensor_rot;    ///< its rotation, link <- sensor                    (nsensor x 9)
    sn_real* sensor_cutoff; ///< > 0: values clamped to [-cutoff, cutoff]; 0: none   (nsensor)

    // ---- defaults ----
    sn_real* q0; ///< the zero configuration (identity quaternions)    (nq)

    // ---- names and warnings ----
    char* names;     ///< all names, each NUL-terminated
    int nwarning;    ///< warnings raised while loading (file, line, element in each)
    char** warnings; ///< the first warnings (at most 64), owned by the model

    // ---- private ----
    size_t size_; ///< bytes of the single block
    sn_allocator allocator_;
} sn_model;

/// Load a URDF file. On success *out is a new model (free it with sn_model_destroy).
/// On failure *out is NULL, the status is returned and err (nullable) says file, line, element.
/// Never exits, aborts or crashes; limits on size and nesting are in opts. Warnings go to the
/// log hook and are kept in the model.
SN_API sn_status sn_load_urdf(const char* path, const sn_load_opts* opts, sn_model** out,
                              sn_error* err);

/// Load a URDF from memory. `name` is used in messages; `base_dir` resolves relative mesh paths
/// (NULL: the current directory).
SN_API sn_status sn_load_urdf_string(const char* xml, size_t len, const char* name,
                                     const char* base_dir, const sn_load_opts* opts, sn_model** out,
                                     sn_error* err);

/// Load an MJCF file (MuJoCo's format; docs/mjcf.md lists what is read). Bodies become links,
/// several joints of one body a chain of massless links, a free joint on the first body the
/// floating base; inertia comes from <inertial> or the geoms as MuJoCo's compiler computes it;
/// <equality><connect> becomes a pin. What sinew does not read is refused by name, or listed in
/// one warning when it only matters to MuJoCo. Errors as sn_load_urdf.
SN_API sn_status sn_load_mjcf(const char* path, const sn_load_opts* opts, sn_model** out,
                              sn_error* err);
/// The same from memory; base_dir resolves <include> files (NULL: the current directory).
SN_API sn_status sn_load_mjcf_string(const char* xml, size_t len, const char* name,
                                     const char* base_dir, const sn_load_opts* opts, sn_model** out,
                                     sn_error* err);

/// Load a robot described with UsdPhysics from a USD text layer (.usda; docs/usd.md lists what is
/// read). Rigid bodies (PhysicsRigidBodyAPI with PhysicsMassAPI) become links, revolute,
/// prismatic, spherical and fixed joints the tree; joints with physics:excludeFromArticulation,
/// and further joints into a body that has its tree joint, close loops (seed 001: a revolute one
/// by two pins on its axis, a spherical one by a pin, a fixed one by three pins). The bodies'
/// poses in the file are the joints' zero. Binary layers (.usdc, .usdz) and composition
/// (references, payloads, variants, sublayers) are refused with a message. Errors as
/// sn_load_urdf, the element being the prim's path.
SN_API sn_status sn_load_usd(const char* path, const sn_load_opts* opts, sn_model** out,
                             sn_error* err);
/// The same from memory (`name` is used in messages).
SN_API sn_status sn_load_usd_string(const char* text, size_t len, const char* name,
                                    const sn_load_opts* opts, sn_model** out, sn_error* err);

/// Free a model. NULL is a no-op.
SN_API void sn_model_destroy(sn_model* m);

// ---- joint placements and masses (seed 001 getJointPos_P, getJointOrientation_P,
// getJointAxis_P; docs/loops.md "Joint placements") ----

/// Joint `joint`'s placement: its frame's origin in the parent body frame (pos), the rotation
/// parent body <- joint frame (rot, row-major) and its unit axis in the joint frame (axis); any
/// output may be NULL. SN_ERR_ARG: joint out of range.
SN_API sn_status sn_model_joint_placement(const sn_model* m, int joint, sn_real pos[3],
                                          sn_real rot[9], sn_real axis[3], sn_error* err);
/// Move joint `joint`'s frame origin in its parent body frame. Systems that simulate m take the
/// change with sn_system_update_mass_info (sn_world.h). SN_ERR_NONFINITE: a NaN or Inf entry.
SN_API sn_status sn_model_set_joint_pos(sn_model* m, int joint, const sn_real pos[3],
                                        sn_error* err);
/// Turn joint `joint`'s frame: rot (row-major, parent body <- joint frame) must be a rotation,
/// rows orthonormal and determinant +1 to 1e-9 (else SN_ERR_ARG); stored as given.
SN_API sn_status sn_model_set_joint_rot(sn_model* m, int joint, const sn_real rot[9],
                                        sn_error* err);
/// Set a revolute, continuous or prismatic joint's axis in its joint frame; stored normalized. A
/// zero axis or a joint without an axis is refused (SN_ERR_ARG).
SN_API sn_status sn_model_set_joint_axis(sn_model* m, int joint, const sn_real axis[3],
                                         sn_error* err);
/// Set movable body `body`'s mass (finite, positive; its centre of mass and inertia stay) and
/// the subtree masses. Systems take it with sn_system_update_mass_info.
SN_API sn_status sn_model_set_body_mass(sn_model* m, int body, sn_real mass, sn_error* err);

/// Id of a named object, or SN_NONE. Links and joints have separate namespaces.
SN_API int sn_model_find(const sn_model* m, sn_object kind, const char* name);

/// Name of an object, or NULL when the id is out of range.
SN_API const char* sn_model_name(const sn_model* m, sn_object kind, int id);

/// Name of a joint type ("revolute"...).
SN_API const char* sn_joint_type_str(sn_joint_type t);

/// A triangle mesh read from a file by sn_mesh_read: vertices and the triangles that index them.
/// Owned by the caller; free it with sn_mesh_data_free.
typedef struct sn_mesh_data {
    int nvert;     ///< vertices
    int ntri;      ///< triangles
    sn_real* vert; ///< positions in the file's units times scale, file order          (nvert x 3)
    int* tri;      ///< vertex indices from 0, in the file's winding                   (ntri x 3)
} sn_mesh_data;

/// Read the triangles of an OBJ or STL mesh file (the formats collision meshes are read in),
/// each coordinate multiplied by scale (NULL: 1 1 1). OBJ: every `v` line is a vertex in file
/// order, every `f` line (indices 1-based or negative, `a/b/c` forms) a polygon fanned into
/// triangles; STL (binary when its size matches its triangle count, else ASCII beginning with
/// "solid"): three new vertices per triangle. On success *out holds the mesh; on failure it is
/// empty and the status is returned: SN_ERR_MODEL (another format), SN_ERR_IO (cannot open or
/// read), SN_ERR_PARSE (malformed, no triangles; err.line is the line of a text file),
/// SN_ERR_LIMIT (larger than 256 MiB), SN_ERR_NOMEM, SN_ERR_ARG (path or out NULL). err
/// (nullable) names the file. Reads the file once; O(file size). No model or world is needed.
SN_API sn_status sn_mesh_read(const char* path, const sn_real scale[3], sn_mesh_data* out,
                              sn_error* err);

/// Free the arrays of a mesh sn_mesh_read filled and zero it. NULL, or an empty mesh, is a no-op.
SN_API void sn_mesh_data_free(sn_mesh_data* mesh);

#ifdef __cplusplus
}
#endif
#endif
