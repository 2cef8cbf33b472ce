// SPDX-License-Identifier: Apache-2.0
// test_terrain.c: the heightfield ground. A flat field is the ground plane to rounding; on a
// field tilted by alpha a box slides with a = g (sin alpha - mu cos alpha) and a ball rolls with
// a = 5/7 g sin alpha; outside the field the ground plane (or nothing) holds; bad fields are
// refused and leave the old one in place. Where the terrain bends under a geometry it meets the
// triangles' prisms: a ball settles in a V-shaped groove on both flanks, a box bridges it.
#include "common.h"
#include "harness/snt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define GRAV 9.81
#define NX 21 // 21 x 21 points, 0.5 m apart, over [-5, 5]^2


static sn_world* world_new(void) {
    sn_world* w = NULL;
    sn_world_opts o;
    memset(&o, 0, sizeof o);
    o.timestep = 0.001;
    if (sn_world_create(&o, &w, NULL) != SN_OK) return NULL;
    return w;
}


// heights z = z0 - tan(alpha) x over [-5, 5]^2
static void tilted(double* z, double z0, double alpha) {
    for (int j = 0; j < NX; j++)
        for (int i = 0; i < NX; i++)
            z[i + NX * j] = z0 - tan(alpha) * (-5 + 0.5 * i);
}


// a ball and a tumbling box on a flat field at z = 0.3 move as on the plane z = 0.3
static int test_flat_field_is_the_plane(void) {
    double z[NX * NX];
    tilted(z, 0.3, 0);
    sn_world* w[2] = {world_new(), world_new()};
    sn_system *ball[2], *box[2];
    double size[3] = {0.3, 0.2, 0.1};
    for (int k = 0; k < 2; k++) {
        SNT_CHECK(w[k]);
        if (k == 0)
            SNT_STATUS_OK(sn_world_set_ground(w[k], 1, 0.3));
        else
            SNT_STATUS_OK(sn_world_set_heightfield(w[k], NX, NX, -5, -5, 0.5, 0.5, z));
        SNT_STATUS_OK(sn_world_set_material(w[k], 0.5, 0.5, 0.1));
        SNT_STATUS_OK(sn_world_add_sphere(w[k], 0.1, 1, &ball[k]));
        SNT_STATUS_OK(sn_world_add_box(w[k], size, 2, &box[k]));
        double qb[7] = {0, 0, 1, 1, 0, 0, 0}, ub[6] = {1, 0.5, 0, 0, 0, 0};
        double qx[7] = {1, 1, 0.8, 0.9, 0.3, 0.2, 0.1}, ux[6] = {-0.5, 0, 0, 3, -2, 1};
        SNT_STATUS_OK(sn_system_set_state(ball[k], qb, 7, ub, 6));
        SNT_STATUS_OK(sn_system_set_state(box[k], qx, 7, ux, 6));
    }
    double err = 0;
    int touched = 0;
    for (int n = 0; n < 2000; n++)
        for (int k = 0; k < 2; k++) {
            SNT_STATUS_OK(sn_world_integrate(w[k]));
            if (k == 0) continue;
            touched += sn_system_contact_count(ball[1]) > 0 && sn_system_contact_count(box[1]) > 0;
            for (int i = 0; i < 7; i++) {
                err = fmax(err, fabs(sn_system_q(ball[0])[i] - sn_system_q(ball[1])[i]));
                err = fmax(err, fabs(sn_system_q(box[0])[i] - sn_system_q(box[1])[i]));
            }
        }
    printf("  flat field vs plane: largest q difference %.3g over 2 s (%d steps with both "
           "touching); box at z %.6f\n",
           err, touched, sn_system_q(box[1])[2]);
    SNT_CHECK(touched > 500);
    SNT_CHECK(err < 1e-12);
    SNT_NEAR(sn_system_q(ball[1])[2], 0.4, 2e-3); // at rest on the field
    for (int k = 0; k < 2; k++)
        sn_world_destroy(w[k]);
    return 0;
}


// the field's height and normal: analytic on a tilted field, the plane outside, -inf without
static int test_terrain_height(void) {
    double z[NX * NX], alpha = 0.4, n[3];
    tilted(z, 0.1, alpha);
    sn_world* w = world_new();
    SNT_CHECK(w);
    SNT_CHECK(isinf(sn_world_terrain_height(w, 0, 0, NULL)));
    SNT_STATUS_OK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, 0.5, z));
    const double pts[4][2] = {{0.3, 0.2}, {-4.9, 4.99}, {2.25, -1.75}, {5, 5}};
    for (int k = 0; k < 4; k++) {
        double h = sn_world_terrain_height(w, pts[k][0], pts[k][1], n);
        SNT_NEAR(h, 0.1 - tan(alpha) * pts[k][0], 1e-14);
        SNT_NEAR(n[0], sin(alpha), 1e-15);
        SNT_NEAR(n[1], 0, 1e-15);
        SNT_NEAR(n[2], cos(alpha), 1e-15);
    }
    SNT_CHECK(isinf(sn_world_terrain_height(w, 5.01, 0, NULL)));
    SNT_STATUS_OK(sn_world_set_ground(w, 1, -0.25));
    SNT_NEAR(sn_world_terrain_height(w, 5.01, 0, n), -0.25, 0);
    SNT_NEAR(n[2], 1, 0);
    // a saddle cell: heights 0, 1, 1, 0 at (0,0), (1,0), (0,1), (1,1) (dx = dy = 1); below the
    // diagonal the triangle (00, 10, 11) has z = x - y, above it (00, 11, 01) z = y - x
    double s[4] = {0, 1, 1, 0};
    SNT_STATUS_OK(sn_world_set_heightfield(w, 2, 2, 0, 0, 1, 1, s));
    SNT_NEAR(sn_world_terrain_height(w, 0.7, 0.2, n), 0.5, 1e-15);
    SNT_NEAR(n[0], -1 / sqrt(3), 1e-15);
    SNT_NEAR(n[1], 1 / sqrt(3), 1e-15);
    SNT_NEAR(sn_world_terrain_height(w, 0.1, 0.6, n), 0.5, 1e-15);
    SNT_NEAR(n[0], 1 / sqrt(3), 1e-15);
    SNT_NEAR(n[1], -1 / sqrt(3), 1e-15);
    sn_world_destroy(w);
    return 0;
}


// a box (0.2 m cube, its face on the slope) for T seconds on the field tilted by alpha; returns
// the distance travelled down the slope and the largest drift off it
static int slide(sn_system* (*make)(sn_world*), double mu, double alpha, double T, double* s,
                 double* off) {
    double z[NX * NX];
    tilted(z, 0, alpha);
    sn_world* w = world_new();
    SNT_CHECK(w);
    SNT_STATUS_OK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, 0.5, z));
    SNT_STATUS_OK(sn_world_set_material(w, mu, 0, 0));
    sn_system* b = make(w);
    SNT_CHECK(b);
    // the centre 0.1 m above the slope at x = -1, the body turned by alpha about y
    double q[7] = {-1 + 0.1 * sin(alpha), 0, tan(alpha) + 0.1 * cos(alpha), cos(alpha / 2), 0,
                   sin(alpha / 2),        0},
           u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(b, q, 7, u, 6));
    double down[3] = {cos(alpha), 0, -sin(alpha)}, nrm[3] = {sin(alpha), 0, cos(alpha)};
    *off = 0;
    int n = (int)lround(T / 0.001);
    for (int k = 0; k < n; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        SNT_CHECK(sn_system_contact_count(b) > 0);
        const double* qe = sn_system_q(b);
        double d[3] = {qe[0] - q[0], qe[1] - q[1], qe[2] - q[2]};
        *off = fmax(*off, fabs(d[0] * nrm[0] + d[2] * nrm[2]));
        *off = fmax(*off, fabs(d[1]));
        *s = d[0] * down[0] + d[2] * down[2];
    }
    sn_world_destroy(w);
    return 0;
}

static sn_system* make_box(sn_world* w) {
    double size[3] = {0.2, 0.2, 0.2};
    sn_system* s = NULL;
    return sn_world_add_box(w, size, 1, &s) == SN_OK ? s : NULL;
}

static sn_system* make_ball(sn_world* w) {
    sn_system* s = NULL;
    return sn_world_add_sphere(w, 0.1, 1, &s) == SN_OK ? s : NULL;
}


// C2 on real terrain: alpha = 30 deg, mu = 0.3 slides at a = 2.356287 m/s^2
static int test_box_slides_down_tilted_field(void) {
    double alpha = M_PI / 6, T = 1, s, off;
    SNT_CHECK(slide(make_box, 0.3, alpha, T, &s, &off) == 0);
    double a = 2 * s / (T * (T + 0.001)), a_exp = GRAV * (sin(alpha) - 0.3 * cos(alpha));
    printf("  box on the 30 deg field, mu 0.3: a = %.6f m/s^2 (expected %.6f), off the slope "
           "%.2e m\n",
           a, a_exp, off);
    // docs/contact.md: a = 2.356287 (the closed form to its six digits, asserted 1e-6
    // relative), off the slope 2e-11 m (asserted 1e-10)
    SNT_NEAR_REL(a, a_exp, 1e-6, 0);
    SNT_CHECK(off < 1e-10);
    // mu = 0.7 > tan 30 deg: it stays (moves 3.8e-11 m, asserted 1e-9)
    SNT_CHECK(slide(make_box, 0.7, alpha, T, &s, &off) == 0);
    printf("  mu 0.7: moved %.2e m\n", s);
    SNT_CHECK(fabs(s) < 1e-9);
    return 0;
}


// a solid ball rolls without slipping (mu 0.8 > 2/7 tan alpha): a = 5/7 g sin alpha
static int test_ball_rolls_down_tilted_field(void) {
    double alpha = M_PI / 6, T = 1, s, off;
    SNT_CHECK(slide(make_ball, 0.8, alpha, T, &s, &off) == 0);
    double a = 2 * s / (T * (T + 0.001)), a_exp = 5.0 / 7 * GRAV * sin(alpha);
    printf("  ball on the 30 deg field: a = %.6f m/s^2 (expected 5/7 g sin = %.6f), off the "
           "slope %.2e m\n",
           a, a_exp, off);
    // docs/contact.md: 3.503571 and 4.905000, the closed forms to six digits (1e-6 relative)
    SNT_NEAR_REL(a, a_exp, 1e-6, 0);
    SNT_CHECK(off < 1e-10);
    // frictionless, it slides at g sin alpha
    SNT_CHECK(slide(make_ball, 0, alpha, T, &s, &off) == 0);
    a = 2 * s / (T * (T + 0.001));
    printf("  frictionless: a = %.6f m/s^2 (expected %.6f)\n", a, GRAV * sin(alpha));
    SNT_NEAR_REL(a, GRAV * sin(alpha), 1e-6, 0);
    return 0;
}


// outside the field's rectangle the plane holds, or nothing without a ground
static int test_outside_the_field(void) {
    double z[NX * NX];
    tilted(z, 0.3, 0);
    for (int ground = 0; ground <= 1; ground++) {
        sn_world* w = world_new();
        SNT_CHECK(w);
        SNT_STATUS_OK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, 0.5, z));
        if (ground) SNT_STATUS_OK(sn_world_set_ground(w, 1, 0));
        sn_system *in, *out;
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &in));
        SNT_STATUS_OK(sn_world_add_sphere(w, 0.1, 1, &out));
        double qi[7] = {4.8, 0, 0.5, 1, 0, 0, 0}, qo[7] = {5.2, 0, 0.5, 1, 0, 0, 0}, u[6] = {0};
        SNT_STATUS_OK(sn_system_set_state(in, qi, 7, u, 6));
        SNT_STATUS_OK(sn_system_set_state(out, qo, 7, u, 6));
        for (int k = 0; k < 1000; k++)
            SNT_STATUS_OK(sn_world_integrate(w));
        double zi = sn_system_q(in)[2], zo = sn_system_q(out)[2];
        printf("  ground %d: inside at z %.6f, outside at z %.6f\n", ground, zi, zo);
        SNT_NEAR(zi, 0.4, 2e-3);
        if (ground)
            SNT_NEAR(zo, 0.1, 2e-3);
        else
            SNT_CHECK(zo < -3); // free fall: 0.5 - g / 2
        sn_world_destroy(w);
    }
    return 0;
}


// bad fields: an error code and a message; the old field stays
static int test_bad_fields(void) {
    double z[NX * NX];
    tilted(z, 0.3, 0);
    sn_world* w = world_new();
    SNT_CHECK(w);
    SNT_STATUS_OK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, 0.5, z));
    SNT_CHECK(sn_world_set_heightfield(w, 1, NX, -5, -5, 0.5, 0.5, z) == SN_ERR_ARG);
    SNT_CHECK(strstr(sn_world_last_error(w), "heightfield"));
    SNT_CHECK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0, 0.5, z) == SN_ERR_ARG);
    SNT_CHECK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, NAN, z) == SN_ERR_ARG);
    SNT_CHECK(sn_world_set_heightfield(w, NX, NX, INFINITY, -5, 0.5, 0.5, z) == SN_ERR_ARG);
    SNT_CHECK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, 0.5, NULL) == SN_ERR_ARG);
    SNT_CHECK(sn_world_set_heightfield(w, 1 << 14, 1 << 14, -5, -5, 0.5, 0.5, z) == SN_ERR_ARG);
    z[7 + NX * 3] = NAN;
    SNT_CHECK(sn_world_set_heightfield(w, NX, NX, -5, -5, 0.5, 0.5, z) == SN_ERR_NONFINITE);
    printf("  %s\n", sn_world_last_error(w));
    SNT_CHECK(strstr(sn_world_last_error(w), "i 7, j 3"));
    SNT_NEAR(sn_world_terrain_height(w, 0, 0, NULL), 0.3, 0);
    // removed
    SNT_STATUS_OK(sn_world_set_heightfield(w, 0, 0, 0, 0, 0, 0, NULL));
    SNT_CHECK(isinf(sn_world_terrain_height(w, 0, 0, NULL)));
    sn_world_destroy(w);
    return 0;
}


// a V-shaped groove along y: z = |x| tan(alpha), points 0.1 m apart over [-2, 2]^2
#define NV 41
static sn_world* groove(double alpha) {
    static double z[NV * NV];
    for (int j = 0; j < NV; j++)
        for (int i = 0; i < NV; i++)
            z[i + NV * j] = fabs(-2 + 0.1 * i) * tan(alpha);
    sn_world* w = world_new();
    if (w && sn_world_set_heightfield(w, NV, NV, -2, -2, 0.1, 0.1, z) != SN_OK) return NULL;
    return w;
}

// a ball dropped off-centre into the groove rests on both flanks: centre at x = 0, z =
// r / cos(alpha), two contacts with the flanks' normals
static int test_ball_settles_in_groove(void) {
    double alpha = 20 * M_PI / 180, r = 0.1;
    sn_world* w = groove(alpha);
    SNT_CHECK(w);
    sn_system* b = NULL;
    SNT_STATUS_OK(sn_world_add_sphere(w, r, 1, &b));
    double q[7] = {0.03, 0.01, 0.3, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(b, q, 7, u, 6));
    for (int k = 0; k < 3000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    const double* qe = sn_system_q(b);
    int nc = sn_system_contact_count(b);
    printf("  ball in a 20 deg groove: x %.2e, z %.6f (expected %.6f), %d contacts, KE %.1e J\n",
           qe[0], qe[2], r / cos(alpha), nc, sn_system_kinetic_energy(b));
    SNT_NEAR(qe[0], 0, 1e-4);
    SNT_NEAR(qe[2], r / cos(alpha), 1e-4);
    // the flanks carry it: each loaded contact has its flank's normal
    int loaded = 0;
    double fz = 0;
    for (int i = 0; i < nc; i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(b, i, &c));
        if (getenv("SNT_VERBOSE"))
            printf("    (%.4f %.4f %.4f) n (%.4f %.4f %.4f) depth %.2e imp %.3e\n", c.position[0],
                   c.position[1], c.position[2], c.normal[0], c.normal[1], c.normal[2], c.depth,
                   c.impulse[2]);
        fz += c.impulse[2];
        if (c.impulse[2] == 0) continue;
        loaded++;
        SNT_NEAR(fabs(c.normal[0]), sin(alpha), 1e-6);
        SNT_NEAR(c.normal[2], cos(alpha), 1e-6);
    }
    SNT_CHECK(loaded == 2);
    SNT_NEAR(fz, GRAV * 0.001, 1e-9);
    SNT_CHECK(sn_system_kinetic_energy(b) < 1e-8);
    sn_world_destroy(w);
    return 0;
}

// a 0.6 m box laid across the groove rests level on its two bottom edges, one on each flank:
// bottom at z = 0.3 tan(alpha)
static int test_box_bridges_groove(void) {
    double alpha = 20 * M_PI / 180, size[3] = {0.6, 0.3, 0.1};
    sn_world* w = groove(alpha);
    SNT_CHECK(w);
    sn_system* b = NULL;
    SNT_STATUS_OK(sn_world_add_box(w, size, 2, &b));
    double z0 = 0.3 * tan(alpha) + 0.05;
    double q[7] = {0, 0.02, z0 + 0.005, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(b, q, 7, u, 6));
    for (int k = 0; k < 2000; k++) {
        SNT_STATUS_OK(sn_world_integrate(w));
        if (getenv("SNT_VERBOSE") && k % 50 == 0)
            printf("    %d: x %.2e z %.6f q %.2e %.2e %.2e nc %d KE %.2e\n", k, sn_system_q(b)[0],
                   sn_system_q(b)[2], sn_system_q(b)[4], sn_system_q(b)[5], sn_system_q(b)[6],
                   sn_system_contact_count(b), sn_system_kinetic_energy(b));
    }
    const double* qe = sn_system_q(b);
    int nc = sn_system_contact_count(b);
    printf("  box across the groove: x %.2e, z %.6f (expected %.6f), tilt %.1e, %d contacts, KE "
           "%.1e J\n",
           qe[0], qe[2], z0, 2 * sqrt(qe[4] * qe[4] + qe[5] * qe[5] + qe[6] * qe[6]), nc,
           sn_system_kinetic_energy(b));
    for (int i = 0; i < nc && getenv("SNT_VERBOSE"); i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(b, i, &c));
        printf("    (%.4f %.4f %.4f) n (%.4f %.4f %.4f) depth %.2e imp %.3e\n", c.position[0],
               c.position[1], c.position[2], c.normal[0], c.normal[1], c.normal[2], c.depth,
               c.impulse[2]);
    }
    SNT_NEAR(qe[0], 0, 1e-4);
    SNT_NEAR(qe[2], z0, 1e-4);
    SNT_CHECK(sqrt(qe[4] * qe[4] + qe[5] * qe[5] + qe[6] * qe[6]) < 1e-4);
    SNT_CHECK(nc == 4);
    SNT_CHECK(sn_system_kinetic_energy(b) < 1e-8);
    sn_world_destroy(w);
    return 0;
}


// a box laid over a bump (one field point 2 cm high under one end): it rests on the bump's tip
// and on the ground under its other end, its bottom face through the tip
static int test_box_rests_on_bump(void) {
    static double z[NV * NV];
    memset(z, 0, sizeof z);
    z[22 + NV * 20] = 0.02; // the point (0.2, 0)
    sn_world* w = world_new();
    SNT_CHECK(w);
    SNT_STATUS_OK(sn_world_set_heightfield(w, NV, NV, -2, -2, 0.1, 0.1, z));
    sn_system* b = NULL;
    double size[3] = {0.6, 0.3, 0.1};
    SNT_STATUS_OK(sn_world_add_box(w, size, 2, &b));
    double q[7] = {0, 0.01, 0.08, 1, 0, 0, 0}, u[6] = {0};
    SNT_STATUS_OK(sn_system_set_state(b, q, 7, u, 6));
    for (int k = 0; k < 3000; k++)
        SNT_STATUS_OK(sn_world_integrate(w));
    double R[9];
    const double* qe = sn_system_q(b);
    double qq[4] = {qe[3], qe[4], qe[5], qe[6]};
    double nq = sqrt(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
    for (int i = 0; i < 4; i++)
        qq[i] /= nq;
    // rotation matrix of the quaternion (w, x, y, z)
    R[2] = 2 * (qq[1] * qq[3] + qq[0] * qq[2]);
    R[5] = 2 * (qq[2] * qq[3] - qq[0] * qq[1]);
    R[8] = 1 - 2 * (qq[1] * qq[1] + qq[2] * qq[2]);
    double up[3] = {R[2], R[5], R[8]}, tip[3] = {0.2, 0, 0.02};
    // the bottom face's plane: up . x = up . centre - 0.05
    double face =
        up[0] * (tip[0] - qe[0]) + up[1] * (tip[1] - qe[1]) + up[2] * (tip[2] - qe[2]) + 0.05;
    int on_tip = 0, on_ground = 0, nc = sn_system_contact_count(b);
    double fz = 0;
    for (int i = 0; i < nc; i++) {
        sn_contact c;
        SNT_STATUS_OK(sn_system_contact(b, i, &c));
        fz += c.impulse[2];
        if (c.impulse[2] <= 0) continue;
        double d[3] = {c.position[0] - tip[0], c.position[1] - tip[1], c.position[2] - tip[2]};
        if (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) < 1e-3) {
            on_tip++;
            SNT_NEAR(c.normal[0] * up[0] + c.normal[1] * up[1] + c.normal[2] * up[2], 1, 1e-6);
        } else if (fabs(c.position[2]) < 1e-3) {
            on_ground++;
            SNT_NEAR(c.normal[2], 1, 1e-12);
        }
    }
    printf("  box over a 2 cm bump: tilt %.4f rad, tip %.2e m from the bottom face, %d contacts "
           "(%d on the tip, %d on the ground), KE %.1e J\n",
           acos(up[2]), face, nc, on_tip, on_ground, sn_system_kinetic_energy(b));
    SNT_CHECK(on_tip == 1 && on_ground == 2);
    SNT_NEAR(face, 0, 1e-4);
    SNT_NEAR(fz, 2 * GRAV * 0.001, 1e-8); // the solver stops on impulse changes below 1e-8
    SNT_CHECK(acos(up[2]) > 0.02 && sn_system_kinetic_energy(b) < 1e-8);
    sn_world_destroy(w);
    return 0;
}


SNT_SUITE(SNT_TEST(test_flat_field_is_the_plane), SNT_TEST(test_terrain_height),
          SNT_TEST(test_box_slides_down_tilted_field), SNT_TEST(test_ball_rolls_down_tilted_field),
          SNT_TEST(test_outside_the_field), SNT_TEST(test_bad_fields),
          SNT_TEST(test_ball_settles_in_groove), SNT_TEST(test_box_bridges_groove),
          SNT_TEST(test_box_rests_on_bump))
