# Sourced by the scripts that configure a CMake build directory (build.sh, sanitize.sh, fuzz.sh).
# generator: Ninja where it is installed, else CMake's default (Makefiles).
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

# configure_once DIR COMMAND...: runs COMMAND (a CMake configure line writing DIR) unless DIR holds
# a finished configuration. A configure that failed (say, run before scripts/setup.sh installed
# Catch2) leaves a CMakeCache.txt but no build file; that cache is dropped and the configure runs
# again, where checking for the cache alone left every later build stopping at "loading
# 'build.ninja'".
configure_once() {
  local dir="$1"
  shift
  { [ -f "$dir/build.ninja" ] || [ -f "$dir/Makefile" ]; } && return 0
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  "$@" >/dev/null
}
