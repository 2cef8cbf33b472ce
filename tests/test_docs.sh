#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The API reference is current: docs/reference.md regenerated from the headers' doc comments
# equals the committed one, and every public function (SN_API) appears in it; so does the table
# of C comments the Python docstrings take (python/src/cdocs.inc); docs/architecture.md
# names every file of src/ in its room's row; the bundled .usda models are their generator's output.
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
# the Python docstrings' table of C comments is its generator's output
/usr/bin/python3 "$SRC/scripts/python_docs.py" "$TMP/cdocs.inc" || fail=1
if ! cmp -s "$SRC/python/src/cdocs.inc" "$TMP/cdocs.inc"; then
  echo "FAIL python/src/cdocs.inc is stale: run /usr/bin/python3 scripts/python_docs.py"
  fail=1
else
  echo "ok   python/src/cdocs.inc is current"
fi
# the bundled .usda models are what their generator writes from their URDF twins
for m in fourbar strandbeest; do
  /usr/bin/python3 "$SRC/scripts/urdf_to_usda.py" "$SRC/models/$m.urdf" "$TMP/$m.usda" > /dev/null || fail=1
  if ! cmp -s "$SRC/models/$m.usda" "$TMP/$m.usda"; then
    echo "FAIL models/$m.usda is stale: run /usr/bin/python3 scripts/urdf_to_usda.py models/$m.urdf models/$m.usda"
    fail=1
  else
    echo "ok   models/$m.usda is its generator's output"
  fi
done
missing=0
for fn in $(grep -ho '^SN_API [^(]*(' "$SRC"/include/sinew/*.h | sed 's/($//' | awk '{print $NF}' | tr -d '*'); do
  if ! grep -q "[ *]$fn(\|^$fn(" "$SRC/docs/reference.md"; then
    echo "FAIL $fn has no doc comment, so no entry in the reference"
    missing=$((missing + 1))
  fi
done
[[ $missing -eq 0 ]] && echo "ok   every public function is documented ($(grep -c '^SN_API' "$SRC"/include/sinew/*.h | awk -F: '{s += $2} END {print s}') declarations)"
# docs/architecture.md is the map of the house: every file of src/ is in its room's row (the row
# that starts with the room's folder), and every room is on the map
unmapped=0
for f in "$SRC"/src/*/*.[ch]; do
  room=$(basename "$(dirname "$f")")
  name=$(basename "$f")
  row=$(grep "^| \`src/$room/\`" "$SRC/docs/architecture.md")
  if [[ -z "$row" ]]; then
    echo "FAIL src/$room/ has no row in docs/architecture.md"
    unmapped=$((unmapped + 1))
  elif ! grep -qE "(^|[ ,|])${name//./\\.}([ ,|]|$)" <<< "$row"; then
    echo "FAIL src/$room/$name is not named in its room's row of docs/architecture.md"
    unmapped=$((unmapped + 1))
  fi
done
# ... and every file it names there exists
while IFS= read -r row; do
  room=$(sed 's/^| `src\/\([a-z]*\)\/`.*/\1/' <<< "$row")
  for n in $(cut -d'|' -f3 <<< "$row" | grep -oE '[a-z_0-9]+\.[ch]'); do
    if [[ ! -f "$SRC/src/$room/$n" ]]; then
      echo "FAIL docs/architecture.md names src/$room/$n, which does not exist"
      unmapped=$((unmapped + 1))
    fi
  done
done < <(grep '^| `src/' "$SRC/docs/architecture.md")
[[ $unmapped -eq 0 ]] && echo "ok   docs/architecture.md maps every file of src/ ($(ls "$SRC"/src/*/*.[ch] | wc -l) files)"
[[ $fail -eq 0 && $missing -eq 0 && $unmapped -eq 0 ]]
