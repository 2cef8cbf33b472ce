// SPDX-License-Identifier: Apache-2.0
// bounce.c: restitution where the surfaces meet (the solver's restitution phase). The contacts
// with restitution (the bounce set) are followed through the step as events before the sweeps:
// each normal row's gap moves along the parabola the step's scheme puts the positions on, an
// impact is found where a gap closes, and the contacts touching at that moment take one impact
// together (Newton's restitution on their normal rows: each separates at least e times its
// approach at that moment), in time order, until the step's end. A contact that bounced gets the
// normal velocity the events leave as its target in the sweeps (which add friction, the other
// contacts and the joint rows), and the positions take the part of the step before its impact
// at the velocity before it (sni_solver_bounce_shift). A gap that does not close within the step
// never bounces: the speculative row only stops it at the surface.
#include "sim/sim.h"

#include <math.h>
#include <string.h>

#define GAP_TOL 1e-10    // m: rows this close touch (and take one impact together)
#define SPEED_TOL 1e-12  // m/s: a row faster than this apart separates
#define IMPACT_TOL 1e-13 // an impact's sweeps end when no speed moves by this times 1 + |V|
#define IMPACT_ITER 500  // and after this many sweeps at most


// ---- the scheme's positions ----
// A scheme moves the positions by dt (beta u+ + (1 - beta) u). Under a constant acceleration the
// positions then lie on a parabola whose velocity at the step's start is u + kin(s) du, with du
// the step's velocity change (SEMI_IMPLICIT: u+ is the mean velocity of the step, the
// continuous one at its end is u+ + du/2). RUNGE_KUTTA_4 integrates the parabola exactly and
// applies the solver's change at the step's start (beta 1).

static sn_real kin(const sn_system* s) {
    switch (s->step.scheme_used) {
    case SN_SCHEME_SEMI_IMPLICIT:
        return 0.5;
    case SN_SCHEME_EULER:
        return -0.5;
    default:
        return 0;
    }
}


static sn_real beta(const sn_system* s) {
    switch (s->step.scheme_used) {
    case SN_SCHEME_TRAPEZOID:
        return 0.5;
    case SN_SCHEME_EULER:
        return 0;
    default:
        return 1;
    }
}


// ---- rows ----

static sn_real row_dot(const sn_real* a, const sn_real* b, int n) {
    sn_real x = 0;
    for (int i = 0; i < n; i++)
        x += a[i] * b[i];
    return x;
}


// the normal row's velocity of block k at the sweep velocities
static sn_real normal_velocity(const sni_solver* sv, int k) {
    sn_real c[3];
    sni_solver_row_velocity(sv, k, c);
    return c[2];
}


// the sweep velocities after a normal impulse dl of block k: v += Y_n dl on each side
static void push_normal(sni_solver* sv, int k, sn_real dl) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[k] : sv->blk_sa[k];
        if (si < 0) continue;
        sn_system* s = sv->sys[si];
        int nv = s->m->nv;
        const sn_real* y = (e ? sv->blk_Yb : sv->blk_Ya) + stride * k + 2 * (size_t)nv;
        for (int i = 0; i < nv; i++)
            s->solve.v[i] += y[i] * dl;
    }
}


// ---- the bounce set ----

int sni_solver_bounce_count(sni_solver* sv) {
    int n = 0;
    for (int k = 0; k < sv->nblock; k++) {
        sv->bn_state[k] = SNI_BOUNCE_NONE;
        sv->bn_lam[k] = 0;
        sv->bn_past[k] = 0;
        if (sv->blk_kind[k] != SN_ROW_CONTACT) continue;
        const sni_contact* c = &sv->contacts[sv->blk_index[k]];
        // (a normal row the loops hold has G 0 there: it cannot bounce)
        if (!(c->e > 0) || !(sv->blk_G[9 * (size_t)k + 8] > 1e-300)) continue;
        sv->bn_state[k] = SNI_BOUNCE_FREE;
        sv->bn_list[n++] = k;
    }
    sv->bn_count = n;
    return n;
}


// the time r in [-lim, 0] at which a penetrating row's gap X (speed V, acceleration a now)
// closed while approaching: the latest root of X + V r + a r^2 / 2; 0 when it is deeper than that
static sn_real entry_time(sn_real X, sn_real V, sn_real a, sn_real lim) {
    sn_real r[2];
    int n = 0;
    if (a == 0) {
        if (V != 0) r[n++] = -X / V;
    } else {
        sn_real disc = V * V - 2 * a * X;
        if (disc >= 0) {
            sn_real q = -0.5 * (V + copysign(sqrt(disc), V));
            r[n++] = 2 * q / a;
            if (q != 0) r[n++] = X / q;
        }
    }
    sn_real best = 1;
    for (int i = 0; i < n; i++)
        if (r[i] <= 0 && r[i] >= -lim && V + a * r[i] < 0 && (best > 0 || r[i] > best)) best = r[i];
    return best > 0 ? 0 : best;
}


// each candidate's gap, the continuous velocity of its normal row at the step's start and its
// (constant) acceleration, from the step's start u and the sweep velocities v (u*, or u* with the
// other rows' impulses): V(t) = J_n v + base + acc t while no impact changes v
static void bounce_setup(sni_solver* sv) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        sn_real n0 = 0, n1 = 0, off = 0;
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[k] : sv->blk_sa[k];
            if (si < 0) continue;
            const sn_system* s = sv->sys[si];
            int nv = s->m->nv;
            const sn_real* J = (e ? sv->blk_Jb : sv->blk_Ja) + stride * k + 2 * (size_t)nv;
            sn_real a0 = row_dot(J, s->step.u0, nv), a1 = row_dot(J, s->solve.v, nv);
            n0 += a0, n1 += a1, off += kin(s) * (a1 - a0);
        }
        const sni_contact* c = &sv->contacts[sv->blk_index[k]];
        sv->bn_gap[k] = -c->depth;
        sv->bn_jv[k] = n1;
        sv->bn_base[k] = n0 + off - n1;
        sv->bn_acc[k] = (n1 - n0) / sv->dt;
    }
}


static sn_real speed_at(const sni_solver* sv, int k, sn_real t) {
    return sv->bn_jv[k] + sv->bn_base[k] + sv->bn_acc[k] * t;
}


// the time from now until a free candidate's gap X (speed V, acceleration a) closes, within R;
// -1: not within the step. A touching row that separates and would come back within the step
// counts as closing now (it is settled at the impact)
static sn_real time_to_touch(sn_real X, sn_real V, sn_real a, sn_real R) {
    if (X <= GAP_TOL) {
        if (V < 0) return 0;
        if (a < 0 && -2 * V / a <= R) return 0;
        return -1;
    }
    sn_real best = -1;
    if (a == 0) {
        if (V < 0) best = -X / V;
    } else {
        sn_real disc = V * V - 2 * a * X;
        if (disc < 0) return -1;
        sn_real q = -0.5 * (V + copysign(sqrt(disc), V));
        sn_real r[2] = {2 * q / a, q != 0 ? X / q : -1};
        for (int i = 0; i < 2; i++)
            if (r[i] >= 0 && (best < 0 || r[i] < best)) best = r[i];
    }
    return best >= 0 && best <= R ? best : -1;
}


// the next impact after time t: the time until it, or -1
static sn_real next_impact(const sni_solver* sv, sn_real t) {
    sn_real best = -1, R = sv->dt - t;
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        if (sv->bn_state[k] == SNI_BOUNCE_SETTLED) continue;
        sn_real d = time_to_touch(sv->bn_gap[k], speed_at(sv, k, t), sv->bn_acc[k], R);
        if (d >= 0 && (best < 0 || d < best)) best = d;
    }
    return best;
}


// the gaps moved on by d from time t
static void advance(sni_solver* sv, sn_real t, sn_real d) {
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        if (sv->bn_state[k] == SNI_BOUNCE_SETTLED) continue;
        sv->bn_gap[k] += d * (speed_at(sv, k, t) + 0.5 * sv->bn_acc[k] * d);
    }
}


// the impact at time t of the candidates touching then: lambda >= 0 on their normal rows with
// V+ >= -e V- where they approach faster than their threshold (else V+ >= 0), by Gauss-Seidel
// (a handful of rows); the number of rows in it. A row found penetrating closed earlier (in the
// last step, beyond the margin, or as the gaps moved by earlier impacts say): its impact is
// dated then (bn_entry), at its speed then, and its bounce is what it has become by now
static int impact(sni_solver* sv, sn_real t) {
    int m = 0;
    sn_real vmax = 0;
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        if (sv->bn_state[k] == SNI_BOUNCE_SETTLED || sv->bn_gap[k] > GAP_TOL) continue;
        const sni_contact* c = &sv->contacts[sv->blk_index[k]];
        sn_real V = speed_at(sv, k, t), a = sv->bn_acc[k], when = t;
        if (sv->bn_gap[k] < -GAP_TOL && V < 0)
            when = t + entry_time(sv->bn_gap[k], V, a, sv->dt + t);
        sv->bn_entry[k] = when;
        sn_real Vw = V - a * (t - when); // the approach when it closed
        sv->bn_set[m++] = k;
        sv->bn_ev[k] = 0;
        sv->bn_tgt[k] = -Vw > c->eth ? -c->e * Vw + a * (t - when) : 0;
        vmax = fmax(vmax, fabs(V));
    }
    for (int it = 0; it < IMPACT_ITER; it++) {
        sn_real change = 0;
        for (int j = 0; j < m; j++) {
            int k = sv->bn_set[j];
            sn_real g = sv->blk_G[9 * (size_t)k + 8];
            sn_real V = normal_velocity(sv, k) + sv->bn_base[k] + sv->bn_acc[k] * t;
            sn_real x = sv->bn_ev[k] - (V - sv->bn_tgt[k]) / g;
            x = x > 0 ? x : 0;
            sn_real dl = x - sv->bn_ev[k];
            if (dl == 0) continue;
            push_normal(sv, k, dl);
            sv->bn_ev[k] = x;
            change = fmax(change, fabs(dl) * g);
        }
        if (change <= IMPACT_TOL * (1 + vmax)) break;
    }
    return m;
}


// the gaps as the impulses of rows dated before t move them: every free row's gap changes by
// its speed change times the time since (the shift of sni_solver_bounce_shift, seen by the gaps)
static void dated_gaps(sni_solver* sv, int m, sn_real t) {
    for (int j = 0; j < m; j++) {
        int k = sv->bn_set[j];
        sn_real lead = t - sv->bn_entry[k];
        if (!(lead > 0) || !(sv->bn_ev[k] > 0)) continue;
        push_normal(sv, k, -sv->bn_ev[k]);
        for (int i = 0; i < sv->bn_count; i++) {
            int r = sv->bn_list[i];
            if (sv->bn_state[r] == SNI_BOUNCE_SETTLED) continue;
            sv->bn_gap[r] += (sv->bn_jv[r] - normal_velocity(sv, r)) * lead;
        }
        push_normal(sv, k, sv->bn_ev[k]);
    }
}


// after an impact at t: the rows' new speeds and gaps; the impulses and their moments for the
// positions; a row of the impact that now separates for the rest of the step bounced, one that
// stays or would come back within the step is settled (the sweeps hold it as a contact without
// bounce)
static void after_impact(sni_solver* sv, int m, sn_real t) {
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        if (sv->bn_state[k] != SNI_BOUNCE_SETTLED) sv->bn_jv[k] = normal_velocity(sv, k);
    }
    for (int j = 0; j < m; j++) {
        int k = sv->bn_set[j];
        if (sv->bn_entry[k] == t) sv->bn_gap[k] = 0;
    }
    dated_gaps(sv, m, t);
    for (int j = 0; j < m; j++) {
        int k = sv->bn_set[j];
        sn_real when = sv->bn_entry[k];
        if (sv->bn_ev[k] > 0) {
            sv->bn_lam[k] += sv->bn_ev[k];
            sv->bn_ltime[k] += sv->bn_ev[k] * when;
            if (when < 0) sv->bn_past[k] = 1;
        }
        // its speed when it closed, after the impact, and when it would come back
        sn_real a = sv->bn_acc[k], U = speed_at(sv, k, t) - a * (t - when);
        int stays = !(U > SPEED_TOL) || (a < 0 && when + 2 * U / -a <= sv->dt);
        if (stays)
            sv->bn_state[k] = SNI_BOUNCE_SETTLED;
        else if (sv->bn_lam[k] > 0)
            sv->bn_state[k] = SNI_BOUNCE_BOUNCED;
    }
}


// the restitution phase: the bounce set's impacts in time order through the step (at most four
// per candidate); the targets of the rows that bounced; the sweep velocities back at u*
void sni_solver_restitution(sni_solver* sv) {
    if (sv->bn_count == 0) return;
    for (int i = 0; i < sv->bn_count; i++)
        sv->bn_ltime[sv->bn_list[i]] = 0;
    bounce_setup(sv);
    sn_real t = 0;
    int events = 4 * sv->bn_count + 4;
    for (int ev = 0; ev < events; ev++) {
        sn_real d = next_impact(sv, t);
        if (d < 0) break;
        advance(sv, t, d);
        t += d;
        int m = impact(sv, t);
        after_impact(sv, m, t);
    }
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        // the discrete normal velocity the events leave: V(dt) - kin du, which is J_n v
        if (sv->bn_state[k] == SNI_BOUNCE_BOUNCED) sv->blk_target[3 * k + 2] = sv->bn_jv[k];
    }
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (s->solve.active) memcpy(s->solve.v, s->step.u1, (size_t)s->m->nv * sizeof(sn_real));
    }
}


// the sweeps start a bounced contact's normal impulse from the events' (a settled one's too
// when the warm start has none): the sweeps then only add what friction and the other rows change
void sni_solver_bounce_warm_start(sni_solver* sv) {
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        sn_real* la = sv->blk_lambda + 3 * k;
        int st = sv->bn_state[k];
        if (!(sv->bn_lam[k] > 0)) continue;
        if (st != SNI_BOUNCE_BOUNCED && !(st == SNI_BOUNCE_SETTLED && la[2] == 0)) continue;
        push_normal(sv, k, sv->bn_lam[k] - la[2]);
        la[2] = sv->bn_lam[k];
    }
}


// the positions of a bounce: the step's scheme moves them by dt (beta u+ + (1 - beta) u); the
// impulse of a contact that bounced at the fraction s of the step acted only after it, so they
// move by dt (1 - beta - s) M~^-1 J^T lambda more (a pseudo-velocity, as the position
// correction's). s < 0: a contact found penetrating that closed in the last step, beyond the
// margin: the bounce then lifts it to where bouncing at the surface would have put it
void sni_solver_bounce_shift(sni_solver* sv) {
    size_t stride = 3 * (size_t)sv->size.nvmax;
    for (int i = 0; i < sv->bn_count; i++) {
        int k = sv->bn_list[i];
        if (sv->bn_state[k] != SNI_BOUNCE_BOUNCED || !(sv->bn_lam[k] > 0)) continue;
        sn_real s = sv->bn_ltime[k] / sv->bn_lam[k] / sv->dt;
        const sn_real* la = sv->blk_lambda + 3 * k;
        for (int e = 0; e < 2; e++) {
            int si = e ? sv->blk_sb[k] : sv->blk_sa[k];
            if (si < 0) continue;
            sn_system* sys = sv->sys[si];
            int nv = sys->m->nv;
            sn_real f = 1 - beta(sys) - s;
            const sn_real* Y = (e ? sv->blk_Yb : sv->blk_Ya) + stride * k;
            for (int r = 0; r < 3; r++) {
                if (la[r] == 0) continue;
                const sn_real* y = Y + (size_t)r * nv;
                for (int q = 0; q < nv; q++)
                    sys->solve.pseudo[q] += f * la[r] * y[q];
            }
        }
    }
}
