// SPDX-License-Identifier: Apache-2.0
// rows.c: the rows of the loop constraints (seed 000, "Kinematic loops"; seed 001). A pin ties
// body2's anchor to body1's in all three directions, an equality constraint along one or two axes
// fixed in body1, an orientation constraint body2's link frame to body1's, a mimic joint one
// coordinate to another. At attachment body2's anchors are found (structure.c then finds the
// directions each constraint keeps); in a step the rows are
//   a pin: the world axes times J_1(p_1) - J_2(p_2); an equality: a_i^T (J_1(p_2) - J_2(p_2)),
//   the exact rate; with errors e (a_i . (p_1 - p_2)),
// and their half solves Z = L^-T J^T through the step's factor of M~ (factor.c takes it from
// there).
#include "dynamics/dyn.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>


// ---- the constraints' geometry ----

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


void sni_loops_anchors(const sn_system* s, int c, sn_real* p1, sn_real* p2, sn_real* R1) {
    anchors(s, c, p1, p2, R1);
}


void sni_loops_orient_error(const sn_system* s, int c, sn_real* e) {
    orient_err(s, c, e);
}

void sni_loops_error(const sn_system* s, int c, sn_real* p1, sn_real* p2, sn_real* R1,
                     sn_real* dp) {
    anchors(s, c, p1, p2, R1);
    if (s->m->constraint_type[c] == SN_CONSTRAINT_ORIENTATION)
        orient_err(s, c, dp);
    else
        v3_sub(dp, p1, p2);
}


int sni_loops_named_axes(const sn_model* m, int c, const sn_real* R1, sn_real (*a)[3]) {
    return named_axes(m, c, R1, a);
}


int sni_loops_kept_axes(const sn_system* s, int c, const sn_real* R1, sn_real (*a)[3]) {
    return axes(s, c, R1, a);
}


// ---- the rows' columns ----

// the relative velocity of x1 on b1 and x2 on b2 per unit rate of each DOF that moves it:
// x1 on body1's path to the root, minus x2 on body2's. The two paths share their part above the
// bodies' common ancestor, where a DOF moves the two points by w x (x1 - x2) (nothing when the
// points coincide, as an equality's do). DOFs into cols, 3-vectors into vec; their number
static int rel_columns(const sn_model* m, const sn_data* d, int b1, const sn_real* x1, int b2,
                       const sn_real* x2, const int* within, int k0, int* cols, sn_real* vec) {
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
        for (int k = k1; k >= 0 && (!within || within[m->dof_body[k]] == k0);
             k = m->dof_parent[k]) {
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
// anchor) or an equality (body2's anchor, exact), angular velocity for an orientation. Within
// its cluster (local): a pin's DOFs above the cluster, which move its anchors apart by w x e, are
// left to the cluster's E (cluster.c)
static int constraint_columns(const sn_system* s, int c, const sn_real* p1, const sn_real* p2,
                              int local, int* cols, sn_real* vec) {
    const sn_model* m = s->m;
    int b1 = m->frame_body[m->constraint_frame1[c]], b2 = m->frame_body[m->constraint_frame2[c]];
    int type = m->constraint_type[c];
    if (type == SN_CONSTRAINT_ORIENTATION) return rel_ang_columns(m, s->d, b1, b2, cols, vec);
    return rel_columns(m, s->d, b1, type == SN_CONSTRAINT_PIN ? p1 : p2, b2, p2,
                       local ? s->loops.cl.body : NULL, local ? s->loops.cl.con[c] : -1, cols, vec);
}

int sni_loops_columns(const sn_system* s, int c, const sn_real* p1, const sn_real* p2, int* cols,
                      sn_real* vec) {
    return constraint_columns(s, c, p1, p2, 0, cols, vec);
}

void sni_loops_attach(sn_system* s) {
    const sn_model* m = s->m;
    if (m->nconstraint == 0) {
        sni_loops_clusters(s); // mimic joints alone
        return;
    }
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
    sni_loops_structure(s);
    sni_loops_clusters(s);
}


// ---- this step's rows ----

// Z = L^-T J^T for row r (the first half of the solve of M~^-1 J^T), on the ancestors of the
// row's nonzeros only: loop_W row r and its nonzeros. mark (nv) is all 0 and stays so. When the
// row's nonzeros are last step's (same), so are Z's, whose list is kept
static void half_row(sn_system* s, int r, int* mark, int same) {
    const sn_model* m = s->m;
    int nv = m->nv;
    const sn_real* jr = s->loops.J + (size_t)r * nv;
    const int* jx = s->loops.jidx + (size_t)r * nv;
    sn_real* z = s->loops.W + (size_t)r * nv;
    int* zx = s->loops.zidx + (size_t)r * nv;
    int n = 0;
    if (same) {
        for (int q = 0; q < s->loops.jn[r]; q++)
            z[jx[q]] = jr[jx[q]];
        n = s->loops.zn[r];
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
    s->loops.zn[r] = n;
}


// the rows at this configuration (the last step's cleared: the rows are kept zero outside their
// nonzeros), their errors e and -beta e, and Z = L^-T J^T (route 0; route 1: the rows within
// their clusters, no Z)
void sni_loops_rows(sn_system* s, sn_real beta) {
    const sn_model* m = s->m;
    sn_data* d = s->d;
    int nv = m->nv, nc = m->nconstraint;
    int nr = s->loops.nrow;
    for (int r = 0; r < nr; r++) {
        sn_real* jr = s->loops.J + (size_t)r * nv;
        sn_real* zr = s->loops.W + (size_t)r * nv;
        const int* jx = s->loops.jidx + (size_t)r * nv;
        const int* zx = s->loops.zidx + (size_t)r * nv;
        for (int q = 0; q < s->loops.jn[r]; q++)
            jr[jx[q]] = 0;
        for (int q = 0; q < s->loops.zn[r]; q++)
            zr[zx[q]] = 0;
    }
    int* jn = s->loops.jn;
    int* cols = s->loops.cols;
    sn_real* vec = s->loops.colvec;
    int r = 0;
    for (int c = 0; c < nc; c++) {
        sn_real p1[3], p2[3], R1[9], a[3][3], dp[3];
        // the error: the anchors' separation, or an orientation's rotation vector
        sni_loops_error(s, c, p1, p2, R1, dp);
        v3_copy(s->loops.err + 3 * c, dp);
        v3_copy(s->loops.at + 3 * c, m->constraint_type[c] == SN_CONSTRAINT_PIN ? p1 : p2);
        // a pin's rows at each body's own anchor; an equality's at body2's anchor (exact)
        int n = constraint_columns(s, c, p1, p2, s->loops.route, cols, vec);
        int na = axes(s, c, R1, a);
        for (int i = 0; i < na; i++, r++) {
            sn_real* jr = s->loops.J + (size_t)r * nv;
            int* jx = s->loops.jidx + (size_t)r * nv;
            int same = jn[r] == n && s->loops.z_lists;
            for (int q = 0; q < n; q++) {
                jr[cols[q]] = v3_dot(a[i], vec + 3 * q);
                same &= jx[q] == cols[q];
                jx[q] = cols[q];
            }
            jn[r] = n;
            s->loops.same[r] = same;
            v3_copy(s->loops.axis + 3 * r, a[i]);
            s->loops.rhs[r] = -beta * v3_dot(a[i], dp);
            s->loops.row_con[r] = c;
        }
    }
    // mimic joints: e = q_follower - m q_leader - c, row e_follower - m e_leader (no drift:
    // the relation is linear)
    for (int j = 0; j < m->njoint; j++) {
        int l = m->joint_mimic[j];
        if (l < 0 || m->joint_nv[j] != 1) continue;
        sn_real* jr = s->loops.J + (size_t)r * nv;
        int* jx = s->loops.jidx + (size_t)r * nv;
        sn_real mult = m->joint_mimic_multiplier[j];
        int lock = l == j;                                        // held at the offset: one nonzero
        s->loops.same[r] = jn[r] == 2 - lock && s->loops.z_lists; // the same DOFs every step
        jx[0] = m->joint_vadr[j];
        if (!lock) {
            jx[1] = m->joint_vadr[l];
            jr[jx[1]] = -mult;
        }
        jr[jx[0]] = 1;
        jn[r] = 2 - lock;
        sn_real e =
            d->q[m->joint_qadr[j]] - mult * d->q[m->joint_qadr[l]] - m->joint_mimic_offset[j];
        s->loops.row_con[r] = -1;
        s->loops.rhs[r++] = -beta * e;
    }
    s->loops.nrow = nr = r;
    // after a position correction: the velocity feeds back the predicted errors only, the rest
    // (the correction's second-order opening) is closed through the positions (factor.c)
    for (r = 0; r < nr; r++) {
        int c = s->loops.row_con[r];
        sn_real o = 0;
        if (s->loops.pc_pending && c >= 0) {
            sn_real dp[3];
            v3_sub(dp, s->loops.err + 3 * c, s->loops.pc_pred + 3 * c);
            o = v3_dot(s->loops.axis + 3 * r, dp);
            s->loops.rhs[r] += beta * o;
        }
        s->loops.pc_rhs[r] = -o;
    }
    // Z = L^-T J^T (the first half of M~^-1 J^T: it lives on the ancestors of the row's DOFs);
    // the marks are all 0 between rows. The clusters' route has no factor of M~, and no Z
    if (s->loops.route) {
        for (r = 0; r < nr; r++)
            s->loops.zn[r] = 0;
        s->loops.z_lists = 0;
        return;
    }
    for (r = 0; r < nr; r++)
        half_row(s, r, s->loops.mark, s->loops.same[r]);
    s->loops.z_lists = 1;
}
