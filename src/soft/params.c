// SPDX-License-Identifier: Apache-2.0
// params.c: the soft contacts' settings of a world (seed 004; docs/expo.md): its contact model
// (hard or soft), the parameters of its soft contacts and those of its material pairs (the
// materials of sn_system_set_body_material; the ground is material 0), which a contact takes
// when its pair is set and the world's otherwise.
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SET_ERR(w, code, ...) sni_world_fail((w), (code), __VA_ARGS__)


// ---- the world's settings ----

sn_soft_params sn_soft_params_default(void) {
    sn_soft_params p = {1e5, 1e5, 300, 300, 1, 0};
    return p;
}


sn_soft_params sni_soft_params(const sn_world* w) {
    return w && w->soft ? w->soft->p : sn_soft_params_default();
}


sn_soft_params sni_soft_pair(const sn_world* w, int a, int b) {
    const sni_soft_world* sw = w ? w->soft : NULL;
    if (sw && a >= 0 && a < SN_SOFT_MATERIALS && b >= 0 && b < SN_SOFT_MATERIALS &&
        sw->pair_set[a][b])
        return sw->pair[a][b];
    return sni_soft_params(w);
}


int sni_soft_on(const sn_world* w) {
    return w && w->soft && w->soft->model == SN_CONTACT_SOFT;
}


static sni_soft_world* world_part(sn_world* w) {
    if (w->soft) return w->soft;
    w->soft = sni_alloc(&w->alloc, sizeof *w->soft);
    if (!w->soft) return NULL;
    memset(w->soft, 0, sizeof *w->soft);
    w->soft->model = SN_CONTACT_HARD;
    w->soft->p = sn_soft_params_default();
    return w->soft;
}


void sni_soft_world_free(sn_world* w) {
    if (w->soft) sni_free(&w->alloc, w->soft, sizeof *w->soft);
    w->soft = NULL;
}


sn_status sn_world_set_contact_model(sn_world* w, sn_contact_model model) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (model != SN_CONTACT_HARD && model != SN_CONTACT_SOFT)
        return SET_ERR(w, SN_ERR_ARG, "unknown contact model %d", (int)model);
    sni_soft_world* sw = world_part(w);
    if (!sw) return SET_ERR(w, SN_ERR_NOMEM, "no memory for the soft contact settings");
    if (sw->model != (int)model)
        for (int i = 0; i < w->nsys; i++)
            sn_system_soft_release(w->sys[i]);
    sw->model = model;
    // every system gets its soft part now (its step's scratch): a step never allocates
    for (int i = 0; i < w->nsys && model == SN_CONTACT_SOFT; i++)
        if (!sni_soft_get(w->sys[i])) return SN_ERR_NOMEM;
    return SN_OK;
}


sn_contact_model sn_world_contact_model(const sn_world* w) {
    SNI_REFUSE_NULL(w, (sn_contact_model)SN_NONE);
    return sni_soft_on(w) ? SN_CONTACT_SOFT : SN_CONTACT_HARD;
}


// k > 0, b >= 0, mu >= 0, all finite, bilateral 0 or 1; `what` names the call in the message
static sn_status check_params(sn_world* w, const sn_soft_params* p, const char* what) {
    if (!p) return SET_ERR(w, SN_ERR_ARG, "%s: the parameters are NULL", what);
    const sn_real x[5] = {p->k_normal, p->k_tangent, p->b_normal, p->b_tangent, p->mu};
    for (int k = 0; k < 5; k++)
        if (!isfinite(x[k]) || x[k] < 0 || (k < 2 && !(x[k] > 0)))
            return SET_ERR(w, SN_ERR_ARG,
                           "%s: k_normal %g and k_tangent %g must be > 0, b_normal %g, "
                           "b_tangent %g and mu %g >= 0, all finite",
                           what, p->k_normal, p->k_tangent, p->b_normal, p->b_tangent, p->mu);
    if (p->bilateral != 0 && p->bilateral != 1)
        return SET_ERR(w, SN_ERR_ARG, "%s: bilateral %d must be 0 or 1", what, p->bilateral);
    return SN_OK;
}


sn_status sn_world_set_soft_params(sn_world* w, const sn_soft_params* p) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!p) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_set_soft_params: p is NULL");
    sn_status st = check_params(w, p, "soft contact parameters");
    if (st != SN_OK) return st;
    sni_soft_world* sw = world_part(w);
    if (!sw) return SET_ERR(w, SN_ERR_NOMEM, "no memory for the soft contact settings");
    sw->p = *p;
    return SN_OK;
}


sn_status sn_world_set_soft_pair(sn_world* w, int a, int b, const sn_soft_params* p) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (a < 0 || a >= SN_SOFT_MATERIALS || b < 0 || b >= SN_SOFT_MATERIALS)
        return SET_ERR(w, SN_ERR_ARG, "soft material pair a %d, b %d: each id must be 0 to %d", a,
                       b, SN_SOFT_MATERIALS - 1);
    if (!p) { // unset: back to the world's parameters
        if (w->soft) w->soft->pair_set[a][b] = w->soft->pair_set[b][a] = 0;
        return SN_OK;
    }
    char what[64];
    snprintf(what, sizeof what, "soft material pair %d %d", a, b);
    sn_status st = check_params(w, p, what);
    if (st != SN_OK) return st;
    sni_soft_world* sw = world_part(w);
    if (!sw) return SET_ERR(w, SN_ERR_NOMEM, "no memory for the soft contact settings");
    sw->pair[a][b] = sw->pair[b][a] = *p;
    sw->pair_set[a][b] = sw->pair_set[b][a] = 1;
    return SN_OK;
}


sn_status sn_world_soft_pair(const sn_world* w, int a, int b, sn_soft_params* out, int* is_set) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!out) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_soft_pair: out is NULL");
    if (a < 0 || a >= SN_SOFT_MATERIALS || b < 0 || b >= SN_SOFT_MATERIALS)
        return sni_world_fail((sn_world*)(void*)w, SN_ERR_ARG,
                              "soft material pair a %d, b %d: each id must be 0 to %d", a, b,
                              SN_SOFT_MATERIALS - 1);
    *out = sni_soft_pair(w, a, b);
    if (is_set) *is_set = w->soft && w->soft->pair_set[a][b];
    return SN_OK;
}


sn_soft_params sn_world_soft_params(const sn_world* w) {
    if (!w) sni_refuse(SN_ERR_ARG, "sn_world_soft_params: w is NULL (the defaults returned)");
    return sni_soft_params(w);
}
