// SPDX-License-Identifier: Apache-2.0
// sections.c: the MJCF sections beside the body tree: <compiler> (angles, euler sequence,
// inertia from geoms, autolimits, meshdir), <equality> (connect as a pin, weld as a pin and an
// orientation constraint, joint as a mimic coupling or a lock), <contact> exclusions, <option>
// (time step, gravity, integrator, flags), <actuator> (motor, position, velocity and general
// actuators on joints and tendons), <keyframe> and <custom> (sinew's soft contact entries).
// <tendon> is tendons.c's.
#include "mjcf/mjcf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- <compiler> ----

void sni_mjcf_compiler_settings(reader* r, int node) {
    const char* v;
    if ((v = get(r, node, "angle"))) {
        if (strcmp(v, "degree") && strcmp(v, "radian")) {
            sni_mjcf_fail(r, node, SN_ERR_PARSE, "compiler", "angle=\"%s\" (degree or radian)", v);
            return;
        }
        r->degree = !strcmp(v, "degree");
    }
    if ((v = get(r, node, "eulerseq"))) {
        int ok = strlen(v) == 3;
        for (int i = 0; ok && i < 3; i++)
            ok = strchr("xyzXYZ", v[i]) != NULL;
        if (!ok) {
            sni_mjcf_fail(r, node, SN_ERR_PARSE, "compiler", "eulerseq=\"%s\"", v);
            return;
        }
        memcpy(r->eulerseq, v, 4);
    }
    if ((v = get(r, node, "inertiafromgeom")))
        r->inertia_from_geom = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : 2;
    if ((v = get(r, node, "autolimits"))) r->autolimits = !strcmp(v, "true");
    if ((v = get(r, node, "coordinate")) && strcmp(v, "local")) {
        sni_mjcf_fail(r, node, SN_ERR_MODEL, "compiler",
                      "coordinate=\"%s\" is not supported (local only)", v);
        return;
    }
    if ((v = get(r, node, "meshdir"))) snprintf(r->meshdir, sizeof r->meshdir, "%s", v);
    static const char* known[] = {"angle",      "eulerseq", "inertiafromgeom", "autolimits",
                                  "coordinate", "meshdir",  "texturedir",      "discardvisual",
                                  "strippath",  NULL};
    const xnode* n = &NODE(r, node);
    const long* kv = (const long*)r->attrs.data;
    for (int i = 0; i < n->nattr; i++) {
        const char* k = STR(r, kv[2 * (n->attr0 + i)]);
        int found = 0;
        for (int j = 0; known[j] && !found; j++)
            found = !strcmp(k, known[j]);
        if (!found) {
            sni_mjcf_fail(r, node, SN_ERR_MODEL, "compiler", "attribute %s is not supported", k);
            return;
        }
    }
}

// ---- <equality> ----

const site_rec* sni_mjcf_site_find(loader* L, const char* name) {
    const site_rec* sr = (const site_rec*)L->sites.data;
    int n = (int)(L->sites.len / sizeof(site_rec));
    for (int i = 0; i < n; i++)
        if (!strcmp(L->r->s->names.data + sr[i].name, name)) return &sr[i];
    return NULL;
}

int sni_mjcf_joint_find(sni_spec* s, const char* name) {
    const sni_joint* j = (const sni_joint*)s->joints.data;
    for (int i = 0; i < SNI_NJOINT(s); i++)
        if (!strcmp(s->names.data + j[i].name, name)) return i;
    return -1;
}

// whether an equality constraint's body attribute names the world or a <body>; refuses it (at
// element k, attribute attr) otherwise
static int body_named(loader* L, int k, const char* attr, const char* name) {
    reader* r = L->r;
    if (!name || !strcmp(name, "world")) return 1;
    for (int i = 0; i < NNODE(r); i++) {
        const char* nm = strcmp(ename(r, i), "body") ? NULL : get(r, i, "name");
        if (nm && !strcmp(nm, name)) return 1;
    }
    sni_mjcf_fail(r, k, SN_ERR_MODEL, ename(r, k), "%s '%s' is not a body", attr, name);
    return 0;
}

// <connect>: a pin. With body1 (and body2, else the world) and an anchor in body1's frame, body2's
// point is the one that coincides with it at the reference configuration; with site1 and site2,
// the two sites' points, which the constraint pulls together when they are apart
static void connect(loader* L, int k, int cls) {
    reader* r = L->r;
    const char *b1 = sni_mjcf_attr_of(L, k, cls, "body1"),
               *b2 = sni_mjcf_attr_of(L, k, cls, "body2");
    const char *s1 = sni_mjcf_attr_of(L, k, cls, "site1"),
               *s2 = sni_mjcf_attr_of(L, k, cls, "site2");
    sn_real anchor[3], anchor2[3];
    long body1, body2;
    int has2 = 0;
    if (s1 || s2) {
        if (!s1 || !s2 || b1 || b2) {
            sni_mjcf_fail(
                r, k, SN_ERR_MODEL, "connect",
                "a connect names either site1 and site2, or body1 (and body2) with an anchor");
            return;
        }
        const site_rec* sa = sni_mjcf_site_find(L, s1);
        const site_rec* sb = sni_mjcf_site_find(L, s2);
        if (!sa || !sb) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "connect", "site '%s' does not exist", sa ? s2 : s1);
            return;
        }
        if (sa->link < 0 || sb->link < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "connect",
                          "site '%s' is on the world, which is not a link with a floating base",
                          sa->link < 0 ? s1 : s2);
            return;
        }
        body1 = sa->link, body2 = sb->link;
        v3_copy(anchor, sa->pos);
        v3_copy(anchor2, sb->pos);
        has2 = 1;
    } else {
        if (!b1) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "connect",
                          "missing attribute 'body1' (or site1 and site2)");
            return;
        }
        if (sni_mjcf_reals(L, k, cls, "anchor", anchor, 3) <= 0) {
            if (r->st == SN_OK)
                sni_mjcf_fail(r, k, SN_ERR_MODEL, "connect", "missing attribute 'anchor'");
            return;
        }
        if (!body_named(L, k, "body1", b1) || !body_named(L, k, "body2", b2)) return;
        body1 = sni_spec_name(r->s, b1);
        body2 = sni_spec_name(r->s, b2 ? b2 : "world"); // body2 absent: the world
    }
    sni_constraint* c = sni_buf_grow(&r->s->constraints, sizeof(sni_constraint));
    if (!c) {
        sni_mjcf_fail(r, k, SN_ERR_NOMEM, "connect", "out of memory");
        return;
    }
    memset(c, 0, sizeof *c);
    c->type = SN_CONSTRAINT_PIN;
    c->line = NODE(r, k).line;
    c->element = "connect";
    c->body1 = body1;
    c->body2 = body2;
    v3_copy(c->anchor, anchor);
    c->has_anchor2 = has2;
    v3_copy(c->anchor2, anchor2);
    c->naxis = 3;
}

// <equality><joint>: joint1 = joint1's ref + c0 + c1 (joint2 - joint2's ref), a mimic coupling
// (docs/loops.md); a polynomial of higher degree, or no joint2, is refused by name
static void joint_coupling(loader* L, int k, int cls) {
    reader* r = L->r;
    const char *j1 = sni_mjcf_attr_of(L, k, cls, "joint1"),
               *j2 = sni_mjcf_attr_of(L, k, cls, "joint2");
    if (!j1) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "joint", "missing attribute 'joint1'");
        return;
    }

    sn_real pc[5] = {0, 1, 0, 0, 0};
    const char* ps = sni_mjcf_attr_of(L, k, cls, "polycoef");
    if (ps) {
        int count = 0;
        if (sni_parse_real_list(ps, pc, 5, &count) != SNI_NUM_OK || count < 1) {
            sni_mjcf_fail(r, k, SN_ERR_PARSE, "joint", "polycoef=\"%.60s\" is not 1 to 5 numbers",
                          ps);
            return;
        }
        for (int i = count; i < 5; i++)
            pc[i] = 0;
    }
    if (pc[2] != 0 || pc[3] != 0 || pc[4] != 0) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "joint",
                      "polycoef=\"%s\": only a linear coupling (c0 + c1 q2) is supported", ps);
        return;
    }
    // without joint2 the joint is held at ref + c0: a lock (a mimic of itself, multiplier 0)
    int f = sni_mjcf_joint_find(r->s, j1), l = j2 ? sni_mjcf_joint_find(r->s, j2) : f;
    if (f < 0 || l < 0) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "joint", "joint '%s' does not exist", f < 0 ? j1 : j2);
        return;
    }
    if (!j2) pc[1] = 0;
    sni_joint* jf = &((sni_joint*)r->s->joints.data)[f];
    if (jf->mimic_name >= 0) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "joint", "joint '%s' is coupled twice", j1);
        return;
    }
    sn_real ref1 = f < MAX_REF_JOINTS ? L->ref[f] : 0, ref2 = l < MAX_REF_JOINTS ? L->ref[l] : 0;
    jf->mimic_name = sni_spec_name(r->s, j2 ? j2 : j1);
    jf->mimic_line = NODE(r, k).line;
    jf->mimic_multiplier = pc[1];
    jf->mimic_offset = ref1 + pc[0] - pc[1] * ref2;
}

static sni_constraint* new_constraint(loader* L, int k, int type, long body1, long body2) {
    sni_constraint* c = sni_buf_grow(&L->r->s->constraints, sizeof(sni_constraint));
    if (!c) {
        sni_mjcf_fail(L->r, k, SN_ERR_NOMEM, ename(L->r, k), "out of memory");
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->type = type;
    c->line = NODE(L->r, k).line;
    c->element = "weld";
    c->body1 = body1;
    c->body2 = body2;
    c->naxis = 3;
    return c;
}

// <weld>: a pin followed by an orientation constraint (docs/mjcf.md). MuJoCo's anchor is in
// body2's frame, so sinew's body1 is MuJoCo's body2 (the world when absent) and sinew's body2
// MuJoCo's body1. Without relpose the relative pose is the reference configuration's; with it
// (or between sites) both anchors and the relative orientation are the file's. torquescale 0
// leaves the orientation free (a connect at the anchor); any other value is a rigid weld
static void weld(loader* L, int k, int cls) {
    reader* r = L->r;
    const char *b1 = sni_mjcf_attr_of(L, k, cls, "body1"),
               *b2 = sni_mjcf_attr_of(L, k, cls, "body2");
    const char *s1 = sni_mjcf_attr_of(L, k, cls, "site1"),
               *s2 = sni_mjcf_attr_of(L, k, cls, "site2");
    sn_real anchor[3] = {0, 0, 0}, anchor2[3], rot2[9], ts = 1;
    int given = 0;
    long body1, body2;
    if (sni_mjcf_reals(L, k, cls, "torquescale", &ts, 1) < 0) return;
    if (s1 || s2) {
        if (!s1 || !s2 || b1 || b2) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "weld",
                          "a weld names either site1 and site2, or body1");
            return;
        }
        const site_rec* sa = sni_mjcf_site_find(L, s1);
        const site_rec* sb = sni_mjcf_site_find(L, s2);
        if (!sa || !sb || sa->link < 0 || sb->link < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "weld", "site '%s' %s", !sa || sa->link < 0 ? s1 : s2,
                          (!sa || !sb) ? "does not exist"
                                       : "is on the world, which is not a link here");
            return;
        }
        // the sites' frames coincide: sinew's body1 carries site2, its body2 site1
        body1 = sb->link, body2 = sa->link;
        v3_copy(anchor, sb->pos);
        v3_copy(anchor2, sa->pos);
        // body2's link in body1's: Rs2 Rs1^T (Rs the sites' frames in their links)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                rot2[3 * i + j] = sb->R[3 * i] * sa->R[3 * j] +
                                  sb->R[3 * i + 1] * sa->R[3 * j + 1] +
                                  sb->R[3 * i + 2] * sa->R[3 * j + 2];
        given = 1;
    } else {
        if (!b1) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "weld",
                          "missing attribute 'body1' (or site1 and site2)");
            return;
        }
        if (sni_mjcf_reals(L, k, cls, "anchor", anchor, 3) < 0) return;
        if (!body_named(L, k, "body1", b1) || !body_named(L, k, "body2", b2)) return;
        body1 = sni_spec_name(r->s, b2 ? b2 : "world");
        body2 = sni_spec_name(r->s, b1);
        sn_real rp[7];
        int kr = sni_mjcf_reals(L, k, cls, "relpose", rp, 7);
        if (kr < 0) return;
        sn_real qn =
            kr > 0 ? sqrt(rp[3] * rp[3] + rp[4] * rp[4] + rp[5] * rp[5] + rp[6] * rp[6]) : 0;
        if (qn > 0) {
            // MuJoCo's body2 in its body1: sinew's body1 in its body2 (Rrel, prel). The anchor
            // on sinew's body2 is prel + Rrel anchor; body2's frame in body1's is Rrel^T
            sn_real q[4] = {rp[3] / qn, rp[4] / qn, rp[5] / qn, rp[6] / qn}, Rr[9];
            quat_to_m3(Rr, q);
            m3_mul_v3(anchor2, Rr, anchor);
            v3_add(anchor2, anchor2, rp);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    rot2[3 * i + j] = Rr[3 * j + i];
            given = 1;
        }
    }
    sni_constraint* c = new_constraint(L, k, SN_CONSTRAINT_PIN, body1, body2);
    if (!c) return;
    v3_copy(c->anchor, anchor);
    if (given) {
        c->has_anchor2 = 1;
        v3_copy(c->anchor2, anchor2);
    }
    if (ts == 0) return;
    if (ts != 1)
        sni_mjcf_warn(r, k, "weld",
                      "torquescale=%g is read as a rigid weld (sinew's constraints are exact)", ts);
    c = new_constraint(L, k, SN_CONSTRAINT_ORIENTATION, body1, body2);
    if (!c) return;
    if (given) {
        c->has_rot2 = 1;
        memcpy(c->rot2, rot2, sizeof rot2);
    }
}

void sni_mjcf_equality(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        int is_connect = !strcmp(e, "connect"), is_joint = !strcmp(e, "joint"),
            is_weld = !strcmp(e, "weld");
        if (!is_connect && !is_joint && !is_weld) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                          "<equality><%s> is not supported (connect, weld and joint are)", e);
            return;
        }
        // every attribute is the element's or its class chain's (<default><equality>)
        int cls = sni_mjcf_class_of(L, k, L->main_class);
        if (r->st != SN_OK) return;
        static const char* const connect_read[] = {"name",   "class",  "active", "body1",
                                                   "body2",  "site1",  "site2",  "anchor",
                                                   "solref", "solimp", NULL};
        static const char* const weld_read[] = {
            "name",   "class",   "active",      "body1",  "body2",  "site1", "site2",
            "anchor", "relpose", "torquescale", "solref", "solimp", NULL};
        static const char* const joint_read[] = {"name",     "class",  "active", "joint1", "joint2",
                                                 "polycoef", "solref", "solimp", NULL};
        sni_mjcf_list_unread(L, k, cls,
                             is_connect ? connect_read
                             : is_weld  ? weld_read
                                        : joint_read);
        const char* active = sni_mjcf_attr_of(L, k, cls, "active");
        if (active && strcmp(active, "false") && strcmp(active, "true")) {
            sni_mjcf_fail(r, k, SN_ERR_PARSE, e, "active=\"%.60s\" (true or false)", active);
            return;
        }
        if (active && !strcmp(active, "false")) {
            sni_mjcf_warn(r, k, e, "an inactive <%s> is not loaded", e);
            continue;
        }
        if (sni_mjcf_attr_of(L, k, cls, "solref") || sni_mjcf_attr_of(L, k, cls, "solimp"))
            sni_mjcf_note_ignored(r, "solref/solimp");
        if (is_connect)
            connect(L, k, cls);
        else if (is_weld)
            weld(L, k, cls);
        else
            joint_coupling(L, k, cls);
    }
}

// ---- <contact> ----

// <contact>: <exclude body1 body2> pairs never collide (sinew's self-collision is off unless
// turned on; bodies a joint joins never collide); explicit <pair>s are listed as not read
void sni_mjcf_contact_section(reader* r, int node) {
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        if (strcmp(e, "exclude")) {
            char what[64];
            snprintf(what, sizeof what, "contact %s", e);
            sni_mjcf_note_ignored(r, what);
            continue;
        }
        const char *b1 = get(r, k, "body1"), *b2 = get(r, k, "body2");
        if (!b1 || !b2) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "exclude", "an exclude names body1 and body2");
            return;
        }
        sni_exclude x = {sni_spec_name(r->s, b1), sni_spec_name(r->s, b2), NODE(r, k).line};
        if (sni_buf_push(&r->s->excludes, &x, sizeof x) < 0) {
            sni_mjcf_fail(r, k, SN_ERR_NOMEM, "exclude", "out of memory");
            return;
        }
    }
}

// ---- <option> ----

// <option>: the time step, gravity and integrator the file asks for (the model keeps them; a
// world takes them from `sinew run`); the rest is MuJoCo's solver and is listed as not read
void sni_mjcf_option(loader* L, int node) {
    reader* r = L->r;
    sn_real v[3];
    int k = sni_mjcf_reals(L, node, -1, "timestep", v, 1);
    if (k < 0) return;
    if (k > 0) {
        if (!(v[0] > 0)) {
            sni_mjcf_fail(r, node, SN_ERR_MODEL, "option", "timestep must be positive");
            return;
        }
        r->s->option_timestep = v[0];
    }
    if ((k = sni_mjcf_reals(L, node, -1, "gravity", v, 3)) < 0) return;
    if (k > 0) {
        v3_copy(r->s->option_gravity, v);
        r->s->option_has_gravity = 1;
    }
    const char* in = get(r, node, "integrator");
    if (in) {
        if (!strcmp(in, "Euler")) {
            r->s->option_scheme = 0; // MuJoCo's Euler is semi-implicit: SN_SCHEME_SEMI_IMPLICIT
        } else if (!strcmp(in, "RK4")) {
            r->s->option_scheme = 3; // SN_SCHEME_RK4
        } else if (!strcmp(in, "implicit") || !strcmp(in, "implicitfast")) {
            r->s->option_scheme = 0;
            sni_mjcf_warn(
                r, node, "option",
                "integrator=\"%s\" is read as sinew's semi-implicit step (its PD and damping "
                "are implicit already)",
                in);
        } else {
            sni_mjcf_fail(r, node, SN_ERR_MODEL, "option", "integrator=\"%s\" is not known", in);
            return;
        }
    }
    const xnode* n = &NODE(r, node);
    const long* kv = (const long*)r->attrs.data;
    for (int i = 0; i < n->nattr; i++) {
        const char* a = STR(r, kv[2 * (n->attr0 + i)]);
        if (strcmp(a, "timestep") && strcmp(a, "gravity") && strcmp(a, "integrator")) {
            char what[96];
            snprintf(what, sizeof what, "option %s", a);
            sni_mjcf_note_ignored(r, what);
        }
    }
    // <flag gravity="disable"> (no gravity) and contact="disable" (no contacts) are read; the
    // other flags are MuJoCo's solver's
    for (int c = n->first; c >= 0; c = NODE(r, c).next) {
        const char* g = strcmp(ename(r, c), "flag") ? NULL : get(r, c, "gravity");
        const char* ct = strcmp(ename(r, c), "flag") ? NULL : get(r, c, "contact");
        if (g && !strcmp(g, "disable")) {
            v3_set(r->s->option_gravity, 0, 0, 0);
            r->s->option_has_gravity = 1;
        }
        if (ct && !strcmp(ct, "disable")) r->s->option_contact_off = 1;
        const xnode* f = &NODE(r, c);
        if (f->nattr > (g ? 1 : 0) + (ct ? 1 : 0) || strcmp(ename(r, c), "flag"))
            sni_mjcf_note_ignored(r, "option flags");
    }
}

// ---- <actuator> ----

static const char* const actuator_read[] = {
    "name",    "class",     "joint",       "tendon",     "site",         "body", "jointinparent",
    "gear",    "ctrlrange", "ctrllimited", "forcerange", "forcelimited", "kp",   "kv",
    "dyntype", "gaintype",  "biastype",    "gainprm",    "biasprm",      NULL};

// a general actuator's parameters (dyntype none and gaintype fixed only; biastype none or
// affine): gainprm into gp (10, default 1 0 ...) and biasprm into bp (10, default 0). 1 when the
// bias is affine, 0 when none, -1 when refused (r->st)
static int general_params(loader* L, int k, int cls, sn_real* gp, sn_real* bp) {
    reader* r = L->r;
    const char* e = ename(r, k);
    const char* dt = sni_mjcf_attr_of(L, k, cls, "dyntype");
    const char* gt = sni_mjcf_attr_of(L, k, cls, "gaintype");
    const char* bt = sni_mjcf_attr_of(L, k, cls, "biastype");
    if ((dt && strcmp(dt, "none")) || (gt && strcmp(gt, "fixed")) ||
        (bt && strcmp(bt, "none") && strcmp(bt, "affine"))) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                      "dyntype=\"%s\" gaintype=\"%s\" biastype=\"%s\": only dyntype none, "
                      "gaintype fixed and biastype none or affine are supported",
                      dt ? dt : "none", gt ? gt : "fixed", bt ? bt : "none");
        return -1;
    }
    for (int i = 0; i < 10; i++)
        gp[i] = i == 0, bp[i] = 0;
    const char* gs = sni_mjcf_attr_of(L, k, cls, "gainprm");
    const char* bs = sni_mjcf_attr_of(L, k, cls, "biasprm");
    int count = 0;
    if ((gs && sni_parse_real_list(gs, gp, 10, &count) != SNI_NUM_OK) ||
        (bs && sni_parse_real_list(bs, bp, 10, &count) != SNI_NUM_OK)) {
        sni_mjcf_fail(r, k, SN_ERR_PARSE, e, "gainprm or biasprm is not a list of numbers");
        return -1;
    }
    return bt && !strcmp(bt, "affine");
}

// an actuator on a tendon (MuJoCo's transmission, l = gear L): its gain and bias by kind (0 motor,
// 1 position, 2 velocity, 3 general with fixed gain and none or affine bias), its ranges; 1 when
// read
static int tendon_actuator(loader* L, int k, int cls, int kind, const char* tn) {
    reader* r = L->r;
    const char* e = ename(r, k);
    const sni_tendon* t = (const sni_tendon*)r->s->tendons.data;
    int found = -1;
    for (int i = 0; i < SNI_NTENDON(r->s) && found < 0; i++)
        if (!strcmp(SNI_NAME(r->s, t[i].name), tn)) found = i;
    if (found < 0) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "tendon '%s' does not exist", tn);
        return 0;
    }
    sni_tendon_act a;
    memset(&a, 0, sizeof a);
    const char* an = get(r, k, "name");
    a.name = sni_spec_name(r->s, an ? an : "");
    a.line = NODE(r, k).line;
    a.tendon = found;
    sn_real gear[6] = {1, 0, 0, 0, 0, 0}, v = 1, range[2];
    const char* gs = sni_mjcf_attr_of(L, k, cls, "gear");
    int count = 0;
    if (gs && (sni_parse_real_list(gs, gear, 6, &count) != SNI_NUM_OK || count < 1)) {
        sni_mjcf_fail(r, k, SN_ERR_PARSE, e, "gear=\"%.60s\" is not 1 to 6 numbers", gs);
        return 0;
    }
    a.gear = gear[0], a.gain = 1;
    if (kind == 1 || kind == 2) {
        if (sni_mjcf_reals(L, k, cls, kind == 1 ? "kp" : "kv", &v, 1) < 0) return 0;
        a.gain = v;
        a.bias[kind] = -v;
    } else if (kind == 3) {
        sn_real gp[10], bp[10];
        int affine = general_params(L, k, cls, gp, bp);
        if (affine < 0) return 0;
        a.gain = gp[0];
        if (affine) memcpy(a.bias, bp, 3 * sizeof(sn_real));
    }
    a.ctrlrange[0] = a.forcerange[0] = -INFINITY;
    a.ctrlrange[1] = a.forcerange[1] = INFINITY;
    char who[160];
    snprintf(who, sizeof who, "actuator '%.120s'", an ? an : "(unnamed)");
    int kc = sni_mjcf_reals(L, k, cls, "ctrlrange", range, 2);
    if (kc < 0) return 0;
    int lim = sni_mjcf_range_limited(L, k, cls, who, "ctrlrange", "ctrllimited", kc, range);
    if (lim < 0) return 0;
    if (lim) memcpy(a.ctrlrange, range, sizeof range);
    int kf = sni_mjcf_reals(L, k, cls, "forcerange", range, 2);
    if (kf < 0) return 0;
    lim = sni_mjcf_range_limited(L, k, cls, who, "forcerange", "forcelimited", kf, range);
    if (lim < 0) return 0;
    if (lim) memcpy(a.forcerange, range, sizeof range);
    if (sni_buf_push(&r->s->tendon_acts, &a, sizeof a) < 0) {
        sni_mjcf_fail(r, k, SN_ERR_NOMEM, e, "out of memory");
        return 0;
    }
    return 1;
}

// <actuator>: motor, position and velocity actuators on joints. A position actuator's kp and a
// velocity actuator's kv become the joint's servo gains (m->dof_kp, dof_kd; times gear^2), a
// forcerange (or a motor's gear times its ctrlrange) its effort limit. Others are refused by
// name. Long (about 120 lines): the four kinds share the transmission, gear and force-range
// reading and differ only in their gains, which are read in place
void sni_mjcf_actuator_section(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        int kind = !strcmp(e, "motor")      ? 0
                   : !strcmp(e, "position") ? 1
                   : !strcmp(e, "velocity") ? 2
                   : !strcmp(e, "general")  ? 3
                                            : -1;
        if (kind < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                          "<%s> actuators are not supported (motor, position, velocity, general)",
                          e);
            return;
        }
        int cls = sni_mjcf_class_of(L, k, L->main_class);
        sni_mjcf_list_unread(L, k, cls, actuator_read);
        const char* jn = sni_mjcf_attr_of(L, k, cls, "joint");
        const char* tdn = sni_mjcf_attr_of(L, k, cls, "tendon");
        if (!jn && tdn) {
            if (!tendon_actuator(L, k, cls, kind, tdn)) return;
            continue;
        }
        if (!jn) {
            // another transmission (a tendon, a site, a body): listed, not loaded
            static const char* const tr[] = {"tendon", "site", "body", "jointinparent"};
            const char *what = "a transmission", *on = "";
            for (int i = 0; i < 4; i++)
                if (sni_mjcf_attr_of(L, k, cls, tr[i]))
                    what = tr[i], on = sni_mjcf_attr_of(L, k, cls, tr[i]);
            const char* an = get(r, k, "name");
            sni_mjcf_warn(
                r, k, e,
                "actuator '%s' acts on %s '%s': only joint transmissions are read, it is not "
                "loaded",
                an ? an : "(unnamed)", what, on);
            continue;
        }
        sni_joint* j = (sni_joint*)r->s->joints.data;
        int found = -1;
        for (int i = 0; i < SNI_NJOINT(r->s) && found < 0; i++)
            if (!strcmp(r->s->names.data + j[i].name, jn)) found = i;
        if (found < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "joint '%s' does not exist", jn);
            return;
        }
        sni_joint* jt = &j[found];
        if (jt->type == SN_JOINT_SPHERICAL || jt->type == SN_JOINT_FLOATING) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                          "joint '%s': actuators on ball and free joints are not "
                          "supported",
                          jn);
            return;
        }
        sn_real gear[6] = {1, 0, 0, 0, 0, 0}, v, range[2], ctrl_gain = 1;
        const char* gs = sni_mjcf_attr_of(L, k, cls, "gear");
        if (gs) {
            int count = 0;
            if (sni_parse_real_list(gs, gear, 6, &count) != SNI_NUM_OK || count < 1) {
                sni_mjcf_fail(r, k, SN_ERR_PARSE, e, "gear=\"%.60s\" is not 1 to 6 numbers", gs);
                return;
            }
        }
        if (kind == 3) {
            // general: force = gain ctrl + b0 + b1 q + b2 qdot. Fixed gain and no activation
            // dynamics only; an affine bias is a servo: kp = -b1, kd = -b2 (the target is
            // sinew's, so the ctrl's scale does not matter)
            sn_real gp[10], bp[10];
            int affine = general_params(L, k, cls, gp, bp);
            if (affine < 0) return;
            const char* bs = sni_mjcf_attr_of(L, k, cls, "biasprm");
            if (affine) {
                if (bp[0] != 0)
                    sni_mjcf_warn(r, k, e, "biasprm[0] = %g (a constant force) is not read", bp[0]);
                jt->kp += -bp[1] * gear[0] * gear[0];
                jt->kd += -bp[2] * gear[0] * gear[0];
                if (jt->kp < 0 || jt->kd < 0) {
                    sni_mjcf_fail(r, k, SN_ERR_MODEL, e,
                                  "biasprm=\"%s\" makes a negative servo gain (kp = -biasprm[1], "
                                  "kd = -biasprm[2])",
                                  bs);
                    return;
                }
            }
            kind = affine;
            ctrl_gain = gp[0]; // a motor's force is gain * ctrl

        } else if (kind == 1) {
            v = 1; // MuJoCo's default kp
            if (sni_mjcf_reals(L, k, cls, "kp", &v, 1) < 0) return;
            jt->kp += v * gear[0] * gear[0];
        } else if (kind == 2) {
            v = 1;
            if (sni_mjcf_reals(L, k, cls, "kv", &v, 1) < 0) return;
            jt->kd += v * gear[0] * gear[0];
        }
        const char* an = get(r, k, "name");
        char who[160];
        snprintf(who, sizeof who, "actuator '%.120s'", an ? an : "(unnamed)");
        sn_real crange[2];
        int kf = sni_mjcf_reals(L, k, cls, "forcerange", range, 2);
        if (kf < 0) return;
        int flim = sni_mjcf_range_limited(L, k, cls, who, "forcerange", "forcelimited", kf, range);
        int kc = flim < 0 ? -1 : sni_mjcf_reals(L, k, cls, "ctrlrange", crange, 2);
        int clim =
            kc < 0 ? -1
                   : sni_mjcf_range_limited(L, k, cls, who, "ctrlrange", "ctrllimited", kc, crange);
        if (clim < 0) return;
        if (flim) {
            jt->effort = fmax(fabs(range[0]), fabs(range[1])) * fabs(gear[0]);
            if (fabs(range[0]) != fabs(range[1]))
                sni_mjcf_warn(r, k, e, "forcerange [%g, %g] is read as the symmetric bound %g",
                              range[0], range[1], jt->effort);
        } else if (kind == 0 && clim) {
            jt->effort = fmax(fabs(crange[0]), fabs(crange[1])) * fabs(ctrl_gain * gear[0]);
        }
    }
}

// ---- <keyframe> ----

// exactly n finite numbers (any n)
static int exactly(const char* text, sn_real* out, int n) {
    int count = 0;
    sni_num_result res = sni_parse_real_list(text, out, n, &count);
    return (res == SNI_NUM_OK || res == SNI_NUM_UNDERFLOW) && count == n;
}

// <keyframe><key name qpos qvel>: in sinew's conventions (MuJoCo's free-joint angular velocity
// is in the body's frame and its ball velocities in the child's: both turned to sinew's frames)
void sni_mjcf_read_keys(loader* L, const int* frames, int nframes) {
    reader* r = L->r;
    const sni_joint* j = (const sni_joint*)r->s->joints.data;
    int nj = SNI_NJOINT(r->s), nq = L->floating ? 7 : 0, nv = L->floating ? 6 : 0, nkey = 0;
    for (int i = 0; i < nj; i++) {
        nq += sni_mjcf_spec_nq(j[i].type);
        nv += sni_mjcf_spec_nv(j[i].type);
    }
    for (int f = 0; f < nframes; f++)
        for (int k = NODE(r, frames[f]).first; k >= 0; k = NODE(r, k).next) {
            if (strcmp(ename(r, k), "key")) {
                sni_mjcf_fail(r, k, SN_ERR_MODEL, ename(r, k), "<%s> inside <keyframe>",
                              ename(r, k));
                return;
            }
            nkey++;
        }
    if (nkey == 0) return;
    size_t bytes = (size_t)nkey * (sizeof(long) + (size_t)(nq + nv) * sizeof(sn_real));
    long* names = sni_alloc(r->a, bytes);
    if (!names) {
        sni_mjcf_fail(r, frames[0], SN_ERR_NOMEM, "keyframe", "out of memory");
        return;
    }
    sn_real* kq = (sn_real*)(names + nkey);
    sn_real* ku = kq + (size_t)nkey * nq;
    r->s->key_name = names, r->s->key_q = kq, r->s->key_u = ku, r->s->key_bytes = bytes;
    r->s->nkey = nkey, r->s->key_nq = nq, r->s->key_nv = nv;
    int n = 0;
    for (int f = 0; f < nframes && r->st == SN_OK; f++)
        for (int k = NODE(r, frames[f]).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next, n++) {
            sn_real* q = kq + (size_t)n * nq;
            sn_real* u = ku + (size_t)n * nv;
            const char* nm = get(r, k, "name");
            char gen[32];
            snprintf(gen, sizeof gen, "key%d", n);
            names[n] = sni_spec_name(r->s, nm ? nm : gen);
            // qpos0 unless given: the nominal configuration (or zero with unit quaternions)
            if (r->s->has_nominal) {
                memcpy(q, r->s->nominal, (size_t)nq * sizeof(sn_real));
            } else {
                memset(q, 0, (size_t)nq * sizeof(sn_real));
                for (int i = 0, a = 0; i < nj; i++) {
                    if (j[i].type == SN_JOINT_SPHERICAL) q[a] = 1;
                    a += sni_mjcf_spec_nq(j[i].type);
                }
            }
            memset(u, 0, (size_t)nv * sizeof(sn_real));
            const char* qs = get(r, k, "qpos");
            if (qs && !exactly(qs, q, nq)) {
                sni_mjcf_fail(r, k, SN_ERR_PARSE, "key", "qpos must have %d finite numbers", nq);
                return;
            }
            const char* us = get(r, k, "qvel");
            if (us && !exactly(us, u, nv)) {
                sni_mjcf_fail(r, k, SN_ERR_PARSE, "key", "qvel must have %d finite numbers", nv);
                return;
            }
            if (get(r, k, "act") || get(r, k, "ctrl") || get(r, k, "time"))
                sni_mjcf_note_ignored(r, "key act/ctrl/time");
            // MuJoCo's angular velocities into sinew's frames
            sn_real R[9], w[3];
            int a = 0, v = 0;
            if (L->floating) {
                sn_real quat[4];
                if (quat_normalize_safe(quat, q + 3)) {
                    quat_to_m3(R, quat);
                    m3_mul_v3(w, R, u + 3);
                    v3_copy(u + 3, w);
                }
                a = 7, v = 6;
            }
            for (int i = 0; i < nj; i++) {
                // a ball joint's quaternion at a, a free joint's after its position
                int t = j[i].type, qa = a + (t == SN_JOINT_FLOATING ? 3 : 0),
                    va = v + (t == SN_JOINT_FLOATING ? 3 : 0);
                if (t == SN_JOINT_SPHERICAL || t == SN_JOINT_FLOATING) {
                    sn_real qn = sqrt(q[qa] * q[qa] + q[qa + 1] * q[qa + 1] +
                                      q[qa + 2] * q[qa + 2] + q[qa + 3] * q[qa + 3]);
                    if (qn > 0) {
                        sn_real quat[4] = {q[qa] / qn, q[qa + 1] / qn, q[qa + 2] / qn,
                                           q[qa + 3] / qn};
                        quat_to_m3(R, quat);
                        m3_mul_v3(w, R, u + va);
                        v3_copy(u + va, w);
                    }
                }
                a += sni_mjcf_spec_nq(t);
                v += sni_mjcf_spec_nv(t);
            }
        }
}

// ---- <custom>: sinew's soft contacts (docs/expo.md "Soft parameters") ----

// numeric `data` of a <custom> entry: between lo and hi numbers into out (their count), or -1
static int custom_data(reader* r, int k, const char* name, sn_real* out, int lo, int hi) {
    const char* d = get(r, k, "data");
    int n = 0;
    sni_num_result res = d ? sni_parse_real_list(d, out, hi, &n) : SNI_NUM_EMPTY;
    if ((res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) || n < lo || n > hi) {
        sni_mjcf_fail(r, k, SN_ERR_PARSE, ename(r, k),
                      "'%s': data=\"%.60s\" must be %d to %d numbers%s%s", name, d ? d : "", lo, hi,
                      res == SNI_NUM_OK || res == SNI_NUM_COUNT ? "" : ": ",
                      res == SNI_NUM_OK || res == SNI_NUM_COUNT ? "" : sni_num_result_str(res));
        return -1;
    }
    return n;
}


// a whole number in [lo, hi] parsed from text ending at `end` (':' or NUL), or -1
static int custom_id(const char* text, char stop, const char** end) {
    char* e = NULL;
    long v = strtol(text, &e, 10);
    if (e == text || *e != stop || v < 0 || v > 15) return -1;
    *end = e;
    return (int)v;
}


// "sinew:soft_contact" (the world's) and "sinew:soft_contact:A:B" (a pair's): data "kn [kt bn bt
// mu bilateral]", the ones left out the world's (or the defaults)
static void custom_soft(reader* r, int k, const char* name, const char* rest) {
    sni_soft_spec* e = sni_spec_soft_add(r->s, "numeric", NODE(r, k).line);
    if (!e) {
        sni_mjcf_fail(r, k, SN_ERR_NOMEM, "numeric", "out of memory");
        return;
    }
    if (*rest) {
        const char* at = rest + 1;
        e->material[0] = *rest == ':' ? custom_id(at, ':', &at) : -1;
        e->material[1] = e->material[0] >= 0 ? custom_id(at + 1, 0, &at) : -1;
        if (e->material[1] < 0) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "numeric",
                          "'%s': a material pair is named sinew:soft_contact:A:B, A and B whole "
                          "numbers 0 to 15",
                          name);
            return;
        }
    }
    sn_real v[6];
    int n = custom_data(r, k, name, v, 1, 6);
    if (n < 0) return;
    for (int i = 0; i < n && i < 5; i++)
        e->value[i] = v[i];
    if (n == 6 && v[5] != 0 && v[5] != 1) {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "numeric", "'%s': bilateral %g must be 0 or 1", name,
                      v[5]);
        return;
    }
    if (n == 6) e->bilateral = v[5] == 1;
    char msg[160];
    if (sni_spec_soft_check(e, msg, sizeof msg))
        sni_mjcf_fail(r, k, SN_ERR_MODEL, "numeric", "'%s': %s", name, msg);
}


// one <custom> entry named sinew:...
static void custom_sinew(reader* r, int k, const char* name) {
    const char* el = ename(r, k);
    int numeric = !strcmp(el, "numeric");
    const char* key = name + 6;
    size_t len = strcspn(key, ":");
    if (!strcmp(el, "text") && !strcmp(key, "contact")) {
        const char* d = get(r, k, "data");
        if (!d || (strcmp(d, "soft") && strcmp(d, "hard"))) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "text", "'%s': data=\"%.40s\": hard or soft", name,
                          d ? d : "");
            return;
        }
        r->s->option_contact_model = !strcmp(d, "soft");
        r->s->contact_model_line = NODE(r, k).line;
    } else if (numeric && len == 12 && !strncmp(key, "soft_contact", len)) {
        custom_soft(r, k, name, key + len);
    } else if (numeric && key[len] == ':' && key[len + 1] &&
               ((len == 8 && !strncmp(key, "material", len)) ||
                (len == 11 && !strncmp(key, "soft_points", len)))) {
        const char* body = key + len + 1;
        int mat = len == 8;
        sn_real v[3 * SN_MJCF_SOFT_POINTS];
        int n = custom_data(r, k, name, v, mat ? 1 : 3, mat ? 1 : 3 * SN_MJCF_SOFT_POINTS);
        if (n < 0) return;
        if (mat && !(v[0] == floor(v[0]) && v[0] >= 0 && v[0] <= 15)) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, "numeric", "'%s': the id %g must be 0 to 15", name,
                          v[0]);
            return;
        }
        if (!mat && n % 3) {
            sni_mjcf_fail(r, k, SN_ERR_PARSE, "numeric",
                          "'%s': %d numbers: the points are x y z each", name, n);
            return;
        }
        for (int i = 0; i < (mat ? 1 : n / 3); i++)
            if (!sni_spec_soft_ref_add(r->s, body, mat ? (int)v[0] : -1, mat ? NULL : v + 3 * i,
                                       "numeric", NODE(r, k).line)) {
                sni_mjcf_fail(r, k, SN_ERR_NOMEM, "numeric", "out of memory");
                return;
            }
    } else {
        sni_mjcf_fail(r, k, SN_ERR_MODEL, el,
                      "'%s' is not one of sinew's entries (text sinew:contact; numeric "
                      "sinew:soft_contact[:A:B], sinew:material:BODY, sinew:soft_points:BODY)",
                      name);
    }
}


void sni_mjcf_custom(reader* r, int node) {
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* name = get(r, k, "name");
        if (name && !strncmp(name, "sinew:", 6))
            custom_sinew(r, k, name);
        else
            sni_mjcf_note_ignored(r, "custom");
    }
}
