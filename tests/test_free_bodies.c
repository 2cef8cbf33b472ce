// SPDX-License-Identifier: Apache-2.0
// test_free_bodies.c: the free bodies of sn_world_add_sphere, _box, _cylinder, _capsule and
// _mesh are built from a spec (src/sim/bodies.c). Until issue 11 they were written as URDF text
// and parsed; that route is kept here, as the reference: for every shape (thin and degenerate
// ones that warn among them, meshes centred, off centre, scaled, and from the shared robots) the
// two models agree bit for bit in every size, array, name and warning, and step alike.
#include "common.h"
#include "harness/snt.h"
#include "model/hull.h"
#include "model/mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


// ---- the URDF text route of free bodies, as src/sim/world.c had it ----

static char text_error[512]; // the message of the text route's last failure

// a free body: its collision shape (URDF geometry), mass, inertia about the centre of mass
// (xx, xy, xz, yy, yz, zz) and the centre of mass in the body frame
static sn_status text_free_body(const char* shape, double mass, const double* I, const double* com,
                                sn_model** out) {
    char xml[5120];
    int len = snprintf(xml, sizeof xml,
                       "<robot name=\"body\"><link name=\"body\"><inertial><origin xyz=\"%.17g "
                       "%.17g %.17g\"/><mass value=\"%.17g\"/><inertia ixx=\"%.17g\" ixy=\"%.17g\" "
                       "ixz=\"%.17g\" iyy=\"%.17g\" iyz=\"%.17g\" izz=\"%.17g\"/></inertial>"
                       "<collision><geometry>%s</geometry></collision></link></robot>",
                       com[0], com[1], com[2], mass, I[0], I[1], I[2], I[3], I[4], I[5], shape);
    if (len < 0 || (size_t)len >= sizeof xml) return SN_ERR_ARG;
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    sn_error err;
    sn_status st = sn_load_urdf_string(xml, strlen(xml), "free body", NULL, &o, out, &err);
    snprintf(text_error, sizeof text_error, "%s", st == SN_OK ? "" : err.msg);
    return st;
}


static sn_status text_sphere(double radius, double mass, sn_model** out) {
    char g[128];
    snprintf(g, sizeof g, "<sphere radius=\"%.17g\"/>", radius);
    double i = 0.4 * mass * radius * radius, I[6] = {i, 0, 0, i, 0, i}, c[3] = {0, 0, 0};
    return text_free_body(g, mass, I, c, out);
}


static sn_status text_box(const double* size, double mass, sn_model** out) {
    char g[160];
    snprintf(g, sizeof g, "<box size=\"%.17g %.17g %.17g\"/>", size[0], size[1], size[2]);
    double x = size[0] * size[0], y = size[1] * size[1], z = size[2] * size[2];
    double I[6] = {mass * (y + z) / 12, 0, 0, mass * (x + z) / 12, 0, mass * (x + y) / 12};
    double c[3] = {0, 0, 0};
    return text_free_body(g, mass, I, c, out);
}


static sn_status text_cylinder(double radius, double length, double mass, sn_model** out) {
    char g[160];
    snprintf(g, sizeof g, "<cylinder radius=\"%.17g\" length=\"%.17g\"/>", radius, length);
    double t = mass * (3 * radius * radius + length * length) / 12;
    double I[6] = {t, 0, 0, t, 0, 0.5 * mass * radius * radius}, c[3] = {0, 0, 0};
    return text_free_body(g, mass, I, c, out);
}


static sn_status text_capsule(double radius, double length, double mass, sn_model** out) {
    char g[160];
    snprintf(g, sizeof g, "<capsule radius=\"%.17g\" length=\"%.17g\"/>", radius, length);
    double r = radius, L = length, vc = r * r * L, vs = 4.0 / 3.0 * r * r * r;
    double mc = mass * vc / (vc + vs), ms = mass - mc;
    double izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
    double ixx = mc * (3 * r * r + L * L) / 12 + ms * (0.4 * r * r + 0.25 * L * L + 0.375 * L * r);
    double I[6] = {ixx, 0, 0, ixx, 0, izz}, c[3] = {0, 0, 0};
    return text_free_body(g, mass, I, c, out);
}


static sn_status text_mesh(const char* path, const double* scale, double mass, sn_model** out) {
    double one[3] = {1, 1, 1};
    const double* sc = scale ? scale : one;
    sni_buf v = {NULL, 0, 0, NULL, 0};
    char msg[600];
    int line = 0, *tri = NULL, ntri = 0;
    sn_status st = sni_mesh_read(path, sc, NULL, &v, &line, msg, sizeof msg);
    if (st != SN_OK) {
        sni_buf_free(&v);
        return st;
    }
    int nv = (int)(v.len / (3 * sizeof(double)));
    st = sni_hull((const double*)(void*)v.data, nv, NULL, &tri, &ntri);
    double vol = 0, com[3] = {0, 0, 0}, C[9];
    if (st == SN_OK) sni_hull_mass((const double*)(void*)v.data, tri, ntri, &vol, com, C);
    sni_free(NULL, tri, (size_t)ntri * 3 * sizeof(int));
    sni_buf_free(&v);
    if (st != SN_OK || !(vol > 0)) return SN_ERR_MODEL;
    double rho = mass / vol, S[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            S[3 * i + j] = rho * (C[3 * i + j] - vol * com[i] * com[j]);
    double tr = S[0] + S[4] + S[8];
    double I[6] = {tr - S[0], -S[1], -S[2], tr - S[4], -S[5], tr - S[8]};
    char g[4200];
    int len = snprintf(g, sizeof g, "<mesh filename=\"%s\" scale=\"%.17g %.17g %.17g\"/>", path,
                       sc[0], sc[1], sc[2]);
    if (len < 0 || (size_t)len >= sizeof g) return SN_ERR_ARG;
    return text_free_body(g, mass, I, com, out);
}


// ---- the two models compared bit for bit ----

static int same_bytes(const void* a, const void* b, size_t n) {
    return n == 0 || (a && b && memcmp(a, b, n) == 0);
}

// the end of the name pool: past the last name any array refers to
static size_t names_end(const sn_model* m) {
    size_t end = 1;
    const int* refs[] = {m->body_name, m->joint_name,    m->frame_name,    m->ujoint_name,
                         m->geom_mesh, m->material_name, m->actuator_name, m->key_name};
    int counts[] = {m->nbody, m->njoint,    m->nframe,    m->nujoint,
                    m->ngeom, m->nmaterial, m->nactuator, m->nkey};
    for (int k = 0; k < 8; k++)
        for (int i = 0; i < counts[k]; i++)
            if (refs[k][i] >= 0) {
                size_t e = (size_t)refs[k][i] + strlen(m->names + refs[k][i]) + 1;
                if (e > end) end = e;
            }
    return end;
}

#define SAME_SCALAR(f)                                                                             \
    do {                                                                                           \
        if (memcmp(&a->f, &b->f, sizeof a->f)) return #f;                                          \
    } while (0)
#define SAME_ARRAY(f, n)                                                                           \
    do {                                                                                           \
        if (!same_bytes(a->f, b->f, (size_t)(n) * sizeof *a->f)) return #f;                        \
    } while (0)

// the first field in which models a and b differ (NULL: none), every size, option and array of
// sn_model compared byte for byte (doubles by their bits: -0 is not +0), then the name pool and
// the warnings
static const char* model_diff(const sn_model* a, const sn_model* b) {
    SAME_SCALAR(nq);
    SAME_SCALAR(nv);
    SAME_SCALAR(nbody);
    SAME_SCALAR(njoint);
    SAME_SCALAR(nframe);
    SAME_SCALAR(nujoint);
    SAME_SCALAR(ngeom);
    SAME_SCALAR(nconstraint);
    SAME_SCALAR(nmaterial);
    SAME_SCALAR(nactuator);
    SAME_SCALAR(is_floating);
    SAME_SCALAR(max_depth);
    SAME_SCALAR(nmeshvert);
    SAME_SCALAR(has_option);
    SAME_SCALAR(option_timestep);
    SAME_SCALAR(option_gravity);
    SAME_SCALAR(option_has_gravity);
    SAME_SCALAR(option_scheme);
    SAME_SCALAR(option_contact_off);
    SAME_SCALAR(option_has_ground);
    SAME_SCALAR(option_ground_height);
    SAME_SCALAR(option_ground_friction);
    SAME_SCALAR(option_ground_condim);
    SAME_SCALAR(nkey);
    SAME_SCALAR(nexclude);
    SAME_SCALAR(nwarning);
    SAME_SCALAR(size_);
    int nb = a->nbody, nj = a->njoint, nv = a->nv, nf = a->nframe, nu = a->nujoint;
    int ng = a->ngeom, nc = a->nconstraint, nm = a->nmaterial, na = a->nactuator;
    int nac = SN_ACTUATOR_MAX_COUPLINGS * na;
    SAME_ARRAY(body_parent, nb);
    SAME_ARRAY(body_joint, nb);
    SAME_ARRAY(body_name, nb);
    SAME_ARRAY(body_mass, nb);
    SAME_ARRAY(body_com, 3 * nb);
    SAME_ARRAY(body_inertia, 9 * nb);
    SAME_ARRAY(subtree_mass, nb);
    SAME_ARRAY(joint_type, nj);
    SAME_ARRAY(joint_body, nj);
    SAME_ARRAY(joint_qadr, nj);
    SAME_ARRAY(joint_vadr, nj);
    SAME_ARRAY(joint_nq, nj);
    SAME_ARRAY(joint_nv, nj);
    SAME_ARRAY(joint_name, nj);
    SAME_ARRAY(joint_ujoint, nj);
    SAME_ARRAY(joint_pos, 3 * nj);
    SAME_ARRAY(joint_rot, 9 * nj);
    SAME_ARRAY(joint_axis, 3 * nj);
    SAME_ARRAY(joint_mimic, nj);
    SAME_ARRAY(joint_mimic_multiplier, nj);
    SAME_ARRAY(joint_mimic_offset, nj);
    SAME_ARRAY(joint_spring_ref, nj);
    SAME_ARRAY(dof_joint, nv);
    SAME_ARRAY(dof_parent, nv);
    SAME_ARRAY(dof_body, nv);
    SAME_ARRAY(dof_armature, nv);
    SAME_ARRAY(dof_damping, nv);
    SAME_ARRAY(dof_friction, nv);
    SAME_ARRAY(dof_stiffness, nv);
    SAME_ARRAY(dof_limited, nv);
    SAME_ARRAY(dof_lower, nv);
    SAME_ARRAY(dof_upper, nv);
    SAME_ARRAY(dof_velocity_limit, nv);
    SAME_ARRAY(dof_effort_limit, nv);
    SAME_ARRAY(dof_kp, nv);
    SAME_ARRAY(dof_kd, nv);
    SAME_ARRAY(frame_body, nf);
    SAME_ARRAY(frame_parent, nf);
    SAME_ARRAY(frame_name, nf);
    SAME_ARRAY(frame_order, nf);
    SAME_ARRAY(frame_pos, 3 * nf);
    SAME_ARRAY(frame_rot, 9 * nf);
    SAME_ARRAY(frame_mass, nf);
    SAME_ARRAY(frame_com, 3 * nf);
    SAME_ARRAY(frame_inertia, 9 * nf);
    SAME_ARRAY(ujoint_type, nu);
    SAME_ARRAY(ujoint_parent, nu);
    SAME_ARRAY(ujoint_child, nu);
    SAME_ARRAY(ujoint_joint, nu);
    SAME_ARRAY(ujoint_name, nu);
    SAME_ARRAY(geom_type, ng);
    SAME_ARRAY(geom_frame, ng);
    SAME_ARRAY(geom_is_visual, ng);
    SAME_ARRAY(geom_material, ng);
    SAME_ARRAY(geom_mesh, ng);
    SAME_ARRAY(geom_size, 3 * ng);
    SAME_ARRAY(geom_friction, ng);
    SAME_ARRAY(geom_condim, ng);
    SAME_ARRAY(exclude_body, 2 * a->nexclude);
    SAME_ARRAY(geom_pos, 3 * ng);
    SAME_ARRAY(geom_rot, 9 * ng);
    SAME_ARRAY(geom_vert_adr, ng);
    SAME_ARRAY(geom_vert_num, ng);
    SAME_ARRAY(mesh_vert, 3 * a->nmeshvert);
    SAME_ARRAY(material_name, nm);
    SAME_ARRAY(material_rgba, 4 * nm);
    SAME_ARRAY(constraint_type, nc);
    SAME_ARRAY(constraint_frame1, nc);
    SAME_ARRAY(constraint_frame2, nc);
    SAME_ARRAY(constraint_naxis, nc);
    SAME_ARRAY(constraint_anchor, 3 * nc);
    SAME_ARRAY(constraint_axes, 6 * nc);
    SAME_ARRAY(constraint_anchor2, 3 * nc);
    SAME_ARRAY(constraint_rot2, 9 * nc);
    SAME_ARRAY(actuator_name, na);
    SAME_ARRAY(actuator_joint, na);
    SAME_ARRAY(actuator_gear, na);
    SAME_ARRAY(actuator_kt, na);
    SAME_ARRAY(actuator_vbus, na);
    SAME_ARRAY(actuator_resistance, na);
    SAME_ARRAY(actuator_kv, na);
    SAME_ARRAY(actuator_peak_torque, na);
    SAME_ARRAY(actuator_output_damping, na);
    SAME_ARRAY(actuator_output_friction, na);
    SAME_ARRAY(actuator_ncoupling, na);
    SAME_ARRAY(actuator_coupling_joint, nac);
    SAME_ARRAY(actuator_coupling_ratio, nac);
    SAME_ARRAY(key_name, a->nkey);
    SAME_ARRAY(key_q, (size_t)a->nkey * a->nq);
    SAME_ARRAY(key_u, (size_t)a->nkey * nv);
    if ((a->nominal_config == NULL) != (b->nominal_config == NULL)) return "nominal_config";
    if (a->nominal_config) SAME_ARRAY(nominal_config, a->nq);
    SAME_ARRAY(q0, a->nq);
    size_t ne = names_end(a);
    if (ne != names_end(b) || !same_bytes(a->names, b->names, ne)) return "names";
    for (int i = 0; i < a->nwarning && i < 64; i++)
        if (strcmp(a->warnings[i], b->warnings[i])) return "warnings";
    return NULL;
}


// free body s made by world wb (status st) against the text route's model of the same body
// (status tst): both refused with the same status and message, or the models bit for bit the
// same, then both dropped onto the ground from the same state for 0.2 s, bit for bit
static int same_body(sn_world* wb, sn_status st, sn_system* s, sn_status tst, sn_model* text,
                     const char* what) {
    if (st != SN_OK || tst != SN_OK) {
        SNT_CHECK_MSG(st == tst && !s && !text, "%s: status %d, by text %d", what, st, tst);
        SNT_CHECK_MSG(!strcmp(sn_world_last_error(wb), text_error), "%s: '%s', by text '%s'", what,
                      sn_world_last_error(wb), text_error);
        printf("  %-40s both refused: %s\n", what, text_error);
        return 0;
    }
    SNT_CHECK_MSG(s && text, "%s: not built", what);
    const sn_model* m = sn_system_model(s);
    const char* diff = model_diff(m, text);
    SNT_CHECK_MSG(!diff, "%s: the models differ in %s", what, diff);
    sn_world* w[2] = {NULL, NULL};
    sn_system* sys[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        SNT_STATUS_OK(sn_world_create(NULL, &w[k], NULL));
        SNT_STATUS_OK(sn_world_set_ground(w[k], 1, 0));
        SNT_STATUS_OK(sn_world_add_system(w[k], k ? text : m, &sys[k], NULL));
        double q[7] = {0.1, -0.2, 0.3, 0.9, 0.3, 0.2, 0.1}, u[6] = {0.5, -1, 0.2, 1, 2, 3};
        double n = sqrt(0.95);
        for (int i = 3; i < 7; i++)
            q[i] /= n;
        SNT_STATUS_OK(sn_system_set_state(sys[k], q, 7, u, 6));
        for (int i = 0; i < 200; i++)
            SNT_STATUS_OK(sn_world_integrate(w[k]));
    }
    SNT_CHECK_MSG(same_bytes(sn_system_q(sys[0]), sn_system_q(sys[1]), 7 * sizeof(double)) &&
                      same_bytes(sn_system_u(sys[0]), sn_system_u(sys[1]), 6 * sizeof(double)),
                  "%s: the trajectories differ", what);
    printf("  %-40s same model (%zu bytes, %d warnings), same 0.2 s\n", what, m->size_,
           m->nwarning);
    for (int i = 0; i < m->nwarning && i < 64; i++)
        printf("    warning: %s\n", m->warnings[i]);
    sn_world_destroy(w[0]);
    sn_world_destroy(w[1]);
    sn_model_destroy(text);
    return 0;
}


// ---- the shapes ----

static int test_primitives_as_spec_and_as_text(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    char what[96];
    const double spheres[][2] = {{0.1, 1}, {1.0 / 3, 0.7}, {2.5, 1e3}, {1e-4, 1e-3}};
    for (int i = 0; i < 4; i++) {
        sn_system* s = NULL;
        sn_model* t = NULL;
        sn_status st = sn_world_add_sphere(w, spheres[i][0], spheres[i][1], &s);
        sn_status tst = text_sphere(spheres[i][0], spheres[i][1], &t);
        snprintf(what, sizeof what, "sphere r %g m %g", spheres[i][0], spheres[i][1]);
        if (same_body(w, st, s, tst, t, what)) return 1;
    }
    // a thin rod warns (badly conditioned), a thinner one too (singular)
    const double boxes[][4] = {{0.2, 0.3, 0.4, 2},
                               {1.0 / 3, 1.0 / 7, 1.0 / 11, 0.9},
                               {1, 1e-5, 1e-5, 1},
                               {1, 1e-7, 1e-7, 1}};
    for (int i = 0; i < 4; i++) {
        sn_system* s = NULL;
        sn_model* t = NULL;
        sn_status st = sn_world_add_box(w, boxes[i], boxes[i][3], &s);
        sn_status tst = text_box(boxes[i], boxes[i][3], &t);
        snprintf(what, sizeof what, "box %g %g %g m %g", boxes[i][0], boxes[i][1], boxes[i][2],
                 boxes[i][3]);
        if (same_body(w, st, s, tst, t, what)) return 1;
    }
    const double rods[][3] = {{0.05, 0.4, 1.3}, {1.0 / 3, 0.1, 0.25}, {1e-5, 1, 1}, {1, 1e-4, 1}};
    for (int i = 0; i < 4; i++) {
        sn_system *c = NULL, *p = NULL;
        sn_model *tc = NULL, *tp = NULL;
        sn_status st = sn_world_add_cylinder(w, rods[i][0], rods[i][1], rods[i][2], &c);
        sn_status tst = text_cylinder(rods[i][0], rods[i][1], rods[i][2], &tc);
        snprintf(what, sizeof what, "cylinder r %g l %g m %g", rods[i][0], rods[i][1], rods[i][2]);
        if (same_body(w, st, c, tst, tc, what)) return 1;
        st = sn_world_add_capsule(w, rods[i][0], rods[i][1], rods[i][2], &p);
        tst = text_capsule(rods[i][0], rods[i][1], rods[i][2], &tp);
        snprintf(what, sizeof what, "capsule r %g l %g m %g", rods[i][0], rods[i][1], rods[i][2]);
        if (same_body(w, st, p, tst, tp, what)) return 1;
    }
    sn_world_destroy(w);
    return 0;
}


static char tmpdir[64];

// an OBJ file of the given text in a fresh directory
static const char* write_obj(const char* name, const char* text) {
    static char path[256];
    if (!tmpdir[0]) {
        strcpy(tmpdir, "/tmp/sinew_bodiesXXXXXX");
        if (!mkdtemp(tmpdir)) return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE* f = fopen(path, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}


static int mesh_case(sn_world* w, const char* path, const double* scale, double mass) {
    char what[96], p[1024];
    snprintf(p, sizeof p, "%s", path);
    sn_system* s = NULL;
    sn_model* t = NULL;
    sn_status st = sn_world_add_mesh(w, p, scale, mass, &s);
    sn_status tst = text_mesh(p, scale, mass, &t);
    const char* base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
    if (scale)
        snprintf(what, sizeof what, "mesh %.20s x %g %g %g m %g", base, scale[0], scale[1],
                 scale[2], mass);
    else
        snprintf(what, sizeof what, "mesh %.20s m %g", base, mass);
    return same_body(w, st, s, tst, t, what);
}


static int test_meshes_as_spec_and_as_text(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    // a centred cube (its products of inertia are zeros of either sign), a cube off the origin,
    // an irregular solid
    const char* cube = write_obj("cube.obj", "v -1 -1 -1\nv -1 -1 1\nv -1 1 -1\nv -1 1 1\n"
                                             "v 1 -1 -1\nv 1 -1 1\nv 1 1 -1\nv 1 1 1\n");
    SNT_CHECK(cube);
    double half[3] = {0.5, 0.5, 0.5}, odd[3] = {0.5, 2, 1.0 / 3};
    if (mesh_case(w, cube, NULL, 1) || mesh_case(w, cube, half, 3) || mesh_case(w, cube, odd, 0.7))
        return 1;
    const char* off = write_obj("off.obj", "v 1 1 1\nv 1 1 2\nv 1 2 1\nv 1 2 2\nv 2 1 1\n"
                                           "v 2 1 2\nv 2 2 1\nv 2 2 2\nv 1.5 1.5 1.5\n");
    SNT_CHECK(off);
    if (mesh_case(w, off, NULL, 1)) return 1;
    const char* rock = write_obj("rock.obj", "v 0.1 0.2 -0.3\nv 1.3 -0.1 0.2\nv -0.4 1.1 0.05\n"
                                             "v 0.2 0.3 1.4\nv 0.7 0.8 0.9\nv -0.6 -0.5 0.4\n"
                                             "v 0.9 -0.7 -0.2\n");
    SNT_CHECK(rock);
    double rs[3] = {0.3, 0.2, 0.25};
    if (mesh_case(w, rock, NULL, 2.5) || mesh_case(w, rock, rs, 0.4)) return 1;
    // collision meshes of the shared robots
    const char* shared[] = {"erd_panda/meshes/collision/link4.stl",
                            "erd_ur5/meshes/ur5/collision/forearm.stl",
                            "menagerie_panda/assets/link5_collision_0.obj"};
    int found = 0;
    for (int i = 0; i < 3; i++) {
        const char* path = tc_model_path(shared[i]);
        if (!path || access(path, R_OK) != 0) continue;
        double sc[3] = {1, 1.5, 0.75};
        if (mesh_case(w, path, i == 1 ? sc : NULL, 1.2)) return 1;
        found++;
    }
    printf("  %d meshes of the shared models\n", found);
    sn_world_destroy(w);
    char path[128];
    const char* names[] = {"cube.obj", "off.obj", "rock.obj"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        remove(path);
    }
    rmdir(tmpdir);
    return 0;
}


// ---- given mass properties (sn_world_add_body) ----

// R (row-major) of the unit quaternion w x y z
static void quat_R(const double* q, double* R) {
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double n = w * w + x * x + y * y + z * z;
    w /= sqrt(n), x /= sqrt(n), y /= sqrt(n), z /= sqrt(n);
    R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

static const sn_real GIVEN_I[6] = {0.05, 0.004, -0.003, 0.06, 0.002, 0.07};

// the compiled model's mass, centre of mass and inertia are the given ones, bit for bit; a zero
// inertia is the shape's uniform one (sn_world_add_box's); bad descriptions are refused by name
static int test_body_given_mass_properties(void) {
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    static const int shapes[] = {SN_GEOM_BOX, SN_GEOM_SPHERE, SN_GEOM_CYLINDER, SN_GEOM_CAPSULE,
                                 SN_GEOM_ELLIPSOID};
    for (int k = 0; k < 5; k++) {
        sn_body_desc d;
        memset(&d, 0, sizeof d);
        d.shape = shapes[k];
        d.size[0] = 0.2, d.size[1] = 0.3, d.size[2] = 0.4;
        d.mass = 2.5;
        d.com[0] = 0.01, d.com[1] = -0.02, d.com[2] = 0.03;
        memcpy(d.inertia, GIVEN_I, sizeof d.inertia);
        sn_system* s = NULL;
        SNT_STATUS_OK(sn_world_add_body(w, &d, &s));
        const sn_model* m = sn_system_model(s);
        SNT_CHECK(m->nbody == 2 && m->ngeom == 1 && m->geom_type[0] == shapes[k]);
        SNT_CHECK(m->body_mass[1] == 2.5);
        for (int i = 0; i < 3; i++)
            SNT_CHECK(m->body_com[3 + i] == d.com[i]);
        const sn_real* I = m->body_inertia + 9;
        const sn_real want[9] = {GIVEN_I[0], GIVEN_I[1], GIVEN_I[2], GIVEN_I[1], GIVEN_I[3],
                                 GIVEN_I[4], GIVEN_I[2], GIVEN_I[4], GIVEN_I[5]};
        for (int i = 0; i < 9; i++)
            SNT_CHECK_MSG(I[i] == want[i], "shape %d inertia[%d] %.17g, given %.17g", shapes[k], i,
                          I[i], want[i]);
    }
    // zero inertia and com: the uniform box, as sn_world_add_box makes it
    sn_body_desc d;
    memset(&d, 0, sizeof d);
    d.size[0] = 0.2, d.size[1] = 0.3, d.size[2] = 0.4;
    d.mass = 2;
    sn_system *a = NULL, *b = NULL;
    SNT_STATUS_OK(sn_world_add_body(w, &d, &a));
    SNT_STATUS_OK(sn_world_add_box(w, d.size, 2, &b));
    SNT_CHECK(!memcmp(sn_system_model(a)->body_inertia, sn_system_model(b)->body_inertia,
                      18 * sizeof(sn_real)));
    SNT_NEAR(sn_system_model(a)->body_inertia[9], 2 * (0.09 + 0.16) / 12, 1e-15);
    // refusals: nothing is added
    int nsys = sn_world_system_count(w);
    static const struct {
        sn_real mass, size0, I[6];
        int shape;
        const char* why;
    } bad[] = {
        {0, 0.2, {0}, SN_GEOM_BOX, "positive finite mass"},
        {-1, 0.2, {0}, SN_GEOM_BOX, "positive finite mass"},
        {1, 0.2, {1, 0, 0, 1, 0, -1}, SN_GEOM_BOX, "not positive definite"},
        {1, 0.2, {1, 2, 0, 1, 0, 1}, SN_GEOM_BOX, "not positive definite"},
        {1, 0.2, {1, 0, 0, 1, 0, 2.5}, SN_GEOM_BOX, "triangle inequality"},
        {1, 0.2, {0}, 99, "unknown free-body shape 99"},
        {1, 0, {0}, SN_GEOM_BOX, "box sizes must be positive"},
        {1, 0, {0}, SN_GEOM_SPHERE, "radius must be positive"},
        {1, 0.2, {0}, SN_GEOM_MESH, "no mesh file named"},
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        memset(&d, 0, sizeof d);
        d.shape = bad[i].shape;
        d.size[0] = bad[i].size0, d.size[1] = d.size[2] = 0.3;
        d.mass = bad[i].mass;
        memcpy(d.inertia, bad[i].I, sizeof d.inertia);
        sn_system* s = (sn_system*)&d;
        SNT_CHECK(sn_world_add_body(w, &d, &s) == SN_ERR_ARG);
        SNT_CHECK_MSG(strstr(sn_world_last_error(w), bad[i].why), "case %d: %s", i,
                      sn_world_last_error(w));
    }
    SNT_CHECK(sn_world_add_body(w, NULL, &a) == SN_ERR_ARG);
    SNT_CHECK(sn_world_system_count(w) == nsys);
    sn_world_destroy(w);
    return 0;
}

// a symmetric top (I1 = I2 = 0.1, I3 = 0.18 kg m^2) whose symmetry axis is the body's
// e = (0, -sin a, cos a), a = 0.6 (so the given tensor has off-axis yy, yz, zz terms), spinning
// torque-free in zero gravity for 2 s at steps of dt: the drift of its world angular momentum and
// its energy, and the angle its body-frame angular velocity precesses about e through, which is
// (I3 - I1) / I1 w3 t by Euler's equations: 4 rad/s for w3 = 5 rad/s, 8 rad in 2 s
static int top_run(double dt, double* angle_out, double* dL, double* dE) {
    const double I1 = 0.1, I3 = 0.18, a = 0.6, w3 = 5, wp = 1, T = 2;
    double c = cos(a), s = sin(a);
    // R_x(a) diag(I1, I1, I3) R_x(a)^T
    sn_body_desc d;
    memset(&d, 0, sizeof d);
    d.shape = SN_GEOM_CYLINDER;
    d.size[0] = 0.1, d.size[1] = 0.2;
    d.mass = 3;
    d.inertia[0] = I1;
    d.inertia[3] = I1 * c * c + I3 * s * s;
    d.inertia[4] = -(I3 - I1) * c * s;
    d.inertia[5] = I1 * s * s + I3 * c * c;
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    const sn_real g0[3] = {0, 0, 0};
    SNT_STATUS_OK(sn_world_set_gravity(w, g0));
    SNT_STATUS_OK(sn_world_set_ground(w, 0, 0));
    SNT_STATUS_OK(sn_world_set_timestep(w, dt));
    sn_system* b = NULL;
    SNT_STATUS_OK(sn_world_add_body(w, &d, &b));
    const sn_model* m = sn_system_model(b);
    const double* Ib = m->body_inertia + 9;
    // e is an eigenvector of the given tensor with I3; x is one with I1
    double e[3] = {0, -s, c}, p1[3] = {1, 0, 0}, p2[3] = {0, c, s}; // p2 = e x p1
    for (int i = 0; i < 3; i++)
        SNT_NEAR(Ib[3 * i] * e[0] + Ib[3 * i + 1] * e[1] + Ib[3 * i + 2] * e[2], I3 * e[i], 1e-15);
    double q[7] = {0, 0, 0, 1, 0, 0, 0}, u[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 3; i++)
        u[3 + i] = w3 * e[i] + wp * p1[i]; // the world frame is the body's at the start
    SNT_STATUS_OK(sn_system_set_state(b, q, 7, u, 6));
    double E0 = sn_system_kinetic_energy(b), L0[3], Lmax = 0, Emax = 0, angle = 0, prev = 0;
    for (int i = 0; i < 3; i++)
        L0[i] = Ib[3 * i] * u[3] + Ib[3 * i + 1] * u[4] + Ib[3 * i + 2] * u[5];
    int n = (int)lround(T / dt);
    for (int k = 1; k <= n; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        const double *qq = sn_system_q(b), *uu = sn_system_u(b);
        double R[9], wb[3], Lb[3], L[3];
        quat_R(qq + 3, R);
        for (int i = 0; i < 3; i++)
            wb[i] = R[i] * uu[3] + R[3 + i] * uu[4] + R[6 + i] * uu[5]; // R^T w
        for (int i = 0; i < 3; i++)
            Lb[i] = Ib[3 * i] * wb[0] + Ib[3 * i + 1] * wb[1] + Ib[3 * i + 2] * wb[2];
        for (int i = 0; i < 3; i++)
            L[i] = R[3 * i] * Lb[0] + R[3 * i + 1] * Lb[1] + R[3 * i + 2] * Lb[2];
        double dl = sqrt((L[0] - L0[0]) * (L[0] - L0[0]) + (L[1] - L0[1]) * (L[1] - L0[1]) +
                         (L[2] - L0[2]) * (L[2] - L0[2]));
        Lmax = fmax(Lmax, dl);
        Emax = fmax(Emax, fabs(sn_system_kinetic_energy(b) - E0));
        double ang = atan2(wb[0] * p2[0] + wb[1] * p2[1] + wb[2] * p2[2],
                           wb[0] * p1[0] + wb[1] * p1[1] + wb[2] * p1[2]);
        double step = ang - prev;
        while (step > M_PI)
            step -= 2 * M_PI;
        while (step < -M_PI)
            step += 2 * M_PI;
        angle += step;
        prev = ang;
        if (k == n) SNT_NEAR(wb[0] * e[0] + wb[1] * e[1] + wb[2] * e[2], w3, 1e-6 * w3);
    }
    double Lnorm = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    *angle_out = angle;
    *dL = Lmax / Lnorm;
    *dE = Emax / E0;
    sn_world_destroy(w);
    return 0;
}

static int test_body_free_precession(void) {
    const double rate = (0.18 - 0.1) / 0.1 * 5, T = 2;
    double ang1, dL1, dE1, ang2, dL2, dE2;
    SNT_CHECK(top_run(1e-3, &ang1, &dL1, &dE1) == 0);
    SNT_CHECK(top_run(5e-4, &ang2, &dL2, &dE2) == 0);
    printf("  top, dt 1 ms: precession %.6f rad in %g s (analytic %.6f), max |dL|/|L| %.2e, "
           "|dE|/E %.2e\n",
           ang1, T, rate * T, dL1, dE1);
    printf("  top, dt 0.5 ms: precession %.6f rad, max |dL|/|L| %.2e, |dE|/E %.2e\n", ang2, dL2,
           dE2);
    // the precession angle to 1e-4 of its 8 rad
    SNT_NEAR(ang1, rate * T, 1e-4 * rate * T);
    SNT_NEAR(ang2, rate * T, 1e-4 * rate * T);
    // momentum and energy: the step is first order in dt, so they drift in proportion to dt
    // (measured 6.6e-4 and 7.1e-4 at 1 ms): bounded by 1.5e-3, about twice that, and halving dt
    // must halve the drift (ratio 1.6 to 2.4), which shows it is the step's truncation error
    SNT_CHECK_MSG(dL1 < 1.5e-3 && dE1 < 1.5e-3, "drift %g %g", dL1, dE1);
    SNT_CHECK_MSG(dL1 / dL2 > 1.6 && dL1 / dL2 < 2.4, "momentum drift ratio %g", dL1 / dL2);
    SNT_CHECK_MSG(dE1 / dE2 > 1.6 && dE1 / dE2 < 2.4, "energy drift ratio %g", dE1 / dE2);
    return 0;
}

// a 0.4 x 0.4 x 0.2 m box of 3 kg whose given inertia is not its uniform one (twice it, with a
// product of inertia) dropped from 1 mm onto the ground rests there: after 2 s its centre is at
// half its height to within 1 mm, it is still (below 1e-3 m/s and rad/s) and level (its z axis
// within 1e-3 of the world's)
static int test_body_box_rests_on_the_ground(void) {
    sn_body_desc d;
    memset(&d, 0, sizeof d);
    d.shape = SN_GEOM_BOX;
    d.size[0] = 0.4, d.size[1] = 0.4, d.size[2] = 0.2;
    d.mass = 3;
    d.inertia[0] = 2 * 3 * (0.16 + 0.04) / 12;
    d.inertia[3] = 2 * 3 * (0.16 + 0.04) / 12;
    d.inertia[5] = 2 * 3 * (0.16 + 0.16) / 12;
    d.inertia[1] = 0.01;
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    sn_system* b = NULL;
    SNT_STATUS_OK(sn_world_add_body(w, &d, &b));
    double q[7] = {0.3, -0.2, 0.101, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(b, q, 7, u, 6));
    for (int k = 0; k < 2000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    const double *qq = sn_system_q(b), *uu = sn_system_u(b);
    double R[9];
    quat_R(qq + 3, R);
    double speed = 0;
    for (int i = 0; i < 6; i++)
        speed = fmax(speed, fabs(uu[i]));
    printf("  box at rest: z %.6f m (half height 0.1), speed %.2e, tilt %.2e\n", qq[2], speed,
           1 - R[8]);
    SNT_NEAR(qq[2], 0.1, 1e-3);
    SNT_CHECK(speed < 1e-3);
    SNT_CHECK(1 - R[8] < 1e-3);
    SNT_NEAR(qq[0], 0.3, 1e-3);
    SNT_NEAR(qq[1], -0.2, 1e-3);
    sn_world_destroy(w);
    return 0;
}

SNT_SUITE(SNT_TEST(test_primitives_as_spec_and_as_text), SNT_TEST(test_meshes_as_spec_and_as_text),
          SNT_TEST(test_body_given_mass_properties), SNT_TEST(test_body_free_precession),
          SNT_TEST(test_body_box_rests_on_the_ground))
