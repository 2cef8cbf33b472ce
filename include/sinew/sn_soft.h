// SPDX-License-Identifier: Apache-2.0
// sn_soft.h: stiff visco-elastic (soft) contacts (seed 004; docs/expo.md). A world steps its
// contacts either as hard contacts (seed 000: the per-contact solver, the default) or as soft
// ones: every contact point of a system that is at or inside a surface it may touch (the ground
// plane, the heightfield, the collision geometry of static bodies, of the system's own bodies
// with self-collision on, and of other systems' bodies; every collision shape; the
// collision filters apply) is held by a linear spring-damper to an anchor p0 set where the point
// was when the contact started, lambda = R^T (K R (p0 - p) + B R (p0' - p')) with K = diag(k_t,
// k_t, k_n), B the same, in the contact frame R (rows t1, t2, n, n the surface's outward normal
// where the contact started; world axes on the ground plane), p' relative to what it touches,
// pulled onto the friction cone |lambda_t| <= mu lambda_n about n by moving the anchor in the
// tangent plane (a slipping contact), and released when the point leaves that surface. An
// anchor on a moving body rides on it.
//
// A soft world's step replaces the contact solver: each system is integrated over the world's
// dt with its own soft integrator in n sub-steps, the built-in control (PD, damping, springs,
// actuators) evaluated at each sub-step's start with the PD, damping and springs implicit over
// the sub-step, as in the hard step; what the caller sets (feedforward, generalized and
// external forces) is held over the whole step (zero-order hold). The integrators are Expo (the
// exponential integrator of the contact dynamics), explicit Euler, RK4 and implicit Euler (Newton).
// Contacts between two bodies of one system are integrated with the system (the relative
// Jacobian); between systems, stepped one after the other, the coupling is explicit: a system
// sees the other's bodies where they were at the step's start, moving on at their velocity then,
// and the other receives the impulse over the step as a force held over its next step (this
// step's if it is stepped later): keep dt a few times below such contacts' duration.
//
// What a soft world does not do (this version): joint limits, joint friction and loop
// constraints are not enforced (they are rows of the hard contact solver); contacts between
// systems are explicit (above).
#ifndef SN_SOFT_H
#define SN_SOFT_H

#include "sn_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The most soft contact points a system may have: Expo's contact dynamics has 6 rows a point and
/// its exponential costs the cube of that (256 points: a 1539 x 1539 exponential per sub-step).
#define SN_SOFT_POINTS_MAX 256

/// A world's contact model.
typedef enum sn_contact_model {
    SN_CONTACT_HARD = 0, ///< seed 000's per-contact solver (default)
    SN_CONTACT_SOFT = 1, ///< spring-damper contacts with anchor points (seed 004)
} sn_contact_model;

/// The soft contacts' parameters of a world (every point, every system). A zeroed struct is not
/// valid: start from sn_soft_params_default.
typedef struct sn_soft_params {
    sn_real k_normal;  ///< normal stiffness, N/m (default 1e5), along the contact frame's normal
    sn_real k_tangent; ///< tangential stiffness, N/m (default 1e5), in its tangent plane
    sn_real b_normal;  ///< normal damping, N s/m (default 300)
    sn_real b_tangent; ///< tangential damping, N s/m (default 300)
    sn_real mu;        ///< friction coefficient, static = dynamic (default 1)
    int bilateral;     ///< 1: the contacts pull as well and never slip or end (default 0)
} sn_soft_params;

/// A system's soft integrator.
typedef enum sn_soft_integrator {
    SN_SOFT_EXPO = 0,           ///< exponential integration of the contact dynamics (default)
    SN_SOFT_EULER = 1,          ///< explicit Euler: u+ = u + h u', q+ = q (+) h (u + h/2 u')
    SN_SOFT_RK4 = 2,            ///< classical Runge-Kutta on the configuration's group
    SN_SOFT_IMPLICIT_EULER = 3, ///< implicit Euler, Newton to 1e-6
} sn_soft_integrator;

/// One soft contact point of a system, as the last step (or contact update) left it.
typedef struct sn_soft_point {
    int body;            ///< the system's body it is fixed to
    sn_real offset[3];   ///< the point in the body frame
    int active;          ///< 1 while the contact is on (the anchor is held)
    int slipping;        ///< 1 when its force was on the friction cone
    sn_real position[3]; ///< world position
    sn_real velocity[3]; ///< world velocity, relative to the body touched while in contact with one
    sn_real anchor[3];   ///< world anchor p0 (meaningful while active)
    sn_real penetration; ///< depth inside the surface touched (while inactive: the nearest one;
                         ///< negative outside; 0 with none)
    sn_real force[3];    ///< world force on the body, lambda (0 when not active)
} sn_soft_point;

/// The defaults: k 1e5 N/m, b 300 N s/m (normal and tangential), mu 1, unilateral.
SN_API sn_soft_params sn_soft_params_default(void);
/// Choose the world's contact model (SN_CONTACT_HARD by default). Switching ends every soft
/// contact (the anchors are released).
SN_API sn_status sn_world_set_contact_model(sn_world* w, sn_contact_model model);
SN_API sn_contact_model sn_world_contact_model(const sn_world* w);
/// Set the soft contacts' parameters: k > 0, b >= 0, mu >= 0, all finite (SN_ERR_ARG).
SN_API sn_status sn_world_set_soft_params(sn_world* w, const sn_soft_params* p);
/// The soft contacts' parameters (the defaults until set).
SN_API sn_soft_params sn_world_soft_params(const sn_world* w);
/// The number of contact material ids (0 .. SN_SOFT_MATERIALS - 1): the hard contacts' ids
/// (sn_system_set_body_material; the ground and the heightfield are material 0).
#define SN_SOFT_MATERIALS 16
/// The soft parameters of material pair (a, b), the order irrelevant: a soft contact of a point
/// on a body of material a against material b (the ground: 0) takes them; a pair not set takes
/// the world's (sn_world_set_soft_params). p NULL unsets the pair. Ids 0 .. 15, parameters as
/// sn_world_set_soft_params (SN_ERR_ARG with a message, nothing changed). Read at every contact
/// update: a change acts from the next step. A world checkpoint compares the pairs (set-up). A
/// model file gives pairs through sinew's extension, applied by sn_system_apply_file (URDF
/// <sinew:soft_contact material1 material2 .../>, MJCF <custom> "sinew:soft_contact:A:B";
/// docs/expo.md "Soft parameters"). `sinew run --soft-pair A:B:K[:Kt:B:Bt:MU]` calls this.
SN_API sn_status sn_world_set_soft_pair(sn_world* w, int a, int b, const sn_soft_params* p);
/// The soft parameters a contact of material pair (a, b) takes: the pair's, or the world's when
/// it is not set; *is_set (nullable) says which. SN_ERR_ARG for ids outside 0 .. 15 or out NULL.
SN_API sn_status sn_world_soft_pair(const sn_world* w, int a, int b, sn_soft_params* out,
                                    int* is_set);

/// Choose a system's soft integrator and its sub-steps per world step (1 .. 1<<20).
SN_API sn_status sn_system_set_soft_integrator(sn_system* s, sn_soft_integrator integrator,
                                               int substeps);
SN_API sn_soft_integrator sn_system_soft_integrator(const sn_system* s);
SN_API int sn_system_soft_substeps(const sn_system* s);
/// Expo's matrix exponential: max_mul -1 the standard scaling and squaring, 0..4 at most that
/// many matrix products (Pade orders 1, 2, 3, 5, 7, no scaling); balance 1 (default) or 0; full
/// 1: the full-accuracy exponential (to rounding; for references and tests).
SN_API sn_status sn_system_set_expo_options(sn_system* s, int max_mul, int balance, int full);
/// Expo's modal path (on 1, the default; 0 off): when every active contact row has the same
/// ratio b / k of damping to stiffness (to 1e-12; the default parameters do) and the options are
/// the standard balanced exponential (max_mul -1, balance 1, full 0), the sub-step's integrals
/// come from the eigendecomposition of K^1/2 Upsilon K^1/2 and one scalar oscillator per mode in
/// closed form instead of the augmented exponential: the same figures to about 1e-13, faster
/// (docs/expo.md "The modal path"). Otherwise, and with it off, the exponential; so too every
/// sub-step with a point in the slipping mode (sn_system_set_expo_slip: its rows are not springs).
SN_API sn_status sn_system_set_expo_modal(sn_system* s, int on);
SN_API int sn_system_expo_modal(const sn_system* s);

/// Contact events inside the sub-step (default 0: off, the paper's method). A contact is otherwise
/// detected only at a sub-step's end, so a point landing inside a sub-step of h enters the surface
/// by up to h |v_n| before its spring acts. With on = 1, each sub-step of every soft integrator
/// predicts the time each inactive point reaches the surface nearest it (the terrain or a body,
/// taken at rest; its normal distance, velocity and acceleration: a quadratic) and, when the
/// earliest is inside the sub-step, splits it there: a
/// piece to the touch-down, the contact update (the point caught within 1e-3 h of its approach),
/// the rest (split again, at most 4 times a sub-step). The control is evaluated at each piece's
/// start. Lift-offs are not located. Saved by a checkpoint as set-up. SN_ERR_ARG unless on is 0
/// or 1. docs/expo.md "Contact events inside the sub-step".
SN_API sn_status sn_system_set_soft_events(sn_system* s, int on);
/// 1 when contact events are on (sn_system_set_soft_events), else 0.
SN_API int sn_system_soft_events(const sn_system* s);
/// The splits at a predicted touch-down since the system was made (a sub-step split 3 times counts
/// 3; a point caught at a sub-step's start counts none; a report, not saved; it stops at INT_MAX).
SN_API long sn_system_soft_event_count(const sn_system* s);

/// Expo's slipping contacts: on (1, the default) a point that slips (its force was on the friction
/// cone at the last contact update, or mu = 0, or it slides faster than its cone force can stop
/// within the sub-step, before the first solve or when the first solve puts its average force
/// outside the cone) enters the contact dynamics with Coulomb's law, its tangential force -mu
/// times its normal force along its slip direction, instead of its tangential spring (a point the
/// first solve finds stopping within the sub-step sticks again); its anchor slides with it, its
/// spring's stretch kept within twice the cone's (p0 moves). Off (0): every point with its
/// springs, the paper's variant (at dt ~ 10 ms a sliding contact can gain energy). SN_ERR_ARG
/// for other values. docs/expo.md "Slipping contacts inside the sub-step".
SN_API sn_status sn_system_set_expo_slip(sn_system* s, int on);
/// 1 when Expo's slipping contacts are on (sn_system_set_expo_slip).
SN_API int sn_system_expo_slip(const sn_system* s);

/// Add a soft contact point fixed to `body` at `offset` (body frame); its index in *id
/// (nullable). Points are added outside a step (this call allocates).
SN_API sn_status sn_system_add_soft_point(sn_system* s, int body, const sn_real offset[3], int* id);
/// Add a point at `offset` in the frame of URDF link `frame` (e.g. Solo12's FL_FOOT).
SN_API sn_status sn_system_add_soft_point_frame(sn_system* s, int frame, const sn_real offset[3],
                                                int* id);
/// Add soft points derived from the system's collision geometry; their number in *added
/// (nullable). SN_ERR_LIMIT, adding none, when they would make more than SN_SOFT_POINTS_MAX
/// (name the points instead: sn_system_add_soft_point_frame). A box gives its 8 corners, a cylinder
/// 8 points on each rim, a collision mesh its vertices: points fixed to the body. A sphere gives
/// one rolling point (a capsule one per end sphere): the sphere's point nearest the surface it
/// meets (along its normal; the lowest on the ground), taken afresh after every sub-step; within a
/// sub-step it is that material point. Its anchor starts on the surface
/// (the spring carries the sphere's penetration) and moves with the contact point from one sub-step
/// to the next, keeping the spring's tangential stretch. Ellipsoids give none yet.
SN_API sn_status sn_system_add_soft_geometry_points(sn_system* s, int* added);
/// The number of soft contact points of the system, and of those now active.
SN_API int sn_system_soft_point_count(const sn_system* s);
SN_API int sn_system_soft_contact_count(const sn_system* s);
/// Point i's state (0 <= i < sn_system_soft_point_count).
SN_API sn_status sn_system_soft_point(const sn_system* s, int i, sn_soft_point* out);
/// End every soft contact of the system: the next step detects them afresh, anchors at the
/// points' positions then. Setting a state (sn_system_set_state, _q, _u) does this too.
SN_API void sn_system_soft_release(sn_system* s);

#ifdef __cplusplus
}
#endif
#endif
