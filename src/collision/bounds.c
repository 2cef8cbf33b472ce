// SPDX-License-Identifier: Apache-2.0
// bounds.c: the collision geometries in the world: their poses at a system's kinematics, and the
// bounding sphere of each (fixed in its body's frame, computed once when the system is added),
// with which the ground and the broad phase cull the geometries far from anything.
#include "collision/collide.h"
#include "sim/sim.h"

#include <math.h>


// world pose of geometry g at the system's current kinematics
void sni_geom_pose(const sn_model* m, const sn_data* d, int g, sn_real* R, sn_real* p) {
    int f = m->geom_frame[g];
    sn_real rf[9], pf[3], t[3];
    sn_frame_pose(m, d, f, pf, rf);
    m3_mul(R, rf, m->geom_rot + 9 * g);
    m3_mul_v3(t, rf, m->geom_pos + 3 * g);
    v3_add(p, pf, t);
}


// world centre of the bounding sphere of geometry g of system s
void sni_geom_bound_center(const sn_system* s, int g, sn_real* c) {
    int b = s->m->frame_body[s->m->geom_frame[g]];
    m3_mul_v3(c, s->d->body_rot + 9 * b, s->geom_center + 3 * g);
    v3_add(c, c, s->d->body_pos + 3 * b);
}


// bounding spheres of the collision geometries in their bodies' frames
void sni_geom_bounds(sn_system* s) {
    const sn_model* m = s->m;
    for (int g = 0; g < m->ngeom; g++) {
        int f = m->geom_frame[g];
        const sn_real* sz = m->geom_size + 3 * g;
        sn_real* c = s->geom_center + 3 * g;
        m3_mul_v3(c, m->frame_rot + 9 * f, m->geom_pos + 3 * g);
        v3_add(c, c, m->frame_pos + 3 * f);
        sn_real r = 0;
        switch (m->geom_type[g]) {
        case SN_GEOM_SPHERE:
            r = sz[0];
            break;
        case SN_GEOM_CAPSULE:
            r = sz[0] + 0.5 * sz[1];
            break;
        case SN_GEOM_CYLINDER:
            r = sqrt(sz[0] * sz[0] + 0.25 * sz[1] * sz[1]);
            break;
        case SN_GEOM_BOX:
            r = 0.5 * sqrt(sz[0] * sz[0] + sz[1] * sz[1] + sz[2] * sz[2]);
            break;
        case SN_GEOM_ELLIPSOID:
            r = fmax(fmax(sz[0], sz[1]), sz[2]);
            break;
        case SN_GEOM_MESH: {
            // the sphere around the box of the vertices (none read: never collides)
            int nv = m->geom_vert_num[g];
            const sn_real* v = m->mesh_vert + 3 * (size_t)(nv ? m->geom_vert_adr[g] : 0);
            sn_real lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, mid[3], t[3];
            for (int k = 0; k < nv; k++)
                for (int i = 0; i < 3; i++) {
                    if (k == 0 || v[3 * k + i] < lo[i]) lo[i] = v[3 * k + i];
                    if (k == 0 || v[3 * k + i] > hi[i]) hi[i] = v[3 * k + i];
                }
            for (int i = 0; i < 3; i++)
                mid[i] = 0.5 * (lo[i] + hi[i]);
            for (int k = 0; k < nv; k++) {
                v3_sub(t, v + 3 * k, mid);
                if (v3_norm(t) > r) r = v3_norm(t);
            }
            if (nv == 0) r = 0;
            // the centre: mid in the geometry frame, then the link frame, then the body frame
            sn_real lm[3];
            m3_mul_v3(lm, m->geom_rot + 9 * g, mid);
            v3_add(lm, lm, m->geom_pos + 3 * g);
            m3_mul_v3(c, m->frame_rot + 9 * f, lm);
            v3_add(c, c, m->frame_pos + 3 * f);
            break;
        }
        default:
            r = 0;
            break;
        }
        s->geom_radius[g] = m->geom_is_visual[g] ? 0 : r;
    }
}
