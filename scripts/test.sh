#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every test: the main job (scripts/demo.sh) and its replay in a browser, the suite in a release
# build (warnings are errors; the Python package's pytest suite among its tests, then the package
# installed by pip into a scratch venv and its suite run again), then the whole suite again built with AddressSanitizer and
# UndefinedBehaviorSanitizer, then test_threads built alone with ThreadSanitizer, then every
# libFuzzer target of tests/fuzz for 60 s (scripts/fuzz.sh, docs/fuzzing.md). Installs its Debian packages (including MuJoCo 2.2.2, the oracle,
# and Chromium) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh --test
jobs=$(nproc)

# Nothing may be skipped here: the tests that need ../shared (the shared models, spec and seeds)
# or MuJoCo 2.2.2 (the oracle) fail instead of skipping (tests/harness/snt.h), and the oracle's
# suite must be built (SN_REQUIRE_ORACLE)
export SNT_NO_SKIP=1
shared=${SINEW_SHARED:-$(cd .. && pwd)/shared}
if [[ ! -d $shared/models ]]; then
  echo "error: the shared models are missing ($shared/models): the suite needs ../shared (or SINEW_SHARED)" >&2
  exit 1
fi

echo "== the main job (README's first command): its replay rendered in headless Chromium"
bash scripts/demo.sh
bash tests/test_viewer.sh build/sinew strandbeest.html

echo "== release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=ON -DSN_WARNINGS_AS_ERRORS=ON \
  -DSN_REQUIRE_ORACLE=ON -DSN_BUILD_PYTHON=ON > /dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
echo "== the Python package installed by pip into a scratch venv (no network), its suite again"
bash tests/test_pip.sh build/sinew

echo "== sanitizer build (ASan + UBSan)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSN_SANITIZE=ON -DSN_BUILD_BENCH=OFF \
  -DSN_WARNINGS_AS_ERRORS=ON -DSN_REQUIRE_ORACLE=ON -DSN_BUILD_PYTHON=ON > /dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== ThreadSanitizer: test_threads alone (one model shared by worlds in two threads)"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSN_SANITIZE_THREAD=ON \
  -DSN_BUILD_BENCH=OFF -DSN_BUILD_EXAMPLES=OFF -DSN_WARNINGS_AS_ERRORS=ON > /dev/null
cmake --build build-tsan --target test_threads -j"$jobs"
TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_threads

echo "== fuzzing: every reader's libFuzzer target for 60 s (clang-14, ASan + UBSan)"
bash scripts/fuzz.sh 60
