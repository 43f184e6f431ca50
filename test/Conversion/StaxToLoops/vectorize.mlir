// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 parallel=false" %s | FileCheck %s --check-prefix=CHECK-SCALAR
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s | FileCheck %s --check-prefix=CHECK-NOVEC
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" --canonicalize %s | FileCheck %s --check-prefix=CHECK-PIECES

// With vector-width > 1 the innermost loop of a pointwise node that stores
// contiguously runs 16 lanes at a time: unit-stride reads are vector.load,
// strides -1 and 2 to 4 vector loads and shuffles, other strides
// vector.gather, the store vector.store, and a scalar loop
// does the tail. A sum whose innermost reduction loop reads contiguously
// keeps a vector accumulator and combines its lanes once
// (vector.reduction). vector-width=1 emits no vector code at all.
// CHECK-NOVEC-LABEL: func.func @row_sum
// CHECK-NOVEC-NOT: vector
// CHECK-NOVEC: func.func @short_rows
// CHECK-NOVEC-NOT: vector

// Example 6.2, (x * x).sum(-1): each row sums 16384 = 4 x 64 x 4 x 16
// lanes, with four vector accumulators (so the adds do not wait on each
// other) in blocks: each block of 64 unrolled steps is summed from zero and
// added to them once (blocked summation: the longest chain of additions a
// lane sees is 64 + 4, not 256), then the accumulators are added pairwise
// and a one-accumulator loop takes the rest of the vectors.
// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME: %[[X:.*]]: memref<1048576xf32>, %[[OUT:.*]]: memref<64xf32> {stax.output})
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<16xf32>
// CHECK: %[[ID:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<16xf32>
// CHECK: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK: %[[ACCS:.*]]:4 = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %[[C4096]] iter_args(%[[A0:.*]] = %[[INIT]], %[[A1:.*]] = %[[ID]], %[[A2:.*]] = %[[ID]], %[[A3:.*]] = %[[ID]])
// CHECK: %[[HI:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[BLK:.*]]:4 = scf.for %{{.*}} = %[[B]] to %[[HI]] step %[[C64]] iter_args(%[[Z0:.*]] = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]])
// CHECK: %[[V:.*]] = vector.load %[[X]][%{{.*}}] : memref<1048576xf32>, vector<16xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : vector<16xf32>
// CHECK: arith.addf %[[Z0]], %[[SQ]] : vector<16xf32>
// CHECK-COUNT-3: vector.load %[[X]]
// CHECK: scf.yield {{.*}} : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// CHECK: arith.addf %[[A0]], %[[BLK]]#0 : vector<16xf32>
// CHECK: arith.addf %[[A1]], %[[BLK]]#1 : vector<16xf32>
// CHECK: arith.addf %[[A2]], %[[BLK]]#2 : vector<16xf32>
// CHECK: arith.addf %[[A3]], %[[BLK]]#3 : vector<16xf32>
// CHECK: %[[P01:.*]] = arith.addf %[[ACCS]]#0, %[[ACCS]]#1 : vector<16xf32>
// CHECK: %[[P23:.*]] = arith.addf %[[ACCS]]#2, %[[ACCS]]#3 : vector<16xf32>
// CHECK: %[[P:.*]] = arith.addf %[[P01]], %[[P23]] : vector<16xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[P]]) -> (vector<16xf32>)
// The scalar tail (empty here: 16384 is a multiple of 16), then the lanes.
// CHECK: %[[TAIL:.*]] = scf.for {{.*}} -> (f32)
// CHECK: %[[LANES:.*]] = vector.reduction <add>, %[[ACC]] : vector<16xf32> into f32
// CHECK: %[[SUM:.*]] = arith.addf %[[TAIL]], %[[LANES]] : f32
// CHECK: memref.store %[[SUM]], %[[OUT]]
// CHECK-SCALAR-LABEL: func.func @row_sum
// CHECK-SCALAR: scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK-SCALAR: memref.load
// CHECK-SCALAR: arith.mulf {{.*}} : f32
// CHECK-SCALAR: arith.addf {{.*}} : f32
func.func @row_sum(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %0 = tp.mul %x, %x : tensor<64x16384xf32>, tensor<64x16384xf32> -> tensor<64x16384xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<64x16384xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// Example 6.1, x.t() + y: y and the output are contiguous along the inner
// loop (vector.load, vector.store); the transposed x steps by 256
// (vector.gather at base + 256 * step). The scalar tail loop follows
// (empty here: 512 = 32 x 16).
// CHECK-LABEL: func.func @example_6_1(
// CHECK-SAME: %[[X:[^:]*]]: memref<131072xf32>, %[[Y:[^:]*]]: memref<131072xf32>, %[[OUT:[^:]*]]: memref<131072xf32> {stax.output})
// The vector loop ends at start + (n - start) / 16 * 16.
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[W:.*]] = arith.constant 16 : index
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[W]] {
// CHECK: %[[STEP:.*]] = vector.step : vector<16xindex>
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[S:.*]] = vector.broadcast %[[C256]] : index to vector<16xindex>
// CHECK: arith.muli %[[STEP]], %[[S]] : vector<16xindex>
// CHECK: %[[GX:.*]] = vector.gather %[[X]][%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<131072xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: %[[LY:.*]] = vector.load %[[Y]][%{{.*}}] : memref<131072xf32>, vector<16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[GX]], %[[LY]] : vector<16xf32>
// CHECK: vector.store %[[SUM]], %[[OUT]][%{{.*}}] : memref<131072xf32>, vector<16xf32>
// CHECK: }
// CHECK: scf.for
// CHECK: memref.load %[[X]]
// CHECK: memref.load %[[Y]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK-SCALAR-LABEL: func.func @example_6_1
// CHECK-SCALAR: memref.load
// CHECK-SCALAR: memref.store
func.func @example_6_1(%x: tensor<512x256xf32>, %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %0 = tp.t %x : tensor<512x256xf32> -> tensor<256x512xf32>
  %1 = tp.add %0, %y : tensor<256x512xf32>, tensor<256x512xf32> -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
}

// A value read at a fixed address along the inner loop (the bias b[i]
// of row i) is one scalar load broadcast to all lanes.
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME: %[[X:[^:]*]]: memref<2048xf32>, %[[B:[^:]*]]: memref<32xf32>,
// CHECK: scf.for {{.*}} step %{{.*}} {
// CHECK: %[[LX:.*]] = vector.load %[[X]]
// CHECK: %[[LB:.*]] = memref.load %[[B]]
// CHECK: %[[BB:.*]] = vector.broadcast %[[LB]] : f32 to vector<16xf32>
// CHECK: arith.addf %[[LX]], %[[BB]] : vector<16xf32>
// CHECK: vector.store
func.func @broadcast(%x: tensor<32x64xf32>, %b: tensor<32x1xf32>) -> tensor<32x64xf32> {
  %0 = tp.add %x, %b : tensor<32x64xf32>, tensor<32x1xf32> -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}

// Rows shorter than the vector width stay scalar.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: vector.
// CHECK: return
func.func @short_rows(%x: tensor<100x15xf32>) -> tensor<100xf32> {
  %0 = tp.relu %x : tensor<100x15xf32> -> tensor<100x15xf32>
  %1 = tp.amax %0 {dims = array<i64: -1>} : tensor<100x15xf32> -> tensor<100xf32>
  return %1 : tensor<100xf32>
}

// A float max step is LLVM's IEEE maximum (zeros ordered by sign, NaN
// propagated), five or six dependent instructions: eight accumulators,
// exact in any order, combined pairwise; 136 = 128 + 8, no vector left.
// CHECK-LABEL: func.func @row_max
// CHECK: %[[ACC:.*]]:8 = scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-8: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: scf.yield
// CHECK-COUNT-7: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: vector.reduction <maximumf>
// CHECK: return
func.func @row_max(%x: tensor<8x136xf32>) -> tensor<8xf32> {
  %0 = tp.amax %x {dims = array<i64: -1>} : tensor<8x136xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Argmax along one loop: four independent (value, position) accumulators
// of 16 lanes (a NaN, or a strict maximum, replaces a lane's pair unless
// it holds a NaN), merged lane by lane (the first NaN, else the larger
// value, else the first position); a one-accumulator loop for the vectors
// left (64 to 96); then the lanes combine: the first NaN position (minsi
// over the NaN lanes), else the maximum (maximumf over the others) and the
// first position holding it (minsi); then the scalar tail (96 to 100).
// CHECK-LABEL: func.func @argmax
// CHECK: %[[ACC:.*]]:8 = scf.for {{.*}} -> (vector<16xf32>, vector<16xi64>, vector<16xf32>, vector<16xi64>, vector<16xf32>, vector<16xi64>, vector<16xf32>, vector<16xi64>) {
// CHECK: %[[V:.*]] = vector.load
// CHECK: %[[NANORMORE:.*]] = arith.cmpf ugt, %[[V]], %[[A0:.*]] : vector<16xf32>
// CHECK: %[[ORD:.*]] = arith.cmpf ord, %[[A0]], %[[A0]] : vector<16xf32>
// CHECK: %[[TAKE:.*]] = arith.andi %[[ORD]], %[[NANORMORE]] : vector<16xi1>
// CHECK: arith.select %[[TAKE]], %[[V]], %[[A0]] : vector<16xi1>, vector<16xf32>
// CHECK: arith.select %[[TAKE]], {{.*}} : vector<16xi1>, vector<16xi64>
// CHECK-COUNT-3: vector.load
// CHECK: scf.yield
// CHECK: %[[EARLIER:.*]] = arith.cmpi slt, %[[ACC]]#3, %[[ACC]]#1 : vector<16xi64>
// CHECK: arith.cmpf uno, %[[ACC]]#2, %[[ACC]]#2 : vector<16xf32>
// CHECK: arith.cmpf ogt, %[[ACC]]#2, %[[ACC]]#0 : vector<16xf32>
// CHECK: arith.cmpf oeq, %[[ACC]]#2, %[[ACC]]#0 : vector<16xf32>
// CHECK: arith.select {{.*}}, %[[ACC]]#2, %[[ACC]]#0 : vector<16xi1>, vector<16xf32>
// CHECK: arith.select {{.*}}, %[[ACC]]#3, %[[ACC]]#1 : vector<16xi1>, vector<16xi64>
// CHECK: %[[BEST:.*]]:2 = scf.for %{{.*}} = %c64{{.*}} to %c96{{.*}} step %c16{{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xi64>) {
// CHECK: %[[NANS:.*]] = arith.cmpf uno, %[[BEST]]#0, %[[BEST]]#0 : vector<16xf32>
// CHECK: vector.reduction <minsi>, %{{.*}} : vector<16xi64> into i64
// CHECK: %[[MAX:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<16xf32> into f32
// CHECK: vector.reduction <minsi>, %{{.*}} : vector<16xi64> into i64
// CHECK: scf.for %{{.*}} = %c96{{.*}} to %c100{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (f32, i64, i64)
// CHECK: return
func.func @argmax(%x: tensor<8x100xf32>) -> tensor<8xi64> {
  %0 = tp.argmax %x {dim = 1 : i64} : tensor<8x100xf32> -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// An i1 result or read stays scalar: vector<Nxi1> is packed bits, buffers
// hold one byte per i1.
// CHECK-LABEL: func.func @compare
// CHECK-NOT: vector.
// CHECK: return
func.func @compare(%x: tensor<2x64xf32>, %y: tensor<2x64xf32>) -> tensor<2x64xi1> {
  %0 = tp.lt %x, %y : tensor<2x64xf32>, tensor<2x64xf32> -> tensor<2x64xi1>
  return %0 : tensor<2x64xi1>
}
// CHECK-LABEL: func.func @where
// CHECK-NOT: vector<{{[0-9]+}}xi1>
// CHECK: return
func.func @where(%c: tensor<2x64xi1>, %x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %z = tp.constant dense<0.0> : tensor<f32>
  %0 = tp.where %c, %x, %z : (tensor<2x64xi1>, tensor<2x64xf32>, tensor<f32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// A reshape of a transpose reads element i at i * 3 - (i floordiv 20) * 59,
// not a constant stride across lanes; loop normalization splits the loop
// at 20 (i = 20 a + b), after which the lanes along b read at stride 3:
// three contiguous loads (the last masked to its lanes' elements) and two
// shuffles (jit-differential-strided-reads.mlir runs them).
// CHECK-LABEL: func.func @reshape_of_transpose
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK-COUNT-2: vector.load
// CHECK: vector.maskedload
// CHECK-COUNT-2: vector.shuffle
// CHECK-NOT: vector.gather
// CHECK: vector.store
// CHECK: return
func.func @reshape_of_transpose(%x: tensor<20x3xf32>) -> tensor<60xf32> {
  %t = tp.t %x : tensor<20x3xf32> -> tensor<3x20xf32>
  %r = tp.reshape %t {size = array<i64: 60>} : tensor<3x20xf32> -> tensor<60xf32>
  %n = tp.neg %r : tensor<60xf32> -> tensor<60xf32>
  return %n : tensor<60xf32>
}

// A fused kernel whose nodes all loop over its outer ranges (a pointwise
// chain keeping its intermediate) runs its last outer loop in strips of
// 16: each node evaluates 16 lanes, in order, then the scalar tail (37 =
// 2 x 16 + 5) runs every node one index at a time.
// CHECK-LABEL: func.func @kernel_strips(
// CHECK-SAME: %[[X:[^:]*]]: memref<259xf32>, %[[B:[^:]*]]: memref<37xf32>, %[[O0:[^:]*]]: memref<259xf32> {stax.output}, %[[O1:[^:]*]]: memref<259xf32> {stax.output})
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: arith.divui
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[END:.*]] step %{{.*}} {
// CHECK: %[[XV:.*]] = vector.load %[[X]][%{{.*}}] : memref<259xf32>, vector<16xf32>
// CHECK: %[[BV:.*]] = vector.load %[[B]][%[[J]]] : memref<37xf32>, vector<16xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[XV]], %[[BV]] : vector<16xf32>
// CHECK: vector.store %[[SUM]], %[[O0]][%{{.*}}]
// CHECK: %[[BACK:.*]] = vector.load %[[O0]][%{{.*}}] : memref<259xf32>, vector<16xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[BACK]], %[[BACK]] : vector<16xf32>
// CHECK: %[[NEG:.*]] = arith.negf %[[SQ]] : vector<16xf32>
// CHECK: vector.store %[[NEG]], %[[O1]][%{{.*}}]
// CHECK: }
// CHECK: scf.for %{{.*}} = %[[END]] to %{{.*}} step %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[O0]]
// CHECK: memref.store %{{.*}}, %[[O1]]
// CHECK-SCALAR-LABEL: func.func @kernel_strips
// CHECK-SCALAR-NOT: vector.
// CHECK-SCALAR: return
func.func @kernel_strips(%x: tensor<7x37xf32>, %b: tensor<37xf32>) -> (tensor<7x37xf32>, tensor<7x37xf32>) {
  %0 = tp.add %x, %b : tensor<7x37xf32>, tensor<37xf32> -> tensor<7x37xf32>
  %1 = tp.mul %0, %0 : tensor<7x37xf32>, tensor<7x37xf32> -> tensor<7x37xf32>
  %2 = tp.neg %1 : tensor<7x37xf32> -> tensor<7x37xf32>
  return %0, %2 : tensor<7x37xf32>, tensor<7x37xf32>
}

// Column reductions fused with their consumer: each strip reduces 16
// columns at once, one lane per column in the scalar order (a vector
// accumulator carried through the rows), then the pointwise consumer.
// CHECK-LABEL: func.func @kernel_column_lanes(
// CHECK: arith.divui
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[S:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<16xf32>) {
// CHECK: vector.store %[[S]], %[[SUMS:.*]][%{{.*}}] : memref<40xf32>, vector<16xf32>
// CHECK: %[[M:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<16xf32>) {
// CHECK: vector.store %[[M]], %[[MAXS:.*]][%{{.*}}] : memref<40xf32>, vector<16xf32>
// CHECK: vector.load %[[SUMS]][%[[J]]]
// CHECK: vector.load %[[MAXS]][%[[J]]]
// CHECK: vector.store
func.func @kernel_column_lanes(%x: tensor<9x40xf32>, %b: tensor<40xf32>) -> tensor<40xf32> {
  %0 = tp.mul %x, %x : tensor<9x40xf32>, tensor<9x40xf32> -> tensor<9x40xf32>
  %1 = tp.sum %0 {dims = array<i64: 0>} : tensor<9x40xf32> -> tensor<40xf32>
  %2 = tp.mul %1, %b : tensor<40xf32>, tensor<40xf32> -> tensor<40xf32>
  %3 = tp.amax %x {dims = array<i64: 0>} : tensor<9x40xf32> -> tensor<40xf32>
  %4 = tp.add %2, %3 : tensor<40xf32>, tensor<40xf32> -> tensor<40xf32>
  return %4 : tensor<40xf32>
}

// A node of a strip that cannot be vectorized (here: it reads an i1) runs
// its 16 lanes as a scalar loop inside the strip, after the nodes before it.
// CHECK-LABEL: func.func @kernel_scalar_node(
// CHECK: arith.divui
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[LAST:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %[[J]] to %[[LAST]] step
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: %[[LAST2:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %[[J]] to %[[LAST2]] step
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @kernel_scalar_node(%x: tensor<3x20xf32>, %b: tensor<20xf32>) -> (tensor<3x20xi1>, tensor<3x20xf32>) {
  %0 = tp.add %x, %b : tensor<3x20xf32>, tensor<20xf32> -> tensor<3x20xf32>
  %1 = tp.lt %0, %x : tensor<3x20xf32>, tensor<3x20xf32> -> tensor<3x20xi1>
  %2 = tp.where %1, %0, %x : (tensor<3x20xi1>, tensor<3x20xf32>, tensor<3x20xf32>) -> tensor<3x20xf32>
  return %1, %2 : tensor<3x20xi1>, tensor<3x20xf32>
}

// Concatenation: the masks compare the lane index with the boundary
// column, so the innermost loop is cut there (an index-set split) and in
// each piece the masks are constants; after canonicalization each piece
// is a plain copy of its operand (vector loads and stores, then a scalar
// tail), and no masked load is left.
// CHECK-PIECES-LABEL: func.func @cat_lanes(
// CHECK-PIECES: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c16
// CHECK-PIECES-NEXT: affine.apply
// CHECK-PIECES-NEXT: %[[A:.*]] = vector.load %{{.*}} : memref<1480xf32>, vector<16xf32>
// CHECK-PIECES-NEXT: affine.apply
// CHECK-PIECES-NEXT: vector.store %[[A]]
// CHECK-PIECES: scf.for %{{.*}} step %c1
// CHECK-PIECES: scf.for %{{.*}} step %c16
// CHECK-PIECES-NEXT: affine.apply
// CHECK-PIECES-NEXT: %[[B:.*]] = vector.load %{{.*}} : memref<1665xf32>, vector<16xf32>
// CHECK-PIECES-NEXT: affine.apply
// CHECK-PIECES-NEXT: vector.store %[[B]]
// CHECK-PIECES-NOT: maskedload
// CHECK-PIECES-LABEL: func.func @cat_sum(
func.func @cat_lanes(%x: tensor<37x40xf32>, %y: tensor<37x45xf32>) -> tensor<37x85xf32> {
  %0 = tp.cat %x, %y {dim = 1 : i64} : (tensor<37x40xf32>, tensor<37x45xf32>) -> tensor<37x85xf32>
  return %0 : tensor<37x85xf32>
}

// A reduction is not split: it reads each operand through a load masked
// to its part, masked vector loads (masked-off lanes read nothing, and are
// 0 as in the scalar code), combined by a vector select.
// CHECK-LABEL: func.func @cat_sum(
// CHECK: scf.for %{{.*}} step %c16
// CHECK: %[[M1:.*]] = arith.cmpi sge, %{{.*}} : vector<16xindex>
// CHECK: vector.maskedload %{{.*}}[%{{.*}}], %[[M1]], %{{.*}} : memref<1665xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: %[[M0:.*]] = arith.cmpi slt, %{{.*}} : vector<16xindex>
// CHECK: vector.maskedload %{{.*}}[%{{.*}}], %[[M0]], %{{.*}} : memref<185xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: arith.select %[[M0]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xf32>
func.func @cat_sum(%x: tensor<37x5xf32>, %y: tensor<37x45xf32>) -> tensor<37xf32> {
  %0 = tp.cat %x, %y {dim = 1 : i64} : (tensor<37x5xf32>, tensor<37x45xf32>) -> tensor<37x50xf32>
  %1 = tp.sum %0 {dims = array<i64: 1>} : tensor<37x50xf32> -> tensor<37xf32>
  return %1 : tensor<37xf32>
}

// A full sum of a permuted tensor: the split merges the two leading
// reduction loops into rows (their address has a floordiv of the row
// index), while the innermost loop stays contiguous. The address is linear
// in the lane whatever the uniform row index does: a vector accumulator.
// CHECK-LABEL: func.func @permuted_full_sum(
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<16xf32>)
// CHECK: vector.load %{{.*}} : memref<524288xf32>, vector<16xf32>
// CHECK: vector.reduction <add>
func.func @permuted_full_sum(%x: tensor<64x8x1024xf32>) -> tensor<f32> {
  %p = tp.permute %x {dims = array<i64: 1, 0, 2>} : tensor<64x8x1024xf32> -> tensor<8x64x1024xf32>
  %s = tp.sum %p {dims = array<i64: 0, 1, 2>} : tensor<8x64x1024xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// Blocked summation with a remainder: 10000 = 2 blocks of 4096, 28 more
// unrolled steps, then the tail; integer sums are exact and not blocked.
// CHECK-PIECES-LABEL: func.func @long_row_sum(
// CHECK-PIECES: %[[BLOCKS:.*]]:4 = scf.for %[[B:.*]] = %c0 to %c8192 step %c4096 iter_args
// CHECK-PIECES: scf.for %{{.*}} = %[[B]] to %{{.*}} step %c64 iter_args
// CHECK-PIECES: scf.for %{{.*}} = %c8192 to %c9984 step %c64 iter_args(%{{.*}} = %[[BLOCKS]]#0, %{{.*}} = %[[BLOCKS]]#1, %{{.*}} = %[[BLOCKS]]#2, %{{.*}} = %[[BLOCKS]]#3)
// CHECK-PIECES: vector.reduction <add>
func.func @long_row_sum(%x: tensor<4x10000xf32>) -> tensor<4xf32> {
  %1 = tp.sum %x {dims = array<i64: -1>} : tensor<4x10000xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK-PIECES-LABEL: func.func @int_row_sum(
// CHECK-PIECES-NOT: step %c4096
// CHECK-PIECES: scf.for %{{.*}} = %c0 to %c9984 step %c64 iter_args
// CHECK-PIECES: vector.reduction <add>, %{{.*}} : vector<16xi64> into i64
func.func @int_row_sum(%x: tensor<4x10000xi32>) -> tensor<4xi64> {
  %1 = tp.sum %x {dims = array<i64: -1>} : tensor<4x10000xi32> -> tensor<4xi64>
  return %1 : tensor<4xi64>
}

// With an outer reduction loop (dims 0 and 2 of 64 x 8 x 1024 do not
// merge), each inner loop sums from zero and adds its sum to the carried
// accumulator once: the carried chain is 64 additions, not 64 x 16.
// CHECK-PIECES-LABEL: func.func @strided_plane_sum(
// CHECK-PIECES: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[CARRIED:[^ ]*]] = %[[Z:[^)]*]]) -> (vector<16xf32>)
// CHECK-PIECES: %[[INNER:.*]]:4 = scf.for %{{.*}} = %c0 to %c1024 step %c64 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]])
// CHECK-PIECES: %[[P01:.*]] = arith.addf %[[INNER]]#0, %[[INNER]]#1 : vector<16xf32>
// CHECK-PIECES: %[[P23:.*]] = arith.addf %[[INNER]]#2, %[[INNER]]#3 : vector<16xf32>
// CHECK-PIECES: %[[P:.*]] = arith.addf %[[P01]], %[[P23]] : vector<16xf32>
// CHECK-PIECES: arith.addf %[[CARRIED]], %[[P]] : vector<16xf32>
func.func @strided_plane_sum(%x: tensor<64x8x1024xf32>) -> tensor<8xf32> {
  %1 = tp.sum %x {dims = array<i64: 0, 2>} : tensor<64x8x1024xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// A long column sum (outputs in lanes) adds in blocks of about sqrt(n)
// rows: 3000 rows in blocks of 64 (the last one shorter: affine.min), each
// summed from zero and added to the carried lanes once, so a lane's chain
// of additions is 64 + 47 long, not 3000. Scalar code keeps the
// interpreter's order (class 1).
// CHECK-PIECES-LABEL: func.func @long_column_sum(
// CHECK-PIECES: scf.for %[[B:.*]] = %c0 to %c3000 step %c64 iter_args(%[[C0:[^ ]*]] = %[[Z:[^,]*]],
// CHECK-PIECES: %[[E:.*]] = affine.min #{{.*}}(%[[B]])
// CHECK-PIECES: %[[BLK:.*]]:8 = scf.for %{{.*}} = %[[B]] to %[[E]] step %c1 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]],
// CHECK-PIECES: vector.load
// CHECK-PIECES: arith.addf %[[C0]], %[[BLK]]#0 : vector<16xf32>
// CHECK-PIECES: vector.store
// CHECK-SCALAR-LABEL: func.func @long_column_sum(
// CHECK-SCALAR-NOT: affine.min
// CHECK-SCALAR: scf.for {{.*}} -> (f32)
// CHECK-SCALAR-NOT: affine.min
// CHECK-SCALAR: return
func.func @long_column_sum(%x: tensor<3000x256xf32>) -> tensor<256xf32> {
  %1 = tp.sum %x {dims = array<i64: 0>} : tensor<3000x256xf32> -> tensor<256xf32>
  return %1 : tensor<256xf32>
}

// Below 512 values a column sum keeps the scalar order (bitwise equal to
// the interpreter); integer sums are exact and never blocked.
// CHECK-PIECES-LABEL: func.func @short_column_sum(
// CHECK-PIECES-NOT: affine.min
// CHECK-PIECES: scf.for %{{.*}} = %c0 to %c511 step %c1 iter_args
// CHECK-PIECES-LABEL: func.func @int_column_sum(
// CHECK-PIECES-NOT: affine.min
// CHECK-PIECES: scf.for %{{.*}} = %c0 to %c3000 step %c1 iter_args
func.func @short_column_sum(%x: tensor<511x256xf32>) -> tensor<256xf32> {
  %1 = tp.sum %x {dims = array<i64: 0>} : tensor<511x256xf32> -> tensor<256xf32>
  return %1 : tensor<256xf32>
}
func.func @int_column_sum(%x: tensor<3000x256xi32>) -> tensor<256xi64> {
  %1 = tp.sum %x {dims = array<i64: 0>} : tensor<3000x256xi32> -> tensor<256xi64>
  return %1 : tensor<256xi64>
}

// A column sum of fewer columns than a vector's lanes over contiguous rows
// is split into interleaved rows (--stax-split-reductions): 4 partial rows
// of the 4 columns are one vector, which adds a full vector load per 4
// rows of x, in blocks; the 16 partials are then added per column.
// CHECK-PIECES-LABEL: func.func @interleaved_narrow_column_sum(
// CHECK-PIECES: scf.for %[[B:.*]] = %c0 to %c750 step %c32 iter_args(%[[C:[^ ]*]] = %[[Z:[^)]*]]) -> (vector<16xf32>)
// CHECK-PIECES: %[[E:.*]] = affine.min #{{.*}}(%[[B]])
// CHECK-PIECES: scf.for %{{.*}} = %[[B]] to %[[E]] step %c1 iter_args(%{{.*}} = %[[Z]]) -> (vector<16xf32>)
// CHECK-PIECES: vector.load %arg0[%{{.*}}] : memref<12000xf32>, vector<16xf32>
// CHECK-PIECES: vector.store
// CHECK-PIECES: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}}) -> (f32)
func.func @interleaved_narrow_column_sum(%x: tensor<3000x4xf32>) -> tensor<4xf32> {
  %1 = tp.sum %x {dims = array<i64: 0>} : tensor<3000x4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Over strided rows (a slice of wider ones) it does not vectorize: the
// scalar loop of each column adds in the same blocks in vector code (class
// 2 there), and in the interpreter's order under vector-width=1.
// CHECK-PIECES-LABEL: func.func @narrow_column_sum(
// CHECK-PIECES: scf.for %[[B:.*]] = %c0 to %c3000 step %c64 iter_args(%[[C:[^ ]*]] = %[[Z:[^)]*]]) -> (f32)
// CHECK-PIECES: %[[E:.*]] = affine.min #{{.*}}(%[[B]])
// CHECK-PIECES: %[[BLK:.*]] = scf.for %{{.*}} = %[[B]] to %[[E]] step %c1 iter_args(%{{.*}} = %[[Z]]) -> (f32)
// CHECK-PIECES: memref.load
// CHECK-PIECES: arith.addf %[[C]], %[[BLK]] : f32
// CHECK-SCALAR-LABEL: func.func @narrow_column_sum(
// CHECK-SCALAR-NOT: affine.min
// CHECK-SCALAR: return
func.func @narrow_column_sum(%w: tensor<3000x8xf32>) -> tensor<4xf32> {
  %x = tp.slice %w {dim = 1 : i64, start = 0 : i64, end = 4 : i64} : tensor<3000x8xf32> -> tensor<3000x4xf32>
  %1 = tp.sum %x {dims = array<i64: 0>} : tensor<3000x4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Beyond 2^18 terms the blocks are blocked in turn: 300000 rows in 37
// blocks of 8192, each 64 blocks of 128 (the innermost ends at the least
// of the three ends), a chain of at most 37 + 64 + 128 additions.
// CHECK-PIECES-LABEL: func.func @very_long_column_sum(
// CHECK-PIECES: scf.for %[[B:.*]] = %c0 to %c300000 step %c8192 iter_args
// CHECK-PIECES: %[[E:.*]] = affine.min #{{.*}}(%[[B]])
// CHECK-PIECES: scf.for %[[B2:.*]] = %[[B]] to %[[E]] step %c128 iter_args
// CHECK-PIECES: %[[E2:.*]] = affine.min #{{.*}}(%[[B2]], %[[B]])
// CHECK-PIECES: scf.for %{{.*}} = %[[B2]] to %[[E2]] step %c1 iter_args
// CHECK-PIECES: memref.load
func.func @very_long_column_sum(%w: tensor<300000x8xf32>) -> tensor<4xf32> {
  %x = tp.slice %w {dim = 1 : i64, start = 0 : i64, end = 4 : i64} : tensor<300000x8xf32> -> tensor<300000x4xf32>
  %1 = tp.sum %x {dims = array<i64: 0>} : tensor<300000x4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A long outer reduction loop around contiguous rows: the carried
// accumulator goes through the outer loop in blocks too (2048 = 32 blocks
// of 64 planes).
// CHECK-PIECES-LABEL: func.func @long_outer_reduction(
// CHECK-PIECES: scf.for %[[B:.*]] = %c0 to %c2048 step %c64 iter_args
// CHECK-PIECES: scf.for %{{.*}} = %[[B]] to %{{.*}} step %c1 iter_args
// CHECK-PIECES: vector.reduction <add>
func.func @long_outer_reduction(%x: tensor<2048x4x32xf32>) -> tensor<4xf32> {
  %1 = tp.sum %x {dims = array<i64: 0, 2>} : tensor<2048x4x32xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A concatenation along an outer dim: each load's mask is the same for
// every lane, so it guards one unmasked vector load with a branch instead
// of masking all lanes.
// CHECK-LABEL: func.func @outer_cat(
// CHECK: scf.if %{{.*}} -> (vector<16xf32>) {
// CHECK-NEXT: vector.load %arg1
// CHECK: scf.if %{{.*}} -> (vector<16xf32>) {
// CHECK-NEXT: vector.load %arg0
// CHECK-NOT: vector.maskedload
// CHECK: vector.store
func.func @outer_cat(%x: tensor<3x40xf32>, %y: tensor<4x40xf32>) -> tensor<7x40xf32> {
  %c = tp.cat %x, %y {dim = 0 : i64} : (tensor<3x40xf32>, tensor<4x40xf32>) -> tensor<7x40xf32>
  %r = tp.neg %c : tensor<7x40xf32> -> tensor<7x40xf32>
  return %r : tensor<7x40xf32>
}

// A vector load from a splat constant (a pooling divisor) is the constant:
// LLVM folds a scalar load of a constant global, not a vector one.
// CHECK-LABEL: func.func @splat_divisor(
// CHECK: %[[X:.*]] = vector.load %arg0
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<4.000000e+00> : vector<16xf32>
// CHECK-NEXT: arith.divf %[[X]], %[[C]] : vector<16xf32>
func.func @splat_divisor(%x: tensor<8x40xf32>) -> tensor<8x40xf32> {
  %c = tp.constant dense<4.0> : tensor<40xf32>
  %r = tp.div %x, %c : tensor<8x40xf32>, tensor<40xf32> -> tensor<8x40xf32>
  return %r : tensor<8x40xf32>
}

// Nearest upsampling by 2 along the last dim: normalized loops [4, 20, 2],
// whose innermost loop of 2 reads one element twice, are merged back into
// one loop of 40 (MergeLaneLoops.h): each vector reads 8 elements and
// repeats each of them.
// CHECK-LABEL: func.func @nearest_upsample(
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK: vector.maskedload
// CHECK-NEXT: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
// CHECK: vector.store
func.func @nearest_upsample(%x: tensor<4x20xf32>) -> tensor<4x40xf32> {
  %u = tp.unsqueeze %x {dim = 2 : i64} : tensor<4x20xf32> -> tensor<4x20x1xf32>
  %e = tp.expand %u {size = array<i64: 4, 20, 2>} : tensor<4x20x1xf32> -> tensor<4x20x2xf32>
  %r = tp.reshape %e {size = array<i64: 4, 40>} : tensor<4x20x2xf32> -> tensor<4x40xf32>
  return %r : tensor<4x40xf32>
}
