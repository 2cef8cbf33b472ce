// SPDX-License-Identifier: Apache-2.0
// common.h: helpers shared by the test suites: a seeded random generator, random URDF trees
// with every joint type, loading with a warning check, configuration integration for finite
// differences, and the location of ../shared.
#ifndef SNT_COMMON_H
#define SNT_COMMON_H

#include "sinew/sn.h"

#include <stddef.h>

// xorshift random numbers in [lo, hi)
void tc_seed(unsigned long long s);
double tc_uniform(double lo, double hi);
// a random orthogonal Q (n x n, row-major) by Gram-Schmidt on tc_uniform(-1, 1) columns, in
// `passes` passes per column (2: orthogonal to rounding for every n)
void tc_random_orthogonal(int n, int passes, double* Q);
// S = Q diag(l) Q^T (n x n)
void tc_from_eigen(int n, const double* Q, const double* l, double* S);
// the Frobenius norm of an n x n matrix
double tc_frobenius(int n, const double* A);

// a random tree: nlink links, every joint type, fixed joints and massless links merged;
// floating: the root gets a free base. Returns a malloc'd URDF string.
char* tc_random_urdf(int nlink, int floating, unsigned long long seed);

// load a URDF string; fails the process-level check if it does not load. Warnings are allowed
// only when allow_warnings is set. NULL on failure (message printed).
sn_model* tc_load_string(const char* xml, int allow_warnings);
sn_model* tc_load_file(const char* path, int allow_warnings);
// a world of time step dt (default options otherwise) with model m added as its system; SN_OK or
// the first failing call's status (*w then destroyed and NULL)
sn_status tc_world_open(sn_model* m, double dt, sn_world** w, sn_system** s);

// random state: joints in range, unit quaternions, velocities in [-1, 1]
void tc_random_state(const sn_model* m, double* q, double* u);

// q_out = q (+) eps * u with the conventions of docs/conventions.md
void tc_integrate(const sn_model* m, const double* q, const double* u, double eps, double* q_out);

// the shared folder (../shared next to the project) or NULL when absent
const char* tc_shared_dir(void);
// path of a file in shared/models, or NULL when shared is absent (static buffer)
const char* tc_model_path(const char* rel);

// the files under dir (recursively) whose names end with ext, sorted, as malloc'd paths (the
// caller frees each); their number (at most max)
int tc_list_files(const char* dir, const char* ext, char** out, int max);

// every URDF and MJCF file under shared/models, sorted (malloc'd paths: the caller frees each);
// their number, or -1 when shared is absent
int tc_shared_model_files(char** out, int max);

// a path under shared/models without that folder ("erd_panda/urdf/panda.urdf")
const char* tc_shared_relative(const char* path);

// a whole file, malloc'd and NUL-terminated, its size in *len; NULL when it cannot be read
char* tc_read_file(const char* path, size_t* len);

// the state hash of a fresh world holding m (the model's fingerprint, sizes and start state)
sn_status tc_model_hash(const sn_model* m, uint64_t* h);

// max |a - b| / max(max|a|, floor) over n entries
double tc_rel_err(const double* a, const double* b, int n, double floor);

// two free bodies of model m (one free joint) 1 m apart on the x axis, flying at each other at
// 1 m/s in zero gravity for 1 s with restitution e: their x velocities after it, the largest
// total momentum seen at any step, and whether they touched. 0, or -1 when a call failed.
int tc_head_on(const sn_model* m, double e, double* va, double* vb, double* pmax, int* touched);
#endif
