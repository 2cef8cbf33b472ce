// SPDX-License-Identifier: Apache-2.0
// collide.c: contacts between the collision geometry of articulated systems and the ground
// plane z = h (normal +z). Closed forms per primitive: a sphere touches at one point, a capsule
// at its two end spheres, a box at its (up to four) deepest corners, a cylinder at the lowest
// rim points of its caps. A contact is reported once the gap is below the world's contact
// margin (a speculative contact: the solver then only stops the approach at the surface).
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// most contact points a geometry can produce against a plane
int sni_geom_max_contacts(int type) {
    switch (type) {
    case SN_GEOM_SPHERE:
        return 1;
    case SN_GEOM_CAPSULE:
        return 2;
    case SN_GEOM_BOX:
        return 4;
    case SN_GEOM_CYLINDER:
        return 4;
    default:
        return 0; // meshes: convex hulls arrive with the convex collision
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
}


static void add_contact(sn_system* s, int g, const sn_real* x, sn_real gap) {
    static const sn_real up[3] = {0, 0, 1};
    add_pair(s->world, s->index, g, -1, -1, x, up, gap);
}


// lowest points of a cylinder (axis a, centre p, radius r, half length hl) against the plane
static void cylinder_points(sn_system* s, int g, const sn_real* a, const sn_real* p, sn_real r,
                            sn_real hl, sn_real h, sn_real margin) {
    sn_real down[3] = {0, 0, -1};
    // the in-plane direction of steepest descent on a rim: -n projected off the axis
    sn_real proj[3];
    v3_copy(proj, down);
    v3_addscl(proj, a, -v3_dot(down, a));
    sn_real pn = v3_norm(proj);
    for (int side = -1; side <= 1; side += 2) {
        sn_real cap[3];
        v3_copy(cap, p);
        v3_addscl(cap, a, side * hl);
        if (pn > 1e-3) {
            sn_real x[3];
            v3_copy(x, cap);
            v3_addscl(x, proj, r / pn);
            sn_real gap = x[2] - h;
            if (gap < margin) add_contact(s, g, x, gap);
        } else if (cap[2] < p[2]) {
            // axis along the normal: four points on the lower cap's rim
            sn_real u[3] = {1, 0, 0}, w[3] = {0, 1, 0};
            for (int k = 0; k < 4; k++) {
                sn_real x[3];
                v3_copy(x, cap);
                v3_addscl(x, k < 2 ? u : w, (k % 2 ? -r : r));
                sn_real gap = x[2] - h;
                if (gap < margin) add_contact(s, g, x, gap);
            }
        }
    }
}


// the contacts of every collision geometry of system si with the ground
void sni_collide_ground(sn_world* w, int si) {
    sn_system* s = w->sys[si];
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    sn_real h = w->ground_height, margin = w->margin;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_is_visual[g]) continue;
        int t = m->geom_type[g];
        if (sni_geom_max_contacts(t) == 0) continue;
        if (m->frame_body[m->geom_frame[g]] == 0) continue; // welded to the world
        sn_real R[9], p[3], a[3];
        geom_pose(m, d, g, R, p);
        const sn_real* sz = m->geom_size + 3 * g;
        a[0] = R[2], a[1] = R[5], a[2] = R[8]; // the local z axis
        switch (t) {
        case SN_GEOM_SPHERE: {
            sn_real x[3] = {p[0], p[1], p[2] - sz[0]};
            if (x[2] - h < margin) add_contact(s, g, x, x[2] - h);
            break;
        }
        case SN_GEOM_CAPSULE:
            for (int side = -1; side <= 1; side += 2) {
                sn_real x[3];
                v3_copy(x, p);
                v3_addscl(x, a, side * 0.5 * sz[1]);
                x[2] -= sz[0];
                if (x[2] - h < margin) add_contact(s, g, x, x[2] - h);
            }
            break;
        case SN_GEOM_BOX: {
            // the four deepest corners below the margin
            sn_real corner[8][3], z[8];
            int idx[8];
            for (int k = 0; k < 8; k++) {
                sn_real l[3] = {(k & 1 ? 0.5 : -0.5) * sz[0], (k & 2 ? 0.5 : -0.5) * sz[1],
                                (k & 4 ? 0.5 : -0.5) * sz[2]};
                m3_mul_v3(corner[k], R, l);
                v3_add(corner[k], corner[k], p);
                z[k] = corner[k][2];
                idx[k] = k;
            }
            for (int i = 1; i < 8; i++)
                for (int j = i; j > 0 && z[idx[j]] < z[idx[j - 1]]; j--) {
                    int tmp = idx[j];
                    idx[j] = idx[j - 1];
                    idx[j - 1] = tmp;
                }
            for (int k = 0; k < 4; k++)
                if (z[idx[k]] - h < margin) add_contact(s, g, corner[idx[k]], z[idx[k]] - h);
            break;
        }
        case SN_GEOM_CYLINDER:
            cylinder_points(s, g, a, p, sz[0], 0.5 * sz[1], h, margin);
            break;
        default:
            break;
        }
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


// every pair of collision spheres of different systems (a quadratic broad phase: the bounding
// boxes and the other primitives come next)
void sni_collide_systems(sn_world* w) {
    for (int sa = 0; sa < w->nsys; sa++)
        for (int sb = sa + 1; sb < w->nsys; sb++) {
            const sn_system* A = w->sys[sa];
            const sn_system* B = w->sys[sb];
            for (int ga = 0; ga < A->m->ngeom; ga++) {
                if (A->m->geom_is_visual[ga] || A->m->geom_type[ga] != SN_GEOM_SPHERE) continue;
                sn_real Ra[9], pa[3];
                geom_pose(A->m, A->d, ga, Ra, pa);
                for (int gb = 0; gb < B->m->ngeom; gb++) {
                    if (B->m->geom_is_visual[gb] || B->m->geom_type[gb] != SN_GEOM_SPHERE) continue;
                    sn_real Rb[9], pb[3];
                    geom_pose(B->m, B->d, gb, Rb, pb);
                    sphere_sphere(w, sa, ga, pa, A->m->geom_size[3 * ga], sb, gb, pb,
                                  B->m->geom_size[3 * gb]);
                }
            }
        }
}
