// A node stores its result with its layout; what leaves the nodes (a
// function result, an external's operand) is the tensor in row-major
// order, in the interpreter as in compiled code (the products of
// @external_operand are compared within each run: BLAS sums in its own
// order). The storage of
// @transposed_result is [0, 3, 1, 4, 2, 5]; its elements are x's.
// RUN: stax-run %s --entry=transposed_result --random-inputs --print=exact | FileCheck %s --check-prefix=CHECK-RESULT
// RUN: stax-run %s --entry=transposed_result --random-inputs --print=exact --jit | FileCheck %s --check-prefix=CHECK-RESULT
// RUN: stax-run %s --entry=transposed_result --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=transposed_result --random-inputs --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=external_operand --random-inputs --print=exact | FileCheck %s --check-prefix=CHECK-MM
// RUN: stax-run %s --entry=external_operand --random-inputs --print=exact --jit | FileCheck %s --check-prefix=CHECK-MM

// The node copies x: its result, read in order, is x itself.
// CHECK-RESULT:      result #0: tensor<2x3xf32>
// CHECK-RESULT-NEXT: [0,0] [[A:.*]]
// CHECK-RESULT-NEXT: [0,1] [[B:.*]]
// CHECK-RESULT-NEXT: [0,2] [[C:.*]]
// CHECK-RESULT-NEXT: [1,0] [[D:.*]]
// CHECK-RESULT-NEXT: [1,1] [[E:.*]]
// CHECK-RESULT-NEXT: [1,2] [[F:.*]]
// CHECK-RESULT-NEXT: result #1: tensor<2x3xf32>
// CHECK-RESULT-NEXT: [0,0] [[A]]
// CHECK-RESULT-NEXT: [0,1] [[B]]
// CHECK-RESULT-NEXT: [0,2] [[C]]
// CHECK-RESULT-NEXT: [1,0] [[D]]
// CHECK-RESULT-NEXT: [1,1] [[E]]
// CHECK-RESULT-NEXT: [1,2] [[F]]
func.func @transposed_result(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r = stax.pointwise layout <[1, 2]> : tensor<2x3xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %j)
    %v = stax.load %x[%a] : tensor<2x3xf32>
    stax.yield %v : f32
  }
  return %r, %x : tensor<2x3xf32>, tensor<2x3xf32>
}

// tp.mm reads the copy of x as x: both products are equal.
// CHECK-MM:      result #0: tensor<2x2xf32>
// CHECK-MM-NEXT: [0,0] [[A:.*]]
// CHECK-MM-NEXT: [0,1] [[B:.*]]
// CHECK-MM-NEXT: [1,0] [[C:.*]]
// CHECK-MM-NEXT: [1,1] [[D:.*]]
// CHECK-MM-NEXT: result #1: tensor<2x2xf32>
// CHECK-MM-NEXT: [0,0] [[A]]
// CHECK-MM-NEXT: [0,1] [[B]]
// CHECK-MM-NEXT: [1,0] [[C]]
// CHECK-MM-NEXT: [1,1] [[D]]
func.func @external_operand(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %r = stax.pointwise layout <[1, 2]> : tensor<2x3xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %j)
    %v = stax.load %x[%a] : tensor<2x3xf32>
    stax.yield %v : f32
  }
  %m = tp.mm %r, %y : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %n = tp.mm %x, %y : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %m, %n : tensor<2x2xf32>, tensor<2x2xf32>
}
