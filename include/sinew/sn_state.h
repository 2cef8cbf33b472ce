// SPDX-License-Identifier: Apache-2.0
// sn_state.h: world checkpoints. A checkpoint holds everything that determines a world's next
// step (docs/state.md lists it field by field): the time; each system's q and u, the "has been in
// contact" flag of the scheme rules, the controller's inputs (control mode, PD gains and targets,
// feedforward force, actuator commands, the external forces pending for the next step); the
// contact solver's warm start (the last step's contacts with their impulses, which identify a
// contact in the next step, and each joint row's impulse); the loops' anchors and the
// directions each constraint keeps (the structural redundancy found when the system was added or
// by the last sn_system_update_mass_info); the models' joint placements and body masses when they
// changed since the systems were added (a load writes them into the models, and a checkpoint
// without them puts back those the systems were added with); and what the getters report of the
// last step (contacts, actuator states, the step's torque table, constraint impulses). Restoring it
// and stepping on repeats the uninterrupted run bit for bit, warm start included.
//
// What configures a world is not restored but compared: the models (a fingerprint of each, with
// the joint placements and masses they had when their systems were added), the
// number of systems, the time step, gravity, ground, heightfield, materials, the solver's and
// the loops' settings, and each system's scheme, joint limits, actuation limits, damping,
// springs, actuators, collision filters and materials, self-collision and inverse dynamics.
// Set the world up as it was when it was saved (the same calls, or sn_system_apply_file with
// the same options), then load; a checkpoint of another set-up is refused, naming the first
// difference.
//
// The format (little-endian, magic "SNWSTATE", version, sizes, an FNV-1a 64 checksum) is in
// docs/state.md. A load checks the whole checkpoint before it changes anything: on any refusal
// the world is left as it was and sn_world_last_error says why.
#ifndef SN_STATE_H
#define SN_STATE_H

#include "sn_world.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The version of the checkpoint format this library writes and reads.
#define SN_STATE_VERSION 2

/// The size in bytes of w's checkpoint now (it changes with the number of contacts). O(size).
/// SN_ERR_ARG when w or bytes is NULL.
SN_API sn_status sn_world_checkpoint_size(const sn_world* w, size_t* bytes);
/// Write w's checkpoint into buf (n bytes, at least sn_world_checkpoint_size's); *written
/// (nullable) gets its size. Reads the world, changes nothing. SN_ERR_ARG when w or buf is NULL
/// or n is too small (the message gives the size needed). No allocation. O(size).
SN_API sn_status sn_world_save_state(const sn_world* w, void* buf, size_t n, size_t* written);
/// Restore w from the checkpoint buf (n bytes): the state and the last step's reports listed
/// above; the caches (kinematics, mass matrix) are recomputed when next needed, the warm start
/// is kept. Refused, with the world unchanged: SN_ERR_PARSE for a buffer that is not a
/// checkpoint, of another version, truncated, or corrupt (checksum, or a value out of range);
/// SN_ERR_MODEL for a foreign checkpoint (another model, another number of systems, or another
/// set-up: the message names the setting and both values); SN_ERR_NONFINITE for a non-finite
/// state value; SN_ERR_ARG for NULL arguments. The contact-problem report (sn_world_contact_row)
/// and the inverse dynamics of the last step are not restored: they start again with the next
/// step. No allocation. O(size).
SN_API sn_status sn_world_load_state(sn_world* w, const void* buf, size_t n);
/// sn_world_save_state to a file (created or replaced). SN_ERR_IO when it cannot be written;
/// the buffer is allocated through the world's allocator and freed.
SN_API sn_status sn_world_save_state_file(const sn_world* w, const char* path);
/// sn_world_load_state from a file; the message begins with the file's path. SN_ERR_IO when it
/// cannot be read, SN_ERR_LIMIT when it is larger than 1 GiB.
SN_API sn_status sn_world_load_state_file(sn_world* w, const char* path);
/// The checksum of w's checkpoint now (FNV-1a 64 of its bytes, the value its last 8 bytes
/// hold): a determinism hash of the world's state. Equal worlds give equal hashes; any change of
/// the step's results (or of the format) changes it. Allocates the checkpoint through the
/// world's allocator for the call. SN_ERR_ARG when w or hash is NULL.
SN_API sn_status sn_world_state_hash(const sn_world* w, uint64_t* hash);

#ifdef __cplusplus
}
#endif
#endif
