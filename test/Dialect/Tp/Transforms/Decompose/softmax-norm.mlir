// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK-NEXT: %[[M:.*]] = tp.amax %[[X]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[D]]
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[E]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[INV:.*]] = tp.reciprocal %[[S]]
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[E]], %[[INV]]
// CHECK-NEXT: return %[[R]]
func.func @softmax(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// Along another dim than the last (eager's non-lastdim kernel): e / sum(e).
// CHECK-LABEL: func.func @softmax_inner
// CHECK: %[[E:.*]] = tp.exp
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[E]] {dims = array<i64: 0>, keepdim = true}
// CHECK-NEXT: %[[R:.*]] = tp.div %[[E]], %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @softmax_inner(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 0 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// A negative dim naming the last one is the last dim.
// CHECK-LABEL: func.func @softmax_minus_one
// CHECK: tp.reciprocal
// CHECK-NEXT: tp.mul
func.func @softmax_minus_one(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = -1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// half_to_float: computed in f32, no conversion back.
// CHECK-LABEL: func.func @softmax_half_to_float
// CHECK-NEXT: %[[X:.*]] = tp._to_copy %{{.*}} {dtype = f32} : tensor<4x6xf16> -> tensor<4x6xf32>
// CHECK-NEXT: tp.amax %[[X]] {dims = array<i64: 0>, keepdim = true}
// CHECK-NOT: dtype = f16
// CHECK: return
func.func @softmax_half_to_float(%x: tensor<4x6xf16>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 0 : i64, half_to_float = true} : tensor<4x6xf16> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK-NEXT: %[[M:.*]] = tp.amax %[[X]] {dims = array<i64: -1>, keepdim = true}
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[D]]
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[E]] {dims = array<i64: -1>, keepdim = true}
// CHECK-NEXT: %[[L:.*]] = tp.log %[[S]]
// CHECK-NEXT: %[[R:.*]] = tp.sub %[[D]], %[[L]]
// CHECK-NEXT: return %[[R]]
func.func @log_softmax(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._log_softmax %x {dim = -1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4x6xf32>, %[[Y:.*]]: tensor<4x6xf32>)
// CHECK-NEXT: %[[GY:.*]] = tp.mul %[[G]], %[[Y]]
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[GY]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[G]], %[[S]]
// CHECK-NEXT: %[[R:.*]] = tp.mul %[[Y]], %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @softmax_backward(%g: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax_backward_data %g, %y {dim = 1 : i64} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4x6xf32>, %[[Y:.*]]: tensor<4x6xf32>)
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[G]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[Y]]
// CHECK-NEXT: %[[P:.*]] = tp.mul %[[E]], %[[S]]
// CHECK-NEXT: %[[R:.*]] = tp.sub %[[G]], %[[P]]
// CHECK-NEXT: return %[[R]]
func.func @log_softmax_backward(%g: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._log_softmax_backward_data %g, %y {dim = 1 : i64} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// All three results: output, mean, rstd.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[X]] {dims = array<i64: 2>, keepdim = true} : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
// CHECK-NEXT: %[[M:.*]] = tp.div.Scalar %[[S]] {other = 8.000000e+00 : f64}
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[D2:.*]] = tp.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[SS:.*]] = tp.sum %[[D2]] {dims = array<i64: 2>, keepdim = true}
// CHECK-NEXT: %[[V:.*]] = tp.div.Scalar %[[SS]] {other = 8.000000e+00 : f64}
// CHECK-NEXT: %[[VE:.*]] = tp.add.Scalar %[[V]] {other = 1.000000e-05 : f64}
// CHECK-NEXT: %[[RS:.*]] = tp.rsqrt %[[VE]]
// CHECK-NEXT: %[[N:.*]] = tp.mul %[[D]], %[[RS]]
// CHECK-NEXT: %[[NW:.*]] = tp.mul %[[N]], %[[W]]
// CHECK-NEXT: %[[Y:.*]] = tp.add %[[NW]], %[[B]]
// CHECK-NEXT: return %[[Y]], %[[M]], %[[RS]]
func.func @layer_norm(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>) {
  %0:3 = tp.native_layer_norm %x weight(%w) bias(%b) {normalized_shape = array<i64: 8>, eps = 1.0e-5 : f64}
      : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x8xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
}

// -----

// An f16 layer norm computes in f32; each result is rounded once.
// CHECK-LABEL: func.func @layer_norm_f16
// CHECK-NEXT: %[[X:.*]] = tp._to_copy %{{.*}} {dtype = f32} : tensor<4x6xf16> -> tensor<4x6xf32>
// CHECK-NEXT: tp.sum %[[X]] {dims = array<i64: 0, 1>, keepdim = true}
// CHECK-COUNT-3: tp._to_copy %{{.*}} {dtype = f16}
// CHECK-NEXT: return
func.func @layer_norm_f16(%x: tensor<4x6xf16>) -> (tensor<4x6xf16>, tensor<1x1xf16>, tensor<1x1xf16>) {
  %0:3 = tp.native_layer_norm %x {normalized_shape = array<i64: 4, 6>, eps = 1.0e-5 : f64}
      : (tensor<4x6xf16>) -> (tensor<4x6xf16>, tensor<1x1xf16>, tensor<1x1xf16>)
  return %0#0, %0#1, %0#2 : tensor<4x6xf16>, tensor<1x1xf16>, tensor<1x1xf16>
}

// -----

// CHECK-LABEL: func.func @layer_norm_backward
// CHECK-SAME: (%[[G:.*]]: tensor<2x8xf32>, %[[X:.*]]: tensor<2x8xf32>, %[[M:.*]]: tensor<2x1xf32>, %[[RS:.*]]: tensor<2x1xf32>, %[[W:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[XM:.*]] = tp.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[XH:.*]] = tp.mul %[[XM]], %[[RS]]
// CHECK-NEXT: %[[DXH:.*]] = tp.mul %[[G]], %[[W]]
// CHECK-NEXT: %[[A:.*]] = tp.sum %[[DXH]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[P:.*]] = tp.mul %[[DXH]], %[[XH]]
// CHECK-NEXT: %[[C:.*]] = tp.sum %[[P]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[SC:.*]] = tp.div.Scalar %[[RS]] {other = 8.000000e+00 : f64}
// CHECK-NEXT: %[[ND:.*]] = tp.mul.Scalar %[[DXH]] {other = 8.000000e+00 : f64}
// CHECK-NEXT: %[[T1:.*]] = tp.sub %[[ND]], %[[A]]
// CHECK-NEXT: %[[XC:.*]] = tp.mul %[[XH]], %[[C]]
// CHECK-NEXT: %[[T2:.*]] = tp.sub %[[T1]], %[[XC]]
// CHECK-NEXT: %[[GI:.*]] = tp.mul %[[SC]], %[[T2]]
// CHECK-NEXT: %[[GX:.*]] = tp.mul %[[G]], %[[XH]]
// CHECK-NEXT: %[[GW:.*]] = tp.sum %[[GX]] {dims = array<i64: 0>} : tensor<2x8xf32> -> tensor<8xf32>
// CHECK-NEXT: %[[GB:.*]] = tp.sum %[[G]] {dims = array<i64: 0>} : tensor<2x8xf32> -> tensor<8xf32>
// CHECK-NEXT: return %[[GI]], %[[GW]], %[[GB]]
func.func @layer_norm_backward(%g: tensor<2x8xf32>, %x: tensor<2x8xf32>, %m: tensor<2x1xf32>,
                               %rs: tensor<2x1xf32>, %w: tensor<8xf32>)
    -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:3 = tp.native_layer_norm_backward %g, %x, %m, %rs weight(%w) {normalized_shape = array<i64: 8>}
      : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<8xf32>)
      -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Over a dimension of size 0 the result is empty: no amax (of nothing,
// which is an error) is built.
// CHECK-LABEL: func.func @empty_softmax
// CHECK-NOT: tp.amax
// CHECK: return
func.func @empty_softmax(%x: tensor<4x0xf32>) -> (tensor<4x0xf32>, tensor<4x0xf32>) {
  %0 = tp._softmax %x {dim = -1 : i64} : tensor<4x0xf32> -> tensor<4x0xf32>
  %1 = tp._log_softmax %x {dim = 1 : i64} : tensor<4x0xf32> -> tensor<4x0xf32>
  return %0, %1 : tensor<4x0xf32>, tensor<4x0xf32>
}

// -----

// A 0-d tensor is one element along dim -1 (and 0): the decomposition read
// the extent of a dimension it does not have (a crash in stax.compile).
// CHECK-LABEL: func.func @softmax_0d
// CHECK-NEXT: tp.amax %{{.*}} {dims = array<i64: -1>, keepdim = true} : tensor<f32> -> tensor<f32>
// CHECK: tp.reciprocal
// CHECK-LABEL: func.func @log_softmax_0d
// CHECK-NEXT: tp.amax %{{.*}} {dims = array<i64: 0>, keepdim = true} : tensor<f32> -> tensor<f32>
// CHECK: tp.log
func.func @softmax_0d(%x: tensor<f32>) -> tensor<f32> {
  %0 = tp._softmax %x {dim = -1 : i64} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @log_softmax_0d(%x: tensor<f32>) -> tensor<f32> {
  %0 = tp._log_softmax %x {dim = 0 : i64} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}
