// RUN: stax-opt --stax-lowering-pipeline %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline="fuse=false" %s | FileCheck %s --check-prefix=NOFUSE

// Batch norm's statistics as the joint graph leaves them: var (keepdim for
// the normalization, and again without for the running variance) and the
// mean for the running mean. Each var decomposes into its own shifted mean
// (k + sum(x - k) / n, exact for a constant channel) and sum of squares;
// CSE between decompose and lower leaves one of each, and the plain mean:
// the kernel reads x three times, not seven.

// CHECK-LABEL: func.func @stats
// CHECK: stax.kernel
// CHECK-COUNT-3: stax.reduction sum [8, 16]
// CHECK-NOT: stax.reduction
// CHECK: return

// NOFUSE-LABEL: func.func @stats
// NOFUSE-COUNT-3: stax.reduction sum [8, 16]
// NOFUSE-NOT: stax.reduction
// NOFUSE: return
func.func @stats(%x: tensor<8x4x16xf32>) -> (tensor<1x4x1xf32>, tensor<1x4x1xf32>, tensor<4xf32>) {
  %v = tp.var %x {correction = 0.0 : f64, dims = array<i64: 0, 2>, keepdim = true} : tensor<8x4x16xf32> -> tensor<1x4x1xf32>
  %m = tp.mean %x {dims = array<i64: 0, 2>, keepdim = true} : tensor<8x4x16xf32> -> tensor<1x4x1xf32>
  %w = tp.var %x {correction = 0.0 : f64, dims = array<i64: 0, 2>} : tensor<8x4x16xf32> -> tensor<4xf32>
  return %v, %m, %w : tensor<1x4x1xf32>, tensor<1x4x1xf32>, tensor<4xf32>
}

// Two draws with the same state and counter are the same numbers (random
// ops are pure functions of their operands and attributes): one body
// draws them. Another counter is another draw.
// CHECK-LABEL: func.func @draws
// CHECK-COUNT-2: stax.pointwise
// CHECK-NOT: stax.pointwise
// CHECK: return
func.func @draws(%s: tensor<2xi64>) -> (tensor<6xf32>, tensor<6xf32>) {
  %a = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<6xf32>
  %b = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<6xf32>
  %c = tp.rand %s {counter = 6 : i64} : tensor<2xi64> -> tensor<6xf32>
  %ab = tp.add %a, %b : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  return %ab, %c : tensor<6xf32>, tensor<6xf32>
}
