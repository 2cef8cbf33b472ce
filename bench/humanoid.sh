#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/humanoid.sh: the humanoid lying on the floor (models/humanoid_primitives.urdf), sinew and
# MuJoCo side by side: wall time per step (median of 5 blocks, two runs) and instructions per
# step from callgrind (the measured steps only). About 2 minutes. docs/benchmarks.md.
#   bench/humanoid.sh [steps]      env: BUILD (default build-bench)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-bench}
STEPS=${1:-1000}
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$BUILD" -j2 --target sinew_bench_humanoid > /dev/null
BIN=$BUILD/bench/sinew_bench_humanoid
echo "## wall time (two runs)"
"$BIN" both "$STEPS"
"$BIN" both "$STEPS"
command -v valgrind > /dev/null || { echo "no valgrind: no instruction counts"; exit 0; }
BIG=1073741824
export GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=$BIG:glibc.cpu.x86_rep_movsb_threshold=$BIG
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "## instructions per step (callgrind, $STEPS steps)"
declare -A IR
for e in sinew mujoco; do
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$TMP/$e.out" \
    "$BIN" "$e" "$STEPS" > "$TMP/$e.log" 2>&1 || { cat "$TMP/$e.log"; exit 1; }
  ir=$(awk '/^summary:/ { print $2 }' "$TMP/$e.out")
  IR[$e]=$ir
  echo "$e $((ir / STEPS)) Ir/step"
done
awk -v a="${IR[sinew]}" -v b="${IR[mujoco]}" 'BEGIN { printf "ratio sinew/MuJoCo %.2f\n", a / b }'
