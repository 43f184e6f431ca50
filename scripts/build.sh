#!/usr/bin/env bash
# Configures (once) and builds Stax into build/. Release, Ninja, lld, ccache.
# STAX_COMPILER=gcc builds with Debian's default GCC (12) instead of clang-22;
# STAX_BUILD_DIR and STAX_JOBS override the build directory and job count.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${STAX_BUILD_DIR:-build}
# Paths relative to the checkout in ccache keys: another clone reuses hits.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd)}"
JOBS=${STAX_JOBS:-$(nproc)}
case "${STAX_COMPILER:-clang}" in
  clang) CC=clang-22 CXX=clang++-22 ;;
  gcc) CC=gcc CXX=g++ ;;
  *) echo "build.sh: STAX_COMPILER must be clang or gcc" >&2; exit 2 ;;
esac

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$BUILD_DIR" -j "$JOBS" stax-opt stax-translate stax-run StaxCAPI StaxUnitTests
