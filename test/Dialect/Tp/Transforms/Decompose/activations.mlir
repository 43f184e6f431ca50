// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// Activations: the primitive sequence of the interpreter's kernel, in its
// association order.

// CHECK-LABEL: func.func @sigmoid
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[N:.*]] = tp.neg %[[X]]
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[N]]
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[E]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.reciprocal %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.sigmoid %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Integer inputs are converted to the result type first.
// CHECK-LABEL: func.func @sigmoid_int
// CHECK-NEXT: %[[F:.*]] = tp._to_copy %{{.*}} {dtype = f32} : tensor<4xi64> -> tensor<4xf32>
// CHECK-NEXT: tp.neg %[[F]]
func.func @sigmoid_int(%x: tensor<4xi64>) -> tensor<4xf32> {
  %0 = tp.sigmoid %x : tensor<4xi64> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @silu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[N:.*]] = tp.neg %[[X]]
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[N]]
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[E]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.div %[[X]], %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @silu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.silu %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mish
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[X]]
// CHECK-NEXT: %[[L:.*]] = tp.log1p %[[E]]
// CHECK-NEXT: %[[T:.*]] = tp.tanh %[[L]]
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[X]], %[[T]]
// CHECK-NEXT: return %[[R]]
func.func @mish(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.mish %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The erf form: the kernel multiplies by 1/sqrt(2) unrounded, which in f32
// is one f64 product rounded once.
// CHECK-LABEL: func.func @gelu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[H:.*]] = tp.mul.Scalar %[[X]] {other = 5.000000e-01 : f64}
// CHECK-NEXT: %[[X64:.*]] = tp._to_copy %[[X]] {dtype = f64}
// CHECK-NEXT: %[[S64:.*]] = tp.mul.Scalar %[[X64]] {other = 0.70710678118654757 : f64} : tensor<4xf64> -> tensor<4xf64>
// CHECK-NEXT: %[[S:.*]] = tp._to_copy %[[S64]] {dtype = f32}
// CHECK-NEXT: %[[E:.*]] = tp.erf %[[S]]
// CHECK-NEXT: %[[C:.*]] = tp.add.Scalar %[[E]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[H]], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.gelu %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// In f64 the constant is exact: a plain mul.Scalar.
// CHECK-LABEL: func.func @gelu_f64
// CHECK-NOT: _to_copy
// CHECK: tp.mul.Scalar %{{.*}} {other = 0.70710678118654757 : f64} : tensor<4xf64> -> tensor<4xf64>
func.func @gelu_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tp.gelu %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// The tanh form, in f32 for an f16 input (one rounding to f16 at the end).
// CHECK-LABEL: func.func @gelu_tanh_f16
// CHECK-NEXT: %[[X:.*]] = tp._to_copy %{{.*}} {dtype = f32} : tensor<4xf16> -> tensor<4xf32>
// CHECK-NEXT: %[[H:.*]] = tp.mul.Scalar %[[X]] {other = 5.000000e-01 : f64}
// CHECK-NEXT: %[[X2:.*]] = tp.mul %[[X]], %[[X]]
// CHECK-NEXT: %[[X3:.*]] = tp.mul %[[X2]], %[[X]]
// CHECK-NEXT: %[[K:.*]] = tp.mul.Scalar %[[X3]] {other = 4.471500e-02 : f64}
// CHECK-NEXT: %[[A:.*]] = tp.add %[[X]], %[[K]]
// CHECK-NEXT: %[[I:.*]] = tp.mul.Scalar %[[A]] {other = 0.79788456080286541 : f64}
// CHECK-NEXT: %[[T:.*]] = tp.tanh %[[I]]
// CHECK-NEXT: %[[T1:.*]] = tp.add.Scalar %[[T]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[H]], %[[T1]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[R16:.*]] = tp._to_copy %[[R]] {dtype = f16} : tensor<4xf32> -> tensor<4xf16>
// CHECK-NEXT: return %[[R16]]
func.func @gelu_tanh_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tp.gelu %x {approximate = #tp.approximate<tanh>} : tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// A threshold that f32 cannot hold is compared in f64, as the kernel does.
// CHECK-LABEL: func.func @softplus
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[BX:.*]] = tp.mul.Scalar %[[X]] {other = 2.000000e+00 : f64}
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[BX]]
// CHECK-NEXT: %[[L:.*]] = tp.log1p %[[E]]
// CHECK-NEXT: %[[S:.*]] = tp.div.Scalar %[[L]] {other = 2.000000e+00 : f64}
// CHECK-NEXT: %[[BX64:.*]] = tp._to_copy %[[BX]] {dtype = f64}
// CHECK-NEXT: %[[C:.*]] = tp.gt.Scalar %[[BX64]] {other = 3.000000e-01 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.where %[[C]], %[[X]], %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @softplus(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.softplus %x {beta = 2.0 : f64, threshold = 0.3 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @elu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[X]]
// CHECK-NEXT: %[[M:.*]] = tp.sub.Scalar %[[E]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[C:.*]] = tp.gt.Scalar %[[X]] {other = 0 : i64}
// CHECK-NEXT: %[[R:.*]] = tp.where %[[C]], %[[X]], %[[M]]
// CHECK-NEXT: return %[[R]]
func.func @elu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.elu %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// selu: the coefficient alpha * scale is a product rounded in the
// computation type, built on a 0-d tensor.
// CHECK-LABEL: func.func @selu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[X]]
// CHECK-NEXT: %[[M:.*]] = tp.sub.Scalar %[[E]] {other = 1.000000e+00 : f64}
// CHECK-NEXT: %[[A:.*]] = tp.full {value = 1.6732632423543772 : f64} : tensor<f32>
// CHECK-NEXT: %[[K:.*]] = tp.mul.Scalar %[[A]] {other = 1.0507009873554805 : f64} : tensor<f32> -> tensor<f32>
// CHECK-NEXT: %[[N:.*]] = tp.mul %[[M]], %[[K]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = tp.gt.Scalar %[[X]] {other = 0 : i64}
// CHECK-NEXT: %[[P:.*]] = tp.mul.Scalar %[[X]] {other = 1.0507009873554805 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.where %[[C]], %[[P]], %[[N]]
// CHECK-NEXT: return %[[R]]
func.func @selu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.elu %x {alpha = 1.6732632423543772 : f64, scale = 1.0507009873554805 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @leaky_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = tp.gt.Scalar %[[X]] {other = 0 : i64}
// CHECK-NEXT: %[[N:.*]] = tp.mul.Scalar %[[X]] {other = 2.000000e-01 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.where %[[C]], %[[X]], %[[N]]
// CHECK-NEXT: return %[[R]]
func.func @leaky_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.leaky_relu %x {negative_slope = 0.2 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @hardtanh
// CHECK-NEXT: %[[R:.*]] = tp.clamp %{{.*}} {max = 1.000000e+00 : f64, min = -1.000000e+00 : f64} : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[I:.*]] = tp.clamp %{{.*}} {max = 2 : i64, min = -2 : i64} : tensor<4xi64> -> tensor<4xi64>
// CHECK-NEXT: return %[[R]], %[[I]]
func.func @hardtanh(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = tp.hardtanh %x : tensor<4xf32> -> tensor<4xf32>
  %1 = tp.hardtanh %i {min_val = -2.5 : f64, max_val = 2.0 : f64} : tensor<4xi64> -> tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// other - alpha * self as eager's add kernel with -alpha (one fma):
// other + (-alpha) * self.
// CHECK-LABEL: func.func @rsub
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[O:.*]] = tp.full {value = 1.000000e+00 : f64} : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = tp.add %[[O]], %[[X]] {alpha = -2.500000e+00 : f64}
// CHECK-NEXT: return %[[R]]
func.func @rsub(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.rsub.Scalar %x {other = 1 : i64, alpha = 2.5 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @rsub_int
// CHECK-NEXT: %[[N:.*]] = tp.neg %{{.*}} : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %[[R:.*]] = tp.add.Scalar %[[N]] {other = 7 : i64} : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: return %[[R]]
func.func @rsub_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tp.rsub.Scalar %x {other = 7 : i64} : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
