// RUN: stax-opt --stax-decompose --stax-lower="strict=true" %s -verify-diagnostics -split-input-file
// RUN: not stax-opt --stax-decompose --stax-lower="target=tpu" %s 2>&1 | FileCheck %s --check-prefix=CHECK-TARGET

// CHECK-TARGET: for the --target option: Cannot find option named 'tpu'!

func.func @fallback(%x: tensor<4x8xi64>) -> tensor<4x8xi64> {
  // expected-error @+1 {{'tp.pow.Tensor_Scalar' has no lowering rule (strict mode): this instance (types or attributes) is not covered}}
  %d = tp.pow.Tensor_Scalar %x {other = -2 : i64} : tensor<4x8xi64> -> tensor<4x8xi64>
  return %d : tensor<4x8xi64>
}

// -----

// External calls are not fallbacks: strict mode accepts them.
func.func @external(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %m = tp.mm %x, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}


// -----

// expected-error @+1 {{--stax-lower needs static shapes, but an argument has type 'tensor<?x4xf32>'}}
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
