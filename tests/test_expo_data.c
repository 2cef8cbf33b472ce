// SPDX-License-Identifier: Apache-2.0
// test_expo_data.c: the Expo paper's scenario data and its plumbing (bench/expo/, issue 13):
// the .npy and .npz readers on the consim reference files (shapes and values NOTES.md gives) and
// on corrupt copies of them; Pinocchio's coordinates <-> sinew's for Solo12 and TSID's Romeo (a
// round trip, Pinocchio's joint order, and the kinetic energy sinew computes from the mapped
// velocity against the one the bodies' finite-differenced motion gives); the SE(3) exp/log and
// Pinocchio's difference/interpolate; the linear feedback of trot and jump (u_ref at the
// reference, u_ref + K dx off it). Skipped without ../shared.
#include "common.h"
#include "controller.h"
#include "harness/snt.h"
#include "id.h"
#include "npy.h"
#include "robot.h"
#include "scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REFS "consim_expo/references"
#define SOLO "erd_solo/robots/solo12_f15b08f_2020-04-28.urdf"
#define ROMEO "tsid_romeo/urdf/romeo.urdf"

static char g_dir[4096];

// path of a shared model file (own buffer per call site)
static int model_path(char* out, size_t n, const char* rel) {
    const char* p = tc_model_path(rel);
    if (!p) return -1;
    snprintf(out, n, "%s", p);
    return 0;
}

#define NEED_SHARED(buf, rel)                                                                      \
    do {                                                                                           \
        if (model_path(buf, sizeof buf, rel) != 0) {                                               \
            printf("  ../shared/models absent\n");                                                 \
            return SNT_SKIP;                                                                       \
        }                                                                                          \
    } while (0)

static unsigned char* slurp(const char* path, size_t* n) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    rewind(f);
    unsigned char* b = malloc((size_t)l + 1);
    if (b && fread(b, 1, (size_t)l, f) != (size_t)l) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)l;
    return b;
}

static int spit(const char* path, const unsigned char* b, size_t n) {
    FILE* f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(b, 1, n, f);
    fclose(f);
    return w == n ? 0 : -1;
}

static void remove_tmpdir(void) {
    if (g_dir[0]) rmdir(g_dir);
}

// a fresh temporary directory for the corrupt copies, removed at exit
static const char* tmpdir(void) {
    if (!g_dir[0]) {
        const char* t = getenv("TMPDIR");
        snprintf(g_dir, sizeof g_dir, "%s/sinew_expo_XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(g_dir))
            g_dir[0] = 0;
        else
            atexit(remove_tmpdir);
    }
    return g_dir;
}

// ---- readers ----

static int read_shape(const char* rel, int ndim, const long* shape, expo_array* a) {
    char p[2048], err[EXPO_ERR_LEN];
    if (model_path(p, sizeof p, rel) != 0) return -1;
    SNT_CHECK_MSG(expo_npy_read(p, a, err) == 0, "%s", err);
    SNT_CHECK_MSG(expo_array_expect(a, rel, ndim, shape, err) == 0, "%s", err);
    return 0;
}

// the shapes of NOTES.md and the first states it quotes
static int test_npy_reference_files(void) {
    char p[2048];
    NEED_SHARED(p, REFS "/trot_feedback.npy");
    struct {
        const char* f;
        long s[3];
    } want[] = {{REFS "/trot_reference_states.npy", {301, 37, 1}},
                {REFS "/trot_reference_controls.npy", {300, 12, 1}},
                {REFS "/trot_feedback.npy", {300, 12, 36}},
                {REFS "/jump_reference_states.npy", {300, 37, 1}},
                {REFS "/jump_reference_controls.npy", {299, 12, 1}},
                {REFS "/jump_feedback.npy", {299, 12, 36}}};
    for (int i = 0; i < 6; i++) {
        expo_array a;
        SNT_CHECK(read_shape(want[i].f, 3, want[i].s, &a) == 0);
        SNT_CHECK(a.size == want[i].s[0] * want[i].s[1] * want[i].s[2]);
        for (long k = 0; k < a.size; k++)
            SNT_CHECK_MSG(isfinite(a.data[k]), "%s[%ld] not finite", want[i].f, k);
        if (i == 0 || i == 3) {
            // first state: base z and joints as NOTES.md lists them (4 digits)
            const double trot[13] = {0.2212,  -0.0221, 0.849,  -1.7507, 0.026,   0.8498, -1.7524,
                                     -0.0221, -0.849,  1.7507, 0.026,   -0.8498, 1.7524};
            const double jump[13] = {0.2431,  -0.0192, 0.6895, -1.4238, 0.0214,  0.6904, -1.4257,
                                     -0.0192, -0.6895, 1.4238, 0.0214,  -0.6904, 1.4257};
            const double* w = i == 0 ? trot : jump;
            SNT_NEAR(a.data[2], w[0], 5e-5);
            for (int j = 0; j < 12; j++)
                SNT_NEAR(a.data[7 + j], w[1 + j], 5e-5);
            double qn = 0, zmax = 0;
            for (int c = 3; c < 7; c++)
                qn += a.data[c] * a.data[c];
            SNT_NEAR(qn, 1, 1e-9);
            for (long k = 0; k < want[i].s[0]; k++)
                zmax = fmax(zmax, a.data[k * 37 + 2]);
            printf("  %s: base z %.4f at the start, %.4f at most\n", want[i].f, a.data[2], zmax);
            if (i == 3) SNT_NEAR(zmax, 0.81, 5e-3);
        }
        expo_array_free(&a);
    }
    return 0;
}

// romeo_walking_traj_tsid.npz: eleven stored members, 2401 samples, the contact phases
static int test_npz_romeo(void) {
    char p[2048], err[EXPO_ERR_LEN];
    NEED_SHARED(p, REFS "/romeo_walking_traj_tsid.npz");
    expo_npz z;
    SNT_CHECK_MSG(expo_npz_open(p, &z, err) == 0, "%s", err);
    SNT_CHECK(z.nmember == 11);
    const char* v3[] = {"com",    "dcom", "ddcom", "x_RF",  "dx_RF",
                        "ddx_RF", "x_LF", "dx_LF", "ddx_LF"};
    long s3[2] = {3, 2401}, s2[2] = {2, 2401};
    expo_array a;
    for (int i = 0; i < 9; i++) {
        SNT_CHECK_MSG(expo_npz_get(&z, v3[i], &a, err) == 0, "%s", err);
        SNT_CHECK_MSG(expo_array_expect(&a, v3[i], 2, s3, err) == 0, "%s", err);
        if (i == 0) {
            // CoM from (0, -0.096, 0.58) to (0.10, 0.096, 0.58); row-major (3, 2401)
            printf("  com from (%.4f %.4f %.4f) to (%.4f %.4f %.4f)\n", a.data[0], a.data[2401],
                   a.data[4802], a.data[2400], a.data[4801], a.data[7202]);
            SNT_NEAR(a.data[0], 0, 5e-3);
            SNT_NEAR(a.data[2401], -0.096, 5e-3);
            SNT_NEAR(a.data[4802], 0.58, 5e-3);
            SNT_NEAR(a.data[2400], 0.10, 5e-3);
            SNT_NEAR(a.data[4801], 0.096, 5e-3);
            SNT_NEAR(a.data[7202], 0.58, 5e-3);
        }
        expo_array_free(&a);
    }
    SNT_CHECK_MSG(expo_npz_get(&z, "cop.npy", &a, err) == 0, "%s", err);
    SNT_CHECK(expo_array_expect(&a, "cop", 2, s2, err) == 0);
    expo_array_free(&a);
    SNT_CHECK_MSG(expo_npz_get(&z, "contact_phase", &a, err) == 0, "%s", err);
    SNT_CHECK(a.ndim == 1 && a.shape[0] == 2401 && a.str && a.str_width == 5 && !a.data);
    // right x600, left x600, right x600, left x600, right x1
    for (long k = 0; k < 2401; k++) {
        const char* s = a.str + k * 6;
        const char* w = ((k / 600) % 2 == 0) ? "right" : "left";
        SNT_CHECK_MSG(strcmp(s, w) == 0, "contact_phase[%ld] = '%s', expected '%s'", k, s, w);
    }
    expo_array_free(&a);
    // a float reader asked for the strings says so
    SNT_CHECK(expo_npz_get(&z, "contact_phase", &a, err) == 0);
    SNT_CHECK(expo_array_expect(&a, "contact_phase", 1, (long[]){2401}, err) != 0);
    SNT_CHECK(strstr(err, "strings") != NULL);
    expo_array_free(&a);
    SNT_CHECK(expo_npz_get(&z, "nothere", &a, err) != 0 && strstr(err, "no such member"));
    printf("  missing member: %s\n", err);
    expo_npz_close(&z);
    return 0;
}

// a corrupt copy must fail with the file's name and `reason` in the message
static int expect_npy_fails(const char* path, const unsigned char* b, size_t n,
                            const char* reason) {
    char err[EXPO_ERR_LEN];
    expo_array a;
    SNT_CHECK(spit(path, b, n) == 0);
    SNT_CHECK_MSG(expo_npy_read(path, &a, err) != 0, "%s (%s) was read", path, reason);
    SNT_CHECK(a.data == NULL && a.str == NULL);
    SNT_CHECK_MSG(strstr(err, path) && strstr(err, reason), "'%s' lacks '%s'", err, reason);
    printf("  %s\n", err + strlen(path) + 2);
    return 0;
}

static void put_header(unsigned char* b, size_t hl, const char* dict) {
    memset(b + 10, ' ', hl);
    memcpy(b + 10, dict, strlen(dict));
    b[10 + hl - 1] = '\n';
}

static int test_npy_corrupt(void) {
    char src[2048];
    NEED_SHARED(src, REFS "/trot_reference_controls.npy");
    size_t n;
    unsigned char* b = slurp(src, &n);
    SNT_CHECK(b != NULL && n > 200);
    size_t hl = (size_t)b[8] | (size_t)b[9] << 8;
    const char* dir = tmpdir();
    SNT_CHECK(dir[0]);
    char path[4200];
    snprintf(path, sizeof path, "%s/bad.npy", dir);
    unsigned char* c = malloc(n);
    SNT_CHECK(c != NULL);
    memcpy(c, b, n);
    SNT_CHECK(expect_npy_fails(path, c, n - 8, "truncated") == 0);
    SNT_CHECK(expect_npy_fails(path, c, 9, "magic") == 0);
    SNT_CHECK(expect_npy_fails(path, c, 0, "magic") == 0);
    SNT_CHECK(expect_npy_fails(path, c, 60, "truncated: header") == 0);
    c[0] = 'X';
    SNT_CHECK(expect_npy_fails(path, c, n, "magic") == 0);
    memcpy(c, b, n);
    c[6] = 7;
    SNT_CHECK(expect_npy_fails(path, c, n, "version 7") == 0);
    memcpy(c, b, n);
    put_header(c, hl, "{'descr': '<f4', 'fortran_order': False, 'shape': (300, 12, 1), }");
    SNT_CHECK(expect_npy_fails(path, c, n, "dtype '<f4'") == 0);
    put_header(c, hl, "{'descr': '>f8', 'fortran_order': False, 'shape': (300, 12, 1), }");
    SNT_CHECK(expect_npy_fails(path, c, n, "dtype '>f8'") == 0);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': True, 'shape': (300, 12, 1), }");
    SNT_CHECK(expect_npy_fails(path, c, n, "Fortran") == 0);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': False, 'shape': (300, 12, 2), }");
    SNT_CHECK(expect_npy_fails(path, c, n, "needs 57600 bytes") == 0);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': False, 'shape': (300, x, 1), }");
    SNT_CHECK(expect_npy_fails(path, c, n, "integers") == 0);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': False, }");
    SNT_CHECK(expect_npy_fails(path, c, n, "lacks shape") == 0);
    put_header(c, hl,
               "{'descr': '<f8', 'fortran_order': False, 'shape': (9999999999, "
               "9999999999, 9999999999), }");
    SNT_CHECK(expect_npy_fails(path, c, n, "overflows") == 0);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': False, 'shape': (300, 12, 1), 'x': 1}");
    SNT_CHECK(expect_npy_fails(path, c, n, "unknown key 'x'") == 0);
    memcpy(c, b, n);
    c[8] = 0xff, c[9] = 0xff;
    SNT_CHECK(expect_npy_fails(path, c, n, "truncated: header") == 0);
    char err[EXPO_ERR_LEN];
    expo_array a;
    SNT_CHECK(expo_npy_read("/nonexistent/x.npy", &a, err) != 0 && strstr(err, "cannot open"));
    // a scalar and an empty array are arrays too
    memcpy(c, b, n);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }");
    memcpy(c + 10 + hl, "\x00\x00\x00\x00\x00\x00\xf0\x3f", 8);
    SNT_CHECK(expo_npy_parse(c, 10 + hl + 8, "scalar", &a, err) == 0);
    SNT_CHECK(a.ndim == 0 && a.size == 1 && a.data[0] == 1.0);
    expo_array_free(&a);
    put_header(c, hl, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }");
    SNT_CHECK(expo_npy_parse(c, 10 + hl, "empty", &a, err) == 0 && a.size == 0);
    expo_array_free(&a);
    // random byte changes in the header and the length: an error or a read, never a crash (ASan
    // checks the bounds); the data read back equals the file's where it succeeds
    expo_array ref;
    SNT_CHECK(expo_npy_parse(b, n, "ref", &ref, err) == 0);
    tc_seed(13);
    int failed = 0, read_ok = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(c, b, n);
        int nflip = 1 + (int)tc_uniform(0, 4);
        for (int f = 0; f < nflip; f++)
            c[(size_t)tc_uniform(0, (double)(10 + hl))] = (unsigned char)tc_uniform(0, 256);
        size_t len = it % 5 == 0 ? (size_t)tc_uniform(0, (double)n) : n;
        if (expo_npy_parse(c, len, "fuzz", &a, err) != 0) {
            SNT_CHECK(a.data == NULL && a.str == NULL && err[0]);
            failed++;
        } else {
            if (a.data && a.size == ref.size)
                SNT_CHECK(memcmp(a.data, ref.data, (size_t)a.size * 8) == 0);
            read_ok++;
            expo_array_free(&a);
        }
    }
    printf("  3000 mutated headers: %d refused, %d read\n", failed, read_ok);
    SNT_CHECK(failed > 1000);
    expo_array_free(&ref);
    free(c);
    free(b);
    remove(path);
    return 0;
}

static unsigned rd32(const unsigned char* p) {
    return (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

static int expect_npz_fails(const char* path, const unsigned char* b, size_t n, const char* member,
                            const char* reason) {
    char err[EXPO_ERR_LEN];
    SNT_CHECK(spit(path, b, n) == 0);
    expo_npz z;
    int r = expo_npz_open(path, &z, err);
    if (r == 0 && member) {
        expo_array a;
        r = expo_npz_get(&z, member, &a, err);
        if (r == 0) expo_array_free(&a);
        expo_npz_close(&z);
    } else if (r == 0) {
        expo_npz_close(&z);
    }
    SNT_CHECK_MSG(r != 0, "%s (%s) was read", path, reason);
    SNT_CHECK_MSG(strstr(err, path) && strstr(err, reason), "'%s' lacks '%s'", err, reason);
    printf("  %s\n", err + strlen(path));
    return 0;
}

static int test_npz_corrupt(void) {
    char src[2048];
    NEED_SHARED(src, REFS "/romeo_walking_traj_tsid.npz");
    size_t n;
    unsigned char* b = slurp(src, &n);
    SNT_CHECK(b != NULL);
    char path[4200];
    snprintf(path, sizeof path, "%s/bad.npz", tmpdir());
    unsigned char* c = malloc(n);
    SNT_CHECK(c != NULL);
    // the central directory: from the end record
    size_t eocd = n - 22;
    SNT_CHECK(rd32(b + eocd) == 0x06054b50u);
    size_t cd = rd32(b + eocd + 16);
    SNT_CHECK(rd32(b + cd) == 0x02014b50u);
    memcpy(c, b, n);
    c[cd + 10] = 8; // the first member deflated, as np.savez_compressed writes it
    SNT_CHECK(expect_npz_fails(path, c, n, NULL, "compressed with deflate") == 0);
    memcpy(c, b, n);
    const char* first = (const char*)b + cd + 46; // "x_RF.npy"
    SNT_CHECK(strncmp(first, "x_RF.npy", 8) == 0);
    c[rd32(b + cd + 42) + 30 + 8 + 20000] ^= 0x10; // a byte inside x_RF's data
    SNT_CHECK(expect_npz_fails(path, c, n, "x_RF", "CRC-32") == 0);
    // ... while another member still reads
    {
        char err[EXPO_ERR_LEN];
        expo_npz z;
        expo_array a;
        SNT_CHECK(expo_npz_open(path, &z, err) == 0);
        SNT_CHECK_MSG(expo_npz_get(&z, "com", &a, err) == 0, "%s", err);
        expo_array_free(&a);
        expo_npz_close(&z);
    }
    SNT_CHECK(expect_npz_fails(path, b, n - 30, NULL, "end of central directory") == 0);
    SNT_CHECK(expect_npz_fails(path, b, 10, NULL, "not a zip") == 0);
    memcpy(c, b, n);
    c[eocd + 16] = 0xff, c[eocd + 17] = 0xff, c[eocd + 18] = 0xff, c[eocd + 19] = 0x7f;
    SNT_CHECK(expect_npz_fails(path, c, n, NULL, "beyond the file") == 0);
    memcpy(c, b, n);
    c[cd + 42] ^= 0x55; // the first member's local header offset
    SNT_CHECK(expect_npz_fails(path, c, n, NULL, "local header") == 0);
    memcpy(c, b, n);
    c[cd + 24] ^= 0x01; // its stored size differs from its compressed size
    SNT_CHECK(expect_npz_fails(path, c, n, NULL, "sizes differ") == 0);
    SNT_CHECK(expect_npz_fails(path, b, n, "nothere", "no such member") == 0);
    // random changes over the directory and the end record: errors, never a crash
    tc_seed(7);
    int refused = 0;
    for (int it = 0; it < 600; it++) {
        memcpy(c, b, n);
        for (int f = 0; f < 3; f++)
            c[cd + (size_t)tc_uniform(0, (double)(n - cd))] = (unsigned char)tc_uniform(0, 256);
        char err[EXPO_ERR_LEN];
        expo_npz z;
        SNT_CHECK(spit(path, c, n) == 0);
        if (expo_npz_open(path, &z, err) != 0) {
            refused++;
            SNT_CHECK(z.buf == NULL && z.member == NULL);
            continue;
        }
        for (int i = 0; i < z.nmember; i++) {
            expo_array a;
            if (expo_npz_get(&z, z.member[i].name, &a, err) == 0) expo_array_free(&a);
        }
        expo_npz_close(&z);
    }
    printf("  600 mutated directories: %d refused at opening\n", refused);
    SNT_CHECK(refused > 100);
    free(c);
    free(b);
    remove(path);
    return 0;
}

// ---- SE(3) and Pinocchio's operations ----

static void random_pin_q(int nj, double* q) {
    for (int i = 0; i < 3; i++)
        q[i] = tc_uniform(-1, 1);
    double n = 0;
    for (int i = 3; i < 7; i++) {
        q[i] = tc_uniform(-1, 1);
        n += q[i] * q[i];
    }
    for (int i = 3; i < 7; i++)
        q[i] /= sqrt(n);
    for (int k = 0; k < nj; k++)
        q[7 + k] = tc_uniform(-1.5, 1.5);
}

static int test_se3(void) {
    tc_seed(3);
    double worst_log = 0, worst_diff = 0, worst_geo = 0;
    for (int it = 0; it < 2000; it++) {
        double nu[3], w[3], R[9], p[3], nu2[3], w2[3];
        // angles from 1e-9 to just under pi
        double scale = it % 4 == 0 ? 1e-9 : it % 4 == 1 ? 1e-4 : it % 4 == 2 ? 0.5 : 1.7;
        for (int i = 0; i < 3; i++) {
            nu[i] = tc_uniform(-1, 1);
            w[i] = scale * tc_uniform(-1, 1);
        }
        expo_exp6(nu, w, R, p);
        // R is a rotation
        double orth = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++)
                    s += R[3 * i + k] * R[3 * j + k];
                orth = fmax(orth, fabs(s - (i == j)));
            }
        SNT_CHECK(orth < 1e-14);
        expo_log6(R, p, nu2, w2);
        for (int i = 0; i < 3; i++)
            worst_log = fmax(worst_log, fmax(fabs(nu2[i] - nu[i]), fabs(w2[i] - w[i])));
        // difference(q, integrate(q, v)) = v
        double q0[19], q1[19], v[18], v2[18];
        random_pin_q(12, q0);
        for (int i = 0; i < 3; i++)
            v[i] = nu[i], v[3 + i] = w[i];
        for (int i = 6; i < 18; i++)
            v[i] = tc_uniform(-1, 1);
        expo_pin_integrate(12, q0, v, q1);
        expo_pin_difference(12, q0, q1, v2);
        for (int i = 0; i < 18; i++)
            worst_diff = fmax(worst_diff, fabs(v2[i] - v[i]));
        // the geodesic: interpolate at a lies a of the way, and its end is q1
        double qa[19], da[18], qe[19];
        double a = tc_uniform(0, 1);
        expo_pin_interpolate(12, q0, q1, a, qa);
        expo_pin_difference(12, q0, qa, da);
        for (int i = 0; i < 18; i++)
            worst_geo = fmax(worst_geo, fabs(da[i] - a * v[i]));
        expo_pin_interpolate(12, q0, q1, 1, qe);
        for (int i = 0; i < 19; i++)
            worst_geo = fmax(worst_geo, fabs(qe[i] - q1[i]));
    }
    // exp6 at a known twist: a quarter turn about z with nu = (1, 0, 0) moves the origin along
    // the arc of radius 2/pi: p = (sin(pi/2), 1 - cos(pi/2), 0) / (pi/2)
    double R[9], p[3];
    expo_exp6((double[]){1, 0, 0}, (double[]){0, 0, M_PI / 2}, R, p);
    SNT_NEAR(p[0], 2 / M_PI, 1e-15);
    SNT_NEAR(p[1], 2 / M_PI, 1e-15);
    SNT_NEAR(R[1], -1, 1e-15);
    printf("  log6(exp6(x)) - x %.2e, difference(q, integrate(q, v)) - v %.2e, geodesic %.2e\n",
           worst_log, worst_diff, worst_geo);
    // docs/expo.md: 1.9e-14, 2.0e-14, 4.7e-14 (asserted 2e-13)
    SNT_CHECK(worst_log < 2e-13 && worst_diff < 2e-13 && worst_geo < 2e-13);
    return 0;
}

// ---- the convention mapping ----

static int load_robot(const char* rel, expo_robot* r) {
    char p[2048], err[EXPO_ERR_LEN];
    if (model_path(p, sizeof p, rel) != 0) return -1;
    SNT_CHECK_MSG(expo_robot_load(p, r, err) == 0, "%s", err);
    return 0;
}

static int roundtrip(const expo_robot* r) {
    double qp[7 + EXPO_MAX_JOINTS], vp[6 + EXPO_MAX_JOINTS], qs[7 + EXPO_MAX_JOINTS];
    double us[6 + EXPO_MAX_JOINTS], q2[7 + EXPO_MAX_JOINTS], v2[6 + EXPO_MAX_JOINTS];
    for (int it = 0; it < 100; it++) {
        random_pin_q(r->nj, qp);
        for (int i = 0; i < r->nv; i++)
            vp[i] = tc_uniform(-2, 2);
        expo_q_pin_to_sn(r, qp, qs);
        expo_v_pin_to_sn(r, qp, vp, us);
        expo_q_sn_to_pin(r, qs, q2);
        expo_v_sn_to_pin(r, qs, us, v2);
        for (int i = 0; i < r->nq; i++)
            SNT_CHECK(q2[i] == qp[i]);
        for (int i = 0; i < r->nv; i++)
            SNT_NEAR(v2[i], vp[i], 1e-14);
        // sinew's quaternion is w x y z; the norm of the base velocity is kept (T orthogonal)
        SNT_CHECK(qs[3] == qp[6] && qs[4] == qp[3]);
        double a = 0, b = 0;
        for (int i = 0; i < 6; i++)
            a += vp[i] * vp[i], b += us[i] * us[i];
        SNT_NEAR(a, b, 1e-13 * a);
    }
    return 0;
}

// Pinocchio's joint order: depth-first, children sorted by joint name
static int test_joint_order(void) {
    char p[2048];
    NEED_SHARED(p, ROMEO);
    expo_robot solo, romeo;
    SNT_CHECK(load_robot(SOLO, &solo) == 0);
    SNT_CHECK(load_robot(ROMEO, &romeo) == 0);
    SNT_CHECK(solo.nq == 19 && solo.nv == 18 && romeo.nq == 38 && romeo.nv == 37);
    const char* solo_order[12] = {"FL_HAA", "FL_HFE", "FL_KFE", "FR_HAA", "FR_HFE", "FR_KFE",
                                  "HL_HAA", "HL_HFE", "HL_KFE", "HR_HAA", "HR_HFE", "HR_KFE"};
    for (int k = 0; k < 12; k++)
        SNT_CHECK(strcmp(expo_robot_pin_joint_name(&solo, k), solo_order[k]) == 0);
    // Romeo: left leg, right leg, trunk, left arm, neck and head, right arm (the torso's child
    // joints sorted by name; the URDF lists the neck before the arms, and so does sinew)
    const char* romeo_at[][2] = {
        {"0", "LHipYaw"},   {"3", "LKneePitch"},      {"6", "RHipYaw"},
        {"12", "TrunkYaw"}, {"13", "LShoulderPitch"}, {"20", "NeckYaw"},
        {"23", "HeadRoll"}, {"24", "RShoulderPitch"}, {"30", "RWristPitch"}};
    for (int i = 0; i < 9; i++) {
        int k = atoi(romeo_at[i][0]);
        SNT_CHECK_MSG(strcmp(expo_robot_pin_joint_name(&romeo, k), romeo_at[i][1]) == 0,
                      "Romeo's joint %d is %s, expected %s", k,
                      expo_robot_pin_joint_name(&romeo, k), romeo_at[i][1]);
    }
    SNT_CHECK(strcmp(sn_model_name(romeo.m, SN_OBJ_JOINT, 14), "NeckYaw") == 0);
    SNT_CHECK(romeo.pin_to_sn[13] == 17 && romeo.pin_to_sn[20] == 13);
    for (int k = 0; k < 12; k++)
        SNT_CHECK(solo.pin_to_sn[k] == k && romeo.pin_to_sn[k] == k);
    // NOTES.md's q0: the knees and shoulders land on sinew's joints of those names
    double qs[38];
    expo_q_pin_to_sn(&romeo, expo_romeo_q0, qs);
    const sn_model* m = romeo.m;
    struct {
        const char* j;
        double v;
    } at[] = {{"LKneePitch", 0.56064738},
              {"RKneePitch", 0.7778542},
              {"LShoulderPitch", 1.5818541},
              {"RShoulderPitch", 1.5842379},
              {"TrunkYaw", -0.00295487}};
    for (int i = 0; i < 5; i++) {
        int j = sn_model_find(m, SN_OBJ_JOINT, at[i].j);
        SNT_CHECK(j > 0);
        SNT_CHECK(qs[m->joint_qadr[j]] == at[i].v);
    }
    SNT_CHECK(qs[3] == 0.99496915 && qs[4] == 0.05974107);
    tc_seed(11);
    SNT_CHECK(roundtrip(&solo) == 0);
    SNT_CHECK(roundtrip(&romeo) == 0);
    expo_robot_free(&solo);
    expo_robot_free(&romeo);
    // the sole points as spheres (for the hard-contact smoke run): on the ankle links where the
    // law's contact points are
    char err[EXPO_ERR_LEN];
    const char* links[2] = {"r_ankle", "l_ankle"};
    const double pts[2][3] = {{0.10, -0.05, -0.069}, {-0.05, 0.05, -0.069}};
    SNT_CHECK_MSG(expo_robot_load_spheres(p, links, pts, 2, 1e-3, 0, &romeo, err) == 0, "%s", err);
    int found = 0;
    for (int g = 0; g < romeo.m->ngeom; g++) {
        if (romeo.m->geom_is_visual[g] || romeo.m->geom_type[g] != SN_GEOM_SPHERE) continue;
        const char* ln = sn_model_name(romeo.m, SN_OBJ_FRAME, romeo.m->geom_frame[g]);
        int i = strcmp(ln, "r_ankle") == 0 ? 0 : strcmp(ln, "l_ankle") == 0 ? 1 : -1;
        SNT_CHECK(i >= 0);
        for (int k = 0; k < 3; k++)
            SNT_NEAR(romeo.m->geom_pos[3 * g + k], pts[i][k], 1e-15);
        SNT_NEAR(romeo.m->geom_size[3 * g], 1e-3, 1e-18);
        found++;
    }
    SNT_CHECK(found == 2 && romeo.nq == 38);
    expo_robot_free(&romeo);
    const char* nolink[1] = {"no_such_link"};
    SNT_CHECK(expo_robot_load_spheres(p, nolink, pts, 1, 1e-3, 0, &romeo, err) != 0);
    SNT_CHECK(strstr(err, "no link named 'no_such_link'") && romeo.m == NULL);
    // Solo12 with its meshes dropped: only the four FOOT points collide
    const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
    const double zero[4][3] = {{0}};
    char sp[2048];
    SNT_CHECK(model_path(sp, sizeof sp, SOLO) == 0);
    SNT_CHECK_MSG(expo_robot_load_spheres(sp, feet, zero, 4, 1e-3, 1, &solo, err) == 0, "%s", err);
    int ncol = 0, nsph = 0;
    for (int g = 0; g < solo.m->ngeom; g++)
        if (!solo.m->geom_is_visual[g]) {
            ncol++;
            nsph += solo.m->geom_type[g] == SN_GEOM_SPHERE;
        }
    SNT_CHECK(ncol == 4 && nsph == 4 && solo.nq == 19);
    expo_robot_free(&solo);
    return 0;
}

// the kinetic energy of (q, v) in Pinocchio's coordinates, from the bodies' motion alone: the
// configuration moved by Pinocchio's integrate to q (+) (+-h v), mapped to sinew's q, the centres
// of mass and rotations differenced (central, O(h^2)); and the sinew velocity u whose
// finite difference in sinew's own convention equals the mapped one. Returns the relative
// differences in *e_ke and *e_u.
static int ke_check(const expo_robot* r, const double* qp, const double* vp, double* ke_sn,
                    double* ke_fd, double* e_u) {
    const sn_model* m = r->m;
    sn_data *dp = NULL, *dm = NULL, *d0 = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &dp, NULL));
    SNT_STATUS_OK(sn_data_create(m, NULL, &dm, NULL));
    SNT_STATUS_OK(sn_data_create(m, NULL, &d0, NULL));
    double h = 1e-6;
    double qplus[7 + EXPO_MAX_JOINTS], qminus[7 + EXPO_MAX_JOINTS], v[6 + EXPO_MAX_JOINTS];
    double qs[7 + EXPO_MAX_JOINTS], qsp[7 + EXPO_MAX_JOINTS], qsm[7 + EXPO_MAX_JOINTS];
    double us[6 + EXPO_MAX_JOINTS];
    for (int i = 0; i < r->nv; i++)
        v[i] = h * vp[i];
    expo_pin_integrate(r->nj, qp, v, qplus);
    for (int i = 0; i < r->nv; i++)
        v[i] = -h * vp[i];
    expo_pin_integrate(r->nj, qp, v, qminus);
    expo_q_pin_to_sn(r, qp, qs);
    expo_q_pin_to_sn(r, qplus, qsp);
    expo_q_pin_to_sn(r, qminus, qsm);
    expo_v_pin_to_sn(r, qp, vp, us);
    SNT_STATUS_OK(sn_set_state(m, d0, qs, m->nq, us, m->nv));
    SNT_STATUS_OK(sn_set_state(m, dp, qsp, m->nq, NULL, 0));
    SNT_STATUS_OK(sn_set_state(m, dm, qsm, m->nq, NULL, 0));
    SNT_STATUS_OK(sn_fk(m, d0));
    SNT_STATUS_OK(sn_fk_vel(m, d0));
    SNT_STATUS_OK(sn_fk(m, dp));
    SNT_STATUS_OK(sn_fk(m, dm));
    *ke_sn = sn_kinetic_energy(m, d0);
    double ke = 0;
    for (int b = 1; b < m->nbody; b++) {
        double vc[3], Rr[9], wv[3], nu[3], zero[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++)
            vc[i] = (dp->body_com[3 * b + i] - dm->body_com[3 * b + i]) / (2 * h);
        // R+ R-^T = exp(2 h [w]x), w in the world frame
        const double* A = dp->body_rot + 9 * b;
        const double* B = dm->body_rot + 9 * b;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++)
                    s += A[3 * i + k] * B[3 * j + k];
                Rr[3 * i + j] = s;
            }
        expo_log6(Rr, zero, nu, wv);
        for (int i = 0; i < 3; i++)
            wv[i] /= 2 * h;
        const double* I = d0->body_inertia_com + 6 * b; // xx yy zz xy xz yz, world axes
        double Iw[3] = {I[0] * wv[0] + I[3] * wv[1] + I[4] * wv[2],
                        I[3] * wv[0] + I[1] * wv[1] + I[5] * wv[2],
                        I[4] * wv[0] + I[5] * wv[1] + I[2] * wv[2]};
        ke += 0.5 * m->body_mass[b] * (vc[0] * vc[0] + vc[1] * vc[1] + vc[2] * vc[2]) +
              0.5 * (wv[0] * Iw[0] + wv[1] * Iw[1] + wv[2] * Iw[2]);
    }
    *ke_fd = ke;
    // sinew's u from its own convention: p' in the world, quat(t+h) = exp(h w_world) quat(t)
    double uf[6 + EXPO_MAX_JOINTS];
    for (int i = 0; i < 3; i++)
        uf[i] = (qsp[i] - qsm[i]) / (2 * h);
    {
        double Rp[9], Rm[9], Rr[9], nu[3], zero[3] = {0, 0, 0};
        double a[4] = {qsp[4], qsp[5], qsp[6], qsp[3]}, b[4] = {qsm[4], qsm[5], qsm[6], qsm[3]};
        expo_quat_xyzw_to_mat(a, Rp);
        expo_quat_xyzw_to_mat(b, Rm);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++)
                    s += Rp[3 * i + k] * Rm[3 * j + k];
                Rr[3 * i + j] = s;
            }
        expo_log6(Rr, zero, nu, uf + 3);
        for (int i = 3; i < 6; i++)
            uf[i] /= 2 * h;
    }
    for (int i = 7; i < m->nq; i++)
        uf[i - 1] = (qsp[i] - qsm[i]) / (2 * h);
    *e_u = tc_rel_err(uf, us, m->nv, 1);
    sn_data_destroy(dp);
    sn_data_destroy(dm);
    sn_data_destroy(d0);
    return 0;
}

// M_pin = T^T M_sn T: its base block is the whole robot's inertia in the base frame, which
// does not depend on where the base is or how it is turned (it would in world axes)
static int base_block(const expo_robot* r, const double* qp, double* blk) {
    const sn_model* m = r->m;
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    double qs[7 + EXPO_MAX_JOINTS];
    expo_q_pin_to_sn(r, qp, qs);
    SNT_STATUS_OK(sn_set_state(m, d, qs, m->nq, NULL, 0));
    SNT_STATUS_OK(sn_fk(m, d));
    SNT_STATUS_OK(sn_crba(m, d));
    // columns of T for the base: e_i in Pinocchio's coordinates -> T e_i in sinew's
    double cols[6][6 + EXPO_MAX_JOINTS];
    for (int i = 0; i < 6; i++) {
        double e[6 + EXPO_MAX_JOINTS] = {0};
        e[i] = 1;
        expo_v_pin_to_sn(r, qp, e, cols[i]);
    }
    int nv = m->nv;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double s = 0;
            for (int a = 0; a < nv; a++)
                for (int b = 0; b < nv; b++)
                    s += cols[i][a] * d->mass_matrix[a * nv + b] * cols[j][b];
            blk[6 * i + j] = s;
        }
    sn_data_destroy(d);
    return 0;
}

static int test_kinetic_energy(void) {
    char p[2048], err[EXPO_ERR_LEN];
    NEED_SHARED(p, REFS "/trot_reference_states.npy");
    expo_robot solo, romeo;
    SNT_CHECK(load_robot(SOLO, &solo) == 0);
    SNT_CHECK(load_robot(ROMEO, &romeo) == 0);
    expo_array xs;
    SNT_CHECK_MSG(expo_npy_read(p, &xs, err) == 0, "%s", err);
    double worst = 0, worst_u = 0;
    for (int k = 0; k < 300; k += 37) {
        const double* x = xs.data + 37 * k;
        double ke_sn, ke_fd, e_u;
        SNT_CHECK(ke_check(&solo, x, x + 19, &ke_sn, &ke_fd, &e_u) == 0);
        if (k == 148)
            printf("  trot state %d: KE %.9f J (sinew, mapped u), %.9f J (bodies' finite "
                   "differences); u: %.1e\n",
                   k, ke_sn, ke_fd, e_u);
        SNT_NEAR_REL(ke_sn, ke_fd, 1e-9, 1e-3); // docs/expo.md: 2.1e-10 relative at worst
        SNT_CHECK(e_u < 1e-10);                 // 1.4e-11
        worst = fmax(worst, fabs(ke_sn - ke_fd) / fmax(ke_fd, 1e-3));
    }
    // the same with random states and velocities on both robots (Romeo's joint order permuted)
    tc_seed(5);
    for (int it = 0; it < 10; it++) {
        const expo_robot* r = it % 2 ? &romeo : &solo;
        double qp[7 + EXPO_MAX_JOINTS], vp[6 + EXPO_MAX_JOINTS], ke_sn, ke_fd, e_u;
        random_pin_q(r->nj, qp);
        for (int i = 0; i < r->nv; i++)
            vp[i] = tc_uniform(-1, 1);
        SNT_CHECK(ke_check(r, qp, vp, &ke_sn, &ke_fd, &e_u) == 0);
        SNT_NEAR_REL(ke_sn, ke_fd, 1e-9, 1e-3); // docs/expo.md: 2.1e-10 relative at worst
        worst = fmax(worst, fabs(ke_sn - ke_fd) / fmax(ke_fd, 1e-3));
        worst_u = fmax(worst_u, e_u);
    }
    printf("  kinetic energy, sinew vs finite differences: %.2e relative at worst; u from the "
           "differences of q off by %.2e at worst\n",
           worst, worst_u);
    SNT_CHECK(worst_u < 1e-9); // measured 2.1e-10 (central differences of q)
    // the base block of M in Pinocchio's coordinates: the same for the base moved and turned
    double b1[36], b2[36], q2[19];
    memcpy(q2, xs.data, sizeof q2);
    SNT_CHECK(base_block(&solo, q2, b1) == 0);
    q2[0] += 0.7, q2[1] -= 0.3, q2[2] += 0.2;
    double s = sqrt(0.5);
    double turn[4] = {0.3 * s, -0.5 * s, 0.8 * s, 0}; // a half turn about an oblique axis
    double n = sqrt(turn[0] * turn[0] + turn[1] * turn[1] + turn[2] * turn[2]);
    for (int i = 0; i < 3; i++)
        q2[3 + i] = turn[i] / n;
    q2[6] = 0;
    SNT_CHECK(base_block(&solo, q2, b2) == 0);
    double dmax = 0, bmax = 0;
    for (int i = 0; i < 36; i++)
        dmax = fmax(dmax, fabs(b1[i] - b2[i])), bmax = fmax(bmax, fabs(b1[i]));
    printf("  base block of M (Pinocchio's coordinates): total mass %.6f kg, changes by %.1e when "
           "the base moves and turns\n",
           b1[0], dmax);
    SNT_CHECK(dmax < 2e-14 * bmax); // docs/expo.md: 1.8e-15
    SNT_NEAR(b1[0], b1[7], 1e-12);
    expo_array_free(&xs);
    expo_robot_free(&solo);
    expo_robot_free(&romeo);
    return 0;
}

// ---- the linear feedback ----

static int check_feedback(const expo_robot* r, const char* motion, double zshift, int nsamp) {
    char p[2048], err[EXPO_ERR_LEN];
    NEED_SHARED(p, REFS);
    expo_feedback* f = expo_feedback_create(r, p, motion, 0.01, zshift, err);
    SNT_CHECK_MSG(f != NULL, "%s", err);
    SNT_CHECK(f->n == nsamp && f->nx == 37 && f->nu == 12);
    // the shift is applied to the reference (its raw first height is NOTES.md's)
    char raw[2200];
    snprintf(raw, sizeof raw, "%s/%s_reference_states.npy", p, motion);
    expo_array xs;
    SNT_CHECK(expo_npy_read(raw, &xs, err) == 0);
    SNT_CHECK(f->x_ref[2] == xs.data[2] + zshift);
    expo_array_free(&xs);
    double qs[19], us[18], tau[18], dx[36], qp[19], vp[18];
    // at every sample time, on the reference: tau = [0_6, u_ref[k]] (dx = 0)
    double worst0 = 0;
    for (int k = 0; k < f->n; k++) {
        const double* x = f->x_ref + 37 * k;
        expo_q_pin_to_sn(r, x, qs);
        expo_v_pin_to_sn(r, x, x + 19, us);
        SNT_CHECK_MSG(expo_controller_torque(&f->base, k * 0.01, qs, us, tau) == 0, "%s",
                      f->base.err);
        for (int i = 0; i < 6; i++)
            SNT_CHECK(tau[i] == 0);
        for (int j = 0; j < 12; j++)
            worst0 = fmax(worst0, fabs(tau[6 + r->pin_to_sn[j]] - f->u_ref[12 * k + j]));
    }
    // off the reference: q = q_ref (+) d, v = v_ref - e gives dx = [-d, e] exactly, so tau =
    // u_ref[k] + K_k [-d; e]; at sample times and between them (k held, the reference
    // interpolated on the group)
    tc_seed(17);
    double worst1 = 0, scale = 0;
    for (int it = 0; it < 200; it++) {
        double t = it < 100 ? 0.01 * (it * 3 % f->n) : tc_uniform(0, 0.01 * f->n);
        int k = expo_feedback_reference(f, t, qp, vp);
        SNT_CHECK(k == (int)floor(t / 0.01 + 1e-9) || k == f->n - 1);
        double d[18], e[18], qq[19], vv[18];
        for (int i = 0; i < 18; i++) {
            d[i] = tc_uniform(-0.05, 0.05);
            e[i] = tc_uniform(-0.5, 0.5);
            vv[i] = vp[i] - e[i];
        }
        expo_pin_integrate(12, qp, d, qq);
        expo_q_pin_to_sn(r, qq, qs);
        expo_v_pin_to_sn(r, qq, vv, us);
        SNT_CHECK(expo_controller_torque(&f->base, t, qs, us, tau) == 0);
        SNT_CHECK(expo_feedback_dx(f, t, qq, vv, dx) == k);
        for (int j = 0; j < 12; j++) {
            double want = f->u_ref[12 * k + j];
            const double* K = f->gain + (size_t)(12 * k + j) * 36;
            for (int i = 0; i < 18; i++)
                want += K[i] * (-d[i]) + K[18 + i] * e[i];
            worst1 = fmax(worst1, fabs(tau[6 + r->pin_to_sn[j]] - want));
            scale = fmax(scale, fabs(want));
        }
        for (int i = 0; i < 18; i++) {
            SNT_NEAR(dx[i], -d[i], 1e-12);
            SNT_NEAR(dx[18 + i], e[i], 1e-12);
        }
        if (it >= 100) {
            // between samples: q_ref(t) lies a of the way along the geodesic from sample k
            double a = t / 0.01 - k, g[18], gk[18];
            const double* x0 = f->x_ref + 37 * k;
            expo_pin_difference(12, x0, qp, g);
            expo_pin_difference(12, x0, x0 + 37, gk);
            for (int i = 0; i < 18; i++) {
                SNT_NEAR(g[i], a * gk[i], 1e-12);
                SNT_NEAR(vp[i], (1 - a) * x0[19 + i] + a * x0[37 + 19 + i], 1e-12);
            }
        }
    }
    printf("  %s: %d samples; |tau - u_ref| on the reference %.1e N m, |tau - (u_ref + K dx)| "
           "off it %.1e N m (torques up to %.1f N m)\n",
           motion, f->n, worst0, worst1, scale);
    SNT_CHECK(worst0 < 1e-12);
    SNT_CHECK(worst1 < 1e-11 * fmax(scale, 1));
    // a non-finite time is refused, tau zeroed
    SNT_CHECK(expo_controller_torque(&f->base, NAN, qs, us, tau) != 0);
    SNT_CHECK(tau[6] == 0 && strstr(f->base.err, "not finite"));
    expo_controller_destroy(&f->base);
    return 0;
}

static int test_feedback(void) {
    char p[2048];
    NEED_SHARED(p, SOLO);
    expo_robot solo;
    SNT_CHECK(load_robot(SOLO, &solo) == 0);
    SNT_CHECK(check_feedback(&solo, "trot", -15.37e-3, 300) == 0);
    SNT_CHECK(check_feedback(&solo, "jump", -1e-6, 299) == 0);
    // missing files and shapes that do not fit are refused with the file's name
    char err[EXPO_ERR_LEN], refs[2048];
    SNT_CHECK(model_path(refs, sizeof refs, REFS) == 0);
    SNT_CHECK(expo_feedback_create(&solo, refs, "walk", 0.01, 0, err) == NULL);
    SNT_CHECK(strstr(err, "walk_reference_states.npy") && strstr(err, "cannot open"));
    expo_robot romeo;
    SNT_CHECK(load_robot(ROMEO, &romeo) == 0);
    SNT_CHECK(expo_feedback_create(&romeo, refs, "trot", 0.01, 0, err) == NULL);
    printf("  Romeo on the trot's data: %s\n", err);
    SNT_CHECK(strstr(err, "expected float64 (N, 75, 1)") != NULL);
    expo_robot_free(&romeo);
    expo_robot_free(&solo);
    return 0;
}

// ---- the inverse-dynamics controller (squat, walk) ----


// the law at the reference state: the base rows of tau are zero and M a + h - tau = J^T f
// (M, h from sinew, J from the forces' points); returns the total contact force and the mass
static int id_identities(const expo_robot* r, expo_id* c, double t, double fsum[3], double* mass,
                         double* resid) {
    const sn_model* m = r->m;
    int nv = m->nv;
    double q[64], v[64], a[64], tau[64], f[24];
    int nc = expo_id_reference(c, t, q, v, a);
    SNT_CHECK(nc > 0);
    SNT_CHECK_MSG(expo_controller_torque(expo_id_controller(c), t, q, v, tau) == 0, "%s",
                  expo_id_controller(c)->err);
    SNT_CHECK(expo_id_last_forces(c, f) == nc);
    for (int i = 0; i < 6; i++)
        SNT_CHECK(tau[i] == 0);
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    SNT_STATUS_OK(sn_set_state(m, d, q, m->nq, v, nv));
    SNT_STATUS_OK(sn_fk(m, d));
    SNT_STATUS_OK(sn_fk_vel(m, d));
    SNT_STATUS_OK(sn_crba(m, d));
    SNT_STATUS_OK(sn_nonlinear(m, d));
    // M a + h - tau: its first three rows (the base's linear ones, world axes) must be the sum
    // of the contact forces, each point's Jacobian having identity columns there
    double gen[64];
    for (int i = 0; i < nv; i++) {
        double s = d->nonlinear[i];
        for (int j = 0; j < nv; j++)
            s += d->mass_matrix[i * nv + j] * a[j];
        gen[i] = s - tau[i];
    }
    fsum[0] = fsum[1] = fsum[2] = 0;
    for (int k = 0; k < nc; k++)
        for (int i = 0; i < 3; i++)
            fsum[i] += f[3 * k + i];
    *resid = 0;
    for (int i = 0; i < 3; i++)
        *resid = fmax(*resid, fabs(gen[i] - fsum[i]));
    *mass = 0;
    for (int b = 0; b < m->nbody; b++)
        *mass += m->body_mass[b];
    sn_data_destroy(d);
    return 0;
}

static int test_id_squat(void) {
    char p[2048], err[EXPO_ERR_LEN];
    NEED_SHARED(p, SOLO);
    expo_robot solo;
    SNT_CHECK(load_robot(SOLO, &solo) == 0);
    expo_id* c = expo_id_create_squat(&solo, expo_solo_q0, 4.0, err);
    SNT_CHECK_MSG(c != NULL, "%s", err);
    const sn_model* m = solo.m;
    sn_data* d = NULL;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    double q0[19], c0[3], feet0[4][3], R[9];
    expo_q_pin_to_sn(&solo, expo_solo_q0, q0);
    SNT_STATUS_OK(sn_set_state(m, d, q0, 19, NULL, 0));
    SNT_STATUS_OK(sn_fk(m, d));
    sn_com(m, d, c0);
    const char* feet[4] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
    for (int f = 0; f < 4; f++)
        sn_frame_pose(m, d, sn_model_find(m, SN_OBJ_FRAME, feet[f]), feet0[f], R);
    double wc = 0, wf = 0, wv = 0, wn = 0, wr = 0;
    const double ts[5] = {0.25, 0.8, 1.3, 2.2, 3.7};
    for (int i = 0; i < 5; i++) {
        double t = ts[i], q[19], v[18], com[3], pos[3];
        SNT_CHECK(expo_id_reference(c, t, q, v, NULL) == 4);
        SNT_STATUS_OK(sn_set_state(m, d, q, 19, v, 18));
        SNT_STATUS_OK(sn_fk(m, d));
        SNT_STATUS_OK(sn_fk_vel(m, d));
        sn_com(m, d, com);
        // c(t) = c0 + (0, 0, 0.03 sin 2t); the feet where they started
        wc = fmax(wc, fmax(fabs(com[2] - c0[2] - 0.03 * sin(2 * t)),
                           fmax(fabs(com[0] - c0[0]), fabs(com[1] - c0[1]))));
        for (int f = 0; f < 4; f++) {
            sn_frame_pose(m, d, sn_model_find(m, SN_OBJ_FRAME, feet[f]), pos, R);
            for (int k = 0; k < 3; k++)
                wf = fmax(wf, fabs(pos[k] - feet0[f][k]));
        }
        // the CoM velocity: the momentum over the mass against c'(t) = 0.06 cos 2t
        double lin[3], ang[3];
        sn_momentum(m, d, lin, ang);
        double mass = sn_com(m, d, com);
        wv = fmax(wv, fabs(lin[2] / mass - 0.06 * cos(2 * t)));
        // Newton: the contact forces carry the weight and the CoM's acceleration -0.12 sin 2t
        double fs[3], mt, res;
        SNT_CHECK(id_identities(&solo, c, t, fs, &mt, &res) == 0);
        wn = fmax(wn, fmax(fabs(fs[2] - mt * (9.81 - 0.12 * sin(2 * t))),
                           fmax(fabs(fs[0]), fabs(fs[1]))));
        wr = fmax(wr, res);
    }
    printf("  squat reference: CoM off c(t) by %.1e m, feet moved %.1e m, CoM velocity off "
           "c'(t) by %.1e m/s (IK residual %.1e)\n",
           wc, wf, wv, expo_id_ik_residual(c));
    printf("  law on the reference: sum of forces - m (c'' - g) %.1e N, base rows %.1e N\n", wn,
           wr);
    SNT_CHECK(wc < 1e-9 && wf < 1e-9 && wv < 1e-6);
    SNT_CHECK(wn < 1e-3 && wr < 1e-9);
    // off the reference the law pulls back: a state 1 cm low and still gives a larger push
    {
        double q[19], v[18], tau[18], f0[12], f1[12];
        expo_id_reference(c, 1.0, q, v, NULL);
        SNT_CHECK(expo_controller_torque(expo_id_controller(c), 1.0, q, v, tau) == 0);
        expo_id_last_forces(c, f0);
        q[2] -= 0.01;
        SNT_CHECK(expo_controller_torque(expo_id_controller(c), 1.0, q, v, tau) == 0);
        expo_id_last_forces(c, f1);
        double z0 = f0[2] + f0[5] + f0[8] + f0[11], z1 = f1[2] + f1[5] + f1[8] + f1[11];
        printf("  1 cm below the reference: vertical force %.4f N (on it %.4f N; kp m 0.01 = "
               "%.4f N)\n",
               z1, z0, 2 * 2.5 * 0.01);
        SNT_NEAR_REL(z1 - z0, 2 * sn_com(m, d, q) * 0.01, 2e-2, 1e-3);
    }
    sn_data_destroy(d);
    expo_controller_destroy(expo_id_controller(c));
    expo_robot_free(&solo);
    return 0;
}

static int test_id_walk(void) {
    char p[2048], err[EXPO_ERR_LEN];
    NEED_SHARED(p, REFS "/romeo_walking_traj_tsid.npz");
    expo_robot romeo;
    SNT_CHECK(load_robot(ROMEO, &romeo) == 0);
    expo_id* c = expo_id_create_walk(&romeo, p, expo_romeo_q0, 1.5, err);
    SNT_CHECK_MSG(c != NULL, "%s", err);
    SNT_NEAR(expo_id_duration(c), 6.3, 1e-9);
    SNT_CHECK(expo_id_ik_residual(c) < 1e-9);
    // the support foot of contact_phase: right for 1.2 s, left, right, left; both after 4.8 s
    SNT_CHECK(expo_id_reference(c, 0.5, NULL, NULL, NULL) == 4);
    SNT_CHECK(expo_id_reference(c, 1.5, NULL, NULL, NULL) == 4);
    SNT_CHECK(expo_id_reference(c, 5.5, NULL, NULL, NULL) == 8);
    expo_npz z;
    expo_array dd;
    SNT_CHECK(expo_npz_open(p, &z, err) == 0);
    SNT_CHECK(expo_npz_get(&z, "ddcom", &dd, err) == 0);
    double wn = 0, wr = 0, mt = 0;
    // (away from the phase switches at multiples of 1.2 s, where the data's ddcom jumps: at
    // 2.4 s it says 1.62 m/s^2 sideways while com's second difference is 0)
    const double ts[6] = {0.3, 0.9, 1.7, 2.1, 3.1, 4.1};
    for (int i = 0; i < 6; i++) {
        double t = ts[i], fs[3], res;
        SNT_CHECK(id_identities(&romeo, c, t, fs, &mt, &res) == 0);
        long k = lround(t / 0.002);
        for (int a = 0; a < 3; a++)
            wn = fmax(wn, fabs(fs[a] - mt * (dd.data[a * 2401 + k] + (a == 2 ? 9.81 : 0))));
        wr = fmax(wr, res);
    }
    printf("  walk: %.2f kg; sum of forces - m (ddcom - g) %.2e N at worst over 6 times, base "
           "rows %.1e N (IK residual %.1e)\n",
           mt, wn, wr, expo_id_ik_residual(c));
    SNT_CHECK(wr < 1e-8);
    SNT_CHECK(wn < 0.5);
    expo_array_free(&dd);
    expo_npz_close(&z);
    expo_controller_destroy(expo_id_controller(c));
    expo_robot_free(&romeo);
    return 0;
}

// the four scenarios open with NOTES.md's steps, lengths and contact points; each controller at
// its initial state gives a finite torque with zero base rows
static int test_scenarios(void) {
    char p[2048], err[EXPO_ERR_LEN];
    NEED_SHARED(p, SOLO);
    const char* shared = tc_shared_dir();
    struct {
        const char* name;
        double dt, len;
        int npoint;
    } want[4] = {{"trot", 0.002, 3.0, 4},
                 {"jump", 0.01, 2.99, 4},
                 {"squat", 0.04, 4.0, 4},
                 {"walk", 0.04, 6.3, 8}};
    for (int i = 0; i < 4; i++) {
        expo_scenario sc;
        SNT_CHECK_MSG(expo_scenario_open(&sc, want[i].name, shared, EXPO_COLLIDE_POINTS, err) == 0,
                      "%s", err);
        SNT_NEAR(sc.dt, want[i].dt, 1e-15);
        SNT_NEAR(sc.duration, want[i].len, 1e-9);
        SNT_CHECK(sc.npoint == want[i].npoint);
        // the spheres: one per contact point, on its link, nothing else collides
        const sn_model* m = sc.robot.m;
        int ncol = 0;
        for (int g = 0; g < m->ngeom; g++) {
            if (m->geom_is_visual[g]) continue;
            ncol++;
            SNT_CHECK(m->geom_type[g] == SN_GEOM_SPHERE);
            const char* ln = sn_model_name(m, SN_OBJ_FRAME, m->geom_frame[g]);
            int hit = 0;
            for (int k = 0; k < sc.npoint; k++)
                if (strcmp(ln, sc.point[k].link) == 0 &&
                    fabs(m->geom_pos[3 * g] - sc.point[k].pos[0]) < 1e-15 &&
                    fabs(m->geom_pos[3 * g + 1] - sc.point[k].pos[1]) < 1e-15)
                    hit = 1;
            SNT_CHECK(hit);
        }
        SNT_CHECK(ncol == sc.npoint);
        double q[64], u[64], tau[64];
        expo_scenario_reference(&sc, 0, q, u);
        SNT_CHECK_MSG(expo_controller_torque(sc.ctl, 0, q, u, tau) == 0, "%s", sc.ctl->err);
        double tmax = 0;
        for (int k = 0; k < sc.robot.nv; k++) {
            SNT_CHECK(isfinite(tau[k]) && (k >= 6 || tau[k] == 0));
            tmax = fmax(tmax, fabs(tau[k]));
        }
        printf("  %s: dt %.3f s, %.2f s, %d points, largest initial torque %.3f N m\n",
               want[i].name, sc.dt, sc.duration, sc.npoint, tmax);
        SNT_CHECK(tmax > 0.01 && tmax < 100);
        expo_scenario_close(&sc);
    }
    expo_scenario sc;
    SNT_CHECK(expo_scenario_open(&sc, "talos", shared, EXPO_COLLIDE_URDF, err) != 0);
    SNT_CHECK(strstr(err, "unknown scenario 'talos'") != NULL);
    return 0;
}

SNT_SUITE(SNT_TEST(test_npy_reference_files), SNT_TEST(test_npz_romeo), SNT_TEST(test_npy_corrupt),
          SNT_TEST(test_npz_corrupt), SNT_TEST(test_se3), SNT_TEST(test_joint_order),
          SNT_TEST(test_kinetic_energy), SNT_TEST(test_feedback), SNT_TEST(test_id_squat),
          SNT_TEST(test_id_walk), SNT_TEST(test_scenarios))
