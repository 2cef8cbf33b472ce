// SPDX-License-Identifier: Apache-2.0
// robot.h: the Expo paper's robots (Solo12, TSID's Romeo) in sinew, and the change of variables
// between Pinocchio's coordinates (the scenario data's) and sinew's.
//
// Pinocchio, free flyer:  q = [p (3), quaternion x y z w (4), joints], v = [R^T p' (3), w_body (3),
//                         joint rates]: the base's linear and angular velocity in the base frame.
//                         Joints in depth-first order, the children of a link sorted by joint name
//                         (urdfdom keeps a link's child joints in a std::map, so in name order).
// sinew (docs/conventions.md): q = [p (3), quaternion w x y z (4), joints], u = [p' (3), w_world
//                         (3), joint rates], joints depth-first in file order.
// So with R the base rotation and P the joint permutation, u = T v with T = blkdiag(R, R, P):
// T is orthogonal, generalized forces map the same way (tau_sn = T tau_pin, as the power
// u . tau_sn = v . tau_pin), and M_pin = T^T M_sn T.
//
// Pinocchio's Lie-group operations on that q (the free flyer as SE(3), joints as R^n), written
// out (expo_pin_*): integrate(q, v) = q * exp6(v) (the base placement times the SE(3)
// exponential of the local twist), difference(q0, q1) = log6(M0^-1 M1) (the twist in M0's frame
// that carries M0 to M1 in unit time), interpolate(q0, q1, a) = integrate(q0, a difference(q0,
// q1)) (the SE(3) geodesic for the base, linear for the joints).
#ifndef EXPO_ROBOT_H
#define EXPO_ROBOT_H

#include "npy.h"
#include "sinew/sn.h"

/// Joints after the base at most (the scenarios have 12 and 31).
#define EXPO_MAX_JOINTS 64

/// A floating-base robot whose joints are all 1-DOF (revolute or prismatic; a continuous joint,
/// which Pinocchio stores as cos/sin, is refused).
typedef struct expo_robot {
    sn_model* m;
    int nq, nv;     ///< 7 + nj and 6 + nj, the same in both conventions
    int nj;         ///< joints after the base
    int* pin_to_sn; ///< joint k of Pinocchio's order -> its index among sinew's joints (nj)
    int* sn_to_pin; ///< the inverse permutation                                       (nj)
    char name[64];
} expo_robot;

/// Load a URDF with a floating base and derive Pinocchio's joint order. 0, or -1 with err set.
int expo_robot_load(const char* urdf, expo_robot* r, char err[EXPO_ERR_LEN]);
/// The same with n collision spheres of the given radius added, sphere i on link links[i] at
/// pts[i] (link frame): the paper's point contacts for sinew's hard-contact world, which collides
/// geometry (Romeo's URDF has only .dae meshes, which sinew does not read). only_spheres
/// nonzero drops the file's own collision elements first, so that only the points touch, as in
/// consim. A link not found is an error.
int expo_robot_load_spheres(const char* urdf, const char* const* links, const double (*pts)[3],
                            int n, double radius, int only_spheres, expo_robot* r,
                            char err[EXPO_ERR_LEN]);
void expo_robot_free(expo_robot* r);
/// Pinocchio's name of joint k (its k-th joint after the root).
const char* expo_robot_pin_joint_name(const expo_robot* r, int k);

/// q and v from Pinocchio's coordinates to sinew's (u) and back. The velocity maps need the base
/// rotation, read from the q given beside them (in the same convention as the input velocity).
/// Outputs must not alias inputs.
void expo_q_pin_to_sn(const expo_robot* r, const double* q_pin, double* q_sn);
void expo_q_sn_to_pin(const expo_robot* r, const double* q_sn, double* q_pin);
void expo_v_pin_to_sn(const expo_robot* r, const double* q_pin, const double* v_pin, double* u_sn);
void expo_v_sn_to_pin(const expo_robot* r, const double* q_sn, const double* u_sn, double* v_pin);
/// Generalized forces: tau_sn = T tau_pin (q_pin gives R).
void expo_tau_pin_to_sn(const expo_robot* r, const double* q_pin, const double* tau_pin,
                        double* tau_sn);

/// Pinocchio's integrate, difference and interpolate for a free flyer and nj 1-DOF joints, in
/// Pinocchio's coordinates. q_out may alias q (integrate, interpolate).
void expo_pin_integrate(int nj, const double* q, const double* v, double* q_out);
void expo_pin_difference(int nj, const double* q0, const double* q1, double* v);
void expo_pin_interpolate(int nj, const double* q0, const double* q1, double a, double* q_out);

/// SE(3) exponential of a twist (linear nu, angular w) as a rotation (row-major) and a
/// translation, and its logarithm; log6 returns the angle in [0, pi].
void expo_exp6(const double nu[3], const double w[3], double R[9], double p[3]);
void expo_log6(const double R[9], const double p[3], double nu[3], double w[3]);

/// Rotation matrix (row-major, world <- body) of a Pinocchio quaternion (x y z w).
void expo_quat_xyzw_to_mat(const double* quat, double R[9]);

#endif
