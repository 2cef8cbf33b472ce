// SPDX-License-Identifier: Apache-2.0
// figures.c: sinew_expo's error, stability and figures commands (figures.h, experiments.h).
#define _POSIX_C_SOURCE 200809L
#include "figures.h"

#include "experiments.h"
#include "sinew/sn_soft.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// the methods of the paper's figures (A.14's final script): Expo with 0, 2, 4 products and
// standard, explicit Euler, RK4, implicit Euler; and sinew's Expo with contact events
#define PAPER_METHODS                                                                              \
    ((1u << EXPO_M_EXPO0) | (1u << EXPO_M_EXPO2) | (1u << EXPO_M_EXPO4) | (1u << EXPO_M_EXPO) |    \
     (1u << EXPO_M_EULER) | (1u << EXPO_M_RK4) | (1u << EXPO_M_IMPLICIT_EULER) |                   \
     (1u << EXPO_M_EXPO_EV))

typedef struct run_opts {
    const char* scen;
    unsigned methods;  // bit m: method m
    double seconds;    // horizon; <= 0: the scenario's length
    double k;          // stiffness (normal and tangential); <= 0: the paper's 1e5
    double zeta;       // damping ratio B / (2 sqrt(K m / npoint)); < 0: the paper's B = 300
    double dt;         // control step; <= 0: the scenario's
    int i_cap;         // the largest log2(n_dt) tried, below A.14's (-1: A.14's)
    int repeat;        // passes timed per point (the median taken; errors from the first)
    const char* label; // the CSV's "case" column
} run_opts;

static void opts_init(run_opts* o, const char* scen) {
    memset(o, 0, sizeof *o);
    o->scen = scen;
    o->methods = PAPER_METHODS;
    o->zeta = -1;
    o->i_cap = -1;
    o->label = "paper";
    o->repeat = 1;
}

// open the scenario with the options' soft parameters
static int sim_open(expo_sim* x, const run_opts* o, const char* shared) {
    char err[EXPO_ERR_LEN];
    if (expo_sim_open(x, o->scen, shared, NULL, o->dt, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    sn_soft_params p = x->prm;
    if (o->k > 0) p.k_normal = p.k_tangent = o->k;
    if (o->zeta >= 0) {
        double b = 2 * o->zeta * sqrt(p.k_normal * x->mass / x->sc.npoint);
        p.b_normal = p.b_tangent = b;
    }
    if (sn_world_set_soft_params(x->w, &p) != SN_OK) {
        fprintf(stderr, "%s: %s\n", o->scen, sn_world_last_error(x->w));
        expo_sim_close(x);
        return -1;
    }
    x->prm = p;
    return 0;
}

static double zeta_of(const expo_sim* x) {
    return x->prm.b_normal / (2 * sqrt(x->prm.k_normal * x->mass / x->sc.npoint));
}

static int nsteps_of(const expo_sim* x, double seconds) {
    double T = seconds > 0 ? fmin(seconds, x->sc.duration) : x->sc.duration;
    int n = (int)floor(T / x->dt + 1e-9);
    return n < 1 ? 1 : n;
}

// the points of one scenario's error run, kept for the summary (figures)
#define MAX_POINTS 128
typedef struct err_point {
    int method, n, nfail;
    double h, err, rtf;
} err_point;
typedef struct err_record {
    int n;
    err_point p[MAX_POINTS];
} err_record;

#define ERR_HEADER                                                                                 \
    "case,scenario,method,K,B,zeta,dt_c,n_dt,h,err_inf,err_2,t_substep_us,rtf,steps,failed_steps," \
    "gt_n,gt_steps,gt_failed,gt_seconds\n"

// expo_local_error `repeat` times: the errors of the first pass (every pass gives the same, bit
// for bit), the median of the passes' sub-step times
static int local_error(expo_sim* x, const expo_truth* gt, expo_method m, int n, int repeat,
                       expo_local* out) {
    double t[9];
    if (repeat < 1) repeat = 1;
    if (repeat > 9) repeat = 9;
    for (int r = 0; r < repeat; r++) {
        expo_local e;
        if (expo_local_error(x, gt, m, n, r ? &e : out) != 0) return -1;
        if (r && (e.err_inf != out->err_inf || e.nfail != out->nfail)) {
            snprintf(x->err, EXPO_ERR_LEN, "%s x %d: a repeated pass gave another error",
                     expo_method_name(m), n);
            return -1;
        }
        t[r] = r ? e.t_substep : out->t_substep;
    }
    for (int i = 1; i < repeat; i++) // insertion sort of at most 9
        for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
            double tmp = t[j];
            t[j] = t[j - 1];
            t[j - 1] = tmp;
        }
    out->t_substep = repeat % 2 ? t[repeat / 2] : 0.5 * (t[repeat / 2 - 1] + t[repeat / 2]);
    out->rtf = x->dt / (n * out->t_substep);
    return 0;
}

// the local errors of the methods of o, each against its own ground truth; rows to csv
static int run_error(const run_opts* o, const char* shared, FILE* csv, err_record* rec) {
    expo_sim x;
    if (sim_open(&x, o, shared) != 0) return 1;
    int nsteps = nsteps_of(&x, o->seconds);
    printf("%s: dt_c %.3f s, %d steps (%.3f s), K %.3g, B %.4g (zeta %.3f), %d points, %.4f kg\n",
           o->scen, x.dt, nsteps, nsteps * x.dt, x.prm.k_normal, x.prm.b_normal, zeta_of(&x),
           x.sc.npoint, x.mass);
    printf("  %-15s %6s %10s %10s %10s %10s %10s %5s\n", "method", "n_dt", "h (s)", "err_inf",
           "err_2", "t_sub (us)", "rtf", "fail");
    int rc = 0;
    for (int fam = 0; fam < EXPO_M_COUNT && rc == 0; fam++) {
        if ((int)expo_method_truth((expo_method)fam) != fam) continue;
        unsigned want = 0;
        for (int m = 0; m < EXPO_M_COUNT; m++)
            if ((o->methods >> m & 1u) && (int)expo_method_truth((expo_method)m) == fam)
                want |= 1u << m;
        if (!want) continue;
        expo_truth gt;
        if (expo_truth_run(&x, (expo_method)fam, nsteps, &gt) != 0) {
            fprintf(stderr, "%s: ground truth: %s\n", o->scen, x.err);
            rc = 1;
            break;
        }
        printf("  ground truth %s x %d: %d steps%s, %.1f s\n", expo_method_name(gt.method), gt.n,
               gt.nsteps, gt.failed ? " (FAILED there)" : "", gt.seconds);
        if (gt.failed) printf("    (%s)\n", x.err);
        for (int m = 0; m < EXPO_M_COUNT && rc == 0; m++) {
            if (!(want >> m & 1u)) continue;
            int imax = expo_i_max((expo_method)m, x.dt);
            if (o->i_cap >= 0 && imax > o->i_cap) imax = o->i_cap;
            for (int i = 0; i <= imax; i++) {
                expo_local e;
                int n = 1 << i;
                if (local_error(&x, &gt, (expo_method)m, n, o->repeat, &e) != 0) {
                    fprintf(stderr, "%s: %s\n", o->scen, x.err);
                    rc = 1;
                    break;
                }
                printf("  %-15s %6d %10.3e %10.3e %10.3e %10.3f %10.1f %5d\n",
                       expo_method_name((expo_method)m), n, x.dt / n, e.err_inf, e.err_2,
                       1e6 * e.t_substep, e.rtf, e.nfail);
                if (rec && rec->n < MAX_POINTS)
                    rec->p[rec->n++] = (err_point){m, n, e.nfail, x.dt / n, e.err_inf, e.rtf};
                if (csv)
                    fprintf(csv,
                            "%s,%s,%s,%.6g,%.6g,%.4f,%.6g,%d,%.6e,%.6e,%.6e,%.4f,%.6g,%d,%d,%d,%d,%"
                            "d,%.2f\n",
                            o->label, o->scen, expo_method_name((expo_method)m), x.prm.k_normal,
                            x.prm.b_normal, zeta_of(&x), x.dt, n, x.dt / n, e.err_inf, e.err_2,
                            1e6 * e.t_substep, e.rtf, e.nsteps, e.nfail, gt.n, gt.nsteps, gt.failed,
                            gt.seconds);
            }
        }
        if (csv) fflush(csv);
        expo_truth_free(&gt);
    }
    expo_sim_close(&x);
    return rc;
}

#define STAB_HEADER "scenario,method,K,B,dt_c,seconds,n_min,h_max,fail_t_at_half_n,fail_n_tried\n"

// the largest stable sub-step per method (A.14: n_dt = 2^i, i = 0..7; explicit Euler 0..9):
// the smallest n that stays bounded, scanning up from 1
static int run_stability(const run_opts* o, const char* shared, FILE* csv, FILE* md) {
    expo_sim x;
    if (sim_open(&x, o, shared) != 0) return 1;
    int nsteps = nsteps_of(&x, o->seconds);
    printf("%s: closed loop, dt_c %.3f s, %d steps (%.3f s), failure: a failed step, NaN or "
           "|u| > 1e5\n",
           o->scen, x.dt, nsteps, nsteps * x.dt);
    for (int m = 0; m < EXPO_M_COUNT; m++) {
        if (!(o->methods >> m & 1u)) continue;
        int imax = m == EXPO_M_EULER || m == EXPO_M_EULER_EV ? 9 : 7;
        int nmin = 0;
        double tfail = -1;
        double t0 = now();
        for (int i = 0; i <= imax; i++) {
            int k = expo_stability(&x, (expo_method)m, 1 << i, nsteps);
            if (k < 0) {
                fprintf(stderr, "%s: %s\n", o->scen, x.err);
                expo_sim_close(&x);
                return 1;
            }
            if (k == nsteps) {
                nmin = 1 << i;
                break;
            }
            tfail = (k + 1) * x.dt;
        }
        char hs[32];
        if (nmin)
            snprintf(hs, sizeof hs, "%.4g ms", 1e3 * x.dt / nmin);
        else
            snprintf(hs, sizeof hs, "none (n <= %d)", 1 << imax);
        printf("  %-15s largest stable h %-16s (n_dt %d)", expo_method_name((expo_method)m), hs,
               nmin);
        if (tfail >= 0)
            printf("; at n_dt %d it failed at t %.3f s", nmin ? nmin / 2 : 1 << imax, tfail);
        printf("  [%.1f s]\n", now() - t0);
        if (csv)
            fprintf(csv, "%s,%s,%.6g,%.6g,%.6g,%.4f,%d,%.6g,%.4f,%d\n", o->scen,
                    expo_method_name((expo_method)m), x.prm.k_normal, x.prm.b_normal, x.dt,
                    nsteps * x.dt, nmin, nmin ? x.dt / nmin : 0, tfail,
                    nmin ? nmin / 2 : 1 << imax);
        if (md)
            fprintf(md, "| %s | %g ms | %.2f s | %s | %s |\n", o->scen, 1e3 * x.dt, nsteps * x.dt,
                    expo_method_name((expo_method)m), hs);
    }
    if (csv) fflush(csv);
    expo_sim_close(&x);
    return 0;
}

// common options: --method M, --csv FILE, --seconds T, --k K, --zeta Z, --dt DT
static int parse(int argc, char** argv, run_opts* o, const char** csv) {
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "%s: name a scenario (trot, jump, squat, walk)\n", argv[0]);
        return 2;
    }
    opts_init(o, argv[1]);
    for (int i = 2; i < argc; i++) {
        const char* a = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s: needs a value (or unknown option)\n", argv[0], a);
            return 2;
        }
        const char* v = argv[++i];
        char* end = NULL;
        double d = strtod(v, &end);
        int num = end && end != v && *end == 0 && isfinite(d);
        if (strcmp(a, "--method") == 0) {
            o->methods = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                int m = expo_method_parse(tok);
                if (m < 0) {
                    fprintf(stderr,
                            "%s: unknown method '%s' (expo0 .. expo4, expo, euler, rk4, "
                            "implicit_euler, expo_ev, euler_ev)\n",
                            argv[0], tok);
                    return 2;
                }
                o->methods |= 1u << m;
            }
        } else if (strcmp(a, "--csv") == 0) {
            *csv = v;
        } else if (strcmp(a, "--seconds") == 0 && num && d > 0) {
            o->seconds = d;
        } else if (strcmp(a, "--k") == 0 && num && d > 0) {
            o->k = d;
        } else if (strcmp(a, "--zeta") == 0 && num && d >= 0) {
            o->zeta = d;
        } else if (strcmp(a, "--dt") == 0 && num && d > 0 && d <= 0.1) {
            o->dt = d;
        } else if (strcmp(a, "--repeat") == 0 && num && d >= 1 && d <= 9 && d == floor(d)) {
            o->repeat = (int)d;
        } else {
            fprintf(stderr, "%s: bad option or value: %s %s\n", argv[0], a, v);
            return 2;
        }
    }
    return 0;
}

static FILE* open_csv(const char* path, const char* header) {
    FILE* f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return NULL;
    }
    fputs(header, f);
    return f;
}

int expo_cmd_error(int argc, char** argv, const char* shared) {
    run_opts o;
    const char* csv = NULL;
    int rc = parse(argc, argv, &o, &csv);
    if (rc) return rc;
    FILE* f = csv ? open_csv(csv, ERR_HEADER) : NULL;
    if (csv && !f) return 1;
    rc = run_error(&o, shared, f, NULL);
    if (f) fclose(f);
    return rc;
}

int expo_cmd_stability(int argc, char** argv, const char* shared) {
    run_opts o;
    const char* csv = NULL;
    int rc = parse(argc, argv, &o, &csv);
    if (rc) return rc;
    FILE* f = csv ? open_csv(csv, STAB_HEADER) : NULL;
    if (csv && !f) return 1;
    rc = run_stability(&o, shared, f, NULL);
    if (f) fclose(f);
    return rc;
}

// ---- figures ----

static int have_gnuplot(void) {
    return system("command -v gnuplot > /dev/null 2>&1") == 0;
}

// a gnuplot panel per scenario: err_inf against column xcol (log-log), one line per method
static void plot_errors(FILE* g, const char* out, const char* png, const char* title,
                        const char* xlabel, int xcol, const char* const* scen,
                        const char* const* sub, int nscen) {
    fprintf(g, "set terminal png size 900,680 font ',8'\nset output '%s/%s'\n", out, png);
    fprintf(g, "set datafile separator ','\nset logscale xy\nset format x '10^{%%L}'\n"
               "set format y '10^{%%L}'\nset grid\nset key bottom right font ',8'\n");
    fprintf(g, "set multiplot layout 2,2 title '%s'\n", title);
    static const char* const meth[] = {"expo0", "expo2", "expo4",          "expo",
                                       "euler", "rk4",   "implicit_euler", "expo_ev"};
    for (int s = 0; s < nscen; s++) {
        fprintf(
            g, "set title 'solo-%s%s'\nset xlabel '%s'\nset ylabel 'mean local error (inf-norm)'\n",
            scen[s], sub[s], xlabel);
        if (strcmp(scen[s], "walk") == 0) fprintf(g, "set title 'romeo-walk%s'\n", sub[s]);
        fprintf(g, "plot ");
        for (int m = 0; m < 8; m++)
            fprintf(g,
                    "%s'%s/error_%s.csv' using (strcol(3) eq '%s' ? $%d : NaN):10 with "
                    "linespoints pt %d ps 0.6 title '%s'",
                    m ? ", " : "", out, scen[s], meth[m], xcol, m + 1,
                    m == 6   ? "implicit Euler"
                    : m == 7 ? "expo + events (sinew)"
                             : meth[m]);
        fprintf(g, "\n");
    }
    fprintf(g, "unset multiplot\n");
}

static void plot_fig4(FILE* g, const char* out) {
    fprintf(g, "set terminal png size 900,380 font ',8'\nset output '%s/fig4.png'\n", out);
    fprintf(g, "set datafile separator ','\nset logscale xy\nset format x '10^{%%L}'\n"
               "set format y '10^{%%L}'\nset grid\nset key outside right font ',8'\n"
               "set xlabel 'h (s)'\nset ylabel 'mean local error (inf-norm)'\n");
    fprintf(g, "set multiplot layout 1,2 title 'Fig. 4: solo-squat, sensitivity to K and to the "
               "damping ratio (Expo filled points, explicit Euler open)'\nset yrange [*:1e3]\n");
    static const char* const ks[] = {"1000", "10000", "100000", "1e+06", "1e+07", "1e+08"};
    static const char* const kl[] = {"K 1e3", "K 1e4", "K 1e5", "K 1e6", "K 1e7", "K 1e8"};
    fprintf(g, "set title 'K (zeta 0.6)'\nplot ");
    for (int i = 0; i < 6; i++)
        for (int m = 0; m < 2; m++)
            fprintf(g,
                    "%s'%s/fig4_stiffness.csv' using (strcol(3) eq '%s' && strcol(4) eq '%s' ? "
                    "$9 : NaN):10 with linespoints lc %d pt %d ps 0.6 title '%s'",
                    i || m ? ", " : "", out, m ? "euler" : "expo", ks[i], i + 1, m ? 6 : 7,
                    m ? "" : kl[i]);
    fprintf(g, "\n");
    static const char* const zs[] = {"0.1000", "0.3000", "0.6000", "1.0000", "2.0000"};
    static const char* const zl[] = {"zeta 0.1", "zeta 0.3", "zeta 0.6", "zeta 1", "zeta 2"};
    fprintf(g, "set title 'damping ratio zeta (K 1e5)'\nplot ");
    for (int i = 0; i < 5; i++)
        for (int m = 0; m < 2; m++)
            fprintf(g,
                    "%s'%s/fig4_damping.csv' using (strcol(3) eq '%s' && strcol(6) eq '%s' ? "
                    "$9 : NaN):10 with linespoints lc %d pt %d ps 0.6 title '%s'",
                    i || m ? ", " : "", out, m ? "euler" : "expo", zs[i], i + 1, m ? 6 : 7,
                    m ? "" : zl[i]);
    fprintf(g, "\nunset multiplot\n");
}

// log-log interpolation of y at x between (x0, y0) and (x1, y1)
static double loglog(double x, double x0, double y0, double x1, double y1) {
    double a = (log(x) - log(x0)) / (log(x1) - log(x0));
    return exp(log(y0) + a * (log(y1) - log(y0)));
}

// method m's error at real-time factor r on its curve (points without failures, in rtf order);
// NaN outside its range
static double err_at_rtf(const err_record* rc, int m, double r) {
    double best = NAN;
    for (int i = 0; i < rc->n; i++)
        for (int j = 0; j < rc->n; j++) {
            const err_point *a = &rc->p[i], *b = &rc->p[j];
            if (a->method != m || b->method != m || b->n != 2 * a->n || a->nfail || b->nfail)
                continue;
            // b has twice a's sub-steps: a lower real-time factor
            if (b->rtf <= r && r <= a->rtf) best = loglog(r, b->rtf, b->err, a->rtf, a->err);
        }
    return best;
}

// method m's real-time factor at error e: the largest over the pairs (n, 2n) that bracket it
static double rtf_at_err(const err_record* rc, int m, double e) {
    double best = NAN;
    for (int i = 0; i < rc->n; i++)
        for (int j = 0; j < rc->n; j++) {
            const err_point *a = &rc->p[i], *b = &rc->p[j];
            if (a->method != m || b->method != m || b->n != 2 * a->n || a->nfail || b->nfail ||
                a->err == b->err)
                continue;
            if (fmin(a->err, b->err) <= e && e <= fmax(a->err, b->err)) {
                double r = loglog(e, a->err, a->rtf, b->err, b->rtf);
                if (!(r <= best)) best = r;
            }
        }
    return best;
}

// summary.md: at each point of Expo (standard, 0 and 2 products, with events), explicit Euler's
// error at the same real-time factor and implicit Euler's real-time factor at the same error (the
// paper's two claims)
static int write_summary(const char* out, const err_record* recs, const char* const* scen,
                         const char* const* sub, int nscen) {
    char path[1200];
    snprintf(path, sizeof path, "%s/summary.md", out);
    FILE* f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "summary: cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "At each point of Expo (standard, 0 and 2 products, with sinew's contact events; "
               "n_dt sub-steps): explicit "
               "Euler's error at the same real-time factor and implicit Euler's real-time factor "
               "at the same error (log-log interpolation on their curves, points without failed "
               "steps; '-' where the other curve does not reach). Written by `sinew_expo figures` "
               "(or `sinew_expo summary` from the CSVs).\n\n");
    static const int ms[4] = {EXPO_M_EXPO, EXPO_M_EXPO0, EXPO_M_EXPO2, EXPO_M_EXPO_EV};
    for (int s = 0; s < nscen; s++) {
        fprintf(f,
                "%s%s\n\n| method | n_dt | h (ms) | error | rtf | Euler error at that rtf | "
                "Euler / Expo | implicit Euler rtf at that error | Expo / implicit Euler |\n"
                "|---|---|---|---|---|---|---|---|---|\n",
                scen[s], sub[s]);
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < recs[s].n; i++) {
                const err_point* p = &recs[s].p[i];
                if (p->method != ms[k] || p->nfail) continue;
                double eu = err_at_rtf(&recs[s], EXPO_M_EULER, p->rtf);
                double ie = rtf_at_err(&recs[s], EXPO_M_IMPLICIT_EULER, p->err);
                char a[32] = "-", b[32] = "-", c[32] = "-", d[32] = "-";
                if (isfinite(eu)) {
                    snprintf(a, sizeof a, "%.2e", eu);
                    snprintf(b, sizeof b, "%.2g", eu / p->err);
                }
                if (isfinite(ie)) {
                    snprintf(c, sizeof c, "%.1f", ie);
                    snprintf(d, sizeof d, "%.2g", p->rtf / ie);
                }
                fprintf(f, "| %s | %d | %.4g | %.2e | %.1f | %s | %s | %s | %s |\n",
                        expo_method_name((expo_method)p->method), p->n, 1e3 * p->h, p->err, p->rtf,
                        a, b, c, d);
            }
        fprintf(f, "\n");
    }
    fclose(f);
    return 0;
}

// one scenario's points read back from its error CSV (ERR_HEADER's columns); -1 on a file that
// cannot be read or has no rows
static int read_record(const char* path, err_record* rec, char* sub, size_t nsub) {
    FILE* f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "summary: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    rec->n = 0;
    double seconds = 0;
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    while (fgets(line, sizeof line, f) && rec->n < MAX_POINTS) {
        char* col[20];
        int nc = 0;
        for (char* t = strtok(line, ",\n"); t && nc < 20; t = strtok(NULL, ",\n"))
            col[nc++] = t;
        int m = nc >= 19 ? expo_method_parse(col[2]) : -1;
        if (m < 0) continue;
        err_point p = {m, atoi(col[7]), atoi(col[14]), atof(col[8]), atof(col[9]), atof(col[12])};
        if (!(p.n > 0 && p.h > 0 && p.rtf > 0)) continue;
        rec->p[rec->n++] = p;
        seconds = atof(col[13]) * atof(col[6]); // steps x dt_c
    }
    fclose(f);
    if (rec->n == 0) {
        fprintf(stderr, "summary: %s: no rows\n", path);
        return -1;
    }
    snprintf(sub, nsub, ", first %.2f s", seconds);
    return 0;
}

int expo_cmd_summary(int argc, char** argv) {
    const char* out = "docs/expo";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else {
            fprintf(stderr, "summary: bad option %s (--out DIR)\n", argv[i]);
            return 2;
        }
    }
    static err_record recs[4];
    const char* const scen[4] = {"trot", "jump", "squat", "walk"};
    char sub[4][64], path[1200];
    const char* subp[4];
    for (int s = 0; s < 4; s++) {
        snprintf(path, sizeof path, "%s/error_%s.csv", out, scen[s]);
        if (read_record(path, &recs[s], sub[s], sizeof sub[s]) != 0) return 1;
        subp[s] = sub[s];
    }
    if (write_summary(out, recs, scen, subp, 4) != 0) return 1;
    printf("wrote %s/summary.md\n", out);
    return 0;
}

int expo_cmd_figures(int argc, char** argv, const char* shared) {
    int quick = 0;
    const char* out = "docs/expo";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else {
            fprintf(stderr, "figures: bad option %s (--quick, --out DIR)\n", argv[i]);
            return 2;
        }
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "figures: %s: %s\n", out, strerror(errno));
        return 1;
    }
    double t_all = now();
    // Fig. 2 and 3: the four scenarios. Horizons (s): the trot's and the squat's full length;
    // the jump up to its descent (its landing fails on the soft contacts with every integrator,
    // the ground truth's too); the walk up to the first change of support foot at 1.2 s (our
    // inverse-dynamics controller at 40 ms falls there with every integrator; docs/expo.md)
    const char* const scen[4] = {"trot", "jump", "squat", "walk"};
    const double full[4] = {3.0, 1.6, 4.0, 1.16}, fast[4] = {0.2, 0.3, 0.4, 0.4};
    char path[1200], sub[4][64];
    const char* subp[4];
    static err_record recs[4];
    memset(recs, 0, sizeof recs);
    int rc = 0;
    for (int s = 0; s < 4 && rc == 0; s++) {
        run_opts o;
        opts_init(&o, scen[s]);
        o.seconds = quick ? fast[s] : full[s];
        o.repeat = quick ? 1 : 3; // Fig. 2's times: the median of 3 passes
        snprintf(sub[s], sizeof sub[s], ", first %.2f s", o.seconds);
        subp[s] = sub[s];
        snprintf(path, sizeof path, "%s/error_%s.csv", out, scen[s]);
        FILE* f = open_csv(path, ERR_HEADER);
        if (!f) return 1;
        double t0 = now();
        rc = run_error(&o, shared, f, &recs[s]);
        fclose(f);
        printf("[%s: %.0f s]\n\n", scen[s], now() - t0);
    }
    // Fig. 4: solo-squat, Expo and explicit Euler, K 1e3 .. 1e8 at zeta 0.6 (the paper's K 1e5,
    // B 300 on Solo12's four feet), then zeta 0.1 .. 2 at K 1e5
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        snprintf(path, sizeof path, "%s/fig4_%s.csv", out, pass ? "damping" : "stiffness");
        FILE* f = open_csv(path, ERR_HEADER);
        if (!f) return 1;
        double t0 = now();
        static const double ks[] = {1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
        static const double zs[] = {0.1, 0.3, 0.6, 1.0, 2.0};
        for (int i = 0; i < (pass ? 5 : 6) && rc == 0; i++) {
            run_opts o;
            opts_init(&o, "squat");
            o.methods = (1u << EXPO_M_EXPO) | (1u << EXPO_M_EULER);
            o.seconds = quick ? 0.2 : 1.0;
            o.k = pass ? 1e5 : ks[i];
            o.zeta = pass ? zs[i] : 0.6;
            o.label = pass ? "zeta" : "K";
            rc = run_error(&o, shared, f, NULL);
        }
        fclose(f);
        printf("[fig 4 %s: %.0f s]\n\n", pass ? "damping" : "stiffness", now() - t0);
    }
    // Table II
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/table2.csv", out);
        FILE* f = open_csv(path, STAB_HEADER);
        snprintf(path, sizeof path, "%s/table2.md", out);
        FILE* md = fopen(path, "w");
        if (!f || !md) {
            if (f) fclose(f);
            if (md) fclose(md);
            fprintf(stderr, "figures: cannot write %s\n", path);
            return 1;
        }
        fprintf(md,
                "| scenario | dt_c | run | method | largest stable h |\n|---|---|---|---|---|\n");
        double t0 = now();
        // each scenario at its control step, and the trot with its controller at 10 ms too
        // and the walk with its controller at 10 ms, where it walks the whole 6.3 s
        const double stab_full[6] = {3.0, 1.6, 4.0, 1.16, 1.9, 6.3};
        const double stab_fast[6] = {0.5, 0.5, 1.0, 0.8, 0.5, 0.5};
        const char* const ss[6] = {"trot", "jump", "squat", "walk", "trot", "walk"};
        for (int s = 0; s < 6 && rc == 0; s++) {
            run_opts o;
            opts_init(&o, ss[s]);
            o.seconds = quick ? stab_fast[s] : stab_full[s];
            if (s >= 4) o.dt = 0.01;
            rc = run_stability(&o, shared, f, md);
        }
        fclose(f);
        fclose(md);
        printf("[table II: %.0f s]\n\n", now() - t0);
    }
    if (rc) return rc;
    if (write_summary(out, recs, scen, subp, 4) != 0) return 1;
    if (!have_gnuplot()) {
        printf("gnuplot not found (bash scripts/deps.sh --test installs it): CSV only in %s\n",
               out);
    } else {
        snprintf(path, sizeof path, "%s/figures.gp", out);
        FILE* g = fopen(path, "w");
        if (!g) {
            fprintf(stderr, "figures: cannot write %s\n", path);
            return 1;
        }
        plot_errors(g, out, "fig2.png",
                    "Fig. 2: mean local error vs real-time factor (this machine)",
                    "real-time factor", 13, scen, subp, 4);
        fprintf(g, "reset\n");
        plot_errors(g, out, "fig3.png", "Fig. 3: mean local error vs sub-step h", "h (s)", 9, scen,
                    subp, 4);
        fprintf(g, "reset\n");
        plot_fig4(g, out);
        fclose(g);
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "gnuplot '%s'", path);
        if (system(cmd) != 0) {
            fprintf(stderr, "figures: gnuplot failed on %s\n", path);
            return 1;
        }
        printf("wrote %s/fig2.png, fig3.png, fig4.png\n", out);
    }
    printf("wrote %s/error_*.csv, fig4_*.csv, table2.csv, table2.md, summary.md; total %.0f s\n",
           out, now() - t_all);
    return 0;
}
