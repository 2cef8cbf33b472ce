// SPDX-License-Identifier: Apache-2.0
// common.c: see common.h.
#include "common.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned long long rng = 88172645463325252ull;

void tc_seed(unsigned long long s) {
    rng = s ? s : 88172645463325252ull;
}

double tc_uniform(double lo, double hi) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

void tc_random_orthogonal(int n, int passes, double* Q) {
    for (int i = 0; i < n * n; i++)
        Q[i] = tc_uniform(-1, 1);
    for (int j = 0; j < n; j++)
        for (int pass = 0; pass < passes; pass++) {
            for (int k = 0; k < j; k++) {
                double d = 0;
                for (int i = 0; i < n; i++)
                    d += Q[i * n + k] * Q[i * n + j];
                for (int i = 0; i < n; i++)
                    Q[i * n + j] -= d * Q[i * n + k];
            }
            double s = 0;
            for (int i = 0; i < n; i++)
                s += Q[i * n + j] * Q[i * n + j];
            s = sqrt(s);
            for (int i = 0; i < n; i++)
                Q[i * n + j] /= s;
        }
}


void tc_from_eigen(int n, const double* Q, const double* l, double* S) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += Q[i * n + k] * l[k] * Q[j * n + k];
            S[i * n + j] = s;
        }
}


double tc_frobenius(int n, const double* A) {
    double s = 0;
    for (int i = 0; i < n * n; i++)
        s += A[i] * A[i];
    return sqrt(s);
}


static int appendf(char** buf, size_t* len, size_t* cap, const char* fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n < 0) return 0;
        if (*len + (size_t)n < *cap) {
            *len += (size_t)n;
            return 1;
        }
        *cap = *cap * 2 + (size_t)n;
        *buf = realloc(*buf, *cap);
    }
}

// a random proper inertia: principal moments satisfying the triangle inequality, random axes
static void random_inertia(double* ixx, double* ixy, double* ixz, double* iyy, double* iyz,
                           double* izz) {
    double a = tc_uniform(0.01, 0.1), b = tc_uniform(0.01, 0.1), c = tc_uniform(0.01, 0.1);
    // principal moments from a box-like distribution are always valid
    double p[3] = {b + c, a + c, a + b};
    double r = tc_uniform(-3, 3), pi = tc_uniform(-1.5, 1.5), y = tc_uniform(-3, 3);
    double cr = cos(r), sr = sin(r), cp = cos(pi), sp = sin(pi), cy = cos(y), sy = sin(y);
    double R[9] = {cy * cp,
                   cy * sp * sr - sy * cr,
                   cy * sp * cr + sy * sr,
                   sy * cp,
                   sy * sp * sr + cy * cr,
                   sy * sp * cr - cy * sr,
                   -sp,
                   cp * sr,
                   cp * cr};
    double I[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += R[3 * i + k] * p[k] * R[3 * j + k];
            I[3 * i + j] = s;
        }
    *ixx = I[0], *ixy = I[1], *ixz = I[2], *iyy = I[4], *iyz = I[5], *izz = I[8];
}

char* tc_random_urdf(int nlink, int floating, unsigned long long seed) {
    tc_seed(seed);
    size_t len = 0, cap = 4096;
    char* s = malloc(cap);
    s[0] = 0;
    appendf(&s, &len, &cap, "<?xml version=\"1.0\"?>\n<robot name=\"random\">\n");
    if (!floating) appendf(&s, &len, &cap, "<link name=\"world\"/>\n");
    int* massless = calloc((size_t)nlink, sizeof(int));
    for (int i = 0; i < nlink; i++) {
        // a few massless links, always with a massive child so that M stays definite
        massless[i] = i > 0 && i < nlink - 1 && tc_uniform(0, 1) < 0.15;
        appendf(&s, &len, &cap, "<link name=\"l%d\">\n", i);
        if (!massless[i]) {
            double ixx, ixy, ixz, iyy, iyz, izz;
            random_inertia(&ixx, &ixy, &ixz, &iyy, &iyz, &izz);
            appendf(&s, &len, &cap,
                    "  <inertial><origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>"
                    "<mass value=\"%.17g\"/>"
                    "<inertia ixx=\"%.17g\" ixy=\"%.17g\" ixz=\"%.17g\" iyy=\"%.17g\" "
                    "iyz=\"%.17g\" izz=\"%.17g\"/></inertial>\n",
                    tc_uniform(-0.2, 0.2), tc_uniform(-0.2, 0.2), tc_uniform(-0.2, 0.2),
                    tc_uniform(-3, 3), tc_uniform(-1.5, 1.5), tc_uniform(-3, 3), tc_uniform(0.5, 3),
                    ixx, ixy, ixz, iyy, iyz, izz);
        }
        appendf(&s, &len, &cap, "</link>\n");
    }
    static const char* types[] = {"revolute", "continuous", "prismatic", "spherical", "fixed"};
    for (int i = 0; i < nlink; i++) {
        int parent = i == 0 ? -1 : (int)tc_uniform(0, (double)i);
        if (parent >= i) parent = i - 1;
        // the child of a massless link moves with it: never let a massless link be a leaf
        if (i > 0 && massless[i - 1]) parent = i - 1;
        if (i == 0 && floating) continue;
        int t = (int)tc_uniform(0, 5);
        if (t > 4) t = 4;
        if (i == 0) t = 0;
        double ax[3] = {tc_uniform(-1, 1), tc_uniform(-1, 1), tc_uniform(-1, 1)};
        double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
        appendf(&s, &len, &cap,
                "<joint name=\"j%d\" type=\"%s\">\n  <parent link=\"%s%d\"/><child link=\"l%d\"/>\n"
                "  <origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>\n"
                "  <axis xyz=\"%.17g %.17g %.17g\"/>\n"
                "  <limit lower=\"-2\" upper=\"2\" effort=\"100\" velocity=\"10\"/>\n"
                "  <dynamics damping=\"0.1\" friction=\"0.2\" rotor_inertia=\"%.17g\"/>\n"
                "</joint>\n",
                i, types[t], i == 0 ? "world" : "l", i == 0 ? 0 : parent, i, tc_uniform(-0.5, 0.5),
                tc_uniform(-0.5, 0.5), tc_uniform(-0.5, 0.5), tc_uniform(-3, 3),
                tc_uniform(-1.5, 1.5), tc_uniform(-3, 3), ax[0] / n, ax[1] / n, ax[2] / n,
                tc_uniform(0, 1) < 0.5 ? 0.0 : tc_uniform(0.001, 0.05));
    }
    // the world link name in the first joint: "world0" would be wrong, fix it up
    char* w = strstr(s, "link=\"world0\"");
    if (w) memmove(w + 11, w + 12, strlen(w + 12) + 1), len--;
    appendf(&s, &len, &cap, "</robot>\n");
    free(massless);
    return s;
}

static void count_warning(sn_log_level level, const char* msg, void* ctx) {
    (void)level;
    (void)msg;
    ++*(int*)ctx;
}

static sn_model* finish_load(sn_status st, sn_model* m, const sn_error* err, int allow_warnings) {
    if (st != SN_OK) {
        fprintf(stderr, "  load failed: %s\n", err->msg);
        return NULL;
    }
    if (!allow_warnings && m->nwarning > 0) {
        fprintf(stderr, "  unexpected warning: %s\n", m->warnings[0]);
        sn_model_destroy(m);
        return NULL;
    }
    return m;
}

sn_model* tc_load_string(const char* xml, int allow_warnings) {
    sn_model* m = NULL;
    sn_error err;
    int nw = 0;
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.log = count_warning;
    o.log_ctx = &nw;
    sn_status st = sn_load_urdf_string(xml, strlen(xml), "test.urdf", NULL, &o, &m, &err);
    return finish_load(st, m, &err, allow_warnings);
}

sn_model* tc_load_file(const char* path, int allow_warnings) {
    sn_model* m = NULL;
    sn_error err;
    sn_status st = sn_load_urdf(path, NULL, &m, &err);
    return finish_load(st, m, &err, allow_warnings);
}

static void normalize4(double* q) {
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

void tc_random_state(const sn_model* m, double* q, double* u) {
    for (int j = 0; j < m->njoint; j++) {
        int a = m->joint_qadr[j], t = m->joint_type[j];
        if (t == SN_JOINT_FLOATING) {
            for (int k = 0; k < 3; k++)
                q[a + k] = tc_uniform(-1, 1);
            for (int k = 0; k < 4; k++)
                q[a + 3 + k] = tc_uniform(-1, 1);
            normalize4(q + a + 3);
        } else if (t == SN_JOINT_SPHERICAL) {
            for (int k = 0; k < 4; k++)
                q[a + k] = tc_uniform(-1, 1);
            normalize4(q + a);
        } else {
            q[a] = tc_uniform(-1.5, 1.5);
        }
    }
    if (u)
        for (int i = 0; i < m->nv; i++)
            u[i] = tc_uniform(-1, 1);
}

// quaternion of the rotation vector w
static void quat_exp(double* out, const double* w) {
    double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double s = th > 1e-300 ? sin(th / 2) / th : 0.5;
    out[0] = cos(th / 2);
    out[1] = w[0] * s, out[2] = w[1] * s, out[3] = w[2] * s;
}

static void quat_mul(double* d, const double* a, const double* b) {
    double r[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                   a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                   a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                   a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
    memcpy(d, r, sizeof r);
}

void tc_integrate(const sn_model* m, const double* q, const double* u, double eps, double* qo) {
    memcpy(qo, q, (size_t)m->nq * sizeof(double));
    for (int j = 0; j < m->njoint; j++) {
        int a = m->joint_qadr[j], v = m->joint_vadr[j], t = m->joint_type[j];
        double w[3], e[4];
        if (t == SN_JOINT_FLOATING) {
            for (int k = 0; k < 3; k++)
                qo[a + k] += eps * u[v + k];
            for (int k = 0; k < 3; k++)
                w[k] = eps * u[v + 3 + k];
            quat_exp(e, w);
            quat_mul(qo + a + 3, e, q + a + 3); // world angular velocity: left product
        } else if (t == SN_JOINT_SPHERICAL) {
            for (int k = 0; k < 3; k++)
                w[k] = eps * u[v + k];
            quat_exp(e, w);
            quat_mul(qo + a, e, q + a); // angular velocity in the parent-fixed joint frame
        } else {
            qo[a] += eps * u[v];
        }
    }
}

const char* tc_shared_dir(void) {
    static char path[1024];
    const char* env = getenv("SINEW_SHARED");
    struct stat st;
    if (env && stat(env, &st) == 0) return env;
#ifdef SNT_SHARED_DIR
    snprintf(path, sizeof path, "%s", SNT_SHARED_DIR);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return path;
#endif
    return NULL;
}

const char* tc_model_path(const char* rel) {
    static char path[2048];
    const char* dir = tc_shared_dir();
    if (!dir) return NULL;
    snprintf(path, sizeof path, "%s/models/%s", dir, rel);
    return path;
}

double tc_rel_err(const double* a, const double* b, int n, double floor) {
    double scale = floor, err = 0;
    for (int i = 0; i < n; i++)
        scale = fmax(scale, fmax(fabs(a[i]), fabs(b[i])));
    for (int i = 0; i < n; i++)
        err = fmax(err, fabs(a[i] - b[i]));
    return err / scale;
}


int tc_head_on(const sn_model* m, double e, double* va, double* vb, double* pmax, int* touched) {
    sn_world* w = NULL;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    sn_system *a, *b;
    double g[3] = {0, 0, 0};
    double qa[7] = {-0.5, 0, 1, 1, 0, 0, 0}, qb[7] = {0.5, 0, 1, 1, 0, 0, 0};
    double ua[6] = {1, 0, 0, 0, 0, 0}, ub[6] = {-1, 0, 0, 0, 0, 0};
    if (sn_world_create(&o, &w, NULL) != SN_OK) return -1;
    int bad = sn_world_add_system(w, m, &a, NULL) != SN_OK ||
              sn_world_add_system(w, m, &b, NULL) != SN_OK || sn_world_set_gravity(w, g) != SN_OK ||
              sn_world_set_material(w, 0.8, e, 0) != SN_OK ||
              sn_system_set_state(a, qa, 7, ua, 6) != SN_OK ||
              sn_system_set_state(b, qb, 7, ub, 6) != SN_OK;
    *touched = 0, *pmax = 0;
    for (int k = 0; k < 1000 && !bad; k++) {
        bad = sn_world_integrate(w) != SN_OK;
        *touched |= sn_system_contact_count(a) > 0;
        *pmax = fmax(*pmax, fabs(sn_system_u(a)[0] + sn_system_u(b)[0]));
    }
    if (!bad) *va = sn_system_u(a)[0], *vb = sn_system_u(b)[0];
    sn_world_destroy(w);
    return bad ? -1 : 0;
}

static void list_files(const char* dir, const char* ext, char** out, int* n, int max) {
    DIR* d = opendir(dir);
    if (!d) return;
    struct dirent* e;
    while ((e = readdir(d)) && *n < max) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name), el = strlen(ext);
        if (len > el && !strcmp(e->d_name + len - el, ext)) {
            out[(*n)++] = strdup(path);
        } else {
            DIR* sub = opendir(path);
            if (sub) {
                closedir(sub);
                list_files(path, ext, out, n, max);
            }
        }
    }
    closedir(d);
}

static int cmp_path(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

int tc_list_files(const char* dir, const char* ext, char** out, int max) {
    int n = 0;
    list_files(dir, ext, out, &n, max);
    qsort(out, (size_t)n, sizeof out[0], cmp_path);
    return n;
}


sn_status tc_world_open(sn_model* m, double dt, sn_world** w, sn_system** s) {
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    *w = NULL;
    sn_status st = sn_world_create(&o, w, NULL);
    if (st == SN_OK) st = sn_world_add_system(*w, m, s, NULL);
    if (st != SN_OK) {
        sn_world_destroy(*w);
        *w = NULL;
    }
    return st;
}


int tc_shared_model_files(char** out, int max) {
    const char* dir = tc_model_path("");
    if (!dir) return -1;
    char root[2048];
    snprintf(root, sizeof root, "%s", dir);
    size_t len = strlen(root);
    while (len > 1 && root[len - 1] == '/')
        root[--len] = 0;
    int n = tc_list_files(root, ".urdf", out, max / 2);
    n += tc_list_files(root, ".xml", out + n, max - n);
    return n;
}


const char* tc_shared_relative(const char* path) {
    const char* p = strstr(path, "/models/");
    return p ? p + 8 : path;
}


char* tc_read_file(const char* path, size_t* len) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = 0, *len = (size_t)n;
    return b;
}


sn_status tc_model_hash(const sn_model* m, uint64_t* h) {
    sn_world* w = NULL;
    sn_system* s = NULL;
    sn_status st = sn_world_create(NULL, &w, NULL);
    if (st == SN_OK) st = sn_world_add_system(w, m, &s, NULL);
    if (st == SN_OK) st = sn_world_state_hash(w, h);
    sn_world_destroy(w);
    return st;
}
