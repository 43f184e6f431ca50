// RUN: stax-opt --stax-decompose --stax-lower %s | FileCheck %s --check-prefix=CHECK-LOWER
// RUN: stax-opt --stax-decompose --stax-lower %s | stax-run - --random-inputs --entry=forward --print=hash > %t.lowered
// RUN: stax-run %s --random-inputs --entry=forward --print=hash > %t.tp
// RUN: diff %t.tp %t.lowered

// Example 1.1 (Listing 6.2): add, relu and mul compose into the body of the
// sum: one computed buffer, a reduction reading both inputs at 128*i0 + r0.

// CHECK-LOWER-DAG: #[[MAP:.*]] = affine_map<(d0, d1) -> (d0 * 128 + d1)>
// CHECK-LOWER-LABEL: func.func @forward
// CHECK-LOWER-SAME: (%[[X:.*]]: tensor<64x128xf32>, %[[Y:.*]]: tensor<64x128xf32>) -> tensor<64xf32>
// CHECK-LOWER-NEXT: %[[BUF:.*]] = stax.reduction sum [128] layout <[1]> : tensor<64xf32> {
// CHECK-LOWER-NEXT: ^bb0(%[[I0:.*]]: index, %[[R0:.*]]: index):
// CHECK-LOWER-NEXT:   %[[A:.*]] = affine.apply #[[MAP]](%[[I0]], %[[R0]])
// CHECK-LOWER-NEXT:   %[[L0:.*]] = stax.load %[[X]][%[[A]]] : tensor<64x128xf32>
// CHECK-LOWER-NEXT:   %[[L1:.*]] = stax.load %[[Y]][%[[A]]] : tensor<64x128xf32>
// CHECK-LOWER-NEXT:   %[[ADD:.*]] = arith.addf %[[L0]], %[[L1]] : f32
// CHECK-LOWER-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-LOWER-NEXT:   %[[NEG:.*]] = arith.cmpf olt, %[[ADD]], %[[ZERO]] : f32
// CHECK-LOWER-NEXT:   %[[RELU:.*]] = arith.select %[[NEG]], %[[ZERO]], %[[ADD]] : f32
// CHECK-LOWER-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-LOWER-NEXT:   %[[MUL:.*]] = arith.mulf %[[RELU]], %[[TWO]] : f32
// CHECK-LOWER-NEXT:   stax.yield %[[MUL]] : f32
// CHECK-LOWER-NEXT: }
// CHECK-LOWER-NEXT: return %[[BUF]] : tensor<64xf32>
// CHECK-LOWER-NOT: stax.pointwise
func.func @forward(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64xf32> {
  %0 = tp.add %x, %y : tensor<64x128xf32>, tensor<64x128xf32> -> tensor<64x128xf32>
  %1 = tp.relu %0 : tensor<64x128xf32> -> tensor<64x128xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<64x128xf32> -> tensor<64x128xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<64x128xf32> -> tensor<64xf32>
  return %3 : tensor<64xf32>
}
