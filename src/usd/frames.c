// SPDX-License-Identifier: Apache-2.0
// frames.c: what the USD builder (physics.c, shapes.c) asks of the prims: messages naming a
// prim's line and path, typed property lookups, and the prims' frames in the world from their
// transform operations (xformOpOrder), the stage's up axis and units (docs/usd.md).
#include "usd/build.h"

#include <stdio.h>

// ---- messages ----

static const char* path_of(builder* b, int prim, char* buf, size_t cap) {
    return sni_usd_path(b->d, prim, buf, cap);
}

sn_status sni_usd_refuse(builder* b, int prim, sn_status code, const char* fmt, const char* a1,
                         const char* a2) {
    char path[160], msg[400];
    snprintf(msg, sizeof msg, fmt, a1 ? a1 : "", a2 ? a2 : "");
    return sni_usd_fail(b->d, USD_PRIM(b->d, prim)->line, code, path_of(b, prim, path, sizeof path),
                        "%s", msg);
}

void sni_usd_warn(builder* b, int prim, const char* fmt, const char* a1) {
    char path[160];
    sni_spec_warn(b->s, USD_PRIM(b->d, prim)->line, path_of(b, prim, path, sizeof path), fmt,
                  a1 ? a1 : "");
}

// ---- property helpers: absent values leave the default, errors are recorded in the doc ----

int sni_usd_get_reals(builder* b, int prim, const char* name, sn_real* v, int n) {
    int k = sni_usd_prop_find(b->d, prim, name);
    return k < 0 ? 0 : sni_usd_reals(b->d, k, v, n);
}
int sni_usd_get_token(builder* b, int prim, const char* name, char* buf, size_t cap) {
    int k = sni_usd_prop_find(b->d, prim, name);
    return k < 0 ? 0 : sni_usd_token(b->d, k, buf, cap);
}
int sni_usd_get_bool(builder* b, int prim, const char* name, int* v) {
    int k = sni_usd_prop_find(b->d, prim, name);
    return k < 0 ? 0 : sni_usd_bool(b->d, k, v);
}
int sni_usd_type_is(const sni_usd_doc* d, int prim, const char* t) {
    int k = USD_PRIM(d, prim)->type;
    return k >= 0 && sni_usd_tok_is(d, k, t);
}
int sni_usd_on_stage(const sni_usd_doc* d, int prim) {
    const sni_usd_prim* p = USD_PRIM(d, prim);
    return !p->in_class && p->specifier == 0;
}


// ---- transforms ----

// one transform operation by name ("xformOp:translate", "!invert!xformOp:orient") into x
static sn_status one_op(builder* b, int prim, const char* opname, aff* x) {
    sni_usd_doc* d = b->d;
    int invert = !strncmp(opname, "!invert!", 8);
    const char* name = invert ? opname + 8 : opname;
    sni_usd_aff_identity(x);
    if (strncmp(name, "xformOp:", 8))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                              "xformOpOrder names '%s', not a transform operation", opname, NULL);
    const char* kind = name + 8;
    size_t kn = strcspn(kind, ":");
    int k = sni_usd_prop_find(d, prim, name);
    if (k < 0)
        return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                              "xformOpOrder names '%s', which the prim does not have", name, NULL);
    sn_real v[16];
    int r = 0;
    if (kn == 9 && !strncmp(kind, "translate", 9)) {
        if ((r = sni_usd_reals(d, k, v, 3)) > 0) v3_copy(x->t, v);
    } else if (kn == 5 && !strncmp(kind, "scale", 5)) {
        if ((r = sni_usd_reals(d, k, v, 3)) > 0) {
            memset(x->A, 0, sizeof x->A);
            x->A[0] = v[0], x->A[4] = v[1], x->A[8] = v[2];
        }
    } else if (kn == 6 && !strncmp(kind, "orient", 6)) {
        if ((r = sni_usd_reals(d, k, v, 4)) > 0) {
            if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3] > 1e-12))
                return sni_usd_refuse(b, prim, SN_ERR_MODEL, "%s is a zero quaternion", name, NULL);
            sni_usd_quat_to_m3(x->A, v);
        }
    } else if (kn == 7 && !strncmp(kind, "rotate", 6) && strchr("XYZ", kind[6])) {
        if ((r = sni_usd_reals(d, k, v, 1)) > 0) sni_usd_rot_axis(x->A, kind[6] - 'X', v[0] * DEG);
    } else if (kn == 9 && !strncmp(kind, "rotate", 6)) {
        // rotateXYZ: about X first, then Y, then Z (the first letter applies first)
        const char* ax = kind + 6;
        int ok = strchr("XYZ", ax[0]) && strchr("XYZ", ax[1]) && strchr("XYZ", ax[2]) &&
                 ax[0] != ax[1] && ax[1] != ax[2] && ax[0] != ax[2];
        if (!ok)
            return sni_usd_refuse(b, prim, SN_ERR_MODEL, "unknown transform operation '%s'", name,
                                  NULL);
        if ((r = sni_usd_reals(d, k, v, 3)) > 0) {
            for (int i = 0; i < 3; i++) {
                sn_real R[9], t[9];
                sni_usd_rot_axis(R, ax[i] - 'X', v[ax[i] - 'X'] * DEG);
                m3_mul(t, R, x->A);
                memcpy(x->A, t, sizeof t);
            }
        }
    } else if (kn == 9 && !strncmp(kind, "transform", 9)) {
        // a row-vector matrix: p' = p M, the translation in the last row
        if ((r = sni_usd_reals(d, k, v, 16)) > 0) {
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    x->A[3 * i + j] = v[4 * j + i];
            v3_set(x->t, v[12], v[13], v[14]);
        }
    } else {
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "unknown transform operation '%s'", name,
                              NULL);
    }
    if (r < 0) return d->st;
    if (r == 0) return sni_usd_refuse(b, prim, SN_ERR_MODEL, "%s has no value", name, NULL);
    for (int i = 0; i < 9; i++)
        if (!isfinite(x->A[i]))
            return sni_usd_refuse(b, prim, SN_ERR_MODEL, "%s is not finite", name, NULL);
    if (!isfinite(x->t[0]) || !isfinite(x->t[1]) || !isfinite(x->t[2]))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "%s is not finite", name, NULL);
    if (invert && !sni_usd_aff_inv(x, x))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "%s cannot be inverted", opname, NULL);
    return SN_OK;
}

// every prim's frame in the world, in stage units, the stage's up axis turned to +z
sn_status sni_usd_world_frames(builder* b) {
    sni_usd_doc* d = b->d;
    int n = USD_NPRIM(d);
    sni_usd_aff_identity(&b->world[0]);
    if (d->up_axis == 1) sni_usd_rot_axis(b->world[0].A, 0, 90 * DEG); // +y up becomes +z up
    for (int i = 1; i < n && d->st == SN_OK; i++) {
        const sni_usd_prim* p = USD_PRIM(d, i);
        aff local;
        sni_usd_aff_identity(&local);
        int k = sni_usd_prop_find(d, i, "xformOpOrder"), ops[MAX_OPS], nops = 0;
        int reset = 0;
        if (k >= 0 && sni_usd_token_array(d, k, ops, MAX_OPS, &nops) < 0) return d->st;
        for (int o = 0; o < nops; o++) {
            char name[128];
            sni_usd_tok_str(d, ops[o], name, sizeof name);
            if (!strcmp(name, "!resetXformStack!")) {
                reset = 1;
                sni_usd_aff_identity(&local);
                continue;
            }
            aff x;
            if (one_op(b, i, name, &x) != SN_OK) return d->st;
            sni_usd_aff_mul(&local, &local, &x);
        }
        if (reset)
            sni_usd_aff_mul(&b->world[i], &b->world[0], &local);
        else
            sni_usd_aff_mul(&b->world[i], &b->world[p->parent], &local);
    }
    return d->st;
}

// a prim's frame in metres, refused when it is not rigid
sn_status sni_usd_rigid_frame(builder* b, int prim, const char* what, aff* out) {
    *out = b->world[prim];
    if (sni_usd_rot_error(out->A) > ROT_TOL)
        return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                              "%s's transform is scaled, sheared or mirrored: sinew reads rigid "
                              "frames for bodies and joints' prims (scale their geometry instead)",
                              what, NULL);
    v3_scale(out->t, out->t, b->mpu);
    if (!isfinite(out->t[0]) || !isfinite(out->t[1]) || !isfinite(out->t[2]))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "%s's position is not finite%s", what, NULL);
    return SN_OK;
}
