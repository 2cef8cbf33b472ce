// SPDX-License-Identifier: Apache-2.0
// test_loop_clusters.c: the loops eliminated by clusters (src/loops/cluster.c, issue 18's "loops
// in linear time"). Every model with loops runs twice, once with the clusters' articulated solve
// wherever the contact solver leaves the system alone (and at any size: by itself the step takes
// them from SNI_CLUSTER_NV_MIN DOFs on) and once with the clusters off (the factor of M~ and of D,
// factor.c): the states, the constraint impulses and the loops' generalized forces agree to
// rounding at every step. The clusters found are the loops'
// own (a chain of four-bars: one per four-bar, each hanging from the last one's rocker); the
// Strandbeest, one cluster too large, keeps the factor.
#include "common.h"
#include "harness/snt.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rig {
    sn_model* m;
    sn_world* w;
    sn_system* s;
} rig;

static int rig_open(rig* r, sn_model* m, double dt, int gravity, int ground) {
    memset(r, 0, sizeof *r);
    r->m = m;
    SNT_CHECK(m != NULL);
    SNT_STATUS_OK(tc_world_open(m, dt, &r->w, &r->s));
    double g0[3] = {0, 0, 0};
    if (!gravity) SNT_STATUS_OK(sn_world_set_gravity(r->w, g0));
    if (ground) SNT_STATUS_OK(sn_world_set_ground(r->w, 1, 0));
    return 0;
}

// a chain of n four-bars closed by pins (the pins' anchors apart by the step's error give the
// rows a moment on the cluster's top), each standing on the last one's rocker, leaning so that
// gravity swings it: crank and rocker 0.3 m hinged 0.4 m apart, a coupler 0.4 m between them
static char* chain_urdf(int n) {
    size_t cap = 4096 + (size_t)n * 2048, len = 0;
    char* t = malloc(cap);
    if (!t) return NULL;
    len += (size_t)snprintf(t + len, cap - len, "<robot name='chain'><link name='world'/>\n");
    const char* in = "<inertial><origin xyz='%s'/><mass value='1'/><inertia ixx='0.0075' "
                     "iyy='0.0075' izz='0.0075' ixy='0' ixz='0' iyz='0'/></inertial>";
    char base[32] = "world";
    for (int k = 0; k < n; k++) {
        double top = k ? 0.3 : 0;
        const char* names[3] = {"crank", "coupler", "rocker"};
        for (int i = 0; i < 3; i++) {
            len += (size_t)snprintf(t + len, cap - len, "<link name='%s%d'>", names[i], k);
            len += (size_t)snprintf(t + len, cap - len, in, i == 1 ? "0.2 0 0" : "0 0 0.15");
            len += (size_t)snprintf(t + len, cap - len, "</link>\n");
        }
        len += (size_t)snprintf(
            t + len, cap - len,
            "<joint name='crank%d' type='continuous'><parent link='%s'/><child link='crank%d'/>"
            "<origin xyz='0 0 %g'/><axis xyz='0 1 0'/></joint>\n"
            "<joint name='coupler%d' type='continuous'><parent link='crank%d'/>"
            "<child link='coupler%d'/><origin xyz='0 0 0.3'/><axis xyz='0 1 0'/></joint>\n"
            "<joint name='rocker%d' type='continuous'><parent link='%s'/><child link='rocker%d'/>"
            "<origin xyz='0.4 0 %g'/><axis xyz='0 1 0'/></joint>\n",
            k, base, k, top, k, k, k, k, base, k, top);
        snprintf(base, sizeof base, "rocker%d", k);
    }
    len += (size_t)snprintf(t + len, cap - len, "<constraints>\n");
    for (int k = 0; k < n; k++)
        len +=
            (size_t)snprintf(t + len, cap - len,
                             "<pin body1='coupler%d' body2='rocker%d' anchor='0.4 0 0'/>\n", k, k);
    snprintf(t + len, cap - len, "</constraints>\n</robot>\n");
    return t;
}

// the chain's start: every four-bar leaning by 0.3 rad (a parallelogram: crank and rocker
// turned alike, the coupler back)
static void chain_lean(const sn_model* m, double* q) {
    for (int j = 0; j < m->njoint; j++) {
        const char* name = m->names + m->joint_name[j];
        q[m->joint_qadr[j]] = strncmp(name, "coupler", 7) ? 0.3 : -0.3;
    }
}


// the two runs side by side
typedef struct agreement {
    double q, u, imp, tau; // the largest relative differences of one step over the run
    double y, g;           // and of the contact solver's responses Y and blocks G
    long cluster_steps, factor_steps, blocks, unsettled;
} agreement;

// ma and mb run for steps steps, one with the clusters and one without them, from
// q0 (nullable: the model's) and u0 (nullable: 0); each step of the second starts from the first's
// state (a checkpoint), so that every step is compared from the same state
static int agree(sn_model* ma, sn_model* mb, double dt, int gravity, int ground, const double* q0,
                 const double* u0, int steps, agreement* out) {
    memset(out, 0, sizeof *out);
    rig a, b;
    SNT_CHECK(rig_open(&a, ma, dt, gravity, ground) == 0);
    SNT_CHECK(rig_open(&b, mb, dt, gravity, ground) == 0);
    a.s->loops.cl.mode = 1;
    b.s->loops.cl.mode = -1;
    int nq = ma->nq, nv = ma->nv, nc = ma->nconstraint;
    double* u = calloc((size_t)nv, sizeof(double));
    double* ta = calloc((size_t)nv, sizeof(double));
    double* tb = calloc((size_t)nv, sizeof(double));
    SNT_CHECK(u && ta && tb);
    if (u0) memcpy(u, u0, (size_t)nv * sizeof(double));
    SNT_STATUS_OK(sn_system_set_state(a.s, q0 ? q0 : sn_system_q(a.s), nq, u, nv));
    unsigned char* ck = NULL;
    for (int k = 0; k < steps; k++) {
        // the whole state (the warm starts, a position correction's pending opening) copied
        size_t size = 0;
        SNT_STATUS_OK(sn_world_checkpoint_size(a.w, &size));
        unsigned char* grown = realloc(ck, size);
        SNT_CHECK(grown != NULL);
        ck = grown;
        SNT_STATUS_OK(sn_world_save_state(a.w, ck, size, NULL));
        SNT_STATUS_OK(sn_world_load_state(b.w, ck, size));
        SNT_STATUS_OK(sn_world_integrate(a.w));
        SNT_STATUS_OK(sn_world_integrate(b.w));
        // the contact solver's rows: the same J, and Y and G from the two routes
        const sni_solver* va = &a.w->solver;
        const sni_solver* vb = &b.w->solver;
        SNT_CHECK(va->nblock == vb->nblock);
        size_t st = 3 * (size_t)va->size.nvmax;
        for (int x = 0; x < va->nblock; x++) {
            size_t n = (size_t)va->blk_dim[x] * nv;
            out->y = fmax(out->y, tc_rel_err(va->blk_Ya + st * x, vb->blk_Ya + st * x, (int)n, 1));
            out->g = fmax(out->g, tc_rel_err(va->blk_G + 9 * x, vb->blk_G + 9 * x, 9, 1));
        }
        out->blocks += va->nblock;
        // a solve that stopped at its iteration limit (a foot's contacts and the loops
        // indeterminate) leaves impulses that rounding moves: its step is not compared
        if (va->nblock && (va->iterations >= va->max_iter || vb->iterations >= vb->max_iter)) {
            out->unsettled++;
            continue;
        }
        out->q = fmax(out->q, tc_rel_err(sn_system_q(a.s), sn_system_q(b.s), nq, 1));
        out->u = fmax(out->u, tc_rel_err(sn_system_u(a.s), sn_system_u(b.s), nv, 1));
        SNT_STATUS_OK(sn_system_step_constraint_torques(a.s, NULL, NULL, ta));
        SNT_STATUS_OK(sn_system_step_constraint_torques(b.s, NULL, NULL, tb));
        out->tau = fmax(out->tau, tc_rel_err(ta, tb, nv, 1e-6));
        double ia[3 * 64], ib[3 * 64];
        SNT_CHECK(nc <= 64);
        for (int c = 0; c < nc; c++) {
            SNT_STATUS_OK(sn_system_constraint(a.s, c, ia + 3 * c, NULL));
            SNT_STATUS_OK(sn_system_constraint(b.s, c, ib + 3 * c, NULL));
        }
        out->imp = fmax(out->imp, tc_rel_err(ia, ib, 3 * nc, 1e-6));
    }
    out->cluster_steps = a.s->loops.cl.steps;
    out->factor_steps = b.s->loops.cl.steps;
    free(ck);
    free(u);
    free(ta);
    free(tb);
    sn_world_destroy(a.w);
    sn_world_destroy(b.w);
    return 0;
}

static void say(const char* what, int steps, const agreement* g) {
    printf("  %s, %d steps: %ld by clusters (the other run %ld); largest differences of a step "
           "q %.1e, u %.1e, impulses %.1e, loops' forces %.1e",
           what, steps, g->cluster_steps, g->factor_steps, g->q, g->u, g->imp, g->tau);
    if (g->blocks)
        printf(
            "; %ld contact solver blocks, their Y %.1e and G %.1e apart; %ld steps at the solver's "
            "iteration limit not compared",
            g->blocks, g->y, g->g, g->unsettled);
    printf("\n");
}

#define AGREE_TOL 1e-12 // relative, one step from the same state


// the bundled linkages with their loops in the plane (equality constraints) or in space (pins)
static int test_bundled_linkages_agree(void) {
    const char* files[] = {"fourbar.urdf", "slider_crank.urdf", "parallelogram.urdf", "delta.urdf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/models/%s", SNT_SOURCE_DIR, files[i]);
        sn_model* ma = tc_load_file(path, 1);
        sn_model* mb = tc_load_file(path, 1);
        SNT_CHECK(ma && mb);
        double* u = calloc((size_t)ma->nv, sizeof(double));
        SNT_CHECK(u != NULL);
        u[0] = 3; // set turning: the first step takes the velocity's admissible part
        agreement g;
        SNT_CHECK(agree(ma, mb, 1e-3, 1, 0, NULL, u, 500, &g) == 0);
        say(files[i], 500, &g);
        SNT_CHECK(g.cluster_steps == 500 && g.factor_steps == 0);
        // the parallelogram's redundant bar: its rows and the others' share the impulse in no
        // unique way (each route leaves out other rows), the forces they make are unique. The
        // delta's three pins are nearly dependent (1.3e-10 between the routes' impulses, 5e-13
        // in their forces)
        double imp_tol = !strcmp(files[i], "parallelogram.urdf") ? INFINITY
                         : !strcmp(files[i], "delta.urdf")       ? 1e-9
                                                                 : AGREE_TOL;
        double tol = !strcmp(files[i], "delta.urdf") ? 1e-11 : AGREE_TOL;
        SNT_CHECK(g.q < AGREE_TOL && g.u < tol && g.imp < imp_tol && g.tau < tol);
        free(u);
        sn_model_destroy(ma);
        sn_model_destroy(mb);
    }
    return 0;
}


// eight four-bars in a chain, closed by pins: eight clusters of 3 DOFs and 3 rows (a pin in the
// plane: 2 kept), each hanging from the rocker below it, the first from the world
static int test_fourbar_chain_clusters(void) {
    char* urdf = chain_urdf(8);
    SNT_CHECK(urdf != NULL);
    sn_model* ma = tc_load_string(urdf, 1);
    sn_model* mb = tc_load_string(urdf, 1);
    free(urdf);
    SNT_CHECK(ma && mb);
    {
        rig r;
        SNT_CHECK(rig_open(&r, ma, 1e-3, 1, 0) == 0);
        const sni_loop_clusters* cl = &r.s->loops.cl;
        SNT_CHECK(cl->usable && cl->n == 8);
        for (int k = 0; k < cl->n; k++) {
            SNT_CHECK(cl->doff[k + 1] - cl->doff[k] == 3 && cl->boff[k + 1] - cl->boff[k] == 3);
            const char* top = k ? ma->names + ma->body_name[cl->top[k]] : "world";
            char want[32];
            snprintf(want, sizeof want, "rocker%d", k - 1);
            SNT_CHECK(k ? !strcmp(top, want) : cl->top[k] == 0);
        }
        sn_world_destroy(r.w);
    }
    // by itself the step takes the clusters from 24 DOFs on: the chain's, not a four-bar alone's
    for (int i = 0; i < 2; i++) {
        rig r;
        sn_model* m = i ? ma : tc_load_file(SNT_SOURCE_DIR "/models/fourbar.urdf", 1);
        SNT_CHECK(rig_open(&r, m, 1e-3, 1, 0) == 0);
        for (int k = 0; k < 10; k++)
            SNT_STATUS_OK(sn_world_integrate(r.w));
        SNT_CHECK(r.s->loops.cl.steps == (i ? 10 : 0));
        sn_world_destroy(r.w);
        if (!i) sn_model_destroy(m);
    }
    double q[64];
    SNT_CHECK(ma->nq <= 64);
    chain_lean(ma, q);
    agreement g;
    SNT_CHECK(agree(ma, mb, 1e-3, 1, 0, q, NULL, 1000, &g) == 0);
    say("8 four-bars in a chain, pins, leaning under gravity", 1000, &g);
    SNT_CHECK(g.cluster_steps == 1000 && g.factor_steps == 0);
    // the deep chain's step is ill-conditioned: the factor route alone moves u by 1.7e-12 when
    // the state moves by one ulp (measured); the routes agree within that
    SNT_CHECK(g.q < AGREE_TOL && g.u < 1e-11 && g.imp < 1e-10 && g.tau < 1e-10);
    sn_model_destroy(ma);
    sn_model_destroy(mb);
    return 0;
}


// a mimic joint: the follower's row joins its and its leader's bodies into one cluster
static int test_mimic_cluster(void) {
    const char* urdf =
        "<robot name='pair'><link name='world'/>"
        "<link name='a'><inertial><origin xyz='0 0 -0.5'/><mass value='1'/><inertia ixx='0.01' "
        "ixy='0' ixz='0' iyy='0.01' iyz='0' izz='0.01'/></inertial></link>"
        "<link name='b'><inertial><origin xyz='0 0 -0.5'/><mass value='2'/><inertia ixx='0.01' "
        "ixy='0' ixz='0' iyy='0.01' iyz='0' izz='0.01'/></inertial></link>"
        "<joint name='ja' type='continuous'><parent link='world'/><child link='a'/>"
        "<origin xyz='0 0 1'/><axis xyz='0 1 0'/></joint>"
        "<joint name='jb' type='continuous'><parent link='a'/><child link='b'/>"
        "<origin xyz='0 0 -1'/><axis xyz='0 1 0'/><mimic joint='ja' multiplier='-0.5'/></joint>"
        "</robot>";
    sn_model* ma = tc_load_string(urdf, 1);
    sn_model* mb = tc_load_string(urdf, 1);
    SNT_CHECK(ma && mb);
    double q[2] = {0.4, -0.2};
    agreement g;
    SNT_CHECK(agree(ma, mb, 1e-3, 1, 0, q, NULL, 1000, &g) == 0);
    say("a pendulum whose second link mimics the first (-0.5)", 1000, &g);
    SNT_CHECK(g.cluster_steps == 1000 && g.factor_steps == 0);
    SNT_CHECK(g.q < AGREE_TOL && g.u < AGREE_TOL && g.tau < AGREE_TOL);
    sn_model_destroy(ma);
    sn_model_destroy(mb);
    return 0;
}


// the Strandbeest: its crank drives every leg, so its 36 loops make one cluster of 73 DOFs,
// beyond SNI_CLUSTER_DOF_MAX: it keeps the factor (and its structured D)
static int test_strandbeest_keeps_the_factor(void) {
    rig r;
    SNT_CHECK(
        rig_open(&r, tc_load_file(SNT_SOURCE_DIR "/models/strandbeest.urdf", 1), 2e-3, 1, 1) == 0);
    const sni_loop_clusters* cl = &r.s->loops.cl;
    int big = 0;
    for (int k = 0; k < cl->n; k++)
        big = big > cl->doff[k + 1] - cl->doff[k] ? big : cl->doff[k + 1] - cl->doff[k];
    printf("  Strandbeest: %d cluster(s), the largest %d DOFs of %d; usable %d\n", cl->n, big,
           r.m->nv, cl->usable);
    SNT_CHECK(!cl->usable && big > SNI_CLUSTER_DOF_MAX);
    for (int k = 0; k < 5; k++)
        SNT_STATUS_OK(sn_world_integrate(r.w));
    SNT_CHECK(cl->steps == 0 && r.s->loops.route == 0);
    sn_world_destroy(r.w);
    sn_model_destroy(r.m);
    return 0;
}


// Menagerie's Cassie (shared models), its joints brought within their limits and its loops
// closed by the assembly (at q = 0 its foot cranks are past theirs): each leg's two loops are
// two clusters. In the air every step takes the clusters; dropped 2 cm onto the floor, the steps
// in contact take the factor and the others the clusters, in one run
static int cassie_start(sn_model* m, double* q) {
    rig r;
    SNT_CHECK(rig_open(&r, m, 5e-4, 1, 0) == 0);
    memcpy(q, sn_system_q(r.s), (size_t)m->nq * sizeof(double));
    for (int j = 0; j < m->njoint; j++) {
        int v = m->joint_vadr[j], a = m->joint_qadr[j];
        if (m->joint_nv[j] != 1 || !m->dof_limited[v]) continue;
        double lo = m->dof_lower[v], hi = m->dof_upper[v], in = 0.05 * (hi - lo);
        q[a] = fmin(fmax(q[a], lo + in), hi - in);
    }
    q[2] += 0.02; // the pelvis 2 cm up
    double* u0 = calloc((size_t)m->nv, sizeof(double));
    SNT_CHECK(u0 != NULL);
    SNT_STATUS_OK(sn_system_set_state(r.s, q, m->nq, u0, m->nv));
    free(u0);
    double res = 1;
    SNT_STATUS_OK(sn_system_assemble(r.s, 50, 1e-12, &res));
    memcpy(q, sn_system_q(r.s), (size_t)m->nq * sizeof(double));
    sn_world_destroy(r.w);
    return 0;
}

static int test_cassie_clusters(void) {
    const char* path = tc_model_path("menagerie_cassie/cassie.xml");
    if (!path) return SNT_SKIP;
    sn_model *ma = NULL, *mb = NULL;
    SNT_STATUS_OK(sn_load(path, NULL, &ma, NULL));
    SNT_STATUS_OK(sn_load(path, NULL, &mb, NULL));
    double q[64];
    SNT_CHECK(ma->nq <= 64 && cassie_start(ma, q) == 0);
    agreement g;
    SNT_CHECK(agree(ma, mb, 5e-4, 1, 0, q, NULL, 1000, &g) == 0);
    say("Cassie in the air", 1000, &g);
    // (the first steps' joint limits, which the assembly moved joints past, take the factor)
    SNT_CHECK(g.cluster_steps > 900 && g.factor_steps == 0);
    SNT_CHECK(g.q < AGREE_TOL && g.u < AGREE_TOL && g.imp < AGREE_TOL && g.tau < AGREE_TOL);
    SNT_CHECK(agree(ma, mb, 5e-4, 1, 1, q, NULL, 1000, &g) == 0);
    say("Cassie dropped 2 cm onto the floor", 1000, &g);
    SNT_CHECK(g.cluster_steps == 1000 && g.factor_steps == 0 && g.blocks > 1000);
    SNT_CHECK(g.y < AGREE_TOL && g.g < AGREE_TOL && g.unsettled < 500);
    SNT_CHECK(g.q < AGREE_TOL && g.u < AGREE_TOL && g.imp < AGREE_TOL && g.tau < AGREE_TOL);
    sn_model_destroy(ma);
    sn_model_destroy(mb);
    return 0;
}


SNT_SUITE(SNT_TEST(test_bundled_linkages_agree), SNT_TEST(test_fourbar_chain_clusters),
          SNT_TEST(test_mimic_cluster), SNT_TEST(test_strandbeest_keeps_the_factor),
          SNT_TEST(test_cassie_clusters))
