// SPDX-License-Identifier: Apache-2.0
// cluster.c: the loops eliminated in O(n) by the articulated-body algorithm with clusters (issue
// 18's "loops in linear time"; docs/loops.md, "Clusters").
//
// A loop constraint acts on the bodies below the common ancestor of its two bodies. Constraints
// that share a body join (union-find); each such set, a cluster K, hangs from one body t, its
// top. In world-frame quantities (aba.c) a cluster body b moves with a_b = a_t + H_b x_K, x_K the
// cluster's DOFs. With the articulated inertias IA of its bodies (their own and what the bodies
// outside the cluster below them pass up), its joint-space inertia A = H^T IA H + diag, its
// coupling U = (IA H)^T summed on the way up (U_k = Ic_k S_k, Ic_k the composite of k's bodies
// within K), and its rows J_K x_K + E^T a_t = r (E: the wrench the row takes on t per unit
// impulse: a pin's anchors apart by e give E = (e x n, 0)), the cluster's equations
//   A x = g - U^T a_t + J_K^T lam,   J_K x + E^T a_t = r     (g = f_K - H^T p, p the biases)
// solve, with S = J_K A^-1 J_K^T (pivoted: rows that the others make redundant are left out),
// R = A^-1 J_K^T S^-1 and Ac = A^-1 - R J_K A^-1, as
//   x = Ac g + R r - X a_t,  X = Ac U^T + R E^T;   lam = S^-1 r - R^T g - Lam a_t,
//   Lam = S^-1 E^T - R^T U^T,
// and pass the top the articulated inertia Ic - U X + E Lam and the bias P + U x0 - E lam0.
// That is the ABA with the cluster as one joint of many DOFs (Jain's constraint embedding): the
// step's solves with M~ = M + diag(w) and its rows cost O(n) plus the clusters' small dense
// blocks, where the factor route (factor.c) forms M~'s tree factor, O(n d^2), and D, O(nr^2 d).
// The step takes it when every cluster is within SNI_CLUSTER_DOF_MAX DOFs and SNI_CLUSTER_ROW_MAX
// rows and the system has SNI_CLUSTER_NV_MIN DOFs or more (below, the tree factor is cheaper);
// the Strandbeest, whose crank drives every leg, is one cluster too large and keeps the factor.
// The contact solver's responses Y = M_c^-1 J_c^T are then one solve per row (solver/rows.c),
// O(n) each, and its impulses reach the loops' as the force J_c^T lambda_c (factor.c). World
// constraints between systems (couple/) and the midpoint gyroscopic couple need the factor.
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "math/dense.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// ---- the structure ----

static int uf_root(int* p, int i) {
    while (p[i] != i)
        i = p[i] = p[p[i]];
    return i;
}

// the bodies a row set acts on: those below the common ancestor of b1 and b2, and the ancestor
// itself when its own DOFs carry the row (a mimic joint on it: own), joined into one set of uf;
// in_loop marks them. 0 when there is no body (a constraint within one body)
static int join_path(const sn_model* m, int* uf, int* in_loop, int b1, int b2, int own) {
    int a = b1, b = b2;
    while (a != b) {
        if (a > b)
            a = m->body_parent[a];
        else
            b = m->body_parent[b];
    }
    int lca = a, first = -1;
    for (int side = 0; side < 2; side++)
        for (int x = side ? b2 : b1; x != lca; x = m->body_parent[x]) {
            in_loop[x] = 1;
            if (first < 0) first = x;
            int r1 = uf_root(uf, x), r2 = uf_root(uf, first);
            if (r1 != r2) uf[r1] = r2;
        }
    if (own && lca > 0) {
        in_loop[lca] = 1;
        if (first < 0) first = lca;
        int r1 = uf_root(uf, lca), r2 = uf_root(uf, first);
        if (r1 != r2) uf[r1] = r2;
    }
    return first >= 0;
}

// a mimic joint's bodies: the follower's and the leader's
static void mimic_bodies(const sn_model* m, int j, int* b1, int* b2) {
    *b1 = m->joint_body[j];
    *b2 = m->joint_body[m->joint_mimic[j]];
}

void sni_loops_clusters(sn_system* s) {
    const sn_model* m = s->m;
    sni_loop_clusters* cl = &s->loops.cl;
    int nb = m->nbody, nv = m->nv;
    cl->usable = 0;
    cl->n = 0;
    int* uf = cl->uf;
    int* mark = cl->body; // 1: in a loop, while the sets are made
    for (int b = 0; b < nb; b++)
        uf[b] = b, mark[b] = 0;
    int ok = 1;
    for (int c = 0; c < m->nconstraint; c++)
        ok &= join_path(m, uf, mark, m->frame_body[m->constraint_frame1[c]],
                        m->frame_body[m->constraint_frame2[c]], 0);
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint_mimic[j] < 0 || m->joint_nv[j] != 1) continue;
        int b1, b2;
        mimic_bodies(m, j, &b1, &b2);
        ok &= join_path(m, uf, mark, b1, b2, 1);
    }
    // number the sets by their first body, whose parent is the set's top
    int* root_id = cl->bodies; // per set's root: its cluster, while they are numbered
    int* top = cl->top;
    int n = 0;
    for (int b = 0; b < nb; b++)
        root_id[b] = -1;
    for (int b = 1; b < nb; b++) {
        if (!mark[b]) continue;
        int r = uf_root(uf, b);
        if (root_id[r] < 0) {
            root_id[r] = n;
            top[n++] = m->body_parent[b];
        }
    }
    int* body = cl->body;
    for (int b = 0; b < nb; b++)
        body[b] = b > 0 && mark[b] ? root_id[uf_root(uf, b)] : -1;
    cl->n = n;
    // bodies and DOFs per cluster, and each body's parent in it or its top
    int* boff = cl->boff;
    int* doff = cl->doff;
    for (int k = 0; k <= n; k++)
        boff[k] = doff[k] = 0;
    for (int b = 1; b < nb; b++)
        if (body[b] >= 0) {
            boff[body[b] + 1]++;
            doff[body[b] + 1] += m->joint_nv[m->body_joint[b]];
        }
    for (int k = 0; k < n; k++) {
        boff[k + 1] += boff[k];
        doff[k + 1] += doff[k];
        ok &= doff[k + 1] - doff[k] <= SNI_CLUSTER_DOF_MAX;
    }
    int* fill = cl->uf; // next slot per cluster (n <= nbody)
    for (int k = 0; k < n; k++)
        fill[k] = boff[k];
    for (int b = 1; b < nb; b++)
        if (body[b] >= 0) cl->bodies[fill[body[b]]++] = b;
    for (int k = 0; k < n; k++)
        fill[k] = doff[k];
    for (int i = 0; i < nv; i++) {
        int k = body[m->dof_body[i]];
        if (k >= 0) cl->dofs[fill[k]++] = i;
    }
    int moff = 0;
    for (int k = 0; k < n; k++) {
        int nk = doff[k + 1] - doff[k];
        cl->moff[k] = moff;
        moff += nk * nk;
        for (int a = boff[k]; a < boff[k + 1]; a++) {
            int p = m->body_parent[cl->bodies[a]];
            ok &= p == top[k] || (p > 0 && body[p] == k);
        }
    }
    // each constraint's and mimic row's cluster
    for (int c = 0; c < m->nconstraint; c++) {
        int b1 = m->frame_body[m->constraint_frame1[c]],
            b2 = m->frame_body[m->constraint_frame2[c]];
        cl->con[c] = body[b1] >= 0 ? body[b1] : body[b2];
    }
    int r = 0;
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint_mimic[j] < 0 || m->joint_nv[j] != 1) continue;
        cl->mimic[r++] = body[m->joint_body[j]];
    }
    cl->usable = ok && n > 0;
}


int sni_loops_cluster_route(const sn_world* w, const sn_system* s) {
    const sni_loop_clusters* cl = &s->loops.cl;
    if (!cl->usable || cl->mode < 0) return 0;
    // a small system's tree factor is cheaper (a four-bar alone: 10.1k instructions per step
    // against the clusters' 13.9k; even at 24 DOFs, 8 four-bars in a chain; Cassie's 32 DOFs:
    // 180k against 162k)
    if (cl->mode == 0 && s->m->nv < SNI_CLUSTER_NV_MIN) return 0;
    return !sni_couple_acts_on(w, s) && !sni_gyro_active(s);
}


// ---- this step's rows by cluster ----

// the rows of each cluster (roff, rows) from the step's rows (row_con, the mimic joints after
// them), the dense blocks' offsets, and E; 0 when a cluster has too many rows
static int cluster_rows(sn_system* s) {
    const sn_model* m = s->m;
    sni_loop_clusters* cl = &s->loops.cl;
    int n = cl->n, nr = s->loops.nrow;
    int* roff = cl->roff;
    int* owner = cl->perm; // each row's cluster, until the rows are ordered
    for (int k = 0; k <= n; k++)
        roff[k] = 0;
    for (int k = 0; k < n; k++)
        cl->lever[k] = 0;
    int im = 0;
    for (int r = 0; r < nr; r++) {
        int c = s->loops.row_con[r];
        int k = c >= 0 ? cl->con[c] : cl->mimic[im++];
        owner[r] = k;
        roff[k + 1]++;
        // the wrench on the top: a pin's rows take the anchors' separation e as a lever
        sn_real* e = cl->E + 6 * (size_t)r;
        memset(e, 0, 6 * sizeof(sn_real));
        if (c >= 0 && m->constraint_type[c] == SN_CONSTRAINT_PIN) {
            v3_cross(e, s->loops.err + 3 * c, s->loops.axis + 3 * r);
            cl->lever[k] |= e[0] != 0 || e[1] != 0 || e[2] != 0;
        }
    }
    int joff = 0, soff = 0;
    for (int k = 0; k < n; k++) {
        int nk = cl->doff[k + 1] - cl->doff[k], nrk = roff[k + 1];
        if (nrk > SNI_CLUSTER_ROW_MAX) return 0;
        cl->joff[k] = joff;
        cl->soff[k] = soff;
        joff += nk * nrk;
        soff += nrk * nrk;
        roff[k + 1] += roff[k];
    }
    int* fill = cl->used; // nr >= n
    for (int k = 0; k < n; k++)
        fill[k] = roff[k];
    for (int r = 0; r < nr; r++)
        cl->rows[fill[owner[r]]++] = r;
    return 1;
}


// ---- the factor ----

// the Cholesky factor of joint j's D = S^T IA S + armature + w (outside clusters) and the parent's
// articulated inertia IA - U D^-1 U^T; 0 when D is not positive definite
static int factor_joint(const sn_model* m, sn_data* d, sni_loop_clusters* cl, const sn_real* w,
                        int b) {
    int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
    const sn_real* ia = cl->art + 36 * (size_t)b;
    const sn_real* S = d->dof_motion + 6 * (size_t)v0;
    sn_real* U = cl->U + 6 * (size_t)v0;
    sn_real dm[36];
    for (int k = 0; k < nd; k++)
        m6_mul_v6(U + 6 * k, ia, S + 6 * k);
    for (int r = 0; r < nd; r++)
        for (int c = 0; c < nd; c++)
            dm[r * nd + c] = s6_dot(S + 6 * r, U + 6 * c) +
                             (r == c ? m->dof_armature[v0 + r] + (w ? w[v0 + r] : 0) : 0);
    sn_real* l = cl->Dl + 36 * (size_t)j;
    if (sni_chol_ld(l, 6, dm, nd, nd, 0) != SN_OK) return 0;
    int parent = m->body_parent[b];
    if (parent == 0) return 1;
    // W = D^-1 U^T (nd x 6), then IA_parent += IA - U W
    sn_real W[36];
    for (int e = 0; e < 6; e++) {
        sn_real col[6];
        for (int k = 0; k < nd; k++)
            col[k] = U[6 * k + e];
        sni_chol_solve1(l, 6, nd, col);
        for (int k = 0; k < nd; k++)
            W[6 * k + e] = col[k];
    }
    sn_real* iap = cl->art + 36 * (size_t)parent;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            sn_real v = ia[6 * r + c];
            for (int k = 0; k < nd; k++)
                v -= U[6 * k + r] * W[6 * k + c];
            iap[6 * r + c] += v;
        }
    return 1;
}


// cluster k's blocks (Ac, R, S, X, Lam) and what it passes its top; 0 when A is not positive
// definite
static int factor_cluster(sn_system* s, int k, const sn_real* w) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    sni_loop_clusters* cl = &s->loops.cl;
    int nv = m->nv;
    const int* B = cl->bodies + cl->boff[k];
    const int* dofs = cl->dofs + cl->doff[k];
    const int* rows = cl->rows + cl->roff[k];
    int nbk = cl->boff[k + 1] - cl->boff[k], nk = cl->doff[k + 1] - cl->doff[k];
    int nrk = cl->roff[k + 1] - cl->roff[k], top = cl->top[k], lever = cl->lever[k];
    // composites within the cluster, in place, children first
    for (int a = nbk - 1; a >= 0; a--) {
        int b = B[a], p = m->body_parent[b];
        if (p != top)
            for (int e = 0; e < 36; e++)
                cl->art[36 * (size_t)p + e] += cl->art[36 * (size_t)b + e];
    }
    // U_l = Ic S_l; A_lq = S_l^T U_q where DOF l is on q's path (CRBA within the cluster)
    sn_real A[SNI_CLUSTER_DOF_MAX * SNI_CLUSTER_DOF_MAX];
    for (int q = 0; q < nk; q++) {
        int i = dofs[q];
        m6_mul_v6(cl->U + 6 * (size_t)i, cl->art + 36 * (size_t)m->dof_body[i],
                  d->dof_motion + 6 * (size_t)i);
    }
    for (int e = 0; e < nk * nk; e++)
        A[e] = 0;
    for (int q = 0; q < nk; q++) {
        int i = dofs[q];
        const sn_real* uq = cl->U + 6 * (size_t)i;
        int l = q;
        for (int a = i; a >= 0 && cl->body[m->dof_body[a]] == k; a = m->dof_parent[a]) {
            while (dofs[l] != a) // the cluster's DOFs ascend: a's local index, searched down
                l--;
            sn_real v = s6_dot(d->dof_motion + 6 * (size_t)a, uq);
            A[l * nk + q] = A[q * nk + l] = v;
        }
        A[q * nk + q] += m->dof_armature[i] + (w ? w[i] : 0);
    }
    if (sni_chol(A, nk, 0) != SN_OK) return 0;
    // A^-1, T = A^-1 J_K^T (nk x nrk), S = J_K T
    sn_real* Ac = cl->Ac + cl->moff[k];
    for (int q = 0; q < nk; q++) {
        sn_real col[SNI_CLUSTER_DOF_MAX];
        for (int l = 0; l < nk; l++)
            col[l] = l == q;
        sni_chol_solve1(A, nk, nk, col);
        for (int l = 0; l < nk; l++)
            Ac[l * nk + q] = col[l];
    }
    sn_real T[SNI_CLUSTER_DOF_MAX * SNI_CLUSTER_ROW_MAX];
    sn_real JK[SNI_CLUSTER_ROW_MAX * SNI_CLUSTER_DOF_MAX];
    for (int r = 0; r < nrk; r++) {
        const sn_real* jr = s->loops.J + (size_t)rows[r] * nv;
        for (int q = 0; q < nk; q++)
            JK[r * nk + q] = jr[dofs[q]];
    }
    for (int l = 0; l < nk; l++)
        for (int r = 0; r < nrk; r++) {
            sn_real v = 0;
            for (int q = 0; q < nk; q++)
                v += Ac[l * nk + q] * JK[r * nk + q];
            T[l * nrk + r] = v;
        }
    sn_real Sm[SNI_CLUSTER_ROW_MAX * SNI_CLUSTER_ROW_MAX];
    sn_real smax = 0;
    for (int r = 0; r < nrk; r++) {
        for (int c = 0; c <= r; c++) {
            sn_real v = 0;
            for (int q = 0; q < nk; q++)
                v += JK[r * nk + q] * T[q * nrk + c];
            Sm[r * nrk + c] = Sm[c * nrk + r] = v;
        }
        smax = fmax(smax, Sm[r * nrk + r]);
    }
    sn_real* L = cl->S + cl->soff[k];
    int* perm = cl->perm + cl->roff[k];
    int rank = sni_chol_pivoted(Sm, nrk, SNI_LOOP_RANK_TOL * smax, L, perm, cl->dg, cl->used);
    cl->rank[k] = rank;
    // R = T S^-1 over the kept rows (their columns in pivot order; the others 0)
    sn_real* R = cl->R + cl->joff[k];
    for (int l = 0; l < nk; l++) {
        sn_real y[SNI_CLUSTER_ROW_MAX];
        for (int a = 0; a < rank; a++)
            y[a] = T[l * nrk + perm[a]];
        sni_chol_solve_pivoted(L, perm, nrk, rank, y, 1);
        for (int r = 0; r < nrk; r++)
            R[l * nrk + r] = 0;
        for (int a = 0; a < rank; a++)
            R[l * nrk + perm[a]] = y[a];
    }
    // Ac = A^-1 - R T^T
    for (int l = 0; l < nk; l++)
        for (int q = 0; q < nk; q++) {
            sn_real v = 0;
            for (int r = 0; r < nrk; r++)
                v += R[l * nrk + r] * T[q * nrk + r];
            Ac[l * nk + q] -= v;
        }
    // X = Ac U^T + R E^T (nk x 6); Lam = S^-1 E^T - R^T U^T (nrk x 6)
    sn_real Uk[SNI_CLUSTER_DOF_MAX][6]; // the cluster's U, gathered
    for (int q = 0; q < nk; q++)
        memcpy(Uk[q], cl->U + 6 * (size_t)dofs[q], sizeof Uk[q]);
    for (int l = 0; l < nk; l++) {
        sn_real x[6] = {0, 0, 0, 0, 0, 0};
        for (int q = 0; q < nk; q++)
            s6_addscl(x, Uk[q], Ac[l * nk + q]);
        for (int r = 0; r < nrk && lever; r++)
            v3_addscl(x, cl->E + 6 * (size_t)rows[r], R[l * nrk + r]);
        memcpy(cl->X + 6 * (size_t)dofs[l], x, sizeof x);
    }
    for (int r = 0; r < nrk; r++)
        memset(cl->Lam + 6 * (size_t)rows[r], 0, 6 * sizeof(sn_real));
    if (lever) { // S^-1 E^T (E's linear part is 0)
        sn_real se[SNI_CLUSTER_ROW_MAX * 3];
        for (int a = 0; a < rank; a++)
            v3_copy(se + 3 * a, cl->E + 6 * (size_t)rows[perm[a]]);
        sni_chol_solve_pivoted(L, perm, nrk, rank, se, 3);
        for (int a = 0; a < rank; a++)
            v3_copy(cl->Lam + 6 * (size_t)rows[perm[a]], se + 3 * a);
    }
    for (int r = 0; r < nrk; r++) {
        sn_real* lr = cl->Lam + 6 * (size_t)rows[r];
        for (int l = 0; l < nk; l++)
            s6_addscl(lr, cl->U + 6 * (size_t)dofs[l], -R[l * nrk + r]);
    }
    if (top == 0) return 1;
    // the top's articulated inertia: Ic - U X + E Lam (symmetric; the upper triangle mirrored)
    sn_real G[36];
    memset(G, 0, sizeof G);
    for (int a = 0; a < nbk; a++)
        if (m->body_parent[B[a]] == top)
            for (int e = 0; e < 36; e++)
                G[e] += cl->art[36 * (size_t)B[a] + e];
    for (int l = 0; l < nk; l++) {
        const sn_real* u = Uk[l];
        const sn_real* x = cl->X + 6 * (size_t)dofs[l];
        for (int r = 0; r < 6; r++)
            for (int c = r; c < 6; c++)
                G[6 * r + c] -= u[r] * x[c];
    }
    for (int q = 0; q < nrk && lever; q++) {
        const sn_real* e = cl->E + 6 * (size_t)rows[q];
        const sn_real* lq = cl->Lam + 6 * (size_t)rows[q];
        for (int r = 0; r < 3; r++)
            for (int c = r; c < 6; c++)
                G[6 * r + c] += e[r] * lq[c];
    }
    sn_real* it = cl->art + 36 * (size_t)top;
    for (int r = 0; r < 6; r++)
        for (int c = r; c < 6; c++) {
            it[6 * r + c] += G[6 * r + c];
            if (c != r) it[6 * c + r] += G[6 * r + c];
        }
    return 1;
}


// the first body of a cluster, where the passes take it whole
static inline int cluster_first(const sni_loop_clusters* cl, int b, int* k) {
    *k = cl->body[b];
    return *k >= 0 && cl->bodies[cl->boff[*k]] == b;
}


sn_status sni_loops_cluster_factor(sn_system* s) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    sni_loop_clusters* cl = &s->loops.cl;
    if (!cluster_rows(s)) return SN_ERR_SINGULAR;
    const sn_real* w = s->ctl.w;
    for (int b = 1; b < m->nbody; b++)
        rbi_to_m6(cl->art + 36 * (size_t)b, d->body_rbi + 10 * (size_t)b);
    for (int b = m->nbody - 1; b > 0; b--) {
        int k;
        if (cl->body[b] < 0) {
            if (!factor_joint(m, d, cl, w, b)) return SN_ERR_SINGULAR;
        } else if (cluster_first(cl, b, &k)) {
            if (!factor_cluster(s, k, w)) return SN_ERR_SINGULAR;
        }
    }
    return SN_OK;
}


// ---- the solves ----

// cluster k in the backward pass: x0 = Ac g + R r into x, lam0 = S^-1 r - R^T g into lam, and the
// top's bias P + U x0 - E lam0
static void solve_cluster_back(const sn_system* s, int k, const sn_real* f, const sn_real* r,
                               sn_real* x, sn_real* lam) {
    const sn_model* m = s->m;
    const sni_loop_clusters* cl = &s->loops.cl;
    const int* B = cl->bodies + cl->boff[k];
    const int* dofs = cl->dofs + cl->doff[k];
    const int* rows = cl->rows + cl->roff[k];
    const int* perm = cl->perm + cl->roff[k];
    int nbk = cl->boff[k + 1] - cl->boff[k], nk = cl->doff[k + 1] - cl->doff[k];
    int nrk = cl->roff[k + 1] - cl->roff[k], top = cl->top[k], rank = cl->rank[k];
    sn_real* p = cl->p;
    for (int a = nbk - 1; a >= 0; a--) {
        int b = B[a], pb = m->body_parent[b];
        if (pb != top) s6_addto(p + 6 * (size_t)pb, p + 6 * (size_t)b);
    }
    sn_real g[SNI_CLUSTER_DOF_MAX], y[SNI_CLUSTER_ROW_MAX];
    for (int q = 0; q < nk; q++) {
        int i = dofs[q];
        g[q] = (f ? f[i] : 0) -
               s6_dot(s->d->dof_motion + 6 * (size_t)i, p + 6 * (size_t)m->dof_body[i]);
    }
    const sn_real* Ac = cl->Ac + cl->moff[k];
    const sn_real* R = cl->R + cl->joff[k];
    for (int l = 0; l < nk; l++) {
        sn_real v = 0;
        for (int q = 0; q < nk; q++)
            v += Ac[l * nk + q] * g[q];
        if (r)
            for (int c = 0; c < nrk; c++)
                v += R[l * nrk + c] * r[rows[c]];
        x[dofs[l]] = v;
    }
    for (int a = 0; a < rank; a++)
        y[a] = r ? r[rows[perm[a]]] : 0;
    sni_chol_solve_pivoted(cl->S + cl->soff[k], perm, nrk, rank, y, 1);
    for (int c = 0; c < nrk; c++)
        lam[rows[c]] = 0;
    for (int a = 0; a < rank; a++)
        lam[rows[perm[a]]] = y[a];
    for (int c = 0; c < nrk; c++) {
        sn_real v = 0;
        for (int l = 0; l < nk; l++)
            v += R[l * nrk + c] * g[l];
        lam[rows[c]] -= v;
    }
    if (top == 0) return;
    sn_real* pt = p + 6 * (size_t)top;
    for (int a = 0; a < nbk; a++)
        if (m->body_parent[B[a]] == top) s6_addto(pt, p + 6 * (size_t)B[a]);
    for (int l = 0; l < nk; l++)
        s6_addscl(pt, cl->U + 6 * (size_t)dofs[l], x[dofs[l]]);
    for (int c = 0; c < nrk && cl->lever[k]; c++)
        s6_addscl(pt, cl->E + 6 * (size_t)rows[c], -lam[rows[c]]);
}

// cluster k in the forward pass: x -= X a_t, lam -= Lam a_t, its bodies' accelerations
static void solve_cluster_fwd(const sn_system* s, int k, sn_real* x, sn_real* lam) {
    const sn_model* m = s->m;
    const sni_loop_clusters* cl = &s->loops.cl;
    const int* B = cl->bodies + cl->boff[k];
    const int* dofs = cl->dofs + cl->doff[k];
    const int* rows = cl->rows + cl->roff[k];
    int nbk = cl->boff[k + 1] - cl->boff[k], nk = cl->doff[k + 1] - cl->doff[k];
    int nrk = cl->roff[k + 1] - cl->roff[k];
    sn_real* acc = cl->acc;
    const sn_real* at = acc + 6 * (size_t)cl->top[k];
    for (int l = 0; l < nk; l++)
        x[dofs[l]] -= s6_dot(cl->X + 6 * (size_t)dofs[l], at);
    for (int c = 0; c < nrk; c++)
        lam[rows[c]] -= s6_dot(cl->Lam + 6 * (size_t)rows[c], at);
    for (int a = 0; a < nbk; a++) {
        int b = B[a], j = m->body_joint[b], v0 = m->joint_vadr[j];
        sn_real* ab = acc + 6 * (size_t)b;
        memcpy(ab, acc + 6 * (size_t)m->body_parent[b], 6 * sizeof(sn_real));
        for (int q = 0; q < m->joint_nv[j]; q++)
            s6_addscl(ab, s->d->dof_motion + 6 * (size_t)(v0 + q), x[v0 + q]);
    }
}


void sni_loops_cluster_solve(const sn_system* s, const sn_real* f, const sn_real* r, sn_real* x,
                             sn_real* lam) {
    const sn_model* m = s->m;
    const sn_data* d = s->d;
    const sni_loop_clusters* cl = &s->loops.cl;
    sn_real* p = cl->p;
    sn_real* uu = cl->uu;
    memset(p, 0, 6 * (size_t)m->nbody * sizeof(sn_real));
    for (int b = m->nbody - 1; b > 0; b--) {
        int k;
        if (cl->body[b] >= 0) {
            if (cluster_first(cl, b, &k)) solve_cluster_back(s, k, f, r, x, lam);
            continue;
        }
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        const sn_real* pb = p + 6 * (size_t)b;
        for (int q = 0; q < nd; q++)
            uu[v0 + q] = (f ? f[v0 + q] : 0) - s6_dot(d->dof_motion + 6 * (size_t)(v0 + q), pb);
        int parent = m->body_parent[b];
        if (parent == 0) continue;
        sn_real y[6];
        memcpy(y, uu + v0, (size_t)nd * sizeof(sn_real));
        sni_chol_solve1(cl->Dl + 36 * (size_t)j, 6, nd, y);
        sn_real* pp = p + 6 * (size_t)parent;
        s6_addto(pp, pb);
        for (int q = 0; q < nd; q++)
            s6_addscl(pp, cl->U + 6 * (size_t)(v0 + q), y[q]);
    }
    sn_real* acc = cl->acc;
    memset(acc, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        int k;
        if (cl->body[b] >= 0) {
            if (cluster_first(cl, b, &k)) solve_cluster_fwd(s, k, x, lam);
            continue;
        }
        int j = m->body_joint[b], nd = m->joint_nv[j], v0 = m->joint_vadr[j];
        const sn_real* ap = acc + 6 * (size_t)m->body_parent[b];
        sn_real y[6];
        for (int q = 0; q < nd; q++)
            y[q] = uu[v0 + q] - s6_dot(cl->U + 6 * (size_t)(v0 + q), ap);
        sni_chol_solve1(cl->Dl + 36 * (size_t)j, 6, nd, y);
        sn_real* ab = acc + 6 * (size_t)b;
        memcpy(ab, ap, 6 * sizeof(sn_real));
        for (int q = 0; q < nd; q++) {
            x[v0 + q] = y[q];
            s6_addscl(ab, d->dof_motion + 6 * (size_t)(v0 + q), y[q]);
        }
    }
}


void sni_loops_cluster_dot(const sn_system* s, const sn_real* v, sn_real* out) {
    const sn_model* m = s->m;
    const sni_loop_clusters* cl = &s->loops.cl;
    int nv = m->nv;
    // every body's motion under v, root to leaves
    sn_real* V = cl->p;
    memset(V, 0, 6 * sizeof(sn_real));
    for (int b = 1; b < m->nbody; b++) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        sn_real* vb = V + 6 * (size_t)b;
        memcpy(vb, V + 6 * (size_t)m->body_parent[b], 6 * sizeof(sn_real));
        for (int q = 0; q < m->joint_nv[j]; q++)
            s6_addscl(vb, s->d->dof_motion + 6 * (size_t)(v0 + q), v[v0 + q]);
    }
    for (int k = 0; k < cl->n; k++)
        for (int a = cl->roff[k]; a < cl->roff[k + 1]; a++) {
            int r = cl->rows[a];
            const sn_real* jr = s->loops.J + (size_t)r * nv;
            const int* ix = s->loops.jidx + (size_t)r * nv;
            sn_real g =
                cl->lever[k] ? v3_dot(cl->E + 6 * (size_t)r, V + 6 * (size_t)cl->top[k]) : 0;
            for (int q = 0; q < s->loops.jn[r]; q++)
                g += jr[ix[q]] * v[ix[q]];
            out[r] = g;
        }
}


void sni_loops_cluster_jt(const sn_system* s, const sn_real* lam, sn_real* out) {
    const sn_model* m = s->m;
    const sni_loop_clusters* cl = &s->loops.cl;
    int nv = m->nv;
    memset(out, 0, (size_t)nv * sizeof(sn_real));
    sn_real* F = cl->p; // the rows' wrenches on the tops, summed up the tree
    memset(F, 0, 6 * (size_t)m->nbody * sizeof(sn_real));
    for (int k = 0; k < cl->n; k++)
        for (int a = cl->roff[k]; a < cl->roff[k + 1]; a++) {
            int r = cl->rows[a];
            const sn_real* jr = s->loops.J + (size_t)r * nv;
            const int* ix = s->loops.jidx + (size_t)r * nv;
            for (int q = 0; q < s->loops.jn[r]; q++)
                out[ix[q]] += jr[ix[q]] * lam[r];
            if (cl->lever[k]) v3_addscl(F + 6 * (size_t)cl->top[k], cl->E + 6 * (size_t)r, lam[r]);
        }
    for (int b = m->nbody - 1; b > 0; b--) {
        int j = m->body_joint[b], v0 = m->joint_vadr[j];
        const sn_real* fb = F + 6 * (size_t)b;
        for (int q = 0; q < m->joint_nv[j]; q++)
            out[v0 + q] += s6_dot(s->d->dof_motion + 6 * (size_t)(v0 + q), fb);
        s6_addto(F + 6 * (size_t)m->body_parent[b], fb);
    }
}
