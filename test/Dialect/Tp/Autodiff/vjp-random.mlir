// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=dropout_values --input=%t/result0.npy --input=%t/result1.npy --input=%t/result2.npy --print-values | FileCheck %s --check-prefix=DROP

// The VJPs of RandomRules.cpp (--stax-joint-graph): with the RNG state an
// operand, a random op is a deterministic function of its inputs. Dropout
// is linear under the mask it drew (the backward reads the forward's mask,
// it never draws again); a Bernoulli sample and rand are constant in their
// inputs, and the backward reuses the forward's draw. %T is the adjoint of
// the result. The phase attribute is not matched.

// Inputs for the value check (no requires_grad: left alone): x = T = ones.
func.func @inputs() -> (tensor<16xf32>, tensor<2xi64>, tensor<16xf32>) {
  %x = tp.full {value = 1.0 : f64} : tensor<16xf32>
  %s = tp.constant dense<[42, 0]> : tensor<2xi64>
  return %x, %s, %x : tensor<16xf32>, tensor<2xi64>, tensor<16xf32>
}

// dropout_seeded (p = 0.25): x̄ = native_dropout_backward(T, mask, 1 / 0.75);
// the state gets no gradient.
// CHECK-LABEL: func.func @dropout_seeded
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32> {tp.requires_grad}, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<4x8xf32> {tp.tangent})
// CHECK-SAME: -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: %[[OUT:.*]], %[[MASK:.*]] = tp.dropout_seeded %[[X]], %[[S]] {
// CHECK-NEXT: %[[G:.*]] = tp.native_dropout_backward %[[T]], %[[MASK]] {scale = 1.3333333333333333 : f64{{.*}}}
// CHECK-NEXT: return %[[OUT]], %[[G]] :
func.func @dropout_seeded(%x: tensor<4x8xf32> {tp.requires_grad}, %s: tensor<2xi64>) -> tensor<4x8xf32> {
  %o, %m = tp.dropout_seeded %x, %s {counter = 0 : i64, p = 0.25 : f64} : (tensor<4x8xf32>, tensor<2xi64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return %o : tensor<4x8xf32>
}

// On values, with x = T = ones, p = 0.5: the output and the gradient are
// both mask * 2, with the same mask.
// DROP: result #0: tensor<16xf32> min=0 max=2
// DROP-NEXT: [[MASKED:\[.*\]]]
// DROP: result #1: tensor<16xf32>
// DROP-NEXT: [[MASKED]]
func.func @dropout_values(%x: tensor<16xf32> {tp.requires_grad}, %s: tensor<2xi64>) -> tensor<16xf32> {
  %o, %m = tp.dropout_seeded %x, %s {counter = 3 : i64, p = 0.5 : f64} : (tensor<16xf32>, tensor<2xi64>) -> (tensor<16xf32>, tensor<16xi1>)
  return %o : tensor<16xf32>
}

// bernoulli has a zero derivative: in b * p, only the second factor carries
// the gradient, p̄ = T * b (the forward sample).
// CHECK-LABEL: func.func @bernoulli
// CHECK-SAME: (%[[P:.*]]: tensor<16xf32> {tp.requires_grad}, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<16xf32> {tp.tangent})
// CHECK-NEXT: %[[B:.*]] = tp.bernoulli %[[P]], %[[S]] {
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[B]], %[[P]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[B]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @bernoulli(%p: tensor<16xf32> {tp.requires_grad}, %s: tensor<2xi64>) -> tensor<16xf32> {
  %b = tp.bernoulli %p, %s {counter = 0 : i64} : (tensor<16xf32>, tensor<2xi64>) -> tensor<16xf32>
  %y = tp.mul %b, %p : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// A bare Bernoulli sample: the gradient is a zero tensor.
// CHECK-LABEL: func.func @bernoulli_sample
// CHECK-SAME: (%[[P:.*]]: tensor<16xf32> {tp.requires_grad}, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<16xf32> {tp.tangent})
// CHECK-NEXT: %[[B:.*]] = tp.bernoulli %[[P]], %[[S]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<16xf32>
// CHECK-NEXT: return %[[B]], %[[Z]] :
func.func @bernoulli_sample(%p: tensor<16xf32> {tp.requires_grad}, %s: tensor<2xi64>) -> tensor<16xf32> {
  %b = tp.bernoulli %p, %s {counter = 0 : i64} : (tensor<16xf32>, tensor<2xi64>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}

// rand is not differentiated (no float operand); x * rand(s) gets
// x̄ = T * r with the forward's draw r.
// CHECK-LABEL: func.func @rand
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32> {tp.requires_grad}, %[[S:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<8xf32> {tp.tangent})
// CHECK-NEXT: %[[R:.*]] = tp.rand %[[S]] {
// CHECK-NEXT: %[[Y:.*]] = tp.mul %[[X]], %[[R]] {
// CHECK-NEXT: %[[G:.*]] = tp.mul %[[T]], %[[R]] {
// CHECK-NEXT: return %[[Y]], %[[G]] :
// CHECK-NOT: tp.rand
func.func @rand(%x: tensor<8xf32> {tp.requires_grad}, %s: tensor<2xi64>) -> tensor<8xf32> {
  %r = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<8xf32>
  %y = tp.mul %x, %r : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}
