// SPDX-License-Identifier: Apache-2.0
// maximal.c: an sn_maximal added to a world (sn_world_add_maximal): each of its bodies a free
// body system (its mass and inertia about the centre of mass, the link frame at the centre of
// mass, so an sn_maximal body's frame is the system's link frame and anchors carry over as
// they are), its state copied, its constraints world constraints. The world's gravity and time
// step then apply, and its velocity-level step with the contacts replaces the sn_maximal's own.
#include "couple/couple.h"
#include "maxc/maxc.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

#define FAIL(w, ...) sni_world_fail((w), SN_ERR_ARG, __VA_ARGS__)

// a free body without collision geometry stands in for an sn_maximal body: a sphere of this
// radius whose collision filter (group 0, mask 0) meets nothing
#define STAND_IN_RADIUS 0.01


sn_status sn_world_add_maximal(sn_world* w, const sn_maximal* mx, int* first) {
    if (!w) return SN_ERR_ARG;
    if (!mx) return FAIL(w, "sn_world_add_maximal: mx is NULL");
    if (mx->model)
        return FAIL(w, "sn_world_add_maximal: an sn_maximal made from a model is not supported "
                       "yet (its links' geometry would have to come along); add the model with "
                       "sn_world_add_system instead");
    if (mx->nbody == 0) return FAIL(w, "sn_world_add_maximal: the sn_maximal has no bodies");
    // everything checked before the world changes
    for (int i = 0; i < mx->ncon; i++) {
        const sni_mx_con* k = &mx->con[i];
        if (k->user)
            return FAIL(w,
                        "sn_world_add_maximal: constraint %d is a user constraint (a callback "
                        "on the sn_maximal's bodies): not supported between systems of a world",
                        i);
        if (k->d.kind == SN_CONSTRAINT_GEAR)
            return FAIL(w,
                        "sn_world_add_maximal: constraint %d is a GEAR: not supported between "
                        "systems of a world",
                        i);
    }
    int s0 = w->nsys;
    for (int i = 0; i < mx->nbody; i++) {
        const sni_mx_body* b = &mx->body[i];
        sn_body_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.shape = SN_GEOM_SPHERE;
        bd.size[0] = STAND_IN_RADIUS;
        bd.mass = b->mass;
        const sn_real* I = b->I;
        bd.inertia[0] = I[0], bd.inertia[1] = I[1], bd.inertia[2] = I[2];
        bd.inertia[3] = I[4], bd.inertia[4] = I[5], bd.inertia[5] = I[8];
        sn_system* s = NULL;
        sn_status st = sn_world_add_body(w, &bd, &s);
        if (st != SN_OK) return st; // its message names the body's mass or inertia
        sn_system_set_collision_filter(s, 1, 0, 0);
        sn_real q[7], u[6];
        memcpy(q, b->st.x, 3 * sizeof(sn_real));
        memcpy(q + 3, b->quat, 4 * sizeof(sn_real));
        memcpy(u, b->st.v, 3 * sizeof(sn_real));
        memcpy(u + 3, b->st.w, 3 * sizeof(sn_real));
        st = sn_system_set_state(s, q, 7, u, 6);
        if (st != SN_OK) return st;
    }
    for (int i = 0; i < mx->ncon; i++) {
        sn_constraint_desc d = mx->con[i].d;
        d.system_a = w->sys[s0 + d.body_a];
        d.body_a = 1;
        if (d.body_b >= 0) {
            d.system_b = w->sys[s0 + d.body_b];
            d.body_b = 1;
        } else {
            d.system_b = NULL;
            d.body_b = -1;
        }
        sn_status st = sn_world_add_constraint(w, &d, NULL);
        if (st != SN_OK) return st;
    }
    if (first) *first = s0;
    return SN_OK;
}
