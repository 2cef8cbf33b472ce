// SPDX-License-Identifier: Apache-2.0
// classes.c: attributes of MJCF elements. An attribute is the element's own, or else the one its
// default class chain gives elements of its kind (the element's class, the enclosing childclass,
// "main"); numbers are parsed locale-free; orientations (quat, axisangle, euler with <compiler
// eulerseq>, xyaxes, zaxis) become rotation matrices. Attributes sinew does not read are collected
// for the one "not read" warning.
#include "mjcf/mjcf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---- default classes and attributes ----

int sni_mjcf_class_find(loader* L, const char* name) {
    for (int i = 0; i < L->nclass; i++)
        if (!strcmp(STR(L->r, L->classes[i].name), name)) return i;
    return -1;
}

// the kind of <default> child that gives an element its defaults: its own name, "joint" for a
// <freejoint>, "equality" for every element of <equality> (connect, weld, joint), "tendon" for
// every element of <tendon> (fixed, spatial: MuJoCo's one <default><tendon/> serves both)
static const char* default_kind(reader* r, int node) {
    int parent = NODE(r, node).parent;
    if (parent >= 0 && !strcmp(ename(r, parent), "equality")) return "equality";
    if (!strcmp(ename(r, node), "freejoint")) return "joint";
    if (parent >= 0 && !strcmp(ename(r, parent), "tendon")) return "tendon";
    return ename(r, node);
}

// an attribute of an element, or else of its class chain (the element's class, or the enclosing
// childclass, or "main"), for elements of that kind
const char* sni_mjcf_attr_of(loader* L, int node, int cls, const char* name) {
    reader* r = L->r;
    const char* v = get(r, node, name);
    if (v) return v;
    const char* kind = default_kind(r, node);
    for (int c = cls; c >= 0; c = L->classes[c].parent) {
        for (int k = NODE(r, L->classes[c].node).first; k >= 0; k = NODE(r, k).next)
            if (!strcmp(ename(r, k), kind)) {
                const char* dv = get(r, k, name);
                if (dv) return dv;
            }
    }
    return NULL;
}

int sni_mjcf_reals(loader* L, int node, int cls, const char* name, sn_real* out, int n) {
    const char* v = sni_mjcf_attr_of(L, node, cls, name);
    if (!v) return 0;
    sni_num_result res = sni_parse_reals(v, out, n);
    if (res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) {
        sni_mjcf_fail(
            L->r, node, SN_ERR_PARSE, ename(L->r, node), "attribute %s=\"%.60s\" %s", name, v,
            res == SNI_NUM_COUNT ? "has the wrong number of numbers" : sni_num_result_str(res));
        return -1;
    }
    return 1;
}

// the class an element uses: its own, else the childclass in force
int sni_mjcf_class_of(loader* L, int node, int childclass) {
    const char* c = get(L->r, node, "class");
    if (c) {
        int k = sni_mjcf_class_find(L, c);
        if (k < 0) {
            sni_mjcf_fail(L->r, node, SN_ERR_MODEL, ename(L->r, node), "unknown default class '%s'",
                          c);
            return L->main_class;
        }
        return k;
    }
    return childclass >= 0 ? childclass : L->main_class;
}

// the default classes, depth first: the outermost <default> is "main"
int sni_mjcf_collect_defaults(loader* L, int node, int parent) {
    reader* r = L->r;
    const char* cn = get(r, node, "class");
    if (parent < 0 && cn && strcmp(cn, "main")) {
        sni_mjcf_fail(r, node, SN_ERR_MODEL, "default", "the outermost <default> is class 'main'");
        return -1;
    }
    if (parent >= 0 && !cn) {
        sni_mjcf_fail(r, node, SN_ERR_MODEL, "default", "a nested <default> needs a class");
        return -1;
    }
    if (cn && sni_mjcf_class_find(L, cn) >= 0) {
        sni_mjcf_fail(r, node, SN_ERR_MODEL, "default", "default class '%s' is defined twice", cn);
        return -1;
    }
    dclass* c = sni_alloc(r->a, sizeof(dclass) * (size_t)(L->nclass + 1));
    if (!c) return -1;
    if (L->nclass) memcpy(c, L->classes, sizeof(dclass) * (size_t)L->nclass);
    if (L->classes) sni_free(r->a, L->classes, sizeof(dclass) * (size_t)L->nclass);
    L->classes = c;
    int id = L->nclass++;
    c[id].name = sni_mjcf_pool_add(r, cn ? cn : "main");
    c[id].node = node;
    c[id].parent = parent;
    for (int k = NODE(r, node).first; k >= 0; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "default") && sni_mjcf_collect_defaults(L, k, id) < 0) return -1;
    return id;
}

// ---- attributes sinew does not read ----

void sni_mjcf_note_ignored(reader* r, const char* what) {
    if (strstr(r->ignored, what)) return;
    size_t n = strlen(r->ignored);
    snprintf(r->ignored + n, sizeof r->ignored - n, "%s%s", n ? ", " : "", what);
}

// the attributes of element k, and of its kind's defaults in class cls and its parents, that
// sinew does not read: each named once in the "not read" warning ("geom friction")
void sni_mjcf_list_unread(loader* L, int k, int cls, const char* const* known) {
    reader* r = L->r;
    const char* kind = default_kind(r, k);
    const long* kv = (const long*)(void*)r->attrs.data;
    for (int pass = 0, c = cls; pass == 0 || c >= 0; pass++) {
        int e = k;
        if (pass > 0) {
            // the default element of this kind in class c
            e = -1;
            for (int d = NODE(r, L->classes[c].node).first; d >= 0 && e < 0; d = NODE(r, d).next)
                if (!strcmp(ename(r, d), kind)) e = d;
            c = L->classes[c].parent;
            if (e < 0) continue;
        }
        const xnode* n = &NODE(r, e);
        for (int i = 0; i < n->nattr; i++) {
            const char* a = STR(r, kv[2 * (n->attr0 + i)]);
            int ok = 0;
            for (int q = 0; known[q] && !ok; q++)
                ok = !strcmp(a, known[q]);
            if (ok) continue;
            char what[96];
            snprintf(what, sizeof what, "%s %s", ename(r, k), a);
            sni_mjcf_note_ignored(r, what);
        }
        if (pass > 64) break;
    }
}

// ---- orientations ----

// R: the shortest turn taking z onto the unit vector d
void sni_mjcf_z_onto(sn_real* R, const sn_real* d) {
    sn_real z[3] = {0, 0, 1}, ax[3];
    v3_cross(ax, z, d);
    sn_real s = v3_norm(ax), c = d[2];
    m3_identity(R);
    if (s > 1e-12) {
        v3_scale(ax, ax, 1 / s);
        axis_sincos_to_m3(R, ax, s, c);
    } else if (c < 0) {
        sn_real xa[3] = {1, 0, 0};
        axis_sincos_to_m3(R, xa, 0, -1);
    }
}

// v[0..n) scaled to unit length; 0 (refused with "<what>") when it is zero
static int unit(reader* r, int node, sn_real* v, int n, const char* what) {
    sn_real l = 0;
    for (int i = 0; i < n; i++)
        l += v[i] * v[i];
    l = sqrt(l);
    if (!(l > 0)) {
        sni_mjcf_fail(r, node, SN_ERR_MODEL, ename(r, node), "%s", what);
        return 0;
    }
    for (int i = 0; i < n; i++)
        v[i] /= l;
    return 1;
}

// the orientation of an element (quat, axisangle, euler, xyaxes, zaxis; identity without)
int sni_mjcf_orientation(loader* L, int node, int cls, sn_real* R) {
    reader* r = L->r;
    sn_real v[6];
    int got = 0;
    m3_identity(R);
    int k;
    if ((k = sni_mjcf_reals(L, node, cls, "quat", v, 4)) != 0) {
        if (k < 0 || !unit(r, node, v, 4, "quat is zero")) return -1;
        quat_to_m3(R, v);
        got++;
    }
    if ((k = sni_mjcf_reals(L, node, cls, "axisangle", v, 4)) != 0) {
        if (k < 0 || !unit(r, node, v, 3, "axisangle has a zero axis")) return -1;
        sn_real ang = r->degree ? v[3] * M_PI / 180 : v[3];
        axis_sincos_to_m3(R, v, sin(ang), cos(ang));
        got++;
    }
    if ((k = sni_mjcf_reals(L, node, cls, "euler", v, 3)) != 0) {
        if (k < 0) return -1;
        // eulerseq: lower case turns about the rotated axes (intrinsic), upper case about the
        // fixed ones (extrinsic)
        sn_real acc[9];
        m3_identity(acc);
        for (int i = 0; i < 3; i++) {
            char c = r->eulerseq[i];
            int intrinsic = c >= 'a';
            char lc = intrinsic ? c : (char)(c - 'A' + 'a');
            sn_real ax[3] = {lc == 'x', lc == 'y', lc == 'z'};
            sn_real ang = r->degree ? v[i] * M_PI / 180 : v[i], Ri[9], t[9];
            axis_sincos_to_m3(Ri, ax, sin(ang), cos(ang));
            if (intrinsic)
                m3_mul(t, acc, Ri);
            else
                m3_mul(t, Ri, acc);
            memcpy(acc, t, sizeof t);
        }
        memcpy(R, acc, sizeof acc);
        got++;
    }
    if ((k = sni_mjcf_reals(L, node, cls, "xyaxes", v, 6)) != 0) {
        if (k < 0) return -1;
        sn_real x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
        if (!unit(r, node, x, 3, "xyaxes has a zero x axis")) return -1;
        v3_addscl(y, x, -v3_dot(x, y));
        if (!unit(r, node, y, 3, "xyaxes: y is parallel to x")) return -1;
        v3_cross(z, x, y);
        for (int i = 0; i < 3; i++)
            R[3 * i] = x[i], R[3 * i + 1] = y[i], R[3 * i + 2] = z[i];
        got++;
    }
    if ((k = sni_mjcf_reals(L, node, cls, "zaxis", v, 3)) != 0) {
        if (k < 0) return -1;
        // the shortest turn taking z onto the axis
        if (!unit(r, node, v, 3, "zaxis is zero")) return -1;
        sni_mjcf_z_onto(R, v);
        got++;
    }
    if (got > 1) {
        sni_mjcf_fail(r, node, SN_ERR_MODEL, ename(r, node),
                      "more than one orientation (quat, axisangle, euler, xyaxes, zaxis) given");
        return -1;
    }
    return 0;
}
