// RUN: stax-opt --stax-pipeline %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-pipeline="parallel=false" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-SEQ
// RUN: stax-opt --stax-pipeline="vector-width=1 approximate-math=false" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-LIBM
// RUN: stax-opt --stax-pipeline %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-CLEAN
// RUN: stax-opt --stax-pipeline="parallel=false" %s 2>/dev/null | FileCheck %s --check-prefixes=CHECK-CLEAN,CHECK-CLEAN-SEQ
// RUN: stax-opt --stax-pipeline="vector-width=1 approximate-math=false" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-CLEAN
// Vectorized and libm: erf of a vector is 16 scalar calls, whose
// vector.extract/insert must be lowered too.
// RUN: stax-opt --stax-pipeline="approximate-math=false" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-CLEAN
// RUN: stax-opt --stax-pipeline="approximate-math=false" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-LIBM

// --stax-pipeline goes from tp all the way to the LLVM dialect (OpenMP for
// the parallel loops): functions are llvm.func with bare pointers (static,
// contiguous memrefs), inputs first, then one pointer per result, no
// results; nothing of func, scf, memref, vector, math, arith, affine, stax
// or tp is left.

// CHECK-CLEAN: {{^}}module {
// CHECK-CLEAN-NOT: func.func
// CHECK-CLEAN-NOT: {{^ *(%[^ ]+ = )?(func|arith|math|scf|memref|vector|affine|cf|stax|tp|index|ub)\.}}
// CHECK-CLEAN-SEQ-NOT: omp.
// CHECK-CLEAN: {{^}}}{{$}}

// Example 6.1: large enough to run its rows on OpenMP threads.
// CHECK-LABEL: llvm.func @f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr {stax.output}) {
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.return
// CHECK-NEXT: }
// CHECK-SEQ-LABEL: llvm.func @f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr {stax.output}) {
// CHECK-SEQ: llvm.return
func.func @f(%x: tensor<1024x256xf32>, %y: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %0 = tp.t %x : tensor<1024x256xf32> -> tensor<256x1024xf32>
  %1 = tp.add %0, %y : tensor<256x1024xf32>, tensor<256x1024xf32> -> tensor<256x1024xf32>
  return %1 : tensor<256x1024xf32>
}

// Example 5.1's forward: the arena comes from the runtime's heap (which
// keeps large blocks for the next call) and goes back to it, the matmul is a
// call of the runtime, and erf is a polynomial (approximate-math, the
// default) or libm's erff (approximate-math=false).
// CHECK-LABEL: llvm.func @example_5_1(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr {stax.output}) {
// CHECK-NOT: llvm.call @erff
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-NOT: llvm.call @erff
// CHECK: llvm.call @stax_rt_matmul_f32(
// CHECK-NOT: llvm.call @erff
// CHECK: llvm.call @_mlir_memref_to_llvm_free
// CHECK: llvm.return
// CHECK-LIBM-LABEL: llvm.func @example_5_1(
// CHECK-LIBM: llvm.call @stax_rt_matmul_f32(
// CHECK-LIBM: llvm.call @erff(
// CHECK-LIBM: llvm.return
func.func @example_5_1(%x: tensor<32x64xf32>, %w: tensor<64x64xf32>) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %g = tp.gelu %h : tensor<32x64xf32> -> tensor<32x64xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<32x64xf32> -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK: llvm.func @stax_rt_matmul_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64)
