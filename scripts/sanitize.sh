#!/usr/bin/env bash
# Builds Stax with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ (clang-22) and runs the lit tests, the gtests and the Python
# suite there (docs/Testing.md). A cold build takes about 40 minutes on two
# cores, the tests about as long again; ends with "N passed, N failed".
#
#   scripts/sanitize.sh            build, then lit + gtest + Python
#   scripts/sanitize.sh build      only build
#   STAX_SANITIZE_PYTEST="python/tests/test_capi.py ..."  another Python set
#   STAX_JOBS=N                    ninja jobs (default 2, at nice 19)
#
# Only Stax's own code is instrumented: Debian's libMLIR.so/libLLVM.so,
# Python, NumPy and PyTorch are not (ASan still sees their heap through its
# malloc interceptors).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD_DIR=${STAX_ASAN_BUILD_DIR:-build-asan}
JOBS=${STAX_JOBS:-2}
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # -O1 keeps the build and the tests quick while leaving stack traces
  # readable; no -DNDEBUG, so Stax's assertions (and the ones in MLIR's
  # inline header code, casts included) are checked too. That is ABI-safe:
  # LLVM's ABI-affecting checks follow LLVM_ENABLE_ABI_BREAKING_CHECKS, fixed
  # by Debian's build, not NDEBUG.
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DSTAX_SANITIZERS="address;undefined" -DSTAX_FUZZ=ON || exit 1
fi
start=$(date +%s)
nice -n 19 ninja -C "$BUILD_DIR" -j "$JOBS" \
  stax-opt stax-translate stax-run StaxCAPI StaxUnitTests || exit 1
echo "build: $(( $(date +%s) - start )) s"
[ "${1:-all}" = build ] && exit 0

# Why each option:
# - detect_leaks=0: MLIR's global registries and LLVM's ManagedStatics are
#   left to process exit, and Python never frees its interned objects; leaks
#   are not what this run looks for.
# - abort_on_error=1 / halt_on_error: a report fails the test that hit it.
# - symbolize=1 with llvm-symbolizer: function, file and line in reports.
# - allow_user_poisoning=0: llvm::BumpPtrAllocator poisons the slabs it
#   starts and unpoisons what it hands out, but only in the copies of its
#   inline code compiled into instrumented Stax code; libMLIR's own copies
#   carve from the same slabs (MLIRContext's uniquer) without unpoisoning,
#   so every mix is a false use-after-poison.
# - detect_container_overflow=0: std::vector/std::string in the
#   uninstrumented libLLVM/libMLIR are not annotated, so a container grown
#   there and read from Stax's code (or the reverse) looks like an overflow.
# - UBSan print_stacktrace=1: where the undefined behaviour happened.
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:symbolize=1:allow_user_poisoning=0:detect_container_overflow=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

passed=0
failed=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

echo "== lit (asan+ubsan)"
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" | tee "$log/lit"
lit_status=${PIPESTATUS[0]}
lp=$(grep -Eo 'Passed *: *[0-9]+' "$log/lit" | grep -Eo '[0-9]+' || echo 0)
lf=$(grep -Eo '(Failed|Unresolved|Timed Out) *: *[0-9]+' "$log/lit" | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
[ -n "$lf" ] || lf=0
[ "$lit_status" = 0 ] || [ "$lf" != 0 ] || lf=1
passed=$((passed + ${lp:-0})); failed=$((failed + lf))

echo "== gtest (asan+ubsan)"
"$BUILD_DIR/bin/StaxUnitTests" --gtest_brief=1 | tee "$log/gtest"
gtest_status=${PIPESTATUS[0]}
gp=$(grep -Eo '\[  PASSED  \] [0-9]+' "$log/gtest" | grep -Eo '[0-9]+' || echo 0)
gf=$(grep -Eo '\[  FAILED  \] [0-9]+ test' "$log/gtest" | grep -Eo '[0-9]+' || echo 0)
[ "$gtest_status" = 0 ] || [ "${gf:-0}" != 0 ] || gf=1
passed=$((passed + ${gp:-0})); failed=$((failed + ${gf:-0}))

# Python loads the instrumented libStaxCAPI.so with ctypes, so the ASan
# runtime must be in the process before anything else: preload it.
# - verify_asan_link_order=0: Python itself is not linked against the
#   runtime; the preload is what puts it first.
# - allocator_may_return_null=1: PyTorch and NumPy probe allocation limits.
# The whole suite runs by default (about 3x slower than the plain build).
echo "== python (asan+ubsan, runtime preloaded)"
PYTEST_SET=${STAX_SANITIZE_PYTEST:-python/tests}
# shellcheck disable=SC2086
LD_PRELOAD="$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)" \
ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0:allocator_may_return_null=1" \
PYTHONPATH="$ROOT/python" STAX_LIB_DIR="$ROOT/$BUILD_DIR/lib" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider $PYTEST_SET | tee "$log/pytest"
pp=$(tail -n 3 "$log/pytest" | grep -Eo '[0-9]+ passed' | grep -Eo '[0-9]+' || echo 0)
pf=$(tail -n 3 "$log/pytest" | grep -Eo '[0-9]+ (failed|error|errors)' | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
[ -n "$pf" ] || pf=0
[ "${pp:-0}" != 0 ] || pf=$((pf + 1))
passed=$((passed + ${pp:-0})); failed=$((failed + pf))

echo
echo "$passed passed, $failed failed (asan+ubsan)"
[ "$failed" -eq 0 ]
