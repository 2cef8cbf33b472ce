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

// lambda on the cone's curve at angle th: r(th) (cos, sin, 1/mu); returns r (< 0: invalid)
static sn_real curve_point(const sn_real* G, const sn_real* c, sn_real mu, sn_real th,
                           sn_real* lam) {
    sn_real ct = cos(th), st = sin(th);
    sn_real den = G[8] / mu + G[6] * ct + G[7] * st;
    sn_real r = den > 0 ? -c[2] / den : -1;
    lam[0] = r * ct, lam[1] = r * st, lam[2] = r / mu;
    return r;
}


// Coulomb's condition along the curve: the friction (cos th, sin th) must be anti-parallel to
// the tangential velocity after the impulse, v_t = (G lambda + c)_t; this is zero there:
//   f(th) = v_t1 sin th - v_t2 cos th
// (algorithms.md B.2 bisects the slope of the contact-space energy along the same curve; the two
// differ when the normal and tangential rows of G couple, as at the corners of a box, and the
// energy's root then tilts the friction by up to ten degrees: a box sliding on four corners
// decelerates 2 % below mu g. The tier-C cases need Coulomb's law itself.)
static sn_real curve_slope(const sn_real* G, const sn_real* c, sn_real mu, sn_real th,
                           const sn_real* lam) {
    (void)mu;
    sn_real v[3];
    m3_mul_v3(v, G, lam);
    v3_add(v, v, c);
    return v[0] * sin(th) - v[1] * cos(th);
}


// G (3x3, rows t1 t2 n), c (3), mu: the impulse of one contact; returns the case (0 open,
// 1 stick, 2 slide)
int sni_contact_local(const sn_real* G, const sn_real* c, sn_real mu, sn_real* lam) {
    if (c[2] >= 0) {
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
    sn_real lt = sqrt(l0[0] * l0[0] + l0[1] * l0[1]);
    if (l0[2] >= 0 && lt <= mu * l0[2]) {
        v3_copy(lam, l0);
        return 1;
    }
    // sliding: the friction direction th with lambda = r (cos th, sin th, 1/mu), zero normal
    // velocity, and the tangential velocity anti-parallel to the friction. A fixed-point
    // iteration th <- direction of -v_t converges when the rows couple weakly; otherwise the
    // curve is scanned for a sign change of f(th) facing the slip, then bisected.
    sn_real th = atan2(l0[1], l0[0]), l[3], v[3];
    for (int it = 0; it < 60; it++) {
        if (curve_point(G, c, mu, th, l) < 0) break;
        m3_mul_v3(v, G, l);
        v3_add(v, v, c);
        sn_real next = atan2(-v[1], -v[0]);
        sn_real diff = remainder(next - th, 2 * M_PI);
        th = next;
        if (fabs(diff) < 1e-13) {
            curve_point(G, c, mu, th, lam);
            return 2;
        }
    }
    enum { N = 48 };
    sn_real prev_t = 0, prev_f = 0;
    int have_prev = 0;
    for (int k = 0; k <= N; k++) {
        sn_real t = th + 2 * M_PI * k / N;
        if (curve_point(G, c, mu, t, l) < 0) {
            have_prev = 0;
            continue;
        }
        m3_mul_v3(v, G, l);
        v3_add(v, v, c);
        sn_real f = v[0] * sin(t) - v[1] * cos(t);
        int facing = v[0] * cos(t) + v[1] * sin(t) <= 0;
        if (have_prev && facing && (f > 0) != (prev_f > 0)) {
            sn_real lo = prev_t, hi = t, flo = prev_f;
            for (int it = 0; it < 100 && hi - lo > 1e-13; it++) {
                sn_real mid = 0.5 * (lo + hi);
                curve_point(G, c, mu, mid, l);
                sn_real fm = curve_slope(G, c, mu, mid, l);
                if ((fm > 0) == (flo > 0))
                    lo = mid, flo = fm;
                else
                    hi = mid;
            }
            curve_point(G, c, mu, 0.5 * (lo + hi), lam);
            return 2;
        }
        prev_t = t, prev_f = f, have_prev = facing;
    }
    // no root found (a degenerate G): the sticking impulse projected on the cone
    sn_real scale = mu * (l0[2] > 0 ? l0[2] : 0) / (lt > 0 ? lt : 1);
    v3_set(lam, l0[0] * scale, l0[1] * scale, l0[2] > 0 ? l0[2] : 0);
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
        sn_real approach = -row_dot(Ja + 2 * sa->m->nv, sa->u0, sa->m->nv);
        if (sb) approach -= row_dot(Jb + 2 * sb->m->nv, sb->u0, sb->m->nv);
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
    lam[0] = joint_row_clamp(w, k, -c[0] / G[0], dt);
}


// rows of block k on system si: J and Y, or NULL when the block does not touch it
static void side(const sn_world* w, int k, int si, const sn_real** J, const sn_real** Y) {
    size_t off = 3 * (size_t)w->nvmax * k;
    *J = *Y = NULL;
    if (w->blk_sa[k] == si)
        *J = w->blk_Ja + off, *Y = w->blk_Ya + off;
    else if (w->blk_sb[k] == si)
        *J = w->blk_Jb + off, *Y = w->blk_Yb + off;
}


// G_xy (dim_x x dim_y) summed over the systems the two blocks share: Z_x^T D^-1 Z_y with
// Z = L^-T J^T, the half solves kept in blk_Ya / blk_Yb
static void coupling(const sn_world* w, int x, int y, sn_real* G) {
    memset(G, 0, 9 * sizeof(sn_real));
    int sys[2] = {w->blk_sa[x], w->blk_sb[x]};
    for (int e = 0; e < 2; e++) {
        if (sys[e] < 0) continue;
        const sn_real *Jx, *Zx, *Jy, *Zy;
        side(w, x, sys[e], &Jx, &Zx);
        side(w, y, sys[e], &Jy, &Zy);
        if (!Jy) continue;
        const sn_system* s = w->sys[sys[e]];
        const sn_model* m = s->m;
        int nv = m->nv;
        const sn_real* dinv = s->dinv;
        // Z = L^-T J^T lives on the path of the block's rows: walk x's path only, all the
        // row pairs at once
        int last = e ? w->blk_lb[x] : w->blk_la[x];
        for (int r = 0; r < w->blk_dim[x]; r++)
            for (int q = 0; q < w->blk_dim[y]; q++) {
                const sn_real* a = Zx + (size_t)r * nv;
                const sn_real* b = Zy + (size_t)q * nv;
                sn_real g = 0;
                if (last == -2)
                    for (int i = 0; i < nv; i++)
                        g += a[i] * b[i] * dinv[i];
                else
                    for (int i = last; i >= 0; i = m->dof_parent[i])
                        g += a[i] * b[i] * dinv[i];
                G[3 * r + q] += g;
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


// out (nv of system si) <- M~^-1 sum over the blocks touching si of J^T v, with v the block's
// impulse rows, or (pseudo) the pseudo-impulses of the position correction
static void apply_impulses(sn_world* w, int si, int pseudo, sn_real* out) {
    sn_system* s = w->sys[si];
    int nv = s->m->nv;
    size_t stride = 3 * (size_t)w->nvmax;
    memset(out, 0, (size_t)nv * sizeof(sn_real));
    for (int a = 0; a < w->nblock; a++) {
        int e = w->blk_sa[a] == si ? 0 : w->blk_sb[a] == si ? 1 : -1;
        if (e < 0) continue;
        const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + stride * a;
        const sn_real* la = w->blk_lambda + 3 * a;
        for (int r = 0; r < w->blk_dim[a]; r++) {
            sn_real l = pseudo ? (r == pseudo_row(w, a) ? w->blk_target[3 * a + 1] : 0) : la[r];
            if (l == 0) continue;
            for (int i = 0; i < nv; i++)
                out[i] += J[(size_t)r * nv + i] * l;
        }
    }
    sn_solve_mass(s->m, s->d, out);
}


// penetrations and excursions past joint limits are removed through the positions only (a
// split impulse): pseudo-impulses p on the contacts' normal rows (p >= 0) and the limits' rows
// (p >= 0 at a lower limit, <= 0 at an upper one), solved together by Gauss-Seidel so that
// G p = erp x (depth or excursion) / dt on every such row, give pseudo-velocities M~^-1 J^T p
// that move the positions of this step and are then forgotten: the correction adds no kinetic
// energy, and a limit's correction cannot push a body into the ground (or the other way round)
static void pseudo_velocities(sn_world* w, sn_real dt) {
    int nb = w->nblock, cap = w->block_cap, any = 0;
    // blk_target is reused: [3a] the row's target, [3a + 1] its pseudo-impulse; blk_c[3a] holds
    // the residual G p - target
    for (int a = 0; a < nb; a++) {
        sn_real t = pseudo_target(w, a, dt);
        any |= t != 0;
        w->blk_target[3 * a] = t;
        w->blk_target[3 * a + 1] = 0;
        w->blk_c[3 * a] = -t;
    }
    if (!any) return;
    for (int it = 0; it < w->solver_max_iter; it++) {
        sn_real change = 0;
        for (int a = 0; a < nb; a++) {
            int kind = w->blk_kind[a], ra = pseudo_row(w, a);
            if (!has_pseudo_row(kind)) continue;
            const sn_real* Gaa = w->blk_G + 9 * ((size_t)a * cap + a);
            sn_real* p = &w->blk_target[3 * a + 1];
            sn_real np = *p - w->blk_c[3 * a] / Gaa[4 * ra];
            if (kind == BLK_UPPER ? np > 0 : np < 0) np = 0;
            sn_real dp = np - *p;
            if (dp == 0) continue;
            *p = np;
            change = fmax(change, fabs(dp));
            for (int b = 0; b < nb; b++)
                if (has_pseudo_row(w->blk_kind[b]))
                    w->blk_c[3 * b] +=
                        w->blk_G[9 * ((size_t)b * cap + a) + 3 * pseudo_row(w, b) + ra] * dp;
        }
        if (change < w->solver_tol) break;
    }
    for (int si = 0; si < w->nsys; si++)
        if (w->sys[si]->solve_mark) apply_impulses(w, si, 1, w->sys[si]->pseudo);
}


// start each contact from the impulse of the same contact in the last step: same geometries,
// closest point within 2 cm, its world impulse expressed in the new frame, clipped to the cone
// a joint row's slot in row_prev: 0 position limit, 1 velocity limit, 2 friction
static int row_slot(int kind) {
    return kind == BLK_LOWER || kind == BLK_UPPER ? 0 : kind == BLK_FRICTION ? 2 : 1;
}


static void warm_start(sn_world* w) {
    int nb = w->nblock, cap = w->block_cap;
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
    // blk_c holds c + G lambda
    for (int x = 0; x < nb; x++)
        for (int y = 0; y < nb; y++) {
            const sn_real* ly = w->blk_lambda + 3 * y;
            if (ly[0] == 0 && ly[1] == 0 && ly[2] == 0) continue;
            const sn_real* G = w->blk_G + 9 * ((size_t)x * cap + y);
            for (int r = 0; r < w->blk_dim[x]; r++)
                for (int q = 0; q < w->blk_dim[y]; q++)
                    w->blk_c[3 * x + r] += G[3 * r + q] * ly[q];
        }
}


// the impulses of the step's contacts, limits and friction over every system in the solver;
// each system's u* (s->du) becomes its u+. SN_ERR_SINGULAR when an M~ cannot be factored.
sn_status sni_world_contact_solve(sn_world* w, sn_real dt) {
    gather(w);
    w->solver_iterations = 0;
    if (w->nblock == 0) {
        w->nprevious = 0;
        return SN_OK;
    }
    int nb = w->nblock, cap = w->block_cap;
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
        sn_crba(s->m, s->d);
        sn_status st = sni_factor_mass_diag(s->m, s->d, s->w);
        if (st != SN_OK) return st;
        for (int i = 0; i < s->m->nv; i++)
            s->dinv[i] = 1 / s->d->mass_factor_d[i];
    }
    for (int k = 0; k < nb; k++) {
        block_rows(w, k, dt);
        for (int e = 0; e < 2; e++) {
            int si = e ? w->blk_sb[k] : w->blk_sa[k];
            if (si < 0) continue;
            const sn_system* s = w->sys[si];
            int nv = s->m->nv;
            const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + stride * k;
            sn_real* Y = (e ? w->blk_Yb : w->blk_Ya) + stride * k;
            for (int r = 0; r < w->blk_dim[k]; r++) {
                memcpy(Y + (size_t)r * nv, J + (size_t)r * nv, (size_t)nv * sizeof(sn_real));
                sni_half_solve(s->m, s->d, Y + (size_t)r * nv);
            }
        }
    }
    // G_xy, and c_x = J_x u* - target_x
    for (int x = 0; x < nb; x++) {
        // G is symmetric: G_yx = G_xy^T
        for (int y = x; y < nb; y++) {
            sn_real* gxy = w->blk_G + 9 * ((size_t)x * cap + y);
            coupling(w, x, y, gxy);
            if (y == x) continue;
            sn_real* gyx = w->blk_G + 9 * ((size_t)y * cap + x);
            for (int r = 0; r < 3; r++)
                for (int q = 0; q < 3; q++)
                    gyx[3 * q + r] = gxy[3 * r + q];
        }
        for (int r = 0; r < w->blk_dim[x]; r++) {
            sn_real cx = -w->blk_target[3 * x + r];
            for (int e = 0; e < 2; e++) {
                int si = e ? w->blk_sb[x] : w->blk_sa[x];
                if (si < 0) continue;
                const sn_system* s = w->sys[si];
                const sn_real* J = (e ? w->blk_Jb : w->blk_Ja) + stride * x;
                cx += row_dot(J + (size_t)r * s->m->nv, s->du, s->m->nv);
            }
            w->blk_c[3 * x + r] = cx;
        }
    }
    memset(w->blk_lambda, 0, 3 * (size_t)nb * sizeof(sn_real));
    if (w->warm_start) warm_start(w);
    // Gauss-Seidel over blocks: blk_c holds c_x + sum_y G_xy lambda_y
    int it = 0;
    for (; it < w->solver_max_iter; it++) {
        sn_real change = 0;
        memcpy(w->blk_v0, w->blk_c, 3 * (size_t)nb * sizeof(sn_real));
        for (int a = 0; a < nb; a++) {
            int da = w->blk_dim[a];
            sn_real Gaa[9] = {0}, c[3] = {0, 0, 0}, lam[3] = {0, 0, 0};
            const sn_real* G = w->blk_G + 9 * ((size_t)a * cap + a);
            sn_real* la = w->blk_lambda + 3 * a;
            for (int r = 0; r < da; r++) {
                c[r] = w->blk_c[3 * a + r];
                for (int q = 0; q < da; q++) {
                    Gaa[3 * r + q] = G[3 * r + q];
                    c[r] -= G[3 * r + q] * la[q];
                }
            }
            local_solve(w, a, Gaa, c, dt, lam);
            sn_real dl[3] = {lam[0] - la[0], lam[1] - la[1], lam[2] - la[2]};
            for (int r = 0; r < da; r++) {
                change = fmax(change, fabs(dl[r]));
                la[r] = lam[r];
            }
            if (dl[0] == 0 && dl[1] == 0 && dl[2] == 0) continue;
            for (int b = 0; b < nb; b++) {
                const sn_real* Gba = w->blk_G + 9 * ((size_t)b * cap + a);
                for (int r = 0; r < w->blk_dim[b]; r++)
                    for (int q = 0; q < da; q++)
                        w->blk_c[3 * b + r] += Gba[3 * r + q] * dl[q];
            }
        }
        // done when no impulse moved by more than the tolerance, or no row's velocity by more than
        // a hundredth of it: on a redundant set (a body resting on more rows than it has DOFs)
        // the impulses drift slowly among the rows while the velocities barely change (the
        // lying humanoid: 37 sweeps per step instead of 54; the stack of five boxes: 33 for 35)
        sn_real dv = 0;
        for (int a = 0; a < nb; a++)
            for (int r = 0; r < w->blk_dim[a]; r++)
                dv = fmax(dv, fabs(w->blk_c[3 * a + r] - w->blk_v0[3 * a + r]));
        if (change < w->solver_tol || dv < 0.01 * w->solver_tol) {
            it++;
            break;
        }
    }
    w->solver_iterations = it;
    // the contacts and their impulses for the next step's warm start (after the impulses below)
    // u+ = u* + M~^-1 J^T lambda, one full solve per system; the contacts' world impulses
    for (int si = 0; si < w->nsys; si++) {
        sn_system* s = w->sys[si];
        if (!s->solve_mark) continue;
        apply_impulses(w, si, 0, w->scratch);
        for (int i = 0; i < s->m->nv; i++)
            s->du[i] += w->scratch[i];
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
