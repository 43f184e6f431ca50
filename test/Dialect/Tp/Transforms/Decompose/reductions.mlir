// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:.*]]: tensor<3x4x5xf32>)
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[X]] {dims = array<i64: 0, 2>} : tensor<3x4x5xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = tp.div.Scalar %[[S]] {other = 1.500000e+01 : f64}
// CHECK-NEXT: return %[[R]]
func.func @mean(%x: tensor<3x4x5xf32>) -> tensor<4xf32> {
  %0 = tp.mean %x {dims = array<i64: 0, -1>} : tensor<3x4x5xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An f16 mean accumulates in f32 and rounds the sum to f16 before dividing
// in f32, as eager's sum(x).div_(n): 4096 x 30 overflows to inf there.
// CHECK-LABEL: func.func @mean_f16
// CHECK-NEXT: %[[X:.*]] = tp._to_copy %{{.*}} {dtype = f32} : tensor<3x4xf16> -> tensor<3x4xf32>
// CHECK-NEXT: %[[S32:.*]] = tp.sum %[[X]] {dims = array<i64: 0, 1>, keepdim = true}
// CHECK-NEXT: %[[S16:.*]] = tp._to_copy %[[S32]] {dtype = f16}
// CHECK-NEXT: %[[S:.*]] = tp._to_copy %[[S16]] {dtype = f32}
// CHECK-NEXT: %[[M:.*]] = tp.div.Scalar %[[S]] {other = 1.200000e+01 : f64}
// CHECK-NEXT: %[[R:.*]] = tp._to_copy %[[M]] {dtype = f16}
// CHECK-NEXT: return %[[R]]
func.func @mean_f16(%x: tensor<3x4xf16>) -> tensor<1x1xf16> {
  %0 = tp.mean %x {dims = array<i64>, keepdim = true} : tensor<3x4xf16> -> tensor<1x1xf16>
  return %0 : tensor<1x1xf16>
}

// -----

// The mean is shifted by each row's first element (exact for a constant
// row, whose variance is then 0).
// CHECK-LABEL: func.func @var
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>)
// CHECK-NEXT: %[[K:.*]] = tp.slice %[[X]] {dim = 1 : i64, end = 1 : i64} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[XK:.*]] = tp.sub %[[X]], %[[K]]
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[XK]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[SN:.*]] = tp.div.Scalar %[[S]] {other = 4.000000e+00 : f64}
// CHECK-NEXT: %[[M:.*]] = tp.add %[[K]], %[[SN]]
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[D2:.*]] = tp.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[SS:.*]] = tp.sum %[[D2]] {dims = array<i64: 1>, keepdim = true} : tensor<3x4xf32> -> tensor<3x1xf32>
// CHECK-NEXT: %[[Q:.*]] = tp.div.Scalar %[[SS]] {other = 3.000000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = tp.view %[[Q]] {size = array<i64: 3>} : tensor<3x1xf32> -> tensor<3xf32>
// CHECK-NEXT: return %[[R]]
func.func @var(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %0 = tp.var %x {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Over every dim of a 0-d tensor and over an empty dim: no first element
// to shift by, sum / n.
// CHECK-LABEL: func.func @var_without_a_first_element
// CHECK-NOT: tp.slice
// CHECK: return
func.func @var_without_a_first_element(%x: tensor<f32>, %e: tensor<3x0xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %0 = tp.var %x {dims = array<i64>} : tensor<f32> -> tensor<f32>
  %1 = tp.var %e {dims = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  return %0, %1 : tensor<f32>, tensor<3xf32>
}

// -----

// The maximum is replaced by 0 where it is infinite, as in the kernel.
// CHECK-LABEL: func.func @logsumexp
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>)
// CHECK-NEXT: %[[M:.*]] = tp.amax %[[X]] {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[A:.*]] = tp.abs %[[M]]
// CHECK-NEXT: %[[I:.*]] = tp.eq.Scalar %[[A]] {other = 0x7FF0000000000000 : f64}
// CHECK-NEXT: %[[M0:.*]] = tp.masked_fill.Scalar %[[M]], %[[I]] {value = 0.000000e+00 : f64}
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[X]], %[[M0]]
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[D]]
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[E]] {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[MV:.*]] = tp.view %[[M0]] {size = array<i64: 3>}
// CHECK-NEXT: %[[L:.*]] = tp.log %[[S]]
// CHECK-NEXT: %[[R:.*]] = tp.add %[[L]], %[[MV]]
// CHECK-NEXT: return %[[R]]
func.func @logsumexp(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %0 = tp.logsumexp %x {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Over an empty dim (no maximum to take): log of the empty sum, -inf, as
// eager's kernel gives. It stayed tp, which code generation rejects.
// CHECK-LABEL: func.func @logsumexp_empty
// CHECK-SAME: (%[[X:.*]]: tensor<3x0xf32>)
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[X]] {dims = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[L:.*]] = tp.log %[[S]]
// CHECK-NEXT: return %[[L]]
func.func @logsumexp_empty(%x: tensor<3x0xf32>) -> tensor<3xf32> {
  %0 = tp.logsumexp %x {dims = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
