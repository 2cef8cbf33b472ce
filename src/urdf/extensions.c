// SPDX-License-Identifier: Apache-2.0
// extensions.c: what sinew reads beyond ROS's URDF: seed 001's <constraints> (pins and equality
// constraints between links, with their anchors and axes), the <actuator> extension (seed
// 000 "Actuators": a joint's motor constants, its operating region and its couplings) and the
// soft contacts' <sinew:soft_contact>, <sinew:material> and <sinew:soft_point> (seed 004,
// docs/expo.md "Soft parameters"), and <sinew:sensor> (docs/sensors.md).
#include "urdf/urdf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---- <constraints> (seed 001) ----

void sni_urdf_start_constraints(parser* p, const char** atts) {
    if (p->s->constraints_line)
        RETURN_FAIL(p, SN_ERR_MODEL, "constraints",
                    "second <constraints> element (the first is at "
                    "line %d)",
                    p->s->constraints_line);
    p->s->constraints_line = (int)XML_GetCurrentLineNumber(p->xp);
    const char* nc = sni_urdf_attr(atts, "nominal_config");
    if (!nc) return;
    size_t cap = strlen(nc) / 2 + 1;
    if (cap > (size_t)p->max_links * 4 + 8) cap = (size_t)p->max_links * 4 + 8;
    p->s->nominal = sni_alloc(p->s->alloc, cap * sizeof(sn_real));
    p->s->nominal_bytes = cap * sizeof(sn_real);
    if (!p->s->nominal) RETURN_FAIL(p, SN_ERR_NOMEM, "constraints", "out of memory");
    int count = 0;
    sni_num_result r = sni_parse_real_list(nc, p->s->nominal, (int)cap, &count);
    if (r == SNI_NUM_COUNT)
        RETURN_FAIL(p, SN_ERR_LIMIT, "constraints",
                    "attribute nominal_config has more than %d "
                    "entries",
                    (int)cap);
    if (r != SNI_NUM_OK && r != SNI_NUM_UNDERFLOW && r != SNI_NUM_EMPTY) {
        // name the first entry that does not parse
        int index = 0;
        for (const char* t = nc;; index++) {
            t += strspn(t, " \t\n\r");
            size_t n = strcspn(t, " \t\n\r");
            char* tok = sni_alloc(p->s->alloc, n + 1);
            if (!tok) RETURN_FAIL(p, SN_ERR_NOMEM, "constraints", "out of memory");
            memcpy(tok, t, n);
            sn_real v;
            sni_num_result e = n ? sni_parse_reals(tok, &v, 1) : r;
            if (e != SNI_NUM_OK && e != SNI_NUM_UNDERFLOW)
                sni_urdf_fail(p, SN_ERR_PARSE, "constraints",
                              "attribute nominal_config: entry %d "
                              "(\"%.40s\") %s",
                              index, tok, sni_num_result_str(e));
            sni_free(p->s->alloc, tok, n + 1);
            if (p->st != SN_OK) return;
            t += n;
        }
    }
    p->s->has_nominal = 1;
    p->s->nnominal = count;
}

void sni_urdf_start_loop(parser* p, const char* el, const char** atts) {
    if (SNI_NCON(p->s) >= p->max_links)
        RETURN_FAIL(p, SN_ERR_LIMIT, el, "more than %d loop constraints (sn_load_opts.max_links)",
                    p->max_links);
    const char* b1 = sni_urdf_need_name(p, el, atts, "body1");
    if (!b1) return;
    const char* b2 = sni_urdf_need_name(p, el, atts, "body2");
    if (!b2) return;
    if (!strcmp(b1, b2))
        RETURN_FAIL(p, SN_ERR_MODEL, el, "body1 and body2 are the same link '%.80s'", b1);
    sn_real anchor[3] = {0, 0, 0};
    int r = sni_urdf_attr_reals(p, el, atts, "anchor", anchor, 3);
    if (r < 0) return;
    if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'anchor'");
    long o1 = sni_spec_name(p->s, b1), o2 = sni_spec_name(p->s, b2);
    sni_constraint* c = sni_buf_grow(&p->s->constraints, sizeof(sni_constraint));
    if (!c) RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
    memset(c, 0, sizeof *c);
    c->type = el[0] == 'p' ? SN_CONSTRAINT_PIN : SN_CONSTRAINT_EQUALITY;
    c->line = (int)XML_GetCurrentLineNumber(p->xp);
    c->body1 = o1;
    c->body2 = o2;
    v3_copy(c->anchor, anchor);
    if (c->type == SN_CONSTRAINT_PIN) {
        c->naxis = 3;
        v3_set(c->axes, 1, 0, 0);
        v3_set(c->axes + 3, 0, 1, 0);
    }
    p->constraint = SNI_NCON(p->s) - 1;
}

void sni_urdf_equality_axis(parser* p, const char** atts) {
    sni_constraint* c = (sni_constraint*)p->s->constraints.data + p->constraint;
    if (c->naxis >= 2)
        RETURN_FAIL(p, SN_ERR_MODEL, "axis",
                    "three axes are not accepted in an <equality>; use "
                    "<pin>");
    sn_real a[3];
    int r = sni_urdf_attr_reals(p, "axis", atts, "xyz", a, 3);
    if (r < 0) return;
    if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, "axis", "missing attribute 'xyz'");
    sn_real n = v3_norm(a);
    if (!(n > 1e-12)) RETURN_FAIL(p, SN_ERR_MODEL, "axis", "constraint axis is zero");
    v3_scale(c->axes + 3 * c->naxis, a, 1 / n);
    if (c->naxis == 1) {
        sn_real x[3];
        v3_cross(x, c->axes, c->axes + 3);
        if (v3_norm(x) < 1e-9)
            RETURN_FAIL(p, SN_ERR_MODEL, "axis", "the two axes of an <equality> are parallel");
    }
    c->naxis++;
}

// ---- <actuator> (an extension: seed 000 "Actuators") ----

// the numeric attributes of <actuator>, in this order
enum { A_GEAR, A_KT, A_VBUS, A_R, A_KV, A_PEAK, A_DAMP, A_FRIC, A_N };
static const char* const actuator_keys[A_N] = {
    "gear_ratio", "kt",          "vbus",           "resistance",
    "kv",         "peak_torque", "output_damping", "output_friction"};

// the motor constants: all >= 0, gear_ratio and peak_torque > 0 when given; kt > 0 needs vbus,
// resistance > 0 and kv > 0; without kt the motor operating region is off, and the constants
// that only shape it warn. Returns 0 after a failure.
static int actuator_constants(parser* p, const char** atts, sni_actuator* a) {
    const char* el = "actuator";
    sn_real* dst[A_N] = {&a->gear, &a->kt,          &a->vbus,           &a->resistance,
                         &a->kv,   &a->peak_torque, &a->output_damping, &a->output_friction};
    int given[A_N];
    for (int k = 0; k < A_N; k++) {
        given[k] = sni_urdf_attr_reals(p, el, atts, actuator_keys[k], dst[k], 1);
        if (given[k] < 0) return 0;
        if (given[k] && !sni_urdf_reals_nonneg(p, el, actuator_keys[k], *dst[k])) return 0;
    }
    if (given[A_GEAR] && !(a->gear > 0)) {
        sni_urdf_fail(p, SN_ERR_MODEL, el, "attribute gear_ratio=%g must be positive", a->gear);
        return 0;
    }
    if (given[A_PEAK] && !(a->peak_torque > 0)) {
        sni_urdf_fail(p, SN_ERR_MODEL, el,
                      "attribute peak_torque=%g must be positive (leave it out for no peak torque)",
                      a->peak_torque);
        return 0;
    }
    if (a->kt > 0) {
        for (int k = A_VBUS; k <= A_KV; k++)
            if (!given[k]) {
                sni_urdf_fail(p, SN_ERR_PARSE, el,
                              "missing attribute '%s': kt > 0 needs vbus, resistance and kv",
                              actuator_keys[k]);
                return 0;
            }
        for (int k = A_R; k <= A_KV; k++)
            if (!(*dst[k] > 0)) {
                sni_urdf_fail(p, SN_ERR_MODEL, el, "attribute %s=%g must be positive when kt > 0",
                              actuator_keys[k], *dst[k]);
                return 0;
            }
        return 1;
    }
    char unused[80] = "";
    for (int k = A_VBUS; k <= A_PEAK; k++)
        if (given[k])
            snprintf(unused + strlen(unused), sizeof unused - strlen(unused), "%s%s",
                     unused[0] ? ", " : "", actuator_keys[k]);
    if (unused[0])
        sni_urdf_warn(p, el, "%s ignored: without kt > 0 the motor operating region is off",
                      unused);
    return 1;
}

void sni_urdf_start_actuator(parser* p, const char** atts) {
    const char* el = "actuator";
    p->actuator = -1;
    const char* name = sni_urdf_need_name(p, el, atts, "name");
    if (!name) return;
    snprintf(p->owner, sizeof p->owner, "actuator '%.120s'", name);
    const char* joint = sni_urdf_need_name(p, el, atts, "joint");
    if (!joint) return;
    if (SNI_NACT(p->s) >= p->max_links)
        RETURN_FAIL(p, SN_ERR_LIMIT, el, "more than %d actuators (sn_load_opts.max_links)",
                    p->max_links);
    sni_actuator a;
    memset(&a, 0, sizeof a);
    a.gear = 1;
    a.peak_torque = INFINITY;
    if (!actuator_constants(p, atts, &a)) return;
    a.line = (int)XML_GetCurrentLineNumber(p->xp);
    a.name = sni_spec_name(p->s, name);
    a.joint_name = sni_spec_name(p->s, joint);
    sni_actuator* d = sni_buf_grow(&p->s->actuators, sizeof(sni_actuator));
    if (!d) RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
    *d = a;
    p->actuator = SNI_NACT(p->s) - 1;
}

// <coupling joint ratio>: the coupled joint's velocity adds ratio * u_c to the motor speed, and
// the actuator adds ratio * tau_m to that joint. The joint is resolved by the compiler.
void sni_urdf_actuator_coupling(parser* p, const char** atts) {
    const char* el = "coupling";
    sni_actuator* a = (sni_actuator*)p->s->actuators.data + p->actuator;
    if (a->ncoupling >= SN_ACTUATOR_MAX_COUPLINGS)
        RETURN_FAIL(p, SN_ERR_MODEL, el, "more than %d <coupling> elements in one actuator",
                    SN_ACTUATOR_MAX_COUPLINGS);
    const char* joint = sni_urdf_need_name(p, el, atts, "joint");
    if (!joint) return;
    sn_real ratio = 0;
    int r = sni_urdf_attr_reals(p, el, atts, "ratio", &ratio, 1);
    if (r < 0) return;
    if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'ratio'");
    long off = sni_spec_name(p->s, joint);
    a = (sni_actuator*)p->s->actuators.data + p->actuator;
    a->coupling_name[a->ncoupling] = off;
    a->coupling_line[a->ncoupling] = (int)XML_GetCurrentLineNumber(p->xp);
    a->coupling_ratio[a->ncoupling] = ratio;
    a->ncoupling++;
}


// ---- sinew's soft contacts (docs/expo.md "Soft parameters") ----

// attribute `name` as a whole number in [lo, hi] into *out: 1 given, 0 absent, -1 failed
static int attr_int(parser* p, const char* el, const char** atts, const char* name, int lo, int hi,
                    int* out) {
    sn_real v;
    int r = sni_urdf_attr_reals(p, el, atts, name, &v, 1);
    if (r <= 0) return r;
    if (!(v == floor(v)) || v < lo || v > hi) {
        sni_urdf_fail(p, SN_ERR_MODEL, el, "attribute %s=%g must be a whole number %d to %d", name,
                      v, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 1;
}


// every attribute of the element is one of `known` (NULL-terminated), else a failure
static int only_known(parser* p, const char* el, const char** atts, const char* const* known) {
    for (int i = 0; atts[i]; i += 2) {
        int k = 0;
        while (known[k] && strcmp(known[k], atts[i]))
            k++;
        if (!known[k]) {
            sni_urdf_fail(p, SN_ERR_PARSE, el, "unknown attribute '%.40s'", atts[i]);
            return 0;
        }
    }
    return 1;
}


void sni_urdf_soft_contact(parser* p, const char** atts) {
    static const char* const known[] = {"contact", "material1", "material2", "kn",        "kt",
                                        "bn",      "bt",        "mu",        "bilateral", NULL};
    const char* el = "sinew:soft_contact";
    if (!only_known(p, el, atts, known)) return;
    int line = (int)XML_GetCurrentLineNumber(p->xp);
    sni_soft_spec* e = sni_spec_soft_add(p->s, el, line);
    if (!e) RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
    static const char* const value[5] = {"kn", "kt", "bn", "bt", "mu"};
    for (int k = 0; k < 5; k++)
        if (sni_urdf_attr_reals(p, el, atts, value[k], &e->value[k], 1) < 0) return;
    if (attr_int(p, el, atts, "bilateral", 0, 1, &e->bilateral) < 0) return;
    if (attr_int(p, el, atts, "material1", 0, 15, &e->material[0]) < 0) return;
    if (attr_int(p, el, atts, "material2", 0, 15, &e->material[1]) < 0) return;
    char msg[160];
    if (sni_spec_soft_check(e, msg, sizeof msg)) RETURN_FAIL(p, SN_ERR_MODEL, el, "%s", msg);
    int pair = e->material[0] >= 0, any = e->bilateral >= 0;
    for (int k = 0; k < 5; k++)
        any |= !isnan(e->value[k]);
    // the contact model alone is not a set of the world's parameters (a set of defaults would
    // replace what a program gave the world before applying the file)
    if (!pair && !any) p->s->soft.len -= sizeof(sni_soft_spec);
    const char* cm = sni_urdf_attr(atts, "contact");
    if (!cm) return;
    if (pair)
        RETURN_FAIL(p, SN_ERR_MODEL, el,
                    "contact=\"%.20s\" is the world's: give it on the element without materials",
                    cm);
    if (strcmp(cm, "soft") && strcmp(cm, "hard"))
        RETURN_FAIL(p, SN_ERR_MODEL, el, "contact=\"%.40s\": hard or soft", cm);
    p->s->option_contact_model = !strcmp(cm, "soft");
    p->s->contact_model_line = line;
}


void sni_urdf_soft_material(parser* p, const char** atts) {
    static const char* const known[] = {"link", "id", NULL};
    const char* el = "sinew:material";
    if (!only_known(p, el, atts, known)) return;
    const char* link = sni_urdf_need_name(p, el, atts, "link");
    if (!link) return;
    int id = -1, r = attr_int(p, el, atts, "id", 0, 15, &id);
    if (r < 0) return;
    if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'id' (0 to 15)");
    if (!sni_spec_soft_ref_add(p->s, link, id, NULL, el, (int)XML_GetCurrentLineNumber(p->xp)))
        RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
}


void sni_urdf_soft_point(parser* p, const char** atts) {
    static const char* const known[] = {"link", "xyz", NULL};
    const char* el = "sinew:soft_point";
    if (!only_known(p, el, atts, known)) return;
    const char* link = sni_urdf_need_name(p, el, atts, "link");
    if (!link) return;
    sn_real xyz[3] = {0, 0, 0};
    if (sni_urdf_attr_reals(p, el, atts, "xyz", xyz, 3) < 0) return;
    if (!isfinite(xyz[0]) || !isfinite(xyz[1]) || !isfinite(xyz[2]))
        RETURN_FAIL(p, SN_ERR_MODEL, el, "xyz must be finite");
    if (!sni_spec_soft_ref_add(p->s, link, -1, xyz, el, (int)XML_GetCurrentLineNumber(p->xp)))
        RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
}


// <sinew:sensor name type link|joint xyz rpy cutoff/> (docs/sensors.md): a sensor of the model,
// its type by sn_sensor_type_name ("imu", "force_torque", "accelerometer", ...), on a link (the
// frame sensors) or at a joint (the force and joint sensors: the joint's child link carries it),
// xyz and rpy placing the sensor frame in that link's frame
void sni_urdf_sensor(parser* p, const char** atts) {
    static const char* const known[] = {"name", "type", "link",   "joint",
                                        "xyz",  "rpy",  "cutoff", NULL};
    const char* el = "sinew:sensor";
    if (!only_known(p, el, atts, known)) return;
    const char* name = sni_urdf_need_name(p, el, atts, "name");
    const char* type = sni_urdf_need_name(p, el, atts, "type");
    if (!name || !type) return;
    sni_sensor_spec e;
    memset(&e, 0, sizeof e);
    e.type = -1;
    for (int t = 0; t <= SN_SENSOR_JOINT_VEL; t++)
        if (!strcmp(type, sn_sensor_type_name(t))) e.type = t;
    if (e.type < 0)
        RETURN_FAIL(p, SN_ERR_MODEL, el,
                    "sensor '%s': type '%s' is not one of imu, force_torque, accelerometer, gyro, "
                    "framequat, framepos, force, torque, jointpos, jointvel",
                    name, type);
    int on_joint = e.type == SN_SENSOR_FORCE_TORQUE || e.type == SN_SENSOR_FORCE ||
                   e.type == SN_SENSOR_TORQUE || e.type == SN_SENSOR_JOINT_POS ||
                   e.type == SN_SENSOR_JOINT_VEL;
    const char* link = sni_urdf_attr(atts, "link");
    const char* joint = sni_urdf_attr(atts, "joint");
    if (on_joint && (!joint || link))
        RETURN_FAIL(p, SN_ERR_MODEL, el, "sensor '%s': a %s sensor names a joint (and no link)",
                    name, type);
    if (!on_joint && (!link || joint))
        RETURN_FAIL(p, SN_ERR_MODEL, el, "sensor '%s': a %s sensor names a link (and no joint)",
                    name, type);
    if (strlen(name) >= SN_SENSOR_NAME_MAX)
        RETURN_FAIL(p, SN_ERR_MODEL, el, "sensor name '%.40s...' is longer than %d", name,
                    SN_SENSOR_NAME_MAX - 1);
    sni_urdf_parse_origin(p, atts, e.pos, e.rot);
    if (sni_urdf_attr_reals(p, el, atts, "cutoff", &e.cutoff, 1) < 0) return;
    if (!isfinite(e.cutoff) || !sni_urdf_reals_nonneg(p, el, "cutoff", e.cutoff)) {
        if (!isfinite(e.cutoff)) RETURN_FAIL(p, SN_ERR_MODEL, el, "cutoff must be finite");
        return;
    }
    e.line = (int)XML_GetCurrentLineNumber(p->xp);
    e.element = el;
    e.name = sni_spec_name(p->s, name);
    e.link = link ? sni_spec_name(p->s, link) : -1;
    e.joint = joint ? sni_spec_name(p->s, joint) : -1;
    sni_sensor_spec* slot = sni_buf_grow(&p->s->sensors, sizeof e);
    if (!slot || p->s->names.failed) RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
    *slot = e;
}
