// SPDX-License-Identifier: Apache-2.0
// mjcf.c: the MJCF reader (MuJoCo's format), first part. The file is read into a small element
// tree with libexpat (with <include> files spliced in, never from outside the model's folder),
// default classes are applied, and the body tree fills the same spec as the URDF reader
// (spec.h), which sni_compile turns into a model:
//   - a body is a link; its joints chain through massless links when it has several, each
//     joint at its own anchor; a body without joints is welded to its parent;
//   - a free joint on the first body of <worldbody> makes the floating base; without one, the
//     world is a link of its own and the bodies hang from it;
//   - inertia comes from <inertial>, or from the body's geoms (mass or density) as MuJoCo's
//     compiler computes it (compiler inertiafromgeom);
//   - <equality><connect> becomes a pin constraint at the model's reference configuration.
// Elements and attributes sinew does not read are refused by name, or listed in one warning when
// they only matter to MuJoCo (rendering, softness, sensors). docs/mjcf.md lists what is read.
#include "base/base.h"
#include "base/smath.h"
#include "model/hull.h"
#include "model/mesh.h"
#include "model/spec.h"
#include "sinew/sn_data.h"

#include <expat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 64
#define MAX_NODES 2000000
#define MAX_INCLUDES 32
#define DEFAULT_MAX_FILE ((size_t)64 << 20)
#define MAX_REF_JOINTS 4096

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

// ---- the element tree ----

typedef struct xnode {
    long name; // offset into the string pool
    int line;
    int file;  // index into the reader's file names (an include's)
    int attr0; // first attribute pair in attrs
    int nattr;
    int parent, first, last, next; // tree links, -1
} xnode;

// a joint's springdamper (time constant, damping ratio): its stiffness and damping are set from
// its inertia once the model is compiled
typedef struct springdamper_rec {
    long joint; // the joint's name in the reader's pool
    sn_real timeconst, dampratio;
} springdamper_rec;

typedef struct reader {
    sni_spec* s;
    sn_error* err;
    sn_status st;
    const sn_allocator* a;
    sni_buf pool;          // strings
    sni_buf springdampers; // springdamper_rec
    sni_buf nodes;         // xnode
    sni_buf attrs;         // long pairs: name, value
    const char* dir;       // the model's folder
    char files[MAX_INCLUDES + 1][1024];
    int nfile, cur_file;
    int stack[MAX_DEPTH + 1];
    int depth;
    XML_Parser xp;
    // settings of <compiler>
    int degree;            // angles in degrees
    char eulerseq[4];      // "xyz" by default
    int inertia_from_geom; // 0 false, 1 true, 2 auto
    int autolimits;
    char meshdir[512];
    // the ignored parts, for one warning
    char ignored[2048];
} reader;

#define NODE(r, i) (((xnode*)(r)->nodes.data)[i])
#define NNODE(r) ((int)((r)->nodes.len / sizeof(xnode)))
#define STR(r, off) ((r)->pool.data + (off))

static long pool_add(reader* r, const char* s) {
    return sni_buf_push(&r->pool, s, strlen(s) + 1);
}

static void rfail(reader* r, int node, sn_status code, const char* element, const char* fmt, ...) {
    if (r->st != SN_OK) return;
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const char* file = r->s->file;
    int line = 0;
    if (node >= 0 && node < NNODE(r)) {
        line = NODE(r, node).line;
        file = r->files[NODE(r, node).file];
    }
    sni_error(r->err, code, file, line, element, "%s", text);
    r->st = code;
}

static void rwarn(reader* r, int node, const char* element, const char* fmt, ...) {
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sni_spec_warn(r->s, node >= 0 ? NODE(r, node).line : 0, element, "%s", text);
}

// ---- reading XML into the tree ----

static void on_start(void* ud, const char* el, const char** atts) {
    reader* r = ud;
    if (r->st != SN_OK) return;
    if (r->depth >= MAX_DEPTH || NNODE(r) >= MAX_NODES) {
        sni_error(
            r->err, SN_ERR_LIMIT, r->files[r->cur_file], (int)XML_GetCurrentLineNumber(r->xp), el,
            r->depth >= MAX_DEPTH ? "elements nested deeper than %d" : "more than %d elements",
            r->depth >= MAX_DEPTH ? MAX_DEPTH : MAX_NODES);
        r->st = SN_ERR_LIMIT;
        XML_StopParser(r->xp, XML_FALSE);
        return;
    }
    xnode n;
    memset(&n, 0, sizeof n);
    n.name = pool_add(r, el);
    n.line = (int)XML_GetCurrentLineNumber(r->xp);
    n.file = r->cur_file;
    n.attr0 = (int)(r->attrs.len / (2 * sizeof(long)));
    for (int i = 0; atts[i]; i += 2) {
        long kv[2] = {pool_add(r, atts[i]), pool_add(r, atts[i + 1])};
        sni_buf_push(&r->attrs, kv, sizeof kv);
        n.nattr++;
    }
    n.parent = r->depth ? r->stack[r->depth - 1] : -1;
    n.first = n.last = n.next = -1;
    int id = NNODE(r);
    if (sni_buf_push(&r->nodes, &n, sizeof n) < 0 || r->pool.failed || r->attrs.failed) {
        r->st = sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, el, "out of memory");
        XML_StopParser(r->xp, XML_FALSE);
        return;
    }
    if (n.parent >= 0) {
        xnode* p = &NODE(r, n.parent);
        if (p->last >= 0)
            NODE(r, p->last).next = id;
        else
            p->first = id;
        p->last = id;
    }
    r->stack[r->depth++] = id;
}

static void on_end(void* ud, const char* el) {
    (void)el;
    reader* r = ud;
    if (r->depth > 0) r->depth--;
}

static void on_doctype(void* ud, const XML_Char* name, const XML_Char* sysid, const XML_Char* pubid,
                       int has_internal) {
    (void)name, (void)sysid, (void)pubid, (void)has_internal;
    reader* r = ud;
    sni_error(r->err, SN_ERR_PARSE, r->files[r->cur_file], (int)XML_GetCurrentLineNumber(r->xp),
              "DOCTYPE", "a DOCTYPE is not accepted in MJCF");
    r->st = SN_ERR_PARSE;
    XML_StopParser(r->xp, XML_FALSE);
}

// parse one file's text; its root's children are appended under `under` (-1: a new root)
static sn_status parse_text(reader* r, const char* xml, size_t len, int file, int under) {
    XML_Parser xp = XML_ParserCreate(NULL);
    if (!xp) return sni_error(r->err, SN_ERR_NOMEM, r->files[file], 0, "", "out of memory");
    XML_Parser saved = r->xp;
    int saved_file = r->cur_file, saved_depth = r->depth;
    r->xp = xp;
    r->cur_file = file;
    if (under >= 0) {
        // an include's root element is spliced away: its children land under `under`
        r->stack[0] = under;
        r->depth = 1;
    } else {
        r->depth = 0;
    }
    int first_new = NNODE(r);
    XML_SetUserData(xp, r);
    XML_SetElementHandler(xp, on_start, on_end);
    XML_SetStartDoctypeDeclHandler(xp, on_doctype);
    XML_SetParamEntityParsing(xp, XML_PARAM_ENTITY_PARSING_NEVER);
    if (XML_Parse(xp, xml, (int)len, 1) == XML_STATUS_ERROR && r->st == SN_OK)
        r->st = sni_error(r->err, SN_ERR_PARSE, r->files[file], (int)XML_GetCurrentLineNumber(xp),
                          "", "XML: %s", XML_ErrorString(XML_GetErrorCode(xp)));
    XML_ParserFree(xp);
    r->xp = saved;
    r->cur_file = saved_file;
    r->depth = saved_depth;
    if (r->st == SN_OK && under >= 0 && NNODE(r) > first_new) {
        // the include file's root (<mujoco>) became a child of `under`: lift its children
        int root = first_new;
        xnode* u = &NODE(r, under);
        int prev = -1;
        for (int c = u->first; c >= 0; c = NODE(r, c).next) {
            if (c == root) break;
            prev = c;
        }
        int kids = NODE(r, root).first;
        for (int c = kids; c >= 0; c = NODE(r, c).next)
            NODE(r, c).parent = under;
        int after = NODE(r, root).next;
        if (kids >= 0) {
            if (prev >= 0)
                NODE(r, prev).next = kids;
            else
                u->first = kids;
            NODE(r, NODE(r, root).last).next = after;
            if (u->last == root) u->last = NODE(r, root).last;
        } else {
            if (prev >= 0)
                NODE(r, prev).next = after;
            else
                u->first = after;
            if (u->last == root) u->last = prev;
        }
    }
    return r->st;
}

static char* read_file(reader* r, const char* path, size_t max, size_t* n) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    if ((size_t)st.st_size > max) return NULL;
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    char* buf = sni_alloc(r->a, (size_t)st.st_size + 1);
    if (buf && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        sni_free(r->a, buf, (size_t)st.st_size + 1);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[st.st_size] = 0, *n = (size_t)st.st_size;
    return buf;
}

// ---- attributes ----

static const char* get(reader* r, int node, const char* name) {
    const xnode* n = &NODE(r, node);
    const long* kv = (const long*)r->attrs.data;
    for (int i = 0; i < n->nattr; i++)
        if (!strcmp(STR(r, kv[2 * (n->attr0 + i)]), name))
            return STR(r, kv[2 * (n->attr0 + i) + 1]);
    return NULL;
}

static const char* ename(reader* r, int node) {
    return STR(r, NODE(r, node).name);
}

// the default classes: for a class and an element kind, the <default> element's attributes
typedef struct dclass {
    long name;
    int node;   // the <default> element
    int parent; // class index, -1
} dclass;

// a <site>: its name, its body's link and its position in the link's frame
typedef struct site_rec {
    long name, link;
    int line;
    sn_real pos[3], R[9]; // in the link's frame
} site_rec;

// a free joint on a body of <worldbody> (not the floating base): its spec joint and its pose at
// the reference configuration (position, quaternion w x y z)
typedef struct free_rec {
    int joint;
    sn_real pose[7];
} free_rec;

// an <asset><mesh>: its name, its file's path (pool offsets) and scale
typedef struct mesh_rec {
    long name, path; // path -1: the vertices (and faces) are given inline
    int node;        // the <mesh> element
    int line;
    sn_real scale[3];
} mesh_rec;

typedef struct loader {
    reader* r;
    dclass* classes;
    int nclass;
    int main_class;
    int nlink, njoint;
    int nbody;                   // <body> elements so far
    int floating;                // the one body of <worldbody> has a free joint: the base
    sni_buf sites;               // site: name, link and position in the link's frame
    sni_buf free_poses;          // free joints of bodies hanging from the world: pose7
    sni_buf meshes;              // <asset><mesh>: mesh_rec
    int mesh_mass_warned;        // the note on exact mesh inertia was given
    int inline_mesh_warned;      // the note that inline meshes do not collide was given
    int has_ref;                 // a joint has a nonzero ref
    sn_real ref[MAX_REF_JOINTS]; // each spec joint's ref (radians or metres)
    sn_real root_pose[7];        // its position and quaternion w x y z: the nominal configuration
} loader;

static int class_find(loader* L, const char* name) {
    for (int i = 0; i < L->nclass; i++)
        if (!strcmp(STR(L->r, L->classes[i].name), name)) return i;
    return -1;
}

// an attribute of an element, or else of its class chain (the element's class, or the enclosing
// childclass, or "main"), for elements of that kind
static const char* attr_of(loader* L, int node, int cls, const char* name) {
    reader* r = L->r;
    const char* v = get(r, node, name);
    if (v) return v;
    const char* kind = ename(r, node);
    if (!strcmp(kind, "freejoint")) kind = "joint";
    for (int c = cls; c >= 0; c = L->classes[c].parent) {
        for (int k = NODE(r, L->classes[c].node).first; k >= 0; k = NODE(r, k).next)
            if (!strcmp(ename(r, k), kind)) {
                const char* dv = get(r, k, name);
                if (dv) return dv;
            }
    }
    return NULL;
}

static int reals(loader* L, int node, int cls, const char* name, sn_real* out, int n) {
    const char* v = attr_of(L, node, cls, name);
    if (!v) return 0;
    sni_num_result res = sni_parse_reals(v, out, n);
    if (res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) {
        rfail(L->r, node, SN_ERR_PARSE, ename(L->r, node), "attribute %s=\"%.60s\" %s", name, v,
              res == SNI_NUM_COUNT ? "has the wrong number of numbers" : sni_num_result_str(res));
        return -1;
    }
    return 1;
}

// the class an element uses: its own, else the childclass in force
static int class_of(loader* L, int node, int childclass) {
    const char* c = get(L->r, node, "class");
    if (c) {
        int k = class_find(L, c);
        if (k < 0) {
            rfail(L->r, node, SN_ERR_MODEL, ename(L->r, node), "unknown default class '%s'", c);
            return L->main_class;
        }
        return k;
    }
    return childclass >= 0 ? childclass : L->main_class;
}

// ---- orientations ----

// R: the shortest turn taking z onto the unit vector d
static void z_onto(sn_real* R, const sn_real* d) {
    sn_real z[3] = {0, 0, 1}, ax[3];
    v3_cross(ax, z, d);
    sn_real s = v3_norm(ax), c = d[2];
    m3_identity(R);
    if (s > 1e-12) {
        v3_scale(ax, ax, 1 / s);
        axis_sincos_to_m3(R, ax, s, c);
    } else if (c < 0) {
        sn_real xa[3] = {1, 0, 0};
        axis_sincos_to_m3(R, xa, 0, -1);
    }
}

// v[0..n) scaled to unit length; 0 (refused with "<what>") when it is zero
static int unit(reader* r, int node, sn_real* v, int n, const char* what) {
    sn_real l = 0;
    for (int i = 0; i < n; i++)
        l += v[i] * v[i];
    l = sqrt(l);
    if (!(l > 0)) {
        rfail(r, node, SN_ERR_MODEL, ename(r, node), "%s", what);
        return 0;
    }
    for (int i = 0; i < n; i++)
        v[i] /= l;
    return 1;
}

// the orientation of an element (quat, axisangle, euler, xyaxes, zaxis; identity without)
static int orientation(loader* L, int node, int cls, sn_real* R) {
    reader* r = L->r;
    sn_real v[6];
    int got = 0;
    m3_identity(R);
    int k;
    if ((k = reals(L, node, cls, "quat", v, 4)) != 0) {
        if (k < 0 || !unit(r, node, v, 4, "quat is zero")) return -1;
        quat_to_m3(R, v);
        got++;
    }
    if ((k = reals(L, node, cls, "axisangle", v, 4)) != 0) {
        if (k < 0 || !unit(r, node, v, 3, "axisangle has a zero axis")) return -1;
        sn_real ang = r->degree ? v[3] * M_PI / 180 : v[3];
        axis_sincos_to_m3(R, v, sin(ang), cos(ang));
        got++;
    }
    if ((k = reals(L, node, cls, "euler", v, 3)) != 0) {
        if (k < 0) return -1;
        // eulerseq: lower case turns about the rotated axes (intrinsic), upper case about the
        // fixed ones (extrinsic)
        sn_real acc[9];
        m3_identity(acc);
        for (int i = 0; i < 3; i++) {
            char c = r->eulerseq[i];
            int intrinsic = c >= 'a';
            char lc = intrinsic ? c : (char)(c - 'A' + 'a');
            sn_real ax[3] = {lc == 'x', lc == 'y', lc == 'z'};
            sn_real ang = r->degree ? v[i] * M_PI / 180 : v[i], Ri[9], t[9];
            axis_sincos_to_m3(Ri, ax, sin(ang), cos(ang));
            if (intrinsic)
                m3_mul(t, acc, Ri);
            else
                m3_mul(t, Ri, acc);
            memcpy(acc, t, sizeof t);
        }
        memcpy(R, acc, sizeof acc);
        got++;
    }
    if ((k = reals(L, node, cls, "xyaxes", v, 6)) != 0) {
        if (k < 0) return -1;
        sn_real x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
        if (!unit(r, node, x, 3, "xyaxes has a zero x axis")) return -1;
        v3_addscl(y, x, -v3_dot(x, y));
        if (!unit(r, node, y, 3, "xyaxes: y is parallel to x")) return -1;
        v3_cross(z, x, y);
        for (int i = 0; i < 3; i++)
            R[3 * i] = x[i], R[3 * i + 1] = y[i], R[3 * i + 2] = z[i];
        got++;
    }
    if ((k = reals(L, node, cls, "zaxis", v, 3)) != 0) {
        if (k < 0) return -1;
        // the shortest turn taking z onto the axis
        if (!unit(r, node, v, 3, "zaxis is zero")) return -1;
        z_onto(R, v);
        got++;
    }
    if (got > 1) {
        rfail(r, node, SN_ERR_MODEL, ename(r, node),
              "more than one orientation (quat, axisangle, euler, xyaxes, zaxis) given");
        return -1;
    }
    return 0;
}

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
    const char* t = attr_of(L, node, cls, "type");
    *kind = geom_kind(t ? t : "sphere");
    if (*kind == G_OTHER) {
        rfail(r, node, SN_ERR_MODEL, "geom",
              "geom type '%s' is not supported (plane, sphere, capsule, ellipsoid, cylinder, box, "
              "mesh; a height field in <worldbody> only)%s",
              t, !strcmp(t, "sdf") ? ": sdf geoms are MuJoCo 3's" : "");
        return -1;
    }
    v3_set(size, 0, 0, 0);
    v3_set(pos, 0, 0, 0);
    if (reals(L, node, cls, "size", size, 1) < 0) {
        // sizes have 1 to 3 numbers
        r->st = SN_OK;
        if (r->err) memset(r->err, 0, sizeof *r->err);
        int n = 0;
        const char* v = attr_of(L, node, cls, "size");
        sn_real buf[3] = {0, 0, 0};
        for (n = 3; n >= 1; n--)
            if (sni_parse_reals(v, buf, n) == SNI_NUM_OK) break;
        if (n < 1) {
            rfail(r, node, SN_ERR_PARSE, "geom", "attribute size=\"%.60s\" is not 1 to 3 numbers",
                  v);
            return -1;
        }
        memcpy(size, buf, sizeof buf);
    }
    if (reals(L, node, cls, "pos", pos, 3) < 0) return -1;
    if (orientation(L, node, cls, R) < 0) return -1;
    sn_real ft[6];
    int k = reals(L, node, cls, "fromto", ft, 6);
    if (k < 0) return -1;
    if (k > 0) {
        if (*kind != G_CAPSULE && *kind != G_CYLINDER && *kind != G_BOX && *kind != G_ELLIPSOID) {
            rfail(r, node, SN_ERR_MODEL, "geom",
                  "fromto is for capsule, cylinder, box and "
                  "ellipsoid geoms");
            return -1;
        }
        sn_real d[3] = {ft[3] - ft[0], ft[4] - ft[1], ft[5] - ft[2]};
        sn_real len = v3_norm(d);
        if (!(len > 0)) {
            rfail(r, node, SN_ERR_MODEL, "geom", "fromto: the two points coincide");
            return -1;
        }
        v3_set(pos, (ft[0] + ft[3]) / 2, (ft[1] + ft[4]) / 2, (ft[2] + ft[5]) / 2);
        // the geom's z along the segment
        v3_scale(d, d, 1 / len);
        z_onto(R, d);
        if (*kind == G_BOX || *kind == G_ELLIPSOID)
            size[1] = size[0], size[2] = len / 2; // MuJoCo 2.2.2: square across the segment
        else
            size[1] = len / 2;
    }
    return 0;
}

// ---- the body tree ----

static long unique_name(loader* L, const char* base, int n) {
    char buf[96];
    snprintf(buf, sizeof buf, "%s%d", base, n);
    return sni_spec_name(L->r->s, buf);
}

static sni_link* new_link(loader* L, long name, int line) {
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

static void note_ignored(reader* r, const char* what) {
    if (strstr(r->ignored, what)) return;
    size_t n = strlen(r->ignored);
    snprintf(r->ignored + n, sizeof r->ignored - n, "%s%s", n ? ", " : "", what);
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

// the attributes of element k, and of its kind's defaults in class cls and its parents, that
// sinew does not read: each named once in the "not read" warning ("geom friction")
static void list_unread(loader* L, int k, int cls, const char* const* known) {
    reader* r = L->r;
    const char* kind = ename(r, k);
    const long* kv = (const long*)(void*)r->attrs.data;
    for (int pass = 0, c = cls; pass == 0 || c >= 0; pass++) {
        int e = k;
        if (pass > 0) {
            // the default element of this kind in class c
            e = -1;
            for (int d = NODE(r, L->classes[c].node).first; d >= 0 && e < 0; d = NODE(r, d).next)
                if (!strcmp(ename(r, d), kind)) e = d;
            c = L->classes[c].parent;
            if (e < 0) continue;
        }
        const xnode* n = &NODE(r, e);
        for (int i = 0; i < n->nattr; i++) {
            const char* a = STR(r, kv[2 * (n->attr0 + i)]);
            int ok = 0;
            for (int q = 0; known[q] && !ok; q++)
                ok = !strcmp(a, known[q]);
            if (ok) continue;
            char what[96];
            snprintf(what, sizeof what, "%s %s", kind, a);
            note_ignored(r, what);
        }
        if (pass > 64) break;
    }
}

// the solid a closed triangle mesh encloses, at unit density: volume, centroid and inertia
// about the centroid, in the mesh's frame. Each triangle and the origin span a tetrahedron of
// signed volume a.(b x c)/6; the sums over the tetrahedra are exact for a closed surface
static int mesh_solid(const sn_real* tri, size_t ntri, sn_real* vol, sn_real* com, sn_real* I) {
    sn_real V = 0, c[3] = {0, 0, 0}, S[9] = {0};
    for (size_t t = 0; t < ntri; t++) {
        const sn_real *a = tri + 9 * t, *b = a + 3, *d = a + 6;
        sn_real x[3];
        v3_cross(x, b, d);
        sn_real v = v3_dot(a, x) / 6;
        V += v;
        for (int i = 0; i < 3; i++)
            c[i] += v * (a[i] + b[i] + d[i]) / 4;
        // the tetrahedron's second moment about the origin: v/20 (s s^T + sum of p p^T) over
        // its corners (the origin adds nothing), s their sum
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                sn_real si = a[i] + b[i] + d[i], sj = a[j] + b[j] + d[j];
                S[3 * i + j] += v / 20 * (si * sj + a[i] * a[j] + b[i] * b[j] + d[i] * d[j]);
            }
    }
    if (!(V > 0)) return 0;
    v3_scale(com, c, 1 / V);
    // about the centroid, then the inertia tensor: tr(S) 1 - S
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            S[3 * i + j] -= V * com[i] * com[j];
    sn_real tr = S[0] + S[4] + S[8];
    for (int i = 0; i < 9; i++)
        I[i] = (i % 4 == 0 ? tr : 0) - S[i];
    *vol = V;
    return 1;
}

static const mesh_rec* mesh_find(loader* L, const char* name) {
    const mesh_rec* m = (const mesh_rec*)L->meshes.data;
    int n = (int)(L->meshes.len / sizeof(mesh_rec));
    for (int i = 0; i < n; i++)
        if (!strcmp(STR(L->r, m[i].name), name)) return &m[i];
    return NULL;
}

// the numbers of a list attribute: *n of them, in an array of *cap allocated with the reader's
// allocator; NULL after a failure
static sn_real* real_list(loader* L, int node, const char* name, const char* v, int* n,
                          int* cap_out) {
    reader* r = L->r;
    size_t cap = strlen(v) / 2 + 1;
    if (cap > (1u << 24)) {
        rfail(r, node, SN_ERR_LIMIT, ename(r, node), "attribute %s has too many numbers", name);
        return NULL;
    }
    sn_real* x = sni_alloc(r->a, cap * sizeof(sn_real));
    if (!x) {
        rfail(r, node, SN_ERR_NOMEM, ename(r, node), "out of memory");
        return NULL;
    }
    sni_num_result res = sni_parse_real_list(v, x, (int)cap, n);
    if (res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) {
        rfail(r, node, SN_ERR_PARSE, ename(r, node), "attribute %s=\"%.60s\" %s", name, v,
              sni_num_result_str(res));
        sni_free(r->a, x, cap * sizeof(sn_real));
        return NULL;
    }
    *cap_out = (int)cap;
    return x;
}

// the triangles (9 numbers each) of a mesh given inline: its vertex list, scaled, and its faces,
// or their convex hull when it has none (as MuJoCo 2.2.2 makes it)
static int inline_triangles(loader* L, const mesh_rec* mr, sni_buf* out) {
    reader* r = L->r;
    int k = mr->node, cls = class_of(L, k, L->main_class);
    const char* vs = attr_of(L, k, cls, "vertex");
    const char* fs = attr_of(L, k, cls, "face");
    int nv = 0, nf = 0, capv = 0, capf = 0, ntri = 0, st = -1;
    sn_real *v = NULL, *f = NULL;
    int* tri = NULL;
    if (!vs) {
        rfail(r, k, SN_ERR_MODEL, "mesh", "mesh '%s' has neither a file nor vertices",
              STR(r, mr->name));
        return -1;
    }
    v = real_list(L, k, "vertex", vs, &nv, &capv);
    if (!v) return -1;
    if (nv % 3 || nv < 12) {
        rfail(r, k, SN_ERR_MODEL, "mesh",
              "mesh '%s': vertex has %d numbers (x y z triples, at "
              "least four points)",
              STR(r, mr->name), nv);
        goto done;
    }
    nv /= 3;
    for (int i = 0; i < nv; i++)
        for (int c = 0; c < 3; c++)
            v[3 * i + c] *= mr->scale[c];
    if (fs) {
        f = real_list(L, k, "face", fs, &nf, &capf);
        if (!f) goto done;
        if (nf % 3) {
            rfail(r, k, SN_ERR_MODEL, "mesh", "mesh '%s': face has %d numbers (index triples)",
                  STR(r, mr->name), nf);
            goto done;
        }
        for (int i = 0; i < nf; i++)
            if (f[i] != floor(f[i]) || f[i] < 0 || f[i] >= nv) {
                rfail(r, k, SN_ERR_MODEL, "mesh",
                      "mesh '%s': face index %g is not one of the "
                      "%d vertices",
                      STR(r, mr->name), f[i], nv);
                goto done;
            }
        for (int t = 0; t < nf / 3; t++)
            for (int c = 0; c < 3; c++)
                if (sni_buf_push(out, v + 3 * (int)f[3 * t + c], 3 * sizeof(sn_real)) < 0) {
                    rfail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
                    goto done;
                }
    } else {
        sn_status hs = sni_hull(v, nv, r->a, &tri, &ntri);
        if (hs != SN_OK) {
            rfail(r, k, hs, "mesh", "mesh '%s': %s", STR(r, mr->name),
                  hs == SN_ERR_NOMEM ? "out of memory"
                                     : "its vertices are flat, collinear or fewer than four");
            goto done;
        }
        for (int t = 0; t < 3 * ntri; t++)
            if (sni_buf_push(out, v + 3 * tri[t], 3 * sizeof(sn_real)) < 0) {
                rfail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
                goto done;
            }
    }
    st = 0;
done:
    sni_free(r->a, v, (size_t)capv * sizeof(sn_real));
    if (f) sni_free(r->a, f, (size_t)capf * sizeof(sn_real));
    if (tri) sni_free(r->a, tri, (size_t)ntri * 3 * sizeof(int));
    return st;
}

// a mesh geom's solid (mesh_solid): 1, or 0 when it adds no mass (its file is absent, with a
// warning), -1 on error
static int mesh_mass(loader* L, int k, int cls, long link_name, sn_real* vol, sn_real* com,
                     sn_real* I) {
    reader* r = L->r;
    const char* mn = attr_of(L, k, cls, "mesh");
    const mesh_rec* mr = mn ? mesh_find(L, mn) : NULL;
    if (!mr) {
        rfail(r, k, SN_ERR_MODEL, "geom", mn ? "mesh '%s' is not an <asset><mesh>" : "%s",
              mn ? mn : "a mesh geom needs a mesh attribute");
        return -1;
    }
    sni_buf tri = {NULL, 0, 0, r->a, 0};
    if (mr->path < 0) {
        if (inline_triangles(L, mr, &tri) < 0) {
            sni_buf_free(&tri);
            return -1;
        }
    } else {
        const char* path = STR(r, mr->path);
        struct stat sb;
        if (stat(path, &sb) != 0) {
            rwarn(r, k, "geom", "mesh file '%s' is absent: the geom adds no mass to body '%s'",
                  path, r->s->names.data + link_name);
            return 0;
        }
        int line = 0;
        char msg[512];
        sn_status st = sni_mesh_read_triangles(path, mr->scale, r->a, &tri, &line, msg, sizeof msg);
        if (st != SN_OK) {
            rfail(r, k, st, "geom", "mesh '%s': %s", mn, msg);
            sni_buf_free(&tri);
            return -1;
        }
    }
    int ok =
        mesh_solid((const sn_real*)(void*)tri.data, tri.len / (9 * sizeof(sn_real)), vol, com, I);
    sni_buf_free(&tri);
    if (!ok) {
        rfail(r, k, SN_ERR_MODEL, "geom",
              "mesh '%s' encloses no volume (open or inside-out): it cannot give body '%s' "
              "mass; give the body an <inertial>",
              mn, r->s->names.data + link_name);
        return -1;
    }
    if (!L->mesh_mass_warned) {
        L->mesh_mass_warned = 1;
        rwarn(r, k, "geom",
              "mass from mesh geoms is the exact inertia of the solid each mesh encloses "
              "(MuJoCo 2.2.2 computes it so with <compiler exactmeshinertia=\"true\">, and "
              "approximates it otherwise)");
    }
    return 1;
}

// <asset><mesh name file scale class>: the meshes geoms refer to (textures, materials and
// height fields are MuJoCo's rendering and are not read)
static void assets(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        if (strcmp(ename(r, k), "mesh")) {
            char what[96];
            snprintf(what, sizeof what, "asset %s", ename(r, k));
            note_ignored(r, what);
            continue;
        }
        int cls = class_of(L, k, L->main_class);
        static const char* const mesh_read[] = {"name",   "class", "file", "scale",
                                                "vertex", "face",  NULL};
        list_unread(L, k, cls, mesh_read);
        const char* file = attr_of(L, k, cls, "file");
        if (!file && !get(r, k, "name")) {
            rfail(r, k, SN_ERR_MODEL, "mesh", "a mesh without a file needs a name");
            return;
        }
        mesh_rec* m = sni_buf_grow(&L->meshes, sizeof(mesh_rec));
        if (!m) {
            rfail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
            return;
        }
        memset(m, 0, sizeof *m);
        m->line = NODE(r, k).line;
        m->node = k;
        m->path = -1;
        v3_set(m->scale, 1, 1, 1);
        if (reals(L, k, cls, "scale", m->scale, 3) < 0) return;
        const char* nm = get(r, k, "name");
        char name[256];
        if (!nm) {
            // the file's base name without its extension
            const char* b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
            snprintf(name, sizeof name, "%s", b);
            char* dot = strrchr(name, '.');
            if (dot) *dot = 0;
            nm = name;
        }
        m->name = pool_add(r, nm);
        if (!file) {
            if (r->pool.failed) rfail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
            continue;
        }
        char path[2048];
        const char* dir = r->dir && r->meshdir[0] != '/' ? r->dir : "";
        if (file[0] == '/')
            snprintf(path, sizeof path, "%s", file);
        else
            snprintf(path, sizeof path, "%s%s%s%s%s", dir, dir[0] ? "/" : "", r->meshdir,
                     r->meshdir[0] ? "/" : "", file);
        m->path = pool_add(r, path);
        if (r->pool.failed) rfail(r, k, SN_ERR_NOMEM, "mesh", "out of memory");
    }
}

// the body's mass properties from its <inertial> or its geoms, into link l (body frame)
static void body_inertia(loader* L, int body, int childclass, long link_name) {
    reader* r = L->r;
    int inertial = -1;
    for (int k = NODE(r, body).first; k >= 0; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "inertial")) inertial = k, list_unread(L, k, -1, inertial_read);
    int from_geoms = r->inertia_from_geom == 1 || (r->inertia_from_geom == 2 && inertial < 0);
    sn_real mass = 0, com[3] = {0, 0, 0}, I[9] = {0};
    if (!from_geoms && inertial >= 0) {
        sn_real pos[3] = {0, 0, 0}, R[9], d[6];
        if (reals(L, inertial, -1, "pos", pos, 3) < 0 || orientation(L, inertial, -1, R) < 0)
            return;
        if (reals(L, inertial, -1, "mass", &mass, 1) <= 0) {
            if (r->st == SN_OK) rfail(r, inertial, SN_ERR_MODEL, "inertial", "missing mass");
            return;
        }
        sn_real Ib[9] = {0};
        int k = reals(L, inertial, -1, "diaginertia", d, 3);
        if (k < 0) return;
        if (k > 0) {
            Ib[0] = d[0], Ib[4] = d[1], Ib[8] = d[2];
        } else if ((k = reals(L, inertial, -1, "fullinertia", d, 6)) > 0) {
            Ib[0] = d[0], Ib[4] = d[1], Ib[8] = d[2];
            Ib[1] = Ib[3] = d[3], Ib[2] = Ib[6] = d[4], Ib[5] = Ib[7] = d[5];
        } else {
            if (r->st == SN_OK)
                rfail(r, inertial, SN_ERR_MODEL, "inertial", "needs diaginertia or fullinertia");
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
            int cls = class_of(L, k, childclass), kind;
            sn_real size[3], pos[3], R[9], Iu[3];
            if (geom_shape(L, k, cls, &kind, size, pos, R) < 0) return;
            if (kind == G_PLANE) continue;
            sn_real vol, gmass = 0, density = 1000, Im[9], mc[3];
            if (kind == G_MESH) {
                // the solid the mesh encloses: its volume, centroid and inertia (unit density),
                // placed by the geom's frame
                int got = mesh_mass(L, k, cls, link_name, &vol, mc, Im);
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
            int hm = reals(L, k, cls, "mass", &gmass, 1);
            if (hm < 0 || reals(L, k, cls, "density", &density, 1) < 0) return;
            if (hm == 0) gmass = density * vol;
            if (ng == 256) {
                rfail(r, k, SN_ERR_LIMIT, "geom", "more than 256 geoms in one body");
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

// the geoms of a body as collision geometry of link `link`
// a geom's sliding friction (the first of its friction numbers, 1 by default, as in MuJoCo) and
// condim (3 by default); 0 after an error
static int geom_friction(loader* L, int k, int cls, sn_real* mu, int* condim) {
    reader* r = L->r;
    const char* fs = attr_of(L, k, cls, "friction");
    sn_real f[3] = {1, 0.005, 0.0001};
    if (fs) {
        int n = 0;
        sni_num_result res = sni_parse_real_list(fs, f, 3, &n);
        if ((res != SNI_NUM_OK && res != SNI_NUM_UNDERFLOW) || !(f[0] >= 0)) {
            rfail(r, k, SN_ERR_PARSE, "geom", "friction=\"%.60s\" is not 1 to 3 numbers >= 0", fs);
            return 0;
        }
    }
    const char* cd = attr_of(L, k, cls, "condim");
    *condim = cd ? atoi(cd) : 3;
    if (*condim != 1 && *condim != 3 && *condim != 4 && *condim != 6) {
        rfail(r, k, SN_ERR_PARSE, "geom", "condim=\"%s\" (1, 3, 4 or 6)", cd);
        return 0;
    }
    *mu = f[0];
    return 1;
}

// the collision shape of <geom> element k on link `link`
static void one_geom(loader* L, int k, int childclass, int link) {
    reader* r = L->r;
    {
        int cls = class_of(L, k, childclass), kind;
        sn_real size[3], pos[3], R[9];
        list_unread(L, k, cls, geom_read);
        if (geom_shape(L, k, cls, &kind, size, pos, R) < 0) return;
        const char* ct = attr_of(L, k, cls, "contype");
        const char* ca = attr_of(L, k, cls, "conaffinity");
        int collides = !(ct && ca && atoi(ct) == 0 && atoi(ca) == 0);
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
            const char* mn = attr_of(L, k, cls, "mesh");
            mr = mn ? mesh_find(L, mn) : NULL;
            if (mr && mr->path >= 0)
                type = SN_GEOM_MESH;
            else if (mr && collides && !L->inline_mesh_warned) {
                L->inline_mesh_warned = 1;
                rwarn(r, k, "geom",
                      "mesh '%s' is given inline: its geoms give mass but do not collide", mn);
            }
        }
        if (type < 0) return; // planes on bodies do not collide
        sn_real mu;
        int condim;
        if (!geom_friction(L, k, cls, &mu, &condim)) return;
        sni_geom* g = sni_buf_grow(&r->s->geoms, sizeof(sni_geom));
        if (!g) {
            rfail(r, k, SN_ERR_NOMEM, "geom", "out of memory");
            return;
        }
        memset(g, 0, sizeof *g);
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
        if (!strcmp(ename(r, k), "geom")) one_geom(L, k, childclass, link);
}

// coordinates and velocities of a spec joint
static int spec_nq(int type) {
    return type == SN_JOINT_FLOATING    ? 7
           : type == SN_JOINT_SPHERICAL ? 4
           : type == SN_JOINT_FIXED     ? 0
                                        : 1;
}

static int spec_nv(int type) {
    return type == SN_JOINT_FLOATING    ? 6
           : type == SN_JOINT_SPHERICAL ? 3
           : type == SN_JOINT_FIXED     ? 0
                                        : 1;
}

static int joint_kind(const char* t) {
    if (!t || !strcmp(t, "hinge")) return SN_JOINT_REVOLUTE;
    if (!strcmp(t, "slide")) return SN_JOINT_PRISMATIC;
    if (!strcmp(t, "ball")) return SN_JOINT_SPHERICAL;
    if (!strcmp(t, "free")) return SN_JOINT_FLOATING;
    return -1;
}

// the unit quaternion (w x y z) of a rotation matrix
static void m3_to_quat(sn_real* q, const sn_real* R) {
    sn_real tr = R[0] + R[4] + R[8];
    if (tr > 0) {
        sn_real k = 2 * sqrt(1 + tr);
        q[0] = k / 4, q[1] = (R[7] - R[5]) / k, q[2] = (R[2] - R[6]) / k, q[3] = (R[3] - R[1]) / k;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        sn_real k = 2 * sqrt(1 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / k, q[1] = k / 4, q[2] = (R[1] + R[3]) / k, q[3] = (R[2] + R[6]) / k;
    } else if (R[4] > R[8]) {
        sn_real k = 2 * sqrt(1 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / k, q[1] = (R[1] + R[3]) / k, q[2] = k / 4, q[3] = (R[5] + R[7]) / k;
    } else {
        sn_real k = 2 * sqrt(1 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / k, q[1] = (R[2] + R[6]) / k, q[2] = (R[5] + R[7]) / k, q[3] = k / 4;
    }
}

// a plane of <worldbody>: the ground, which is the world's (sn_world_set_ground); its height is
// kept for `sinew run` when it is horizontal
static void world_plane(loader* L, int k) {
    reader* r = L->r;
    int kind;
    sn_real size[3], pos[3], R[9];
    if (geom_shape(L, k, class_of(L, k, L->main_class), &kind, size, pos, R) < 0) return;
    if (fabs(R[8] - 1) > 1e-9 || L->r->s->option_has_ground) {
        rwarn(r, k, "geom",
              "a %s plane in <worldbody> is not loaded: the ground is the world's, one "
              "horizontal plane (sn_world_set_ground)",
              L->r->s->option_has_ground ? "second" : "tilted");
        return;
    }
    sn_real mu;
    int condim;
    if (!geom_friction(L, k, class_of(L, k, L->main_class), &mu, &condim)) return;
    r->s->option_has_ground = 1;
    r->s->option_ground_height = pos[2];
    r->s->option_ground_friction = mu;
    r->s->option_ground_condim = condim;
    rwarn(r, k, "geom",
          "the plane of <worldbody> is the world's ground (sn_world_set_ground): `sinew run` "
          "puts it at z = %g",
          pos[2]);
}

// a named <site> on link `link` (an unnamed one cannot be referred to)
static void one_site(loader* L, int k, int childclass, long link) {
    reader* r = L->r;
    static const char* const site_read[] = {"name",  "class",  "pos",   "quat", "axisangle",
                                            "euler", "xyaxes", "zaxis", NULL};
    list_unread(L, k, class_of(L, k, childclass), site_read);
    const char* nm = get(r, k, "name");
    if (!nm) return;
    site_rec* sr = sni_buf_grow(&L->sites, sizeof(site_rec));
    if (!sr) {
        rfail(r, k, SN_ERR_NOMEM, "site", "out of memory");
        return;
    }
    memset(sr, 0, sizeof *sr);
    sr->name = sni_spec_name(r->s, nm);
    sr->link = link;
    sr->line = NODE(r, k).line;
    int cls = class_of(L, k, childclass);
    if (reals(L, k, cls, "pos", sr->pos, 3) >= 0) orientation(L, k, cls, sr->R);
}

// the <site> children of a body, on its link
static void body_sites(loader* L, int node, int childclass, long link) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "site")) one_site(L, k, childclass, link);
}

static void body_contents(loader* L, int node, int childclass, long name);

// a body and its subtree; root_free: the floating base's body; top: a body of <worldbody>
static void body(loader* L, int node, long parent_link, int parent_childclass, int root_free,
                 int top) {
    reader* r = L->r;
    int childclass = parent_childclass;
    const char* cc = get(r, node, "childclass");
    if (cc) {
        childclass = class_find(L, cc);
        if (childclass < 0) {
            rfail(r, node, SN_ERR_MODEL, "body", "unknown childclass '%s'", cc);
            return;
        }
    }
    list_unread(L, node, -1, body_read);
    const char* nm = get(r, node, "name");
    // an unnamed body is "body<N>", N its id in MuJoCo's numbering (the world 0, then the bodies
    // depth first in file order)
    long name = nm ? sni_spec_name(r->s, nm) : unique_name(L, "body", ++L->nbody);
    if (nm) ++L->nbody;
    sn_real pos[3] = {0, 0, 0}, R[9];
    if (reals(L, node, -1, "pos", pos, 3) < 0 || orientation(L, node, -1, R) < 0) return;
    // the joints, in order
    int joints[64], nj = 0;
    for (int k = NODE(r, node).first; k >= 0; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        if (!strcmp(e, "joint") || !strcmp(e, "freejoint")) {
            if (nj == 64) {
                rfail(r, k, SN_ERR_LIMIT, e, "more than 64 joints in one body");
                return;
            }
            joints[nj++] = k;
        } else if (strcmp(e, "body") && strcmp(e, "geom") && strcmp(e, "inertial") &&
                   strcmp(e, "site") && strcmp(e, "camera") && strcmp(e, "light")) {
            rfail(r, k, SN_ERR_MODEL, e, "<%s> inside <body> is not supported", e);
            return;
        }
    }
    // a free joint: the floating base, on the first body of <worldbody> only, as its one joint
    int free_joint = 0;
    for (int i = 0; i < nj; i++) {
        const char* t = !strcmp(ename(r, joints[i]), "freejoint")
                            ? "free"
                            : attr_of(L, joints[i], class_of(L, joints[i], childclass), "type");
        if (joint_kind(t) == SN_JOINT_FLOATING) {
            if (!(root_free || top) || nj != 1) {
                rfail(r, joints[i], SN_ERR_MODEL, ename(r, joints[i]),
                      "a free joint must be the one joint of a body of <worldbody>");
                return;
            }
            free_joint = 1;
        }
    }
    if (free_joint && root_free) {
        // the floating base: this body is the root link; its pose is the nominal configuration
        sni_link* l = new_link(L, name, NODE(r, node).line);
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
        if (!j || !new_link(L, name, NODE(r, node).line)) {
            rfail(r, node, SN_ERR_NOMEM, "body", "out of memory");
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
        int jn = joints[i], cls = class_of(L, jn, childclass);
        if (!strcmp(ename(r, jn), "joint")) list_unread(L, jn, cls, joint_read);
        int type = joint_kind(attr_of(L, jn, cls, "type"));
        if (type < 0) {
            rfail(r, jn, SN_ERR_MODEL, "joint", "joint type '%s' is not supported",
                  attr_of(L, jn, cls, "type"));
            return;
        }
        sn_real jp[3] = {0, 0, 0}, axis[3] = {0, 0, 1}, range[2] = {0, 0}, v;
        if (reals(L, jn, cls, "pos", jp, 3) < 0 || reals(L, jn, cls, "axis", axis, 3) < 0) return;
        sn_real ref = 0;
        if (reals(L, jn, cls, "ref", &ref, 1) < 0) return;
        if (ref != 0 && type != SN_JOINT_REVOLUTE && type != SN_JOINT_PRISMATIC) {
            rfail(r, jn, SN_ERR_MODEL, "joint", "ref is for hinge and slide joints");
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
        sn_real n = v3_norm(axis);
        if (!(n > 0)) {
            rfail(r, jn, SN_ERR_MODEL, "joint", "the axis is zero");
            return;
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
        int kr = reals(L, jn, cls, "range", range, 2);
        if (kr < 0) return;
        const char* lim = attr_of(L, jn, cls, "limited");
        int limited = lim ? !strcmp(lim, "true") : (r->autolimits && kr > 0);
        if (lim && strcmp(lim, "true") && strcmp(lim, "false") && strcmp(lim, "auto")) {
            rfail(r, jn, SN_ERR_PARSE, "joint", "limited=\"%s\" (true, false or auto)", lim);
            return;
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
        if (reals(L, jn, cls, "damping", &v, 1) > 0) j->damping = v;
        if (reals(L, jn, cls, "armature", &v, 1) > 0) j->armature = v;
        if (reals(L, jn, cls, "frictionloss", &v, 1) > 0) j->friction = v;
        if (reals(L, jn, cls, "stiffness", &v, 1) > 0) j->stiffness = v;
        // springdamper: both positive override stiffness and damping (set after compiling)
        sn_real sd[2];
        int nsd = reals(L, jn, cls, "springdamper", sd, 2);
        if (nsd < 0) return;
        if (nsd > 0 && sd[0] > 0 && sd[1] > 0) {
            if (type != SN_JOINT_REVOLUTE && type != SN_JOINT_PRISMATIC) {
                rwarn(r, jn, "joint", "springdamper on a %s joint is not read (hinge and slide)",
                      type == SN_JOINT_SPHERICAL ? "ball" : "free");
            } else {
                springdamper_rec sr = {pool_add(r, r->s->names.data + jl), sd[0], sd[1]};
                if (sni_buf_push(&r->springdampers, &sr, sizeof sr) < 0) {
                    rfail(r, jn, SN_ERR_NOMEM, "joint", "out of memory");
                    return;
                }
            }
        }
        // springref is an angle for a hinge (degrees under <compiler angle="degree">)
        if (reals(L, jn, cls, "springref", &v, 1) > 0)
            j->spring_ref = v * (type == SN_JOINT_REVOLUTE && r->degree ? M_PI / 180 : 1);
        sni_link* cl = new_link(L, child, NODE(r, jn).line);
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
        if (!new_link(L, name, NODE(r, node).line)) return;
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
        if (!strcmp(ename(r, k), "body")) body(L, k, name, childclass, 0, 0);
}

// ---- the document ----

// the default classes, depth first: the outermost <default> is "main"
static int collect_defaults(loader* L, int node, int parent) {
    reader* r = L->r;
    const char* cn = get(r, node, "class");
    if (parent < 0 && cn && strcmp(cn, "main")) {
        rfail(r, node, SN_ERR_MODEL, "default", "the outermost <default> is class 'main'");
        return -1;
    }
    if (parent >= 0 && !cn) {
        rfail(r, node, SN_ERR_MODEL, "default", "a nested <default> needs a class");
        return -1;
    }
    if (cn && class_find(L, cn) >= 0) {
        rfail(r, node, SN_ERR_MODEL, "default", "default class '%s' is defined twice", cn);
        return -1;
    }
    dclass* c = sni_alloc(r->a, sizeof(dclass) * (size_t)(L->nclass + 1));
    if (!c) return -1;
    if (L->nclass) memcpy(c, L->classes, sizeof(dclass) * (size_t)L->nclass);
    if (L->classes) sni_free(r->a, L->classes, sizeof(dclass) * (size_t)L->nclass);
    L->classes = c;
    int id = L->nclass++;
    c[id].name = pool_add(r, cn ? cn : "main");
    c[id].node = node;
    c[id].parent = parent;
    for (int k = NODE(r, node).first; k >= 0; k = NODE(r, k).next)
        if (!strcmp(ename(r, k), "default") && collect_defaults(L, k, id) < 0) return -1;
    return id;
}


static void compiler_settings(reader* r, int node) {
    const char* v;
    if ((v = get(r, node, "angle"))) {
        if (strcmp(v, "degree") && strcmp(v, "radian")) {
            rfail(r, node, SN_ERR_PARSE, "compiler", "angle=\"%s\" (degree or radian)", v);
            return;
        }
        r->degree = !strcmp(v, "degree");
    }
    if ((v = get(r, node, "eulerseq"))) {
        int ok = strlen(v) == 3;
        for (int i = 0; ok && i < 3; i++)
            ok = strchr("xyzXYZ", v[i]) != NULL;
        if (!ok) {
            rfail(r, node, SN_ERR_PARSE, "compiler", "eulerseq=\"%s\"", v);
            return;
        }
        memcpy(r->eulerseq, v, 4);
    }
    if ((v = get(r, node, "inertiafromgeom")))
        r->inertia_from_geom = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : 2;
    if ((v = get(r, node, "autolimits"))) r->autolimits = !strcmp(v, "true");
    if ((v = get(r, node, "coordinate")) && strcmp(v, "local")) {
        rfail(r, node, SN_ERR_MODEL, "compiler", "coordinate=\"%s\" is not supported (local only)",
              v);
        return;
    }
    if ((v = get(r, node, "meshdir"))) snprintf(r->meshdir, sizeof r->meshdir, "%s", v);
    static const char* known[] = {"angle",      "eulerseq", "inertiafromgeom", "autolimits",
                                  "coordinate", "meshdir",  "texturedir",      "discardvisual",
                                  "strippath",  NULL};
    const xnode* n = &NODE(r, node);
    const long* kv = (const long*)r->attrs.data;
    for (int i = 0; i < n->nattr; i++) {
        const char* k = STR(r, kv[2 * (n->attr0 + i)]);
        int found = 0;
        for (int j = 0; known[j] && !found; j++)
            found = !strcmp(k, known[j]);
        if (!found) {
            rfail(r, node, SN_ERR_MODEL, "compiler", "attribute %s is not supported", k);
            return;
        }
    }
}

static const site_rec* site_find(loader* L, const char* name) {
    const site_rec* sr = (const site_rec*)L->sites.data;
    int n = (int)(L->sites.len / sizeof(site_rec));
    for (int i = 0; i < n; i++)
        if (!strcmp(L->r->s->names.data + sr[i].name, name)) return &sr[i];
    return NULL;
}

static int spec_joint_find(sni_spec* s, const char* name) {
    const sni_joint* j = (const sni_joint*)s->joints.data;
    for (int i = 0; i < SNI_NJOINT(s); i++)
        if (!strcmp(s->names.data + j[i].name, name)) return i;
    return -1;
}

// <connect>: a pin. With body1 (and body2, else the world) and an anchor in body1's frame, body2's
// point is the one that coincides with it at the reference configuration; with site1 and site2,
// the two sites' points, which the constraint pulls together when they are apart
// whether an equality constraint's body attribute names the world or a <body>; refuses it (at
// element k, attribute attr) otherwise
static int body_named(loader* L, int k, const char* attr, const char* name) {
    reader* r = L->r;
    if (!name || !strcmp(name, "world")) return 1;
    for (int i = 0; i < NNODE(r); i++) {
        const char* nm = strcmp(ename(r, i), "body") ? NULL : get(r, i, "name");
        if (nm && !strcmp(nm, name)) return 1;
    }
    rfail(r, k, SN_ERR_MODEL, ename(r, k), "%s '%s' is not a body", attr, name);
    return 0;
}

static void connect(loader* L, int k) {
    reader* r = L->r;
    const char *b1 = get(r, k, "body1"), *b2 = get(r, k, "body2");
    const char *s1 = get(r, k, "site1"), *s2 = get(r, k, "site2");
    sn_real anchor[3], anchor2[3];
    long body1, body2;
    int has2 = 0;
    if (s1 || s2) {
        if (!s1 || !s2 || b1 || b2) {
            rfail(r, k, SN_ERR_MODEL, "connect",
                  "a connect names either site1 and site2, or body1 (and body2) with an anchor");
            return;
        }
        const site_rec* sa = site_find(L, s1);
        const site_rec* sb = site_find(L, s2);
        if (!sa || !sb) {
            rfail(r, k, SN_ERR_MODEL, "connect", "site '%s' does not exist", sa ? s2 : s1);
            return;
        }
        if (sa->link < 0 || sb->link < 0) {
            rfail(r, k, SN_ERR_MODEL, "connect",
                  "site '%s' is on the world, which is not a link with a floating base",
                  sa->link < 0 ? s1 : s2);
            return;
        }
        body1 = sa->link, body2 = sb->link;
        v3_copy(anchor, sa->pos);
        v3_copy(anchor2, sb->pos);
        has2 = 1;
    } else {
        if (!b1) {
            rfail(r, k, SN_ERR_MODEL, "connect", "missing attribute 'body1' (or site1 and site2)");
            return;
        }
        if (reals(L, k, -1, "anchor", anchor, 3) <= 0) {
            if (r->st == SN_OK) rfail(r, k, SN_ERR_MODEL, "connect", "missing attribute 'anchor'");
            return;
        }
        if (!body_named(L, k, "body1", b1) || !body_named(L, k, "body2", b2)) return;
        body1 = sni_spec_name(r->s, b1);
        body2 = sni_spec_name(r->s, b2 ? b2 : "world"); // body2 absent: the world
    }
    sni_constraint* c = sni_buf_grow(&r->s->constraints, sizeof(sni_constraint));
    if (!c) {
        rfail(r, k, SN_ERR_NOMEM, "connect", "out of memory");
        return;
    }
    memset(c, 0, sizeof *c);
    c->type = SN_CONSTRAINT_PIN;
    c->line = NODE(r, k).line;
    c->element = "connect";
    c->body1 = body1;
    c->body2 = body2;
    v3_copy(c->anchor, anchor);
    c->has_anchor2 = has2;
    v3_copy(c->anchor2, anchor2);
    c->naxis = 3;
}

// <equality><joint>: joint1 = joint1's ref + c0 + c1 (joint2 - joint2's ref), a mimic coupling
// (docs/loops.md); a polynomial of higher degree, or no joint2, is refused by name
static void joint_coupling(loader* L, int k) {
    reader* r = L->r;
    const char *j1 = get(r, k, "joint1"), *j2 = get(r, k, "joint2");
    if (!j1) {
        rfail(r, k, SN_ERR_MODEL, "joint", "missing attribute 'joint1'");
        return;
    }

    sn_real pc[5] = {0, 1, 0, 0, 0};
    const char* ps = get(r, k, "polycoef");
    if (ps) {
        int count = 0;
        if (sni_parse_real_list(ps, pc, 5, &count) != SNI_NUM_OK || count < 1) {
            rfail(r, k, SN_ERR_PARSE, "joint", "polycoef=\"%.60s\" is not 1 to 5 numbers", ps);
            return;
        }
        for (int i = count; i < 5; i++)
            pc[i] = 0;
    }
    if (pc[2] != 0 || pc[3] != 0 || pc[4] != 0) {
        rfail(r, k, SN_ERR_MODEL, "joint",
              "polycoef=\"%s\": only a linear coupling (c0 + c1 q2) is supported", ps);
        return;
    }
    // without joint2 the joint is held at ref + c0: a lock (a mimic of itself, multiplier 0)
    int f = spec_joint_find(r->s, j1), l = j2 ? spec_joint_find(r->s, j2) : f;
    if (f < 0 || l < 0) {
        rfail(r, k, SN_ERR_MODEL, "joint", "joint '%s' does not exist", f < 0 ? j1 : j2);
        return;
    }
    if (!j2) pc[1] = 0;
    sni_joint* jf = &((sni_joint*)r->s->joints.data)[f];
    if (jf->mimic_name >= 0) {
        rfail(r, k, SN_ERR_MODEL, "joint", "joint '%s' is coupled twice", j1);
        return;
    }
    sn_real ref1 = f < MAX_REF_JOINTS ? L->ref[f] : 0, ref2 = l < MAX_REF_JOINTS ? L->ref[l] : 0;
    jf->mimic_name = sni_spec_name(r->s, j2 ? j2 : j1);
    jf->mimic_line = NODE(r, k).line;
    jf->mimic_multiplier = pc[1];
    jf->mimic_offset = ref1 + pc[0] - pc[1] * ref2;
}

static sni_constraint* new_constraint(loader* L, int k, int type, long body1, long body2) {
    sni_constraint* c = sni_buf_grow(&L->r->s->constraints, sizeof(sni_constraint));
    if (!c) {
        rfail(L->r, k, SN_ERR_NOMEM, ename(L->r, k), "out of memory");
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->type = type;
    c->line = NODE(L->r, k).line;
    c->element = "weld";
    c->body1 = body1;
    c->body2 = body2;
    c->naxis = 3;
    return c;
}

// <weld>: a pin followed by an orientation constraint (docs/mjcf.md). MuJoCo's anchor is in
// body2's frame, so sinew's body1 is MuJoCo's body2 (the world when absent) and sinew's body2
// MuJoCo's body1. Without relpose the relative pose is the reference configuration's; with it
// (or between sites) both anchors and the relative orientation are the file's. torquescale 0
// leaves the orientation free (a connect at the anchor); any other value is a rigid weld
static void weld(loader* L, int k) {
    reader* r = L->r;
    const char *b1 = get(r, k, "body1"), *b2 = get(r, k, "body2");
    const char *s1 = get(r, k, "site1"), *s2 = get(r, k, "site2");
    sn_real anchor[3] = {0, 0, 0}, anchor2[3], rot2[9], ts = 1;
    int given = 0;
    long body1, body2;
    if (reals(L, k, -1, "torquescale", &ts, 1) < 0) return;
    if (s1 || s2) {
        if (!s1 || !s2 || b1 || b2) {
            rfail(r, k, SN_ERR_MODEL, "weld", "a weld names either site1 and site2, or body1");
            return;
        }
        const site_rec* sa = site_find(L, s1);
        const site_rec* sb = site_find(L, s2);
        if (!sa || !sb || sa->link < 0 || sb->link < 0) {
            rfail(r, k, SN_ERR_MODEL, "weld", "site '%s' %s", !sa || sa->link < 0 ? s1 : s2,
                  (!sa || !sb) ? "does not exist" : "is on the world, which is not a link here");
            return;
        }
        // the sites' frames coincide: sinew's body1 carries site2, its body2 site1
        body1 = sb->link, body2 = sa->link;
        v3_copy(anchor, sb->pos);
        v3_copy(anchor2, sa->pos);
        // body2's link in body1's: Rs2 Rs1^T (Rs the sites' frames in their links)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                rot2[3 * i + j] = sb->R[3 * i] * sa->R[3 * j] +
                                  sb->R[3 * i + 1] * sa->R[3 * j + 1] +
                                  sb->R[3 * i + 2] * sa->R[3 * j + 2];
        given = 1;
    } else {
        if (!b1) {
            rfail(r, k, SN_ERR_MODEL, "weld", "missing attribute 'body1' (or site1 and site2)");
            return;
        }
        if (reals(L, k, -1, "anchor", anchor, 3) < 0) return;
        if (!body_named(L, k, "body1", b1) || !body_named(L, k, "body2", b2)) return;
        body1 = sni_spec_name(r->s, b2 ? b2 : "world");
        body2 = sni_spec_name(r->s, b1);
        sn_real rp[7];
        int kr = reals(L, k, -1, "relpose", rp, 7);
        if (kr < 0) return;
        sn_real qn =
            kr > 0 ? sqrt(rp[3] * rp[3] + rp[4] * rp[4] + rp[5] * rp[5] + rp[6] * rp[6]) : 0;
        if (qn > 0) {
            // MuJoCo's body2 in its body1: sinew's body1 in its body2 (Rrel, prel). The anchor
            // on sinew's body2 is prel + Rrel anchor; body2's frame in body1's is Rrel^T
            sn_real q[4] = {rp[3] / qn, rp[4] / qn, rp[5] / qn, rp[6] / qn}, Rr[9];
            quat_to_m3(Rr, q);
            m3_mul_v3(anchor2, Rr, anchor);
            v3_add(anchor2, anchor2, rp);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    rot2[3 * i + j] = Rr[3 * j + i];
            given = 1;
        }
    }
    sni_constraint* c = new_constraint(L, k, SN_CONSTRAINT_PIN, body1, body2);
    if (!c) return;
    v3_copy(c->anchor, anchor);
    if (given) {
        c->has_anchor2 = 1;
        v3_copy(c->anchor2, anchor2);
    }
    if (ts == 0) return;
    if (ts != 1)
        rwarn(r, k, "weld",
              "torquescale=%g is read as a rigid weld (sinew's constraints are exact)", ts);
    c = new_constraint(L, k, SN_CONSTRAINT_ORIENTATION, body1, body2);
    if (!c) return;
    if (given) {
        c->has_rot2 = 1;
        memcpy(c->rot2, rot2, sizeof rot2);
    }
}

static void equality(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        int is_connect = !strcmp(e, "connect"), is_joint = !strcmp(e, "joint"),
            is_weld = !strcmp(e, "weld");
        if (!is_connect && !is_joint && !is_weld) {
            rfail(r, k, SN_ERR_MODEL, e,
                  "<equality><%s> is not supported (connect, weld and joint are)", e);
            return;
        }
        const char* active = get(r, k, "active");
        if (active && !strcmp(active, "false")) {
            rwarn(r, k, e, "an inactive <%s> is not loaded", e);
            continue;
        }
        if (get(r, k, "solref") || get(r, k, "solimp")) note_ignored(r, "solref/solimp");
        if (is_connect)
            connect(L, k);
        else if (is_weld)
            weld(L, k);
        else
            joint_coupling(L, k);
    }
}

// <contact>: <exclude body1 body2> pairs never collide (sinew's self-collision is off unless
// turned on; bodies a joint joins never collide); explicit <pair>s are listed as not read
static void contact_section(reader* r, int node) {
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        if (strcmp(e, "exclude")) {
            char what[64];
            snprintf(what, sizeof what, "contact %s", e);
            note_ignored(r, what);
            continue;
        }
        const char *b1 = get(r, k, "body1"), *b2 = get(r, k, "body2");
        if (!b1 || !b2) {
            rfail(r, k, SN_ERR_MODEL, "exclude", "an exclude names body1 and body2");
            return;
        }
        sni_exclude x = {sni_spec_name(r->s, b1), sni_spec_name(r->s, b2), NODE(r, k).line};
        if (sni_buf_push(&r->s->excludes, &x, sizeof x) < 0) {
            rfail(r, k, SN_ERR_NOMEM, "exclude", "out of memory");
            return;
        }
    }
}

// <tendon>: sinew has no tendons. Each one is named in a warning with what it would have done
static void tendons(reader* r, int node) {
    for (int k = NODE(r, node).first; k >= 0; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        const char* nm = get(r, k, "name");
        const char* parts[] = {"range", "limited", "stiffness", "damping", "frictionloss"};
        char set[96] = "";
        for (int i = 0; i < 5; i++)
            if (get(r, k, parts[i])) {
                size_t n = strlen(set);
                snprintf(set + n, sizeof set - n, "%s%s", n ? ", " : "", parts[i]);
            }
        rwarn(r, k, e,
              "tendon '%s' (%s) is not loaded: sinew has no tendons%s%s%s; equality constraints "
              "and actuators on it are refused or listed",
              nm ? nm : "(unnamed)", e, set[0] ? " (its " : "", set,
              set[0] ? " settings do not act)" : "");
    }
}

// <option>: the time step, gravity and integrator the file asks for (the model keeps them; a
// world takes them from `sinew run`); the rest is MuJoCo's solver and is listed as not read
static void option(loader* L, int node) {
    reader* r = L->r;
    sn_real v[3];
    int k = reals(L, node, -1, "timestep", v, 1);
    if (k < 0) return;
    if (k > 0) {
        if (!(v[0] > 0)) {
            rfail(r, node, SN_ERR_MODEL, "option", "timestep must be positive");
            return;
        }
        r->s->option_timestep = v[0];
    }
    if ((k = reals(L, node, -1, "gravity", v, 3)) < 0) return;
    if (k > 0) {
        v3_copy(r->s->option_gravity, v);
        r->s->option_has_gravity = 1;
    }
    const char* in = get(r, node, "integrator");
    if (in) {
        if (!strcmp(in, "Euler")) {
            r->s->option_scheme = 0; // MuJoCo's Euler is semi-implicit: SN_SCHEME_SEMI_IMPLICIT
        } else if (!strcmp(in, "RK4")) {
            r->s->option_scheme = 3; // SN_SCHEME_RK4
        } else if (!strcmp(in, "implicit") || !strcmp(in, "implicitfast")) {
            r->s->option_scheme = 0;
            rwarn(r, node, "option",
                  "integrator=\"%s\" is read as sinew's semi-implicit step (its PD and damping "
                  "are implicit already)",
                  in);
        } else {
            rfail(r, node, SN_ERR_MODEL, "option", "integrator=\"%s\" is not known", in);
            return;
        }
    }
    const xnode* n = &NODE(r, node);
    const long* kv = (const long*)r->attrs.data;
    for (int i = 0; i < n->nattr; i++) {
        const char* a = STR(r, kv[2 * (n->attr0 + i)]);
        if (strcmp(a, "timestep") && strcmp(a, "gravity") && strcmp(a, "integrator")) {
            char what[96];
            snprintf(what, sizeof what, "option %s", a);
            note_ignored(r, what);
        }
    }
    // <flag gravity="disable"> (no gravity) and contact="disable" (no contacts) are read; the
    // other flags are MuJoCo's solver's
    for (int c = n->first; c >= 0; c = NODE(r, c).next) {
        const char* g = strcmp(ename(r, c), "flag") ? NULL : get(r, c, "gravity");
        const char* ct = strcmp(ename(r, c), "flag") ? NULL : get(r, c, "contact");
        if (g && !strcmp(g, "disable")) {
            v3_set(r->s->option_gravity, 0, 0, 0);
            r->s->option_has_gravity = 1;
        }
        if (ct && !strcmp(ct, "disable")) r->s->option_contact_off = 1;
        const xnode* f = &NODE(r, c);
        if (f->nattr > (g ? 1 : 0) + (ct ? 1 : 0) || strcmp(ename(r, c), "flag"))
            note_ignored(r, "option flags");
    }
}

// <actuator>: motor, position and velocity actuators on joints. A position actuator's kp and a
// velocity actuator's kv become the joint's servo gains (m->dof_kp, dof_kd; times gear^2), a
// forcerange (or a motor's gear times its ctrlrange) its effort limit. Others are refused by
// name
// whether a range an actuator gives acts: its *limited attribute says so, or (auto, absent)
// <compiler autolimits="true"> does, as MuJoCo 2.2.2 reads them
static int range_limited(loader* L, int k, int cls, const char* attr) {
    const char* v = attr_of(L, k, cls, attr);
    if (v && !strcmp(v, "true")) return 1;
    if (v && !strcmp(v, "false")) return 0;
    return L->r->autolimits;
}

static const char* const actuator_read[] = {
    "name",    "class",     "joint",       "tendon",     "site",         "body", "jointinparent",
    "gear",    "ctrlrange", "ctrllimited", "forcerange", "forcelimited", "kp",   "kv",
    "dyntype", "gaintype",  "biastype",    "gainprm",    "biasprm",      NULL};

static void actuator_section(loader* L, int node) {
    reader* r = L->r;
    for (int k = NODE(r, node).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        int kind = !strcmp(e, "motor")      ? 0
                   : !strcmp(e, "position") ? 1
                   : !strcmp(e, "velocity") ? 2
                   : !strcmp(e, "general")  ? 3
                                            : -1;
        if (kind < 0) {
            rfail(r, k, SN_ERR_MODEL, e,
                  "<%s> actuators are not supported (motor, position, velocity, general)", e);
            return;
        }
        int cls = class_of(L, k, L->main_class);
        list_unread(L, k, cls, actuator_read);
        const char* jn = attr_of(L, k, cls, "joint");
        if (!jn) {
            // another transmission (a tendon, a site, a body): listed, not loaded
            static const char* const tr[] = {"tendon", "site", "body", "jointinparent"};
            const char *what = "a transmission", *on = "";
            for (int i = 0; i < 4; i++)
                if (attr_of(L, k, cls, tr[i])) what = tr[i], on = attr_of(L, k, cls, tr[i]);
            const char* an = get(r, k, "name");
            rwarn(r, k, e,
                  "actuator '%s' acts on %s '%s': only joint transmissions are read, it is not "
                  "loaded",
                  an ? an : "(unnamed)", what, on);
            continue;
        }
        sni_joint* j = (sni_joint*)r->s->joints.data;
        int found = -1;
        for (int i = 0; i < SNI_NJOINT(r->s) && found < 0; i++)
            if (!strcmp(r->s->names.data + j[i].name, jn)) found = i;
        if (found < 0) {
            rfail(r, k, SN_ERR_MODEL, e, "joint '%s' does not exist", jn);
            return;
        }
        sni_joint* jt = &j[found];
        if (jt->type == SN_JOINT_SPHERICAL || jt->type == SN_JOINT_FLOATING) {
            rfail(r, k, SN_ERR_MODEL, e,
                  "joint '%s': actuators on ball and free joints are not "
                  "supported",
                  jn);
            return;
        }
        sn_real gear[6] = {1, 0, 0, 0, 0, 0}, v, range[2], ctrl_gain = 1;
        const char* gs = attr_of(L, k, cls, "gear");
        if (gs) {
            int count = 0;
            if (sni_parse_real_list(gs, gear, 6, &count) != SNI_NUM_OK || count < 1) {
                rfail(r, k, SN_ERR_PARSE, e, "gear=\"%.60s\" is not 1 to 6 numbers", gs);
                return;
            }
        }
        if (kind == 3) {
            // general: force = gain ctrl + b0 + b1 q + b2 qdot. Fixed gain and no activation
            // dynamics only; an affine bias is a servo: kp = -b1, kd = -b2 (the target is
            // sinew's, so the ctrl's scale does not matter)
            const char* dt = attr_of(L, k, cls, "dyntype");
            const char* gt = attr_of(L, k, cls, "gaintype");
            const char* bt = attr_of(L, k, cls, "biastype");
            if ((dt && strcmp(dt, "none")) || (gt && strcmp(gt, "fixed")) ||
                (bt && strcmp(bt, "none") && strcmp(bt, "affine"))) {
                rfail(r, k, SN_ERR_MODEL, e,
                      "dyntype=\"%s\" gaintype=\"%s\" biastype=\"%s\": only dyntype none, "
                      "gaintype fixed and biastype none or affine are supported",
                      dt ? dt : "none", gt ? gt : "fixed", bt ? bt : "none");
                return;
            }
            sn_real gp[10] = {1}, bp[10] = {0};
            const char* gs2 = attr_of(L, k, cls, "gainprm");
            const char* bs = attr_of(L, k, cls, "biasprm");
            int cnt = 0;
            if ((gs2 && sni_parse_real_list(gs2, gp, 10, &cnt) != SNI_NUM_OK) ||
                (bs && sni_parse_real_list(bs, bp, 10, &cnt) != SNI_NUM_OK)) {
                rfail(r, k, SN_ERR_PARSE, e, "gainprm or biasprm is not a list of numbers");
                return;
            }
            if (bt && !strcmp(bt, "affine")) {
                if (bp[0] != 0)
                    rwarn(r, k, e, "biasprm[0] = %g (a constant force) is not read", bp[0]);
                jt->kp += -bp[1] * gear[0] * gear[0];
                jt->kd += -bp[2] * gear[0] * gear[0];
                if (jt->kp < 0 || jt->kd < 0) {
                    rfail(r, k, SN_ERR_MODEL, e,
                          "biasprm=\"%s\" makes a negative servo gain (kp = -biasprm[1], "
                          "kd = -biasprm[2])",
                          bs);
                    return;
                }
            }
            kind = bt && !strcmp(bt, "affine") ? 1 : 0;
            ctrl_gain = gp[0]; // a motor's force is gain * ctrl

        } else if (kind == 1) {
            v = 1; // MuJoCo's default kp
            if (reals(L, k, cls, "kp", &v, 1) < 0) return;
            jt->kp += v * gear[0] * gear[0];
        } else if (kind == 2) {
            v = 1;
            if (reals(L, k, cls, "kv", &v, 1) < 0) return;
            jt->kd += v * gear[0] * gear[0];
        }
        int kf = reals(L, k, cls, "forcerange", range, 2);
        if (kf < 0) return;
        if (kf > 0 && !range_limited(L, k, cls, "forcelimited")) kf = 0;
        if (kf > 0) {
            jt->effort = fmax(fabs(range[0]), fabs(range[1])) * fabs(gear[0]);
            if (fabs(range[0]) != fabs(range[1]))
                rwarn(r, k, e, "forcerange [%g, %g] is read as the symmetric bound %g", range[0],
                      range[1], jt->effort);
        } else if (kind == 0) {
            int kc = reals(L, k, cls, "ctrlrange", range, 2);
            if (kc < 0) return;
            if (kc > 0 && !range_limited(L, k, cls, "ctrllimited")) kc = 0;
            if (kc > 0)
                jt->effort = fmax(fabs(range[0]), fabs(range[1])) * fabs(ctrl_gain * gear[0]);
        }
    }
}

// exactly n finite numbers (any n)
static int exactly(const char* text, sn_real* out, int n) {
    int count = 0;
    sni_num_result res = sni_parse_real_list(text, out, n, &count);
    return (res == SNI_NUM_OK || res == SNI_NUM_UNDERFLOW) && count == n;
}

// <keyframe><key name qpos qvel>: in sinew's conventions (MuJoCo's free-joint angular velocity
// is in the body's frame and its ball velocities in the child's: both turned to sinew's frames)
static void read_keys(loader* L, const int* frames, int nframes) {
    reader* r = L->r;
    const sni_joint* j = (const sni_joint*)r->s->joints.data;
    int nj = SNI_NJOINT(r->s), nq = L->floating ? 7 : 0, nv = L->floating ? 6 : 0, nkey = 0;
    for (int i = 0; i < nj; i++) {
        nq += spec_nq(j[i].type);
        nv += spec_nv(j[i].type);
    }
    for (int f = 0; f < nframes; f++)
        for (int k = NODE(r, frames[f]).first; k >= 0; k = NODE(r, k).next) {
            if (strcmp(ename(r, k), "key")) {
                rfail(r, k, SN_ERR_MODEL, ename(r, k), "<%s> inside <keyframe>", ename(r, k));
                return;
            }
            nkey++;
        }
    if (nkey == 0) return;
    size_t bytes = (size_t)nkey * (sizeof(long) + (size_t)(nq + nv) * sizeof(sn_real));
    long* names = sni_alloc(r->a, bytes);
    if (!names) {
        rfail(r, frames[0], SN_ERR_NOMEM, "keyframe", "out of memory");
        return;
    }
    sn_real* kq = (sn_real*)(names + nkey);
    sn_real* ku = kq + (size_t)nkey * nq;
    r->s->key_name = names, r->s->key_q = kq, r->s->key_u = ku, r->s->key_bytes = bytes;
    r->s->nkey = nkey, r->s->key_nq = nq, r->s->key_nv = nv;
    int n = 0;
    for (int f = 0; f < nframes && r->st == SN_OK; f++)
        for (int k = NODE(r, frames[f]).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next, n++) {
            sn_real* q = kq + (size_t)n * nq;
            sn_real* u = ku + (size_t)n * nv;
            const char* nm = get(r, k, "name");
            char gen[32];
            snprintf(gen, sizeof gen, "key%d", n);
            names[n] = sni_spec_name(r->s, nm ? nm : gen);
            // qpos0 unless given: the nominal configuration (or zero with unit quaternions)
            if (r->s->has_nominal) {
                memcpy(q, r->s->nominal, (size_t)nq * sizeof(sn_real));
            } else {
                memset(q, 0, (size_t)nq * sizeof(sn_real));
                for (int i = 0, a = 0; i < nj; i++) {
                    if (j[i].type == SN_JOINT_SPHERICAL) q[a] = 1;
                    a += spec_nq(j[i].type);
                }
            }
            memset(u, 0, (size_t)nv * sizeof(sn_real));
            const char* qs = get(r, k, "qpos");
            if (qs && !exactly(qs, q, nq)) {
                rfail(r, k, SN_ERR_PARSE, "key", "qpos must have %d finite numbers", nq);
                return;
            }
            const char* us = get(r, k, "qvel");
            if (us && !exactly(us, u, nv)) {
                rfail(r, k, SN_ERR_PARSE, "key", "qvel must have %d finite numbers", nv);
                return;
            }
            if (get(r, k, "act") || get(r, k, "ctrl") || get(r, k, "time"))
                note_ignored(r, "key act/ctrl/time");
            // MuJoCo's angular velocities into sinew's frames
            sn_real R[9], w[3];
            int a = 0, v = 0;
            if (L->floating) {
                sn_real qn = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
                if (qn > 0) {
                    sn_real quat[4] = {q[3] / qn, q[4] / qn, q[5] / qn, q[6] / qn};
                    quat_to_m3(R, quat);
                    m3_mul_v3(w, R, u + 3);
                    v3_copy(u + 3, w);
                }
                a = 7, v = 6;
            }
            for (int i = 0; i < nj; i++) {
                // a ball joint's quaternion at a, a free joint's after its position
                int t = j[i].type, qa = a + (t == SN_JOINT_FLOATING ? 3 : 0),
                    va = v + (t == SN_JOINT_FLOATING ? 3 : 0);
                if (t == SN_JOINT_SPHERICAL || t == SN_JOINT_FLOATING) {
                    sn_real qn = sqrt(q[qa] * q[qa] + q[qa + 1] * q[qa + 1] +
                                      q[qa + 2] * q[qa + 2] + q[qa + 3] * q[qa + 3]);
                    if (qn > 0) {
                        sn_real quat[4] = {q[qa] / qn, q[qa + 1] / qn, q[qa + 2] / qn,
                                           q[qa + 3] / qn};
                        quat_to_m3(R, quat);
                        m3_mul_v3(w, R, u + va);
                        v3_copy(u + va, w);
                    }
                }
                a += spec_nq(t);
                v += spec_nv(t);
            }
        }
}

static sn_status load_tree_in(reader* r, loader* L);

static sn_status load_tree(reader* r) {
    loader* L = sni_alloc(r->a, sizeof(loader));
    if (!L) return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
    memset(L, 0, sizeof *L);
    L->r = r;
    L->main_class = -1;
    L->sites.alloc = L->free_poses.alloc = L->meshes.alloc = r->a;
    sn_status st = load_tree_in(r, L);
    if (L->classes) sni_free(r->a, L->classes, sizeof(dclass) * (size_t)L->nclass);
    sni_buf_free(&L->sites);
    sni_buf_free(&L->free_poses);
    sni_buf_free(&L->meshes);
    sni_free(r->a, L, sizeof(loader));
    return st;
}

static sn_status load_tree_in(reader* r, loader* L) {
    int root = 0;
    if (NNODE(r) == 0 || strcmp(ename(r, root), "mujoco")) {
        rfail(r, NNODE(r) ? root : -1, SN_ERR_PARSE, "mujoco", "the root element must be <mujoco>");
        return r->st;
    }
    int world = -1, nequality = 0, equalities[16], nworld = 0, worlds[16], nkeyframe = 0,
        keyframes[16], nactuator = 0, actuators[16], nasset = 0, asset_nodes[16];
    for (int k = NODE(r, root).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
        const char* e = ename(r, k);
        if (!strcmp(e, "compiler")) {
            compiler_settings(r, k);
        } else if (!strcmp(e, "default")) {
            if (L->main_class >= 0) {
                rfail(r, k, SN_ERR_MODEL, "default", "more than one top-level <default>");
                break;
            }
            L->main_class = collect_defaults(L, k, -1);
        } else if (!strcmp(e, "worldbody")) {
            // several (a scene that includes its robot) read as one, in order
            if (nworld == 16) {
                rfail(r, k, SN_ERR_LIMIT, "worldbody", "more than 16 <worldbody> elements");
                break;
            }
            worlds[nworld++] = k;
            if (world < 0) world = k;
        } else if (!strcmp(e, "equality")) {
            if (nequality < 16) equalities[nequality++] = k;
        } else if (!strcmp(e, "option")) {
            option(L, k);
        } else if (!strcmp(e, "actuator")) {
            if (nactuator < 16) actuators[nactuator++] = k;
        } else if (!strcmp(e, "keyframe")) {
            if (nkeyframe < 16) keyframes[nkeyframe++] = k;
        } else if (!strcmp(e, "tendon")) {
            tendons(r, k);
        } else if (!strcmp(e, "contact")) {
            contact_section(r, k);
        } else if (!strcmp(e, "asset")) {
            if (nasset < 16) asset_nodes[nasset++] = k;
        } else if (!strcmp(e, "size") || !strcmp(e, "visual") || !strcmp(e, "statistic") ||
                   !strcmp(e, "asset") || !strcmp(e, "contact") || !strcmp(e, "sensor") ||
                   !strcmp(e, "keyframe") || !strcmp(e, "custom") || !strcmp(e, "actuator")) {
            note_ignored(r, e);
        } else {
            rfail(r, k, SN_ERR_MODEL, e, "<%s> is not supported", e);
        }
    }
    if (r->st == SN_OK && L->main_class < 0) {
        // no <default>: an empty main class
        dclass* c = sni_alloc(r->a, sizeof(dclass));
        if (!c) return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
        c->name = pool_add(r, "main");
        c->node = root; // its children hold no default element kinds that matter
        c->parent = -1;
        L->classes = c;
        L->nclass = 1;
        L->main_class = 0;
    }
    if (r->st == SN_OK && world < 0) rfail(r, root, SN_ERR_MODEL, "mujoco", "no <worldbody>");
    for (int i = 0; i < nasset && r->st == SN_OK; i++)
        assets(L, asset_nodes[i]);
    // the floating base: a free joint on the one body of <worldbody>
    int first_body = -1, nbody_top = 0;
    for (int w = 0; w < nworld; w++)
        for (int k = NODE(r, worlds[w]).first; k >= 0; k = NODE(r, k).next)
            if (!strcmp(ename(r, k), "body")) {
                if (first_body < 0) first_body = k;
                nbody_top++;
            }
    if (r->st == SN_OK && nbody_top == 1) {
        for (int k = NODE(r, first_body).first; k >= 0; k = NODE(r, k).next) {
            const char* e = ename(r, k);
            if (!strcmp(e, "freejoint") ||
                (!strcmp(e, "joint") && joint_kind(attr_of(L, k, class_of(L, k, L->main_class),
                                                           "type")) == SN_JOINT_FLOATING))
                L->floating = 1;
        }
    }
    // an equality constraint on the world keeps the world a link (the free body hangs from it)
    for (int i = 0; i < nequality && L->floating; i++)
        for (int k = NODE(r, equalities[i]).first; k >= 0; k = NODE(r, k).next) {
            const char *b1 = get(r, k, "body1"), *b2 = get(r, k, "body2");
            const char *s1 = get(r, k, "site1"), *s2 = get(r, k, "site2");
            int on_world = (b1 && !strcmp(b1, "world")) || (b2 && !strcmp(b2, "world")) ||
                           (b1 && !b2 && strcmp(ename(r, k), "joint"));
            for (int w = 0; w < nworld && !on_world; w++)
                for (int c = NODE(r, worlds[w]).first; c >= 0; c = NODE(r, c).next) {
                    const char* sn = strcmp(ename(r, c), "site") ? NULL : get(r, c, "name");
                    if (sn && ((s1 && !strcmp(sn, s1)) || (s2 && !strcmp(sn, s2)))) on_world = 1;
                }
            if (on_world) L->floating = 0;
        }
    long world_link = -1;
    if (r->st == SN_OK && !L->floating) {
        world_link = sni_spec_name(r->s, "world");
        if (!new_link(L, world_link, NODE(r, world).line))
            return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
    }
    for (int w = 0; w < nworld && r->st == SN_OK; w++)
        for (int k = NODE(r, worlds[w]).first; k >= 0 && r->st == SN_OK; k = NODE(r, k).next) {
            const char* e = ename(r, k);
            if (!strcmp(e, "body")) {
                body(L, k, world_link, L->main_class, L->floating && k == first_body, 1);
            } else if (!strcmp(e, "geom")) {
                const char* t = attr_of(L, k, class_of(L, k, L->main_class), "type");
                if (t && !strcmp(t, "plane"))
                    world_plane(L, k);
                else if (t && !strcmp(t, "hfield"))
                    rwarn(r, k, "geom",
                          "a height field in <worldbody> is not loaded: terrain is the world's "
                          "(sn_world_set_heightfield; `sinew run --heightfield`)");
                else if (L->floating)
                    rwarn(r, k, "geom", "a geom of <worldbody> is not loaded with a floating base");
                else
                    one_geom(L, k, L->main_class, 0);
            } else if (!strcmp(e, "site")) {
                one_site(L, k, L->main_class, world_link);
            } else if (!strcmp(e, "light") || !strcmp(e, "camera")) {
                note_ignored(r, e);
            } else {
                rfail(r, k, SN_ERR_MODEL, e, "<%s> inside <worldbody> is not supported", e);
            }
        }
    for (int i = 0; i < nequality && r->st == SN_OK; i++)
        equality(L, equalities[i]);
    if (r->st == SN_OK && L->has_ref && SNI_NJOINT(r->s) > MAX_REF_JOINTS)
        rfail(r, world, SN_ERR_LIMIT, "joint", "ref with more than %d joints", MAX_REF_JOINTS);
    if (r->st == SN_OK && (L->floating || L->has_ref || L->free_poses.len)) {
        // the nominal configuration (MuJoCo's qpos0): the floating base and free bodies where
        // the file puts them, each joint at its ref
        int nq = L->floating ? 7 : 0;
        const sni_joint* j = (const sni_joint*)r->s->joints.data;
        for (int i = 0; i < SNI_NJOINT(r->s); i++)
            nq += spec_nq(j[i].type);
        r->s->nominal = sni_alloc(r->a, (size_t)nq * sizeof(sn_real));
        if (!r->s->nominal)
            return sni_error(r->err, SN_ERR_NOMEM, r->s->file, 0, "", "out of memory");
        r->s->nominal_bytes = (size_t)nq * sizeof(sn_real);
        memset(r->s->nominal, 0, r->s->nominal_bytes);
        if (L->floating) memcpy(r->s->nominal, L->root_pose, sizeof L->root_pose);
        int a = L->floating ? 7 : 0;
        const free_rec* fr = (const free_rec*)L->free_poses.data;
        int nfree = (int)(L->free_poses.len / sizeof(free_rec)), f = 0;
        for (int i = 0; i < SNI_NJOINT(r->s); i++) {
            if (j[i].type == SN_JOINT_SPHERICAL) r->s->nominal[a] = 1;
            if (j[i].type == SN_JOINT_FLOATING && f < nfree && fr[f].joint == i)
                memcpy(r->s->nominal + a, fr[f++].pose, 7 * sizeof(sn_real));
            if ((j[i].type == SN_JOINT_REVOLUTE || j[i].type == SN_JOINT_CONTINUOUS ||
                 j[i].type == SN_JOINT_PRISMATIC) &&
                i < MAX_REF_JOINTS)
                r->s->nominal[a] = L->ref[i];
            a += spec_nq(j[i].type);
        }
        r->s->nnominal = nq;
        r->s->has_nominal = 1;
    }
    if (r->st == SN_OK) r->s->base = L->floating ? SN_BASE_FLOATING : SN_BASE_FIXED;
    for (int i = 0; i < nactuator && r->st == SN_OK; i++)
        actuator_section(L, actuators[i]);
    if (r->st == SN_OK && nkeyframe) read_keys(L, keyframes, nkeyframe);
    if (r->st == SN_OK && r->ignored[0])
        sni_spec_warn(r->s, 0, "mujoco", "not read (MuJoCo's own settings): %s", r->ignored);
    return r->st;
}

// the <include> elements, recursively, each file once and from inside the model's folder
static sn_status includes(reader* r, size_t max) {
    for (int i = 0; i < NNODE(r) && r->st == SN_OK; i++) {
        if (strcmp(ename(r, i), "include") || NODE(r, i).name < 0) continue;
        const char* f = get(r, i, "file");
        if (!f || !f[0]) {
            rfail(r, i, SN_ERR_PARSE, "include", "missing attribute 'file'");
            break;
        }
        if (f[0] == '/' || strstr(f, "..")) {
            rfail(r, i, SN_ERR_MODEL, "include",
                  "file=\"%s\": an include must stay inside the model's folder", f);
            break;
        }
        if (NODE(r, i).first >= 0) {
            rfail(r, i, SN_ERR_MODEL, "include", "an include element cannot have children");
            break;
        }
        if (r->nfile > MAX_INCLUDES) {
            rfail(r, i, SN_ERR_LIMIT, "include", "more than %d included files", MAX_INCLUDES);
            break;
        }
        char full[600];
        snprintf(full, sizeof full, "%s/%s", r->dir, f);
        int again = 0;
        for (int k = 0; k < r->nfile && !again; k++)
            again = !strcmp(r->files[k], full) ||
                    (k == 0 && !strcmp(strrchr(r->files[0], '/') ? strrchr(r->files[0], '/') + 1
                                                                 : r->files[0],
                                       f));
        if (again) {
            rfail(r, i, SN_ERR_MODEL, "include", "file '%s' is already included (a cycle?)", f);
            break;
        }
        int id = r->nfile++;
        snprintf(r->files[id], sizeof r->files[id], "%s", full);
        size_t n = 0;
        char* text = read_file(r, r->files[id], max, &n);
        if (!text) {
            rfail(r, i, SN_ERR_IO, "include", "cannot read '%s'", r->files[id]);
            break;
        }
        int parent = NODE(r, i).parent;
        if (parent < 0) { // the document's root
            sni_free(r->a, text, n + 1);
            rfail(r, i, SN_ERR_MODEL, "include", "an include must be inside <mujoco>");
            break;
        }
        // the include element itself is dropped from its parent's children
        xnode* p = &NODE(r, parent);
        int prev = -1;
        for (int c = p->first; c >= 0; c = NODE(r, c).next) {
            if (c == i) break;
            prev = c;
        }
        if (prev >= 0)
            NODE(r, prev).next = NODE(r, i).next;
        else
            p->first = NODE(r, i).next;
        if (p->last == i) p->last = prev;
        NODE(r, i).name = pool_add(r, "#included");
        parse_text(r, text, n, id, parent);
        sni_free(r->a, text, n + 1);
    }
    return r->st;
}

static sn_status springdampers(reader* r, sn_model* m, const char* file, sn_error* err);


static sn_status load(const char* xml, size_t len, const char* name, const char* dir,
                      const sn_load_opts* opts, sn_model** out, sn_error* err) {
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    if (len > max)
        return sni_error(
            err, SN_ERR_LIMIT, name, 0, "",
            "input of %zu bytes exceeds the limit of %zu (sn_load_opts.max_file_bytes)", len, max);
    sni_spec s;
    sni_spec_init(&s, opts ? opts->allocator : NULL, name);
    s.format = SN_FORMAT_MJCF;
    s.balance_inertia = opts ? opts->balance_inertia : 0;
    s.strict_inertia = opts ? opts->strict_inertia : 0;
    s.log = opts ? opts->log : NULL;
    s.log_ctx = opts ? opts->log_ctx : NULL;
    reader r;
    memset(&r, 0, sizeof r);
    r.s = &s;
    r.err = err;
    r.a = opts ? opts->allocator : NULL;
    r.dir = dir;
    r.degree = 1;
    memcpy(r.eulerseq, "xyz", 4);
    r.inertia_from_geom = 2;
    r.autolimits = 0; // MuJoCo 2.2's default
    snprintf(r.files[0], sizeof r.files[0], "%s", name);
    r.nfile = 1;
    sn_status st = parse_text(&r, xml, len, 0, -1);
    if (st == SN_OK) st = includes(&r, max);
    if (st == SN_OK) st = load_tree(&r);
    if (st == SN_OK && (s.names.failed || s.links.failed || s.joints.failed || s.geoms.failed))
        st = sni_error(err, SN_ERR_NOMEM, name, 0, "", "out of memory");
    if (st == SN_OK) st = sni_compile(&s, r.a, out, err);
    if (st == SN_OK) st = springdampers(&r, *out, name, err);
    if (st != SN_OK && *out) {
        sn_model_destroy(*out);
        *out = NULL;
    }
    sni_buf_free(&r.springdampers);
    sni_buf_free(&r.pool);
    sni_buf_free(&r.nodes);
    sni_buf_free(&r.attrs);
    sni_spec_free(&s);
    return st;
}

// springdamper (MuJoCo's): the joint's stiffness and damping make a mass-spring-damper of the
// given time constant tc and damping ratio z with the joint's inertia m at the nominal
// configuration (1 / the diagonal of M^-1, as MuJoCo takes it): k = m / (tc z)^2, b = 2 m / tc
static sn_status springdampers(reader* r, sn_model* m, const char* file, sn_error* err) {
    int n = (int)(r->springdampers.len / sizeof(springdamper_rec));
    if (n == 0) return SN_OK;
    sn_data* d = NULL;
    sn_status st = sn_data_create(m, NULL, &d, err);
    if (st == SN_OK && m->nominal_config)
        st = sn_set_state(m, d, m->nominal_config, m->nq, NULL, 0);
    if (st == SN_OK) st = sn_fk(m, d);
    if (st == SN_OK) st = sn_crba(m, d);
    if (st == SN_OK) st = sn_inverse_mass(m, d);
    const springdamper_rec* sr = (const springdamper_rec*)(void*)r->springdampers.data;
    for (int i = 0; i < n && st == SN_OK; i++) {
        int j = sn_model_find(m, SN_OBJ_JOINT, STR(r, sr[i].joint));
        if (j == SN_NONE) continue; // a joint the compiler folded away
        int v = m->joint_vadr[j];
        sn_real w = d->inverse_mass[(size_t)v * m->nv + v];
        if (!(w > 0) || !isfinite(w)) {
            st = sni_error(err, SN_ERR_MODEL, file, 0, "joint",
                           "joint '%s' has no inertia for its springdamper", STR(r, sr[i].joint));
            break;
        }
        sn_real mass = 1 / w, tc = sr[i].timeconst, z = sr[i].dampratio;
        m->dof_stiffness[v] = mass / (tc * tc * z * z);
        m->dof_damping[v] = 2 * mass / tc;
    }
    sn_data_destroy(d);
    return st;
}

sn_status sn_load_mjcf_string(const char* xml, size_t len, const char* name, const char* base_dir,
                              const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, name, 0, "", "out is NULL");
    *out = NULL;
    if (!xml) return sni_error(err, SN_ERR_ARG, name, 0, "", "xml is NULL");
    return load(xml, len, name ? name : "<string>", base_dir ? base_dir : ".", opts, out, err);
}

sn_status sn_load_mjcf(const char* path, const sn_load_opts* opts, sn_model** out, sn_error* err) {
    if (err) memset(err, 0, sizeof *err);
    if (!out) return sni_error(err, SN_ERR_ARG, path, 0, "", "out is NULL");
    *out = NULL;
    if (!path) return sni_error(err, SN_ERR_ARG, "", 0, "", "path is NULL");
    size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : DEFAULT_MAX_FILE;
    reader tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.a = opts ? opts->allocator : NULL;
    size_t n = 0;
    struct stat st;
    if (stat(path, &st) != 0) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot open the file");
    if ((size_t)st.st_size > max)
        return sni_error(
            err, SN_ERR_LIMIT, path, 0, "",
            "file of %lld bytes exceeds the limit of %zu (sn_load_opts.max_file_bytes)",
            (long long)st.st_size, max);
    char* buf = read_file(&tmp, path, max, &n);
    if (!buf) return sni_error(err, SN_ERR_IO, path, 0, "", "cannot read the file");
    char dir[1024];
    sni_dir_of(path, dir, sizeof dir);
    sn_status s = load(buf, n, path, dir, opts, out, err);
    sni_free(tmp.a, buf, n + 1);
    return s;
}
