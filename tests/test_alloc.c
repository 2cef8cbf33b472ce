// SPDX-License-Identifier: Apache-2.0
// test_alloc.c: no algorithm allocates, and everything a model or data allocates is returned.
// Two independent counters: the per-object sn_allocator (live bytes and calls), and every heap
// call of the process (malloc interposition in a plain build, the sanitizer's malloc hooks in
// the ASan build).
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>


// ---- counting sn_allocator ----

typedef struct counter {
    long calls, frees;
    long long live;
} counter;

static void* count_alloc(size_t size, size_t align, void* ctx) {
    counter* c = ctx;
    c->calls++;
    c->live += (long long)size;
    size_t rounded = (size + align - 1) / align * align;
    return aligned_alloc(align, rounded);
}

static void count_free(void* p, size_t size, void* ctx) {
    counter* c = ctx;
    c->frees++;
    c->live -= (long long)size;
    free(p);
}

static int run_everything(const sn_model* m, sn_data* d) {
    double* tau = d->ws_vec + m->nv; // any nv-sized buffer that already exists
    double* jp = d->inverse_mass;    // 3 x nv fits in nv x nv when nv >= 3
    sn_fk(m, d);
    sn_fk_vel(m, d);
    sn_fk_acc(m, d, NULL);
    sn_crba(m, d);
    sn_nonlinear(m, d);
    sn_rnea(m, d, NULL, tau);
    if (sn_aba(m, d, NULL, NULL) != SN_OK) return 1;
    if (sn_inverse_mass(m, d) != SN_OK) return 1;
    sn_solve_mass(m, d, tau);
    sn_inverse_dynamics(m, d, d->udot, tau);
    double x[3] = {0.1, 0.2, 0.3}, l[3], a[3], r[9];
    sn_point_jdot_u(m, d, m->nbody - 1, x, l, a);
    sn_frame_pose(m, d, m->nframe - 1, x, r);
    sn_frame_velocity(m, d, m->nframe - 1, l, a);
    sn_frame_acceleration(m, d, m->nframe - 1, l, a);
    if (m->nv >= 3) sn_frame_jacobian(m, d, m->nframe - 1, jp, NULL);
    (void)sn_kinetic_energy(m, d);
    (void)sn_potential_energy(m, d);
    (void)sn_com(m, d, x);
    sn_momentum(m, d, l, a);
    return 0;
}

static int check_model(sn_model* m, counter* c) {
    sn_data* d = NULL;
    sn_data_opts o = {0};
    sn_allocator al = {count_alloc, count_free, c};
    o.allocator = &al;
    SNT_STATUS_OK(sn_data_create(m, &o, &d, NULL));
    tc_random_state(m, d->q, d->u);
    long before_calls = c->calls;
    tc_heap_install();
    long heap_before = tc_heap_calls();
    for (int rep = 0; rep < 3; rep++)
        SNT_CHECK(run_everything(m, d) == 0);
    long heap_after = tc_heap_calls();
    SNT_CHECK_MSG(heap_after == heap_before, "algorithms made %ld heap calls",
                  heap_after - heap_before);
    SNT_CHECK_MSG(c->calls == before_calls, "algorithms used the allocator %ld times",
                  c->calls - before_calls);
    sn_data_destroy(d);
    return 0;
}

static int test_algorithms_do_not_allocate(void) {
    counter c = {0};
    sn_allocator al = {count_alloc, count_free, &c};
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    for (int t = 0; t < 6; t++) {
        char* xml = tc_random_urdf(4 + 3 * t, t % 2, 500 + (unsigned long long)t);
        sn_model* m = NULL;
        sn_error err;
        SNT_STATUS_OK(sn_load_urdf_string(xml, strlen(xml), "alloc.urdf", NULL, &o, &m, &err));
        free(xml);
        SNT_CHECK(check_model(m, &c) == 0);
        sn_model_destroy(m);
    }
    const char* path = tc_model_path("raisim_anymal_c/urdf/anymal.urdf");
    if (path) {
        sn_model* m = NULL;
        SNT_STATUS_OK(sn_load_urdf(path, &o, &m, NULL));
        SNT_CHECK(check_model(m, &c) == 0);
        sn_model_destroy(m);
    }
    SNT_CHECK_MSG(c.live == 0, "%lld bytes still live after every destroy", c.live);
    SNT_CHECK(c.calls == c.frees);
    SNT_CHECK(c.calls > 0);
    return 0;
}

// the counters themselves work: a deliberate allocation is seen
static int test_counters_see_allocations(void) {
    tc_heap_install();
    long before = tc_heap_calls();
    void* volatile p = malloc(100);
    free(p);
    SNT_CHECK(tc_heap_calls() > before);
    counter c = {0};
    sn_allocator al = {count_alloc, count_free, &c};
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    char* xml = tc_random_urdf(3, 0, 9);
    sn_model* m = NULL;
    SNT_STATUS_OK(sn_load_urdf_string(xml, strlen(xml), "x.urdf", NULL, &o, &m, NULL));
    free(xml);
    SNT_CHECK(c.live > 0);
    sn_model_destroy(m);
    SNT_CHECK(c.live == 0);
    sn_model_destroy(NULL);
    sn_data_destroy(NULL);
    return 0;
}

// a failed load returns every byte too
static int test_failed_load_frees_everything(void) {
    counter c = {0};
    sn_allocator al = {count_alloc, count_free, &c};
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.allocator = &al;
    const char* bad[] = {
        "<robot name=\"r\"><link name=\"a\"/><link name=\"a\"/></robot>",
        "<robot name=\"r\"><link name=\"a\"><inertial><mass "
        "value=\"-1\"/></inertial></link></robot>",
        "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"revolute\">"
        "<parent link=\"a\"/><child link=\"b\"/></joint></robot>",
        "<robot name=\"r\"><link",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_model* m = NULL;
        sn_error err;
        sn_status st = sn_load_urdf_string(bad[i], strlen(bad[i]), "bad.urdf", NULL, &o, &m, &err);
        SNT_CHECK(st != SN_OK);
        SNT_CHECK(m == NULL);
        SNT_CHECK(err.msg[0] != 0);
    }
    SNT_CHECK_MSG(c.live == 0, "%lld bytes leaked by failed loads", c.live);
    return 0;
}

SNT_SUITE(SNT_TEST(test_counters_see_allocations), SNT_TEST(test_algorithms_do_not_allocate),
          SNT_TEST(test_failed_load_frees_everything))
