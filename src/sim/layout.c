// SPDX-License-Identifier: Apache-2.0
// layout.c: the memory of a system and of a world, each in one block laid out by one mechanism:
// a layout function runs twice over a carver, first to measure (SNI_CARVE only counts), then, once
// the block is allocated, to carve it. A system's block holds the system and its arrays, part by
// part (control, step, solver, inverse dynamics, collision, loops); the world's holds the contacts,
// the broad phase and the contact solver's arrays, sized for every system and made again when a
// system is added.
#include "sim/sim.h"

#include <string.h>


// ---- a system's arrays ----

static void layout_control(sn_system* s, const sn_model* m, carver* c) {
    size_t nv = (size_t)m->nv, nq = (size_t)m->nq, nb = (size_t)m->nbody;
    sn_real** ctl[] = {&s->ctl.kp,        &s->ctl.kd,     &s->ctl.u_ref,   &s->ctl.tau_ff,
                       &s->ctl.lim_lo,    &s->ctl.lim_hi, &s->ctl.damping, &s->ctl.spring_k,
                       &s->ctl.spring_kq, &s->ctl.ext,    &s->ctl.w,       &s->act.b_out,
                       &s->act.fric_out,  &s->act.tau};
    for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; i++)
        SNI_CARVE(c, *ctl[i], nv);
    SNI_CARVE(c, s->ctl.q_ref, nq);
    SNI_CARVE(c, s->ctl.ext_body, 6 * nb);
}


static void layout_step(sn_system* s, const sn_model* m, carver* c) {
    size_t nv = (size_t)m->nv, nq = (size_t)m->nq;
    sn_real** step[] = {&s->step.u0,       &s->step.u1,      &s->step.ubar,       &s->step.u_adm,
                        &s->step.du,       &s->step.pos_err, &s->step.stage_err,  &s->step.tau_cmd,
                        &s->step.tau_act,  &s->step.tau_exp, &s->step.ext_last,   &s->step.tab_cmd,
                        &s->step.tab_damp, &s->step.tab_act, &s->step.tab_spring, &s->step.dinv};
    for (size_t i = 0; i < sizeof step / sizeof step[0]; i++)
        SNI_CARVE(c, *step[i], nv);
    SNI_CARVE(c, s->step.q0, nq);
    SNI_CARVE(c, s->step.q1, nq);
    for (int k = 0; k < 4; k++)
        SNI_CARVE(c, s->step.rk_acc[k], nv);
    for (int k = 0; k < 3; k++)
        SNI_CARVE(c, s->step.rk_vel[k], nv);
    SNI_CARVE(c, s->step.rk_q, nq);
    SNI_CARVE(c, s->step.rk_u0, nv);
    SNI_CARVE(c, s->step.rk_dc, nv);
    for (int k = 0; k < 4; k++)
        SNI_CARVE(c, s->step.rk_tan[k], nv);
    SNI_CARVE(c, s->step.mtilde.L, nv * nv);
    SNI_CARVE(c, s->step.mtilde.D, nv);
}


// the gyroscopic couple's scratch: k bodies on spherical or floating joints
static void layout_gyro(sn_system* s, const sn_model* m, carver* c) {
    int k = sni_gyro_bodies(m, NULL);
    size_t nv = (size_t)m->nv, r = 3 * (size_t)k;
    s->gyro.nbody = k;
    SNI_CARVE(c, s->gyro.body, (size_t)k);
    if (c->base) sni_gyro_bodies(m, s->gyro.body);
    SNI_CARVE(c, s->gyro.axes, 9 * (size_t)k);
    SNI_CARVE(c, s->gyro.coef, r);
    SNI_CARVE(c, s->gyro.inertia, 9 * (size_t)k);
    SNI_CARVE(c, s->gyro.omega, r);
    SNI_CARVE(c, s->gyro.X, r * nv);
    SNI_CARVE(c, s->gyro.lambda, r * r);
    SNI_CARVE(c, s->gyro.lu, r * r);
    SNI_CARVE(c, s->gyro.piv, r);
    sn_real** v[] = {&s->gyro.a0, &s->gyro.a, &s->gyro.f, &s->gyro.mom, &s->gyro.y};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        SNI_CARVE(c, *v[i], r);
    SNI_CARVE(c, s->gyro.tau, nv);
    SNI_CARVE(c, s->gyro.z, nv);
    SNI_CARVE(c, s->gyro.ustar, nv);
    SNI_CARVE(c, s->gyro.fprev, nv);
}


// the contact solver's, inverse dynamics' and collision's arrays
static void layout_solve(sn_system* s, const sn_model* m, carver* c) {
    size_t nv = (size_t)m->nv, nb = (size_t)m->nbody;
    SNI_CARVE(c, s->solve.v, nv);
    SNI_CARVE(c, s->solve.v_fix, nv);
    SNI_CARVE(c, s->solve.pseudo, nv);
    SNI_CARVE(c, s->solve.loop_dv, nv);
    SNI_CARVE(c, s->solve.row_prev, 3 * nv);
    // inverse dynamics
    SNI_CARVE(c, s->id.udot, nv);
    SNI_CARVE(c, s->id.body_acc, 6 * nb);
    SNI_CARVE(c, s->id.body, 6 * nb);
    SNI_CARVE(c, s->id.pos, 3 * nb);
    SNI_CARVE(c, s->id.rot, 9 * nb);
    SNI_CARVE(c, s->id.vel, 6 * nb);
    // collision
    SNI_CARVE(c, s->geom_center, 3 * (size_t)m->ngeom);
    SNI_CARVE(c, s->placed, 15 * (size_t)m->njoint + 2 * (size_t)m->nbody);
    SNI_CARVE(c, s->geom_radius, (size_t)m->ngeom);
    SNI_CARVE(c, s->body_group, nb);
    SNI_CARVE(c, s->body_mask, nb);
    SNI_CARVE(c, s->body_material, nb);
}


// loop constraints: body2's anchors, and the rows of a step (3 per constraint at most)
static void layout_loops(sn_system* s, const sn_model* m, carver* c) {
    size_t nv = (size_t)m->nv, nq = (size_t)m->nq;
    size_t nc = (size_t)m->nconstraint, nr = 3 * nc;
    for (int j = 0; j < m->njoint; j++) // a mimic joint adds a row
        nr += m->joint_mimic[j] >= 0 && m->joint_nv[j] == 1;
    SNI_CARVE(c, s->loops.anchor2, 3 * nc);
    SNI_CARVE(c, s->loops.rot2, 9 * nc);
    SNI_CARVE(c, s->loops.err, 3 * nc);
    SNI_CARVE(c, s->loops.axes, 9 * nc);
    SNI_CARVE(c, s->loops.naxis, nc);
    SNI_CARVE(c, s->loops.imp, 3 * nc);
    SNI_CARVE(c, s->loops.axis, 3 * nr);
    SNI_CARVE(c, s->loops.at, 3 * nc);
    // a step's rows and their solves
    SNI_CARVE(c, s->loops.J, nr * nv);
    SNI_CARVE(c, s->loops.W, nr * nv);
    SNI_CARVE(c, s->loops.jn, nr);
    SNI_CARVE(c, s->loops.jidx, nr * nv);
    SNI_CARVE(c, s->loops.zn, nr);
    SNI_CARVE(c, s->loops.zidx, nr * nv);
    SNI_CARVE(c, s->loops.same, nr);
    SNI_CARVE(c, s->loops.rhs, nr);
    SNI_CARVE(c, s->loops.row_con, nr);
    SNI_CARVE(c, s->loops.pc_pred, 3 * nc);
    SNI_CARVE(c, s->loops.pc_rhs, nr);
    SNI_CARVE(c, s->loops.pc_u, nv);
    SNI_CARVE(c, s->loops.lam, nr);
    SNI_CARVE(c, s->loops.cols, nv);
    SNI_CARVE(c, s->loops.colvec, 3 * nv);
    SNI_CARVE(c, s->loops.mark, nv);
    SNI_CARVE(c, s->loops.sol, 3 * nr);
    SNI_CARVE(c, s->loops.resp, nv);
    SNI_CARVE(c, s->loops.zd, 3 * nv);
    SNI_CARVE(c, s->loops.path, nv);
    // the factors of D: dense and pivoted, or structured
    SNI_CARVE(c, s->loops.D, nr * nr);
    SNI_CARVE(c, s->loops.L, nr * nr);
    SNI_CARVE(c, s->loops.diag, nr);
    SNI_CARVE(c, s->loops.used, nr);
    SNI_CARVE(c, s->loops.keep, nr);
    int** per_dof[] = {&s->loops.cnt, &s->loops.is_shared, &s->loops.shared, &s->loops.first_row,
                       &s->loops.dof_group};
    for (size_t i = 0; i < sizeof per_dof / sizeof per_dof[0]; i++)
        SNI_CARVE(c, *per_dof[i], nv);
    int** per_row[] = {&s->loops.uf, &s->loops.gid, &s->loops.order, &s->loops.fill,
                       &s->loops.block_at};
    for (size_t i = 0; i < sizeof per_row / sizeof per_row[0]; i++)
        SNI_CARVE(c, *per_row[i], nr);
    SNI_CARVE(c, s->loops.off, nr + 1);
    SNI_CARVE(c, s->loops.U, nr * SNI_LOOP_SHARED_MAX);
    SNI_CARVE(c, s->loops.V, nr * SNI_LOOP_SHARED_MAX);
    SNI_CARVE(c, s->loops.P, nr * SNI_LOOP_SHARED_MAX);
    SNI_CARVE(c, s->loops.C, SNI_LOOP_SHARED_MAX * SNI_LOOP_SHARED_MAX);
    // the clusters (cluster.c)
    sni_loop_clusters* cl = &s->loops.cl;
    size_t nb = (size_t)m->nbody, nj = (size_t)m->njoint;
    int** cl_nr[] = {&cl->mimic, &cl->top,  &cl->moff, &cl->rows, &cl->rank,
                     &cl->perm,  &cl->joff, &cl->soff, &cl->used, &cl->lever};
    for (size_t i = 0; i < sizeof cl_nr / sizeof cl_nr[0]; i++)
        SNI_CARVE(c, *cl_nr[i], nr);
    SNI_CARVE(c, cl->boff, nr + 1);
    SNI_CARVE(c, cl->doff, nr + 1);
    SNI_CARVE(c, cl->roff, nr + 1);
    SNI_CARVE(c, cl->body, nb);
    SNI_CARVE(c, cl->uf, nb);
    SNI_CARVE(c, cl->bodies, nb);
    SNI_CARVE(c, cl->con, nc);
    SNI_CARVE(c, cl->dofs, nv);
    SNI_CARVE(c, cl->E, 6 * nr);
    SNI_CARVE(c, cl->art, 36 * nb);
    SNI_CARVE(c, cl->U, 6 * nv);
    SNI_CARVE(c, cl->Dl, 36 * nj);
    SNI_CARVE(c, cl->Ac, SNI_CLUSTER_DOF_MAX * nv);
    SNI_CARVE(c, cl->R, SNI_CLUSTER_DOF_MAX * nr);
    SNI_CARVE(c, cl->S, SNI_CLUSTER_ROW_MAX * nr);
    SNI_CARVE(c, cl->X, 6 * nv);
    SNI_CARVE(c, cl->Lam, 6 * nr);
    SNI_CARVE(c, cl->p, 6 * nb);
    SNI_CARVE(c, cl->acc, 6 * nb);
    SNI_CARVE(c, cl->uu, nv);
    SNI_CARVE(c, cl->dg, nr);
    // attachment and assembly
    SNI_CARVE(c, s->loops.basis, nr * nv);
    SNI_CARVE(c, s->loops.rows3, 3 * nv);
    SNI_CARVE(c, s->loops.save_q, nq);
    SNI_CARVE(c, s->loops.save_u, nv);
    SNI_CARVE(c, s->loops.next_q, nq);
    SNI_CARVE(c, s->loops.next_u, nv);
}


// tendons: the actuators' inputs and forces, the tendons' forces, a Jacobian row
static void layout_tendons(sn_system* s, const sn_model* m, carver* c) {
    SNI_CARVE(c, s->tendon.ctrl, (size_t)m->ntactuator);
    SNI_CARVE(c, s->tendon.act_force, (size_t)m->ntactuator);
    SNI_CARVE(c, s->tendon.force, (size_t)m->ntendon);
    SNI_CARVE(c, s->tendon.len, (size_t)m->ntendon);
    SNI_CARVE(c, s->tendon.row, m->ntendon ? (size_t)m->nv : 0);
}


void sni_system_layout(sn_system* s, const sn_model* m, carver* c) {
    layout_control(s, m, c);
    layout_step(s, m, c);
    layout_solve(s, m, c);
    layout_gyro(s, m, c);
    layout_loops(s, m, c);
    layout_tendons(s, m, c);
}


// ---- the world's arrays ----

typedef struct world_size {
    int contact_cap; // contacts of a step
    int nbp;         // geometries in the broad phase
    int npair;       // room for its candidate pairs
    sni_solver_size solver;
} world_size;


// room for the contacts of every collision geometry (with the ground, or four per pair of
// geometries of different systems, at most 4096) and one limit and one friction row per 1-DOF
// joint; the broad phase holds every collision geometry that can meet another body
static world_size measure(const sn_world* w) {
    int nc = 0, n1 = 0, ngeom = 0, nvmax = 1;
    for (int si = 0; si < w->nsys; si++) {
        const sn_model* m = w->sys[si]->m;
        for (int g = 0; g < m->ngeom; g++)
            if (!m->geom_is_visual[g] && m->frame_body[m->geom_frame[g]] != 0 &&
                sni_geom_max_contacts(m->geom_type[g]) > 0) {
                nc += sni_geom_max_contacts(m->geom_type[g]);
                ngeom++;
            }
        for (int j = 0; j < m->njoint; j++)
            if (m->joint_nv[j] == 1) n1++;
        for (int t = 0; t < m->ntendon; t++) // a limited tendon's row: half of two
            n1 += m->tendon_limited[t];
        if (m->nv > nvmax) nvmax = m->nv;
    }
    nc += 4 * ngeom < 4096 ? 4 * ngeom : 4096; // pairs (other systems, self-collision)
    int nbp = 0;
    for (int si = 0; si < w->nsys; si++)
        for (int g = 0; g < w->sys[si]->m->ngeom; g++)
            nbp += w->sys[si]->geom_radius[g] > 0;
    long pairs = (long)nbp * (nbp - 1) / 2;
    world_size z = {nc, nbp, pairs < 16384 ? (int)pairs : 16384, {nc + 2 * n1, nc, nvmax}};
    return z;
}


// the arrays (the same function measures and carves: see SNI_CARVE)
static void arrays_layout(sn_world* w, const world_size* z, carver* c) {
    size_t nbp = (size_t)z->nbp;
    SNI_CARVE(c, w->contacts, (size_t)z->contact_cap);
    SNI_CARVE(c, w->bp_sys, nbp);
    SNI_CARVE(c, w->bp_geom, nbp);
    SNI_CARVE(c, w->bp_order, nbp);
    SNI_CARVE(c, w->bp_box, 6 * nbp);
    SNI_CARVE(c, w->bp_pair, 2 * (size_t)z->npair);
    sni_solver_layout(&w->solver, &z->solver, c);
}


void sni_world_arrays_free(sn_world* w) {
    sni_free(&w->alloc, w->arrays, w->arrays_bytes);
    w->arrays = NULL;
    w->arrays_bytes = 0;
}


sn_status sni_world_arrays_alloc(sn_world* w) {
    world_size z = measure(w);
    carver c = {NULL, 0};
    arrays_layout(w, &z, &c);
    char* p = sni_alloc(&w->alloc, c.off);
    if (!p) return sni_world_fail(w, SN_ERR_NOMEM, "out of memory for the contact solver");
    sni_world_arrays_free(w);
    w->arrays = p;
    w->arrays_bytes = c.off;
    carver c2 = {p, 0};
    arrays_layout(w, &z, &c2);
    w->nbp = z.nbp, w->npair_cap = z.npair;
    for (int si = 0, k = 0; si < w->nsys; si++)
        for (int g = 0; g < w->sys[si]->m->ngeom; g++)
            if (w->sys[si]->geom_radius[g] > 0) w->bp_sys[k] = si, w->bp_geom[k] = g, k++;
    for (int k = 0; k < z.nbp; k++)
        w->bp_order[k] = k;
    w->contact_cap = z.contact_cap;
    w->ncontact = 0;
    return SN_OK;
}
