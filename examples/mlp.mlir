// A two-layer MLP with a mean squared error loss, written by hand
// (docs/WritingTp.md): the parameters requiring grad are marked, so
// --stax-joint-graph differentiates with respect to them.
//
//   build/bin/stax-opt examples/mlp.mlir --stax-joint-graph --stax-mincut
//   build/bin/stax-run examples/mlp.mlir --random-inputs --jit
func.func @mlp(%x: tensor<32x16xf32>, %target: tensor<32x1xf32>,
               %w1: tensor<64x16xf32> {tp.requires_grad},
               %b1: tensor<64xf32> {tp.requires_grad},
               %w2: tensor<1x64xf32> {tp.requires_grad},
               %b2: tensor<1xf32> {tp.requires_grad}) -> tensor<f32> {
  // nn.Linear(16, 64): x @ w1^T + b1
  %w1t = tp.t %w1 : tensor<64x16xf32> -> tensor<16x64xf32>
  %h = tp.addmm %b1, %x, %w1t : (tensor<64xf32>, tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
  %a = tp.tanh %h : tensor<32x64xf32> -> tensor<32x64xf32>
  // nn.Linear(64, 1)
  %w2t = tp.t %w2 : tensor<1x64xf32> -> tensor<64x1xf32>
  %y = tp.addmm %b2, %a, %w2t : (tensor<1xf32>, tensor<32x64xf32>, tensor<64x1xf32>) -> tensor<32x1xf32>
  %loss = tp.mse_loss %y, %target {reduction = #tp.reduction<mean>} : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
