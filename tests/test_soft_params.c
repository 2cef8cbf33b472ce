// SPDX-License-Identifier: Apache-2.0
// test_soft_params.c: the soft contacts' parameters per material pair (issue 13 item 1;
// docs/expo.md "Soft parameters"): two balls of different materials resting on the soft ground
// each sink m g / K of their own pair, the pair's order does not matter and an unset pair takes
// the world's, the refusals, and a checkpoint that compares the pairs (a world set up with
// other pairs refuses it, one set up the same resumes bit for bit).
#include "common.h"
#include "harness/snt.h"
#include "sinew/sn_setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAV 9.81


// a soft world (dt, ground z = 0) with two free balls of mass 1 kg, their centres soft points,
// at x = 0 and x = 1, z = 0 at rest; ball 1's body has material 3, ball 0's the default 0
typedef struct two {
    sn_world* w;
    sn_system* s[2];
} two;

static int two_balls(two* t, double dt) {
    memset(t, 0, sizeof *t);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = dt;
    SNT_STATUS_OK(sn_world_create(&o, &t->w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(t->w, 1, 0));
    SNT_STATUS_OK(sn_world_set_contact_model(t->w, SN_CONTACT_SOFT));
    for (int i = 0; i < 2; i++) {
        SNT_STATUS_OK(sn_world_add_sphere(t->w, 0.01, 1.0, &t->s[i]));
        const double off[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_system_add_soft_point(t->s[i], 1, off, NULL));
        double q[7] = {i, 0, 0, 1, 0, 0, 0}, u[6] = {0};
        SNT_STATUS_OK(sn_system_set_state(t->s[i], q, 7, u, 6));
    }
    SNT_STATUS_OK(sn_system_set_body_material(t->s[1], 1, 3));
    return 0;
}


// ball 0 (material 0 on the ground's 0) takes the world's K, ball 1 the pair (3, 0)'s, set as
// (0, 3): after 2 s at rest each sinks m g / K (the damping ratio 0.34 and 0.75: settled to
// 1e-12 of the sink); the pair's mu and bilateral reach the contact too
static int test_pair_sink(void) {
    two t;
    if (two_balls(&t, 0.005)) return 1;
    sn_soft_params P = sn_soft_params_default(), Q = sn_soft_params_default();
    P.k_normal = 2e5;
    Q.k_normal = 4e4;
    Q.mu = 0.25;
    SNT_STATUS_OK(sn_world_set_soft_params(t.w, &P));
    SNT_STATUS_OK(sn_world_set_soft_pair(t.w, 0, 3, &Q));
    for (int i = 0; i < 400; i++)
        SNT_STATUS_OK(sn_world_integrate(t.w));
    const double k[2] = {2e5, 4e4};
    for (int i = 0; i < 2; i++) {
        double z = sn_system_q(t.s[i])[2];
        printf("  ball %d: sinks %.9g m, m g / K = %.9g m\n", i, -z, GRAV / k[i]);
        SNT_NEAR_REL(-z, GRAV / k[i], 1e-9, 0);
    }
    // the same ball on the pair's friction: a push of 0.3 m g sideways slides it (mu 0.25), the
    // world's mu 1 holds ball 0
    for (int i = 0; i < 2; i++) {
        const double f[3] = {0.3 * GRAV, 0, 0}, zero[3] = {0, 0, 0};
        SNT_STATUS_OK(sn_system_set_external_force(t.s[i], 1, zero, f));
    }
    SNT_STATUS_OK(sn_world_integrate(t.w));
    sn_soft_point p0, p1;
    SNT_STATUS_OK(sn_system_soft_point(t.s[0], 0, &p0));
    SNT_STATUS_OK(sn_system_soft_point(t.s[1], 0, &p1));
    SNT_CHECK(p0.active && !p0.slipping && p1.active && p1.slipping);
    // on the cone: |f_t| = mu f_n
    SNT_NEAR_REL(fabs(p1.force[0]), 0.25 * p1.force[2], 1e-12, 0);
    sn_world_destroy(t.w);
    return 0;
}


// the same parameters, field by field (the struct has padding)
static int same(const sn_soft_params* a, const sn_soft_params* b) {
    return a->k_normal == b->k_normal && a->k_tangent == b->k_tangent &&
           a->b_normal == b->b_normal && a->b_tangent == b->b_tangent && a->mu == b->mu &&
           a->bilateral == b->bilateral;
}


// the order of a pair does not matter, unset pairs take the world's (also after a change of
// the world's), NULL unsets; bad ids and values are refused with a message, nothing changed
static int test_pair_api(void) {
    two t;
    if (two_balls(&t, 0.005)) return 1;
    sn_soft_params P = sn_soft_params_default(), Q = sn_soft_params_default(), out;
    Q.k_normal = 1234, Q.k_tangent = 567, Q.b_normal = 8, Q.b_tangent = 9, Q.mu = 0.5;
    Q.bilateral = 1;
    int set = -1;
    SNT_STATUS_OK(sn_world_soft_pair(t.w, 2, 7, &out, &set));
    SNT_CHECK(set == 0 && same(&out, &P));
    SNT_STATUS_OK(sn_world_set_soft_pair(t.w, 7, 2, &Q));
    SNT_STATUS_OK(sn_world_soft_pair(t.w, 2, 7, &out, &set));
    SNT_CHECK(set == 1 && same(&out, &Q));
    SNT_STATUS_OK(sn_world_soft_pair(t.w, 7, 2, &out, NULL));
    SNT_CHECK(same(&out, &Q));
    // another pair is still the world's, and follows it
    P.k_normal = 3e5;
    SNT_STATUS_OK(sn_world_set_soft_params(t.w, &P));
    SNT_STATUS_OK(sn_world_soft_pair(t.w, 2, 6, &out, &set));
    SNT_CHECK(set == 0 && out.k_normal == 3e5);
    // refusals
    sn_soft_params B = Q;
    B.k_tangent = 0;
    SNT_CHECK(sn_world_set_soft_pair(t.w, 2, 7, &B) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(t.w), "soft material pair 2 7") != NULL);
    B = Q, B.mu = NAN;
    SNT_CHECK(sn_world_set_soft_pair(t.w, 2, 7, &B) == SN_ERR_ARG);
    B = Q, B.bilateral = 2;
    SNT_CHECK(sn_world_set_soft_pair(t.w, 2, 7, &B) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(t.w), "bilateral 2") != NULL);
    SNT_CHECK(sn_world_set_soft_pair(t.w, 16, 0, &Q) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(t.w), "0 to 15") != NULL);
    SNT_CHECK(sn_world_set_soft_pair(t.w, 0, -1, &Q) == SN_ERR_ARG);
    SNT_CHECK(sn_world_soft_pair(t.w, 0, 16, &out, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_world_soft_pair(t.w, 0, 0, NULL, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_world_set_soft_pair(NULL, 0, 0, &Q) == SN_ERR_ARG);
    SNT_STATUS_OK(sn_world_soft_pair(t.w, 2, 7, &out, &set));
    SNT_CHECK(set == 1 && same(&out, &Q));
    // unset
    SNT_STATUS_OK(sn_world_set_soft_pair(t.w, 2, 7, NULL));
    SNT_STATUS_OK(sn_world_soft_pair(t.w, 7, 2, &out, &set));
    SNT_CHECK(set == 0 && out.k_normal == 3e5);
    sn_world_destroy(t.w);
    return 0;
}


// a checkpoint holds the pairs as set-up: a world with the same pair resumes it bit for bit,
// one without the pair or with another value refuses it, naming the difference
static int test_pair_checkpoint(void) {
    two a, b, c, d;
    if (two_balls(&a, 0.005) || two_balls(&b, 0.005) || two_balls(&c, 0.005) ||
        two_balls(&d, 0.005))
        return 1;
    sn_soft_params Q = sn_soft_params_default();
    Q.k_normal = 4e4, Q.b_normal = 120;
    SNT_STATUS_OK(sn_world_set_soft_pair(a.w, 3, 0, &Q));
    SNT_STATUS_OK(sn_world_set_soft_pair(b.w, 0, 3, &Q));
    sn_soft_params R = Q;
    R.b_normal = 121;
    SNT_STATUS_OK(sn_world_set_soft_pair(d.w, 0, 3, &R));
    for (int i = 0; i < 50; i++)
        SNT_STATUS_OK(sn_world_integrate(a.w));
    size_t n = 0;
    SNT_STATUS_OK(sn_world_checkpoint_size(a.w, &n));
    void* buf = malloc(n);
    SNT_CHECK(buf != NULL);
    SNT_STATUS_OK(sn_world_save_state(a.w, buf, n, NULL));
    SNT_CHECK(sn_world_load_state(c.w, buf, n) == SN_ERR_MODEL);
    printf("  without the pair: \"%s\"\n", sn_world_last_error(c.w));
    SNT_CHECK(strstr(sn_world_last_error(c.w), "soft material pairs set") != NULL);
    SNT_CHECK(sn_world_load_state(d.w, buf, n) == SN_ERR_MODEL);
    printf("  another damping: \"%s\"\n", sn_world_last_error(d.w));
    SNT_CHECK(strstr(sn_world_last_error(d.w), "soft material pair's stiffness") != NULL);
    SNT_STATUS_OK(sn_world_load_state(b.w, buf, n));
    for (int i = 0; i < 50; i++) {
        SNT_STATUS_OK(sn_world_integrate(a.w));
        SNT_STATUS_OK(sn_world_integrate(b.w));
    }
    for (int i = 0; i < 2; i++)
        SNT_CHECK(memcmp(sn_system_q(a.s[i]), sn_system_q(b.s[i]), 7 * sizeof(double)) == 0);
    // the pair acted: ball 1 is near its own sink, not the world's
    SNT_CHECK(fabs(-sn_system_q(b.s[1])[2] - GRAV / 4e4) < 0.2 * GRAV / 4e4);
    free(buf);
    sn_world_destroy(a.w);
    sn_world_destroy(b.w);
    sn_world_destroy(c.w);
    sn_world_destroy(d.w);
    return 0;
}


// ---- model files (sinew's extension: URDF <sinew:...> elements, MJCF <custom> entries) ----

// a file of tests/data/soft: loaded, applied to a new world; its box rests on its 4 named corner
// points after 2 s, each carrying m g / 4 on the pair (0, 2)'s K_n = 5e4 (the file gives the
// box material 2): in by m g / (4 K_n) below where it started (z0)
static int soft_file(const char* name, double z0) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/soft/%s", SNT_SOURCE_DIR, name);
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load(path, NULL, &m, &err));
    // the model holds what the file says
    SNT_CHECK(m->option_contact_model == SN_CONTACT_SOFT);
    SNT_CHECK(m->nsoft == 2 && m->nsoft_point == 4);
    SNT_CHECK(m->soft_material[0] == -1 && m->soft_material[1] == -1);
    SNT_CHECK(m->soft_material[2] == 0 && m->soft_material[3] == 2);
    SNT_CHECK(m->body_material[0] == SN_NONE && m->body_material[1] == 2);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(tc_world_open(m, 0.01, &w, &s));
    sn_setup_report rep;
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(rep.soft == 1 && rep.soft_points == 4);
    // the world's parameters and the pair's are the file's, the pair's left-out values the world's
    const sn_soft_params W = {2e5, 1e5, 300, 200, 0.9, 0}, P = {5e4, 1e5, 300, 200, 0.9, 0};
    sn_soft_params got = sn_world_soft_params(w);
    SNT_CHECK(sn_world_contact_model(w) == SN_CONTACT_SOFT);
    SNT_CHECK(same(&got, &W));
    int set = 0;
    SNT_STATUS_OK(sn_world_soft_pair(w, 2, 0, &got, &set));
    SNT_CHECK(set == 1 && same(&got, &P));
    SNT_STATUS_OK(sn_world_soft_pair(w, 1, 0, &got, &set)); // MJCF's friction material: unset
    SNT_CHECK(set == 0 && same(&got, &W));
    SNT_CHECK(sn_system_soft_point_count(s) == 4);
    sn_soft_point pt;
    SNT_STATUS_OK(sn_system_soft_point(s, 3, &pt));
    SNT_CHECK(pt.body == 1 && pt.offset[0] == 0.1 && pt.offset[1] == 0.1 && pt.offset[2] == -0.1);
    // a second call adds no points
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(rep.soft_points == 0 && sn_system_soft_point_count(s) == 4);
    for (int i = 0; i < 200; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double z = sn_system_q(s)[2], want = z0 - GRAV / (4 * 5e4);
    printf("  %s: z %.9g m, z0 - m g / (4 K_pair) = %.9g m\n", name, z, want);
    SNT_NEAR(z, want, 1e-9);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_urdf_file(void) {
    return soft_file("soft_box.urdf", 0);
}

static int test_mjcf_file(void) {
    return soft_file("soft_box.xml", 0.1);
}


// a URDF or MJCF text with one bad entry is refused: the status, the line and words of the message
typedef struct bad_case {
    int mjcf;
    const char* body; // the file's entries (URDF: inside <robot>, MJCF: inside <custom>)
    sn_status code;
    int line;
    const char* says;
} bad_case;

static int refused(const bad_case* b) {
    char xml[4096];
    if (b->mjcf)
        snprintf(xml, sizeof xml,
                 "<mujoco>\n<custom>\n%s\n</custom>\n<worldbody>\n<body name=\"box\">\n"
                 "<freejoint/>\n<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\"/>\n"
                 "</body>\n</worldbody>\n</mujoco>\n",
                 b->body);
    else
        snprintf(xml, sizeof xml,
                 "<robot name=\"r\" xmlns:sinew=\"urn:sinew\">\n%s\n<link name=\"box\">\n"
                 "<inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" "
                 "ixz=\"0\" iyz=\"0\"/></inertial>\n</link>\n<link name=\"pad\">\n"
                 "<inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" "
                 "ixz=\"0\" iyz=\"0\"/></inertial>\n</link>\n<joint name=\"j\" type=\"fixed\">"
                 "<parent link=\"box\"/><child link=\"pad\"/></joint>\n</robot>\n",
                 b->body);
    sn_model* m = NULL;
    sn_error err;
    const char* name = b->mjcf ? "bad.xml" : "bad.urdf";
    sn_status st = b->mjcf ? sn_load_mjcf_string(xml, strlen(xml), name, ".", NULL, &m, &err)
                           : sn_load_urdf_string(xml, strlen(xml), name, ".", NULL, &m, &err);
    char at[32];
    snprintf(at, sizeof at, "%s:%d:", name, b->line);
    SNT_CHECK_MSG(st == b->code && !m && strstr(err.msg, at) && strstr(err.msg, b->says),
                  "status %d (wanted %d), \"%s\" (wanted %s ... %s)", (int)st, (int)b->code,
                  err.msg, at, b->says);
    return 0;
}

// a file's material on a link welded to the world is its fixed geometry's (body 0): a 1 kg ball
// (its rolling point) resting on a fixture whose file says material 3, the pair (3, 0) K_n 4e4,
// the world's 1e5: the ball sinks m g / 4e4 (to 1e-9). The loader refused such a link before
// ("it has no contacts of its own")
static int test_fixture_material(void) {
    const char* xml =
        "<robot name=\"table\" xmlns:sinew=\"urn:sinew\"><sinew:material link=\"top\" id=\"3\"/>"
        "<link name=\"world\"/><joint name=\"weld\" type=\"fixed\"><parent link=\"world\"/>"
        "<child link=\"top\"/><origin xyz=\"0 0 0.2\"/></joint><link name=\"top\"><collision>"
        "<geometry><box size=\"1 1 0.2\"/></geometry></collision></link></robot>";
    sn_model* fm = tc_load_string(xml, 1);
    SNT_CHECK(fm != NULL);
    SNT_CHECK(fm->body_material[0] == 3);
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.005;
    sn_world* w;
    SNT_STATUS_OK(sn_world_create(&o, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 0, 0));
    SNT_STATUS_OK(sn_world_set_contact_model(w, SN_CONTACT_SOFT));
    sn_system *table, *ball;
    SNT_STATUS_OK(sn_world_add_system(w, fm, &table, NULL));
    SNT_STATUS_OK(sn_system_apply_file(table, NULL, NULL));
    SNT_STATUS_OK(sn_world_add_sphere(w, 0.05, 1.0, &ball));
    SNT_STATUS_OK(sn_system_add_soft_geometry_points(ball, NULL));
    sn_soft_params Q = sn_soft_params_default();
    Q.k_normal = 4e4;
    SNT_STATUS_OK(sn_world_set_soft_pair(w, 0, 3, &Q));
    double q0[7] = {0, 0, 0.35, 1, 0, 0, 0}, u0[6] = {0}; // on the top at z 0.3, no ground
    SNT_STATUS_OK(sn_system_set_state(ball, q0, 7, u0, 6));
    for (int i = 0; i < 400; i++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double sink = 0.35 - sn_system_q(ball)[2];
    printf("  ball on a fixture of material 3: sinks %.9g m, m g / K_pair = %.9g m\n", sink,
           GRAV / 4e4);
    SNT_NEAR_REL(sink, GRAV / 4e4, 1e-9, 0);
    sn_world_destroy(w);
    sn_model_destroy(fm);
    return 0;
}


// a file that only says "soft" gives no parameters: what the program set before applying it
// stays (the file once made a set of defaults that replaced it)
static int test_file_contact_only(void) {
    const char* xml =
        "<robot name=\"b\" xmlns:sinew=\"urn:sinew\"><sinew:soft_contact contact=\"soft\"/>"
        "<link name=\"box\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" "
        "ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link></robot>";
    sn_model* m = tc_load_string(xml, 1);
    SNT_CHECK(m != NULL && m->nsoft == 0);
    sn_world* w;
    sn_system* s;
    SNT_STATUS_OK(tc_world_open(m, 0.01, &w, &s));
    sn_soft_params P = sn_soft_params_default();
    P.k_normal = 3e4;
    SNT_STATUS_OK(sn_world_set_soft_params(w, &P));
    sn_setup_report rep;
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(rep.soft && sn_world_contact_model(w) == SN_CONTACT_SOFT);
    SNT_CHECK(sn_world_soft_params(w).k_normal == 3e4);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


static int test_file_refusals(void) {
    const bad_case cases[] = {
        {0, "<sinew:soft_contact kn=\"-1\"/>", SN_ERR_MODEL, 2,
         "k_normal -1 must be finite and > 0"},
        {0, "<sinew:soft_contact bt=\"-3\"/>", SN_ERR_MODEL, 2,
         "b_tangent -3 must be finite and >= 0"},
        {0, "<sinew:soft_contact mu=\"lots\"/>", SN_ERR_PARSE, 2, "mu=\"lots\""},
        {0, "<sinew:soft_contact bilateral=\"2\"/>", SN_ERR_MODEL, 2,
         "bilateral=2 must be a whole"},
        {0, "<sinew:soft_contact material1=\"1\" kn=\"1e4\"/>", SN_ERR_MODEL, 2,
         "a pair needs both"},
        {0, "<sinew:soft_contact material1=\"1\" material2=\"16\"/>", SN_ERR_MODEL, 2,
         "material2=16 must be a whole number 0 to 15"},
        {0, "<sinew:soft_contact contact=\"squishy\"/>", SN_ERR_MODEL, 2, "hard or soft"},
        {0, "<sinew:soft_contact material1=\"0\" material2=\"1\" contact=\"soft\"/>", SN_ERR_MODEL,
         2, "is the world's"},
        {0, "<sinew:soft_contact Kn=\"1e4\"/>", SN_ERR_PARSE, 2, "unknown attribute 'Kn'"},
        {0, "<sinew:soft_contact kn=\"1e4\"/>\n<sinew:soft_contact kt=\"1e4\"/>", SN_ERR_MODEL, 3,
         "a second set of the world's soft parameters (the first is at line 2)"},
        {0,
         "<sinew:soft_contact material1=\"1\" material2=\"2\"/>\n"
         "<sinew:soft_contact material1=\"2\" material2=\"1\"/>",
         SN_ERR_MODEL, 3, "this material pair's soft parameters (the first is at line 2)"},
        {0, "<sinew:material link=\"lid\" id=\"1\"/>", SN_ERR_MODEL, 2, "link 'lid' is not a link"},
        {0, "<sinew:material link=\"box\"/>", SN_ERR_PARSE, 2, "missing attribute 'id'"},
        {0, "<sinew:material link=\"box\" id=\"1\"/>\n<sinew:material link=\"pad\" id=\"3\"/>",
         SN_ERR_MODEL, 3, "another material element gives id 1, not 3"},
        {0, "<sinew:soft_point link=\"box\" xyz=\"0 0\"/>", SN_ERR_PARSE, 2, "must have 3 numbers"},
        {1, "<text name=\"sinew:contact\" data=\"squishy\"/>", SN_ERR_MODEL, 3, "hard or soft"},
        {1, "<numeric name=\"sinew:soft_contact\" data=\"1 2 3 4 5 6 7\"/>", SN_ERR_PARSE, 3,
         "must be 1 to 6 numbers"},
        {1, "<numeric name=\"sinew:soft_contact\" data=\"1e5 1e5 300 300 -1\"/>", SN_ERR_MODEL, 3,
         "mu -1 must be finite and >= 0"},
        {1, "<numeric name=\"sinew:soft_contact\" data=\"1e5 1e5 300 300 1 3\"/>", SN_ERR_MODEL, 3,
         "bilateral"},
        {1, "<numeric name=\"sinew:soft_contact\" data=\"1e5 1e5 300 300 1 0.5\"/>", SN_ERR_MODEL,
         3, "bilateral 0.5 must be 0 or 1"},
        {1, "<numeric name=\"sinew:soft_contact:0\" data=\"1e5\"/>", SN_ERR_MODEL, 3,
         "sinew:soft_contact:A:B"},
        {1, "<numeric name=\"sinew:soft_contact:0:16\" data=\"1e5\"/>", SN_ERR_MODEL, 3,
         "sinew:soft_contact:A:B"},
        {1, "<numeric name=\"sinew:material:box\" data=\"1.5\"/>", SN_ERR_MODEL, 3,
         "the id 1.5 must be 0 to 15"},
        {1, "<numeric name=\"sinew:soft_points:box\" data=\"0 0 0 1\"/>", SN_ERR_PARSE, 3,
         "the points are x y z each"},
        {1, "<numeric name=\"sinew:soft_points:lid\" data=\"0 0 0\"/>", SN_ERR_MODEL, 3,
         "link 'lid' is not a link"},
        {1, "<numeric name=\"sinew:bogus\" data=\"1\"/>", SN_ERR_MODEL, 3,
         "is not one of sinew's entries"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (refused(&cases[i])) return 1;
    return 0;
}


SNT_SUITE(SNT_TEST(test_pair_sink), SNT_TEST(test_pair_api), SNT_TEST(test_pair_checkpoint),
          SNT_TEST(test_urdf_file), SNT_TEST(test_mjcf_file), SNT_TEST(test_fixture_material),
          SNT_TEST(test_file_contact_only), SNT_TEST(test_file_refusals))
