// SPDX-License-Identifier: Apache-2.0
// soft_setup.h: soft-contact set-ups shared by the soft tests (test_soft, test_expo_slip,
// test_expo_modal, test_soft_events, test_soft_geom; each returns 0, or 1 after a failed check)
#ifndef SNT_SOFT_SETUP_H
#define SNT_SOFT_SETUP_H

#include "sinew/sn.h"

// a world of time step dt on soft contacts over the ground plane z = 0
int soft_world(double dt, sn_world** w);

// a world on soft contacts with the ground z = 0 and one free sphere of mass `mass` whose centre
// is a soft point, at height z at rest (P NULL: the default parameters)
typedef struct pm {
    sn_world* w;
    sn_system* s;
} pm;
int point_mass(pm* p, double mass, double dt, const sn_soft_params* P, double z);

// a block (a point mass, 1 kg) on an incline of angle a (gravity tilted by a), from rest, for T
// seconds of steps dt with integrator it in n sub-steps: its x and x velocity, its spring's
// stretch along x and its slipping flag at the end; keep (nullable) receives the world (else
// destroyed)
int incline(double a, sn_soft_integrator it, int n, double dt, double T, double* x, double* vx,
            double* stretch, int* slip, pm* keep);

// a one-joint model m added to w as a system held at joint speed `speed` by a damping PD
// (kd 1e4, no kp), starting at q 0 with that speed: a moving plate, a turntable
int driven_joint(sn_world* w, const sn_model* m, double speed, sn_system** s);

#endif
