// Bodies with data-dependent indices that vary along the vector lane are
// vectorized: the indices of 16 lanes are checked at once and the reads
// are one gather, and the arithmetic around them runs 16 lanes wide. The
// values are bitwise the interpreter's (class 1), with 16 lanes and with
// the scalar loop; on 4 threads too. Indices in [-300, 300) exercise the
// negative wrap of tp.index; a gather's own indices are in [0, 300).
// RUN: stax-run %s --entry=gather_math --random-inputs --int-high=300 --print=hash | sed 1d > %t.g.interp
// RUN: FileCheck %s --check-prefix=CHECK-G --input-file=%t.g.interp
// RUN: stax-run %s --entry=gather_math --random-inputs --int-high=300 --print=hash --jit | sed 1d > %t.g.jit
// RUN: diff %t.g.interp %t.g.jit
// RUN: stax-run %s --entry=gather_math --random-inputs --int-high=300 --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.g.scalar
// RUN: diff %t.g.interp %t.g.scalar
// RUN: stax-run %s --entry=index_wrap --random-inputs --int-low=-300 --int-high=300 --print=hash | sed 1d > %t.w.interp
// RUN: FileCheck %s --check-prefix=CHECK-W --input-file=%t.w.interp
// RUN: stax-run %s --entry=index_wrap --random-inputs --int-low=-300 --int-high=300 --print=hash --jit --num-threads=4 --pipeline-options="grain=1" | sed 1d > %t.w.jit
// RUN: diff %t.w.interp %t.w.jit
// RUN: stax-run %s --entry=pool_pad --random-inputs --print=hash | sed 1d > %t.p.interp
// RUN: FileCheck %s --check-prefix=CHECK-P --input-file=%t.p.interp
// RUN: stax-run %s --entry=pool_pad --random-inputs --print=hash --jit | sed 1d > %t.p.jit
// RUN: diff %t.p.interp %t.p.jit
// RUN: stax-opt %s --stax-pipeline="target=cpu vector-width=16" -mlir-print-ir-after=stax-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-IR

// CHECK-G: result #0: tensor<64x300xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-G-NOT: result
// CHECK-IR-LABEL: func.func @gather_math
// CHECK-IR: vector.reduction <or>
// CHECK-IR: vector.gather
// CHECK-IR: math.sqrt {{.*}} : vector<16xf32>
func.func @gather_math(%x: tensor<64x300xf32>, %i: tensor<64x300xi64>) -> tensor<64x300xf32> {
  %g = tp.gather %x, %i {dim = 1 : i64} : (tensor<64x300xf32>, tensor<64x300xi64>) -> tensor<64x300xf32>
  %a = tp.abs %g : tensor<64x300xf32> -> tensor<64x300xf32>
  %s = tp.sqrt %a : tensor<64x300xf32> -> tensor<64x300xf32>
  %m = tp.mul.Scalar %g {other = 3.0 : f64} : tensor<64x300xf32> -> tensor<64x300xf32>
  %r = tp.add %m, %s : tensor<64x300xf32>, tensor<64x300xf32> -> tensor<64x300xf32>
  return %r : tensor<64x300xf32>
}

// CHECK-W: result #0: tensor<1000xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-W-NOT: result
// CHECK-IR-LABEL: func.func @index_wrap
// CHECK-IR: arith.cmpi slt, {{.*}} : vector<16xi64>
// CHECK-IR: vector.gather
func.func @index_wrap(%x: tensor<300xf32>, %i: tensor<1000xi64>) -> tensor<1000xf32> {
  %0 = tp.index %x[%i] {dims = array<i64: 0>} : (tensor<300xf32>, tensor<1000xi64>) -> tensor<1000xf32>
  %1 = tp.mul %0, %0 : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  return %1 : tensor<1000xf32>
}

// A 2x2 max pool's values (read back at the argmax's position) padded by
// one on each side: the gather's lanes are masked where the padding is.
// CHECK-P: result #0: tensor<4x3x34x34xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-P-NOT: result
// CHECK-IR-LABEL: func.func @pool_pad
// CHECK-IR: vector.gather
func.func @pool_pad(%x: tensor<4x3x64x64xf32>) -> tensor<4x3x34x34xf32> {
  %w = tp.as_strided %x {size = array<i64: 4, 3, 2, 2, 32, 32>, stride = array<i64: 12288, 4096, 64, 1, 128, 2>} : tensor<4x3x64x64xf32> -> tensor<4x3x2x2x32x32xf32>
  %c = tp.clone %w : tensor<4x3x2x2x32x32xf32> -> tensor<4x3x2x2x32x32xf32>
  %v = tp._unsafe_view %c {size = array<i64: 4, 3, 4, 32, 32>} : tensor<4x3x2x2x32x32xf32> -> tensor<4x3x4x32x32xf32>
  %values, %indices = tp.max.dim %v {dim = 2 : i64, keepdim = true} : tensor<4x3x4x32x32xf32> -> tensor<4x3x1x32x32xf32>, tensor<4x3x1x32x32xi64>
  %s = tp.squeeze %values {dims = array<i64: 2>} : tensor<4x3x1x32x32xf32> -> tensor<4x3x32x32xf32>
  %r = tp.relu %s : tensor<4x3x32x32xf32> -> tensor<4x3x32x32xf32>
  %z = tp.full {value = 0.000000e+00 : f64} : tensor<4x3x32x1xf32>
  %h = tp.cat %z, %r, %z {dim = 3 : i64} : (tensor<4x3x32x1xf32>, tensor<4x3x32x32xf32>, tensor<4x3x32x1xf32>) -> tensor<4x3x32x34xf32>
  %z2 = tp.full {value = 0.000000e+00 : f64} : tensor<4x3x1x34xf32>
  %p = tp.cat %z2, %h, %z2 {dim = 2 : i64} : (tensor<4x3x1x34xf32>, tensor<4x3x32x34xf32>, tensor<4x3x1x34xf32>) -> tensor<4x3x34x34xf32>
  return %p : tensor<4x3x34x34xf32>
}

// A whole-tensor sum of rows gathered by index (an embedding's sum): the
// reduction is vectorized along the rows (100 = 6 vectors + a scalar tail
// of 4) with the indirect index uniform per row; the tail evaluates the
// body as the scalar loop does (checked indirect index included). Integers
// sum exactly in any order, so the values are the interpreter's.
// RUN: stax-run %s --entry=rows_sum --random-inputs --int-high=33 --print=hash | sed 1d > %t.r.interp
// RUN: FileCheck %s --check-prefix=CHECK-R --input-file=%t.r.interp
// RUN: stax-run %s --entry=rows_sum --random-inputs --int-high=33 --print=hash --jit | sed 1d > %t.r.jit
// RUN: diff %t.r.interp %t.r.jit
// CHECK-R: result #0: tensor<i64> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-R-NOT: result
// CHECK-IR-LABEL: func.func @rows_sum
// CHECK-IR: vector.reduction <add>
// CHECK-IR-NOT: stax.indirect_index
// CHECK-IR: return
func.func @rows_sum(%x: tensor<33x100xi64>, %i: tensor<20x8xi64>) -> tensor<i64> {
  %e = tp.index %x[%i] {dims = array<i64: 0>} : (tensor<33x100xi64>, tensor<20x8xi64>) -> tensor<20x8x100xi64>
  %s = tp.sum %e {dims = array<i64>} : tensor<20x8x100xi64> -> tensor<i64>
  return %s : tensor<i64>
}
