// SPDX-License-Identifier: Apache-2.0
// jacobian.c: point and frame Jacobians in the world frame, and J-dot u. A DOF with motion
// (w, v0) moves the body point at x with v0 + w x x and turns the body with w.
#include "dynamics/dyn.h"

void sn_point_jacobian(const sn_model* m, const sn_data* d, int body, const sn_real point[3],
                       sn_real* jp, sn_real* jr) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    SNI_REFUSE_NULL_VOID(point);
    int nv = m->nv;
    if (sni_bad_index(__func__, "body", body, m->nbody)) {
        sni_fill_nan(jp, 3 * nv);
        sni_fill_nan(jr, 3 * nv);
        return;
    }
    if (jp) memset(jp, 0, 3 * (size_t)nv * sizeof(sn_real));
    if (jr) memset(jr, 0, 3 * (size_t)nv * sizeof(sn_real));
    for (int k = sni_body_last_dof(m, body); k >= 0; k = m->dof_parent[k]) {
        const sn_real* s = d->dof_motion + 6 * k;
        if (jp) {
            sn_real v[3];
            v3_copy(v, s + 3);
            v3_addcross(v, s, point);
            jp[k] = v[0], jp[nv + k] = v[1], jp[2 * nv + k] = v[2];
        }
        if (jr) jr[k] = s[0], jr[nv + k] = s[1], jr[2 * nv + k] = s[2];
    }
}

void sn_frame_jacobian(const sn_model* m, const sn_data* d, int frame, sn_real* jp, sn_real* jr) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    if (sni_bad_index(__func__, "frame", frame, m->nframe)) {
        sni_fill_nan(jp, 3 * m->nv);
        sni_fill_nan(jr, 3 * m->nv);
        return;
    }
    sn_real x[3];
    sn_frame_pose(m, d, frame, x, NULL);
    sn_point_jacobian(m, d, m->frame_body[frame], x, jp, jr);
}

void sn_point_jdot_u(const sn_model* m, const sn_data* d, int body, const sn_real point[3],
                     sn_real lin[3], sn_real ang[3]) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(d);
    SNI_REFUSE_NULL_VOID(point);
    if (sni_bad_index(__func__, "body", body, m->nbody)) {
        sni_fill_nan(lin, 3);
        sni_fill_nan(ang, 3);
        return;
    }
    // spatial acceleration at udot = 0: the velocity-product terms summed along the path
    sn_real a[6] = {0, 0, 0, 0, 0, 0};
    for (int b = body; b > 0; b = m->body_parent[b])
        for (int e = 0; e < 6; e++)
            a[e] += d->dof_bias[6 * b + e];
    const sn_real* v = d->body_vel + 6 * body;
    sn_real vx[3];
    v3_copy(vx, v + 3);
    v3_addcross(vx, v, point);
    if (lin) {
        v3_copy(lin, a + 3);
        v3_addcross(lin, a, point);
        v3_addcross(lin, v, vx);
    }
    if (ang) v3_copy(ang, a);
}
