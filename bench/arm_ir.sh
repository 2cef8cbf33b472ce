#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/arm_ir.sh [TREE]: callgrind instructions per step of sinew_bench_arm's cases (the arm
# component, docs/benchmarks.md "The arm component (seed 002)"): arm7 by sn_arm_step, an sn_world
# system and MuJoCo 2.2.2, full and bare; sn_arm on chains of n joints; the held variant at
# SWEEPS 1 and 40. Only the steps are counted (--collect-atstart=no and the program's toggles).
# Builds TREE/build-bench (Release).
set -euo pipefail
T=$(cd "${1:-$(dirname "$0")/..}" && pwd)
B=$T/build-bench
cmake -S "$T" -B "$B" -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF > /dev/null
cmake --build "$B" -j2 --target sinew_bench_arm > /dev/null
BIG=1073741824
export GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=$BIG:glibc.cpu.x86_rep_movsb_threshold=$BIG
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
N=1000
ir() { # engine variant [sweeps]: Ir per step over N steps from the start
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$TMP/o" \
    "$B/bench/sinew_bench_arm" one "$1" "$2" $N "${3:-20}" > "$TMP/out" 2>&1 ||
    { cat "$TMP/out" >&2; exit 1; }
  awk -v n=$N '/^summary:/ {printf "%.0f", $2 / n}' "$TMP/o"
}
for v in full bare; do
  for e in arm world mujoco; do echo "arm7 $v $e $(ir $e $v) Ir/step"; done
done
for n in 2 4 8 15 30 60; do
  echo "chain$n full $(ir chain$n full) bare $(ir chain$n bare) Ir/step"
done
for c in arm chain30; do
  for s in 1 40; do echo "$c held SWEEPS $s $(ir $c held $s) Ir/step"; done
done
