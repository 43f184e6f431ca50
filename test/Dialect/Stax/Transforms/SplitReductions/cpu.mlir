// RUN: stax-opt --stax-lowering-pipeline %s | FileCheck %s

// On the CPU only a long reduction with at most 3 outputs splits: into up
// to 32 segments that the threads reduce in parallel, combined once.

// CHECK-LABEL: func.func @loss
// CHECK: stax.reduction sum [524288] layout <[1]> : tensor<32xf32>
// CHECK: stax.reduction sum [32] layout <[]> : tensor<f32>
func.func @loss(%x: tensor<4096x4096xf32>) -> tensor<f32> {
  %0 = tp.mul %x, %x : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  %1 = tp.sum %0 {dims = array<i64: 0, 1>} : tensor<4096x4096xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// Four outputs are enough parallelism: no split.
// CHECK-LABEL: func.func @rows
// CHECK: stax.reduction sum [65536]
// CHECK-NOT: stax.reduction
func.func @rows(%x: tensor<4x65536xf32>) -> tensor<4xf32> {
  %0 = tp.sum %x {dims = array<i64: 1>} : tensor<4x65536xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Short reductions stay whole.
// CHECK-LABEL: func.func @short
// CHECK: stax.reduction sum [1000]
// CHECK-NOT: stax.reduction
func.func @short(%x: tensor<1000xf32>) -> tensor<f32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<1000xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
