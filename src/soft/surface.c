// SPDX-License-Identifier: Apache-2.0
// surface.c: what a soft contact point touches (seed 004; docs/expo.md "Soft contacts: the
// model"): the terrain (the ground plane or the heightfield's triangle under the point) and the
// collision geometry of bodies: static ones (welded to the world: body 0 of any system), the
// system's own bodies (with self-collision on, as the hard contacts: not the point's body nor
// one a joint joins to it) and the bodies of other systems, as the collision filters allow. Each
// surface answers, for a point x, its signed distance (negative inside) and the outward unit
// normal at the nearest surface point. Spheres, capsules, boxes and cylinders answer in closed
// form, ellipsoids and convex meshes through GJK and EPA (collision/convex.c).
//
// Where the bodies are: the system's own at its current kinematics (s->d, the stage's); another
// system's at the world step's start (the snapshot sni_soft_begin takes), moving on over the step
// with its spatial velocity then held constant (a screw motion: x(t) = E x0 + d,
// sni_soft_body_move); a point x at time t meets the geometry where it was at the step's start at
// E^T (x - d).
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <string.h>


// the terrain under x: the plane n.y = off of sni_terrain_plane
static int terrain_gap(const sn_world* w, const sn_real* x, sni_soft_touch* t) {
    sn_real off;
    if (!sni_terrain_plane(w, x[0], x[1], t->n, &off)) return 0;
    t->gap = v3_dot(t->n, x) - off;
    return 1;
}


// a sphere of radius r centred at c
static void sphere_gap(const sn_real* c, sn_real r, const sn_real* x, sni_soft_touch* t) {
    sn_real d[3];
    v3_sub(d, x, c);
    sn_real l = v3_norm(d);
    if (l > 0)
        v3_scale(t->n, d, 1 / l);
    else
        v3_set(t->n, 0, 0, 1); // the centre itself: any direction is the nearest
    t->gap = l - r;
}


// a box of half extents h at pose (R, p): outside, the distance to the nearest box point; inside,
// out through the nearest face
static void box_gap(const sn_real* R, const sn_real* p, const sn_real* size, const sn_real* x,
                    sni_soft_touch* t) {
    sn_real d[3], l[3], cl[3], h[3] = {0.5 * size[0], 0.5 * size[1], 0.5 * size[2]};
    v3_sub(d, x, p);
    m3t_mul_v3(l, R, d);
    int inside = 1;
    for (int k = 0; k < 3; k++) {
        cl[k] = l[k] < -h[k] ? -h[k] : l[k] > h[k] ? h[k] : l[k];
        if (cl[k] != l[k]) inside = 0;
    }
    sn_real nl[3] = {0, 0, 0};
    if (!inside) {
        sn_real e[3] = {l[0] - cl[0], l[1] - cl[1], l[2] - cl[2]};
        t->gap = v3_norm(e);
        v3_scale(nl, e, 1 / t->gap);
    } else {
        int k = 0;
        sn_real best = h[0] - fabs(l[0]);
        for (int e = 1; e < 3; e++)
            if (h[e] - fabs(l[e]) < best) best = h[e] - fabs(l[e]), k = e;
        nl[k] = l[k] >= 0 ? 1 : -1;
        t->gap = -best;
    }
    m3_mul_v3(t->n, R, nl);
}


// a cylinder of radius r and half length hl along the z axis of its pose (R, p): outside, the
// distance to the nearest point of the solid; inside, out through the nearer of the side and a cap
static void cylinder_gap(const sn_real* R, const sn_real* p, sn_real r, sn_real hl,
                         const sn_real* x, sni_soft_touch* t) {
    sn_real d[3], l[3], nl[3] = {0, 0, 0};
    v3_sub(d, x, p);
    m3t_mul_v3(l, R, d);
    sn_real rho = sqrt(l[0] * l[0] + l[1] * l[1]), az = fabs(l[2]);
    if (rho <= r && az <= hl) {
        if (r - rho < hl - az) { // the side
            if (rho > 0)
                nl[0] = l[0] / rho, nl[1] = l[1] / rho;
            else
                nl[0] = 1;
            t->gap = rho - r;
        } else { // a cap
            nl[2] = l[2] >= 0 ? 1 : -1;
            t->gap = az - hl;
        }
    } else {
        sn_real s = rho > r ? r / rho : 1;
        sn_real c[3] = {l[0] * s, l[1] * s, l[2] < -hl ? -hl : l[2] > hl ? hl : l[2]};
        sn_real e[3] = {l[0] - c[0], l[1] - c[1], l[2] - c[2]};
        t->gap = v3_norm(e);
        v3_scale(nl, e, 1 / t->gap);
    }
    m3_mul_v3(t->n, R, nl);
}


// ellipsoids and convex meshes through their support functions: the distance from the point x
// (a sphere of radius 0) by GJK, the depth inside by EPA (collision/convex.c), within a reach of
// SEARCH m (farther: not found)
#define SEARCH 10.0
static int convex_gap(const sn_system* o, int g, const sn_real* Rb, const sn_real* pb,
                      const sn_real* R, const sn_real* p, const sn_real* x, sni_soft_touch* t) {
    static const sn_real zero[3] = {0, 0, 0};
    sni_convex shape, pt;
    sni_geom_convex(&shape, o, g, R, p);
    m3_mul_v3(shape.center, Rb, o->geom_center + 3 * g); // inside it, at the pose given
    v3_add(shape.center, shape.center, pb);
    memset(&pt, 0, sizeof pt);
    pt.type = SN_GEOM_SPHERE;
    m3_identity(pt.R);
    v3_copy(pt.p, x);
    v3_copy(pt.center, x);
    pt.size = zero;
    sn_real xc[3];
    return sni_convex_contact(&pt, &shape, SEARCH, xc, t->n, &t->gap);
}


// geometry g of system o whose body is at (Rb, pb); 0 when it is not a shape points touch
static int geom_gap(const sn_system* o, int g, const sn_real* Rb, const sn_real* pb,
                    const sn_real* x, sni_soft_touch* t) {
    const sn_model* m = o->m;
    const sn_real* sz = m->geom_size + 3 * g;
    int type = m->geom_type[g];
    if (type == SN_GEOM_MESH && m->geom_vert_num[g] == 0) return 0; // the file was not read
    // the geometry's pose: body <- link frame <- geometry
    int f = m->geom_frame[g];
    sn_real Rf[9], pf[3], R[9], p[3];
    m3_mul(Rf, Rb, m->frame_rot + 9 * f);
    m3_mul_v3(pf, Rb, m->frame_pos + 3 * f);
    v3_add(pf, pf, pb);
    m3_mul(R, Rf, m->geom_rot + 9 * g);
    m3_mul_v3(p, Rf, m->geom_pos + 3 * g);
    v3_add(p, p, pf);
    if (type == SN_GEOM_SPHERE) {
        sphere_gap(p, sz[0], x, t);
    } else if (type == SN_GEOM_CAPSULE) {
        // the nearest point of the axis segment, then a sphere there
        sn_real a[3] = {R[2], R[5], R[8]}, d[3], c[3];
        v3_sub(d, x, p);
        sn_real u = v3_dot(d, a), hl = 0.5 * sz[1];
        u = u < -hl ? -hl : u > hl ? hl : u;
        v3_copy(c, p);
        v3_addscl(c, a, u);
        sphere_gap(c, sz[0], x, t);
    } else if (type == SN_GEOM_CYLINDER) {
        cylinder_gap(R, p, sz[0], 0.5 * sz[1], x, t);
    } else if (type == SN_GEOM_BOX) {
        box_gap(R, p, sz, x, t);
    } else {
        return convex_gap(o, g, Rb, pb, R, p, x, t);
    }
    return 1;
}


void sni_soft_body_state(const sn_system* s, int k, int ob, const sn_real** R, const sn_real** p,
                         const sn_real** vel) {
    const sn_system* o = s->world->sys[k];
    if (o == s) {
        *R = s->d->body_rot + 9 * ob, *p = s->d->body_pos + 3 * ob, *vel = s->d->body_vel + 6 * ob;
        return;
    }
    const sn_real* b = o->soft->snap + 18 * (size_t)ob;
    *R = b, *p = b + 9, *vel = b + 12;
}


void sni_soft_body_move(const sn_system* s, int k, const sn_real* vel, sn_real* E, sn_real* d) {
    m3_identity(E);
    v3_set(d, 0, 0, 0);
    sn_real t = s->soft->tnow;
    if (s->world->sys[k] == s || t == 0) return;
    // the motion of the constant spatial velocity (w, v): x' = v + w x x, so x(t) = E x0 + d with
    // E = exp(t [w]) = I + a [w] + b [w]^2 and d = (t I + b [w] + c [w]^2) v
    const sn_real* w = vel;
    sn_real w2 = v3_dot(w, w), th2 = w2 * t * t, a, b, c;
    if (th2 < 1e-6) { // the series, to t^7 |w|^6 (below 1e-19 relative)
        a = t * (1 - th2 / 6 * (1 - th2 / 20));
        b = t * t * (0.5 - th2 / 24 * (1 - th2 / 30));
        c = t * t * t * (1.0 / 6 - th2 / 120 * (1 - th2 / 42));
    } else {
        sn_real wn = sqrt(w2), th = wn * t;
        a = sin(th) / wn;
        b = (1 - cos(th)) / w2;
        c = (t - a) / w2;
    }
    sn_real W[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0}, W2[9];
    m3_mul(W2, W, W);
    for (int i = 0; i < 9; i++)
        E[i] += a * W[i] + b * W2[i];
    sn_real Wv[3], W2v[3];
    m3_mul_v3(Wv, W, vel + 3);
    m3_mul_v3(W2v, W2, vel + 3);
    for (int i = 0; i < 3; i++)
        d[i] = t * vel[3 + i] + b * Wv[i] + c * W2v[i];
}


// whether body b of system s and body ob of system o may touch: the collision filters, and
// within one system self-collision on, not the same body, not joined by a joint (either way),
// not excluded
static int may_touch(const sn_system* s, int b, const sn_system* o, int ob) {
    if (!((s->body_group[b] & o->body_mask[ob]) && (o->body_group[ob] & s->body_mask[b]))) return 0;
    if (s != o) return 1;
    const sn_model* m = s->m;
    if (!s->self_collision || b == ob) return 0;
    for (int k = 0; k < 2; k++) { // one the other's parent, or ancestor through massless bodies
        int lo = k ? ob : b, hi = k ? b : ob;
        for (int p = m->body_parent[lo]; p >= 0; p = m->body_parent[p]) {
            if (p == hi) return 0;
            if (m->body_mass[p] > 0) break;
        }
    }
    for (int i = 0; i < m->nexclude; i++) {
        const int* x = m->exclude_body + 2 * i;
        if ((x[0] == b && x[1] == ob) || (x[0] == ob && x[1] == b)) return 0;
    }
    return 1;
}


int sni_soft_touch_eval(const sn_system* s, int other, int geom, const sn_real* x, sn_real r,
                        sni_soft_touch* t) {
    const sn_world* w = s->world;
    t->other = other, t->geom = geom, t->body = -1;
    int ok;
    if (other == 0) {
        ok = terrain_gap(w, x, t);
    } else {
        if (other > w->nsys || geom < 0 || geom >= w->sys[other - 1]->m->ngeom) return 0;
        const sn_system* o = w->sys[other - 1];
        if (!o->soft && o != s) return 0;
        t->body = o->m->frame_body[o->m->geom_frame[geom]];
        const sn_real *R, *p, *vel;
        sni_soft_body_state(s, other - 1, t->body, &R, &p, &vel);
        // another system's body has moved on since the step's start: x back to where the body
        // was then, the normal on with it
        sn_real E[9], dm[3], xb[3], n[3];
        sni_soft_body_move(s, other - 1, vel, E, dm);
        v3_sub(xb, x, dm);
        m3t_mul_v3(xb, E, xb);
        ok = geom_gap(o, geom, R, p, xb, t);
        if (ok) { // (a geometry that gives no gap leaves t->n unwritten)
            m3_mul_v3(n, E, t->n);
            v3_copy(t->n, n);
        }
    }
    if (ok) t->gap -= r;
    return ok;
}


int sni_soft_touch_find(const sn_system* s, int body, const sn_real* x, sn_real r,
                        sni_soft_touch* best) {
    const sn_world* w = s->world;
    int found = 0;
    sni_soft_touch t;
    // the terrain: the ground is group 1 (a body whose mask lacks bit 0 passes through it)
    if ((s->body_mask[body] & 1) && sni_soft_touch_eval(s, 0, -1, x, r, &t)) {
        *best = t;
        found = 1;
    }
    // the bodies' geometry, the nearest one that beats the terrain
    for (int k = 0; k < w->nsys; k++) {
        const sn_system* o = w->sys[k];
        const sn_model* m = o->m;
        if ((!o->soft && o != s) || (o == s && !s->self_collision)) continue;
        for (int g = 0; g < m->ngeom; g++) {
            int ob = m->frame_body[m->geom_frame[g]];
            if (o->geom_radius[g] <= 0 || !may_touch(s, body, o, ob)) continue;
            // the bounding sphere first
            const sn_real *R, *p, *vel;
            sni_soft_body_state(s, k, ob, &R, &p, &vel);
            sn_real c[3], dc[3], E[9], dm[3];
            m3_mul_v3(c, R, o->geom_center + 3 * g);
            v3_add(c, c, p);
            sni_soft_body_move(s, k, vel, E, dm);
            m3_mul_v3(dc, E, c); // the centre now
            v3_add(dc, dc, dm);
            v3_sub(dc, x, dc);
            sn_real reach = o->geom_radius[g] + r;
            if (found && v3_norm(dc) - reach > best->gap) continue; // farther than the best
            if (!sni_soft_touch_eval(s, k + 1, g, x, r, &t)) continue;
            if (!found || t.gap < best->gap) *best = t, found = 1;
        }
    }
    return found;
}
