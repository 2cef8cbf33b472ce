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


// ---- wrapping (MuJoCo's geometric wrap around a sphere or an infinite cylinder) ----

// the path a -> circle (radius r, centre 0) -> b in a plane, going around counterclockwise
// (dir 1) or clockwise (-1): the tangent points ta, tb and the arc angle; its straight parts'
// and arc's total length
static sn_real circle_path(const sn_real* a, const sn_real* b, sn_real r, int dir, sn_real* ta,
                           sn_real* tb, sn_real* angle) {
    sn_real da = sqrt(a[0] * a[0] + a[1] * a[1]), db = sqrt(b[0] * b[0] + b[1] * b[1]);
    sn_real pa = atan2(a[1], a[0]), pb = atan2(b[1], b[0]);
    sn_real qa = pa + dir * acos(r / da), qb = pb - dir * acos(r / db);
    ta[0] = r * cos(qa), ta[1] = r * sin(qa);
    tb[0] = r * cos(qb), tb[1] = r * sin(qb);
    sn_real t = dir * (qb - qa);
    const sn_real two_pi = 6.283185307179586476925286766559;
    t = fmod(t, two_pi);
    if (t < 0) t += two_pi;
    *angle = t;
    return sqrt(da * da - r * r) + r * t + sqrt(db * db - r * r);
}


// the point of the segment a-b nearest the centre
static void nearest_on_segment(const sn_real* a, const sn_real* b, sn_real* c) {
    sn_real d[2] = {b[0] - a[0], b[1] - a[1]}, dd = d[0] * d[0] + d[1] * d[1];
    sn_real t = dd > 0 ? -(a[0] * d[0] + a[1] * d[1]) / dd : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    c[0] = a[0] + t * d[0], c[1] = a[1] + t * d[1];
}


// do the segments p-q and u-v cross (their lines' parameters both within [0, 1])?
static int segments_cross(const sn_real* p, const sn_real* q, const sn_real* u, const sn_real* v) {
    sn_real r[2] = {q[0] - p[0], q[1] - p[1]}, w[2] = {v[0] - u[0], v[1] - u[1]};
    sn_real det = r[0] * w[1] - r[1] * w[0];
    if (fabs(det) < 1e-15) return 0;
    sn_real e[2] = {u[0] - p[0], u[1] - p[1]};
    sn_real s = (e[0] * w[1] - e[1] * w[0]) / det, t = (e[0] * r[1] - e[1] * r[0]) / det;
    return s >= 0 && s <= 1 && t >= 0 && t <= 1;
}


// the wrap of a -> b around the circle of radius r in a plane, on the side of s (a point on the
// circle; NULL: none): 1 with the tangent points and the arc angle, 0 when the path goes
// straight. As MuJoCo 2.2.2 decides it: no wrap when an end is inside the circle, or when the
// segment's point nearest the centre is outside it and (without s) always or (with s) on s's
// side; of the two ways around, the one whose tangent points' mean direction is nearer s, or
// (without s) whose tangent points are nearer each other, a way whose two straight parts cross
// counting as worst; and no wrap when the chosen way's straight parts cross
static int circle_wrap(const sn_real* a, const sn_real* b, const sn_real* s, sn_real r, sn_real* ta,
                       sn_real* tb, sn_real* angle) {
    if (a[0] * a[0] + a[1] * a[1] < r * r || b[0] * b[0] + b[1] * b[1] < r * r) return 0;
    sn_real c[2];
    nearest_on_segment(a, b, c);
    if (c[0] * c[0] + c[1] * c[1] > r * r && (!s || s[0] * c[0] + s[1] * c[1] >= 0)) return 0;
    sn_real t[2][2][2], g[2], ang[2];
    for (int k = 0; k < 2; k++) {
        circle_path(a, b, r, k ? -1 : 1, t[k][0], t[k][1], &ang[k]);
        sn_real m[2] = {t[k][0][0] + t[k][1][0], t[k][0][1] + t[k][1][1]};
        sn_real dm[2] = {t[k][0][0] - t[k][1][0], t[k][0][1] - t[k][1][1]};
        sn_real nm = hypot(m[0], m[1]);
        g[k] =
            s ? (nm > 0 ? (m[0] * s[0] + m[1] * s[1]) / nm : 0) : -(dm[0] * dm[0] + dm[1] * dm[1]);
        if (segments_cross(a, t[k][0], b, t[k][1])) g[k] = -10000;
    }
    int k = g[0] > g[1] ? 0 : 1;
    if (segments_cross(a, t[k][0], b, t[k][1])) return 0;
    memcpy(ta, t[k][0], 2 * sizeof(sn_real));
    memcpy(tb, t[k][1], 2 * sizeof(sn_real));
    *angle = ang[k];
    return 1;
}


// the inside wrap (a sidesite inside the circle, as MuJoCo 2.2.2 has it): the path a -> b touches
// the circle at one point t, where the radius bisects the angle a-t-b (the length is stationary
// there). With z the sine of the half angle at t, the sine rule in the triangles centre-t-a and
// centre-t-b gives the arcs from a and from b to t: asin z - asin(z r/|a|) and
// asin z - asin(z r/|b|), which must add up to the angle g between a and b. Solved for z by
// Newton's method from just below 1 (f(z) = 2 asin z - asin(z r/|a|) - asin(z r/|b|) - g falls
// to 0 from above), to |f| <= 1e-6 in at most 20 steps; where that fails, t is the circle's point
// nearest the ends' mean. 0 (straight) when an end is on or inside the circle or the segment
// passes through it
static int inside_wrap(const sn_real* a, const sn_real* b, sn_real r, sn_real* t) {
    sn_real la = hypot(a[0], a[1]), lb = hypot(b[0], b[1]);
    sn_real d[2] = {b[0] - a[0], b[1] - a[1]}, dd = d[0] * d[0] + d[1] * d[1];
    if (la <= r || lb <= r || r < 1e-15 || la < 1e-15 || lb < 1e-15) return 0;
    if (dd > 1e-15) {
        sn_real u = -(d[0] * a[0] + d[1] * a[1]) / dd;
        if (u > 0 && u < 1 && hypot(a[0] + u * d[0], a[1] + u * d[1]) <= r) return 0;
    }
    sn_real mean[2] = {a[0] + b[0], a[1] + b[1]}, nm = hypot(mean[0], mean[1]);
    t[0] = nm > 0 ? r * mean[0] / nm : 0, t[1] = nm > 0 ? r * mean[1] / nm : 0;
    sn_real ka = r / la, kb = r / lb, cg = (la * la + lb * lb - dd) / (2 * la * lb);
    if (cg < -1 + 1e-15) return 0;
    if (cg > 1 - 1e-15) return 1;
    sn_real g = acos(cg), z = 1 - 1e-7;
    sn_real f = 2 * asin(z) - asin(ka * z) - asin(kb * z) - g;
    if (f < 0) return 1;
    int k = 0;
    for (; k < 20 && fabs(f) > 1e-6; k++) {
        sn_real df = 2 / fmax(1e-15, sqrt(1 - z * z)) -
                     ka / fmax(1e-15, sqrt(1 - ka * ka * z * z)) -
                     kb / fmax(1e-15, sqrt(1 - kb * kb * z * z));
        if (df < 1e-15) return 1;
        sn_real zn = z - f / df;
        if (zn > z) return 1;
        z = zn;
        f = 2 * asin(z) - asin(ka * z) - asin(kb * z) - g;
        if (f < -1e-6) return 1;
    }
    if (k >= 20) return 1;
    // turn from the end the arc starts at (a when b is counterclockwise from it) towards the other
    int from_a = a[0] * b[1] - a[1] * b[0] > 0;
    const sn_real* v = from_a ? a : b;
    sn_real lv = from_a ? la : lb, th = asin(z) - asin((from_a ? ka : kb) * z);
    sn_real c = cos(th), sn = sin(th);
    t[0] = r * (c * v[0] - sn * v[1]) / lv, t[1] = r * (sn * v[0] + c * v[1]) / lv;
    return 1;
}


// the wrap in the circle's plane: inside (one touching point) when the sidesite is inside the
// circle, else around it
static int plane_wrap(const sn_real* a, const sn_real* b, const sn_real* s, sn_real r, sn_real* ta,
                      sn_real* tb, sn_real* angle) {
    if (s && hypot(s[0], s[1]) < r) {
        if (!inside_wrap(a, b, r, ta)) return 0;
        tb[0] = ta[0], tb[1] = ta[1], *angle = 0;
        return 1;
    }
    return circle_wrap(a, b, s, r, ta, tb, angle);
}


// the wrap of p0 -> p1 (world) around entry e's geometry: 1 with the tangent points t0, t1
// (world) and the length between them along the surface, the geometry's body in *body; 0 when
// the path goes straight
static int wrap_points(const sn_model* m, const sn_data* d, int e, const sn_real* p0,
                       const sn_real* p1, sn_real* t0, sn_real* t1, sn_real* arc, int* body) {
    int g = m->tpath_geom[e], f = m->geom_frame[g];
    sn_real x[3], R[9], gp[3], gR[9], r = m->geom_size[3 * g], tmp[3];
    sn_frame_pose(m, d, f, x, R);
    m3_mul_v3(tmp, R, m->geom_pos + 3 * g);
    v3_add(gp, x, tmp);
    m3_mul(gR, R, m->geom_rot + 9 * g);
    *body = m->frame_body[f];
    sn_real a[3], b[3], s[3] = {0, 0, 0}, ws[3];
    v3_sub(tmp, p0, gp);
    m3t_mul_v3(a, gR, tmp);
    v3_sub(tmp, p1, gp);
    m3t_mul_v3(b, gR, tmp);
    int side = m->tpath_coef[e] != 0, sb;
    if (side) {
        site_point(m, d, e, ws, &sb);
        v3_sub(tmp, ws, gp);
        m3t_mul_v3(s, gR, tmp);
    }
    sn_real A[2], B[2], S[2], TA[2], TB[2], ang, la[3], lb[3];
    if (m->geom_type[g] == SN_GEOM_SPHERE) {
        // the plane through the centre and both points
        sn_real n[3], e1[3], e2[3];
        v3_cross(n, a, b);
        if (v3_norm(n) < 1e-12 && side) v3_cross(n, a, s);
        sn_real nn = v3_norm(n), na = v3_norm(a);
        if (nn < 1e-12 || na < 1e-12) return 0;
        v3_scale(e1, a, 1 / na);
        v3_scale(n, n, 1 / nn);
        v3_cross(e2, n, e1);
        A[0] = na, A[1] = 0;
        B[0] = v3_dot(b, e1), B[1] = v3_dot(b, e2);
        S[0] = side ? v3_dot(s, e1) : 0, S[1] = side ? v3_dot(s, e2) : 0;
        if (!plane_wrap(A, B, side ? S : NULL, r, TA, TB, &ang)) return 0;
        v3_scale(la, e1, TA[0]), v3_addscl(la, e2, TA[1]);
        v3_scale(lb, e1, TB[0]), v3_addscl(lb, e2, TB[1]);
        *arc = r * ang;
    } else {
        // an infinite cylinder along z: the circle in x, y; z along the unrolled straight line
        A[0] = a[0], A[1] = a[1], B[0] = b[0], B[1] = b[1], S[0] = s[0], S[1] = s[1];
        if (!plane_wrap(A, B, side ? S : NULL, r, TA, TB, &ang)) return 0;
        sn_real l0 = hypot(A[0] - TA[0], A[1] - TA[1]), l1 = hypot(B[0] - TB[0], B[1] - TB[1]);
        sn_real total = l0 + r * ang + l1, dz = b[2] - a[2];
        v3_set(la, TA[0], TA[1], a[2] + dz * l0 / total);
        v3_set(lb, TB[0], TB[1], a[2] + dz * (l0 + r * ang) / total);
        *arc = hypot(r * ang, lb[2] - la[2]);
    }
    m3_mul_v3(t0, gR, la);
    v3_add(t0, t0, gp);
    m3_mul_v3(t1, gR, lb);
    v3_add(t1, t1, gp);
    return 1;
}


// a straight segment p -> q (bodies bp, bq): its length / div, and e^T (J_q - J_p) / div into J
static sn_real segment(const sn_model* m, const sn_data* d, const sn_real* p, int bp,
                       const sn_real* q, int bq, sn_real div, sn_real* J) {
    sn_real dp[3];
    v3_sub(dp, q, p);
    sn_real len = v3_norm(dp);
    if (J && len > 1e-15) {
        v3_scale(dp, dp, 1 / len);
        add_point_row(m, d, bq, q, dp, 1 / div, J);
        add_point_row(m, d, bp, p, dp, -1 / div, J);
    }
    return len / div;
}


// a spatial tendon's length (and Jacobian): segments between consecutive sites, each one around
// the geometry between them when it wraps
static sn_real spatial_length(const sn_model* m, const sn_data* d, int t, sn_real* J) {
    int a = m->tendon_adr[t], n = m->tendon_num[t];
    sn_real L = 0, div = 1, prev[3] = {0, 0, 0};
    int has_prev = 0, prev_body = 0, wrap = -1;
    for (int e = a; e < a + n; e++) {
        if (m->tpath_type[e] == SN_TENDON_PATH_PULLEY) {
            div = m->tpath_coef[e];
            has_prev = 0;
            continue;
        }
        if (m->tpath_type[e] == SN_TENDON_PATH_GEOM) {
            wrap = e;
            continue;
        }
        if (m->tpath_type[e] != SN_TENDON_PATH_SITE) continue;
        sn_real p[3], t0[3], t1[3], arc;
        int body, gb;
        site_point(m, d, e, p, &body);
        if (has_prev && wrap >= 0 && wrap_points(m, d, wrap, prev, p, t0, t1, &arc, &gb)) {
            L += segment(m, d, prev, prev_body, t0, gb, div, J) + arc / div;
            L += segment(m, d, t1, gb, p, body, div, J);
        } else if (has_prev) {
            L += segment(m, d, prev, prev_body, p, body, div, J);
        }
        wrap = -1;
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
        return sni_world_fail(s->world, SN_ERR_ARG, "%s: tendon t %d is not in 0..%d", fn, t,
                              s->m->ntendon - 1);
    return SN_OK;
}


int sn_system_tendon_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->m->ntendon;
}


sn_status sn_system_tendon_length(sn_system* s, int t, sn_real* length) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!length)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_tendon_length: length is NULL");
    sn_status st = check_tendon(s, t, length, "sn_system_tendon_length");
    if (st != SN_OK) return st;
    sni_ensure_kinematics(s);
    *length = sni_tendon_length(s->m, s->d, s->d->q, t, NULL);
    return SN_OK;
}


sn_status sn_system_tendon_jacobian(sn_system* s, int t, sn_real* J, int nv) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!J) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_tendon_jacobian: J is NULL");
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
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!velocity)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_tendon_velocity: velocity is NULL");
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
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!force)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_tendon_force: force is NULL");
    sn_status st = check_tendon(s, t, force, "sn_system_tendon_force");
    if (st != SN_OK) return st;
    *force = s->tendon.force[t];
    return SN_OK;
}


sn_real sn_system_tendon_spring_energy(sn_system* s) {
    SNI_REFUSE_NULL(s, (sn_real)NAN);
    const sn_model* m = s->m;
    sn_real e = 0;
    sni_ensure_kinematics(s);
    for (int t = 0; t < m->ntendon; t++) {
        sn_real k = m->tendon_stiffness[t];
        if (k == 0) continue;
        sn_real x = sni_tendon_length(m, s->d, s->d->q, t, NULL) - m->tendon_length0[t];
        e += 0.5 * k * x * x;
    }
    return e;
}


sn_status sn_system_set_tendon_controls(sn_system* s, const sn_real* ctrl, int n) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!ctrl)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_set_tendon_controls: ctrl is NULL");
    if (n != s->m->ntactuator)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_set_tendon_controls: n %d controls, the model has %d "
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
