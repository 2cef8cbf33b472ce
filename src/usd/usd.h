// SPDX-License-Identifier: Apache-2.0
// usd.h: the USD reader's internal header (src/usd/*.c only; docs/usd.md). usda.c reads the text
// form into a tree of prims and their properties, with the values kept as token ranges and read
// on demand; physics.c turns the UsdPhysics description of an articulated robot into a spec.
#ifndef SNI_USD_H
#define SNI_USD_H

#include "base/base.h"
#include "model/spec.h"

#define SNI_USD_MAX_DEPTH 128 // nested prims and brackets

typedef enum {
    UT_END = 0,
    UT_IDENT, // a word: keywords, type names, property names (with ':' and '.')
    UT_NUM,   // a number (inf and nan are words)
    UT_STR,   // a quoted string, quotes stripped, escapes kept
    UT_PATH,  // <...>, brackets stripped
    UT_ASSET, // @...@, the at-signs stripped
    UT_PUNCT, // one of ( ) [ ] { } = , ; :
} sni_usd_tok_kind;

typedef struct sni_usd_tok {
    int kind;
    int line;
    const char* s; // into the document
    int n;
} sni_usd_tok;

// API schemas applied to a prim (its apiSchemas metadata)
enum {
    USD_API_RIGID = 1 << 0,     // PhysicsRigidBodyAPI
    USD_API_MASS = 1 << 1,      // PhysicsMassAPI
    USD_API_COLLISION = 1 << 2, // PhysicsCollisionAPI
    USD_API_ARTROOT = 1 << 3,   // PhysicsArticulationRootAPI
    USD_API_DRIVE_ANG = 1 << 4, // PhysicsDriveAPI:angular
    USD_API_DRIVE_LIN = 1 << 5, // PhysicsDriveAPI:linear
    USD_API_MATERIAL = 1 << 6,  // PhysicsMaterialAPI
    USD_API_LIMIT = 1 << 7,     // PhysicsLimitAPI (of a D6 joint: not read)
};

typedef struct sni_usd_prim {
    int parent, first, last, next; // the prim tree, -1: none (prim 0 is the pseudo-root)
    int prop_first, prop_last;     // its properties, -1: none
    int line;
    int specifier; // 0 def, 1 over, 2 class
    int type;      // token of the type name, -1: none
    int name;      // token of the name
    unsigned api;  // USD_API_*
    int depth;     //
    int in_class;  // inside a class prim: not instantiated
} sni_usd_prim;

typedef struct sni_usd_prop {
    int next;     // the prim's next property, -1
    int prim;     // the prim it belongs to
    int name;     // token of the name ("physics:mass", "xformOp:translate")
    int type;     // token of the type name ("float", "quatf", "rel")
    int is_array; // declared with []
    int uniform;  //
    int v0, v1;   // the value's tokens [v0, v1); v0 == v1: declared without a value
    int line;     //
} sni_usd_prop;

typedef struct sni_usd_doc {
    const sn_allocator* a;
    const char* file;
    sn_error* err;
    sn_status st;
    sni_buf toks;  // sni_usd_tok
    sni_buf prims; // sni_usd_prim
    sni_buf props; // sni_usd_prop
    int* index;    // the prims by (parent, name): open addressing, -1 empty
    size_t index_cap;
    // the layer's metadata
    sn_real meters_per_unit, kilograms_per_unit;
    int up_axis; // 1: Y, 2: Z
} sni_usd_doc;

#define USD_TOK(d, i) ((const sni_usd_tok*)(d)->toks.data + (i))
#define USD_PRIM(d, i) ((sni_usd_prim*)(d)->prims.data + (i))
#define USD_PROP(d, i) ((const sni_usd_prop*)(d)->props.data + (i))
#define USD_NPRIM(d) ((int)((d)->prims.len / sizeof(sni_usd_prim)))

// ---- usda.c ----

// read the text of a .usda layer (len bytes) into d; the text must stay alive while d is used
sn_status sni_usd_parse(sni_usd_doc* d, const char* text, size_t len, const sn_allocator* a,
                        const char* file, sn_error* err);
void sni_usd_free(sni_usd_doc* d);
// an error at a line, with the element (a prim's path, a property's name) named
sn_status sni_usd_fail(sni_usd_doc* d, int line, sn_status code, const char* element,
                       const char* fmt, ...) __attribute__((format(printf, 5, 6)));
// does token i spell s?
int sni_usd_tok_is(const sni_usd_doc* d, int i, const char* s);
// token i as a NUL-terminated string into buf (cut to cap - 1 bytes)
const char* sni_usd_tok_str(const sni_usd_doc* d, int i, char* buf, size_t cap);
// the prim's path ("/World/crank") into buf
const char* sni_usd_path(const sni_usd_doc* d, int prim, char* buf, size_t cap);
// the prim a path names: absolute, or relative to prim `from` ("../a", "./b", "b"); -1: none
int sni_usd_find(const sni_usd_doc* d, int from, const char* path, int n);
// a property of the prim by name, -1 when the prim has none
int sni_usd_prop_find(const sni_usd_doc* d, int prim, const char* name);

// the property's value as n reals (a number, or a tuple of n); 1: read, 0: no value, -1: error
// (recorded in d). inf and -inf are read as such
int sni_usd_reals(sni_usd_doc* d, int prop, sn_real* out, int n);
// an array of tuples of width w: up to cap tuples into out, *count read; 1, 0 or -1
int sni_usd_real_array(sni_usd_doc* d, int prop, int w, sn_real* out, int cap, int* count);
// a token or string value into buf; 1, 0 or -1
int sni_usd_token(sni_usd_doc* d, int prop, char* buf, size_t cap);
// a bool (true, false, 1, 0); 1, 0 or -1
int sni_usd_bool(sni_usd_doc* d, int prop, int* out);
// a relationship's one target prim: 1 with *target (-1 when the path names no prim, *path_tok
// its token), 0 when it has none, -1 when it has several or is not a path
int sni_usd_rel(sni_usd_doc* d, int prop, int* target, int* path_tok);
// the names of a token array (xformOpOrder): up to cap token indices into out, *count
int sni_usd_token_array(sni_usd_doc* d, int prop, int* out, int cap, int* count);

// ---- physics.c ----

// the spec of the UsdPhysics robot described by d (docs/usd.md); at most max_links bodies and
// as many joints (0: 200000)
sn_status sni_usd_to_spec(sni_usd_doc* d, sni_spec* s, int max_links);

#endif
