// SPDX-License-Identifier: Apache-2.0
// arm.c: seed 002's dynamic arm component, built from the seed's parameters. A 3-joint arm
// (a yaw joint, then two pitch joints with stops, damping and friction) carries a spinning rotor
// on its last link and a 1 kg payload that it releases at t = 1 s, held by a PD law computed by
// the caller. Each step passes the inputs (torques u, spin momentum H, carried inertia C0 and
// C1) and reads the states back: the elbow is pressed against its stop; released, the arm springs
// up.
#include <math.h>
#include <sinew/sn.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    sn_arm_joint_desc j[3];
    memset(j, 0, sizeof j);
    for (int k = 0; k < 3; k++) {
        j[k].axis[k == 0 ? 2 : 1] = 1;       // a_k: z, then y, y (frame k-1's axes)
        j[k].origin[2] = k == 0 ? 0.1 : 0.3; // J_k: along the previous link
        j[k].frame[2] = 0;                   // K_k: frame k at joint k
        j[k].mass = 2.0 - 0.5 * k;           // kg
        j[k].com[2] = 0.15;                  // the link's centre, up along it
        j[k].inertia[0] = j[k].inertia[3] = 0.02;
        j[k].inertia[5] = 0.005;
        j[k].damping = 0.05;  // D_k, N m s
        j[k].friction = 0.02; // mu_k, N m
    }
    j[2].limited = 1; // the elbow's stops, rad
    j[2].lower = -1.2;
    j[2].upper = 1.2;
    sn_arm_desc d;
    memset(&d, 0, sizeof d);
    d.njoint = 3;
    d.joints = j;
    d.gravity[2] = -9.81;
    sn_arm* arm = NULL;
    sn_error err;
    if (sn_arm_create(&d, NULL, &arm, &err) != SN_OK) {
        fprintf(stderr, "sn_arm_create: %s\n", err.msg);
        return 1;
    }
    const double q0[3] = {0, 0.4, 0.3}, qd0[3] = {0.5, 0, 0};
    if (sn_arm_set_state(arm, q0, 3, qd0, 3) != SN_OK) return 1;

    // H: a rotor on link 3 spinning about the link (frame 3's z) with 0.2 N m s
    double H[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0.2};
    // C: 1 kg at link 3's frame origin (mass, centre of mass, inertia about it), then nothing
    double payload[30] = {0}, none[30] = {0};
    payload[20] = 1.0;
    const double target[3] = {0.5, 0.6, 1.5}, kp = 60, kd = 6; // the caller's PD law
    const double dt = 0.001;
    int steps = 2000, release = 1000, ok = 1;
    double q_held = 0; // the shoulder's angle holding the payload
    printf("   t      q1        q2        q3      kinetic J  sweeps  elbow's impulse (stop, "
           "friction)\n");
    for (int s = 0; s < steps && ok; s++) {
        const double *q = sn_arm_q(arm), *qd = sn_arm_qd(arm);
        double u[3];
        for (int i = 0; i < 3; i++)
            u[i] = kp * (target[i] - q[i]) - kd * qd[i]; // N m
        sn_arm_inputs in = {0};
        in.torques = u;
        in.momentum = H;
        in.inertia0 = s < release ? payload : none;     // carried at the step's start
        in.inertia1 = s + 1 < release ? payload : none; // and at its end: the release step
        if (sn_arm_step(arm, dt, &in) != SN_OK) {
            fprintf(stderr, "step %d: %s\n", s, sn_arm_last_error(arm));
            ok = 0;
            break;
        }
        for (int i = 0; i < 3; i++)
            if (!isfinite(q[i]) || !isfinite(qd[i])) ok = 0;
        if (q[2] < j[2].lower || q[2] > j[2].upper) ok = 0;
        if (s + 1 == release) q_held = q[1];
        if ((s + 1) % 250 == 0 || (s >= release && s < release + 100 && (s + 1) % 50 == 0)) {
            sn_arm_report r;
            sn_arm_report_get(arm, &r);
            double ke = sn_arm_kinetic_energy(arm, s + 1 < release ? payload : NULL);
            printf("%5.2f %9.5f %9.5f %9.5f %10.6f %5d  %10.3e%s\n", (s + 1) * dt, q[0], q[1], q[2],
                   ke, r.sweeps, r.impulse[2], s + 1 == release ? "   (payload released)" : "");
        }
    }
    // pressed into its stop, the elbow ends exactly at it; without the payload the shoulder rose
    if (sn_arm_q(arm)[2] != j[2].upper || !(sn_arm_q(arm)[1] < q_held - 0.01)) ok = 0;
    const double* P = sn_arm_frame_pos(arm);
    const double* W = sn_arm_frame_omega(arm);
    printf("frame 3 at (%.4f, %.4f, %.4f) m, turning at (%.4f, %.4f, %.4f) rad/s\n", P[6], P[7],
           P[8], W[6], W[7], W[8]);
    sn_arm_destroy(arm);
    return ok ? 0 : 1;
}
