// SPDX-License-Identifier: Apache-2.0
// args.c: the verbs' shared helpers: number lists, model loading with messages, JSON numbers,
// the record's state columns, the progress bar and the wall clock.
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_parse_vector(const char* s, double* out, int nmax) {
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n')
            s++;
        if (!*s) break;
        char* end = NULL;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s || errno == ERANGE || !isfinite(v)) return -1;
        if (*end && *end != ' ' && *end != '\t' && *end != ',' && *end != '\n') return -1;
        if (n >= nmax) return -1;
        out[n++] = v;
        s = end;
    }
    return n;
}

static void log_warning(sn_log_level level, const char* msg, void* ctx) {
    (void)level;
    if (!*(int*)ctx) fprintf(stderr, "warning: %s\n", msg);
}

sn_model* cli_load(const char* path, int quiet) {
    sn_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.log = log_warning;
    opts.log_ctx = &quiet;
    sn_model* m = NULL;
    sn_error err;
    sn_status st = sn_load(path, &opts, &m, &err); // URDF, MJCF or USD (.usda), by the content
    if (st != SN_OK) {
        fprintf(stderr, "error: %s (%s)\n", err.msg, sn_status_str(st));
        return NULL;
    }
    return m;
}

void cli_json_num(FILE* f, double v) {
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

void cli_record_state_header(FILE* f, int nq, int nv) {
    fprintf(f, "t");
    for (int i = 0; i < nq; i++)
        fprintf(f, ",q%d", i);
    for (int i = 0; i < nv; i++)
        fprintf(f, ",u%d", i);
}

void cli_record_state_values(FILE* f, double t, const double* q, int nq, const double* u, int nv) {
    fprintf(f, "%.9g", t);
    for (int i = 0; i < nq; i++)
        fprintf(f, ",%.17g", q[i]);
    for (int i = 0; i < nv; i++)
        fprintf(f, ",%.17g", u[i]);
}

void cli_progress(double frac) {
    int width = 40, n = (int)(frac * width + 0.5);
    fprintf(stderr, "\r[");
    for (int i = 0; i < width; i++)
        fputc(i < n ? '#' : '.', stderr);
    fprintf(stderr, "] %3d%%", (int)(frac * 100 + 0.5));
    fflush(stderr);
}

double cli_now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
