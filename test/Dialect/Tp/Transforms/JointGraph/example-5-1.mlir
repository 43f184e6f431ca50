// RUN: stax-opt %s --stax-joint-graph | FileCheck %s

// Example 5.1, f(x, W) = F.gelu(x @ W).sum() with only W requiring grad,
// gives the joint graph of Listing 5.2: the adjoint of sum expands the
// tangent, gelu_backward reads the matmul (h), not the gelu output, and
// W̄ = t(x) @ h̄. No node computes x̄.

// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[X:.*]]: tensor<32x64xf32>, %[[W:.*]]: tensor<64x64xf32> {tp.requires_grad}, %[[TANGENT:.*]]: tensor<f32> {tp.tangent})
// CHECK-SAME: -> (tensor<f32>, tensor<64x64xf32>)
// CHECK-NEXT: %[[H:.*]] = tp.mm %[[X]], %[[W]] {tp.phase = #tp.phase<fw>}
// CHECK-NEXT: %[[G:.*]] = tp.gelu %[[H]] {tp.phase = #tp.phase<fw>}
// CHECK-NEXT: %[[SUM:.*]] = tp.sum %[[G]] {dims = array<i64>, tp.phase = #tp.phase<fw>}
// CHECK-NEXT: %[[EXP:.*]] = tp.expand %[[TANGENT]] {size = array<i64: 32, 64>, tp.phase = #tp.phase<bw>} : tensor<f32> -> tensor<32x64xf32>
// CHECK-NEXT: %[[GB:.*]] = tp.gelu_backward %[[EXP]], %[[H]] {tp.phase = #tp.phase<bw>}
// CHECK-NEXT: %[[XT:.*]] = tp.t %[[X]] {tp.phase = #tp.phase<bw>}
// CHECK-NEXT: %[[WBAR:.*]] = tp.mm %[[XT]], %[[GB]] {tp.phase = #tp.phase<bw>}
// CHECK-NEXT: return %[[SUM]], %[[WBAR]] : tensor<f32>, tensor<64x64xf32>
func.func @forward(%x: tensor<32x64xf32>, %w: tensor<64x64xf32> {tp.requires_grad}) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %g = tp.gelu %h : tensor<32x64xf32> -> tensor<32x64xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<32x64xf32> -> tensor<f32>
  return %s : tensor<f32>
}
