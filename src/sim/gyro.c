// SPDX-License-Identifier: Apache-2.0
// gyro.c: the gyroscopic couple g_b = w_b x (I_b w_b) of the bodies on spherical and floating
// joints (I_b about the body's centre o: a spherical joint's anchor, a floating body's centre of
// mass). Seed 000's step takes it in h at the step's start (SN_GYROSCOPIC_EXPLICIT); for a fast
// spin its explicit rotation of the velocity grows by sqrt(1 + (dt W)^2) per step (W the
// gyroscopic frequency) and the step blows up. SN_GYROSCOPIC_MIDPOINT takes it instead as
// w_mid x L_b, w_mid = (w_t + w+)/2 and L_b the midpoint momentum I_b w_mid (the implicit midpoint
// rule, in the spirit of seed 002's Cayley step of the spin momenta: a skew matrix taken by
// Crank-Nicolson, which does no work). With J the bodies' angular Jacobian rows (3k x nv) and
// a = J du the bodies' velocity changes, the free velocity is
//   du = du_0 - dt M~^-1 J^T y,   y_b = (w_t,b + a_b / 2) x L_b,   du_0 = dt M~^-1 (tau - h + J^T
//   g_t)
// which reduces, with Lambda = J M~^-1 J^T, to a 3k x 3k system for a (Woodbury): L_b by Newton on
// the midpoint equation, then a by the linear system of that L_b, which keeps u_mid^T J^T y = 0
// exactly (no work) whatever Newton reached. The contact solver and the loops act after it through
// the symmetric M~ (their factorization is M~'s, as in every step), so their impulses' share of
// the velocity does not see the couple; a body held by a contact (a top on its tip) would have its
// contact torque turned by about dt W / 2 each step, which tilts it steadily. The last step's
// impulses f_prev therefore enter the couple as a known force: tau gets f_prev and du loses its
// M~ response dt M~^-1 f_prev, so a held load's couple is the midpoint one and the solver adds
// only this step's impulses, which it still makes meet their constraints exactly.
#include "math/dense.h"
#include "math/sym3.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

// the explicit couple is unsafe when dt times the gyroscopic frequency exceeds this: the wobble's
// energy then grows by (dt W)^2 = 9e-4 per step, an e-fold in about 1100 steps
#define GYRO_UNSAFE 0.03


int sni_gyro_bodies(const sn_model* m, int* list) {
    int k = 0;
    for (int b = 1; b < m->nbody; b++) {
        int t = m->joint_type[m->body_joint[b]];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        if (list) list[k] = b;
        k++;
    }
    return k;
}


// SEMI_IMPLICIT only: TRAPEZOID and EULER turn the bodies by (u + u+)/2 and u, which changes the
// kinetic energy the couple keeps (their positions, not the couple, decide; measured worse than
// the explicit couple there), and RUNGE_KUTTA_4's stages take h as it is
int sni_gyro_active(const sn_system* s) {
    return s->gyro.mode == SN_GYROSCOPIC_MIDPOINT && s->gyro.nbody > 0 &&
           s->step.scheme_used == SN_SCHEME_SEMI_IMPLICIT;
}


// ---- the bodies' centres, inertias and angular Jacobian rows ----

// body b's centre o, world: its spherical joint's anchor, or its centre of mass
static const sn_real* centre(const sn_model* m, const sn_data* d, int b) {
    int j = m->body_joint[b];
    return m->joint_type[j] == SN_JOINT_SPHERICAL ? d->joint_anchor + 3 * j : d->body_com + 3 * b;
}


// body b's inertia about o, world axes (3 x 3): I_c + m (|r|^2 1 - r r^T), r = com - o
static void inertia_about_centre(const sn_model* m, const sn_data* d, int b, sn_real* I) {
    const sn_real* ic = d->body_inertia_com + 6 * b; // xx yy zz xy xz yz
    const sn_real *c = d->body_com + 3 * b, *o = centre(m, d, b);
    sn_real r[3] = {c[0] - o[0], c[1] - o[1], c[2] - o[2]}, mass = m->body_mass[b];
    sn_real r2 = v3_dot(r, r);
    sn_real ib[9] = {ic[0], ic[3], ic[4], ic[3], ic[1], ic[5], ic[4], ic[5], ic[2]};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            I[3 * i + k] = ib[3 * i + k] + mass * ((i == k ? r2 : 0) - r[i] * r[k]);
}


// out (nv) += J_b^T x: the generalized force of a couple x (world) on body b
static void jt_couple(const sn_model* m, const sn_data* d, int b, const sn_real* x, sn_real* out) {
    for (; b > 0; b = m->body_parent[b]) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        for (int v = v0; v < v0 + m->joint_nv[j]; v++)
            out[v] += v3_dot(d->dof_motion + 6 * v, x);
    }
}


// out (3) = J_b x: body b's angular velocity for the generalized velocity x (nv)
static void j_angular(const sn_model* m, const sn_data* d, int b, const sn_real* x, sn_real* out) {
    out[0] = out[1] = out[2] = 0;
    for (; b > 0; b = m->body_parent[b]) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        for (int v = v0; v < v0 + m->joint_nv[j]; v++)
            for (int e = 0; e < 3; e++)
                out[e] += d->dof_motion[6 * v + e] * x[v];
    }
}


// ---- the warning of the explicit couple ----

// the principal axes of each body's inertia about o in its own frame, and per axis the
// gyroscopic frequency of a unit spin about it, sqrt(|(I_i - I_j)(I_i - I_k)| / (I_j I_k)) (the
// rate of the wobble of a spin about a principal axis: zero for a sphere, one for a thin rod
// spun about its length)
static void prepare(sn_system* s) {
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    for (int g = 0; g < s->gyro.nbody; g++) {
        int b = s->gyro.body[g];
        sn_real Iw[9], Ib[9], t[9], ev[3], *V = s->gyro.axes + 9 * g;
        const sn_real* R = d->body_rot + 9 * b;
        inertia_about_centre(m, d, b, Iw);
        // Ib = R^T Iw R
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                t[3 * i + k] =
                    Iw[3 * i] * R[k] + Iw[3 * i + 1] * R[3 + k] + Iw[3 * i + 2] * R[6 + k];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                Ib[3 * i + k] = R[i] * t[k] + R[3 + i] * t[3 + k] + R[6 + i] * t[6 + k];
        sni_sym3_eigen(Ib, ev, V);
        for (int i = 0; i < 3; i++) {
            sn_real a = ev[i], p = ev[(i + 1) % 3], q = ev[(i + 2) % 3];
            sn_real c = p > 0 && q > 0 ? sqrt(fabs((a - p) * (a - q)) / (p * q)) : 0;
            s->gyro.coef[3 * g + i] = c;
        }
    }
    s->gyro.ready = 1;
}


void sni_gyro_check(sn_system* s, sn_real dt) {
    if (s->gyro.warned || s->gyro.mode != SN_GYROSCOPIC_EXPLICIT || s->gyro.nbody == 0) return;
    if (s->step.scheme_used != SN_SCHEME_SEMI_IMPLICIT) return;
    if (!s->gyro.ready) prepare(s);
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    for (int g = 0; g < s->gyro.nbody; g++) {
        int b = s->gyro.body[g];
        const sn_real *R = d->body_rot + 9 * b, *w = d->body_vel + 6 * b;
        const sn_real* V = s->gyro.axes + 9 * g;
        sn_real freq = 0;
        for (int i = 0; i < 3; i++) {
            // the spin about principal axis i: w . (R V e_i)
            sn_real wi = 0;
            for (int e = 0; e < 3; e++)
                wi += w[e] * (R[3 * e] * V[i] + R[3 * e + 1] * V[3 + i] + R[3 * e + 2] * V[6 + i]);
            freq += s->gyro.coef[3 * g + i] * fabs(wi);
        }
        if (!(dt * freq > GYRO_UNSAFE)) continue;
        sni_world_warn(s->world,
                       "body '%s' spins at %.4g rad/s: its explicit gyroscopic term is unsafe at "
                       "dt = %g s (dt times its gyroscopic frequency %.4g rad/s is %.3g > %g; the "
                       "wobble's energy grows by that squared per step); take it at the step's "
                       "midpoint with sn_system_set_gyroscopic(s, SN_GYROSCOPIC_MIDPOINT) "
                       "(sinew run --gyroscopic midpoint) or use a smaller dt (said once)",
                       m->names + m->body_name[b], sqrt(v3_dot(w, w)), dt, freq, dt * freq,
                       GYRO_UNSAFE);
        s->gyro.warned = 1;
        return;
    }
}


// ---- the midpoint couple ----

// Lambda = J M~^-1 J^T from M~'s factor L^T D L: X = L^-T J^T (one row of nv per column of J^T),
// Lambda = X D^-1 X^T
static void build_lambda(sn_system* s) {
    const sn_model* m = s->m;
    int nv = m->nv, r = 3 * s->gyro.nbody;
    sn_real *X = s->gyro.X, *Lam = s->gyro.lambda;
    for (int i = 0; i < r; i++) {
        sn_real* xi = X + (size_t)i * nv;
        sn_real e[3] = {0, 0, 0};
        e[i % 3] = 1;
        memset(xi, 0, (size_t)nv * sizeof(sn_real));
        jt_couple(m, s->d, s->gyro.body[i / 3], e, xi);
        sni_half_solve(m, &s->step.mtilde, xi);
    }
    for (int i = 0; i < r; i++)
        for (int k = 0; k <= i; k++) {
            const sn_real *xi = X + (size_t)i * nv, *xk = X + (size_t)k * nv;
            sn_real sum = 0;
            for (int v = 0; v < nv; v++)
                sum += xi[v] * s->step.dinv[v] * xk[v];
            Lam[i * r + k] = Lam[k * r + i] = sum;
        }
}


// y_b = mid_b x (I_b mid_b), mid_b = w_t,b + a_b / 2; the momenta I_b mid_b into mom
static void midpoint_couple(sni_gyro* gy, const sn_real* a, sn_real* y, sn_real* mom) {
    for (int g = 0; g < gy->nbody; g++) {
        sn_real mid[3];
        for (int e = 0; e < 3; e++)
            mid[e] = gy->omega[3 * g + e] + 0.5 * a[3 * g + e];
        m3_mul_v3(mom + 3 * g, gy->inertia + 9 * g, mid);
        v3_cross(y + 3 * g, mid, mom + 3 * g);
    }
}


static sn_real norm_inf(const sn_real* x, int n) {
    sn_real r = 0;
    for (int i = 0; i < n; i++)
        r = fmax(r, fabs(x[i]));
    return r;
}


// the midpoint momenta L_b = I_b w_mid,b: Newton on F(a) = a - a0 + dt Lambda y(a) = 0, from the
// explicit couple's a, with dF/da = 1 + dt Lambda Y, Y_b = (1/2) ([mid]x I_b - [I_b mid]x). Ends in
// gy->mom; a stays the last iterate (a fallback: L_b of the step's start velocity)
static void midpoint_momenta(sni_gyro* gy, sn_real dt) {
    int r = 3 * gy->nbody;
    const sn_real* Lam = gy->lambda;
    sn_real *a = gy->a, *y = gy->y, *f = gy->f, *A = gy->lu;
    // start: the explicit couple's a = a0 - dt Lambda g_t (y at a = 0 is g_t)
    memset(f, 0, (size_t)r * sizeof(sn_real));
    midpoint_couple(gy, f, y, gy->mom);
    for (int i = 0; i < r; i++) {
        sn_real s = 0;
        for (int k = 0; k < r; k++)
            s += Lam[i * r + k] * y[k];
        a[i] = gy->a0[i] - dt * s;
    }
    gy->newton = 0;
    for (int it = 0; it < 12; it++) {
        midpoint_couple(gy, a, y, gy->mom);
        for (int i = 0; i < r; i++) {
            sn_real s = 0;
            for (int k = 0; k < r; k++)
                s += Lam[i * r + k] * y[k];
            f[i] = a[i] - gy->a0[i] + dt * s;
        }
        sn_real fa = norm_inf(f, r), scale = norm_inf(gy->omega, r) + norm_inf(a, r);
        if (!(fa > 1e-15 * scale)) break;
        // A = 1 + dt Lambda Y, Y block-diagonal
        for (int g = 0; g < gy->nbody; g++) {
            const sn_real* I = gy->inertia + 9 * g;
            sn_real mid[3], Y[9];
            for (int e = 0; e < 3; e++)
                mid[e] = gy->omega[3 * g + e] + 0.5 * a[3 * g + e];
            const sn_real* L = gy->mom + 3 * g;
            // [mid]x I - [L]x, halved
            for (int col = 0; col < 3; col++) {
                sn_real ic[3] = {I[col], I[3 + col], I[6 + col]}, ec[3] = {0, 0, 0}, t1[3], t2[3];
                ec[col] = 1;
                v3_cross(t1, mid, ic);
                v3_cross(t2, L, ec);
                for (int e = 0; e < 3; e++)
                    Y[3 * e + col] = 0.5 * (t1[e] - t2[e]);
            }
            for (int i = 0; i < r; i++)
                for (int col = 0; col < 3; col++) {
                    sn_real s = 0;
                    for (int e = 0; e < 3; e++)
                        s += Lam[i * r + 3 * g + e] * Y[3 * e + col];
                    A[i * r + 3 * g + col] = (i == 3 * g + col) + dt * s;
                }
        }
        if (sni_lu_factor(A, r, gy->piv) != SN_OK) break;
        sni_lu_solve(A, r, gy->piv, f);
        if (!(norm_inf(f, r) <= 1e3 * (scale + 1))) break; // diverging: keep the last momenta
        for (int i = 0; i < r; i++)
            a[i] -= f[i];
        gy->newton = it + 1;
    }
    midpoint_couple(gy, a, y, gy->mom);
}


// a from the linear system of fixed momenta L_b: (1 + dt/2 Lambda G) a = a0 - dt Lambda G w_t,
// G = diag(-[L_b]x) (so G x = x x L); then y_b = (w_t,b + a_b / 2) x L_b. SN_ERR_SINGULAR if the
// system is (it cannot be: Lambda^-1 + dt/2 G has a positive definite symmetric part)
static sn_status midpoint_solve(sni_gyro* gy, sn_real dt) {
    int r = 3 * gy->nbody;
    const sn_real* Lam = gy->lambda;
    sn_real *A = gy->lu, *a = gy->a, *y = gy->y;
    for (int g = 0; g < gy->nbody; g++) {
        const sn_real* L = gy->mom + 3 * g;
        // column e of -[L]x is e_e x L
        for (int col = 0; col < 3; col++) {
            sn_real ec[3] = {0, 0, 0}, gc[3];
            ec[col] = 1;
            v3_cross(gc, ec, L);
            for (int i = 0; i < r; i++) {
                sn_real s = 0;
                for (int e = 0; e < 3; e++)
                    s += Lam[i * r + 3 * g + e] * gc[e];
                A[i * r + 3 * g + col] = (i == 3 * g + col) + 0.5 * dt * s;
            }
        }
        v3_cross(y + 3 * g, gy->omega + 3 * g, L); // G w_t
    }
    for (int i = 0; i < r; i++) {
        sn_real s = 0;
        for (int k = 0; k < r; k++)
            s += Lam[i * r + k] * y[k];
        a[i] = gy->a0[i] - dt * s;
    }
    sn_status st = sni_lu_factor(A, r, gy->piv);
    if (st != SN_OK) return st;
    sni_lu_solve(A, r, gy->piv, a);
    for (int g = 0; g < gy->nbody; g++) {
        sn_real mid[3];
        for (int e = 0; e < 3; e++)
            mid[e] = gy->omega[3 * g + e] + 0.5 * a[3 * g + e];
        v3_cross(y + 3 * g, mid, gy->mom + 3 * g);
    }
    return SN_OK;
}


sn_status sni_gyro_free_velocity(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    sni_gyro* gy = &s->gyro;
    int nv = m->nv, k = gy->nbody;
    // the couples at the step's start, g_t = w x (I w), taken out of h: tau = tau_exp + J^T g_t
    memcpy(gy->tau, s->step.tau_exp, (size_t)nv * sizeof(sn_real));
    for (int g = 0; g < k; g++) {
        int b = gy->body[g];
        sn_real *I = gy->inertia + 9 * g, *w = gy->omega + 3 * g, L[3], c[3];
        inertia_about_centre(m, d, b, I);
        v3_copy(w, d->body_vel + 6 * b);
        m3_mul_v3(L, I, w);
        v3_cross(c, w, L);
        jt_couple(m, d, b, c, gy->tau);
    }
    for (int i = 0; i < nv; i++)
        gy->tau[i] += gy->fprev[i];
    // du_0 = dt M~^-1 (tau - h) by the ABA, in u1
    sn_real* u1 = s->step.u1;
    sn_status st = sni_aba(m, d, gy->tau, s->ctl.w, d->udot);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++)
        u1[i] = dt * d->udot[i];
    // M~'s factor (the stage "factor M~" then keeps it), Lambda, a0 = J du_0
    st = sni_step_factor(s);
    if (st != SN_OK) return st;
    build_lambda(s);
    for (int g = 0; g < k; g++)
        j_angular(m, d, gy->body[g], u1, gy->a0 + 3 * g);
    midpoint_momenta(gy, dt);
    st = midpoint_solve(gy, dt);
    if (st != SN_OK) return st;
    // du = du_0 - dt M~^-1 J^T y, with M~^-1 J^T y = L^-1 D^-1 (X^T y)
    sn_real* z = gy->z;
    memset(z, 0, (size_t)nv * sizeof(sn_real));
    for (int i = 0; i < 3 * k; i++) {
        const sn_real* xi = gy->X + (size_t)i * nv;
        for (int v = 0; v < nv; v++)
            z[v] += gy->y[i] * xi[v];
    }
    sni_half_solve_rest(m, &s->step.mtilde, z);
    for (int i = 0; i < nv; i++)
        u1[i] = s->step.u0[i] + u1[i] - dt * z[i];
    // the last step's impulses: their couple stays, their M~ response goes (the solver adds this
    // step's)
    memcpy(z, gy->fprev, (size_t)nv * sizeof(sn_real));
    sni_solve_factor(m, &s->step.mtilde, z);
    for (int i = 0; i < nv; i++)
        u1[i] -= dt * z[i];
    memcpy(gy->ustar, u1, (size_t)nv * sizeof(sn_real));
    gy->applied = 1;
    return SN_OK;
}


// the impulses of the contacts, limits, friction and loops of this step, f = M~ (u+ - u*) / dt
// = J_c^T lambda / dt, kept for the next step's couple (zero when the couple did not apply)
void sni_gyro_impulses(sn_system* s, sn_real dt) {
    sni_gyro* gy = &s->gyro;
    const sn_model* m = s->m;
    int nv = m->nv;
    if (!gy->applied) {
        memset(gy->fprev, 0, (size_t)nv * sizeof(sn_real));
        return;
    }
    const sn_real *M = s->d->mass_matrix, *u1 = s->step.u1;
    sn_real* z = gy->z;
    for (int i = 0; i < nv; i++)
        z[i] = u1[i] - gy->ustar[i];
    for (int i = 0; i < nv; i++) {
        sn_real f = s->ctl.w[i] * z[i];
        for (int j = 0; j < nv; j++)
            f += M[i * nv + j] * z[j];
        gy->fprev[i] = f / dt;
    }
}
