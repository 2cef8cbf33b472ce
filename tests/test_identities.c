// SPDX-License-Identifier: Apache-2.0
// test_identities.c: tier A of shared/spec/validation.md on seeded random trees with every
// joint type (fixed and floating base, fixed joints, massless links, rotor inertia) and on the
// real models: CRBA against RNEA columns, ABA against RNEA and against M^-1 (tau - h), M M^-1 = I,
// energies, passivity, Jacobians and J-dot u against finite differences, momentum balance.
#include "common.h"
#include "dynamics/dyn.h"
#include "harness/snt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NTREE 24
#define NSTATE 4

typedef int (*state_check)(const sn_model* m, sn_data* d, const char* what);

// every check runs on random trees (both bases) and on the real models that load
static int for_models(state_check fn) {
    int skipped = 0;
    for (int t = 0; t < NTREE; t++) {
        int nlink = 2 + t % 12;
        char* xml = tc_random_urdf(nlink, t % 2, 1000 + (unsigned long long)t);
        sn_model* m = tc_load_string(xml, 0);
        free(xml);
        SNT_CHECK_MSG(m, "random tree %d did not load", t);
        sn_data* d = NULL;
        SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
        char what[64];
        int r = 0;
        for (int s = 0; s < NSTATE && r == 0; s++) {
            tc_random_state(m, d->q, d->u);
            snprintf(what, sizeof what, "random tree %d (seed %d) state %d", t, 1000 + t, s);
            r = fn(m, d, what);
        }
        sn_data_destroy(d);
        sn_model_destroy(m);
        if (r) return r;
    }
    static const char* real[] = {
        "raisim_anymal_c/urdf/anymal.urdf", "erd_panda/urdf/panda.urdf",
        "erd_ur5/urdf/ur5_robot.urdf",      "raisim_minitaur/minitaur.urdf",
        "tsid_romeo/urdf/romeo.urdf",       "raisim_laikago/laikago.urdf"};
    for (size_t k = 0; k < sizeof real / sizeof real[0]; k++) {
        const char* path = tc_model_path(real[k]);
        if (!path) {
            skipped = 1;
            continue;
        }
        sn_model* m = tc_load_file(path, 1);
        SNT_CHECK_MSG(m, "%s did not load", real[k]);
        sn_data* d = NULL;
        SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
        int r = 0;
        tc_seed(77 + k);
        for (int s = 0; s < NSTATE && r == 0; s++) {
            tc_random_state(m, d->q, d->u);
            r = fn(m, d, real[k]);
        }
        sn_data_destroy(d);
        sn_model_destroy(m);
        if (r) return r;
    }
    if (skipped) printf("  ../shared is absent: the real models were not checked\n");
    return skipped ? SNT_SKIP : 0;
}

static void full(const sn_model* m, sn_data* d) {
    sn_fk(m, d);
    sn_fk_vel(m, d);
    sn_crba(m, d);
    sn_nonlinear(m, d);
}

// A1: M e_i = RNEA(q, u, e_i) - RNEA(q, u, 0)
static int check_crba_rnea(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv;
    full(m, d);
    double* e = calloc((size_t)nv, sizeof(double));
    double* col = calloc((size_t)nv, sizeof(double));
    double scale = 0;
    for (int i = 0; i < nv * nv; i++)
        scale = fmax(scale, fabs(d->mass_matrix[i]));
    int bad = 0;
    for (int i = 0; i < nv && !bad; i++) {
        memset(e, 0, (size_t)nv * sizeof(double));
        e[i] = 1;
        sn_rnea(m, d, e, col);
        for (int r = 0; r < nv; r++) {
            double mij = col[r] - d->nonlinear[r];
            if (fabs(mij - d->mass_matrix[r * nv + i]) > 1e-12 * scale) {
                fprintf(stderr, "  %s: M[%d][%d] = %.17g, RNEA column %.17g\n", what, r, i,
                        d->mass_matrix[r * nv + i], mij);
                bad = 1;
            }
        }
        // symmetry
        for (int r = 0; r < nv; r++)
            if (d->mass_matrix[r * nv + i] != d->mass_matrix[i * nv + r]) bad = 1;
    }
    free(e);
    free(col);
    return bad;
}

// A2, A3: ABA(RNEA(a)) = a, RNEA(ABA(tau)) = tau, ABA = M^-1 (tau - h)
static int check_aba(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv;
    full(m, d);
    double* a = malloc((size_t)nv * sizeof(double));
    double* tau = malloc((size_t)nv * sizeof(double));
    double* back = malloc((size_t)nv * sizeof(double));
    for (int i = 0; i < nv; i++)
        a[i] = tc_uniform(-2, 2);
    sn_rnea(m, d, a, tau);
    SNT_STATUS_OK(sn_aba(m, d, tau, back));
    double e1 = tc_rel_err(a, back, nv, 1);
    // RNEA(ABA(tau)) with random tau
    for (int i = 0; i < nv; i++)
        tau[i] = tc_uniform(-5, 5);
    SNT_STATUS_OK(sn_aba(m, d, tau, a));
    sn_rnea(m, d, a, back);
    double e2 = tc_rel_err(tau, back, nv, 1);
    // M^-1 (tau - h) by the sparse factor
    SNT_STATUS_OK(sn_factor_mass(m, d));
    for (int i = 0; i < nv; i++)
        back[i] = tau[i] - d->nonlinear[i];
    sn_solve_mass(m, d, back);
    double e3 = tc_rel_err(a, back, nv, 1);
    free(a);
    free(tau);
    free(back);
    SNT_CHECK_MSG(e1 < 1e-10 && e2 < 1e-10 && e3 < 1e-10,
                  "%s: ABA(RNEA) %.3g, RNEA(ABA) %.3g, ABA vs M^-1(tau-h) %.3g", what, e1, e2, e3);
    return 0;
}

// sn_fk_motion gives the poses, anchors, motion subspaces and velocities of sn_fk + sn_fk_vel,
// bit for bit, and leaves the data marked as without the dynamics' inertias
static int check_fk_motion(const sn_model* m, sn_data* d, const char* what) {
    size_t nb = (size_t)m->nbody, nv = (size_t)m->nv, nj = (size_t)m->njoint;
    sn_fk(m, d);
    sn_fk_vel(m, d);
    size_t n = nb * (3 + 9 + 6) + 6 * nv + 3 * nj;
    double* want = malloc(n * sizeof(double));
    SNT_CHECK(want);
    double* w = want;
    memcpy(w, d->body_pos, 3 * nb * sizeof(double)), w += 3 * nb;
    memcpy(w, d->body_rot, 9 * nb * sizeof(double)), w += 9 * nb;
    memcpy(w, d->body_vel, 6 * nb * sizeof(double)), w += 6 * nb;
    memcpy(w, d->dof_motion, 6 * nv * sizeof(double)), w += 6 * nv;
    memcpy(w, d->joint_anchor, 3 * nj * sizeof(double));
    memset(d->body_pos, 0, 3 * nb * sizeof(double));
    memset(d->body_rot, 0, 9 * nb * sizeof(double));
    memset(d->body_vel, 0, 6 * nb * sizeof(double));
    memset(d->dof_motion, 0, 6 * nv * sizeof(double));
    memset(d->joint_anchor, 0, 3 * nj * sizeof(double));
    SNT_STATUS_OK(sn_fk_motion(m, d));
    w = want;
    int same = !memcmp(w, d->body_pos, 3 * nb * sizeof(double));
    same &= !memcmp(w += 3 * nb, d->body_rot, 9 * nb * sizeof(double));
    same &= !memcmp(w += 9 * nb, d->body_vel, 6 * nb * sizeof(double));
    same &= !memcmp(w += 6 * nb, d->dof_motion, 6 * nv * sizeof(double));
    same &= !memcmp(w += 6 * nv, d->joint_anchor, 3 * nj * sizeof(double));
    free(want);
    SNT_CHECK_MSG(same, "%s: sn_fk_motion differs from sn_fk + sn_fk_vel", what);
    SNT_CHECK_MSG(!d->fk_valid, "%s: sn_fk_motion left the data marked as after sn_fk", what);
    return 0;
}

// A4: M M^-1 = I, M^-1 symmetric, by both routes of sn_inverse_mass (the tree factor, ABA's
// sweeps)
static int check_minv(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv, chosen = d->minv_aba;
    full(m, d);
    double worst = 0;
    for (int route = 0; route < 2; route++) {
        d->minv_aba = route;
        SNT_STATUS_OK(sn_inverse_mass(m, d));
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nv; j++) {
                double s = 0;
                for (int k = 0; k < nv; k++)
                    s += d->mass_matrix[i * nv + k] * d->inverse_mass[k * nv + j];
                worst = fmax(worst, fabs(s - (i == j)));
                worst =
                    fmax(worst, fabs(d->inverse_mass[i * nv + j] - d->inverse_mass[j * nv + i]) /
                                    fmax(1, fabs(d->inverse_mass[i * nv + j])));
            }
    }
    d->minv_aba = chosen;
    // condition-aware bound: the product loses about cond(M) * eps
    SNT_CHECK_MSG(worst < 1e-10, "%s: |M M^-1 - I| = %.3g", what, worst);
    return 0;
}

// A5: KE = 1/2 u^T M u, PE = -m_tot g . com, and (independent of how PE is summed) its
// derivative along a random direction v by central differences equals g(q) . v, g(q) the
// gravity torques of RNEA (the nonlinear term at u = 0)
static int check_energy(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv;
    full(m, d);
    double ke = 0;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++)
            ke += 0.5 * d->u[i] * d->mass_matrix[i * nv + j] * d->u[j];
    double com[3];
    double mt = sn_com(m, d, com);
    double pe = -mt * (d->gravity[0] * com[0] + d->gravity[1] * com[1] + d->gravity[2] * com[2]);
    SNT_CHECK_MSG(fabs(ke - sn_kinetic_energy(m, d)) <= 1e-12 * fmax(1, ke),
                  "%s: KE %.17g vs 1/2 u'Mu %.17g", what, sn_kinetic_energy(m, d), ke);
    SNT_CHECK_MSG(fabs(pe - sn_potential_energy(m, d)) <= 1e-12 * fmax(1, fabs(pe)),
                  "%s: PE %.17g vs %.17g", what, sn_potential_energy(m, d), pe);
    int nq = m->nq;
    double eps = 1e-6, gv = 0, scale = 0;
    double* q0 = malloc((size_t)nq * sizeof(double));
    double* qe = malloc((size_t)nq * sizeof(double));
    double* u0 = malloc((size_t)nv * sizeof(double));
    double* v = malloc((size_t)nv * sizeof(double));
    memcpy(q0, d->q, (size_t)nq * sizeof(double));
    memcpy(u0, d->u, (size_t)nv * sizeof(double));
    for (int i = 0; i < nv; i++)
        v[i] = tc_uniform(-1, 1);
    memset(d->u, 0, (size_t)nv * sizeof(double));
    full(m, d);
    for (int i = 0; i < nv; i++) {
        gv += d->nonlinear[i] * v[i];
        scale += fabs(d->nonlinear[i] * v[i]);
    }
    tc_integrate(m, q0, v, eps, qe);
    memcpy(d->q, qe, (size_t)nq * sizeof(double));
    sn_fk(m, d);
    double pp = sn_potential_energy(m, d);
    tc_integrate(m, q0, v, -eps, qe);
    memcpy(d->q, qe, (size_t)nq * sizeof(double));
    sn_fk(m, d);
    double dpe = (pp - sn_potential_energy(m, d)) / (2 * eps);
    memcpy(d->q, q0, (size_t)nq * sizeof(double));
    memcpy(d->u, u0, (size_t)nv * sizeof(double));
    full(m, d);
    free(q0), free(qe), free(u0), free(v);
    // central differences: error eps^2 times the third derivative, plus rounding of PE / eps
    SNT_CHECK_MSG(fabs(dpe - gv) <= 1e-7 * fmax(1, scale) + 1e-14 * fmax(1, fabs(pe)) / eps,
                  "%s: dPE/dq . v = %.12g by differences, g(q) . v = %.12g", what, dpe, gv);
    return 0;
}

// A6: u^T Mdot u = 2 u^T (h - g): passivity of Mdot - 2C, Mdot by central differences
static int check_passivity(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv, nq = m->nq;
    double eps = 1e-6;
    double* q0 = malloc((size_t)nq * sizeof(double));
    double* qe = malloc((size_t)nq * sizeof(double));
    double* u = malloc((size_t)nv * sizeof(double));
    double* mp = malloc((size_t)nv * nv * sizeof(double));
    memcpy(q0, d->q, (size_t)nq * sizeof(double));
    memcpy(u, d->u, (size_t)nv * sizeof(double));
    tc_integrate(m, q0, u, eps, qe);
    memcpy(d->q, qe, (size_t)nq * sizeof(double));
    full(m, d);
    memcpy(mp, d->mass_matrix, (size_t)nv * nv * sizeof(double));
    tc_integrate(m, q0, u, -eps, qe);
    memcpy(d->q, qe, (size_t)nq * sizeof(double));
    full(m, d);
    double umu = 0, scale = 0;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) {
            double md = (mp[i * nv + j] - d->mass_matrix[i * nv + j]) / (2 * eps);
            umu += u[i] * md * u[j];
            scale += fabs(u[i] * mp[i * nv + j] * u[j]);
        }
    memcpy(d->q, q0, (size_t)nq * sizeof(double));
    full(m, d);
    double* h = malloc((size_t)nv * sizeof(double));
    memcpy(h, d->nonlinear, (size_t)nv * sizeof(double));
    memset(d->u, 0, (size_t)nv * sizeof(double));
    full(m, d);
    double ucu = 0;
    for (int i = 0; i < nv; i++)
        ucu += u[i] * (h[i] - d->nonlinear[i]);
    memcpy(d->u, u, (size_t)nv * sizeof(double));
    free(q0), free(qe), free(u), free(mp), free(h);
    SNT_CHECK_MSG(fabs(umu - 2 * ucu) <= 1e-7 * fmax(1, scale),
                  "%s: u'Mdot u = %.12g, 2 u'C u = %.12g", what, umu, 2 * ucu);
    return 0;
}

// A8: point Jacobian against the finite difference of the point's position along u, and
// J-dot u against the finite difference of J u
static int check_jacobian(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv, nq = m->nq;
    double eps = 1e-6;
    double* q0 = malloc((size_t)nq * sizeof(double));
    double* qe = malloc((size_t)nq * sizeof(double));
    double* jp = malloc(3 * (size_t)nv * sizeof(double));
    double* jr = malloc(3 * (size_t)nv * sizeof(double));
    memcpy(q0, d->q, (size_t)nq * sizeof(double));
    int bad = 0;
    for (int f = 0; f < m->nframe && !bad; f++) {
        double x[3], R[9], xp[3], xm[3], Rp[9], Rm[9], lin[3], ang[3], jdl[3], jda[3];
        memcpy(d->q, q0, (size_t)nq * sizeof(double));
        full(m, d);
        sn_frame_pose(m, d, f, x, R);
        sn_frame_jacobian(m, d, f, jp, jr);
        sn_frame_velocity(m, d, f, lin, ang);
        sn_point_jdot_u(m, d, m->frame_body[f], x, jdl, jda);
        double ju[3] = {0, 0, 0}, jw[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < nv; i++)
                ju[k] += jp[k * nv + i] * d->u[i], jw[k] += jr[k * nv + i] * d->u[i];
        // J u against the frame velocity, and against finite differences of the pose
        tc_integrate(m, q0, d->u, eps, qe);
        memcpy(d->q, qe, (size_t)nq * sizeof(double));
        sn_fk(m, d);
        sn_frame_pose(m, d, f, xp, Rp);
        sn_fk_vel(m, d);
        double vp[3], wp[3];
        sn_frame_velocity(m, d, f, vp, wp);
        tc_integrate(m, q0, d->u, -eps, qe);
        memcpy(d->q, qe, (size_t)nq * sizeof(double));
        sn_fk(m, d);
        sn_frame_pose(m, d, f, xm, Rm);
        sn_fk_vel(m, d);
        double vm[3], wm[3];
        sn_frame_velocity(m, d, f, vm, wm);
        // angular velocity from dR/dt R^T (skew part)
        double dR[9], w[3];
        for (int k = 0; k < 9; k++)
            dR[k] = (Rp[k] - Rm[k]) / (2 * eps);
        double W[9];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                W[3 * i + j] = dR[3 * i] * R[3 * j] + dR[3 * i + 1] * R[3 * j + 1] +
                               dR[3 * i + 2] * R[3 * j + 2];
        w[0] = 0.5 * (W[7] - W[5]), w[1] = 0.5 * (W[2] - W[6]), w[2] = 0.5 * (W[3] - W[1]);
        for (int k = 0; k < 3; k++) {
            double fd = (xp[k] - xm[k]) / (2 * eps);
            double acc = (vp[k] - vm[k]) / (2 * eps), wacc = (wp[k] - wm[k]) / (2 * eps);
            if (fabs(fd - ju[k]) > 1e-7 * fmax(1, fabs(fd)) ||
                fabs(ju[k] - lin[k]) > 1e-12 * fmax(1, fabs(lin[k])) ||
                fabs(w[k] - jw[k]) > 1e-7 * fmax(1, fabs(w[k])) ||
                fabs(acc - jdl[k]) > 1e-6 * fmax(1, fabs(acc)) ||
                fabs(wacc - jda[k]) > 1e-6 * fmax(1, fabs(wacc))) {
                fprintf(
                    stderr,
                    "  %s frame %s axis %d: FD v %.12g J u %.12g v %.12g | FD w %.12g Jr u %.12g | "
                    "FD a %.12g Jdot u %.12g | FD alpha %.12g %.12g\n",
                    what, sn_model_name(m, SN_OBJ_FRAME, f), k, fd, ju[k], lin[k], w[k], jw[k], acc,
                    jdl[k], wacc, jda[k]);
                bad = 1;
            }
        }
    }
    memcpy(d->q, q0, (size_t)nq * sizeof(double));
    free(q0), free(qe), free(jp), free(jr);
    return bad;
}

// A7 and A9 along the exact ODE (tau = 0): dE/dt = 0, dp/dt = m g, dL/dt = com x m g
static int check_balance(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv, nq = m->nq;
    double eps = 1e-6;
    double* q0 = malloc((size_t)nq * sizeof(double));
    double* u0 = malloc((size_t)nv * sizeof(double));
    double* a = malloc((size_t)nv * sizeof(double));
    memcpy(q0, d->q, (size_t)nq * sizeof(double));
    memcpy(u0, d->u, (size_t)nv * sizeof(double));
    full(m, d);
    SNT_STATUS_OK(sn_aba(m, d, NULL, a));
    double com[3];
    double mt = sn_com(m, d, com);
    double e[2], p[2][3], l[2][3];
    for (int s = 0; s < 2; s++) {
        double sg = s ? -eps : eps;
        tc_integrate(m, q0, u0, sg, d->q);
        for (int i = 0; i < nv; i++)
            d->u[i] = u0[i] + sg * a[i];
        sn_fk(m, d);
        sn_fk_vel(m, d);
        e[s] = sn_kinetic_energy(m, d) + sn_potential_energy(m, d);
        sn_momentum(m, d, p[s], l[s]);
    }
    memcpy(d->q, q0, (size_t)nq * sizeof(double));
    memcpy(d->u, u0, (size_t)nv * sizeof(double));
    double de = (e[0] - e[1]) / (2 * eps);
    double scale = 1;
    for (int i = 0; i < nv; i++)
        scale = fmax(scale, fabs(a[i]));
    free(q0), free(u0), free(a);
    SNT_CHECK_MSG(fabs(de) < 1e-6 * scale * mt, "%s: dE/dt = %.3g with tau = 0", what, de);
    if (!m->is_floating) return 0;
    const double* g = d->gravity;
    double mg[3] = {mt * g[0], mt * g[1], mt * g[2]};
    double tq[3] = {com[1] * mg[2] - com[2] * mg[1], com[2] * mg[0] - com[0] * mg[2],
                    com[0] * mg[1] - com[1] * mg[0]};
    for (int k = 0; k < 3; k++) {
        double dp = (p[0][k] - p[1][k]) / (2 * eps), dl = (l[0][k] - l[1][k]) / (2 * eps);
        SNT_CHECK_MSG(fabs(dp - mg[k]) < 1e-6 * mt * 10 && fabs(dl - tq[k]) < 1e-6 * mt * 10,
                      "%s: dp/dt %.9g vs m g %.9g, dL/dt %.9g vs c x m g %.9g", what, dp, mg[k], dl,
                      tq[k]);
    }
    return 0;
}

// joint wrenches: a revolute joint's torque about its axis is its generalized force
static int check_joint_wrench(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv;
    full(m, d);
    double* a = malloc((size_t)nv * sizeof(double));
    double* tau = malloc((size_t)nv * sizeof(double));
    for (int i = 0; i < nv; i++)
        a[i] = tc_uniform(-1, 1);
    sn_inverse_dynamics(m, d, a, tau);
    int bad = 0;
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], v = m->joint_vadr[j];
        if (t != SN_JOINT_REVOLUTE && t != SN_JOINT_CONTINUOUS && t != SN_JOINT_PRISMATIC) continue;
        double f[3], n[3], ax[3];
        sn_joint_wrench_world(m, d, m->joint_ujoint[j], f, n);
        const double* s = d->dof_motion + 6 * v;
        double proj;
        if (t == SN_JOINT_PRISMATIC) {
            memcpy(ax, s + 3, sizeof ax);
            proj = f[0] * ax[0] + f[1] * ax[1] + f[2] * ax[2];
        } else {
            memcpy(ax, s, sizeof ax);
            proj = n[0] * ax[0] + n[1] * ax[1] + n[2] * ax[2];
        }
        double expect = tau[v] - m->dof_armature[v] * a[v];
        if (fabs(proj - expect) > 1e-10 * fmax(1, fabs(expect))) {
            fprintf(stderr, "  %s: joint %s: axis . wrench %.15g, tau %.15g\n", what,
                    sn_model_name(m, SN_OBJ_JOINT, j), proj, expect);
            bad = 1;
        }
    }
    free(a), free(tau);
    return bad;
}

// the cheap per-body wrenches and the on-demand fixed-joint wrench equal the link-level pass
static int check_wrench_paths(const sn_model* m, sn_data* d, const char* what) {
    int nv = m->nv;
    full(m, d);
    double* a = malloc((size_t)nv * sizeof(double));
    double* bw = malloc(6 * (size_t)m->nbody * sizeof(double));
    for (int i = 0; i < nv; i++)
        a[i] = tc_uniform(-1, 1);
    sn_inverse_dynamics(m, d, a, NULL);
    sni_body_wrenches(m, d, d->ws_acc, NULL, bw);
    int bad = 0;
    for (int u = 0; u < m->nujoint && !bad; u++) {
        double want[6], got[6];
        int ch = m->ujoint_child[u];
        double x[3];
        sn_frame_pose(m, d, ch, x, NULL);
        if (m->ujoint_joint[u] >= 0) {
            memcpy(got, bw + 6 * m->frame_body[ch], sizeof got);
        } else {
            sni_fixed_joint_wrench(m, d, u, d->body_pos, d->body_rot, d->body_vel, d->ws_acc, bw,
                                   got);
        }
        // the link pass reports the force and the torque about the joint origin x:
        // n_x = n_0 + f x x
        memcpy(want, d->ujoint_wrench + 6 * u, sizeof want);
        const double* f = got + 3;
        double gotw[6] = {f[0],
                          f[1],
                          f[2],
                          got[0] + f[1] * x[2] - f[2] * x[1],
                          got[1] + f[2] * x[0] - f[0] * x[2],
                          got[2] + f[0] * x[1] - f[1] * x[0]};
        double e = tc_rel_err(want, gotw, 6, 1);
        if (e > 1e-10) {
            fprintf(stderr, "  %s: joint %s: wrench paths differ by %.3g\n", what,
                    sn_model_name(m, SN_OBJ_URDF_JOINT, u), e);
            bad = 1;
        }
    }
    free(a), free(bw);
    return bad;
}


// M^-1 by the articulated-body algorithm uses neither M nor its factor (both filled with NaN
// before it), and equals the columns of the sparse L^T D L factor's solves on large trees (100
// links, both bases, every joint type) and on a 100-link serial chain (the deepest tree)
static int check_minv_columns(sn_model* m, const char* what) {
    int nv = m->nv;
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    d->minv_aba = 1; // the sweeps, whatever the route the data chose
    tc_random_state(m, d->q, d->u);
    SNT_STATUS_OK(sn_fk(m, d));
    for (size_t i = 0; i < (size_t)nv * nv; i++)
        d->mass_matrix[i] = d->mass_factor[i] = NAN;
    SNT_STATUS_OK(sn_inverse_mass(m, d));
    SNT_STATUS_OK(sn_crba(m, d));
    SNT_STATUS_OK(sn_factor_mass(m, d));
    double* col = malloc((size_t)nv * sizeof(double));
    double worst = 0, scale = 0;
    for (int c = 0; c < nv; c++) {
        for (int i = 0; i < nv; i++)
            col[i] = i == c;
        sn_solve_mass(m, d, col);
        for (int i = 0; i < nv; i++) {
            worst = fmax(worst, fabs(col[i] - d->inverse_mass[(size_t)i * nv + c]));
            scale = fmax(scale, fabs(col[i]));
        }
    }
    free(col);
    sn_data_destroy(d);
    printf("  %s: nv %d, |M^-1 (ABA) - M^-1 (factor)| = %.3g of max %.3g\n", what, nv, worst,
           scale);
    SNT_CHECK_MSG(worst <= 1e-10 * scale, "%s: %.3g", what, worst);
    return 0;
}

static int test_inverse_mass_by_aba_equals_the_factor(void) {
    // four random trees of 100 links that load (a massless leaf moved by a joint is refused)
    int done = 0;
    for (int t = 0; done < 4 && t < 40; t++) {
        char* xml = tc_random_urdf(100, t % 2, 4242 + (unsigned long long)t);
        sn_model* m = NULL;
        sn_error err;
        sn_status st = sn_load_urdf_string(xml, strlen(xml), "random.urdf", NULL, NULL, &m, &err);
        free(xml);
        if (st != SN_OK) continue;
        char what[64];
        snprintf(what, sizeof what, "random tree of 100 links, seed %d", 4242 + t);
        int r = check_minv_columns(m, what);
        sn_model_destroy(m);
        if (r) return r;
        done++;
    }
    SNT_CHECK(done == 4);
    // a serial chain of 100 revolute links about alternating axes, with rotor inertia, on a
    // floating base (the root link)
    size_t cap = 100 * 600 + 200, n = 0;
    char* xml = malloc(cap);
    SNT_CHECK(xml);
    n += (size_t)snprintf(xml + n, cap - n, "<robot name='chain'><link name='l0'/>");
    for (int i = 1; i <= 100; i++)
        n += (size_t)snprintf(
            xml + n, cap - n,
            "<link name='l%d'><inertial><origin xyz='0 0 0.05'/><mass value='%g'/>"
            "<inertia ixx='0.01' iyy='0.02' izz='0.005' ixy='0' ixz='0' iyz='0'/></inertial>"
            "</link><joint name='j%d' type='revolute'><parent link='l%d'/><child link='l%d'/>"
            "<origin xyz='0 0 0.1'/><axis xyz='%d %d 0'/><limit effort='1' velocity='1' "
            "lower='-3' upper='3'/><dynamics armature='%g'/></joint>",
            i, 1 + 0.01 * i, i, i - 1, i, i % 2, 1 - i % 2, 0.001 * (i % 3));
    snprintf(xml + n, cap - n, "</robot>");
    sn_model* m = NULL;
    sn_error err;
    sn_status st = sn_load_urdf_string(xml, strlen(xml), "chain.urdf", NULL, NULL, &m, &err);
    free(xml);
    SNT_CHECK_MSG(st == SN_OK && m->nv == 106, "the chain (floating base): status %d, nv %d: %s",
                  st, m ? m->nv : -1, err.msg);
    int r = check_minv_columns(m, "chain of 100 links");
    sn_model_destroy(m);
    return r;
}

static int test_crba_equals_rnea_columns(void) {
    return for_models(check_crba_rnea);
}
static int test_aba_rnea_minv_agree(void) {
    return for_models(check_aba);
}
static int test_fk_motion_is_fk_without_dynamics(void) {
    return for_models(check_fk_motion);
}
static int test_mass_times_inverse_is_identity(void) {
    return for_models(check_minv);
}
static int test_energies(void) {
    return for_models(check_energy);
}
static int test_passivity(void) {
    return for_models(check_passivity);
}
static int test_jacobians_finite_differences(void) {
    return for_models(check_jacobian);
}
static int test_energy_and_momentum_balance(void) {
    return for_models(check_balance);
}
static int test_joint_wrench_projects_to_tau(void) {
    return for_models(check_joint_wrench);
}
static int test_joint_wrench_paths_agree(void) {
    return for_models(check_wrench_paths);
}

// A11: double pendulum with point masses, M at q2 = pi/3 is [[4, 1.5], [1.5, 1]]
static int test_double_pendulum_mass_matrix(void) {
    const char* xml =
        "<robot name=\"dp\"><link name=\"world\"/>"
        "<link name=\"a\"><inertial><origin xyz=\"1 0 0\"/><mass value=\"1\"/>"
        "<inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link>"
        "<link name=\"b\"><inertial><origin xyz=\"1 0 0\"/><mass value=\"1\"/>"
        "<inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link>"
        "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/>"
        "<axis xyz=\"0 0 1\"/></joint>"
        "<joint name=\"j2\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>"
        "<origin xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></joint></robot>";
    sn_model* m = tc_load_string(xml, 1);
    SNT_CHECK(m);
    SNT_CHECK(m->nwarning == 2); // two point masses: singular link inertias are warned
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    d->q[0] = 0.3;
    d->q[1] = M_PI / 3;
    sn_fk(m, d);
    sn_crba(m, d);
    SNT_NEAR(d->mass_matrix[0], 4.0, 1e-14);
    SNT_NEAR(d->mass_matrix[1], 1.5, 1e-14);
    SNT_NEAR(d->mass_matrix[2], 1.5, 1e-14);
    SNT_NEAR(d->mass_matrix[3], 1.0, 1e-14);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_crba_equals_rnea_columns), SNT_TEST(test_aba_rnea_minv_agree),
          SNT_TEST(test_fk_motion_is_fk_without_dynamics),
          SNT_TEST(test_mass_times_inverse_is_identity),
          SNT_TEST(test_inverse_mass_by_aba_equals_the_factor), SNT_TEST(test_energies),
          SNT_TEST(test_passivity), SNT_TEST(test_jacobians_finite_differences),
          SNT_TEST(test_energy_and_momentum_balance), SNT_TEST(test_joint_wrench_projects_to_tau),
          SNT_TEST(test_joint_wrench_paths_agree), SNT_TEST(test_double_pendulum_mass_matrix))
