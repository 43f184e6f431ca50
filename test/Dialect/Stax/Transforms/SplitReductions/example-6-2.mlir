// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions | FileCheck %s --check-prefix=CHECK-SPLIT

// Example 6.2: (x * x).sum(-1), x 64x16384, on S = 132, w = 32, T = 2048
// (the defaults): n = 64 < 2S, n * n_r = 2^20 <= D_min, s = 32, k = 2.
// Listing 6.4: the first level reads 16384*i0 + 8192*i1 + r0 into a 64x2
// partial buffer (row-major), the second sums the 2 partials at 2*i0 + r0.

// CHECK-SPLIT-DAG: #[[FIRST:.*]] = affine_map<(d0, d1, d2) -> (d0 * 16384 + d1 * 8192 + d2)>
// CHECK-SPLIT-DAG: #[[SECOND:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1)>
// CHECK-SPLIT-LABEL: func.func @forward
// CHECK-SPLIT-SAME: (%[[X:.*]]: tensor<64x16384xf32>) -> tensor<64xf32>
// CHECK-SPLIT-NEXT: %[[BUF1:.*]] = stax.reduction sum [8192] layout <[2, 1]> : tensor<64x2xf32> {
// CHECK-SPLIT-NEXT: ^bb0(%[[I0:.*]]: index, %[[I1:.*]]: index, %[[R0:.*]]: index):
// CHECK-SPLIT-NEXT:   %[[A:.*]] = affine.apply #[[FIRST]](%[[I0]], %[[I1]], %[[R0]])
// CHECK-SPLIT-NEXT:   %[[L0:.*]] = stax.load %[[X]][%[[A]]] : tensor<64x16384xf32>
// CHECK-SPLIT-NEXT:   %[[MUL:.*]] = arith.mulf %[[L0]], %[[L0]] : f32
// CHECK-SPLIT-NEXT:   stax.yield %[[MUL]] : f32
// CHECK-SPLIT-NEXT: }
// CHECK-SPLIT-NEXT: %[[BUF2:.*]] = stax.reduction sum [2] layout <[1]> : tensor<64xf32> {
// CHECK-SPLIT-NEXT: ^bb0(%[[J0:.*]]: index, %[[S0:.*]]: index):
// CHECK-SPLIT-NEXT:   %[[B:.*]] = affine.apply #[[SECOND]](%[[J0]], %[[S0]])
// CHECK-SPLIT-NEXT:   %[[P:.*]] = stax.load %[[BUF1]][%[[B]]] : tensor<64x2xf32>
// CHECK-SPLIT-NEXT:   stax.yield %[[P]] : f32
// CHECK-SPLIT-NEXT: }
// CHECK-SPLIT-NEXT: return %[[BUF2]] : tensor<64xf32>
func.func @forward(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %0 = tp.mul %x, %x : tensor<64x16384xf32>, tensor<64x16384xf32> -> tensor<64x16384xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<64x16384xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
