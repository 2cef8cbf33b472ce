// SPDX-License-Identifier: Apache-2.0
// robot.c: Pinocchio's coordinates <-> sinew's, and the SE(3) exponential and logarithm
// (robot.h). Rotations are handled as unit quaternions; the series below replace the closed
// forms near zero angle, where they lose digits.
#include "robot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- small rotation algebra (quaternions w x y z here; Pinocchio's x y z w at the edges) ----

static void qmul(const double a[4], const double b[4], double o[4]) {
    double r[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                   a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                   a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                   a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
    memcpy(o, r, sizeof r);
}

static void qmat(const double q[4], double R[9]) {
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double n = w * w + x * x + y * y + z * z, s = n > 0 ? 2 / n : 0;
    R[0] = 1 - s * (y * y + z * z), R[1] = s * (x * y - w * z), R[2] = s * (x * z + w * y);
    R[3] = s * (x * y + w * z), R[4] = 1 - s * (x * x + z * z), R[5] = s * (y * z - w * x);
    R[6] = s * (x * z - w * y), R[7] = s * (y * z + w * x), R[8] = 1 - s * (x * x + y * y);
}

// a rotation matrix's quaternion (Shepperd: the largest of the four squares first)
static void matq(const double R[9], double q[4]) {
    double t = R[0] + R[4] + R[8];
    if (t >= R[0] && t >= R[4] && t >= R[8]) {
        double s = sqrt(1 + t) * 2;
        q[0] = s / 4, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
    } else if (R[0] >= R[4] && R[0] >= R[8]) {
        double s = sqrt(1 + R[0] - R[4] - R[8]) * 2;
        q[0] = (R[7] - R[5]) / s, q[1] = s / 4, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
    } else if (R[4] >= R[8]) {
        double s = sqrt(1 + R[4] - R[0] - R[8]) * 2;
        q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = s / 4, q[3] = (R[5] + R[7]) / s;
    } else {
        double s = sqrt(1 + R[8] - R[0] - R[4]) * 2;
        q[0] = (R[3] - R[1]) / s, q[1] = (R[2] + R[6]) / s, q[2] = (R[5] + R[7]) / s, q[3] = s / 4;
    }
}

// exp of a rotation vector as a quaternion
static void qexp(const double w[3], double q[4]) {
    double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double c = cos(th / 2), k = th < 1e-4 ? 0.5 - th * th / 48 : sin(th / 2) / th;
    q[0] = c, q[1] = k * w[0], q[2] = k * w[1], q[3] = k * w[2];
}

// log of a unit quaternion as a rotation vector, angle in [0, pi]
static void qlog(const double q_in[4], double w[3]) {
    double q[4];
    double sg = q_in[0] < 0 ? -1 : 1;
    for (int i = 0; i < 4; i++)
        q[i] = sg * q_in[i];
    double s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double k;
    if (s < 1e-6 * q[0]) // 2 atan(s/c)/s = (2/c)(1 - s^2/(3c^2) + ...)
        k = 2 / q[0] * (1 - s * s / (3 * q[0] * q[0]));
    else
        k = 2 * atan2(s, q[0]) / s;
    w[0] = k * q[1], w[1] = k * q[2], w[2] = k * q[3];
}

static void cross(const double a[3], const double b[3], double o[3]) {
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(o, r, sizeof r);
}

static void matvec(const double R[9], const double x[3], double o[3]) {
    double r[3] = {R[0] * x[0] + R[1] * x[1] + R[2] * x[2], R[3] * x[0] + R[4] * x[1] + R[5] * x[2],
                   R[6] * x[0] + R[7] * x[1] + R[8] * x[2]};
    memcpy(o, r, sizeof r);
}

static void matTvec(const double R[9], const double x[3], double o[3]) {
    double r[3] = {R[0] * x[0] + R[3] * x[1] + R[6] * x[2], R[1] * x[0] + R[4] * x[1] + R[7] * x[2],
                   R[2] * x[0] + R[5] * x[1] + R[8] * x[2]};
    memcpy(o, r, sizeof r);
}

// V(w) x = x + a w x x + b w x (w x x): a = (1 - cos t)/t^2, b = (t - sin t)/t^3 (the left
// Jacobian of SO(3), which carries the linear part of a twist to the translation of its exp)
static void apply_v(const double w[3], const double x[3], double o[3]) {
    double t2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2], t = sqrt(t2);
    double a, b;
    if (t < 1e-3) {
        a = 0.5 - t2 / 24 + t2 * t2 / 720;
        b = 1.0 / 6 - t2 / 120 + t2 * t2 / 5040;
    } else {
        a = (1 - cos(t)) / t2;
        b = (t - sin(t)) / (t2 * t);
    }
    double c1[3], c2[3];
    cross(w, x, c1);
    cross(w, c1, c2);
    for (int i = 0; i < 3; i++)
        o[i] = x[i] + a * c1[i] + b * c2[i];
}

// V(w)^-1 x = x - w x x / 2 + c w x (w x x): c = (1 - t sin t / (2 (1 - cos t))) / t^2
static void apply_vinv(const double w[3], const double x[3], double o[3]) {
    double t2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2], t = sqrt(t2);
    double c;
    if (t < 1e-3)
        c = 1.0 / 12 + t2 / 720 + t2 * t2 / 30240;
    else
        c = (1 - t * sin(t) / (2 * (1 - cos(t)))) / t2;
    double c1[3], c2[3];
    cross(w, x, c1);
    cross(w, c1, c2);
    for (int i = 0; i < 3; i++)
        o[i] = x[i] - 0.5 * c1[i] + c * c2[i];
}

void expo_exp6(const double nu[3], const double w[3], double R[9], double p[3]) {
    double q[4];
    qexp(w, q);
    qmat(q, R);
    apply_v(w, nu, p);
}

void expo_log6(const double R[9], const double p[3], double nu[3], double w[3]) {
    double q[4];
    matq(R, q);
    qlog(q, w);
    apply_vinv(w, p, nu);
}

// Pinocchio's x y z w <-> w x y z
static void from_xyzw(const double* a, double q[4]) {
    q[0] = a[3], q[1] = a[0], q[2] = a[1], q[3] = a[2];
}
static void to_xyzw(const double q[4], double* a) {
    a[0] = q[1], a[1] = q[2], a[2] = q[3], a[3] = q[0];
}

void expo_quat_xyzw_to_mat(const double* quat, double R[9]) {
    double q[4];
    from_xyzw(quat, q);
    qmat(q, R);
}

void expo_pin_integrate(int nj, const double* q, const double* v, double* q_out) {
    double q0[4], dq[4], R0[9], dp[3];
    from_xyzw(q + 3, q0);
    qmat(q0, R0);
    qexp(v + 3, dq);
    apply_v(v + 3, v, dp);
    double wp[3];
    matvec(R0, dp, wp);
    double q1[4];
    qmul(q0, dq, q1);
    double n = sqrt(q1[0] * q1[0] + q1[1] * q1[1] + q1[2] * q1[2] + q1[3] * q1[3]);
    for (int i = 0; i < 4; i++)
        q1[i] /= n;
    for (int i = 0; i < 3; i++)
        q_out[i] = q[i] + wp[i];
    to_xyzw(q1, q_out + 3);
    for (int k = 0; k < nj; k++)
        q_out[7 + k] = q[7 + k] + v[6 + k];
}

void expo_pin_difference(int nj, const double* q0, const double* q1, double* v) {
    double a[4], b[4], R0[9];
    from_xyzw(q0 + 3, a);
    from_xyzw(q1 + 3, b);
    qmat(a, R0);
    double ac[4] = {a[0], -a[1], -a[2], -a[3]}, rel[4];
    qmul(ac, b, rel); // M0^-1 M1: rotation a^-1 b, translation R0^T (p1 - p0)
    double n = sqrt(rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2] + rel[3] * rel[3]);
    for (int i = 0; i < 4; i++)
        rel[i] /= n;
    double dp[3] = {q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2]}, pl[3], w[3];
    matTvec(R0, dp, pl);
    qlog(rel, w);
    apply_vinv(w, pl, v);
    memcpy(v + 3, w, sizeof w);
    for (int k = 0; k < nj; k++)
        v[6 + k] = q1[7 + k] - q0[7 + k];
}

void expo_pin_interpolate(int nj, const double* q0, const double* q1, double a, double* q_out) {
    if (a == 0) {
        memmove(q_out, q0, (size_t)(7 + nj) * sizeof(double));
        return;
    }
    double v[6 + EXPO_MAX_JOINTS];
    if (nj < 0 || nj > EXPO_MAX_JOINTS) return;
    expo_pin_difference(nj, q0, q1, v);
    for (int i = 0; i < 6 + nj; i++)
        v[i] *= a;
    expo_pin_integrate(nj, q0, v, q_out);
}

// ---- the robot and its joint order ----

typedef struct order_ctx {
    const sn_model* m;
    int* out;
    int n;
} order_ctx;

static int by_name(const void* a, const void* b, const sn_model* m) {
    const char* na = sn_model_name(m, SN_OBJ_URDF_JOINT, *(const int*)a);
    const char* nb = sn_model_name(m, SN_OBJ_URDF_JOINT, *(const int*)b);
    return strcmp(na, nb);
}

// depth-first from link `frame`: its child joints in name order (byte order, as std::string's)
static void walk(order_ctx* c, int frame, int depth) {
    const sn_model* m = c->m;
    if (depth > m->nujoint) return;
    int nk = 0;
    int* kids = malloc((size_t)(m->nujoint ? m->nujoint : 1) * sizeof(int));
    if (!kids) return;
    for (int j = 0; j < m->nujoint; j++)
        if (m->ujoint_parent[j] == frame) kids[nk++] = j;
    for (int i = 1; i < nk; i++) // insertion sort: a link has few children
        for (int k = i; k > 0 && by_name(&kids[k - 1], &kids[k], m) > 0; k--) {
            int t = kids[k];
            kids[k] = kids[k - 1];
            kids[k - 1] = t;
        }
    for (int i = 0; i < nk; i++) {
        int j = kids[i];
        if (m->ujoint_joint[j] != SN_NONE && m->ujoint_type[j] != SN_JOINT_FLOATING)
            c->out[c->n++] = m->ujoint_joint[j];
        walk(c, m->ujoint_child[j], depth + 1);
    }
    free(kids);
}

// the file with a sphere <collision> of radius `radius` appended to link `links[i]` at pts[i]
// drop every <collision>...</collision> of a NUL-terminated text, in place
static void strip_collisions(char* s) {
    char* w = s;
    const char* r = s;
    for (;;) {
        const char* a = strstr(r, "<collision");
        const char* b = a ? strstr(a, "</collision>") : NULL;
        if (!a || !b) break;
        memmove(w, r, (size_t)(a - r));
        w += a - r;
        r = b + strlen("</collision>");
    }
    memmove(w, r, strlen(r) + 1);
}

static char* with_spheres(const char* urdf, const char* const* links, const double (*pts)[3], int n,
                          double radius, int only_spheres, size_t* len, char* err) {
    FILE* f = fopen(urdf, "rb");
    if (!f) {
        snprintf(err, EXPO_ERR_LEN, "%.400s: cannot open", urdf);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    rewind(f);
    // each sphere is written once, in at most 400 bytes (four %.17g numbers and the tags)
    size_t cap = (size_t)(l > 0 ? l : 0) + (size_t)n * 400 + 1;
    unsigned char done[64] = {0};
    if (n > 64) {
        fclose(f);
        snprintf(err, EXPO_ERR_LEN, "%.400s: at most 64 spheres", urdf);
        return NULL;
    }
    char* src = malloc((size_t)(l > 0 ? l : 0) + 1);
    char* out = malloc(cap);
    if (!src || !out || l <= 0 || fread(src, 1, (size_t)l, f) != (size_t)l) {
        fclose(f);
        free(src);
        free(out);
        snprintf(err, EXPO_ERR_LEN, "%.400s: cannot read", urdf);
        return NULL;
    }
    fclose(f);
    src[l] = 0;
    if (only_spheres) strip_collisions(src);
    size_t o = 0;
    const char* p = src;
    for (;;) {
        const char* end = strstr(p, "</link>");
        if (!end) break;
        // the link this </link> closes: the last "<link " before it
        const char* open = NULL;
        for (const char* s = strstr(p, "<link "); s && s < end; s = strstr(s + 1, "<link "))
            open = s;
        memcpy(out + o, p, (size_t)(end - p));
        o += (size_t)(end - p);
        if (open) {
            for (int i = 0; i < n; i++) {
                char key[160];
                snprintf(key, sizeof key, "name=\"%s\"", links[i]);
                const char* nm = strstr(open, key);
                if (nm && nm < end && strchr(open, '>') > nm && !done[i]) {
                    done[i] = 1;
                    o += (size_t)snprintf(out + o, cap - o,
                                          "<collision><origin xyz=\"%.17g %.17g %.17g\"/>"
                                          "<geometry><sphere radius=\"%.17g\"/></geometry>"
                                          "</collision>",
                                          pts[i][0], pts[i][1], pts[i][2], radius);
                }
            }
        }
        p = end;
        memcpy(out + o, p, 7);
        o += 7;
        p += 7;
    }
    size_t rest = strlen(p);
    memcpy(out + o, p, rest);
    o += rest;
    out[o] = 0;
    free(src);
    for (int i = 0; i < n; i++)
        if (!done[i]) {
            free(out);
            snprintf(err, EXPO_ERR_LEN, "%.300s: no link named '%.60s' for sphere %d", urdf,
                     links[i], i);
            return NULL;
        }
    *len = o;
    return out;
}

int expo_robot_load(const char* urdf, expo_robot* r, char err[EXPO_ERR_LEN]) {
    return expo_robot_load_spheres(urdf, NULL, NULL, 0, 0, 0, r, err);
}

int expo_robot_load_spheres(const char* urdf, const char* const* links, const double (*pts)[3],
                            int n, double radius, int only_spheres, expo_robot* r,
                            char err[EXPO_ERR_LEN]) {
    memset(r, 0, sizeof *r);
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.base = SN_BASE_FLOATING;
    sn_error e;
    memset(&e, 0, sizeof e);
    sn_status st;
    if (n > 0) {
        size_t len;
        char* xml = with_spheres(urdf, links, pts, n, radius, only_spheres, &len, err);
        if (!xml) return -1;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s", urdf);
        char* slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
        st = sn_load_urdf_string(xml, len, urdf, dir, &o, &r->m, &e);
        free(xml);
    } else {
        st = sn_load_urdf(urdf, &o, &r->m, &e);
    }
    if (st != SN_OK) {
        snprintf(err, EXPO_ERR_LEN, "%.400s", e.msg);
        return -1;
    }
    const sn_model* m = r->m;
    if (!m->is_floating || m->joint_type[0] != SN_JOINT_FLOATING) {
        snprintf(err, EXPO_ERR_LEN, "%s: no floating base", urdf);
        expo_robot_free(r);
        return -1;
    }
    for (int j = 1; j < m->njoint; j++)
        if (m->joint_type[j] != SN_JOINT_REVOLUTE && m->joint_type[j] != SN_JOINT_PRISMATIC) {
            snprintf(err, EXPO_ERR_LEN,
                     "%s: joint %s is %s: only revolute and prismatic joints map one to one "
                     "to Pinocchio's coordinates",
                     urdf, sn_model_name(m, SN_OBJ_JOINT, j),
                     sn_joint_type_str((sn_joint_type)m->joint_type[j]));
            expo_robot_free(r);
            return -1;
        }
    r->nq = m->nq, r->nv = m->nv, r->nj = m->njoint - 1;
    if (r->nj > EXPO_MAX_JOINTS) {
        snprintf(err, EXPO_ERR_LEN, "%s: %d joints, more than %d", urdf, r->nj, EXPO_MAX_JOINTS);
        expo_robot_free(r);
        return -1;
    }
    r->pin_to_sn = calloc((size_t)r->nj + 1, sizeof(int));
    r->sn_to_pin = calloc((size_t)r->nj + 1, sizeof(int));
    int* order = calloc((size_t)m->njoint + 1, sizeof(int));
    if (!r->pin_to_sn || !r->sn_to_pin || !order) {
        free(order);
        expo_robot_free(r);
        snprintf(err, EXPO_ERR_LEN, "%s: out of memory", urdf);
        return -1;
    }
    // the root link: the child of the floating joint
    int root = m->ujoint_child[m->joint_ujoint[0]];
    order_ctx c = {m, order, 0};
    walk(&c, root, 0);
    if (c.n != r->nj) {
        snprintf(err, EXPO_ERR_LEN, "%s: the depth-first walk found %d joints, the model has %d",
                 urdf, c.n, r->nj);
        free(order);
        expo_robot_free(r);
        return -1;
    }
    for (int k = 0; k < r->nj; k++) {
        r->pin_to_sn[k] = order[k] - 1; // sinew joint 0 is the base
        r->sn_to_pin[order[k] - 1] = k;
    }
    free(order);
    snprintf(r->name, sizeof r->name, "%s", sn_model_name(m, SN_OBJ_FRAME, root));
    return 0;
}

void expo_robot_free(expo_robot* r) {
    if (!r) return;
    sn_model_destroy(r->m);
    free(r->pin_to_sn);
    free(r->sn_to_pin);
    memset(r, 0, sizeof *r);
}

const char* expo_robot_pin_joint_name(const expo_robot* r, int k) {
    if (!r || k < 0 || k >= r->nj) return NULL;
    return sn_model_name(r->m, SN_OBJ_JOINT, r->pin_to_sn[k] + 1);
}

void expo_q_pin_to_sn(const expo_robot* r, const double* q_pin, double* q_sn) {
    double tmp[7];
    memcpy(tmp, q_pin, 3 * sizeof(double));
    from_xyzw(q_pin + 3, tmp + 3);
    for (int k = 0; k < r->nj; k++)
        q_sn[7 + r->pin_to_sn[k]] = q_pin[7 + k];
    memcpy(q_sn, tmp, sizeof tmp);
}

void expo_q_sn_to_pin(const expo_robot* r, const double* q_sn, double* q_pin) {
    double tmp[7];
    memcpy(tmp, q_sn, 3 * sizeof(double));
    to_xyzw(q_sn + 3, tmp + 3);
    for (int k = 0; k < r->nj; k++)
        q_pin[7 + k] = q_sn[7 + r->pin_to_sn[k]];
    memcpy(q_pin, tmp, sizeof tmp);
}

void expo_v_pin_to_sn(const expo_robot* r, const double* q_pin, const double* v_pin, double* u_sn) {
    double R[9], a[3], b[3];
    expo_quat_xyzw_to_mat(q_pin + 3, R);
    matvec(R, v_pin, a);
    matvec(R, v_pin + 3, b);
    for (int k = 0; k < r->nj; k++)
        u_sn[6 + r->pin_to_sn[k]] = v_pin[6 + k];
    memcpy(u_sn, a, sizeof a);
    memcpy(u_sn + 3, b, sizeof b);
}

void expo_v_sn_to_pin(const expo_robot* r, const double* q_sn, const double* u_sn, double* v_pin) {
    double R[9], a[3], b[3];
    qmat(q_sn + 3, R);
    matTvec(R, u_sn, a);
    matTvec(R, u_sn + 3, b);
    for (int k = 0; k < r->nj; k++)
        v_pin[6 + k] = u_sn[6 + r->pin_to_sn[k]];
    memcpy(v_pin, a, sizeof a);
    memcpy(v_pin + 3, b, sizeof b);
}

void expo_tau_pin_to_sn(const expo_robot* r, const double* q_pin, const double* tau_pin,
                        double* tau_sn) {
    expo_v_pin_to_sn(r, q_pin, tau_pin, tau_sn);
}
