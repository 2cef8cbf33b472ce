// SPDX-License-Identifier: Apache-2.0
// soft.h: soft (spring-damper) contacts and their integrators (internal; seed 004,
// spec/algorithms.md A.2, A.9, A.12, A.13; docs/expo.md). The world's part (the contact model
// and its parameters) hangs off sn_world.soft, a system's part (its points, their contact state,
// its integrator and the step's scratch) off sn_system.soft; both are NULL until first set, which
// reads as a hard world and a system without soft points.
#ifndef SNI_SOFT_H
#define SNI_SOFT_H

#include "sinew/sn_soft.h"

#include <stddef.h>

// the world's soft contact settings
typedef struct sni_soft_world sni_soft_world;
typedef struct sni_soft sni_soft;

struct sni_soft_world {
    int model;        // sn_contact_model
    sn_soft_params p; // the parameters of every soft contact whose material pair is not set
    sn_soft_params pair[SN_SOFT_MATERIALS][SN_SOFT_MATERIALS];    // per material pair (symmetric)
    unsigned char pair_set[SN_SOFT_MATERIALS][SN_SOFT_MATERIALS]; // 1 when the pair was set
};

// the contact state of one point (A.2, A.9): what a step carries to the next one
typedef struct sni_soft_pt {
    int active;     // the contact is on: the anchor is held
    int slip;       // the last update put the force on the cone (the anchor moves with p')
    int other;      // what it touches (while active; after a release, what it touched last,
    int ogeom;      // for the step's impulse): 0 the terrain (ogeom -1), k + 1 geometry ogeom
                    // of system k
    sn_real p0[3];  // anchor (world)
    sn_real p0d[3]; // anchor velocity (world, relative to what it touches; tangential, nonzero
                    // while slipping)
    sn_real fr[9];  // the contact frame (world rows t1, t2, n), set when the contact starts
    sn_real ab[3];  // on a moving body: the anchor and the frame's rows in that body's frame
    sn_real frb[9]; // (p0 and fr follow them); unused on the terrain and static bodies
    sn_real imp[3]; // the impulse on the point's body over the last step (world; the body it
                    // touches receives the opposite)
    sn_real f[3];   // the force of the last update (world, on the body)
    sn_real p[3];   // the point's position and velocity at the last update (report)
    sn_real pd[3];
    sn_real depth; // the penetration at the last update: minus the gap to what it touches, or
                   // (inactive) to the nearest surface; 0 with none
} sni_soft_pt;
// the checkpoint visits (active, slip, other, ogeom), (p0, p0d, fr, ab, frb, imp) and
// (f, p, pd, depth) as runs
_Static_assert(offsetof(sni_soft_pt, ogeom) == offsetof(sni_soft_pt, active) + 3 * sizeof(int) &&
                   offsetof(sni_soft_pt, p0d) == offsetof(sni_soft_pt, p0) + 3 * sizeof(sn_real) &&
                   offsetof(sni_soft_pt, fr) == offsetof(sni_soft_pt, p0) + 6 * sizeof(sn_real) &&
                   offsetof(sni_soft_pt, imp) == offsetof(sni_soft_pt, p0) + 27 * sizeof(sn_real) &&
                   offsetof(sni_soft_pt, f) == offsetof(sni_soft_pt, p0) + 30 * sizeof(sn_real) &&
                   offsetof(sni_soft_pt, p) == offsetof(sni_soft_pt, f) + 3 * sizeof(sn_real) &&
                   offsetof(sni_soft_pt, pd) == offsetof(sni_soft_pt, p) + 3 * sizeof(sn_real) &&
                   offsetof(sni_soft_pt, depth) == offsetof(sni_soft_pt, pd) + 3 * sizeof(sn_real),
               "sni_soft_pt's runs");

// a surface a point touches, at a point x (surface.c)
typedef struct sni_soft_touch {
    int other, geom; // 0, -1: the terrain; k + 1, g: geometry g of system k
    int body;        // the other side's body in its system (-1: the terrain)
    sn_real n[3];    // the outward unit normal at the surface point nearest x (world)
    sn_real gap;     // the signed distance of x (negative inside)
} sni_soft_touch;

// a system's soft points, their state, its integrator and the scratch of its step. Every array
// is in one block made when a point is added (sni_soft_reserve), never in a step
struct sni_soft {
    // ---- config ----
    int integrator; // sn_soft_integrator
    int substeps;   // sub-steps per world step
    int max_mul;    // Expo: -1 standard exponential, 0..4 products
    int balance;    // Expo: balancing on
    int full;       // Expo: full-accuracy exponential
    int events;     // touch-downs located inside the sub-step (events.c)
    int modal;      // Expo: the modal path when the contacts' B = c K (docs/expo.md)
    int slip_lds;   // Expo: slipping points' rows are Coulomb's law in the LDS (1, default) or
                    // springs like the sticking ones' (0, the paper's variant)
    int n, cap;     // points, and room for them
    int* body;      // (cap)
    sn_real* off;   // body-frame offsets; a rolling point's: its sphere's centre (cap x 3)
    sn_real* rad;   // a rolling point's sphere radius, 0 for a fixed point (cap)
    // ---- state ----
    sni_soft_pt* pt; // (cap)
    sn_real* roll;   // a rolling point's material point from its sphere's centre, body frame:
                     // the sphere's lowest point, taken afresh while the contact is off and
                     // kept while it is on (cap x 3; 0 for fixed points)
    int reset;       // a state was set: the next step releases every contact first
    // ---- report ----
    int newton_iter;  // implicit Euler: Newton iterations of the last step (all sub-steps)
    int newton_fails; // sub-steps whose Newton iteration stopped above the tolerance (ever)
    int warned;       // the warning that limits and loops are not enforced was given
    int events_split; // sub-steps split at a predicted touch-down (ever; events.c)
    // ---- scratch of a step ----
    sni_soft_pt* save; // the contact state at the step's start (restored on a failure) (cap)
    sni_soft_pt* tmp;  // a stage's copy (RK4, implicit Euler) (cap)
    int save_reset;
    sn_real* save_roll;   // the rolling points' material points at the step's start (cap x 3)
    sn_real *q, *qs, *qn; // the working, stage and Newton configurations (nq)
    sn_real *u, *us, *acc, *vsum;  // (nv each)
    sn_real *wh, *err;             // the sub-step's implicit diagonal and PD error (nv each)
    int wh_on;                     // wh enters the mass matrix of this sub-step
    sn_real *k[4], *vst[4];        // RK4's stage accelerations and velocities (nv each)
    sn_real *r, *rt, *z, *zt, *dz; // Newton (nv each)
    sn_real* G;                    // Newton's matrix (nv x nv)
    int* piv;                      // (nv)
    sn_real *pos, *vel, *jdu;      // per point: world position, velocity, J-dot u (cap x 3)
    sn_soft_params* prm;           // per point: the parameters of its contact (its material
                                   // pair), set by the contact update (cap)
    sn_real* J;                    // per point: the point Jacobian (3 cap x nv)
    sn_real *Jc, *jdc, *xc;        // Expo: the active points' J, J-dot u (3cap x nv, 3cap) and
                                   // LDS state x0 (p - p0 then p', 6cap) in their contact frames
    sn_real* Jt;                   // a point Jacobian of the body a point touches (3 x nv)
    sn_real* snap;  // the bodies' rotation, origin and spatial velocity (w, v0) at the world
                    // step's start, as other systems see them (sni_soft_begin) (nbody x 18)
    sn_real* react; // the reactions of other systems' points on this one, held over its step
                    // as a generalized force (nv)
    sn_real tnow;   // the time within the world step of the state the scratch is at
    sn_real *W, *ups, *bfree, *lam,
        *lam2;       // Expo: M^-1 J^T (nv x 3cap), Upsilon (3cap)^2, b, forces
    int* act;        // Expo: the active points (cap)
    int* smode;      // Expo: per active point, 1: slipping in the LDS (Coulomb's rows), 0: sticking
    sn_real* sdir;   // Expo: a slipping point's slip direction s (t1, t2 of its frame; 2 cap)
    int expo_passes; // Expo: the LDS solves of the last sub-step (2: a point changed its mode)
    sn_real *A, *ea, *x0, *X1, *X2, *xh, *bal, *lds; // Expo: the LDS and its integrals
    size_t lds_n;                                    // the lds workspace's reals
    int expo_nc; // the active points of the last Expo sub-step (the balancing's warm start)
    void* block;
    size_t bytes;
};

struct sn_world;
struct sn_system;

// the world is on soft contacts
int sni_soft_on(const struct sn_world* w);
// free a system's / the world's soft part (world.c)
void sni_soft_free(struct sn_system* s);
void sni_soft_world_free(struct sn_world* w);
// a state was set on s: its contacts end at the next step (system.c's state hook)
void sni_soft_state_set(struct sn_system* s);
// the system's soft part, made with defaults when missing (NULL: out of memory, said)
sni_soft* sni_soft_get(struct sn_system* s);

// params.c: the world's settings
// the world's parameters (the defaults when unset)
sn_soft_params sni_soft_params(const struct sn_world* w);
// the parameters of a soft contact between materials a (the point's body) and b (the other side;
// the ground is material 0): the pair's when it is set, else the world's
sn_soft_params sni_soft_pair(const struct sn_world* w, int a, int b);

// points.c
// the kinematics at (q, u) into d (fk, fk_vel) and every point's position, velocity, Jacobian
// and J-dot u into the scratch; handover (between sub-steps, not in a stage): active rolling
// points move to their sphere's lowest point, their anchors with them
void sni_soft_kin(struct sn_system* s, const sn_real* q, const sn_real* u, int handover);
// the contact update (A.9) of the points' state pts at the scratch's positions and velocities:
// detection, anchors, the force and its cone, each point's parameters (c->prm). Once per
// sni_soft_kin: it makes the velocity, Jacobian and drift of a point on a moving body relative to
// that body in place (a second update on the same kinematics would subtract the body again)
void sni_soft_update(const struct sn_system* s, sni_soft_pt* pts);
// Expo: the impulses h lambda-bar of the nc active points (c->act; lambda-bar in their frames) on
// their bodies, added to pt[].imp
void sni_soft_impulse(sni_soft* c, int nc, sn_real h, const sn_real* lam);
// Expo: the nc active points (c->act) in their contact frames, R J, R J-dot u and
// x0 = (R (p - p0), R p') into c->Jc, c->jdc, c->xc (rows in the order of c->act)
void sni_soft_frames(sni_soft* c, int nc, int nv);

// surface.c
// the surface a point x of body `body` of system s touches, the nearest one (the terrain and the
// geometries the filters let it meet), for a sphere of radius r centred at x (r = 0: the point);
// 0 when there is none
int sni_soft_touch_find(const struct sn_system* s, int body, const sn_real* x, sn_real r,
                        sni_soft_touch* t);
// the gap and normal of x (a sphere of radius r) against a given surface (other, geom); 0 when
// it is gone (the terrain has no plane under x)
int sni_soft_touch_eval(const struct sn_system* s, int other, int geom, const sn_real* x, sn_real r,
                        sni_soft_touch* t);
// body ob of system k as system s sees it: its rotation, origin and spatial velocity (w, v0);
// its own at s's kinematics, another system's at the world step's start
void sni_soft_body_state(const struct sn_system* s, int k, int ob, const sn_real** R,
                         const sn_real** p, const sn_real** vel);
// another system k's body moves on over the step with its spatial velocity vel (w, v0) at the
// step's start held: its material points x0 are at E x0 + d at the time c->tnow within the step
// (the identity for s's own bodies)
void sni_soft_body_move(const struct sn_system* s, int k, const sn_real* vel, sn_real* E,
                        sn_real* d);
// the radial projection of a force on the friction cone (A15; zero when it pulls)
void sni_soft_cone(sn_real* f, sn_real mu);

// baselines.c: CRBA at d's kinematics and the tree's factor of M (of M + diag(c->wh) when
// c->wh_on: the implicit PD, damping and springs of the sub-step), left in d
sn_status sni_soft_factor(struct sn_system* s);
// udot = M^-1 (tau - h + J^T f) at d's kinematics and the scratch's Jacobians (M as
// sni_soft_factor makes it; the factor is left in d for Expo)
sn_status sni_soft_accel(struct sn_system* s, const sn_real* tau, const sni_soft_pt* pts,
                         sn_real* udot);
// one sub-step of h of each baseline from (c->q, c->u) (d's kinematics and the scratch there,
// the points updated there) to the new c->q, c->u
sn_status sni_soft_euler(struct sn_system* s, sn_real h);
sn_status sni_soft_rk4(struct sn_system* s, sn_real h);
sn_status sni_soft_implicit_euler(struct sn_system* s, sn_real h);

// expo.c: one Expo sub-step, as the baselines
sn_status sni_soft_expo(struct sn_system* s, sn_real h);
// the reals of Expo's scratch for up to cap points
size_t sni_soft_expo_reals(int cap);
// the phases of one Expo sub-step in order (Table III's rows): sni_soft_expo is them one after
// the other; sni_soft_expo_phase runs one (the first alone takes the free sub-step when no point
// is active), for bench/soft_bench.c to time them at one state
enum {
    SNI_EXPO_FACTOR,    // CRBA and the tree's factor of M
    SNI_EXPO_FREE,      // the free acceleration M^-1 (tau - h) (A5)
    SNI_EXPO_W,         // W = M^-1 J^T, by solves with the factor
    SNI_EXPO_LDS,       // Upsilon = J W^T, J afree + J-dot u, the LDS A, a, x0 (A9)
    SNI_EXPO_EXP,       // X1, X2 from the augmented exponential (A13)
    SNI_EXPO_CONE,      // the forces (A14) on the cone (A15)
    SNI_EXPO_INTEGRATE, // u+ and q+ (A16, A17): c->q, c->u move
    SNI_EXPO_PHASES
};
sn_status sni_soft_expo_phase(struct sn_system* s, sn_real h, int phase);

// step.c: the bodies of every system at the world step's start, as the others see them (into
// each system's snap); before the systems' steps
void sni_soft_begin(struct sn_world* w);
// events.c: one sub-step of h with its touch-downs located (c->events on): pieces of the sub-step
// by piece(s, length, k) (the control and the integrator from (c->q, c->u), as step.c's sub-step
// k; the continuing pieces get k = 1), the contacts updated between them; the contact update
// after the last piece is the caller's
typedef sn_status (*sni_soft_piece)(struct sn_system* s, sn_real h, int k);
sn_status sni_soft_events(struct sn_system* s, sn_real h, int k, sni_soft_piece piece);

// step.c: one world step of system s on soft contacts: from s->step.q0, u0 with tau_exp held,
// n sub-steps, into s->step.q1, u1; on a failure the contact state is as it was
sn_status sni_soft_step(struct sn_system* s, sn_real dt);
// the contact state back to the step's start (after a failed step of the world)
void sni_soft_restore(struct sn_system* s);

#endif
