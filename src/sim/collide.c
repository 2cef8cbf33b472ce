// SPDX-License-Identifier: Apache-2.0
// collide.c: contacts between the collision geometry of articulated systems and the ground
// (the plane z = h, or the plane of the heightfield triangle under a geometry's centre), and
// between systems. Closed forms per primitive against a plane: a sphere touches at one point, a
// capsule at its two end spheres, a box at its (up to four) deepest corners, a cylinder at the
// lowest rim points of its caps. A contact is reported once the gap is below the world's contact
// margin (a speculative contact: the solver then only stops the approach at the surface).
#include "dynamics/dyn.h"
#include "sim/convex.h"
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


// world pose of geometry g at the system's current kinematics
static void geom_pose(const sn_model* m, const sn_data* d, int g, sn_real* R, sn_real* p) {
    int f = m->geom_frame[g];
    sn_real rf[9], pf[3], t[3];
    sn_frame_pose(m, d, f, pf, rf);
    m3_mul(R, rf, m->geom_rot + 9 * g);
    m3_mul_v3(t, rf, m->geom_pos + 3 * g);
    v3_add(p, pf, t);
}


// an orthonormal contact frame (rows t1, t2, n) around the unit normal n
static void contact_frame(sn_real* f, const sn_real* n) {
    sn_real t1[3], t2[3];
    if (fabs(n[2]) < 0.9)
        v3_set(t2, 0, 0, 1);
    else
        v3_set(t2, 1, 0, 0);
    v3_cross(t1, t2, n);
    v3_scale(t1, t1, 1 / v3_norm(t1));
    v3_cross(t2, n, t1);
    if (n[0] == 0 && n[1] == 0 && n[2] == 1) v3_set(t1, 1, 0, 0), v3_set(t2, 0, 1, 0);
    v3_copy(f, t1);
    v3_copy(f + 3, t2);
    v3_copy(f + 6, n);
}


// a contact of geometry ga of system sa (at world point x) with geometry gb of system sb (-1:
// the ground), normal from b to a, and the gap (negative when penetrating)
static void add_pair(sn_world* w, int sa, int ga, int sb, int gb, const sn_real* x,
                     const sn_real* n, sn_real gap) {
    if (w->ncontact >= w->contact_cap) {
        w->contact_overflow++;
        return;
    }
    sni_contact* c = &w->contacts[w->ncontact++];
    memset(c, 0, sizeof *c);
    const sn_model* ma = w->sys[sa]->m;
    c->sa = sa, c->geom = ga, c->body = ma->frame_body[ma->geom_frame[ga]];
    c->sb = sb, c->geom_b = gb, c->body_b = -1;
    if (sb >= 0) {
        const sn_model* mb = w->sys[sb]->m;
        c->body_b = mb->frame_body[mb->geom_frame[gb]];
    }
    v3_copy(c->pos, x);
    v3_copy(c->normal, n);
    contact_frame(c->frame, n);
    c->depth = -gap;
    // the pair's material (the ground is material 0)
    int ma_id = w->sys[sa]->body_material[c->body];
    int mb_id = sb >= 0 ? w->sys[sb]->body_material[c->body_b] : 0;
    if (w->pair_set[ma_id][mb_id]) {
        c->mu = w->pair_material[ma_id][mb_id][0];
        c->e = w->pair_material[ma_id][mb_id][1];
        c->eth = w->pair_material[ma_id][mb_id][2];
    } else {
        c->mu = w->friction, c->e = w->restitution, c->eth = w->restitution_threshold;
    }
    // the scheme rules of seed 000 count a touch as contact, whatever the scheme of this step
    if (gap <= 0) {
        w->sys[sa]->has_contacted = 1;
        if (sb >= 0) w->sys[sb]->has_contacted = 1;
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
    add_pair(w, s->index, g, -1, -1, x, pl->n, v3_dot(pl->n, x) - pl->off);
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
            contact_frame(f, pl->n);
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


static void bound_center(const sn_system* s, int g, sn_real* c);
static void terrain_geom(sn_system* s, int g, const sn_real* R, const sn_real* p);

// whether geometry g's bounding sphere reaches over the heightfield's rectangle
static int over_field(const sn_world* w, const sn_system* s, int g) {
    sn_real c[3], r = s->geom_radius[g] + w->margin;
    bound_center(s, g, c);
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
        geom_pose(m, d, g, R, p);
        if (w->hf_nx && over_field(w, s, g)) {
            terrain_geom(s, g, R, p);
            continue;
        }
        plane pl;
        if (!sni_terrain_plane(w, p[0], p[1], pl.n, &pl.off)) continue;
        collide_plane(s, g, &pl, R, p);
    }
}


// ---- contacts between systems (spheres for now) ----

// sphere (centre ca, radius ra, of system sa) against sphere (cb, rb, of sb)
static void sphere_sphere(sn_world* w, int sa, int ga, const sn_real* ca, sn_real ra, int sb,
                          int gb, const sn_real* cb, sn_real rb) {
    sn_real d[3];
    v3_sub(d, ca, cb);
    sn_real dist = v3_norm(d), gap = dist - ra - rb;
    if (gap >= w->margin || dist < 1e-12) return;
    sn_real n[3], x[3];
    v3_scale(n, d, 1 / dist);
    // the contact point midway between the two surfaces
    v3_copy(x, cb);
    v3_addscl(x, n, rb + 0.5 * gap);
    add_pair(w, sa, ga, sb, gb, x, n, gap);
}


// sphere (centre c, radius r, of system sa) against box (pose R, p, half extents h, of sb)
static void sphere_box(sn_world* w, int sa, int ga, const sn_real* c, sn_real r, int sb, int gb,
                       const sn_real* R, const sn_real* p, const sn_real* h) {
    sn_real d[3], l[3], cl[3];
    v3_sub(d, c, p);
    m3t_mul_v3(l, R, d); // the centre in the box frame
    int inside = 1;
    for (int k = 0; k < 3; k++) {
        cl[k] = l[k] < -h[k] ? -h[k] : l[k] > h[k] ? h[k] : l[k];
        if (cl[k] != l[k]) inside = 0;
    }
    sn_real n[3], x[3], gap;
    if (!inside) {
        sn_real diff[3] = {l[0] - cl[0], l[1] - cl[1], l[2] - cl[2]}, nl[3];
        sn_real dist = v3_norm(diff);
        gap = dist - r;
        if (gap >= w->margin) return;
        v3_scale(nl, diff, 1 / dist);
        m3_mul_v3(n, R, nl);
        m3_mul_v3(x, R, cl);
        v3_add(x, x, p);
    } else {
        // the centre is inside: out through the nearest face
        int k = 0;
        sn_real best = h[0] - fabs(l[0]);
        for (int e = 1; e < 3; e++)
            if (h[e] - fabs(l[e]) < best) best = h[e] - fabs(l[e]), k = e;
        sn_real nl[3] = {0, 0, 0};
        nl[k] = l[k] >= 0 ? 1 : -1;
        m3_mul_v3(n, R, nl);
        gap = -(best + r);
        cl[k] = nl[k] * h[k];
        m3_mul_v3(x, R, cl);
        v3_add(x, x, p);
    }
    add_pair(w, sa, ga, sb, gb, x, n, gap);
}


// ---- box against box: separating axes, then the incident face clipped by the reference face ----

typedef struct box {
    sn_real R[9], p[3], h[3];
    sn_real ax[3][3]; // the axes: columns of R
} box;


static void box_from(box* b, const sn_real* R, const sn_real* p, const sn_real* size) {
    memcpy(b->R, R, sizeof b->R);
    v3_copy(b->p, p);
    for (int k = 0; k < 3; k++) {
        b->h[k] = 0.5 * size[k];
        v3_set(b->ax[k], R[k], R[3 + k], R[6 + k]);
    }
}


static sn_real box_radius(const box* b, const sn_real* n) {
    return b->h[0] * fabs(v3_dot(b->ax[0], n)) + b->h[1] * fabs(v3_dot(b->ax[1], n)) +
           b->h[2] * fabs(v3_dot(b->ax[2], n));
}


// clip a polygon (n points) to the half space dot(x, a) <= off; returns the new count
static int clip(sn_real (*in)[3], int n, sn_real (*out)[3], const sn_real* a, sn_real off) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const sn_real* p = in[i];
        const sn_real* q = in[(i + 1) % n];
        sn_real dp = v3_dot(p, a) - off, dq = v3_dot(q, a) - off;
        if (dp <= 0) v3_copy(out[m++], p);
        if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
            sn_real t = dp / (dp - dq);
            for (int k = 0; k < 3; k++)
                out[m][k] = p[k] + t * (q[k] - p[k]);
            m++;
        }
    }
    return m;
}


// the face of box b whose outward normal is most anti-parallel to n: its four corners
static void incident_face(const box* b, const sn_real* n, sn_real (*v)[3]) {
    int k = 0;
    sn_real best = 0;
    for (int e = 0; e < 3; e++) {
        sn_real x = v3_dot(b->ax[e], n);
        if (fabs(x) > fabs(best)) best = x, k = e;
    }
    sn_real s = best > 0 ? -1 : 1; // the face pointing against n
    int i = (k + 1) % 3, j = (k + 2) % 3;
    static const sn_real sg[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    for (int c = 0; c < 4; c++) {
        v3_copy(v[c], b->p);
        v3_addscl(v[c], b->ax[k], s * b->h[k]);
        v3_addscl(v[c], b->ax[i], sg[c][0] * b->h[i]);
        v3_addscl(v[c], b->ax[j], sg[c][1] * b->h[j]);
    }
}


static void box_box(sn_world* w, int sa, int ga, const box* A, int sb, int gb, const box* B) {
    sn_real d[3];
    v3_sub(d, A->p, B->p); // from B to A
    sn_real best = INFINITY, bn[3] = {0, 0, 0};
    int kind = -1; // 0..2 face of A, 3..5 face of B, 6.. edges
    for (int k = 0; k < 15; k++) {
        sn_real n[3];
        if (k < 3)
            v3_copy(n, A->ax[k]);
        else if (k < 6)
            v3_copy(n, B->ax[k - 3]);
        else {
            v3_cross(n, A->ax[(k - 6) / 3], B->ax[(k - 6) % 3]);
            sn_real len = v3_norm(n);
            if (len < 1e-6) continue; // parallel edges: a face axis covers them
            v3_scale(n, n, 1 / len);
        }
        sn_real dist = v3_dot(d, n);
        sn_real pen = box_radius(A, n) + box_radius(B, n) - fabs(dist);
        if (pen < -w->margin) return; // separated
        // prefer faces: an edge axis wins only when clearly shallower
        sn_real score = k < 6 ? pen : pen * 1.05 + 1e-5;
        if (score < best) {
            best = score;
            kind = k;
            v3_scale(bn, n, dist < 0 ? -1 : 1); // oriented from B to A
        }
    }
    if (kind < 0) return;
    if (kind >= 6) {
        // edge against edge: the closest points of the two edges, one contact between them
        const sn_real* ea = A->ax[(kind - 6) / 3];
        const sn_real* eb = B->ax[(kind - 6) % 3];
        int ia = (kind - 6) / 3, ib = (kind - 6) % 3;
        sn_real ca[3], cb[3];
        v3_copy(ca, A->p);
        v3_copy(cb, B->p);
        for (int e = 0; e < 3; e++) {
            if (e != ia) v3_addscl(ca, A->ax[e], (v3_dot(A->ax[e], bn) > 0 ? -1 : 1) * A->h[e]);
            if (e != ib) v3_addscl(cb, B->ax[e], (v3_dot(B->ax[e], bn) > 0 ? 1 : -1) * B->h[e]);
        }
        // closest points of the lines ca + s ea and cb + t eb
        sn_real r[3];
        v3_sub(r, ca, cb);
        sn_real b = v3_dot(ea, eb), dd = 1 - b * b;
        sn_real s = dd > 1e-12 ? (b * v3_dot(eb, r) - v3_dot(ea, r)) / dd : 0;
        sn_real t = v3_dot(eb, r) + s * b;
        s = s < -A->h[ia] ? -A->h[ia] : s > A->h[ia] ? A->h[ia] : s;
        t = t < -B->h[ib] ? -B->h[ib] : t > B->h[ib] ? B->h[ib] : t;
        sn_real pa[3], pb[3], x[3];
        v3_copy(pa, ca), v3_addscl(pa, ea, s);
        v3_copy(pb, cb), v3_addscl(pb, eb, t);
        for (int k = 0; k < 3; k++)
            x[k] = 0.5 * (pa[k] + pb[k]);
        sn_real gap = v3_dot(pa, bn) - v3_dot(pb, bn);
        if (gap < w->margin) add_pair(w, sa, ga, sb, gb, x, bn, gap);
        return;
    }
    // a face: the reference box owns it; clip the other's incident face to its side planes
    int ref_a = kind < 3;
    const box* ref = ref_a ? A : B;
    const box* inc = ref_a ? B : A;
    sn_real n[3]; // the reference face's outward normal, towards the incident box
    v3_scale(n, bn, ref_a ? -1 : 1);
    int k = ref_a ? kind : kind - 3;
    sn_real poly[8][3], tmp[8][3];
    incident_face(inc, n, poly);
    int np = 4;
    for (int e = 0; e < 3 && np > 0; e++) {
        if (e == k) continue;
        sn_real a[3];
        v3_copy(a, ref->ax[e]);
        sn_real c = v3_dot(ref->p, a);
        np = clip(poly, np, tmp, a, c + ref->h[e]);
        v3_scale(a, a, -1);
        np = clip(tmp, np, poly, a, -c + ref->h[e]);
    }
    // points of the incident face below the reference face, the deepest four
    sn_real face = v3_dot(ref->p, n) + ref->h[k] * fabs(v3_dot(ref->ax[k], n));
    sn_real depth[8];
    int idx[8], m = 0;
    for (int i = 0; i < np; i++) {
        depth[i] = face - v3_dot(poly[i], n);
        if (depth[i] > -w->margin) idx[m++] = i;
    }
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && depth[idx[j]] > depth[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
    for (int i = 0; i < m && i < 4; i++) {
        sn_real x[3];
        v3_copy(x, poly[idx[i]]);
        v3_addscl(x, n, 0.5 * depth[idx[i]]); // midway between the surfaces
        add_pair(w, sa, ga, sb, gb, x, bn, -depth[idx[i]]);
    }
}


// world centre of the bounding sphere of geometry g of system s
static void bound_center(const sn_system* s, int g, sn_real* c) {
    int b = s->m->frame_body[s->m->geom_frame[g]];
    m3_mul_v3(c, s->d->body_rot + 9 * b, s->geom_center + 3 * g);
    v3_add(c, c, s->d->body_pos + 3 * b);
}


// ---- capsules: a segment with a radius ----

// the end points of capsule g (pose R, p, size radius, length)
static void capsule_ends(const sn_real* R, const sn_real* p, const sn_real* size, sn_real* e0,
                         sn_real* e1) {
    sn_real a[3] = {R[2], R[5], R[8]};
    v3_copy(e0, p);
    v3_addscl(e0, a, -0.5 * size[1]);
    v3_copy(e1, p);
    v3_addscl(e1, a, 0.5 * size[1]);
}


// the point of segment [a, b] closest to x
static void closest_on_segment(sn_real* out, const sn_real* a, const sn_real* b, const sn_real* x) {
    sn_real ab[3], ax[3];
    v3_sub(ab, b, a);
    v3_sub(ax, x, a);
    sn_real l2 = v3_dot(ab, ab), t = l2 > 0 ? v3_dot(ax, ab) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    v3_copy(out, a);
    v3_addscl(out, ab, t);
}


// closest points of segments [p0, p1] and [q0, q1]
static void closest_segments(const sn_real* p0, const sn_real* p1, const sn_real* q0,
                             const sn_real* q1, sn_real* cp, sn_real* cq) {
    sn_real d1[3], d2[3], r[3];
    v3_sub(d1, p1, p0);
    v3_sub(d2, q1, q0);
    v3_sub(r, p0, q0);
    sn_real a = v3_dot(d1, d1), e = v3_dot(d2, d2), f = v3_dot(d2, r);
    sn_real s = 0, t = 0;
    if (a <= 1e-20 && e <= 1e-20) {
        s = t = 0;
    } else if (a <= 1e-20) {
        t = f / e;
    } else {
        sn_real c = v3_dot(d1, r);
        if (e <= 1e-20) {
            s = -c / a;
        } else {
            sn_real b = v3_dot(d1, d2), den = a * e - b * b;
            s = den > 1e-20 ? (b * f - c * e) / den : 0;
            s = s < 0 ? 0 : s > 1 ? 1 : s;
            t = (b * s + f) / e;
            if (t < 0)
                t = 0, s = -c / a;
            else if (t > 1)
                t = 1, s = (b - c) / a;
        }
    }
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    v3_copy(cp, p0);
    v3_addscl(cp, d1, s);
    v3_copy(cq, q0);
    v3_addscl(cq, d2, t);
}


// geometry g of system s (pose R, p) as a convex shape
static void convex_from(sni_convex* c, const sn_system* s, int g, const sn_real* R,
                        const sn_real* p) {
    const sn_model* m = s->m;
    memset(c, 0, sizeof *c);
    c->type = m->geom_type[g];
    memcpy(c->R, R, sizeof c->R);
    v3_copy(c->p, p);
    c->size = m->geom_size + 3 * g;
    if (c->type == SN_GEOM_MESH) {
        c->vert = m->mesh_vert + 3 * (size_t)m->geom_vert_adr[g];
        c->nvert = m->geom_vert_num[g];
    }
    bound_center(s, g, c->center);
}


// ---- heightfields: triangular prisms ----

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
    convex_from(&shape, s, g, R, p);
    sn_real c[3], r = s->geom_radius[g] + w->margin;
    v3_copy(c, shape.center);
    int nx = w->hf_nx, ny = w->hf_ny;
    int i0 = (int)floor((c[0] - r - w->hf_x0) / w->hf_dx),
        i1 = (int)floor((c[0] + r - w->hf_x0) / w->hf_dx);
    int j0 = (int)floor((c[1] - r - w->hf_y0) / w->hf_dy),
        j1 = (int)floor((c[1] + r - w->hf_y0) / w->hf_dy);
    i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
    i1 = i1 > nx - 2 ? nx - 2 : i1, j1 = j1 > ny - 2 ? ny - 2 : j1;
    // a footprint inside the field on one plane (flat or evenly tilted ground): that plane's
    // closed forms, exactly as on the ground plane
    plane pc;
    sn_real xe = w->hf_x0 + (nx - 1) * w->hf_dx, ye = w->hf_y0 + (ny - 1) * w->hf_dy;
    int planar = c[0] - r >= w->hf_x0 && c[0] + r <= xe && c[1] - r >= w->hf_y0 && c[1] + r <= ye &&
                 sni_terrain_plane(w, c[0], c[1], pc.n, &pc.off);
    for (int j = j0; j <= j1 && planar; j++)
        for (int i = i0; i <= i1 && planar; i++) {
            const sn_real* z = w->hf_z + i + (size_t)nx * j;
            sn_real x0 = w->hf_x0 + i * w->hf_dx, y0 = w->hf_y0 + j * w->hf_dy;
            sn_real pts[4][3] = {{x0, y0, z[0]},
                                 {x0 + w->hf_dx, y0, z[1]},
                                 {x0, y0 + w->hf_dy, z[nx]},
                                 {x0 + w->hf_dx, y0 + w->hf_dy, z[nx + 1]}};
            for (int q = 0; q < 4; q++)
                if (fabs(v3_dot(pc.n, pts[q]) - pc.off) > 1e-12 * (1 + fabs(pc.off))) planar = 0;
        }
    if (planar) {
        w->tsink = NULL;
        collide_plane(s, g, &pc, R, p);
        return;
    }
    // faces: the shape's points nearest each triangle's plane (its feature along the triangle's
    // downward normal) whose vertical projection falls inside the triangle
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
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
                int nf = sni_convex_feature(&shape, down, w->margin, f);
                for (int k = 0; k < nf; k++) {
                    sn_real gap = v3_dot(pl.n, f[k]) - pl.off;
                    if (!(gap < w->margin)) continue;
                    sn_real fx = (f[k][0] - x0) / w->hf_dx, fy = (f[k][1] - y0) / w->hf_dy;
                    if (fx < 0 || fx > 1 || fy < 0 || fy > 1 || (t == 0 ? fx < fy : fx > fy))
                        continue;
                    sink_add(&sink, f[k], pl.n, gap);
                }
            }
        }
    // the field's points that stand above their neighbours (peaks and ridges) against the shape
    sn_real pt_size[3] = {0, 0, 0};
    sni_convex pt;
    memset(&pt, 0, sizeof pt);
    pt.type = SN_GEOM_SPHERE;
    pt.size = pt_size;
    m3_identity(pt.R);
    for (int j = j0 < 1 ? 1 : j0; j <= j1 + 1 && j < ny - 1; j++)
        for (int i = i0 < 1 ? 1 : i0; i <= i1 + 1 && i < nx - 1; i++) {
            const sn_real* z = w->hf_z + i + (size_t)nx * j;
            sn_real avg = 0.25 * (z[-1] + z[1] + z[-nx] + z[nx]);
            if (!(z[0] > avg + 1e-9 * (1 + fabs(avg)))) continue;
            v3_set(pt.p, w->hf_x0 + i * w->hf_dx, w->hf_y0 + j * w->hf_dy, z[0]);
            v3_copy(pt.center, pt.p);
            sn_real x[3], n[3], gap;
            if (sni_convex_contact(&shape, &pt, w->margin, x, n, &gap) && n[2] > 0)
                sink_add(&sink, x, n, gap);
        }
    // beyond the field's rectangle, the ground plane
    if (w->ground) {
        plane pl;
        v3_set(pl.n, 0, 0, 1);
        pl.off = w->ground_height;
        int before = sink.n;
        collide_plane(s, g, &pl, R, p);
        sn_real x1 = w->hf_x0 + (nx - 1) * w->hf_dx, y1 = w->hf_y0 + (ny - 1) * w->hf_dy;
        int k = before;
        for (int i = before; i < sink.n; i++) {
            const sn_real* x = sink.x[i];
            if (x[0] >= w->hf_x0 && x[0] <= x1 && x[1] >= w->hf_y0 && x[1] <= y1) continue;
            v3_copy(sink.x[k], sink.x[i]);
            v3_copy(sink.nrm[k], sink.nrm[i]);
            sink.gap[k++] = sink.gap[i];
        }
        sink.n = k;
    }
    w->tsink = NULL;
    if (sink.n == 0) return;
    // merge repeats (a point on an edge that two prisms share), then keep four
    sn_real span = 0;
    for (int i = 1; i < sink.n; i++) {
        sn_real t[3];
        v3_sub(t, sink.x[i], sink.x[0]);
        span = fmax(span, v3_norm(t));
    }
    int k = 0;
    sn_real nsum[3] = {0, 0, 0};
    for (int i = 0; i < sink.n; i++) {
        int dup = -1;
        for (int j = 0; j < k && dup < 0; j++) {
            sn_real t[3];
            v3_sub(t, sink.x[i], sink.x[j]);
            if (v3_norm(t) <= 1e-6 * span + 1e-12 && v3_dot(sink.nrm[i], sink.nrm[j]) > 0.999)
                dup = j;
        }
        if (dup >= 0) {
            if (sink.gap[i] < sink.gap[dup]) {
                v3_copy(sink.nrm[dup], sink.nrm[i]);
                sink.gap[dup] = sink.gap[i];
            }
            continue;
        }
        v3_copy(sink.x[k], sink.x[i]);
        v3_copy(sink.nrm[k], sink.nrm[i]);
        sink.gap[k++] = sink.gap[i];
    }
    for (int i = 0; i < k; i++)
        v3_add(nsum, nsum, sink.nrm[i]);
    sn_real nl = v3_norm(nsum);
    if (nl > 0)
        v3_scale(nsum, nsum, 1 / nl);
    else
        v3_set(nsum, 0, 0, 1);
    int pick[4];
    int m = sni_pick4(sink.x, sink.gap, k, nsum, pick);
    for (int i = 0; i < m; i++)
        add_pair(w, s->index, g, -1, -1, sink.x[pick[i]], sink.nrm[pick[i]], sink.gap[pick[i]]);
}


// one pair of geometries, any order of the shapes that have a routine; a is system sa's
static void collide_pair(sn_world* w, int sa, int ga, int sb, int gb) {
    const sn_system* A = w->sys[sa];
    const sn_system* B = w->sys[sb];
    int ta = A->m->geom_type[ga], tb = B->m->geom_type[gb];
    // order the pair so that the first shape is the "smaller" routine's first argument
    static const int rank[] = {
        [SN_GEOM_SPHERE] = 0,   [SN_GEOM_CAPSULE] = 1, [SN_GEOM_BOX] = 2,
        [SN_GEOM_CYLINDER] = 9, [SN_GEOM_MESH] = 9,    [SN_GEOM_ELLIPSOID] = 9};
    if (rank[ta] > rank[tb]) {
        collide_pair(w, sb, gb, sa, ga);
        return;
    }
    sn_real Ra[9], pa[3], Rb[9], pb[3];
    geom_pose(A->m, A->d, ga, Ra, pa);
    geom_pose(B->m, B->d, gb, Rb, pb);
    if (rank[tb] > 2) {
        // cylinders and meshes: GJK / EPA on the support functions, then the touching features
        sni_convex ca, cb;
        convex_from(&ca, A, ga, Ra, pa);
        convex_from(&cb, B, gb, Rb, pb);
        sn_real x[4][3], n[3], gap[4];
        int k = sni_convex_manifold(&ca, &cb, w->margin, x, n, gap);
        for (int i = 0; i < k; i++)
            add_pair(w, sa, ga, sb, gb, x[i], n, gap[i]);
        return;
    }
    const sn_real* sza = A->m->geom_size + 3 * ga;
    const sn_real* szb = B->m->geom_size + 3 * gb;
    sn_real hb[3] = {0.5 * szb[0], 0.5 * szb[1], 0.5 * szb[2]};
    if (ta == SN_GEOM_SPHERE && tb == SN_GEOM_SPHERE) {
        sphere_sphere(w, sa, ga, pa, sza[0], sb, gb, pb, szb[0]);
    } else if (ta == SN_GEOM_SPHERE && tb == SN_GEOM_CAPSULE) {
        sn_real e0[3], e1[3], x[3];
        capsule_ends(Rb, pb, szb, e0, e1);
        closest_on_segment(x, e0, e1, pa);
        sphere_sphere(w, sa, ga, pa, sza[0], sb, gb, x, szb[0]);
    } else if (ta == SN_GEOM_SPHERE && tb == SN_GEOM_BOX) {
        sphere_box(w, sa, ga, pa, sza[0], sb, gb, Rb, pb, hb);
    } else if (ta == SN_GEOM_CAPSULE && tb == SN_GEOM_CAPSULE) {
        sn_real a0[3], a1[3], b0[3], b1[3], ca[3], cb[3];
        capsule_ends(Ra, pa, sza, a0, a1);
        capsule_ends(Rb, pb, szb, b0, b1);
        sn_real da[3], db[3], x[3];
        v3_sub(da, a1, a0);
        v3_sub(db, b1, b0);
        v3_cross(x, da, db);
        sn_real la = v3_norm(da), lb = v3_norm(db);
        if (la > 0 && lb > 0 && v3_norm(x) < 1e-3 * la * lb) {
            // nearly parallel: the two ends of a against b, and b's ends against a (a line
            // contact needs two points)
            const sn_real* ends[4] = {a0, a1, b0, b1};
            for (int k = 0; k < 2; k++) {
                closest_on_segment(cb, b0, b1, ends[k]);
                sphere_sphere(w, sa, ga, ends[k], sza[0], sb, gb, cb, szb[0]);
            }
        } else {
            closest_segments(a0, a1, b0, b1, ca, cb);
            sphere_sphere(w, sa, ga, ca, sza[0], sb, gb, cb, szb[0]);
        }
    } else if (ta == SN_GEOM_CAPSULE && tb == SN_GEOM_BOX) {
        // the end spheres, and the segment's point closest to the box centre
        sn_real e0[3], e1[3], m[3];
        capsule_ends(Ra, pa, sza, e0, e1);
        closest_on_segment(m, e0, e1, pb);
        sphere_box(w, sa, ga, e0, sza[0], sb, gb, Rb, pb, hb);
        sphere_box(w, sa, ga, e1, sza[0], sb, gb, Rb, pb, hb);
        sn_real d0[3], d1[3];
        v3_sub(d0, m, e0);
        v3_sub(d1, m, e1);
        if (v3_norm(d0) > sza[0] && v3_norm(d1) > sza[0])
            sphere_box(w, sa, ga, m, sza[0], sb, gb, Rb, pb, hb);
    } else if (ta == SN_GEOM_BOX && tb == SN_GEOM_BOX) {
        box A_, B_;
        box_from(&A_, Ra, pa, sza);
        box_from(&B_, Rb, pb, szb);
        box_box(w, sa, ga, &A_, sb, gb, &B_);
    }
}


// collision filters: groups and masks per body (bits), and the self-collision switch
static int filter_pass(const sn_system* A, int ba, const sn_system* B, int bb) {
    return (A->body_group[ba] & B->body_mask[bb]) && (B->body_group[bb] & A->body_mask[ba]);
}


// the bounding spheres of two geometries overlap
static int bounds_meet(const sn_world* w, const sn_system* A, int ga, const sn_system* B, int gb) {
    sn_real ca[3], cb[3], dc[3];
    bound_center(A, ga, ca);
    bound_center(B, gb, cb);
    v3_sub(dc, ca, cb);
    sn_real reach = A->geom_radius[ga] + B->geom_radius[gb] + w->margin;
    return v3_dot(dc, dc) <= reach * reach;
}


// whether body b is a's parent, or its ancestor through massless bodies only: the links between
// the joints of one MJCF body (a body with three joints is three bodies here, two of them
// massless), which MuJoCo's parent filter treats as one joint
static int joined(const sn_model* m, int a, int b) {
    for (int p = m->body_parent[a]; p >= 0; p = m->body_parent[p]) {
        if (p == b) return 1;
        if (m->body_mass[p] > 0) break;
    }
    return 0;
}

// whether geometries ga of system sa and gb of sb may touch: different systems, or different
// bodies of one system with self-collision on that no joint joins (nor the excluded pairs);
// filters that pass
static int pair_allowed(const sn_world* w, int sa, int ga, int sb, int gb) {
    const sn_system* A = w->sys[sa];
    const sn_system* B = w->sys[sb];
    if (sa == sb && !A->self_collision) return 0;
    const sn_model* ma = A->m;
    const sn_model* mb = B->m;
    int ba = ma->frame_body[ma->geom_frame[ga]];
    int bb = mb->frame_body[mb->geom_frame[gb]];
    if (sa == sb && (ba == bb || joined(ma, ba, bb) || joined(ma, bb, ba))) return 0;
    for (int i = 0; sa == sb && i < ma->nexclude; i++) {
        const int* x = ma->exclude_body + 2 * i;
        if ((x[0] == ba && x[1] == bb) || (x[0] == bb && x[1] == ba)) return 0;
    }
    return filter_pass(A, ba, B, bb);
}


// the world box around geometry g of system s, grown by the margin
static void world_box(const sn_world* w, const sn_system* s, int g, sn_real* lo, sn_real* hi) {
    const sn_model* m = s->m;
    const sn_real* sz = m->geom_size + 3 * g;
    sn_real R[9], p[3], ext[3];
    int type = m->geom_type[g];
    if (type == SN_GEOM_MESH || type == SN_GEOM_SPHERE) {
        bound_center(s, g, p);
        v3_set(ext, s->geom_radius[g], s->geom_radius[g], s->geom_radius[g]);
    } else {
        geom_pose(m, s->d, g, R, p);
        for (int i = 0; i < 3; i++) {
            const sn_real* r = R + 3 * i; // row i: the geometry's axes' i components
            if (type == SN_GEOM_BOX) {
                ext[i] = 0.5 * (fabs(r[0]) * sz[0] + fabs(r[1]) * sz[1] + fabs(r[2]) * sz[2]);
            } else if (type == SN_GEOM_ELLIPSOID) {
                // the support along the world axis i
                ext[i] = sqrt(r[0] * r[0] * sz[0] * sz[0] + r[1] * r[1] * sz[1] * sz[1] +
                              r[2] * r[2] * sz[2] * sz[2]);
            } else {
                // capsule and cylinder: along the axis, and a disc (or sphere) across it
                sn_real a = fabs(r[2]), across = sqrt(fmax(0, 1 - a * a));
                ext[i] = 0.5 * sz[1] * a + sz[0] * (type == SN_GEOM_CAPSULE ? 1 : across);
            }
        }
    }
    for (int i = 0; i < 3; i++)
        lo[i] = p[i] - ext[i] - w->margin, hi[i] = p[i] + ext[i] + w->margin;
}


// every pair in a fixed order (systems, then geometries), culled by bounding spheres
static void collide_all_pairs(sn_world* w) {
    for (int sa = 0; sa < w->nsys; sa++)
        for (int sb = sa; sb < w->nsys; sb++) {
            const sn_system* A = w->sys[sa];
            const sn_system* B = w->sys[sb];
            if (sa == sb && !A->self_collision) continue;
            for (int ga = 0; ga < A->m->ngeom; ga++) {
                if (A->geom_radius[ga] <= 0) continue;
                for (int gb = sa == sb ? ga + 1 : 0; gb < B->m->ngeom; gb++) {
                    if (B->geom_radius[gb] <= 0) continue;
                    if (!pair_allowed(w, sa, ga, sb, gb) || !bounds_meet(w, A, ga, B, gb)) continue;
                    collide_pair(w, sa, ga, sb, gb);
                }
            }
        }
}


static int pair_before(const sn_world* w, const int* p, const int* q) {
    for (int k = 0; k < 2; k++) {
        int a = w->bp_sys[p[k]], b = w->bp_sys[q[k]];
        if (a != b) return a < b;
        a = w->bp_geom[p[k]], b = w->bp_geom[q[k]];
        if (a != b) return a < b;
    }
    return 0;
}


// the broad phase: world boxes of every geometry sorted by their lower x (insertion sort: the
// order of the last step is nearly right), swept for overlaps in x, tested in y and z. The
// candidate pairs are then put in the fixed order of collide_all_pairs, so that the contacts
// (and the solver's sweeps) do not depend on how the boxes happen to be sorted.
void sni_collide_systems(sn_world* w) {
    int n = w->nbp;
    if (w->brute_force || n < 2) {
        collide_all_pairs(w);
        return;
    }
    sn_real* bx = w->bp_box;
    for (int k = 0; k < n; k++)
        world_box(w, w->sys[w->bp_sys[k]], w->bp_geom[k], bx + 6 * k, bx + 6 * k + 3);
    int* ord = w->bp_order;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && bx[6 * ord[j]] < bx[6 * ord[j - 1]]; j--) {
            int t = ord[j];
            ord[j] = ord[j - 1], ord[j - 1] = t;
        }
    int np = 0;
    for (int i = 0; i < n; i++) {
        int a = ord[i];
        const sn_real* ba = bx + 6 * a;
        for (int j = i + 1; j < n && bx[6 * ord[j]] <= ba[3]; j++) {
            int b = ord[j];
            const sn_real* bb = bx + 6 * b;
            if (bb[1] > ba[4] || ba[1] > bb[4] || bb[2] > ba[5] || ba[2] > bb[5]) continue;
            // as (first, second) in the order of systems and geometries
            int p0 = a, p1 = b;
            if (w->bp_sys[b] < w->bp_sys[a] ||
                (w->bp_sys[b] == w->bp_sys[a] && w->bp_geom[b] < w->bp_geom[a]))
                p0 = b, p1 = a;
            if (!pair_allowed(w, w->bp_sys[p0], w->bp_geom[p0], w->bp_sys[p1], w->bp_geom[p1]))
                continue;
            if (np == w->npair_cap) { // more candidates than room: every pair this step
                collide_all_pairs(w);
                return;
            }
            w->bp_pair[2 * np] = p0, w->bp_pair[2 * np + 1] = p1;
            np++;
        }
    }
    // the fixed order (insertion sort: few pairs)
    int* pr = w->bp_pair;
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0 && pair_before(w, pr + 2 * j, pr + 2 * (j - 1)); j--) {
            int t0 = pr[2 * j], t1 = pr[2 * j + 1];
            pr[2 * j] = pr[2 * j - 2], pr[2 * j + 1] = pr[2 * j - 1];
            pr[2 * j - 2] = t0, pr[2 * j - 1] = t1;
        }
    for (int k = 0; k < np; k++) {
        int p0 = pr[2 * k], p1 = pr[2 * k + 1];
        collide_pair(w, w->bp_sys[p0], w->bp_geom[p0], w->bp_sys[p1], w->bp_geom[p1]);
    }
}
