// SPDX-License-Identifier: Apache-2.0
// ik.c: the public inverse-kinematics calls (sn_ik.h): the checks of the targets and options,
// the solver's scratch (one block from the world's allocator, freed before the call returns),
// and the system's state kept as it was around the solve.
#include "ik/ik.h"

#include "base/base.h"
#include "sim/sim.h"
#include "sinew/sn_loopid.h"

#include <math.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)

static int finite_n(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}


static sn_status check_targets(sn_system* s, const char* call, const sn_ik_target* tg, int n) {
    const sn_model* m = s->m;
    sn_world* w = s->world;
    if (!tg) return SET_ERR(w, SN_ERR_ARG, "%s: targets is NULL", call);
    if (n < 1) return SET_ERR(w, SN_ERR_ARG, "%s: ntarget %d (1 or more)", call, n);
    for (int i = 0; i < n; i++) {
        const sn_ik_target* t = tg + i;
        if (t->frame < 0 || t->frame >= m->nframe)
            return SET_ERR(w, SN_ERR_ARG,
                           "%s: target %d: frame %d is not a frame (the model has %d)", call, i,
                           t->frame, m->nframe);
        if (t->mask == 0 || (t->mask & ~(SN_IK_POSITION | SN_IK_ROTATION)))
            return SET_ERR(w, SN_ERR_ARG,
                           "%s: target %d: mask %d (SN_IK_POSITION, SN_IK_ROTATION or both)", call,
                           i, t->mask);
        if ((t->mask & SN_IK_POSITION) && !finite_n(t->position, 3))
            return SET_ERR(w, SN_ERR_ARG, "%s: target %d: the position is not finite", call, i);
        if (!(isfinite(t->position_weight) && t->position_weight >= 0) ||
            !(isfinite(t->rotation_weight) && t->rotation_weight >= 0))
            return SET_ERR(w, SN_ERR_ARG, "%s: target %d: a weight is negative or not finite", call,
                           i);
        if (!(t->mask & SN_IK_ROTATION)) continue;
        const sn_real* R = t->rotation;
        if (!finite_n(R, 9))
            return SET_ERR(w, SN_ERR_ARG, "%s: target %d: the rotation is not finite", call, i);
        sn_real worst = 0;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                sn_real x = R[a] * R[b] + R[3 + a] * R[3 + b] + R[6 + a] * R[6 + b];
                worst = fmax(worst, fabs(x - (a == b)));
            }
        sn_real det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                      R[2] * (R[3] * R[7] - R[4] * R[6]);
        if (worst > 1e-6 || fabs(det - 1) > 1e-6)
            return SET_ERR(w, SN_ERR_ARG,
                           "%s: target %d: the rotation is not a rotation (|R^T R - I| = %.3g, "
                           "det %.6g)",
                           call, i, worst, det);
    }
    return SN_OK;
}


static sn_status check_opts(sn_system* s, const sn_ik_opts* o) {
    sn_world* w = s->world;
    const char* call = "sn_system_solve_ik";
    if (!o) return SN_OK;
    if (!(isfinite(o->damping) && o->damping >= 0))
        return SET_ERR(w, SN_ERR_ARG, "%s: opts->damping %g (finite, >= 0)", call, o->damping);
    if (!(isfinite(o->tolerance) && o->tolerance >= 0))
        return SET_ERR(w, SN_ERR_ARG, "%s: opts->tolerance %g (finite, >= 0)", call, o->tolerance);
    if (!(isfinite(o->loop_tolerance) && o->loop_tolerance >= 0))
        return SET_ERR(w, SN_ERR_ARG, "%s: opts->loop_tolerance %g (finite, >= 0)", call,
                       o->loop_tolerance);
    if (o->max_iterations < 0)
        return SET_ERR(w, SN_ERR_ARG, "%s: opts->max_iterations %d (0: default, or more)", call,
                       o->max_iterations);
    if (o->fixed)
        for (int v = 0; v < s->m->nv; v++)
            if (o->fixed[v] > 1)
                return SET_ERR(w, SN_ERR_ARG, "%s: opts->fixed[%d] is %d (0 or 1)", call, v,
                               o->fixed[v]);
    if (o->start) {
        if (!finite_n(o->start, s->m->nq))
            return SET_ERR(w, SN_ERR_ARG, "%s: opts->start is not finite", call);
        for (int j = 0; j < s->m->njoint; j++) {
            int t = s->m->joint_type[j];
            if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
            const sn_real* e = o->start + s->m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
            if (fabs(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3] - 1) > 1e-9)
                return SET_ERR(w, SN_ERR_ARG,
                               "%s: opts->start: the quaternion of joint '%s' is not unit", call,
                               s->m->names + s->m->joint_name[j]);
        }
    }
    return SN_OK;
}


sn_status sni_ik_open(sni_ik* k, sn_system* s, const sn_ik_target* tg, int ntarget) {
    const sn_model* m = s->m;
    memset(k, 0, sizeof *k);
    k->s = s;
    k->tg = tg;
    k->ntarget = ntarget;
    k->nv = m->nv;
    k->nq = m->nq;
    for (int i = 0; i < ntarget; i++)
        k->nt += 3 * (((tg[i].mask & SN_IK_POSITION) != 0) + ((tg[i].mask & SN_IK_ROTATION) != 0));
    k->nc = sn_system_loop_row_count(s); // the loops' rows (sn_loopid.h)
    size_t nv = (size_t)k->nv, nq = (size_t)k->nq, nt = (size_t)k->nt, nc = (size_t)k->nc;
    size_t big = nt > nv ? nt : nv;
    size_t wide = big > nq ? big : nq;
    size_t nreal = 4 * nq + nt * nv + nt + nc * nv + nc + 9 * nv + 2 * nv * nv + 2 * nv + nt * nv +
                   big * big + 2 * wide + nv;
    size_t nint = 2 * nv;
    k->bytes = nreal * sizeof(sn_real) + nint * sizeof(int) + 2 * nv + 16;
    k->block = sni_alloc(&s->world->alloc, k->bytes);
    if (!k->block) return SN_ERR_NOMEM;
    sn_real* p = (sn_real*)k->block;
    k->q = p, p += nq;
    k->qtry = p, p += nq;
    k->qkeep = p, p += nq;
    k->qstart = p, p += nq;
    k->Jt = p, p += nt * nv;
    k->et = p, p += nt;
    k->Jc = p, p += nc * nv;
    k->ec = p, p += nc;
    k->jp = p, p += 3 * nv;
    k->jr = p, p += 3 * nv;
    k->jp2 = p, p += 3 * nv;
    k->G = p, p += nv * nv;
    k->V = p, p += nv * nv;
    k->L = p, p += nv;
    k->e = p, p += nv;
    k->A = p, p += nt * nv;
    k->H = p, p += big * big;
    k->z = p, p += wide;
    k->y = p, p += wide;
    k->dx = p, p += nv;
    int* ip = (int*)p;
    k->dof_q = ip, ip += nv;
    k->freeset = ip, ip += nv;
    k->fixed = (unsigned char*)ip; // nv fixed flags, then nv blocked flags (solve.c)
    for (int v = 0; v < k->nv; v++) {
        int j = m->dof_joint[v];
        k->dof_q[v] = m->joint_nv[j] == 1 && m->dof_limited[v] ? m->joint_qadr[j] : -1;
    }
    return SN_OK;
}


void sni_ik_close(sni_ik* k) {
    if (k->block) sni_free(&k->s->world->alloc, k->block, k->bytes);
    k->block = NULL;
}


// the system's kinematics as they were: q back, and the kinematics computed again when they
// were up to date (the same numbers: they are a function of q and u)
typedef struct kept_state {
    unsigned valid;
} kept_state;

static void keep_state(sn_system* s, kept_state* ks, sn_real* q_save) {
    ks->valid = s->valid;
    memcpy(q_save, s->d->q, (size_t)s->m->nq * sizeof(sn_real));
}

static void restore_state(sn_system* s, const kept_state* ks, const sn_real* q_save) {
    memcpy(s->d->q, q_save, (size_t)s->m->nq * sizeof(sn_real));
    if (ks->valid & SNI_VALID_KIN) {
        sn_fk(s->m, s->d);
        sn_fk_vel(s->m, s->d);
    }
    s->valid = ks->valid;
}


sn_status sn_system_solve_ik(sn_system* s, const sn_ik_target* targets, int ntarget,
                             const sn_ik_opts* opts, sn_real* q_out, int nq, sn_ik_report* report) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!targets)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_solve_ik: targets is NULL");
    const char* call = "sn_system_solve_ik";
    sn_status st = check_targets(s, call, targets, ntarget);
    if (st != SN_OK) return st;
    st = check_opts(s, opts);
    if (st != SN_OK) return st;
    if (!q_out) return SET_ERR(s->world, SN_ERR_ARG, "%s: q_out is NULL", call);
    if (nq != s->m->nq)
        return SET_ERR(s->world, SN_ERR_ARG, "%s: q_out has %d entries, not nq = %d", call, nq,
                       s->m->nq);
    sni_ik k;
    st = sni_ik_open(&k, s, targets, ntarget);
    if (st != SN_OK) return SET_ERR(s->world, st, "%s: out of memory for the scratch", call);
    sn_ik_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    k.lambda0 = o.damping > 0 ? o.damping : 1e-3;
    k.tol = o.tolerance > 0 ? o.tolerance : 1e-10;
    k.loop_tol = o.loop_tolerance > 0 ? o.loop_tolerance : 1e-12;
    k.max_iter = o.max_iterations > 0 ? o.max_iterations : 500;
    k.limits = !o.ignore_limits;
    const sn_model* m = s->m;
    for (int v = 0; v < m->nv; v++) {
        int j = m->dof_joint[v];
        k.fixed[v] =
            (o.fixed && o.fixed[v]) || (o.fix_base && m->joint_type[j] == SN_JOINT_FLOATING);
    }
    kept_state ks;
    keep_state(s, &ks, k.qkeep);
    memcpy(k.qstart, o.start ? o.start : k.qkeep, (size_t)nq * sizeof(sn_real));
    st = sni_ik_solve(&k, k.qstart, q_out, report);
    restore_state(s, &ks, k.qkeep);
    sni_ik_close(&k);
    if (st == SN_ERR_UNREACHED)
        SET_ERR(s->world, st, "%s: the targets were not reached (best q returned)", call);
    return st;
}


sn_status sn_system_ik_errors(sn_system* s, const sn_ik_target* targets, int ntarget,
                              const sn_real* q, int nq, sn_real* errors) {
    SNI_REFUSE_NULL(s, SN_ERR_ARG);
    if (!targets)
        return sni_world_fail(s->world, SN_ERR_ARG, "sn_system_ik_errors: targets is NULL");
    const char* call = "sn_system_ik_errors";
    sn_status st = check_targets(s, call, targets, ntarget);
    if (st != SN_OK) return st;
    if (!q || nq != s->m->nq)
        return SET_ERR(s->world, SN_ERR_ARG, "%s: q is NULL or has %d entries, not nq = %d", call,
                       nq, s->m->nq);
    if (!finite_n(q, nq)) return SET_ERR(s->world, SN_ERR_ARG, "%s: q is not finite", call);
    if (!errors) return SET_ERR(s->world, SN_ERR_ARG, "%s: errors is NULL", call);
    sni_ik k;
    st = sni_ik_open(&k, s, targets, ntarget);
    if (st != SN_OK) return SET_ERR(s->world, st, "%s: out of memory for the scratch", call);
    kept_state ks;
    keep_state(s, &ks, k.qkeep);
    sni_ik_errors(&k, q, errors);
    restore_state(s, &ks, k.qkeep);
    sni_ik_close(&k);
    return SN_OK;
}
