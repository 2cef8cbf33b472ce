// SPDX-License-Identifier: Apache-2.0
// sinew_bench_humanoid: the contact step of a humanoid lying on the floor, sinew and MuJoCo 2.2.2
// side by side on the same file (models/humanoid_primitives.urdf: capsules written as cylinders
// and spheres, which MuJoCo's URDF reader takes). Each engine starts the humanoid standing, pushes
// it over (0.5 m/s forward, 0.5 rad/s about y), lets it fall and settle for 3 s at 1 ms, then
// steps it lying on the floor. Robot geometry collides with the floor only (self-collision off in
// both). MuJoCo: Euler, its default solver, friction 0.8 (sinew's default).
//
// usage: sinew_bench_humanoid [sinew|mujoco|both] [steps]   (default both, 1000)
// Wall time: median of 5 blocks of steps/5. Instructions: run one engine under
//   valgrind --tool=callgrind --collect-atstart=no build/bench/sinew_bench_humanoid sinew
// which collects the measured steps only (bench/humanoid.sh does both).
#define _POSIX_C_SOURCE 199309L
#include "sinew/sn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SN_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#include "bench_util.h"

#define SETTLE 3000

typedef struct sn_ctx {
    sn_world* w;
    sn_system* s;
} sn_ctx;

static void sn_step(void* p) {
    sn_ctx* c = p;
    if (sn_world_integrate(c->w) != SN_OK) {
        fprintf(stderr, "sinew step failed: %s\n", sn_world_last_error(c->w));
        exit(1);
    }
}

static int run_sinew(const char* path, int steps) {
    sn_model* m = NULL;
    sn_error err;
    if (sn_load_urdf(path, NULL, &m, &err) != SN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    sn_ctx c;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    if (sn_world_create(&o, &c.w, &err) != SN_OK || sn_world_add_system(c.w, m, &c.s, &err))
        return 1;
    sn_world_set_ground(c.w, 1, 0);
    double q[64] = {0, 0, 0.96, 1}, u[64] = {0.5, 0, 0, 0, 0.5};
    if (sn_system_set_state(c.s, q, m->nq, u, m->nv) != SN_OK) return 1;
    for (int k = 0; k < SETTLE; k++)
        sn_step(&c);
    long its = 0;
    int nc = 0;
    double t = bench_measure(sn_step, &c, steps, NULL);
    for (int k = 0; k < 100; k++) {
        sn_step(&c);
        its += sn_system_solver_iterations(c.s);
        nc += sn_system_contact_count(c.s);
    }
    printf("sinew  %8.2f us/step  (%d contacts, %.1f solver sweeps per step, kinetic energy "
           "%.2g J, pelvis z %.4f m)\n",
           1e6 * t, nc / 100, its / 100.0, sn_system_kinetic_energy(c.s), sn_system_q(c.s)[2]);
    sn_world_destroy(c.w);
    sn_model_destroy(m);
    return 0;
}

#ifdef SN_BENCH_MUJOCO

static char* slurp(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

static int write_text(const char* path, const char* a, size_t na, const char* ins, const char* b) {
    FILE* f = fopen(path, "w");
    if (!f) return 1;
    fwrite(a, 1, na, f);
    fputs(ins, f);
    fputs(b, f);
    return fclose(f);
}

static int run_mujoco(const char* path, int steps) {
    // the URDF with a free base and MuJoCo's compiler options, then its MJCF with a floor and
    // robot geometry that collides with the floor only
    char* s = slurp(path);
    char* r = s ? strstr(s, "<robot") : NULL;
    char* e = r ? strchr(r, '>') : NULL;
    if (!e) return 1;
    const char* tu = "/tmp/sn_bench_humanoid.urdf";
    const char* tx = "/tmp/sn_bench_humanoid.xml";
    if (write_text(tu, s, (size_t)(e + 1 - s),
                   "<mujoco><compiler discardvisual=\"true\" fusestatic=\"true\"/></mujoco>"
                   "<link name=\"world\"/><joint name=\"free\" type=\"floating\"><parent "
                   "link=\"world\"/><child link=\"pelvis\"/></joint>",
                   e + 1))
        return 1;
    free(s);
    char err[1000] = "";
    mjModel* m0 = mj_loadXML(tu, NULL, err, sizeof err);
    if (!m0 || !mj_saveLastXML(tx, m0, err, sizeof err)) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        return 1;
    }
    mj_deleteModel(m0);
    s = slurp(tx);
    char* d = s ? strstr(s, "<default/>") : NULL;
    char* wb = d ? strstr(d, "<worldbody>") : NULL;
    if (!wb) return 1;
    // <default/> becomes the geom defaults, the floor opens the worldbody
    FILE* f = fopen(tx, "w");
    if (!f) return 1;
    fwrite(s, 1, (size_t)(d - s), f);
    fputs("<option timestep=\"0.001\"/><default><geom contype=\"1\" conaffinity=\"0\" "
          "friction=\"0.8 0.005 0.0001\"/></default>",
          f);
    d += strlen("<default/>");
    fwrite(d, 1, (size_t)(wb + strlen("<worldbody>") - d), f);
    fputs("<geom name=\"floor\" type=\"plane\" size=\"0 0 1\" contype=\"0\" conaffinity=\"1\"/>",
          f);
    fputs(wb + strlen("<worldbody>"), f);
    fclose(f);
    free(s);
    bench_mj c;
    c.m = mj_loadXML(tx, NULL, err, sizeof err);
    remove(tu);
    remove(tx);
    if (!c.m) {
        fprintf(stderr, "MuJoCo: %s\n", err);
        return 1;
    }
    c.m->opt.enableflags |= mjENBL_ENERGY;
    c.d = mj_makeData(c.m);
    c.d->qpos[2] = 0.96;
    c.d->qvel[0] = 0.5;
    c.d->qvel[4] = 0.5;
    for (int k = 0; k < SETTLE; k++)
        mj_step(c.m, c.d);
    double t = bench_measure(bench_mj_step, &c, steps, NULL);
    long nc = 0;
    for (int k = 0; k < 100; k++) {
        mj_step(c.m, c.d);
        nc += c.d->ncon;
    }
    mj_energyPos(c.m, c.d);
    mj_energyVel(c.m, c.d);
    printf("MuJoCo %8.2f us/step  (%ld contacts, nq %d, nv %d, kinetic energy %.2g J, pelvis z "
           "%.4f m)\n",
           1e6 * t, nc / 100, c.m->nq, c.m->nv, c.d->energy[1], c.d->qpos[2]);
    mj_deleteData(c.d);
    mj_deleteModel(c.m);
    return 0;
}
#endif

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "both";
    int steps = argc > 2 ? atoi(argv[2]) : 1000;
    const char* path = SN_BENCH_SOURCE_DIR "/models/humanoid_primitives.urdf";
    int rc = 0;
    if (strcmp(which, "mujoco")) rc |= run_sinew(path, steps);
#ifdef SN_BENCH_MUJOCO
    if (strcmp(which, "sinew")) rc |= run_mujoco(path, steps);
#else
    if (strcmp(which, "sinew")) fprintf(stderr, "built without MuJoCo\n");
#endif
    return rc;
}
