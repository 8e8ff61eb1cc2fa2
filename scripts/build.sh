#!/usr/bin/env bash
# Builds the core natively (with the Catch2 tests) and to WebAssembly (dist/ox.mjs + dist/ox.wasm).
#   scripts/build.sh          both
#   scripts/build.sh native   native only
#   scripts/build.sh wasm     wasm only
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/configure.sh
what="${1:-all}"

if [ "$what" = all ] || [ "$what" = native ]; then
  configure_once build/native \
    cmake -S . -B build/native "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
  cmake --build build/native -j2
fi
if [ "$what" = all ] || [ "$what" = wasm ]; then
  export NODE_PATH=/usr/share/nodejs  # emcc's JS optimizer needs acorn from Debian's node modules
  configure_once build/wasm \
    emcmake cmake -S . -B build/wasm "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
  cmake --build build/wasm -j2
fi
