// SPDX-License-Identifier: Apache-2.0
// sinew_expo: the Expo paper's scenarios (../shared/models/consim_expo/NOTES.md).
//
// usage: sinew_expo smoke [SECONDS]   solo-trot under its linear feedback on sinew's hard
//                                     contacts (dt 2 ms, friction 1): plumbing only; the
//                                     paper's runs use the soft contacts (later). Prints the
//                                     tracking error of the base height and of the joints.
//        sinew_expo info               the data files' shapes and the robots' joint orders
// SINEW_SHARED overrides the location of ../shared.
#include "controller.h"
#include "npy.h"
#include "robot.h"
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

static int cmd_smoke(double seconds) {
    char p[1024], refs[1024], err[EXPO_ERR_LEN];
    path_of(p, sizeof p, SOLO_URDF);
    path_of(refs, sizeof refs, REFS);
    expo_robot r;
    if (expo_robot_load(p, &r, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    expo_feedback* fb = expo_feedback_create(&r, refs, "trot", 0.01, -15.37e-3, err);
    if (!fb) {
        fprintf(stderr, "%s\n", err);
        expo_robot_free(&r);
        return 1;
    }
    const double dt = 0.002;
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.timestep = dt;
    sn_world* w = NULL;
    sn_system* s = NULL;
    int rc = 1;
    if (sn_world_create(&wo, &w, NULL) != SN_OK || sn_world_add_system(w, r.m, &s, NULL) != SN_OK ||
        sn_world_set_ground(w, 1, 0) != SN_OK || sn_world_set_material(w, 1.0, 0, 0) != SN_OK) {
        fprintf(stderr, "smoke: world setup failed: %s\n", w ? sn_world_last_error(w) : "");
        goto done;
    }
    int nq = r.nq, nv = r.nv;
    double q[7 + EXPO_MAX_JOINTS], u[6 + EXPO_MAX_JOINTS], tau[6 + EXPO_MAX_JOINTS];
    double qp[7 + EXPO_MAX_JOINTS], vp[6 + EXPO_MAX_JOINTS];
    // the consim scripts apply no torque bound: lift the URDF's
    double lo[6 + EXPO_MAX_JOINTS], hi[6 + EXPO_MAX_JOINTS];
    for (int i = 0; i < nv; i++)
        lo[i] = -INFINITY, hi[i] = INFINITY;
    sn_system_set_actuation_limits(s, lo, hi, nv);
    expo_feedback_reference(fb, 0, qp, vp);
    expo_q_pin_to_sn(&r, qp, q);
    expo_v_pin_to_sn(&r, qp, vp, u);
    if (sn_system_set_state(s, q, nq, u, nv) != SN_OK) {
        fprintf(stderr, "smoke: %s\n", sn_world_last_error(w));
        goto done;
    }
    {
        // where the contact points of the paper (the FOOT frames) start, against the ground
        const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
        sn_data* d = sn_system_data(s);
        printf("FOOT frames at the first reference state (base z shifted by -15.37 mm): z =");
        for (int i = 0; i < 4; i++) {
            double pos[3], rot[9];
            int fr = sn_model_find(r.m, SN_OBJ_FRAME, feet[i]);
            if (fr < 0 || sn_fk(r.m, d) != SN_OK) continue;
            sn_frame_pose(r.m, d, fr, pos, rot);
            printf(" %.2f", 1e3 * pos[2]);
        }
        printf(" mm\n");
    }
    int steps = (int)lround(seconds / dt);
    double zmax = 0, zsq = 0, jmax = 0, tmax = 0;
    printf("  t (s)   base z   ref z    |dz| (mm)  contacts\n");
    for (int k = 0; k <= steps; k++) {
        double t = k * dt;
        const double* qs = sn_system_q(s);
        const double* us = sn_system_u(s);
        expo_feedback_reference(fb, t, qp, vp);
        double dz = qs[2] - qp[2];
        zmax = fmax(zmax, fabs(dz));
        zsq += dz * dz;
        for (int j = 0; j < r.nj; j++)
            jmax = fmax(jmax, fabs(qs[7 + r.pin_to_sn[j]] - qp[7 + j]));
        if (k % 250 == 0)
            printf("  %5.2f  %.4f   %.4f   %8.2f   %d\n", t, qs[2], qp[2], 1e3 * fabs(dz),
                   sn_system_contact_count(s));
        if (k == steps) break;
        if (expo_controller_torque(&fb->base, t, qs, us, tau) != 0) {
            fprintf(stderr, "smoke: controller: %s\n", fb->base.err);
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
    printf("solo-trot on hard contacts, dt %.3f s, %.2f s: base height error max %.2f mm, rms "
           "%.2f mm; joint error max %.3f rad; largest joint torque %.2f N m\n",
           dt, seconds, 1e3 * zmax, 1e3 * sqrt(zsq / (steps + 1)), jmax, tmax);
    rc = 0;
done:
    sn_world_destroy(w);
    expo_controller_destroy(&fb->base);
    expo_robot_free(&r);
    return rc;
}

int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "info") == 0) return cmd_info();
    if (argc >= 2 && strcmp(argv[1], "smoke") == 0) {
        double sec = argc >= 3 ? atof(argv[2]) : 3.0;
        if (!(sec > 0 && sec <= 60)) {
            fprintf(stderr, "smoke: SECONDS must be in (0, 60]\n");
            return 2;
        }
        return cmd_smoke(sec);
    }
    fprintf(stderr, "usage: sinew_expo smoke [SECONDS] | info\n");
    return 2;
}
