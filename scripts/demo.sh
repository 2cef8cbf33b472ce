#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: build sinew and simulate the bundled double pendulum for 10 s, recording the
# trajectory to double_pendulum.csv. Installs its Debian packages when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSN_BUILD_TESTS=OFF -DSN_BUILD_BENCH=OFF > /dev/null
cmake --build build -j"$(nproc)" --target sinew_cli
./build/sinew inspect models/double_pendulum.urdf
echo
./build/sinew run models/double_pendulum.urdf --q0 "1.2 0.5" --duration 10 --record double_pendulum.csv
