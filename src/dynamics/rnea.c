// SPDX-License-Identifier: Apache-2.0
// rnea.c: inverse dynamics by the recursive Newton-Euler algorithm (Featherstone, RBDA ch. 5)
// in world-frame quantities. Gravity enters as an upward acceleration of the world, a0 = -g.
//   a_i = a_parent + c_i + S_i udot_i,   f_i = I_i a_i + v_i x* (I_i v_i)
//   f_parent += f_i,                      tau_i = S_i^T f_i (+ rotor inertia * udot_i)
// The link-level pass of sn_inverse_dynamics repeats the force sum per URDF link so that every
// joint, fixed ones included, reports the wrench it transmits.
#include "dynamics/dyn.h"

// f = I a + v x* (I v) at the world origin. The second term is the body's velocity-product
// force from sn_fk_vel; the first, from the mass, world centre of mass c and inertia about it:
// F = m (a0 + alpha x c), n0 = Ic alpha + c x F.
static inline void body_force(sn_real* f, sn_real mass, const sn_real* c, const sn_real* ic,
                              const sn_real* bias, const sn_real* a) {
    const sn_real* al = a;
    sn_real acc[3];
    v3_copy(acc, a + 3);
    v3_addcross(acc, al, c);
    f[3] = mass * acc[0] + bias[3];
    f[4] = mass * acc[1] + bias[4];
    f[5] = mass * acc[2] + bias[5];
    f[0] = ic[0] * al[0] + ic[3] * al[1] + ic[4] * al[2] + bias[0];
    f[1] = ic[3] * al[0] + ic[1] * al[1] + ic[5] * al[2] + bias[1];
    f[2] = ic[4] * al[0] + ic[5] * al[1] + ic[2] * al[2] + bias[2];
    sn_real fm[3] = {mass * acc[0], mass * acc[1], mass * acc[2]};
    v3_addcross(f, c, fm);
}

// f += I a + v x* (I v) for an inertia I (10 numbers at the world origin), v = (w, v0):
// v x* (n, f) = (w x n + v0 x f, w x f)
static void extra_force(sn_real* f, const sn_real* rbi, const sn_real* v, const sn_real* a) {
    sn_real ia[6], p[6];
    rbi_mul(ia, rbi, a);
    rbi_mul(p, rbi, v);
    for (int e = 0; e < 6; e++)
        f[e] += ia[e];
    v3_addcross(f, v, p);
    v3_addcross(f, v + 3, p + 3);
    v3_addcross(f + 3, v, p + 3);
}

// body accelerations (with gravity) and body forces; tau (nullable) from the forces; extra and
// ext as in sni_rnea_extra (nullable)
static void rnea_pass(const sn_model* m, sn_data* d, const sn_real* udot, sn_real* tau,
                      const sn_real* extra, const sn_real* ext) {
    sn_real* acc = d->ws_acc;
    sn_real* f = d->body_force;
    memset(acc, 0, 6 * sizeof(sn_real));
    v3_scale(acc + 3, d->gravity, -1);
    memset(f, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        const sn_real* ap = acc + 6 * m->body_parent[b];
        sn_real* a = acc + 6 * b;
        const sn_real* c = d->dof_bias + 6 * b;
        s6_add(a, ap, c);
        if (udot)
            for (int k = 0; k < m->joint_nv[j]; k++)
                for (int e = 0; e < 6; e++)
                    a[e] += d->dof_motion[6 * (v0 + k) + e] * udot[v0 + k];
        body_force(f + 6 * b, m->body_mass[b], d->body_com + 3 * b, d->body_inertia_com + 6 * b,
                   d->body_bias + 6 * b, a);
        if (extra) extra_force(f + 6 * b, extra + 10 * b, d->body_vel + 6 * b, a);
        if (ext)
            for (int e = 0; e < 6; e++)
                f[6 * b + e] -= ext[6 * b + e];
    }
    for (int b = m->nbody - 1; b > 0; b--) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        const sn_real* fb = f + 6 * b;
        int nd = m->joint_nv[j];
        if (tau && nd == 1) {
            tau[v0] = s6_dot(d->dof_motion + 6 * v0, fb);
            if (udot) tau[v0] += m->dof_armature[v0] * udot[v0];
        } else if (tau && m->joint_type[j] == SN_JOINT_FLOATING) {
            // columns (0, e_k) and (e_k, p x e_k): S^T f = (f_lin, f_ang + f_lin x p)
            v3_copy(tau + v0, fb + 3);
            v3_copy(tau + v0 + 3, fb);
            v3_addcross(tau + v0 + 3, fb + 3, d->body_pos + 3 * b);
            if (udot)
                for (int k = 0; k < 6; k++)
                    tau[v0 + k] += m->dof_armature[v0 + k] * udot[v0 + k];
        } else if (tau) {
            for (int k = 0; k < nd; k++) {
                int i = v0 + k;
                tau[i] = s6_dot(d->dof_motion + 6 * i, fb);
                if (udot) tau[i] += m->dof_armature[i] * udot[i];
            }
        }
        s6_addto(f + 6 * m->body_parent[b], fb);
    }
}

sn_status sn_rnea(const sn_model* m, sn_data* d, const sn_real* udot, sn_real* tau) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    rnea_pass(m, d, udot, tau, NULL, NULL);
    return SN_OK;
}


void sni_rnea_extra(const sn_model* m, sn_data* d, const sn_real* udot, sn_real* tau,
                    const sn_real* extra, const sn_real* ext) {
    rnea_pass(m, d, udot, tau, extra, ext);
}

sn_status sn_nonlinear(const sn_model* m, sn_data* d) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    rnea_pass(m, d, NULL, d->nonlinear, NULL, NULL);
    return SN_OK;
}

// the wrench every URDF joint transmits, from body accelerations acc (gravity included, nbody x 6)
// at the current kinematics and external body wrenches ext (nullable, nbody x 6, moment about the
// origin first): per-link forces summed leaves to root over the link tree
void sni_link_wrenches(const sn_model* m, sn_data* d, const sn_real* acc, const sn_real* ext) {
    for (int l = 0; l < m->nframe; l++) {
        int b = m->frame_body[l];
        sn_real* fl = d->ws_frame + 6 * l;
        memset(fl, 0, 6 * sizeof(sn_real));
        // a body's external wrench acts on its first link
        int p = m->frame_parent[l];
        if (ext && (p < 0 || m->frame_body[p] != b))
            for (int e = 0; e < 6; e++)
                fl[e] = -ext[6 * b + e];
        if (m->frame_mass[l] <= 0) continue;
        sn_real x[3], R[9], c[3], ic[9], rbi[10], iv[6], ia[6];
        sn_frame_pose(m, d, l, x, R);
        m3_mul_v3(c, R, m->frame_com + 3 * l);
        v3_add(c, c, x);
        m3_rotate_sym(ic, R, m->frame_inertia + 9 * l);
        rbi_from(rbi, m->frame_mass[l], c, ic);
        const sn_real* v = d->body_vel + 6 * b;
        rbi_mul(ia, rbi, acc + 6 * b);
        rbi_mul(iv, rbi, v);
        mot_addcross_force(ia, v, iv);
        s6_addto(fl, ia);
    }
    for (int n = m->nframe - 1; n > 0; n--) {
        int l = m->frame_order[n], p = m->frame_parent[l];
        if (p >= 0) s6_addto(d->ws_frame + 6 * p, d->ws_frame + 6 * l);
    }
    // wrench at each URDF joint: force, and torque about the joint origin (child link origin)
    for (int u = 0; u < m->nujoint; u++) {
        int ch = m->ujoint_child[u];
        const sn_real* fl = d->ws_frame + 6 * ch;
        sn_real* w = d->ujoint_wrench + 6 * u;
        sn_real x[3];
        sn_frame_pose(m, d, ch, x, NULL);
        v3_copy(w, fl + 3);
        v3_copy(w + 3, fl);
        v3_addcross(w + 3, fl + 3, x); // n_x = n_0 - x cross f = n_0 + f cross x
    }
}


// per-body wrenches of whole subtrees at the origin (moment first), from body accelerations acc
// (gravity included) at d's kinematics, the bodies' velocity-product forces and external body
// wrenches ext (nullable): out[b] is what the joint into body b transmits; out[0] sums the
// bodies attached to the world and the world body's own links. O(nbody).
void sni_body_wrenches(const sn_model* m, const sn_data* d, const sn_real* acc, const sn_real* ext,
                       sn_real* out) {
    for (int b = 0; b < m->nbody; b++) {
        body_force(out + 6 * b, m->body_mass[b], d->body_com + 3 * b, d->body_inertia_com + 6 * b,
                   d->body_bias + 6 * b, acc + 6 * b);
        if (ext)
            for (int e = 0; e < 6; e++)
                out[6 * b + e] -= ext[6 * b + e];
    }
    for (int b = m->nbody - 1; b > 0; b--)
        s6_addto(out + 6 * m->body_parent[b], out + 6 * b);
}


// the wrench (moment about the origin first) that the fixed URDF joint `uj` transmits, from a
// snapshot of body poses, velocities and accelerations and the subtree wrenches of
// sni_body_wrenches: the links of the child's subtree inside its body, plus the bodies hanging
// from them. O(size of the subtree).
void sni_fixed_joint_wrench(const sn_model* m, const sn_data* d, int uj, const sn_real* pos,
                            const sn_real* rot, const sn_real* vel, const sn_real* acc,
                            const sn_real* body_wrench, sn_real* out) {
    int top = m->ujoint_child[uj], b = m->frame_body[top];
    memset(out, 0, 6 * sizeof(sn_real));
    const sn_real* R = rot + 9 * b;
    for (int n = d->frame_rank[top]; n < d->frame_subtree_end[top]; n++) {
        int l = m->frame_order[n];
        if (m->frame_body[l] != b) {
            // the root link of a body hanging from this subtree carries that body's wrench
            int p = m->frame_parent[l];
            if (p >= 0 && m->frame_body[p] == b) s6_addto(out, body_wrench + 6 * m->frame_body[l]);
            continue;
        }
        if (m->frame_mass[l] <= 0) continue;
        // the link's mass properties in the world
        sn_real rl[9], c[3], t[3], ic[9], rbi[10], ia[6], iv[6];
        m3_mul(rl, R, m->frame_rot + 9 * l);
        m3_mul_v3(c, rl, m->frame_com + 3 * l);
        m3_mul_v3(t, R, m->frame_pos + 3 * l);
        v3_add(c, c, t);
        v3_add(c, c, pos + 3 * b);
        m3_rotate_sym(ic, rl, m->frame_inertia + 9 * l);
        rbi_from(rbi, m->frame_mass[l], c, ic);
        rbi_mul(ia, rbi, acc + 6 * b);
        rbi_mul(iv, rbi, vel + 6 * b);
        mot_addcross_force(ia, vel + 6 * b, iv);
        s6_addto(out, ia);
    }
}


sn_status sn_inverse_dynamics(const sn_model* m, sn_data* d, const sn_real* udot, sn_real* tau) {
    SNI_REFUSE_NULL(m, SN_ERR_ARG);
    SNI_REFUSE_NULL(d, SN_ERR_ARG);
    SNI_CHECK_MD(m, d);
    rnea_pass(m, d, udot, tau, NULL, NULL);
    sni_link_wrenches(m, d, d->ws_acc, NULL);
    return SN_OK;
}


void sn_joint_wrench_world(const sn_model* m, const sn_data* d, int ujoint, sn_real force[3],
                           sn_real torque[3]) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    if (sni_bad_index(__func__, "ujoint", ujoint, m->nujoint)) {
        sni_fill_nan(force, 3);
        sni_fill_nan(torque, 3);
        return;
    }
    if (force) v3_copy(force, d->ujoint_wrench + 6 * ujoint);
    if (torque) v3_copy(torque, d->ujoint_wrench + 6 * ujoint + 3);
}
