// SPDX-License-Identifier: Apache-2.0
// cli.h: the verbs of the sinew command-line tool and their shared helpers.
#ifndef SN_CLI_H
#define SN_CLI_H

#include "sinew/sn.h"

#include <stdio.h>

#define CLI_USAGE 2

// parse a whitespace-separated list of numbers; returns the count or -1 on a bad entry
int cli_parse_vector(const char* s, double* out, int nmax);
// load a model file (URDF) with warnings printed to stderr; NULL on error (message printed)
sn_model* cli_load(const char* path, int quiet);
// print a JSON number (null when not finite)
void cli_json_num(FILE* f, double v);

int cli_inspect(int argc, char** argv);
int cli_run(int argc, char** argv);

#endif
