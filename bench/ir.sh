#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/ir.sh [TREE]: sinew's callgrind instructions per step on the three step benchmarks
# (ANYmal standing on 4 feet, the humanoid lying on the floor, the Strandbeest walking).
# Builds TREE/build-bench (Release). Prints one line per scene.
set -euo pipefail
T=$(cd "${1:-$(dirname "$0")/..}" && pwd)
B=$T/build-bench
cmake -S "$T" -B "$B" -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF > /dev/null
cmake --build "$B" -j2 --target sinew_bench sinew_bench_humanoid sinew_bench_strandbeest > /dev/null
BIG=1073741824
export GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=$BIG:glibc.cpu.x86_rep_movsb_threshold=$BIG
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
tot() { valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$TMP/o "$@" > /dev/null 2>&1; awk '/^totals:/ {print $2}' $TMP/o; }
a=$(tot $B/bench/sinew_bench --kernel step_contact --model anymal_c --engine sinew --iters 1)
b=$(tot $B/bench/sinew_bench --kernel step_contact --model anymal_c --engine sinew --iters 1001)
echo "anymal_c step_contact  $(( (b - a) / 1000 )) Ir/step"
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=$TMP/h $B/bench/sinew_bench_humanoid sinew 1000 > /dev/null 2>&1
echo "humanoid               $(( $(awk '/^summary:/ {print $2}' $TMP/h) / 1000 )) Ir/step"
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=$TMP/s $B/bench/sinew_bench_strandbeest sinew 1000 0.002 > /dev/null 2>&1
echo "strandbeest            $(( $(awk '/^summary:/ {print $2}' $TMP/s) / 1000 )) Ir/step"
