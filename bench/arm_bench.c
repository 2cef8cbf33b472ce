// SPDX-License-Identifier: Apache-2.0
// sinew_bench_arm: one step of the arm component (seed 002, docs/arm.md) on models/arm7.urdf
// (7 DOF; stops, damping 0.5 N m s and friction 0.2 N m on every joint) three ways: sn_arm_step,
// the same model as an articulated sn_system stepped by an sn_world (SEMI_IMPLICIT, no ground)
// and MuJoCo 2.2.2's mj_step on the same URDF (contacts off). Variants: "full" (gravity, damping,
// friction and stops, from a pose that falls onto joint 2's stop) and "bare" (the URDF with
// friction 0 and continuous joints: gravity and damping only). Then sn_arm's cost against the
// joint count on chains of n = 2..60 made by sn_arm_create, and its cost per projected
// Gauss-Seidel sweep. Every run starts at the same pose at rest; a case's time is the median over
// REPS runs of STEPS steps of the mean time per step.
//
// usage: sinew_bench_arm all [STEPS]                      the tables (STEPS 1000)
//        sinew_bench_arm one ENGINE VARIANT STEPS [SWEEPS] one run, for callgrind
//        ENGINE: arm | world | mujoco | chainN (sn_arm on the chain of N joints); VARIANT: full |
//        bare | held (arm and chainN only: every step from the full variant's state after 300
//        steps); SWEEPS: the arm's SWEEPS (default 20)
// Instructions: valgrind --tool=callgrind --collect-atstart=no counts the steps only (the
// toggles around them); bench/arm_ir.sh divides by STEPS.
#define _POSIX_C_SOURCE 200809L
#include "sinew/sn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#include "bench_util.h"

#define DT 0.001
#define REPS 7
#define NJ7 7
#define CHAIN_MAX 60

// the start of arm7: joint 2 near its upper stop (2 rad) with the arm leaning on it, the others
// bent; gravity takes joint 2 onto its stop within a few steps and keeps it there
static const double Q7[NJ7] = {0.3, 1.9, 0.2, 1.0, 0.1, 1.0, 0.0};

// ---- the models ----

// the whole file (NULL on failure)
static char* read_text(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

// s with every `from` replaced by `to` (s is freed; NULL when out of memory)
static char* replace_all(char* s, const char* from, const char* to) {
    size_t lf = strlen(from), lt = strlen(to), count = 0;
    for (const char* p = strstr(s, from); p; p = strstr(p + lf, from))
        count++;
    char* out = malloc(strlen(s) + count * lt + 1);
    if (out) {
        char* w = out;
        const char* r = s;
        for (const char* p = strstr(r, from); p; p = strstr(r, from)) {
            memcpy(w, r, (size_t)(p - r));
            w += p - r;
            memcpy(w, to, lt);
            w += lt;
            r = p + lf;
        }
        strcpy(w, r);
    }
    free(s);
    return out;
}

// arm7's URDF for a variant. The arm has no velocity limits, so the world's model drops them
// (velocity 0 is none for sinew; MuJoCo ignores them). bare: friction 0 and continuous joints
static char* arm7_text(int bare) {
    char* s = read_text(SN_BENCH_SOURCE_DIR "/models/arm7.urdf");
    if (s) s = replace_all(s, "velocity=\"2.0\"", "velocity=\"0\"");
    if (s && bare) s = replace_all(s, "friction=\"0.2\"", "friction=\"0\"");
    if (s && bare) s = replace_all(s, "type=\"revolute\"", "type=\"continuous\"");
    return s;
}

static sn_model* load_sinew(const char* text) {
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf_string(text, strlen(text), "arm7", NULL, NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "sinew: %s\n", err.msg);
        return NULL;
    }
    return m;
}

// a chain of n joints: joint k about y (k even) or x, 0.1 m along z from joint k-1; 0.1 kg rods
// of 0.1 m; damping 0.1 N m s; from 0.25 rad at every joint. full: friction 0.005 N m and stops
// at +-0.3 rad, standing up (g along -z): it falls onto its stops and lies on them. bare: no
// friction or stops, hanging (g along +z): a swinging chain. (With damping 0.01 the bare chain of
// 60 whips after 0.8 s into motions a 1 ms semi-implicit step does not follow: sn_arm_step and
// the same model in an sn_world diverge within 7 steps of each other.)
static sn_arm* chain_arm(int n, int bare) {
    sn_arm_joint_desc j[CHAIN_MAX];
    memset(j, 0, sizeof j);
    for (int k = 0; k < n; k++) {
        j[k].type = SN_JOINT_REVOLUTE;
        j[k].axis[k % 2 ? 0 : 1] = 1;
        j[k].origin[2] = k ? 0.1 : 0;
        j[k].mass = 0.1;
        j[k].com[2] = 0.05;
        j[k].inertia[0] = j[k].inertia[3] = 1e-4;
        j[k].inertia[5] = 1e-5;
        j[k].damping = 0.1;
        j[k].friction = bare ? 0 : 0.005;
        j[k].limited = !bare;
        j[k].lower = -0.3;
        j[k].upper = 0.3;
    }
    sn_arm_desc d;
    memset(&d, 0, sizeof d);
    d.njoint = n;
    d.joints = j;
    d.gravity[2] = bare ? 9.81 : -9.81;
    sn_arm* a = NULL;
    sn_error err;
    if (sn_arm_create(&d, NULL, &a, &err) != SN_OK) {
        fprintf(stderr, "sn_arm_create: %s\n", err.msg);
        return NULL;
    }
    return a;
}

// ---- the engines: a case is a start, a step and a state to compare ----

typedef struct engine {
    void (*reset)(struct engine* e);
    int (*step)(struct engine* e); // 0: ok
    const double* (*q)(struct engine* e);
    double (*iterations)(struct engine* e); // the last step's sweeps or solver iterations
    sn_arm* arm;
    sn_world* w;
    sn_system* s;
    sn_model* m;
    double q0[CHAIN_MAX];
    double hq[CHAIN_MAX], hqd[CHAIN_MAX]; // held: every step starts from this state
    int n, held;
#ifdef SN_BENCH_MUJOCO
    mjModel* mm;
    mjData* md;
#endif
} engine;

static void arm_reset(engine* e) {
    double zero[CHAIN_MAX] = {0};
    sn_arm_set_state(e->arm, e->q0, e->n, zero, e->n);
}

static int arm_step(engine* e) {
    if (e->held && sn_arm_set_state(e->arm, e->hq, e->n, e->hqd, e->n) != SN_OK) return 1;
    return sn_arm_step(e->arm, DT, NULL) != SN_OK;
}

// the held variant: the full variant's state after HOLD steps (pressed onto its stops, friction
// sticking and sliding), the start of every step
#define HOLD 300
static int hold(engine* e) {
    e->reset(e);
    for (int k = 0; k < HOLD; k++)
        if (e->step(e)) return 1;
    memcpy(e->hq, sn_arm_q(e->arm), (size_t)e->n * sizeof(double));
    memcpy(e->hqd, sn_arm_qd(e->arm), (size_t)e->n * sizeof(double));
    e->held = 1;
    return 0;
}

static const double* arm_q(engine* e) {
    return sn_arm_q(e->arm);
}

static double arm_iterations(engine* e) {
    sn_arm_report r;
    sn_arm_report_get(e->arm, &r);
    return r.sweeps;
}

static void world_reset(engine* e) {
    double zero[CHAIN_MAX] = {0};
    sn_system_set_state(e->s, e->q0, e->n, zero, e->n);
}

static int world_step(engine* e) {
    return sn_world_integrate(e->w) != SN_OK;
}

static const double* world_q(engine* e) {
    return sn_system_q(e->s);
}

static double world_iterations(engine* e) {
    return sn_system_solver_iterations(e->s);
}

enum { FULL = 0, BARE = 1, HELD = 2 };

static int make_arm7(engine* e, int variant, int sweeps) {
    memset(e, 0, sizeof *e);
    char* text = arm7_text(variant == BARE);
    e->m = text ? load_sinew(text) : NULL;
    free(text);
    sn_error err;
    if (!e->m || sn_arm_from_model(e->m, NULL, NULL, &e->arm, &err) != SN_OK) return 1;
    if (sn_arm_set_sweeps(e->arm, sweeps) != SN_OK) return 1;
    e->n = NJ7;
    memcpy(e->q0, Q7, sizeof Q7);
    e->reset = arm_reset, e->step = arm_step, e->q = arm_q, e->iterations = arm_iterations;
    return variant == HELD ? hold(e) : 0;
}

static int make_chain(engine* e, int n, int variant, int sweeps) {
    memset(e, 0, sizeof *e);
    e->arm = chain_arm(n, variant == BARE);
    if (!e->arm || sn_arm_set_sweeps(e->arm, sweeps) != SN_OK) return 1;
    e->n = n;
    for (int k = 0; k < n; k++)
        e->q0[k] = 0.25;
    e->reset = arm_reset, e->step = arm_step, e->q = arm_q, e->iterations = arm_iterations;
    return variant == HELD ? hold(e) : 0;
}

static int make_world(engine* e, int bare) {
    memset(e, 0, sizeof *e);
    char* text = arm7_text(bare);
    e->m = text ? load_sinew(text) : NULL;
    free(text);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = DT;
    sn_error err;
    if (!e->m || sn_world_create(&o, &e->w, &err) != SN_OK ||
        sn_world_add_system(e->w, e->m, &e->s, &err) != SN_OK)
        return 1;
    sn_system_set_scheme(e->s, SN_SCHEME_SEMI_IMPLICIT);
    e->n = NJ7;
    memcpy(e->q0, Q7, sizeof Q7);
    e->reset = world_reset, e->step = world_step, e->q = world_q, e->iterations = world_iterations;
    return 0;
}

#ifdef SN_BENCH_MUJOCO
static void mj_reset(engine* e) {
    mj_resetData(e->mm, e->md);
    for (int i = 0; i < e->n; i++)
        e->md->qpos[i] = e->q0[i];
}

static int mj_one(engine* e) {
    mj_step(e->mm, e->md);
    return 0;
}

static const double* mj_q(engine* e) {
    return e->md->qpos;
}

static double mj_iterations(engine* e) {
    return e->md->solver_iter;
}

static int make_mujoco(engine* e, int bare) {
    memset(e, 0, sizeof *e);
    char* text = arm7_text(bare);
    if (!text) return 1;
    char path[256], err[1000] = "";
    snprintf(path, sizeof path, "/tmp/sinew_bench_arm_%ld.urdf", (long)getpid());
    FILE* f = fopen(path, "w");
    if (!f) return 1;
    fputs(text, f);
    fclose(f);
    free(text);
    e->mm = mj_loadXML(path, NULL, err, sizeof err);
    remove(path);
    if (!e->mm) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        return 1;
    }
    // the arm has no contacts; MuJoCo's default Euler integrates the damping implicitly
    e->mm->opt.timestep = DT;
    e->mm->opt.disableflags |= mjDSBL_CONTACT;
    e->md = mj_makeData(e->mm);
    e->n = NJ7;
    memcpy(e->q0, Q7, sizeof Q7);
    e->reset = mj_reset, e->step = mj_one, e->q = mj_q, e->iterations = mj_iterations;
    return e->mm->nv == NJ7 ? 0 : 1;
}
#endif

static void destroy(engine* e) {
    sn_arm_destroy(e->arm);
    sn_world_destroy(e->w);
    sn_model_destroy(e->m);
#ifdef SN_BENCH_MUJOCO
    if (e->md) mj_deleteData(e->md);
    if (e->mm) mj_deleteModel(e->mm);
#endif
}

// ---- measuring ----

typedef struct result {
    double t;     // median over REPS runs of the mean wall time per step (s)
    double iters; // mean sweeps (arm) or solver iterations per step
    int ok;       // every step succeeded and the state stayed finite
} result;

// one run of `steps` steps from the start; callgrind counts the steps only
static int run_once(engine* e, int steps, double* iters) {
    e->reset(e);
    int fail = 0;
    double it = 0;
    CALLGRIND_TOGGLE_COLLECT;
    for (int k = 0; k < steps; k++) {
        fail |= e->step(e);
        it += e->iterations(e);
    }
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < e->n; i++)
        fail |= !isfinite(e->q(e)[i]);
    if (iters) *iters = it / steps;
    return fail;
}

static result measure(engine* e, int steps) {
    result r = {0, 0, 1};
    double t[REPS];
    for (int k = 0; k < REPS; k++) {
        double t0 = bench_now();
        r.ok &= !run_once(e, steps, &r.iters);
        t[k] = (bench_now() - t0) / steps;
    }
    qsort(t, REPS, sizeof t[0], bench_cmp);
    r.t = t[REPS / 2];
    return r;
}

// ---- the tables ----

static double max_diff(engine* a, engine* b) {
    double d = 0;
    for (int i = 0; i < a->n; i++)
        d = fmax(d, fabs(a->q(a)[i] - b->q(b)[i]));
    return d;
}

static int table_engines(int steps) {
    static const char* variants[2] = {"full", "bare"};
    int rc = 0;
    printf("models/arm7.urdf, dt %g s, %d steps from the start pose, median of %d runs\n\n", DT,
           steps, REPS);
    printf("| variant | engine | us/step | / sn_arm | iterations/step | max |q - q_arm| at the end "
           "(rad) |\n|---|---|---:|---:|---:|---:|\n");
    for (int v = 0; v < 2; v++) {
        engine ea, ew;
        if (make_arm7(&ea, v, 20) || make_world(&ew, v)) return 1;
        result ra = measure(&ea, steps), rw = measure(&ew, steps);
        rc |= !ra.ok || !rw.ok;
        printf("| %s | sn_arm_step | %.3f | 1 | %.2f sweeps | - |\n", variants[v], 1e6 * ra.t,
               ra.iters);
        printf("| %s | sn_world (SEMI_IMPLICIT) | %.3f | %.2f | %.2f solver iterations | %.2g |\n",
               variants[v], 1e6 * rw.t, rw.t / ra.t, rw.iters, max_diff(&ew, &ea));
#ifdef SN_BENCH_MUJOCO
        engine em;
        if (make_mujoco(&em, v)) return 1;
        result rm = measure(&em, steps);
        rc |= !rm.ok;
        printf("| %s | MuJoCo 2.2.2 mj_step | %.3f | %.2f | %.2f solver iterations | %.2g |\n",
               variants[v], 1e6 * rm.t, rm.t / ra.t, rm.iters, max_diff(&em, &ea));
        destroy(&em);
#endif
        destroy(&ea);
        destroy(&ew);
    }
    return rc;
}

// least-squares slope of log t against log n over points [lo, hi)
static double slope(const double* n, const double* t, int lo, int hi) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0, k = hi - lo;
    for (int i = lo; i < hi; i++) {
        double x = log(n[i]), y = log(t[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

static int table_chains(int steps) {
    static const int ns[] = {2, 4, 8, 15, 30, 60};
    enum { NN = sizeof ns / sizeof ns[0] };
    double x[NN], tf[NN], tb[NN];
    int rc = 0;
    printf("\nsn_arm_step on chains of n joints (sn_arm_create; full: friction and stops on every "
           "joint, falling onto them; bare: damping only, hanging), %d steps\n\n",
           steps);
    printf("| n | full us/step | full ns/joint | sweeps/step | bare us/step | bare ns/joint |\n"
           "|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < NN; i++) {
        engine ef, eb;
        if (make_chain(&ef, ns[i], 0, 20) || make_chain(&eb, ns[i], 1, 20)) return 1;
        result rf = measure(&ef, steps), rb = measure(&eb, steps);
        rc |= !rf.ok || !rb.ok;
        x[i] = ns[i], tf[i] = rf.t, tb[i] = rb.t;
        printf("| %d | %.3f | %.1f | %.2f | %.3f | %.1f |\n", ns[i], 1e6 * rf.t, 1e9 * rf.t / ns[i],
               rf.iters, 1e6 * rb.t, 1e9 * rb.t / ns[i]);
        destroy(&ef);
        destroy(&eb);
    }
    printf("\ncost ~ n^p: full p = %.2f (n = 2..60), %.2f (n = 15..60); bare p = %.2f, %.2f\n",
           slope(x, tf, 0, NN), slope(x, tf, 3, NN), slope(x, tb, 0, NN), slope(x, tb, 3, NN));
    return rc;
}

// the cost of a sweep: the held variant (every step from one state pressed onto the stops) at
// SWEEPS 1..40; per sweep: the time difference between SWEEPS 1 and 40 over the difference of
// the sweeps run. Each step includes sn_arm_set_state (the same in every row)
static int table_sweeps(int steps) {
    static const int cap[] = {1, 2, 5, 10, 20, 40};
    enum { NS = sizeof cap / sizeof cap[0] };
    printf("\nper projected Gauss-Seidel sweep: the held variant (every step from the state after "
           "%d full steps), SWEEPS = 1..40\n\n| case | SWEEPS | us/step | sweeps run |\n"
           "|---|---:|---:|---:|\n",
           HOLD);
    int rc = 0;
    for (int c = 0; c < 2; c++) {
        result r[NS];
        for (int i = 0; i < NS; i++) {
            engine e;
            if (c == 0 ? make_arm7(&e, HELD, cap[i]) : make_chain(&e, 30, HELD, cap[i])) return 1;
            r[i] = measure(&e, steps);
            rc |= !r[i].ok;
            printf("| %s | %d | %.3f | %.2f |\n", c == 0 ? "arm7" : "chain30", cap[i], 1e6 * r[i].t,
                   r[i].iters);
            destroy(&e);
        }
        double di = r[NS - 1].iters - r[0].iters;
        if (di > 0)
            printf("| %s | per sweep | %.1f ns | |\n", c == 0 ? "arm7" : "chain30",
                   1e9 * (r[NS - 1].t - r[0].t) / di);
    }
    return rc;
}

// ---- main ----

static int usage(void) {
    fprintf(stderr,
            "usage: sinew_bench_arm all [STEPS]\n"
            "       sinew_bench_arm one arm|world|mujoco|chainN full|bare|held STEPS [SWEEPS]\n");
    return 2;
}

static int run_one(const char* name, const char* variant, int steps, int sweeps) {
    int v = !strcmp(variant, "full") ? FULL : !strcmp(variant, "bare") ? BARE : HELD;
    if (v == HELD && strcmp(variant, "held")) return usage();
    engine e;
    int bad;
    if (!strcmp(name, "arm"))
        bad = make_arm7(&e, v, sweeps);
    else if (!strcmp(name, "world") && v != HELD)
        bad = make_world(&e, v == BARE);
    else if (!strncmp(name, "chain", 5) && atoi(name + 5) >= 1 && atoi(name + 5) <= CHAIN_MAX)
        bad = make_chain(&e, atoi(name + 5), v, sweeps);
#ifdef SN_BENCH_MUJOCO
    else if (!strcmp(name, "mujoco") && v != HELD)
        bad = make_mujoco(&e, v == BARE);
#endif
    else
        return usage();
    if (bad) return 1;
    double iters;
    int fail = run_once(&e, steps, &iters);
    printf("%s %s: %d steps, %.2f iterations/step%s\n", name, variant, steps, iters,
           fail ? ", FAILED" : "");
    destroy(&e);
    return fail;
}

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    if (!strcmp(argv[1], "one")) {
        if (argc < 5 || atoi(argv[4]) < 1) return usage();
        return run_one(argv[2], argv[3], atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 20);
    }
    if (strcmp(argv[1], "all")) return usage();
    int steps = argc > 2 ? atoi(argv[2]) : 1000;
    if (steps < 1) return usage();
    int rc = table_engines(steps);
    rc |= table_chains(steps);
    rc |= table_sweeps(steps);
    if (rc) fprintf(stderr, "sinew_bench_arm: a step failed or a state was not finite\n");
    return rc;
}
