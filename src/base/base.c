// SPDX-License-Identifier: Apache-2.0
// base.c: status names, version, allocation through the per-object allocator, error records and
// the growable buffer used while parsing.
#include "base/base.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char* sn_status_str(sn_status s) {
    switch (s) {
    case SN_OK:
        return "SN_OK";
    case SN_ERR_ARG:
        return "SN_ERR_ARG";
    case SN_ERR_NOMEM:
        return "SN_ERR_NOMEM";
    case SN_ERR_PARSE:
        return "SN_ERR_PARSE";
    case SN_ERR_MODEL:
        return "SN_ERR_MODEL";
    case SN_ERR_SINGULAR:
        return "SN_ERR_SINGULAR";
    case SN_ERR_NONFINITE:
        return "SN_ERR_NONFINITE";
    case SN_ERR_IO:
        return "SN_ERR_IO";
    case SN_ERR_LIMIT:
        return "SN_ERR_LIMIT";
    case SN_ERR_UNREACHED:
        return "SN_ERR_UNREACHED";
    }
    return "SN_ERR_UNKNOWN";
}

const char* sn_version(void) {
    return SN_VERSION_STRING;
}

// ---- the calling thread's last refusal ----

#if defined(_MSC_VER)
#define SNI_THREAD_LOCAL __declspec(thread)
#else
#define SNI_THREAD_LOCAL _Thread_local
#endif
static SNI_THREAD_LOCAL char thread_error[768];

const char* sn_last_error(void) {
    return thread_error;
}

void sn_clear_last_error(void) {
    thread_error[0] = 0;
}

void sni_last_error_set(const char* msg) {
    snprintf(thread_error, sizeof thread_error, "%s", msg ? msg : "");
}

void sni_fill_nan(sn_real* x, int n) {
    if (x)
        for (int i = 0; i < n; i++)
            x[i] = (sn_real)NAN;
}

int sni_bad_index(const char* fn, const char* what, int i, int n) {
    if (i >= 0 && i < n) return 0;
    if (n > 0)
        sni_refuse(SN_ERR_ARG, "%s: %s %d is out of range (0 to %d)", fn, what, i, n - 1);
    else
        sni_refuse(SN_ERR_ARG, "%s: %s %d is out of range (there are none)", fn, what, i);
    return 1;
}

sn_status sni_refuse(sn_status code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(thread_error, sizeof thread_error, fmt, ap);
    va_end(ap);
    return code;
}

static void* libc_alloc(size_t size, size_t align, void* ctx) {
    (void)ctx;
    if (align < sizeof(void*)) align = sizeof(void*);
    size_t rounded = (size + align - 1) / align * align;
    return aligned_alloc(align, rounded ? rounded : align);
}

static void libc_free(void* p, size_t size, void* ctx) {
    (void)size;
    (void)ctx;
    free(p);
}

sn_allocator sni_allocator_or_default(const sn_allocator* a) {
    if (a && a->alloc && a->free) return *a;
    sn_allocator d = {libc_alloc, libc_free, NULL};
    return d;
}

void* sni_alloc(const sn_allocator* a, size_t size) {
    sn_allocator al = sni_allocator_or_default(a);
    void* p = al.alloc(size ? size : 1, 64, al.ctx);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

void sni_free(const sn_allocator* a, void* p, size_t size) {
    if (!p) return;
    sn_allocator al = sni_allocator_or_default(a);
    al.free(p, size ? size : 1, al.ctx);
}

sn_status sni_error(sn_error* err, sn_status code, const char* file, int line, const char* element,
                    const char* fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char msg[sizeof err->msg];
    if (file && line > 0 && element && element[0])
        snprintf(msg, sizeof msg, "%s:%d: <%s>: %s", file, line, element, text);
    else if (file && line > 0)
        snprintf(msg, sizeof msg, "%s:%d: %s", file, line, text);
    else if (file && file[0] && element && element[0])
        snprintf(msg, sizeof msg, "%s: <%s>: %s", file, element, text);
    else if (file && file[0])
        snprintf(msg, sizeof msg, "%s: %s", file, text);
    else
        snprintf(msg, sizeof msg, "%s", text);
    if (code != SN_OK) sni_last_error_set(msg);
    if (!err) return code;
    err->code = code;
    err->line = line;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    snprintf(err->element, sizeof err->element, "%s", element ? element : "");
    memcpy(err->msg, msg, sizeof err->msg);
    return code;
}

size_t sni_mul_size(size_t a, size_t b) {
    if (a && b > SIZE_MAX / a) return 0;
    return a * b;
}

void* sni_buf_grow(sni_buf* b, size_t n) {
    if (b->failed) return NULL;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) {
            if (cap > SIZE_MAX / 2) {
                b->failed = 1;
                return NULL;
            }
            cap *= 2;
        }
        char* p = sni_alloc(b->alloc, cap);
        if (!p) {
            b->failed = 1;
            return NULL;
        }
        if (b->data) {
            memcpy(p, b->data, b->len);
            sni_free(b->alloc, b->data, b->cap);
        }
        b->data = p;
        b->cap = cap;
    }
    void* at = b->data + b->len;
    b->len += n;
    return at;
}

long sni_buf_push(sni_buf* b, const void* p, size_t n) {
    size_t off = b->len;
    const char* src = p;
    // p may point into the buffer itself, which moves when it grows
    int inside = src && b->data && src >= b->data && src < b->data + b->len;
    size_t from = inside ? (size_t)(src - b->data) : 0;
    void* at = sni_buf_grow(b, n);
    if (!at) return -1;
    if (inside)
        memmove(at, b->data + from, n);
    else if (p)
        memcpy(at, p, n);
    return (long)off;
}

void sni_buf_free(sni_buf* b) {
    sni_free(b->alloc, b->data, b->cap);
    b->data = NULL;
    b->len = b->cap = 0;
}

void sni_dir_of(const char* path, char* dir, size_t size) {
    snprintf(dir, size, "%s", path);
    char* slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, size, ".");
}
