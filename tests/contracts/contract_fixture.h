// SPDX-License-Identifier: Apache-2.0
// contract_fixture.h: what the generated contract test (scripts/contract_calls.py) calls with:
// one of every object of the public API, good buffers, and the checks of a refusal.
#ifndef CONTRACT_FIXTURE_H
#define CONTRACT_FIXTURE_H

#include "sinew/sn.h"

typedef struct cf_fixture {
    sn_model* m;
    sn_world* w;
    sn_system* s;
    sn_data* d;
    sn_arm* arm;
    sn_maximal* mx;
    sn_maximal* mxm;      // the model in maximal coordinates
    sn_ik_target target;  // frame 1's position
    void* slot[4];        // where an out handle goes
    double buf[16][4096]; // good input and output arrays (zero)
    double ones[16];      // ones (sizes, heights)
    double inertia[6];    // a unit inertia: 1 0 0 1 0 1
    double quat[4];       // the identity quaternion
    double eye[9];        // the identity rotation
    char path[1024];      // the model's file
    char mesh[1024];      // a tetrahedron's OBJ file
    const char* text;     // the model's text
    sn_error err;         // the error record of calls that take one
} cf_fixture;

extern cf_fixture F;

typedef struct cf_case {
    const char* function;
    const char* argument;
    const char* value;
    int (*run)(void);
} cf_case;

// the generated tables
extern const cf_case contract_cases[];
extern const char* const* contract_unknown_list;
extern const char* contract_model_path;
extern int contract_function_count;

// 1 with the reason printed
int cf_fail(const char* why);
// sn_last_error() is not empty and names one of names (a whole word); 0 when it does
int cf_check_message(const char* const* names);
// the object's own last error is the thread's (0), kind 0 world, 1 system, 2 arm, 3 maximal
int cf_check_owner(int kind, const void* object);
// the call's sn_error record holds the message too (0)
int cf_check_error_record(void);

#endif
