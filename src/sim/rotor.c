// SPDX-License-Identifier: Apache-2.0
// rotor.c: the gyroscopic effect of rotors spinning on 1-DOF joints (issue 15, beyond seed 000).
// A rotor on DOF v (a motor's rotor geared to the joint by N) is carried by the joint's parent
// body p (the stator is on the parent link) and spins about the joint's axis a (world axes; a
// prismatic joint's screw axis, its direction of travel) at N u_v, with spin momentum
//   H = I N u_v a.
// Carried by p, it turns with p's angular velocity w_p = S_p u (S_p p's angular Jacobian rows,
// world axes), and p feels the couple H x w_p: the generalized force G u with
//   G = sum over rotors of S_p^T [H]x S_p     (nv x nv, skew: u^T G u = 0, it does no work).
// The step takes it by seed 002's Cayley step (Crank-Nicolson on the skew matrix, M sn_crba's
// mass matrix with the armature): (M - dt/2 G) u' = (M + dt/2 G) u_t, which keeps u^T M u exactly
// ((u' + u)^T M (u' - u) = dt/2 (u' + u)^T G (u' + u) = 0), and adds the increment u' - u_t to the
// free velocity u* = u_t + dt M~^-1 (tau - h) (h at u_t as seed 000 has it; seed 002 takes h at
// u'). M - dt/2 G is never singular (x^T (M - dt/2 G) x = x^T M x > 0): LU with pivoting. The
// reflected inertia I N^2 on the diagonal is not added here: it is the model's armature.
#include "dynamics/dyn.h"
#include "math/dense.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)


// ---- the scratch ----

static sn_status rotor_alloc(sn_system* s) {
    if (s->rotor.bytes) return SN_OK;
    size_t nv = (size_t)s->m->nv;
    size_t reals = 2 * nv + 2 * nv * nv + nv;
    size_t bytes = reals * sizeof(sn_real) + nv * sizeof(int);
    sn_real* p = sni_alloc(&s->world->alloc, bytes);
    if (!p) return SET_ERR(s->world, SN_ERR_NOMEM, "sn_system_set_rotor: out of memory");
    memset(p, 0, bytes);
    sni_rotor* r = &s->rotor;
    r->inertia = p;
    r->ratio = p + nv;
    r->G = p + 2 * nv;
    r->lu = r->G + nv * nv;
    r->b = r->lu + nv * nv;
    r->piv = (int*)(void*)(r->b + nv);
    r->bytes = bytes;
    return SN_OK;
}


void sni_rotor_free(sn_system* s) {
    if (!s->rotor.bytes) return;
    sni_free(&s->world->alloc, s->rotor.inertia, s->rotor.bytes);
    memset(&s->rotor, 0, sizeof s->rotor);
}


// ---- the settings ----

// the 1-DOF joint of dof (revolute, continuous, prismatic), else -1
static int one_dof_joint(const sn_model* m, int dof) {
    int j = m->dof_joint[dof], t = m->joint_type[j];
    if (m->joint_nv[j] != 1) return -1;
    return t == SN_JOINT_REVOLUTE || t == SN_JOINT_CONTINUOUS || t == SN_JOINT_PRISMATIC ? j : -1;
}


sn_status sn_system_set_rotor(sn_system* s, int dof, sn_real spin_inertia, sn_real gear_ratio) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_model* m = s->m;
    sn_world* w = s->world;
    if (dof < 0 || dof >= m->nv)
        return SET_ERR(w, SN_ERR_ARG, "sn_system_set_rotor: dof %d: the system has DOFs 0 to %d",
                       dof, m->nv - 1);
    if (!isfinite(spin_inertia) || spin_inertia < 0)
        return SET_ERR(w, isfinite(spin_inertia) ? SN_ERR_ARG : SN_ERR_NONFINITE,
                       "sn_system_set_rotor: spin_inertia %g of DOF %d: a finite number >= 0 "
                       "(kg m^2; 0 removes the rotor)",
                       spin_inertia, dof);
    if (!isfinite(gear_ratio))
        return SET_ERR(w, SN_ERR_NONFINITE,
                       "sn_system_set_rotor: gear_ratio %g of DOF %d: a finite number", gear_ratio,
                       dof);
    int j = one_dof_joint(m, dof);
    if (j < 0)
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_system_set_rotor: dof %d belongs to joint '%s', which is not a 1-DOF "
                       "joint (revolute, continuous or prismatic): a rotor drives one DOF",
                       dof, sn_model_name(m, SN_OBJ_JOINT, m->dof_joint[dof]));
    if (spin_inertia == 0) {
        if (s->rotor.bytes && s->rotor.inertia[dof] != 0) s->rotor.n--;
        if (s->rotor.bytes) s->rotor.inertia[dof] = s->rotor.ratio[dof] = 0;
        return SN_OK;
    }
    if (gear_ratio == 0)
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_system_set_rotor: gear_ratio 0 of DOF %d: the rotor would not spin "
                       "(set spin_inertia 0 to remove it)",
                       dof);
    if (s->step.scheme != SN_SCHEME_SEMI_IMPLICIT)
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_system_set_rotor: the system's scheme is not SEMI_IMPLICIT: the rotors' "
                       "Cayley step is a part of the SEMI_IMPLICIT step only");
    if (sni_soft_on(w))
        return SET_ERR(w, SN_ERR_ARG,
                       "sn_system_set_rotor: the world uses soft contacts, whose integrator "
                       "does not take the rotors' Cayley step");
    sn_status st = rotor_alloc(s);
    if (st != SN_OK) return st;
    if (s->rotor.inertia[dof] == 0) s->rotor.n++;
    s->rotor.inertia[dof] = spin_inertia;
    s->rotor.ratio[dof] = gear_ratio;
    return SN_OK;
}


sn_status sn_system_rotor(const sn_system* s, int dof, sn_real* spin_inertia, sn_real* gear_ratio) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (dof < 0 || dof >= s->m->nv)
        return SET_ERR(s->world, SN_ERR_ARG, "sn_system_rotor: dof %d: the system has DOFs 0 to %d",
                       dof, s->m->nv - 1);
    int on = s->rotor.bytes != 0;
    if (spin_inertia) *spin_inertia = on ? s->rotor.inertia[dof] : 0;
    if (gear_ratio) *gear_ratio = on ? s->rotor.ratio[dof] : 0;
    return SN_OK;
}


// ---- the step ----

int sni_rotor_active(const sn_system* s) {
    return s->rotor.n > 0 && s->step.scheme_used == SN_SCHEME_SEMI_IMPLICIT;
}


void sni_rotor_matrix(const sn_system* s, const sn_real* u, sn_real* G) {
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    int nv = m->nv;
    memset(G, 0, (size_t)nv * (size_t)nv * sizeof(sn_real));
    for (int v = 0; v < nv; v++) {
        sn_real I = s->rotor.inertia[v];
        // the carrier's DOFs: those before v towards the root (none: carried by the world)
        if (I == 0 || m->dof_parent[v] == SN_NONE) continue;
        int prism = m->joint_type[m->dof_joint[v]] == SN_JOINT_PRISMATIC;
        const sn_real* ax = d->dof_motion + 6 * v + (prism ? 3 : 0);
        sn_real len = sqrt(v3_dot(ax, ax));
        if (!(len > 0)) continue;
        sn_real H[3];
        v3_scale(H, ax, I * s->rotor.ratio[v] * u[v] / len);
        // G_ab += S_a . (H x S_b) over the carrier's DOFs a, b: a < b computed, G_ba its
        // negative (exactly skew; the diagonal S_a . (H x S_a) is 0)
        for (int b = m->dof_parent[v]; b != SN_NONE; b = m->dof_parent[b]) {
            sn_real hb[3];
            v3_cross(hb, H, d->dof_motion + 6 * b);
            for (int a = m->dof_parent[b]; a != SN_NONE; a = m->dof_parent[a]) {
                sn_real g = v3_dot(d->dof_motion + 6 * a, hb);
                G[(size_t)a * nv + b] += g;
                G[(size_t)b * nv + a] -= g;
            }
        }
    }
}


sn_status sni_rotor_cayley(sn_system* s, sn_real dt, const sn_real* u, sn_real* du) {
    const sn_model* m = s->m;
    int nv = m->nv;
    sni_rotor* r = &s->rotor;
    sn_crba(m, s->d);
    sni_rotor_matrix(s, u, r->G);
    const sn_real* M = s->d->mass_matrix;
    sn_real h = 0.5 * dt;
    // (M - h G) du = 2 h G u: the increment itself (u' - u), not u' less u
    for (int i = 0; i < nv; i++) {
        sn_real gu = 0;
        for (int k = 0; k < nv; k++) {
            size_t ik = (size_t)i * nv + k;
            r->lu[ik] = M[ik] - h * r->G[ik];
            gu += r->G[ik] * u[k];
        }
        du[i] = 2 * h * gu;
    }
    sn_status st = sni_lu_factor(r->lu, nv, r->piv);
    if (st != SN_OK) return st;
    sni_lu_solve(r->lu, nv, r->piv, du);
    return SN_OK;
}


sn_status sni_rotor_free_velocity(sn_system* s, sn_real dt) {
    s->rotor.applied = 0;
    if (!sni_rotor_active(s)) return SN_OK;
    int nv = s->m->nv;
    sn_real* du = s->rotor.b;
    sn_status st = sni_rotor_cayley(s, dt, s->step.u0, du);
    if (st != SN_OK) return st;
    for (int i = 0; i < nv; i++)
        s->step.u1[i] += du[i];
    if (s->gyro.applied)
        for (int i = 0; i < nv; i++)
            s->gyro.ustar[i] += du[i];
    s->rotor.applied = 1;
    return SN_OK;
}
