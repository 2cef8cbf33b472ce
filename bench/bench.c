// SPDX-License-Identifier: Apache-2.0
// bench.c: speed of the sinew kernels, measured side by side with MuJoCo in the same process on
// the same model files and the same random states. Never part of the tests.
//
//   sinew_bench [--models a,b] [--kernels k,l] [--no-chains] [--chains-only] [--batches 21]
//               [--target-ms 3] [--csv FILE] [--no-append] [--results DIR] [--rev REV]
//       timing mode: a Markdown table on stdout, rows appended to RESULTS/<hostname>/bench.csv
//   sinew_bench --kernel NAME --model NAME --engine sinew|mujoco --iters N
//       count mode: N calls of one kernel and nothing else timed, for callgrind (bench/run.sh)
//   sinew_bench --list | --features
//
// docs/benchmarks.md says what each kernel times on each side.
#define _POSIX_C_SOURCE 200809L
#include "sinew/sn.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef SN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#ifdef SN_BENCH_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#ifndef SN_BENCH_MODELS_DIR
#define SN_BENCH_MODELS_DIR "../shared/models"
#endif
#ifndef SN_BENCH_RESULTS_DIR
#define SN_BENCH_RESULTS_DIR "results"
#endif
#ifndef SN_BENCH_CFLAGS
#define SN_BENCH_CFLAGS "?"
#endif

#define MAXN 64
#define PI 3.14159265358979323846

// ---------------------------------------------------------------------------------------------
// small utilities

static void die(const char* fmt, const char* a) {
    fprintf(stderr, "sinew_bench: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    exit(2);
}

static void* xmalloc(size_t n) {
    void* p = calloc(1, n ? n : 1);
    if (!p) die("%s", "out of memory");
    return p;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

// splitmix64: a fixed seed gives the same states in every mode and on every machine
static uint64_t rng_next(uint64_t* s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_uniform(uint64_t* s, double lo, double hi) {
    double x = (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * x;
}

static uint64_t seed_of(const char* name) {
    uint64_t h = 1469598103934665603ull; // FNV-1a
    for (const char* c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h;
}

// growable string
typedef struct sbuf {
    char* s;
    size_t len, cap;
} sbuf;

static void sb_putn(sbuf* b, const char* s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char* p = realloc(b->s, cap);
        if (!p) die("%s", "out of memory");
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_puts(sbuf* b, const char* s) {
    sb_putn(b, s, strlen(s));
}

static void sb_printf(sbuf* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf* b, const char* fmt, ...) {
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) die("%s", "sb_printf overflow");
    sb_putn(b, tmp, (size_t)n);
}

static char* read_file(const char* path, size_t* len) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    sbuf b = {0};
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        sb_putn(&b, tmp, n);
    fclose(f);
    if (!b.s) sb_puts(&b, "");
    if (len) *len = b.len;
    return b.s;
}

#ifdef SN_BENCH_MUJOCO
static int write_file(const char* path, const char* s) {
    FILE* f = fopen(path, "wb");
    if (!f) return 0;
    size_t n = strlen(s);
    int ok = fwrite(s, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}
#endif

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// ---------------------------------------------------------------------------------------------
// models

typedef struct model_spec {
    const char* name;
    const char* path; // relative to the models directory
    sn_base_mode base;
} model_spec;

static const model_spec MODELS[] = {
    {"anymal_c", "raisim_anymal_c/urdf/anymal.urdf", SN_BASE_FLOATING},
    {"romeo", "tsid_romeo/urdf/romeo.urdf", SN_BASE_FLOATING},
    {"panda", "erd_panda/urdf/panda.urdf", SN_BASE_FIXED},
};
#define NMODELS ((int)(sizeof MODELS / sizeof MODELS[0]))

static const int CHAIN_SIZES[] = {10, 30, 100, 300};
#define NCHAINS ((int)(sizeof CHAIN_SIZES / sizeof CHAIN_SIZES[0]))

// a serial chain of n revolute links with random but fixed axes, offsets and inertias
static char* chain_urdf(int n) {
    uint64_t s = 0xC4A1Eull + (uint64_t)n;
    sbuf b = {0};
    sb_printf(&b, "<robot name=\"chain%d\">\n", n);
    sb_puts(&b, "<link name=\"l0\"><inertial><origin xyz=\"0 0 0.05\"/><mass value=\"1\"/>"
                "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
                "</inertial></link>\n");
    for (int i = 1; i <= n; i++) {
        double a[3], nrm = 0;
        while (!(nrm > 0.1)) {
            for (int k = 0; k < 3; k++)
                a[k] = rng_uniform(&s, -1, 1);
            nrm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        }
        for (int k = 0; k < 3; k++)
            a[k] /= nrm;
        // draw in a fixed order (the order of evaluation of function arguments is unspecified)
        double o[6], c[6], mi[4];
        o[0] = rng_uniform(&s, -0.05, 0.05);
        o[1] = rng_uniform(&s, -0.05, 0.05);
        o[2] = rng_uniform(&s, 0.1, 0.2);
        for (int k = 3; k < 6; k++)
            o[k] = rng_uniform(&s, -1, 1);
        c[0] = rng_uniform(&s, -0.03, 0.03);
        c[1] = rng_uniform(&s, -0.03, 0.03);
        c[2] = rng_uniform(&s, 0.02, 0.1);
        for (int k = 3; k < 6; k++)
            c[k] = rng_uniform(&s, -1, 1);
        mi[0] = rng_uniform(&s, 0.5, 2);
        // principal moments in [0.01, 0.02] satisfy the triangle inequality; rpy rotates them
        for (int k = 1; k < 4; k++)
            mi[k] = rng_uniform(&s, 0.01, 0.02);
        sb_printf(&b,
                  "<joint name=\"j%d\" type=\"revolute\"><parent link=\"l%d\"/>"
                  "<child link=\"l%d\"/><origin xyz=\"%.17g %.17g %.17g\" "
                  "rpy=\"%.17g %.17g %.17g\"/><axis xyz=\"%.17g %.17g %.17g\"/>"
                  "<limit lower=\"-3.14\" upper=\"3.14\" effort=\"100\" velocity=\"10\"/>"
                  "</joint>\n",
                  i, i - 1, i, o[0], o[1], o[2], o[3], o[4], o[5], a[0], a[1], a[2]);
        sb_printf(&b,
                  "<link name=\"l%d\"><inertial><origin xyz=\"%.17g %.17g %.17g\" "
                  "rpy=\"%.17g %.17g %.17g\"/><mass value=\"%.17g\"/>"
                  "<inertia ixx=\"%.17g\" iyy=\"%.17g\" izz=\"%.17g\" ixy=\"0\" ixz=\"0\" "
                  "iyz=\"0\"/></inertial></link>\n",
                  i, c[0], c[1], c[2], c[3], c[4], c[5], mi[0], mi[1], mi[2], mi[3]);
    }
    sb_puts(&b, "</robot>\n");
    return b.s;
}

// ---------------------------------------------------------------------------------------------
// URDF text edits for MuJoCo's importer (sinew always reads the original file)

#ifdef SN_BENCH_MUJOCO

// remove XML comments
static void strip_comments(char* s) {
    char* w = s;
    const char* r = s;
    while (*r) {
        if (strncmp(r, "<!--", 4) == 0) {
            const char* e = strstr(r + 4, "-->");
            r = e ? e + 3 : r + strlen(r);
        } else {
            *w++ = *r++;
        }
    }
    *w = 0;
}

// end of the start tag that begins at p (the '>'), skipping quoted attribute values
static char* tag_end(char* p) {
    char q = 0;
    for (; *p; p++) {
        if (q) {
            if (*p == q) q = 0;
        } else if (*p == '"' || *p == '\'') {
            q = *p;
        } else if (*p == '>') {
            return p;
        }
    }
    return NULL;
}

// remove every <tag> element; with keep_primitives, <collision> elements without a <mesh> stay
static void strip_elements(char* s, const char* tag, int keep_primitives) {
    size_t tl = strlen(tag);
    char close[64];
    snprintf(close, sizeof close, "</%s>", tag);
    char* p = s;
    while ((p = strchr(p, '<')) != NULL) {
        if (strncmp(p + 1, tag, tl) != 0 || !strchr(">/ \t\n\r", p[1 + tl]) || !p[1 + tl]) {
            p++;
            continue;
        }
        char* e = tag_end(p);
        if (!e) return;
        char* end;
        if (e[-1] == '/') {
            end = e + 1;
        } else {
            char* cl = strstr(e, close);
            if (!cl) return;
            end = cl + strlen(close);
        }
        if (keep_primitives) {
            char save = *end;
            *end = 0;
            int has_mesh = strstr(p, "<mesh") != NULL;
            *end = save;
            if (!has_mesh) {
                p = end;
                continue;
            }
        }
        memmove(p, end, strlen(end) + 1);
    }
}

// the URDF MuJoCo loads: no comments, no visuals, no collisions (or only primitive ones), a
// <mujoco><compiler/> extension, and for a floating base a "floating" joint from a world link
static char* mujoco_urdf(const char* urdf, const char* root_link, int keep_primitives) {
    size_t n = strlen(urdf);
    char* s = xmalloc(n + 1);
    memcpy(s, urdf, n + 1);
    strip_comments(s);
    strip_elements(s, "visual", 0);
    strip_elements(s, "collision", keep_primitives);
    char* r = strstr(s, "<robot");
    char* e = r ? tag_end(r) : NULL;
    if (!e) die("%s", "no <robot> element");
    sbuf b = {0};
    char after = e[1];
    e[1] = 0;
    sb_puts(&b, s);
    e[1] = after;
    sb_puts(&b, "\n<mujoco><compiler discardvisual=\"true\" balanceinertia=\"true\" "
                "fusestatic=\"true\"/></mujoco>\n");
    if (root_link)
        sb_printf(&b,
                  "<link name=\"world\"/><joint name=\"sn_bench_free\" type=\"floating\">"
                  "<parent link=\"world\"/><child link=\"%s\"/></joint>\n",
                  root_link);
    sb_puts(&b, e + 1);
    free(s);
    return b.s;
}
#endif

// ---------------------------------------------------------------------------------------------
// one model on both engines

typedef struct bench {
    char name[32];
    int nq, nv, floating;
    sn_model* sm;
    sn_data* sd;
    sn_real* x;   // right-hand side for the solve kernel (nv)
    sn_real* rhs; // a fixed random vector (nv)
#ifdef SN_BENCH_MUJOCO
    mjModel* mm;
    mjData* md;
    int* dofmap;  // sinew DOF -> MuJoCo DOF (nv)
    mjtNum* T;    // u_mj = T u_sn, orthogonal (nv x nv)
    mjtNum* eye;  // identity (nv x nv)
    mjtNum* res;  // M^-1 of the minv kernel (nv x nv)
    mjtNum* vec;  // scratch (nv)
    mjtNum* qacc; // accelerations of the minimal forward-dynamics chain (nv)
    mjtNum* mx;   // solve kernel output (nv)
    mjtNum* mrhs; // rhs in MuJoCo's DOF order (nv)
#endif
} bench;

static char g_tmpdir[256];

#ifdef SN_BENCH_MUJOCO
static const char* tmp_path(const char* leaf) {
    static char p[512];
    if (!g_tmpdir[0]) {
        snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/sinew_bench_XXXXXX");
        if (!mkdtemp(g_tmpdir)) die("mkdtemp failed: %s", strerror(errno));
    }
    snprintf(p, sizeof p, "%s/%s", g_tmpdir, leaf);
    return p;
}
#endif

static void tmp_cleanup(void) {
    if (!g_tmpdir[0]) return;
    char p[512];
    const char* leaves[] = {"model.urdf"};
    for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", g_tmpdir, leaves[i]);
        remove(p);
    }
    rmdir(g_tmpdir);
}

// random state within the joint limits, identical for both engines
static void random_state(bench* b) {
    const sn_model* m = b->sm;
    uint64_t s = seed_of(b->name);
    sn_real* q = xmalloc((size_t)m->nq * sizeof(sn_real));
    sn_real* u = xmalloc((size_t)m->nv * sizeof(sn_real));
    for (int j = 0; j < m->njoint; j++) {
        sn_real* qj = q + m->joint_qadr[j];
        int v = m->joint_vadr[j];
        switch (m->joint_type[j]) {
        case SN_JOINT_FLOATING:
            for (int k = 0; k < 3; k++)
                qj[k] = rng_uniform(&s, -1, 1);
            for (int k = 0; k < 4; k++)
                qj[3 + k] = rng_uniform(&s, -1, 1);
            break;
        case SN_JOINT_SPHERICAL:
            for (int k = 0; k < 4; k++)
                qj[k] = rng_uniform(&s, -1, 1);
            break;
        default: {
            double lo = -PI, hi = PI;
            if (m->joint_type[j] == SN_JOINT_PRISMATIC) lo = -0.1, hi = 0.1;
            if (m->dof_limited[v]) {
                lo = fmax(lo, m->dof_lower[v]);
                hi = fmin(hi, m->dof_upper[v]);
                if (!(hi > lo)) lo = hi = m->dof_lower[v];
            }
            qj[0] = rng_uniform(&s, lo, hi);
        }
        }
    }
    for (int i = 0; i < m->nv; i++)
        u[i] = rng_uniform(&s, -1, 1);
    for (int i = 0; i < m->nv; i++)
        b->rhs[i] = rng_uniform(&s, -1, 1);
    if (sn_set_state(m, b->sd, q, m->nq, u, m->nv) != SN_OK)
        die("%s: sn_set_state failed", b->name);
    free(q);
    free(u);
}

#ifdef SN_BENCH_MUJOCO
static void mj_load(bench* b, const char* urdf_text, int keep_primitives) {
    const sn_model* m = b->sm;
    const char* root = NULL;
    if (b->floating) {
        for (int f = 0; f < m->nframe; f++)
            if (m->frame_parent[f] == SN_NONE) root = sn_model_name(m, SN_OBJ_FRAME, f);
        if (!root) die("%s: no root link", b->name);
    }
    char* text = mujoco_urdf(urdf_text, root, keep_primitives);
    const char* path = tmp_path("model.urdf");
    if (!write_file(path, text)) die("cannot write %s", path);
    free(text);
    char err[1000] = "";
    b->mm = mj_loadXML(path, NULL, err, sizeof err);
    remove(path);
    if (!b->mm) die("MuJoCo could not load the model: %s", err);
    mjModel* mm = b->mm;
    // unconstrained smooth dynamics: no contacts, no constraints, no passive forces (sinew's
    // ABA has no joint damping), so both engines compute the same u-dot
    mm->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_CONTACT | mjDSBL_PASSIVE;
    b->md = mj_makeData(mm);
    if (mm->nv != m->nv || mm->nq != m->nq) die("%s: MuJoCo's nq/nv differ from sinew's", b->name);
    int nv = m->nv;
    b->dofmap = xmalloc((size_t)nv * sizeof(int));
    b->T = xmalloc((size_t)nv * nv * sizeof(mjtNum));
    b->eye = xmalloc((size_t)nv * nv * sizeof(mjtNum));
    b->res = xmalloc((size_t)nv * nv * sizeof(mjtNum));
    b->vec = xmalloc((size_t)nv * sizeof(mjtNum));
    b->qacc = xmalloc((size_t)nv * sizeof(mjtNum));
    b->mx = xmalloc((size_t)nv * sizeof(mjtNum));
    b->mrhs = xmalloc((size_t)nv * sizeof(mjtNum));
    for (int i = 0; i < nv; i++)
        b->eye[i * nv + i] = 1;
    // joints by name; the floating base is MuJoCo's free joint
    for (int j = 0; j < m->njoint; j++) {
        int mj;
        if (m->joint_type[j] == SN_JOINT_FLOATING) {
            mj = -1;
            for (int k = 0; k < mm->njnt; k++)
                if (mm->jnt_type[k] == mjJNT_FREE) mj = k;
        } else {
            mj = mj_name2id(mm, mjOBJ_JOINT, sn_model_name(m, SN_OBJ_JOINT, j));
        }
        if (mj < 0) die("joint %s not found in MuJoCo's model", sn_model_name(m, SN_OBJ_JOINT, j));
        if (m->joint_type[j] == SN_JOINT_SPHERICAL) die("%s: spherical joints not mapped", b->name);
        for (int k = 0; k < m->joint_nv[j]; k++)
            b->dofmap[m->joint_vadr[j] + k] = mm->jnt_dofadr[mj] + k;
        for (int k = 0; k < m->joint_nq[j]; k++)
            b->md->qpos[mm->jnt_qposadr[mj] + k] = b->sd->q[m->joint_qadr[j] + k];
    }
    // T: a permutation, and for the base angular velocity world -> body frame (R^T)
    for (int i = 0; i < nv; i++)
        b->T[b->dofmap[i] * nv + i] = 1;
    if (b->floating) {
        sn_fk(m, b->sd);
        const sn_real* R = b->sd->body_rot + 9; // body 1, world <- body
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                b->T[(b->dofmap[3 + r]) * nv + 3 + c] = R[3 * c + r];
    }
    for (int r = 0; r < nv; r++) {
        mjtNum s = 0, t = 0;
        for (int c = 0; c < nv; c++) {
            s += b->T[r * nv + c] * b->sd->u[c];
            t += b->T[r * nv + c] * b->rhs[c];
        }
        b->md->qvel[r] = s;
        b->mrhs[r] = t;
    }
}
#endif

static bench* bench_load(const char* name, const char* models_dir, int with_mujoco,
                         int keep_primitives) {
    bench* b = xmalloc(sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    sn_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.balance_inertia = 1;
    sn_error err;
    memset(&err, 0, sizeof err);
    char* text = NULL;
    char path[1024];
    sn_status st;
    if (strncmp(name, "chain", 5) == 0) {
        int n = atoi(name + 5);
        if (n < 1 || n > 100000) die("bad chain size in %s", name);
        text = chain_urdf(n);
        opts.base = SN_BASE_FIXED;
        st = sn_load_urdf_string(text, strlen(text), name, NULL, &opts, &b->sm, &err);
    } else {
        const model_spec* spec = NULL;
        for (int i = 0; i < NMODELS; i++)
            if (strcmp(MODELS[i].name, name) == 0) spec = &MODELS[i];
        if (!spec) die("unknown model %s (see --list)", name);
        snprintf(path, sizeof path, "%s/%s", models_dir, spec->path);
        opts.base = spec->base;
        st = sn_load_urdf(path, &opts, &b->sm, &err);
        if (st == SN_OK && with_mujoco) {
            text = read_file(path, NULL);
            if (!text) die("cannot read %s", path);
        }
    }
    if (st != SN_OK) {
        fprintf(stderr, "sinew_bench: %s: %s: %s\n", name, sn_status_str(st), err.msg);
        exit(2);
    }
    if (sn_data_create(b->sm, NULL, &b->sd, &err) != SN_OK) die("%s: sn_data_create failed", name);
    b->nq = b->sm->nq;
    b->nv = b->sm->nv;
    b->floating = b->sm->is_floating;
    b->x = xmalloc((size_t)b->nv * sizeof(sn_real));
    b->rhs = xmalloc((size_t)b->nv * sizeof(sn_real));
    random_state(b);
#ifdef SN_BENCH_MUJOCO
    if (with_mujoco) mj_load(b, text, keep_primitives);
#else
    (void)with_mujoco;
    (void)keep_primitives;
#endif
    free(text);
    return b;
}

static void bench_free(bench* b) {
    if (!b) return;
    sn_data_destroy(b->sd);
    sn_model_destroy(b->sm);
    free(b->x);
    free(b->rhs);
#ifdef SN_BENCH_MUJOCO
    if (b->md) mj_deleteData(b->md);
    if (b->mm) mj_deleteModel(b->mm);
    free(b->dofmap);
    free(b->T);
    free(b->eye);
    free(b->res);
    free(b->vec);
    free(b->qacc);
    free(b->mx);
    free(b->mrhs);
#endif
    free(b);
}

// ---------------------------------------------------------------------------------------------
// kernels

static void sn_k_fkpos(bench* b) {
    sn_fk(b->sm, b->sd);
}
static void sn_k_fk(bench* b) {
    sn_fk(b->sm, b->sd);
    sn_fk_vel(b->sm, b->sd);
}
static void sn_k_crba(bench* b) {
    sn_crba(b->sm, b->sd);
}
static void sn_k_rnea(bench* b) {
    sn_nonlinear(b->sm, b->sd);
}
static void sn_k_aba(bench* b) {
    sn_fk(b->sm, b->sd);
    sn_fk_vel(b->sm, b->sd);
    sn_aba(b->sm, b->sd, NULL, NULL);
}
static void sn_k_minv(bench* b) {
    sn_crba(b->sm, b->sd);
    sn_inverse_mass(b->sm, b->sd);
}
static void sn_k_factor(bench* b) {
    sn_factor_mass(b->sm, b->sd);
}
static void sn_k_solve(bench* b) {
    memcpy(b->x, b->rhs, (size_t)b->nv * sizeof(sn_real));
    sn_solve_mass(b->sm, b->sd, b->x);
}

#ifdef SN_BENCH_MUJOCO
static void mj_k_fkpos(bench* b) {
    mj_kinematics(b->mm, b->md);
    mj_comPos(b->mm, b->md);
}
static void mj_k_fk(bench* b) {
    mj_kinematics(b->mm, b->md);
    mj_comPos(b->mm, b->md);
    mj_comVel(b->mm, b->md);
}
static void mj_k_crba(bench* b) {
    mj_crb(b->mm, b->md);
}
static void mj_k_rnea(bench* b) {
    mj_rne(b->mm, b->md, 0, b->md->qfrc_bias);
}
// MuJoCo's smooth forward dynamics, stage by stage, as mj_forward runs it (constraints, contacts
// and passive forces disabled); the answer is qacc_smooth
static void mj_k_aba(bench* b) {
    mj_fwdPosition(b->mm, b->md);
    mj_fwdVelocity(b->mm, b->md);
    mj_fwdActuation(b->mm, b->md);
    mj_fwdAcceleration(b->mm, b->md);
}
// the least MuJoCo needs for u-dot = M^-1 (tau - h): poses, com frame, M, its factor,
// velocities, bias force, one solve
static void mj_k_aba_min(bench* b) {
    const mjModel* m = b->mm;
    mjData* d = b->md;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_crb(m, d);
    mj_factorM(m, d);
    mj_comVel(m, d);
    mj_rne(m, d, 0, d->qfrc_bias);
    for (int i = 0; i < m->nv; i++)
        b->vec[i] = -d->qfrc_bias[i];
    mj_solveM(m, d, b->qacc, b->vec, 1);
}
static void mj_k_minv(bench* b) {
    mj_crb(b->mm, b->md);
    mj_factorM(b->mm, b->md);
    mj_solveM(b->mm, b->md, b->res, b->eye, b->nv);
}
static void mj_k_factor(bench* b) {
    mj_factorM(b->mm, b->md);
}
static void mj_k_solve(bench* b) {
    mj_solveM(b->mm, b->md, b->mx, b->mrhs, 1);
}
#define MJK(f) f
#else
#define MJK(f) NULL
#endif

typedef void (*kfn)(bench*);

typedef struct kernel {
    const char* name;
    kfn sn, mj;
    int chain; // also timed on the chains
    const char* sn_desc;
    const char* mj_desc;
} kernel;

static const kernel KERNELS[] = {
    {"fkpos", sn_k_fkpos, MJK(mj_k_fkpos), 0, "sn_fk", "mj_kinematics + mj_comPos"},
    {"fk", sn_k_fk, MJK(mj_k_fk), 0, "sn_fk + sn_fk_vel", "mj_kinematics + mj_comPos + mj_comVel"},
    {"crba", sn_k_crba, MJK(mj_k_crba), 1, "sn_crba", "mj_crb"},
    {"rnea", sn_k_rnea, MJK(mj_k_rnea), 1, "sn_nonlinear", "mj_rne(flg_acc=0)"},
    {"aba", sn_k_aba, MJK(mj_k_aba), 1, "sn_fk + sn_fk_vel + sn_aba",
     "mj_fwdPosition + mj_fwdVelocity + mj_fwdActuation + mj_fwdAcceleration"},
    {"aba_min", sn_k_aba, MJK(mj_k_aba_min), 0, "sn_fk + sn_fk_vel + sn_aba",
     "mj_kinematics + mj_comPos + mj_crb + mj_factorM + mj_comVel + mj_rne + mj_solveM"},
    {"minv", sn_k_minv, MJK(mj_k_minv), 0, "sn_crba + sn_inverse_mass",
     "mj_crb + mj_factorM + mj_solveM(identity, nv columns)"},
    {"factor", sn_k_factor, MJK(mj_k_factor), 0, "sn_factor_mass", "mj_factorM"},
    {"solve", sn_k_solve, MJK(mj_k_solve), 0, "sn_solve_mass (1 vector)", "mj_solveM (1 vector)"},
};
#define NKERNELS ((int)(sizeof KERNELS / sizeof KERNELS[0]))

static const kernel* find_kernel(const char* name) {
    for (int i = 0; i < NKERNELS; i++)
        if (strcmp(KERNELS[i].name, name) == 0) return &KERNELS[i];
    return NULL;
}

// every stage once, so that each kernel finds its inputs computed
static void prepare(bench* b) {
    sn_fk(b->sm, b->sd);
    sn_fk_vel(b->sm, b->sd);
    sn_crba(b->sm, b->sd);
    sn_factor_mass(b->sm, b->sd);
    sn_nonlinear(b->sm, b->sd);
    if (sn_aba(b->sm, b->sd, NULL, NULL) != SN_OK) die("%s: sn_aba failed", b->name);
#ifdef SN_BENCH_MUJOCO
    if (b->mm) mj_k_aba(b);
#endif
}

// ---------------------------------------------------------------------------------------------
// agreement: the engines compute the same quantities (printed, never asserted)

#ifdef SN_BENCH_MUJOCO
typedef struct agreement {
    double m, h, udot, minv;
} agreement;

static double rel_err(const double* a, const double* b, int n) {
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(a[i]));
    }
    return d / (s > 0 ? s : 1);
}

// y = T^T x (vector) or T^T X T (matrix) : MuJoCo's DOF order and base frame -> sinew's
static void to_sn_vec(const bench* b, const mjtNum* x, double* y) {
    int nv = b->nv;
    for (int i = 0; i < nv; i++) {
        double s = 0;
        for (int k = 0; k < nv; k++)
            s += b->T[k * nv + i] * x[k];
        y[i] = s;
    }
}

static void to_sn_mat(const bench* b, const mjtNum* x, double* y) {
    int nv = b->nv;
    double* t = xmalloc((size_t)nv * nv * sizeof(double));
    for (int k = 0; k < nv; k++) // t = X T
        for (int j = 0; j < nv; j++) {
            double s = 0;
            for (int l = 0; l < nv; l++)
                s += x[k * nv + l] * b->T[l * nv + j];
            t[k * nv + j] = s;
        }
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) {
            double s = 0;
            for (int k = 0; k < nv; k++)
                s += b->T[k * nv + i] * t[k * nv + j];
            y[i * nv + j] = s;
        }
    free(t);
}

static agreement check(bench* b) {
    int nv = b->nv;
    agreement a;
    double* full = xmalloc((size_t)nv * nv * sizeof(double));
    double* y = xmalloc((size_t)nv * nv * sizeof(double));
    prepare(b);
    mj_fullM(b->mm, full, b->md->qM);
    to_sn_mat(b, full, y);
    a.m = rel_err(b->sd->mass_matrix, y, nv * nv);
    to_sn_vec(b, b->md->qfrc_bias, y);
    a.h = rel_err(b->sd->nonlinear, y, nv);
    to_sn_vec(b, b->md->qacc_smooth, y);
    a.udot = rel_err(b->sd->udot, y, nv);
    sn_k_minv(b);
    mj_k_minv(b);
    to_sn_mat(b, b->res, y);
    a.minv = rel_err(b->sd->inverse_mass, y, nv * nv);
    // the minimal chain and the solve kernel agree with the pipeline
    mj_k_aba_min(b);
    to_sn_vec(b, b->qacc, y);
    a.udot = fmax(a.udot, rel_err(b->sd->udot, y, nv));
    sn_k_solve(b);
    mj_k_solve(b);
    to_sn_vec(b, b->mx, y);
    a.minv = fmax(a.minv, rel_err(b->x, y, nv));
    free(full);
    free(y);
    return a;
}
#endif

// ---------------------------------------------------------------------------------------------
// timing

typedef struct timing {
    double median, min; // ns per call: median and minimum of the batch means
    long n;             // calls per batch
} timing;

static double run_batch(kfn f, bench* b, long n) {
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        f(b);
    return (now_ns() - t0) / (double)n;
}

// calls per batch so that a batch lasts about target_ns (this also warms up)
static long calibrate(kfn f, bench* b, double target_ns) {
    long n = 1;
    for (;;) {
        double per = run_batch(f, b, n);
        double total = per * (double)n;
        if (total >= target_ns / 8 || n >= (1L << 28)) {
            double want = target_ns / (per > 0 ? per : 1);
            return want < 1 ? 1 : (long)want;
        }
        n *= 4;
    }
}

static timing summarize(double* v, int nb, long n) {
    timing t;
    qsort(v, (size_t)nb, sizeof(double), cmp_double);
    t.median = v[nb / 2];
    t.min = v[0];
    t.n = n;
    return t;
}

// sinew and MuJoCo batches interleaved (order alternating), so both see the same machine load
static void time_pair(const kernel* k, bench* b, int nb, double target_ns, timing* ts, timing* tm) {
    double vs[MAXN], vm[MAXN];
    int with_mj = k->mj != NULL;
#ifdef SN_BENCH_MUJOCO
    with_mj = with_mj && b->mm != NULL;
#endif
    prepare(b);
    long ns = calibrate(k->sn, b, target_ns), nm = 0;
    if (with_mj) nm = calibrate(k->mj, b, target_ns);
    run_batch(k->sn, b, ns);
    if (with_mj) run_batch(k->mj, b, nm);
    for (int i = 0; i < nb; i++) {
        if (with_mj && (i & 1)) vm[i] = run_batch(k->mj, b, nm);
        vs[i] = run_batch(k->sn, b, ns);
        if (with_mj && !(i & 1)) vm[i] = run_batch(k->mj, b, nm);
    }
    *ts = summarize(vs, nb, ns);
    if (with_mj) {
        *tm = summarize(vm, nb, nm);
    } else {
        tm->median = tm->min = NAN;
        tm->n = 0;
    }
}

// ---------------------------------------------------------------------------------------------
// output

typedef struct row {
    char model[32];
    int nv;
    const char* kernel;
    timing s, m;
} row;

static void fmt_ns(char* buf, size_t n, double ns) {
    if (!(ns >= 0))
        snprintf(buf, n, "-");
    else if (ns < 100)
        snprintf(buf, n, "%.1f", ns);
    else
        snprintf(buf, n, "%.0f", ns);
}

static void fmt_ratio(char* buf, size_t n, double a, double b) {
    if (!(a >= 0) || !(b > 0))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2f", a / b);
}

static void cpu_name(char* buf, size_t n) {
    snprintf(buf, n, "unknown");
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char* c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ')
                    c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, n, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

static int mkdirs(const char* path) {
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char* c = p + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return 0;
        *c = '/';
    }
    return mkdir(p, 0777) == 0 || errno == EEXIST;
}

#define CSV_HEADER "date,host,rev,model,nv,kernel,metric,sinew,mujoco,ratio\n"

static void csv_rows(FILE* f, const char* date, const char* host, const char* rev, const row* r) {
    const char* metrics[] = {"ns_median", "ns_min", "ns_per_dof"};
    for (int k = 0; k < 3; k++) {
        if (k == 2 && strncmp(r->model, "chain", 5) != 0) continue;
        double s = k == 1 ? r->s.min : r->s.median, m = k == 1 ? r->m.min : r->m.median;
        if (k == 2) s /= r->nv, m /= r->nv;
        fprintf(f, "%s,%s,%s,%s,%d,%s,%s,%.6g,", date, host, rev, r->model, r->nv, r->kernel,
                metrics[k], s);
        if (m >= 0)
            fprintf(f, "%.6g,%.4g\n", m, s / m);
        else
            fprintf(f, ",\n");
    }
}

static void write_csv(const char* path, int append, const char* host, const char* rev,
                      const row* rows, int nrow) {
    struct stat st;
    int fresh = !append || stat(path, &st) != 0 || st.st_size == 0;
    FILE* f = fopen(path, append ? "a" : "w");
    if (!f) {
        fprintf(stderr, "sinew_bench: cannot write %s\n", path);
        return;
    }
    if (fresh) fputs(CSV_HEADER, f);
    char date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", localtime(&t));
    for (int i = 0; i < nrow; i++)
        csv_rows(f, date, host, rev, &rows[i]);
    fclose(f);
}

// ---------------------------------------------------------------------------------------------
// modes

typedef struct options {
    const char* models_dir;
    const char* results_dir;
    const char* csv;
    const char* rev;
    const char* model_list;
    const char* kernel_list;
    const char* kernel;
    const char* model;
    const char* engine;
    long iters;
    int batches;
    double target_ms;
    int no_chains, chains_only, no_append, keep_primitives;
} options;

static int in_list(const char* list, const char* name) {
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char* p = list; *p;) {
        const char* e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && strncmp(p, name, n) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static int count_mode(const options* o) {
    const kernel* k = find_kernel(o->kernel);
    if (!k) die("unknown kernel %s (see --list)", o->kernel);
    int mujoco = strcmp(o->engine, "mujoco") == 0;
    if (!mujoco && strcmp(o->engine, "sinew") != 0) die("unknown engine %s", o->engine);
#ifndef SN_BENCH_MUJOCO
    if (mujoco) die("%s", "built without MuJoCo");
#endif
    bench* b = bench_load(o->model, o->models_dir, mujoco, o->keep_primitives);
    prepare(b);
    kfn f = mujoco ? k->mj : k->sn;
    long n = o->iters;
    CALLGRIND_START_INSTRUMENTATION;
    for (long i = 0; i < n; i++)
        f(b);
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("%s %s %s %ld\n", o->model, k->name, o->engine, n);
    bench_free(b);
    tmp_cleanup();
    return 0;
}

static void print_row(const row* r, int chain) {
    char s[32], m[32], q[32], sd[32], md[32];
    fmt_ns(s, sizeof s, r->s.median);
    fmt_ns(m, sizeof m, r->m.median);
    fmt_ratio(q, sizeof q, r->s.median, r->m.median);
    if (chain) {
        fmt_ns(sd, sizeof sd, r->s.median / r->nv);
        fmt_ns(md, sizeof md, r->m.median / r->nv);
        printf("| %s | %d | %s | %s | %s | %s | %s | %s |\n", r->model, r->nv, r->kernel, s, sd, m,
               md, q);
    } else {
        printf("| %s | %d | %s | %s | %s | %s |\n", r->model, r->nv, r->kernel, s, m, q);
    }
    fflush(stdout);
}

// time the selected kernels of one model into rows[*nrow...]; chain: only the chain kernels
static void time_model(const options* o, bench* b, int chain, row* rows, int* nrow) {
    for (int j = 0; j < NKERNELS; j++) {
        if ((chain && !KERNELS[j].chain) || !in_list(o->kernel_list, KERNELS[j].name)) continue;
        row* r = &rows[(*nrow)++];
        snprintf(r->model, sizeof r->model, "%s", b->name);
        r->nv = b->nv;
        r->kernel = KERNELS[j].name;
        time_pair(&KERNELS[j], b, o->batches, o->target_ms * 1e6, &r->s, &r->m);
        print_row(r, chain);
    }
}

static void time_robots(const options* o, int mujoco, row* rows, int* nrow) {
    printf("| model | nv | kernel | sinew ns | MuJoCo ns | sinew/MuJoCo |\n");
    printf("|---|---:|---|---:|---:|---:|\n");
#ifdef SN_BENCH_MUJOCO
    agreement ag[NMODELS];
    const char* agname[NMODELS];
    int nag = 0;
#endif
    for (int i = 0; i < NMODELS; i++) {
        if (!in_list(o->model_list, MODELS[i].name)) continue;
        bench* b = bench_load(MODELS[i].name, o->models_dir, mujoco, o->keep_primitives);
#ifdef SN_BENCH_MUJOCO
        agname[nag] = MODELS[i].name;
        ag[nag++] = check(b);
#endif
        time_model(o, b, 0, rows, nrow);
        bench_free(b);
    }
#ifdef SN_BENCH_MUJOCO
    printf("\nAgreement at the benchmark state (max |sinew - MuJoCo| / max |sinew|):\n\n");
    printf("| model | M | h | u-dot | M^-1 |\n|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < nag; i++)
        printf("| %s | %.1e | %.1e | %.1e | %.1e |\n", agname[i], ag[i].m, ag[i].h, ag[i].udot,
               ag[i].minv);
#endif
}

static void time_chains(const options* o, int mujoco, row* rows, int* nrow) {
    printf("\nScaling: serial chains of revolute links (fixed base)\n\n");
    printf("| model | nv | kernel | sinew ns | sinew ns/DOF | MuJoCo ns | MuJoCo ns/DOF | "
           "sinew/MuJoCo |\n");
    printf("|---|---:|---|---:|---:|---:|---:|---:|\n");
    for (int c = 0; c < NCHAINS; c++) {
        char name[32];
        snprintf(name, sizeof name, "chain%d", CHAIN_SIZES[c]);
        if (o->model_list && !in_list(o->model_list, name) && !in_list(o->model_list, "chains"))
            continue;
        bench* b = bench_load(name, o->models_dir, mujoco, 0);
        time_model(o, b, 1, rows, nrow);
        bench_free(b);
    }
}

static int timing_mode(const options* o) {
    char host[256] = "unknown", cpu[256];
    gethostname(host, sizeof host - 1);
    cpu_name(cpu, sizeof cpu);
    row* rows = xmalloc(sizeof(row) * (size_t)(NMODELS + NCHAINS) * NKERNELS);
    int nrow = 0, mujoco = 0;
#ifdef SN_BENCH_MUJOCO
    mujoco = 1;
    printf("# sinew %s vs MuJoCo %d.%d.%d\n\n", sn_version(), mj_version() / 100,
           mj_version() / 10 % 10, mj_version() % 10);
#else
    printf("# sinew %s (built without MuJoCo)\n\n", sn_version());
#endif
    printf("host %s, CPU %s, rev %s, C flags %s; median of %d batch means, ns per call.\n\n", host,
           cpu, o->rev, SN_BENCH_CFLAGS, o->batches);
    if (!o->chains_only) time_robots(o, mujoco, rows, &nrow);
    if (!o->no_chains) time_chains(o, mujoco, rows, &nrow);
    printf("\nKernels (sinew | MuJoCo):\n\n");
    for (int j = 0; j < NKERNELS; j++)
        if (in_list(o->kernel_list, KERNELS[j].name))
            printf("- %s: %s | %s\n", KERNELS[j].name, KERNELS[j].sn_desc, KERNELS[j].mj_desc);

    if (!o->no_append) {
        char dir[1024], path[1100];
        snprintf(dir, sizeof dir, "%s/%s", o->results_dir, host);
        if (mkdirs(dir)) {
            snprintf(path, sizeof path, "%s/bench.csv", dir);
            write_csv(path, 1, host, o->rev, rows, nrow);
            fprintf(stderr, "sinew_bench: appended %d rows to %s\n", nrow, path);
        } else {
            fprintf(stderr, "sinew_bench: cannot create %s\n", dir);
        }
    }
    if (o->csv) write_csv(o->csv, 0, host, o->rev, rows, nrow);
    free(rows);
    tmp_cleanup();
    return 0;
}

static void usage(void) {
    printf("usage: sinew_bench [--models LIST] [--kernels LIST] [--no-chains] [--chains-only]\n"
           "                   [--batches N] [--target-ms MS] [--csv FILE] [--no-append]\n"
           "                   [--results DIR] [--models-dir DIR] [--rev REV] [--mj-geoms]\n"
           "       sinew_bench --kernel NAME --model NAME [--engine sinew|mujoco] --iters N\n"
           "       sinew_bench --list | --features\n");
}

int main(int argc, char** argv) {
    options o;
    memset(&o, 0, sizeof o);
    o.models_dir = getenv("SN_MODELS_DIR") ? getenv("SN_MODELS_DIR") : SN_BENCH_MODELS_DIR;
    o.results_dir = SN_BENCH_RESULTS_DIR;
    o.rev = "unknown";
    o.engine = "sinew";
    o.iters = -1;
    o.batches = 21;
    o.target_ms = 3;
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name, field)                                                                           \
    if (strcmp(a, name) == 0) {                                                                    \
        if (!v) die("%s needs a value", name);                                                     \
        field = v;                                                                                 \
        i++;                                                                                       \
        continue;                                                                                  \
    }
        ARG("--models-dir", o.models_dir)
        ARG("--results", o.results_dir)
        ARG("--csv", o.csv)
        ARG("--rev", o.rev)
        ARG("--models", o.model_list)
        ARG("--kernels", o.kernel_list)
        ARG("--kernel", o.kernel)
        ARG("--model", o.model)
        ARG("--engine", o.engine)
#undef ARG
        if (strcmp(a, "--iters") == 0 && v) {
            o.iters = atol(v);
            i++;
        } else if (strcmp(a, "--batches") == 0 && v) {
            o.batches = atoi(v);
            i++;
        } else if (strcmp(a, "--target-ms") == 0 && v) {
            o.target_ms = atof(v);
            i++;
        } else if (strcmp(a, "--no-chains") == 0) {
            o.no_chains = 1;
        } else if (strcmp(a, "--chains-only") == 0) {
            o.chains_only = 1;
        } else if (strcmp(a, "--no-append") == 0) {
            o.no_append = 1;
        } else if (strcmp(a, "--mj-geoms") == 0) {
            o.keep_primitives = 1;
        } else if (strcmp(a, "--list") == 0) {
            printf("models:");
            for (int k = 0; k < NMODELS; k++)
                printf(" %s", MODELS[k].name);
            printf(" chainN (N revolute links, e.g.");
            for (int k = 0; k < NCHAINS; k++)
                printf(" chain%d", CHAIN_SIZES[k]);
            printf(")\nkernels:");
            for (int k = 0; k < NKERNELS; k++)
                printf(" %s", KERNELS[k].name);
            printf("\n");
            return 0;
        } else if (strcmp(a, "--features") == 0) {
#ifdef SN_BENCH_MUJOCO
            printf("mujoco ");
#endif
#ifdef SN_BENCH_CALLGRIND
            printf("callgrind ");
#endif
            printf("\n");
            return 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return 0;
        } else {
            usage();
            die("unknown argument %s", a);
        }
    }
    if (o.batches < 1 || o.batches > MAXN) die("%s", "--batches must be in 1..64");
    if (!(o.target_ms > 0)) die("%s", "--target-ms must be positive");
    if (o.kernel || o.model || o.iters >= 0) {
        if (!o.kernel || !o.model || o.iters < 0)
            die("%s", "count mode needs --kernel, --model and --iters");
        return count_mode(&o);
    }
    return timing_mode(&o);
}
