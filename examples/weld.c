// SPDX-License-Identifier: Apache-2.0
// weld.c: constraints between the systems of a world: two small arms, each its own articulated
// system held by PD, weld their hands to one free box; a second box hangs from the first on a
// ball joint. The world eliminates the welds exactly with its contacts: the closure stays at
// rounding level, and the welds' forces carry the boxes' weight.
#include <math.h>
#include <sinew/sn.h>
#include <sinew/sn_maximal.h>
#include <stdio.h>
#include <string.h>

// a planar arm of three revolute joints about y (0.3 m, 0.3 m and a 0.1 m hand along x), its
// base fixed at (x, 0, 1)
static sn_model* arm(double x) {
    static const char* link = "<link name=\"%s\"><inertial><origin xyz=\"%g 0 0\"/><mass "
                              "value=\"%g\"/><inertia ixx=\"1e-3\" ixy=\"0\" ixz=\"0\" "
                              "iyy=\"4e-3\" iyz=\"0\" izz=\"4e-3\"/></inertial></link>";
    static const char* joint = "<joint name=\"%s\" type=\"continuous\"><parent link=\"%s\"/>"
                               "<child link=\"%s\"/><origin xyz=\"%g 0 0\"/><axis xyz=\"0 1 "
                               "0\"/></joint>";
    char xml[4096], part[512];
    snprintf(xml, sizeof xml,
             "<robot name=\"arm\"><link name=\"world\"/><link name=\"base\"/><joint name=\"mount\" "
             "type=\"fixed\"><parent link=\"world\"/><child link=\"base\"/><origin xyz=\"%.17g 0 "
             "1\"/></joint>",
             x);
    const char* names[3] = {"upper", "fore", "hand"};
    const char* parents[3] = {"base", "upper", "fore"};
    const double len[3] = {0.3, 0.3, 0.1}, mass[3] = {0.5, 0.5, 0.2}, at[3] = {0, 0.3, 0.3};
    for (int i = 0; i < 3; i++) {
        snprintf(part, sizeof part, link, names[i], len[i] / 2, mass[i]);
        strncat(xml, part, sizeof xml - strlen(xml) - 1);
        snprintf(part, sizeof part, joint, names[i], parents[i], names[i], at[i]);
        strncat(xml, part, sizeof xml - strlen(xml) - 1);
    }
    strncat(xml, "</robot>", sizeof xml - strlen(xml) - 1);
    sn_model* m = NULL;
    sn_load_opts o = {0};
    sn_error err;
    if (sn_load_urdf_string(xml, strlen(xml), "arm", NULL, &o, &m, &err) != SN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    return m;
}

int main(void) {
    sn_world* w = NULL;
    sn_error err;
    if (sn_world_create(NULL, &w, &err) != SN_OK) return 1;
    // two arms with bent elbows, hands level, reaching towards each other
    const double a = 0.5, reach = 0.6 * cos(a);
    sn_model* m1 = arm(0);
    sn_model* m2 = arm(2 * reach + 0.4);
    if (!m1 || !m2) return 1;
    sn_system *arm1 = NULL, *arm2 = NULL, *box = NULL, *load = NULL;
    sn_world_add_system(w, m1, &arm1, &err);
    sn_world_add_system(w, m2, &arm2, &err);
    const double q1[3] = {a, -2 * a, a}, q2[3] = {3.14159265358979323846 - a, 2 * a, -a},
                 zero[3] = {0, 0, 0};
    const double kp[3] = {400, 400, 400}, kd[3] = {20, 20, 20};
    sn_system_set_state(arm1, q1, 3, zero, 3);
    sn_system_set_state(arm2, q2, 3, zero, 3);
    sn_system_set_pd_gains(arm1, kp, kd, 3);
    sn_system_set_pd_gains(arm2, kp, kd, 3);
    sn_system_set_pd_target(arm1, q1, 3, zero, 3);
    sn_system_set_pd_target(arm2, q2, 3, zero, 3);
    // a 2 kg box between the hands (0.2 m), and a 0.5 kg box below it
    const double s1[3] = {0.2, 0.2, 0.2}, s2[3] = {0.1, 0.1, 0.1};
    sn_world_add_box(w, s1, 2.0, &box);
    sn_world_add_box(w, s2, 0.5, &load);
    const double qb[7] = {reach + 0.2, 0, 1, 1, 0, 0, 0},
                 ql[7] = {reach + 0.2, 0, 0.75, 1, 0, 0, 0};
    const double u0[6] = {0};
    sn_system_set_state(box, qb, 7, u0, 6);
    sn_system_set_state(load, ql, 7, u0, 6);
    int hand = sn_model_find(m1, SN_OBJ_BODY, "hand");
    // body indices: a free body is body 1 of its system; anchors are in the link frames
    sn_constraint_desc d;
    memset(&d, 0, sizeof d);
    d.kind = SN_CONSTRAINT_WELD;
    d.system_a = box, d.body_a = 1, d.anchor_a[0] = -0.1;
    d.system_b = arm1, d.body_b = hand, d.anchor_b[0] = 0.1;
    if (sn_world_add_constraint(w, &d, NULL) != SN_OK) goto fail;
    d.system_b = arm2, d.anchor_a[0] = 0.1;
    // arm 2's hand is turned by pi about y: the weld's frame on it, in the hand's axes
    const double turn[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
    memcpy(d.frame_b, turn, sizeof turn);
    if (sn_world_add_constraint(w, &d, NULL) != SN_OK) goto fail;
    // the load hangs on a ball joint at the box's bottom and is set swinging
    memset(&d, 0, sizeof d);
    d.kind = SN_CONSTRAINT_BALL;
    d.system_a = load, d.body_a = 1, d.anchor_a[2] = 0.05;
    d.system_b = box, d.body_b = 1, d.anchor_b[2] = -0.2;
    if (sn_world_add_constraint(w, &d, NULL) != SN_OK) goto fail;
    // (a velocity that keeps the ball: the load turns about the joint 5 cm above its centre)
    const double push[6] = {0.1, 0.06, 0, 1.2, -2, 0};
    sn_system_set_u(load, push, 6);
    double worst = 0;
    for (int k = 0; k < 3000; k++) {
        if (sn_world_integrate(w) != SN_OK) goto fail;
        for (int i = 0; i < sn_world_constraint_count(w); i++) {
            double e;
            sn_world_constraint_error(w, i, &e);
            worst = e > worst ? e : worst;
        }
    }
    double f1[3], f2[3], f3[3];
    sn_world_constraint_force(w, 0, f1, NULL, NULL);
    sn_world_constraint_force(w, 1, f2, NULL, NULL);
    sn_world_constraint_force(w, 2, f3, NULL, NULL);
    printf("after %.1f s: largest closure error %.2e m; the box at z = %.4f m\n", sn_world_time(w),
           worst, sn_system_q(box)[2]);
    printf("weld forces on the box (N): (%.3f %.3f %.3f) and (%.3f %.3f %.3f); their vertical "
           "sum %.3f N (the two boxes weigh %.3f N, the load swings)\n",
           f1[0], f1[1], f1[2], f2[0], f2[1], f2[2], f1[2] + f2[2], 2.5 * 9.81);
    printf("ball force on the load (N): (%.3f %.3f %.3f)\n", f3[0], f3[1], f3[2]);
    sn_world_destroy(w);
    sn_model_destroy(m1);
    sn_model_destroy(m2);
    return worst < 1e-6 ? 0 : 1;
fail:
    fprintf(stderr, "%s\n", sn_world_last_error(w));
    return 1;
}
