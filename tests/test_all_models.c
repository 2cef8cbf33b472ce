// SPDX-License-Identifier: Apache-2.0
// test_all_models.c: every URDF and MJCF file under shared/models loaded (sn_load, by content),
// given its file's settings with a ground (sn_system_apply_file) and stepped 50 times, so that
// the sanitizer build runs the readers, the compiler and the step on every shared model (issue 17
// finding 1). A file that does not load fails the test unless it is in the list of expected
// refusals below, whose refusal is checked, message included. Without shared: skipped.
#include "common.h"
#include "harness/snt.h"

#define STEPS 50

// files of shared/models that sinew refuses on purpose: the path under models/, why, and a
// fragment of the message the refusal must keep giving
static const struct {
    const char* file;
    const char* fragment;
} expected_refusals[] = {
    // example-robot-data's full Romeo: its thumbs' last links have no <inertial>, so joint
    // RThumb3 moves nothing with mass (the mass check of docs/urdf.md; romeo_small.urdf and
    // tsid_romeo load)
    {"erd_romeo/urdf/romeo.urdf",
     "the bodies moved by joint 'RThumb3' have no mass or inertia about its axis"},
    // MuJoCo's two test models with every feature hold an sdf geom (a MuJoCo 3 plugin shape)
    {"mujoco_equality_tests/engine/testdata/solver/model.xml", "geom type 'sdf' is not supported"},
    {"mujoco_equality_tests/testdata/model.xml", "geom type 'sdf' is not supported"},
};

static const char* expected_refusal(const char* rel) {
    for (size_t i = 0; i < sizeof expected_refusals / sizeof expected_refusals[0]; i++)
        if (!strcmp(expected_refusals[i].file, rel)) return expected_refusals[i].fragment;
    return NULL;
}

// one file: 0 when it behaved (loaded and stepped, or refused as listed), 1 otherwise
static int run_file(const char* path, const char* rel, int* loaded, int* refused, long* steps) {
    const char* fragment = expected_refusal(rel);
    sn_model* m = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = sn_load(path, NULL, &m, &err);
    if (fragment) {
        SNT_CHECK_MSG(st != SN_OK, "%s: listed as refused, but it loads", rel);
        SNT_CHECK_MSG(strstr(err.msg, fragment) != NULL,
                      "%s: refused with '%s', expected a message with '%s'", rel, err.msg,
                      fragment);
        (*refused)++;
        return 0;
    }
    SNT_CHECK_MSG(st == SN_OK, "%s: not loaded: %s (%s line %d, %s)", rel, err.msg,
                  sn_status_str(st), err.line, err.element);
    sn_world* w = NULL;
    sn_system* s = NULL;
    st = tc_world_open(m, 0.001, &w, &s);
    if (st != SN_OK) sn_model_destroy(m);
    SNT_CHECK_MSG(st == SN_OK, "%s: no world: %s", rel, sn_status_str(st));
    sn_setup_opts so;
    memset(&so, 0, sizeof so);
    so.ground = SN_GROUND_ON;
    st = sn_system_apply_file(s, &so, NULL);
    int bad = 0;
    if (st != SN_OK) {
        fprintf(stderr, "  %s: sn_system_apply_file: %s\n", rel, sn_world_last_error(w));
        bad = 1;
    }
    for (int k = 0; k < STEPS && !bad; k++) {
        st = sn_world_integrate(w);
        if (st != SN_OK) {
            fprintf(stderr, "  %s: step %d: %s: %s\n", rel, k, sn_status_str(st),
                    sn_world_last_error(w));
            bad = 1;
        }
        (*steps)++;
    }
    const sn_real* q = sn_system_q(s);
    const sn_real* u = sn_system_u(s);
    for (int i = 0; i < m->nq && !bad; i++)
        if (!isfinite(q[i])) bad = fprintf(stderr, "  %s: q[%d] = %g\n", rel, i, q[i]) > 0;
    for (int i = 0; i < m->nv && !bad; i++)
        if (!isfinite(u[i])) bad = fprintf(stderr, "  %s: u[%d] = %g\n", rel, i, u[i]) > 0;
    sn_world_destroy(w);
    sn_model_destroy(m);
    if (!bad) (*loaded)++;
    return bad;
}

static int test_every_shared_model_loads_and_steps(void) {
    char* files[512];
    int n = tc_shared_model_files(files, 512);
    if (n < 0) {
        printf("  shared/models is absent: skipped\n");
        return SNT_SKIP;
    }
    int bad = 0, loaded = 0, refused = 0;
    long steps = 0;
    for (int i = 0; i < n; i++) {
        const char* rel = tc_shared_relative(files[i]);
        while (*rel == '/')
            rel++;
        bad += run_file(files[i], rel, &loaded, &refused, &steps);
        free(files[i]);
    }
    // every listed refusal names a file that exists (a renamed file would skip its check)
    int listed = (int)(sizeof expected_refusals / sizeof expected_refusals[0]);
    printf("  %d files: %d loaded and stepped %d times (%ld steps), %d refused as listed, %d "
           "failed\n",
           n, loaded, STEPS, steps, refused, bad);
    SNT_CHECK_MSG(refused == listed, "%d refusals listed, %d files refused as listed", listed,
                  refused);
    SNT_CHECK_MSG(bad == 0, "%d shared models failed", bad);
    // the shared models as README.md counts them (15 URDF, 44 MJCF files)
    SNT_CHECK_MSG(n >= 59, "only %d URDF and MJCF files under %s", n, tc_model_path(""));
    return 0;
}

// ---- the same files from directories of every path length ----

// Why the sanitized suite missed the MJCF reader's use-after-free (fixed in 7afa960): its
// string pool holds the resolved mesh paths, so where the pool grows, and whether a pointer
// into it is left dangling, depends on the length of the directory the file is read from.
// Before the fix, panda.xml under ASan failed from directories of 9 of 200 path lengths (75,
// 80, 122, 129, ...) and loaded from shared/models/menagerie_panda (35 characters). Loading
// every shared file once, from one place, cannot see such a bug; this test reads each from
// memory with its directory spelled with 0 to SWEEP extra slashes (the same directory, a
// longer path), and every load must give the model of the path's load. Files with large
// collision meshes (more than HEAVY vertices: Solo's, the Robotiq gripper's; a load takes 0.2 s
// in release, their hulls and mesh inertias) take SWEEP_HEAVY lengths, so that the test stays
// within a minute or two under ASan.
#define SWEEP 64
#define SWEEP_HEAVY 4
#define HEAVY 2000

static int sweep_file(const char* path, const char* rel, long* loads, int* heavy) {
    sn_model* m = NULL;
    sn_format fmt;
    if (sn_file_format(path, &fmt, NULL) != SN_OK || expected_refusal(rel)) return 0;
    if (sn_load(path, NULL, &m, NULL) != SN_OK) return 0; // the test above reports it
    uint64_t want = 0;
    sn_status st = tc_model_hash(m, &want);
    int sweep = m->nmeshvert > HEAVY ? SWEEP_HEAVY : SWEEP;
    *heavy += sweep == SWEEP_HEAVY;
    sn_model_destroy(m);
    SNT_CHECK_MSG(st == SN_OK, "%s: no world", rel);
    size_t n = 0;
    char* text = tc_read_file(path, &n);
    SNT_CHECK_MSG(text != NULL, "%s: cannot read", rel);
    char dir[2048 + SWEEP];
    snprintf(dir, 2048, "%s", path);
    char* slash = strrchr(dir, '/');
    *slash = 0;
    size_t dl = strlen(dir);
    int bad = 0;
    for (int k = 0; k <= sweep && !bad; k++) {
        memset(dir + dl, '/', (size_t)k);
        dir[dl + (size_t)k] = 0;
        sn_error err;
        st = fmt == SN_FORMAT_MJCF ? sn_load_mjcf_string(text, n, rel, dir, NULL, &m, &err)
                                   : sn_load_urdf_string(text, n, rel, dir, NULL, &m, &err);
        (*loads)++;
        uint64_t h = 0;
        if (st != SN_OK) {
            fprintf(stderr, "  %s from '%s': %s\n", rel, dir, err.msg);
            bad = 1;
        } else if (tc_model_hash(m, &h) != SN_OK || h != want) {
            fprintf(stderr, "  %s from '%s': another model than from its path\n", rel, dir);
            bad = 1;
        }
        sn_model_destroy(m);
    }
    free(text);
    return bad;
}

static int test_every_shared_model_loads_from_any_directory(void) {
    char* files[512];
    int n = tc_shared_model_files(files, 512);
    if (n < 0) {
        printf("  shared/models is absent: skipped\n");
        return SNT_SKIP;
    }
    int bad = 0, heavy = 0;
    long loads = 0;
    for (int i = 0; i < n; i++) {
        bad += sweep_file(files[i], tc_shared_relative(files[i]), &loads, &heavy);
        free(files[i]);
    }
    printf("  %d files loaded from memory %ld times, from their directory spelled with 0 to %d "
           "extra slashes (%d with large meshes 0 to %d): %d differ\n",
           n, loads, SWEEP, heavy, SWEEP_HEAVY, bad);
    SNT_CHECK_MSG(bad == 0, "%d files load differently from another spelling of their directory",
                  bad);
    SNT_CHECK(loads >= (56L - heavy) * (SWEEP + 1));
    return 0;
}

SNT_SUITE(SNT_TEST(test_every_shared_model_loads_and_steps),
          SNT_TEST(test_every_shared_model_loads_from_any_directory))
