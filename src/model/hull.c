// SPDX-License-Identifier: Apache-2.0
// hull.c: the convex hull of a point set (Quickhull with exact orientation signs: a first
// tetrahedron of extreme points, then the farthest point outside the hull so far replaces the
// faces it sees by a fan to their horizon) and the mass properties of the solid it bounds. Used
// when a model loads: the collision mesh keeps its hull's vertices only, and a free mesh body gets
// its inertia from the hull (math/massprop.c).
#include "model/hull.h"

#include "math/massprop.h"

#include <math.h>
#include <string.h>

// Orientation is decided exactly: the points are snapped to an integer grid of 2^40 steps over
// the set's largest extent (a move of 1e-12 of its size), and the sign of the triple product
// (b - a) x (c - a) . (x - a) is computed in 128-bit integers (each product below 2^123). With
// exact signs the faces a point sees always form one cap, whatever the rounding of nearly
// coplanar faces (a CAD mesh's slivers tilt by 1e-7 and more), so the hull cannot fold.
__extension__ typedef __int128 i128;

typedef struct hface {
    int v[3];
    i128 c[3];       // (b - a) x (c - a) on the grid
    sn_real n[3], d; // outward unit normal and offset, for the farthest point only
    int head;        // the first point of its outside list, -1
} hface;

typedef struct builder {
    const sn_allocator* a;
    const sn_real* p;
    const long long* g; // the points on the grid
    hface* f;
    int nf, cap;
    int (*edge)[2];
    int ecap;
} builder;

static int face_add(builder* b, int i, int j, int k) {
    if (b->nf == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        hface* g = sni_alloc(b->a, (size_t)cap * sizeof *g);
        if (!g) return 0;
        if (b->f) memcpy(g, b->f, (size_t)b->nf * sizeof *g);
        sni_free(b->a, b->f, (size_t)b->cap * sizeof *g);
        b->f = g, b->cap = cap;
    }
    hface* f = &b->f[b->nf++];
    f->v[0] = i, f->v[1] = j, f->v[2] = k;
    f->head = -1;
    const long long *A = b->g + 3 * i, *B = b->g + 3 * j, *C = b->g + 3 * k;
    i128 u[3], v[3];
    for (int r = 0; r < 3; r++)
        u[r] = (i128)B[r] - A[r], v[r] = (i128)C[r] - A[r];
    f->c[0] = u[1] * v[2] - u[2] * v[1];
    f->c[1] = u[2] * v[0] - u[0] * v[2];
    f->c[2] = u[0] * v[1] - u[1] * v[0];
    sn_real e1[3], e2[3];
    v3_sub(e1, b->p + 3 * j, b->p + 3 * i);
    v3_sub(e2, b->p + 3 * k, b->p + 3 * i);
    v3_cross(f->n, e1, e2);
    sn_real l = v3_norm(f->n);
    if (l > 0) v3_scale(f->n, f->n, 1 / l);
    f->d = v3_dot(f->n, b->p + 3 * i);
    return 1;
}

// does face f see point k (k strictly on its outer side, exactly)?
static int sees(const builder* b, const hface* f, int k) {
    const long long *A = b->g + 3 * f->v[0], *X = b->g + 3 * k;
    i128 s = f->c[0] * ((i128)X[0] - A[0]) + f->c[1] * ((i128)X[1] - A[1]) +
             f->c[2] * ((i128)X[2] - A[2]);
    return s > 0;
}

static sn_real dist_line(const sn_real* a, const sn_real* b, const sn_real* x) {
    sn_real ab[3], ax[3], c[3];
    v3_sub(ab, b, a);
    v3_sub(ax, x, a);
    v3_cross(c, ab, ax);
    sn_real l = v3_norm(ab);
    return l > 0 ? v3_norm(c) / l : v3_norm(ax);
}

// the hull (hull.h). Long (about 175 lines) because it is one Quickhull pass kept whole: the
// first tetrahedron, the grid, the outside lists and the rounds that grow the hull share their
// arrays; each phase is marked by a block comment
sn_status sni_hull(const sn_real* p, int n, const sn_allocator* a, int** tri, int* ntri) {
    *tri = NULL, *ntri = 0;
    if (n < 4) return SN_ERR_MODEL;
    // the size of the set, for tolerances
    sn_real lo[3], hi[3];
    v3_copy(lo, p), v3_copy(hi, p);
    for (int k = 1; k < n; k++)
        for (int i = 0; i < 3; i++) {
            if (p[3 * k + i] < lo[i]) lo[i] = p[3 * k + i];
            if (p[3 * k + i] > hi[i]) hi[i] = p[3 * k + i];
        }
    sn_real diag[3];
    v3_sub(diag, hi, lo);
    sn_real scale = v3_norm(diag), eps = 1e-10 * scale;
    if (!(scale > 0) || !isfinite(scale)) return SN_ERR_MODEL;
    // a first tetrahedron: the lowest x, the farthest from it, from their line, from their plane
    int i0 = 0, i1 = -1, i2 = -1, i3 = -1;
    for (int k = 1; k < n; k++)
        if (p[3 * k] < p[3 * i0]) i0 = k;
    sn_real best = 0;
    for (int k = 0; k < n; k++) {
        sn_real d[3];
        v3_sub(d, p + 3 * k, p + 3 * i0);
        if (v3_norm(d) > best) best = v3_norm(d), i1 = k;
    }
    best = 0;
    for (int k = 0; k < n && i1 >= 0; k++) {
        sn_real d = dist_line(p + 3 * i0, p + 3 * i1, p + 3 * k);
        if (d > best) best = d, i2 = k;
    }
    if (i1 < 0 || i2 < 0 || best <= 1e3 * eps) return SN_ERR_MODEL; // collinear
    sn_real nrm[3], e1[3], e2[3];
    v3_sub(e1, p + 3 * i1, p + 3 * i0);
    v3_sub(e2, p + 3 * i2, p + 3 * i0);
    v3_cross(nrm, e1, e2);
    v3_scale(nrm, nrm, 1 / v3_norm(nrm));
    best = 0;
    for (int k = 0; k < n; k++) {
        sn_real d[3];
        v3_sub(d, p + 3 * k, p + 3 * i0);
        if (fabs(v3_dot(d, nrm)) > best) best = fabs(v3_dot(d, nrm)), i3 = k;
    }
    if (i3 < 0 || best <= 1e3 * eps) return SN_ERR_MODEL; // flat
    // the grid
    long long* grid = sni_alloc(a, (size_t)n * 3 * sizeof(long long));
    if (!grid) return SN_ERR_NOMEM;
    sn_real ext = fmax(fmax(diag[0], diag[1]), diag[2]), to_grid = 1099511627776.0 / ext;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 3; i++)
            grid[3 * k + i] = llround((p[3 * k + i] - lo[i]) * to_grid);
    builder b = {a, p, grid, NULL, 0, 0, NULL, 0};
    sn_status st = SN_OK;
    // the four faces, each turned away from the fourth point
    int t4[4] = {i0, i1, i2, i3};
    static const int tri4[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
    for (int k = 0; k < 4 && st == SN_OK; k++) {
        int u = t4[tri4[k][0]], v = t4[tri4[k][1]], w = t4[tri4[k][2]];
        if (!face_add(&b, u, v, w)) st = SN_ERR_NOMEM;
        if (st == SN_OK && sees(&b, &b.f[b.nf - 1], t4[tri4[k][3]])) {
            b.nf--;
            if (!face_add(&b, u, w, v)) st = SN_ERR_NOMEM;
        }
    }
    // Quickhull: every point outside the hull so far is on the outside list of one face that
    // sees it (next[] chains a list, b.f[f].head starts it). The farthest point of a face's
    // list goes in next: the faces that see it go, their horizon is closed by a fan to it, and
    // the points of the lists that went move to a face that sees them or are inside
    int* next = sni_alloc(a, (size_t)n * sizeof(int));
    char* dead = NULL;
    size_t dead_bytes = 0;
    if (!next) st = SN_ERR_NOMEM;
    for (int k = 0; k < n && st == SN_OK; k++) {
        next[k] = -1;
        if (k == i0 || k == i1 || k == i2 || k == i3) continue;
        for (int f = 0; f < b.nf; f++)
            if (sees(&b, &b.f[f], k)) {
                next[k] = b.f[f].head, b.f[f].head = k;
                break;
            }
    }
    for (int round = 0; st == SN_OK; round++) {
        int fi = -1;
        for (int f = 0; f < b.nf && fi < 0; f++)
            if (b.f[f].head >= 0) fi = f;
        if (fi < 0) break;
        if (round > n) {
            st = SN_ERR_MODEL; // cannot happen: each round takes one point for good
            break;
        }
        int far = -1;
        sn_real dfar = -INFINITY;
        for (int k = b.f[fi].head; k >= 0; k = next[k]) {
            sn_real d = v3_dot(b.f[fi].n, p + 3 * k) - b.f[fi].d;
            if (d > dfar) dfar = d, far = k;
        }
        // the faces that see it go; their edges not shared with another such face form the
        // horizon
        if (dead_bytes < (size_t)b.cap) {
            sni_free(a, dead, dead_bytes);
            dead_bytes = (size_t)b.cap;
            dead = sni_alloc(a, dead_bytes);
            if (!dead) {
                dead_bytes = 0;
                st = SN_ERR_NOMEM;
                break;
            }
        }
        int ne = 0, orphans = -1;
        for (int f = 0; f < b.nf; f++) {
            dead[f] = f == fi || sees(&b, &b.f[f], far);
            if (!dead[f]) continue;
            for (int k = b.f[f].head, nk; k >= 0; k = nk) {
                nk = next[k];
                if (k != far) next[k] = orphans, orphans = k;
            }
            for (int e = 0; e < 3; e++) {
                int u = b.f[f].v[e], w = b.f[f].v[(e + 1) % 3], found = -1;
                for (int j = 0; j < ne && found < 0; j++)
                    if (b.edge[j][0] == w && b.edge[j][1] == u) found = j;
                if (found >= 0) {
                    b.edge[found][0] = b.edge[ne - 1][0], b.edge[found][1] = b.edge[ne - 1][1];
                    ne--;
                    continue;
                }
                if (ne == b.ecap) {
                    int cap = b.ecap ? 2 * b.ecap : 64;
                    int(*g)[2] = sni_alloc(a, (size_t)cap * sizeof *g);
                    if (!g) {
                        st = SN_ERR_NOMEM;
                        break;
                    }
                    if (b.edge) memcpy(g, b.edge, (size_t)ne * sizeof *g);
                    sni_free(a, b.edge, (size_t)b.ecap * sizeof *g);
                    b.edge = g, b.ecap = cap;
                }
                b.edge[ne][0] = u, b.edge[ne][1] = w, ne++;
            }
        }
        if (st != SN_OK) break;
        int keep = 0;
        for (int f = 0; f < b.nf; f++)
            if (!dead[f]) b.f[keep++] = b.f[f];
        b.nf = keep;
        int first_new = b.nf;
        for (int j = 0; j < ne && st == SN_OK; j++)
            if (!face_add(&b, b.edge[j][0], b.edge[j][1], far)) st = SN_ERR_NOMEM;
        // the waiting points: to a new face that sees them, else to an old one that does, else
        // they are inside
        for (int k = orphans, nk; k >= 0 && st == SN_OK; k = nk) {
            nk = next[k];
            next[k] = -1;
            for (int t = 0; t < b.nf; t++) {
                int f = (first_new + t) % b.nf;
                if (sees(&b, &b.f[f], k)) {
                    next[k] = b.f[f].head, b.f[f].head = k;
                    break;
                }
            }
        }
    }
    sni_free(a, next, (size_t)n * sizeof(int));
    sni_free(a, dead, dead_bytes);
    sni_free(a, b.edge, (size_t)b.ecap * sizeof *b.edge);
    sni_free(a, grid, (size_t)n * 3 * sizeof(long long));
    if (st == SN_OK) {
        *tri = sni_alloc(a, (size_t)b.nf * 3 * sizeof(int));
        if (!*tri) st = SN_ERR_NOMEM;
    }
    if (st == SN_OK) {
        for (int f = 0; f < b.nf; f++)
            memcpy(*tri + 3 * f, b.f[f].v, 3 * sizeof(int));
        *ntri = b.nf;
    }
    sni_free(a, b.f, (size_t)b.cap * sizeof *b.f);
    return st;
}

void sni_hull_mass(const sn_real* p, const int* tri, int ntri, sn_real* volume, sn_real* com,
                   sn_real* second) {
    // tetrahedra from the origin to each outward face (math/massprop.c)
    sni_massprop mp;
    memset(&mp, 0, sizeof mp);
    sni_massprop_add_indexed(&mp, p, tri, ntri);
    *volume = mp.volume;
    sni_massprop_centroid(&mp, com);
    memcpy(second, mp.second, sizeof mp.second);
}
