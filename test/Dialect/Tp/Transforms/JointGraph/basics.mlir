// RUN: stax-opt %s --stax-joint-graph -split-input-file | FileCheck %s

// A value used twice accumulates both contributions (reverse topological
// order: the add happens before the adjoint is used).
// CHECK-LABEL: func.func @fanout
// CHECK-SAME: %[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent}
// CHECK: %[[Y:.*]] = tp.mul %[[X]], %[[X]] {tp.phase = #tp.phase<fw>}
// CHECK: %[[A:.*]] = tp.mul %[[T]], %[[X]] {tp.phase = #tp.phase<bw>}
// CHECK: %[[B:.*]] = tp.mul %[[T]], %[[X]] {tp.phase = #tp.phase<bw>}
// CHECK: %[[SUM:.*]] = tp.add %[[A]], %[[B]] {tp.phase = #tp.phase<bw>}
// CHECK: return %[[Y]], %[[SUM]]
func.func @fanout(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.mul %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// An argument that reaches no result gets a zero gradient; integer results
// get no tangent.
// CHECK-LABEL: func.func @unused
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {tp.requires_grad}, %{{.*}}: tensor<3xf32> {tp.requires_grad}, %{{.*}}: tensor<4xf32> {tp.tangent})
// CHECK-SAME: -> (tensor<4xf32>, tensor<i64>, tensor<4xf32>, tensor<3xf32>)
// CHECK: %[[Z:.*]] = tp.full {tp.phase = #tp.phase<bw>, value = 0.000000e+00 : f64} : tensor<3xf32>
// CHECK: return
func.func @unused(%x: tensor<4xf32> {tp.requires_grad}, %y: tensor<3xf32> {tp.requires_grad}) -> (tensor<4xf32>, tensor<i64>) {
  %e = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  %i = tp.argmax %y : tensor<3xf32> -> tensor<i64>
  return %e, %i : tensor<4xf32>, tensor<i64>
}

