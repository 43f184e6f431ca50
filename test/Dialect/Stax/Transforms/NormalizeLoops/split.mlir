// RUN: stax-opt %s --stax-normalize-loops | FileCheck %s
// RUN: stax-opt %s --stax-normalize-loops | stax-run - --entry=all --random-inputs --print=hash > %t.norm
// RUN: stax-run %s --entry=all --random-inputs --print=hash > %t.orig
// RUN: diff %t.orig %t.norm

// A loop whose index an access takes apart with floordiv and mod by
// divisors of its extent (a reshape merging dims that are not contiguous)
// is split at those divisors: the new loops index every access affinely,
// so they are ordered, merged and vectorized like any other. Every address
// keeps its value (the interpreted diff above).

// The maps print first.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 3)>
// CHECK-DAG: #[[IM2COL:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 8 + d1 + d2 * 8 + d3)>
// CHECK-DAG: #[[KEPT:.*]] = affine_map<(d0) -> (d0 floordiv 7)>
// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1, d2) -> (d0 * 12 + d1 + d2 * 3)>
// CHECK-DAG: #[[FOLDED:.*]] = affine_map<(d0, d1) -> (d0)>

// The reshape of a transpose, x[20, 3].t().reshape(60): element i reads
// (i mod 20) * 3 + i floordiv 20. Split at 20 into [3, 20]: lane stride 3.
// CHECK-LABEL: func.func @reshape_of_transpose
// CHECK: stax.pointwise ranges [3, 20] layout <[20, 1]> : tensor<60xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: index, %[[B:.*]]: index):
// CHECK-NEXT: affine.apply #[[T]](%[[A]], %[[B]])
func.func @reshape_of_transpose(%x: tensor<60xf32>) -> tensor<60xf32> {
  %p = stax.pointwise layout <[1]> : tensor<60xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> ((d0 mod 20) * 3 + d0 floordiv 20)>(%i)
    %v = stax.load %x[%a] : tensor<60xf32>
    stax.yield %v : f32
  }
  return %p : tensor<60xf32>
}

// im2col's windows of an 8 x 8 image with a 3 x 3 kernel, [9, 36]: row k
// is (k floordiv 3, k mod 3), column p is (p floordiv 6, p mod 6). Both
// loops split at 3 and 6 (nested floordiv/mod chains: 3 | 9, 6 | 36).
// CHECK-LABEL: func.func @im2col
// CHECK: stax.pointwise ranges [3, 3, 6, 6] layout <[108, 36, 6, 1]> : tensor<9x36xf32> {
// CHECK-NEXT: ^bb0(%[[KH:.*]]: index, %[[KW:.*]]: index, %[[OH:.*]]: index, %[[OW:.*]]: index):
// CHECK-NEXT: affine.apply #[[IM2COL]](%[[KH]], %[[KW]], %[[OH]], %[[OW]])
func.func @im2col(%x: tensor<64xf32>) -> tensor<9x36xf32> {
  %p = stax.pointwise layout <[36, 1]> : tensor<9x36xf32> {
  ^bb0(%k: index, %q: index):
    %a = affine.apply affine_map<(d0, d1) -> ((d0 floordiv 3 + d1 floordiv 6) * 8 + d0 mod 3 + d1 mod 6)>(%k, %q)
    %v = stax.load %x[%a] : tensor<64xf32>
    stax.yield %v : f32
  }
  return %p : tensor<9x36xf32>
}

// 7 does not divide 60: the loop stays whole (nothing to split at).
// CHECK-LABEL: func.func @not_a_divisor
// CHECK: stax.pointwise layout <[1]> : tensor<60xf32> {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: affine.apply #[[KEPT]](%[[I]])
func.func @not_a_divisor(%x: tensor<9xf32>) -> tensor<60xf32> {
  %p = stax.pointwise layout <[1]> : tensor<60xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 floordiv 7)>(%i)
    %v = stax.load %x[%a] : tensor<9xf32>
    stax.yield %v : f32
  }
  return %p : tensor<60xf32>
}

// A split that would leave a non-linear access is not made: (i * 5) mod 6
// is not linear in (i floordiv 6, i mod 6).
// CHECK-LABEL: func.func @split_would_not_help
// CHECK: stax.pointwise layout <[1]> : tensor<12xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
func.func @split_would_not_help(%x: tensor<12xf32>) -> tensor<12xf32> {
  %p = stax.pointwise layout <[1]> : tensor<12xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> ((d0 * 5) mod 6 + d0 floordiv 6 * 6)>(%i)
    %v = stax.load %x[%a] : tensor<12xf32>
    stax.yield %v : f32
  }
  return %p : tensor<12xf32>
}

// A reduction loop splits in its own order: out[o] sums x[o].t() read in
// row-major order, r -> (r mod 4) * 3 + r floordiv 4, split at 4.
// CHECK-LABEL: func.func @reduction
// CHECK: stax.reduction sum [3, 4] layout <[1]> : tensor<3xf32> {
// CHECK-NEXT: ^bb0(%[[O:.*]]: index, %[[R0:.*]]: index, %[[R1:.*]]: index):
// CHECK-NEXT: affine.apply #[[RED]](%[[O]], %[[R0]], %[[R1]])
func.func @reduction(%x: tensor<36xf32>) -> tensor<3xf32> {
  %p = stax.reduction sum [12] layout <[1]> : tensor<3xf32> {
  ^bb0(%o: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 12 + (d1 mod 4) * 3 + d1 floordiv 4)>(%o, %r)
    %v = stax.load %x[%a] : tensor<36xf32>
    stax.yield %v : f32
  }
  return %p : tensor<3xf32>
}

// The loop extents alone fold a floordiv that splits nothing:
// (i * 16 + j) floordiv 16 = i for j < 16 (affine simplification without
// ranges leaves i + j floordiv 16).
// CHECK-LABEL: func.func @folded_by_ranges
// CHECK: stax.pointwise layout <[16, 1]> : tensor<4x16xf32> {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %{{.*}}: index):
// CHECK-NEXT: affine.apply #[[FOLDED]](%[[I]]
func.func @folded_by_ranges(%x: tensor<4xf32>) -> tensor<4x16xf32> {
  %p = stax.pointwise layout <[16, 1]> : tensor<4x16xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> ((d0 * 16 + d1) floordiv 16)>(%i, %j)
    %v = stax.load %x[%a] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4x16xf32>
}

func.func @all(%x: tensor<60xf32>, %y: tensor<64xf32>, %z: tensor<9xf32>, %w: tensor<12xf32>, %u: tensor<36xf32>, %v: tensor<4xf32>) -> (tensor<60xf32>, tensor<9x36xf32>, tensor<60xf32>, tensor<12xf32>, tensor<3xf32>, tensor<4x16xf32>) {
  %0 = call @reshape_of_transpose(%x) : (tensor<60xf32>) -> tensor<60xf32>
  %1 = call @im2col(%y) : (tensor<64xf32>) -> tensor<9x36xf32>
  %2 = call @not_a_divisor(%z) : (tensor<9xf32>) -> tensor<60xf32>
  %3 = call @split_would_not_help(%w) : (tensor<12xf32>) -> tensor<12xf32>
  %4 = call @reduction(%u) : (tensor<36xf32>) -> tensor<3xf32>
  %5 = call @folded_by_ranges(%v) : (tensor<4xf32>) -> tensor<4x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<60xf32>, tensor<9x36xf32>, tensor<60xf32>, tensor<12xf32>, tensor<3xf32>, tensor<4x16xf32>
}
