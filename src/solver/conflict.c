// SPDX-License-Identifier: Apache-2.0
// conflict.c: one-sided rows (joint limits, contacts' normals) that the loops set against each
// other (docs/loops.md). Through a closed loop two joints can be coupled so that moving one into
// its range moves the other further out (the foot crank and the foot of Cassie's four-bar started
// at q = 0, past their upper limits, on the far side of the linkage's dead point). Their rows,
// projected through the loops, are then dependent with signs their impulses allow: an impulse on
// each, in the direction its limit may push, that moves nothing. The velocity rows then jam the
// mechanism with impulses that are not unique (the sweeps let them drift and the warm start carries
// them: Cassie reached 1e5 N s and 1e33 J), and the position correction, which asks each row to
// move back into range, has no solution at all. Such a set is found here, before the sweeps, by an
// ordered Cholesky factor of the rows' Delassus block: a joint row that depends on the rows kept
// before it (contacts come first), with coefficients of the conflicting sign on all of them, is
// left out (it gets no impulse and no position correction) for as long as the conflict lasts, and a
// warning names its joints once.
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


#define CONFLICT_MAX 24   // most one-sided rows of a system examined
#define CONFLICT_DEP 1e-4 // a row depends on the kept ones: its residual below this of G_bb


// the sign of the impulse a one-sided row allows: +1 at a lower bound and on a contact's normal,
// -1 at an upper bound, 0 for a row that is not one-sided (friction)
static int row_sign(int kind) {
    switch (kind) {
    case SN_ROW_CONTACT:
    case SN_ROW_LIMIT_LOWER:
    case SN_ROW_VELOCITY_LOWER:
        return 1;
    case SN_ROW_LIMIT_UPPER:
    case SN_ROW_VELOCITY_UPPER:
        return -1;
    default:
        return 0;
    }
}


// the one-sided row of block b: a contact's normal (row 2), a joint row's only row
static int one_sided_row(const sni_solver* sv, int b) {
    return sv->blk_kind[b] == SN_ROW_CONTACT ? 2 : 0;
}


// G of the one-sided rows of blocks a and b
static sn_real row_coupling(const sni_solver* sv, int a, int b) {
    sn_real C[9];
    sni_solver_coupling(sv, a, b, C);
    return C[3 * one_sided_row(sv, a) + one_sided_row(sv, b)];
}


static sn_real row_g(const sni_solver* sv, int b) {
    return sv->blk_G[9 * (size_t)b + 4 * one_sided_row(sv, b)];
}


// block b is left out: no impulse, no position correction (G 0, as a row the loops hold, see
// looped_rows in rows.c)
static void leave_out(sni_solver* sv, int b) {
    size_t off = 3 * (size_t)sv->size.nvmax * b;
    int nv = sv->sys[sv->blk_sa[b]]->m->nv;
    memset(sv->blk_Ja + off, 0, (size_t)nv * sizeof(sn_real));
    memset(sv->blk_Ya + off, 0, (size_t)nv * sizeof(sn_real));
    memset(sv->blk_G + 9 * (size_t)b, 0, 9 * sizeof(sn_real));
}


static const char* joint_name(const sn_model* m, int j) {
    return m->names + m->joint_name[j];
}


static const char* bound_name(int kind) {
    return kind == SN_ROW_LIMIT_LOWER      ? "lower limit"
           : kind == SN_ROW_LIMIT_UPPER    ? "upper limit"
           : kind == SN_ROW_VELOCITY_LOWER ? "lower velocity limit"
                                           : "upper velocity limit";
}


// the first conflict of system s, once: row b against the kept rows with a coefficient (c)
static void warn_conflict(sni_solver* sv, sn_system* s, int b, const int* kept, const sn_real* c,
                          int nk) {
    if (s->solve.conflict_warned) return;
    s->solve.conflict_warned = 1;
    const sn_model* m = s->m;
    char with[384];
    size_t len = 0;
    with[0] = 0;
    for (int i = 0; i < nk && len + 1 < sizeof with; i++) {
        if (c[i] == 0) continue;
        int a = kept[i], w;
        if (sv->blk_kind[a] == SN_ROW_CONTACT)
            w = snprintf(with + len, sizeof with - len, "%sthe contact of body '%s'",
                         len ? ", " : "",
                         m->names + m->body_name[sv->contacts[sv->blk_index[a]].body]);
        else
            w = snprintf(with + len, sizeof with - len, "%s'%s' (%s)", len ? ", " : "",
                         joint_name(m, sv->blk_index[a]), bound_name(sv->blk_kind[a]));
        if (w < 0) break;
        len += (size_t)w;
    }
    sni_world_warn(s->world,
                   "the loops set the %s of joint '%s' against %s: no motion of the closed "
                   "mechanism meets them all (moving one into its range moves another out); the "
                   "%s of '%s' is left out while they conflict (warned once)",
                   bound_name(sv->blk_kind[b]), joint_name(m, sv->blk_index[b]), with,
                   bound_name(sv->blk_kind[b]), joint_name(m, sv->blk_index[b]));
}


// one system's one-sided rows, in block order (its contacts' normals first, then its joints'
// limit rows): each is kept when it is independent of the rows kept before it (its Cholesky
// pivot above CONFLICT_DEP of its own G), and also when it depends on them in a way their signs
// cannot cancel (the same push twice: harmless, not a new pivot); a joint row is left out when an
// allowed impulse on it and on the rows it depends on moves nothing: s_b c_i s_i <= 0 for its
// coefficients c over the kept rows. (A contact is never left out: two contacts that the loops
// set against each other wedge the mechanism, which the sweeps solve as any redundant set.)
static void system_conflicts(sni_solver* sv, int si) {
    sn_system* s = sv->sys[si];
    int kept[CONFLICT_MAX], nk = 0;
    sn_real L[CONFLICT_MAX * CONFLICT_MAX], y[CONFLICT_MAX], c[CONFLICT_MAX];
    for (int b = 0; b < sv->nblock; b++) {
        // a contact with another system is not the loops' alone
        if (sv->blk_sa[b] != si || sv->blk_sb[b] >= 0) continue;
        int sb = row_sign(sv->blk_kind[b]);
        sn_real gbb = row_g(sv, b);
        if (sb == 0 || !(gbb > 0)) continue;
        // y = L^-1 g, g the couplings of the kept rows with b; b's remaining pivot r
        sn_real r = gbb;
        for (int i = 0; i < nk; i++) {
            sn_real x = row_coupling(sv, kept[i], b);
            for (int k = 0; k < i; k++)
                x -= L[i * CONFLICT_MAX + k] * y[k];
            y[i] = x / L[i * CONFLICT_MAX + i];
            r -= y[i] * y[i];
        }
        if (r > CONFLICT_DEP * gbb) {
            if (nk == CONFLICT_MAX) return; // (no room: the rest are not examined)
            for (int k = 0; k < nk; k++)
                L[nk * CONFLICT_MAX + k] = y[k];
            L[nk * CONFLICT_MAX + nk] = sqrt(r);
            kept[nk++] = b;
            continue;
        }
        if (sv->blk_kind[b] == SN_ROW_CONTACT) continue;
        // dependent: its coefficients c = L^-T y over the kept rows. A coefficient whose part
        // of b's row (c_i^2 G_ii) is within the dependence tolerance counts as 0: b's row is as
        // well made without it (the projection through the loops is exact to rounding only)
        for (int i = nk - 1; i >= 0; i--) {
            sn_real x = y[i];
            for (int k = i + 1; k < nk; k++)
                x -= L[k * CONFLICT_MAX + i] * c[k];
            c[i] = x / L[i * CONFLICT_MAX + i];
        }
        int against = 0, along = 0;
        for (int i = 0; i < nk; i++) {
            sn_real t = sb * row_sign(sv->blk_kind[kept[i]]) * c[i];
            if (c[i] * c[i] * row_g(sv, kept[i]) <= CONFLICT_DEP * gbb)
                c[i] = 0;
            else if (t < 0)
                against = 1;
            else
                along = 1;
        }
        if (!against || along) continue;
        leave_out(sv, b);
        warn_conflict(sv, s, b, kept, c, nk);
    }
}


void sni_solver_conflicts(sni_solver* sv) {
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active || !s->loops.active) continue;
        // a one-sided joint row and another one-sided row at least (contacts alone are left to
        // the sweeps)
        int n = 0, joint = 0;
        for (int b = 0; b < sv->nblock && !(joint && n >= 2); b++) {
            if (sv->blk_sa[b] != si || row_sign(sv->blk_kind[b]) == 0) continue;
            n++;
            joint |= sv->blk_kind[b] != SN_ROW_CONTACT;
        }
        if (joint && n >= 2) system_conflicts(sv, si);
    }
}
