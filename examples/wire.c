// SPDX-License-Identifier: Apache-2.0
// wire.c: RaiSim's wire between objects: a rigid wire (a maximum length, tension only) holding a
// sphere that is thrown upward (the wire goes slack, the sphere flies free, the wire catches
// it), and a compliant wire (a spring of 200 N/m acting only beyond its length) tying a second
// sphere, resting on the ground, to a post.
#include <math.h>
#include <sinew/sn.h>
#include <sinew/sn_maximal.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    sn_world* w = NULL;
    sn_error err;
    if (sn_world_create(NULL, &w, &err) != SN_OK) return 1;
    sn_world_set_ground(w, 1, 0);
    sn_system *ball = NULL, *tied = NULL;
    sn_world_add_sphere(w, 0.05, 0.5, &ball);
    sn_world_add_sphere(w, 0.05, 0.5, &tied);
    // the ball hangs 1 m below a hook at (0, 0, 2) and is thrown up and sideways at 4 m/s
    const double q[7] = {0, 0, 1, 1, 0, 0, 0}, u[6] = {1.5, 0, 3.7, 0, 0, 0};
    sn_system_set_state(ball, q, 7, u, 6);
    const double qt[7] = {1, 0, 0.05, 1, 0, 0, 0}, ut[6] = {-2, 0, 0, 0, 0, 0};
    sn_system_set_state(tied, qt, 7, ut, 6);
    sn_constraint_desc d;
    memset(&d, 0, sizeof d);
    d.kind = SN_CONSTRAINT_WIRE;
    d.system_a = ball, d.body_a = 1;
    d.system_b = NULL; // the world: anchor_b in world coordinates
    d.anchor_b[2] = 2;
    d.length = 1;
    if (sn_world_add_constraint(w, &d, NULL) != SN_OK) goto fail;
    // the second sphere rolls away from a post at (2, 0, 0.05) on a 0.8 m compliant wire
    d.system_a = tied;
    d.anchor_b[0] = 2, d.anchor_b[2] = 0.05;
    d.length = 0.8, d.stiffness = 200, d.damping = 2;
    if (sn_world_add_constraint(w, &d, NULL) != SN_OK) goto fail;
    int slack = 0, was_taut = 1;
    double longest = 0;
    for (int k = 0; k < 3000; k++) {
        if (sn_world_integrate(w) != SN_OK) goto fail;
        double f[3];
        int taut;
        sn_world_constraint_force(w, 0, f, NULL, &taut);
        const double* p = sn_system_q(ball);
        double r = sqrt(p[0] * p[0] + p[1] * p[1] + (p[2] - 2) * (p[2] - 2));
        longest = r > longest ? r : longest;
        if (!taut) slack++;
        if (taut != was_taut)
            printf("t = %.3f s: the wire goes %s at |d| = %.6f m\n", sn_world_time(w),
                   taut ? "taut" : "slack", r);
        was_taut = taut;
    }
    double f[3];
    int taut;
    sn_world_constraint_force(w, 1, f, NULL, &taut);
    const double* p = sn_system_q(tied);
    printf("rigid wire: slack for %d of 3000 steps, longest |d| %.7f m (length 1)\n", slack,
           longest);
    printf("compliant wire: the tied sphere at x = %.4f m, the wire %s, pulling with (%.3f %.3f "
           "%.3f) N\n",
           p[0], taut ? "stretched" : "slack", f[0], f[1], f[2]);
    sn_world_destroy(w);
    return longest < 1 + 1e-6 ? 0 : 1;
fail:
    fprintf(stderr, "%s\n", sn_world_last_error(w));
    return 1;
}
