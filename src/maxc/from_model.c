// SPDX-License-Identifier: Apache-2.0
// from_model.c: any compiled model in maximal coordinates (docs/constraints.md, "Any model in
// maximal coordinates"). One body per model body (links merged by fixed joints are one body
// already), placed by the model's forward kinematics; one constraint per movable joint between
// its parent and child bodies (the world for body 0: a fixed base and the links welded to it are
// the model's body 0); mimic joints as gears; the model's loops as balls, welds, planes or
// lines. sn_maximal_joint_state reads the joint coordinates back from the bodies' relative
// poses. Built on the public API of sn_maximal only, plus the model map of maxc.h.
#include "base/smath.h"
#include "maxc/maxc.h"
#include "sinew/sn_data.h"
#include "sinew/sn_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

// ---- small geometry ----

// a right-handed frame whose first column is the unit vector a (row-major, columns the axes)
static void frame_of_axis(sn_real* Q, const sn_real* a) {
    sn_real e[3] = {0, 0, 0}, t1[3], t2[3];
    int k = fabs(a[0]) <= fabs(a[1]) && fabs(a[0]) <= fabs(a[2]) ? 0
            : fabs(a[1]) <= fabs(a[2])                           ? 1
                                                                 : 2;
    e[k] = 1;
    v3_cross(t1, a, e);
    v3_scale(t1, t1, 1 / v3_norm(t1));
    v3_cross(t2, a, t1);
    for (int i = 0; i < 3; i++)
        Q[3 * i] = a[i], Q[3 * i + 1] = t1[i], Q[3 * i + 2] = t2[i];
}

// the angle nearest to ref that differs from a by a whole number of turns
static sn_real unwrap(sn_real a, sn_real ref) {
    return a + 2 * PI * floor((ref - a) / (2 * PI) + 0.5);
}

// the quaternion of R with the sign of ref (dot product >= 0)
static void quat_near(sn_real* q, const sn_real* R, const sn_real* ref) {
    m3_to_quat(q, R);
    sn_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    sn_real s = q[0] * ref[0] + q[1] * ref[1] + q[2] * ref[2] + q[3] * ref[3] < 0 ? -1 / n : 1 / n;
    for (int k = 0; k < 4; k++)
        q[k] *= s;
}

// a point given in link frame f (its body b's link) in b's maximal frame: from the COM, body
// axes; for the world (b = 0) in world coordinates
static void link_point(const sn_model* m, int f, const sn_real* local, sn_real* out) {
    int b = m->frame_body[f];
    m3_mul_v3(out, m->frame_rot + 9 * f, local);
    v3_add(out, out, m->frame_pos + 3 * f);
    if (b > 0) v3_sub(out, out, m->body_com + 3 * b);
}

// ---- the model map ----

void sni_maxc_model_free(sn_maximal* mx) {
    if (!mx) return;
    size_t nb = (size_t)mx->map_nlink, nj = (size_t)mx->map_njoint, nq = (size_t)mx->map_nq;
    sni_free(&mx->al, mx->link_body, nb * sizeof(int));
    sni_free(&mx->al, mx->link_off, 3 * nb * sizeof(sn_real));
    sni_free(&mx->al, mx->joint_con, nj * sizeof(int));
    sni_free(&mx->al, mx->joint_qref, nq * sizeof(sn_real));
    mx->link_body = mx->joint_con = NULL;
    mx->link_off = mx->joint_qref = NULL;
    mx->model = NULL;
    mx->map_nlink = mx->map_njoint = mx->map_nq = 0;
}

static sn_status map_alloc(sn_maximal* mx, const sn_model* m) {
    size_t nb = (size_t)m->nbody, nj = (size_t)m->njoint, nq = (size_t)m->nq;
    mx->map_nlink = m->nbody, mx->map_njoint = m->njoint, mx->map_nq = m->nq;
    mx->link_body = sni_alloc(&mx->al, nb * sizeof(int));
    mx->link_off = sni_alloc(&mx->al, 3 * nb * sizeof(sn_real));
    mx->joint_con = sni_alloc(&mx->al, (nj ? nj : 1) * sizeof(int));
    mx->joint_qref = sni_alloc(&mx->al, (nq ? nq : 1) * sizeof(sn_real));
    if (!nj) mx->map_njoint = 1;
    if (!nq) mx->map_nq = 1;
    if (!mx->link_body || !mx->link_off || !mx->joint_con || !mx->joint_qref) return SN_ERR_NOMEM;
    return SN_OK;
}

// ---- building ----

typedef struct build {
    const sn_model* m;
    sn_data* d;
    sn_maximal* mx;
    const sn_world_opts* opts;
    sn_error* err;
    sn_real* anchor2; // the loops' body2 points, link frame 2, at the nominal configuration
    sn_real* rot2;    // their orientation constraints' link 2 in link 1, likewise
} build;

static void warn(const build* b, const char* fmt, ...) {
    if (!b->opts || !b->opts->log) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    b->opts->log(SN_LOG_WARNING, msg, b->opts->log_ctx);
}

// the maximal body of model body b, -1 for the world
static int mbody(const build* b, int body) {
    return body > 0 ? b->mx->link_body[body] : -1;
}

static sn_status refuse(const build* b, sn_status st, const char* what) {
    return sni_error(b->err, st, NULL, 0, NULL, "sn_maximal_from_model: %s: %s", what,
                     sn_maximal_last_error(b->mx));
}

// every body of the model (but the world) a maximal body at the FK state
static sn_status add_bodies(build* b) {
    const sn_model* m = b->m;
    const sn_data* d = b->d;
    for (int i = 1; i < m->nbody; i++) {
        const sn_real* I = m->body_inertia + 9 * i;
        sn_real in6[6] = {I[0], I[1], I[2], I[4], I[5], I[8]};
        const char* name = sn_model_name(m, SN_OBJ_BODY, i);
        if (!(m->body_mass[i] > 0))
            return sni_error(b->err, SN_ERR_MODEL, NULL, 0, NULL,
                             "sn_maximal_from_model: body '%s' has mass %g: every body in maximal "
                             "coordinates needs a mass > 0 and a positive definite inertia%s",
                             name, m->body_mass[i],
                             m->format == SN_FORMAT_MJCF
                                 ? " (an MJCF body with several joints is a chain of massless "
                                   "links: not yet in maximal coordinates)"
                                 : "");
        int id;
        char what[160];
        snprintf(what, sizeof what, "body '%s'", name);
        if (sn_maximal_add_body(b->mx, m->body_mass[i], in6, &id) != SN_OK)
            return refuse(b, SN_ERR_MODEL, what);
        b->mx->link_body[i] = id;
        v3_scale(b->mx->link_off + 3 * i, m->body_com + 3 * i, -1);
        // the COM's velocity from the spatial velocity (w, v0) at the world origin
        const sn_real* sv = d->body_vel + 6 * i;
        const sn_real* x = d->body_com + 3 * i;
        sn_real quat[4], one[4] = {1, 0, 0, 0}, v[3];
        quat_near(quat, d->body_rot + 9 * i, one);
        v3_cross(v, sv, x);
        v3_add(v, v, sv + 3);
        if (sn_maximal_set_body_state(b->mx, id, x, quat, v, sv) != SN_OK)
            return refuse(b, SN_ERR_ARG, what);
    }
    return SN_OK;
}

// movable joint j as a constraint between its parent (b) and child (a) bodies
static sn_status add_joint(build* b, int j) {
    const sn_model* m = b->m;
    int child = m->joint_body[j], parent = m->body_parent[child], type = m->joint_type[j];
    b->mx->joint_con[j] = -1;
    if (type == SN_JOINT_FLOATING) return SN_OK;
    sn_constraint_desc c;
    memset(&c, 0, sizeof c);
    c.kind = type == SN_JOINT_PRISMATIC   ? SN_CONSTRAINT_SLIDER
             : type == SN_JOINT_SPHERICAL ? SN_CONSTRAINT_BALL
                                          : SN_CONSTRAINT_HINGE;
    c.body_a = mbody(b, child);
    c.body_b = mbody(b, parent);
    // the joint frame's origin is the child body's frame origin, and its axes the child's at the
    // joint's zero; in the parent it sits at joint_pos, turned by joint_rot
    v3_scale(c.anchor_a, m->body_com + 3 * child, -1);
    v3_copy(c.anchor_b, m->joint_pos + 3 * j);
    if (parent > 0) v3_sub(c.anchor_b, c.anchor_b, m->body_com + 3 * parent);
    sn_real P[9];
    if (type == SN_JOINT_SPHERICAL)
        m3_identity(P);
    else
        frame_of_axis(P, m->joint_axis + 3 * j);
    memcpy(c.frame_a, P, sizeof P);
    m3_mul(c.frame_b, m->joint_rot + 9 * j, P);
    char what[160];
    snprintf(what, sizeof what, "joint '%s'", sn_model_name(m, SN_OBJ_JOINT, j));
    if (sn_maximal_add_constraint(b->mx, &c, &b->mx->joint_con[j]) != SN_OK)
        return refuse(b, SN_ERR_MODEL, what);
    return SN_OK;
}

// a URDF mimic joint: a gear between its constraint and its leader's
static sn_status add_mimic(build* b, int j) {
    const sn_model* m = b->m;
    int lead = m->joint_mimic[j];
    const char* name = sn_model_name(m, SN_OBJ_JOINT, j);
    if (lead < 0) return SN_OK;
    if (m->joint_nv[j] != 1 || m->joint_nv[lead] != 1 || m->joint_mimic_multiplier[j] == 0)
        return sni_error(b->err, SN_ERR_MODEL, NULL, 0, NULL,
                         "sn_maximal_from_model: mimic joint '%s': a gear needs two 1-DOF joints "
                         "and a nonzero multiplier",
                         name);
    sn_constraint_desc c;
    memset(&c, 0, sizeof c);
    c.kind = SN_CONSTRAINT_GEAR;
    c.body_a = mbody(b, m->joint_body[j]);
    c.body_b = mbody(b, m->joint_body[lead]);
    c.joint_a = b->mx->joint_con[j];
    c.joint_b = b->mx->joint_con[lead];
    // a gear's coordinates are b's frame in a's (gear.c): with a the child and b the parent,
    // minus the joints' q; q_j - r q_lead = c is then -(coord_a) + r coord_b = c
    c.ratio = m->joint_mimic_multiplier[j];
    c.offset = -m->joint_mimic_offset[j];
    char what[160];
    snprintf(what, sizeof what, "mimic joint '%s' (a gear)", name);
    int id;
    if (sn_maximal_add_constraint(b->mx, &c, &id) != SN_OK) return refuse(b, SN_ERR_MODEL, what);
    return SN_OK;
}

// the loops' body2 points and orientations at the nominal configuration (as the articulated
// system attaches them: src/loops/rows.c)
static sn_status loop_references(build* b) {
    const sn_model* m = b->m;
    sn_data* d = b->d;
    const sn_real* q = m->nominal_config ? m->nominal_config : m->q0;
    sn_status st = sn_set_state(m, d, q, m->nq, NULL, 0);
    if (st == SN_OK) st = sn_fk(m, d);
    if (st != SN_OK)
        return sni_error(b->err, st, NULL, 0, NULL,
                         "sn_maximal_from_model: the model's nominal configuration: %s",
                         sn_status_str(st));
    for (int c = 0; c < m->nconstraint; c++) {
        int f1 = m->constraint_frame1[c], f2 = m->constraint_frame2[c];
        sn_real p1[3], R1[9], p2[3], R2[9], t[3];
        sn_frame_pose(m, d, f1, p1, R1);
        sn_frame_pose(m, d, f2, p2, R2);
        if (!isnan(m->constraint_rot2[9 * c]))
            memcpy(b->rot2 + 9 * c, m->constraint_rot2 + 9 * c, 9 * sizeof(sn_real));
        else
            m3t_mul(b->rot2 + 9 * c, R1, R2);
        if (!isnan(m->constraint_anchor2[3 * c])) {
            v3_copy(b->anchor2 + 3 * c, m->constraint_anchor2 + 3 * c);
            continue;
        }
        m3_mul_v3(t, R1, m->constraint_anchor + 3 * c);
        v3_add(t, t, p1);
        v3_sub(t, t, p2);
        m3t_mul_v3(b->anchor2 + 3 * c, R2, t);
    }
    return SN_OK;
}

// loop constraint c (and c + 1 when it is the orientation half of a weld): a pin a ball, a pin
// and an orientation on the same links a weld, an equality along one axis a point on a plane,
// along two a point on a line. Returns the constraints used (1 or 2) or -1 (err filled)
static int add_loop(build* b, int c) {
    const sn_model* m = b->m;
    int f1 = m->constraint_frame1[c], f2 = m->constraint_frame2[c], type = m->constraint_type[c];
    int b1 = m->frame_body[f1], b2 = m->frame_body[f2], used = 1;
    sn_constraint_desc k;
    memset(&k, 0, sizeof k);
    sn_real p1[3], p2[3];
    link_point(m, f1, m->constraint_anchor + 3 * c, p1);
    link_point(m, f2, b->anchor2 + 3 * c, p2);
    int weld = type == SN_CONSTRAINT_PIN && c + 1 < m->nconstraint &&
               m->constraint_type[c + 1] == SN_CONSTRAINT_ORIENTATION &&
               m->constraint_frame1[c + 1] == f1 && m->constraint_frame2[c + 1] == f2;
    if (b1 == b2) {
        warn(b, "sn_maximal_from_model: loop constraint %d joins two links of one body: ignored",
             c);
        return weld ? 2 : 1;
    }
    if (type == SN_CONSTRAINT_PIN) {
        k.kind = weld ? SN_CONSTRAINT_WELD : SN_CONSTRAINT_BALL;
        if (weld) {
            // aligned when R1 rot2 = R2: frame a = link 1's axes turned by rot2, frame b link 2's
            m3_mul(k.frame_a, m->frame_rot + 9 * f1, b->rot2 + 9 * (c + 1));
            memcpy(k.frame_b, m->frame_rot + 9 * f2, 9 * sizeof(sn_real));
            used = 2;
        }
        k.body_a = mbody(b, b1), k.body_b = mbody(b, b2);
        v3_copy(k.anchor_a, p1), v3_copy(k.anchor_b, p2);
        if (k.body_a < 0) {
            // the world on side b
            sn_real F[9];
            k.body_a = k.body_b, k.body_b = -1;
            v3_copy(k.anchor_a, p2), v3_copy(k.anchor_b, p1);
            memcpy(F, k.frame_a, sizeof F);
            memcpy(k.frame_a, k.frame_b, sizeof F);
            memcpy(k.frame_b, F, sizeof F);
        }
    } else if (type == SN_CONSTRAINT_EQUALITY) {
        // a_i . (p1 - p2) = 0 with a_i fixed in link 1: body2's point on body1's plane or line
        const sn_real* ax = m->constraint_axes + 6 * c;
        sn_real n[3], Q[9];
        if (m->constraint_naxis[c] == 1) {
            k.kind = SN_CONSTRAINT_PLANE;
            v3_copy(n, ax);
        } else {
            k.kind = SN_CONSTRAINT_LINE;
            v3_cross(n, ax, ax + 3);
        }
        sn_real len = v3_norm(n);
        if (b2 == 0 || !(len > 1e-9)) {
            sni_error(b->err, SN_ERR_MODEL, NULL, 0, NULL,
                      "sn_maximal_from_model: loop constraint %d (an equality): %s", c,
                      b2 == 0 ? "its body2 is the world: no maximal kind holds a world point on "
                                "a body's plane or line yet"
                              : "its two axes are parallel");
            return -1;
        }
        v3_scale(n, n, 1 / len);
        frame_of_axis(Q, n);
        m3_mul(k.frame_b, m->frame_rot + 9 * f1, Q);
        k.body_a = mbody(b, b2), k.body_b = mbody(b, b1);
        v3_copy(k.anchor_a, p2), v3_copy(k.anchor_b, p1);
    } else {
        sni_error(b->err, SN_ERR_MODEL, NULL, 0, NULL,
                  "sn_maximal_from_model: loop constraint %d: an orientation constraint without a "
                  "pin on the same links before it has no maximal-coordinate kind yet",
                  c);
        return -1;
    }
    if (k.body_a < 0) {
        warn(b, "sn_maximal_from_model: loop constraint %d joins the world to itself: ignored", c);
        return used;
    }
    char what[96];
    snprintf(what, sizeof what, "loop constraint %d", c);
    int id;
    if (sn_maximal_add_constraint(b->mx, &k, &id) != SN_OK) {
        refuse(b, SN_ERR_MODEL, what);
        return -1;
    }
    return used;
}

// what the standalone system leaves out, said once per kind
static void warn_unsupported(const build* b) {
    const sn_model* m = b->m;
    int limited = 0, damped = 0, friction = 0, spring = 0, armature = 0;
    for (int i = 0; i < m->nv; i++) {
        limited += m->dof_limited[i] != 0;
        damped += m->dof_damping[i] != 0;
        friction += m->dof_friction[i] != 0;
        spring += m->dof_stiffness[i] != 0;
        armature += m->dof_armature[i] != 0;
    }
    const char* name[] = {"position limits", "damping", "friction", "springs", "rotor inertia"};
    int n[] = {limited, damped, friction, spring, armature};
    for (int k = 0; k < 5; k++)
        if (n[k])
            warn(b,
                 "sn_maximal_from_model: %d joint degrees of freedom have %s: not simulated in "
                 "maximal coordinates (the bodies and their constraints only)",
                 n[k], name[k]);
    if (m->nactuator)
        warn(b,
             "sn_maximal_from_model: the model's %d actuators are not simulated in maximal "
             "coordinates",
             m->nactuator);
}

static sn_status check_args(const sn_model* m, const sn_real* q, const sn_real* u, sn_maximal** out,
                            sn_error* err) {
    if (!out)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_maximal_from_model: out is NULL");
    *out = NULL;
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_maximal_from_model: m is NULL");
    for (int i = 0; q && i < m->nq; i++)
        if (!isfinite(q[i]))
            return sni_error(err, SN_ERR_NONFINITE, NULL, 0, NULL,
                             "sn_maximal_from_model: q[%d] is not finite", i);
    for (int i = 0; u && i < m->nv; i++)
        if (!isfinite(u[i]))
            return sni_error(err, SN_ERR_NONFINITE, NULL, 0, NULL,
                             "sn_maximal_from_model: u[%d] is not finite", i);
    for (int j = 0; j < m->njoint; j++)
        if (m->joint_type[j] == SN_JOINT_FLOATING && m->body_parent[m->joint_body[j]] != 0)
            return sni_error(err, SN_ERR_MODEL, NULL, 0, NULL,
                             "sn_maximal_from_model: floating joint '%s' below another body",
                             sn_model_name(m, SN_OBJ_JOINT, j));
    return SN_OK;
}

static sn_status build_all(build* b, const sn_real* q, const sn_real* u) {
    const sn_model* m = b->m;
    sn_status st = SN_OK;
    if (m->nconstraint) st = loop_references(b);
    if (st == SN_OK) st = sn_set_state(m, b->d, q ? q : m->q0, m->nq, u, m->nv);
    if (st == SN_OK) st = sn_fk(m, b->d);
    if (st == SN_OK) st = sn_fk_vel(m, b->d);
    if (st != SN_OK)
        return sni_error(b->err, st, NULL, 0, NULL, "sn_maximal_from_model: the state (q, u): %s",
                         sn_status_str(st));
    memcpy(b->mx->joint_qref, b->d->q, (size_t)m->nq * sizeof(sn_real));
    b->mx->link_body[0] = -1;
    st = add_bodies(b);
    for (int j = 0; st == SN_OK && j < m->njoint; j++)
        st = add_joint(b, j);
    for (int j = 0; st == SN_OK && j < m->njoint; j++)
        st = add_mimic(b, j);
    for (int c = 0; st == SN_OK && c < m->nconstraint;) {
        int used = add_loop(b, c);
        if (used < 0) return b->err ? b->err->code : SN_ERR_MODEL;
        c += used;
    }
    if (st == SN_OK) warn_unsupported(b);
    return st;
}

sn_status sn_maximal_from_model(const sn_model* m, const sn_real* q, const sn_real* u,
                                const sn_world_opts* opts, sn_maximal** out, sn_error* err) {
    if (out) *out = NULL;
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_maximal_from_model: m is NULL");
    if (!out)
        return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_maximal_from_model: out is NULL");
    sn_status st = check_args(m, q, u, out, err);
    if (st != SN_OK) return st;
    sn_error tmp;
    if (!err) err = &tmp;
    build b;
    memset(&b, 0, sizeof b);
    b.m = m, b.opts = opts, b.err = err;
    sn_data_opts dopts = {opts ? opts->allocator : NULL, 0};
    st = sn_data_create(m, &dopts, &b.d, err);
    if (st == SN_OK) st = sn_maximal_create(opts, &b.mx, err);
    if (st == SN_OK) st = map_alloc(b.mx, m);
    size_t nc = (size_t)(m->nconstraint ? m->nconstraint : 1);
    if (st == SN_OK) {
        b.anchor2 = sni_alloc(&b.mx->al, 3 * nc * sizeof(sn_real));
        b.rot2 = sni_alloc(&b.mx->al, 9 * nc * sizeof(sn_real));
        if (!b.anchor2 || !b.rot2) st = SN_ERR_NOMEM;
        if (st != SN_OK) sni_error(err, st, NULL, 0, NULL, "sn_maximal_from_model: out of memory");
    }
    if (st == SN_OK) st = build_all(&b, q, u);
    if (b.mx) {
        sni_free(&b.mx->al, b.anchor2, 3 * nc * sizeof(sn_real));
        sni_free(&b.mx->al, b.rot2, 9 * nc * sizeof(sn_real));
    }
    sn_data_destroy(b.d);
    if (st != SN_OK) {
        sn_maximal_destroy(b.mx);
        return st;
    }
    b.mx->model = m;
    *out = b.mx;
    return SN_OK;
}

const sn_model* sn_maximal_model(const sn_maximal* mx) {
    SNI_REFUSE_NULL(mx, NULL);
    return mx ? mx->model : NULL;
}

// ---- the joint coordinates back ----

// a model body's frame in the world: origin p, rotation R, the origin's velocity pv, angular w
typedef struct pose {
    sn_real p[3], R[9], pv[3], w[3];
} pose;

static void body_pose(const sn_maximal* mx, int body, pose* o) {
    memset(o, 0, sizeof *o);
    m3_identity(o->R);
    int id = body > 0 ? mx->link_body[body] : -1;
    if (id < 0) return;
    sn_real x[3], quat[4], v[3], s[3];
    sn_maximal_body_state(mx, id, x, quat, v, o->w);
    quat_to_m3(o->R, quat);
    m3_mul_v3(s, o->R, mx->link_off + 3 * body);
    v3_add(o->p, x, s);
    v3_copy(o->pv, v);
    v3_addcross(o->pv, o->w, s);
}

// joint j's coordinates and rates from its bodies' poses
static void joint_coords(const sn_maximal* mx, int j, sn_real* q, sn_real* u) {
    const sn_model* m = mx->model;
    int child = m->joint_body[j], type = m->joint_type[j];
    pose c, p;
    body_pose(mx, child, &c);
    body_pose(mx, m->body_parent[child], &p);
    // the joint frame on the parent: Rj, its origin pj and that point's velocity vj
    sn_real Rj[9], pj[3], vj[3], rel[9], dw[3], a[3], t[3];
    m3_mul(Rj, p.R, m->joint_rot + 9 * j);
    m3_mul_v3(t, p.R, m->joint_pos + 3 * j);
    v3_add(pj, p.p, t);
    v3_copy(vj, p.pv);
    v3_addcross(vj, p.w, t);
    m3t_mul(rel, Rj, c.R);
    v3_sub(dw, c.w, p.w);
    const sn_real* ref = mx->joint_qref + m->joint_qadr[j];
    switch (type) {
    case SN_JOINT_REVOLUTE:
    case SN_JOINT_CONTINUOUS: {
        const sn_real* ax = m->joint_axis + 3 * j;
        sn_real vx[3] = {(rel[7] - rel[5]) / 2, (rel[2] - rel[6]) / 2, (rel[3] - rel[1]) / 2};
        q[0] = unwrap(atan2(v3_dot(ax, vx), (rel[0] + rel[4] + rel[8] - 1) / 2), ref[0]);
        m3_mul_v3(a, Rj, ax);
        u[0] = v3_dot(a, dw);
        break;
    }
    case SN_JOINT_PRISMATIC:
        m3_mul_v3(a, Rj, m->joint_axis + 3 * j);
        v3_sub(t, c.p, pj);
        q[0] = v3_dot(a, t);
        v3_sub(t, c.pv, vj);
        u[0] = v3_dot(a, t);
        break;
    case SN_JOINT_SPHERICAL:
        quat_near(q, rel, ref);
        m3t_mul_v3(u, Rj, dw);
        break;
    case SN_JOINT_FLOATING:
        // q: the origin in the joint frame, then the rotation; u: the origin's velocity and the
        // angular velocity, world
        v3_sub(t, c.p, pj);
        m3t_mul_v3(q, Rj, t);
        quat_near(q + 3, rel, ref + 3);
        v3_copy(u, c.pv);
        v3_copy(u + 3, c.w);
        break;
    default:
        break;
    }
}

sn_status sn_maximal_joint_state(const sn_maximal* mx, sn_real* q, int nq, sn_real* u, int nv) {
    SNI_REFUSE_NULL(mx, SN_ERR_ARG);
    const sn_model* m = mx->model;
    // the reason goes to sn_maximal_last_error: the message buffer is not part of the state
    sn_maximal* why = (sn_maximal*)mx;
    if (!m)
        return sni_mx_fail(why, SN_ERR_ARG,
                           "sn_maximal_joint_state: mx was not made by sn_maximal_from_model");
    if (q && nq != m->nq)
        return sni_mx_fail(why, SN_ERR_ARG, "sn_maximal_joint_state: nq %d, the model has %d", nq,
                           m->nq);
    if (u && nv != m->nv)
        return sni_mx_fail(why, SN_ERR_ARG, "sn_maximal_joint_state: nv %d, the model has %d", nv,
                           m->nv);
    for (int j = 0; j < m->njoint; j++) {
        sn_real qj[7], uj[6];
        joint_coords(mx, j, qj, uj);
        if (q) memcpy(q + m->joint_qadr[j], qj, (size_t)m->joint_nq[j] * sizeof(sn_real));
        if (u) memcpy(u + m->joint_vadr[j], uj, (size_t)m->joint_nv[j] * sizeof(sn_real));
    }
    return SN_OK;
}
