// SPDX-License-Identifier: Apache-2.0
// rows.c: the blocks of a step and their rows: gather (contacts, then each system's limit and
// friction rows) and prepare rows (J on each side, the block's own Delassus block G, Y = M~^-1 J^T
// through the tree's sparse factor and, with loops, projected onto the constrained mechanism).
// The restitution targets of the contacts' normal rows are bounce.c's.
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// ---- gather ----

static void add_block(sni_solver* sv, int kind, int index, int sa, int sb, int dim) {
    int k = sv->nblock++;
    sv->blk_kind[k] = kind;
    sv->blk_index[k] = index;
    sv->blk_sa[k] = sa;
    sv->blk_sb[k] = sb;
    sv->blk_dim[k] = dim;
}


// the rows joint j of system s has this step, their kinds into kinds (at most 2), their number:
// revolute joints in seed 000's sense (URDF revolute and continuous, and prismatic) have a
// position-limit row outside their range, else a velocity-limit row where u* exceeds the limit,
// and a friction row
static int joint_rows(const sn_system* s, int j, int* kinds) {
    const sn_model* m = s->m;
    int t = m->joint_type[j];
    if (t != SN_JOINT_REVOLUTE && t != SN_JOINT_CONTINUOUS && t != SN_JOINT_PRISMATIC) return 0;
    const sn_real* q = s->d->q;
    const sn_real* ustar = s->step.u1;
    int v = m->joint_vadr[j], a = m->joint_qadr[j], n = 0;
    if (!s->ctl.limits_off && m->dof_limited[v]) {
        if (q[a] < m->dof_lower[v])
            kinds[n++] = SN_ROW_LIMIT_LOWER;
        else if (q[a] > m->dof_upper[v])
            kinds[n++] = SN_ROW_LIMIT_UPPER;
    }
    sn_real vl = m->dof_velocity_limit[v];
    if (!s->ctl.limits_off && n == 0 && isfinite(vl) && vl > 0) {
        if (ustar[v] > vl)
            kinds[n++] = SN_ROW_VELOCITY_UPPER;
        else if (ustar[v] < -vl)
            kinds[n++] = SN_ROW_VELOCITY_LOWER;
    }
    if (m->dof_friction[v] + s->act.fric_out[v] > 0) kinds[n++] = SN_ROW_FRICTION;
    return n;
}


// a contact's block is in the solve when both its systems are
static int contact_in_solve(sn_system* const* sys, const sni_contact* c) {
    return sys[c->sa]->solve.in_solver && (c->sb < 0 || sys[c->sb]->solve.in_solver);
}


// the blocks of this step: contacts, then each system's limits and friction. (They never reach
// block_cap: it has room for every contact and two rows per 1-DOF joint.)
void sni_solver_gather(sni_solver* sv) {
    int cap = sv->size.block_cap;
    sv->nblock = 0;
    for (int i = 0; i < sv->ncontact && sv->nblock < cap; i++) {
        const sni_contact* c = &sv->contacts[i];
        if (contact_in_solve(sv->sys, c)) add_block(sv, SN_ROW_CONTACT, i, c->sa, c->sb, 3);
    }
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.in_solver) continue;
        for (int j = 0; j < s->m->njoint && sv->nblock < cap; j++) {
            int kinds[2], n = joint_rows(s, j, kinds);
            for (int r = 0; r < n && sv->nblock < cap; r++)
                add_block(sv, kinds[r], j, si, -1, 1);
        }
        if (s->m->ntendon) sni_solver_tendon_gather(sv, si); // solver/tendon.c
    }
}


int sni_solver_acts_on(const sn_world* w, const sn_system* s) {
    if (!s->solve.in_solver) return 0;
    if (sni_couple_acts_on(w, s)) return 1;
    for (int i = 0; i < w->ncontact; i++) {
        const sni_contact* c = &w->contacts[i];
        if ((c->sa == s->index || c->sb == s->index) && contact_in_solve(w->sys, c)) return 1;
    }
    int kinds[2];
    for (int j = 0; j < s->m->njoint; j++)
        if (joint_rows(s, j, kinds) > 0) return 1;
    return s->m->ntendon && sni_solver_tendon_acts(s);
}


// ---- prepare rows ----

// rows of a contact's point on one side: frame (rows t1, t2, n) times the point Jacobian
static void contact_rows(const sn_system* s, int body, const sn_real* x, const sn_real* frame,
                         sn_real sign, sn_real* J, sn_real* point_jac) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sn_point_jacobian(m, s->d, body, x, point_jac, NULL);
    memset(J, 0, 3 * (size_t)nv * sizeof(sn_real));
    for (int i = sni_body_last_dof(m, body); i >= 0; i = m->dof_parent[i])
        for (int r = 0; r < 3; r++)
            J[(size_t)r * nv + i] =
                sign * (frame[3 * r] * point_jac[i] + frame[3 * r + 1] * point_jac[nv + i] +
                        frame[3 * r + 2] * point_jac[2 * nv + i]);
}


// J rows of block k on both sides, and the target velocity of each row (restitution apart)
static void block_rows(sni_solver* sv, int k) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    sn_real* Ja = sv->blk_Ja + stride * k;
    sn_real* Jb = sv->blk_Jb + stride * k;
    sn_real* target = sv->blk_target + 3 * k;
    sn_system* sa = sv->sys[sv->blk_sa[k]];
    target[0] = target[1] = target[2] = 0;
    if (sv->blk_kind[k] == SN_ROW_CONTACT) {
        sni_contact* c = &sv->contacts[sv->blk_index[k]];
        contact_rows(sa, c->body, c->pos, c->frame, 1, Ja, sv->point_jac);
        sv->blk_la[k] = sni_body_last_dof(sa->m, c->body);
        sn_system* sb = c->sb >= 0 ? sv->sys[c->sb] : NULL;
        sv->blk_lb[k] = -1;
        if (sb && c->sb == c->sa) {
            // two bodies of one system: one set of rows, J_a(p) - J_b(p), on that system
            contact_rows(sb, c->body_b, c->pos, c->frame, -1, Jb, sv->point_jac);
            int nv = sa->m->nv;
            for (int i = 0; i < 3 * nv; i++)
                Ja[i] += Jb[i];
            sv->blk_sb[k] = -1;
            // the rows now live on both paths: -2 makes the couplings walk every DOF
            sv->blk_la[k] = -2;
        } else if (sb) {
            contact_rows(sb, c->body_b, c->pos, c->frame, -1, Jb, sv->point_jac);
            sv->blk_lb[k] = sni_body_last_dof(sb->m, c->body_b);
        }
        // normal target: stop at the surface (speculative gap). A penetration stops (its removal
        // is a position correction, see sni_solver_position_correction); a gap within the
        // margin may close, no further, and never bounces unless it closes within the step
        // (sni_solver_restitution, which then replaces this target)
        target[2] = c->depth > 0 ? 0 : c->depth / sv->dt;
        return;
    }
    if (!sni_solver_joint_row(sv->blk_kind[k])) {
        sni_solver_tendon_rows(sv, k);
        return;
    }
    const sn_model* m = sa->m;
    int j = sv->blk_index[k], v = m->joint_vadr[j];
    memset(Ja, 0, (size_t)m->nv * sizeof(sn_real));
    Ja[v] = 1;
    sv->blk_la[k] = v;
    sv->blk_lb[k] = -1;
    switch (sv->blk_kind[k]) {
    case SN_ROW_LIMIT_LOWER:
    case SN_ROW_LIMIT_UPPER:
        // a hard stop with zero restitution: the row stops the joint; the excursion is removed
        // through the positions (erp of it per step, see sni_solver_position_correction), so no
        // push-out velocity stays once the joint is back at its limit
        break;
    case SN_ROW_VELOCITY_UPPER:
        target[0] = m->dof_velocity_limit[v];
        break;
    case SN_ROW_VELOCITY_LOWER:
        target[0] = -m->dof_velocity_limit[v];
        break;
    default:
        break;
    }
}


// the block's own Delassus block G = J M~^-1 J^T (dim x dim), summed over its systems: Z^T D^-1
// Z with Z = L^-T J^T (the half solves in blk_Ya / blk_Yb), on the path of the block's rows (the
// sides on the clusters' route have added theirs already, cluster_side)
static void own_block(const sni_solver* sv, int x, sn_real* G) {
    size_t off = 3 * (size_t)sv->size.nvmax * x;
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[x] : sv->blk_sa[x];
        if (si < 0 || sv->sys[si]->loops.route) continue;
        const sn_real* Z = (e ? sv->blk_Yb : sv->blk_Ya) + off;
        const sn_system* s = sv->sys[si];
        const sn_model* m = s->m;
        int nv = m->nv, last = e ? sv->blk_lb[x] : sv->blk_la[x], dim = sv->blk_dim[x];
        const sn_real* dinv = s->step.dinv;
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


// the DOFs a contact's rows act on, per side, as a list (the path of its body to the root, or
// every DOF for the rows of two bodies of one system)
static void block_path(sni_solver* sv, int x) {
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[x] : sv->blk_sa[x], len = 0;
        int* path = sv->blk_path + (2 * (size_t)x + e) * sv->size.nvmax;
        if (si >= 0) {
            const sn_model* m = sv->sys[si]->m;
            int last = e ? sv->blk_lb[x] : sv->blk_la[x];
            if (last == -2)
                for (int i = 0; i < m->nv; i++)
                    path[len++] = i;
            else
                for (int i = last; i >= 0; i = m->dof_parent[i])
                    path[len++] = i;
        }
        sv->blk_plen[2 * x + e] = len;
    }
}


// the rows of block k through the loops: the response of the constrained mechanism. A row the
// loops hold (its response below 1e-8 of the free one: a contact's direction that only the whole
// closed mechanism could move, a joint the loops lock) cannot act: its rows are cleared (J and Y
// 0, G 1 on the diagonal), so it gets no impulse instead of one divided by rounding
static void looped_rows(sni_solver* sv, int k) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    sn_real* G = sv->blk_G + 9 * (size_t)k;
    sn_real free0[3] = {G[0], G[4], G[8]};
    sni_solver_coupling(sv, k, k, G);
    int dim = sv->blk_dim[k];
    for (int r = 0; r < dim; r++) {
        if (G[4 * r] > 1e-8 * free0[r]) continue;
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[k] : sv->blk_sa[k];
            if (si < 0) continue;
            int nv = sv->sys[si]->m->nv;
            memset((e ? sv->blk_Jb : sv->blk_Ja) + stride * k + (size_t)r * nv, 0,
                   (size_t)nv * sizeof(sn_real));
            memset((e ? sv->blk_Yb : sv->blk_Ya) + stride * k + (size_t)r * nv, 0,
                   (size_t)nv * sizeof(sn_real));
        }
        for (int q = 0; q < 3; q++)
            G[3 * r + q] = G[3 * q + r] = 0;
        G[4 * r] = sv->blk_kind[k] == SN_ROW_CONTACT ? 1 : 0; // a joint row: G 0, left out
        if (sv->blk_kind[k] == SN_ROW_CONTACT) sv->blk_target[3 * k + r] = 0;
    }
}


// block k's side e on a system whose loops took the clusters' route (loops/cluster.c: no factor
// of M~): Y = M_c^-1 J^T by the clusters' solve, row by row, and the side's share of the free
// block J M~^-1 J^T into G (looped_rows tells the rows the loops hold by it) through the factor
// that the free velocity's ABA left
static void cluster_side(sni_solver* sv, int k, int e, sn_real* G) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    const sn_system* s = sv->sys[e ? sv->blk_sb[k] : sv->blk_sa[k]];
    const sn_model* m = s->m;
    int nv = m->nv, dim = sv->blk_dim[k];
    const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + stride * k;
    sn_real* Y = (e ? sv->blk_Yb : sv->blk_Ya) + stride * k;
    const sni_loop_clusters* cl = &s->loops.cl;
    sn_real* fr = s->loops.zd; // 3 nv: the free responses
    for (int r = 0; r < dim; r++) {
        const sn_real* jr = J + (size_t)r * nv;
        sni_loops_cluster_solve(s, jr, NULL, Y + (size_t)r * nv, s->loops.sol);
        sni_aba_resolve(m, s->d, s->ctl.w, jr, fr + (size_t)r * nv, cl->p, cl->acc, cl->uu);
    }
    for (int r = 0; r < dim; r++)
        for (int q = r; q < dim; q++) {
            sn_real g = 0;
            for (int i = 0; i < nv; i++)
                g += J[(size_t)r * nv + i] * fr[(size_t)q * nv + i];
            G[3 * r + q] += g;
            if (q != r) G[3 * q + r] += g;
        }
}


// each block's rows J, its own Delassus block G (from the half solves Z = L^-T J^T), then
// Y = M~^-1 J^T (the rest of the solves); on the clusters' route Y by their solve
void sni_solver_prepare_rows(sni_solver* sv) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    for (int k = 0; k < sv->nblock; k++) {
        block_rows(sv, k);
        sn_real* G = sv->blk_G + 9 * (size_t)k;
        memset(G, 0, 9 * sizeof(sn_real));
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[k] : sv->blk_sa[k];
            if (si < 0) continue;
            const sn_system* s = sv->sys[si];
            int nv = s->m->nv;
            if (s->loops.route) {
                cluster_side(sv, k, e, G);
                continue;
            }
            const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + stride * k;
            sn_real* Y = (e ? sv->blk_Yb : sv->blk_Ya) + stride * k;
            memcpy(Y, J, (size_t)sv->blk_dim[k] * nv * sizeof(sn_real));
            if (sv->blk_dim[k] == 3)
                sni_half_solve3(s->m, &s->step.mtilde, Y);
            else
                sni_half_solve(s->m, &s->step.mtilde, Y);
        }
        own_block(sv, k, G);
        if (!sni_solver_joint_row(sv->blk_kind[k])) block_path(sv, k);
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[k] : sv->blk_sa[k];
            if (si < 0 || sv->sys[si]->loops.route) continue;
            const sn_system* s = sv->sys[si];
            sn_real* Y = (e ? sv->blk_Yb : sv->blk_Ya) + stride * k;
            // through the loops: the response of the constrained mechanism (projected while
            // still half solved, so the rest of the solve finishes both)
            if (s->loops.active)
                sni_loops_project_half(s, Y, sv->blk_dim[k], e ? sv->blk_lb[k] : sv->blk_la[k]);
            if (sv->blk_dim[k] == 3)
                sni_half_solve_rest3(s->m, &s->step.mtilde, Y);
            else
                sni_half_solve_rest(s->m, &s->step.mtilde, Y);
        }
        int looped = (sv->blk_sa[k] >= 0 && sv->sys[sv->blk_sa[k]]->loops.active) ||
                     (sv->blk_sb[k] >= 0 && sv->sys[sv->blk_sb[k]]->loops.active);
        if (looped) looped_rows(sv, k);
    }
}
