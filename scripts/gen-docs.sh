#!/usr/bin/env bash
# Regenerates the dialect reference in docs/ from ODS (the build's mlir-doc
# target).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${STAX_BUILD_DIR:-build}
ninja -C "$BUILD_DIR" mlir-doc > /dev/null
mkdir -p docs/Dialects
cp "$BUILD_DIR/docs/Dialects/TpDialect.md" docs/Dialects/Tp.md
cp "$BUILD_DIR/docs/Dialects/StaxDialect.md" docs/Dialects/Stax.md
{
  cat "$BUILD_DIR/docs/Passes/TpPasses.md"
  echo
  cat "$BUILD_DIR/docs/Passes/StaxConversionPasses.md"
  echo
  cat "$BUILD_DIR/docs/Passes/StaxPasses.md"
} > docs/Passes.md
echo "docs/Dialects/{Tp,Stax}.md and docs/Passes.md updated"
