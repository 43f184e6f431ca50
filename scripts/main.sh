#!/usr/bin/env bash
# The main job, end to end: set up, build when needed, then import the
# spec's Example 5.1 from PyTorch, print its tp module and check the
# reference interpreter against PyTorch.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh > /dev/null
PYTHONPATH="$(pwd)/python" exec /usr/bin/python3 -m stax.demo "$@"
