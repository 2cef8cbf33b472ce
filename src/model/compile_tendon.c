// SPDX-License-Identifier: Apache-2.0
// compile_tendon.c: the tendons of the spec (MJCF <tendon>) into the model: each path entry's
// joint (a movable 1-DOF joint) and site link resolved by name, the rest lengths at the nominal
// configuration where the file gives no springlength (MuJoCo 2.2.2's default), and the actuators
// on tendons. docs/constraints.md "Tendons".
#include "base/smath.h"
#include "dynamics/dyn.h"
#include "model/compile.h"
#include "sinew/sn_data.h"
#include "tendon/tendon.h"

#include <math.h>
#include <string.h>


// one path entry resolved into entry e of the model
static sn_status fill_entry(compiler* c, sn_model* m, const sni_tendon* t, int e) {
    const sni_tendon_elem* x = (const sni_tendon_elem*)c->s->tendon_elems.data + e;
    const char* tn = SNI_NAME(c->s, t->name);
    m->tpath_type[e] = x->kind;
    m->tpath_joint[e] = SN_NONE;
    m->tpath_frame[e] = SN_NONE;
    m->tpath_coef[e] = x->coef;
    m->tpath_geom[e] = x->kind == SN_TENDON_PATH_GEOM ? x->geom : SN_NONE;
    memcpy(m->tpath_pos + 3 * e, x->pos, 3 * sizeof(sn_real));
    if (x->kind == SN_TENDON_PATH_JOINT) {
        const char* jn = SNI_NAME(c->s, x->joint);
        int j = sn_model_find(m, SN_OBJ_JOINT, jn);
        if (j == SN_NONE || m->joint_nv[j] != 1)
            return sni_compile_error(c, SN_ERR_MODEL, x->line, "joint",
                                     "in tendon '%s': joint '%s' is not a movable joint with one "
                                     "DOF",
                                     tn, jn);
        m->tpath_joint[e] = j;
    } else if (x->kind != SN_TENDON_PATH_PULLEY && x->link >= 0) {
        const char* ln = SNI_NAME(c->s, x->link);
        int f = sn_model_find(m, SN_OBJ_FRAME, ln);
        if (f == SN_NONE)
            return sni_compile_error(c, SN_ERR_MODEL, x->line, "site",
                                     "in tendon '%s': the site's body '%s' is not a link", tn, ln);
        m->tpath_frame[e] = f;
    }
    return SN_OK;
}


// the rest lengths the file leaves out: the lengths at the springs' reference configuration
static sn_status rest_lengths(compiler* c, sn_model* m) {
    const sni_tendon* t = (const sni_tendon*)c->s->tendons.data;
    int need = 0;
    for (int i = 0; i < m->ntendon; i++) {
        m->tendon_length0[i] = t[i].springlength;
        need |= isnan(t[i].springlength);
    }
    if (!need) return SN_OK;
    sn_data* d = NULL;
    if (sni_data_create_light(m, c->alloc, &d, NULL) != SN_OK)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    // MuJoCo 2.2.2's qpos_spring: each hinge and slide at its springref (not at its ref), the
    // free and ball joints at their pose in the file (the nominal configuration holds it)
    const sn_real* q = d->q;
    memcpy(d->q, m->nominal_config ? m->nominal_config : m->q0, (size_t)m->nq * sizeof(sn_real));
    for (int j = 0; j < m->njoint; j++)
        if (m->joint_nv[j] == 1) d->q[m->joint_qadr[j]] = m->joint_spring_ref[j];
    sn_status st = sn_fk(m, d);
    for (int i = 0; i < m->ntendon && st == SN_OK; i++)
        if (isnan(m->tendon_length0[i])) m->tendon_length0[i] = sni_tendon_length(m, d, q, i, NULL);
    sn_data_destroy(d);
    return st;
}


sn_status sni_compile_tendons(compiler* c, sn_model* m) {
    const sni_tendon* t = (const sni_tendon*)c->s->tendons.data;
    sn_status st = SN_OK;
    for (int i = 0; i < m->ntendon && st == SN_OK; i++) {
        for (int k = 0; k < i && st == SN_OK; k++)
            if (!strcmp(SNI_NAME(c->s, t[k].name), SNI_NAME(c->s, t[i].name)) &&
                SNI_NAME(c->s, t[i].name)[0])
                st = sni_compile_error(c, SN_ERR_MODEL, t[i].line, "tendon",
                                       "tendon '%s' is not unique (first at line %d)",
                                       SNI_NAME(c->s, t[i].name), t[k].line);
        m->tendon_name[i] = (int)t[i].name;
        m->tendon_type[i] = t[i].type;
        m->tendon_adr[i] = t[i].elem0;
        m->tendon_num[i] = t[i].nelem;
        m->tendon_limited[i] = t[i].limited;
        m->tendon_range[2 * i] = t[i].range[0];
        m->tendon_range[2 * i + 1] = t[i].range[1];
        m->tendon_stiffness[i] = t[i].stiffness;
        m->tendon_damping[i] = t[i].damping;
        for (int e = t[i].elem0; e < t[i].elem0 + t[i].nelem && st == SN_OK; e++)
            st = fill_entry(c, m, &t[i], e);
    }
    const sni_tendon_act* a = (const sni_tendon_act*)c->s->tendon_acts.data;
    for (int i = 0; i < m->ntactuator; i++) {
        m->tactuator_name[i] = (int)a[i].name;
        m->tactuator_tendon[i] = a[i].tendon;
        m->tactuator_gear[i] = a[i].gear;
        m->tactuator_gain[i] = a[i].gain;
        memcpy(m->tactuator_bias + 3 * i, a[i].bias, 3 * sizeof(sn_real));
        memcpy(m->tactuator_ctrlrange + 2 * i, a[i].ctrlrange, 2 * sizeof(sn_real));
        memcpy(m->tactuator_forcerange + 2 * i, a[i].forcerange, 2 * sizeof(sn_real));
    }
    if (st == SN_OK) st = rest_lengths(c, m);
    return st;
}
