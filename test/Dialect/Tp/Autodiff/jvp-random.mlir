// RUN: stax-opt %s --stax-jvp | FileCheck %s

// The JVPs of RandomRules.cpp (--stax-jvp): dropout is linear under the
// mask it drew (the tangent goes through the same mask, no new draw); a
// Bernoulli sample has a zero tangent; rand has no float operand and no
// tangent. The integer state never gets a tangent argument.

// CHECK-LABEL: func.func @dropout_seeded
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<4x8xf32> {tp.tangent}) -> (tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xf32>)
// CHECK-NEXT: %[[OUT:.*]], %[[MASK:.*]] = tp.dropout_seeded %[[X]], %[[S]]
// CHECK-NEXT: %[[DY:.*]] = tp.native_dropout_backward %[[T]], %[[MASK]] {scale = 1.3333333333333333 : f64} :
// CHECK-NEXT: return %[[OUT]], %[[MASK]], %[[DY]] :
func.func @dropout_seeded(%x: tensor<4x8xf32>, %s: tensor<2xi64>) -> (tensor<4x8xf32>, tensor<4x8xi1>) {
  %o, %m = tp.dropout_seeded %x, %s {counter = 0 : i64, p = 0.25 : f64} : (tensor<4x8xf32>, tensor<2xi64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return %o, %m : tensor<4x8xf32>, tensor<4x8xi1>
}

// bernoulli(p) * p: only the second factor carries the tangent, ṗ * b.
// CHECK-LABEL: func.func @bernoulli
// CHECK-SAME: (%[[P:.*]]: tensor<16xf32>, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<16xf32> {tp.tangent})
// CHECK-NEXT: %[[B:.*]] = tp.bernoulli %[[P]], %[[S]]
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[B]], %[[P]] :
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[T]], %[[B]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @bernoulli(%p: tensor<16xf32>, %s: tensor<2xi64>) -> tensor<16xf32> {
  %b = tp.bernoulli %p, %s {counter = 0 : i64} : (tensor<16xf32>, tensor<2xi64>) -> tensor<16xf32>
  %y = tp.mul %b, %p : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// A bare sample: the tangent result is a zero tensor.
// CHECK-LABEL: func.func @bernoulli_sample
// CHECK-SAME: (%[[P:.*]]: tensor<16xf32>, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<16xf32> {tp.tangent})
// CHECK-NEXT: %[[B:.*]] = tp.bernoulli %[[P]], %[[S]]
// CHECK-NEXT: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<16xf32>
// CHECK-NEXT: return %[[B]], %[[Z]] :
func.func @bernoulli_sample(%p: tensor<16xf32>, %s: tensor<2xi64>) -> tensor<16xf32> {
  %b = tp.bernoulli %p, %s {counter = 0 : i64} : (tensor<16xf32>, tensor<2xi64>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}

// x * rand(s): ẏ = ẋ * r, reusing the primal draw.
// CHECK-LABEL: func.func @rand
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<8xf32> {tp.tangent})
// CHECK-NEXT: %[[R:.*]] = tp.rand %[[S]]
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[X]], %[[R]] :
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[T]], %[[R]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @rand(%x: tensor<8xf32>, %s: tensor<2xi64>) -> tensor<8xf32> {
  %r = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<8xf32>
  %y = tp.mul %x, %r : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}
