// RUN: stax-opt %s --stax-joint-graph -split-input-file -verify-diagnostics

// The only result depends on the argument through argmax: no derivative.
// expected-error @+1 {{no floating-point result of @argmax depends differentiably on the differentiated arguments}}
func.func @argmax(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<f32> {
  // expected-note @+1 {{the dependence goes through 'tp.argmax', which has no floating-point result}}
  %i = tp.argmax %x : tensor<4xf32> -> tensor<i64>
  %f = tp._to_copy %i {dtype = f32} : tensor<i64> -> tensor<f32>
  return %f : tensor<f32>
}

// -----

// expected-error @+1 {{argument #0 is differentiated but is not a floating-point tensor}}
func.func @integer(%x: tensor<4xi64> {tp.requires_grad}) -> tensor<4xi64> {
  return %x : tensor<4xi64>
}

// -----

// In-place ops exist only before --stax-functionalize.
func.func @in_place(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  // expected-error @+1 {{in-place op 'tp.add_': --stax-joint-graph needs functional tp; run --stax-functionalize first}}
  %y = "tp.add_"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// The joint graph changes @g's signature: its call would be left invalid.
// expected-error @+1 {{function @g is called by @f; --stax-joint-graph changes its signature: inline the calls first (--inline)}}
func.func @g(%x: tensor<4xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %0 = tp.sin %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() -> tensor<4xf32> {
  %x = tp.full {value = 1.0 : f64} : tensor<4xf32>
  // expected-note @+1 {{called here}}
  %0 = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Zeros and cotangents are built with the signature's types: an element
// type no PyTorch dtype has (the f8 types) is refused at the function.
// expected-error @+1 {{argument #1 of type 'tensor<4xf8E4M3FN>' has an element type no PyTorch dtype has; --stax-joint-graph differentiates PyTorch types}}
func.func @f8_argument(%x: tensor<4xf32> {tp.requires_grad}, %y: tensor<4xf8E4M3FN>) -> (tensor<4xf32>, tensor<4xf8E4M3FN>) {
  return %x, %y : tensor<4xf32>, tensor<4xf8E4M3FN>
}
