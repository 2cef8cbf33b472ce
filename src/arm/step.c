// SPDX-License-Identifier: Apache-2.0
// step.c: the arm component's step (seed 002, docs/arm.md), in the seed's order:
//   Ms = M(theta_n; C0), Me = M(theta_n; C1)    CRBA with the carried inertia (sni_crba_extra)
//   G = sum_k S_k^T [H_k]x S_k                   the spin momenta's skew matrix
//   theta' = (Ms - dt/2 G)^-1 (Ms + dt/2 G) theta_n-dot      Cayley: theta'^T Ms theta' is kept
//   theta* = A^-1 (Ms theta' + dt (u - h(theta_n, theta'; g, W, C0))),  A = Me + dt D
//   theta_n+1-dot: the stops and friction by projected Gauss-Seidel (pgs.c)
//   theta_n+1 = clamp(theta_n + dt theta_n+1-dot, l, h); the frames by FK
// Everything is computed in the base frame (the model's world): g and W are turned into it by
// R(O)^T, and P, Omega out of it by O. H and C are in frame k's axes, which O does not change.
#include "arm/arm.h"
#include "math/dense.h"

#include <math.h>
#include <string.h>

static int all_zero6(const sn_real* x) {
    for (int i = 0; i < 6; i++)
        if (x[i] != 0) return 0;
    return 1;
}

void sni_arm_extra(const sn_arm* a, const sn_real* C, sn_real* out) {
    const sn_model* m = a->m;
    memset(out, 0, 10 * (size_t)m->nbody * sizeof(sn_real));
    if (!C) return;
    for (int k = 0; k < a->n; k++) {
        const sn_real* c = C + 10 * k;
        if (c[0] == 0 && all_zero6(c + 4)) continue;
        int f = a->frame[k], b = m->frame_body[f];
        sn_real p[3], R[9], com[3], Ib[9], Iw[9], rbi[10];
        sn_frame_pose(m, a->d, f, p, R);
        m3_mul_v3(com, R, c + 1);
        v3_addscl(com, p, 1);
        const sn_real* I = c + 4; // xx xy xz yy yz zz
        sn_real full[9] = {I[0], I[1], I[2], I[1], I[3], I[4], I[2], I[4], I[5]};
        memcpy(Ib, full, sizeof Ib);
        m3_rotate_sym(Iw, R, Ib);
        rbi_from(rbi, c[0], com, Iw);
        for (int e = 0; e < 10; e++)
            out[10 * b + e] += rbi[e];
    }
}


int sni_arm_gyro(sn_arm* a, const sn_real* H, sn_real* G) {
    const sn_model* m = a->m;
    int n = a->n, any = 0;
    memset(G, 0, (size_t)n * n * sizeof(sn_real));
    if (!H) return 0;
    // hw[i]: the spin momenta (base axes) of the frames DOF i moves, summed: frame k on body b
    // is moved by DOFs 0..b-1 of the chain
    sn_real* hw = a->hw;
    memset(hw, 0, 3 * (size_t)n * sizeof(sn_real));
    for (int k = 0; k < n; k++) {
        const sn_real* h = H + 3 * k;
        if (h[0] == 0 && h[1] == 0 && h[2] == 0) continue;
        any = 1;
        sn_real p[3], R[9], hb[3];
        int f = a->frame[k];
        sn_frame_pose(m, a->d, f, p, R);
        m3_mul_v3(hb, R, h);
        v3_addscl(hw + 3 * (m->frame_body[f] - 1), hb, 1);
    }
    if (!any) return 0;
    for (int i = n - 2; i >= 0; i--)
        v3_addscl(hw + 3 * i, hw + 3 * (i + 1), 1);
    // G_ij = w_i . (Hsum_max(i,j) x w_j), w the DOFs' angular motion (zero for a slider)
    for (int i = 0; i < n; i++) {
        const sn_real* wi = a->d->dof_motion + 6 * i;
        for (int j = i + 1; j < n; j++) {
            sn_real c[3];
            v3_cross(c, hw + 3 * j, a->d->dof_motion + 6 * j);
            sn_real g = v3_dot(wi, c);
            G[i * n + j] = g;
            G[j * n + i] = -g;
        }
    }
    return 1;
}


// the link wrenches W (world, at frame k's origin) as wrenches at the base origin per body,
// (torque, force) in base axes; 0 when W is NULL or zero
static int link_wrenches(sn_arm* a, const sn_real* W) {
    const sn_model* m = a->m;
    memset(a->ext, 0, 6 * (size_t)m->nbody * sizeof(sn_real));
    if (!W) return 0;
    int any = 0;
    for (int k = 0; k < a->n; k++) {
        const sn_real* w = W + 6 * k;
        int zero = 1;
        for (int e = 0; e < 6; e++)
            zero &= w[e] == 0;
        if (zero) continue;
        any = 1;
        int f = a->frame[k], b = m->frame_body[f];
        sn_real p[3], F[3], T[3];
        sn_frame_pose(m, a->d, f, p, NULL);
        m3t_mul_v3(F, a->place_rot, w);
        m3t_mul_v3(T, a->place_rot, w + 3);
        v3_addcross(T, p, F);
        v3_addscl(a->ext + 6 * b, T, 1);
        v3_addscl(a->ext + 6 * b + 3, F, 1);
    }
    return any;
}


// y = M x (n x n, row-major)
static void mat_vec(const sn_real* M, const sn_real* x, sn_real* y, int n) {
    for (int i = 0; i < n; i++) {
        sn_real s = 0;
        for (int j = 0; j < n; j++)
            s += M[i * n + j] * x[j];
        y[i] = s;
    }
}

// 1/2 x^T (M + dt D) x
static sn_real energy_in(const sn_arm* a, const sn_real* M, const sn_real* x, sn_real dt) {
    int n = a->n;
    sn_real e = 0;
    for (int i = 0; i < n; i++) {
        sn_real s = 0;
        for (int j = 0; j < n; j++)
            s += M[i * n + j] * x[j];
        e += x[i] * (s + dt * a->damping[i] * x[i]);
    }
    return 0.5 * e;
}

static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


// the inputs checked: finite, carried masses >= 0
static sn_status check_inputs(sn_arm* a, const sn_arm_inputs* in) {
    const char* who = "sn_arm_step";
    int n = a->n;
    const sn_real* arr[] = {in->torques, in->wrench, in->momentum, in->inertia0, in->inertia1};
    const char* names[] = {"torques", "wrench", "momentum", "inertia0", "inertia1"};
    const int per[] = {1, 6, 3, 10, 10};
    for (int g = 0; g < 5; g++) {
        if (!arr[g]) continue;
        for (int i = 0; i < per[g] * n; i++)
            if (!isfinite(arr[g][i]))
                return sni_arm_fail(a, SN_ERR_NONFINITE, "%s: %s[%d] (link %d) is not finite", who,
                                    names[g], i, i / per[g] + 1);
        if (per[g] != 10) continue;
        for (int k = 0; k < n; k++) {
            const sn_real* c = arr[g] + 10 * k;
            if (c[0] < 0)
                return sni_arm_fail(a, SN_ERR_ARG, "%s: %s: link %d's mass %g is negative", who,
                                    names[g], k + 1, c[0]);
            // its inertia about its centre, as a link's: positive semi-definite, or M would
            // lose its definiteness
            sn_real ev[3];
            if (!sni_arm_inertia_psd(c + 4, ev))
                return sni_arm_fail(a, SN_ERR_ARG,
                                    "%s: %s: link %d's inertia is not positive semi-definite "
                                    "(eigenvalues %g %g %g)",
                                    who, names[g], k + 1, ev[0], ev[1], ev[2]);
        }
    }
    return SN_OK;
}

// a failed step: the state as it was (d->u is the step's scratch for theta' during h)
// and no report (it would mix this step's results with the last one's)
static sn_status fail_step(sn_arm* a, sn_status st, const char* what) {
    a->stepped = 0;
    memcpy(a->d->u, a->u1, (size_t)a->n * sizeof(sn_real));
    sn_fk(a->m, a->d);
    sn_fk_vel(a->m, a->d);
    return sni_arm_fail(a, st, "sn_arm_step: %s; the state is kept", what);
}

sn_status sn_arm_step(sn_arm* a, sn_real dt, const sn_arm_inputs* in) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_step: arm is NULL");
    if (!isfinite(dt) || !(dt > 0) || dt > 1)
        return sni_arm_fail(a, SN_ERR_ARG, "sn_arm_step: dt = %g is not in (0, 1] s", dt);
    static const sn_arm_inputs none = {0};
    if (!in) in = &none;
    sn_status st = check_inputs(a, in);
    if (st != SN_OK) return st;
    const sn_model* m = a->m;
    sn_data* d = a->d;
    int n = a->n;
    size_t vb = (size_t)n * sizeof(sn_real);
    memcpy(a->u1, d->u, vb);       // theta_n-dot, kept for a failure
    if (!d->fk_valid) sn_fk(m, d); // the kinematics are those of the state after each change
    m3t_mul_v3(d->gravity, a->place_rot, a->gravity);

    // Ms, Me: the carried inertia at the start and the end of the step
    const sn_real* C1 = in->inertia1 ? in->inertia1 : in->inertia0;
    sni_arm_extra(a, in->inertia0, a->extra0);
    memset(a->Ms, 0, vb * n);
    sni_crba_extra(m, d, in->inertia0 ? a->extra0 : NULL, a->Ms);
    if (C1 != in->inertia0 && (!in->inertia0 || memcmp(C1, in->inertia0, 10 * vb) != 0)) {
        sni_arm_extra(a, C1, a->extra1);
        memset(a->Me, 0, vb * n);
        sni_crba_extra(m, d, a->extra1, a->Me);
    } else {
        memcpy(a->Me, a->Ms, vb * n);
    }

    // theta' by the Cayley step of G
    const sn_real* u0 = a->u1;
    if (sni_arm_gyro(a, in->momentum, a->G)) {
        for (int i = 0; i < n * n; i++)
            a->B[i] = a->Ms[i] - 0.5 * dt * a->G[i];
        for (int i = 0; i < n; i++) {
            sn_real s = 0;
            for (int j = 0; j < n; j++)
                s += (a->Ms[i * n + j] + 0.5 * dt * a->G[i * n + j]) * u0[j];
            a->theta_prime[i] = s;
        }
        if (sni_lu_factor(a->B, n, a->piv) != SN_OK)
            return fail_step(a, SN_ERR_SINGULAR, "Ms - dt/2 G is singular (a link without mass?)");
        sni_lu_solve(a->B, n, a->piv, a->theta_prime);
    } else {
        memcpy(a->theta_prime, u0, vb);
    }
    if (!finite_n(a->theta_prime, n)) return fail_step(a, SN_ERR_NONFINITE, "theta' is not finite");

    // h(theta_n, theta'; g, W, C0) by RNEA at the velocity theta'
    memcpy(d->u, a->theta_prime, vb);
    sn_fk_vel(m, d);
    int wrenches = link_wrenches(a, in->wrench);
    sni_rnea_extra(m, d, NULL, a->bias, in->inertia0 ? a->extra0 : NULL, wrenches ? a->ext : NULL);

    // theta* = A^-1 (Ms theta' + dt (u - h)), A = Me + dt D
    mat_vec(a->Ms, a->theta_prime, a->rhs, n);
    for (int i = 0; i < n; i++) {
        a->rhs[i] += dt * ((in->torques ? in->torques[i] : 0) - a->bias[i]);
        a->tmp[i] = dt * a->damping[i];
    }
    sni_factor f = {a->fac_L, a->fac_D};
    if (sni_factor_mass_diag(m, a->Me, a->tmp, &f) != SN_OK)
        return fail_step(a, SN_ERR_SINGULAR, "A = Me + dt D is not positive definite");
    memcpy(a->theta_star, a->rhs, vb);
    sni_solve_factor(m, &f, a->theta_star);
    if (!finite_n(a->theta_star, n)) return fail_step(a, SN_ERR_NONFINITE, "theta* is not finite");

    // the stops and friction
    a->rep_stuck = 0;
    a->rep_sweeps = sni_arm_pgs(a, a->theta_star, dt);
    if (!finite_n(a->v, n)) return fail_step(a, SN_ERR_NONFINITE, "the new velocity is not finite");
    for (int i = 0; i < n; i++) {
        sn_real q = d->q[i] + dt * a->v[i];
        // a velocity the stop bounds (pgs.c's box, the same expression) ends exactly at it:
        // theta_n + dt (h - theta_n)/dt may round to a hair inside
        if (a->v[i] >= (a->upper[i] - d->q[i]) / dt) q = a->upper[i];
        if (a->v[i] <= (a->lower[i] - d->q[i]) / dt) q = a->lower[i];
        a->q1[i] = fmin(fmax(q, a->lower[i]), a->upper[i]);
    }
    if (!finite_n(a->q1, n))
        return fail_step(a, SN_ERR_NONFINITE, "the new position is not finite");

    // the report: impulses A (v - theta*) and the energies in A's metric
    for (int i = 0; i < n; i++)
        a->tmp[i] = a->v[i] - a->theta_star[i];
    mat_vec(a->Me, a->tmp, a->impulse, n);
    for (int i = 0; i < n; i++)
        a->impulse[i] += dt * a->damping[i] * a->tmp[i];
    a->rep_e_star = energy_in(a, a->Me, a->theta_star, dt);
    a->rep_e_end = energy_in(a, a->Me, a->v, dt);
    if (!isfinite(a->rep_e_star) || !isfinite(a->rep_e_end))
        return fail_step(a, SN_ERR_NONFINITE, "the step's energy is not finite (inputs too large)");
    a->stepped = 1;

    // commit, and the frames at the new state
    memcpy(d->q, a->q1, vb);
    memcpy(d->u, a->v, vb);
    sn_fk(m, d);
    sn_fk_vel(m, d);
    sni_arm_frames(a);
    return SN_OK;
}


// ---- what the step uses, for a caller ----

sn_status sn_arm_mass_matrix(sn_arm* a, const sn_real* C, sn_real* M) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_mass_matrix: arm is NULL");
    if (!M) return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_mass_matrix: M is NULL");
    if (!M) return sni_arm_fail(a, SN_ERR_ARG, "sn_arm_mass_matrix: M is NULL");
    sn_arm_inputs in = {0};
    in.inertia0 = C;
    sn_status st = check_inputs(a, &in);
    if (st != SN_OK) return st;
    sn_fk(a->m, a->d);
    sni_arm_extra(a, C, a->extra0);
    memset(M, 0, (size_t)a->n * a->n * sizeof(sn_real));
    sni_crba_extra(a->m, a->d, C ? a->extra0 : NULL, M);
    return SN_OK;
}

sn_status sn_arm_gyroscopic_matrix(sn_arm* a, const sn_real* H, sn_real* G) {
    if (!a) return sni_refuse(SN_ERR_ARG, "sn_arm_gyroscopic_matrix: arm is NULL");
    if (!G) return sni_arm_fail((sn_arm*)a, SN_ERR_ARG, "sn_arm_gyroscopic_matrix: G is NULL");
    if (!G) return sni_arm_fail(a, SN_ERR_ARG, "sn_arm_gyroscopic_matrix: G is NULL");
    sn_arm_inputs in = {0};
    in.momentum = H;
    sn_status st = check_inputs(a, &in);
    if (st != SN_OK) return st;
    sn_fk(a->m, a->d);
    sni_arm_gyro(a, H, G);
    return SN_OK;
}

sn_real sn_arm_kinetic_energy(sn_arm* a, const sn_real* C) {
    if (!a) {
        sni_refuse(SN_ERR_ARG, "sn_arm_kinetic_energy: arm is NULL");
        return (sn_real)NAN;
    }
    if (sn_arm_mass_matrix(a, C, a->B) != SN_OK) return NAN;
    return energy_in(a, a->B, a->d->u, 0);
}
