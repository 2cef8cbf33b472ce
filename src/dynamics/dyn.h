// SPDX-License-Identifier: Apache-2.0
// dyn.h: helpers shared by the rigid-body algorithms (internal).
#ifndef SNI_DYN_H
#define SNI_DYN_H

#include "base/base.h"
#include "base/smath.h"
#include "sinew/sn_data.h"

// the contract check of every algorithm: a model, and data created for it
#define SNI_CHECK_MD(m, d)                                                                         \
    do {                                                                                           \
        if (!(m) || !(d) || (d)->model_ != (m)) return SN_ERR_ARG;                                 \
    } while (0)

// f = I v for a rigid-body inertia at the world origin, rbi = m, h (3), Ibar (xx yy zz xy xz yz)
static inline void rbi_mul(sn_real* f, const sn_real* rbi, const sn_real* v) {
    const sn_real m = rbi[0], *h = rbi + 1, *ib = rbi + 4;
    const sn_real* w = v;
    const sn_real* l = v + 3;
    f[0] = ib[0] * w[0] + ib[3] * w[1] + ib[4] * w[2];
    f[1] = ib[3] * w[0] + ib[1] * w[1] + ib[5] * w[2];
    f[2] = ib[4] * w[0] + ib[5] * w[1] + ib[2] * w[2];
    v3_addcross(f, h, l);
    f[3] = m * l[0];
    f[4] = m * l[1];
    f[5] = m * l[2];
    v3_addcross(f + 3, w, h); // -h x w
}

// the 10 numbers of a body (mass, com world, inertia about com world) at the world origin
static inline void rbi_from(sn_real* rbi, sn_real mass, const sn_real* com, const sn_real* ic) {
    sn_real x = com[0], y = com[1], z = com[2];
    rbi[0] = mass;
    rbi[1] = mass * x;
    rbi[2] = mass * y;
    rbi[3] = mass * z;
    // Ibar = Ic + m (|c|^2 1 - c c^T)
    rbi[4] = ic[0] + mass * (y * y + z * z);
    rbi[5] = ic[4] + mass * (x * x + z * z);
    rbi[6] = ic[8] + mass * (x * x + y * y);
    rbi[7] = ic[1] - mass * x * y;
    rbi[8] = ic[2] - mass * x * z;
    rbi[9] = ic[5] - mass * y * z;
}

// dense 6x6 form of an rbi, row-major, (angular, linear)
static inline void rbi_to_m6(sn_real* a, const sn_real* rbi) {
    const sn_real m = rbi[0], hx = rbi[1], hy = rbi[2], hz = rbi[3], *ib = rbi + 4;
    sn_real r[36] = {
        ib[0], ib[3], ib[4], 0,   -hz, hy,  //
        ib[3], ib[1], ib[5], hz,  0,   -hx, //
        ib[4], ib[5], ib[2], -hy, hx,  0,   //
        0,     hz,    -hy,   m,   0,   0,   //
        -hz,   0,     hx,    0,   m,   0,   //
        hy,    -hx,   0,     0,   0,   m,
    };
    memcpy(a, r, sizeof r);
}

// the velocity-product force v x* (I v) of a body at the world origin, from its centre of mass
// c and inertia about it (xx yy zz xy xz yz): with vc = v0 + w x c, the com's acceleration at
// zero spatial acceleration is w x vc, so F = m w x vc and n0 = w x (Ic w) + c x F
static inline void bias_force(sn_real* f, sn_real mass, const sn_real* c, const sn_real* ic,
                              const sn_real* v) {
    const sn_real* w = v;
    sn_real vc[3], icw[3];
    v3_copy(vc, v + 3);
    v3_addcross(vc, w, c);
    v3_cross(f + 3, w, vc);
    v3_scale(f + 3, f + 3, mass);
    icw[0] = ic[0] * w[0] + ic[3] * w[1] + ic[4] * w[2];
    icw[1] = ic[3] * w[0] + ic[1] * w[1] + ic[5] * w[2];
    icw[2] = ic[4] * w[0] + ic[5] * w[1] + ic[2] * w[2];
    v3_cross(f, w, icw);
    v3_addcross(f, c, f + 3);
}

// the mass matrix by CRBA into M (nv x nv; only the tree's pattern is written, the rest must be
// zero), with extra (nullable) added to each body's inertia: 10 numbers per body (body 0's
// unused) at the world origin as body_rbi (rbi_from). sn_crba is this with NULL into
// d->mass_matrix. Requires sn_fk (crba.c)
void sni_crba_extra(const sn_model* m, sn_data* d, const sn_real* extra, sn_real* M);

// RNEA, tau = M udot + h (udot nullable: zero) with d->gravity, as sn_rnea, with extra (nullable,
// as in sni_crba_extra) added to each body's inertia and ext (nullable; per body a wrench at the
// world origin, torque then force, 6 numbers, body 0's unused) acting on the bodies: tau gets
// - S^T of it. Requires sn_fk_vel (rnea.c)
void sni_rnea_extra(const sn_model* m, sn_data* d, const sn_real* udot, sn_real* tau,
                    const sn_real* extra, const sn_real* ext);

// ABA for (M + diag(armature + diag)) udot = tau - h; diag (nv) may be NULL (internal: the step
// adds its implicit diagonal w this way)
// d->inverse_mass = M^-1 (rotor inertia included) by ABA's sweeps on the identity, O(nv^2) on a
// dense M^-1 (docs in aba.c); needs sn_fk and a full data; SN_ERR_SINGULAR when a joint's
// articulated inertia is not positive
sn_status sni_aba_inverse_mass(const sn_model* m, sn_data* d);
sn_status sni_aba(const sn_model* m, sn_data* d, const sn_real* tau, const sn_real* diag,
                  sn_real* udot);

// x = (M + diag(armature + diag))^-1 f by the factor the last sni_aba left in d (its U, D and the
// root's articulated inertia; the same diag, the configuration unchanged since): a backward and a
// forward pass, O(n). p, acc (nbody x 6) and uu (nv) are scratch; SN_ERR_SINGULAR when a floating
// root's inertia is not positive (aba.c)
sn_status sni_aba_resolve(const sn_model* m, const sn_data* d, const sn_real* diag,
                          const sn_real* f, sn_real* x, sn_real* p, sn_real* acc, sn_real* uu);
// the joint-space inertia D = S^T IA S + armature (nd x nd, row-major) of body b's joint, from
// the articulated inertia IA that the backward pass of the last sni_aba left for b (valid for
// every body the pass reached; the pass runs from the last body to the first) (aba.c)
void sni_aba_joint_inertia(const sn_model* m, const sn_data* d, int b, sn_real* D);

// a light data, for the library's own passes (the compiler's mass check): it serves sn_fk,
// sn_fk_vel and sn_aba / sni_aba only. The dense nv x nv matrices (mass_matrix, mass_factor,
// inverse_mass) and the arrays of CRBA, RNEA and sn_fk_acc (ws_inertia, body_acc, body_force,
// ujoint_wrench, ws_frame) are NULL: sn_crba, sn_rnea, sn_nonlinear, sn_inverse_dynamics,
// sn_fk_acc, the mass factor and its solves, and the step must never see it. Its size is
// O(nbody + nv), with no limit; destroy with sn_data_destroy. (data.c)
sn_status sni_data_create_light(const sn_model* m, const sn_allocator* a, sn_data** out,
                                sn_error* err);

// joint wrenches from body accelerations and external body wrenches (rnea.c)
void sni_link_wrenches(const sn_model* m, sn_data* d, const sn_real* acc, const sn_real* ext);

// subtree wrenches per body, and the wrench of one fixed joint from a snapshot (rnea.c)
void sni_body_wrenches(const sn_model* m, const sn_data* d, const sn_real* acc, const sn_real* ext,
                       sn_real* out);
void sni_fixed_joint_wrench(const sn_model* m, const sn_data* d, int uj, const sn_real* pos,
                            const sn_real* rot, const sn_real* vel, const sn_real* acc,
                            const sn_real* body_wrench, sn_real* out);

// a factor L^T D L of a mass matrix in the tree's sparsity (minv.c): L (nv x nv, row-major; only
// the tree's pattern below the diagonal is meaningful) and D, its diagonal (nv). sn_data's
// mass_factor and mass_factor_d hold the factor of M; a world's step keeps its own of
// M~ = M + diag(w)
typedef struct sni_factor {
    sn_real* L;
    sn_real* D;
} sni_factor;

// factor M + diag(diag) (M nv x nv, diag nullable) into f (minv.c)
sn_status sni_factor_mass_diag(const sn_model* m, const sn_real* M, const sn_real* diag,
                               const sni_factor* f);
// x <- (L^T D L)^-1 x (minv.c)
void sni_solve_factor(const sn_model* m, const sni_factor* f, sn_real* x);
// x <- L^-T x: the first half of the solve (minv.c)
void sni_half_solve(const sn_model* m, const sni_factor* f, sn_real* x);
// x <- L^-1 D^-1 x: the rest of the solve (minv.c)
void sni_half_solve_rest(const sn_model* m, const sni_factor* f, sn_real* x);
// the two halves on three rows x, x + nv, x + 2 nv at once
void sni_half_solve3(const sn_model* m, const sni_factor* f, sn_real* x);
void sni_half_solve_rest3(const sn_model* m, const sni_factor* f, sn_real* x);

// last DOF on the path from body b to the root (b's own last DOF if it has one), or -1
static inline int sni_body_last_dof(const sn_model* m, int b) {
    while (b > 0) {
        int j = m->body_joint[b];
        if (m->joint_nv[j] > 0) return m->joint_vadr[j] + m->joint_nv[j] - 1;
        b = m->body_parent[b];
    }
    return -1;
}

// d's per-joint axis kinds from m's joint axes and rotations (data.c; sn_data_create does it,
// sn_system_update_mass_info again after a placement changed)
void sni_data_classify_joints(const sn_model* m, sn_data* d);

#endif
