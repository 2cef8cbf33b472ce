// SPDX-License-Identifier: Apache-2.0
// arm.c: the dynamic arm component (seed 002, docs/arm.md) built from the seed's parameters: a
// 4-joint arm (a vertical yaw joint, three pitch joints with stops) with damping and friction on
// every joint. A rotor spins on the last link (its momentum H precesses the arm and does no
// work), and the last link carries a 2 kg payload that is released midway (C0 = payload,
// C1 = 0 on the release step): the generalized momentum is kept across the release.
#include <math.h>
#include <sinew/sn.h>
#include <stdio.h>
#include <string.h>

#define N 4
#define STEPS 2000
#define RELEASE 1000

static void print_state(sn_arm* arm, double t, const double* C) {
    const double* q = sn_arm_q(arm);
    sn_arm_report r;
    sn_arm_report_get(arm, &r);
    printf("t %.2f s  q = (%7.4f %7.4f %7.4f %7.4f)  kinetic %.5f J  sweeps %2d%s\n", t, q[0], q[1],
           q[2], q[3], sn_arm_kinetic_energy(arm, C), r.sweeps, r.stuck_start ? " (stuck)" : "");
}

int main(void) {
    // joint k turns about z (k = 1) or y at the end of link k-1; each link a 0.3 m rod along z
    sn_arm_joint_desc j[N];
    memset(j, 0, sizeof j);
    for (int k = 0; k < N; k++) {
        j[k].type = SN_JOINT_REVOLUTE;
        j[k].axis[k == 0 ? 2 : 1] = 1;
        j[k].origin[2] = k == 0 ? 0.1 : 0.3;
        j[k].mass = 1.0;
        j[k].com[2] = 0.15;
        j[k].inertia[0] = j[k].inertia[3] = 1.0 / 12 * 0.09; // xx, yy of a 0.3 m rod
        j[k].inertia[5] = 1e-3;
        j[k].armature = 0.01;
        j[k].damping = 0.2;
        j[k].friction = 0.1;
        j[k].limited = k > 0;
        j[k].lower = -1.5;
        j[k].upper = 1.5;
    }
    sn_arm_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.njoint = N;
    desc.joints = j;
    desc.gravity[2] = -9.81;
    sn_arm* arm = NULL;
    sn_error err;
    if (sn_arm_create(&desc, NULL, &arm, &err) != SN_OK) {
        fprintf(stderr, "sn_arm_create: %s\n", err.msg);
        return 1;
    }
    const double q0[N] = {0, 0.4, 0.6, 0.3}, qd0[N] = {0.5, 0, 0, 0};
    if (sn_arm_set_state(arm, q0, N, qd0, N) != SN_OK) return 1;

    // H: a rotor of 0.5 N m s spinning about link 4's axis; C: 2 kg at its tip
    double H[3 * N] = {0}, C[10 * N] = {0};
    H[3 * (N - 1) + 2] = 0.5;
    double* payload = C + 10 * (N - 1);
    payload[0] = 2.0;
    payload[3] = 0.3;                       // centre of mass (0, 0, 0.3) in frame 4
    payload[4] = payload[7] = payload[9] = 1e-3; // xx, yy, zz
    sn_arm_inputs in;
    memset(&in, 0, sizeof in);
    in.momentum = H;

    int ok = 1;
    for (int k = 1; k <= STEPS && ok; k++) {
        in.inertia0 = k <= RELEASE ? C : NULL; // carried up to and including the release step
        in.inertia1 = k < RELEASE ? C : NULL;  // on the release step C1 = 0
        if (sn_arm_step(arm, 0.001, &in) != SN_OK) {
            fprintf(stderr, "step %d: %s\n", k, sn_arm_last_error(arm));
            ok = 0;
            break;
        }
        for (int i = 0; i < N; i++)
            ok &= isfinite(sn_arm_q(arm)[i]) && isfinite(sn_arm_qd(arm)[i]);
        sn_arm_report r;
        sn_arm_report_get(arm, &r);
        ok &= r.energy_end <= r.energy_star * (1 + 1e-12) + 1e-15; // stops, friction: no energy
        if (k == RELEASE) printf("payload released:\n");
        if (k % 250 == 0 || k == RELEASE) print_state(arm, 1e-3 * k, k < RELEASE ? C : NULL);
    }
    const double* P = sn_arm_frame_pos(arm);
    printf("tip (frame 4) at (%.4f, %.4f, %.4f) m\n", P[9], P[10], P[11]);
    sn_arm_destroy(arm);
    if (!ok) fprintf(stderr, "the arm's state is not finite or a step failed\n");
    return ok ? 0 : 1;
}
