func.func @halves(%x: tensor<4xf16>, %y: tensor<2x2xbf16>) -> tensor<4xf16> {
  %0 = tp.add %x, %x : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
