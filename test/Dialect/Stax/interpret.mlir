// RUN: stax-run %s --entry=merged | FileCheck %s --check-prefix=CHECK-MERGED
// RUN: stax-run %s --entry=split_welford | FileCheck %s --check-prefix=CHECK-WELFORD
// RUN: stax-run %s --entry=kernel | FileCheck %s --check-prefix=CHECK-KERNEL
// RUN: not stax-run %s --entry=oob 2>&1 | FileCheck %s --check-prefix=CHECK-OOB
// RUN: stax-run %s --entry=bools | FileCheck %s --check-prefix=CHECK-BOOLS
// RUN: stax-run %s --entry=bools --jit | FileCheck %s --check-prefix=CHECK-BOOLS

// Concrete values of node bodies (Section 6.7).

// A 2x3 result computed over one merged loop of 6 (explicit ranges): the
// addresses, and so the values, are those of the 2x3 loops.
// CHECK-MERGED: result #0: tensor<2x3xf32>
// CHECK-MERGED-NEXT: [0, 10, 20, 30, 40, 50]
func.func @merged() -> tensor<2x3xf32> {
  %p = stax.pointwise ranges [6] layout <[1]> : tensor<2x3xf32> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %f = arith.sitofp %v : i64 to f32
    %c = arith.constant 10.0 : f32
    %r = arith.mulf %f, %c : f32
    stax.yield %r : f32
  }
  return %p : tensor<2x3xf32>
}

// Welford over 8 values, and the same values as two partial Welford
// reductions of 4 combined with Chan's formula: mean 3.5, M2 42, count 8.
// CHECK-WELFORD: result #0: tensor<1xf32>
// CHECK-WELFORD-NEXT: [3.5]
// CHECK-WELFORD: result #1: tensor<1xf32>
// CHECK-WELFORD-NEXT: [42]
// CHECK-WELFORD: result #2: tensor<1xf32>
// CHECK-WELFORD-NEXT: [8]
// CHECK-WELFORD: result #3: tensor<1xf32>
// CHECK-WELFORD-NEXT: [3.5]
// CHECK-WELFORD: result #4: tensor<1xf32>
// CHECK-WELFORD-NEXT: [42]
func.func @split_welford() -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %w:3 = stax.reduction welford [8] layout <[1]> : tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
  ^bb0(%i: index, %r: index):
    %v = arith.index_cast %r : index to i64
    %f = arith.sitofp %v : i64 to f32
    stax.yield %f : f32
  }
  %p:3 = stax.reduction welford [4] layout <[2, 1]> : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32> {
  ^bb0(%i: index, %k: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%k, %r)
    %v = arith.index_cast %a : index to i64
    %f = arith.sitofp %v : i64 to f32
    stax.yield %f : f32
  }
  %c:3 = stax.reduction welford_combine [2] layout <[1]> : tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
  ^bb0(%i: index, %k: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%i, %k)
    %m = stax.load %p#0[%a] : tensor<1x2xf32>
    %m2 = stax.load %p#1[%a] : tensor<1x2xf32>
    %n = stax.load %p#2[%a] : tensor<1x2xf32>
    stax.yield %m, %m2, %n : f32, f32, f32
  }
  return %w#0, %w#1, %w#2, %c#0, %c#1 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// A kernel runs its nodes in order: the row sums feed the division.
// CHECK-KERNEL: result #0: tensor<2x2xf32>
// CHECK-KERNEL-NEXT: [0.25, 0.75, 0.375, 0.625]
func.func @kernel() -> tensor<2x2xf32> {
  %x = tp.constant dense<[[1.0, 3.0], [3.0, 5.0]]> : tensor<2x2xf32>
  %k = stax.kernel [2] : tensor<2x2xf32> {
    %s = stax.reduction sum [2] layout <[1]> : tensor<2xf32> {
    ^bb0(%i: index, %r: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%i, %r)
      %v = stax.load %x[%a] : tensor<2x2xf32>
      stax.yield %v : f32
    }
    %d = stax.pointwise layout <[2, 1]> : tensor<2x2xf32> {
    ^bb0(%i: index, %j: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%i, %j)
      %v = stax.load %x[%a] : tensor<2x2xf32>
      %t = stax.load %s[%i] : tensor<2xf32>
      %q = arith.divf %v, %t : f32
      stax.yield %q : f32
    }
    stax.yield %d : tensor<2x2xf32>
  }
  return %k : tensor<2x2xf32>
}

// A kept bounds check fails with the op and the index, never a bad read.
// CHECK-OOB: error: 'stax.indirect_index' op index 7 is out of bounds for a dimension of size 4
func.func @oob() -> tensor<2xf32> {
  %x = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %idx = tp.constant dense<[1, 7]> : tensor<2xi64>
  %p = stax.pointwise layout <[1]> : tensor<2xf32> {
  ^bb0(%i: index):
    %raw = stax.load %idx[%i] : tensor<2xi64>
    %j = stax.indirect_index %raw, 4 {check_bounds, wrap_negative} : i64
    %v = stax.load %x[%j] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<2xf32>
}

// i1 values follow arith, as compiled code does: true is -1 to the signed
// ops, so addi is xor, `cmpi slt` orders true below false and extsi gives
// -1. Stored into a bool tensor, -1 is true. a = [0, 1, 0, 1] (the low bit
// of the index), b = [0, 0, 1, 1].
// CHECK-BOOLS: result #0: tensor<4xi1>
// CHECK-BOOLS-NEXT: [0, 1, 1, 0]
// CHECK-BOOLS: result #1: tensor<4xi1>
// CHECK-BOOLS-NEXT: [0, 1, 0, 0]
// CHECK-BOOLS: result #2: tensor<4xi8>
// CHECK-BOOLS-NEXT: [0, -1, 0, -1]
func.func @bools() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi8>) {
  %sum = stax.pointwise layout <[1]> : tensor<4xi1> {
  ^bb0(%i: index):
    %k = arith.index_cast %i : index to i64
    %a = arith.trunci %k : i64 to i1
    %c2 = arith.constant 2 : index
    %b = arith.cmpi uge, %i, %c2 : index
    %r = arith.addi %a, %b : i1
    stax.yield %r : i1
  }
  %less = stax.pointwise layout <[1]> : tensor<4xi1> {
  ^bb0(%i: index):
    %k = arith.index_cast %i : index to i64
    %a = arith.trunci %k : i64 to i1
    %c2 = arith.constant 2 : index
    %b = arith.cmpi uge, %i, %c2 : index
    %r = arith.cmpi slt, %a, %b : i1
    stax.yield %r : i1
  }
  %ext = stax.pointwise layout <[1]> : tensor<4xi8> {
  ^bb0(%i: index):
    %k = arith.index_cast %i : index to i64
    %a = arith.trunci %k : i64 to i1
    %r = arith.extsi %a : i1 to i8
    stax.yield %r : i8
  }
  return %sum, %less, %ext : tensor<4xi1>, tensor<4xi1>, tensor<4xi8>
}
