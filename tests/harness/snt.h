// SPDX-License-Identifier: Apache-2.0
// snt.h: the test harness. A suite lists its tests with SNT_SUITE; each test returns 0 (pass)
// or 1 (fail) or SNT_SKIP (could not run: a shared file or an optional tool is absent). The
// runner takes an optional name filter, times each test and ends with the line "N passed,
// N failed" (and ", N skipped"). Its exit code: 1 when a test failed, else SNT_SKIP (77, which
// ctest reports as "Skipped", never as passed) when one skipped, else 0. With SNT_NO_SKIP set
// in the environment (scripts/test.sh sets it: CI has ../shared and MuJoCo) a skip is a
// failure.
#ifndef SNT_H
#define SNT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SNT_SKIP 77

#define SNT_FAIL_AT(...)                                                                           \
    do {                                                                                           \
        fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);                                          \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n");                                                                     \
        return 1;                                                                                  \
    } while (0)

#define SNT_CHECK(c)                                                                               \
    do {                                                                                           \
        if (!(c)) SNT_FAIL_AT("check failed: %s", #c);                                             \
    } while (0)

#define SNT_CHECK_MSG(c, ...)                                                                      \
    do {                                                                                           \
        if (!(c)) SNT_FAIL_AT(__VA_ARGS__);                                                        \
    } while (0)

#define SNT_NEAR(a, b, tol)                                                                        \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            SNT_FAIL_AT("%s = %.17g, %s = %.17g, |diff| %.3g > %.3g", #a, a_, #b, b_,              \
                        fabs(a_ - b_), (double)(tol));                                             \
    } while (0)

// |a - b| <= tol * max(|a|, |b|, floor)
#define SNT_NEAR_REL(a, b, tol, floor)                                                             \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        double s_ = fmax(fmax(fabs(a_), fabs(b_)), (floor));                                       \
        if (!(fabs(a_ - b_) <= (tol)*s_))                                                          \
            SNT_FAIL_AT("%s = %.17g, %s = %.17g, rel diff %.3g > %.3g", #a, a_, #b, b_,            \
                        fabs(a_ - b_) / s_, (double)(tol));                                        \
    } while (0)

#define SNT_STATUS_OK(st)                                                                          \
    do {                                                                                           \
        int st_ = (st);                                                                            \
        if (st_ != 0) SNT_FAIL_AT("%s returned %d", #st, st_);                                     \
    } while (0)

typedef struct snt_test {
    const char* name;
    int (*fn)(void);
} snt_test;

#define SNT_SUITE(...)                                                                             \
    int main(int argc, char** argv) {                                                              \
        static const snt_test tests_[] = {__VA_ARGS__};                                            \
        return snt_run(tests_, (int)(sizeof tests_ / sizeof tests_[0]), argc, argv);               \
    }
#define SNT_TEST(f)                                                                                \
    { #f, f }

static inline int snt_run(const snt_test* t, int n, int argc, char** argv) {
    const char* filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        if (filter && !strstr(t[i].name, filter)) continue;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int r = t[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
        const char* tag = r == 0 ? "ok  " : r == SNT_SKIP ? "skip" : "FAIL";
        printf("%s %-48s %8.1f ms\n", tag, t[i].name, ms);
        fflush(stdout);
        if (r == 0)
            passed++;
        else if (r == SNT_SKIP)
            skipped++;
        else
            failed++;
    }
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    if (failed) return 1;
    if (skipped && getenv("SNT_NO_SKIP") && *getenv("SNT_NO_SKIP")) {
        printf("SNT_NO_SKIP is set: a skipped test is a failure here\n");
        return 1;
    }
    return skipped ? SNT_SKIP : 0;
}

#endif
