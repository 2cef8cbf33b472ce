// SPDX-License-Identifier: Apache-2.0
// id.c: inverse dynamics along a reference derived by inverse kinematics (id.h).
//
// The inverse kinematics: rows of hard tasks (CoM, feet, base orientation) J dq = e, solved
// with the posture in their null space: dq = dp + J^+ (e - J dp), dp = 0.5 (q_post - q) on the
// joints, J^+ = J^T (J J^T)^-1, until the tasks hold to 1e-12. All dense matrices are small
// (at most 18 task rows, 37 DOFs); Cholesky factorizations of our own.
#include "id.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV (6 + EXPO_MAX_JOINTS)
#define MAXQ (7 + EXPO_MAX_JOINTS)
#define MAXROW 24

struct expo_id {
    expo_controller base;
    sn_data* d; // the controller's own kinematics and dynamics
    int nq, nv;
    int ngrid;
    double h;               // grid step (s)
    double *qg, *vg, *ag;   // the reference on the grid (ngrid x nq, nv, nv)
    unsigned char* group_g; // contact groups active per sample: bit 0, bit 1 (ngrid)
    int npt;                // contact points
    int pt_body[EXPO_ID_MAX_CONTACTS];
    double pt_local[EXPO_ID_MAX_CONTACTS][3]; // in the body frame
    int pt_group[EXPO_ID_MAX_CONTACTS];
    double kp, kd;
    double ik_res;
    double f_last[3 * EXPO_ID_MAX_CONTACTS];
    int nf_last;
    double J[3 * EXPO_ID_MAX_CONTACTS * MAXV]; // scratch
};

// ---- small dense algebra ----

// Cholesky in place of an n x n SPD matrix (lower triangle); -1 when not positive definite
static int chol(double* A, int n) {
    for (int j = 0; j < n; j++) {
        double s = A[j * n + j];
        for (int k = 0; k < j; k++)
            s -= A[j * n + k] * A[j * n + k];
        if (!(s > 1e-300)) return -1;
        A[j * n + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = A[i * n + j];
            for (int k = 0; k < j; k++)
                t -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = t / A[j * n + j];
        }
    }
    return 0;
}

static void chol_solve(const double* L, int n, double* x) {
    for (int i = 0; i < n; i++) {
        double s = x[i];
        for (int k = 0; k < i; k++)
            s -= L[i * n + k] * x[k];
        x[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = x[i];
        for (int k = i + 1; k < n; k++)
            s -= L[k * n + i] * x[k];
        x[i] = s / L[i * n + i];
    }
}

// x = J^+ y = J^T (J J^T)^-1 y for J (m x n), m <= MAXROW; -1 when J J^T is singular
static int pinv_apply(const double* J, int m, int n, const double* y, double* x) {
    double A[MAXROW * MAXROW], z[MAXROW];
    for (int i = 0; i < m; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += J[i * n + k] * J[j * n + k];
            A[i * m + j] = A[j * m + i] = s;
        }
    if (chol(A, m) != 0) return -1;
    memcpy(z, y, (size_t)m * sizeof(double));
    chol_solve(A, m, z);
    for (int k = 0; k < n; k++) {
        double s = 0;
        for (int i = 0; i < m; i++)
            s += J[i * n + k] * z[i];
        x[k] = s;
    }
    return 0;
}

static void mat_mul_t(const double* A, const double* B, double* C) { // C = A B^T (3x3)
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[3 * i + j] =
                A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
}

// rotation vector (world) of A B^T
static void rot_err(const double* A, const double* B, double w[3]) {
    double C[9], zero[3] = {0, 0, 0}, nu[3];
    mat_mul_t(A, B, C);
    expo_log6(C, zero, nu, w);
}

static void quat_to_mat(const double* q, double R[9]) { // w x y z
    double a[4] = {q[1], q[2], q[3], q[0]};
    expo_quat_xyzw_to_mat(a, R);
}

// ---- the tasks of the inverse kinematics ----

typedef struct ik_tasks {
    double com[3];
    int nfoot;
    int foot_frame[4];
    double foot_pos[4][3];
    int foot_rot; // 1: the feet's orientations too
    double foot_R[4][9];
    int base_frame;
    double base_R[9];
    const double* posture; // sinew q (nq)
} ik_tasks;

// the CoM Jacobian (3 x nv) and the CoM, from the bodies' point Jacobians; d after sn_fk
static void com_jacobian(const sn_model* m, const sn_data* d, double* Jc, double* com,
                         double* scratch) {
    int nv = m->nv;
    memset(Jc, 0, (size_t)(3 * nv) * sizeof(double));
    double mt = sn_com(m, d, com);
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_mass[b] <= 0) continue;
        sn_point_jacobian(m, d, b, d->body_com + 3 * b, scratch, NULL);
        for (int i = 0; i < 3 * nv; i++)
            Jc[i] += m->body_mass[b] / mt * scratch[i];
    }
}

// rows and errors of the tasks at d's configuration (after sn_fk); returns the row count
static int ik_rows(const sn_model* m, const sn_data* d, const ik_tasks* t, double* J, double* e,
                   double* scratch) {
    int nv = m->nv, r = 0;
    double com[3];
    com_jacobian(m, d, J, com, scratch);
    for (int i = 0; i < 3; i++)
        e[i] = t->com[i] - com[i];
    r = 3;
    for (int f = 0; f < t->nfoot; f++) {
        double pos[3], R[9];
        sn_frame_pose(m, d, t->foot_frame[f], pos, R);
        sn_frame_jacobian(m, d, t->foot_frame[f], J + r * nv,
                          t->foot_rot ? J + (r + 3) * nv : NULL);
        for (int i = 0; i < 3; i++)
            e[r + i] = t->foot_pos[f][i] - pos[i];
        r += 3;
        if (t->foot_rot) {
            rot_err(t->foot_R[f], R, e + r);
            r += 3;
        }
    }
    double pos[3], R[9];
    sn_frame_pose(m, d, t->base_frame, pos, R);
    sn_frame_jacobian(m, d, t->base_frame, scratch, J + r * nv);
    rot_err(t->base_R, R, e + r);
    r += 3;
    return r;
}

static double maxabs(const double* x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s = fmax(s, fabs(x[i]));
    return s;
}

// solve the tasks from q (in place); the residual left, or -1 when singular
static double ik_solve(const sn_model* m, sn_data* d, const ik_tasks* t, double* q) {
    int nv = m->nv;
    double J[MAXROW * MAXV], e[MAXROW], dp[MAXV], dq[MAXV], y[MAXROW];
    double* scratch = malloc((size_t)(3 * nv) * sizeof(double));
    if (!scratch) return -1;
    double res = INFINITY;
    for (int it = 0; it < 60; it++) {
        if (sn_set_state(m, d, q, m->nq, NULL, 0) != SN_OK || sn_fk(m, d) != SN_OK) break;
        int nr = ik_rows(m, d, t, J, e, scratch);
        res = maxabs(e, nr);
        memset(dp, 0, sizeof dp);
        for (int j = 1; j < m->njoint; j++)
            dp[m->joint_vadr[j]] = 0.5 * (t->posture[m->joint_qadr[j]] - q[m->joint_qadr[j]]);
        for (int i = 0; i < nr; i++) {
            double s = 0;
            for (int k = 0; k < nv; k++)
                s += J[i * nv + k] * dp[k];
            y[i] = e[i] - s;
        }
        if (pinv_apply(J, nr, nv, y, dq) != 0) {
            res = -1;
            break;
        }
        for (int k = 0; k < nv; k++)
            dq[k] += dp[k];
        if (res < 1e-12 && maxabs(dq, nv) < 1e-10) break;
        sn_integrate_q(m, q, dq, 1.0, q);
    }
    free(scratch);
    return res;
}

// ---- building the controller ----

static int id_torque(expo_controller* c, double t, const double* q, const double* u, double* tau);

static void id_destroy(expo_controller* c) {
    expo_id* s = (expo_id*)c;
    sn_data_destroy(s->d);
    free(s->qg);
    free(s->vg);
    free(s->ag);
    free(s->group_g);
    free(s);
}

static expo_id* id_alloc(const expo_robot* r, int ngrid, double h, char* err) {
    expo_id* s = calloc(1, sizeof *s);
    if (!s) goto oom;
    s->base.torque = id_torque;
    s->base.destroy = id_destroy;
    s->base.robot = r;
    s->nq = r->nq, s->nv = r->nv, s->ngrid = ngrid, s->h = h;
    s->qg = malloc((size_t)ngrid * (size_t)r->nq * sizeof(double));
    s->vg = calloc((size_t)ngrid * (size_t)r->nv, sizeof(double));
    s->ag = calloc((size_t)ngrid * (size_t)r->nv, sizeof(double));
    s->group_g = calloc((size_t)ngrid, 1);
    if (!s->qg || !s->vg || !s->ag || !s->group_g ||
        sn_data_create(r->m, NULL, &s->d, NULL) != SN_OK)
        goto oom;
    return s;
oom:
    if (s) id_destroy(&s->base);
    snprintf(err, EXPO_ERR_LEN, "id: out of memory");
    return NULL;
}

// v_r and a_r by central differences of q_r and v_r on the grid (one-sided at the ends)
static void grid_derivatives(expo_id* s) {
    const sn_model* m = s->base.robot->m;
    int nq = s->nq, nv = s->nv, n = s->ngrid;
    for (int k = 0; k < n; k++) {
        int a = k > 0 ? k - 1 : k, b = k < n - 1 ? k + 1 : k;
        const double* qa = s->qg + (size_t)a * nq;
        const double* qb = s->qg + (size_t)b * nq;
        double* v = s->vg + (size_t)k * nv;
        double span = (b - a) * s->h;
        if (span <= 0) continue;
        for (int j = 0; j < m->njoint; j++) {
            int qa_ = m->joint_qadr[j], va = m->joint_vadr[j];
            if (m->joint_type[j] == SN_JOINT_FLOATING) {
                double Ra[9], Rb[9], w[3];
                for (int i = 0; i < 3; i++)
                    v[va + i] = (qb[qa_ + i] - qa[qa_ + i]) / span;
                quat_to_mat(qa + qa_ + 3, Ra);
                quat_to_mat(qb + qa_ + 3, Rb);
                rot_err(Rb, Ra, w);
                for (int i = 0; i < 3; i++)
                    v[va + 3 + i] = w[i] / span;
            } else {
                v[va] = (qb[qa_] - qa[qa_]) / span;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        int a = k > 0 ? k - 1 : k, b = k < n - 1 ? k + 1 : k;
        double span = (b - a) * s->h;
        if (span <= 0) continue;
        for (int i = 0; i < nv; i++)
            s->ag[(size_t)k * nv + i] =
                (s->vg[(size_t)b * nv + i] - s->vg[(size_t)a * nv + i]) / span;
    }
}

static int root_frame(const sn_model* m) {
    return m->ujoint_child[m->joint_ujoint[0]];
}

static int add_point(expo_id* s, int frame, const double p_link[3], int group) {
    const sn_model* m = s->base.robot->m;
    if (s->npt >= EXPO_ID_MAX_CONTACTS || frame < 0) return -1;
    int k = s->npt++;
    s->pt_body[k] = m->frame_body[frame];
    const double* R = m->frame_rot + 9 * frame;
    const double* p = m->frame_pos + 3 * frame;
    for (int i = 0; i < 3; i++)
        s->pt_local[k][i] =
            p[i] + R[3 * i] * p_link[0] + R[3 * i + 1] * p_link[1] + R[3 * i + 2] * p_link[2];
    s->pt_group[k] = group;
    return 0;
}

expo_id* expo_id_create_squat(const expo_robot* r, const double* q0_pin, double duration,
                              char err[EXPO_ERR_LEN]) {
    if (!r || !r->m || !q0_pin || !(duration > 0 && duration <= 600)) {
        snprintf(err, EXPO_ERR_LEN, "squat: bad arguments (duration in (0, 600] s)");
        return NULL;
    }
    const sn_model* m = r->m;
    const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
    const double h = 1e-3, amp = 0.03, w = 2.0;
    int n = (int)lround(duration / h) + 1;
    expo_id* s = id_alloc(r, n, h, err);
    if (!s) return NULL;
    s->kp = 2, s->kd = 2 * sqrt(2.0);
    double q[MAXQ], q0[MAXQ], v0[MAXV] = {0};
    expo_q_pin_to_sn(r, q0_pin, q0);
    memcpy(q, q0, (size_t)m->nq * sizeof(double));
    if (sn_set_state(m, s->d, q0, m->nq, v0, m->nv) != SN_OK || sn_fk(m, s->d) != SN_OK) {
        snprintf(err, EXPO_ERR_LEN, "squat: q0 refused: %s", "not finite or bad quaternion");
        id_destroy(&s->base);
        return NULL;
    }
    ik_tasks t;
    memset(&t, 0, sizeof t);
    double c0[3], R[9];
    sn_com(m, s->d, c0);
    t.nfoot = 4;
    for (int f = 0; f < 4; f++) {
        t.foot_frame[f] = sn_model_find(m, SN_OBJ_FRAME, feet[f]);
        if (t.foot_frame[f] < 0) {
            snprintf(err, EXPO_ERR_LEN, "squat: the robot has no frame %s", feet[f]);
            id_destroy(&s->base);
            return NULL;
        }
        sn_frame_pose(m, s->d, t.foot_frame[f], t.foot_pos[f], R);
        add_point(s, t.foot_frame[f], (double[]){0, 0, 0}, 0);
    }
    t.base_frame = root_frame(m);
    double pb[3];
    sn_frame_pose(m, s->d, t.base_frame, pb, t.base_R);
    t.posture = q0;
    for (int k = 0; k < n; k++) {
        double tk = k * h;
        for (int i = 0; i < 3; i++)
            t.com[i] = c0[i];
        t.com[2] += amp * sin(w * tk);
        double res = ik_solve(m, s->d, &t, q);
        if (res < 0 || res > 1e-9) {
            snprintf(err, EXPO_ERR_LEN,
                     "squat: the inverse kinematics fails at t = %.3f s "
                     "(residual %.3g)",
                     tk, res);
            id_destroy(&s->base);
            return NULL;
        }
        s->ik_res = fmax(s->ik_res, res);
        memcpy(s->qg + (size_t)k * m->nq, q, (size_t)m->nq * sizeof(double));
        s->group_g[k] = 1;
    }
    grid_derivatives(s);
    return s;
}

expo_id* expo_id_create_walk(const expo_robot* r, const char* npz_path, const double* q0_pin,
                             double t_post, char err[EXPO_ERR_LEN]) {
    if (!r || !r->m || !npz_path || !q0_pin || !(t_post >= 0 && t_post <= 60)) {
        snprintf(err, EXPO_ERR_LEN, "walk: bad arguments (t_post in [0, 60] s)");
        return NULL;
    }
    const sn_model* m = r->m;
    expo_npz z;
    if (expo_npz_open(npz_path, &z, err) != 0) return NULL;
    expo_array com, xr, xl, ph;
    memset(&com, 0, sizeof com), memset(&xr, 0, sizeof xr), memset(&xl, 0, sizeof xl);
    memset(&ph, 0, sizeof ph);
    long s3[2] = {3, -1};
    expo_id* s = NULL;
    if (expo_npz_get(&z, "com", &com, err) != 0 || expo_array_expect(&com, "com", 2, s3, err) ||
        expo_npz_get(&z, "x_RF", &xr, err) != 0 || expo_array_expect(&xr, "x_RF", 2, s3, err) ||
        expo_npz_get(&z, "x_LF", &xl, err) != 0 || expo_array_expect(&xl, "x_LF", 2, s3, err) ||
        expo_npz_get(&z, "contact_phase", &ph, err) != 0)
        goto done;
    long ns = com.shape[1];
    if (xr.shape[1] != ns || xl.shape[1] != ns || ph.ndim != 1 || ph.shape[0] != ns || !ph.str ||
        ns < 2) {
        snprintf(err, EXPO_ERR_LEN, "%.300s: com, x_RF, x_LF and contact_phase differ in length",
                 npz_path);
        goto done;
    }
    const double h = 0.002;
    int npost = (int)lround(t_post / h);
    s = id_alloc(r, (int)ns + npost, h, err);
    if (!s) goto done;
    s->kp = 10, s->kd = 2 * sqrt(10.0);
    double q[MAXQ], q0[MAXQ], R[9];
    expo_q_pin_to_sn(r, q0_pin, q0);
    memcpy(q, q0, (size_t)m->nq * sizeof(double));
    if (sn_set_state(m, s->d, q0, m->nq, NULL, 0) != SN_OK || sn_fk(m, s->d) != SN_OK) {
        snprintf(err, EXPO_ERR_LEN, "walk: q0 refused");
        goto fail;
    }
    ik_tasks t;
    memset(&t, 0, sizeof t);
    const char* ank[2] = {"RAnkleRoll", "LAnkleRoll"}; // data rows x_RF, x_LF
    t.nfoot = 2;
    t.foot_rot = 1;
    for (int f = 0; f < 2; f++) {
        int uj = sn_model_find(m, SN_OBJ_URDF_JOINT, ank[f]);
        if (uj < 0) {
            snprintf(err, EXPO_ERR_LEN, "walk: the robot has no joint %s", ank[f]);
            goto fail;
        }
        t.foot_frame[f] = m->ujoint_child[uj];
        double p[3];
        sn_frame_pose(m, s->d, t.foot_frame[f], p, t.foot_R[f]);
        for (int ix = 0; ix < 2; ix++)
            for (int iy = 0; iy < 2; iy++)
                add_point(s, t.foot_frame[f],
                          (double[]){ix ? 0.10 : -0.05, iy ? 0.05 : -0.05, -0.07}, f);
    }
    // the offset of the right ankle at q0 from the data's first sample
    double prf[3], off[3];
    sn_frame_pose(m, s->d, t.foot_frame[0], prf, R);
    for (int i = 0; i < 3; i++)
        off[i] = prf[i] - xr.data[i * ns];
    t.base_frame = root_frame(m);
    sn_frame_pose(m, s->d, t.base_frame, prf, t.base_R);
    t.posture = q0;
    for (int k = 0; k < s->ngrid; k++) {
        long j = k < ns ? k : ns - 1;
        for (int i = 0; i < 3; i++) {
            t.com[i] = com.data[i * ns + j] + off[i];
            t.foot_pos[0][i] = xr.data[i * ns + j] + off[i];
            t.foot_pos[1][i] = xl.data[i * ns + j] + off[i];
        }
        double res = ik_solve(m, s->d, &t, q);
        if (res < 0 || res > 1e-9) {
            snprintf(err, EXPO_ERR_LEN,
                     "walk: the inverse kinematics fails at t = %.3f s "
                     "(residual %.3g)",
                     k * h, res);
            goto fail;
        }
        s->ik_res = fmax(s->ik_res, res);
        memcpy(s->qg + (size_t)k * m->nq, q, (size_t)m->nq * sizeof(double));
        const char* p = ph.str + j * (ph.str_width + 1);
        if (k >= ns)
            s->group_g[k] = 3;
        else if (strcmp(p, "right") == 0)
            s->group_g[k] = 1;
        else if (strcmp(p, "left") == 0)
            s->group_g[k] = 2;
        else {
            snprintf(err, EXPO_ERR_LEN, "%.300s: contact_phase[%ld] is '%s'", npz_path, j, p);
            goto fail;
        }
    }
    grid_derivatives(s);
    goto done;
fail:
    id_destroy(&s->base);
    s = NULL;
done:
    expo_array_free(&com), expo_array_free(&xr), expo_array_free(&xl), expo_array_free(&ph);
    expo_npz_close(&z);
    return s;
}

expo_controller* expo_id_controller(expo_id* c) {
    return c ? &c->base : NULL;
}

double expo_id_ik_residual(const expo_id* c) {
    return c->ik_res;
}
double expo_id_duration(const expo_id* c) {
    return (c->ngrid - 1) * c->h;
}

int expo_id_last_forces(const expo_id* c, double* f) {
    if (f) memcpy(f, c->f_last, (size_t)(3 * c->nf_last) * sizeof(double));
    return c->nf_last;
}

// the grid sample at or below t and the time past it
static int grid_at(const expo_id* c, double t, double* dt) {
    double s = t / c->h;
    double k = floor(s + 1e-9);
    if (!(k >= 0)) k = 0;
    if (k > c->ngrid - 1) k = c->ngrid - 1;
    *dt = fmax(t - k * c->h, 0);
    if (k == c->ngrid - 1) *dt = 0; // held
    return (int)k;
}

int expo_id_reference(const expo_id* c, double t, double* q, double* v, double* a) {
    double dt;
    int k = grid_at(c, t, &dt);
    const sn_model* m = c->base.robot->m;
    int nv = c->nv;
    const double* qk = c->qg + (size_t)k * c->nq;
    const double* vk = c->vg + (size_t)k * nv;
    const double* ak = c->ag + (size_t)k * nv;
    const double* v1 = k + 1 < c->ngrid ? vk + nv : vk;
    const double* a1 = k + 1 < c->ngrid ? ak + nv : ak;
    double al = dt / c->h;
    if (q) {
        // q_k (+) dt v_k (+) dt^2/2 a_k: second order within the 1-2 ms grid step
        double du[MAXV];
        for (int i = 0; i < nv; i++)
            du[i] = vk[i] + 0.5 * dt * ak[i];
        sn_integrate_q(m, qk, du, dt, q);
    }
    if (v)
        for (int i = 0; i < nv; i++)
            v[i] = (1 - al) * vk[i] + al * v1[i];
    if (a)
        for (int i = 0; i < nv; i++)
            a[i] = (1 - al) * ak[i] + al * a1[i];
    int n = 0;
    for (int p = 0; p < c->npt; p++)
        if (c->group_g[k] >> c->pt_group[p] & 1) n++;
    return n;
}

static int id_torque(expo_controller* cc, double t, const double* q, const double* u, double* tau) {
    expo_id* c = (expo_id*)cc;
    const sn_model* m = cc->robot->m;
    int nv = c->nv;
    if (!isfinite(t)) {
        snprintf(cc->err, sizeof cc->err, "id: time %g is not finite", t);
        return -1;
    }
    double qr[MAXQ], vr[MAXV], ar[MAXV], acc[MAXV], b[MAXV];
    expo_id_reference(c, t, qr, vr, ar);
    double dt;
    int k = grid_at(c, t, &dt);
    // a* = a_r + kp (q_r (-) q) + kd (v_r - v)
    for (int j = 0; j < m->njoint; j++) {
        int qa = m->joint_qadr[j], va = m->joint_vadr[j];
        if (m->joint_type[j] == SN_JOINT_FLOATING) {
            double Rr[9], R[9], w[3];
            quat_to_mat(qr + qa + 3, Rr);
            quat_to_mat(q + qa + 3, R);
            rot_err(Rr, R, w);
            for (int i = 0; i < 3; i++) {
                acc[va + i] = c->kp * (qr[qa + i] - q[qa + i]);
                acc[va + 3 + i] = c->kp * w[i];
            }
        } else {
            acc[va] = c->kp * (qr[qa] - q[qa]);
        }
    }
    for (int i = 0; i < nv; i++)
        acc[i] += ar[i] + c->kd * (vr[i] - u[i]);
    if (sn_set_state(m, c->d, q, m->nq, u, nv) != SN_OK || sn_fk(m, c->d) != SN_OK ||
        sn_fk_vel(m, c->d) != SN_OK || sn_rnea(m, c->d, acc, b) != SN_OK) {
        snprintf(cc->err, sizeof cc->err, "id: the state is refused (not finite?)");
        return -1;
    }
    // the active contacts' Jacobians; the base rows J_base^T f = b_base by least norm
    int nc = 0;
    for (int p = 0; p < c->npt; p++) {
        if (!(c->group_g[k] >> c->pt_group[p] & 1)) continue;
        int body = c->pt_body[p];
        const double* R = c->d->body_rot + 9 * body;
        const double* o = c->d->body_pos + 3 * body;
        const double* l = c->pt_local[p];
        double x[3];
        for (int i = 0; i < 3; i++)
            x[i] = o[i] + R[3 * i] * l[0] + R[3 * i + 1] * l[1] + R[3 * i + 2] * l[2];
        sn_point_jacobian(m, c->d, body, x, c->J + (size_t)(3 * nc) * nv, NULL);
        nc++;
    }
    double A[6 * 3 * EXPO_ID_MAX_CONTACTS], f[3 * EXPO_ID_MAX_CONTACTS];
    for (int i = 0; i < 6; i++)
        for (int r = 0; r < 3 * nc; r++)
            A[i * 3 * nc + r] = c->J[(size_t)r * nv + i];
    c->nf_last = nc;
    if (nc > 0 && pinv_apply(A, 6, 3 * nc, b, f) != 0) {
        snprintf(cc->err, sizeof cc->err, "id: the contacts at t = %g do not span the base", t);
        return -1;
    }
    for (int i = 0; i < nv; i++) {
        double s = b[i];
        for (int r = 0; r < 3 * nc; r++)
            s -= c->J[(size_t)r * nv + i] * f[r];
        tau[i] = i < 6 ? 0 : s;
        if (!isfinite(tau[i])) {
            snprintf(cc->err, sizeof cc->err, "id: torque %d is not finite at t = %g", i, t);
            return -1;
        }
    }
    memcpy(c->f_last, f, (size_t)(3 * nc) * sizeof(double));
    return 0;
}
