// SPDX-License-Identifier: Apache-2.0
// step.c: integrate1 and integrate2 of seed 000 ("Integration Steps") as one pipeline of named
// stages, in the order of "Joint torque of a simulation step":
//   control (steps 1-3), free velocity (step 4 without impulses), factor M~ once, loops begin,
//   contact solve, loops finish, RK4's stages, positions (step 6), inverse dynamics, commit.
// Step 4 runs the articulated-body algorithm on M + diag(w) directly (the implicit diagonal
// enters ABA like rotor inertia), so the free velocity needs neither the dense mass matrix nor
// its factorization:
//   u* = u + dt (M + diag w)^-1 (tau_exp - h)
// M~ = M + diag(w) is factored once, by its own stage, for the systems whose loops or contacts
// need it. RUNGE_KUTTA_4's free velocity is its first stage (u* = u + dt M^-1 (tau_exp - h)); the
// contact solver acts on it through M^-1 (RK4 has no w), and its four stages run after the
// solve with the solver's change: its impact share at the start, the rest as a constant stage
// acceleration (stage "rk4"). SN_GYROSCOPIC_MIDPOINT takes the couples of spherical and floating
// bodies at the step's midpoint in the free velocity (gyro.c). A failed step (a non-finite
// result, a singular M~) leaves the state as it was.
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


// the scheme the rules of seed 000 select: SEMI_IMPLICIT replaces RUNGE_KUTTA_4 while the system
// has loop or mimic constraints (seed 000, not 001), replaces every scheme while a world
// constraint joins the system (issue 14: its rows' targets are for positions moved with u+;
// EULER and TRAPEZOID opened a rod by 6.9e-5 m and 3.4e-5 m), and replaces EULER and RK4 in
// the PD mode once the system has been in contact, until its state is set again
static int scheme_for_step(const sn_system* s) {
    int sc = s->step.scheme;
    if (sc == SN_SCHEME_RK4 && s->step.has_constraints) sc = SN_SCHEME_SEMI_IMPLICIT;
    // the world constraints' targets are for positions moved with u+ (docs/constraints.md
    // "Targets and drift"): every other scheme is replaced while one joins the system
    if (sc != SN_SCHEME_SEMI_IMPLICIT && sni_couple_touches(s->world, s))
        sc = SN_SCHEME_SEMI_IMPLICIT;
    if ((sc == SN_SCHEME_EULER || sc == SN_SCHEME_RK4) && s->has_contacted &&
        s->ctl.mode == SN_CONTROL_PD_PLUS_FEEDFORWARD)
        sc = SN_SCHEME_SEMI_IMPLICIT;
    return sc;
}


// ---- RUNGE_KUTTA_4 ----

// RUNGE_KUTTA_4's torque table: the weighted mean (weight wt) of the stage just evaluated,
// term by term: tau_cmd, damping, actuators, springs (s->step.tab_*)
static void rk_accumulate(sn_system* s, sn_real wt, int first) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sn_real *cmd = s->step.tab_cmd, *damp = s->step.tab_damp, *act = s->step.tab_act;
    sn_real* spr = s->step.tab_spring;
    if (first) {
        memset(cmd, 0, (size_t)nv * sizeof(sn_real));
        memset(damp, 0, (size_t)nv * sizeof(sn_real));
        memset(act, 0, (size_t)nv * sizeof(sn_real));
        memset(spr, 0, (size_t)nv * sizeof(sn_real));
    }
    const sn_real *q = s->d->q, *u = s->d->u;
    for (int v = 0; v < nv; v++) {
        cmd[v] += wt * s->step.tau_cmd[v];
        damp[v] -= wt * (s->ctl.damping[v] + s->act.b_out[v]) * u[v];
        act[v] += wt * s->step.tau_act[v];
    }
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint_nv[j] != 1) continue;
        int v = m->joint_vadr[j];
        spr[v] += wt * (s->ctl.spring_kq[v] - s->ctl.spring_k[v] * q[m->joint_qadr[j]]);
    }
}


static void set_stage_state(sn_system* s, const sn_real* q, const sn_real* u) {
    memcpy(s->d->q, q, (size_t)s->m->nq * sizeof(sn_real));
    memcpy(s->d->u, u, (size_t)s->m->nv * sizeof(sn_real));
    sn_fk(s->m, s->d);
    sn_fk_vel(s->m, s->d);
}


// one stage of RK4 at d->q, d->u (kinematics current): steps 1-3, then acc (nv) = M^-1 (tau_exp
// - h). rec_err keeps q_ref - q for getGeneralizedForce(), rec_act the actuator states for
// getActuatorStates()
static sn_status rk_stage(sn_system* s, sn_real* acc, int rec_err, int rec_act) {
    sn_real* err = rec_err ? s->step.pos_err : s->step.stage_err;
    sni_stage_torque(s, s->d->q, s->d->u, err, s->step.tau_cmd, s->step.tau_act, s->step.tau_exp,
                     rec_act);
    return sni_aba(s->m, s->d, s->step.tau_exp, NULL, acc);
}


// K = dexp^-1_theta(u) with theta = h * th (th in velocity units): a stage velocity in the tangent
// space of q0. A rotation (floating base, spherical joint) turns by a left product, q = exp(theta)
// q0, so theta' = omega - theta x omega / 2 + c theta x (theta x omega), c = (1 - (t/2) cot(t/2))
// / t^2 with t = |theta|. Translations and 1-DOF joints are copied: their tangent is their velocity
static void rk_tangent(const sn_model* m, const sn_real* th, sn_real h, const sn_real* u,
                       sn_real* K) {
    memcpy(K, u, (size_t)m->nv * sizeof(sn_real));
    if (h == 0) return;
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], v = m->joint_vadr[j];
        if (t == SN_JOINT_FLOATING)
            v += 3;
        else if (t != SN_JOINT_SPHERICAL)
            continue;
        sn_real x[3], a[3], b[3];
        v3_scale(x, th + v, h);
        sn_real n2 = v3_dot(x, x), n = sqrt(n2);
        sn_real c = n < 1e-3 ? 1.0 / 12 + n2 / 720 : (1 - 0.5 * n / tan(0.5 * n)) / n2;
        v3_cross(a, x, u + v);
        v3_cross(b, x, a);
        for (int e = 0; e < 3; e++)
            K[v + e] = u[v + e] - 0.5 * a[e] + c * b[e];
    }
}


// k += dc (dc NULL: nothing)
static void rk_add(sn_real* k, const sn_real* dc, int nv) {
    if (dc)
        for (int i = 0; i < nv; i++)
            k[i] += dc[i];
}


// classical RK4 on (theta, u) with q = q0 (+) theta (Munthe-Kaas): each stage's positions are q0
// moved by dt a_i times the previous stage's tangent velocity, and q+ by dt times the weighted
// mean of the four tangent velocities (ubar), so that RK4 is fourth order on rotations too (for
// translations and 1-DOF joints the tangent velocity is the velocity). It starts from (q0, rk_u0),
// k1 the acceleration there; dc (NULL: none) is a constant acceleration added to every stage's:
// the share of the contact solver's change spread over the step as a constant force (stage_rk4).
// The stages evaluate the acceleration of the equation of motion itself, M^-1 (tau_exp - h): the
// implicit diagonal w is a device of the one-stage schemes (it is O(dt) and would make RK4 first
// order), so damping, springs and the PD torque are explicit at each stage. The actuator bounds
// use the motor speeds of each stage; getActuatorStates() describes the last one.
static sn_status step_rk4(sn_system* s, sn_real dt, const sn_real* dc, sn_real* u1, sn_real* ubar) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sn_real *k1 = s->step.rk_acc[0], *k2 = s->step.rk_acc[1], *k3 = s->step.rk_acc[2];
    sn_real *k4 = s->step.rk_acc[3], *qs = s->step.rk_q;
    sn_real *u2 = s->step.rk_vel[0], *u3 = s->step.rk_vel[1], *u4 = s->step.rk_vel[2];
    sn_real *K1 = s->step.rk_tan[0], *K2 = s->step.rk_tan[1], *K3 = s->step.rk_tan[2];
    sn_real* K4 = s->step.rk_tan[3];
    const sn_real* q0 = s->step.q0;
    const sn_real* u0 = s->step.rk_u0;
    sn_status st = SN_OK;
    rk_accumulate(s, 1.0 / 6, 1);
    rk_add(k1, dc, nv);
    rk_tangent(m, u0, 0, u0, K1);
    for (int i = 0; i < nv; i++)
        u2[i] = u0[i] + 0.5 * dt * k1[i];
    sn_integrate_q(m, q0, K1, 0.5 * dt, qs);
    set_stage_state(s, qs, u2);
    st = rk_stage(s, k2, 0, 0);
    if (st == SN_OK) rk_accumulate(s, 2.0 / 6, 0);
    rk_add(k2, dc, nv);
    rk_tangent(m, K1, 0.5 * dt, u2, K2);
    for (int i = 0; i < nv && st == SN_OK; i++)
        u3[i] = u0[i] + 0.5 * dt * k2[i];
    if (st == SN_OK) {
        sn_integrate_q(m, q0, K2, 0.5 * dt, qs);
        set_stage_state(s, qs, u3);
        st = rk_stage(s, k3, 0, 0);
        if (st == SN_OK) rk_accumulate(s, 2.0 / 6, 0);
        rk_add(k3, dc, nv);
    }
    rk_tangent(m, K2, 0.5 * dt, u3, K3);
    for (int i = 0; i < nv && st == SN_OK; i++)
        u4[i] = u0[i] + dt * k3[i];
    if (st == SN_OK) {
        sn_integrate_q(m, q0, K3, dt, qs);
        set_stage_state(s, qs, u4);
        st = rk_stage(s, k4, 0, 1);
        if (st == SN_OK) rk_accumulate(s, 1.0 / 6, 0);
        rk_add(k4, dc, nv);
    }
    if (st != SN_OK) return st;
    rk_tangent(m, K3, dt, u4, K4);
    for (int i = 0; i < nv; i++) {
        u1[i] = u0[i] + dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        ubar[i] = (K1[i] + 2 * K2[i] + 2 * K3[i] + K4[i]) / 6;
    }
    return SN_OK;
}


// RUNGE_KUTTA_4's first stage at the step's start (q0, u0, kinematics current): k1 and the
// velocity without contacts u* = u0 + dt k1 in s->step.u1, on which the contact solver acts
static sn_status rk4_free_velocity(sn_system* s, sn_real dt) {
    sn_real* k1 = s->step.rk_acc[0];
    sn_status st = rk_stage(s, k1, 1, 0);
    if (st != SN_OK) return st;
    for (int i = 0; i < s->m->nv; i++)
        s->step.u1[i] = s->step.u0[i] + dt * k1[i];
    return SN_OK;
}


// the share theta of the contact solver's change du_c that is an impact: what is left of du_c
// once its M-weighted part along the free step's change dt k1 (the load the rows hold) is taken
// out, theta = 1 - clamp(-dt k1^T M du_c / du_c^T M du_c, 0, 1) (M at the step's start, from the
// stage "factor M~"; RK4's M~ is M). For one row it splits du_c = -(1 + e) u0 - dt a (a joint
// stopped at its limit, or a contact bouncing with restitution e) into the impact -(1 + e) u0 and
// the held load -dt a; a body held at rest (u0 = 0) gets theta = 0, a bounce keeps its rebound
// whole in the impact
static sn_real rk4_impact_share(const sn_system* s, const sn_real* duc, sn_real dt) {
    if (!(s->valid & SNI_VALID_MTILDE)) return 0;
    const sn_real* M = s->d->mass_matrix;
    const sn_real* k1 = s->step.rk_acc[0];
    int nv = s->m->nv;
    sn_real num = 0, den = 0;
    for (int i = 0; i < nv; i++) {
        sn_real md = 0;
        for (int j = 0; j < nv; j++)
            md += M[i * nv + j] * duc[j];
        num -= dt * k1[i] * md;
        den += duc[i] * md;
    }
    if (!(den > 0)) return 0;
    return num <= 0 ? 1 : num >= den ? 0 : 1 - num / den;
}


// RUNGE_KUTTA_4 after the contact solve: the velocity change of the contacts, joint limits and
// joint friction, du_c = u+ - u*. Its impact share theta du_c is applied at the step's start (seed
// 000: "applies the velocity change of the contact solver at the beginning of the step"), where
// k1 is evaluated again; the rest enters the four stages as the constant acceleration
// (1 - theta) du_c / dt, as the force that holds a load over the step. (Applied whole at the
// start, the held load's du_c = -dt a made the stages integrate the load again: a body held by a
// contact or a friction row moved dt^2 a / 2 per step, and a friction-held joint crept at dt a /
// 2.) u+ in s->step.u1, the mean tangent velocity in s->step.ubar
static sn_status stage_rk4(sn_system* s, sn_real dt) {
    if (s->step.scheme_used != SN_SCHEME_RK4) return SN_OK;
    int nv = s->m->nv, changed = 0;
    const sn_real *u0 = s->step.u0, *k1 = s->step.rk_acc[0];
    sn_real *u1 = s->step.u1, *us = s->step.rk_u0, *dc = s->step.rk_dc;
    for (int i = 0; i < nv; i++) {
        sn_real ustar = u0[i] + dt * k1[i];
        dc[i] = u1[i] == ustar ? 0 : u1[i] - ustar;
        changed |= dc[i] != 0;
    }
    memcpy(us, u0, (size_t)nv * sizeof(sn_real));
    if (!changed) return step_rk4(s, dt, NULL, u1, s->step.ubar);
    sn_real theta = rk4_impact_share(s, dc, dt);
    for (int i = 0; i < nv; i++) {
        us[i] = u0[i] + theta * dc[i];
        dc[i] = (1 - theta) * dc[i] / dt;
    }
    if (theta > 0) {
        set_stage_state(s, s->step.q0, us);
        sn_status st = rk_stage(s, s->step.rk_acc[0], 1, 0);
        if (st != SN_OK) return st;
    }
    return step_rk4(s, dt, dc, u1, s->step.ubar);
}


// the body accelerations of an RK4 step for inverse dynamics: those of udot = (u+ - u) / dt at
// the state of the step's start, gravity included (as the ABA of the one-stage schemes has them)
static void rk4_body_acc(sn_system* s, const sn_real* u1, sn_real dt) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    set_stage_state(s, s->step.q0, s->step.u0);
    for (int i = 0; i < m->nv; i++)
        s->id.udot[i] = (u1[i] - s->step.u0[i]) / dt;
    sn_fk_acc(m, d, s->id.udot);
    for (int b = 0; b < m->nbody; b++)
        for (int e = 0; e < 6; e++)
            s->id.body_acc[6 * b + e] = d->body_acc[6 * b + e] - (e < 3 ? 0 : d->gravity[e - 3]);
}


static int finite_all(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


// ---- the stages of a system's step ----

// control, steps 1-3 at the step's start (d->q, d->u, kinematics current): the scheme of this
// step, the implicit diagonal w, and tau_exp with q_ref - q kept for getGeneralizedForce() and the
// actuator states for getActuatorStates(). RUNGE_KUTTA_4 evaluates them at each of its stages
// instead (stage_free_velocity)
static void stage_control(sn_system* s, sn_real dt) {
    sn_data* d = s->d;
    sni_ensure_kinematics(s);
    if (!(s->valid & SNI_VALID_W) || s->ctl.w_dt != dt) sni_compute_w(s, dt);
    memcpy(s->step.q0, d->q, (size_t)s->m->nq * sizeof(sn_real));
    memcpy(s->step.u0, d->u, (size_t)s->m->nv * sizeof(sn_real));
    s->step.scheme_used = scheme_for_step(s);
    s->solve.in_solver = 1;
    // M~ is factored once in this step, by the first stage that needs it
    sni_system_invalidate(s, SNI_VALID_MTILDE);
    s->gyro.applied = 0;
    sni_gyro_check(s, dt);
    if (s->step.scheme_used == SN_SCHEME_RK4) return;
    sni_stage_torque(s, d->q, d->u, s->step.pos_err, s->step.tau_cmd, s->step.tau_act,
                     s->step.tau_exp, 1);
}


// free velocity, step 4 without impulses: u* = u + dt (M + diag w)^-1 (tau_exp - h) in s->step.u1
// (the contact solver adds M~^-1 J_c^T lambda_c to it), plus the spinning rotors' Cayley increment
// when rotors are set (rotor.c). RUNGE_KUTTA_4: its first stage, u* = u + dt M^-1 (tau_exp - h);
// its four stages run after the contact solve (stage_rk4)
static sn_status stage_free_velocity(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv;
    sn_real* u1 = s->step.u1;
    s->rotor.applied = 0;
    if (s->step.scheme_used == SN_SCHEME_RK4) return rk4_free_velocity(s, dt);
    if (sni_gyro_active(s)) {
        sn_status st = sni_gyro_free_velocity(s, dt);
        return st == SN_OK ? sni_rotor_free_velocity(s, dt) : st;
    }
    sn_real* acc = d->udot;
    sn_status st = sni_aba(m, d, s->step.tau_exp, s->ctl.w, acc);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++)
        u1[i] = s->step.u0[i] + dt * acc[i];
    if (s->id.compute) memcpy(s->id.body_acc, d->ws_acc, 6 * (size_t)m->nbody * sizeof(sn_real));
    // spinning rotors (rotor.c, off by default): the Cayley increment u' - u
    return s->rotor.n > 0 ? sni_rotor_free_velocity(s, dt) : SN_OK;
}


sn_status sni_step_factor(sn_system* s) {
    const sn_model* m = s->m;
    s->loops.route = 0; // the loops through this factor
    sn_crba(m, s->d);
    // RUNGE_KUTTA_4 has no implicit diagonal: its contact solver responds through M^-1
    const sn_real* w = s->step.scheme_used == SN_SCHEME_RK4 ? NULL : s->ctl.w;
    sn_status st = sni_factor_mass_diag(m, s->d->mass_matrix, w, &s->step.mtilde);
    if (st != SN_OK) return st;
    for (int i = 0; i < m->nv; i++)
        s->step.dinv[i] = 1 / s->step.mtilde.D[i];
    s->valid |= SNI_VALID_MTILDE;
    return SN_OK;
}


// factor M~ once: for the systems whose loops this step eliminates, or on which the contact
// solver will act (a system the solver leaves alone and without loops needs no factor). Loops
// that fall into small clusters on a large system need none either: the stage "loops begin"
// eliminates them by the clusters' articulated solve, which also gives the solver its responses
// (loops/cluster.c)
static sn_status stage_factor(const sn_world* w, sn_system* s) {
    s->loops.route = 0;
    if (!s->solve.in_solver || (s->valid & SNI_VALID_MTILDE)) return SN_OK;
    if (!s->step.has_constraints && !sni_solver_acts_on(w, s)) return SN_OK;
    if (s->step.has_constraints && sni_loops_cluster_route(w, s)) {
        s->loops.route = 1;
        return SN_OK;
    }
    return sni_step_factor(s);
}


// loops begin: the step's elimination of the system's loop constraints (they hold in every
// scheme the contact solver acts in; RUNGE_KUTTA_4 is replaced while there are loops)
static sn_status stage_loops_begin(sn_system* s, sn_real dt) {
    s->solve.has_loop_dv = 0;
    if (s->step.has_constraints && s->solve.in_solver) return sni_loops_begin(s, dt);
    return SN_OK;
}


// loops finish: the step's constraint impulses, with the contact solver's response
static void stage_loops_finish(sn_system* s) {
    if (s->loops.active) sni_loops_finish(s, s->solve.has_loop_dv ? s->solve.loop_dv : NULL);
}


// the contact impulses of system s as external forces on its bodies (for inverse dynamics)
static void contact_wrenches(sn_system* s, sn_real dt) {
    const sn_world* w = s->world;
    for (int i = 0; i < w->ncontact; i++) {
        const sni_contact* c = &w->contacts[i];
        for (int side = 0; side < 2; side++) {
            if ((side ? c->sb : c->sa) != s->index) continue;
            int b = side ? c->body_b : c->body;
            sn_real f[6];
            v3_scale(f + 3, c->impulse, side ? -1 / dt : 1 / dt);
            v3_cross(f, c->pos, f + 3);
            for (int e = 0; e < 6; e++)
                s->ctl.ext_body[6 * b + e] += f[e];
            s->ctl.has_ext = 1;
        }
    }
}


// positions, step 6: q+ = q (+) dt ubar (ubar by the scheme: u+, (u + u+)/2 or u; RK4's mean),
// with the contact solver's pseudo-velocity, into the scratch; SN_ERR_NONFINITE when u+ or q+ is
// not finite
static sn_status stage_positions(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    int nv = m->nv, nq = m->nq;
    const sn_real* u1 = s->step.u1;
    sn_real* ubar = s->step.ubar;
    // TRAPEZOID and EULER move the positions with the previous velocity too: with loops, with
    // its admissible part (a velocity set by hand need not keep them)
    const sn_real* uprev = s->step.u0;
    if (s->loops.active && s->step.scheme_used != SN_SCHEME_SEMI_IMPLICIT) {
        sni_loops_admissible(s, s->step.u0, s->step.u_adm);
        uprev = s->step.u_adm;
    }
    if (s->step.scheme_used != SN_SCHEME_RK4)
        for (int i = 0; i < nv; i++)
            ubar[i] = s->step.scheme_used == SN_SCHEME_SEMI_IMPLICIT ? u1[i]
                      : s->step.scheme_used == SN_SCHEME_TRAPEZOID   ? 0.5 * (uprev[i] + u1[i])
                                                                     : uprev[i];
    sn_real* q1 = s->step.q1;
    // the positions also move with the pseudo-velocity of the contact solver's correction of
    // penetrations and of joints outside their limits, which the velocity does not keep
    int pseudo = 0;
    for (int i = 0; i < nv; i++)
        pseudo |= s->solve.pseudo[i] != 0;
    if (pseudo)
        for (int i = 0; i < nv; i++) {
            ubar[i] += s->solve.pseudo[i];
            s->solve.pseudo[i] = 0;
        }
    // the last correction's opening of the loops closed through the positions (loops/factor.c);
    // this one's predicted, for the next step to tell its opening from the loops' drift
    if (s->loops.active && s->loops.pc_any && !s->loops.pc_solved)
        for (int i = 0; i < nv; i++)
            ubar[i] += s->loops.pc_u[i];
    if (s->loops.active && pseudo && s->loops.pc_limit) sni_loops_predict(s, ubar, dt);
    sn_integrate_q(m, s->step.q0, ubar, dt, q1);
    if (!finite_all(u1, nv) || !finite_all(q1, nq)) return SN_ERR_NONFINITE;
    return SN_OK;
}


// inverse dynamics (compute_id): the joint wrenches of the step, then the sensors. Impulses
// (impulses: the contact solver acted on the system) change the step's accelerations: they are
// recomputed from du / dt, and the contact impulses count as external forces on their bodies
static void stage_inverse_dynamics(sn_system* s, sn_real dt, int impulses) {
    if (!s->id.compute) return;
    const sn_real* u1 = s->step.u1;
    if (s->step.scheme_used == SN_SCHEME_RK4 || impulses || s->loops.active || s->gyro.applied ||
        s->rotor.applied)
        rk4_body_acc(s, u1, dt);
    if (impulses) {
        contact_wrenches(s, dt);
        sni_couple_wrenches(s); // the world constraints' forces on the system's links
    }
    if (s->loops.active) sni_loops_wrenches(s, dt);
    sni_step_wrenches(s, dt);
    sni_sensors_evaluate(s); // the sensors read the same snapshot (sensor/eval.c)
}


// commit: the new state q+, u+ (and du = u+ - u); the external forces applied for one step
static void stage_commit(sn_system* s) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv, nq = m->nq;
    memcpy(d->q, s->step.q1, (size_t)nq * sizeof(sn_real));
    for (int i = 0; i < nv; i++) {
        sn_real un = s->step.u1[i];
        s->step.du[i] = un - s->step.u0[i];
        d->u[i] = un;
    }
    memcpy(s->step.ext_last, s->ctl.ext, (size_t)nv * sizeof(sn_real));
    if (s->ctl.has_ext) {
        memset(s->ctl.ext, 0, (size_t)nv * sizeof(sn_real));
        memset(s->ctl.ext_body, 0, 6 * (size_t)m->nbody * sizeof(sn_real));
        s->ctl.has_ext = 0;
    }
    sni_system_invalidate(s, SNI_VALID_STATE);
}


// a runaway state (docs/contracts.md): a system whose state at the step's start is not finite,
// has a speed above SNI_RUNAWAY_SPEED, or whose mass matrix there is not finite. A failed
// factorization of such a state is the state's fault, not the mass matrix's: the step reports
// it as the runaway it is (SN_ERR_NONFINITE), naming the system, the DOF and the value.
#define SNI_RUNAWAY_SPEED 1e8 // m/s or rad/s: a third of light speed, no robot's
// m from the world origin: the spatial inertias about it (m |x|^2 next to a link's 1e-3 kg m^2)
// keep no digit of the inertia beyond this, and the factorization of M fails for that reason
#define SNI_RUNAWAY_DISTANCE 1e6
static int runaway(const sn_world* w, int n, char* why, size_t size) {
    for (int k = 0; k < n; k++) {
        const sn_system* s = w->sys[k];
        const sn_model* m = s->m;
        for (int i = 0; i < m->nq; i++)
            if (!isfinite(s->step.q0[i])) {
                snprintf(why, size, "system %d's q[%d] is %g at the step's start", k, i,
                         s->step.q0[i]);
                return 1;
            }
        for (int i = 0; i < m->nv; i++)
            if (!(fabs(s->step.u0[i]) <= SNI_RUNAWAY_SPEED)) {
                snprintf(why, size, "system %d's u[%d] is %g at the step's start (above %g)", k, i,
                         s->step.u0[i], SNI_RUNAWAY_SPEED);
                return 1;
            }
        for (int b = 1; b < m->nbody; b++) {
            const sn_real* x = s->d->body_pos + 3 * b;
            sn_real r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            if (!(r <= SNI_RUNAWAY_DISTANCE)) {
                snprintf(why, size,
                         "system %d's body %d is %g m from the origin at the step's start (above "
                         "%g m the mass matrix about the origin keeps no digit)",
                         k, b, r, SNI_RUNAWAY_DISTANCE);
                return 1;
            }
        }
        for (int i = 0; i < m->nv * m->nv; i++)
            if (!isfinite(s->d->mass_matrix[i])) {
                snprintf(why, size, "system %d's mass matrix is not finite at its state", k);
                return 1;
            }
    }
    return 0;
}


// every system back to the state of the step's start
static sn_status fail_all(sn_world* w, int n, sn_status st) {
    // (a runaway is recognized at the step's kinematics, before the state is put back)
    char ran[256];
    int ran_away =
        (st == SN_ERR_SINGULAR || st == SN_ERR_NONFINITE) && runaway(w, n, ran, sizeof ran);
    for (int k = 0; k < n; k++) {
        sn_system* s = w->sys[k];
        memcpy(s->d->q, s->step.q0, (size_t)s->m->nq * sizeof(sn_real));
        memcpy(s->d->u, s->step.u0, (size_t)s->m->nv * sizeof(sn_real));
        sni_system_state_set(s);
        // the failed solve's loop impulses are not reported (they may not be finite)
        if (s->m->nconstraint > 0)
            memset(s->loops.imp, 0, 3 * (size_t)s->m->nconstraint * sizeof(sn_real));
    }
    // the contacts found at the restored state stay the last step's report, without the failed
    // solve's impulses, and the contact problem's report is empty (as after a load): a failed step
    // leaves nothing non-finite behind, so the world's checkpoint still saves and loads
    for (int i = 0; i < w->ncontact; i++)
        memset(w->contacts[i].impulse, 0, sizeof w->contacts[i].impulse);
    w->solver.nblock = 0;
    // a world constraint whose impulses are not finite is named (its warm start zeroed), then a
    // runaway state
    char who[200];
    if (st == SN_ERR_NONFINITE && sni_couple_blame(w, who, sizeof who))
        return sni_world_fail(w, st,
                              "the step produced a non-finite state: the impulses of %s are not "
                              "finite; the state is left as it was",
                              who);
    if (ran_away)
        return sni_world_fail(w, SN_ERR_NONFINITE,
                              "the state ran away: %s; the step failed (non-finite) and the state "
                              "is left as it was",
                              ran);
    return sni_world_fail(w, st,
                          st == SN_ERR_SINGULAR ? "the mass matrix is singular in this step"
                                                : "the step produced a non-finite state; the "
                                                  "state is left as it was");
}


// ---- the world's step ----

sn_status sn_world_integrate1(sn_world* w) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    w->ncontact = 0;
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        memcpy(s->d->gravity, w->gravity, 3 * sizeof(sn_real));
        if (!(s->valid & SNI_VALID_W) || s->ctl.w_dt != w->dt) sni_compute_w(s, w->dt);
        sni_ensure_kinematics(s);
        // steps 2-4 of integrate1: collision bodies, detection, contacts
        if ((w->ground || w->hf_nx) && !sni_soft_on(w)) sni_collide_ground(w, i);
    }
    // a soft world's contacts are its systems' soft points (src/soft/), found in integrate2
    if (sni_soft_on(w)) return SN_OK;
    int self = 0;
    for (int i = 0; i < w->nsys; i++)
        self |= w->sys[i]->self_collision;
    if (w->nsys > 1 || self) sni_collide_systems(w);
    // contacts found beyond the room for them are dropped: said once per world
    if (w->contact_overflow > 0 && !w->contact_overflow_said) {
        sni_world_warn(w,
                       "more contacts than the %d the world has room for: %d were dropped (this "
                       "is said once)",
                       w->contact_cap, w->contact_overflow);
        w->contact_overflow_said = 1;
    }
    return SN_OK;
}


// a soft world's step (src/soft/, docs/expo.md): per system, steps 1-3 once at the step's start
// (the torque held over the step), then its soft integrator in place of the stages "free
// velocity" to "positions"; the commit when every system succeeded
static sn_status soft_integrate2(sn_world* w) {
    sn_real dt = w->dt;
    sni_soft_begin(w); // the bodies at the step's start, as the other systems see them
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        sni_ensure_kinematics(s);
        memcpy(s->step.q0, s->d->q, (size_t)s->m->nq * sizeof(sn_real));
        memcpy(s->step.u0, s->d->u, (size_t)s->m->nv * sizeof(sn_real));
        s->step.scheme_used = s->step.scheme;
        sni_stage_torque(s, s->d->q, s->d->u, s->step.pos_err, s->step.tau_cmd, s->step.tau_act,
                         s->step.tau_exp, 1);
        if (s->rotor.n > 0 && !s->rotor.soft_warned) {
            sni_world_warn(w,
                           "system %d has %d spinning rotors (sn_system_set_rotor): the soft "
                           "contacts' integrator does not take their Cayley step (said once)",
                           i, s->rotor.n);
            s->rotor.soft_warned = 1;
        }
        sn_status st = s->soft ? sni_soft_step(s, dt) : SN_ERR_NOMEM;
        if (st != SN_OK) {
            char why[512];
            snprintf(why, sizeof why, "%s", w->last_error);
            int ran = st == SN_ERR_SINGULAR && runaway(w, i + 1, why, sizeof why);
            fail_all(w, i + 1, ran ? SN_ERR_NONFINITE : st);
            for (int k = 0; k <= i; k++)
                sni_soft_restore(w->sys[k]);
            if (ran)
                return sni_world_fail(w, SN_ERR_NONFINITE,
                                      "system %d's soft step failed: the state ran away: %s; the "
                                      "state is left as it was",
                                      i, why);
            return sni_world_fail(
                w, st, "system %d's soft step failed (%s); the state is left as it was", i,
                st == SN_ERR_NONFINITE  ? "a non-finite state"
                : st == SN_ERR_SINGULAR ? "the mass matrix is singular"
                                        : why);
        }
    }
    for (int i = 0; i < w->nsys; i++)
        stage_commit(w->sys[i]);
    w->time += dt;
    return SN_OK;
}


sn_status sn_world_integrate2(sn_world* w) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (sni_soft_on(w)) {
        // (a soft world's systems step alone: nothing would hold the world constraints)
        if (sn_world_constraint_count(w) > 0)
            return sni_world_fail(w, SN_ERR_ARG,
                                  "the world has %d world constraints: they act in the hard "
                                  "contact solver, and this world uses soft contacts",
                                  sn_world_constraint_count(w));
        return soft_integrate2(w);
    }
    sn_real dt = w->dt;
    sn_status st = SN_OK;
    // control (steps 1-3) and the free velocity u* (step 4 without impulses)
    for (int i = 0; i < w->nsys; i++) {
        stage_control(w->sys[i], dt);
        st = stage_free_velocity(w->sys[i], dt);
        if (st != SN_OK) return fail_all(w, i + 1, st);
    }
    // factor M~ once, for the systems the loops and the contact solver use
    for (int i = 0; i < w->nsys && st == SN_OK; i++)
        st = stage_factor(w, w->sys[i]);
    if (st != SN_OK) return fail_all(w, w->nsys, st);
    // loops begin: the loop constraints eliminated exactly from each velocity before the contacts
    for (int i = 0; i < w->nsys && st == SN_OK; i++)
        st = stage_loops_begin(w->sys[i], dt);
    if (st != SN_OK) return fail_all(w, w->nsys, st);
    // contact solve: step 4's impulses of contacts, joint limits and joint friction of every
    // system at once
    sni_world_contact_solve(w, dt);
    // loops finish: the constraint impulses; the midpoint couple on the impulses' change
    for (int i = 0; i < w->nsys; i++) {
        stage_loops_finish(w->sys[i]);
        sni_gyro_impulses(w->sys[i], dt);
    }
    // RUNGE_KUTTA_4: the four stages with the solver's change (impact at the start, load spread)
    for (int i = 0; i < w->nsys; i++) {
        st = stage_rk4(w->sys[i], dt);
        if (st != SN_OK) return fail_all(w, w->nsys, st);
    }
    // positions (step 6) of every system, then inverse dynamics and commit: no system commits
    // (clearing its pending forces) before every system's step has succeeded
    for (int i = 0; i < w->nsys; i++) {
        st = stage_positions(w->sys[i], dt);
        if (st != SN_OK) return fail_all(w, w->nsys, st);
    }
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        stage_inverse_dynamics(s, dt,
                               s->solve.active && (w->solver.nblock > 0 || sni_couple_acting(w)));
        stage_commit(s);
    }
    w->time += dt;
    return SN_OK;
}


sn_status sn_world_integrate(sn_world* w) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    sn_status st = sn_world_integrate1(w);
    return st == SN_OK ? sn_world_integrate2(w) : st;
}


// ---- inverse dynamics of the step and the step-5 torque table ----

// the joint wrenches of the step just computed: body accelerations of step 4 (ABA, gravity
// included) at the kinematics of the step's start, with the step's external forces
void sni_step_wrenches(sn_system* s, sn_real dt) {
    (void)dt;
    const sn_model* m = s->m;
    sn_data* d = s->d;
    size_t nb = (size_t)m->nbody;
    // the wrench of every movable joint now, O(nbody); a snapshot of the step's kinematics for
    // the fixed joints, whose wrenches are computed when asked
    sni_body_wrenches(m, d, s->id.body_acc, s->ctl.has_ext ? s->ctl.ext_body : NULL, s->id.body);
    memcpy(s->id.pos, d->body_pos, 3 * nb * sizeof(sn_real));
    memcpy(s->id.rot, d->body_rot, 9 * nb * sizeof(sn_real));
    memcpy(s->id.vel, d->body_vel, 6 * nb * sizeof(sn_real));
    s->valid |= SNI_VALID_ID;
}


void sni_step_ujoint_wrench(const sn_system* s, int ujoint, sn_real w[6]) {
    const sn_model* m = s->m;
    if (m->ujoint_joint[ujoint] >= 0)
        memcpy(w, s->id.body + 6 * m->joint_body[m->ujoint_joint[ujoint]], 6 * sizeof(sn_real));
    else
        sni_fixed_joint_wrench(m, s->d, ujoint, s->id.pos, s->id.rot, s->id.vel, s->id.body_acc,
                               s->id.body, w);
}


sn_status sn_system_joint_wrench(sn_system* s, int ujoint, sn_real force[3], sn_real torque[3]) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (ujoint < 0 || ujoint >= s->m->nujoint)
        return sni_world_fail(s->world, SN_ERR_ARG, "ujoint %d: the model has URDF joints 0 to %d",
                              ujoint, s->m->nujoint - 1);
    if (!s->id.compute || !(s->valid & SNI_VALID_ID))
        return sni_world_fail(s->world, SN_ERR_ARG, "inverse dynamics is off or no step has run");
    const sn_model* m = s->m;
    sn_real w[6], x[3];
    int child = m->ujoint_child[ujoint], b = m->frame_body[child];
    sni_step_ujoint_wrench(s, ujoint, w);
    // the joint origin is the child link's origin; torque about it: n_x = n_0 + f x x
    m3_mul_v3(x, s->id.rot + 9 * b, m->frame_pos + 3 * child);
    v3_add(x, x, s->id.pos + 3 * b);
    if (force) v3_copy(force, w + 3);
    if (torque) {
        v3_copy(torque, w);
        v3_addcross(torque, w + 3, x);
    }
    return SN_OK;
}


sn_status sn_system_step_torques(const sn_system* s, sn_real* pd, sn_real* damping,
                                 sn_real* actuators, sn_real* springs, sn_real* external) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_model* m = s->m;
    int nv = m->nv;
    if (s->step.scheme_used == SN_SCHEME_RK4) {
        // no implicit part: the weighted means of the four stages
        const sni_step* t = &s->step;
        for (int v = 0; v < nv; v++) {
            if (pd) pd[v] = t->tab_cmd[v];
            if (damping) damping[v] = t->tab_damp[v];
            if (actuators) actuators[v] = t->tab_act[v];
            if (springs) springs[v] = t->tab_spring[v];
            if (external) external[v] = s->step.ext_last[v];
        }
        return SN_OK;
    }
    sn_real dt = s->ctl.w_dt;
    int on = s->ctl.mode == SN_CONTROL_PD_PLUS_FEEDFORWARD;
    for (int v = 0; v < nv; v++) {
        sn_real du = s->step.du[v], u1 = s->step.u0[v] + du;
        sn_real kp = on ? s->ctl.kp[v] : 0, kd = on ? s->ctl.kd[v] : 0;
        if (pd) pd[v] = s->step.tau_cmd[v] - (0.5 * kd + 0.25 * dt * kp) * du;
        if (damping)
            damping[v] = -0.5 * (s->ctl.damping[v] + s->act.b_out[v]) * (s->step.u0[v] + u1);
        if (actuators) actuators[v] = s->step.tau_act[v];
        if (springs) springs[v] = 0;
        if (external) external[v] = s->step.ext_last[v];
    }
    if (springs)
        for (int j = 0; j < m->njoint; j++) {
            if (m->joint_nv[j] != 1) continue;
            int v = m->joint_vadr[j];
            springs[v] = s->ctl.spring_kq[v] - s->ctl.spring_k[v] * s->step.q0[m->joint_qadr[j]] -
                         0.25 * dt * s->ctl.spring_k[v] * s->step.du[v];
        }
    return SN_OK;
}
