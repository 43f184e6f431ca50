#!/usr/bin/env bash
# Runs every test: lit (check-stax), gtest and the Python suite with the
# clang-22 build, then lit and gtest again with a GCC 12 build (build-gcc/;
# STAX_GCC=0 skips it). Sets up and builds first when needed. Ends with one
# summary line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD_DIR=${STAX_BUILD_DIR:-build}

scripts/setup.sh || exit 1
scripts/build.sh || exit 1

passed=0
failed=0
log=$(mktemp -d)

# lit and gtest of the build in $1, labelled $2.
run_native_suites() {
  local dir=$1 label=$2
  echo "== lit ($label)"
  /usr/lib/llvm-22/bin/lit -sv "$dir/test" | tee "$log/lit"
  local lit_status=${PIPESTATUS[0]}
  local lp lf gp gf
  lp=$(grep -Eo 'Passed *: *[0-9]+' "$log/lit" | grep -Eo '[0-9]+' || echo 0)
  lf=$(grep -Eo '(Failed|Unresolved|Timed Out) *: *[0-9]+' "$log/lit" | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
  [ -n "$lf" ] || lf=0
  [ "$lit_status" = 0 ] || [ "$lf" != 0 ] || lf=1 # lit failed without a count
  passed=$((passed + ${lp:-0})); failed=$((failed + lf))

  echo "== gtest ($label)"
  "$dir/bin/StaxUnitTests" --gtest_brief=1 | tee "$log/gtest"
  local gtest_status=${PIPESTATUS[0]}
  gp=$(grep -Eo '\[  PASSED  \] [0-9]+' "$log/gtest" | grep -Eo '[0-9]+' || echo 0)
  gf=$(grep -Eo '\[  FAILED  \] [0-9]+ test' "$log/gtest" | grep -Eo '[0-9]+' || echo 0)
  [ "$gtest_status" = 0 ] || [ "${gf:-0}" != 0 ] || gf=1
  passed=$((passed + ${gp:-0})); failed=$((failed + ${gf:-0}))
}

run_native_suites "$BUILD_DIR" clang-22

echo "== python"
PYTHONPATH="$ROOT/python" STAX_LIB_DIR="$ROOT/$BUILD_DIR/lib" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests | tee "$log/pytest"
pp=$(tail -n 3 "$log/pytest" | grep -Eo '[0-9]+ passed' | grep -Eo '[0-9]+' || echo 0)
pf=$(tail -n 3 "$log/pytest" | grep -Eo '[0-9]+ (failed|error|errors)' | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
[ -n "$pf" ] || pf=0
[ "${pp:-0}" != 0 ] || pf=$((pf + 1)) # a Python suite that ran nothing is a failure
passed=$((passed + ${pp:-0})); failed=$((failed + pf))

if [ "${STAX_GCC:-1}" != 0 ]; then
  echo "== build (gcc)"
  if STAX_COMPILER=gcc STAX_BUILD_DIR="${STAX_GCC_BUILD_DIR:-build-gcc}" scripts/build.sh; then
    run_native_suites "${STAX_GCC_BUILD_DIR:-build-gcc}" gcc-12
  else
    echo "the GCC build failed"
    failed=$((failed + 1))
  fi
fi

rm -rf "$log"
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
