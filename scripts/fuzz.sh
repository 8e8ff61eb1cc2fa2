#!/usr/bin/env bash
# `npm run fuzz`: builds the libFuzzer targets in fuzz/ (clang++ -fsanitize=fuzzer,address,undefined,
# in build/fuzz) and runs each for a bounded time, one after the other (2 cores are shared).
#   scripts/fuzz.sh                          60 s per target
#   scripts/fuzz.sh -max_total_time=20       any libFuzzer flags, passed to every target
#   FUZZ_TARGETS=exec_fuzz scripts/fuzz.sh   one target
#   scripts/fuzz.sh --coverage               no fuzzing: line coverage of src/ by the corpora
#                                            (committed + working), from a coverage build
# Each target starts from the committed seeds (fuzz/corpus/<target>, read only) plus its working
# corpus (build/fuzz/corpus/<target>, grows across runs). A crash, sanitizer report, leak or
# reference mismatch stops the run with a non-zero exit; the input is saved as
# build/fuzz/artifacts/<target>-crash-<sha1> (replay: build/fuzz/<target> <file>).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-sanitizers.sh

source scripts/lib/configure.sh
configure_once build/fuzz \
  cmake -S fuzz -B build/fuzz "${generator[@]}" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug
cmake --build build/fuzz -j2

if [ "${1:-}" = "--coverage" ]; then
  configure_once build/fuzz-cov cmake -S fuzz -B build/fuzz-cov "${generator[@]}" \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DOX_FUZZ_COVERAGE=ON
  cmake --build build/fuzz-cov -j2 --target wire_fuzz exec_fuzz
  major=$(clang++ -dumpversion | cut -d. -f1)
  profiles=()
  for target in ${FUZZ_TARGETS:-wire_fuzz exec_fuzz}; do
    mkdir -p "build/fuzz/corpus/$target"
    LLVM_PROFILE_FILE="build/fuzz-cov/$target.profraw" "./build/fuzz-cov/$target" -runs=0 \
      "build/fuzz/corpus/$target" "fuzz/corpus/$target" >/dev/null 2>&1
    profiles+=("build/fuzz-cov/$target.profraw")
  done
  "llvm-profdata-$major" merge -o build/fuzz-cov/all.profdata "${profiles[@]}"
  objects=()
  for target in ${FUZZ_TARGETS:-wire_fuzz exec_fuzz}; do objects+=(-object "build/fuzz-cov/$target"); done
  "llvm-cov-$major" report "${objects[@]:1}" -instr-profile=build/fuzz-cov/all.profdata "$PWD/src"
  exit 0
fi

args=("$@")
case " ${args[*]:-} " in
  *" -max_total_time="* | *" -runs="*) ;;
  *) args+=(-max_total_time=60) ;;
esac

mkdir -p build/fuzz/artifacts
status=0
for target in ${FUZZ_TARGETS:-wire_fuzz exec_fuzz}; do
  mkdir -p "build/fuzz/corpus/$target"
  log="build/fuzz/$target.log"
  echo "== fuzz $target ${args[*]}"
  set +e
  seeds=()
  [ -d "fuzz/corpus/$target" ] && seeds=("fuzz/corpus/$target")
  "./build/fuzz/$target" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="build/fuzz/artifacts/$target-" "${args[@]}" \
    "build/fuzz/corpus/$target" "${seeds[@]}" >"$log" 2>&1
  code=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  final=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' || true)
  echo "   runs ${runs:-?}, ${speed:-?} exec/s, ${final:-no final stats}"
  if [ "$code" -ne 0 ]; then
    echo "fuzz: $target FAILED (exit $code); log: $log" >&2
    grep -E '^\*\*\* |^  |ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20 >&2 || true
    status=1
  fi
done
exit $status
