// SPDX-License-Identifier: Apache-2.0
// bench.c: speed of the sinew kernels, measured side by side with MuJoCo in the same process on
// the same model files and the same random states. Never part of the tests.
//
//   sinew_bench [--models a,b] [--kernels k,l] [--no-chains] [--chains-only] [--batches 21]
//               [--target-ms 3] [--steps 300] [--contact-steps 1000] [--csv FILE] [--no-append]
//               [--results DIR] [--rev REV]
//       timing mode: a Markdown table on stdout, rows appended to RESULTS/<hostname>/bench.csv
//   sinew_bench --kernel NAME --model NAME --engine sinew|mujoco --iters N
//       count mode: N calls of one kernel and nothing else timed, for callgrind (bench/run.sh);
//       for the step kernels, N steps from the start state; the contact step kernels then print
//       "stats contacts_per_step X iterations_per_step Y" of the same N steps
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

static void die(const char* fmt, const char* a) __attribute__((noreturn));
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

// PD target of the step kernels: joints not listed stand at 0
typedef struct pose_entry {
    const char* joint;
    double value;
} pose_entry;

typedef struct model_spec {
    const char* name;
    const char* path; // relative to the models directory
    sn_base_mode base;
    const pose_entry* pose; // PD target of the step kernels
    int contact;            // the contact step kernels: standing on its feet (collision spheres)
} model_spec;

// ANYmal C: raisimGym's standing configuration
static const pose_entry POSE_ANYMAL[] = {
    {"LF_HAA", 0.03}, {"LF_HFE", 0.4},  {"LF_KFE", -0.8}, {"RF_HAA", -0.03}, {"RF_HFE", 0.4},
    {"RF_KFE", -0.8}, {"LH_HAA", 0.03}, {"LH_HFE", -0.4}, {"LH_KFE", 0.8},   {"RH_HAA", -0.03},
    {"RH_HFE", -0.4}, {"RH_KFE", 0.8},  {NULL, 0}};
// Romeo: "half_sitting" of tsid_romeo/srdf/romeo_collision.srdf
static const pose_entry POSE_ROMEO[] = {
    {"LHipPitch", -0.2},      {"LKneePitch", 0.3},      {"LAnklePitch", -0.1},
    {"RHipPitch", -0.2},      {"RKneePitch", 0.3},      {"RAnklePitch", -0.1},
    {"LShoulderPitch", 1.57}, {"RShoulderPitch", 1.57}, {NULL, 0}};
// Panda: "default" of erd_panda/srdf/panda.srdf, fingers half open
static const pose_entry POSE_PANDA[] = {{"panda_joint2", -0.785398},
                                        {"panda_joint4", -2.35619},
                                        {"panda_joint6", 1.5707},
                                        {"panda_joint7", 0.785398},
                                        {"panda_finger_joint1", 0.02},
                                        {"panda_finger_joint2", 0.02},
                                        {NULL, 0}};

#define STEP_DT 0.001 // time step of both engines in the step kernels (s)
#define STEP_KP 100.0 // PD gains on every joint (N m/rad or N/m)
#define STEP_KD 1.0   // (N m s/rad or N s/m)

// the contact step kernels: the robot standing on its foot spheres on a ground plane z = 0
#define CONTACT_KP 300.0     // PD gains (N m/rad): ANYmal settles 8 mm below the pose in 0.3 s
#define CONTACT_KD 5.0       // (N m s/rad); kp = 100, kd = 1 bounces by +-1.5 cm for seconds
#define CONTACT_FRICTION 0.8 // both engines (sinew's default material)
#define CONTACT_MAXIT 150    // sinew's solver: its documented defaults, set explicitly
#define CONTACT_TOL 1e-10
#define CONTACT_LONG_STEPS 10000 // the stance check continues the run to 10 s
#define NFOOT 4

static const model_spec MODELS[] = {
    {"anymal_c", "raisim_anymal_c/urdf/anymal.urdf", SN_BASE_FLOATING, POSE_ANYMAL, 1},
    // Romeo's collisions are meshes, which sinew does not collide yet: no contact step
    {"romeo", "tsid_romeo/urdf/romeo.urdf", SN_BASE_FLOATING, POSE_ROMEO, 0},
    {"panda", "erd_panda/urdf/panda.urdf", SN_BASE_FIXED, POSE_PANDA, 0},
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

// which <collision> elements the URDF given to MuJoCo keeps
enum { KEEP_NONE = 0, KEEP_PRIMITIVES = 1, KEEP_SPHERES = 2 };

// remove every <tag> element, except those KEEP_PRIMITIVES (no <mesh> inside) or KEEP_SPHERES
// (a <sphere> inside) keeps
static void strip_elements(char* s, const char* tag, int keep) {
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
        if (keep) {
            char save = *end;
            *end = 0;
            int stays =
                keep == KEEP_SPHERES ? strstr(p, "<sphere") != NULL : strstr(p, "<mesh") == NULL;
            *end = save;
            if (stays) {
                p = end;
                continue;
            }
        }
        memmove(p, end, strlen(end) + 1);
    }
}

// the URDF MuJoCo loads: no comments, no visuals, no collisions (or only those `keep` keeps), a
// <mujoco><compiler/> extension, and for a floating base a "floating" joint from a world link
static char* mujoco_urdf(const char* urdf, const char* root_link, int keep) {
    size_t n = strlen(urdf);
    char* s = xmalloc(n + 1);
    memcpy(s, urdf, n + 1);
    strip_comments(s);
    strip_elements(s, "visual", 0);
    strip_elements(s, "collision", keep);
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
    // ---- step kernels (robots only): one world with one PD-controlled system ----
    sn_world* sw;
    sn_system* ss;
    sn_real* q_ref;  // PD position target, the standing pose (nq)
    sn_real* q_init; // state at the start of every run of steps (nq)
    sn_real* u_init; // (nv)
    sn_real* kp;     // PD gains (nv; zero on a floating base)
    sn_real* kd;
    long sn_fail;   // sinew steps that returned an error
    long nonfinite; // runs of steps that ended in a non-finite state (either engine)
#ifdef SN_BENCH_MUJOCO
    mjModel* mma; // step model, PD by position actuators (kp) and joint damping (kd)
    mjData* mda;
    mjModel* mmc; // step model, PD computed in mjcb_control into qfrc_applied
    mjData* mdc;
    mjtNum* mq_init; // q_init, u_init in MuJoCo's order and frames (nq, nv)
    mjtNum* mu_init;
    int npd;      // PD-controlled DOFs (MuJoCo's actuated joints)
    int* pd_qadr; // their qpos and dof addresses in MuJoCo (npd)
    int* pd_dof;
    mjtNum* pd_kp; // gains, target and effort limits (npd)
    mjtNum* pd_kd;
    mjtNum* pd_ref;
    mjtNum* pd_lim;
#endif
    // ---- contact step kernels (models with contact = 1): standing on the ground plane ----
    sn_world* cw; // ground on, friction CONTACT_FRICTION, PD CONTACT_KP / CONTACT_KD
    sn_system* cs;
    sn_data* cd;      // scratch for the stance checks (foot positions and velocities)
    sn_real* cq_ref;  // PD target: the standing pose, base at the origin (nq)
    sn_real* cq_init; // start of every run: the pose with the feet touching the ground (nq)
    sn_real* cu_init; // at rest (nv)
    sn_real* ckp;     // PD gains (nv)
    sn_real* ckd;
    int foot_geom[NFOOT]; // sinew's foot spheres (collision geometries)
    int zadr;             // sinew's q index of the base height
    long c_resets[3];     // resets of each engine's contact state (sinew, MuJoCo act, cb)
    long c_runs[3];       // runs whose end was recorded (at the next reset)
    double c_end[3][2];   // base height at the end of those runs: min, max
#ifdef SN_BENCH_MUJOCO
    mjModel* mmx; // contact model, PD by position actuators + joint damping (as mma)
    mjData* mdx;
    mjModel* mmxc; // contact model, PD in mjcb_control (as mmc)
    mjData* mdxc;
    mjtNum* mxq_init; // cq_init in MuJoCo's order (nq)
    mjtNum* cpd_kp;   // contact PD gains (npd)
    mjtNum* cpd_kd;
    int mfoot_geom[NFOOT]; // MuJoCo's geom of each of sinew's feet (the same in both models)
    int mzadr;             // MuJoCo's qpos index of the base height
    double foot_agree;     // start state: max |foot centre sinew - MuJoCo| (m)
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
    const char* leaves[] = {"model.urdf", "step.urdf", "step.xml", "contact.urdf", "contact.xml"};
    for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", g_tmpdir, leaves[i]);
        remove(p);
    }
    rmdir(g_tmpdir);
    g_tmpdir[0] = 0;
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
// the root link of a floating base (NULL for a fixed base)
static const char* root_link(const bench* b) {
    const sn_model* m = b->sm;
    const char* root = NULL;
    if (b->floating) {
        for (int f = 0; f < m->nframe; f++)
            if (m->frame_parent[f] == SN_NONE) root = sn_model_name(m, SN_OBJ_FRAME, f);
        if (!root) die("%s: no root link", b->name);
    }
    return root;
}

// MuJoCo model from a text, through a temporary file named leaf
static mjModel* mj_load_text(const char* text, const char* leaf) {
    char path[512];
    snprintf(path, sizeof path, "%s", tmp_path(leaf));
    if (!write_file(path, text)) die("cannot write %s", path);
    char err[1000] = "";
    mjModel* mm = mj_loadXML(path, NULL, err, sizeof err);
    remove(path);
    if (!mm) die("MuJoCo could not load the model: %s", err);
    return mm;
}

static void mj_load(bench* b, const char* urdf_text, int keep_primitives) {
    const sn_model* m = b->sm;
    char* text = mujoco_urdf(urdf_text, root_link(b), keep_primitives);
    b->mm = mj_load_text(text, "model.urdf");
    free(text);
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

// ---------------------------------------------------------------------------------------------
// step kernels: a world with one system under PD (gains on every joint, target the standing
// pose), and the same PD in MuJoCo two ways (position actuators + joint damping, or mjcb_control)

static int sn_joint_named(const sn_model* m, const char* name) {
    for (int j = 0; j < m->njoint; j++)
        if (strcmp(sn_model_name(m, SN_OBJ_JOINT, j), name) == 0) return j;
    return -1;
}

static int all_finite(const double* x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

// q_ref: the standing pose. The start of every run of steps: that pose with every joint moved by
// up to +-0.2 rad (+-5 mm), a floating base 1 m up and tilted by up to about 0.2 rad, base
// velocities up to 0.5 m/s and rad/s, joint velocities up to 1 rad/s (m/s), all drawn from a
// fixed seed
static void step_states(bench* b, const pose_entry* pose) {
    const sn_model* m = b->sm;
    uint64_t s = seed_of(b->name) ^ 0x53544550ull;
    for (int j = 0; j < m->njoint; j++) {
        int a = m->joint_qadr[j];
        if (m->joint_type[j] == SN_JOINT_FLOATING) {
            double e[4] = {1, 0, 0, 0}, n = 0;
            for (int k = 1; k < 4; k++)
                e[k] = rng_uniform(&s, -0.1, 0.1);
            for (int k = 0; k < 4; k++)
                n += e[k] * e[k];
            for (int k = 0; k < 3; k++)
                b->q_ref[a + k] = b->q_init[a + k] = k == 2 ? 1.0 : 0.0;
            for (int k = 0; k < 4; k++)
                b->q_ref[a + 3 + k] = b->q_init[a + 3 + k] = e[k] / sqrt(n);
        } else if (m->joint_nq[j] == 1) {
            double d = m->joint_type[j] == SN_JOINT_PRISMATIC ? 0.005 : 0.2;
            b->q_ref[a] = 0;
            b->q_init[a] = rng_uniform(&s, -d, d);
        } else {
            die("%s: step kernels handle floating and 1-DOF joints only", b->name);
        }
    }
    for (const pose_entry* p = pose; p && p->joint; p++) {
        int j = sn_joint_named(m, p->joint);
        if (j < 0) die("standing pose: no joint %s", p->joint);
        b->q_ref[m->joint_qadr[j]] = p->value;
        b->q_init[m->joint_qadr[j]] += p->value;
    }
    for (int v = 0; v < m->nv; v++) {
        int floating = m->joint_type[m->dof_joint[v]] == SN_JOINT_FLOATING;
        b->u_init[v] = floating ? rng_uniform(&s, -0.5, 0.5) : rng_uniform(&s, -1, 1);
        b->kp[v] = floating ? 0 : STEP_KP;
        b->kd[v] = floating ? 0 : STEP_KD;
    }
}

static void sn_step_setup(bench* b, const pose_entry* pose) {
    const sn_model* m = b->sm;
    b->q_ref = xmalloc((size_t)m->nq * sizeof(sn_real));
    b->q_init = xmalloc((size_t)m->nq * sizeof(sn_real));
    b->u_init = xmalloc((size_t)m->nv * sizeof(sn_real));
    b->kp = xmalloc((size_t)m->nv * sizeof(sn_real));
    b->kd = xmalloc((size_t)m->nv * sizeof(sn_real));
    step_states(b, pose);
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.timestep = STEP_DT;
    sn_error err;
    if (sn_world_create(&wo, &b->sw, &err) != SN_OK) die("sn_world_create: %s", err.msg);
    if (sn_world_add_system(b->sw, b->sm, &b->ss, &err) != SN_OK)
        die("sn_world_add_system: %s", err.msg);
    sn_real* zero = xmalloc((size_t)m->nv * sizeof(sn_real));
    if (sn_system_set_pd_gains(b->ss, b->kp, b->kd, m->nv) != SN_OK ||
        sn_system_set_pd_target(b->ss, b->q_ref, m->nq, zero, m->nv) != SN_OK)
        die("PD setup: %s", sn_world_last_error(b->sw));
    free(zero);
    // MuJoCo's step model has its constraints disabled: no joint limits on either side
    sn_system_set_joint_limits_enabled(b->ss, 0);
    // everything else stays at its default: SEMI_IMPLICIT, actuation limits = URDF effort,
    // URDF joint damping, gravity (0, 0, -9.81)
}

// sinew: reset before every run of steps (not timed); the flag selects inverse dynamics
static void sn_step_reset(bench* b, int id) {
    sn_system_set_compute_inverse_dynamics(b->ss, id);
    if (sn_system_set_state(b->ss, b->q_init, b->nq, b->u_init, b->nv) != SN_OK)
        die("sn_system_set_state: %s", sn_world_last_error(b->sw));
}
static void sn_r_step(bench* b) {
    sn_step_reset(b, 0);
}
static void sn_r_step_id(bench* b) {
    sn_step_reset(b, 1);
}

// ---------------------------------------------------------------------------------------------
// contact step kernels: the robot standing on its feet on the ground plane z = 0, under PD
// (CONTACT_KP, CONTACT_KD on every joint, target the standing pose), from the pose at rest with
// the lowest foot sphere touching the ground

// world centre of foot k's sphere at d's kinematics
static void sn_foot_centre(const bench* b, const sn_data* d, int k, double* c) {
    const sn_model* m = b->sm;
    int g = b->foot_geom[k];
    sn_real p[3], R[9];
    sn_frame_pose(m, d, m->geom_frame[g], p, R);
    const sn_real* o = m->geom_pos + 3 * g;
    for (int r = 0; r < 3; r++)
        c[r] = p[r] + R[3 * r] * o[0] + R[3 * r + 1] * o[1] + R[3 * r + 2] * o[2];
}

// horizontal speed of the material point at the bottom of foot k's sphere (its contact point on
// flat ground) at d's kinematics and velocities: the slip speed when the foot touches
static double sn_foot_slip_speed(const bench* b, const sn_data* d, int k) {
    const sn_model* m = b->sm;
    int g = b->foot_geom[k], f = m->geom_frame[g];
    sn_real p[3], R[9], v[3], w[3];
    double c[3];
    sn_frame_pose(m, d, f, p, R);
    sn_frame_velocity(m, d, f, v, w);
    sn_foot_centre(b, d, k, c);
    double x[3] = {c[0] - p[0], c[1] - p[1], c[2] - m->geom_size[3 * g] - p[2]};
    double vx = v[0] + w[1] * x[2] - w[2] * x[1], vy = v[1] + w[2] * x[0] - w[0] * x[2];
    return sqrt(vx * vx + vy * vy);
}

static void sn_contact_setup(bench* b, const pose_entry* pose) {
    const sn_model* m = b->sm;
    int nq = m->nq, nv = m->nv;
    if (!b->floating || m->joint_type[m->dof_joint[0]] != SN_JOINT_FLOATING)
        die("%s: the contact step needs a floating base", b->name);
    // the feet: the collision spheres
    int nf = 0;
    for (int g = 0; g < m->ngeom; g++)
        if (!m->geom_is_visual[g] && m->geom_type[g] == SN_GEOM_SPHERE) {
            if (nf == NFOOT) die("%s: more than 4 collision spheres", b->name);
            b->foot_geom[nf++] = g;
        }
    if (nf != NFOOT) die("%s: the contact step needs 4 collision spheres (feet)", b->name);
    b->cq_ref = xmalloc((size_t)nq * sizeof(sn_real));
    b->cq_init = xmalloc((size_t)nq * sizeof(sn_real));
    b->cu_init = xmalloc((size_t)nv * sizeof(sn_real));
    b->ckp = xmalloc((size_t)nv * sizeof(sn_real));
    b->ckd = xmalloc((size_t)nv * sizeof(sn_real));
    int a = m->joint_qadr[m->dof_joint[0]];
    b->zadr = a + 2;
    b->cq_ref[a + 3] = 1; // base at the origin, level
    for (const pose_entry* p = pose; p && p->joint; p++) {
        int j = sn_joint_named(m, p->joint);
        if (j < 0) die("standing pose: no joint %s", p->joint);
        b->cq_ref[m->joint_qadr[j]] = p->value;
    }
    for (int v = 0; v < nv; v++) {
        int floating = m->joint_type[m->dof_joint[v]] == SN_JOINT_FLOATING;
        b->ckp[v] = floating ? 0 : CONTACT_KP;
        b->ckd[v] = floating ? 0 : CONTACT_KD;
    }
    // base height: the lowest point of the lowest foot sphere on the ground
    sn_error err;
    if (sn_data_create(m, NULL, &b->cd, &err) != SN_OK) die("%s: sn_data_create failed", b->name);
    if (sn_set_state(m, b->cd, b->cq_ref, nq, b->cu_init, nv) != SN_OK || sn_fk(m, b->cd) != SN_OK)
        die("%s: FK of the standing pose failed", b->name);
    double low = INFINITY;
    for (int k = 0; k < NFOOT; k++) {
        double c[3];
        sn_foot_centre(b, b->cd, k, c);
        low = fmin(low, c[2] - m->geom_size[3 * b->foot_geom[k]]);
    }
    memcpy(b->cq_init, b->cq_ref, (size_t)nq * sizeof(sn_real));
    b->cq_init[b->zadr] = -low;
    sn_world_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.timestep = STEP_DT;
    if (sn_world_create(&wo, &b->cw, &err) != SN_OK) die("sn_world_create: %s", err.msg);
    if (sn_world_add_system(b->cw, m, &b->cs, &err) != SN_OK)
        die("sn_world_add_system: %s", err.msg);
    if (sn_world_set_ground(b->cw, 1, 0) != SN_OK ||
        sn_world_set_material(b->cw, CONTACT_FRICTION, 0, 0) != SN_OK ||
        sn_world_set_solver(b->cw, CONTACT_MAXIT, CONTACT_TOL) != SN_OK ||
        sn_system_set_pd_gains(b->cs, b->ckp, b->ckd, nv) != SN_OK ||
        sn_system_set_pd_target(b->cs, b->cq_ref, nq, b->cu_init, nv) != SN_OK)
        die("contact setup: %s", sn_world_last_error(b->cw));
    // everything else at its default: SEMI_IMPLICIT, erp 0.2, contact margin, joint limits on,
    // URDF damping and effort limits, gravity (0, 0, -9.81)
}

// the base height z at the end of engine e's last run of steps, recorded when its next run
// resets the state (the first reset ends no run)
static void contact_run_end(bench* b, int e, double z) {
    if (b->c_resets[e]++ == 0) return;
    if (b->c_runs[e]++ == 0) {
        b->c_end[e][0] = b->c_end[e][1] = z;
    } else {
        b->c_end[e][0] = fmin(b->c_end[e][0], z);
        b->c_end[e][1] = fmax(b->c_end[e][1], z);
    }
}

static void sn_contact_reset(bench* b) {
    if (sn_system_set_state(b->cs, b->cq_init, b->nq, b->cu_init, b->nv) != SN_OK)
        die("sn_system_set_state: %s", sn_world_last_error(b->cw));
}
static void sn_r_step_contact(bench* b) {
    contact_run_end(b, 0, sn_system_q(b->cs)[b->zadr]);
    sn_contact_reset(b);
}

#ifdef SN_BENCH_MUJOCO
static void mj_step_opts(mjModel* mm) {
    mm->opt.timestep = STEP_DT;
    mm->opt.integrator = mjINT_EULER; // the default: semi-implicit Euler, implicit joint damping
    mm->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_CONTACT;
    mm->opt.disableflags &= ~mjDSBL_PASSIVE; // joint damping on
}

// a and c have the same joints in the same order, at the same addresses
static void mj_same_joints(const mjModel* a, const mjModel* c, const char* what) {
    int ok = a->njnt == c->njnt && a->nq == c->nq && a->nv == c->nv && a->nbody == c->nbody;
    for (int k = 0; ok && k < a->njnt; k++) {
        const char* na = mj_id2name(a, mjOBJ_JOINT, k);
        const char* nc = mj_id2name(c, mjOBJ_JOINT, k);
        ok = a->jnt_type[k] == c->jnt_type[k] && a->jnt_qposadr[k] == c->jnt_qposadr[k] &&
             a->jnt_dofadr[k] == c->jnt_dofadr[k] && a->jnt_bodyid[k] == c->jnt_bodyid[k] &&
             ((!na && !nc) || (na && nc && strcmp(na, nc) == 0));
    }
    if (!ok) die("%s: MuJoCo models differ in their joints", what);
}

#define COPY_FIELD(dst, src, field, n)                                                             \
    memcpy(dst->field, src->field, (size_t)(n) * sizeof *dst->field)

// the MJCF MuJoCo saves for m0 (through a temporary file named leaf). MuJoCo 2.2.2 saves no
// <inertial> for a body whose links were fused (ANYmal's base): every body without one gets a
// placeholder, which mj_copy_exact overwrites with the imported values
static char* mj_saved_mjcf(const mjModel* m0, const char* leaf) {
    char xml[512];
    snprintf(xml, sizeof xml, "%s", tmp_path(leaf));
    char err[1000] = "";
    if (!mj_saveLastXML(xml, m0, err, sizeof err)) die("mj_saveLastXML: %s", err);
    char* mjcf = read_file(xml, NULL);
    remove(xml);
    if (!mjcf) die("cannot read %s", xml);
    sbuf fixed = {0};
    const char* rd = mjcf;
    for (char* p = strstr(mjcf, "<body "); p; p = strstr(p + 1, "<body ")) {
        char* e = tag_end(p);
        if (!e) die("%s", "bad <body> in the saved MJCF");
        const char* n = e + 1;
        while (*n == ' ' || *n == '\n' || *n == '\r' || *n == '\t')
            n++;
        if (e[-1] == '/' || strncmp(n, "<inertial", 9) == 0) continue;
        char save = e[1];
        e[1] = 0;
        sb_puts(&fixed, rd);
        e[1] = save;
        sb_puts(&fixed, "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>");
        rd = e + 1;
    }
    sb_puts(&fixed, rd);
    free(mjcf);
    return fixed.s;
}

// a copy of text with ins inserted before `at` (a pointer into text)
static char* text_insert(char* text, char* at, const char* ins) {
    sbuf t = {0};
    char save = *at;
    *at = 0;
    sb_puts(&t, text);
    *at = save;
    sb_puts(&t, ins);
    sb_puts(&t, at);
    return t.s;
}

// the <actuator> block of the actuator models: one position actuator per PD joint with gain kp
// (npd) and force range = the URDF effort limit, as sinew clamps
static char* mj_actuator_block(const bench* b, const mjModel* m0, const mjtNum* kp) {
    sbuf t = {0};
    sb_puts(&t, "  <actuator>\n");
    for (int i = 0; i < b->npd; i++) {
        sb_printf(&t, "    <position name=\"sn_pd%d\" joint=\"%s\" kp=\"%.17g\"", i,
                  mj_id2name(m0, mjOBJ_JOINT, m0->dof_jntid[b->pd_dof[i]]), kp[i]);
        if (isfinite(b->pd_lim[i]))
            sb_printf(&t, " forcelimited=\"true\" forcerange=\"%.17g %.17g\"", -b->pd_lim[i],
                      b->pd_lim[i]);
        sb_puts(&t, "/>\n");
    }
    sb_puts(&t, "  </actuator>\n");
    return t.s;
}

// mjcf with an <actuator> block (NULL: none) before its closing </mujoco>
static char* mjcf_with_actuators(char* mjcf, const char* block) {
    char* end = NULL;
    for (char* p = strstr(mjcf, "</mujoco>"); p; p = strstr(p + 1, "</mujoco>"))
        end = p;
    if (!end) die("%s", "no </mujoco> in the saved MJCF");
    return text_insert(mjcf, end, block ? block : "");
}

// the saved MJCF rounds to 6 digits: restore in m1 the exact numbers of the URDF import m0; m1's
// geoms are m0's after goff geoms of its own (a ground plane)
static void mj_copy_exact(mjModel* m1, const mjModel* m0, int goff, const char* what) {
    COPY_FIELD(m1, m0, body_pos, 3 * m0->nbody);
    COPY_FIELD(m1, m0, body_quat, 4 * m0->nbody);
    COPY_FIELD(m1, m0, body_ipos, 3 * m0->nbody);
    COPY_FIELD(m1, m0, body_iquat, 4 * m0->nbody);
    COPY_FIELD(m1, m0, body_mass, m0->nbody);
    COPY_FIELD(m1, m0, body_subtreemass, m0->nbody);
    COPY_FIELD(m1, m0, body_inertia, 3 * m0->nbody);
    COPY_FIELD(m1, m0, jnt_pos, 3 * m0->njnt);
    COPY_FIELD(m1, m0, jnt_axis, 3 * m0->njnt);
    COPY_FIELD(m1, m0, jnt_range, 2 * m0->njnt);
    COPY_FIELD(m1, m0, qpos0, m0->nq);
    COPY_FIELD(m1, m0, qpos_spring, m0->nq);
    COPY_FIELD(m1, m0, dof_armature, m0->nv);
    COPY_FIELD(m1, m0, dof_damping, m0->nv);
    COPY_FIELD(m1, m0, body_sameframe, m0->nbody); // the placeholders made them "same frame"
    COPY_FIELD(m1, m0, body_simple, m0->nbody);
    COPY_FIELD(m1, m0, dof_simplenum, m0->nv);
    if (m1->ngeom != m0->ngeom + goff) die("%s: MuJoCo's geoms differ", what);
    for (int g = 0; g < m0->ngeom; g++) {
        int h = g + goff;
        if (m1->geom_type[h] != m0->geom_type[g] || m1->geom_bodyid[h] != m0->geom_bodyid[g])
            die("%s: MuJoCo's geoms differ", what);
        memcpy(m1->geom_pos + 3 * h, m0->geom_pos + 3 * g, 3 * sizeof(mjtNum));
        memcpy(m1->geom_quat + 4 * h, m0->geom_quat + 4 * g, 4 * sizeof(mjtNum));
        memcpy(m1->geom_size + 3 * h, m0->geom_size + 3 * g, 3 * sizeof(mjtNum));
        m1->geom_rbound[h] = m0->geom_rbound[g];
        m1->geom_sameframe[h] = m0->geom_sameframe[g];
    }
}

static void mj_step_setup(bench* b, const char* urdf_text, int keep_primitives) {
    const sn_model* m = b->sm;
    int nv = m->nv;
    // the callback model: the kernel benchmark's model, passive forces on
    char* text = mujoco_urdf(urdf_text, root_link(b), keep_primitives);
    mjModel* m0 = mj_load_text(text, "step.urdf");
    free(text);
    mj_same_joints(b->mm, m0, b->name);
    // the PD DOFs in sinew's order, with MuJoCo's addresses
    b->pd_qadr = xmalloc((size_t)nv * sizeof(int));
    b->pd_dof = xmalloc((size_t)nv * sizeof(int));
    b->pd_kp = xmalloc((size_t)nv * sizeof(mjtNum));
    b->pd_kd = xmalloc((size_t)nv * sizeof(mjtNum));
    b->pd_ref = xmalloc((size_t)nv * sizeof(mjtNum));
    b->pd_lim = xmalloc((size_t)nv * sizeof(mjtNum));
    b->npd = 0;
    for (int v = 0; v < nv; v++) {
        if (!(b->kp[v] > 0)) continue;
        int j = m->dof_joint[v], dof = b->dofmap[v], i = b->npd++;
        b->pd_dof[i] = dof;
        b->pd_qadr[i] = m0->jnt_qposadr[m0->dof_jntid[dof]];
        b->pd_kp[i] = b->kp[v];
        b->pd_kd[i] = b->kd[v];
        b->pd_ref[i] = b->q_ref[m->joint_qadr[j]];
        b->pd_lim[i] = m->dof_effort_limit[v];
    }
    // the actuator model: the same model saved as MJCF, plus one position actuator per PD joint
    // (kp, force range = the URDF effort limit as sinew clamps), and kd added to the joint damping
    char* mjcf = mj_saved_mjcf(m0, "step.xml");
    if (getenv("SN_BENCH_KEEP_MJCF")) write_file(getenv("SN_BENCH_KEEP_MJCF"), mjcf);
    char* block = mj_actuator_block(b, m0, b->pd_kp);
    char* t = mjcf_with_actuators(mjcf, block);
    free(block);
    free(mjcf);
    mjModel* m1 = mj_load_text(t, "step.xml");
    free(t);
    mj_same_joints(m0, m1, b->name);
    if (m1->nu != b->npd) die("%s: actuators missing in the MJCF", b->name);
    mj_copy_exact(m1, m0, 0, b->name);
    for (int i = 0; i < b->npd; i++) {
        if (m1->actuator_trntype[i] != mjTRN_JOINT ||
            m1->actuator_trnid[2 * i] != m1->dof_jntid[b->pd_dof[i]])
            die("%s: actuator order", b->name);
        m1->dof_damping[b->pd_dof[i]] += b->pd_kd[i];
    }
    mj_step_opts(m0);
    mj_step_opts(m1);
    b->mmc = m0;
    b->mdc = mj_makeData(m0);
    b->mma = m1;
    b->mda = mj_makeData(m1);
    mj_setConst(m0, b->mdc);
    mj_setConst(m1, b->mda);
    for (int i = 0; i < b->npd; i++)
        b->mda->ctrl[i] = b->pd_ref[i];
    // the start state in MuJoCo's order and frames: the base angular velocity in the body frame
    b->mq_init = xmalloc((size_t)m->nq * sizeof(mjtNum));
    b->mu_init = xmalloc((size_t)nv * sizeof(mjtNum));
    sn_step_reset(b, 0);
    sn_world_integrate1(b->sw); // kinematics at the start state, nothing else
    const sn_data* d = sn_system_data(b->ss);
    for (int j = 0; j < m->njoint; j++) {
        int dof = b->dofmap[m->joint_vadr[j]];
        int mj = m0->dof_jntid[dof];
        if (m->joint_type[j] != SN_JOINT_FLOATING && m0->jnt_dofadr[mj] != dof)
            die("%s: joint mapping", b->name);
        for (int k = 0; k < m->joint_nq[j]; k++)
            b->mq_init[m0->jnt_qposadr[mj] + k] = b->q_init[m->joint_qadr[j] + k];
    }
    for (int v = 0; v < nv; v++)
        b->mu_init[b->dofmap[v]] = b->u_init[v];
    if (b->floating) {
        const sn_real* R = d->body_rot + 9; // body 1, world <- body
        const sn_real* w = b->u_init + 3;
        for (int r = 0; r < 3; r++)
            b->mu_init[b->dofmap[3 + r]] = R[r] * w[0] + R[3 + r] * w[1] + R[6 + r] * w[2];
    }
    // the two MuJoCo models have the same dynamics: M and the bias force at the start state
    mjData* dd[2] = {b->mdc, b->mda};
    for (int k = 0; k < 2; k++) {
        memcpy(dd[k]->qpos, b->mq_init, (size_t)m->nq * sizeof(mjtNum));
        memcpy(dd[k]->qvel, b->mu_init, (size_t)nv * sizeof(mjtNum));
        mj_fwdPosition(k ? m1 : m0, dd[k]);
        mj_fwdVelocity(k ? m1 : m0, dd[k]);
    }
    double dm = 0, sm = 0;
    for (int i = 0; i < m0->nM; i++)
        dm = fmax(dm, fabs(dd[0]->qM[i] - dd[1]->qM[i])), sm = fmax(sm, fabs(dd[0]->qM[i]));
    for (int i = 0; i < nv; i++)
        dm = fmax(dm, fabs(dd[0]->qfrc_bias[i] - dd[1]->qfrc_bias[i]));
    if (!(dm <= 1e-12 * fmax(sm, 1)))
        die("%s: the actuator model's dynamics differ from the URDF import", b->name);
}

static void mj_step_reset(mjModel* mm, mjData* md, const bench* b) {
    memcpy(md->qpos, b->mq_init, (size_t)mm->nq * sizeof(mjtNum));
    memcpy(md->qvel, b->mu_init, (size_t)mm->nv * sizeof(mjtNum));
    memset(md->qfrc_applied, 0, (size_t)mm->nv * sizeof(mjtNum));
    memset(md->qacc_warmstart, 0, (size_t)mm->nv * sizeof(mjtNum));
    memset(md->warning, 0, sizeof md->warning);
    md->time = 0;
}
static void mj_r_step(bench* b) {
    mj_step_reset(b->mma, b->mda, b);
}
static void mj_r_step_cb(bench* b) {
    mj_step_reset(b->mmc, b->mdc, b);
}

// the PD of the callback models: tau = clamp(kp (q_ref - q) - kd qd, effort), as sinew's step 1,
// with the gains g_cb_kp, g_cb_kd (those of the step or of the contact step)
static const bench* g_cb_bench;
static const mjtNum* g_cb_kp;
static const mjtNum* g_cb_kd;
static void mj_pd_callback(const mjModel* m, mjData* d) {
    (void)m;
    const bench* b = g_cb_bench;
    const mjtNum *kp = g_cb_kp, *kd = g_cb_kd;
    for (int i = 0; i < b->npd; i++) {
        mjtNum t = kp[i] * (b->pd_ref[i] - d->qpos[b->pd_qadr[i]]) - kd[i] * d->qvel[b->pd_dof[i]];
        mjtNum l = b->pd_lim[i];
        d->qfrc_applied[b->pd_dof[i]] = t < -l ? -l : t > l ? l : t;
    }
}

// the contact models: every geom collides (contype = conaffinity = 1), sliding friction
// CONTACT_FRICTION; constraints, contacts and passive forces on; everything else MuJoCo's
// defaults (pyramidal cones, Newton solver, 100 iterations, tolerance 1e-8, warm start)
static void mj_contact_opts(mjModel* mm) {
    mm->opt.timestep = STEP_DT;
    mm->opt.integrator = mjINT_EULER;
    mm->opt.disableflags &= ~(mjDSBL_CONSTRAINT | mjDSBL_CONTACT | mjDSBL_PASSIVE);
    for (int g = 0; g < mm->ngeom; g++) {
        mm->geom_contype[g] = mm->geom_conaffinity[g] = 1;
        mm->geom_friction[3 * g] = CONTACT_FRICTION;
    }
}

// MuJoCo's contact models: the URDF with only its collision spheres (the feet) kept, saved as
// MJCF, a ground plane added to the worldbody, reloaded twice: with the position actuators (gain
// CONTACT_KP, CONTACT_KD added to the joint damping) and without (PD in the callback)
static void mj_contact_setup(bench* b, const char* urdf_text) {
    const sn_model* m = b->sm;
    char* text = mujoco_urdf(urdf_text, root_link(b), KEEP_SPHERES);
    mjModel* m0 = mj_load_text(text, "contact.urdf");
    free(text);
    mj_same_joints(b->mm, m0, b->name);
    if (m0->ngeom != NFOOT) die("%s: MuJoCo's contact model needs 4 collision spheres", b->name);
    for (int g = 0; g < m0->ngeom; g++)
        if (m0->geom_type[g] != mjGEOM_SPHERE) die("%s: a foot geom is not a sphere", b->name);
    b->cpd_kp = xmalloc((size_t)b->nv * sizeof(mjtNum));
    b->cpd_kd = xmalloc((size_t)b->nv * sizeof(mjtNum));
    for (int v = 0, i = 0; v < b->nv; v++) // the PD DOFs of the step setup, in the same order
        if (b->kp[v] > 0) {
            if (!(b->ckp[v] > 0)) die("%s: PD DOFs differ", b->name);
            b->cpd_kp[i] = b->ckp[v];
            b->cpd_kd[i++] = b->ckd[v];
        }
    char* mjcf = mj_saved_mjcf(m0, "contact.xml");
    char* wb = strstr(mjcf, "<worldbody>");
    if (!wb) die("%s", "no <worldbody> in the saved MJCF");
    char* plane = text_insert(mjcf, wb + strlen("<worldbody>"),
                              "\n    <geom name=\"sn_ground\" type=\"plane\" size=\"0 0 1\"/>");
    free(mjcf);
    char* block = mj_actuator_block(b, m0, b->cpd_kp);
    char* ta = mjcf_with_actuators(plane, block);
    char* tc = mjcf_with_actuators(plane, NULL);
    if (getenv("SN_BENCH_KEEP_MJCF")) {
        char keep[1024];
        snprintf(keep, sizeof keep, "%s.contact.xml", getenv("SN_BENCH_KEEP_MJCF"));
        write_file(keep, ta);
    }
    free(block);
    free(plane);
    mjModel* ma = mj_load_text(ta, "contact.xml");
    mjModel* mc = mj_load_text(tc, "contact.xml");
    free(ta);
    free(tc);
    mjModel* mx[2] = {ma, mc};
    for (int k = 0; k < 2; k++) {
        mj_same_joints(m0, mx[k], b->name);
        mj_copy_exact(mx[k], m0, 1, b->name);
        if (mx[k]->geom_type[0] != mjGEOM_PLANE || mx[k]->geom_bodyid[0] != 0)
            die("%s: the ground plane is not MuJoCo's first geom", b->name);
        mj_contact_opts(mx[k]);
    }
    if (ma->nu != b->npd || mc->nu != 0) die("%s: actuators in the contact MJCF", b->name);
    for (int i = 0; i < b->npd; i++) {
        if (ma->actuator_trntype[i] != mjTRN_JOINT ||
            ma->actuator_trnid[2 * i] != ma->dof_jntid[b->pd_dof[i]])
            die("%s: actuator order", b->name);
        ma->dof_damping[b->pd_dof[i]] += b->cpd_kd[i];
    }
    if (getenv("SN_BENCH_KEEP_MJCF")) { // the exact model (and its options) as MuJoCo runs it
        char keep[1024];
        snprintf(keep, sizeof keep, "%s.contact.mjb", getenv("SN_BENCH_KEEP_MJCF"));
        mj_saveModel(ma, keep, NULL, 0);
    }
    b->mmx = ma;
    b->mdx = mj_makeData(ma);
    b->mmxc = mc;
    b->mdxc = mj_makeData(mc);
    mj_setConst(ma, b->mdx);
    mj_setConst(mc, b->mdxc);
    for (int i = 0; i < b->npd; i++)
        b->mdx->ctrl[i] = b->pd_ref[i];
    // the start state in MuJoCo's order (at rest: no velocity to convert)
    b->mxq_init = xmalloc((size_t)m->nq * sizeof(mjtNum));
    for (int j = 0; j < m->njoint; j++) {
        int mj = m0->dof_jntid[b->dofmap[m->joint_vadr[j]]];
        for (int k = 0; k < m->joint_nq[j]; k++)
            b->mxq_init[m0->jnt_qposadr[mj] + k] = b->cq_init[m->joint_qadr[j] + k];
        if (m->joint_type[j] == SN_JOINT_FLOATING) b->mzadr = m0->jnt_qposadr[mj] + 2;
    }
    mj_deleteModel(m0);
    // the feet: MuJoCo's sphere nearest to each of sinew's at the start state
    memcpy(b->mdx->qpos, b->mxq_init, (size_t)m->nq * sizeof(mjtNum));
    mj_kinematics(ma, b->mdx);
    sn_set_state(m, b->cd, b->cq_init, m->nq, b->cu_init, m->nv);
    sn_fk(m, b->cd);
    b->foot_agree = 0;
    for (int k = 0; k < NFOOT; k++) {
        double c[3], best = INFINITY;
        sn_foot_centre(b, b->cd, k, c);
        for (int g = 1; g < ma->ngeom; g++) {
            const mjtNum* x = b->mdx->geom_xpos + 3 * g;
            double dd = sqrt((x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]) +
                             (x[2] - c[2]) * (x[2] - c[2]));
            if (dd < best) best = dd, b->mfoot_geom[k] = g;
        }
        b->foot_agree = fmax(b->foot_agree, best);
    }
    for (int k = 0; k < NFOOT; k++)
        for (int l = 0; l < k; l++)
            if (b->mfoot_geom[k] == b->mfoot_geom[l]) die("%s: foot mapping", b->name);
}

static void mj_contact_reset(const mjModel* mm, mjData* md, const bench* b) {
    memcpy(md->qpos, b->mxq_init, (size_t)mm->nq * sizeof(mjtNum));
    memset(md->qvel, 0, (size_t)mm->nv * sizeof(mjtNum));
    memset(md->qfrc_applied, 0, (size_t)mm->nv * sizeof(mjtNum));
    memset(md->qacc_warmstart, 0, (size_t)mm->nv * sizeof(mjtNum));
    memset(md->warning, 0, sizeof md->warning);
    md->time = 0;
}
static void mj_r_step_contact(bench* b) {
    contact_run_end(b, 1, b->mdx->qpos[b->mzadr]);
    mj_contact_reset(b->mmx, b->mdx, b);
}
static void mj_r_step_contact_cb(bench* b) {
    contact_run_end(b, 2, b->mdxc->qpos[b->mzadr]);
    mj_contact_reset(b->mmxc, b->mdxc, b);
}

// horizontal speed of the material point at the bottom of foot k's sphere, from the kinematics
// and velocities in md (after mj_step: those of the state the step started from)
static double mj_foot_slip_speed(const bench* b, const mjModel* mm, const mjData* md, int k) {
    int g = b->mfoot_geom[k];
    mjtNum v[6]; // angular, linear at the geom's centre, world frame
    mj_objectVelocity(mm, md, mjOBJ_GEOM, g, v, 0);
    double r = mm->geom_size[3 * g];
    double vx = v[3] + v[1] * -r, vy = v[4] - v[0] * -r; // + w x (0, 0, -r)
    return sqrt(vx * vx + vy * vy);
}
#endif

// after a run of steps (not timed): every engine's state finite, no MuJoCo warning
static void step_verify(bench* b) {
    int ok = all_finite(sn_system_q(b->ss), b->nq) && all_finite(sn_system_u(b->ss), b->nv);
    if (b->cs)
        ok = ok && all_finite(sn_system_q(b->cs), b->nq) && all_finite(sn_system_u(b->cs), b->nv);
#ifdef SN_BENCH_MUJOCO
    const mjData* ds[4] = {b->mda, b->mdc, b->mdx, b->mdxc};
    for (int k = 0; k < 4; k++) {
        if (!ds[k]) continue;
        ok = ok && all_finite(ds[k]->qpos, b->nq) && all_finite(ds[k]->qvel, b->nv);
        for (int w = 0; w < mjNWARNING; w++)
            ok = ok && ds[k]->warning[w].number == 0;
    }
#endif
    if (!ok) b->nonfinite++;
}

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
    const model_spec* spec = NULL;
    if (strncmp(name, "chain", 5) == 0) {
        int n = atoi(name + 5);
        if (n < 1 || n > 100000) die("bad chain size in %s", name);
        text = chain_urdf(n);
        opts.base = SN_BASE_FIXED;
        st = sn_load_urdf_string(text, strlen(text), name, NULL, &opts, &b->sm, &err);
    } else {
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
    if (spec) {
        sn_step_setup(b, spec->pose);
        if (spec->contact) sn_contact_setup(b, spec->pose);
#ifdef SN_BENCH_MUJOCO
        if (with_mujoco) mj_step_setup(b, text, keep_primitives);
        if (with_mujoco && spec->contact) mj_contact_setup(b, text);
#endif
    }
    free(text);
    return b;
}

static void bench_free(bench* b) {
    if (!b) return;
    sn_world_destroy(b->sw); // before its model
    sn_world_destroy(b->cw);
    sn_data_destroy(b->cd);
    free(b->cq_ref);
    free(b->cq_init);
    free(b->cu_init);
    free(b->ckp);
    free(b->ckd);
    sn_data_destroy(b->sd);
    sn_model_destroy(b->sm);
    free(b->x);
    free(b->rhs);
    free(b->q_ref);
    free(b->q_init);
    free(b->u_init);
    free(b->kp);
    free(b->kd);
#ifdef SN_BENCH_MUJOCO
    if (b->mdx) mj_deleteData(b->mdx);
    if (b->mmx) mj_deleteModel(b->mmx);
    if (b->mdxc) mj_deleteData(b->mdxc);
    if (b->mmxc) mj_deleteModel(b->mmxc);
    free(b->mxq_init);
    free(b->cpd_kp);
    free(b->cpd_kd);
    if (b->mda) mj_deleteData(b->mda);
    if (b->mma) mj_deleteModel(b->mma);
    if (b->mdc) mj_deleteData(b->mdc);
    if (b->mmc) mj_deleteModel(b->mmc);
    free(b->mq_init);
    free(b->mu_init);
    free(b->pd_qadr);
    free(b->pd_dof);
    free(b->pd_kp);
    free(b->pd_kd);
    free(b->pd_ref);
    free(b->pd_lim);
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
static void sn_k_fkmotion(bench* b) {
    sn_fk_motion(b->sm, b->sd);
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
// M^-1 by ABA's sweeps (no M, no factor), after the poses as the other position kernels
static void sn_k_minv(bench* b) {
    sn_inverse_mass(b->sm, b->sd);
}
static void sn_k_factor(bench* b) {
    sn_factor_mass(b->sm, b->sd);
}
static void sn_k_solve(bench* b) {
    memcpy(b->x, b->rhs, (size_t)b->nv * sizeof(sn_real));
    sn_solve_mass(b->sm, b->sd, b->x);
}

// one step of the world (the reset before each run of steps sets the inverse-dynamics flag)
static void sn_k_step(bench* b) {
    if (sn_world_integrate(b->sw) != SN_OK) b->sn_fail++;
}
// one step of the world with the ground: the robot standing on its feet
static void sn_k_step_contact(bench* b) {
    if (sn_world_integrate(b->cw) != SN_OK) b->sn_fail++;
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
// one step: PD by position actuators and joint damping
static void mj_k_step(bench* b) {
    mj_step(b->mma, b->mda);
}
// one step: PD computed by mjcb_control into qfrc_applied
static void mj_k_step_cb(bench* b) {
    g_cb_bench = b;
    g_cb_kp = b->pd_kp;
    g_cb_kd = b->pd_kd;
    mjcb_control = mj_pd_callback;
    mj_step(b->mmc, b->mdc);
    mjcb_control = NULL;
}
// one step of the contact model: position actuators + joint damping
static void mj_k_step_contact(bench* b) {
    mj_step(b->mmx, b->mdx);
}
// one step of the contact model: PD in mjcb_control
static void mj_k_step_contact_cb(bench* b) {
    g_cb_bench = b;
    g_cb_kp = b->cpd_kp;
    g_cb_kd = b->cpd_kd;
    mjcb_control = mj_pd_callback;
    mj_step(b->mmxc, b->mdxc);
    mjcb_control = NULL;
}
// mj_step (Euler) with the joint forces of the step: mj_rnePostConstraint (cacc, cfrc_int,
// cfrc_ext) between mj_forward and the integrator, where the accelerations are those of the step
static void mj_k_step_id(bench* b) {
    const mjModel* m = b->mma;
    mjData* d = b->mda;
    mj_checkPos(m, d);
    mj_checkVel(m, d);
    mj_forward(m, d);
    mj_checkAcc(m, d);
    mj_rnePostConstraint(m, d);
    mj_Euler(m, d);
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
    kfn sn_reset, mj_reset; // step kernels: state reset before every run of steps (not timed)
    int contact;            // contact step: models with contact = 1, runs of --contact-steps
} kernel;

static const kernel KERNELS[] = {
    {"fkpos", sn_k_fkpos, MJK(mj_k_fkpos), 0, "sn_fk", "mj_kinematics + mj_comPos", NULL, NULL, 0},
    {"fk", sn_k_fk, MJK(mj_k_fk), 0, "sn_fk + sn_fk_vel", "mj_kinematics + mj_comPos + mj_comVel",
     NULL, NULL, 0},
    {"fkmotion", sn_k_fkmotion, MJK(mj_k_fk), 0, "sn_fk_motion (poses and velocities only)",
     "mj_kinematics + mj_comPos + mj_comVel", NULL, NULL, 0},
    {"crba", sn_k_crba, MJK(mj_k_crba), 1, "sn_crba", "mj_crb", NULL, NULL, 0},
    {"rnea", sn_k_rnea, MJK(mj_k_rnea), 1, "sn_nonlinear", "mj_rne(flg_acc=0)", NULL, NULL, 0},
    {"aba", sn_k_aba, MJK(mj_k_aba), 1, "sn_fk + sn_fk_vel + sn_aba",
     "mj_fwdPosition + mj_fwdVelocity + mj_fwdActuation + mj_fwdAcceleration", NULL, NULL, 0},
    {"aba_min", sn_k_aba, MJK(mj_k_aba_min), 0, "sn_fk + sn_fk_vel + sn_aba",
     "mj_kinematics + mj_comPos + mj_crb + mj_factorM + mj_comVel + mj_rne + mj_solveM", NULL, NULL,
     0},
    {"minv", sn_k_minv, MJK(mj_k_minv), 1, "sn_inverse_mass (ABA sweeps, no M)",
     "mj_crb + mj_factorM + mj_solveM(identity, nv columns)", NULL, NULL, 0},
    {"factor", sn_k_factor, MJK(mj_k_factor), 0, "sn_factor_mass", "mj_factorM", NULL, NULL, 0},
    {"solve", sn_k_solve, MJK(mj_k_solve), 0, "sn_solve_mass (1 vector)", "mj_solveM (1 vector)",
     NULL, NULL, 0},
    {"step", sn_k_step, MJK(mj_k_step), 0, "sn_world_integrate, PD",
     "mj_step, position actuators (kp) + joint damping (kd), Euler", sn_r_step, MJK(mj_r_step), 0},
    {"step_cb", sn_k_step, MJK(mj_k_step_cb), 0, "sn_world_integrate, PD",
     "mj_step, PD in mjcb_control -> qfrc_applied, Euler", sn_r_step, MJK(mj_r_step_cb), 0},
    {"step_id", sn_k_step, MJK(mj_k_step_id), 0,
     "sn_world_integrate, PD, sn_system_set_compute_inverse_dynamics(1)",
     "mj_step with mj_rnePostConstraint before mj_Euler, as step", sn_r_step_id, MJK(mj_r_step), 0},
    {"step_contact", sn_k_step_contact, MJK(mj_k_step_contact), 0,
     "sn_world_integrate, PD, ground plane, standing on 4 feet",
     "mj_step, position actuators + joint damping, ground plane + 4 foot spheres, Euler",
     sn_r_step_contact, MJK(mj_r_step_contact), 1},
    {"step_contact_cb", sn_k_step_contact, MJK(mj_k_step_contact_cb), 0,
     "sn_world_integrate, PD, ground plane, standing on 4 feet",
     "mj_step, PD in mjcb_control, ground plane + 4 foot spheres, Euler", sn_r_step_contact,
     MJK(mj_r_step_contact_cb), 1},
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

// step kernels: one batch is reps runs of nsteps steps, each run from the same start state; the
// reset before a run and the check after it (finite state, no MuJoCo warning) are not timed
static double run_steps(kfn f, kfn reset, bench* b, long nsteps, long reps) {
    double t = 0;
    for (long r = 0; r < reps; r++) {
        reset(b);
        double t0 = now_ns();
        for (long i = 0; i < nsteps; i++)
            f(b);
        t += now_ns() - t0;
        step_verify(b);
    }
    return t / (double)(nsteps * reps);
}

// one timed thing: a kernel called n times per batch, or (reset != NULL) n runs of steps
typedef struct arm {
    kfn f, reset;
    long n;
} arm;

static double arm_batch(const arm* a, bench* b, long nsteps) {
    return a->reset ? run_steps(a->f, a->reset, b, nsteps, a->n) : run_batch(a->f, b, a->n);
}

static void arm_calibrate(arm* a, bench* b, long nsteps, double target_ns) {
    if (a->reset) {
        double per = run_steps(a->f, a->reset, b, nsteps, 1);
        double want = target_ns / ((per > 0 ? per : 1) * (double)nsteps);
        a->n = want < 1 ? 1 : (long)(want + 0.5);
    } else {
        a->n = calibrate(a->f, b, target_ns);
    }
}

// batches of every arm interleaved (order reversed every other batch), so that all see the same
// machine load; v[k * MAXN + i] is arm k's mean ns per call in batch i
static void time_multi(arm* a, int na, bench* b, int nb, double target_ns, long nsteps, double* v) {
    prepare(b);
    for (int k = 0; k < na; k++)
        arm_calibrate(&a[k], b, nsteps, target_ns);
    for (int k = 0; k < na; k++) // warm-up
        arm_batch(&a[k], b, nsteps);
    for (int i = 0; i < nb; i++)
        for (int r = 0; r < na; r++) {
            int k = (i & 1) ? na - 1 - r : r;
            v[k * MAXN + i] = arm_batch(&a[k], b, nsteps);
        }
}

// sinew and MuJoCo batches interleaved (order alternating), so both see the same machine load
static void time_pair(const kernel* k, bench* b, int nb, double target_ns, long nsteps, timing* ts,
                      timing* tm) {
    double v[2 * MAXN];
    int with_mj = k->mj != NULL;
#ifdef SN_BENCH_MUJOCO
    with_mj = with_mj && b->mm != NULL;
#endif
    arm a[2] = {{k->sn, k->sn_reset, 0}, {k->mj, k->mj_reset, 0}};
    time_multi(a, with_mj ? 2 : 1, b, nb, target_ns, nsteps, v);
    long per = k->sn_reset ? nsteps : 1;
    *ts = summarize(v, nb, a[0].n * per);
    if (with_mj) {
        *tm = summarize(v + MAXN, nb, a[1].n * per);
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
    int has_ovh;         // step_id: overhead of inverse dynamics, interleaved batches
    double ovh_s, ovh_m; // sinew, MuJoCo, in % of the step without
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
    if (r->has_ovh) {
        fprintf(f, "%s,%s,%s,%s,%d,%s,overhead_pct,%.4g,", date, host, rev, r->model, r->nv,
                r->kernel, r->ovh_s);
        if (isnan(r->ovh_m))
            fprintf(f, ",\n");
        else
            fprintf(f, "%.4g,\n", r->ovh_m);
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
    long steps;         // steps per run of the step kernels
    long contact_steps; // steps per run of the contact step kernels
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
    if (k->sn_reset && !b->sw) die("%s: the step kernels run on the robots only", o->model);
    if (k->contact && !b->cw) die("%s: no contact step on this model", o->model);
    prepare(b);
    kfn f = mujoco ? k->mj : k->sn;
    kfn reset = mujoco ? k->mj_reset : k->sn_reset;
    if (reset) reset(b); // step kernels: N steps from the start state
    long n = o->iters;
    CALLGRIND_START_INSTRUMENTATION;
    for (long i = 0; i < n; i++)
        f(b);
    CALLGRIND_STOP_INSTRUMENTATION;
    if (reset) {
        step_verify(b);
        if (b->nonfinite || b->sn_fail) die("%s: the state did not stay finite", o->model);
    }
    printf("%s %s %s %ld\n", o->model, k->name, o->engine, n);
    if (k->contact) {
        // the same n steps again, not instrumented: contacts and solver iterations per step
        double nc = 0, it = 0;
        if (!mujoco) {
            sn_contact_reset(b);
            for (long i = 0; i < n; i++) {
                f(b);
                nc += sn_system_contact_count(b->cs);
                it += sn_system_solver_iterations(b->cs);
            }
        }
#ifdef SN_BENCH_MUJOCO
        if (mujoco) {
            int cb = f == mj_k_step_contact_cb;
            mjModel* mm = cb ? b->mmxc : b->mmx;
            mjData* md = cb ? b->mdxc : b->mdx;
            mj_contact_reset(mm, md, b);
            for (long i = 0; i < n; i++) {
                f(b);
                nc += md->ncon;
                it += md->solver_iter;
            }
        }
#endif
        printf("stats contacts_per_step %.4f iterations_per_step %.4f\n", nc / (double)n,
               it / (double)n);
    }
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
        if (KERNELS[j].contact && !b->cw) continue; // a model that does not stand on its feet
        row* r = &rows[(*nrow)++];
        snprintf(r->model, sizeof r->model, "%s", b->name);
        r->nv = b->nv;
        r->kernel = KERNELS[j].name;
        r->has_ovh = 0;
        time_pair(&KERNELS[j], b, o->batches, o->target_ms * 1e6,
                  KERNELS[j].contact ? o->contact_steps : o->steps, &r->s, &r->m);
        print_row(r, chain);
    }
}

// ---------------------------------------------------------------------------------------------
// step kernels: what the runs did (stability, agreement) and the cost of inverse dynamics

typedef struct step_report {
    char model[32];
    int nv, done;
    double ke_rel;               // start state: |KE_sinew - KE_MuJoCo| / KE_sinew
    double err0;                 // start: max |q_ref - q| over the PD joints
    double err_sn, err_a, err_c; // the same after one run (sinew, MuJoCo act, MuJoCo cb)
    double diff_a, diff_c;       // after one run: max |q_sinew - q_MuJoCo| over the PD joints
    double base_a, base_c;       // after one run: |base position sinew - MuJoCo|
    double dz;                   // after one run: sinew's base height change
    int id_ok;                   // a joint wrench is available after a step with ID on
    long bad;                    // runs ending non-finite or with a MuJoCo warning, failed steps
    int has_id;                  // interleaved timing of step and step + ID
    double id_sn[2], id_mj[2];   // median ns: step, step with ID
    double ovh_sn, ovh_mj;       // median over batches of (step with ID / step) - 1, in %
} step_report;

static double median_of(const double* x, int n) {
    double v[MAXN];
    memcpy(v, x, (size_t)n * sizeof(double));
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return v[n / 2];
}

// max |q_ref - q| over the PD joints, sinew's q
static double pd_err(const bench* b, const sn_real* q) {
    const sn_model* m = b->sm;
    double e = 0;
    for (int v = 0; v < m->nv; v++)
        if (b->kp[v] > 0) {
            int a = m->joint_qadr[m->dof_joint[v]];
            e = fmax(e, fabs(b->q_ref[a] - q[a]));
        }
    return e;
}

#ifdef SN_BENCH_MUJOCO
static double pd_err_mj(const bench* b, const mjtNum* qpos) {
    double e = 0;
    for (int i = 0; i < b->npd; i++)
        e = fmax(e, fabs(b->pd_ref[i] - qpos[b->pd_qadr[i]]));
    return e;
}

static double pd_diff(const bench* b, const sn_real* q, const mjtNum* qpos) {
    const sn_model* m = b->sm;
    double e = 0;
    for (int v = 0, i = 0; v < m->nv; v++)
        if (b->kp[v] > 0) {
            e = fmax(e, fabs(q[m->joint_qadr[m->dof_joint[v]]] - qpos[b->pd_qadr[i]]));
            i++;
        }
    return e;
}

static double base_diff(const bench* b, const mjModel* mm, const sn_real* q, const mjtNum* qpos) {
    if (!b->floating) return NAN;
    const mjtNum* p = qpos + mm->jnt_qposadr[mm->dof_jntid[b->dofmap[0]]];
    const sn_real* s = q + b->sm->joint_qadr[b->sm->dof_joint[0]];
    return sqrt((p[0] - s[0]) * (p[0] - s[0]) + (p[1] - s[1]) * (p[1] - s[1]) +
                (p[2] - s[2]) * (p[2] - s[2]));
}
#endif

// one run of nsteps steps on each engine from the start state, after the timing
static void step_check(bench* b, long nsteps, step_report* r) {
    const sn_model* m = b->sm;
    r->done = 1;
    r->ke_rel = r->err_a = r->err_c = r->diff_a = r->diff_c = r->base_a = r->base_c = NAN;
    // inverse dynamics on: one step, then a joint wrench
    sn_r_step_id(b);
    sn_k_step(b);
    sn_real f[3], t[3];
    r->id_ok = sn_system_joint_wrench(b->ss, m->nujoint - 1, f, t) == SN_OK && all_finite(f, 3) &&
               all_finite(t, 3);
    sn_r_step(b);
    r->err0 = pd_err(b, b->q_init);
    double ke = sn_system_kinetic_energy(b->ss);
    (void)ke;
    for (long i = 0; i < nsteps; i++)
        sn_k_step(b);
    const sn_real* q = sn_system_q(b->ss);
    r->err_sn = pd_err(b, q);
    r->dz = b->floating ? q[m->joint_qadr[m->dof_joint[0]] + 2] -
                              b->q_init[m->joint_qadr[m->dof_joint[0]] + 2]
                        : (double)NAN;
#ifdef SN_BENCH_MUJOCO
    if (b->mma) {
        mj_r_step(b);
        mj_fwdPosition(b->mma, b->mda);
        mjtNum* mv = xmalloc((size_t)b->nv * sizeof(mjtNum));
        mj_mulM(b->mma, b->mda, mv, b->mda->qvel);
        double kem = 0.5 * mju_dot(mv, b->mda->qvel, b->nv);
        free(mv);
        r->ke_rel = fabs(ke - kem) / ke;
        mj_r_step(b);
        for (long i = 0; i < nsteps; i++)
            mj_k_step(b);
        r->err_a = pd_err_mj(b, b->mda->qpos);
        r->diff_a = pd_diff(b, q, b->mda->qpos);
        r->base_a = base_diff(b, b->mma, q, b->mda->qpos);
        mj_r_step_cb(b);
        for (long i = 0; i < nsteps; i++)
            mj_k_step_cb(b);
        r->err_c = pd_err_mj(b, b->mdc->qpos);
        r->diff_c = pd_diff(b, q, b->mdc->qpos);
        r->base_c = base_diff(b, b->mmc, q, b->mdc->qpos);
    }
#endif
    step_verify(b);
    r->bad = b->nonfinite + b->sn_fail;
}

// sinew's step with and without inverse dynamics, and MuJoCo's with and without
// mj_rnePostConstraint, all four interleaved batch by batch
static void id_overhead(const options* o, bench* b, step_report* r) {
    double v[4 * MAXN], q[MAXN];
    arm a[4] = {
        {sn_k_step, sn_r_step, 0}, {sn_k_step, sn_r_step_id, 0}, {NULL, NULL, 0}, {NULL, NULL, 0}};
    int na = 2, nb = o->batches;
#ifdef SN_BENCH_MUJOCO
    if (b->mma) {
        a[2] = (arm){mj_k_step, mj_r_step, 0};
        a[3] = (arm){mj_k_step_id, mj_r_step, 0};
        na = 4;
    }
#endif
    time_multi(a, na, b, nb, o->target_ms * 1e6, o->steps, v);
    r->has_id = 1;
    r->id_sn[0] = median_of(v, nb);
    r->id_sn[1] = median_of(v + MAXN, nb);
    for (int i = 0; i < nb; i++)
        q[i] = v[MAXN + i] / v[i];
    r->ovh_sn = 100 * (median_of(q, nb) - 1);
    r->id_mj[0] = r->id_mj[1] = r->ovh_mj = NAN;
    if (na == 4) {
        r->id_mj[0] = median_of(v + 2 * MAXN, nb);
        r->id_mj[1] = median_of(v + 3 * MAXN, nb);
        for (int i = 0; i < nb; i++)
            q[i] = v[3 * MAXN + i] / v[2 * MAXN + i];
        r->ovh_mj = 100 * (median_of(q, nb) - 1);
    }
}

// a number, or "-" when it is not one (no MuJoCo, fixed base)
static void fmt_num(char* buf, size_t n, const char* fmt, double x) {
    if (isnan(x))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, fmt, x);
}

static void print_step_reports(const options* o, const step_report* sr, int n) {
    int any = 0, anyid = 0;
    for (int i = 0; i < n; i++)
        any |= sr[i].done, anyid |= sr[i].has_id;
    if (any) {
        printf("\nStep runs: %ld steps of %g ms from the start state, PD kp = %g, kd = %g on every "
               "joint. err: max |q_ref - q| over the PD joints (rad or m); sinew - MuJoCo: max "
               "|q_sinew - q_MuJoCo| over the same joints at the end; base: distance between the "
               "base positions at the end:\n\n",
               o->steps, STEP_DT * 1e3, STEP_KP, STEP_KD);
        printf("| model | KE(0) sinew vs MuJoCo | max err start | sinew end | MuJoCo act end | "
               "MuJoCo cb end | sinew - MuJoCo act / cb | base act / cb (m) | sinew base dz (m) "
               "| ID wrench | bad runs |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (int i = 0; i < n; i++) {
            const step_report* r = &sr[i];
            if (!r->done) continue;
            char ke[16], ea[16], ec[16], da[16], dc[16], ba[16], bc[16], dz[16];
            fmt_num(ke, sizeof ke, "%.1e", r->ke_rel);
            fmt_num(ea, sizeof ea, "%.3f", r->err_a);
            fmt_num(ec, sizeof ec, "%.3f", r->err_c);
            fmt_num(da, sizeof da, "%.1e", r->diff_a);
            fmt_num(dc, sizeof dc, "%.1e", r->diff_c);
            fmt_num(ba, sizeof ba, "%.1e", r->base_a);
            fmt_num(bc, sizeof bc, "%.1e", r->base_c);
            fmt_num(dz, sizeof dz, "%.3f", r->dz);
            printf("| %s | %s | %.3f | %.3f | %s | %s | %s / %s | %s / %s | %s | %s | %ld |\n",
                   r->model, ke, r->err0, r->err_sn, ea, ec, da, dc, ba, bc, dz,
                   r->id_ok ? "ok" : "MISSING", r->bad);
        }
    }
    if (anyid) {
        printf(
            "\nInverse dynamics overhead (four arms interleaved batch by batch; overhead = median "
            "over batches of t(with) / t(without) - 1):\n\n");
        printf(
            "| model | nv | sinew step ns | sinew step + ID ns | sinew overhead | MuJoCo step ns | "
            "MuJoCo step + rnePostConstraint ns | MuJoCo overhead |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < n; i++) {
            const step_report* r = &sr[i];
            if (!r->has_id) continue;
            char a[32], c[32], d[32], e[32];
            fmt_ns(a, sizeof a, r->id_sn[0]);
            fmt_ns(c, sizeof c, r->id_sn[1]);
            fmt_ns(d, sizeof d, r->id_mj[0]);
            fmt_ns(e, sizeof e, r->id_mj[1]);
            char os[16], om[16];
            fmt_num(os, sizeof os, "%+.1f%%", r->ovh_sn);
            fmt_num(om, sizeof om, "%+.1f%%", r->ovh_mj);
            printf("| %s | %d | %s | %s | %s | %s | %s | %s |\n", r->model, r->nv, a, c, os, d, e,
                   om);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// contact step kernels: does the robot stand? One run per engine after the timing, from the
// start state: the timed run's steps, then on to CONTACT_LONG_STEPS steps (10 s)

typedef struct stance {
    int done;
    long steps, nlong;             // the timed run's length, the long run's
    double z0;                     // base height at the start (m)
    double dz_end, dz_min, dz_max; // base height - z0: end of the timed run, extremes over it
    double dz_long;                // at the end of the long run
    double late_lo, late_hi;       // extremes of the base height over the long run's 2nd half
    double slip_run, slip_long;    // slip distance of the worst foot over each run (m)
    double drift_late;             // worst foot: horizontal move of its sphere's centre over the
                                   // long run's second half (m)
    double con_mean, it_mean;      // per step over the timed run: contacts, solver iterations
    int con_min, con_max, it_max;  // their extremes
    int it_limit;                  // the solver's iteration limit
    long at_limit;                 // steps of the timed run that reached it
    long slid;                     // sinew: contacts on the friction cone over the timed run
    long bad;                      // failed or non-finite steps, MuJoCo warnings
    long runs;                     // timed runs whose end was recorded, and the spread of
    double end_spread;             // their final base heights (m)
} stance;

static void stance_init(stance* r, long nsteps, double z0, int it_limit) {
    memset(r, 0, sizeof *r);
    r->done = 1;
    r->steps = nsteps;
    r->nlong = nsteps > CONTACT_LONG_STEPS ? nsteps : CONTACT_LONG_STEPS;
    r->z0 = z0;
    r->dz_min = r->late_lo = INFINITY;
    r->dz_max = r->late_hi = -INFINITY;
    r->con_min = 1 << 30;
    r->con_max = r->it_max = 0;
    r->it_limit = it_limit;
}

// step i done: dz = base height - z0, speed = the feet's slip speeds at the step's start state
static void stance_step(stance* r, long i, double dz, const double* speed, int ncon, int it,
                        double* slip) {
    double worst = 0;
    for (int k = 0; k < NFOOT; k++) {
        slip[k] += speed[k] * STEP_DT;
        worst = fmax(worst, slip[k]);
    }
    if (i < r->steps) {
        r->con_mean += ncon / (double)r->steps;
        r->it_mean += it / (double)r->steps;
        r->con_min = ncon < r->con_min ? ncon : r->con_min;
        r->con_max = ncon > r->con_max ? ncon : r->con_max;
        r->it_max = it > r->it_max ? it : r->it_max;
        r->at_limit += it >= r->it_limit;
        r->dz_min = fmin(r->dz_min, dz);
        r->dz_max = fmax(r->dz_max, dz);
        if (i + 1 == r->steps) r->dz_end = dz, r->slip_run = worst;
    }
    if (i >= r->nlong / 2) {
        r->late_lo = fmin(r->late_lo, dz);
        r->late_hi = fmax(r->late_hi, dz);
    }
    if (i + 1 == r->nlong) r->dz_long = dz, r->slip_long = worst;
}

static double xy_dist(const double* a, const double* b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]));
}

static void stance_runs(stance* r, const bench* b, int e) {
    r->runs = b->c_runs[e];
    r->end_spread = r->runs ? b->c_end[e][1] - b->c_end[e][0] : (double)NAN;
}

static void sn_stance(bench* b, long nsteps, stance* r) {
    const sn_model* m = b->sm;
    stance_init(r, nsteps, b->cq_init[b->zadr], CONTACT_MAXIT);
    stance_runs(r, b, 0);
    sn_contact_reset(b);
    double slip[NFOOT] = {0}, half[NFOOT][3], c[3], sp[NFOOT];
    for (long i = 0; i < r->nlong; i++) {
        sn_set_state(m, b->cd, sn_system_q(b->cs), b->nq, sn_system_u(b->cs), b->nv);
        sn_fk(m, b->cd);
        sn_fk_vel(m, b->cd);
        for (int k = 0; k < NFOOT; k++) {
            sp[k] = sn_foot_slip_speed(b, b->cd, k);
            if (i == r->nlong / 2) sn_foot_centre(b, b->cd, k, half[k]);
        }
        if (sn_world_integrate(b->cw) != SN_OK) {
            r->bad++;
            break;
        }
        int nc = sn_system_contact_count(b->cs);
        for (int k = 0; k < nc && i < r->steps; k++) {
            sn_contact ct;
            if (sn_system_contact(b->cs, k, &ct) == SN_OK && ct.sliding) r->slid++;
        }
        stance_step(r, i, sn_system_q(b->cs)[b->zadr] - r->z0, sp, nc,
                    sn_system_solver_iterations(b->cs), slip);
    }
    sn_set_state(m, b->cd, sn_system_q(b->cs), b->nq, sn_system_u(b->cs), b->nv);
    sn_fk(m, b->cd);
    for (int k = 0; k < NFOOT; k++) {
        sn_foot_centre(b, b->cd, k, c);
        r->drift_late = fmax(r->drift_late, xy_dist(c, half[k]));
    }
    if (!all_finite(sn_system_q(b->cs), b->nq)) r->bad++;
}

#ifdef SN_BENCH_MUJOCO
static void mj_stance(bench* b, int cb, long nsteps, stance* r) {
    mjModel* mm = cb ? b->mmxc : b->mmx;
    mjData* md = cb ? b->mdxc : b->mdx;
    stance_init(r, nsteps, b->mxq_init[b->mzadr], mm->opt.iterations);
    stance_runs(r, b, cb ? 2 : 1);
    r->slid = -1;
    mj_contact_reset(mm, md, b);
    double slip[NFOOT] = {0}, half[NFOOT][3], sp[NFOOT];
    for (long i = 0; i < r->nlong; i++) {
        if (cb)
            mj_k_step_contact_cb(b);
        else
            mj_k_step_contact(b);
        if (!all_finite(md->qpos, b->nq) || !all_finite(md->qvel, b->nv)) {
            r->bad++;
            break;
        }
        // md's kinematics and velocities are those of the state the step started from
        for (int k = 0; k < NFOOT; k++) {
            sp[k] = mj_foot_slip_speed(b, mm, md, k);
            if (i == r->nlong / 2) memcpy(half[k], md->geom_xpos + 3 * b->mfoot_geom[k], 24);
        }
        stance_step(r, i, md->qpos[b->mzadr] - r->z0, sp, md->ncon, md->solver_iter, slip);
    }
    mj_kinematics(mm, md);
    for (int k = 0; k < NFOOT; k++)
        r->drift_late = fmax(r->drift_late, xy_dist(md->geom_xpos + 3 * b->mfoot_geom[k], half[k]));
    for (int w = 0; w < mjNWARNING; w++)
        r->bad += md->warning[w].number != 0;
}
#endif

// the contact tables of one model, appended to out (printed after the other tables)
static void print_contact_reports(sbuf* out, const options* o, const bench* b, const stance* st) {
    const char* names[3] = {"sinew", "MuJoCo `step_contact`", "MuJoCo `step_contact_cb`"};
    sb_printf(out,
              "\nContact step (%s standing on 4 feet on the ground plane, PD kp = %g, kd = %g, "
              "friction %g, %g ms steps): start at rest in the standing pose, base at z = %.6f m "
              "(the lowest foot sphere touching the ground)",
              b->name, CONTACT_KP, CONTACT_KD, CONTACT_FRICTION, STEP_DT * 1e3,
              b->cq_init[b->zadr]);
#ifdef SN_BENCH_MUJOCO
    if (b->mmx) {
        const mjOption* op = &b->mmx->opt;
        const char* solver[] = {"PGS", "CG", "Newton"};
        sb_printf(out,
                  "; foot centres sinew vs MuJoCo there: %.1e m. MuJoCo: %s solver, %s cones, "
                  "%d iterations, tolerance %g, %d geoms (plane + 4 foot spheres)",
                  b->foot_agree, op->solver >= 0 && op->solver < 3 ? solver[op->solver] : "?",
                  op->cone == mjCONE_PYRAMIDAL ? "pyramidal" : "elliptic", op->iterations,
                  op->tolerance, b->mmx->ngeom);
    }
#endif
    sb_printf(out, ". sinew: solver limit %d iterations, tolerance %g.\n\n", CONTACT_MAXIT,
              CONTACT_TOL);
    sb_printf(out,
              "Per step over the timed run (%ld steps from the start state; sliding: sinew's "
              "contacts whose impulse is on the friction cone, summed over the run):\n\n",
              o->contact_steps);
    sb_printf(out,
              "| engine | contacts/step | min-max | solver iterations/step | max | steps at the "
              "limit | sliding contacts |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (int e = 0; e < 3; e++) {
        const stance* r = &st[e];
        if (!r->done) continue;
        char sl[32];
        fmt_num(sl, sizeof sl, "%.0f", r->slid < 0 ? (double)NAN : (double)r->slid);
        sb_printf(out, "| %s | %.2f | %d-%d | %.2f | %d | %ld of %ld (limit %d) | %s |\n", names[e],
                  r->con_mean, r->con_min, r->con_max, r->it_mean, r->it_max, r->at_limit, r->steps,
                  r->it_limit, sl);
    }
    sb_printf(
        out,
        "\nStance: dz = base height - its start height; slip = distance slid by the material "
        "point at the bottom of a foot sphere (integral of its horizontal speed), worst foot; "
        "end spread = max - min of the final base height over every run of the timing "
        "(each reset to the start state); 10 s = the same run continued to %d steps; "
        "drift = horizontal move of a foot sphere's centre over its second half:\n\n",
        CONTACT_LONG_STEPS);
    sb_printf(out,
              "| engine | dz end (mm) | dz min / max (mm) | end spread (mm), runs | slip (um) | "
              "dz 10 s (mm) | z range 5-10 s (um) | slip 10 s (um) | drift 5-10 s (um) | bad |\n");
    sb_printf(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int e = 0; e < 3; e++) {
        const stance* r = &st[e];
        if (!r->done) continue;
        char sp[32];
        fmt_num(sp, sizeof sp, "%.1e", r->end_spread * 1e3);
        sb_printf(
            out, "| %s | %.3f | %.3f / %.3f | %s, %ld | %.2f | %.3f | %.2f | %.2f | %.2f | %ld |\n",
            names[e], r->dz_end * 1e3, r->dz_min * 1e3, r->dz_max * 1e3, sp, r->runs,
            r->slip_run * 1e6, r->dz_long * 1e3, (r->late_hi - r->late_lo) * 1e6,
            r->slip_long * 1e6, r->drift_late * 1e6, r->bad);
    }
}

static void time_robots(const options* o, int mujoco, row* rows, int* nrow) {
    printf("| model | nv | kernel | sinew ns | MuJoCo ns | sinew/MuJoCo |\n");
    printf("|---|---:|---|---:|---:|---:|\n");
    step_report sr[NMODELS];
    memset(sr, 0, sizeof sr);
#ifdef SN_BENCH_MUJOCO
    agreement ag[NMODELS];
    const char* agname[NMODELS];
    int nag = 0;
#endif
    int with_step = in_list(o->kernel_list, "step") || in_list(o->kernel_list, "step_cb") ||
                    in_list(o->kernel_list, "step_id");
    sbuf contact_out = {0};
    for (int i = 0; i < NMODELS; i++) {
        if (!in_list(o->model_list, MODELS[i].name)) continue;
        bench* b = bench_load(MODELS[i].name, o->models_dir, mujoco, o->keep_primitives);
#ifdef SN_BENCH_MUJOCO
        agname[nag] = MODELS[i].name;
        ag[nag++] = check(b);
#endif
        int first = *nrow;
        time_model(o, b, 0, rows, nrow);
        snprintf(sr[i].model, sizeof sr[i].model, "%s", b->name);
        sr[i].nv = b->nv;
        if (in_list(o->kernel_list, "step") && in_list(o->kernel_list, "step_id")) {
            id_overhead(o, b, &sr[i]);
            for (int k = first; k < *nrow; k++)
                if (strcmp(rows[k].kernel, "step_id") == 0) {
                    rows[k].has_ovh = 1;
                    rows[k].ovh_s = sr[i].ovh_sn;
                    rows[k].ovh_m = sr[i].ovh_mj;
                }
        }
        if (with_step) step_check(b, o->steps, &sr[i]);
        if (b->cw && (in_list(o->kernel_list, "step_contact") ||
                      in_list(o->kernel_list, "step_contact_cb"))) {
            stance st[3];
            memset(st, 0, sizeof st);
            sn_stance(b, o->contact_steps, &st[0]);
#ifdef SN_BENCH_MUJOCO
            if (b->mmx) {
                mj_stance(b, 0, o->contact_steps, &st[1]);
                mj_stance(b, 1, o->contact_steps, &st[2]);
            }
#endif
            print_contact_reports(&contact_out, o, b, st);
        }
        bench_free(b);
    }
#ifdef SN_BENCH_MUJOCO
    printf("\nAgreement at the benchmark state (max |sinew - MuJoCo| / max |sinew|):\n\n");
    printf("| model | M | h | u-dot | M^-1 |\n|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < nag; i++)
        printf("| %s | %.1e | %.1e | %.1e | %.1e |\n", agname[i], ag[i].m, ag[i].h, ag[i].udot,
               ag[i].minv);
#endif
    print_step_reports(o, sr, NMODELS);
    if (contact_out.s) printf("%s", contact_out.s);
    free(contact_out.s);
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
           "                   [--steps N] [--contact-steps N]\n"
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
    o.steps = 300;
    o.contact_steps = 1000;
    atexit(tmp_cleanup); // also after die()
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
        } else if (strcmp(a, "--steps") == 0 && v) {
            o.steps = atol(v);
            i++;
        } else if (strcmp(a, "--contact-steps") == 0 && v) {
            o.contact_steps = atol(v);
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
    if (o.steps < 1) die("%s", "--steps must be positive");
    if (o.contact_steps < 1) die("%s", "--contact-steps must be positive");
    if (o.kernel || o.model || o.iters >= 0) {
        if (!o.kernel || !o.model || o.iters < 0)
            die("%s", "count mode needs --kernel, --model and --iters");
        return count_mode(&o);
    }
    return timing_mode(&o);
}
