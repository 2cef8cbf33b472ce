// SPDX-License-Identifier: Apache-2.0
// plot.c: `sinew plot RUN.csv [--contacts CONTACTS.csv] [--out DIR]`: PNG plots of a run that
// `sinew run --record` wrote (and of its --contacts file): energy, joint positions, the contact
// count and the contacts' summed normal force, the loop closure error. Drawn by gnuplot
// (Debian's gnuplot-nox), fed through a pipe. `sinew run --plot DIR` records and plots at once.
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void plot_usage(void) {
    fprintf(stderr,
            "usage: sinew plot RUN.csv [--contacts CONTACTS.csv] [--out DIR]\n"
            "  RUN.csv     what `sinew run --record` writes (t, q, u, energies, contacts, loop\n"
            "              error)\n"
            "  --contacts  what `sinew run --contacts` wrote: adds the contacts' normal force\n"
            "  --out       where the PNGs go (default: beside RUN.csv)\n"
            "Writes energy.png, joints.png, contacts.png and, for a model with loops,\n"
            "loop_error.png. Needs gnuplot (apt-get install gnuplot-nox).\n");
}

// the header's column names: their number (0 when unreadable); names[i] point into line
static int header(const char* path, char* line, size_t cap, char** names, int max) {
    FILE* f = fopen(path, "r");
    if (!f) return 0;
    int n = 0;
    if (fgets(line, (int)cap, f)) {
        line[strcspn(line, "\r\n")] = 0;
        for (char* tok = strtok(line, ","); tok && n < max; tok = strtok(NULL, ","))
            names[n++] = tok;
    }
    fclose(f);
    return n;
}

// 1 when the CSV has a row after its header
static int has_rows(const char* path) {
    FILE* f = fopen(path, "r");
    if (!f) return 0;
    int lines = 0, c, last = '\n';
    while ((c = fgetc(f)) != EOF && lines < 2) {
        if (c == '\n') lines++;
        last = c;
    }
    fclose(f);
    return lines >= 2 || (lines == 1 && last != '\n');
}

static int find(char** names, int n, const char* name) {
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name)) return i + 1; // gnuplot counts columns from 1
    return 0;
}

// a path as a gnuplot string (single quotes; a quote in the path is refused)
static int quoted(char* out, size_t cap, const char* path) {
    if (strchr(path, '\'') || strlen(path) + 3 > cap) return 1;
    snprintf(out, cap, "'%s'", path);
    return 0;
}

int cli_plot_files(const char* run, const char* contacts, const char* outdir) {
    static char line[1 << 16];
    char* names[4096];
    int n = header(run, line, sizeof line, names, 4096);
    int ct = find(names, n, "t"), ke = find(names, n, "kinetic_energy"),
        pe = find(names, n, "potential_energy"), nc = find(names, n, "contacts"),
        lr = find(names, n, "loop_error_rms"), lw = find(names, n, "loop_error_worst");
    if (!ct || !ke || !pe) {
        fprintf(stderr,
                "sinew plot: %s is not a CSV of `sinew run --record` (no t, "
                "kinetic_energy, potential_energy columns)\n",
                run);
        return 1;
    }
    int q0 = 0, nq = 0;
    for (int i = 0; i < n; i++)
        if (names[i][0] == 'q' && names[i][1] >= '0' && names[i][1] <= '9') {
            if (!q0) q0 = i + 1;
            nq++;
        }
    char dir[4096];
    if (outdir) {
        snprintf(dir, sizeof dir, "%s", outdir);
    } else {
        snprintf(dir, sizeof dir, "%s", run);
        char* slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
    }
    char qrun[4200], qcon[4200], qdir[4200];
    if (quoted(qrun, sizeof qrun, run) || quoted(qdir, sizeof qdir, dir) ||
        (contacts && quoted(qcon, sizeof qcon, contacts))) {
        fprintf(stderr, "sinew plot: a path with a quote in it is not supported\n");
        return 1;
    }
    if (system("gnuplot --version > /dev/null 2>&1") != 0) {
        fprintf(stderr, "sinew plot: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        return 1;
    }
    FILE* g = popen("gnuplot", "w");
    if (!g) {
        fprintf(stderr, "sinew plot: cannot start gnuplot\n");
        return 1;
    }
    fprintf(g, "set datafile separator ','\nset terminal pngcairo size 1000,600 noenhanced\n"
               "set grid\nset key outside right\nset xlabel 't (s)'\n");
    fprintf(g, "set output %.*s/energy.png'\nset title 'energy'\nset ylabel 'J'\n",
            (int)strlen(qdir) - 1, qdir);
    fprintf(g,
            "plot %s using %d:%d skip 1 with lines title 'kinetic', '' using %d:%d skip 1 with "
            "lines title 'potential', '' using %d:($%d+$%d) skip 1 with lines title 'total'\n",
            qrun, ct, ke, ct, pe, ct, ke, pe);
    fprintf(g,
            "set output %.*s/joints.png'\nset title 'generalized coordinates'\nset ylabel "
            "'q (m, rad)'\n",
            (int)strlen(qdir) - 1, qdir);
    int shown = nq < 24 ? nq : 24; // a legend beyond that is unreadable
    fprintf(g, "plot");
    for (int i = 0; i < shown; i++)
        fprintf(g, "%s %s using %d:%d skip 1 with lines title '%s'", i ? "," : "", i ? "''" : qrun,
                ct, q0 + i, names[q0 + i - 1]);
    fprintf(g, "\n");
    if (nc) {
        fprintf(g, "set output %.*s/contacts.png'\nset title 'contacts'\n", (int)strlen(qdir) - 1,
                qdir);
        if (contacts && has_rows(contacts)) {
            // the normal force: each step's impulses along the normals summed, over the step
            fprintf(g, "set ylabel 'count'\nset y2label 'N'\nset y2tics\nset ytics nomirror\n");
            fprintf(g,
                    "stats %s using %d skip 1 nooutput\ndt = (STATS_max - STATS_min) / "
                    "(STATS_records - 1)\n",
                    qrun, ct);
            fprintf(g,
                    "plot %s using %d:%d skip 1 with steps title 'contacts', %s using "
                    "1:(($6*$10+$7*$11+$8*$12)/dt) skip 1 smooth frequency with lines axes x1y2 "
                    "title 'normal force'\n",
                    qrun, ct, nc, qcon);
            fprintf(g, "unset y2tics\nunset y2label\nset ytics mirror\n");
        } else {
            fprintf(g,
                    "set ylabel 'count'\nplot %s using %d:%d skip 1 with steps title "
                    "'contacts'\n",
                    qrun, ct, nc);
        }
    }
    if (lr && lw) {
        fprintf(g,
                "set output %.*s/loop_error.png'\nset title 'loop closure error'\nset ylabel "
                "'m'\nset logscale y\n",
                (int)strlen(qdir) - 1, qdir);
        fprintf(g,
                "plot %s using %d:%d skip 1 with lines title 'rms', '' using %d:%d skip 1 with "
                "lines title 'worst'\nunset logscale y\n",
                qrun, ct, lr, ct, lw);
    }
    int rc = pclose(g);
    if (rc != 0) {
        fprintf(stderr, "sinew plot: gnuplot failed (exit %d)\n", rc);
        return 1;
    }
    printf("plots            %s/energy.png, joints.png%s%s\n", dir, nc ? ", contacts.png" : "",
           lr && lw ? ", loop_error.png" : "");
    return 0;
}

int cli_plot(int argc, char** argv) {
    const char *run = NULL, *contacts = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        const char* s = argv[i];
        if ((!strcmp(s, "--contacts") || !strcmp(s, "--out")) && i + 1 < argc) {
            *(s[2] == 'c' ? &contacts : &out) = argv[++i];
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            plot_usage();
            return 0;
        } else if (s[0] == '-' || run) {
            fprintf(stderr, "sinew plot: unexpected '%s'\n", s);
            plot_usage();
            return CLI_USAGE;
        } else {
            run = s;
        }
    }
    if (!run) {
        plot_usage();
        return CLI_USAGE;
    }
    if (access(run, R_OK) != 0 || (contacts && access(contacts, R_OK) != 0)) {
        fprintf(stderr, "sinew plot: cannot read '%s'\n", access(run, R_OK) != 0 ? run : contacts);
        return 1;
    }
    return cli_plot_files(run, contacts, out);
}
