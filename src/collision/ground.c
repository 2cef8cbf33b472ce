// SPDX-License-Identifier: Apache-2.0
// ground.c: contacts between the collision geometry of articulated systems and the ground: the
// plane z = h, or a heightfield. Closed forms per primitive against a plane: a sphere touches at
// one point, a capsule at its two end spheres, a box at its (up to four) deepest corners, a
// cylinder at the lowest rim points of its caps, a convex mesh at the vertices that outline its
// lowest face. Over a heightfield, the same closed forms where the terrain under a geometry is
// one plane, otherwise its triangular prisms (their faces and their peaks) with the candidates
// merged and at most four kept. A contact is reported once the gap is below the world's contact
// margin (a speculative contact: the solver then only stops the approach at the surface).
#include "collision/collide.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// most contact points a geometry can produce against a plane
int sni_geom_max_contacts(int type) {
    switch (type) {
    case SN_GEOM_SPHERE:
    case SN_GEOM_ELLIPSOID:
        return 1;
    case SN_GEOM_CAPSULE:
        return 2;
    case SN_GEOM_BOX:
        return 4;
    case SN_GEOM_CYLINDER:
        return 4;
    case SN_GEOM_MESH:
        return 4;
    default:
        return 0;
    }
}


// the terrain (the ground plane or a heightfield's triangle) under a geometry: unit normal n,
// points x with n.x = off
typedef struct plane {
    sn_real n[3], off;
} plane;


// candidate contacts of one geometry with a heightfield, gathered before at most four are kept
#define TSINK_MAX 96
typedef struct sni_tsink {
    int n;
    sn_real x[TSINK_MAX][3], nrm[TSINK_MAX][3], gap[TSINK_MAX];
} sni_tsink;

static void sink_add(sni_tsink* t, const sn_real* x, const sn_real* n, sn_real gap) {
    if (t->n >= TSINK_MAX) return;
    v3_copy(t->x[t->n], x);
    v3_copy(t->nrm[t->n], n);
    t->gap[t->n++] = gap;
}

static void add_contact(sn_system* s, int g, const plane* pl, const sn_real* x) {
    sn_world* w = s->world;
    if (w->tsink) {
        sink_add(w->tsink, x, pl->n, v3_dot(pl->n, x) - pl->off);
        return;
    }
    sni_contact_add(w, s->index, g, -1, -1, x, pl->n, v3_dot(pl->n, x) - pl->off);
}


// a point x of geometry g: a contact when its gap to the plane is below the margin
static void try_point(sn_system* s, int g, const plane* pl, const sn_real* x) {
    if (v3_dot(pl->n, x) - pl->off < s->world->margin) add_contact(s, g, pl, x);
}


// lowest points of a cylinder (axis a, centre p, radius r, half length hl) against the plane
static void cylinder_points(sn_system* s, int g, const plane* pl, const sn_real* a,
                            const sn_real* p, sn_real r, sn_real hl) {
    // the in-plane direction of steepest descent on a rim: -n projected off the axis
    sn_real proj[3];
    v3_scale(proj, pl->n, -1);
    v3_addscl(proj, a, v3_dot(pl->n, a));
    sn_real pn = v3_norm(proj);
    for (int side = -1; side <= 1; side += 2) {
        sn_real cap[3];
        v3_copy(cap, p);
        v3_addscl(cap, a, side * hl);
        if (pn > 1e-3) {
            sn_real x[3];
            v3_copy(x, cap);
            v3_addscl(x, proj, r / pn);
            try_point(s, g, pl, x);
        } else if (v3_dot(pl->n, cap) < v3_dot(pl->n, p)) {
            // axis along the normal: four points on the lower cap's rim, along the plane's axes
            sn_real f[9];
            sni_contact_frame(f, pl->n);
            for (int k = 0; k < 4; k++) {
                sn_real x[3];
                v3_copy(x, cap);
                v3_addscl(x, k < 2 ? f : f + 3, (k % 2 ? -r : r));
                try_point(s, g, pl, x);
            }
        }
    }
}


// the squared distance of local point v from the line through a and b, both across the normal n
static sn_real across(const sn_real* v, const sn_real* a, const sn_real* b, const sn_real* n) {
    sn_real ab[3], av[3], c[3];
    v3_sub(ab, b, a);
    v3_sub(av, v, a);
    v3_cross(c, ab, av);
    return v3_dot(c, n); // signed: twice the area of (a, b, v) seen along n
}

// a convex mesh (pose R, p) against a plane: the deepest vertex, then among the vertices within
// the margin the one farthest from it, the one farthest from the line of those two, and the one
// farthest on the other side of that line (a face lying on the plane gives its outline)
static void mesh_plane(sn_system* s, int g, const plane* pl, const sn_real* R, const sn_real* p) {
    const sn_model* m = s->m;
    int nv = m->geom_vert_num[g];
    const sn_real* v = m->mesh_vert + 3 * (size_t)m->geom_vert_adr[g];
    sn_real nl[3];
    m3t_mul_v3(nl, R, pl->n);
    sn_real base = v3_dot(pl->n, p) - pl->off, limit = s->world->margin - base;
    int k0 = 0;
    for (int k = 1; k < nv; k++)
        if (v3_dot(nl, v + 3 * k) < v3_dot(nl, v + 3 * k0)) k0 = k;
    if (v3_dot(nl, v + 3 * k0) >= limit) return;
    int pick[4] = {k0, -1, -1, -1};
    sn_real best = 0;
    for (int k = 0; k < nv; k++) {
        if (v3_dot(nl, v + 3 * k) >= limit) continue;
        sn_real d[3];
        v3_sub(d, v + 3 * k, v + 3 * k0);
        v3_addscl(d, nl, -v3_dot(d, nl));
        if (v3_dot(d, d) > best) best = v3_dot(d, d), pick[1] = k;
    }
    if (pick[1] >= 0) {
        sn_real hi = 0, lo = 0;
        for (int k = 0; k < nv; k++) {
            if (v3_dot(nl, v + 3 * k) >= limit) continue;
            sn_real a = across(v + 3 * k, v + 3 * k0, v + 3 * pick[1], nl);
            if (a > hi) hi = a, pick[2] = k;
            if (a < lo) lo = a, pick[3] = k;
        }
    }
    for (int i = 0; i < 4; i++) {
        if (pick[i] < 0) continue;
        sn_real x[3];
        m3_mul_v3(x, R, v + 3 * pick[i]);
        v3_add(x, x, p);
        add_contact(s, g, pl, x);
    }
}


// the contacts of geometry g (pose R, p) with a plane
static void collide_plane(sn_system* s, int g, const plane* pl, const sn_real* R,
                          const sn_real* p) {
    const sn_model* m = s->m;
    const sn_real* sz = m->geom_size + 3 * g;
    const sn_real* n = pl->n;
    sn_real a[3] = {R[2], R[5], R[8]}; // the local z axis
    switch (m->geom_type[g]) {
    case SN_GEOM_SPHERE: {
        sn_real x[3];
        v3_copy(x, p);
        v3_addscl(x, n, -sz[0]);
        try_point(s, g, pl, x);
        break;
    }
    case SN_GEOM_CAPSULE:
        for (int side = -1; side <= 1; side += 2) {
            sn_real x[3];
            v3_copy(x, p);
            v3_addscl(x, a, side * 0.5 * sz[1]);
            v3_addscl(x, n, -sz[0]);
            try_point(s, g, pl, x);
        }
        break;
    case SN_GEOM_ELLIPSOID: {
        // the deepest point: along -n, x = -A^2 m / |A m| with m = R^T n in the local frame
        sn_real ml[3], am[3], x[3], l;
        m3t_mul_v3(ml, R, n);
        v3_set(am, sz[0] * ml[0], sz[1] * ml[1], sz[2] * ml[2]);
        l = v3_norm(am);
        if (!(l > 0)) break;
        sn_real xl[3] = {-sz[0] * am[0] / l, -sz[1] * am[1] / l, -sz[2] * am[2] / l};
        m3_mul_v3(x, R, xl);
        v3_add(x, x, p);
        try_point(s, g, pl, x);
        break;
    }
    case SN_GEOM_BOX: {
        // the four deepest corners below the margin
        sn_real corner[8][3], z[8];
        int idx[8];
        for (int k = 0; k < 8; k++) {
            sn_real l[3] = {(k & 1 ? 0.5 : -0.5) * sz[0], (k & 2 ? 0.5 : -0.5) * sz[1],
                            (k & 4 ? 0.5 : -0.5) * sz[2]};
            m3_mul_v3(corner[k], R, l);
            v3_add(corner[k], corner[k], p);
            z[k] = v3_dot(n, corner[k]);
            idx[k] = k;
        }
        for (int i = 1; i < 8; i++)
            for (int j = i; j > 0 && z[idx[j]] < z[idx[j - 1]]; j--) {
                int tmp = idx[j];
                idx[j] = idx[j - 1];
                idx[j - 1] = tmp;
            }
        for (int k = 0; k < 4; k++)
            try_point(s, g, pl, corner[idx[k]]);
        break;
    }
    case SN_GEOM_CYLINDER:
        cylinder_points(s, g, pl, a, p, sz[0], 0.5 * sz[1]);
        break;
    case SN_GEOM_MESH:
        if (m->geom_vert_num[g] > 0) mesh_plane(s, g, pl, R, p);
        break;
    default:
        break;
    }
}


int sni_terrain_plane(const sn_world* w, sn_real x, sn_real y, sn_real* n, sn_real* off) {
    if (w->hf_nx) {
        sn_real fx = (x - w->hf_x0) / w->hf_dx, fy = (y - w->hf_y0) / w->hf_dy;
        if (fx >= 0 && fy >= 0 && fx <= w->hf_nx - 1 && fy <= w->hf_ny - 1) {
            int i = (int)fx, j = (int)fy;
            if (i > w->hf_nx - 2) i = w->hf_nx - 2;
            if (j > w->hf_ny - 2) j = w->hf_ny - 2;
            fx -= i, fy -= j;
            const sn_real* z = w->hf_z + i + (size_t)w->hf_nx * j;
            sn_real z00 = z[0], z10 = z[1], z01 = z[w->hf_nx], z11 = z[w->hf_nx + 1];
            // the triangle (00, 10, 11) below the diagonal, (00, 11, 01) above: its slopes
            sn_real sx, sy;
            if (fx >= fy)
                sx = (z10 - z00) / w->hf_dx, sy = (z11 - z10) / w->hf_dy;
            else
                sx = (z11 - z01) / w->hf_dx, sy = (z01 - z00) / w->hf_dy;
            sn_real inv = 1 / sqrt(1 + sx * sx + sy * sy);
            v3_set(n, -sx * inv, -sy * inv, inv);
            // the plane through the corner (i, j)
            sn_real cx = w->hf_x0 + i * w->hf_dx, cy = w->hf_y0 + j * w->hf_dy;
            *off = n[0] * cx + n[1] * cy + n[2] * z00;
            return 1;
        }
    }
    if (!w->ground) return 0;
    v3_set(n, 0, 0, 1);
    *off = w->ground_height;
    return 1;
}


// ---- heightfields: triangular prisms ----

// the field's cells under a sphere: columns i0..i1, rows j0..j1 (clamped to the field)
typedef struct cells {
    int i0, i1, j0, j1;
} cells;


static void cells_under(const sn_world* w, const sn_real* c, sn_real r, cells* k) {
    int nx = w->hf_nx, ny = w->hf_ny;
    int i0 = (int)floor((c[0] - r - w->hf_x0) / w->hf_dx),
        i1 = (int)floor((c[0] + r - w->hf_x0) / w->hf_dx);
    int j0 = (int)floor((c[1] - r - w->hf_y0) / w->hf_dy),
        j1 = (int)floor((c[1] + r - w->hf_y0) / w->hf_dy);
    i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
    i1 = i1 > nx - 2 ? nx - 2 : i1, j1 = j1 > ny - 2 ? ny - 2 : j1;
    k->i0 = i0, k->i1 = i1, k->j0 = j0, k->j1 = j1;
}


// whether the footprint (the sphere of centre c, radius r, over cells k) lies inside the field
// on one plane (flat or evenly tilted ground): then that plane pc
static int footprint_plane(const sn_world* w, const sn_real* c, sn_real r, const cells* k,
                           plane* pc) {
    int nx = w->hf_nx, ny = w->hf_ny;
    sn_real xe = w->hf_x0 + (nx - 1) * w->hf_dx, ye = w->hf_y0 + (ny - 1) * w->hf_dy;
    int planar = c[0] - r >= w->hf_x0 && c[0] + r <= xe && c[1] - r >= w->hf_y0 && c[1] + r <= ye &&
                 sni_terrain_plane(w, c[0], c[1], pc->n, &pc->off);
    for (int j = k->j0; j <= k->j1 && planar; j++)
        for (int i = k->i0; i <= k->i1 && planar; i++) {
            const sn_real* z = w->hf_z + i + (size_t)nx * j;
            sn_real x0 = w->hf_x0 + i * w->hf_dx, y0 = w->hf_y0 + j * w->hf_dy;
            sn_real pts[4][3] = {{x0, y0, z[0]},
                                 {x0 + w->hf_dx, y0, z[1]},
                                 {x0, y0 + w->hf_dy, z[nx]},
                                 {x0 + w->hf_dx, y0 + w->hf_dy, z[nx + 1]}};
            for (int q = 0; q < 4; q++)
                if (fabs(v3_dot(pc->n, pts[q]) - pc->off) > 1e-12 * (1 + fabs(pc->off))) planar = 0;
        }
    return planar;
}


// faces: the shape's points nearest each triangle's plane (its feature along the triangle's
// downward normal) whose vertical projection falls inside the triangle
static void field_faces(const sn_world* w, const sni_convex* shape, const cells* k,
                        sni_tsink* sink) {
    int nx = w->hf_nx;
    for (int j = k->j0; j <= k->j1; j++)
        for (int i = k->i0; i <= k->i1; i++) {
            const sn_real* z = w->hf_z + i + (size_t)nx * j;
            sn_real x0 = w->hf_x0 + i * w->hf_dx, y0 = w->hf_y0 + j * w->hf_dy;
            sn_real cz[4] = {z[0], z[1], z[nx], z[nx + 1]}; // 00 10 01 11
            for (int t = 0; t < 2; t++) {
                // (00, 10, 11) below the diagonal (fx >= fy), (00, 11, 01) above
                sn_real sx, sy;
                if (t == 0)
                    sx = (cz[1] - cz[0]) / w->hf_dx, sy = (cz[3] - cz[1]) / w->hf_dy;
                else
                    sx = (cz[3] - cz[2]) / w->hf_dx, sy = (cz[2] - cz[0]) / w->hf_dy;
                plane pl;
                sn_real inv = 1 / sqrt(1 + sx * sx + sy * sy);
                v3_set(pl.n, -sx * inv, -sy * inv, inv);
                pl.off = pl.n[0] * x0 + pl.n[1] * y0 + pl.n[2] * cz[0];
                sn_real down[3] = {-pl.n[0], -pl.n[1], -pl.n[2]}, f[SNI_FEAT_MAX][3];
                int nf = sni_convex_feature(shape, down, w->margin, f);
                for (int q = 0; q < nf; q++) {
                    sn_real gap = v3_dot(pl.n, f[q]) - pl.off;
                    if (!(gap < w->margin)) continue;
                    sn_real fx = (f[q][0] - x0) / w->hf_dx, fy = (f[q][1] - y0) / w->hf_dy;
                    if (fx < 0 || fx > 1 || fy < 0 || fy > 1 || (t == 0 ? fx < fy : fx > fy))
                        continue;
                    sink_add(sink, f[q], pl.n, gap);
                }
            }
        }
}


// the field's points that stand above their neighbours (peaks and ridges) against the shape
static void field_peaks(const sn_world* w, const sni_convex* shape, const cells* k,
                        sni_tsink* sink) {
    int nx = w->hf_nx, ny = w->hf_ny;
    sn_real pt_size[3] = {0, 0, 0};
    sni_convex pt;
    memset(&pt, 0, sizeof pt);
    pt.type = SN_GEOM_SPHERE;
    pt.size = pt_size;
    m3_identity(pt.R);
    for (int j = k->j0 < 1 ? 1 : k->j0; j <= k->j1 + 1 && j < ny - 1; j++)
        for (int i = k->i0 < 1 ? 1 : k->i0; i <= k->i1 + 1 && i < nx - 1; i++) {
            const sn_real* z = w->hf_z + i + (size_t)nx * j;
            sn_real avg = 0.25 * (z[-1] + z[1] + z[-nx] + z[nx]);
            if (!(z[0] > avg + 1e-9 * (1 + fabs(avg)))) continue;
            v3_set(pt.p, w->hf_x0 + i * w->hf_dx, w->hf_y0 + j * w->hf_dy, z[0]);
            v3_copy(pt.center, pt.p);
            sn_real x[3], n[3], gap;
            if (sni_convex_contact(shape, &pt, w->margin, x, n, &gap) && n[2] > 0)
                sink_add(sink, x, n, gap);
        }
}


// beyond the field's rectangle, the ground plane: geometry g's (pose R, p) contacts with it,
// into the world's sink, those over the field dropped
static void ground_beyond(sn_system* s, int g, const sn_real* R, const sn_real* p) {
    const sn_world* w = s->world;
    sni_tsink* sink = w->tsink;
    plane pl;
    v3_set(pl.n, 0, 0, 1);
    pl.off = w->ground_height;
    int before = sink->n;
    collide_plane(s, g, &pl, R, p);
    sn_real x1 = w->hf_x0 + (w->hf_nx - 1) * w->hf_dx, y1 = w->hf_y0 + (w->hf_ny - 1) * w->hf_dy;
    int k = before;
    for (int i = before; i < sink->n; i++) {
        const sn_real* x = sink->x[i];
        if (x[0] >= w->hf_x0 && x[0] <= x1 && x[1] >= w->hf_y0 && x[1] <= y1) continue;
        v3_copy(sink->x[k], sink->x[i]);
        v3_copy(sink->nrm[k], sink->nrm[i]);
        sink->gap[k++] = sink->gap[i];
    }
    sink->n = k;
}


// the sink's candidates merged (a point on an edge that two prisms share counts once, with the
// deeper gap), then at most four kept as geometry g's contacts (the deepest and those that
// outline the rest, across the mean normal)
static void sink_keep4(sn_system* s, int g, sni_tsink* sink) {
    sn_real span = 0;
    for (int i = 1; i < sink->n; i++) {
        sn_real t[3];
        v3_sub(t, sink->x[i], sink->x[0]);
        span = fmax(span, v3_norm(t));
    }
    int k = 0;
    sn_real nsum[3] = {0, 0, 0};
    for (int i = 0; i < sink->n; i++) {
        int dup = -1;
        for (int j = 0; j < k && dup < 0; j++) {
            sn_real t[3];
            v3_sub(t, sink->x[i], sink->x[j]);
            if (v3_norm(t) <= 1e-6 * span + 1e-12 && v3_dot(sink->nrm[i], sink->nrm[j]) > 0.999)
                dup = j;
        }
        if (dup >= 0) {
            if (sink->gap[i] < sink->gap[dup]) {
                v3_copy(sink->nrm[dup], sink->nrm[i]);
                sink->gap[dup] = sink->gap[i];
            }
            continue;
        }
        v3_copy(sink->x[k], sink->x[i]);
        v3_copy(sink->nrm[k], sink->nrm[i]);
        sink->gap[k++] = sink->gap[i];
    }
    for (int i = 0; i < k; i++)
        v3_add(nsum, nsum, sink->nrm[i]);
    sn_real nl = v3_norm(nsum);
    if (nl > 0)
        v3_scale(nsum, nsum, 1 / nl);
    else
        v3_set(nsum, 0, 0, 1);
    int pick[4];
    int m = sni_pick4(sink->x, sink->gap, k, nsum, pick);
    for (int i = 0; i < m; i++)
        sni_contact_add(s->world, s->index, g, -1, -1, sink->x[pick[i]], sink->nrm[pick[i]],
                        sink->gap[pick[i]]);
}


// a geometry over the heightfield, where the terrain bends under it: against each triangle of the
// cells its bounding sphere covers, its points nearest the triangle's plane that lie over the
// triangle (the triangle's normal); against each field point that stands above its four
// neighbours (a peak or a ridge), GJK/EPA between the point and the shape; where its sphere
// leaves the field, the ground plane. The candidates are merged: points that repeat count once,
// and at most four are kept (the deepest and those that outline the rest)
static void terrain_geom(sn_system* s, int g, const sn_real* R, const sn_real* p) {
    sn_world* w = s->world;
    sni_tsink sink;
    sink.n = 0;
    w->tsink = &sink;
    sni_convex shape;
    sni_geom_convex(&shape, s, g, R, p);
    sn_real r = s->geom_radius[g] + w->margin;
    cells k;
    cells_under(w, shape.center, r, &k);
    // a footprint inside the field on one plane: that plane's closed forms, exactly as on the
    // ground plane
    plane pc;
    if (footprint_plane(w, shape.center, r, &k, &pc)) {
        w->tsink = NULL;
        collide_plane(s, g, &pc, R, p);
        return;
    }
    field_faces(w, &shape, &k, &sink);
    field_peaks(w, &shape, &k, &sink);
    if (w->ground) ground_beyond(s, g, R, p);
    w->tsink = NULL;
    if (sink.n == 0) return;
    sink_keep4(s, g, &sink);
}


// whether geometry g's bounding sphere reaches over the heightfield's rectangle
static int over_field(const sn_world* w, const sn_system* s, int g) {
    sn_real c[3], r = s->geom_radius[g] + w->margin;
    sni_geom_bound_center(s, g, c);
    sn_real x1 = w->hf_x0 + (w->hf_nx - 1) * w->hf_dx, y1 = w->hf_y0 + (w->hf_ny - 1) * w->hf_dy;
    return c[0] + r >= w->hf_x0 && c[0] - r <= x1 && c[1] + r >= w->hf_y0 && c[1] - r <= y1;
}

// the contacts of every collision geometry of system si with the ground (plane or heightfield)
void sni_collide_ground(sn_world* w, int si) {
    sn_system* s = w->sys[si];
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    sn_real top = w->ground ? w->ground_height : -(sn_real)INFINITY;
    if (w->hf_nx && w->hf_zmax > top) top = w->hf_zmax;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_is_visual[g]) continue;
        if (sni_geom_max_contacts(m->geom_type[g]) == 0) continue;
        int body = m->frame_body[m->geom_frame[g]];
        if (body == 0) continue;                 // welded to the world
        if (!(s->body_mask[body] & 1)) continue; // the ground is group 1
        // the bounding sphere first: most geometries are far from the ground
        const sn_real* rb = d->body_rot + 9 * body;
        const sn_real* c = s->geom_center + 3 * g;
        sn_real zc = rb[6] * c[0] + rb[7] * c[1] + rb[8] * c[2] + d->body_pos[3 * body + 2];
        if (zc - s->geom_radius[g] > top + w->margin) continue;
        sn_real R[9], p[3];
        sni_geom_pose(m, d, g, R, p);
        if (w->hf_nx && over_field(w, s, g)) {
            terrain_geom(s, g, R, p);
            continue;
        }
        plane pl;
        if (!sni_terrain_plane(w, p[0], p[1], pl.n, &pl.off)) continue;
        collide_plane(s, g, &pl, R, p);
    }
}
