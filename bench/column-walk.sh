#!/usr/bin/env bash
# The memory system's bound on a column walk (bench/limit/column_walk.cc), natively: g++ -O2,
# built into bench/build/, run pinned to one CPU where taskset is.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
g++ -std=c++17 -O2 limit/column_walk.cc -o build/column_walk
if command -v taskset > /dev/null; then exec taskset -c 0 build/column_walk; else exec build/column_walk; fi
