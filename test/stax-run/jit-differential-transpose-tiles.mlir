// Pointwise nodes that read a transposed buffer run their last two loops in
// tiles (TransposeTiles.h); the order of independent elements does not
// change any of them, so the compiled results are bitwise the interpreter's:
// vectorized, scalar, and on 4 threads (grain=1: the row tiles in
// parallel). 37 x 53 and 70 x 45 leave partial tiles at both edges; the
// batched case transposes the last two of three dims.
// RUN: stax-run %s --entry=add --random-inputs --print=hash | sed 1d > %t.add.interp
// RUN: FileCheck %s --check-prefix=CHECK-ADD --input-file=%t.add.interp
// RUN: stax-run %s --entry=add --random-inputs --print=hash --jit | sed 1d > %t.add.jit
// RUN: diff %t.add.interp %t.add.jit
// RUN: stax-run %s --entry=add --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.add.scalar
// RUN: diff %t.add.interp %t.add.scalar
// RUN: stax-run %s --entry=add --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.add.threads
// RUN: diff %t.add.interp %t.add.threads
// RUN: stax-run %s --entry=batched --random-inputs --int-low=-1000 --int-high=1000 --print=hash | sed 1d > %t.batched.interp
// RUN: FileCheck %s --check-prefix=CHECK-BATCHED --input-file=%t.batched.interp
// RUN: stax-run %s --entry=batched --random-inputs --int-low=-1000 --int-high=1000 --print=hash --jit | sed 1d > %t.batched.jit
// RUN: diff %t.batched.interp %t.batched.jit
// RUN: stax-run %s --entry=batched --random-inputs --int-low=-1000 --int-high=1000 --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.batched.threads
// RUN: diff %t.batched.interp %t.batched.threads
// The batched node is tiled (the row tiles inside the batch loop).
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR

// CHECK-ADD: result #0: tensor<37x53xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ADD: result #1: tensor<53x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BATCHED: result #0: tensor<3x45x70xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-IR-LABEL: func.func @batched(
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %c3{{(_[0-9]+)?}} step
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %c3{{(_[0-9]+)?}} step
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %c5{{(_[0-9]+)?}} step
// CHECK-IR: arith.minsi
func.func @add(%x: tensor<53x37xf32>, %y: tensor<37x53xf32>) -> (tensor<37x53xf32>, tensor<53x37xf32>) {
  %t = tp.t %x : tensor<53x37xf32> -> tensor<37x53xf32>
  %s = tp.add %t, %y : tensor<37x53xf32>, tensor<37x53xf32> -> tensor<37x53xf32>
  %m = tp.mul %s, %s : tensor<37x53xf32>, tensor<37x53xf32> -> tensor<37x53xf32>
  %u = tp.t %m : tensor<37x53xf32> -> tensor<53x37xf32>
  %v = tp.sub %u, %x : tensor<53x37xf32>, tensor<53x37xf32> -> tensor<53x37xf32>
  return %m, %v : tensor<37x53xf32>, tensor<53x37xf32>
}

func.func @batched(%x: tensor<3x70x45xi32>) -> tensor<3x45x70xi32> {
  %t = tp.transpose %x {dim0 = 1 : i64, dim1 = 2 : i64} : tensor<3x70x45xi32> -> tensor<3x45x70xi32>
  %s = tp.add %t, %t : tensor<3x45x70xi32>, tensor<3x45x70xi32> -> tensor<3x45x70xi32>
  return %s : tensor<3x45x70xi32>
}
