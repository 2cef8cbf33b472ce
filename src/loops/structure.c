// SPDX-License-Identifier: Apache-2.0
// structure.c: the structural redundancy test of the loop constraints (seed 001: "found once,
// when the model is loaded, by examining its geometry at a number of poses"). At each pose, in
// constraint order, a constraint's rows less their parts along the rows kept before it; what
// remains above LOOP_STRUCT_TOL of the rows' size is kept. The poses are the current
// configuration and a few deterministic ones near it on the loops: a free motion of the
// mechanism (the null space of all the named rows), closed again by Gauss-Newton with the
// minimum-norm least-squares step (math/lsq.c). A direction is dropped only when it is redundant
// at every pose examined: each constraint keeps the span of what it kept at any of them, so a
// configuration that happens to be singular (a four-bar at its toggle) drops nothing.
#include "dynamics/dyn.h"
#include "math/lsq.h"
#include "math/sym3.h"
#include "sim/sim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// a row's part that no direction below LOOP_STRUCT_TOL of its own size keeps: the structural
// test of seed 001 (a joint that moves the anchors apart along a direction only through a lever
// below 1/1000 of the distance it moves them by); also the share of a direction kept at another
// pose that is new to the span kept so far
#define LOOP_STRUCT_TOL 1e-3
#define SNI_STRUCT_POSES 4 // the current configuration and three near it
#define POSE_STEP 0.2      // the free motion to a pose: its largest DOF (rad or m)
#define POSE_TRIES 4       // halvings of the motion when the loops do not close again
#define CLOSE_ITER 30      // Gauss-Newton iterations that close the loops
#define CLOSE_TOL 1e-11    // closed: every named direction's error below this (m, rad)
#define RANK_TOL 1e-10     // the least squares' rank: pivots below this of the largest


// ---- one pose ----

static sn_real vdot(const sn_real* a, const sn_real* b, int n) {
    sn_real x = 0;
    for (int i = 0; i < n; i++)
        x += a[i] * b[i];
    return x;
}


// the directions each constraint keeps at this configuration, into s->loops.axes and naxis
// (body1's frame); own[c] (nullable): how many it keeps of its own, the constraints before it
// left aside
static void examine(sn_system* s, int* own) {
    const sn_model* m = s->m;
    int nv = m->nv, nk = 0;
    sn_real* K = s->loops.basis; // the rows kept so far, orthonormal (nr x nv)
    sn_real* R = s->loops.rows3; // this constraint's rows (3 x nv)
    sn_real* vec = s->loops.colvec;
    int* cols = s->loops.cols;
    sni_ensure_kinematics(s);
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3];
        if (own) own[c] = 0;
        if (sni_constraint_held(m, c, NULL)) {
            // its one joint (or a weld) holds it at every pose: ignored (the compiler warned)
            s->loops.naxis[c] = 0;
            continue;
        }
        sni_loops_anchors(s, c, p1, p2, R1);
        int n = sni_loops_columns(s, c, p1, p2, cols, vec);
        int na = sni_loops_named_axes(m, c, R1, a);
        sn_real size = 0, G0[9] = {0}, G[9] = {0};
        memset(R, 0, 3 * (size_t)nv * sizeof(sn_real));
        for (int i = 0; i < na; i++) {
            for (int q = 0; q < n; q++)
                R[(size_t)i * nv + cols[q]] = v3_dot(a[i], vec + 3 * q);
            size = fmax(size, sqrt(vdot(R + (size_t)i * nv, R + (size_t)i * nv, nv)));
        }
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                G0[3 * i + j] = vdot(R + (size_t)i * nv, R + (size_t)j * nv, nv);
        for (int k = 0; k < nk; k++) // less the kept rows' span
            for (int i = 0; i < na; i++) {
                sn_real* ri = R + (size_t)i * nv;
                sn_real d = vdot(K + (size_t)k * nv, ri, nv);
                for (int e = 0; e < nv; e++)
                    ri[e] -= d * K[(size_t)k * nv + e];
            }
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                G[3 * i + j] = vdot(R + (size_t)i * nv, R + (size_t)j * nv, nv);
        for (int i = na; i < 3; i++)
            G0[4 * i] = G[4 * i] = 0;
        sn_real ev[3], V[9], ev0[3], V0[9];
        sni_sym3_eigen(G, ev, V);
        sni_sym3_eigen(G0, ev0, V0);
        sn_real tol = LOOP_STRUCT_TOL * size;
        int kept = 0;
        for (int i = 2; i >= 0; i--) {
            if (own) own[c] += sqrt(fmax(ev0[i], 0)) > tol;
            if (!(sqrt(fmax(ev[i], 0)) > tol)) continue;
            // direction b = sum_j V_j a_j (in body1's frame), its row sum_j V_j R_j normalized
            sn_real b[3] = {0, 0, 0}, bl[3];
            sn_real* kr = K + (size_t)nk * nv;
            memset(kr, 0, (size_t)nv * sizeof(sn_real));
            for (int j = 0; j < na; j++) {
                v3_addscl(b, a[j], V[3 * j + i]);
                for (int e = 0; e < nv; e++)
                    kr[e] += V[3 * j + i] * R[(size_t)j * nv + e];
            }
            sn_real nrm = sqrt(vdot(kr, kr, nv));
            for (int e = 0; e < nv; e++)
                kr[e] /= nrm;
            nk++;
            m3t_mul_v3(bl, R1, b);
            v3_copy(s->loops.axes + 9 * c + 3 * kept, bl);
            kept++;
        }
        s->loops.naxis[c] = kept;
    }
}


// ---- the poses near the current one ----

// the examination's scratch, from the world's allocator (attachment is not a step)
typedef struct exam {
    int nr;        // the named rows and the mimic joints' (at most 3 nc + njoint)
    sn_real* A;    // all named rows at the configuration (nr x nv)
    sn_real* e;    // their errors (nr)
    sn_real* x;    // a least-squares solution (nv)
    sn_real* d;    // a free motion (nv)
    sn_real* q0;   // the configuration examined first, restored at the end (nq)
    sn_real* work; // sni_lsq_solve's (sni_lsq_work(nr, nv))
    sn_real* acc;  // per constraint: the directions kept at any pose so far (nc x 3 x 3)
    int* nacc;     // their number (nc)
    int* own;      // this pose's directions of a constraint's own (nc)
    int* own_max;  // the most at any pose (nc)
    int* iwork;    // sni_lsq_solve's (n + the rank: 2 nv)
    size_t bytes;
} exam;

static size_t exam_layout(const sn_model* m, exam* x, char* p) {
    size_t nv = (size_t)m->nv, nc = (size_t)m->nconstraint, nr = 3 * nc + (size_t)m->njoint;
    size_t off = 0;
#define TAKE(f, type, count)                                                                       \
    x->f = p ? (type*)(void*)(p + off) : NULL;                                                     \
    off += ((count) * sizeof(type) + 7) & ~(size_t)7
    TAKE(A, sn_real, nr * nv);
    TAKE(e, sn_real, nr);
    TAKE(x, sn_real, nv);
    TAKE(d, sn_real, nv);
    TAKE(q0, sn_real, (size_t)m->nq);
    TAKE(work, sn_real, sni_lsq_work((int)nr, (int)nv));
    TAKE(acc, sn_real, 9 * nc);
    TAKE(nacc, int, nc);
    TAKE(own, int, nc);
    TAKE(own_max, int, nc);
    TAKE(iwork, int, 2 * nv);
#undef TAKE
    return off;
}


// every named row of the constraints and the mimic joints at this configuration into A, their
// errors into e (A u is the errors' rate); returns the largest error
static sn_real named_rows(sn_system* s, exam* x) {
    const sn_model* m = s->m;
    int nv = m->nv, r = 0;
    sn_real top = 0;
    sni_ensure_kinematics(s);
    memset(x->A, 0, (size_t)x->nr * nv * sizeof(sn_real));
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        sni_loops_error(s, c, p1, p2, R1, dp);
        int n = sni_loops_columns(s, c, p1, p2, s->loops.cols, s->loops.colvec);
        int na = sni_loops_named_axes(m, c, R1, a);
        for (int i = 0; i < na; i++, r++) {
            for (int q = 0; q < n; q++)
                x->A[(size_t)r * nv + s->loops.cols[q]] = v3_dot(a[i], s->loops.colvec + 3 * q);
            x->e[r] = v3_dot(a[i], dp);
            top = fmax(top, fabs(x->e[r]));
        }
    }
    for (int j = 0; j < m->njoint; j++) {
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        sn_real mult = m->joint_mimic_multiplier[j];
        x->A[(size_t)r * nv + m->joint_vadr[j]] += 1;
        x->A[(size_t)r * nv + m->joint_vadr[l]] -= mult;
        x->e[r] =
            s->d->q[m->joint_qadr[j]] - mult * s->d->q[m->joint_qadr[l]] - m->joint_mimic_offset[j];
        top = fmax(top, fabs(x->e[r]));
        r++;
    }
    x->nr = r;
    return top;
}


// q <- q (+) step u, the kinematics out of date
static void move(sn_system* s, const sn_real* u, sn_real step) {
    sn_integrate_q(s->m, s->d->q, u, step, s->d->q);
    sni_system_invalidate(s, SNI_VALID_KIN);
}


// a pseudo-random number in [-1, 1) from two integers (the same on every machine)
static sn_real hashed(unsigned pose, unsigned dof) {
    uint32_t h = 2166136261u;
    h = (h ^ pose) * 16777619u;
    h = (h ^ dof) * 16777619u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (sn_real)(h >> 8) / (sn_real)(1u << 23) - 1;
}


// pose k (1, 2, ...): from q0, a free motion of the mechanism (the part of a hashed direction in
// the null space of the named rows), of POSE_STEP at its largest DOF or halved until the loops
// close again by Gauss-Newton. 1 when the system is at such a pose, 0 when none was found
static int near_pose(sn_system* s, exam* x, int k) {
    const sn_model* m = s->m;
    int nv = m->nv, nq = m->nq;
    memcpy(s->d->q, x->q0, (size_t)nq * sizeof(sn_real));
    sni_system_invalidate(s, SNI_VALID_KIN);
    named_rows(s, x);
    // d less its part in the rows' span (the minimum-norm x with A x = A d)
    for (int i = 0; i < nv; i++)
        x->d[i] = hashed((unsigned)k, (unsigned)i);
    for (int r = 0; r < x->nr; r++)
        x->e[r] = vdot(x->A + (size_t)r * nv, x->d, nv);
    sni_lsq_solve(x->A, x->nr, nv, x->e, x->x, RANK_TOL, NULL, x->work, x->iwork);
    sn_real top = 0;
    for (int i = 0; i < nv; i++) {
        x->d[i] -= x->x[i];
        top = fmax(top, fabs(x->d[i]));
    }
    if (!(top > 1e-6)) return 0; // the loops lock the mechanism
    sn_real step = POSE_STEP / top;
    for (int t = 0; t < POSE_TRIES; t++, step /= 2) {
        memcpy(s->d->q, x->q0, (size_t)nq * sizeof(sn_real));
        move(s, x->d, step);
        sn_real err = named_rows(s, x);
        for (int it = 0; it < CLOSE_ITER && err > CLOSE_TOL && isfinite(err); it++) {
            sni_lsq_solve(x->A, x->nr, nv, x->e, x->x, RANK_TOL, NULL, x->work, x->iwork);
            move(s, x->x, -1);
            err = named_rows(s, x);
        }
        if (err <= CLOSE_TOL) return 1;
    }
    return 0;
}


// the directions kept at this pose joined to those kept before: each one's part new to the span
// so far, when above LOOP_STRUCT_TOL of itself, is one more (normalized)
static void join(const sn_system* s, exam* x, int first) {
    const sn_model* m = s->m;
    for (int c = 0; c < m->nconstraint; c++) {
        int n = s->loops.naxis[c];
        const sn_real* b = s->loops.axes + 9 * c;
        sn_real* acc = x->acc + 9 * c;
        if (first) {
            // the first pose's directions as they are (the same numbers as one pose gave)
            memcpy(acc, b, 9 * sizeof(sn_real));
            x->nacc[c] = n;
            x->own_max[c] = x->own[c];
            continue;
        }
        if (x->own[c] > x->own_max[c]) x->own_max[c] = x->own[c];
        int named = m->constraint_type[c] == SN_CONSTRAINT_EQUALITY ? m->constraint_naxis[c] : 3;
        for (int i = 0; i < n && x->nacc[c] < named; i++) {
            // Gram-Schmidt against an orthonormal copy of the span so far
            sn_real u[3][3], r[3];
            int nu = 0;
            for (int k = 0; k < x->nacc[c]; k++) {
                v3_copy(u[nu], acc + 3 * k);
                for (int l = 0; l < nu; l++)
                    v3_addscl(u[nu], u[l], -v3_dot(u[l], u[nu]));
                sn_real nrm = v3_norm(u[nu]);
                if (nrm > 0) v3_scale(u[nu], u[nu], 1 / nrm), nu++;
            }
            v3_copy(r, b + 3 * i);
            sn_real size = v3_norm(r);
            for (int l = 0; l < nu; l++)
                v3_addscl(r, u[l], -v3_dot(u[l], r));
            sn_real nrm = v3_norm(r);
            if (!(nrm > LOOP_STRUCT_TOL * size)) continue;
            v3_scale(acc + 3 * x->nacc[c], r, 1 / nrm);
            x->nacc[c]++;
        }
    }
}


// ---- the warning ----

// own (nullable): per constraint the most directions it kept of its own at a pose
static void warn(sn_system* s, const int* own) {
    const sn_model* m = s->m;
    int ndrop = 0, first = -1;
    for (int c = 0; c < m->nconstraint; c++) {
        if (sni_constraint_held(m, c, NULL)) continue; // the compiler warned
        int named = m->constraint_type[c] == SN_CONSTRAINT_EQUALITY ? m->constraint_naxis[c] : 3;
        if (s->loops.naxis[c] >= named) continue;
        if (first < 0) first = c;
        ndrop++;
    }
    if (ndrop == 0) return;
    static const char* const kinds[] = {"pin", "equality", "orientation"};
    const char* kind = kinds[m->constraint_type[first]];
    const char* f1 = sn_model_name(m, SN_OBJ_FRAME, m->constraint_frame1[first]);
    const char* f2 = sn_model_name(m, SN_OBJ_FRAME, m->constraint_frame2[first]);
    int named =
        m->constraint_type[first] == SN_CONSTRAINT_EQUALITY ? m->constraint_naxis[first] : 3;
    char more[64] = "";
    if (ndrop > 1)
        snprintf(more, sizeof more, " (and %d more loop constraints like it)", ndrop - 1);
    if (s->loops.naxis[first] == 0 && own && own[first] == 0)
        sni_world_warn(s->world,
                       "loop constraint %d (%s '%s' - '%s') is redundant with its joints: they "
                       "hold all of its directions; it is ignored%s",
                       first, kind, f1, f2, more);
    else
        sni_world_warn(s->world,
                       "loop constraint %d (%s '%s' - '%s') keeps %d of its %d directions: the "
                       "others are held by its joints or by the constraints before it (structural "
                       "redundancy, left out with zero force)%s",
                       first, kind, f1, f2, s->loops.naxis[first], named, more);
}


// ---- the examination ----

void sni_loops_structure(sn_system* s) {
    const sn_model* m = s->m;
    int npose = s->loops.max_poses > 0 ? s->loops.max_poses : SNI_STRUCT_POSES;
    exam x;
    size_t bytes = exam_layout(m, &x, NULL);
    char* block = sni_alloc(&s->world->alloc, bytes);
    if (!block) {
        // out of memory: the current configuration alone, as before several poses
        examine(s, NULL);
        warn(s, NULL);
        s->loops.nposes = 1;
        return;
    }
    exam_layout(m, &x, block);
    x.nr = 3 * m->nconstraint + m->njoint;
    memcpy(x.q0, s->d->q, (size_t)m->nq * sizeof(sn_real));
    int used = 0;
    for (int k = 0; k < npose; k++) {
        if (k > 0 && !near_pose(s, &x, k)) continue;
        examine(s, x.own);
        join(s, &x, used == 0);
        used++;
    }
    // the span kept at any pose, and the configuration put back as it was
    for (int c = 0; c < m->nconstraint; c++) {
        memcpy(s->loops.axes + 9 * c, x.acc + 9 * c, 9 * sizeof(sn_real));
        s->loops.naxis[c] = x.nacc[c];
    }
    memcpy(s->d->q, x.q0, (size_t)m->nq * sizeof(sn_real));
    sni_system_invalidate(s, SNI_VALID_KIN);
    sni_ensure_kinematics(s);
    s->loops.nposes = used;
    warn(s, x.own_max);
    sni_free(&s->world->alloc, block, bytes);
}
