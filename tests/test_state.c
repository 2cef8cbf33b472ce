// SPDX-License-Identifier: Apache-2.0
// test_state.c: world checkpoints (sn_state.h, issue 12 item 8). A run saved at step n1 and
// continued for n2 steps equals, bit for bit, a fresh world (or one that has stepped elsewhere)
// that loads the checkpoint and steps n2 times, warm start on: ANYmal C standing (PD,
// semi-implicit and RK4), the humanoid falling onto the ground and lying there, the Strandbeest
// walking on its loops, a pile of free bodies with an external force pending, and an actuated
// double pendulum under RK4 with limits. Saving again right after a load gives the same bytes.
// Setting q and u back instead (the old way) does not repeat the run: its difference is printed
// as the "before" figure. Corrupt, truncated, foreign and other-version checkpoints are refused
// with the world unchanged. A golden determinism hash of 2000 steps of ANYmal C standing is
// pinned per build.
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "sim/sim.h"
#include "state/state.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SNT_BUILD_ID
#define SNT_BUILD_ID "unknown"
#endif

#define MAXSYS 16

// a scene: its models and its world; `make` sets a world up from scratch
typedef struct scene {
    sn_model* m[MAXSYS];
    int nm;
    sn_world* w;
} scene;
typedef int (*make_fn)(scene* sc);

static void scene_free(scene* sc) {
    sn_world_destroy(sc->w);
    sc->w = NULL;
}


// ---- the scenes ----

// ANYmal C standing on its feet: the benchmarks' contact scene (bench/bench.c): raisimGym's
// standing pose, PD kp 300 kd 5, friction 0.8, solver 150 iterations to 1e-10, 1 ms steps, the
// lowest foot sphere on the ground
static const struct {
    const char* joint;
    double q;
} ANYMAL_POSE[] = {{"LF_HAA", 0.03}, {"LF_HFE", 0.4},   {"LF_KFE", -0.8}, {"RF_HAA", -0.03},
                   {"RF_HFE", 0.4},  {"RF_KFE", -0.8},  {"LH_HAA", 0.03}, {"LH_HFE", -0.4},
                   {"LH_KFE", 0.8},  {"RH_HAA", -0.03}, {"RH_HFE", -0.4}, {"RH_KFE", 0.8}};
static sn_model* anymal_model;

static int anymal_world(scene* sc, sn_scheme scheme) {
    if (!anymal_model) {
        const char* path = tc_model_path("raisim_anymal_c/urdf/anymal.urdf");
        if (!path) return SNT_SKIP;
        anymal_model = tc_load_file(path, 1);
        SNT_CHECK(anymal_model);
    }
    sn_model* m = anymal_model;
    sc->m[0] = m, sc->nm = 1;
    int nq = m->nq, nv = m->nv;
    double q[64] = {0}, u[64] = {0}, kp[64], kd[64];
    SNT_CHECK(nq <= 64 && m->joint_type[0] == SN_JOINT_FLOATING);
    q[3] = 1;
    for (size_t k = 0; k < sizeof ANYMAL_POSE / sizeof ANYMAL_POSE[0]; k++) {
        int j = sn_model_find(m, SN_OBJ_JOINT, ANYMAL_POSE[k].joint);
        SNT_CHECK(j >= 0);
        q[m->joint_qadr[j]] = ANYMAL_POSE[k].q;
    }
    for (int v = 0; v < nv; v++)
        kp[v] = v < 6 ? 0 : 300, kd[v] = v < 6 ? 0 : 5;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(&o, &sc->w, NULL));
    SNT_STATUS_OK(sn_world_add_system(sc->w, m, &s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(sc->w, 1, 0));
    SNT_STATUS_OK(sn_world_set_material(sc->w, 0.8, 0, 0));
    SNT_STATUS_OK(sn_world_set_solver(sc->w, 150, 1e-10));
    SNT_STATUS_OK(sn_system_set_pd_gains(s, kp, kd, nv));
    SNT_STATUS_OK(sn_system_set_pd_target(s, q, nq, u, nv));
    SNT_STATUS_OK(sn_system_set_scheme(s, scheme));
    // the base lowered until the lowest foot sphere touches the ground
    SNT_STATUS_OK(sn_system_set_state(s, q, nq, u, nv));
    sn_data* d = sn_system_data(s);
    SNT_STATUS_OK(sn_fk(m, d));
    double low = INFINITY;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_is_visual[g] || m->geom_type[g] != SN_GEOM_SPHERE) continue;
        double p[3], R[9];
        sn_frame_pose(m, d, m->geom_frame[g], p, R);
        const double* o3 = m->geom_pos + 3 * g;
        double z = p[2] + R[6] * o3[0] + R[7] * o3[1] + R[8] * o3[2] - m->geom_size[3 * g];
        low = fmin(low, z);
    }
    SNT_CHECK(isfinite(low));
    q[2] = -low;
    SNT_STATUS_OK(sn_system_set_state(s, q, nq, u, nv));
    return 0;
}
static int make_anymal(scene* sc) {
    return anymal_world(sc, SN_SCHEME_SEMI_IMPLICIT);
}
static int make_anymal_rk4(scene* sc) {
    return anymal_world(sc, SN_SCHEME_RK4);
}


static sn_model* load_bundled(const char* name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s", SNT_SOURCE_DIR, name);
    return tc_load_file(path, 1);
}


// the bundled humanoid pushed over from standing, unactuated: it falls and lies on the ground
static sn_model* humanoid_model;
static int make_humanoid(scene* sc) {
    if (!humanoid_model) humanoid_model = load_bundled("humanoid.urdf");
    SNT_CHECK(humanoid_model && humanoid_model->nq == 28);
    sc->m[0] = humanoid_model, sc->nm = 1;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &sc->w, NULL));
    SNT_STATUS_OK(sn_world_add_system(sc->w, humanoid_model, &s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(sc->w, 1, 0));
    double q[28] = {0, 0, 0.96, 1}, u[27] = {0.5, 0, 0, 0, 0.5};
    SNT_STATUS_OK(sn_system_set_state(s, q, 28, u, 27));
    return 0;
}


// the bundled Strandbeest walking on its crank (velocity servo kd 200 at -3 rad/s), 2 ms steps
static sn_model* beest_model;
static int make_beest(scene* sc) {
    if (!beest_model) beest_model = load_bundled("strandbeest.urdf");
    SNT_CHECK(beest_model && beest_model->nconstraint > 0);
    sn_model* m = beest_model;
    sc->m[0] = m, sc->nm = 1;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.002;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(&o, &sc->w, NULL));
    SNT_STATUS_OK(sn_world_add_system(sc->w, m, &s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(sc->w, 1, 0));
    int nv = m->nv, nq = m->nq, crank = sn_model_find(m, SN_OBJ_JOINT, "crank_joint");
    SNT_CHECK(crank >= 0 && nv <= 128);
    double kp[128] = {0}, kd[128] = {0}, qr[128], ur[128] = {0};
    memcpy(qr, sn_system_q(s), (size_t)nq * sizeof(double));
    kd[m->joint_vadr[crank]] = 200, ur[m->joint_vadr[crank]] = -3;
    SNT_STATUS_OK(sn_system_set_pd_gains(s, kp, kd, nv));
    SNT_STATUS_OK(sn_system_set_pd_target(s, qr, nq, ur, nv));
    return 0;
}


// a pile of free bodies (boxes, spheres, a capsule) dropped onto each other and the ground
static int make_pile(scene* sc) {
    sc->nm = 0;
    SNT_STATUS_OK(sn_world_create(NULL, &sc->w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(sc->w, 1, 0));
    SNT_STATUS_OK(sn_world_set_material(sc->w, 0.6, 0.2, 0.5));
    for (int k = 0; k < 9; k++) {
        sn_system* s = NULL;
        double size[3] = {0.2, 0.15, 0.1};
        if (k % 3 == 0)
            SNT_STATUS_OK(sn_world_add_box(sc->w, size, 1.0 + 0.1 * k, &s));
        else if (k % 3 == 1)
            SNT_STATUS_OK(sn_world_add_sphere(sc->w, 0.08, 0.7, &s));
        else
            SNT_STATUS_OK(sn_world_add_capsule(sc->w, 0.05, 0.15, 0.5, &s));
        double a = 0.3 * k, h = sin(0.5 * a);
        double q[7] = {0.03 * (k % 2), 0.02 * (k % 3), 0.1 + 0.17 * k, cos(0.5 * a), h, 0.5 * h, 0};
        double nq = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5]);
        q[3] /= nq, q[4] /= nq, q[5] /= nq;
        double u[6] = {0.1 * (k % 2), 0, 0, 0.2, -0.1, 0};
        SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    }
    return 0;
}


// the pile with the midpoint gyroscopic couple on every body, spinning fast: the next step's
// couple takes the last step's impulses as a known force, so they are part of the state
static int make_pile_midpoint(scene* sc) {
    if (make_pile(sc)) return 1;
    for (int k = 0; k < 9; k++) {
        sn_system* s = sn_world_system(sc->w, k);
        SNT_STATUS_OK(sn_system_set_gyroscopic(s, SN_GYROSCOPIC_MIDPOINT));
        double u[6] = {0, 0, 0, 40.0 + k, 25.0 - 3 * k, 60.0};
        SNT_STATUS_OK(sn_system_set_u(s, u, 6));
    }
    return 0;
}


// the bundled double pendulum under RK4, an actuator with a motor operating region on each
// joint, commands and a spring: FORCE_AND_TORQUE mode
static sn_model* dp_model;
static int make_pendulum_rk4(scene* sc) {
    if (!dp_model) dp_model = load_bundled("double_pendulum.urdf");
    SNT_CHECK(dp_model && dp_model->nv == 2);
    sc->m[0] = dp_model, sc->nm = 1;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &sc->w, NULL));
    SNT_STATUS_OK(sn_world_add_system(sc->w, dp_model, &s, NULL));
    SNT_STATUS_OK(sn_system_set_scheme(s, SN_SCHEME_RK4));
    for (int j = 0; j < 2; j++) {
        sn_actuator_desc a;
        memset(&a, 0, sizeof a);
        a.joint = j, a.gear = 10, a.kt = 0.05, a.vbus = 24, a.resistance = 0.5, a.kv = 20;
        a.output_damping = 0.01;
        SNT_STATUS_OK(sn_system_add_actuator(s, &a, NULL));
    }
    double cmd[2] = {3, -2}, q[2] = {1.2, -0.4}, u[2] = {0, 2};
    SNT_STATUS_OK(sn_system_set_actuator_torques(s, cmd, 2));
    SNT_STATUS_OK(sn_system_add_spring(s, 1, 4, 0.3));
    SNT_STATUS_OK(sn_system_set_state(s, q, 2, u, 2));
    return 0;
}


// ---- the checks ----

// every system's q and u, one after another, into x; their number
static int gather_state(sn_world* w, double* x) {
    int n = 0;
    for (int i = 0; i < sn_world_system_count(w); i++) {
        sn_system* s = sn_world_system(w, i);
        const sn_model* m = sn_system_model(s);
        memcpy(x + n, sn_system_q(s), (size_t)m->nq * sizeof(double));
        n += m->nq;
        memcpy(x + n, sn_system_u(s), (size_t)m->nv * sizeof(double));
        n += m->nv;
    }
    return n;
}


static int steps(sn_world* w, int n) {
    for (int k = 0; k < n; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    return 0;
}


static unsigned char* save(sn_world* w, size_t* n) {
    if (sn_world_checkpoint_size(w, n) != SN_OK) return NULL;
    unsigned char* b = malloc(*n);
    size_t got = 0;
    if (!b || sn_world_save_state(w, b, *n, &got) != SN_OK || got != *n) {
        free(b);
        return NULL;
    }
    return b;
}


// the scene run n1 steps, saved, run n2 more (A); a fresh world, and one that stepped 37 times
// on its own first, loading the checkpoint and running n2 steps (B, C): equal to A bit for bit;
// q and u set back instead (D): its largest difference from A into *naive (the old way)
static int resume(make_fn make, int n1, int n2, const char* label, int pending, double* naive) {
    scene a = {0}, b = {0}, c = {0}, d = {0};
    int r = make(&a);
    if (r) return r;
    SNT_CHECK(steps(a.w, n1) == 0);
    if (pending) {
        // an external force and torque set for the next step, pending at the save
        double p[3] = {0.01, 0, 0}, f[3] = {3, -2, 5}, t[3] = {0, 0.2, 0};
        SNT_STATUS_OK(sn_system_set_external_force(sn_world_system(a.w, 1), 1, p, f));
        SNT_STATUS_OK(sn_system_set_external_torque(sn_world_system(a.w, 4), 1, t));
    }
    size_t n = 0;
    unsigned char* ck = save(a.w, &n);
    SNT_CHECK(ck);
    static double x0[4096], xa[4096], xb[4096];
    int nx = gather_state(a.w, x0);
    double t_save = sn_world_time(a.w);
    SNT_CHECK(steps(a.w, n2) == 0);
    gather_state(a.w, xa);
    uint64_t ha = 0, hb = 0;
    SNT_STATUS_OK(sn_world_state_hash(a.w, &ha));
    for (int pass = 0; pass < 2; pass++) {
        scene* sb = pass ? &c : &b;
        SNT_CHECK(make(sb) == 0);
        if (pass) SNT_CHECK(steps(sb->w, 37) == 0); // its own warm start and scratch first
        SNT_STATUS_OK(sn_world_load_state(sb->w, ck, n));
        SNT_CHECK(sn_world_time(sb->w) == t_save);
        // saved again at once: the same bytes (everything the checkpoint holds was restored)
        size_t n2b = 0;
        unsigned char* again = save(sb->w, &n2b);
        SNT_CHECK(again && n2b == n);
        SNT_CHECK_MSG(memcmp(again, ck, n) == 0, "%s: the checkpoint saved after a load differs",
                      label);
        free(again);
        SNT_CHECK(steps(sb->w, n2) == 0);
        SNT_CHECK(gather_state(sb->w, xb) == nx);
        for (int i = 0; i < nx; i++)
            SNT_CHECK_MSG(memcmp(&xa[i], &xb[i], sizeof(double)) == 0,
                          "%s (%s world): state %d is %.17g resumed, %.17g uninterrupted", label,
                          pass ? "a used" : "a fresh", i, xb[i], xa[i]);
        SNT_STATUS_OK(sn_world_state_hash(sb->w, &hb));
        SNT_CHECK(hb == ha);
        scene_free(sb);
    }
    // the old way: q and u set back on a fresh world (time, warm start and flags lost)
    SNT_CHECK(make(&d) == 0);
    for (int i = 0, k = 0; i < sn_world_system_count(d.w); i++) {
        sn_system* s = sn_world_system(d.w, i);
        const sn_model* m = sn_system_model(s);
        SNT_STATUS_OK(sn_system_set_state(s, x0 + k, m->nq, x0 + k + m->nq, m->nv));
        k += m->nq + m->nv;
    }
    SNT_CHECK(steps(d.w, n2) == 0);
    gather_state(d.w, xb);
    *naive = 0;
    for (int i = 0; i < nx; i++)
        *naive = fmax(*naive, fabs(xb[i] - xa[i]));
    printf("  %s: %d + %d steps, checkpoint %zu bytes: resumed = uninterrupted bit for bit (fresh "
           "and used world); q, u set back instead: %.3g off\n",
           label, n1, n2, n, *naive);
    free(ck);
    scene_free(&a);
    scene_free(&d);
    return 0;
}


static int test_resume_anymal_standing(void) {
    double naive;
    int r = resume(make_anymal, 300, 300, "ANYmal C standing (PD)", 0, &naive);
    if (r) return r;
    SNT_CHECK(naive > 0); // the warm start matters here: the scene tests it
    return 0;
}


static int test_resume_anymal_rk4(void) {
    // RK4 in PD mode is replaced by SEMI_IMPLICIT once the robot has touched the ground, until a
    // state is set: the flag is part of the checkpoint, and q, u set back switch RK4 on again
    double naive;
    int r = resume(make_anymal_rk4, 200, 200, "ANYmal C standing (PD, RK4 asked)", 0, &naive);
    if (r) return r;
    SNT_CHECK(naive > 1e-7); // docs/state.md: 1.9e-6 (the flag matters)
    return 0;
}


static int test_resume_humanoid_lying(void) {
    double naive;
    SNT_CHECK(resume(make_humanoid, 1500, 300, "humanoid fallen, lying", 0, &naive) == 0);
    SNT_CHECK(naive > 0);
    return 0;
}


static int test_resume_strandbeest(void) {
    double naive;
    SNT_CHECK(resume(make_beest, 150, 100, "Strandbeest walking (loops)", 0, &naive) == 0);
    SNT_CHECK(naive > 0);
    return 0;
}


static int test_resume_free_body_pile(void) {
    double naive;
    SNT_CHECK(resume(make_pile, 400, 200, "pile of 9 free bodies, force pending", 1, &naive) == 0);
    SNT_CHECK(naive > 0);
    return 0;
}


static int test_resume_spinning_pile_midpoint(void) {
    double naive;
    SNT_CHECK(resume(make_pile_midpoint, 400, 200, "spinning pile, midpoint gyroscopic couple", 0,
                     &naive) == 0);
    return 0;
}


static int test_resume_pendulum_rk4_actuators(void) {
    double naive;
    SNT_CHECK(resume(make_pendulum_rk4, 250, 250, "double pendulum RK4, actuators", 0, &naive) ==
              0);
    return 0;
}


// the last step's reports answer the same right after a load: contacts, the scheme used, the
// step's torques, the generalized force and the actuator states
static int test_reports_after_load(void) {
    scene a = {0}, b = {0};
    SNT_CHECK(make_humanoid(&a) == 0 && make_humanoid(&b) == 0);
    SNT_CHECK(steps(a.w, 900) == 0);
    size_t n;
    unsigned char* ck = save(a.w, &n);
    SNT_CHECK(ck);
    SNT_STATUS_OK(sn_world_load_state(b.w, ck, n));
    sn_system *sa = sn_world_system(a.w, 0), *sb = sn_world_system(b.w, 0);
    int nc = sn_system_contact_count(sa);
    SNT_CHECK(nc > 0 && sn_system_contact_count(sb) == nc);
    for (int i = 0; i < nc; i++) {
        sn_contact ca, cb;
        SNT_STATUS_OK(sn_system_contact(sa, i, &ca));
        SNT_STATUS_OK(sn_system_contact(sb, i, &cb));
        SNT_CHECK(ca.body == cb.body && ca.geom == cb.geom && ca.other_system == cb.other_system &&
                  ca.other_body == cb.other_body && ca.self == cb.self &&
                  ca.sliding == cb.sliding && ca.depth == cb.depth);
        for (int e = 0; e < 3; e++)
            SNT_CHECK(ca.position[e] == cb.position[e] && ca.normal[e] == cb.normal[e] &&
                      ca.impulse[e] == cb.impulse[e]);
    }
    SNT_CHECK(sn_system_scheme_used(sa) == sn_system_scheme_used(sb));
    SNT_CHECK(sn_system_solver_iterations(sa) == sn_system_solver_iterations(sb));
    double pa[5][27], pb[5][27];
    SNT_STATUS_OK(sn_system_step_torques(sa, pa[0], pa[1], pa[2], pa[3], pa[4]));
    SNT_STATUS_OK(sn_system_step_torques(sb, pb[0], pb[1], pb[2], pb[3], pb[4]));
    SNT_CHECK(memcmp(pa, pb, sizeof pa) == 0);
    SNT_STATUS_OK(sn_system_generalized_force(sa, pa[0], 27));
    SNT_STATUS_OK(sn_system_generalized_force(sb, pb[0], 27));
    SNT_CHECK(memcmp(pa[0], pb[0], sizeof pa[0]) == 0);
    SNT_CHECK(sn_system_kinetic_energy(sa) == sn_system_kinetic_energy(sb));
    free(ck);
    scene_free(&a);
    scene_free(&b);
    return 0;
}


// ---- refusals ----

// the checksum of a checkpoint made again after it was changed
static void rechecksum(unsigned char* b, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    for (int i = 0; i < 8; i++)
        b[n - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
}


// a checkpoint whose header field at `at` is replaced by x, with its checksum made again
static void patch32(unsigned char* b, size_t n, size_t at, uint32_t x) {
    for (int i = 0; i < 4; i++)
        b[at + (size_t)i] = (unsigned char)(x >> (8 * i));
    rechecksum(b, n);
}


static int refused(sn_world* w, const unsigned char* b, size_t n, sn_status want, const char* words,
                   const char* what) {
    size_t n0;
    unsigned char* before = save(w, &n0);
    SNT_CHECK(before);
    sn_status st = sn_world_load_state(w, b, n);
    SNT_CHECK_MSG(st == want, "%s: status %d, wanted %d (%s)", what, (int)st, (int)want,
                  sn_world_last_error(w));
    SNT_CHECK_MSG(strstr(sn_world_last_error(w), words), "%s: '%s' lacks '%s'", what,
                  sn_world_last_error(w), words);
    // the world is left as it was
    size_t n1;
    unsigned char* after = save(w, &n1);
    SNT_CHECK(after && n1 == n0 && memcmp(before, after, n0) == 0);
    free(before);
    free(after);
    return 0;
}


static int test_refuses_bad_checkpoints(void) {
    scene a = {0}, b = {0}, p = {0};
    SNT_CHECK(make_pendulum_rk4(&a) == 0 && make_pendulum_rk4(&b) == 0);
    SNT_CHECK(steps(a.w, 100) == 0 && steps(b.w, 7) == 0);
    size_t n;
    unsigned char* ck = save(a.w, &n);
    SNT_CHECK(ck);
    unsigned char* bad = malloc(n);
    SNT_CHECK(bad);
    // corrupt: one bit flipped in the middle
    memcpy(bad, ck, n);
    bad[n / 2] ^= 0x10;
    SNT_CHECK(refused(b.w, bad, n, SN_ERR_PARSE, "checksum", "a flipped bit") == 0);
    // truncated
    SNT_CHECK(refused(b.w, ck, n - 13, SN_ERR_PARSE, "truncated", "13 bytes short") == 0);
    SNT_CHECK(refused(b.w, ck, 20, SN_ERR_PARSE, "truncated", "the header cut") == 0);
    SNT_CHECK(refused(b.w, ck, 0, SN_ERR_PARSE, "not a sinew checkpoint", "empty") == 0);
    // not a checkpoint
    SNT_CHECK(refused(b.w, (const unsigned char*)"<robot name=\"x\"/>", 18, SN_ERR_PARSE,
                      "not a sinew checkpoint", "a URDF") == 0);
    // another version (its checksum made again)
    memcpy(bad, ck, n);
    patch32(bad, n, 8, SN_STATE_VERSION + 1);
    SNT_CHECK(refused(b.w, bad, n, SN_ERR_PARSE, "version 3", "version 3") == 0);
    memcpy(bad, ck, n); // the version before (soft checkpoints of version 1 have another layout)
    patch32(bad, n, 8, SN_STATE_VERSION - 1);
    SNT_CHECK(refused(b.w, bad, n, SN_ERR_PARSE, "version 1", "version 1") == 0);
    // a count out of range, checksum right: refused as foreign, nothing read past the buffer
    memcpy(bad, ck, n);
    patch32(bad, n, 24, 3);
    SNT_CHECK(refused(b.w, bad, n, SN_ERR_MODEL, "a world of 3 systems", "three systems") == 0);
    // a non-finite q (the first q entry of system 0, found by its value), checksum right
    memcpy(bad, ck, n);
    double q0 = sn_system_q(sn_world_system(a.w, 0))[0];
    size_t at = 0;
    for (size_t i = 32; i + 8 < n && !at; i += 4) {
        double x;
        memcpy(&x, ck + i, 8);
        if (x == q0) at = i;
    }
    SNT_CHECK(at > 0);
    double nan = NAN;
    memcpy(bad + at, &nan, 8);
    patch32(bad, n, 28, 0);
    SNT_CHECK(refused(b.w, bad, n, SN_ERR_NONFINITE, "system 0's q", "a NaN q") == 0);
    // foreign: another model
    SNT_CHECK(make_humanoid(&p) == 0);
    SNT_CHECK(refused(p.w, ck, n, SN_ERR_MODEL, "fingerprint", "another model") == 0);
    scene_free(&p);
    // a broad-phase order that names a geometry twice, checksum right (it would drop the other
    // geometry from the sweep for good): found as the entries after [1, nbp, nbp]
    SNT_CHECK(make_pile(&p) == 0);
    SNT_CHECK(steps(p.w, 20) == 0);
    size_t np;
    unsigned char* pk = save(p.w, &np);
    SNT_CHECK(pk);
    uint32_t nbp = (uint32_t)p.w->nbp;
    size_t bp = 0;
    for (size_t i = 32; i + 12 + 8 * (size_t)nbp < np && !bp; i += 4)
        if (sni_get_u32(pk + i) == 1 && sni_get_u32(pk + i + 4) == nbp &&
            sni_get_u32(pk + i + 8) == nbp)
            bp = i + 12;
    SNT_CHECK(bp > 0 && nbp >= 2);
    patch32(pk, np, bp + 4, sni_get_u32(pk + bp));
    SNT_CHECK(
        refused(p.w, pk, np, SN_ERR_PARSE, "names geometry", "a repeated broad-phase entry") == 0);
    free(pk);
    scene_free(&p);
    // foreign: another number of systems
    SNT_CHECK(make_pile(&p) == 0);
    SNT_CHECK(refused(p.w, ck, n, SN_ERR_MODEL, "this world has 9", "another world") == 0);
    scene_free(&p);
    // foreign: another set-up (time step, gravity, a damping)
    SNT_STATUS_OK(sn_world_set_timestep(b.w, 0.002));
    SNT_CHECK(refused(b.w, ck, n, SN_ERR_MODEL, "time step is 0.001", "another time step") == 0);
    SNT_STATUS_OK(sn_world_set_timestep(b.w, 0.001));
    double damping[2] = {0.1, 0};
    SNT_STATUS_OK(sn_system_set_joint_damping(sn_world_system(b.w, 0), damping, 2));
    SNT_CHECK(refused(b.w, ck, n, SN_ERR_MODEL, "system 0's joint damping (entry 0)",
                      "another damping") == 0);
    // the same world set up again loads it
    damping[0] = dp_model->dof_damping[0];
    SNT_STATUS_OK(sn_system_set_joint_damping(sn_world_system(b.w, 0), damping, 2));
    SNT_STATUS_OK(sn_world_load_state(b.w, ck, n));
    // NULL arguments
    SNT_CHECK(sn_world_load_state(b.w, NULL, n) == SN_ERR_ARG);
    SNT_CHECK(sn_world_load_state(NULL, ck, n) == SN_ERR_ARG);
    SNT_CHECK(sn_world_save_state(b.w, ck, n - 1, NULL) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(b.w), "needs"));
    free(bad);
    free(ck);
    scene_free(&a);
    scene_free(&b);
    return 0;
}


// to a file and back; a missing file, a file cut short and a file of another model are refused
// with the file's name in the message
static int test_state_files(void) {
    scene a = {0}, b = {0}, p = {0};
    SNT_CHECK(make_pile(&a) == 0 && make_pile(&b) == 0);
    SNT_CHECK(steps(a.w, 150) == 0);
    char path[256], cut[256];
    snprintf(path, sizeof path, "/tmp/snt_state_%d.snstate", (int)getpid());
    snprintf(cut, sizeof cut, "%s.cut", path);
    SNT_STATUS_OK(sn_world_save_state_file(a.w, path));
    SNT_STATUS_OK(sn_world_load_state_file(b.w, path));
    uint64_t ha, hb;
    SNT_STATUS_OK(sn_world_state_hash(a.w, &ha));
    SNT_STATUS_OK(sn_world_state_hash(b.w, &hb));
    SNT_CHECK(ha == hb);
    SNT_CHECK(steps(a.w, 50) == 0 && steps(b.w, 50) == 0);
    SNT_STATUS_OK(sn_world_state_hash(a.w, &ha));
    SNT_STATUS_OK(sn_world_state_hash(b.w, &hb));
    SNT_CHECK(ha == hb);
    // cut short
    FILE* f = fopen(path, "rb");
    SNT_CHECK(f);
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    f = fopen(cut, "wb");
    SNT_CHECK(f && fwrite(buf, 1, n / 2, f) == n / 2);
    fclose(f);
    SNT_CHECK(sn_world_load_state_file(b.w, cut) == SN_ERR_PARSE);
    SNT_CHECK(strstr(sn_world_last_error(b.w), cut) &&
              strstr(sn_world_last_error(b.w), "truncated"));
    remove(cut);
    SNT_CHECK(sn_world_load_state_file(b.w, cut) == SN_ERR_IO);
    SNT_CHECK(strstr(sn_world_last_error(b.w), cut));
    SNT_CHECK(make_pendulum_rk4(&p) == 0);
    SNT_CHECK(sn_world_load_state_file(p.w, path) == SN_ERR_MODEL);
    SNT_CHECK(strstr(sn_world_last_error(p.w), "foreign"));
    SNT_CHECK(sn_world_save_state_file(a.w, "/nonexistent-dir/x.snstate") == SN_ERR_IO);
    remove(path);
    scene_free(&a);
    scene_free(&b);
    scene_free(&p);
    return 0;
}


// a checkpoint changed anywhere, its checksum made right (so that the checks behind the checksum
// are what stands): every load is refused with a documented status and leaves the world as it
// was, or succeeds; then steps return a status. Nothing crashes or reads out of bounds (the
// ASan build runs this too)
static int test_changed_checkpoints_never_crash(void) {
    scene a = {0}, b = {0};
    SNT_CHECK(make_pile(&a) == 0 && make_pile(&b) == 0);
    SNT_CHECK(steps(a.w, 300) == 0);
    size_t n, nb;
    unsigned char* ck = save(a.w, &n);
    unsigned char* bad = malloc(n);
    unsigned char* before = save(b.w, &nb);
    SNT_CHECK(ck && bad && before);
    tc_seed(12);
    int refused_n = 0, loaded = 0, failed_steps = 0, codes[9] = {0};
    for (int trial = 0; trial < 1500; trial++) {
        memcpy(bad, ck, n);
        int flips = 1 + trial % 3;
        for (int f = 0; f < flips; f++) {
            size_t at = 32 + (size_t)tc_uniform(0, (double)(n - 40));
            bad[at] ^= (unsigned char)(1 + (int)tc_uniform(0, 255));
        }
        rechecksum(bad, n);
        sn_status st = sn_world_load_state(b.w, bad, n);
        SNT_CHECK_MSG(st == SN_OK || st == SN_ERR_PARSE || st == SN_ERR_MODEL ||
                          st == SN_ERR_NONFINITE,
                      "trial %d: status %d (%s)", trial, (int)st, sn_world_last_error(b.w));
        codes[-st]++;
        if (st != SN_OK) {
            refused_n++;
            SNT_CHECK_MSG(strlen(sn_world_last_error(b.w)) > 10, "trial %d: no reason", trial);
            size_t n1;
            unsigned char* after = save(b.w, &n1);
            SNT_CHECK(after && n1 == nb && memcmp(after, before, nb) == 0);
            free(after);
            continue;
        }
        loaded++;
        for (int k = 0; k < 5; k++)
            failed_steps += sn_world_integrate(b.w) != SN_OK;
        // back to the world's own state
        SNT_STATUS_OK(sn_world_load_state(b.w, before, nb));
    }
    printf("  1500 changed checkpoints: %d refused (corrupt %d, foreign %d, non-finite %d), %d "
           "loaded (another valid state; %d of their steps failed cleanly)\n",
           refused_n, codes[-SN_ERR_PARSE], codes[-SN_ERR_MODEL], codes[-SN_ERR_NONFINITE], loaded,
           failed_steps);
    SNT_CHECK(refused_n > 0 && loaded > 0);
    free(ck), free(bad), free(before);
    scene_free(&a);
    scene_free(&b);
    return 0;
}


// a checkpoint between integrate1 and integrate2 (where a controller reads the kinematics and
// sets its commands): integrate2 of the loaded world goes on from the collision of the saved one
static int test_checkpoint_between_integrate1_and_2(void) {
    scene a = {0}, b = {0};
    int r = make_anymal(&a);
    if (r) return r;
    SNT_CHECK(make_anymal(&b) == 0);
    SNT_CHECK(steps(a.w, 120) == 0 && steps(b.w, 3) == 0);
    SNT_STATUS_OK(sn_world_integrate1(a.w));
    size_t n;
    unsigned char* ck = save(a.w, &n);
    SNT_CHECK(ck);
    SNT_STATUS_OK(sn_world_load_state(b.w, ck, n));
    SNT_STATUS_OK(sn_world_integrate2(a.w));
    SNT_STATUS_OK(sn_world_integrate2(b.w));
    SNT_CHECK(steps(a.w, 100) == 0 && steps(b.w, 100) == 0);
    uint64_t ha, hb;
    SNT_STATUS_OK(sn_world_state_hash(a.w, &ha));
    SNT_STATUS_OK(sn_world_state_hash(b.w, &hb));
    SNT_CHECK(ha == hb);
    free(ck);
    scene_free(&a);
    scene_free(&b);
    return 0;
}


// saving, measuring and loading allocate nothing (the file and hash calls allocate their one
// buffer through the world's allocator)
static int test_save_and_load_allocate_nothing(void) {
    scene a = {0};
    SNT_CHECK(make_pile(&a) == 0);
    SNT_CHECK(steps(a.w, 200) == 0);
    size_t n;
    SNT_STATUS_OK(sn_world_checkpoint_size(a.w, &n));
    unsigned char* ck = malloc(n);
    SNT_CHECK(ck);
    tc_heap_install();
    long h0 = tc_heap_calls();
    size_t m = 0;
    SNT_STATUS_OK(sn_world_checkpoint_size(a.w, &m));
    SNT_STATUS_OK(sn_world_save_state(a.w, ck, n, NULL));
    SNT_STATUS_OK(sn_world_load_state(a.w, ck, n));
    SNT_STATUS_OK(sn_world_integrate(a.w));
    long h1 = tc_heap_calls();
    SNT_CHECK_MSG(h1 == h0, "%ld heap calls", h1 - h0);
    free(ck);
    scene_free(&a);
    return 0;
}


// a heightfield is part of the set-up: another one is refused, by name
static int test_heightfield_is_compared(void) {
    scene a = {0}, b = {0};
    SNT_CHECK(make_pile(&a) == 0 && make_pile(&b) == 0);
    double z[16], z2[16];
    for (int k = 0; k < 16; k++)
        z[k] = 0.01 * (k % 5), z2[k] = z[k];
    z2[7] += 1e-9;
    SNT_STATUS_OK(sn_world_set_heightfield(a.w, 4, 4, -1, -1, 0.5, 0.5, z));
    SNT_STATUS_OK(sn_world_set_heightfield(b.w, 4, 4, -1, -1, 0.5, 0.5, z2));
    SNT_CHECK(steps(a.w, 50) == 0);
    size_t n;
    unsigned char* ck = save(a.w, &n);
    SNT_CHECK(ck);
    SNT_CHECK(refused(b.w, ck, n, SN_ERR_MODEL, "heightfield heights", "another terrain") == 0);
    SNT_STATUS_OK(sn_world_set_heightfield(b.w, 4, 4, -1, -1, 0.5, 0.5, z));
    SNT_STATUS_OK(sn_world_load_state(b.w, ck, n));
    free(ck);
    scene_free(&a);
    scene_free(&b);
    return 0;
}


// A tripwire for whoever adds a field to the structures a step reads: the checkpoint must then
// say what it is (src/state/checkpoint.c: save it as state, report or set-up, or write down that
// it is scratch) or a resumed run may silently differ. The sizes of the audited structures on
// LP64 are pinned here; a change fails with the structure's name. Classify the new field, then
// update the size (other ABIs skip).
static int test_audited_structures_unchanged(void) {
    if (sizeof(void*) != 8 || sizeof(long) != 8) return SNT_SKIP;
    const struct {
        const char* name;
        size_t size, pinned;
    } t[] = {
        {"sn_system (sim/sim.h)", sizeof(sn_system), 1816},
        {"sni_tendon_sys (tendon/tendon.h)", sizeof(sni_tendon_sys), 40},
        {"sn_world (sim/sim.h)", sizeof(sn_world), 8368},
        {"sni_contact (sim/sim.h)", sizeof(sni_contact), 208},
        {"sni_step (sim/sim.h)", sizeof(sni_step), 288},
        {"sni_invdyn (sim/sim.h)", sizeof(sni_invdyn), 56},
        {"sni_gyro (sim/sim.h)", sizeof(sni_gyro), 168},
        {"sni_rotor (sim/sim.h)", sizeof(sni_rotor), 72},
        {"sni_control (sim/control.h)", sizeof(sni_control), 128},
        {"sni_actuators (sim/control.h)", sizeof(sni_actuators), 64},
        {"sni_solver (solver/solver.h)", sizeof(sni_solver), 584},
        {"sni_solver_sys (solver/solver.h)", sizeof(sni_solver_sys), 56},
        {"sni_loops (loops/loops.h)", sizeof(sni_loops), 776},
        {"sn_data (sinew/sn_data.h)", sizeof(sn_data), 360},
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (t[k].size != t[k].pinned) {
            printf("  %s is %zu bytes, %zu when the checkpoint's audit was written: classify its "
                   "new fields in src/state/checkpoint.c, then update this size\n",
                   t[k].name, t[k].size, t[k].pinned);
            bad = 1;
        }
    SNT_CHECK(!bad);
    return 0;
}


// ---- the golden determinism hash ----

// The checksum of ANYmal C's checkpoint after 2000 steps standing on its feet (make_anymal), per
// build: the optimizer and the sanitizers may round differently (and so may another compiler or
// libm), so each build id (compiler, its version, build type, sanitizers: SNT_BUILD_ID, defined
// by tests/suites/state.cmake) has its own pinned value. A build not in the table prints its
// hash and is skipped; a change of the step's results (or of the checkpoint's format) changes
// the hash, on purpose: update the table in the same commit and say why. (With -ffp-contract=off
// the release and the ASan debug build of GCC 12.2 agree today; they are pinned apart all the
// same, since nothing promises they will.)
static const struct {
    const char* build;
    uint64_t hash;
} GOLDEN[] = {
    {"GNU-12.2.0-Release-sanOFF", 0xfec283b6fa0fd442ull},
    {"GNU-12.2.0-Debug-sanON", 0xfec283b6fa0fd442ull},
};

static int test_golden_hash_anymal_2000_steps(void) {
    scene a = {0};
    int r = make_anymal(&a);
    if (r) return r;
    SNT_CHECK(steps(a.w, 2000) == 0);
    uint64_t h = 0;
    SNT_STATUS_OK(sn_world_state_hash(a.w, &h));
    const double* q = sn_system_q(sn_world_system(a.w, 0));
    printf("  build %s: hash %016llx after 2000 steps (base z %.6f m)\n", SNT_BUILD_ID,
           (unsigned long long)h, q[2]);
    SNT_CHECK(q[2] > 0.4); // standing
    scene_free(&a);
    for (size_t k = 0; k < sizeof GOLDEN / sizeof GOLDEN[0]; k++)
        if (!strcmp(GOLDEN[k].build, SNT_BUILD_ID)) {
            SNT_CHECK_MSG(h == GOLDEN[k].hash, "hash %016llx, pinned %016llx",
                          (unsigned long long)h, (unsigned long long)GOLDEN[k].hash);
            return 0;
        }
    printf("  no hash pinned for this build: add {\"%s\", 0x%016llxull} to GOLDEN\n", SNT_BUILD_ID,
           (unsigned long long)h);
    return SNT_SKIP;
}


SNT_SUITE(SNT_TEST(test_resume_anymal_standing), SNT_TEST(test_resume_anymal_rk4),
          SNT_TEST(test_resume_humanoid_lying), SNT_TEST(test_resume_strandbeest),
          SNT_TEST(test_resume_free_body_pile), SNT_TEST(test_resume_spinning_pile_midpoint),
          SNT_TEST(test_resume_pendulum_rk4_actuators), SNT_TEST(test_reports_after_load),
          SNT_TEST(test_refuses_bad_checkpoints), SNT_TEST(test_state_files),
          SNT_TEST(test_changed_checkpoints_never_crash),
          SNT_TEST(test_checkpoint_between_integrate1_and_2),
          SNT_TEST(test_save_and_load_allocate_nothing), SNT_TEST(test_heightfield_is_compared),
          SNT_TEST(test_audited_structures_unchanged), SNT_TEST(test_golden_hash_anymal_2000_steps))
