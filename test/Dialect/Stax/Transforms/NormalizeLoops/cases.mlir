// RUN: stax-opt %s --stax-normalize-loops | FileCheck %s --check-prefix=CHECK-NORM
// RUN: stax-opt %s --stax-normalize-loops | stax-run - --entry=all --print=hash > %t.norm
// RUN: stax-run %s --entry=all --print=hash > %t.orig
// RUN: diff %t.orig %t.norm

// The maps print first; reduction_order's keeps its reduction loop order.
// CHECK-NORM-DAG: #[[ORDER:.*]] = affine_map<(d0, d1, d2) -> (d0 * 16 + d1 + d2 * 4)>

// Proposition 6.3 on hand-written nodes; every address is unchanged, so the
// normalized nodes interpret bitwise like the originals (the diff above).

// A row-major pointwise merges fully to one loop of 32.
// CHECK-NORM-LABEL: func.func @contiguous
// CHECK-NORM: stax.pointwise ranges [32] layout <[1]> : tensor<4x8xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NORM-NEXT: %[[A:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NORM-NEXT: stax.load %{{.*}}[%[[A]]] : tensor<4x8xf32>
// CHECK-NORM-NEXT: stax.load %{{.*}}[%[[A]]] : tensor<4x8xf32>
func.func @contiguous(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %j)
    %u = stax.load %x[%a] : tensor<4x8xf32>
    %v = stax.load %y[%a] : tensor<4x8xf32>
    %s = arith.addf %u, %v : f32
    stax.yield %s : f32
  }
  return %p : tensor<4x8xf32>
}

// A transposed read: the store wants (i, j), the read (j, i); the votes tie
// so the order stays, and 1 != 8 * 4 forbids merging.
// CHECK-NORM-LABEL: func.func @transposed
// CHECK-NORM: stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NORM-NEXT: affine.apply #{{.*}}(%[[I]], %[[J]])
func.func @transposed(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %p = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%i, %j)
    %u = stax.load %x[%a] : tensor<8x4xf32>
    stax.yield %u : f32
  }
  return %p : tensor<4x8xf32>
}

// Size-1 loops disappear (outer and reduction); the rest merges.
// CHECK-NORM-LABEL: func.func @unit
// CHECK-NORM: stax.reduction sum [16] ranges [3] layout <[1]> : tensor<1x3xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[I:.*]]: index, %[[R:.*]]: index):
// CHECK-NORM-NEXT: affine.apply #{{.*}}(%[[I]], %[[R]])
func.func @unit(%x: tensor<3x1x16xf32>) -> tensor<1x3xf32> {
  %s = stax.reduction sum [1, 16] layout <[3, 1]> : tensor<1x3xf32> {
  ^bb0(%i: index, %j: index, %r0: index, %r1: index):
    %a = affine.apply affine_map<(d0, d1, d2, d3) -> (d1 * 16 + d2 * 16 + d3 + d0 * 48)>(%i, %j, %r0, %r1)
    %u = stax.load %x[%a] : tensor<3x1x16xf32>
    stax.yield %u : f32
  }
  return %s : tensor<1x3xf32>
}

// Adjacent reduction loops merge (lexicographic order is unchanged).
// CHECK-NORM-LABEL: func.func @reduction_loops
// CHECK-NORM: stax.reduction sum [32] layout <[1]> : tensor<16xf32> {
func.func @reduction_loops(%x: tensor<16x4x8xf32>) -> tensor<16xf32> {
  %s = stax.reduction sum [4, 8] layout <[1]> : tensor<16xf32> {
  ^bb0(%i: index, %r0: index, %r1: index):
    %a = affine.apply affine_map<(d0, d1, d2) -> (d0 * 32 + d1 * 8 + d2)>(%i, %r0, %r1)
    %u = stax.load %x[%a] : tensor<16x4x8xf32>
    stax.yield %u : f32
  }
  return %s : tensor<16xf32>
}

// Reduction loops are never reordered, even when the read would prefer it
// (r0 steps by 1, r1 by 4): that would change the combine order.
// CHECK-NORM-LABEL: func.func @reduction_order
// CHECK-NORM: stax.reduction sum [4, 4] layout <[1]> : tensor<2xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[I:.*]]: index, %[[R0:.*]]: index, %[[R1:.*]]: index):
// CHECK-NORM-NEXT: affine.apply #[[ORDER]](%[[I]], %[[R0]], %[[R1]])
func.func @reduction_order(%x: tensor<2x4x4xf32>) -> tensor<2xf32> {
  %s = stax.reduction sum [4, 4] layout <[1]> : tensor<2xf32> {
  ^bb0(%i: index, %r0: index, %r1: index):
    %a = affine.apply affine_map<(d0, d1, d2) -> (d0 * 16 + d1 + d2 * 4)>(%i, %r0, %r1)
    %u = stax.load %x[%a] : tensor<2x4x4xf32>
    stax.yield %u : f32
  }
  return %s : tensor<2xf32>
}

// A column-major store reading column-major: the outer loops are ordered
// by stride (j outside i), then merge into one loop of 12. Only a node
// reads the result, by storage address.
// CHECK-NORM-LABEL: func.func @column_major
// CHECK-NORM: stax.pointwise ranges [12] layout <[1]> : tensor<4x3xf32> {
// CHECK-NORM: stax.pointwise layout <[3, 1]> : tensor<4x3xf32> {
func.func @column_major(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %p = stax.pointwise layout <[1, 4]> : tensor<4x3xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%i, %j)
    %u = stax.load %x[%a] : tensor<3x4xf32>
    %c = arith.constant 2.0 : f32
    %v = arith.mulf %u, %c : f32
    stax.yield %v : f32
  }
  %q = stax.pointwise layout <[3, 1]> : tensor<4x3xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%i, %j)
    %u = stax.load %p[%a] : tensor<4x3xf32>
    stax.yield %u : f32
  }
  return %q : tensor<4x3xf32>
}

// The same node returned: a function result is the tensor in the order of
// the node's loops, which therefore stay as they are.
// CHECK-NORM-LABEL: func.func @column_major_result
// CHECK-NORM: stax.pointwise layout <[1, 4]> : tensor<4x3xf32> {
func.func @column_major_result(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %p = stax.pointwise layout <[1, 4]> : tensor<4x3xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%i, %j)
    %u = stax.load %x[%a] : tensor<3x4xf32>
    %c = arith.constant 2.0 : f32
    %v = arith.mulf %u, %c : f32
    stax.yield %v : f32
  }
  return %p : tensor<4x3xf32>
}

// An index used as a value (iota) is not an access: no merge, but the
// size-1 loop still goes.
// CHECK-NORM-LABEL: func.func @iota
// CHECK-NORM: stax.pointwise ranges [2, 3] layout <[3, 1]> : tensor<2x1x3xf32> {
// CHECK-NORM-NEXT: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NORM: arith.index_cast %[[J]] : index to i64
func.func @iota() -> tensor<2x1x3xf32> {
  %p = stax.pointwise layout <[3, 3, 1]> : tensor<2x1x3xf32> {
  ^bb0(%i: index, %k: index, %j: index):
    %v = arith.index_cast %j : index to i64
    %f = arith.sitofp %v : i64 to f32
    stax.yield %f : f32
  }
  return %p : tensor<2x1x3xf32>
}

func.func @all() -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x3xf32>, tensor<16xf32>, tensor<2xf32>, tensor<4x3xf32>, tensor<2x1x3xf32>, tensor<4x3xf32>) {
  %a = tp.constant dense<[[0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]]> : tensor<4x8xf32>
  %b = tp.constant dense<0.25> : tensor<4x8xf32>
  %t = tp.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0], [29.0, 30.0, 31.0, 32.0]]> : tensor<8x4xf32>
  %u = tp.constant dense<0.125> : tensor<3x1x16xf32>
  %w = tp.constant dense<1.5> : tensor<16x4x8xf32>
  %v = tp.constant dense<0.75> : tensor<2x4x4xf32>
  %c = tp.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %0 = func.call @contiguous(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = func.call @transposed(%t) : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %2 = func.call @unit(%u) : (tensor<3x1x16xf32>) -> tensor<1x3xf32>
  %3 = func.call @reduction_loops(%w) : (tensor<16x4x8xf32>) -> tensor<16xf32>
  %4 = func.call @reduction_order(%v) : (tensor<2x4x4xf32>) -> tensor<2xf32>
  %5 = func.call @column_major(%c) : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %6 = func.call @iota() : () -> tensor<2x1x3xf32>
  %7 = func.call @column_major_result(%c) : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x3xf32>, tensor<16xf32>, tensor<2xf32>, tensor<4x3xf32>, tensor<2x1x3xf32>, tensor<4x3xf32>
}
