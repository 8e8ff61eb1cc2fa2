#!/usr/bin/env bash
# Installs what the build and tests need when it is missing, so `npm test` works on a new Debian
# machine: Debian's emscripten (3.1.6), catch2, cmake, ninja, g++, wabt, chromium (the browser tests
# drive it through playwright-core, which downloads no browser) with fonts-liberation, firefox-esr
# (the Firefox tests) and WebKitGTK with Xvfb (the WebKit tests), and clang when given `clang`
# (scripts/setup-sanitizers.sh); then the npm dev packages.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v wasm2wat >/dev/null 2>&1 || missing+=(wabt)
[ -x /usr/bin/chromium ] || missing+=(chromium)  # tests/js/browser.test.mjs, demo.test.mjs
[ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)  # tests/js/firefox.test.mjs
# WebKitGTK's MiniBrowser and the virtual X server it runs on (tests/js/webkit.test.mjs).
compgen -G '/usr/lib/*/webkit2gtk-4.1/MiniBrowser' >/dev/null || missing+=(libwebkit2gtk-4.1-0)
[ -x /usr/bin/Xvfb ] || missing+=(xvfb)
# A font for the pages Chromium renders (only a Recommends of chromium, which is skipped here).
dpkg -s fonts-liberation >/dev/null 2>&1 || missing+=(fonts-liberation)
for extra in "$@"; do  # e.g. scripts/setup.sh clang
  case "$extra" in
    clang) command -v clang++ >/dev/null 2>&1 || missing+=(clang) ;;
  esac
done

[ ${#missing[@]} -eq 0 ] || bash scripts/apt-install.sh "${missing[@]}"

# npm dev packages (package-lock.json pins them), when one listed in package.json is not installed.
if ! node -e '
  const fs = require("fs");
  const deps = Object.keys(require("./package.json").devDependencies || {});
  process.exit(deps.every((d) => fs.existsSync(`node_modules/${d}/package.json`)) ? 0 : 1);'; then
  echo "setup: npm ci"
  # The lock must list every platform's optional packages (rollup's, esbuild's) or `npm ci` calls it
  # out of sync. `npm install` over an existing node_modules leaves them out (it starts from the
  # installed tree): regenerate the lock with `npm install --package-lock-only` in a copy of
  # package.json without node_modules.
  npm ci --no-audit --no-fund --loglevel=error
fi
