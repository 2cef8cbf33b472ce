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


// add a contact of body b at world point x (on the body) with the given gap (negative when
// penetrating); keeps the deepest when the capacity is reached
static void add_contact(sn_system* s, int g, const sn_real* x, sn_real gap) {
    if (s->ncontact >= s->contact_cap) {
        s->contact_overflow++;
        return;
    }
    sni_contact* c = &s->contacts[s->ncontact++];
    memset(c, 0, sizeof *c);
    c->geom = g;
    c->body = s->m->frame_body[s->m->geom_frame[g]];
    v3_copy(c->pos, x);
    v3_set(c->normal, 0, 0, 1);
    c->depth = -gap;
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


// the contacts of every collision geometry of a system with the ground
void sni_collide_ground(sn_system* s, sn_real h, sn_real margin) {
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    s->ncontact = 0;
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
