// SPDX-License-Identifier: Apache-2.0
// kinematics.c: forward kinematics of positions, velocities and accelerations in the world
// frame (spatial vectors at the world origin, angular first), and frame queries.
// The motion subspace of each DOF is the twist it produces at unit rate: a rotation about the
// world axis a through point r is (a, r x a); a translation along a is (0, a).
#define _GNU_SOURCE // sincos
#include "dynamics/dyn.h"

// pose of the joint frame of joint j in the world, given the parent body pose
static void joint_frame(const sn_model* m, const sn_data* d, int j, int parent, sn_real* rj,
                        sn_real* pj) {
    const sn_real* rp = d->body_rot + 9 * parent;
    const sn_real* pp = d->body_pos + 3 * parent;
    const sn_real* jr = m->joint_rot + 9 * j;
    if (d->joint_axis_kind[j] >= 3)
        memcpy(rj, rp, 9 * sizeof(sn_real));
    else
        m3_mul(rj, rp, jr);
    m3_mul_v3(pj, rp, m->joint_pos + 3 * j);
    v3_add(pj, pj, pp);
}

// the joint axis in the world: a column of Rj (negated) when the axis is a coordinate axis
static inline void world_axis(sn_real* out, const sn_real* rj, const sn_real* a, int kind) {
    int k = kind >= 3 ? kind - 4 : kind;
    if (k >= 0) {
        sn_real sg = a[k];
        out[0] = sg * rj[k], out[1] = sg * rj[3 + k], out[2] = sg * rj[6 + k];
        return;
    }
    m3_mul_v3(out, rj, a);
}

// R = Rj * Rot(a, angle), with a shortcut that mixes two columns when a is a coordinate axis
static void rotate_about(sn_real* r, const sn_real* rj, const sn_real* a, int kind, sn_real angle) {
    sn_real s, c;
#if defined(__GLIBC__)
    sincos(angle, &s, &c);
#else
    s = sin(angle), c = cos(angle);
#endif
    int k = kind >= 3 ? kind - 4 : kind;
    if (k >= 0) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        if (a[k] < 0) s = -s;
        for (int row = 0; row < 3; row++) {
            const sn_real* x = rj + 3 * row;
            sn_real* y = r + 3 * row;
            y[i] = c * x[i] + s * x[j];
            y[j] = c * x[j] - s * x[i];
            y[k] = x[k];
        }
        return;
    }
    sn_real rot[9];
    axis_sincos_to_m3(rot, a, s, c);
    m3_mul(r, rj, rot);
}

// d = R I R^T for a symmetric I, computing the six distinct entries
static void rotate_inertia(sn_real* d, const sn_real* r, const sn_real* in) {
    sn_real t[9];
    m3_mul(t, r, in);
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            sn_real v =
                t[3 * i] * r[3 * j] + t[3 * i + 1] * r[3 * j + 1] + t[3 * i + 2] * r[3 * j + 2];
            d[3 * i + j] = v;
            d[3 * j + i] = v;
        }
}

static void unit_quat(sn_real* out, const sn_real* q) {
    sn_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0)) n = 1;
    for (int k = 0; k < 4; k++)
        out[k] = q[k] / n;
}

// rotational column: (a, r x a)
static void rot_col(sn_real* s, const sn_real* a, const sn_real* r) {
    v3_copy(s, a);
    v3_cross(s + 3, r, a);
}

// body poses, joint anchors and motion subspaces (the first part of sn_fk)
static void fk_poses(const sn_model* m, sn_data* d) {
    m3_identity(d->body_rot);
    v3_set(d->body_pos, 0, 0, 0);
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], parent = m->body_parent[b];
        const sn_real* q = d->q + m->joint_qadr[j];
        sn_real* s = d->dof_motion + 6 * m->joint_vadr[j];
        sn_real* R = d->body_rot + 9 * b;
        sn_real* p = d->body_pos + 3 * b;
        sn_real rj[9], pj[3], t[9], a[3];
        joint_frame(m, d, j, parent, rj, pj);
        v3_copy(d->joint_anchor + 3 * j, pj);
        int type = m->joint_type[j];
        if (type <= SN_JOINT_PRISMATIC)
            world_axis(a, rj, m->joint_axis + 3 * j, d->joint_axis_kind[j]);
        switch (type) {
        case SN_JOINT_REVOLUTE:
        case SN_JOINT_CONTINUOUS:
            rotate_about(R, rj, m->joint_axis + 3 * j, d->joint_axis_kind[j], q[0]);
            v3_copy(p, pj);
            rot_col(s, a, pj);
            break;
        case SN_JOINT_PRISMATIC:
            memcpy(R, rj, sizeof t);
            v3_copy(p, pj);
            v3_addscl(p, a, q[0]);
            v3_set(s, 0, 0, 0);
            v3_copy(s + 3, a);
            break;
        case SN_JOINT_SPHERICAL: {
            sn_real uq[4];
            unit_quat(uq, q);
            quat_to_m3(t, uq);
            m3_mul(R, rj, t);
            v3_copy(p, pj);
            // angular velocity in the joint frame fixed to the parent: axes are rj's columns
            for (int k = 0; k < 3; k++) {
                sn_real e[3] = {rj[k], rj[3 + k], rj[6 + k]};
                rot_col(s + 6 * k, e, pj);
            }
            break;
        }
        case SN_JOINT_FLOATING: {
            sn_real uq[4], rl[9], pl[3];
            unit_quat(uq, q + 3);
            quat_to_m3(rl, uq);
            m3_mul(R, rj, rl);
            m3_mul_v3(pl, rj, q);
            v3_add(p, pj, pl);
            // u = (velocity of the body origin, angular velocity), both in the world frame
            memset(s, 0, 36 * sizeof(sn_real));
            for (int k = 0; k < 3; k++) {
                s[6 * k + 3 + k] = 1;
                sn_real e[3] = {0, 0, 0};
                e[k] = 1;
                rot_col(s + 6 * (3 + k), e, p);
            }
            break;
        }
        default:
            break;
        }
    }
}

sn_status sn_fk(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    fk_poses(m, d);
    // centres of mass and inertias at the world origin
    for (int b = 0; b < m->nbody; b++) {
        const sn_real* R = d->body_rot + 9 * b;
        sn_real* c = d->body_com + 3 * b;
        sn_real ic[9];
        m3_mul_v3(c, R, m->body_com + 3 * b);
        v3_add(c, c, d->body_pos + 3 * b);
        rotate_inertia(ic, R, m->body_inertia + 9 * b);
        rbi_from(d->body_rbi + 10 * b, m->body_mass[b], c, ic);
        sn_real* icw = d->body_inertia_com + 6 * b;
        icw[0] = ic[0], icw[1] = ic[4], icw[2] = ic[8], icw[3] = ic[1], icw[4] = ic[2];
        icw[5] = ic[5];
    }
    d->fk_valid = 1;
    return SN_OK;
}

// the velocity of body b from its parent's: v_b = v_parent + S u (its joint's relative twist in
// rel)
static inline void body_velocity(const sn_model* m, sn_data* d, int b, sn_real* rel) {
    int j = m->body_joint[b], nv = m->joint_nv[j], v0 = m->joint_vadr[j];
    const sn_real* vp = d->body_vel + 6 * m->body_parent[b];
    const sn_real* S = d->dof_motion + 6 * v0;
    if (nv == 1) {
        sn_real x = d->u[v0];
        rel[0] = S[0] * x, rel[1] = S[1] * x, rel[2] = S[2] * x;
        rel[3] = S[3] * x, rel[4] = S[4] * x, rel[5] = S[5] * x;
    } else {
        memset(rel, 0, 6 * sizeof(sn_real));
        for (int k = 0; k < nv; k++)
            s6_addscl(rel, S + 6 * k, d->u[v0 + k]);
    }
    s6_add(d->body_vel + 6 * b, vp, rel);
}

sn_status sn_fk_motion(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    fk_poses(m, d);
    memset(d->body_vel, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        sn_real rel[6];
        body_velocity(m, d, b, rel);
    }
    d->fk_valid = 0; // (no inertias: the dynamics need sn_fk)
    return SN_OK;
}

sn_status sn_fk_vel(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    memset(d->body_vel, 0, 6 * sizeof(sn_real));
    memset(d->dof_bias, 0, 6 * sizeof(sn_real));
    memset(d->body_bias, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        sn_real* v = d->body_vel + 6 * b;
        sn_real* c = d->dof_bias + 6 * b;
        sn_real rel[6];
        body_velocity(m, d, b, rel);
        if (m->joint_type[j] == SN_JOINT_FLOATING) {
            // d/dt of the angular columns (e, p x e) is (0, pdot x e)
            v3_set(c, 0, 0, 0);
            v3_cross(c + 3, d->u + v0, d->u + v0 + 3);
        } else {
            mot_cross_mot(c, v, rel);
        }
        bias_force(d->body_bias + 6 * b, m->body_mass[b], d->body_com + 3 * b,
                   d->body_inertia_com + 6 * b, v);
    }
    return SN_OK;
}

sn_status sn_fk_acc(const sn_model* m, sn_data* d, const sn_real* udot) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    memset(d->body_acc, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], nv = m->joint_nv[j], v0 = m->joint_vadr[j];
        const sn_real* ap = d->body_acc + 6 * m->body_parent[b];
        sn_real* a = d->body_acc + 6 * b;
        for (int e = 0; e < 6; e++)
            a[e] = ap[e] + d->dof_bias[6 * b + e];
        if (udot)
            for (int k = 0; k < nv; k++)
                for (int e = 0; e < 6; e++)
                    a[e] += d->dof_motion[6 * (v0 + k) + e] * udot[v0 + k];
    }
    return SN_OK;
}

void sn_frame_pose(const sn_model* m, const sn_data* d, int frame, sn_real pos[3], sn_real rot[9]) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    if (sni_bad_index(__func__, "frame", frame, m->nframe)) {
        sni_fill_nan(pos, 3);
        sni_fill_nan(rot, 9);
        return;
    }
    int b = m->frame_body[frame];
    const sn_real* R = d->body_rot + 9 * b;
    sn_real x[3];
    m3_mul_v3(x, R, m->frame_pos + 3 * frame);
    if (pos) v3_add(pos, x, d->body_pos + 3 * b);
    if (rot) m3_mul(rot, R, m->frame_rot + 9 * frame);
}

void sn_frame_velocity(const sn_model* m, const sn_data* d, int frame, sn_real lin[3],
                       sn_real ang[3]) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    if (sni_bad_index(__func__, "frame", frame, m->nframe)) {
        sni_fill_nan(lin, 3);
        sni_fill_nan(ang, 3);
        return;
    }
    int b = m->frame_body[frame];
    const sn_real* v = d->body_vel + 6 * b;
    sn_real x[3];
    sn_frame_pose(m, d, frame, x, NULL);
    if (lin) {
        v3_copy(lin, v + 3);
        v3_addcross(lin, v, x);
    }
    if (ang) v3_copy(ang, v);
}

void sn_frame_acceleration(const sn_model* m, const sn_data* d, int frame, sn_real lin[3],
                           sn_real ang[3]) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    if (sni_bad_index(__func__, "frame", frame, m->nframe)) {
        sni_fill_nan(lin, 3);
        sni_fill_nan(ang, 3);
        return;
    }
    int b = m->frame_body[frame];
    const sn_real* v = d->body_vel + 6 * b;
    const sn_real* a = d->body_acc + 6 * b;
    sn_real x[3], vx[3];
    sn_frame_pose(m, d, frame, x, NULL);
    // classical acceleration of a body point: a0 + alpha x x + w x v(x)
    v3_copy(vx, v + 3);
    v3_addcross(vx, v, x);
    if (lin) {
        v3_copy(lin, a + 3);
        v3_addcross(lin, a, x);
        v3_addcross(lin, v, vx);
    }
    if (ang) v3_copy(ang, a);
}
