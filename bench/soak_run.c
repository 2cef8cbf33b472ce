// SPDX-License-Identifier: Apache-2.0
// soak_run.c: one model file stepped with random bounded torques, its energy balance measured.
//
// The energy E = kinetic + gravity + joint springs. The torques' work W = sum over the steps of
// dt (tau_cmd + tau_act) . u+ (sn_system_step_torques: the applied feedforward and actuator
// torques) plus dt f L-dot+ of each tendon's force f (its spring, damper and actuators, counted
// as forces from outside: an MJCF servo on a tendon, as the Robotiq gripper's, does work). Joint
// damping, friction, inelastic contacts and limits only take energy out; the loops' impulses do
// work only through their feedback J u+ = -beta e of the drift (seed 001), counted apart: W_loop =
// sum dt tau_loop . u+ (sn_system_step_constraint_ torques). So E - W - W_loop may not rise, but by
// the integrator's error, bounded by B:
//  - the integrator is first order (semi-implicit Euler: u+ from the forces at the step's start,
//    q+ = q (+) dt u+); for a force F its energy is off by about (dt / 2) u . F (the shadow
//    energy it keeps instead), so E can rise by up to twice that, dt |u . F|: the energy the
//    largest power moves in one step;
//  - the inertia depends on the configuration: the Coriolis and centrifugal terms do no work,
//    but evaluated at the step's start they are off by the kinetic energy the configuration's
//    change alone makes in one step, 1/2 u+ (M(q+) - M(q)) u+, dT_M;
//  - a contact or a limit is met one step late, a penetration of one step's motion, and the
//    position correction gives back the potential energy of that motion: dt |u . F| again.
// B = 2 (max |Delta V| + max |Delta W| + max |dT_M|) over the steps so far (the largest one-step
// change of the potential energy, work of the torques and dT_M), plus 1e-9 of the energies' scale
// for rounding (the largest sum of |kinetic| + |gravity| + |springs| + the work's |dt tau . u|) and
// 1e-12 J. A start that is not feasible (a body in the floor, a joint past its limit: the files' q
// = 0 often is) holds energy that the position correction gives back, lifting the robot or moving
// the joint back: the balance is kept from the first step that is feasible (no contact 0.1 mm
// deep, no tendon or joint 1e-4 past its limit and moving back) on ("clear"). The measure: rise =
// max over steps k > j >= clear of (E_k - W_k - W_loop,k) - (E_j - W_j - W_loop,j); excess = rise -
// B; ratio = rise / B (<= 1: the balance holds).
#include "soak_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// resident set size in kB (0 where /proc is not there)
static long rss_kb(void) {
    FILE* f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long pages = 0, rss = 0;
    int n = fscanf(f, "%ld %ld", &pages, &rss);
    fclose(f);
    return n == 2 ? rss * 4 : 0;
}

// splitmix64 and a uniform number in [-1, 1]
static double uniform(unsigned long long* x) {
    unsigned long long z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return 2.0 * (double)(z >> 11) / 9007199254740992.0 - 1.0;
}

static double energy(sn_system* s) {
    return sn_system_kinetic_energy(s) + sn_system_potential_energy(s) + sn_system_spring_energy(s);
}

// the DOFs a floating or spherical joint moves get no damping and no torque (no effort limit)
static int free_dof(const sn_model* m, int v) {
    int t = m->joint_type[m->dof_joint[v]];
    return t == SN_JOINT_FLOATING;
}

// no contact 0.1 mm deep, no limited tendon 0.1 mm past its range, no limited joint 1e-4 (m or
// rad) past its limit and moving back (one that does not is a limit the loops set against
// another, left out: docs/loops.md);
// qprev: the positions before the step
static int feasible(const sn_model* m, sn_system* s, const sn_real* qprev) {
    for (int i = 0; i < sn_system_contact_count(s); i++) {
        sn_contact c;
        if (sn_system_contact(s, i, &c) == SN_OK && c.depth > 1e-4) return 0;
    }
    const sn_real* q = sn_system_q(s);
    for (int v = 0; v < m->nv; v++) {
        int j = m->dof_joint[v];
        if (!m->dof_limited[v] || m->joint_nv[j] != 1) continue;
        sn_real x = q[m->joint_qadr[j]];
        sn_real xp = qprev[m->joint_qadr[j]];
        if ((x < m->dof_lower[v] - 1e-4 && x > xp + 1e-9) ||
            (x > m->dof_upper[v] + 1e-4 && x < xp - 1e-9))
            return 0;
    }
    for (int t = 0; t < m->ntendon; t++) {
        sn_real len = 0;
        if (!m->tendon_limited[t] || sn_system_tendon_length(s, t, &len) != SN_OK) continue;
        if (len < m->tendon_range[2 * t] - 1e-4 || len > m->tendon_range[2 * t + 1] + 1e-4)
            return 0;
    }
    return 1;
}

int soak_run(const char* path, const soak_opts* o, soak_result* r) {
    memset(r, 0, sizeof *r);
    r->status = SN_OK;
    r->fail_step = -1;
    r->clear = -1;
    sn_model* m = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_format fmt;
    if (sn_file_format(path, &fmt, &err) != SN_OK) { // not a model file
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        return 0;
    }
    r->loaded = 1;
    sn_status ls = sn_load(path, NULL, &m, &err);
    if (ls != SN_OK) {
        r->status = ls;
        snprintf(r->msg, sizeof r->msg, "load: %s", err.msg);
        return 1;
    }
    int nv = m->nv;
    r->nv = nv;
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_real* tau = calloc((size_t)nv + 1, sizeof(sn_real));
    sn_real* lim = calloc((size_t)nv + 1, sizeof(sn_real));
    sn_real* b = calloc((size_t)nv + 1, sizeof(sn_real));
    sn_real* pd = calloc((size_t)nv + 1, sizeof(sn_real));
    sn_real* act = calloc((size_t)nv + 1, sizeof(sn_real));
    sn_real* loop = calloc((size_t)nv + 1, sizeof(sn_real));
    sn_real* qprev = calloc((size_t)m->nq + 1, sizeof(sn_real));
    sn_real* m0 = calloc((size_t)nv * (size_t)nv + 1, sizeof(sn_real));
    int rc = 1;
    if (!tau || !lim || !b || !pd || !act || !loop || !qprev || !m0) goto done;
    sn_status st = sn_world_create(NULL, &w, NULL);
    if (st == SN_OK) st = sn_world_add_system(w, m, &s, NULL);
    // the file as it says, but its servos: a servo is a controller that does work (zero
    // torque means none); the torques are the random feedforward alone
    sn_setup_opts so;
    memset(&so, 0, sizeof so);
    so.no_servos = 1;
    if (st == SN_OK) st = sn_system_apply_file(s, &so, NULL);
    if (st != SN_OK) {
        r->status = st;
        snprintf(r->msg, sizeof r->msg, "set-up: %s", w ? sn_world_last_error(w) : "");
        goto done;
    }
    for (int v = 0; v < nv; v++) {
        double e = m->dof_effort_limit[v];
        lim[v] = free_dof(m, v) || !isfinite(e) || e <= 0 ? 0 : o->torque_scale * e;
        if (o->torque_cap > 0) lim[v] = fmin(lim[v], o->torque_cap);
        b[v] = free_dof(m, v) ? m->dof_damping[v] : fmax(m->dof_damping[v], o->damping);
    }
    if (o->damping > 0) sn_system_set_joint_damping(s, b, nv);
    if (o->gyroscopic) sn_system_set_gyroscopic(s, (sn_gyroscopic)o->gyroscopic);
    double dt = sn_world_timestep(w);
    unsigned long long seed = o->seed;
    int hold = o->hold > 0 ? o->hold : 10;
    double v_prev = sn_system_potential_energy(s);
    memcpy(qprev, sn_system_q(s), (size_t)m->nq * sizeof(sn_real));
    r->e0 = energy(s);
    double low = 0; // min over the steps since clear of E - W
    double dv_max = 0, dw_max = 0, dm_max = 0, wabs = 0;
    double scale = fabs(r->e0 - v_prev) + fabs(v_prev);
    r->rise = -INFINITY;
    r->ratio = -INFINITY;
    r->excess = -INFINITY;
    long rss_first = 0;
    rc = 0;
    for (long k = 0; k < o->steps; k++) {
        if (k % hold == 0)
            for (int v = 0; v < nv; v++)
                tau[v] = lim[v] * uniform(&seed);
        sn_system_set_generalized_force(s, tau, nv);
        const sn_real* mm = sn_system_mass_matrix(s); // M at the step's start
        if (mm) memcpy(m0, mm, (size_t)nv * (size_t)nv * sizeof(sn_real));
        st = sn_world_integrate(w);
        if (st != SN_OK) {
            r->status = st;
            r->fail_step = k;
            snprintf(r->msg, sizeof r->msg, "%s", sn_world_last_error(w));
            rc = 1;
            break;
        }
        r->steps = k + 1;
        if (k == 0) rss_first = rss_kb();
        if (r->clear < 0 && feasible(m, s, qprev)) r->clear = k;
        memcpy(qprev, sn_system_q(s), (size_t)m->nq * sizeof(sn_real));
        sn_system_step_torques(s, pd, NULL, act, NULL, NULL);
        sn_system_step_constraint_torques(s, NULL, NULL, loop);
        const sn_real* u = sn_system_u(s);
        double dw = 0, dl = 0;
        for (int v = 0; v < nv; v++) {
            dw += dt * (pd[v] + act[v]) * u[v];
            dl += dt * loop[v] * u[v];
        }
        // the tendons' forces (springs, dampers, actuators: an MJCF servo on a tendon is one)
        // as forces from outside, their work along the tendon's rate
        for (int t = 0; t < sn_system_tendon_count(s); t++) {
            sn_real f = 0, ldot = 0;
            if (sn_system_tendon_force(s, t, &f) == SN_OK &&
                sn_system_tendon_velocity(s, t, &ldot) == SN_OK)
                dw += dt * f * ldot;
        }
        r->work += dw;
        r->loop_work += dl;
        double e = energy(s), pot = sn_system_potential_energy(s);
        double ke = sn_system_kinetic_energy(s);
        if (!isfinite(e)) {
            r->status = SN_ERR_NONFINITE;
            r->fail_step = k;
            snprintf(r->msg, sizeof r->msg, "energy not finite");
            rc = 1;
            break;
        }
        r->ke_max = fmax(r->ke_max, ke);
        // the kinetic energy the configuration's change alone makes: 1/2 u+ (M+ - M) u+
        double t0 = 0;
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nv; j++)
                t0 += 0.5 * u[i] * m0[(size_t)i * nv + j] * u[j];
        dm_max = fmax(dm_max, fabs(ke - t0));
        dv_max = fmax(dv_max, fabs(pot - v_prev));
        dw_max = fmax(dw_max, fabs(dw));
        // rounding: of the energies' largest terms and of the work summed
        wabs += fabs(dw);
        scale = fmax(scale, ke + fabs(pot) + fabs(e - ke - pot) + wabs);
        r->bound = 2 * (dv_max + dw_max + dm_max) + 1e-9 * scale + 1e-12;
        double net = e - r->work - r->loop_work;
        if (r->clear < 0) {
            v_prev = pot;
            continue;
        }
        if (r->clear == k) low = net;
        double rise = net - low;
        r->rise = fmax(r->rise, rise);
        r->excess = fmax(r->excess, rise - r->bound);
        r->ratio = fmax(r->ratio, rise / r->bound);
        low = fmin(low, net);
        v_prev = pot;
    }
    r->rss_growth = rss_kb() - rss_first;
    if (r->excess > 0) rc = 1;
done:
    free(tau);
    free(lim);
    free(b);
    free(pd);
    free(act);
    free(loop);
    free(qprev);
    free(m0);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return rc;
}
