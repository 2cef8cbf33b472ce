// SPDX-License-Identifier: Apache-2.0
// elements.c: the URDF elements into the spec: <link> with its <inertial> (checked and turned
// into the link frame when it closes), <visual> and <collision> geometry (box, cylinder, sphere,
// mesh with package://, file:// and relative paths), <material>, and <joint> with its origin,
// axis, limits, dynamics, mimic and safety controller.
#include "math/sym3.h"
#include "urdf/urdf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

// ---- links and inertials ----

// <origin xyz rpy> into pos and rot
void sni_urdf_parse_origin(parser* p, const char** atts, sn_real* pos, sn_real* rot) {
    sn_real rpy[3] = {0, 0, 0};
    v3_set(pos, 0, 0, 0);
    if (sni_urdf_attr_reals(p, "origin", atts, "xyz", pos, 3) < 0) return;
    if (sni_urdf_attr_reals(p, "origin", atts, "rpy", rpy, 3) < 0) return;
    rpy_to_m3(rot, rpy[0], rpy[1], rpy[2]);
}

void sni_urdf_start_link(parser* p, const char** atts) {
    const char* name = sni_urdf_need_name(p, "link", atts, "name");
    if (!name) return;
    if (SNI_NLINK(p->s) >= p->max_links) {
        sni_urdf_fail(p, SN_ERR_LIMIT, "link", "more than %d links (sn_load_opts.max_links)",
                      p->max_links);
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

void sni_urdf_start_joint(parser* p, const char** atts) {
    const char* name = sni_urdf_need_name(p, "joint", atts, "name");
    if (!name) return;
    snprintf(p->owner, sizeof p->owner, "joint '%.120s'", name);
    const char* type = sni_urdf_attr(atts, "type");
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
        sni_urdf_fail(p, SN_ERR_LIMIT, "joint", "more than %d joints (sn_load_opts.max_links)",
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

void sni_urdf_joint_child(parser* p, const char* el, const char** atts) {
    sni_joint* j = cur_joint(p);
    if (!strcmp(el, "origin")) {
        sni_urdf_parse_origin(p, atts, j->pos, j->rot);
    } else if (!strcmp(el, "parent") || !strcmp(el, "child")) {
        const char* link = sni_urdf_need_name(p, el, atts, "link");
        if (!link) return;
        long off = sni_spec_name(p->s, link);
        j = cur_joint(p);
        if (el[0] == 'p')
            j->parent_name = off;
        else
            j->child_name = off;
    } else if (!strcmp(el, "axis")) {
        sn_real a[3];
        int r = sni_urdf_attr_reals(p, el, atts, "xyz", a, 3);
        if (r < 0) return;
        if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute 'xyz'");
        sn_real n = v3_norm(a);
        if (!(n > 1e-12) && j->type == SN_JOINT_FIXED) {
            sni_urdf_warn(p, el, "axis of a fixed joint is zero; ignored");
            return;
        }
        if (!(n > 1e-12))
            RETURN_FAIL(p, SN_ERR_MODEL, el, "axis xyz=\"%g %g %g\" is zero", a[0], a[1], a[2]);
        if (fabs(n - 1) > 1e-6) sni_urdf_warn(p, el, "axis of length %.9g normalized", n);
        v3_scale(j->axis, a, 1 / n);
    } else if (!strcmp(el, "limit")) {
        sn_real v;
        j->has_limit = 1;
        int r;
        if ((r = sni_urdf_attr_reals(p, el, atts, "lower", &v, 1)) < 0) return;
        if (r) j->lower = v, j->has_lower = 1;
        if ((r = sni_urdf_attr_reals(p, el, atts, "upper", &v, 1)) < 0) return;
        if (r) j->upper = v, j->has_upper = 1;
        if ((r = sni_urdf_attr_reals(p, el, atts, "effort", &v, 1)) < 0) return;
        if (r && !sni_urdf_reals_nonneg(p, el, "effort", v)) return;
        if (r) j->effort = v;
        if ((r = sni_urdf_attr_reals(p, el, atts, "velocity", &v, 1)) < 0) return;
        if (r && !sni_urdf_reals_nonneg(p, el, "velocity", v)) return;
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
            int r = sni_urdf_attr_reals(p, el, atts, keys[k], &v, 1);
            if (r < 0) return;
            if (r && k != 3 && !sni_urdf_reals_nonneg(p, el, keys[k], v)) return;
            if (r) *dst[k] = v;
        }
    } else if (!strcmp(el, "mimic")) {
        const char* leader = sni_urdf_need_name(p, el, atts, "joint");
        if (!leader) return;
        long off = sni_spec_name(p->s, leader);
        j = cur_joint(p);
        j->mimic_name = off;
        j->mimic_line = (int)XML_GetCurrentLineNumber(p->xp);
        if (sni_urdf_attr_reals(p, el, atts, "multiplier", &j->mimic_multiplier, 1) < 0) return;
        if (sni_urdf_attr_reals(p, el, atts, "offset", &j->mimic_offset, 1) < 0) return;
    } else if (!strcmp(el, "safety_controller")) {
        static const char* keys[] = {"soft_lower_limit", "soft_upper_limit", "k_position",
                                     "k_velocity"};
        for (int k = 0; k < 4; k++) {
            sn_real v;
            if (sni_urdf_attr_reals(p, el, atts, keys[k], &v, 1) < 0) return;
        }
    } else if (!strcmp(el, "calibration")) {
        sn_real v;
        if (sni_urdf_attr_reals(p, el, atts, "rising", &v, 1) < 0) return;
        if (sni_urdf_attr_reals(p, el, atts, "falling", &v, 1) < 0) return;
    } else {
        sni_urdf_warn(p, el, "unknown element <%s> in <joint> ignored", el);
    }
}

void sni_urdf_start_inertial(parser* p) {
    sni_link* l = cur_link(p);
    if (l->has_inertial) RETURN_FAIL(p, SN_ERR_PARSE, "inertial", "second <inertial> in a link");
    l->has_inertial = 1;
    l->inertial_line = (int)XML_GetCurrentLineNumber(p->xp);
    p->has_mass = p->has_inertia = 0;
    m3_identity(p->inertial_rot);
    memset(p->inertia_raw, 0, sizeof p->inertia_raw);
}

void sni_urdf_inertial_child(parser* p, const char* el, const char** atts) {
    sni_link* l = cur_link(p);
    if (!strcmp(el, "origin")) {
        sni_urdf_parse_origin(p, atts, l->com, p->inertial_rot);
    } else if (!strcmp(el, "mass")) {
        p->mass_line = (int)XML_GetCurrentLineNumber(p->xp);
        int r = sni_urdf_attr_reals(p, el, atts, "value", &l->mass, 1);
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
            int r = sni_urdf_attr_reals(p, el, atts, keys[k], &v, 1);
            if (r < 0) return;
            if (r == 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "missing attribute '%s'", keys[k]);
            int i = at[k][1];
            p->inertia_raw[i] = v;
            p->inertia_raw[(i % 3) * 3 + i / 3] = v;
        }
        p->has_inertia = 1;
    } else {
        sni_urdf_warn(p, el, "unknown element <%s> in <inertial> ignored", el);
    }
}

// validate the inertia of the link just closed; rotate it into the link frame. Messages point
// at the <inertia> element (at <inertial> when it is missing).
void sni_urdf_end_inertial(parser* p) {
    sni_link* l = cur_link(p);
    if (!p->has_mass) {
        sni_urdf_fail_at(p, l->inertial_line, SN_ERR_PARSE, "inertial",
                         "<inertial> without <mass>");
        return;
    }
    if (!p->has_inertia) {
        if (l->mass > 0)
            sni_urdf_fail_at(p, l->inertial_line, SN_ERR_PARSE, "inertial",
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
            sni_urdf_fail_at(p, line, SN_ERR_MODEL, "inertia",
                             "mass is zero but the inertia is not "
                             "(eigenvalues %g %g %g)",
                             ev[0], ev[1], ev[2]);
        return;
    }
    if (ev[0] < -1e-12 * scale) {
        sni_urdf_fail_at(p, line, SN_ERR_MODEL, "inertia",
                         "inertia must be positive definite (eigenvalues %g %g %g)", ev[0], ev[1],
                         ev[2]);
        return;
    }
    // the triangle test comes first: (0, 0, C) is singular and also physically impossible
    // (ANYmal C's 'hatch'), while a rod (0, C, C) or a point (0, 0, 0) passes it
    if (ev[0] + ev[1] < ev[2] * (1 - 1e-9)) {
        // physically impossible, but shipped by real robots (ANYmal C, Romeo): an error only
        // with strict_inertia; balance_inertia replaces the inertia by the mean principal
        // moment times the identity (MuJoCo's documented balanceinertia rule)
        if (p->s->strict_inertia) {
            sni_urdf_fail_at(p, line, SN_ERR_MODEL, "inertia",
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
            sni_urdf_warn_at(p, line, "inertia",
                             "principal moments %g %g %g violate the triangle "
                             "inequality; replaced by their mean %g (balance_inertia)",
                             ev[0], ev[1], ev[2], mean);
            return;
        }
        sni_urdf_warn_at(
            p, line, "inertia",
            "principal moments %g %g %g violate the triangle inequality "
            "A + B >= C; kept as given (set balance_inertia to repair, strict_inertia to "
            "refuse)",
            ev[0], ev[1], ev[2]);
    }
    if (ev[0] <= 1e-12 * scale) {
        // a point or rod mass: valid for a link merged into a body, and the compiler refuses a
        // model whose mass matrix it leaves singular
        sni_urdf_warn_at(p, line, "inertia",
                         "inertia is singular (eigenvalues %g %g %g): a point or rod "
                         "mass",
                         ev[0], ev[1], ev[2]);
        return;
    }
    // below 1e-12 the inertia counts as singular (above); in between it is only suspicious
    if (ev[2] / ev[0] > 1e8)
        sni_urdf_warn_at(p, line, "inertia", "inertia is badly conditioned (eigenvalues %g .. %g)",
                         ev[0], ev[2]);
}

// ---- geometry and materials ----

void sni_urdf_start_geom(parser* p, int is_visual) {
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
    if (!(v > 0)) sni_urdf_fail(p, SN_ERR_MODEL, el, "%s=%g must be positive", name, v);
}

void sni_urdf_shape(parser* p, const char* el, const char** atts) {
    sni_geom* g = cur_geom(p);
    if (g->type >= 0) RETURN_FAIL(p, SN_ERR_PARSE, el, "<geometry> has more than one shape");
    int r;
    if (!strcmp(el, "box")) {
        g->type = SN_GEOM_BOX;
        if ((r = sni_urdf_attr_reals(p, el, atts, "size", g->size, 3)) <= 0) {
            if (r == 0) sni_urdf_fail(p, SN_ERR_PARSE, el, "missing attribute 'size'");
            return;
        }
        for (int k = 0; k < 3; k++)
            positive(p, el, "size", g->size[k]);
    } else if (!strcmp(el, "cylinder") || !strcmp(el, "capsule")) {
        g->type = el[1] == 'y' ? SN_GEOM_CYLINDER : SN_GEOM_CAPSULE;
        if ((r = sni_urdf_attr_reals(p, el, atts, "radius", &g->size[0], 1)) <= 0) {
            if (r == 0) sni_urdf_fail(p, SN_ERR_PARSE, el, "missing attribute 'radius'");
            return;
        }
        if ((r = sni_urdf_attr_reals(p, el, atts, "length", &g->size[1], 1)) <= 0) {
            if (r == 0) sni_urdf_fail(p, SN_ERR_PARSE, el, "missing attribute 'length'");
            return;
        }
        positive(p, el, "radius", g->size[0]);
        positive(p, el, "length", g->size[1]);
    } else if (!strcmp(el, "sphere")) {
        g->type = SN_GEOM_SPHERE;
        if ((r = sni_urdf_attr_reals(p, el, atts, "radius", &g->size[0], 1)) <= 0) {
            if (r == 0) sni_urdf_fail(p, SN_ERR_PARSE, el, "missing attribute 'radius'");
            return;
        }
        positive(p, el, "radius", g->size[0]);
    } else if (!strcmp(el, "mesh")) {
        g->type = SN_GEOM_MESH;
        const char* fn = sni_urdf_need_name(p, el, atts, "filename");
        if (!fn) return;
        v3_set(g->size, 1, 1, 1);
        if (sni_urdf_attr_reals(p, el, atts, "scale", g->size, 3) < 0) return;
        for (int k = 0; k < 3; k++)
            positive(p, el, "scale", g->size[k]);
        long off = resolve_mesh(p, fn);
        cur_geom(p)->mesh = off;
    } else {
        sni_urdf_warn(p, el, "unknown shape <%s> ignored", el);
    }
}

// <material name> with optional <color rgba>; at top level it defines, inside <visual> it
// refers to or defines
void sni_urdf_start_material(parser* p, const char** atts, int in_visual) {
    const char* name = sni_urdf_attr(atts, "name");
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

void sni_urdf_material_child(parser* p, const char* el, const char** atts) {
    if (!strcmp(el, "color")) {
        sn_real c[4];
        int r = sni_urdf_attr_reals(p, el, atts, "rgba", c, 4);
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
        sni_urdf_warn(p, el, "unknown element <%s> in <material> ignored", el);
    }
}
