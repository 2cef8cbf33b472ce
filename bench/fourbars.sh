#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/fourbars.sh [TREE] [N ...]: a chain of N four-bars at rest (bench/fourbars.c), sinew and
# MuJoCo 2.2.2 per step: callgrind instructions (100 steps, exact) and wall time (1000 steps,
# median of 5 blocks), with instructions per four-bar, which stays flat when a step is O(N).
# Builds TREE/build-bench (Release). Default N: 1 2 4 8 16 36 64 100. LIMIT=1: the top crank
# held at its joint limit (one contact solver row per step).
set -euo pipefail
T=$(cd "${1:-$(dirname "$0")/..}" && pwd)
shift || true
ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(1 2 4 8 16 36 64 100)
B=$T/build-bench
cmake -S "$T" -B "$B" -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF > /dev/null
cmake --build "$B" -j2 --target sinew_bench_fourbars > /dev/null
X=$B/bench/sinew_bench_fourbars
extra=(); [ "${LIMIT:-0}" = 1 ] && extra=(limit)
BIG=1073741824
export GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=$BIG:glibc.cpu.x86_rep_movsb_threshold=$BIG
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# engine N: instructions per step over 100 timed steps, or - (MuJoCo 2.2.2's XML reader refuses
# bodies nested deeper than about 200, N > 64 here)
ir() {
  rm -f "$TMP/o"
  if valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$TMP/o" "$X" "$1" "$2" \
    100 "${extra[@]}" > /dev/null 2>&1; then
    echo $(( $(awk '/^summary:/ {print $2}' "$TMP/o") / 100 ))
  else
    echo -
  fi
}
us() {
  "$X" "$1" "$2" 1000 "${extra[@]}" 2> /dev/null |
    awk '{for (i = 1; i <= NF; i++) if ($(i+1) == "us/step") print $i}' || true
}
echo "| N | DOF | sinew Ir/step | Ir per four-bar | MuJoCo Ir/step | Ir ratio | sinew us | MuJoCo us | time ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${ns[@]}"; do
  a=$(ir sinew "$n"); b=$(ir mujoco "$n"); ta=$(us sinew "$n"); tb=$(us mujoco "$n")
  awk -v n="$n" -v a="$a" -v b="$b" -v ta="$ta" -v tb="${tb:--}" 'BEGIN {
    if (b == "-") printf "| %d | %d | %d | %d | - | - | %.1f | - | - |\n", n, 3 * n, a, a / n, ta
    else printf "| %d | %d | %d | %d | %d | %.2f | %.1f | %.1f | %.2f |\n", n, 3 * n, a, a / n, b, a / b, ta, tb, ta / tb }'
done
