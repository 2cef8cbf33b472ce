#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/goals.sh [TREE]: issue 18's goals in one table, each measured here side by side with
# MuJoCo 2.2.2 (callgrind instructions, exact; wall time, median of 5 blocks) and translated to
# the newest MuJoCo (3.12) by the issue's per-scene ratio to 2.2.2, or set against the issue's
# Pinocchio 3.7 figures (measured outside the project on this machine). About 3 minutes.
# Builds TREE/build-bench (Release). docs/benchmarks.md explains each scene.
set -euo pipefail
T=$(cd "${1:-$(dirname "$0")/..}" && pwd)
B=$T/build-bench
cmake -S "$T" -B "$B" -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF > /dev/null
cmake --build "$B" -j2 --target sinew_bench sinew_bench_humanoid sinew_bench_strandbeest \
  sinew_bench_fourbars > /dev/null
X=$B/bench
BIG=1073741824
export GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=$BIG:glibc.cpu.x86_rep_movsb_threshold=$BIG
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# instructions of the timed steps (callgrind's collection toggled by the program) per step
steps_ir() { # steps command...
  local n=$1; shift
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$TMP/o" "$@" > /dev/null 2>&1
  awk -v n="$n" '/^summary:/ {printf "%.0f", $2 / n}' "$TMP/o"
}
# instructions per call of a sinew_bench kernel (count mode: (Ir(N + 1) - Ir(1)) / N)
kernel_ir() { # kernel model engine
  local a b
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$TMP/a" \
    "$X/sinew_bench" --kernel "$1" --model "$2" --engine "$3" --iters 1 > /dev/null 2>&1
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$TMP/b" \
    "$X/sinew_bench" --kernel "$1" --model "$2" --engine "$3" --iters 21 > /dev/null 2>&1
  a=$(awk '/^totals:/ {print $2}' "$TMP/a"); b=$(awk '/^totals:/ {print $2}' "$TMP/b")
  echo $(( (b - a) / 20 ))
}
us() { awk '{for (i = 1; i <= NF; i++) if ($(i+1) == "us/step") {print $i; exit}}'; }

echo "measuring (about 3 minutes)..." >&2
# the scenes
hum=$("$X/sinew_bench_humanoid" both 1000 2>/dev/null)
hum_sn_us=$(grep '^sinew' <<< "$hum" | us); hum_mj_us=$(grep '^MuJoCo' <<< "$hum" | us)
hum_sn_ir=$(steps_ir 1000 "$X/sinew_bench_humanoid" sinew 1000)
hum_mj_ir=$(steps_ir 1000 "$X/sinew_bench_humanoid" mujoco 1000)
hum_sweeps=$(grep '^sinew' <<< "$hum" | sed -n 's/.*contacts, \([0-9.]*\) solver sweeps.*/\1/p')
hum_nc=$(grep '^sinew' <<< "$hum" | sed -n 's/.*(\([0-9]*\) contacts,.*/\1/p')
sb=$("$X/sinew_bench_strandbeest" both 1000 0.002 2>/dev/null)
sb_sn_us=$(grep '^sinew' <<< "$sb" | us); sb_mj_us=$(grep '^MuJoCo' <<< "$sb" | us)
sb_rms=$(grep '^sinew' <<< "$sb" | sed -n 's/.*closure rms \([^ ]*\) m.*/\1/p')
sb_sweeps=$(grep '^sinew' <<< "$sb" | sed -n 's/.* \([0-9.]*\) solver sweeps.*/\1/p')
fb_sn_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" sinew 36 100)
fb_mj_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" mujoco 36 100)
fb1_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" sinew 1 100)
fb64_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" sinew 64 100)
# with one joint limit pressed (a contact solver row every step)
fbl_sn_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" sinew 36 100 limit)
fbl_mj_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" mujoco 36 100 limit)
fbl8_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" sinew 8 100 limit)
fbl64_ir=$(steps_ir 100 "$X/sinew_bench_fourbars" sinew 64 100 limit)
# the kernels' wall times (sinew_bench's own medians)
"$X/sinew_bench" --models anymal_c,romeo,chains --kernels fkpos,fkmotion,crba,aba,minv --no-append \
  2> /dev/null > "$TMP/k"
kt() { awk -F'|' -v m="$1" -v k="$2" '{gsub(/ /, "", $2); gsub(/ /, "", $4)} $2 == m && $4 == k {print $5 + 0; exit}' "$TMP/k"; }
any_fk=$(kt anymal_c fkmotion); any_fkpos=$(kt anymal_c fkpos); any_crba=$(kt anymal_c crba); any_aba=$(kt anymal_c aba)
romeo_minv=$(kt romeo minv); romeo_fk=$(kt romeo fkpos); chain_minv=$(kt chain100 minv)
any_step_sn=$(kernel_ir step_contact anymal_c sinew); any_step_mj=$(kernel_ir step_contact anymal_c mujoco)

awk -v hsi="$hum_sn_ir" -v hmi="$hum_mj_ir" -v hsu="$hum_sn_us" -v hmu="$hum_mj_us" \
  -v hsw="$hum_sweeps" -v hnc="$hum_nc" -v ssu="$sb_sn_us" -v smu="$sb_mj_us" -v srms="$sb_rms" -v ssw="$sb_sweeps" \
  -v fsi="$fb_sn_ir" -v fmi="$fb_mj_ir" -v f1="$fb1_ir" -v f64="$fb64_ir" \
  -v lsi="$fbl_sn_ir" -v lmi="$fbl_mj_ir" -v l8="$fbl8_ir" -v l64="$fbl64_ir" \
  -v afk="$any_fk" -v afp="$any_fkpos" -v acr="$any_crba" -v aab="$any_aba" -v rmi="$romeo_minv" -v rfk="$romeo_fk" -v cmi="$chain_minv" \
  -v ass="$any_step_sn" -v asm="$any_step_mj" 'BEGIN {
  print "| goal | sinew | reference | ratio | target | met |"
  print "|---|---:|---:|---:|---:|---|"
  # the newest MuJoCo per scene, as the issue measured it against 2.2.2
  r = hsi / (hmi * 0.88)
  printf "| humanoid lying, Ir/step vs MuJoCo 3.12 (0.88 x 2.2.2) | %d | %.0f | %.2f | 0.50 | %s |\n", hsi, hmi * 0.88, r, r <= 0.5 ? "yes" : "no"
  r = hsu / (hmu * 0.88)
  printf "| humanoid lying, us/step vs MuJoCo 3.12 | %.1f | %.1f | %.2f | 0.50 | %s |\n", hsu, hmu * 0.88, r, r <= 0.5 ? "yes" : "no"
  printf "| humanoid lying, sweeps per step | %s | - | - | ~3 + a block solve | %s |\n", hsw, hsw <= 3.5 ? "yes" : "no"
  printf "| humanoid lying, Ir/step per contact (%d contacts) vs MuJoCo 2.2.2 | %.0f | %.0f | %.2f | - | - |\n", hnc, hsi / hnc, hmi / hnc, hsi / hmi
  r = ssu / (smu * 1.03)
  printf "| Strandbeest walking, us/step vs MuJoCo 3.12 (1.03 x 2.2.2) | %.1f | %.1f | %.2f | 0.50 | %s |\n", ssu, smu * 1.03, r, r <= 0.5 ? "yes" : "no"
  printf "| Strandbeest closure rms (m) | %s | - | - | 1e-05 | %s |\n", srms, srms + 0 < 1e-5 ? "yes" : "no"
  printf "| Strandbeest sweeps per step (limit 150) | %s | - | - | < 150 every step | (mean) |\n", ssw
  r = fsi / (fmi * 0.79)
  printf "| 36 four-bars at rest, Ir/step vs MuJoCo 3.12 (0.79 x 2.2.2) | %d | %.0f | %.2f | 0.10 | %s |\n", fsi, fmi * 0.79, r, r <= 0.1 ? "yes" : "no"
  r = (f64 / 64) / f1
  printf "| four-bars, Ir per four-bar at N = 64 over N = 1 | %.0f | %d | %.2f | ~1 (linear) | %s |\n", f64 / 64, f1, r, r <= 1.5 ? "yes" : "no"
  r = lsi / (lmi * 0.79)
  printf "| 36 four-bars, one joint limit held, Ir/step vs MuJoCo 3.12 (at rest'"'"'s 0.79 x 2.2.2) | %d | %.0f | %.2f | 0.10 | %s |\n", lsi, lmi * 0.79, r, r <= 0.1 ? "yes" : "no"
  r = (l64 / 64) / (l8 / 8)
  printf "| four-bars, one joint limit held, Ir per four-bar at N = 64 over N = 8 | %.0f | %.0f | %.2f | ~1 (linear) | %s |\n", l64 / 64, l8 / 8, r, r <= 1.2 ? "yes" : "no"
  r = ass / (asm * 1.07)
  printf "| ANYmal on 4 feet, Ir/step vs MuJoCo 3.12 (1.07 x 2.2.2) | %d | %.0f | %.2f | - | - |\n", ass, asm * 1.07, r
  # Pinocchio 3.7, the issue'"'"'s figures (us)
  printf "| ABA (ANYmal, fk + fk_vel + aba) vs Pinocchio, ns | %d | 3790 | %.2f | 1.00 | %s |\n", aab, aab / 3790, aab <= 3790 ? "yes" : "no"
  printf "| CRBA with its FK (ANYmal, fkpos + crba) vs Pinocchio crba, ns | %d | 780 | %.2f | 1.00 | %s |\n", acr + afp, (acr + afp) / 780, acr + afp <= 780 ? "yes" : "no"
  printf "| FK with velocities (ANYmal, sn_fk_motion) vs Pinocchio, ns | %d | 690 | %.2f | 1.00 | %s |\n", afk, afk / 690, afk <= 690 ? "yes" : "no"
  printf "| M^-1 with its FK (Romeo, fkpos + minv) vs Pinocchio computeMinverse, ns | %d | 7600 | %.2f | 1.00 | %s |\n", rmi + rfk, (rmi + rfk) / 7600, rmi + rfk <= 7600 ? "yes" : "no"
  printf "| M^-1 (100-link chain; its FK, about 5.5 us, not included) vs Pinocchio, ns | %d | 46000 | %.2f | 1.00 | %s |\n", cmi, cmi / 46000, cmi <= 46000 ? "yes" : "no"
}'
