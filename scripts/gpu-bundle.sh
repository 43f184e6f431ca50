#!/usr/bin/env bash
# scripts/gpu-check.sh on a GPU machine without Debian's LLVM/MLIR 22 (a
# CUDA image with its own Python and PyTorch, say). On the build machine
# (Debian 12, after scripts/build.sh), `pack` puts the built Stax library
# and tools, Debian's libLLVM, libMLIR and libomp (xz, about 47 MB) and the
# small libraries they need into DIR. Copy the checkout with DIR to the GPU
# machine and run `check` there as root: it installs the LLVM libraries
# where the build looks for them (/usr/lib/llvm-22/lib: the RUNPATH, and
# libomp's path compiled into Stax) unless a file of that name is there;
# uses Debian's other libraries only for names the machine lacks (libxml2
# and libz3 are stubs: LLVM links them, Stax never calls them); then runs
# gpu-check.sh --no-build and the GPU tests with the machine's python3.
#
#   scripts/gpu-bundle.sh pack [DIR]                  DIR: .gpu-bundle
#   scripts/gpu-bundle.sh check [DIR] [-- gpu-check.sh arguments]
#
# STAX_BUILD_DIR is build.sh's; STAX_PYTHON (check) names the Python that
# has PyTorch (default: python3 on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
MODE=$1; shift
DIR=.gpu-bundle
if [ $# -gt 0 ] && [ "$1" != "--" ]; then DIR=$1; shift; fi
[ "${1:-}" = "--" ] && shift
BUILD_DIR=${STAX_BUILD_DIR:-build}
LLVM_LIB=/usr/lib/llvm-22/lib
SYS_LIB=/lib/x86_64-linux-gnu

# The LLVM libraries go to $LLVM_LIB; the others are fallbacks.
LLVM_LIBS="libLLVM.so.22.1 libMLIR.so.22.1 libMLIRExecutionEngineShared.so.22.1 libomp.so.5"
FALLBACKS="libedit.so.2 libbsd.so.0 libmd.so.0 libffi.so.8 libtinfo.so.6"

# A library exporting `symbols` (one per line, name[@version]) that abort
# when called: what LLVM links but Stax never reaches.
stub() {
  local soname=$1 symbols=$2 out=$3 work
  work=$(mktemp -d)
  {
    echo '#include <stdlib.h>'
    sed 's/@.*//' "$symbols" | sort -u | while read -r s; do
      # xmlFree is a variable (a function pointer) in libxml2.
      if [ "$s" = xmlFree ]; then echo "void *$s = 0;"
      else echo "void $s(void) { abort(); }"; fi
    done
  } > "$work/stub.c"
  local map=()
  if grep -q @ "$symbols"; then
    # One version node per version the symbols carry, each after the last.
    local prev="" v
    for v in $(grep -o '@.*' "$symbols" | tr -d @ | sort -uV); do
      { echo "$v { global:"; grep "@$v\$" "$symbols" | sed 's/@.*/;/'
        [ -z "$prev" ] && echo "local: *;"
        echo "} $prev;"; } >> "$work/stub.map"
      prev=$v
    done
    map=(-Wl,--version-script="$work/stub.map")
  fi
  cc -shared -fPIC -O1 -Wl,-soname,"$soname" "${map[@]}" -o "$out" "$work/stub.c"
  rm -rf "$work"
}

pack() {
  local lib="$BUILD_DIR/lib/libStaxCAPI.so" work
  [ -f "$lib" ] || { echo "gpu-bundle: no $lib: run scripts/build.sh" >&2; exit 1; }
  mkdir -p "$DIR"
  work=$(mktemp -d)
  mkdir -p "$work/llvm" "$work/fallback"
  for l in $LLVM_LIBS; do cp -L "$LLVM_LIB/$l" "$work/llvm/"; done
  for l in $FALLBACKS; do cp -L "$SYS_LIB/$l" "$work/fallback/"; done
  # Reference BLAS (cblas_sgemm/dgemm, no Fortran runtime): the CPU
  # compilation that gpu-check compares with needs only correct products.
  cp -L /usr/lib/x86_64-linux-gnu/blas/libblas.so.3 "$work/fallback/"
  nm -D --undefined-only "$LLVM_LIB/libLLVM.so.22.1" |
    awk '/ xml/{print $2}' > "$work/xml.syms"
  nm -D --undefined-only "$LLVM_LIB/libLLVM.so.22.1" |
    awk '/ Z3_/{print $2}' > "$work/z3.syms"
  stub libxml2.so.2 "$work/xml.syms" "$work/fallback/libxml2.so.2"
  stub libz3.so.4 "$work/z3.syms" "$work/fallback/libz3.so.4"
  echo "gpu-bundle: compressing (a few minutes)"
  tar -C "$work" -cf - llvm fallback | xz -T0 -6 > "$DIR/libraries.tar.xz"
  tar -C "$BUILD_DIR" -cJf "$DIR/stax.tar.xz" lib/libStaxCAPI.so bin/stax-opt \
    bin/stax-run bin/stax-translate
  rm -rf "$work"
  du -sh "$DIR"
}

check() {
  [ -f "$DIR/libraries.tar.xz" ] || { echo "gpu-bundle: no $DIR/libraries.tar.xz: run pack first" >&2; exit 1; }
  local work ld
  work=$(mktemp -d); ld=$(mktemp -d)
  tar -xJf "$DIR/libraries.tar.xz" -C "$work"
  mkdir -p "$LLVM_LIB" "$BUILD_DIR"
  for l in $LLVM_LIBS; do
    [ -e "$LLVM_LIB/$l" ] || mv "$work/llvm/$l" "$LLVM_LIB/"
  done
  [ -e "$LLVM_LIB/libomp.so" ] || ln -s libomp.so.5 "$LLVM_LIB/libomp.so"
  tar -xJf "$DIR/stax.tar.xz" -C "$BUILD_DIR"
  # Debian's libraries only for the names this machine lacks.
  for _ in 1 2 3; do
    for m in $(LD_LIBRARY_PATH="$ld" ldd "$BUILD_DIR/lib/libStaxCAPI.so" |
               awk '/not found/{print $1}'); do
      [ -e "$work/fallback/$m" ] && cp "$work/fallback/$m" "$ld/"
    done
  done
  export LD_LIBRARY_PATH="$ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if LD_LIBRARY_PATH="$ld" ldd "$BUILD_DIR/lib/libStaxCAPI.so" | grep "not found"; then
    echo "gpu-bundle: libraries missing (above)" >&2; exit 1
  fi
  local python=${STAX_PYTHON:-python3} status=0
  STAX_PYTHON="$python" scripts/gpu-check.sh --no-build "$@" || status=$?
  local libdir="$PWD/$BUILD_DIR/lib"
  [[ "$BUILD_DIR" = /* ]] && libdir="$BUILD_DIR/lib"
  PYTHONPATH="$PWD/python" STAX_LIB_DIR="$libdir" "$python" -m pytest -q \
    -p no:cacheprovider python/tests/test_cuda_reductions.py \
    python/tests/test_compile_cuda.py || status=1
  exit "$status"
}

case "$MODE" in
  pack) pack ;;
  check) check "$@" ;;
  -h|--help) usage ;;
  *) echo "gpu-bundle: unknown mode '$MODE' (pack or check)" >&2; exit 2 ;;
esac
