// SPDX-License-Identifier: Apache-2.0
// compile_refs.c: the parts of a model that refer to joints and links by name, resolved once the
// tree is built: mimic leaders (no cycles among them), actuators and their couplings, loop
// constraints (with the redundancy warnings of seed 001 and the nominal configuration) and the
// body pairs excluded from collision. Names are found through hash tables: O(n) in all.
#include "base/smath.h"
#include "loops/loops.h"
#include "model/compile.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

// mimic leaders, and no cycles among them. O(njoint): leaders are found through a hash table
// and each joint is walked once (a joint has at most one leader).
sn_status sni_compile_mimic(compiler* c, sn_model* m) {
    int any = 0;
    for (int i = 0; i < c->nj; i++) {
        if (c->joints[i].mimic_name < 0) continue;
        if (c->joints[i].type == SN_JOINT_FIXED)
            sni_spec_warn(c->s, c->joints[i].mimic_line, "mimic",
                          "in joint '%s': <mimic> on a "
                          "fixed joint ignored",
                          JNAME(c, i));
        else
            any = 1;
    }
    if (!any) return SN_OK;
    name_table jt;
    if (sni_compile_table_init(&jt, c->alloc, c->nj) != SN_OK)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int i = 0; i < c->nj; i++)
        sni_compile_table_find(&jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint),
                               JNAME(c, i), i);
    sn_status st = SN_OK;
    for (int j = 0; j < m->njoint && st == SN_OK; j++) {
        int u = m->joint_ujoint[j];
        if (u >= c->nj || c->joints[u].mimic_name < 0) continue;
        const sni_joint* uj = &c->joints[u];
        const char* leader = SNI_NAME(c->s, uj->mimic_name);
        int lu = sni_compile_table_find(&jt, c->s->names.data, &c->joints[0].name,
                                        sizeof(sni_joint), leader, -1);
        int lj = lu >= 0 ? m->ujoint_joint[lu] : SN_NONE;
        if (lj < 0)
            st = sni_compile_error(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                                   "joint '%s' mimics '%s', which "
                                   "is not a movable joint",
                                   JNAME(c, u), leader);
        else if (lj == j && uj->mimic_multiplier != 0)
            st = sni_compile_error(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                                   "joint '%s' mimics itself (only a lock, multiplier 0, may)",
                                   JNAME(c, u));
        else if (m->joint_nv[lj] != 1 || m->joint_nv[j] != 1)
            st = sni_compile_error(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                                   "mimic joints must both have "
                                   "one DOF ('%s' mimics '%s')",
                                   JNAME(c, u), leader);
        if (st != SN_OK) break;
        m->joint_mimic[j] = lj;
        m->joint_mimic_multiplier[j] = uj->mimic_multiplier;
        m->joint_mimic_offset[j] = uj->mimic_offset;
    }
    sni_compile_table_free(&jt);
    if (st != SN_OK) return st;
    // 0 unvisited, 1 on the walk in progress, 2 done
    char* state = sni_alloc(c->alloc, (size_t)m->njoint);
    if (!state) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int j = 0; j < m->njoint && st == SN_OK; j++) {
        int k = j;
        while (k >= 0 && state[k] == 0) // a lock (a joint that mimics itself) ends the walk
            state[k] = 1, k = m->joint_mimic[k] == k ? SN_NONE : m->joint_mimic[k];
        if (k >= 0 && state[k] == 1) {
            const sni_joint* uj = &c->joints[m->joint_ujoint[k]];
            st = sni_compile_error(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                                   "mimic joints form a cycle "
                                   "through joint '%s'",
                                   JNAME(c, m->joint_ujoint[k]));
        }
        for (k = j; k >= 0 && state[k] == 1;
             k = m->joint_mimic[k] == k ? SN_NONE : m->joint_mimic[k])
            state[k] = 2;
    }
    sni_free(c->alloc, state, (size_t)m->njoint);
    return st;
}

// ---- actuators (the <actuator> extension) ----

// the movable 1-DOF joint named `name`, for the <el> at `line` of actuator `act`
static sn_status actuated_joint(compiler* c, const sn_model* m, name_table* jt, const char* act,
                                const char* name, int line, const char* el, int* out) {
    int u = -1; // a robot without joints has no joint array to look in
    if (c->nj > 0)
        u = sni_compile_table_find(jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint),
                                   name, -1);
    if (u < 0)
        return sni_compile_error(c, SN_ERR_MODEL, line, el,
                                 "in actuator '%s': joint '%s' not found", act, name);
    int j = m->ujoint_joint[u];
    if (j < 0 || m->joint_nv[j] != 1)
        return sni_compile_error(
            c, SN_ERR_MODEL, line, el,
            "in actuator '%s': joint '%s' is %s, not a movable joint with one DOF "
            "(revolute, continuous or prismatic)",
            act, name, sn_joint_type_str(c->joints[u].type));
    *out = j;
    return SN_OK;
}

// one actuator: its joint and couplings resolved; a coupling names another joint than the driven
// one, and each joint at most once
static sn_status fill_actuator(compiler* c, sn_model* m, name_table* jt, int i) {
    const sni_actuator* a = (const sni_actuator*)c->s->actuators.data + i;
    const char* act = SNI_NAME(c->s, a->name);
    int* cj = m->actuator_coupling_joint + SN_ACTUATOR_MAX_COUPLINGS * i;
    sn_real* cr = m->actuator_coupling_ratio + SN_ACTUATOR_MAX_COUPLINGS * i;
    sn_status st = actuated_joint(c, m, jt, act, SNI_NAME(c->s, a->joint_name), a->line, "actuator",
                                  &m->actuator_joint[i]);
    for (int k = 0; k < SN_ACTUATOR_MAX_COUPLINGS; k++)
        cj[k] = SN_NONE, cr[k] = 0;
    for (int k = 0; k < a->ncoupling && st == SN_OK; k++) {
        const char* name = SNI_NAME(c->s, a->coupling_name[k]);
        st = actuated_joint(c, m, jt, act, name, a->coupling_line[k], "coupling", &cj[k]);
        if (st == SN_OK && cj[k] == m->actuator_joint[i])
            st = sni_compile_error(
                c, SN_ERR_MODEL, a->coupling_line[k], "coupling",
                "in actuator '%s': joint '%s' is the driven joint, not a coupling (its "
                "ratio is gear_ratio)",
                act, name);
        for (int e = 0; e < k && st == SN_OK; e++)
            if (cj[e] == cj[k])
                st = sni_compile_error(
                    c, SN_ERR_MODEL, a->coupling_line[k], "coupling",
                    "in actuator '%s': joint '%s' is coupled twice (first at line %d)", act, name,
                    a->coupling_line[e]);
        cr[k] = a->coupling_ratio[k];
    }
    m->actuator_name[i] = (int)a->name;
    m->actuator_gear[i] = a->gear;
    m->actuator_kt[i] = a->kt;
    m->actuator_vbus[i] = a->vbus;
    m->actuator_resistance[i] = a->resistance;
    m->actuator_kv[i] = a->kv;
    m->actuator_peak_torque[i] = a->peak_torque;
    m->actuator_output_damping[i] = a->output_damping;
    m->actuator_output_friction[i] = a->output_friction;
    m->actuator_ncoupling[i] = a->ncoupling;
    return st;
}

// actuators in file order: unique names (a namespace of their own), joints resolved
sn_status sni_compile_actuators(compiler* c, sn_model* m) {
    if (m->nactuator == 0) return SN_OK;
    const sni_actuator* a = (const sni_actuator*)c->s->actuators.data;
    name_table jt, at;
    if (sni_compile_table_init(&jt, c->alloc, c->nj) != SN_OK)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    if (sni_compile_table_init(&at, c->alloc, m->nactuator) != SN_OK) {
        sni_compile_table_free(&jt);
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    }
    for (int i = 0; i < c->nj; i++)
        sni_compile_table_find(&jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint),
                               JNAME(c, i), i);
    sn_status st = SN_OK;
    for (int i = 0; i < m->nactuator && st == SN_OK; i++) {
        const char* name = SNI_NAME(c->s, a[i].name);
        int prev = sni_compile_table_find(&at, c->s->names.data, &a[0].name, sizeof(sni_actuator),
                                          name, i);
        if (prev >= 0)
            st = sni_compile_error(c, SN_ERR_MODEL, a[i].line, "actuator",
                                   "actuator '%s' is not unique (first at line %d)", name,
                                   a[prev].line);
        else
            st = fill_actuator(c, m, &jt, i);
    }
    sni_compile_table_free(&at);
    sni_compile_table_free(&jt);
    return st;
}

// ---- loop constraints ----

// a constraint whose links are welded together, or joined by one joint that already holds
// every direction it constrains (a pin on a hinge axis, seed 001's lever-arm rule:
// sni_constraint_held, model/placement.c), is redundant: warn once. Longer paths are left to the
// loops' attachment (loops/rows.c).
static int check_redundant(compiler* c, const sn_model* m, int i, const char* el, int line) {
    int f1 = m->constraint_frame1[i], f2 = m->constraint_frame2[i], j = SN_NONE;
    const char* n1 = m->names + m->frame_name[f1];
    const char* n2 = m->names + m->frame_name[f2];
    int held = sni_constraint_held(m, i, &j);
    if (held == 1)
        sni_spec_warn(c->s, line, el,
                      "constraint between '%s' and '%s' is redundant: fixed joints "
                      "weld the two links together",
                      n1, n2);
    else if (held == 2)
        sni_spec_warn(c->s, line, el,
                      "constraint between '%s' and '%s' is redundant: joint '%s' "
                      "already holds every direction it constrains (the anchor is on its axis)",
                      n1, n2, m->names + m->joint_name[j]);
    return held != 0;
}

static uint64_t constraint_hash(const sn_model* m, int i) {
    uint64_t h = 1469598103934665603ull;
    int key[3] = {m->constraint_type[i], m->constraint_frame1[i], m->constraint_frame2[i]};
    const unsigned char* b = (const unsigned char*)key;
    for (size_t k = 0; k < sizeof key; k++)
        h = (h ^ b[k]) * 1099511628211ull;
    b = (const unsigned char*)(m->constraint_anchor + 3 * i);
    for (size_t k = 0; k < 3 * sizeof(sn_real); k++)
        h = (h ^ b[k]) * 1099511628211ull;
    return h;
}

static int same_constraint(const sn_model* m, int i, int k) {
    return m->constraint_type[i] == m->constraint_type[k] &&
           m->constraint_frame1[i] == m->constraint_frame1[k] &&
           m->constraint_frame2[i] == m->constraint_frame2[k] &&
           m->constraint_naxis[i] == m->constraint_naxis[k] &&
           !memcmp(m->constraint_anchor + 3 * i, m->constraint_anchor + 3 * k,
                   3 * sizeof(sn_real)) &&
           !memcmp(m->constraint_anchor2 + 3 * i, m->constraint_anchor2 + 3 * k,
                   3 * sizeof(sn_real)) &&
           !memcmp(m->constraint_rot2 + 9 * i, m->constraint_rot2 + 9 * k, 9 * sizeof(sn_real)) &&
           !memcmp(m->constraint_axes + 6 * i, m->constraint_axes + 6 * k, 6 * sizeof(sn_real));
}

// an exact repeat of an earlier constraint is redundant: warn once per repeat (unless `warned`
// already says so). O(nconstraint).
static sn_status check_duplicates(compiler* c, const sn_model* m, const char* warned) {
    const sni_constraint* k = (const sni_constraint*)c->s->constraints.data;
    size_t cap = 16;
    while (cap < (size_t)m->nconstraint * 2)
        cap *= 2;
    int* slot = sni_alloc(c->alloc, cap * sizeof(int));
    if (!slot) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (size_t e = 0; e < cap; e++)
        slot[e] = -1;
    for (int i = 0; i < m->nconstraint; i++) {
        size_t e = constraint_hash(m, i) & (cap - 1);
        while (slot[e] >= 0 && !same_constraint(m, i, slot[e]))
            e = (e + 1) & (cap - 1);
        if (slot[e] < 0) {
            slot[e] = i;
            continue;
        }
        if (!warned[i])
            sni_spec_warn(c->s, k[i].line,
                          k[i].element ? k[i].element
                          : k[i].type  ? "equality"
                                       : "pin",
                          "constraint is "
                          "redundant: it repeats the one at line %d",
                          k[slot[e]].line);
    }
    sni_free(c->alloc, slot, cap * sizeof(int));
    return SN_OK;
}

// excluded body pairs: link names to bodies
sn_status sni_compile_excludes(compiler* c, sn_model* m, name_table* links) {
    const sni_exclude* x = (const sni_exclude*)(void*)c->s->excludes.data;
    for (int i = 0; i < m->nexclude; i++) {
        const char* names[2] = {SNI_NAME(c->s, x[i].body1), SNI_NAME(c->s, x[i].body2)};
        for (int e = 0; e < 2; e++) {
            int f = sni_compile_table_find(links, c->s->names.data, &c->links[0].name,
                                           sizeof(sni_link), names[e], -1);
            if (f < 0 && !strcmp(names[e], "world")) f = c->root;
            if (f < 0)
                return sni_compile_error(c, SN_ERR_MODEL, x[i].line, "exclude",
                                         "body%d '%s' is not a body", e + 1, names[e]);
            m->exclude_body[2 * i + e] = m->frame_body[f];
        }
    }
    return SN_OK;
}

// constraints: link names, redundancy, nominal configuration
sn_status sni_compile_constraints(compiler* c, sn_model* m, name_table* links) {
    const sni_constraint* k = (const sni_constraint*)c->s->constraints.data;
    size_t nw = (size_t)m->nconstraint + 1;
    char* warned = sni_alloc(c->alloc, nw);
    if (!warned) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sn_status st = SN_OK;
    for (int i = 0; i < m->nconstraint && st == SN_OK; i++) {
        const char* names[2] = {SNI_NAME(c->s, k[i].body1), SNI_NAME(c->s, k[i].body2)};
        const char* el = k[i].element ? k[i].element : k[i].type ? "equality" : "pin";
        for (int e = 0; e < 2; e++) {
            int f = sni_compile_table_find(links, c->s->names.data, &c->links[0].name,
                                           sizeof(sni_link), names[e], -1);
            if (f < 0 && m->is_floating && !strcmp(names[e], "world"))
                st = sni_compile_error(
                    c, SN_ERR_MODEL, k[i].line, el,
                    "body%d 'world' of the constraint is "
                    "not a link: this robot has a floating base, and loop constraints "
                    "connect bodies of the same articulated system",
                    e + 1);
            else if (f < 0)
                st = sni_compile_error(c, SN_ERR_MODEL, k[i].line, el,
                                       "body%d '%s' of the constraint is not "
                                       "a link",
                                       e + 1, names[e]);
            if (st != SN_OK) break;
            if (e == 0)
                m->constraint_frame1[i] = f;
            else
                m->constraint_frame2[i] = f;
        }
        if (st != SN_OK) break;
        m->constraint_type[i] = k[i].type;
        m->constraint_naxis[i] = k[i].naxis;
        v3_copy(m->constraint_anchor + 3 * i, k[i].anchor);
        if (k[i].has_anchor2)
            v3_copy(m->constraint_anchor2 + 3 * i, k[i].anchor2);
        else
            v3_set(m->constraint_anchor2 + 3 * i, NAN, NAN, NAN);
        for (int e = 0; e < 9; e++)
            m->constraint_rot2[9 * i + e] = k[i].has_rot2 ? k[i].rot2[e] : (sn_real)NAN;
        memcpy(m->constraint_axes + 6 * i, k[i].axes, sizeof k[i].axes);
        warned[i] = (char)check_redundant(c, m, i, el, k[i].line);
    }
    if (st == SN_OK && m->nconstraint > 1) st = check_duplicates(c, m, warned);
    sni_free(c->alloc, warned, nw);
    if (st != SN_OK || !m->nominal_config) return st;
    int line = c->s->constraints_line;
    if (c->s->nnominal != m->nq)
        return sni_compile_error(c, SN_ERR_MODEL, line, "constraints",
                                 "nominal_config has %d entries; the "
                                 "generalized coordinate has %d",
                                 c->s->nnominal, m->nq);
    memcpy(m->nominal_config, c->s->nominal, (size_t)m->nq * sizeof(sn_real));
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], a = m->joint_qadr[j];
        if (t == SN_JOINT_SPHERICAL || t == SN_JOINT_FLOATING) {
            sn_real* q = m->nominal_config + a + (t == SN_JOINT_FLOATING ? 3 : 0);
            sn_real n = quat_norm_safe(q);
            if (!(n > 0))
                return sni_compile_error(c, SN_ERR_MODEL, line, "constraints",
                                         "nominal_config: the quaternion "
                                         "of joint '%s' is zero",
                                         m->names + m->joint_name[j]);
            if (fabs(n - 1) > 1e-9) {
                sni_spec_warn(c->s, line, "constraints",
                              "nominal_config: quaternion of joint "
                              "'%s' has norm %g and was normalized",
                              m->names + m->joint_name[j], n);
                quat_normalize_safe(q, q);
            }
        } else {
            int v = m->joint_vadr[j];
            sn_real x = m->nominal_config[a];
            if (m->dof_limited[v] && (x < m->dof_lower[v] || x > m->dof_upper[v]))
                sni_spec_warn(c->s, line, "constraints",
                              "nominal_config: joint '%s' at %g is "
                              "outside its limits [%g, %g]",
                              m->names + m->joint_name[j], x, m->dof_lower[v], m->dof_upper[v]);
        }
    }
    return SN_OK;
}


// ---- sinew's soft contact extension (docs/expo.md "Soft parameters") ----

// the parameter sets: the world's first (what it leaves out the defaults: those of
// sn_soft_params_default, restated here as the model cannot call the world's code), then the
// pairs in the file's order (what they leave out the world's); one world set, one set a pair
static sn_status soft_sets(compiler* c, sn_model* m) {
    const sni_soft_spec* e = (const sni_soft_spec*)(void*)c->s->soft.data;
    int n = m->nsoft, world = -1;
    sn_real w[5] = {1e5, 1e5, 300, 300, 1};
    int wb = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if ((e[j].material[0] == e[i].material[0] && e[j].material[1] == e[i].material[1]) ||
                (e[j].material[0] == e[i].material[1] && e[j].material[1] == e[i].material[0]))
                return sni_compile_error(
                    c, SN_ERR_MODEL, e[i].line, e[i].element,
                    e[i].material[0] < 0
                        ? "a second set of the world's soft parameters (the first is at line %d)"
                        : "a second set of this material pair's soft parameters (the first is at "
                          "line %d)",
                    e[j].line);
        if (e[i].material[0] < 0) world = i;
    }
    if (world >= 0) {
        for (int k = 0; k < 5; k++)
            if (!isnan(e[world].value[k])) w[k] = e[world].value[k];
        if (e[world].bilateral >= 0) wb = e[world].bilateral;
    }
    for (int i = 0, o = 0; i <= n; i++) {
        // the world's set at 0, then the others
        int from = i == 0 ? world : i - 1;
        if (from < 0 || (i > 0 && from == world)) continue;
        for (int k = 0; k < 5; k++)
            m->soft_param[5 * o + k] = isnan(e[from].value[k]) ? w[k] : e[from].value[k];
        m->soft_bilateral[o] = e[from].bilateral >= 0 ? e[from].bilateral : wb;
        m->soft_material[2 * o] = e[from].material[0];
        m->soft_material[2 * o + 1] = e[from].material[1];
        o++;
    }
    return SN_OK;
}


sn_status sni_compile_soft(compiler* c, sn_model* m, name_table* links) {
    for (int b = 0; b < m->nbody; b++)
        m->body_material[b] = SN_NONE;
    sn_status st = soft_sets(c, m);
    const sni_soft_ref* r = (const sni_soft_ref*)(void*)c->s->soft_refs.data;
    for (int i = 0, np = 0; i < SNI_NSOFTREF(c->s) && st == SN_OK; i++) {
        const char* name = SNI_NAME(c->s, r[i].link);
        int f = sni_compile_table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link),
                                       name, -1);
        if (f < 0)
            return sni_compile_error(c, SN_ERR_MODEL, r[i].line, r[i].element,
                                     "link '%s' is not a link of the model", name);
        int b = m->frame_body[f];
        // a material on a link welded to the world is its fixed geometry's (body 0: what the
        // soft points of other systems touch there)
        if (b < 1 && r[i].id < 0)
            return sni_compile_error(c, SN_ERR_MODEL, r[i].line, r[i].element,
                                     "link '%s' is fixed to the world: a soft point must be on a "
                                     "moving body",
                                     name);
        if (r[i].id < 0) { // a soft point
            m->soft_point_frame[np] = f;
            memcpy(m->soft_point_offset + 3 * np, r[i].offset, 3 * sizeof(sn_real));
            np++;
            continue;
        }
        if (m->body_material[b] >= 0 && m->body_material[b] != r[i].id)
            return sni_compile_error(c, SN_ERR_MODEL, r[i].line, r[i].element,
                                     "link '%s' is part of body '%s' (fixed joints merge links), "
                                     "which another material element gives id %d, not %d",
                                     name, m->names + m->body_name[b], m->body_material[b],
                                     r[i].id);
        m->body_material[b] = r[i].id;
    }
    return st;
}
