// SPDX-License-Identifier: Apache-2.0
// soak.c: the random-torque soak (issue 17, docs/reliability.md). Every model file named on the
// command line is loaded and run as the file says (sn_system_apply_file) for N steps with random
// torques within its DOFs' effort limits, drawn anew every 10 steps from a seeded generator, and
// one row printed per file: steps completed, the first failure, the worst energy ratio (the
// largest rise of E - W over the run, divided by the integrator's bound; <= 1 keeps the balance:
// bench/soak_run.c), the largest kinetic energy and the growth of the resident set. Run it with
// bench/soak.sh. Usage: sinew_soak [-n steps] [-s seed] [-t torque_scale] [-c cap] [-d damping]
// FILE...
#include "soak_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// the file's name from the models' folder on (the part after ".../models/")
static const char* short_name(const char* path) {
    const char* p = strstr(path, "/models/");
    return p ? p + 8 : path;
}

int main(int argc, char** argv) {
    soak_opts o = {20000, 10, 1.0, 0, 0, 17, 0};
    int first = 1;
    while (first + 1 < argc && argv[first][0] == '-') {
        const char* a = argv[first];
        const char* v = argv[first + 1];
        if (!strcmp(a, "-n"))
            o.steps = atol(v);
        else if (!strcmp(a, "-s"))
            o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "-t"))
            o.torque_scale = atof(v);
        else if (!strcmp(a, "-g"))
            o.gyroscopic = atoi(v);
        else if (!strcmp(a, "-c"))
            o.torque_cap = atof(v);
        else if (!strcmp(a, "-d"))
            o.damping = atof(v);
        else
            break;
        first += 2;
    }
    if (first >= argc) {
        fprintf(stderr,
                "usage: %s [-n steps] [-s seed] [-t torque_scale] [-c cap] [-d damping] [-g "
                "gyroscopic] FILE...\n",
                argv[0]);
        return 2;
    }
    printf("| model | nv | steps | feasible from | failure | energy ratio | rise of E - W - W_loop "
           "(J) | max "
           "kinetic (J) | "
           "RSS growth (kB) |\n|---|---|---|---|---|---|---|---|---|---|\n");
    int bad = 0, models = 0;
    for (int i = first; i < argc; i++) {
        soak_result r;
        int rc = soak_run(argv[i], &o, &r);
        if (!r.loaded) continue; // not a model file (an MJCF include, an asset)
        models++;
        bad += rc != 0;
        char fail[1100];
        if (r.status == SN_OK)
            snprintf(fail, sizeof fail, "-");
        else
            snprintf(fail, sizeof fail, "%s at step %ld: %.200s", sn_status_str(r.status),
                     r.fail_step, r.msg);
        for (char* c = fail; *c; c++)
            if (*c == '|' || *c == '\n') *c = ' ';
        printf("| %s | %d | %ld | %ld | %s | %.3g | %.3g | %.3g | %.3g | %ld |\n",
               short_name(argv[i]), r.nv, r.steps, r.clear, fail, r.ratio, r.rise, r.loop_work,
               r.ke_max, r.rss_growth);
        fflush(stdout);
    }
    printf("\n%d models, %d with a failure or an energy ratio above 1 (%ld steps, seed %llu, "
           "torques within %.3g x the effort limits)\n",
           models, bad, o.steps, o.seed, o.torque_scale);
    return bad ? 1 : 0;
}
