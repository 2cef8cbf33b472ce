// SPDX-License-Identifier: Apache-2.0
// model.c: the spec's life cycle and warnings, and name lookup in a compiled model.
#include "model/spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sni_spec_init(sni_spec* s, const sn_allocator* a, const char* file) {
    memset(s, 0, sizeof *s);
    s->alloc = a;
    s->file = file;
    sni_buf* bufs[] = {&s->names,        &s->links,       &s->joints,    &s->geoms,
                       &s->materials,    &s->constraints, &s->actuators, &s->excludes,
                       &s->warnings,     &s->soft,        &s->soft_refs, &s->tendons,
                       &s->tendon_elems, &s->tendon_acts, &s->sensors};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        bufs[i]->alloc = a;
    // offset 0 is the empty name
    sni_buf_push(&s->names, "", 1);
    s->option_scheme = -1;
    s->option_contact_model = -1;
}

void sni_spec_free(sni_spec* s) {
    sni_buf* bufs[] = {&s->names,        &s->links,       &s->joints,    &s->geoms,
                       &s->materials,    &s->constraints, &s->actuators, &s->excludes,
                       &s->warnings,     &s->soft,        &s->soft_refs, &s->tendons,
                       &s->tendon_elems, &s->tendon_acts, &s->sensors};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        sni_buf_free(bufs[i]);
    sni_free(s->alloc, s->nominal, s->nominal_bytes);
    s->nominal = NULL;
    sni_free(s->alloc, s->key_name, s->key_bytes);
    s->key_name = NULL;
}

long sni_spec_name(sni_spec* s, const char* str) {
    return sni_buf_push(&s->names, str, strlen(str) + 1);
}

void sni_spec_warn(sni_spec* s, int line, const char* element, const char* fmt, ...) {
    char text[600], full[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(full, sizeof full, "%s:%d: <%s>: %s", s->file, line, element, text);
    else
        snprintf(full, sizeof full, "%s: <%s>: %s", s->file, element, text);
    s->nwarning++;
    if (s->nwarning <= 64) sni_buf_push(&s->warnings, full, strlen(full) + 1);
    if (s->log) s->log(SN_LOG_WARNING, full, s->log_ctx);
}

// ---- sinew's soft contact extension ----

sni_soft_spec* sni_spec_soft_add(sni_spec* s, const char* element, int line) {
    sni_soft_spec* e = sni_buf_grow(&s->soft, sizeof *e);
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->material[0] = e->material[1] = -1;
    for (int k = 0; k < 5; k++)
        e->value[k] = NAN;
    e->bilateral = -1;
    e->line = line;
    e->element = element;
    return e;
}


const char* sni_spec_soft_check(const sni_soft_spec* e, char* msg, size_t n) {
    static const char* names[5] = {"k_normal", "k_tangent", "b_normal", "b_tangent", "mu"};
    for (int k = 0; k < 5; k++) {
        sn_real x = e->value[k];
        if (isnan(x)) continue; // not given
        if (!isfinite(x) || x < 0 || (k < 2 && !(x > 0))) {
            snprintf(msg, n, "%s %g must be finite and %s", names[k], x, k < 2 ? "> 0" : ">= 0");
            return msg;
        }
    }
    if (e->bilateral != -1 && e->bilateral != 0 && e->bilateral != 1) {
        snprintf(msg, n, "bilateral %d must be 0 or 1", e->bilateral);
        return msg;
    }
    int a = e->material[0], b = e->material[1];
    if ((a < 0) != (b < 0) || a > 15 || b > 15 || (a < -1) || (b < -1)) {
        snprintf(msg, n, "material ids %d and %d: a pair needs both, each 0 to 15", a, b);
        return msg;
    }
    return NULL;
}


sni_soft_ref* sni_spec_soft_ref_add(sni_spec* s, const char* link, int id, const sn_real* offset,
                                    const char* element, int line) {
    long name = sni_spec_name(s, link);
    sni_soft_ref* r = sni_buf_grow(&s->soft_refs, sizeof *r);
    if (!r || name < 0) return NULL;
    memset(r, 0, sizeof *r);
    r->link = name;
    r->line = line;
    r->id = id;
    if (offset) memcpy(r->offset, offset, sizeof r->offset);
    r->element = element;
    return r;
}


// ---- compiled model queries ----

static int count_of(const sn_model* m, sn_object kind, const int** names) {
    switch (kind) {
    case SN_OBJ_BODY:
        *names = m->body_name;
        return m->nbody;
    case SN_OBJ_JOINT:
        *names = m->joint_name;
        return m->njoint;
    case SN_OBJ_FRAME:
        *names = m->frame_name;
        return m->nframe;
    case SN_OBJ_URDF_JOINT:
        *names = m->ujoint_name;
        return m->nujoint;
    case SN_OBJ_ACTUATOR:
        *names = m->actuator_name;
        return m->nactuator;
    case SN_OBJ_KEY:
        *names = m->key_name;
        return m->nkey;
    case SN_OBJ_TENDON:
        *names = m->tendon_name;
        return m->ntendon;
    case SN_OBJ_TENDON_ACTUATOR:
        *names = m->tactuator_name;
        return m->ntactuator;
    case SN_OBJ_SENSOR:
        *names = m->sensor_name;
        return m->nsensor;
    }
    *names = NULL;
    return 0;
}

int sn_model_find(const sn_model* m, sn_object kind, const char* name) {
    SNI_REFUSE_NULL(m, SN_NONE);
    SNI_REFUSE_NULL(name, SN_NONE);
    const int* names;
    int n = count_of(m, kind, &names);
    if (!names) {
        sni_refuse(SN_ERR_ARG, "sn_model_find: kind %d is not an sn_object", (int)kind);
        return SN_NONE;
    }
    for (int i = 0; i < n; i++)
        if (strcmp(m->names + names[i], name) == 0) return i;
    return SN_NONE;
}

const char* sn_model_name(const sn_model* m, sn_object kind, int id) {
    SNI_REFUSE_NULL(m, NULL);
    const int* names;
    int n = count_of(m, kind, &names);
    if (!names) {
        sni_refuse(SN_ERR_ARG, "sn_model_name: kind %d is not an sn_object", (int)kind);
        return NULL;
    }
    if (sni_bad_index(__func__, "id", id, n)) return NULL;
    return m->names + names[id];
}

const char* sn_joint_type_str(sn_joint_type t) {
    switch (t) {
    case SN_JOINT_FIXED:
        return "fixed";
    case SN_JOINT_REVOLUTE:
        return "revolute";
    case SN_JOINT_CONTINUOUS:
        return "continuous";
    case SN_JOINT_PRISMATIC:
        return "prismatic";
    case SN_JOINT_SPHERICAL:
        return "spherical";
    case SN_JOINT_FLOATING:
        return "floating";
    }
    return "unknown";
}

void sn_model_destroy(sn_model* m) {
    if (!m) return;
    sn_allocator a = m->allocator_;
    a.free(m, m->size_, a.ctx);
}
