// RUN: stax-opt %s --stax-jvp | FileCheck %s
// RUN: stax-opt %s --stax-jvp="function=div wrt=1" | FileCheck %s --check-prefix=WRT
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-jvp="function=chain" | stax-run - --entry=chain --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=CHAIN

// The JVPs of ElementwiseRules.cpp (--stax-jvp): every floating argument
// gets a tangent argument (%T...) and every floating result a tangent
// result; a pointwise op's tangent is the sum over its operands of the
// operand's tangent times the partial derivative, broadcast to the result.

// Inputs for the value check: x = [0, pi/2, pi], dx = [1, 2, 1].
func.func @inputs() -> (tensor<3xf64>, tensor<3xf64>) {
  %x = tp.constant dense<[0.0, 1.5707963267948966, 3.141592653589793]> : tensor<3xf64>
  %t = tp.constant dense<[1.0, 2.0, 1.0]> : tensor<3xf64>
  return %x, %t : tensor<3xf64>, tensor<3xf64>
}

// exp: ẏ = ẋ * exp(x), reusing the primal result.
// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[T:.*]]: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %[[Y:.*]] = tp.exp %[[X]] :
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[T]], %[[Y]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// tanh: eager's tanh_backward is linear in its first operand, so the JVP
// applies it to the tangent.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.tanh %[[X]] :
// CHECK-NEXT: %[[DY:.*]] = tp.tanh_backward %[[T]], %[[Y]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tp.tanh %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// gelu: ẏ = ẋ * gelu'(x), the partial being gelu_backward of ones at x.
// CHECK-LABEL: func.func @gelu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.gelu %[[X]] :
// CHECK-NEXT: %[[ONES:.*]] = tp.full {value = 1.000000e+00 : f64} : tensor<4xf32>
// CHECK-NEXT: %[[D:.*]] = tp.gelu_backward %[[ONES]], %[[X]] :
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[T]], %[[D]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tp.gelu %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// mul (b broadcast): ẏ = ȧ * b + ḃ * a; one tangent per argument, one
// tangent result.
// CHECK-LABEL: func.func @mul
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TA:.*]]: tensor<3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4xf32> {tp.tangent}) -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[A]], %[[B]] :
// CHECK-NEXT: %[[P0:.*]] = tp.mul %[[TA]], %[[B]] :
// CHECK-NEXT: %[[P1:.*]] = tp.mul %[[TB]], %[[A]] : tensor<4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[P0]], %[[P1]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @mul(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %y = tp.mul %a, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// div: ẏ = ȧ / b - ḃ * ((a / b) / b), where a / b is y.
// CHECK-LABEL: func.func @div
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TA:.*]]: tensor<4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.div %[[A]], %[[B]] :
// CHECK-NEXT: %[[P0:.*]] = tp.div %[[TA]], %[[B]] :
// CHECK-NEXT: %[[YB:.*]] = tp.div %[[Y]], %[[B]] :
// CHECK-NEXT: %[[Q:.*]] = tp.mul %[[TB]], %[[YB]] :
// CHECK-NEXT: %[[P1:.*]] = tp.mul.Scalar %[[Q]] {other = -1.000000e+00 : f64} :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[P0]], %[[P1]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
// With wrt=1 only b gets a tangent: the ȧ term is gone.
// WRT-LABEL: func.func @div
// WRT-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TB:.*]]: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>)
// WRT-NEXT: %[[Y:.*]] = tp.div %[[A]], %[[B]] :
// WRT-NEXT: %[[YB:.*]] = tp.div %[[Y]], %[[B]] :
// WRT-NEXT: %[[Q:.*]] = tp.mul %[[TB]], %[[YB]] :
// WRT-NEXT: %[[DY:.*]] = tp.mul.Scalar %[[Q]] {other = -1.000000e+00 : f64} :
// WRT-NEXT: return %[[Y]], %[[DY]] :
func.func @div(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %y = tp.div %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// add with alpha and a broadcast operand: ḃ is scaled by alpha and
// expanded to the result's shape before the sum.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TA:.*]]: tensor<3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.add %[[A]], %[[B]] {alpha = 2.000000e+00 : f64} :
// CHECK-NEXT: %[[S:.*]] = tp.mul.Scalar %[[TB]] {other = 2.000000e+00 : f64} :
// CHECK-NEXT: %[[E:.*]] = tp.expand %[[S]] {size = array<i64: 3, 4>} :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[TA]], %[[E]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @add(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %y = tp.add %a, %b {alpha = 2.0 : f64} : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// where: the tangents are selected by the same condition.
// CHECK-LABEL: func.func @where
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TA:.*]]: tensor<4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.where %[[C]], %[[A]], %[[B]] :
// CHECK-NEXT: %[[DY:.*]] = tp.where %[[C]], %[[TA]], %[[TB]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @where(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %y = tp.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// _to_copy to f16: the tangent is converted too (and the tangent result is
// f16, while the tangent argument stays f32).
// CHECK-LABEL: func.func @to_f16
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[T:.*]]: tensor<4xf32> {tp.tangent}) -> (tensor<4xf16>, tensor<4xf16>)
// CHECK-NEXT: %[[Y:.*]] = tp._to_copy %[[X]] {dtype = f16} :
// CHECK-NEXT: %[[DY:.*]] = tp._to_copy %[[T]] {dtype = f16} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @to_f16(%x: tensor<4xf32>) -> tensor<4xf16> {
  %y = tp._to_copy %x {dtype = f16} : tensor<4xf32> -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// Tangents flow through a chain, and a value used twice contributes both
// ways: d(sin(x) * x) = (ẋ cos x) * x + ẋ * sin x.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<3xf64>, %[[T:.*]]: tensor<3xf64> {tp.tangent})
// CHECK-NEXT: %[[S:.*]] = tp.sin %[[X]] :
// CHECK-NEXT: %[[C:.*]] = tp.cos %[[X]] :
// CHECK-NEXT: %[[DS:.*]] = tp.mul %[[T]], %[[C]] :
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[S]], %[[X]] :
// CHECK-NEXT: %[[P0:.*]] = tp.mul %[[DS]], %[[X]] :
// CHECK-NEXT: %[[P1:.*]] = tp.mul %[[T]], %[[S]] :
// CHECK-NEXT: %[[DY:.*]] = tp.add %[[P0]], %[[P1]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
// (x cos x + sin x) ẋ at x = 0, pi/2, pi: [0, 2, -pi].
// CHAIN: result #1: tensor<3xf64>
// CHAIN-NEXT: [0, 2, -3.14159265]
func.func @chain(%x: tensor<3xf64>) -> tensor<3xf64> {
  %y = tp.sin %x : tensor<3xf64> -> tensor<3xf64>
  %z = tp.mul %y, %x : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  return %z : tensor<3xf64>
}
