#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/run.sh: build sinew_bench (Release), time every kernel side by side with MuJoCo, count
# instructions per call with callgrind, print one Markdown table and append to
# results/<hostname>/bench.csv. About 2 minutes on 2 cores. docs/benchmarks.md explains the columns.
#
#   bench/run.sh [--quick] [--no-callgrind] [--no-goals] [--iters N] [--chain-iters N]
#                [--step-iters N] [--contact-iters N]
#   env: BUILD (default build-bench), BENCH_ARGS (extra arguments for the timing run)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-bench}
ITERS=100        # calls per callgrind run on the robots (a baseline run makes 1 call)
CHAIN_ITERS=10   # the same on the chains
STEP_ITERS=300   # steps per callgrind run of the step kernels (from the start state)
CONTACT_ITERS=1000 # steps per run of the contact step kernels, timed and counted (from the start)
CALLGRIND=1
GOALS=1          # end with bench/goals.sh's table (--no-goals: without it)
TIMING_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) TIMING_ARGS+=(--batches 7 --target-ms 1); ITERS=20; CHAIN_ITERS=3 ;;
    --no-callgrind) CALLGRIND=0 ;;
    --no-goals) GOALS=0 ;;
    --iters) ITERS=$2; shift ;;
    --chain-iters) CHAIN_ITERS=$2; shift ;;
    --step-iters) STEP_ITERS=$2; shift ;;
    --contact-iters) CONTACT_ITERS=$2; shift ;;
    -h|--help) sed -n 3,9p "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" -j2 --target sinew_bench; } > "$TMP/build.log" 2>&1; then
  cat "$TMP/build.log" >&2
  echo "run.sh: build failed" >&2
  exit 1
fi
BIN=$BUILD/bench/sinew_bench
FEATURES=$("$BIN" --features)
ENGINES=sinew
case "$FEATURES" in *mujoco*) ENGINES="sinew mujoco" ;; esac
if [ "$CALLGRIND" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "run.sh: valgrind not found, no instruction counts" >&2
  CALLGRIND=0
fi
CG_OPTS=(--tool=callgrind)
# callgrind counts each iteration of a rep-prefixed string instruction as one instruction: a
# 11 KB memset done with "rep stosb" would count 11000 Ir. Keep glibc's memset/memcpy on their
# vector loops so that Ir stays a fair proxy of the work (the timed run is not affected).
BIG=1073741824
CG_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=$BIG:glibc.cpu.x86_rep_movsb_threshold=$BIG
case "$FEATURES" in *callgrind*) CG_OPTS+=(--instr-atstart=no) ;; esac

HOST=$(hostname)
REV=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
OUT=$ROOT/results/$HOST
mkdir -p "$OUT"

# 1. wall time, both engines in one process (appends its own rows to $OUT/bench.csv)
echo "== timing (sinew_bench ${TIMING_ARGS[*]} ${BENCH_ARGS:-}) ==" >&2
# shellcheck disable=SC2086
"$BIN" --rev "$REV" --results "$ROOT/results" --csv "$TMP/times.csv" "${TIMING_ARGS[@]}" \
  --contact-steps "$CONTACT_ITERS" ${BENCH_ARGS:-} | tee "$TMP/times.md"

# 2. instructions per call: Ir(1 + N calls) - Ir(1 call), divided by N
ir_total() { # model kernel engine iters: prints the total; keeps the profile in $TMP/cg.<iters>
  local f=$TMP/cg.$4
  GLIBC_TUNABLES=$CG_TUNABLES valgrind "${CG_OPTS[@]}" --callgrind-out-file="$f" \
    "$BIN" --kernel "$2" --model "$1" --engine "$3" --iters "$4" >"$TMP/cg.stdout" \
    2>"$TMP/cg.err" || { cat "$TMP/cg.err" >&2; return 1; }
  awk '/^totals:/ {print $2}' "$f"
}
# self Ir per function of a callgrind profile: "function Ir" lines (the file part dropped, so
# that a function split over several source files is summed)
cg_self() {
  callgrind_annotate --threshold=100 "$1" | awk '
    $1 ~ /^[0-9,]+$/ && $2 ~ /^\(/ && !/PROGRAM TOTALS/ {
      ir = $1; gsub(",", "", ir); line = $0
      sub(/^[^%]*%\) +/, "", line); sub(/ \[.*$/, "", line); sub(/.*:/, "", line)
      s[line] += ir
    }
    END {for (f in s) print f, s[f]}'
}
# inclusive Ir of a profile's functions whose names match a regular expression, summed: the
# contact solver (sni_contact_solve, or sni_world_contact_solve since the solver works at world
# level) and the collision (sni_collide_ground, sni_collide_systems)
cg_incl() { # file regex
  callgrind_annotate --inclusive=yes --threshold=100 "$1" | awk -v re="$2" '
    $1 ~ /^[0-9,]+$/ && $2 ~ /^\(/ {
      line = $0; sub(/ \[.*$/, "", line); sub(/.*:/, "", line)
      if (line ~ re) {ir = $1; gsub(",", "", ir); s += ir}
    }
    END {print s + 0}'
}
SOLVER_RE='^sni_(world_)?contact_solve$'
COLLIDE_RE='^sni_collide_(ground|systems)$'

: > "$TMP/ir.txt"
: > "$TMP/contact.txt" # model kernel engine contacts/step iterations/step
: > "$TMP/solver.txt"  # model solver-Ir/step contacts/step
: > "$TMP/funcs.txt"   # function self-Ir/step (sinew's contact step)
if [ "$CALLGRIND" = 1 ]; then
  models=$(awk -F, 'NR > 1 && $7 == "ns_median" {print $4}' "$TMP/times.csv" | uniq)
  for model in $models; do
    kernels=$(awk -F, -v m="$model" 'NR > 1 && $7 == "ns_median" && $4 == m {print $6}' \
      "$TMP/times.csv")
    for kernel in $kernels; do
      n=$ITERS
      case "$model" in chain*) n=$CHAIN_ITERS ;; esac
      case "$kernel" in step*) n=$STEP_ITERS ;; esac
      case "$kernel" in step_contact*) n=$CONTACT_ITERS ;; esac
      for engine in $ENGINES; do
        same=
        case "$engine:$kernel" in
          sinew:aba_min) same=aba ;;  # the sinew side of aba_min is the aba kernel
          sinew:step_cb) same=step ;; # the sinew side of step_cb is the step kernel
          sinew:step_contact_cb) same=step_contact ;;
        esac
        if [ -n "$same" ]; then # reuse its counts
          for f in ir.txt contact.txt; do
            line=$(awk -v m="$model" -v k="$kernel" -v s="$same" \
              '$1 == m && $2 == s && $3 == "sinew" {$2 = k; print}' "$TMP/$f")
            [ -n "$line" ] && echo "$line" >> "$TMP/$f"
          done
          continue
        fi
        a=$(ir_total "$model" "$kernel" "$engine" 1)
        b=$(ir_total "$model" "$kernel" "$engine" $((n + 1)))
        per=$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN {printf "%.0f", (b - a) / n}')
        echo "$model $kernel $engine $per" >> "$TMP/ir.txt"
        printf '  callgrind %-9s %-15s %-7s %10s Ir/call\n' "$model" "$kernel" "$engine" "$per" >&2
        case "$kernel" in step_contact*)
          # contacts and solver iterations per step of the N + 1 steps (the count mode's line)
          stats=$(awk '$1 == "stats" {print $3, $5}' "$TMP/cg.stdout")
          echo "$model $kernel $engine $stats" >> "$TMP/contact.txt"
          if [ "$engine" = sinew ]; then
            # the solver's and the collision's inclusive Ir per step, and the self Ir of every
            # function per step
            sa=$(cg_incl "$TMP/cg.1" "$SOLVER_RE"); sb=$(cg_incl "$TMP/cg.$((n + 1))" "$SOLVER_RE")
            ca=$(cg_incl "$TMP/cg.1" "$COLLIDE_RE"); cb=$(cg_incl "$TMP/cg.$((n + 1))" "$COLLIDE_RE")
            awk -v m="$model" -v a="$sa" -v b="$sb" -v n="$n" -v c="${stats%% *}" -v ca="$ca" \
              -v cb="$cb" 'BEGIN {printf "%s %.0f %s %.0f\n", m, (b - a) / n, c, (cb - ca) / n}' \
              >> "$TMP/solver.txt"
            cg_self "$TMP/cg.1" > "$TMP/self.1"
            cg_self "$TMP/cg.$((n + 1))" > "$TMP/self.n"
            awk -v n="$n" 'NR == FNR {a[$1] = $2; next} {printf "%s %.0f\n", $1, ($2 - a[$1]) / n}' \
              "$TMP/self.1" "$TMP/self.n" | sort -k2,2nr > "$TMP/funcs.txt"
          fi ;;
        esac
      done
    done
  done
fi

# 3. the tables: wall time and instruction counts; rows appended to bench.csv
# the timing run's date, so that its rows and the Ir rows of this run share it in bench.csv
DATE=$(awk -F, 'NR == 2 {print $1}' "$TMP/times.csv")
[ -n "$DATE" ] || DATE=$(date +%Y-%m-%dT%H:%M:%S)
awk -F, -v irfile="$TMP/ir.txt" -v csv="$OUT/bench.csv" -v date="$DATE" -v host="$HOST" \
    -v rev="$REV" -v cfile="$TMP/contact.txt" -v sfile="$TMP/solver.txt" '
  function fmt(x) { return x == "" ? "-" : (x < 100 ? sprintf("%.1f", x) : sprintf("%.0f", x)) }
  function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }
  function perdof(x, n) { return x == "" ? "-" : fmt(x / n) }
  function pct(x) { return x == "" ? "-" : sprintf("%+.1f%%", x) }
  function num(x, f) { return x == "" ? "-" : sprintf(f, x) }
  BEGIN {
    while ((getline line < irfile) > 0) { split(line, f, " "); ir[f[1] SUBSEP f[2] SUBSEP f[3]] = f[4] }
    while ((getline line < cfile) > 0) {
      split(line, f, " "); con[f[1] SUBSEP f[2] SUBSEP f[3]] = f[4]; its[f[1] SUBSEP f[2] SUBSEP f[3]] = f[5]
    }
    while ((getline line < sfile) > 0) {
      split(line, f, " "); sol[f[1]] = f[2]; solc[f[1]] = f[3]; col[f[1]] = f[4]
    }
  }
  NR > 1 && $7 == "ns_median" {
    s = ir[$4 SUBSEP $6 SUBSEP "sinew"]; m = ir[$4 SUBSEP $6 SUBSEP "mujoco"]
    if ($6 ~ /^step_contact/) {
      k = $4 SUBSEP $6
      contacts = contacts sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        $4, $6, fmt($8), fmt($9), ratio($8, $9), s == "" ? "-" : s, m == "" ? "-" : m, ratio(s, m),
        num(its[k SUBSEP "sinew"], "%.2f"), num(con[k SUBSEP "sinew"], "%.2f"),
        num(its[k SUBSEP "mujoco"], "%.2f"), num(con[k SUBSEP "mujoco"], "%.2f"))
      if (its[k SUBSEP "sinew"] != "") {
        printf "%s,%s,%s,%s,%s,%s,iterations_per_step,%s,%s,\n", date, host, rev, $4, $5, $6,
          its[k SUBSEP "sinew"], its[k SUBSEP "mujoco"] >> csv
        printf "%s,%s,%s,%s,%s,%s,contacts_per_step,%s,%s,\n", date, host, rev, $4, $5, $6,
          con[k SUBSEP "sinew"], con[k SUBSEP "mujoco"] >> csv
      }
      if ($6 == "step_contact" && sol[$4] != "" && solc[$4] > 0) {
        solvers = solvers sprintf("| %s | %s | %s | %.0f%% | %s | %.0f%% | %.2f | %.0f |\n", $4, s,
          col[$4], s > 0 ? 100 * col[$4] / s : 0, sol[$4], s > 0 ? 100 * sol[$4] / s : 0,
          solc[$4], sol[$4] / solc[$4])
        printf "%s,%s,%s,%s,%s,%s,solver_Ir_per_step,%s,,\n", date, host, rev, $4, $5, $6,
          sol[$4] >> csv
        printf "%s,%s,%s,%s,%s,%s,solver_Ir_per_contact,%.0f,,\n", date, host, rev, $4, $5, $6,
          sol[$4] / solc[$4] >> csv
      }
    } else if ($4 ~ /^chain/)
      chains = chains sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        $4, $5, $6, fmt($8), perdof($8, $5), fmt($9), perdof($9, $5), ratio($8, $9),
        s == "" ? "-" : s, perdof(s, $5), m == "" ? "-" : m, ratio(s, m))
    else
      robots = robots sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $4, $5, $6,
        fmt($8), fmt($9), ratio($8, $9), s == "" ? "-" : s, m == "" ? "-" : m, ratio(s, m))
    if (s != "")
      printf "%s,%s,%s,%s,%s,%s,Ir_per_call,%s,%s,%s\n", date, host, rev, $4, $5, $6, s, m,
        (m == "" ? "" : sprintf("%.4g", s / m)) >> csv
  }
  NR > 1 && $7 == "overhead_pct" { ovs[$4] = $8; ovm[$4] = $9; ovnv[$4] = $5; ovorder = ovorder " " $4 }
  END {
    # inverse dynamics: step_id against step, in time (interleaved batches) and in instructions
    n = split(ovorder, ms, " ")
    for (i = 1; i <= n; i++) {
      mo = ms[i]
      s0 = ir[mo SUBSEP "step" SUBSEP "sinew"]; s1 = ir[mo SUBSEP "step_id" SUBSEP "sinew"]
      m0 = ir[mo SUBSEP "step" SUBSEP "mujoco"]; m1 = ir[mo SUBSEP "step_id" SUBSEP "mujoco"]
      is = (s0 == "" || s1 == "") ? "" : 100 * (s1 - s0) / s0
      im = (m0 == "" || m1 == "") ? "" : 100 * (m1 - m0) / m0
      ids = ids sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mo, ovnv[mo],
        pct(ovs[mo]), s0 == "" ? "-" : s0, s1 == "" ? "-" : s1, pct(is),
        pct(ovm[mo]), m0 == "" ? "-" : m0, m1 == "" ? "-" : m1, pct(im))
      if (is != "")
        printf "%s,%s,%s,%s,%s,step_id,overhead_Ir_pct,%.4g,%s,\n", date, host, rev, mo,
          ovnv[mo], is, (im == "" ? "" : sprintf("%.4g", im)) >> csv
    }
    if (robots != "") {
      print "| model | nv | kernel | sinew ns | MuJoCo ns | ratio | sinew Ir/call | MuJoCo Ir/call | Ir ratio |"
      print "|---|---:|---|---:|---:|---:|---:|---:|---:|"
      printf "%s", robots
    }
    if (chains != "") {
      print ""
      print "Scaling on serial chains of revolute links (fixed base):"
      print ""
      print "| model | nv | kernel | sinew ns | sinew ns/DOF | MuJoCo ns | MuJoCo ns/DOF | ratio | sinew Ir/call | sinew Ir/DOF | MuJoCo Ir/call | Ir ratio |"
      print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      printf "%s", chains
    }
    if (contacts != "") {
      print ""
      print "Contact step (standing on 4 feet on a ground plane; Ir and the iteration and contact"
      print "counts per step over the counted run from the start state):"
      print ""
      print "| model | kernel | sinew ns | MuJoCo ns | ratio | sinew Ir/step | MuJoCo Ir/step | Ir ratio | sinew iterations/step | sinew contacts/step | MuJoCo iterations/step | MuJoCo contacts/step |"
      print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      printf "%s", contacts
    }
    if (solvers != "") {
      print ""
      print "The collision and the contact solver of sinew (inclusive Ir per step of sni_collide_ground"
      print "+ sni_collide_systems, and of sni_world_contact_solve or sni_contact_solve; per contact:"
      print "the solver Ir divided by the contacts per step):"
      print ""
      print "| model | sinew Ir/step | collision Ir/step | share | solver Ir/step | share | contacts/step | solver Ir/contact |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|"
      printf "%s", solvers
    }
    if (ids != "") {
      print ""
      print "Inverse dynamics overhead of the step: sinew with sn_system_set_compute_inverse_dynamics(1)"
      print "against without; MuJoCo with mj_rnePostConstraint before mj_Euler against mj_step."
      print "Time: median over interleaved batches of the per-batch ratio; Ir: per step."
      print ""
      print "| model | nv | sinew overhead (time) | sinew Ir/step | sinew + ID Ir/step | sinew overhead (Ir) | MuJoCo overhead (time) | MuJoCo Ir/step | MuJoCo + ID Ir/step | MuJoCo overhead (Ir) |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      printf "%s", ids
    }
  }' "$TMP/times.csv" > "$TMP/table.md"

{
  echo
  echo "## sinew vs MuJoCo: $HOST, $DATE, rev $REV"
  echo
  echo "$(sed -n 3p "$TMP/times.md")"
  echo "ns: median over batches of the mean wall time per call (noisy: compare the ratio, measured"
  echo "in the same run). Ir/call: callgrind instructions per call, (Ir(1+N calls) - Ir(1 call)) / N,"
  echo "N = $ITERS on the robots and $CHAIN_ITERS on the chains (repeatable). Step kernels (step,"
  echo "step_cb, step_id): one call is one step; Ir per step over N = $STEP_ITERS steps from the start state."
  echo "Contact step kernels: runs and counts of N = $CONTACT_ITERS steps from the start state."
  echo
  cat "$TMP/table.md"
  if [ -s "$TMP/funcs.txt" ]; then
    echo
    echo "Where sinew's contact step spends its instructions (self Ir per step, callgrind, top 14):"
    echo
    echo "| function | Ir/step | share |"
    echo "|---|---:|---:|"
    awk '{t += $2; f[NR] = $1; v[NR] = $2}
      END {for (i = 1; i <= NR && i <= 14; i++) printf "| `%s` | %d | %.1f%% |\n", f[i], v[i], 100 * v[i] / t
           r = 0; for (i = 15; i <= NR; i++) r += v[i]
           printf "| the rest | %d | %.1f%% |\n| **total** | **%d** | |\n", r, 100 * r / t, t}' \
      "$TMP/funcs.txt"
  fi
  echo
  awk '/^Agreement/ {p = 1} /^(Scaling|Kernels)/ {p = 0} p' "$TMP/times.md"
  awk '/^Kernels/ {p = 1} p' "$TMP/times.md"
  if [ "$GOALS" = 1 ]; then
    echo
    echo "Issue 18's goals (bench/goals.sh):"
    echo
    bash "$ROOT/bench/goals.sh" "$ROOT"
  fi
} | tee "$OUT/bench_last.md"
echo >&2
echo "run.sh: appended to $OUT/bench.csv, table in $OUT/bench_last.md" >&2
