// SPDX-License-Identifier: Apache-2.0
// urdf.c: the URDF reader. A SAX pass on libexpat fills a spec (spec.h); sni_compile turns it
// into a model. Expat enforces neither a nesting limit nor a size limit, so this file does:
// depth, file size, attribute length, attributes per element and element counts are capped, and
// any DOCTYPE with an internal subset or an external DTD is refused (no entity is ever expanded).
// Every error names file, line and element. What is accepted and what warns is documented in
// docs/urdf.md; tests/test_bad_inputs.c holds the bad inputs (tests/test_model_actuators.c those
// of the <actuator> extension).
#include "base/base.h"
#include "base/smath.h"
#include "model/spec.h"

#include <expat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 64
#define MAX_ATTR_LEN (1u << 20)
#define MAX_ATTRS 256 // attributes on one element
#define DEFAULT_MAX_FILE ((size_t)64 << 20)
#define DEFAULT_MAX_LINKS 200000
#define MAX_PACKAGE_STRIP 16 // leading path components tried away in a package:// lookup

// element contexts
enum {
    C_DOC,
    C_ROBOT,
    C_LINK,
    C_INERTIAL,
    C_VISUAL,
    C_COLLISION,
    C_GEOMETRY,
    C_GMATERIAL,
    C_JOINT,
    C_MATERIAL,
    C_CONSTRAINTS,
    C_PIN,
    C_EQUALITY,
    C_ACTUATOR,
    C_LEAF,
    C_SKIP,
};

typedef struct parser {
    XML_Parser xp;
    sni_spec* s;
    sn_error* err;
    sn_status st;
    const char* base_dir;
    const char* package_dir;
    int depth;
    int ctx[MAX_DEPTH + 1];
    int skip_from; // depth at which an ignored subtree started, 0 when none
    int seen_robot;
    int max_links;
    int link, joint, geom, material, constraint, actuator; // current element indices, -1
    int has_mass, has_inertia;
    int mass_line, inertia_line;
    sn_real inertial_rot[9];
    sn_real inertia_raw[9];
    char owner[160];              // "link 'x'", "joint 'y'" or "actuator 'z'" for messages
    char open[MAX_DEPTH + 1][40]; // names of the open elements, for XML errors
    int open_line[MAX_DEPTH + 1];
} parser;

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
static void fail(parser* p, sn_status code, const char* element, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(p, (int)XML_GetCurrentLineNumber(p->xp), code, element, fmt, ap);
    va_end(ap);
}

// an error about an element seen earlier (its line is given)
static void fail_at(parser* p, int line, sn_status code, const char* element, const char* fmt,
                    ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(p, line, code, element, fmt, ap);
    va_end(ap);
}

#define RETURN_FAIL(...)                                                                           \
    do {                                                                                           \
        fail(__VA_ARGS__);                                                                         \
        return;                                                                                    \
    } while (0)

static void vwarn(parser* p, int line, const char* element, const char* fmt, va_list ap) {
    char text[600];
    vsnprintf(text, sizeof text, fmt, ap);
    if (p->owner[0])
        sni_spec_warn(p->s, line, element, "in %s: %s", p->owner, text);
    else
        sni_spec_warn(p->s, line, element, "%s", text);
}

static void warn(parser* p, const char* element, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(p, (int)XML_GetCurrentLineNumber(p->xp), element, fmt, ap);
    va_end(ap);
}

static void warn_at(parser* p, int line, const char* element, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(p, line, element, fmt, ap);
    va_end(ap);
}

static const char* attr(const char** atts, const char* name) {
    for (int i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0) return atts[i + 1];
    return NULL;
}

// parse n numbers of attribute `name`; returns 1 if present and valid, 0 if absent, -1 on error
static int attr_reals(parser* p, const char* el, const char** atts, const char* name, sn_real* out,
                      int n) {
    const char* v = attr(atts, name);
    if (!v) return 0;
    sni_num_result r = sni_parse_reals(v, out, n);
    if (r == SNI_NUM_UNDERFLOW) {
        warn(p, el, "attribute %s=\"%.60s\" underflows; the value is taken as %g", name, v, out[0]);
        return 1;
    }
    if (r != SNI_NUM_OK) {
        if (r == SNI_NUM_COUNT)
            fail(p, SN_ERR_PARSE, el, "attribute %s=\"%.60s\" must have %d number%s", name, v, n,
                 n > 1 ? "s" : "");
        else
            fail(p, SN_ERR_PARSE, el, "attribute %s=\"%.60s\" %s", name, v, sni_num_result_str(r));
        return -1;
    }
    return 1;
}

// a required name attribute: non-empty
static const char* need_name(parser* p, const char* el, const char** atts, const char* name) {
    const char* v = attr(atts, name);
    if (!v || !v[0]) {
        fail(p, SN_ERR_PARSE, el, "missing or empty attribute '%s'", name);
        return NULL;
    }
    return v;
}

static int reals_nonneg(parser* p, const char* el, const char* name, sn_real v) {
    if (v < 0) {
        fail(p, SN_ERR_MODEL, el, "attribute %s=%g must not be negative", name, v);
        return 0;
    }
    return 1;
}

// ---- elements ----

// <origin xyz rpy> into pos and rot
static void parse_origin(parser* p, const char** atts, sn_real* pos, sn_real* rot) {
    sn_real rpy[3] = {0, 0, 0};
    v3_set(pos, 0, 0, 0);
    if (attr_reals(p, "origin", atts, "xyz", pos, 3) < 0) return;
    if (attr_reals(p, "origin", atts, "rpy", rpy, 3) < 0) return;
    rpy_to_m3(rot, rpy[0], rpy[1], rpy[2]);
}

static void start_link(parser* p, const char** atts) {
    const char* name = need_name(p, "link", atts, "name");
    if (!name) return;
    if (SNI_NLINK(p->s) >= p->max_links) {
        fail(p, SN_ERR_LIMIT, "link", "more than %d links (sn_load_opts.max_links)", p->max_links);
        return;
    }
    sni_link* l = sni_buf_grow(&p->s->links, sizeof(sni_link));
    if (!l) RETURN_FAIL(p, SN_ERR_NOMEM, "link", "out of memory");
    memset(l, 0, sizeof *l);
    l->name = sni_spec_name(p->s, name);
    l->line = (int)XML_GetCurrentLineNumber(p->xp);
    m3_identity(l->inertia);
    memset(l->inertia, 0, sizeof l->inertia);
    p->link = SNI_NLINK(p->s) - 1;
    snprintf(p->owner, sizeof p->owner, "link '%.120s'", name);
}

static int joint_type_of(const char* t) {
    if (!t) return -1;
    if (!strcmp(t, "fixed")) return SN_JOINT_FIXED;
    if (!strcmp(t, "revolute")) return SN_JOINT_REVOLUTE;
    if (!strcmp(t, "continuous")) return SN_JOINT_CONTINUOUS;
    if (!strcmp(t, "prismatic")) return SN_JOINT_PRISMATIC;
    if (!strcmp(t, "spherical") || !strcmp(t, "ball")) return SN_JOINT_SPHERICAL;
    if (!strcmp(t, "floating")) return SN_JOINT_FLOATING;
    return -1;
}

static void start_joint(parser* p, const char** atts) {
    const char* name = need_name(p, "joint", atts, "name");
    if (!name) return;
    snprintf(p->owner, sizeof p->owner, "joint '%.120s'", name);
    const char* type = attr(atts, "type");
    int t = joint_type_of(type);
    if (t < 0) {
        if (type && !strcmp(type, "planar"))
            RETURN_FAIL(p, SN_ERR_MODEL, "joint", "joint type 'planar' is not supported");
        if (!type || !type[0])
            RETURN_FAIL(p, SN_ERR_MODEL, "joint",
                        "%s joint type (expected fixed, revolute, "
                        "continuous, prismatic, spherical or floating)",
                        type ? "empty" : "missing");
        RETURN_FAIL(p, SN_ERR_MODEL, "joint",
                    "unknown joint type '%.40s' (expected fixed, "
                    "revolute, continuous, prismatic, spherical or floating)",
                    type);
    }
    if (SNI_NJOINT(p->s) >= p->max_links) {
        fail(p, SN_ERR_LIMIT, "joint", "more than %d joints (sn_load_opts.max_links)",
             p->max_links);
        return;
    }
    sni_joint* j = sni_buf_grow(&p->s->joints, sizeof(sni_joint));
    if (!j) RETURN_FAIL(p, SN_ERR_NOMEM, "joint", "out of memory");
    memset(j, 0, sizeof *j);
    j->name = sni_spec_name(p->s, name);
    j->line = (int)XML_GetCurrentLineNumber(p->xp);
    j->type = t;
    j->parent_name = j->child_name = j->mimic_name = -1;
    m3_identity(j->rot);
    v3_set(j->axis, 1, 0, 0);
    j->lower = -INFINITY;
    j->upper = INFINITY;
    j->effort = INFINITY;
    j->velocity = INFINITY;
    j->mimic_multiplier = 1;
    p->joint = SNI_NJOINT(p->s) - 1;
}

static sni_joint* cur_joint(parser* p) {
    return (sni_joint*)p->s->joints.data + p->joint;
}
static sni_link* cur_link(parser* p) {
    return (sni_link*)p->s->links.data + p->link;
}
static sni_geom* cur_geom(parser* p) {
    return (sni_geom*)p->s->geoms.data + p->geom;
}

static void joint_child(parser* p, const char* el, const char** atts) {
    sni_joint* j = cur_joint(p);
    if (!strcmp(el, "origin")) {
        parse_origin(p, atts, j->pos, j->rot);
    } else if (!strcmp(el, "parent") || !strcmp(el, "child")) {
        const char* link = need_name(p, el, atts, "link");
        if (!link) return;
        long off = sni_spec_name(p->s, link);
        j = cur_joint(p);
        if (el[0] == 'p')
            j->parent_name = off;
        else
            j->child_name = off;
    } else if (!strcmp(el, "axis")) {
        sn_real a[3];
        int r = attr_reals(p, el, atts, "xyz", a, 3);
        if (r < 0) return;
        if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'xyz'");
        sn_real n = v3_norm(a);
        if (!(n > 1e-12) && j->type == SN_JOINT_FIXED) {
            warn(p, el, "axis of a fixed joint is zero; ignored");
            return;
        }
        if (!(n > 1e-12))
            RETURN_FAIL(p, SN_ERR_MODEL, el, "axis xyz=\"%g %g %g\" is zero", a[0], a[1], a[2]);
        if (fabs(n - 1) > 1e-6) warn(p, el, "axis of length %.9g normalized", n);
        v3_scale(j->axis, a, 1 / n);
    } else if (!strcmp(el, "limit")) {
        sn_real v;
        j->has_limit = 1;
        int r;
        if ((r = attr_reals(p, el, atts, "lower", &v, 1)) < 0) return;
        if (r) j->lower = v, j->has_lower = 1;
        if ((r = attr_reals(p, el, atts, "upper", &v, 1)) < 0) return;
        if (r) j->upper = v, j->has_upper = 1;
        if ((r = attr_reals(p, el, atts, "effort", &v, 1)) < 0) return;
        if (r && !reals_nonneg(p, el, "effort", v)) return;
        if (r) j->effort = v;
        if ((r = attr_reals(p, el, atts, "velocity", &v, 1)) < 0) return;
        if (r && !reals_nonneg(p, el, "velocity", v)) return;
        if (r) j->velocity = v;
        if (j->has_lower && j->has_upper && j->lower > j->upper)
            RETURN_FAIL(p, SN_ERR_MODEL, el, "lower=%g is above upper=%g", j->lower, j->upper);
    } else if (!strcmp(el, "dynamics")) {
        static const char* keys[] = {"damping",      "friction",      "stiffness",
                                     "spring_mount", "rotor_inertia", "armature"};
        sn_real* dst[] = {&j->damping,    &j->friction, &j->stiffness,
                          &j->spring_ref, &j->armature, &j->armature};
        for (int k = 0; k < 6; k++) {
            sn_real v;
            int r = attr_reals(p, el, atts, keys[k], &v, 1);
            if (r < 0) return;
            if (r && k != 3 && !reals_nonneg(p, el, keys[k], v)) return;
            if (r) *dst[k] = v;
        }
    } else if (!strcmp(el, "mimic")) {
        const char* leader = need_name(p, el, atts, "joint");
        if (!leader) return;
        long off = sni_spec_name(p->s, leader);
        j = cur_joint(p);
        j->mimic_name = off;
        j->mimic_line = (int)XML_GetCurrentLineNumber(p->xp);
        if (attr_reals(p, el, atts, "multiplier", &j->mimic_multiplier, 1) < 0) return;
        if (attr_reals(p, el, atts, "offset", &j->mimic_offset, 1) < 0) return;
    } else if (!strcmp(el, "safety_controller")) {
        static const char* keys[] = {"soft_lower_limit", "soft_upper_limit", "k_position",
                                     "k_velocity"};
        for (int k = 0; k < 4; k++) {
            sn_real v;
            if (attr_reals(p, el, atts, keys[k], &v, 1) < 0) return;
        }
    } else if (!strcmp(el, "calibration")) {
        sn_real v;
        if (attr_reals(p, el, atts, "rising", &v, 1) < 0) return;
        if (attr_reals(p, el, atts, "falling", &v, 1) < 0) return;
    } else {
        warn(p, el, "unknown element <%s> in <joint> ignored", el);
    }
}

static void start_inertial(parser* p) {
    sni_link* l = cur_link(p);
    if (l->has_inertial) RETURN_FAIL(p, SN_ERR_PARSE, "inertial", "second <inertial> in a link");
    l->has_inertial = 1;
    l->inertial_line = (int)XML_GetCurrentLineNumber(p->xp);
    p->has_mass = p->has_inertia = 0;
    m3_identity(p->inertial_rot);
    memset(p->inertia_raw, 0, sizeof p->inertia_raw);
}

static void inertial_child(parser* p, const char* el, const char** atts) {
    sni_link* l = cur_link(p);
    if (!strcmp(el, "origin")) {
        parse_origin(p, atts, l->com, p->inertial_rot);
    } else if (!strcmp(el, "mass")) {
        p->mass_line = (int)XML_GetCurrentLineNumber(p->xp);
        int r = attr_reals(p, el, atts, "value", &l->mass, 1);
        if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'value'");
        if (r < 0) return;
        if (l->mass < 0) RETURN_FAIL(p, SN_ERR_MODEL, el, "mass %g is negative", l->mass);
        p->has_mass = 1;
    } else if (!strcmp(el, "inertia")) {
        static const char* keys[] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
        static const int at[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 4}, {1, 5}, {2, 8}};
        p->inertia_line = (int)XML_GetCurrentLineNumber(p->xp);
        for (int k = 0; k < 6; k++) {
            sn_real v = 0;
            int r = attr_reals(p, el, atts, keys[k], &v, 1);
            if (r < 0) return;
            if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute '%s'", keys[k]);
            int i = at[k][1];
            p->inertia_raw[i] = v;
            p->inertia_raw[(i % 3) * 3 + i / 3] = v;
        }
        p->has_inertia = 1;
    } else {
        warn(p, el, "unknown element <%s> in <inertial> ignored", el);
    }
}

// validate the inertia of the link just closed; rotate it into the link frame. Messages point
// at the <inertia> element (at <inertial> when it is missing).
static void end_inertial(parser* p) {
    sni_link* l = cur_link(p);
    if (!p->has_mass) {
        fail_at(p, l->inertial_line, SN_ERR_PARSE, "inertial", "<inertial> without <mass>");
        return;
    }
    if (!p->has_inertia) {
        if (l->mass > 0)
            fail_at(p, l->inertial_line, SN_ERR_PARSE, "inertial",
                    "<inertial> with a mass but no <inertia>");
        return;
    }
    int line = p->inertia_line;
    m3_rotate_sym(l->inertia, p->inertial_rot, p->inertia_raw);
    sn_real ev[3];
    sni_sym3_eigenvalues(l->inertia, ev);
    sn_real scale = fabs(ev[2]) > 0 ? fabs(ev[2]) : 1;
    if (l->mass == 0) {
        if (ev[2] > 0 || ev[0] < 0)
            fail_at(p, line, SN_ERR_MODEL, "inertia",
                    "mass is zero but the inertia is not "
                    "(eigenvalues %g %g %g)",
                    ev[0], ev[1], ev[2]);
        return;
    }
    if (ev[0] < -1e-12 * scale) {
        fail_at(p, line, SN_ERR_MODEL, "inertia",
                "inertia must be positive definite (eigenvalues %g %g %g)", ev[0], ev[1], ev[2]);
        return;
    }
    // the triangle test comes first: (0, 0, C) is singular and also physically impossible
    // (ANYmal C's 'hatch'), while a rod (0, C, C) or a point (0, 0, 0) passes it
    if (ev[0] + ev[1] < ev[2] * (1 - 1e-9)) {
        // physically impossible, but shipped by real robots (ANYmal C, Romeo): an error only
        // with strict_inertia; balance_inertia replaces the inertia by the mean principal
        // moment times the identity (MuJoCo's documented balanceinertia rule)
        if (p->s->strict_inertia) {
            fail_at(p, line, SN_ERR_MODEL, "inertia",
                    "principal moments %g %g %g violate the "
                    "triangle inequality A + B >= C (strict_inertia)",
                    ev[0], ev[1], ev[2]);
            return;
        }
        if (p->s->balance_inertia) {
            sn_real mean = (ev[0] + ev[1] + ev[2]) / 3;
            memset(l->inertia, 0, sizeof l->inertia);
            for (int k = 0; k < 3; k++)
                l->inertia[4 * k] = mean;
            warn_at(p, line, "inertia",
                    "principal moments %g %g %g violate the triangle "
                    "inequality; replaced by their mean %g (balance_inertia)",
                    ev[0], ev[1], ev[2], mean);
            return;
        }
        warn_at(p, line, "inertia",
                "principal moments %g %g %g violate the triangle inequality "
                "A + B >= C; kept as given (set balance_inertia to repair, strict_inertia to "
                "refuse)",
                ev[0], ev[1], ev[2]);
    }
    if (ev[0] <= 1e-12 * scale) {
        // a point or rod mass: valid for a link merged into a body, and the compiler refuses a
        // model whose mass matrix it leaves singular
        warn_at(p, line, "inertia",
                "inertia is singular (eigenvalues %g %g %g): a point or rod "
                "mass",
                ev[0], ev[1], ev[2]);
        return;
    }
    // below 1e-12 the inertia counts as singular (above); in between it is only suspicious
    if (ev[2] / ev[0] > 1e8)
        warn_at(p, line, "inertia", "inertia is badly conditioned (eigenvalues %g .. %g)", ev[0],
                ev[2]);
}

static void start_geom(parser* p, int is_visual) {
    const char* el = is_visual ? "visual" : "collision";
    if (SNI_NGEOM(p->s) >= 4 * (long)p->max_links)
        RETURN_FAIL(p, SN_ERR_LIMIT, el, "more than %ld geometries (4 x sn_load_opts.max_links)",
                    4 * (long)p->max_links);
    sni_geom* g = sni_buf_grow(&p->s->geoms, sizeof(sni_geom));
    if (!g) RETURN_FAIL(p, SN_ERR_NOMEM, el, "out of memory");
    memset(g, 0, sizeof *g);
    g->link = p->link;
    g->line = (int)XML_GetCurrentLineNumber(p->xp);
    g->is_visual = is_visual;
    g->type = -1;
    g->mesh = g->material = -1;
    g->friction = NAN; // URDF gives none
    m3_identity(g->rot);
    p->geom = SNI_NGEOM(p->s) - 1;
}

// resolve a mesh filename (package://, file://, relative) into a path string
static long resolve_mesh(parser* p, const char* fn) {
    char path[2048];
    const char* rest = NULL;
    if (!strncmp(fn, "package://", 10)) {
        const char* slash = strchr(fn + 10, '/');
        rest = slash ? slash + 1 : "";
        if (p->package_dir) {
            snprintf(path, sizeof path, "%s/%s", p->package_dir, rest);
            return sni_spec_name(p->s, path);
        }
        // look for the file under the URDF's directory and its parents, stripping leading
        // components of the package-relative path (robot packages are often flattened); the
        // number of tries is bounded, and a path that does not fit is not tried
        const char* base = p->base_dir ? p->base_dir : ".";
        char up[16] = "";
        for (int level = 0; level < 4; level++) {
            const char* r = rest;
            for (int strip = 0; r && *r && strip < MAX_PACKAGE_STRIP; strip++) {
                struct stat st;
                int n = snprintf(path, sizeof path, "%s/%s%s", base, up, r);
                if (n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0)
                    return sni_spec_name(p->s, path);
                r = strchr(r, '/');
                if (r) r++;
            }
            strncat(up, "../", sizeof up - strlen(up) - 1);
        }
        return sni_spec_name(p->s, fn); // unresolved: kept as written
    }
    if (!strncmp(fn, "file://", 7)) fn += 7;
    if (fn[0] == '/' || !p->base_dir) return sni_spec_name(p->s, fn);
    snprintf(path, sizeof path, "%s/%s", p->base_dir, fn);
    return sni_spec_name(p->s, path);
}

static void positive(parser* p, const char* el, const char* name, sn_real v) {
    if (!(v > 0)) fail(p, SN_ERR_MODEL, el, "%s=%g must be positive", name, v);
}

static void shape(parser* p, const char* el, const char** atts) {
    sni_geom* g = cur_geom(p);
    if (g->type >= 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "<geometry> has more than one shape");
    int r;
    if (!strcmp(el, "box")) {
        g->type = SN_GEOM_BOX;
        if ((r = attr_reals(p, el, atts, "size", g->size, 3)) <= 0) {
            if (r == 0) fail(p, SN_ERR_PARSE, el, "missing attribute 'size'");
            return;
        }
        for (int k = 0; k < 3; k++)
            positive(p, el, "size", g->size[k]);
    } else if (!strcmp(el, "cylinder") || !strcmp(el, "capsule")) {
        g->type = el[1] == 'y' ? SN_GEOM_CYLINDER : SN_GEOM_CAPSULE;
        if ((r = attr_reals(p, el, atts, "radius", &g->size[0], 1)) <= 0) {
            if (r == 0) fail(p, SN_ERR_PARSE, el, "missing attribute 'radius'");
            return;
        }
        if ((r = attr_reals(p, el, atts, "length", &g->size[1], 1)) <= 0) {
            if (r == 0) fail(p, SN_ERR_PARSE, el, "missing attribute 'length'");
            return;
        }
        positive(p, el, "radius", g->size[0]);
        positive(p, el, "length", g->size[1]);
    } else if (!strcmp(el, "sphere")) {
        g->type = SN_GEOM_SPHERE;
        if ((r = attr_reals(p, el, atts, "radius", &g->size[0], 1)) <= 0) {
            if (r == 0) fail(p, SN_ERR_PARSE, el, "missing attribute 'radius'");
            return;
        }
        positive(p, el, "radius", g->size[0]);
    } else if (!strcmp(el, "mesh")) {
        g->type = SN_GEOM_MESH;
        const char* fn = need_name(p, el, atts, "filename");
        if (!fn) return;
        v3_set(g->size, 1, 1, 1);
        if (attr_reals(p, el, atts, "scale", g->size, 3) < 0) return;
        for (int k = 0; k < 3; k++)
            positive(p, el, "scale", g->size[k]);
        long off = resolve_mesh(p, fn);
        cur_geom(p)->mesh = off;
    } else {
        warn(p, el, "unknown shape <%s> ignored", el);
    }
}

// <material name> with optional <color rgba>; at top level it defines, inside <visual> it
// refers to or defines
static void start_material(parser* p, const char** atts, int in_visual) {
    const char* name = attr(atts, "name");
    if (!in_visual && (!name || !name[0]))
        RETURN_FAIL(p, SN_ERR_PARSE, "material", "missing or empty attribute 'name'");
    p->material = -1;
    long off = name && name[0] ? sni_spec_name(p->s, name) : -1;
    if (in_visual) cur_geom(p)->material = off;
    // names are checked for uniqueness by the compiler (top-level definitions must be unique)
    if (off < 0) return;
    if (SNI_NMAT(p->s) >= p->max_links)
        RETURN_FAIL(p, SN_ERR_LIMIT, "material", "more than %d materials (sn_load_opts.max_links)",
                    p->max_links);
    sni_material* m = sni_buf_grow(&p->s->materials, sizeof(sni_material));
    if (!m) RETURN_FAIL(p, SN_ERR_NOMEM, "material", "out of memory");
    m->name = off;
    m->line =
        in_visual ? -(int)XML_GetCurrentLineNumber(p->xp) : (int)XML_GetCurrentLineNumber(p->xp);
    m->rgba[0] = m->rgba[1] = m->rgba[2] = 0.8;
    m->rgba[3] = 1;
    p->material = SNI_NMAT(p->s) - 1;
}

static void material_child(parser* p, const char* el, const char** atts) {
    if (!strcmp(el, "color")) {
        sn_real c[4];
        int r = attr_reals(p, el, atts, "rgba", c, 4);
        if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'rgba'");
        if (r < 0) return;
        for (int k = 0; k < 4; k++)
            if (c[k] < 0 || c[k] > 1)
                RETURN_FAIL(p, SN_ERR_MODEL, el, "rgba components must lie in [0, 1]");
        if (p->material >= 0)
            memcpy(((sni_material*)p->s->materials.data)[p->material].rgba, c, sizeof c);
    } else if (!strcmp(el, "texture")) {
        // accepted and not used
    } else {
        warn(p, el, "unknown element <%s> in <material> ignored", el);
    }
}

// ---- <constraints> (seed 001) ----

static void start_constraints(parser* p, const char** atts) {
    if (p->s->constraints_line)
        RETURN_FAIL(p, SN_ERR_MODEL, "constraints",
                    "second <constraints> element (the first is at "
                    "line %d)",
                    p->s->constraints_line);
    p->s->constraints_line = (int)XML_GetCurrentLineNumber(p->xp);
    const char* nc = attr(atts, "nominal_config");
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
                fail(p, SN_ERR_PARSE, "constraints",
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

static void start_loop(parser* p, const char* el, const char** atts) {
    if (SNI_NCON(p->s) >= p->max_links)
        RETURN_FAIL(p, SN_ERR_LIMIT, el, "more than %d loop constraints (sn_load_opts.max_links)",
                    p->max_links);
    const char* b1 = need_name(p, el, atts, "body1");
    if (!b1) return;
    const char* b2 = need_name(p, el, atts, "body2");
    if (!b2) return;
    if (!strcmp(b1, b2))
        RETURN_FAIL(p, SN_ERR_MODEL, el, "body1 and body2 are the same link '%.80s'", b1);
    sn_real anchor[3] = {0, 0, 0};
    int r = attr_reals(p, el, atts, "anchor", anchor, 3);
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

static void equality_axis(parser* p, const char** atts) {
    sni_constraint* c = (sni_constraint*)p->s->constraints.data + p->constraint;
    if (c->naxis >= 2)
        RETURN_FAIL(p, SN_ERR_MODEL, "axis",
                    "three axes are not accepted in an <equality>; use "
                    "<pin>");
    sn_real a[3];
    int r = attr_reals(p, "axis", atts, "xyz", a, 3);
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
        given[k] = attr_reals(p, el, atts, actuator_keys[k], dst[k], 1);
        if (given[k] < 0) return 0;
        if (given[k] && !reals_nonneg(p, el, actuator_keys[k], *dst[k])) return 0;
    }
    if (given[A_GEAR] && !(a->gear > 0)) {
        fail(p, SN_ERR_MODEL, el, "attribute gear_ratio=%g must be positive", a->gear);
        return 0;
    }
    if (given[A_PEAK] && !(a->peak_torque > 0)) {
        fail(p, SN_ERR_MODEL, el,
             "attribute peak_torque=%g must be positive (leave it out for no peak torque)",
             a->peak_torque);
        return 0;
    }
    if (a->kt > 0) {
        for (int k = A_VBUS; k <= A_KV; k++)
            if (!given[k]) {
                fail(p, SN_ERR_PARSE, el,
                     "missing attribute '%s': kt > 0 needs vbus, resistance and kv",
                     actuator_keys[k]);
                return 0;
            }
        for (int k = A_R; k <= A_KV; k++)
            if (!(*dst[k] > 0)) {
                fail(p, SN_ERR_MODEL, el, "attribute %s=%g must be positive when kt > 0",
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
        warn(p, el, "%s ignored: without kt > 0 the motor operating region is off", unused);
    return 1;
}

static void start_actuator(parser* p, const char** atts) {
    const char* el = "actuator";
    p->actuator = -1;
    const char* name = need_name(p, el, atts, "name");
    if (!name) return;
    snprintf(p->owner, sizeof p->owner, "actuator '%.120s'", name);
    const char* joint = need_name(p, el, atts, "joint");
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
static void actuator_coupling(parser* p, const char** atts) {
    const char* el = "coupling";
    sni_actuator* a = (sni_actuator*)p->s->actuators.data + p->actuator;
    if (a->ncoupling >= SN_ACTUATOR_MAX_COUPLINGS)
        RETURN_FAIL(p, SN_ERR_MODEL, el, "more than %d <coupling> elements in one actuator",
                    SN_ACTUATOR_MAX_COUPLINGS);
    const char* joint = need_name(p, el, atts, "joint");
    if (!joint) return;
    sn_real ratio = 0;
    int r = attr_reals(p, el, atts, "ratio", &ratio, 1);
    if (r < 0) return;
    if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'ratio'");
    long off = sni_spec_name(p->s, joint);
    a = (sni_actuator*)p->s->actuators.data + p->actuator;
    a->coupling_name[a->ncoupling] = off;
    a->coupling_line[a->ncoupling] = (int)XML_GetCurrentLineNumber(p->xp);
    a->coupling_ratio[a->ncoupling] = ratio;
    a->ncoupling++;
}

// ---- expat callbacks ----

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
            start_link(p, atts), c = C_LINK;
        else if (!strcmp(el, "joint"))
            start_joint(p, atts), c = C_JOINT;
        else if (!strcmp(el, "material"))
            start_material(p, atts, 0), c = C_MATERIAL;
        else if (!strcmp(el, "constraints"))
            start_constraints(p, atts), c = C_CONSTRAINTS;
        else if (!strcmp(el, "actuator"))
            start_actuator(p, atts), c = C_ACTUATOR;
        else if (!strcmp(el, "gazebo") || !strcmp(el, "transmission") ||
                 !strcmp(el, "ros2_control") || !strcmp(el, "sensor"))
            c = C_SKIP;
        else
            warn(p, el, "unknown element <%s> in <robot> ignored", el), c = C_SKIP;
        break;
    case C_LINK:
        if (!strcmp(el, "inertial"))
            start_inertial(p), c = C_INERTIAL;
        else if (!strcmp(el, "visual"))
            start_geom(p, 1), c = C_VISUAL;
        else if (!strcmp(el, "collision"))
            start_geom(p, 0), c = C_COLLISION;
        else
            warn(p, el, "unknown element <%s> in <link> ignored", el), c = C_SKIP;
        break;
    case C_INERTIAL:
        inertial_child(p, el, atts);
        break;
    case C_VISUAL:
    case C_COLLISION:
        if (!strcmp(el, "origin"))
            parse_origin(p, atts, cur_geom(p)->pos, cur_geom(p)->rot);
        else if (!strcmp(el, "geometry"))
            c = C_GEOMETRY;
        else if (!strcmp(el, "material") && parent == C_VISUAL)
            start_material(p, atts, 1), c = C_GMATERIAL;
        else if (!strcmp(el, "material"))
            c = C_SKIP;
        else if (!strcmp(el, "verbose"))
            c = C_SKIP;
        else
            warn(p, el, "unknown element <%s> in <%s> ignored", el,
                 parent == C_VISUAL ? "visual" : "collision"),
                c = C_SKIP;
        break;
    case C_GEOMETRY:
        shape(p, el, atts);
        break;
    case C_GMATERIAL:
    case C_MATERIAL:
        material_child(p, el, atts);
        break;
    case C_JOINT:
        joint_child(p, el, atts);
        break;
    case C_CONSTRAINTS:
        if (!strcmp(el, "pin"))
            start_loop(p, el, atts), c = C_PIN;
        else if (!strcmp(el, "equality"))
            start_loop(p, el, atts), c = C_EQUALITY;
        else
            warn(p, el, "unknown element <%s> in <constraints> ignored", el), c = C_SKIP;
        break;
    case C_PIN:
        if (!strcmp(el, "axis")) RETURN_FAIL(p, SN_ERR_MODEL, el, "a <pin> takes no <axis>");
        warn(p, el, "unknown element <%s> in <pin> ignored", el), c = C_SKIP;
        break;
    case C_EQUALITY:
        if (!strcmp(el, "axis"))
            equality_axis(p, atts);
        else
            warn(p, el, "unknown element <%s> in <equality> ignored", el), c = C_SKIP;
        break;
    case C_ACTUATOR:
        if (!strcmp(el, "coupling"))
            actuator_coupling(p, atts);
        else
            warn(p, el, "unknown element <%s> in <actuator> ignored", el), c = C_SKIP;
        break;
    case C_LEAF:
        warn(p, el, "unexpected element <%s> ignored", el);
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
    if (c == C_INERTIAL) end_inertial(p);
    if (c == C_EQUALITY) {
        sni_constraint* k = (sni_constraint*)p->s->constraints.data + p->constraint;
        if (k->naxis == 0)
            fail_at(p, k->line, SN_ERR_MODEL, "equality",
                    "an <equality> needs one or two <axis> "
                    "elements");
    }
    if (c == C_VISUAL || c == C_COLLISION) {
        if (cur_geom(p)->type < 0)
            fail_at(p, cur_geom(p)->line, SN_ERR_PARSE, c == C_VISUAL ? "visual" : "collision",
                    "no <geometry> shape given");
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
        fail(p, SN_ERR_PARSE, "!DOCTYPE",
             "a DOCTYPE with entity declarations or an external "
             "DTD is not accepted");
}

static void on_entity(void* ud, const XML_Char* name, int is_param, const XML_Char* value, int len,
                      const XML_Char* base, const XML_Char* sysid, const XML_Char* pubid,
                      const XML_Char* notation) {
    parser* p = ud;
    (void)is_param, (void)value, (void)len, (void)base, (void)sysid, (void)pubid, (void)notation;
    fail(p, SN_ERR_PARSE, "!ENTITY", "entity declarations are not accepted ('%.60s')", name);
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
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, path, 0, "", "out is NULL");
    *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, "", 0, "", "path is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    struct stat st;
    if (stat(path, &st) != 0) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot open the file");
    if (!S_ISREG(st.st_mode)) return sni_error(err, SN_ERR_IO, path, 0, "", "not a regular file");
    if ((size_t)st.st_size > max)
        return sni_error(err, SN_ERR_LIMIT, path, 0, "",
                         "file of %lld bytes exceeds the limit of "
                         "%zu (sn_load_opts.max_file_bytes)",
                         (long long)st.st_size, max);
    FILE* f = fopen(path, "rb");
    if (!f) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot open the file");
    size_t n = (size_t)st.st_size;
    const sn_allocator* a = opts ? opts->allocator : NULL;
    char* buf = sni_alloc(a, n + 1);
    if (!buf) {
        fclose(f);
        return sni_error(err, SN_ERR_NOMEM, path, 0, "", "out of memory reading %zu bytes", n);
    }
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    if (got != n) {
        sni_free(a, buf, n + 1);
        return sni_error(err, SN_ERR_IO, path, 0, "", "read %zu of %zu bytes", got, n);
    }
    char dir[1024];
    sni_dir_of(path, dir, sizeof dir);
    sn_status s = sn_load_urdf_string(buf, n, path, dir, opts, out, err);
    sni_free(a, buf, n + 1);
    return s;
}
