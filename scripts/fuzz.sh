#!/usr/bin/env bash
# Builds the libFuzzer target tools/stax-fuzz and runs it for SECONDS
# (default 600) at nice 19 (docs/Testing.md). The fuzzer lives in the
# sanitizer build, build-asan/ (configured with -DSTAX_FUZZ=ON by
# scripts/sanitize.sh: one instrumented build serves both; a cold build
# takes about 40 minutes on two cores).
#
#   scripts/fuzz.sh [SECONDS]
#   STAX_FUZZ_KEEP_GOING=1   fork mode: record crashes and timeouts, go on
#   STAX_FUZZ_CUDA=0         only the cpu pipeline (about twice as fast)
#   STAX_FUZZ_RANDOM=N       random tp seed modules from stax.difftest (200)
#   STAX_FUZZ_RUNS=N         stop after N executions (or SECONDS, first)
#
# State under build-asan/fuzz/: seeds/ (test/*.mlir split at `// -----`,
# plus random tp modules), corpus/ (what the fuzzer found interesting, kept
# between runs), stax.dict, crashes/ (crash-*, timeout-*, oom-* inputs), and
# the last run's log. Reproduce one input with
#   build-asan/bin/stax-fuzz build-asan/fuzz/crashes/crash-...
# (STAX_FUZZ_VERBOSE=1 prints the diagnostics that are otherwise swallowed).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SECONDS_TO_RUN=${1:-600}
BUILD_DIR=${STAX_ASAN_BUILD_DIR:-build-asan}
FUZZ_DIR=$BUILD_DIR/fuzz

STAX_ASAN_BUILD_DIR=$BUILD_DIR scripts/sanitize.sh build || exit 1
nice -n 19 ninja -C "$BUILD_DIR" -j "${STAX_JOBS:-2}" stax-fuzz || exit 1

mkdir -p "$FUZZ_DIR/corpus" "$FUZZ_DIR/crashes"
# The random seeds import PyTorch programs through the C API: any build's
# libStaxCAPI.so will do; the plain build/ is faster than the instrumented
# one (which would need the ASan runtime preloaded into Python).
if [ ! -d "$FUZZ_DIR/seeds" ]; then
  SEED_LIB=build/lib
  [ -f "$SEED_LIB/libStaxCAPI.so" ] || { scripts/build.sh || exit 1; }
  PYTHONPATH="$ROOT/python" STAX_LIB_DIR="$ROOT/$SEED_LIB" \
    /usr/bin/python3 scripts/fuzz-seeds.py "$FUZZ_DIR/seeds" \
    --random "${STAX_FUZZ_RANDOM:-200}" || exit 1
fi
/usr/bin/python3 scripts/fuzz-seeds.py "$FUZZ_DIR/seeds" --random 0 \
  --dict "$FUZZ_DIR/stax.dict" --inc-dir "$BUILD_DIR/include" >/dev/null ||
  exit 1

# - max_len 8192: the lit tests' functions are all below 8.3 KB, random tp
#   modules below 5 KB; longer inputs only slow the mutations down.
# - timeout 30 s: the largest seeds compile for both targets in about a
#   second under ASan; 30x that is a hang.
# - rss_limit_mb 4096: a compile that needs more is a bug (shapes above
#   2^22 elements are rejected by the target before compiling).
# - UBSan halts on the first report (as in the sanitizer build), so
#   libFuzzer keeps the input as a crash.
# - ASan allow_user_poisoning=0 and detect_container_overflow=0: false
#   positives from mixing instrumented Stax code with the uninstrumented
#   libMLIR (see __asan_default_options in tools/stax-fuzz/stax-fuzz.cpp,
#   which sets both; repeated here so that ASAN_OPTIONS keeps them).
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
export ASAN_OPTIONS="allow_user_poisoning=0:detect_container_overflow=0:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
args=(-dict="$FUZZ_DIR/stax.dict" -max_len=8192 -timeout=30
      -rss_limit_mb=4096 -max_total_time="$SECONDS_TO_RUN"
      -print_final_stats=1 -artifact_prefix="$FUZZ_DIR/crashes/")
if [ -n "${STAX_FUZZ_RUNS:-}" ]; then
  args+=(-runs="$STAX_FUZZ_RUNS")
fi
if [ "${STAX_FUZZ_KEEP_GOING:-0}" != 0 ]; then
  args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

echo "== stax-fuzz for $SECONDS_TO_RUN s (log: $FUZZ_DIR/fuzz.log)"
# The build links the shared sanitizer runtime (cmake/StaxSanitizers.cmake);
# preloading it keeps it first in the library list whatever order the
# linker wrote the executable's dependencies in.
LD_PRELOAD="$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)" \
nice -n 19 "$BUILD_DIR/bin/stax-fuzz" "${args[@]}" \
  "$FUZZ_DIR/corpus" "$FUZZ_DIR/seeds" 2>&1 | tee "$FUZZ_DIR/fuzz.log" |
  grep -E '^#[0-9]+|ERROR|SUMMARY|stax-fuzz:|stat::'
status=${PIPESTATUS[0]}

# Totals: the last status line (cov = covered edges, ft = features) and, in
# plain mode, the final stats; fork mode prints per-job stats instead.
last=$(grep -E '^#[0-9]+' "$FUZZ_DIR/fuzz.log" | tail -n 1)
execs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$FUZZ_DIR/fuzz.log" |
  grep -Eo '[0-9]+$' | tail -n 1)
[ -n "$execs" ] || execs=$(echo "$last" | grep -Eo '^#[0-9]+' | tr -d '#')
echo
echo "executions: ${execs:-?}; last status: ${last:-none}"
echo "crashes/timeouts/ooms kept: $(ls "$FUZZ_DIR/crashes" | wc -l) in $FUZZ_DIR/crashes"
exit "$status"
