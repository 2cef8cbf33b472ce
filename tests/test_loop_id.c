// SPDX-License-Identifier: Apache-2.0
// test_loop_id.c: inverse dynamics of closed loops (issue 16 item 5, docs/loopid.md). On the
// four-bar, the Strandbeest, the Minitaur (shared model) and the delta (models/delta.urdf) at
// random states on the loop manifold (assembled) with random desired accelerations of the
// independent DOFs: the torques found, applied in the loops' forward dynamics (the KKT solve),
// give back the desired accelerations to 1e-9 and the same constraint forces J^T lambda; at rest
// the step itself (one step, loop feedback off) gives them back and its loops' share is J^T
// lambda; redundant actuation gives the minimum-norm tau (J tau = 0 when every DOF is actuated);
// computed-torque control of the delta tracks through the step; underactuation and refusals
// report with messages.
#include "common.h"
#include "harness/snt.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOURBAR SNT_SOURCE_DIR "/models/fourbar.urdf"
#define BEEST SNT_SOURCE_DIR "/models/strandbeest.urdf"
#define DELTA SNT_SOURCE_DIR "/models/delta.urdf"
#define NV_MAX 128
#define NR_MAX 256

typedef struct scene {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} scene;

static int open_scene(scene* sc, const char* path) {
    memset(sc, 0, sizeof *sc);
    sc->m = tc_load_file(path, 1);
    if (!sc->m) return 1;
    if (tc_world_open(sc->m, 1e-3, &sc->w, &sc->s) != SN_OK) return 1;
    return 0;
}

static void close_scene(scene* sc) {
    sn_world_destroy(sc->w);
    sn_model_destroy(sc->m);
}

// a random state near q: every 1-DOF joint moved by up to spread, the loops assembled, then a
// random velocity made admissible (assemble projects it)
static int random_manifold_state(scene* sc, double spread, double speed) {
    const sn_model* m = sc->m;
    double q[NV_MAX + 8], u[NV_MAX];
    memcpy(q, sn_system_q(sc->s), (size_t)m->nq * sizeof(double));
    for (int j = 0; j < m->njoint; j++)
        if (m->joint_nv[j] == 1) q[m->joint_qadr[j]] += tc_uniform(-spread, spread);
    for (int v = 0; v < m->nv; v++)
        u[v] = tc_uniform(-speed, speed);
    if (sn_system_set_state(sc->s, q, m->nq, u, m->nv) != SN_OK) return 1;
    double res = 1;
    sn_status st = sn_system_assemble(sc->s, 100, 1e-12, &res);
    if (st != SN_OK && !(st == SN_ERR_SINGULAR && res < 1e-6)) {
        printf("  assemble: %s (residual %.3g): %s\n", sn_status_str(st), res,
               sn_world_last_error(sc->w));
        return 1;
    }
    return 0;
}

// tau -> the loops' forward dynamics at the same state; the largest error of udot against the
// inverse dynamics' udot (relative to its size, floor 1), and of J^T lambda (via M udot + h -
// tau) against the forward solve's
static double recover(scene* sc, const double* tau, const double* udot, double* force_err) {
    int nv = sc->m->nv;
    double a[NV_MAX], lam[NR_MAX];
    SNT_STATUS_OK(sn_system_loop_forward_dynamics(sc->s, tau, nv, a, lam, NULL));
    double e = tc_rel_err(a, udot, nv, 1);
    // J^T lambda of both: M a + h - tau
    const double* M = sn_system_mass_matrix(sc->s);
    const double* h = sn_system_nonlinear(sc->s);
    double f1[NV_MAX], f2[NV_MAX];
    for (int i = 0; i < nv; i++) {
        f1[i] = h[i] - tau[i];
        f2[i] = h[i] - tau[i];
        for (int j = 0; j < nv; j++) {
            f1[i] += M[i * nv + j] * a[j];
            f2[i] += M[i * nv + j] * udot[j];
        }
    }
    *force_err = tc_rel_err(f1, f2, nv, 1);
    return e;
}

static int test_fourbar(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, FOURBAR) == 0);
    const sn_model* m = sc.m;
    int crank = m->joint_vadr[sn_model_find(m, SN_OBJ_JOINT, "crank_joint")];
    tc_seed(11);
    double worst = 0, worst_f = 0;
    for (int trial = 0; trial < 20; trial++) {
        SNT_CHECK(random_manifold_state(&sc, 0.3, 3) == 0);
        double want = tc_uniform(-20, 20), tau[NV_MAX], lam[NR_MAX], udot[NV_MAX];
        sn_loop_id_report r;
        SNT_STATUS_OK(
            sn_system_loop_inverse_dynamics(sc.s, &crank, 1, &want, &crank, 1, tau, lam, udot, &r));
        SNT_CHECK(r.mobility == 1 && r.actuation_rank == 1 && r.redundancy == 0);
        SNT_CHECK(udot[crank] == want);
        double fe;
        double e = recover(&sc, tau, udot, &fe);
        worst = fmax(worst, e);
        worst_f = fmax(worst_f, fe);
        if (trial == 0)
            printf(
                "  four-bar: crank torque %.6g N m for %.6g rad/s^2 at |u| ~ 3, rows %d rank %d, "
                "|Jdot u| %.3g\n",
                tau[crank], want, r.rows, r.rank, r.jdot_u_norm);
    }
    printf("  four-bar, 20 states: udot recovered to %.3g, J^T lambda to %.3g (relative)\n", worst,
           worst_f);
    // docs/loopid.md: udot back to 2.4e-14 (relative), J^T lambda to 1.3e-15 (rounding;
    // asserted below 5e-13 and 5e-14)
    SNT_CHECK(worst < 5e-13 && worst_f < 5e-14);
    sn_world_destroy(sc.w);
    sn_model_destroy(sc.m);
    return 0;
}

// at rest Jdot u = 0, so the step (loop feedback off) accelerates exactly as the loops' dynamics
static int test_fourbar_step(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, FOURBAR) == 0);
    const sn_model* m = sc.m;
    int nv = m->nv;
    int crank = m->joint_vadr[sn_model_find(m, SN_OBJ_JOINT, "crank_joint")];
    SNT_STATUS_OK(sn_world_set_loop_erp(sc.w, 0));
    tc_seed(5);
    SNT_CHECK(random_manifold_state(&sc, 0.3, 0) == 0);
    double zero[NV_MAX] = {0};
    SNT_STATUS_OK(sn_system_set_u(sc.s, zero, nv));
    double want = 7.5, tau[NV_MAX], lam[NR_MAX], udot[NV_MAX];
    SNT_STATUS_OK(
        sn_system_loop_inverse_dynamics(sc.s, &crank, 1, &want, &crank, 1, tau, lam, udot, NULL));
    // J^T lambda = M udot + h - tau at the step's start
    const double* M = sn_system_mass_matrix(sc.s);
    const double* h = sn_system_nonlinear(sc.s);
    double f[NV_MAX];
    for (int i = 0; i < nv; i++) {
        f[i] = h[i] - tau[i];
        for (int j = 0; j < nv; j++)
            f[i] += M[i * nv + j] * udot[j];
    }
    SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, tau, nv));
    SNT_STATUS_OK(sn_world_integrate(sc.w));
    const double* u1 = sn_system_u(sc.s);
    double a[NV_MAX], loops[NV_MAX], fr[NV_MAX], ct[NV_MAX];
    for (int v = 0; v < nv; v++)
        a[v] = u1[v] / 1e-3;
    SNT_STATUS_OK(sn_system_step_constraint_torques(sc.s, fr, ct, loops));
    double e = tc_rel_err(a, udot, nv, 1), ef = tc_rel_err(loops, f, nv, 1);
    printf("  four-bar at rest, one step of 1 ms: (u1 - u0)/dt = udot to %.3g, the loops' share = "
           "J^T lambda to %.3g (relative)\n",
           e, ef);
    // docs/loopid.md: udot to 9.5e-16, the loops' share to 6.1e-16 (asserted below 2e-14)
    SNT_CHECK(e < 2e-14 && ef < 2e-14);
    close_scene(&sc);
    return 0;
}

// every joint actuated: the minimum-norm tau has no part the loops could bear (J tau = 0), and
// is no larger than the crank-only one
static int test_fourbar_redundant(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, FOURBAR) == 0);
    const sn_model* m = sc.m;
    int nv = m->nv;
    int crank = m->joint_vadr[sn_model_find(m, SN_OBJ_JOINT, "crank_joint")];
    tc_seed(3);
    SNT_CHECK(random_manifold_state(&sc, 0.3, 2) == 0);
    double want = -4, tau[NV_MAX], tau1[NV_MAX], udot[NV_MAX];
    sn_loop_id_report r;
    SNT_STATUS_OK(
        sn_system_loop_inverse_dynamics(sc.s, &crank, 1, &want, NULL, 0, tau, NULL, udot, &r));
    SNT_CHECK(r.redundancy == nv - 1);
    // without ind_dofs the independent DOFs are the actuated ones (all nv here), and n_ind must
    // count udot_ind's entries: one entry is refused before more are read
    SNT_CHECK(sn_system_loop_inverse_dynamics(sc.s, NULL, 1, &want, NULL, 0, tau, NULL, udot,
                                              NULL) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(sc.w), "one per actuated DOF"));
    SNT_STATUS_OK(
        sn_system_loop_inverse_dynamics(sc.s, &crank, 1, &want, &crank, 1, tau1, NULL, NULL, NULL));
    double fe, e = recover(&sc, tau, udot, &fe);
    // J tau via the forward solve's rows: tau orthogonal to J^T lambda for every lambda means
    // tau . (tau1 - tau) = 0 (tau1 - tau is a loop force: both produce udot)
    double dot = 0, n0 = 0, n1 = 0;
    for (int v = 0; v < nv; v++) {
        dot += tau[v] * (tau1[v] - tau[v]);
        n0 += tau[v] * tau[v];
        n1 += tau1[v] * tau1[v];
    }
    printf("  four-bar, 3 actuated joints: |tau| %.6g N m (crank alone %.6g), tau . (tau_crank - "
           "tau) = %.3g, udot recovered to %.3g\n",
           sqrt(n0), sqrt(n1), dot, e);
    // docs/loopid.md: tau . (tau_crank - tau) = -2.8e-17, udot back to 1.4e-14 (asserted below
    // 1e-15 |tau_crank|^2 and 5e-13)
    SNT_CHECK(e < 5e-13 && fe < 1e-9);
    SNT_CHECK(fabs(dot) < 1e-15 * n1 && sqrt(n0) <= sqrt(n1));
    close_scene(&sc);
    return 0;
}

// the floating chassis (6 DOFs) and the crank are independent and driven (the chassis by a
// virtual wrench); the crank alone cannot move the chassis: SN_ERR_UNREACHED
static int test_strandbeest(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, BEEST) == 0);
    const sn_model* m = sc.m;
    int nv = m->nv;
    SNT_CHECK(nv <= NV_MAX && sn_system_loop_row_count(sc.s) <= NR_MAX);
    int crank = m->joint_vadr[sn_model_find(m, SN_OBJ_JOINT, "crank_joint")];
    int ind[7] = {0, 1, 2, 3, 4, 5, crank};
    tc_seed(7);
    double worst = 0, worst_f = 0;
    sn_loop_id_report r;
    for (int trial = 0; trial < 3; trial++) {
        SNT_CHECK(random_manifold_state(&sc, 0.02, 1) == 0);
        double want[7], tau[NV_MAX], udot[NV_MAX], lam[NR_MAX];
        for (int i = 0; i < 7; i++)
            want[i] = tc_uniform(-5, 5);
        SNT_STATUS_OK(
            sn_system_loop_inverse_dynamics(sc.s, ind, 7, want, ind, 7, tau, lam, udot, &r));
        SNT_CHECK(r.mobility == 7 && r.actuation_rank == 7);
        double fe, e = recover(&sc, tau, udot, &fe);
        worst = fmax(worst, e);
        worst_f = fmax(worst_f, fe);
        if (trial == 0)
            printf("  Strandbeest: %d rows, rank %d, mobility %d, crank torque %.6g N m, |Jdot u| "
                   "%.3g\n",
                   r.rows, r.rank, r.mobility, tau[crank], r.jdot_u_norm);
        // the crank alone: underactuated
        double tau2[NV_MAX];
        sn_status st =
            sn_system_loop_inverse_dynamics(sc.s, ind, 7, want, &crank, 1, tau2, NULL, NULL, &r);
        SNT_CHECK(st == SN_ERR_UNREACHED && strstr(sn_world_last_error(sc.w), "act_dofs"));
        SNT_CHECK(r.force_residual > 1e-3 && isfinite(tau2[crank]));
        if (trial == 0)
            printf("  crank alone: %s, force residual %.3g (%s)\n", sn_status_str(st),
                   r.force_residual, sn_world_last_error(sc.w));
    }
    printf("  Strandbeest, 3 states: udot recovered to %.3g, J^T lambda to %.3g (relative)\n",
           worst, worst_f);
    // docs/loopid.md: udot back to 1.3e-14, J^T lambda to 1.5e-13 (asserted below 5e-13, 3e-12)
    SNT_CHECK(worst < 5e-13 && worst_f < 3e-12);
    close_scene(&sc);
    return 0;
}

// the largest open distance of the Minitaur's toe pins over all three directions (the named
// ones, not only those the step keeps)
static double pins_open(scene* sc) {
    double rms = 0, worst = 0;
    if (sn_system_loop_error(sc->s, &rms, &worst) != SN_OK) return INFINITY;
    return worst;
}

// the Minitaur file with its angles written out in full (it writes pi/2 as 1.57075 and pi as
// 3.141592): the legs' hinge axes are then exactly parallel. NULL if unreadable
static sn_model* load_minitaur_exact(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    static char in[1 << 16], out[1 << 17];
    size_t n = fread(in, 1, sizeof in - 1, f);
    fclose(f);
    in[n] = 0;
    size_t o = 0;
    for (size_t i = 0; i < n && o + 32 < sizeof out;) {
        const char* rep = NULL;
        size_t skip = 0;
        if (strncmp(in + i, "1.57075", 7) == 0 && !isdigit((unsigned char)in[i + 7]))
            rep = "1.5707963267948966", skip = 7;
        else if (strncmp(in + i, "3.141592", 8) == 0 && !isdigit((unsigned char)in[i + 8]))
            rep = "3.141592653589793", skip = 8;
        if (rep) {
            o += (size_t)snprintf(out + o, sizeof out - o, "%s", rep);
            i += skip;
        } else {
            out[o++] = in[i++];
        }
    }
    out[o] = 0;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char* slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    sn_model* m = NULL;
    sn_status st =
        sn_load_urdf_string(out, o, "minitaur_exact.urdf", slash ? dir : NULL, NULL, &m, NULL);
    return st == SN_OK ? m : NULL;
}

// Minitaur (shared model, four five-bar legs closed at the toes by pins): the floating base and
// the 8 motors independent and actuated (the base by a virtual wrench). The step keeps two
// directions of each pin (the out-of-plane one is held by the legs' hinges to 1e-3 of the rows'
// size), and so do the loops' dynamics: 12 rows, rank 8, mobility 14
static int test_minitaur(void) {
    const char* path = tc_model_path("raisim_minitaur/minitaur.urdf");
    if (!path) {
        printf("  ../shared/models absent\n");
        return SNT_SKIP;
    }
    double open_file = 0, open_square = 0;
    for (int squared = 0; squared < 2; squared++) {
        scene sc;
        if (squared) {
            memset(&sc, 0, sizeof sc);
            sc.m = load_minitaur_exact(path);
            SNT_CHECK(sc.m && tc_world_open(sc.m, 1e-3, &sc.w, &sc.s) == SN_OK);
        } else {
            SNT_CHECK(open_scene(&sc, path) == 0);
        }
        const sn_model* m = sc.m;
        SNT_CHECK(m->nv <= NV_MAX && sn_system_loop_row_count(sc.s) == 12);
        int ind[NV_MAX], n_ind = 0;
        for (int v = 0; v < 6; v++)
            ind[n_ind++] = v;
        for (int j = 0; j < m->njoint; j++)
            if (strstr(sn_model_name(m, SN_OBJ_JOINT, j), "motor") && m->joint_nv[j] == 1)
                ind[n_ind++] = m->joint_vadr[j];
        SNT_CHECK(n_ind == 14);
        for (int c = 0; c < m->nconstraint; c++) {
            int n = 0;
            SNT_STATUS_OK(sn_system_constraint_directions(sc.s, c, &n));
            SNT_CHECK(n == 2);
        }
        tc_seed(13);
        double worst = 0, worst_f = 0, *open = squared ? &open_square : &open_file;
        for (int trial = 0; trial < 5; trial++) {
            SNT_CHECK(random_manifold_state(&sc, 0.1, 2) == 0);
            *open = fmax(*open, pins_open(&sc));
            double want[NV_MAX], tau[NV_MAX], udot[NV_MAX], lam[NR_MAX];
            for (int i = 0; i < n_ind; i++)
                want[i] = tc_uniform(-5, 5);
            sn_loop_id_report r;
            SNT_STATUS_OK(sn_system_loop_inverse_dynamics(sc.s, ind, n_ind, want, ind, n_ind, tau,
                                                          lam, udot, &r));
            SNT_CHECK(r.rows == 12 && r.rank == 8 && r.mobility == 14 && r.actuation_rank == 14);
            for (int i = 0; i < n_ind; i++)
                SNT_CHECK(udot[ind[i]] == want[i]);
            // the dropped directions carry no force
            for (int c = 0; c < 4; c++)
                SNT_CHECK(lam[3 * c + 2] == 0);
            double fe, e = recover(&sc, tau, udot, &fe);
            worst = fmax(worst, e);
            worst_f = fmax(worst_f, fe);
            if (trial == 0 && !squared)
                printf("  Minitaur: %d rows, rank %d, mobility %d, front right motors %.4g and "
                       "%.4g N m, |Jdot u| %.3g\n",
                       r.rows, r.rank, r.mobility, tau[ind[6]], tau[ind[7]], r.jdot_u_norm);
        }
        printf("  Minitaur (%s), 5 states: udot recovered to %.3g, J^T lambda to %.3g "
               "(relative); pins open by up to %.3g m\n",
               squared ? "angles in full" : "as the file has it", worst, worst_f, *open);
        // docs/loopid.md: udot 8.3e-14, J^T lambda 3.3e-14; in full 9.7e-14, 6.0e-14 (asserted
        // below 2e-12 and 1e-12)
        SNT_CHECK(worst < 2e-12 && worst_f < 1e-12);
        if (!squared) {
            // at rest, one step of 1 ms (loop feedback off) accelerates as the loops' dynamics:
            // the step drops the same directions
            double zero[NV_MAX] = {0}, want[NV_MAX], tau[NV_MAX], udot[NV_MAX], a[NV_MAX];
            SNT_STATUS_OK(sn_system_set_u(sc.s, zero, m->nv));
            SNT_STATUS_OK(sn_world_set_loop_erp(sc.w, 0));
            for (int i = 0; i < n_ind; i++)
                want[i] = tc_uniform(-5, 5);
            SNT_STATUS_OK(sn_system_loop_inverse_dynamics(sc.s, ind, n_ind, want, ind, n_ind, tau,
                                                          NULL, udot, NULL));
            SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, tau, m->nv));
            SNT_STATUS_OK(sn_world_integrate(sc.w));
            for (int v = 0; v < m->nv; v++)
                a[v] = sn_system_u(sc.s)[v] / 1e-3;
            double e = tc_rel_err(a, udot, m->nv, 1);
            printf("  Minitaur at rest, one step of 1 ms: (u1 - u0)/dt = udot to %.3g\n", e);
            SNT_CHECK(e < 1e-12); // docs/loopid.md: 5.7e-14 (asserted below 1e-12)
        }
        close_scene(&sc);
    }
    // the file's legs are not quite planar: moved off the nominal pose, their toes' out-of-plane
    // misfit (which no hinge can close: the step drops it) is about the misalignment (4.6e-5
    // rad) times the motion; with the angles in full they close to rounding
    // docs/loopid.md: 2.7e-7 m apart, 1.4e-16 m with the angles in full (asserted below 3e-15)
    SNT_NEAR(open_file, 2.7e-7, 0.1e-7);
    SNT_CHECK(open_square < 3e-15);
    return 0;
}

// the platform's rotation away from the base's axes (its frame is parallel to the world's at
// q = 0): |R - I| / sqrt 2, about the angle
static double platform_turn(scene* sc) {
    sn_data* d = sn_system_data(sc->s);
    sn_fk(sc->m, d);
    int b = sc->m->frame_body[sn_model_find(sc->m, SN_OBJ_FRAME, "platform")];
    const double* R = d->body_rot + 9 * b;
    double e = 0;
    for (int i = 0; i < 9; i++)
        e += (R[i] - (i % 4 == 0)) * (R[i] - (i % 4 == 0));
    return sqrt(e / 2);
}

// the 3-RUU delta (models/delta.urdf, scripts/make_delta.py): the three base hinges independent
// and actuated; 12 rows (two pins on each closing hinge), rank 10, mobility 3. The platform only
// translates: at every assembled state its frame stays parallel to the base's
static int test_delta(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, DELTA) == 0);
    const sn_model* m = sc.m;
    int nv = m->nv, base[3];
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "base%d", i + 1);
        int j = sn_model_find(m, SN_OBJ_JOINT, name);
        SNT_CHECK(j >= 0);
        base[i] = m->joint_vadr[j];
    }
    double rms = 1, wst = 1;
    SNT_STATUS_OK(sn_system_loop_error(sc.s, &rms, &wst));
    printf("  delta at nominal_config: pins open by %.3g m, platform turned %.3g rad\n", wst,
           platform_turn(&sc));
    SNT_CHECK(wst < 1e-15 && platform_turn(&sc) < 1e-15);
    tc_seed(17);
    double worst = 0, worst_f = 0, turn = 0;
    for (int trial = 0; trial < 10; trial++) {
        SNT_CHECK(random_manifold_state(&sc, 0.2, 2) == 0);
        turn = fmax(turn, platform_turn(&sc));
        double want[3], tau[NV_MAX], udot[NV_MAX], lam[NR_MAX];
        for (int i = 0; i < 3; i++)
            want[i] = tc_uniform(-20, 20);
        sn_loop_id_report r;
        SNT_STATUS_OK(
            sn_system_loop_inverse_dynamics(sc.s, base, 3, want, base, 3, tau, lam, udot, &r));
        SNT_CHECK(r.rows == 12 && r.rank == 10 && r.mobility == 3 && r.actuation_rank == 3);
        for (int v = 0; v < nv; v++)
            SNT_CHECK(v == base[0] || v == base[1] || v == base[2] || tau[v] == 0);
        double fe, e = recover(&sc, tau, udot, &fe);
        worst = fmax(worst, e);
        worst_f = fmax(worst_f, fe);
        if (trial == 0)
            printf("  delta: %d rows, rank %d, mobility %d, base torques %.4g %.4g %.4g N m, "
                   "|Jdot u| %.3g\n",
                   r.rows, r.rank, r.mobility, tau[base[0]], tau[base[1]], tau[base[2]],
                   r.jdot_u_norm);
    }
    printf("  delta, 10 states: udot recovered to %.3g, J^T lambda to %.3g (relative); platform "
           "turned by up to %.3g rad\n",
           worst, worst_f, turn);
    // docs/loopid.md: udot 1.0e-14, J^T lambda 3.5e-15, the platform turned 9.4e-14 rad
    // (asserted below 2e-13, 1e-13, 2e-12)
    SNT_CHECK(worst < 2e-13 && worst_f < 1e-13);
    SNT_CHECK(turn < 2e-12);
    close_scene(&sc);
    return 0;
}

// computed-torque control of the delta through the loop inverse dynamics: 0.5 s of the world's
// step at 1 ms, the base hinges following A (1 - cos 2 pi t) from rest (A = 0.2, -0.1, 0.15 rad)
// with a PD correction; the hinges track, the loops stay closed and the platform does not turn
static int test_delta_tracks(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, DELTA) == 0);
    const sn_model* m = sc.m;
    int nv = m->nv, base[3];
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "base%d", i + 1);
        base[i] = m->joint_vadr[sn_model_find(m, SN_OBJ_JOINT, name)];
    }
    double dt = 1e-3, kp = 400, kd = 40, track = 0, closure = 0, turn = 0;
    for (int k = 0; k < 500; k++) {
        double t = k * dt, want[3], tau[NV_MAX];
        const double* q = sn_system_q(sc.s);
        const double* u = sn_system_u(sc.s);
        for (int i = 0; i < 3; i++) {
            double w = 2 * M_PI, amp = (0.2, i == 0 ? 0.2 : i == 1 ? -0.1 : 0.15);
            double r = amp * (1 - cos(w * t)), rd = amp * w * sin(w * t);
            double rdd = amp * w * w * cos(w * t);
            int v = base[i];
            track = fmax(track, fabs(q[m->joint_qadr[m->dof_joint[v]]] - r));
            want[i] = rdd + kp * (r - q[m->joint_qadr[m->dof_joint[v]]]) + kd * (rd - u[v]);
        }
        SNT_STATUS_OK(
            sn_system_loop_inverse_dynamics(sc.s, base, 3, want, base, 3, tau, NULL, NULL, NULL));
        SNT_STATUS_OK(sn_system_set_generalized_force(sc.s, tau, nv));
        SNT_STATUS_OK(sn_world_integrate(sc.w));
        double rms, wst;
        SNT_STATUS_OK(sn_system_loop_error(sc.s, &rms, &wst));
        closure = fmax(closure, wst);
        turn = fmax(turn, platform_turn(&sc));
    }
    printf(
        "  delta, 0.5 s of computed-torque control at 1 ms: base hinges within %.3g rad of their "
        "paths, pins open by up to %.3g m, platform turned by up "
        "to %.3g rad\n",
        track, closure, turn);
    // docs/loopid.md: within 3.0e-4 rad, pins 2.1e-7 m, platform 5.9e-16 rad (asserted below
    // 6e-4, 5e-7, 1e-14)
    SNT_CHECK(track < 6e-4 && closure < 5e-7 && turn < 1e-14);
    close_scene(&sc);
    return 0;
}

// one step of 1 ms from rest with the loops' feedback off: (u1 - u0)/dt against udot (relative)
static double step_at_rest(scene* sc, const double* udot) {
    int nv = sc->m->nv;
    if (sn_world_set_loop_erp(sc->w, 0) != SN_OK || sn_world_integrate(sc->w) != SN_OK) return 1;
    double a[NV_MAX];
    for (int v = 0; v < nv; v++)
        a[v] = sn_system_u(sc->s)[v] / 1e-3;
    return tc_rel_err(a, udot, nv, 1);
}

// the delta's own actuators (gear 10 on each base hinge): their commands are the hinges' torques,
// the motors' torques a tenth of them, and the step from rest under them accelerates as asked
static int test_delta_actuators(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, DELTA) == 0);
    const sn_model* m = sc.m;
    int nv = m->nv, base[3];
    SNT_CHECK(sn_system_actuator_count(sc.s) == 3);
    for (int i = 0; i < 3; i++)
        base[i] = m->joint_vadr[m->actuator_joint[i]];
    tc_seed(19);
    SNT_CHECK(random_manifold_state(&sc, 0.2, 0) == 0);
    double want[3] = {4, -7, 2.5}, cmd[3], tau[NV_MAX], tau1[NV_MAX], udot[NV_MAX], udot1[NV_MAX];
    sn_loop_id_report r;
    SNT_STATUS_OK(sn_system_loop_inverse_dynamics_actuators(sc.s, NULL, 3, want, cmd, 3, tau, NULL,
                                                            udot, &r));
    SNT_CHECK(r.mobility == 3 && r.actuation_rank == 3 && r.redundancy == 0);
    SNT_STATUS_OK(
        sn_system_loop_inverse_dynamics(sc.s, base, 3, want, base, 3, tau1, NULL, udot1, NULL));
    double e_cmd = 0;
    for (int i = 0; i < 3; i++)
        e_cmd = fmax(e_cmd, fabs(cmd[i] - tau1[base[i]]) / fabs(tau1[base[i]]));
    SNT_CHECK(e_cmd < 1e-12 && tc_rel_err(udot, udot1, nv, 1) < 1e-12);
    SNT_STATUS_OK(sn_system_set_actuator_torques(sc.s, cmd, 3));
    double e = step_at_rest(&sc, udot);
    sn_actuator_state as[3];
    SNT_STATUS_OK(sn_system_actuator_states(sc.s, as, 3));
    printf(
        "  delta's actuators: commands %.6g %.6g %.6g N m (= the hinges' torques to %.2g), motor "
        "torques %.6g %.6g %.6g N m; the step from rest gives udot to %.3g\n",
        cmd[0], cmd[1], cmd[2], e_cmd, as[0].motor_torque, as[1].motor_torque, as[2].motor_torque,
        e);
    for (int i = 0; i < 3; i++)
        SNT_NEAR(as[i].motor_torque, cmd[i] / 10, 1e-15);
    SNT_CHECK(e < 1e-11); // docs/loopid.md: udot to 1.2e-12 (asserted below 1e-11)
    close_scene(&sc);
    return 0;
}

// an actuator with a coupling on the four-bar (gear 5 on the crank, ratio 2 on the rocker: the
// command c puts c on the crank and 0.4 c on the rocker), and two actuators on one joint
// (redundant: the least-norm commands of equal columns are equal)
static int test_fourbar_coupled_actuator(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, FOURBAR) == 0);
    const sn_model* m = sc.m;
    int crank_j = sn_model_find(m, SN_OBJ_JOINT, "crank_joint");
    int crank = m->joint_vadr[crank_j];
    sn_actuator_desc d;
    memset(&d, 0, sizeof d);
    d.joint = crank_j;
    d.gear = 5;
    d.ncoupling = 1;
    d.coupling_joint[0] = sn_model_find(m, SN_OBJ_JOINT, "rocker_joint");
    d.coupling_ratio[0] = 2;
    SNT_STATUS_OK(sn_system_add_actuator(sc.s, &d, NULL));
    tc_seed(23);
    SNT_CHECK(random_manifold_state(&sc, 0.3, 0) == 0);
    double want = 6, cmd[2], tau[NV_MAX], udot[NV_MAX], fe;
    sn_loop_id_report r;
    SNT_STATUS_OK(sn_system_loop_inverse_dynamics_actuators(sc.s, NULL, 1, &want, cmd, 1, tau, NULL,
                                                            udot, &r));
    int rocker = m->joint_vadr[d.coupling_joint[0]];
    SNT_CHECK(udot[crank] == want && tau[crank] == cmd[0]);
    SNT_NEAR(tau[rocker], 0.4 * cmd[0], 1e-15 * fabs(cmd[0]));
    double e_fwd = recover(&sc, tau, udot, &fe);
    SNT_STATUS_OK(sn_system_set_actuator_torques(sc.s, cmd, 1));
    double e = step_at_rest(&sc, udot);
    printf("  four-bar, a coupled actuator: command %.6g N m; the forward solve gives udot to "
           "%.3g, the step from rest to %.3g\n",
           cmd[0], e_fwd, e);
    // docs/loopid.md: udot to 2.2e-15, the step 4.9e-15 (asserted below 5e-14 and 1e-13)
    SNT_CHECK(e_fwd < 5e-14 && fe < 1e-9 && e < 1e-13);
    // two more actuators on the crank, gear 2, no coupling: the mechanism's one DOF takes all
    // three (actuation rank 1, redundancy 2), and the least-norm commands of the two equal
    // columns are equal
    memset(&d, 0, sizeof d);
    d.joint = crank_j;
    d.gear = 2;
    SNT_STATUS_OK(sn_system_add_actuator(sc.s, &d, NULL));
    SNT_STATUS_OK(sn_system_add_actuator(sc.s, &d, NULL));
    double cmd3[3];
    SNT_STATUS_OK(sn_system_loop_inverse_dynamics_actuators(sc.s, NULL, 1, &want, cmd3, 3, tau,
                                                            NULL, udot, &r));
    printf("  three actuators: commands %.6g %.6g %.6g N m, redundancy %d\n", cmd3[0], cmd3[1],
           cmd3[2], r.redundancy);
    SNT_CHECK(r.redundancy == 2 && r.actuation_rank == 1);
    SNT_NEAR(cmd3[1], cmd3[2], 1e-12 * fabs(cmd3[1]));
    SNT_CHECK(recover(&sc, tau, udot, &fe) < 1e-9);
    SNT_CHECK(sn_system_loop_inverse_dynamics_actuators(sc.s, NULL, 0, &want, cmd3, 2, tau, NULL,
                                                        NULL, NULL) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(sc.w), "3 actuators"));
    // without ind_dofs, udot_ind holds one entry per driven DOF (one here: the crank's), and
    // n_ind says so; another count is refused before udot_ind is read
    for (int n_ind = 0; n_ind <= 2; n_ind += 2) {
        SNT_CHECK(sn_system_loop_inverse_dynamics_actuators(sc.s, NULL, n_ind, &want, cmd3, 3, tau,
                                                            NULL, NULL, NULL) == SN_ERR_ARG);
        SNT_CHECK(strstr(sn_world_last_error(sc.w), "one per driven DOF (1)"));
    }
    SNT_CHECK(sn_system_loop_inverse_dynamics_actuators(sc.s, NULL, 0, &want, NULL, 3, tau, NULL,
                                                        NULL, NULL) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(sc.w), "command_out"));
    close_scene(&sc);
    return 0;
}

static int refused(sn_world* w, sn_status st, const char* word) {
    printf("    %s: %s\n", sn_status_str(st), sn_world_last_error(w));
    return st == SN_ERR_ARG && strstr(sn_world_last_error(w), word) != NULL;
}

static int test_refusals(void) {
    scene sc;
    SNT_CHECK(open_scene(&sc, FOURBAR) == 0);
    int nv = sc.m->nv;
    double tau[NV_MAX], a = 1, bad = NAN;
    int dof = 0, twice[2] = {0, 0}, out = nv;
    for (int v = 0; v < nv; v++)
        tau[v] = 9;
    SNT_CHECK(refused(
        sc.w, sn_system_loop_inverse_dynamics(sc.s, &out, 1, &a, NULL, 0, tau, NULL, NULL, NULL),
        "ind_dofs[0]"));
    SNT_CHECK(refused(
        sc.w, sn_system_loop_inverse_dynamics(sc.s, twice, 2, &a, NULL, 0, tau, NULL, NULL, NULL),
        "repeated"));
    SNT_CHECK(refused(
        sc.w, sn_system_loop_inverse_dynamics(sc.s, &dof, 1, &bad, NULL, 0, tau, NULL, NULL, NULL),
        "not finite"));
    SNT_CHECK(refused(
        sc.w, sn_system_loop_inverse_dynamics(sc.s, &dof, 1, NULL, NULL, 0, tau, NULL, NULL, NULL),
        "udot_ind"));
    SNT_CHECK(refused(
        sc.w, sn_system_loop_inverse_dynamics(sc.s, &dof, 1, &a, &dof, -1, tau, NULL, NULL, NULL),
        "act_dofs"));
    SNT_CHECK(refused(
        sc.w, sn_system_loop_inverse_dynamics(sc.s, &dof, 1, &a, NULL, 0, NULL, NULL, NULL, NULL),
        "tau_out"));
    SNT_CHECK(
        refused(sc.w, sn_system_loop_forward_dynamics(sc.s, tau, nv + 1, tau, NULL, NULL), "nv"));
    SNT_CHECK(sn_system_loop_inverse_dynamics(NULL, &dof, 1, &a, NULL, 0, tau, NULL, NULL, NULL) ==
              SN_ERR_ARG);
    for (int v = 0; v < nv; v++)
        SNT_CHECK(tau[v] == 9); // untouched
    // no independent DOF: the mechanism is not fixed
    sn_status st =
        sn_system_loop_inverse_dynamics(sc.s, &dof, 0, NULL, NULL, 0, tau, NULL, NULL, NULL);
    printf("    %s: %s\n", sn_status_str(st), sn_world_last_error(sc.w));
    SNT_CHECK(st == SN_ERR_SINGULAR);
    SNT_CHECK(sn_system_loop_row_count(NULL) == -1);
    close_scene(&sc);
    return 0;
}

SNT_SUITE(SNT_TEST(test_fourbar), SNT_TEST(test_fourbar_step), SNT_TEST(test_fourbar_redundant),
          SNT_TEST(test_strandbeest), SNT_TEST(test_minitaur), SNT_TEST(test_delta),
          SNT_TEST(test_delta_tracks), SNT_TEST(test_delta_actuators),
          SNT_TEST(test_fourbar_coupled_actuator), SNT_TEST(test_refusals))
