// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s

// Every unary elementwise op round-trips, and integer inputs of the
// int-to-float ops infer an f32 result.

// CHECK-LABEL: func.func @unary_same
func.func @unary_same(%x: tensor<4x3xf32>, %i: tensor<4x3xi64>, %b: tensor<4x3xi1>) {
  // CHECK: tp.clone %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %0 = tp.clone %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.detach
  %1 = tp.detach %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.alias
  %2 = tp.alias %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.lift_fresh_copy
  %3 = tp.lift_fresh_copy %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.neg %{{.*}} : tensor<4x3xi64> -> tensor<4x3xi64>
  %4 = tp.neg %i : tensor<4x3xi64> -> tensor<4x3xi64>
  // CHECK: tp.abs
  %5 = tp.abs %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.relu
  %6 = tp.relu %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sign
  %7 = tp.sign %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sgn
  %8 = tp.sgn %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.floor
  %9 = tp.floor %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.ceil
  %10 = tp.ceil %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.round
  %11 = tp.round %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.trunc
  %12 = tp.trunc %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.bitwise_not %{{.*}} : tensor<4x3xi64> -> tensor<4x3xi64>
  %13 = tp.bitwise_not %i : tensor<4x3xi64> -> tensor<4x3xi64>
  // CHECK: tp.logical_not %{{.*}} : tensor<4x3xf32> -> tensor<4x3xi1>
  %14 = tp.logical_not %x : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.isnan %{{.*}} : tensor<4x3xf32> -> tensor<4x3xi1>
  %15 = tp.isnan %x : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.signbit %{{.*}} : tensor<4x3xf32> -> tensor<4x3xi1>
  %18 = tp.signbit %x : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.tril %{{.*}} {diagonal = -1 : i64} : tensor<4x3xi1> -> tensor<4x3xi1>
  %16 = tp.tril %b {diagonal = -1 : i64} : tensor<4x3xi1> -> tensor<4x3xi1>
  // CHECK: tp.triu %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %17 = tp.triu %x : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_float
func.func @unary_float(%x: tensor<4x3xf32>, %i: tensor<4x3xi64>) {
  // CHECK: tp.exp %{{.*}} : tensor<4x3xi64> -> tensor<4x3xf32>
  %0 = tp.exp %i : tensor<4x3xi64> -> tensor<4x3xf32>
  // CHECK: tp.exp2
  %1 = tp.exp2 %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.expm1
  %2 = tp.expm1 %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.log
  %3 = tp.log %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.log2
  %4 = tp.log2 %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.log10
  %5 = tp.log10 %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.log1p
  %6 = tp.log1p %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sqrt %{{.*}} : tensor<4x3xi64> -> tensor<4x3xf32>
  %7 = tp.sqrt %i : tensor<4x3xi64> -> tensor<4x3xf32>
  // CHECK: tp.rsqrt
  %8 = tp.rsqrt %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.reciprocal
  %9 = tp.reciprocal %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sin
  %10 = tp.sin %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.cos
  %11 = tp.cos %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.tan
  %12 = tp.tan %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.asin
  %13 = tp.asin %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.acos
  %14 = tp.acos %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.atan
  %15 = tp.atan %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sinh
  %16 = tp.sinh %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.cosh
  %17 = tp.cosh %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.tanh
  %18 = tp.tanh %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sigmoid
  %19 = tp.sigmoid %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.erf
  %20 = tp.erf %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.erfc
  %21 = tp.erfc %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.silu
  %22 = tp.silu %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.mish
  %23 = tp.mish %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.gelu %{{.*}} : tensor<4x3xf32>
  %24 = tp.gelu %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.gelu %{{.*}} {approximate = #tp.approximate<tanh>}
  %25 = tp.gelu %x {approximate = #tp.approximate<tanh>} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.leaky_relu %{{.*}} {negative_slope = 2.000000e-01 : f64}
  %26 = tp.leaky_relu %x {negative_slope = 0.2 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.elu
  %27 = tp.elu %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.softplus
  %28 = tp.softplus %x {beta = 2.0 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.hardtanh
  %29 = tp.hardtanh %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.clamp %{{.*}} {max = 6.000000e+00 : f64, min = 0 : i64}
  %30 = tp.clamp %x {min = 0 : i64, max = 6.0 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp._to_copy %{{.*}} {dtype = f64} : tensor<4x3xf32> -> tensor<4x3xf64>
  %31 = tp._to_copy %x {dtype = f64} : tensor<4x3xf32> -> tensor<4x3xf64>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%x: tensor<4x3xf32>, %y: tensor<3xf32>, %i: tensor<4x1xi64>, %b: tensor<4x3xi1>) {
  // Broadcasting and promotion: i64 with f32 is f32.
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x1xi64> -> tensor<4x3xf32>
  %0 = tp.add %x, %i : tensor<4x3xf32>, tensor<4x1xi64> -> tensor<4x3xf32>
  // CHECK: tp.sub %{{.*}}, %{{.*}} {alpha = 2 : i64}
  %1 = tp.sub %x, %y {alpha = 2 : i64} : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.mul
  %2 = tp.mul %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // Integer true division gives f32; with a rounding mode it stays integer.
  // CHECK: tp.div %{{.*}}, %{{.*}} : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xf32>
  %3 = tp.div %i, %i : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xf32>
  // CHECK: tp.div %{{.*}}, %{{.*}} {rounding_mode = #tp.rounding_mode<floor>} : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xi64>
  %4 = tp.div %i, %i {rounding_mode = #tp.rounding_mode<floor>} : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xi64>
  // CHECK: tp.maximum
  %5 = tp.maximum %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.minimum
  %6 = tp.minimum %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.pow
  %7 = tp.pow %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.remainder
  %8 = tp.remainder %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.fmod
  %9 = tp.fmod %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.atan2 %{{.*}}, %{{.*}} : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xf32>
  %10 = tp.atan2 %i, %i : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xf32>
  // CHECK: tp.bitwise_and
  %11 = tp.bitwise_and %i, %i : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xi64>
  // CHECK: tp.bitwise_or
  %12 = tp.bitwise_or %b, %b : tensor<4x3xi1>, tensor<4x3xi1> -> tensor<4x3xi1>
  // CHECK: tp.bitwise_xor
  %13 = tp.bitwise_xor %i, %i : tensor<4x1xi64>, tensor<4x1xi64> -> tensor<4x1xi64>
  // CHECK: tp.logical_and %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x3xi1> -> tensor<4x3xi1>
  %14 = tp.logical_and %x, %b : tensor<4x3xf32>, tensor<4x3xi1> -> tensor<4x3xi1>
  // CHECK: tp.logical_or
  %15 = tp.logical_or %b, %b : tensor<4x3xi1>, tensor<4x3xi1> -> tensor<4x3xi1>
  // CHECK: tp.logical_xor
  %16 = tp.logical_xor %b, %b : tensor<4x3xi1>, tensor<4x3xi1> -> tensor<4x3xi1>
  // CHECK: tp.eq %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  %17 = tp.eq %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  // CHECK: tp.ne
  %18 = tp.ne %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  // CHECK: tp.lt
  %19 = tp.lt %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  // CHECK: tp.le
  %20 = tp.le %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  // CHECK: tp.gt
  %21 = tp.gt %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  // CHECK: tp.ge
  %22 = tp.ge %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xi1>
  return
}

// CHECK-LABEL: func.func @zero_dim_promotion
func.func @zero_dim_promotion(%x: tensor<4xf16>, %s: tensor<f32>, %i: tensor<4xi32>, %l: tensor<i64>) {
  // A 0-d tensor of the same category does not widen a dimensioned one.
  // CHECK: tp.mul %{{.*}}, %{{.*}} : tensor<4xf16>, tensor<f32> -> tensor<4xf16>
  %0 = tp.mul %x, %s : tensor<4xf16>, tensor<f32> -> tensor<4xf16>
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<i64> -> tensor<4xi32>
  %1 = tp.add %i, %l : tensor<4xi32>, tensor<i64> -> tensor<4xi32>
  // A 0-d tensor of a higher category decides the type.
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<f32> -> tensor<4xf32>
  %2 = tp.add %i, %s : tensor<4xi32>, tensor<f32> -> tensor<4xf32>
  return
}

// uint8 is ui8. With int8 it promotes to int16, which holds both ranges;
// with a wider signed integer to that one (PyTorch's promotion table); a
// bool or a 0-d integer does not change it.
// CHECK-LABEL: func.func @uint8
func.func @uint8(%u: tensor<4xui8>, %i: tensor<4xi8>, %s: tensor<4xi16>, %w: tensor<4xi32>,
                 %b: tensor<4xi1>, %l: tensor<i64>, %h: tensor<4xf16>) {
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xui8> -> tensor<4xui8>
  %0 = tp.add %u, %u : tensor<4xui8>, tensor<4xui8> -> tensor<4xui8>
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xi8> -> tensor<4xi16>
  %1 = tp.add %u, %i : tensor<4xui8>, tensor<4xi8> -> tensor<4xi16>
  // CHECK: tp.mul %{{.*}}, %{{.*}} : tensor<4xi8>, tensor<4xui8> -> tensor<4xi16>
  %2 = tp.mul %i, %u : tensor<4xi8>, tensor<4xui8> -> tensor<4xi16>
  // CHECK: tp.sub %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xi16> -> tensor<4xi16>
  %3 = tp.sub %u, %s : tensor<4xui8>, tensor<4xi16> -> tensor<4xi16>
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xui8> -> tensor<4xi32>
  %4 = tp.add %w, %u : tensor<4xi32>, tensor<4xui8> -> tensor<4xi32>
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xi1> -> tensor<4xui8>
  %5 = tp.add %u, %b : tensor<4xui8>, tensor<4xi1> -> tensor<4xui8>
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<i64> -> tensor<4xui8>
  %6 = tp.add %u, %l : tensor<4xui8>, tensor<i64> -> tensor<4xui8>
  // CHECK: tp.add %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xf16> -> tensor<4xf16>
  %7 = tp.add %u, %h : tensor<4xui8>, tensor<4xf16> -> tensor<4xf16>
  // CHECK: tp.lt %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xi8> -> tensor<4xi1>
  %8 = tp.lt %u, %i : tensor<4xui8>, tensor<4xi8> -> tensor<4xi1>
  // CHECK: tp.add.Scalar %{{.*}} {other = 300 : i64} : tensor<4xui8> -> tensor<4xui8>
  %9 = tp.add.Scalar %u {other = 300 : i64} : tensor<4xui8> -> tensor<4xui8>
  // CHECK: tp.mul.Scalar %{{.*}} {other = 5.000000e-01 : f64} : tensor<4xui8> -> tensor<4xf32>
  %10 = tp.mul.Scalar %u {other = 0.5 : f64} : tensor<4xui8> -> tensor<4xf32>
  // CHECK: tp.div %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xui8> -> tensor<4xf32>
  %11 = tp.div %u, %u : tensor<4xui8>, tensor<4xui8> -> tensor<4xf32>
  // CHECK: tp.bitwise_not %{{.*}} : tensor<4xui8> -> tensor<4xui8>
  %12 = tp.bitwise_not %u : tensor<4xui8> -> tensor<4xui8>
  // CHECK: tp._to_copy %{{.*}} {dtype = ui8} : tensor<4xf16> -> tensor<4xui8>
  %13 = tp._to_copy %h {dtype = ui8} : tensor<4xf16> -> tensor<4xui8>
  // CHECK: tp.sum %{{.*}} {dims = array<i64>} : tensor<4xui8> -> tensor<i64>
  %14 = tp.sum %u {dims = array<i64>} : tensor<4xui8> -> tensor<i64>
  // CHECK: tp.amax %{{.*}} {dims = array<i64>} : tensor<4xui8> -> tensor<ui8>
  %15 = tp.amax %u {dims = array<i64>} : tensor<4xui8> -> tensor<ui8>
  return
}

// CHECK-LABEL: func.func @scalar
func.func @scalar(%x: tensor<4x3xf32>, %i: tensor<4xi64>) {
  // CHECK: tp.add.Scalar %{{.*}} {other = 9.9999999999999995E-7 : f64}
  %0 = tp.add.Scalar %x {other = 1.0e-6 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sub.Scalar
  %1 = tp.sub.Scalar %x {other = 1 : i64, alpha = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.rsub.Scalar
  %2 = tp.rsub.Scalar %x {other = 1 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // An integer tensor times a floating scalar is f32; times an integer, i64.
  // CHECK: tp.mul.Scalar %{{.*}} {other = 2.500000e+00 : f64} : tensor<4xi64> -> tensor<4xf32>
  %3 = tp.mul.Scalar %i {other = 2.5 : f64} : tensor<4xi64> -> tensor<4xf32>
  // CHECK: tp.mul.Scalar %{{.*}} {other = 2 : i64} : tensor<4xi64> -> tensor<4xi64>
  %4 = tp.mul.Scalar %i {other = 2 : i64} : tensor<4xi64> -> tensor<4xi64>
  // CHECK: tp.div.Scalar %{{.*}} {other = 2 : i64} : tensor<4xi64> -> tensor<4xf32>
  %5 = tp.div.Scalar %i {other = 2 : i64} : tensor<4xi64> -> tensor<4xf32>
  // CHECK: tp.pow.Tensor_Scalar
  %6 = tp.pow.Tensor_Scalar %x {other = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.remainder.Scalar
  %7 = tp.remainder.Scalar %i {other = 3 : i64} : tensor<4xi64> -> tensor<4xi64>
  // CHECK: tp.fmod.Scalar
  %8 = tp.fmod.Scalar %x {other = 3 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.eq.Scalar %{{.*}} {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  %9 = tp.eq.Scalar %x {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.ne.Scalar
  %10 = tp.ne.Scalar %x {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.lt.Scalar
  %11 = tp.lt.Scalar %x {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.le.Scalar
  %12 = tp.le.Scalar %x {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.gt.Scalar
  %13 = tp.gt.Scalar %x {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  // CHECK: tp.ge.Scalar
  %14 = tp.ge.Scalar %x {other = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xi1>
  return
}

// CHECK-LABEL: func.func @selection
func.func @selection(%c: tensor<4x1xi1>, %x: tensor<4x3xf32>, %s: tensor<f32>, %m: tensor<3xi1>) {
  // CHECK: tp.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %0 = tp.where %c, %x, %s : (tensor<4x1xi1>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  // CHECK: tp.masked_fill.Scalar %{{.*}}, %{{.*}} {value = 0xFFF0000000000000 : f64}
  %1 = tp.masked_fill.Scalar %x, %m {value = 0xFFF0000000000000 : f64} : (tensor<4x3xf32>, tensor<3xi1>) -> tensor<4x3xf32>
  return
}
