// SPDX-License-Identifier: Apache-2.0
// sweep.c: the solver's Gauss-Seidel sweeps over its blocks: the warm start, the sweeps in
// velocity form (each visit reads its rows' velocity from the systems' sweep velocities and pushes
// its impulse change back, v += Y dl) or in Delassus form (the blocks' couplings formed once), and
// the position correction: sweeps of its own over the position rows, then those rows in Delassus
// form, solved exactly by an active-set method where no loop acts. The helpers that read and
// push the sweep velocities live here, beside the loops that call them per visit.
#include "base/smath.h"
#include "couple/couple.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// ---- the rows' velocities and impulses ----

// the velocity of block x's rows at the systems' sweep velocities (s->solve.v, or with pseudo
// the pseudo-velocities): J_a v_a + J_b v_b
static void block_velocity(const sni_solver* sv, int x, int pseudo, sn_real* c) {
    size_t off = 3 * (size_t)sv->size.nvmax * x;
    c[0] = c[1] = c[2] = 0;
    if (sni_solver_joint_row(sv->blk_kind[x])) {
        // a joint row: J = e_v
        const sn_system* s = sv->sys[sv->blk_sa[x]];
        c[0] = (pseudo ? s->solve.pseudo : s->solve.v)[s->m->joint_vadr[sv->blk_index[x]]];
        return;
    }
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[x] : sv->blk_sa[x];
        if (si < 0) continue;
        const sn_system* s = sv->sys[si];
        const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + off;
        const sn_real* v = pseudo ? s->solve.pseudo : s->solve.v;
        int nv = s->m->nv, len = sv->blk_plen[2 * x + e];
        const int* path = sv->blk_path + (2 * (size_t)x + e) * sv->size.nvmax;
        const sn_real *j0 = J, *j1 = J + nv, *j2 = J + 2 * (size_t)nv;
        sn_real g0 = 0, g1 = 0, g2 = 0;
        if (pseudo) { // the normal row only (a tendon row's only row)
            const sn_real* jn = sv->blk_dim[x] == 3 ? j2 : j0;
            for (int k = 0; k < len; k++)
                g2 += jn[path[k]] * v[path[k]];
            if (sv->blk_dim[x] == 1) g0 = g2, g2 = 0;
        } else {
            for (int k = 0; k < len; k++) {
                int i = path[k];
                g0 += j0[i] * v[i], g1 += j1[i] * v[i], g2 += j2[i] * v[i];
            }
        }
        c[0] += g0, c[1] += g1, c[2] += g2;
    }
}


void sni_solver_row_velocity(const sni_solver* sv, int x, sn_real* c) {
    block_velocity(sv, x, 0, c);
}


// the sweep velocities after an impulse change dl of block x: v += Y dl on each side (pseudo:
// dl on the position correction's row only, into the pseudo-velocities)
static void block_push(sni_solver* sv, int x, int pseudo, const sn_real* dl) {
    size_t off = 3 * (size_t)sv->size.nvmax * x;
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[x] : sv->blk_sa[x];
        if (si < 0) continue;
        sn_system* s = sv->sys[si];
        int nv = s->m->nv;
        const sn_real* Y = (e ? sv->blk_Yb : sv->blk_Ya) + off;
        sn_real* v = pseudo ? s->solve.pseudo : s->solve.v;
        if (sv->blk_dim[x] == 3 && !pseudo) {
            const sn_real *y0 = Y, *y1 = Y + nv, *y2 = Y + 2 * (size_t)nv;
            for (int i = 0; i < nv; i++)
                v[i] += y0[i] * dl[0] + y1[i] * dl[1] + y2[i] * dl[2];
            continue;
        }
        for (int r = 0; r < sv->blk_dim[x]; r++) {
            if (dl[r] == 0) continue;
            const sn_real* yr = Y + (size_t)r * nv;
            for (int i = 0; i < nv; i++)
                v[i] += yr[i] * dl[r];
        }
    }
}


// C = J_a Y_b^T over the systems blocks a and b share, in one walk of a's path
void sni_solver_coupling(const sni_solver* sv, int a, int b, sn_real* C) {
    size_t st = 3 * (size_t)sv->size.nvmax;
    memset(C, 0, 9 * sizeof(sn_real));
    int da = sv->blk_dim[a], db = sv->blk_dim[b];
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[a] : sv->blk_sa[a];
        if (si < 0) continue;
        int f = sv->blk_sa[b] == si ? 0 : sv->blk_sb[b] == si ? 1 : -1;
        if (f < 0) continue;
        const sn_system* s = sv->sys[si];
        int nv = s->m->nv;
        const sn_real* Y = (f ? sv->blk_Yb : sv->blk_Ya) + st * b;
        if (sni_solver_joint_row(sv->blk_kind[a])) {
            int v = s->m->joint_vadr[sv->blk_index[a]];
            for (int q = 0; q < db; q++)
                C[q] += Y[(size_t)q * nv + v];
            continue;
        }
        const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + st * a;
        const int* path = sv->blk_path + (2 * (size_t)a + e) * sv->size.nvmax;
        int len = sv->blk_plen[2 * a + e];
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


// ---- the local solves ----

// >= 0 at a lower limit, <= 0 at an upper one, within the friction bound
sn_real sni_solver_joint_clamp(const sni_solver* sv, int k, sn_real x) {
    const sn_system* s = sv->sys[sv->blk_sa[k]];
    switch (sv->blk_kind[k]) {
    case SN_ROW_LIMIT_LOWER:
    case SN_ROW_VELOCITY_LOWER:
    case SN_ROW_TENDON_LOWER:
        return x > 0 ? x : 0;
    case SN_ROW_LIMIT_UPPER:
    case SN_ROW_VELOCITY_UPPER:
    case SN_ROW_TENDON_UPPER:
        return x < 0 ? x : 0;
    default: {
        int v = s->m->joint_vadr[sv->blk_index[k]];
        sn_real b = (s->m->dof_friction[v] + s->act.fric_out[v]) * sv->dt;
        return x < -b ? -b : x > b ? b : x;
    }
    }
}


// block k's impulse lam for its rows' velocity c less what its own impulse leaves (c = J v -
// target - G lambda_own): a contact on its cone, a joint row clipped to its bound
static void local_solve(sni_solver* sv, int k, const sn_real* G, const sn_real* c, sn_real* lam) {
    if (sv->blk_kind[k] == SN_ROW_CONTACT) {
        sni_contact* ct = &sv->contacts[sv->blk_index[k]];
        ct->slide = sni_contact_local(G, c, ct->mu, lam);
        return;
    }
    lam[0] = G[0] > 0 ? sni_solver_joint_clamp(sv, k, -c[0] / G[0]) : 0; // G 0: a locked joint
}


// ---- warm start ----

// start each contact from the impulse of the same contact in the last step: same geometries,
// closest point within 2 cm, its world impulse expressed in the new frame, clipped to the cone
static void warm_contacts(sni_solver* sv) {
    for (int a = 0; a < sv->nblock; a++) {
        if (sv->blk_kind[a] != SN_ROW_CONTACT) continue;
        const sni_contact* c = &sv->contacts[sv->blk_index[a]];
        const sni_contact* best = NULL;
        sn_real bd = 4e-4;
        for (int i = 0; i < sv->nprevious; i++) {
            const sni_contact* p = &sv->previous[i];
            if (p->sa != c->sa || p->sb != c->sb || p->geom != c->geom || p->geom_b != c->geom_b)
                continue;
            sn_real d[3];
            v3_sub(d, p->pos, c->pos);
            if (v3_dot(d, d) < bd) bd = v3_dot(d, d), best = p;
        }
        if (!best) continue;
        sn_real* la = sv->blk_lambda + 3 * a;
        for (int r = 0; r < 3; r++)
            la[r] = v3_dot(c->frame + 3 * r, best->impulse);
        if (la[2] <= 0) {
            v3_set(la, 0, 0, 0);
            continue;
        }
        sn_real lt = sqrt(la[0] * la[0] + la[1] * la[1]), lim = c->mu * la[2];
        if (lt > lim) la[0] *= lim / lt, la[1] *= lim / lt;
    }
}


// the impulses the sweeps start from: zero, or (warm_start) the last step's; the systems' sweep
// velocities follow them
void sni_solver_warm_start(sni_solver* sv) {
    int nb = sv->nblock;
    memset(sv->blk_lambda, 0, 3 * (size_t)nb * sizeof(sn_real));
    if (!sv->warm_start) return;
    warm_contacts(sv);
    // a joint's rows start from the last step's impulse of the same kind of row, clipped to what
    // the row allows
    for (int a = 0; a < nb; a++) {
        int kind = sv->blk_kind[a];
        if (!sni_solver_joint_row(kind)) continue;
        const sn_system* s = sv->sys[sv->blk_sa[a]];
        int nv = s->m->nv, v = s->m->joint_vadr[sv->blk_index[a]];
        sv->blk_lambda[3 * a] =
            sni_solver_joint_clamp(sv, a, s->solve.row_prev[sni_solver_row_slot(kind) * nv + v]);
    }
    for (int a = 0; a < nb; a++)
        block_push(sv, a, 0, sv->blk_lambda + 3 * a);
    sni_couple_warm_start(sv);
}


// ---- the sweeps in Delassus form ----
// A few blocks on a large system (the Strandbeest's four feet on 79 DOFs through its loops) make
// v += Y dl (every DOF, per visit) the sweeps' main cost. Then the blocks' couplings G_ab = J_a Y_b
// are formed once (nb^2 3 x 3 blocks over the rows' paths) and a visit reads its rows' velocity
// as c_a = c0_a + sum_b G_ab lambda_b; the velocities follow the impulses only where they are
// read (the subspace step, the end).
static int delassus_begin(sni_solver* sv) {
    int nb = sv->nblock;
    // (world constraints on the blocks' systems update the velocities after every sweep: velocity
    // form)
    if (nb > SNI_DELASSUS_MAX || sv->no_delassus || (sv->couple && sv->couple->shared)) return 0;
    // per visit: 9 nb for the coupling sum against the DOFs a push would update
    size_t push = 0;
    for (int a = 0; a < nb; a++)
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[a] : sv->blk_sa[a];
            if (si >= 0) push += (size_t)sv->sys[si]->m->nv * (size_t)sv->blk_dim[a];
        }
    if (18 * (size_t)nb * (size_t)nb > push) return 0;
    sn_real* Gf = sv->dl_G;
    for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++)
            sni_solver_coupling(sv, a, b, Gf + 9 * ((size_t)a * nb + b));
    for (int a = 0; a < nb; a++) {
        sn_real* c0 = sv->dl_c0 + 3 * a;
        for (int r = 0; r < 3; r++)
            c0[r] = sv->blk_c[3 * a + r];
        for (int b = 0; b < nb; b++) {
            const sn_real* G = Gf + 9 * ((size_t)a * nb + b);
            const sn_real* lb = sv->blk_lambda + 3 * b;
            for (int r = 0; r < 3; r++)
                c0[r] -= G[3 * r] * lb[0] + G[3 * r + 1] * lb[1] + G[3 * r + 2] * lb[2];
        }
    }
    memcpy(sv->dl_sync, sv->blk_lambda, 3 * (size_t)nb * sizeof(sn_real));
    sv->dl_steps++;
    return 1;
}


// block a's rows' velocity at the current impulses
static void delassus_velocity(const sni_solver* sv, int a, sn_real* c) {
    int nb = sv->nblock;
    const sn_real* c0 = sv->dl_c0 + 3 * a;
    sn_real c1 = c0[0], c2 = c0[1], c3 = c0[2];
    const sn_real* G = sv->dl_G + 9 * (size_t)a * nb;
    for (int b = 0; b < nb; b++, G += 9) {
        const sn_real* lb = sv->blk_lambda + 3 * b;
        c1 += G[0] * lb[0] + G[1] * lb[1] + G[2] * lb[2];
        c2 += G[3] * lb[0] + G[4] * lb[1] + G[5] * lb[2];
        c3 += G[6] * lb[0] + G[7] * lb[1] + G[8] * lb[2];
    }
    c[0] = c1, c[1] = c2, c[2] = c3;
}


// the systems' sweep velocities brought to the current impulses
static void delassus_sync(sni_solver* sv) {
    for (int a = 0; a < sv->nblock; a++) {
        sn_real* ls = sv->dl_sync + 3 * a;
        const sn_real* la = sv->blk_lambda + 3 * a;
        sn_real dl[3] = {la[0] - ls[0], la[1] - ls[1], la[2] - ls[2]};
        if (dl[0] == 0 && dl[1] == 0 && dl[2] == 0) continue;
        block_push(sv, a, 0, dl);
        ls[0] = la[0], ls[1] = la[1], ls[2] = la[2];
    }
}


// after the subspace step, which leaves the velocities at its impulses
static void delassus_synced(sni_solver* sv) {
    memcpy(sv->dl_sync, sv->blk_lambda, 3 * (size_t)sv->nblock * sizeof(sn_real));
}


// ---- the sweeps ----

// one visit of every block: its rows' velocity (from the sweep velocities, or in Delassus form),
// its local solve, the sweep velocities after its change. The largest impulse change and the
// largest change of a row's velocity since the last sweep into *change and *dv
static void sweep(sni_solver* sv, int dense, sn_real* change, sn_real* dv) {
    for (int a = 0; a < sv->nblock; a++) {
        int da = sv->blk_dim[a];
        sn_real c[3], lam[3] = {0, 0, 0};
        const sn_real* G = sv->blk_G + 9 * (size_t)a;
        sn_real* la = sv->blk_lambda + 3 * a;
        if (dense)
            delassus_velocity(sv, a, c);
        else
            block_velocity(sv, a, 0, c);
        // the rows' velocity now against at the last sweep's visit: one sweep of the others'
        // changes apart
        for (int r = 0; r < da; r++) {
            sn_real e = fabs(c[r] - sv->blk_c[3 * a + r]);
            *dv = e > *dv ? e : *dv; // (fmax is a call)
            sv->blk_c[3 * a + r] = c[r];
        }
        for (int r = 0; r < da; r++) {
            c[r] -= sv->blk_target[3 * a + r];
            for (int q = 0; q < da; q++)
                c[r] -= G[3 * r + q] * la[q];
        }
        local_solve(sv, a, G, c, lam);
        sn_real dl[3] = {lam[0] - la[0], lam[1] - la[1], lam[2] - la[2]};
        for (int r = 0; r < da; r++) {
            *change = fabs(dl[r]) > *change ? fabs(dl[r]) : *change;
            la[r] = lam[r];
        }
        if (dl[0] == 0 && dl[1] == 0 && dl[2] == 0) continue;
        if (!dense) block_push(sv, a, 0, dl);
    }
}


// Gauss-Seidel over blocks: each block's rows see the velocity the other blocks' impulses
// leave, c = J v - target - G lambda_own; its local solve sets its impulse, and the systems'
// velocities follow (v += Y dl). The sweep velocities hold u+ = u* + M~^-1 J^T lambda at the end
void sni_solver_sweeps(sni_solver* sv) {
    for (int a = 0; a < sv->nblock; a++)
        block_velocity(sv, a, 0, sv->blk_c + 3 * a);
    int dense = delassus_begin(sv);
    int it = 0;
    sn_real dv_prev = INFINITY;
    for (; it < sv->max_iter; it++) {
        sn_real change = 0, dv = 0;
        sweep(sv, dense, &change, &dv);
        // the world constraints' exact update, the last of every sweep
        change = fmax(change, sni_couple_exact(sv, 0));
        // done when no impulse moved by more than the tolerance, or no row's velocity by more than
        // the tolerance over the sweep: on a redundant set (a body resting on more rows than it
        // has DOFs) the impulses drift slowly among the rows while the velocities barely change
        // (the lying humanoid: 7 sweeps per step where a hundredth of the tolerance took 11; the
        // walking Strandbeest, whose four feet on a mechanism of 7 DOFs drift for the whole
        // iteration limit: 44 where it took 58)
        if (change < sv->tol || (it > 0 && dv < sv->tol)) {
            it++;
            break;
        }
        // the subspace step when the rows' velocities settle slowly (by less than half per
        // sweep): where they settle fast, its ridge would only disturb them (the lying humanoid
        // at rest took 19 sweeps with it, 11 without)
        if ((it == 7 || it == 30) && dv > 0.5 * dv_prev) {
            if (dense) delassus_sync(sv); // the subspace step works on the velocities
            sni_solver_subspace_step(sv);
            if (dense) delassus_synced(sv);
            sni_couple_exact(sv, 0);
        }
        dv_prev = dv;
    }
    if (dense) delassus_sync(sv);
    sv->iterations = it;
}


// ---- the position correction ----

#define PC_STEP_MAX 0.02      // most a correction moves a coordinate in one step (m or rad)
#define PC_RATE_MAX_LOOPS 4.0 // a row's correction rate at most, m/s or rad/s, with loops

// blocks the position correction acts on: contacts (their normal row) and position limits
static int has_pseudo_row(int kind) {
    return kind == SN_ROW_CONTACT || kind == SN_ROW_LIMIT_LOWER || kind == SN_ROW_LIMIT_UPPER ||
           kind == SN_ROW_TENDON_LOWER || kind == SN_ROW_TENDON_UPPER;
}


// the row of a block that the position correction acts on: a contact's normal, a limit's row
static int pseudo_row(const sni_solver* sv, int a) {
    return sv->blk_kind[a] == SN_ROW_CONTACT ? 2 : 0;
}


// whether block a acts on a system whose loops this step eliminates
static int block_looped(const sni_solver* sv, int a) {
    int sa = sv->blk_sa[a], sb = sv->blk_sb[a];
    return sv->sys[sa]->loops.active || (sb >= 0 && sv->sys[sb]->loops.active);
}


// erp of a contact's penetration or of a joint's excursion past its limit, per step
static sn_real excursion_rate(const sni_solver* sv, int a) {
    int kind = sv->blk_kind[a];
    sn_real dt = sv->dt;
    if (kind == SN_ROW_CONTACT) {
        const sni_contact* c = &sv->contacts[sv->blk_index[a]];
        // a bounce whose impact was in the last step is lifted by its shift (bounce.c)
        if (sv->bn_state[a] == SNI_BOUNCE_BOUNCED && sv->bn_past[a]) return 0;
        return c->depth > 0 ? sv->erp * c->depth / dt : 0;
    }
    if (kind == SN_ROW_TENDON_LOWER || kind == SN_ROW_TENDON_UPPER)
        return sni_solver_tendon_excursion(sv, a);
    if (kind != SN_ROW_LIMIT_LOWER && kind != SN_ROW_LIMIT_UPPER) return 0;
    const sn_system* s = sv->sys[sv->blk_sa[a]];
    const sn_model* m = s->m;
    int j = sv->blk_index[a], v = m->joint_vadr[j];
    sn_real lim = kind == SN_ROW_LIMIT_LOWER ? m->dof_lower[v] : m->dof_upper[v];
    return sv->erp * (lim - s->d->q[m->joint_qadr[j]]) / dt;
}


// the position correction's target velocity for block a (0: none): the excursion rate, and on a
// system with loops at most PC_RATE_MAX_LOOPS. The loops hold the correction's motion to first
// order only (it is projected through their rows); its second-order opening is closed in the
// next step by the loops' feedback J u = -beta e of seed 000, a real velocity, whose energy the
// correction would have added (with the rate capped only at 2 cm per step, Cassie started at
// q = 0, its foot cranks 0.52 rad past their limits, gained 0.1 J while they were moved back)
static sn_real pseudo_target(const sni_solver* sv, int a) {
    if (sv->erp == 0) return 0;
    sn_real t = excursion_rate(sv, a);
    if (t != 0 && block_looped(sv, a)) t = fmin(fmax(t, -PC_RATE_MAX_LOOPS), PC_RATE_MAX_LOOPS);
    return t;
}


// ---- the position correction in Delassus form ----
// Its rows are scalars (a contact's normal row, a limit's or tendon's row). When two sweeps
// leave them unsettled, their couplings g_ab = J_a Y_b are formed once (np^2 / 2 dot products
// over the rows' paths, in the sweeps' Delassus storage, free once the sweeps are done) and a
// visit reads its row's pseudo-velocity as c0_a + sum_b g_ab p_b, at np operations instead of a
// walk of its path and a push over every DOF; the pseudo-velocities follow the impulses at the
// end. Not with world constraints, whose exact update reads and writes the pseudo-velocities
// after every sweep. (The lying humanoid: 17 rows, which took 25 sweeps a step.)
#define PC_DENSE_MAX (3 * SNI_DELASSUS_MAX)

// J_a Y_b of the position rows ra of block a and rb of block b
static sn_real pc_coupling(const sni_solver* sv, int a, int b) {
    size_t st = 3 * (size_t)sv->size.nvmax;
    int ra = pseudo_row(sv, a), rb = pseudo_row(sv, b);
    sn_real g = 0;
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[a] : sv->blk_sa[a];
        if (si < 0) continue;
        int f = sv->blk_sa[b] == si ? 0 : sv->blk_sb[b] == si ? 1 : -1;
        if (f < 0) continue;
        int nv = sv->sys[si]->m->nv;
        const sn_real* y = (f ? sv->blk_Yb : sv->blk_Ya) + st * b + (size_t)rb * nv;
        if (sni_solver_joint_row(sv->blk_kind[a])) {
            g += y[sv->sys[si]->m->joint_vadr[sv->blk_index[a]]];
            continue;
        }
        const sn_real* j = (e ? sv->blk_Jb : sv->blk_Ja) + st * a + (size_t)ra * nv;
        const int* path = sv->blk_path + (2 * (size_t)a + e) * sv->size.nvmax;
        int len = sv->blk_plen[2 * a + e];
        for (int k = 0; k < len; k++)
            g += j[path[k]] * y[path[k]];
    }
    return g;
}

// the Delassus form after two sweeps, when its couplings cost less than four sweeps in
// velocity form (or pc_dense, for tests): 1 when begun
static int pc_dense_begin(sni_solver* sv, int np) {
    if (np < 2 || np > PC_DENSE_MAX || sv->no_delassus || (sv->couple && sv->couple->acting))
        return 0;
    int nb = sv->nblock, *rows = sv->pc_rows;
    size_t visit = 0, form = 0;
    for (int a = 0, i = 0; a < nb; a++) {
        if (!has_pseudo_row(sv->blk_kind[a])) continue;
        rows[i++] = a;
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[a] : sv->blk_sa[a];
            if (si < 0) continue;
            visit += (size_t)sv->sys[si]->m->nv + (size_t)sv->blk_plen[2 * a + e];
            form += (size_t)sv->blk_plen[2 * a + e];
        }
    }
    form = form * (size_t)np / 2 + (size_t)np * np; // the couplings, and the sweeps' own cost
    if (form > 4 * visit && !sv->pc_dense) return 0;
    sn_real* g = sv->dl_G;
    for (int i = 0; i < np; i++)
        for (int k = 0; k <= i; k++)
            g[(size_t)i * np + k] = g[(size_t)k * np + i] = pc_coupling(sv, rows[i], rows[k]);
    // c0 = J v_pseudo - g p: the start (the loops' closure pc_u) without the impulses
    for (int i = 0; i < np; i++) {
        int a = rows[i];
        sn_real c[3];
        block_velocity(sv, a, 1, c);
        sn_real v = c[pseudo_row(sv, a)];
        for (int k = 0; k < np; k++)
            v -= g[(size_t)i * np + k] * sv->pc_impulse[rows[k]];
        sv->dl_c0[i] = v;
        sv->dl_sync[i] = sv->pc_p[i] = sv->pc_impulse[a];
    }
    return 1;
}

// the side of row a's pseudo-impulse: -1 at an upper limit (p <= 0), else 1 (p >= 0)
static sn_real pc_side(const sni_solver* sv, int a) {
    int kind = sv->blk_kind[a];
    return kind == SN_ROW_LIMIT_UPPER || kind == SN_ROW_TENDON_UPPER ? -1 : 1;
}

// row a's own coupling, J M~^-1 J^T of its position row (not positive: the loops lock it, and it
// cannot move the positions)
static sn_real pc_diagonal(const sni_solver* sv, int a) {
    return sv->blk_G[9 * (size_t)a + 4 * pseudo_row(sv, a)];
}

// row a's new pseudo-impulse for its pseudo-velocity c, clipped to its side; the change of its
// velocity since the last sweep's visit into *dv
static sn_real pc_update(sni_solver* sv, int a, sn_real p, sn_real c, sn_real* dv) {
    sn_real e = fabs(c - sv->pc_c[a]);
    *dv = e > *dv ? e : *dv;
    sv->pc_c[a] = c;
    sn_real gaa = pc_diagonal(sv, a);
    if (!(gaa > 0)) return p; // a locked row
    sn_real q = p - (c - sv->pc_target[a]) / gaa;
    return pc_side(sv, a) * q < 0 ? 0 : q;
}

// one sweep of the position rows in velocity form (read J v_pseudo, push Y dp)
static void pc_sweep(sni_solver* sv, sn_real* change, sn_real* dv) {
    for (int a = 0; a < sv->nblock; a++) {
        if (!has_pseudo_row(sv->blk_kind[a])) continue;
        int ra = pseudo_row(sv, a);
        sn_real c[3];
        block_velocity(sv, a, 1, c);
        sn_real* p = &sv->pc_impulse[a];
        sn_real dp[3] = {0, 0, 0};
        dp[ra] = pc_update(sv, a, *p, c[ra], dv) - *p;
        if (dp[ra] == 0) continue;
        *p += dp[ra];
        *change = fabs(dp[ra]) > *change ? fabs(dp[ra]) : *change;
        block_push(sv, a, 1, dp);
    }
}

// the same in Delassus form, on the rows' impulses side by side (pc_p)
static void pc_sweep_dense(sni_solver* sv, int np, sn_real* change, sn_real* dv) {
    sn_real* p = sv->pc_p;
    for (int i = 0; i < np; i++) {
        const sn_real* g = sv->dl_G + (size_t)i * np;
        sn_real c = sv->dl_c0[i];
        for (int k = 0; k < np; k++)
            c += g[k] * p[k];
        sn_real q = pc_update(sv, sv->pc_rows[i], p[i], c, dv);
        sn_real d = fabs(q - p[i]);
        *change = d > *change ? d : *change;
        p[i] = q;
    }
}

// ---- the position correction's exact solve ----
// In Delassus form the position rows are a small linear complementarity problem: impulses p on
// the rows' sides (x = s p >= 0 with s = -1 at an upper limit, else 1) whose velocities
// c = c0 + G p meet their targets t where x > 0 and pass them (w = s (c - t) >= 0) where x = 0:
// the minimum of 1/2 x^T H x - x^T r over x >= 0 (H = S G S, r = S (t - c0)). Gauss-Seidel
// converges on it linearly (the lying humanoid: by a factor 0.64 per sweep, 25 sweeps a step); an
// active-set method (Lawson and Hanson's for non-negative least squares) solves it exactly in
// a few factorizations of the rows that push. Not through loops: there the closure of the last
// step's opening (pc_u) is where the rows start, and the exact solve took Cassie's foot crank
// 1.2 mrad past its limit at 5 s where the sweeps leave 0.1 mrad (test_loop_limits); the sweeps
// go on there. Scratch: the subspace step's, free once the sweeps are done (sm_LU the factor, sm_r
// r, sm_b w, sm_x the subproblem's solution, sm_piv the set)
#define PC_EXACT_ITER(np) (3 * (np) + 3)
#define PC_DEPENDENT 1e-10 // a pivot below this share of H's largest diagonal: a dependent row

// z = argmin on the set (z 0 off it): H_PP z_P = r_P by a Cholesky factor of H_PP, rows that the
// ones before make dependent left at 0
static void pc_subsolve(sni_solver* sv, int np, const sn_real* side, sn_real* z) {
    const int* in = sv->sm_piv;
    const sn_real* G = sv->dl_G;
    const sn_real* r = sv->sm_r;
    sn_real* L = sv->sm_LU;
    int idx[PC_DENSE_MAX], keep[PC_DENSE_MAX], n = 0;
    sn_real hmax = 0;
    for (int i = 0; i < np; i++) {
        z[i] = 0;
        if (in[i]) idx[n++] = i, hmax = fmax(hmax, G[(size_t)i * np + i]);
    }
    sn_real y[PC_DENSE_MAX];
    for (int a = 0; a < n; a++) {
        int i = idx[a];
        sn_real* la = L + (size_t)a * n;
        for (int b = 0; b <= a; b++) {
            int j = idx[b];
            const sn_real* lb = L + (size_t)b * n;
            sn_real v = side[i] * side[j] * G[(size_t)i * np + j];
            for (int k = 0; k < b; k++)
                v -= la[k] * lb[k];
            if (b < a)
                la[b] = keep[b] ? v / lb[b] : 0;
            else if ((keep[a] = v > PC_DEPENDENT * hmax))
                la[a] = sqrt(v);
        }
        if (!keep[a]) {
            for (int b = 0; b < a; b++)
                la[b] = 0;
            la[a] = 1;
        }
        sn_real v = r[i];
        for (int k = 0; k < a; k++)
            v -= la[k] * y[k];
        y[a] = keep[a] ? v / la[a] : 0;
    }
    for (int a = n - 1; a >= 0; a--) {
        sn_real v = y[a];
        for (int k = a + 1; k < n; k++)
            v -= L[(size_t)k * n + a] * z[idx[k]];
        z[idx[a]] = keep[a] ? v / L[(size_t)a * n + a] : 0;
    }
}

// the exact solve from the sweeps' impulses pc_p (left in pc_p): 1 when it settled (every row
// within the tolerance of its condition), 0 when it did not within its iteration limit (a set
// of rows that cannot all be met); then pc_p holds a feasible point it reached
static int pc_exact(sni_solver* sv, int np) {
    for (int i = 0; i < np; i++)
        if (block_looped(sv, sv->pc_rows[i])) return 0;
    const sn_real* G = sv->dl_G;
    sn_real side[PC_DENSE_MAX], x[PC_DENSE_MAX];
    int locked[PC_DENSE_MAX];
    int* in = sv->sm_piv;
    sn_real *r = sv->sm_r, *w = sv->sm_b, *z = sv->sm_x;
    for (int i = 0; i < np; i++) {
        int a = sv->pc_rows[i];
        side[i] = pc_side(sv, a);
        locked[i] = !(pc_diagonal(sv, a) > 0);
        x[i] = locked[i] ? 0 : fmax(side[i] * sv->pc_p[i], 0);
        in[i] = x[i] > 0;
        r[i] = side[i] * (sv->pc_target[a] - sv->dl_c0[i]);
    }
    int done = 0;
    for (int it = 0; it < PC_EXACT_ITER(np) && !done; it++) {
        // x to the subproblem's minimum on the set, staying feasible: a step towards z stops where
        // the first row of the set reaches 0, which leaves the set
        pc_subsolve(sv, np, side, z);
        sn_real alpha = 1;
        for (int i = 0; i < np; i++)
            if (in[i] && z[i] <= 0) {
                sn_real d = x[i] - z[i];
                alpha = fmin(alpha, d > 0 ? x[i] / d : 0);
            }
        for (int i = 0; i < np; i++) {
            if (!in[i]) continue;
            x[i] = alpha == 1 ? z[i] : x[i] + alpha * (z[i] - x[i]);
            if (!(x[i] > 0)) x[i] = 0, in[i] = 0;
        }
        if (alpha < 1) continue;
        // optimal on the set: the row off it that is furthest short of its target joins it
        int j = -1;
        for (int i = 0; i < np; i++) {
            sn_real v = -r[i];
            const sn_real* g = G + (size_t)i * np;
            for (int k = 0; k < np; k++)
                v += side[i] * g[k] * side[k] * x[k];
            w[i] = v;
            if (!in[i] && !locked[i] && v < -sv->tol && (j < 0 || v < w[j])) j = i;
        }
        if (j < 0)
            done = 1;
        else
            in[j] = 1;
    }
    for (int i = 0; i < np; i++)
        sv->pc_p[i] = side[i] * x[i];
    sv->pc_exact_solves += done;
    return done;
}


// the pseudo-velocities brought to the impulses, which go back to their blocks
static void pc_dense_sync(sni_solver* sv, int np) {
    for (int i = 0; i < np; i++) {
        int a = sv->pc_rows[i];
        sn_real dp[3] = {0, 0, 0};
        dp[pseudo_row(sv, a)] = sv->pc_p[i] - sv->dl_sync[i];
        sv->pc_impulse[a] = sv->pc_p[i];
        if (dp[0] != 0 || dp[2] != 0) block_push(sv, a, 1, dp);
    }
}


// penetrations and excursions past joint limits are removed through the positions only (a
// split impulse): pseudo-impulses p on the contacts' normal rows (p >= 0) and the limits' rows
// (p >= 0 at a lower limit, <= 0 at an upper one), solved together by Gauss-Seidel so that
// G p = erp x (depth or excursion) / dt on every such row, give pseudo-velocities M~^-1 J^T p
// that move the positions of this step and are then forgotten: the correction adds no kinetic
// energy, and a limit's correction cannot push a body into the ground (or the other way round)
void sni_solver_position_correction(sni_solver* sv) {
    int nb = sv->nblock, any = 0;
    for (int a = 0; a < nb; a++) {
        sn_real t = pseudo_target(sv, a);
        any |= t != 0;
        // a limit's correction through loops: its opening of them is closed through the
        // positions in the next step (loops/factor.c)
        if (t != 0 && sv->blk_kind[a] != SN_ROW_CONTACT && block_looped(sv, a))
            sv->sys[sv->blk_sa[a]]->loops.pc_limit = 1;
        sv->pc_target[a] = t;
        sv->pc_impulse[a] = 0;
    }
    // the closure of the loops' opening by the last step's limit correction (loops/factor.c)
    // is where the rows start from: the contacts and limits see it and hold against it
    for (int si = 0; si < sv->nsys; si++) {
        const sn_system* s = sv->sys[si];
        any |= s->solve.active && s->loops.active && s->loops.pc_any;
    }
    if (!any) return;
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active) continue;
        size_t bytes = (size_t)s->m->nv * sizeof(sn_real);
        if (s->loops.active && s->loops.pc_any) {
            memcpy(s->solve.pseudo, s->loops.pc_u, bytes);
            s->loops.pc_solved = 1;
        } else
            memset(s->solve.pseudo, 0, bytes);
    }
    int np = 0; // the position rows, for the Delassus form
    for (int a = 0; a < nb; a++)
        if (has_pseudo_row(sv->blk_kind[a])) np++;
    int dense = 0;
    for (int it = 0; it < sv->max_iter; it++) {
        sn_real change = 0, dv = 0;
        if (dense)
            pc_sweep_dense(sv, np, &change, &dv);
        else
            pc_sweep(sv, &change, &dv);
        change = fmax(change, sni_couple_exact(sv, 1));
        // settled as the sweeps are: no impulse moved by more than the tolerance, or no row's
        // pseudo-velocity over a sweep (on a redundant set, the lying humanoid's, the impulses
        // drift among the rows for the whole iteration limit while the velocities stay)
        if (change < sv->tol || (it > 0 && dv < sv->tol)) break;
        // not settled in two sweeps: the rest in Delassus form where it is cheaper, solved
        // exactly (or, where that does not settle, by the sweeps on from where it left)
        if (it == 1 && (dense = pc_dense_begin(sv, np)) && pc_exact(sv, np)) break;
    }
    if (dense) pc_dense_sync(sv, np);
    // s->solve.pseudo now holds M~^-1 J^T p, built by the sweeps. Rows that cannot all be met (two
    // geoms the joints cannot separate, as in MuJoCo's humanoid with self-collision and without
    // its <contact><exclude>) make the sweeps' impulses grow without bound: a correction that
    // would move any coordinate by more than 2 cm or rad in one step is scaled down to that, in
    // the same direction (the loops' first-order closure is kept). Corrections of up to 10 cm
    // deep (erp 0.2) are untouched
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active) continue;
        sn_real big = 0;
        for (int i = 0; i < s->m->nv; i++)
            big = fmax(big, fabs(s->solve.pseudo[i]) * sv->dt);
        if (big > PC_STEP_MAX)
            for (int i = 0; i < s->m->nv; i++)
                s->solve.pseudo[i] *= PC_STEP_MAX / big;
    }
}
