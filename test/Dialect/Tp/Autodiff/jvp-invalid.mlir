// RUN: stax-opt %s -split-input-file --stax-jvp="wrt=1" -verify-diagnostics
// RUN: not stax-opt %s --stax-jvp="function=nope" 2>&1 | FileCheck %s --check-prefix=CHECK-NOPE

// The errors of --stax-jvp (lib/Dialect/Tp/Transforms/JVP.cpp). Every chunk
// runs with wrt=1: a tangent for argument #1 only.

// CHECK-NOPE: error: no function named @nope

// `wrt` names an argument the function does not have.
// expected-error @+1 {{wrt names argument #1 but @one_arg has 1}}
func.func @one_arg(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// `wrt` names an integer argument.
// expected-error @+1 {{argument #1 is not a floating-point tensor}}
func.func @integer(%x: tensor<4xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A tangent reaches an op without DifferentiableOpInterface (here one from
// another dialect): the error names the op and the function. The tangent of
// %y flows into it; %x has no tangent.
func.func @no_rule(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'math.exp' op is not differentiable, but a tangent of @no_rule flows through it}}
  %e = math.exp %y : tensor<4xf32>
  %z = tp.add %x, %e : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// An op without a rule that no tangent reaches is fine (math.exp of the
// undifferentiated %x): no diagnostic.
func.func @no_rule_off_path(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = math.exp %x : tensor<4xf32>
  %z = tp.mul %e, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Only single-block functions are differentiated.
// expected-error @+1 {{autodiff supports single-block functions}}
func.func @two_blocks(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
^bb1:
  %z = tp.full {value = 0.0 : f64} : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// expected-error @+1 {{function @g is called by @f; --stax-jvp changes its signature: inline the calls first (--inline)}}
func.func @g(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.mul %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{called here}}
  %0 = func.call @g(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tangents and zeros are built with the signature's types: an element type
// no PyTorch dtype has (the f8 types) is refused at the function.
// expected-error @+1 {{argument #1 of type 'tensor<4xf8E5M2>' has an element type no PyTorch dtype has; --stax-jvp differentiates PyTorch types}}
func.func @f8_argument(%x: tensor<4xf32>, %y: tensor<4xf8E5M2>) -> (tensor<4xf32>, tensor<4xf8E5M2>) {
  return %x, %y : tensor<4xf32>, tensor<4xf8E5M2>
}

// -----

// polygamma(n)' = polygamma(n + 1): no order follows the largest one.
func.func @polygamma_largest_order(%z: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'tp.polygamma' op has no derivative: its order would be n + 1 = 2^63}}
  // expected-error @+1 {{'tp.polygamma' op has no Jacobian-vector product for this case}}
  %y = tp.polygamma %x {n = 9223372036854775807 : i64} : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
