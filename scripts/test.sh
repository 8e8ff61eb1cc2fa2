#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native and wasm, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
echo "== native tests (Catch2)"
./build/native/ox_native_tests
echo "== wasm tests (node --test)"
node --test tests/js/*.test.mjs   # files, not the folder: Node 22 and 24 read a folder argument as a file (Cannot find module)
