#!/usr/bin/env bash
# Builds the streaming-limit module: bench/build/limit.mjs + limit.wasm (em++, SIMD, -O3).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
export NODE_PATH=/usr/share/nodejs  # emcc's JS optimizer needs acorn from Debian's node modules
em++ -std=c++17 -O3 -msimd128 limit/streaming_max.cc -o build/limit.mjs \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sUSE_ES6_IMPORT_META=1 -sEXPORT_NAME=createLimitModule \
  -sENVIRONMENT=web -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB \
  -sEXPORTED_FUNCTIONS=_malloc,_free,_max_f32
