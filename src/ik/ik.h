// SPDX-License-Identifier: Apache-2.0
// ik.h: inverse kinematics (internal; public sn_ik.h, docs/ik.md): the solver's scratch, made at
// call time and freed before the call returns, and the solver itself (solve.c), called by the
// checked public entry points (ik.c).
#ifndef SNI_IK_H
#define SNI_IK_H

#include "sinew/sn_ik.h"

typedef struct sni_ik {
    sn_system* s;
    const sn_ik_target* tg;
    int ntarget;
    // the settings, defaults filled in
    sn_real lambda0, tol, loop_tol;
    int max_iter, limits;
    int nv, nq, nt, nc;   // sizes: DOFs, coordinates, task rows, loop rows
    unsigned char* fixed; // DOFs that never move (nv)
    int* dof_q;           // each limited 1-DOF joint's entry in q, -1 otherwise (nv)
    int* freeset;         // the DOFs this step moves (nv), nf of them
    int nf;
    sn_real* q;      // the current iterate (nq)
    sn_real* qtry;   // the trial iterate (nq)
    sn_real* qkeep;  // the system's q, put back at the end (nq)
    sn_real* qstart; // the start (nq)
    sn_real* Jt;     // the weighted task rows (nt x nv) and errors (nt)
    sn_real* et;
    sn_real* Jc; // the loops' rows (nc x nv) and errors (nc)
    sn_real* ec;
    sn_real* jp; // a frame's or point's Jacobians (3 x nv each)
    sn_real* jr;
    sn_real* jp2;
    sn_real* G;  // (nv x nv) Gram matrix of the loops' rows on the free DOFs; scratch
    sn_real* V;  // its eigenvectors (nv x nv)
    sn_real* L;  // its eigenvalues (nv)
    sn_real* e;  // scratch (nv)
    sn_real* A;  // the task rows on the step's coordinates (nt x nv)
    sn_real* H;  // the damped normal matrix (max(nt, nv)^2)
    sn_real* z;  // the step in the step's coordinates (max(nt, nv))
    sn_real* y;  // (max(nt, nv))
    sn_real* dx; // the step in u's coordinates (nv)
    void* block;
    size_t bytes;
} sni_ik;

// the scratch for system s and ntarget targets (SN_ERR_NOMEM), and its release
sn_status sni_ik_open(sni_ik* k, sn_system* s, const sn_ik_target* tg, int ntarget);
void sni_ik_close(sni_ik* k);
// the targets' unweighted errors at q (into errors, 2 per target) on the system's data
void sni_ik_errors(sni_ik* k, const sn_real* q, sn_real* errors);
// the solve from q0 into q_out; fills the report; SN_OK or SN_ERR_UNREACHED
sn_status sni_ik_solve(sni_ik* k, const sn_real* q0, sn_real* q_out, sn_ik_report* r);

#endif
