// RUN: stax-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the in-place ops: what eager rejects before
// mutating.

func.func @resize(%a: tensor<3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tp.add_' op the operands broadcast to shape [4, 3], which differs from self's shape [3] (an in-place op cannot resize self)}}
  %0 = tp.add_ %a, %b : tensor<3xf32>, tensor<4x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @no_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'tp.mul_' op operand shapes [4, 3] and [5] do not broadcast}}
  %0 = tp.mul_ %a, %b : tensor<4x3xf32>, tensor<5xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @float_into_int(%a: tensor<4xi64>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tp.sub_' op result type 'f32' cannot be cast to self's element type 'i64' in place}}
  %0 = tp.sub_ %a, %b : tensor<4xi64>, tensor<4xf32> -> tensor<4xi64>
  return
}

// -----

func.func @true_div_int(%a: tensor<4xi64>) {
  // expected-error @+1 {{'tp.div_.Scalar' op result type 'f32' cannot be cast to self's element type 'i64' in place}}
  %0 = tp.div_.Scalar %a {other = 2 : i64} : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @float_scalar_into_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'tp.mul_.Scalar' op result type 'f32' cannot be cast to self's element type 'i32' in place}}
  %0 = tp.mul_.Scalar %a {other = 1.5 : f64} : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @int_into_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'tp.add_.Scalar' op result type 'i64' cannot be cast to self's element type 'i1' in place}}
  %0 = tp.add_.Scalar %a {other = 1 : i64} : tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @sigmoid_int(%a: tensor<4xi64>) {
  // expected-error @+1 {{'tp.sigmoid_' op result type 'f32' cannot be cast to self's element type 'i64' in place}}
  %0 = tp.sigmoid_ %a : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @result_type(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'tp.add_' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = tp.add_ %a, %b : tensor<4xf32>, tensor<4xf64> -> tensor<4xf64>
  return
}

// -----

func.func @rounding_mode(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.div_' op attribute 'rounding_mode' failed to satisfy constraint: rounding of a division}}
  %0 = tp.div_ %a, %a {rounding_mode = "ceil"} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @clamp_no_bounds(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tp.clamp_' op needs at least one of min and max}}
  %0 = tp.clamp_ %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @clamp_float_bound_int(%a: tensor<4xi64>) {
  // expected-error @+1 {{'tp.clamp_' op result type 'f32' cannot be cast to self's element type 'i64' in place}}
  %0 = tp.clamp_ %a {max = 0.5 : f64} : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @copy_src_shape(%a: tensor<4x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'tp.copy_' op src shape [2, 3] does not broadcast to self shape [4, 3]}}
  %0 = tp.copy_ %a, %b : tensor<4x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @mask_shape(%a: tensor<4x3xf32>, %m: tensor<4x3x2xi1>) {
  // expected-error @+1 {{'tp.masked_fill_.Scalar' op mask shape [4, 3, 2] does not broadcast to self shape [4, 3]}}
  %0 = tp.masked_fill_.Scalar %a, %m {value = 0 : i64} : (tensor<4x3xf32>, tensor<4x3x2xi1>) -> tensor<4x3xf32>
  return
}

// -----

func.func @index_put_values(%a: tensor<4x3xf32>, %i: tensor<2xi64>, %v: tensor<5xf32>) {
  // expected-error @+1 {{'tp.index_put_' op values shape [5] does not broadcast to the indexed shape [2, 3]}}
  %0 = tp.index_put_ %a[%i], %v {dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @index_put_dtype(%a: tensor<4x3xf32>, %i: tensor<2xi64>, %v: tensor<2x3xf64>) {
  // expected-error @+1 {{'tp.index_put_' op values element type 'f64' differs from self's 'f32' (index_put_ does not convert)}}
  %0 = tp.index_put_ %a[%i], %v {dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf64>) -> tensor<4x3xf32>
  return
}
