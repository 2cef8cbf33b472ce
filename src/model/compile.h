// SPDX-License-Identifier: Apache-2.0
// compile.h: the compiler's context and its passes, shared by the compile*.c files (internal to
// src/model). sni_compile (spec.h) runs them in this order:
//   compile_topo.c   names, one parent per link, one root, depth-first order, cycles; counts
//   compile_tree.c   bodies, joints, DOFs and frames; merged masses; springs; the mass check;
//                    springdampers
//   compile_refs.c   mimic leaders, actuators, loop constraints, excluded pairs, the soft
//                    contact extension's links
//   compile_geom.c   collision meshes (read before the block is sized), materials, geometries
//   compile.c        the entry: the model's one block (address tables and carving), the passes
//                    in order, warnings and the file's options
#ifndef SNI_COMPILE_H
#define SNI_COMPILE_H

#include "model/spec.h"

#include <stddef.h>

// ---- a string hash set over name-pool offsets (compile_topo.c) ----

typedef struct name_table {
    int* slot; // index of the item, -1 empty
    size_t cap;
    const sn_allocator* alloc;
} name_table;

// room for n items; SN_ERR_NOMEM when the allocation fails
sn_status sni_compile_table_init(name_table* t, const sn_allocator* a, int n);
void sni_compile_table_free(name_table* t);
// find `name` among items whose names are names[offs[i]]; insert item `add` (>= 0) when absent.
// Returns the existing item or -1.
int sni_compile_table_find(name_table* t, const char* pool, const long* offs, size_t stride,
                           const char* name, int add);

// ---- the compile context ----

typedef struct compiler {
    sni_spec* s;
    sn_error* err;
    const sn_allocator* alloc;
    int nl, nj;
    sni_link* links;
    sni_joint* joints;
    int* parent_joint; // per link: the URDF joint whose child it is, -1 (nl)
    int* child_start;  // CSR of child joints per link (nl + 1)
    int* child_list;   // (nj)
    int* order;        // links in depth-first order (nl)
    int root;
} compiler;

// fill the compiler's error (file from the spec) and return code; msg is printf-style
sn_status sni_compile_error(compiler* c, sn_status code, int line, const char* el, const char* fmt,
                            ...);

#define LNAME(c, i) SNI_NAME((c)->s, (c)->links[i].name)
#define JNAME(c, i) SNI_NAME((c)->s, (c)->joints[i].name)

// ---- validation and topological order (compile_topo.c) ----

// unique names; resolve joint parent and child links; one parent per link
sn_status sni_compile_resolve_names(compiler* c, name_table* links);
// one root, the depth-first order, and cycles
sn_status sni_compile_order_links(compiler* c);

// the model's sizes from the joint types
typedef struct counts {
    int nbody, njoint, nq, nv, nujoint;
} counts;
sn_status sni_compile_count(compiler* c, int floating, counts* k);

// ---- bodies, joints, DOFs, frames and masses (compile_tree.c) ----

// bodies, joints, DOFs and frames in depth-first order; merged masses; the zero configuration
sn_status sni_compile_tree(compiler* c, sn_model* m, int floating, long root_name);
// a stiffness on a joint with more than one DOF is dropped with a warning
void sni_compile_check_springs(compiler* c, sn_model* m);
// the mass matrix at the zero configuration is positive definite
sn_status sni_compile_check_mass(compiler* c, sn_model* m);
// stiffness and damping of the joints with a springdamper (time constant and damping ratio)
sn_status sni_compile_springdampers(compiler* c, sn_model* m);

// ---- references between parts (compile_refs.c) ----

sn_status sni_compile_mimic(compiler* c, sn_model* m);
sn_status sni_compile_actuators(compiler* c, sn_model* m);
sn_status sni_compile_constraints(compiler* c, sn_model* m, name_table* links);
sn_status sni_compile_excludes(compiler* c, sn_model* m, name_table* links);
// sinew's soft contact extension: the parameter sets (the world's first, the values left out
// filled), the links' material ids per body, the soft points' links
sn_status sni_compile_soft(compiler* c, sn_model* m, name_table* links);

// ---- geometry (compile_geom.c) ----

// the collision meshes' hull vertices into verts; adr[g], num[g] locate geometry g's
sn_status sni_compile_meshes(compiler* c, sni_buf* verts, int* adr, int* num);
// materials and geometries
sn_status sni_compile_geoms(compiler* c, sn_model* m);

// ---- tendons (compile_tendon.c) ----

// the tendons' paths resolved (joints, site links), their rest lengths at the nominal
// configuration, and the actuators on them
sn_status sni_compile_tendons(compiler* c, sn_model* m);
// compile_sensor.c: the file's sensors, their links and joints resolved and checked
sn_status sni_compile_sensors(compiler* c, sn_model* m, name_table* links);

#endif
