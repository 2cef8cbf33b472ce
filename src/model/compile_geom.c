// SPDX-License-Identifier: Apache-2.0
// compile_geom.c: geometry of the model. The collision meshes are read (OBJ or STL) and reduced
// to their convex hull's vertices before the model's block is sized; materials are resolved by
// name (a <visual>'s named material refers to the top-level definition or defines it) and the
// geometries copied.
#include "base/smath.h"
#include "model/compile.h"
#include "model/hull.h"
#include "model/mesh.h"

#include <string.h>

// the vertices of every collision mesh, read before the model's block is sized: adr[g] and
// num[g] locate geometry g's vertices in verts. A file that is missing or in a format sinew does
// not read is warned about (its geometry never collides); a malformed one is an error.
sn_status sni_compile_meshes(compiler* c, sni_buf* verts, int* adr, int* num) {
    const sni_geom* g = (const sni_geom*)c->s->geoms.data;
    for (int i = 0; i < SNI_NGEOM(c->s); i++) {
        adr[i] = SN_NONE, num[i] = 0;
        if (g[i].type != SN_GEOM_MESH || g[i].is_visual || g[i].mesh < 0) continue;
        const char* path = SNI_NAME(c->s, g[i].mesh);
        char msg[600];
        int line = 0;
        size_t before = verts->len / (3 * sizeof(sn_real));
        sn_status st = sni_mesh_read(path, g[i].size, c->alloc, verts, &line, msg, sizeof msg);
        if (st == SN_ERR_IO || st == SN_ERR_MODEL) {
            sni_spec_warn(c->s, g[i].line, "collision", "%s: the geometry does not collide", msg);
            continue;
        }
        if (st != SN_OK) return sni_compile_error(c, st, g[i].line, "mesh", "%s", msg);
        // keep the hull's vertices only (a flat or collinear mesh keeps all of its own)
        sn_real* v = (sn_real*)(void*)(verts->data) + 3 * before;
        int nv = (int)(verts->len / (3 * sizeof(sn_real)) - before), *tri = NULL, ntri = 0;
        st = sni_hull(v, nv, c->alloc, &tri, &ntri);
        if (st == SN_ERR_NOMEM) return sni_compile_error(c, st, g[i].line, "mesh", "out of memory");
        if (st == SN_OK) {
            char* on = sni_alloc(c->alloc, (size_t)nv);
            if (!on) {
                sni_free(c->alloc, tri, (size_t)ntri * 3 * sizeof(int));
                return sni_compile_error(c, SN_ERR_NOMEM, g[i].line, "mesh", "out of memory");
            }
            memset(on, 0, (size_t)nv);
            for (int k = 0; k < 3 * ntri; k++)
                on[tri[k]] = 1;
            int kept = 0;
            for (int k = 0; k < nv; k++)
                if (on[k]) memmove(v + 3 * kept++, v + 3 * k, 3 * sizeof(sn_real));
            verts->len = (before + (size_t)kept) * 3 * sizeof(sn_real);
            sni_free(c->alloc, on, (size_t)nv);
            sni_free(c->alloc, tri, (size_t)ntri * 3 * sizeof(int));
        }
        size_t after = verts->len / (3 * sizeof(sn_real));
        if (after > (size_t)SNI_MESH_MAX_VERTICES * 16)
            return sni_compile_error(c, SN_ERR_LIMIT, g[i].line, "mesh",
                                     "the collision meshes hold more than %d vertices in all",
                                     SNI_MESH_MAX_VERTICES * 16);
        adr[i] = (int)before, num[i] = (int)(after - before);
    }
    return SN_OK;
}

// materials and geometries. Top-level <material> definitions must be unique; a named material
// inside a <visual> refers to the definition of that name (wherever it is in the file) or, when
// there is none, defines it at its first use. Names are found through a hash table.
sn_status sni_compile_geoms(compiler* c, sn_model* m) {
    const sni_geom* g = (const sni_geom*)c->s->geoms.data;
    const sni_material* mt = (const sni_material*)c->s->materials.data;
    int ns = SNI_NMAT(c->s), nm = 0;
    name_table t;
    if (sni_compile_table_init(&t, c->alloc, ns) != SN_OK)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    size_t bytes = (size_t)(ns ? ns : 1) * 2 * sizeof(int);
    int* id = sni_alloc(c->alloc, bytes); // model material of each spec material
    int* defined = id + (ns ? ns : 1);    // per model material: line of its definition, or 0
    if (!id) {
        sni_compile_table_free(&t);
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    }
    sn_status st = SN_OK;
    for (int i = 0; i < ns && st == SN_OK; i++) {
        const char* name = SNI_NAME(c->s, mt[i].name);
        int first = sni_compile_table_find(&t, c->s->names.data, &mt[0].name, sizeof(sni_material),
                                           name, i);
        if (first < 0) {
            // first use of the name
            id[i] = nm;
            defined[nm] = mt[i].line > 0 ? mt[i].line : 0;
            m->material_name[nm] = (int)mt[i].name;
            memcpy(m->material_rgba + 4 * nm, mt[i].rgba, sizeof mt[i].rgba);
            nm++;
            continue;
        }
        id[i] = id[first];
        if (mt[i].line < 0) continue; // a reference from a <visual>
        // a top-level definition: only one per name; it sets the colour of earlier inline uses
        if (defined[id[i]])
            st = sni_compile_error(c, SN_ERR_MODEL, mt[i].line, "material",
                                   "material '%s' is not unique "
                                   "(first at line %d)",
                                   name, defined[id[i]]);
        defined[id[i]] = mt[i].line;
        memcpy(m->material_rgba + 4 * id[i], mt[i].rgba, sizeof mt[i].rgba);
    }
    m->nmaterial = nm;
    for (int i = 0; i < m->ngeom && st == SN_OK; i++) {
        m->geom_type[i] = g[i].type;
        m->geom_frame[i] = g[i].link;
        m->geom_is_visual[i] = g[i].is_visual;
        m->geom_mesh[i] = g[i].mesh >= 0 ? (int)g[i].mesh : SN_NONE;
        m->geom_friction[i] = g[i].friction;
        m->geom_condim[i] = g[i].condim;
        m->geom_material[i] = SN_NONE;
        if (g[i].material >= 0) {
            int k = sni_compile_table_find(&t, c->s->names.data, &mt[0].name, sizeof(sni_material),
                                           SNI_NAME(c->s, g[i].material), -1);
            if (k >= 0) m->geom_material[i] = id[k];
        }
        v3_copy(m->geom_size + 3 * i, g[i].size);
        v3_copy(m->geom_pos + 3 * i, g[i].pos);
        memcpy(m->geom_rot + 9 * i, g[i].rot, sizeof g[i].rot);
    }
    sni_free(c->alloc, id, bytes);
    sni_compile_table_free(&t);
    return st;
}
