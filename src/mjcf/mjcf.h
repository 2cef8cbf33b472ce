// SPDX-License-Identifier: Apache-2.0
// mjcf.h: the MJCF reader's internal header (src/mjcf/*.c only). The reader holds the element
// tree (xml.c) and the <compiler> settings; the loader holds what reading the document gathers
// (default classes, sites, meshes, free bodies, joint refs). Every function that fails records
// the first error in r->st and r->err (sni_mjcf_fail), so a caller checks r->st.
#ifndef SNI_MJCF_H
#define SNI_MJCF_H

#include "base/base.h"
#include "base/smath.h"
#include "model/spec.h"
#include "sinew/sn_sensor.h"

#include <expat.h>
#include <string.h>

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

typedef struct reader {
    sni_spec* s;
    sn_error* err;
    sn_status st;
    const sn_allocator* a;
    sni_buf pool;    // strings
    sni_buf nodes;   // xnode
    sni_buf attrs;   // long pairs: name, value
    const char* dir; // the model's folder
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

// the value of attribute `name` of element `node`, NULL when it has none (classes not looked at)
static inline const char* get(reader* r, int node, const char* name) {
    const xnode* n = &NODE(r, node);
    const long* kv = (const long*)r->attrs.data;
    for (int i = 0; i < n->nattr; i++)
        if (!strcmp(STR(r, kv[2 * (n->attr0 + i)]), name))
            return STR(r, kv[2 * (n->attr0 + i) + 1]);
    return NULL;
}

// the element's name ("body", "geom")
static inline const char* ename(reader* r, int node) {
    return STR(r, NODE(r, node).name);
}

// ---- what reading the document gathers ----

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

// ---- xml.c: the tree, errors and includes ----

// a string into the pool: its offset (the pool's failed flag on no memory)
long sni_mjcf_pool_add(reader* r, const char* s);
// the first error (later ones are dropped), at element `node` (-1: none) of its file
void sni_mjcf_fail(reader* r, int node, sn_status code, const char* element, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));
// a warning on the spec, at element `node`'s line
void sni_mjcf_warn(reader* r, int node, const char* element, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
// parse one file's text; its root's children are appended under `under` (-1: a new root)
sn_status sni_mjcf_parse_text(reader* r, const char* xml, size_t len, int file, int under);
// the <include> elements, recursively, each file once and from inside the model's folder
sn_status sni_mjcf_includes(reader* r, size_t max);

// ---- classes.c: default classes and attributes ----

int sni_mjcf_class_find(loader* L, const char* name);
// an attribute of an element, or else of its class chain (the element's class, or the enclosing
// childclass, or "main"), for elements of that kind
const char* sni_mjcf_attr_of(loader* L, int node, int cls, const char* name);
// exactly n numbers of an attribute (element or class chain): 1, 0 when absent, -1 on error
int sni_mjcf_reals(loader* L, int node, int cls, const char* name, sn_real* out, int n);
// the class an element uses: its own, else the childclass in force
int sni_mjcf_class_of(loader* L, int node, int childclass);
// the default classes, depth first: the outermost <default> is "main"; its id, -1 on error
int sni_mjcf_collect_defaults(loader* L, int node, int parent);
// name a part of the file sinew does not read in the one "not read" warning ("geom friction")
void sni_mjcf_note_ignored(reader* r, const char* what);
// the attributes of element k, and of its kind's defaults in class cls and its parents, that
// are not in `known`: each named once in the "not read" warning
void sni_mjcf_list_unread(loader* L, int k, int cls, const char* const* known);
// R: the shortest turn taking z onto the unit vector d
void sni_mjcf_z_onto(sn_real* R, const sn_real* d);
// the orientation of an element (quat, axisangle, euler, xyaxes, zaxis; identity without): 0,
// or -1 on error
int sni_mjcf_orientation(loader* L, int node, int cls, sn_real* R);

// ---- bodies.c: the body tree ----

// a body and its subtree; root_free: the floating base's body; top: a body of <worldbody>
void sni_mjcf_body(loader* L, int node, long parent_link, int parent_childclass, int root_free,
                   int top);
// the collision shape of <geom> element k on link `link`
void sni_mjcf_one_geom(loader* L, int k, int childclass, int link);
// a named <site> on link `link` (an unnamed one cannot be referred to)
void sni_mjcf_one_site(loader* L, int k, int childclass, long link);
// a plane of <worldbody>: the world's ground
void sni_mjcf_world_plane(loader* L, int k);
sni_link* sni_mjcf_new_link(loader* L, long name, int line);
// the spec joint type of an MJCF joint type (NULL: hinge), -1 when not supported
int sni_mjcf_joint_kind(const char* t);
// coordinates and velocities of a spec joint
int sni_mjcf_spec_nq(int type);
int sni_mjcf_spec_nv(int type);

// ---- assets.c: <asset> and mesh solids ----

// <asset><mesh name file scale class>: the meshes geoms refer to
void sni_mjcf_assets(loader* L, int node);
const mesh_rec* sni_mjcf_mesh_find(loader* L, const char* name);
// a mesh geom's solid at unit density (volume, centroid and inertia about it, in the mesh's
// frame): 1, or 0 when it adds no mass (its file is absent, with a warning), -1 on error
int sni_mjcf_mesh_mass(loader* L, int k, int cls, long link_name, sn_real* vol, sn_real* com,
                       sn_real* I);

// ---- sections.c: the sections beside the body tree ----

void sni_mjcf_compiler_settings(reader* r, int node);
void sni_mjcf_equality(loader* L, int node);
void sni_mjcf_contact_section(reader* r, int node);
void sni_mjcf_tendons(loader* L, int node);
// sections.c: the site record of a <site> by name (NULL: none); a spec joint's index by name (-1)
const site_rec* sni_mjcf_site_find(loader* L, const char* name);
int sni_mjcf_joint_find(sni_spec* s, const char* name);
// tendons.c: whether a range attr (kr numbers read into range) acts, by its lattr (*limited)
// attribute and the compiler's autolimits as MuJoCo 2.2.2 has it; 1 acts, 0 does not, -1 refused
// (r->st set). who names the element
int sni_mjcf_range_limited(loader* L, int k, int cls, const char* who, const char* attr,
                           const char* lattr, int kr, sn_real* range);
void sni_mjcf_option(loader* L, int node);
// sensors.c: the <sensor> section's sensors into the spec (after the bodies: sites resolved)
void sni_mjcf_sensors(loader* L, int node);
// <custom>: sinew's soft contact entries (docs/expo.md "Soft parameters"): <text
// name="sinew:contact" data="soft|hard">, <numeric name="sinew:soft_contact[:A:B]" data="kn [kt
// bn bt mu bilateral]">, <numeric name="sinew:material:BODY" data="id">, <numeric
// name="sinew:soft_points:BODY" data="x y z ..."> (at most SN_MJCF_SOFT_POINTS a body); the
// other entries are MuJoCo's and listed as not read
#define SN_MJCF_SOFT_POINTS 64
void sni_mjcf_custom(reader* r, int node);
void sni_mjcf_actuator_section(loader* L, int node);
// <keyframe><key>s of the `nframes` <keyframe> elements
void sni_mjcf_read_keys(loader* L, const int* frames, int nframes);

#endif
