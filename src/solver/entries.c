// SPDX-License-Identifier: Apache-2.0
// entries.c: what the last step's rows give a user beyond the contacts: the loop constraints'
// internal entries of getContacts (seed 001) and the constraint shares of the step-5 torque
// table (seed 000): joint friction, contacts and limits, loops.
#include "couple/couple.h"
#include "sim/sim.h"

#include <string.h>


// the loop constraints of s listed as entries: those with directions of their own, while the
// last step's rows are there
static int entry_constraint(const sn_system* s, int k) {
    if (!s->loops.active) return -1;
    for (int c = 0; c < s->m->nconstraint; c++)
        if (s->loops.naxis[c] > 0 && k-- == 0) return c;
    return -1;
}


static int entry_loops(const sn_system* s) {
    int n = 0;
    if (s->loops.active)
        for (int c = 0; c < s->m->nconstraint; c++)
            n += s->loops.naxis[c] > 0;
    return n;
}


int sn_system_contact_entry_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return sn_system_contact_count(s) + entry_loops(s);
}


sn_status sn_system_contact_entry(const sn_system* s, int i, sn_contact* out) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_contact_entry: out is NULL");
    if (!out) return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_contact_entry: out is NULL");
    int nc = sn_system_contact_count(s);
    if (i >= 0 && i < nc) return sn_system_contact(s, i, out);
    int c = i >= nc ? entry_constraint(s, i - nc) : -1;
    if (c < 0)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "contact entry i %d: the system has %d (%d contacts, %d constraints)",
                              i, nc + entry_loops(s), nc, entry_loops(s));
    const sn_model* m = s->m;
    memset(out, 0, sizeof *out);
    out->body = m->frame_body[m->constraint_frame1[c]];
    out->geom = -1;
    out->other_system = s->index;
    out->other_body = m->frame_body[m->constraint_frame2[c]];
    out->self = 1;
    v3_copy(out->position, s->loops.at + 3 * c);
    out->depth = v3_norm(s->loops.err + 3 * c);
    v3_copy(out->impulse, s->loops.imp + 3 * c);
    out->constraint = c;
    return SN_OK;
}


// add J^T lambda of the last step's blocks on system s to out: the friction rows' when friction
// is 1, every other block's when 0
static void add_blocks(const sn_system* s, int friction, sn_real* out) {
    const sni_solver* sv = &s->world->solver;
    size_t stride = 3 * (size_t)sv->size.nvmax;
    int si = s->index, nv = s->m->nv;
    for (int a = 0; a < sv->nblock; a++) {
        int e = sv->blk_sa[a] == si ? 0 : sv->blk_sb[a] == si ? 1 : -1;
        if (e < 0 || (sv->blk_kind[a] == SN_ROW_FRICTION) != friction) continue;
        const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + stride * (size_t)a;
        const sn_real* la = sv->blk_lambda + 3 * a;
        for (int r = 0; r < sv->blk_dim[a]; r++)
            if (la[r] != 0)
                for (int v = 0; v < nv; v++)
                    out[v] += J[(size_t)r * nv + v] * la[r];
    }
}


static void scale(sn_real* x, int n, sn_real k) {
    for (int i = 0; i < n; i++)
        x[i] *= k;
}


sn_status sn_system_step_constraint_torques(const sn_system* s, sn_real* friction,
                                            sn_real* contacts, sn_real* loops) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_world* w = s->world;
    int nv = s->m->nv;
    sn_real inv = 1 / s->ctl.w_dt;
    size_t bytes = (size_t)nv * sizeof(sn_real);
    // the solver's rows are the last step's while the system took part in its solve (the step's
    // own test for its inverse dynamics)
    int coupled = w->couple && sni_couple_acting(w);
    int solved = s->solve.active && (w->solver.nblock > 0 || coupled);
    if (friction) {
        memset(friction, 0, bytes);
        if (solved) add_blocks(s, 1, friction);
        scale(friction, nv, inv);
    }
    if (contacts) {
        memset(contacts, 0, bytes);
        if (solved) add_blocks(s, 0, contacts);
        if (solved && coupled) sni_couple_add_jt_lambda(&w->solver, s->index, contacts);
        scale(contacts, nv, inv);
    }
    if (loops) {
        memset(loops, 0, bytes);
        if (s->loops.active && s->loops.route)
            sni_loops_cluster_jt(s, s->loops.lam, loops); // the rows within their clusters
        else if (s->loops.active)
            for (int r = 0; r < s->loops.nrow; r++) {
                sn_real l = s->loops.lam[r];
                const sn_real* jr = s->loops.J + (size_t)r * nv;
                const int* jx = s->loops.jidx + (size_t)r * nv;
                if (l != 0)
                    for (int q = 0; q < s->loops.jn[r]; q++)
                        loops[jx[q]] += jr[jx[q]] * l;
            }
        scale(loops, nv, inv);
    }
    return SN_OK;
}
