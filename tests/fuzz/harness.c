// SPDX-License-Identifier: Apache-2.0
// harness.c: the readers under arbitrary bytes (harness.h). A model that loads is added to a world
// with a ground plane and the file's settings (sn_system_apply_file), stepped 10 times, its
// energies and contacts read, its checkpoint saved and loaded back; a mesh becomes a convex
// body dropped on the ground; a checkpoint is loaded into a fixed world (the four-bar and a box)
// and stepped. Compiled with the library's sanitizers; no global state survives an input except
// the checkpoint world's model, loaded once.
#include "harness.h"

#include "sinew/sn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SNF_MODELS_DIR
#error "SNF_MODELS_DIR: the repository's models/ folder"
#endif

#define SNF_STEPS 10

// a broken promise of the API: report it and abort (a crash for libFuzzer, a failed replay)
#define SNF_CHECK(c, ...)                                                                          \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "snf: %s:%d: %s: ", __FILE__, __LINE__, #c);                           \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

// the options every load gets: fuzzed files stay small, so do their models (fast executions)
static sn_load_opts load_opts(void) {
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.max_file_bytes = (size_t)1 << 20;
    o.max_links = 2000;
    o.package_dir = SNF_MODELS_DIR;
    return o;
}

// a refusal keeps its promise: no model, the status in err, a message
static void check_refusal(sn_status st, const sn_model* m, const sn_error* err, const char* what) {
    SNF_CHECK(m == NULL, "%s refused (%s) but returned a model", what, sn_status_str(st));
    SNF_CHECK(err->code == st, "%s returned %s, err.code %s", what, sn_status_str(st),
              sn_status_str(err->code));
    SNF_CHECK(err->msg[0] != 0, "%s refused (%s) without a message", what, sn_status_str(st));
}

// the checkpoint of w saved and loaded back (the world is unchanged by it)
static void checkpoint_round_trip(sn_world* w) {
    size_t n = 0;
    if (sn_world_checkpoint_size(w, &n) != SN_OK) return;
    void* buf = malloc(n);
    SNF_CHECK(buf != NULL, "out of memory");
    size_t written = 0;
    sn_status st = sn_world_save_state(w, buf, n, &written);
    SNF_CHECK(st == SN_OK, "save_state: %s: %s", sn_status_str(st), sn_world_last_error(w));
    SNF_CHECK(written == n, "save_state wrote %zu bytes, checkpoint_size %zu", written, n);
    st = sn_world_load_state(w, buf, written);
    SNF_CHECK(st == SN_OK, "the world's own checkpoint is refused: %s: %s", sn_status_str(st),
              sn_world_last_error(w));
    free(buf);
}

// the state of every system of w, concatenated (q then u of each); its length in n
static sn_real* world_state(sn_world* w, size_t* n) {
    size_t len = 0;
    for (int i = 0; i < sn_world_system_count(w); i++) {
        const sn_model* m = sn_system_model(sn_world_system(w, i));
        len += (size_t)(m->nq + m->nv);
    }
    sn_real* x = malloc((len ? len : 1) * sizeof(sn_real));
    SNF_CHECK(x != NULL, "out of memory");
    size_t at = 0;
    for (int i = 0; i < sn_world_system_count(w); i++) {
        sn_system* s = sn_world_system(w, i);
        const sn_model* m = sn_system_model(s);
        memcpy(x + at, sn_system_q(s), (size_t)m->nq * sizeof(sn_real));
        memcpy(x + at + m->nq, sn_system_u(s), (size_t)m->nv * sizeof(sn_real));
        at += (size_t)(m->nq + m->nv);
    }
    *n = len;
    return x;
}

// steps w up to SNF_STEPS times (a failed step ends it: it has a message and leaves the state as
// it was, bit for bit) and reads its reports
static void step_world(sn_world* w) {
    for (int k = 0; k < SNF_STEPS; k++) {
        size_t n0 = 0, n1 = 0;
        sn_real* before = world_state(w, &n0);
        sn_status st = sn_world_integrate(w);
        if (st != SN_OK) {
            const char* e = sn_world_last_error(w);
            SNF_CHECK(e && e[0], "a step failed (%s) without a message", sn_status_str(st));
            sn_real* after = world_state(w, &n1);
            SNF_CHECK(n0 == n1 && memcmp(before, after, n0 * sizeof(sn_real)) == 0,
                      "a failed step (%s) changed the state", sn_status_str(st));
            free(after);
            free(before);
            break;
        }
        free(before);
    }
    for (int i = 0; i < sn_world_system_count(w); i++) {
        sn_system* s = sn_world_system(w, i);
        volatile double e = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
        (void)e;
        for (int c = 0; c < sn_system_contact_count(s); c++) {
            sn_contact ct;
            SNF_CHECK(sn_system_contact(s, c, &ct) == SN_OK, "contact %d of %d not readable", c,
                      sn_system_contact_count(s));
        }
    }
}

// a loaded model simulated as `sinew run` would (the file's settings, a ground), then freed
static void simulate_model(sn_model* m) {
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    if (sn_world_create(NULL, &w, &err) != SN_OK) {
        sn_model_destroy(m);
        return;
    }
    if (sn_world_add_system(w, m, &s, &err) == SN_OK) {
        sn_setup_opts so;
        memset(&so, 0, sizeof so);
        so.ground = SN_GROUND_ON;
        if (sn_system_apply_file(s, &so, NULL) != SN_OK) {
            const char* e = sn_world_last_error(w);
            SNF_CHECK(e && e[0], "sn_system_apply_file refused without a message");
        }
        step_world(w);
        checkpoint_round_trip(w);
    } else {
        SNF_CHECK(err.msg[0] != 0, "sn_world_add_system refused without a message");
    }
    sn_world_destroy(w);
    sn_model_destroy(m);
}

typedef sn_status (*load_fn)(const char* text, size_t len, const sn_load_opts* o, sn_model** out,
                             sn_error* err);

static sn_status load_urdf(const char* t, size_t n, const sn_load_opts* o, sn_model** out,
                           sn_error* err) {
    return sn_load_urdf_string(t, n, "fuzz.urdf", SNF_MODELS_DIR, o, out, err);
}
static sn_status load_mjcf(const char* t, size_t n, const sn_load_opts* o, sn_model** out,
                           sn_error* err) {
    return sn_load_mjcf_string(t, n, "fuzz.xml", SNF_MODELS_DIR, o, out, err);
}
static sn_status load_usd(const char* t, size_t n, const sn_load_opts* o, sn_model** out,
                          sn_error* err) {
    return sn_load_usd_string(t, n, "fuzz.usda", o, out, err);
}

static int load_and_simulate(const uint8_t* data, size_t size, load_fn load, const char* what) {
    // the bytes in a buffer of their own size: a read past the input is a sanitizer's report
    char* text = malloc(size ? size : 1);
    SNF_CHECK(text != NULL, "out of memory");
    if (size) memcpy(text, data, size);
    sn_load_opts o = load_opts();
    sn_model* m = NULL;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = load(text, size, &o, &m, &err);
    free(text);
    if (st != SN_OK) {
        check_refusal(st, m, &err, what);
        return 0;
    }
    SNF_CHECK(m != NULL, "%s succeeded without a model", what);
    simulate_model(m);
    return 1;
}

int snf_urdf(const uint8_t* data, size_t size) {
    return load_and_simulate(data, size, load_urdf, "sn_load_urdf_string");
}
int snf_mjcf(const uint8_t* data, size_t size) {
    return load_and_simulate(data, size, load_mjcf, "sn_load_mjcf_string");
}
int snf_usd(const uint8_t* data, size_t size) {
    return load_and_simulate(data, size, load_usd, "sn_load_usd_string");
}

// ---- meshes: read from a file (the readers take paths) ----

static char mesh_path[2][512];

static void remove_mesh_files(void) {
    for (int i = 0; i < 2; i++)
        if (mesh_path[i][0]) unlink(mesh_path[i]);
}

// the bytes written to this process's mesh file of extension ext; its path, or NULL
static const char* write_mesh(const uint8_t* data, size_t size, int which, const char* ext) {
    if (!mesh_path[which][0]) {
        const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        const char* env = getenv("TMPDIR");
        if (env && env[0]) dir = env;
        snprintf(mesh_path[which], sizeof mesh_path[which], "%s/snf_%ld.%s", dir, (long)getpid(),
                 ext);
        static int registered = 0;
        if (!registered) atexit(remove_mesh_files);
        registered = 1;
    }
    FILE* f = fopen(mesh_path[which], "wb");
    if (!f) return NULL;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    int bad = fclose(f) != 0 || put != size;
    return bad ? NULL : mesh_path[which];
}

static int mesh(const uint8_t* data, size_t size, int which, const char* ext) {
    const char* path = write_mesh(data, size, which, ext);
    if (!path) return 0;
    // the public triangle reader
    sn_mesh_data md;
    memset(&md, 0, sizeof md);
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = sn_mesh_read(path, NULL, &md, &err);
    if (st == SN_OK) {
        for (int t = 0; t < 3 * md.ntri; t++)
            SNF_CHECK(md.tri[t] >= 0 && md.tri[t] < md.nvert, "triangle index %d of %d vertices",
                      md.tri[t], md.nvert);
        sn_mesh_data_free(&md);
    } else {
        SNF_CHECK(err.msg[0] != 0, "sn_mesh_read refused (%s) without a message",
                  sn_status_str(st));
        SNF_CHECK(md.nvert == 0 && md.vert == NULL && md.tri == NULL,
                  "sn_mesh_read failed but left a mesh");
    }
    // the convex body of its hull, dropped on the ground
    sn_world* w = NULL;
    if (sn_world_create(NULL, &w, NULL) != SN_OK) return 0;
    sn_system* s = NULL;
    int loaded = 0;
    if (sn_world_add_mesh(w, path, NULL, 1.0, &s) == SN_OK) {
        loaded = 1;
        const sn_real* q0 = sn_system_q(s);
        sn_real q[7];
        memcpy(q, q0, sizeof q);
        q[2] += 0.5;
        sn_system_set_q(s, q, 7);
        sn_world_set_ground(w, 1, 0);
        step_world(w);
        checkpoint_round_trip(w);
    } else {
        const char* e = sn_world_last_error(w);
        SNF_CHECK(e && e[0], "sn_world_add_mesh refused without a message");
    }
    sn_world_destroy(w);
    return loaded;
}

int snf_obj(const uint8_t* data, size_t size) {
    return mesh(data, size, 0, "obj");
}
int snf_stl(const uint8_t* data, size_t size) {
    return mesh(data, size, 1, "stl");
}

// ---- checkpoints: loaded into a fixed world ----

static sn_model* fourbar;

static void free_fourbar(void) {
    sn_model_destroy(fourbar);
    fourbar = NULL;
}

// the checkpoint harness's world: the four-bar (a loop, joint limits) as its file says with a
// ground, and a 0.2 m box resting on the ground beside it; NULL on failure
static sn_world* checkpoint_world(void) {
    if (!fourbar) {
        sn_load_opts o = load_opts();
        sn_error err;
        if (sn_load_urdf(SNF_MODELS_DIR "/fourbar.urdf", &o, &fourbar, &err) != SN_OK) {
            fprintf(stderr, "snf: %s\n", err.msg);
            return NULL;
        }
        atexit(free_fourbar);
    }
    sn_world* w = NULL;
    sn_system *s = NULL, *box = NULL;
    if (sn_world_create(NULL, &w, NULL) != SN_OK) return NULL;
    sn_setup_opts so;
    memset(&so, 0, sizeof so);
    so.ground = SN_GROUND_ON;
    const sn_real size[3] = {0.2, 0.2, 0.2};
    sn_real q[7] = {1, 0, 0.1005, 1, 0, 0, 0};
    if (sn_world_add_system(w, fourbar, &s, NULL) != SN_OK ||
        sn_system_apply_file(s, &so, NULL) != SN_OK ||
        sn_world_add_box(w, size, 2.0, &box) != SN_OK || sn_system_set_q(box, q, 7) != SN_OK) {
        sn_world_destroy(w);
        return NULL;
    }
    return w;
}

static void put_u64(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

// the input with its size field (bytes 16-23) and its checksum (the last 8 bytes, FNV-1a 64 of
// the rest) made right, so that mutations reach the body's checks (docs/state.md, "Format");
// inputs shorter than the header are loaded as they are
static uint8_t* fix_checkpoint(const uint8_t* data, size_t size) {
    uint8_t* b = malloc(size ? size : 1);
    SNF_CHECK(b != NULL, "out of memory");
    if (size) memcpy(b, data, size);
    if (size >= 40) {
        put_u64(b + 16, (uint64_t)size);
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i + 8 < size; i++)
            h = (h ^ b[i]) * 0x100000001b3ull;
        put_u64(b + size - 8, h);
    }
    return b;
}

int snf_checkpoint(const uint8_t* data, size_t size) {
    sn_world* w = checkpoint_world();
    SNF_CHECK(w != NULL, "the checkpoint world cannot be made");
    uint8_t* b = fix_checkpoint(data, size);
    sn_status st = sn_world_load_state(w, b, size);
    free(b);
    int loaded = st == SN_OK;
    if (loaded) {
        step_world(w);
        checkpoint_round_trip(w);
    } else {
        const char* e = sn_world_last_error(w);
        SNF_CHECK(e && e[0], "sn_world_load_state refused (%s) without a message",
                  sn_status_str(st));
    }
    sn_world_destroy(w);
    return loaded;
}

int snf_write_checkpoint_seeds(const char* dir) {
    static const int steps[] = {0, 1, 7, 40};
    sn_world* w = checkpoint_world();
    if (!w) return -1;
    int done = 0, rc = 0;
    for (int i = 0; i < 4 && rc == 0; i++) {
        while (done < steps[i] && rc == 0) {
            rc = sn_world_integrate(w) == SN_OK ? 0 : -1;
            done++;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/checkpoint_%d.bin", dir, steps[i]);
        if (rc == 0 && sn_world_save_state_file(w, path) != SN_OK) rc = -1;
    }
    sn_world_destroy(w);
    return rc;
}

snf_fn snf_find(const char* format) {
    static const struct {
        const char* name;
        snf_fn fn;
    } table[] = {{"urdf", snf_urdf}, {"mjcf", snf_mjcf}, {"usd", snf_usd},
                 {"obj", snf_obj},   {"stl", snf_stl},   {"checkpoint", snf_checkpoint}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].name, format)) return table[i].fn;
    return NULL;
}
