// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions --stax-normalize-loops | FileCheck %s --check-prefix=CHECK-NORM

// Section 6.8: after normalization the first level of Example 6.2 reads
// 8192*x0 + r over one merged loop of 128 (Proposition 6.3: s1 = 2 and
// a0 = 16384 = 2 * 8192; the 64x2 partial store, strides [2, 1], merges
// too: 2 = 2 * 1). The second level (strides 2 and 1 in the partial
// buffer, 1 in the result) has one output loop and one reduction loop,
// which never merge with each other.

// CHECK-NORM-DAG: #[[FIRST:.*]] = affine_map<(d0, d1) -> (d0 * 8192 + d1)>
// CHECK-NORM-DAG: #[[SECOND:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1)>
// CHECK-NORM-LABEL: func.func @forward
// CHECK-NORM-NEXT: %[[BUF1:.*]] = stax.reduction sum [8192] ranges [128] layout <[1]> : tensor<64x2xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[X0:.*]]: index, %[[R:.*]]: index):
// CHECK-NORM-NEXT:   %[[A:.*]] = affine.apply #[[FIRST]](%[[X0]], %[[R]])
// CHECK-NORM:      %[[BUF2:.*]] = stax.reduction sum [2] layout <[1]> : tensor<64xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[J0:.*]]: index, %[[S0:.*]]: index):
// CHECK-NORM-NEXT:   affine.apply #[[SECOND]](%[[J0]], %[[S0]])
func.func @forward(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %0 = tp.mul %x, %x : tensor<64x16384xf32>, tensor<64x16384xf32> -> tensor<64x16384xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<64x16384xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
