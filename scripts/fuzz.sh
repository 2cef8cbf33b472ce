#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/fuzz.sh [SECONDS]: build the libFuzzer targets of tests/fuzz (clang-14, ASan + UBSan)
# into build-fuzz/ and run each for SECONDS (default 60), as many at once as there are cores.
# Each target starts from its seed corpus (the project's own models and test files, the mesh
# seeds of tests/fuzz/seeds, checkpoints written by snf_seeds) and its committed regressions, and
# keeps what it finds in build-fuzz/corpus/<format>. Prints the executions of each target; fails
# when any target crashes, leaks, hits undefined behaviour or times out (the input is kept in
# build-fuzz/artifacts/<format>/: docs/fuzzing.md says how it becomes a regression input).
# FUZZ_TARGETS="urdf mjcf" runs a subset; FUZZ_JOBS sets how many run at once.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=${FUZZ_TARGETS:-urdf mjcf usd obj stl checkpoint}
jobs=${FUZZ_JOBS:-$(nproc)}
cc=${FUZZ_CC:-clang-14}
out=build-fuzz

if ! command -v "$cc" > /dev/null; then
    echo "fuzz.sh: $cc is not installed (apt-get install clang-14)" >&2
    exit 1
fi
# (warnings are not errors: the tree is kept warning-free under gcc, clang warns about more)
CC=$cc cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSN_FUZZ=ON -DSN_BUILD_TESTS=OFF \
    -DSN_BUILD_BENCH=OFF -DSN_BUILD_EXAMPLES=OFF -DSN_WARNINGS_AS_ERRORS=OFF > /dev/null
cmake --build "$out" --target fuzz_all -j"$jobs" > "$out/build.log" 2>&1 || {
    cat "$out/build.log"
    exit 1
}

# copy files into directory $1, each named after its path (models/box.urdf: models_box.urdf)
put() {
    local d=$1 p
    shift
    for p in "$@"; do
        [ -f "$p" ] && cp "$p" "$d/${p//\//_}"
    done
    return 0
}

# the seeds of a format into build-fuzz/seeds/<format> (remade on every run)
seeds() {
    local f=$1 d=$out/seeds/$1
    rm -rf "$d"
    mkdir -p "$d"
    case $f in
    urdf) put "$d" models/*.urdf tests/data/*.urdf tests/data/*/*.urdf ;;
    mjcf) put "$d" models/*.xml tests/data/mjcf/*.xml tests/data/soft/*.xml ;;
    usd) put "$d" models/*.usda ;;
    obj | stl) put "$d" tests/fuzz/seeds/"$f"/* ;;
    checkpoint) "$out"/snf_seeds "$d" ;;
    esac
    put "$d" tests/fuzz/regressions/"$f"/*
}

run() {
    local f=$1
    mkdir -p "$out/corpus/$f" "$out/artifacts/$f"
    local rc=0
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$out/fuzz_$f" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=65536 \
        -dict=tests/fuzz/dict/"$f".dict -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$f/" "$out/corpus/$f" "$out/seeds/$f" \
        > "$out/fuzz_$f.log" 2>&1 || rc=$?
    echo "$rc" > "$out/fuzz_$f.rc"
}

for f in $targets; do seeds "$f"; done
echo "== fuzzing: $targets, ${seconds} s each, $jobs at a time"
declare -A status
running=0
for f in $targets; do
    rm -f "$out/fuzz_$f.rc"
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    run "$f" &
    running=$((running + 1))
done
wait
fail=0
for f in $targets; do
    if [ "$(cat "$out/fuzz_$f.rc" 2> /dev/null)" = 0 ]; then status[$f]=ok; else
        status[$f]=FAILED
        fail=1
    fi
done
printf '%-11s %12s %9s %9s %7s  %s\n' target executions exec/s corpus cov result
for f in $targets; do
    log=$out/fuzz_$f.log
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    corpus=$(find "$out/corpus/$f" -type f | wc -l)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    printf '%-11s %12s %9s %9s %7s  %s\n' "$f" "${execs:-?}" "${rate:-?}" "$corpus" "${cov:-?}" \
        "${status[$f]}"
done
if [ "$fail" -ne 0 ]; then
    for f in $targets; do
        if [ "${status[$f]}" != ok ]; then
            echo "== $f: the end of $out/fuzz_$f.log"
            tail -60 "$out/fuzz_$f.log"
            ls -l "$out/artifacts/$f/"
        fi
    done
    echo "fuzz.sh: a target failed; its input is in $out/artifacts/<format>/ (docs/fuzzing.md)" >&2
    exit 1
fi
