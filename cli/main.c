// SPDX-License-Identifier: Apache-2.0
// main.c: the sinew command-line tool. `sinew VERB ...`; every verb prints its own usage.
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE* f) {
    fprintf(f,
            "sinew %s: articulated rigid-body simulation\n\n"
            "usage: sinew VERB [options]\n\n"
            "verbs:\n"
            "  inspect MODEL [--q \"...\"] [--u \"...\"] [--gravity \"gx gy gz\"] [--json]\n"
            "          kinematic tree, masses, and the dynamics at one state\n"
            "  run [MODEL] [--dt S] [--duration S] [--kp ...] [--record F.csv] [--html F.html]\n"
            "          [--plot DIR] ...\n"
            "          simulate the model (without one: the bundled Strandbeest walks), print a\n"
            "          summary and write an HTML replay; `sinew run --help` lists the options\n"
            "  arm MODEL [--torques \"u1 .. un\"] [--spin K:HX,HY,HZ] [--payload K:M[:T]]\n"
            "          [--dt S] [--duration S] [--record F.csv] [--html F.html] ...\n"
            "          step a serial chain as the dynamic arm component (seed 002) and record\n"
            "          its states; `sinew arm --help` lists the options\n"
            "  plot RUN.csv [--contacts CONTACTS.csv] [--out DIR]\n"
            "          PNG plots of a recorded run: energy, joints, contacts, loop error\n"
            "  version  print the version\n"
            "  help     this text\n",
            sn_version());
}

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char* verb = argv[1];
    if (!strcmp(verb, "inspect")) return cli_inspect(argc - 2, argv + 2);
    if (!strcmp(verb, "run")) return cli_run(argc - 2, argv + 2);
    if (!strcmp(verb, "arm")) return cli_arm(argc - 2, argv + 2);
    if (!strcmp(verb, "plot")) return cli_plot(argc - 2, argv + 2);
    if (!strcmp(verb, "version") || !strcmp(verb, "--version")) {
        printf("sinew %s\n", sn_version());
        return 0;
    }
    if (!strcmp(verb, "help") || !strcmp(verb, "--help") || !strcmp(verb, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "sinew: unknown verb '%s'\n\n", verb);
    usage(stderr);
    return CLI_USAGE;
}
