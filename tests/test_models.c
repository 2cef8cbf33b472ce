// SPDX-License-Identifier: Apache-2.0
// test_models.c: every URDF in ../shared/models loads, or fails with the reason stated here
// for the files that are broken for dynamics; the bundled models load without warnings and
// match their analytic numbers.
#include "common.h"
#include "harness/snt.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// files that must fail, with a substring of the reason
static const struct {
    const char* suffix;
    const char* reason;
} broken[] = {
    // romeo.urdf's finger links have mass 0 and zero inertia but are moved by revolute joints
    {"erd_romeo/urdf/romeo.urdf", "have no mass or inertia about its axis"},
};

static int walk(const char* dir, int* loaded, int* failed_as_expected) {
    DIR* dp = opendir(dir);
    if (!dp) return 0;
    struct dirent* e;
    int bad = 0;
    while ((e = readdir(dp)) && !bad) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            bad = walk(path, loaded, failed_as_expected);
            continue;
        }
        size_t n = strlen(path);
        if (n < 5 || strcmp(path + n - 5, ".urdf") != 0) continue;
        const char* reason = NULL;
        for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++) {
            size_t ls = strlen(broken[k].suffix);
            if (n >= ls && !strcmp(path + n - ls, broken[k].suffix)) reason = broken[k].reason;
        }
        sn_model* m = NULL;
        sn_error err;
        sn_status s = sn_load_urdf(path, NULL, &m, &err);
        if (reason) {
            if (s == SN_OK || !strstr(err.msg, reason) || !strstr(err.msg, path)) {
                fprintf(stderr, "  %s: expected failure '%s', got %s: %s\n", path, reason,
                        sn_status_str(s), s ? err.msg : "");
                bad = 1;
            } else {
                ++*failed_as_expected;
            }
        } else if (s != SN_OK) {
            fprintf(stderr, "  %s does not load: %s\n", path, err.msg);
            bad = 1;
        } else {
            // a loaded model has a valid state and a positive definite mass matrix
            sn_data* d = NULL;
            if (sn_data_create(m, NULL, &d, NULL) != SN_OK)
                bad = 1;
            else {
                sn_fk(m, d);
                sn_crba(m, d);
                if (sn_factor_mass(m, d) != SN_OK) bad = 1;
                sn_data_destroy(d);
            }
            ++*loaded;
        }
        sn_model_destroy(m);
    }
    closedir(dp);
    return bad;
}

static int test_every_shared_urdf(void) {
    const char* dir = tc_shared_dir();
    if (!dir) {
        printf("  ../shared is absent: skipped\n");
        return SNT_SKIP;
    }
    char models[1024];
    snprintf(models, sizeof models, "%s/models", dir);
    int loaded = 0, failed = 0;
    SNT_CHECK(walk(models, &loaded, &failed) == 0);
    printf("  %d URDF files loaded, %d failed with their stated reason\n", loaded, failed);
    SNT_CHECK(loaded >= 14);
    SNT_CHECK(failed == (int)(sizeof broken / sizeof broken[0]));
    return 0;
}

// the real models' sizes, as their READMEs state them
static int test_shared_model_sizes(void) {
    static const struct {
        const char* path;
        int nq, nv, floating;
    } want[] = {
        {"raisim_anymal_c/urdf/anymal.urdf", 19, 18, 1},
        {"erd_anymal_c/urdf/anymal.urdf", 19, 18, 1},
        {"raisim_kinova/urdf/kinova.urdf", 6, 6, 0},
        {"erd_ur5/urdf/ur5_robot.urdf", 6, 6, 0},
        {"raisim_laikago/laikago.urdf", 19, 18, 1},
        {"erd_solo/robots/solo12.urdf", 19, 18, 1},
        {"tsid_romeo/urdf/romeo.urdf", 38, 37, 1},
        {"raisim_minitaur/minitaur.urdf", 23, 22, 1},
    };
    if (!tc_shared_dir()) return SNT_SKIP;
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        sn_model* m = tc_load_file(tc_model_path(want[k].path), 1);
        SNT_CHECK_MSG(m, "%s", want[k].path);
        SNT_CHECK_MSG(m->nq == want[k].nq && m->nv == want[k].nv &&
                          m->is_floating == want[k].floating,
                      "%s: nq %d nv %d floating %d", want[k].path, m->nq, m->nv, m->is_floating);
        sn_model_destroy(m);
    }
    // minitaur's constraints: 4 pins and a nominal configuration of nq entries
    sn_model* m = tc_load_file(tc_model_path("raisim_minitaur/minitaur.urdf"), 1);
    SNT_CHECK(m && m->nconstraint == 4 && m->nominal_config);
    for (int i = 0; i < 4; i++)
        SNT_CHECK(m->constraint_type[i] == SN_CONSTRAINT_PIN);
    sn_model_destroy(m);
    return 0;
}

// bundled models: no warnings, and the simple pendulum's numbers
static int test_bundled_models(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/pendulum.urdf", SNT_SOURCE_DIR);
    sn_model* m = tc_load_file(path, 0);
    SNT_CHECK(m);
    SNT_CHECK(m->nq == 1 && m->nv == 1 && !m->is_floating);
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    sn_fk(m, d);
    sn_crba(m, d);
    // m L^2 + I_sphere = 1 + 4e-5
    SNT_NEAR(d->mass_matrix[0], 1.00004, 1e-14);
    sn_data_destroy(d);
    sn_model_destroy(m);
    snprintf(path, sizeof path, "%s/models/double_pendulum.urdf", SNT_SOURCE_DIR);
    m = tc_load_file(path, 0);
    SNT_CHECK(m && m->nv == 2);
    SNT_CHECK(sn_model_find(m, SN_OBJ_FRAME, "tip") >= 0);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_every_shared_urdf), SNT_TEST(test_shared_model_sizes),
          SNT_TEST(test_bundled_models))
