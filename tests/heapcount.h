// SPDX-License-Identifier: Apache-2.0
// heapcount.h: every heap call of the process, counted (malloc interposition in a plain build,
// the sanitizer's malloc hooks in the ASan build). Link heapcount.c into the suites that use it.
#ifndef SNT_HEAPCOUNT_H
#define SNT_HEAPCOUNT_H

// start counting (idempotent)
void tc_heap_install(void);
// heap calls so far
long tc_heap_calls(void);

#endif
