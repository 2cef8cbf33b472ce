// SPDX-License-Identifier: Apache-2.0
// loopid.c: inverse and forward dynamics of closed loops at the acceleration level (sn_loopid.h,
// docs/loopid.md): the loops' rows J at q and their velocity product Jdot u (a central difference
// of J along u), the dependent DOFs' accelerations from the independent ones, the actuation's
// minimum-norm torques on the complement of the loops' forces, the constraint forces, and the
// KKT forward solve; every solve by pivoted-QR least squares (math/lsq.c).
#include "base/base.h"
#include "base/smath.h"
#include "loops/loops.h"
#include "math/lsq.h"
#include "sim/sim.h"
#include "sinew/sn_loopid.h"

#include <math.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)
#define RANK_TOL 1e-10 // pivots below this part of the largest are zero
#define MET_TOL 1e-9   // residuals within this part of their scale are met

typedef struct lid {
    sn_system* s;
    int nv, nq, nr, nk;  // DOFs, coordinates, rows, nv + nr
    sn_real *J, *Jt;     // the rows at q, and at a shifted q (nr x nv)
    sn_real* jdu;        // Jdot u (nr)
    sn_real *M, *h;      // the mass matrix (nv x nv) and the nonlinear force (nv)
    sn_real *q0, *qt;    // the system's q, and a shifted one (nq)
    sn_real *jp, *jp2;   // a point's Jacobians (3 x nv)
    int na, nb;          // the actuation's most columns max(nv, actuators); max(nk, na)
    sn_real *A, *b, *x;  // a least-squares problem (nb x nb, nb, nb)
    sn_real* Q;          // a basis of J^T's columns (nv x nv)
    sn_real* B;          // the actuation's columns: the generalized force per unit (nv x na)
    sn_real* t;          // the actuation's amounts (na)
    sn_real* tau;        // the generalized force they make (nv)
    sn_real *udot, *rhs; // (nv each)
    sn_real* work;       // sni_lsq_work(nb, nb)
    int* iwork;          // 2 nb, the solves'
    int *act, *dep;      // the actuated and the dependent DOFs (na, nv)
    unsigned char* flag; // per DOF (nv)
    void* block;
    size_t bytes;
} lid;

int sn_system_loop_row_count(const sn_system* s) {
    SNI_REFUSE_NULL(s, SN_NONE);
    const sn_model* m = s->m;
    int n = 0;
    for (int c = 0; c < m->nconstraint; c++)
        n += m->constraint_type[c] == SN_CONSTRAINT_EQUALITY ? m->constraint_naxis[c] : 3;
    for (int j = 0; j < m->njoint; j++)
        n += m->joint_mimic[j] >= 0 && m->joint_nv[j] == 1;
    return n;
}

static sn_status lid_open(lid* k, sn_system* s) {
    memset(k, 0, sizeof *k);
    k->s = s;
    k->nv = s->m->nv;
    k->nq = s->m->nq;
    k->nr = sn_system_loop_row_count(s);
    k->nk = k->nv + k->nr;
    k->na = s->act.n > k->nv ? s->act.n : k->nv;
    k->nb = k->na > k->nk ? k->na : k->nk;
    size_t nv = (size_t)k->nv, nr = (size_t)k->nr, nq = (size_t)k->nq;
    size_t na = (size_t)k->na, nb = (size_t)k->nb;
    size_t nw = sni_lsq_work(k->nb, k->nb);
    size_t nreal = 2 * nr * nv + nr + nv * nv + nv + 2 * nq + 6 * nv + nb * nb + 2 * nb + nv * nv +
                   nv * na + na + 3 * nv + nw;
    k->bytes = nreal * sizeof(sn_real) + (2 * nb + na + nv) * sizeof(int) + nv + 16;
    k->block = sni_alloc(&s->world->alloc, k->bytes);
    if (!k->block) return SN_ERR_NOMEM;
    sn_real* p = (sn_real*)k->block;
    k->J = p, p += nr * nv;
    k->Jt = p, p += nr * nv;
    k->jdu = p, p += nr;
    k->M = p, p += nv * nv;
    k->h = p, p += nv;
    k->q0 = p, p += nq;
    k->qt = p, p += nq;
    k->jp = p, p += 3 * nv;
    k->jp2 = p, p += 3 * nv;
    k->A = p, p += nb * nb;
    k->b = p, p += nb;
    k->x = p, p += nb;
    k->Q = p, p += nv * nv;
    k->B = p, p += nv * na;
    k->t = p, p += na;
    k->tau = p, p += nv;
    k->udot = p, p += nv;
    k->rhs = p, p += nv;
    k->work = p, p += nw;
    k->iwork = (int*)p;
    k->act = k->iwork + 2 * nb;
    k->dep = k->act + na;
    k->flag = (unsigned char*)(k->dep + nv);
    return SN_OK;
}


static void lid_close(lid* k) {
    if (k->block) sni_free(&k->s->world->alloc, k->block, k->bytes);
    k->block = NULL;
}

// the loops' rows at the current kinematics into J (nr x nv), as the step has them: each
// constraint's named directions less those its joints or the constraints before it already hold
// (found at attachment, sn_system_constraint_directions; a near-planar loop's out-of-plane one
// too), zero rows in the places of those dropped; a pin's at each body's anchor, an equality's at
// body2's (exact for its axes), an orientation's w1 - w2, then the mimic joints
static void loop_rows(lid* k, sn_real* J) {
    sn_system* s = k->s;
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    int nv = k->nv, r = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3];
        int type = m->constraint_type[c];
        sni_loops_anchors(s, c, p1, p2, R1);
        int b1 = m->frame_body[m->constraint_frame1[c]];
        int b2 = m->frame_body[m->constraint_frame2[c]];
        if (type == SN_CONSTRAINT_ORIENTATION) {
            sn_point_jacobian(m, d, b1, p1, NULL, k->jp);
            sn_point_jacobian(m, d, b2, p2, NULL, k->jp2);
        } else {
            sn_point_jacobian(m, d, b1, type == SN_CONSTRAINT_PIN ? p1 : p2, k->jp, NULL);
            sn_point_jacobian(m, d, b2, p2, k->jp2, NULL);
        }
        // a constraint that keeps every direction it names has its named rows (a pin's world
        // axes); the others the directions kept, then zero rows
        int named = sni_loops_named_axes(m, c, R1, a);
        int na = s->loops.naxis[c] < named ? sni_loops_kept_axes(s, c, R1, a) : named;
        for (int i = 0; i < named; i++, r++) {
            sn_real* row = J + (size_t)r * nv;
            if (i >= na) {
                memset(row, 0, (size_t)nv * sizeof(sn_real));
                continue;
            }
            for (int v = 0; v < nv; v++) {
                sn_real x = 0;
                for (int j = 0; j < 3; j++)
                    x += a[i][j] * (k->jp[j * nv + v] - k->jp2[j * nv + v]);
                row[v] = x;
            }
        }
    }
    for (int j = 0; j < m->njoint; j++) {
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        sn_real* row = J + (size_t)r * nv;
        memset(row, 0, (size_t)nv * sizeof(sn_real));
        row[m->joint_vadr[j]] = 1;
        if (l != j) row[m->joint_vadr[l]] -= m->joint_mimic_multiplier[j];
        r++;
    }
}

// J at q, M, h, and Jdot u = d/de [J(q (+) e u) u] at e = 0 by a central difference (step e
// |u|_inf = 1e-5; the rows are smooth in q); the system's q and kinematics are put back
static void lid_state(lid* k) {
    sn_system* s = k->s;
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = k->nv, nr = k->nr;
    memcpy(k->M, sn_system_mass_matrix(s), (size_t)nv * nv * sizeof(sn_real));
    memcpy(k->h, sn_system_nonlinear(s), (size_t)nv * sizeof(sn_real));
    unsigned valid = s->valid;
    memcpy(k->q0, d->q, (size_t)k->nq * sizeof(sn_real));
    sn_fk(m, d);
    loop_rows(k, k->J);
    sn_real umax = 0;
    for (int v = 0; v < nv; v++)
        umax = fmax(umax, fabs(d->u[v]));
    memset(k->jdu, 0, (size_t)nr * sizeof(sn_real));
    if (umax > 0 && nr > 0) {
        sn_real eps = 1e-5 / umax;
        for (int side = -1; side <= 1; side += 2) {
            sn_integrate_q(m, k->q0, d->u, side * eps, d->q);
            sn_fk(m, d);
            loop_rows(k, k->Jt);
            for (int r = 0; r < nr; r++) {
                sn_real x = 0;
                for (int v = 0; v < nv; v++)
                    x += k->Jt[(size_t)r * nv + v] * d->u[v];
                k->jdu[r] += side * x / (2 * eps);
            }
        }
    }
    memcpy(d->q, k->q0, (size_t)k->nq * sizeof(sn_real));
    sn_fk(m, d);
    if (valid & SNI_VALID_KIN) sn_fk_vel(m, d);
    s->valid = valid;
}

static sn_real norm_n(const sn_real* x, int n) {
    sn_real s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

static sn_status check_dofs(sn_system* s, const char* call, const char* arg, const int* dofs, int n,
                            unsigned char* seen) {
    int nv = s->m->nv;
    if (n < 0 || n > nv)
        return SET_ERR(s->world, SN_ERR_ARG, "%s: %s has %d entries (0 to nv = %d): %s", call, arg,
                       n, nv, arg[0] == 'i' ? "n_ind" : "n_act");
    memset(seen, 0, (size_t)nv);
    for (int i = 0; i < n; i++) {
        if (dofs[i] < 0 || dofs[i] >= nv)
            return SET_ERR(s->world, SN_ERR_ARG, "%s: %s[%d] = %d is not a DOF (0 to %d)", call,
                           arg, i, dofs[i], nv - 1);
        if (seen[dofs[i]])
            return SET_ERR(s->world, SN_ERR_ARG, "%s: %s[%d] = %d is repeated", call, arg, i,
                           dofs[i]);
        seen[dofs[i]] = 1;
    }
    return SN_OK;
}

// the default actuation: every DOF of every joint but floating ones, into dofs; their number
static int default_act(const sn_model* m, int* dofs) {
    int n = 0;
    for (int v = 0; v < m->nv; v++)
        if (m->joint_type[m->dof_joint[v]] != SN_JOINT_FLOATING) dofs[n++] = v;
    return n;
}

// the dependent DOFs' accelerations into k->udot: J_dep x = -Jdot u - J_ind udot_ind (least
// squares); the rank of J_dep, the dependent DOFs' number in *ndep_out
static int dependent_accels(lid* k, const int* ind, int n_ind, const sn_real* udot_ind,
                            int* ndep_out) {
    int nv = k->nv, nr = k->nr;
    unsigned char* isind = k->flag;
    memset(isind, 0, (size_t)nv);
    for (int i = 0; i < n_ind; i++)
        isind[ind[i]] = 1;
    memset(k->udot, 0, (size_t)nv * sizeof(sn_real));
    for (int i = 0; i < n_ind; i++)
        k->udot[ind[i]] = udot_ind[i];
    int ndep = 0, *dep = k->dep;
    for (int v = 0; v < nv; v++)
        if (!isind[v]) dep[ndep++] = v;
    *ndep_out = ndep;
    if (ndep == 0 || nr == 0) return 0;
    for (int r = 0; r < nr; r++) {
        sn_real x = -k->jdu[r];
        for (int i = 0; i < n_ind; i++)
            x -= k->J[(size_t)r * nv + ind[i]] * udot_ind[i];
        k->b[r] = x;
        for (int a = 0; a < ndep; a++)
            k->A[(size_t)r * ndep + a] = k->J[(size_t)r * nv + dep[a]];
    }
    int rank = sni_lsq_solve(k->A, nr, ndep, k->b, k->x, RANK_TOL, NULL, k->work, k->iwork);
    for (int a = 0; a < ndep; a++)
        k->udot[dep[a]] = k->x[a];
    return rank;
}

// |J udot + Jdot u|
static sn_real accel_residual(const lid* k) {
    sn_real res = 0;
    for (int r = 0; r < k->nr; r++) {
        sn_real x = k->jdu[r];
        for (int v = 0; v < k->nv; v++)
            x += k->J[(size_t)r * k->nv + v] * k->udot[v];
        res += x * x;
    }
    return sqrt(res);
}

// rhs = M udot + h, and Q an orthonormal basis of J^T's columns (the loops' generalized
// forces); its rank
static int loop_forces_basis(lid* k) {
    int nv = k->nv, nr = k->nr;
    for (int i = 0; i < nv; i++) {
        sn_real x = k->h[i];
        for (int j = 0; j < nv; j++)
            x += k->M[(size_t)i * nv + j] * k->udot[j];
        k->rhs[i] = x;
    }
    if (nr == 0) return 0;
    for (int v = 0; v < nv; v++)
        for (int r = 0; r < nr; r++)
            k->A[(size_t)v * nr + r] = k->J[(size_t)r * nv + v];
    return sni_lsq_range(k->A, nv, nr, RANK_TOL, k->Q, k->work, k->iwork);
}

// the actuation t (n columns of B) of least norm over the minimizers of |P (B t - rhs)|,
// P = I - Q Q^T (the part the loops cannot bear); tau = B t; the actuation's rank
static int solve_actuation(lid* k, int rank, int n, sn_real* t, sn_real* tau) {
    int nv = k->nv;
    const sn_real *Q = k->Q, *B = k->B;
    for (int c = 0; c < rank; c++) { // x = Q^T rhs, b = P rhs
        sn_real x = 0;
        for (int i = 0; i < nv; i++)
            x += Q[(size_t)i * nv + c] * k->rhs[i];
        k->x[c] = x;
    }
    for (int i = 0; i < nv; i++) {
        sn_real x = k->rhs[i];
        for (int c = 0; c < rank; c++)
            x -= Q[(size_t)i * nv + c] * k->x[c];
        k->b[i] = x;
    }
    for (int a = 0; a < n; a++) { // A = P B, a column at a time (x = Q^T B_a)
        for (int c = 0; c < rank; c++) {
            sn_real x = 0;
            for (int i = 0; i < nv; i++)
                x += Q[(size_t)i * nv + c] * B[(size_t)i * n + a];
            k->x[c] = x;
        }
        for (int i = 0; i < nv; i++) {
            sn_real x = B[(size_t)i * n + a];
            for (int c = 0; c < rank; c++)
                x -= Q[(size_t)i * nv + c] * k->x[c];
            k->A[(size_t)i * n + a] = x;
        }
    }
    int act_rank = 0;
    memset(t, 0, (size_t)n * sizeof(sn_real));
    if (n > 0) act_rank = sni_lsq_solve(k->A, nv, n, k->b, t, RANK_TOL, NULL, k->work, k->iwork);
    for (int i = 0; i < nv; i++) {
        sn_real x = 0;
        for (int a = 0; a < n; a++)
            x += B[(size_t)i * n + a] * t[a];
        tau[i] = x;
    }
    return act_rank;
}

// lambda (into k->x) of least norm over |J^T lambda - (rhs - tau)|; the residual
static sn_real solve_lambda(lid* k, const sn_real* tau) {
    int nv = k->nv, nr = k->nr;
    for (int i = 0; i < nv; i++)
        k->b[i] = k->rhs[i] - tau[i];
    memset(k->x, 0, (size_t)nr * sizeof(sn_real));
    if (nr > 0) {
        for (int v = 0; v < nv; v++)
            for (int r = 0; r < nr; r++)
                k->A[(size_t)v * nr + r] = k->J[(size_t)r * nv + v];
        sni_lsq_solve(k->A, nv, nr, k->b, k->x, RANK_TOL, NULL, k->work, k->iwork);
    }
    sn_real res = 0;
    for (int i = 0; i < nv; i++) {
        sn_real x = k->rhs[i] - tau[i];
        for (int r = 0; r < nr; r++)
            x -= k->J[(size_t)r * nv + i] * k->x[r];
        res += x * x;
    }
    return sqrt(res);
}

// the inverse dynamics with the actuation's n columns in k->B: their amounts t (n), the
// generalized force tau (nv), lambda (may be NULL), the report (may be NULL) and the status
static sn_status inverse(lid* k, const int* ind, int n_ind, const sn_real* udot_ind, int n,
                         sn_real* t, sn_real* tau, sn_real* lambda_out, sn_loop_id_report* rep,
                         const char* call, const char* actuation) {
    int nv = k->nv, nr = k->nr, ndep = 0;
    int dep_rank = dependent_accels(k, ind, n_ind, udot_ind, &ndep);
    sn_real res_a = accel_residual(k), scale_a = norm_n(k->jdu, nr);
    for (int i = 0; i < n_ind; i++)
        scale_a += fabs(udot_ind[i]);
    int rank = loop_forces_basis(k);
    int act_rank = solve_actuation(k, rank, n, t, tau);
    sn_real res_f = solve_lambda(k, tau);
    if (lambda_out) memcpy(lambda_out, k->x, (size_t)nr * sizeof(sn_real));
    sn_loop_id_report r;
    memset(&r, 0, sizeof r);
    r.rows = nr;
    r.rank = rank;
    r.mobility = nv - rank;
    r.actuation_rank = act_rank;
    r.redundancy = n - act_rank;
    r.accel_residual = res_a;
    r.force_residual = res_f;
    r.jdot_u_norm = norm_n(k->jdu, nr);
    if (rep) *rep = r;
    sn_world* w = k->s->world;
    if (dep_rank < ndep && nr > 0)
        return SET_ERR(w, SN_ERR_SINGULAR,
                       "%s: ind_dofs: %d independent DOFs do not fix the mechanism (%d dependent "
                       "DOFs, the loops fix %d of them; the minimum-norm udot is returned)",
                       call, n_ind, ndep, dep_rank);
    if (nr == 0 && ndep > 0)
        return SET_ERR(w, SN_ERR_SINGULAR,
                       "%s: ind_dofs: the system has no loops, so every DOF must be independent "
                       "(%d are not)",
                       call, ndep);
    if (res_a > MET_TOL * (1 + scale_a))
        return SET_ERR(w, SN_ERR_UNREACHED,
                       "%s: udot_ind: the loops cannot take these accelerations (|J udot + Jdot "
                       "u| = %.3g; too many independent DOFs?); the least-squares udot is returned",
                       call, res_a);
    if (res_f > MET_TOL * (1 + norm_n(k->rhs, nv)))
        return SET_ERR(w, SN_ERR_UNREACHED,
                       "%s: %s: the actuation cannot produce these accelerations (underactuated: "
                       "actuation rank %d of mobility %d, force residual %.3g); the least-squares "
                       "actuation is returned",
                       call, actuation, act_rank, nv - rank, res_f);
    return SN_OK;
}


static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

// the independent DOFs and their accelerations checked (SN_ERR_ARG with a message)
static sn_status check_ind(sn_system* s, const char* call, const int* ind, int n_ind,
                           const sn_real* udot_ind, unsigned char* seen) {
    sn_status st = check_dofs(s, call, "ind_dofs", ind, n_ind, seen);
    if (st == SN_OK && n_ind > 0 && !udot_ind)
        st = SET_ERR(s->world, SN_ERR_ARG, "%s: udot_ind is NULL", call);
    if (st == SN_OK && n_ind > 0 && !finite_n(udot_ind, n_ind))
        st = SET_ERR(s->world, SN_ERR_ARG, "%s: udot_ind is not finite", call);
    return st;
}


sn_status sn_system_loop_inverse_dynamics(sn_system* s, const int* ind_dofs, int n_ind,
                                          const sn_real* udot_ind, const int* act_dofs, int n_act,
                                          sn_real* tau_out, sn_real* lambda_out, sn_real* udot_out,
                                          sn_loop_id_report* report) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!tau_out)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_loop_inverse_dynamics: tau_out is NULL");
    const char* call = "sn_system_loop_inverse_dynamics";
    sn_world* w = s->world;
    if (!tau_out) return SET_ERR(w, SN_ERR_ARG, "%s: tau_out is NULL", call);
    lid k;
    if (lid_open(&k, s) != SN_OK)
        return SET_ERR(w, SN_ERR_NOMEM, "%s: out of memory for the scratch", call);
    int* act = k.act;
    sn_status st = SN_OK;
    if (!act_dofs) {
        n_act = default_act(s->m, act);
        act_dofs = act;
    } else {
        st = check_dofs(s, call, "act_dofs", act_dofs, n_act, k.flag);
    }
    if (st == SN_OK && !ind_dofs) {
        if (n_ind != n_act)
            st = SET_ERR(w, SN_ERR_ARG,
                         "%s: n_ind %d: udot_ind has that many entries, not one per actuated DOF "
                         "(%d)",
                         call, n_ind, n_act);
        ind_dofs = act_dofs;
    }
    if (st == SN_OK) st = check_ind(s, call, ind_dofs, n_ind, udot_ind, k.flag);
    if (st != SN_OK) {
        lid_close(&k);
        return st;
    }
    lid_state(&k);
    // the actuation's columns: unit vectors on the actuated DOFs
    memset(k.B, 0, (size_t)k.nv * n_act * sizeof(sn_real));
    for (int a = 0; a < n_act; a++)
        k.B[(size_t)act_dofs[a] * n_act + a] = 1;
    st = inverse(&k, ind_dofs, n_ind, udot_ind, n_act, k.t, tau_out, lambda_out, report, call,
                 "act_dofs");
    if (udot_out) memcpy(udot_out, k.udot, (size_t)k.nv * sizeof(sn_real));
    lid_close(&k);
    return st;
}


// the system's actuators as the columns of k->B (command tau_a: tau_a on the driven DOF,
// (r_c / G) tau_a on each coupled one, as sn_system_set_actuator_torques applies them), and
// their driven DOFs, each once, into k->act; their number
static int actuator_columns(lid* k) {
    const sn_system* s = k->s;
    const sn_model* m = s->m;
    int n = s->act.n, nd = 0;
    memset(k->B, 0, (size_t)k->nv * n * sizeof(sn_real));
    memset(k->flag, 0, (size_t)k->nv);
    for (int a = 0; a < n; a++) {
        const sn_actuator_desc* d = &s->act.desc[a];
        int v = m->joint_vadr[d->joint];
        sn_real g = d->gear > 0 ? d->gear : 1;
        k->B[(size_t)v * n + a] += 1;
        for (int c = 0; c < d->ncoupling; c++)
            k->B[(size_t)m->joint_vadr[d->coupling_joint[c]] * n + a] += d->coupling_ratio[c] / g;
        if (!k->flag[v]) k->act[nd++] = v;
        k->flag[v] = 1;
    }
    return nd;
}


sn_status sn_system_loop_inverse_dynamics_actuators(sn_system* s, const int* ind_dofs, int n_ind,
                                                    const sn_real* udot_ind, sn_real* command_out,
                                                    int nact, sn_real* tau_out, sn_real* lambda_out,
                                                    sn_real* udot_out, sn_loop_id_report* report) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!command_out)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_loop_inverse_dynamics_actuators: command_out is NULL");
    const char* call = "sn_system_loop_inverse_dynamics_actuators";
    sn_world* w = s->world;
    if (!command_out) return SET_ERR(w, SN_ERR_ARG, "%s: command_out is NULL", call);
    if (nact != s->act.n)
        return SET_ERR(w, SN_ERR_ARG,
                       "%s: nact %d: command_out has that many entries, not the %d actuators", call,
                       nact, s->act.n);
    lid k;
    if (lid_open(&k, s) != SN_OK)
        return SET_ERR(w, SN_ERR_NOMEM, "%s: out of memory for the scratch", call);
    int ndriven = actuator_columns(&k);
    sn_status st = SN_OK;
    if (!ind_dofs) {
        if (n_ind != ndriven)
            st = SET_ERR(w, SN_ERR_ARG,
                         "%s: n_ind %d: udot_ind has that many entries, not one per driven DOF "
                         "(%d)",
                         call, n_ind, ndriven);
        ind_dofs = k.act;
    }
    if (st == SN_OK) st = check_ind(s, call, ind_dofs, n_ind, udot_ind, k.flag);
    if (st == SN_OK) {
        lid_state(&k);
        st = inverse(&k, ind_dofs, n_ind, udot_ind, nact, command_out, k.tau, lambda_out, report,
                     call, "the actuators");
        if (tau_out) memcpy(tau_out, k.tau, (size_t)k.nv * sizeof(sn_real));
        if (udot_out) memcpy(udot_out, k.udot, (size_t)k.nv * sizeof(sn_real));
    }
    lid_close(&k);
    return st;
}


sn_status sn_system_loop_forward_dynamics(sn_system* s, const sn_real* tau, int nv,
                                          sn_real* udot_out, sn_real* lambda_out,
                                          sn_loop_id_report* report) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!udot_out)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_loop_forward_dynamics: udot_out is NULL");
    const char* call = "sn_system_loop_forward_dynamics";
    sn_world* w = s->world;
    if (!udot_out) return SET_ERR(w, SN_ERR_ARG, "%s: udot_out is NULL", call);
    if (nv != s->m->nv)
        return SET_ERR(w, SN_ERR_ARG, "%s: tau has %d entries, not nv = %d", call, nv, s->m->nv);
    if (tau && !finite_n(tau, nv)) return SET_ERR(w, SN_ERR_ARG, "%s: tau is not finite", call);
    lid k;
    if (lid_open(&k, s) != SN_OK)
        return SET_ERR(w, SN_ERR_NOMEM, "%s: out of memory for the scratch", call);
    lid_state(&k);
    // [M J^T; J 0] [udot; -lambda] = [tau - h; -Jdot u], least squares (lambda minimum-norm)
    int nr = k.nr, nk = k.nk;
    for (int i = 0; i < nk; i++)
        for (int j = 0; j < nk; j++) {
            sn_real x = 0;
            if (i < nv && j < nv)
                x = k.M[(size_t)i * nv + j];
            else if (i < nv)
                x = k.J[(size_t)(j - nv) * nv + i];
            else if (j < nv)
                x = k.J[(size_t)(i - nv) * nv + j];
            k.A[(size_t)i * nk + j] = x;
        }
    for (int i = 0; i < nv; i++)
        k.b[i] = (tau ? tau[i] : 0) - k.h[i];
    for (int r = 0; r < nr; r++)
        k.b[nv + r] = -k.jdu[r];
    sn_real res = 0;
    int rk = sni_lsq_solve(k.A, nk, nk, k.b, k.x, RANK_TOL, &res, k.work, k.iwork);
    memcpy(udot_out, k.x, (size_t)nv * sizeof(sn_real));
    if (lambda_out)
        for (int r = 0; r < nr; r++)
            lambda_out[r] = -k.x[nv + r];
    // the residuals of the two block rows
    sn_real ra = 0, rf = 0;
    for (int r = 0; r < nr; r++) {
        sn_real x = k.jdu[r];
        for (int v = 0; v < nv; v++)
            x += k.J[(size_t)r * nv + v] * k.x[v];
        ra += x * x;
    }
    for (int i = 0; i < nv; i++) {
        sn_real x = k.h[i] - (tau ? tau[i] : 0);
        for (int j = 0; j < nv; j++)
            x += k.M[(size_t)i * nv + j] * k.x[j];
        for (int r = 0; r < nr; r++)
            x += k.J[(size_t)r * nv + i] * k.x[nv + r];
        rf += x * x;
    }
    if (report) {
        memset(report, 0, sizeof *report);
        report->rows = nr;
        report->rank = rk - nv; // M is positive definite: the KKT's rank is nv + rank J
        report->mobility = nv - report->rank;
        report->accel_residual = sqrt(ra);
        report->force_residual = sqrt(rf);
        report->jdot_u_norm = norm_n(k.jdu, nr);
    }
    (void)res;
    lid_close(&k);
    return SN_OK;
}
