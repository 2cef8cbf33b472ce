// SPDX-License-Identifier: Apache-2.0
// soft_setup.c: the soft-contact set-ups test_soft.c and test_expo_slip.c share (soft_setup.h)
#include "soft_setup.h"

#include "harness/snt.h"

#include <math.h>
#include <string.h>

#define GRAV 9.81


// a world of time step dt on soft contacts over the ground plane z = 0
int soft_world(double dt, sn_world** w) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    SNT_STATUS_OK(sn_world_create(&o, w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(*w, 1, 0));
    SNT_STATUS_OK(sn_world_set_contact_model(*w, SN_CONTACT_SOFT));
    return 0;
}


// a world on soft contacts with the ground z = 0 and one free sphere of mass `mass` whose centre
// is a soft point, at height z at rest
int point_mass(pm* p, double mass, double dt, const sn_soft_params* P, double z) {
    memset(p, 0, sizeof *p);
    if (soft_world(dt, &p->w)) return 1;
    if (P) SNT_STATUS_OK(sn_world_set_soft_params(p->w, P));
    SNT_STATUS_OK(sn_world_add_sphere(p->w, 0.01, mass, &p->s));
    const double off[3] = {0, 0, 0};
    int id = -1;
    SNT_STATUS_OK(sn_system_add_soft_point(p->s, 1, off, &id));
    SNT_CHECK(id == 0);
    double q[7] = {0, 0, z, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(p->s, q, 7, u, 6));
    return 0;
}


// a block (a point mass) on an incline of angle a: gravity tilted by a
int incline(double a, sn_soft_integrator it, int n, double dt, double T, double* x, double* vx,
            double* stretch, int* slip, pm* keep) {
    pm p;
    if (point_mass(&p, 1.0, dt, NULL, 0.0)) return 1;
    const double g[3] = {GRAV * sin(a), 0, -GRAV * cos(a)};
    SNT_STATUS_OK(sn_world_set_gravity(p.w, g));
    SNT_STATUS_OK(sn_system_set_soft_integrator(p.s, it, n));
    int steps = (int)(T / dt + 0.5);
    for (int k = 0; k < steps; k++)
        SNT_STATUS_OK(sn_world_integrate(p.w));
    sn_soft_point sp;
    SNT_STATUS_OK(sn_system_soft_point(p.s, 0, &sp));
    SNT_CHECK(sp.active);
    *x = sn_system_q(p.s)[0];
    *vx = sn_system_u(p.s)[0];
    *stretch = sp.position[0] - sp.anchor[0];
    *slip = sp.slipping;
    if (keep)
        *keep = p;
    else
        sn_world_destroy(p.w);
    return 0;
}


int driven_joint(sn_world* w, const sn_model* m, double speed, sn_system** s) {
    SNT_STATUS_OK(sn_world_add_system(w, m, s, NULL));
    const double kp = 0, kd = 1e4, q0 = 0, u0 = speed;
    SNT_STATUS_OK(sn_system_set_pd_gains(*s, &kp, &kd, 1));
    SNT_STATUS_OK(sn_system_set_pd_target(*s, &q0, 1, &u0, 1));
    SNT_STATUS_OK(sn_system_set_state(*s, &q0, 1, &u0, 1));
    return 0;
}
