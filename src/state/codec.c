// SPDX-License-Identifier: Apache-2.0
// codec.c: the checkpoint's codec: little-endian words, FNV-1a 64, and the visitor's
// primitives, each of which writes (SAVE), checks (CHECK: a configuration value must equal the
// world's, a restored one must be valid) or restores (LOAD) one array preceded by its length.
// The format is written out in docs/state.md.
#include "sim/sim.h"
#include "state/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


// ---- words and the checksum ----

uint64_t sni_fnv1a(uint64_t h, const void* p, size_t n) {
    const unsigned char* b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}


void sni_put_u32(unsigned char* p, uint32_t x) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}


void sni_put_u64(unsigned char* p, uint64_t x) {
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}


uint32_t sni_get_u32(const unsigned char* p) {
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x |= (uint32_t)p[i] << (8 * i);
    return x;
}


uint64_t sni_get_u64(const unsigned char* p) {
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}


static uint64_t real_bits(sn_real x) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}


static sn_real bits_real(uint64_t b) {
    sn_real x;
    memcpy(&x, &b, sizeof x);
    return x;
}


// ---- refusals ----

sn_status sni_ser_refuse(sni_ser* S, sn_status code, const char* fmt, ...) {
    if (S->failed != SN_OK) return S->failed;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    S->failed = code;
    return sni_world_fail(S->w, code, "%s", msg);
}


// "system 2's q" or "the world's time step"
static const char* where(const sni_ser* S, const char* name, char* out, size_t size) {
    if (S->sys >= 0)
        snprintf(out, size, "system %d's %s", S->sys, name);
    else
        snprintf(out, size, "the world's %s", name);
    return out;
}


// ---- the primitives ----

// room for n more bytes of the walk: SAVE grows the measure, CHECK refuses a walk past the end
// (a checkpoint of another layout); NULL when nothing is to be read or written there
static unsigned char* take(sni_ser* S, const char* name, size_t n) {
    if (S->failed != SN_OK) return NULL;
    size_t at = S->off;
    if (S->mode != SNI_SER_SAVE && (at > S->n || S->n - at < n)) {
        char wh[160];
        sni_ser_refuse(S, SN_ERR_MODEL,
                       "foreign checkpoint: it ends inside %s (saved from a world of another "
                       "shape)",
                       where(S, name, wh, sizeof wh));
        return NULL;
    }
    S->off += n;
    return S->buf ? S->buf + at : NULL;
}


// the length before each array: written, or read and compared with the world's
static int length(sni_ser* S, const char* name, size_t n) {
    unsigned char* p = take(S, name, 4);
    if (S->failed != SN_OK) return 0;
    if (S->mode == SNI_SER_SAVE) {
        if (p) sni_put_u32(p, (uint32_t)n);
        return 1;
    }
    uint32_t saved = sni_get_u32(p);
    if (saved != n) {
        char wh[160];
        sni_ser_refuse(S, SN_ERR_MODEL,
                       "foreign checkpoint: %s has %" PRIu32 " entries in it, %zu in this world",
                       where(S, name, wh, sizeof wh), saved, n);
        return 0;
    }
    return 1;
}


// a configuration value that differs: refused, naming it, its entry and both values
static void differs(sni_ser* S, const char* name, size_t n, size_t i, const char* saved,
                    const char* here) {
    char wh[160], at[48] = "";
    if (n > 1) snprintf(at, sizeof at, " (entry %zu)", i);
    sni_ser_refuse(S, SN_ERR_MODEL,
                   "foreign checkpoint: %s%s is %s in it and %s in this world (set the world up "
                   "as it was saved, then load)",
                   where(S, name, wh, sizeof wh), at, saved, here);
}


void sni_ser_real(sni_ser* S, int kind, const char* name, sn_real* p, size_t n) {
    if (!length(S, name, n)) return;
    unsigned char* b = take(S, name, 8 * n);
    if (S->failed != SN_OK || !b) return;
    for (size_t i = 0; i < n; i++) {
        unsigned char* e = b + 8 * i;
        if (S->mode == SNI_SER_SAVE) {
            sni_put_u64(e, real_bits(p[i]));
            continue;
        }
        uint64_t bits = sni_get_u64(e);
        sn_real x = bits_real(bits);
        if (kind == SNI_CONFIG) {
            if (S->mode == SNI_SER_CHECK && bits != real_bits(p[i])) {
                char a[32], c[32];
                snprintf(a, sizeof a, "%.17g", x);
                snprintf(c, sizeof c, "%.17g", p[i]);
                differs(S, name, n, i, a, c);
                return;
            }
            continue;
        }
        if (S->mode == SNI_SER_CHECK && kind == SNI_STATE && !isfinite(x)) {
            char wh[160];
            sni_ser_refuse(S, SN_ERR_NONFINITE, "the checkpoint's %s (entry %zu) is %g",
                           where(S, name, wh, sizeof wh), i, x);
            return;
        }
        if (S->mode == SNI_SER_LOAD || kind == SNI_TEMP) p[i] = x;
    }
}


void sni_ser_int(sni_ser* S, int kind, const char* name, int* p, size_t n, int lo, int hi) {
    if (!length(S, name, n)) return;
    unsigned char* b = take(S, name, 4 * n);
    if (S->failed != SN_OK || !b) return;
    for (size_t i = 0; i < n; i++) {
        unsigned char* e = b + 4 * i;
        if (S->mode == SNI_SER_SAVE) {
            sni_put_u32(e, (uint32_t)p[i]);
            continue;
        }
        int x = (int)(int32_t)sni_get_u32(e);
        if (kind == SNI_CONFIG) {
            if (S->mode == SNI_SER_CHECK && x != p[i]) {
                char a[16], c[16];
                snprintf(a, sizeof a, "%d", x);
                snprintf(c, sizeof c, "%d", p[i]);
                differs(S, name, n, i, a, c);
                return;
            }
            continue;
        }
        if (S->mode == SNI_SER_CHECK && lo <= hi && (x < lo || x > hi)) {
            char wh[160];
            sni_ser_refuse(S, SN_ERR_PARSE,
                           "the checkpoint's %s (entry %zu) is %d, outside %d to %d: it is "
                           "corrupt",
                           where(S, name, wh, sizeof wh), i, x, lo, hi);
            return;
        }
        if (S->mode == SNI_SER_LOAD || kind == SNI_TEMP) p[i] = x;
    }
}


void sni_ser_uint(sni_ser* S, int kind, const char* name, unsigned* p, size_t n) {
    if (!length(S, name, n)) return;
    unsigned char* b = take(S, name, 4 * n);
    if (S->failed != SN_OK || !b) return;
    for (size_t i = 0; i < n; i++) {
        unsigned char* e = b + 4 * i;
        if (S->mode == SNI_SER_SAVE) {
            sni_put_u32(e, (uint32_t)p[i]);
            continue;
        }
        unsigned x = (unsigned)sni_get_u32(e);
        if (kind == SNI_CONFIG) {
            if (S->mode == SNI_SER_CHECK && x != p[i]) {
                char a[16], c[16];
                snprintf(a, sizeof a, "0x%x", x);
                snprintf(c, sizeof c, "0x%x", p[i]);
                differs(S, name, n, i, a, c);
                return;
            }
            continue;
        }
        if (S->mode == SNI_SER_LOAD || kind == SNI_TEMP) p[i] = x;
    }
}


void sni_ser_u64(sni_ser* S, int kind, const char* name, uint64_t* p) {
    if (!length(S, name, 1)) return;
    unsigned char* b = take(S, name, 8);
    if (S->failed != SN_OK || !b) return;
    if (S->mode == SNI_SER_SAVE) {
        sni_put_u64(b, *p);
        return;
    }
    uint64_t x = sni_get_u64(b);
    if (kind == SNI_CONFIG) {
        if (S->mode == SNI_SER_CHECK && x != *p) {
            char a[24], c[24];
            snprintf(a, sizeof a, "%016" PRIx64, x);
            snprintf(c, sizeof c, "%016" PRIx64, *p);
            differs(S, name, 1, 0, a, c);
        }
        return;
    }
    if (S->mode == SNI_SER_LOAD || kind == SNI_TEMP) *p = x;
}


void sni_ser_count(sni_ser* S, const char* name, int* n, int cap) {
    unsigned char* b = take(S, name, 4);
    if (S->failed != SN_OK || !b) return;
    if (S->mode == SNI_SER_SAVE) {
        sni_put_u32(b, (uint32_t)*n);
        return;
    }
    int x = (int)(int32_t)sni_get_u32(b);
    if (S->mode == SNI_SER_CHECK && (x < 0 || x > cap)) {
        char wh[160];
        sni_ser_refuse(S, SN_ERR_MODEL,
                       "foreign checkpoint: %s number %d, and this world has room for %d",
                       where(S, name, wh, sizeof wh), x, cap);
        return;
    }
    *n = x;
}
