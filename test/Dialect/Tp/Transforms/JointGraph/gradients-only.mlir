// RUN: stax-opt %s --stax-joint-graph=gradients-only | FileCheck %s
// RUN: stax-opt %s --stax-joint-graph=gradients-only --stax-joint-graph="wrt=0,1 gradients-only" | FileCheck %s --check-prefix=SECOND

// gradients-only keeps the gradient of x alone: the vector-Jacobian product
// t * 3x^2 as a function of x and the tangent t. The forward's x^3 no longer
// has a user and is erased, and so is the joint_outputs mark.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: tensor<f64> {tp.requires_grad}, %[[T:.*]]: tensor<f64> {tp.tangent}) -> tensor<f64>
// CHECK-NOT: tp.joint_outputs
// CHECK: %[[XX:.*]] = tp.mul %[[X]], %[[X]]
// CHECK-NOT: tp.mul %[[XX]], %[[X]]
// CHECK: return
// CHECK-NOT: tensor<f64>, tensor<f64>

// Differentiating the vector-Jacobian product with respect to x and t
// (double backward) takes one more tangent s and returns
// (s * t * 6x, s * 3x^2); t is an ordinary argument of the new forward.
// SECOND-LABEL: func.func @f
// SECOND-SAME: (%[[X:.*]]: tensor<f64> {tp.requires_grad}, %[[T:.*]]: tensor<f64>, %[[S:.*]]: tensor<f64> {tp.tangent}) -> (tensor<f64>, tensor<f64>)
// SECOND-NOT: tp.joint_outputs
// SECOND: %[[XX:.*]] = tp.mul %[[X]], %[[X]]
// SECOND: %[[SXX:.*]] = tp.mul %[[S]], %[[XX]]
// SECOND: return %{{.*}}, %{{.*}} : tensor<f64>, tensor<f64>
// An argument index out of range is an error, as without the option.
// RUN: not stax-opt %s --stax-joint-graph="wrt=3 gradients-only" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: wrt names argument #3 but @f has 1
func.func @f(%x: tensor<f64> {tp.requires_grad}) -> tensor<f64> {
  %0 = tp.mul %x, %x : tensor<f64>, tensor<f64> -> tensor<f64>
  %1 = tp.mul %0, %x : tensor<f64>, tensor<f64> -> tensor<f64>
  return %1 : tensor<f64>
}
