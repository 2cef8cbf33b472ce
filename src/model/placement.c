// SPDX-License-Identifier: Apache-2.0
// placement.c: joint placements and body masses changed through the API (seed 001,
// getJointPos_P, getJointOrientation_P, getJointAxis_P; issue 16 item 3), and the lever-arm test
// of a loop constraint against the one joint between its links, which the compiler and the
// loops' attachment share (seed 001: a direction is held when the joint moves the anchors apart
// along it only through a lever arm below 1/1000 of the joint's distance from the anchors).
#include "base/base.h"
#include "base/smath.h"
#include "loops/loops.h"

#include <math.h>
#include <string.h>

// the lever-arm rule's share of the joint's distance from the anchors
#define HOLD_LEVER 1e-3
// a rotation's rows orthonormal and its determinant +1 to this
#define ROT_TOL 1e-9


// ---- the lever-arm test ----

// norm of the part of v along the constrained directions: all of v for a pin (ndir 3), else
// the projection on the one axis or on the plane of the two
static sn_real constrained_part(const sn_real* v, const sn_real* dirs, int ndir) {
    if (ndir >= 3) return v3_norm(v);
    if (ndir == 1) return fabs(v3_dot(v, dirs));
    sn_real n[3], p[3];
    v3_cross(n, dirs, dirs + 3);
    v3_scale(n, n, 1 / v3_norm(n));
    v3_copy(p, v);
    v3_addscl(p, n, -v3_dot(n, v));
    return v3_norm(p);
}

// does one joint hold every constrained direction by itself? o: joint origin, a: unit axis, x:
// anchor, dirs: unit constrained directions, all in one frame fixed to a body next to the joint
// (so the answer is the same at every pose)
static int joint_holds(int type, const sn_real* o, const sn_real* a, const sn_real* x,
                       const sn_real* dirs, int ndir) {
    sn_real r[3], v[3];
    v3_sub(r, x, o);
    sn_real dist = v3_norm(r);
    switch (type) {
    case SN_JOINT_REVOLUTE:
    case SN_JOINT_CONTINUOUS:
        v3_cross(v, a, r);
        return constrained_part(v, dirs, ndir) <= HOLD_LEVER * dist;
    case SN_JOINT_PRISMATIC:
        return constrained_part(a, dirs, ndir) <= HOLD_LEVER;
    case SN_JOINT_SPHERICAL:
        // rotations about the centre move the anchor anywhere across r: only one axis along r
        // (or an anchor at the centre) is held
        if (ndir != 1) return dist == 0;
        v3_cross(v, r, dirs);
        return v3_norm(v) <= HOLD_LEVER * dist;
    default:
        return 0;
    }
}

int sni_constraint_held(const sn_model* m, int i, int* joint) {
    int f1 = m->constraint_frame1[i], f2 = m->constraint_frame2[i];
    int b1 = m->frame_body[f1], b2 = m->frame_body[f2];
    int ndir = m->constraint_type[i] == SN_CONSTRAINT_PIN ? 3 : m->constraint_naxis[i];
    if (b1 == b2) return 1;
    if (m->constraint_type[i] == SN_CONSTRAINT_ORIENTATION) return 0; // a joint never holds one
    const sn_real* r1 = m->frame_rot + 9 * f1;
    sn_real x[3], dirs[6], o[3] = {0, 0, 0}, a[3];
    m3_mul_v3(x, r1, m->constraint_anchor + 3 * i);
    v3_add(x, x, m->frame_pos + 3 * f1);
    for (int k = 0; k < ndir && k < 2; k++)
        m3_mul_v3(dirs + 3 * k, r1, m->constraint_axes + 6 * i + 3 * k);
    int j;
    if (m->body_parent[b2] == b1) {
        // b1 is the parent body: the joint frame is fixed in b1
        j = m->body_joint[b2];
        v3_copy(o, m->joint_pos + 3 * j);
        m3_mul_v3(a, m->joint_rot + 9 * j, m->joint_axis + 3 * j);
    } else if (m->body_parent[b1] == b2) {
        // b1 is the child body: its frame is the joint frame
        j = m->body_joint[b1];
        v3_copy(a, m->joint_axis + 3 * j);
    } else {
        return 0;
    }
    if (!joint_holds(m->joint_type[j], o, a, x, dirs, ndir)) return 0;
    if (joint) *joint = j;
    return 2;
}


// ---- the placements ----

static sn_status check_joint(const sn_model* m, int joint, const char* fn, sn_error* err) {
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "%s: model is NULL", fn);
    if (joint < 0 || joint >= m->njoint)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "%s: joint %d: the model has movable joints 0 to %d", fn, joint,
                         m->njoint - 1);
    return SN_OK;
}

static sn_status check_finite(const sn_real* v, int n, const char* fn, const char* arg,
                              sn_error* err) {
    if (!v) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "%s: %s is NULL", fn, arg);
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return sni_error(err, SN_ERR_NONFINITE, NULL, 0, NULL, "%s: %s[%d] is not finite", fn,
                             arg, i);
    return SN_OK;
}

sn_status sn_model_joint_placement(const sn_model* m, int joint, sn_real pos[3], sn_real rot[9],
                                   sn_real axis[3], sn_error* err) {
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_joint_placement: m is NULL");
    sn_status st = check_joint(m, joint, "sn_model_joint_placement", err);
    if (st != SN_OK) return st;
    if (pos) v3_copy(pos, m->joint_pos + 3 * joint);
    if (rot) memcpy(rot, m->joint_rot + 9 * joint, 9 * sizeof(sn_real));
    if (axis) v3_copy(axis, m->joint_axis + 3 * joint);
    return SN_OK;
}

sn_status sn_model_set_joint_pos(sn_model* m, int joint, const sn_real pos[3], sn_error* err) {
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_joint_pos: m is NULL");
    if (!pos)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_joint_pos: pos is NULL");
    const char* fn = "sn_model_set_joint_pos";
    sn_status st = check_joint(m, joint, fn, err);
    if (st == SN_OK) st = check_finite(pos, 3, fn, "pos", err);
    if (st == SN_OK) v3_copy(m->joint_pos + 3 * joint, pos);
    return st;
}

sn_status sn_model_set_joint_rot(sn_model* m, int joint, const sn_real rot[9], sn_error* err) {
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_joint_rot: m is NULL");
    if (!rot)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_joint_rot: rot is NULL");
    const char* fn = "sn_model_set_joint_rot";
    sn_status st = check_joint(m, joint, fn, err);
    if (st == SN_OK) st = check_finite(rot, 9, fn, "rot", err);
    if (st != SN_OK) return st;
    sn_real worst = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            worst = fmax(worst, fabs(v3_dot(rot + 3 * i, rot + 3 * k) - (i == k)));
    sn_real c[3];
    v3_cross(c, rot, rot + 3);
    sn_real det = v3_dot(c, rot + 6);
    if (worst > ROT_TOL || fabs(det - 1) > ROT_TOL)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "%s: rot is not a rotation: its rows are orthonormal only to %.3g and "
                         "its determinant is %.17g (both to %g)",
                         fn, worst, det, ROT_TOL);
    memcpy(m->joint_rot + 9 * joint, rot, 9 * sizeof(sn_real));
    return SN_OK;
}

sn_status sn_model_set_joint_axis(sn_model* m, int joint, const sn_real axis[3], sn_error* err) {
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_joint_axis: m is NULL");
    if (!axis)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_joint_axis: axis is NULL");
    const char* fn = "sn_model_set_joint_axis";
    sn_status st = check_joint(m, joint, fn, err);
    if (st == SN_OK) st = check_finite(axis, 3, fn, "axis", err);
    if (st != SN_OK) return st;
    int t = m->joint_type[joint];
    if (t != SN_JOINT_REVOLUTE && t != SN_JOINT_CONTINUOUS && t != SN_JOINT_PRISMATIC)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "%s: joint %d is %s: only revolute, continuous and prismatic joints "
                         "have an axis",
                         fn, joint, sn_joint_type_str((sn_joint_type)t));
    sn_real n = v3_norm(axis);
    if (!(n > 0)) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "%s: axis is zero", fn);
    v3_scale(m->joint_axis + 3 * joint, axis, 1 / n);
    return SN_OK;
}


// ---- masses ----

sn_status sn_model_set_body_mass(sn_model* m, int body, sn_real mass, sn_error* err) {
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_model_set_body_mass: m is NULL");
    const char* fn = "sn_model_set_body_mass";
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "%s: model is NULL", fn);
    if (body < 1 || body >= m->nbody)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "%s: body %d: the model's movable bodies are 1 to %d", fn, body,
                         m->nbody - 1);
    if (!isfinite(mass) || !(mass > 0))
        return sni_error(err, isfinite(mass) ? SN_ERR_ARG : SN_ERR_NONFINITE, NULL, 0, NULL,
                         "%s: mass %g: a body's mass is finite and positive", fn, mass);
    m->body_mass[body] = mass;
    // the subtree masses again (parents are numbered before their children)
    for (int b = 0; b < m->nbody; b++)
        m->subtree_mass[b] = m->body_mass[b];
    for (int b = m->nbody - 1; b > 0; b--)
        m->subtree_mass[m->body_parent[b]] += m->subtree_mass[b];
    return SN_OK;
}
