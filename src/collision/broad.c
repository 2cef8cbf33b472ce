// SPDX-License-Identifier: Apache-2.0
// broad.c: the broad phase between systems (and within a system with self-collision on). Which
// pairs may touch: different systems, or different bodies of one system that no joint joins and
// no exclusion names, whose collision groups and masks agree. Which pairs are near: the world
// boxes of the geometries, sorted along x from step to step (sweep and prune), overlapping in y
// and z. The candidates go to the narrow phase (pairs.c) in a fixed order, so that the contacts
// do not depend on how the boxes happen to be sorted.
#include "collision/collide.h"
#include "couple/couple.h"
#include "sim/sim.h"

#include <math.h>


// collision filters: groups and masks per body (bits), and the self-collision switch
static int filter_pass(const sn_system* A, int ba, const sn_system* B, int bb) {
    return (A->body_group[ba] & B->body_mask[bb]) && (B->body_group[bb] & A->body_mask[ba]);
}


// the bounding spheres of two geometries overlap
static int bounds_meet(const sn_world* w, const sn_system* A, int ga, const sn_system* B, int gb) {
    sn_real ca[3], cb[3], dc[3];
    sni_geom_bound_center(A, ga, ca);
    sni_geom_bound_center(B, gb, cb);
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
// no world constraint that fixes their relative position (BALL, HINGE, SLIDER, WELD) joins
// them; filters that pass
static int pair_allowed(const sn_world* w, int sa, int ga, int sb, int gb) {
    const sn_system* A = w->sys[sa];
    const sn_system* B = w->sys[sb];
    if (sa == sb && !A->self_collision) return 0;
    const sn_model* ma = A->m;
    const sn_model* mb = B->m;
    int ba = ma->frame_body[ma->geom_frame[ga]];
    int bb = mb->frame_body[mb->geom_frame[gb]];
    if (sa != sb && A->mx_model && A->mx_model == B->mx_model && A->mx_tag == B->mx_tag) {
        // two bodies of one model in maximal coordinates: as in its articulated system
        const sn_model* m = A->mx_model;
        int xa = A->mx_body, xb = B->mx_body;
        if (!A->self_collision || !B->self_collision || joined(m, xa, xb) || joined(m, xb, xa))
            return 0;
        for (int i = 0; i < m->nexclude; i++) {
            const int* x = m->exclude_body + 2 * i;
            if ((x[0] == xa && x[1] == xb) || (x[0] == xb && x[1] == xa)) return 0;
        }
    }
    if (sa == sb && (ba == bb || joined(ma, ba, bb) || joined(ma, bb, ba))) return 0;
    for (int i = 0; sa == sb && i < ma->nexclude; i++) {
        const int* x = ma->exclude_body + 2 * i;
        if ((x[0] == ba && x[1] == bb) || (x[0] == bb && x[1] == ba)) return 0;
    }
    if (sni_couple_joins(w, sa, ba, sb, bb)) return 0;
    return filter_pass(A, ba, B, bb);
}


// the world box around geometry g of system s, grown by the margin
static void world_box(const sn_world* w, const sn_system* s, int g, sn_real* lo, sn_real* hi) {
    const sn_model* m = s->m;
    const sn_real* sz = m->geom_size + 3 * g;
    sn_real R[9], p[3], ext[3];
    int type = m->geom_type[g];
    if (type == SN_GEOM_MESH || type == SN_GEOM_SPHERE) {
        sni_geom_bound_center(s, g, p);
        v3_set(ext, s->geom_radius[g], s->geom_radius[g], s->geom_radius[g]);
    } else {
        sni_geom_pose(m, s->d, g, R, p);
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
                    sni_collide_pair(w, sa, ga, sb, gb);
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
        sni_collide_pair(w, w->bp_sys[p0], w->bp_geom[p0], w->bp_sys[p1], w->bp_geom[p1]);
    }
}
