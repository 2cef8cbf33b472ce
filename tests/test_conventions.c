// SPDX-License-Identifier: Apache-2.0
// test_conventions.c: every convention of docs/conventions.md, pinned on small models whose
// answers are known by hand: the layout of q and u, frames of the base and spherical
// velocities, quaternion order, joint order, base selection, fixed-joint merging, names.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOX_INERTIAL                                                                               \
    "<inertial><origin xyz=\"0.1 0.2 0.3\"/><mass value=\"2\"/>"                                   \
    "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" izz=\"0.25\"/></inertial>"

// floating base: q = [p, quat w x y z], u = [v world, w world] of the base origin
static int test_floating_base_state_layout(void) {
    const char* xml = "<robot name=\"b\"><link name=\"base\">" BOX_INERTIAL "</link></robot>";
    sn_model* m = tc_load_string(xml, 0);
    SNT_CHECK(m);
    SNT_CHECK(m->is_floating && m->nq == 7 && m->nv == 6 && m->njoint == 1);
    SNT_CHECK(strcmp(sn_model_name(m, SN_OBJ_JOINT, 0), "ROOT") == 0);
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    // zero configuration: identity quaternion
    SNT_CHECK(d->q[3] == 1 && d->q[4] == 0 && d->q[5] == 0 && d->q[6] == 0);
    // 90 degrees about z: w = cos 45, z = sin 45
    double c = cos(M_PI / 4), s = sin(M_PI / 4);
    double q[7] = {1, 2, 3, c, 0, 0, s}, u[6] = {0.5, -0.25, 0.125, 0.3, -0.2, 0.7};
    SNT_STATUS_OK(sn_set_state(m, d, q, m->nq, u, m->nv));
    sn_fk(m, d);
    sn_fk_vel(m, d);
    double p[3], R[9], v[3], w[3];
    int f = sn_model_find(m, SN_OBJ_FRAME, "base");
    sn_frame_pose(m, d, f, p, R);
    SNT_NEAR(p[0], 1, 1e-15);
    SNT_NEAR(p[1], 2, 1e-15);
    SNT_NEAR(p[2], 3, 1e-15);
    // body x axis maps to world y
    SNT_NEAR(R[0], 0, 1e-15);
    SNT_NEAR(R[3], 1, 1e-15);
    SNT_NEAR(R[6], 0, 1e-15);
    sn_frame_velocity(m, d, f, v, w);
    for (int k = 0; k < 3; k++) {
        SNT_NEAR(v[k], u[k], 1e-15);
        SNT_NEAR(w[k], u[3 + k], 1e-15);
    }
    // generalized force of a world force at the base origin is that force (J = [I 0])
    double jp[18];
    sn_frame_jacobian(m, d, f, jp, NULL);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 6; k++)
            SNT_NEAR(jp[r * 6 + k], (k == r), 1e-15);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

// a non-unit quaternion is normalized by sn_set_state, a zero one refused
static int test_set_state_quaternions(void) {
    const char* xml = "<robot name=\"b\"><link name=\"base\">" BOX_INERTIAL "</link></robot>";
    sn_model* m = tc_load_string(xml, 0);
    SNT_CHECK(m);
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    double q[7] = {0, 0, 0, 2, 0, 0, 0};
    SNT_STATUS_OK(sn_set_state(m, d, q, m->nq, NULL, m->nv));
    SNT_NEAR(d->q[3], 1, 0);
    double z[7] = {9, 9, 9, 0, 0, 0, 0};
    SNT_CHECK(sn_set_state(m, d, z, m->nq, NULL, m->nv) == SN_ERR_ARG);
    SNT_NEAR(d->q[0], 0, 0); // unchanged after a refused state
    double n[7] = {NAN, 0, 0, 1, 0, 0, 0};
    SNT_CHECK(sn_set_state(m, d, n, m->nq, NULL, m->nv) == SN_ERR_NONFINITE);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

// spherical joint: quaternion w x y z of the child relative to the joint frame, angular
// velocity in the joint frame fixed to the parent
static int test_spherical_joint_frames(void) {
    const char* xml =
        "<robot name=\"s\"><link name=\"world\"/><link name=\"ball\">" BOX_INERTIAL "</link>"
        "<joint name=\"j\" type=\"spherical\"><parent link=\"world\"/><child link=\"ball\"/>"
        "<origin xyz=\"0 0 1\" rpy=\"0 0 1.5707963267948966\"/></joint></robot>";
    sn_model* m = tc_load_string(xml, 0);
    SNT_CHECK(m);
    SNT_CHECK(!m->is_floating && m->nq == 4 && m->nv == 3);
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    // rotate the child 90 degrees about the joint frame's x axis
    double c = cos(M_PI / 4), s = sin(M_PI / 4);
    double q[4] = {c, s, 0, 0}, u[3] = {1, 0, 0};
    SNT_STATUS_OK(sn_set_state(m, d, q, m->nq, u, m->nv));
    sn_fk(m, d);
    sn_fk_vel(m, d);
    int f = sn_model_find(m, SN_OBJ_FRAME, "ball");
    double p[3], R[9], v[3], w[3];
    sn_frame_pose(m, d, f, p, R);
    SNT_NEAR(p[2], 1, 1e-15);
    // the joint frame's x axis is world y: u = (1, 0, 0) spins about world y
    sn_frame_velocity(m, d, f, v, w);
    SNT_NEAR(w[0], 0, 1e-15);
    SNT_NEAR(w[1], 1, 1e-15);
    SNT_NEAR(w[2], 0, 1e-15);
    // child z axis: Rz(90) Rx(90) e_z = Rz(90) (0, -1, 0) = (1, 0, 0)
    SNT_NEAR(R[2], 1, 1e-15);
    SNT_NEAR(R[5], 0, 1e-15);
    SNT_NEAR(R[8], 0, 1e-15);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

// revolute: right-hand rotation about the axis; prismatic: translation along the axis
static int test_revolute_and_prismatic_sign(void) {
    const char* xml =
        "<robot name=\"rp\"><link name=\"world\"/><link name=\"a\">" BOX_INERTIAL "</link>"
        "<link name=\"b\">" BOX_INERTIAL "</link>"
        "<joint name=\"r\" type=\"revolute\"><parent link=\"world\"/><child link=\"a\"/>"
        "<axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/></joint>"
        "<joint name=\"p\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>"
        "<origin xyz=\"1 0 0\"/><axis xyz=\"1 0 0\"/>"
        "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint></robot>";
    sn_model* m = tc_load_string(xml, 0);
    SNT_CHECK(m);
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    d->q[0] = M_PI / 2;
    d->q[1] = 0.5;
    sn_fk(m, d);
    double p[3];
    sn_frame_pose(m, d, sn_model_find(m, SN_OBJ_FRAME, "b"), p, NULL);
    SNT_NEAR(p[0], 0, 1e-15);
    SNT_NEAR(p[1], 1.5, 1e-15);
    SNT_NEAR(p[2], 0, 1e-15);
    SNT_NEAR(m->dof_lower[0], -3, 0);
    SNT_NEAR(m->dof_upper[1], 1, 0);
    SNT_CHECK(m->dof_limited[0] && m->dof_limited[1]);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

// joints in depth-first order with children in file order, whatever the order of <joint>s;
// fixed joints merge links; link and joint names are separate namespaces
static int test_joint_order_and_merging(void) {
    const char* xml =
        "<robot name=\"o\"><link name=\"base\">" BOX_INERTIAL "</link>"
        "<link name=\"leg2\">" BOX_INERTIAL "</link><link name=\"foot1\">" BOX_INERTIAL "</link>"
        "<link name=\"leg1\">" BOX_INERTIAL "</link><link name=\"shell\">" BOX_INERTIAL "</link>"
        "<link name=\"j_leg1\">" BOX_INERTIAL "</link>"
        "<joint name=\"j_foot1\" type=\"continuous\"><parent link=\"leg1\"/><child "
        "link=\"foot1\"/></joint>"
        "<joint name=\"j_leg1\" type=\"continuous\"><parent link=\"base\"/><child "
        "link=\"leg1\"/></joint>"
        "<joint name=\"shell\" type=\"fixed\"><parent link=\"base\"/><child link=\"shell\"/>"
        "<origin xyz=\"0 0 1\"/></joint>"
        "<joint name=\"j_leg2\" type=\"continuous\"><parent link=\"shell\"/><child "
        "link=\"leg2\"/></joint>"
        "<joint name=\"camera\" type=\"fixed\"><parent link=\"foot1\"/><child "
        "link=\"j_leg1\"/></joint>"
        "</robot>";
    sn_model* m = tc_load_string(xml, 0);
    SNT_CHECK(m);
    // base's child joints in file order: j_leg1 (then its subtree), shell (fixed) -> j_leg2
    SNT_CHECK(m->njoint == 4);
    SNT_CHECK(!strcmp(sn_model_name(m, SN_OBJ_JOINT, 1), "j_leg1"));
    SNT_CHECK(!strcmp(sn_model_name(m, SN_OBJ_JOINT, 2), "j_foot1"));
    SNT_CHECK(!strcmp(sn_model_name(m, SN_OBJ_JOINT, 3), "j_leg2"));
    SNT_CHECK(m->joint_vadr[3] == 8 && m->joint_qadr[3] == 9);
    // base + shell merged: 4 kg in body 1, com between the two links
    SNT_NEAR(m->body_mass[1], 4, 1e-15);
    SNT_NEAR(m->body_com[3 * 1 + 2], 0.8, 1e-15);
    // same name for a link and a joint is allowed: separate namespaces
    SNT_CHECK(sn_model_find(m, SN_OBJ_FRAME, "j_leg1") >= 0);
    SNT_CHECK(sn_model_find(m, SN_OBJ_JOINT, "j_leg1") == 1);
    SNT_CHECK(sn_model_find(m, SN_OBJ_FRAME, "nope") == SN_NONE);
    SNT_CHECK(sn_model_find(m, SN_OBJ_URDF_JOINT, "camera") >= 0);
    // the merged link stays addressable as a frame, 1 m above the base
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    sn_fk(m, d);
    double p[3];
    sn_frame_pose(m, d, sn_model_find(m, SN_OBJ_FRAME, "shell"), p, NULL);
    SNT_NEAR(p[2], 1, 1e-15);
    SNT_CHECK(m->frame_body[sn_model_find(m, SN_OBJ_FRAME, "shell")] == 1);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

// base selection: root "world" -> fixed; otherwise floating; options override
static int test_base_selection(void) {
    const char* fixed = "<robot name=\"f\"><link name=\"world\"/><link name=\"a\">" BOX_INERTIAL
                        "</link><joint name=\"j\" type=\"continuous\"><parent link=\"world\"/>"
                        "<child link=\"a\"/></joint></robot>";
    const char* free_ = "<robot name=\"f\"><link name=\"a\">" BOX_INERTIAL "</link></robot>";
    sn_model* m = tc_load_string(fixed, 0);
    SNT_CHECK(m && !m->is_floating && m->nv == 1);
    sn_model_destroy(m);
    m = tc_load_string(free_, 0);
    SNT_CHECK(m && m->is_floating && m->nv == 6);
    sn_model_destroy(m);
    sn_load_opts o;
    memset(&o, 0, sizeof o);
    o.base = SN_BASE_FIXED;
    SNT_STATUS_OK(sn_load_urdf_string(free_, strlen(free_), "x", NULL, &o, &m, NULL));
    SNT_CHECK(m->nv == 0 && !m->is_floating);
    sn_model_destroy(m);
    o.base = SN_BASE_FLOATING;
    sn_error err;
    SNT_CHECK(sn_load_urdf_string(fixed, strlen(fixed), "x", NULL, &o, &m, &err) == SN_ERR_MODEL);
    SNT_CHECK(strstr(err.msg, "world") != NULL);
    return 0;
}

// potential energy m g z with the default gravity, and gravity in h of a pendulum
static int test_gravity_defaults(void) {
    const char* xml =
        "<robot name=\"p\"><link name=\"world\"/><link name=\"bob\"><inertial><origin xyz=\"1 0 "
        "0\"/>"
        "<mass value=\"2\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" "
        "izz=\"0.01\"/></inertial></link><joint name=\"j\" type=\"continuous\">"
        "<parent link=\"world\"/><child link=\"bob\"/><origin xyz=\"0 0 3\"/><axis xyz=\"0 1 0\"/>"
        "</joint></robot>";
    sn_model* m = tc_load_string(xml, 0);
    SNT_CHECK(m);
    sn_data* d;
    SNT_STATUS_OK(sn_data_create(m, NULL, &d, NULL));
    SNT_NEAR(d->gravity[2], -9.81, 0);
    sn_fk(m, d);
    sn_fk_vel(m, d);
    SNT_NEAR(sn_potential_energy(m, d), 2 * 9.81 * 3, 1e-12);
    sn_nonlinear(m, d);
    // bob 1 m along x, axis +y: gravity torque about +y is r x F = (1,0,0) x (0,0,-19.62) =
    // (0, 19.62, 0); h = -tau_gravity = -19.62
    SNT_NEAR(d->nonlinear[0], -2 * 9.81, 1e-12);
    sn_data_destroy(d);
    sn_model_destroy(m);
    return 0;
}

SNT_SUITE(SNT_TEST(test_floating_base_state_layout), SNT_TEST(test_set_state_quaternions),
          SNT_TEST(test_spherical_joint_frames), SNT_TEST(test_revolute_and_prismatic_sign),
          SNT_TEST(test_joint_order_and_merging), SNT_TEST(test_base_selection),
          SNT_TEST(test_gravity_defaults))
