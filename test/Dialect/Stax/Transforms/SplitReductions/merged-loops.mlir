// RUN: stax-opt %s --stax-decompose --stax-lower=target=cpu --stax-split-reductions=target=cpu | FileCheck %s

// The maps of all three functions come first.
// CHECK-DAG: #[[ROWS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0 * 32768 + d1 * 256 + d2)>
// CHECK-DAG: #[[X:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0 * 40000 + d1 * 1000 + d2)>
// CHECK-DAG: #[[ADDR:map[0-9]*]] = affine_map<(d0, d1) -> (d0 * 32576 + d1)>

// k = 32 does not divide the outermost reduction loop (8), but the product
// of the first two (4096) is a multiple: those two merge into one loop of
// rows, split 32 ways, and the innermost loop stays. The merged indices
// (L floordiv s_i, less the next loop's share) telescope back to a linear
// address.
// CHECK-LABEL: func.func @full_sum
// CHECK: stax.reduction sum [128, 256] layout <[1]> : tensor<32xf32> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: index, %[[R0:.*]]: index, %[[R1:.*]]: index):
// CHECK-NEXT: %[[A:.*]] = affine.apply #[[ROWS]](%[[S]], %[[R0]], %[[R1]])
// CHECK-NEXT: stax.load %{{.*}}[%[[A]]] : tensor<8x512x256xf32>
// CHECK: stax.reduction sum [32] layout <[]> : tensor<f32>
func.func @full_sum(%x: tensor<8x512x256xf32>) -> tensor<f32> {
  %0 = tp.tanh %x : tensor<8x512x256xf32> -> tensor<8x512x256xf32>
  %1 = tp.sum %0 {dims = array<i64: 0, 1, 2>} : tensor<8x512x256xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// A broadcast operand is contiguous along the innermost loop only. The
// outer loop (1000) has a divisor near 32 (25): the split keeps both loops,
// so b is read at the inner index (merging them would read it at
// L mod 1000, which does not vectorize).
// CHECK-LABEL: func.func @broadcast_sum
// CHECK: stax.reduction sum [40, 1000] layout <[1]> : tensor<25xf32> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: index, %[[R0:.*]]: index, %[[R1:.*]]: index):
// CHECK-NEXT: affine.apply #[[X]](%[[S]], %[[R0]], %[[R1]])
// CHECK-NEXT: stax.load
// CHECK-NEXT: stax.load %{{.*}}[%[[R1]]] : tensor<1000xf32>
// CHECK: stax.reduction sum [25] layout <[]> : tensor<f32>
func.func @broadcast_sum(%x: tensor<1000x1000xf32>, %b: tensor<1000xf32>) -> tensor<f32> {
  %0 = tp.add %x, %b : tensor<1000x1000xf32>, tensor<1000xf32> -> tensor<1000x1000xf32>
  %1 = tp.sum %0 {dims = array<i64: 0, 1>} : tensor<1000x1000xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// No product of leading loops (8, 8 x 509) has a divisor within 16 of 32:
// all three loops merge into one over L in the same order, and the
// merged indices make the contiguous address telescope back to a linear
// one: segment d0 of 32576 elements reads element d0 * 32576 + d1, so the
// first level vectorizes (a mod of a floordiv would have left floordivs in
// the address, and scalar code).
// CHECK-LABEL: func.func @all_merged
// CHECK: stax.reduction sum [32576] layout <[1]> : tensor<32xf32> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: index, %[[R:.*]]: index):
// CHECK-NEXT: %[[A:.*]] = affine.apply #[[ADDR]](%[[S]], %[[R]])
// CHECK-NEXT: stax.load %{{.*}}[%[[A]]] : tensor<8x509x256xf32>
func.func @all_merged(%x: tensor<8x509x256xf32>) -> tensor<f32> {
  %0 = tp.tanh %x : tensor<8x509x256xf32> -> tensor<8x509x256xf32>
  %1 = tp.sum %0 {dims = array<i64: 0, 1, 2>} : tensor<8x509x256xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
