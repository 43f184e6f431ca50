// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// Pointwise backward operators.

// CHECK-LABEL: func.func @gelu_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[A:.*]] = tp.mul.Scalar %[[X]] {other = 0.70710678118654757 : f64}
// CHECK-NEXT: %[[E:.*]] = tp.erf %[[A]]
// CHECK-NEXT: %[[E1:.*]] = tp.add.Scalar %[[E]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[CDF:.*]] = tp.mul.Scalar %[[E1]] {other = 5.000000e-01 : f64}
// CHECK-NEXT: %[[H:.*]] = tp.mul.Scalar %[[X]] {other = -5.000000e-01 : f64}
// CHECK-NEXT: %[[HX:.*]] = tp.mul %[[H]], %[[X]]
// CHECK-NEXT: %[[EX:.*]] = tp.exp %[[HX]]
// CHECK-NEXT: %[[PDF:.*]] = tp.mul.Scalar %[[EX]] {other = 0.3989422804014327 : f64}
// CHECK-NEXT: %[[XP:.*]] = tp.mul %[[X]], %[[PDF]]
// CHECK-NEXT: %[[S:.*]] = tp.add %[[CDF]], %[[XP]]
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[G]], %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @gelu_backward(%g: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.gelu_backward %g, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 3 * kappa is a product rounded in the computation type: a 0-d tensor.
// CHECK-LABEL: func.func @gelu_backward_tanh
// CHECK: %[[K:.*]] = tp.full {value = 4.471500e-02 : f64} : tensor<f32>
// CHECK-NEXT: %[[K3:.*]] = tp.mul.Scalar %[[K]] {other = 3.000000e+00 : f64} : tensor<f32> -> tensor<f32>
// CHECK-NEXT: tp.mul %[[K3]], %{{.*}} : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NOT: tp.gelu_backward
// CHECK-NOT: tp.rsub
// CHECK: return
func.func @gelu_backward_tanh(%g: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.gelu_backward %g, %x {approximate = #tp.approximate<tanh>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @threshold_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = tp.le.Scalar %[[X]] {other = 0.000000e+00 : f64}
// CHECK-NEXT: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = tp.where %[[C]], %[[Z]], %[[G]]
// CHECK-NEXT: return %[[R]]
func.func @threshold_backward(%g: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.threshold_backward %g, %x {threshold = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 1 - y*y: rsub.Scalar is decomposed in turn.
// CHECK-LABEL: func.func @tanh_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[YY:.*]] = tp.mul %[[Y]], %[[Y]]
// CHECK-NEXT: %[[N:.*]] = tp.neg %[[YY]]
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[N]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[G]], %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @tanh_backward(%g: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.tanh_backward %g, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// (g * (1 - y)) * y.
// CHECK-LABEL: func.func @sigmoid_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[N:.*]] = tp.neg %[[Y]]
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[N]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[GD:.*]] = tp.mul %[[G]], %[[D]]
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[GD]], %[[Y]]
// CHECK-NEXT: return %[[R]]
func.func @sigmoid_backward(%g: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.sigmoid_backward %g, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The sigmoid it builds is decomposed too.
// CHECK-LABEL: func.func @silu_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[S:.*]] = tp.reciprocal
// CHECK: %[[N:.*]] = tp.neg %[[S]]
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[N]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[XD:.*]] = tp.mul %[[X]], %[[D]]
// CHECK-NEXT: %[[I:.*]] = tp.add.Scalar %[[XD]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[SI:.*]] = tp.mul %[[S]], %[[I]]
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[G]], %[[SI]]
// CHECK-NEXT: return %[[R]]
func.func @silu_backward(%g: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.silu_backward %g, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @dropout_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[M:.*]]: tensor<4xi1>)
// CHECK-NEXT: %[[MF:.*]] = tp._to_copy %[[M]] {dtype = f32} : tensor<4xi1> -> tensor<4xf32>
// CHECK-NEXT: %[[GM:.*]] = tp.mul %[[G]], %[[MF]]
// CHECK-NEXT: %[[R:.*]] = tp.mul.Scalar %[[GM]] {other = 2.000000e+00 : f64}
// CHECK-NEXT: return %[[R]]
func.func @dropout_backward(%g: tensor<4xf32>, %m: tensor<4xi1>) -> tensor<4xf32> {
  %0 = tp.native_dropout_backward %g, %m {scale = 2.0 : f64} : (tensor<4xf32>, tensor<4xi1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// mse_loss_backward with mean: norm = 2 / numel(self).
// CHECK-LABEL: func.func @mse_loss_backward
// CHECK-SAME: (%[[G:.*]]: tensor<f32>, %[[A:.*]]: tensor<4x2xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[A]], %[[B]]
// CHECK-NEXT: %[[N:.*]] = tp.mul.Scalar %[[D]] {other = 2.500000e-01 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[N]], %[[G]] : tensor<4x2xf32>, tensor<f32> -> tensor<4x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @mse_loss_backward(%g: tensor<f32>, %a: tensor<4x2xf32>, %b: tensor<2xf32>) -> tensor<4x2xf32> {
  %0 = tp.mse_loss_backward %g, %a, %b : (tensor<f32>, tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
