// SPDX-License-Identifier: Apache-2.0
// couple_bench.c: the cost of constraints between systems (issue 14): ten robots coupled by
// world constraints. Ten PD-held arms (tests/data/couple_arm.urdf) in five pairs, each pair
// welding its hands to one box (10 welds, 60 rows), the five boxes joined in a chain by four
// rigid rods (DISTANCE, 4 rows): one coupled set of 64 rows over 10 x 3 + 5 x 6 = 60 DOFs,
// eliminated exactly every step. Side by side: the same systems without the constraints (the
// boxes falling free). Prints the time per step of both, the difference per constraint row, and
// the closure over the run. Not a test: speed goes here (docs/benchmarks.md).
#define _POSIX_C_SOURCE 199309L
#include "bench_util.h"

#include <math.h>
#include <sinew/sn.h>
#include <sinew/sn_maximal.h>
#include <stdio.h>
#include <string.h>

#define NPAIR 5

static char g_text[8192];

// the arm mounted at (x, y, 1)
static sn_model* load_arm(double x, double y) {
    const char* key = "xyz=\"0 0 1\" rpy=\"0 0 0\"";
    char* at = strstr(g_text, key);
    if (!at) return NULL;
    static char out[8600];
    size_t head = (size_t)(at - g_text);
    snprintf(out, sizeof out, "%.*sxyz=\"%.17g %.17g 1\" rpy=\"0 0 0\"%s", (int)head, g_text, x, y,
             at + strlen(key));
    sn_model* m = NULL;
    sn_load_opts o = {0};
    sn_error err;
    if (sn_load_urdf_string(out, strlen(out), "arm", NULL, &o, &m, &err) != SN_OK) return NULL;
    return m;
}

typedef struct scene {
    sn_world* w;
    sn_model* m[2 * NPAIR];
    sn_system* box[NPAIR];
} scene;

static int scene_open(scene* sc, int coupled) {
    memset(sc, 0, sizeof *sc);
    sn_error err;
    if (sn_world_create(NULL, &sc->w, &err) != SN_OK) return 1;
    double a = 0.5, reach = 0.6 * cos(a), zero[3] = {0, 0, 0};
    double q1[3] = {a, -2 * a, a}, q2[3] = {3.14159265358979323846 - a, 2 * a, -a};
    double kp[3] = {400, 400, 400}, kd[3] = {20, 20, 20};
    for (int p = 0; p < NPAIR; p++) {
        sn_system* arm[2];
        for (int e = 0; e < 2; e++) {
            sc->m[2 * p + e] = load_arm(e ? 2 * reach + 0.4 : 0, p);
            if (!sc->m[2 * p + e]) return 1;
            if (sn_world_add_system(sc->w, sc->m[2 * p + e], &arm[e], &err) != SN_OK) return 1;
            const double* q = e ? q2 : q1;
            sn_system_set_state(arm[e], q, 3, zero, 3);
            sn_system_set_pd_gains(arm[e], kp, kd, 3);
            sn_system_set_pd_target(arm[e], q, 3, zero, 3);
        }
        double size[3] = {0.2, 0.2, 0.2}, u[6] = {0};
        if (sn_world_add_box(sc->w, size, 2.0, &sc->box[p]) != SN_OK) return 1;
        double qb[7] = {reach + 0.2, p, 1, 1, 0, 0, 0};
        sn_system_set_state(sc->box[p], qb, 7, u, 6);
        if (!coupled) continue;
        int hand = sn_model_find(sc->m[0], SN_OBJ_BODY, "hand");
        for (int e = 0; e < 2; e++) {
            sn_constraint_desc d;
            memset(&d, 0, sizeof d);
            d.kind = SN_CONSTRAINT_WELD;
            d.system_a = sc->box[p], d.body_a = 1, d.anchor_a[0] = e ? 0.1 : -0.1;
            d.system_b = arm[e], d.body_b = hand, d.anchor_b[0] = 0.1;
            if (e) d.frame_b[0] = -1, d.frame_b[4] = 1, d.frame_b[8] = -1;
            if (sn_world_add_constraint(sc->w, &d, NULL) != SN_OK) return 1;
        }
        if (p == 0) continue;
        sn_constraint_desc r;
        memset(&r, 0, sizeof r);
        r.kind = SN_CONSTRAINT_DISTANCE;
        r.system_a = sc->box[p], r.body_a = 1, r.anchor_a[1] = -0.1;
        r.system_b = sc->box[p - 1], r.body_b = 1, r.anchor_b[1] = 0.1;
        r.length = 0.8;
        if (sn_world_add_constraint(sc->w, &r, NULL) != SN_OK) return 1;
    }
    return 0;
}

static void scene_close(scene* sc) {
    sn_world_destroy(sc->w);
    for (int i = 0; i < 2 * NPAIR; i++)
        sn_model_destroy(sc->m[i]);
}

static void step(void* ctx) {
    sn_world_integrate(((scene*)ctx)->w);
}

int main(int argc, char** argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 2000;
    FILE* f = fopen(SN_BENCH_SOURCE_DIR "/tests/data/couple_arm.urdf", "rb");
    if (!f) return 1;
    size_t n = fread(g_text, 1, sizeof g_text - 1, f);
    fclose(f);
    g_text[n] = 0;
    scene c, u;
    if (scene_open(&c, 1) || scene_open(&u, 0)) {
        fprintf(stderr, "set-up failed: %s\n", c.w ? sn_world_last_error(c.w) : "");
        return 1;
    }
    long done = 0;
    double tc = bench_measure(step, &c, steps, &done);
    double tu = bench_measure(step, &u, steps, NULL);
    int rows = 0;
    double worst = 0;
    for (int i = 0; i < sn_world_constraint_count(c.w); i++) {
        double e;
        sn_world_constraint_error(c.w, i, &e);
        worst = e > worst ? e : worst;
    }
    rows = 6 * 2 * NPAIR + (NPAIR - 1);
    printf("couple_bench: %d robots, %d world constraints (%d rows) over %d systems; %ld steps\n",
           2 * NPAIR, sn_world_constraint_count(c.w), rows, sn_world_system_count(c.w), done);
    printf("  coupled   %8.2f us/step (closure at the end %.2e m)\n", 1e6 * tc, worst);
    printf("  uncoupled %8.2f us/step (the same systems, boxes falling free)\n", 1e6 * tu);
    printf("  the constraints: %.2f us/step, %.3f us per row\n", 1e6 * (tc - tu),
           1e6 * (tc - tu) / rows);
    scene_close(&c);
    scene_close(&u);
    return 0;
}
