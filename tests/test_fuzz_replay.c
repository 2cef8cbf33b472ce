// SPDX-License-Identifier: Apache-2.0
// test_fuzz_replay.c: the fuzz targets' harness (tests/fuzz/harness.c) without libFuzzer: every
// input committed under tests/fuzz/regressions/<format>/ replayed through its format's harness
// (in the sanitizer build this is the check that a fixed crash stays fixed), and the seeds the
// fuzzer starts from (the project's own models, the mesh seeds, the checkpoint seeds) loaded,
// stepped and checkpointed by it. The harness aborts on a crash's sign it can see (a refusal
// without a message, a checkpoint that does not load back); the sanitizers report the rest.
#include "common.h"
#include "fuzz/harness.h"
#include "harness/snt.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_DIR SNT_SOURCE_DIR "/tests/fuzz"

// the bytes of a file (malloc'd, *n its size), or NULL
static uint8_t* read_all(const char* path, size_t* n) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    uint8_t* b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t* nb = realloc(b, cap *= 2);
            if (!nb) free(b);
            b = nb;
        }
    }
    fclose(f);
    *n = len;
    return b;
}

// each regular file of dir through fn: the number replayed and of them loaded, -1 when a file
// cannot be read
static int replay_dir(const char* dir, snf_fn fn, int* loaded) {
    DIR* d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent* e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        size_t len = 0;
        uint8_t* b = read_all(path, &len);
        if (!b) {
            fprintf(stderr, "  cannot read %s\n", path);
            n = -1;
            break;
        }
        *loaded += fn(b, len);
        free(b);
        n++;
    }
    closedir(d);
    return n;
}

static int test_regressions_replay(void) {
    DIR* d = opendir(FUZZ_DIR "/regressions");
    SNT_CHECK_MSG(d != NULL, "no %s", FUZZ_DIR "/regressions");
    int total = 0, loaded = 0, formats = 0;
    struct dirent* e;
    int bad = 0;
    while ((e = readdir(d)) && !bad) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/regressions/%s", FUZZ_DIR, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        snf_fn fn = snf_find(e->d_name);
        if (!fn) {
            fprintf(stderr, "  regressions/%s: not a format of the harness\n", e->d_name);
            bad = 1;
            break;
        }
        int l = 0, n = replay_dir(path, fn, &l);
        if (n < 0) bad = 1;
        printf("  regressions/%s: %d inputs replayed, %d of them loaded\n", e->d_name, n, l);
        total += n > 0 ? n : 0;
        loaded += l;
        formats++;
    }
    closedir(d);
    SNT_CHECK(!bad);
    printf("  %d regression inputs of %d formats replayed without a sanitizer report\n", total,
           formats);
    return 0;
}

// every file of dir ending in ext through fn: all must load (the project's own files)
static int seeds_load(const char* dir, const char* ext, snf_fn fn, int min) {
    char* files[256];
    int n = tc_list_files(dir, ext, files, 256), bad = 0, loaded = 0;
    for (int i = 0; i < n; i++) {
        size_t len = 0;
        uint8_t* b = read_all(files[i], &len);
        if (b && fn(b, len))
            loaded++;
        else if (!bad++)
            fprintf(stderr, "  %s: refused by the harness\n", files[i]);
        free(b);
        free(files[i]);
    }
    printf("  %s/*%s: %d of %d loaded and stepped\n", dir, ext, loaded, n);
    SNT_CHECK_MSG(bad == 0, "%d seeds of %s/*%s refused", bad, dir, ext);
    SNT_CHECK_MSG(n >= min, "%d seeds in %s, expected at least %d", n, dir, min);
    return 0;
}

static int test_model_seeds_load_and_step(void) {
    int r = seeds_load(SNT_SOURCE_DIR "/models", ".urdf", snf_urdf, 10);
    r |= seeds_load(SNT_SOURCE_DIR "/models", ".xml", snf_mjcf, 1);
    r |= seeds_load(SNT_SOURCE_DIR "/models", ".usda", snf_usd, 2);
    r |= seeds_load(SNT_SOURCE_DIR "/tests/data/mjcf", ".xml", snf_mjcf, 10);
    r |= seeds_load(FUZZ_DIR "/seeds/obj", ".obj", snf_obj, 2);
    r |= seeds_load(FUZZ_DIR "/seeds/stl", ".stl", snf_stl, 2);
    return r;
}

static int test_checkpoint_seeds_load_and_step(void) {
    char dir[] = "/tmp/sn_fuzz_XXXXXX";
    SNT_CHECK(mkdtemp(dir) != NULL);
    int rc = snf_write_checkpoint_seeds(dir);
    int r = rc == 0 ? seeds_load(dir, ".bin", snf_checkpoint, 4) : 1;
    char* files[16];
    int n = tc_list_files(dir, ".bin", files, 16);
    for (int i = 0; i < n; i++) {
        unlink(files[i]);
        free(files[i]);
    }
    rmdir(dir);
    SNT_CHECK_MSG(rc == 0, "snf_write_checkpoint_seeds failed");
    return r;
}

// the same bytes refused by every harness: empty, and text of another format
static int test_foreign_inputs_refused(void) {
    static const char* names[] = {"urdf", "mjcf", "usd", "obj", "stl", "checkpoint"};
    static const char junk[] = "<robot name=\"r\"><link name=\"a\"/><mujoco>";
    for (int i = 0; i < 6; i++) {
        snf_fn fn = snf_find(names[i]);
        SNT_CHECK(fn != NULL);
        SNT_CHECK_MSG(fn((const uint8_t*)"", 0) == 0, "%s: empty input loaded", names[i]);
        SNT_CHECK_MSG(fn((const uint8_t*)junk, sizeof junk - 1) == 0, "%s: '%s' loaded", names[i],
                      junk);
    }
    SNT_CHECK(snf_find("dae") == NULL);
    return 0;
}

// what the OBJ fuzzer found: a face index beyond the range of long (strtol gives LONG_MIN) was
// negated, undefined behaviour; it is refused as a face that refers to no vertex
static int test_obj_face_index_beyond_long_refused(void) {
    char path[] = "/tmp/sn_fuzz_obj_XXXXXX.obj";
    int fd = mkstemps(path, 4);
    SNT_CHECK(fd >= 0);
    static const char obj[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -99999999999999999999999\n";
    SNT_CHECK(write(fd, obj, sizeof obj - 1) == (ssize_t)(sizeof obj - 1));
    close(fd);
    sn_mesh_data md;
    sn_error err;
    sn_status st = sn_mesh_read(path, NULL, &md, &err);
    unlink(path);
    SNT_CHECK_MSG(st == SN_ERR_PARSE, "sn_mesh_read returned %s", sn_status_str(st));
    SNT_CHECK_MSG(strstr(err.msg, ":4: a face refers to no vertex") != NULL, "message '%s'",
                  err.msg);
    return 0;
}

// what the checkpoint fuzzer found: a box on the ground spinning at 4e175 rad/s fails its step
// (SN_ERR_NONFINITE); the state is put back, and the failed solve's non-finite impulses must not
// stay in the contact reports, or the world's own checkpoint is refused and the NaNs become the
// next step's warm start
static int test_failed_step_leaves_no_nan(void) {
    static const char urdf[] =
        "<robot name='box'><link name='base'><inertial><mass value='1'/>"
        "<inertia ixx='0.02' iyy='0.02' izz='0.02' ixy='0' ixz='0' iyz='0'/></inertial>"
        "<collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link></robot>";
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load_urdf_string(urdf, sizeof urdf - 1, "box.urdf", NULL, NULL, &m, &err));
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, &err));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, &err));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double q[7] = {0, 0, 0.0999, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    for (int k = 0; k < 5; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK(sn_system_contact_count(s) > 0);
    double q0[7], u0[6];
    memcpy(q0, sn_system_q(s), sizeof q0);
    memcpy(u0, sn_system_u(s), sizeof u0);
    u0[3] = u0[4] = 4e175;
    SNT_STATUS_OK(sn_system_set_state(s, q0, 7, u0, 6));
    sn_status st = sn_world_integrate(w);
    SNT_CHECK_MSG(st == SN_ERR_NONFINITE, "the spinning box's step returned %s", sn_status_str(st));
    SNT_CHECK(!memcmp(q0, sn_system_q(s), sizeof q0) && !memcmp(u0, sn_system_u(s), sizeof u0));
    int nc = sn_system_contact_count(s);
    for (int c = 0; c < nc; c++) {
        sn_contact ct;
        SNT_STATUS_OK(sn_system_contact(s, c, &ct));
        SNT_CHECK_MSG(isfinite(ct.impulse[0]) && isfinite(ct.impulse[1]) && isfinite(ct.impulse[2]),
                      "contact %d of the failed step has impulse (%g, %g, %g)", c, ct.impulse[0],
                      ct.impulse[1], ct.impulse[2]);
    }
    size_t n = 0, written = 0;
    SNT_STATUS_OK(sn_world_checkpoint_size(w, &n));
    void* buf = malloc(n);
    SNT_CHECK(buf);
    SNT_STATUS_OK(sn_world_save_state(w, buf, n, &written));
    st = sn_world_load_state(w, buf, written);
    free(buf);
    SNT_CHECK_MSG(st == SN_OK, "the world's checkpoint after a failed step: %s",
                  sn_world_last_error(w));
    // the box set back at rest steps on, with finite impulses
    u0[3] = u0[4] = 0;
    SNT_STATUS_OK(sn_system_set_state(s, q0, 7, u0, 6));
    SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK(sn_system_contact_count(s) > 0);
    sn_contact ct;
    SNT_STATUS_OK(sn_system_contact(s, 0, &ct));
    SNT_CHECK(isfinite(ct.impulse[2]) && ct.impulse[2] > 0);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_obj_face_index_beyond_long_refused),
          SNT_TEST(test_failed_step_leaves_no_nan), SNT_TEST(test_regressions_replay),
          SNT_TEST(test_model_seeds_load_and_step), SNT_TEST(test_checkpoint_seeds_load_and_step),
          SNT_TEST(test_foreign_inputs_refused))
