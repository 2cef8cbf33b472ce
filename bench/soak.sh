#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# soak.sh: the random-torque soak (docs/reliability.md): every shared model file (URDF, MJCF)
# run as the file says for 20,000 steps with random torques within the effort limits, changed
# every 10 steps; prints the table. Usage: bash bench/soak.sh [build dir] [sinew_soak options]
# (e.g. -n 1000). The models come from $SINEW_SHARED/models (default ../shared/models, or
# ../../shared/models from a worktree).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build-soak}"
shift || true
shared="${SINEW_SHARED:-$here/../shared}"
[ -d "$shared/models" ] || shared="$here/../../shared" # a git worktree one level down
[ -d "$shared/models" ] || { echo "soak.sh: no models in $shared (set SINEW_SHARED)" >&2; exit 2; }
if [ ! -x "$build/bench/sinew_soak" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_BENCH=ON >/dev/null
    cmake --build "$build" --target sinew_soak -j2 >/dev/null
fi
mapfile -t files < <(find "$shared/models" \( -name '*.urdf' -o -name '*.xml' \) | LC_ALL=C sort)
exec "$build/bench/sinew_soak" "$@" "${files[@]}"
