// RUN: stax-opt --stax-to-loops="target=cuda" %s -verify-diagnostics -split-input-file
// RUN: not stax-opt --stax-pipeline="target=cuda" %s 2>&1 | FileCheck %s

// The cuda target has no code for tp.sort and tp.topk: an error naming the op, from
// --stax-to-loops alone (on a module of tp ops only) and from the whole
// pipeline, where the sort is still an external call after lowering.
// CHECK: sort-cuda.mlir:[[@LINE+3]]:10: error: 'tp.sort' has no CUDA code generation (run it on the cpu target, or outside Stax)
func.func @cuda(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xi64>) {
  // expected-error @+1 {{'tp.sort' has no CUDA code generation (run it on the cpu target, or outside Stax)}}
  %s:2 = tp.sort %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>, tensor<4x6xi64>
  return %s#0, %s#1 : tensor<4x6xf32>, tensor<4x6xi64>
}

// -----

func.func @cuda_topk(%x: tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  // expected-error @+1 {{'tp.topk' has no CUDA code generation (run it on the cpu target, or outside Stax)}}
  %s:2 = tp.topk %x {k = 2 : i64, dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x2xf32>, tensor<4x2xi64>
  return %s#0, %s#1 : tensor<4x2xf32>, tensor<4x2xi64>
}
