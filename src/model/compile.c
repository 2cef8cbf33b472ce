// SPDX-License-Identifier: Apache-2.0
// compile.c: turns a spec into the flat, immutable model. Checks the topology without recursion
// (names through a hash table, one parent per link, one root, cycles found by walking parent
// links), merges links joined by fixed joints into bodies, orders bodies, joints and DOFs
// depth-first with children in file order, and lays everything out in one allocation.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/smath.h"
#include "model/spec.h"
#include "sinew/sn_data.h"

// ---- a string hash set over name-pool offsets ----

typedef struct name_table {
    int* slot; // index of the item, -1 empty
    size_t cap;
    const sn_allocator* alloc;
} name_table;


static uint64_t hash_str(const char* s) {
    uint64_t h = 1469598103934665603ull;
    while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}


static int table_init(name_table* t, const sn_allocator* a, int n) {
    t->cap = 16;
    while (t->cap < (size_t)n * 2) t->cap *= 2;
    t->alloc = a;
    t->slot = sni_alloc(a, t->cap * sizeof(int));
    if (!t->slot) return 0;
    for (size_t i = 0; i < t->cap; i++) t->slot[i] = -1;
    return 1;
}


static void table_free(name_table* t) { sni_free(t->alloc, t->slot, t->cap * sizeof(int)); }


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

typedef struct carver {
    char* base;
    size_t off;
} carver;


static void* carve(carver* c, size_t n, size_t size) {
    c->off = (c->off + 63) & ~(size_t)63;
    void* p = c->base ? c->base + c->off : NULL;
    c->off += n * size;
    return p;
}


#define CARVE(c, field, n) (m->field = carve(c, (size_t)(n), sizeof *m->field))

static void layout(sn_model* m, carver* c, size_t names_len, size_t warn_len, int nwarn,
                   int has_nominal) {
    int nb = m->nbody, nj = m->njoint, nv = m->nv, nf = m->nframe, nu = m->nujoint;
    int ng = m->ngeom, nc = m->nconstraint, nm = m->nmaterial;
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
    CARVE(c, frame_body, nf), CARVE(c, frame_parent, nf), CARVE(c, frame_name, nf);
    CARVE(c, frame_order, nf);
    CARVE(c, frame_pos, 3 * nf), CARVE(c, frame_rot, 9 * nf), CARVE(c, frame_mass, nf);
    CARVE(c, frame_com, 3 * nf), CARVE(c, frame_inertia, 9 * nf);
    CARVE(c, ujoint_type, nu), CARVE(c, ujoint_parent, nu), CARVE(c, ujoint_child, nu);
    CARVE(c, ujoint_joint, nu), CARVE(c, ujoint_name, nu);
    CARVE(c, geom_type, ng), CARVE(c, geom_frame, ng), CARVE(c, geom_is_visual, ng);
    CARVE(c, geom_material, ng), CARVE(c, geom_mesh, ng), CARVE(c, geom_size, 3 * ng);
    CARVE(c, geom_pos, 3 * ng), CARVE(c, geom_rot, 9 * ng);
    CARVE(c, material_name, nm), CARVE(c, material_rgba, 4 * nm);
    CARVE(c, constraint_type, nc), CARVE(c, constraint_frame1, nc);
    CARVE(c, constraint_frame2, nc), CARVE(c, constraint_naxis, nc);
    CARVE(c, constraint_anchor, 3 * nc), CARVE(c, constraint_axes, 6 * nc);
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
    for (int i = 0; i < c->nl; i++) c->parent_joint[i] = -1;
    for (int i = 0; i < c->nj; i++) {
        sni_joint* j = &c->joints[i];
        if (j->parent_name < 0 || j->child_name < 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint", "joint '%s' has no <%s>", JNAME(c, i),
                        j->parent_name < 0 ? "parent" : "child");
        const char* pn = SNI_NAME(c->s, j->parent_name);
        const char* cn = SNI_NAME(c->s, j->child_name);
        j->parent = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link), pn, -1);
        j->child = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link), cn, -1);
        if (j->parent < 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint", "parent link '%s' of joint '%s' not "
                        "found", pn, JNAME(c, i));
        if (j->child < 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint", "child link '%s' of joint '%s' not "
                        "found", cn, JNAME(c, i));
        if (j->parent == j->child)
            return cerr(c, SN_ERR_MODEL, j->line, "joint", "joint graph contains a cycle through "
                        "links '%s' (joint '%s' joins the link to itself)", pn, JNAME(c, i));
        int other = c->parent_joint[j->child];
        if (other >= 0)
            return cerr(c, SN_ERR_MODEL, j->line, "joint", "link '%s' has two parents (joints "
                        "'%s' and '%s'); close kinematic loops with <constraints>", cn,
                        JNAME(c, other), JNAME(c, i));
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
            if (roots == 0) c->root = i;
            else if (roots == 1) second = i;
            roots++;
        }
    if (roots > 1)
        return cerr(c, SN_ERR_MODEL, c->links[second].line, "link", "two root links '%s' and "
                    "'%s': the joints must connect every link to one root", LNAME(c, c->root),
                    LNAME(c, second));
    // children lists in file order
    for (int i = 0; i <= c->nl; i++) c->child_start[i] = 0;
    for (int i = 0; i < c->nj; i++) c->child_start[c->joints[i].parent + 1]++;
    for (int i = 0; i < c->nl; i++) c->child_start[i + 1] += c->child_start[i];
    int* fill = c->order; // used as a cursor here, overwritten by the traversal below
    for (int i = 0; i < c->nl; i++) fill[i] = c->child_start[i];
    for (int i = 0; i < c->nj; i++) c->child_list[fill[c->joints[i].parent]++] = i;
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
    for (int i = 0; i < n; i++) seen[c->order[i]] = 2;
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
    return cerr(c, SN_ERR_MODEL, c->links[first].line, "joint", "joint graph contains a cycle "
                "through links %s%s", list, roots == 0 ? " (no root link)" : "");
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
        case SN_JOINT_FIXED: continue;
        case SN_JOINT_SPHERICAL: k->nq += 4, k->nv += 3; break;
        case SN_JOINT_FLOATING:
            if (floating || j->parent != c->root || c->parent_joint[j->parent] >= 0)
                return cerr(c, SN_ERR_MODEL, j->line, "joint", "joint '%s': a floating joint is "
                            "only supported from the fixed root link to the base", JNAME(c, i));
            k->nq += 7, k->nv += 6;
            break;
        default: k->nq += 1, k->nv += 1; break;
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
    for (int k = 0; k < 3; k++) nc[k] = (m0 * bc[k] + m1 * c[k]) / mt;
    // parallel-axis shift of both parts to the new com
    sn_real* bi = m->body_inertia + 9 * b;
    const sn_real* part_c[2] = {bc, c};
    const sn_real part_m[2] = {m0, m1};
    sn_real sum[9];
    for (int k = 0; k < 9; k++) sum[k] = bi[k] + ic[k];
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
                memcpy(fr, r, sizeof r);
                v3_copy(fp, p);
            } else {
                if (uj->type == SN_JOINT_FLOATING && vadr != 0)
                    return cerr(c, SN_ERR_MODEL, uj->line, "joint", "joint '%s': the floating "
                                "joint must come before every other movable joint",
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
    for (int j = 0; j < m->njoint; j++) m->ujoint_joint[m->joint_ujoint[j]] = j;
    // DOF parents: previous DOF of the same joint, else the last DOF of the nearest ancestor
    for (int j = 0; j < m->njoint; j++) {
        int v0 = m->joint_vadr[j], b = m->body_parent[m->joint_body[j]], up = SN_NONE;
        while (b > 0 && up == SN_NONE) {
            int pj = m->body_joint[b];
            if (m->joint_nv[pj] > 0) up = m->joint_vadr[pj] + m->joint_nv[pj] - 1;
            b = m->body_parent[b];
        }
        for (int k = 0; k < m->joint_nv[j]; k++) m->dof_parent[v0 + k] = k ? v0 + k - 1 : up;
    }
    // subtree masses and depth
    for (int b = 0; b < m->nbody; b++) m->subtree_mass[b] = m->body_mass[b];
    for (int b = m->nbody - 1; b > 0; b--) m->subtree_mass[m->body_parent[b]] += m->subtree_mass[b];
    m->max_depth = 0;
    for (int v = 0; v < m->nv; v++) {
        int d = 0;
        for (int k = v; k >= 0; k = m->dof_parent[k]) d++;
        if (d > m->max_depth) m->max_depth = d;
    }
    // zero configuration
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], a = m->joint_qadr[j];
        if (t == SN_JOINT_SPHERICAL) m->q0[a] = 1;
        if (t == SN_JOINT_FLOATING) m->q0[a + 3] = 1;
    }
    return SN_OK;
}


// mimic leaders, and no cycles among them
static sn_status resolve_mimic(compiler* c, sn_model* m) {
    for (int j = 0; j < m->njoint; j++) {
        int u = m->joint_ujoint[j];
        if (u >= c->nj || c->joints[u].mimic_name < 0) continue;
        const sni_joint* uj = &c->joints[u];
        const char* leader = SNI_NAME(c->s, uj->mimic_name);
        int lj = sn_model_find(m, SN_OBJ_JOINT, leader);
        if (lj < 0)
            return cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic", "joint '%s' mimics '%s', which "
                        "is not a movable joint", JNAME(c, u), leader);
        if (lj == j)
            return cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic", "joint '%s' mimics itself",
                        JNAME(c, u));
        if (m->joint_nv[lj] != 1 || m->joint_nv[j] != 1)
            return cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic", "mimic joints must both have "
                        "one DOF ('%s' mimics '%s')", JNAME(c, u), leader);
        m->joint_mimic[j] = lj;
        m->joint_mimic_multiplier[j] = uj->mimic_multiplier;
        m->joint_mimic_offset[j] = uj->mimic_offset;
    }
    for (int j = 0; j < m->njoint; j++) {
        int k = j, steps = 0;
        while (k >= 0 && steps <= m->njoint) k = m->joint_mimic[k], steps++;
        if (k >= 0) {
            const sni_joint* uj = &c->joints[m->joint_ujoint[j]];
            return cerr(c, SN_ERR_MODEL, uj->mimic_line, "mimic", "mimic joints form a cycle "
                        "through joint '%s'", JNAME(c, m->joint_ujoint[j]));
        }
    }
    return SN_OK;
}


// constraints: link names, nominal configuration
static sn_status resolve_constraints(compiler* c, sn_model* m, name_table* links) {
    const sni_constraint* k = (const sni_constraint*)c->s->constraints.data;
    for (int i = 0; i < m->nconstraint; i++) {
        const char* names[2] = {SNI_NAME(c->s, k[i].body1), SNI_NAME(c->s, k[i].body2)};
        for (int e = 0; e < 2; e++) {
            int f = table_find(links, c->s->names.data, &c->links[0].name, sizeof(sni_link),
                               names[e], -1);
            if (f < 0)
                return cerr(c, SN_ERR_MODEL, k[i].line, k[i].type ? "equality" : "pin",
                            "body%d '%s' of the constraint is not a link", e + 1, names[e]);
            if (e == 0) m->constraint_frame1[i] = f;
            else m->constraint_frame2[i] = f;
        }
        m->constraint_type[i] = k[i].type;
        m->constraint_naxis[i] = k[i].naxis;
        v3_copy(m->constraint_anchor + 3 * i, k[i].anchor);
        memcpy(m->constraint_axes + 6 * i, k[i].axes, sizeof k[i].axes);
    }
    if (!m->nominal_config) return SN_OK;
    int line = c->s->constraints_line;
    if (c->s->nnominal != m->nq)
        return cerr(c, SN_ERR_MODEL, line, "constraints", "nominal_config has %d entries; the "
                    "generalized coordinate has %d", c->s->nnominal, m->nq);
    memcpy(m->nominal_config, c->s->nominal, (size_t)m->nq * sizeof(sn_real));
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], a = m->joint_qadr[j];
        if (t == SN_JOINT_SPHERICAL || t == SN_JOINT_FLOATING) {
            sn_real* q = m->nominal_config + a + (t == SN_JOINT_FLOATING ? 3 : 0);
            sn_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (!(n > 1e-12))
                return cerr(c, SN_ERR_MODEL, line, "constraints", "nominal_config: the quaternion "
                            "of joint '%s' is zero", m->names + m->joint_name[j]);
            if (fabs(n - 1) > 1e-9) {
                sni_spec_warn(c->s, line, "constraints", "nominal_config: quaternion of joint "
                              "'%s' has norm %g and was normalized", m->names + m->joint_name[j], n);
                for (int e = 0; e < 4; e++) q[e] /= n;
            }
        } else {
            int v = m->joint_vadr[j];
            sn_real x = m->nominal_config[a];
            if (m->dof_limited[v] && (x < m->dof_lower[v] || x > m->dof_upper[v]))
                sni_spec_warn(c->s, line, "constraints", "nominal_config: joint '%s' at %g is "
                              "outside its limits [%g, %g]", m->names + m->joint_name[j], x,
                              m->dof_lower[v], m->dof_upper[v]);
        }
    }
    return SN_OK;
}


static void fill_geoms(compiler* c, sn_model* m) {
    const sni_geom* g = (const sni_geom*)c->s->geoms.data;
    const sni_material* mt = (const sni_material*)c->s->materials.data;
    int nm = 0;
    for (int i = 0; i < SNI_NMAT(c->s); i++) {
        // inline materials (negative line) that repeat a defined name only refer to it
        int dup = -1;
        for (int k = 0; k < nm && dup < 0; k++)
            if (!strcmp(m->names + m->material_name[k], SNI_NAME(c->s, mt[i].name))) dup = k;
        if (dup >= 0) continue;
        m->material_name[nm] = (int)mt[i].name;
        memcpy(m->material_rgba + 4 * nm, mt[i].rgba, sizeof mt[i].rgba);
        nm++;
    }
    m->nmaterial = nm;
    for (int i = 0; i < m->ngeom; i++) {
        m->geom_type[i] = g[i].type;
        m->geom_frame[i] = g[i].link;
        m->geom_is_visual[i] = g[i].is_visual;
        m->geom_mesh[i] = g[i].mesh >= 0 ? (int)g[i].mesh : SN_NONE;
        m->geom_material[i] = SN_NONE;
        for (int k = 0; k < nm && g[i].material >= 0; k++)
            if (!strcmp(m->names + m->material_name[k], SNI_NAME(c->s, g[i].material)))
                m->geom_material[i] = k;
        v3_copy(m->geom_size + 3 * i, g[i].size);
        v3_copy(m->geom_pos + 3 * i, g[i].pos);
        memcpy(m->geom_rot + 9 * i, g[i].rot, sizeof g[i].rot);
    }
}


// the mass matrix at the zero configuration must be positive definite
static sn_status check_mass(compiler* c, sn_model* m) {
    if (m->nv == 0) return SN_OK;
    sn_data* d = NULL;
    sn_data_opts o = {c->alloc};
    sn_status st = sn_data_create(m, &o, &d, c->err);
    if (st != SN_OK) return st;
    sn_fk(m, d);
    sn_crba(m, d);
    st = sn_factor_mass(m, d);
    sn_real scale = 0;
    for (int v = 0; v < m->nv; v++) scale = fmax(scale, fabs(d->mass_matrix[v * m->nv + v]));
    int bad = -1;
    for (int v = m->nv - 1; v >= 0 && bad < 0; v--)
        if (!isnan(d->mass_factor_d[v]) && !(d->mass_factor_d[v] > 1e-14 * scale)) bad = v;
    if (st != SN_OK || bad >= 0) {
        if (bad < 0) bad = 0;
        int j = m->dof_joint[bad];
        int u = m->joint_ujoint[j];
        int line = u < c->nj ? c->joints[u].line : 0;
        st = cerr(c, SN_ERR_MODEL, line, "joint", "mass and inertia of moving bodies must be "
                  "positive: the bodies moved by joint '%s' have no mass or inertia about its "
                  "axis (a link without <inertial> has mass 0)", m->names + m->joint_name[j]);
    }
    sn_data_destroy(d);
    return st;
}


static sn_status build(compiler* c, name_table* lt, sn_model** out) {
    sni_spec* s = c->s;
    int floating = 0;
    const char* rootname = LNAME(c, c->root);
    int root_is_world = strcmp(rootname, "world") == 0;
    if (s->base == SN_BASE_FLOATING && root_is_world)
        return cerr(c, SN_ERR_MODEL, c->links[c->root].line, "link", "a floating base was "
                    "requested but the root link is named 'world'");
    floating = s->base == SN_BASE_FLOATING || (s->base == SN_BASE_AUTO && !root_is_world);
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
    tmp.nconstraint = SNI_NCON(s), tmp.nmaterial = SNI_NMAT(s);
    tmp.is_floating = floating || (k.njoint > 0 && 0);
    int nwarn_stored = s->nwarning < 64 ? s->nwarning : 64;
    // warnings raised below are not stored in the block; leave room for 8 more
    size_t warn_len = s->warnings.len + 8 * 900;
    carver cv = {NULL, sizeof(sn_model)};
    sn_model* m = &tmp;
    layout(m, &cv, s->names.len, warn_len, nwarn_stored + 8, s->has_nominal);
    size_t total = cv.off;
    char* block = sni_alloc(c->alloc, total);
    if (!block) return cerr(c, SN_ERR_NOMEM, 0, "", "out of memory (%zu bytes)", total);
    m = (sn_model*)block;
    *m = tmp;
    m->size_ = total;
    m->allocator_ = sni_allocator_or_default(c->alloc);
    carver cv2 = {block, sizeof(sn_model)};
    layout(m, &cv2, s->names.len, warn_len, nwarn_stored + 8, s->has_nominal);
    memcpy(m->names, s->names.data, s->names.len);
    st = build_tree(c, m, floating, floating ? root_name : world_name);
    for (int j = 0; j < m->njoint && st == SN_OK; j++)
        if (m->joint_type[j] == SN_JOINT_FLOATING) m->is_floating = 1;
    if (st == SN_OK) st = resolve_mimic(c, m);
    if (st == SN_OK) st = resolve_constraints(c, m, lt);
    if (st == SN_OK) fill_geoms(c, m);
    if (st == SN_OK) st = check_mass(c, m);
    if (st != SN_OK) {
        sn_model_destroy(m);
        return st;
    }
    // warnings (texts after the pointer array)
    char* text = (char*)(m->warnings + nwarn_stored + 8);
    size_t off = 0;
    int stored = 0;
    const char* w = s->warnings.data;
    for (size_t pos = 0; pos < s->warnings.len && stored < nwarn_stored + 8;) {
        size_t len = strlen(w + pos) + 1;
        if (off + len > warn_len) break;
        memcpy(text + off, w + pos, len);
        m->warnings[stored++] = text + off;
        off += len;
        pos += len;
    }
    m->nwarning = s->nwarning;
    *out = m;
    return SN_OK;
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
    if (c.nl == 0) return sni_error(err, SN_ERR_MODEL, s->file, 0, "robot", "the robot has no <link>");
    size_t ints = (size_t)c.nl * 3 + 1 + (size_t)c.nj;
    int* mem = sni_alloc(a, ints * sizeof(int));
    if (!mem) return sni_error(err, SN_ERR_NOMEM, s->file, 0, "", "out of memory");
    c.parent_joint = mem;
    c.child_start = mem + c.nl;
    c.order = mem + 2 * c.nl + 1;
    c.child_list = mem + 3 * c.nl + 1;
    name_table lt;
    sn_status st = table_init(&lt, a, c.nl) ? SN_OK
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
