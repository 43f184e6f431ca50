// RUN: stax-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the special-function ops.

func.func @polygamma_order(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tp.polygamma' op order n = -1 must be >= 0}}
  %0 = tp.polygamma %x {n = -1 : i64} : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @frexp_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tp.frexp' op self must be floating point}}
  %0:2 = tp.frexp %x : tensor<4xi32> -> tensor<4xi32>, tensor<4xi32>
  return
}

// -----

func.func @frexp_exponent_type(%x: tensor<4xf64>) {
  // expected-error @+1 {{'tp.frexp' op inferred type(s) 'tensor<4xf64>', 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4xf64>', 'tensor<4xi64>'}}
  %0:2 = tp.frexp %x : tensor<4xf64> -> tensor<4xf64>, tensor<4xi64>
  return
}

// -----

func.func @nextafter_int(%a: tensor<4xi64>, %b: tensor<4xi64>) {
  // expected-error @+1 {{'tp.nextafter' op expects floating-point operands, got integer or bool}}
  %0 = tp.nextafter %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @lgamma_int_result(%x: tensor<4xi64>) {
  // expected-error @+1 {{'tp.lgamma' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi64>'}}
  %0 = tp.lgamma %x : tensor<4xi64> -> tensor<4xi64>
  return
}
