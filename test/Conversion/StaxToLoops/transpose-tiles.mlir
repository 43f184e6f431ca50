// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 grain=1 call-grain=0" %s | FileCheck %s --check-prefix=CHECK-PAR

// A pointwise node that stores contiguously along its last loop but reads
// a buffer contiguous along its second-to-last (a transpose) runs its last
// two loops in 16 x 16 tiles: 16 rows share each 64-byte line of the
// transposed read while it is in L1. 37 x 53: ceil(37 / 16) = 3 row tiles,
// ceil(53 / 16) = 4 column tiles, partial tiles at both edges. The tiles
// go in blocks (one row tile by up to 8 column tiles here): 3 row blocks,
// 1 column block.
// The stack tile is allocated once, before the serial loops: an alloca in
// a loop body is not freed per iteration once scf becomes cf, and 1 KiB
// per tile overflowed the stack on a 288 x 8192 transpose.
// CHECK-LABEL: func.func @transposed(
// CHECK: %[[TILE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256xf32>
// CHECK: scf.for %[[RB:.*]] = %{{.*}} to %c3 step
// CHECK: scf.for %[[CB:.*]] = %{{.*}} to %c1{{(_[0-9]+)?}} step
// CHECK: scf.for %[[RT:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[CT:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[R0:.*]] = arith.muli %[[RT]], %c16
// CHECK: %[[R1:.*]] = arith.addi %[[R0]], %c16
// CHECK: %[[RUB:.*]] = arith.minsi %[[R1]], %c37
// CHECK: %[[C0:.*]] = arith.muli %[[CT]], %c16
// CHECK: %[[C1:.*]] = arith.addi %[[C0]], %c16
// CHECK: %[[CUB:.*]] = arith.minsi %[[C1]], %c53
// A full tile stages x: 16 vector loads along x's rows, one transpose in
// registers, 16 stores into a 1 KiB stack tile that the rows then read
// with vector loads.
// CHECK: %[[FULL:.*]] = arith.andi
// CHECK: scf.if %[[FULL]] {
// CHECK-NOT: memref.alloca
// CHECK-COUNT-16: vector.load %arg0
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK-COUNT-16: vector.store %{{.*}}, %[[TILE]]
// CHECK: scf.for %[[I:.*]] = %[[R0]] to
// CHECK: scf.for %[[J:.*]] = %[[C0]] to %{{.*}} step %c16
// CHECK: vector.load %[[TILE]]
// CHECK: vector.load %arg1
// CHECK: vector.store
// A partial tile reads x directly: the vector loop over the tile's
// columns (a gather), then its scalar tail.
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %[[R0]] to %[[RUB]] step
// CHECK: scf.for %{{.*}} = %[[C0]] to %{{.*}} step %c16
// CHECK: vector.gather
// CHECK: vector.store
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[CUB]] step
// CHECK: memref.load
// CHECK: memref.store
// The row blocks are the parallel loop; each thread walks their columns.
// CHECK-PAR-LABEL: func.func @transposed(
// CHECK-PAR: scf.parallel (%[[RB:.*]]) = (%{{.*}}) to (%c3) step
// CHECK-PAR: scf.for %{{.*}} = %{{.*}} to %c1{{(_[0-9]+)?}} step
// CHECK-PAR: arith.muli %[[RB]], %c1
func.func @transposed(%x: tensor<53x37xf32>, %y: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %t = tp.t %x : tensor<53x37xf32> -> tensor<37x53xf32>
  %s = tp.add %t, %y : tensor<37x53xf32>, tensor<37x53xf32> -> tensor<37x53xf32>
  return %s : tensor<37x53xf32>
}

// 520 x 300: 33 row tiles in blocks of 2 (at least 16 row blocks: 17, the
// last one tile), 19 column tiles in blocks of 8 (3, the last 3 tiles).
// Both transposed operands are staged.
// CHECK-LABEL: func.func @blocks(
// CHECK: memref.alloca() {{.*}} : memref<256xf32>
// CHECK: memref.alloca() {{.*}} : memref<256xf32>
// CHECK: scf.for %[[RB:.*]] = %{{.*}} to %c17 step
// CHECK: scf.for %[[CB:.*]] = %{{.*}} to %c3{{(_[0-9]+)?}} step
// CHECK: %[[RT0:.*]] = arith.muli %[[RB]], %c2
// CHECK: %[[RT1:.*]] = arith.addi %[[RT0]], %c2
// CHECK: %[[RTN:.*]] = arith.minsi %[[RT1]], %c33
// CHECK: %[[CT0:.*]] = arith.muli %[[CB]], %c8
// CHECK: %[[CT1:.*]] = arith.addi %[[CT0]], %c8
// CHECK: %[[CTN:.*]] = arith.minsi %[[CT1]], %c19
// CHECK: scf.for %{{.*}} = %[[RT0]] to %[[RTN]] step
// CHECK: scf.for %{{.*}} = %[[CT0]] to %[[CTN]] step
// CHECK-NOT: memref.alloca
// CHECK: vector.transpose
// CHECK-NOT: memref.alloca
// CHECK: vector.transpose
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @blocks(%x: tensor<300x520xf32>, %w: tensor<300x520xf32>) -> tensor<520x300xf32> {
  %t = tp.t %x : tensor<300x520xf32> -> tensor<520x300xf32>
  %u = tp.t %w : tensor<300x520xf32> -> tensor<520x300xf32>
  %m = tp.mul %t, %u : tensor<520x300xf32>, tensor<520x300xf32> -> tensor<520x300xf32>
  %s = tp.add %m, %t : tensor<520x300xf32>, tensor<520x300xf32> -> tensor<520x300xf32>
  return %s : tensor<520x300xf32>
}

// f64: a line is 8 elements, so are the row tiles (ceil(37 / 8) = 5, one
// per block). Only 16 x 16 tiles of 32-bit elements are staged.
// CHECK-LABEL: func.func @transposed_f64(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5 step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[RT:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: arith.muli %[[RT]], %c8{{(_[0-9]+)?}} :
// CHECK-NOT: vector.transpose
// CHECK: vector.gather
// CHECK: return
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
