#!/usr/bin/env bash
# Runs the SIMD Catch2 suites (simd_*_test.cc) compiled to WebAssembly simd128 under Node, so the
# wasm code path of the kernels (not just their SSE2 twin) is checked against the same references.
#   bash tests/native/simd_wasm_check.sh        (about 1 min to build, 25 s to run)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/simd-wasm-tests
mkdir -p "$out/include"
ln -sfn /usr/include/catch2 "$out/include/catch2"  # the Debian Catch2 header, outside em++'s sysroot
printf '#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n' > "$out/main.cc"
export NODE_PATH=/usr/share/nodejs
# Every source of the layers the kernels stand on, by directory, so a new file there is never missed
# (a hand-kept list missed src/core/number_text.cc once and failed CI).
em++ -std=c++17 -O2 -msimd128 -fexceptions -Isrc -Itests/native -I"$out/include" "$out/main.cc" \
  tests/native/simd_*_test.cc src/core/*.cc src/kernels/*.cc src/exec/*.cc src/plan/*.cc \
  -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -sEXIT_RUNTIME=1 -o "$out/simd_tests.cjs"
node "$out/simd_tests.cjs" "$@"  # .cjs: the package is "type": "module"
