#!/usr/bin/env bash
# The memory system's bound on a column walk (bench/limit/column_walk.cc), natively: g++ -O2,
# built into bench/build/, run on the last CPU where taskset can pin it (lib/cpu-pinning.mjs: on
# this project's VMs CPU 0 runs in-cache work slower).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
g++ -std=c++17 -O2 limit/column_walk.cc -o build/column_walk
cpu=$(($(nproc) - 1))
if command -v taskset > /dev/null && taskset -c "$cpu" true 2> /dev/null; then
  exec taskset -c "$cpu" build/column_walk
fi
exec build/column_walk
