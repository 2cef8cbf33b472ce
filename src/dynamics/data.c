// SPDX-License-Identifier: Apache-2.0
// data.c: creation of the per-model state and workspaces in one allocation, reset and state
// setting with checks. The library's own light data (sni_data_create_light) leaves out the three
// dense nv x nv matrices and the arrays of CRBA and RNEA, so that it costs O(nbody) and the
// compiler can run the real kinematics and ABA on a model of any size.
#include "base/base.h"
#include "dynamics/dyn.h"

#include <float.h>
#include <math.h>
#include <string.h>

static sn_real* carve(carver* c, size_t n) {
    return sni_carve(c, n, sizeof(sn_real));
}

// full: every array; else the light data's (see dyn.h): no dense matrices and no arrays of CRBA,
// RNEA and sn_fk_acc, which stay NULL
static void layout(const sn_model* m, sn_data* d, carver* c, int full) {
    size_t nb = (size_t)m->nbody, nv = (size_t)m->nv, nj = (size_t)m->njoint;
    d->q = carve(c, (size_t)m->nq);
    d->u = carve(c, nv);
    d->body_pos = carve(c, 3 * nb);
    d->body_rot = carve(c, 9 * nb);
    d->body_com = carve(c, 3 * nb);
    d->body_rbi = carve(c, 10 * nb);
    d->body_inertia_com = carve(c, 6 * nb);
    d->dof_motion = carve(c, 6 * nv);
    d->joint_anchor = carve(c, 3 * nj);
    d->body_vel = carve(c, 6 * nb);
    d->dof_bias = carve(c, 6 * nb);
    d->body_bias = carve(c, 6 * nb);
    d->mass_matrix = full ? carve(c, nv * nv) : NULL;
    d->nonlinear = carve(c, nv);
    d->mass_factor = full ? carve(c, nv * nv) : NULL;
    d->mass_factor_d = carve(c, nv);
    d->inverse_mass = full ? carve(c, nv * nv) : NULL;
    d->udot = carve(c, nv);
    d->body_acc = full ? carve(c, 6 * nb) : NULL;
    d->body_force = full ? carve(c, 6 * nb) : NULL;
    d->ujoint_wrench = full ? carve(c, 6 * (size_t)m->nujoint) : NULL;
    d->ws_inertia = full ? carve(c, 36 * nb) : NULL;
    d->ws_art = carve(c, 36 * nb);
    d->ws_bias = carve(c, 6 * nb);
    d->ws_acc = carve(c, 6 * nb);
    d->ws_u = carve(c, 6 * nv);
    d->ws_dinv = carve(c, 36 * nj);
    d->ws_vec = carve(c, 4 * nv);
    d->ws_frame = full ? carve(c, 6 * (size_t)m->nframe) : NULL;
    d->joint_axis_kind = (int*)carve(c, nj); // a double per int: simple and aligned
    d->frame_rank = (int*)carve(c, (size_t)m->nframe);
    d->frame_subtree_end = (int*)carve(c, (size_t)m->nframe);
    d->body_depth = (int*)carve(c, nb);
    d->body_dof_end = (int*)carve(c, nb);
    // (a body's depth is at most the joints on its path, m->max_depth)
    d->ws_minv = full ? carve(c, 6 * nv * (size_t)(m->max_depth + 1)) : NULL;
}

// each body's depth and the end of its subtree's DOFs (depth-first: a subtree's DOFs are
// contiguous, from the body's first)
static void rank_bodies(const sn_model* m, sn_data* d) {
    if (m->nbody > 0) d->body_depth[0] = 0, d->body_dof_end[0] = m->nv;
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b];
        d->body_depth[b] = d->body_depth[m->body_parent[b]] + 1;
        // (the slots of ws_minv end at m->max_depth: a model whose depth is not that of its
        // DOFs gets no M^-1 rather than a write past them)
        if (d->body_depth[b] > m->max_depth) d->ws_minv = NULL;
        d->body_dof_end[b] = m->joint_vadr[j] + m->joint_nv[j];
    }
    for (int b = m->nbody - 1; b > 1; b--) {
        int p = m->body_parent[b];
        if (p > 0 && d->body_dof_end[b] > d->body_dof_end[p])
            d->body_dof_end[p] = d->body_dof_end[b];
    }
}

// sn_inverse_mass's route (minv.c, aba.c). M's tree factor and its assembly walk a DOF's
// ancestors, sum_k depth_k^2 / 2 + (k + 1) depth_k operations after CRBA (about 40 per DOF and
// ancestor); ABA's sweeps take a column of a joint's rows at a time, its subtree's columns
// backward and every later column forward, about SNI_MINV_COLUMN operations per DOF of the joint
// and column. Measured (docs/benchmarks.md, "M^-1"): the factor is faster on small trees
// (ANYmal 1.5 us against 2.1, Panda 0.48 against 0.67, where the counts differ by 1.7x and 2x),
// the sweeps from about 30 DOFs on (Romeo 5.3 us against 8.4, a 100-link chain 45 us against 900)
#define SNI_MINV_COLUMN 12.0
static int minv_by_aba(const sn_model* m, const sn_data* d) {
    if (!d->ws_minv) return 0; // a light data has no M^-1
    double factor = 0, sweeps = 0;
    sn_real* depth = d->ws_vec; // the DOFs' depths (a DOF's parent comes before it)
    for (int k = 0; k < m->nv; k++) {
        int p = m->dof_parent[k];
        depth[k] = (p >= 0 ? depth[p] : 0) + 1;
        factor += depth[k] * depth[k] / 2 + (k + 1) * depth[k] + 40 * depth[k];
    }
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        sweeps += SNI_MINV_COLUMN * nd * ((d->body_dof_end[b] - v0) + (m->nv - v0));
    }
    return m->nv > 24 || 2.2 * sweeps < factor;
}

// per joint: which coordinate axis the joint axis is, and whether its frame is rotated (again
// after a placement changed: sn_system_update_mass_info)
void sni_data_classify_joints(const sn_model* m, sn_data* d) {
    for (int j = 0; j < m->njoint; j++) {
        const sn_real* a = m->joint_axis + 3 * j;
        const sn_real* r = m->joint_rot + 9 * j;
        int kind = -1;
        for (int k = 0; k < 3; k++)
            if ((a[k] == 1 || a[k] == -1) && a[(k + 1) % 3] == 0 && a[(k + 2) % 3] == 0) kind = k;
        int ident = r[0] == 1 && r[4] == 1 && r[8] == 1 && r[1] == 0 && r[2] == 0 && r[3] == 0 &&
                    r[5] == 0 && r[6] == 0 && r[7] == 0;
        d->joint_axis_kind[j] = kind + (ident ? 4 : 0);
    }
}

// frames in depth-first order: a subtree is the contiguous range [rank, subtree_end)
static void rank_frames(const sn_model* m, sn_data* d) {
    for (int n = 0; n < m->nframe; n++)
        d->frame_rank[m->frame_order[n]] = n;
    for (int l = 0; l < m->nframe; l++)
        d->frame_subtree_end[l] = d->frame_rank[l] + 1;
    for (int n = m->nframe - 1; n > 0; n--) {
        int l = m->frame_order[n], p = m->frame_parent[l];
        if (p >= 0 && d->frame_subtree_end[l] > d->frame_subtree_end[p])
            d->frame_subtree_end[p] = d->frame_subtree_end[l];
    }
}

// one block laid out for m, full or light
static sn_status create(const sn_model* m, const sn_allocator* a, int full, sn_data** out,
                        sn_error* err) {
    sn_data tmp;
    memset(&tmp, 0, sizeof tmp);
    carver c = {NULL, sizeof(sn_data)};
    layout(m, &tmp, &c, full);
    char* block = sni_alloc(a, c.off);
    if (!block)
        return sni_error(err, SN_ERR_NOMEM, NULL, 0, NULL, "out of memory (%zu bytes)", c.off);
    sn_data* d = (sn_data*)block;
    carver c2 = {block, sizeof(sn_data)};
    layout(m, d, &c2, full);
    d->model_ = m;
    d->size_ = c.off;
    d->allocator_ = sni_allocator_or_default(a);
    sni_data_classify_joints(m, d);
    rank_frames(m, d);
    rank_bodies(m, d);
    d->minv_aba = minv_by_aba(m, d);
    sn_data_reset(m, d);
    *out = d;
    return SN_OK;
}

sn_status sn_data_create(const sn_model* m, const sn_data_opts* opts, sn_data** out,
                         sn_error* err) {
    if (out) *out = NULL;
    if (!m) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_data_create: m is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_data_create: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    const sn_allocator* a = opts ? opts->allocator : NULL;
    // the dense matrices grow with nv^2: refuse early rather than ask for terabytes
    size_t max = opts && opts->max_bytes ? opts->max_bytes : ((size_t)4 << 30);
    double need = 3.0 * (double)m->nv * (double)m->nv * sizeof(sn_real);
    if (need > (double)max)
        return sni_error(err, SN_ERR_LIMIT, NULL, 0, NULL,
                         "the data of a model with nv = %d needs "
                         "%.3g bytes for its dense matrices; the limit is %zu "
                         "(sn_data_opts.max_bytes)",
                         m->nv, need, max);
    return create(m, a, 1, out, err);
}

sn_status sni_data_create_light(const sn_model* m, const sn_allocator* a, sn_data** out,
                                sn_error* err) {
    *out = NULL;
    return create(m, a, 0, out, err);
}

void sn_data_destroy(sn_data* d) {
    if (!d) return;
    sn_allocator a = d->allocator_;
    a.free(d, d->size_, a.ctx);
}

void sn_data_reset(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    memcpy(d->q, m->q0, (size_t)m->nq * sizeof(sn_real));
    memset(d->u, 0, (size_t)m->nv * sizeof(sn_real));
    d->gravity[0] = 0;
    d->gravity[1] = 0;
    d->gravity[2] = -9.81;
    d->fk_valid = 0;
}

sn_status sn_set_state(const sn_model* m, sn_data* d, const sn_real* q, int nq, const sn_real* u,
                       int nv) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_REFUSE_NULL(q, SN_ERR_ARG);
    if (d->model_ != m) return sni_refuse(SN_ERR_ARG, "sn_set_state: d was not created for m");
    if (nq != m->nq)
        return sni_refuse(SN_ERR_ARG, "sn_set_state: nq %d is not the model's nq = %d", nq, m->nq);
    if (u && nv != m->nv)
        return sni_refuse(SN_ERR_ARG, "sn_set_state: nv %d is not the model's nv = %d", nv, m->nv);
    for (int i = 0; i < m->nq; i++)
        if (!isfinite(q[i]))
            return sni_refuse(SN_ERR_NONFINITE, "sn_set_state: q[%d] is %g", i, q[i]);
    if (u)
        for (int i = 0; i < m->nv; i++)
            if (!isfinite(u[i]))
                return sni_refuse(SN_ERR_NONFINITE, "sn_set_state: u[%d] is %g", i, u[i]);
    // quaternions: a zero one is an error, checked before anything is written
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        const sn_real* qq = q + m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        if (!(quat_norm_safe(qq) > 0))
            return sni_refuse(SN_ERR_ARG, "sn_set_state: q: the quaternion of joint %d is zero", j);
    }
    memcpy(d->q, q, (size_t)m->nq * sizeof(sn_real));
    if (u) memcpy(d->u, u, (size_t)m->nv * sizeof(sn_real));
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        sn_real* qq = d->q + m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        sn_real n = quat_norm_safe(qq);
        // unit to rounding (as every step leaves it): kept bit for bit, so that a state read
        // and set again repeats exactly
        if (fabs(n - 1) <= 8 * DBL_EPSILON) continue;
        quat_normalize_safe(qq, qq);
    }
    d->fk_valid = 0;
    return SN_OK;
}
