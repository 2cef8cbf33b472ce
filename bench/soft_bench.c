// SPDX-License-Identifier: Apache-2.0
// soft_bench.c: the cost of one soft-contact sub-step of Solo12 (the 2020 URDF of the Expo paper)
// standing on its 4 feet (FL/FR/HL/HR_FOOT, all 4 contacts active), world dt 2 ms: the paper's
// Table III (spec/algorithms.md "Timing breakdown (Table III)", solo-trot at 2 ms). Expo in 1
// sub-step with the standard exponential (max_mul -1) without and with balancing and with the
// caps max_mul 0, 2, 4; explicit Euler in 16 sub-steps. Per sub-step: the whole world step's time
// divided by its sub-steps (median of 5 blocks) and Table III's rows, each phase timed alone at
// the same state (median of 5 blocks); "other" is the rest of the world step (the control, the
// step's set-up, the contact kinematics at its start). Not a test (docs/expo.md).
//
//   sinew_bench_soft [--csv FILE]       the table (us and % per sub-step)
//   sinew_bench_soft --ir [--csv FILE]  the same in callgrind instructions per sub-step, exact:
//                                       runs itself under valgrind --tool=callgrind (one run per
//                                       configuration) and prints one line per configuration
//   sinew_bench_soft --callgrind CONFIG STEPS
//                                       the worker of --ir (CONFIG 0..5): STEPS world steps and
//                                       then each row 100 times, each dumped apart
//                                       (CALLGRIND_DUMP_STATS_AT: FILE.1 the steps, FILE.2.. the
//                                       rows, FILE valgrind's --callgrind-out-file)
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "expo/robot.h"
#include "expo/scenario.h"
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef SN_BENCH_MODELS_DIR
#define SN_BENCH_MODELS_DIR "../shared/models"
#endif
#define SOLO_URDF "erd_solo/robots/solo12_f15b08f_2020-04-28.urdf"
#define DT 0.002
#define SETTLE_STEPS 500 // 1 s: the robot at rest on its 4 springs
#define KP 5.0           // the joint PD holding q0 (as tests/test_soft.c's Solo12)
#define KD 0.2

typedef struct config {
    const char* name;
    sn_soft_integrator it;
    int substeps, max_mul, balance;
} config;

static const config configs[] = {
    {"expo_std_nobal", SN_SOFT_EXPO, 1, -1, 0}, {"expo_std_bal", SN_SOFT_EXPO, 1, -1, 1},
    {"expo_mul0", SN_SOFT_EXPO, 1, 0, 1},       {"expo_mul2", SN_SOFT_EXPO, 1, 2, 1},
    {"expo_mul4", SN_SOFT_EXPO, 1, 4, 1},       {"euler_16", SN_SOFT_EULER, 16, -1, 1},
};
#define NCONFIG (int)(sizeof configs / sizeof configs[0])

// Table III's rows
enum { R_FACTOR, R_FREE, R_W, R_UPS, R_EXP, R_CONE, R_INTEG, R_KIN, R_OTHER, NROW };
static const char* row_name[NROW] = {
    "LDS: CRBA + factor", "LDS: forward dynamics",  "LDS: W = M^-1 J^T",
    "LDS: Upsilon, A",    "exponential, integrals", "cone projection",
    "state integration",  "kinematics, detection",  "other (world step)"};
static const char* row_key[NROW] = {
    "crba_factor", "forward_dynamics", "w",          "upsilon", "expm",
    "cone",        "integrate",        "kinematics", "other"};

typedef struct bench {
    expo_robot robot;
    sn_world* w;
    sn_system* s;
    double q[64], u[64]; // the sub-step's start
    const config* cf;
    int row;      // the row timed by run_row
    int failures; // steps that failed or lost a contact
} bench;

static void restore(bench* b) {
    sni_soft* c = b->s->soft;
    memcpy(c->q, b->q, (size_t)b->robot.nq * sizeof(double));
    memcpy(c->u, b->u, (size_t)b->robot.nv * sizeof(double));
}

static void run_step(void* ctx) {
    bench* b = ctx;
    if (sn_world_integrate(b->w) != SN_OK || sn_system_soft_contact_count(b->s) != 4) b->failures++;
}

// one row's work at the saved state (the phases are idempotent there but the integration, which
// moves c->q and c->u: restored before it, a copy of 37 numbers)
static void run_row(void* ctx) {
    bench* b = ctx;
    sn_system* s = b->s;
    sni_soft* c = s->soft;
    double h = DT / b->cf->substeps;
    sn_status st = SN_OK;
    if (b->row == R_KIN) {
        sni_soft_kin(s, c->q, c->u, 1);
        sni_soft_update(s, c->pt);
    } else if (b->cf->it == SN_SOFT_EXPO) {
        static const int phase[R_KIN] = {SNI_EXPO_FACTOR,   SNI_EXPO_FREE, SNI_EXPO_W,
                                         SNI_EXPO_LDS,      SNI_EXPO_EXP,  SNI_EXPO_CONE,
                                         SNI_EXPO_INTEGRATE};
        if (b->row == R_INTEG) restore(b);
        st = sni_soft_expo_phase(s, h, phase[b->row]);
    } else if (b->row == R_FACTOR) {
        st = sni_soft_factor(s);
    } else if (b->row == R_FREE) { // Euler's forward dynamics with the contact forces
        st = sni_soft_accel(s, s->step.tau_exp, c->pt, c->acc);
    } else if (b->row == R_INTEG) {
        restore(b);
        st = sni_soft_euler(s, h);
    }
    if (st != SN_OK) b->failures++;
}

// Euler's rows are measured as nested calls: accel contains the factor, euler contains accel
static void euler_exclusive(double* t) {
    t[R_INTEG] -= t[R_FREE];
    t[R_FREE] -= t[R_FACTOR];
}

static int has_row(const config* cf, int r) {
    if (cf->it == SN_SOFT_EXPO) return 1;
    return r == R_FACTOR || r == R_FREE || r == R_INTEG || r == R_KIN || r == R_OTHER;
}

static int setup(bench* b, char* err) {
    memset(b, 0, sizeof *b);
    char path[1024];
    const char* dir = getenv("SN_MODELS_DIR") ? getenv("SN_MODELS_DIR") : SN_BENCH_MODELS_DIR;
    snprintf(path, sizeof path, "%s/%s", dir, SOLO_URDF);
    if (expo_robot_load(path, &b->robot, err)) return -1;
    sn_model* m = b->robot.m;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = DT;
    if (sn_world_create(&o, &b->w, NULL) != SN_OK || sn_world_set_ground(b->w, 1, 0) != SN_OK ||
        sn_world_set_contact_model(b->w, SN_CONTACT_SOFT) != SN_OK ||
        sn_world_add_system(b->w, m, &b->s, NULL) != SN_OK) {
        snprintf(err, EXPO_ERR_LEN, "world set-up failed");
        return -1;
    }
    const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
    const double zero[3] = {0, 0, 0};
    for (int k = 0; k < 4; k++) {
        int f = sn_model_find(m, SN_OBJ_FRAME, feet[k]);
        if (f < 0 || sn_system_add_soft_point_frame(b->s, f, zero, NULL) != SN_OK) {
            snprintf(err, EXPO_ERR_LEN, "no frame %s", feet[k]);
            return -1;
        }
    }
    // the scenario's q0, lowered so that the lowest foot is 1 nm in the ground
    double q[64], u[64] = {0};
    int nq = b->robot.nq, nv = b->robot.nv;
    expo_q_pin_to_sn(&b->robot, expo_solo_q0, q);
    sn_data* d = sn_system_data(b->s);
    memcpy(d->q, q, (size_t)nq * sizeof *q);
    sn_fk(m, d);
    double low = 1e9;
    for (int k = 0; k < 4; k++) {
        double p[3], R[9];
        sn_frame_pose(m, d, sn_model_find(m, SN_OBJ_FRAME, feet[k]), p, R);
        low = fmin(low, p[2]);
    }
    q[2] -= low + 1e-9;
    double kp[64] = {0}, kd[64] = {0};
    for (int i = 6; i < nv; i++)
        kp[i] = KP, kd[i] = KD;
    if (sn_system_set_state(b->s, q, nq, u, nv) != SN_OK ||
        sn_system_set_pd_gains(b->s, kp, kd, nv) != SN_OK ||
        sn_system_set_pd_target(b->s, q, nq, u, nv) != SN_OK) {
        snprintf(err, EXPO_ERR_LEN, "state or PD refused: %s", sn_world_last_error(b->w));
        return -1;
    }
    for (int k = 0; k < SETTLE_STEPS; k++)
        if (sn_world_integrate(b->w) != SN_OK) {
            snprintf(err, EXPO_ERR_LEN, "settling failed: %s", sn_world_last_error(b->w));
            return -1;
        }
    if (sn_system_soft_contact_count(b->s) != 4) {
        snprintf(err, EXPO_ERR_LEN, "%d contacts after settling, not 4",
                 sn_system_soft_contact_count(b->s));
        return -1;
    }
    return 0;
}

// the configuration on, a few steps, the state saved (a world step leaves the kinematics and
// the contact update at its end state, where the next sub-step starts)
static void select_config(bench* b, const config* cf) {
    b->cf = cf;
    sn_system_set_soft_integrator(b->s, cf->it, cf->substeps);
    sn_system_set_expo_options(b->s, cf->max_mul, cf->balance, 0);
    for (int k = 0; k < 20; k++)
        run_step(b);
    memcpy(b->q, b->s->soft->q, (size_t)b->robot.nq * sizeof(double));
    memcpy(b->u, b->s->soft->u, (size_t)b->robot.nv * sizeof(double));
}

// steps of f taking about 0.02 s, at least 5
static int calibrate(bench_step_fn f, bench* b) {
    int n = 0;
    double t0 = bench_now();
    while (bench_now() - t0 < 0.02)
        f(b), n++;
    return n < 5 ? 5 : n;
}

// us per sub-step: t[NROW] the rows, *total the world step
static void time_config(bench* b, const config* cf, double* t, double* total) {
    select_config(b, cf);
    int steps = 10 * calibrate(run_step, b);
    *total = 1e6 * bench_measure(run_step, b, steps, NULL) / cf->substeps;
    double sum = 0;
    for (int r = 0; r < R_OTHER; r++) {
        t[r] = 0;
        if (!has_row(cf, r)) continue;
        b->row = r;
        int n = 10 * calibrate(run_row, b);
        t[r] = 1e6 * bench_measure(run_row, b, n, NULL);
        restore(b);
    }
    if (cf->it != SN_SOFT_EXPO) euler_exclusive(t);
    for (int r = 0; r < R_OTHER; r++)
        sum += t[r];
    t[R_OTHER] = *total - sum;
    // the state the rows left is the saved one; the world steps on from it
    sni_soft_kin(b->s, b->s->soft->q, b->s->soft->u, 1);
}

static void print_table(const char* unit, double t[NCONFIG][NROW], const double* total,
                        const char* fmt) {
    printf("%-24s", "per sub-step");
    for (int k = 0; k < NCONFIG; k++)
        printf(" %16s", configs[k].name);
    printf("\n%-24s", "total");
    for (int k = 0; k < NCONFIG; k++) {
        char v[32];
        snprintf(v, sizeof v, fmt, total[k]);
        printf(" %9s %-6s", v, unit);
    }
    printf("\n");
    for (int r = 0; r < NROW; r++) {
        printf("%-24s", row_name[r]);
        for (int k = 0; k < NCONFIG; k++) {
            if (!has_row(&configs[k], r)) {
                printf(" %16s", "-");
                continue;
            }
            char v[32];
            snprintf(v, sizeof v, fmt, t[k][r]);
            printf(" %9s %5.1f%%", v, 100 * t[k][r] / total[k]);
        }
        printf("\n");
    }
}

static int write_csv(const char* file, const char* unit, double t[NCONFIG][NROW],
                     const double* total) {
    FILE* f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", file);
        return 1;
    }
    fprintf(f, "config,integrator,substeps,max_mul,balance,row,%s_per_substep,percent\n", unit);
    for (int k = 0; k < NCONFIG; k++) {
        const config* cf = &configs[k];
        const char* it = cf->it == SN_SOFT_EXPO ? "expo" : "euler";
        fprintf(f, "%s,%s,%d,%d,%d,total,%.6g,100\n", cf->name, it, cf->substeps, cf->max_mul,
                cf->balance, total[k]);
        for (int r = 0; r < NROW; r++)
            if (has_row(cf, r))
                fprintf(f, "%s,%s,%d,%d,%d,%s,%.6g,%.4g\n", cf->name, it, cf->substeps, cf->max_mul,
                        cf->balance, row_key[r], t[k][r], 100 * t[k][r] / total[k]);
    }
    fclose(f);
    printf("wrote %s\n", file);
    return 0;
}

// ---- callgrind: exact instruction counts ----

#define IR_ROW_REPS 100

// the worker: STEPS world steps, then each row IR_ROW_REPS times, each region zeroed before and
// dumped after (OUT.1 the steps, OUT.2.. the rows in order)
static int callgrind_worker(bench* b, int k, int steps) {
    const config* cf = &configs[k];
    select_config(b, cf);
#ifdef SN_BENCH_CALLGRIND
    CALLGRIND_ZERO_STATS;
    for (int i = 0; i < steps; i++)
        run_step(b);
    CALLGRIND_DUMP_STATS_AT("steps");
    for (int r = 0; r < R_OTHER; r++) {
        b->row = r;
        CALLGRIND_ZERO_STATS;
        if (has_row(cf, r))
            for (int i = 0; i < IR_ROW_REPS; i++)
                run_row(b);
        CALLGRIND_DUMP_STATS_AT(row_key[r]);
        restore(b);
    }
#else
    (void)steps;
    fprintf(stderr, "built without valgrind/callgrind.h\n");
    return 1;
#endif
    return b->failures != 0;
}

// the Ir of dump file `path` (its "summary:" or "totals:" line)
static double dump_ir(const char* path) {
    FILE* f = fopen(path, "r");
    if (!f) return NAN;
    char line[512];
    double ir = NAN;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7))
            ir = atof(strchr(line, ':') + 1);
    fclose(f);
    return ir;
}

static int ir_driver(const char* self, const char* csv) {
    double t[NCONFIG][NROW], total[NCONFIG];
    const int steps = 50;
    char out[256];
    snprintf(out, sizeof out, "/tmp/sinew_bench_soft.%ld", (long)getpid());
    for (int k = 0; k < NCONFIG; k++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "valgrind --tool=callgrind --collect-atstart=yes --callgrind-out-file=%s "
                 "'%s' --callgrind %d %d > /dev/null 2>&1",
                 out, self, k, steps);
        if (system(cmd) != 0) {
            fprintf(stderr, "valgrind run failed: %s\n", cmd);
            return 1;
        }
        char p[300];
        snprintf(p, sizeof p, "%s.1", out);
        total[k] = dump_ir(p) / steps / configs[k].substeps;
        double sum = 0;
        for (int r = 0; r < R_OTHER; r++) {
            snprintf(p, sizeof p, "%s.%d", out, r + 2);
            t[k][r] = has_row(&configs[k], r) ? dump_ir(p) / IR_ROW_REPS : 0;
        }
        if (configs[k].it != SN_SOFT_EXPO) euler_exclusive(t[k]);
        for (int r = 0; r < R_OTHER; r++)
            sum += t[k][r];
        t[k][R_OTHER] = total[k] - sum;
        snprintf(cmd, sizeof cmd, "rm -f %s %s.*", out, out);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s.*\n", out);
        printf("%-16s %9.0f Ir per sub-step\n", configs[k].name, total[k]);
        fflush(stdout);
    }
    printf("\n");
    print_table("Ir", t, total, "%.0f");
    return csv ? write_csv(csv, "ir", t, total) : 0;
}

int main(int argc, char** argv) {
    const char* csv = NULL;
    int ir = 0, worker = -1, steps = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--ir"))
            ir = 1;
        else if (!strcmp(argv[i], "--callgrind") && i + 2 < argc) {
            worker = atoi(argv[i + 1]), steps = atoi(argv[i + 2]);
            i += 2;
        } else {
            fprintf(stderr, "usage: %s [--csv FILE] [--ir] | --callgrind CONFIG STEPS\n", argv[0]);
            return 2;
        }
    }
    if (ir) return ir_driver(argv[0], csv);
    static bench b;
    char err[EXPO_ERR_LEN] = "";
    if (setup(&b, err)) {
        fprintf(stderr, "sinew_bench_soft: %s\n", err);
        return 1;
    }
    if (worker >= 0) {
        if (worker >= NCONFIG || steps < 1) return 2;
        return callgrind_worker(&b, worker, steps);
    }
    double t[NCONFIG][NROW], total[NCONFIG];
    printf("Solo12 on 4 soft feet (K 1e5, B 300, mu 1), dt 2 ms, at rest: us per sub-step "
           "(median of 5 blocks)\n");
    for (int k = 0; k < NCONFIG; k++)
        time_config(&b, &configs[k], t[k], &total[k]);
    print_table("us", t, total, "%.2f");
    if (b.failures) printf("%d steps FAILED or lost a contact\n", b.failures);
    if (csv && write_csv(csv, "us", t, total)) return 1;
    return b.failures != 0;
}
