// An entry point named like the libm function its own body calls.
func.func @exp(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = tp.exp %x : tensor<3xf64> -> tensor<3xf64>
  return %0 : tensor<3xf64>
}
