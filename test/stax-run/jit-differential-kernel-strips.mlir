// Fused kernels whose nodes all loop over the kernel's outer ranges run
// their last outer loop in strips of vector-width lanes (every node per
// strip, in order; a node that cannot be vectorized loops over its lanes).
// Elementwise arithmetic and column reductions (one lane per column, each
// in the scalar order) are class 1, so the default configuration without
// approximated math is bitwise equal to the interpreter, sequential and
// on 4 threads (grain=1: every kernel parallel, a 1-d kernel in chunks).
// Sizes leave tails: 37 = 2 x 16 + 5 columns, 1000 = 62 x 16 + 8.
//
// @chain: add, multiply, negate; the intermediate is a second result.
// RUN: stax-run %s --entry=chain --random-inputs --print=hash | sed 1d > %t.chain.interp
// RUN: FileCheck %s --check-prefix=CHECK-CHAIN --input-file=%t.chain.interp
// RUN: stax-run %s --entry=chain --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.chain.jit
// RUN: diff %t.chain.interp %t.chain.jit
// RUN: stax-run %s --entry=chain --random-inputs --print=hash --jit --pipeline-options="approximate-math=false grain=1" --num-threads=4 | sed 1d > %t.chain.threads
// RUN: diff %t.chain.interp %t.chain.threads
// @columns: a column sum and a column max, fused with their consumer.
// RUN: stax-run %s --entry=columns --random-inputs --print=hash | sed 1d > %t.columns.interp
// RUN: FileCheck %s --check-prefix=CHECK-COLUMNS --input-file=%t.columns.interp
// RUN: stax-run %s --entry=columns --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.columns.jit
// RUN: diff %t.columns.interp %t.columns.jit
// RUN: stax-run %s --entry=columns --random-inputs --print=hash --jit --pipeline-options="approximate-math=false grain=1" --num-threads=4 | sed 1d > %t.columns.threads
// RUN: diff %t.columns.interp %t.columns.threads
// @mask: a comparison (an i1 result, kept scalar) between vectorized
// nodes: ReLU's backward pattern.
// RUN: stax-run %s --entry=mask --random-inputs --print=hash | sed 1d > %t.mask.interp
// RUN: FileCheck %s --check-prefix=CHECK-MASK --input-file=%t.mask.interp
// RUN: stax-run %s --entry=mask --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.mask.jit
// RUN: diff %t.mask.interp %t.mask.jit
// RUN: stax-run %s --entry=mask --random-inputs --print=hash --jit --pipeline-options="approximate-math=false grain=1" --num-threads=4 | sed 1d > %t.mask.threads
// RUN: diff %t.mask.interp %t.mask.threads
// @flat: a 1-d kernel (parallel in chunks that are whole strips).
// RUN: stax-run %s --entry=flat --random-inputs --print=hash | sed 1d > %t.flat.interp
// RUN: FileCheck %s --check-prefix=CHECK-FLAT --input-file=%t.flat.interp
// RUN: stax-run %s --entry=flat --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.flat.jit
// RUN: diff %t.flat.interp %t.flat.jit
// RUN: stax-run %s --entry=flat --random-inputs --print=hash --jit --pipeline-options="approximate-math=false grain=1" --num-threads=4 | sed 1d > %t.flat.threads
// RUN: diff %t.flat.interp %t.flat.threads

// CHECK-CHAIN: result #0: tensor<7x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CHAIN-NEXT: result #1: tensor<7x37xf32> fnv1a64=0x{{[0-9a-f]+}}
func.func @chain(%x: tensor<7x37xf32>, %b: tensor<37xf32>) -> (tensor<7x37xf32>, tensor<7x37xf32>) {
  %0 = tp.add %x, %b : tensor<7x37xf32>, tensor<37xf32> -> tensor<7x37xf32>
  %1 = tp.mul %0, %0 : tensor<7x37xf32>, tensor<7x37xf32> -> tensor<7x37xf32>
  %2 = tp.neg %1 : tensor<7x37xf32> -> tensor<7x37xf32>
  return %0, %2 : tensor<7x37xf32>, tensor<7x37xf32>
}

// CHECK-COLUMNS: result #0: tensor<37xf32> fnv1a64=0x{{[0-9a-f]+}}
func.func @columns(%x: tensor<9x37xf32>, %b: tensor<37xf32>) -> tensor<37xf32> {
  %0 = tp.mul %x, %x : tensor<9x37xf32>, tensor<9x37xf32> -> tensor<9x37xf32>
  %1 = tp.sum %0 {dims = array<i64: 0>} : tensor<9x37xf32> -> tensor<37xf32>
  %2 = tp.mul %1, %b : tensor<37xf32>, tensor<37xf32> -> tensor<37xf32>
  %3 = tp.amax %x {dims = array<i64: 0>} : tensor<9x37xf32> -> tensor<37xf32>
  %4 = tp.add %2, %3 : tensor<37xf32>, tensor<37xf32> -> tensor<37xf32>
  return %4 : tensor<37xf32>
}

// CHECK-MASK: result #0: tensor<5x37xi1> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-MASK-NEXT: result #1: tensor<5x37xf32> fnv1a64=0x{{[0-9a-f]+}}
func.func @mask(%x: tensor<5x37xf32>, %g: tensor<5x37xf32>) -> (tensor<5x37xi1>, tensor<5x37xf32>) {
  %z = tp.constant dense<0.0> : tensor<f32>
  %0 = tp.mul %x, %g : tensor<5x37xf32>, tensor<5x37xf32> -> tensor<5x37xf32>
  %1 = tp.gt %x, %z : tensor<5x37xf32>, tensor<f32> -> tensor<5x37xi1>
  %2 = tp.where %1, %0, %z : (tensor<5x37xi1>, tensor<5x37xf32>, tensor<f32>) -> tensor<5x37xf32>
  %3 = tp.sub %2, %x : tensor<5x37xf32>, tensor<5x37xf32> -> tensor<5x37xf32>
  return %1, %3 : tensor<5x37xi1>, tensor<5x37xf32>
}

// CHECK-FLAT: result #0: tensor<1000xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-FLAT-NEXT: result #1: tensor<1000xf32> fnv1a64=0x{{[0-9a-f]+}}
func.func @flat(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %0 = tp.sub %x, %y : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  %1 = tp.mul %0, %x : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  %2 = tp.div %1, %y : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  return %1, %2 : tensor<1000xf32>, tensor<1000xf32>
}
