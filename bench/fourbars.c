// SPDX-License-Identifier: Apache-2.0
// sinew_bench_fourbars: a chain of N four-bar linkages stacked one on the next (3N DOF, N loops),
// at rest without gravity, sinew and MuJoCo 2.2.2 side by side: the cost of loops in a deep
// tree (issue 18's "loops in linear time": the step must cost O(N)).
//
// Four-bar k is a parallelogram in the x-z plane on its base (the world for k = 0, four-bar
// k - 1's rocker after): a crank and a rocker of height H hinged about y at the base's points
// A = (0, 0, top) and D = (L, 0, top) (top = H on a rocker, 0 on the world), and a coupler of
// length L hinged on the crank's tip, its far end pinned to the rocker's tip. The tree is
// base-crank-coupler and base-rocker, so the rockers make a chain N deep. At q = 0 every loop
// is closed. sinew closes the pin with an equality of two axes (x and z, as
// models/fourbar.urdf); MuJoCo with a <connect> (its y row is satisfied by the hinges).
// Both are built here, in memory.
//
// With "limit" after the steps, the top four-bar's crank is held at the upper end of its range
// [-1, 0] rad by 1 N m: one joint-limit row in the contact solver every step (the loops' cost
// with a fixed number of contacts).
//
// usage: sinew_bench_fourbars [sinew|mujoco|both] [N] [steps] [limit]   (both, 36, 1000)
// Instructions: valgrind --tool=callgrind --collect-atstart=no (the timed steps only);
// bench/fourbars.sh runs N = 1 .. 100 and prints the table.
#define _POSIX_C_SOURCE 199309L
#include "sinew/sn.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#include "bench_util.h"

#define LEN 0.4    // coupler length and pivot spacing (m)
#define HEIGHT 0.3 // crank and rocker height (m)
#define DT 0.002

// a growing string
typedef struct text {
    char* s;
    size_t len, cap;
} text;

static void put(text* t, const char* fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) exit(2);
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = 2 * (t->cap + (size_t)n + 1024);
        t->s = realloc(t->s, t->cap);
        if (!t->s) exit(2);
    }
}

// a 1 kg rod of length l along the link's axis ax ('x' or 'z'), its centre at l/2
static void urdf_link(text* t, const char* name, double l, char ax) {
    double i = l * l / 12;
    put(t,
        "<link name='%s'><inertial><origin xyz='%g 0 %g'/><mass value='1'/>"
        "<inertia ixx='%g' iyy='%g' izz='%g' ixy='0' ixz='0' iyz='0'/></inertial></link>\n",
        name, ax == 'x' ? l / 2 : 0, ax == 'z' ? l / 2 : 0, ax == 'x' ? 1e-5 : i, i,
        ax == 'z' ? 1e-5 : i);
}

static void urdf_hinge(text* t, const char* name, const char* parent, const char* child, double x,
                       double z, int limited) {
    put(t,
        "<joint name='%s' type='%s'><parent link='%s'/><child link='%s'/>"
        "<origin xyz='%g 0 %g'/><axis xyz='0 1 0'/>%s</joint>\n",
        name, limited ? "revolute" : "continuous", parent, child, x, z,
        limited ? "<limit lower='-1' upper='0' effort='100' velocity='100'/>" : "");
}

static char* fourbars_urdf(int n, int limit) {
    text t = {0};
    put(&t, "<robot name='fourbars'>\n<link name='world'/>\n");
    char base[32] = "world", c[32], p[32], r[32];
    for (int k = 0; k < n; k++) {
        double top = k ? HEIGHT : 0;
        snprintf(c, sizeof c, "crank%d", k);
        snprintf(p, sizeof p, "coupler%d", k);
        snprintf(r, sizeof r, "rocker%d", k);
        urdf_link(&t, c, HEIGHT, 'z');
        urdf_link(&t, p, LEN, 'x');
        urdf_link(&t, r, HEIGHT, 'z');
        urdf_hinge(&t, c, base, c, 0, top, limit && k == n - 1);
        urdf_hinge(&t, p, c, p, 0, HEIGHT, 0);
        urdf_hinge(&t, r, base, r, LEN, top, 0);
        snprintf(base, sizeof base, "%s", r);
    }
    put(&t, "<constraints>\n");
    for (int k = 0; k < n; k++)
        put(&t,
            "<equality body1='coupler%d' body2='rocker%d' anchor='%.17g 0 %.17g'>"
            "<axis xyz='1 0 0'/><axis xyz='0 0 1'/></equality>\n",
            k, k, (k + 1) * LEN, (k + 1) * HEIGHT);
    put(&t, "</constraints>\n</robot>\n");
    return t.s;
}

#ifdef SN_BENCH_MUJOCO
static void mjcf_body(text* t, char kind, int k, double x, double z, double l, char ax,
                      int limited) {
    double i = l * l / 12;
    put(t,
        "<body name='%c%d' pos='%g 0 %g'><joint type='hinge' axis='0 1 0'%s/>"
        "<inertial pos='%g 0 %g' mass='1' diaginertia='%g %g %g'/>\n",
        kind, k, x, z, limited ? " limited='true' range='-1 0'" : "", ax == 'x' ? l / 2 : 0,
        ax == 'z' ? l / 2 : 0, ax == 'x' ? 1e-5 : i, i, ax == 'z' ? 1e-5 : i);
}

// the same machine; body k's rocker holds four-bar k + 1
static void mjcf_level(text* t, int k, int n, int limit) {
    double top = k ? HEIGHT : 0;
    mjcf_body(t, 'k', k, 0, top, HEIGHT, 'z', limit && k == n - 1); // crank
    mjcf_body(t, 'c', k, 0, HEIGHT, LEN, 'x', 0);                   // coupler
    put(t, "</body></body>\n");
    mjcf_body(t, 'r', k, LEN, top, HEIGHT, 'z', 0); // rocker
    if (k + 1 < n) mjcf_level(t, k + 1, n, limit);
    put(t, "</body>\n");
}

static char* fourbars_mjcf(int n, int limit) {
    text t = {0};
    put(&t, "<mujoco model='fourbars'><option timestep='%g' gravity='0 0 0'/>\n<worldbody>\n", DT);
    mjcf_level(&t, 0, n, limit);
    put(&t, "</worldbody>\n<equality>\n");
    // connect: body1's anchor (in body1's frame) meets body2's point at the start
    for (int k = 0; k < n; k++)
        put(&t, "<connect body1='c%d' body2='r%d' anchor='%g 0 0'/>\n", k, k, LEN);
    put(&t, "</equality>\n</mujoco>\n");
    return t.s;
}
#endif

// ---- sinew ----

typedef struct sn_ctx {
    sn_world* w;
    sn_system* s;
    sn_real* tau; // the generalized force of every step (the limited crank's 1 N m), or NULL
    long its;
} sn_ctx;

static void sn_step(void* p) {
    sn_ctx* c = p;
    if (c->tau) sn_system_set_generalized_force(c->s, c->tau, sn_system_model(c->s)->nv);
    if (sn_world_integrate(c->w) != SN_OK) {
        fprintf(stderr, "sinew step failed: %s\n", sn_world_last_error(c->w));
        exit(1);
    }
}

static double run_sinew(int n, int steps, int limit, double* closure) {
    char* urdf = fourbars_urdf(n, limit);
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf_string(urdf, strlen(urdf), "fourbars.urdf", NULL, NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "sinew: %s\n", err.msg);
        exit(1);
    }
    free(urdf);
    sn_ctx c = {0};
    sn_system* s = NULL;
    if (sn_world_create(NULL, &c.w, &err) != SN_OK || sn_world_add_system(c.w, m, &s, &err)) {
        fprintf(stderr, "sinew: %s\n", err.msg);
        exit(1);
    }
    sn_real g[3] = {0, 0, 0};
    sn_world_set_gravity(c.w, g);
    sn_world_set_timestep(c.w, DT);
    c.s = s;
    if (limit) { // the top crank
        char name[32];
        snprintf(name, sizeof name, "crank%d", n - 1);
        int j = sn_model_find(m, SN_OBJ_JOINT, name);
        c.tau = calloc((size_t)m->nv, sizeof(sn_real));
        if (!c.tau || j < 0) exit(2);
        c.tau[m->joint_vadr[j]] = 1;
    }
    long done = 0;
    double t = bench_measure(sn_step, &c, steps, &done);
    free(c.tau);
    sn_real rms = 0;
    sn_system_loop_error(s, &rms, closure);
    sn_world_destroy(c.w);
    sn_model_destroy(m);
    return t;
}

// ---- MuJoCo ----

#ifdef SN_BENCH_MUJOCO

static double run_mujoco(int n, int steps, int limit) {
    char* xml = fourbars_mjcf(n, limit);
    char err[1000];
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    mj_makeEmptyFileVFS(&vfs, "fourbars.xml", (int)strlen(xml));
    memcpy(vfs.filedata[vfs.nfile - 1], xml, strlen(xml));
    free(xml);
    bench_mj c;
    c.m = mj_loadXML("fourbars.xml", &vfs, err, sizeof err);
    mj_deleteVFS(&vfs);
    if (!c.m) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        exit(1);
    }
    c.d = mj_makeData(c.m);
    if (limit) { // on the top crank; MuJoCo keeps qfrc_applied
        char name[32];
        snprintf(name, sizeof name, "k%d", n - 1);
        int b = mj_name2id(c.m, mjOBJ_BODY, name);
        if (b < 0) exit(2);
        c.d->qfrc_applied[c.m->jnt_dofadr[c.m->body_jntadr[b]]] = 1;
    }
    long done = 0;
    double t = bench_measure(bench_mj_step, &c, steps, &done);
    mj_deleteData(c.d);
    mj_deleteModel(c.m);
    return t;
}
#endif

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "both";
    int n = argc > 2 ? atoi(argv[2]) : 36;
    int steps = argc > 3 ? atoi(argv[3]) : 1000;
    int limit = argc > 4 && !strcmp(argv[4], "limit");
    if (n < 1 || n > 1000 || steps < 1 || (argc > 4 && !limit)) {
        fprintf(stderr,
                "usage: sinew_bench_fourbars [sinew|mujoco|both] [N 1..1000] [steps] [limit]\n");
        return 2;
    }
    if (strcmp(which, "mujoco")) {
        double closure = 0;
        double t = run_sinew(n, steps, limit, &closure);
        printf(
            "sinew   N %3d (%3d DOF, %3d loops)%s %9.2f us/step  closure %.3g m after %d steps\n",
            n, 3 * n, n, limit ? " limit" : "", 1e6 * t, closure, steps);
    }
#ifdef SN_BENCH_MUJOCO
    if (strcmp(which, "sinew")) {
        double t = run_mujoco(n, steps, limit);
        printf("mujoco  N %3d (%3d DOF, %3d loops)%s %9.2f us/step\n", n, 3 * n, n,
               limit ? " limit" : "", 1e6 * t);
    }
#endif
    return 0;
}
