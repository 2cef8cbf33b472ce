#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shared library exports only the public API (names starting with sn_); internal sni_
# helpers and file-static names stay hidden; every function a public header declares is defined
# and exported (a declaration without a definition is a link error in a user's program).
set -u
lib=$1
include=${2:-}
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}')
bad=$(echo "$exported" | grep -v '^sn_' | grep -v '^_' || true)
n=$(echo "$exported" | grep -c '^sn_')
pass=0; fail=0
if [[ -z "$bad" ]]; then pass=$((pass + 1)); echo "ok   only sn_ symbols exported ($n)"; else fail=$((fail + 1)); echo "FAIL exported: $bad"; fi
if echo "$exported" | grep -q '^sn_load_urdf$'; then pass=$((pass + 1)); echo "ok   sn_load_urdf exported"; else fail=$((fail + 1)); echo "FAIL sn_load_urdf missing"; fi
if [[ -n "$include" ]]; then
    declared=$(grep -hoE '^SN_API [^(]*\bsn_[a-z0-9_]+\(' "$include"/*.h | grep -oE 'sn_[a-z0-9_]+\($' | tr -d '(' | sort -u)
    nd=$(echo "$declared" | grep -c . || true)
    missing=$(comm -23 <(echo "$declared") <(echo "$exported" | sort -u))
    if [[ $nd -gt 100 && -z "$missing" ]]; then pass=$((pass + 1)); echo "ok   every declared function exported ($nd)"
    else fail=$((fail + 1)); echo "FAIL declared in include/sinew but not exported ($nd declared):" $missing; fi
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
