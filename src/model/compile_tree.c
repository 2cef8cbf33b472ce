// SPDX-License-Identifier: Apache-2.0
// compile_tree.c: bodies, joints, DOFs and frames of the model in depth-first order. Links joined
// by fixed joints merge into one body (masses combined about the common centre of mass, by the
// parallel-axis theorem); each movable joint starts a body. Then the checks that need the tree:
// springs act on 1-DOF joints only, and the mass matrix at the zero configuration is positive
// definite (tested in O(nbody) without forming it).
#include "dynamics/dyn.h"
#include "model/compile.h"

#include <math.h>
#include <string.h>

// rigid transform composition: (R, p) = (Ra, pa) * (Rb, pb)
static void compose(sn_real* r, sn_real* p, const sn_real* ra, const sn_real* pa, const sn_real* rb,
                    const sn_real* pb) {
    sn_real t[3];
    m3_mul(r, ra, rb);
    m3_mul_v3(t, ra, pb);
    v3_add(p, pa, t);
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

// where the next body, joint, coordinate and velocity go
typedef struct cursor {
    int nbody, njoint, qadr, vadr;
} cursor;

// the world body, and with a floating base body 1 (the root link) on the joint "ROOT"
static void place_root(compiler* c, sn_model* m, int floating, long root_name, cursor* k) {
    m->body_parent[0] = SN_NONE;
    m->body_joint[0] = SN_NONE;
    m->body_name[0] = (int)(floating ? root_name : c->links[c->root].name);
    if (floating) {
        // body 1 is the root link with the floating joint "ROOT"
        m->body_parent[1] = 0;
        m->body_name[1] = (int)c->links[c->root].name;
        fill_joint(m, 0, SN_JOINT_FLOATING, 1, &k->qadr, &k->vadr, NULL);
        m->joint_name[0] = (int)root_name;
        m->joint_ujoint[0] = c->nj; // the extra URDF joint entry
        m3_identity(m->joint_rot);
        k->nbody = 2, k->njoint = 1;
    }
}

// link l welded by a fixed joint to its parent link pl: its frame pose (r, p) in body pb
static void place_welded(compiler* c, sn_model* m, int l, int pl, int pb, const sn_real* r,
                         const sn_real* p) {
    m->frame_body[l] = pb;
    // a body that begins at a link the reader made takes the name of the first link
    // the file names that is welded to it
    int first = pl;
    while (c->parent_joint[first] >= 0 && c->joints[c->parent_joint[first]].type == SN_JOINT_FIXED)
        first = c->joints[c->parent_joint[first]].parent;
    if (c->links[first].generated && !c->links[l].generated &&
        m->body_name[pb] == (int)c->links[first].name)
        m->body_name[pb] = (int)c->links[l].name;
    memcpy(m->frame_rot + 9 * l, r, 9 * sizeof(sn_real));
    v3_copy(m->frame_pos + 3 * l, p);
}

// link l: its frame, and a new body and joint when its parent joint moves; merged mass
static sn_status place_link(compiler* c, sn_model* m, int floating, int l, cursor* k) {
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
            place_welded(c, m, l, pl, pb, r, p);
        } else {
            if (uj->type == SN_JOINT_FLOATING && (floating || pb != 0))
                return sni_compile_error(c, SN_ERR_MODEL, uj->line, "joint",
                                         "joint '%s': a floating "
                                         "joint must hang from the root link of a fixed-base "
                                         "model",
                                         JNAME(c, pj));
            int b = k->nbody++, j = k->njoint++;
            m->body_parent[b] = pb;
            m->body_name[b] = (int)c->links[l].name;
            fill_joint(m, j, uj->type, b, &k->qadr, &k->vadr, uj);
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
    return SN_OK;
}

// URDF joints: the file's, then "ROOT"
static void fill_ujoints(compiler* c, sn_model* m, int floating, long root_name) {
    int uroot = floating ? c->nj : -1;
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
}

// DOF parents: previous DOF of the same joint, else the last DOF of the nearest ancestor
static void fill_dof_parents(sn_model* m) {
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
}

// subtree masses and depth
static sn_status fill_subtrees(compiler* c, sn_model* m) {
    for (int b = 0; b < m->nbody; b++)
        m->subtree_mass[b] = m->body_mass[b];
    for (int b = m->nbody - 1; b > 0; b--)
        m->subtree_mass[m->body_parent[b]] += m->subtree_mass[b];
    // a DOF's parent comes before it, so one pass gives every depth
    m->max_depth = 0;
    int* depth = sni_alloc(c->alloc, (size_t)(m->nv ? m->nv : 1) * sizeof(int));
    if (!depth) return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    for (int v = 0; v < m->nv; v++) {
        depth[v] = m->dof_parent[v] >= 0 ? depth[m->dof_parent[v]] + 1 : 1;
        if (depth[v] > m->max_depth) m->max_depth = depth[v];
    }
    sni_free(c->alloc, depth, (size_t)(m->nv ? m->nv : 1) * sizeof(int));
    return SN_OK;
}

// bodies, joints, DOFs and frames in depth-first order
sn_status sni_compile_tree(compiler* c, sn_model* m, int floating, long root_name) {
    cursor k = {1, 0, 0, 0};
    place_root(c, m, floating, root_name, &k);
    for (int n = 0; n < c->nl; n++) {
        int l = c->order[n];
        m->frame_order[n] = l;
        sn_status st = place_link(c, m, floating, l, &k);
        if (st != SN_OK) return st;
    }
    fill_ujoints(c, m, floating, root_name);
    fill_dof_parents(m);
    sn_status st = fill_subtrees(c, m);
    if (st != SN_OK) return st;
    // zero configuration
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j], a = m->joint_qadr[j];
        if (t == SN_JOINT_SPHERICAL) m->q0[a] = 1;
        if (t == SN_JOINT_FLOATING) m->q0[a + 3] = 1;
    }
    return SN_OK;
}

// springs (<dynamics stiffness spring_mount>) act on 1-DOF joints: a stiffness on a spherical
// joint is dropped from the model with a warning, so that dof_stiffness holds what the step uses
void sni_compile_check_springs(compiler* c, sn_model* m) {
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

// the first DOF (k, counted in the block) whose pivot in the L^T D L elimination of the nd x nd
// block D (last DOF first, as sn_factor_mass takes them) is not above thr or not finite; -1 when
// none. *smallest gets the smallest pivot met.
static int small_pivot(const sn_real* D, int nd, sn_real thr, sn_real* smallest) {
    sn_real L[36];
    memcpy(L, D, (size_t)(nd * nd) * sizeof(sn_real));
    for (int k = nd - 1; k >= 0; k--) {
        sn_real piv = L[k * nd + k];
        if (!(piv >= *smallest)) *smallest = piv;
        if (!(piv > thr) || !isfinite(piv)) return k;
        for (int r = 0; r < k; r++)
            for (int q = 0; q < k; q++)
                L[r * nd + q] -= L[r * nd + k] * L[k * nd + q] / piv;
    }
    return -1;
}

// the largest diagonal entry of M: S_v . (Ic S_v) + armature_v with the composite inertias Ic
// (as sn_crba forms them) from sn_fk's body inertias. They are formed in d->ws_art, 10 numbers
// per body, which sni_aba sets afresh from the body inertias before it reads it.
static sn_real mass_scale(const sn_model* m, sn_data* d) {
    sn_real* comp = d->ws_art;
    memcpy(comp, d->body_rbi, 10 * (size_t)m->nbody * sizeof(sn_real));
    for (int b = m->nbody - 1; b > 1; b--)
        for (int e = 0; e < 10; e++)
            comp[10 * m->body_parent[b] + e] += comp[10 * b + e];
    sn_real scale = 0;
    for (int v = 0; v < m->nv; v++) {
        sn_real f[6];
        rbi_mul(f, comp + 10 * m->dof_body[v], d->dof_motion + 6 * v);
        scale = fmax(scale, fabs(s6_dot(d->dof_motion + 6 * v, f) + m->dof_armature[v]));
    }
    return scale;
}

// The mass matrix (with rotor inertia) at the zero configuration must be positive definite. It
// is not formed: the articulated-body algorithm (sni_aba on a data without dense matrices, after
// sn_fk at q0) eliminates the DOFs from the leaves up, and the pivots of its joint-space blocks
// D_i = S_i^T IA_i S_i + armature, taken last DOF first, are those of the L^T D L factor of M
// (sn_factor_mass), so the test is the same in O(nbody) time and memory. A pivot must exceed
// 1e-14 times the largest diagonal entry of M, found from the composite inertias.
sn_status sni_compile_check_mass(compiler* c, sn_model* m) {
    if (m->nv == 0) return SN_OK;
    sn_data* d = NULL;
    if (sni_data_create_light(m, c->alloc, &d, NULL) != SN_OK)
        return sni_compile_error(c, SN_ERR_NOMEM, 0, "", "out of memory");
    // q = q0 and u = 0 in a new data: the bias terms are zero
    sn_status st = sn_fk(m, d);
    if (st == SN_OK) st = sn_fk_vel(m, d);
    sn_real thr = 1e-14 * mass_scale(m, d), smallest = INFINITY;
    if (st == SN_OK) st = sni_aba(m, d, NULL, NULL, NULL);
    int bad = -1, small = -1;
    // the backward pass stops at the first block that is not positive definite, which is at or
    // before (in this order) the first block whose pivot is too small: the blocks scanned have
    // their articulated inertia
    for (int b = m->nbody - 1; b > 0 && bad < 0; b--) {
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        sn_real D[36], before = smallest;
        sni_aba_joint_inertia(m, d, b, D);
        int k = small_pivot(D, nd, thr, &smallest);
        if (k >= 0) bad = v0 + k;
        if (smallest < before) small = v0;
    }
    sn_data_destroy(d);
    // the ABA failed on a block that passed the test by rounding: the smallest pivot is the one
    if (bad < 0 && st != SN_OK) bad = small >= 0 ? small : 0;
    if (bad < 0) return SN_OK;
    int j = m->dof_joint[bad];
    int u = m->joint_ujoint[j];
    // the floating base "ROOT" has no line of its own: point at the root link
    int line = u < c->nj ? c->joints[u].line : c->links[c->root].line;
    return sni_compile_error(c, SN_ERR_MODEL, line, u < c->nj ? "joint" : "link",
                             "mass and inertia of "
                             "moving bodies must be positive: the bodies moved by joint '%s' "
                             "have no mass or inertia about its axis (a link without <inertial> "
                             "has mass 0)",
                             m->names + m->joint_name[j]);
}


// does any movable 1-DOF joint have a springdamper?
static int has_springdampers(const compiler* c, const sn_model* m) {
    for (int j = 0; j < m->njoint; j++) {
        int u = m->joint_ujoint[j];
        if (u < c->nj && m->joint_nv[j] == 1 && c->joints[u].spring_timeconst > 0 &&
            c->joints[u].spring_dampratio > 0)
            return 1;
    }
    return 0;
}

// springdamper (MuJoCo's): the joint's stiffness and damping make a mass-spring-damper of the
// given time constant tc and damping ratio z with the joint's inertia m at the nominal
// configuration (1 / the diagonal of M^-1, as MuJoCo takes it): k = m / (tc z)^2, b = 2 m / tc.
// M^-1 needs the dense matrices, so this pass makes a full data, and only when a joint asks.
// The joints are taken in the spec's order, which is the file's.
sn_status sni_compile_springdampers(compiler* c, sn_model* m) {
    if (!has_springdampers(c, m)) return SN_OK;
    sn_data* d = NULL;
    sn_data_opts opts = {c->alloc, 0};
    sn_status st = sn_data_create(m, &opts, &d, c->err);
    if (st == SN_OK && m->nominal_config)
        st = sn_set_state(m, d, m->nominal_config, m->nq, NULL, 0);
    if (st == SN_OK) st = sn_fk(m, d);
    if (st == SN_OK) st = sn_crba(m, d);
    if (st == SN_OK) st = sn_inverse_mass(m, d);
    for (int u = 0; u < c->nj && st == SN_OK; u++) {
        const sni_joint* uj = &c->joints[u];
        int j = m->ujoint_joint[u];
        if (j < 0 || m->joint_nv[j] != 1 || !(uj->spring_timeconst > 0) ||
            !(uj->spring_dampratio > 0))
            continue;
        int v = m->joint_vadr[j];
        sn_real w = d->inverse_mass[(size_t)v * m->nv + v];
        if (!(w > 0) || !isfinite(w)) {
            st = sni_compile_error(c, SN_ERR_MODEL, 0, "joint",
                                   "joint '%s' has no inertia for its springdamper", JNAME(c, u));
            break;
        }
        sn_real mass = 1 / w, tc = uj->spring_timeconst, z = uj->spring_dampratio;
        m->dof_stiffness[v] = mass / (tc * tc * z * z);
        m->dof_damping[v] = 2 * mass / tc;
    }
    sn_data_destroy(d);
    return st;
}
