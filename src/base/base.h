// SPDX-License-Identifier: Apache-2.0
// base.h: internal helpers shared by every part of the library: allocation through the
// object's allocator, error formatting, whole-file reading (file.c) and a growable byte buffer.
#ifndef SNI_BASE_H
#define SNI_BASE_H

#include "sinew/sn_base.h"

#include <stdarg.h>
#include <stddef.h>

// allocation through an allocator (NULL: libc); memory is zeroed
void* sni_alloc(const sn_allocator* a, size_t size);
void sni_free(const sn_allocator* a, void* p, size_t size);
// the folder of a file path ("." for a bare name), for the files it refers to
void sni_dir_of(const char* path, char* dir, size_t size);
// copy of the allocator, libc's when a is NULL
sn_allocator sni_allocator_or_default(const sn_allocator* a);

// the calling thread's last refusal (sn_last_error): set to msg; sni_refuse formats it and
// returns code (a call whose object is NULL: "function: argument is NULL")
void sni_last_error_set(const char* msg);
sn_status sni_refuse(sn_status code, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
// refuse a NULL object or pointer p in the calling function: ret is what it returns then
#define SNI_REFUSE_NULL(p, ret)                                                                    \
    do {                                                                                           \
        if (!(p)) {                                                                                \
            sni_refuse(SN_ERR_ARG, "%s: %s is NULL", __func__, #p);                                \
            return ret;                                                                            \
        }                                                                                          \
    } while (0)
#define SNI_REFUSE_NULL_VOID(p)                                                                    \
    do {                                                                                           \
        if (!(p)) {                                                                                \
            sni_refuse(SN_ERR_ARG, "%s: %s is NULL", __func__, #p);                                \
            return;                                                                                \
        }                                                                                          \
    } while (0)

// n NaNs into x (nullable): the outputs of a refused call that returns nothing
void sni_fill_nan(sn_real* x, int n);
// index i outside 0 to n - 1: refuse it in the thread's last error, naming the calling function
// fn and the argument (what); 1 when refused
int sni_bad_index(const char* fn, const char* what, int i, int n);

// fill err (nullable) and return code; msg is printf-style (also the thread's last error)
sn_status sni_error(sn_error* err, sn_status code, const char* file, int line, const char* element,
                    const char* fmt, ...);

// the whole regular file at `path`, NUL-terminated: *data (allocated with a: *size + 1 bytes,
// freed with sni_free(a, *data, *size + 1)) holds its *size bytes. Files larger than max bytes
// are refused before reading; limit_name (nullable) names the setting in that message
// ("sn_load_opts.max_file_bytes"). Errors, in err (nullable) with the file's name:
// SN_ERR_IO (cannot open, not a regular file, short read), SN_ERR_LIMIT, SN_ERR_NOMEM; *data is
// NULL then.
sn_status sni_read_file(const char* path, size_t max, const char* limit_name, const sn_allocator* a,
                        char** data, size_t* size, sn_error* err);

// growable buffer used by the parser (the spec only, never by a step)
typedef struct sni_buf {
    char* data;
    size_t len;
    size_t cap;
    const sn_allocator* alloc;
    int failed; // an allocation failed: every further push is ignored
} sni_buf;

// reserve room for n more bytes; returns a pointer to them or NULL
void* sni_buf_grow(sni_buf* b, size_t n);
// append bytes; returns the offset of the first one, or -1
long sni_buf_push(sni_buf* b, const void* p, size_t n);
void sni_buf_free(sni_buf* b);

// one-block layouts: a first pass with base NULL measures, a second assigns (64-byte aligned)
typedef struct carver {
    char* base;
    size_t off;
} carver;

static inline void* sni_carve(carver* c, size_t n, size_t size) {
    c->off = (c->off + 63) & ~(size_t)63;
    void* p = c->base ? c->base + c->off : NULL;
    c->off += n * size;
    return p;
}

// checked multiplication: 0 on overflow
size_t sni_mul_size(size_t a, size_t b);

// locale-independent number parsing (numparse.c); see docs/urdf.md for what is accepted
typedef enum sni_num_result {
    SNI_NUM_OK = 0,
    SNI_NUM_EMPTY = 1,
    SNI_NUM_BAD = 2,       // not a decimal number (garbage, hex, nan, inf, "1,5")
    SNI_NUM_OVERFLOW = 3,  // beyond the range of a double
    SNI_NUM_UNDERFLOW = 4, // nonzero but rounds to 0 or a denormal: value set, warn
    SNI_NUM_COUNT = 5,     // too few or too many components
} sni_num_result;
// parse exactly n numbers separated by white space
sni_num_result sni_parse_reals(const char* s, sn_real* out, int n);
// parse up to nmax numbers; *count gets how many
sni_num_result sni_parse_real_list(const char* s, sn_real* out, int nmax, int* count);
const char* sni_num_result_str(sni_num_result r);

#endif
