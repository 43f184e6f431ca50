// RUN: stax-opt %s -verify-diagnostics --stax-joint-graph
// RUN: stax-opt %s -verify-diagnostics --stax-jvp
// RUN: stax-opt %s -verify-diagnostics --stax-decompose
// RUN: stax-opt %s -verify-diagnostics --stax-lower
// RUN: stax-opt %s -verify-diagnostics --stax-fuse
// RUN: stax-opt %s -verify-diagnostics --stax-normalize-loops
// RUN: stax-opt %s -verify-diagnostics --stax-range-analysis
// RUN: stax-opt %s -verify-diagnostics --stax-split-reductions
// RUN: stax-opt %s -verify-diagnostics --stax-lowering-pipeline
// RUN: stax-opt %s --stax-functionalize | FileCheck %s

// In-place ops exist only between import and --stax-functionalize: every
// other pass stops with an error at the first one. (Lowering this function
// as it stands would merge the sum taken before the mul_ with the one taken
// after it.) Upstream passes such as -cse are valid on functional tp only.

// CHECK-LABEL: func.func @f
// CHECK-NOT: tp.mul_
func.func @f(%x: tensor<4xf32> {tp.requires_grad}) -> (tensor<f32>, tensor<f32>) {
  %a = tp.sum %x {dims = array<i64>} : tensor<4xf32> -> tensor<f32>
  // expected-error-re @+1 {{in-place op 'tp.mul_': --stax-{{[a-z-]+}} needs functional tp; run --stax-functionalize first}}
  %y = "tp.mul_"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = tp.sum %x {dims = array<i64>} : tensor<4xf32> -> tensor<f32>
  return %a, %b : tensor<f32>, tensor<f32>
}
