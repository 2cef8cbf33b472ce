// SPDX-License-Identifier: Apache-2.0
// solver.c: the contact solver's settings, memory and phase driver (the phases are listed in
// solver.h), the storing of its results, and the report of the contact problem
// (getContactProblem()).
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <string.h>


// ---- settings and memory ----

void sni_solver_init(sni_solver* sv) {
    sv->max_iter = 150;
    sv->tol = 1e-8;
    sv->erp = 0.2;
    sv->warm_start = 1;
}


void sni_solver_layout(sni_solver* sv, const sni_solver_size* z, carver* c) {
    size_t nk = (size_t)z->block_cap, nvmax = (size_t)z->nvmax, st = 3 * nvmax;
    SNI_CARVE(c, sv->blk_kind, nk);
    SNI_CARVE(c, sv->blk_index, nk);
    SNI_CARVE(c, sv->blk_dim, nk);
    SNI_CARVE(c, sv->blk_sa, nk);
    SNI_CARVE(c, sv->blk_sb, nk);
    SNI_CARVE(c, sv->blk_la, nk);
    SNI_CARVE(c, sv->blk_lb, nk);
    SNI_CARVE(c, sv->blk_plen, 2 * nk);
    SNI_CARVE(c, sv->blk_path, 2 * nk * nvmax);
    SNI_CARVE(c, sv->blk_Ja, nk * st);
    SNI_CARVE(c, sv->blk_Jb, nk * st);
    SNI_CARVE(c, sv->blk_Ya, nk * st);
    SNI_CARVE(c, sv->blk_Yb, nk * st);
    SNI_CARVE(c, sv->blk_G, 9 * nk);
    SNI_CARVE(c, sv->blk_target, 3 * nk);
    SNI_CARVE(c, sv->point_jac, st);
    SNI_CARVE(c, sv->blk_lambda, 3 * nk);
    SNI_CARVE(c, sv->blk_c, 3 * nk);
    SNI_CARVE(c, sv->dl_G, 9 * SNI_DELASSUS_MAX * SNI_DELASSUS_MAX);
    SNI_CARVE(c, sv->dl_c0, 3 * SNI_DELASSUS_MAX);
    SNI_CARVE(c, sv->dl_sync, 3 * SNI_DELASSUS_MAX);
    SNI_CARVE(c, sv->sm_A, (size_t)SNI_SM_MAX * SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_LU, (size_t)SNI_SM_MAX * SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_A0, (size_t)SNI_SM_MAX * SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_r, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_b, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_x, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_blk, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_row, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_piv, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_blk0, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_row0, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_map, SNI_SM_MAX);
    SNI_CARVE(c, sv->sm_frozen, nk);
    SNI_CARVE(c, sv->sm_fval, nk);
    SNI_CARVE(c, sv->pc_target, nk);
    SNI_CARVE(c, sv->pc_impulse, nk);
    SNI_CARVE(c, sv->pc_c, nk);
    SNI_CARVE(c, sv->pc_rows, 3 * SNI_DELASSUS_MAX);
    SNI_CARVE(c, sv->pc_p, 3 * SNI_DELASSUS_MAX);
    SNI_CARVE(c, sv->bn_list, nk);
    SNI_CARVE(c, sv->bn_set, nk);
    SNI_CARVE(c, sv->bn_state, nk);
    SNI_CARVE(c, sv->bn_past, nk);
    SNI_CARVE(c, sv->bn_gap, nk);
    SNI_CARVE(c, sv->bn_jv, nk);
    SNI_CARVE(c, sv->bn_base, nk);
    SNI_CARVE(c, sv->bn_acc, nk);
    SNI_CARVE(c, sv->bn_entry, nk);
    SNI_CARVE(c, sv->bn_ev, nk);
    SNI_CARVE(c, sv->bn_tgt, nk);
    SNI_CARVE(c, sv->bn_lam, nk);
    SNI_CARVE(c, sv->bn_ltime, nk);
    SNI_CARVE(c, sv->previous, (size_t)z->contact_cap);
    if (c->base) {
        sv->size = *z;
        sv->nblock = 0;
        sv->nprevious = 0;
        sv->bn_count = 0;
    }
}


void sni_solver_forget(sni_solver* sv) {
    sv->nprevious = 0;
}


// ---- the phases of a solve ----

// this solve's view of the world
static void begin(sni_solver* sv, sn_world* w, sn_real dt) {
    sv->sys = w->sys;
    sv->nsys = w->nsys;
    sv->contacts = w->contacts;
    sv->ncontact = w->ncontact;
    sv->dt = dt;
    sv->couple = w->couple;
}


// the systems a block of this step acts on (s->solve.active), their sweep velocities at u* and
// their pseudo-velocities at 0. The step has factored their M~ (sni_solver_acts_on said it would
// be needed)
static void mark_systems(sni_solver* sv) {
    for (int si = 0; si < sv->nsys; si++)
        sv->sys[si]->solve.active = 0;
    for (int k = 0; k < sv->nblock; k++) {
        sv->sys[sv->blk_sa[k]]->solve.active = 1;
        if (sv->blk_sb[k] >= 0) sv->sys[sv->blk_sb[k]]->solve.active = 1;
    }
    sni_couple_mark(sv); // the systems world constraints join
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active) continue;
        memcpy(s->solve.v, s->step.u1, (size_t)s->m->nv * sizeof(sn_real));
        // the position correction and the bounces' shift add this step's pseudo-velocity
        memset(s->solve.pseudo, 0, (size_t)s->m->nv * sizeof(sn_real));
    }
}


// u+ = u* + M~^-1 J^T lambda: the sweeps' velocity, which every impulse change has updated
static void store_velocities(sni_solver* sv) {
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (s->solve.active) memcpy(s->step.u1, s->solve.v, (size_t)s->m->nv * sizeof(sn_real));
    }
}


// M~^-1 J_c^T lambda_c of each system with loops, for their constraint impulses (sni_loops_finish;
// on the clusters' route J_c^T lambda_c)
static void store_loop_response(sni_solver* sv) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active || !s->loops.active) continue;
        int nv = s->m->nv;
        sn_real* dv = s->solve.loop_dv;
        memset(dv, 0, (size_t)nv * sizeof(sn_real));
        for (int a = 0; a < sv->nblock; a++) {
            int e = sv->blk_sa[a] == si ? 0 : sv->blk_sb[a] == si ? 1 : -1;
            if (e < 0) continue;
            const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + stride * a;
            const sn_real* la = sv->blk_lambda + 3 * a;
            for (int r = 0; r < sv->blk_dim[a]; r++)
                if (la[r] != 0)
                    for (int i = 0; i < nv; i++)
                        dv[i] += J[(size_t)r * nv + i] * la[r];
        }
        sni_couple_add_jt_lambda(sv, si, dv);
        // (the clusters' route has no factor of M~: sni_loops_finish takes J_c^T lambda_c)
        if (!s->loops.route) sni_solve_factor(s->m, &s->step.mtilde, dv);
        s->solve.has_loop_dv = 1;
    }
}


// the joint rows' impulses for the next step's warm start; the contacts' world impulses (and the
// "has been in contact" flag of the scheme rules)
static void store_impulses(sni_solver* sv) {
    for (int si = 0; si < sv->nsys; si++)
        if (sv->sys[si]->solve.active)
            memset(sv->sys[si]->solve.row_prev, 0,
                   3 * (size_t)sv->sys[si]->m->nv * sizeof(sn_real));
    for (int a = 0; a < sv->nblock; a++) {
        int kind = sv->blk_kind[a];
        if (!sni_solver_joint_row(kind)) continue;
        sn_system* s = sv->sys[sv->blk_sa[a]];
        int nv = s->m->nv, v = s->m->joint_vadr[sv->blk_index[a]];
        s->solve.row_prev[sni_solver_row_slot(kind) * nv + v] = sv->blk_lambda[3 * a];
    }
    for (int a = 0; a < sv->nblock; a++) {
        const sn_real* la = sv->blk_lambda + 3 * a;
        if (sv->blk_kind[a] != SN_ROW_CONTACT) continue;
        sni_contact* c = &sv->contacts[sv->blk_index[a]];
        for (int e = 0; e < 3; e++)
            c->impulse[e] = c->frame[e] * la[0] + c->frame[3 + e] * la[1] + c->frame[6 + e] * la[2];
        if (la[2] > 0) {
            sv->sys[c->sa]->has_contacted = 1;
            if (c->sb >= 0) sv->sys[c->sb]->has_contacted = 1;
        }
    }
}


// the step's contacts, for the next step's warm start
static void remember_contacts(sni_solver* sv) {
    memcpy(sv->previous, sv->contacts, (size_t)sv->ncontact * sizeof(sni_contact));
    sv->nprevious = sv->ncontact;
}


// the sweep velocities with the impulses of every row but the bounce set's (held open): the
// velocities the bounce set's impacts start from, so that a ball bouncing on a body resting on
// the ground sees that body held up. The sweep velocities are put back at u* after the
// restitution phase
static void solve_without_bounces(sni_solver* sv) {
    if (sv->bn_count == sv->nblock) return;
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        sv->bn_tgt[k] = sv->blk_target[3 * k + 2];
        sv->blk_target[3 * k + 2] = -1e30; // any normal velocity meets it: the contact opens
    }
    sni_solver_warm_start(sv);
    sni_solver_sweeps(sv);
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        sv->blk_target[3 * k + 2] = sv->bn_tgt[k];
    }
}


// the phases in order (solver.h)
void sni_world_contact_solve(sn_world* w, sn_real dt) {
    sni_solver* sv = &w->solver;
    begin(sv, w, dt);
    sni_solver_gather(sv);
    sv->iterations = 0;
    int coupled = sni_couple_begin(sv); // world constraints act in this solve
    if (sv->nblock <= 0 && !coupled) {
        sni_solver_forget(sv);
        sni_couple_store(sv);
        return;
    }
    mark_systems(sv);
    sni_solver_prepare_rows(sv);
    sni_couple_prepare(sv);
    sni_solver_conflicts(sv);
    if (sni_solver_bounce_count(sv) > 0) {
        solve_without_bounces(sv);
        sni_solver_restitution(sv);
    }
    sni_solver_warm_start(sv);
    sni_solver_bounce_warm_start(sv);
    sni_solver_sweeps(sv);
    // the world constraints' targets with their second-order term at u+, solved again
    if (sni_couple_refine(sv)) sni_couple_exact(sv, 0);
    store_velocities(sv);
    store_loop_response(sv);
    store_impulses(sv);
    sni_solver_position_correction(sv);
    sni_solver_bounce_shift(sv);
    sni_couple_exact(sv, 1); // the pseudo-velocities keep the world constraints
    sni_couple_store(sv);
    remember_contacts(sv);
}


// ---- the contact problem of the last step ----

// the loop constraints of the systems that eliminated them in the last step, after the blocks
static int loop_rows(const sn_world* w) {
    int n = 0;
    for (int si = 0; si < w->nsys; si++)
        if (w->sys[si]->loops.active) n += w->sys[si]->m->nconstraint;
    return n;
}


int sn_world_contact_row_count(const sn_world* w) {
    SNI_REFUSE_NULL(w, SN_NONE);
    return w->solver.nblock + loop_rows(w);
}


sn_status sn_world_contact_row(const sn_world* w, int i, sn_contact_row* out) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    // the world's last error is its one mutable record, also for a const world
    sn_world* rec = (sn_world*)(void*)w;
    if (!out) return sni_world_fail(rec, SN_ERR_ARG, "sn_world_contact_row: out is NULL");
    if (i < 0 || i >= sn_world_contact_row_count(w))
        return sni_world_fail(rec, SN_ERR_ARG, "contact row i %d: the last step has %d", i,
                              sn_world_contact_row_count(w));
    const sni_solver* sv = &w->solver;
    if (i >= sv->nblock) {
        // a loop constraint: pins and equality constraints of each system in the model's order
        int k = i - sv->nblock;
        for (int si = 0; si < w->nsys; si++) {
            const sn_system* s = w->sys[si];
            if (!s->loops.active) continue;
            if (k < s->m->nconstraint) {
                out->kind = SN_ROW_LOOP;
                out->system = out->other_system = si;
                out->index = k;
                out->dim = 3;
                memcpy(out->impulse, s->loops.imp + 3 * k, 3 * sizeof(sn_real));
                return SN_OK;
            }
            k -= s->m->nconstraint;
        }
        return SN_ERR_ARG;
    }
    out->kind = sv->blk_kind[i];
    out->system = sv->blk_sa[i];
    out->other_system = sv->blk_sb[i];
    out->index = sv->blk_index[i];
    out->dim = sv->blk_dim[i];
    memcpy(out->impulse, sv->blk_lambda + 3 * i, 3 * sizeof(sn_real));
    if (out->kind == SN_ROW_CONTACT && w->contacts[out->index].sb == w->contacts[out->index].sa)
        out->other_system = out->system; // a self-collision block runs on one system
    return SN_OK;
}


int sn_system_solver_iterations(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->world->solver.iterations;
}
