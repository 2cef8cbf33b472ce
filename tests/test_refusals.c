// SPDX-License-Identifier: Apache-2.0
// test_refusals.c: every refusal of a world or system call says why in sn_world_last_error: the
// argument and the reason, never an empty or stale text (issue 11, item 7). Each call below is
// refused, and the message it leaves must hold the words given beside it.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int expect(sn_world* w, sn_status got, sn_status want, const char* words, const char* call) {
    SNT_CHECK_MSG(got == want, "%s: status %d, wanted %d", call, (int)got, (int)want);
    const char* msg = sn_world_last_error(w);
    SNT_CHECK_MSG(strstr(msg, words) != NULL, "%s: the message '%s' lacks '%s'", call, msg, words);
    return 0;
}

#define EXPECT(call, want, words)                                                                  \
    do {                                                                                           \
        if (expect(w, (call), (want), (words), #call)) return 1;                                   \
    } while (0)

static int test_every_refusal_says_why(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/double_pendulum.urdf", SNT_SOURCE_DIR);
    sn_model* m = tc_load_file(path, 1);
    SNT_CHECK(m != NULL);
    sn_world* w = NULL;
    sn_system* s = NULL;
    SNT_STATUS_OK(sn_world_create(NULL, &w, NULL));
    SNT_STATUS_OK(sn_world_add_system(w, m, &s, NULL));
    int nq = m->nq, nv = m->nv;
    double q[8] = {0}, u[8] = {0}, nan = NAN, p3[3] = {0, 0, 0};
    sn_contact c;
    sn_actuator_state as;
    // the world's settings
    EXPECT(sn_world_set_gravity(w, NULL), SN_ERR_ARG, "g is NULL");
    EXPECT(sn_world_set_ground(w, 1, nan), SN_ERR_ARG, "height");
    EXPECT(sn_world_set_solver(w, 0, 1e-9), SN_ERR_ARG, "at least 1 iteration");
    EXPECT(sn_world_set_solver(w, 10, nan), SN_ERR_ARG, "tolerance");
    EXPECT(sn_world_set_material_pair(w, 3, 16, 0.5, 0, 0), SN_ERR_ARG, "0 to 15");
    EXPECT(sn_world_set_material(w, 0.5, 1.5, 0), SN_ERR_ARG, "restitution 1.5 must be within");
    EXPECT(sn_world_set_material(w, nan, 0, 0), SN_ERR_ARG, "friction nan");
    EXPECT(sn_world_set_material_pair(w, 1, 2, 0.5, -0.1, 0), SN_ERR_ARG, "restitution -0.1");
    // the system's state and control
    EXPECT(sn_system_set_state(s, NULL, nq, u, nv), SN_ERR_ARG, "q is NULL");
    EXPECT(sn_system_set_state(s, q, nq + 1, u, nv), SN_ERR_ARG, "nq 3 is not the model's nq = 2");
    EXPECT(sn_system_set_state(s, q, nq, NULL, nv), SN_ERR_ARG, "u is NULL");
    EXPECT(sn_system_set_u(s, u, nv - 1), SN_ERR_ARG, "nv 1 is not the model's nv = 2");
    EXPECT(sn_system_set_control_mode(s, (sn_control_mode)5), SN_ERR_ARG, "control mode 5");
    EXPECT(sn_system_set_scheme(s, (sn_scheme)9), SN_ERR_ARG, "scheme 9");
    EXPECT(sn_system_set_pd_gains(s, NULL, u, nv), SN_ERR_ARG, "is NULL");
    EXPECT(sn_system_set_generalized_force(s, u, nv + 2), SN_ERR_ARG, "entries");
    EXPECT(sn_system_set_external_force(s, 1, NULL, p3), SN_ERR_ARG, "point is NULL");
    EXPECT(sn_system_set_external_force(s, 1, p3, NULL), SN_ERR_ARG, "force is NULL");
    EXPECT(sn_system_set_external_torque(s, 1, NULL), SN_ERR_ARG, "torque is NULL");
    EXPECT(sn_system_add_actuator(s, NULL, NULL), SN_ERR_ARG,
           "a is NULL (no actuator description)");
    EXPECT(sn_system_actuator_states(s, &as, 3), SN_ERR_ARG, "3 actuator states");
    EXPECT(sn_system_generalized_force(s, NULL, nv), SN_ERR_ARG, "out is NULL");
    EXPECT(sn_system_generalized_force(s, u, nv + 1), SN_ERR_ARG, "not nv");
    // bodies, materials and contacts by index
    EXPECT(sn_system_set_collision_filter(s, m->nbody, 1, 1), SN_ERR_ARG, "bodies 0 to");
    EXPECT(sn_system_set_body_material(s, -1, 0), SN_ERR_ARG, "body -1");
    EXPECT(sn_system_set_body_material(s, 1, 16), SN_ERR_ARG, "material id 16");
    EXPECT(sn_system_body_contact_force(s, 99, p3, p3), SN_ERR_ARG, "body 99");
    EXPECT(sn_system_contact(s, 0, &c), SN_ERR_ARG, "contact i 0: the system has 0");
    EXPECT(sn_system_contact(s, 0, NULL), SN_ERR_ARG, "out is NULL");
    // constraints, assembly, joint wrenches and the contact problem by index
    sn_contact_row row;
    EXPECT(sn_system_constraint(s, 0, p3, p3), SN_ERR_ARG, "constraint i 0: the model has 0");
    EXPECT(sn_system_orientation_error(s, NULL), SN_ERR_ARG, "worst is NULL");
    EXPECT(sn_system_assemble(s, -1, 1e-12, NULL), SN_ERR_ARG, "max_iter -1");
    EXPECT(sn_system_assemble(s, 10, nan, NULL), SN_ERR_ARG, "tolerance");
    EXPECT(sn_system_joint_wrench(s, 42, p3, p3), SN_ERR_ARG, "joint 42");
    EXPECT(sn_world_contact_row(w, 0, &row), SN_ERR_ARG, "contact row i 0: the last step has 0");
    EXPECT(sn_world_contact_row(w, 0, NULL), SN_ERR_ARG, "out is NULL");
    // checkpoints (sn_state.h): arguments, and checkpoints that are not this world's
    unsigned char ck[16384], junk[64];
    size_t need = 0;
    EXPECT(sn_world_checkpoint_size(w, NULL), SN_ERR_ARG, "bytes is NULL");
    SNT_STATUS_OK(sn_world_checkpoint_size(w, &need));
    SNT_CHECK(need <= sizeof ck);
    EXPECT(sn_world_save_state(w, NULL, need, NULL), SN_ERR_ARG, "buf is NULL");
    EXPECT(sn_world_save_state(w, ck, need - 1, NULL), SN_ERR_ARG, "sn_world_checkpoint_size");
    EXPECT(sn_world_load_state(w, NULL, need), SN_ERR_ARG, "buf is NULL");
    memset(junk, 'x', sizeof junk);
    EXPECT(sn_world_load_state(w, junk, sizeof junk), SN_ERR_PARSE, "not a sinew checkpoint");
    SNT_STATUS_OK(sn_world_save_state(w, ck, need, NULL));
    EXPECT(sn_world_load_state(w, ck, need - 1), SN_ERR_PARSE, "truncated checkpoint");
    ck[need / 2] ^= 1;
    EXPECT(sn_world_load_state(w, ck, need), SN_ERR_PARSE, "checksum");
    ck[need / 2] ^= 1;
    SNT_STATUS_OK(sn_world_set_timestep(w, 0.004));
    EXPECT(sn_world_load_state(w, ck, need), SN_ERR_MODEL, "time step is 0.001 in it");
    SNT_STATUS_OK(sn_world_set_timestep(w, 0.001));
    EXPECT(sn_world_save_state_file(w, NULL), SN_ERR_ARG, "path is NULL");
    EXPECT(sn_world_load_state_file(w, NULL), SN_ERR_ARG, "path is NULL");
    EXPECT(sn_world_load_state_file(w, "/nonexistent/state.snstate"), SN_ERR_IO,
           "/nonexistent/state.snstate");
    EXPECT(sn_world_save_state_file(w, "/nonexistent/state.snstate"), SN_ERR_IO,
           "cannot write the checkpoint '/nonexistent/state.snstate'");
    EXPECT(sn_world_state_hash(w, NULL), SN_ERR_ARG, "hash is NULL");
    {
        // a checkpoint of another robot
        char other[1024];
        snprintf(other, sizeof other, "%s/models/pendulum.urdf", SNT_SOURCE_DIR);
        sn_model* m2 = tc_load_file(other, 1);
        sn_world* w2 = NULL;
        sn_system* s2 = NULL;
        SNT_CHECK(m2);
        SNT_STATUS_OK(sn_world_create(NULL, &w2, NULL));
        SNT_STATUS_OK(sn_world_add_system(w2, m2, &s2, NULL));
        size_t n2 = 0;
        SNT_STATUS_OK(sn_world_checkpoint_size(w2, &n2));
        SNT_CHECK(n2 <= sizeof ck);
        SNT_STATUS_OK(sn_world_save_state(w2, ck, n2, NULL));
        EXPECT(sn_world_load_state(w, ck, n2), SN_ERR_MODEL, "system 0's model (its fingerprint");
        sn_world_destroy(w2);
        sn_model_destroy(m2);
    }
    // the void setters take a NULL object as a no-op
    sn_system_set_self_collision(NULL, 1);
    sn_system_set_joint_limits_enabled(NULL, 1);
    sn_system_set_motor_region_enforced(NULL, 1);
    sn_system_set_compute_inverse_dynamics(NULL, 1);
    sn_world_set_warm_start(NULL, 1);
    sn_system_springs(NULL, q, u);
    sn_world_destroy(w);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_every_refusal_says_why))
