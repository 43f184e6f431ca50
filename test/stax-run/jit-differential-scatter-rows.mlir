// Scatters of whole rows (index_put / index_add along dim 0: embedding
// backward) write consecutive elements along their last loop, so their
// compiled code scatters a vector of 16 lanes at a time, still in the
// lexicographic order of the rows (and, when large, in parallel chunks of
// columns); a row gathered by a uniform index
// (x[idx] along dim 0, embedding) is read with vector loads. Values
// are only moved and added in the interpreter's order: every configuration
// is bitwise equal to the interpreter (class 1), repeated indices included
// (int range [-50, 50) for 50 rows: negatives wrap, many repeats).
// RUN: stax-run %s --entry=rows --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.rows.interp
// RUN: FileCheck %s --check-prefix=CHECK-ROWS --input-file=%t.rows.interp
// RUN: stax-run %s --entry=rows --random-inputs --int-low=-50 --int-high=50 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.rows.scalar
// RUN: diff %t.rows.interp %t.rows.scalar
// RUN: stax-run %s --entry=rows --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.rows.default
// RUN: diff %t.rows.interp %t.rows.default
// RUN: stax-run %s --entry=rows --random-inputs --int-low=-50 --int-high=50 --print=hash --jit --pipeline-options="grain=1 call-grain=0 vector-width=8" --num-threads=4 | sed 1d > %t.rows.threads
// RUN: diff %t.rows.interp %t.rows.threads
//
// The vector code: a vector.store per 16 lanes of a row (after a
// vector.load of the old values when accumulating), a scalar tail for the
// last 37 mod 16 = 5 columns, and the rows gathered with vector loads.
// RUN: stax-opt %s --stax-lowering-pipeline --stax-to-loops="vector-width=16" | FileCheck %s --check-prefix=CHECK-IR
// CHECK-IR-LABEL: func.func @rows(
// CHECK-IR: vector.load %{{.*}} : memref<1850xf32>, vector<16xf32>
// CHECK-IR: arith.addf %{{.*}} : vector<16xf32>
// CHECK-IR: vector.store %{{.*}} : memref<1850xf32>, vector<16xf32>
// CHECK-IR: memref.store %{{.*}} : memref<1850xf32>
//
// With grain=1 the columns are cut into parallel chunks (here 5 of 8
// lanes), each running every row in order: rows are multiples of 37
// elements apart, so no two chunks write one element (the threads run
// above is bitwise equal).
// RUN: stax-opt %s --stax-lowering-pipeline --stax-to-loops="vector-width=8 grain=1 call-grain=0" | FileCheck %s --check-prefix=CHECK-PAR
// CHECK-PAR-LABEL: func.func @rows(
// CHECK-PAR: %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-PAR: scf.parallel (%[[CHUNK:.*]]) = (%{{.*}}) to (%[[FIVE]])
// CHECK-PAR: scf.for %{{.*}} = %{{.*}} to %c40
// CHECK-PAR: vector.store %{{.*}} : memref<1850xf32>, vector<8xf32>
//
// An index out of range is reported with the same message as by the
// scalar code (the row's indirect index checks it once per vector).
// RUN: not stax-run %s --entry=rows --random-inputs --int-low=0 --int-high=80 --jit 2>&1 | FileCheck %s --check-prefix=CHECK-BAD
// RUN: not stax-run %s --entry=rows --random-inputs --int-low=0 --int-high=80 --jit --pipeline-options="vector-width=1" 2>&1 | FileCheck %s --check-prefix=CHECK-BAD
// CHECK-BAD: stax-run: run-time error: index {{[5-7][0-9]}} is out of bounds for a dimension of size 50 in stax.indirect_index at loc("{{.*}}jit-differential-scatter-rows.mlir":{{[0-9]+}}:{{[0-9]+}})

// CHECK-ROWS: result #0: tensor<50x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ROWS-NEXT: result #1: tensor<50x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ROWS-NEXT: result #2: tensor<50x37xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ROWS-NEXT: result #3: tensor<40x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ROWS-NOT: result
func.func @rows(%x: tensor<50x37xf32>, %i: tensor<40xi64>, %v: tensor<40x37xf32>, %n: tensor<50x37xi32>, %w: tensor<40x37xi32>) -> (tensor<50x37xf32>, tensor<50x37xf32>, tensor<50x37xi32>, tensor<40x37xf32>) {
  %0 = tp.index_put %x[%i], %v {dims = array<i64: 0>, accumulate = true} : (tensor<50x37xf32>, tensor<40xi64>, tensor<40x37xf32>) -> tensor<50x37xf32>
  %1 = tp.index_put %x[%i], %v {dims = array<i64: 0>} : (tensor<50x37xf32>, tensor<40xi64>, tensor<40x37xf32>) -> tensor<50x37xf32>
  %2 = tp.index_put %n[%i], %w {dims = array<i64: 0>, accumulate = true} : (tensor<50x37xi32>, tensor<40xi64>, tensor<40x37xi32>) -> tensor<50x37xi32>
  %3 = tp.index %x[%i] {dims = array<i64: 0>} : (tensor<50x37xf32>, tensor<40xi64>) -> tensor<40x37xf32>
  %4 = tp.neg %0 : tensor<50x37xf32> -> tensor<50x37xf32>
  return %4, %1, %2, %3 : tensor<50x37xf32>, tensor<50x37xf32>, tensor<50x37xi32>, tensor<40x37xf32>
}

// scatter_add / scatter along dim 0 of a 2-D index: each element has its
// own row (idx[i][j]), so the lanes do not write consecutive elements and
// the code stays scalar; but the address is row * 37 + j, so columns are
// still disjoint and with grain=1 run in parallel chunks, every row in
// order (many repeated rows: indices in [0, 3)). Bitwise equal.
// RUN: stax-run %s --entry=dim0 --random-inputs --int-low=0 --int-high=3 --print=hash | sed 1d > %t.dim0.interp
// RUN: stax-run %s --entry=dim0 --random-inputs --int-low=0 --int-high=3 --print=hash --jit | sed 1d > %t.dim0.default
// RUN: diff %t.dim0.interp %t.dim0.default
// RUN: stax-run %s --entry=dim0 --random-inputs --int-low=0 --int-high=3 --print=hash --jit --pipeline-options="grain=1 call-grain=0" --num-threads=4 | sed 1d > %t.dim0.threads
// RUN: diff %t.dim0.interp %t.dim0.threads
// RUN: stax-opt %s --stax-lowering-pipeline --stax-to-loops="grain=1 call-grain=0" | FileCheck %s --check-prefix=CHECK-DIM0
// CHECK-DIM0-LABEL: func.func @dim0(
// CHECK-DIM0: scf.parallel
// CHECK-DIM0: scf.for %{{.*}} = %{{.*}} to %c40
// CHECK-DIM0: memref.load %{{.*}} : memref<1480xi64>
// CHECK-DIM0: arith.addf %{{.*}} : f32
// CHECK-DIM0: scf.parallel
// CHECK-DIM0: memref.store %{{.*}} : memref<150xf32>
// A scatter along dim 1 has no disjoint columns: one sequential loop nest.
// CHECK-DIM0-LABEL: func.func @dim1(
// CHECK-DIM0-NOT: scf.parallel
// CHECK-DIM0: return
func.func @dim0(%x: tensor<3x37xf32>, %i: tensor<40x37xi64>, %v: tensor<40x37xf32>, %y: tensor<3x50xf32>, %j: tensor<40x50xi64>, %u: tensor<40x50xf32>) -> (tensor<3x37xf32>, tensor<3x50xf32>) {
  %0 = tp.scatter_add %x, %i, %v {dim = 0 : i64} : (tensor<3x37xf32>, tensor<40x37xi64>, tensor<40x37xf32>) -> tensor<3x37xf32>
  %1 = tp.scatter %y, %j, %u {dim = 0 : i64} : (tensor<3x50xf32>, tensor<40x50xi64>, tensor<40x50xf32>) -> tensor<3x50xf32>
  return %0, %1 : tensor<3x37xf32>, tensor<3x50xf32>
}

func.func @dim1(%x: tensor<37x3xf32>, %i: tensor<37x40xi64>, %v: tensor<37x40xf32>) -> tensor<37x3xf32> {
  %0 = tp.scatter_add %x, %i, %v {dim = 1 : i64} : (tensor<37x3xf32>, tensor<37x40xi64>, tensor<37x40xf32>) -> tensor<37x3xf32>
  return %0 : tensor<37x3xf32>
}

// An empty index scatters nothing (and has no columns to split).
// RUN: stax-run %s --entry=empty_dim0 --random-inputs --print=hash | sed 1d > %t.empty.interp
// RUN: stax-run %s --entry=empty_dim0 --random-inputs --print=hash --jit --pipeline-options="grain=1 call-grain=0" | sed 1d > %t.empty.jit
// RUN: diff %t.empty.interp %t.empty.jit
func.func @empty_dim0(%x: tensor<3x5xf32>, %i: tensor<2x0xi64>, %v: tensor<2x0xf32>) -> tensor<3x5xf32> {
  %0 = tp.scatter_add %x, %i, %v {dim = 0 : i64} : (tensor<3x5xf32>, tensor<2x0xi64>, tensor<2x0xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
