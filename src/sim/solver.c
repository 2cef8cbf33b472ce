// SPDX-License-Identifier: Apache-2.0
// solver.c: the contact solver of seed 000's step 4: the impulses of contacts, joint limits and
// joint friction, found by per-block Gauss-Seidel (shared/spec/algorithms.md, Part B). A contact
// is a 3-row block solved exactly on its Coulomb cone (opening, sticking, or sliding: the point
// of the cone's intersection with the zero-normal-velocity plane where the friction opposes the
// slip, by fixed-point iteration or a scan and bisection along that curve); a joint limit or a
// joint's friction is a 1-row block. Every impulse acts through M~^-1 = (M + diag w)^-1, the
// same matrix as the step, applied with the tree's sparse factor.
#include "dynamics/dyn.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include "sim/sim.h"

#include <math.h>
#include <string.h>

enum { BLK_CONTACT, BLK_LOWER, BLK_UPPER, BLK_VEL_LOWER, BLK_VEL_UPPER, BLK_FRICTION };


// ---- the exact single-contact solve ----

// The sliding case puts lambda on the cone, lambda = r (t, 1/mu) with t a unit friction direction,
// at zero normal velocity, and asks Coulomb's condition: the friction t anti-parallel to the
// tangential velocity after the impulse, v_t = (G lambda + c)_t. (algorithms.md B.2 bisects the
// slope of the contact-space energy along the same curve; the two differ when the normal and
// tangential rows of G couple, as at the corners of a box, and the energy's root then tilts the
// friction by up to ten degrees: a box sliding on four corners decelerates 2 % below mu g. The
// tier-C cases need Coulomb's law itself.)

// G (3x3, rows t1 t2 n), c (3), mu: the impulse of one contact; returns the case (0 open,
// 1 stick, 2 slide)
int sni_contact_local(const sn_real* G_in, const sn_real* c, sn_real mu, sn_real* lam) {
    if (c[2] >= 0) {
        v3_set(lam, 0, 0, 0);
        return 0;
    }
    // where the mechanism cannot move a row at all (a planar mechanism across its plane, a
    // direction its loops hold) G is singular: a ridge of 1e-13 of its trace keeps it invertible
    sn_real G[9];
    memcpy(G, G_in, sizeof G);
    sn_real det0 = G[0] * (G[4] * G[8] - G[5] * G[7]) - G[1] * (G[3] * G[8] - G[5] * G[6]) +
                   G[2] * (G[3] * G[7] - G[4] * G[6]);
    sn_real tr = G[0] + G[4] + G[8];
    // its null direction z (unit; zero when G has rank 3 or less than 2): an impulse along z
    // moves nothing (a pin takes it), so the sticking impulse keeps no part along it
    sn_real z[3] = {0, 0, 0};
    if (!(fabs(det0) > 1e-12 * tr * tr * tr)) {
        G[0] += 1e-13 * tr, G[4] += 1e-13 * tr, G[8] += 1e-13 * tr;
        sn_real x01[3], x02[3], x12[3];
        v3_cross(x01, G_in, G_in + 3);
        v3_cross(x02, G_in, G_in + 6);
        v3_cross(x12, G_in + 3, G_in + 6);
        const sn_real* best = x01;
        if (v3_dot(x02, x02) > v3_dot(best, best)) best = x02;
        if (v3_dot(x12, x12) > v3_dot(best, best)) best = x12;
        sn_real nb = sqrt(v3_dot(best, best));
        if (nb > 1e-6 * tr * tr) v3_scale(z, best, 1 / nb);
    }
    if (!(G[8] > 0)) {
        v3_set(lam, 0, 0, 0);
        return 0;
    }
    if (mu <= 0) {
        v3_set(lam, 0, 0, -c[2] / G[8]);
        return 2;
    }
    // sticking: v = 0
    sn_real inv[9], det;
    inv[0] = G[4] * G[8] - G[5] * G[7];
    inv[1] = G[2] * G[7] - G[1] * G[8];
    inv[2] = G[1] * G[5] - G[2] * G[4];
    inv[3] = G[5] * G[6] - G[3] * G[8];
    inv[4] = G[0] * G[8] - G[2] * G[6];
    inv[5] = G[2] * G[3] - G[0] * G[5];
    inv[6] = G[3] * G[7] - G[4] * G[6];
    inv[7] = G[1] * G[6] - G[0] * G[7];
    inv[8] = G[0] * G[4] - G[1] * G[3];
    det = G[0] * inv[0] + G[1] * inv[3] + G[2] * inv[6];
    sn_real l0[3];
    m3_mul_v3(l0, inv, c);
    v3_scale(l0, l0, -1 / det);
    sn_real lz = v3_dot(l0, z);
    l0[0] -= lz * z[0], l0[1] -= lz * z[1], l0[2] -= lz * z[2];
    sn_real lt = sqrt(l0[0] * l0[0] + l0[1] * l0[1]);
    if (l0[2] >= 0 && lt <= mu * l0[2]) {
        v3_copy(lam, l0);
        return 1;
    }
    // sliding: a fixed-point iteration t <- -v_t / |v_t| converges in a few steps when the rows
    // couple weakly; otherwise the directions around it are scanned for Coulomb's condition.
    // the fixed point runs on the friction direction as a unit vector (no trigonometry)
    // A sliding direction whose normal response den (below) is near zero asks for an unbounded
    // impulse (Painleve's paradox: a pinned rod dragged along its slip jams); directions where
    // friction takes away more than 999/1000 of the normal response are not taken, and the
    // sticking impulse on the cone stands in when no other direction holds
    const sn_real den_min = 1e-3 * G[8] / mu;
    sn_real l[3], v[3], dir[2] = {l0[0] / lt, l0[1] / lt};
    if (!(lt > 0)) dir[0] = 1, dir[1] = 0;
    for (int it = 0; it < 4; it++) {
        sn_real den = G[8] / mu + G[6] * dir[0] + G[7] * dir[1];
        if (!(den > den_min)) break;
        sn_real r = -c[2] / den;
        l[0] = r * dir[0], l[1] = r * dir[1], l[2] = r / mu;
        m3_mul_v3(v, G, l);
        v3_add(v, v, c);
        sn_real vt = sqrt(v[0] * v[0] + v[1] * v[1]);
        if (!(vt > 0)) break;
        sn_real n0 = -v[0] / vt, n1 = -v[1] / vt;
        sn_real diff = fabs(n0 - dir[0]) + fabs(n1 - dir[1]);
        dir[0] = n0, dir[1] = n1;
        if (diff < 1e-13) {
            den = G[8] / mu + G[6] * dir[0] + G[7] * dir[1];
            if (!(den > den_min)) break;
            r = -c[2] / den;
            v3_set(lam, r * dir[0], r * dir[1], r / mu);
            return 2;
        }
    }
    // The scan: with den(t) = G_nt.t + G_nn / mu > 0 the tangential velocity times den is
    // affine in t, x(t) = A t + b (A = -c_n G_tt + c_t G_nt^T, b = (c_t G_nn - c_n G_tn) / mu),
    // and Coulomb's condition is f(t) = x0 t1 - x1 t0 = 0 with x.t <= 0. Directions are
    // stepped by 7.5 degrees from the fixed point's last one; a sign change facing the slip is
    // refined by regula falsi (Illinois) between the two unit vectors.
    sn_real A[4] = {-c[2] * G[0] + c[0] * G[6], -c[2] * G[1] + c[0] * G[7],
                    -c[2] * G[3] + c[1] * G[6], -c[2] * G[4] + c[1] * G[7]};
    sn_real b[2] = {(c[0] * G[8] - c[2] * G[2]) / mu, (c[1] * G[8] - c[2] * G[5]) / mu};
#define SN_F(t)                                                                                    \
    ((A[0] * (t)[0] + A[1] * (t)[1] + b[0]) * (t)[1] -                                             \
     (A[2] * (t)[0] + A[3] * (t)[1] + b[1]) * (t)[0])
#define SN_OK_DIR(t)                                                                               \
    (G[6] * (t)[0] + G[7] * (t)[1] + G[8] / mu > den_min &&                                        \
     (A[0] * (t)[0] + A[1] * (t)[1] + b[0]) * (t)[0] +                                             \
             (A[2] * (t)[0] + A[3] * (t)[1] + b[1]) * (t)[1] <=                                    \
         0)
    enum { N = 24 };
    const sn_real cs = 0.99144486137381041114, sn = 0.13052619222005159155; // 7.5 degrees
    // both ways from the fixed point's direction: the root is usually near it
    sn_real from[2][2], from_f[2];
    int from_ok[2];
    for (int w2 = 0; w2 < 2; w2++) {
        from[w2][0] = dir[0], from[w2][1] = dir[1];
        from_f[w2] = SN_F(dir);
        from_ok[w2] = SN_OK_DIR(dir);
    }
    for (int k = 1; k <= N; k++)
        for (int w2 = 0; w2 < 2; w2++) {
            sn_real* prev = from[w2];
            sn_real sg = w2 ? -sn : sn;
            sn_real t[2] = {cs * prev[0] - sg * prev[1], sg * prev[0] + cs * prev[1]};
            sn_real f = SN_F(t);
            int ok = SN_OK_DIR(t);
            if (from_ok[w2] && ok && (f > 0) != (from_f[w2] > 0)) {
                sn_real lo[2] = {prev[0], prev[1]}, hi[2] = {t[0], t[1]}, flo = from_f[w2], fhi = f;
                sn_real m[2] = {t[0], t[1]};
                int side = 0;
                for (int it = 0; it < 60; it++) {
                    sn_real al = flo / (flo - fhi); // the chord's zero between lo and hi
                    sn_real m0 = (1 - al) * lo[0] + al * hi[0], m1 = (1 - al) * lo[1] + al * hi[1];
                    sn_real nm = sqrt(m0 * m0 + m1 * m1);
                    m0 /= nm, m1 /= nm;
                    sn_real step = fabs(m0 - m[0]) + fabs(m1 - m[1]);
                    m[0] = m0, m[1] = m1;
                    sn_real fm = SN_F(m);
                    if (fm == 0 || step < 1e-14) break;
                    if ((fm > 0) == (flo > 0)) {
                        lo[0] = m[0], lo[1] = m[1], flo = fm;
                        if (side == -1) fhi *= 0.5;
                        side = -1;
                    } else {
                        hi[0] = m[0], hi[1] = m[1], fhi = fm;
                        if (side == 1) flo *= 0.5;
                        side = 1;
                    }
                }
                sn_real den = G[8] / mu + G[6] * m[0] + G[7] * m[1];
                sn_real r = -c[2] / den;
                v3_set(lam, r * m[0], r * m[1], r / mu);
                return 2;
            }
            prev[0] = t[0], prev[1] = t[1], from_f[w2] = f, from_ok[w2] = ok;
        }
#undef SN_F
#undef SN_OK_DIR
    // no root found (a degenerate G): the sticking impulse projected on the cone, unless G's
    // null direction makes it grow without bound (where a pin holds the body and the contact
    // asks for a velocity the pin forbids): then the normal impulse that stops the normal
    // velocity, with full friction against the last direction tried when that leaves the normal
    // response positive, else without friction
    sn_real l0n = l0[2] > 0 ? l0[2] : 0, free_n = -c[2] / G[8];
    if (l0n <= 1e3 * free_n) {
        sn_real scale = mu * l0n / (lt > 0 ? lt : 1);
        v3_set(lam, l0[0] * scale, l0[1] * scale, l0n);
        return 2;
    }
    sn_real den = G[8] / mu + G[6] * dir[0] + G[7] * dir[1];
    if (den > den_min) {
        sn_real r = -c[2] / den;
        v3_set(lam, r * dir[0], r * dir[1], r / mu);
    } else {
        v3_set(lam, 0, 0, free_n);
    }
    return 2;
}


// ---- assembling the blocks ----
// A block touches one system (a joint's limit or friction, a ground contact) or two (a contact
// between two systems). Its rows are J_a (dim x nv of system a) and J_b (system b, NULL for the
// ground), with Y = M~^-1 J^T kept per side; the coupling of two blocks sums over the systems
// they share.

static void add_block(sn_world* w, int kind, int index, int sa, int sb, int dim) {
    int k = w->nblock++;
    w->blk_kind[k] = kind;
    w->blk_index[k] = index;
    w->blk_sa[k] = sa;
    w->blk_sb[k] = sb;
    w->blk_dim[k] = dim;
}


// the blocks of this step: contacts, then each system's limits and friction
static void gather(sn_world* w) {
    w->nblock = 0;
    for (int i = 0; i < w->ncontact && w->nblock < w->block_cap; i++) {
        const sni_contact* c = &w->contacts[i];
        if (!w->sys[c->sa]->in_solver || (c->sb >= 0 && !w->sys[c->sb]->in_solver)) continue;
        add_block(w, BLK_CONTACT, i, c->sa, c->sb, 3);
    }
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->in_solver) continue;
        const sn_model* m = s->m;
        const sn_real* q = s->d->q;
        const sn_real* ustar = s->du;
        for (int j = 0; j < m->njoint && w->nblock < w->block_cap; j++) {
            // revolute joints in seed 000's sense: URDF revolute and continuous, and prismatic
            int t = m->joint_type[j];
            if (t != SN_JOINT_REVOLUTE && t != SN_JOINT_CONTINUOUS && t != SN_JOINT_PRISMATIC)
                continue;
            int v = m->joint_vadr[j], a = m->joint_qadr[j], lim = 0;
            if (!s->limits_off && m->dof_limited[v] && w->nblock < w->block_cap) {
                if (q[a] < m->dof_lower[v])
                    add_block(w, BLK_LOWER, j, si, -1, 1), lim = 1;
                else if (q[a] > m->dof_upper[v])
                    add_block(w, BLK_UPPER, j, si, -1, 1), lim = 1;
            }
            sn_real vl = m->dof_velocity_limit[v];
            if (!s->limits_off && !lim && isfinite(vl) && vl > 0 && w->nblock < w->block_cap) {
                if (ustar[v] > vl)
                    add_block(w, BLK_VEL_UPPER, j, si, -1, 1);
                else if (ustar[v] < -vl)
                    add_block(w, BLK_VEL_LOWER, j, si, -1, 1);
            }
            if (m->dof_friction[v] + s->fric_out[v] > 0 && w->nblock < w->block_cap)
                add_block(w, BLK_FRICTION, j, si, -1, 1);
        }
    }
}


// rows of a contact's point on one side: frame (rows t1, t2, n) times the point Jacobian
static void contact_rows(const sn_system* s, int body, const sn_real* x, const sn_real* frame,
                         sn_real sign, sn_real* J, sn_real* scratch) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sn_point_jacobian(m, s->d, body, x, scratch, NULL);
    memset(J, 0, 3 * (size_t)nv * sizeof(sn_real));
    for (int i = sni_body_last_dof(m, body); i >= 0; i = m->dof_parent[i])
        for (int r = 0; r < 3; r++)
            J[(size_t)r * nv + i] =
                sign * (frame[3 * r] * scratch[i] + frame[3 * r + 1] * scratch[nv + i] +
                        frame[3 * r + 2] * scratch[2 * nv + i]);
}


static sn_real row_dot(const sn_real* a, const sn_real* b, int n) {
    sn_real x = 0;
    for (int i = 0; i < n; i++)
        x += a[i] * b[i];
    return x;
}


// J rows of block k on both sides, and the target velocity of each row
static void block_rows(sn_world* w, int k, sn_real dt) {
    size_t stride = 3 * (size_t)w->nvmax;
    sn_real* Ja = w->blk_Ja + stride * k;
    sn_real* Jb = w->blk_Jb + stride * k;
    sn_real* target = w->blk_target + 3 * k;
    sn_system* sa = w->sys[w->blk_sa[k]];
    target[0] = target[1] = target[2] = 0;
    if (w->blk_kind[k] == BLK_CONTACT) {
        sni_contact* c = &w->contacts[w->blk_index[k]];
        contact_rows(sa, c->body, c->pos, c->frame, 1, Ja, w->scratch);
        w->blk_la[k] = sni_body_last_dof(sa->m, c->body);
        sn_system* sb = c->sb >= 0 ? w->sys[c->sb] : NULL;
        w->blk_lb[k] = -1;
        if (sb && c->sb == c->sa) {
            // two bodies of one system: one set of rows, J_a(p) - J_b(p), on that system
            contact_rows(sb, c->body_b, c->pos, c->frame, -1, Jb, w->scratch);
            int nv = sa->m->nv;
            for (int i = 0; i < 3 * nv; i++)
                Ja[i] += Jb[i];
            w->blk_sb[k] = -1;
            // the rows now live on both paths: -2 makes the couplings walk every DOF
            w->blk_la[k] = -2;
            sb = NULL;
        } else if (sb) {
            contact_rows(sb, c->body_b, c->pos, c->frame, -1, Jb, w->scratch);
            w->blk_lb[k] = sni_body_last_dof(sb->m, c->body_b);
        }
        // normal target: stop at the surface (speculative gap), push out a penetration by erp,
        // and bounce with the restitution above its threshold
        // a penetration stops (its removal is a position correction, see pseudo_velocities); a
        // gap within the margin may close, no further
        target[2] = c->depth > 0 ? 0 : c->depth / dt;
        sn_real approach = 0;
        if (c->e > 0) {
            approach = -row_dot(Ja + 2 * sa->m->nv, sa->u0, sa->m->nv);
            if (sb) approach -= row_dot(Jb + 2 * sb->m->nv, sb->u0, sb->m->nv);
        }
        if (c->e > 0 && approach > c->eth) {
            sn_real bounce = c->e * approach;
            if (bounce > target[2]) target[2] = bounce;
        }
        return;
    }
    const sn_model* m = sa->m;
    int j = w->blk_index[k], v = m->joint_vadr[j];
    memset(Ja, 0, (size_t)m->nv * sizeof(sn_real));
    Ja[v] = 1;
    w->blk_la[k] = v;
    w->blk_lb[k] = -1;
    switch (w->blk_kind[k]) {
    case BLK_LOWER:
    case BLK_UPPER:
        // a hard stop with zero restitution: the row stops the joint; the excursion is removed
        // through the positions (erp of it per step, see pseudo_velocities), so no push-out
        // velocity stays once the joint is back at its limit
        break;
    case BLK_VEL_UPPER:
        target[0] = m->dof_velocity_limit[v];
        break;
    case BLK_VEL_LOWER:
        target[0] = -m->dof_velocity_limit[v];
        break;
    default:
        break;
    }
}


// ---- the Gauss-Seidel loop ----

// the impulse x of joint row k clipped to what the row allows: >= 0 at a lower limit, <= 0 at an
// upper one, within the friction bound
static sn_real joint_row_clamp(const sn_world* w, int k, sn_real x, sn_real dt) {
    const sn_system* s = w->sys[w->blk_sa[k]];
    int v = s->m->joint_vadr[w->blk_index[k]];
    switch (w->blk_kind[k]) {
    case BLK_LOWER:
    case BLK_VEL_LOWER:
        return x > 0 ? x : 0;
    case BLK_UPPER:
    case BLK_VEL_UPPER:
        return x < 0 ? x : 0;
    default: {
        sn_real b = (s->m->dof_friction[v] + s->fric_out[v]) * dt;
        return x < -b ? -b : x > b ? b : x;
    }
    }
}


static void local_solve(sn_world* w, int k, const sn_real* G, const sn_real* c, sn_real dt,
                        sn_real* lam) {
    if (w->blk_kind[k] == BLK_CONTACT) {
        sni_contact* ct = &w->contacts[w->blk_index[k]];
        ct->slide = sni_contact_local(G, c, ct->mu, lam);
        return;
    }
    lam[0] = G[0] > 0 ? joint_row_clamp(w, k, -c[0] / G[0], dt) : 0; // G 0: a locked joint
}


// the block's own Delassus block G = J M~^-1 J^T (dim x dim), summed over its systems: Z^T D^-1
// Z with Z = L^-T J^T (the half solves in blk_Ya / blk_Yb), on the path of the block's rows
static void own_block(const sn_world* w, int x, sn_real* G) {
    memset(G, 0, 9 * sizeof(sn_real));
    size_t off = 3 * (size_t)w->nvmax * x;
    for (int e = 0; e < 2; e++) {
        int si = e ? w->blk_sb[x] : w->blk_sa[x];
        if (si < 0) continue;
        const sn_real* Z = (e ? w->blk_Yb : w->blk_Ya) + off;
        const sn_system* s = w->sys[si];
        const sn_model* m = s->m;
        int nv = m->nv, last = e ? w->blk_lb[x] : w->blk_la[x], dim = w->blk_dim[x];
        const sn_real* dinv = s->dinv;
        for (int r = 0; r < dim; r++)
            for (int q = r; q < dim; q++) {
                const sn_real* a = Z + (size_t)r * nv;
                const sn_real* b = Z + (size_t)q * nv;
                sn_real g = 0;
                if (last == -2)
                    for (int i = 0; i < nv; i++)
                        g += a[i] * b[i] * dinv[i];
                else
                    for (int i = last; i >= 0; i = m->dof_parent[i])
                        g += a[i] * b[i] * dinv[i];
                G[3 * r + q] += g;
                if (q != r) G[3 * q + r] += g;
            }
    }
}


// the velocity of block x's rows at the systems' sweep velocities (v = gs_v, or with pseudo
// the pseudo-velocities), less nothing: J_a v_a + J_b v_b
static void block_velocity(const sn_world* w, int x, int pseudo, sn_real* c) {
    size_t off = 3 * (size_t)w->nvmax * x;
    c[0] = c[1] = c[2] = 0;
    if (w->blk_kind[x] != BLK_CONTACT) {
        // a joint row: J = e_v
        const sn_system* s = w->sys[w->blk_sa[x]];
        c[0] = (pseudo ? s->pseudo : s->gs_v)[s->m->joint_vadr[w->blk_index[x]]];
        return;
    }
    for (int e = 0; e < 2; e++) {
        int si = e ? w->blk_sb[x] : w->blk_sa[x];
        if (si < 0) continue;
        const sn_system* s = w->sys[si];
        const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + off;
        const sn_real* v = pseudo ? s->pseudo : s->gs_v;
        int nv = s->m->nv, len = w->blk_plen[2 * x + e];
        const int* path = w->blk_path + (2 * (size_t)x + e) * w->nvmax;
        const sn_real *j0 = J, *j1 = J + nv, *j2 = J + 2 * (size_t)nv;
        sn_real g0 = 0, g1 = 0, g2 = 0;
        if (pseudo) { // the normal row only
            for (int k = 0; k < len; k++)
                g2 += j2[path[k]] * v[path[k]];
        } else {
            for (int k = 0; k < len; k++) {
                int i = path[k];
                g0 += j0[i] * v[i], g1 += j1[i] * v[i], g2 += j2[i] * v[i];
            }
        }
        c[0] += g0, c[1] += g1, c[2] += g2;
    }
}


// the DOFs a contact's rows act on, per side, as a list (the path of its body to the root, or
// every DOF for the rows of two bodies of one system)
static void block_path(sn_world* w, int x) {
    for (int e = 0; e < 2; e++) {
        int si = e ? w->blk_sb[x] : w->blk_sa[x], len = 0;
        int* path = w->blk_path + (2 * (size_t)x + e) * w->nvmax;
        if (si >= 0) {
            const sn_model* m = w->sys[si]->m;
            int last = e ? w->blk_lb[x] : w->blk_la[x];
            if (last == -2)
                for (int i = 0; i < m->nv; i++)
                    path[len++] = i;
            else
                for (int i = last; i >= 0; i = m->dof_parent[i])
                    path[len++] = i;
        }
        w->blk_plen[2 * x + e] = len;
    }
}


// the sweep velocities after an impulse change dl of block x: v += Y dl on each side (pseudo:
// dl on the position correction's row only, into the pseudo-velocities)
static void block_push(sn_world* w, int x, int pseudo, const sn_real* dl) {
    size_t off = 3 * (size_t)w->nvmax * x;
    for (int e = 0; e < 2; e++) {
        int si = e ? w->blk_sb[x] : w->blk_sa[x];
        if (si < 0) continue;
        sn_system* s = w->sys[si];
        int nv = s->m->nv;
        const sn_real* Y = (e ? w->blk_Yb : w->blk_Ya) + off;
        sn_real* v = pseudo ? s->pseudo : s->gs_v;
        if (w->blk_dim[x] == 3 && !pseudo) {
            const sn_real *y0 = Y, *y1 = Y + nv, *y2 = Y + 2 * (size_t)nv;
            for (int i = 0; i < nv; i++)
                v[i] += y0[i] * dl[0] + y1[i] * dl[1] + y2[i] * dl[2];
            continue;
        }
        for (int r = 0; r < w->blk_dim[x]; r++) {
            if (dl[r] == 0) continue;
            const sn_real* yr = Y + (size_t)r * nv;
            for (int i = 0; i < nv; i++)
                v[i] += yr[i] * dl[r];
        }
    }
}


// blocks the position correction acts on: contacts (their normal row) and position limits
static int has_pseudo_row(int kind) {
    return kind == BLK_CONTACT || kind == BLK_LOWER || kind == BLK_UPPER;
}


// the row of a block that the position correction acts on: a contact's normal, a limit's row
static int pseudo_row(const sn_world* w, int a) {
    return w->blk_kind[a] == BLK_CONTACT ? 2 : 0;
}


// the position correction's target velocity for block a (0: none): erp of a contact's
// penetration or of a joint's excursion past its limit, per step
static sn_real pseudo_target(const sn_world* w, int a, sn_real dt) {
    if (w->erp == 0) return 0;
    int kind = w->blk_kind[a];
    if (kind == BLK_CONTACT) {
        const sni_contact* c = &w->contacts[w->blk_index[a]];
        return c->depth > 0 ? w->erp * c->depth / dt : 0;
    }
    if (kind != BLK_LOWER && kind != BLK_UPPER) return 0;
    const sn_system* s = w->sys[w->blk_sa[a]];
    const sn_model* m = s->m;
    int j = w->blk_index[a], v = m->joint_vadr[j];
    sn_real lim = kind == BLK_LOWER ? m->dof_lower[v] : m->dof_upper[v];
    return w->erp * (lim - s->d->q[m->joint_qadr[j]]) / dt;
}


// penetrations and excursions past joint limits are removed through the positions only (a
// split impulse): pseudo-impulses p on the contacts' normal rows (p >= 0) and the limits' rows
// (p >= 0 at a lower limit, <= 0 at an upper one), solved together by Gauss-Seidel so that
// G p = erp x (depth or excursion) / dt on every such row, give pseudo-velocities M~^-1 J^T p
// that move the positions of this step and are then forgotten: the correction adds no kinetic
// energy, and a limit's correction cannot push a body into the ground (or the other way round)
static void pseudo_velocities(sn_world* w, sn_real dt) {
    int nb = w->nblock, any = 0;
    // blk_target is reused: [3a] the row's target, [3a + 1] its pseudo-impulse
    for (int a = 0; a < nb; a++) {
        sn_real t = pseudo_target(w, a, dt);
        any |= t != 0;
        w->blk_target[3 * a] = t;
        w->blk_target[3 * a + 1] = 0;
    }
    if (!any) return;
    for (int si = 0; si < w->nsys; si++)
        if (w->sys[si]->solve_mark)
            memset(w->sys[si]->pseudo, 0, (size_t)w->sys[si]->m->nv * sizeof(sn_real));
    for (int it = 0; it < w->solver_max_iter; it++) {
        sn_real change = 0;
        for (int a = 0; a < nb; a++) {
            int kind = w->blk_kind[a], ra = pseudo_row(w, a);
            if (!has_pseudo_row(kind)) continue;
            sn_real c[3];
            block_velocity(w, a, 1, c);
            sn_real* p = &w->blk_target[3 * a + 1];
            sn_real gaa = w->blk_G[9 * (size_t)a + 4 * ra];
            if (!(gaa > 0)) continue; // a row the loops lock cannot move the positions
            sn_real np = *p - (c[ra] - w->blk_target[3 * a]) / gaa;
            if (kind == BLK_UPPER ? np > 0 : np < 0) np = 0;
            sn_real dp[3] = {0, 0, 0};
            dp[ra] = np - *p;
            if (dp[ra] == 0) continue;
            *p = np;
            change = fmax(change, fabs(dp[ra]));
            block_push(w, a, 1, dp);
        }
        if (change < w->solver_tol) break;
    }
    // s->pseudo now holds M~^-1 J^T p, built by the sweeps. Rows that cannot all be met (two
    // geoms the joints cannot separate, as in MuJoCo's humanoid with self-collision and without
    // its <contact><exclude>) make the sweeps' impulses grow without bound: a correction that
    // would move any coordinate by more than 2 cm or rad in one step is scaled down to that, in
    // the same direction (the loops' first-order closure is kept). Corrections of up to 10 cm
    // deep (erp 0.2) are untouched
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->solve_mark) continue;
        sn_real big = 0;
        for (int i = 0; i < s->m->nv; i++)
            big = fmax(big, fabs(s->pseudo[i]) * dt);
        if (big > 0.02)
            for (int i = 0; i < s->m->nv; i++)
                s->pseudo[i] *= 0.02 / big;
    }
}


// start each contact from the impulse of the same contact in the last step: same geometries,
// closest point within 2 cm, its world impulse expressed in the new frame, clipped to the cone
// a joint row's slot in row_prev: 0 position limit, 1 velocity limit, 2 friction
static int row_slot(int kind) {
    return kind == BLK_LOWER || kind == BLK_UPPER ? 0 : kind == BLK_FRICTION ? 2 : 1;
}


static void warm_start(sn_world* w) {
    int nb = w->nblock;
    for (int a = 0; a < nb; a++) {
        if (w->blk_kind[a] != BLK_CONTACT) continue;
        const sni_contact* c = &w->contacts[w->blk_index[a]];
        const sni_contact* best = NULL;
        sn_real bd = 4e-4;
        for (int i = 0; i < w->nprevious; i++) {
            const sni_contact* p = &w->previous[i];
            if (p->sa != c->sa || p->sb != c->sb || p->geom != c->geom || p->geom_b != c->geom_b)
                continue;
            sn_real d[3];
            v3_sub(d, p->pos, c->pos);
            if (v3_dot(d, d) < bd) bd = v3_dot(d, d), best = p;
        }
        if (!best) continue;
        sn_real* la = w->blk_lambda + 3 * a;
        for (int r = 0; r < 3; r++)
            la[r] = v3_dot(c->frame + 3 * r, best->impulse);
        if (la[2] <= 0) {
            v3_set(la, 0, 0, 0);
            continue;
        }
        sn_real lt = sqrt(la[0] * la[0] + la[1] * la[1]), lim = c->mu * la[2];
        if (lt > lim) la[0] *= lim / lt, la[1] *= lim / lt;
    }
    // a joint's rows start from the last step's impulse of the same kind of row, clipped to what
    // the row allows
    for (int a = 0; a < nb; a++) {
        int kind = w->blk_kind[a];
        if (kind == BLK_CONTACT) continue;
        const sn_system* s = w->sys[w->blk_sa[a]];
        int nv = s->m->nv, v = s->m->joint_vadr[w->blk_index[a]];
        w->blk_lambda[3 * a] = joint_row_clamp(w, a, s->row_prev[row_slot(kind) * nv + v], w->dt);
    }
    for (int a = 0; a < nb; a++)
        block_push(w, a, 0, w->blk_lambda + 3 * a);
}


// ---- the subspace step ----
// Gauss-Seidel converges slowly on redundant sets (two contacts at the ends of a capsule lying on
// the floor, a box on four corners): the impulses drift along the set's near-null directions by
// a fraction of a percent per sweep while the velocities barely move. Once the sweeps have fixed
// which rows act (a contact opening, sticking or sliding in a direction, a joint row at its bound
// or free), the impulses of the acting rows solve one linear system: every sticking contact's
// three rows and every free joint row reach their target velocities, every sliding contact's
// normal row does with its friction mu lambda_n along the sweeps' direction (the idea of
// projected Gauss-Seidel with subspace minimization, Silcowitz, Niebe and Erleben 2010). The
// result is kept only if every cone and bound holds and every sliding contact still slides
// against its friction; when it breaks some, those rows are held (a joint row at its clamped
// value, a contact at its current impulse) and the rest is solved again, up to SM_TRIES tries.
// The sweeps then go on from it and end at once when it is the answer.
// It runs after sweeps 8 and 31 of a step that has not converged, when the rows' velocities
// settle by less than half per sweep (a try at sweep 81 held 3 % of the time), on at most
// SNI_SM_MAX unknowns. The falling humanoid: 11 sweeps per step instead of
// 45; five stacked boxes: 5 instead of 33 (tests/test_humanoid.c, tests/test_contact_pairs.c).

// C = J_a Y_b^T (dim_a x dim_b, in a 3 x 3 array): block a's rows times block b's columns of
// M~^-1 J^T, over the systems they share, in one walk of a's path
static void block_coupling(const sn_world* w, int a, int b, sn_real* C) {
    size_t st = 3 * (size_t)w->nvmax;
    memset(C, 0, 9 * sizeof(sn_real));
    int da = w->blk_dim[a], db = w->blk_dim[b];
    for (int e = 0; e < 2; e++) {
        int si = e ? w->blk_sb[a] : w->blk_sa[a];
        if (si < 0) continue;
        int f = w->blk_sa[b] == si ? 0 : w->blk_sb[b] == si ? 1 : -1;
        if (f < 0) continue;
        const sn_system* s = w->sys[si];
        int nv = s->m->nv;
        const sn_real* Y = (f ? w->blk_Yb : w->blk_Ya) + st * b;
        if (w->blk_kind[a] != BLK_CONTACT) {
            int v = s->m->joint_vadr[w->blk_index[a]];
            for (int q = 0; q < db; q++)
                C[q] += Y[(size_t)q * nv + v];
            continue;
        }
        const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + st * a;
        const int* path = w->blk_path + (2 * (size_t)a + e) * w->nvmax;
        int len = w->blk_plen[2 * a + e];
        for (int r = 0; r < da; r++)
            for (int q = 0; q < db; q++) {
                const sn_real* jr = J + (size_t)r * nv;
                const sn_real* yq = Y + (size_t)q * nv;
                sn_real g = 0;
                for (int k = 0; k < len; k++)
                    g += jr[path[k]] * yq[path[k]];
                C[3 * r + q] += g;
            }
    }
}

// v += k * (unknown u's column) on its systems; into gs_fix when fix is set, else gs_v
static void push_column(sn_world* w, int b, int q, sn_real k, int fix) {
    sn_real dl[3] = {0, 0, 0};
    if (q < 3) {
        dl[q] = k;
    } else {
        const sn_real* lb = w->blk_lambda + 3 * b;
        sn_real lt = sqrt(lb[0] * lb[0] + lb[1] * lb[1]);
        sn_real mu = w->contacts[w->blk_index[b]].mu;
        dl[2] = k;
        if (lt > 0) dl[0] = k * mu * lb[0] / lt, dl[1] = k * mu * lb[1] / lt;
    }
    size_t st = 3 * (size_t)w->nvmax;
    for (int e = 0; e < 2; e++) {
        int si = e ? w->blk_sb[b] : w->blk_sa[b];
        if (si < 0) continue;
        sn_system* s = w->sys[si];
        int nv = s->m->nv;
        const sn_real* Y = (e ? w->blk_Yb : w->blk_Ya) + st * b;
        sn_real* v = fix ? s->gs_fix : s->gs_v;
        for (int r = 0; r < w->blk_dim[b]; r++)
            if (dl[r] != 0)
                for (int i = 0; i < nv; i++)
                    v[i] += Y[(size_t)r * nv + i] * dl[r];
    }
}

static void push_unknown(sn_world* w, int u, sn_real k, int fix) {
    push_column(w, w->sm_blk[u], w->sm_row[u], k, fix);
}

static void push_unknown_fix(sn_world* w, int b, int q, sn_real k) {
    push_column(w, b, q, k, 1);
}

// the current value of unknown u
static sn_real unknown_value(const sn_world* w, int u) {
    return w->blk_lambda[3 * w->sm_blk[u] + (w->sm_row[u] < 3 ? w->sm_row[u] : 2)];
}

// LU factor of A (n x n, row-major) in place with partial pivoting; 0 if singular
static int lu_factor(sn_real* A, int n, int* piv) {
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(A[i * n + c]) > fabs(A[p * n + c])) p = i;
        if (!(fabs(A[p * n + c]) > 0)) return 0;
        piv[c] = p;
        if (p != c)
            for (int j = 0; j < n; j++) {
                sn_real t = A[c * n + j];
                A[c * n + j] = A[p * n + j], A[p * n + j] = t;
            }
        for (int i = c + 1; i < n; i++) {
            sn_real f = A[i * n + c] /= A[c * n + c];
            if (f == 0) continue;
            for (int j = c + 1; j < n; j++)
                A[i * n + j] -= f * A[c * n + j];
        }
    }
    return 1;
}

// Cholesky factor A = L L^T of a symmetric A (n x n, row-major) in place, L in the lower
// triangle; 0 if a pivot is not above tol (0: not positive definite). The loops' small blocks
// use it too
int sni_chol(sn_real* A, int n, sn_real tol) {
    for (int j = 0; j < n; j++) {
        sn_real d = A[j * n + j];
        for (int k = 0; k < j; k++)
            d -= A[j * n + k] * A[j * n + k];
        if (!(d > tol)) return 0;
        d = sqrt(d);
        A[j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            sn_real x = A[i * n + j];
            for (int k = 0; k < j; k++)
                x -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = x / d;
        }
    }
    return 1;
}

// b <- (L L^T)^-1 b
static void chol_solve(const sn_real* L, int n, sn_real* b) {
    for (int i = 0; i < n; i++) {
        sn_real x = b[i];
        for (int k = 0; k < i; k++)
            x -= L[i * n + k] * b[k];
        b[i] = x / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        sn_real x = b[i];
        for (int k = i + 1; k < n; k++)
            x -= L[k * n + i] * b[k];
        b[i] = x / L[i * n + i];
    }
}

// solve with the factor: b <- A^-1 b
static void lu_solve(const sn_real* A, int n, const int* piv, sn_real* b) {
    // the row exchanges first (the factor's rows were exchanged whole), then L y = P b
    for (int c = 0; c < n; c++)
        if (piv[c] != c) {
            sn_real t = b[c];
            b[c] = b[piv[c]], b[piv[c]] = t;
        }
    for (int i = 1; i < n; i++)
        for (int c = 0; c < i; c++)
            b[i] -= A[i * n + c] * b[c];
    for (int i = n - 1; i >= 0; i--) {
        sn_real x = b[i];
        for (int j = i + 1; j < n; j++)
            x -= A[i * n + j] * b[j];
        b[i] = x / A[i * n + i];
    }
}

// returns 1 when the acting rows' solution was feasible and is now the sweeps' state
// A's entries of unknowns i .. i + ni (one block's) against j .. j + nj (another's) from their
// blocks' coupling C (rows of the first, columns of the second); a sliding unknown's column
// carries its friction: C_n + mu (t1 C_t1 + t2 C_t2)
static void fill_block(const sn_world* w, sn_real* A, int n, int i, int ni, int j, int nj,
                       const sn_real* C) {
    sn_real tf[2] = {0, 0};
    if (w->sm_row[j] == 3) {
        int b = w->sm_blk[j];
        const sn_real* lb = w->blk_lambda + 3 * b;
        sn_real lt = sqrt(lb[0] * lb[0] + lb[1] * lb[1]);
        sn_real mu = w->contacts[w->blk_index[b]].mu;
        if (lt > 0) tf[0] = mu * lb[0] / lt, tf[1] = mu * lb[1] / lt;
    }
    for (int u = 0; u < ni; u++) {
        int r = w->sm_row[i + u] < 3 ? w->sm_row[i + u] : 2;
        for (int v = 0; v < nj; v++) {
            int q = w->sm_row[j + v];
            A[(i + u) * n + j + v] =
                q < 3 ? C[3 * r + q] : C[3 * r + 2] + tf[0] * C[3 * r] + tf[1] * C[3 * r + 1];
        }
    }
}

// one try with the blocks marked in sm_frozen held: 1 when kept, 0 when it cannot be, -1 when
// rows that broke their cone or bound were held for another try
static int subspace_try(sn_world* w, sn_real dt) {
    int nb = w->nblock, n = 0;
    for (int a = 0; a < nb; a++) {
        const sn_real* la = w->blk_lambda + 3 * a;
        if (w->sm_frozen[a]) continue;
        if (w->blk_kind[a] == BLK_CONTACT) {
            if (!(la[2] > 0)) continue; // open
            sn_real mu = w->contacts[w->blk_index[a]].mu;
            int stick = sqrt(la[0] * la[0] + la[1] * la[1]) < mu * la[2] * (1 - 1e-9);
            if (n + (stick ? 3 : 1) > SNI_SM_MAX) return 0;
            if (stick)
                for (int r = 0; r < 3; r++)
                    w->sm_blk[n] = a, w->sm_row[n++] = r;
            else
                w->sm_blk[n] = a, w->sm_row[n++] = 3;
            continue;
        }
        sn_real bound = joint_row_clamp(w, a, INFINITY, dt);
        if (w->blk_kind[a] == BLK_FRICTION ? fabs(la[0]) >= bound : la[0] == 0) continue;
        if (n + 1 > SNI_SM_MAX) return 0;
        w->sm_blk[n] = a, w->sm_row[n++] = 0;
    }
    if (n == 0) return 0;
    // the velocity the fixed impulses leave: gs_v less the unknowns' current share, with the
    // held joint rows at their held values
    for (int si = 0; si < w->nsys; si++)
        if (w->sys[si]->solve_mark)
            memcpy(w->sys[si]->gs_fix, w->sys[si]->gs_v,
                   (size_t)w->sys[si]->m->nv * sizeof(sn_real));
    for (int u = 0; u < n; u++)
        push_unknown_fix(w, w->sm_blk[u], w->sm_row[u], -unknown_value(w, u));
    for (int a = 0; a < nb; a++)
        if (w->sm_frozen[a] == 2) push_unknown_fix(w, a, 0, w->sm_fval[a] - w->blk_lambda[3 * a]);
    sn_real* A = w->sm_A;
    sn_real* rhs = w->sm_b;
    sn_real dmax = 0;
    if (w->sm_n0 == 0) {
        // the first try: the matrix, block pair by block pair (an unknown's block holds 1 or 3
        // consecutive unknowns), each pair's coupling computed once (C_ba = C_ab^T)
        for (int i = 0; i < n;) {
            int a = w->sm_blk[i], ni = 1;
            while (i + ni < n && w->sm_blk[i + ni] == a)
                ni++;
            for (int j = i; j < n;) {
                int b = w->sm_blk[j], nj = 1;
                while (j + nj < n && w->sm_blk[j + nj] == b)
                    nj++;
                sn_real C[9], T[9];
                block_coupling(w, a, b, C);
                for (int r = 0; r < 3; r++)
                    for (int q = 0; q < 3; q++)
                        T[3 * q + r] = C[3 * r + q];
                fill_block(w, A, n, i, ni, j, nj, C);
                if (j != i) fill_block(w, A, n, j, nj, i, ni, T);
                j += nj;
            }
            i += ni;
        }
        memcpy(w->sm_A0, A, (size_t)n * n * sizeof(sn_real));
        memcpy(w->sm_blk0, w->sm_blk, (size_t)n * sizeof(int));
        memcpy(w->sm_row0, w->sm_row, (size_t)n * sizeof(int));
        w->sm_n0 = n;
    } else {
        // a retry: its unknowns are some of the first try's, in the same order
        int n0 = w->sm_n0, k = 0;
        for (int i = 0; i < n; i++) {
            while (k < n0 && (w->sm_blk0[k] != w->sm_blk[i] || w->sm_row0[k] != w->sm_row[i]))
                k++;
            if (k == n0) return 0;
            w->sm_map[i] = k++;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                A[i * n + j] = w->sm_A0[w->sm_map[i] * n0 + w->sm_map[j]];
    }
    // the right side: targets less the rows' velocities at the fixed impulses (block_velocity
    // reads gs_v: gs_fix takes its place meanwhile)
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->solve_mark) continue;
        sn_real* t = s->gs_v;
        s->gs_v = s->gs_fix, s->gs_fix = t;
    }
    for (int i = 0; i < n; i++) {
        int a = w->sm_blk[i], r = w->sm_row[i] < 3 ? w->sm_row[i] : 2;
        sn_real c[3];
        block_velocity(w, a, 0, c);
        rhs[i] = w->blk_target[3 * a + r] - c[r];
        dmax = fmax(dmax, fabs(A[i * n + i]));
    }
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->solve_mark) continue;
        sn_real* t = s->gs_v;
        s->gs_v = s->gs_fix, s->gs_fix = t;
    }
    // from the current impulses, steps with a ridge on the diagonal (1e-6 of its largest entry):
    // x <- x + (A + ridge)^-1 (b - A x), three times. The ridge keeps the null-direction share of
    // the sweeps' impulses on a redundant set and damps the near-null directions where the
    // acting set asks for more than the sweeps can give; the repeats make the well-conditioned
    // directions exact (a box on a bump and two corners: its three contacts carry m g to 1e-12).
    // One pass left 1e-7 of the load unresolved; five made the humanoid's sweeps slower.
    sn_real* x = w->sm_x;
    sn_real* LU = w->sm_LU;
    sn_real* res = w->sm_r;
    for (int i = 0; i < n; i++)
        x[i] = unknown_value(w, i);
    memcpy(LU, A, (size_t)n * n * sizeof(sn_real));
    for (int i = 0; i < n; i++)
        LU[i * n + i] += 1e-6 * dmax;
    // symmetric positive definite with the ridge unless a sliding column is in it: Cholesky
    int sym = 1;
    for (int i = 0; i < n; i++)
        sym &= w->sm_row[i] != 3;
    if (sym ? !sni_chol(LU, n, 0) : !lu_factor(LU, n, w->sm_piv)) return 0;
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            res[i] = rhs[i];
            for (int j = 0; j < n; j++)
                res[i] -= A[i * n + j] * x[j];
        }
        if (sym)
            chol_solve(LU, n, res);
        else
            lu_solve(LU, n, w->sm_piv, res);
        for (int i = 0; i < n; i++)
            x[i] += res[i];
    }
    // rows that break their cone or bound are held for the next try: a joint row at its
    // clamped value, a contact at its current impulse
    int held = 0;
    for (int i = 0; i < n; i++) {
        int a = w->sm_blk[i], q = w->sm_row[i];
        if (!isfinite(x[i])) return 0;
        if (w->blk_kind[a] == BLK_CONTACT) {
            sn_real mu = w->contacts[w->blk_index[a]].mu;
            int bad = (q == 3 && x[i] < 0) ||
                      (q == 0 &&
                       (x[i + 2] < 0 || sqrt(x[i] * x[i] + x[i + 1] * x[i + 1]) > mu * x[i + 2]));
            if (bad) w->sm_frozen[a] = 1, held = 1;
            continue;
        }
        sn_real cl = joint_row_clamp(w, a, x[i], dt);
        if (cl != x[i]) w->sm_frozen[a] = 2, w->sm_fval[a] = cl, held = 1;
    }
    if (held) return -1;
    // the sweeps' velocity at the new impulses: the fixed part plus the unknowns' columns
    for (int si = 0; si < w->nsys; si++)
        if (w->sys[si]->solve_mark)
            memcpy(w->sys[si]->gs_v, w->sys[si]->gs_fix,
                   (size_t)w->sys[si]->m->nv * sizeof(sn_real));
    for (int i = 0; i < n; i++)
        push_unknown(w, i, x[i], 0);
    // a sliding contact must still slide against its friction (else it is held at its impulse
    // for the next try)
    for (int i = 0; i < n; i++) {
        int a = w->sm_blk[i];
        if (w->sm_row[i] != 3) continue;
        const sn_real* la = w->blk_lambda + 3 * a;
        sn_real c[3], lt = sqrt(la[0] * la[0] + la[1] * la[1]);
        block_velocity(w, a, 0, c);
        sn_real vt = sqrt(c[0] * c[0] + c[1] * c[1]);
        if (lt > 0 && vt > 1e-9 && (c[0] * la[0] + c[1] * la[1]) / (lt * vt) > -1 + 1e-6)
            w->sm_frozen[a] = 1, held = 1;
    }
    if (held) {
        // back to the sweeps' velocity: the fixed part (held joint rows at their current
        // impulses again) plus the unknowns' current share
        for (int si = 0; si < w->nsys; si++)
            if (w->sys[si]->solve_mark)
                memcpy(w->sys[si]->gs_v, w->sys[si]->gs_fix,
                       (size_t)w->sys[si]->m->nv * sizeof(sn_real));
        for (int i = 0; i < n; i++)
            push_unknown(w, i, unknown_value(w, i), 0);
        for (int a = 0; a < nb; a++)
            if (w->sm_frozen[a] == 2) push_column(w, a, 0, w->blk_lambda[3 * a] - w->sm_fval[a], 0);
        return -1;
    }
    // kept: the impulses (a sliding contact keeps its friction direction; held joint rows take
    // their held values)
    for (int a = 0; a < nb; a++)
        if (w->sm_frozen[a] == 2) w->blk_lambda[3 * a] = w->sm_fval[a];
    for (int i = 0; i < n; i++) {
        int a = w->sm_blk[i], q = w->sm_row[i];
        sn_real* la = w->blk_lambda + 3 * a;
        if (q < 3) {
            la[q] = x[i];
        } else {
            sn_real lt = sqrt(la[0] * la[0] + la[1] * la[1]);
            sn_real mu = w->contacts[w->blk_index[a]].mu;
            if (lt > 0) la[0] *= mu * x[i] / lt, la[1] *= mu * x[i] / lt;
            la[2] = x[i];
        }
    }
    return 1;
}

// up to SM_TRIES tries, each holding the rows the last one found breaking their cones or bounds
// (one try: the humanoid's steps at the iteration limit were 17 times as many)
enum { SM_TRIES = 4 };
static int subspace_step(sn_world* w, sn_real dt) {
    memset(w->sm_frozen, 0, (size_t)w->nblock * sizeof(int));
    w->sm_n0 = 0;
    for (int t = 0; t < SM_TRIES; t++) {
        int r = subspace_try(w, dt);
        if (r >= 0) return r;
    }
    return 0;
}


// the impulses of the step's contacts, limits and friction over every system in the solver;

// ---- the sweeps in Delassus form ----
// A few blocks on a large system (the Strandbeest's four feet on 79 DOFs through its loops) make
// v += Y dl (every DOF, per visit) the sweeps' main cost. Then the blocks' couplings G_ab = J_a Y_b
// are formed once (nb^2 3 x 3 blocks over the rows' paths) and a visit reads its rows' velocity
// as c_a = c0_a + sum_b G_ab lambda_b; the velocities follow the impulses only where they are
// read (the subspace step, the end).
static int delassus_begin(sn_world* w) {
    int nb = w->nblock;
    if (nb > SNI_DELASSUS_MAX || w->no_delassus) return 0;
    // per visit: 9 nb for the coupling sum against the DOFs a push would update
    size_t push = 0;
    for (int a = 0; a < nb; a++)
        for (int e = 0; e < 2; e++) {
            int si = e ? w->blk_sb[a] : w->blk_sa[a];
            if (si >= 0) push += (size_t)w->sys[si]->m->nv * (size_t)w->blk_dim[a];
        }
    if (18 * (size_t)nb * (size_t)nb > push) return 0;
    sn_real* Gf = w->dl_G;
    for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++)
            block_coupling(w, a, b, Gf + 9 * ((size_t)a * nb + b));
    for (int a = 0; a < nb; a++) {
        sn_real* c0 = w->dl_c0 + 3 * a;
        for (int r = 0; r < 3; r++)
            c0[r] = w->blk_c[3 * a + r];
        for (int b = 0; b < nb; b++) {
            const sn_real* G = Gf + 9 * ((size_t)a * nb + b);
            const sn_real* lb = w->blk_lambda + 3 * b;
            for (int r = 0; r < 3; r++)
                c0[r] -= G[3 * r] * lb[0] + G[3 * r + 1] * lb[1] + G[3 * r + 2] * lb[2];
        }
    }
    memcpy(w->dl_sync, w->blk_lambda, 3 * (size_t)nb * sizeof(sn_real));
    w->dl_steps++;
    return 1;
}

// block a's rows' velocity at the current impulses
static void delassus_velocity(const sn_world* w, int a, sn_real* c) {
    int nb = w->nblock;
    const sn_real* c0 = w->dl_c0 + 3 * a;
    sn_real c1 = c0[0], c2 = c0[1], c3 = c0[2];
    const sn_real* G = w->dl_G + 9 * (size_t)a * nb;
    for (int b = 0; b < nb; b++, G += 9) {
        const sn_real* lb = w->blk_lambda + 3 * b;
        c1 += G[0] * lb[0] + G[1] * lb[1] + G[2] * lb[2];
        c2 += G[3] * lb[0] + G[4] * lb[1] + G[5] * lb[2];
        c3 += G[6] * lb[0] + G[7] * lb[1] + G[8] * lb[2];
    }
    c[0] = c1, c[1] = c2, c[2] = c3;
}

// the systems' sweep velocities brought to the current impulses
static void delassus_sync(sn_world* w) {
    for (int a = 0; a < w->nblock; a++) {
        sn_real* ls = w->dl_sync + 3 * a;
        const sn_real* la = w->blk_lambda + 3 * a;
        sn_real dl[3] = {la[0] - ls[0], la[1] - ls[1], la[2] - ls[2]};
        if (dl[0] == 0 && dl[1] == 0 && dl[2] == 0) continue;
        block_push(w, a, 0, dl);
        ls[0] = la[0], ls[1] = la[1], ls[2] = la[2];
    }
}

// after the subspace step, which leaves the velocities at its impulses
static void delassus_synced(sn_world* w) {
    memcpy(w->dl_sync, w->blk_lambda, 3 * (size_t)w->nblock * sizeof(sn_real));
}


// each system's u* (s->du) becomes its u+. SN_ERR_SINGULAR when an M~ cannot be factored.
sn_status sni_world_contact_solve(sn_world* w, sn_real dt) {
    gather(w);
    w->solver_iterations = 0;
    if (w->nblock <= 0) {
        w->nprevious = 0;
        return SN_OK;
    }
    int nb = w->nblock;
    size_t stride = 3 * (size_t)w->nvmax;
    // M~ = M + diag(w) of every system with a block, factored in its tree's sparsity
    for (int si = 0; si < w->nsys; si++)
        w->sys[si]->solve_mark = 0;
    for (int k = 0; k < nb; k++) {
        w->sys[w->blk_sa[k]]->solve_mark = 1;
        if (w->blk_sb[k] >= 0) w->sys[w->blk_sb[k]]->solve_mark = 1;
    }
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->solve_mark) continue;
        if (!s->factored) { // the loops' elimination may have factored it for this step
            sn_crba(s->m, s->d);
            sn_status st = sni_factor_mass_diag(s->m, s->d, s->w);
            if (st != SN_OK) return st;
            for (int i = 0; i < s->m->nv; i++)
                s->dinv[i] = 1 / s->d->mass_factor_d[i];
            s->factored = 1;
        }
        memcpy(s->gs_v, s->du, (size_t)s->m->nv * sizeof(sn_real));
    }
    // each block's rows J, its own Delassus block G (from the half solves Z = L^-T J^T), then
    // Y = M~^-1 J^T (the rest of the solves)
    for (int k = 0; k < nb; k++) {
        block_rows(w, k, dt);
        for (int e = 0; e < 2; e++) {
            int si = e ? w->blk_sb[k] : w->blk_sa[k];
            if (si < 0) continue;
            const sn_system* s = w->sys[si];
            int nv = s->m->nv;
            const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + stride * k;
            sn_real* Y = (e ? w->blk_Yb : w->blk_Ya) + stride * k;
            memcpy(Y, J, (size_t)w->blk_dim[k] * nv * sizeof(sn_real));
            if (w->blk_dim[k] == 3)
                sni_half_solve3(s->m, s->d, Y);
            else
                sni_half_solve(s->m, s->d, Y);
        }
        own_block(w, k, w->blk_G + 9 * (size_t)k);
        if (w->blk_kind[k] == BLK_CONTACT) block_path(w, k);
        for (int e = 0; e < 2; e++) {
            int si = e ? w->blk_sb[k] : w->blk_sa[k];
            if (si < 0) continue;
            const sn_system* s = w->sys[si];
            sn_real* Y = (e ? w->blk_Yb : w->blk_Ya) + stride * k;
            // through the loops: the response of the constrained mechanism (projected while
            // still half solved, so the rest of the solve finishes both)
            if (s->loop_active)
                sni_loops_project_half(s, Y, w->blk_dim[k], e ? w->blk_lb[k] : w->blk_la[k]);
            if (w->blk_dim[k] == 3)
                sni_half_solve_rest3(s->m, s->d, Y);
            else
                sni_half_solve_rest(s->m, s->d, Y);
        }
        int looped = (w->blk_sa[k] >= 0 && w->sys[w->blk_sa[k]]->loop_active) ||
                     (w->blk_sb[k] >= 0 && w->sys[w->blk_sb[k]]->loop_active);
        if (looped) {
            // the response through the loops. A row the loops hold (its response below 1e-8 of
            // the free one: a contact's direction that only the whole closed mechanism could
            // move, a joint the loops lock) cannot act: its rows are cleared (J and Y 0, G 1 on
            // the diagonal), so it gets no impulse instead of one divided by rounding
            sn_real* G = w->blk_G + 9 * (size_t)k;
            sn_real free0[3] = {G[0], G[4], G[8]};
            block_coupling(w, k, k, G);
            int dim = w->blk_dim[k];
            for (int r = 0; r < dim; r++) {
                if (G[4 * r] > 1e-8 * free0[r]) continue;
                for (int e = 0; e < 2; e++) {
                    int si = e ? w->blk_sb[k] : w->blk_sa[k];
                    if (si < 0) continue;
                    int nv = w->sys[si]->m->nv;
                    memset((e ? w->blk_Jb : w->blk_Ja) + stride * k + (size_t)r * nv, 0,
                           (size_t)nv * sizeof(sn_real));
                    memset((e ? w->blk_Yb : w->blk_Ya) + stride * k + (size_t)r * nv, 0,
                           (size_t)nv * sizeof(sn_real));
                }
                for (int q = 0; q < 3; q++)
                    G[3 * r + q] = G[3 * q + r] = 0;
                G[4 * r] = w->blk_kind[k] == BLK_CONTACT ? 1 : 0; // a joint row: G 0, left out
                if (w->blk_kind[k] == BLK_CONTACT) w->blk_target[3 * k + r] = 0;
            }
        }
    }
    memset(w->blk_lambda, 0, 3 * (size_t)nb * sizeof(sn_real));
    if (w->warm_start) warm_start(w);
    for (int a = 0; a < nb; a++)
        block_velocity(w, a, 0, w->blk_c + 3 * a);
    int dense = delassus_begin(w);
    // Gauss-Seidel over blocks: each block's rows see the velocity the other blocks' impulses
    // leave, c = J v - target - G lambda_own; its local solve sets its impulse, and the systems'
    // velocities follow (v += Y dl)
    int it = 0;
    sn_real dv_prev = INFINITY;
    for (; it < w->solver_max_iter; it++) {
        sn_real change = 0, dv = 0;
        for (int a = 0; a < nb; a++) {
            int da = w->blk_dim[a];
            sn_real c[3], lam[3] = {0, 0, 0};
            const sn_real* G = w->blk_G + 9 * (size_t)a;
            sn_real* la = w->blk_lambda + 3 * a;
            if (dense)
                delassus_velocity(w, a, c);
            else
                block_velocity(w, a, 0, c);
            // the rows' velocity now against at the last sweep's visit: one sweep of the others'
            // changes apart
            for (int r = 0; r < da; r++) {
                sn_real e = fabs(c[r] - w->blk_c[3 * a + r]);
                dv = e > dv ? e : dv; // (fmax is a call)
                w->blk_c[3 * a + r] = c[r];
            }
            for (int r = 0; r < da; r++) {
                c[r] -= w->blk_target[3 * a + r];
                for (int q = 0; q < da; q++)
                    c[r] -= G[3 * r + q] * la[q];
            }
            local_solve(w, a, G, c, dt, lam);
            sn_real dl[3] = {lam[0] - la[0], lam[1] - la[1], lam[2] - la[2]};
            for (int r = 0; r < da; r++) {
                change = fabs(dl[r]) > change ? fabs(dl[r]) : change;
                la[r] = lam[r];
            }
            if (dl[0] == 0 && dl[1] == 0 && dl[2] == 0) continue;
            if (!dense) block_push(w, a, 0, dl);
        }
        // done when no impulse moved by more than the tolerance, or no row's velocity by more than
        // the tolerance over the sweep: on a redundant set (a body resting on more rows than it
        // has DOFs) the impulses drift slowly among the rows while the velocities barely change
        // (the lying humanoid: 7 sweeps per step where a hundredth of the tolerance took 11; the
        // walking Strandbeest, whose four feet on a mechanism of 7 DOFs drift for the whole
        // iteration limit: 44 where it took 58)
        if (change < w->solver_tol || (it > 0 && dv < w->solver_tol)) {
            it++;
            break;
        }
        // the subspace step when the rows' velocities settle slowly (by less than half per
        // sweep): where they settle fast, its ridge would only disturb them (the lying humanoid
        // at rest took 19 sweeps with it, 11 without)
        if ((it == 7 || it == 30) && dv > 0.5 * dv_prev) {
            if (dense) delassus_sync(w); // the subspace step works on the velocities
            subspace_step(w, dt);
            if (dense) delassus_synced(w);
        }
        dv_prev = dv;
    }
    if (dense) delassus_sync(w);
    w->solver_iterations = it;
    // u+ = u* + M~^-1 J^T lambda: the sweeps' velocity, which every impulse change has updated
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (s->solve_mark) memcpy(s->du, s->gs_v, (size_t)s->m->nv * sizeof(sn_real));
    }
    // M~^-1 J_c^T lambda_c of each system with loops, for their constraint impulses
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->solve_mark || !s->loop_active) continue;
        int nv = s->m->nv;
        memset(s->gs_fix, 0, (size_t)nv * sizeof(sn_real));
        for (int a = 0; a < nb; a++) {
            int e = w->blk_sa[a] == si ? 0 : w->blk_sb[a] == si ? 1 : -1;
            if (e < 0) continue;
            const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + stride * a;
            const sn_real* la = w->blk_lambda + 3 * a;
            for (int r = 0; r < w->blk_dim[a]; r++)
                if (la[r] != 0)
                    for (int i = 0; i < nv; i++)
                        s->gs_fix[i] += J[(size_t)r * nv + i] * la[r];
        }
        sn_solve_mass(s->m, s->d, s->gs_fix);
        s->loop_g = 1;
    }
    // the joint rows' impulses, for the next step's warm start
    for (int si = 0; si < w->nsys; si++)
        if (w->sys[si]->solve_mark)
            memset(w->sys[si]->row_prev, 0, 3 * (size_t)w->sys[si]->m->nv * sizeof(sn_real));
    for (int a = 0; a < nb; a++) {
        int kind = w->blk_kind[a];
        if (kind == BLK_CONTACT) continue;
        sn_system* s = w->sys[w->blk_sa[a]];
        int nv = s->m->nv, v = s->m->joint_vadr[w->blk_index[a]];
        s->row_prev[row_slot(kind) * nv + v] = w->blk_lambda[3 * a];
    }
    for (int a = 0; a < nb; a++) {
        const sn_real* la = w->blk_lambda + 3 * a;
        if (w->blk_kind[a] == BLK_CONTACT) {
            sni_contact* c = &w->contacts[w->blk_index[a]];
            for (int e = 0; e < 3; e++)
                c->impulse[e] =
                    c->frame[e] * la[0] + c->frame[3 + e] * la[1] + c->frame[6 + e] * la[2];
            if (la[2] > 0) {
                w->sys[c->sa]->has_contacted = 1;
                if (c->sb >= 0) w->sys[c->sb]->has_contacted = 1;
            }
        }
    }
    pseudo_velocities(w, dt);
    memcpy(w->previous, w->contacts, (size_t)w->ncontact * sizeof(sni_contact));
    w->nprevious = w->ncontact;
    return SN_OK;
}
