#!/usr/bin/env bash
# `npm start`: builds what is missing on a fresh clone, then runs the main example on built-in data.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f dist/ox.wasm ] || [ ! -f dist/ox.mjs ]; then
  bash scripts/setup.sh
  bash scripts/build.sh wasm
fi
exec node examples/node/main.mjs
