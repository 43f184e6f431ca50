// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=exp --f64 --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=EXP
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=div --f64 --input=%t/result0.npy --input=%t/result2.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=DIV

// The VJPs of ElementwiseRules.cpp (--stax-joint-graph): each function holds
// one pointwise op, and the checks follow the adjoint %T of its result to
// the gradient of each differentiated argument (the rule's ops and which
// operands they read). The phase attribute is not matched (`{{.*}}`).

// Inputs for the value checks: x, t and a divisor d (no requires_grad, so
// --stax-joint-graph leaves this function alone).
func.func @inputs() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %x = tp.constant dense<[0.0, 1.0, -2.0]> : tensor<3xf32>
  %t = tp.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %d = tp.constant dense<[2.0, -4.0, 0.5]> : tensor<3xf32>
  return %x, %t, %d : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// exp: x̄ = t * exp(x), reusing the forward result.
// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.exp %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[Y]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
// exp(x) = [1, e, e^-2]; x̄ = t * exp(x) = [1, 2e, e^-2 / 2].
// EXP: result #1: tensor<3xf64>
// EXP-NEXT: [1, 5.43656366, 0.0676676416]
func.func @exp(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.exp %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// log: x̄ = t / x.
// CHECK-LABEL: func.func @log
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.log %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.div %[[T]], %[[X]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @log(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.log %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// sqrt: x̄ = t / (2 * sqrt(x)), reusing the forward result.
// CHECK-LABEL: func.func @sqrt
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.sqrt %[[X]] {
// CHECK-NEXT: %[[TWO_Y:.*]] = tp.mul.Scalar %[[Y]] {other = 2.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.div %[[T]], %[[TWO_Y]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @sqrt(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.sqrt %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// sin: x̄ = t * cos(x), cos of the input.
// CHECK-LABEL: func.func @sin
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.sin %[[X]] {
// CHECK-NEXT: %[[C:.*]] = tp.cos %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[C]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @sin(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.sin %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// tanh and sigmoid: eager's backward operators, reading the forward result.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.tanh %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.tanh_backward %[[T]], %[[Y]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @tanh(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.tanh %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @sigmoid
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.sigmoid %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.sigmoid_backward %[[T]], %[[Y]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @sigmoid(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.sigmoid %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// relu: threshold_backward at 0 of the result (eager: relu'(0) = 0).
// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.relu %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.threshold_backward %[[T]], %[[Y]] {threshold = 0 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @relu(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.relu %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// silu and gelu: the backward operators read the input, not the result;
// gelu keeps its approximation.
// CHECK-LABEL: func.func @silu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.silu %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.silu_backward %[[T]], %[[X]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @silu(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.silu %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @gelu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.gelu %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.gelu_backward %[[T]], %[[X]] {approximate = #tp.approximate<tanh>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @gelu(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.gelu %x {approximate = #tp.approximate<tanh>} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// mul with a broadcast operand: ā = t * b; b̄ = sum over the broadcast dim
// of t * a, viewed back to b's shape.
// CHECK-LABEL: func.func @mul
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[A]], %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.mul %[[T]], %[[B]] {
// CHECK-NEXT: %[[TA:.*]] = tp.mul %[[T]], %[[A]] {
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[TA]] {dims = array<i64: 0>, keepdim = true{{.*}}} : tensor<3x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT: %[[GB:.*]] = tp.view %[[S]] {size = array<i64: 4>{{.*}}} : tensor<1x4xf32> -> tensor<4xf32>
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @mul(%a: tensor<3x4xf32> {tp.requires_grad}, %b: tensor<4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y = tp.mul %a, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// div: ā = t / b; b̄ = -t * ((a / b) / b), eager's formula: a / b^2 would
// overflow where b^2 does (1e30 / 2e30 in float32 gave NaN). a / b is y.
// CHECK-LABEL: func.func @div
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32> {tp.requires_grad}, %[[B:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.div %[[A]], %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.div %[[T]], %[[B]] {
// CHECK-NEXT: %[[YB:.*]] = tp.div %[[Y]], %[[B]] {
// CHECK-NEXT: %[[Q:.*]] = tp.mul %[[T]], %[[YB]] {
// CHECK-NEXT: %[[GB:.*]] = tp.mul.Scalar %[[Q]] {other = -1.000000e+00 : f64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
// a = [0, 1, -2], b = [2, -4, 0.5], t = [1, 2, 0.5]:
// ā = t / b = [0.5, -0.5, 1]; b̄ = -t (a / b) / b = [-0, -0.125, 4].
// DIV: result #1: tensor<3xf64>
// DIV-NEXT: [0.5, -0.5, 1]
// DIV: result #2: tensor<3xf64>
// DIV-NEXT: [-0, -0.125, 4]
func.func @div(%a: tensor<3xf32> {tp.requires_grad}, %b: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.div %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// pow: ā = t * (e * a^(e - 1)) with 0 where e == 0;
// ē = t * (pow(a, e) * log(a)) with 0 where a == 0 and e >= 0.
// CHECK-LABEL: func.func @pow
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32> {tp.requires_grad}, %[[E:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.pow %[[A]], %[[E]] {
// CHECK-NEXT: %[[EM1:.*]] = tp.sub.Scalar %[[E]] {other = 1.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[P:.*]] = tp.pow %[[A]], %[[EM1]] {
// CHECK-NEXT: %[[D:.*]] = tp.mul %[[E]], %[[P]] {
// CHECK-NEXT: %[[E0:.*]] = tp.eq.Scalar %[[E]] {other = 0.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[DA:.*]] = tp.masked_fill.Scalar %[[D]], %[[E0]] {
// CHECK-NEXT: %[[GA:.*]] = tp.mul %[[T]], %[[DA]] {
// CHECK-NEXT: %[[L:.*]] = tp.log %[[A]] {
// CHECK-NEXT: %[[YL:.*]] = tp.mul %[[Y]], %[[L]] {
// CHECK-NEXT: %[[A0:.*]] = tp.eq.Scalar %[[A]] {other = 0.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[EGE0:.*]] = tp.ge.Scalar %[[E]] {other = 0.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[M:.*]] = tp.logical_and %[[A0]], %[[EGE0]] {
// CHECK-NEXT: %[[DE:.*]] = tp.masked_fill.Scalar %[[YL]], %[[M]] {
// CHECK-NEXT: %[[GE:.*]] = tp.mul %[[T]], %[[DE]] {
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GE]] :
func.func @pow(%a: tensor<4xf32> {tp.requires_grad}, %e: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.pow %a, %e : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// pow.Tensor_Scalar with an integer exponent 3 (x^3): x̄ = (t * x^2) * 3, the
// exponent e - 1 staying an integer.
// CHECK-LABEL: func.func @cube
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.pow.Tensor_Scalar %[[X]] {other = 3 : i64{{.*}}}
// CHECK-NEXT: %[[X2:.*]] = tp.pow.Tensor_Scalar %[[X]] {other = 2 : i64{{.*}}}
// CHECK-NEXT: %[[TX2:.*]] = tp.mul %[[T]], %[[X2]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul.Scalar %[[TX2]] {other = 3.000000e+00 : f64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @cube(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.pow.Tensor_Scalar %x {other = 3 : i64} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// sub with alpha and a broadcast left operand: ā sums t over the broadcast
// dim (keepdim, already a's shape); b̄ = -alpha * t.
// CHECK-LABEL: func.func @sub
// CHECK-SAME: (%[[A:.*]]: tensor<3x1xf32> {tp.requires_grad}, %[[B:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.sub %[[A]], %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.sum %[[T]] {dims = array<i64: 1>, keepdim = true{{.*}}} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[GB:.*]] = tp.mul.Scalar %[[T]] {other = -3.000000e+00 : f64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @sub(%a: tensor<3x1xf32> {tp.requires_grad}, %b: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y = tp.sub %a, %b {alpha = 3 : i64} : tensor<3x1xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// where: the adjoint goes to the selected operand (zeroed where the other
// one was selected); the condition gets nothing.
// CHECK-LABEL: func.func @where
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.where %[[C]], %[[A]], %[[B]] {
// CHECK-NEXT: %[[NC:.*]] = tp.logical_not %[[C]] {
// CHECK-NEXT: %[[GA:.*]] = tp.masked_fill.Scalar %[[T]], %[[NC]] {{.*}}value = 0.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[GB:.*]] = tp.masked_fill.Scalar %[[T]], %[[C]] {{.*}}value = 0.000000e+00 : f64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @where(%c: tensor<4xi1>, %a: tensor<4xf32> {tp.requires_grad}, %b: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// maximum: eager's where(a == b, t / 2, t) selected to 0 where the operand
// loses (a < b for ā, a > b for b̄): a select, not a 0/1 factor, so that an
// infinite t gives 0, not NaN, where the operand is not taken.
// CHECK-LABEL: func.func @maximum
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.maximum %[[A]], %[[B]] {
// CHECK-NEXT: %[[LT:.*]] = tp.lt %[[A]], %[[B]] {
// CHECK-NEXT: %[[EQ:.*]] = tp.eq %[[A]], %[[B]] {
// CHECK-NEXT: %[[HALF:.*]] = tp.full {{.*}}value = 5.000000e-01 : f64{{.*}} : tensor<f32>
// CHECK-NEXT: %[[ONE:.*]] = tp.full {{.*}}value = 1.000000e+00 : f64{{.*}} : tensor<f32>
// CHECK-NEXT: %[[DA:.*]] = tp.where %[[EQ]], %[[HALF]], %[[ONE]] {
// CHECK-NEXT: %[[KEEPA:.*]] = tp.logical_not %[[LT]] {
// CHECK-NEXT: %[[TA:.*]] = tp.mul %[[T]], %[[DA]] {
// CHECK-NEXT: %[[ZERO:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64{{.*}} : tensor<f32>
// CHECK-NEXT: %[[GA:.*]] = tp.where %[[KEEPA]], %[[TA]], %[[ZERO]] {
// CHECK-NEXT: %[[GT:.*]] = tp.gt %[[A]], %[[B]] {
// CHECK:      %[[KEEPB:.*]] = tp.logical_not %[[GT]] {
// CHECK:      %[[GB:.*]] = tp.where %[[KEEPB]], %{{.*}}, %{{.*}} {
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @maximum(%a: tensor<4xf32> {tp.requires_grad}, %b: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.maximum %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// clamp: t selected where min <= x <= max (closed interval), 0 elsewhere.
// CHECK-LABEL: func.func @clamp
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.clamp %[[X]] {
// CHECK-NEXT: %[[GE:.*]] = tp.ge.Scalar %[[X]] {other = -5.000000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[LE:.*]] = tp.le.Scalar %[[X]] {other = 5.000000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[IN:.*]] = tp.logical_and %[[GE]], %[[LE]] {
// CHECK-NEXT: %[[ZERO:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64{{.*}} : tensor<f32>
// CHECK-NEXT: %[[G:.*]] = tp.where %[[IN]], %[[T]], %[[ZERO]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @clamp(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.clamp %x {min = -0.5 : f64, max = 0.5 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// abs: x̄ = t * sgn(x).
// CHECK-LABEL: func.func @abs
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.abs %[[X]] {
// CHECK-NEXT: %[[S:.*]] = tp.sgn %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[S]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @abs(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.abs %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Rounding ops have a zero derivative: no backward op, a zero gradient.
// CHECK-LABEL: func.func @floor
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.floor %[[X]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<4xf32>
// CHECK-NEXT: return %[[Y]], %[[Z]] :
func.func @floor(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.floor %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// A constant factor 0 is not a structural zero: the gradient is multiplied
// by it, as PyTorch does, so sqrt'(0) = inf further back still gives
// 0 * inf = NaN (a dropped term would give 0).
// CHECK-LABEL: func.func @times_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[S:.*]] = tp.sqrt %[[X]] {
// CHECK-NEXT: %[[Y:.*]] = tp.mul.Scalar %[[S]] {other = 0.000000e+00 : f64
// CHECK-NEXT: %[[G:.*]] = tp.mul.Scalar %[[T]] {other = 0.000000e+00 : f64
// CHECK-NEXT: %[[D:.*]] = tp.mul.Scalar %[[S]] {other = 2.000000e+00 : f64
// CHECK-NEXT: %[[R:.*]] = tp.div %[[G]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[R]] :
func.func @times_zero(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %s = tp.sqrt %x : tensor<4xf32> -> tensor<4xf32>
  %y = tp.mul.Scalar %s {other = 0.0 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
