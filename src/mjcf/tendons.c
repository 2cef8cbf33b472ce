// SPDX-License-Identifier: Apache-2.0
// tendons.c: MJCF <tendon> (docs/constraints.md "Tendons"): fixed tendons (joints and their
// coefficients) and spatial tendons (sites, pulleys and wrapping geoms, their structure checked as
// MuJoCo 2.2.2 checks it) into the spec, with their limits, springs and dampers; and the rule of
// when a range acts (a tendon's range, an actuator's ctrlrange and forcerange), shared with
// sections.c's <actuator>.
#include "mjcf/mjcf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// whether a range (a tendon's range, an actuator's ctrlrange or forcerange; kr numbers read)
// acts, as MuJoCo 2.2.2 has it: its *limited attribute says so; absent or "auto", a nonzero range
// acts under <compiler autolimits="true"> and is refused without (MuJoCo refuses it); an acting
// range must have lower < upper. 1: acts, 0: does not, -1: refused (r->st). who names the element
int sni_mjcf_range_limited(loader* L, int k, int cls, const char* who, const char* attr,
                           const char* lattr, int kr, sn_real* range) {
    reader* r = L->r;
    const char* e = ename(r, k);
    if (kr <= 0) range[0] = range[1] = 0;
    const char* v = sni_mjcf_attr_of(L, k, cls, lattr);
    int lim;
    if (v && !strcmp(v, "true")) {
        lim = 1;
    } else if (v && !strcmp(v, "false")) {
        lim = 0;
    } else if (v && strcmp(v, "auto")) {
        sni_mjcf_fail(r, k, SN_ERR_PARSE, e, "%s: %s=\"%s\" (true, false or auto)", who, lattr, v);
        return -1;
    } else if (range[0] == 0 && range[1] == 0) {
        lim = 0; // MuJoCo's "no range given"
    } else if (r->autolimits) {
        lim = 1;
    } else {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                      "%s: %s without %s (MuJoCo 2.2.2 refuses it): give %s=\"true\" or "
                      "\"false\", or <compiler autolimits=\"true\">",
                      who, attr, lattr, lattr);
        return -1;
    }
    if (lim && !(range[0] < range[1])) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "%s: %s [%g, %g] is empty", who, attr, range[0],
                      range[1]);
        return -1;
    }
    return lim;
}

// one entry of a tendon's path (a child of <fixed> or <spatial>) into the spec; 1 when read or
// skipped, 0 on a failure (r->st)
static int tendon_entry(loader* L, int k, int spatial, const char* tn, sni_tendon* t) {
    reader* r = L->r;
    const char* e = ename(r, k);
    sni_tendon_elem x;
    memset(&x, 0, sizeof x);
    x.line = NODE(r, k).line;
    x.link = -1;
    if (!spatial && !strcmp(e, "joint")) {
        const char* jn = get(r, k, "joint");
        int j = jn ? sni_mjcf_joint_find(r->s, jn) : -1;
        if (j < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "in tendon '%s': joint '%s' does not exist", tn,
                          jn ? jn : "(none given)");
            return 0;
        }
        int ty = ((const sni_joint*)r->s->joints.data)[j].type;
        if (ty == SN_JOINT_SPHERICAL || ty == SN_JOINT_FLOATING) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                          "in tendon '%s': joint '%s' is a ball or free joint (a fixed tendon "
                          "takes hinge and slide joints)",
                          tn, jn);
            return 0;
        }
        x.kind = SN_TENDON_PATH_JOINT;
        x.joint = sni_spec_name(r->s, jn);
        x.coef = 1;
        if (sni_mjcf_reals(L, k, -1, "coef", &x.coef, 1) < 0) return 0;
    } else if (spatial && !strcmp(e, "site")) {
        const char* sn = get(r, k, "site");
        const site_rec* sr = sn ? sni_mjcf_site_find(L, sn) : NULL;
        if (!sr) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "in tendon '%s': site '%s' does not exist", tn,
                          sn ? sn : "(none given)");
            return 0;
        }
        x.kind = SN_TENDON_PATH_SITE;
        x.link = sr->link;
        memcpy(x.pos, sr->pos, sizeof x.pos);
    } else if (spatial && !strcmp(e, "pulley")) {
        x.kind = SN_TENDON_PATH_PULLEY;
        x.coef = 1;
        if (!get(r, k, "divisor")) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                          "in tendon '%s': divisor is required (MuJoCo 2.2.2 requires it)", tn);
            return 0;
        }
        if (sni_mjcf_reals(L, k, -1, "divisor", &x.coef, 1) < 0) return 0;
        if (!(x.coef > 0)) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "in tendon '%s': divisor must be positive", tn);
            return 0;
        }
    } else if (spatial && !strcmp(e, "geom")) {
        // a wrap: a sphere or cylinder the path goes around, on the side of its sidesite
        const char* gn = get(r, k, "geom");
        const sni_geom* g = (const sni_geom*)r->s->geoms.data;
        int gi = -1;
        for (int i = 0; gn && i < SNI_NGEOM(r->s) && gi < 0; i++)
            if (g[i].name >= 0 && !strcmp(SNI_NAME(r->s, g[i].name), gn)) gi = i;
        if (gi < 0 || (g[gi].type != SN_GEOM_SPHERE && g[gi].type != SN_GEOM_CYLINDER)) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "in tendon '%s': geom '%s' %s", tn,
                          gn ? gn : "(none given)",
                          gi < 0 ? "does not exist (or is not loaded)"
                                 : "is not a sphere or cylinder (the shapes a tendon wraps)");
            return 0;
        }
        x.kind = SN_TENDON_PATH_GEOM;
        x.geom = gi;
        const char* ss = get(r, k, "sidesite");
        if (ss) {
            const site_rec* sr = sni_mjcf_site_find(L, ss);
            if (!sr) {
                sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "in tendon '%s': sidesite '%s' does not exist",
                              tn, ss);
                return 0;
            }
            x.link = sr->link;
            x.coef = 1;
            memcpy(x.pos, sr->pos, sizeof x.pos);
        }
    } else {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "<%s> inside a <%s> tendon is not supported", e,
                      spatial ? "spatial" : "fixed");
        return 0;
    }
    if (sni_buf_push(&r->s->tendon_elems, &x, sizeof x) < 0) {
        sni_mjcf_fail(r, k, SN_ERR_NOMEM, e, "out of memory");
        return 0;
    }
    t->nelem++;
    return 1;
}

// a spatial path as MuJoCo 2.2.2 takes it, each rule broken refused at its entry (positions from
// 0, as MuJoCo counts them): two objects at least; a geom between two sites; no pulley at the end
// or after a pulley; a site with a neighbour that is not a pulley. 1 when it holds
static int spatial_path_ok(loader* L, int k, const char* tn) {
    reader* r = L->r;
    int n = 0;
    for (int c = NODE(r, k).first; c >= 0; c = NODE(r, c).next)
        n++;
    if (n < 2) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, ename(r, k),
                      "tendon '%s': a spatial path needs two objects at least (it has %d)", tn, n);
        return 0;
    }
    int prev = -1, pos = 0;
    for (int c = NODE(r, k).first; c >= 0; prev = c, c = NODE(r, c).next, pos++) {
        int next = NODE(r, c).next;
        const char* e = ename(r, c);
        const char* pe = prev >= 0 ? ename(r, prev) : "";
        const char* ne = next >= 0 ? ename(r, next) : "";
        const char* why = NULL;
        if (!strcmp(e, "geom") && (strcmp(pe, "site") || strcmp(ne, "site")))
            why = "a wrapping geom must have a site on each side";
        else if (!strcmp(e, "pulley") && !strcmp(pe, "pulley"))
            why = "two pulleys in a row";
        else if (!strcmp(e, "pulley") && next < 0)
            why = "the path ends with a pulley";
        else if (!strcmp(e, "site") && (prev < 0 || !strcmp(pe, "pulley")) &&
                 (next < 0 || !strcmp(ne, "pulley")))
            why = "a site needs a neighbour that is not a pulley (a segment has two ends)";
        if (why) {
            sni_mjcf_fail(r, c, SN_ERR_MODEL, e, "in tendon '%s': <%s> at position %d: %s", tn, e,
                          pos, why);
            return 0;
        }
    }
    return 1;
}

static const char* const tendon_read[] = {
    "name",    "class",        "limited",     "range",          "stiffness",
    "damping", "springlength", "rgba",        "width",          "material",
    "group",   "solreflimit",  "solimplimit", "solreffriction", "solimpfriction",
    "margin",  "frictionloss", "armature",    "user",           NULL};

// <tendon>: fixed tendons (joints and coefficients) and spatial tendons (sites, pulleys, and
// spheres and cylinders they wrap, read in tendon_entry and simulated by src/tendon/) with their
// range, stiffness, damping and springlength; a path MuJoCo 2.2.2 refuses is refused.
// frictionloss, margin and armature are not simulated: each one given is named in a warning
void sni_mjcf_tendons(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        int spatial = !strcmp(e, "spatial");
        if (!spatial && strcmp(e, "fixed")) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "<%s> inside <tendon> is not supported", e);
            return;
        }
        int cls = sni_mjcf_class_of(L, k, L->main_class);
        sni_mjcf_list_unread(L, k, cls, tendon_read);
        const char* nm = get(r, k, "name");
        sni_tendon t;
        memset(&t, 0, sizeof t);
        t.name = sni_spec_name(r->s, nm ? nm : "");
        t.line = NODE(r, k).line;
        t.type = spatial ? SN_TENDON_SPATIAL : SN_TENDON_FIXED;
        t.springlength = NAN;
        t.elem0 = SNI_NTENDON_ELEM(r->s);
        int kr = sni_mjcf_reals(L, k, cls, "range", t.range, 2);
        if (kr < 0 || sni_mjcf_reals(L, k, cls, "stiffness", &t.stiffness, 1) < 0 ||
            sni_mjcf_reals(L, k, cls, "damping", &t.damping, 1) < 0)
            return;
        sn_real sl = -1;
        if (sni_mjcf_reals(L, k, cls, "springlength", &sl, 1) < 0) return;
        if (sl >= 0) t.springlength = sl;
        char who[160];
        snprintf(who, sizeof who, "tendon '%.120s'", nm ? nm : "(unnamed)");
        t.limited = sni_mjcf_range_limited(L, k, cls, who, "range", "limited", kr, t.range);
        if (t.limited < 0) return;
        if (t.stiffness < 0 || t.damping < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "tendon '%s': stiffness and damping must be >= 0",
                          nm ? nm : "(unnamed)");
            return;
        }
        static const char* const unsim[] = {"frictionloss", "margin", "armature"};
        for (int i = 0; i < 3; i++) {
            const char* v = sni_mjcf_attr_of(L, k, cls, unsim[i]);
            if (v && strtod(v, NULL) != 0)
                sni_mjcf_warn(r, k, e,
                              "tendon '%s': %s=\"%s\" is not simulated (sinew's tendons "
                              "have none)",
                              nm ? nm : "(unnamed)", unsim[i], v);
        }
        for (int c = NODE(r, k).first; c >= 0 && r->st == SN_OK; c = NODE(r, c).next)
            if (!tendon_entry(L, c, spatial, nm ? nm : "(unnamed)", &t)) return;
        if (spatial && t.nelem > 0 && !spatial_path_ok(L, k, nm ? nm : "(unnamed)")) return;
        if (t.nelem == 0 || (!spatial && t.nelem < 1)) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "tendon '%s' has an empty path",
                          nm ? nm : "(unnamed)");
            return;
        }
        if (sni_buf_push(&r->s->tendons, &t, sizeof t) < 0) {
            sni_mjcf_fail(r, k, SN_ERR_NOMEM, e, "out of memory");
            return;
        }
    }
}
