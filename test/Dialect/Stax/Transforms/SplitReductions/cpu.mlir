// RUN: stax-opt --stax-lowering-pipeline %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline=split-reductions=false %s \
// RUN:   | FileCheck %s --check-prefix=NOSPLIT

// On the CPU a long reduction with at most 3 outputs splits into up to 32
// segments that the threads reduce in parallel, combined once; a
// reduction over contiguous rows of fewer outputs than a line splits into
// interleaved rows (below). Nothing else splits.

// CHECK-LABEL: func.func @loss
// CHECK: stax.reduction sum [524288] layout <[1]> : tensor<32xf32>
// CHECK: stax.reduction sum [32] layout <[]> : tensor<f32>
// split-reductions=false keeps every sum in order, bitwise equal to tp's.
// NOSPLIT-LABEL: func.func @loss
// NOSPLIT: stax.reduction sum [16777216] layout <[]> : tensor<f32>
// NOSPLIT-NOT: stax.reduction
// NOSPLIT-LABEL: func.func @rows
func.func @loss(%x: tensor<4096x4096xf32>) -> tensor<f32> {
  %0 = tp.mul %x, %x : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  %1 = tp.sum %0 {dims = array<i64: 0, 1>} : tensor<4096x4096xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// Four outputs are enough parallelism: no split.
// CHECK-LABEL: func.func @rows
// CHECK: stax.reduction sum [65536]
// CHECK-NOT: stax.reduction
func.func @rows(%x: tensor<4x65536xf32>) -> tensor<4xf32> {
  %0 = tp.sum %x {dims = array<i64: 1>} : tensor<4x65536xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Short reductions stay whole.
// CHECK-LABEL: func.func @short
// CHECK: stax.reduction sum [1000]
// CHECK-NOT: stax.reduction
func.func @short(%x: tensor<1000xf32>) -> tensor<f32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<1000xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// Fewer outputs than a 64-byte line of partials, read along contiguous
// rows (a narrow column sum): interleaved into R = 16 / gcd(16, C) partial
// rows, segment j summing rows j, j + R, ...: the partials [R, C] are
// whole lines, read with full vectors. 3000 x 4: R = 4, 750 rows each;
// loop normalization merges the partials' loops into one of 16, as
// contiguous in the rows as in the partials.
// CHECK-LABEL: func.func @narrow_columns
// CHECK: %[[P:.*]] = stax.reduction sum [750] ranges [16] layout <[1]> : tensor<4x4xf32>
// CHECK-NEXT: ^bb0(%[[O:.*]]: index, %[[R:.*]]: index):
// CHECK-NEXT: affine.apply #{{.*}}(%[[O]], %[[R]])
// CHECK: stax.reduction sum [4] layout <[1]> : tensor<4xf32>
// CHECK: stax.load %[[P]]
func.func @narrow_columns(%x: tensor<3000x4xf32>) -> tensor<4xf32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<3000x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// 1001 x 3: R = 16 (48 partials of 62 rows); the 9 rows left over are
// added after the 16 partials by the second level.
// CHECK-LABEL: func.func @narrow_columns_with_rows_left
// CHECK: %[[P:.*]] = stax.reduction sum [62] ranges [48] layout <[1]> : tensor<16x3xf32>
// CHECK: stax.reduction sum [25] layout <[1]> : tensor<3xf32>
// CHECK: stax.load %[[P]]
// CHECK: arith.select
func.func @narrow_columns_with_rows_left(%x: tensor<1001x3xf32>) -> tensor<3xf32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<1001x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// f64 partials: a line is 8 of them (R = 4 for 6 columns); the bias
// gradient of a small head reads g * h rows contiguously too.
// CHECK-LABEL: func.func @narrow_f64_product
// CHECK: stax.reduction sum [250] ranges [24] layout <[1]> : tensor<4x6xf64>
// CHECK: arith.mulf
// CHECK: stax.reduction sum [4] layout <[1]> : tensor<6xf64>
func.func @narrow_f64_product(%g: tensor<1000x6xf64>, %h: tensor<1000x6xf64>) -> tensor<6xf64> {
  %0 = tp.mul %g, %h : tensor<1000x6xf64>, tensor<1000x6xf64> -> tensor<1000x6xf64>
  %1 = tp.sum %0 {dims = array<i64: 0>} : tensor<1000x6xf64> -> tensor<6xf64>
  return %1 : tensor<6xf64>
}

// Not interleaved: rows that are not contiguous (a slice of wider rows),
// a broadcast operand (its reads do not move with the rows), a full line
// of outputs, and too few rows (fewer than 2R).
// CHECK-LABEL: func.func @not_interleaved
// CHECK: stax.reduction sum [3000] layout <[1]> : tensor<4xf32>
// CHECK: stax.reduction sum [3000] layout <[1]> : tensor<4xf32>
// CHECK: stax.reduction sum [3000] layout <[1]> : tensor<16xf32>
// CHECK: stax.reduction sum [7] layout <[1]> : tensor<4xf32>
// CHECK-NOT: stax.reduction
func.func @not_interleaved(%x: tensor<3000x8xf32>, %b: tensor<4xf32>, %y: tensor<3000x4xf32>,
                           %w: tensor<3000x16xf32>, %s: tensor<7x4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<16xf32>, tensor<4xf32>) {
  %v = tp.slice %x {dim = 1 : i64, start = 0 : i64, end = 4 : i64} : tensor<3000x8xf32> -> tensor<3000x4xf32>
  %0 = tp.sum %v {dims = array<i64: 0>} : tensor<3000x4xf32> -> tensor<4xf32>
  %e = tp.mul %y, %b : tensor<3000x4xf32>, tensor<4xf32> -> tensor<3000x4xf32>
  %1 = tp.sum %e {dims = array<i64: 0>} : tensor<3000x4xf32> -> tensor<4xf32>
  %2 = tp.sum %w {dims = array<i64: 0>} : tensor<3000x16xf32> -> tensor<16xf32>
  %3 = tp.sum %s {dims = array<i64: 0>} : tensor<7x4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<16xf32>, tensor<4xf32>
}

// Too few rows for 8 per interleaved segment (R = 2 for 8 columns needs
// 16): the column sum stays one node, summed in order.
// CHECK-LABEL: func.func @few_rows
// CHECK: stax.reduction sum [12] layout <[1]> : tensor<8xf32>
// CHECK-NOT: stax.reduction
// CHECK: return
func.func @few_rows(%x: tensor<12x8xf32>) -> tensor<8xf32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<12x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
