#!/usr/bin/env bash
# Builds the core natively (with the Catch2 tests) and to WebAssembly (dist/ox.mjs + dist/ox.wasm).
#   scripts/build.sh          both
#   scripts/build.sh native   native only
#   scripts/build.sh wasm     wasm only
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

# Configures dir unless it holds a finished configuration. A configure that failed (say, run
# before scripts/setup.sh installed Catch2) leaves a CMakeCache.txt but no build file; that cache
# is dropped, or the build would stop at "loading 'build.ninja'".
configure() {
  local dir="$1"; shift
  [ -f "$dir/build.ninja" ] || [ -f "$dir/Makefile" ] && return 0
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  "$@" -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
}

if [ "$what" = all ] || [ "$what" = native ]; then
  configure build/native cmake
  cmake --build build/native -j2
fi
if [ "$what" = all ] || [ "$what" = wasm ]; then
  export NODE_PATH=/usr/share/nodejs  # emcc's JS optimizer needs acorn from Debian's node modules
  configure build/wasm emcmake cmake
  cmake --build build/wasm -j2
fi
