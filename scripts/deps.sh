#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages sinew needs, when missing: apt-get as root, sudo otherwise.
# Usage: scripts/deps.sh [--test]   (--test adds what the test suite and benchmarks use:
# MuJoCo, valgrind, clang-format, Chromium for the replay viewer's test, gnuplot for the plots,
# clang-14 and its libFuzzer runtime for scripts/fuzz.sh, Python's headers, numpy, pytest, venv
# and pip for the Python package, Open MPI and mpi4py for its MPI example)
set -euo pipefail
pkgs=(build-essential cmake libexpat1-dev)
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(libmujoco-dev valgrind clang-format chromium gnuplot-nox clang-14 libclang-rt-14-dev
    python3-dev python3-numpy python3-pytest python3-venv python3-pip python3-setuptools
    python3-mpi4py openmpi-bin)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
