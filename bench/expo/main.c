// SPDX-License-Identifier: Apache-2.0
// sinew_expo: the Expo paper's scenarios (../shared/models/consim_expo/NOTES.md).
//
// usage: sinew_expo smoke [SCENARIO] [SECONDS]
//            a scenario (trot: the default; jump; squat; walk) under its controller on sinew's
//            hard contacts (only the paper's contact points, as 1 mm spheres: Solo12's FOOT
//            frames, Romeo's 8 sole points; EXPO_MESHES=1 keeps Solo12's meshes instead;
//            friction 1; no torque bound) at the paper's control dt (trot 2 ms, jump 10 ms,
//            squat and walk 40 ms), SECONDS (3) long: plumbing only, the paper's runs use the
//            soft contacts (later). Prints the tracking error of the base height and joints.
//        sinew_expo info               the data files' shapes and the robots' joint orders
//        sinew_expo error SCENARIO [--method M[,M...]] [--csv FILE] [--seconds T] [--k K]
//                   [--zeta Z] [--dt DT] [--repeat R]
//            on the soft contacts (experiments.h): each method's local error against its own
//            ground truth (A.14), n_dt = 2^i sub-steps, the sub-step's time and the real-time
//            factor. M: expo0 .. expo4, expo, euler, rk4, implicit_euler (default: expo0, expo2,
//            expo4, expo, euler, rk4, implicit_euler); T the horizon (default the scenario's);
//            K the stiffness (1e5), Z the damping ratio B / (2 sqrt(K m / points)) (default
//            B 300); DT the control step (the scenario's); R passes timed per point, the
//            median sub-step time reported (1 .. 9, default 1; the errors are the same).
//        sinew_expo stability SCENARIO [the same options]
//            closed loop, no reset: the largest stable sub-step per method (Table II)
//        sinew_expo figures [--quick] [--out DIR]
//            all of it: CSV, a markdown Table II and (with gnuplot) fig2/fig3/fig4.png in DIR
//            (default docs/expo)
//        sinew_expo summary [--out DIR]
//            DIR/summary.md again from DIR/error_*.csv (the two claims' comparisons, no runs)
// SINEW_SHARED overrides the location of ../shared; EXPO_DT the smoke run's step, EXPO_EVERY
// the steps between its printed lines.
#include "controller.h"
#include "figures.h"
#include "id.h"
#include "npy.h"
#include "robot.h"
#include "scenario.h"
#include "sinew/sn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef EXPO_SHARED_DIR
#define EXPO_SHARED_DIR "../shared"
#endif

static const char* shared_dir(void) {
    const char* e = getenv("SINEW_SHARED");
    return e && *e ? e : EXPO_SHARED_DIR;
}

static void path_of(char* out, size_t n, const char* rel) {
    snprintf(out, n, "%s/models/%s", shared_dir(), rel);
}

#define SOLO_URDF "erd_solo/robots/solo12_f15b08f_2020-04-28.urdf"
#define ROMEO_URDF "tsid_romeo/urdf/romeo.urdf"
#define REFS "consim_expo/references"

static int cmd_info(void) {
    char p[1024], err[EXPO_ERR_LEN];
    const char* files[] = {"trot_reference_states", "trot_reference_controls", "trot_feedback",
                           "jump_reference_states", "jump_reference_controls", "jump_feedback"};
    for (int i = 0; i < 6; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, REFS "/%s.npy", files[i]);
        path_of(p, sizeof p, rel);
        expo_array a;
        if (expo_npy_read(p, &a, err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        printf("%-26s (", files[i]);
        for (int d = 0; d < a.ndim; d++)
            printf("%s%ld", d ? ", " : "", a.shape[d]);
        printf(")\n");
        expo_array_free(&a);
    }
    path_of(p, sizeof p, REFS "/romeo_walking_traj_tsid.npz");
    expo_npz z;
    if (expo_npz_open(p, &z, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (int i = 0; i < z.nmember; i++) {
        expo_array a;
        if (expo_npz_get(&z, z.member[i].name, &a, err) != 0) {
            fprintf(stderr, "%s\n", err);
            expo_npz_close(&z);
            return 1;
        }
        printf("romeo %-20s (", z.member[i].name);
        for (int d = 0; d < a.ndim; d++)
            printf("%s%ld", d ? ", " : "", a.shape[d]);
        printf(")%s\n", a.str ? " strings" : "");
        expo_array_free(&a);
    }
    expo_npz_close(&z);
    const char* urdfs[2] = {SOLO_URDF, ROMEO_URDF};
    for (int i = 0; i < 2; i++) {
        expo_robot r;
        path_of(p, sizeof p, urdfs[i]);
        if (expo_robot_load(p, &r, err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        printf("%s: nq %d nv %d; Pinocchio's joint order (sinew's index):", urdfs[i], r.nq, r.nv);
        for (int k = 0; k < r.nj; k++)
            printf(" %s(%d)", expo_robot_pin_joint_name(&r, k), r.pin_to_sn[k]);
        printf("\n");
        expo_robot_free(&r);
    }
    return 0;
}

static int cmd_smoke(const char* name, double seconds) {
    char err[EXPO_ERR_LEN];
    expo_scenario sc;
    expo_collide col = getenv("EXPO_MESHES") ? EXPO_COLLIDE_URDF : EXPO_COLLIDE_POINTS;
    if (expo_scenario_open(&sc, name, shared_dir(), col, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (seconds > sc.duration + 1e-9)
        printf("%s: the reference ends at %.2f s and is held after\n", name, sc.duration);
    expo_robot* r = &sc.robot;
    const double dt =
        getenv("EXPO_DT") && atof(getenv("EXPO_DT")) > 0 ? atof(getenv("EXPO_DT")) : sc.dt;
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.timestep = dt;
    sn_world* w = NULL;
    sn_system* s = NULL;
    int rc = 1;
    if (sn_world_create(&wo, &w, NULL) != SN_OK ||
        sn_world_add_system(w, r->m, &s, NULL) != SN_OK || sn_world_set_ground(w, 1, 0) != SN_OK ||
        sn_world_set_material(w, 1.0, 0, 0) != SN_OK) {
        fprintf(stderr, "smoke: world setup failed: %s\n", w ? sn_world_last_error(w) : "");
        goto done;
    }
    int nq = r->nq, nv = r->nv;
    double q[7 + EXPO_MAX_JOINTS], u[6 + EXPO_MAX_JOINTS], tau[6 + EXPO_MAX_JOINTS];
    double qr[7 + EXPO_MAX_JOINTS], ur[6 + EXPO_MAX_JOINTS];
    // the consim scripts apply no torque bound: lift the URDF's
    double lo[6 + EXPO_MAX_JOINTS], hi[6 + EXPO_MAX_JOINTS];
    for (int i = 0; i < nv; i++)
        lo[i] = -INFINITY, hi[i] = INFINITY;
    sn_system_set_actuation_limits(s, lo, hi, nv);
    expo_scenario_reference(&sc, 0, q, u);
    if (sn_system_set_state(s, q, nq, u, nv) != SN_OK) {
        fprintf(stderr, "smoke: %s\n", sn_world_last_error(w));
        goto done;
    }
    {
        // the lowest contact point of the paper (FOOT frames; Romeo: its soles) at the start
        sn_data* d = sn_system_data(s);
        double lowest = INFINITY;
        for (int f = 0; f < r->m->nframe; f++) {
            const char* fn = sn_model_name(r->m, SN_OBJ_FRAME, f);
            if (!strstr(fn, "FOOT") && !strstr(fn, "sole")) continue;
            double pos[3], rot[9];
            if (sn_fk(r->m, d) != SN_OK) break;
            sn_frame_pose(r->m, d, f, pos, rot);
            lowest = fmin(lowest, pos[2]);
        }
        printf("%s: lowest FOOT/sole frame at the start z = %.2f mm\n", name, 1e3 * lowest);
    }
    int steps = (int)lround(seconds / dt), every = (int)lround(0.5 / dt);
    if (getenv("EXPO_EVERY"))
        every = atoi(getenv("EXPO_EVERY")) > 0 ? atoi(getenv("EXPO_EVERY")) : every;
    double zmax = 0, zsq = 0, zsum = 0, jmax = 0, tmax = 0;
    printf("  t (s)   base z   ref z    dz (mm)  contacts\n");
    for (int k = 0; k <= steps; k++) {
        double t = k * dt;
        const double* qs = sn_system_q(s);
        const double* us = sn_system_u(s);
        expo_scenario_reference(&sc, t, qr, ur);
        double dz = qs[2] - qr[2];
        zmax = fmax(zmax, fabs(dz));
        zsq += dz * dz;
        zsum += dz;
        for (int j = 7; j < nq; j++)
            jmax = fmax(jmax, fabs(qs[j] - qr[j]));
        if (k % every == 0)
            printf("  %5.2f  %.4f   %.4f   %8.2f   %d\n", t, qs[2], qr[2], 1e3 * dz,
                   sn_system_contact_count(s));
        if (k == steps) break;
        if (expo_controller_torque(sc.ctl, t, qs, us, tau) != 0) {
            fprintf(stderr, "smoke: controller: %s\n", sc.ctl->err);
            goto done;
        }
        for (int i = 6; i < nv; i++)
            tmax = fmax(tmax, fabs(tau[i]));
        if (sn_system_set_generalized_force(s, tau, nv) != SN_OK ||
            sn_world_integrate(w) != SN_OK) {
            fprintf(stderr, "smoke: step %d failed: %s\n", k, sn_world_last_error(w));
            goto done;
        }
    }
    printf("%s on hard contacts, dt %.3f s, %.2f s: base height error max %.2f mm, mean %.2f mm, "
           "rms %.2f mm; joint error max %.3f rad; largest joint torque %.2f N m\n",
           name, dt, seconds, 1e3 * zmax, 1e3 * zsum / (steps + 1), 1e3 * sqrt(zsq / (steps + 1)),
           jmax, tmax);
    rc = 0;
done:
    sn_world_destroy(w);
    expo_scenario_close(&sc);
    return rc;
}

int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "info") == 0) return cmd_info();
    if (argc >= 2 && strcmp(argv[1], "smoke") == 0) {
        const char* name = argc >= 3 ? argv[2] : "trot";
        double sec = argc >= 4 ? atof(argv[3]) : 3.0;
        if (!(sec > 0 && sec <= 60)) {
            fprintf(stderr, "smoke: SECONDS must be in (0, 60]\n");
            return 2;
        }
        return cmd_smoke(name, sec);
    }
    if (argc >= 2 && strcmp(argv[1], "error") == 0)
        return expo_cmd_error(argc - 1, argv + 1, shared_dir());
    if (argc >= 2 && strcmp(argv[1], "stability") == 0)
        return expo_cmd_stability(argc - 1, argv + 1, shared_dir());
    if (argc >= 2 && strcmp(argv[1], "summary") == 0) return expo_cmd_summary(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "figures") == 0)
        return expo_cmd_figures(argc - 1, argv + 1, shared_dir());
    fprintf(stderr, "usage: sinew_expo smoke [trot|jump|squat|walk] [SECONDS] | info | error "
                    "SCENARIO [options] | stability SCENARIO [options] | figures [--quick] "
                    "[--out DIR] | summary [--out DIR]\n");
    return 2;
}
