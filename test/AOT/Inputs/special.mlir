func.func @special(%x: tensor<3xf64>, %p: tensor<3xf32>) -> (tensor<3xf64>, tensor<3xf32>, tensor<3xi32>) {
  %0 = tp.lgamma %x : tensor<3xf64> -> tensor<3xf64>
  %1 = tp.special_ndtri %p : tensor<3xf32> -> tensor<3xf32>
  %m, %e = tp.frexp %x : tensor<3xf64> -> tensor<3xf64>, tensor<3xi32>
  return %0, %1, %e : tensor<3xf64>, tensor<3xf32>, tensor<3xi32>
}
