// SPDX-License-Identifier: Apache-2.0
// experiments.c: a scenario in a soft world, its ground truth, the local error and the
// stability of a method (experiments.h).
#define _POSIX_C_SOURCE 200809L
#include "experiments.h"

#include "sinew/sn_soft.h"
#include "sinew/sn_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char* const g_names[EXPO_M_COUNT] = {
    "expo0", "expo1", "expo2", "expo3", "expo4", "expo", "euler", "rk4", "implicit_euler"};

const char* expo_method_name(expo_method m) {
    return m >= 0 && m < EXPO_M_COUNT ? g_names[m] : "?";
}

int expo_method_parse(const char* name) {
    for (int i = 0; name && i < EXPO_M_COUNT; i++)
        if (strcmp(name, g_names[i]) == 0) return i;
    return -1;
}

expo_method expo_method_truth(expo_method m) {
    return m <= EXPO_M_EXPO ? EXPO_M_EXPO : m;
}

int expo_i_gt(double dt) {
    return (int)floor(log2(dt / (1e-3 / 64)) + 1e-9);
}

int expo_n_gt(expo_method m, double dt) {
    return 1 << (expo_i_gt(dt) + (m == EXPO_M_EULER ? 3 : 0));
}

int expo_i_max(expo_method m, double dt) {
    return m == EXPO_M_EULER ? expo_i_gt(dt) : expo_i_gt(dt) - 3;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define FAIL(x, ...)                                                                               \
    do {                                                                                           \
        snprintf((x)->err, EXPO_ERR_LEN, __VA_ARGS__);                                             \
        return -1;                                                                                 \
    } while (0)

int expo_sim_open(expo_sim* x, const char* name, const char* shared_dir, const sn_soft_params* prm,
                  double dt, char err[EXPO_ERR_LEN]) {
    memset(x, 0, sizeof *x);
    // the points as spheres: the URDF's own collision elements dropped (a soft world does not
    // collide geometry; the soft points below are the contacts)
    if (expo_scenario_open(&x->sc, name, shared_dir, EXPO_COLLIDE_POINTS, err) != 0) return -1;
    expo_robot* r = &x->sc.robot;
    x->nq = r->nq;
    x->nv = r->nv;
    x->dt = dt > 0 ? dt : x->sc.dt;
    x->prm = prm ? *prm : sn_soft_params_default();
    for (int b = 0; b < r->m->nbody; b++)
        x->mass += r->m->body_mass[b];
    x->tau = calloc((size_t)x->nv, sizeof *x->tau);
    x->work = calloc(4 * (size_t)(x->nq + x->nv), sizeof *x->work);
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.timestep = x->dt;
    const char* what = "world";
    if (!x->tau || !x->work) goto fail;
    if (sn_world_create(&wo, &x->w, NULL) != SN_OK) goto fail;
    what = "set-up";
    if (sn_world_add_system(x->w, r->m, &x->s, NULL) != SN_OK ||
        sn_world_set_ground(x->w, 1, 0) != SN_OK ||
        sn_world_set_contact_model(x->w, SN_CONTACT_SOFT) != SN_OK ||
        sn_world_set_soft_params(x->w, &x->prm) != SN_OK)
        goto fail;
    double lo[6 + EXPO_MAX_JOINTS], hi[6 + EXPO_MAX_JOINTS];
    for (int i = 0; i < x->nv; i++)
        lo[i] = -INFINITY, hi[i] = INFINITY;
    if (sn_system_set_actuation_limits(x->s, lo, hi, x->nv) != SN_OK) goto fail;
    what = "soft points";
    for (int i = 0; i < x->sc.npoint; i++) {
        int f = sn_model_find(r->m, SN_OBJ_FRAME, x->sc.point[i].link);
        if (f < 0 || sn_system_add_soft_point_frame(x->s, f, x->sc.point[i].pos, NULL) != SN_OK)
            goto fail;
    }
    if (expo_sim_reset(x) != 0) {
        snprintf(err, EXPO_ERR_LEN, "%s", x->err);
        expo_sim_close(x);
        return -1;
    }
    return 0;
fail:
    snprintf(err, EXPO_ERR_LEN, "%s: soft world %s failed: %s", name, what,
             x->w ? sn_world_last_error(x->w) : "no memory");
    expo_sim_close(x);
    return -1;
}

void expo_sim_close(expo_sim* x) {
    if (!x) return;
    sn_world_destroy(x->w);
    expo_scenario_close(&x->sc);
    free(x->tau);
    free(x->work);
    memset(x, 0, sizeof *x);
}

int expo_sim_reset(expo_sim* x) {
    double* q = x->work;
    double* u = q + x->nq;
    expo_scenario_reference(&x->sc, 0, q, u);
    if (sn_system_set_state(x->s, q, x->nq, u, x->nv) != SN_OK)
        FAIL(x, "initial state refused: %s", sn_world_last_error(x->w));
    return 0;
}

int expo_sim_configure(expo_sim* x, expo_method m, int n) {
    static const sn_soft_integrator integ[EXPO_M_COUNT] = {
        SN_SOFT_EXPO, SN_SOFT_EXPO,  SN_SOFT_EXPO, SN_SOFT_EXPO,          SN_SOFT_EXPO,
        SN_SOFT_EXPO, SN_SOFT_EULER, SN_SOFT_RK4,  SN_SOFT_IMPLICIT_EULER};
    if (m < 0 || m >= EXPO_M_COUNT) FAIL(x, "unknown method %d", (int)m);
    int max_mul = m <= EXPO_M_EXPO4 ? (int)m : -1;
    if (sn_system_set_soft_integrator(x->s, integ[m], n) != SN_OK ||
        sn_system_set_expo_options(x->s, max_mul, 1, 0) != SN_OK)
        FAIL(x, "%s x %d: %s", expo_method_name(m), n, sn_world_last_error(x->w));
    return 0;
}

int expo_sim_step(expo_sim* x, int k) {
    const double t = k * x->dt;
    if (expo_controller_torque(x->sc.ctl, t, sn_system_q(x->s), sn_system_u(x->s), x->tau) != 0)
        FAIL(x, "controller at t %.4f: %.400s", t, x->sc.ctl->err);
    if (sn_system_set_generalized_force(x->s, x->tau, x->nv) != SN_OK ||
        sn_world_integrate(x->w) != SN_OK)
        FAIL(x, "step %d (t %.4f) failed: %s", k, t, sn_world_last_error(x->w));
    return 0;
}

double expo_sim_speed(const expo_sim* x) {
    const double* u = sn_system_u(x->s);
    double vmax = 0;
    for (int i = 0; i < x->nv; i++) {
        if (!isfinite(u[i])) return INFINITY;
        vmax = fmax(vmax, fabs(u[i]));
    }
    return vmax;
}

static int keep(expo_sim* x, expo_truth* gt, int k) {
    size_t len = 0;
    if (sn_world_checkpoint_size(x->w, &len) != SN_OK) FAIL(x, "%s", sn_world_last_error(x->w));
    gt->cp[k] = malloc(len);
    if (!gt->cp[k]) FAIL(x, "no memory for checkpoint %d (%zu bytes)", k, len);
    if (sn_world_save_state(x->w, gt->cp[k], len, &gt->cp_len[k]) != SN_OK)
        FAIL(x, "checkpoint %d: %s", k, sn_world_last_error(x->w));
    memcpy(gt->q + (size_t)k * x->nq, sn_system_q(x->s), (size_t)x->nq * sizeof(double));
    memcpy(gt->u + (size_t)k * x->nv, sn_system_u(x->s), (size_t)x->nv * sizeof(double));
    return 0;
}

void expo_truth_free(expo_truth* gt) {
    if (!gt) return;
    if (gt->cp)
        for (int k = 0; k <= gt->nsteps; k++)
            free(gt->cp[k]);
    free(gt->cp);
    free(gt->cp_len);
    free(gt->q);
    free(gt->u);
    memset(gt, 0, sizeof *gt);
}

int expo_truth_run(expo_sim* x, expo_method m, int nsteps, expo_truth* gt) {
    memset(gt, 0, sizeof *gt);
    gt->method = expo_method_truth(m);
    gt->n = expo_n_gt(gt->method, x->dt);
    size_t n1 = (size_t)nsteps + 1;
    gt->cp = calloc(n1, sizeof *gt->cp);
    gt->cp_len = calloc(n1, sizeof *gt->cp_len);
    gt->q = calloc(n1 * (size_t)x->nq, sizeof *gt->q);
    gt->u = calloc(n1 * (size_t)x->nv, sizeof *gt->u);
    if (!gt->cp || !gt->cp_len || !gt->q || !gt->u) {
        expo_truth_free(gt);
        FAIL(x, "no memory for a ground truth of %d steps", nsteps);
    }
    double t0 = now();
    if (expo_sim_configure(x, gt->method, gt->n) != 0 || expo_sim_reset(x) != 0 ||
        keep(x, gt, 0) != 0) {
        expo_truth_free(gt);
        return -1;
    }
    for (int k = 0; k < nsteps; k++) {
        if (expo_sim_step(x, k) != 0 || !(expo_sim_speed(x) <= 1e5)) {
            gt->failed = 1;
            break;
        }
        gt->nsteps = k + 1;
        if (keep(x, gt, k + 1) != 0) {
            expo_truth_free(gt);
            return -1;
        }
    }
    gt->seconds = now() - t0;
    return 0;
}

// e = [difference(q, q_gt), u - u_gt] in Pinocchio's coordinates; its inf- and 2-norm
static void local_err(expo_sim* x, const double* q, const double* u, const double* qg,
                      const double* ug, double* einf, double* e2) {
    const expo_robot* r = &x->sc.robot;
    double* qp = x->work;
    double* qgp = qp + x->nq;
    double* e = qgp + x->nq;
    double* vp = e + x->nv;
    expo_q_sn_to_pin(r, q, qp);
    expo_q_sn_to_pin(r, qg, qgp);
    expo_pin_difference(r->nj, qp, qgp, e);
    double ni = 0, n2 = 0;
    for (int i = 0; i < x->nv; i++)
        ni = fmax(ni, fabs(e[i])), n2 += e[i] * e[i];
    expo_v_sn_to_pin(r, q, u, vp);
    expo_v_sn_to_pin(r, qg, ug, e);
    for (int i = 0; i < x->nv; i++) {
        double d = vp[i] - e[i];
        ni = fmax(ni, fabs(d));
        n2 += d * d;
    }
    *einf = ni;
    *e2 = sqrt(n2);
}

int expo_local_error(expo_sim* x, const expo_truth* gt, expo_method m, int n, expo_local* out) {
    memset(out, 0, sizeof *out);
    if (expo_method_truth(m) != gt->method)
        FAIL(x, "%s is not %s's ground truth", expo_method_name(gt->method), expo_method_name(m));
    double sinf = 0, s2 = 0, tstep = 0;
    for (int k = 0; k < gt->nsteps; k++) {
        // the checkpoint's settings are the ground truth's: set them, load, then the method's
        if (expo_sim_configure(x, gt->method, gt->n) != 0) return -1;
        if (sn_world_load_state(x->w, gt->cp[k], gt->cp_len[k]) != SN_OK)
            FAIL(x, "checkpoint %d refused: %s", k, sn_world_last_error(x->w));
        if (expo_sim_configure(x, m, n) != 0) return -1;
        const double t = k * x->dt;
        if (expo_controller_torque(x->sc.ctl, t, sn_system_q(x->s), sn_system_u(x->s), x->tau) != 0)
            FAIL(x, "controller at t %.4f: %.400s", t, x->sc.ctl->err);
        if (sn_system_set_generalized_force(x->s, x->tau, x->nv) != SN_OK)
            FAIL(x, "%s", sn_world_last_error(x->w));
        double t0 = now();
        sn_status st = sn_world_integrate(x->w);
        tstep += now() - t0;
        if (st != SN_OK || !(expo_sim_speed(x) <= 1e5)) {
            out->nfail++;
            continue;
        }
        double ei, e2;
        local_err(x, sn_system_q(x->s), sn_system_u(x->s), gt->q + (size_t)(k + 1) * x->nq,
                  gt->u + (size_t)(k + 1) * x->nv, &ei, &e2);
        sinf += ei;
        s2 += e2;
        out->nsteps++;
    }
    int ok = out->nsteps;
    out->err_inf = ok ? sinf / ok : (double)NAN;
    out->err_2 = ok ? s2 / ok : (double)NAN;
    out->t_substep = gt->nsteps ? tstep / ((double)gt->nsteps * n) : (double)NAN;
    out->rtf = x->dt / (n * out->t_substep);
    return 0;
}

int expo_stability(expo_sim* x, expo_method m, int n, int nsteps) {
    if (expo_sim_configure(x, m, n) != 0 || expo_sim_reset(x) != 0) return -1;
    for (int k = 0; k < nsteps; k++)
        if (expo_sim_step(x, k) != 0 || !(expo_sim_speed(x) <= 1e5)) return k;
    return nsteps;
}
