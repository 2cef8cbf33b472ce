// SPDX-License-Identifier: Apache-2.0
// controller.c: the controller interface and the linear feedback of trot and jump
// (controller.h).
#include "controller.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int expo_controller_torque(expo_controller* c, double t, const double* q, const double* u,
                           double* tau) {
    if (!c || !q || !u || !tau) return -1;
    int r = c->torque(c, t, q, u, tau);
    if (r != 0) memset(tau, 0, (size_t)c->robot->nv * sizeof(double));
    return r;
}

void expo_controller_destroy(expo_controller* c) {
    if (c && c->destroy) c->destroy(c);
}

// ---- the linear feedback ----

static void feedback_destroy(expo_controller* c) {
    expo_feedback* f = (expo_feedback*)c;
    free(f->x_ref);
    free(f->u_ref);
    free(f->gain);
    free(f->work);
    free(f);
}

// k and the fraction a of the sample interval at time t
static int sample_at(const expo_feedback* f, double t, double* a) {
    double s = t / f->dt_ref;
    // a time that is a multiple of dt_ref up to rounding is that sample, not the one before
    double k = floor(s + 1e-9);
    if (!(k >= 0)) k = 0; // also NaN
    if (k > f->n - 1) {
        *a = 1;
        return f->n - 1;
    }
    *a = fmin(fmax(s - k, 0), 1);
    if (*a < 1e-9) *a = 0;
    return (int)k;
}

int expo_feedback_reference(const expo_feedback* f, double t, double* q_pin, double* v_pin) {
    double a;
    int k = sample_at(f, t, &a);
    const expo_robot* r = f->base.robot;
    const double* x0 = f->x_ref + (size_t)k * (size_t)f->nx;
    const double* x1 = x0 + f->nx;
    if (q_pin) expo_pin_interpolate(r->nj, x0, x1, a, q_pin);
    if (v_pin)
        for (int i = 0; i < r->nv; i++)
            v_pin[i] = a == 0 ? x0[r->nq + i] : (1 - a) * x0[r->nq + i] + a * x1[r->nq + i];
    return k;
}

int expo_feedback_dx(const expo_feedback* f, double t, const double* q_pin, const double* v_pin,
                     double* dx) {
    const expo_robot* r = f->base.robot;
    double* qr = f->work;
    double* vr = f->work + f->nx;
    int k = expo_feedback_reference(f, t, qr, vr);
    expo_pin_difference(r->nj, q_pin, qr, dx);
    for (int i = 0; i < r->nv; i++)
        dx[r->nv + i] = vr[i] - v_pin[i];
    return k;
}

static int feedback_torque(expo_controller* c, double t, const double* q, const double* u,
                           double* tau) {
    expo_feedback* f = (expo_feedback*)c;
    const expo_robot* r = c->robot;
    if (!isfinite(t)) {
        snprintf(c->err, sizeof c->err, "feedback: time %g is not finite", t);
        return -1;
    }
    double* qp = f->work + 2 * f->nx;
    double* vp = qp + r->nq;
    double* dx = f->work + 3 * f->nx;
    double tp[6 + EXPO_MAX_JOINTS];
    expo_q_sn_to_pin(r, q, qp);
    expo_v_sn_to_pin(r, q, u, vp);
    int k = expo_feedback_dx(f, t, qp, vp, dx);
    const double* K = f->gain + (size_t)k * (size_t)f->nu * (size_t)(f->nx - 1);
    memset(tp, 0, 6 * sizeof(double));
    for (int i = 0; i < f->nu; i++) {
        double s = f->u_ref[(size_t)k * (size_t)f->nu + (size_t)i];
        const double* row = K + (size_t)i * (size_t)(f->nx - 1);
        for (int j = 0; j < f->nx - 1; j++)
            s += row[j] * dx[j];
        tp[6 + i] = s;
    }
    for (int i = 0; i < r->nv; i++)
        if (!isfinite(tp[i])) {
            snprintf(c->err, sizeof c->err, "feedback: torque %d is not finite at t = %g", i, t);
            return -1;
        }
    expo_tau_pin_to_sn(r, qp, tp, tau);
    return 0;
}

static int load_expect(const char* path, expo_array* a, int ndim, const long* shape,
                       char err[EXPO_ERR_LEN]) {
    if (expo_npy_read(path, a, err) != 0) return -1;
    if (expo_array_expect(a, path, ndim, shape, err) != 0) {
        expo_array_free(a);
        return -1;
    }
    return 0;
}

expo_feedback* expo_feedback_create(const expo_robot* r, const char* refdir, const char* motion,
                                    double dt_ref, double z_shift, char err[EXPO_ERR_LEN]) {
    if (!r || !r->m || !refdir || !motion || !(dt_ref > 0) || !isfinite(z_shift)) {
        snprintf(err, EXPO_ERR_LEN,
                 "feedback: bad arguments (robot, directory, motion, dt_ref "
                 "> 0, finite z_shift)");
        return NULL;
    }
    char p[3][1024];
    snprintf(p[0], sizeof p[0], "%s/%s_reference_states.npy", refdir, motion);
    snprintf(p[1], sizeof p[1], "%s/%s_reference_controls.npy", refdir, motion);
    snprintf(p[2], sizeof p[2], "%s/%s_feedback.npy", refdir, motion);
    int nx = r->nq + r->nv, nu = r->nj;
    expo_array xs, us, ks;
    memset(&us, 0, sizeof us);
    memset(&ks, 0, sizeof ks);
    long sx[3] = {-1, nx, 1};
    if (load_expect(p[0], &xs, 3, sx, err) != 0) return NULL;
    long n = xs.shape[0] - 1;
    long su[3] = {n, nu, 1}, sk[3] = {n, nu, nx - 1};
    if (n < 1) {
        snprintf(err, EXPO_ERR_LEN, "%.300s: %ld states, at least 2 needed", p[0], n + 1);
        expo_array_free(&xs);
        return NULL;
    }
    if (load_expect(p[1], &us, 3, su, err) != 0 || load_expect(p[2], &ks, 3, sk, err) != 0) {
        expo_array_free(&xs);
        expo_array_free(&us);
        return NULL;
    }
    for (long i = 0; i < xs.size; i++)
        if (!isfinite(xs.data[i])) {
            snprintf(err, EXPO_ERR_LEN, "%.300s: entry %ld is not finite", p[0], i);
            goto fail;
        }
    for (long i = 0; i < us.size; i++)
        if (!isfinite(us.data[i])) {
            snprintf(err, EXPO_ERR_LEN, "%.300s: entry %ld is not finite", p[1], i);
            goto fail;
        }
    for (long i = 0; i < ks.size; i++)
        if (!isfinite(ks.data[i])) {
            snprintf(err, EXPO_ERR_LEN, "%.300s: entry %ld is not finite", p[2], i);
            goto fail;
        }
    for (long k = 0; k <= n; k++) {
        const double* qk = xs.data + k * nx + 3;
        double qn = sqrt(qk[0] * qk[0] + qk[1] * qk[1] + qk[2] * qk[2] + qk[3] * qk[3]);
        if (fabs(qn - 1) > 1e-6) {
            snprintf(err, EXPO_ERR_LEN, "%.300s: state %ld's quaternion has norm %.9g", p[0], k,
                     qn);
            goto fail;
        }
    }
    expo_feedback* f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, EXPO_ERR_LEN, "feedback: out of memory");
        goto fail;
    }
    f->work = calloc(4 * (size_t)nx, sizeof(double));
    if (!f->work) {
        free(f);
        snprintf(err, EXPO_ERR_LEN, "feedback: out of memory");
        goto fail;
    }
    f->base.torque = feedback_torque;
    f->base.destroy = feedback_destroy;
    f->base.robot = r;
    f->n = (int)n, f->nx = nx, f->nu = nu, f->dt_ref = dt_ref;
    f->x_ref = xs.data, f->u_ref = us.data, f->gain = ks.data;
    for (long k = 0; k <= n; k++)
        f->x_ref[k * nx + 2] += z_shift;
    return f;
fail:
    expo_array_free(&xs);
    expo_array_free(&us);
    expo_array_free(&ks);
    return NULL;
}
