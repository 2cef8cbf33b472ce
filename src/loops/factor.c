// SPDX-License-Identifier: Apache-2.0
// factor.c: the loops' elimination in a step (seed 000, "Kinematic loops"; seed 001). With the
// rows J of rows.c and D = J M~^-1 J^T,
//   lambda_0 = D^-1 (-beta e - J u*), u_0 = u* + M~^-1 J^T lambda_0,
// with beta = clamp(0.2 erp, 0, 0.3) / dt. Every other impulse then acts through the constrained
// mechanism's inverse mass M_c^-1 = M~^-1 - W D^-1 W^T (W = M~^-1 J^T): the contact solver's
// responses Y = M~^-1 J_c^T are projected, Y - W D^-1 (J Y), so no contact, limit or friction
// impulse can open a loop whatever the solver's iteration limit. D is factored by groups of rows
// (a leg's loops) and the few DOFs they share, or densely with pivoting: rows that the others make
// redundant (a repeated pin, the out-of-plane direction of a planar loop, a singular pose) are
// found by the pivoted factor and left out, with no impulse.
#include "dynamics/dyn.h"
#include "math/dense.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// row r of J (its nonzeros) times v
static sn_real row_dot(const sn_system* s, int r, const sn_real* v) {
    int nv = s->m->nv;
    const sn_real* jr = s->loops.J + (size_t)r * nv;
    const int* ix = s->loops.jidx + (size_t)r * nv;
    sn_real g = 0;
    for (int k = 0; k < s->loops.jn[r]; k++)
        g += jr[ix[k]] * v[ix[k]];
    return g;
}

// v += M~^-1 J_K^T x for the kept rows' values x (one solve)
static void add_response(const sn_system* s, const sn_real* x, sn_real* v) {
    int nv = s->m->nv;
    sn_real* g = s->loops.resp;
    memset(g, 0, (size_t)nv * sizeof(sn_real));
    for (int k = 0; k < s->loops.nkeep; k++) {
        int r = s->loops.keep[k];
        if (x[k] == 0) continue;
        const sn_real* jr = s->loops.J + (size_t)r * nv;
        const int* ix = s->loops.jidx + (size_t)r * nv;
        for (int q = 0; q < s->loops.jn[r]; q++)
            g[ix[q]] += jr[ix[q]] * x[k];
    }
    sni_solve_factor(s->m, &s->step.mtilde, g);
    for (int i = 0; i < nv; i++)
        v[i] += g[i];
}


// ---- a structured factor of D ----
// D = Z^T D_f^-1 Z couples two rows through every DOF both their Z rows hold. A DOF that many
// rows hold (more than LOOP_HUB: a floating base, a crank that drives many legs) is shared; the
// other DOFs join the rows into groups (a leg's loops) that share nothing else. Then
//   D = B + U^T E U,  B = blockdiag(B_g),  U = Z_S (the shared DOFs' rows of Z),  E = D_f,S^-1,
// and D^-1 b = y - V C^-1 U y with y = B^-1 b, V = B^-1 U^T, C = E^-1 + U V (Woodbury): per
// group a small Cholesky factor, and one of the shared DOFs' size, instead of the dense factor
// of D. A group whose block is (nearly) singular sends the step to the dense, pivoted factor.
#define LOOP_HUB 16
#define LOOP_GROUP_MAX 48

static int uf_find(int* p, int i) {
    while (p[i] != i)
        i = p[i] = p[p[i]];
    return i;
}


// x (nr x nb) <- B^-1 x, group by group
static void blocks_solve(const sn_system* s, sn_real* x, int nb) {
    const int* order = s->loops.order;
    const int* off = s->loops.off;
    size_t at = 0;
    for (int g = 0; g < s->loops.ngroup; g++) {
        int n = off[g + 1] - off[g];
        sni_chol_solve_rows(s->loops.L + at, n, n, order + off[g], x, nb);
        at += (size_t)n * n;
    }
}

// b (nr x nb, interleaved) <- D^-1 b with the structured factor (nb <= 3)
static void struct_solve(const sn_system* s, sn_real* b, int nb) {
    int nr = s->loops.nrow, ns = s->loops.nshared;
    blocks_solve(s, b, nb);
    sn_real w[3 * SNI_LOOP_SHARED_MAX];
    for (int a = 0; a < ns * nb; a++)
        w[a] = 0;
    const sn_real* U = s->loops.U; // nr x ns
    for (int r = 0; r < nr; r++) {
        const sn_real* ur = U + (size_t)r * ns;
        const sn_real* br = b + (size_t)r * nb;
        for (int a = 0; a < ns; a++)
            for (int j = 0; j < nb; j++)
                w[a * nb + j] += ur[a] * br[j];
    }
    sni_chol_solve(s->loops.C, ns, w, nb); // C^-1 w
    const sn_real* V = s->loops.V;         // nr x ns
    for (int r = 0; r < nr; r++) {
        const sn_real* vr = V + (size_t)r * ns;
        sn_real* br = b + (size_t)r * nb;
        for (int a = 0; a < ns; a++)
            for (int j = 0; j < nb; j++)
                br[j] -= vr[a] * w[a * nb + j];
    }
}

// the DOFs that more than LOOP_HUB rows' Z hold are shared (is_shared); their number, or -1 when
// there are too many for the structured factor
static int find_shared(sn_system* s) {
    int nv = s->m->nv, nr = s->loops.nrow;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    int* cnt = s->loops.cnt;
    int* first = s->loops.first_row;
    int* is_shared = s->loops.is_shared;
    memset(cnt, 0, (size_t)nv * sizeof(int));
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < zn[r]; q++)
            cnt[zidx[(size_t)r * nv + q]]++;
    int ns = 0;
    for (int k = 0; k < nv; k++) {
        is_shared[k] = cnt[k] > LOOP_HUB;
        ns += is_shared[k];
        first[k] = -1;
    }
    return ns > SNI_LOOP_SHARED_MAX || ns > nr ? -1 : ns;
}


// the groups: rows joined by the DOFs that are not shared (union-find), the rows ordered by
// group (order, off) and each DOF's group (dof_group). Their number, or -1 when a group is too
// large or there is only one and nothing is shared (one dense block: the pivoted factor is as
// cheap)
static int make_groups(sn_system* s, int ns) {
    int nv = s->m->nv, nr = s->loops.nrow;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    const int* is_shared = s->loops.is_shared;
    int* first = s->loops.first_row;
    int* parent = s->loops.uf;
    for (int r = 0; r < nr; r++)
        parent[r] = r;
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < zn[r]; q++) {
            int k = zidx[(size_t)r * nv + q];
            if (is_shared[k]) continue;
            if (first[k] < 0) {
                first[k] = r;
            } else {
                int a = uf_find(parent, r), b = uf_find(parent, first[k]);
                if (a != b) parent[a] = b;
            }
        }
    // rows ordered by group: count per root, offsets
    int* order = s->loops.order;
    int* off = s->loops.off;
    int* gid = s->loops.gid; // root -> group id
    for (int r = 0; r < nr; r++)
        gid[r] = -1;
    int ng = 0;
    for (int r = 0; r < nr; r++) {
        int root = uf_find(parent, r);
        if (gid[root] < 0) gid[root] = ng++;
    }
    for (int g = 0; g <= ng; g++)
        off[g] = 0;
    for (int r = 0; r < nr; r++)
        off[gid[uf_find(parent, r)] + 1]++;
    for (int g = 0; g < ng; g++) {
        if (off[g + 1] > LOOP_GROUP_MAX) return -1;
        off[g + 1] += off[g];
    }
    int* fill = s->loops.fill; // next slot per group (ng <= nr)
    for (int g = 0; g < ng; g++)
        fill[g] = off[g];
    for (int r = 0; r < nr; r++)
        order[fill[gid[uf_find(parent, r)]]++] = r;
    if (ng == 1 && ns == 0) return -1;
    // each DOF that is not shared: the group of the rows through it (-1: shared, or no row)
    int* dof_group = s->loops.dof_group;
    for (int k = 0; k < nv; k++)
        dof_group[k] = is_shared[k] || first[k] < 0 ? -1 : gid[uf_find(parent, first[k])];
    return ng;
}


// the blocks B_g over the DOFs that are not shared, factored one after another in L;
// SN_ERR_SINGULAR when one is (nearly) singular
static sn_status factor_blocks(sn_system* s, int ng) {
    int nv = s->m->nv, nr = s->loops.nrow;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    const int* is_shared = s->loops.is_shared;
    const int* order = s->loops.order;
    const int* off = s->loops.off;
    sn_real bmax = 0;
    for (int r = 0; r < nr; r++) {
        const sn_real* zr = s->loops.W + (size_t)r * nv;
        sn_real g = 0;
        for (int q = 0; q < zn[r]; q++) {
            int k = zidx[(size_t)r * nv + q];
            if (!is_shared[k]) g += zr[k] * s->step.dinv[k] * zr[k];
        }
        bmax = fmax(bmax, g);
    }
    size_t at = 0;
    for (int g = 0; g < ng; g++) {
        int n = off[g + 1] - off[g];
        sn_real* Bg = s->loops.L + at;
        for (int i = 0; i < n; i++) {
            int ri = order[off[g] + i];
            const sn_real* zi = s->loops.W + (size_t)ri * nv;
            const int* ix = zidx + (size_t)ri * nv;
            for (int j = 0; j <= i; j++) {
                const sn_real* zj = s->loops.W + (size_t)order[off[g] + j] * nv;
                sn_real v = 0;
                for (int q = 0; q < zn[ri]; q++)
                    if (!is_shared[ix[q]]) v += zi[ix[q]] * s->step.dinv[ix[q]] * zj[ix[q]];
                Bg[i * n + j] = Bg[j * n + i] = v;
            }
        }
        if (sni_chol(Bg, n, SNI_LOOP_RANK_TOL * bmax) != SN_OK) return SN_ERR_SINGULAR;
        s->loops.block_at[g] = (int)at; // where block g's factor starts in L
        at += (size_t)n * n;
    }
    s->loops.ngroup = ng;
    return SN_OK;
}


// the shared DOFs' part: their list, U = Z_S^T (nr x ns, the rows' entries at the shared DOFs),
// V = B^-1 U (one pass of the block solves with ns right-hand sides), C = E^-1 + U^T V factored,
// and P = D^-1 U; SN_ERR_SINGULAR when C cannot be factored
static sn_status factor_shared(sn_system* s, int ns) {
    int nv = s->m->nv, nr = s->loops.nrow;
    const int* is_shared = s->loops.is_shared;
    int* shared = s->loops.shared;
    int a = 0;
    for (int k = 0; k < nv; k++)
        if (is_shared[k]) shared[a++] = k;
    s->loops.nshared = ns;
    sn_real* U = s->loops.U;
    sn_real* V = s->loops.V;
    for (int r = 0; r < nr; r++)
        for (int b = 0; b < ns; b++)
            U[(size_t)r * ns + b] = s->loops.W[(size_t)r * nv + shared[b]];
    memcpy(V, U, (size_t)nr * ns * sizeof(sn_real));
    blocks_solve(s, V, ns);
    sn_real* C = s->loops.C;
    for (int i = 0; i < ns * ns; i++)
        C[i] = 0;
    for (int r = 0; r < nr; r++) {
        const sn_real* ur = U + (size_t)r * ns;
        const sn_real* vr = V + (size_t)r * ns;
        for (int i = 0; i < ns; i++)
            for (int j = 0; j <= i; j++)
                C[i * ns + j] += ur[i] * vr[j];
    }
    for (int i = 0; i < ns; i++) {
        C[i * ns + i] += s->step.mtilde.D[shared[i]];
        for (int j = 0; j < i; j++)
            C[j * ns + i] = C[i * ns + j];
    }
    if (sni_chol(C, ns, 0) != SN_OK) return SN_ERR_SINGULAR;
    // P = D^-1 U = V C^-1 diag(d_S) (D U's columns: V - V C^-1 (C - E^-1) = V C^-1 E^-1): the
    // response of every row to the shared DOFs, for the projections
    for (int r = 0; r < nr; r++) {
        sn_real p[SNI_LOOP_SHARED_MAX];
        memcpy(p, V + (size_t)r * ns, (size_t)ns * sizeof(sn_real));
        sni_chol_solve1(C, ns, ns, p);
        sn_real* pr = s->loops.P + (size_t)r * ns;
        for (int i = 0; i < ns; i++)
            pr[i] = p[i] * s->step.mtilde.D[shared[i]];
    }
    return SN_OK;
}


// the structured factor of this step's D: 1 when made (every row kept), 0 to use the dense one
static int struct_factor(sn_system* s) {
    int ns = find_shared(s);
    if (ns < 0) return 0;
    int ng = make_groups(s, ns);
    if (ng < 0 || factor_blocks(s, ng) != SN_OK || factor_shared(s, ns) != SN_OK) return 0;
    for (int r = 0; r < s->loops.nrow; r++)
        s->loops.keep[r] = r;
    s->loops.nkeep = s->loops.nrow;
    return 1;
}


// b <- D_KK^-1 b for this step's factor (structured, or dense and pivoted); nb right-hand sides
// interleaved (nb <= 3)
static void d_solve(const sn_system* s, sn_real* b, int nb) {
    if (s->loops.structured)
        struct_solve(s, b, nb);
    else
        sni_chol_solve_pivoted(s->loops.L, s->loops.keep, s->loops.nrow, s->loops.nkeep, b, nb);
}


// D = J M~^-1 J^T = Z^T D_f^-1 Z (D_f the factor's diagonal), over each row's nonzeros; factored
// with symmetric pivoting (sni_chol_pivoted) until the pivots fall below SNI_LOOP_RANK_TOL of
// the largest: the rows factored are kept (keep, nkeep), the others follow them
static void dense_factor(sn_system* s) {
    int nv = s->m->nv, nr = s->loops.nrow;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    int* perm = s->loops.keep;
    sn_real* D = s->loops.D;
    sn_real dmax = 0;
    for (int i = 0; i < nr; i++) {
        const sn_real* zi = s->loops.W + (size_t)i * nv;
        const int* ix = zidx + (size_t)i * nv;
        for (int j = 0; j <= i; j++) {
            const sn_real* zj = s->loops.W + (size_t)j * nv;
            sn_real g = 0;
            for (int k = 0; k < zn[i]; k++)
                g += zi[ix[k]] * s->step.dinv[ix[k]] * zj[ix[k]];
            D[i * nr + j] = D[j * nr + i] = g;
        }
        dmax = fmax(dmax, D[i * nr + i]);
    }
    s->loops.nkeep = sni_chol_pivoted(D, nr, SNI_LOOP_RANK_TOL * dmax, s->loops.L, perm,
                                      s->loops.diag, s->loops.used);
}


// ---- the elimination ----

// v += x with M~ x = J^T lam and J (v + x) = rhs (NULL: 0), by the clusters' solve; lam (nrow)
static void cluster_correct(const sn_system* s, sn_real* v, const sn_real* rhs, sn_real* lam) {
    int nr = s->loops.nrow, nv = s->m->nv;
    sn_real* r = s->loops.sol;
    sni_loops_cluster_dot(s, v, r);
    for (int i = 0; i < nr; i++)
        r[i] = (rhs ? rhs[i] : 0) - r[i];
    sni_loops_cluster_solve(s, NULL, r, s->loops.resp, lam);
    for (int i = 0; i < nv; i++)
        v[i] += s->loops.resp[i];
}

// the clusters' elimination (route 1): r = -beta e - J u*, then M~ x = J^T lambda_0, J x = r by
// the clusters' articulated solve, u_0 = u* + x. The rows each cluster keeps are listed in keep
static void cluster_eliminate(sn_system* s) {
    const sni_loop_clusters* cl = &s->loops.cl;
    cluster_correct(s, s->step.u1, s->loops.rhs, s->loops.lam);
    int n = 0;
    for (int k = 0; k < cl->n; k++)
        for (int a = 0; a < cl->rank[k]; a++)
            s->loops.keep[n++] = cl->rows[cl->roff[k] + cl->perm[cl->roff[k] + a]];
    s->loops.nkeep = n;
    for (int k = 0; k < cl->n; k++)
        for (int a = cl->rank[k]; a < cl->roff[k + 1] - cl->roff[k]; a++)
            s->loops.keep[n++] = cl->rows[cl->roff[k] + cl->perm[cl->roff[k] + a]];
    s->loops.structured = 0;
    s->loops.cl.steps++;
}


// the rows at this configuration, their errors e, and u1 += M~^-1 J^T x with J u1 = -beta e
sn_status sni_loops_eliminate(sn_system* s, sn_real beta) {
    s->loops.active = 0;
    if (!s->step.has_constraints) return SN_OK;
    sni_loops_rows(s, beta);
    if (s->loops.route) {
        if (sni_loops_cluster_factor(s) == SN_OK) {
            cluster_eliminate(s);
            s->loops.active = 1;
            return SN_OK;
        }
        // a cluster's block is singular (or has too many rows): the factor of M~ instead
        sn_status st = sni_step_factor(s);
        if (st != SN_OK) return st;
        sni_loops_rows(s, beta);
    }
    s->loops.structured = !s->loops.dense_only && struct_factor(s);
    if (!s->loops.structured) dense_factor(s);
    int nr = s->loops.nrow, rank = s->loops.nkeep;
    const int* perm = s->loops.keep;
    // lambda_0 on the kept rows: D_KK x = -beta e - J u*; u_0 = u* + M~^-1 J^T x
    sn_real* x = s->loops.sol;
    for (int k = 0; k < rank; k++)
        x[k] = s->loops.rhs[perm[k]] - row_dot(s, perm[k], s->step.u1);
    d_solve(s, x, 1);
    memset(s->loops.lam, 0, (size_t)nr * sizeof(sn_real));
    for (int k = 0; k < rank; k++)
        s->loops.lam[perm[k]] = x[k];
    add_response(s, x, s->step.u1);
    s->loops.active = 1;
    return SN_OK;
}


sn_status sni_loops_begin(sn_system* s, sn_real dt) {
    sn_real erp = s->world->loop_erp;
    sn_status st = sni_loops_eliminate(s, fmin(fmax(0.2 * erp, 0), 0.3) / dt);
    // the last step's position correction opened the loops by pc_rhs (rows.c): closed in this
    // step through the positions, by the smallest motion in the metric of M~ (a Gauss-Newton
    // step), pc_u = M~^-1 J^T D^-1 pc_rhs / dt; the velocity has not seen it
    int pending = s->loops.pc_pending;
    s->loops.pc_pending = 0;
    s->loops.pc_any = 0;
    s->loops.pc_limit = 0;
    s->loops.pc_solved = 0;
    if (st != SN_OK || !pending || !s->loops.active) return st;
    int nv = s->m->nv, nr = s->loops.nrow, rank = s->loops.nkeep;
    const int* perm = s->loops.keep;
    sn_real* x = s->loops.sol + nr; // past lambda_0's values
    int any = 0;
    for (int k = 0; k < rank; k++)
        any |= s->loops.pc_rhs[perm[k]] != 0;
    if (!any) return SN_OK;
    if (s->loops.route) {
        for (int i = 0; i < nr; i++)
            x[i] = s->loops.pc_rhs[i] / dt;
        sni_loops_cluster_solve(s, NULL, x, s->loops.pc_u, s->loops.sol);
    } else {
        for (int k = 0; k < rank; k++)
            x[k] = s->loops.pc_rhs[perm[k]] / dt;
        d_solve(s, x, 1);
        memset(s->loops.pc_u, 0, (size_t)nv * sizeof(sn_real));
        add_response(s, x, s->loops.pc_u);
    }
    s->loops.pc_any = 1;
    return SN_OK;
}


void sni_loops_predict(sn_system* s, const sn_real* ubar, sn_real dt) {
    const sn_model* m = s->m;
    if (!s->loops.active) return;
    memcpy(s->loops.pc_pred, s->loops.err, 3 * (size_t)m->nconstraint * sizeof(sn_real));
    sn_real* jv = s->loops.sol;
    if (s->loops.route) sni_loops_cluster_dot(s, ubar, jv);
    for (int r = 0; r < s->loops.nrow; r++) {
        int c = s->loops.row_con[r];
        if (c < 0) continue;
        sn_real rate = dt * (s->loops.route ? jv[r] : row_dot(s, r, ubar));
        for (int i = 0; i < 3; i++)
            s->loops.pc_pred[3 * c + i] += rate * s->loops.axis[3 * r + i];
    }
    s->loops.pc_pending = 1;
}


// ---- the projections ----

void sni_loops_project(const sn_system* s, sn_real* Y, int nrows) {
    if (!s->loops.active || s->loops.nkeep == 0) return;
    int nv = s->m->nv, rank = s->loops.nkeep;
    const int* perm = s->loops.keep;
    sn_real* z = s->loops.sol;
    if (s->loops.route) {
        for (int r = 0; r < nrows; r++) // y += x with J (y + x) = 0
            cluster_correct(s, Y + (size_t)r * nv, NULL, z + s->loops.nrow);
        return;
    }
    for (int r = 0; r < nrows; r++) {
        sn_real* y = Y + (size_t)r * nv;
        // y -= M~^-1 J_K^T D_KK^-1 J_K y
        for (int k = 0; k < rank; k++)
            z[k] = -row_dot(s, perm[k], y);
        d_solve(s, z, 1);
        add_response(s, z, y);
    }
}


// project3 with the structured factor: D^-1 t for t = Z^T D_f^-1 z splits into the shared DOFs'
// part U s (s = D_f^-1 z there), whose response P s was formed with the factor, and the part
// through the DOFs of the groups the path crosses (a leg's), solved by those groups' blocks and
// Woodbury's correction: D^-1 t = P s + y - V C^-1 U^T y, y = B^-1 t_groups. No pass over every
// row's Z for t, no full solve. 0 when the path crosses too many groups (the caller projects
// the general way)
#define PROJECT_GROUPS 8
static int project3s(const sn_system* s, sn_real* z, const int* path, int len) {
    int nv = s->m->nv, nr = s->loops.nrow, ns = s->loops.nshared;
    const int* sidx = s->loops.shared;
    const int* dofg = s->loops.dof_group;
    const int* order = s->loops.order;
    const int* off = s->loops.off;
    const int* lofs = s->loops.block_at;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    sn_real *z0 = z, *z1 = z + nv, *z2 = z + 2 * (size_t)nv;
    int gl[PROJECT_GROUPS], ngl = 0;
    for (int a = 0; a < len; a++) {
        int g = dofg[path[a]];
        if (g < 0) continue;
        int seen = 0;
        for (int b = 0; b < ngl; b++)
            seen |= gl[b] == g;
        if (seen) continue;
        if (ngl == PROJECT_GROUPS) return 0;
        gl[ngl++] = g;
    }
    sn_real* x = s->loops.sol; // nr x 3
    memset(x, 0, 3 * (size_t)nr * sizeof(sn_real));
    // t on the crossed groups' rows, then y = B_g^-1 t there
    for (int a = 0; a < len; a++) {
        int i = path[a], g = dofg[i];
        if (g < 0) continue;
        sn_real di = s->step.dinv[i], v0 = z0[i] * di, v1 = z1[i] * di, v2 = z2[i] * di;
        if (v0 == 0 && v1 == 0 && v2 == 0) continue;
        for (int e = off[g]; e < off[g + 1]; e++) {
            int q = order[e];
            sn_real u = s->loops.W[(size_t)q * nv + i];
            x[3 * q] += u * v0, x[3 * q + 1] += u * v1, x[3 * q + 2] += u * v2;
        }
    }
    for (int b = 0; b < ngl; b++) {
        int g = gl[b];
        int n = off[g + 1] - off[g];
        sni_chol_solve_rows(s->loops.L + lofs[g], n, n, order + off[g], x, 3);
    }
    // w = C^-1 U^T y
    sn_real w[3 * SNI_LOOP_SHARED_MAX], sv[3 * SNI_LOOP_SHARED_MAX];
    for (int a = 0; a < 3 * ns; a++)
        w[a] = 0;
    for (int b = 0; b < ngl; b++) {
        int g = gl[b];
        for (int e = off[g]; e < off[g + 1]; e++) {
            int r = order[e];
            const sn_real* ur = s->loops.U + (size_t)r * ns;
            for (int a = 0; a < ns; a++) {
                w[3 * a] += ur[a] * x[3 * r];
                w[3 * a + 1] += ur[a] * x[3 * r + 1];
                w[3 * a + 2] += ur[a] * x[3 * r + 2];
            }
        }
    }
    sni_chol_solve(s->loops.C, ns, w, 3);
    // s = D_f^-1 z at the shared DOFs; x = y + P s - V w
    for (int a = 0; a < ns; a++) {
        int k = sidx[a];
        sn_real di = s->step.dinv[k];
        sv[3 * a] = z0[k] * di, sv[3 * a + 1] = z1[k] * di, sv[3 * a + 2] = z2[k] * di;
    }
    for (int r = 0; r < nr; r++) {
        const sn_real* pr = s->loops.P + (size_t)r * ns;
        const sn_real* vr = s->loops.V + (size_t)r * ns;
        sn_real a0 = x[3 * r], a1 = x[3 * r + 1], a2 = x[3 * r + 2];
        for (int a = 0; a < ns; a++) {
            a0 += pr[a] * sv[3 * a] - vr[a] * w[3 * a];
            a1 += pr[a] * sv[3 * a + 1] - vr[a] * w[3 * a + 1];
            a2 += pr[a] * sv[3 * a + 2] - vr[a] * w[3 * a + 2];
        }
        // z -= Z_r (D^-1 t)_r
        const sn_real* zq = s->loops.W + (size_t)r * nv;
        const int* ix = zidx + (size_t)r * nv;
        for (int e = 0; e < zn[r]; e++) {
            int i = ix[e];
            sn_real u = zq[i];
            z0[i] -= u * a0, z1[i] -= u * a1, z2[i] -= u * a2;
        }
    }
    return 1;
}

// sni_loops_project_half on one row z, nonzero on path (len DOFs)
static void project1(const sn_system* s, sn_real* z, const int* path, int len) {
    int nv = s->m->nv, rank = s->loops.nkeep;
    const int* perm = s->loops.keep;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    sn_real* x = s->loops.sol;
    sn_real* zd = s->loops.zd; // D_f^-1 z on the path
    for (int a = 0; a < len; a++)
        zd[a] = z[path[a]] * s->step.dinv[path[a]];
    for (int k = 0; k < rank; k++) {
        const sn_real* zq = s->loops.W + (size_t)perm[k] * nv;
        sn_real g = 0;
        for (int a = 0; a < len; a++)
            g += zq[path[a]] * zd[a];
        x[k] = -g;
    }
    d_solve(s, x, 1);
    for (int k = 0; k < rank; k++) {
        int q = perm[k];
        const sn_real* zq = s->loops.W + (size_t)q * nv;
        const int* ix = zidx + (size_t)q * nv;
        if (x[k] == 0) continue;
        for (int a = 0; a < zn[q]; a++)
            z[ix[a]] += zq[ix[a]] * x[k];
    }
}

// the same on a contact's three rows at once (z, z + nv, z + 2 nv): one pass over the loops' rows
// and one solve with three right-hand sides
static void project3(const sn_system* s, sn_real* z, const int* path, int len) {
    int nv = s->m->nv, rank = s->loops.nkeep;
    const int* perm = s->loops.keep;
    const int* zn = s->loops.zn;
    const int* zidx = s->loops.zidx;
    sn_real* x = s->loops.sol; // rank x 3
    sn_real* zd = s->loops.zd; // len x 3
    sn_real *z0 = z, *z1 = z + nv, *z2 = z + 2 * (size_t)nv;
    for (int a = 0; a < len; a++) {
        int i = path[a];
        zd[3 * a] = z0[i] * s->step.dinv[i];
        zd[3 * a + 1] = z1[i] * s->step.dinv[i];
        zd[3 * a + 2] = z2[i] * s->step.dinv[i];
    }
    for (int k = 0; k < rank; k++) {
        const sn_real* zq = s->loops.W + (size_t)perm[k] * nv;
        sn_real g0 = 0, g1 = 0, g2 = 0;
        for (int a = 0; a < len; a++) {
            sn_real u = zq[path[a]];
            g0 += u * zd[3 * a], g1 += u * zd[3 * a + 1], g2 += u * zd[3 * a + 2];
        }
        x[3 * k] = -g0, x[3 * k + 1] = -g1, x[3 * k + 2] = -g2;
    }
    d_solve(s, x, 3);
    for (int k = 0; k < rank; k++) {
        int q = perm[k];
        const sn_real* zq = s->loops.W + (size_t)q * nv;
        const int* ix = zidx + (size_t)q * nv;
        sn_real x0 = x[3 * k], x1 = x[3 * k + 1], x2 = x[3 * k + 2];
        for (int a = 0; a < zn[q]; a++) {
            int i = ix[a];
            sn_real u = zq[i];
            z0[i] += u * x0, z1[i] += u * x1, z2[i] += u * x2;
        }
    }
}


void sni_loops_project_half(const sn_system* s, sn_real* Z, int nrows, int last) {
    // on the half solves z = L^-T j^T: J M~^-1 j^T = Z_K^T D_f^-1 z, and the correction
    // M~^-1 J_K^T x is the rest of the solve of Z_K x, so z -= Z_K D_KK^-1 Z_K^T D_f^-1 z
    if (!s->loops.active || s->loops.nkeep == 0) return;
    const sn_model* m = s->m;
    int nv = m->nv;
    int* path = s->loops.path;
    int len = 0;
    if (last == -2)
        for (int i = 0; i < nv; i++)
            path[len++] = i;
    else
        for (int i = last; i >= 0; i = m->dof_parent[i])
            path[len++] = i;
    if (nrows == 3) {
        if (!(s->loops.structured && project3s(s, Z, path, len))) project3(s, Z, path, len);
    } else {
        for (int r = 0; r < nrows; r++)
            project1(s, Z + (size_t)r * nv, path, len);
    }
}


void sni_loops_finish(sn_system* s, const sn_real* g) {
    // the step's constraint impulses, equation (2) of seed 000: lambda = lambda_0 - D^-1 J M~^-1
    // J_c^T lambda_c, with g = M~^-1 J_c^T lambda_c from the contact solver (NULL: none)
    const sn_model* m = s->m;
    int rank = s->loops.nkeep, nc = m->nconstraint;
    if (!s->loops.active) return;
    sn_real* z = s->loops.sol;
    if (g && s->loops.route) {
        // g is J_c^T lambda_c: M~ x = g + J^T mu, J x = 0 gives mu = -D^-1 J M~^-1 g
        sni_loops_cluster_solve(s, g, NULL, s->loops.resp, z);
        for (int r = 0; r < s->loops.nrow; r++)
            s->loops.lam[r] += z[r];
    } else if (g && rank) {
        for (int k = 0; k < rank; k++)
            z[k] = row_dot(s, s->loops.keep[k], g);
        d_solve(s, z, 1);
        for (int k = 0; k < rank; k++)
            s->loops.lam[s->loops.keep[k]] -= z[k];
    }
    // per constraint: the impulse on body1's anchor, sum of lambda_i a_i (the rows' world axes
    // of this step)
    int r = 0;
    for (int c = 0; c < nc; c++) {
        sn_real* imp = s->loops.imp + 3 * c;
        v3_set(imp, 0, 0, 0);
        for (int i = 0; i < s->loops.naxis[c]; i++, r++)
            v3_addscl(imp, s->loops.axis + 3 * r, s->loops.lam[r]);
    }
}


void sni_loops_admissible(const sn_system* s, const sn_real* u, sn_real* out) {
    int nv = s->m->nv;
    memcpy(out, u, (size_t)nv * sizeof(sn_real));
    sni_loops_project(s, out, 1);
}
