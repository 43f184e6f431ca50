// A small model to try the tools on (README.md, docs/WritingTp.md): a
// linear layer, GELU and a sum, `F.gelu(x @ w + b).sum()`, with the
// weights requiring grad.
//
//   build/bin/stax-run examples/model.mlir --random-inputs
//   build/bin/stax-opt examples/model.mlir --stax-joint-graph --stax-mincut
//   build/bin/stax-opt examples/model.mlir --stax-pipeline -o k.mlir
func.func @forward(%x: tensor<8x16xf32>,
                   %w: tensor<16x4xf32> {tp.requires_grad},
                   %b: tensor<4xf32> {tp.requires_grad}) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %z = tp.add %h, %b : tensor<8x4xf32>, tensor<4xf32> -> tensor<8x4xf32>
  %g = tp.gelu %z : tensor<8x4xf32> -> tensor<8x4xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<8x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}
