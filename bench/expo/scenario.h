// SPDX-License-Identifier: Apache-2.0
// scenario.h: the four scenarios of the Expo paper, each with its robot, controller, control
// dt, length and contact points (../shared/models/consim_expo/NOTES.md), ready for a world.
//
//   name    robot    controller                      dt      length  contact points
//   trot    Solo12   linear feedback (z -15.37 mm)    2 ms    3.0 s   FL/FR/HL/HR_FOOT origins
//   jump    Solo12   linear feedback (z -1e-6 m)      10 ms   2.99 s  the same
//   squat   Solo12   inverse dynamics (id.h)          40 ms   4.0 s   the same
//   walk    Romeo    inverse dynamics (id.h)          40 ms   6.3 s   4 per ankle: x -0.05/0.10,
//                                                                     y -0.05/0.05, z -0.07
#ifndef EXPO_SCENARIO_H
#define EXPO_SCENARIO_H

#include "id.h"

#define EXPO_MAX_POINTS 8

/// A contact point of the paper: a link and a point in its frame.
typedef struct expo_point {
    char link[32];
    double pos[3];
} expo_point;

/// How the robot collides in sinew's hard-contact world (the soft contacts will take the points).
typedef enum expo_collide {
    EXPO_COLLIDE_URDF = 0,   ///< the URDF's own collision geometry (Romeo's .dae: none)
    EXPO_COLLIDE_POINTS = 1, ///< only 1 mm spheres at the contact points (Romeo's centred 1 mm
                             ///< above the sole points, Solo12's at the FOOT origins)
} expo_collide;

typedef struct expo_scenario {
    char name[16];
    double dt;       ///< the paper's control (and simulation outer) step
    double duration; ///< the paper's length
    expo_robot robot;
    expo_controller* ctl;
    expo_feedback* fb; ///< trot, jump; else NULL
    expo_id* id;       ///< squat, walk; else NULL
    int npoint;
    expo_point point[EXPO_MAX_POINTS];
} expo_scenario;

// solo-squat's and romeo-walk's initial configurations (NOTES.md; Pinocchio's coordinates)
extern const double expo_solo_q0[19];
extern const double expo_romeo_q0[38];

/// Open scenario `name` ("trot", "jump", "squat", "walk") with the data under shared_dir (the
/// folder holding models/). 0, or -1 with err set (an unknown name lists the four).
int expo_scenario_open(expo_scenario* sc, const char* name, const char* shared_dir,
                       expo_collide collide, char err[EXPO_ERR_LEN]);
/// The reference state at time t in sinew's coordinates (q: nq, u: nv); the initial state is
/// the reference at 0.
void expo_scenario_reference(const expo_scenario* sc, double t, double* q, double* u);
void expo_scenario_close(expo_scenario* sc);

#endif
