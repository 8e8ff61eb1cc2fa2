#!/usr/bin/env bash
# Makes sure clang++ can build sanitized programs and libFuzzer targets (scripts/sanitize.sh,
# scripts/fuzz.sh): installs clang through scripts/setup.sh, then the compiler-rt runtimes
# (libclang-rt-<major>-dev on Debian 12) when a one-line fuzzer does not link.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh clang

probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe_dir/probe.cc"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cc" -o "$probe_dir/probe" >/dev/null 2>&1; then
  major=$(clang++ -dumpversion | cut -d. -f1)
  bash scripts/apt-install.sh "libclang-rt-${major}-dev"  # the sanitizer and libFuzzer runtimes
  clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cc" -o "$probe_dir/probe"
fi
