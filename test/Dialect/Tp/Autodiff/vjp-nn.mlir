// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=cross_entropy --input=%t/result0.npy --input=%t/result1.npy --input=%t/result2.npy --print-values | FileCheck %s --check-prefix=XENT

// The VJPs of NNRules.cpp (--stax-joint-graph): softmaxes and layer norm in
// closed form over primitives, nll_loss through its decomposition (gather ->
// scatter_add), the pointwise backward operators (second derivatives), and
// dropout under its drawn mask. %T is the adjoint of the result. The phase
// attribute is not matched.

// Inputs for the value check (no requires_grad: left alone). Row 0 of x has
// softmax [1/3, 1/3, 1/3], row 1 (0, ln 2, 0) has [1/4, 1/2, 1/4].
func.func @inputs() -> (tensor<2x3xf64>, tensor<2xi64>, tensor<f64>) {
  %x = tp.constant dense<[[0.0, 0.0, 0.0], [0.0, 0.69314718055994530942, 0.0]]> : tensor<2x3xf64>
  %c = tp.constant dense<[2, 1]> : tensor<2xi64>
  %t = tp.constant dense<2.0> : tensor<f64>
  return %x, %c, %t : tensor<2x3xf64>, tensor<2xi64>, tensor<f64>
}

// softmax: x̄ = y * (t - sum(t * y)), y the forward result.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp._softmax %[[X]] {
// CHECK-NEXT: %[[TY:.*]] = tp.mul %[[T]], %[[Y]] {
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[TY]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[T]], %[[S]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[Y]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @softmax(%x: tensor<3x5xf32> {tp.requires_grad}) -> tensor<3x5xf32> {
  %y = tp._softmax %x {dim = 1 : i64} : tensor<3x5xf32> -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// log_softmax (dim -1 normalized to 1): x̄ = t - exp(y) * sum(t).
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp._log_softmax %[[X]] {
// CHECK-NEXT: %[[P:.*]] = tp.exp %[[Y]] {
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[T]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[PS:.*]] = tp.mul %[[P]], %[[S]] {
// CHECK-NEXT: %[[G:.*]] = tp.sub %[[T]], %[[PS]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @log_softmax(%x: tensor<3x5xf32> {tp.requires_grad}) -> tensor<3x5xf32> {
  %y = tp._log_softmax %x {dim = -1 : i64} : tensor<3x5xf32> -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// native_layer_norm over the last dim (M = 4), from the saved mean and rstd:
// xhat = (x - mean) * rstd, dxhat = t * w,
// x̄ = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)),
// w̄ = sum_0(t * xhat), b̄ = sum_0(t).
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[W:.*]]: tensor<4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[OUT:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = tp.native_layer_norm %[[X]] weight(%[[W]]) bias(%[[B]]) {
// CHECK-NEXT: %[[XC:.*]] = tp.sub %[[X]], %[[MEAN]] {
// CHECK-NEXT: %[[XHAT:.*]] = tp.mul %[[XC]], %[[RSTD]] {
// CHECK-NEXT: %[[DXHAT:.*]] = tp.mul %[[T]], %[[W]] {
// CHECK-NEXT: %[[SA:.*]] = tp.sum %[[DXHAT]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[A:.*]] = tp.mul.Scalar %[[SA]] {other = 2.500000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[DX:.*]] = tp.mul %[[DXHAT]], %[[XHAT]] {
// CHECK-NEXT: %[[SC:.*]] = tp.sum %[[DX]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[C:.*]] = tp.mul.Scalar %[[SC]] {other = 2.500000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[D1:.*]] = tp.sub %[[DXHAT]], %[[A]] {
// CHECK-NEXT: %[[XC2:.*]] = tp.mul %[[XHAT]], %[[C]] {
// CHECK-NEXT: %[[D2:.*]] = tp.sub %[[D1]], %[[XC2]] {
// CHECK-NEXT: %[[GX:.*]] = tp.mul %[[RSTD]], %[[D2]] {
// CHECK-NEXT: %[[TXHAT:.*]] = tp.mul %[[T]], %[[XHAT]] {
// CHECK-NEXT: %[[SW:.*]] = tp.sum %[[TXHAT]] {dims = array<i64: 0>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[GW:.*]] = tp.view %[[SW]] {size = array<i64: 4>{{.*}}}
// CHECK-NEXT: %[[SB:.*]] = tp.sum %[[T]] {dims = array<i64: 0>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[GB:.*]] = tp.view %[[SB]] {size = array<i64: 4>{{.*}}}
// CHECK-NEXT: return %[[OUT]], %[[GX]], %[[GW]], %[[GB]] :
func.func @layer_norm(%x: tensor<3x4xf32> {tp.requires_grad}, %w: tensor<4xf32> {tp.requires_grad}, %b: tensor<4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y:3 = tp.native_layer_norm %x weight(%w) bias(%b) {normalized_shape = array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>)
  return %y#0 : tensor<3x4xf32>
}

// nll_loss (mean, ignore_index -100) through its decomposition: the
// per-sample weight is (target != -100); x̄ scatter-adds
// -(t / total_weight) * weight, zeroed at ignored samples (eager writes
// the kept ones only: all ignored gives 0, not 0 * (t / 0)), into zeros
// at the (safe) targets.
// CHECK-LABEL: func.func @nll_loss
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32> {tp.requires_grad}, %[[C:.*]]: tensor<4xi64>, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[OUT:.*]], %[[TW:.*]] = tp.nll_loss_forward %[[X]], %[[C]] {
// CHECK-NEXT: %[[IGN:.*]] = tp.eq.Scalar %[[C]] {other = -100 : i64{{.*}}}
// CHECK-NEXT: %[[KEPT:.*]] = tp.ne.Scalar %[[C]] {other = -100 : i64{{.*}}}
// CHECK-NEXT: %[[SAFE:.*]] = tp.masked_fill.Scalar %[[C]], %[[IGN]] {
// CHECK-NEXT: %[[IDX:.*]] = tp.view %[[SAFE]] {size = array<i64: 4, 1>{{.*}}}
// CHECK-NEXT: %[[WT:.*]] = tp._to_copy %[[KEPT]] {dtype = f32{{.*}}}
// CHECK-NEXT: %[[SUMW:.*]] = tp.sum %[[WT]] {dims = array<i64>{{.*}}}
// CHECK-NEXT: %[[TN:.*]] = tp.div %[[T]], %[[SUMW]] {
// CHECK-NEXT: %[[TE:.*]] = tp.expand %[[TN]] {size = array<i64: 4>{{.*}}}
// CHECK-NEXT: %[[IGN2:.*]] = tp.logical_not %[[KEPT]] {
// CHECK-NEXT: %[[TK:.*]] = tp.masked_fill.Scalar %[[TE]], %[[IGN2]] {{{.*}}value = 0.000000e+00 : f64}
// CHECK-NEXT: %[[NEG:.*]] = tp.mul.Scalar %[[TK]] {other = -1.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[V:.*]] = tp.mul %[[NEG]], %[[WT]] {
// CHECK-NEXT: %[[V2:.*]] = tp.view %[[V]] {size = array<i64: 4, 1>{{.*}}}
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}} : tensor<4x5xf32>
// CHECK-NEXT: %[[G:.*]] = tp.scatter_add %[[Z]], %[[IDX]], %[[V2]] {dim = 1 : i64{{.*}}}
// CHECK-NEXT: return %[[OUT]], %[[G]] :
func.func @nll_loss(%x: tensor<4x5xf32> {tp.requires_grad}, %c: tensor<4xi64>) -> tensor<f32> {
  %y:2 = tp.nll_loss_forward %x, %c : (tensor<4x5xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
  return %y#0 : tensor<f32>
}

// Cross entropy, log_softmax then nll_loss: the scatter_add of the loss
// feeds the log_softmax rule.
// CHECK-LABEL: func.func @cross_entropy
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf64> {tp.requires_grad}, %[[C:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<f64> {tp.tangent})
// CHECK-NEXT: %[[L:.*]] = tp._log_softmax %[[X]] {
// CHECK-NEXT: %[[OUT:.*]], %{{.*}} = tp.nll_loss_forward %[[L]], %[[C]] {
// CHECK: %[[GL:.*]] = tp.scatter_add
// CHECK-NEXT: %[[P:.*]] = tp.exp %[[L]] {
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[GL]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[PS:.*]] = tp.mul %[[P]], %[[S]] {
// CHECK-NEXT: %[[G:.*]] = tp.sub %[[GL]], %[[PS]] {
// CHECK-NEXT: return %[[OUT]], %[[G]] :
// The loss is (ln 3 + ln 2) / 2; x̄ = t / N * (softmax(x) - onehot(c)) with
// t = 2, N = 2.
// XENT: result #0: tensor<f64>
// XENT-NEXT: [0.895879735]
// XENT: result #1: tensor<2x3xf64>
// XENT-NEXT: [0.333333333, 0.333333333, -0.666666667, 0.25, -0.5, 0.25]
func.func @cross_entropy(%x: tensor<2x3xf64> {tp.requires_grad}, %c: tensor<2xi64>) -> tensor<f64> {
  %l = tp._log_softmax %x {dim = 1 : i64} : tensor<2x3xf64> -> tensor<2x3xf64>
  %y:2 = tp.nll_loss_forward %l, %c : (tensor<2x3xf64>, tensor<2xi64>) -> (tensor<f64>, tensor<f64>)
  return %y#0 : tensor<f64>
}

// mse_loss (mean over 12 elements): ā = (2/12 * (a - b)) * t, b̄ = -ā.
// CHECK-LABEL: func.func @mse_loss
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[B:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mse_loss %[[A]], %[[B]] {
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[A]], %[[B]] {
// CHECK-NEXT: %[[ND:.*]] = tp.mul.Scalar %[[D]] {other = 0.16666666666666666 : f64{{.*}}}
// CHECK-NEXT: %[[GA:.*]] = tp.mul %[[ND]], %[[T]] {
// CHECK-NEXT: %[[GB:.*]] = tp.neg %[[GA]] {
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @mse_loss(%a: tensor<3x4xf32> {tp.requires_grad}, %b: tensor<3x4xf32> {tp.requires_grad}) -> tensor<f32> {
  %y = tp.mse_loss %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// native_dropout: linear under the drawn mask, scaled by 1 / (1 - p).
// CHECK-LABEL: func.func @native_dropout
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[OUT:.*]], %[[MASK:.*]] = tp.native_dropout %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.native_dropout_backward %[[T]], %[[MASK]] {scale = 2.000000e+00 : f64{{.*}}}
// CHECK-NEXT: return %[[OUT]], %[[G]] :
func.func @native_dropout(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y:2 = tp.native_dropout %x {p = 0.5 : f64} : tensor<3x4xf32> -> tensor<3x4xf32>, tensor<3x4xi1>
  return %y#0 : tensor<3x4xf32>
}

// gelu_backward (erf form) is linear in grad_output: ḡ = gelu_backward(t, x);
// x̄ = (t * g) * gelu''(x), gelu''(x) = phi(x) * (2 - x^2).
// CHECK-LABEL: func.func @gelu_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32> {tp.requires_grad}, %[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.gelu_backward %[[G]], %[[X]] {
// CHECK-NEXT: %[[GG:.*]] = tp.gelu_backward %[[T]], %[[X]] {
// CHECK-NEXT: %[[X2:.*]] = tp.mul %[[X]], %[[X]] {
// CHECK-NEXT: %[[H:.*]] = tp.mul.Scalar %[[X2]] {other = -5.000000e-01 : f64{{.*}}}
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[H]] {
// CHECK-NEXT: %[[PHI:.*]] = tp.mul.Scalar %[[E]] {other = 0.3989422804014327 : f64{{.*}}}
// CHECK-NEXT: %[[NX2:.*]] = tp.neg %[[X2]] {
// CHECK-NEXT: %[[TWO:.*]] = tp.add.Scalar %[[NX2]] {other = 2.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[D2:.*]] = tp.mul %[[PHI]], %[[TWO]] {
// CHECK-NEXT: %[[TG:.*]] = tp.mul %[[T]], %[[G]] {
// CHECK-NEXT: %[[GX:.*]] = tp.mul %[[TG]], %[[D2]] {
// CHECK-NEXT: return %[[Y]], %[[GG]], %[[GX]] :
func.func @gelu_backward(%g: tensor<4xf32> {tp.requires_grad}, %x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.gelu_backward %g, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// tanh_backward r = g * (1 - y^2): ḡ = tanh_backward(t, y), ȳ = (t * g) * (-2 y).
// CHECK-LABEL: func.func @tanh_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32> {tp.requires_grad}, %[[Y:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[R:.*]] = tp.tanh_backward %[[G]], %[[Y]] {
// CHECK-NEXT: %[[GG:.*]] = tp.tanh_backward %[[T]], %[[Y]] {
// CHECK-NEXT: %[[M2Y:.*]] = tp.mul.Scalar %[[Y]] {other = -2.000000e+00 : f64{{.*}}}
// CHECK-NEXT: %[[TG:.*]] = tp.mul %[[T]], %[[G]] {
// CHECK-NEXT: %[[GY:.*]] = tp.mul %[[TG]], %[[M2Y]] {
// CHECK-NEXT: return %[[R]], %[[GG]], %[[GY]] :
func.func @tanh_backward(%g: tensor<4xf32> {tp.requires_grad}, %y: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %r = tp.tanh_backward %g, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// _softmax_backward_data r = y * (g - sum(g * y)):
// ḡ = y * (t - sum(t * y)), ȳ = t * (g - sum(g * y)) - g * sum(t * y).
// CHECK-LABEL: func.func @softmax_backward_data
// CHECK-SAME: (%[[G:.*]]: tensor<3x5xf32> {tp.requires_grad}, %[[Y:.*]]: tensor<3x5xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[R:.*]] = tp._softmax_backward_data %[[G]], %[[Y]] {
// CHECK-NEXT: %[[TY:.*]] = tp.mul %[[T]], %[[Y]] {
// CHECK-NEXT: %[[STY:.*]] = tp.sum %[[TY]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[GY:.*]] = tp.mul %[[G]], %[[Y]] {
// CHECK-NEXT: %[[SGY:.*]] = tp.sum %[[GY]] {dims = array<i64: 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[D1:.*]] = tp.sub %[[T]], %[[STY]] {
// CHECK-NEXT: %[[GG:.*]] = tp.mul %[[Y]], %[[D1]] {
// CHECK-NEXT: %[[D2:.*]] = tp.sub %[[G]], %[[SGY]] {
// CHECK-NEXT: %[[P1:.*]] = tp.mul %[[T]], %[[D2]] {
// CHECK-NEXT: %[[P2:.*]] = tp.mul %[[G]], %[[STY]] {
// CHECK-NEXT: %[[GYBAR:.*]] = tp.sub %[[P1]], %[[P2]] {
// CHECK-NEXT: return %[[R]], %[[GG]], %[[GYBAR]] :
func.func @softmax_backward_data(%g: tensor<3x5xf32> {tp.requires_grad}, %y: tensor<3x5xf32> {tp.requires_grad}) -> tensor<3x5xf32> {
  %r = tp._softmax_backward_data %g, %y {dim = 1 : i64} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
