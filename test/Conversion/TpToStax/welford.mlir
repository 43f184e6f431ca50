// RUN: stax-opt --stax-decompose="keep=tp.var" --stax-lower="welford=true" %s | FileCheck %s --check-prefix=CHECK-WELFORD
// RUN: stax-opt --stax-decompose --stax-lower %s | FileCheck %s --check-prefix=CHECK-TWOPASS

// With `welford`, var is one Welford pass (mean, M2, count) and a division
// by max(0, count - correction) in f64; by default it is the two-pass
// decomposition that interprets bitwise like the reference kernel.

// CHECK-WELFORD-LABEL: func.func @var
// CHECK-WELFORD: %[[W:.*]]:3 = stax.reduction welford [3] layout <[4, 1]> : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
// CHECK-WELFORD: stax.pointwise
// CHECK-WELFORD: stax.load %[[W]]#2
// CHECK-WELFORD: arith.maximumf
// CHECK-WELFORD: stax.load %[[W]]#1
// CHECK-WELFORD: arith.divf {{.*}} : f64
// CHECK-WELFORD-NOT: stax.reduction

// CHECK-TWOPASS-LABEL: func.func @var
// CHECK-TWOPASS-COUNT-2: stax.reduction sum
// CHECK-TWOPASS-NOT: welford
func.func @var(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %v = tp.var %x {dims = array<i64: 1>, correction = 1.0 : f64} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}
