// RUN: stax-opt %s --stax-range-analysis -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=CHECK-IDX

// What the intervals of an indirect index allow (Definition 6.4): each of
// the wrap and the check goes only when the interval proves it useless.

// A loaded value masked to [0, 255] is never negative (the wrap goes) but
// may exceed 127 (the check stays).
// CHECK-IDX-LABEL: func.func @wrap_dropped_check_kept
// CHECK-IDX: stax.indirect_index %{{.*}}, 128 {check_bounds} : i64
func.func @wrap_dropped_check_kept(%x: tensor<128xf32>, %idx: tensor<4xi64>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %raw = stax.load %idx[%i] : tensor<4xi64>
    %c255 = arith.constant 255 : i64
    %m = arith.andi %raw, %c255 : i64
    %j = stax.indirect_index %m, 128 {check_bounds, wrap_negative} : i64
    %v = stax.load %x[%j] : tensor<128xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}

// -----

// A C remainder of loaded data is in [-127, 127]: after the wrap it is in
// [0, 127], so the check goes but the wrap stays. The load keeps the
// indirect index (no propagation through memory).
// CHECK-IDX-LABEL: func.func @check_dropped_wrap_kept
// CHECK-IDX: stax.indirect_index %{{.*}}, 128 {wrap_negative} : i64
func.func @check_dropped_wrap_kept(%x: tensor<128xf32>, %idx: tensor<4xi64>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %raw = stax.load %idx[%i] : tensor<4xi64>
    %c128 = arith.constant 128 : i64
    %m = arith.remsi %raw, %c128 : i64
    %j = stax.indirect_index %m, 128 {check_bounds, wrap_negative} : i64
    %v = stax.load %x[%j] : tensor<128xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}

// -----

// x[arange(4) - 4]: a loop-index-only index in [-4, -1] propagates as the
// wrapped direct read (i - 4 + 4) mod 4, with no indirect index left.
// CHECK-IDX: #[[WRAP:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-IDX-LABEL: func.func @negative_propagated
// CHECK-IDX-NOT: stax.indirect_index
// CHECK-IDX: %[[A:.*]] = affine.apply #[[WRAP]](%{{.*}})
// CHECK-IDX-NEXT: stax.load %arg0[%[[A]]] : tensor<4xf32>
// CHECK-IDX-NOT: stax.indirect_index
// CHECK-IDX: return
func.func @negative_propagated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %v64 = arith.index_cast %i : index to i64
    %c4 = arith.constant 4 : i64
    %n = arith.subi %v64, %c4 : i64
    %j = stax.indirect_index %n, 4 {check_bounds, wrap_negative} : i64
    %v = stax.load %x[%j] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}

// -----

// x[arange(4) + 1] reads one past the end at i = 3: the index depends on
// the loop index only but is not proven in bounds, so it is not propagated
// and keeps its check (the wrap goes: it is never negative).
// CHECK-IDX-LABEL: func.func @maybe_out_of_bounds
// CHECK-IDX: stax.indirect_index %{{.*}}, 4 {check_bounds} : i64
func.func @maybe_out_of_bounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %v64 = arith.index_cast %i : index to i64
    %c1 = arith.constant 1 : i64
    %n = arith.addi %v64, %c1 : i64
    %j = stax.indirect_index %n, 4 {check_bounds, wrap_negative} : i64
    %v = stax.load %x[%j] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}

// -----

// An index that can never be in bounds is reported at compile time; the
// check stays, so running it still fails with the op's error.
// CHECK-IDX-LABEL: func.func @always_out_of_bounds
// CHECK-IDX: stax.indirect_index %{{.*}}, 4 {check_bounds} : i64
func.func @always_out_of_bounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %v64 = arith.index_cast %i : index to i64
    %c4 = arith.constant 4 : i64
    %n = arith.addi %v64, %c4 : i64
    // expected-warning @+1 {{index in [4, 7] is always out of bounds for a dimension of size 4}}
    %j = stax.indirect_index %n, 4 {check_bounds, wrap_negative} : i64
    %v = stax.load %x[%j] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}

// -----

// Cross entropy's ignore_index: select(t == -100, 0, t) over a loaded t is
// still [-inf, +inf] (the load's range is known although its buffer has
// none, and a scatter's loop indices are known although its base has
// none), so the check stays and nothing is propagated.
// CHECK-IDX-LABEL: func.func @select_of_loaded
// CHECK-IDX: stax.scatter accumulate {{.*}} attributes {stax.index_bitwidth = 32 : i64}
// CHECK-IDX: stax.indirect_index %{{.*}}, 10 {check_bounds} : i64
func.func @select_of_loaded(%t: tensor<8xi64>) -> tensor<8x10xf32> {
  %z = stax.pointwise layout <[10, 1]> : tensor<8x10xf32> {
  ^bb0(%i0: index, %i1: index):
    %cst = arith.constant 0.000000e+00 : f32
    stax.yield %cst : f32
  }
  %s = stax.scatter accumulate %z [8, 1] layout <[10, 1]> : tensor<8x10xf32> {
  ^bb0(%i0: index, %i1: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%i0, %i1)
    %v = stax.load %t[%a] : tensor<8xi64>
    %c-100 = arith.constant -100 : i64
    %ign = arith.cmpi eq, %v, %c-100 : i64
    %c0 = arith.constant 0 : i64
    %sel = arith.select %ign, %c0, %v : i64
    %j = stax.indirect_index %sel, 10 {check_bounds} : i64
    %addr = affine.apply affine_map<(d0)[s0] -> (d0 * 10 + s0)>(%i0)[%j]
    %one = arith.constant 1.0 : f32
    stax.yield %addr, %one : index, f32
  }
  return %s : tensor<8x10xf32>
}
