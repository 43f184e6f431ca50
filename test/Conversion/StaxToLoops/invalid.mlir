// RUN: stax-opt --stax-to-loops %s -split-input-file -verify-diagnostics

// Hand-written stax that code generation refuses, with an error naming why
// (and never a crash).

// expected-error @+1 {{argument #0 has type 'tensor<?x3xf32>'; code generation needs static shapes}}
func.func @dynamic_argument(%x: tensor<?x3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  return %y : tensor<3xf32>
}

// -----

// expected-error @+1 {{result #0 has type 'tensor<*xf32>'; code generation takes ranked tensors}}
func.func @unranked_result(%x: tensor<3xf32>) -> tensor<*xf32> {
  %0 = tensor.cast %x : tensor<3xf32> to tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Buffers are what code generation makes, not what it takes.
// expected-error @+1 {{argument #0 has type 'memref<3xf32>'; code generation takes ranked tensors}}
func.func @memref_argument(%x: memref<3xf32>) {
  return
}

// -----

// expected-error @+1 {{argument #0 has element type 'complex<f32>'; code generation needs integers or floats}}
func.func @complex_argument(%x: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  return %x : tensor<3xcomplex<f32>>
}

// -----

// Any op that is not a stax node, a constant, tp.mm/tp.bmm or the return.
func.func @foreign_op(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tensor.cast' has no CPU code generation (lower it to stax nodes first, or run it outside Stax)}}
  %0 = tensor.cast %x : tensor<3xf32> to tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The position of the extreme of nothing has no value.
func.func @argmax_empty(%x: tensor<2x0xf32>) -> tensor<2xi64> {
  // expected-error @+1 {{cannot take the position of an extreme of an empty reduction range}}
  %am = stax.reduction argmax [0] layout <[1]> : tensor<2xi64> {
  ^bb0(%i: index, %r: index):
    %v = stax.load %x[%r] : tensor<2x0xf32>
    stax.yield %v : f32
  }
  return %am : tensor<2xi64>
}

// -----

// A result goes into a row-major buffer of numel elements; an interleaved
// layout spans 6 storage elements for 4.
func.func @interleaved_result(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = stax.pointwise layout <[3, 2]> : tensor<2x2xf32> {
  ^bb0(%i: index, %j: index):
    %v = stax.load %x[%i] : tensor<2x2xf32>
    stax.yield %v : f32
  }
  // expected-error @+1 {{result #0 is not stored row-major (6 storage elements for 4)}}
  return %r : tensor<2x2xf32>
}
