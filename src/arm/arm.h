// SPDX-License-Identifier: Apache-2.0
// arm.h: the dynamic arm component of seed 002 (internal; include/sinew/sn_arm.h, docs/arm.md).
// An arm is a model (its own, compiled from the seed's parameters, or a caller's serial chain),
// an sn_data for its state, the parameters D, mu, l, h, g, O and SWEEPS, and the scratch of one
// step, allocated once at creation: a step allocates nothing.
#ifndef SNI_ARM_H
#define SNI_ARM_H

#include "base/base.h"
#include "dynamics/dyn.h"
#include "sinew/sn_arm.h"

struct sn_arm {
    sn_allocator alloc;
    sn_log_fn log;
    void* log_ctx;
    const sn_model* m; // the model stepped: body k (1..n) is moved by joint k, DOF k-1
    sn_model* owned;   // m when the arm compiled it (sn_arm_create), else NULL
    sn_data* d;        // the state: d->q = theta, d->u = theta-dot; d->gravity = g in base axes
    int n;
    int* frame;     // model frame (URDF link) of arm frame k = 1..n (n)
    int* prismatic; // 1: joint k slides (n)
    // parameters
    sn_real gravity[3];                          // g, world axes
    sn_real place_pos[3];                        // O
    sn_real place_rot[9];                        // O, world <- base
    sn_real *damping, *friction, *lower, *upper; // D, mu, l, h (n each)
    int sweeps;
    // states (world)
    sn_real *fpos, *frot, *fomega; // P (n x 3, n x 9) and Omega (n x 3)
    // the last step (report)
    sn_real *theta_prime, *theta_star, *bias, *impulse; // n each
    int rep_sweeps, rep_stuck, stepped;
    sn_real rep_e_star, rep_e_end;
    // scratch of a step
    sn_real *Ms, *Me, *G, *B;       // n x n each (B: Ms - dt/2 G, then its LU)
    sn_real* Ainv;                  // n x n: A^-1, then the sweeps' Delassus columns
    sn_real *fac_L, *fac_D;         // the tree factor of A (n x n, n)
    sn_real *extra0, *extra1, *ext; // per body: C0, C1 at the world origin (nbody x 10), W
                                    // (nbody x 6), base axes
    sn_real* hw;                    // per frame: H in base axes (n x 3)
    sn_real *v, *rhs, *lam, *tmp;   // n each
    sn_real *q1, *u1;               // the new state before its commit (n each)
    sn_real* stick;                 // the all-stick system (n x n) and its rhs (n)
    int *piv, *idx;                 // n each
    void* block;                    // the one allocation of every array above
    size_t block_bytes;
    char last_error[256];
};

// a refusal: the message kept in the arm (and logged), the status returned (arm.c)
sn_status sni_arm_fail(sn_arm* a, sn_status st, const char* fmt, ...);

// the frames' world poses and angular velocities from the model's kinematics at d's state (fk
// and fk_vel done) (arm.c)
void sni_arm_frames(sn_arm* a);
// 1 when the inertia (xx xy xz yy yz zz) is positive semi-definite to rounding; its
// eigenvalues into ev, ascending
int sni_arm_inertia_psd(const sn_real I[6], sn_real ev[3]);

// per body, the inertia C (n x 10 per link as sn_arm_inputs, nullable: zeros) as 10 numbers at
// the base origin, for sni_crba_extra / sni_rnea_extra (after sn_fk) (step.c)
void sni_arm_extra(const sn_arm* a, const sn_real* C, sn_real* out);

// G = sum_k S_k^T [H_k]x S_k (n x n) from H per link in frame k's axes (nullable: zero);
// returns 1 when some H is not zero (after sn_fk) (step.c)
int sni_arm_gyro(sn_arm* a, const sn_real* H, sn_real* G);

// the stops' and friction's projected Gauss-Seidel (pgs.c): with a->Ainv = A^-1 and t = theta*,
// v = t + A^-1 lambda; lambda in a->lam, v in a->v; the all-stick start when it is admissible;
// at most a->sweeps sweeps (dt the step: the friction bound is dt mu, the stops' box
// (l - theta_n)/dt .. (h - theta_n)/dt). Returns the sweeps run.
int sni_arm_pgs(sn_arm* a, const sn_real* t, sn_real dt);

#endif
