// The sum of squares in the example's toy dialect:
//   embed-opt toy.mlir --toy-to-tp --stax-pipeline="target=cpu"
func.func @square_sum(%x: tensor<64x256xf32>) -> tensor<f32> {
  %0 = toy.square %x : tensor<64x256xf32>
  %1 = toy.sum %0 : tensor<64x256xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
