// RUN: stax-opt --stax-decompose --stax-lower %s | stax-opt --stax-decompose --stax-lower | FileCheck %s --check-prefix=CHECK-TWICE

// Lowering partially lowered IR keeps the nodes and reads their buffers
// with their own layouts (here a column-major intermediate).
// CHECK-TWICE-LABEL: func.func @f
// CHECK-TWICE: %[[B:.*]] = stax.pointwise layout <[1, 16]> : tensor<16x8xf32>
// CHECK-TWICE: stax.load %[[B]][%{{.*}}]
// CHECK-TWICE-SAME: tensor<16x8xf32>
// CHECK-TWICE-NOT: tp.
func.func @f(%x: tensor<8x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %t = tp.t %x : tensor<8x16xf32> -> tensor<16x8xf32>
  %e = tp.exp %t : tensor<16x8xf32> -> tensor<16x8xf32>
  %a = tp.add.Scalar %e {other = 1.0 : f64} : tensor<16x8xf32> -> tensor<16x8xf32>
  %b = tp.mul.Scalar %e {other = 3.0 : f64} : tensor<16x8xf32> -> tensor<16x8xf32>
  return %a, %b : tensor<16x8xf32>, tensor<16x8xf32>
}
