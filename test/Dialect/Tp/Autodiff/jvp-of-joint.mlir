// RUN: stax-opt %s --stax-joint-graph --stax-jvp="wrt=0" | FileCheck %s
// RUN: stax-opt %s --stax-joint-graph --stax-jvp="wrt=0" --stax-mincut | FileCheck %s --check-prefix=CHECK-MINCUT

// --stax-jvp on a joint graph gives Hessian-vector products, not a joint
// graph: the pass drops tp.joint_outputs and the phases, so the partitioner
// leaves the result alone instead of taking its tangents for gradients.

// CHECK-LABEL: func.func @f
// CHECK-NOT: tp.joint_outputs
// CHECK-NOT: tp.phase
// CHECK: return
// CHECK-MINCUT-LABEL: func.func @f(
// CHECK-MINCUT-NOT: @f_forward
func.func @f(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.exp %x : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
