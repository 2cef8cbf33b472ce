// SPDX-License-Identifier: Apache-2.0
// args.c: number lists, model loading with messages, JSON numbers for the CLI.
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    sn_status st = sn_load(path, &opts, &m, &err); // URDF or MJCF, by the file's content
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
