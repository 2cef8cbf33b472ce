// SPDX-License-Identifier: Apache-2.0
// integrate.c: moving a configuration along a generalized velocity. Angular velocities of the
// floating base are in the world frame and those of spherical joints in the parent-fixed joint
// frame, so both rotate their quaternion by a left product with exp(dt * w).
#include "dynamics/dyn.h"

// unit quaternion of the rotation vector r
static void quat_exp(sn_real* out, const sn_real* r) {
    sn_real th = v3_norm(r);
    sn_real s = th > 1e-8 ? sin(th / 2) / th : 0.5 - th * th / 48;
    out[0] = cos(th / 2);
    out[1] = r[0] * s;
    out[2] = r[1] * s;
    out[3] = r[2] * s;
}

static void turn(sn_real* qo, const sn_real* q, const sn_real* w, sn_real dt) {
    sn_real r[3], e[4], t[4];
    v3_scale(r, w, dt);
    quat_exp(e, r);
    quat_mul(t, e, q);
    sn_real n = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2] + t[3] * t[3]);
    for (int k = 0; k < 4; k++)
        qo[k] = t[k] / n;
}

void sn_integrate_q(const sn_model* m, const sn_real* q, const sn_real* u, sn_real dt,
                    sn_real* q_out) {
    SNI_REFUSE_NULL_VOID(m);
    SNI_REFUSE_NULL_VOID(q);
    SNI_REFUSE_NULL_VOID(u);
    SNI_REFUSE_NULL_VOID(q_out);
    if (!isfinite(dt)) {
        sni_refuse(SN_ERR_ARG, "sn_integrate_q: dt %g is not finite", dt);
        sni_fill_nan(q_out, m->nq);
        return;
    }
    for (int j = 0; j < m->njoint; j++) {
        int a = m->joint_qadr[j], v = m->joint_vadr[j];
        switch (m->joint_type[j]) {
        case SN_JOINT_FLOATING:
            for (int k = 0; k < 3; k++)
                q_out[a + k] = q[a + k] + dt * u[v + k];
            turn(q_out + a + 3, q + a + 3, u + v + 3, dt);
            break;
        case SN_JOINT_SPHERICAL:
            turn(q_out + a, q + a, u + v, dt);
            break;
        default:
            q_out[a] = q[a] + dt * u[v];
            break;
        }
    }
}
