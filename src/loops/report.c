// SPDX-License-Identifier: Apache-2.0
// report.c: what the loops report and the assembly of loops that start open: the constraint
// impulses and separations of the last step, the closure errors now, the constraint impulses as
// external forces for inverse dynamics, and sn_system_assemble (Gauss-Newton in the metric of M~).
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


sn_status sn_system_constraint(const sn_system* s, int i, sn_real impulse[3],
                               sn_real separation[3]) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (i < 0 || i >= s->m->nconstraint)
        return sni_world_fail(s->world, SN_ERR_ARG, "constraint i %d: the model has %d", i,
                              s->m->nconstraint);
    if (impulse) v3_copy(impulse, s->loops.imp + 3 * i);
    if (separation) v3_copy(separation, s->loops.err + 3 * i);
    return SN_OK;
}


sn_status sn_system_loop_error(sn_system* s, sn_real* rms, sn_real* worst) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    const sn_model* m = s->m;
    sni_ensure_kinematics(s);
    sn_real sum = 0, top = 0;
    int n = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        if (m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION) continue; // metres only
        sni_loops_anchors(s, c, p1, p2, R1);
        v3_sub(dp, p1, p2);
        int na = sni_loops_named_axes(m, c, R1, a);
        for (int k = 0; k < na; k++, n++) {
            sn_real e = v3_dot(a[k], dp);
            sum += e * e;
            top = fmax(top, fabs(e));
        }
    }
    if (rms) *rms = n ? sqrt(sum / n) : 0;
    if (worst) *worst = top;
    return SN_OK;
}


sn_status sn_system_orientation_error(sn_system* s, sn_real* worst) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!worst)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_orientation_error: worst is NULL");
    if (!worst)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_orientation_error: worst is NULL");
    const sn_model* m = s->m;
    sni_ensure_kinematics(s);
    sn_real top = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        if (m->constraint_type[c] != SN_CONSTRAINT_ORIENTATION) continue;
        sn_real e[3];
        sni_loops_orient_error(s, c, e);
        top = fmax(top, v3_norm(e));
    }
    *worst = top;
    return SN_OK;
}


void sni_loops_wrenches(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9];
        sni_loops_anchors(s, c, p1, p2, R1);
        const sn_real* imp = s->loops.imp + 3 * c;
        // body1 at its anchor (a pin) or at body2's (an equality), body2 the opposite at its own;
        // a reaction on the world is not a body's
        int pin = m->constraint_type[c] == SN_CONSTRAINT_PIN;
        int orient = m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION;
        for (int side = 0; side < 2; side++) {
            int b = m->frame_body[side ? m->constraint_frame2[c] : m->constraint_frame1[c]];
            if (b <= 0) continue;
            const sn_real* x = side || !pin ? p2 : p1;
            sn_real f[6];
            v3_scale(f + 3, imp, (side ? -1 : 1) / dt);
            v3_cross(f, x, f + 3);
            if (orient) { // an angular impulse: a couple
                v3_copy(f, f + 3);
                v3_set(f + 3, 0, 0, 0);
            }
            for (int e = 0; e < 6; e++)
                s->ctl.ext_body[6 * b + e] += f[e];
            s->ctl.has_ext = 1;
        }
    }
}


// ---- assembly ----


// the largest error of any constraint row: metres for anchors, radians for orientations, the
// mimic relations' own units
static sn_real assembly_error(sn_system* s) {
    const sn_model* m = s->m;
    sni_ensure_kinematics(s);
    sn_real top = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        sni_loops_error(s, c, p1, p2, R1, dp);
        int na = sni_loops_named_axes(m, c, R1, a);
        for (int k = 0; k < na; k++)
            top = fmax(top, fabs(v3_dot(a[k], dp)));
    }
    for (int j = 0; j < m->njoint; j++) {
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        const sn_real* q = s->d->q;
        top = fmax(top,
                   fabs(q[m->joint_qadr[j]] - m->joint_mimic_multiplier[j] * q[m->joint_qadr[l]] -
                        m->joint_mimic_offset[j]));
    }
    return top;
}

sn_status sn_system_assemble(sn_system* s, int max_iter, sn_real tol, sn_real* residual) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (max_iter < 0)
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_assemble: max_iter %d must be 0 or more", max_iter);
    if (!(tol >= 0) || !isfinite(tol))
        return sni_world_fail(s->world, SN_ERR_ARG,
                              "sn_system_assemble: tol %g (the tolerance) must be finite and >= 0",
                              tol);
    const sn_model* m = s->m;
    int nv = m->nv, nq = m->nq;
    sn_real err = s->step.has_constraints ? assembly_error(s) : 0;
    sn_status st = SN_OK;
    s->loops.pc_pending = 0; // the assembly feeds back the whole error
    // the state before, restored on failure
    sn_real* qsave = s->loops.save_q;
    sn_real* usave = s->loops.save_u;
    sn_real* q = s->loops.next_q;
    memcpy(qsave, s->d->q, (size_t)nq * sizeof(sn_real));
    memcpy(usave, s->d->u, (size_t)nv * sizeof(sn_real));
    // Gauss-Newton in the metric of M~: each iteration moves q by the smallest correction
    // (-M~^-1 J^T D^-1 e) that closes the rows to first order
    for (int it = 0; it < max_iter && err > tol && st == SN_OK; it++) {
        memset(s->step.u1, 0, (size_t)nv * sizeof(sn_real));
        st = sni_step_factor(s);
        if (st == SN_OK) sni_loops_eliminate(s, 1);
        s->loops.active = 0;
        sni_system_invalidate(s, SNI_VALID_MTILDE);
        if (st != SN_OK) break;
        sn_integrate_q(m, s->d->q, s->step.u1, 1, q);
        for (int i = 0; i < nq; i++)
            if (!isfinite(q[i])) st = SN_ERR_NONFINITE;
        if (st != SN_OK) break;
        st = sn_set_state(m, s->d, q, nq, NULL, 0);
        sni_system_state_set(s);
        err = assembly_error(s);
    }
    if (residual) *residual = err;
    if (st != SN_OK) {
        sn_set_state(m, s->d, qsave, nq, usave, nv);
        sni_system_state_set(s);
        return st;
    }
    // the velocities made admissible at the new configuration
    if (s->step.has_constraints && max_iter > 0) {
        memset(s->step.u1, 0, (size_t)nv * sizeof(sn_real));
        sn_real* u = s->loops.next_u;
        memcpy(u, s->d->u, (size_t)nv * sizeof(sn_real));
        st = sni_step_factor(s);
        if (st == SN_OK) sni_loops_eliminate(s, 0);
        if (st == SN_OK) {
            sni_loops_project(s, u, 1);
            st = sn_set_state(m, s->d, s->d->q, nq, u, nv);
        }
        s->loops.active = 0;
        sni_system_state_set(s);
    }
    return st != SN_OK ? st : err <= tol ? SN_OK : SN_ERR_SINGULAR;
}
