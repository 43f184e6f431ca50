// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 grain=1" %s | FileCheck %s --check-prefix=CHECK-PAR

// A pointwise node that stores contiguously along its last loop but reads
// a buffer contiguous along its second-to-last (a transpose) runs its last
// two loops in 16 x 16 tiles: 16 rows share each 64-byte line of the
// transposed read while it is in L1. 37 x 53: ceil(37 / 16) = 3 row tiles,
// ceil(53 / 16) = 4 column tiles, partial tiles at both edges.
// CHECK-LABEL: func.func @transposed(
// CHECK: scf.for %[[RT:.*]] = %{{.*}} to %c3 step
// CHECK: scf.for %[[CT:.*]] = %{{.*}} to %c4 step
// CHECK: %[[R0:.*]] = arith.muli %[[RT]], %c16
// CHECK: %[[R1:.*]] = arith.addi %[[R0]], %c16
// CHECK: %[[RUB:.*]] = arith.minsi %[[R1]], %c37
// CHECK: %[[C0:.*]] = arith.muli %[[CT]], %c16
// CHECK: %[[C1:.*]] = arith.addi %[[C0]], %c16
// CHECK: %[[CUB:.*]] = arith.minsi %[[C1]], %c53
// CHECK: scf.for %[[I:.*]] = %[[R0]] to %[[RUB]] step
// The vector loop over the tile's columns, then its scalar tail.
// CHECK: scf.for %[[J:.*]] = %[[C0]] to %{{.*}} step %c16
// CHECK: vector.gather
// CHECK: vector.store
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[CUB]] step
// CHECK: memref.load
// CHECK: memref.store
// The row tiles are the parallel loop; each thread walks their columns.
// CHECK-PAR-LABEL: func.func @transposed(
// CHECK-PAR: scf.parallel (%[[RT:.*]]) = (%{{.*}}) to (%c3) step
// CHECK-PAR: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK-PAR: arith.muli %[[RT]], %c16
func.func @transposed(%x: tensor<53x37xf32>, %y: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %t = tp.t %x : tensor<53x37xf32> -> tensor<37x53xf32>
  %s = tp.add %t, %y : tensor<37x53xf32>, tensor<37x53xf32> -> tensor<37x53xf32>
  return %s : tensor<37x53xf32>
}

// f64: a line is 8 elements, so are the row tiles (ceil(37 / 8) = 5).
// CHECK-LABEL: func.func @transposed_f64(
// CHECK: scf.for %[[RT:.*]] = %{{.*}} to %c5 step
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: arith.muli %[[RT]], %c8
func.func @transposed_f64(%x: tensor<53x37xf64>) -> tensor<37x53xf64> {
  %t = tp.t %x : tensor<53x37xf64> -> tensor<37x53xf64>
  %n = tp.neg %t : tensor<37x53xf64> -> tensor<37x53xf64>
  return %n : tensor<37x53xf64>
}

// Not tiled: contiguous reads (one flat loop after loop merging), and a
// transpose with fewer rows than a tile (8 < 16).
// CHECK-LABEL: func.func @contiguous(
// CHECK-NOT: arith.minsi
// CHECK: vector.load
// CHECK: return
func.func @contiguous(%x: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %n = tp.neg %x : tensor<37x53xf32> -> tensor<37x53xf32>
  return %n : tensor<37x53xf32>
}
// CHECK-LABEL: func.func @few_rows(
// CHECK-NOT: arith.minsi
// CHECK: vector.gather
// CHECK: return
func.func @few_rows(%x: tensor<53x8xf32>) -> tensor<8x53xf32> {
  %t = tp.t %x : tensor<53x8xf32> -> tensor<8x53xf32>
  %n = tp.neg %t : tensor<8x53xf32> -> tensor<8x53xf32>
  return %n : tensor<8x53xf32>
}
