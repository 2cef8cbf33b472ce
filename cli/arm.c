// SPDX-License-Identifier: Apache-2.0
// arm.c: `sinew arm MODEL`: the dynamic arm component of seed 002 (sn_arm.h, docs/arm.md) made
// from a serial chain's model (sn_arm_from_model), stepped with constant joint torques, spin
// momenta and carried payloads, its states recorded (the columns of `sinew run --record` first,
// then the arm's own), a summary printed and an HTML replay of the arm written.
#include "cli.h"
#include "sinew/sn_arm.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// the most --spin and --payload options
#define ARM_MAX_LOADS 256

static void arm_usage(FILE* f) {
    fprintf(
        f,
        "usage: sinew arm MODEL [--dt S] [--duration S] [--q0 \"...\"] [--u0 \"...\"]\n"
        "                 [--torques \"u1 .. un\"] [--spin K:HX,HY,HZ]... [--payload K:M[:T]]...\n"
        "                 [--gravity \"gx gy gz\"] [--damping \"...\"] [--friction \"...\"]\n"
        "                 [--sweeps N] [--record FILE.csv] [--html FILE.html] [--no-html]\n"
        "                 [--quiet]\n");
    fprintf(
        f,
        "  MODEL       a URDF, MJCF or USD (.usda) file of a fixed-base serial chain of\n"
        "              revolute, continuous or prismatic joints (fixed joints merged; no loops,\n"
        "              mimic joints or tendons): the arm component of seed 002 (docs/arm.md), n\n"
        "              joints, frame k the child link of the k-th movable joint (k = 1..n);\n"
        "              its damping, friction and stops are the file's\n"
        "  --dt        time step in seconds (default 0.001, at most 1)\n"
        "  --duration  simulated time in seconds (default 5)\n"
        "  --q0, --u0  initial joint positions (n; within the stops) and velocities (n)\n"
        "  --torques   constant joint torques u (n numbers; N m, N for a prismatic joint)\n"
        "  --spin      spin angular momentum H_k carried by link K (1..n), in frame K's axes\n"
        "              (N m s): a rotor or reaction wheel (repeatable; on one link they add)\n"
        "  --payload   a point mass of M kg carried by link K (1..n) at frame K's origin;\n"
        "              with T it is released at T s (the step that reaches T starts with it\n"
        "              and ends without it: C0 = payload, C1 = 0), else carried throughout\n"
        "              (repeatable; on one link they add)\n"
        "  --gravity   gravity vector, world axes (default 0 0 -9.81)\n"
        "  --damping   the joints' viscous damping D (n numbers, or one for all; default\n"
        "              the file's)\n"
        "  --friction  the joints' Coulomb friction mu (n numbers, or one for all; default\n"
        "              the file's)\n"
        "  --sweeps    the projected Gauss-Seidel's sweeps (1 .. 100000, default 20)\n"
        "  --record    write t, q0.., u0.. (the columns of `sinew run --record`), then\n"
        "              kinetic_energy (J, with the payloads carried at t), then per frame\n"
        "              k = 1..n its world position pk_x, pk_y, pk_z (m) and angular velocity\n"
        "              omegak_x, omegak_y, omegak_z (rad/s, world axes); one row per step\n"
        "              after the initial state\n"
        "  --html      the replay's file (default: the model's name with .html, in the\n"
        "              current directory): open it in a browser\n"
        "  --no-html   no replay\n"
        "  --quiet     no progress bar\n");
}

typedef struct arm_args {
    const char* path;
    const char *q0, *u0, *gravity, *record, *html, *torques, *damping, *friction;
    double dt, duration;
    int sweeps; // 0: not given
    int quiet, no_html;
    int nspin, npayload;
    const char* spin[ARM_MAX_LOADS];    // K:HX,HY,HZ, parsed once n is known
    const char* payload[ARM_MAX_LOADS]; // K:M[:T]
} arm_args;

// a whole number lo..hi; 1 when text is not one
static int parse_int(const char* text, long lo, long hi, long* out) {
    char* end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno == ERANGE || v < lo || v > hi) return 1;
    *out = v;
    return 0;
}

// one option's value (argv[i + 1]); NULL with a message when it is missing
static const char* option_value(int argc, char** argv, int i) {
    if (i + 1 < argc) return argv[i + 1];
    fprintf(stderr, "sinew arm: %s needs a value\n", argv[i]);
    return NULL;
}

// a repeatable option's value kept in list; 1 when missing or too many
static int push_load(const char* v, const char* name, const char** list, int* n) {
    if (!v) return 1;
    if (*n >= ARM_MAX_LOADS) {
        fprintf(stderr, "sinew arm: more than %d %s options\n", ARM_MAX_LOADS, name);
        return 1;
    }
    list[(*n)++] = v;
    return 0;
}

// --dt or --duration: one positive number (--dt at most 1, the arm's bound)
static int parse_time(const char* v, const char* name, double* out) {
    if (!v) return 1;
    int is_dt = !strcmp(name, "--dt");
    if (cli_parse_vector(v, out, 1) != 1 || !(*out > 0) || (is_dt && *out > 1)) {
        fprintf(stderr, "sinew arm: %s '%s': needs one positive number%s\n", name, v,
                is_dt ? " (at most 1 s)" : "");
        return 1;
    }
    return 0;
}

// returns 0, CLI_USAGE on a bad option, or -1 for --help
static int parse_args(int argc, char** argv, arm_args* a) {
    memset(a, 0, sizeof *a);
    a->dt = 0.001;
    a->duration = 5;
    for (int i = 0; i < argc; i++) {
        const char* s = argv[i];
        const char** str = !strcmp(s, "--q0")         ? &a->q0
                           : !strcmp(s, "--u0")       ? &a->u0
                           : !strcmp(s, "--gravity")  ? &a->gravity
                           : !strcmp(s, "--record")   ? &a->record
                           : !strcmp(s, "--html")     ? &a->html
                           : !strcmp(s, "--torques")  ? &a->torques
                           : !strcmp(s, "--damping")  ? &a->damping
                           : !strcmp(s, "--friction") ? &a->friction
                                                      : NULL;
        int bad = 0;
        if (str) {
            bad = !(*str = option_value(argc, argv, i));
            i++;
        } else if (!strcmp(s, "--dt") || !strcmp(s, "--duration")) {
            bad = parse_time(option_value(argc, argv, i), s,
                             !strcmp(s, "--dt") ? &a->dt : &a->duration);
            i++;
        } else if (!strcmp(s, "--spin")) {
            bad = push_load(option_value(argc, argv, i), s, a->spin, &a->nspin);
            i++;
        } else if (!strcmp(s, "--payload")) {
            bad = push_load(option_value(argc, argv, i), s, a->payload, &a->npayload);
            i++;
        } else if (!strcmp(s, "--sweeps")) {
            const char* v = option_value(argc, argv, i++);
            long n = 0;
            bad = !v || parse_int(v, 1, 100000, &n);
            if (v && bad) fprintf(stderr, "sinew arm: --sweeps '%s': needs 1 .. 100000\n", v);
            a->sweeps = (int)n;
        } else if (!strcmp(s, "--no-html")) {
            a->no_html = 1;
        } else if (!strcmp(s, "--quiet")) {
            a->quiet = 1;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            return -1;
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "sinew arm: unknown option '%s'\n", s);
            bad = 1;
        } else if (!a->path) {
            a->path = s;
        } else {
            fprintf(stderr, "sinew arm: more than one model given ('%s', '%s')\n", a->path, s);
            bad = 1;
        }
        if (bad) return CLI_USAGE;
    }
    if (!a->path) {
        fprintf(stderr, "sinew arm: no model given\n");
        return CLI_USAGE;
    }
    return 0;
}


// ---- the loads: spin momenta and payloads ----

typedef struct arm_loads {
    int n;
    double* torques;                      // u (n)
    double* momentum;                     // H (n x 3), frame k's axes
    int has_spin;                         // some --spin
    int npayload;                         // --payload options
    int* payload_link;                    // k - 1 of each payload (npayload)
    double *payload_mass, *payload_until; // kg; released at (s; INFINITY: never)
    double *C0, *C1; // the step's carried inertia at its start and end (n x 10)
} arm_loads;

static void loads_free(arm_loads* l) {
    free(l->torques), free(l->momentum), free(l->payload_link), free(l->payload_mass);
    free(l->payload_until), free(l->C0), free(l->C1);
    memset(l, 0, sizeof *l);
}

// K of "K:..."; the rest after the colon in *rest; 1 when malformed, 2 (with a message) when K
// is not a link 1..n
static int parse_link(const char* text, const char* option, int n, int* k, const char** rest) {
    char* end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != ':' || errno == ERANGE) return 1;
    if (v < 1 || v > n) {
        fprintf(stderr, "sinew arm: %s '%s': link %ld is out of range: the arm's links are 1..%d\n",
                option, text, v, n);
        return 2;
    }
    *k = (int)v;
    *rest = end + 1;
    return 0;
}

// --spin K:HX,HY,HZ added to H
static int parse_spin(const char* text, arm_loads* l) {
    int k = 0;
    const char* rest = NULL;
    double h[3];
    int bad = parse_link(text, "--spin", l->n, &k, &rest);
    if (bad == 2) return CLI_USAGE;
    if (bad || cli_parse_vector(rest, h, 3) != 3) {
        fprintf(stderr,
                "sinew arm: --spin '%s': needs K:HX,HY,HZ (a link K = 1..%d, then three finite "
                "numbers, N m s in frame K's axes)\n",
                text, l->n);
        return CLI_USAGE;
    }
    for (int e = 0; e < 3; e++)
        l->momentum[3 * (k - 1) + e] += h[e];
    l->has_spin = 1;
    return 0;
}

// one finite number >= lo (strictly above when `strict`) up to the next ':' or the end
static int parse_field(const char* s, double lo, int strict, double* out, const char** next) {
    char* end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v < lo || (strict && v == lo)) return 1;
    if (*end && *end != ':') return 1;
    *out = v;
    *next = *end ? end + 1 : NULL;
    return 0;
}

// --payload K:M[:T]
static int parse_payload(const char* text, arm_loads* l) {
    int k = 0, i = l->npayload;
    const char *rest = NULL, *next = NULL;
    double mass = 0, until = (double)INFINITY;
    int bad = parse_link(text, "--payload", l->n, &k, &rest);
    if (bad == 2) return CLI_USAGE;
    if (!bad) bad = parse_field(rest, 0, 0, &mass, &next);
    if (!bad && next) bad = parse_field(next, 0, 1, &until, &next) || next;
    if (bad) {
        fprintf(stderr,
                "sinew arm: --payload '%s': needs K:M or K:M:T (a link K = 1..%d, a mass M >= 0 "
                "kg at frame K's origin, a release time T > 0 s)\n",
                text, l->n);
        return CLI_USAGE;
    }
    l->payload_link[i] = k - 1;
    l->payload_mass[i] = mass;
    l->payload_until[i] = until;
    l->npayload++;
    return 0;
}

static int loads_init(arm_loads* l, const arm_args* a, int n) {
    memset(l, 0, sizeof *l);
    l->n = n;
    size_t nn = (size_t)n, np = (size_t)a->npayload + 1;
    l->torques = calloc(nn, sizeof(double));
    l->momentum = calloc(3 * nn, sizeof(double));
    l->payload_link = calloc(np, sizeof(int));
    l->payload_mass = calloc(np, sizeof(double));
    l->payload_until = calloc(np, sizeof(double));
    l->C0 = calloc(10 * nn, sizeof(double));
    l->C1 = calloc(10 * nn, sizeof(double));
    if (!l->torques || !l->momentum || !l->payload_link || !l->payload_mass || !l->payload_until ||
        !l->C0 || !l->C1) {
        fprintf(stderr, "sinew arm: out of memory\n");
        return 1;
    }
    for (int i = 0; i < a->nspin; i++)
        if (parse_spin(a->spin[i], l)) return CLI_USAGE;
    for (int i = 0; i < a->npayload; i++)
        if (parse_payload(a->payload[i], l)) return CLI_USAGE;
    if (a->torques) {
        int got = cli_parse_vector(a->torques, l->torques, n);
        if (got != n) {
            fprintf(stderr, "sinew arm: --torques '%s': needs %d finite numbers (one a joint)\n",
                    a->torques, n);
            return CLI_USAGE;
        }
    }
    return 0;
}

// the payloads carried at time s (released at T: carried before it) into C (n x 10); step: dt
static void carried(const arm_loads* l, double s, double dt, double* C) {
    memset(C, 0, 10 * (size_t)l->n * sizeof(double));
    for (int i = 0; i < l->npayload; i++)
        if (s < l->payload_until[i] - 1e-9 * dt) C[10 * l->payload_link[i]] += l->payload_mass[i];
}


// ---- the arm's parameters and start ----

// a vector option of n entries (one number: all of them); 1 with a message when bad
static int vector_option(const char* text, const char* name, double* out, int n, int broadcast) {
    double* buf = calloc((size_t)n + 1, sizeof(double));
    int got = buf ? cli_parse_vector(text, buf, n + 1) : -1, rc = 0;
    if (got == n) {
        memcpy(out, buf, (size_t)n * sizeof(double));
    } else if (broadcast && got == 1) {
        for (int i = 0; i < n; i++)
            out[i] = buf[0];
    } else {
        fprintf(stderr, "sinew arm: %s '%s': needs %d finite numbers%s\n", name, text, n,
                broadcast ? " (or one for all)" : "");
        rc = 1;
    }
    free(buf);
    return rc;
}

// a setter's refusal as a message naming the option
static int refused(sn_status st, const sn_arm* arm, const char* option) {
    if (st == SN_OK) return 0;
    fprintf(stderr, "sinew arm: %s: %s (%s)\n", option, sn_arm_last_error(arm), sn_status_str(st));
    return 1;
}

// --gravity, --sweeps, --damping, --friction, --q0, --u0
static int configure(sn_arm* arm, const arm_args* a) {
    int n = sn_arm_joint_count(arm), rc = 0;
    double* v = calloc((size_t)n, sizeof(double));
    double* w = calloc((size_t)n, sizeof(double));
    double g[3];
    if (!v || !w) rc = 1;
    if (!rc && a->gravity) {
        rc = vector_option(a->gravity, "--gravity", g, 3, 0);
        if (!rc) rc = refused(sn_arm_set_gravity(arm, g), arm, "--gravity");
    }
    if (!rc && a->sweeps) rc = refused(sn_arm_set_sweeps(arm, a->sweeps), arm, "--sweeps");
    if (!rc && a->damping) {
        rc = vector_option(a->damping, "--damping", v, n, 1);
        if (!rc) rc = refused(sn_arm_set_damping(arm, v, n), arm, "--damping");
    }
    if (!rc && a->friction) {
        rc = vector_option(a->friction, "--friction", v, n, 1);
        if (!rc) rc = refused(sn_arm_set_friction(arm, v, n), arm, "--friction");
    }
    if (!rc && (a->q0 || a->u0)) {
        if (a->q0) rc = vector_option(a->q0, "--q0", v, n, 0);
        if (!rc && a->u0) rc = vector_option(a->u0, "--u0", w, n, 0);
        if (!rc)
            rc = refused(sn_arm_set_state(arm, a->q0 ? v : NULL, n, a->u0 ? w : NULL, n), arm,
                         a->q0 && a->u0 ? "--q0/--u0"
                         : a->q0        ? "--q0"
                                        : "--u0");
    }
    free(v);
    free(w);
    return rc ? CLI_USAGE : 0;
}


// ---- the record ----

static void record_header(FILE* f, int n) {
    cli_record_state_header(f, n, n);
    fprintf(f, ",kinetic_energy");
    for (int k = 1; k <= n; k++)
        fprintf(f, ",p%d_x,p%d_y,p%d_z,omega%d_x,omega%d_y,omega%d_z", k, k, k, k, k, k);
    fputc('\n', f);
}

static void record_row(FILE* f, const sn_arm* arm, double t, double ke) {
    int n = sn_arm_joint_count(arm);
    const double *p = sn_arm_frame_pos(arm), *w = sn_arm_frame_omega(arm);
    cli_record_state_values(f, t, sn_arm_q(arm), n, sn_arm_qd(arm), n);
    fprintf(f, ",%.17g", ke);
    for (int k = 0; k < n; k++)
        fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", p[3 * k], p[3 * k + 1], p[3 * k + 2],
                w[3 * k], w[3 * k + 1], w[3 * k + 2]);
    fputc('\n', f);
}


// ---- the summary ----

// joint k's name (its model joint's), for the summary
static const char* joint_name(const sn_model* m, int k) {
    for (int j = 0; j < m->njoint; j++)
        if (m->joint_vadr[j] == k) {
            const char* s = sn_model_name(m, SN_OBJ_JOINT, j);
            return s ? s : "?";
        }
    return "?";
}

static void print_vector(const char* label, const double* x, int n) {
    printf("%-16s", label);
    for (int i = 0; i < n; i++)
        printf(" %.9g", x[i]);
    printf("\n");
}

// the joints exactly at a stop
static void print_stops(const sn_arm* arm) {
    int n = sn_arm_joint_count(arm), any = 0;
    const sn_model* m = sn_arm_model(arm);
    const double* q = sn_arm_q(arm);
    double* lo = calloc(2 * (size_t)n, sizeof(double));
    if (!lo) return;
    double* hi = lo + n;
    sn_arm_params(arm, NULL, NULL, lo, hi, NULL);
    printf("at a stop       ");
    for (int i = 0; i < n; i++) {
        if (q[i] != lo[i] && q[i] != hi[i]) continue;
        printf("%s %s (%s %.9g)", any ? "," : "", joint_name(m, i),
               q[i] == hi[i] ? "upper" : "lower", q[i]);
        any = 1;
    }
    printf("%s\n", any ? "" : " none");
    free(lo);
}

static void print_payloads(const arm_loads* l) {
    for (int i = 0; i < l->npayload; i++) {
        printf("payload          %.6g kg on link %d", l->payload_mass[i], l->payload_link[i] + 1);
        if (isfinite(l->payload_until[i]))
            printf(", released at t = %.6g s\n", l->payload_until[i]);
        else
            printf(", carried throughout\n");
    }
}

typedef struct arm_run {
    long steps;
    double wall, sim, ke0, ke1;
} arm_run;

static void summary(const arm_args* a, const sn_arm* arm, const arm_loads* l, const arm_run* r) {
    int n = sn_arm_joint_count(arm), sweeps = 0;
    double g[3];
    sn_arm_gravity(arm, g);
    sn_arm_params(arm, NULL, NULL, NULL, NULL, &sweeps);
    printf("model            %s (arm of %d joints)\n", a->path, n);
    printf("simulated time   %.6g s in %ld steps of %.6g s (arm component, %d sweeps, gravity "
           "%g %g %g)\n",
           r->sim, r->steps, a->dt, sweeps, g[0], g[1], g[2]);
    printf("wall time        %.6g s\n", r->wall);
    printf("real-time factor %.4g\n", r->wall > 0 ? r->sim / r->wall : (double)INFINITY);
    printf("kinetic energy   %.9g J -> %.9g J\n", r->ke0, r->ke1);
    print_vector("final q", sn_arm_q(arm), n);
    print_vector("final u", sn_arm_qd(arm), n);
    print_stops(arm);
    if (l->has_spin) {
        printf("spin momenta    ");
        for (int k = 0; k < n; k++) {
            const double* h = l->momentum + 3 * k;
            if (h[0] != 0 || h[1] != 0 || h[2] != 0)
                printf(" link %d (%g, %g, %g) N m s", k + 1, h[0], h[1], h[2]);
        }
        printf("\n");
    }
    print_payloads(l);
}


// ---- the run ----

// the replay's file and title from the model's name; 1 when it is not written
static int write_replay(const arm_args* a, const cli_replay* rep, const arm_run* r) {
    char path[4096], title[512], text[1024];
    const char* base = strrchr(a->path, '/');
    base = base ? base + 1 : a->path;
    snprintf(title, sizeof title, "%s", base);
    char* dot = strrchr(title, '.');
    if (dot && dot != title) *dot = 0;
    if (a->html)
        snprintf(path, sizeof path, "%s", a->html);
    else
        snprintf(path, sizeof path, "%s.html", title);
    snprintf(text, sizeof text,
             "%s as the arm component: %.3g s simulated in %ld steps of %g s, real-time factor "
             "%.3g",
             title, r->sim, r->steps, a->dt, r->wall > 0 ? r->sim / r->wall : 0.0);
    if (cli_replay_write(rep, path, title, text) != 0) return 1;
    printf("replay           %s (open it in a browser)\n", path);
    return 0;
}

// the steps, each row recorded and each frame of the replay; 1 when a step failed
static int step_all(const arm_args* a, sn_arm* arm, arm_loads* l, FILE* rec, cli_replay* rep,
                    arm_run* r) {
    long steps = (long)floor(a->duration / a->dt + 0.5);
    int bar = !a->quiet && isatty(2), rc = 0;
    sn_arm_inputs in = {l->torques, NULL, l->has_spin ? l->momentum : NULL,
                        l->npayload ? l->C0 : NULL, l->npayload ? l->C1 : NULL};
    double t0 = cli_now_seconds();
    for (r->steps = 0; r->steps < steps; r->steps++) {
        double t = (double)r->steps * a->dt, t1 = (double)(r->steps + 1) * a->dt;
        carried(l, t, a->dt, l->C0);
        carried(l, t1, a->dt, l->C1);
        sn_status st = sn_arm_step(arm, a->dt, &in);
        if (st != SN_OK) {
            fprintf(stderr, "%ssinew arm: the step from t = %.9g s failed: %s (%s)\n",
                    bar ? "\n" : "", t, sn_arm_last_error(arm), sn_status_str(st));
            rc = 1;
            break;
        }
        r->sim = t1;
        if (rec) record_row(rec, arm, t1, sn_arm_kinetic_energy(arm, l->C1));
        if (rep) cli_replay_frame_q(rep, sn_arm_q(arm), t1);
        if (bar && (r->steps % 256 == 0 || r->steps + 1 == steps))
            cli_progress((double)(r->steps + 1) / (double)steps);
    }
    r->wall = cli_now_seconds() - t0;
    if (bar) fputc('\n', stderr);
    carried(l, r->sim, a->dt, l->C1);
    r->ke1 = sn_arm_kinetic_energy(arm, l->C1);
    return rc;
}

// the arm made from the model, configured, stepped, summarized; the run's status
static int run_arm(const arm_args* a, const sn_model* m) {
    sn_arm* arm = NULL;
    sn_error err;
    sn_status st = sn_arm_from_model(m, NULL, NULL, &arm, &err);
    if (st != SN_OK) {
        fprintf(stderr, "sinew arm: %s: %s (%s)\n", a->path, err.msg, sn_status_str(st));
        return 1;
    }
    int n = sn_arm_joint_count(arm);
    arm_loads l;
    int rc = loads_init(&l, a, n);
    if (!rc) rc = configure(arm, a);
    FILE* rec = NULL;
    if (!rc && a->record && !(rec = fopen(a->record, "w"))) {
        fprintf(stderr, "sinew arm: --record: cannot write '%s'\n", a->record);
        rc = 1;
    }
    cli_replay* rep = NULL;
    arm_run r = {0, 0, 0, 0, 0};
    int ran = !rc;
    if (ran) {
        carried(&l, 0, a->dt, l.C0);
        r.ke0 = sn_arm_kinetic_energy(arm, l.C0);
        if (rec) record_header(rec, n), record_row(rec, arm, 0, r.ke0);
        if (!a->no_html) rep = cli_replay_begin(m, 0, 1.0 / 60);
        if (rep) cli_replay_frame_q(rep, sn_arm_q(arm), 0);
        rc = step_all(a, arm, &l, rec, rep, &r);
        summary(a, arm, &l, &r);
    }
    int rec_bad = rec && ferror(rec);
    if (rec && (fclose(rec) != 0 || rec_bad)) {
        fprintf(stderr, "sinew arm: --record: cannot write '%s'\n", a->record);
        rc = 1;
    } else if (rec) {
        printf("recorded         %s (%ld rows after the header)\n", a->record, r.steps + 1);
    }
    // the replay also of a run a failed step ended (up to that step)
    if (ran && !a->no_html && write_replay(a, rep, &r)) rc = 1;
    cli_replay_free(rep);
    loads_free(&l);
    sn_arm_destroy(arm);
    return rc;
}

int cli_arm(int argc, char** argv) {
    arm_args* a = calloc(1, sizeof *a);
    if (!a) return 1;
    int rc = parse_args(argc, argv, a);
    if (rc < 0) {
        arm_usage(stdout);
        free(a);
        return 0;
    }
    if (rc) {
        fprintf(stderr, "(sinew arm --help lists the options)\n");
        free(a);
        return rc;
    }
    sn_model* m = cli_load(a->path, a->quiet);
    rc = m ? run_arm(a, m) : 1;
    sn_model_destroy(m);
    free(a);
    return rc;
}
