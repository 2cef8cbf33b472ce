// SPDX-License-Identifier: Apache-2.0
// convex.c: contacts between convex shapes through their support functions (the point of a shape
// farthest along a direction), for the pairs without a closed form: cylinders and convex meshes
// against anything. Spheres and capsules enter as their cores (a point, a segment) with a
// radius, so that most of their overlaps are distances between cores. GJK (Gilbert, Johnson and
// Keerthi 1988) finds the distance between separated cores and their closest points; when the
// cores overlap, the expanding polytope algorithm (EPA, van den Bergen 2001) finds the
// penetration depth, its direction and the points: one contact point (sni_convex_contact). Where
// faces, edges or sides meet, the features facing each other are clipped against one another
// for up to four points (sni_convex_manifold). Everything works in fixed-size arrays: a step
// allocates nothing.
#include "collision/collide.h"

#include <math.h>
#include <string.h>


// the support point of a shape's core in its own frame along the local direction d
static void support_local(const sni_convex* c, const sn_real* d, sn_real* out) {
    const sn_real* sz = c->size;
    switch (c->type) {
    case SN_GEOM_SPHERE:
        v3_set(out, 0, 0, 0);
        break;
    case SN_GEOM_CAPSULE:
        v3_set(out, 0, 0, d[2] >= 0 ? 0.5 * sz[1] : -0.5 * sz[1]);
        break;
    case SN_GEOM_BOX:
        for (int i = 0; i < 3; i++)
            out[i] = d[i] >= 0 ? 0.5 * sz[i] : -0.5 * sz[i];
        break;
    case SN_GEOM_CYLINDER: {
        sn_real r = sqrt(d[0] * d[0] + d[1] * d[1]);
        if (r > 0)
            v3_set(out, sz[0] * d[0] / r, sz[0] * d[1] / r, 0);
        else
            v3_set(out, 0, 0, 0);
        out[2] = d[2] >= 0 ? 0.5 * sz[1] : -0.5 * sz[1];
        break;
    }
    case SN_GEOM_ELLIPSOID: {
        // the point where the normal, diag(1/a^2) x, is along d: x = A^2 d / |A d|
        sn_real ad[3] = {sz[0] * d[0], sz[1] * d[1], sz[2] * d[2]}, l = v3_norm(ad);
        if (l > 0)
            v3_set(out, sz[0] * ad[0] / l, sz[1] * ad[1] / l, sz[2] * ad[2] / l);
        else
            v3_set(out, 0, 0, 0);
        break;
    }
    case SN_GEOM_MESH: {
        const sn_real* v = c->vert;
        int best = 0;
        sn_real top = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
        for (int k = 1; k < c->nvert; k++) {
            sn_real h = v[3 * k] * d[0] + v[3 * k + 1] * d[1] + v[3 * k + 2] * d[2];
            if (h > top) top = h, best = k;
        }
        v3_copy(out, v + 3 * best);
        break;
    }
    default:
        v3_set(out, 0, 0, 0);
        break;
    }
}

// the radius around a shape's core: spheres and capsules
static sn_real rounding(const sni_convex* c) {
    return c->type == SN_GEOM_SPHERE || c->type == SN_GEOM_CAPSULE ? c->size[0] : 0;
}

// the support point of the core along the world direction d
static void core_support(const sni_convex* c, const sn_real* dw, sn_real* out) {
    sn_real d[3], s[3];
    m3t_mul_v3(d, c->R, dw);
    support_local(c, d, s);
    m3_mul_v3(out, c->R, s);
    v3_add(out, out, c->p);
}

void sni_convex_support(const sni_convex* c, const sn_real* dw, sn_real* out) {
    core_support(c, dw, out);
    sn_real r = rounding(c), n = v3_norm(dw);
    if (r > 0 && n > 0) v3_addscl(out, dw, r / n);
}


// ---- GJK distance and EPA penetration, allocation-free ----

// a point of the Minkowski difference a - b with the two support points it came from
typedef struct mpoint {
    sn_real w[3], pa[3], pb[3];
} mpoint;

// the support of a - b along d: a's farthest point along d minus b's farthest along -d
static void support_pair(const sni_convex* a, const sni_convex* b, const sn_real* d, mpoint* m) {
    sn_real nd[3] = {-d[0], -d[1], -d[2]};
    core_support(a, d, m->pa);
    core_support(b, nd, m->pb);
    v3_sub(m->w, m->pa, m->pb);
}

// the point of the affine hull of the n points p (n <= 4) closest to the origin, as barycentric
// weights l; 0 when the points are degenerate
static int affine_closest(const mpoint* p, int n, sn_real* l) {
    if (n == 1) {
        l[0] = 1;
        return 1;
    }
    // minimise |p0 + sum_k t_k (p_k - p0)|: (E^T E) t = -E^T p0
    sn_real e[3][3], A[3][3], r[3];
    int k = n - 1;
    for (int i = 0; i < k; i++)
        v3_sub(e[i], p[i + 1].w, p[0].w);
    for (int i = 0; i < k; i++) {
        r[i] = -v3_dot(e[i], p[0].w);
        for (int j = 0; j < k; j++)
            A[i][j] = v3_dot(e[i], e[j]);
    }
    // Gaussian elimination with partial pivoting on the k x k system
    sn_real scale = 0;
    for (int i = 0; i < k; i++)
        if (A[i][i] > scale) scale = A[i][i];
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int i = c + 1; i < k; i++)
            if (fabs(A[i][c]) > fabs(A[piv][c])) piv = i;
        if (!(fabs(A[piv][c]) > 1e-14 * scale)) return 0;
        if (piv != c) {
            for (int j = 0; j < k; j++) {
                sn_real t = A[c][j];
                A[c][j] = A[piv][j], A[piv][j] = t;
            }
            sn_real t = r[c];
            r[c] = r[piv], r[piv] = t;
        }
        for (int i = c + 1; i < k; i++) {
            sn_real f = A[i][c] / A[c][c];
            for (int j = c; j < k; j++)
                A[i][j] -= f * A[c][j];
            r[i] -= f * r[c];
        }
    }
    sn_real t[3];
    for (int i = k - 1; i >= 0; i--) {
        sn_real s = r[i];
        for (int j = i + 1; j < k; j++)
            s -= A[i][j] * t[j];
        t[i] = s / A[i][i];
    }
    l[0] = 1;
    for (int i = 0; i < k; i++)
        l[i + 1] = t[i], l[0] -= t[i];
    return 1;
}

// reduce the simplex s (n points) to the face closest to the origin; v gets that closest point.
// Returns the new size, or 4 with v = 0 when the tetrahedron contains the origin.
static int closest_face(mpoint* s, int n, sn_real* v, sn_real* lam) {
    sn_real best = INFINITY, bl[4] = {0};
    int bmask = 0;
    for (int mask = 1; mask < (1 << n); mask++) {
        mpoint sub[4];
        int m = 0;
        for (int i = 0; i < n; i++)
            if (mask >> i & 1) sub[m++] = s[i];
        sn_real l[4];
        if (!affine_closest(sub, m, l)) continue;
        int inside = 1;
        for (int i = 0; i < m; i++)
            if (l[i] < 0) inside = 0;
        if (!inside) continue;
        sn_real x[3] = {0, 0, 0};
        for (int i = 0; i < m; i++)
            v3_addscl(x, sub[i].w, l[i]);
        sn_real d = v3_dot(x, x);
        // prefer the smaller sub-simplex on ties (a face's interior point equals the volume's)
        if (d < best * (1 - 1e-12) || (d <= best && m < __builtin_popcount((unsigned)bmask))) {
            best = d, bmask = mask;
            memcpy(bl, l, sizeof l);
        }
    }
    if (!bmask) { // degenerate: keep the last point
        s[0] = s[n - 1];
        v3_copy(v, s[0].w);
        lam[0] = 1;
        return 1;
    }
    int m = 0;
    v3_set(v, 0, 0, 0);
    for (int i = 0; i < n; i++)
        if (bmask >> i & 1) {
            lam[m] = bl[m];
            s[m] = s[i];
            v3_addscl(v, s[m].w, lam[m]);
            m++;
        }
    return m;
}


// GJK: 1 when the cores are farther apart than `reach` (then nothing else is set); otherwise
// the simplex s (*ns points) and, when the cores are separated, their distance and closest points
// (*dist > 0), or *dist = 0 when they overlap (s then holds the origin, for EPA)
static int gjk(const sni_convex* a, const sni_convex* b, sn_real reach, mpoint* s, int* ns,
               sn_real* dist, sn_real* pa, sn_real* pb) {
    sn_real v[3], lam[4] = {1, 0, 0, 0};
    v3_sub(v, a->center, b->center);
    if (v3_dot(v, v) < 1e-24) v3_set(v, 1, 0, 0);
    sn_real d[3] = {-v[0], -v[1], -v[2]};
    support_pair(a, b, d, &s[0]);
    int n = 1;
    v3_copy(v, s[0].w);
    *dist = 0;
    for (int it = 0; it < 64; it++) {
        sn_real vv = v3_dot(v, v);
        if (vv < 1e-24) break; // the origin is on the simplex: the cores touch or overlap
        mpoint p;
        v3_scale(d, v, -1);
        support_pair(a, b, d, &p);
        sn_real vw = v3_dot(v, p.w);
        if (vw > 0 && vw * vw > reach * reach * vv) return 1; // a separating plane beyond reach
        if (vv - vw <= 1e-12 * vv + 1e-24) break;             // converged: |v| is the distance
        int dup = 0;
        for (int i = 0; i < n; i++)
            if (!memcmp(s[i].w, p.w, sizeof p.w)) dup = 1;
        if (dup) break;
        s[n++] = p;
        n = closest_face(s, n, v, lam);
        if (n == 4) {
            v3_set(v, 0, 0, 0);
            break;
        }
    }
    *ns = n;
    sn_real vv = v3_dot(v, v);
    if (vv < 1e-24) return 0;
    if (vv > reach * reach) return 1;
    *dist = sqrt(vv);
    v3_set(pa, 0, 0, 0);
    v3_set(pb, 0, 0, 0);
    for (int i = 0; i < n; i++) {
        v3_addscl(pa, s[i].pa, lam[i]);
        v3_addscl(pb, s[i].pb, lam[i]);
    }
    return 0;
}


// ---- EPA ----

#define EPA_MAXV 128
#define EPA_MAXF 256

typedef struct epa_face {
    int v[3];
    sn_real n[3], d; // outward unit normal, distance of the plane from the origin
    int alive;
} epa_face;

typedef struct epa {
    mpoint v[EPA_MAXV];
    epa_face f[EPA_MAXF];
    int nv, nf;
} epa;

static void epa_face_set(epa* e, int i, int a, int b, int c) {
    epa_face* f = &e->f[i];
    f->v[0] = a, f->v[1] = b, f->v[2] = c;
    f->alive = 1;
    sn_real ab[3], ac[3];
    v3_sub(ab, e->v[b].w, e->v[a].w);
    v3_sub(ac, e->v[c].w, e->v[a].w);
    v3_cross(f->n, ab, ac);
    sn_real l = v3_norm(f->n);
    if (l > 1e-30) {
        v3_scale(f->n, f->n, 1 / l);
        f->d = v3_dot(f->n, e->v[a].w);
    } else {
        v3_set(f->n, 0, 0, 0);
        f->d = INFINITY; // a sliver: never the closest face
    }
}

// distance of p from the affine hull of the n points s
static sn_real off_hull(const mpoint* s, int n, const sn_real* p) {
    sn_real x[3];
    if (n == 1) {
        v3_sub(x, p, s[0].w);
        return v3_norm(x);
    }
    sn_real e[3], r[3];
    v3_sub(e, s[1].w, s[0].w);
    v3_sub(r, p, s[0].w);
    if (n == 2) {
        v3_cross(x, e, r);
        sn_real l = v3_norm(e);
        return l > 0 ? v3_norm(x) / l : v3_norm(r);
    }
    sn_real f[3], nn[3];
    v3_sub(f, s[2].w, s[0].w);
    v3_cross(nn, e, f);
    sn_real l = v3_norm(nn);
    return l > 0 ? fabs(v3_dot(nn, r)) / l : v3_norm(r);
}

// grow a simplex that holds the origin on its boundary to a triangle (n < 3), then the polytope:
// the tetrahedron, or for a triangle the double pyramid over it. 0 when the difference is flat.
static int epa_start(epa* e, const sni_convex* a, const sni_convex* b, mpoint* s, int n) {
    static const sn_real axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    sn_real scale = 0;
    for (int i = 0; i < n; i++)
        if (v3_norm(s[i].w) > scale) scale = v3_norm(s[i].w);
    for (int tries = 0; n < 3 && tries < 6; tries++) {
        sn_real d[3];
        if (n == 1) {
            v3_copy(d, axes[tries % 3]);
        } else {
            sn_real seg[3];
            v3_sub(seg, s[1].w, s[0].w);
            v3_cross(d, seg, axes[tries % 3]);
        }
        if (tries >= 3) v3_scale(d, d, -1);
        if (v3_norm(d) < 1e-30) continue;
        mpoint p;
        support_pair(a, b, d, &p);
        if (off_hull(s, n, p.w) > 1e-10 * (1 + scale)) s[n++] = p;
    }
    if (n < 3) return 0;
    e->nv = 0, e->nf = 0;
    for (int i = 0; i < n; i++)
        e->v[e->nv++] = s[i];
    if (n == 4) {
        // orient the four faces outward (away from the opposite vertex)
        static const int tri[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
        for (int i = 0; i < 4; i++) {
            epa_face_set(e, e->nf, tri[i][0], tri[i][1], tri[i][2]);
            sn_real t[3];
            v3_sub(t, e->v[tri[i][3]].w, e->v[tri[i][0]].w);
            if (v3_dot(e->f[e->nf].n, t) > 0)
                epa_face_set(e, e->nf, tri[i][0], tri[i][2], tri[i][1]);
            e->nf++;
        }
        return 1;
    }
    // a triangle with the origin in it: the supports on both sides of its plane
    sn_real ab[3], ac[3], nn[3];
    v3_sub(ab, s[1].w, s[0].w);
    v3_sub(ac, s[2].w, s[0].w);
    v3_cross(nn, ab, ac);
    mpoint up, down;
    support_pair(a, b, nn, &up);
    v3_scale(nn, nn, -1);
    support_pair(a, b, nn, &down);
    sn_real l = v3_norm(nn);
    if (!(l > 0)) return 0;
    sn_real hu = -v3_dot(nn, up.w) / l, hd = -v3_dot(nn, down.w) / l; // heights along +normal
    if (hu < 1e-12 * (1 + scale) || hd > -1e-12 * (1 + scale)) return 0;
    e->v[3] = up, e->v[4] = down;
    e->nv = 5;
    int t[6][3] = {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}, {1, 0, 4}, {2, 1, 4}, {0, 2, 4}};
    for (int i = 0; i < 6; i++) {
        epa_face_set(e, e->nf, t[i][0], t[i][1], t[i][2]);
        // outward: away from the triangle's centroid, which is inside
        sn_real cen[3] = {0, 0, 0}, r[3];
        for (int k = 0; k < 3; k++)
            v3_addscl(cen, s[k].w, 1.0 / 3);
        v3_sub(r, cen, e->v[t[i][0]].w);
        if (v3_dot(e->f[e->nf].n, r) > 0) epa_face_set(e, e->nf, t[i][0], t[i][2], t[i][1]);
        e->nf++;
    }
    return 1;
}

// the penetration of overlapping cores: depth >= 0, the unit direction n of the Minkowski
// difference's nearest face (moving a by -depth n separates them) and the deepest points
static int epa_run(epa* e, const sni_convex* a, const sni_convex* b, sn_real* depth, sn_real* n,
                   sn_real* pa, sn_real* pb) {
    int best = -1;
    for (int it = 0; it < EPA_MAXV; it++) {
        best = -1;
        for (int i = 0; i < e->nf; i++)
            if (e->f[i].alive && (best < 0 || e->f[i].d < e->f[best].d)) best = i;
        if (best < 0 || !isfinite(e->f[best].d)) return 0;
        epa_face* f = &e->f[best];
        mpoint p;
        support_pair(a, b, f->n, &p);
        sn_real grow = v3_dot(p.w, f->n) - f->d;
        if (grow <= 1e-10 * (1 + fabs(f->d)) || e->nv >= EPA_MAXV) break;
        // faces that see p go; the edges they share with the faces that stay are the horizon
        int edges[3 * EPA_MAXF][2], ne = 0;
        for (int i = 0; i < e->nf; i++) {
            epa_face* g = &e->f[i];
            if (!g->alive || !(g->n[0] || g->n[1] || g->n[2])) continue;
            sn_real t[3];
            v3_sub(t, p.w, e->v[g->v[0]].w);
            if (v3_dot(g->n, t) <= 0) continue;
            g->alive = 0;
            for (int k = 0; k < 3; k++) {
                int u = g->v[k], w = g->v[(k + 1) % 3], found = -1;
                for (int j = 0; j < ne; j++)
                    if (edges[j][0] == w && edges[j][1] == u) found = j;
                if (found >= 0) {
                    edges[found][0] = edges[ne - 1][0], edges[found][1] = edges[ne - 1][1];
                    ne--;
                } else {
                    edges[ne][0] = u, edges[ne][1] = w, ne++;
                }
            }
        }
        // compact the faces, then add one per horizon edge
        int k = 0;
        for (int i = 0; i < e->nf; i++)
            if (e->f[i].alive) e->f[k++] = e->f[i];
        e->nf = k;
        if (e->nf + ne > EPA_MAXF) break;
        int pi = e->nv;
        e->v[e->nv++] = p;
        for (int j = 0; j < ne; j++)
            epa_face_set(e, e->nf++, edges[j][0], edges[j][1], pi);
    }
    best = -1;
    for (int i = 0; i < e->nf; i++)
        if (e->f[i].alive && (best < 0 || e->f[i].d < e->f[best].d)) best = i;
    if (best < 0 || !isfinite(e->f[best].d)) return 0;
    epa_face* f = &e->f[best];
    *depth = f->d > 0 ? f->d : 0;
    v3_copy(n, f->n);
    // the face's point nearest the origin, in barycentric coordinates
    mpoint tri[3] = {e->v[f->v[0]], e->v[f->v[1]], e->v[f->v[2]]};
    sn_real l[3];
    if (!affine_closest(tri, 3, l)) l[0] = l[1] = l[2] = 1.0 / 3;
    v3_set(pa, 0, 0, 0);
    v3_set(pb, 0, 0, 0);
    for (int i = 0; i < 3; i++) {
        v3_addscl(pa, tri[i].pa, l[i]);
        v3_addscl(pb, tri[i].pb, l[i]);
    }
    return 1;
}


int sni_convex_contact(const sni_convex* a, const sni_convex* b, sn_real margin, sn_real* x,
                       sn_real* n, sn_real* gap) {
    sn_real ra = rounding(a), rb = rounding(b);
    mpoint s[4];
    int ns = 0;
    sn_real dist, pa[3], pb[3];
    if (gjk(a, b, margin + ra + rb, s, &ns, &dist, pa, pb)) return 0;
    if (dist > 0) {
        // separated cores: the normal along the closest points
        v3_sub(n, pa, pb);
        v3_scale(n, n, 1 / dist);
        *gap = dist - ra - rb;
    } else {
        epa e;
        sn_real depth, fn[3];
        if (!epa_start(&e, a, b, s, ns) || !epa_run(&e, a, b, &depth, fn, pa, pb)) {
            // the cores touch exactly (the origin on the Minkowski difference's surface, where
            // EPA has no volume to start from): as after a contact that closed its gap in the
            // last step. b moved back by a hair along the line from a's centre gives the
            // touching points and their normal; the gap is then 0 up to that hair
            sn_real dir[3], l;
            v3_sub(dir, a->center, b->center);
            l = v3_norm(dir);
            if (l > 0)
                v3_scale(dir, dir, 1 / l);
            else
                v3_set(dir, 0, 0, 1);
            sni_convex bb = *b;
            sn_real hair = 1e-9 * (1 + l);
            v3_addscl(bb.p, dir, -hair);
            v3_addscl(bb.center, dir, -hair);
            if (gjk(a, &bb, margin + ra + rb + 2 * hair, s, &ns, &dist, pa, pb) || !(dist > 0))
                return 0;
            v3_sub(n, pa, pb);
            v3_scale(n, n, 1 / dist);
            v3_addscl(pb, dir, hair);
            *gap = dist - hair * v3_dot(n, dir) - ra - rb;
        } else {
            v3_scale(n, fn, -1);
            *gap = -depth - ra - rb;
        }
    }
    if (!(*gap < margin) || !isfinite(*gap)) return 0;
    // midway between the surfaces: a's point less its radius, b's point plus its radius
    v3_copy(x, pa);
    v3_addscl(x, n, -ra);
    v3_addscl(x, pb, 1);
    v3_addscl(x, n, rb);
    v3_scale(x, x, 0.5);
    return 1;
}


// ---- contact manifolds: several points where faces, edges or sides meet ----

#define FEAT_MAX SNI_FEAT_MAX

// the points of a shape's surface within tol of its supporting plane along the world direction
// d (unit): a box's face, edge or corner; a cylinder's cap rim or side line; a capsule's side;
// a mesh's vertices near the plane. Returns their number (at least 1).
static int feature(const sni_convex* c, const sn_real* d, sn_real tol, sn_real (*out)[3]) {
    sn_real cand[FEAT_MAX + 2][3], dl[3];
    int nc = 0;
    m3t_mul_v3(dl, c->R, d);
    const sn_real* sz = c->size;
    switch (c->type) {
    case SN_GEOM_CAPSULE:
        v3_set(cand[0], 0, 0, -0.5 * sz[1]);
        v3_set(cand[1], 0, 0, 0.5 * sz[1]);
        nc = 2;
        break;
    case SN_GEOM_BOX:
        for (int k = 0; k < 8; k++)
            v3_set(cand[nc++], (k & 1 ? 0.5 : -0.5) * sz[0], (k & 2 ? 0.5 : -0.5) * sz[1],
                   (k & 4 ? 0.5 : -0.5) * sz[2]);
        break;
    case SN_GEOM_CYLINDER: {
        // each cap: the rim point farthest along d, and eight rim points when the whole rim
        // is within tol of the plane (a cap facing d)
        sn_real r = sqrt(dl[0] * dl[0] + dl[1] * dl[1]);
        for (int cap = -1; cap <= 1; cap += 2) {
            sn_real z = cap * 0.5 * sz[1];
            if (r > 1e-12) v3_set(cand[nc++], sz[0] * dl[0] / r, sz[0] * dl[1] / r, z);
            for (int k = 0; k < 8 && 2 * sz[0] * r <= tol; k++) {
                sn_real t = k * (2 * 3.14159265358979323846 / 8);
                v3_set(cand[nc++], sz[0] * cos(t), sz[0] * sin(t), z);
            }
        }
        break;
    }
    case SN_GEOM_MESH: {
        // the vertices near the plane, at most FEAT_MAX of them spread by a greedy pick
        sn_real top = -INFINITY;
        for (int k = 0; k < c->nvert; k++)
            if (v3_dot(dl, c->vert + 3 * k) > top) top = v3_dot(dl, c->vert + 3 * k);
        for (int k = 0; k < c->nvert && nc < FEAT_MAX; k++)
            if (v3_dot(dl, c->vert + 3 * k) >= top - tol) v3_copy(cand[nc++], c->vert + 3 * k);
        break;
    }
    case SN_GEOM_ELLIPSOID: // smooth: its support point alone
        support_local(c, dl, cand[0]);
        nc = 1;
        break;
    default: // a sphere: its centre
        v3_set(cand[0], 0, 0, 0);
        nc = 1;
        break;
    }
    sn_real top = -INFINITY;
    for (int k = 0; k < nc; k++)
        if (v3_dot(dl, cand[k]) > top) top = v3_dot(dl, cand[k]);
    int n = 0;
    sn_real scale = 1e-9 * (sz[0] + sz[1] + sz[2] + 1e-3);
    for (int k = 0; k < nc && n < FEAT_MAX; k++)
        if (v3_dot(dl, cand[k]) >= top - tol) {
            int dup = 0; // a rim point may repeat the support point
            for (int j = 0; j < k && !dup; j++) {
                sn_real t[3];
                v3_sub(t, cand[j], cand[k]);
                dup = v3_dot(dl, cand[j]) >= top - tol && v3_norm(t) < scale;
            }
            if (dup) continue;
            m3_mul_v3(out[n], c->R, cand[k]);
            v3_add(out[n], out[n], c->p);
            n++;
        }
    return n;
}

// order the points of a planar feature by angle around their centroid, across the normal n
static void order_polygon(sn_real (*p)[3], int n, const sn_real* nrm) {
    sn_real cen[3] = {0, 0, 0}, u[3], v[3], ang[FEAT_MAX];
    for (int i = 0; i < n; i++)
        v3_addscl(cen, p[i], 1.0 / n);
    v3_set(u, fabs(nrm[0]) < 0.9 ? 1 : 0, fabs(nrm[0]) < 0.9 ? 0 : 1, 0);
    v3_cross(v, nrm, u);
    v3_scale(v, v, 1 / v3_norm(v));
    v3_cross(u, v, nrm);
    for (int i = 0; i < n; i++) {
        sn_real r[3];
        v3_sub(r, p[i], cen);
        ang[i] = atan2(v3_dot(r, v), v3_dot(r, u));
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
            sn_real t = ang[j], q[3];
            ang[j] = ang[j - 1], ang[j - 1] = t;
            v3_copy(q, p[j]);
            v3_copy(p[j], p[j - 1]);
            v3_copy(p[j - 1], q);
        }
}

// keep the points x of the polygon p (n points) on the side of the plane (o, normal k) where
// k.(x - o) <= 0
static int clip_plane(sn_real (*p)[3], int n, sn_real (*out)[3], const sn_real* o,
                      const sn_real* k) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const sn_real* a = p[i];
        const sn_real* b = p[(i + 1) % n];
        sn_real ta[3], tb[3];
        v3_sub(ta, a, o);
        v3_sub(tb, b, o);
        sn_real da = v3_dot(k, ta), db = v3_dot(k, tb);
        if (da <= 0 && m < FEAT_MAX) v3_copy(out[m++], a);
        if (((da < 0 && db > 0) || (da > 0 && db < 0)) && m < FEAT_MAX && n > 1) {
            sn_real t = da / (da - db);
            for (int j = 0; j < 3; j++)
                out[m][j] = a[j] + t * (b[j] - a[j]);
            m++;
        }
        if (n == 2 && i == 0) { // a segment: one pass over its single edge
            if (db <= 0 && m < FEAT_MAX) v3_copy(out[m++], b);
            break;
        }
    }
    return m;
}

int sni_pick4(sn_real (*p)[3], const sn_real* gap, int n, const sn_real* nrm, int* pick) {
    if (n <= 4) {
        for (int i = 0; i < n; i++)
            pick[i] = i;
        return n;
    }
    pick[0] = 0, pick[1] = pick[2] = pick[3] = -1;
    for (int i = 1; i < n; i++)
        if (gap[i] < gap[pick[0]]) pick[0] = i;
    sn_real best = 0;
    for (int i = 0; i < n; i++) {
        sn_real d[3];
        v3_sub(d, p[i], p[pick[0]]);
        v3_addscl(d, nrm, -v3_dot(d, nrm));
        if (v3_dot(d, d) > best) best = v3_dot(d, d), pick[1] = i;
    }
    if (pick[1] >= 0) {
        sn_real hi = 0, lo = 0, ab[3];
        v3_sub(ab, p[pick[1]], p[pick[0]]);
        for (int i = 0; i < n; i++) {
            sn_real av[3], c[3];
            v3_sub(av, p[i], p[pick[0]]);
            v3_cross(c, ab, av);
            sn_real s = v3_dot(c, nrm);
            if (s > hi) hi = s, pick[2] = i;
            if (s < lo) lo = s, pick[3] = i;
        }
    }
    int m = 0;
    for (int i = 0; i < 4; i++)
        if (pick[i] >= 0) pick[m++] = pick[i];
    return m;
}

// at most four of the points (with their gaps), in place
static int reduce4(sn_real (*p)[3], sn_real* gap, int n, const sn_real* nrm) {
    int pick[4];
    int m = sni_pick4(p, gap, n, nrm, pick);
    if (n <= 4) return n;
    sn_real q[4][3], g[4];
    for (int i = 0; i < m; i++)
        v3_copy(q[i], p[pick[i]]), g[i] = gap[pick[i]];
    for (int i = 0; i < m; i++)
        v3_copy(p[i], q[i]), gap[i] = g[i];
    return m;
}

int sni_convex_feature(const sni_convex* c, const sn_real* d, sn_real tol, sn_real (*out)[3]) {
    int n = feature(c, d, tol, out);
    sn_real r = rounding(c);
    for (int i = 0; i < n && r > 0; i++)
        v3_addscl(out[i], d, r);
    return n;
}


// the k points p (with their gaps g) without those that (nearly) repeat a point kept before them:
// nearer to it than 1e-3 of the span (the largest distance from the first point). Returns the
// number kept.
static int drop_repeats(sn_real (*p)[3], sn_real* g, int k) {
    sn_real span = 0;
    for (int i = 1; i < k; i++) {
        sn_real t[3];
        v3_sub(t, p[i], p[0]);
        if (v3_norm(t) > span) span = v3_norm(t);
    }
    int kept = 0;
    for (int i = 0; i < k; i++) {
        int dup = 0;
        for (int j = 0; j < kept && !dup; j++) {
            sn_real t[3];
            v3_sub(t, p[i], p[j]);
            dup = v3_norm(t) <= 1e-3 * span;
        }
        if (dup) continue;
        v3_copy(p[kept], p[i]);
        g[kept++] = g[i];
    }
    return kept;
}


int sni_convex_manifold(const sni_convex* a, const sni_convex* b, sn_real margin, sn_real (*x)[3],
                        sn_real* n, sn_real* gap) {
    if (!sni_convex_contact(a, b, margin, x[0], n, &gap[0])) return 0;
    // the features facing each other: a's towards -n, b's towards n, as surface points
    sn_real fa[FEAT_MAX][3], fb[FEAT_MAX][3], mn[3] = {-n[0], -n[1], -n[2]};
    sn_real tol = margin > 1e-6 ? margin : 1e-6;
    int na = feature(a, mn, tol, fa), nb = feature(b, n, tol, fb);
    if (na < 2 || nb < 2) return 1;
    sn_real ra = rounding(a), rb = rounding(b);
    for (int i = 0; i < na; i++)
        v3_addscl(fa[i], n, -ra);
    for (int i = 0; i < nb; i++)
        v3_addscl(fb[i], n, rb);
    // the reference feature has more points; the incident one is clipped to its outline
    int a_ref = na > nb;
    sn_real(*ref)[3] = a_ref ? fa : fb;
    sn_real(*inc)[3] = a_ref ? fb : fa;
    int nr = a_ref ? na : nb, ni = a_ref ? nb : na;
    sn_real buf[2][FEAT_MAX][3];
    int m = ni;
    memcpy(buf[0], inc, (size_t)ni * sizeof inc[0]);
    int cur = 0;
    if (nr >= 3) {
        order_polygon(ref, nr, n);
        for (int e = 0; e < nr && m > 0; e++) {
            sn_real edge[3], k[3];
            v3_sub(edge, ref[(e + 1) % nr], ref[e]);
            v3_cross(k, edge, n); // outward for a counter-clockwise outline around n
            m = clip_plane(buf[cur], m, buf[1 - cur], ref[e], k);
            cur = 1 - cur;
        }
    } else {
        // two segments: the incident one within the reference one's ends
        sn_real dir[3];
        v3_sub(dir, ref[1], ref[0]);
        v3_addscl(dir, n, -v3_dot(dir, n));
        sn_real back[3] = {-dir[0], -dir[1], -dir[2]};
        m = clip_plane(buf[cur], m, buf[1 - cur], ref[1], dir);
        cur = 1 - cur;
        if (m > 0) m = clip_plane(buf[cur], m, buf[1 - cur], ref[0], back);
        cur = 1 - cur;
    }
    if (m < 2) return 1;
    // gaps: along n from each incident point to the reference face's own plane (a polygon:
    // through its centroid, normal by Newell's sum), or to its supporting plane (a segment)
    sn_real nf[3] = {n[0], n[1], n[2]}, r0[3] = {0, 0, 0};
    if (nr >= 3) {
        v3_set(nf, 0, 0, 0);
        for (int i = 0; i < nr; i++) {
            v3_addcross(nf, ref[i], ref[(i + 1) % nr]);
            v3_addscl(r0, ref[i], 1.0 / nr);
        }
        sn_real l = v3_norm(nf);
        if (l > 0 && fabs(v3_dot(nf, n)) > 0.5 * l) {
            v3_scale(nf, nf, (v3_dot(nf, n) > 0 ? 1 : -1) / l);
        } else {
            v3_copy(nf, n);
        }
    } else {
        // the supporting plane: through the reference point deepest towards the other shape
        v3_copy(r0, ref[0]);
        for (int i = 1; i < nr; i++)
            if (a_ref ? v3_dot(n, ref[i]) < v3_dot(n, r0) : v3_dot(n, ref[i]) > v3_dot(n, r0))
                v3_copy(r0, ref[i]);
    }
    sn_real px[FEAT_MAX][3], pg[FEAT_MAX], fn = v3_dot(nf, n);
    int k = 0;
    for (int i = 0; i < m; i++) {
        sn_real d[3];
        v3_sub(d, r0, buf[cur][i]);
        sn_real sl = v3_dot(nf, d) / fn; // x + sl n lies on the reference plane
        sn_real g = a_ref ? sl : -sl;
        if (!(g < margin)) continue;
        v3_copy(px[k], buf[cur][i]);
        v3_addscl(px[k], n, 0.5 * sl);
        pg[k++] = g;
    }
    if (k < 2) return 1;
    k = drop_repeats(px, pg, k);
    if (k < 2) return 1;
    k = reduce4(px, pg, k, n);
    for (int i = 0; i < k; i++) {
        v3_copy(x[i], px[i]);
        gap[i] = pg[i];
    }
    return k;
}
