// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops %s -split-input-file -verify-diagnostics
// RUN: not stax-opt --stax-lowering-pipeline --stax-to-loops="grain=0" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-GRAIN
// RUN: not stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=-1" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-WIDTH
// The pipeline checks its options before it is built (not after lowering).
// RUN: not stax-opt --stax-pipeline="grain=0" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-PIPELINE-GRAIN
// RUN: not stax-opt --stax-pipeline="nontemporal-bytes=-1" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-PIPELINE-NT
// RUN: not stax-opt --stax-pipeline="target=cuda chip=sm_xx" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-PIPELINE-CHIP
// RUN: not stax-opt --stax-lowering-pipeline="sm-count=0" %s -split-input-file 2>&1 | FileCheck %s --check-prefix=CHECK-PIPELINE-SM

// tp functions that lower but have no code generation.

// CHECK-GRAIN: error: --stax-to-loops: grain=0: must be at least 1
// CHECK-WIDTH: error: --stax-to-loops: vector-width=-1: must be at least 0
// CHECK-PIPELINE-GRAIN: error: invalid 'stax-pipeline' option grain=0: must be at least 1
// CHECK-PIPELINE-NT: error: invalid 'stax-pipeline' option nontemporal-bytes=-1: must be at least 0
// CHECK-PIPELINE-CHIP: error: invalid 'stax-pipeline' option chip=sm_xx: must name an NVIDIA GPU, sm_<n>
// CHECK-PIPELINE-SM: error: invalid 'stax-lowering-pipeline' option sm-count=0: must be at least 1

// An op without a lowering rule stays tp (a fallback, with a remark) and
// code generation names it.
func.func @fallback(%x: tensor<4x8xi64>) -> tensor<4x8xi64> {
  %a = tp.mul.Scalar %x {other = 3 : i64} : tensor<4x8xi64> -> tensor<4x8xi64>
  // expected-remark @+2 {{fallback: 'tp.pow.Tensor_Scalar' has no lowering rule}}
  // expected-error @+1 {{'tp.pow.Tensor_Scalar' has no CPU code generation (lower it to stax nodes first, or run it outside Stax)}}
  %d = tp.pow.Tensor_Scalar %a {other = -2 : i64} : tensor<4x8xi64> -> tensor<4x8xi64>
  return %d : tensor<4x8xi64>
}

// -----

// Matmuls of bools have no runtime function (integers and f32/f64 do).
func.func @mm_i1(%x: tensor<4x8xi1>, %w: tensor<8x3xi1>) -> tensor<4x3xi1> {
  // expected-error @+1 {{'tp.mm' on 'i1' has no CPU code generation (f32, f64, integers)}}
  %0 = tp.mm %x, %w : (tensor<4x8xi1>, tensor<8x3xi1>) -> tensor<4x3xi1>
  %1 = tp.logical_not %0 : tensor<4x3xi1> -> tensor<4x3xi1>
  return %1 : tensor<4x3xi1>
}
