// SPDX-License-Identifier: Apache-2.0
// mesh.c: reading mesh files: Wavefront OBJ ("v x y z" and "f" lines) and STL, binary or ASCII
// (a binary file may begin with "solid" too: the size decides). One reader gives the file's
// vertices in order and, when asked, its triangles as index triples (an STL's corners in
// threes); on it stand the three views the library uses: the distinct vertices of a collision
// mesh (its convex hull is what collides: faces, normals and texture coordinates are not read),
// the triangles of a closed surface as corner triples (MJCF mesh inertia), and the indexed mesh
// of the public sn_mesh_read (the replay draws visual meshes with it).
#include "model/mesh.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static sn_status mesh_fail(char* msg, size_t len, sn_status code, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
static sn_status mesh_fail(char* msg, size_t len, sn_status code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return code;
}


static int push_vertex(sni_buf* b, const sn_real* v, const sn_real* scale) {
    sn_real x[3] = {v[0] * scale[0], v[1] * scale[1], v[2] * scale[2]};
    return sni_buf_push(b, x, sizeof x) >= 0;
}


// the next line of text: [*pos, end of line), NUL-terminated in place
static char* next_line(char* data, size_t n, size_t* pos) {
    if (*pos >= n) return NULL;
    char* s = data + *pos;
    char* e = memchr(s, '\n', n - *pos);
    size_t l = e ? (size_t)(e - s) : n - *pos;
    *pos += l + 1;
    s[l] = 0;
    if (l && s[l - 1] == '\r') s[l - 1] = 0;
    return s;
}


// the vertex lines of a text format: OBJ "v x y z [w | r g b]" (3 to 7 numbers), ASCII STL
// "vertex x y z" (3); everything else (faces, normals, comments, facets) is skipped
static sn_status read_text(char* data, size_t n, const char* path, const sn_real* scale,
                           sni_buf* out, int* line, char* msg, size_t len, int obj) {
    const char* key = obj ? "v" : "vertex";
    size_t kl = strlen(key);
    size_t pos = 0;
    char* s;
    for (*line = 1; (s = next_line(data, n, &pos)); ++*line) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, key, kl) != 0 || (s[kl] != ' ' && s[kl] != '\t')) continue;
        sn_real v[7];
        int count = 0;
        sni_num_result r = sni_parse_real_list(s + kl + 1, v, obj ? 7 : 3, &count);
        if ((r != SNI_NUM_OK && r != SNI_NUM_UNDERFLOW) || count < 3)
            return mesh_fail(msg, len, SN_ERR_PARSE, "%s:%d: '%s' needs three numbers: %s", path,
                             *line, key, r != SNI_NUM_OK ? sni_num_result_str(r) : "too few");
        if (!push_vertex(out, v, scale))
            return mesh_fail(msg, len, SN_ERR_NOMEM, "out of memory reading '%s'", path);
    }
    *line = 0;
    return SN_OK;
}


static float le_float(const unsigned char* p) {
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}


static sn_status read_stl_binary(const unsigned char* data, size_t ntri, const char* path,
                                 const sn_real* scale, sni_buf* out, char* msg, size_t len) {
    for (size_t t = 0; t < ntri; t++) {
        const unsigned char* tri = data + 84 + 50 * t + 12; // after the facet normal
        for (int k = 0; k < 3; k++) {
            sn_real v[3];
            for (int i = 0; i < 3; i++) {
                v[i] = le_float(tri + 12 * k + 4 * i);
                if (!isfinite(v[i]))
                    return mesh_fail(msg, len, SN_ERR_PARSE,
                                     "%s: triangle %zu has a non-finite coordinate", path, t);
            }
            if (!push_vertex(out, v, scale))
                return mesh_fail(msg, len, SN_ERR_NOMEM, "out of memory reading '%s'", path);
        }
    }
    return SN_OK;
}


static int cmp_vertex(const void* a, const void* b) {
    const sn_real* x = a;
    const sn_real* y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}


static int ends_with(const char* s, const char* ext) {
    size_t n = strlen(s), k = strlen(ext);
    if (n < k) return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != ext[i]) return 0;
    }
    return 1;
}


int sni_mesh_supported(const char* path) {
    return ends_with(path, ".obj") || ends_with(path, ".stl");
}


// OBJ with its faces: the 'v' lines (appended to verts), then each 'f' line (indices "i", "i/t",
// "i/t/n", "i//n", negative ones counted back from the last vertex) fanned into triangles,
// appended to tris as int index triples counted from this file's first vertex
static sn_status read_obj_faces(char* data, size_t n, const char* path, const sn_real* scale,
                                sni_buf* verts, sni_buf* tris, int* line, char* msg, size_t len) {
    size_t first_vert = verts->len;
    sn_status st = SN_OK;
    size_t pos = 0;
    char* s;
    for (*line = 1; st == SN_OK && (s = next_line(data, n, &pos)); ++*line) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
            sn_real v[7];
            int count = 0;
            sni_num_result r = sni_parse_real_list(s + 2, v, 7, &count);
            if ((r != SNI_NUM_OK && r != SNI_NUM_UNDERFLOW) || count < 3)
                st = mesh_fail(msg, len, SN_ERR_PARSE, "%s:%d: 'v' needs three numbers", path,
                               *line);
            else if (!push_vertex(verts, v, scale))
                st = mesh_fail(msg, len, SN_ERR_NOMEM, "out of memory reading '%s'", path);
            continue;
        }
        if (s[0] != 'f' || (s[1] != ' ' && s[1] != '\t')) continue;
        long nv = (long)((verts->len - first_vert) / (3 * sizeof(sn_real))), first = -1, prev = -1;
        char* t = s + 2;
        for (int k = 0; st == SN_OK; k++) {
            while (*t == ' ' || *t == '\t')
                t++;
            if (!*t) break;
            char* end;
            long i = strtol(t, &end, 10);
            // (compared without negating i: an index past the range of long is LONG_MIN)
            if (end == t || i == 0 || (i > 0 ? i > nv : i < -nv)) {
                st = mesh_fail(msg, len, SN_ERR_PARSE, "%s:%d: a face refers to no vertex", path,
                               *line);
                break;
            }
            i = i > 0 ? i - 1 : nv + i;
            while (*end && *end != ' ' && *end != '\t')
                end++;
            t = end;
            if (k == 0) first = i;
            if (k >= 2) {
                int tri[3] = {(int)first, (int)prev, (int)i};
                if (sni_buf_push(tris, tri, sizeof tri) < 0)
                    st = mesh_fail(msg, len, SN_ERR_NOMEM, "out of memory reading '%s'", path);
            }
            prev = i;
        }
    }
    // the line of a failure (the loop counted one past it), else 0
    *line = st == SN_OK ? 0 : *line - 1;
    return st;
}


// the mesh file's vertices, scaled, in the file's order (an STL's three per triangle), appended
// to verts; with tris (nullable) its triangles too, as int index triples counted from the first
// vertex appended (an STL's are 0 1 2, 3 4 5, ...). Without tris an OBJ's faces are not read.
// On error verts and tris are left as they were
static sn_status read_mesh_file(const char* path, const sn_real* scale, const sn_allocator* a,
                                sni_buf* verts, sni_buf* tris, int* line, char* msg, size_t len) {
    *line = 0;
    msg[0] = 0;
    int obj = ends_with(path, ".obj");
    if (!obj && !ends_with(path, ".stl")) {
        const char* dot = strrchr(path, '.');
        return mesh_fail(msg, len, SN_ERR_MODEL,
                         "mesh format '%s' of '%s' is not read (OBJ and STL are)",
                         dot ? dot : "(none)", path);
    }
    size_t n = 0;
    char* data = NULL;
    sn_error e;
    sn_status st = sni_read_file(path, SNI_MESH_MAX_BYTES, NULL, a, &data, &n, &e);
    if (st != SN_OK) return mesh_fail(msg, len, st, "%s", e.msg);
    size_t vstart = verts->len, tstart = tris ? tris->len : 0;
    if (obj && tris) {
        st = read_obj_faces(data, n, path, scale, verts, tris, line, msg, len);
    } else if (obj) {
        st = read_text(data, n, path, scale, verts, line, msg, len, 1);
    } else {
        // binary when the size matches its triangle count (ASCII files may not begin with "solid")
        size_t ntri = n >= 84 ? (size_t)((const unsigned char*)data)[80] |
                                    (size_t)((const unsigned char*)data)[81] << 8 |
                                    (size_t)((const unsigned char*)data)[82] << 16 |
                                    (size_t)((const unsigned char*)data)[83] << 24
                              : 0;
        if (n >= 84 && ntri <= (n - 84) / 50 && 84 + 50 * ntri == n)
            st = read_stl_binary((const unsigned char*)data, ntri, path, scale, verts, msg, len);
        else if (n >= 5 && !strncmp(data, "solid", 5))
            st = read_text(data, n, path, scale, verts, line, msg, len, 0);
        else
            st = mesh_fail(msg, len, SN_ERR_PARSE,
                           "%s: neither ASCII STL (no 'solid') nor binary STL (%zu bytes do not "
                           "hold 84 + 50 x %zu)",
                           path, n, ntri);
        // an STL's triangles: its corners in threes
        size_t nc = (verts->len - vstart) / (3 * sizeof(sn_real));
        if (st == SN_OK && tris && nc % 3)
            st = mesh_fail(msg, len, SN_ERR_PARSE, "%s: vertices are not in triples", path);
        for (size_t c = 0; st == SN_OK && tris && c < nc; c++) {
            int i = (int)c;
            if (sni_buf_push(tris, &i, sizeof i) < 0) break;
        }
    }
    sni_free(a, data, n + 1);
    if (st == SN_OK && (verts->failed || (tris && tris->failed)))
        st = mesh_fail(msg, len, SN_ERR_NOMEM, "out of memory reading '%s'", path);
    if (st != SN_OK) {
        verts->len = vstart;
        if (tris) tris->len = tstart;
    }
    return st;
}


sn_status sni_mesh_read(const char* path, const sn_real* scale, const sn_allocator* a, sni_buf* out,
                        int* line, char* msg, size_t len) {
    size_t start = out->len;
    sn_status st = read_mesh_file(path, scale, a, out, NULL, line, msg, len);
    if (st != SN_OK) return st;
    // distinct vertices only
    size_t nv = (out->len - start) / (3 * sizeof(sn_real));
    if (nv == 0) return mesh_fail(msg, len, SN_ERR_PARSE, "%s: the mesh has no vertices", path);
    sn_real* v = (sn_real*)(void*)(out->data + start);
    qsort(v, nv, 3 * sizeof(sn_real), cmp_vertex);
    size_t k = 1;
    for (size_t i = 1; i < nv; i++)
        if (cmp_vertex(v + 3 * i, v + 3 * (k - 1)))
            memmove(v + 3 * k++, v + 3 * i, 3 * sizeof(sn_real));
    if (k > SNI_MESH_MAX_VERTICES) {
        out->len = start;
        return mesh_fail(msg, len, SN_ERR_LIMIT, "%s: %zu distinct vertices (at most %d)", path, k,
                         SNI_MESH_MAX_VERTICES);
    }
    out->len = start + k * 3 * sizeof(sn_real);
    return SN_OK;
}


sn_status sni_mesh_read_triangles(const char* path, const sn_real* scale, const sn_allocator* a,
                                  sni_buf* out, int* line, char* msg, size_t len) {
    sni_buf verts = {NULL, 0, 0, a, 0}, tris = {NULL, 0, 0, a, 0};
    sn_status st = read_mesh_file(path, scale, a, &verts, &tris, line, msg, len);
    size_t ntri = tris.len / (3 * sizeof(int));
    if (st == SN_OK && ntri == 0)
        st = mesh_fail(msg, len, SN_ERR_PARSE, "%s: the mesh has no vertices", path);
    // every corner, three per triangle
    const sn_real* v = (const sn_real*)(void*)verts.data;
    const int* t = (const int*)(void*)tris.data;
    size_t start = out->len;
    for (size_t c = 0; st == SN_OK && c < 3 * ntri; c++)
        if (sni_buf_push(out, v + 3 * (size_t)t[c], 3 * sizeof(sn_real)) < 0) {
            out->len = start;
            st = mesh_fail(msg, len, SN_ERR_NOMEM, "out of memory reading '%s'", path);
        }
    sni_buf_free(&verts);
    sni_buf_free(&tris);
    return st;
}


// ---- the public reader (sn_model.h) ----

sn_status sn_mesh_read(const char* path, const sn_real scale[3], sn_mesh_data* out, sn_error* err) {
    if (!path) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_mesh_read: path is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_mesh_read: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, path, 0, "", "out is NULL");
    memset(out, 0, sizeof *out);
    if (!path) return sni_error(err, SN_ERR_ARG, "", 0, "", "path is NULL");
    static const sn_real one[3] = {1, 1, 1};
    sni_buf verts = {NULL, 0, 0, NULL, 0}, tris = {NULL, 0, 0, NULL, 0};
    char msg[600];
    int line = 0;
    sn_status st =
        read_mesh_file(path, scale ? scale : one, NULL, &verts, &tris, &line, msg, sizeof msg);
    size_t nv = verts.len / (3 * sizeof(sn_real)), nt = tris.len / (3 * sizeof(int));
    if (st == SN_OK && nt == 0)
        st = mesh_fail(msg, sizeof msg, SN_ERR_PARSE, "%s: the mesh has no triangles", path);
    if (st == SN_OK && (nv > INT_MAX / 3 || nt > INT_MAX / 3))
        st = mesh_fail(msg, sizeof msg, SN_ERR_LIMIT, "%s: too many vertices or triangles", path);
    if (st == SN_OK) {
        out->nvert = (int)nv;
        out->ntri = (int)nt;
        out->vert = sni_alloc(NULL, verts.len);
        out->tri = sni_alloc(NULL, tris.len);
        if (!out->vert || !out->tri) {
            sn_mesh_data_free(out);
            st = mesh_fail(msg, sizeof msg, SN_ERR_NOMEM, "out of memory reading '%s'", path);
        }
    }
    if (st == SN_OK) {
        memcpy(out->vert, verts.data, verts.len);
        memcpy(out->tri, tris.data, tris.len);
    }
    sni_buf_free(&verts);
    sni_buf_free(&tris);
    if (st != SN_OK) {
        // the message names the file (and its line) already
        sni_error(err, st, NULL, 0, "", "%s", msg);
        if (err) snprintf(err->file, sizeof err->file, "%s", path);
        if (err) err->line = line;
    }
    return st;
}


void sn_mesh_data_free(sn_mesh_data* mesh) {
    if (!mesh) return;
    sni_free(NULL, mesh->vert, (size_t)mesh->nvert * 3 * sizeof(sn_real));
    sni_free(NULL, mesh->tri, (size_t)mesh->ntri * 3 * sizeof(int));
    memset(mesh, 0, sizeof *mesh);
}
