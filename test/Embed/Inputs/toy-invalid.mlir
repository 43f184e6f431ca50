// ODS verifies the toy ops (operand and result types).
func.func @ints(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'toy.square' op operand #0 must be ranked tensor of 32-bit float values}}
  %0 = toy.square %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @not_0d(%x: tensor<4xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{'toy.sum' op result #0 must be 0D tensor of 32-bit float values}}
  %0 = toy.sum %x : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
