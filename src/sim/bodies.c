// SPDX-License-Identifier: Apache-2.0
// bodies.c: single free rigid bodies (sn_world_add_sphere, _box, _cylinder, _capsule, _mesh, and
// sn_world_add_body with given mass properties).
// Each is a one-link model: a spec with the link (its mass, centre of mass and inertia at
// uniform density) and one collision geometry, compiled as a floating body and owned by the
// world. The spec is the one the URDF reader fills from the equivalent file (link "body" in a
// model named "free body"), so the model is the one such a file gives (tests/test_free_bodies.c).
#include "math/massprop.h"
#include "math/sym3.h"
#include "model/hull.h"
#include "model/mesh.h"
#include "model/spec.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)


// a free body: its collision shape (an sn_geom_type, its size as in sn_model: a mesh's is its
// scale, and its file), mass, inertia about the centre of mass (xx, xy, xz, yy, yz, zz) and the
// centre of mass in the body frame
typedef struct free_body {
    int type;
    sn_real size[3];
    const char* mesh;
    sn_real mass;
    sn_real inertia[6];
    sn_real com[3];
} free_body;


// the checks the URDF reader makes of a link's inertia (its mass positive), with its messages:
// not positive definite is an error; outside the triangle inequality, singular or badly
// conditioned, a warning. issue 11: urdf.c's end_inertial makes the same checks; one check of a
// spec's link for both belongs with the compiler.
static sn_status check_inertia(sni_spec* s, const sni_link* l, sn_error* err) {
    sn_real ev[3];
    sni_sym3_eigenvalues(l->inertia, ev);
    sn_real scale = fabs(ev[2]) > 0 ? fabs(ev[2]) : 1;
    if (ev[0] < -1e-12 * scale)
        return sni_error(err, SN_ERR_MODEL, s->file, l->line, "inertia",
                         "in link 'body': inertia must be positive definite (eigenvalues %g %g %g)",
                         ev[0], ev[1], ev[2]);
    if (ev[0] + ev[1] < ev[2] * (1 - 1e-9))
        sni_spec_warn(s, l->line, "inertia",
                      "in link 'body': principal moments %g %g %g violate the triangle "
                      "inequality A + B >= C; kept as given (set balance_inertia to repair, "
                      "strict_inertia to refuse)",
                      ev[0], ev[1], ev[2]);
    if (ev[0] <= 1e-12 * scale) {
        sni_spec_warn(s, l->line, "inertia",
                      "in link 'body': inertia is singular (eigenvalues %g %g %g): a point or "
                      "rod mass",
                      ev[0], ev[1], ev[2]);
        return SN_OK;
    }
    if (ev[2] / ev[0] > 1e8)
        sni_spec_warn(s, l->line, "inertia",
                      "in link 'body': inertia is badly conditioned (eigenvalues %g .. %g)", ev[0],
                      ev[2]);
    return SN_OK;
}


// the spec of free body b: link "body" and its collision geometry, everything on line 1 (where a
// one-line URDF file puts them)
static sn_status fill_spec(sni_spec* s, const free_body* b, sn_error* err) {
    sni_link* l = sni_buf_grow(&s->links, sizeof *l);
    if (!l) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    memset(l, 0, sizeof *l);
    l->name = sni_spec_name(s, "body");
    l->line = 1;
    l->has_inertial = 1;
    l->inertial_line = 1;
    l->mass = b->mass;
    v3_copy(l->com, b->com);
    // the six moments as a symmetric matrix in the inertial frame (rpy 0 0 0), rotated into the
    // link frame as the URDF reader does (a rotation by the identity: it can only turn a -0 of
    // the mesh's products into +0, and keeps the model bit for bit the file's)
    sn_real raw[9], rot[9];
    static const int at[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (int k = 0; k < 6; k++) {
        int i = at[k][0], j = at[k][1];
        raw[3 * i + j] = raw[3 * j + i] = b->inertia[k];
    }
    rpy_to_m3(rot, 0, 0, 0);
    m3_rotate_sym(l->inertia, rot, raw);
    sn_status st = check_inertia(s, l, err);
    if (st != SN_OK) return st;
    sni_geom* g = sni_buf_grow(&s->geoms, sizeof *g);
    if (!g) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    memset(g, 0, sizeof *g);
    g->link = 0;
    g->line = 1;
    g->type = b->type;
    g->mesh = g->material = -1;
    g->friction = NAN; // a URDF geometry gives none
    m3_identity(g->rot);
    v3_copy(g->size, b->size);
    if (b->mesh) g->mesh = sni_spec_name(s, b->mesh);
    if (s->names.failed) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    return SN_OK;
}


// room for one more model owned by the world
static sn_status grow_owned(sn_world* w) {
    if (w->nowned < w->owned_cap) return SN_OK;
    int cap = w->owned_cap ? 2 * w->owned_cap : 8;
    sn_model** grown = sni_alloc(&w->alloc, (size_t)cap * sizeof *grown);
    if (!grown) return SET_ERR(w, SN_ERR_NOMEM, "out of memory");
    if (w->owned) memcpy(grown, w->owned, (size_t)w->nowned * sizeof *grown);
    sni_free(&w->alloc, w->owned, (size_t)w->owned_cap * sizeof *grown);
    w->owned = grown;
    w->owned_cap = cap;
    return SN_OK;
}


// spec s (filled with status st, its message in *e) compiled, owned by the world and added to
// it as *out; s freed
static sn_status compile_and_add(sn_world* w, sni_spec* s, sn_status st, sn_error* e,
                                 sn_system** out) {
    sn_model* m = NULL;
    if (st == SN_OK) st = grow_owned(w);
    if (st == SN_OK) st = sni_compile(s, &w->alloc, &m, e);
    sni_spec_free(s);
    if (st == SN_ERR_NOMEM && !e->msg[0]) return SN_ERR_NOMEM; // grow_owned said so
    if (st != SN_OK) return SET_ERR(w, st, "%s", e->msg);
    sn_error local;
    memset(&local, 0, sizeof local);
    st = sn_world_add_system(w, m, out, &local);
    if (st != SN_OK) {
        sn_model_destroy(m);
        return SET_ERR(w, st, "%s", local.msg);
    }
    w->owned[w->nowned++] = m;
    return SN_OK;
}


// free body b made into a model owned by the world, and added to it as *out
static sn_status add_free_body(sn_world* w, const free_body* b, sn_system** out) {
    if (!w) return SN_ERR_ARG;
    if (!out) return SET_ERR(w, SN_ERR_ARG, "a free body needs an output system pointer");
    *out = NULL;
    if (!(b->mass > 0) || !isfinite(b->mass))
        return SET_ERR(w, SN_ERR_ARG, "a free body needs a positive finite mass");
    for (int k = 0; k < 6; k++)
        if (!isfinite(b->inertia[k]))
            return SET_ERR(w, SN_ERR_ARG, "the free body's inertia is not finite");
    sni_spec s;
    sni_spec_init(&s, &w->alloc, "free body");
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = fill_spec(&s, b, &err);
    return compile_and_add(w, &s, st, &err, out);
}


sn_status sni_world_add_geom_body(sn_world* w, const char* name, sn_real mass, const sn_real* I,
                                  const sn_model* src, const int* geoms, const sn_real* pos,
                                  const sn_real* rot, int ngeom, sn_system** out) {
    *out = NULL;
    sni_spec s;
    sni_spec_init(&s, &w->alloc, "maximal body");
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = SN_OK;
    sni_link* l = sni_buf_grow(&s.links, sizeof *l);
    if (!l) st = sni_error(&err, SN_ERR_NOMEM, s.file, 0, "", "out of memory");
    if (l) {
        memset(l, 0, sizeof *l);
        l->name = sni_spec_name(&s, name && name[0] && strcmp(name, "world") ? name : "body");
        l->line = 1;
        l->has_inertial = 1;
        l->inertial_line = 1;
        l->mass = mass;
        memcpy(l->inertia, I, sizeof l->inertia);
    }
    for (int k = 0; st == SN_OK && k < ngeom; k++) {
        int i = geoms[k];
        sni_geom* g = sni_buf_grow(&s.geoms, sizeof *g);
        if (!g) {
            st = sni_error(&err, SN_ERR_NOMEM, s.file, 0, "", "out of memory");
            break;
        }
        memset(g, 0, sizeof *g);
        g->name = -1;
        g->link = 0;
        g->line = 1;
        g->type = src->geom_type[i];
        g->mesh = g->material = -1;
        g->friction = src->geom_friction[i];
        g->condim = src->geom_condim[i];
        memcpy(g->size, src->geom_size + 3 * i, sizeof g->size);
        memcpy(g->pos, pos + 3 * k, sizeof g->pos);
        memcpy(g->rot, rot + 9 * k, sizeof g->rot);
        if (src->geom_mesh[i] != SN_NONE)
            g->mesh = sni_spec_name(&s, src->names + src->geom_mesh[i]);
    }
    if (st == SN_OK && s.names.failed)
        st = sni_error(&err, SN_ERR_NOMEM, s.file, 0, "", "out of memory");
    return compile_and_add(w, &s, st, &err, out);
}


static int positive3(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i])) return 0;
    return 1;
}


sn_status sn_world_add_sphere(sn_world* w, sn_real radius, sn_real mass, sn_system** out) {
    if (out) *out = NULL;
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_sphere: out is NULL");
    if (!positive3(&radius, 1)) return SET_ERR(w, SN_ERR_ARG, "radius must be positive");
    sn_real i = 0.4 * mass * radius * radius;
    free_body b = {SN_GEOM_SPHERE, {radius, 0, 0}, NULL, mass, {i, 0, 0, i, 0, i}, {0, 0, 0}};
    return add_free_body(w, &b, out);
}


sn_status sn_world_add_box(sn_world* w, const sn_real size[3], sn_real mass, sn_system** out) {
    if (out) *out = NULL;
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!size) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_box: size is NULL");
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_box: out is NULL");
    if (!size || !positive3(size, 3)) return SET_ERR(w, SN_ERR_ARG, "box sizes must be positive");
    sn_real x = size[0] * size[0], y = size[1] * size[1], z = size[2] * size[2];
    free_body b = {SN_GEOM_BOX,
                   {size[0], size[1], size[2]},
                   NULL,
                   mass,
                   {mass * (y + z) / 12, 0, 0, mass * (x + z) / 12, 0, mass * (x + y) / 12},
                   {0, 0, 0}};
    return add_free_body(w, &b, out);
}


sn_status sn_world_add_cylinder(sn_world* w, sn_real radius, sn_real length, sn_real mass,
                                sn_system** out) {
    if (out) *out = NULL;
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_cylinder: out is NULL");
    sn_real d[2] = {radius, length};
    if (!positive3(d, 2)) return SET_ERR(w, SN_ERR_ARG, "radius and length must be positive");
    sn_real t = mass * (3 * radius * radius + length * length) / 12;
    free_body b = {SN_GEOM_CYLINDER,
                   {radius, length, 0},
                   NULL,
                   mass,
                   {t, 0, 0, t, 0, 0.5 * mass * radius * radius},
                   {0, 0, 0}};
    return add_free_body(w, &b, out);
}


sn_status sn_world_add_capsule(sn_world* w, sn_real radius, sn_real length, sn_real mass,
                               sn_system** out) {
    if (out) *out = NULL;
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_capsule: out is NULL");
    sn_real d[2] = {radius, length};
    if (!positive3(d, 2)) return SET_ERR(w, SN_ERR_ARG, "radius and length must be positive");
    // mass shared by volume between the cylinder and the two hemispheres
    sn_real r = radius, L = length, vc = r * r * L, vs = 4.0 / 3.0 * r * r * r;
    sn_real mc = mass * vc / (vc + vs), ms = mass - mc;
    sn_real izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
    sn_real ixx = mc * (3 * r * r + L * L) / 12 + ms * (0.4 * r * r + 0.25 * L * L + 0.375 * L * r);
    free_body b = {SN_GEOM_CAPSULE, {radius, length, 0}, NULL, mass, {ixx, 0, 0, ixx, 0, izz},
                   {0, 0, 0}};
    return add_free_body(w, &b, out);
}


// the solid hull of a mesh file's vertices at uniform density, as free body *b (its shape,
// scale, mass, inertia about its centroid and centroid)
static sn_status mesh_body(sn_world* w, const char* path, const sn_real* sc, sn_real mass,
                           free_body* b) {
    if (!path || !path[0])
        return SET_ERR(w, SN_ERR_ARG, "sn_world_add_mesh: no mesh file named (path is empty)");
    // refused since free bodies were written as URDF text (tests/test_mesh.c holds it)
    if (strpbrk(path, "\"<>&"))
        return SET_ERR(w, SN_ERR_ARG, "the mesh path '%s' holds one of \" < > &", path);
    if (!(mass > 0) || !isfinite(mass))
        return SET_ERR(w, SN_ERR_ARG, "sn_world_add_mesh: mass %g must be finite and > 0", mass);
    if (!positive3(sc, 3)) return SET_ERR(w, SN_ERR_ARG, "mesh scales must be positive");
    // the hull of the file's vertices, and the solid it bounds at uniform density
    sni_buf v = {NULL, 0, 0, &w->alloc, 0};
    char msg[600];
    int line = 0, *tri = NULL, ntri = 0;
    sn_status st = sni_mesh_read(path, sc, &w->alloc, &v, &line, msg, sizeof msg);
    if (st != SN_OK) {
        sni_buf_free(&v);
        return SET_ERR(w, st, "%s", msg);
    }
    int nv = (int)(v.len / (3 * sizeof(sn_real)));
    st = sni_hull((const sn_real*)(void*)v.data, nv, &w->alloc, &tri, &ntri);
    sni_massprop mp;
    memset(&mp, 0, sizeof mp);
    if (st == SN_OK) sni_massprop_add_indexed(&mp, (const sn_real*)(void*)v.data, tri, ntri);
    sn_real vol = mp.volume, com[3], I[9];
    sni_massprop_centroid(&mp, com);
    sni_free(&w->alloc, tri, (size_t)ntri * 3 * sizeof(int));
    sni_buf_free(&v);
    if (st == SN_ERR_NOMEM) return SET_ERR(w, st, "out of memory");
    if (st != SN_OK || !(vol > 0))
        return SET_ERR(w, SN_ERR_MODEL, "%s: the mesh is flat; a free body needs a solid hull",
                       path);
    sni_massprop_inertia(&mp, com, mass / vol, I);
    free_body fb = {SN_GEOM_MESH,
                    {sc[0], sc[1], sc[2]},
                    path,
                    mass,
                    {I[0], I[1], I[2], I[4], I[5], I[8]},
                    {com[0], com[1], com[2]}};
    *b = fb;
    return SN_OK;
}


sn_status sn_world_add_mesh(sn_world* w, const char* path, const sn_real scale[3], sn_real mass,
                            sn_system** out) {
    if (out) *out = NULL;
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!path) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_mesh: path is NULL");
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_mesh: out is NULL");
    sn_real one[3] = {1, 1, 1};
    free_body b;
    sn_status st = mesh_body(w, path, scale ? scale : one, mass, &b);
    if (st != SN_OK) return st;
    return add_free_body(w, &b, out);
}


static int all_zero(const sn_real* x, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] != 0) return 0;
    return 1;
}


sn_status sn_world_add_body(sn_world* w, const sn_body_desc* d, sn_system** out) {
    if (out) *out = NULL;
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!d) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_body: desc is NULL");
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_add_body: out is NULL");
    if (!d) return SET_ERR(w, SN_ERR_ARG, "sn_world_add_body needs a body description");
    if (!(d->mass > 0) || !isfinite(d->mass))
        return SET_ERR(w, SN_ERR_ARG, "a free body needs a positive finite mass (mass %g)",
                       d->mass);
    for (int k = 0; k < 3; k++)
        if (!isfinite(d->com[k]))
            return SET_ERR(w, SN_ERR_ARG, "the free body's centre of mass is not finite");
    for (int k = 0; k < 6; k++)
        if (!isfinite(d->inertia[k]))
            return SET_ERR(w, SN_ERR_ARG, "the free body's inertia is not finite");
    // the shape, and its uniform inertia about its centre (the default)
    const sn_real* z = d->size;
    sn_real m = d->mass, x2 = z[0] * z[0], y2 = z[1] * z[1], z2 = z[2] * z[2];
    free_body b = {d->shape, {z[0], z[1], z[2]}, NULL, m, {0, 0, 0, 0, 0, 0}, {0, 0, 0}};
    switch (d->shape) {
    case SN_GEOM_BOX:
        if (!positive3(z, 3))
            return SET_ERR(w, SN_ERR_ARG, "box sizes must be positive (%g %g %g)", z[0], z[1],
                           z[2]);
        b.inertia[0] = m * (y2 + z2) / 12, b.inertia[3] = m * (x2 + z2) / 12;
        b.inertia[5] = m * (x2 + y2) / 12;
        break;
    case SN_GEOM_SPHERE:
        if (!positive3(z, 1)) return SET_ERR(w, SN_ERR_ARG, "radius must be positive (%g)", z[0]);
        b.size[1] = b.size[2] = 0;
        b.inertia[0] = b.inertia[3] = b.inertia[5] = 0.4 * m * x2;
        break;
    case SN_GEOM_ELLIPSOID:
        if (!positive3(z, 3))
            return SET_ERR(w, SN_ERR_ARG, "ellipsoid semi-axes must be positive (%g %g %g)", z[0],
                           z[1], z[2]);
        b.inertia[0] = m * (y2 + z2) / 5, b.inertia[3] = m * (x2 + z2) / 5;
        b.inertia[5] = m * (x2 + y2) / 5;
        break;
    case SN_GEOM_CYLINDER:
    case SN_GEOM_CAPSULE: {
        if (!positive3(z, 2))
            return SET_ERR(w, SN_ERR_ARG, "radius and length must be positive (%g %g)", z[0], z[1]);
        b.size[2] = 0;
        sn_real r = z[0], L = z[1];
        if (d->shape == SN_GEOM_CYLINDER) {
            b.inertia[0] = b.inertia[3] = m * (3 * r * r + L * L) / 12;
            b.inertia[5] = 0.5 * m * r * r;
        } else {
            sn_real vc = r * r * L, vs = 4.0 / 3.0 * r * r * r;
            sn_real mc = m * vc / (vc + vs), ms = m - mc;
            b.inertia[5] = 0.5 * mc * r * r + 0.4 * ms * r * r;
            b.inertia[0] = b.inertia[3] =
                mc * (3 * r * r + L * L) / 12 + ms * (0.4 * r * r + 0.25 * L * L + 0.375 * L * r);
        }
        break;
    }
    case SN_GEOM_MESH: {
        sn_real one[3] = {1, 1, 1};
        sn_status st = mesh_body(w, d->mesh, all_zero(z, 3) ? one : z, m, &b);
        if (st != SN_OK) return st;
        if (!all_zero(d->inertia, 6) || !all_zero(d->com, 3)) v3_copy(b.com, d->com);
        break;
    }
    default:
        return SET_ERR(w, SN_ERR_ARG,
                       "unknown free-body shape %d (SN_GEOM_BOX, _SPHERE, _CYLINDER, _CAPSULE, "
                       "_ELLIPSOID or _MESH)",
                       d->shape);
    }
    if (d->shape != SN_GEOM_MESH) v3_copy(b.com, d->com);
    if (!all_zero(d->inertia, 6)) {
        // the given inertia: positive definite, its principal moments A <= B <= C with A + B >= C
        const sn_real* I = d->inertia;
        sn_real full[9] = {I[0], I[1], I[2], I[1], I[3], I[4], I[2], I[4], I[5]}, ev[3];
        sni_sym3_eigenvalues(full, ev);
        if (!(ev[0] > 1e-12 * fabs(ev[2])))
            return SET_ERR(w, SN_ERR_ARG,
                           "the free body's inertia is not positive definite (principal moments "
                           "%g %g %g)",
                           ev[0], ev[1], ev[2]);
        if (ev[0] + ev[1] < ev[2] * (1 - 1e-9))
            return SET_ERR(w, SN_ERR_ARG,
                           "the free body's principal moments %g %g %g break the triangle "
                           "inequality A + B >= C (no rigid body has them)",
                           ev[0], ev[1], ev[2]);
        memcpy(b.inertia, I, sizeof b.inertia);
    }
    return add_free_body(w, &b, out);
}
