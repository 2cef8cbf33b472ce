// SPDX-License-Identifier: Apache-2.0
// events.c: contact events inside a soft sub-step (sn_system_set_soft_events; docs/expo.md
// "Contact events inside the sub-step"). A contact is otherwise detected only at a sub-step's
// end, so a point landing inside the sub-step enters the surface by up to h |v_n| before its
// spring starts: an error of first order in h. With events on, each sub-step of h first predicts,
// for every inactive point, the time its distance to the surface nearest it (the terrain or a
// body, src/soft/surface.c) reaches zero along that surface's normal,
// d + v_n t + a_n t^2 / 2 = 0, with a_n the normal acceleration at the piece's start (the
// contact forces of the active points included, one forward dynamics); when the earliest is
// inside the sub-step, the integrator takes a piece that long, the contacts are updated there
// (the predicted point caught with a tolerance: it may stop a hair above the surface), and the
// rest follows, split again at most EVENTS_MAX times. The prediction takes the surface at rest (a
// moving body's own motion is not in it: its touch-downs are located only approximately) and the
// control of the piece's start as the last one computed. Lift-offs are not located
// (docs/expo.md).
#include "base/smath.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define EVENTS_MAX 4      // splits of one sub-step at most
#define EVENTS_EPS 1e-3   // a piece is at least EVENTS_EPS h; the detection's tolerance in time
#define SCREEN_MARGIN 2.0 // the screen's factor on the linear reach |v_n| t
#define SCREEN_ACC 50.0   // the screen's normal acceleration, in g (a swinging leg's foot: 15 g)


sn_status sn_system_set_soft_events(sn_system* s, int on) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (on != 0 && on != 1)
        return sni_world_fail(s->world, SN_ERR_ARG, "soft events: %d must be 0 (off) or 1 (on)",
                              on);
    sni_soft* c = sni_soft_get(s);
    if (!c) return SN_ERR_NOMEM;
    c->events = on;
    return SN_OK;
}


int sn_system_soft_events(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->soft ? s->soft->events : 0;
}


long sn_system_soft_event_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    return s->soft ? s->soft->events_split : 0;
}


// the smallest t > 0 with d + v t + a t^2 / 2 = 0 (d > 0), INFINITY when there is none
static sn_real first_root(sn_real d, sn_real v, sn_real a) {
    sn_real A = 0.5 * a;
    if (A == 0) return v < 0 ? -d / v : (sn_real)INFINITY;
    sn_real disc = v * v - 4 * A * d;
    if (!(disc >= 0)) return INFINITY;
    // the two roots without cancellation: q / A and d / q
    sn_real qq = -0.5 * (v + copysign(sqrt(disc), v));
    sn_real r1 = qq / A, r2 = qq != 0 ? d / qq : (sn_real)INFINITY, t = (sn_real)INFINITY;
    if (r1 > 0) t = r1;
    if (r2 > 0 && r2 < t) t = r2;
    return t;
}


// inactive point i's distance to the surface nearest it and its normal (0 when it touches none)
static int surface(const sn_system* s, int i, sn_real* dist, sn_real* n) {
    const sni_soft* c = s->soft;
    sni_soft_touch t;
    if (c->pt[i].active || !sni_soft_touch_find(s, c->body[i], c->pos + 3 * i, 0, &t)) return 0;
    *dist = t.gap;
    v3_copy(n, t.n);
    return 1;
}


// an inactive point i approaching its surface within the detection's tolerance: EVENTS_EPS h of
// its approach (it would land within that time); its distance and normal in dist, n
static int is_near(const sn_system* s, int i, sn_real h, sn_real* dist, sn_real* n) {
    if (!surface(s, i, dist, n)) return 0;
    sn_real vn = v3_dot(n, s->soft->vel + 3 * i);
    return *dist > 0 && vn < 0 && *dist <= EVENTS_EPS * h * -vn;
}


// the earliest predicted touch-down within rem from (c->q, c->u) (the kinematics and the
// scratch there), INFINITY when none: the acceleration is computed only when a point may land
// (its linear reach over rem, with a margin, plus a fall at SCREEN_ACC g covers its distance;
// a point driven down harder is caught at the sub-step's end, as without events)
static sn_status predict(sn_system* s, sn_real rem, sn_real* tau) {
    sni_soft* c = s->soft;
    const sn_world* w = s->world;
    const sn_model* m = s->m;
    int nv = m->nv;
    *tau = INFINITY;
    sn_real gmag = sqrt(w->gravity[0] * w->gravity[0] + w->gravity[1] * w->gravity[1] +
                        w->gravity[2] * w->gravity[2]);
    int any = 0;
    for (int i = 0; i < c->n && !any; i++) {
        sn_real dist, n[3];
        if (!surface(s, i, &dist, n)) continue;
        sn_real vn = v3_dot(n, c->vel + 3 * i);
        any = dist > 0 &&
              dist <= SCREEN_MARGIN * rem * fmax(0, -vn) + 0.5 * SCREEN_ACC * gmag * rem * rem;
    }
    if (!any) return SN_OK;
    // the acceleration at the piece's start, the active contacts' forces included, without the
    // sub-step's implicit diagonal (c->acc: every integrator writes it before reading it)
    c->wh_on = 0;
    sn_status st = sni_soft_accel(s, s->step.tau_exp, c->pt, c->acc);
    if (st != SN_OK) return st;
    for (int i = 0; i < c->n; i++) {
        sn_real dist, n[3];
        if (!surface(s, i, &dist, n) || !(dist > 0)) continue;
        sn_real vn = v3_dot(n, c->vel + 3 * i);
        const sn_real* J = c->J + 3 * (size_t)i * (size_t)nv;
        sn_real an = v3_dot(n, c->jdu + 3 * i); // n . (J udot + J-dot u), the surface's at rest
        for (int k = 0; k < nv; k++)
            an += (n[0] * J[k] + n[1] * J[nv + k] + n[2] * J[2 * nv + k]) * c->acc[k];
        sn_real t = first_root(dist, vn, an);
        if (t < *tau) *tau = t;
    }
    return SN_OK;
}


// the points near their surfaces (is_near) put on them, so the contact update detects them
// there (on the ground plane exactly at its height); on[i] says which were
static int clamp_near(sn_system* s, sn_real h, int* on) {
    sni_soft* c = s->soft;
    int k = 0;
    for (int i = 0; i < c->n; i++) {
        sn_real dist, n[3];
        on[i] = is_near(s, i, h, &dist, n);
        if (!on[i]) continue;
        sn_real* p = c->pos + 3 * i;
        v3_addscl(p, n, -dist); // onto the surface; then in by ulps until it counts as touching
        for (int it = 0; it < 4 && surface(s, i, &dist, n) && dist > 0; it++)
            for (int e = 0; e < 3; e++)
                if (n[e] != 0) p[e] = nextafter(p[e], n[e] > 0 ? -INFINITY : INFINITY);
        k++;
    }
    return k;
}


sn_status sni_soft_events(sn_system* s, sn_real h, int k, sni_soft_piece piece) {
    sni_soft* c = s->soft;
    int on[SN_SOFT_POINTS_MAX];
    // at the sub-step's start (the contacts updated there): a point about to land is detected
    // now; the other points' states are left as the update made them
    if (clamp_near(s, h, on)) {
        // the step's update made the velocities, Jacobians and drifts of points on moving bodies
        // relative to them: fresh kinematics before a second update (it would subtract again)
        sni_soft_kin(s, c->q, c->u, 0);
        clamp_near(s, h, on);
        memcpy(c->tmp, c->pt, (size_t)c->n * sizeof(sni_soft_pt));
        sni_soft_update(s, c->tmp);
        for (int i = 0; i < c->n; i++)
            if (on[i]) c->pt[i] = c->tmp[i];
    }
    sn_real rem = h;
    int first = 1;
    for (int e = 0; e < EVENTS_MAX; e++) {
        sn_real tau;
        sn_status st = predict(s, rem, &tau);
        if (st != SN_OK) return st;
        if (!(tau > EVENTS_EPS * h && tau < rem - EVENTS_EPS * h)) break;
        st = piece(s, tau, first ? k : 1);
        if (st != SN_OK) return st;
        first = 0;
        if (c->events_split < INT_MAX) c->events_split++;
        sni_soft_kin(s, c->q, c->u, 1);
        clamp_near(s, h, on);
        sni_soft_update(s, c->pt);
        rem -= tau;
    }
    return piece(s, rem, first ? k : 1);
}
