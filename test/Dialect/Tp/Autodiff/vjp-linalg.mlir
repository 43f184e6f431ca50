// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=mm_values --input=%t/result0.npy --input=%t/result1.npy --input=%t/result2.npy --print-values | FileCheck %s --check-prefix=MM

// The VJPs of LinalgRules.cpp (--stax-joint-graph): for C = A B,
// Ā = T B^T and B̄ = A^T T (T the adjoint of C), with the transposes of the
// last two dims, alpha/beta scalings for addmm/baddbmm, and sums back over
// broadcast dims for matmul. The phase attribute is not matched.

// Inputs for the value check (no requires_grad: left alone).
func.func @inputs() -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = tp.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = tp.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]]> : tensor<2x3xf32>
  %t = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  return %a, %b, %t : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// mm: Ā = mm(T, t(B)), B̄ = mm(t(A), T).
// CHECK-LABEL: func.func @mm
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mm %[[A]], %[[B]] {
// CHECK-NEXT: %[[BT:.*]] = tp.t %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.mm %[[T]], %[[BT]] {{.*}} -> tensor<3x4xf32>
// CHECK-NEXT: %[[AT:.*]] = tp.t %[[A]] {
// CHECK-NEXT: %[[GB:.*]] = tp.mm %[[AT]], %[[T]] {{.*}} -> tensor<4x5xf32>
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @mm(%a: tensor<3x4xf32> {tp.requires_grad}, %b: tensor<4x5xf32> {tp.requires_grad}) -> tensor<3x5xf32> {
  %y = tp.mm %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// The same rule on values: T B^T = [[7, -1], [16, -1]],
// A^T T = [[13, 17, 21], [18, 24, 30]].
// MM: result #1: tensor<2x2xf32>
// MM-NEXT: [7, -1, 16, -1]
// MM: result #2: tensor<2x3xf32>
// MM-NEXT: [13, 17, 21, 18, 24, 30]
func.func @mm_values(%a: tensor<2x2xf32> {tp.requires_grad}, %b: tensor<2x3xf32> {tp.requires_grad}) -> tensor<2x3xf32> {
  %y = tp.mm %a, %b : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// bmm: the same with the last two dims transposed.
// CHECK-LABEL: func.func @bmm
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<2x4x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.bmm %[[A]], %[[B]] {
// CHECK-NEXT: %[[BT:.*]] = tp.transpose %[[B]] {dim0 = 1 : i64, dim1 = 2 : i64{{.*}}}
// CHECK-NEXT: %[[GA:.*]] = tp.bmm %[[T]], %[[BT]] {{.*}} -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[AT:.*]] = tp.transpose %[[A]] {dim0 = 1 : i64, dim1 = 2 : i64{{.*}}}
// CHECK-NEXT: %[[GB:.*]] = tp.bmm %[[AT]], %[[T]] {{.*}} -> tensor<2x4x5xf32>
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @bmm(%a: tensor<2x3x4xf32> {tp.requires_grad}, %b: tensor<2x4x5xf32> {tp.requires_grad}) -> tensor<2x3x5xf32> {
  %y = tp.bmm %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// addmm = beta * s + alpha * (a @ b) with a broadcast s: s̄ = sum_0(beta * T)
// viewed to s's shape; the product's adjoint is alpha * T.
// CHECK-LABEL: func.func @addmm
// CHECK-SAME: (%[[S:.*]]: tensor<5xf32> {tp.requires_grad}, %[[A:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.addmm %[[S]], %[[A]], %[[B]] {
// CHECK-NEXT: %[[BETA:.*]] = tp.mul.Scalar %[[T]] {other = 5.000000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[SUM:.*]] = tp.sum %[[BETA]] {dims = array<i64: 0>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[GS:.*]] = tp.view %[[SUM]] {size = array<i64: 5>{{.*}}}
// CHECK-NEXT: %[[ALPHA:.*]] = tp.mul.Scalar %[[T]] {other = 2.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[BT:.*]] = tp.t %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.mm %[[ALPHA]], %[[BT]] {
// CHECK-NEXT: %[[AT:.*]] = tp.t %[[A]] {
// CHECK-NEXT: %[[GB:.*]] = tp.mm %[[AT]], %[[ALPHA]] {
// CHECK-NEXT: return %[[Y]], %[[GS]], %[[GA]], %[[GB]] :
func.func @addmm(%s: tensor<5xf32> {tp.requires_grad}, %a: tensor<3x4xf32> {tp.requires_grad}, %b: tensor<4x5xf32> {tp.requires_grad}) -> tensor<3x5xf32> {
  %y = tp.addmm %s, %a, %b {beta = 0.5 : f64, alpha = 2.0 : f64} : (tensor<5xf32>, tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// addmm with the default beta = alpha = 1: no scaling ops, and s (not
// broadcast) gets T itself.
// CHECK-LABEL: func.func @addmm_default
// CHECK-SAME: (%[[S:.*]]: tensor<3x5xf32> {tp.requires_grad}, %[[A:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.addmm %[[S]], %[[A]], %[[B]] {
// CHECK-NEXT: %[[BT:.*]] = tp.t %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.mm %[[T]], %[[BT]] {
// CHECK-NEXT: %[[AT:.*]] = tp.t %[[A]] {
// CHECK-NEXT: %[[GB:.*]] = tp.mm %[[AT]], %[[T]] {
// CHECK-NEXT: return %[[Y]], %[[T]], %[[GA]], %[[GB]] :
func.func @addmm_default(%s: tensor<3x5xf32> {tp.requires_grad}, %a: tensor<3x4xf32> {tp.requires_grad}, %b: tensor<4x5xf32> {tp.requires_grad}) -> tensor<3x5xf32> {
  %y = tp.addmm %s, %a, %b : (tensor<3x5xf32>, tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// baddbmm: the broadcast self (3x1 against 2x3x5) sums dims 0 and 2.
// CHECK-LABEL: func.func @baddbmm
// CHECK-SAME: (%[[S:.*]]: tensor<3x1xf32> {tp.requires_grad}, %[[A:.*]]: tensor<2x3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<2x4x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.baddbmm %[[S]], %[[A]], %[[B]] {
// CHECK-NEXT: %[[BETA:.*]] = tp.mul.Scalar %[[T]] {other = -1.500000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[SUM:.*]] = tp.sum %[[BETA]] {dims = array<i64: 0, 2>, keepdim = true{{.*}}} : tensor<2x3x5xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[GS:.*]] = tp.view %[[SUM]] {size = array<i64: 3, 1>{{.*}}}
// CHECK-NEXT: %[[ALPHA:.*]] = tp.mul.Scalar %[[T]] {other = 5.000000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[BT:.*]] = tp.transpose %[[B]] {dim0 = 1 : i64, dim1 = 2 : i64{{.*}}}
// CHECK-NEXT: %[[GA:.*]] = tp.bmm %[[ALPHA]], %[[BT]] {
// CHECK-NEXT: %[[AT:.*]] = tp.transpose %[[A]] {dim0 = 1 : i64, dim1 = 2 : i64{{.*}}}
// CHECK-NEXT: %[[GB:.*]] = tp.bmm %[[AT]], %[[ALPHA]] {
// CHECK-NEXT: return %[[Y]], %[[GS]], %[[GA]], %[[GB]] :
func.func @baddbmm(%s: tensor<3x1xf32> {tp.requires_grad}, %a: tensor<2x3x4xf32> {tp.requires_grad}, %b: tensor<2x4x5xf32> {tp.requires_grad}) -> tensor<2x3x5xf32> {
  %y = tp.baddbmm %s, %a, %b {beta = -1.5 : f64, alpha = 0.5 : f64} : (tensor<3x1xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// dot: ā = T * b, b̄ = T * a (T is 0-d).
// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.dot %[[A]], %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.mul %[[T]], %[[B]] {
// CHECK-NEXT: %[[GB:.*]] = tp.mul %[[T]], %[[A]] {
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @dot(%a: tensor<4xf32> {tp.requires_grad}, %b: tensor<4xf32> {tp.requires_grad}) -> tensor<f32> {
  %y = tp.dot %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// matmul of a vector by a matrix: a is a row [1, 4] and T a row [1, 5];
// the products are viewed back to a's shape.
// CHECK-LABEL: func.func @matmul_vec_mat
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.matmul %[[A]], %[[B]] {
// CHECK-NEXT: %[[A2:.*]] = tp.view %[[A]] {size = array<i64: 1, 4>{{.*}}}
// CHECK-NEXT: %[[T2:.*]] = tp.view %[[T]] {size = array<i64: 1, 5>{{.*}}}
// CHECK-NEXT: %[[BT:.*]] = tp.t %[[B]] {
// CHECK-NEXT: %[[GA2:.*]] = tp.matmul %[[T2]], %[[BT]] {{.*}} -> tensor<1x4xf32>
// CHECK-NEXT: %[[GA:.*]] = tp.view %[[GA2]] {size = array<i64: 4>{{.*}}}
// CHECK-NEXT: %[[A2T:.*]] = tp.t %[[A2]] {
// CHECK-NEXT: %[[GB:.*]] = tp.matmul %[[A2T]], %[[T2]] {{.*}} -> tensor<4x5xf32>
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @matmul_vec_mat(%a: tensor<4xf32> {tp.requires_grad}, %b: tensor<4x5xf32> {tp.requires_grad}) -> tensor<5xf32> {
  %y = tp.matmul %a, %b : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// matmul with broadcast batch dims (2x1 against 5): each adjoint is summed
// over the batch dims its operand was broadcast along.
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<5x4x2xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x5x3x2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.matmul %[[A]], %[[B]] {
// CHECK-NEXT: %[[BT:.*]] = tp.transpose %[[B]] {dim0 = 1 : i64, dim1 = 2 : i64{{.*}}}
// CHECK-NEXT: %[[PA:.*]] = tp.matmul %[[T]], %[[BT]] {{.*}} -> tensor<2x5x3x4xf32>
// CHECK-NEXT: %[[GA:.*]] = tp.sum %[[PA]] {dims = array<i64: 1>, keepdim = true{{.*}}} : tensor<2x5x3x4xf32> -> tensor<2x1x3x4xf32>
// CHECK-NEXT: %[[AT:.*]] = tp.transpose %[[A]] {dim0 = 2 : i64, dim1 = 3 : i64{{.*}}}
// CHECK-NEXT: %[[PB:.*]] = tp.matmul %[[AT]], %[[T]] {{.*}} -> tensor<2x5x4x2xf32>
// CHECK-NEXT: %[[SB:.*]] = tp.sum %[[PB]] {dims = array<i64: 0>, keepdim = true{{.*}}} : tensor<2x5x4x2xf32> -> tensor<1x5x4x2xf32>
// CHECK-NEXT: %[[GB:.*]] = tp.view %[[SB]] {size = array<i64: 5, 4, 2>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @matmul_broadcast(%a: tensor<2x1x3x4xf32> {tp.requires_grad}, %b: tensor<5x4x2xf32> {tp.requires_grad}) -> tensor<2x5x3x2xf32> {
  %y = tp.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  return %y : tensor<2x5x3x2xf32>
}
