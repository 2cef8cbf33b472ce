// SPDX-License-Identifier: Apache-2.0
// maximal_setup.h: what the tests of an sn_maximal stepped alone share (maximal_setup.c)
#ifndef SNT_MAXIMAL_SETUP_H
#define SNT_MAXIMAL_SETUP_H

#include "sinew/sn_maximal.h"

// an empty sn_maximal of time step dt (NULL on failure)
sn_maximal* open_mx(double dt);
// a uniform box body of mass m and sides a, b, c (its id, -1 on failure)
int add_box(sn_maximal* mx, double m, double a, double b, double c);
double norm3(const double* a);
void cross3(double* d, const double* a, const double* b);
// a quaternion of angle t about unit axis u
void quat_axis(double* q, const double* u, double t);
// a hinge frame: axis 1 along y (columns y, z, x)
extern const double g_frame_y[9];
// two rods of length 1 and mass 1 hinged about y (world, then 0 to 1), at angles th1, th2, at
// rest (NULL on failure)
sn_maximal* double_pendulum(double dt, double th1, double th2);
// kinetic + potential energy
double energy(const sn_maximal* mx);
// the largest |c| (-1 on failure)
double worst_error(const sn_maximal* mx);

#endif
