// SPDX-License-Identifier: Apache-2.0
// run.c: `sinew run MODEL`: simulate the model from an initial state and print a summary.
// This first version integrates the passive dynamics (gravity only, no contacts) with the
// semi-implicit Euler scheme of seed 000: u+ = u + dt * ABA(q, u), q+ = q (+) dt * u+.
// The world, control, contacts and the other schemes arrive with the step (issue 3).
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void run_usage(void) {
    fprintf(stderr, "usage: sinew run MODEL [--dt S] [--duration S] [--q0 \"...\"] [--u0 \"...\"]\n"
                    "                 [--gravity \"gx gy gz\"] [--record FILE.csv] [--quiet]\n"
                    "  --dt        time step in seconds (default 0.001)\n"
                    "  --duration  simulated time in seconds (default 5)\n"
                    "  --q0, --u0  initial generalized coordinates (nq) and velocities (nv)\n"
                    "  --record    write t, q, u, kinetic and potential energy, one row per step\n"
                    "  --quiet     no progress bar\n");
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void record_row(FILE* f, const sn_model* m, const sn_data* d, double t, double ke,
                       double pe) {
    fprintf(f, "%.9g", t);
    for (int i = 0; i < m->nq; i++)
        fprintf(f, ",%.17g", d->q[i]);
    for (int i = 0; i < m->nv; i++)
        fprintf(f, ",%.17g", d->u[i]);
    fprintf(f, ",%.17g,%.17g\n", ke, pe);
}

static void progress(double frac) {
    int width = 40, n = (int)(frac * width + 0.5);
    fprintf(stderr, "\r[");
    for (int i = 0; i < width; i++)
        fputc(i < n ? '#' : '.', stderr);
    fprintf(stderr, "] %3d%%", (int)(frac * 100 + 0.5));
    fflush(stderr);
}

typedef struct run_args {
    const char* path;
    const char *q0, *u0, *gravity, *record;
    double dt, duration;
    int quiet;
} run_args;

static int parse_args(int argc, char** argv, run_args* a) {
    memset(a, 0, sizeof *a);
    a->dt = 0.001;
    a->duration = 5;
    for (int i = 0; i < argc; i++) {
        const char* s = argv[i];
        const char** str = !strcmp(s, "--q0")        ? &a->q0
                           : !strcmp(s, "--u0")      ? &a->u0
                           : !strcmp(s, "--gravity") ? &a->gravity
                           : !strcmp(s, "--record")  ? &a->record
                                                     : NULL;
        double* num = !strcmp(s, "--dt") ? &a->dt : !strcmp(s, "--duration") ? &a->duration : NULL;
        if (str || num) {
            if (i + 1 >= argc) {
                fprintf(stderr, "sinew run: %s needs a value\n", s);
                return CLI_USAGE;
            }
            if (str)
                *str = argv[++i];
            else if (cli_parse_vector(argv[++i], num, 1) != 1 || !(*num > 0)) {
                fprintf(stderr, "sinew run: %s needs one positive number\n", s);
                return CLI_USAGE;
            }
        } else if (!strcmp(s, "--quiet")) {
            a->quiet = 1;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            run_usage();
            exit(0);
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "sinew run: unknown option '%s'\n", s);
            return CLI_USAGE;
        } else if (!a->path) {
            a->path = s;
        } else {
            fprintf(stderr, "sinew run: more than one model given\n");
            return CLI_USAGE;
        }
    }
    if (!a->path) return CLI_USAGE;
    return 0;
}

// initial state from the options; 0 or CLI_USAGE
static int initial_state(const sn_model* m, sn_data* d, const run_args* a) {
    int cap = m->nq + m->nv + 8, rc = 0;
    double* buf = calloc((size_t)cap, sizeof(double));
    if (a->q0) {
        if (cli_parse_vector(a->q0, buf, cap) != m->nq ||
            sn_set_state(m, d, buf, m->nq, NULL, m->nv) != SN_OK) {
            fprintf(stderr, "sinew run: --q0 needs %d finite numbers (unit quaternions)\n", m->nq);
            rc = CLI_USAGE;
        }
    }
    if (!rc && a->u0) {
        if (cli_parse_vector(a->u0, buf, cap) != m->nv) {
            fprintf(stderr, "sinew run: --u0 needs %d finite numbers\n", m->nv);
            rc = CLI_USAGE;
        } else {
            memcpy(d->u, buf, (size_t)m->nv * sizeof(double));
        }
    }
    if (!rc && a->gravity) {
        if (cli_parse_vector(a->gravity, buf, cap) != 3) {
            fprintf(stderr, "sinew run: --gravity needs 3 numbers\n");
            rc = CLI_USAGE;
        } else {
            memcpy(d->gravity, buf, 3 * sizeof(double));
        }
    }
    free(buf);
    return rc;
}

int cli_run(int argc, char** argv) {
    run_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        run_usage();
        return rc;
    }
    sn_model* m = cli_load(a.path, 0);
    if (!m) return 1;
    sn_data* d = NULL;
    if (sn_data_create(m, NULL, &d, NULL) != SN_OK) {
        sn_model_destroy(m);
        return 1;
    }
    rc = initial_state(m, d, &a);
    FILE* rec = NULL;
    if (!rc && a.record) {
        rec = fopen(a.record, "w");
        if (!rec) {
            fprintf(stderr, "sinew run: cannot write '%s'\n", a.record);
            rc = 1;
        }
    }
    if (rc) {
        sn_data_destroy(d);
        sn_model_destroy(m);
        return rc;
    }
    if (rec) {
        fprintf(rec, "t");
        for (int i = 0; i < m->nq; i++)
            fprintf(rec, ",q%d", i);
        for (int i = 0; i < m->nv; i++)
            fprintf(rec, ",u%d", i);
        fprintf(rec, ",kinetic_energy,potential_energy\n");
    }
    long steps = (long)floor(a.duration / a.dt + 0.5);
    int bar = !a.quiet && isatty(2);
    sn_fk(m, d);
    sn_fk_vel(m, d);
    double e0 = sn_kinetic_energy(m, d) + sn_potential_energy(m, d), ke = 0, pe = 0;
    if (rec) record_row(rec, m, d, 0, sn_kinetic_energy(m, d), sn_potential_energy(m, d));
    double t0 = now_seconds();
    long k = 0;
    for (; k < steps; k++) {
        if (sn_aba(m, d, NULL, NULL) != SN_OK) {
            fprintf(stderr, "\nsinew run: singular mass matrix at t = %g s\n", (double)k * a.dt);
            rc = 1;
            break;
        }
        for (int i = 0; i < m->nv; i++)
            d->u[i] += a.dt * d->udot[i];
        sn_integrate_q(m, d->q, d->u, a.dt, d->q);
        sn_fk(m, d);
        sn_fk_vel(m, d);
        if (rec) {
            ke = sn_kinetic_energy(m, d), pe = sn_potential_energy(m, d);
            record_row(rec, m, d, (double)(k + 1) * a.dt, ke, pe);
        }
        if (bar && (k % 256 == 0 || k + 1 == steps)) progress((double)(k + 1) / (double)steps);
    }
    double wall = now_seconds() - t0;
    if (bar) fputc('\n', stderr);
    ke = sn_kinetic_energy(m, d), pe = sn_potential_energy(m, d);
    double sim = (double)k * a.dt, e1 = ke + pe;
    printf("model            %s (nq %d, nv %d)\n", a.path, m->nq, m->nv);
    printf("simulated time   %.6g s in %ld steps of %.6g s (semi-implicit Euler, no contacts)\n",
           sim, k, a.dt);
    printf("wall time        %.6g s\n", wall);
    printf("real-time factor %.4g\n", wall > 0 ? sim / wall : (double)INFINITY);
    printf("energy           %.9g J -> %.9g J (change %+.3g J, %+.3g %%)\n", e0, e1, e1 - e0,
           e0 != 0 ? 100 * (e1 - e0) / fabs(e0) : 0.0);
    if (rec) {
        fclose(rec);
        printf("recorded         %s (%ld rows after the header)\n", a.record, k + 1);
    }
    sn_data_destroy(d);
    sn_model_destroy(m);
    return rc;
}
