// SPDX-License-Identifier: Apache-2.0
// params.c: the soft contacts' settings of a world (seed 004; docs/expo.md): its contact model
// (hard or soft) and the parameters of its soft contacts.
#include "sim/sim.h"
#include "soft/soft.h"

#include <math.h>
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
    (void)a, (void)b;
    return sni_soft_params(w);
}


int sni_soft_on(const sn_world* w) {
    return w && w->soft && w->soft->model == SN_CONTACT_SOFT;
}


static sni_soft_world* world_part(sn_world* w) {
    if (w->soft) return w->soft;
    w->soft = sni_alloc(&w->alloc, sizeof *w->soft);
    if (!w->soft) return NULL;
    w->soft->model = SN_CONTACT_HARD;
    w->soft->p = sn_soft_params_default();
    return w->soft;
}


void sni_soft_world_free(sn_world* w) {
    if (w->soft) sni_free(&w->alloc, w->soft, sizeof *w->soft);
    w->soft = NULL;
}


sn_status sn_world_set_contact_model(sn_world* w, sn_contact_model model) {
    if (!w) return SN_ERR_ARG;
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
    return sni_soft_on(w) ? SN_CONTACT_SOFT : SN_CONTACT_HARD;
}


sn_status sn_world_set_soft_params(sn_world* w, const sn_soft_params* p) {
    if (!w) return SN_ERR_ARG;
    if (!p) return SET_ERR(w, SN_ERR_ARG, "sn_world_set_soft_params: the parameters are NULL");
    const sn_real x[5] = {p->k_normal, p->k_tangent, p->b_normal, p->b_tangent, p->mu};
    for (int k = 0; k < 5; k++)
        if (!isfinite(x[k]) || x[k] < 0 || (k < 2 && !(x[k] > 0)))
            return SET_ERR(w, SN_ERR_ARG,
                           "soft contact parameters: k_normal %g and k_tangent %g must be > 0, "
                           "b_normal %g, b_tangent %g and mu %g >= 0, all finite",
                           p->k_normal, p->k_tangent, p->b_normal, p->b_tangent, p->mu);
    if (p->bilateral != 0 && p->bilateral != 1)
        return SET_ERR(w, SN_ERR_ARG, "soft contact parameters: bilateral %d must be 0 or 1",
                       p->bilateral);
    sni_soft_world* sw = world_part(w);
    if (!sw) return SET_ERR(w, SN_ERR_NOMEM, "no memory for the soft contact settings");
    sw->p = *p;
    return SN_OK;
}


sn_soft_params sn_world_soft_params(const sn_world* w) {
    return sni_soft_params(w);
}
