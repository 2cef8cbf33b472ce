#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/test_pip.sh CLI: the Python package as a user installs it (docs/python.md "Install"):
# `python3 -m pip install --no-build-isolation .` from this checkout, without network, into a
# scratch venv that sees Debian's numpy and pytest; then the pytest suite against the installed
# package, run from outside the checkout so that nothing is imported from it.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
(cd "$src" && "$tmp/venv/bin/python" -m pip install -q --no-build-isolation --no-index \
  --disable-pip-version-check .) > "$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; exit 1; }
where=$(cd "$tmp" && "$tmp/venv/bin/python" -c 'import sinew; print(sinew.__file__)')
case $where in
  "$tmp"/venv/*) echo "installed: $where" ;;
  *) echo "error: sinew imported from $where, not the venv" >&2; exit 1 ;;
esac
cd "$tmp" && SINEW_SOURCE=$src SINEW_CLI=$cli "$tmp/venv/bin/python" -m pytest -q \
  -p no:cacheprovider "$src/tests/python"
