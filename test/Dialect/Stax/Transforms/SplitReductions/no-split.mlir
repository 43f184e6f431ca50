// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions | FileCheck %s --check-prefix=CHECK-KEEP
// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions=target=cpu | FileCheck %s --check-prefix=CHECK-CPU
// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions=sm-count=32 | FileCheck %s --check-prefix=CHECK-SM32

// Reductions that Algorithm 6.1 (or the pass) leaves whole.

// n = 264 >= 2S = 264 outputs (line 3).
// CHECK-KEEP-LABEL: func.func @many_outputs
// CHECK-KEEP: stax.reduction sum [16384] layout <[1]> : tensor<264xf32>
// CHECK-KEEP-NOT: stax.reduction
func.func @many_outputs(%x: tensor<264x16384xf32>) -> tensor<264xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<264x16384xf32> -> tensor<264xf32>
  return %0 : tensor<264xf32>
}

// n_r = 8192 is at the no-split threshold (line 4).
// CHECK-KEEP-LABEL: func.func @short
// CHECK-KEEP: stax.reduction sum [8192] layout <[1]> : tensor<64xf32>
// CHECK-KEEP-NOT: stax.reduction
func.func @short(%x: tensor<64x8192xf32>) -> tensor<64xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<64x8192xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// argmax carries positions: never split.
// CHECK-KEEP-LABEL: func.func @argmax
// CHECK-KEEP: stax.reduction argmax [16384] layout <[1]> : tensor<64xi64>
// CHECK-KEEP-NOT: stax.reduction
func.func @argmax(%x: tensor<64x16384xf32>) -> tensor<64xi64> {
  %0 = tp.argmax %x {dim = 1 : i64} : tensor<64x16384xf32> -> tensor<64xi64>
  return %0 : tensor<64xi64>
}

// With the defaults Example 6.2 does split (example-6-2.mlir has the
// details); the cpu target never splits, not even Example 6.2.
// CHECK-KEEP-LABEL: func.func @example_6_2
// CHECK-KEEP: stax.reduction sum [8192] layout <[2, 1]> : tensor<64x2xf32>
// CHECK-CPU-LABEL: func.func @example_6_2
// CHECK-CPU: stax.reduction sum [16384] layout <[1]> : tensor<64xf32>
// CHECK-CPU-NOT: stax.reduction
// With S = 32, Example 6.2's 64 outputs fill the device (64 >= 2S).
// CHECK-SM32-LABEL: func.func @example_6_2
// CHECK-SM32: stax.reduction sum [16384] layout <[1]> : tensor<64xf32>
// CHECK-SM32-NOT: stax.reduction
func.func @example_6_2(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %0 = tp.mul %x, %x : tensor<64x16384xf32>, tensor<64x16384xf32> -> tensor<64x16384xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<64x16384xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
