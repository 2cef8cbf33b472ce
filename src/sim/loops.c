// SPDX-License-Identifier: Apache-2.0
// loops.c: loop constraints eliminated exactly in every step (seed 000, "Kinematic loops"; seed
// 001). A pin ties body2's anchor to body1's in all three directions, an equality constraint
// along one or two axes fixed in body1. After the free velocity u* of step 4:
//   rows J (a pin: the world axes times J_1(p_1) - J_2(p_2); an equality: a_i^T (J_1(p_2) -
//   J_2(p_2)), the exact rate), errors e (a_i . (p_1 - p_2)), D = J M~^-1 J^T,
//   lambda_0 = D^-1 (-beta e - J u*), u_0 = u* + M~^-1 J^T lambda_0,
// with beta = clamp(0.2 erp, 0, 0.3) / dt. Every other impulse then acts through the constrained
// mechanism's inverse mass M_c^-1 = M~^-1 - W D^-1 W^T (W = M~^-1 J^T): the contact solver's
// responses Y = M~^-1 J_c^T are projected, Y - W D^-1 (J Y), so no contact, limit or friction
// impulse can open a loop whatever the solver's iteration limit. Rows that the others make
// redundant (a repeated pin, the out-of-plane direction of a planar loop, a singular pose) are
// found by a pivoted Cholesky factor of D and left out: they carry no impulse.
#include "dynamics/dyn.h"
#include "math/dense.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// a pivot below this share of D's largest diagonal is a redundant (or nearly so) row
#define LOOP_RANK_TOL 1e-6


// solve L L^T x = b for the leading rank x rank block of the pivoted factor: L(a, k) is stored at
// Lo[perm[a] * ld + k] (k < a), the pivot L(a, a) at Lo[perm[a] * ld + a]. b holds nb right-hand
// sides interleaved (b[i * nb + j])
static void chol_solve(const sn_real* Lo, const int* perm, int ld, int rank, sn_real* b, int nb) {
    for (int i = 0; i < rank; i++) {
        const sn_real* li = Lo + (size_t)perm[i] * ld;
        for (int k = 0; k < i; k++)
            for (int j = 0; j < nb; j++)
                b[i * nb + j] -= li[k] * b[k * nb + j];
        for (int j = 0; j < nb; j++)
            b[i * nb + j] /= li[i];
    }
    for (int i = rank - 1; i >= 0; i--) {
        for (int k = i + 1; k < rank; k++) {
            sn_real l = Lo[(size_t)perm[k] * ld + i];
            for (int j = 0; j < nb; j++)
                b[i * nb + j] -= l * b[k * nb + j];
        }
        for (int j = 0; j < nb; j++)
            b[i * nb + j] /= Lo[(size_t)perm[i] * ld + i];
    }
}


// world pose of link frame f
static void frame_world(const sn_model* m, const sn_data* d, int f, sn_real* p, sn_real* R) {
    sn_frame_pose(m, d, f, p, R);
}


// world anchors of constraint c: p1 on body1, p2 on body2, and body1's link rotation
static void anchors(const sn_system* s, int c, sn_real* p1, sn_real* p2, sn_real* R1) {
    const sn_model* m = s->m;
    sn_real pf[3], R2[9], t[3];
    frame_world(m, s->d, m->constraint_frame1[c], pf, R1);
    m3_mul_v3(t, R1, m->constraint_anchor + 3 * c);
    v3_add(p1, pf, t);
    frame_world(m, s->d, m->constraint_frame2[c], pf, R2);
    m3_mul_v3(t, R2, s->loops.anchor2 + 3 * c);
    v3_add(p2, pf, t);
}


// an orientation constraint's error: the rotation vector of R1 Q R2^T (world axes), Q body2's
// link frame in body1's when the constraint holds; its time derivative is w1 - w2 near zero
static void orient_err(const sn_system* s, int c, sn_real* e) {
    const sn_model* m = s->m;
    sn_real p[3], R1[9], R2[9], T[9], Re[9];
    frame_world(m, s->d, m->constraint_frame1[c], p, R1);
    frame_world(m, s->d, m->constraint_frame2[c], p, R2);
    m3_mul(T, R1, s->loops.rot2 + 9 * c);
    for (int i = 0; i < 3; i++) // Re = T R2^T
        for (int j = 0; j < 3; j++)
            Re[3 * i + j] =
                T[3 * i] * R2[3 * j] + T[3 * i + 1] * R2[3 * j + 1] + T[3 * i + 2] * R2[3 * j + 2];
    sn_real v[3] = {(Re[7] - Re[5]) / 2, (Re[2] - Re[6]) / 2, (Re[3] - Re[1]) / 2};
    sn_real sn = v3_norm(v), cs = (Re[0] + Re[4] + Re[8] - 1) / 2;
    sn_real th = atan2(sn, cs);
    v3_scale(e, v, sn > 1e-12 ? th / sn : 1);
}

// the directions constraint c names, in world axes (n of them) into a (n x 3): a pin's and an
// orientation constraint's three world axes, an equality's axes turned with body1
static int named_axes(const sn_model* m, int c, const sn_real* R1, sn_real (*a)[3]) {
    if (m->constraint_type[c] != SN_CONSTRAINT_EQUALITY) {
        for (int i = 0; i < 3; i++)
            v3_set(a[i], i == 0, i == 1, i == 2);
        return 3;
    }
    int n = m->constraint_naxis[c];
    for (int i = 0; i < n; i++)
        m3_mul_v3(a[i], R1, m->constraint_axes + 6 * c + 3 * i);
    return n;
}

// the directions of constraint c that its rows hold (the named ones less those structurally
// redundant, fixed at attachment in body1's frame), in world axes
static int axes(const sn_system* s, int c, const sn_real* R1, sn_real (*a)[3]) {
    int n = s->loops.naxis[c];
    for (int i = 0; i < n; i++)
        m3_mul_v3(a[i], R1, s->loops.axes + 9 * c + 3 * i);
    return n;
}

static void structure(sn_system* s);

// the rows a step can have: 3 per constraint, 1 per mimic joint
static int max_rows(const sn_model* m) {
    int n = 3 * m->nconstraint;
    for (int j = 0; j < m->njoint; j++)
        n += m->joint_mimic[j] >= 0 && m->joint_nv[j] == 1;
    return n;
}

void sni_loops_attach(sn_system* s) {
    const sn_model* m = s->m;
    if (m->nconstraint == 0) return;
    sni_ensure_kinematics(s);
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real pf[3], R[9], p1[3], t[3];
        if (m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION) {
            // body2's link frame in body1's: given, or as it is now (the nominal configuration)
            if (!isnan(m->constraint_rot2[9 * c])) {
                memcpy(s->loops.rot2 + 9 * c, m->constraint_rot2 + 9 * c, 9 * sizeof(sn_real));
            } else {
                sn_real R1[9], R2[9];
                frame_world(m, s->d, m->constraint_frame1[c], pf, R1);
                frame_world(m, s->d, m->constraint_frame2[c], pf, R2);
                m3t_mul(s->loops.rot2 + 9 * c, R1, R2);
            }
        }
        if (!isnan(m->constraint_anchor2[3 * c])) {
            // given by the file, in body2's link frame
            v3_copy(s->loops.anchor2 + 3 * c, m->constraint_anchor2 + 3 * c);
            continue;
        }
        frame_world(m, s->d, m->constraint_frame1[c], pf, R);
        m3_mul_v3(t, R, m->constraint_anchor + 3 * c);
        v3_add(p1, pf, t);
        // the coincident point of body2, in its link frame
        frame_world(m, s->d, m->constraint_frame2[c], pf, R);
        v3_sub(t, p1, pf);
        m3t_mul_v3(s->loops.anchor2 + 3 * c, R, t);
    }
    structure(s);
    // the steps keep the rows zero outside their nonzeros
    memset(s->loops.J, 0, (size_t)(max_rows(m) + 3) * (size_t)m->nv * sizeof(sn_real));
    memset(s->loops.W, 0, (size_t)max_rows(m) * m->nv * sizeof(sn_real));
}


// the relative velocity of x1 on b1 and x2 on b2 per unit rate of each DOF that moves it:
// x1 on body1's path to the root, minus x2 on body2's. The two paths share their part above the
// bodies' common ancestor, where a DOF moves the two points by w x (x1 - x2) (nothing when the
// points coincide, as an equality's do). DOFs into cols, 3-vectors into vec; their number
static int rel_columns(const sn_model* m, const sn_data* d, int b1, const sn_real* x1, int b2,
                       const sn_real* x2, int* cols, sn_real* vec) {
    int k1 = sni_body_last_dof(m, b1), k2 = sni_body_last_dof(m, b2), n = 0;
    sn_real dx[3];
    v3_sub(dx, x1, x2);
    int same = dx[0] == 0 && dx[1] == 0 && dx[2] == 0;
    // the deeper DOF is never an ancestor of the other: climb from it (parents are numbered
    // before their children) until the two meet
    while (k1 != k2) {
        int side = k1 > k2 ? 0 : 1;
        int k = side ? k2 : k1;
        const sn_real* sm = d->dof_motion + 6 * k;
        sn_real* v = vec + 3 * n;
        v3_copy(v, sm + 3);
        v3_addcross(v, sm, side ? x2 : x1);
        if (side) v3_scale(v, v, -1);
        cols[n++] = k;
        if (side)
            k2 = m->dof_parent[k2];
        else
            k1 = m->dof_parent[k1];
    }
    if (!same)
        for (int k = k1; k >= 0; k = m->dof_parent[k]) {
            const sn_real* sm = d->dof_motion + 6 * k;
            v3_cross(vec + 3 * n, sm, dx);
            cols[n++] = k;
        }
    return n;
}


// the relative angular velocity of b1 and b2 per unit rate of each DOF that turns it: body1's
// path to the root, minus body2's, above their common ancestor nothing. As rel_columns
static int rel_ang_columns(const sn_model* m, const sn_data* d, int b1, int b2, int* cols,
                           sn_real* vec) {
    int k1 = sni_body_last_dof(m, b1), k2 = sni_body_last_dof(m, b2), n = 0;
    while (k1 != k2) {
        int side = k1 > k2 ? 0 : 1;
        int k = side ? k2 : k1;
        v3_scale(vec + 3 * n, d->dof_motion + 6 * k, side ? -1 : 1);
        cols[n++] = k;
        if (side)
            k2 = m->dof_parent[k2];
        else
            k1 = m->dof_parent[k1];
    }
    return n;
}

// the rows' relative motions of constraint c per DOF (cols, vec): points for a pin (each body's
// anchor) or an equality (body2's anchor, exact), angular velocity for an orientation
static int constraint_columns(const sn_system* s, int c, const sn_real* p1, const sn_real* p2,
                              int* cols, sn_real* vec) {
    const sn_model* m = s->m;
    int b1 = m->frame_body[m->constraint_frame1[c]], b2 = m->frame_body[m->constraint_frame2[c]];
    int type = m->constraint_type[c];
    if (type == SN_CONSTRAINT_ORIENTATION) return rel_ang_columns(m, s->d, b1, b2, cols, vec);
    return rel_columns(m, s->d, b1, type == SN_CONSTRAINT_PIN ? p1 : p2, b2, p2, cols, vec);
}

static sn_real vdot(const sn_real* a, const sn_real* b, int n) {
    sn_real x = 0;
    for (int i = 0; i < n; i++)
        x += a[i] * b[i];
    return x;
}

// the eigenvalues (ascending) and eigenvectors (columns of V) of the symmetric 3 x 3 matrix A,
// by cyclic Jacobi rotations
static void sym3_eigen(const sn_real* A, sn_real ev[3], sn_real V[9]) {
    sn_real a[9];
    memcpy(a, A, sizeof a);
    m3_identity(V);
    for (int sweep = 0; sweep < 50; sweep++) {
        sn_real off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
        if (!(off > 1e-30 * (a[0] * a[0] + a[4] * a[4] + a[8] * a[8]))) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                sn_real apq = a[3 * p + q];
                if (apq == 0) continue;
                sn_real th = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
                sn_real t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                sn_real c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) { // columns p, q
                    sn_real x = a[3 * k + p], y = a[3 * k + q];
                    a[3 * k + p] = c * x - sn * y, a[3 * k + q] = sn * x + c * y;
                }
                for (int k = 0; k < 3; k++) { // rows p, q
                    sn_real x = a[3 * p + k], y = a[3 * q + k];
                    a[3 * p + k] = c * x - sn * y, a[3 * q + k] = sn * x + c * y;
                }
                for (int k = 0; k < 3; k++) {
                    sn_real x = V[3 * k + p], y = V[3 * k + q];
                    V[3 * k + p] = c * x - sn * y, V[3 * k + q] = sn * x + c * y;
                }
            }
    }
    int o[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[4 * o[j]] < a[4 * o[i]]) {
                int t = o[i];
                o[i] = o[j], o[j] = t;
            }
    sn_real W[9];
    memcpy(W, V, sizeof W);
    for (int i = 0; i < 3; i++) {
        ev[i] = a[4 * o[i]];
        for (int k = 0; k < 3; k++)
            V[3 * k + i] = W[3 * k + o[i]];
    }
}

// a row's part that no direction below LOOP_STRUCT_TOL of its own size keeps: the structural
// test of seed 001 (a joint that moves the anchors apart along a direction only through a lever
// below 1/1000 of the distance it moves them by)
#define LOOP_STRUCT_TOL 1e-3

// the directions each constraint keeps, at this configuration (the nominal one): in constraint
// order, the rows of a constraint's named directions less their parts along the rows kept
// before (the constraints before it); of what remains, the principal directions above
// LOOP_STRUCT_TOL of the rows' size are kept. So the out-of-plane direction of a planar loop goes
// (its joints hold it), a repeated pin keeps nothing, and the second pin of a hinge pair keeps
// only its directions across the axis (none in a planar loop). Warned once.
static void structure(sn_system* s) {
    const sn_model* m = s->m;
    int nv = m->nv, nk = 0, ndrop = 0, first = -1, firstkept = 0, firstnamed = 0, joints = 0;
    sn_real* K = s->loops.W;   // the rows kept so far, orthonormal (max_rows x nv)
    sn_real* R = s->loops.J;   // this constraint's rows (3 x nv)
    sn_real* vec = R + 3 * nv; // its relative motions per DOF (3 x nv: loop_J has room)
    int* cols = s->loops.path;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3];
        anchors(s, c, p1, p2, R1);
        int n = constraint_columns(s, c, p1, p2, cols, vec);
        int na = named_axes(m, c, R1, a);
        sn_real size = 0, G0[9] = {0}, G[9] = {0};
        memset(R, 0, 3 * (size_t)nv * sizeof(sn_real));
        for (int i = 0; i < na; i++) {
            for (int q = 0; q < n; q++)
                R[(size_t)i * nv + cols[q]] = v3_dot(a[i], vec + 3 * q);
            size = fmax(size, sqrt(vdot(R + (size_t)i * nv, R + (size_t)i * nv, nv)));
        }
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                G0[3 * i + j] = vdot(R + (size_t)i * nv, R + (size_t)j * nv, nv);
        for (int k = 0; k < nk; k++) // less the kept rows' span
            for (int i = 0; i < na; i++) {
                sn_real* ri = R + (size_t)i * nv;
                sn_real d = vdot(K + (size_t)k * nv, ri, nv);
                for (int e = 0; e < nv; e++)
                    ri[e] -= d * K[(size_t)k * nv + e];
            }
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                G[3 * i + j] = vdot(R + (size_t)i * nv, R + (size_t)j * nv, nv);
        for (int i = na; i < 3; i++)
            G0[4 * i] = G[4 * i] = 0;
        sn_real ev[3], V[9], ev0[3], V0[9];
        sym3_eigen(G, ev, V);
        sym3_eigen(G0, ev0, V0);
        sn_real tol = LOOP_STRUCT_TOL * size;
        int kept = 0, own = 0;
        for (int i = 2; i >= 0; i--) {
            own += sqrt(fmax(ev0[i], 0)) > tol;
            if (!(sqrt(fmax(ev[i], 0)) > tol)) continue;
            // direction b = sum_j V_j a_j (in body1's frame), its row sum_j V_j R_j normalized
            sn_real b[3] = {0, 0, 0}, bl[3];
            sn_real* kr = K + (size_t)nk * nv;
            memset(kr, 0, (size_t)nv * sizeof(sn_real));
            for (int j = 0; j < na; j++) {
                v3_addscl(b, a[j], V[3 * j + i]);
                for (int e = 0; e < nv; e++)
                    kr[e] += V[3 * j + i] * R[(size_t)j * nv + e];
            }
            sn_real nrm = sqrt(vdot(kr, kr, nv));
            for (int e = 0; e < nv; e++)
                kr[e] /= nrm;
            nk++;
            m3t_mul_v3(bl, R1, b);
            v3_copy(s->loops.axes + 9 * c + 3 * kept, bl);
            kept++;
        }
        s->loops.naxis[c] = kept;
        if (kept < na) {
            if (first < 0) first = c, firstkept = kept, firstnamed = na, joints = own == 0;
            ndrop++;
        }
    }
    if (ndrop == 0) return;
    static const char* const kinds[] = {"pin", "equality", "orientation"};
    const char* kind = kinds[m->constraint_type[first]];
    const char* f1 = sn_model_name(m, SN_OBJ_FRAME, m->constraint_frame1[first]);
    const char* f2 = sn_model_name(m, SN_OBJ_FRAME, m->constraint_frame2[first]);
    char more[64] = "";
    if (ndrop > 1)
        snprintf(more, sizeof more, " (and %d more loop constraints like it)", ndrop - 1);
    if (firstkept == 0 && joints)
        sni_world_warn(s->world,
                       "loop constraint %d (%s '%s' - '%s') is redundant with its joints: they "
                       "hold all of its directions; it is ignored%s",
                       first, kind, f1, f2, more);
    else
        sni_world_warn(s->world,
                       "loop constraint %d (%s '%s' - '%s') keeps %d of its %d directions: the "
                       "others are held by its joints or by the constraints before it (structural "
                       "redundancy, left out with zero force)%s",
                       first, kind, f1, f2, firstkept, firstnamed, more);
}


// Z = L^-T J^T for row r (the first half of the solve of M~^-1 J^T), on the ancestors of the
// row's nonzeros only: loop_W row r and its nonzeros. mark (nv) is all 0 and stays so. When the
// row's nonzeros are last step's (same), so are Z's, whose list is kept
static void half_row(sn_system* s, int r, int* mark, int same) {
    const sn_model* m = s->m;
    int nv = m->nv, nr = s->loops.nrow;
    const sn_real* jr = s->loops.J + (size_t)r * nv;
    const int* jx = s->loops.idx + (size_t)r * nv;
    sn_real* z = s->loops.W + (size_t)r * nv;
    int* zx = s->loops.idx + (size_t)(nr + r) * nv;
    int n = 0;
    if (same) {
        for (int q = 0; q < s->loops.jn[r]; q++)
            z[jx[q]] = jr[jx[q]];
        n = s->loops.jn[nr + r];
    }
    for (int q = 0; q < s->loops.jn[r] && !same; q++) {
        int k = jx[q];
        z[k] = jr[k];
        for (int i = k; i >= 0 && !mark[i]; i = m->dof_parent[i]) {
            mark[i] = 1;
            // in decreasing order (insertion): children before their parents
            int a = n++;
            while (a > 0 && zx[a - 1] < i) {
                zx[a] = zx[a - 1];
                a--;
            }
            zx[a] = i;
        }
    }
    const sn_real* l = s->step.mtilde.L;
    for (int a = 0; a < n; a++) {
        int k = zx[a];
        mark[k] = 0;
        sn_real zk = z[k];
        if (zk == 0) continue;
        for (int i = m->dof_parent[k]; i >= 0; i = m->dof_parent[i])
            z[i] -= l[k * nv + i] * zk;
    }
    s->loops.jn[nr + r] = n;
}


// row r of J (its nonzeros) times v
static sn_real row_dot(const sn_system* s, int r, const sn_real* v) {
    int nv = s->m->nv;
    const sn_real* jr = s->loops.J + (size_t)r * nv;
    const int* ix = s->loops.idx + (size_t)r * nv;
    sn_real g = 0;
    for (int k = 0; k < s->loops.jn[r]; k++)
        g += jr[ix[k]] * v[ix[k]];
    return g;
}

// v += M~^-1 J_K^T x for the kept rows' values x (one solve)
static void add_response(const sn_system* s, const sn_real* x, sn_real* v) {
    int nv = s->m->nv, nr = s->loops.nrow;
    sn_real* g = s->loops.tmp + nr;
    memset(g, 0, (size_t)nv * sizeof(sn_real));
    for (int k = 0; k < s->loops.nkeep; k++) {
        int r = s->loops.keep[k];
        if (x[k] == 0) continue;
        const sn_real* jr = s->loops.J + (size_t)r * nv;
        const int* ix = s->loops.idx + (size_t)r * nv;
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


// x <- (L L^T)^-1 x for the factor L (n x n, row-major) of sni_chol, x gathered by idx (nb
// right-hand sides interleaved)
static void small_solve(const sn_real* L, int n, const int* idx, sn_real* x, int nb) {
    sn_real acc[SNI_LOOP_SHARED_MAX]; // row i's values, in registers for a few right-hand sides
    for (int i = 0; i < n; i++) {
        sn_real* xi = x + (size_t)idx[i] * nb;
        for (int j = 0; j < nb; j++)
            acc[j] = xi[j];
        for (int k = 0; k < i; k++) {
            const sn_real* xk = x + (size_t)idx[k] * nb;
            sn_real l = L[i * n + k];
            for (int j = 0; j < nb; j++)
                acc[j] -= l * xk[j];
        }
        sn_real d = L[i * n + i];
        for (int j = 0; j < nb; j++)
            xi[j] = acc[j] / d;
    }
    for (int i = n - 1; i >= 0; i--) {
        sn_real* xi = x + (size_t)idx[i] * nb;
        for (int j = 0; j < nb; j++)
            acc[j] = xi[j];
        for (int k = i + 1; k < n; k++) {
            const sn_real* xk = x + (size_t)idx[k] * nb;
            sn_real l = L[k * n + i];
            for (int j = 0; j < nb; j++)
                acc[j] -= l * xk[j];
        }
        sn_real d = L[i * n + i];
        for (int j = 0; j < nb; j++)
            xi[j] = acc[j] / d;
    }
}

// x (n x nb, interleaved) <- (L L^T)^-1 x for a small factor L (n x n, row-major) of sni_chol
static void dense_solve(const sn_real* L, int n, sn_real* x, int nb) {
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++)
            for (int j = 0; j < nb; j++)
                x[i * nb + j] -= L[i * n + k] * x[k * nb + j];
        for (int j = 0; j < nb; j++)
            x[i * nb + j] /= L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++)
            for (int j = 0; j < nb; j++)
                x[i * nb + j] -= L[k * n + i] * x[k * nb + j];
        for (int j = 0; j < nb; j++)
            x[i * nb + j] /= L[i * n + i];
    }
}

// x (nr x nb) <- B^-1 x, group by group
static void blocks_solve(const sn_system* s, sn_real* x, int nb) {
    int nr = s->loops.nrow;
    const int* order = s->loops.group + nr;
    const int* off = s->loops.group + 2 * nr;
    size_t at = 0;
    for (int g = 0; g < s->loops.ngroup; g++) {
        int n = off[g + 1] - off[g];
        small_solve(s->loops.L + at, n, order + off[g], x, nb);
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
    dense_solve(s->loops.C, ns, w, nb); // C^-1 w
    const sn_real* V = s->loops.D;      // nr x ns
    for (int r = 0; r < nr; r++) {
        const sn_real* vr = V + (size_t)r * ns;
        sn_real* br = b + (size_t)r * nb;
        for (int a = 0; a < ns; a++)
            for (int j = 0; j < nb; j++)
                br[j] -= vr[a] * w[a * nb + j];
    }
}

// the structured factor of this step's D: 1 when made, 0 to use the dense one
static int struct_factor(sn_system* s) {
    const sn_model* m = s->m;
    int nv = m->nv, nr = s->loops.nrow;
    const int* zn = s->loops.jn + nr;
    const int* zidx = s->loops.idx + (size_t)nr * nv;
    int* cnt = s->loops.cnt;
    int* first = s->loops.cnt + nv;
    int* shared = s->loops.cnt + 2 * nv; // per DOF: 1 if shared; then reused for the shared list
    memset(cnt, 0, (size_t)nv * sizeof(int));
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < zn[r]; q++)
            cnt[zidx[(size_t)r * nv + q]]++;
    int ns = 0;
    for (int k = 0; k < nv; k++) {
        shared[k] = cnt[k] > LOOP_HUB;
        ns += shared[k];
        first[k] = -1;
    }
    if (ns > SNI_LOOP_SHARED_MAX || ns > nr) return 0;
    // groups: rows joined by the DOFs that are not shared
    int* parent = s->loops.group; // union-find over rows, then each row's group
    for (int r = 0; r < nr; r++)
        parent[r] = r;
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < zn[r]; q++) {
            int k = zidx[(size_t)r * nv + q];
            if (shared[k]) continue;
            if (first[k] < 0) {
                first[k] = r;
            } else {
                int a = uf_find(parent, r), b = uf_find(parent, first[k]);
                if (a != b) parent[a] = b;
            }
        }
    // rows ordered by group: count per root, offsets
    int* order = s->loops.group + nr;
    int* off = s->loops.group + 2 * nr;
    int* gid = s->loops.used; // root -> group id
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
        if (off[g + 1] > LOOP_GROUP_MAX) return 0;
        off[g + 1] += off[g];
    }
    {
        int* fill = s->loops.keep; // next slot per group (ng <= nr)
        for (int g = 0; g < ng; g++)
            fill[g] = off[g];
        for (int r = 0; r < nr; r++)
            order[fill[gid[uf_find(parent, r)]]++] = r;
    }
    if (ng == 1 && ns == 0) return 0; // one dense block: the pivoted factor is as cheap
    // each DOF that is not shared: the group of the rows through it (-1: shared, or no row)
    for (int k = 0; k < nv; k++)
        first[k] = shared[k] || first[k] < 0 ? -1 : gid[uf_find(parent, first[k])];
    // the blocks B_g over the DOFs that are not shared, factored
    sn_real bmax = 0;
    for (int r = 0; r < nr; r++) {
        const sn_real* zr = s->loops.W + (size_t)r * nv;
        sn_real g = 0;
        for (int q = 0; q < zn[r]; q++) {
            int k = zidx[(size_t)r * nv + q];
            if (!shared[k]) g += zr[k] * s->step.dinv[k] * zr[k];
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
                    if (!shared[ix[q]]) v += zi[ix[q]] * s->step.dinv[ix[q]] * zj[ix[q]];
                Bg[i * n + j] = Bg[j * n + i] = v;
            }
        }
        if (!sni_chol(Bg, n, LOOP_RANK_TOL * bmax)) return 0;
        parent[g] = (int)at; // where block g's factor starts (the union-find is done)
        at += (size_t)n * n;
    }
    s->loops.ngroup = ng;
    // the shared DOFs' list (kept in shared[0 .. ns)), V = B^-1 U^T (nr x ns), C = E^-1 + U V
    int a = 0;
    for (int k = 0; k < nv; k++)
        if (shared[k]) shared[a++] = k; // k >= a: overwrites only flags already read
    s->loops.nshared = ns;
    // U = Z_S^T (nr x ns, the rows' entries at the shared DOFs), V = B^-1 U (one pass of the
    // block solves with ns right-hand sides), C = E^-1 + U^T V
    sn_real* U = s->loops.U;
    sn_real* V = s->loops.D;
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
    if (!sni_chol(C, ns, 0)) return 0;
    // P = D^-1 U = V C^-1 diag(d_S) (D U's columns: V - V C^-1 (C - E^-1) = V C^-1 E^-1): the
    // response of every row to the shared DOFs, for the projections
    for (int r = 0; r < nr; r++) {
        sn_real p[SNI_LOOP_SHARED_MAX];
        memcpy(p, V + (size_t)r * ns, (size_t)ns * sizeof(sn_real));
        dense_solve(C, ns, p, 1);
        sn_real* pr = s->loops.P + (size_t)r * ns;
        for (int i = 0; i < ns; i++)
            pr[i] = p[i] * s->step.mtilde.D[shared[i]];
    }
    for (int r = 0; r < nr; r++)
        s->loops.keep[r] = r;
    s->loops.nkeep = nr;
    return 1;
}


// b <- D_KK^-1 b for this step's factor (structured, or dense and pivoted); nb right-hand sides
// interleaved (nb <= 3)
static void d_solve(const sn_system* s, sn_real* b, int nb) {
    if (s->loops.structured)
        struct_solve(s, b, nb);
    else
        chol_solve(s->loops.L, s->loops.keep, s->loops.nrow, s->loops.nkeep, b, nb);
}


static sn_status loops_begin(sn_system* s, sn_real dt, sn_real beta);

sn_status sni_loops_begin(sn_system* s, sn_real dt) {
    sn_real erp = s->world->loop_erp;
    return loops_begin(s, dt, fmin(fmax(0.2 * erp, 0), 0.3) / dt);
}

// the rows at this configuration, their errors e, and u_0 = u* + M~^-1 J^T x with J u_0 = -beta e
static sn_status loops_begin(sn_system* s, sn_real dt, sn_real beta) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv, nc = m->nconstraint;
    s->loops.active = 0;
    if (!s->step.has_constraints) return SN_OK;
    // the rows, their errors and W = M~^-1 J^T, through the step's factor of M~ (s->step.mtilde,
    // made by sni_step_factor)
    (void)dt;
    // the rows are kept zero outside their nonzeros: last step's are cleared
    int nr = s->loops.nrow;
    for (int r = 0; r < nr; r++) {
        sn_real* jr = s->loops.J + (size_t)r * nv;
        sn_real* zr = s->loops.W + (size_t)r * nv;
        const int* jx = s->loops.idx + (size_t)r * nv;
        const int* zx = s->loops.idx + (size_t)(nr + r) * nv;
        for (int q = 0; q < s->loops.jn[r]; q++)
            jr[jx[q]] = 0;
        for (int q = 0; q < s->loops.jn[nr + r]; q++)
            zr[zx[q]] = 0;
    }
    int* jn = s->loops.jn;
    int* cols = s->loops.path;
    sn_real* vec = s->loops.J + (size_t)max_rows(m) * nv; // 3 x nv past the rows
    int r = 0;
    for (int c = 0; c < nc; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        anchors(s, c, p1, p2, R1);
        // the error: the anchors' separation, or an orientation's rotation vector
        if (m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION)
            orient_err(s, c, dp);
        else
            v3_sub(dp, p1, p2);
        v3_copy(s->loops.err + 3 * c, dp);
        // a pin's rows at each body's own anchor; an equality's at body2's anchor (exact)
        int n = constraint_columns(s, c, p1, p2, cols, vec);
        int na = axes(s, c, R1, a);
        for (int i = 0; i < na; i++, r++) {
            sn_real* jr = s->loops.J + (size_t)r * nv;
            int* jx = s->loops.idx + (size_t)r * nv;
            int same = jn[r] == n;
            for (int q = 0; q < n; q++) {
                jr[cols[q]] = v3_dot(a[i], vec + 3 * q);
                same &= jx[q] == cols[q];
                jx[q] = cols[q];
            }
            jn[r] = n;
            s->loops.same[r] = same;
            v3_copy(s->loops.axis + 3 * r, a[i]);
            s->loops.rhs[r] = -beta * v3_dot(a[i], dp);
        }
    }
    // mimic joints: e = q_follower - m q_leader - c, row e_follower - m e_leader (no drift:
    // the relation is linear)
    for (int j = 0; j < m->njoint; j++) {
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        sn_real* jr = s->loops.J + (size_t)r * nv;
        int* jx = s->loops.idx + (size_t)r * nv;
        sn_real mult = m->joint_mimic_multiplier[j];
        int lock = l == j;                    // held at the offset: one nonzero
        s->loops.same[r] = jn[r] == 2 - lock; // the same DOFs every step
        jx[0] = m->joint_vadr[j];
        if (!lock) {
            jx[1] = m->joint_vadr[l];
            jr[jx[1]] = -mult;
        }
        jr[jx[0]] = 1;
        jn[r] = 2 - lock;
        sn_real e =
            d->q[m->joint_qadr[j]] - mult * d->q[m->joint_qadr[l]] - m->joint_mimic_offset[j];
        s->loops.rhs[r++] = -beta * e;
    }
    s->loops.nrow = nr = r;
    // Z = L^-T J^T (the first half of M~^-1 J^T: it lives on the ancestors of the row's DOFs)
    memset(s->loops.cnt, 0, (size_t)nv * sizeof(int));
    for (r = 0; r < nr; r++)
        half_row(s, r, s->loops.cnt, s->loops.same[r]);
    const int* zn = s->loops.jn + nr;
    const int* zidx = s->loops.idx + (size_t)nr * nv;
    s->loops.structured = !s->loops.dense_only && struct_factor(s);
    int* perm = s->loops.keep;
    int rank = nr;
    if (!s->loops.structured) {
        // D = J M~^-1 J^T = Z^T D_f^-1 Z (D_f the factor's diagonal), over each row's nonzeros;
        // factored with symmetric pivoting (the largest remaining diagonal first) until the pivots
        // fall below LOOP_RANK_TOL of the largest: the rows factored are kept
        sn_real* D = s->loops.D;
        sn_real dmax = 0;
        for (int i = 0; i < nr; i++) {
            perm[i] = i;
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
        // left-looking: at step k the row p with the largest remaining diagonal is the pivot; the
        // other rows' entries of column k come from D and the columns before (no rows are moved)
        sn_real* Lo = s->loops.L;
        sn_real* dg = s->loops.diag;
        int* used = s->loops.used;
        for (int i = 0; i < nr; i++)
            dg[i] = D[i * nr + i], used[i] = 0;
        rank = 0;
        for (; rank < nr; rank++) {
            int p = -1;
            for (int i = 0; i < nr; i++)
                if (!used[i] && (p < 0 || dg[i] > dg[p])) p = i;
            if (p < 0 || !(dg[p] > LOOP_RANK_TOL * dmax)) break;
            used[p] = 1;
            perm[rank] = p;
            sn_real piv = sqrt(dg[p]);
            const sn_real* lp = Lo + (size_t)p * nr;
            Lo[(size_t)p * nr + rank] = piv;
            for (int i = 0; i < nr; i++) {
                if (used[i]) continue;
                sn_real* li = Lo + (size_t)i * nr;
                sn_real v = D[i * nr + p];
                for (int q = 0; q < rank; q++)
                    v -= li[q] * lp[q];
                li[rank] = v / piv;
                dg[i] -= li[rank] * li[rank];
            }
        }
        for (int k = rank, i = 0; i < nr; i++) // the rows left out follow, for the record
            if (!used[i]) perm[k++] = i;
        s->loops.nkeep = rank;
    }
    // lambda_0 on the kept rows: D_KK x = -beta e - J u*; u_0 = u* + M~^-1 J^T x
    sn_real* x = s->loops.tmp;
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


void sni_loops_project(const sn_system* s, sn_real* Y, int nrows) {
    if (!s->loops.active || s->loops.nkeep == 0) return;
    int nv = s->m->nv, rank = s->loops.nkeep;
    const int* perm = s->loops.keep;
    sn_real* z = s->loops.tmp;
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
    const int* sidx = s->loops.cnt + 2 * nv;
    const int* dofg = s->loops.cnt + nv;
    const int* order = s->loops.group + nr;
    const int* off = s->loops.group + 2 * nr;
    const int* lofs = s->loops.group;
    const int* zn = s->loops.jn + nr;
    const int* zidx = s->loops.idx + (size_t)nr * nv;
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
    sn_real* x = s->loops.tmp; // nr x 3
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
        small_solve(s->loops.L + lofs[g], off[g + 1] - off[g], order + off[g], x, 3);
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
    dense_solve(s->loops.C, ns, w, 3);
    // s = D_f^-1 z at the shared DOFs; x = y + P s - V w
    for (int a = 0; a < ns; a++) {
        int k = sidx[a];
        sn_real di = s->step.dinv[k];
        sv[3 * a] = z0[k] * di, sv[3 * a + 1] = z1[k] * di, sv[3 * a + 2] = z2[k] * di;
    }
    for (int r = 0; r < nr; r++) {
        const sn_real* pr = s->loops.P + (size_t)r * ns;
        const sn_real* vr = s->loops.D + (size_t)r * ns;
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
    int nv = s->m->nv, rank = s->loops.nkeep, nr = s->loops.nrow;
    const int* perm = s->loops.keep;
    const int* zn = s->loops.jn + nr;
    const int* zidx = s->loops.idx + (size_t)nr * nv;
    sn_real* x = s->loops.tmp;
    sn_real* zd = s->loops.tmp + 3 * (size_t)nr; // D_f^-1 z on the path
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
    int nv = s->m->nv, rank = s->loops.nkeep, nr = s->loops.nrow;
    const int* perm = s->loops.keep;
    const int* zn = s->loops.jn + nr;
    const int* zidx = s->loops.idx + (size_t)nr * nv;
    sn_real* x = s->loops.tmp;                   // rank x 3
    sn_real* zd = s->loops.tmp + 3 * (size_t)nr; // len x 3
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
    sn_real* z = s->loops.tmp;
    if (g && rank) {
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


sn_status sn_system_constraint(const sn_system* s, int i, sn_real impulse[3],
                               sn_real separation[3]) {
    if (!s || i < 0 || i >= s->m->nconstraint) return SN_ERR_ARG;
    if (impulse) v3_copy(impulse, s->loops.imp + 3 * i);
    if (separation) v3_copy(separation, s->loops.err + 3 * i);
    return SN_OK;
}


sn_status sn_system_loop_error(sn_system* s, sn_real* rms, sn_real* worst) {
    if (!s) return SN_ERR_ARG;
    const sn_model* m = s->m;
    sni_ensure_kinematics(s);
    sn_real sum = 0, top = 0;
    int n = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        if (m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION) continue; // metres only
        anchors(s, c, p1, p2, R1);
        v3_sub(dp, p1, p2);
        int na = named_axes(m, c, R1, a);
        for (int k = 0; k < na; k++, n++) {
            sn_real e = v3_dot(a[k], dp);
            sum += e * e;
            top = fmax(top, fabs(e));
        }
    }
    if (rms) *rms = n ? sqrt(sum / n) : 0;
    if (worst) *worst = top;
    return SN_OK;
}


sn_status sn_system_orientation_error(sn_system* s, sn_real* worst) {
    if (!s || !worst) return SN_ERR_ARG;
    const sn_model* m = s->m;
    sni_ensure_kinematics(s);
    sn_real top = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        if (m->constraint_type[c] != SN_CONSTRAINT_ORIENTATION) continue;
        sn_real e[3];
        orient_err(s, c, e);
        top = fmax(top, v3_norm(e));
    }
    *worst = top;
    return SN_OK;
}


void sni_loops_wrenches(sn_system* s, sn_real dt) {
    const sn_model* m = s->m;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9];
        anchors(s, c, p1, p2, R1);
        const sn_real* imp = s->loops.imp + 3 * c;
        // body1 at its anchor (a pin) or at body2's (an equality), body2 the opposite at its own;
        // a reaction on the world is not a body's
        int pin = m->constraint_type[c] == SN_CONSTRAINT_PIN;
        int orient = m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION;
        for (int side = 0; side < 2; side++) {
            int b = m->frame_body[side ? m->constraint_frame2[c] : m->constraint_frame1[c]];
            if (b <= 0) continue;
            const sn_real* x = side || !pin ? p2 : p1;
            sn_real f[6];
            v3_scale(f + 3, imp, (side ? -1 : 1) / dt);
            v3_cross(f, x, f + 3);
            if (orient) { // an angular impulse: a couple
                v3_copy(f, f + 3);
                v3_set(f + 3, 0, 0, 0);
            }
            for (int e = 0; e < 6; e++)
                s->ctl.ext_body[6 * b + e] += f[e];
            s->ctl.has_ext = 1;
        }
    }
}


void sni_loops_admissible(const sn_system* s, const sn_real* u, sn_real* out) {
    int nv = s->m->nv;
    memcpy(out, u, (size_t)nv * sizeof(sn_real));
    sni_loops_project(s, out, 1);
}


// the largest error of any constraint row: metres for anchors, radians for orientations, the
// mimic relations' own units
static sn_real assembly_error(sn_system* s) {
    const sn_model* m = s->m;
    sni_ensure_kinematics(s);
    sn_real top = 0;
    for (int c = 0; c < m->nconstraint; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        anchors(s, c, p1, p2, R1);
        if (m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION)
            orient_err(s, c, dp);
        else
            v3_sub(dp, p1, p2);
        int na = named_axes(m, c, R1, a);
        for (int k = 0; k < na; k++)
            top = fmax(top, fabs(v3_dot(a[k], dp)));
    }
    for (int j = 0; j < m->njoint; j++) {
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        const sn_real* q = s->d->q;
        top = fmax(top,
                   fabs(q[m->joint_qadr[j]] - m->joint_mimic_multiplier[j] * q[m->joint_qadr[l]] -
                        m->joint_mimic_offset[j]));
    }
    return top;
}

sn_status sn_system_assemble(sn_system* s, int max_iter, sn_real tol, sn_real* residual) {
    if (!s || max_iter < 0 || !(tol >= 0)) return SN_ERR_ARG;
    const sn_model* m = s->m;
    int nv = m->nv, nq = m->nq;
    sn_real err = s->step.has_constraints ? assembly_error(s) : 0;
    sn_status st = SN_OK;
    // the state before, restored on failure
    sn_real* qsave = s->loops.save_q;
    sn_real* usave = s->loops.save_u;
    sn_real* q = s->loops.next_q;
    memcpy(qsave, s->d->q, (size_t)nq * sizeof(sn_real));
    memcpy(usave, s->d->u, (size_t)nv * sizeof(sn_real));
    // Gauss-Newton in the metric of M~: each iteration moves q by the smallest correction
    // (-M~^-1 J^T D^-1 e) that closes the rows to first order
    for (int it = 0; it < max_iter && err > tol && st == SN_OK; it++) {
        memset(s->step.u1, 0, (size_t)nv * sizeof(sn_real));
        st = sni_step_factor(s);
        if (st == SN_OK) st = loops_begin(s, 1, 1);
        s->loops.active = 0;
        sni_system_invalidate(s, SNI_VALID_MTILDE);
        if (st != SN_OK) break;
        sn_integrate_q(m, s->d->q, s->step.u1, 1, q);
        for (int i = 0; i < nq; i++)
            if (!isfinite(q[i])) st = SN_ERR_NONFINITE;
        if (st != SN_OK) break;
        st = sn_set_state(m, s->d, q, nq, NULL, 0);
        sni_system_state_set(s);
        err = assembly_error(s);
    }
    if (residual) *residual = err;
    if (st != SN_OK) {
        sn_set_state(m, s->d, qsave, nq, usave, nv);
        sni_system_state_set(s);
        return st;
    }
    // the velocities made admissible at the new configuration
    if (s->step.has_constraints && max_iter > 0) {
        memset(s->step.u1, 0, (size_t)nv * sizeof(sn_real));
        sn_real* u = s->loops.next_u;
        memcpy(u, s->d->u, (size_t)nv * sizeof(sn_real));
        st = sni_step_factor(s);
        if (st == SN_OK) st = loops_begin(s, 1, 0);
        if (st == SN_OK) {
            sni_loops_project(s, u, 1);
            st = sn_set_state(m, s->d, s->d->q, nq, u, nv);
        }
        s->loops.active = 0;
        sni_system_state_set(s);
    }
    return st != SN_OK ? st : err <= tol ? SN_OK : SN_ERR_SINGULAR;
}
