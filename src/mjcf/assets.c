// SPDX-License-Identifier: Apache-2.0
// assets.c: the MJCF <asset> section and the solids its meshes enclose. <asset><mesh> names a
// mesh file (OBJ, STL; under <compiler meshdir>) or gives its vertices (and faces) inline; a mesh
// geom's mass is the exact inertia of the closed surface's solid (an inline mesh without faces:
// its convex hull, as MuJoCo 2.2.2 makes it). Textures, materials and height fields are
// MuJoCo's rendering and are listed as not read.
#include "math/massprop.h"
#include "mjcf/mjcf.h"
#include "model/hull.h"
#include "model/mesh.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

// ---- mesh solids ----

// the solid a closed triangle mesh encloses (ntri triangles, 9 numbers each), at unit density:
// volume, centroid and inertia about the centroid, in the mesh's frame (math/massprop.c); 0 when
// it encloses no volume
static int mesh_solid(const sn_real* tri, size_t ntri, sn_real* vol, sn_real* com, sn_real* I) {
    sni_massprop mp;
    memset(&mp, 0, sizeof mp);
    sni_massprop_add_corners(&mp, tri, ntri);
    if (!(mp.volume > 0)) return 0;
    sni_massprop_centroid(&mp, com);
    sni_massprop_inertia(&mp, com, 1, I);
    *vol = mp.volume;
    return 1;
}

const mesh_rec* sni_mjcf_mesh_find(loader* L, const char* name) {
    const mesh_rec* m = (const mesh_rec*)L->meshes.data;
    int n = (int)(L->meshes.len / sizeof(mesh_rec));
    for (int i = 0; i < n; i++)
        if (!strcmp(STR(L->r, m[i].name), name)) return &m[i];
    return NULL;
}

// the numbers of a list attribute: *n of them, in an array of *cap allocated with the reader's
// allocator; NULL after a failure
static sn_real* real_list(loader* L, int node, const char* name, const char* v, int* n,
                          int* cap_out) {
    reader* r = L->r;
    size_t cap = strlen(v) / 2 + 1;
    if (cap > (1u << 24)) {
        sni_mjcf_fail(r, node, SN_ERR_LIMIT, ename(r, node), "attribute %s has too many numbers",
                      name);
        return NULL;
    }
    sn_real* x = sni_alloc(r->a, cap * sizeof(sn_real));
    if (!x) {
        sni_mjcf_fail(r, node, SN_ERR_NOMEM, ename(r, node), "out of memory");
        return NULL;
    }
    sni_num_result res = sni_parse_real_list(v, x, (int)cap, n);
    if (res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) {
        sni_mjcf_fail(r, node, SN_ERR_PARSE, ename(r, node), "attribute %s=\"%.60s\" %s", name, v,
                      sni_num_result_str(res));
        sni_free(r->a, x, cap * sizeof(sn_real));
        return NULL;
    }
    *cap_out = (int)cap;
    return x;
}

// the triangles (9 numbers each) of a mesh given inline: its vertex list, scaled, and its faces,
// or their convex hull when it has none (as MuJoCo 2.2.2 makes it)
static int inline_triangles(loader* L, const mesh_rec* mr, sni_buf* out) {
    reader* r = L->r;
    int k = mr->node, cls = sni_mjcf_class_of(L, k, L->main_class);
    const char* vs = sni_mjcf_attr_of(L, k, cls, "vertex");
    const char* fs = sni_mjcf_attr_of(L, k, cls, "face");
    int nv = 0, nf = 0, capv = 0, capf = 0, ntri = 0, st = -1;
    sn_real *v = NULL, *f = NULL;
    int* tri = NULL;
    if (!vs) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "mesh", "mesh '%s' has neither a file nor vertices",
                      STR(r, mr->name));
        return -1;
    }
    v = real_list(L, k, "vertex", vs, &nv, &capv);
    if (!v) return -1;
    if (nv % 3 || nv < 12) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "mesh",
                      "mesh '%s': vertex has %d numbers (x y z triples, at "
                      "least four points)",
                      STR(r, mr->name), nv);
        goto done;
    }
    nv /= 3;
    for (int i = 0; i < nv; i++)
        for (int c = 0; c < 3; c++)
            v[3 * i + c] *= mr->scale[c];
    if (fs) {
        f = real_list(L, k, "face", fs, &nf, &capf);
        if (!f) goto done;
        if (nf % 3) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "mesh",
                          "mesh '%s': face has %d numbers (index triples)", STR(r, mr->name), nf);
            goto done;
        }
        for (int i = 0; i < nf; i++)
            if (f[i] != floor(f[i]) || f[i] < 0 || f[i] >= nv) {
                sni_mjcf_fail(r, k, SN_ERR_MODEL, "mesh",
                              "mesh '%s': face index %g is not one of the "
                              "%d vertices",
                              STR(r, mr->name), f[i], nv);
                goto done;
            }
        for (int t = 0; t < nf / 3; t++)
            for (int c = 0; c < 3; c++)
                if (sni_buf_push(out, v + 3 * (int)f[3 * t + c], 3 * sizeof(sn_real)) < 0) {
                    sni_mjcf_fail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
                    goto done;
                }
    } else {
        sn_status hs = sni_hull(v, nv, r->a, &tri, &ntri);
        if (hs != SN_OK) {
            sni_mjcf_fail(r, k, hs, "mesh", "mesh '%s': %s", STR(r, mr->name),
                          hs == SN_ERR_NOMEM
                              ? "out of memory"
                              : "its vertices are flat, collinear or fewer than four");
            goto done;
        }
        for (int t = 0; t < 3 * ntri; t++)
            if (sni_buf_push(out, v + 3 * tri[t], 3 * sizeof(sn_real)) < 0) {
                sni_mjcf_fail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
                goto done;
            }
    }
    st = 0;
done:
    sni_free(r->a, v, (size_t)capv * sizeof(sn_real));
    if (f) sni_free(r->a, f, (size_t)capf * sizeof(sn_real));
    if (tri) sni_free(r->a, tri, (size_t)ntri * 3 * sizeof(int));
    return st;
}

// a mesh geom's solid (mesh_solid): 1, or 0 when it adds no mass (its file is absent, with a
// warning), -1 on error
int sni_mjcf_mesh_mass(loader* L, int k, int cls, long link_name, sn_real* vol, sn_real* com,
                       sn_real* I) {
    reader* r = L->r;
    const char* mn = sni_mjcf_attr_of(L, k, cls, "mesh");
    const mesh_rec* mr = mn ? sni_mjcf_mesh_find(L, mn) : NULL;
    if (!mr) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "geom", mn ? "mesh '%s' is not an <asset><mesh>" : "%s",
                      mn ? mn : "a mesh geom needs a mesh attribute");
        return -1;
    }
    sni_buf tri = {NULL, 0, 0, r->a, 0};
    if (mr->path < 0) {
        if (inline_triangles(L, mr, &tri) < 0) {
            sni_buf_free(&tri);
            return -1;
        }
    } else {
        const char* path = STR(r, mr->path);
        struct stat sb;
        if (stat(path, &sb) != 0) {
            sni_mjcf_warn(r, k, "geom",
                          "mesh file '%s' is absent: the geom adds no mass to body '%s'", path,
                          r->s->names.data + link_name);
            return 0;
        }
        int line = 0;
        char msg[512];
        sn_status st = sni_mesh_read_triangles(path, mr->scale, r->a, &tri, &line, msg, sizeof msg);
        if (st != SN_OK) {
            sni_mjcf_fail(r, k, st, "geom", "mesh '%s': %s", mn, msg);
            sni_buf_free(&tri);
            return -1;
        }
    }
    int ok =
        mesh_solid((const sn_real*)(void*)tri.data, tri.len / (9 * sizeof(sn_real)), vol, com, I);
    sni_buf_free(&tri);
    if (!ok) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "geom",
                      "mesh '%s' encloses no volume (open or inside-out): it cannot give body '%s' "
                      "mass; give the body an <inertial>",
                      mn, r->s->names.data + link_name);
        return -1;
    }
    if (!L->mesh_mass_warned) {
        L->mesh_mass_warned = 1;
        sni_mjcf_warn(r, k, "geom",
                      "mass from mesh geoms is the exact inertia of the solid each mesh encloses "
                      "(MuJoCo 2.2.2 computes it so with <compiler exactmeshinertia=\"true\">, and "
                      "approximates it otherwise)");
    }
    return 1;
}

// ---- <asset> ----

// <asset><mesh name file scale class>: the meshes geoms refer to (textures, materials and
// height fields are MuJoCo's rendering and are not read)
void sni_mjcf_assets(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        if (strcmp(ename(r, k), "mesh")) {
            char what[96];
            snprintf(what, sizeof what, "asset %s", ename(r, k));
            sni_mjcf_note_ignored(r, what);
            continue;
        }
        int cls = sni_mjcf_class_of(L, k, L->main_class);
        static const char* const mesh_read[] = {"name",   "class", "file", "scale",
                                                "vertex", "face",  NULL};
        sni_mjcf_list_unread(L, k, cls, mesh_read);
        const char* file = sni_mjcf_attr_of(L, k, cls, "file");
        if (!file && !get(r, k, "name")) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "mesh", "a mesh without a file needs a name");
            return;
        }
        mesh_rec* m = sni_buf_grow(&L->meshes, sizeof(mesh_rec));
        if (!m) {
            sni_mjcf_fail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
            return;
        }
        memset(m, 0, sizeof *m);
        m->line = NODE(r, k).line;
        m->node = k;
        m->path = -1;
        v3_set(m->scale, 1, 1, 1);
        if (sni_mjcf_reals(L, k, cls, "scale", m->scale, 3) < 0) return;
        // `file` and the name attribute point into the string pool, which moves when a string is
        // added: the path is built and the name's offset taken before any string is added
        const char* nm = get(r, k, "name");
        char path[2048], name[256];
        if (file) {
            const char* dir = r->dir && r->meshdir[0] != '/' ? r->dir : "";
            if (file[0] == '/')
                snprintf(path, sizeof path, "%s", file);
            else
                snprintf(path, sizeof path, "%s%s%s%s%s", dir, dir[0] ? "/" : "", r->meshdir,
                         r->meshdir[0] ? "/" : "", file);
        }
        if (!nm) {
            // the file's base name without its extension
            const char* b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
            snprintf(name, sizeof name, "%s", b);
            char* dot = strrchr(name, '.');
            if (dot) *dot = 0;
        }
        m->name = nm ? (long)(nm - r->pool.data) : sni_mjcf_pool_add(r, name);
        if (file) m->path = sni_mjcf_pool_add(r, path);
        if (r->pool.failed) sni_mjcf_fail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
    }
}
