// SPDX-License-Identifier: Apache-2.0
// scenario.c: the four scenarios (scenario.h). The initial configurations are NOTES.md's.
#include "scenario.h"

#include <stdio.h>
#include <string.h>

#define SOLO_URDF "erd_solo/robots/solo12_f15b08f_2020-04-28.urdf"
#define ROMEO_URDF "tsid_romeo/urdf/romeo.urdf"
#define REFS "consim_expo/references"

// solo-squat's q0 and romeo-walk's (Pinocchio's coordinates; NOTES.md)
const double expo_solo_q0[19] = {
    6.05e-07,   -8.3e-08, 0.222995532,  1.87e-07,   5.332e-06, 0,
    1,          0,        -0.799754095, 1.59949229, 0,         -0.799755961,
    1.59949602, 0,        -0.79978118,  1.59954646, 0,         -0.799783045,
    1.59955019};
const double expo_romeo_q0[38] = {
    0.00177419,  -0.1251169,  0.83188183,  0.05974107, -0.08040491, -0.00156147, 0.99496915,
    -0.01535875, 0.05381089,  -0.10748789, 0.56064738, -0.29206673, -0.17498292, -0.01281118,
    0.0595096,   -0.20841122, 0.7778542,   -0.4078741, -0.18009467, -0.00295487, 1.5818541,
    -0.03336266, -7.193e-05,  -0.00925854, -7.783e-05, -0.00077116, -4.436e-05,  -3.071e-05,
    0.00262859,  0.00611336,  1.231e-05,   1.5842379,  0.02881547,  6.8e-05,     0.00799211,
    -5.117e-05,  0.00080979,  0.00048224};

static void set_points(expo_scenario* sc, int romeo) {
    if (romeo) {
        sc->npoint = 8;
        for (int i = 0; i < 8; i++) {
            snprintf(sc->point[i].link, sizeof sc->point[i].link, "%s",
                     i < 4 ? "r_ankle" : "l_ankle");
            sc->point[i].pos[0] = (i & 1) ? 0.10 : -0.05;
            sc->point[i].pos[1] = (i & 2) ? 0.05 : -0.05;
            sc->point[i].pos[2] = -0.07;
        }
    } else {
        const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
        sc->npoint = 4;
        for (int i = 0; i < 4; i++) {
            snprintf(sc->point[i].link, sizeof sc->point[i].link, "%s", feet[i]);
            memset(sc->point[i].pos, 0, sizeof sc->point[i].pos);
        }
    }
}

int expo_scenario_open(expo_scenario* sc, const char* name, const char* shared_dir,
                       expo_collide collide, char err[EXPO_ERR_LEN]) {
    memset(sc, 0, sizeof *sc);
    if (!name || !shared_dir) {
        snprintf(err, EXPO_ERR_LEN, "scenario: no name or no shared folder");
        return -1;
    }
    int trot = strcmp(name, "trot") == 0, jump = strcmp(name, "jump") == 0;
    int squat = strcmp(name, "squat") == 0, walk = strcmp(name, "walk") == 0;
    if (!trot && !jump && !squat && !walk) {
        snprintf(err, EXPO_ERR_LEN, "unknown scenario '%.40s' (trot, jump, squat, walk)", name);
        return -1;
    }
    snprintf(sc->name, sizeof sc->name, "%s", name);
    set_points(sc, walk);
    char urdf[1024], refs[1024], npz[1100];
    snprintf(urdf, sizeof urdf, "%.900s/models/%s", shared_dir, walk ? ROMEO_URDF : SOLO_URDF);
    snprintf(refs, sizeof refs, "%.900s/models/%s", shared_dir, REFS);
    snprintf(npz, sizeof npz, "%s/romeo_walking_traj_tsid.npz", refs);
    int rc;
    if (collide == EXPO_COLLIDE_POINTS) {
        const char* links[EXPO_MAX_POINTS];
        double pts[EXPO_MAX_POINTS][3];
        for (int i = 0; i < sc->npoint; i++) {
            links[i] = sc->point[i].link;
            memcpy(pts[i], sc->point[i].pos, sizeof pts[i]);
            if (walk) pts[i][2] += 1e-3; // the sphere's bottom on the sole point
        }
        rc = expo_robot_load_spheres(urdf, links, (const double(*)[3])pts, sc->npoint, 1e-3, 1,
                                     &sc->robot, err);
    } else {
        rc = expo_robot_load(urdf, &sc->robot, err);
    }
    if (rc != 0) return -1;
    if (trot || jump) {
        sc->dt = trot ? 0.002 : 0.01;
        sc->fb = expo_feedback_create(&sc->robot, refs, name, 0.01, trot ? -15.37e-3 : -1e-6, err);
        if (sc->fb) {
            sc->ctl = &sc->fb->base;
            sc->duration = sc->fb->n * 0.01;
        }
    } else if (squat) {
        sc->dt = 0.04;
        sc->duration = 4.0;
        sc->id = expo_id_create_squat(&sc->robot, expo_solo_q0, sc->duration, err);
        sc->ctl = expo_id_controller(sc->id);
    } else {
        sc->dt = 0.04;
        sc->id = expo_id_create_walk(&sc->robot, npz, expo_romeo_q0, 1.5, err);
        sc->ctl = expo_id_controller(sc->id);
        if (sc->id) sc->duration = expo_id_duration(sc->id);
    }
    if (!sc->ctl) {
        expo_robot_free(&sc->robot);
        memset(sc, 0, sizeof *sc);
        return -1;
    }
    return 0;
}

void expo_scenario_reference(const expo_scenario* sc, double t, double* q, double* u) {
    if (sc->fb) {
        double qp[7 + EXPO_MAX_JOINTS], vp[6 + EXPO_MAX_JOINTS];
        expo_feedback_reference(sc->fb, t, qp, vp);
        expo_q_pin_to_sn(&sc->robot, qp, q);
        expo_v_pin_to_sn(&sc->robot, qp, vp, u);
    } else {
        expo_id_reference(sc->id, t, q, u, NULL);
    }
}

void expo_scenario_close(expo_scenario* sc) {
    if (!sc) return;
    expo_controller_destroy(sc->ctl);
    expo_robot_free(&sc->robot);
    memset(sc, 0, sizeof *sc);
}
