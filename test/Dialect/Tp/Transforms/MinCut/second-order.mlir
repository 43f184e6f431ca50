// RUN: stax-opt %s --stax-joint-graph --stax-joint-graph --stax-mincut | FileCheck %s

// Second order: the joint graph of a joint graph partitions. The first
// tangent (%t1) is an input of the second forward, not a tangent of the new
// joint: the forward computes f and its gradient, the backward the
// Hessian-vector products from the two new tangents.

// CHECK-LABEL: func.func @f_forward
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.requires_grad}, %[[T1:.*]]: tensor<4xf32>)
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32>
// CHECK-NOT: tp.tangent
// CHECK: return
// CHECK-LABEL: func.func @f_backward
// CHECK-SAME: {tp.tangent}, %{{.*}}: tensor<4xf32> {tp.tangent})
// CHECK-SAME: -> tensor<4xf32>
func.func @f(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  %z = tp.mul %y, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %z : tensor<4xf32>
}
