// SPDX-License-Identifier: Apache-2.0
// step.c: one world step of a system on soft contacts (spec/algorithms.md A.12, A.13): n
// sub-steps of the system's integrator, each with the control (steps 1-3) at its start and the
// implicit diagonal of the PD, damping and springs (a feedforward force or generalized force set
// by the caller is held over the whole step: A.12's zero-order hold), each followed by the
// contact update (A.9) at the new state. The contact state is
// saved at the start and restored when the step fails.
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


void sni_soft_restore(sn_system* s) {
    sni_soft* c = s->soft;
    if (!c) return;
    memcpy(c->pt, c->save, (size_t)c->n * sizeof(sni_soft_pt));
    memcpy(c->roll, c->save_roll, 3 * (size_t)c->n * sizeof(sn_real));
    c->reset = c->save_reset;
}


static sn_status substep(sn_system* s, sn_real h) {
    switch (s->soft->integrator) {
    case SN_SOFT_EULER:
        return sni_soft_euler(s, h);
    case SN_SOFT_RK4:
        return sni_soft_rk4(s, h);
    case SN_SOFT_IMPLICIT_EULER:
        return sni_soft_implicit_euler(s, h);
    default:
        return sni_soft_expo(s, h);
    }
}


void sni_soft_begin(sn_world* w) {
    for (int k = 0; k < w->nsys; k++) {
        sn_system* s = w->sys[k];
        if (!s->soft) continue;
        sni_ensure_kinematics(s);
        const sn_data* d = s->d;
        for (int b = 0; b < s->m->nbody; b++) {
            sn_real* x = s->soft->snap + 18 * (size_t)b;
            memcpy(x, d->body_rot + 9 * b, 9 * sizeof(sn_real));
            v3_copy(x + 9, d->body_pos + 3 * b);
            memcpy(x + 12, d->body_vel + 6 * b, 6 * sizeof(sn_real));
        }
    }
}


// the reactions on s of the points of other systems that touch its bodies: minus their impulses
// over their last step (this world step's for the systems stepped before s, the last one's for
// those after it) / dt, at the anchors on s's bodies, as a generalized force held over s's step
// (explicit across systems), at s's kinematics (its step's start)
static void gather_reactions(sn_system* s, sn_real dt) {
    const sn_world* w = s->world;
    const sn_model* m = s->m;
    sni_soft* c = s->soft;
    int nv = m->nv;
    memset(c->react, 0, (size_t)nv * sizeof(sn_real));
    for (int k = 0; k < w->nsys; k++) {
        const sn_system* o = w->sys[k];
        if (o == s || !o->soft) continue;
        for (int i = 0; i < o->soft->n; i++) {
            const sni_soft_pt* pt = &o->soft->pt[i];
            if (!pt->active || pt->other != s->index + 1 || pt->ogeom < 0 || pt->ogeom >= m->ngeom)
                continue;
            int ob = m->frame_body[m->geom_frame[pt->ogeom]];
            if (ob < 1) continue;
            sn_real x[3];
            m3_mul_v3(x, s->d->body_rot + 9 * ob, pt->ab);
            v3_add(x, x, s->d->body_pos + 3 * ob);
            sn_point_jacobian(m, s->d, ob, x, c->Jt, NULL);
            for (int j = 0; j < nv; j++)
                c->react[j] -= (c->Jt[j] * pt->imp[0] + c->Jt[nv + j] * pt->imp[1] +
                                c->Jt[2 * nv + j] * pt->imp[2]) /
                               dt;
        }
    }
}


// the held reactions join the step's torque (after each computation of tau_exp)
static void add_reactions(sn_system* s) {
    for (int v = 0; v < s->m->nv; v++)
        s->step.tau_exp[v] += s->soft->react[v];
}


// the control of sub-step k at its start (c->q, c->u, kinematics there): steps 1-3 again after
// the first sub-step (the world's step computed them for the first), and the implicit diagonal of
// the PD, the joint damping and the springs over h, w = h/2 (b + b_out + kd) + h^2/4 (kp + k_s),
// as the hard step takes them (seed 000): held over the whole world step they would be explicit
// and a light link under a stiff PD would diverge. RK4 takes them explicitly at each sub-step
static void substep_control(sn_system* s, sn_real h, int k) {
    sni_soft* c = s->soft;
    const sn_model* m = s->m;
    if (k > 0)
        sni_stage_torque(s, c->q, c->u, c->err, s->step.tau_cmd, s->step.tau_act, s->step.tau_exp,
                         0);
    if (k > 0) add_reactions(s);
    int pd = s->ctl.mode == SN_CONTROL_PD_PLUS_FEEDFORWARD;
    c->wh_on = c->integrator != SN_SOFT_RK4;
    for (int v = 0; v < m->nv; v++) {
        sn_real kd = pd ? s->ctl.kd[v] : 0, kp = pd ? s->ctl.kp[v] : 0;
        c->wh[v] = 0.5 * h * (s->ctl.damping[v] + s->act.b_out[v] + kd) +
                   0.25 * h * h * (kp + s->ctl.spring_k[v]);
    }
}


// once per system: what a soft world leaves out (the hard solver's rows)
static void warn_unenforced(sn_system* s) {
    const sn_model* m = s->m;
    sni_soft* c = s->soft;
    if (c->warned) return;
    int limited = 0;
    for (int i = 0; i < m->nv; i++)
        limited += m->dof_limited[i] != 0;
    if (!limited && !s->step.has_constraints) return;
    char what[96];
    if (limited)
        snprintf(what, sizeof what, "its %d joint limits%s", limited,
                 s->step.has_constraints ? " and its loop or mimic constraints" : "");
    else
        snprintf(what, sizeof what, "its loop or mimic constraints");
    sni_world_warn(s->world,
                   "system %d on soft contacts: %s are not enforced (they are rows of the hard "
                   "contact solver; docs/expo.md); this is said once",
                   s->index, what);
    c->warned = 1;
}


sn_status sni_soft_step(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    sni_soft* c = s->soft;
    int nq = m->nq, nv = m->nv;
    warn_unenforced(s);
    memcpy(c->save, c->pt, (size_t)c->n * sizeof(sni_soft_pt));
    memcpy(c->save_roll, c->roll, 3 * (size_t)c->n * sizeof(sn_real));
    c->save_reset = c->reset;
    if (c->reset) sn_system_soft_release(s);
    memcpy(c->q, s->step.q0, (size_t)nq * sizeof(sn_real));
    memcpy(c->u, s->step.u0, (size_t)nv * sizeof(sn_real));
    c->newton_iter = 0;
    c->tnow = 0;
    // the contacts at the step's start (a no-op after a step, the detection after a new state)
    sni_soft_kin(s, c->q, c->u, 1);
    gather_reactions(s, dt);
    add_reactions(s);
    for (int i = 0; i < c->n; i++)
        memset(c->pt[i].imp, 0, sizeof c->pt[i].imp);
    sni_soft_update(s, c->pt);
    sn_real h = dt / c->substeps;
    sn_status st = SN_OK;
    for (int k = 0; k < c->substeps && st == SN_OK; k++) {
        substep_control(s, h, k);
        if (c->integrator != SN_SOFT_EXPO) // Expo adds its average forces' impulses itself
            for (int i = 0; i < c->n; i++)
                v3_addscl(c->pt[i].imp, c->pt[i].f, h);
        st = substep(s, h);
        if (st == SN_OK && (!finite_n(c->q, nq) || !finite_n(c->u, nv))) st = SN_ERR_NONFINITE;
        if (st != SN_OK) break;
        c->tnow = (k + 1) * h;
        sni_soft_kin(s, c->q, c->u, 1);
        sni_soft_update(s, c->pt);
    }
    for (int i = 0; i < c->n && st == SN_OK; i++)
        if (!finite_n(c->pt[i].f, 3) || !finite_n(c->pt[i].p0, 3)) st = SN_ERR_NONFINITE;
    if (st != SN_OK) {
        sni_soft_restore(s);
        return st;
    }
    memcpy(s->step.q1, c->q, (size_t)nq * sizeof(sn_real));
    memcpy(s->step.u1, c->u, (size_t)nv * sizeof(sn_real));
    return SN_OK;
}
