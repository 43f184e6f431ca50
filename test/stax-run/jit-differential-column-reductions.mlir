// Column reductions (the reduced index is not the contiguous one) run 16
// outputs per vector, each lane combining its column in the scalar order,
// so the default vector code is bitwise equal to the interpreter (class 1)
// for float sums (up to 511 rows: longer ones add in blocks, class 2,
// test_compile.py), products and variances. 300 columns exercise every
// strip: 8 vectors per walk of the rows (two strips of 128 columns), single
// vectors (32 columns) and scalar columns (12); the variance keeps three
// states per lane, so its walks cover 2 vectors. @long (a max) has 64 outputs of
// 4096 rows each: the parallel chunks of its output loop hold whole vectors
// (a chunk sized by the work per output alone would be 8 columns: scalar).
// RUN: stax-run %s --entry=columns --random-inputs --print=hash | sed 1d > %t.columns.interp
// RUN: FileCheck %s --check-prefix=CHECK-COLUMNS --input-file=%t.columns.interp
// RUN: stax-run %s --entry=columns --random-inputs --print=hash --jit | sed 1d > %t.columns.default
// RUN: diff %t.columns.interp %t.columns.default
// RUN: stax-run %s --entry=columns --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.columns.threads
// RUN: diff %t.columns.interp %t.columns.threads
// RUN: stax-run %s --entry=columns --random-inputs --print=hash --jit --pipeline-options="vector-width=8" | sed 1d > %t.columns.w8
// RUN: diff %t.columns.interp %t.columns.w8
// RUN: stax-run %s --entry=long --random-inputs --print=hash | sed 1d > %t.long.interp
// RUN: FileCheck %s --check-prefix=CHECK-LONG --input-file=%t.long.interp
// RUN: stax-run %s --entry=long --random-inputs --print=hash --jit --num-threads=4 | sed 1d > %t.long.default
// RUN: diff %t.long.interp %t.long.default
// RUN: stax-opt %s --stax-pipeline="target=cpu vector-width=16" -mlir-print-ir-after=stax-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-IR

// CHECK-COLUMNS: result #0: tensor<300xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-COLUMNS-NEXT: result #1: tensor<300xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-COLUMNS-NEXT: result #2: tensor<300xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-COLUMNS-NEXT: result #3: tensor<300xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-COLUMNS-NEXT: result #4: tensor<300xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-COLUMNS-NOT: result
func.func @columns(%x: tensor<37x300xf32>, %b: tensor<37x1xf32>, %i: tensor<37x300xi32>) -> (tensor<300xf32>, tensor<300xf32>, tensor<300xf32>, tensor<300xf32>, tensor<300xi32>) {
  %0 = tp.mul %x, %b : tensor<37x300xf32>, tensor<37x1xf32> -> tensor<37x300xf32>
  %1 = tp.sum %0 {dims = array<i64: 0>} : tensor<37x300xf32> -> tensor<300xf32>
  %2 = tp.prod %x {dims = array<i64: 0>} : tensor<37x300xf32> -> tensor<300xf32>
  %3 = tp.amax %x {dims = array<i64: 0>} : tensor<37x300xf32> -> tensor<300xf32>
  %4 = tp.var %x {dims = array<i64: 0>, correction = 1.0 : f64} : tensor<37x300xf32> -> tensor<300xf32>
  %5 = tp.amin %i {dims = array<i64: 0>} : tensor<37x300xi32> -> tensor<300xi32>
  return %1, %2, %3, %4, %5 : tensor<300xf32>, tensor<300xf32>, tensor<300xf32>, tensor<300xf32>, tensor<300xi32>
}

// CHECK-LONG: result #0: tensor<64xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-LONG-NOT: result
func.func @long(%x: tensor<4096x64xf32>) -> tensor<64xf32> {
  %0 = tp.amax %x {dims = array<i64: 0>} : tensor<4096x64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// The walk of 8 vectors: eight vector<16xi32> accumulators through the
// rows for amin, then one vector at a time (the float reductions share a
// kernel with the variance's mean: 16 columns per chunk). @long's output
// loop runs in parallel chunks of 16 columns.
// CHECK-IR-LABEL: func.func @columns
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128 {
// CHECK-IR: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK-IR-LABEL: func.func @long
// CHECK-IR: scf.parallel
// CHECK-IR: arith.muli %{{.*}}, %c16
// CHECK-IR: scf.for {{.*}} -> (vector<16xf32>) {
