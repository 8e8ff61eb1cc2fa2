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
  echo "setup: installing libclang-rt-${major}-dev (sanitizer and libFuzzer runtimes)"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "libclang-rt-${major}-dev" >/dev/null
  clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cc" -o "$probe_dir/probe"
fi
