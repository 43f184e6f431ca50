#!/usr/bin/env bash
# Configures (once) and builds Stax into build/. Release, Ninja, lld, ccache.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${STAX_BUILD_DIR:-build}
JOBS=${STAX_JOBS:-$(nproc)}

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$BUILD_DIR" -j "$JOBS" stax-opt stax-translate stax-run StaxCAPI StaxUnitTests
