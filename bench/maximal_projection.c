// SPDX-License-Identifier: Apache-2.0
// maximal_projection.c: the cost of an sn_maximal's step with and without the post-stabilization
// (sn_maximal_set_projection; docs/constraints.md "Projection"): chains of 2 and 30 rods of 1 m
// hinged about y, released at 0.6 rad, both schemes, dt 1e-3; the best of 3 runs of 2000 steps,
// and the worst constraint error over them. Not a test: timings vary with the machine's load.
#define _POSIX_C_SOURCE 199309L
#include "sinew/sn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const double g_frame_y[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};

static sn_maximal* chain(int n) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 1e-3;
    sn_maximal* mx = NULL;
    if (sn_maximal_create(&o, &mx, NULL) != SN_OK) return NULL;
    const double I[6] = {(0.0025 + 1) / 12, 0, 0, (0.0025 + 1) / 12, 0, 0.005 / 12};
    for (int i = 0; i < n; i++) {
        int b;
        double q[4] = {cos(0.3), 0, sin(0.3), 0},
               x[3] = {-(i + 0.5) * sin(0.6), 0, -(i + 0.5) * cos(0.6)};
        sn_constraint_desc d;
        memset(&d, 0, sizeof d);
        d.kind = SN_CONSTRAINT_HINGE;
        d.body_b = i - 1;
        d.anchor_a[2] = 0.5;
        if (i > 0) d.anchor_b[2] = -0.5;
        memcpy(d.frame_a, g_frame_y, sizeof d.frame_a);
        memcpy(d.frame_b, g_frame_y, sizeof d.frame_b);
        if (sn_maximal_add_body(mx, 1, I, &b) != SN_OK ||
            sn_maximal_set_body_state(mx, b, x, q, NULL, NULL) != SN_OK ||
            (d.body_a = b, sn_maximal_add_constraint(mx, &d, NULL)) != SN_OK) {
            sn_maximal_destroy(mx);
            return NULL;
        }
    }
    return mx;
}

int main(void) {
    const int ns[2] = {2, 30}, steps = 2000;
    printf("links scheme         projection  us/step  worst error\n");
    for (int k = 0; k < 2; k++)
        for (int scheme = 0; scheme < 2; scheme++)
            for (int on = 0; on < 2; on++) {
                double best = 1e30, worst = 0;
                for (int rep = 0; rep < 3; rep++) {
                    sn_maximal* mx = chain(ns[k]);
                    if (!mx) return 1;
                    sn_maximal_set_scheme(mx, (sn_maximal_scheme)scheme);
                    sn_maximal_set_projection(mx, on);
                    struct timespec t0, t1;
                    double t = 0;
                    for (int i = 0; i < steps; i++) {
                        clock_gettime(CLOCK_MONOTONIC, &t0);
                        sn_status st = sn_maximal_step(mx);
                        clock_gettime(CLOCK_MONOTONIC, &t1);
                        if (st != SN_OK) {
                            fprintf(stderr, "%s\n", sn_maximal_last_error(mx));
                            return 1;
                        }
                        t += (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
                             (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
                        double w;
                        if (sn_maximal_constraint_error(mx, NULL, &w) == SN_OK)
                            worst = fmax(worst, w);
                    }
                    best = fmin(best, t / steps);
                    sn_maximal_destroy(mx);
                }
                printf("%5d %-14s %-11s %8.2f  %.3g\n", ns[k], scheme ? "RK4" : "semi-implicit",
                       on ? "on" : "off", best, worst);
            }
    return 0;
}
