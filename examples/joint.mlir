// A joint graph written by hand (docs/WritingTp.md): what --stax-joint-graph
// makes of `sum(x * w)` with w requiring grad. The attributes are the
// contract that --stax-mincut and --stax-checkpoint read: one tp.tangent
// argument per forward result, the phase of every op, and the number of
// forward results (the rest are gradients).
//
//   build/bin/stax-opt examples/joint.mlir --stax-mincut
func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32> {tp.requires_grad},
             %dloss: tensor<f32> {tp.tangent}) -> (tensor<f32>, tensor<4xf32>)
    attributes {tp.joint_outputs = 1 : i64} {
  %p = tp.mul %x, %w {tp.phase = #tp.phase<fw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %loss = tp.sum %p {dims = array<i64>, tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<f32>
  %e = tp.expand %dloss {size = array<i64: 4>, tp.phase = #tp.phase<bw>} : tensor<f32> -> tensor<4xf32>
  %dw = tp.mul %e, %x {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %loss, %dw : tensor<f32>, tensor<4xf32>
}
