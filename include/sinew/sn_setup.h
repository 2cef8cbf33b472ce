// SPDX-License-Identifier: Apache-2.0
// sn_setup.h: from a model file to a world that simulates it as the file says. sn_load reads a
// URDF or MJCF file, recognised by its content; sn_system_apply_file applies what the file says
// to the system and its world: the time step, gravity and integration scheme of the file, its
// ground plane (or none), the friction of its geometries combined as MuJoCo combines them, its
// servos and their targets, the keyframe chosen, and the assembly of loops that start open.
// Contact exclusions and joint springs are the model's own and act without this call.
//
// `sinew run FILE` is these two calls followed by its command-line options: a program that makes
// them gets the same physics, step for step (tests/test_setup.c checks it bit for bit on every
// shared model).
#ifndef SN_SETUP_H
#define SN_SETUP_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Load a model file by its content: MJCF when its root element is <mujoco>, URDF when it is
/// <robot>, whatever the file's name. Errors as sn_load_urdf (a file that is neither is
/// SN_ERR_PARSE with its first element named).
SN_API sn_status sn_load(const char* path, const sn_load_opts* opts, sn_model** out, sn_error* err);

/// The file format of a path by its content (the rule of sn_load), without loading it.
SN_API sn_status sn_file_format(const char* path, sn_format* out, sn_error* err);

/// Where the ground comes from in sn_system_apply_file.
typedef enum sn_ground_rule {
    /// What the file says: an MJCF file's horizontal plane at its height, no ground when the file
    /// has no plane or turns contacts off (as in MuJoCo); a URDF file, a plane at z = 0.
    SN_GROUND_FROM_FILE = 0,
    SN_GROUND_ON = 1,  ///< a plane: the file's height if it has one, else z = 0
    SN_GROUND_OFF = 2, ///< no ground
} sn_ground_rule;

/// Options of sn_system_apply_file. A zeroed struct applies everything the file says.
typedef struct sn_setup_opts {
    /// The keyframe to start from (MJCF <keyframe>): its name, or its index as digits ("0").
    /// NULL: the model's start state (its nominal configuration, at rest).
    const char* key;
    const sn_real* q0; ///< start coordinates (nq), over the key's; NULL: none
    const sn_real* u0; ///< start velocities (nv), over the key's; NULL: none
    sn_ground_rule ground;
    int friction_set;    ///< 1: the ground's friction is `friction`, not the file's
    sn_real friction;    ///< (default: an MJCF plane's friction, else 0.8)
    sn_real restitution; ///< of every material pair (default 0)
    int self_collision;  ///< contacts between the system's own bodies (default off)
    int no_assemble;     ///< keep constraints that start open as they are
    int no_servos;       ///< do not take the file's servo gains (MJCF position/velocity actuators)
} sn_setup_opts;

/// What sn_system_apply_file did (for a program to report, as `sinew run` does).
typedef struct sn_setup_report {
    /// The constraints' worst error at the start state: pins in m, orientations in rad, couplings
    /// and locks in joint units (sn_system_constraint_error's `worst`).
    sn_real open_before;
    int assembled;         ///< 1 when assembly ran (open_before above 1e-6 and not no_assemble)
    sn_status assembly;    ///< its status (SN_OK: closed to 1e-12; else closed as far as it went)
    sn_real open_after;    ///< the residual after assembly (open_before when it did not run)
    int ground;            ///< 1 when the world has a ground plane
    sn_real ground_height; ///< its height
    int no_plane;          ///< 1 when an MJCF file without a plane left the world without ground
    int contact_off;       ///< 1 when the file turned contacts off (and the ground with them)
    int servos;            ///< 1 when the file's servo gains were applied (PD control on)
    int soft;              ///< 1 when the world is on soft contacts after the call
    int soft_points;       ///< soft contact points the file named and the call added
} sn_setup_report;

/// Apply what s's model file says to s and its world: the file's time step, gravity and scheme
/// (when it gives them), the ground (opts->ground), the ground's and the bodies' friction (an
/// MJCF file's geom friction and condim: a body takes the largest of its geoms', a pair the
/// larger of its two, none when both are condim 1), the start state (opts->key, q0, u0), the
/// assembly of constraints that start open by more than 1 um or 1 urad (sn_system_assemble,
/// 100 iterations to 1e-12), the file's soft contacts (sinew's extension, docs/expo.md "Soft
/// parameters": the contact model, the soft parameters of the world and of material pairs, the
/// bodies' material ids, which replace those the frictions gave, and the soft points the file
/// names, added when the system has none), and the file's servos holding the start pose. `opts` and
/// `report` may be NULL. The settings of the world are the world's: with several systems, the last
/// call wins. On failure (an unknown key, a bad q0) the call returns SN_ERR_ARG with the reason in
/// sn_world_last_error and the state as it was; settings applied before the failure stay.
SN_API sn_status sn_system_apply_file(sn_system* s, const sn_setup_opts* opts,
                                      sn_setup_report* report);

/// The constraints' errors at the current state, over every kind of constraint.
typedef struct sn_constraint_error {
    sn_real pin_rms, pin_worst; ///< the pins' anchor gaps (m), as sn_system_loop_error
    sn_real orientation_worst;  ///< the orientation constraints' angles (rad)
    sn_real coupling_worst;     ///< mimic couplings and locks: |q - (multiplier q_leader + offset)|
    sn_real worst;              ///< the largest of the three (mixed units)
} sn_constraint_error;

/// The errors of every constraint of s at its current state (all 0 without constraints).
SN_API sn_status sn_system_constraint_error(sn_system* s, sn_constraint_error* out);

#ifdef __cplusplus
}
#endif
#endif
