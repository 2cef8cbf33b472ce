// SPDX-License-Identifier: Apache-2.0
// soak_run.c: one model file stepped with random bounded torques, its energy balance measured.
//
// The energy E = kinetic + gravity + joint springs + tendon springs. The torques' work
// W = sum over the steps of dt (tau_cmd + tau_act) . u+ (sn_system_step_torques: the applied
// feedforward and actuator torques). Joint damping, friction, inelastic contacts and limits only
// take energy out, so E - W may not rise, except by the integrator's error. The integrator is
// first order (semi-implicit Euler: u+ from the forces at the step's start, q+ = q (+) dt u+);
// for a force F its energy is off by about (dt / 2) u . F (the shadow energy it keeps instead),
// so E - W can rise by up to twice that, dt |u . F|, the energy one step of the largest power
// moves. The bound B is that: the largest change of the potential energy in one step plus the
// largest work of the torques in one step (both seen so far), plus 1e-9 of the energies' scale
// for rounding, plus, with a ground, m g d0 for the deepest contact d0 of the first step (the
// position correction lifts a robot out of a start in the floor: energy the start held).
// The measure: rise = max over steps k > j of (E_k - W_k) - (E_j - W_j); excess = rise - B.
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
    return sn_system_kinetic_energy(s) + sn_system_potential_energy(s) +
           sn_system_spring_energy(s) + sn_system_tendon_spring_energy(s);
}

// the DOFs a floating or spherical joint moves get no damping and no torque (no effort limit)
static int free_dof(const sn_model* m, int v) {
    int t = m->joint_type[m->dof_joint[v]];
    return t == SN_JOINT_FLOATING;
}

int soak_run(const char* path, const soak_opts* o, soak_result* r) {
    memset(r, 0, sizeof *r);
    r->status = SN_OK;
    r->fail_step = -1;
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
    int rc = 1;
    if (!tau || !lim || !b || !pd || !act) goto done;
    sn_status st = sn_world_create(NULL, &w, NULL);
    if (st == SN_OK) st = sn_world_add_system(w, m, &s, NULL);
    if (st == SN_OK) st = sn_system_apply_file(s, NULL, NULL);
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
    double mass = 0;
    for (int k = 0; k < m->nbody; k++)
        mass += m->body_mass[k];
    sn_real g[3];
    sn_world_gravity(w, g);
    double gnorm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    double dt = sn_world_timestep(w);
    unsigned long long seed = o->seed;
    int hold = o->hold > 0 ? o->hold : 10;
    double e_prev = energy(s), v_prev = sn_system_potential_energy(s);
    r->e0 = e_prev;
    double low = e_prev; // min over the steps so far of E - W
    double dv_max = 0, dw_max = 0, allowance = 0, scale = fabs(e_prev);
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
        st = sn_world_integrate(w);
        if (st != SN_OK) {
            r->status = st;
            r->fail_step = k;
            snprintf(r->msg, sizeof r->msg, "%s", sn_world_last_error(w));
            rc = 1;
            break;
        }
        r->steps = k + 1;
        if (k == 0) {
            rss_first = rss_kb();
            double d0 = 0;
            for (int i = 0; i < sn_system_contact_count(s); i++) {
                sn_contact c;
                if (sn_system_contact(s, i, &c) == SN_OK) d0 = fmax(d0, c.depth);
            }
            allowance = mass * gnorm * d0;
        }
        sn_system_step_torques(s, pd, NULL, act, NULL, NULL);
        const sn_real* u = sn_system_u(s);
        double dw = 0;
        for (int v = 0; v < nv; v++)
            dw += dt * (pd[v] + act[v]) * u[v];
        r->work += dw;
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
        dv_max = fmax(dv_max, fabs(pot - v_prev));
        dw_max = fmax(dw_max, fabs(dw));
        scale = fmax(scale, fmax(fabs(e), ke));
        r->bound = dv_max + dw_max + 1e-9 * scale + allowance;
        double net = e - r->work, rise = net - low;
        r->rise = fmax(r->rise, rise);
        r->excess = fmax(r->excess, rise - r->bound);
        r->ratio = fmax(r->ratio, rise / r->bound);
        low = fmin(low, net);
        v_prev = pot;
        e_prev = e;
    }
    r->rss_growth = rss_kb() - rss_first;
    if (r->excess > 0) rc = 1;
done:
    free(tau);
    free(lim);
    free(b);
    free(pd);
    free(act);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return rc;
}
