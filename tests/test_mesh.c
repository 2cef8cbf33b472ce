// SPDX-License-Identifier: Apache-2.0
// test_mesh.c: convex collision meshes and the support-function contacts (MPR). Mesh files (OBJ,
// binary and ASCII STL) load to their distinct vertices; malformed files are errors with the
// file and line, missing ones a warning. A mesh cube behaves exactly like the box primitive on
// the ground; MPR's gap and normal agree with the closed forms of sphere, capsule, box and
// cylinder pairs; shapes rest on meshes and cylinders; Solo12 stands on its STL feet.
#include "collision/collide.h"
#include "common.h"
#include "harness/snt.h"
#include "heapcount.h"
#include "model/hull.h"
#include "sim/sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

// a file in the test's temporary folder; returns its path (static buffer)
static const char* write_file(const char* name, const void* data, size_t n) {
    static char path[256];
    if (!dir[0]) {
        strcpy(dir, "/tmp/sinew_meshXXXXXX");
        if (!mkdtemp(dir)) return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (!f) return NULL;
    fwrite(data, 1, n, f);
    fclose(f);
    return path;
}

static const char* write_text(const char* name, const char* text) {
    return write_file(name, text, strlen(text));
}

// the 12 triangles of the cube [-h, h]^3 (index triples into its corners k: bit 0 x, 1 y, 2 z)
static const int cube_tri[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                                    {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                                    {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};

static void corner(int k, double h, double* v) {
    v[0] = k & 1 ? h : -h, v[1] = k & 2 ? h : -h, v[2] = k & 4 ? h : -h;
}

// a binary STL of the cube, with a header that begins with "solid" (as many exporters write)
static size_t cube_stl_binary(unsigned char* b, double h) {
    memset(b, 0, 84);
    memcpy(b, "solid cube exported as binary", 29);
    b[80] = 12;
    for (int t = 0; t < 12; t++) {
        unsigned char* tri = b + 84 + 50 * t;
        memset(tri, 0, 50);
        for (int k = 0; k < 3; k++) {
            double v[3];
            corner(cube_tri[t][k], h, v);
            for (int i = 0; i < 3; i++) {
                float f = (float)v[i];
                uint32_t u;
                memcpy(&u, &f, 4);
                for (int j = 0; j < 4; j++)
                    tri[12 + 12 * k + 4 * i + j] = (unsigned char)(u >> (8 * j));
            }
        }
    }
    return 84 + 50 * 12;
}

static char* cube_stl_ascii(double h) {
    static char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "solid cube\n");
    for (int t = 0; t < 12; t++) {
        n += (size_t)snprintf(text + n, sizeof text - n, "  facet normal 0 0 0\n    outer loop\n");
        for (int k = 0; k < 3; k++) {
            double v[3];
            corner(cube_tri[t][k], h, v);
            n += (size_t)snprintf(text + n, sizeof text - n, "      vertex %g %g %g\n", v[0], v[1],
                                  v[2]);
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "    endloop\n  endfacet\n");
    }
    snprintf(text + n, sizeof text - n, "endsolid cube\n");
    return text;
}

static char* cube_obj(double h) {
    static char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "# a cube\no cube\n");
    for (int k = 0; k < 8; k++) {
        double v[3];
        corner(k, h, v);
        n += (size_t)snprintf(text + n, sizeof text - n, "v %g %g %g\n", v[0], v[1], v[2]);
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "vn 0 0 1\nvt 0 0\n");
    for (int t = 0; t < 12; t++)
        n += (size_t)snprintf(text + n, sizeof text - n, "f %d %d %d\n", cube_tri[t][0] + 1,
                              cube_tri[t][1] + 1, cube_tri[t][2] + 1);
    return text;
}

// a free 1 kg body whose collision element is `geometry` (the 0.2 m cube's inertia)
static char* body_urdf(const char* geometry) {
    static char xml[2048];
    snprintf(xml, sizeof xml,
             "<robot name=\"body\">\n<link name=\"body\">\n<inertial><mass value=\"1\"/>"
             "<inertia ixx=\"0.0066667\" ixy=\"0\" ixz=\"0\" iyy=\"0.0066667\" iyz=\"0\" "
             "izz=\"0.0066667\"/></inertial>\n<collision>\n<geometry>%s</geometry>\n</collision>\n"
             "</link>\n</robot>\n",
             geometry);
    return xml;
}

static sn_status load(const char* xml, sn_model** m, sn_error* err) {
    return sn_load_urdf_string(xml, strlen(xml), "body.urdf", dir, NULL, m, err);
}


static int test_mesh_files_load(void) {
    unsigned char bin[1024];
    SNT_CHECK(write_file("cube.stl", bin, cube_stl_binary(bin, 0.5)));
    SNT_CHECK(write_text("cube_ascii.STL", cube_stl_ascii(0.5)));
    SNT_CHECK(write_text("cube.obj", cube_obj(0.5)));
    const char* files[3] = {"cube.stl", "cube_ascii.STL", "cube.obj"};
    for (int f = 0; f < 3; f++) {
        char geom[256];
        snprintf(geom, sizeof geom, "<mesh filename=\"%s\" scale=\"0.2 0.4 0.6\"/>", files[f]);
        sn_model* m = NULL;
        sn_error err;
        SNT_STATUS_OK(load(body_urdf(geom), &m, &err));
        SNT_CHECK_MSG(m->nwarning == 0, "%s: %s", files[f], m->nwarning ? m->warnings[0] : "");
        SNT_CHECK(m->ngeom == 1 && m->geom_type[0] == SN_GEOM_MESH);
        SNT_CHECK_MSG(m->geom_vert_num[0] == 8 && m->nmeshvert == 8, "%s: %d vertices", files[f],
                      m->geom_vert_num[0]);
        // the corners, scaled per axis
        for (int k = 0; k < 8; k++)
            for (int i = 0; i < 3; i++) {
                double s[3] = {0.1, 0.2, 0.3};
                SNT_NEAR(fabs(m->mesh_vert[3 * k + i]), s[i], 1e-7);
            }
        sn_model_destroy(m);
    }
    return 0;
}


// sn_mesh_read: the triangles of a cube in each format, indexed, scaled per axis; its errors
static int test_mesh_read_public(void) {
    unsigned char bin[1024];
    SNT_CHECK(write_file("cube.stl", bin, cube_stl_binary(bin, 0.5)));
    SNT_CHECK(write_text("cube_ascii.STL", cube_stl_ascii(0.5)));
    const char* obj = write_text("cube.obj", cube_obj(0.5));
    SNT_CHECK(obj);
    const char* files[3] = {"cube.stl", "cube_ascii.STL", "cube.obj"};
    const sn_real scale[3] = {0.2, 0.4, 0.6};
    for (int f = 0; f < 3; f++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        sn_mesh_data mesh;
        sn_error err;
        SNT_STATUS_OK(sn_mesh_read(path, scale, &mesh, &err));
        // an STL has three vertices per triangle, an OBJ its own eight
        SNT_CHECK_MSG(mesh.ntri == 12 && mesh.nvert == (f == 2 ? 8 : 36), "%s: %d, %d", files[f],
                      mesh.ntri, mesh.nvert);
        for (int t = 0; t < 12; t++)
            for (int k = 0; k < 3; k++) {
                int v = mesh.tri[3 * t + k];
                double c[3];
                corner(cube_tri[t][k], 0.5, c);
                SNT_CHECK(v >= 0 && v < mesh.nvert);
                for (int i = 0; i < 3; i++)
                    SNT_NEAR(mesh.vert[3 * v + i], c[i] * scale[i], 1e-7);
            }
        sn_mesh_data_free(&mesh);
        SNT_CHECK(mesh.vert == NULL && mesh.tri == NULL && mesh.nvert == 0 && mesh.ntri == 0);
    }
    // errors name the file; the mesh is left empty
    char path[256];
    const struct {
        const char* name;
        const char* text;
        sn_status code;
        const char* msg;
    } bad[4] = {{"absent.obj", NULL, SN_ERR_IO, "cannot open"},
                {"cube.dae", "<COLLADA/>", SN_ERR_MODEL, "is not read"},
                {"points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n", SN_ERR_PARSE, "no triangles"},
                {"face.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n", SN_ERR_PARSE, "face.obj:3"}};
    for (int i = 0; i < 4; i++) {
        if (bad[i].text) SNT_CHECK(write_text(bad[i].name, bad[i].text));
        snprintf(path, sizeof path, "%s/%s", dir, bad[i].name);
        sn_mesh_data mesh;
        sn_error err;
        sn_status st = sn_mesh_read(path, NULL, &mesh, &err);
        printf("  %-11s -> %s: %s\n", bad[i].name, sn_status_str(st), err.msg);
        SNT_CHECK(st == bad[i].code && strstr(err.msg, bad[i].msg) && strstr(err.msg, path));
        SNT_CHECK(!strcmp(err.file, path) && mesh.vert == NULL && mesh.ntri == 0);
        SNT_CHECK(err.line == (i == 3 ? 3 : 0));
        sn_mesh_data_free(&mesh);
    }
    sn_mesh_data mesh;
    SNT_CHECK(sn_mesh_read(NULL, NULL, &mesh, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_mesh_read(obj, NULL, NULL, NULL) == SN_ERR_ARG);
    sn_mesh_data_free(NULL);
    return 0;
}


// malformed files are errors naming the mesh file (and its line) and the URDF element; files
// that are missing or in another format load with a warning and do not collide
static int test_mesh_bad_files(void) {
    struct {
        const char* name;
        const char* text;
        const char* expect;
    } bad[] = {
        {"short.obj", "# cube\nv 0 0 0\nv 1 2\n", "short.obj:3"},
        {"word.obj", "v 0 0 0\nv 1 x 1\n", "word.obj:2"},
        {"empty.obj", "# nothing\nf 1 2 3\n", "no vertices"},
        {"nan.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex nan 0 0\n", "nan.stl:4"},
        {"garbage.stl", "this is not an stl file at all", "neither ASCII"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SNT_CHECK(write_text(bad[i].name, bad[i].text));
        char geom[256];
        snprintf(geom, sizeof geom, "<mesh filename=\"%s\"/>", bad[i].name);
        sn_model* m = NULL;
        sn_error err;
        sn_status st = load(body_urdf(geom), &m, &err);
        printf("  %-12s -> %s line %d <%s>: %s\n", bad[i].name, sn_status_str(st), err.line,
               err.element, err.msg);
        SNT_CHECK(st == SN_ERR_PARSE && m == NULL);
        SNT_CHECK(strstr(err.msg, bad[i].expect) && err.line == 4 && !strcmp(err.element, "mesh"));
        SNT_CHECK(strstr(err.file, "body.urdf"));
    }
    // a binary STL cut short (its count promises 12 triangles) and one with a NaN coordinate
    unsigned char bin[1024];
    size_t n = cube_stl_binary(bin, 0.5);
    memcpy(bin, "binary", 6); // not "solid": no ASCII fallback
    SNT_CHECK(write_file("cut.stl", bin, n - 7));
    float nan = NAN;
    memcpy(bin + 84 + 50 * 3 + 16, &nan, 4);
    SNT_CHECK(write_file("nanbin.stl", bin, n));
    const char* bins[2][2] = {{"cut.stl", "do not hold"}, {"nanbin.stl", "non-finite"}};
    for (int i = 0; i < 2; i++) {
        char geom[256];
        snprintf(geom, sizeof geom, "<mesh filename=\"%s\"/>", bins[i][0]);
        sn_model* m = NULL;
        sn_error err;
        sn_status st = load(body_urdf(geom), &m, &err);
        printf("  %-12s -> %s: %s\n", bins[i][0], sn_status_str(st), err.msg);
        SNT_CHECK(st == SN_ERR_PARSE && strstr(err.msg, bins[i][1]));
    }
    // missing, and a format sinew does not read: warned, never collides
    const char* soft[2][2] = {{"absent.stl", "cannot open"}, {"cube.dae", "is not read"}};
    for (int i = 0; i < 2; i++) {
        char geom[256];
        snprintf(geom, sizeof geom, "<mesh filename=\"%s\"/>", soft[i][0]);
        sn_model* m = NULL;
        sn_error err;
        SNT_STATUS_OK(load(body_urdf(geom), &m, &err));
        printf("  %-12s -> warning: %s\n", soft[i][0], m->warnings[0]);
        SNT_CHECK(m->nwarning == 1 && strstr(m->warnings[0], soft[i][1]));
        SNT_CHECK(m->geom_vert_num[0] == 0 && m->geom_vert_adr[0] == SN_NONE);
        sn_world* w = NULL;
        sn_system* s = NULL;
        SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
        SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
        SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
        for (int k = 0; k < 300; k++)
            SNT_STATUS_OK(sn_world_integrate(w));
        SNT_CHECK(sn_system_contact_count(s) == 0 && sn_system_q(s)[2] < -0.4);
        sn_world_destroy(w);
        sn_model_destroy(m);
    }
    // byte mutations of the text and binary files: an error or a model, never a crash
    const char* obj = cube_obj(0.5);
    size_t lo = strlen(obj);
    char* buf = malloc(lo + 1);
    int refused = 0, loaded = 0;
    tc_seed(7);
    for (int t = 0; t < 600; t++) {
        int use_bin = t % 2;
        size_t len = use_bin ? n : lo;
        unsigned char* data = use_bin ? bin : (unsigned char*)buf;
        if (use_bin)
            cube_stl_binary(bin, 0.5);
        else
            memcpy(buf, obj, lo + 1);
        for (int k = 0; k < 4; k++) {
            size_t at = (size_t)tc_uniform(0, (double)len);
            data[at] = (unsigned char)tc_uniform(0, 256);
        }
        if (t % 7 == 0) len = (size_t)tc_uniform(0, (double)len);
        SNT_CHECK(write_file(use_bin ? "mut.stl" : "mut.obj", data, len));
        sn_model* m = NULL;
        sn_error err;
        sn_status st = load(
            body_urdf(use_bin ? "<mesh filename=\"mut.stl\"/>" : "<mesh filename=\"mut.obj\"/>"),
            &m, &err);
        if (st == SN_OK) {
            loaded++;
            for (int k = 0; k < m->nmeshvert * 3; k++)
                SNT_CHECK(isfinite(m->mesh_vert[k]));
            sn_model_destroy(m);
        } else {
            refused++;
            SNT_CHECK(err.msg[0] && err.line == 4);
        }
    }
    free(buf);
    printf("  600 mutated mesh files: %d loaded, %d refused with a message\n", loaded, refused);
    SNT_CHECK(loaded > 0 && refused > 0);
    return 0;
}


// one free body sliding at 3 m/s with mu = 0.5 on the ground (C1); returns x, z after 2 s
static int slide(const char* geometry, double* x, double* z, int* ncontact) {
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(load(body_urdf(geometry), &m, &err));
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    SNT_STATUS_OK(sn_world_set_material(w, 0.5, 0, 0));
    double q[7] = {0, 0, 0.1, 1, 0, 0, 0}, u[6] = {3, 0, 0, 0, 0, 0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
    for (int k = 0; k < 2000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    *x = sn_system_q(s)[0], *z = sn_system_q(s)[2];
    *ncontact = sn_system_contact_count(s);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


// C1 with a mesh cube: the corners below the margin are the box's contact points, so the motion
// is the box primitive's
static int test_mesh_cube_slides_like_box(void) {
    unsigned char bin[1024];
    SNT_CHECK(write_file("cube.stl", bin, cube_stl_binary(bin, 0.5)));
    double xb, zb, xm, zm;
    int nb, nm;
    SNT_CHECK(slide("<box size=\"0.2 0.2 0.2\"/>", &xb, &zb, &nb) == 0);
    SNT_CHECK(slide("<mesh filename=\"cube.stl\" scale=\"0.2 0.2 0.2\"/>", &xm, &zm, &nm) == 0);
    printf("  box stops after %.9f m (z %.9f, %d contacts), mesh cube after %.9f m (z %.9f, %d)\n",
           xb, zb, nb, xm, zm, nm);
    SNT_NEAR_REL(xm, 0.917431, 0.01, 1);
    SNT_NEAR(xm, xb, 1e-9);
    SNT_NEAR(zm, zb, 1e-9);
    SNT_CHECK(nb == 4 && nm == 4);
    return 0;
}


// ---- MPR against the closed forms ----

static void random_rotation(double* R) {
    double q[4], n = 0;
    for (int i = 0; i < 4; i++)
        q[i] = tc_uniform(-1, 1), n += q[i] * q[i];
    n = sqrt(n);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
    quat_to_m3(R, q);
}

static double clamp(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

// signed distance of world point x from a box (pose R, p, half extents h) and the outward normal
static double box_distance(const double* R, const double* p, const double* h, const double* x,
                           double* n) {
    double d[3], l[3], c[3], nl[3];
    v3_sub(d, x, p);
    m3t_mul_v3(l, R, d);
    int inside = fabs(l[0]) <= h[0] && fabs(l[1]) <= h[1] && fabs(l[2]) <= h[2];
    if (!inside) {
        for (int i = 0; i < 3; i++)
            c[i] = clamp(l[i], -h[i], h[i]);
        v3_sub(nl, l, c);
        double dist = v3_norm(nl);
        v3_scale(nl, nl, 1 / dist);
        m3_mul_v3(n, R, nl);
        return dist;
    }
    int best = 0;
    double depth = INFINITY;
    for (int i = 0; i < 3; i++)
        if (h[i] - fabs(l[i]) < depth) depth = h[i] - fabs(l[i]), best = i;
    v3_set(nl, 0, 0, 0);
    nl[best] = l[best] >= 0 ? 1 : -1;
    m3_mul_v3(n, R, nl);
    return -depth;
}

// signed distance of x from a solid cylinder (axis z of R, half length hl, radius r), outside
static double cylinder_distance(const double* R, const double* p, double r, double hl,
                                const double* x) {
    double d[3], l[3];
    v3_sub(d, x, p);
    m3t_mul_v3(l, R, d);
    double radial = sqrt(l[0] * l[0] + l[1] * l[1]) - r, axial = fabs(l[2]) - hl;
    if (radial > 0 && axial > 0) return sqrt(radial * radial + axial * axial);
    return radial > axial ? radial : axial;
}

static void shape(sni_convex* c, int type, const double* size, const double* p) {
    memset(c, 0, sizeof *c);
    c->type = type;
    c->size = size;
    random_rotation(c->R);
    v3_copy(c->p, p);
    v3_copy(c->center, p);
}

static int test_mpr_matches_closed_forms(void) {
    tc_seed(11);
    double margin = 0.02, worst_gap = 0, worst_n = 0, worst_x = 0;
    int hits = 0;
    // the cube [-0.1, 0.1]^3 as a mesh of its 8 corners
    double cube[24];
    for (int k = 0; k < 8; k++)
        corner(k, 0.1, cube + 3 * k);
    double box_size[3] = {0.2, 0.2, 0.2}, h[3] = {0.1, 0.1, 0.1}, one[3] = {1, 1, 1};
    double sph[3] = {0.05, 0, 0}, cyl[3] = {0.08, 0.3, 0};
    for (int t = 0; t < 4000; t++) {
        int kind = t % 3; // sphere vs box, sphere vs mesh cube, sphere vs cylinder
        double o[3] = {0, 0, 0}, dir[3] = {tc_uniform(-1, 1), tc_uniform(-1, 1), tc_uniform(-1, 1)};
        sni_convex a, b;
        if (kind == 2)
            shape(&b, SN_GEOM_CYLINDER, cyl, o);
        else if (kind == 1)
            shape(&b, SN_GEOM_MESH, one, o), b.vert = cube, b.nvert = 8;
        else
            shape(&b, SN_GEOM_BOX, box_size, o);
        // a sphere centre at a random distance around the surface of b
        double len = v3_norm(dir), x[3], nb[3];
        v3_scale(dir, dir, 1 / len);
        double reach = kind == 2 ? 0.2 : 0.18, s = tc_uniform(0.02, reach);
        v3_scale(x, dir, s);
        shape(&a, SN_GEOM_SPHERE, sph, x);
        double dist = kind == 2 ? cylinder_distance(b.R, b.p, cyl[0], 0.5 * cyl[1], x)
                                : box_distance(b.R, b.p, h, x, nb);
        double gap = dist - sph[0];
        double xc[3], n[3], g;
        int hit = sni_convex_contact(&a, &b, margin, xc, n, &g);
        if (gap > margin + 1e-9 || gap < -sph[0]) {
            // separated beyond the margin: no contact (deep overlaps are not compared)
            if (gap > margin + 1e-9)
                SNT_CHECK_MSG(!hit, "case %d: gap %.4g, found %.4g", t, gap, g);
            continue;
        }
        if (gap > margin - 1e-6) continue; // at the margin's edge either answer is right
        SNT_CHECK_MSG(hit, "case %d kind %d: gap %.6g not found", t, kind, gap);
        hits++;
        double e = fabs(g - gap);
        if (e > worst_gap) worst_gap = e;
        if (kind < 2 && gap > 1e-3) {
            // outside a box the normal is the closest direction
            double dn = 1 - v3_dot(n, nb);
            if (dn > worst_n) worst_n = dn;
        }
        // the point lies between the surfaces: its distance from b is about half the gap (MPR's
        // point comes from the portal's barycentric coordinates)
        double xd = kind == 2 ? cylinder_distance(b.R, b.p, cyl[0], 0.5 * cyl[1], xc)
                              : box_distance(b.R, b.p, h, xc, nb);
        if (gap > 0 && fabs(xd - 0.5 * gap) > worst_x) worst_x = fabs(xd - 0.5 * gap);
    }
    printf("  %d contacts: worst gap error %.2e m, worst 1 - n.n_exact %.2e, point off the middle "
           "by %.2e m\n",
           hits, worst_gap, worst_n, worst_x);
    // docs/contact.md: gaps to 2e-16 m, normals to 1e-15 (measured 1.7e-16, 1.0e-15, the point
    // 6e-17 m); asserted with a margin of about 50x (a few hundred ulps of the 0.2 m sizes)
    SNT_CHECK(worst_x < 1e-14);
    SNT_CHECK(hits > 500);
    SNT_CHECK(worst_gap < 1e-14);
    SNT_CHECK(worst_n < 5e-14);
    return 0;
}


// a fixed-base model with one collision geometry (on the world link) at height z
static char* static_urdf(const char* geometry, double z) {
    static char xml[2048];
    snprintf(xml, sizeof xml,
             "<robot name=\"stand\">\n<link name=\"world\"/>\n<joint name=\"j\" type=\"fixed\">"
             "<parent link=\"world\"/><child link=\"post\"/><origin xyz=\"0 0 %g\"/></joint>\n"
             "<link name=\"post\">\n<collision>\n<geometry>%s</geometry>\n</collision>\n</link>\n"
             "</robot>\n",
             z, geometry);
    return xml;
}

static const char* ball =
    "<robot name=\"ball\"><link name=\"ball\"><inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.004\" ixy=\"0\" ixz=\"0\" iyy=\"0.004\" iyz=\"0\" izz=\"0.004\"/>"
    "</inertial><collision><geometry><sphere radius=\"0.1\"/></geometry></collision></link>"
    "</robot>";

// a ball dropped onto the top of a static shape (whose top is at z = 1) comes to rest on it
static int drop_ball_on(const char* geometry, double zpost, double* zrest, double* ke) {
    sn_model* post = NULL;
    sn_model* b = NULL;
    sn_error err;
    const char* xml = static_urdf(geometry, zpost);
    SNT_STATUS_OK(sn_load_urdf_string(xml, strlen(xml), "post.urdf", dir, NULL, &post, &err));
    SNT_STATUS_OK(sn_load_urdf_string(ball, strlen(ball), "ball.urdf", NULL, NULL, &b, &err));
    sn_world* w = NULL;
    sn_system *sp, *sb;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, post, &sp, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, b, &sb, NULL));
    double q[7] = {0.01, -0.02, 1.3, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(sb, q, 7, u, 6));
    for (int k = 0; k < 1500; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    *zrest = sn_system_q(sb)[2];
    *ke = sn_system_kinetic_energy(sb);
    SNT_CHECK(sn_system_contact_count(sb) == 1);
    sn_contact c;
    SNT_STATUS_OK(sn_system_contact(sb, 0, &c));
    SNT_CHECK(c.other_system == 0 && fabs(c.normal[2] - 1) < 1e-6);
    SNT_NEAR(c.impulse[2], 9.81 * 0.001, 1e-6);
    sn_world_destroy(w);
    sn_model_destroy(post);
    sn_model_destroy(b);
    return 0;
}

static int test_ball_rests_on_mesh_and_cylinder(void) {
    unsigned char bin[1024];
    SNT_CHECK(write_file("cube.stl", bin, cube_stl_binary(bin, 0.5)));
    const char* geoms[3] = {"<mesh filename=\"cube.stl\" scale=\"0.4 0.4 0.4\"/>",
                            "<cylinder radius=\"0.2\" length=\"0.4\"/>",
                            "<box size=\"0.4 0.4 0.4\"/>"};
    for (int i = 0; i < 3; i++) {
        double z, ke;
        SNT_CHECK(drop_ball_on(geoms[i], 0.8, &z, &ke) == 0);
        printf("  ball on %-52s rests at z = %.6f m, KE %.2e J\n", geoms[i], z, ke);
        SNT_NEAR(z, 1.1, 1e-3);
        SNT_CHECK(ke < 1e-8);
    }
    return 0;
}


// an MJCF world of free bodies: a body "e" with the given geom (and what follows it), placed at z
static int ellipsoid_world(const char* geom, double z, sn_model** m, sn_world** w, sn_system** s) {
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mujoco><worldbody><body name=\"e\" pos=\"0 0 %.17g\"><freejoint/>%s</body>"
             "</worldbody></mujoco>",
             z, geom);
    sn_error err;
    if (sn_load_mjcf_string(xml, strlen(xml), "ellipsoid.xml", NULL, NULL, m, &err) != SN_OK) {
        fprintf(stderr, "  %s\n", err.msg);
        return 1;
    }
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    if (sn_world_create(&o, w, NULL) != SN_OK || sn_world_add_system(*w, *m, s, NULL) != SN_OK)
        return 1;
    sn_world_set_ground(*w, 1, 0);
    return 0;
}

// ellipsoids (MJCF geoms): against the ground the deepest point and depth are the closed form's
// at random orientations; one with equal axes falls onto a box like the sphere it is; a tilted
// one dropped on the ground rolls to rest on its shortest axis
static int test_ellipsoids_collide(void) {
    tc_seed(11);
    sn_model* m;
    sn_world* w;
    sn_system* s;
    const double a[3] = {0.3, 0.2, 0.1};
    SNT_CHECK(ellipsoid_world("<geom type=\"ellipsoid\" size=\"0.3 0.2 0.1\"/>", 1, &m, &w, &s) ==
              0);
    double worst_d = 0, worst_x = 0;
    for (int k = 0; k < 50; k++) {
        double R[9], q[7], u[6] = {0}, nq = 0;
        for (int i = 3; i < 7; i++)
            q[i] = tc_uniform(-1, 1), nq += q[i] * q[i];
        for (int i = 3; i < 7; i++)
            q[i] /= sqrt(nq);
        quat_to_m3(R, q + 3);
        double h = sqrt(R[6] * R[6] * a[0] * a[0] + R[7] * R[7] * a[1] * a[1] +
                        R[8] * R[8] * a[2] * a[2]); // the support below the centre
        q[0] = tc_uniform(-1, 1), q[1] = tc_uniform(-1, 1), q[2] = h - 0.01;
        SNT_STATUS_OK(sn_system_set_state(s, q, 7, u, 6));
        SNT_STATUS_OK(sn_world_integrate(w));
        SNT_CHECK(sn_system_contact_count(s) == 1);
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(s, 0, &c));
        // the deepest point: x = c - A^2 m / |A m|, m = R^T z, A = diag(a)
        double mz[3] = {R[6], R[7], R[8]}, am[3], xl[3], x[3];
        for (int i = 0; i < 3; i++)
            am[i] = a[i] * mz[i];
        for (int i = 0; i < 3; i++)
            xl[i] = -a[i] * am[i] / h;
        m3_mul_v3(x, R, xl);
        worst_d = fmax(worst_d, fabs(c.depth - 0.01));
        for (int i = 0; i < 3; i++)
            worst_x = fmax(worst_x, fabs(c.position[i] - (q[i] + x[i])));
    }
    printf("  50 random orientations 1 cm deep: depth within %.1e m, deepest point within %.1e m\n",
           worst_d, worst_x);
    SNT_CHECK(worst_d < 1e-12 && worst_x < 1e-12);
    sn_world_destroy(w);
    sn_model_destroy(m);
    // equal axes: the sphere's fall onto a box, step by step
    double zs[2][3000];
    const char* geoms[2] = {"<geom type=\"sphere\" size=\"0.1\"/>",
                            "<geom type=\"ellipsoid\" size=\"0.1 0.1 0.1\"/>"};
    for (int v = 0; v < 2; v++) {
        char g2[512];
        snprintf(g2, sizeof g2,
                 "%s</body><body name=\"b\" pos=\"0.03 0.02 0.1\"><freejoint/><geom "
                 "type=\"box\" size=\"0.2 0.2 0.1\"/>",
                 geoms[v]);
        SNT_CHECK(ellipsoid_world(g2, 0.5, &m, &w, &s) == 0);
        sn_system_set_self_collision(s, 1); // the two free bodies are one system's
        for (int k = 0; k < 3000; k++) {
            SNT_STATUS_OK(sn_world_integrate(w));
            zs[v][k] = sn_system_q(s)[2];
        }
        sn_world_destroy(w);
        sn_model_destroy(m);
    }
    double dz = 0;
    for (int k = 0; k < 3000; k++)
        dz = fmax(dz, fabs(zs[0][k] - zs[1][k]));
    printf("  a ball of equal axes onto a box for 3 s: at rest at z = %.6f m (the sphere's %.6f), "
           "the two runs within %.1e m\n",
           zs[1][2999], zs[0][2999], dz);
    SNT_NEAR(zs[1][2999], 0.3, 1e-3);
    SNT_CHECK(dz < 1e-6);
    // tilted and dropped: it rocks and rolls on the ground (rolling without slip keeps its
    // energy), touching it all along, and never gains energy
    SNT_CHECK(ellipsoid_world("<geom type=\"ellipsoid\" size=\"0.3 0.2 0.1\" euler=\"20 35 0\"/>",
                              0.5, &m, &w, &s) == 0);
    double e_prev = 0, gain = 0, off = 0, e0 = 0;
    int touched = 0;
    for (int k = 0; k < 6000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        double e = sn_system_kinetic_energy(s) + sn_system_potential_energy(s);
        if (touched) gain = fmax(gain, e - e_prev);
        if (!touched && sn_system_contact_count(s) > 0) touched = 1, e0 = e;
        e_prev = e;
        if (k < 1000) continue;
        // the lowest point of the surface against the ground
        const double* qe = sn_system_q(s);
        double Re[9], Rw[9];
        quat_to_m3(Re, qe + 3);
        m3_mul(Rw, Re, m->geom_rot);
        double h = sqrt(Rw[6] * Rw[6] * a[0] * a[0] + Rw[7] * Rw[7] * a[1] * a[1] +
                        Rw[8] * Rw[8] * a[2] * a[2]);
        double zc =
            qe[2] + Re[6] * m->geom_pos[0] + Re[7] * m->geom_pos[1] + Re[8] * m->geom_pos[2];
        off = fmax(off, fabs(zc - h));
    }
    printf("  dropped tilted, 6 s on the ground: energy at first touch %.3f J, then %.3f J, at "
           "most %+.1e J a step; its lowest point within %.1e m of the ground after 1 s\n",
           e0, e_prev, gain, off);
    SNT_CHECK(gain < 1e-4 && e_prev <= e0); // the step's own swing, 4e-7 of the energy
    SNT_CHECK(off < 1e-3);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


// two free bodies of one shape flying at each other in zero gravity (axes parallel, 1 m/s each):
// momentum is conserved at every step, and an elastic impact exchanges the velocities
static int head_on(const char* geometry, double e, double* va, double* vb) {
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(load(body_urdf(geometry), &m, &err));
    double pmax;
    int touched;
    SNT_CHECK(tc_head_on(m, e, va, vb, &pmax, &touched) == 0);
    SNT_CHECK_MSG(pmax < 1e-12, "momentum %.3g", pmax);
    SNT_CHECK(touched);
    sn_model_destroy(m);
    return 0;
}

static int test_cylinders_and_meshes_collide(void) {
    unsigned char bin[1024];
    SNT_CHECK(write_file("cube.stl", bin, cube_stl_binary(bin, 0.5)));
    const char* geoms[2] = {"<cylinder radius=\"0.1\" length=\"0.3\"/>",
                            "<mesh filename=\"cube.stl\" scale=\"0.2 0.2 0.2\"/>"};
    for (int i = 0; i < 2; i++)
        for (int e = 0; e <= 1; e++) {
            double va, vb;
            SNT_CHECK(head_on(geoms[i], e, &va, &vb) == 0);
            printf("  %-50s e = %d: after the impact %.9f and %.9f m/s\n", geoms[i], e, va, vb);
            // EPA's normal on a curved side is exact to about 1e-5 rad
            SNT_NEAR(va, e ? -1 : 0, 1e-8);
            SNT_NEAR(vb, e ? 1 : 0, 1e-8);
        }
    return 0;
}


// a free body resting on another: a lying cylinder across a standing one's cap (a line
// contact), a box on a mesh cube (a face), a standing cylinder on a box (its cap's rim); every
// contact point is in the manifold, so nothing rocks or sinks
static int stack_two(const char* lower, const char* upper, const double* qu, double zu,
                     int ncontact) {
    sn_model *ml = NULL, *mu = NULL;
    sn_error err;
    SNT_STATUS_OK(load(body_urdf(lower), &ml, &err));
    SNT_STATUS_OK(load(body_urdf(upper), &mu, &err));
    sn_world* w = NULL;
    sn_system *a, *b;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, ml, &a, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, mu, &b, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double ql[7] = {0, 0, 0.1, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(a, ql, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(b, qu, 7, u, 6));
    for (int k = 0; k < 3000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double ke = sn_system_kinetic_energy(a) + sn_system_kinetic_energy(b);
    int pair = 0;
    for (int i = 0; i < sn_system_contact_count(b); i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(b, i, &c));
        pair += c.other_system == 0;
        if (getenv("SNT_VERBOSE"))
            printf("    contact with %d: (%.4f %.4f %.4f) depth %.2e\n", c.other_system,
                   c.position[0], c.position[1], c.position[2], c.depth);
    }
    printf("  %-40s on %-40s: z %.6f m, %d contacts between them, KE %.2e J\n", upper, lower,
           sn_system_q(b)[2], pair, ke);
    SNT_NEAR(sn_system_q(a)[2], 0.1, 1e-3);
    SNT_NEAR(sn_system_q(b)[2], zu, 1e-3);
    SNT_CHECK(pair == ncontact);
    SNT_CHECK(ke < 1e-10);
    sn_world_destroy(w);
    sn_model_destroy(ml);
    sn_model_destroy(mu);
    return 0;
}

static int test_faces_and_lines_rest(void) {
    unsigned char bin[1024];
    SNT_CHECK(write_file("cube.stl", bin, cube_stl_binary(bin, 0.5)));
    double s = sqrt(0.5);
    double lying[7] = {0, 0, 0.3, s, s, 0, 0}, upright[7] = {0.03, 0.02, 0.35, 1, 0, 0, 0};
    double box[7] = {0.02, -0.01, 0.3, 1, 0, 0, 0};
    SNT_CHECK(stack_two("<cylinder radius=\"0.1\" length=\"0.2\"/>",
                        "<cylinder radius=\"0.1\" length=\"0.2\"/>", lying, 0.3, 2) == 0);
    SNT_CHECK(stack_two("<mesh filename=\"cube.stl\" scale=\"0.2 0.2 0.2\"/>",
                        "<box size=\"0.2 0.2 0.2\"/>", box, 0.3, 4) == 0);
    SNT_CHECK(stack_two("<box size=\"0.2 0.2 0.2\"/>", "<cylinder radius=\"0.05\" length=\"0.3\"/>",
                        upright, 0.35, 4) == 0);
    return 0;
}


// Solo12 (STL collision meshes) dropped onto the ground with straight legs under PD: its foot
// meshes carry it, it comes to rest without sinking, and the step allocates nothing
static int test_solo12_stands_on_mesh_feet(void) {
    const char* path = tc_model_path("erd_solo/robots/solo12.urdf");
    if (!path) {
        printf("  ../shared/models absent\n");
        return SNT_SKIP;
    }
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    sn_model* m = NULL;
    sn_error err;
    SNT_STATUS_OK(sn_load_urdf(path, &o, &m, &err));
    int meshes = 0;
    for (int g = 0; g < m->ngeom; g++)
        if (!m->geom_is_visual[g] && m->geom_type[g] == SN_GEOM_MESH) {
            SNT_CHECK(m->geom_vert_num[g] > 0);
            meshes++;
        }
    printf("  %d collision meshes, %d vertices\n", meshes, m->nmeshvert);
    SNT_CHECK(meshes == 17);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    double q[19] = {0, 0, 0.5, 1, 0, 0, 0}, u[18] = {0};
    SNT_STATUS_OK(sn_system_set_state(s, q, 19, u, 18));
    double kp[18] = {0}, kd[18] = {0};
    for (int i = 6; i < 18; i++)
        kp[i] = 5, kd[i] = 0.1;
    SNT_STATUS_OK(sn_system_set_pd_gains(s, kp, kd, 18));
    tc_heap_install();
    long h0 = 0;
    double zmin = 1;
    for (int k = 0; k < 3000; k++) {
        if (k == 500) h0 = tc_heap_calls();
        SNT_STATUS_OK(sn_world_integrate(w));
        if (sn_system_q(s)[2] < zmin) zmin = sn_system_q(s)[2];
    }
    long heap = tc_heap_calls() - h0;
    double deepest = 0;
    for (int i = 0; i < sn_system_contact_count(s); i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(s, i, &c));
        if (c.depth > deepest) deepest = c.depth;
    }
    printf("  base at z = %.4f m (lowest %.4f), %d contacts, deepest %.2f mm, KE %.2e J, %ld "
           "heap calls in 2500 steps\n",
           sn_system_q(s)[2], zmin, sn_system_contact_count(s), deepest * 1e3,
           sn_system_kinetic_energy(s), heap);
    SNT_CHECK(sn_system_contact_count(s) >= 4);
    SNT_CHECK(sn_system_q(s)[2] > 0.25 && sn_system_q(s)[2] < 0.4);
    SNT_CHECK(deepest < 2e-3);
    SNT_CHECK(sn_system_kinetic_energy(s) < 1e-4);
    SNT_CHECK(heap == 0);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}


// a hull's checks: its vertices (*nv), the directed edges without exactly one reverse
// (*unpaired: 0 for a closed surface) and the farthest any point lies outside a face's plane
// (faces below min_area, slivers whose planes say little, are skipped)
static double hull_check(const double* p, int n, const int* tri, int ntri, double min_area, int* nv,
                         int* unpaired) {
    char* used = calloc((size_t)n, 1);
    *nv = *unpaired = 0;
    for (int k = 0; k < 3 * ntri; k++)
        if (!used[tri[k]]) used[tri[k]] = 1, ++*nv;
    free(used);
    for (int t = 0; t < ntri; t++)
        for (int e = 0; e < 3; e++) {
            int u = tri[3 * t + e], w = tri[3 * t + (e + 1) % 3], pairs = 0;
            for (int s = 0; s < ntri; s++)
                for (int e2 = 0; e2 < 3; e2++)
                    pairs += tri[3 * s + e2] == w && tri[3 * s + (e2 + 1) % 3] == u;
            *unpaired += pairs != 1;
        }
    double worst = 0;
    for (int t = 0; t < ntri; t++) {
        double e1[3], e2[3], nn[3];
        v3_sub(e1, p + 3 * tri[3 * t + 1], p + 3 * tri[3 * t]);
        v3_sub(e2, p + 3 * tri[3 * t + 2], p + 3 * tri[3 * t]);
        v3_cross(nn, e1, e2);
        if (v3_norm(nn) <= min_area) continue;
        v3_scale(nn, nn, 1 / v3_norm(nn));
        double d = v3_dot(nn, p + 3 * tri[3 * t]);
        for (int k = 0; k < n; k++)
            worst = fmax(worst, v3_dot(nn, p + 3 * k) - d);
    }
    return worst;
}

// the hull of a cloud: every point on or inside every face, a closed surface (Euler: V - E + F =
// 2 with E = 3F / 2), the cube's eight corners out of a cube filled with points, and the mass
// properties of a rotated, shifted box against the closed forms
static int test_convex_hull(void) {
    tc_seed(5);
    int n = 3000;
    double* p = malloc(sizeof(double) * 3 * (size_t)n);
    for (int k = 0; k < n; k++) {
        double d[3] = {tc_uniform(-1, 1), tc_uniform(-1, 1), tc_uniform(-1, 1)};
        double l = v3_norm(d), r = k % 3 ? tc_uniform(0, 1) : 1; // a third on the sphere
        for (int i = 0; i < 3; i++)
            p[3 * k + i] = d[i] / l * r * (i == 2 ? 0.5 : 1);
    }
    int *tri = NULL, ntri = 0, nv, unpaired;
    SNT_STATUS_OK(sni_hull(p, n, NULL, &tri, &ntri));
    double worst = hull_check(p, n, tri, ntri, 0, &nv, &unpaired);
    printf("  3000 points: hull of %d vertices, %d triangles, %d edges unpaired; farthest point "
           "outside a face %.2e\n",
           nv, ntri, unpaired, worst);
    SNT_CHECK(unpaired == 0 && ntri % 2 == 0 && nv - 3 * ntri / 2 + ntri == 2);
    SNT_CHECK(worst < 1e-9);
    SNT_CHECK(nv >= 900 && nv <= 1100); // the 1000 points on the ellipsoid, and a few near it
    free(tri);
    // a 0.2 x 0.4 x 0.6 box filled with points, rotated and shifted
    double R[9], c[3] = {0.3, -0.2, 0.1}, h[3] = {0.1, 0.2, 0.3};
    random_rotation(R);
    for (int k = 0; k < n; k++) {
        double l[3];
        for (int i = 0; i < 3; i++)
            l[i] = k < 8 ? (k >> i & 1 ? h[i] : -h[i]) : tc_uniform(-h[i], h[i]);
        m3_mul_v3(p + 3 * k, R, l);
        v3_add(p + 3 * k, p + 3 * k, c);
    }
    SNT_STATUS_OK(sni_hull(p, n, NULL, &tri, &ntri));
    double vol, com[3], C[9];
    sni_hull_mass(p, tri, ntri, &vol, com, C);
    // the second moment about the centroid is R diag(V h_i^2 / 3) R^T
    double worst_c = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double e = 0;
            for (int k = 0; k < 3; k++)
                e += R[3 * i + k] * R[3 * j + k] * vol * h[k] * h[k] / 3;
            double got = C[3 * i + j] - vol * com[i] * com[j];
            if (fabs(got - e) > worst_c) worst_c = fabs(got - e);
        }
    printf("  box: %d triangles, volume %.15f (0.048), centroid error %.1e, second moment error "
           "%.1e\n",
           ntri, vol, fabs(com[0] - c[0]) + fabs(com[1] - c[1]) + fabs(com[2] - c[2]), worst_c);
    SNT_CHECK(ntri == 12);
    SNT_NEAR(vol, 0.048, 1e-15);
    SNT_NEAR(com[0], c[0], 1e-14);
    SNT_NEAR(com[1], c[1], 1e-14);
    SNT_NEAR(com[2], c[2], 1e-14);
    SNT_CHECK(worst_c < 1e-15);
    free(tri);
    // flat and collinear sets have no hull
    for (int k = 0; k < 8; k++)
        p[3 * k + 2] = 0;
    SNT_CHECK(sni_hull(p, 8, NULL, &tri, &ntri) == SN_ERR_MODEL && tri == NULL);
    free(p);
    return 0;
}


static int cmp_xyz(const void* a, const void* b) {
    const double *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

// a CAD part's points as an STL file gives them: a flanged disk (rings of 720 points on its two
// faces, the outer rims and the rings of holes inside them, the side between), in ring order
// and rounded to single precision. Nearly coplanar slivers disagree there by rounding about
// which faces a new point sees; the hull once folded on Menagerie's Robotiq mount (10,899
// points grew 100,000 faces). Exact orientation signs keep it closed, with every point inside
static int test_convex_hull_of_a_cad_part(void) {
    int nring = 720, n = 0;
    double* p = malloc(sizeof(double) * 3 * 16 * (size_t)nring);
    const double radius[4] = {37.5, 30, 12, 6}, z[2] = {-7.000002861022949, 6.9};
    for (int face = 0; face < 2; face++)
        for (int r = 0; r < 4; r++)
            for (int k = 0; k < nring; k++) {
                double a = 2 * M_PI * k / nring;
                p[3 * n] = (float)(radius[r] * cos(a));
                p[3 * n + 1] = (float)(radius[r] * sin(a));
                p[3 * n + 2] = (float)z[face];
                n++;
            }
    for (int level = 1; level < 8; level++) // the side
        for (int k = 0; k < nring; k++) {
            double a = 2 * M_PI * k / nring;
            p[3 * n] = (float)(37.5 * cos(a));
            p[3 * n + 1] = (float)(37.5 * sin(a));
            p[3 * n + 2] = (float)(z[0] + (z[1] - z[0]) * level / 8);
            n++;
        }
    // in the order the mesh reader leaves them (sorted by x, y, z, repeats merged)
    qsort(p, (size_t)n, 3 * sizeof(double), cmp_xyz);
    int *tri = NULL, ntri = 0, nv, unpaired;
    SNT_STATUS_OK(sni_hull(p, n, NULL, &tri, &ntri));
    double worst = hull_check(p, n, tri, ntri, 1e-9, &nv, &unpaired);
    double vol, com[3], C[9];
    sni_hull_mass(p, tri, ntri, &vol, com, C);
    double vol_disk =
        M_PI * 37.5 * 37.5 * (z[1] - z[0]) * nring / (2 * M_PI) * sin(2 * M_PI / nring);
    printf("  %d points: hull of %d vertices, %d triangles, %d edges unpaired; farthest point "
           "outside a face %.1e mm; volume %.6f against the 720-gon prism's %.6f\n",
           n, nv, ntri, unpaired, worst, vol, vol_disk);
    SNT_CHECK(unpaired == 0 && ntri % 2 == 0 && nv - 3 * ntri / 2 + ntri == 2);
    SNT_CHECK(worst < 1e-9 * 75);
    SNT_CHECK(nv <= 8 * nring); // the two rims and the side, never the holes' rings
    SNT_NEAR(vol, vol_disk, 1e-6 * vol_disk);
    free(tri), free(p);
    return 0;
}


// sn_world_add_mesh: a cube file gives the box's inertia, and a cube tumbling onto the ground
// moves exactly like the box primitive; a mesh off its origin gets its centre of mass there
static int test_free_mesh_body(void) {
    unsigned char bin[1024];
    const char* path = write_file("cube.stl", bin, cube_stl_binary(bin, 0.5));
    SNT_CHECK(path);
    char cube[256];
    snprintf(cube, sizeof cube, "%s", path);
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    sn_system *box, *mesh;
    double size[3] = {0.2, 0.3, 0.4};
    SNT_STATUS_OK(sn_world_add_box(w, size, 2, &box));
    SNT_STATUS_OK(sn_world_add_mesh(w, cube, size, 2, &mesh));
    const sn_model* mb = sn_system_model(box);
    const sn_model* mm = sn_system_model(mesh);
    double e = 0;
    for (int k = 0; k < 9; k++)
        e = fmax(e, fabs(mb->body_inertia[9 + k] - mm->body_inertia[9 + k]));
    printf("  inertia of the mesh box against the box: %.1e\n", e);
    SNT_CHECK(e < 1e-15);
    double q[7] = {0, 0, 0.5, 0.9, 0.3, 0.2, 0.1}, u[6] = {0.5, 0, 0, 1, 2, 3}, qm[7];
    double n = sqrt(0.95);
    for (int i = 3; i < 7; i++)
        q[i] /= n;
    memcpy(qm, q, sizeof q);
    qm[1] = 2; // side by side, far apart
    SNT_STATUS_OK(sn_system_set_state(box, q, 7, u, 6));
    SNT_STATUS_OK(sn_system_set_state(mesh, qm, 7, u, 6));
    double worst = 0;
    for (int k = 0; k < 1500; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        const double* a = sn_system_q(box);
        const double* b = sn_system_q(mesh);
        for (int i = 0; i < 7; i++)
            if (i != 1) worst = fmax(worst, fabs(a[i] - b[i]));
    }
    printf("  a tumbling box and mesh box over 1.5 s: worst difference %.2e; at rest z %.6f\n",
           worst, sn_system_q(mesh)[2]);
    SNT_CHECK(worst < 1e-9);
    // off the origin: the centre of mass is the hull's centroid
    const char* off =
        "v 1 1 1\nv 1 1 2\nv 1 2 1\nv 1 2 2\nv 2 1 1\nv 2 1 2\nv 2 2 1\nv 2 2 2\nv 1.5 1.5 1.5\n";
    const char* offp = write_text("off.obj", off);
    SNT_CHECK(offp);
    snprintf(cube, sizeof cube, "%s", offp);
    sn_system* o = NULL;
    SNT_STATUS_OK(sn_world_add_mesh(w, cube, NULL, 1, &o));
    const sn_model* mo = sn_system_model(o);
    printf("  off-centre cube: centre of mass (%.3f %.3f %.3f), Ixx %.6f\n", mo->body_com[3],
           mo->body_com[4], mo->body_com[5], mo->body_inertia[9]);
    SNT_NEAR(mo->body_com[3], 1.5, 1e-14);
    SNT_NEAR(mo->body_com[5], 1.5, 1e-14);
    // bad calls: flat, missing, bad scale; the world stays usable
    const char* flat = write_text("flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n");
    snprintf(cube, sizeof cube, "%s", flat);
    sn_system* x = NULL;
    SNT_CHECK(sn_world_add_mesh(w, cube, NULL, 1, &x) == SN_ERR_MODEL && !x);
    printf("  flat: %s\n", sn_world_last_error(w));
    SNT_CHECK(strstr(sn_world_last_error(w), "flat"));
    SNT_CHECK(sn_world_add_mesh(w, "/nonexistent/x.stl", NULL, 1, &x) == SN_ERR_IO);
    double bad[3] = {1, 0, 1};
    SNT_CHECK(sn_world_add_mesh(w, cube, bad, 1, &x) == SN_ERR_ARG);
    SNT_CHECK(sn_world_add_mesh(w, "a\"b.stl", NULL, 1, &x) == SN_ERR_ARG);
    SNT_CHECK(sn_world_system_count(w) == 3);
    SNT_STATUS_OK(sn_world_integrate(w));
    sn_world_destroy(w);
    return 0;
}


// a pile of 40 free bodies of every shape dropped into a 1 m square: the broad phase (boxes swept
// along x) finds exactly the contacts of testing every pair, so the two runs agree bit for bit
static int pile(int brute, double* q_out, int* ncontact, long* pairs_tested) {
    unsigned char bin[1024];
    const char* path = write_file("cube.stl", bin, cube_stl_binary(bin, 0.5));
    SNT_CHECK(path);
    char cube[256];
    snprintf(cube, sizeof cube, "%s", path);
    sn_world* w = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
    w->brute_force = brute;
    tc_seed(99);
    sn_system* s[40];
    for (int i = 0; i < 40; i++) {
        double size[3] = {0.1, 0.12, 0.08};
        switch (i % 5) {
        case 0:
            SNT_STATUS_OK(sn_world_add_sphere(w, 0.06, 1, &s[i]));
            break;
        case 1:
            SNT_STATUS_OK(sn_world_add_box(w, size, 1, &s[i]));
            break;
        case 2:
            SNT_STATUS_OK(sn_world_add_capsule(w, 0.04, 0.1, 1, &s[i]));
            break;
        case 3:
            SNT_STATUS_OK(sn_world_add_cylinder(w, 0.05, 0.1, 1, &s[i]));
            break;
        default:
            SNT_STATUS_OK(sn_world_add_mesh(w, cube, size, 1, &s[i]));
            break;
        }
    }
    for (int i = 0; i < 40; i++) {
        double q[7] = {tc_uniform(-0.5, 0.5), tc_uniform(-0.5, 0.5), 0.1 + 0.15 * i, 1, 0, 0, 0};
        double u[6] = {0, 0, 0, tc_uniform(-2, 2), tc_uniform(-2, 2), tc_uniform(-2, 2)};
        SNT_STATUS_OK(sn_system_set_state(s[i], q, 7, u, 6));
    }
    *ncontact = 0;
    for (int k = 0; k < 1500; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        for (int i = 0; i < 40; i++)
            *ncontact += sn_system_contact_count(s[i]);
    }
    for (int i = 0; i < 40; i++)
        memcpy(q_out + 7 * i, sn_system_q(s[i]), 7 * sizeof(double));
    *pairs_tested = w->nbp;
    sn_world_destroy(w);
    return 0;
}

static int test_broad_phase_finds_every_pair(void) {
    double qa[280], qb[280];
    int na, nb;
    long nbp;
    SNT_CHECK(pile(0, qa, &na, &nbp) == 0);
    SNT_CHECK(pile(1, qb, &nb, &nbp) == 0);
    double worst = 0, zmax = 0;
    for (int i = 0; i < 280; i++)
        worst = fmax(worst, fabs(qa[i] - qb[i]));
    for (int i = 0; i < 40; i++)
        zmax = fmax(zmax, qa[7 * i + 2]);
    printf("  40 bodies (%ld geometries), 1.5 s: %d contact-steps with the broad phase, %d testing "
           "every pair; states differ by %.1e; highest body at z = %.3f m\n",
           nbp, na, nb, worst, zmax);
    SNT_CHECK(na == nb && na > 0);
    SNT_CHECK(worst == 0);
    SNT_CHECK(zmax < 1); // the pile settled: nothing still falling from 6 m
    return 0;
}


static int cleanup(void) {
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        SNT_CHECK(system(cmd) == 0);
    }
    return 0;
}


SNT_SUITE(SNT_TEST(test_mesh_files_load), SNT_TEST(test_mesh_read_public),
          SNT_TEST(test_mesh_bad_files), SNT_TEST(test_mesh_cube_slides_like_box),
          SNT_TEST(test_mpr_matches_closed_forms), SNT_TEST(test_ball_rests_on_mesh_and_cylinder),
          SNT_TEST(test_cylinders_and_meshes_collide), SNT_TEST(test_faces_and_lines_rest),
          SNT_TEST(test_solo12_stands_on_mesh_feet), SNT_TEST(test_convex_hull),
          SNT_TEST(test_convex_hull_of_a_cad_part), SNT_TEST(test_ellipsoids_collide),
          SNT_TEST(test_free_mesh_body), SNT_TEST(test_broad_phase_finds_every_pair),
          SNT_TEST(cleanup))
