// RUN: stax-run %s | FileCheck %s
// RUN: stax-run %s --f64 | FileCheck %s --check-prefix=F64

// Example 1.1 on literal inputs: (relu(x + y) * 2).sum(-1).
// Row 0: relu([1.5, -4, 0.25] + [1, 1, 1]) * 2 = [5, 0, 2.5] -> 7.5
// Row 1: relu([-1, 2, 3] + [0.5, 0.5, -10]) * 2 = [0, 5, 0]  -> 5
func.func @main() -> tensor<2xf32> {
  %x = tp.constant dense<[[1.5, -4.0, 0.25], [-1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %y = tp.constant dense<[[1.0, 1.0, 1.0], [0.5, 0.5, -10.0]]> : tensor<2x3xf32>
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}
// CHECK: @main
// CHECK-NEXT: result #0: tensor<2xf32> min=5 max=7.5 mean=6.25
// CHECK-NEXT: [7.5, 5]
// F64: @main (float64)
// F64-NEXT: result #0: tensor<2xf64>
