// SPDX-License-Identifier: Apache-2.0
// step.c: integrate1 and integrate2 of seed 000 ("Integration Steps") as one pipeline of named
// stages, in the order of "Joint torque of a simulation step":
//   control (steps 1-3), free velocity (step 4 without impulses), factor M~ once, loops begin,
//   contact solve, loops finish, positions (step 6), inverse dynamics, commit.
// Step 4 runs the articulated-body algorithm on M + diag(w) directly (the implicit diagonal
// enters ABA like rotor inertia), so the free velocity needs neither the dense mass matrix nor
// its factorization:
//   u* = u + dt (M + diag w)^-1 (tau_exp - h)
// M~ = M + diag(w) is factored once, by its own stage, for the systems whose loops or contacts
// need it. RUNGE_KUTTA_4 makes the whole step in its free-velocity stage. A failed step (a
// non-finite result, a singular M~) leaves the state as it was.
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// the scheme the rules of seed 000 select: SEMI_IMPLICIT replaces RUNGE_KUTTA_4 while the system
// has loop or mimic constraints (seed 000, not 001), and replaces EULER and RUNGE_KUTTA_4 in the
// PD mode once the system has been in contact, until its state is set again
static int scheme_for_step(const sn_system* s) {
    int sc = s->scheme;
    if (sc == SN_SCHEME_RK4 && s->has_constraints) sc = SN_SCHEME_SEMI_IMPLICIT;
    if ((sc == SN_SCHEME_EULER || sc == SN_SCHEME_RK4) && s->has_contacted &&
        s->mode == SN_CONTROL_PD_PLUS_FEEDFORWARD)
        sc = SN_SCHEME_SEMI_IMPLICIT;
    return sc;
}


// ---- RUNGE_KUTTA_4 ----

// RUNGE_KUTTA_4's torque table: the weighted mean (weight wt) of the stage just evaluated,
// term by term: tau_cmd, damping, actuators, springs (4 nv in s->rk_tab)
static void rk_accumulate(sn_system* s, sn_real wt, int first) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sn_real *cmd = s->rk_tab, *damp = cmd + nv, *act = damp + nv, *spr = act + nv;
    if (first) memset(s->rk_tab, 0, 4 * (size_t)nv * sizeof(sn_real));
    const sn_real *q = s->d->q, *u = s->d->u;
    for (int v = 0; v < nv; v++) {
        cmd[v] += wt * s->tau_cmd[v];
        damp[v] -= wt * (s->damping[v] + s->b_out[v]) * u[v];
        act[v] += wt * s->tau_act[v];
    }
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint_nv[j] != 1) continue;
        int v = m->joint_vadr[j];
        spr[v] += wt * (s->spring_kq[v] - s->spring_k[v] * q[m->joint_qadr[j]]);
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
    sn_real* err = rec_err ? s->pos_err : s->stage_err;
    sni_stage_torque(s, s->d->q, s->d->u, err, s->tau_cmd, s->tau_act, s->tau_exp, rec_act);
    return sni_aba(s->m, s->d, s->tau_exp, NULL, acc);
}


// classical RK4 on (q, u); q moves on the manifold with the weighted mean velocity. The stages
// evaluate the acceleration of the equation of motion itself, M^-1 (tau_exp - h): the implicit
// diagonal w is a device of the one-stage schemes (it is O(dt) and would make RK4 first order),
// so damping, springs and the PD torque are explicit at each stage. The actuator bounds use the
// motor speeds of each stage; getActuatorStates() describes the last one.
static sn_status step_rk4(sn_system* s, sn_real dt, sn_real* u1, sn_real* ubar) {
    int nv = s->m->nv;
    sn_real *k1 = s->rk, *k2 = k1 + nv, *k3 = k2 + nv, *k4 = k3 + nv;
    sn_real *u2 = k4 + nv, *u3 = u2 + nv, *u4 = u3 + nv, *qs = u4 + nv;
    const sn_real* q0 = s->q0;
    const sn_real* u0 = s->u0;
    sn_status st = rk_stage(s, k1, 1, 0);
    if (st == SN_OK) rk_accumulate(s, 1.0 / 6, 1);
    for (int i = 0; i < nv && st == SN_OK; i++)
        u2[i] = u0[i] + 0.5 * dt * k1[i];
    if (st == SN_OK) {
        sn_integrate_q(s->m, q0, u0, 0.5 * dt, qs);
        set_stage_state(s, qs, u2);
        st = rk_stage(s, k2, 0, 0);
        if (st == SN_OK) rk_accumulate(s, 2.0 / 6, 0);
    }
    for (int i = 0; i < nv && st == SN_OK; i++)
        u3[i] = u0[i] + 0.5 * dt * k2[i];
    if (st == SN_OK) {
        sn_integrate_q(s->m, q0, u2, 0.5 * dt, qs);
        set_stage_state(s, qs, u3);
        st = rk_stage(s, k3, 0, 0);
        if (st == SN_OK) rk_accumulate(s, 2.0 / 6, 0);
    }
    for (int i = 0; i < nv && st == SN_OK; i++)
        u4[i] = u0[i] + dt * k3[i];
    if (st == SN_OK) {
        sn_integrate_q(s->m, q0, u3, dt, qs);
        set_stage_state(s, qs, u4);
        st = rk_stage(s, k4, 0, 1);
        if (st == SN_OK) rk_accumulate(s, 1.0 / 6, 0);
    }
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++) {
        u1[i] = u0[i] + dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        ubar[i] = (u0[i] + 2 * u2[i] + 2 * u3[i] + u4[i]) / 6;
    }
    return SN_OK;
}


// the body accelerations of an RK4 step for inverse dynamics: those of udot = (u+ - u) / dt at
// the state of the step's start, gravity included (as the ABA of the one-stage schemes has them)
static void rk4_body_acc(sn_system* s, const sn_real* u1, sn_real dt) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    set_stage_state(s, s->q0, s->u0);
    for (int i = 0; i < m->nv; i++)
        d->udot[i] = (u1[i] - s->u0[i]) / dt;
    sn_fk_acc(m, d, d->udot);
    for (int b = 0; b < m->nbody; b++)
        for (int e = 0; e < 6; e++)
            s->body_acc[6 * b + e] = d->body_acc[6 * b + e] - (e < 3 ? 0 : d->gravity[e - 3]);
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
    if (s->w_dirty || s->w_dt != dt) sni_compute_w(s, dt);
    memcpy(s->q0, d->q, (size_t)s->m->nq * sizeof(sn_real));
    memcpy(s->u0, d->u, (size_t)s->m->nv * sizeof(sn_real));
    s->scheme_used = scheme_for_step(s);
    s->in_solver = s->scheme_used != SN_SCHEME_RK4;
    if (s->scheme_used == SN_SCHEME_RK4) return;
    sni_stage_torque(s, d->q, d->u, s->pos_err, s->tau_cmd, s->tau_act, s->tau_exp, 1);
}


// free velocity, step 4 without impulses: u* = u + dt (M + diag w)^-1 (tau_exp - h) in s->du
// (the contact solver adds M~^-1 J_c^T lambda_c to it). RUNGE_KUTTA_4: the whole step, u+ in
// s->du and its mean velocity in the scratch
static sn_status stage_free_velocity(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv;
    sn_real* u1 = s->du;                 // holds u+ until the end
    sn_real* ubar = s->rk + 8 * nv - nv; // the last velocity slot of the RK4 scratch
    if (s->scheme_used == SN_SCHEME_RK4) return step_rk4(s, dt, u1, ubar);
    sn_real* acc = d->udot;
    sn_status st = sni_aba(m, d, s->tau_exp, s->w, acc);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++)
        u1[i] = s->u0[i] + dt * acc[i];
    if (s->compute_id) memcpy(s->body_acc, d->ws_acc, 6 * (size_t)m->nbody * sizeof(sn_real));
    return SN_OK;
}


sn_status sni_step_factor(sn_system* s) {
    const sn_model* m = s->m;
    sn_crba(m, s->d);
    sn_status st = sni_factor_mass_diag(m, s->d->mass_matrix, s->w, &s->mtilde);
    if (st != SN_OK) return st;
    for (int i = 0; i < m->nv; i++)
        s->dinv[i] = 1 / s->mtilde.D[i];
    s->factored = 1;
    return SN_OK;
}


// factor M~ once: for the systems whose loops this step eliminates, or on which the contact
// solver will act (a system the solver leaves alone and without loops needs no factor)
static sn_status stage_factor(const sn_world* w, sn_system* s) {
    if (!s->in_solver) return SN_OK;
    if (!s->has_constraints && !sni_solver_acts_on(w, s)) return SN_OK;
    return sni_step_factor(s);
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
                s->ext_body[6 * b + e] += f[e];
            s->has_ext = 1;
        }
    }
}


// positions, step 6: q+ = q (+) dt ubar (ubar by the scheme: u+, (u + u+)/2 or u; RK4's mean),
// with the contact solver's pseudo-velocity, into the scratch; SN_ERR_NONFINITE when u+ or q+ is
// not finite
static sn_status stage_positions(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    int nv = m->nv, nq = m->nq;
    sn_real* u1 = s->du;
    sn_real* ubar = s->rk + 8 * nv - nv;
    // TRAPEZOID and EULER move the positions with the previous velocity too: with loops, with
    // its admissible part (a velocity set by hand need not keep them)
    const sn_real* uprev = s->u0;
    if (s->loop_active && s->scheme_used != SN_SCHEME_SEMI_IMPLICIT) {
        sni_loops_admissible(s, s->u0, s->rk);
        uprev = s->rk;
    }
    if (s->scheme_used != SN_SCHEME_RK4)
        for (int i = 0; i < nv; i++)
            ubar[i] = s->scheme_used == SN_SCHEME_SEMI_IMPLICIT ? u1[i]
                      : s->scheme_used == SN_SCHEME_TRAPEZOID   ? 0.5 * (uprev[i] + u1[i])
                                                                : uprev[i];
    sn_real* q1 = s->rk + 8 * nv; // nq entries
    // the positions also move with the pseudo-velocity of the contact solver's correction of
    // penetrations and of joints outside their limits, which the velocity does not keep
    int pseudo = 0;
    for (int i = 0; i < nv; i++)
        pseudo |= s->pseudo[i] != 0;
    if (pseudo)
        for (int i = 0; i < nv; i++) {
            ubar[i] += s->pseudo[i];
            s->pseudo[i] = 0;
        }
    sn_integrate_q(m, s->q0, ubar, dt, q1);
    if (!finite_all(u1, nv) || !finite_all(q1, nq)) return SN_ERR_NONFINITE;
    return SN_OK;
}


// inverse dynamics (compute_id): the joint wrenches of the step. Impulses (impulses: the contact
// solver acted on the system) change the step's accelerations: they are recomputed from du / dt,
// and the contact impulses count as external forces on their bodies
static void stage_inverse_dynamics(sn_system* s, sn_real dt, int impulses) {
    if (!s->compute_id) return;
    const sn_real* u1 = s->du;
    if (s->scheme_used == SN_SCHEME_RK4 || impulses || s->loop_active) rk4_body_acc(s, u1, dt);
    if (impulses) contact_wrenches(s, dt);
    if (s->loop_active) sni_loops_wrenches(s, dt);
    sni_step_wrenches(s, dt);
}


// commit: the new state q+, u+ (and du = u+ - u); the external forces applied for one step
static void stage_commit(sn_system* s) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv, nq = m->nq;
    const sn_real* q1 = s->rk + 8 * nv;
    memcpy(d->q, q1, (size_t)nq * sizeof(sn_real));
    for (int i = 0; i < nv; i++) {
        sn_real un = s->du[i];
        s->du[i] = un - s->u0[i];
        d->u[i] = un;
    }
    memcpy(s->ext_last, s->ext, (size_t)nv * sizeof(sn_real));
    if (s->has_ext) {
        memset(s->ext, 0, (size_t)nv * sizeof(sn_real));
        memset(s->ext_body, 0, 6 * (size_t)m->nbody * sizeof(sn_real));
        s->has_ext = 0;
    }
    s->kin_valid = 0;
    s->dyn_valid = 0;
    s->factored = 0;
}


// every system back to the state of the step's start
static sn_status fail_all(sn_world* w, int n, sn_status st) {
    for (int k = 0; k < n; k++) {
        sn_system* s = w->sys[k];
        memcpy(s->d->q, s->q0, (size_t)s->m->nq * sizeof(sn_real));
        memcpy(s->d->u, s->u0, (size_t)s->m->nv * sizeof(sn_real));
        sni_system_invalidate(s);
    }
    return sni_world_fail(w, st,
                          st == SN_ERR_SINGULAR ? "the mass matrix is singular in this step"
                                                : "the step produced a non-finite state; the "
                                                  "state is left as it was");
}


// ---- the world's step ----

sn_status sn_world_integrate1(sn_world* w) {
    if (!w) return SN_ERR_ARG;
    w->ncontact = 0;
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        memcpy(s->d->gravity, w->gravity, 3 * sizeof(sn_real));
        if (s->w_dirty || s->w_dt != w->dt) sni_compute_w(s, w->dt);
        sni_ensure_kinematics(s);
        // steps 2-4 of integrate1: collision bodies, detection, contacts
        if (w->ground || w->hf_nx) sni_collide_ground(w, i);
    }
    int self = 0;
    for (int i = 0; i < w->nsys; i++)
        self |= w->sys[i]->self_collision;
    if (w->nsys > 1 || self) sni_collide_systems(w);
    return SN_OK;
}


sn_status sn_world_integrate2(sn_world* w) {
    if (!w) return SN_ERR_ARG;
    sn_real dt = w->dt;
    sn_status st = SN_OK;
    for (int i = 0; i < w->nsys && st == SN_OK; i++) {
        stage_control(w->sys[i], dt);
        st = stage_free_velocity(w->sys[i], dt);
        if (st != SN_OK) return fail_all(w, i + 1, st);
    }
    for (int i = 0; i < w->nsys && st == SN_OK; i++)
        st = stage_factor(w, w->sys[i]);
    // the loop constraints, eliminated exactly from each system's velocity before the contacts
    for (int i = 0; i < w->nsys && st == SN_OK; i++) {
        sn_system* s = w->sys[i];
        s->loop_g = 0;
        if (s->has_constraints && s->in_solver) st = sni_loops_begin(s, dt);
    }
    if (st != SN_OK) return fail_all(w, w->nsys, st);
    // step 4's impulses: contacts, joint limits and joint friction of every system at once
    sni_world_contact_solve(w, dt);
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        if (s->loop_active) sni_loops_finish(s, s->loop_g ? s->gs_fix : NULL);
    }
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        st = stage_positions(s, dt);
        if (st != SN_OK) return fail_all(w, w->nsys, st);
        stage_inverse_dynamics(s, dt, s->solve_mark && w->solver.nblock > 0);
        stage_commit(s);
    }
    w->time += dt;
    return SN_OK;
}


sn_status sn_world_integrate(sn_world* w) {
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
    sni_body_wrenches(m, d, s->body_acc, s->has_ext ? s->ext_body : NULL, s->id_body);
    memcpy(s->id_pos, d->body_pos, 3 * nb * sizeof(sn_real));
    memcpy(s->id_rot, d->body_rot, 9 * nb * sizeof(sn_real));
    memcpy(s->id_vel, d->body_vel, 6 * nb * sizeof(sn_real));
    s->id_valid = 1;
}


sn_status sn_system_joint_wrench(sn_system* s, int ujoint, sn_real force[3], sn_real torque[3]) {
    if (!s || ujoint < 0 || ujoint >= s->m->nujoint) return SN_ERR_ARG;
    if (!s->compute_id || !s->id_valid)
        return sni_world_fail(s->world, SN_ERR_ARG, "inverse dynamics is off or no step has run");
    const sn_model* m = s->m;
    sn_real w[6], x[3];
    int child = m->ujoint_child[ujoint], b = m->frame_body[child];
    if (m->ujoint_joint[ujoint] >= 0)
        memcpy(w, s->id_body + 6 * m->joint_body[m->ujoint_joint[ujoint]], sizeof w);
    else
        sni_fixed_joint_wrench(m, s->d, ujoint, s->id_pos, s->id_rot, s->id_vel, s->body_acc,
                               s->id_body, w);
    // the joint origin is the child link's origin; torque about it: n_x = n_0 + f x x
    m3_mul_v3(x, s->id_rot + 9 * b, m->frame_pos + 3 * child);
    v3_add(x, x, s->id_pos + 3 * b);
    if (force) v3_copy(force, w + 3);
    if (torque) {
        v3_copy(torque, w);
        v3_addcross(torque, w + 3, x);
    }
    return SN_OK;
}


sn_status sn_system_step_torques(const sn_system* s, sn_real* pd, sn_real* damping,
                                 sn_real* actuators, sn_real* springs, sn_real* external) {
    if (!s) return SN_ERR_ARG;
    const sn_model* m = s->m;
    int nv = m->nv;
    if (s->scheme_used == SN_SCHEME_RK4) {
        // no implicit part: the weighted means of the four stages
        const sn_real* t = s->rk_tab;
        for (int v = 0; v < nv; v++) {
            if (pd) pd[v] = t[v];
            if (damping) damping[v] = t[nv + v];
            if (actuators) actuators[v] = t[2 * nv + v];
            if (springs) springs[v] = t[3 * nv + v];
            if (external) external[v] = s->ext_last[v];
        }
        return SN_OK;
    }
    sn_real dt = s->w_dt;
    int on = s->mode == SN_CONTROL_PD_PLUS_FEEDFORWARD;
    for (int v = 0; v < nv; v++) {
        sn_real du = s->du[v], u1 = s->u0[v] + du;
        sn_real kp = on ? s->kp[v] : 0, kd = on ? s->kd[v] : 0;
        if (pd) pd[v] = s->tau_cmd[v] - (0.5 * kd + 0.25 * dt * kp) * du;
        if (damping) damping[v] = -0.5 * (s->damping[v] + s->b_out[v]) * (s->u0[v] + u1);
        if (actuators) actuators[v] = s->tau_act[v];
        if (springs) springs[v] = 0;
        if (external) external[v] = s->ext_last[v];
    }
    if (springs)
        for (int j = 0; j < m->njoint; j++) {
            if (m->joint_nv[j] != 1) continue;
            int v = m->joint_vadr[j];
            springs[v] = s->spring_kq[v] - s->spring_k[v] * s->q0[m->joint_qadr[j]] -
                         0.25 * dt * s->spring_k[v] * s->du[v];
        }
    return SN_OK;
}
