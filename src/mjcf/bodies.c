// SPDX-License-Identifier: Apache-2.0
// bodies.c: the MJCF body tree into the spec. A body is a link; its joints chain through
// massless links when it has several, each joint at its own anchor; a body without joints is
// welded to its parent; a free joint on the one body of <worldbody> is the floating base, on
// other bodies of <worldbody> a floating joint from the world. A body's mass comes from its
// <inertial>, or from its geoms (mass or density) as MuJoCo's compiler computes it; its geoms
// collide (planes of <worldbody> are the world's ground) and its sites are kept for equalities.
#include "mjcf/mjcf.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- geoms: their mass and inertia as MuJoCo's compiler computes them ----

enum { G_PLANE, G_SPHERE, G_CAPSULE, G_ELLIPSOID, G_CYLINDER, G_BOX, G_MESH, G_OTHER };

static int geom_kind(const char* t) {
    static const char* names[] = {"plane",    "sphere", "capsule", "ellipsoid",
                                  "cylinder", "box",    "mesh"};
    for (int i = 0; i < 7; i++)
        if (!strcmp(t, names[i])) return i;
    return G_OTHER;
}

// volume and unit-density inertia (principal, about the centre, geom axes) of a primitive
static sn_real geom_volume(int kind, const sn_real* sz, sn_real* I) {
    sn_real r = sz[0], h, v;
    switch (kind) {
    case G_SPHERE:
        v = 4.0 / 3 * M_PI * r * r * r;
        I[0] = I[1] = I[2] = 0.4 * v * r * r;
        return v;
    case G_CAPSULE: {
        h = 2 * sz[1];
        sn_real vs = 4.0 / 3 * M_PI * r * r * r, vc = M_PI * r * r * h;
        I[0] = I[1] =
            vc * (h * h / 12 + r * r / 4) + vs * (0.4 * r * r + h * h / 4 + 3 * h * r / 8);
        I[2] = 0.4 * vs * r * r + 0.5 * vc * r * r;
        return vs + vc;
    }
    case G_CYLINDER:
        h = 2 * sz[1];
        v = M_PI * r * r * h;
        I[0] = I[1] = v * (r * r / 4 + h * h / 12);
        I[2] = 0.5 * v * r * r;
        return v;
    case G_ELLIPSOID:
        v = 4.0 / 3 * M_PI * sz[0] * sz[1] * sz[2];
        I[0] = v * (sz[1] * sz[1] + sz[2] * sz[2]) / 5;
        I[1] = v * (sz[0] * sz[0] + sz[2] * sz[2]) / 5;
        I[2] = v * (sz[0] * sz[0] + sz[1] * sz[1]) / 5;
        return v;
    case G_BOX:
        v = 8 * sz[0] * sz[1] * sz[2];
        I[0] = v * (sz[1] * sz[1] + sz[2] * sz[2]) / 3;
        I[1] = v * (sz[0] * sz[0] + sz[2] * sz[2]) / 3;
        I[2] = v * (sz[0] * sz[0] + sz[1] * sz[1]) / 3;
        return v;
    default:
        I[0] = I[1] = I[2] = 0;
        return 0;
    }
}

// a geom's placement, size and kind, fromto resolved: 0, or -1 on error
static int geom_shape(loader* L, int node, int cls, int* kind, sn_real* size, sn_real* pos,
                      sn_real* R) {
    reader* r = L->r;
    const char* t = sni_mjcf_attr_of(L, node, cls, "type");
    *kind = geom_kind(t ? t : "sphere");
    if (*kind == G_OTHER) {
        sni_mjcf_fail(
            r, node, SN_ERR_MODEL, "geom",
            "geom type '%s' is not supported (plane, sphere, capsule, ellipsoid, cylinder, box, "
            "mesh; a height field in <worldbody> only)%s",
            t, !strcmp(t, "sdf") ? ": sdf geoms are MuJoCo 3's" : "");
        return -1;
    }
    v3_set(size, 0, 0, 0);
    v3_set(pos, 0, 0, 0);
    if (sni_mjcf_reals(L, node, cls, "size", size, 1) < 0) {
        // sizes have 1 to 3 numbers
        r->st = SN_OK;
        if (r->err) memset(r->err, 0, sizeof *r->err);
        int n = 0;
        const char* v = sni_mjcf_attr_of(L, node, cls, "size");
        sn_real buf[3] = {0, 0, 0};
        for (n = 3; n >= 1; n--)
            if (sni_parse_reals(v, buf, n) == SNI_NUM_OK) break;
        if (n < 1) {
            sni_mjcf_fail(r, node, SN_ERR_PARSE, "geom",
                          "attribute size=\"%.60s\" is not 1 to 3 numbers", v);
            return -1;
        }
        memcpy(size, buf, sizeof buf);
    }
    if (sni_mjcf_reals(L, node, cls, "pos", pos, 3) < 0) return -1;
    if (sni_mjcf_orientation(L, node, cls, R) < 0) return -1;
    sn_real ft[6];
    int k = sni_mjcf_reals(L, node, cls, "fromto", ft, 6);
    if (k < 0) return -1;
    if (k > 0) {
        if (*kind != G_CAPSULE && *kind != G_CYLINDER && *kind != G_BOX && *kind != G_ELLIPSOID) {
            sni_mjcf_fail(r, node, SN_ERR_MODEL, "geom",
                          "fromto is for capsule, cylinder, box and "
                          "ellipsoid geoms");
            return -1;
        }
        sn_real d[3] = {ft[3] - ft[0], ft[4] - ft[1], ft[5] - ft[2]};
        sn_real len = v3_norm(d);
        if (!(len > 0)) {
            sni_mjcf_fail(r, node, SN_ERR_MODEL, "geom", "fromto: the two points coincide");
            return -1;
        }
        v3_set(pos, (ft[0] + ft[3]) / 2, (ft[1] + ft[4]) / 2, (ft[2] + ft[5]) / 2);
        // the geom's z along the segment
        v3_scale(d, d, 1 / len);
        sni_mjcf_z_onto(R, d);
        if (*kind == G_BOX || *kind == G_ELLIPSOID)
            size[1] = size[0], size[2] = len / 2; // MuJoCo 2.2.2: square across the segment
        else
            size[1] = len / 2;
    }
    return 0;
}

// ---- links and joints of the spec ----

static long unique_name(loader* L, const char* base, int n) {
    char buf[96];
    snprintf(buf, sizeof buf, "%s%d", base, n);
    return sni_spec_name(L->r->s, buf);
}

sni_link* sni_mjcf_new_link(loader* L, long name, int line) {
    sni_link* l = sni_buf_grow(&L->r->s->links, sizeof(sni_link));
    if (!l) return NULL;
    memset(l, 0, sizeof *l);
    l->name = name;
    l->line = line;
    L->nlink++;
    return l;
}

static sni_joint* new_joint(loader* L, long name, int line, int type, long parent, long child) {
    sni_joint* j = sni_buf_grow(&L->r->s->joints, sizeof(sni_joint));
    if (!j) return NULL;
    memset(j, 0, sizeof *j);
    j->name = name;
    j->line = line;
    j->type = type;
    j->parent_name = parent;
    j->child_name = child;
    j->mimic_name = -1;
    m3_identity(j->rot);
    v3_set(j->axis, 0, 0, 1);
    j->effort = j->velocity = INFINITY; // MJCF joints have no effort or speed limits
    L->njoint++;
    return j;
}

static const char* const joint_read[] = {
    "name",         "class",     "type",      "axis",         "pos",
    "range",        "limited",   "ref",       "damping",      "armature",
    "frictionloss", "stiffness", "springref", "springdamper", NULL};
static const char* const geom_read[] = {"name",        "class",  "type",      "size",   "fromto",
                                        "pos",         "quat",   "axisangle", "euler",  "xyaxes",
                                        "zaxis",       "mass",   "density",   "mesh",   "contype",
                                        "conaffinity", "hfield", "friction",  "condim", NULL};
static const char* const body_read[] = {"name",  "childclass", "pos",   "quat", "axisangle",
                                        "euler", "xyaxes",     "zaxis", NULL};
static const char* const inertial_read[] = {"pos",   "quat", "axisangle",   "euler",       "xyaxes",
                                            "zaxis", "mass", "diaginertia", "fullinertia", NULL};

// coordinates and velocities of a spec joint
int sni_mjcf_spec_nq(int type) {
    return type == SN_JOINT_FLOATING    ? 7
           : type == SN_JOINT_SPHERICAL ? 4
           : type == SN_JOINT_FIXED     ? 0
                                        : 1;
}

int sni_mjcf_spec_nv(int type) {
    return type == SN_JOINT_FLOATING    ? 6
           : type == SN_JOINT_SPHERICAL ? 3
           : type == SN_JOINT_FIXED     ? 0
                                        : 1;
}

int sni_mjcf_joint_kind(const char* t) {
    if (!t || !strcmp(t, "hinge")) return SN_JOINT_REVOLUTE;
    if (!strcmp(t, "slide")) return SN_JOINT_PRISMATIC;
    if (!strcmp(t, "ball")) return SN_JOINT_SPHERICAL;
    if (!strcmp(t, "free")) return SN_JOINT_FLOATING;
    return -1;
}

// ---- a body's mass, geoms and sites ----

// the body's mass properties from its <inertial> or its geoms, into link l (body frame).
// About 100 lines: the two sources side by side, as MuJoCo's compiler reads them
static void body_inertia(loader* L, int body, int childclass, long link_name) {
    reader* r = L->r;
    int inertial = -1;
    for (int k = NODE(r, body).first; k >= 0; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "inertial"))
            inertial = k, sni_mjcf_list_unread(L, k, -1, inertial_read);
    int from_geoms = r->inertia_from_geom == 1 || (r->inertia_from_geom == 2 && inertial < 0);
    sn_real mass = 0, com[3] = {0, 0, 0}, I[9] = {0};
    if (!from_geoms && inertial >= 0) {
        sn_real pos[3] = {0, 0, 0}, R[9], d[6];
        if (sni_mjcf_reals(L, inertial, -1, "pos", pos, 3) < 0 ||
            sni_mjcf_orientation(L, inertial, -1, R) < 0)
            return;
        if (sni_mjcf_reals(L, inertial, -1, "mass", &mass, 1) <= 0) {
            if (r->st == SN_OK)
                sni_mjcf_fail(r, inertial, SN_ERR_MODEL, "inertial", "missing mass");
            return;
        }
        sn_real Ib[9] = {0};
        int k = sni_mjcf_reals(L, inertial, -1, "diaginertia", d, 3);
        if (k < 0) return;
        if (k > 0) {
            Ib[0] = d[0], Ib[4] = d[1], Ib[8] = d[2];
        } else if ((k = sni_mjcf_reals(L, inertial, -1, "fullinertia", d, 6)) > 0) {
            Ib[0] = d[0], Ib[4] = d[1], Ib[8] = d[2];
            Ib[1] = Ib[3] = d[3], Ib[2] = Ib[6] = d[4], Ib[5] = Ib[7] = d[5];
        } else {
            if (r->st == SN_OK)
                sni_mjcf_fail(r, inertial, SN_ERR_MODEL, "inertial",
                              "needs diaginertia or fullinertia");
            return;
        }
        m3_rotate_sym(I, R, Ib);
        v3_copy(com, pos);
    } else if (from_geoms) {
        // every geom of the body (MuJoCo counts the ones of group 3 and below; all here)
        sn_real msum = 0, c[3] = {0, 0, 0};
        typedef struct gm {
            sn_real m, pos[3], I[9]; // mass, centroid, inertia about it (body axes)
        } gm;
        gm geoms[256];
        int ng = 0;
        for (int k = NODE(r, body).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
            if (strcmp(ename(r, k), "geom")) continue;
            int cls = sni_mjcf_class_of(L, k, childclass), kind;
            sn_real size[3], pos[3], R[9], Iu[3];
            if (geom_shape(L, k, cls, &kind, size, pos, R) < 0) return;
            if (kind == G_PLANE) continue;
            sn_real vol, gmass = 0, density = 1000, Im[9], mc[3];
            if (kind == G_MESH) {
                // the solid the mesh encloses: its volume, centroid and inertia (unit density),
                // placed by the geom's frame
                int got = sni_mjcf_mesh_mass(L, k, cls, link_name, &vol, mc, Im);
                if (got <= 0) {
                    if (got < 0) return;
                    continue;
                }
                sn_real t[3];
                m3_mul_v3(t, R, mc);
                v3_add(pos, pos, t);
            } else {
                vol = geom_volume(kind, size, Iu);
                sn_real Id[9] = {Iu[0], 0, 0, 0, Iu[1], 0, 0, 0, Iu[2]};
                memcpy(Im, Id, sizeof Im);
            }
            int hm = sni_mjcf_reals(L, k, cls, "mass", &gmass, 1);
            if (hm < 0 || sni_mjcf_reals(L, k, cls, "density", &density, 1) < 0) return;
            if (hm == 0) gmass = density * vol;
            if (ng == 256) {
                sni_mjcf_fail(r, k, SN_ERR_LIMIT, "geom", "more than 256 geoms in one body");
                return;
            }
            gm* g = &geoms[ng++];
            g->m = gmass;
            v3_copy(g->pos, pos);
            // the inertia about the geom's centroid in the body's axes
            sn_real Is[9];
            for (int i = 0; i < 9; i++)
                Is[i] = vol > 0 ? Im[i] * gmass / vol : 0;
            m3_rotate_sym(g->I, R, Is);
            msum += gmass;
            v3_addscl(c, pos, gmass);
        }
        if (msum > 0) v3_scale(c, c, 1 / msum);
        for (int i = 0; i < ng; i++) {
            const sn_real* Iw = geoms[i].I;
            sn_real d[3];
            v3_sub(d, geoms[i].pos, c);
            sn_real dd = v3_dot(d, d), m = geoms[i].m;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    I[3 * a + b] += Iw[3 * a + b] + m * ((a == b ? dd : 0) - d[a] * d[b]);
        }
        mass = msum;
        v3_copy(com, c);
    }
    sni_link* l = &((sni_link*)r->s->links.data)[L->nlink - 1];
    l->has_inertial = mass > 0;
    l->inertial_line = l->line;
    l->mass = mass;
    v3_copy(l->com, com);
    memcpy(l->inertia, I, sizeof I);
}

// an integer attribute: the whole text (blanks around it allowed) one integer within int's range
static int int_value(const char* text, int* out) {
    char* end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || errno == ERANGE || v < INT_MIN || v > INT_MAX) return 0;
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
        end++;
    if (*end) return 0;
    *out = (int)v;
    return 1;
}

// a geom's sliding friction (the first of its friction numbers, 1 by default, as in MuJoCo) and
// condim (3 by default); 0 after an error
static int geom_friction(loader* L, int k, int cls, sn_real* mu, int* condim) {
    reader* r = L->r;
    const char* fs = sni_mjcf_attr_of(L, k, cls, "friction");
    sn_real f[3] = {1, 0.005, 0.0001};
    if (fs) {
        int n = 0;
        sni_num_result res = sni_parse_real_list(fs, f, 3, &n);
        if ((res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) || !(f[0] >= 0)) {
            sni_mjcf_fail(r, k, SN_ERR_PARSE, "geom",
                          "friction=\"%.60s\" is not 1 to 3 numbers >= 0", fs);
            return 0;
        }
    }
    const char* cd = sni_mjcf_attr_of(L, k, cls, "condim");
    *condim = 3;
    if ((cd && !int_value(cd, condim)) ||
        (*condim != 1 && *condim != 3 && *condim != 4 && *condim != 6)) {
        sni_mjcf_fail(r, k, SN_ERR_PARSE, "geom", "condim=\"%.60s\" is not 1, 3, 4 or 6", cd);
        return 0;
    }
    *mu = f[0];
    return 1;
}

// the collision shape of <geom> element k on link `link`
void sni_mjcf_one_geom(loader* L, int k, int childclass, int link) {
    reader* r = L->r;
    {
        int cls = sni_mjcf_class_of(L, k, childclass), kind;
        sn_real size[3], pos[3], R[9];
        sni_mjcf_list_unread(L, k, cls, geom_read);
        if (geom_shape(L, k, cls, &kind, size, pos, R) < 0) return;
        const char* ct = sni_mjcf_attr_of(L, k, cls, "contype");
        const char* ca = sni_mjcf_attr_of(L, k, cls, "conaffinity");
        int ict = 1, ica = 1;
        if ((ct && !int_value(ct, &ict)) || (ca && !int_value(ca, &ica))) {
            int bad_ct = ct && !int_value(ct, &ict);
            sni_mjcf_fail(r, k, SN_ERR_PARSE, "geom", "%s=\"%.60s\" is not an integer",
                          bad_ct ? "contype" : "conaffinity", bad_ct ? ct : ca);
            return;
        }
        int collides = !(ct && ca && ict == 0 && ica == 0);
        int type = kind == G_SPHERE      ? SN_GEOM_SPHERE
                   : kind == G_CAPSULE   ? SN_GEOM_CAPSULE
                   : kind == G_CYLINDER  ? SN_GEOM_CYLINDER
                   : kind == G_BOX       ? SN_GEOM_BOX
                   : kind == G_ELLIPSOID ? SN_GEOM_ELLIPSOID
                                         : -1;
        // a mesh from a file: its convex hull collides (the compiler reads it), placed by the
        // geom's frame with the file's coordinates scaled, as MuJoCo places it
        const mesh_rec* mr = NULL;
        if (kind == G_MESH) {
            const char* mn = sni_mjcf_attr_of(L, k, cls, "mesh");
            mr = mn ? sni_mjcf_mesh_find(L, mn) : NULL;
            if (mr && mr->path >= 0)
                type = SN_GEOM_MESH;
            else if (mr && collides && !L->inline_mesh_warned) {
                L->inline_mesh_warned = 1;
                sni_mjcf_warn(r, k, "geom",
                              "mesh '%s' is given inline: its geoms give mass but do not collide",
                              mn);
            }
        }
        if (type < 0) return; // planes on bodies do not collide
        sn_real mu;
        int condim;
        if (!geom_friction(L, k, cls, &mu, &condim)) return;
        sni_geom* g = sni_buf_grow(&r->s->geoms, sizeof(sni_geom));
        if (!g) {
            sni_mjcf_fail(r, k, SN_ERR_NOMEM, "geom", "out of memory");
            return;
        }
        memset(g, 0, sizeof *g);
        const char* gname = get(r, k, "name");
        g->name = gname ? sni_spec_name(r->s, gname) : -1;
        g->link = link;
        g->line = NODE(r, k).line;
        g->is_visual = !collides;
        g->type = type;
        g->mesh = g->material = -1;
        g->friction = mu;
        g->condim = condim;
        v3_copy(g->pos, pos);
        memcpy(g->rot, R, sizeof g->rot);
        // sinew's sizes: box full lengths; cylinder and capsule radius and full length; a
        // mesh's scale
        if (type == SN_GEOM_MESH) {
            v3_copy(g->size, mr->scale);
            g->mesh = sni_spec_name(r->s, STR(r, mr->path));
        } else if (type == SN_GEOM_ELLIPSOID) {
            v3_copy(g->size, size);
        } else if (type == SN_GEOM_BOX)
            v3_set(g->size, 2 * size[0], 2 * size[1], 2 * size[2]);
        else if (type == SN_GEOM_SPHERE)
            v3_set(g->size, size[0], 0, 0);
        else
            v3_set(g->size, size[0], 2 * size[1], 0);
    }
}

// the collision shapes of a body's <geom> children
static void body_geoms(loader* L, int body, int childclass, int link) {
    reader* r = L->r;
    for (int k = NODE(r, body).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "geom")) sni_mjcf_one_geom(L, k, childclass, link);
}

// a plane of <worldbody>: the ground, which is the world's (sn_world_set_ground); its height is
// kept for `sinew run` when it is horizontal
void sni_mjcf_world_plane(loader* L, int k) {
    reader* r = L->r;
    int kind;
    sn_real size[3], pos[3], R[9];
    if (geom_shape(L, k, sni_mjcf_class_of(L, k, L->main_class), &kind, size, pos, R) < 0) return;
    if (fabs(R[8] - 1) > 1e-9 || L->r->s->option_has_ground) {
        sni_mjcf_warn(r, k, "geom",
                      "a %s plane in <worldbody> is not loaded: the ground is the world's, one "
                      "horizontal plane (sn_world_set_ground)",
                      L->r->s->option_has_ground ? "second" : "tilted");
        return;
    }
    sn_real mu;
    int condim;
    if (!geom_friction(L, k, sni_mjcf_class_of(L, k, L->main_class), &mu, &condim)) return;
    r->s->option_has_ground = 1;
    r->s->option_ground_height = pos[2];
    r->s->option_ground_friction = mu;
    r->s->option_ground_condim = condim;
    sni_mjcf_warn(
        r, k, "geom",
        "the plane of <worldbody> is the world's ground (sn_world_set_ground): `sinew run` "
        "puts it at z = %g",
        pos[2]);
}

// a named <site> on link `link` (an unnamed one cannot be referred to)
void sni_mjcf_one_site(loader* L, int k, int childclass, long link) {
    reader* r = L->r;
    static const char* const site_read[] = {"name",  "class",  "pos",   "quat", "axisangle",
                                            "euler", "xyaxes", "zaxis", NULL};
    sni_mjcf_list_unread(L, k, sni_mjcf_class_of(L, k, childclass), site_read);
    const char* nm = get(r, k, "name");
    if (!nm) return;
    site_rec* sr = sni_buf_grow(&L->sites, sizeof(site_rec));
    if (!sr) {
        sni_mjcf_fail(r, k, SN_ERR_NOMEM, "site", "out of memory");
        return;
    }
    memset(sr, 0, sizeof *sr);
    sr->name = sni_spec_name(r->s, nm);
    sr->link = link;
    sr->line = NODE(r, k).line;
    int cls = sni_mjcf_class_of(L, k, childclass);
    if (sni_mjcf_reals(L, k, cls, "pos", sr->pos, 3) >= 0) sni_mjcf_orientation(L, k, cls, sr->R);
}

// the <site> children of a body, on its link
static void body_sites(loader* L, int node, int childclass, long link) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "site")) sni_mjcf_one_site(L, k, childclass, link);
}

// ---- the body tree ----

// a hinge, slide or ball joint's attributes into j (made by new_joint at its anchor): the axis,
// ref (the joint frame turned or moved back by it), range and limited, damping, armature,
// frictionloss, stiffness, springdamper and springref; -1 when one is refused (r->st says why)
static int joint_attributes(loader* L, int jn, int cls, int type, const sn_real* axis, sn_real ref,
                            sni_joint* j) {
    reader* r = L->r;
    sn_real range[2] = {0, 0}, v;
    sn_real n = v3_norm(axis);
    if (!(n > 0)) {
        sni_mjcf_fail(r, jn, SN_ERR_MODEL, "joint", "the axis is zero");
        return -1;
    }
    v3_scale(j->axis, axis, 1 / n);
    // ref: the body sits where the file puts it at q = ref, so the joint frame is turned (or
    // moved) back by ref along the axis; the nominal configuration holds q = ref
    if (ref != 0) {
        sn_real k = type == SN_JOINT_REVOLUTE && r->degree ? M_PI / 180 : 1, t[9];
        ref *= k;
        if (type == SN_JOINT_REVOLUTE) {
            sn_real Rr[9];
            axis_sincos_to_m3(Rr, j->axis, sin(-ref), cos(-ref));
            m3_mul(t, j->rot, Rr);
            memcpy(j->rot, t, sizeof t);
        } else {
            sn_real d[3];
            m3_mul_v3(d, j->rot, j->axis);
            v3_addscl(j->pos, d, -ref);
        }
        L->has_ref = 1;
    }
    if (L->njoint - 1 < MAX_REF_JOINTS) L->ref[L->njoint - 1] = ref;
    int kr = sni_mjcf_reals(L, jn, cls, "range", range, 2);
    if (kr < 0) return -1;
    const char* lim = sni_mjcf_attr_of(L, jn, cls, "limited");
    int limited = lim ? !strcmp(lim, "true") : (r->autolimits && kr > 0);
    if (lim && strcmp(lim, "true") && strcmp(lim, "false") && strcmp(lim, "auto")) {
        sni_mjcf_fail(r, jn, SN_ERR_PARSE, "joint", "limited=\"%s\" (true, false or auto)", lim);
        return -1;
    }
    if (lim && !strcmp(lim, "auto")) limited = r->autolimits && kr > 0;
    if (limited && type != SN_JOINT_SPHERICAL) {
        sn_real k = type == SN_JOINT_REVOLUTE && r->degree ? M_PI / 180 : 1;
        j->has_limit = j->has_lower = j->has_upper = 1;
        j->lower = range[0] * k, j->upper = range[1] * k;
        j->effort = j->velocity = INFINITY;
    } else if (type == SN_JOINT_REVOLUTE) {
        j->type = SN_JOINT_CONTINUOUS;
    }
    if (sni_mjcf_reals(L, jn, cls, "damping", &v, 1) > 0) j->damping = v;
    if (sni_mjcf_reals(L, jn, cls, "armature", &v, 1) > 0) j->armature = v;
    if (sni_mjcf_reals(L, jn, cls, "frictionloss", &v, 1) > 0) j->friction = v;
    if (sni_mjcf_reals(L, jn, cls, "stiffness", &v, 1) > 0) j->stiffness = v;
    // springdamper: both positive override stiffness and damping (the compiler's pass, from
    // the joint's inertia at the nominal configuration)
    sn_real sd[2];
    int nsd = sni_mjcf_reals(L, jn, cls, "springdamper", sd, 2);
    if (nsd < 0) return -1;
    if (nsd > 0 && sd[0] > 0 && sd[1] > 0) {
        if (type != SN_JOINT_REVOLUTE && type != SN_JOINT_PRISMATIC) {
            sni_mjcf_warn(r, jn, "joint",
                          "springdamper on a %s joint is not read (hinge and slide)",
                          type == SN_JOINT_SPHERICAL ? "ball" : "free");
        } else {
            j->spring_timeconst = sd[0];
            j->spring_dampratio = sd[1];
        }
    }
    // springref is an angle for a hinge (degrees under <compiler angle="degree">)
    if (sni_mjcf_reals(L, jn, cls, "springref", &v, 1) > 0)
        j->spring_ref = v * (type == SN_JOINT_REVOLUTE && r->degree ? M_PI / 180 : 1);
    return 0;
}


static void body_contents(loader* L, int node, int childclass, long name);

// a body and its subtree; root_free: the floating base's body; top: a body of <worldbody>.
// Long (about 145 lines) because it is one pass over the body's joints in file order: the free
// joint cases, then the chain of joints through massless links (the chain's state prev and
// jpos_prev local to the loop; each joint's attributes in joint_attributes), then the weld
void sni_mjcf_body(loader* L, int node, long parent_link, int parent_childclass, int root_free,
                   int top) {
    reader* r = L->r;
    int childclass = parent_childclass;
    const char* cc = get(r, node, "childclass");
    if (cc) {
        childclass = sni_mjcf_class_find(L, cc);
        if (childclass < 0) {
            sni_mjcf_fail(r, node, SN_ERR_MODEL, "body", "unknown childclass '%s'", cc);
            return;
        }
    }
    sni_mjcf_list_unread(L, node, -1, body_read);
    const char* nm = get(r, node, "name");
    // an unnamed body is "body<N>", N its id in MuJoCo's numbering (the world 0, then the bodies
    // depth first in file order)
    long name = nm ? sni_spec_name(r->s, nm) : unique_name(L, "body", ++L->nbody);
    if (nm) ++L->nbody;
    sn_real pos[3] = {0, 0, 0}, R[9];
    if (sni_mjcf_reals(L, node, -1, "pos", pos, 3) < 0 || sni_mjcf_orientation(L, node, -1, R) < 0)
        return;
    // the joints, in order
    int joints[64], nj = 0;
    for (int k = NODE(r, node).first; k >= 0; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        if (!strcmp(e, "joint") || !strcmp(e, "freejoint")) {
            if (nj == 64) {
                sni_mjcf_fail(r, k, SN_ERR_LIMIT, e, "more than 64 joints in one body");
                return;
            }
            joints[nj++] = k;
        } else if (strcmp(e, "body") && strcmp(e, "geom") && strcmp(e, "inertial") &&
                   strcmp(e, "site") && strcmp(e, "camera") && strcmp(e, "light")) {
            sni_mjcf_fail(r, k, SN_ERR_MODEL, e, "<%s> inside <body> is not supported", e);
            return;
        }
    }
    // a free joint: the floating base, on the first body of <worldbody> only, as its one joint
    int free_joint = 0;
    for (int i = 0; i < nj; i++) {
        const char* t = !strcmp(ename(r, joints[i]), "freejoint")
                            ? "free"
                            : sni_mjcf_attr_of(L, joints[i],
                                               sni_mjcf_class_of(L, joints[i], childclass), "type");
        if (sni_mjcf_joint_kind(t) == SN_JOINT_FLOATING) {
            if (!(root_free || top) || nj != 1) {
                sni_mjcf_fail(r, joints[i], SN_ERR_MODEL, ename(r, joints[i]),
                              "a free joint must be the one joint of a body of <worldbody>");
                return;
            }
            free_joint = 1;
        }
    }
    if (free_joint && root_free) {
        // the floating base: this body is the root link; its pose is the nominal configuration
        sni_link* l = sni_mjcf_new_link(L, name, NODE(r, node).line);
        if (!l) return;
        v3_copy(L->root_pose, pos);
        m3_to_quat(L->root_pose + 3, R);
        body_contents(L, node, childclass, name);
        return;
    }
    if (free_joint) {
        // a free body of a model with several bodies in <worldbody>: a floating joint from the
        // world at the world's origin; the body's pose in the file is its reference configuration
        const char* jname = get(r, joints[0], "name");
        long jl = jname ? sni_spec_name(r->s, jname) : unique_name(L, "joint", L->njoint);
        free_rec* fr = sni_buf_grow(&L->free_poses, sizeof(free_rec));
        sni_joint* j =
            fr ? new_joint(L, jl, NODE(r, joints[0]).line, SN_JOINT_FLOATING, parent_link, name)
               : NULL;
        if (!j || !sni_mjcf_new_link(L, name, NODE(r, node).line)) {
            sni_mjcf_fail(r, node, SN_ERR_NOMEM, "body", "out of memory");
            return;
        }
        fr->joint = L->njoint - 1;
        v3_copy(fr->pose, pos);
        m3_to_quat(fr->pose + 3, R);
        body_contents(L, node, childclass, name);
        return;
    }
    // the joints chain through massless links, each at its anchor; the last one carries the body
    long prev = parent_link;
    sn_real jpos_prev[3] = {0, 0, 0};
    for (int i = 0; i < nj && r->st == SN_OK; i++) {
        int jn = joints[i], cls = sni_mjcf_class_of(L, jn, childclass);
        if (!strcmp(ename(r, jn), "joint")) sni_mjcf_list_unread(L, jn, cls, joint_read);
        int type = sni_mjcf_joint_kind(sni_mjcf_attr_of(L, jn, cls, "type"));
        if (type < 0) {
            sni_mjcf_fail(r, jn, SN_ERR_MODEL, "joint", "joint type '%s' is not supported",
                          sni_mjcf_attr_of(L, jn, cls, "type"));
            return;
        }
        sn_real jp[3] = {0, 0, 0}, axis[3] = {0, 0, 1};
        if (sni_mjcf_reals(L, jn, cls, "pos", jp, 3) < 0 ||
            sni_mjcf_reals(L, jn, cls, "axis", axis, 3) < 0)
            return;
        sn_real ref = 0;
        if (sni_mjcf_reals(L, jn, cls, "ref", &ref, 1) < 0) return;
        if (ref != 0 && type != SN_JOINT_REVOLUTE && type != SN_JOINT_PRISMATIC) {
            sni_mjcf_fail(r, jn, SN_ERR_MODEL, "joint", "ref is for hinge and slide joints");
            return;
        }
        const char* jname = get(r, jn, "name");
        long jl = jname ? sni_spec_name(r->s, jname) : unique_name(L, "joint", L->njoint);
        // the last joint's child is the body's link when the joint sits at the body's origin;
        // else a massless link at the anchor, welded to the body's link below
        int last = i + 1 == nj, at_origin = jp[0] == 0 && jp[1] == 0 && jp[2] == 0;
        long child = last && at_origin ? name : unique_name(L, "link_of_joint", L->njoint);
        sni_joint* j = new_joint(L, jl, NODE(r, jn).line, type, prev, child);
        if (!j) return;
        // the joint frame sits at the anchor: the first from the parent through the body's pose,
        // the others from the previous anchor
        if (i == 0) {
            sn_real t[3];
            m3_mul_v3(t, R, jp);
            v3_add(j->pos, pos, t);
            memcpy(j->rot, R, sizeof j->rot);
        } else {
            v3_sub(j->pos, jp, jpos_prev);
        }
        v3_copy(jpos_prev, jp);
        if (joint_attributes(L, jn, cls, type, axis, ref, j) < 0) return;
        sni_link* cl = sni_mjcf_new_link(L, child, NODE(r, jn).line);
        if (!cl) return;
        cl->generated = child != name;
        prev = child;
    }
    if (r->st != SN_OK) return;
    if (nj == 0 || prev != name) {
        // welded: to its parent (no joint), or to the last joint's link at its anchor
        sni_joint* j = new_joint(L, unique_name(L, "weld", L->njoint), NODE(r, node).line,
                                 SN_JOINT_FIXED, prev, name);
        if (!j) return;
        if (nj == 0) {
            v3_copy(j->pos, pos);
            memcpy(j->rot, R, sizeof j->rot);
        } else {
            v3_scale(j->pos, jpos_prev, -1);
        }
        if (!sni_mjcf_new_link(L, name, NODE(r, node).line)) return;
    }
    body_contents(L, node, childclass, name);
}

// the body's link (the last one made) has the body's frame: its mass, geoms and sites, and the
// child bodies, as the file has them
static void body_contents(loader* L, int node, int childclass, long name) {
    reader* r = L->r;
    int link = L->nlink - 1;
    body_inertia(L, node, childclass, name);
    body_geoms(L, node, childclass, link);
    body_sites(L, node, childclass, name);
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "body")) sni_mjcf_body(L, k, name, childclass, 0, 0);
}
