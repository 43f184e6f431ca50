func.func @example(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}
