// SPDX-License-Identifier: Apache-2.0
// compile.c: turns a spec into the flat, immutable model. Checks the topology without recursion
// (names through a hash table, one parent per link, one root, cycles found by walking parent
// links), merges links joined by fixed joints into bodies, orders bodies, joints and DOFs
// depth-first with children in file order, and lays everything out in one allocation. Every
// pass is linear in the model (hash tables for names, no per-link recursion, a mass-matrix check
// that never forms the matrix), so a 100 000-link chain compiles in a fraction of a second.
#include "base/smath.h"
#include "dynamics/dyn.h"
#include "model/hull.h"
#include "model/mesh.h"
#include "model/spec.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---- a string hash set over name-pool offsets ----

typedef struct name_table {
    int* slot; // index of the item, -1 empty
    size_t cap;
    const sn_allocator* alloc;
} name_table;

static uint64_t hash_str(const char* s) {
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

static int table_init(name_table* t, const sn_allocator* a, int n) {
    t->cap = 16;
    while (t->cap < (size_t)n * 2)
        t->cap *= 2;
    t->alloc = a;
    t->slot = sni_alloc(a, t->cap * sizeof(int));
    if (!t->slot) return 0;
    for (size_t i = 0; i < t->cap; i++)
        t->slot[i] = -1;
    return 1;
}

static void table_free(name_table* t) {
    sni_free(t->alloc, t->slot, t->cap * sizeof(int));
}

// find `name` among items whose names are names[offs[i]]; insert item `add` (>= 0) when absent.
// Returns the existing item or -1.
static int table_find(name_table* t, const char* pool, const long* offs, size_t stride,
                      const char* name, int add) {
    size_t i = hash_str(name) & (t->cap - 1);
    while (t->slot[i] >= 0) {
        long off = *(const long*)((const char*)offs + stride * (size_t)t->slot[i]);
        if (strcmp(pool + off, name) == 0) return t->slot[i];
        i = (i + 1) & (t->cap - 1);
    }
    if (add >= 0) t->slot[i] = add;
    return -1;
}

// ---- layout of the single block ----

#define carve sni_carve

#define CARVE(c, field, n) (m->field = carve(c, (size_t)(n), sizeof *m->field))

static void layout(sn_model* m, carver* c, size_t names_len, size_t warn_len, int nwarn,
                   int has_nominal) {
    int nb = m->nbody, nj = m->njoint, nv = m->nv, nf = m->nframe, nu = m->nujoint;
    int ng = m->ngeom, nc = m->nconstraint, nm = m->nmaterial, na = m->nactuator;
    int nac = SN_ACTUATOR_MAX_COUPLINGS * na;
    CARVE(c, body_parent, nb), CARVE(c, body_joint, nb), CARVE(c, body_name, nb);
    CARVE(c, body_mass, nb), CARVE(c, body_com, 3 * nb), CARVE(c, body_inertia, 9 * nb);
    CARVE(c, subtree_mass, nb);
    CARVE(c, joint_type, nj), CARVE(c, joint_body, nj), CARVE(c, joint_qadr, nj);
    CARVE(c, joint_vadr, nj), CARVE(c, joint_nq, nj), CARVE(c, joint_nv, nj);
    CARVE(c, joint_name, nj), CARVE(c, joint_ujoint, nj), CARVE(c, joint_pos, 3 * nj);
    CARVE(c, joint_rot, 9 * nj), CARVE(c, joint_axis, 3 * nj), CARVE(c, joint_mimic, nj);
    CARVE(c, joint_mimic_multiplier, nj), CARVE(c, joint_mimic_offset, nj);
    CARVE(c, joint_spring_ref, nj);
    CARVE(c, dof_joint, nv), CARVE(c, dof_parent, nv), CARVE(c, dof_body, nv);
    CARVE(c, dof_armature, nv), CARVE(c, dof_damping, nv), CARVE(c, dof_friction, nv);
    CARVE(c, dof_stiffness, nv), CARVE(c, dof_limited, nv), CARVE(c, dof_lower, nv);
    CARVE(c, dof_upper, nv), CARVE(c, dof_velocity_limit, nv), CARVE(c, dof_effort_limit, nv);
    CARVE(c, dof_kp, nv), CARVE(c, dof_kd, nv);
    CARVE(c, frame_body, nf), CARVE(c, frame_parent, nf), CARVE(c, frame_name, nf);
    CARVE(c, frame_order, nf);
    CARVE(c, frame_pos, 3 * nf), CARVE(c, frame_rot, 9 * nf), CARVE(c, frame_mass, nf);
    CARVE(c, frame_com, 3 * nf), CARVE(c, frame_inertia, 9 * nf);
    CARVE(c, ujoint_type, nu), CARVE(c, ujoint_parent, nu), CARVE(c, ujoint_child, nu);
    CARVE(c, ujoint_joint, nu), CARVE(c, ujoint_name, nu);
    CARVE(c, geom_type, ng), CARVE(c, geom_frame, ng), CARVE(c, geom_is_visual, ng);
    CARVE(c, geom_material, ng), CARVE(c, geom_mesh, ng), CARVE(c, geom_size, 3 * ng);
    CARVE(c, geom_friction, ng), CARVE(c, geom_condim, ng);
    CARVE(c, exclude_body, 2 * m->nexclude);
    CARVE(c, geom_pos, 3 * ng), CARVE(c, geom_rot, 9 * ng);
    CARVE(c, geom_vert_adr, ng), CARVE(c, geom_vert_num, ng), CARVE(c, mesh_vert, 3 * m->nmeshvert);
    CARVE(c, material_name, nm), CARVE(c, material_rgba, 4 * nm);
    CARVE(c, constraint_type, nc), CARVE(c, constraint_frame1, nc);
    CARVE(c, constraint_frame2, nc), CARVE(c, constraint_naxis, nc);
    CARVE(c, constraint_anchor, 3 * nc), CARVE(c, constraint_axes, 6 * nc);
    CARVE(c, constraint_anchor2, 3 * nc), CARVE(c, constraint_rot2, 9 * nc);
    CARVE(c, actuator_name, na), CARVE(c, actuator_joint, na), CARVE(c, actuator_gear, na);
    CARVE(c, actuator_kt, na), CARVE(c, actuator_vbus, na), CARVE(c, actuator_resistance, na);
    CARVE(c, actuator_kv, na), CARVE(c, actuator_peak_torque, na);
    CARVE(c, actuator_output_damping, na), CARVE(c, actuator_output_friction, na);
    CARVE(c, actuator_ncoupling, na), CARVE(c, actuator_coupling_joint, nac);
    CARVE(c, actuator_coupling_ratio, nac);
    CARVE(c, key_name, m->nkey), CARVE(c, key_q, (size_t)m->nkey * m->nq);
    CARVE(c, key_u, (size_t)m->nkey * nv);
    CARVE(c, nominal_config, has_nominal ? m->nq : 0);
    if (!has_nominal) m->nominal_config = NULL;
    CARVE(c, q0, m->nq);
    CARVE(c, names, names_len);
    CARVE(c, warnings, nwarn);
    // warning texts follow the pointer array
    if (warn_len) carve(c, warn_len, 1);
}

// ---- the compile context ----

typedef struct compiler {
    sni_spec* s;
    sn_error* err;
    const sn_allocator* alloc;
    int nl, nj;
    sni_link* links;
    sni_joint* joints;
    int* parent_joint; // per link: the URDF joint whose child it is, -1 (nl)
    int* child_start;  // CSR of child joints per link (nl + 1)
    int* child_list;   // (nj)
    int* order;        // links in depth-first order (nl)
    int root;
} compiler;

static sn_status cerr(compiler* c, sn_status code, int line, const char* el, const char* fmt, ...) {
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return sni_error(c->err, code, c->s->file, line, el, "%s", text);
}

#define LNAME(c, i) SNI_NAME((c)->s, (c)->links[i].name)
#define JNAME(c, i) SNI_NAME((c)->s, (c)->joints[i].name)

// unique names; resolve joint parent and child links; one parent per link
static sn_status resolve_names(compiler* c, name_table* links) {
    for (int i = 0; i < c->nl; i++) {
        int prev = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link),
                              LNAME(c, i), i);
        if (prev >= 0)
            return cerr(c, SN_ERR_MODEL, c->links[i].line, "link",
                        "link '%s' is not unique (first at line %d)", LNAME(c, i),
                        c->links[prev].line);
    }
    name_table jt;
    if (!table_init(&jt, c->alloc, c->nj)) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sn_status st = SN_OK;
    for (int i = 0; i < c->nj && st == SN_OK; i++) {
        int prev = table_find(&jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint),
                              JNAME(c, i), i);
        if (prev >= 0)
            st = cerr(c, SN_ERR_MODEL, c->joints[i].line, "joint",
                      "joint '%s' is not unique (first at line %d)", JNAME(c, i),
                      c->joints[prev].line);
    }
    table_free(&jt);
    if (st != SN_OK) return st;
    for (int i = 0; i < c->nl; i++)
        c->parent_joint[i] = -1;
    for (int i = 0; i < c->nj; i++) {
        sni_joint* j = &c->joints[i];
        if (j->parent_name < 0 || j->child_name < 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint", "joint '%s' has no <%s>", JNAME(c, i),
                        j->parent_name < 0 ? "parent" : "child");
        const char* pn = SNI_NAME(c->s, j->parent_name);
        const char* cn = SNI_NAME(c->s, j->child_name);
        j->parent =
            table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link), pn, -1);
        j->child = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link), cn, -1);
        if (j->parent < 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint",
                        "parent link '%s' of joint '%s' not "
                        "found",
                        pn, JNAME(c, i));
        if (j->child < 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint",
                        "child link '%s' of joint '%s' not "
                        "found",
                        cn, JNAME(c, i));
        if (j->parent == j->child)
            return cerr(c, SN_ERR_MODEL, j->line, "joint",
                        "joint graph contains a cycle through "
                        "links '%s' (joint '%s' joins the link to itself)",
                        pn, JNAME(c, i));
        int other = c->parent_joint[j->child];
        if (other >= 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint",
                        "link '%s' has two parents (joints "
                        "'%s' and '%s'); close kinematic loops with <constraints>",
                        cn, JNAME(c, other), JNAME(c, i));
        c->parent_joint[j->child] = i;
    }
    return SN_OK;
}

// one root, the depth-first order, and cycles
static sn_status order_links(compiler* c) {
    int roots = 0, second = -1;
    c->root = -1;
    for (int i = 0; i < c->nl; i++)
        if (c->parent_joint[i] < 0) {
            if (roots == 0)
                c->root = i;
            else if (roots == 1)
                second = i;
            roots++;
        }
    if (roots > 1)
        return cerr(c, SN_ERR_MODEL, c->links[second].line, "link",
                    "two root links '%s' and "
                    "'%s': the joints must connect every link to one root",
                    LNAME(c, c->root), LNAME(c, second));
    // children lists in file order
    for (int i = 0; i <= c->nl; i++)
        c->child_start[i] = 0;
    for (int i = 0; i < c->nj; i++)
        c->child_start[c->joints[i].parent + 1]++;
    for (int i = 0; i < c->nl; i++)
        c->child_start[i + 1] += c->child_start[i];
    int* fill = c->order; // used as a cursor here, overwritten by the traversal below
    for (int i = 0; i < c->nl; i++)
        fill[i] = c->child_start[i];
    for (int i = 0; i < c->nj; i++)
        c->child_list[fill[c->joints[i].parent]++] = i;
    // iterative depth-first traversal; the stack holds links, children pushed in reverse
    int n = 0;
    int* stk = sni_alloc(c->alloc, (size_t)(c->nl + 1) * sizeof(int));
    if (!stk) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    int top = 0;
    if (c->root >= 0) stk[top++] = c->root;
    while (top > 0) {
        int l = stk[--top];
        c->order[n++] = l;
        for (int k = c->child_start[l + 1] - 1; k >= c->child_start[l]; k--)
            stk[top++] = c->joints[c->child_list[k]].child;
    }
    sni_free(c->alloc, stk, (size_t)(c->nl + 1) * sizeof(int));
    if (n == c->nl) return SN_OK;
    // some links are not reachable: each has a parent, so following parents ends in a cycle
    char* seen = sni_alloc(c->alloc, (size_t)c->nl);
    if (!seen) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int i = 0; i < n; i++)
        seen[c->order[i]] = 2;
    int start = -1;
    for (int i = 0; i < c->nl && start < 0; i++)
        if (!seen[i]) start = i;
    int l = start;
    while (seen[l] != 1) {
        seen[l] = 1;
        l = c->joints[c->parent_joint[l]].parent;
    }
    char list[400] = "";
    int first = l, count = 0;
    do {
        size_t len = strlen(list);
        if (len < sizeof list - 80)
            snprintf(list + len, sizeof list - len, "%s'%s'", count ? ", " : "", LNAME(c, l));
        count++;
        l = c->joints[c->parent_joint[l]].parent;
    } while (l != first && count < 1000);
    sni_free(c->alloc, seen, (size_t)c->nl);
    const sni_joint* closing = &c->joints[c->parent_joint[first]];
    return cerr(c, SN_ERR_MODEL, closing->line, "joint",
                "joint graph contains a cycle through "
                "links %s%s",
                list, roots == 0 ? " (no root link)" : "");
}

// rigid transform composition: (R, p) = (Ra, pa) * (Rb, pb)
static void compose(sn_real* r, sn_real* p, const sn_real* ra, const sn_real* pa, const sn_real* rb,
                    const sn_real* pb) {
    sn_real t[3];
    m3_mul(r, ra, rb);
    m3_mul_v3(t, ra, pb);
    v3_add(p, pa, t);
}

// joint types and addresses; returns the counts
typedef struct counts {
    int nbody, njoint, nq, nv, nujoint;
} counts;

static sn_status count_model(compiler* c, int floating, counts* k) {
    memset(k, 0, sizeof *k);
    k->nbody = 1 + (floating ? 1 : 0);
    k->njoint = floating ? 1 : 0;
    k->nq = floating ? 7 : 0;
    k->nv = floating ? 6 : 0;
    k->nujoint = c->nj + (floating ? 1 : 0);
    for (int i = 0; i < c->nj; i++) {
        sni_joint* j = &c->joints[i];
        switch (j->type) {
        case SN_JOINT_FIXED:
            continue;
        case SN_JOINT_SPHERICAL:
            k->nq += 4, k->nv += 3;
            break;
        case SN_JOINT_FLOATING:
            if (floating || j->parent != c->root || c->parent_joint[j->parent] >= 0)
                return cerr(c, SN_ERR_MODEL, j->line, "joint",
                            "joint '%s': a floating joint is "
                            "only supported from the fixed root link to the base",
                            JNAME(c, i));
            k->nq += 7, k->nv += 6;
            break;
        default:
            k->nq += 1, k->nv += 1;
            break;
        }
        k->nbody++;
        k->njoint++;
    }
    return SN_OK;
}

// add a link's mass properties, given in the link frame, to a body at frame pose (r, p)
static void merge_inertia(sn_model* m, int b, const sn_real* r, const sn_real* p,
                          const sni_link* l) {
    if (l->mass <= 0) return;
    sn_real c[3], ic[9];
    m3_mul_v3(c, r, l->com);
    v3_add(c, c, p);
    m3_rotate_sym(ic, r, l->inertia);
    sn_real m0 = m->body_mass[b], m1 = l->mass, mt = m0 + m1;
    sn_real* bc = m->body_com + 3 * b;
    sn_real nc[3];
    for (int k = 0; k < 3; k++)
        nc[k] = (m0 * bc[k] + m1 * c[k]) / mt;
    // parallel-axis shift of both parts to the new com
    sn_real* bi = m->body_inertia + 9 * b;
    const sn_real* part_c[2] = {bc, c};
    const sn_real part_m[2] = {m0, m1};
    sn_real sum[9];
    for (int k = 0; k < 9; k++)
        sum[k] = bi[k] + ic[k];
    for (int q = 0; q < 2; q++) {
        sn_real d[3];
        v3_sub(d, part_c[q], nc);
        sn_real dd = v3_dot(d, d);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                sum[3 * i + j] += part_m[q] * ((i == j ? dd : 0) - d[i] * d[j]);
    }
    memcpy(bi, sum, sizeof sum);
    v3_copy(bc, nc);
    m->body_mass[b] = mt;
}

// one movable joint: type, addresses, limits and dynamics from the URDF joint
static void fill_joint(sn_model* m, int id, int type, int body, int* qadr, int* vadr,
                       const sni_joint* uj) {
    static const int nq_of[] = {0, 1, 1, 1, 4, 7}, nv_of[] = {0, 1, 1, 1, 3, 6};
    m->joint_type[id] = type;
    m->joint_body[id] = body;
    m->joint_qadr[id] = *qadr;
    m->joint_vadr[id] = *vadr;
    m->joint_nq[id] = nq_of[type];
    m->joint_nv[id] = nv_of[type];
    m->joint_mimic[id] = SN_NONE;
    m->joint_mimic_multiplier[id] = 1;
    m->body_joint[body] = id;
    for (int k = 0; k < nv_of[type]; k++) {
        int v = *vadr + k;
        m->dof_joint[v] = id;
        m->dof_body[v] = body;
        m->dof_lower[v] = -INFINITY;
        m->dof_upper[v] = INFINITY;
        m->dof_velocity_limit[v] = INFINITY;
        m->dof_effort_limit[v] = INFINITY;
        if (!uj || type == SN_JOINT_FLOATING) continue;
        m->dof_armature[v] = uj->armature;
        m->dof_damping[v] = uj->damping;
        m->dof_friction[v] = uj->friction;
        m->dof_stiffness[v] = uj->stiffness;
        m->dof_velocity_limit[v] = uj->velocity;
        m->dof_effort_limit[v] = uj->effort;
        m->dof_kp[v] = uj->kp;
        m->dof_kd[v] = uj->kd;
        if (type == SN_JOINT_REVOLUTE || type == SN_JOINT_PRISMATIC) {
            m->dof_lower[v] = uj->lower;
            m->dof_upper[v] = uj->upper;
            m->dof_limited[v] = uj->has_lower || uj->has_upper;
        }
    }
    if (uj) m->joint_spring_ref[id] = uj->spring_ref;
    *qadr += nq_of[type];
    *vadr += nv_of[type];
}

// bodies, joints, DOFs and frames in depth-first order
static sn_status build_tree(compiler* c, sn_model* m, int floating, long root_name) {
    int nbody = 1, njoint = 0, qadr = 0, vadr = 0;
    m->body_parent[0] = SN_NONE;
    m->body_joint[0] = SN_NONE;
    m->body_name[0] = (int)(floating ? root_name : c->links[c->root].name);
    if (floating) {
        // body 1 is the root link with the floating joint "ROOT"
        m->body_parent[1] = 0;
        m->body_name[1] = (int)c->links[c->root].name;
        fill_joint(m, 0, SN_JOINT_FLOATING, 1, &qadr, &vadr, NULL);
        m->joint_name[0] = (int)root_name;
        m->joint_ujoint[0] = c->nj; // the extra URDF joint entry
        m3_identity(m->joint_rot);
        nbody = 2, njoint = 1;
    }
    int uroot = floating ? c->nj : -1;
    for (int n = 0; n < c->nl; n++) {
        int l = c->order[n];
        m->frame_order[n] = l;
        sn_real* fr = m->frame_rot + 9 * l;
        sn_real* fp = m->frame_pos + 3 * l;
        int pj = c->parent_joint[l];
        m->frame_name[l] = (int)c->links[l].name;
        if (pj < 0) {
            m->frame_body[l] = floating ? 1 : 0;
            m->frame_parent[l] = SN_NONE;
            m3_identity(fr);
            v3_set(fp, 0, 0, 0);
        } else {
            const sni_joint* uj = &c->joints[pj];
            int pl = uj->parent, pb = m->frame_body[pl];
            m->frame_parent[l] = pl;
            sn_real r[9], p[3];
            compose(r, p, m->frame_rot + 9 * pl, m->frame_pos + 3 * pl, uj->rot, uj->pos);
            if (uj->type == SN_JOINT_FIXED) {
                m->frame_body[l] = pb;
                // a body that begins at a link the reader made takes the name of the first link
                // the file names that is welded to it
                int first = pl;
                while (c->parent_joint[first] >= 0 &&
                       c->joints[c->parent_joint[first]].type == SN_JOINT_FIXED)
                    first = c->joints[c->parent_joint[first]].parent;
                if (c->links[first].generated && !c->links[l].generated &&
                    m->body_name[pb] == (int)c->links[first].name)
                    m->body_name[pb] = (int)c->links[l].name;
                memcpy(fr, r, sizeof r);
                v3_copy(fp, p);
            } else {
                if (uj->type == SN_JOINT_FLOATING && (floating || pb != 0))
                    return cerr(c, SN_ERR_MODEL, uj->line, "joint",
                                "joint '%s': a floating "
                                "joint must hang from the root link of a fixed-base model",
                                JNAME(c, pj));
                int b = nbody++, j = njoint++;
                m->body_parent[b] = pb;
                m->body_name[b] = (int)c->links[l].name;
                fill_joint(m, j, uj->type, b, &qadr, &vadr, uj);
                m->joint_name[j] = (int)uj->name;
                m->joint_ujoint[j] = pj;
                memcpy(m->joint_rot + 9 * j, r, sizeof r);
                v3_copy(m->joint_pos + 3 * j, p);
                v3_copy(m->joint_axis + 3 * j, uj->axis);
                m->frame_body[l] = b;
                m3_identity(fr);
                v3_set(fp, 0, 0, 0);
            }
        }
        const sni_link* lk = &c->links[l];
        m->frame_mass[l] = lk->mass;
        v3_copy(m->frame_com + 3 * l, lk->com);
        memcpy(m->frame_inertia + 9 * l, lk->inertia, sizeof lk->inertia);
        merge_inertia(m, m->frame_body[l], fr, fp, lk);
    }
    // URDF joints: the file's, then "ROOT"
    for (int i = 0; i < c->nj; i++) {
        m->ujoint_type[i] = c->joints[i].type;
        m->ujoint_parent[i] = c->joints[i].parent;
        m->ujoint_child[i] = c->joints[i].child;
        m->ujoint_name[i] = (int)c->joints[i].name;
        m->ujoint_joint[i] = SN_NONE;
    }
    if (uroot >= 0) {
        m->ujoint_type[uroot] = SN_JOINT_FLOATING;
        m->ujoint_parent[uroot] = SN_NONE;
        m->ujoint_child[uroot] = c->root;
        m->ujoint_name[uroot] = (int)root_name;
    }
    for (int j = 0; j < m->njoint; j++)
        m->ujoint_joint[m->joint_ujoint[j]] = j;
    // DOF parents: previous DOF of the same joint, else the last DOF of the nearest ancestor
    for (int j = 0; j < m->njoint; j++) {
        int v0 = m->joint_vadr[j], b = m->body_parent[m->joint_body[j]], up = SN_NONE;
        while (b > 0 && up == SN_NONE) {
            int pj = m->body_joint[b];
            if (m->joint_nv[pj] > 0) up = m->joint_vadr[pj] + m->joint_nv[pj] - 1;
            b = m->body_parent[b];
        }
        for (int k = 0; k < m->joint_nv[j]; k++)
            m->dof_parent[v0 + k] = k ? v0 + k - 1 : up;
    }
    // subtree masses and depth
    for (int b = 0; b < m->nbody; b++)
        m->subtree_mass[b] = m->body_mass[b];
    for (int b = m->nbody - 1; b > 0; b--)
        m->subtree_mass[m->body_parent[b]] += m->subtree_mass[b];
    // a DOF's parent comes before it, so one pass gives every depth
    m->max_depth = 0;
    int* depth = sni_alloc(c->alloc, (size_t)(m->nv ? m->nv : 1) * sizeof(int));
    if (!depth) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int v = 0; v < m->nv; v++) {
        depth[v] = m->dof_parent[v] >= 0 ? depth[m->dof_parent[v]] + 1 : 1;
        if (depth[v] > m->max_depth) m->max_depth = depth[v];
    }
    sni_free(c->alloc, depth, (size_t)(m->nv ? m->nv : 1) * sizeof(int));
    // zero configuration
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], a = m->joint_qadr[j];
        if (t == SN_JOINT_SPHERICAL) m->q0[a] = 1;
        if (t == SN_JOINT_FLOATING) m->q0[a + 3] = 1;
    }
    return SN_OK;
}

// mimic leaders, and no cycles among them. O(njoint): leaders are found through a hash table
// and each joint is walked once (a joint has at most one leader).
static sn_status resolve_mimic(compiler* c, sn_model* m) {
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
    if (!table_init(&jt, c->alloc, c->nj)) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int i = 0; i < c->nj; i++)
        table_find(&jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint), JNAME(c, i), i);
    sn_status st = SN_OK;
    for (int j = 0; j < m->njoint && st == SN_OK; j++) {
        int u = m->joint_ujoint[j];
        if (u >= c->nj || c->joints[u].mimic_name < 0) continue;
        const sni_joint* uj = &c->joints[u];
        const char* leader = SNI_NAME(c->s, uj->mimic_name);
        int lu =
            table_find(&jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint), leader, -1);
        int lj = lu >= 0 ? m->ujoint_joint[lu] : SN_NONE;
        if (lj < 0)
            st = cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                      "joint '%s' mimics '%s', which "
                      "is not a movable joint",
                      JNAME(c, u), leader);
        else if (lj == j && uj->mimic_multiplier != 0)
            st = cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                      "joint '%s' mimics itself (only a lock, multiplier 0, may)", JNAME(c, u));
        else if (m->joint_nv[lj] != 1 || m->joint_nv[j] != 1)
            st = cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
                      "mimic joints must both have "
                      "one DOF ('%s' mimics '%s')",
                      JNAME(c, u), leader);
        if (st != SN_OK) break;
        m->joint_mimic[j] = lj;
        m->joint_mimic_multiplier[j] = uj->mimic_multiplier;
        m->joint_mimic_offset[j] = uj->mimic_offset;
    }
    table_free(&jt);
    if (st != SN_OK) return st;
    // 0 unvisited, 1 on the walk in progress, 2 done
    char* state = sni_alloc(c->alloc, (size_t)m->njoint);
    if (!state) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int j = 0; j < m->njoint && st == SN_OK; j++) {
        int k = j;
        while (k >= 0 && state[k] == 0) // a lock (a joint that mimics itself) ends the walk
            state[k] = 1, k = m->joint_mimic[k] == k ? SN_NONE : m->joint_mimic[k];
        if (k >= 0 && state[k] == 1) {
            const sni_joint* uj = &c->joints[m->joint_ujoint[k]];
            st = cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic",
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

// springs (<dynamics stiffness spring_mount>) act on 1-DOF joints: a stiffness on a spherical
// joint is dropped from the model with a warning, so that dof_stiffness holds what the step uses
static void check_springs(compiler* c, sn_model* m) {
    for (int j = 0; j < m->njoint; j++) {
        int u = m->joint_ujoint[j], v = m->joint_vadr[j];
        if (u >= c->nj || m->joint_nv[j] == 1 || !(c->joints[u].stiffness > 0)) continue;
        sni_spec_warn(c->s, c->joints[u].line, "joint",
                      "in joint '%s': stiffness on a %s joint ignored (springs act on joints "
                      "with one DOF)",
                      JNAME(c, u), sn_joint_type_str(m->joint_type[j]));
        for (int k = 0; k < m->joint_nv[j]; k++)
            m->dof_stiffness[v + k] = 0;
    }
}

// ---- actuators (the <actuator> extension) ----

// the movable 1-DOF joint named `name`, for the <el> at `line` of actuator `act`
static sn_status actuated_joint(compiler* c, const sn_model* m, name_table* jt, const char* act,
                                const char* name, int line, const char* el, int* out) {
    int u = -1; // a robot without joints has no joint array to look in
    if (c->nj > 0)
        u = table_find(jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint), name, -1);
    if (u < 0)
        return cerr(c, SN_ERR_MODEL, line, el, "in actuator '%s': joint '%s' not found", act, name);
    int j = m->ujoint_joint[u];
    if (j < 0 || m->joint_nv[j] != 1)
        return cerr(c, SN_ERR_MODEL, line, el,
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
            st = cerr(c, SN_ERR_MODEL, a->coupling_line[k], "coupling",
                      "in actuator '%s': joint '%s' is the driven joint, not a coupling (its "
                      "ratio is gear_ratio)",
                      act, name);
        for (int e = 0; e < k && st == SN_OK; e++)
            if (cj[e] == cj[k])
                st = cerr(c, SN_ERR_MODEL, a->coupling_line[k], "coupling",
                          "in actuator '%s': joint '%s' is coupled twice (first at line %d)", act,
                          name, a->coupling_line[e]);
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
static sn_status resolve_actuators(compiler* c, sn_model* m) {
    if (m->nactuator == 0) return SN_OK;
    const sni_actuator* a = (const sni_actuator*)c->s->actuators.data;
    name_table jt, at;
    if (!table_init(&jt, c->alloc, c->nj)) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    if (!table_init(&at, c->alloc, m->nactuator)) {
        table_free(&jt);
        return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    }
    for (int i = 0; i < c->nj; i++)
        table_find(&jt, c->s->names.data, &c->joints[0].name, sizeof(sni_joint), JNAME(c, i), i);
    sn_status st = SN_OK;
    for (int i = 0; i < m->nactuator && st == SN_OK; i++) {
        const char* name = SNI_NAME(c->s, a[i].name);
        int prev = table_find(&at, c->s->names.data, &a[0].name, sizeof(sni_actuator), name, i);
        if (prev >= 0)
            st = cerr(c, SN_ERR_MODEL, a[i].line, "actuator",
                      "actuator '%s' is not unique (first at line %d)", name, a[prev].line);
        else
            st = fill_actuator(c, m, &jt, i);
    }
    table_free(&at);
    table_free(&jt);
    return st;
}

// ---- loop constraints ----

// norm of the part of v along the constrained directions: all of v for a pin (ndir 3), else
// the projection on the one axis or on the plane of the two
static sn_real constrained_part(const sn_real* v, const sn_real* dirs, int ndir) {
    if (ndir >= 3) return v3_norm(v);
    if (ndir == 1) return fabs(v3_dot(v, dirs));
    sn_real n[3], p[3];
    v3_cross(n, dirs, dirs + 3);
    v3_scale(n, n, 1 / v3_norm(n));
    v3_copy(p, v);
    v3_addscl(p, n, -v3_dot(n, v));
    return v3_norm(p);
}

// does one joint hold every constrained direction by itself? Seed 001: a direction is held when
// the joint moves the anchors apart along it only through a lever arm below 1/1000 of the
// joint's distance from the anchors. o: joint origin, a: unit axis, x: anchor, dirs: unit
// constrained directions, all in one frame fixed to a body next to the joint (so the answer
// does not depend on the configuration).
static int joint_holds(int type, const sn_real* o, const sn_real* a, const sn_real* x,
                       const sn_real* dirs, int ndir) {
    sn_real r[3], v[3];
    v3_sub(r, x, o);
    sn_real dist = v3_norm(r);
    switch (type) {
    case SN_JOINT_REVOLUTE:
    case SN_JOINT_CONTINUOUS:
        v3_cross(v, a, r);
        return constrained_part(v, dirs, ndir) <= 1e-3 * dist;
    case SN_JOINT_PRISMATIC:
        return constrained_part(a, dirs, ndir) <= 1e-3;
    case SN_JOINT_SPHERICAL:
        // rotations about the centre move the anchor anywhere across r: only one axis along r
        // (or an anchor at the centre) is held
        if (ndir != 1) return dist == 0;
        v3_cross(v, r, dirs);
        return v3_norm(v) <= 1e-3 * dist;
    default:
        return 0;
    }
}

// a constraint whose links are welded together, or joined by one joint that already holds
// every direction it constrains (a pin on a hinge axis), is redundant: warn once. Longer paths
// are left to the constraint solver, which examines them at several poses.
static int check_redundant(compiler* c, const sn_model* m, int i, const char* el, int line) {
    int f1 = m->constraint_frame1[i], f2 = m->constraint_frame2[i];
    int b1 = m->frame_body[f1], b2 = m->frame_body[f2];
    int ndir = m->constraint_type[i] == SN_CONSTRAINT_PIN ? 3 : m->constraint_naxis[i];
    int orient = m->constraint_type[i] == SN_CONSTRAINT_ORIENTATION;
    const sn_real* r1 = m->frame_rot + 9 * f1;
    sn_real x[3], dirs[6], o[3] = {0, 0, 0}, a[3];
    m3_mul_v3(x, r1, m->constraint_anchor + 3 * i);
    v3_add(x, x, m->frame_pos + 3 * f1);
    for (int k = 0; k < ndir && k < 2; k++)
        m3_mul_v3(dirs + 3 * k, r1, m->constraint_axes + 6 * i + 3 * k);
    const char* n1 = m->names + m->frame_name[f1];
    const char* n2 = m->names + m->frame_name[f2];
    if (b1 == b2) {
        sni_spec_warn(c->s, line, el,
                      "constraint between '%s' and '%s' is redundant: fixed joints "
                      "weld the two links together",
                      n1, n2);
        return 1;
    }
    int j;
    if (orient) return 0; // a joint with a DOF never holds an orientation
    if (m->body_parent[b2] == b1) {
        // b1 is the parent body: the joint frame is fixed in b1
        j = m->body_joint[b2];
        v3_copy(o, m->joint_pos + 3 * j);
        m3_mul_v3(a, m->joint_rot + 9 * j, m->joint_axis + 3 * j);
    } else if (m->body_parent[b1] == b2) {
        // b1 is the child body: its frame is the joint frame
        j = m->body_joint[b1];
        v3_copy(a, m->joint_axis + 3 * j);
    } else {
        return 0;
    }
    if (!joint_holds(m->joint_type[j], o, a, x, dirs, ndir)) return 0;
    sni_spec_warn(c->s, line, el,
                  "constraint between '%s' and '%s' is redundant: joint '%s' "
                  "already holds every direction it constrains (the anchor is on its axis)",
                  n1, n2, m->names + m->joint_name[j]);
    return 1;
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
    if (!slot) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
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
static sn_status resolve_excludes(compiler* c, sn_model* m, name_table* links) {
    const sni_exclude* x = (const sni_exclude*)(void*)c->s->excludes.data;
    for (int i = 0; i < m->nexclude; i++) {
        const char* names[2] = {SNI_NAME(c->s, x[i].body1), SNI_NAME(c->s, x[i].body2)};
        for (int e = 0; e < 2; e++) {
            int f = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link),
                               names[e], -1);
            if (f < 0 && !strcmp(names[e], "world")) f = c->root;
            if (f < 0)
                return cerr(c, SN_ERR_MODEL, x[i].line, "exclude", "body%d '%s' is not a body",
                            e + 1, names[e]);
            m->exclude_body[2 * i + e] = m->frame_body[f];
        }
    }
    return SN_OK;
}

// constraints: link names, redundancy, nominal configuration
static sn_status resolve_constraints(compiler* c, sn_model* m, name_table* links) {
    const sni_constraint* k = (const sni_constraint*)c->s->constraints.data;
    size_t nw = (size_t)m->nconstraint + 1;
    char* warned = sni_alloc(c->alloc, nw);
    if (!warned) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sn_status st = SN_OK;
    for (int i = 0; i < m->nconstraint && st == SN_OK; i++) {
        const char* names[2] = {SNI_NAME(c->s, k[i].body1), SNI_NAME(c->s, k[i].body2)};
        const char* el = k[i].element ? k[i].element : k[i].type ? "equality" : "pin";
        for (int e = 0; e < 2; e++) {
            int f = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link),
                               names[e], -1);
            if (f < 0 && m->is_floating && !strcmp(names[e], "world"))
                st = cerr(c, SN_ERR_MODEL, k[i].line, el,
                          "body%d 'world' of the constraint is "
                          "not a link: this robot has a floating base, and loop constraints "
                          "connect bodies of the same articulated system",
                          e + 1);
            else if (f < 0)
                st = cerr(c, SN_ERR_MODEL, k[i].line, el,
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
        return cerr(c, SN_ERR_MODEL, line, "constraints",
                    "nominal_config has %d entries; the "
                    "generalized coordinate has %d",
                    c->s->nnominal, m->nq);
    memcpy(m->nominal_config, c->s->nominal, (size_t)m->nq * sizeof(sn_real));
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], a = m->joint_qadr[j];
        if (t == SN_JOINT_SPHERICAL || t == SN_JOINT_FLOATING) {
            sn_real* q = m->nominal_config + a + (t == SN_JOINT_FLOATING ? 3 : 0);
            sn_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (!(n > 1e-12))
                return cerr(c, SN_ERR_MODEL, line, "constraints",
                            "nominal_config: the quaternion "
                            "of joint '%s' is zero",
                            m->names + m->joint_name[j]);
            if (fabs(n - 1) > 1e-9) {
                sni_spec_warn(c->s, line, "constraints",
                              "nominal_config: quaternion of joint "
                              "'%s' has norm %g and was normalized",
                              m->names + m->joint_name[j], n);
                for (int e = 0; e < 4; e++)
                    q[e] /= n;
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

// materials and geometries. Top-level <material> definitions must be unique; a named material
// inside a <visual> refers to the definition of that name (wherever it is in the file) or, when
// there is none, defines it at its first use. Names are found through a hash table.
static sn_status fill_geoms(compiler* c, sn_model* m) {
    const sni_geom* g = (const sni_geom*)c->s->geoms.data;
    const sni_material* mt = (const sni_material*)c->s->materials.data;
    int ns = SNI_NMAT(c->s), nm = 0;
    name_table t;
    if (!table_init(&t, c->alloc, ns)) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    size_t bytes = (size_t)(ns ? ns : 1) * 2 * sizeof(int);
    int* id = sni_alloc(c->alloc, bytes); // model material of each spec material
    int* defined = id + (ns ? ns : 1);    // per model material: line of its definition, or 0
    if (!id) {
        table_free(&t);
        return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    }
    sn_status st = SN_OK;
    for (int i = 0; i < ns && st == SN_OK; i++) {
        const char* name = SNI_NAME(c->s, mt[i].name);
        int first = table_find(&t, c->s->names.data, &mt[0].name, sizeof(sni_material), name, i);
        if (first < 0) {
            // first use of the name
            id[i] = nm;
            defined[nm] = mt[i].line > 0 ? mt[i].line : 0;
            m->material_name[nm] = (int)mt[i].name;
            memcpy(m->material_rgba + 4 * nm, mt[i].rgba, sizeof mt[i].rgba);
            nm++;
            continue;
        }
        id[i] = id[first];
        if (mt[i].line < 0) continue; // a reference from a <visual>
        // a top-level definition: only one per name; it sets the colour of earlier inline uses
        if (defined[id[i]])
            st = cerr(c, SN_ERR_MODEL, mt[i].line, "material",
                      "material '%s' is not unique "
                      "(first at line %d)",
                      name, defined[id[i]]);
        defined[id[i]] = mt[i].line;
        memcpy(m->material_rgba + 4 * id[i], mt[i].rgba, sizeof mt[i].rgba);
    }
    m->nmaterial = nm;
    for (int i = 0; i < m->ngeom && st == SN_OK; i++) {
        m->geom_type[i] = g[i].type;
        m->geom_frame[i] = g[i].link;
        m->geom_is_visual[i] = g[i].is_visual;
        m->geom_mesh[i] = g[i].mesh >= 0 ? (int)g[i].mesh : SN_NONE;
        m->geom_friction[i] = g[i].friction;
        m->geom_condim[i] = g[i].condim;
        m->geom_material[i] = SN_NONE;
        if (g[i].material >= 0) {
            int k = table_find(&t, c->s->names.data, &mt[0].name, sizeof(sni_material),
                               SNI_NAME(c->s, g[i].material), -1);
            if (k >= 0) m->geom_material[i] = id[k];
        }
        v3_copy(m->geom_size + 3 * i, g[i].size);
        v3_copy(m->geom_pos + 3 * i, g[i].pos);
        memcpy(m->geom_rot + 9 * i, g[i].rot, sizeof g[i].rot);
    }
    sni_free(c->alloc, id, bytes);
    table_free(&t);
    return st;
}

// motion subspace columns (w, v0) of joint j at the zero configuration, world frame, as sn_fk
// computes them; rj, pj: the joint frame in the world
static void zero_motion(const sn_model* m, int j, const sn_real* rj, const sn_real* pj,
                        sn_real* s) {
    sn_real a[3];
    m3_mul_v3(a, rj, m->joint_axis + 3 * j);
    memset(s, 0, (size_t)m->joint_nv[j] * 6 * sizeof(sn_real));
    switch (m->joint_type[j]) {
    case SN_JOINT_REVOLUTE:
    case SN_JOINT_CONTINUOUS:
        v3_copy(s, a);
        v3_cross(s + 3, pj, a);
        break;
    case SN_JOINT_PRISMATIC:
        v3_copy(s + 3, a);
        break;
    case SN_JOINT_SPHERICAL:
        for (int k = 0; k < 3; k++) {
            sn_real e[3] = {rj[k], rj[3 + k], rj[6 + k]};
            v3_copy(s + 6 * k, e);
            v3_cross(s + 6 * k + 3, pj, e);
        }
        break;
    case SN_JOINT_FLOATING:
        // u = (velocity of the body origin, angular velocity), both in the world frame
        for (int k = 0; k < 3; k++) {
            sn_real e[3] = {0, 0, 0};
            e[k] = 1;
            s[6 * k + 3 + k] = 1;
            v3_copy(s + 6 * (3 + k), e);
            v3_cross(s + 6 * (3 + k) + 3, pj, e);
        }
        break;
    default:
        break;
    }
}

// inverse of a small SPD matrix (n <= 6, row-major) by Gauss-Jordan without pivoting, which is
// stable for SPD input; 0 if a pivot is not positive
static int small_spd_inverse(sn_real* a, int n) {
    sn_real inv[36];
    for (int i = 0; i < n * n; i++)
        inv[i] = i % (n + 1) == 0 ? 1 : 0;
    for (int k = 0; k < n; k++) {
        sn_real piv = a[k * n + k];
        if (!(piv > 0)) return 0;
        for (int e = 0; e < n; e++) {
            a[k * n + e] /= piv;
            inv[k * n + e] /= piv;
        }
        for (int i = 0; i < n; i++) {
            if (i == k) continue;
            sn_real f = a[i * n + k];
            for (int e = 0; e < n; e++) {
                a[i * n + e] -= f * a[k * n + e];
                inv[i * n + e] -= f * inv[k * n + e];
            }
        }
    }
    memcpy(a, inv, (size_t)(n * n) * sizeof(sn_real));
    return 1;
}

// The mass matrix (with rotor inertia) at the zero configuration must be positive definite. It
// is not formed: the articulated-body recursion eliminates the DOFs from the leaves up, and the
// pivots of its joint-space blocks D_i, taken last DOF first, are those of the L^T D L factor of
// M (sn_factor_mass), so the test is the same in O(nbody) time and memory. A pivot must exceed
// 1e-14 times the largest diagonal entry of M, found from the composite inertias.
static sn_status check_mass(compiler* c, sn_model* m) {
    if (m->nv == 0) return SN_OK;
    int nb = m->nbody;
    // per body: pose (12), inertia at the world origin (10), composite (10), articulated (36)
    size_t bytes = sni_mul_size(sni_mul_size((size_t)nb, 12 + 10 + 10 + 36), sizeof(sn_real));
    size_t sbytes = sni_mul_size((size_t)m->nv * 6, sizeof(sn_real));
    sn_real* w = bytes ? sni_alloc(c->alloc, bytes) : NULL;
    sn_real* S = w && sbytes ? sni_alloc(c->alloc, sbytes) : NULL;
    if (!S) {
        sni_free(c->alloc, w, bytes);
        return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    }
    sn_real *R = w, *P = R + 9 * (size_t)nb, *rbi = P + 3 * (size_t)nb;
    sn_real *comp = rbi + 10 * (size_t)nb, *IA = comp + 10 * (size_t)nb;
    m3_identity(R);
    for (int b = 1; b < nb; b++) {
        // at q0 every joint is at its zero, so the body frame is the joint frame
        int j = m->body_joint[b], par = m->body_parent[b];
        sn_real* rb = R + 9 * b;
        sn_real* pb = P + 3 * b;
        m3_mul(rb, R + 9 * par, m->joint_rot + 9 * j);
        m3_mul_v3(pb, R + 9 * par, m->joint_pos + 3 * j);
        v3_add(pb, pb, P + 3 * par);
        zero_motion(m, j, rb, pb, S + 6 * m->joint_vadr[j]);
        sn_real com[3], ic[9];
        m3_mul_v3(com, rb, m->body_com + 3 * b);
        v3_add(com, com, pb);
        m3_rotate_sym(ic, rb, m->body_inertia + 9 * b);
        rbi_from(rbi + 10 * b, m->body_mass[b], com, ic);
        memcpy(comp + 10 * b, rbi + 10 * b, 10 * sizeof(sn_real));
        rbi_to_m6(IA + 36 * b, rbi + 10 * b);
    }
    for (int b = nb - 1; b > 1; b--)
        for (int e = 0; e < 10; e++)
            comp[10 * m->body_parent[b] + e] += comp[10 * b + e];
    sn_real scale = 0;
    for (int v = 0; v < m->nv; v++) {
        sn_real f[6];
        rbi_mul(f, comp + 10 * m->dof_body[v], S + 6 * v);
        scale = fmax(scale, fabs(s6_dot(S + 6 * v, f) + m->dof_armature[v]));
    }
    int bad = -1;
    for (int b = nb - 1; b > 0 && bad < 0; b--) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        const sn_real* s = S + 6 * v0;
        sn_real* ia = IA + 36 * b;
        sn_real U[36], D[36], L[36];
        for (int k = 0; k < nd; k++)
            m6_mul_v6(U + 6 * k, ia, s + 6 * k);
        for (int r = 0; r < nd; r++)
            for (int q = 0; q < nd; q++)
                D[r * nd + q] =
                    s6_dot(s + 6 * r, U + 6 * q) + (r == q ? m->dof_armature[v0 + r] : 0);
        // pivots last DOF first, as the L^T D L factorization takes them
        memcpy(L, D, sizeof L);
        for (int k = nd - 1; k >= 0 && bad < 0; k--) {
            sn_real piv = L[k * nd + k];
            if (!(piv > 1e-14 * scale) || !isfinite(piv)) bad = v0 + k;
            for (int r = 0; r < k && bad < 0; r++)
                for (int q = 0; q < k; q++)
                    L[r * nd + q] -= L[r * nd + k] * L[k * nd + q] / piv;
        }
        int par = m->body_parent[b];
        if (bad >= 0 || par == 0) continue;
        if (!small_spd_inverse(D, nd)) {
            bad = v0;
            break;
        }
        // IA_parent += IA - U D^-1 U^T
        sn_real* iap = IA + 36 * par;
        for (int r = 0; r < 6; r++)
            for (int q = 0; q < 6; q++) {
                sn_real x = ia[6 * r + q];
                for (int k = 0; k < nd; k++)
                    for (int l = 0; l < nd; l++)
                        x -= U[6 * k + r] * D[k * nd + l] * U[6 * l + q];
                iap[6 * r + q] += x;
            }
    }
    sni_free(c->alloc, S, sbytes);
    sni_free(c->alloc, w, bytes);
    if (bad < 0) return SN_OK;
    int j = m->dof_joint[bad];
    int u = m->joint_ujoint[j];
    // the floating base "ROOT" has no line of its own: point at the root link
    int line = u < c->nj ? c->joints[u].line : c->links[c->root].line;
    return cerr(c, SN_ERR_MODEL, line, u < c->nj ? "joint" : "link",
                "mass and inertia of "
                "moving bodies must be positive: the bodies moved by joint '%s' have no mass or "
                "inertia about its axis (a link without <inertial> has mass 0)",
                m->names + m->joint_name[j]);
}

// the vertices of every collision mesh, read before the model's block is sized: adr[g] and
// num[g] locate geometry g's vertices in verts. A file that is missing or in a format sinew does
// not read is warned about (its geometry never collides); a malformed one is an error.
static sn_status read_meshes(compiler* c, sni_buf* verts, int* adr, int* num) {
    const sni_geom* g = (const sni_geom*)c->s->geoms.data;
    for (int i = 0; i < SNI_NGEOM(c->s); i++) {
        adr[i] = SN_NONE, num[i] = 0;
        if (g[i].type != SN_GEOM_MESH || g[i].is_visual || g[i].mesh < 0) continue;
        const char* path = SNI_NAME(c->s, g[i].mesh);
        char msg[600];
        int line = 0;
        size_t before = verts->len / (3 * sizeof(sn_real));
        sn_status st = sni_mesh_read(path, g[i].size, c->alloc, verts, &line, msg, sizeof msg);
        if (st == SN_ERR_IO || st == SN_ERR_MODEL) {
            sni_spec_warn(c->s, g[i].line, "collision", "%s: the geometry does not collide", msg);
            continue;
        }
        if (st != SN_OK) return cerr(c, st, g[i].line, "mesh", "%s", msg);
        // keep the hull's vertices only (a flat or collinear mesh keeps all of its own)
        sn_real* v = (sn_real*)(void*)(verts->data) + 3 * before;
        int nv = (int)(verts->len / (3 * sizeof(sn_real)) - before), *tri = NULL, ntri = 0;
        st = sni_hull(v, nv, c->alloc, &tri, &ntri);
        if (st == SN_ERR_NOMEM) return cerr(c, st, g[i].line, "mesh", "out of memory");
        if (st == SN_OK) {
            char* on = sni_alloc(c->alloc, (size_t)nv);
            if (!on) {
                sni_free(c->alloc, tri, (size_t)ntri * 3 * sizeof(int));
                return cerr(c, SN_ERR_NOMEM, g[i].line, "mesh", "out of memory");
            }
            memset(on, 0, (size_t)nv);
            for (int k = 0; k < 3 * ntri; k++)
                on[tri[k]] = 1;
            int kept = 0;
            for (int k = 0; k < nv; k++)
                if (on[k]) memmove(v + 3 * kept++, v + 3 * k, 3 * sizeof(sn_real));
            verts->len = (before + (size_t)kept) * 3 * sizeof(sn_real);
            sni_free(c->alloc, on, (size_t)nv);
            sni_free(c->alloc, tri, (size_t)ntri * 3 * sizeof(int));
        }
        size_t after = verts->len / (3 * sizeof(sn_real));
        if (after > (size_t)SNI_MESH_MAX_VERTICES * 16)
            return cerr(c, SN_ERR_LIMIT, g[i].line, "mesh",
                        "the collision meshes hold more than %d vertices in all",
                        SNI_MESH_MAX_VERTICES * 16);
        adr[i] = (int)before, num[i] = (int)(after - before);
    }
    return SN_OK;
}

static sn_status build_model(compiler* c, name_table* lt, sn_model** out, const sni_buf* verts,
                             const int* adr, const int* num) {
    sni_spec* s = c->s;
    int floating = 0;
    const char* rootname = LNAME(c, c->root);
    int root_is_world = strcmp(rootname, "world") == 0;
    if (s->base == SN_BASE_FLOATING && root_is_world)
        return cerr(c, SN_ERR_MODEL, c->links[c->root].line, "link",
                    "a floating base was "
                    "requested but the root link is named 'world'");
    floating = s->base == SN_BASE_FLOATING || (s->base == SN_BASE_AUTO && !root_is_world);
    for (int i = 0; i < c->nj && floating; i++)
        if (!strcmp(JNAME(c, i), "ROOT"))
            return cerr(c, SN_ERR_MODEL, c->joints[i].line, "joint",
                        "the joint name 'ROOT' is "
                        "reserved for the floating base of link '%s'",
                        rootname);
    counts k;
    sn_status st = count_model(c, floating, &k);
    if (st != SN_OK) return st;
    long root_name = sni_spec_name(s, floating ? "ROOT" : "world");
    long world_name = sni_spec_name(s, "world");
    if (s->names.failed) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sn_model tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.nbody = k.nbody, tmp.njoint = k.njoint, tmp.nq = k.nq, tmp.nv = k.nv;
    tmp.nframe = c->nl, tmp.nujoint = k.nujoint, tmp.ngeom = SNI_NGEOM(s);
    tmp.nconstraint = SNI_NCON(s), tmp.nmaterial = SNI_NMAT(s), tmp.nactuator = SNI_NACT(s);
    tmp.nexclude = SNI_NEXCL(s);
    tmp.is_floating = floating || (k.njoint > 0 && 0);
    tmp.nmeshvert = (int)(verts->len / (3 * sizeof(sn_real)));
    tmp.nkey = s->nkey;
    // room for the 64 warning pointers and for the texts so far plus a few raised below; the
    // block grows at the end if those need more
    size_t warn_len = s->warnings.len + 8 * 900;
    carver cv = {NULL, sizeof(sn_model)};
    sn_model* m = &tmp;
    layout(m, &cv, s->names.len, warn_len, 64, s->has_nominal);
    size_t total = cv.off;
    char* block = sni_alloc(c->alloc, total);
    if (!block) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory (%zu bytes)", total);
    m = (sn_model*)block;
    *m = tmp;
    m->size_ = total;
    m->allocator_ = sni_allocator_or_default(c->alloc);
    carver cv2 = {block, sizeof(sn_model)};
    layout(m, &cv2, s->names.len, warn_len, 64, s->has_nominal);
    memcpy(m->names, s->names.data, s->names.len);
    if (m->ngeom) {
        memcpy(m->geom_vert_adr, adr, (size_t)m->ngeom * sizeof(int));
        memcpy(m->geom_vert_num, num, (size_t)m->ngeom * sizeof(int));
    }
    if (verts->len) memcpy(m->mesh_vert, verts->data, verts->len);
    if (m->nkey && (s->key_nq != m->nq || s->key_nv != m->nv)) {
        sn_model_destroy(m);
        return cerr(c, SN_ERR_MODEL, 0, "keyframe",
                    "keyframes read with %d coordinates and %d velocities; the model has %d and %d",
                    s->key_nq, s->key_nv, k.nq, k.nv);
    }
    for (int i = 0; i < m->nkey; i++) {
        m->key_name[i] = (int)s->key_name[i];
        memcpy(m->key_q + (size_t)i * m->nq, s->key_q + (size_t)i * m->nq,
               (size_t)m->nq * sizeof(sn_real));
        memcpy(m->key_u + (size_t)i * m->nv, s->key_u + (size_t)i * m->nv,
               (size_t)m->nv * sizeof(sn_real));
    }
    st = build_tree(c, m, floating, floating ? root_name : world_name);
    for (int j = 0; j < m->njoint && st == SN_OK; j++)
        if (m->joint_type[j] == SN_JOINT_FLOATING) m->is_floating = 1;
    if (st == SN_OK) check_springs(c, m);
    if (st == SN_OK) st = resolve_mimic(c, m);
    if (st == SN_OK) st = resolve_actuators(c, m);
    if (st == SN_OK) st = resolve_constraints(c, m, lt);
    if (st == SN_OK) st = resolve_excludes(c, m, lt);
    if (st == SN_OK) st = fill_geoms(c, m);
    if (st == SN_OK) st = check_mass(c, m);
    if (st != SN_OK) {
        sn_model_destroy(m);
        return st;
    }
    if (s->warnings.len > warn_len) {
        // the checks above warned more than the room left: move to a larger block (the layout
        // is the same up to the warning texts, which come last)
        warn_len = s->warnings.len;
        carver cv3 = {NULL, sizeof(sn_model)};
        layout(&tmp, &cv3, s->names.len, warn_len, 64, s->has_nominal);
        char* bigger = sni_alloc(c->alloc, cv3.off);
        if (!bigger) {
            sn_model_destroy(m);
            return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory (%zu bytes)", cv3.off);
        }
        memcpy(bigger, block, total);
        sn_model_destroy(m);
        block = bigger;
        m = (sn_model*)block;
        m->size_ = total = cv3.off;
        // lay out with the counts the block was sized for (fill_geoms lowered nmaterial)
        int nmaterial = m->nmaterial;
        m->nmaterial = tmp.nmaterial;
        carver cv4 = {block, sizeof(sn_model)};
        layout(m, &cv4, s->names.len, warn_len, 64, s->has_nominal);
        m->nmaterial = nmaterial;
    }
    // warnings (the spec keeps the texts of the first 64; they follow the pointer array)
    char* text = (char*)(m->warnings + 64);
    size_t off = 0;
    int stored = 0;
    const char* w = s->warnings.data;
    for (size_t pos = 0; pos < s->warnings.len && stored < 64;) {
        size_t len = strlen(w + pos) + 1;
        memcpy(text + off, w + pos, len);
        m->warnings[stored++] = text + off;
        off += len;
        pos += len;
    }
    m->nwarning = s->nwarning;
    m->format = s->format;
    m->option_timestep = s->option_timestep;
    memcpy(m->option_gravity, s->option_gravity, sizeof m->option_gravity);
    m->option_has_gravity = s->option_has_gravity;
    m->option_scheme = s->option_scheme;
    m->option_contact_off = s->option_contact_off;
    m->option_has_ground = s->option_has_ground;
    m->option_ground_height = s->option_ground_height;
    m->option_ground_friction = s->option_ground_friction;
    m->option_ground_condim = s->option_ground_condim;
    m->has_option = s->option_timestep > 0 || s->option_has_gravity || s->option_scheme >= 0 ||
                    s->option_contact_off || s->option_has_ground;
    *out = m;
    return SN_OK;
}

static sn_status build(compiler* c, name_table* lt, sn_model** out) {
    int ng = SNI_NGEOM(c->s);
    size_t bytes = (size_t)(ng ? ng : 1) * 2 * sizeof(int);
    int* adr = sni_alloc(c->alloc, bytes);
    if (!adr) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sni_buf verts = {NULL, 0, 0, c->alloc, 0};
    sn_status st = read_meshes(c, &verts, adr, adr + ng);
    if (st == SN_OK) st = build_model(c, lt, out, &verts, adr, adr + ng);
    sni_buf_free(&verts);
    sni_free(c->alloc, adr, bytes);
    return st;
}

sn_status sni_compile(sni_spec* s, const sn_allocator* a, sn_model** out, sn_error* err) {
    compiler c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.err = err;
    c.alloc = a;
    c.nl = SNI_NLINK(s);
    c.nj = SNI_NJOINT(s);
    c.links = (sni_link*)s->links.data;
    c.joints = (sni_joint*)s->joints.data;
    if (c.nl == 0)
        return sni_error(err, SN_ERR_MODEL, s->file, 0, "robot", "the robot has no <link>");
    size_t ints = (size_t)c.nl * 3 + 1 + (size_t)c.nj;
    int* mem = sni_alloc(a, ints * sizeof(int));
    if (!mem) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    c.parent_joint = mem;
    c.child_start = mem + c.nl;
    c.order = mem + 2 * c.nl + 1;
    c.child_list = mem + 3 * c.nl + 1;
    name_table lt;
    sn_status st = table_init(&lt, a, c.nl)
                       ? SN_OK
                       : sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    if (st == SN_OK) st = resolve_names(&c, &lt);
    if (st == SN_OK) st = order_links(&c);
    if (st == SN_OK) {
        // names may move when the pool grows: links/joints hold offsets, so this is safe
        st = build(&c, &lt, out);
    }
    if (lt.slot) table_free(&lt);
    sni_free(a, mem, ints * sizeof(int));
    return st;
}
