// SPDX-License-Identifier: Apache-2.0
// test_threads.c: a loaded model is read-only and may be shared by worlds in several threads
// (sn_model.h). Two threads step two worlds on one model at once and must repeat, bit for bit,
// the run of one world in one thread; several threads load the same files at once and must get
// the models one thread gets. Built alone with ThreadSanitizer by scripts/test.sh (build-tsan,
// SN_SANITIZE_THREAD), which fails on any data race: a write to the model during a step (a lazy
// cache) or to a loader's global state.
#include "common.h"
#include "harness/snt.h"

#include <pthread.h>

#define NTHREAD 2
#define NLOADER 4

// the models stepped: the repository's own (loops, contacts, a floating base, soft contacts,
// MJCF tendons and sensors) and, with shared, a Menagerie robot
static const char* stepped[] = {
    SNT_SOURCE_DIR "/models/strandbeest.urdf", SNT_SOURCE_DIR "/models/humanoid.urdf",
    SNT_SOURCE_DIR "/tests/data/soft/soft_box.urdf", SNT_SOURCE_DIR "/tests/data/mjcf/sensors.xml",
    SNT_SOURCE_DIR "/models/strandbeest.usda"};

typedef struct run {
    const sn_model* m; // shared by the runs
    int steps;
    double* q;       // steps x nq, the coordinates after each step
    uint64_t hash;   // the world's state hash at the end
    sn_status st;    // the first failure
    const char* why; // of the failure
} run;

static sn_status load(const char* path, sn_model** m) {
    sn_error err;
    sn_status st = sn_load(path, NULL, m, &err);
    if (st != SN_OK) fprintf(stderr, "  %s: %s\n", path, err.msg);
    return st;
}

// a world on r->m as the file says, with a ground, stepped r->steps times
static void* simulate(void* arg) {
    run* r = arg;
    sn_world* w = NULL;
    sn_system* s = NULL;
    r->why = "world";
    r->st = sn_world_create(NULL, &w, NULL);
    if (r->st == SN_OK) r->st = sn_world_add_system(w, r->m, &s, NULL);
    if (r->st == SN_OK) {
        sn_setup_opts so;
        memset(&so, 0, sizeof so);
        so.ground = SN_GROUND_ON;
        r->why = "apply_file";
        r->st = sn_system_apply_file(s, &so, NULL);
    }
    for (int k = 0; k < r->steps && r->st == SN_OK; k++) {
        r->why = "step";
        r->st = sn_world_integrate(w);
        memcpy(r->q + (size_t)k * (size_t)r->m->nq, sn_system_q(s),
               (size_t)r->m->nq * sizeof(double));
    }
    if (r->st == SN_OK) {
        r->why = "hash";
        r->st = sn_world_state_hash(w, &r->hash);
    }
    sn_world_destroy(w);
    return NULL;
}

static int test_two_threads_step_one_model_bit_for_bit(void) {
    int nmodel = (int)(sizeof stepped / sizeof stepped[0]);
    for (int k = 0; k < nmodel; k++) {
        sn_model* m = NULL;
        SNT_STATUS_OK(load(stepped[k], &m));
        int steps = 300;
        size_t n = (size_t)steps * (size_t)m->nq;
        run one = {m, steps, calloc(n, sizeof(double)), 0, SN_OK, ""};
        run par[NTHREAD];
        simulate(&one);
        pthread_t t[NTHREAD];
        int started = 0;
        for (int i = 0; i < NTHREAD; i++) {
            par[i] = (run){m, steps, calloc(n, sizeof(double)), 0, SN_OK, ""};
            if (pthread_create(&t[i], NULL, simulate, &par[i]) == 0) started++;
        }
        for (int i = 0; i < started; i++)
            pthread_join(t[i], NULL);
        int r = started == NTHREAD ? 0 : 1;
        if (r) fprintf(stderr, "  %d of %d threads started\n", started, NTHREAD);
        if (one.st != SN_OK) {
            fprintf(stderr, "  %s: one thread: %s failed: %s\n", stepped[k], one.why,
                    sn_status_str(one.st));
            r = 1;
        }
        for (int i = 0; i < NTHREAD && !r; i++) {
            if (par[i].st != SN_OK) {
                fprintf(stderr, "  %s: thread %d: %s failed: %s\n", stepped[k], i, par[i].why,
                        sn_status_str(par[i].st));
                r = 1;
            } else if (memcmp(par[i].q, one.q, n * sizeof(double)) != 0 ||
                       par[i].hash != one.hash) {
                fprintf(stderr, "  %s: thread %d's trajectory differs from the single run\n",
                        stepped[k], i);
                r = 1;
            }
        }
        // the run moved (a trajectory that stays put would compare equal for any reason)
        double moved = 0;
        for (int j = 0; j < m->nq; j++)
            moved = fmax(moved, fabs(one.q[n - (size_t)m->nq + (size_t)j] - one.q[j]));
        printf("  %s: %d threads x %d steps on one model, bit-identical to one thread (state "
               "hash %016llx, q moved %.3g)\n",
               strrchr(stepped[k], '/') + 1, NTHREAD, steps, (unsigned long long)one.hash, moved);
        free(one.q);
        for (int i = 0; i < started; i++)
            free(par[i].q);
        sn_model_destroy(m);
        SNT_CHECK(r == 0);
        SNT_CHECK_MSG(moved > 1e-6, "%s: q moved only %g in %d steps", stepped[k], moved, steps);
    }
    return 0;
}

// ---- loads in parallel ----

// the files loaded at once: every reader (URDF, MJCF with includes, USD) and, with shared,
// models with mesh files (OBJ, STL)
static const char* loaded_rel[] = {"models/strandbeest.urdf", "models/humanoid.urdf",
                                   "models/strandbeest.xml", "models/fourbar.usda",
                                   "tests/data/mjcf/features.xml"};
static const char* loaded_shared[] = {"erd_solo/robots/solo12.urdf", "menagerie_panda/panda.xml",
                                      "erd_ur5/urdf/ur5_robot.urdf"};
#define NFILE 8

typedef struct loader {
    const char* path[NFILE];
    int nfile;
    int rounds;
    uint64_t hash[NFILE]; // a world's state hash with the model (its fingerprint in it)
    int bad;
} loader;

static void* load_all(void* arg) {
    loader* l = arg;
    for (int r = 0; r < l->rounds; r++)
        for (int i = 0; i < l->nfile; i++) {
            sn_model* m = NULL;
            uint64_t h = 0;
            if (load(l->path[i], &m) != SN_OK || tc_model_hash(m, &h) != SN_OK) {
                l->bad++;
            } else if (r == 0) {
                l->hash[i] = h;
            } else if (h != l->hash[i]) {
                l->bad++;
            }
            sn_model_destroy(m);
        }
    return NULL;
}

static int test_threads_load_models_at_once(void) {
    static char paths[NFILE][2048];
    loader one;
    memset(&one, 0, sizeof one);
    for (size_t i = 0; i < sizeof loaded_rel / sizeof loaded_rel[0]; i++) {
        snprintf(paths[one.nfile], sizeof paths[0], "%s/%s", SNT_SOURCE_DIR, loaded_rel[i]);
        one.path[one.nfile] = paths[one.nfile];
        one.nfile++;
    }
    for (size_t i = 0; i < sizeof loaded_shared / sizeof loaded_shared[0] && tc_model_path("");
         i++) {
        snprintf(paths[one.nfile], sizeof paths[0], "%s", tc_model_path(loaded_shared[i]));
        one.path[one.nfile] = paths[one.nfile];
        one.nfile++;
    }
    one.rounds = 1;
    load_all(&one);
    SNT_CHECK_MSG(one.bad == 0, "%d files failed in one thread", one.bad);
    loader par[NLOADER];
    pthread_t t[NLOADER];
    int started = 0;
    for (int i = 0; i < NLOADER; i++) {
        par[i] = one;
        par[i].rounds = 2;
        // each thread starts at another file, so that different readers run at once
        for (int f = 0; f < one.nfile; f++)
            par[i].path[f] = one.path[(f + i) % one.nfile];
        if (pthread_create(&t[i], NULL, load_all, &par[i]) == 0) started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    SNT_CHECK_MSG(started == NLOADER, "%d of %d threads started", started, NLOADER);
    for (int i = 0; i < NLOADER; i++) {
        SNT_CHECK_MSG(par[i].bad == 0, "thread %d: %d loads failed or differed", i, par[i].bad);
        for (int f = 0; f < one.nfile; f++)
            SNT_CHECK_MSG(par[i].hash[f] == one.hash[(f + i) % one.nfile],
                          "thread %d: %s loads as another model than in one thread", i,
                          par[i].path[f]);
    }
    printf("  %d threads loaded %d files twice each at once, the models one thread loads (%s)\n",
           NLOADER, one.nfile, tc_model_path("") ? "shared meshes included" : "without shared");
    return 0;
}

SNT_SUITE(SNT_TEST(test_two_threads_step_one_model_bit_for_bit),
          SNT_TEST(test_threads_load_models_at_once))
