// SPDX-License-Identifier: Apache-2.0
// urdf.c: the URDF reader. A SAX pass on libexpat fills a spec (spec.h); sni_compile turns it
// into a model. Expat enforces neither a nesting limit nor a size limit, so this file does:
// depth, file size, attribute length, attributes per element and element counts are capped, and
// any DOCTYPE with an internal subset or an external DTD is refused (no entity is ever expanded).
// Every error names file, line and element. This file holds the errors and attributes, the
// expat callbacks (which element goes where) and the entry points; the elements are read in
// elements.c, seed 001's <constraints> and the <actuator> extension in extensions.c. What is
// accepted and what warns is documented in docs/urdf.md; tests/test_bad_inputs.c holds the bad
// inputs (tests/test_model_actuators.c those of the <actuator> extension).
#include "urdf/urdf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- errors and attributes ----

static void vfail(parser* p, int line, sn_status code, const char* element, const char* fmt,
                  va_list ap) {
    if (p->st != SN_OK) return;
    char text[600];
    vsnprintf(text, sizeof text, fmt, ap);
    if (p->owner[0])
        sni_error(p->err, code, p->s->file, line, element, "in %s: %s", p->owner, text);
    else
        sni_error(p->err, code, p->s->file, line, element, "%s", text);
    p->st = code;
    XML_StopParser(p->xp, XML_FALSE);
}

// an error at the current position of the parser
void sni_urdf_fail(parser* p, sn_status code, const char* element, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(p, (int)XML_GetCurrentLineNumber(p->xp), code, element, fmt, ap);
    va_end(ap);
}

// an error about an element seen earlier (its line is given)
void sni_urdf_fail_at(parser* p, int line, sn_status code, const char* element, const char* fmt,
                      ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(p, line, code, element, fmt, ap);
    va_end(ap);
}

static void vwarn(parser* p, int line, const char* element, const char* fmt, va_list ap) {
    char text[600];
    vsnprintf(text, sizeof text, fmt, ap);
    if (p->owner[0])
        sni_spec_warn(p->s, line, element, "in %s: %s", p->owner, text);
    else
        sni_spec_warn(p->s, line, element, "%s", text);
}

void sni_urdf_warn(parser* p, const char* element, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(p, (int)XML_GetCurrentLineNumber(p->xp), element, fmt, ap);
    va_end(ap);
}

void sni_urdf_warn_at(parser* p, int line, const char* element, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(p, line, element, fmt, ap);
    va_end(ap);
}

const char* sni_urdf_attr(const char** atts, const char* name) {
    for (int i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0) return atts[i + 1];
    return NULL;
}

// parse n numbers of attribute `name`; returns 1 if present and valid, 0 if absent, -1 on error
int sni_urdf_attr_reals(parser* p, const char* el, const char** atts, const char* name,
                        sn_real* out, int n) {
    const char* v = sni_urdf_attr(atts, name);
    if (!v) return 0;
    sni_num_result r = sni_parse_reals(v, out, n);
    if (r == SNI_NUM_UNDERFLOW) {
        sni_urdf_warn(p, el, "attribute %s=\"%.60s\" underflows; the value is taken as %g", name, v,
                      out[0]);
        return 1;
    }
    if (r != SNI_NUM_OK) {
        if (r == SNI_NUM_COUNT)
            sni_urdf_fail(p, SN_ERR_PARSE, el, "attribute %s=\"%.60s\" must have %d number%s", name,
                          v, n, n > 1 ? "s" : "");
        else
            sni_urdf_fail(p, SN_ERR_PARSE, el, "attribute %s=\"%.60s\" %s", name, v,
                          sni_num_result_str(r));
        return -1;
    }
    return 1;
}

// a required name attribute: non-empty
const char* sni_urdf_need_name(parser* p, const char* el, const char** atts, const char* name) {
    const char* v = sni_urdf_attr(atts, name);
    if (!v || !v[0]) {
        sni_urdf_fail(p, SN_ERR_PARSE, el, "missing or empty attribute '%s'", name);
        return NULL;
    }
    return v;
}

int sni_urdf_reals_nonneg(parser* p, const char* el, const char* name, sn_real v) {
    if (v < 0) {
        sni_urdf_fail(p, SN_ERR_MODEL, el, "attribute %s=%g must not be negative", name, v);
        return 0;
    }
    return 1;
}

// ---- expat callbacks ----

// an element opens: the limits, then the element by its context (the parent's), each kind to
// its reader in elements.c or extensions.c. Long (about 120 lines) because it is that table of
// contexts and elements, read top to bottom; its entries are one or two lines each
static void on_start(void* ud, const char* el, const char** atts) {
    parser* p = ud;
    if (p->st != SN_OK) return;
    int parent = p->ctx[p->depth];
    if (++p->depth > MAX_DEPTH)
        RETURN_FAIL(p, SN_ERR_LIMIT, el, "elements nested deeper than %d", MAX_DEPTH);
    size_t ellen = strlen(el);
    if (ellen >= sizeof p->open[0]) ellen = sizeof p->open[0] - 1;
    memcpy(p->open[p->depth], el, ellen);
    p->open[p->depth][ellen] = 0;
    p->open_line[p->depth] = (int)XML_GetCurrentLineNumber(p->xp);
    int natt = 0;
    for (int i = 0; atts[i]; i += 2, natt++) {
        if (natt >= MAX_ATTRS)
            RETURN_FAIL(p, SN_ERR_LIMIT, el, "more than %d attributes on one element", MAX_ATTRS);
        if (strlen(atts[i + 1]) > MAX_ATTR_LEN)
            RETURN_FAIL(p, SN_ERR_LIMIT, el, "attribute '%.40s' longer than %u bytes", atts[i],
                        MAX_ATTR_LEN);
    }
    int c = C_LEAF;
    switch (parent) {
    case C_SKIP:
        c = C_SKIP;
        break;
    case C_DOC:
        if (strcmp(el, "robot") != 0)
            RETURN_FAIL(p, SN_ERR_PARSE, el, "the root element is <%s>, not <robot>", el);
        p->seen_robot = 1;
        c = C_ROBOT;
        break;
    case C_ROBOT:
        p->owner[0] = 0;
        if (!strcmp(el, "link"))
            sni_urdf_start_link(p, atts), c = C_LINK;
        else if (!strcmp(el, "joint"))
            sni_urdf_start_joint(p, atts), c = C_JOINT;
        else if (!strcmp(el, "material"))
            sni_urdf_start_material(p, atts, 0), c = C_MATERIAL;
        else if (!strcmp(el, "constraints"))
            sni_urdf_start_constraints(p, atts), c = C_CONSTRAINTS;
        else if (!strcmp(el, "actuator"))
            sni_urdf_start_actuator(p, atts), c = C_ACTUATOR;
        else if (!strcmp(el, "sinew:soft_contact"))
            sni_urdf_soft_contact(p, atts);
        else if (!strcmp(el, "sinew:material"))
            sni_urdf_soft_material(p, atts);
        else if (!strcmp(el, "sinew:soft_point"))
            sni_urdf_soft_point(p, atts);
        else if (!strcmp(el, "sinew:sensor"))
            sni_urdf_sensor(p, atts);
        else if (!strcmp(el, "gazebo") || !strcmp(el, "transmission") ||
                 !strcmp(el, "ros2_control") || !strcmp(el, "sensor"))
            c = C_SKIP;
        else
            sni_urdf_warn(p, el, "unknown element <%s> in <robot> ignored", el), c = C_SKIP;
        break;
    case C_LINK:
        if (!strcmp(el, "inertial"))
            sni_urdf_start_inertial(p), c = C_INERTIAL;
        else if (!strcmp(el, "visual"))
            sni_urdf_start_geom(p, 1), c = C_VISUAL;
        else if (!strcmp(el, "collision"))
            sni_urdf_start_geom(p, 0), c = C_COLLISION;
        else
            sni_urdf_warn(p, el, "unknown element <%s> in <link> ignored", el), c = C_SKIP;
        break;
    case C_INERTIAL:
        sni_urdf_inertial_child(p, el, atts);
        break;
    case C_VISUAL:
    case C_COLLISION:
        if (!strcmp(el, "origin"))
            sni_urdf_parse_origin(p, atts, cur_geom(p)->pos, cur_geom(p)->rot);
        else if (!strcmp(el, "geometry"))
            c = C_GEOMETRY;
        else if (!strcmp(el, "material") && parent == C_VISUAL)
            sni_urdf_start_material(p, atts, 1), c = C_GMATERIAL;
        else if (!strcmp(el, "material"))
            c = C_SKIP;
        else if (!strcmp(el, "verbose"))
            c = C_SKIP;
        else
            sni_urdf_warn(p, el, "unknown element <%s> in <%s> ignored", el,
                          parent == C_VISUAL ? "visual" : "collision"),
                c = C_SKIP;
        break;
    case C_GEOMETRY:
        sni_urdf_shape(p, el, atts);
        break;
    case C_GMATERIAL:
    case C_MATERIAL:
        sni_urdf_material_child(p, el, atts);
        break;
    case C_JOINT:
        sni_urdf_joint_child(p, el, atts);
        break;
    case C_CONSTRAINTS:
        if (!strcmp(el, "pin"))
            sni_urdf_start_loop(p, el, atts), c = C_PIN;
        else if (!strcmp(el, "equality"))
            sni_urdf_start_loop(p, el, atts), c = C_EQUALITY;
        else
            sni_urdf_warn(p, el, "unknown element <%s> in <constraints> ignored", el), c = C_SKIP;
        break;
    case C_PIN:
        if (!strcmp(el, "axis")) RETURN_FAIL(p, SN_ERR_MODEL, el, "a <pin> takes no <axis>");
        sni_urdf_warn(p, el, "unknown element <%s> in <pin> ignored", el), c = C_SKIP;
        break;
    case C_EQUALITY:
        if (!strcmp(el, "axis"))
            sni_urdf_equality_axis(p, atts);
        else
            sni_urdf_warn(p, el, "unknown element <%s> in <equality> ignored", el), c = C_SKIP;
        break;
    case C_ACTUATOR:
        if (!strcmp(el, "coupling"))
            sni_urdf_actuator_coupling(p, atts);
        else
            sni_urdf_warn(p, el, "unknown element <%s> in <actuator> ignored", el), c = C_SKIP;
        break;
    case C_LEAF:
        sni_urdf_warn(p, el, "unexpected element <%s> ignored", el);
        c = C_SKIP;
        break;
    }
    p->ctx[p->depth] = c;
}

static void on_end(void* ud, const char* el) {
    parser* p = ud;
    (void)el;
    if (p->st != SN_OK) return;
    int c = p->ctx[p->depth];
    if (c == C_INERTIAL) sni_urdf_end_inertial(p);
    if (c == C_EQUALITY) {
        sni_constraint* k = (sni_constraint*)p->s->constraints.data + p->constraint;
        if (k->naxis == 0)
            sni_urdf_fail_at(p, k->line, SN_ERR_MODEL, "equality",
                             "an <equality> needs one or two <axis> "
                             "elements");
    }
    if (c == C_VISUAL || c == C_COLLISION) {
        if (cur_geom(p)->type < 0)
            sni_urdf_fail_at(p, cur_geom(p)->line, SN_ERR_PARSE,
                             c == C_VISUAL ? "visual" : "collision", "no <geometry> shape given");
    }
    if (c == C_LINK || c == C_JOINT || c == C_ACTUATOR) p->owner[0] = 0;
    p->depth--;
}

// any DOCTYPE with an internal subset (entity declarations) is refused
static void on_doctype(void* ud, const XML_Char* name, const XML_Char* sysid, const XML_Char* pubid,
                       int has_internal_subset) {
    parser* p = ud;
    (void)name;
    (void)pubid;
    if (has_internal_subset || sysid)
        sni_urdf_fail(p, SN_ERR_PARSE, "!DOCTYPE",
                      "a DOCTYPE with entity declarations or an external "
                      "DTD is not accepted");
}

static void on_entity(void* ud, const XML_Char* name, int is_param, const XML_Char* value, int len,
                      const XML_Char* base, const XML_Char* sysid, const XML_Char* pubid,
                      const XML_Char* notation) {
    parser* p = ud;
    (void)is_param, (void)value, (void)len, (void)base, (void)sysid, (void)pubid, (void)notation;
    sni_urdf_fail(p, SN_ERR_PARSE, "!ENTITY", "entity declarations are not accepted ('%.60s')",
                  name);
}

// ---- entry points ----

// line of position `at` in xml, counting LF, CR and CR LF as one line end each (as expat does)
static int line_of(const char* xml, const char* at) {
    int line = 1;
    for (const char* c = xml; c < at; c++) {
        if (*c == '\n')
            line++;
        else if (*c == '\r') {
            line++;
            if (c + 1 < at && c[1] == '\n') c++;
        }
    }
    return line;
}

// the error of a malformed document, with its line and column and the innermost open element
static sn_status xml_error(parser* p) {
    enum XML_Error code = XML_GetErrorCode(p->xp);
    int line = (int)XML_GetCurrentLineNumber(p->xp);
    int col = (int)XML_GetCurrentColumnNumber(p->xp) + 1;
    const char* what = XML_ErrorString(code);
    if (code == XML_ERROR_NO_ELEMENTS && p->depth == 0 && !p->seen_robot)
        return sni_error(p->err, SN_ERR_PARSE, p->s->file, line, "robot",
                         "no <robot> element "
                         "found: the input is empty or has no element");
    if (p->depth == 0)
        return sni_error(p->err, SN_ERR_PARSE, p->s->file, line, "", "XML error at column %d: %s",
                         col, what ? what : "?");
    const char* el = p->open[p->depth];
    int at = p->open_line[p->depth];
    if (code == XML_ERROR_NO_ELEMENTS)
        return sni_error(p->err, SN_ERR_PARSE, p->s->file, line, el,
                         "XML error: the input ends "
                         "before <%s> (opened at line %d) is closed",
                         el, at);
    return sni_error(p->err, SN_ERR_PARSE, p->s->file, line, el,
                     "XML error at column %d: %s "
                     "(inside <%s>, opened at line %d)",
                     col, what ? what : "?", el, at);
}

static sn_status parse_buffer(const char* xml, size_t len, sni_spec* s, const char* base_dir,
                              const sn_load_opts* opts, sn_error* err) {
    parser p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.err = err;
    p.base_dir = base_dir;
    p.package_dir = opts ? opts->package_dir : NULL;
    p.max_links = opts && opts->max_links > 0 ? opts->max_links : DEFAULT_MAX_LINKS;
    p.link = p.joint = p.geom = p.material = p.constraint = p.actuator = -1;
    if (len > (size_t)0x7fffffff)
        return sni_error(err, SN_ERR_LIMIT, s->file, 0, "",
                         "input of %zu bytes: the XML parser "
                         "takes at most 2 GiB",
                         len);
    const char* nul = memchr(xml, 0, len);
    if (nul)
        return sni_error(err, SN_ERR_PARSE, s->file, line_of(xml, nul), "",
                         "the input contains a "
                         "NUL byte (at offset %zu)",
                         (size_t)(nul - xml));
    p.xp = XML_ParserCreate(NULL);
    if (!p.xp) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "cannot create the XML parser");
    XML_SetUserData(p.xp, &p);
    XML_SetElementHandler(p.xp, on_start, on_end);
    XML_SetStartDoctypeDeclHandler(p.xp, on_doctype);
    XML_SetEntityDeclHandler(p.xp, on_entity);
    XML_SetParamEntityParsing(p.xp, XML_PARAM_ENTITY_PARSING_NEVER);
    int ok = XML_Parse(p.xp, xml, (int)len, 1) != XML_STATUS_ERROR;
    if (!ok && p.st == SN_OK) p.st = xml_error(&p);
    if (p.st == SN_OK && !p.seen_robot)
        p.st = sni_error(err, SN_ERR_PARSE, s->file, 0, "robot", "no <robot> element found");
    if (p.st == SN_OK && s->names.failed)
        p.st = sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    XML_ParserFree(p.xp);
    return p.st;
}

sn_status sn_load_urdf_string(const char* xml, size_t len, const char* name, const char* base_dir,
                              const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!xml) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_urdf_string: xml is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_urdf_string: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, name, 0, "", "out is NULL");
    *out = NULL;
    if (!xml) return sni_error(err, SN_ERR_ARG, name, 0, "", "xml is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    if (len > max)
        return sni_error(err, SN_ERR_LIMIT, name, 0, "",
                         "input of %zu bytes exceeds the limit "
                         "of %zu (sn_load_opts.max_file_bytes)",
                         len, max);
    sni_spec s;
    sni_spec_init(&s, opts ? opts->allocator : NULL, name ? name : "<string>");
    s.base = opts ? opts->base : SN_BASE_AUTO;
    s.balance_inertia = opts ? opts->balance_inertia : 0;
    s.strict_inertia = opts ? opts->strict_inertia : 0;
    s.log = opts ? opts->log : NULL;
    s.log_ctx = opts ? opts->log_ctx : NULL;
    sn_status st = parse_buffer(xml, len, &s, base_dir, opts, err);
    if (st == SN_OK) st = sni_compile(&s, opts ? opts->allocator : NULL, out, err);
    sni_spec_free(&s);
    return st;
}

sn_status sn_load_urdf(const char* path, const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_urdf: path is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_urdf: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, path, 0, "", "out is NULL");
    *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, "", 0, "", "path is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    const sn_allocator* a = opts ? opts->allocator : NULL;
    char* buf = NULL;
    size_t n = 0;
    sn_status st = sni_read_file(path, max, "sn_load_opts.max_file_bytes", a, &buf, &n, err);
    if (st != SN_OK) return st;
    char dir[1024];
    sni_dir_of(path, dir, sizeof dir);
    sn_status s = sn_load_urdf_string(buf, n, path, dir, opts, out, err);
    sni_free(a, buf, n + 1);
    return s;
}
