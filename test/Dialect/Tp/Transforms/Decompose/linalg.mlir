// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// beta * self + alpha * (mat1 @ mat2); a scalar of 1 skips its multiply.
// CHECK-LABEL: func.func @addmm
// CHECK-SAME: (%[[C:.*]]: tensor<5xf32>, %[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<3x5xf32>)
// CHECK-NEXT: %[[P:.*]] = tp.mm %[[A]], %[[B]]
// CHECK-NEXT: %[[AP:.*]] = tp.mul.Scalar %[[P]] {other = 2.000000e+00 : f64}
// CHECK-NEXT: %[[BC:.*]] = tp.mul.Scalar %[[C]] {other = 5.000000e-01 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.add %[[BC]], %[[AP]] : tensor<5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @addmm(%c: tensor<5xf32>, %a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = tp.addmm %c, %a, %b {beta = 0.5 : f64, alpha = 2 : i64}
      : (tensor<5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// beta = 0 ignores self.
// CHECK-LABEL: func.func @addmm_beta0
// CHECK-NEXT: %[[P:.*]] = tp.mm
// CHECK-NEXT: return %[[P]]
func.func @addmm_beta0(%c: tensor<4x5xf32>, %a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = tp.addmm %c, %a, %b {beta = 0 : i64} : (tensor<4x5xf32>, tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// For f16 the product is not rounded to f16 before the epilogue.
// CHECK-LABEL: func.func @baddbmm_f16
// CHECK-SAME: (%[[C:.*]]: tensor<2x4x5xf16>, %[[A:.*]]: tensor<2x4x3xf16>, %[[B:.*]]: tensor<2x3x5xf16>)
// CHECK-NEXT: %[[A32:.*]] = tp._to_copy %[[A]] {dtype = f32}
// CHECK-NEXT: %[[B32:.*]] = tp._to_copy %[[B]] {dtype = f32}
// CHECK-NEXT: %[[P:.*]] = tp.bmm %[[A32]], %[[B32]] : (tensor<2x4x3xf32>, tensor<2x3x5xf32>) -> tensor<2x4x5xf32>
// CHECK-NEXT: %[[C32:.*]] = tp._to_copy %[[C]] {dtype = f32}
// CHECK-NEXT: %[[S:.*]] = tp.add %[[C32]], %[[P]]
// CHECK-NEXT: %[[R:.*]] = tp._to_copy %[[S]] {dtype = f16}
// CHECK-NEXT: return %[[R]]
func.func @baddbmm_f16(%c: tensor<2x4x5xf16>, %a: tensor<2x4x3xf16>, %b: tensor<2x3x5xf16>) -> tensor<2x4x5xf16> {
  %0 = tp.baddbmm %c, %a, %b : (tensor<2x4x5xf16>, tensor<2x4x3xf16>, tensor<2x3x5xf16>) -> tensor<2x4x5xf16>
  return %0 : tensor<2x4x5xf16>
}

// -----

// Batch dims of the left operand fold into rows when the right one is a
// matrix.
// CHECK-LABEL: func.func @matmul_fold
// CHECK-SAME: (%[[A:.*]]: tensor<2x4x7xf32>, %[[B:.*]]: tensor<7x5xf32>)
// CHECK-NEXT: %[[AV:.*]] = tp.view %[[A]] {size = array<i64: 8, 7>}
// CHECK-NEXT: %[[P:.*]] = tp.mm %[[AV]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = tp.view %[[P]] {size = array<i64: 2, 4, 5>}
// CHECK-NEXT: return %[[R]]
func.func @matmul_fold(%a: tensor<2x4x7xf32>, %b: tensor<7x5xf32>) -> tensor<2x4x5xf32> {
  %0 = tp.matmul %a, %b : (tensor<2x4x7xf32>, tensor<7x5xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// Vectors become [1, k] / [k, 1] matrices.
// CHECK-LABEL: func.func @matmul_vec
// CHECK-SAME: (%[[A:.*]]: tensor<7xf32>, %[[B:.*]]: tensor<7xf32>)
// CHECK-NEXT: %[[AV:.*]] = tp.view %[[A]] {size = array<i64: 1, 7>}
// CHECK-NEXT: %[[BV:.*]] = tp.view %[[B]] {size = array<i64: 7, 1>}
// CHECK-NEXT: %[[P:.*]] = tp.mm %[[AV]], %[[BV]]
// CHECK-NEXT: %[[R:.*]] = tp.view %[[P]] {size = array<i64>} : tensor<1x1xf32> -> tensor<f32>
// CHECK-NEXT: %[[DA:.*]] = tp.view %[[A]] {size = array<i64: 1, 7>}
// CHECK-NEXT: %[[DB:.*]] = tp.view %[[B]] {size = array<i64: 7, 1>}
// CHECK-NEXT: %[[DP:.*]] = tp.mm %[[DA]], %[[DB]]
// CHECK-NEXT: %[[D:.*]] = tp.view %[[DP]] {size = array<i64>} : tensor<1x1xf32> -> tensor<f32>
// CHECK-NEXT: return %[[R]], %[[D]]
func.func @matmul_vec(%a: tensor<7xf32>, %b: tensor<7xf32>) -> (tensor<f32>, tensor<f32>) {
  %0 = tp.matmul %a, %b : (tensor<7xf32>, tensor<7xf32>) -> tensor<f32>
  %1 = tp.dot %a, %b : (tensor<7xf32>, tensor<7xf32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// Broadcast batch dims: expand, flatten to one batch dim, bmm.
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x4x7xf32>, %[[B:.*]]: tensor<3x7x5xf32>)
// CHECK-NEXT: %[[AE:.*]] = tp.expand %[[A]] {size = array<i64: 2, 3, 4, 7>}
// CHECK-NEXT: %[[AR:.*]] = tp.reshape %[[AE]] {size = array<i64: 6, 4, 7>}
// CHECK-NEXT: %[[BE:.*]] = tp.expand %[[B]] {size = array<i64: 2, 3, 7, 5>}
// CHECK-NEXT: %[[BR:.*]] = tp.reshape %[[BE]] {size = array<i64: 6, 7, 5>}
// CHECK-NEXT: %[[P:.*]] = tp.bmm %[[AR]], %[[BR]]
// CHECK-NEXT: %[[R:.*]] = tp.view %[[P]] {size = array<i64: 2, 3, 4, 5>}
// CHECK-NEXT: return %[[R]]
func.func @matmul_broadcast(%a: tensor<2x1x4x7xf32>, %b: tensor<3x7x5xf32>) -> tensor<2x3x4x5xf32> {
  %0 = tp.matmul %a, %b : (tensor<2x1x4x7xf32>, tensor<3x7x5xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}
