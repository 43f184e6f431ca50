// RUN: stax-opt %s --stax-decompose --stax-lower=target=cpu --stax-split-reductions=target=cpu | FileCheck %s

// A full reduction of a contiguous 3-D tensor merges its three reduction
// loops into one over L in the same order before splitting. The merged
// indices (L floordiv s_i, less the next loop's share) make the body's
// address telescope back to a linear one: segment d0 of 32768 elements
// reads element d0 * 32768 + d1, so the first level vectorizes (a mod of
// a floordiv would have left floordivs in the address, and scalar code).
// CHECK: #[[ADDR:map[0-9]*]] = affine_map<(d0, d1) -> (d0 * 32768 + d1)>
// CHECK-LABEL: func.func @full_sum
// CHECK: stax.reduction sum [32768] layout <[1]> : tensor<32xf32> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: index, %[[R:.*]]: index):
// CHECK-NEXT: %[[A:.*]] = affine.apply #[[ADDR]](%[[S]], %[[R]])
// CHECK-NEXT: stax.load %{{.*}}[%[[A]]] : tensor<8x512x256xf32>
func.func @full_sum(%x: tensor<8x512x256xf32>) -> tensor<f32> {
  %0 = tp.tanh %x : tensor<8x512x256xf32> -> tensor<8x512x256xf32>
  %1 = tp.sum %0 {dims = array<i64: 0, 1, 2>} : tensor<8x512x256xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
