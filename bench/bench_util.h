// SPDX-License-Identifier: Apache-2.0
// bench_util.h: what the side-by-side benchmark programs share: a monotonic clock, the median
// wall time per step over five blocks, and callgrind's collection toggle around the timed steps
// (a no-op unless built with valgrind's header, SN_BENCH_CALLGRIND)
#ifndef SN_BENCH_UTIL_H
#define SN_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

#ifdef SN_BENCH_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif

static inline double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

typedef void (*bench_step_fn)(void* ctx);

// the median wall time per step over 5 blocks of steps / 5 (at least 1); the instructions of
// all of them under callgrind. *done (may be NULL) gets the steps taken
static inline double bench_measure(bench_step_fn f, void* ctx, int steps, long* done) {
    double t[5];
    int block = steps / 5 > 0 ? steps / 5 : 1;
    for (int b = 0; b < 5; b++) {
        double t0 = bench_now();
        CALLGRIND_TOGGLE_COLLECT;
        for (int k = 0; k < block; k++)
            f(ctx);
        CALLGRIND_TOGGLE_COLLECT;
        t[b] = (bench_now() - t0) / block;
    }
    qsort(t, 5, sizeof t[0], bench_cmp);
    if (done) *done = 5L * block;
    return t[2];
}

#ifdef mjVERSION_HEADER
// a MuJoCo model and its data, stepped by bench_mj_step (include mujoco.h before this header)
typedef struct bench_mj {
    mjModel* m;
    mjData* d;
} bench_mj;

static inline void bench_mj_step(void* p) {
    bench_mj* c = p;
    mj_step(c->m, c->d);
}
#endif

#endif
