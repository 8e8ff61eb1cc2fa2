#!/usr/bin/env bash
# Installs the given Debian packages (with sudo when not root), quietly and without Recommends.
#   bash scripts/apt-install.sh cmake ninja-build
set -euo pipefail
echo "setup: installing $*"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
