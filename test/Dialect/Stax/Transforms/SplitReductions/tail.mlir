// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions | FileCheck %s
// RUN: stax-opt %s --stax-decompose --stax-lower=target=cuda --stax-split-reductions=target=cpu | FileCheck %s --check-prefix=CHECK-CPU

// The column split's addresses (aliases print before the functions): the
// first level reads row j * 125 + r of column i; partial (i, t) is at
// t * 300 + i.
// CHECK-DAG: #[[COL:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0 * 37500 + d1 + d2 * 300)>
// CHECK-DAG: #[[COLPART:map[0-9]*]] = affine_map<(d0, d1) -> (d0 + d1 * 300)>

// Algorithm 6.1's k is used as it is, not snapped to a divisor of the
// outermost reduction loop: where k does not divide n_r, the first level
// takes k segments of floor(n_r / k) and the second level combines the k
// partials, then the n_r mod k elements left over (position t reads partial
// t for t < k, else the original body at k * seg - k + t).

// One row of 10^6: k = 123 (n_r = 123 * 8130 + 10).
// CHECK-LABEL: func.func @one_row
// CHECK: %[[P:.*]] = stax.reduction sum [8130] layout <[123, 1]> : tensor<1x123xf32> {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index, %[[R:.*]]: index):
// CHECK-NEXT: affine.apply #[[FIRST:.*]](%[[I]], %[[J]], %[[R]])
// CHECK: stax.reduction sum [133] layout <[1]> : tensor<1xf32> {
// CHECK-NEXT: ^bb0(%[[I2:.*]]: index, %[[T:.*]]: index):
// CHECK-NEXT: %[[A:.*]] = affine.apply #[[TAIL:.*]](%[[I2]], %[[T]])
// CHECK-NEXT: %[[V:.*]] = stax.load %{{.*}}[%[[A]]] : tensor<1x1000000xf32>
// CHECK-NEXT: %[[PA:.*]] = affine.apply #[[PART:.*]](%[[I2]], %[[T]])
// CHECK-NEXT: %[[C:.*]] = arith.constant 123 : index
// CHECK-NEXT: %[[IS:.*]] = arith.cmpi slt, %[[T]], %[[C]] : index
// CHECK-NEXT: %[[PV:.*]] = stax.load %[[P]][%[[PA]]] : tensor<1x123xf32>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[IS]], %[[PV]], %[[V]] : f32
// CHECK-NEXT: stax.yield %[[S]] : f32
func.func @one_row(%x: tensor<1x1000000xf32>) -> tensor<1xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<1x1000000xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// Two rows of 500000: k = 62, not 2.
// CHECK-LABEL: func.func @two_rows
// CHECK: stax.reduction sum [8064] layout <[62, 1]> : tensor<2x62xf32>
// CHECK: stax.reduction sum [94] layout <[1]> : tensor<2xf32>
func.func @two_rows(%x: tensor<2x500000xf32>) -> tensor<2xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<2x500000xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Reduction loops [1, 16384] merge into one (contiguous: the address folds
// back to a linear one), then split in 2.
// CHECK-LABEL: func.func @merged_loops
// CHECK: stax.reduction sum [8192] layout <[2, 1]> : tensor<64x2xf32>
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT: affine.apply #[[MERGED:.*]](
// CHECK: stax.reduction sum [2] layout <[1]> : tensor<64xf32>
func.func @merged_loops(%x: tensor<64x1x16384xf32>) -> tensor<64xf32> {
  %0 = tp.sum %x {dims = array<i64: 1, 2>} : tensor<64x1x16384xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// A prime length splits: 7 x 99991 summed to one value, k = 86.
// CHECK-LABEL: func.func @prime
// CHECK: stax.reduction sum [8138] layout <[1]> : tensor<86xf32>
// CHECK: stax.reduction sum [155] layout <[]> : tensor<f32>
// On the cpu, 32 segments (threads) and a tail of 699937 mod 32 = 1.
// CHECK-CPU-LABEL: func.func @prime
// CHECK-CPU: stax.reduction sum [21873] layout <[1]> : tensor<32xf32>
// CHECK-CPU: stax.reduction sum [33] layout <[]> : tensor<f32>
func.func @prime(%x: tensor<7x99991xf32>) -> tensor<f32> {
  %0 = tp.sum %x {dims = array<i64: 0, 1>} : tensor<7x99991xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// Welford has no raw-value tail (its second level combines triples): it
// keeps the largest divisor of the outer loop not above k (here 10 for 13).
// CHECK-LABEL: func.func @welford
// CHECK: stax.reduction welford [10000] layout <[10, 1]>
// CHECK: stax.reduction welford_combine [10] layout <[1]>
func.func @welford(%x: tensor<8x100000xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %w:3 = stax.reduction welford [100000] layout <[1]> : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> {
  ^bb0(%i: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 100000 + d1)>(%i, %r)
    %v = stax.load %x[%a] : tensor<8x100000xf32>
    stax.yield %v : f32
  }
  return %w#0, %w#1, %w#2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Column reductions (reads contiguous along the last output, strided along
// the reduction) have their own rule: split along the reduced rows into
// enough (output, segment) threads to fill the device, at least 32 rows a
// segment, k chosen in [want/2, want] to leave the fewest rows over; the
// segment index is the partials' outer dimension, so the threads of
// consecutive columns still read consecutive addresses. Algorithm 6.1 would
// leave this one whole (300 >= 2S outputs).
// CHECK-LABEL: func.func @column
// CHECK: %[[P:.*]] = stax.reduction sum [125] layout <[300, 1]> : tensor<800x300xf32> {
// CHECK-NEXT: ^bb0(%[[J:.*]]: index, %[[I:.*]]: index, %[[R:.*]]: index):
// CHECK-NEXT: affine.apply #[[COL]](%[[J]], %[[I]], %[[R]])
// CHECK: stax.reduction sum [800] layout <[1]> : tensor<300xf32> {
// CHECK-NEXT: ^bb0(%[[I2:.*]]: index, %[[T:.*]]: index):
// CHECK-NEXT: %[[A:.*]] = affine.apply #[[COLPART]](%[[I2]], %[[T]])
// CHECK-NEXT: stax.load %[[P]][%[[A]]] : tensor<800x300xf32>
// The cpu target keeps it whole (300 outputs are parallelism enough).
// CHECK-CPU-LABEL: func.func @column
// CHECK-CPU: stax.reduction sum [100000] layout <[1]> : tensor<300xf32>
// CHECK-CPU-NOT: stax.reduction
func.func @column(%x: tensor<100000x300xf32>) -> tensor<300xf32> {
  %0 = tp.sum %x {dims = array<i64: 0>} : tensor<100000x300xf32> -> tensor<300xf32>
  return %0 : tensor<300xf32>
}

// A prime number of rows: 606 segments of 165 and one row left over.
// CHECK-LABEL: func.func @column_prime
// CHECK: stax.reduction max [165] layout <[300, 1]> : tensor<606x300xf32>
// CHECK: stax.reduction max [607] layout <[1]> : tensor<300xf32>
// CHECK-CPU-LABEL: func.func @column_prime
func.func @column_prime(%x: tensor<99991x300xf32>) -> tensor<300xf32> {
  %0 = tp.amax %x {dims = array<i64: 0>} : tensor<99991x300xf32> -> tensor<300xf32>
  return %0 : tensor<300xf32>
}
