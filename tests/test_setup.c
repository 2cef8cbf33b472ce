// SPDX-License-Identifier: Apache-2.0
// test_setup.c: what a model file says is applied by the library (sn_setup.h), not by the CLI.
// Every shared and bundled URDF, MJCF and USD model runs for 0.2 s through the library alone
// (sn_load, sn_system_apply_file, sn_world_integrate) and through `sinew run --record`: the two
// trajectories are identical to the bit. Then each setting on its own: time step, gravity,
// scheme, ground, friction, keys, servos, assembly; loading by content; the constraint error.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DURATION 0.2

static sn_model* load_quiet(const char* path, sn_error* err) {
    sn_model* m = NULL;
    return sn_load(path, NULL, &m, err) == SN_OK ? m : NULL;
}

// the CSV row `sinew run --record` writes (its documented columns), written independently
static void row(FILE* f, const sn_model* m, sn_system* s, double t, int ncontact) {
    const sn_real *q = sn_system_q(s), *u = sn_system_u(s);
    fprintf(f, "%.9g", t);
    for (int i = 0; i < m->nq; i++)
        fprintf(f, ",%.17g", q[i]);
    for (int i = 0; i < m->nv; i++)
        fprintf(f, ",%.17g", u[i]);
    fprintf(f, ",%.17g,%.17g,%d", sn_system_kinetic_energy(s),
            sn_system_potential_energy(s) + sn_system_spring_energy(s), ncontact);
    if (m->nconstraint) {
        sn_real rms = 0, worst = 0;
        sn_system_loop_error(s, &rms, &worst);
        fprintf(f, ",%.9g,%.9g", rms, worst);
    }
}

// a row's end: the sensors of the step taken from its state (docs/sensors.md; nan: no step)
static void row_end(FILE* f, sn_system* s, int stepped) {
    const sn_real* v = stepped ? sn_system_sensor_values(s) : NULL;
    for (int k = 0; k < sn_system_sensor_value_count(s); k++)
        fprintf(f, v ? ",%.17g" : ",nan", v ? v[k] : 0.0);
    fputc('\n', f);
}

// the library's run of a model file: 0 when every step succeeded, 1 when one failed (the rows
// up to it are written, as the CLI writes them), -1 when the setup failed
static int library_run(const char* path, const char* out, double duration, long* nstep) {
    sn_model* m = load_quiet(path, NULL);
    if (!m) return -1;
    sn_world* w = NULL;
    sn_system* s = NULL;
    int rc = -1;
    FILE* f = fopen(out, "w");
    if (f && sn_world_create(NULL, &w, NULL) == SN_OK &&
        sn_world_add_system(w, m, &s, NULL) == SN_OK &&
        sn_system_apply_file(s, NULL, NULL) == SN_OK) {
        fprintf(f, "t");
        for (int i = 0; i < m->nq; i++)
            fprintf(f, ",q%d", i);
        for (int i = 0; i < m->nv; i++)
            fprintf(f, ",u%d", i);
        fprintf(f, ",kinetic_energy,potential_energy,contacts%s",
                m->nconstraint ? ",loop_error_rms,loop_error_worst" : "");
        for (int i = 0; i < sn_system_sensor_count(s); i++) {
            sn_sensor_info info;
            if (sn_system_sensor_info(s, i, &info) != SN_OK) continue;
            for (int c = 0; c < info.dim; c++)
                if (info.dim == 3)
                    fprintf(f, ",%s_%c", info.name, "xyz"[c]);
                else
                    fprintf(f, ",%s%d", info.name, c);
        }
        fputc('\n', f);
        double dt = sn_world_timestep(w);
        long steps = (long)floor(duration / dt + 0.5);
        row(f, m, s, 0, 0);
        rc = 0;
        for (long k = 0; k < steps; k++) {
            if (sn_world_integrate(w) != SN_OK) {
                rc = 1;
                break;
            }
            row_end(f, s, 1);
            row(f, m, s, sn_world_time(w), sn_system_contact_count(s));
        }
        row_end(f, s, 0);
        *nstep = steps;
    }
    if (f) fclose(f);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return rc;
}

// 1 when the two files have the same bytes
static int same_file(const char* a, const char* b, long* line) {
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    *line = 1;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb) same = 0;
        if (ca == EOF || cb == EOF) break;
        if (ca == '\n') (*line)++;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

static int compare_one(const char* path, const char* label, const char* dir, int* ran,
                       int* refused) {
    char lib[1200], cli[1200], cmd[4096];
    snprintf(lib, sizeof lib, "%s/lib.csv", dir);
    snprintf(cli, sizeof cli, "%s/cli.csv", dir);
    long steps = 0;
    int lr = library_run(path, lib, DURATION, &steps);
    snprintf(cmd, sizeof cmd,
             "'%s' run '%s' --duration %g --no-html --quiet --record '%s' > /dev/null 2>&1",
             SNT_CLI_PATH, path, DURATION, cli);
    int cr = system(cmd);
    int cli_code = cr == -1 ? -1 : WEXITSTATUS(cr);
    if (lr < 0) {
        // the library refuses the file (or its setup): so does the CLI
        (*refused)++;
        SNT_CHECK_MSG(cli_code != 0, "%s: the library refuses it, `sinew run` ran it", label);
        return 0;
    }
    (*ran)++;
    SNT_CHECK_MSG(cli_code == (lr ? 1 : 0), "%s: library %s, `sinew run` exit %d", label,
                  lr ? "failed a step" : "ran", cli_code);
    long line;
    SNT_CHECK_MSG(same_file(lib, cli, &line),
                  "%s: the library's and `sinew run`'s trajectories differ at line %ld", label,
                  line);
    return 0;
}

static int test_library_and_cli_runs_are_bit_identical(void) {
    char dir[] = "/tmp/sn_setup_XXXXXX";
    SNT_CHECK(mkdtemp(dir) != NULL);
    char* files[512];
    int nfile = 0;
    if (tc_model_path("")) {
        nfile += tc_list_files(tc_model_path(""), ".urdf", files + nfile, 256);
        nfile += tc_list_files(tc_model_path(""), ".xml", files + nfile, 256);
    }
    char own[1024];
    snprintf(own, sizeof own, "%s/models", SNT_SOURCE_DIR);
    nfile += tc_list_files(own, ".urdf", files + nfile, 512 - nfile);
    nfile += tc_list_files(own, ".xml", files + nfile, 512 - nfile);
    nfile += tc_list_files(own, ".usda", files + nfile, 512 - nfile);
    int r = 0, ran = 0, refused = 0;
    for (int k = 0; k < nfile; k++) {
        const char* label = strstr(files[k], "/models/");
        r |= compare_one(files[k], label ? label + 8 : files[k], dir, &ran, &refused);
        free(files[k]);
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/lib.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/cli.csv", dir);
    unlink(path);
    rmdir(dir);
    printf("  %d models run bit-identically by the library and `sinew run` for %g s, %d refused "
           "by both\n",
           ran, DURATION, refused);
    SNT_CHECK_MSG(!tc_model_path("") || ran >= 40, "only %d models ran", ran);
    return r;
}


static const char* SETTINGS_XML =
    "<mujoco>\n"
    "<option timestep=\"0.004\" gravity=\"0 0 -5\" integrator=\"RK4\"/>\n"
    "<worldbody>\n"
    "<geom type=\"plane\" size=\"5 5 .1\" pos=\"0 0 -2\" friction=\"0.4\"/>\n"
    "<body name=\"b\" pos=\"0 0 1\"><joint name=\"h\" axis=\"0 1 0\" damping=\"5\"/>"
    "<geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.5\" size=\"0.02\" mass=\"1\" friction=\"0.7\"/>"
    "</body>\n"
    "</worldbody>\n"
    "<actuator><position joint=\"h\" kp=\"300\"/></actuator>\n"
    "<keyframe><key name=\"tilted\" qpos=\"0.25\" qvel=\"-1.5\"/><key qpos=\"-0.5\"/></keyframe>\n"
    "</mujoco>\n";

static int make_world(const sn_model* m, sn_world** w, sn_system** s) {
    *w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, w, NULL));
    SNT_STATUS_OK(sn_world_add_system(*w, m, s, NULL));
    return 0;
}

static int test_apply_file_takes_every_setting(void) {
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load_mjcf_string(SETTINGS_XML, strlen(SETTINGS_XML), "settings.xml", NULL,
                                      NULL, &m, &err));
    SNT_CHECK(m->format == SN_FORMAT_MJCF);
    SNT_CHECK(sn_model_find(m, SN_OBJ_KEY, "tilted") == 0);
    SNT_CHECK(sn_model_find(m, SN_OBJ_KEY, "nope") == SN_NONE);
    sn_world* w;
    sn_system* s;
    if (make_world(m, &w, &s)) return 1;
    sn_setup_opts o;
    memset(&o, 0, sizeof o);
    o.key = "tilted";
    sn_setup_report rep;
    SNT_STATUS_OK(sn_system_apply_file(s, &o, &rep));
    sn_real g[3];
    sn_world_gravity(w, g);
    SNT_CHECK(sn_world_timestep(w) == 0.004);
    SNT_CHECK(g[0] == 0 && g[1] == 0 && g[2] == -5);
    SNT_CHECK(sn_system_scheme(s) == SN_SCHEME_RK4);
    SNT_CHECK(rep.ground && rep.ground_height == -2 && !rep.no_plane && !rep.contact_off);
    SNT_CHECK(sn_world_terrain_height(w, 0.3, -0.2, NULL) == -2);
    SNT_CHECK(sn_system_q(s)[0] == 0.25 && sn_system_u(s)[0] == -1.5);
    SNT_CHECK(rep.servos && sn_system_control_mode(s) == SN_CONTROL_PD_PLUS_FEEDFORWARD);
    SNT_CHECK(!rep.assembled && rep.open_before == 0);
    // the servo holds the key's pose: after 2 s (damping ratio 0.5 at 60 rad/s) the pendulum
    // rests where the servo's torque kp (0.25 - q) balances gravity's m g l sin q (1 kg, 5 m/s^2,
    // the capsule's centre 0.25 m down): 1.03 mrad short of the key
    for (int k = 0; k < 500; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double q = sn_system_q(s)[0];
    SNT_CHECK_MSG(fabs(300 * (0.25 - q) - 1.25 * sin(q)) < 1e-6 && q < 0.2492 && q > 0.2488,
                  "q %.9g", q);
    SNT_CHECK(fabs(sn_system_u(s)[0]) < 1e-6);
    // the key by index, and an unknown key refused with the keys listed, the state kept
    o.key = "1";
    SNT_STATUS_OK(sn_system_apply_file(s, &o, NULL));
    SNT_CHECK(sn_system_q(s)[0] == -0.5 && sn_system_u(s)[0] == 0);
    o.key = "upright";
    SNT_CHECK(sn_system_apply_file(s, &o, NULL) == SN_ERR_ARG);
    SNT_CHECK_MSG(strstr(sn_world_last_error(w), "no key 'upright': the model has the keys "
                                                 "'tilted', 'key1'") != NULL,
                  "%s", sn_world_last_error(w));
    SNT_CHECK(sn_system_q(s)[0] == -0.5);
    // the ground switched off and on by the options; the friction given
    memset(&o, 0, sizeof o);
    o.ground = SN_GROUND_OFF;
    SNT_STATUS_OK(sn_system_apply_file(s, &o, &rep));
    SNT_CHECK(!rep.ground && isinf(sn_world_terrain_height(w, 0, 0, NULL)));
    o.ground = (sn_ground_rule)7;
    SNT_CHECK(sn_system_apply_file(s, &o, NULL) == SN_ERR_ARG);
    o.ground = SN_GROUND_ON;
    o.friction_set = 1;
    o.friction = -1;
    SNT_CHECK(sn_system_apply_file(s, &o, NULL) == SN_ERR_ARG);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_mjcf_without_plane_and_urdf_grounds(void) {
    static const char* noplane = "<mujoco><worldbody><body pos=\"0 0 1\"><freejoint/>"
                                 "<geom type=\"box\" size=\"0.1 0.1 0.1\"/></body></worldbody>"
                                 "</mujoco>";
    sn_model* m = NULL;
    SNT_STATUS_OK(
        sn_load_mjcf_string(noplane, strlen(noplane), "noplane.xml", NULL, NULL, &m, NULL));
    sn_world* w;
    sn_system* s;
    if (make_world(m, &w, &s)) return 1;
    sn_setup_report rep;
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(!rep.ground && rep.no_plane && isinf(sn_world_terrain_height(w, 0, 0, NULL)));
    SNT_CHECK(sn_world_timestep(w) == 0.001);
    SNT_CHECK(sn_system_control_mode(s) == SN_CONTROL_FORCE_AND_TORQUE);
    sn_setup_opts o;
    memset(&o, 0, sizeof o);
    o.ground = SN_GROUND_ON;
    SNT_STATUS_OK(sn_system_apply_file(s, &o, &rep));
    SNT_CHECK(rep.ground && sn_world_terrain_height(w, 0, 0, NULL) == 0);
    // the box falls 0.9 m onto it and rests at its half size
    for (int k = 0; k < 1500; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    SNT_CHECK_MSG(fabs(sn_system_q(s)[2] - 0.1) < 1e-3, "z %.6g", sn_system_q(s)[2]);
    sn_world_destroy(w);
    sn_model_destroy(m);
    // a URDF file: a plane at z = 0
    char path[1024];
    snprintf(path, sizeof path, "%s/models/fourbar.urdf", SNT_SOURCE_DIR);
    m = tc_load_file(path, 1);
    SNT_CHECK(m && m->format == SN_FORMAT_URDF);
    if (make_world(m, &w, &s)) return 1;
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(rep.ground && rep.ground_height == 0 && sn_world_terrain_height(w, 1, 2, NULL) == 0);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int test_apply_file_assembles_open_loops(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/mjcf/pinned_beam.xml", SNT_DATA_DIR);
    sn_model* m = NULL;
    SNT_STATUS_OK(sn_load(path, NULL, &m, NULL));
    sn_world* w;
    sn_system* s;
    if (make_world(m, &w, &s)) return 1;
    sn_constraint_error e;
    SNT_STATUS_OK(sn_system_constraint_error(s, &e));
    // the hook (0.7, -0.1, 0.45) and the eye (0.45, -0.1, 0.15) start 0.3 m apart along z
    // (the worst of the three axes) and 0.25 m along x
    SNT_NEAR(e.pin_worst, 0.3, 1e-12);
    SNT_CHECK(e.worst == e.pin_worst && e.orientation_worst == 0 && e.coupling_worst == 0);
    sn_setup_opts o;
    memset(&o, 0, sizeof o);
    o.no_assemble = 1;
    sn_setup_report rep;
    SNT_STATUS_OK(sn_system_apply_file(s, &o, &rep));
    SNT_CHECK(!rep.assembled && rep.open_before == e.worst && rep.open_after == e.worst);
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(rep.assembled && rep.assembly == SN_OK && rep.open_after < 1e-12);
    SNT_STATUS_OK(sn_system_constraint_error(s, &e));
    SNT_CHECK_MSG(e.worst < 1e-12, "closed to %.3g", e.worst);
    sn_world_destroy(w);
    sn_model_destroy(m);
    // a lock (a self-mimic) started 0.3 rad off is a coupling error
    static const char* lock =
        "<robot name=\"lock\"><link name=\"world\"/><link name=\"arm\"><inertial><mass "
        "value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" "
        "iyz=\"0\"/></inertial></link><joint name=\"j\" type=\"continuous\"><parent "
        "link=\"world\"/><child link=\"arm\"/><axis xyz=\"0 0 1\"/><mimic joint=\"j\" "
        "multiplier=\"0\" offset=\"0.3\"/></joint></robot>";
    m = tc_load_string(lock, 1);
    SNT_CHECK(m != NULL);
    if (make_world(m, &w, &s)) return 1;
    SNT_STATUS_OK(sn_system_constraint_error(s, &e));
    SNT_NEAR(e.coupling_worst, 0.3, 1e-15);
    SNT_CHECK(e.worst == e.coupling_worst && e.pin_worst == 0);
    SNT_STATUS_OK(sn_system_apply_file(s, NULL, &rep));
    SNT_CHECK(rep.assembled && fabs(sn_system_q(s)[0] - 0.3) < 1e-12);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

static int write_file(const char* path, const char* text) {
    FILE* f = fopen(path, "w");
    if (!f) return 1;
    fputs(text, f);
    fclose(f);
    return 0;
}

static int test_load_reads_the_format_from_the_content(void) {
    char dir[] = "/tmp/sn_load_XXXXXX";
    SNT_CHECK(mkdtemp(dir) != NULL);
    char a[256], b[256], c[256], d[256];
    snprintf(a, sizeof a, "%s/robot.xml", dir);  // a URDF named .xml
    snprintf(b, sizeof b, "%s/scene.urdf", dir); // an MJCF named .urdf
    snprintf(c, sizeof c, "%s/world.sdf", dir);
    snprintf(d, sizeof d, "%s/empty.urdf", dir);
    SNT_CHECK(
        !write_file(a, "\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- <mujoco> -->\n"
                       "<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"2\"/><inertia "
                       "ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
                       "</inertial></link></robot>\n"));
    SNT_CHECK(!write_file(
        b, "<?xml version=\"1.0\"?><!-- a scene -->\n<mujoco model=\"m\"><worldbody><body><joint/>"
           "<geom size=\"0.1\"/></body></worldbody></mujoco>\n"));
    SNT_CHECK(!write_file(c, "<sdf version=\"1.6\"><model name=\"x\"/></sdf>\n"));
    SNT_CHECK(!write_file(d, "   \n"));
    sn_format f;
    SNT_STATUS_OK(sn_file_format(a, &f, NULL));
    SNT_CHECK(f == SN_FORMAT_URDF);
    SNT_STATUS_OK(sn_file_format(b, &f, NULL));
    SNT_CHECK(f == SN_FORMAT_MJCF);
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load(a, NULL, &m, &err));
    SNT_CHECK(m->format == SN_FORMAT_URDF && m->nframe == 1);
    sn_model_destroy(m);
    SNT_STATUS_OK(sn_load(b, NULL, &m, &err));
    SNT_CHECK(m->format == SN_FORMAT_MJCF && m->njoint == 1);
    sn_model_destroy(m);
    SNT_CHECK(sn_load(c, NULL, &m, &err) == SN_ERR_PARSE && m == NULL);
    SNT_CHECK_MSG(strstr(err.msg, "<sdf>") && !strcmp(err.file, c), "%s", err.msg);
    SNT_CHECK(sn_load(d, NULL, &m, &err) == SN_ERR_PARSE);
    snprintf(d, sizeof d, "%s/missing.urdf", dir);
    SNT_CHECK(sn_load(d, NULL, &m, &err) == SN_ERR_IO && strstr(err.msg, "missing.urdf"));
    SNT_CHECK(sn_load(NULL, NULL, &m, &err) == SN_ERR_ARG);
    unlink(a), unlink(b), unlink(c);
    snprintf(d, sizeof d, "%s/empty.urdf", dir);
    unlink(d);
    rmdir(dir);
    return 0;
}

SNT_SUITE(SNT_TEST(test_load_reads_the_format_from_the_content),
          SNT_TEST(test_apply_file_takes_every_setting),
          SNT_TEST(test_mjcf_without_plane_and_urdf_grounds),
          SNT_TEST(test_apply_file_assembles_open_loops),
          SNT_TEST(test_library_and_cli_runs_are_bit_identical))
