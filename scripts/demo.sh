#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: build sinew and run its bundled scene, the 12-legged Strandbeest (79 DOF, 36
# closed loops) walking on its crank for 5 s. Prints the run's summary and writes
# strandbeest.html, a replay to open in any browser (one self-contained file). Installs its
# Debian packages when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF -DSN_BUILD_BENCH=OFF > /dev/null
cmake --build build -j"$(nproc)" --target sinew_cli
./build/sinew run
echo
echo "open $(pwd)/strandbeest.html in a browser: the replay (drag to orbit, space to pause)"
