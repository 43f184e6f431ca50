// RUN: stax-opt %s --stax-jvp | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-jvp="function=softmax_values" | stax-run - --entry=softmax_values --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=SOFTMAX

// The JVPs of NNRules.cpp (--stax-jvp): closed forms for the softmaxes,
// layer norm (all three results) and mse_loss, forward mode through the
// decomposition for nll_loss, eager's backward operators (linear in
// grad_output) plus second-derivative terms, and dropout under its mask.
// %T... are the tangent arguments.

// Inputs for the value check: a constant row (softmax 1/4 each) and a
// one-hot tangent.
func.func @inputs() -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %x = tp.full {value = 0.0 : f64} : tensor<1x4xf32>
  %t = tp.constant dense<[[1.0, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  return %x, %t : tensor<1x4xf32>, tensor<1x4xf32>
}

// softmax: ẏ = y * (ẋ - sum(ẋ * y)) (the Jacobian is symmetric).
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp._softmax %[[X]] {dim = 1 : i64} :
// CHECK-NEXT: %[[TY:.*]] = tp.mul %[[T]], %[[Y]] :
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[TY]] {dims = array<i64: 1>, keepdim = true} :
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[T]], %[[S]] :
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[Y]], %[[D]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @softmax(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %y = tp._softmax %x {dim = 1 : i64} : tensor<3x5xf32> -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// y = 1/4: ẏ = 1/4 * ([1, 0, 0, 0] - 1/4).
// SOFTMAX: result #1: tensor<1x4xf32>
// SOFTMAX-NEXT: [0.1875, -0.0625, -0.0625, -0.0625]
func.func @softmax_values(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %y = tp._softmax %x {dim = -1 : i64} : tensor<1x4xf32> -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// log_softmax: ẏ = ẋ - sum(exp(y) * ẋ).
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>, %[[T:.*]]: tensor<3x5xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp._log_softmax %[[X]] {dim = -1 : i64} :
// CHECK-NEXT: %[[P:.*]] = tp.exp %[[Y]] :
// CHECK-NEXT: %[[PT:.*]] = tp.mul %[[P]], %[[T]] :
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[PT]] {dims = array<i64: 1>, keepdim = true} :
// CHECK-NEXT: %[[DY:.*]] = tp.sub %[[T]], %[[S]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @log_softmax(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %y = tp._log_softmax %x {dim = -1 : i64} : tensor<3x5xf32> -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// native_layer_norm with all three results returned (M = 4):
// ṁean = mean(ẋ), ṙstd = -rstd^3 * mean(xc * (ẋ - ṁean)),
// ẋhat = (ẋ - ṁean) * rstd + xc * ṙstd, ȯut = ẋhat * w + xhat * ẇ + ḃ.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[W:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[TX:.*]]: tensor<3x4xf32> {tp.tangent}, %[[TW:.*]]: tensor<4xf32> {tp.tangent}, %[[TB:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[OUT:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = tp.native_layer_norm %[[X]] weight(%[[W]]) bias(%[[B]])
// CHECK-NEXT: %[[XC:.*]] = tp.sub %[[X]], %[[MEAN]] :
// CHECK-NEXT: %[[SX:.*]] = tp.sum %[[TX]] {dims = array<i64: 1>, keepdim = true} :
// CHECK-NEXT: %[[DMEAN:.*]] = tp.mul.Scalar %[[SX]] {other = 2.500000e-01 : f64} :
// CHECK-NEXT: %[[DXC:.*]] = tp.sub %[[TX]], %[[DMEAN]] :
// CHECK-NEXT: %[[P:.*]] = tp.mul %[[XC]], %[[DXC]] :
// CHECK-NEXT: %[[SP:.*]] = tp.sum %[[P]] {dims = array<i64: 1>, keepdim = true} :
// CHECK-NEXT: %[[HDVAR:.*]] = tp.mul.Scalar %[[SP]] {other = 2.500000e-01 : f64} :
// CHECK-NEXT: %[[R2:.*]] = tp.mul %[[RSTD]], %[[RSTD]] :
// CHECK-NEXT: %[[R3:.*]] = tp.mul %[[RSTD]], %[[R2]] :
// CHECK-NEXT: %[[R3H:.*]] = tp.mul %[[R3]], %[[HDVAR]] :
// CHECK-NEXT: %[[DRSTD:.*]] = tp.neg %[[R3H]] :
// CHECK-NEXT: %[[A1:.*]] = tp.mul %[[DXC]], %[[RSTD]] :
// CHECK-NEXT: %[[A2:.*]] = tp.mul %[[XC]], %[[DRSTD]] :
// CHECK-NEXT: %[[DXHAT:.*]] = tp.add %[[A1]], %[[A2]] :
// CHECK-NEXT: %[[O1:.*]] = tp.mul %[[DXHAT]], %[[W]] :
// CHECK-NEXT: %[[XHAT:.*]] = tp.mul %[[XC]], %[[RSTD]] :
// CHECK-NEXT: %[[O2:.*]] = tp.mul %[[XHAT]], %[[TW]] :
// CHECK-NEXT: %[[O12:.*]] = tp.add %[[O1]], %[[O2]] :
// CHECK-NEXT: %[[DOUT:.*]] = tp.add %[[O12]], %[[TB]] :
// CHECK-NEXT: return %[[OUT]], %[[MEAN]], %[[RSTD]], %[[DOUT]], %[[DMEAN]], %[[DRSTD]] :
func.func @layer_norm(%x: tensor<3x4xf32>, %w: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>) {
  %y:3 = tp.native_layer_norm %x weight(%w) bias(%b) {normalized_shape = array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>
}

// nll_loss (mean) in forward mode over its decomposition: the tangent of
// the loss is -sum(where(kept, gather(ẋ, targets) * weight, 0)) /
// total_weight (eager skips ignored samples, whose picked value may be
// infinite). Only the integer target has no tangent argument.
// CHECK-LABEL: func.func @nll_loss
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>, %[[C:.*]]: tensor<4xi64>, %[[T:.*]]: tensor<4x5xf32> {tp.tangent}) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[OUT:.*]], %{{.*}} = tp.nll_loss_forward %[[X]], %[[C]]
// CHECK: %[[KEPT:.*]] = tp.ne.Scalar %[[C]] {other = -100 : i64}
// CHECK: %[[IDX:.*]] = tp.view %{{.*}} {size = array<i64: 4, 1>} : tensor<4xi64> -> tensor<4x1xi64>
// CHECK-NEXT: %[[WT:.*]] = tp._to_copy %[[KEPT]] {dtype = f32} : tensor<4xi1> -> tensor<4xf32>
// CHECK: %[[TW:.*]] = tp.sum %[[WT]] {dims = array<i64>} :
// CHECK: %[[G:.*]] = tp.gather %[[T]], %[[IDX]] {dim = 1 : i64} :
// CHECK-NEXT: %[[G1:.*]] = tp.view %[[G]] {size = array<i64: 4>} :
// CHECK-NEXT: %[[GW:.*]] = tp.mul %[[G1]], %[[WT]] :
// CHECK-NEXT: %[[NEG:.*]] = tp.mul.Scalar %[[GW]] {other = -1.000000e+00 : f64} :
// CHECK-NEXT: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = tp.where %[[KEPT]], %[[NEG]], %[[Z]] :
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[M]] {dims = array<i64>} :
// CHECK-NEXT: %[[DL:.*]] = tp.div %[[S]], %[[TW]] :
// CHECK-NEXT: return %[[OUT]], %[[DL]] :
func.func @nll_loss(%x: tensor<4x5xf32>, %c: tensor<4xi64>) -> tensor<f32> {
  %y:2 = tp.nll_loss_forward %x, %c : (tensor<4x5xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
  return %y#0 : tensor<f32>
}

// mse_loss (mean over 12): ẏ = sum(2/12 * (a - b) * (ȧ - ḃ)).
// CHECK-LABEL: func.func @mse_loss
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[TA:.*]]: tensor<3x4xf32> {tp.tangent}, %[[TB:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mse_loss %[[A]], %[[B]] :
// CHECK-NEXT: %[[DD:.*]] = tp.sub %[[TA]], %[[TB]] :
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[A]], %[[B]] :
// CHECK-NEXT: %[[ND:.*]] = tp.mul.Scalar %[[D]] {other = 0.16666666666666666 : f64} :
// CHECK-NEXT: %[[P:.*]] = tp.mul %[[ND]], %[[DD]] :
// CHECK-NEXT: %[[DY:.*]] = tp.sum %[[P]] {dims = array<i64>} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @mse_loss(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<f32> {
  %y = tp.mse_loss %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// native_dropout: the tangent goes through the forward's mask; the bool
// mask result gets no tangent.
// CHECK-LABEL: func.func @native_dropout
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent}) -> (tensor<3x4xf32>, tensor<3x4xi1>, tensor<3x4xf32>)
// CHECK-NEXT: %[[OUT:.*]], %[[MASK:.*]] = tp.native_dropout %[[X]]
// CHECK-NEXT: %[[DY:.*]] = tp.native_dropout_backward %[[T]], %[[MASK]] {scale = 2.000000e+00 : f64} :
// CHECK-NEXT: return %[[OUT]], %[[MASK]], %[[DY]] :
func.func @native_dropout(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xi1>) {
  %y:2 = tp.native_dropout %x {p = 0.5 : f64} : tensor<3x4xf32> -> tensor<3x4xf32>, tensor<3x4xi1>
  return %y#0, %y#1 : tensor<3x4xf32>, tensor<3x4xi1>
}

// gelu_backward(g, x): ṙ = gelu_backward(ġ, x) + (ẋ * g) * gelu''(x).
// CHECK-LABEL: func.func @gelu_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf32>, %[[TG:.*]]: tensor<4xf32> {tp.tangent}, %[[TX:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[R:.*]] = tp.gelu_backward %[[G]], %[[X]] :
// CHECK-NEXT: %[[R1:.*]] = tp.gelu_backward %[[TG]], %[[X]] :
// CHECK-NEXT: %[[X2:.*]] = tp.mul %[[X]], %[[X]] :
// CHECK-NEXT: %[[H:.*]] = tp.mul.Scalar %[[X2]] {other = -5.000000e-01 : f64} :
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[H]] :
// CHECK-NEXT: %[[PHI:.*]] = tp.mul.Scalar %[[E]] {other = 0.3989422804014327 : f64} :
// CHECK-NEXT: %[[NX2:.*]] = tp.neg %[[X2]] :
// CHECK-NEXT: %[[TWO:.*]] = tp.add.Scalar %[[NX2]] {other = 2.000000e+00 : f64} :
// CHECK-NEXT: %[[D2:.*]] = tp.mul %[[PHI]], %[[TWO]] :
// CHECK-NEXT: %[[XG:.*]] = tp.mul %[[TX]], %[[G]] :
// CHECK-NEXT: %[[R2:.*]] = tp.mul %[[XG]], %[[D2]] :
// CHECK-NEXT: %[[DR:.*]] = tp.add %[[R1]], %[[R2]] :
// CHECK-NEXT: return %[[R]], %[[DR]] :
func.func @gelu_backward(%g: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tp.gelu_backward %g, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
