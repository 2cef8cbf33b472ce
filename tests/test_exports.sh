#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shared library exports only the public API (names starting with sn_); internal sni_
# helpers and file-static names stay hidden.
set -u
lib=$1
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}')
bad=$(echo "$exported" | grep -v '^sn_' | grep -v '^_' || true)
n=$(echo "$exported" | grep -c '^sn_')
pass=0; fail=0
if [[ -z "$bad" ]]; then pass=$((pass + 1)); echo "ok   only sn_ symbols exported ($n)"; else fail=$((fail + 1)); echo "FAIL exported: $bad"; fi
if echo "$exported" | grep -q '^sn_load_urdf$'; then pass=$((pass + 1)); echo "ok   sn_load_urdf exported"; else fail=$((fail + 1)); echo "FAIL sn_load_urdf missing"; fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
