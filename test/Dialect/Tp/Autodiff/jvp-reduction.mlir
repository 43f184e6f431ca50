// RUN: stax-opt %s --stax-jvp | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-jvp="function=amax" | stax-run - --entry=amax --f64 --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=AMAX
// RUN: stax-opt %s --stax-jvp="function=var" | stax-run - --entry=var --f64 --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=VAR

// The JVPs of ReductionRules.cpp (--stax-jvp): sum and mean are linear (the
// op applied to the tangent %T); the other reductions sum the tangent times
// their partial derivative over the reduced dims (with the op's dims and
// keepdim); max.dim gathers the tangent at the returned indices.

// Inputs for the value checks: x and a tangent dx.
func.func @inputs() -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %x = tp.constant dense<[[1.0, 3.0, 3.0, 0.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<2x4xf32>
  %t = tp.constant dense<[[1.0, 2.0, 4.0, 8.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<2x4xf32>
  return %x, %t : tensor<2x4xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent}) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT: %[[Y:.*]] = tp.sum %[[X]] {dims = array<i64: 1>} :
// CHECK-NEXT: %[[DY:.*]] = tp.sum %[[T]] {dims = array<i64: 1>} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @sum(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %y = tp.sum %x {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.mean %[[X]] {dims = array<i64: 0>, keepdim = true} :
// CHECK-NEXT: %[[DY:.*]] = tp.mean %[[T]] {dims = array<i64: 0>, keepdim = true} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @mean(%x: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %y = tp.mean %x {dims = array<i64: 0>, keepdim = true} : tensor<3x4xf32> -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// amax: ẏ = sum(ẋ * mask / count), the mask being x == amax(x).
// CHECK-LABEL: func.func @amax
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>, %[[T:.*]]: tensor<2x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.amax %[[X]] {dims = array<i64: 1>} :
// CHECK-NEXT: %[[YK:.*]] = tp.view %[[Y]] {size = array<i64: 2, 1>} :
// CHECK-NEXT: %[[EQ:.*]] = tp.eq %[[X]], %[[YK]] :
// CHECK-NEXT: %[[M:.*]] = tp._to_copy %[[EQ]] {dtype = f32} :
// CHECK-NEXT: %[[N:.*]] = tp.sum %[[M]] {dims = array<i64: 1>, keepdim = true} :
// CHECK-NEXT: %[[P:.*]] = tp.div %[[M]], %[[N]] :
// CHECK-NEXT: %[[TP:.*]] = tp.mul %[[T]], %[[P]] :
// CHECK-NEXT: %[[DY:.*]] = tp.sum %[[TP]] {dims = array<i64: 1>} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
// Row 0: the tie at 3 averages the tangents 2 and 4.
// AMAX: result #1: tensor<2xf64>
// AMAX-NEXT: [3, 1]
func.func @amax(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %y = tp.amax %x {dims = array<i64: 1>} : tensor<2x4xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// var: ẏ = sum(ẋ * 2 / (N - 1) * (x - mean(x))).
// CHECK-LABEL: func.func @var
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>, %[[T:.*]]: tensor<2x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.var %[[X]] {dims = array<i64: 1>} :
// CHECK-NEXT: %[[MEAN:.*]] = tp.mean %[[X]] {dims = array<i64: 1>, keepdim = true} :
// CHECK-NEXT: %[[XC:.*]] = tp.sub %[[X]], %[[MEAN]] :
// CHECK-NEXT: %[[P:.*]] = tp.mul.Scalar %[[XC]] {other = 0.66666666666666663 : f64} :
// CHECK-NEXT: %[[TP:.*]] = tp.mul %[[T]], %[[P]] :
// CHECK-NEXT: %[[DY:.*]] = tp.sum %[[TP]] {dims = array<i64: 1>} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
// Row 0: 2/3 * <x - 1.75, dx> = 2/3 * -7.25; row 1: 2/3 * <x - 2.5, 1> = 0.
// VAR: result #1: tensor<2xf64>
// VAR-NEXT: [-4.83333333, 0]
func.func @var(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %y = tp.var %x {dims = array<i64: 1>} : tensor<2x4xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// logsumexp: ẏ = sum(ẋ * softmax(x)) over its (negative) dim.
// CHECK-LABEL: func.func @logsumexp
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.logsumexp %[[X]] {dims = array<i64: -1>} :
// CHECK-NEXT: %[[YK:.*]] = tp.view %[[Y]] {size = array<i64: 3, 1>} :
// CHECK-NEXT: %[[XC:.*]] = tp.sub %[[X]], %[[YK]] :
// CHECK-NEXT: %[[P:.*]] = tp.exp %[[XC]] :
// CHECK-NEXT: %[[TP:.*]] = tp.mul %[[T]], %[[P]] :
// CHECK-NEXT: %[[DY:.*]] = tp.sum %[[TP]] {dims = array<i64: -1>} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @logsumexp(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %y = tp.logsumexp %x {dims = array<i64: -1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// max.dim: the values' tangent gathers ẋ at the indices; the integer
// indices get no tangent result.
// CHECK-LABEL: func.func @max_dim
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent}) -> (tensor<3xf32>, tensor<3xi64>, tensor<3xf32>)
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.max.dim %[[X]] {dim = 1 : i64} :
// CHECK-NEXT: %[[IK:.*]] = tp.view %[[I]] {size = array<i64: 3, 1>} :
// CHECK-NEXT: %[[G:.*]] = tp.gather %[[T]], %[[IK]] {dim = 1 : i64} :
// CHECK-NEXT: %[[DV:.*]] = tp.view %[[G]] {size = array<i64: 3>} :
// CHECK-NEXT: return %[[V]], %[[I]], %[[DV]] :
func.func @max_dim(%x: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3xi64>) {
  %y:2 = tp.max.dim %x {dim = 1 : i64} : tensor<3x4xf32> -> tensor<3xf32>, tensor<3xi64>
  return %y#0, %y#1 : tensor<3xf32>, tensor<3xi64>
}

// sort: the values' tangent gathers ẋ at the indices along the normalized
// dim; the integer indices get no tangent result.
// CHECK-LABEL: func.func @sort
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent}) -> (tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>)
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.sort %[[X]] {dim = -2 : i64} :
// CHECK-NEXT: %[[G:.*]] = tp.gather %[[T]], %[[I]] {dim = 0 : i64} :
// CHECK-NEXT: return %[[V]], %[[I]], %[[G]] :
func.func @sort(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %y:2 = tp.sort %x {dim = -2 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>, tensor<3x4xi64>
  return %y#0, %y#1 : tensor<3x4xf32>, tensor<3x4xi64>
}
