// SPDX-License-Identifier: Apache-2.0
// pairs.c: the contact list every collision phase appends to (a contact's frame and the pair's
// material), and the contacts between two geometries in closed form where their shapes have one:
// sphere and capsule cores against each other (closest points of points and segments), spheres
// and capsules against boxes (the closest point of the box), box against box (separating axes,
// then the incident face clipped by the reference face). Cylinders, meshes and ellipsoids go to
// GJK/EPA (convex.c) and the touching features of the two shapes.
#include "collision/collide.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// ---- the contact list ----

// an orthonormal contact frame (rows t1, t2, n) around the unit normal n
void sni_contact_frame(sn_real* f, const sn_real* n) {
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
void sni_contact_add(sn_world* w, int sa, int ga, int sb, int gb, const sn_real* x,
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
    sni_contact_frame(c->frame, n);
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


// ---- spheres ----

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
    sni_contact_add(w, sa, ga, sb, gb, x, n, gap);
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
    sni_contact_add(w, sa, ga, sb, gb, x, n, gap);
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


// edge against edge (axis `kind` >= 6 of box_box, bn from B to A): the closest points of the two
// edges, one contact between them
static void edge_contact(sn_world* w, int sa, int ga, const box* A, int sb, int gb, const box* B,
                         int kind, const sn_real* bn) {
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
    if (gap < w->margin) sni_contact_add(w, sa, ga, sb, gb, x, bn, gap);
}


// a face (axis `kind` < 6 of box_box, bn from B to A): the reference box owns it; the other's
// incident face is clipped to its side planes, and its points below the reference face give the
// contacts, the deepest four
static void face_contact(sn_world* w, int sa, int ga, const box* A, int sb, int gb, const box* B,
                         int kind, const sn_real* bn) {
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
        sni_contact_add(w, sa, ga, sb, gb, x, bn, -depth[idx[i]]);
    }
}


// box against box: the axis of least penetration among the 15 separating axes (the faces of
// either box, the cross products of their edges), then the contacts of that face or edge pair
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
    if (kind >= 6)
        edge_contact(w, sa, ga, A, sb, gb, B, kind, bn);
    else
        face_contact(w, sa, ga, A, sb, gb, B, kind, bn);
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
void sni_geom_convex(sni_convex* c, const sn_system* s, int g, const sn_real* R, const sn_real* p) {
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
    sni_geom_bound_center(s, g, c->center);
}


// ---- any pair ----

// one pair of geometries, any order of the shapes that have a routine; a is system sa's
void sni_collide_pair(sn_world* w, int sa, int ga, int sb, int gb) {
    const sn_system* A = w->sys[sa];
    const sn_system* B = w->sys[sb];
    int ta = A->m->geom_type[ga], tb = B->m->geom_type[gb];
    // order the pair so that the first shape is the "smaller" routine's first argument
    static const int rank[] = {
        [SN_GEOM_SPHERE] = 0,   [SN_GEOM_CAPSULE] = 1, [SN_GEOM_BOX] = 2,
        [SN_GEOM_CYLINDER] = 9, [SN_GEOM_MESH] = 9,    [SN_GEOM_ELLIPSOID] = 9};
    if (rank[ta] > rank[tb]) {
        sni_collide_pair(w, sb, gb, sa, ga);
        return;
    }
    sn_real Ra[9], pa[3], Rb[9], pb[3];
    sni_geom_pose(A->m, A->d, ga, Ra, pa);
    sni_geom_pose(B->m, B->d, gb, Rb, pb);
    if (rank[tb] > 2) {
        // cylinders and meshes: GJK / EPA on the support functions, then the touching features
        sni_convex ca, cb;
        sni_geom_convex(&ca, A, ga, Ra, pa);
        sni_geom_convex(&cb, B, gb, Rb, pb);
        sn_real x[4][3], n[3], gap[4];
        int k = sni_convex_manifold(&ca, &cb, w->margin, x, n, gap);
        for (int i = 0; i < k; i++)
            sni_contact_add(w, sa, ga, sb, gb, x[i], n, gap[i]);
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
