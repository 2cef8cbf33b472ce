#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HTML replay in a browser: `sinew run` (the bundled Strandbeest) writes its replay, headless
# Chromium opens it, and the page's status line (<pre id="sinew-status">, written by the viewer)
# must show that it drew images, that they showed successive frames of the run, and that the
# last one has bodies in it (pixels neither background nor ground, read back from WebGL).
# SN_VIEWER_SHOT=FILE keeps a screenshot.
# Usage: test_viewer.sh PATH/TO/sinew [REPLAY.html]   (exit 77: skipped, no Chromium)
#   with REPLAY.html: render that replay (the main job's, scripts/demo.sh) instead of a new one
set -u
SINEW=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
GIVEN=""
if [[ $# -gt 1 ]]; then GIVEN=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$CHROMIUM" ]]; then
  echo "skipped: no chromium (scripts/deps.sh --test installs it)"
  [[ -n ${SNT_NO_SKIP:-} ]] && { echo "FAIL SNT_NO_SKIP is set: a skip is a failure here"; exit 1; }
  exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
pass=0
fail=0
check() { # name, then a command that must succeed
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); echo "FAIL $name"; fi
}
FLAGS=(--headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader
  --disable-background-networking --window-size=1000,700 --user-data-dir="$TMP/profile")
# the page's status after `budget` ms of virtual time
status() {
  timeout 120 "$CHROMIUM" "${FLAGS[@]}" --virtual-time-budget="$1" --dump-dom \
    "file://$TMP/replay.html" 2> "$TMP/chromium.err" |
    sed -n 's/.*<pre id="sinew-status">\([^<]*\)<\/pre>.*/\1/p'
}
field() { # json, key: the number after "key":
  sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" <<< "$1"
}

if [[ -n "$GIVEN" ]]; then
  check "the replay $GIVEN exists" cp "$GIVEN" "$TMP/replay.html"
else
  check "sinew run writes the replay" "$SINEW" run --duration 5 --quiet --html "$TMP/replay.html"
fi
check "the replay is one self-contained file" grep -q 'id="sinew-data"' "$TMP/replay.html"
check "it carries three.js's licence notice" grep -q "three.js authors" "$TMP/replay.html"
check "it loads nothing from the network" bash -c "! grep -Eq '<script[^>]+src=|<link[^>]+href=' '$TMP/replay.html'"
st=$(status 6000)
echo "  after 6 s: $st"
# software WebGL on a loaded machine can fall behind the virtual clock: look once more, longer
if [[ "$(field "$st" drawn)" -lt 3 ]] 2> /dev/null || [[ -z "$(field "$st" drawn)" ]]; then
  st=$(status 20000)
  echo "  after 20 s (a second look): $st"
fi
check "the viewer starts" grep -q '"ready":true' <<< "$st"
drawn=$(field "$st" drawn)
distinct=$(field "$st" distinct)
pixels=$(field "$st" bodyPixels)
check "it draws (${drawn:-0} images)" test "${drawn:-0}" -ge 3
check "its frames advance (${distinct:-0} distinct frames shown)" test "${distinct:-0}" -ge 3
check "the image shows the robot (${pixels:-0} body pixels of 700000)" test "${pixels:-0}" -ge 5000
timeout 120 "$CHROMIUM" "${FLAGS[@]}" --virtual-time-budget=1500 --screenshot="$TMP/replay.png" \
  "file://$TMP/replay.html" 2>> "$TMP/chromium.err"
check "a screenshot is taken" test -s "$TMP/replay.png"
if [[ -n "${SN_VIEWER_SHOT:-}" ]]; then cp "$TMP/replay.png" "$SN_VIEWER_SHOT"; fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
