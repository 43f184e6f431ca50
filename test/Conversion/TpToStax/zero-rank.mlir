// RUN: stax-opt --stax-decompose --stax-lower="strict=true" %s | FileCheck %s

// PyTorch reduces a 0-d tensor over "dim 0" (or -1, or all dims) as over
// one element, starting from the identity, and the result stays 0-d even
// with keepdim: a reduction of length 1. Strict mode: no op may stay.

// CHECK-LABEL: func.func @sum_scalar
// CHECK: stax.reduction sum [1] layout <[]> : tensor<f32>
// CHECK: stax.load %arg0[%c0] : tensor<f32>
func.func @sum_scalar(%x: tensor<f32>) -> tensor<f32> {
  %s = tp.sum %x {dims = array<i64: 0>, keepdim = true} : tensor<f32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @amax_all_scalar
// CHECK: stax.reduction max [1] layout <[]> : tensor<f32>
func.func @amax_all_scalar(%x: tensor<f32>) -> tensor<f32> {
  %s = tp.amax %x {dims = array<i64>} : tensor<f32> -> tensor<f32>
  return %s : tensor<f32>
}

// CHECK-LABEL: func.func @argmin_scalar
// CHECK: stax.reduction argmin [1] layout <[]> : tensor<i64>
func.func @argmin_scalar(%x: tensor<f32>) -> tensor<i64> {
  %0 = tp.argmin %x {dim = 0 : i64, keepdim = true} : tensor<f32> -> tensor<i64>
  return %0 : tensor<i64>
}

// The value of max.dim is read back at the position.
// CHECK-LABEL: func.func @max_dim_scalar
// CHECK: %[[P:.*]] = stax.reduction argmax [1] layout <[]> : tensor<i64>
// CHECK: stax.pointwise layout <[]> : tensor<f32>
// CHECK: stax.load %[[P]][%c0] : tensor<i64>
// CHECK: return %{{.*}}, %[[P]]
func.func @max_dim_scalar(%x: tensor<f32>) -> (tensor<f32>, tensor<i64>) {
  %v, %i = tp.max.dim %x {dim = -1 : i64} : tensor<f32> -> tensor<f32>, tensor<i64>
  return %v, %i : tensor<f32>, tensor<i64>
}

// argmax without dim is the flat position; keepdim only reshapes it to
// all-ones dims.
// CHECK-LABEL: func.func @argmax_flat_kept
// CHECK: %[[P:.*]] = stax.reduction argmax [3, 4] layout <[]> : tensor<i64>
// CHECK: stax.pointwise layout <[1, 1]> : tensor<1x1xi64>
// CHECK: stax.load %[[P]][%c0] : tensor<i64>
func.func @argmax_flat_kept(%x: tensor<3x4xf32>) -> tensor<1x1xi64> {
  %0 = tp.argmax %x {keepdim = true} : tensor<3x4xf32> -> tensor<1x1xi64>
  return %0 : tensor<1x1xi64>
}

// A 0-d tensor indexed along "dim 0": the one index is checked against a
// dim of size 1, and the value is the tensor's.
// CHECK-LABEL: func.func @index_select_scalar
// CHECK: stax.pointwise layout <[]> : tensor<f32>
// CHECK: %[[I:.*]] = stax.load %arg1[%c0] : tensor<1xi64>
// CHECK: stax.indirect_index %[[I]], 1 {check_bounds} : i64
// CHECK: stax.load %arg0[%c0] : tensor<f32>
func.func @index_select_scalar(%x: tensor<f32>, %i: tensor<1xi64>) -> tensor<f32> {
  %0 = tp.index_select %x, %i {dim = 0 : i64} : (tensor<f32>, tensor<1xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @gather_scalar
// CHECK: %[[I:.*]] = stax.load %arg1[%c0] : tensor<i64>
// CHECK: stax.indirect_index %[[I]], 1 {check_bounds} : i64
func.func @gather_scalar(%x: tensor<f32>, %i: tensor<i64>) -> tensor<f32> {
  %0 = tp.gather %x, %i {dim = -1 : i64} : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// scatter and scatter_add into a 0-d tensor: one write (no loop), once
// the index is checked against size 1.
// CHECK-LABEL: func.func @scatter_scalar
// CHECK: stax.scatter accumulate %arg0 [] layout <[]> : tensor<f32>
// CHECK: %[[I:.*]] = stax.load %arg1[%c0] : tensor<i64>
// CHECK: stax.indirect_index %[[I]], 1 {check_bounds} : i64
// CHECK: %[[V:.*]] = stax.load %arg2[%c0] : tensor<f32>
// CHECK: stax.yield %c0, %[[V]] : index, f32
// CHECK: stax.scatter overwrite %arg0 [] layout <[]> : tensor<f32>
func.func @scatter_scalar(%x: tensor<f32>, %i: tensor<i64>, %s: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<f32>, tensor<i64>, tensor<f32>) -> tensor<f32>
  %1 = tp.scatter %x, %i, %s {dim = -1 : i64} : (tensor<f32>, tensor<i64>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
