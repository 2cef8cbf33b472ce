#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/cachegrind.sh [TREE]: where time and instructions disagree (issue 18: "report cache and
# branch misses"), the contact scenes under valgrind's cachegrind with its cache and branch
# simulation, sinew and MuJoCo 2.2.2 side by side. Cachegrind (valgrind 3.19) cannot toggle its
# collection, so each engine runs twice, with S and 2 S timed steps, and the table shows the
# difference per step: the timed steps alone, without loading and settling. About 2 minutes.
set -euo pipefail
T=$(cd "${1:-$(dirname "$0")/..}" && pwd)
B=$T/build-bench
cmake -S "$T" -B "$B" -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF > /dev/null
cmake --build "$B" -j2 --target sinew_bench_humanoid sinew_bench_strandbeest > /dev/null
X=$B/bench
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# the event totals of one run: Ir D1mr LLdmr (reads) D1mw LLdmw (writes) Bc Bcm Bi Bim
events() {
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file="$TMP/cg" \
    "$@" > /dev/null 2>&1
  awk '/^events:/ {for (i = 2; i <= NF; i++) name[i - 1] = $i}
       /^summary:/ {for (i = 2; i <= NF; i++) v[name[i - 1]] = $i
         printf "%s %s %s %s %s %s %s\n", v["Ir"], v["D1mr"] + v["D1mw"], v["DLmr"] + v["DLmw"],
           v["Bc"], v["Bcm"], v["Bi"], v["Bim"]}' "$TMP/cg"
}
# one row: scene engine steps command-with-STEPS
row() {
  local scene=$1 engine=$2 s=$3; shift 3
  local a b
  a=$(events "${@/STEPS/$s}"); b=$(events "${@/STEPS/$((2 * s))}")
  paste -d' ' <(tr ' ' '\n' <<< "$a") <(tr ' ' '\n' <<< "$b") | awk -v s="$s" -v sc="$scene" -v en="$engine" '
    {d[NR] = ($2 - $1) / s}
    END {printf "| %s | %s | %.0f | %.0f | %.0f | %.0f | %.2f %% | %.0f | %.2f %% |\n", sc, en, d[1], d[2],
      d[3], d[4], d[4] ? 100 * d[5] / d[4] : 0, d[6], d[6] ? 100 * d[7] / d[6] : 0}'
}
echo "| scene | engine | Ir/step | D1 misses/step | LL misses/step | cond. branches/step | mispredicted | indirect/step | mispredicted |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
row "humanoid lying" sinew 500 "$X/sinew_bench_humanoid" sinew STEPS
row "humanoid lying" "MuJoCo 2.2.2" 500 "$X/sinew_bench_humanoid" mujoco STEPS
row "Strandbeest walking" sinew 250 "$X/sinew_bench_strandbeest" sinew STEPS 0.002
row "Strandbeest walking" "MuJoCo 2.2.2" 250 "$X/sinew_bench_strandbeest" mujoco STEPS 0.002
