// SPDX-License-Identifier: Apache-2.0
// physics.c: an articulated robot described with UsdPhysics, from the prims of a .usda layer
// (usda.c) into a spec (docs/usd.md). The rigid bodies and the joints between them form a graph;
// a breadth-first walk from the world (or, without a joint to the world, from the articulation
// root) takes each body's first joint as its tree joint. Joints marked
// physics:excludeFromArticulation, and any further joint into a body that already has its tree
// joint, close loops (seed 001): a revolute one with two pins on its axis, a spherical one with a
// pin at its anchor, a fixed one with three pins, a prismatic one with an orientation constraint
// and an equality constraint across its axis. The bodies' poses in the file are the joints' zero.
#include "usd/build.h"

#include <stdio.h>
#include <stdlib.h>

// ---- bodies and joints ----


typedef struct named {
    const char* s;
    int n, index;
} named;

static int by_name(const void* x, const void* y) {
    const named *a = x, *b = y;
    int c = memcmp(a->s, b->s, (size_t)(a->n < b->n ? a->n : b->n));
    if (c) return c;
    return a->n != b->n ? (a->n < b->n ? -1 : 1) : (a->index > b->index) - (a->index < b->index);
}

// names for the spec: each prim's own, or its path with '_' for '/' when another prim of the
// list has the same name (or it is a name sinew reserves)
static sn_status unique_names(builder* b, const int* prims, int n, long* out) {
    sni_usd_doc* d = b->d;
    named* v = sni_alloc(d->a, ((size_t)n + 1) * sizeof(named));
    if (!v) return sni_usd_fail(d, 0, SN_ERR_NOMEM, "", "out of memory");
    for (int i = 0; i < n; i++) {
        const sni_usd_tok* t = USD_TOK(d, USD_PRIM(d, prims[i])->name);
        v[i] = (named){t->s, t->n, i};
    }
    qsort(v, (size_t)n, sizeof *v, by_name);
    for (int i = 0; i < n; i++) {
        int dup =
            (i > 0 && v[i - 1].n == v[i].n && !memcmp(v[i - 1].s, v[i].s, (size_t)v[i].n)) ||
            (i + 1 < n && v[i + 1].n == v[i].n && !memcmp(v[i + 1].s, v[i].s, (size_t)v[i].n));
        dup |= (v[i].n == 5 && !memcmp(v[i].s, "world", 5)) ||
               (v[i].n == 4 && !memcmp(v[i].s, "ROOT", 4));
        char buf[256];
        if (!dup) {
            snprintf(buf, sizeof buf, "%.*s", v[i].n, v[i].s);
        } else {
            sni_usd_path(d, prims[v[i].index], buf, sizeof buf);
            for (char* c = buf; *c; c++)
                if (*c == '/') *c = '_';
            memmove(buf, buf + 1, strlen(buf));
        }
        out[v[i].index] = sni_spec_name(b->s, buf);
    }
    sni_free(d->a, v, ((size_t)n + 1) * sizeof(named));
    return d->st;
}

// the names of the bodies and the joints
static sn_status name_all(builder* b) {
    int n = b->nbody > b->njoint ? b->nbody : b->njoint;
    size_t bytes = ((size_t)n + 1) * (sizeof(int) + sizeof(long));
    char* mem = sni_alloc(b->d->a, bytes);
    if (!mem) return sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
    long* names = (long*)mem;
    int* prims = (int*)(names + n + 1);
    for (int i = 0; i < b->nbody; i++)
        prims[i] = b->bodies[i].prim;
    if (unique_names(b, prims, b->nbody, names) == SN_OK)
        for (int i = 0; i < b->nbody; i++)
            b->bodies[i].name = names[i];
    for (int i = 0; i < b->njoint; i++)
        prims[i] = b->joints[i].prim;
    if (b->d->st == SN_OK && unique_names(b, prims, b->njoint, names) == SN_OK)
        for (int i = 0; i < b->njoint; i++)
            b->joints[i].name = names[i];
    sni_free(b->d->a, mem, bytes);
    return b->d->st;
}

static sn_status collect_bodies(builder* b) {
    sni_usd_doc* d = b->d;
    int n = USD_NPRIM(d);
    for (int i = 1; i < n; i++) {
        const sni_usd_prim* p = USD_PRIM(d, i);
        if (!sni_usd_on_stage(d, i)) {
            if (p->specifier == 1 && !b->warned_over) {
                b->warned_over = 1;
                sni_usd_warn(b, i, "an 'over' prim%s is not read (a flattened layer has none)",
                             NULL);
            }
            continue;
        }
        if (!(p->api & USD_API_RIGID)) continue;
        if (b->nbody >= b->max_links)
            return sni_usd_refuse(b, i, SN_ERR_LIMIT,
                                  "more than %s rigid bodies (sn_load_opts.max_links)%s",
                                  "max_links", NULL);
        int enabled = 1, kinematic = 0;
        if (sni_usd_get_bool(b, i, "physics:rigidBodyEnabled", &enabled) < 0) return d->st;
        if (sni_usd_get_bool(b, i, "physics:kinematicEnabled", &kinematic) < 0) return d->st;
        if (!enabled) continue; // a static collider
        if (kinematic) sni_usd_warn(b, i, "a kinematic body%s is read as a static collider", NULL);
        if (kinematic) continue;
        b->owner[i] = b->nbody;
        body* bd = &b->bodies[b->nbody++];
        memset(bd, 0, sizeof *bd);
        bd->prim = i;
        bd->tree_joint = bd->parent = -1;
        if (sni_usd_rigid_frame(b, i, "a rigid body", &bd->W) != SN_OK) return d->st;
    }
    // geometry belongs to its nearest rigid body: the prims under a body get its owner
    for (int i = 1; i < n; i++)
        if (b->owner[i] < 0) b->owner[i] = b->owner[USD_PRIM(d, i)->parent];
    return d->st;
}

static int joint_kind(const sni_usd_doc* d, int prim) {
    if (sni_usd_type_is(d, prim, "PhysicsRevoluteJoint")) return SN_JOINT_REVOLUTE;
    if (sni_usd_type_is(d, prim, "PhysicsPrismaticJoint")) return SN_JOINT_PRISMATIC;
    if (sni_usd_type_is(d, prim, "PhysicsSphericalJoint")) return SN_JOINT_SPHERICAL;
    if (sni_usd_type_is(d, prim, "PhysicsFixedJoint")) return SN_JOINT_FIXED;
    return -1;
}

// a joint side's body and frame: physics:body0 or body1
static sn_status joint_side(builder* b, joint* j, int side) {
    sni_usd_doc* d = b->d;
    const char* rel = side ? "physics:body1" : "physics:body0";
    int k = sni_usd_prop_find(d, j->prim, rel), target = -1, tok = -1;
    j->b[side] = -1;
    j->F[side] = b->world[0]; // the world: the stage's axes turned to z up
    if (k < 0) return SN_OK;
    int r = sni_usd_rel(d, k, &target, &tok);
    if (r < 0) return d->st;
    if (r == 0) return SN_OK;
    if (target < 0) {
        char path[160];
        sni_usd_tok_str(d, tok, path, sizeof path);
        return sni_usd_refuse(b, j->prim, SN_ERR_MODEL, "%s names <%s>, which is not on the stage",
                              rel, path);
    }
    if (!sni_usd_on_stage(d, target)) {
        char path[160];
        sni_usd_tok_str(d, tok, path, sizeof path);
        return sni_usd_refuse(
            b, j->prim, SN_ERR_MODEL,
            "%s names <%s>, which is not on the stage (a class, over or inactive prim)", rel, path);
    }
    // a prim under a rigid body is that body, the local pose in the prim's frame
    int bi = b->owner[target];
    if (bi >= 0) {
        j->b[side] = bi;
        if (target == b->bodies[bi].prim) {
            j->F[side] = b->bodies[bi].W;
            return SN_OK;
        }
        return sni_usd_rigid_frame(b, target, "a joint's body", &j->F[side]);
    }
    // a static prim (a collider, an Xform): the world, at that prim's frame
    return sni_usd_rigid_frame(b, target, "a joint's static body", &j->F[side]);
}

// localPos and localRot of a side, in metres
static sn_status joint_local(builder* b, joint* j, int side) {
    sn_real pos[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0};
    if (sni_usd_get_reals(b, j->prim, side ? "physics:localPos1" : "physics:localPos0", pos, 3) <
            0 ||
        sni_usd_get_reals(b, j->prim, side ? "physics:localRot1" : "physics:localRot0", q, 4) < 0)
        return b->d->st;
    if (!isfinite(pos[0]) || !isfinite(pos[1]) || !isfinite(pos[2]))
        return sni_usd_refuse(b, j->prim, SN_ERR_MODEL, "physics:localPos%s is not finite",
                              side ? "1" : "0", NULL);
    if (!(quat_norm_safe(q) > 0))
        return sni_usd_refuse(b, j->prim, SN_ERR_MODEL, "physics:localRot%s is not a rotation",
                              side ? "1" : "0", NULL);
    sni_usd_quat_to_m3(j->X[side].A, q);
    v3_scale(j->X[side].t, pos, b->mpu);
    return SN_OK;
}

static sn_status collect_joints(builder* b) {
    sni_usd_doc* d = b->d;
    int n = USD_NPRIM(d);
    for (int i = 1; i < n && d->st == SN_OK; i++) {
        if (!sni_usd_on_stage(d, i)) continue;
        int kind = joint_kind(d, i);
        char tname[64] = "";
        if (USD_PRIM(d, i)->type >= 0)
            sni_usd_tok_str(d, USD_PRIM(d, i)->type, tname, sizeof tname);
        if (kind < 0) {
            if (!strncmp(tname, "Physics", 7) && strstr(tname, "Joint"))
                return sni_usd_refuse(
                    b, i, SN_ERR_MODEL,
                    "a %s is not read: sinew reads PhysicsRevoluteJoint, "
                    "PhysicsPrismaticJoint, PhysicsSphericalJoint and PhysicsFixedJoint",
                    tname, NULL);
            continue;
        }
        if (b->njoint >= b->max_links)
            return sni_usd_refuse(b, i, SN_ERR_LIMIT,
                                  "more than %s joints (sn_load_opts.max_links)%s", "max_links",
                                  NULL);
        joint* j = &b->joints[b->njoint];
        memset(j, 0, sizeof *j);
        j->prim = i;
        j->kind = kind;
        j->enabled = 1;
        if (sni_usd_get_bool(b, i, "physics:jointEnabled", &j->enabled) < 0 ||
            sni_usd_get_bool(b, i, "physics:excludeFromArticulation", &j->exclude) < 0)
            return d->st;
        if (!j->enabled) {
            sni_usd_warn(b, i, "physics:jointEnabled is false: the joint%s is not loaded", NULL);
            continue;
        }
        if (joint_side(b, j, 0) != SN_OK || joint_side(b, j, 1) != SN_OK ||
            joint_local(b, j, 0) != SN_OK || joint_local(b, j, 1) != SN_OK)
            return d->st;
        if (j->b[0] < 0 && j->b[1] < 0)
            return sni_usd_refuse(
                b, i, SN_ERR_MODEL,
                "the joint connects no rigid body (physics:body0 and body1 are both "
                "static or missing)%s%s",
                NULL, NULL);
        if (j->b[0] == j->b[1])
            return sni_usd_refuse(b, i, SN_ERR_MODEL,
                                  "physics:body0 and physics:body1 are the same body%s%s", NULL,
                                  NULL);
        j->axis = 0;
        if (kind == SN_JOINT_REVOLUTE || kind == SN_JOINT_PRISMATIC) {
            char ax[16] = "X";
            if (sni_usd_get_token(b, i, "physics:axis", ax, sizeof ax) < 0) return d->st;
            if (strlen(ax) != 1 || !strchr("XYZ", ax[0]))
                return sni_usd_refuse(b, i, SN_ERR_MODEL,
                                      "physics:axis is \"%s\": USD knows \"X\", \"Y\", \"Z\"", ax,
                                      NULL);
            j->axis = ax[0] - 'X';
        }
        b->njoint++;
    }
    return d->st;
}

// ---- the tree ----

// the other end of joint j from node x (a body, or nbody the world)
static int other_end(const builder* b, const joint* j, int x) {
    int e0 = j->b[0] < 0 ? b->nbody : j->b[0], e1 = j->b[1] < 0 ? b->nbody : j->b[1];
    return e0 == x ? e1 : e0;
}

// breadth first from node `start` (a body, or nbody the world): a body's first joint met is its
// tree joint
static void walk(builder* b, int start, int* queue) {
    int head = 0, tail = 0;
    queue[tail++] = start;
    if (start < b->nbody) b->bodies[start].visited = 1;
    while (head < tail) {
        int x = queue[head++];
        for (int e = b->adj0[x]; e < b->adj0[x + 1]; e++) {
            int k = b->adj[e];
            joint* j = &b->joints[k];
            if (j->exclude) continue;
            int y = other_end(b, j, x);
            if (y < b->nbody && !b->bodies[y].visited) {
                b->bodies[y].visited = 1;
                b->bodies[y].tree_joint = k;
                b->bodies[y].parent = x < b->nbody ? x : -1;
                b->childof[k] = y;
                j->reversed = j->b[1] != y;
                queue[tail++] = y;
            }
        }
    }
}

static sn_status build_tree(builder* b) {
    int nb = b->nbody, nj = b->njoint;
    // the joints at each node, in file order
    for (int x = 0; x <= nb + 1; x++)
        b->adj0[x] = 0;
    for (int k = 0; k < nj; k++)
        for (int s = 0; s < 2; s++)
            b->adj0[(b->joints[k].b[s] < 0 ? nb : b->joints[k].b[s]) + 1]++;
    for (int x = 0; x <= nb; x++)
        b->adj0[x + 1] += b->adj0[x];
    int* fill = b->first; // scratch until the children's lists are made
    for (int x = 0; x <= nb; x++)
        fill[x] = b->adj0[x];
    for (int k = 0; k < nj; k++)
        for (int s = 0; s < 2; s++)
            b->adj[fill[b->joints[k].b[s] < 0 ? nb : b->joints[k].b[s]]++] = k;
    for (int k = 0; k < nj; k++)
        b->childof[k] = -1;
    int* queue = b->sib; // scratch too
    walk(b, nb, queue);
    int attached = 0, free_roots = 0;
    for (int i = 0; i < nb; i++)
        attached += b->bodies[i].visited;
    // the rest: free articulations, each from its articulation root (else its first body)
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nb; i++) {
            if (b->bodies[i].visited) continue;
            int root = 0;
            for (int p = b->bodies[i].prim; p > 0 && !root; p = USD_PRIM(b->d, p)->parent)
                root = (USD_PRIM(b->d, p)->api & USD_API_ARTROOT) != 0;
            if (pass == 0 && !root) continue;
            walk(b, i, queue);
            free_roots++;
        }
    // every joint not in the tree closes a loop; the children's lists in joint order
    for (int i = 0; i <= nb; i++)
        b->first[i] = b->sib[i] = -1;
    for (int k = nj - 1; k >= 0; k--) {
        int c = b->childof[k];
        b->joints[k].loop = c < 0;
        if (c < 0) continue;
        int p = b->bodies[c].parent < 0 ? nb : b->bodies[c].parent;
        b->sib[c] = b->first[p];
        b->first[p] = c;
    }
    b->floating = attached == 0 && free_roots == 1;
    b->has_world_link = !b->floating;
    return SN_OK;
}

// a body's link frame: a root's is its body's; a child's is its tree joint's frame on the
// parent's side at the reference pose. The body's frame in it follows.
static void link_frame(builder* b, body* bd) {
    if (bd->tree_joint < 0) {
        bd->L = bd->W;
    } else {
        const joint* j = &b->joints[bd->tree_joint];
        int ps = j->reversed ? 1 : 0; // the parent's side
        sni_usd_aff_mul(&bd->L, &j->F[ps], &j->X[ps]);
    }
    sni_usd_rigid_inv(&bd->O, &bd->L);
    sni_usd_aff_mul(&bd->O, &bd->O, &bd->W);
}

// do a joint's two sides agree at the reference pose? (a warning otherwise)
static void check_agree(builder* b, const joint* j) {
    aff s0, s1;
    sni_usd_aff_mul(&s0, &j->F[0], &j->X[0]);
    sni_usd_aff_mul(&s1, &j->F[1], &j->X[1]);
    sn_real dp[3];
    v3_sub(dp, s0.t, s1.t);
    char what[160];
    if (v3_norm(dp) > AGREE_POS) {
        snprintf(what, sizeof what, "%.3g m", v3_norm(dp));
        sni_usd_warn(b, j->prim,
                     "the joint's two anchors are %s apart where the file places its bodies (the "
                     "bodies' poses are the joints' zero)",
                     what);
    }
    // the axis (revolute, prismatic) or the whole frame (fixed) in the world from both sides
    sn_real worst = 0;
    for (int c = 0; c < 3; c++) {
        if ((j->kind == SN_JOINT_REVOLUTE || j->kind == SN_JOINT_PRISMATIC) && c != j->axis)
            continue;
        if (j->kind == SN_JOINT_SPHERICAL) continue;
        sn_real a0[3] = {s0.A[c], s0.A[3 + c], s0.A[6 + c]},
                a1[3] = {s1.A[c], s1.A[3 + c], s1.A[6 + c]};
        sn_real x[3];
        v3_cross(x, a0, a1);
        sn_real ang = atan2(v3_norm(x), v3_dot(a0, a1));
        if (ang > worst) worst = ang;
    }
    if (worst > AGREE_ROT) {
        snprintf(what, sizeof what, "%.3g rad", worst);
        sni_usd_warn(
            b, j->prim,
            "the joint's two frames disagree by %s where the file places its bodies (the body0 "
            "side is used)",
            what);
    }
}

// ---- the spec ----

static sn_status new_link(builder* b, long name, int line, int* id) {
    sni_link* l = sni_buf_grow(&b->s->links, sizeof(sni_link));
    if (!l) return sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
    memset(l, 0, sizeof *l);
    l->name = name;
    l->line = line;
    *id = SNI_NLINK(b->s) - 1;
    return SN_OK;
}

static sn_status drive_and_limits(builder* b, const joint* j, sni_joint* sj) {
    sni_usd_doc* d = b->d;
    int prim = j->prim;
    sn_real unit = j->kind == SN_JOINT_REVOLUTE ? DEG : b->mpu;
    sn_real lo = -(sn_real)INFINITY, hi = (sn_real)INFINITY;
    if (sni_usd_get_reals(b, prim, "physics:lowerLimit", &lo, 1) < 0 ||
        sni_usd_get_reals(b, prim, "physics:upperLimit", &hi, 1) < 0)
        return d->st;
    if (j->kind == SN_JOINT_REVOLUTE || j->kind == SN_JOINT_PRISMATIC) {
        if (isfinite(lo) && isfinite(hi) && lo > hi)
            return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                                  "physics:lowerLimit is above physics:upperLimit%s%s", NULL, NULL);
        sj->has_lower = isfinite(lo);
        sj->has_upper = isfinite(hi);
        sj->has_limit = sj->has_lower || sj->has_upper;
        sj->lower = sj->has_lower ? lo * unit : 0;
        sj->upper = sj->has_upper ? hi * unit : 0;
        if (j->kind == SN_JOINT_REVOLUTE && !sj->has_limit) sj->type = SN_JOINT_CONTINUOUS;
        // a joint turned around keeps q (its axis reversed), so its limits stay as written
    }
    unsigned api = USD_PRIM(d, prim)->api;
    int ang = (api & USD_API_DRIVE_ANG) != 0, lin = (api & USD_API_DRIVE_LIN) != 0;
    if (!ang && !lin) return SN_OK;
    if ((ang && j->kind != SN_JOINT_REVOLUTE) || (lin && j->kind != SN_JOINT_PRISMATIC)) {
        sni_usd_warn(b, prim, "a %s drive on this joint is not applied",
                     ang ? "angular" : "linear");
        return SN_OK;
    }
    const char* pre = ang ? "drive:angular:physics:" : "drive:linear:physics:";
    char name[96];
    sn_real kp = 0, kd = 0, fmax = (sn_real)INFINITY, target = 0, vtarget = 0;
    const char* keys[] = {"stiffness", "damping", "maxForce", "targetPosition", "targetVelocity"};
    sn_real* vals[] = {&kp, &kd, &fmax, &target, &vtarget};
    for (int k = 0; k < 5; k++) {
        snprintf(name, sizeof name, "%s%s", pre, keys[k]);
        if (sni_usd_get_reals(b, prim, name, vals[k], 1) < 0) return d->st;
    }
    if (!(kp >= 0) || !(kd >= 0) || !isfinite(kp) || !isfinite(kd))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                              "the drive's stiffness and damping must be finite and "
                              "not negative%s%s",
                              NULL, NULL);
    // sinew's units: a force is kg m / s^2 (kpu mpu in stage units), an angle a radian (USD's
    // angular drives are per degree)
    sn_real force = b->kpu * b->mpu, per = ang ? force * b->mpu / DEG : force / b->mpu;
    sj->kp = kp * per;
    sj->kd = kd * per;
    fmax *= ang ? force * b->mpu : force;
    if (isfinite(fmax) && fmax > 0) sj->effort = fmax;
    if (target != 0 || vtarget != 0)
        sni_usd_warn(
            b, prim,
            "the drive's target is not applied%s: sinew's servos hold the start pose (set targets "
            "with sn_system_set_pd_target)",
            "");
    return SN_OK;
}

// the spec's link of body i and the joint to its parent link
static sn_status emit(builder* b, int i, int parent_link) {
    sni_usd_doc* d = b->d;
    body* bd = &b->bodies[i];
    int line = USD_PRIM(d, bd->prim)->line;
    int id = 0;
    link_frame(b, bd);
    if (new_link(b, bd->name, line, &id) != SN_OK) return d->st;
    bd->link = id;
    if (bd->tree_joint < 0 && !b->has_world_link) return SN_OK; // the floating base
    sni_joint* sj = sni_buf_grow(&b->s->joints, sizeof(sni_joint));
    if (!sj) return sni_usd_fail(d, 0, SN_ERR_NOMEM, "", "out of memory");
    memset(sj, 0, sizeof *sj);
    sj->mimic_name = -1;
    sj->parent_name = ((sni_link*)b->s->links.data)[parent_link].name;
    sj->child_name = bd->name;
    m3_identity(sj->rot);
    if (bd->tree_joint < 0) { // a free articulation in a world with other bodies: at nominal
        sj->type = SN_JOINT_FLOATING;
        b->freebody[b->nfree++] = i;
        char buf[200];
        snprintf(buf, sizeof buf, "%s_free", SNI_NAME(b->s, bd->name));
        sj->name = sni_spec_name(b->s, buf);
        sj->line = line;
        v3_set(sj->axis, 1, 0, 0);
        return SN_OK;
    }
    aff X;
    if (bd->parent >= 0)
        sni_usd_rigid_inv(&X, &b->bodies[bd->parent].L);
    else
        sni_usd_aff_identity(&X);
    sni_usd_aff_mul(&X, &X, &bd->L);
    v3_copy(sj->pos, X.t);
    memcpy(sj->rot, X.A, sizeof sj->rot);
    const joint* j = &b->joints[bd->tree_joint];
    sj->name = j->name;
    sj->line = USD_PRIM(d, j->prim)->line;
    sj->type = j->kind;
    v3_set(sj->axis, 0, 0, 0);
    sj->axis[j->axis] = j->reversed ? -1 : 1; // q keeps its sign when the tree runs backwards
    if (drive_and_limits(b, j, sj) != SN_OK) return d->st;
    check_agree(b, j);
    return SN_OK;
}

// every link and tree joint, depth first from each root (parents before children, children in
// joint order, so that the compiler's coordinate order is the spec's)
static sn_status emit_all(builder* b, int world_link) {
    int nb = b->nbody, top = 0;
    int* st = sni_alloc(b->d->a, ((size_t)nb + 1) * 2 * sizeof(int));
    if (!st) return sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
    // the roots: the world's children, then the free articulations' roots in body order
    int* roots = st + (size_t)nb + 1;
    int n = 0;
    for (int r = b->first[nb]; r >= 0; r = b->sib[r])
        roots[n++] = r;
    for (int i = 0; i < nb; i++)
        if (b->bodies[i].tree_joint < 0) roots[n++] = i;
    sn_status s = SN_OK;
    for (int k = 0; k < n && s == SN_OK; k++) {
        top = 0;
        st[top++] = roots[k];
        while (top > 0 && s == SN_OK) {
            int i = st[--top];
            const body* bd = &b->bodies[i];
            int pl = bd->parent >= 0 ? b->bodies[bd->parent].link : world_link;
            s = emit(b, i, pl);
            // children pushed in reverse joint order
            int m = 0;
            for (int c = b->first[i]; c >= 0; c = b->sib[c])
                m++;
            int at = top + m;
            for (int c = b->first[i]; c >= 0; c = b->sib[c])
                st[--at] = c;
            top += m;
        }
    }
    sni_free(b->d->a, st, ((size_t)nb + 1) * 2 * sizeof(int));
    return s;
}

static sni_constraint* new_con(builder* b, const joint* j, int type, long n1, long n2) {
    sni_constraint* c = sni_buf_grow(&b->s->constraints, sizeof(sni_constraint));
    if (!c) {
        sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->type = type;
    c->line = USD_PRIM(b->d, j->prim)->line;
    c->element = joint_kind(b->d, j->prim) == SN_JOINT_REVOLUTE    ? "PhysicsRevoluteJoint"
                 : joint_kind(b->d, j->prim) == SN_JOINT_SPHERICAL ? "PhysicsSphericalJoint"
                 : joint_kind(b->d, j->prim) == SN_JOINT_FIXED     ? "PhysicsFixedJoint"
                                                                   : "PhysicsPrismaticJoint";
    c->body1 = n1;
    c->body2 = n2;
    if (type == SN_CONSTRAINT_PIN) {
        c->naxis = 3;
        v3_set(c->axes, 1, 0, 0);
        v3_set(c->axes + 3, 0, 1, 0);
    }
    return c;
}

// the frame of joint j's side `side`, in that side's link frame (the world's: the world)
static void side_frame(const builder* b, const joint* j, int side, aff* out) {
    aff L;
    if (j->b[side] >= 0)
        L = b->bodies[j->b[side]].L;
    else
        sni_usd_aff_identity(&L);
    sni_usd_rigid_inv(out, &L);
    sni_usd_aff_mul(out, out, &j->F[side]);
    sni_usd_aff_mul(out, out, &j->X[side]);
}

// a pin of a loop joint at offset o (in the joint's frame): on body0's side (sinew's body1) and,
// as the file gives it, on body1's
static sni_constraint* loop_pin(builder* b, const joint* j, long n1, long n2, const aff* J0,
                                const aff* J1, const sn_real* o) {
    sni_constraint* c = new_con(b, j, SN_CONSTRAINT_PIN, n1, n2);
    if (!c) return NULL;
    m3_mul_v3(c->anchor, J0->A, o);
    v3_add(c->anchor, c->anchor, J0->t);
    m3_mul_v3(c->anchor2, J1->A, o);
    v3_add(c->anchor2, c->anchor2, J1->t);
    c->has_anchor2 = 1;
    return c;
}

// a loop joint's constraints (seed 001): each anchor on both bodies where the file's localPos0/1
// put it, so that a loop the file leaves open is closed by the assembly (sn_system_apply_file)
static sn_status close_loop(builder* b, joint* j) {
    long world = sni_spec_name(b->s, "world");
    long n1 = j->b[0] >= 0 ? b->bodies[j->b[0]].name : world;
    long n2 = j->b[1] >= 0 ? b->bodies[j->b[1]].name : world;
    aff J0, J1; // the joint's frame on each side, in that side's link frame
    side_frame(b, j, 0, &J0);
    side_frame(b, j, 1, &J1);
    check_agree(b, j);
    if (USD_PRIM(b->d, j->prim)->api & (USD_API_DRIVE_ANG | USD_API_DRIVE_LIN))
        sni_usd_warn(b, j->prim, "a loop joint's drive%s is not applied", NULL);
    sn_real lo = -(sn_real)INFINITY, hi = (sn_real)INFINITY;
    if (sni_usd_get_reals(b, j->prim, "physics:lowerLimit", &lo, 1) < 0 ||
        sni_usd_get_reals(b, j->prim, "physics:upperLimit", &hi, 1) < 0)
        return b->d->st;
    if ((isfinite(lo) || isfinite(hi)) && j->kind != SN_JOINT_FIXED)
        sni_usd_warn(b, j->prim, "a loop joint's limits%s are not applied", NULL);
    sn_real o[3] = {0, 0, 0};
    sni_constraint* c;
    switch (j->kind) {
    case SN_JOINT_REVOLUTE: // two pins on the axis
        for (int s = -1; s <= 1; s += 2) {
            v3_set(o, 0, 0, 0);
            o[j->axis] = s * PIN_GAP;
            if (!loop_pin(b, j, n1, n2, &J0, &J1, o)) return b->d->st;
        }
        break;
    case SN_JOINT_SPHERICAL: // one pin at the anchor
        if (!loop_pin(b, j, n1, n2, &J0, &J1, o)) return b->d->st;
        break;
    case SN_JOINT_FIXED: // three pins: the anchor and along the frame's x and y
        for (int s = 0; s < 3; s++) {
            v3_set(o, 0, 0, 0);
            if (s) o[s - 1] = PIN_GAP;
            if (!loop_pin(b, j, n1, n2, &J0, &J1, o)) return b->d->st;
        }
        break;
    default: // prismatic: the orientation kept, the anchor held across the axis
        if (!(c = new_con(b, j, SN_CONSTRAINT_ORIENTATION, n1, n2))) return b->d->st;
        c->has_rot2 = 1; // body2's link frame in body1's, where the joint's two frames agree
        m3_mul_t(c->rot2, J0.A, J1.A);
        if (!(c = new_con(b, j, SN_CONSTRAINT_EQUALITY, n1, n2))) return b->d->st;
        v3_copy(c->anchor, J0.t);
        v3_copy(c->anchor2, J1.t);
        c->has_anchor2 = 1;
        c->naxis = 2;
        for (int k = 0; k < 2; k++) {
            int a = (j->axis + 1 + k) % 3;
            v3_set(c->axes + 3 * k, J0.A[a], J0.A[3 + a], J0.A[6 + a]);
        }
        break;
    }
    return SN_OK;
}

// the physics scene's gravity
static sn_status scene(builder* b) {
    sni_usd_doc* d = b->d;
    for (int i = 1; i < USD_NPRIM(d); i++) {
        if (!sni_usd_on_stage(d, i) || !sni_usd_type_is(d, i, "PhysicsScene")) continue;
        sn_real dir[3] = {0, 0, -1}, mag = -(sn_real)INFINITY;
        int hd = sni_usd_get_reals(b, i, "physics:gravityDirection", dir, 3);
        if (hd < 0 || sni_usd_get_reals(b, i, "physics:gravityMagnitude", &mag, 1) < 0)
            return d->st;
        if (hd > 0) { // in the stage's axes
            sn_real t[3];
            m3_mul_v3(t, b->world[0].A, dir);
            v3_copy(dir, t);
        }
        sn_real n = v3_norm(dir);
        if (!(n > 0) || !isfinite(n)) v3_set(dir, 0, 0, -1), n = 1;
        // -inf: the earth's gravity; otherwise in stage units per second squared
        sn_real g = isfinite(mag) && mag >= 0 ? mag * b->mpu : 9.81;
        v3_scale(b->s->option_gravity, dir, g / n);
        b->s->option_has_gravity = 1;
        return SN_OK;
    }
    return SN_OK;
}

// the nominal configuration: every joint at the reference pose (zero), a floating base and free
// articulations where the file puts them
static sn_status nominal(builder* b) {
    sni_spec* s = b->s;
    int nq = b->floating ? 7 : 0;
    const sni_joint* jt = (const sni_joint*)s->joints.data;
    int nj = SNI_NJOINT(s);
    for (int i = 0; i < nj; i++)
        nq += jt[i].type == SN_JOINT_FLOATING    ? 7
              : jt[i].type == SN_JOINT_SPHERICAL ? 4
              : jt[i].type == SN_JOINT_FIXED     ? 0
                                                 : 1;
    s->nominal = sni_alloc(s->alloc, ((size_t)nq + 1) * sizeof(sn_real));
    if (!s->nominal) return sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
    s->nominal_bytes = ((size_t)nq + 1) * sizeof(sn_real);
    int a = 0, f = 0;
    if (b->floating) {
        const body* r = NULL;
        for (int i = 0; i < b->nbody; i++)
            if (b->bodies[i].tree_joint < 0) r = &b->bodies[i];
        if (r) {
            v3_copy(s->nominal, r->L.t);
            m3_to_quat(s->nominal + 3, r->L.A);
        }
        a = 7;
    }
    for (int i = 0; i < nj; i++) {
        if (jt[i].type == SN_JOINT_FLOATING) { // made in this order by emit
            const body* fb = &b->bodies[b->freebody[f++]];
            v3_copy(s->nominal + a, fb->L.t);
            m3_to_quat(s->nominal + a + 3, fb->L.A);
            a += 7;
        } else if (jt[i].type == SN_JOINT_SPHERICAL) {
            s->nominal[a] = 1;
            a += 4;
        } else if (jt[i].type != SN_JOINT_FIXED) {
            a++;
        }
    }
    s->nnominal = nq;
    s->has_nominal = 1;
    return SN_OK;
}

sn_status sni_usd_to_spec(sni_usd_doc* d, sni_spec* s, int max_links) {
    builder b;
    memset(&b, 0, sizeof b);
    b.d = d;
    b.s = s;
    b.mpu = d->meters_per_unit;
    b.density.alloc = d->a;
    b.kpu = d->kilograms_per_unit;
    int n = USD_NPRIM(d);
    b.max_links = max_links > 0 ? max_links : 200000;
    // per prim: its frame, a body and a joint at most, the owner map, the graph, the free bodies,
    // the bindings
    size_t np = (size_t)n + 2;
    size_t bytes = np * (sizeof(aff) + sizeof(body) + sizeof(joint) + 9 * sizeof(int));
    char* mem = sni_alloc(d->a, bytes);
    if (!mem) return sni_usd_fail(d, 0, SN_ERR_NOMEM, "", "out of memory");
    b.world = (aff*)mem;
    b.bodies = (body*)(b.world + np);
    b.joints = (joint*)(b.bodies + np);
    b.owner = (int*)(b.joints + np);
    b.adj0 = b.owner + np;
    b.adj = b.adj0 + np; // 2 per joint
    b.childof = b.adj + 2 * np;
    b.first = b.childof + np;
    b.sib = b.first + np;
    b.freebody = b.sib + np;
    b.binding = b.freebody + np;
    for (int i = 0; i < n; i++)
        b.owner[i] = -1, b.binding[i] = -2; // owners: the bodies, then the prims under them
    if (sni_usd_world_frames(&b) == SN_OK && collect_bodies(&b) == SN_OK && b.nbody == 0)
        sni_usd_fail(d, 0, SN_ERR_MODEL, "",
                     "no rigid body on the stage (a prim with PhysicsRigidBodyAPI)");
    if (d->st == SN_OK && collect_joints(&b) == SN_OK && name_all(&b) == SN_OK) build_tree(&b);
    if (d->st == SN_OK) {
        s->base = b.floating ? SN_BASE_FLOATING : SN_BASE_FIXED;
        int world = -1;
        if (b.has_world_link && new_link(&b, sni_spec_name(s, "world"), 0, &world) != SN_OK)
            goto done;
        emit_all(&b, world);
    }
    for (int k = 0; k < b.njoint && d->st == SN_OK; k++)
        if (b.joints[k].loop) close_loop(&b, &b.joints[k]);
    for (int i = 1; i < n && d->st == SN_OK; i++)
        if (sni_usd_on_stage(d, i)) sni_usd_geometry(&b, i);
    // the masses last: what the file does not give comes from the collision shapes
    if (d->st == SN_OK) sni_usd_masses(&b);
    if (d->st == SN_OK) scene(&b);
    if (d->st == SN_OK) nominal(&b);
done:
    sni_buf_free(&b.density);
    sni_free(d->a, mem, bytes);
    return d->st;
}

// ---- the entry points ----

sn_status sn_load_usd_string(const char* text, size_t len, const char* name,
                             const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!text) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_usd_string: text is NULL");
    if (len == 0)
        return sni_error(err, SN_ERR_PARSE, name, 0, "",
                         "sn_load_usd_string: len is 0: the input is empty (a USD text layer "
                         "starts with #usda 1.0)");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_usd_string: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!name) name = "<string>";
    if (!out) return sni_error(err, SN_ERR_ARG, name, 0, "", "out is NULL");
    *out = NULL;
    if (!text) return sni_error(err, SN_ERR_ARG, name, 0, "", "text is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : (size_t)64 << 20;
    if (len > max)
        return sni_error(
            err, SN_ERR_LIMIT, name, 0, "",
            "input of %zu bytes exceeds the limit of %zu (sn_load_opts.max_file_bytes)", len, max);
    const sn_allocator* a = opts ? opts->allocator : NULL;
    sni_spec s;
    sni_spec_init(&s, a, name);
    s.format = SN_FORMAT_USD;
    s.balance_inertia = opts ? opts->balance_inertia : 0;
    s.strict_inertia = opts ? opts->strict_inertia : 0;
    s.log = opts ? opts->log : NULL;
    s.log_ctx = opts ? opts->log_ctx : NULL;
    sni_usd_doc d;
    sn_status st = sni_usd_parse(&d, text, len, a, name, err);
    if (st == SN_OK) st = sni_usd_to_spec(&d, &s, opts ? opts->max_links : 0);
    if (st == SN_OK && s.names.failed)
        st = sni_error(err, SN_ERR_NOMEM, name, 0, "", "out of memory");
    if (st == SN_OK && opts && opts->base == SN_BASE_FLOATING && s.base != SN_BASE_FLOATING)
        st = sni_error(err, SN_ERR_MODEL, name, 0, "",
                       "a floating base was requested but the robot is jointed to the world");
    if (st == SN_OK) st = sni_compile(&s, a, out, err);
    sni_usd_free(&d);
    sni_spec_free(&s);
    return st;
}

sn_status sn_load_usd(const char* path, const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (out) *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_usd: path is NULL");
    if (!out) return sni_error(err, SN_ERR_ARG, NULL, 0, NULL, "sn_load_usd: out is NULL");
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, path ? path : "", 0, "", "out is NULL");
    *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, "", 0, "", "path is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : (size_t)64 << 20;
    const sn_allocator* a = opts ? opts->allocator : NULL;
    char* buf = NULL;
    size_t n = 0;
    sn_status st = sni_read_file(path, max, "sn_load_opts.max_file_bytes", a, &buf, &n, err);
    if (st != SN_OK) return st;
    st = sn_load_usd_string(buf, n, path, opts, out, err);
    sni_free(a, buf, n + 1);
    return st;
}
