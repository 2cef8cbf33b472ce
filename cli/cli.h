// SPDX-License-Identifier: Apache-2.0
// cli.h: the verbs of the sinew command-line tool and their shared helpers.
#ifndef SN_CLI_H
#define SN_CLI_H

#include "sinew/sn.h"

#include <stdio.h>

#define CLI_USAGE 2

// parse a whitespace-separated list of numbers; returns the count or -1 on a bad entry
int cli_parse_vector(const char* s, double* out, int nmax);
// load a model file (URDF or MJCF by its content: sn_load) with warnings printed to stderr;
// NULL on error (message printed)
sn_model* cli_load(const char* path, int quiet);
// print a JSON number (null when not finite)
void cli_json_num(FILE* f, double v);
// a record's first columns, shared by `sinew run` and `sinew arm`: t, q0.., u0.. (header, then
// one row's values; no newline)
void cli_record_state_header(FILE* f, int nq, int nv);
void cli_record_state_values(FILE* f, double t, const double* q, int nq, const double* u, int nv);
// the progress bar on stderr (frac 0..1) and a monotonic wall clock (s)
void cli_progress(double frac);
double cli_now_seconds(void);

// the HTML replay of a run (html.c): frames recorded every `every` simulated seconds
typedef struct cli_replay cli_replay;
cli_replay* cli_replay_begin(const sn_model* m, int ground, double every);
// record the system's state at time t when a frame is due (dt: the step, for contact forces)
void cli_replay_frame(cli_replay* r, sn_system* s, double t, double dt);
// record the bodies' poses at the model's coordinates q (nq) at time t when a frame is due: a
// frame without contacts or loops (`sinew arm`: the arm's model, whose world is the arm's base)
void cli_replay_frame_q(cli_replay* r, const double* q, double t);
int cli_replay_write(const cli_replay* r, const char* path, const char* title, const char* summary);
void cli_replay_free(cli_replay* r);

// PNG plots of a run's CSV (and of its contacts CSV, nullable) into outdir (NULL: beside it)
int cli_plot_files(const char* run, const char* contacts, const char* outdir);

int cli_arm(int argc, char** argv);
int cli_inspect(int argc, char** argv);
int cli_plot(int argc, char** argv);
int cli_run(int argc, char** argv);

#endif
