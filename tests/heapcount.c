// SPDX-License-Identifier: Apache-2.0
// heapcount.c: see heapcount.h.
#include "heapcount.h"

#include <stddef.h>

static volatile long heap_calls;

long tc_heap_calls(void) {
    return heap_calls;
}

#if defined(__SANITIZE_ADDRESS__)
// exported by the sanitizer runtime (declared here: gcc ships no header for it)
int __sanitizer_install_malloc_and_free_hooks(void (*on_alloc)(const volatile void*, size_t),
                                              void (*on_free)(const volatile void*));
static void on_malloc(const volatile void* p, size_t n) {
    (void)p, (void)n;
    heap_calls++;
}
static void on_free(const volatile void* p) {
    (void)p;
}
void tc_heap_install(void) {
    static int done;
    if (!done) __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    done = 1;
}
#else
// interpose the allocation entry points of glibc and count them
extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);
void* malloc(size_t n);
void* calloc(size_t a, size_t b);
void* realloc(void* p, size_t n);
void* aligned_alloc(size_t al, size_t n);
int posix_memalign(void** out, size_t al, size_t n);
void* malloc(size_t n) {
    heap_calls++;
    return __libc_malloc(n);
}
void* calloc(size_t a, size_t b) {
    heap_calls++;
    return __libc_calloc(a, b);
}
void* realloc(void* p, size_t n) {
    heap_calls++;
    return __libc_realloc(p, n);
}
void* aligned_alloc(size_t al, size_t n) {
    heap_calls++;
    return __libc_memalign(al, n);
}
int posix_memalign(void** out, size_t al, size_t n) {
    heap_calls++;
    *out = __libc_memalign(al, n);
    return *out ? 0 : 12;
}
void tc_heap_install(void) {}
#endif
