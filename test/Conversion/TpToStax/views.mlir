// RUN: stax-opt --stax-decompose --stax-lower --mlir-print-local-scope %s | FileCheck %s --check-prefix=CHECK-LOWER

// Reshape of a contiguous buffer folds into strides; reshape of a
// non-contiguous view (a transpose) keeps floordiv and mod in the index.

// CHECK-LOWER-LABEL: func.func @contiguous
// CHECK-LOWER: affine.apply affine_map<(d0) -> (d0 * 2)>
func.func @contiguous(%x: tensor<4x8xf32>) -> tensor<16xf32> {
  %s = tp.slice %x {dim = 1 : i64, start = 0 : i64, end = 8 : i64, step = 2 : i64} : tensor<4x8xf32> -> tensor<4x4xf32>
  %v = tp.view %s {size = array<i64: 16>} : tensor<4x4xf32> -> tensor<16xf32>
  %r = tp.neg %v : tensor<16xf32> -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// CHECK-LOWER-LABEL: func.func @noncontiguous
// CHECK-LOWER: affine.apply affine_map<(d0) -> ({{.*}}d0 floordiv 4{{.*}})>
func.func @noncontiguous(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %t = tp.t %x : tensor<4x8xf32> -> tensor<8x4xf32>
  %v = tp.reshape %t {size = array<i64: 32>} : tensor<8x4xf32> -> tensor<32xf32>
  %r = tp.neg %v : tensor<32xf32> -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// Expand reads with stride 0; select and unsqueeze add constants.
// CHECK-LOWER-LABEL: func.func @expand_select
// CHECK-LOWER: affine.apply affine_map<(d0) -> (d0 + 16)>
// CHECK-LOWER-NOT: d1
func.func @expand_select(%x: tensor<4x8xf32>) -> tensor<3x8xf32> {
  %s = tp.select %x {dim = 0 : i64, index = -2 : i64} : tensor<4x8xf32> -> tensor<8xf32>
  %u = tp.unsqueeze %s {dim = 0 : i64} : tensor<8xf32> -> tensor<1x8xf32>
  %e = tp.expand %u {size = array<i64: 3, 8>} : tensor<1x8xf32> -> tensor<3x8xf32>
  %r = tp.neg %e : tensor<3x8xf32> -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// Concatenation: one node, one masked load per input.
// CHECK-LOWER-LABEL: func.func @cat
// CHECK-LOWER: stax.pointwise layout <[5, 1]> : tensor<2x5xf32>
// CHECK-LOWER: arith.cmpi sge
// CHECK-LOWER: stax.load %arg1[{{.*}}] mask
// CHECK-LOWER: arith.cmpi slt
// CHECK-LOWER: stax.load %arg0[{{.*}}] mask
// CHECK-LOWER: arith.select
// CHECK-LOWER-NOT: stax.pointwise
func.func @cat(%x: tensor<2x3xf32>, %y: tensor<2x2xf32>) -> tensor<2x5xf32> {
  %c = tp.cat %x, %y {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  return %c : tensor<2x5xf32>
}
