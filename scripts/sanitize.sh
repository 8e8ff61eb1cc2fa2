#!/usr/bin/env bash
# `npm run test:sanitize`: builds the native Catch2 suite (every tests/native/*_test.cc, through the
# project's own CMakeLists) with AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer and
# runs it. Any report fails the run: -fno-sanitize-recover=undefined makes UBSan fatal, ASan/LSan
# are fatal by default.
#   scripts/sanitize.sh                 clang++ (build/sanitize) and g++ (build/sanitize-gcc)
#   SANITIZE_COMPILERS=clang++ scripts/sanitize.sh    one compiler only
#   scripts/sanitize.sh -- <Catch2 args>              e.g. a test name filter
set -euo pipefail
cd "$(dirname "$0")/.."

catch_args=()
if [ "${1:-}" = "--" ]; then
  shift
  catch_args=("$@")
fi

flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
source scripts/lib/configure.sh

compilers="${SANITIZE_COMPILERS:-clang++ g++}"
case " $compilers " in *" clang"*) bash scripts/setup-sanitizers.sh ;; esac

for cxx in $compilers; do
  case "$cxx" in
    clang++*) dir=build/sanitize ;;
    g++*) dir=build/sanitize-gcc ;;
    *) dir="build/sanitize-${cxx//[^a-zA-Z0-9]/_}" ;;
  esac
  if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "sanitize: $cxx not found (scripts/setup.sh clang installs clang)" >&2
    exit 1
  fi
  echo "== sanitized native tests: $cxx ($dir)"
  configure_once "$dir" cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
  cmake --build "$dir" -j2 --target ox_native_tests
  "./$dir/ox_native_tests" "${catch_args[@]}"
done
