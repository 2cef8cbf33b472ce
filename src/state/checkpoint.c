// SPDX-License-Identifier: Apache-2.0
// checkpoint.c: world checkpoints (sn_state.h, docs/state.md): one walk over the world and its
// systems that saves, checks or restores (state/state.h), and the calls on memory and files.
//
// The audit of the world's structures, field by field (src/sim/sim.h, src/sim/control.h,
// src/solver/solver.h, src/loops/loops.h). Every field is one of:
//   config   set up before a load, compared (a difference refuses the checkpoint);
//   state    what the next step reads from the last one: restored;
//   report   what the getters give of the last step: restored;
//   derived  recomputed from the others (the caches are marked out of date on a load);
//   scratch  written by a step before it is read, or a structure's memory.
// sn_world: alloc, log, log_ctx, arrays, arrays_bytes, owned, nowned, owned_cap, sys, sys_cap,
//   tsink: scratch | dt, gravity, ground, ground_height, hf_nx, hf_ny, hf_x0, hf_y0, hf_dx,
//   hf_dy, hf_zmax, hf_z (a fingerprint), margin, loop_erp, friction, restitution,
//   restitution_threshold, pair_material, pair_set, nsys, nbp, brute_force: config | time,
//   contact_overflow, contact_overflow_said: state | ncontact, contacts: report (integrate1
//   makes them again; integrate2 reads them, so a checkpoint between the two works too) |
//   contact_cap, bp_sys, bp_geom, npair_cap, bp_pair, bp_box: derived or scratch | bp_order:
//   state (the broad phase's sort starts from it; the pairs it finds do not depend on it) |
//   nwarning, last_warning, last_error: the world's messages, not restored.
// sni_solver: max_iter, tol, erp, warm_start, no_delassus: config | pc_dense: tests' switch,
//   not written | iterations, dl_steps, pc_exact_solves:
//   report |
//   previous, nprevious: state (the warm start: a contact of the next step takes the impulse of
//   the previous contact of the same pair of geometries within 2 cm) | size: derived | sys,
//   nsys, contacts, ncontact, dt, blk_*, point_jac, dl_*, sm_*, pc_*, bn_*: scratch of a solve
//   (nblock is set to 0 on a load: the contact-problem report starts with the next step).
// sn_system: world, m, d, index, bytes: structure | valid: derived (cleared on a load) |
//   has_contacted: state | geom_center, geom_radius: derived from the model | body_group,
//   body_mask, body_material, self_collision: config | mx_model, mx_tag, mx_body: structure (a
//   body of a model in maximal coordinates: set by sn_world_add_maximal with the system, as the
//   world's systems are: not written) | tendon: sni_tendon_sys below.
//   placed (the model's joint placements and masses when the system was added): config, in the
//   model's fingerprint (the models are compared as they were set up). The model's placements
//   and masses now: state, written after everything else only when some system's differ from
//   its placed (so a world whose placements never changed writes the bytes it wrote before),
//   and written into the models by a load; a checkpoint without them puts placed back.
// sn_data: q, u: state | gravity: derived from the world's | body_depth, body_dof_end, minv_aba:
//   derived from the model | the rest (ws_minv included): derived or scratch.
// sni_control: mode, kp, kd, q_ref, u_ref, tau_ff, ext, ext_body, has_ext: state | limits_off,
//   lim_lo, lim_hi, damping, spring_k, spring_kq: config | w, w_dt: derived.
// sni_actuators: n, desc, mor_enforced, b_out, fric_out: config | cmd: state | state: report |
//   cap: structure | tau: scratch.
// sni_step: scheme: config | has_constraints: derived | scheme_used, q0, u0, du, pos_err,
//   tau_cmd, tau_act, ext_last, tab_cmd, tab_damp, tab_act, tab_spring: report (the getters of
//   the last step: scheme used, step torques, generalized force) | u1, ubar, u_adm, q1,
//   stage_err, tau_exp, rk_*: scratch | mtilde, dinv: derived (SNI_VALID_MTILDE).
// sni_solver_sys: row_prev: state (the joint rows' warm start) | conflict_warned: state |
//   pseudo: state (0 between steps: the positions consume it, a failed step and the state
//   setters clear it) |
//   in_solver, active, v, v_fix, loop_dv, has_loop_dv: scratch.
// sni_loops: anchor2, rot2, axes, naxis: state (attached when the system was added: body2's
//   anchors at the nominal configuration and the directions each constraint keeps, the
//   structural redundancy) | err, imp, axis: report | dense_only: config | max_poses, nposes:
//   the structural test's settings and how many poses it examined (attachment's, not written: a
//   load restores its result) | active: set to 0 on
//   a load (it belongs to the last step's rows) | at: scratch of the rows (the contact entries
//   that read it are listed only while active) | the rest (rows, factors, groups, assembly):
//   scratch of a step (the rows' nonzero lists kept from the last step give the same lists
//   when made afresh).
// sni_loops (continued): pc_pending, pc_pred: state (a position correction's opening of the
//   loops told from their drift in the next step; written only when some system has one
//   pending, after the rotors, so that other checkpoints are as they were and version 2 stays) |
//   pc_any, pc_rhs, pc_u, row_con: scratch of a step.
// sni_loops (continued): route: scratch of a step (the stage "factor M~" sets it) | z_lists:
//   scratch, as the rows' nonzero lists it vouches for | cl (the clusters, loops/cluster.c):
//   usable, n, body, con, mimic, top, boff, bodies, doff, dofs, moff: derived from the model
//   (attachment) | mode: tests' switch, not written | steps: tests' count, not restored | the
//   rest: scratch of a step.
// sni_gyro: mode: config | fprev: state (the last step's impulses, a known force in the next
//   step's midpoint couple) | warned: state | applied, newton: report, not restored | ready,
//   nbody, body, axes, coef: derived from the model (computed at the first step) | the rest:
//   scratch of a step.
// sn_world.soft, sn_system.soft (soft/soft.h; written only when the world has soft settings):
//   model, p, pair, pair_set: config | a system's integrator, substeps, max_mul, balance, full,
//   modal, events, slip_lds, n, body, off, rad: config | pt[].active, slip, other, ogeom, p0, p0d,
//   fr, ab, frb, imp, roll, reset, expo_nc, bal, warned: state (the anchors, what each touches, its
//   contact frame, both in the frame of a moving body touched, the impulse of the last step that
//   the other system's next step takes as its reaction; Expo's balancing warm start) | pt[].f, p,
//   pd, depth, newton_iter, newton_fails: report | events_split: report, not restored (a count
//   since the system was made) | cap, block, bytes: structure | save, tmp, save_reset, save_roll,
//   snap (the bodies at the world step's start, taken before the systems' steps), react, tnow, Jt,
//   smode, sdir, expo_passes and the rest: scratch of a step.
// sni_tendon_sys (tendon/tendon.h; visited only when the model has tendons or actuators on
//   them): ctrl: state (the actuators' inputs, held until set) | act_force, force: report (the
//   last step's) | row, len: scratch of a step or a getter.
// sn_world.couple (couple/couple.h; written only when the world has world constraints): ncon,
//   con[].d, k, sa, sb, ba, bb, nrow, row0, wire: config | con[].lambda, taut: state (the warm
//   start; a wire's active set starts from taut) | con[].wrench, acted: report | con[].wrench_b:
//   report for inverse dynamics, not restored (like sni_invdyn) | con[].Ka, Kb, cap,
//   nrow, nvmax, acting, shared, fna, feps, nuoff, ws, ws_bytes and the workspace (roff .. jr,
//   cdd, uoff, usave): structure or scratch of a
//   step. sni_solver.couple: scratch (this solve's view).
// sni_invdyn: compute: config | the rest: report of the last step, not restored (SNI_VALID_ID is
//   cleared: sn_system_joint_wrench answers again after the next step).
// sni_sensors (sensor/sensor.h): n, cap, list, nvalue, bytes: structure (the sensors are made
//   by the model's file when the system is added, or by sn_system_add_sensor, as the systems are:
//   not written, so a world without sensors writes the checkpoint it wrote before sensors existed)
//   | value: report of the last step, not restored (SNI_VALID_SENSOR is cleared: the sensors read
//   again after the next step).
// sni_rotor (sim/sim.h; written only when a system has a rotor set, after everything else, so
//   the checkpoints of worlds without rotors are as they were and version 2 stays): n, inertia,
//   ratio: config | applied: report, not restored (like sni_gyro's) | soft_warned: a warning
//   given, not restored | G, lu, b, piv: scratch of a step | bytes: structure.
#include "couple/couple.h"
#include "dynamics/dyn.h"
#include "sim/sim.h"
#include "sinew/sn_state.h"
#include "soft/soft.h"
#include "state/state.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STATE_FILE_MAX ((size_t)1 << 30) // the largest checkpoint file read


// ---- the contacts (the warm start's and the last step's) ----

// one contact through the caller's copy c (SNI_TEMP): the walk reads into it
static void visit_contact(sni_ser* S, sni_contact* c) {
    int id[7] = {c->sa, c->geom, c->body, c->sb, c->geom_b, c->body_b, c->slide};
    sn_real x[22];
    memcpy(x, c->pos, 3 * sizeof(sn_real));
    memcpy(x + 3, c->normal, 3 * sizeof(sn_real));
    memcpy(x + 6, c->frame, 9 * sizeof(sn_real));
    x[15] = c->depth, x[16] = c->mu, x[17] = c->e, x[18] = c->eth;
    memcpy(x + 19, c->impulse, 3 * sizeof(sn_real));
    sni_ser_int(S, SNI_TEMP, "contact's systems, geometries and bodies", id, 7, 0, -1);
    sni_ser_real(S, SNI_TEMP, "contact's point, frame, material and impulse", x, 22);
    c->sa = id[0], c->geom = id[1], c->body = id[2], c->sb = id[3], c->geom_b = id[4];
    c->body_b = id[5], c->slide = id[6];
    memcpy(c->pos, x, 3 * sizeof(sn_real));
    memcpy(c->normal, x + 3, 3 * sizeof(sn_real));
    memcpy(c->frame, x + 6, 9 * sizeof(sn_real));
    c->depth = x[15], c->mu = x[16], c->e = x[17], c->eth = x[18];
    memcpy(c->impulse, x + 19, 3 * sizeof(sn_real));
}


// a contact read from a checkpoint names systems, bodies and geometries of this world, and its
// numbers are finite (its indices are used as such by the reports and the warm start)
static void check_contact(sni_ser* S, const sn_world* w, const sni_contact* c, const char* what,
                          int i) {
    int ok = c->sa >= 0 && c->sa < w->nsys && c->sb >= -1 && c->sb < w->nsys && c->slide >= 0 &&
             c->slide <= 2;
    if (ok) {
        const sn_model* ma = w->sys[c->sa]->m;
        ok = c->body >= 0 && c->body < ma->nbody && c->geom >= 0 && c->geom < ma->ngeom;
        if (c->sb < 0)
            ok = ok && c->body_b == -1 && c->geom_b == -1;
        else
            ok = ok && c->body_b >= 0 && c->body_b < w->sys[c->sb]->m->nbody && c->geom_b >= 0 &&
                 c->geom_b < w->sys[c->sb]->m->ngeom;
    }
    const sn_real* x[] = {c->pos, c->normal, c->frame, &c->depth,
                          &c->mu, &c->e,     &c->eth,  c->impulse};
    const int n[] = {3, 3, 9, 1, 1, 1, 1, 3};
    for (int k = 0; k < 8 && ok; k++)
        for (int e = 0; e < n[k]; e++)
            ok = ok && isfinite(x[k][e]);
    if (!ok)
        sni_ser_refuse(S, SN_ERR_PARSE,
                       "the checkpoint's %s %d names no system, body or geometry of this world, "
                       "or is not finite: it is corrupt",
                       what, i);
}


static void visit_contacts(sni_ser* S, sn_world* w, const char* what, sni_contact* list, int* count,
                           int cap) {
    int n = *count;
    sni_ser_count(S, what, &n, cap);
    for (int i = 0; i < n && S->failed == SN_OK; i++) {
        sni_contact c;
        if (S->mode == SNI_SER_SAVE)
            c = list[i];
        else
            memset(&c, 0, sizeof c);
        visit_contact(S, &c);
        if (S->mode == SNI_SER_CHECK && S->failed == SN_OK) check_contact(S, w, &c, what, i);
        if (S->mode == SNI_SER_LOAD) list[i] = c;
    }
    if (S->mode == SNI_SER_LOAD) *count = n;
}


// ---- the world ----

static void visit_terrain(sni_ser* S, sn_world* w) {
    sni_ser_int(S, SNI_CONFIG, "ground plane (on)", &w->ground, 1, 0, -1);
    sni_ser_real(S, SNI_CONFIG, "ground height", &w->ground_height, 1);
    int hf[2] = {w->hf_nx, w->hf_ny};
    sni_ser_int(S, SNI_CONFIG, "heightfield points (nx, ny)", hf, 2, 0, -1);
    sn_real place[5] = {w->hf_x0, w->hf_y0, w->hf_dx, w->hf_dy, w->hf_zmax};
    sni_ser_real(S, SNI_CONFIG, "heightfield origin, spacing and top", place, 5);
    uint64_t z = sni_reals_fingerprint(w->hf_z, (size_t)w->hf_nx * (size_t)w->hf_ny);
    sni_ser_u64(S, SNI_CONFIG, "heightfield heights (their fingerprint)", &z);
}


static void visit_materials(sni_ser* S, sn_world* w) {
    sni_ser_real(S, SNI_CONFIG, "contact margin", &w->margin, 1);
    sni_ser_real(S, SNI_CONFIG, "loop erp", &w->loop_erp, 1);
    sn_real mat[3] = {w->friction, w->restitution, w->restitution_threshold};
    sni_ser_real(S, SNI_CONFIG, "default material (friction, restitution, threshold)", mat, 3);
    sni_ser_real(S, SNI_CONFIG, "material pairs", &w->pair_material[0][0][0], 16 * 16 * 3);
    int set[256];
    for (int k = 0; k < 256; k++)
        set[k] = w->pair_set[k / 16][k % 16];
    sni_ser_int(S, SNI_CONFIG, "material pairs set", set, 256, 0, -1);
}


static void visit_solver(sni_ser* S, sn_world* w) {
    sni_solver* sv = &w->solver;
    sni_ser_int(S, SNI_CONFIG, "solver iteration limit", &sv->max_iter, 1, 0, -1);
    sni_ser_real(S, SNI_CONFIG, "solver tolerance", &sv->tol, 1);
    sni_ser_real(S, SNI_CONFIG, "erp", &sv->erp, 1);
    sni_ser_int(S, SNI_CONFIG, "warm start (on)", &sv->warm_start, 1, 0, -1);
    int flags[2] = {sv->no_delassus, w->brute_force};
    sni_ser_int(S, SNI_CONFIG, "test switches (no Delassus form, brute-force pairs)", flags, 2, 0,
                -1);
    // statistics of the last step
    sni_ser_int(S, SNI_REPORT, "solver iterations", &sv->iterations, 1, 0, -1);
    uint64_t dl = (uint64_t)sv->dl_steps;
    sni_ser_u64(S, SNI_TEMP, "steps swept in Delassus form", &dl);
    if (S->mode == SNI_SER_LOAD) sv->dl_steps = (long)dl;
}


// the broad phase's order (n entries at byte `at`, each within 0 to n - 1) names every geometry
// once: a repeated entry would drop a geometry from the sweep for good (O(n^2), no allocation)
static void check_permutation(sni_ser* S, size_t at, int n) {
    for (int i = 1; i < n; i++) {
        uint32_t x = sni_get_u32(S->buf + at + 4 * (size_t)i);
        for (int k = 0; k < i; k++)
            if (sni_get_u32(S->buf + at + 4 * (size_t)k) == x) {
                sni_ser_refuse(S, SN_ERR_PARSE,
                               "the checkpoint's broad-phase order names geometry %u twice "
                               "(entries %d and %d): it is corrupt",
                               (unsigned)x, k, i);
                return;
            }
    }
}


static void visit_world(sni_ser* S, sn_world* w) {
    S->sys = -1;
    sni_ser_real(S, SNI_STATE, "time", &w->time, 1);
    sni_ser_real(S, SNI_CONFIG, "time step", &w->dt, 1);
    sni_ser_real(S, SNI_CONFIG, "gravity", w->gravity, 3);
    visit_terrain(S, w);
    visit_materials(S, w);
    visit_solver(S, w);
    int over[2] = {w->contact_overflow, w->contact_overflow_said};
    sni_ser_int(S, SNI_TEMP, "contact overflow count and its warning", over, 2, 0, -1);
    if (S->mode == SNI_SER_LOAD) w->contact_overflow = over[0], w->contact_overflow_said = over[1];
    sni_ser_int(S, SNI_CONFIG, "broad-phase geometries", &w->nbp, 1, 0, -1);
    if (S->failed == SN_OK) {
        size_t at = S->off + 4; // the order's entries follow its length
        sni_ser_int(S, SNI_STATE, "broad-phase order", w->bp_order, (size_t)w->nbp, 0, w->nbp - 1);
        if (S->mode == SNI_SER_CHECK && S->failed == SN_OK) check_permutation(S, at, w->nbp);
    }
    visit_contacts(S, w, "warm-start contact", w->solver.previous, &w->solver.nprevious,
                   w->solver.size.contact_cap);
    visit_contacts(S, w, "contact of the last step", w->contacts, &w->ncontact, w->contact_cap);
}


// ---- a system ----

static void visit_control(sni_ser* S, sn_system* s) {
    size_t nv = (size_t)s->m->nv, nq = (size_t)s->m->nq, nb = (size_t)s->m->nbody;
    sni_control* c = &s->ctl;
    sni_ser_int(S, SNI_STATE, "control mode", &c->mode, 1, 0, 1);
    sni_ser_real(S, SNI_STATE, "kp", c->kp, nv);
    sni_ser_real(S, SNI_STATE, "kd", c->kd, nv);
    sni_ser_real(S, SNI_STATE, "PD position target", c->q_ref, nq);
    sni_ser_real(S, SNI_STATE, "PD velocity target", c->u_ref, nv);
    sni_ser_real(S, SNI_STATE, "feedforward force", c->tau_ff, nv);
    sni_ser_real(S, SNI_STATE, "pending external force (generalized)", c->ext, nv);
    sni_ser_real(S, SNI_STATE, "pending external force (bodies)", c->ext_body, 6 * nb);
    sni_ser_int(S, SNI_STATE, "pending external force (set)", &c->has_ext, 1, 0, 1);
    sni_ser_int(S, SNI_CONFIG, "joint limits off", &c->limits_off, 1, 0, -1);
    sni_ser_real(S, SNI_CONFIG, "actuation lower limits", c->lim_lo, nv);
    sni_ser_real(S, SNI_CONFIG, "actuation upper limits", c->lim_hi, nv);
    sni_ser_real(S, SNI_CONFIG, "joint damping", c->damping, nv);
    sni_ser_real(S, SNI_CONFIG, "spring stiffness", c->spring_k, nv);
    sni_ser_real(S, SNI_CONFIG, "spring stiffness times rest", c->spring_kq, nv);
}


static void visit_actuator(sni_ser* S, sn_system* s, int i) {
    sn_actuator_desc* a = &s->act.desc[i];
    int id[6] = {a->joint, a->ncoupling};
    memcpy(id + 2, a->coupling_joint, 4 * sizeof(int));
    sn_real x[12] = {a->gear, a->kt,          a->vbus,           a->resistance,
                     a->kv,   a->peak_torque, a->output_damping, a->output_friction};
    memcpy(x + 8, a->coupling_ratio, 4 * sizeof(sn_real));
    sni_ser_int(S, SNI_CONFIG, "actuator's joints", id, 6, 0, -1);
    sni_ser_real(S, SNI_CONFIG, "actuator's constants", x, 12);
    sni_ser_real(S, SNI_STATE, "actuator command", &s->act.cmd[i], 1);
    // the state of the last step
    sn_actuator_state* st = &s->act.state[i];
    sn_real r[5] = {st->command, st->motor_speed, st->motor_torque, st->torque_min, st->torque_max};
    int clipped = st->clipped;
    sni_ser_real(S, SNI_TEMP, "actuator state", r, 5);
    sni_ser_int(S, SNI_TEMP, "actuator clipped", &clipped, 1, 0, 1);
    if (S->mode == SNI_SER_LOAD) {
        st->command = r[0], st->motor_speed = r[1], st->motor_torque = r[2];
        st->torque_min = r[3], st->torque_max = r[4], st->clipped = clipped;
    }
}


static void visit_actuators(sni_ser* S, sn_system* s) {
    sni_ser_int(S, SNI_CONFIG, "actuator count", &s->act.n, 1, 0, -1);
    sni_ser_int(S, SNI_CONFIG, "motor regions enforced", &s->act.mor_enforced, 1, 0, -1);
    sni_ser_real(S, SNI_CONFIG, "actuators' output damping", s->act.b_out, (size_t)s->m->nv);
    sni_ser_real(S, SNI_CONFIG, "actuators' output friction", s->act.fric_out, (size_t)s->m->nv);
    for (int i = 0; i < s->act.n && S->failed == SN_OK; i++)
        visit_actuator(S, s, i);
}


// the last step's report: the scheme used, the step-5 torque table, the generalized force
static void visit_step(sni_ser* S, sn_system* s) {
    size_t nv = (size_t)s->m->nv, nq = (size_t)s->m->nq;
    sni_step* t = &s->step;
    sni_ser_int(S, SNI_CONFIG, "scheme", &t->scheme, 1, 0, -1);
    sni_ser_int(S, SNI_REPORT, "scheme used", &t->scheme_used, 1, 0, 3);
    sni_ser_real(S, SNI_REPORT, "last step's start q", t->q0, nq);
    const struct {
        const char* name;
        sn_real* p;
    } rep[] = {{"last step's start u", t->u0},
               {"last step's velocity change", t->du},
               {"last step's PD position error", t->pos_err},
               {"last step's tau_cmd", t->tau_cmd},
               {"last step's actuator torques", t->tau_act},
               {"last step's external torques", t->ext_last},
               {"last RK4 step's mean tau_cmd", t->tab_cmd},
               {"last RK4 step's mean damping", t->tab_damp},
               {"last RK4 step's mean actuator torques", t->tab_act},
               {"last RK4 step's mean spring torques", t->tab_spring}};
    for (size_t k = 0; k < sizeof rep / sizeof rep[0]; k++)
        sni_ser_real(S, SNI_REPORT, rep[k].name, rep[k].p, nv);
}


static void visit_loops(sni_ser* S, sn_system* s) {
    const sn_model* m = s->m;
    size_t nc = (size_t)m->nconstraint, nr = 3 * nc;
    for (int j = 0; j < m->njoint; j++) // a mimic joint's row (as sni_system_layout counts)
        nr += m->joint_mimic[j] >= 0 && m->joint_nv[j] == 1;
    sni_loops* l = &s->loops;
    sni_ser_real(S, SNI_STATE, "loops' body2 anchors", l->anchor2, 3 * nc);
    sni_ser_real(S, SNI_STATE, "loops' body2 orientations", l->rot2, 9 * nc);
    sni_ser_real(S, SNI_STATE, "loops' kept directions", l->axes, 9 * nc);
    sni_ser_int(S, SNI_STATE, "loops' number of kept directions", l->naxis, nc, 0, 3);
    sni_ser_real(S, SNI_REPORT, "loops' errors", l->err, 3 * nc);
    sni_ser_real(S, SNI_REPORT, "loops' impulses", l->imp, 3 * nc);
    sni_ser_real(S, SNI_REPORT, "loops' row axes", l->axis, 3 * nr);
    sni_ser_int(S, SNI_CONFIG, "loops' dense factor only", &l->dense_only, 1, 0, -1);
}


// the quaternions of the checkpoint's q (at byte `at`) are unit to rounding, as a step leaves
// them: anything else is a corrupt checkpoint, not a state to normalize
static void check_quaternions(sni_ser* S, const sn_model* m, size_t at) {
    for (int j = 0; j < m->njoint; j++) {
        int t = m->joint_type[j];
        if (t != SN_JOINT_SPHERICAL && t != SN_JOINT_FLOATING) continue;
        size_t a = (size_t)m->joint_qadr[j] + (t == SN_JOINT_FLOATING ? 3 : 0);
        sn_real n2 = 0;
        for (size_t k = 0; k < 4; k++) {
            uint64_t bits = sni_get_u64(S->buf + at + 8 * (a + k));
            sn_real x;
            memcpy(&x, &bits, sizeof x);
            n2 += x * x;
        }
        if (!(fabs(n2 - 1) < 1e-6)) {
            sni_ser_refuse(S, SN_ERR_PARSE,
                           "the checkpoint's system %d's q: the quaternion of joint '%s' has norm "
                           "%.9g, not 1: it is corrupt",
                           S->sys, sn_model_name(m, SN_OBJ_JOINT, j), sqrt(n2));
            return;
        }
    }
}


static void visit_system(sni_ser* S, sn_system* s) {
    const sn_model* m = s->m;
    size_t nb = (size_t)m->nbody;
    S->sys = s->index;
    size_t q_at = S->off + 4; // q's numbers follow its length
    sni_ser_real(S, SNI_STATE, "q", s->d->q, (size_t)m->nq);
    if (S->mode == SNI_SER_CHECK && S->failed == SN_OK) check_quaternions(S, m, q_at);
    sni_ser_real(S, SNI_STATE, "u", s->d->u, (size_t)m->nv);
    sni_ser_int(S, SNI_STATE, "has been in contact", &s->has_contacted, 1, 0, 1);
    visit_control(S, s);
    visit_actuators(S, s);
    visit_step(S, s);
    sni_ser_real(S, SNI_STATE, "joint rows' warm start", s->solve.row_prev, 3 * (size_t)m->nv);
    sni_ser_real(S, SNI_STATE, "pending position correction", s->solve.pseudo, (size_t)m->nv);
    visit_loops(S, s);
    sni_ser_int(S, SNI_CONFIG, "gyroscopic couple", &s->gyro.mode, 1, 0, -1);
    sni_ser_real(S, SNI_STATE, "last step's impulses for the midpoint couple", s->gyro.fprev,
                 (size_t)m->nv);
    sni_ser_int(S, SNI_STATE, "gyroscopic warning given", &s->gyro.warned, 1, 0, 1);
    sni_ser_int(S, SNI_STATE, "loop conflict warning given", &s->solve.conflict_warned, 1, 0, 1);
    sni_ser_int(S, SNI_CONFIG, "inverse dynamics (on)", &s->id.compute, 1, 0, -1);
    sni_ser_int(S, SNI_CONFIG, "self-collision", &s->self_collision, 1, 0, -1);
    sni_ser_uint(S, SNI_CONFIG, "collision groups", s->body_group, nb);
    sni_ser_uint(S, SNI_CONFIG, "collision masks", s->body_mask, nb);
    sni_ser_int(S, SNI_CONFIG, "body materials", s->body_material, nb, 0, -1);
    if (m->ntendon || m->ntactuator) {
        sni_ser_real(S, SNI_STATE, "tendon actuators' controls", s->tendon.ctrl,
                     (size_t)m->ntactuator);
        sni_ser_real(S, SNI_REPORT, "tendon actuators' forces", s->tendon.act_force,
                     (size_t)m->ntactuator);
        sni_ser_real(S, SNI_REPORT, "tendons' forces", s->tendon.force, (size_t)m->ntendon);
    }
}


// the model of system s as it was set up when s was added: its joint placements and masses as
// they were then (s->placed), in a shallow copy
static sn_model model_as_added(const sn_system* s) {
    sn_model m = *s->m;
    size_t nj = (size_t)m.njoint;
    m.joint_pos = s->placed;
    m.joint_rot = s->placed + 3 * nj;
    m.joint_axis = s->placed + 12 * nj;
    m.body_mass = s->placed + 15 * nj;
    m.subtree_mass = m.body_mass + m.nbody;
    return m;
}


// the models first: a checkpoint of other robots is refused for that reason
static void visit_models(sni_ser* S, sn_world* w) {
    for (int i = 0; i < w->nsys && S->failed == SN_OK; i++) {
        S->sys = i;
        sn_model as_added = model_as_added(w->sys[i]);
        uint64_t fp = sni_model_fingerprint(&as_added);
        sni_ser_u64(S, SNI_CONFIG,
                    "model (its fingerprint: another robot, or another version of its file)", &fp);
    }
}


// a system's soft points: their integrator, the points and their contact state (the anchors)
static void visit_soft_system(sni_ser* S, sn_system* s) {
    S->sys = s->index;
    int has = s->soft != NULL;
    sni_ser_int(S, SNI_CONFIG, "soft part (present)", &has, 1, 0, -1);
    if (!has || S->failed != SN_OK || !s->soft) return;
    sni_soft* c = s->soft;
    int cfg[8] = {c->integrator, c->substeps, c->max_mul, c->balance,
                  c->full,       c->n,        c->modal,   c->events};
    sni_ser_int(S, SNI_CONFIG,
                "soft integrator, sub-steps, Expo options, point count, modal path, contact events",
                cfg, 8, 0, -1);
    if (S->failed != SN_OK) return;
    sni_ser_int(S, SNI_CONFIG, "Expo's slipping contacts (sn_system_set_expo_slip)", &c->slip_lds,
                1, 0, 1);
    sni_ser_int(S, SNI_CONFIG, "soft points' bodies", c->body, (size_t)c->n, 0, -1);
    sni_ser_real(S, SNI_CONFIG, "soft points' offsets", c->off, 3 * (size_t)c->n);
    sni_ser_real(S, SNI_CONFIG, "soft points' rolling radii", c->rad, (size_t)c->n);
    sni_ser_real(S, SNI_STATE, "soft rolling points' material points", c->roll, 3 * (size_t)c->n);
    sni_ser_int(S, SNI_STATE, "soft contacts to be released (a state was set)", &c->reset, 1, 0, 1);
    for (int i = 0; i < c->n && S->failed == SN_OK; i++) {
        sni_soft_pt* p = &c->pt[i];
        sni_ser_int(S, SNI_STATE, "soft contact's active and slipping flags", &p->active, 2, 0, 1);
        sni_ser_int(S, SNI_STATE, "soft contact's surface (system)", &p->other, 1, 0,
                    s->world->nsys);
        sni_ser_int(S, SNI_STATE, "soft contact's surface (geometry)", &p->ogeom, 1, -1, 1 << 30);
        sni_ser_real(S, SNI_STATE,
                     "soft contact's anchor, anchor velocity, frame, their ride on a moving body "
                     "and the step's impulse",
                     p->p0, 30);
        sni_ser_real(S, SNI_REPORT, "soft contact's force, position, velocity and depth", p->f, 10);
    }
    // Expo's balancing warm start (the active points of its last sub-step and the scaling): a
    // resumed run balances from the same start
    int enc = c->expo_nc;
    sni_ser_int(S, SNI_TEMP, "Expo's last active point count", &enc, 1, 0, c->n);
    if (S->failed != SN_OK) return;
    sni_ser_real(S, SNI_STATE, "Expo's balancing warm start", c->bal, 6 * (size_t)enc + 3);
    if (S->mode == SNI_SER_LOAD) c->expo_nc = enc;
    sni_ser_int(S, SNI_STATE, "soft step's warning given", &c->warned, 1, 0, 1);
    int nr[2] = {c->newton_iter, c->newton_fails};
    sni_ser_int(S, SNI_TEMP, "soft Newton iterations and failures", nr, 2, 0, -1);
    if (S->mode == SNI_SER_LOAD) c->newton_iter = nr[0], c->newton_fails = nr[1];
}


// the soft parameters of the material pairs: which are set, then each set pair (a <= b)
static void visit_soft_pairs(sni_ser* S, sni_soft_world* sw) {
    enum { N = SN_SOFT_MATERIALS };
    int set[N * N];
    for (int k = 0; k < N * N; k++)
        set[k] = sw->pair_set[k / N][k % N];
    sni_ser_int(S, SNI_CONFIG, "soft material pairs set", set, N * N, 0, 1);
    for (int a = 0; a < N && S->failed == SN_OK; a++)
        for (int b = a; b < N && S->failed == SN_OK; b++) {
            if (!sw->pair_set[a][b]) continue;
            sn_soft_params* q = &sw->pair[a][b];
            sni_ser_int(S, SNI_CONFIG, "soft material pair's bilateral contacts", &q->bilateral, 1,
                        0, 1);
            sn_real x[5] = {q->k_normal, q->k_tangent, q->b_normal, q->b_tangent, q->mu};
            sni_ser_real(S, SNI_CONFIG, "soft material pair's stiffness, damping and friction", x,
                         5);
        }
}


// a world that has soft settings (its contact model, the parameters, its systems' soft parts);
// a world that never had any writes nothing here, so hard checkpoints are as they were
static void visit_soft(sni_ser* S, sn_world* w) {
    S->sys = -1;
    int has = w->soft != NULL;
    sni_ser_int(S, SNI_CONFIG, "soft contact settings (present)", &has, 1, 0, -1);
    if (!has || S->failed != SN_OK || !w->soft) return;
    sni_soft_world* sw = w->soft;
    int flags[2] = {sw->model, sw->p.bilateral};
    sni_ser_int(S, SNI_CONFIG, "contact model and bilateral soft contacts", flags, 2, 0, -1);
    sn_real p[5] = {sw->p.k_normal, sw->p.k_tangent, sw->p.b_normal, sw->p.b_tangent, sw->p.mu};
    sni_ser_real(S, SNI_CONFIG, "soft contact stiffness, damping and friction", p, 5);
    visit_soft_pairs(S, sw);
    for (int i = 0; i < w->nsys && S->failed == SN_OK; i++)
        visit_soft_system(S, w->sys[i]);
}


// the world constraints (only when the world has them: the checkpoints of other worlds are as
// they were)
static void visit_couple(sni_ser* S, sn_world* w) {
    S->sys = -1;
    sni_couple* cp = w->couple;
    int n = cp->ncon;
    sni_ser_int(S, SNI_CONFIG, "world constraints", &n, 1, 0, -1);
    for (int i = 0; i < cp->ncon && S->failed == SN_OK; i++) {
        sni_couple_con* k = &cp->con[i];
        int ids[6] = {(int)k->d.kind, k->sa, k->ba, k->sb, k->bb, k->wire};
        sni_ser_int(S, SNI_CONFIG, "world constraint (kind, systems, bodies, wire)", ids, 6, 0, -1);
        sn_real geo[27];
        memcpy(geo, k->k.ra, 3 * sizeof(sn_real));
        memcpy(geo + 3, k->k.rb, 3 * sizeof(sn_real));
        memcpy(geo + 6, k->k.Qa, 9 * sizeof(sn_real));
        memcpy(geo + 15, k->k.Qb, 9 * sizeof(sn_real));
        geo[24] = k->d.length, geo[25] = k->d.stiffness, geo[26] = k->d.damping;
        sni_ser_real(S, SNI_CONFIG,
                     "world constraint (anchors, frames, length, stiffness, damping)", geo, 27);
        sni_ser_real(S, SNI_STATE, "world constraint impulses", k->lambda, SNI_MAXC_ROWS_MAX);
        int st[2] = {k->taut, k->acted};
        sni_ser_int(S, SNI_STATE, "world constraint taut and acted", st, 2, 0, 1);
        if (S->mode == SNI_SER_LOAD) k->taut = st[0], k->acted = st[1];
        sni_ser_real(S, SNI_REPORT, "world constraint force and torque", k->wrench, 6);
    }
}


// the spinning rotors (only when a system has one: the checkpoints of other worlds are as they
// were): per system, the count, then the settings of every DOF
static int any_rotor(const sn_world* w) {
    for (int i = 0; i < w->nsys; i++)
        if (w->sys[i]->rotor.n > 0) return 1;
    return 0;
}


static void visit_rotors(sni_ser* S, sn_world* w) {
    S->sys = -1;
    int on = 1;
    sni_ser_int(S, SNI_CONFIG, "spinning rotors (present)", &on, 1, 0, -1);
    for (int i = 0; i < w->nsys && S->failed == SN_OK; i++) {
        sn_system* s = w->sys[i];
        S->sys = i;
        sni_ser_int(S, SNI_CONFIG, "spinning rotors (sn_system_set_rotor)", &s->rotor.n, 1, 0, -1);
        if (s->rotor.n == 0 || S->failed != SN_OK) continue;
        size_t nv = (size_t)s->m->nv;
        sni_ser_real(S, SNI_CONFIG, "rotors' spin inertias", s->rotor.inertia, nv);
        sni_ser_real(S, SNI_CONFIG, "rotors' gear ratios", s->rotor.ratio, nv);
    }
}


// ---- the joint placements and masses changed since the systems were added ----

#define PLACED_MARK 0x4c504e53 // "SNPL": the placements' part follows

// some system's model has joint placements or masses other than when the system was added
static int any_placement_changed(const sn_world* w) {
    for (int i = 0; i < w->nsys; i++) {
        const sn_system* s = w->sys[i];
        sn_model as_added = model_as_added(s);
        const sn_model* m = s->m;
        size_t nj = (size_t)m->njoint, nb = (size_t)m->nbody, r = sizeof(sn_real);
        if (memcmp(m->joint_pos, as_added.joint_pos, 3 * nj * r) ||
            memcmp(m->joint_rot, as_added.joint_rot, 9 * nj * r) ||
            memcmp(m->joint_axis, as_added.joint_axis, 3 * nj * r) ||
            memcmp(m->body_mass, as_added.body_mass, nb * r) ||
            memcmp(m->subtree_mass, as_added.subtree_mass, nb * r))
            return 1;
    }
    return 0;
}


// a mark, then per system its model's joint placements and masses now: a load writes them into
// the model (seed 001: "a world checkpoint restores the result together with the placements";
// the result, the loops' attachment, is the systems' state above)
static void visit_placements(sni_ser* S, sn_world* w) {
    S->sys = -1;
    size_t more = S->n - S->off; // CHECK, LOAD: what the checkpoint has left
    int mark = PLACED_MARK;
    sni_ser_int(S, SNI_TEMP, "joint placements (present)", &mark, 1, 0, -1);
    if (S->failed != SN_OK) return;
    if (mark != PLACED_MARK) {
        sni_ser_refuse(S, SN_ERR_MODEL,
                       "foreign checkpoint: %zu bytes more than this world's state (saved from a "
                       "world of another shape)",
                       more);
        return;
    }
    for (int i = 0; i < w->nsys && S->failed == SN_OK; i++) {
        const sn_model* m = w->sys[i]->m;
        size_t nj = (size_t)m->njoint, nb = (size_t)m->nbody;
        S->sys = i;
        sni_ser_real(S, SNI_STATE, "model's joint origins", m->joint_pos, 3 * nj);
        sni_ser_real(S, SNI_STATE, "model's joint orientations", m->joint_rot, 9 * nj);
        sni_ser_real(S, SNI_STATE, "model's joint axes", m->joint_axis, 3 * nj);
        sni_ser_real(S, SNI_STATE, "model's body masses", m->body_mass, nb);
        sni_ser_real(S, SNI_STATE, "model's subtree masses", m->subtree_mass, nb);
    }
}


// ---- the loops' opening by a position correction, pending for the next step ----

#define LOOPS_PC_MARK 0x43504c53 // "SLPC": the loops' pending openings follow

// some system's last step moved its positions with a position correction through loops
static int any_loop_opening(const sn_world* w) {
    for (int i = 0; i < w->nsys; i++)
        if (w->sys[i]->loops.pc_pending) return 1;
    return 0;
}

// CHECK, LOAD: the checkpoint's next part is this one (an array of one int, the mark)
static int next_is_loop_opening(const sni_ser* S) {
    return S->off + 8 <= S->n && sni_get_u32(S->buf + S->off) == 1 &&
           sni_get_u32(S->buf + S->off + 4) == LOOPS_PC_MARK;
}

// a mark, then per system whether its next step has an opening to tell from the drift, and the
// errors its last step predicted (loops/factor.c)
static void visit_loop_openings(sni_ser* S, sn_world* w) {
    S->sys = -1;
    int mark = LOOPS_PC_MARK;
    sni_ser_int(S, SNI_TEMP, "loops' pending openings (present)", &mark, 1, 0, -1);
    for (int i = 0; i < w->nsys && S->failed == SN_OK; i++) {
        sn_system* s = w->sys[i];
        S->sys = i;
        sni_ser_int(S, SNI_STATE, "loops' opening pending", &s->loops.pc_pending, 1, 0, 1);
        sni_ser_real(S, SNI_STATE, "loops' predicted errors", s->loops.pc_pred,
                     3 * (size_t)s->m->nconstraint);
    }
}


// the whole walk; 1 when it visited the placements (SAVE: some changed; CHECK, LOAD: the
// checkpoint has them)
static int visit_all(sni_ser* S, sn_world* w) {
    visit_models(S, w);
    visit_world(S, w);
    for (int i = 0; i < w->nsys && S->failed == SN_OK; i++)
        visit_system(S, w->sys[i]);
    if (w->soft && S->failed == SN_OK) visit_soft(S, w);
    if (w->couple && S->failed == SN_OK) visit_couple(S, w);
    if (any_rotor(w) && S->failed == SN_OK) visit_rotors(S, w);
    int opening = S->mode == SNI_SER_SAVE ? any_loop_opening(w) : next_is_loop_opening(S);
    if (opening && S->failed == SN_OK) visit_loop_openings(S, w);
    if (!opening && S->mode == SNI_SER_LOAD)
        for (int i = 0; i < w->nsys; i++)
            w->sys[i]->loops.pc_pending = 0;
    int placed = S->mode == SNI_SER_SAVE ? any_placement_changed(w) : S->off < S->n;
    if (placed && S->failed == SN_OK) visit_placements(S, w);
    return placed;
}


// ---- the calls ----

// the walk's start: after the header; n is the checkpoint's size without its checksum
static sni_ser walk(int mode, const sn_world* w, const void* buf, size_t n) {
    sni_ser S;
    memset(&S, 0, sizeof S);
    S.mode = mode;
    S.buf = (unsigned char*)(void*)buf; // written in SAVE only
    S.n = n;
    S.off = SNI_STATE_HEADER;
    S.w = (sn_world*)(void*)w; // the world's last error is its one record, also for a const one
    S.sys = -1;
    return S;
}


static size_t measure(const sn_world* w) {
    sni_ser S = walk(SNI_SER_SAVE, w, NULL, 0);
    visit_all(&S, (sn_world*)(void*)w); // a SAVE walk reads only
    return S.off + 8;
}


sn_status sn_world_checkpoint_size(const sn_world* w, size_t* bytes) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!bytes)
        return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_checkpoint_size: bytes is NULL");
    if (!bytes)
        return sni_world_fail((sn_world*)(void*)w, SN_ERR_ARG,
                              "sn_world_checkpoint_size: bytes is NULL");
    *bytes = measure(w);
    return SN_OK;
}


sn_status sn_world_save_state(const sn_world* w, void* buf, size_t n, size_t* written) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!buf) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_save_state: buf is NULL");
    sn_world* rec = (sn_world*)(void*)w;
    if (written) *written = 0;
    if (!buf) return sni_world_fail(rec, SN_ERR_ARG, "sn_world_save_state: buf is NULL");
    size_t total = measure(w);
    if (n < total)
        return sni_world_fail(
            rec, SN_ERR_ARG,
            "sn_world_save_state: n = %zu: the buffer is smaller than the checkpoint, which "
            "needs %zu (sn_world_checkpoint_size)",
            n, total);
    unsigned char* b = buf;
    memset(b, 0, SNI_STATE_HEADER);
    memcpy(b, SNI_STATE_MAGIC, 8);
    sni_put_u32(b + 8, SN_STATE_VERSION);
    sni_put_u32(b + 12, (uint32_t)sizeof(sn_real));
    sni_put_u64(b + 16, (uint64_t)total);
    sni_put_u32(b + 24, (uint32_t)w->nsys);
    sni_ser S = walk(SNI_SER_SAVE, w, buf, total - 8);
    visit_all(&S, rec);
    sni_put_u64(b + total - 8, sni_fnv1a(SNI_FNV_OFFSET, b, total - 8));
    if (written) *written = total;
    return SN_OK;
}


// the header and the checksum: the buffer is a whole checkpoint of this version
static sn_status check_header(sn_world* w, const unsigned char* b, size_t n) {
    if (n < 8) return sni_world_fail(w, SN_ERR_PARSE, "n = %zu bytes: not a sinew checkpoint", n);
    if (memcmp(b, SNI_STATE_MAGIC, 8) != 0)
        return sni_world_fail(w, SN_ERR_PARSE,
                              "not a sinew checkpoint: it does not begin with \"%s\"",
                              SNI_STATE_MAGIC);
    if (n < SNI_STATE_HEADER + 8)
        return sni_world_fail(w, SN_ERR_PARSE,
                              "truncated checkpoint: %zu bytes, less than its header and checksum "
                              "(%d)",
                              n, SNI_STATE_HEADER + 8);
    uint32_t version = sni_get_u32(b + 8), real = sni_get_u32(b + 12);
    if (version != SN_STATE_VERSION)
        return sni_world_fail(w, SN_ERR_PARSE,
                              "checkpoint of format version %u: this sinew reads version %d",
                              (unsigned)version, SN_STATE_VERSION);
    if (real != sizeof(sn_real))
        return sni_world_fail(w, SN_ERR_PARSE,
                              "checkpoint of %u-byte numbers: this sinew's are %zu bytes",
                              (unsigned)real, sizeof(sn_real));
    uint64_t total = sni_get_u64(b + 16);
    if (total > n)
        return sni_world_fail(w, SN_ERR_PARSE, "truncated checkpoint: %zu of its %llu bytes", n,
                              (unsigned long long)total);
    if (total < n || total < SNI_STATE_HEADER + 8)
        return sni_world_fail(w, SN_ERR_PARSE,
                              "corrupt checkpoint: %zu bytes where its header says %llu", n,
                              (unsigned long long)total);
    uint64_t sum = sni_fnv1a(SNI_FNV_OFFSET, b, n - 8), saved = sni_get_u64(b + n - 8);
    if (sum != saved)
        return sni_world_fail(w, SN_ERR_PARSE,
                              "corrupt checkpoint: its checksum (FNV-1a %016llx) does not match "
                              "its contents (%016llx)",
                              (unsigned long long)saved, (unsigned long long)sum);
    uint32_t nsys = sni_get_u32(b + 24);
    if (nsys != (uint32_t)w->nsys)
        return sni_world_fail(w, SN_ERR_MODEL,
                              "foreign checkpoint: it was saved from a world of %u system%s; this "
                              "world has %d",
                              (unsigned)nsys, nsys == 1 ? "" : "s", w->nsys);
    return SN_OK;
}


// after a load: the caches are out of date (the warm start is kept), the last step's contact
// problem and inverse dynamics belong to the world as it was
static void after_load(sn_world* w) {
    w->solver.nblock = 0;
    for (int i = 0; i < w->nsys; i++) {
        sn_system* s = w->sys[i];
        sni_data_classify_joints(s->m, s->d); // the joint axes may have been restored
        sni_system_invalidate(s, SNI_VALID_STATE | SNI_VALID_W | SNI_VALID_ID | SNI_VALID_SENSOR);
        s->d->fk_valid = 0;
        s->loops.active = 0;
        s->solve.active = 0;
        memcpy(s->d->gravity, w->gravity, sizeof w->gravity);
    }
}


sn_status sn_world_load_state(sn_world* w, const void* buf, size_t n) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!buf) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_load_state: buf is NULL");
    if (!buf) return sni_world_fail(w, SN_ERR_ARG, "sn_world_load_state: buf is NULL");
    sn_status st = check_header(w, buf, n);
    if (st != SN_OK) return st;
    // every value checked first: a refusal changes nothing
    sni_ser S = walk(SNI_SER_CHECK, w, buf, n - 8);
    visit_all(&S, w);
    if (S.failed != SN_OK) return S.failed;
    if (S.off != n - 8)
        return sni_world_fail(w, SN_ERR_MODEL,
                              "foreign checkpoint: %zu bytes more than this world's state (saved "
                              "from a world of another shape)",
                              n - 8 - S.off);
    S = walk(SNI_SER_LOAD, w, buf, n - 8);
    if (!visit_all(&S, w))
        // saved with the placements the systems were added with: those go back into the models
        for (int i = 0; i < w->nsys; i++)
            sni_system_placements(w->sys[i]->m, w->sys[i]->placed, 1);
    after_load(w);
    return SN_OK;
}


sn_status sn_world_save_state_file(const sn_world* w, const char* path) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!path)
        return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_save_state_file: path is NULL");
    sn_world* rec = (sn_world*)(void*)w;
    if (!path) return sni_world_fail(rec, SN_ERR_ARG, "sn_world_save_state_file: path is NULL");
    size_t n = measure(w);
    sn_allocator a = w->alloc;
    void* buf = sni_alloc(&a, n);
    if (!buf) return sni_world_fail(rec, SN_ERR_NOMEM, "checkpoint '%s': out of memory", path);
    sn_status st = sn_world_save_state(w, buf, n, NULL);
    FILE* f = st == SN_OK ? fopen(path, "wb") : NULL;
    if (st == SN_OK && !f)
        st = sni_world_fail(rec, SN_ERR_IO, "cannot write the checkpoint '%s'", path);
    if (f) {
        int bad = fwrite(buf, 1, n, f) != n;
        bad |= fclose(f) != 0;
        if (bad) st = sni_world_fail(rec, SN_ERR_IO, "writing the checkpoint '%s' failed", path);
    }
    sni_free(&a, buf, n);
    return st;
}


sn_status sn_world_load_state_file(sn_world* w, const char* path) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!path)
        return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_load_state_file: path is NULL");
    if (!path) return sni_world_fail(w, SN_ERR_ARG, "sn_world_load_state_file: path is NULL");
    char* data = NULL;
    size_t n = 0;
    sn_error err;
    memset(&err, 0, sizeof err);
    sn_status st = sni_read_file(path, STATE_FILE_MAX, NULL, &w->alloc, &data, &n, &err);
    if (st != SN_OK) return sni_world_fail(w, st, "checkpoint: %s", err.msg);
    st = sn_world_load_state(w, data, n);
    if (st != SN_OK) {
        char why[sizeof w->last_error];
        snprintf(why, sizeof why, "%s", w->last_error);
        sni_world_fail(w, st, "%s: %s", path, why);
    }
    sni_free(&w->alloc, data, n + 1);
    return st;
}


sn_status sn_world_state_hash(const sn_world* w, uint64_t* hash) {
    SNI_REFUSE_NULL(w, SN_ERR_ARG);
    if (!hash) return sni_world_fail((sn_world*)w, SN_ERR_ARG, "sn_world_state_hash: hash is NULL");
    sn_world* rec = (sn_world*)(void*)w;
    if (!hash) return sni_world_fail(rec, SN_ERR_ARG, "sn_world_state_hash: hash is NULL");
    size_t n = measure(w);
    sn_allocator a = w->alloc;
    unsigned char* buf = sni_alloc(&a, n);
    if (!buf) return sni_world_fail(rec, SN_ERR_NOMEM, "sn_world_state_hash: out of memory");
    sn_status st = sn_world_save_state(w, buf, n, NULL);
    if (st == SN_OK) *hash = sni_get_u64(buf + n - 8);
    sni_free(&a, buf, n);
    return st;
}
