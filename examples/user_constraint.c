// SPDX-License-Identifier: Apache-2.0
// user_constraint.c: a constraint of one's own. A bead of 0.1 kg slides without friction on a
// vertical hoop of radius 0.5 m (x^2 + z^2 = R^2 and y = 0, two rows given by a callback with
// their Jacobian and J-dot x-dot), released level with the hoop's centre. sinew checks the
// callback against finite differences when it is added (a wrong Jacobian is refused), then steps
// the bead in maximal coordinates; at the bottom its speed is sqrt(2 g R) and the hoop pushes
// with m (g + v^2 / R) = 3 m g.
#include <math.h>
#include <sinew/sn.h>
#include <stdio.h>
#include <string.h>

typedef struct hoop {
    double R;
    int wrong; // 1: a planted error in the Jacobian, to show the check
} hoop;

// c = (x^2 + z^2 - R^2, y); J = (2x, 0, 2z | 0) and (0, 1, 0 | 0); J-dot x-dot = 2 (vx^2 + vz^2), 0
static int hoop_eval(void* ctx, const double* xa, const double* Ra, const double* va,
                     const double* wa, const double* xb, const double* Rb, const double* vb,
                     const double* wb, double* c, double* Ja, double* Jb, double* jdot) {
    (void)Ra, (void)wa, (void)xb, (void)Rb, (void)vb, (void)wb, (void)Jb;
    const hoop* h = ctx;
    c[0] = xa[0] * xa[0] + xa[2] * xa[2] - h->R * h->R;
    c[1] = xa[1];
    Ja[0] = 2 * xa[0];
    Ja[2] = h->wrong ? xa[2] : 2 * xa[2];
    Ja[6 + 1] = 1;
    jdot[0] = 2 * (va[0] * va[0] + va[2] * va[2]);
    jdot[1] = 0;
    return 0;
}

int main(void) {
    sn_maximal* mx = NULL;
    sn_error err;
    if (sn_maximal_create(NULL, &mx, &err) != SN_OK) return 1;
    sn_maximal_set_scheme(mx, SN_MAXIMAL_RK4);
    const double m = 0.1, R = 0.5, g = 9.81, I[6] = {1e-5, 0, 0, 1e-5, 0, 1e-5};
    const double x0[3] = {R, 0, 0};
    int bead;
    if (sn_maximal_add_body(mx, m, I, &bead) != SN_OK) return 1;
    sn_maximal_set_body_state(mx, bead, x0, NULL, NULL, NULL);
    hoop h = {R, 1};
    sn_user_constraint uc = {.rows = 2, .body_a = bead, .body_b = -1, .eval = hoop_eval,
                             .ctx = &h, .check = 1};
    int id;
    if (sn_maximal_add_user_constraint(mx, &uc, &id) == SN_OK) return 1; // must be refused
    printf("a wrong Jacobian, refused: %s\n", sn_maximal_last_error(mx));
    h.wrong = 0;
    if (sn_maximal_add_user_constraint(mx, &uc, &id) != SN_OK) {
        fprintf(stderr, "%s\n", sn_maximal_last_error(mx));
        return 1;
    }
    printf("the right one passes the finite-difference check\n");
    // step until the bead passes the bottom (x changes sign)
    double x[3], v[3], f[3];
    for (int k = 0; k < 5000; k++) {
        if (sn_maximal_step(mx) != SN_OK) {
            fprintf(stderr, "%s\n", sn_maximal_last_error(mx));
            return 1;
        }
        sn_maximal_body_state(mx, bead, x, NULL, v, NULL);
        if (x[0] <= 0) break;
    }
    sn_maximal_constraint_force(mx, id, NULL, 0, f, NULL);
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double err_c;
    sn_maximal_constraint_error(mx, NULL, &err_c);
    printf("at the bottom after %.3f s: speed %.6f m/s (sqrt(2 g R) = %.6f), hoop force %.6f N "
           "(3 m g = %.6f), constraint error %.1e\n",
           sn_maximal_time(mx), speed, sqrt(2 * g * R), sqrt(f[0] * f[0] + f[2] * f[2]),
           3 * m * g, err_c);
    int ok = fabs(speed - sqrt(2 * g * R)) < 1e-2 && fabs(f[2] - 3 * m * g) < 2e-2;
    sn_maximal_destroy(mx);
    return ok ? 0 : 1;
}
