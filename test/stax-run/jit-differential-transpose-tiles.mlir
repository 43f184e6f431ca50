// Pointwise nodes that read a transposed buffer run their last two loops in
// tiles (TransposeTiles.h); the order of independent elements does not
// change any of them, so the compiled results are bitwise the interpreter's:
// vectorized, scalar, and on 4 threads (grain=1: the row tiles in
// parallel). 37 x 53 and 70 x 45 leave partial tiles at both edges; the
// batched case transposes the last two of three dims. Full tiles of 32-bit
// elements are staged (a transpose in registers): @blocks has several
// blocks of tiles in both dims, partial ones at the edges, and two staged
// operands, one a slice (an offset, rows 530 apart), besides two
// contiguous ones (which keep the output's loop order).
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
// RUN: stax-run %s --entry=blocks --random-inputs --print=hash | sed 1d > %t.blocks.interp
// RUN: FileCheck %s --check-prefix=CHECK-BLOCKS --input-file=%t.blocks.interp
// RUN: stax-run %s --entry=blocks --random-inputs --print=hash --jit | sed 1d > %t.blocks.jit
// RUN: diff %t.blocks.interp %t.blocks.jit
// RUN: stax-run %s --entry=blocks --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.blocks.threads
// RUN: diff %t.blocks.interp %t.blocks.threads
// RUN: stax-run %s --entry=blocks --random-inputs --print=hash --jit --pipeline-options="vector-width=8" | sed 1d > %t.blocks.w8
// RUN: diff %t.blocks.interp %t.blocks.w8
// The batched node is tiled (the row tiles inside the batch loop).
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="call-grain=0" %s | FileCheck %s --check-prefix=CHECK-STAGED

// CHECK-ADD: result #0: tensor<37x53xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-ADD: result #1: tensor<53x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BATCHED: result #0: tensor<3x45x70xi32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-BLOCKS: result #0: tensor<520x300xf32> fnv1a64=0x{{[0-9a-f]+}}
// The batch loop, 3 row blocks, 1 column block, then the blocks' tiles,
// full ones staged.
// CHECK-IR-LABEL: func.func @batched(
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %c3{{(_[0-9]+)?}} step
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %c3{{(_[0-9]+)?}} step
// CHECK-IR: scf.for %{{.*}} = %{{.*}} to %c1{{(_[0-9]+)?}} step
// CHECK-IR: arith.minsi
// CHECK-IR: vector.transpose %{{.*}}, [1, 0] : vector<16x16xi32> to vector<16x16xi32>
// CHECK-STAGED-LABEL: func.func @blocks(
// CHECK-STAGED: scf.parallel
// CHECK-STAGED-COUNT-2: vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK-STAGED-NOT: vector.transpose
// CHECK-STAGED: return
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

func.func @blocks(%x: tensor<300x520xf32>, %w: tensor<310x530xf32>, %y: tensor<520x300xf32>, %z: tensor<520x300xf32>) -> tensor<520x300xf32> {
  %a = tp.slice %w {dim = 0 : i64, start = 5 : i64, end = 305 : i64} : tensor<310x530xf32> -> tensor<300x530xf32>
  %b = tp.slice %a {dim = 1 : i64, start = 3 : i64, end = 523 : i64} : tensor<300x530xf32> -> tensor<300x520xf32>
  %t = tp.t %x : tensor<300x520xf32> -> tensor<520x300xf32>
  %u = tp.t %b : tensor<300x520xf32> -> tensor<520x300xf32>
  %m = tp.mul %t, %u : tensor<520x300xf32>, tensor<520x300xf32> -> tensor<520x300xf32>
  %s = tp.add %m, %y : tensor<520x300xf32>, tensor<520x300xf32> -> tensor<520x300xf32>
  %r = tp.mul %s, %z : tensor<520x300xf32>, tensor<520x300xf32> -> tensor<520x300xf32>
  return %r : tensor<520x300xf32>
}
