#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cmake --install` and two consumers built against the installed sinew: one with CMake
# (find_package(sinew), sinew::sinew) and one with pkg-config; both run. The installed CLI loads
# an installed model.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
check() { # name, then a command that must succeed
  local name=$1
  shift
  if "$@" > "$TMP/out" 2>&1; then pass=$((pass + 1)); echo "ok   $name"; else
    fail=$((fail + 1)); echo "FAIL $name"; tail -20 "$TMP/out"; fi
}
# a sanitizer build's libraries need the consumers built the same way
FLAGS=""
if grep -q "^SN_SANITIZE:BOOL=ON" "$BUILD/CMakeCache.txt"; then
  FLAGS="-fsanitize=address,undefined"
  export ASAN_OPTIONS=detect_leaks=0
fi
P=$TMP/prefix
MODELS=$P/share/sinew/models
check "cmake --install" cmake --install "$BUILD" --prefix "$P"
for f in include/sinew/sn.h lib/libsinew.a lib/libsinew.so lib/pkgconfig/sinew.pc \
  lib/cmake/sinew/sinewConfig.cmake bin/sinew share/sinew/models/strandbeest.urdf \
  share/doc/sinew/THREE-LICENSE; do
  check "installed $f" test -e "$P/$f"
done

# CMake: find_package(sinew)
mkdir -p "$TMP/cm"
cat > "$TMP/cm/CMakeLists.txt" << CMAKE
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(sinew 0.1 REQUIRED)
add_executable(load_and_step $SRC/examples/load_and_step.c)
target_link_libraries(load_and_step PRIVATE sinew::sinew)
add_executable(contacts_static $SRC/examples/contacts.c)
target_link_libraries(contacts_static PRIVATE sinew::sinew_static)
CMAKE
check "CMake consumer configures" cmake -S "$TMP/cm" -B "$TMP/cm/build" -DCMAKE_PREFIX_PATH="$P" \
  -DCMAKE_C_FLAGS="$FLAGS"
check "CMake consumer builds" cmake --build "$TMP/cm/build"
check "CMake consumer runs (shared)" "$TMP/cm/build/load_and_step" "$MODELS/double_pendulum.urdf"
check "CMake consumer runs (static)" "$TMP/cm/build/contacts_static"

# pkg-config
export PKG_CONFIG_PATH=$P/lib/pkgconfig
check "pkg-config knows sinew" pkg-config --exists sinew
# shellcheck disable=SC2046
check "pkg-config consumer builds" cc -std=c11 $FLAGS -o "$TMP/fourbar" "$SRC/examples/fourbar_loop.c" \
  -DSN_EXAMPLE_MODELS="\"$MODELS\"" $(pkg-config --cflags --libs sinew) -lm
check "pkg-config consumer runs" env LD_LIBRARY_PATH="$P/lib" "$TMP/fourbar"

check "the installed CLI reads an installed model" "$P/bin/sinew" inspect "$MODELS/fourbar.urdf"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
