// SPDX-License-Identifier: Apache-2.0
// meshfile.c: triangles of an OBJ or STL file (binary or ASCII), for drawing visual meshes in the
// replay. The library reads meshes for collision only (their convex hull); a visual mesh keeps
// its own shape. OBJ: `v` and `f` lines (indices 1-based or negative, `a/b/c` forms, polygons
// fanned into triangles); STL: binary when its size matches its triangle count, else ASCII.
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MESH_MAX_BYTES ((long)128 << 20)
#define MESH_MAX_TRIANGLES 400000

typedef struct growf {
    float* v;
    size_t n, cap;
} growf;

typedef struct growi {
    int* v;
    size_t n, cap;
} growi;

static int pushf(growf* g, float x) {
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 4096;
        float* v = realloc(g->v, cap * sizeof(float));
        if (!v) return 1;
        g->v = v, g->cap = cap;
    }
    g->v[g->n++] = x;
    return 0;
}

static int pushi(growi* g, int x) {
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 4096;
        int* v = realloc(g->v, cap * sizeof(int));
        if (!v) return 1;
        g->v = v, g->cap = cap;
    }
    g->v[g->n++] = x;
    return 0;
}

static char* slurp(const char* path, long* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    char* data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && n <= MESH_MAX_BYTES && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc((size_t)n + 1);
            if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
                free(data);
                data = NULL;
            }
            if (data) data[n] = 0, *size = n;
        }
    }
    fclose(f);
    return data;
}

static int ends_with(const char* s, const char* ext) {
    size_t a = strlen(s), b = strlen(ext);
    if (a < b) return 0;
    for (size_t i = 0; i < b; i++) {
        char c = s[a - b + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != ext[i]) return 0;
    }
    return 1;
}

static int read_obj(char* data, const double* scale, growf* v, growi* f) {
    int bad = 0;
    for (char* line = strtok(data, "\n"); line && !bad; line = strtok(NULL, "\n")) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (line[0] == 'v' && (line[1] == ' ' || line[1] == '\t')) {
            double x[3];
            if (sscanf(line + 2, "%lf %lf %lf", &x[0], &x[1], &x[2]) != 3) return 1;
            for (int i = 0; i < 3; i++)
                bad |= !isfinite(x[i]) || pushf(v, (float)(x[i] * scale[i]));
        } else if (line[0] == 'f' && (line[1] == ' ' || line[1] == '\t')) {
            int idx[64], k = 0, nvert = (int)(v->n / 3);
            char* p = line + 2;
            while (*p && k < 64) {
                char* end;
                long i = strtol(p, &end, 10);
                if (end == p) break;
                if (i < 0) i = nvert + i + 1; // relative to the vertices so far
                if (i < 1 || i > nvert) return 1;
                idx[k++] = (int)i - 1;
                p = end;
                while (*p && *p != ' ' && *p != '\t')
                    p++; // the /vt/vn parts
                while (*p == ' ' || *p == '\t' || *p == '\r')
                    p++;
            }
            for (int t = 1; t + 1 < k; t++) // a polygon as a fan
                bad |= pushi(f, idx[0]) || pushi(f, idx[t]) || pushi(f, idx[t + 1]);
        }
        if (f->n / 3 > MESH_MAX_TRIANGLES) return 1;
    }
    return bad;
}

static float le_float(const unsigned char* p) {
    unsigned u = (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static int read_stl(char* data, long size, const double* scale, growf* v, growi* f) {
    const unsigned char* u = (const unsigned char*)data;
    if (size >= 84) {
        unsigned long ntri = (unsigned long)u[80] | (unsigned long)u[81] << 8 |
                             (unsigned long)u[82] << 16 | (unsigned long)u[83] << 24;
        if (84 + 50 * (unsigned long long)ntri == (unsigned long long)size) {
            if (ntri > MESH_MAX_TRIANGLES) return 1;
            for (unsigned long t = 0; t < ntri; t++) {
                const unsigned char* p = u + 84 + 50 * t + 12; // past the normal
                for (int c = 0; c < 3; c++) {
                    int bad = pushi(f, (int)(v->n / 3));
                    for (int i = 0; i < 3; i++) {
                        float x = le_float(p + 12 * c + 4 * i);
                        bad |= !isfinite(x) || pushf(v, (float)((double)x * scale[i]));
                    }
                    if (bad) return 1;
                }
            }
            return 0;
        }
    }
    // ASCII: every `vertex x y z`, three to a facet
    for (char* p = strstr(data, "vertex"); p; p = strstr(p + 6, "vertex")) {
        double x[3];
        if (sscanf(p + 6, "%lf %lf %lf", &x[0], &x[1], &x[2]) != 3) return 1;
        int bad = pushi(f, (int)(v->n / 3));
        for (int i = 0; i < 3; i++)
            bad |= !isfinite(x[i]) || pushf(v, (float)(x[i] * scale[i]));
        if (bad || f->n / 3 > MESH_MAX_TRIANGLES) return 1;
    }
    return f->n % 3 != 0;
}

int cli_mesh_read(const char* path, const double* scale, float** verts, int* nvert, int** tris,
                  int* ntri) {
    *verts = NULL, *tris = NULL, *nvert = *ntri = 0;
    int obj = ends_with(path, ".obj"), stl = ends_with(path, ".stl");
    if (!obj && !stl) return 1;
    long size = 0;
    char* data = slurp(path, &size);
    if (!data) return 1;
    growf v = {0};
    growi f = {0};
    int bad = obj ? read_obj(data, scale, &v, &f) : read_stl(data, size, scale, &v, &f);
    free(data);
    if (bad || f.n == 0) {
        free(v.v), free(f.v);
        return 1;
    }
    *verts = v.v, *nvert = (int)(v.n / 3), *tris = f.v, *ntri = (int)(f.n / 3);
    return 0;
}
