// SPDX-License-Identifier: Apache-2.0
// sinew_bench_strandbeest: the 12-legged Strandbeest (79 DOF, 36 loops) walking on one crank,
// sinew and MuJoCo 2.2.2 side by side. sinew runs models/strandbeest.urdf (36 equality
// constraints, eliminated exactly); MuJoCo runs models/strandbeest.xml, the same machine written
// by the same script with the loops closed by <connect> (soft constraints). Both start at the
// nominal configuration on the ground and drive the crank at -3 rad/s with a velocity servo of
// gain 200 (sinew: PD with kd 200 and a velocity target; MuJoCo: a velocity actuator), at 2 ms.
// After 1 s of walking, `steps` steps are timed (median of 5 blocks); the closure error (the
// anchors' separation) is measured at every step of the run.
//
// usage: sinew_bench_strandbeest [sinew|mujoco|both] [steps] [dt]   (both, 1000, 0.002)
// env: SN_BEEST_URDF, SN_BEEST_XML: other machines (scripts/make_strandbeest.py with
//      SN_BEEST_PAIRS=n writes one with n pairs of legs)
// Instructions: valgrind --tool=callgrind --collect-atstart=no (the timed steps only).
#define _POSIX_C_SOURCE 199309L
#include "sinew/sn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#include "bench_util.h"

#define CRANK_SPEED -3.0
#define WARMUP_S 1.0

typedef struct stats {
    double sq, worst;
    long n;
} stats;

static void stats_add(stats* s, double rms, double worst) {
    s->sq += rms * rms, s->n++;
    if (worst > s->worst) s->worst = worst;
}

static void report(const char* engine, double t, const stats* s, double x, double crank, long its,
                   long steps) {
    printf("%-7s %8.2f us/step  closure rms %.3g m, worst %.3g m; walked %.3f m, crank %.2f rad",
           engine, 1e6 * t, sqrt(s->sq / (double)s->n), s->worst, x, crank);
    if (its >= 0) printf("; %.1f solver sweeps per step", (double)its / (double)steps);
    printf("\n");
}

// ---- sinew ----

typedef struct sn_ctx {
    sn_world* w;
    sn_system* s;
    stats st;
    long its;
} sn_ctx;

static void sn_step(void* p) {
    sn_ctx* c = p;
    if (sn_world_integrate(c->w) != SN_OK) {
        fprintf(stderr, "sinew step failed: %s\n", sn_world_last_error(c->w));
        exit(1);
    }
    double rms, worst;
    sn_system_loop_error(c->s, &rms, &worst);
    stats_add(&c->st, rms, worst);
    c->its += sn_system_solver_iterations(c->s);
}

static int run_sinew(int steps, double dt) {
    sn_model* m = NULL;
    sn_error err;
    const char* urdf = getenv("SN_BEEST_URDF") ? getenv("SN_BEEST_URDF")
                                               : SN_BENCH_SOURCE_DIR "/models/strandbeest.urdf";
    if (sn_load_urdf(urdf, NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    sn_ctx c;
    memset(&c, 0, sizeof c);
    if (sn_world_create(&o, &c.w, &err) != SN_OK || sn_world_add_system(c.w, m, &c.s, &err))
        return 1;
    sn_world_set_ground(c.w, 1, 0);
    int nv = m->nv, nq = m->nq;
    double *kp = calloc((size_t)nv, sizeof(double)), *kd = calloc((size_t)nv, sizeof(double));
    double *qr = calloc((size_t)nq, sizeof(double)), *ur = calloc((size_t)nv, sizeof(double));
    memcpy(qr, sn_system_q(c.s), (size_t)nq * sizeof(double));
    int crank = m->joint_vadr[1]; // joint 0 is the floating base, 1 the crank
    kd[crank] = 200, ur[crank] = CRANK_SPEED;
    sn_system_set_pd_gains(c.s, kp, kd, nv);
    sn_system_set_pd_target(c.s, qr, nq, ur, nv);
    long warm = (long)lround(WARMUP_S / dt);
    for (long k = 0; k < warm; k++)
        sn_step(&c);
    c.its = 0;
    long done;
    double t = bench_measure(sn_step, &c, steps, &done);
    report("sinew", t, &c.st, sn_system_q(c.s)[0], sn_system_q(c.s)[m->joint_qadr[1]], c.its, done);
    free(kp), free(kd), free(qr), free(ur);
    sn_world_destroy(c.w);
    sn_model_destroy(m);
    return 0;
}

// ---- MuJoCo ----

#ifdef SN_BENCH_MUJOCO
typedef struct mj_ctx {
    mjModel* m;
    mjData* d;
    stats st;
} mj_ctx;

// the anchors' separation of every connect constraint: rms over them, and the largest
static void mj_closure(const mjModel* m, const mjData* d, double* rms, double* worst) {
    double sq = 0;
    *worst = 0;
    for (int e = 0; e < m->neq; e++) {
        int b1 = m->eq_obj1id[e], b2 = m->eq_obj2id[e];
        mjtNum p1[3], p2[3];
        mju_mulMatVec(p1, d->xmat + 9 * b1, m->eq_data + mjNEQDATA * e, 3, 3);
        mju_addTo3(p1, d->xpos + 3 * b1);
        mju_mulMatVec(p2, d->xmat + 9 * b2, m->eq_data + mjNEQDATA * e + 3, 3, 3);
        mju_addTo3(p2, d->xpos + 3 * b2);
        // the in-plane components (x, z), as sinew's equality constraints measure them
        double dx = p1[0] - p2[0], dz = p1[2] - p2[2], dd = sqrt(dx * dx + dz * dz);
        sq += dx * dx + dz * dz;
        if (dd > *worst) *worst = dd;
    }
    *rms = m->neq ? sqrt(sq / (2.0 * m->neq)) : 0;
}

static void mj_step1_(void* p) {
    mj_ctx* c = p;
    mj_step(c->m, c->d);
    double rms, worst;
    mj_closure(c->m, c->d, &rms, &worst);
    stats_add(&c->st, rms, worst);
}

static int run_mujoco(int steps, double dt) {
    char err[1000];
    mj_ctx c;
    memset(&c, 0, sizeof c);
    const char* xml = getenv("SN_BEEST_XML") ? getenv("SN_BEEST_XML")
                                             : SN_BENCH_SOURCE_DIR "/models/strandbeest.xml";
    c.m = mj_loadXML(xml, NULL, err, sizeof err);
    if (!c.m) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        return 1;
    }
    c.m->opt.timestep = dt;
    c.d = mj_makeData(c.m);
    c.d->ctrl[0] = CRANK_SPEED;
    long warm = (long)lround(WARMUP_S / dt);
    for (long k = 0; k < warm; k++)
        mj_step1_(&c);
    long done;
    double t = bench_measure(mj_step1_, &c, steps, &done);
    int crank = c.m->jnt_qposadr[1];
    report("MuJoCo", t, &c.st, c.d->qpos[0], c.d->qpos[crank], -1, done);
    mj_deleteData(c.d);
    mj_deleteModel(c.m);
    return 0;
}
#endif

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "both";
    int steps = argc > 2 ? atoi(argv[2]) : 1000;
    double dt = argc > 3 ? atof(argv[3]) : 0.002;
    int rc = 0;
    if (strcmp(which, "mujoco")) rc |= run_sinew(steps, dt);
#ifdef SN_BENCH_MUJOCO
    if (strcmp(which, "sinew")) rc |= run_mujoco(steps, dt);
#else
    if (strcmp(which, "sinew")) fprintf(stderr, "built without MuJoCo\n");
#endif
    return rc;
}
