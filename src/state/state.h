// SPDX-License-Identifier: Apache-2.0
// state.h: the checkpoint's codec (internal; docs/state.md). One visitor walks a world's
// checkpoint in three modes: SAVE writes it (little-endian, every array preceded by its length;
// with no buffer it only measures), CHECK reads a checkpoint against the world and refuses it
// at the first difference or bad value without writing anything, LOAD then copies its state
// into the world. What each value is (SNI_CONFIG compared, SNI_STATE and SNI_REPORT restored)
// is said where it is visited (checkpoint.c). FNV-1a 64 is the checksum and the fingerprint.
#ifndef SNI_STATE_H
#define SNI_STATE_H

#include "sinew/sn_model.h"
#include "sinew/sn_world.h"

#include <stddef.h>
#include <stdint.h>

#define SNI_STATE_MAGIC "SNWSTATE"
#define SNI_STATE_HEADER 32 // magic, version, real size, total size, systems, reserved
#define SNI_FNV_OFFSET 0xcbf29ce484222325ull

enum { SNI_SER_SAVE, SNI_SER_CHECK, SNI_SER_LOAD };

// what a visited value is
enum {
    SNI_CONFIG, // set up before the checkpoint is loaded: compared, a difference is refused
    SNI_STATE,  // what determines the next step: restored; reals must be finite
    SNI_REPORT, // what the getters report of the last step: restored as it is
    SNI_TEMP,   // the caller's own copy: read into the pointer in CHECK and LOAD (validated
                // by the caller)
};

typedef struct sni_ser {
    int mode;           // SNI_SER_*
    unsigned char* buf; // SAVE: the output (NULL: measure only); CHECK, LOAD: the checkpoint
    size_t n, off;      // its size (the checksum excluded) and the position of the walk
    sn_world* w;        // where a refusal's message goes
    int sys;            // the system being visited (-1: the world), for messages
    sn_status failed;   // CHECK: the first refusal (SN_OK: none); the walk stops there
} sni_ser;

// ---- codec.c ----
uint64_t sni_fnv1a(uint64_t h, const void* p, size_t n);
// little-endian words at p
void sni_put_u32(unsigned char* p, uint32_t x);
void sni_put_u64(unsigned char* p, uint64_t x);
uint32_t sni_get_u32(const unsigned char* p);
uint64_t sni_get_u64(const unsigned char* p);
// a refusal of the checkpoint: code and message, the walk stops (returns code)
sn_status sni_ser_refuse(sni_ser* S, sn_status code, const char* fmt, ...);
// n values at p (see the kinds above); name says what they are in a refusal
void sni_ser_real(sni_ser* S, int kind, const char* name, sn_real* p, size_t n);
// ints: in CHECK a restored value outside [lo, hi] is refused (lo > hi: any value)
void sni_ser_int(sni_ser* S, int kind, const char* name, int* p, size_t n, int lo, int hi);
void sni_ser_uint(sni_ser* S, int kind, const char* name, unsigned* p, size_t n);
void sni_ser_u64(sni_ser* S, int kind, const char* name, uint64_t* p);
// a count of what follows (restored): *n is written in SAVE and read in CHECK and LOAD; in CHECK
// a count outside [0, cap] is refused
void sni_ser_count(sni_ser* S, const char* name, int* n, int cap);

// ---- fingerprint.c ----
// FNV-1a 64 of everything of a model that a step reads (sizes, bodies, joints, DOFs, frames,
// geometry, constraints, actuators), not of its names, keys, options or warnings
uint64_t sni_model_fingerprint(const sn_model* m);
// of n reals, little-endian (a heightfield's heights)
uint64_t sni_reals_fingerprint(const sn_real* x, size_t n);

#endif
