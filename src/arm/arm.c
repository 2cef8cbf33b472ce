// SPDX-License-Identifier: Apache-2.0
// arm.c: the arm component's life (sn_arm.h): built from the seed's parameters (a spec compiled
// into the arm's own model, as src/sim/bodies.c builds free bodies) or from a caller's serial
// chain, its parameters, states and checks. The step is step.c, its solver pgs.c.
#include "arm/arm.h"

#include "math/sym3.h"
#include "model/spec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

sn_status sni_arm_fail(sn_arm* a, sn_status st, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->last_error, sizeof a->last_error, fmt, ap);
    va_end(ap);
    sni_last_error_set(a->last_error);
    if (a->log) a->log(SN_LOG_ERROR, a->last_error, a->log_ctx);
    return st;
}


// ---- the one block of an arm's arrays ----

static size_t layout(sn_arm* a, char* base) {
    carver c = {base, 0};
    size_t n = (size_t)a->n, nb = (size_t)a->m->nbody;
#define CARVE(field, count) a->field = sni_carve(&c, (count), sizeof *a->field)
    CARVE(frame, n);
    CARVE(prismatic, n);
    CARVE(damping, n);
    CARVE(friction, n);
    CARVE(lower, n);
    CARVE(upper, n);
    CARVE(fpos, 3 * n);
    CARVE(frot, 9 * n);
    CARVE(fomega, 3 * n);
    CARVE(theta_prime, n);
    CARVE(theta_star, n);
    CARVE(bias, n);
    CARVE(impulse, n);
    CARVE(Ms, n * n);
    CARVE(Me, n * n);
    CARVE(G, n * n);
    CARVE(B, n * n);
    CARVE(Ainv, n * n);
    CARVE(fac_L, n * n);
    CARVE(fac_D, n);
    CARVE(extra0, 10 * nb);
    CARVE(extra1, 10 * nb);
    CARVE(ext, 6 * nb);
    CARVE(hw, 3 * n);
    CARVE(v, n);
    CARVE(rhs, n);
    CARVE(lam, n);
    CARVE(tmp, n);
    CARVE(q1, n);
    CARVE(u1, n);
    CARVE(stick, n * n + n);
    CARVE(piv, n);
    CARVE(idx, n);
#undef CARVE
    return c.off + 64;
}

static sn_status alloc_arrays(sn_arm* a) {
    size_t bytes = layout(a, NULL);
    char* base = sni_alloc(&a->alloc, bytes);
    if (!base) return SN_ERR_NOMEM;
    memset(base, 0, bytes);
    layout(a, base);
    a->block = base;
    a->block_bytes = bytes;
    return SN_OK;
}


// ---- checks shared by the constructors and setters ----

static sn_status check_finite(sn_arm* a, const char* who, const char* what, const sn_real* x,
                              int n) {
    if (!x) return sni_arm_fail(a, SN_ERR_ARG, "%s: %s is NULL", who, what);
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return sni_arm_fail(a, SN_ERR_NONFINITE, "%s: %s[%d] is not finite", who, what, i);
    return SN_OK;
}

static sn_status check_rotation(sn_arm* a, const char* who, const sn_real* R) {
    for (int i = 0; i < 9; i++)
        if (!isfinite(R[i]))
            return sni_arm_fail(a, SN_ERR_NONFINITE, "%s: rot[%d] is not finite", who, i);
    sn_real err = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            sn_real s = R[i] * R[k] + R[3 + i] * R[3 + k] + R[6 + i] * R[6 + k];
            err = fmax(err, fabs(s - (i == k)));
        }
    sn_real det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                  R[2] * (R[3] * R[7] - R[4] * R[6]);
    if (err > 1e-9 || det < 0)
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: rot is not a rotation (|R^T R - I| = %g, det %g; tolerance 1e-9)",
                            who, err, det);
    return SN_OK;
}

static int all_zero(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] != 0) return 0;
    return 1;
}


// ---- building ----

static sn_arm* arm_new(const sn_world_opts* opts) {
    sn_allocator al = sni_allocator_or_default(opts ? opts->allocator : NULL);
    sn_arm* a = sni_alloc(&al, sizeof *a);
    if (!a) return NULL;
    memset(a, 0, sizeof *a);
    a->alloc = al;
    a->log = opts ? opts->log : NULL;
    a->log_ctx = opts ? opts->log_ctx : NULL;
    v3_set(a->gravity, 0, 0, -9.81);
    m3_identity(a->place_rot);
    a->sweeps = 20;
    return a;
}

void sn_arm_destroy(sn_arm* a) {
    if (!a) return;
    sn_data_destroy(a->d);
    sn_model_destroy(a->owned);
    if (a->block) sni_free(&a->alloc, a->block, a->block_bytes);
    sn_allocator al = a->alloc;
    sni_free(&al, a, sizeof *a);
}

// placement, gravity and sweeps of a desc (validated)
static sn_status apply_desc(sn_arm* a, const sn_arm_desc* desc, const char* who) {
    if (!desc) return SN_OK;
    sn_status st = check_finite(a, who, "placement_pos", desc->placement_pos, 3);
    if (st == SN_OK) st = check_finite(a, who, "gravity", desc->gravity, 3);
    if (st != SN_OK) return st;
    if (!all_zero(desc->placement_rot, 9)) {
        st = check_rotation(a, who, desc->placement_rot);
        if (st != SN_OK) return st;
        memcpy(a->place_rot, desc->placement_rot, sizeof a->place_rot);
    }
    v3_copy(a->place_pos, desc->placement_pos);
    v3_copy(a->gravity, desc->gravity);
    if (desc->sweeps < 0 || desc->sweeps > 100000)
        return sni_arm_fail(a, SN_ERR_ARG, "%s: sweeps = %d is outside 0..100000 (0: 20)", who,
                            desc->sweeps);
    if (desc->sweeps > 0) a->sweeps = desc->sweeps;
    return SN_OK;
}

// the data, the arrays and the frames of a->m; joint k's parameters from the model
static sn_status finish(sn_arm* a, sn_error* err) {
    const sn_model* m = a->m;
    a->n = m->nv;
    sn_data_opts dopts = {&a->alloc, 0};
    sn_status st = sn_data_create(m, &dopts, &a->d, err);
    if (st != SN_OK) return sni_arm_fail(a, st, "%s", err && err->msg[0] ? err->msg : "no data");
    if (alloc_arrays(a) != SN_OK) return sni_arm_fail(a, SN_ERR_NOMEM, "out of memory");
    for (int j = 0; j < m->njoint; j++) {
        int v = m->joint_vadr[j];
        a->prismatic[v] = m->joint_type[j] == SN_JOINT_PRISMATIC;
        a->frame[v] = m->ujoint_child[m->joint_ujoint[j]];
        a->damping[v] = m->dof_damping[v];
        a->friction[v] = m->dof_friction[v];
        a->lower[v] = m->dof_limited[v] ? m->dof_lower[v] : (double)-INFINITY;
        a->upper[v] = m->dof_limited[v] ? m->dof_upper[v] : (double)INFINITY;
        // at rest at 0, or at the stop nearer to it
        a->d->q[m->joint_qadr[j]] = fmin(fmax(0, a->lower[v]), a->upper[v]);
    }
    sn_fk(m, a->d);
    sn_fk_vel(m, a->d);
    sni_arm_frames(a);
    return SN_OK;
}

// the chain a model must be: fixed base, serial, 1-DOF joints, nothing coupling them
static sn_status check_chain(sn_arm* a, const sn_model* m, sn_error* err) {
    const char* who = "sn_arm_from_model";
    const char* bad = NULL;
    if (m->nv < 1)
        bad = "has no movable joint";
    else if (m->nv > SN_ARM_MAX_JOINTS)
        bad = "has more joints than SN_ARM_MAX_JOINTS (256)";
    else if (m->nconstraint > 0)
        bad = "has loop constraints (an arm is a serial chain)";
    else if (m->ntendon > 0)
        bad = "has tendons";
    if (bad) {
        sni_arm_fail(a, SN_ERR_MODEL, "%s: the model %s", who, bad);
        return sni_error(err, SN_ERR_MODEL, NULL, 0, "", "%s", a->last_error);
    }
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], t = m->joint_type[j];
        const char* name = sn_model_name(m, SN_OBJ_JOINT, j);
        if (m->body_parent[b] != b - 1)
            bad = "branches: its bodies are not one chain (an arm is a serial chain)";
        else if (t == SN_JOINT_FLOATING)
            bad = "makes the base floating: an arm's base is fixed (a URDF root link named "
                  "'world', or sn_load_opts base = SN_BASE_FIXED)";
        else if (t == SN_JOINT_SPHERICAL)
            bad = "is spherical: an arm's joints are revolute, continuous or prismatic";
        else if (m->joint_mimic[j] >= 0)
            bad = "is a mimic joint";
        if (bad) {
            sni_arm_fail(a, SN_ERR_MODEL, "%s: joint '%s' %s", who, name ? name : "?", bad);
            return sni_error(err, SN_ERR_MODEL, NULL, 0, "", "%s", a->last_error);
        }
    }
    return SN_OK;
}

sn_status sn_arm_from_model(const sn_model* m, const sn_arm_desc* desc, const sn_world_opts* opts,
                            sn_arm** out, sn_error* err) {
    if (out) *out = NULL;
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_from_model: m is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_from_model: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_from_model: out is NULL");
    *out = NULL;
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_from_model: m is NULL");
    if (desc && (desc->njoint != 0 || desc->joints))
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "sn_arm_from_model: desc->njoint and desc->joints must be 0 and NULL (the "
                         "model gives the joints)");
    sn_arm* a = arm_new(opts);
    if (!a) return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "sn_arm_from_model: no memory");
    a->m = m;
    sn_status st = check_chain(a, m, err);
    if (st == SN_OK) st = apply_desc(a, desc, "sn_arm_from_model");
    if (st == SN_OK) st = finish(a, err);
    if (st != SN_OK) {
        if (err && !err->msg[0]) sni_error(err, st, NULL, 0, "", "%s", a->last_error);
        sn_arm_destroy(a);
        return st;
    }
    *out = a;
    return SN_OK;
}


int sni_arm_inertia_psd(const sn_real I[6], sn_real ev[3]) {
    sn_real full[9] = {I[0], I[1], I[2], I[1], I[3], I[4], I[2], I[4], I[5]};
    sni_sym3_eigenvalues(full, ev);
    return ev[0] >= -1e-12 * fmax(fabs(ev[2]), 1e-300);
}

// joint k's parameters checked (k from 1 in messages)
static sn_status check_joint(sn_arm* a, const sn_arm_joint_desc* j, int k) {
    const char* who = "sn_arm_create";
    if (j->type != 0 && j->type != SN_JOINT_REVOLUTE && j->type != SN_JOINT_CONTINUOUS &&
        j->type != SN_JOINT_PRISMATIC)
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: joint %d: type %d is not revolute, continuous or prismatic", who,
                            k, j->type);
    const sn_real* groups[] = {j->axis, j->origin, j->frame, j->com, j->inertia};
    const char* names[] = {"axis", "origin", "frame", "com", "inertia"};
    const int sizes[] = {3, 3, 3, 3, 6};
    for (int g = 0; g < 5; g++)
        for (int i = 0; i < sizes[g]; i++)
            if (!isfinite(groups[g][i]))
                return sni_arm_fail(a, SN_ERR_NONFINITE, "%s: joint %d: %s[%d] is not finite", who,
                                    k, names[g], i);
    if (!(v3_norm(j->axis) > 1e-12))
        return sni_arm_fail(a, SN_ERR_ARG, "%s: joint %d: axis is zero", who, k);
    const sn_real scal[] = {j->mass, j->armature, j->damping, j->friction};
    const char* snames[] = {"mass", "armature", "damping", "friction"};
    for (int i = 0; i < 4; i++)
        if (!(scal[i] >= 0) || !isfinite(scal[i]))
            return sni_arm_fail(a, SN_ERR_ARG, "%s: joint %d: %s = %g is not finite and >= 0", who,
                                k, snames[i], scal[i]);
    // as a URDF <inertial>: positive semi-definite (a negative principal moment makes M
    // indefinite), and kept by the compiler only with its mass
    sn_real ev[3];
    if (!sni_arm_inertia_psd(j->inertia, ev))
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: joint %d: inertia must be positive semi-definite (eigenvalues %g "
                            "%g %g)",
                            who, k, ev[0], ev[1], ev[2]);
    if (j->mass == 0 && !all_zero(j->inertia, 6))
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: joint %d: mass is zero but the inertia is not (a link's inertia "
                            "needs its mass)",
                            who, k);
    if (j->limited && (isnan(j->lower) || isnan(j->upper) || j->lower > j->upper ||
                       j->lower == (double)INFINITY || j->upper == (double)-INFINITY))
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: joint %d: stops lower = %g, upper = %g are not lower <= upper",
                            who, k, j->lower, j->upper);
    return SN_OK;
}

// the spec of the chain: link "base"; per joint k, link "link_k" on joint "joint_k" (at J_k in
// frame k-1, along a_k) and link "frame_k" (the frame, with the link's inertia) on the fixed
// joint "frame_k_fixed" at K_k in link k
static sn_status fill_spec(sni_spec* s, const sn_arm_desc* desc, sn_error* err) {
    char name[64];
    sni_link* l = sni_buf_grow(&s->links, sizeof *l);
    if (!l) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    memset(l, 0, sizeof *l);
    l->name = sni_spec_name(s, "base");
    l->line = 1;
    long parent = l->name;
    for (int k = 1; k <= desc->njoint; k++) {
        const sn_arm_joint_desc* jd = &desc->joints[k - 1];
        long lname, fname;
        for (int part = 0; part < 2; part++) {
            l = sni_buf_grow(&s->links, sizeof *l);
            if (!l) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
            memset(l, 0, sizeof *l);
            snprintf(name, sizeof name, part ? "frame_%d" : "link_%d", k);
            l->name = sni_spec_name(s, name);
            l->line = 1;
            if (part) {
                l->has_inertial = jd->mass > 0 || !all_zero(jd->inertia, 6);
                l->inertial_line = 1;
                l->mass = jd->mass;
                v3_copy(l->com, jd->com);
                const sn_real* I = jd->inertia; // xx xy xz yy yz zz
                sn_real full[9] = {I[0], I[1], I[2], I[1], I[3], I[4], I[2], I[4], I[5]};
                memcpy(l->inertia, full, sizeof full);
                fname = l->name;
            } else {
                lname = l->name;
            }
        }
        for (int part = 0; part < 2; part++) {
            sni_joint* j = sni_buf_grow(&s->joints, sizeof *j);
            if (!j) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
            memset(j, 0, sizeof *j);
            snprintf(name, sizeof name, part ? "frame_%d_fixed" : "joint_%d", k);
            j->name = sni_spec_name(s, name);
            j->line = 1;
            j->mimic_name = -1;
            j->lower = (double)-INFINITY;
            j->upper = (double)INFINITY;
            j->effort = j->velocity = (double)INFINITY;
            m3_identity(j->rot);
            j->parent = j->child = -1;
            if (part) {
                j->type = SN_JOINT_FIXED;
                j->parent_name = lname;
                j->child_name = fname;
                v3_copy(j->pos, jd->frame);
                v3_set(j->axis, 1, 0, 0);
            } else {
                j->type = jd->type == SN_JOINT_PRISMATIC    ? SN_JOINT_PRISMATIC
                          : jd->type == SN_JOINT_CONTINUOUS ? SN_JOINT_CONTINUOUS
                                                            : SN_JOINT_REVOLUTE;
                j->parent_name = parent;
                j->child_name = lname;
                v3_copy(j->pos, jd->origin);
                v3_scale(j->axis, jd->axis, 1 / v3_norm(jd->axis));
                j->damping = jd->damping;
                j->friction = jd->friction;
                j->armature = jd->armature;
                if (jd->limited) {
                    j->has_limit = j->has_lower = j->has_upper = 1;
                    j->lower = jd->lower;
                    j->upper = jd->upper;
                }
            }
        }
        parent = fname;
    }
    if (s->names.failed) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    return SN_OK;
}

sn_status sn_arm_create(const sn_arm_desc* desc, const sn_world_opts* opts, sn_arm** out,
                        sn_error* err) {
    if (out) *out = NULL;
    if (!desc) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_create: desc is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_create: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_create: out is NULL");
    *out = NULL;
    if (!desc) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_create: desc is NULL");
    if (desc->njoint < 1 || desc->njoint > SN_ARM_MAX_JOINTS)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL,
                         "sn_arm_create: njoint = %d is outside 1..%d", desc->njoint,
                         SN_ARM_MAX_JOINTS);
    if (!desc->joints)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_arm_create: joints is NULL");
    sn_arm* a = arm_new(opts);
    if (!a) return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "sn_arm_create: no memory");
    sn_status st = apply_desc(a, desc, "sn_arm_create");
    for (int k = 0; st == SN_OK && k < desc->njoint; k++)
        st = check_joint(a, &desc->joints[k], k + 1);
    // every joint must move some mass or inertia (the compiler checks the inertia about the axis)
    int moved = 0;
    for (int k = desc->njoint - 1; st == SN_OK && k >= 0; k--) {
        const sn_arm_joint_desc* jd = &desc->joints[k];
        moved |= jd->mass > 0 || !all_zero(jd->inertia, 6) || jd->armature > 0;
        if (!moved)
            st = sni_arm_fail(a, SN_ERR_ARG,
                              "sn_arm_create: joint %d moves no mass or inertia (links %d..%d have "
                              "none): give them mass and inertia (a carried inertia C is added to "
                              "the links', it does not replace them)",
                              k + 1, k + 1, desc->njoint);
    }
    if (st == SN_OK) {
        sni_spec s;
        sni_spec_init(&s, &a->alloc, "arm");
        s.base = SN_BASE_FIXED;
        s.log = a->log;
        s.log_ctx = a->log_ctx;
        sn_error e;
        memset(&e, 0, sizeof e);
        st = fill_spec(&s, desc, &e);
        if (st == SN_OK) st = sni_compile(&s, &a->alloc, &a->owned, &e);
        sni_spec_free(&s);
        if (st != SN_OK) sni_arm_fail(a, st, "sn_arm_create: %s", e.msg);
        a->m = a->owned;
    }
    if (st == SN_OK) st = finish(a, err);
    if (st != SN_OK) {
        if (err && !err->msg[0]) sni_error(err, st, NULL, 0, "", "%s", a->last_error);
        sn_arm_destroy(a);
        return st;
    }
    // frame k is the fixed link "frame_k", not the joint's child "link_k"
    for (int k = 1; k <= a->n; k++) {
        char name[64];
        snprintf(name, sizeof name, "frame_%d", k);
        a->frame[k - 1] = sn_model_find(a->m, SN_OBJ_FRAME, name);
    }
    sni_arm_frames(a);
    *out = a;
    return SN_OK;
}


// ---- frames ----

void sni_arm_frames(sn_arm* a) {
    const sn_model* m = a->m;
    const sn_data* d = a->d;
    for (int k = 0; k < a->n; k++) {
        sn_real p[3], R[9], lin[3], w[3];
        sn_frame_pose(m, d, a->frame[k], p, R);
        sn_frame_velocity(m, d, a->frame[k], lin, w);
        m3_mul_v3(a->fpos + 3 * k, a->place_rot, p);
        v3_addscl(a->fpos + 3 * k, a->place_pos, 1);
        m3_mul(a->frot + 9 * k, a->place_rot, R);
        m3_mul_v3(a->fomega + 3 * k, a->place_rot, w);
    }
}


// ---- getters and setters ----

const char* sn_arm_last_error(const sn_arm* a) {
    return a ? a->last_error : "sn_arm_last_error: arm is NULL";
}
int sn_arm_joint_count(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_joint_count: arm is NULL");
        return SN_NONE;
    }
    return a ? a->n : 0;
}
const sn_model* sn_arm_model(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_model: arm is NULL");
        return NULL;
    }
    return a ? a->m : NULL;
}
int sn_arm_frame_id(const sn_arm* a, int k) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_frame_id: arm is NULL");
        return SN_NONE;
    }
    if (k < 1 || k > a->n) {
        sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_frame_id: k %d is out of range (1 to %d)", k,
                     a->n);
        return SN_NONE;
    }
    return a->frame[k - 1];
}
const sn_real* sn_arm_q(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_q: arm is NULL");
        return NULL;
    }
    return a ? a->d->q : NULL;
}
const sn_real* sn_arm_qd(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_qd: arm is NULL");
        return NULL;
    }
    return a ? a->d->u : NULL;
}
const sn_real* sn_arm_frame_pos(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_frame_pos: arm is NULL");
        return NULL;
    }
    return a ? a->fpos : NULL;
}
const sn_real* sn_arm_frame_rot(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_frame_rot: arm is NULL");
        return NULL;
    }
    return a ? a->frot : NULL;
}
const sn_real* sn_arm_frame_omega(const sn_arm* a) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_frame_omega: arm is NULL");
        return NULL;
    }
    return a ? a->fomega : NULL;
}

sn_status sn_arm_set_state(sn_arm* a, const sn_real* q, int nq, const sn_real* qd, int nqd) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_state: arm is NULL");
    const char* who = "sn_arm_set_state";
    if (q && nq != a->n)
        return sni_arm_fail(a, SN_ERR_ARG, "%s: nq %d: q has that many entries, the arm %d joints",
                            who, nq, a->n);
    if (qd && nqd != a->n)
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: nqd %d: qd has that many entries, the arm %d joints", who, nqd,
                            a->n);
    sn_status st = q ? check_finite(a, who, "q", q, a->n) : SN_OK;
    if (st == SN_OK && qd) st = check_finite(a, who, "qd", qd, a->n);
    if (st != SN_OK) return st;
    for (int i = 0; q && i < a->n; i++)
        if (q[i] < a->lower[i] || q[i] > a->upper[i])
            return sni_arm_fail(a, SN_ERR_ARG, "%s: q[%d] = %g is outside the stops %g .. %g", who,
                                i, q[i], a->lower[i], a->upper[i]);
    if (q) memcpy(a->d->q, q, (size_t)a->n * sizeof(sn_real));
    if (qd) memcpy(a->d->u, qd, (size_t)a->n * sizeof(sn_real));
    sn_fk(a->m, a->d);
    sn_fk_vel(a->m, a->d);
    sni_arm_frames(a);
    return SN_OK;
}

sn_status sn_arm_set_gravity(sn_arm* a, const sn_real g[3]) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_gravity: arm is NULL");
    if (!g) return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_set_gravity: g is NULL");
    sn_status st = check_finite(a, "sn_arm_set_gravity", "g", g, 3);
    if (st == SN_OK) v3_copy(a->gravity, g);
    return st;
}
void sn_arm_gravity(const sn_arm* a, sn_real g[3]) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_gravity: arm is NULL");
        return;
    }
    if (!g) {
        sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_gravity: g is NULL");
        return;
    }
    if (a && g) v3_copy(g, a->gravity);
}

sn_status sn_arm_set_placement(sn_arm* a, const sn_real pos[3], const sn_real rot[9]) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_placement: arm is NULL");
    if (!pos) return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_set_placement: pos is NULL");
    const char* who = "sn_arm_set_placement";
    sn_status st = check_finite(a, who, "pos", pos, 3);
    if (st == SN_OK && rot) st = check_rotation(a, who, rot);
    if (st != SN_OK) return st;
    v3_copy(a->place_pos, pos);
    if (rot)
        memcpy(a->place_rot, rot, sizeof a->place_rot);
    else
        m3_identity(a->place_rot);
    sni_arm_frames(a);
    return SN_OK;
}

static sn_status check_params(sn_arm* a, const char* who, const char* what, const sn_real* x,
                              int n) {
    if (n != a->n)
        return sni_arm_fail(a, SN_ERR_ARG, "%s: n %d: %s has that many entries, the arm %d joints",
                            who, n, what, a->n);
    sn_status st = check_finite(a, who, what, x, n);
    for (int i = 0; st == SN_OK && i < n; i++)
        if (x[i] < 0)
            return sni_arm_fail(a, SN_ERR_ARG, "%s: %s[%d] = %g is negative", who, what, i, x[i]);
    return st;
}

sn_status sn_arm_set_damping(sn_arm* a, const sn_real* damping, int n) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_damping: arm is NULL");
    if (!damping)
        return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_set_damping: damping is NULL");
    sn_status st = check_params(a, "sn_arm_set_damping", "damping", damping, n);
    if (st == SN_OK) memcpy(a->damping, damping, (size_t)n * sizeof(sn_real));
    return st;
}

sn_status sn_arm_set_friction(sn_arm* a, const sn_real* friction, int n) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_friction: arm is NULL");
    if (!friction)
        return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_set_friction: friction is NULL");
    sn_status st = check_params(a, "sn_arm_set_friction", "friction", friction, n);
    if (st == SN_OK) memcpy(a->friction, friction, (size_t)n * sizeof(sn_real));
    return st;
}

sn_status sn_arm_set_stops(sn_arm* a, const sn_real* lower, const sn_real* upper, int n) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_stops: arm is NULL");
    if (!lower) return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_set_stops: lower is NULL");
    if (!upper) return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_set_stops: upper is NULL");
    const char* who = "sn_arm_set_stops";
    if (n != a->n)
        return sni_arm_fail(a, SN_ERR_ARG,
                            "%s: n %d: lower and upper have that many entries, the arm %d joints",
                            who, n, a->n);
    if (!lower || !upper)
        return sni_arm_fail(a, SN_ERR_ARG, "%s: %s is NULL", who, lower ? "upper" : "lower");
    for (int i = 0; i < n; i++) {
        if (isnan(lower[i]) || isnan(upper[i]) || lower[i] > upper[i] ||
            lower[i] == (double)INFINITY || upper[i] == (double)-INFINITY)
            return sni_arm_fail(a, SN_ERR_ARG, "%s: joint %d: lower = %g, upper = %g", who, i + 1,
                                lower[i], upper[i]);
        sn_real q = a->d->q[i];
        if (q < lower[i] || q > upper[i])
            return sni_arm_fail(a, SN_ERR_ARG,
                                "%s: joint %d is at %g, outside the stops %g .. %g (move it first)",
                                who, i + 1, q, lower[i], upper[i]);
    }
    memcpy(a->lower, lower, (size_t)n * sizeof(sn_real));
    memcpy(a->upper, upper, (size_t)n * sizeof(sn_real));
    return SN_OK;
}

sn_status sn_arm_set_sweeps(sn_arm* a, int sweeps) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_set_sweeps: arm is NULL");
    if (sweeps < 1 || sweeps > 100000)
        return sni_arm_fail(a, SN_ERR_ARG, "sn_arm_set_sweeps: sweeps = %d is outside 1..100000",
                            sweeps);
    a->sweeps = sweeps;
    return SN_OK;
}

void sn_arm_params(const sn_arm* a, sn_real* damping, sn_real* friction, sn_real* lower,
                   sn_real* upper, int* sweeps) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_params: arm is NULL");
        return;
    }
    size_t b = (size_t)a->n * sizeof(sn_real);
    if (damping) memcpy(damping, a->damping, b);
    if (friction) memcpy(friction, a->friction, b);
    if (lower) memcpy(lower, a->lower, b);
    if (upper) memcpy(upper, a->upper, b);
    if (sweeps) *sweeps = a->sweeps;
}

void sn_arm_report_get(const sn_arm* a, sn_arm_report* r) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_report_get: arm is NULL");
        return;
    }
    if (!r) {
        sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_report_get: r is NULL");
        return;
    }
    memset(r, 0, sizeof *r);
    if (!a || !a->stepped) return;
    r->theta_prime = a->theta_prime;
    r->theta_star = a->theta_star;
    r->bias = a->bias;
    r->impulse = a->impulse;
    r->sweeps = a->rep_sweeps;
    r->stuck_start = a->rep_stuck;
    r->energy_star = a->rep_e_star;
    r->energy_end = a->rep_e_end;
}
