// RUN: stax-opt %s --stax-jvp | FileCheck %s

// The JVPs of SpecialRules.cpp (--stax-jvp): the tangent times the same
// derivative the VJP uses; frexp's exponent (i32) gets no tangent.

// CHECK-LABEL: func.func @lgamma
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[DX:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.lgamma %[[X]]
// CHECK-NEXT: %[[D:.*]] = tp.digamma %[[X]]
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[DX]], %[[D]]
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @lgamma(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = tp.lgamma %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @polygamma
// CHECK-SAME: (%[[X:.*]]: tensor<3xf64>, %[[DX:.*]]: tensor<3xf64> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.polygamma %[[X]] {n = 1 : i64}
// CHECK-NEXT: %[[D:.*]] = tp.polygamma %[[X]] {n = 2 : i64}
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[DX]], %[[D]]
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @polygamma(%x: tensor<3xf64>) -> tensor<3xf64> {
  %y = tp.polygamma %x {n = 1 : i64} : tensor<3xf64> -> tensor<3xf64>
  return %y : tensor<3xf64>
}

// CHECK-LABEL: func.func @erfcx
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[DX:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.special_erfcx %[[X]]
// CHECK-NEXT: %[[XY:.*]] = tp.mul %[[X]], %[[Y]]
// CHECK-NEXT: %[[TW:.*]] = tp.mul.Scalar %[[XY]] {other = 2.000000e+00 : f64}
// CHECK-NEXT: %[[D:.*]] = tp.add.Scalar %[[TW]] {other = -1.12837916709551{{[0-9]*}} : f64}
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[DX]], %[[D]]
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @erfcx(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = tp.special_erfcx %x : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @frexp
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[DX:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[M:.*]], %[[E:.*]] = tp.frexp %[[X]]
// CHECK-NEXT: %[[EF:.*]] = tp._to_copy %[[E]] {dtype = f32}
// CHECK-NEXT: %[[P:.*]] = tp.exp2 %[[EF]]
// CHECK-NEXT: %[[DM:.*]] = tp.div %[[DX]], %[[P]]
// CHECK-NEXT: return %[[M]], %[[E]], %[[DM]] : tensor<3xf32>, tensor<3xi32>, tensor<3xf32>
func.func @frexp(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %m, %e = tp.frexp %x : tensor<3xf32> -> tensor<3xf32>, tensor<3xi32>
  return %m, %e : tensor<3xf32>, tensor<3xi32>
}
