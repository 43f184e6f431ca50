// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=lgamma --f64 --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=LGAMMA

// The VJPs of SpecialRules.cpp (--stax-joint-graph), eager's formulas: the
// adjoint %T times the derivative, built from the forward's operand or
// result.

// Inputs of the value check: x = [0.5, 1, 3.5], t = [1, 2, -1].
func.func @inputs() -> (tensor<3xf32>, tensor<3xf32>) {
  %x = tp.constant dense<[0.5, 1.0, 3.5]> : tensor<3xf32>
  %t = tp.constant dense<[1.0, 2.0, -1.0]> : tensor<3xf32>
  return %x, %t : tensor<3xf32>, tensor<3xf32>
}

// lgamma' = digamma(x).
// CHECK-LABEL: func.func @lgamma
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.lgamma %[[X]] {
// CHECK-NEXT: %[[D:.*]] = tp.digamma %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
// x̄ = t * digamma(x): PyTorch 1.13's float64 torch.autograd.grad of
// lgamma is [-1.9635100260214229, -1.1544313298030655, -1.103156640645243].
// LGAMMA: result #1: tensor<3xf64>
// LGAMMA-NEXT: [-1.96351003, -1.15443133, -1.10315664]
func.func @lgamma(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.lgamma %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// digamma' = polygamma(1, x); polygamma(n)' = polygamma(n + 1, x).
// CHECK-LABEL: func.func @digamma
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.digamma %[[X]] {
// CHECK-NEXT: %[[D:.*]] = tp.polygamma %[[X]] {n = 1 : i64
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @digamma(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.digamma %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @polygamma
// CHECK-SAME: (%[[X:.*]]: tensor<3xf64> {tp.requires_grad}, %[[T:.*]]: tensor<3xf64> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.polygamma %[[X]] {n = 2 : i64
// CHECK-NEXT: %[[D:.*]] = tp.polygamma %[[X]] {n = 3 : i64
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @polygamma(%x: tensor<3xf64> {tp.requires_grad}) -> tensor<3xf64> {
  %y = tp.polygamma %x {n = 2 : i64} : tensor<3xf64> -> tensor<3xf64>
  return %y : tensor<3xf64>
}

// erfinv' = sqrt(pi)/2 * exp(y^2), y the result.
// CHECK-LABEL: func.func @erfinv
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.erfinv %[[X]] {
// CHECK-NEXT: %[[S:.*]] = tp.mul %[[Y]], %[[Y]] {
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[S]] {
// CHECK-NEXT: %[[D:.*]] = tp.mul.Scalar %[[E]] {other = 0.88622692545275{{[0-9]*}} : f64
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @erfinv(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.erfinv %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// ndtri' = sqrt(2 pi) * exp(y^2 / 2).
// CHECK-LABEL: func.func @ndtri
// CHECK-NEXT: %[[Y:.*]] = tp.special_ndtri
// CHECK-NEXT: %[[S:.*]] = tp.mul %[[Y]], %[[Y]] {
// CHECK-NEXT: %[[H:.*]] = tp.mul.Scalar %[[S]] {other = 5.000000e-01 : f64
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[H]] {
// CHECK-NEXT: %[[D:.*]] = tp.mul.Scalar %[[E]] {other = 2.50662827463100{{[0-9]*}} : f64
// CHECK-NEXT: tp.mul %{{.*}}, %[[D]] {
func.func @ndtri(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.special_ndtri %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// erfcx' = 2 x y - 2/sqrt(pi).
// CHECK-LABEL: func.func @erfcx
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.special_erfcx %[[X]] {
// CHECK-NEXT: %[[XY:.*]] = tp.mul %[[X]], %[[Y]] {
// CHECK-NEXT: %[[TW:.*]] = tp.mul.Scalar %[[XY]] {other = 2.000000e+00 : f64
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[TW]] {other = -1.12837916709551{{[0-9]*}} : f64
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[D]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @erfcx(%x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.special_erfcx %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// frexp: the mantissa's adjoint over 2^exponent (the exponent converted
// to the mantissa's type); the i32 exponent has no adjoint.
// CHECK-LABEL: func.func @frexp
// CHECK-SAME: (%[[X:.*]]: tensor<3xf64> {tp.requires_grad}, %[[T:.*]]: tensor<3xf64> {tp.tangent})
// CHECK-NEXT: %[[M:.*]], %[[E:.*]] = tp.frexp %[[X]] {
// CHECK-NEXT: %[[EF:.*]] = tp._to_copy %[[E]] {dtype = f64
// CHECK-NEXT: %[[P:.*]] = tp.exp2 %[[EF]] {
// CHECK-NEXT: %[[G:.*]] = tp.div %[[T]], %[[P]] {
// CHECK-NEXT: return %[[M]], %[[E]], %[[G]] :
func.func @frexp(%x: tensor<3xf64> {tp.requires_grad}) -> (tensor<3xf64>, tensor<3xi32>) {
  %m, %e = tp.frexp %x : tensor<3xf64> -> tensor<3xf64>, tensor<3xi32>
  return %m, %e : tensor<3xf64>, tensor<3xi32>
}

// An integer operand (promoted to float) gets no adjoint.
// CHECK-LABEL: func.func @int_operand
// CHECK-NOT: tp.digamma
// CHECK: return
func.func @int_operand(%i: tensor<3xi64>, %x: tensor<3xf32> {tp.requires_grad}) -> tensor<3xf32> {
  %y = tp.lgamma %i : tensor<3xi64> -> tensor<3xf32>
  %z = tp.mul %y, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %z : tensor<3xf32>
}
