// SPDX-License-Identifier: Apache-2.0
// solve.c: the inverse-kinematics solver (docs/ik.md): the targets' rows and errors, the loops'
// rows, the loops' null space and pseudo-inverse on the DOFs a step may move (one symmetric
// eigendecomposition of the rows' Gram matrix), the damped least-squares step in that null
// space, the joint limits' active set, the projection of each trial onto the loops, and the
// Levenberg-Marquardt acceptance with its adaptive damping.
#include "base/smath.h"
#include "ik/ik.h"
#include "loops/loops.h"
#include "math/dense.h"
#include "math/symeig.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

#define RANK_TOL 1e-12   // Gram eigenvalues below this share of the largest span the null space
#define BOUND_TOL 1e-12  // a coordinate this close to a limit is at it
#define LAMBDA_MIN 1e-12 // the damping never falls below this
#define LAMBDA_MAX 1e8   // and a step refused at this damping ends the solve
#define LOOP_STEPS 30    // Gauss-Newton steps of one projection onto the loops


// the system's kinematics at q (written into its data)
static void set_config(sni_ik* k, const sn_real* q) {
    sn_data* d = k->s->d;
    memcpy(d->q, q, (size_t)k->nq * sizeof(sn_real));
    sn_fk(k->s->m, d);
}


// the rotation vector of R (the angle times the unit axis; angle in [0, pi])
static void rot_log(const sn_real* R, sn_real* e) {
    sn_real v[3] = {(R[7] - R[5]) / 2, (R[2] - R[6]) / 2, (R[3] - R[1]) / 2};
    sn_real sn = v3_norm(v), cs = (R[0] + R[4] + R[8] - 1) / 2;
    sn_real th = atan2(sn, cs);
    if (cs > 0 || sn > 1e-6) {
        v3_scale(e, v, sn > 1e-300 ? th / sn : 1);
        return;
    }
    // near a half turn the skew part loses the axis: take it from R + R^T = 2 (a a^T (1 - c) + c I)
    sn_real c1 = 1 - cs, a[3];
    int i = 0;
    for (int j = 1; j < 3; j++)
        if (R[4 * j] > R[4 * i]) i = j;
    a[i] = sqrt(fmax((R[4 * i] - cs) / c1, 0));
    for (int j = 0; j < 3; j++)
        if (j != i) a[j] = (R[3 * i + j] + R[3 * j + i]) / (2 * c1 * a[i]);
    if (v3_dot(a, v) < 0) v3_scale(a, a, -1);
    v3_scale(e, a, th / v3_norm(a));
}


// target t's position error (p* - p) and rotation error log(R* R^T) at the current kinematics
static void target_error(sni_ik* k, const sn_ik_target* t, sn_real* ep, sn_real* er) {
    sn_real p[3], R[9], Re[9];
    sn_frame_pose(k->s->m, k->s->d, t->frame, p, R);
    v3_sub(ep, t->position, p);
    m3_mul_t(Re, t->rotation, R);
    rot_log(Re, er);
}


void sni_ik_errors(sni_ik* k, const sn_real* q, sn_real* errors) {
    set_config(k, q);
    for (int i = 0; i < k->ntarget; i++) {
        sn_real ep[3], er[3];
        target_error(k, k->tg + i, ep, er);
        errors[2 * i] = k->tg[i].mask & SN_IK_POSITION ? v3_norm(ep) : 0;
        errors[2 * i + 1] = k->tg[i].mask & SN_IK_ROTATION ? v3_norm(er) : 0;
    }
}


// the weighted task rows and errors at q; their weighted sum of squares
static sn_real task_rows(sni_ik* k, const sn_real* q) {
    const sn_model* m = k->s->m;
    int nv = k->nv, r = 0;
    sn_real ssq = 0;
    set_config(k, q);
    for (int i = 0; i < k->ntarget; i++) {
        const sn_ik_target* t = k->tg + i;
        sn_real ep[3], er[3];
        target_error(k, t, ep, er);
        sn_frame_jacobian(m, k->s->d, t->frame, k->jp, k->jr);
        for (int part = 0; part < 2; part++) {
            if (!(t->mask & (part ? SN_IK_ROTATION : SN_IK_POSITION))) continue;
            sn_real w = part ? t->rotation_weight : t->position_weight;
            if (w == 0) w = 1;
            const sn_real* J = part ? k->jr : k->jp;
            const sn_real* e = part ? er : ep;
            for (int a = 0; a < 3; a++, r++) {
                for (int v = 0; v < nv; v++)
                    k->Jt[(size_t)r * nv + v] = w * J[a * nv + v];
                k->et[r] = w * e[a];
                ssq += k->et[r] * k->et[r];
            }
        }
    }
    return ssq;
}


// the loops' rows (every named direction of every constraint, then the mimic joints) and errors
// at the current kinematics; the largest error
static sn_real loop_rows(sni_ik* k) {
    sn_system* s = k->s;
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    int nv = k->nv, r = 0;
    sn_real top = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        int type = m->constraint_type[c];
        sni_loops_error(s, c, p1, p2, R1, dp);
        int b1 = m->frame_body[m->constraint_frame1[c]];
        int b2 = m->frame_body[m->constraint_frame2[c]];
        if (type == SN_CONSTRAINT_ORIENTATION) { // d e / dt = w1 - w2
            sn_point_jacobian(m, d, b1, p1, NULL, k->jp);
            sn_point_jacobian(m, d, b2, p2, NULL, k->jp2);
        } else { // a pin at each body's anchor; an equality at body2's (exact for its axes)
            sn_point_jacobian(m, d, b1, type == SN_CONSTRAINT_PIN ? p1 : p2, k->jp, NULL);
            sn_point_jacobian(m, d, b2, p2, k->jp2, NULL);
        }
        int na = sni_loops_named_axes(m, c, R1, a);
        for (int i = 0; i < na; i++, r++) {
            sn_real* row = k->Jc + (size_t)r * nv;
            for (int v = 0; v < nv; v++) {
                sn_real x = 0;
                for (int j = 0; j < 3; j++)
                    x += a[i][j] * (k->jp[j * nv + v] - k->jp2[j * nv + v]);
                row[v] = x;
            }
            k->ec[r] = v3_dot(a[i], dp);
            top = fmax(top, fabs(k->ec[r]));
        }
    }
    for (int j = 0; j < m->njoint; j++) { // e = q_j - mult q_leader - offset
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        sn_real* row = k->Jc + (size_t)r * nv;
        sn_real mult = m->joint_mimic_multiplier[j];
        memset(row, 0, (size_t)nv * sizeof(sn_real));
        row[m->joint_vadr[j]] = 1;
        if (l != j) row[m->joint_vadr[l]] -= mult;
        k->ec[r] =
            d->q[m->joint_qadr[j]] - mult * d->q[m->joint_qadr[l]] - m->joint_mimic_offset[j];
        top = fmax(top, fabs(k->ec[r]));
        r++;
    }
    return top;
}


// is DOF v's coordinate at its lower (-1) or upper (+1) limit in q (0: neither, or no limit)
static int at_bound(const sni_ik* k, const sn_real* q, int v) {
    int i = k->dof_q[v];
    if (i < 0) return 0;
    const sn_model* m = k->s->m;
    if (q[i] <= m->dof_lower[v] + BOUND_TOL) return -1;
    if (q[i] >= m->dof_upper[v] - BOUND_TOL) return 1;
    return 0;
}


static void clamp_limits(const sni_ik* k, sn_real* q) {
    if (!k->limits) return;
    const sn_model* m = k->s->m;
    for (int v = 0; v < k->nv; v++) {
        int i = k->dof_q[v];
        if (i >= 0) q[i] = fmin(fmax(q[i], m->dof_lower[v]), m->dof_upper[v]);
    }
}


// the eigendecomposition of the loops' Gram matrix Jc_F^T Jc_F on the free set; the number of
// null directions (the first columns of V), or -1 on failure
static int loop_null(sni_ik* k) {
    int nf = k->nf, nv = k->nv;
    for (int a = 0; a < nf; a++)
        for (int b = 0; b <= a; b++) {
            sn_real x = 0;
            for (int r = 0; r < k->nc; r++)
                x += k->Jc[(size_t)r * nv + k->freeset[a]] * k->Jc[(size_t)r * nv + k->freeset[b]];
            k->G[a * nf + b] = k->G[b * nf + a] = x;
        }
    if (sni_symeig(nf, k->G, k->L, k->V, k->e) != SN_OK) return -1;
    sn_real thresh = RANK_TOL * fmax(k->L[nf - 1], 1e-300);
    int nn = 0;
    while (nn < nf && k->L[nn] <= thresh)
        nn++;
    return nn;
}


// the free set: DOFs neither fixed nor blocked (blocked may be NULL)
static void make_free(sni_ik* k, const unsigned char* blocked) {
    k->nf = 0;
    for (int v = 0; v < k->nv; v++)
        if (!k->fixed[v] && !(blocked && blocked[v])) k->freeset[k->nf++] = v;
}


// dx (nv) from dx on the free set (x, nf)
static void scatter(sni_ik* k, const sn_real* x) {
    memset(k->dx, 0, (size_t)k->nv * sizeof(sn_real));
    for (int a = 0; a < k->nf; a++)
        k->dx[k->freeset[a]] = x[a];
}


// project q onto the loops by minimum-norm Gauss-Newton steps on the free DOFs not at a limit;
// the loops' largest error at the result (kinematics left at q)
static sn_real close_loops(sni_ik* k, sn_real* q, unsigned char* blocked) {
    set_config(k, q);
    sn_real err = loop_rows(k);
    for (int it = 0; it < LOOP_STEPS && err > 0.01 * k->loop_tol; it++) {
        for (int v = 0; v < k->nv; v++)
            blocked[v] = k->limits && at_bound(k, q, v) != 0;
        make_free(k, blocked);
        if (k->nf == 0 || loop_null(k) < 0) break;
        int nf = k->nf, nv = k->nv;
        // x = -V_range diag(1/l) V_range^T Jc_F^T ec
        for (int a = 0; a < nf; a++) {
            sn_real g = 0;
            for (int r = 0; r < k->nc; r++)
                g += k->Jc[(size_t)r * nv + k->freeset[a]] * k->ec[r];
            k->e[a] = g;
        }
        memset(k->z, 0, (size_t)nf * sizeof(sn_real));
        sn_real thresh = RANK_TOL * fmax(k->L[nf - 1], 1e-300);
        for (int j = 0; j < nf; j++) {
            if (k->L[j] <= thresh) continue;
            sn_real c = 0;
            for (int a = 0; a < nf; a++)
                c += k->V[a * nf + j] * k->e[a];
            c /= k->L[j];
            for (int a = 0; a < nf; a++)
                k->z[a] -= c * k->V[a * nf + j];
        }
        scatter(k, k->z);
        sn_integrate_q(k->s->m, q, k->dx, 1, k->y);
        clamp_limits(k, k->y);
        set_config(k, k->y);
        sn_real next = loop_rows(k);
        if (!(next < err)) { // rounding: keep the last good one
            set_config(k, q);
            loop_rows(k);
            break;
        }
        memcpy(q, k->y, (size_t)k->nq * sizeof(sn_real));
        err = next;
    }
    return err;
}


// the damped least-squares step on the free set, in the loops' null space: x = N z with
// z = argmin |A z - et|^2 + lambda^2 |z|^2, A = Jt_F N; into k->dx. 0, or -1 when the
// damped matrix did not factor
static int task_step(sni_ik* k, sn_real lambda) {
    int nf = k->nf, nv = k->nv, nt = k->nt;
    int nk = nf; // the step's coordinates: the null space's (loops) or the free DOFs'
    int off = 0; // the null space's first column of V
    if (k->nc > 0) {
        int nn = loop_null(k);
        if (nn < 0) return -1;
        nk = nn;
    }
    if (nk == 0) {
        memset(k->dx, 0, (size_t)nv * sizeof(sn_real));
        return 0;
    }
    for (int r = 0; r < nt; r++) // A (nt x nk)
        for (int c = 0; c < nk; c++) {
            sn_real x = 0;
            if (k->nc > 0) {
                for (int a = 0; a < nf; a++)
                    x += k->Jt[(size_t)r * nv + k->freeset[a]] * k->V[a * nf + off + c];
            } else {
                x = k->Jt[(size_t)r * nv + k->freeset[c]];
            }
            k->A[(size_t)r * nk + c] = x;
        }
    sn_real l2 = lambda * lambda;
    if (nt <= nk) { // z = A^T (A A^T + l2 I)^-1 et
        for (int a = 0; a < nt; a++)
            for (int b = 0; b <= a; b++) {
                sn_real x = 0;
                for (int c = 0; c < nk; c++)
                    x += k->A[(size_t)a * nk + c] * k->A[(size_t)b * nk + c];
                k->H[a * nt + b] = k->H[b * nt + a] = x + (a == b ? l2 : 0);
            }
        if (sni_chol(k->H, nt, 0) != SN_OK) return -1;
        memcpy(k->y, k->et, (size_t)nt * sizeof(sn_real));
        sni_chol_solve1(k->H, nt, nt, k->y);
        for (int c = 0; c < nk; c++) {
            sn_real x = 0;
            for (int r = 0; r < nt; r++)
                x += k->A[(size_t)r * nk + c] * k->y[r];
            k->z[c] = x;
        }
    } else { // z = (A^T A + l2 I)^-1 A^T et
        for (int a = 0; a < nk; a++) {
            for (int b = 0; b <= a; b++) {
                sn_real x = 0;
                for (int r = 0; r < nt; r++)
                    x += k->A[(size_t)r * nk + a] * k->A[(size_t)r * nk + b];
                k->H[a * nk + b] = k->H[b * nk + a] = x + (a == b ? l2 : 0);
            }
            sn_real g = 0;
            for (int r = 0; r < nt; r++)
                g += k->A[(size_t)r * nk + a] * k->et[r];
            k->z[a] = g;
        }
        if (sni_chol(k->H, nk, 0) != SN_OK) return -1;
        sni_chol_solve1(k->H, nk, nk, k->z);
    }
    if (k->nc > 0) { // back to the free DOFs: x = N z
        for (int a = 0; a < nf; a++) {
            sn_real x = 0;
            for (int c = 0; c < nk; c++)
                x += k->V[a * nf + off + c] * k->z[c];
            k->y[a] = x;
        }
        scatter(k, k->y);
    } else {
        scatter(k, k->z);
    }
    return 0;
}


// the step at q with damping lambda, its limits' active set settled (a DOF at a limit that the
// step would push past it is taken out of the free set and the step solved again); 0 or -1
static int limited_step(sni_ik* k, const sn_real* q, sn_real lambda, unsigned char* blocked) {
    memset(blocked, 0, (size_t)k->nv);
    for (int pass = 0; pass <= k->nv; pass++) {
        make_free(k, blocked);
        if (task_step(k, lambda) != 0) return -1;
        if (!k->limits) return 0;
        int changed = 0;
        for (int v = 0; v < k->nv; v++) {
            int b = at_bound(k, q, v);
            if (!blocked[v] && b != 0 && b * k->dx[v] > 0) blocked[v] = 1, changed = 1;
        }
        if (!changed) return 0;
    }
    return 0;
}


static void fill_report(sni_ik* k, const sn_real* q, int it, sn_real lambda, sn_ik_report* r) {
    memset(r, 0, sizeof *r);
    r->iterations = it;
    r->damping = lambda;
    set_config(k, q);
    for (int i = 0; i < k->ntarget; i++) {
        sn_real ep[3], er[3];
        target_error(k, k->tg + i, ep, er);
        if (k->tg[i].mask & SN_IK_POSITION)
            r->position_error = fmax(r->position_error, v3_norm(ep));
        if (k->tg[i].mask & SN_IK_ROTATION)
            r->rotation_error = fmax(r->rotation_error, v3_norm(er));
    }
    r->loop_error = k->nc > 0 ? loop_rows(k) : 0;
    for (int v = 0; v < k->nv; v++)
        r->limited += k->limits && at_bound(k, q, v) != 0;
    r->converged =
        r->position_error <= k->tol && r->rotation_error <= k->tol && r->loop_error <= k->loop_tol;
}


sn_status sni_ik_solve(sni_ik* k, const sn_real* q0, sn_real* q_out, sn_ik_report* rep) {
    // the blocked flags live after the fixed flags (ik.c makes 2 nv bytes)
    unsigned char* blk = k->fixed + k->nv;
    sn_real* q = k->q;
    memcpy(q, q0, (size_t)k->nq * sizeof(sn_real));
    clamp_limits(k, q);
    if (k->nc > 0) close_loops(k, q, blk);
    sn_real r = task_rows(k, q);
    sn_real lambda = k->lambda0;
    int it = 0, slow = 0;
    sn_ik_report now;
    for (;;) {
        fill_report(k, q, it, lambda, &now);
        if (now.converged || it >= k->max_iter) break;
        r = task_rows(k, q);
        if (k->nc > 0) loop_rows(k);
        it++;
        if (limited_step(k, q, lambda, blk) != 0) { // not positive definite: damp more
            lambda *= 8;
            if (lambda > LAMBDA_MAX) break;
            continue;
        }
        sn_integrate_q(k->s->m, q, k->dx, 1, k->qtry);
        clamp_limits(k, k->qtry);
        // a trial the loops do not close on is refused like one that does not lower the error
        sn_real closed = k->nc > 0 ? close_loops(k, k->qtry, blk) : 0;
        sn_real rt = task_rows(k, k->qtry);
        if (rt < r && closed <= fmax(k->loop_tol, now.loop_error)) {
            slow = r - rt <= 1e-12 * r ? slow + 1 : 0;
            memcpy(q, k->qtry, (size_t)k->nq * sizeof(sn_real));
            r = rt;
            lambda = fmax(lambda / 3, LAMBDA_MIN);
            if (slow >= 8) break; // no more progress: a minimum of the error, not a zero
        } else {
            lambda *= 8;
            if (lambda > LAMBDA_MAX) break;
        }
    }
    fill_report(k, q, it, lambda, &now);
    memcpy(q_out, q, (size_t)k->nq * sizeof(sn_real));
    if (rep) *rep = now;
    return now.converged ? SN_OK : SN_ERR_UNREACHED;
}
