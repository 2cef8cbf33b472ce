// SPDX-License-Identifier: Apache-2.0
// test_arm_common.h: helpers of the arm component's suites (test_arm.c, test_arm_pgs.c): random
// chains in the seed's parameters, small dense algebra written for the tests (independent of
// src/math), and the exact solution of the stops' and friction's problem by enumeration.
#ifndef SNT_TEST_ARM_COMMON_H
#define SNT_TEST_ARM_COMMON_H

#include "sinew/sn_arm.h"

#define TA_MAXN 8

// n random joints (revolute; prismatic ones too when sliders): unit axes, origins and frames of
// 0.05..0.3 m, masses 0.5..2 kg, inertias that are physical; no damping, friction or stops
void ta_random_joints(int n, int sliders, sn_arm_joint_desc* j);
// an arm of those joints, gravity g (NULL: zero), identity placement; NULL on failure (printed)
sn_arm* ta_arm(int n, const sn_arm_joint_desc* j, const double* g, int sweeps);
// a random rotation (row-major) from a random unit quaternion
void ta_random_rotation(double* R);

// y = A x (n x n); x^T A x
void ta_matvec(int n, const double* A, const double* x, double* y);
double ta_quad(int n, const double* A, const double* x);
// solve A x = b (n x n, partial pivoting; A and b are copied); 0, or -1 when singular
int ta_solve(int n, const double* A, const double* b, double* x);
// Ainv = A^-1; 0 or -1
int ta_inverse(int n, const double* A, double* Ainv);
// max_i |a_i - b_i| / (1 + max |b|)
double ta_err(int n, const double* a, const double* b);

// the exact minimum over v of 1/2 (v - t)^T A (v - t) + dt sum_j mu_j |v_j| with
// lo_j <= v_j <= hi_j (lo = (l - theta)/dt, hi = (h - theta)/dt), by enumeration of every joint's
// active set (free, at lower, at upper, stuck, sliding + or -) and the KKT conditions of each
// (tolerance tol relative). Returns the number of admissible sets (>= 1 when solved), v out.
int ta_exact_velocity(int n, const double* A, const double* t, const double* mu, const double* lo,
                      const double* hi, double dt, double tol, double* v);

#endif
