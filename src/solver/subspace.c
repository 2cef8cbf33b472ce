// SPDX-License-Identifier: Apache-2.0
// subspace.c: the solver's subspace step.
// Gauss-Seidel converges slowly on redundant sets (two contacts at the ends of a capsule lying on
// the floor, a box on four corners): the impulses drift along the set's near-null directions by
// a fraction of a percent per sweep while the velocities barely move. Once the sweeps have fixed
// which rows act (a contact opening, sticking or sliding in a direction, a joint row at its bound
// or free), the impulses of the acting rows solve one linear system: every sticking contact's
// three rows and every free joint row reach their target velocities, every sliding contact's
// normal row does with its friction mu lambda_n along the sweeps' direction (the idea of
// projected Gauss-Seidel with subspace minimization, Silcowitz, Niebe and Erleben 2010). The
// result is kept only if every cone and bound holds and every sliding contact still slides
// against its friction; when it breaks some, those rows are held (a joint row at its clamped
// value, a contact at its current impulse) and the rest is solved again, up to SM_TRIES tries.
// The sweeps then go on from it and end at once when it is the answer.
// It runs after sweeps 8 and 31 of a step that has not converged, when the rows' velocities
// settle by less than half per sweep (a try at sweep 81 held 3 % of the time), on at most
// SNI_SM_MAX unknowns. The falling humanoid: 11 sweeps per step instead of
// 45; five stacked boxes: 5 instead of 33 (tests/test_humanoid.c, tests/test_contact_pairs.c).
#include "math/dense.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// ---- the unknowns' columns ----

// v += k * (block b's column q of M~^-1 J^T; q 3: a sliding contact's normal with its friction)
// on its systems; into v_fix when fix is set, else v (s->solve)
static void push_column(sni_solver* sv, int b, int q, sn_real k, int fix) {
    sn_real dl[3] = {0, 0, 0};
    if (q < 3) {
        dl[q] = k;
    } else {
        const sn_real* lb = sv->blk_lambda + 3 * b;
        sn_real lt = sqrt(lb[0] * lb[0] + lb[1] * lb[1]);
        sn_real mu = sv->contacts[sv->blk_index[b]].mu;
        dl[2] = k;
        if (lt > 0) dl[0] = k * mu * lb[0] / lt, dl[1] = k * mu * lb[1] / lt;
    }
    size_t st = 3 * (size_t)sv->size.nvmax;
    for (int e = 0; e < 2; e++) {
        int si = e ? sv->blk_sb[b] : sv->blk_sa[b];
        if (si < 0) continue;
        sn_system* s = sv->sys[si];
        int nv = s->m->nv;
        const sn_real* Y = (e ? sv->blk_Yb : sv->blk_Ya) + st * b;
        sn_real* v = fix ? s->solve.v_fix : s->solve.v;
        for (int r = 0; r < sv->blk_dim[b]; r++)
            if (dl[r] != 0)
                for (int i = 0; i < nv; i++)
                    v[i] += Y[(size_t)r * nv + i] * dl[r];
    }
}


static void push_unknown(sni_solver* sv, int u, sn_real k, int fix) {
    push_column(sv, sv->sm_blk[u], sv->sm_row[u], k, fix);
}


// the current value of unknown u
static sn_real unknown_value(const sni_solver* sv, int u) {
    return sv->blk_lambda[3 * sv->sm_blk[u] + (sv->sm_row[u] < 3 ? sv->sm_row[u] : 2)];
}


// every system in the solve: v_fix <- v (to_fix) or v <- v_fix
static void copy_velocities(sni_solver* sv, int to_fix) {
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active) continue;
        if (to_fix)
            memcpy(s->solve.v_fix, s->solve.v, (size_t)s->m->nv * sizeof(sn_real));
        else
            memcpy(s->solve.v, s->solve.v_fix, (size_t)s->m->nv * sizeof(sn_real));
    }
}


// v and v_fix exchange places (the rows' velocities are read from v)
static void swap_velocities(sni_solver* sv) {
    for (int si = 0; si < sv->nsys; si++) {
        sn_system* s = sv->sys[si];
        if (!s->solve.active) continue;
        sn_real* t = s->solve.v;
        s->solve.v = s->solve.v_fix, s->solve.v_fix = t;
    }
}


// ---- one try ----

// the acting rows of the blocks not held (sm_frozen) as unknowns: every row of a sticking
// contact, the normal of a sliding one (row 3), a joint row strictly inside its bound. Their
// number, 0 when there are none or too many
static int choose_unknowns(sni_solver* sv) {
    int n = 0;
    for (int a = 0; a < sv->nblock; a++) {
        const sn_real* la = sv->blk_lambda + 3 * a;
        if (sv->sm_frozen[a]) continue;
        if (sv->blk_kind[a] == SN_ROW_CONTACT) {
            if (!(la[2] > 0)) continue; // open
            sn_real mu = sv->contacts[sv->blk_index[a]].mu;
            int stick = sqrt(la[0] * la[0] + la[1] * la[1]) < mu * la[2] * (1 - 1e-9);
            if (n + (stick ? 3 : 1) > SNI_SM_MAX) return 0;
            if (stick)
                for (int r = 0; r < 3; r++)
                    sv->sm_blk[n] = a, sv->sm_row[n++] = r;
            else
                sv->sm_blk[n] = a, sv->sm_row[n++] = 3;
            continue;
        }
        sn_real bound = sni_solver_joint_clamp(sv, a, INFINITY);
        if (sv->blk_kind[a] == SN_ROW_FRICTION ? fabs(la[0]) >= bound : la[0] == 0) continue;
        if (n + 1 > SNI_SM_MAX) return 0;
        sv->sm_blk[n] = a, sv->sm_row[n++] = 0;
    }
    return n;
}


// A's entries of unknowns i .. i + ni (one block's) against j .. j + nj (another's) from their
// blocks' coupling C (rows of the first, columns of the second); a sliding unknown's column
// carries its friction: C_n + mu (t1 C_t1 + t2 C_t2)
static void fill_block(const sni_solver* sv, sn_real* A, int n, int i, int ni, int j, int nj,
                       const sn_real* C) {
    sn_real tf[2] = {0, 0};
    if (sv->sm_row[j] == 3) {
        int b = sv->sm_blk[j];
        const sn_real* lb = sv->blk_lambda + 3 * b;
        sn_real lt = sqrt(lb[0] * lb[0] + lb[1] * lb[1]);
        sn_real mu = sv->contacts[sv->blk_index[b]].mu;
        if (lt > 0) tf[0] = mu * lb[0] / lt, tf[1] = mu * lb[1] / lt;
    }
    for (int u = 0; u < ni; u++) {
        int r = sv->sm_row[i + u] < 3 ? sv->sm_row[i + u] : 2;
        for (int v = 0; v < nj; v++) {
            int q = sv->sm_row[j + v];
            A[(i + u) * n + j + v] =
                q < 3 ? C[3 * r + q] : C[3 * r + 2] + tf[0] * C[3 * r] + tf[1] * C[3 * r + 1];
        }
    }
}


// the matrix A of the n unknowns (sm_A): the first try computes it, block pair by block pair
// (an unknown's block holds 1 or 3 consecutive unknowns), each pair's coupling once (C_ba =
// C_ab^T); a retry takes its submatrix. 0 when a retry's unknowns are not the first try's
static int build_matrix(sni_solver* sv, int n) {
    sn_real* A = sv->sm_A;
    if (sv->sm_n0 == 0) {
        for (int i = 0; i < n;) {
            int a = sv->sm_blk[i], ni = 1;
            while (i + ni < n && sv->sm_blk[i + ni] == a)
                ni++;
            for (int j = i; j < n;) {
                int b = sv->sm_blk[j], nj = 1;
                while (j + nj < n && sv->sm_blk[j + nj] == b)
                    nj++;
                sn_real C[9], T[9];
                sni_solver_coupling(sv, a, b, C);
                for (int r = 0; r < 3; r++)
                    for (int q = 0; q < 3; q++)
                        T[3 * q + r] = C[3 * r + q];
                fill_block(sv, A, n, i, ni, j, nj, C);
                if (j != i) fill_block(sv, A, n, j, nj, i, ni, T);
                j += nj;
            }
            i += ni;
        }
        memcpy(sv->sm_A0, A, (size_t)n * n * sizeof(sn_real));
        memcpy(sv->sm_blk0, sv->sm_blk, (size_t)n * sizeof(int));
        memcpy(sv->sm_row0, sv->sm_row, (size_t)n * sizeof(int));
        sv->sm_n0 = n;
        return 1;
    }
    // a retry: its unknowns are some of the first try's, in the same order
    int n0 = sv->sm_n0, k = 0;
    for (int i = 0; i < n; i++) {
        while (k < n0 && (sv->sm_blk0[k] != sv->sm_blk[i] || sv->sm_row0[k] != sv->sm_row[i]))
            k++;
        if (k == n0) return 0;
        sv->sm_map[i] = k++;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] = sv->sm_A0[sv->sm_map[i] * n0 + sv->sm_map[j]];
    return 1;
}


// the right side (sm_b): targets less the rows' velocities at the fixed impulses (v_fix takes
// v's place meanwhile); returns the largest diagonal entry of A
static sn_real right_side(sni_solver* sv, int n) {
    const sn_real* A = sv->sm_A;
    sn_real dmax = 0;
    swap_velocities(sv);
    for (int i = 0; i < n; i++) {
        int a = sv->sm_blk[i], r = sv->sm_row[i] < 3 ? sv->sm_row[i] : 2;
        sn_real c[3];
        sni_solver_row_velocity(sv, a, c);
        sv->sm_b[i] = sv->blk_target[3 * a + r] - c[r];
        dmax = fmax(dmax, fabs(A[i * n + i]));
    }
    swap_velocities(sv);
    return dmax;
}


// from the current impulses, steps with a ridge on the diagonal (1e-6 of its largest entry):
// x <- x + (A + ridge)^-1 (b - A x), three times, into sm_x. The ridge keeps the null-direction
// share of the sweeps' impulses on a redundant set and damps the near-null directions where the
// acting set asks for more than the sweeps can give; the repeats make the well-conditioned
// directions exact (a box on a bump and two corners: its three contacts carry m g to 1e-12).
// One pass left 1e-7 of the load unresolved; five made the humanoid's sweeps slower.
// SN_ERR_SINGULAR when the factor fails
static sn_status solve_ridge(sni_solver* sv, int n, sn_real dmax) {
    const sn_real* A = sv->sm_A;
    const sn_real* rhs = sv->sm_b;
    sn_real* x = sv->sm_x;
    sn_real* LU = sv->sm_LU;
    sn_real* res = sv->sm_r;
    for (int i = 0; i < n; i++)
        x[i] = unknown_value(sv, i);
    memcpy(LU, A, (size_t)n * n * sizeof(sn_real));
    for (int i = 0; i < n; i++)
        LU[i * n + i] += 1e-6 * dmax;
    // symmetric positive definite with the ridge unless a sliding column is in it: Cholesky
    int sym = 1;
    for (int i = 0; i < n; i++)
        sym &= sv->sm_row[i] != 3;
    sn_status st = sym ? sni_chol(LU, n, 0) : sni_lu_factor(LU, n, sv->sm_piv);
    if (st != SN_OK) return st;
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            res[i] = rhs[i];
            for (int j = 0; j < n; j++)
                res[i] -= A[i * n + j] * x[j];
        }
        if (sym)
            sni_chol_solve1(LU, n, n, res);
        else
            sni_lu_solve(LU, n, sv->sm_piv, res);
        for (int i = 0; i < n; i++)
            x[i] += res[i];
    }
    return SN_OK;
}


// rows of the solution sm_x that break their cone or bound are held for the next try: a joint
// row at its clamped value, a contact at its current impulse. 1 when none does, -1 when some
// were held, 0 when the solution is not finite
static int hold_broken(sni_solver* sv, int n) {
    const sn_real* x = sv->sm_x;
    int held = 0;
    for (int i = 0; i < n; i++) {
        int a = sv->sm_blk[i], q = sv->sm_row[i];
        if (!isfinite(x[i])) return 0;
        if (sv->blk_kind[a] == SN_ROW_CONTACT) {
            sn_real mu = sv->contacts[sv->blk_index[a]].mu;
            int bad = (q == 3 && x[i] < 0) ||
                      (q == 0 &&
                       (x[i + 2] < 0 || sqrt(x[i] * x[i] + x[i + 1] * x[i + 1]) > mu * x[i + 2]));
            if (bad) sv->sm_frozen[a] = 1, held = 1;
            continue;
        }
        sn_real cl = sni_solver_joint_clamp(sv, a, x[i]);
        if (cl != x[i]) sv->sm_frozen[a] = 2, sv->sm_fval[a] = cl, held = 1;
    }
    return held ? -1 : 1;
}


// the sweeps' velocity at the solution: the fixed part plus the unknowns' columns. A sliding
// contact must still slide against its friction, else it is held at its impulse for the next try,
// the velocities go back to the sweeps' and -1 is returned. Otherwise the impulses are the
// solution's (a sliding contact keeps its friction direction; held joint rows take their held
// values) and 1 is returned
static int apply_solution(sni_solver* sv, int n) {
    const sn_real* x = sv->sm_x;
    int nb = sv->nblock, held = 0;
    copy_velocities(sv, 0);
    for (int i = 0; i < n; i++)
        push_unknown(sv, i, x[i], 0);
    for (int i = 0; i < n; i++) {
        int a = sv->sm_blk[i];
        if (sv->sm_row[i] != 3) continue;
        const sn_real* la = sv->blk_lambda + 3 * a;
        sn_real c[3], lt = sqrt(la[0] * la[0] + la[1] * la[1]);
        sni_solver_row_velocity(sv, a, c);
        sn_real vt = sqrt(c[0] * c[0] + c[1] * c[1]);
        if (lt > 0 && vt > 1e-9 && (c[0] * la[0] + c[1] * la[1]) / (lt * vt) > -1 + 1e-6)
            sv->sm_frozen[a] = 1, held = 1;
    }
    if (held) {
        // back to the sweeps' velocity: the fixed part (held joint rows at their current
        // impulses again) plus the unknowns' current share
        copy_velocities(sv, 0);
        for (int i = 0; i < n; i++)
            push_unknown(sv, i, unknown_value(sv, i), 0);
        for (int a = 0; a < nb; a++)
            if (sv->sm_frozen[a] == 2)
                push_column(sv, a, 0, sv->blk_lambda[3 * a] - sv->sm_fval[a], 0);
        return -1;
    }
    for (int a = 0; a < nb; a++)
        if (sv->sm_frozen[a] == 2) sv->blk_lambda[3 * a] = sv->sm_fval[a];
    for (int i = 0; i < n; i++) {
        int a = sv->sm_blk[i], q = sv->sm_row[i];
        sn_real* la = sv->blk_lambda + 3 * a;
        if (q < 3) {
            la[q] = x[i];
        } else {
            sn_real lt = sqrt(la[0] * la[0] + la[1] * la[1]);
            sn_real mu = sv->contacts[sv->blk_index[a]].mu;
            if (lt > 0) la[0] *= mu * x[i] / lt, la[1] *= mu * x[i] / lt;
            la[2] = x[i];
        }
    }
    return 1;
}


// one try with the blocks marked in sm_frozen held: 1 when kept, 0 when it cannot be, -1 when
// rows that broke their cone or bound were held for another try
static int subspace_try(sni_solver* sv) {
    int n = choose_unknowns(sv);
    if (n == 0) return 0;
    // the velocity the fixed impulses leave: v less the unknowns' current share, with the
    // held joint rows at their held values
    copy_velocities(sv, 1);
    for (int u = 0; u < n; u++)
        push_unknown(sv, u, -unknown_value(sv, u), 1);
    for (int a = 0; a < sv->nblock; a++)
        if (sv->sm_frozen[a] == 2) push_column(sv, a, 0, sv->sm_fval[a] - sv->blk_lambda[3 * a], 1);
    if (!build_matrix(sv, n)) return 0;
    sn_real dmax = right_side(sv, n);
    if (solve_ridge(sv, n, dmax) != SN_OK) return 0;
    int r = hold_broken(sv, n);
    if (r <= 0) return r;
    return apply_solution(sv, n);
}


// up to SM_TRIES tries, each holding the rows the last one found breaking their cones or bounds
// (one try: the humanoid's steps at the iteration limit were 17 times as many)
enum { SM_TRIES = 4 };
int sni_solver_subspace_step(sni_solver* sv) {
    memset(sv->sm_frozen, 0, (size_t)sv->nblock * sizeof(int));
    sv->sm_n0 = 0;
    for (int t = 0; t < SM_TRIES; t++) {
        int r = subspace_try(sv);
        if (r >= 0) return r;
    }
    return 0;
}
