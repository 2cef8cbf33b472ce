// SPDX-License-Identifier: Apache-2.0
// harness.h: one function per reader that takes arbitrary bytes, loads them and, when the load
// succeeds, simulates the result for 10 steps on a ground and frees everything (docs/fuzzing.md).
// The libFuzzer targets (tests/fuzz/target.c, clang) and the regression replay
// (tests/test_fuzz_replay.c, the ordinary suite) call the same functions. A broken promise of
// the API (a refusal without a message, a checkpoint that does not load back) aborts, so that
// the fuzzer reports it as a crash.
#ifndef SNF_HARNESS_H
#define SNF_HARNESS_H

#include <stddef.h>
#include <stdint.h>

// the outcome of one input: 1 loaded (and stepped), 0 refused with a message
int snf_urdf(const uint8_t* data, size_t size);
int snf_mjcf(const uint8_t* data, size_t size);
int snf_usd(const uint8_t* data, size_t size);
int snf_obj(const uint8_t* data, size_t size);
int snf_stl(const uint8_t* data, size_t size);
int snf_checkpoint(const uint8_t* data, size_t size);

// the harness of a format by its name ("urdf", "mjcf", "usd", "obj", "stl", "checkpoint"), or
// NULL
typedef int (*snf_fn)(const uint8_t* data, size_t size);
snf_fn snf_find(const char* format);

// write checkpoints of the checkpoint harness's world after 0, 1, 7 and 40 steps into dir
// (seed inputs for snf_checkpoint; their name is checkpoint_<steps>.bin). 0, or -1 on failure
int snf_write_checkpoint_seeds(const char* dir);

#endif
