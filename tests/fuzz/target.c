// SPDX-License-Identifier: Apache-2.0
// target.c: a libFuzzer entry point for one reader of harness.h, chosen at compile time
// (-DSNF_TARGET=snf_urdf, ...; tests/fuzz/CMakeLists.txt builds one executable per reader)
#include "harness.h"

#ifndef SNF_TARGET
#error "SNF_TARGET: the harness function of the target"
#endif

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    SNF_TARGET(data, size);
    return 0;
}
