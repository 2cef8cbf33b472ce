// SPDX-License-Identifier: Apache-2.0
// compile_topo.c: the first passes of the compiler. Checks the topology without recursion: names
// through a hash table, one parent per link, one root, cycles found by walking parent links;
// orders the links depth-first with children in file order, and counts bodies, joints and
// coordinates from the joint types. Every pass is linear in the model.
#include "model/compile.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---- a string hash set over name-pool offsets ----

static uint64_t hash_str(const char* s) {
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

sn_status sni_compile_table_init(name_table* t, const sn_allocator* a, int n) {
    t->cap = 16;
    while (t->cap < (size_t)n * 2)
        t->cap *= 2;
    t->alloc = a;
    t->slot = sni_alloc(a, t->cap * sizeof(int));
    if (!t->slot) return SN_ERR_NOMEM;
    for (size_t i = 0; i < t->cap; i++)
        t->slot[i] = -1;
    return SN_OK;
}

void sni_compile_table_free(name_table* t) {
    sni_free(t->alloc, t->slot, t->cap * sizeof(int));
}

int sni_compile_table_find(name_table* t, const char* pool, const long* offs, size_t stride,
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

sn_status sni_compile_resolve_names(compiler* c, name_table* links) {
    for (int i = 0; i < c->nl; i++) {
        int prev = sni_compile_table_find(links, c->s->names.data, &c->links[0].name,
                                          sizeof(sni_link), LNAME(c, i), i);
        if (prev >= 0)
            return sni_compile_error(c, SN_ERR_MODEL, c->links[i].line, "link",
                                     "link '%s' is not unique (first at line %d)", LNAME(c, i),
                                     c->links[prev].line);
    }
    name_table jt;
    if (sni_compile_table_init(&jt, c->alloc, c->nj) != SN_OK)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    sn_status st = SN_OK;
    for (int i = 0; i < c->nj && st == SN_OK; i++) {
        int prev = sni_compile_table_find(&jt, c->s->names.data, &c->joints[0].name,
                                          sizeof(sni_joint), JNAME(c, i), i);
        if (prev >= 0)
            st = sni_compile_error(c, SN_ERR_MODEL, c->joints[i].line, "joint",
                                   "joint '%s' is not unique (first at line %d)", JNAME(c, i),
                                   c->joints[prev].line);
    }
    sni_compile_table_free(&jt);
    if (st != SN_OK) return st;
    for (int i = 0; i < c->nl; i++)
        c->parent_joint[i] = -1;
    for (int i = 0; i < c->nj; i++) {
        sni_joint* j = &c->joints[i];
        if (j->parent_name < 0 || j->child_name < 0)
            return sni_compile_error(c, SN_ERR_MODEL, j->line, "joint", "joint '%s' has no <%s>",
                                     JNAME(c, i), j->parent_name < 0 ? "parent" : "child");
        const char* pn = SNI_NAME(c->s, j->parent_name);
        const char* cn = SNI_NAME(c->s, j->child_name);
        j->parent = sni_compile_table_find(links, c->s->names.data, &c->links[0].name,
                                           sizeof(sni_link), pn, -1);
        j->child = sni_compile_table_find(links, c->s->names.data, &c->links[0].name,
                                          sizeof(sni_link), cn, -1);
        if (j->parent < 0)
            return sni_compile_error(c, SN_ERR_MODEL, j->line, "joint",
                                     "parent link '%s' of joint '%s' not "
                                     "found",
                                     pn, JNAME(c, i));
        if (j->child < 0)
            return sni_compile_error(c, SN_ERR_MODEL, j->line, "joint",
                                     "child link '%s' of joint '%s' not "
                                     "found",
                                     cn, JNAME(c, i));
        if (j->parent == j->child)
            return sni_compile_error(c, SN_ERR_MODEL, j->line, "joint",
                                     "joint graph contains a cycle through "
                                     "links '%s' (joint '%s' joins the link to itself)",
                                     pn, JNAME(c, i));
        int other = c->parent_joint[j->child];
        if (other >= 0)
            return sni_compile_error(c, SN_ERR_MODEL, j->line, "joint",
                                     "link '%s' has two parents (joints "
                                     "'%s' and '%s'); close kinematic loops with <constraints>",
                                     cn, JNAME(c, other), JNAME(c, i));
        c->parent_joint[j->child] = i;
    }
    return SN_OK;
}

sn_status sni_compile_order_links(compiler* c) {
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
        return sni_compile_error(c, SN_ERR_MODEL, c->links[second].line, "link",
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
    if (!stk) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
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
    if (!seen) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
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
    return sni_compile_error(c, SN_ERR_MODEL, closing->line, "joint",
                             "joint graph contains a cycle through "
                             "links %s%s",
                             list, roots == 0 ? " (no root link)" : "");
}

// joint types and addresses; returns the counts
sn_status sni_compile_count(compiler* c, int floating, counts* k) {
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
                return sni_compile_error(c, SN_ERR_MODEL, j->line, "joint",
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
