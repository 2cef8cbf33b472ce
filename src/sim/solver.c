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

static void add_block(sn_system* s, int kind, int index, int dim) {
    int k = s->nblock++;
    s->blk_kind[k] = kind;
    s->blk_index[k] = index;
    s->blk_dim[k] = dim;
}


// the blocks of this step: contacts, then limits, then friction
static void gather(sn_system* s, const sn_real* ustar) {
    const sn_model* m = s->m;
    const sn_real* q = s->d->q;
    s->nblock = 0;
    for (int i = 0; i < s->ncontact && s->nblock < s->block_cap; i++)
        add_block(s, BLK_CONTACT, i, 3);
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_REVOLUTE && t != SN_JOINT_PRISMATIC) continue;
        int v = m->joint_vadr[j], a = m->joint_qadr[j];
        int lim = 0;
        if (s->limits_off) goto friction;
        if (m->dof_limited[v] && s->nblock < s->block_cap) {
            if (q[a] < m->dof_lower[v])
                add_block(s, BLK_LOWER, j, 1), lim = 1;
            else if (q[a] > m->dof_upper[v])
                add_block(s, BLK_UPPER, j, 1), lim = 1;
        }
        sn_real vl = m->dof_velocity_limit[v];
        if (!lim && isfinite(vl) && vl > 0 && s->nblock < s->block_cap) {
            if (ustar[v] > vl)
                add_block(s, BLK_VEL_UPPER, j, 1);
            else if (ustar[v] < -vl)
                add_block(s, BLK_VEL_LOWER, j, 1);
        }
    friction:
        if (m->dof_friction[v] + s->fric_out[v] > 0 && s->nblock < s->block_cap)
            add_block(s, BLK_FRICTION, j, 1);
    }
}


// J rows of block k (dim x nv) and the target velocity of each row
static void block_rows(sn_system* s, int k, sn_real dt, sn_real* J, sn_real* target) {
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    int nv = m->nv;
    memset(J, 0, 3 * (size_t)nv * sizeof(sn_real));
    target[0] = target[1] = target[2] = 0;
    if (s->blk_kind[k] == BLK_CONTACT) {
        sni_contact* c = &s->contacts[s->blk_index[k]];
        // ground contacts: the contact frame is the world frame (t1 = x, t2 = y, n = z)
        sn_point_jacobian(m, d, c->body, c->pos, J, NULL);
        // normal target: stop at the surface (speculative gap), push out a penetration by erp,
        // and bounce with the restitution above its threshold
        sn_real depth = c->depth;
        target[2] = depth > 0 ? s->world->erp * depth / dt : depth / dt;
        sn_real approach = 0;
        for (int i = 0; i < nv; i++)
            approach -= J[2 * nv + i] * s->u0[i];
        const sn_world* w = s->world;
        if (w->restitution > 0 && approach > w->restitution_threshold) {
            sn_real bounce = w->restitution * approach;
            if (bounce > target[2]) target[2] = bounce;
        }
        return;
    }
    int j = s->blk_index[k], v = m->joint_vadr[j], a = m->joint_qadr[j];
    J[v] = 1;
    switch (s->blk_kind[k]) {
    case BLK_LOWER:
        target[0] = s->world->erp * (m->dof_lower[v] - d->q[a]) / dt;
        break;
    case BLK_UPPER:
        target[0] = s->world->erp * (m->dof_upper[v] - d->q[a]) / dt;
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

static void local_solve(sn_system* s, int k, const sn_real* G, const sn_real* c, sn_real dt,
                        sn_real* lam) {
    const sn_model* m = s->m;
    int kind = s->blk_kind[k];
    if (kind == BLK_CONTACT) {
        sni_contact* ct = &s->contacts[s->blk_index[k]];
        ct->slide = sni_contact_local(G, c, s->world->friction, lam);
        return;
    }
    sn_real g = G[0], x = -c[0] / g;
    int v = m->joint_vadr[s->blk_index[k]];
    switch (kind) {
    case BLK_LOWER:
    case BLK_VEL_LOWER:
        lam[0] = x > 0 ? x : 0;
        break;
    case BLK_UPPER:
    case BLK_VEL_UPPER:
        lam[0] = x < 0 ? x : 0;
        break;
    default: {
        sn_real b = (m->dof_friction[v] + s->fric_out[v]) * dt;
        lam[0] = x < -b ? -b : x > b ? b : x;
        break;
    }
    }
}


// the impulses of the step's contacts, limits and friction; u (nv) holds u* on entry and u+ on
// return. Returns SN_OK, or SN_ERR_SINGULAR when M~ cannot be factored.
sn_status sni_contact_solve(sn_system* s, sn_real dt, sn_real* u) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv;
    gather(s, u);
    s->solver_iterations = 0;
    if (s->nblock == 0) return SN_OK;
    // M~ = M + diag(w), factored in the tree's sparsity
    sn_crba(m, d);
    sn_status st = sni_factor_mass_diag(m, d, s->w);
    if (st != SN_OK) return st;
    int nb = s->nblock, cap = s->block_cap;
    for (int k = 0; k < nb; k++) {
        sn_real* J = s->blk_J + 3 * (size_t)nv * k;
        sn_real* Y = s->blk_Y + 3 * (size_t)nv * k;
        block_rows(s, k, dt, J, s->blk_target + 3 * k);
        for (int r = 0; r < s->blk_dim[k]; r++) {
            memcpy(Y + (size_t)r * nv, J + (size_t)r * nv, (size_t)nv * sizeof(sn_real));
            sn_solve_mass(m, d, Y + (size_t)r * nv);
        }
    }
    // G_ab = J_a Y_b^T, and c_a = J_a u* - target_a
    for (int a = 0; a < nb; a++) {
        const sn_real* Ja = s->blk_J + 3 * (size_t)nv * a;
        for (int b = 0; b < nb; b++) {
            const sn_real* Yb = s->blk_Y + 3 * (size_t)nv * b;
            sn_real* G = s->blk_G + 9 * ((size_t)a * cap + b);
            for (int r = 0; r < s->blk_dim[a]; r++)
                for (int q = 0; q < s->blk_dim[b]; q++) {
                    sn_real x = 0;
                    for (int i = 0; i < nv; i++)
                        x += Ja[(size_t)r * nv + i] * Yb[(size_t)q * nv + i];
                    G[3 * r + q] = x;
                }
        }
        sn_real* cc = s->blk_c + 3 * a;
        for (int r = 0; r < s->blk_dim[a]; r++) {
            sn_real x = 0;
            for (int i = 0; i < nv; i++)
                x += Ja[(size_t)r * nv + i] * u[i];
            cc[r] = x - s->blk_target[3 * a + r];
        }
    }
    memset(s->blk_lambda, 0, 3 * (size_t)nb * sizeof(sn_real));
    // Gauss-Seidel over blocks: cc_a holds c_a + sum_b G_ab lambda_b
    int it = 0;
    for (; it < s->world->solver_max_iter; it++) {
        sn_real change = 0;
        for (int a = 0; a < nb; a++) {
            int da = s->blk_dim[a];
            sn_real Gaa[9] = {0}, c[3] = {0, 0, 0}, lam[3] = {0, 0, 0};
            const sn_real* G = s->blk_G + 9 * ((size_t)a * cap + a);
            sn_real* la = s->blk_lambda + 3 * a;
            for (int r = 0; r < da; r++) {
                c[r] = s->blk_c[3 * a + r];
                for (int q = 0; q < da; q++) {
                    Gaa[3 * r + q] = G[3 * r + q];
                    c[r] -= G[3 * r + q] * la[q];
                }
            }
            local_solve(s, a, Gaa, c, dt, lam);
            sn_real dl[3] = {lam[0] - la[0], lam[1] - la[1], lam[2] - la[2]};
            for (int r = 0; r < da; r++) {
                change = fmax(change, fabs(dl[r]));
                la[r] = lam[r];
            }
            for (int b = 0; b < nb; b++) {
                const sn_real* Gba = s->blk_G + 9 * ((size_t)b * cap + a);
                for (int r = 0; r < s->blk_dim[b]; r++)
                    for (int q = 0; q < da; q++)
                        s->blk_c[3 * b + r] += Gba[3 * r + q] * dl[q];
            }
        }
        if (change < s->world->solver_tol) {
            it++;
            break;
        }
    }
    s->solver_iterations = it;
    // u+ = u* + sum_a Y_a lambda_a
    for (int a = 0; a < nb; a++) {
        const sn_real* Y = s->blk_Y + 3 * (size_t)nv * a;
        const sn_real* la = s->blk_lambda + 3 * a;
        for (int r = 0; r < s->blk_dim[a]; r++)
            for (int i = 0; i < nv; i++)
                u[i] += Y[(size_t)r * nv + i] * la[r];
        if (s->blk_kind[a] == BLK_CONTACT) {
            sni_contact* c = &s->contacts[s->blk_index[a]];
            v3_copy(c->impulse, la); // world frame for ground contacts
            if (la[2] > 0) s->has_contacted = 1;
        }
    }
    return SN_OK;
}
