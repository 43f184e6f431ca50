// Differential tests of the compiled code against the interpreter on random
// inputs: reductions and results. The scalar code (vector-width=1) combines
// everything in the interpreter's order and has no transcendental function
// here, so it is bitwise equal (class 1), sequential or on threads (grain=1:
// every node parallel). Where vectorization only moves data, compares or works
// on integers, the default configuration is bitwise equal too; vectorized
// float sums, products and variances are class 2 and run in scalar form only.
//
// @results: four results: a node written into its output and read back, a
// reduction, an argument copied out, and the first result again (copied).
// RUN: stax-run %s --entry=results --random-inputs --print=hash | sed 1d > %t.results.interp
// RUN: FileCheck %s --check-prefix=CHECK-RESULTS --input-file=%t.results.interp
// RUN: stax-run %s --entry=results --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.results.scalar
// RUN: diff %t.results.interp %t.results.scalar
// RUN: stax-run %s --entry=results --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.results.threads
// RUN: diff %t.results.interp %t.results.threads
// @reductions: max, min, argmax, argmin, prod, mean and a full sum over each
// dimension of a 3-d tensor.
// RUN: stax-run %s --entry=reductions --random-inputs --print=hash | sed 1d > %t.reductions.interp
// RUN: FileCheck %s --check-prefix=CHECK-REDUCTIONS --input-file=%t.reductions.interp
// RUN: stax-run %s --entry=reductions --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.reductions.scalar
// RUN: diff %t.reductions.interp %t.reductions.scalar
// RUN: stax-run %s --entry=reductions --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.reductions.threads
// RUN: diff %t.reductions.interp %t.reductions.threads
// @var: two-pass variance over either dimension.
// RUN: stax-run %s --entry=var --random-inputs --print=hash | sed 1d > %t.var.interp
// RUN: FileCheck %s --check-prefix=CHECK-VAR --input-file=%t.var.interp
// RUN: stax-run %s --entry=var --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.var.scalar
// RUN: diff %t.var.interp %t.var.scalar
// RUN: stax-run %s --entry=var --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.var.threads
// RUN: diff %t.var.interp %t.var.threads
// @maxdim: max.dim: the value and its position.
// RUN: stax-run %s --entry=maxdim --random-inputs --print=hash | sed 1d > %t.maxdim.interp
// RUN: FileCheck %s --check-prefix=CHECK-MAXDIM --input-file=%t.maxdim.interp
// RUN: stax-run %s --entry=maxdim --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.maxdim.scalar
// RUN: diff %t.maxdim.interp %t.maxdim.scalar
// RUN: stax-run %s --entry=maxdim --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.maxdim.threads
// RUN: diff %t.maxdim.interp %t.maxdim.threads
// RUN: stax-run %s --entry=maxdim --random-inputs --print=hash --jit | sed 1d > %t.maxdim.default
// RUN: diff %t.maxdim.interp %t.maxdim.default
// @ints: i64 and i32 sums, products, extremes and argmin (integer: vectorized
// code is exact too).
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-1000 --int-high=1000 --print=hash | sed 1d > %t.ints.interp
// RUN: FileCheck %s --check-prefix=CHECK-INTS --input-file=%t.ints.interp
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-1000 --int-high=1000 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.ints.scalar
// RUN: diff %t.ints.interp %t.ints.scalar
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-1000 --int-high=1000 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.ints.threads
// RUN: diff %t.ints.interp %t.ints.threads
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-1000 --int-high=1000 --print=hash --jit | sed 1d > %t.ints.default
// RUN: diff %t.ints.interp %t.ints.default
// @bools: comparisons into i1 (stored one byte each), any/all, where.
// RUN: stax-run %s --entry=bools --random-inputs --print=hash | sed 1d > %t.bools.interp
// RUN: FileCheck %s --check-prefix=CHECK-BOOLS --input-file=%t.bools.interp
// RUN: stax-run %s --entry=bools --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.bools.scalar
// RUN: diff %t.bools.interp %t.bools.scalar
// RUN: stax-run %s --entry=bools --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.bools.threads
// RUN: diff %t.bools.interp %t.bools.threads
// RUN: stax-run %s --entry=bools --random-inputs --print=hash --jit | sed 1d > %t.bools.default
// RUN: diff %t.bools.interp %t.bools.default
// @boolsum: i1 arguments and values read, summed and converted.
// RUN: stax-run %s --entry=boolsum --random-inputs --print=hash | sed 1d > %t.boolsum.interp
// RUN: FileCheck %s --check-prefix=CHECK-BOOLSUM --input-file=%t.boolsum.interp
// RUN: stax-run %s --entry=boolsum --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.boolsum.scalar
// RUN: diff %t.boolsum.interp %t.boolsum.scalar
// RUN: stax-run %s --entry=boolsum --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.boolsum.threads
// RUN: diff %t.boolsum.interp %t.boolsum.threads
// RUN: stax-run %s --entry=boolsum --random-inputs --print=hash --jit | sed 1d > %t.boolsum.default
// RUN: diff %t.boolsum.interp %t.boolsum.default
// @f64: f64 arithmetic and a sum.
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash | sed 1d > %t.f64.interp
// RUN: FileCheck %s --check-prefix=CHECK-F64 --input-file=%t.f64.interp
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.f64.scalar
// RUN: diff %t.f64.interp %t.f64.scalar
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.f64.threads
// RUN: diff %t.f64.interp %t.f64.threads

// CHECK-RESULTS: result #0: tensor<37x53xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-RESULTS-NEXT: result #1: tensor<37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-RESULTS-NEXT: result #2: tensor<53xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-RESULTS-NEXT: result #3: tensor<37x53xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-RESULTS-NOT: result
func.func @results(%x: tensor<37x53xf32>, %y: tensor<53xf32>) -> (tensor<37x53xf32>, tensor<37xf32>, tensor<53xf32>, tensor<37x53xf32>) {
  %0 = tp.add %x, %y : tensor<37x53xf32>, tensor<53xf32> -> tensor<37x53xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<37x53xf32> -> tensor<37xf32>
  return %0, %1, %y, %0 : tensor<37x53xf32>, tensor<37xf32>, tensor<53xf32>, tensor<37x53xf32>
}

// CHECK-REDUCTIONS: result #0: tensor<33x17xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NEXT: result #1: tensor<21x17xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NEXT: result #2: tensor<33x21xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NEXT: result #3: tensor<33x17xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NEXT: result #4: tensor<33x17xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NEXT: result #5: tensor<33x21xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NEXT: result #6: tensor<f32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-REDUCTIONS-NOT: result
func.func @reductions(%x: tensor<33x21x17xf32>) -> (tensor<33x17xf32>, tensor<21x17xf32>, tensor<33x21xi64>, tensor<33x17xi64>, tensor<33x17xf32>, tensor<33x21xf32>, tensor<f32>) {
  %0 = tp.amax %x {dims = array<i64: 1>} : tensor<33x21x17xf32> -> tensor<33x17xf32>
  %1 = tp.amin %x {dims = array<i64: 0>} : tensor<33x21x17xf32> -> tensor<21x17xf32>
  %2 = tp.argmax %x {dim = 2 : i64} : tensor<33x21x17xf32> -> tensor<33x21xi64>
  %3 = tp.argmin %x {dim = 1 : i64} : tensor<33x21x17xf32> -> tensor<33x17xi64>
  %4 = tp.prod %x {dims = array<i64: 1>} : tensor<33x21x17xf32> -> tensor<33x17xf32>
  %5 = tp.mean %x {dims = array<i64: 2>} : tensor<33x21x17xf32> -> tensor<33x21xf32>
  %6 = tp.sum %x {dims = array<i64>} : tensor<33x21x17xf32> -> tensor<f32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<33x17xf32>, tensor<21x17xf32>, tensor<33x21xi64>, tensor<33x17xi64>, tensor<33x17xf32>, tensor<33x21xf32>, tensor<f32>
}

// CHECK-VAR: result #0: tensor<40xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VAR-NEXT: result #1: tensor<100xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VAR-NOT: result
func.func @var(%x: tensor<40x100xf32>) -> (tensor<40xf32>, tensor<100xf32>) {
  %0 = tp.var %x {dims = array<i64: 1>, correction = 1.0 : f64} : tensor<40x100xf32> -> tensor<40xf32>
  %1 = tp.var %x {dims = array<i64: 0>, correction = 0.0 : f64} : tensor<40x100xf32> -> tensor<100xf32>
  return %0, %1 : tensor<40xf32>, tensor<100xf32>
}

// CHECK-MAXDIM: result #0: tensor<50xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-MAXDIM-NEXT: result #1: tensor<50xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-MAXDIM-NOT: result
func.func @maxdim(%x: tensor<30x50xf32>) -> (tensor<50xf32>, tensor<50xi64>) {
  %0:2 = tp.max.dim %x {dim = 0 : i64} : tensor<30x50xf32> -> tensor<50xf32>, tensor<50xi64>
  return %0#0, %0#1 : tensor<50xf32>, tensor<50xi64>
}

// CHECK-INTS: result #0: tensor<30xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INTS-NEXT: result #1: tensor<50xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INTS-NEXT: result #2: tensor<30x50xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INTS-NEXT: result #3: tensor<30xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INTS-NEXT: result #4: tensor<50xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INTS-NOT: result
func.func @ints(%a: tensor<30x50xi64>, %b: tensor<30x50xi32>) -> (tensor<30xi64>, tensor<50xi32>, tensor<30x50xi64>, tensor<30xi64>, tensor<50xi32>) {
  %0 = tp.sum %a {dims = array<i64: 1>} : tensor<30x50xi64> -> tensor<30xi64>
  %1 = tp.amax %b {dims = array<i64: 0>} : tensor<30x50xi32> -> tensor<50xi32>
  %2 = tp.mul %a, %a : tensor<30x50xi64>, tensor<30x50xi64> -> tensor<30x50xi64>
  %3 = tp.argmin %a {dim = 1 : i64} : tensor<30x50xi64> -> tensor<30xi64>
  %4 = tp.amin %b {dims = array<i64: 0>} : tensor<30x50xi32> -> tensor<50xi32>
  return %0, %1, %2, %3, %4 : tensor<30xi64>, tensor<50xi32>, tensor<30x50xi64>, tensor<30xi64>, tensor<50xi32>
}

// CHECK-BOOLS: result #0: tensor<30x50xi1> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLS-NEXT: result #1: tensor<30xi1> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLS-NEXT: result #2: tensor<50xi1> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLS-NEXT: result #3: tensor<30x50xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLS-NOT: result
func.func @bools(%x: tensor<30x50xf32>, %y: tensor<30x50xf32>) -> (tensor<30x50xi1>, tensor<30xi1>, tensor<50xi1>, tensor<30x50xf32>) {
  %0 = tp.lt %x, %y : tensor<30x50xf32>, tensor<30x50xf32> -> tensor<30x50xi1>
  %1 = tp.any %0 {dims = array<i64: 1>} : tensor<30x50xi1> -> tensor<30xi1>
  %2 = tp.all %0 {dims = array<i64: 0>} : tensor<30x50xi1> -> tensor<50xi1>
  %3 = tp.where %0, %x, %y : (tensor<30x50xi1>, tensor<30x50xf32>, tensor<30x50xf32>) -> tensor<30x50xf32>
  return %0, %1, %2, %3 : tensor<30x50xi1>, tensor<30xi1>, tensor<50xi1>, tensor<30x50xf32>
}

// CHECK-BOOLSUM: result #0: tensor<30xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLSUM-NEXT: result #1: tensor<50xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLSUM-NEXT: result #2: tensor<30x50xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLSUM-NEXT: result #3: tensor<30x50xi64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BOOLSUM-NOT: result
func.func @boolsum(%x: tensor<30x50xf32>, %b: tensor<30x50xi1>) -> (tensor<30xi64>, tensor<50xi64>, tensor<30x50xf32>, tensor<30x50xi64>) {
  %c = tp.gt.Scalar %x {other = 0 : i64} : tensor<30x50xf32> -> tensor<30x50xi1>
  %0 = tp.sum %c {dims = array<i64: 1>} : tensor<30x50xi1> -> tensor<30xi64>
  %1 = tp.sum %b {dims = array<i64: 0>} : tensor<30x50xi1> -> tensor<50xi64>
  %2 = tp._to_copy %b {dtype = f32} : tensor<30x50xi1> -> tensor<30x50xf32>
  %3 = tp._to_copy %c {dtype = i64} : tensor<30x50xi1> -> tensor<30x50xi64>
  return %0, %1, %2, %3 : tensor<30xi64>, tensor<50xi64>, tensor<30x50xf32>, tensor<30x50xi64>
}

// CHECK-F64: result #0: tensor<20x70xf64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-F64-NEXT: result #1: tensor<20xf64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-F64-NOT: result
func.func @f64(%x: tensor<20x70xf64>, %y: tensor<70xf64>) -> (tensor<20x70xf64>, tensor<20xf64>) {
  %0 = tp.mul %x, %y : tensor<20x70xf64>, tensor<70xf64> -> tensor<20x70xf64>
  %1 = tp.div %0, %x : tensor<20x70xf64>, tensor<20x70xf64> -> tensor<20x70xf64>
  %2 = tp.sum %1 {dims = array<i64: 1>} : tensor<20x70xf64> -> tensor<20xf64>
  return %1, %2 : tensor<20x70xf64>, tensor<20xf64>
}
