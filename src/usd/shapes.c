// SPDX-License-Identifier: Apache-2.0
// shapes.c: the USD builder's geometry and masses (docs/usd.md): Cube, Sphere, Cylinder and
// Capsule prims as collision or visual geometry of their nearest rigid body (a static horizontal
// Plane the ground), their physics materials and densities, and each body's mass, centre and
// inertia from PhysicsMassAPI, what it leaves out computed from the collision shapes.
#include "usd/build.h"

#include <stdio.h>

// ---- mass ----

// the volume and the inertia per unit density about its centre, in its own frame, of a collision
// shape (sinew's sizes: box full lengths, cylinder and capsule radius and length along z)
static sn_real shape_inertia(const sni_geom* g, sn_real* I) {
    const sn_real* z = g->size;
    sn_real V = 0, pi = 3.14159265358979323846;
    memset(I, 0, 9 * sizeof(sn_real));
    switch (g->type) {
    case SN_GEOM_BOX:
        V = z[0] * z[1] * z[2];
        I[0] = V * (z[1] * z[1] + z[2] * z[2]) / 12;
        I[4] = V * (z[0] * z[0] + z[2] * z[2]) / 12;
        I[8] = V * (z[0] * z[0] + z[1] * z[1]) / 12;
        break;
    case SN_GEOM_SPHERE:
        V = 4 * pi * z[0] * z[0] * z[0] / 3;
        I[0] = I[4] = I[8] = 0.4 * V * z[0] * z[0];
        break;
    case SN_GEOM_ELLIPSOID:
        V = 4 * pi * z[0] * z[1] * z[2] / 3;
        I[0] = 0.2 * V * (z[1] * z[1] + z[2] * z[2]);
        I[4] = 0.2 * V * (z[0] * z[0] + z[2] * z[2]);
        I[8] = 0.2 * V * (z[0] * z[0] + z[1] * z[1]);
        break;
    case SN_GEOM_CYLINDER:
        V = pi * z[0] * z[0] * z[1];
        I[0] = I[4] = V * (3 * z[0] * z[0] + z[1] * z[1]) / 12;
        I[8] = V * z[0] * z[0] / 2;
        break;
    case SN_GEOM_CAPSULE: { // a cylinder of length h and two half balls
        sn_real r = z[0], h = z[1], Vc = pi * r * r * h, Vs = 4 * pi * r * r * r / 3;
        V = Vc + Vs;
        I[0] = I[4] =
            Vc * (h * h / 12 + r * r / 4) + Vs * (0.4 * r * r + h * h / 4 + 3 * h * r / 8);
        I[8] = Vc * r * r / 2 + Vs * 0.4 * r * r;
        break;
    }
    default:
        break;
    }
    return V;
}

// per link, its collision shapes at their densities about the link's origin: mass (1), first
// moment (3), inertia (9); one pass over the geometry
#define SUMS 13
static void collider_sums(const builder* b, sn_real* sums) {
    const sni_geom* g = (const sni_geom*)b->s->geoms.data;
    const sn_real* rho = (const sn_real*)b->density.data;
    for (int k = 0; k < SNI_NGEOM(b->s); k++) {
        if (g[k].is_visual) continue;
        sn_real Ig[9], Iw[9];
        sn_real m = rho[k] * shape_inertia(&g[k], Ig);
        if (!(m > 0)) continue;
        sn_real* S = sums + SUMS * g[k].link;
        for (int i = 0; i < 9; i++)
            Ig[i] *= rho[k];
        m3_rotate_sym(Iw, g[k].rot, Ig);
        // about the link's origin: the shape's own plus its mass at its centre
        const sn_real* p = g[k].pos;
        sn_real pp = v3_dot(p, p);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                S[4 + 3 * i + j] += Iw[3 * i + j] + m * ((i == j) * pp - p[i] * p[j]);
        S[0] += m;
        v3_addscl(S + 1, p, m);
    }
}

// the mass, centre and inertia about it of a link's collision shapes from its sums; 0 when it
// has none
static int collider_mass(const sn_real* S, sn_real* mass, sn_real* com, sn_real* I) {
    sn_real M = S[0], c[3];
    if (!(M > 0)) return 0;
    v3_scale(c, S + 1, 1 / M);
    sn_real cc = v3_dot(c, c);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            I[3 * i + j] = S[4 + 3 * i + j] - M * ((i == j) * cc - c[i] * c[j]);
    *mass = M;
    v3_copy(com, c);
    return 1;
}

// a body's mass, centre of mass and inertia in its link frame: what PhysicsMassAPI gives, the
// rest from its collision shapes at their densities (as UsdPhysics computes them)
static sn_status body_mass(builder* b, body* bd, sni_link* l, const sn_real* sums) {
    sni_usd_doc* d = b->d;
    int prim = bd->prim;
    sn_real mass = 0, com[3] = {0, 0, 0}, diag[3] = {0, 0, 0}, pa[4] = {1, 0, 0, 0};
    int hm = sni_usd_get_reals(b, prim, "physics:mass", &mass, 1);
    int hc = sni_usd_get_reals(b, prim, "physics:centerOfMass", com, 3);
    int hi = sni_usd_get_reals(b, prim, "physics:diagonalInertia", diag, 3);
    int hp = sni_usd_get_reals(b, prim, "physics:principalAxes", pa, 4);
    if (hm < 0 || hc < 0 || hi < 0 || hp < 0) return d->st;
    // given: a positive mass, a finite centre (USD's unset value is -inf), three positive moments
    if (hm && !(mass >= 0 && isfinite(mass)))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "physics:mass is negative or not finite%s%s",
                              NULL, NULL);
    int given_m = hm && mass > 0;
    int given_c = hc && isfinite(com[0]) && isfinite(com[1]) && isfinite(com[2]);
    int given_i = hi && diag[0] > 0 && diag[1] > 0 && diag[2] > 0 && isfinite(diag[0]) &&
                  isfinite(diag[1]) && isfinite(diag[2]);
    if (hi && !given_i && (diag[0] != 0 || diag[1] != 0 || diag[2] != 0))
        return sni_usd_refuse(
            b, prim, SN_ERR_MODEL,
            "physics:diagonalInertia needs three positive moments (or zeros: computed "
            "from the colliders)%s%s",
            NULL, NULL);
    if (!(pa[0] * pa[0] + pa[1] * pa[1] + pa[2] * pa[2] + pa[3] * pa[3] > 1e-12))
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "physics:principalAxes is not a rotation%s%s",
                              NULL, NULL);
    sn_real cm = 0, cc[3] = {0, 0, 0}, cI[9] = {0};
    int shapes = collider_mass(sums + SUMS * bd->link, &cm, cc, cI); // link frame, SI units
    if ((!given_m || !given_i) && !shapes)
        return sni_usd_refuse(
            b, prim, SN_ERR_MODEL,
            "the body needs physics:mass > 0 and physics:diagonalInertia (PhysicsMassAPI), "
            "or collision shapes (Cube, Sphere, Cylinder, Capsule) to compute them from%s%s",
            NULL, NULL);
    l->has_inertial = 1;
    l->inertial_line = USD_PRIM(d, prim)->line;
    l->mass = given_m ? mass * b->kpu : cm;
    if (given_c || !shapes) { // without either, the body's origin
        v3_scale(com, given_c ? com : cc, b->mpu);
        m3_mul_v3(l->com, bd->O.A, com);
        v3_add(l->com, l->com, bd->O.t);
    } else {
        v3_copy(l->com, cc);
    }
    if (given_i) {
        sn_real R[9], I[9] = {0}, Rl[9];
        sni_usd_quat_to_m3(R, pa);
        sn_real l2 = b->mpu * b->mpu;
        I[0] = diag[0] * b->kpu * l2, I[4] = diag[1] * b->kpu * l2, I[8] = diag[2] * b->kpu * l2;
        m3_mul(Rl, bd->O.A, R);
        m3_rotate_sym(l->inertia, Rl, I);
    } else {
        // the shapes' inertia scaled to the body's mass, moved to its centre of mass
        sn_real k = l->mass / cm, dv[3];
        v3_sub(dv, l->com, cc);
        sn_real dd = v3_dot(dv, dv);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                l->inertia[3 * i + j] =
                    k * cI[3 * i + j] + l->mass * ((i == j) * dd - dv[i] * dv[j]);
    }
    return SN_OK;
}

// ---- geometry ----

static sn_status add_geom(builder* b, int prim, int link, const aff* G, int type,
                          const sn_real* size, int is_visual, sn_real density) {
    sni_geom* g = sni_buf_grow(&b->s->geoms, sizeof(sni_geom));
    if (!g || sni_buf_push(&b->density, &density, sizeof density) < 0)
        return sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
    memset(g, 0, sizeof *g);
    g->name = -1;
    g->link = link;
    g->line = USD_PRIM(b->d, prim)->line;
    g->is_visual = is_visual;
    g->type = type;
    g->mesh = g->material = -1;
    g->friction = (sn_real)NAN;
    v3_copy(g->size, size);
    v3_copy(g->pos, G->t);
    memcpy(g->rot, G->A, sizeof g->rot);
    return SN_OK;
}

// the friction and the density of the physics material a prim or its ancestors bind (NaN:
// none given)
static sn_status bound_material(builder* b, int prim, sn_real* mu, sn_real* rho) {
    sni_usd_doc* d = b->d;
    *mu = *rho = (sn_real)NAN;
    for (int p = prim; p > 0; p = USD_PRIM(d, p)->parent) {
        // each prim's binding is looked up once (b->binding: -2 not yet, -1 none)
        if (b->binding[p] == -2) {
            int k = sni_usd_prop_find(d, p, "material:binding:physics"), target = -1, tok;
            if (k < 0) k = sni_usd_prop_find(d, p, "material:binding");
            if (k >= 0 && sni_usd_rel(d, k, &target, &tok) < 0) return d->st;
            b->binding[p] =
                target >= 0 && (USD_PRIM(d, target)->api & USD_API_MATERIAL) ? target : -1;
        }
        int target = b->binding[p];
        if (target < 0) continue;
        sn_real v = 0, r = 0;
        int hv = sni_usd_get_reals(b, target, "physics:dynamicFriction", &v, 1);
        int hr = sni_usd_get_reals(b, target, "physics:density", &r, 1);
        if (hv < 0 || hr < 0) return d->st;
        if (hv > 0 && v >= 0 && isfinite(v)) *mu = v;
        if (hr > 0 && r > 0 && isfinite(r)) *rho = r;
        return SN_OK;
    }
    return SN_OK;
}

// a density given on a prim (physics:density > 0), NaN when none
static sn_status own_density(builder* b, int prim, sn_real* rho) {
    *rho = (sn_real)NAN;
    if (prim < 0) return SN_OK;
    sn_real r = 0;
    int h = sni_usd_get_reals(b, prim, "physics:density", &r, 1);
    if (h < 0) return b->d->st;
    if (h > 0 && r > 0 && isfinite(r)) *rho = r;
    return SN_OK;
}

sn_status sni_usd_geometry(builder* b, int prim) {
    sni_usd_doc* d = b->d;
    const char* kinds[] = {"Cube", "Sphere", "Cylinder", "Capsule", "Plane", "Mesh", "Cone", NULL};
    int kind = -1;
    for (int k = 0; kinds[k]; k++)
        if (sni_usd_type_is(d, prim, kinds[k])) kind = k;
    if (kind < 0) return SN_OK;
    unsigned api = USD_PRIM(d, prim)->api;
    int collides = (api & USD_API_COLLISION) != 0;
    int en = 1;
    if (sni_usd_get_bool(b, prim, "physics:collisionEnabled", &en) < 0) return d->st;
    if (!en) collides = 0;
    char tok[32] = "";
    if (sni_usd_get_token(b, prim, "visibility", tok, sizeof tok) < 0) return d->st;
    int visible = strcmp(tok, "invisible") != 0;
    tok[0] = 0;
    if (sni_usd_get_token(b, prim, "purpose", tok, sizeof tok) < 0) return d->st;
    if (!strcmp(tok, "guide")) visible = 0;
    if (!collides && !visible) return SN_OK;
    if (kind == 5 || kind == 6) {
        if (!b->warned_mesh) {
            b->warned_mesh = 1;
            sni_usd_warn(b, prim,
                         "%s prims are not loaded (sinew reads Cube, Sphere, Cylinder and Capsule)",
                         kind == 5 ? "Mesh" : "Cone");
        }
        return SN_OK;
    }
    int owner = b->owner[prim];
    const aff* W = &b->world[prim];
    // the rotation and the scale along its columns
    sn_real sc[3], R[9];
    for (int c = 0; c < 3; c++) {
        sn_real col[3] = {W->A[c], W->A[3 + c], W->A[6 + c]};
        sc[c] = v3_norm(col);
        if (!(sc[c] > 0))
            return sni_usd_refuse(b, prim, SN_ERR_MODEL, "the geometry is scaled to zero%s%s", NULL,
                                  NULL);
        for (int r = 0; r < 3; r++)
            R[3 * r + c] = W->A[3 * r + c] / sc[c];
        sc[c] *= b->mpu;
    }
    if (sni_usd_rot_error(R) > ROT_TOL)
        return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                              "the geometry's transform is sheared or mirrored%s%s", NULL, NULL);
    aff Gw;
    memcpy(Gw.A, R, sizeof R);
    v3_scale(Gw.t, W->t, b->mpu);
    if (kind == 4) { // a plane: the ground, when static, horizontal and colliding
        if (owner >= 0 || !collides) return SN_OK;
        char pax[8] = "Z";
        if (sni_usd_get_token(b, prim, "axis", pax, sizeof pax) < 0) return d->st;
        if (strlen(pax) != 1 || !strchr("XYZ", pax[0]))
            return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                                  "axis is \"%s\": USD knows \"X\", \"Y\", \"Z\"", pax, NULL);
        int na = pax[0] - 'X'; // the plane's normal: that column of its rotation
        if (fabs(R[6 + na]) < 1 - 1e-9) {
            sni_usd_warn(b, prim, "a tilted Plane%s is not the ground: not loaded", NULL);
            return SN_OK;
        }
        sn_real mu, rho;
        if (bound_material(b, prim, &mu, &rho) != SN_OK) return d->st;
        b->s->option_has_ground = 1;
        b->s->option_ground_height = Gw.t[2];
        b->s->option_ground_friction = isnan(mu) ? 0.8 : mu;
        b->s->option_ground_condim = 3;
        return SN_OK;
    }
    int link;
    aff G;
    if (owner >= 0) {
        link = b->bodies[owner].link;
        sni_usd_rigid_inv(&G, &b->bodies[owner].L);
        sni_usd_aff_mul(&G, &G, &Gw);
    } else if (b->has_world_link) {
        link = 0;
        G = Gw;
    } else {
        sni_usd_warn(b, prim, "static geometry%s is not loaded with a floating base", NULL);
        return SN_OK;
    }
    sn_real size[3] = {0, 0, 0};
    int type;
    if (kind == 0) {
        sn_real s = 2;
        if (sni_usd_get_reals(b, prim, "size", &s, 1) < 0) return d->st;
        type = SN_GEOM_BOX;
        v3_set(size, s * sc[0], s * sc[1], s * sc[2]);
    } else if (kind == 1) {
        sn_real r = 1;
        if (sni_usd_get_reals(b, prim, "radius", &r, 1) < 0) return d->st;
        int uniform = fabs(sc[0] - sc[1]) <= 1e-9 * sc[0] && fabs(sc[0] - sc[2]) <= 1e-9 * sc[0];
        type = uniform ? SN_GEOM_SPHERE : SN_GEOM_ELLIPSOID;
        v3_set(size, r * sc[0], uniform ? 0 : r * sc[1], uniform ? 0 : r * sc[2]);
    } else {
        sn_real r = kind == 2 ? 1 : 0.5, h = kind == 2 ? 2 : 1;
        char ax[8] = "Z";
        if (sni_usd_get_reals(b, prim, "radius", &r, 1) < 0 ||
            sni_usd_get_reals(b, prim, "height", &h, 1) < 0 ||
            sni_usd_get_token(b, prim, "axis", ax, sizeof ax) < 0)
            return d->st;
        if (strlen(ax) != 1 || !strchr("XYZ", ax[0]))
            return sni_usd_refuse(b, prim, SN_ERR_MODEL,
                                  "axis is \"%s\": USD knows \"X\", \"Y\", \"Z\"", ax, NULL);
        int a = ax[0] - 'X', p1 = (a + 1) % 3, p2 = (a + 2) % 3;
        if (fabs(sc[p1] - sc[p2]) > 1e-9 * sc[p1])
            return sni_usd_refuse(
                b, prim, SN_ERR_MODEL,
                "the %s is scaled unevenly across its axis: not a circular section%s",
                kind == 2 ? "cylinder" : "capsule", NULL);
        type = kind == 2 ? SN_GEOM_CYLINDER : SN_GEOM_CAPSULE;
        v3_set(size, r * sc[p1], h * sc[a], 0);
        // sinew's cylinders and capsules lie along z: turn z onto the file's axis
        if (a != 2) {
            sn_real T[9], M[9];
            if (a == 0)
                sni_usd_rot_axis(T, 1, 90 * DEG); // z onto x
            else
                sni_usd_rot_axis(T, 0, -90 * DEG); // z onto y
            m3_mul(M, G.A, T);
            memcpy(G.A, M, sizeof M);
        }
    }
    if (!(size[0] > 0) || !isfinite(size[0]) || !isfinite(size[1]) || !isfinite(size[2]) ||
        size[1] < 0 || size[2] < 0)
        return sni_usd_refuse(b, prim, SN_ERR_MODEL, "the geometry's size is not positive%s%s",
                              NULL, NULL);
    if (collides) {
        // its density: the collider's own, else its body's, else its material's, else water's
        sn_real mu, rho_m, rho_g, rho_b;
        if (bound_material(b, prim, &mu, &rho_m) != SN_OK || own_density(b, prim, &rho_g) != SN_OK)
            return d->st;
        rho_b = (sn_real)NAN;
        if (owner >= 0) { // the body's, read once for all its shapes
            body* ob = &b->bodies[owner];
            if (!ob->density_read && own_density(b, ob->prim, &ob->density) != SN_OK) return d->st;
            ob->density_read = 1;
            rho_b = ob->density;
        }
        sn_real rho = !isnan(rho_g) ? rho_g : !isnan(rho_b) ? rho_b : !isnan(rho_m) ? rho_m : 1000;
        if (isnan(rho_g) && isnan(rho_b) && isnan(rho_m))
            rho = 1000;
        else
            rho *= b->kpu / (b->mpu * b->mpu * b->mpu);
        if (add_geom(b, prim, link, &G, type, size, 0, rho) != SN_OK) return d->st;
        sni_geom* g = (sni_geom*)b->s->geoms.data + SNI_NGEOM(b->s) - 1;
        g->friction = mu;
    }
    if (visible && add_geom(b, prim, link, &G, type, size, 1, 0) != SN_OK) return d->st;
    return SN_OK;
}

sn_status sni_usd_masses(builder* b) {
    size_t bytes = ((size_t)SNI_NLINK(b->s) + 1) * SUMS * sizeof(sn_real);
    sn_real* sums = sni_alloc(b->d->a, bytes);
    if (!sums) return sni_usd_fail(b->d, 0, SN_ERR_NOMEM, "", "out of memory");
    collider_sums(b, sums);
    for (int i = 0; i < b->nbody && b->d->st == SN_OK; i++)
        body_mass(b, &b->bodies[i], (sni_link*)b->s->links.data + b->bodies[i].link, sums);
    sni_free(b->d->a, sums, bytes);
    return b->d->st;
}
