// SPDX-License-Identifier: Apache-2.0
// tendon.c (solver): a limited tendon's limit as a one-sided row of the contact solver, like a
// joint's position limit but with the tendon's Jacobian (1 x nv, on every DOF it moves) as its
// row: a block when the length at the step's start is outside [lower, upper], an impulse >= 0 at
// the lower bound and <= 0 at the upper one (the row's impulse is along the length), zero
// restitution, and the excursion removed through the positions (erp of it per step, as for a
// joint limit). docs/constraints.md "Tendons".
#include "tendon/tendon.h"

#include "sim/sim.h"

#include <string.h>


// the row kind of tendon t of s at its length L (0: none)
static int tendon_kind(const sn_system* s, int t, sn_real L) {
    const sn_model* m = s->m;
    if (!m->tendon_limited[t] || s->ctl.limits_off) return 0;
    if (L < m->tendon_range[2 * t]) return SN_ROW_TENDON_LOWER;
    if (L > m->tendon_range[2 * t + 1]) return SN_ROW_TENDON_UPPER;
    return 0;
}


void sni_solver_tendon_gather(sni_solver* sv, int si) {
    sn_system* s = sv->sys[si];
    const sn_model* m = s->m;
    for (int t = 0; t < m->ntendon && sv->nblock < sv->size.block_cap; t++) {
        if (!m->tendon_limited[t]) continue;
        sn_real L = sni_tendon_length(m, s->d, s->d->q, t, NULL);
        s->tendon.len[t] = L;
        int kind = tendon_kind(s, t, L);
        if (!kind) continue;
        int k = sv->nblock++;
        sv->blk_kind[k] = kind;
        sv->blk_index[k] = t;
        sv->blk_sa[k] = si;
        sv->blk_sb[k] = -1;
        sv->blk_dim[k] = 1;
    }
}


int sni_solver_tendon_acts(const sn_system* s) {
    const sn_model* m = s->m;
    for (int t = 0; t < m->ntendon; t++)
        if (m->tendon_limited[t] && tendon_kind(s, t, sni_tendon_length(m, s->d, s->d->q, t, NULL)))
            return 1;
    return 0;
}


void sni_solver_tendon_rows(sni_solver* sv, int k) {
    sn_system* s = sv->sys[sv->blk_sa[k]];
    sn_real* J = sv->blk_Ja + 3 * (size_t)sv->size.nvmax * k;
    sni_tendon_length(s->m, s->d, s->d->q, sv->blk_index[k], J);
    sv->blk_la[k] = -2; // the row may act on any DOF (a fixed tendon spans branches)
    sv->blk_lb[k] = -1;
    sv->blk_target[3 * k] = 0;
}


sn_real sni_solver_tendon_excursion(const sni_solver* sv, int k) {
    const sn_system* s = sv->sys[sv->blk_sa[k]];
    const sn_model* m = s->m;
    int t = sv->blk_index[k];
    sn_real lim = m->tendon_range[2 * t + (sv->blk_kind[k] == SN_ROW_TENDON_UPPER)];
    return sv->erp * (lim - s->tendon.len[t]) / sv->dt;
}
