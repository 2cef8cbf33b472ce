// SPDX-License-Identifier: Apache-2.0
// gear.c: the coordinate of a hinge (its angle) or a slider (its displacement) with its Jacobian
// slices and J-dot x-dot, for the gear row c = q(joint_a) - ratio q(joint_b) - offset
// (docs/constraints.md "Gear"). Frames as in constraints.c: f_i = R Q e_i, anchors p = x + R r.
#include "base/smath.h"
#include "maxc/maxc.h"

#include <math.h>
#include <string.h>

static void frame_axes(sn_real f[3][3], const sni_maxc_body* b, const sn_real* Q) {
    sn_real F[9];
    m3_mul(F, b->R, Q);
    for (int i = 0; i < 3; i++)
        v3_set(f[i], F[i], F[3 + i], F[6 + i]);
}

// theta = atan2(y, x), x = fb2 . fa2, y = fb2 . fa3 (b's frame turned by theta about axis 1 of
// a's); theta-dot = k . (w_b - w_a), k = (x g - y h) / (x^2 + y^2), g = fb2 x fa3, h = fb2 x fa2
static void hinge_angle(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                        sn_real ref, sn_real* q, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    sn_real fa[3][3], fb[3][3];
    frame_axes(fa, a, k->Qa);
    frame_axes(fb, b, k->Qb);
    const sn_real *wa = a->w, *wb = b->w;
    sn_real x = v3_dot(fb[1], fa[1]), y = v3_dot(fb[1], fa[2]);
    sn_real r2 = x * x + y * y;
    sn_real th = atan2(y, x);
    th = ref + remainder(th - ref, 6.283185307179586476925);
    sn_real g[3], h[3], kk[3], dw[3];
    v3_cross(g, fb[1], fa[2]);
    v3_cross(h, fb[1], fa[1]);
    for (int i = 0; i < 3; i++)
        kk[i] = (x * g[i] - y * h[i]) / r2;
    v3_sub(dw, wb, wa);
    sn_real xd = v3_dot(h, dw), yd = v3_dot(g, dw);
    // g-dot = (w_b x fb2) x fa3 + fb2 x (w_a x fa3), h-dot likewise with fa2
    sn_real wfb[3], wfa2[3], wfa3[3], gd[3], hd[3];
    v3_cross(wfb, wb, fb[1]);
    v3_cross(wfa2, wa, fa[1]);
    v3_cross(wfa3, wa, fa[2]);
    v3_cross(gd, wfb, fa[2]);
    v3_addcross(gd, fb[1], wfa3);
    v3_cross(hd, wfb, fa[1]);
    v3_addcross(hd, fb[1], wfa2);
    sn_real s = 2 * (x * xd + y * yd) / r2;
    sn_real kd[3];
    for (int i = 0; i < 3; i++)
        kd[i] = (xd * g[i] + x * gd[i] - yd * h[i] - y * hd[i]) / r2 - s * kk[i];
    *q = th;
    memset(Ja, 0, 6 * sizeof(sn_real));
    memset(Jb, 0, 6 * sizeof(sn_real));
    v3_scale(Ja + 3, kk, -1);
    v3_copy(Jb + 3, kk);
    *jdot = v3_dot(kd, dw);
}

// q = e . d, e = fa1 (turning with a), d = p_b - p_a:
//   J_b = [e, s_b x e], J_a = [-e, -(s_a x e) + e x d]
//   J-dot x-dot = e . (beta_b - beta_a) + (w_a x (w_a x e)) . d + 2 (w_a x e) . d-dot
static void slider_disp(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                        sn_real* q, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    sn_real fa[3][3];
    frame_axes(fa, a, k->Qa);
    const sn_real* e = fa[0];
    sn_real sa[3], sb[3], pa[3], pb[3], d[3], va[3], vb[3], dd[3], ba[3], bb[3], t[3];
    m3_mul_v3(sa, a->R, k->ra);
    m3_mul_v3(sb, b->R, k->rb);
    v3_add(pa, a->x, sa);
    v3_add(pb, b->x, sb);
    v3_sub(d, pb, pa);
    v3_cross(va, a->w, sa);
    v3_add(va, va, a->v);
    v3_cross(vb, b->w, sb);
    v3_add(vb, vb, b->v);
    v3_sub(dd, vb, va);
    v3_cross(t, a->w, sa);
    v3_cross(ba, a->w, t);
    v3_cross(t, b->w, sb);
    v3_cross(bb, b->w, t);
    *q = v3_dot(e, d);
    v3_scale(Ja, e, -1);
    v3_cross(Ja + 3, e, sa); // -(s_a x e)
    v3_addcross(Ja + 3, e, d);
    v3_copy(Jb, e);
    v3_cross(Jb + 3, sb, e);
    sn_real we[3], wwe[3], db[3];
    v3_cross(we, a->w, e);
    v3_cross(wwe, a->w, we);
    v3_sub(db, bb, ba);
    *jdot = v3_dot(e, db) + v3_dot(wwe, d) + 2 * v3_dot(we, dd);
}

sn_status sni_mx_coord(const sni_maxc_con* k, const sni_maxc_body* a, const sni_maxc_body* b,
                       sn_real ref, sn_real* q, sn_real* Ja, sn_real* Jb, sn_real* jdot) {
    if (!k || !a || !q || !Ja || !Jb || !jdot) return SN_ERR_ARG;
    sni_maxc_body world;
    if (!b) {
        memset(&world, 0, sizeof world);
        m3_identity(world.R);
        b = &world;
    }
    if (k->kind == SNI_MAXC_HINGE)
        hinge_angle(k, a, b, ref, q, Ja, Jb, jdot);
    else if (k->kind == SNI_MAXC_SLIDER)
        slider_disp(k, a, b, q, Ja, Jb, jdot);
    else
        return SN_ERR_ARG;
    if (!isfinite(*q) || !isfinite(*jdot)) return SN_ERR_NONFINITE;
    return SN_OK;
}
