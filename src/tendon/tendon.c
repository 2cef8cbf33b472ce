// SPDX-License-Identifier: Apache-2.0
// tendon.c: MJCF tendons (docs/constraints.md "Tendons"). A fixed tendon is L = sum c_i q_i over
// 1-DOF joints, J = the coefficients. A spatial tendon is a path through sites: L = sum over
// consecutive sites of |p_{k+1} - p_k| / divisor (a pulley sets the divisor of the branch after
// it), J = sum of e^T (J_p(k+1) - J_p(k)) / divisor, e the segment's unit vector and J_p a site's
// point Jacobian, accumulated along each site's path to the root. The forces: spring -k (L - L0),
// damper -b L-dot, and each actuator's gear * force, all as J^T f.
#include "tendon/tendon.h"

#include "base/smath.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// a path entry's site in the world (its link's pose at d's kinematics); its body into *body
static void site_point(const sn_model* m, const sn_data* d, int e, sn_real* p, int* body) {
    int f = m->tpath_frame[e];
    const sn_real* pos = m->tpath_pos + 3 * e;
    if (f == SN_NONE) {
        v3_copy(p, pos);
        *body = 0;
        return;
    }
    sn_real x[3], R[9], r[3];
    sn_frame_pose(m, d, f, x, R);
    m3_mul_v3(r, R, pos);
    v3_add(p, x, r);
    *body = m->frame_body[f];
}


// J += k e^T J_p(point of body at p): the point's velocity along e per DOF of its path
static void add_point_row(const sn_model* m, const sn_data* d, int body, const sn_real* p,
                          const sn_real* e, sn_real k, sn_real* J) {
    if (body <= 0) return;
    for (int i = sni_body_last_dof(m, body); i >= 0; i = m->dof_parent[i]) {
        const sn_real* s = d->dof_motion + 6 * i;
        sn_real v[3];
        v3_copy(v, s + 3);
        v3_addcross(v, s, p);
        J[i] += k * v3_dot(e, v);
    }
}


// a spatial tendon's length (and Jacobian): segments between consecutive sites
static sn_real spatial_length(const sn_model* m, const sn_data* d, int t, sn_real* J) {
    int a = m->tendon_adr[t], n = m->tendon_num[t];
    sn_real L = 0, div = 1, prev[3] = {0, 0, 0};
    int has_prev = 0, prev_body = 0;
    for (int e = a; e < a + n; e++) {
        if (m->tpath_type[e] == SN_TENDON_PATH_PULLEY) {
            div = m->tpath_coef[e];
            has_prev = 0;
            continue;
        }
        if (m->tpath_type[e] != SN_TENDON_PATH_SITE) continue;
        sn_real p[3], dp[3];
        int body;
        site_point(m, d, e, p, &body);
        if (has_prev) {
            v3_sub(dp, p, prev);
            sn_real len = v3_norm(dp);
            L += len / div;
            if (J && len > 1e-15) {
                v3_scale(dp, dp, 1 / len);
                add_point_row(m, d, body, p, dp, 1 / div, J);
                add_point_row(m, d, prev_body, prev, dp, -1 / div, J);
            }
        }
        v3_copy(prev, p);
        prev_body = body;
        has_prev = 1;
    }
    return L;
}


sn_real sni_tendon_length(const sn_model* m, const sn_data* d, const sn_real* q, int t,
                          sn_real* J) {
    if (J) memset(J, 0, (size_t)m->nv * sizeof(sn_real));
    if (m->tendon_type[t] == SN_TENDON_SPATIAL) return spatial_length(m, d, t, J);
    sn_real L = 0;
    for (int e = m->tendon_adr[t]; e < m->tendon_adr[t] + m->tendon_num[t]; e++) {
        int j = m->tpath_joint[e];
        sn_real c = m->tpath_coef[e];
        L += c * q[m->joint_qadr[j]];
        if (J) J[m->joint_vadr[j]] += c;
    }
    return L;
}


static sn_real clamp(sn_real x, const sn_real* range) {
    return x < range[0] ? range[0] : x > range[1] ? range[1] : x;
}


void sni_tendon_forces(sn_system* s, const sn_real* q, const sn_real* u, sn_real* tau, int record) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sn_real* J = s->tendon.row;
    for (int t = 0; t < m->ntendon; t++) {
        sn_real k = m->tendon_stiffness[t], b = m->tendon_damping[t];
        int acted = k != 0 || b != 0;
        for (int i = 0; i < m->ntactuator && !acted; i++)
            acted = m->tactuator_tendon[i] == t;
        if (!acted) {
            if (record) s->tendon.force[t] = 0;
            continue;
        }
        sn_real L = sni_tendon_length(m, s->d, q, t, J), Ld = 0;
        for (int i = 0; i < nv; i++)
            Ld += J[i] * u[i];
        sn_real f = -k * (L - m->tendon_length0[t]) - b * Ld;
        for (int i = 0; i < m->ntactuator; i++) {
            if (m->tactuator_tendon[i] != t) continue;
            sn_real g = m->tactuator_gear[i],
                    ctrl = clamp(s->tendon.ctrl[i], m->tactuator_ctrlrange + 2 * i);
            const sn_real* bias = m->tactuator_bias + 3 * i;
            sn_real fa = m->tactuator_gain[i] * ctrl + bias[0] + bias[1] * g * L + bias[2] * g * Ld;
            fa = clamp(fa, m->tactuator_forcerange + 2 * i);
            if (record) s->tendon.act_force[i] = fa;
            f += g * fa;
        }
        if (record) s->tendon.force[t] = f;
        for (int i = 0; i < nv; i++)
            tau[i] += J[i] * f;
    }
}


// ---- the public accessors (sn_world.h "systems: tendons") ----

static sn_status check_tendon(sn_system* s, int t, const void* out, const char* fn) {
    if (!s) return SN_ERR_ARG;
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "%s: out is NULL", fn);
    if (t < 0 || t >= s->m->ntendon)
        return sni_world_fail(s->world, SN_ERR_ARG, "%s: tendon %d is not in 0..%d", fn, t,
                              s->m->ntendon - 1);
    return SN_OK;
}


int sn_system_tendon_count(const sn_system* s) {
    return s ? s->m->ntendon : 0;
}


sn_status sn_system_tendon_length(sn_system* s, int t, sn_real* length) {
    sn_status st = check_tendon(s, t, length, "sn_system_tendon_length");
    if (st != SN_OK) return st;
    sni_ensure_kinematics(s);
    *length = sni_tendon_length(s->m, s->d, s->d->q, t, NULL);
    return SN_OK;
}


sn_status sn_system_tendon_jacobian(sn_system* s, int t, sn_real* J, int nv) {
    sn_status st = check_tendon(s, t, J, "sn_system_tendon_jacobian");
    if (st != SN_OK) return st;
    if (nv != s->m->nv)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_tendon_jacobian: J has %d entries, not nv = %d", nv,
                              s->m->nv);
    sni_ensure_kinematics(s);
    sni_tendon_length(s->m, s->d, s->d->q, t, J);
    return SN_OK;
}


sn_status sn_system_tendon_velocity(sn_system* s, int t, sn_real* velocity) {
    sn_status st = check_tendon(s, t, velocity, "sn_system_tendon_velocity");
    if (st != SN_OK) return st;
    sni_ensure_kinematics(s);
    sni_tendon_length(s->m, s->d, s->d->q, t, s->tendon.row);
    sn_real v = 0;
    for (int i = 0; i < s->m->nv; i++)
        v += s->tendon.row[i] * s->d->u[i];
    *velocity = v;
    return SN_OK;
}


sn_status sn_system_tendon_force(sn_system* s, int t, sn_real* force) {
    sn_status st = check_tendon(s, t, force, "sn_system_tendon_force");
    if (st != SN_OK) return st;
    *force = s->tendon.force[t];
    return SN_OK;
}


sn_status sn_system_set_tendon_controls(sn_system* s, const sn_real* ctrl, int n) {
    if (!s) return SN_ERR_ARG;
    if (n != s->m->ntactuator)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_tendon_controls: %d controls, the model has %d "
                              "actuators on tendons",
                              n, s->m->ntactuator);
    if (n > 0 && !ctrl)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_tendon_controls: ctrl is NULL");
    for (int i = 0; i < n; i++)
        if (!isfinite(ctrl[i]))
            return sni_world_fail(s->world, SN_ERR_NONFINITE,
                                  "sn_system_set_tendon_controls: ctrl[%d] is not finite", i);
    if (n > 0) memcpy(s->tendon.ctrl, ctrl, (size_t)n * sizeof(sn_real));
    return SN_OK;
}
