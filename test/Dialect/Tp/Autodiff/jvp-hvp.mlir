// RUN: stax-opt %s --stax-joint-graph | stax-opt --stax-jvp="function=cube wrt=0" | FileCheck %s --check-prefix=CHECK-CUBE
// RUN: stax-opt %s --stax-joint-graph | stax-opt --stax-jvp="function=tanh_sum wrt=0" | FileCheck %s --check-prefix=CHECK-TANH
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-opt --stax-jvp="function=cube wrt=0" | stax-run - --entry=cube --input=%t/result0.npy --input=%t/result1.npy --input=%t/result2.npy --print-values | FileCheck %s --check-prefix=CHECK-CUBE-VAL
// RUN: stax-opt %s --stax-joint-graph | stax-opt --stax-jvp="function=tanh_sum wrt=0" | stax-run - --entry=tanh_sum --input=%t/result3.npy --input=%t/result1.npy --input=%t/result4.npy --print-values | FileCheck %s --check-prefix=CHECK-TANH-VAL

// Forward over reverse: --stax-jvp on the output of --stax-joint-graph,
// with a tangent V for the primal x only (wrt=0, not for the adjoint seed
// T), gives the Hessian-vector product: the joint function returns
// (f, ∇f · T) and its JVP appends (ḟ = <∇f, V>, H V · T). The result is no
// joint graph: --stax-jvp drops the phase marks.

// Inputs for the value checks: x, T = 2, V for @cube; x and V for @tanh_sum.
func.func @inputs() -> (tensor<3xf64>, tensor<f64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) {
  %x = tp.constant dense<[1.0, 2.0, -1.0]> : tensor<3xf64>
  %t = tp.constant dense<2.0> : tensor<f64>
  %v = tp.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf64>
  %x2 = tp.constant dense<[0.0, 0.5, -1.0]> : tensor<3xf64>
  %v2 = tp.constant dense<1.0> : tensor<3xf64>
  return %x, %t, %v, %x2, %v2 : tensor<3xf64>, tensor<f64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>
}

// f = sum(x^3): ∇f = 3 x^2 T (pow with exponent 2), whose JVP is
// 3 (2 x V) T: the HVP is 6 x V T. The primal sum's JVP is a sum of the
// tangent (linear).
// CHECK-CUBE-LABEL: func.func @cube
// CHECK-CUBE-SAME: (%[[X:.*]]: tensor<3xf64> {tp.requires_grad}, %[[T:.*]]: tensor<f64> {tp.tangent}, %[[V:.*]]: tensor<3xf64> {tp.tangent})
// CHECK-CUBE-SAME: -> (tensor<f64>, tensor<3xf64>, tensor<f64>, tensor<3xf64>)
// CHECK-CUBE-NEXT: %[[C:.*]] = tp.pow.Tensor_Scalar %[[X]] {other = 3 : i64{{.*}}}
// CHECK-CUBE-NEXT: %[[X2:.*]] = tp.pow.Tensor_Scalar %[[X]] {other = 2 : i64{{.*}}}
// CHECK-CUBE-NEXT: %[[VX2:.*]] = tp.mul %[[V]], %[[X2]] :
// CHECK-CUBE-NEXT: %[[DC:.*]] = tp.mul.Scalar %[[VX2]] {other = 3.000000e+00 : f64{{.*}}}
// CHECK-CUBE-NEXT: %[[F:.*]] = tp.sum %[[C]]
// CHECK-CUBE-NEXT: %[[DF:.*]] = tp.sum %[[DC]]
// CHECK-CUBE-NEXT: %[[TE:.*]] = tp.expand %[[T]]
// CHECK-CUBE-NEXT: %[[X2B:.*]] = tp.pow.Tensor_Scalar %[[X]] {other = 2 : i64{{.*}}}
// CHECK-CUBE-NEXT: %[[VX:.*]] = tp.mul %[[V]], %[[X]] :
// CHECK-CUBE-NEXT: %[[D2:.*]] = tp.mul.Scalar %[[VX]] {other = 2.000000e+00 : f64{{.*}}}
// CHECK-CUBE-NEXT: %[[G0:.*]] = tp.mul %[[TE]], %[[X2B]]
// CHECK-CUBE-NEXT: %[[DG0:.*]] = tp.mul %[[D2]], %[[TE]] :
// CHECK-CUBE-NEXT: %[[G:.*]] = tp.mul.Scalar %[[G0]] {other = 3.000000e+00 : f64{{.*}}}
// CHECK-CUBE-NEXT: %[[HV:.*]] = tp.mul.Scalar %[[DG0]] {other = 3.000000e+00 : f64{{.*}}}
// CHECK-CUBE-NEXT: return %[[F]], %[[G]], %[[DF]], %[[HV]] :
// x = [1, 2, -1], T = 2, V = [1, 1, 2]: f = 8, ∇f = 6 x^2, ḟ = 3 <x^2, V> = 21,
// H V T = 12 x V.
// CHECK-CUBE-VAL: result #0: tensor<f64>
// CHECK-CUBE-VAL-NEXT: [8]
// CHECK-CUBE-VAL: result #1: tensor<3xf64>
// CHECK-CUBE-VAL-NEXT: [6, 24, 6]
// CHECK-CUBE-VAL: result #2: tensor<f64>
// CHECK-CUBE-VAL-NEXT: [21]
// CHECK-CUBE-VAL: result #3: tensor<3xf64>
// CHECK-CUBE-VAL-NEXT: [12, 24, -24]
func.func @cube(%x: tensor<3xf64> {tp.requires_grad}) -> tensor<f64> {
  %c = tp.pow.Tensor_Scalar %x {other = 3 : i64} : tensor<3xf64> -> tensor<3xf64>
  %s = tp.sum %c {dims = array<i64>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// f = sum(tanh(x)): ∇f = tanh_backward(T, y) = T (1 - y^2); its JVP in y
// is (ẏ T) (-2 y) with ẏ = tanh_backward(V, y) (the second derivative
// term of the tanh_backward rule).
// CHECK-TANH-LABEL: func.func @tanh_sum
// CHECK-TANH-SAME: (%[[X:.*]]: tensor<3xf64> {tp.requires_grad}, %[[T:.*]]: tensor<f64> {tp.tangent}, %[[V:.*]]: tensor<3xf64> {tp.tangent})
// CHECK-TANH-NEXT: %[[Y:.*]] = tp.tanh %[[X]]
// CHECK-TANH-NEXT: %[[DY:.*]] = tp.tanh_backward %[[V]], %[[Y]] :
// CHECK-TANH-NEXT: %[[F:.*]] = tp.sum %[[Y]]
// CHECK-TANH-NEXT: %[[DF:.*]] = tp.sum %[[DY]]
// CHECK-TANH-NEXT: %[[TE:.*]] = tp.expand %[[T]]
// CHECK-TANH-NEXT: %[[G:.*]] = tp.tanh_backward %[[TE]], %[[Y]]
// CHECK-TANH-NEXT: %[[M2Y:.*]] = tp.mul.Scalar %[[Y]] {other = -2.000000e+00 : f64{{.*}}}
// CHECK-TANH-NEXT: %[[DYT:.*]] = tp.mul %[[DY]], %[[TE]] :
// CHECK-TANH-NEXT: %[[HV:.*]] = tp.mul %[[DYT]], %[[M2Y]] :
// CHECK-TANH-NEXT: return %[[F]], %[[G]], %[[DF]], %[[HV]] :
// x = [0, 0.5, -1], T = 2, V = ones: ∇f = 2 (1 - y^2),
// ḟ = sum(1 - y^2), H V T = -4 y (1 - y^2).
// CHECK-TANH-VAL: result #1: tensor<3xf64>
// CHECK-TANH-VAL-NEXT: [2, 1.57289547, 0.839948683]
// CHECK-TANH-VAL: result #2: tensor<f64>
// CHECK-TANH-VAL-NEXT: [2.20642207]
// CHECK-TANH-VAL: result #3: tensor<3xf64>
// CHECK-TANH-VAL-NEXT: [{{-?}}0, -1.45372396, 1.27940002]
func.func @tanh_sum(%x: tensor<3xf64> {tp.requires_grad}) -> tensor<f64> {
  %y = tp.tanh %x : tensor<3xf64> -> tensor<3xf64>
  %s = tp.sum %y {dims = array<i64>} : tensor<3xf64> -> tensor<f64>
  return %s : tensor<f64>
}
