#!/usr/bin/env bash
# Regenerates the dialect reference in docs/ from ODS (the build's mlir-doc
# target). python/tests/test_docs.py fails when the committed copy is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${STAX_BUILD_DIR:-build}
ninja -C "$BUILD_DIR" mlir-doc > /dev/null
mkdir -p docs/Dialects
cp "$BUILD_DIR/docs/Dialects/TpDialect.md" docs/Dialects/Tp.md
cp "$BUILD_DIR/docs/Passes/StaxTransformsPasses.md" docs/Passes.md
echo "docs/Dialects/Tp.md and docs/Passes.md updated"
