#!/usr/bin/env bash
# Installs the Debian packages Stax needs, only those missing. Idempotent;
# needs root (or sudo). Nothing is downloaded from anywhere but Debian.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache git
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libomp-22-dev
  libgtest-dev
  libopenblas-dev python3-matplotlib
  python3 python3-numpy python3-torch python3-networkx python3-pytest
  graphviz
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
