# SPDX-License-Identifier: Apache-2.0
# the fuzz targets' harness (tests/fuzz/harness.c) without libFuzzer (docs/fuzzing.md): the
# committed regression inputs of tests/fuzz/regressions/ and the fuzzers' seeds replayed, so
# that the sanitizer build checks every crash the fuzzers found stays fixed
sn_add_suite(test_fuzz_replay fuzz/harness.c)
target_compile_definitions(test_fuzz_replay PRIVATE SNF_MODELS_DIR="${PROJECT_SOURCE_DIR}/models")
