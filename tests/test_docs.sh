#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The API reference is current: docs/reference.md regenerated from the headers' doc comments
# equals the committed one, and every public function (SN_API) appears in it.
# Usage: test_docs.sh SOURCE_DIR
set -u
SRC=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
/usr/bin/python3 "$SRC/scripts/api_reference.py" "$TMP/reference.md" || fail=1
if ! diff -u "$SRC/docs/reference.md" "$TMP/reference.md" > "$TMP/diff"; then
  echo "FAIL docs/reference.md is stale: run /usr/bin/python3 scripts/api_reference.py"
  head -40 "$TMP/diff"
  fail=1
else
  echo "ok   docs/reference.md is current"
fi
missing=0
for fn in $(grep -ho '^SN_API [^(]*(' "$SRC"/include/sinew/*.h | sed 's/($//' | awk '{print $NF}' | tr -d '*'); do
  if ! grep -q "[ *]$fn(\|^$fn(" "$SRC/docs/reference.md"; then
    echo "FAIL $fn has no doc comment, so no entry in the reference"
    missing=$((missing + 1))
  fi
done
[[ $missing -eq 0 ]] && echo "ok   every public function is documented ($(grep -c '^SN_API' "$SRC"/include/sinew/*.h | awk -F: '{s += $2} END {print s}') declarations)"
[[ $fail -eq 0 && $missing -eq 0 ]]
