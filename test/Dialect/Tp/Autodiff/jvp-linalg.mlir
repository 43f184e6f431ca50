// RUN: stax-opt %s --stax-jvp | FileCheck %s
// RUN: stax-opt %s --stax-jvp="function=mm wrt=1" | FileCheck %s --check-prefix=WRT
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-jvp="function=mm_values" | stax-run - --entry=mm_values --input=%t/result0.npy --input=%t/result1.npy --input=%t/result2.npy --input=%t/result3.npy --print-values | FileCheck %s --check-prefix=MM

// The JVPs of LinalgRules.cpp (--stax-jvp): the product rule
// Ċ = Ȧ B + A Ḃ with the op itself; addmm/baddbmm add beta * ṡelf (expanded
// to the result) and scale the product term by alpha.

// Inputs for the value check: A, B, Ȧ = I, Ḃ = ones.
func.func @inputs() -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x3xf32>) {
  %a = tp.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = tp.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]]> : tensor<2x3xf32>
  %da = tp.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %db = tp.full {value = 1.0 : f64} : tensor<2x3xf32>
  return %a, %b, %da, %db : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @mm
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>, %[[TA:.*]]: tensor<3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4x5xf32> {tp.tangent}) -> (tensor<3x5xf32>, tensor<3x5xf32>)
// CHECK-NEXT: %[[Y:.*]] = tp.mm %[[A]], %[[B]] :
// CHECK-NEXT: %[[L:.*]] = tp.mm %[[TA]], %[[B]] :
// CHECK-NEXT: %[[R:.*]] = tp.mm %[[A]], %[[TB]] :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[L]], %[[R]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
// With wrt=1 only the A Ḃ term remains.
// WRT-LABEL: func.func @mm
// WRT-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>, %[[TB:.*]]: tensor<4x5xf32> {tp.tangent}) -> (tensor<3x5xf32>, tensor<3x5xf32>)
// WRT-NEXT: %[[Y:.*]] = tp.mm %[[A]], %[[B]] :
// WRT-NEXT: %[[DY:.*]] = tp.mm %[[A]], %[[TB]] :
// WRT-NEXT: return %[[Y]], %[[DY]] :
func.func @mm(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %y = tp.mm %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// I B + A ones = [[1, 0, 2], [0, 1, -1]] + [[3, 3, 3], [7, 7, 7]].
// MM: result #1: tensor<2x3xf32>
// MM-NEXT: [4, 3, 5, 7, 8, 6]
func.func @mm_values(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = tp.mm %a, %b : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @bmm
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x4x5xf32>, %[[TA:.*]]: tensor<2x3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<2x4x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.bmm %[[A]], %[[B]] :
// CHECK-NEXT: %[[L:.*]] = tp.bmm %[[TA]], %[[B]] :
// CHECK-NEXT: %[[R:.*]] = tp.bmm %[[A]], %[[TB]] :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[L]], %[[R]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @bmm(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %y = tp.bmm %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// addmm: beta * ṡ (expanded) + alpha * (Ȧ B + A Ḃ).
// CHECK-LABEL: func.func @addmm
// CHECK-SAME: (%[[S:.*]]: tensor<5xf32>, %[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>, %[[TS:.*]]: tensor<5xf32> {tp.tangent}, %[[TA:.*]]: tensor<3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.addmm %[[S]], %[[A]], %[[B]] {alpha = 2.000000e+00 : f64, beta = 5.000000e-01 : f64} :
// CHECK-NEXT: %[[L:.*]] = tp.mm %[[TA]], %[[B]] :
// CHECK-NEXT: %[[R:.*]] = tp.mm %[[A]], %[[TB]] :
// CHECK-NEXT: %[[P:.*]] = tp.add %[[L]], %[[R]] :
// CHECK-NEXT: %[[BS:.*]] = tp.mul.Scalar %[[TS]] {other = 5.000000e-01 : f64} :
// CHECK-NEXT: %[[BSE:.*]] = tp.expand %[[BS]] {size = array<i64: 3, 5>} :
// CHECK-NEXT: %[[AP:.*]] = tp.mul.Scalar %[[P]] {other = 2.000000e+00 : f64} :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[BSE]], %[[AP]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @addmm(%s: tensor<5xf32>, %a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %y = tp.addmm %s, %a, %b {beta = 0.5 : f64, alpha = 2.0 : f64} : (tensor<5xf32>, tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// baddbmm: the same with bmm and a 3x1 self expanded to 2x3x5.
// CHECK-LABEL: func.func @baddbmm
// CHECK-SAME: (%[[S:.*]]: tensor<3x1xf32>, %[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x4x5xf32>, %[[TS:.*]]: tensor<3x1xf32> {tp.tangent}, %[[TA:.*]]: tensor<2x3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<2x4x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.baddbmm %[[S]], %[[A]], %[[B]]
// CHECK-NEXT: %[[L:.*]] = tp.bmm %[[TA]], %[[B]] :
// CHECK-NEXT: %[[R:.*]] = tp.bmm %[[A]], %[[TB]] :
// CHECK-NEXT: %[[P:.*]] = tp.add %[[L]], %[[R]] :
// CHECK-NEXT: %[[BS:.*]] = tp.mul.Scalar %[[TS]] {other = -1.500000e+00 : f64} :
// CHECK-NEXT: %[[BSE:.*]] = tp.expand %[[BS]] {size = array<i64: 2, 3, 5>} :
// CHECK-NEXT: %[[AP:.*]] = tp.mul.Scalar %[[P]] {other = 5.000000e-01 : f64} :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[BSE]], %[[AP]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @baddbmm(%s: tensor<3x1xf32>, %a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %y = tp.baddbmm %s, %a, %b {beta = -1.5 : f64, alpha = 0.5 : f64} : (tensor<3x1xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// dot: ȧ . b + a . ḃ.
// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TA:.*]]: tensor<4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.dot %[[A]], %[[B]] :
// CHECK-NEXT: %[[L:.*]] = tp.dot %[[TA]], %[[B]] :
// CHECK-NEXT: %[[R:.*]] = tp.dot %[[A]], %[[TB]] :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[L]], %[[R]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @dot(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %y = tp.dot %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// matmul with broadcast batch dims: the product rule with matmul itself.
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x3x4xf32>, %[[B:.*]]: tensor<5x4x2xf32>, %[[TA:.*]]: tensor<2x1x3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<5x4x2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.matmul %[[A]], %[[B]] :
// CHECK-NEXT: %[[L:.*]] = tp.matmul %[[TA]], %[[B]] :
// CHECK-NEXT: %[[R:.*]] = tp.matmul %[[A]], %[[TB]] :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[L]], %[[R]] : tensor<2x5x3x2xf32>, tensor<2x5x3x2xf32> -> tensor<2x5x3x2xf32>
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @matmul_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %y = tp.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  return %y : tensor<2x5x3x2xf32>
}
