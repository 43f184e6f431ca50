#!/usr/bin/env bash
# One prepared check for a machine with an NVIDIA GPU (the CUDA driver, and
# CUDA's libdevice.10.bc for the math functions: found in a CUDA toolkit or
# pip's CUDA wheels): builds Stax (scripts/build.sh), then runs every corpus
# model's forward and backward through stax.compile(target="cuda"), compares
# them with the CPU compilation and the float64 reference within the bound
# the CPU tests use, and prints each kernel's achieved bandwidth against a
# device-to-device copy (scripts/gpu-check.py). Meant to finish in under 8
# minutes; exits non-zero on any mismatch, on a model that falls back to
# PyTorch, and without a GPU.
#
#   scripts/gpu-check.sh                   build, then check everything
#   scripts/gpu-check.sh --no-build        use the build as it is
#   scripts/gpu-check.sh --models a,b      only these corpus models
#   scripts/gpu-check.sh --reps N          timed runs per model (default 5)
#   scripts/gpu-check.sh --probe-mib N     MiB per tensor of the bandwidth
#                                          probes (default 128; 0: none)
#   scripts/gpu-check.sh --libdevice F     CUDA's libdevice.10.bc
#   scripts/gpu-check.sh --dry-run         print what would run, run nothing
#
# STAX_BUILD_DIR, STAX_JOBS and STAX_COMPILER are build.sh's; STAX_CUDA_SYNC=1
# makes a failing kernel name itself (docs/Codegen.md); STAX_PYTHON names the
# Python with PyTorch (default /usr/bin/python3). On a GPU machine without
# Debian's LLVM 22, scripts/gpu-bundle.sh brings a build and runs this.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }

BUILD=1
DRY_RUN=0
CHECK_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --dry-run) DRY_RUN=1 ;;
    --models|--reps|--probe-mib|--libdevice)
      [ $# -ge 2 ] || { echo "gpu-check: $1 needs a value" >&2; exit 2; }
      CHECK_ARGS+=("$1" "$2"); shift ;;
    --models=*|--reps=*|--probe-mib=*|--libdevice=*) CHECK_ARGS+=("$1") ;;
    -h|--help) usage; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

BUILD_DIR=${STAX_BUILD_DIR:-build}
PYTHON=${STAX_PYTHON:-/usr/bin/python3}
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export STAX_LIB_DIR="$PWD/$BUILD_DIR/lib"
[[ "$BUILD_DIR" = /* ]] && STAX_LIB_DIR="$BUILD_DIR/lib"
# Bad arguments fail before the build (a model name, a count).
"$PYTHON" scripts/gpu-check.py "${CHECK_ARGS[@]}" --list >/dev/null

if [ "$DRY_RUN" = 1 ]; then
  [ "$BUILD" = 1 ] && echo "gpu-check: would build: STAX_BUILD_DIR=$BUILD_DIR scripts/build.sh"
  echo "gpu-check: would check on the GPU:" \
    $("$PYTHON" scripts/gpu-check.py "${CHECK_ARGS[@]}" --list | tr '\n' ' ')
  exit 0
fi

start=$(date +%s)
if [ "$BUILD" = 1 ]; then
  echo "gpu-check: building ($BUILD_DIR)"
  STAX_BUILD_DIR="$BUILD_DIR" scripts/build.sh
  echo "gpu-check: built in $(( $(date +%s) - start )) s"
fi
# What is left of the 8 minutes, and at least 3 for the check itself.
left=$(( 480 - ($(date +%s) - start) ))
[ "$left" -lt 180 ] && left=180
status=0
timeout --signal=INT --kill-after=10 "$left" \
  "$PYTHON" scripts/gpu-check.py "${CHECK_ARGS[@]}" || status=$?
if [ "$status" = 124 ] || [ "$status" = 130 ]; then
  echo "gpu-check: FAILED: the check ran out of time (${left} s)" >&2
  status=1
fi
echo "gpu-check: $(( $(date +%s) - start )) s in all, exit status $status"
exit "$status"
