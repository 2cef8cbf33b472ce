// SPDX-License-Identifier: Apache-2.0
// sinew_bench_maximal: a chain of N links (default 30; hinges about y and x in turn, 0.1 kg rods
// of 0.1 m) swinging in gravity without contacts, per step: in maximal coordinates (sn_maximal
// made by sn_maximal_from_model: N bodies, N hinges, 5 N rows), articulated (sn_world, no
// ground) and in MuJoCo 2.2.2 (contacts off), the same MJCF text for all three. All start from the
// same bent configuration at rest; after WARMUP steps, `steps` steps are timed (the median of 5
// blocks); the cost per constraint row is the maximal system's time over its rows. The joint
// angles of the maximal system are compared with the articulated system's after the run.
//
// usage: sinew_bench_maximal [maximal|articulated|mujoco|all] [steps] [links] [dt] [rk4]
//        (all, 2000, 30, 0.001, semi-implicit; a fifth argument "rk4" runs both sinew systems by
//        RK4 and MuJoCo by its RK4)
// Instructions: valgrind --tool=callgrind --collect-atstart=no (the timed steps only).
#define _POSIX_C_SOURCE 200809L
#include "sinew/sn.h"
#include "sinew/sn_maximal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#include "bench_util.h"

#define WARMUP 200
#define BEND 0.15 // rad at every joint at the start

typedef struct setup {
    int links, steps, rk4;
    double dt;
    char* xml;
} setup;

// the chain as MJCF: body i hangs 0.1 m below body i - 1, hinge i about y (even) or x (odd)
static char* chain_xml(int n, double dt, int rk4) {
    size_t cap = 512 + 400 * (size_t)n, len = 0;
    char* s = malloc(cap);
    if (!s) return NULL;
    len += (size_t)snprintf(s + len, cap - len,
                            "<mujoco model=\"chain%d\"><option timestep=\"%.17g\" "
                            "gravity=\"0 0 -9.81\" integrator=\"%s\"><flag contact=\"disable\"/>"
                            "</option><worldbody>",
                            n, dt, rk4 ? "RK4" : "Euler");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "<body name=\"l%d\" pos=\"0 0 %s\"><joint name=\"j%d\" "
                                "type=\"hinge\" axis=\"%s\"/><inertial pos=\"0 0 -0.05\" "
                                "mass=\"0.1\" diaginertia=\"1e-4 1e-4 1e-5\"/>",
                                i, i ? "-0.1" : "0", i, i % 2 ? "1 0 0" : "0 1 0");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len, "</body>");
    snprintf(s + len, cap - len, "</worldbody></mujoco>");
    return s;
}

static void report(const char* engine, double t, int rows, int nv) {
    printf("%-12s %10.2f us/step", engine, 1e6 * t);
    if (rows > 0) printf("  %6.3f us per constraint row (%d rows)", 1e6 * t / rows, rows);
    printf("  (%d DOF)\n", nv);
}

// ---- sinew ----

static sn_model* load(const setup* su) {
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_mjcf_string(su->xml, strlen(su->xml), "chain.xml", NULL, NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "sinew: %s\n", err.msg);
        return NULL;
    }
    return m;
}

static void bend(const sn_model* m, double* q) {
    for (int i = 0; i < m->nq; i++)
        q[i] = BEND;
}

static void mx_step(void* p) {
    sn_maximal* mx = p;
    if (sn_maximal_step(mx) != SN_OK) {
        fprintf(stderr, "sn_maximal_step failed: %s\n", sn_maximal_last_error(mx));
        exit(1);
    }
}

static void world_step(void* p) {
    sn_world* w = p;
    if (sn_world_integrate(w) != SN_OK) {
        fprintf(stderr, "sn_world_integrate failed: %s\n", sn_world_last_error(w));
        exit(1);
    }
}

// the maximal system, and (compare) the articulated one stepped as many times beside it: the
// largest joint-angle difference after the run
static int run_maximal(const setup* su, int compare) {
    sn_model* m = load(su);
    if (!m) return 1;
    double* q = calloc((size_t)m->nq, sizeof(double));
    double* qm = calloc((size_t)m->nq, sizeof(double));
    bend(m, q);
    sn_maximal* mx = NULL;
    sn_error err;
    if (sn_maximal_from_model(m, q, NULL, NULL, &mx, &err) != SN_OK) {
        fprintf(stderr, "sn_maximal_from_model: %s\n", err.msg);
        return 1;
    }
    sn_maximal_set_timestep(mx, su->dt);
    sn_maximal_set_scheme(mx, su->rk4 ? SN_MAXIMAL_RK4 : SN_MAXIMAL_SEMI_IMPLICIT);
    for (int k = 0; k < WARMUP; k++)
        mx_step(mx);
    long done;
    double t = bench_measure(mx_step, mx, su->steps, &done);
    report("maximal", t, sn_maximal_row_count(mx), 6 * sn_maximal_body_count(mx));
    double rms, worst;
    sn_maximal_constraint_error(mx, &rms, &worst);
    if (compare) {
        sn_world_opts o;
        memset(&o, 0, sizeof o);
        o.timestep = su->dt;
        sn_world* w = NULL;
        sn_system* s = NULL;
        if (sn_world_create(&o, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK)
            return 1;
        sn_system_set_scheme(s, su->rk4 ? SN_SCHEME_RK4 : SN_SCHEME_SEMI_IMPLICIT);
        double* u = calloc((size_t)m->nv, sizeof(double));
        if (sn_system_set_state(s, q, m->nq, u, m->nv) != SN_OK) return 1;
        free(u);
        for (long k = 0; k < WARMUP + done; k++)
            world_step(w);
        sn_maximal_joint_state(mx, qm, m->nq, NULL, 0);
        double e = 0;
        for (int i = 0; i < m->nq; i++)
            e = fmax(e, fabs(qm[i] - sn_system_q(s)[i]));
        printf("             after %.3g s: joint angles of the two sinew systems within %.3g rad; "
               "constraint error rms %.3g, worst %.3g\n",
               (WARMUP + done) * su->dt, e, rms, worst);
        sn_world_destroy(w);
    }
    sn_maximal_destroy(mx);
    free(q), free(qm);
    sn_model_destroy(m);
    return 0;
}

static int run_articulated(const setup* su) {
    sn_model* m = load(su);
    if (!m) return 1;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = su->dt;
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_error err;
    if (sn_world_create(&o, &w, &err) != SN_OK || sn_world_add_system(w, m, &s, &err) != SN_OK) {
        fprintf(stderr, "sinew: %s\n", err.msg);
        return 1;
    }
    sn_system_set_scheme(s, su->rk4 ? SN_SCHEME_RK4 : SN_SCHEME_SEMI_IMPLICIT);
    double* q = calloc((size_t)m->nq, sizeof(double));
    double* u = calloc((size_t)m->nv, sizeof(double));
    bend(m, q);
    if (sn_system_set_state(s, q, m->nq, u, m->nv) != SN_OK) return 1;
    free(u);
    for (int k = 0; k < WARMUP; k++)
        world_step(w);
    double t = bench_measure(world_step, w, su->steps, NULL);
    report("articulated", t, 0, m->nv);
    free(q);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

// ---- MuJoCo ----

#ifdef SN_BENCH_MUJOCO
typedef struct mj_ctx {
    mjModel* m;
    mjData* d;
} mj_ctx;

static void mj_one(void* p) {
    mj_ctx* c = p;
    mj_step(c->m, c->d);
}

static int run_mujoco(const setup* su) {
    char path[256], err[1000];
    snprintf(path, sizeof path, "/tmp/sinew_bench_maximal_%ld.xml", (long)getpid());
    FILE* f = fopen(path, "w");
    if (!f) return 1;
    fputs(su->xml, f);
    fclose(f);
    mj_ctx c;
    c.m = mj_loadXML(path, NULL, err, sizeof err);
    remove(path);
    if (!c.m) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        return 1;
    }
    c.d = mj_makeData(c.m);
    for (int i = 0; i < c.m->nq; i++)
        c.d->qpos[i] = BEND;
    for (int k = 0; k < WARMUP; k++)
        mj_one(&c);
    double t = bench_measure(mj_one, &c, su->steps, NULL);
    report("MuJoCo 2.2.2", t, 0, c.m->nv);
    mj_deleteData(c.d);
    mj_deleteModel(c.m);
    return 0;
}
#endif

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "all";
    setup su;
    su.steps = argc > 2 ? atoi(argv[2]) : 2000;
    su.links = argc > 3 ? atoi(argv[3]) : 30;
    su.dt = argc > 4 ? atof(argv[4]) : 0.001;
    su.rk4 = argc > 5 && !strcmp(argv[5], "rk4");
    if (su.steps < 5 || su.links < 1 || su.links > 1000 || !(su.dt > 0)) {
        fprintf(stderr, "usage: sinew_bench_maximal [maximal|articulated|mujoco|all] [steps >= 5] "
                        "[links 1..1000] [dt > 0] [rk4]\n");
        return 2;
    }
    su.xml = chain_xml(su.links, su.dt, su.rk4);
    if (!su.xml) return 1;
    printf("chain of %d links, dt %g s, %s, %d steps timed (median of 5 blocks)\n", su.links, su.dt,
           su.rk4 ? "RK4" : "semi-implicit (MuJoCo: Euler)", su.steps);
    int all = !strcmp(which, "all"), rc = 0;
    if (all || !strcmp(which, "maximal")) rc |= run_maximal(&su, all);
    if (all || !strcmp(which, "articulated")) rc |= run_articulated(&su);
#ifdef SN_BENCH_MUJOCO
    if (all || !strcmp(which, "mujoco")) rc |= run_mujoco(&su);
#else
    if (all || !strcmp(which, "mujoco")) fprintf(stderr, "built without MuJoCo\n");
#endif
    free(su.xml);
    return rc;
}
