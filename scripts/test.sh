#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native and wasm, runs every test of both builds:
# the native Catch2 suite and the wasm suite under node --test. CI (.ci/run) runs the same suites
# in more settings too: sanitized, the SIMD suites as wasm, fuzzing, Node 26 and 24, Deno and Bun.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
echo "== native tests (Catch2)"
./build/native/ox_native_tests
echo "== wasm tests (node --test)"
node --test tests/js/*.test.mjs   # files, not the folder: Node 22 and 24 read a folder argument as a file (Cannot find module)
