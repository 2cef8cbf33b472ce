// SPDX-License-Identifier: Apache-2.0
// fingerprint.c: the model fingerprint a checkpoint carries for each system: FNV-1a 64 over the
// little-endian bytes of everything of the compiled model that a step reads (sizes, bodies,
// joints, DOFs, frames, URDF joints, geometry and meshes, exclusions, loop constraints and the
// nominal configuration, actuators, the zero configuration). Names, keyframes, the file's
// <option> settings and the load warnings are left out: the same robot read from another folder
// (mesh paths and warnings name it) has the same fingerprint.
#include "state/state.h"

#include <string.h>


static uint64_t mix_reals(uint64_t h, const sn_real* x, size_t n) {
    unsigned char b[8];
    for (size_t i = 0; x && i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        sni_put_u64(b, bits);
        h = sni_fnv1a(h, b, 8);
    }
    return h;
}


static uint64_t mix_ints(uint64_t h, const int* x, size_t n) {
    unsigned char b[4];
    for (size_t i = 0; x && i < n; i++) {
        sni_put_u32(b, (uint32_t)x[i]);
        h = sni_fnv1a(h, b, 4);
    }
    return h;
}


uint64_t sni_reals_fingerprint(const sn_real* x, size_t n) {
    return mix_reals(SNI_FNV_OFFSET, x, n);
}


#define R(field, count) h = mix_reals(h, m->field, (size_t)(count))
#define I(field, count) h = mix_ints(h, m->field, (size_t)(count))

uint64_t sni_model_fingerprint(const sn_model* m) {
    size_t nb = (size_t)m->nbody, nj = (size_t)m->njoint, nv = (size_t)m->nv;
    size_t nf = (size_t)m->nframe, nu = (size_t)m->nujoint, ng = (size_t)m->ngeom;
    size_t nc = (size_t)m->nconstraint, na = (size_t)m->nactuator;
    int sizes[] = {m->nq,
                   m->nv,
                   m->nbody,
                   m->njoint,
                   m->nframe,
                   m->nujoint,
                   m->ngeom,
                   m->nconstraint,
                   m->nactuator,
                   m->is_floating,
                   m->nmeshvert,
                   m->nexclude,
                   m->nominal_config != NULL};
    uint64_t h = mix_ints(SNI_FNV_OFFSET, sizes, sizeof sizes / sizeof sizes[0]);
    // bodies
    I(body_parent, nb), I(body_joint, nb);
    R(body_mass, nb), R(body_com, 3 * nb), R(body_inertia, 9 * nb), R(subtree_mass, nb);
    // joints
    I(joint_type, nj), I(joint_body, nj), I(joint_qadr, nj), I(joint_vadr, nj);
    I(joint_nq, nj), I(joint_nv, nj), I(joint_ujoint, nj), I(joint_mimic, nj);
    R(joint_pos, 3 * nj), R(joint_rot, 9 * nj), R(joint_axis, 3 * nj);
    R(joint_mimic_multiplier, nj), R(joint_mimic_offset, nj), R(joint_spring_ref, nj);
    // degrees of freedom
    I(dof_joint, nv), I(dof_parent, nv), I(dof_body, nv), I(dof_limited, nv);
    R(dof_armature, nv), R(dof_damping, nv), R(dof_friction, nv), R(dof_stiffness, nv);
    R(dof_lower, nv), R(dof_upper, nv), R(dof_velocity_limit, nv), R(dof_effort_limit, nv);
    R(dof_kp, nv), R(dof_kd, nv);
    // frames and URDF joints
    I(frame_body, nf), I(frame_parent, nf), I(frame_order, nf);
    R(frame_pos, 3 * nf), R(frame_rot, 9 * nf), R(frame_mass, nf), R(frame_com, 3 * nf);
    R(frame_inertia, 9 * nf);
    I(ujoint_type, nu), I(ujoint_parent, nu), I(ujoint_child, nu), I(ujoint_joint, nu);
    // geometry
    I(geom_type, ng), I(geom_frame, ng), I(geom_is_visual, ng), I(geom_material, ng);
    I(geom_condim, ng), I(geom_vert_adr, ng), I(geom_vert_num, ng);
    I(exclude_body, 2 * (size_t)m->nexclude);
    R(geom_friction, ng), R(geom_size, 3 * ng), R(geom_pos, 3 * ng), R(geom_rot, 9 * ng);
    R(mesh_vert, 3 * (size_t)m->nmeshvert);
    // loop constraints
    I(constraint_type, nc), I(constraint_frame1, nc), I(constraint_frame2, nc);
    I(constraint_naxis, nc);
    R(constraint_anchor, 3 * nc), R(constraint_axes, 6 * nc), R(constraint_anchor2, 3 * nc);
    R(constraint_rot2, 9 * nc), R(nominal_config, m->nominal_config ? (size_t)m->nq : 0);
    // actuators
    I(actuator_joint, na), I(actuator_ncoupling, na), I(actuator_coupling_joint, 4 * na);
    R(actuator_gear, na), R(actuator_kt, na), R(actuator_vbus, na), R(actuator_resistance, na);
    R(actuator_kv, na), R(actuator_peak_torque, na), R(actuator_output_damping, na);
    R(actuator_output_friction, na), R(actuator_coupling_ratio, 4 * na);
    R(q0, m->nq);
    // tendons (mixed only when the model has any: the fingerprints of models without them are
    // those from before tendons)
    if (m->ntendon || m->ntactuator) {
        size_t nt = (size_t)m->ntendon, ntp = (size_t)m->ntpath, nta = (size_t)m->ntactuator;
        int tsizes[] = {m->ntendon, m->ntpath, m->ntactuator};
        h = mix_ints(h, tsizes, 3);
        I(tendon_type, nt), I(tendon_adr, nt), I(tendon_num, nt), I(tendon_limited, nt);
        R(tendon_range, 2 * nt), R(tendon_stiffness, nt), R(tendon_damping, nt);
        R(tendon_length0, nt);
        I(tpath_type, ntp), I(tpath_joint, ntp), I(tpath_frame, ntp);
        I(tpath_geom, ntp), R(tpath_coef, ntp), R(tpath_pos, 3 * ntp);
        I(tactuator_tendon, nta);
        R(tactuator_gear, nta), R(tactuator_gain, nta), R(tactuator_bias, 3 * nta);
        R(tactuator_ctrlrange, 2 * nta), R(tactuator_forcerange, 2 * nta);
    }
    return h;
}
