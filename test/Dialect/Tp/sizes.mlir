// RUN: stax-opt %s -split-input-file -verify-diagnostics

// Sizes the ops cannot compute are verifier errors, not silent wrong
// answers: a byte count past int64 (it used to wrap to 0 elements), and
// max/min-like reductions over an empty dimension (no identity: PyTorch
// raises; the interpreter and the lowering used to disagree).

func.func @overflow(%x: tensor<4294967296x4294967296xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.sum' op operand #0 of type 'tensor<4294967296x4294967296xf32>' has more than 2^63 - 1 bytes}}
  %r = tp.sum %x {dims = array<i64>} : tensor<4294967296x4294967296xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @expand_overflow(%x: tensor<1x1xf32>) -> tensor<2147483648x2147483648x4xf32> {
  // expected-error @+1 {{'tp.expand' op result #0 of type 'tensor<2147483648x2147483648x4xf32>' has more than 2^63 - 1 bytes}}
  %r = tp.expand %x {size = array<i64: 2147483648, 2147483648, 4>} : tensor<1x1xf32> -> tensor<2147483648x2147483648x4xf32>
  return %r : tensor<2147483648x2147483648x4xf32>
}

// -----

func.func @amax_empty(%x: tensor<0x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tp.amax' op reduces dimension 0 of size 0 of 'tensor<0x3xf32>': there is no identity (PyTorch raises an error)}}
  %r = tp.amax %x {dims = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @amin_all_of_empty(%x: tensor<3x0xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.amin' op reduces every dimension of an empty tensor 'tensor<3x0xf32>'}}
  %r = tp.amin %x {dims = array<i64>} : tensor<3x0xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @argmax_empty(%x: tensor<2x0xf32>) -> tensor<2xi64> {
  // expected-error @+1 {{'tp.argmax' op reduces dimension 1 of size 0}}
  %r = tp.argmax %x {dim = -1 : i64} : tensor<2x0xf32> -> tensor<2xi64>
  return %r : tensor<2xi64>
}

// -----

func.func @max_dim_empty(%x: tensor<0x3xf32>) -> (tensor<3xf32>, tensor<3xi64>) {
  // expected-error @+1 {{'tp.max.dim' op reduces dimension 0 of size 0}}
  %v, %i = tp.max.dim %x {dim = 0 : i64} : tensor<0x3xf32> -> tensor<3xf32>, tensor<3xi64>
  return %v, %i : tensor<3xf32>, tensor<3xi64>
}

// -----

// Reducing a non-empty dimension of an empty tensor is fine (no group is
// empty): the result is empty too. So is summing an empty dimension.
func.func @fine(%x: tensor<3x0xf32>, %y: tensor<0x3xf32>) -> (tensor<0xf32>, tensor<3xf32>) {
  %r = tp.amax %x {dims = array<i64: 0>} : tensor<3x0xf32> -> tensor<0xf32>
  %s = tp.sum %y {dims = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32>
  return %r, %s : tensor<0xf32>, tensor<3xf32>
}
