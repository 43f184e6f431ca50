// RUN: stax-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the tp dialect: each invalid op gets an
// error that names the op and the problem.

func.func @c0(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'tp.add' op operand shapes [4, 3] and [5] do not broadcast}}
  %0 = tp.add %a, %b : tensor<4x3xf32>, tensor<5xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c1(%a: tensor<4xi64>) {
  // expected-error @+1 {{'tp.exp' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi64>'}}
  %0 = tp.exp %a : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @c2(%a: tensor<4xi64>) {
  // expected-error @+1 {{'tp.silu' op expects floating-point operands, got integer or bool}}
  %0 = tp.silu %a : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @c3(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.bitwise_not' op expects integer or bool operands, got floating point}}
  %0 = tp.bitwise_not %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c4(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'tp.exp' op unsupported element type}}
  %0 = tp.exp %a : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @c5(%a: tensor<?xf32>) {
  // expected-error @+1 {{'tp.exp' op dynamic dimensions are not supported yet}}
  %0 = tp.exp %a : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @c6(%a: tensor<*xf32>) {
  // expected-error @+1 {{'tp.exp' op operand #0 must be ranked tensor of any type values}}
  %0 = "tp.exp"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @c7(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.mul.Scalar' op attribute 'other' failed to satisfy constraint: scalar (i64, f64 or bool attribute)}}
  %0 = tp.mul.Scalar %a {other = 2 : i32} : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c8(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.sum' op dim 2 is out of range for rank 2}}
  %0 = tp.sum %a {dims = array<i64: 2>} : tensor<4x3xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c9(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.sum' op dim -1 appears more than once}}
  %0 = tp.sum %a {dims = array<i64: 1, -1>} : tensor<4x3xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c10(%a: tensor<4x3xi64>) {
  // expected-error @+1 {{'tp.mean' op expects floating-point operands, got integer or bool}}
  %0 = tp.mean %a {dims = array<i64: 1>} : tensor<4x3xi64> -> tensor<4xi64>
  return
}

// -----

func.func @c11(%a: tensor<4x3xi64>) {
  // expected-error @+1 {{'tp.var' op expects floating-point operands, got integer or bool}}
  %0 = tp.var %a {dims = array<i64: 1>} : tensor<4x3xi64> -> tensor<4xi64>
  return
}

// -----

func.func @c12(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.view' op only one dimension can be -1}}
  %0 = tp.view %a {size = array<i64: -1, -1>} : tensor<4x3xf32> -> tensor<12xf32>
  return
}

// -----

func.func @c13(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.view' op invalid size -2}}
  %0 = tp.view %a {size = array<i64: -2, 6>} : tensor<4x3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @c14(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.view' op cannot infer -1 in [5, -1] for 12 elements}}
  %0 = tp.view %a {size = array<i64: 5, -1>} : tensor<4x3xf32> -> tensor<5x2xf32>
  return
}

// -----

func.func @c15(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.reshape' op shape [5, 2] has 10 elements but the input has 12}}
  %0 = tp.reshape %a {size = array<i64: 5, 2>} : tensor<4x3xf32> -> tensor<5x2xf32>
  return
}

// -----

func.func @c16(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp._reshape_alias' op size and stride have different lengths}}
  %0 = tp._reshape_alias %a {size = array<i64: 12>, stride = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<12xf32>
  return
}

// -----

func.func @c17(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.gelu' op attribute 'approximate' failed to satisfy constraint: GELU formula}}
  %0 = tp.gelu %a {approximate = "erf"} : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c18(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.clamp' op needs at least one of min and max}}
  %0 = tp.clamp %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c19(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.div' op attribute 'rounding_mode' failed to satisfy constraint: rounding of a division}}
  %0 = tp.div %a, %a {rounding_mode = "ceil"} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c20(%a: tensor<4xf32>) {
  // expected-error @+2 {{expected ::mlir::tp::RoundingMode to be one of: trunc, floor}}
  // expected-error @+1 {{failed to parse Tp_RoundingModeAttr parameter 'value'}}
  %0 = tp.div.Scalar %a {other = 2 : i64, rounding_mode = #tp.rounding_mode<up>} : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c21(%c: tensor<5xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.where' op condition shape [5] does not broadcast with [4]}}
  %0 = tp.where %c, %a, %a : (tensor<5xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @c22(%c: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.where' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tp.where %c, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @c23(%a: tensor<4xf32>, %m: tensor<2x4xi1>) {
  // expected-error @+1 {{'tp.masked_fill.Scalar' op mask shape [2, 4] does not broadcast to self shape [4]}}
  %0 = tp.masked_fill.Scalar %a, %m {value = 0 : i64} : (tensor<4xf32>, tensor<2x4xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @c24(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp._softmax' op dim 2 is out of range for rank 2}}
  %0 = tp._softmax %a {dim = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c25(%a: tensor<4x3xi64>) {
  // expected-error @+1 {{'tp._softmax' op self must be floating point}}
  %0 = tp._softmax %a {dim = 1 : i64} : tensor<4x3xi64> -> tensor<4x3xi64>
  return
}

// -----

func.func @c26(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'tp._softmax_backward_data' op grad_output and output shapes [4, 3] and [4, 2] differ}}
  %0 = tp._softmax_backward_data %a, %b {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c27(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.native_layer_norm' op normalized_shape [4] is not a suffix of the input shape [4, 3]}}
  %0:3 = tp.native_layer_norm %a {normalized_shape = array<i64: 4>, eps = 1.0e-5 : f64} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @c28(%a: tensor<4x3xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'tp.native_layer_norm' op weight shape [4] differs from normalized_shape [3]}}
  %0:3 = tp.native_layer_norm %a weight(%w) {normalized_shape = array<i64: 3>, eps = 1.0e-5 : f64} : (tensor<4x3xf32>, tensor<4xf32>) -> (tensor<4x3xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @c29(%a: tensor<4x3xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'tp.native_layer_norm_backward' op mean and rstd must have shape [4, 1]}}
  %0:3 = tp.native_layer_norm_backward %a, %a, %m, %m {normalized_shape = array<i64: 3>} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @c30(%a: tensor<2x4x3xf32>, %t: tensor<2xi64>) {
  // expected-error @+1 {{'tp.nll_loss_forward' op self must be 1-D or 2-D, got rank 3}}
  %0:2 = tp.nll_loss_forward %a, %t : (tensor<2x4x3xf32>, tensor<2xi64>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @c31(%a: tensor<4x3xf32>, %t: tensor<5xi64>) {
  // expected-error @+1 {{'tp.nll_loss_forward' op target shape [5] does not match self shape [4, 3]}}
  %0:2 = tp.nll_loss_forward %a, %t : (tensor<4x3xf32>, tensor<5xi64>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @c32(%a: tensor<4x3xf32>, %t: tensor<4xi64>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'tp.nll_loss_forward' op weight must have one entry per class}}
  %0:2 = tp.nll_loss_forward %a, %t weight(%w) : (tensor<4x3xf32>, tensor<4xi64>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @c33(%a: tensor<4x3xf32>, %t: tensor<4xi64>) {
  // expected-error @+1 {{'tp.nll_loss_forward' op attribute 'reduction' failed to satisfy constraint: reduction of a loss}}
  %0:2 = tp.nll_loss_forward %a, %t {reduction = 3 : i64} : (tensor<4x3xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @c34(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'tp.mse_loss' op operand shapes [4, 3] and [4, 2] do not broadcast}}
  %0 = tp.mse_loss %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<f32>
  return
}

// -----

func.func @c35(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.mm' op contraction sizes differ: [4, 3] and [4, 3]}}
  %0 = tp.mm %a, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c36(%a: tensor<4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.mm' op expects 2-D operands, got ranks 1 and 2}}
  %0 = tp.mm %a, %b : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c37(%a: tensor<4x3xf32>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'tp.mm' op operand dtypes differ}}
  %0 = tp.mm %a, %b : (tensor<4x3xf32>, tensor<3x2xf64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @c38(%a: tensor<2x4x3xf32>, %b: tensor<3x3x2xf32>) {
  // expected-error @+1 {{'tp.bmm' op batch sizes differ}}
  %0 = tp.bmm %a, %b : (tensor<2x4x3xf32>, tensor<3x3x2xf32>) -> tensor<2x4x2xf32>
  return
}

// -----

func.func @c39(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tp.dot' op expects two 1-D tensors of equal size}}
  %0 = tp.dot %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @c40(%a: tensor<f32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tp.matmul' op operands must be at least 1-D}}
  %0 = tp.matmul %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @c41(%a: tensor<2x4x3xf32>, %b: tensor<5x3x2xf32>) {
  // expected-error @+1 {{'tp.matmul' op batch dimensions do not broadcast}}
  %0 = tp.matmul %a, %b : (tensor<2x4x3xf32>, tensor<5x3x2xf32>) -> tensor<2x4x2xf32>
  return
}

// -----

func.func @c42(%s: tensor<3xf32>, %a: tensor<4x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'tp.addmm' op self shape [3] does not broadcast to the product shape [4, 2]}}
  %0 = tp.addmm %s, %a, %b : (tensor<3xf32>, tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @c43(%a: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'tp.t' op expects a tensor of rank <= 2, got rank 3}}
  %0 = tp.t %a : tensor<2x4x3xf32> -> tensor<3x4x2xf32>
  return
}

// -----

func.func @c44(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.transpose' op dim1 2 is out of range for rank 2}}
  %0 = tp.transpose %a {dim0 = 0 : i64, dim1 = 2 : i64} : tensor<4x3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @c45(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.permute' op dims has 1 entries for a tensor of rank 2}}
  %0 = tp.permute %a {dims = array<i64: 0>} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c46(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.permute' op dims is not a permutation}}
  %0 = tp.permute %a {dims = array<i64: 0, -2>} : tensor<4x3xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @c47(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.expand' op size [3] has fewer dims than the input [4, 3]}}
  %0 = tp.expand %a {size = array<i64: 3>} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c48(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.expand' op -1 is not allowed for a new leading dim}}
  %0 = tp.expand %a {size = array<i64: -1, 4, 3>} : tensor<4x3xf32> -> tensor<1x4x3xf32>
  return
}

// -----

func.func @c49(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.expand' op cannot expand [4, 3] to [4, 5]}}
  %0 = tp.expand %a {size = array<i64: 4, 5>} : tensor<4x3xf32> -> tensor<4x5xf32>
  return
}

// -----

func.func @c50(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.unsqueeze' op dim 3 is out of range for rank 3}}
  %0 = tp.unsqueeze %a {dim = 3 : i64} : tensor<4x3xf32> -> tensor<4x3x1xf32>
  return
}

// -----

func.func @c51(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.squeeze' op dim 5 is out of range for rank 2}}
  %0 = tp.squeeze %a {dims = array<i64: 5>} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c52(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.slice' op step must be positive, got 0}}
  %0 = tp.slice %a {dim = 0 : i64, step = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c53(%a: tensor<f32>) {
  // expected-error @+1 {{'tp.slice' op cannot slice a 0-d tensor}}
  %0 = tp.slice %a : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @c54(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.select' op index 4 is out of range for a dim of size 4}}
  %0 = tp.select %a {dim = 0 : i64, index = 4 : i64} : tensor<4x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @c55(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.as_strided' op the view reaches element 15 of a storage of 12}}
  %0 = tp.as_strided %a {size = array<i64: 4, 4>, stride = array<i64: 4, 1>} : tensor<4x3xf32> -> tensor<4x4xf32>
  return
}

// -----

// A view before its storage.
func.func @as_strided_negative_offset(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.as_strided' op storage offset -5 is negative}}
  %0 = tp.as_strided %a {size = array<i64: 3>, stride = array<i64: 1>, storage_offset = -5 : i64} : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

// Reaches that wrap around int64 are past the storage, not before it.
func.func @as_strided_wrapping_stride(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.as_strided' op the view reaches past element 2^63 - 1 of a storage of 4}}
  %0 = tp.as_strided %a {size = array<i64: 3>, stride = array<i64: 4611686018477387904>} : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @as_strided_wrapping_offset(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.as_strided' op the view reaches past element 2^63 - 1 of a storage of 4}}
  %0 = tp.as_strided %a {size = array<i64: 3>, stride = array<i64: 1>, storage_offset = 9223372036854775807 : i64} : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @c56(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.split' op split_size must be positive}}
  %0:2 = tp.split %a {split_size = 0 : i64} : tensor<4x3xf32> -> tensor<2x3xf32>, tensor<2x3xf32>
  return
}

// -----

func.func @c57(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.split_with_sizes' op split_sizes sum to 3 but dim has size 4}}
  %0:2 = tp.split_with_sizes %a {split_sizes = array<i64: 1, 2>} : tensor<4x3xf32> -> tensor<1x3xf32>, tensor<2x3xf32>
  return
}

// -----

func.func @c58(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'tp.cat' op tensor #1 has shape [4, 2], incompatible with [4, 3]}}
  %0 = tp.cat %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @c59(%a: tensor<4x3xf32>, %b: tensor<4x3xf64>) {
  // expected-error @+1 {{'tp.cat' op tensor #1 has a different dtype}}
  %0 = tp.cat %a, %b : (tensor<4x3xf32>, tensor<4x3xf64>) -> tensor<8x3xf32>
  return
}

// -----

func.func @c60(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.stack' op dim 3 is out of range for rank 3}}
  %0 = tp.stack %a, %b {dim = 3 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3x2xf32>
  return
}

// -----

func.func @c61(%a: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'tp.index' op has 1 indices but 2 dims}}
  %0 = tp.index %a[%i] {dims = array<i64: 0, 1>} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @c62(%a: tensor<4x3xf32>, %i: tensor<2xi64>, %j: tensor<3xi64>) {
  // expected-error @+1 {{'tp.index' op index shapes do not broadcast}}
  %0 = tp.index %a[%i, %j] {dims = array<i64: 0, 1>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<3xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @c63(%a: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'tp.index' op dims must be strictly increasing}}
  %0 = tp.index %a[%i, %i] {dims = array<i64: 1, 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @c64(%a: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{'tp.index' op operand #1 must be variadic of ranked tensor of 64-bit signless integer or 32-bit signless integer values}}
  %0 = tp.index %a[%i] {dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @c65(%a: tensor<4x3xf32>, %i: tensor<2xi64>, %v: tensor<5xf32>) {
  // expected-error @+1 {{'tp.index_put' op values shape [5] does not broadcast to the indexed shape [2, 3]}}
  %0 = tp.index_put %a[%i], %v {dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c66(%a: tensor<4x3xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{'tp.index_select' op index must be 0-D or 1-D}}
  %0 = tp.index_select %a, %i {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c67(%a: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'tp.gather' op index must have the rank of self}}
  %0 = tp.gather %a, %i {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @c68(%a: tensor<4x3xf32>, %i: tensor<2x5xi64>) {
  // expected-error @+1 {{'tp.gather' op index is larger than self in dim 1}}
  %0 = tp.gather %a, %i {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x5xi64>) -> tensor<2x5xf32>
  return
}

// -----

func.func @c69(%a: tensor<4x3xf32>, %i: tensor<2x3xi64>, %s: tensor<2x3xf64>) {
  // expected-error @+1 {{'tp.scatter' op src and self dtypes differ}}
  %0 = tp.scatter %a, %i, %s {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c70(%a: tensor<4x3xf32>, %i: tensor<2x3xi64>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'tp.scatter_add' op src must have the rank of self}}
  %0 = tp.scatter_add %a, %i, %s {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @c71(%w: tensor<10xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'tp.embedding' op weight must be 2-D}}
  %0 = tp.embedding %w, %i : (tensor<10xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @c72(%g: tensor<3x4xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'tp.embedding_dense_backward' op grad_output shape [3, 4] must be indices shape [2] plus one dim}}
  %0 = tp.embedding_dense_backward %g, %i {num_weights = 10 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<10x4xf32>
  return
}

// -----

func.func @c73(%g: tensor<2x4xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'tp.embedding_dense_backward' op num_weights must be non-negative}}
  %0 = tp.embedding_dense_backward %g, %i {num_weights = -1 : i64} : (tensor<2x4xf32>, tensor<2xi64>) -> tensor<0x4xf32>
  return
}

// -----

func.func @c74() {
  // expected-error @+1 {{'tp.arange' op result has 3 elements but the range has 4}}
  %0 = tp.arange {start = 0 : i64, end = 10 : i64, step = 3 : i64} : tensor<3xi64>
  return
}

// -----

func.func @c75() {
  // expected-error @+1 {{'tp.arange' op step must be non-zero}}
  %0 = tp.arange {start = 0 : i64, end = 10 : i64, step = 0 : i64} : tensor<3xi64>
  return
}

// -----

func.func @c76() {
  // expected-error @+1 {{'tp.arange' op result must be a static 1-D tensor}}
  %0 = tp.arange {start = 0 : i64, end = 4 : i64} : tensor<2x2xi64>
  return
}

// -----

func.func @c77() {
  // expected-error @+1 {{'tp.full' op result must have a static shape}}
  %0 = tp.full {value = 1 : i64} : tensor<?xf32>
  return
}

// -----

func.func @c78() {
  // expected-error @+1 {{'tp.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "tp.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @c79(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.native_dropout' op p must be in [0, 1], got 1.500000}}
  %0:2 = tp.native_dropout %a {p = 1.5 : f64} : tensor<4xf32> -> tensor<4xf32>, tensor<4xi1>
  return
}

// -----

func.func @c80(%g: tensor<4xf32>, %m: tensor<3xi1>) {
  // expected-error @+1 {{'tp.native_dropout_backward' op grad_output and mask shapes [4] and [3] differ}}
  %0 = tp.native_dropout_backward %g, %m {scale = 2.0 : f64} : (tensor<4xf32>, tensor<3xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @c81(%g: tensor<3x3xf32>) {
  // expected-error @+1 {{'tp.slice_backward' op grad_output shape [3, 3] is not the slice shape [2, 3]}}
  %0 = tp.slice_backward %g {input_sizes = array<i64: 4, 3>, dim = 0 : i64, start = 0 : i64, end = 2 : i64, step = 1 : i64} : tensor<3x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c82(%g: tensor<3xf32>) {
  // expected-error @+1 {{'tp.select_backward' op index 7 is out of range}}
  %0 = tp.select_backward %g {input_sizes = array<i64: 4, 3>, dim = 0 : i64, index = 7 : i64} : tensor<3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @c83(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.logsumexp' op inferred type(s) 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = tp.logsumexp %a {dims = array<i64: 0>} : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @c84(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.max.dim' op dim 1 is out of range for rank 1}}
  %0:2 = tp.max.dim %a {dim = 1 : i64} : tensor<4xf32> -> tensor<4xf32>, tensor<4xi64>
  return
}

// -----

func.func @c85(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.argmax' op dim -3 is out of range for rank 2}}
  %0 = tp.argmax %a {dim = -3 : i64} : tensor<4x3xf32> -> tensor<4xi64>
  return
}

// -----

func.func @c86(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.sort' op dim 2 is out of range for rank 2}}
  %0:2 = tp.sort %a {dim = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi64>
  return
}

// -----

func.func @c87(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.sort' op dim -3 is out of range for rank 2}}
  %0:2 = tp.sort %a {dim = -3 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi64>
  return
}

// -----

// A 0-d tensor takes dim 0 or -1 only (as in PyTorch).
func.func @c88(%a: tensor<f32>) {
  // expected-error @+1 {{'tp.sort' op dim 1 is out of range for rank 0}}
  %0:2 = tp.sort %a {dim = 1 : i64} : tensor<f32> -> tensor<f32>, tensor<i64>
  return
}

// -----

// The indices are int64 of self's shape.
func.func @c89(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.sort' op inferred type(s) 'tensor<4x3xf32>', 'tensor<4x3xi64>' are incompatible with return type(s) of operation 'tensor<4x3xf32>', 'tensor<4x3xi32>'}}
  %0:2 = tp.sort %a {dim = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi32>
  return
}

// -----

func.func @c90(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'tp.sort' op expects integer or floating-point elements}}
  %0:2 = tp.sort %a {dim = 0 : i64} : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>, tensor<4xi64>
  return
}

// -----

// The values keep self's type.
func.func @c91(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.sort' op inferred type(s) 'tensor<4xf32>', 'tensor<4xi64>' are incompatible with return type(s) of operation 'tensor<4xf64>', 'tensor<4xi64>'}}
  %0:2 = tp.sort %a {dim = 0 : i64} : tensor<4xf32> -> tensor<4xf64>, tensor<4xi64>
  return
}

// -----

// uint8 with int8 is int16: neither 8-bit type holds both ranges.
func.func @c92(%a: tensor<4xui8>, %b: tensor<4xi8>) {
  // expected-error @+1 {{'tp.add' op inferred type(s) 'tensor<4xi16>' are incompatible with return type(s) of operation 'tensor<4xi8>'}}
  %0 = tp.add %a, %b : tensor<4xui8>, tensor<4xi8> -> tensor<4xi8>
  return
}

// -----

// Integers are signless, or ui8 (uint8): signed and other unsigned types
// have no PyTorch dtype.
func.func @c93(%a: tensor<4xsi8>) {
  // expected-error @+1 {{'tp.add' op unsupported element type}}
  %0 = tp.add %a, %a : tensor<4xsi8>, tensor<4xsi8> -> tensor<4xsi8>
  return
}

// -----

func.func @c94(%a: tensor<4xui16>) {
  // expected-error @+1 {{'tp.neg' op unsupported element type}}
  %0 = tp.neg %a : tensor<4xui16> -> tensor<4xui16>
  return
}

// -----

func.func @c95(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp._to_copy' op unsupported dtype}}
  %0 = tp._to_copy %a {dtype = ui32} : tensor<4xf32> -> tensor<4xui32>
  return
}

// -----

func.func @cumsum_dim_out_of_range(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.cumsum' op dim 2 is out of range for rank 2}}
  %0 = tp.cumsum %a {dim = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @cumsum_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'tp.cumsum' op expects integer or floating-point elements (convert bool to i64 first), got i1}}
  %0 = tp.cumsum %a {dim = 0 : i64} : tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @cumprod_bool(%a: tensor<2x4xi1>) {
  // expected-error @+1 {{'tp.cumprod' op expects integer or floating-point elements (convert bool to i64 first), got i1}}
  %0 = tp.cumprod %a {dim = -1 : i64} : tensor<2x4xi1> -> tensor<2x4xi1>
  return
}

// -----

func.func @logcumsumexp_int(%a: tensor<4xi64>) {
  // expected-error @+1 {{'tp.logcumsumexp' op expects floating-point elements, got i64}}
  %0 = tp.logcumsumexp %a {dim = 0 : i64} : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @cummax_index_type(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.cummax' op inferred type(s) 'tensor<4x3xf32>', 'tensor<4x3xi64>' are incompatible with return type(s) of operation 'tensor<4x3xf32>', 'tensor<4x3xi32>'}}
  %0:2 = tp.cummax %a {dim = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi32>
  return
}

// -----

func.func @cumsum_result_type(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.cumsum' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf64>'}}
  %0 = tp.cumsum %a {dim = 0 : i64} : tensor<4x3xf32> -> tensor<4x3xf64>
  return
}

// -----

func.func @cummax_complex(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'tp.cummax' op expects integer, bool or floating-point elements, got complex<f32>}}
  %0:2 = tp.cummax %a {dim = 0 : i64} : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>, tensor<4xi64>
  return
}

// -----

func.func @topk_k_too_large(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.topk' op k 4 is out of range for a dim of size 3}}
  %0:2 = tp.topk %a {k = 4 : i64, dim = 1 : i64} : tensor<4x3xf32> -> tensor<4x4xf32>, tensor<4x4xi64>
  return
}

// -----

func.func @topk_negative_k(%a: tensor<f32>) {
  // expected-error @+1 {{'tp.topk' op k -1 is out of range for a dim of size 1}}
  %0:2 = tp.topk %a {k = -1 : i64, dim = 0 : i64} : tensor<f32> -> tensor<f32>, tensor<i64>
  return
}

// -----

func.func @topk_dim(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.topk' op dim -3 is out of range for rank 2}}
  %0:2 = tp.topk %a {k = 1 : i64, dim = -3 : i64} : tensor<4x3xf32> -> tensor<4x1xf32>, tensor<4x1xi64>
  return
}

// -----

func.func @topk_result_shape(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.topk' op inferred type(s) 'tensor<4x2xf32>', 'tensor<4x2xi64>' are incompatible with return type(s) of operation 'tensor<4x3xf32>', 'tensor<4x3xi64>'}}
  %0:2 = tp.topk %a {k = 2 : i64, dim = 1 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi64>
  return
}

// -----

// Element types without a PyTorch dtype: rejected by every tp op, views
// and copies included (code generation cannot store them).
func.func @f80_relu(%a: tensor<2xf80>) {
  // expected-error @+1 {{'tp.relu' op unsupported element type}}
  %0 = tp.relu %a : tensor<2xf80> -> tensor<2xf80>
  return
}

// -----

func.func @i2_transpose(%a: tensor<4x3xi2>) {
  // expected-error @+1 {{'tp.t' op operand #0 of type 'tensor<4x3xi2>' has an element type no PyTorch dtype has (f16, bf16, f32, f64, i1, i8, ui8, i16, i32, i64)}}
  %0 = tp.t %a : tensor<4x3xi2> -> tensor<3x4xi2>
  return
}

// -----

func.func @f8_view(%a: tensor<4x3xf8E4M3FN>) {
  // expected-error @+1 {{'tp.view' op operand #0 of type 'tensor<4x3xf8E4M3FN>' has an element type}}
  %0 = tp.view %a {size = array<i64: 12>} : tensor<4x3xf8E4M3FN> -> tensor<12xf8E4M3FN>
  return
}

// -----

func.func @dropout_backward_int(%g: tensor<4xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'tp.native_dropout_backward' op grad_output must be floating point}}
  %0 = tp.native_dropout_backward %g, %m {scale = 2.0 : f64} : (tensor<4xi32>, tensor<4xi1>) -> tensor<4xi32>
  return
}

// -----

func.func @mse_backward_grad_shape(%g: tensor<3xf32>, %a: tensor<4x2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'tp.mse_loss_backward' op grad_output shape [3] does not broadcast to [4, 2]}}
  %0 = tp.mse_loss_backward %g, %a, %b : (tensor<3xf32>, tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return
}

// -----

// One result type per chunk: a verifier that built them all ran out of memory.
func.func @split_too_many_chunks(%x: tensor<9223372036854775807xf32>) {
  // expected-error @+1 {{'tp.split' op split_size 1 makes 9223372036854775807 chunks of a dimension of size 9223372036854775807; at most 1048576}}
  %y:2 = tp.split %x {split_size = 1 : i64} : tensor<9223372036854775807xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}
