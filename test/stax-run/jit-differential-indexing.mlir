// Differential tests of the compiled code against the interpreter on random
// inputs: indexing, scatters and views. The scalar code (vector-width=1)
// combines everything in the interpreter's order and has no transcendental
// function here, so it is bitwise equal (class 1), sequential or on threads
// (grain=1: every node parallel). Where vectorization only moves data,
// compares or works on integers, the default configuration is bitwise equal
// too; vectorized float sums, products and variances are class 2 and run in
// scalar form only.
//
// @scatter: scatter_add (repeated addresses: lexicographic order) and scatter
// into copies of the base.
// RUN: stax-run %s --entry=scatter --random-inputs --int-high=4 --print=hash | sed 1d > %t.scatter.interp
// RUN: FileCheck %s --check-prefix=CHECK-SCATTER --input-file=%t.scatter.interp
// RUN: stax-run %s --entry=scatter --random-inputs --int-high=4 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.scatter.scalar
// RUN: diff %t.scatter.interp %t.scatter.scalar
// RUN: stax-run %s --entry=scatter --random-inputs --int-high=4 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.scatter.threads
// RUN: diff %t.scatter.interp %t.scatter.threads
// RUN: stax-run %s --entry=scatter --random-inputs --int-high=4 --print=hash --jit | sed 1d > %t.scatter.default
// RUN: diff %t.scatter.interp %t.scatter.default
// @indexput: index_put with and without accumulate, negative indices wrapping.
// RUN: stax-run %s --entry=indexput --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.indexput.interp
// RUN: FileCheck %s --check-prefix=CHECK-INDEXPUT --input-file=%t.indexput.interp
// RUN: stax-run %s --entry=indexput --random-inputs --int-low=-50 --int-high=50 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.indexput.scalar
// RUN: diff %t.indexput.interp %t.indexput.scalar
// RUN: stax-run %s --entry=indexput --random-inputs --int-low=-50 --int-high=50 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.indexput.threads
// RUN: diff %t.indexput.interp %t.indexput.threads
// RUN: stax-run %s --entry=indexput --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.indexput.default
// RUN: diff %t.indexput.interp %t.indexput.default
// @gather: gather and index_select.
// RUN: stax-run %s --entry=gather --random-inputs --int-high=4 --print=hash | sed 1d > %t.gather.interp
// RUN: FileCheck %s --check-prefix=CHECK-GATHER --input-file=%t.gather.interp
// RUN: stax-run %s --entry=gather --random-inputs --int-high=4 --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.gather.scalar
// RUN: diff %t.gather.interp %t.gather.scalar
// RUN: stax-run %s --entry=gather --random-inputs --int-high=4 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.gather.threads
// RUN: diff %t.gather.interp %t.gather.threads
// RUN: stax-run %s --entry=gather --random-inputs --int-high=4 --print=hash --jit | sed 1d > %t.gather.default
// RUN: diff %t.gather.interp %t.gather.default
// @cat: concatenation (masked loads) read transposed.
// RUN: stax-run %s --entry=cat --random-inputs --print=hash | sed 1d > %t.cat.interp
// RUN: FileCheck %s --check-prefix=CHECK-CAT --input-file=%t.cat.interp
// RUN: stax-run %s --entry=cat --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.cat.scalar
// RUN: diff %t.cat.interp %t.cat.scalar
// RUN: stax-run %s --entry=cat --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.cat.threads
// RUN: diff %t.cat.interp %t.cat.threads
// RUN: stax-run %s --entry=cat --random-inputs --print=hash --jit | sed 1d > %t.cat.default
// RUN: diff %t.cat.interp %t.cat.default
// @cat1: concatenation along the inner dimension.
// RUN: stax-run %s --entry=cat1 --random-inputs --print=hash | sed 1d > %t.cat1.interp
// RUN: FileCheck %s --check-prefix=CHECK-CAT1 --input-file=%t.cat1.interp
// RUN: stax-run %s --entry=cat1 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.cat1.scalar
// RUN: diff %t.cat1.interp %t.cat1.scalar
// RUN: stax-run %s --entry=cat1 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.cat1.threads
// RUN: diff %t.cat1.interp %t.cat1.threads
// RUN: stax-run %s --entry=cat1 --random-inputs --print=hash --jit | sed 1d > %t.cat1.default
// RUN: diff %t.cat1.interp %t.cat1.default
// @pad: zero padding (cat with zeros) on both sides of both dims, and a
// padded vector broadcast along the rows: the default vector code reads
// through masked vector loads (masks that vary along a vector, or are the
// same for all of it), bitwise like the scalar code.
// RUN: stax-run %s --entry=pad --random-inputs --print=hash | sed 1d > %t.pad.interp
// RUN: FileCheck %s --check-prefix=CHECK-PAD --input-file=%t.pad.interp
// RUN: stax-run %s --entry=pad --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.pad.scalar
// RUN: diff %t.pad.interp %t.pad.scalar
// RUN: stax-run %s --entry=pad --random-inputs --print=hash --jit | sed 1d > %t.pad.default
// RUN: diff %t.pad.interp %t.pad.default
// RUN: stax-run %s --entry=pad --random-inputs --print=hash --jit --pipeline-options="vector-width=8 grain=1" --num-threads=4 | sed 1d > %t.pad.w8
// RUN: diff %t.pad.interp %t.pad.w8
// @views: permute, strided slice, select, a reshape of a permutation.
// RUN: stax-run %s --entry=views --random-inputs --print=hash | sed 1d > %t.views.interp
// RUN: FileCheck %s --check-prefix=CHECK-VIEWS --input-file=%t.views.interp
// RUN: stax-run %s --entry=views --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.views.scalar
// RUN: diff %t.views.interp %t.views.scalar
// RUN: stax-run %s --entry=views --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.views.threads
// RUN: diff %t.views.interp %t.views.threads
// RUN: stax-run %s --entry=views --random-inputs --print=hash --jit | sed 1d > %t.views.default
// RUN: diff %t.views.interp %t.views.default
// @reshape: reshapes of transposes: addresses with floordiv and mod, which
// vector lanes must not treat as a constant stride.
// RUN: stax-run %s --entry=reshape --random-inputs --print=hash | sed 1d > %t.reshape.interp
// RUN: FileCheck %s --check-prefix=CHECK-RESHAPE --input-file=%t.reshape.interp
// RUN: stax-run %s --entry=reshape --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.reshape.scalar
// RUN: diff %t.reshape.interp %t.reshape.scalar
// RUN: stax-run %s --entry=reshape --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.reshape.threads
// RUN: diff %t.reshape.interp %t.reshape.threads
// RUN: stax-run %s --entry=reshape --random-inputs --print=hash --jit | sed 1d > %t.reshape.default
// RUN: diff %t.reshape.interp %t.reshape.default

// CHECK-SCATTER: result #0: tensor<4x30xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-SCATTER-NEXT: result #1: tensor<4x30xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-SCATTER-NOT: result
func.func @scatter(%z: tensor<4x30xf32>, %i: tensor<20x30xi64>, %s: tensor<20x30xf32>) -> (tensor<4x30xf32>, tensor<4x30xf32>) {
  %r = tp.scatter_add %z, %i, %s {dim = 0 : i64} : (tensor<4x30xf32>, tensor<20x30xi64>, tensor<20x30xf32>) -> tensor<4x30xf32>
  %q = tp.scatter %z, %i, %s {dim = 0 : i64} : (tensor<4x30xf32>, tensor<20x30xi64>, tensor<20x30xf32>) -> tensor<4x30xf32>
  %r2 = tp.mul.Scalar %r {other = 2 : i64} : tensor<4x30xf32> -> tensor<4x30xf32>
  %q2 = tp.add %q, %r2 : tensor<4x30xf32>, tensor<4x30xf32> -> tensor<4x30xf32>
  return %r2, %q2 : tensor<4x30xf32>, tensor<4x30xf32>
}

// CHECK-INDEXPUT: result #0: tensor<50x3xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INDEXPUT-NEXT: result #1: tensor<50x3xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-INDEXPUT-NOT: result
func.func @indexput(%x: tensor<50x3xf32>, %i: tensor<20xi64>, %v: tensor<20x3xf32>) -> (tensor<50x3xf32>, tensor<50x3xf32>) {
  %0 = tp.index_put %x[%i], %v {dims = array<i64: 0>, accumulate = true} : (tensor<50x3xf32>, tensor<20xi64>, tensor<20x3xf32>) -> tensor<50x3xf32>
  %1 = tp.index_put %x[%i], %v {dims = array<i64: 0>} : (tensor<50x3xf32>, tensor<20xi64>, tensor<20x3xf32>) -> tensor<50x3xf32>
  %2 = tp.neg %0 : tensor<50x3xf32> -> tensor<50x3xf32>
  return %2, %1 : tensor<50x3xf32>, tensor<50x3xf32>
}

// CHECK-GATHER: result #0: tensor<20x30xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-GATHER-NEXT: result #1: tensor<4x20xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-GATHER-NOT: result
func.func @gather(%x: tensor<4x30xf32>, %i: tensor<20x30xi64>) -> (tensor<20x30xf32>, tensor<4x20xf32>) {
  %r = tp.gather %x, %i {dim = 0 : i64} : (tensor<4x30xf32>, tensor<20x30xi64>) -> tensor<20x30xf32>
  %j = tp.slice %i {dim = 0 : i64, start = 0 : i64, end = 1 : i64, step = 1 : i64} : tensor<20x30xi64> -> tensor<1x30xi64>
  %k = tp.reshape %j {size = array<i64: 30>} : tensor<1x30xi64> -> tensor<30xi64>
  %l = tp.slice %k {dim = 0 : i64, start = 0 : i64, end = 20 : i64, step = 1 : i64} : tensor<30xi64> -> tensor<20xi64>
  %q = tp.index_select %x, %l {dim = 1 : i64} : (tensor<4x30xf32>, tensor<20xi64>) -> tensor<4x20xf32>
  return %r, %q : tensor<20x30xf32>, tensor<4x20xf32>
}

// CHECK-CAT: result #0: tensor<40x7xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CAT-NOT: result
func.func @cat(%x: tensor<5x40xf32>, %y: tensor<2x40xf32>) -> tensor<40x7xf32> {
  %0 = tp.cat %x, %y : (tensor<5x40xf32>, tensor<2x40xf32>) -> tensor<7x40xf32>
  %1 = tp.t %0 : tensor<7x40xf32> -> tensor<40x7xf32>
  %2 = tp.mul.Scalar %1 {other = 3 : i64} : tensor<40x7xf32> -> tensor<40x7xf32>
  return %2 : tensor<40x7xf32>
}

// CHECK-CAT1: result #0: tensor<40x35xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-CAT1-NOT: result
func.func @cat1(%x: tensor<40x5xf32>, %y: tensor<40x30xf32>) -> tensor<40x35xf32> {
  %0 = tp.cat %x, %y {dim = 1 : i64} : (tensor<40x5xf32>, tensor<40x30xf32>) -> tensor<40x35xf32>
  %2 = tp.add.Scalar %0 {other = 1 : i64} : tensor<40x35xf32> -> tensor<40x35xf32>
  return %2 : tensor<40x35xf32>
}

// CHECK-PAD: result #0: tensor<9x60xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-PAD-NEXT: result #1: tensor<8x37xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-PAD-NOT: result
func.func @pad(%x: tensor<6x37xf32>, %b: tensor<6xf32>, %y: tensor<8x37xf32>) -> (tensor<9x60xf32>, tensor<8x37xf32>) {
  %l = tp.full {value = 0.0 : f64} : tensor<6x3xf32>
  %r = tp.full {value = 0.0 : f64} : tensor<6x20xf32>
  %0 = tp.cat %l, %x, %r {dim = 1 : i64} : (tensor<6x3xf32>, tensor<6x37xf32>, tensor<6x20xf32>) -> tensor<6x60xf32>
  %t = tp.full {value = 0.0 : f64} : tensor<1x60xf32>
  %u = tp.full {value = 0.0 : f64} : tensor<2x60xf32>
  %1 = tp.cat %t, %0, %u : (tensor<1x60xf32>, tensor<6x60xf32>, tensor<2x60xf32>) -> tensor<9x60xf32>
  %2 = tp.neg %1 : tensor<9x60xf32> -> tensor<9x60xf32>
  %z = tp.full {value = 0.0 : f64} : tensor<1xf32>
  %3 = tp.cat %z, %b, %z : (tensor<1xf32>, tensor<6xf32>, tensor<1xf32>) -> tensor<8xf32>
  %4 = tp.reshape %3 {size = array<i64: 8, 1>} : tensor<8xf32> -> tensor<8x1xf32>
  %5 = tp.add %y, %4 : tensor<8x37xf32>, tensor<8x1xf32> -> tensor<8x37xf32>
  return %2, %5 : tensor<9x60xf32>, tensor<8x37xf32>
}

// CHECK-VIEWS: result #0: tensor<7x6x5xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VIEWS-NEXT: result #1: tensor<6x2x7xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VIEWS-NEXT: result #2: tensor<5x7xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VIEWS-NEXT: result #3: tensor<35x6xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-VIEWS-NOT: result
func.func @views(%x: tensor<6x5x7xf32>) -> (tensor<7x6x5xf32>, tensor<6x2x7xf32>, tensor<5x7xf32>, tensor<35x6xf32>) {
  %0 = tp.permute %x {dims = array<i64: 2, 0, 1>} : tensor<6x5x7xf32> -> tensor<7x6x5xf32>
  %1 = tp.slice %x {dim = 1 : i64, start = 1 : i64, end = 5 : i64, step = 2 : i64} : tensor<6x5x7xf32> -> tensor<6x2x7xf32>
  %2 = tp.select %x {dim = 0 : i64, index = -1 : i64} : tensor<6x5x7xf32> -> tensor<5x7xf32>
  %3 = tp.permute %x {dims = array<i64: 1, 2, 0>} : tensor<6x5x7xf32> -> tensor<5x7x6xf32>
  %4 = tp.reshape %3 {size = array<i64: 35, 6>} : tensor<5x7x6xf32> -> tensor<35x6xf32>
  return %0, %1, %2, %4 : tensor<7x6x5xf32>, tensor<6x2x7xf32>, tensor<5x7xf32>, tensor<35x6xf32>
}

// CHECK-RESHAPE: result #0: tensor<60xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-RESHAPE-NEXT: result #1: tensor<35x6xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-RESHAPE-NOT: result
func.func @reshape(%x: tensor<20x3xf32>, %y: tensor<7x5x6xf32>) -> (tensor<60xf32>, tensor<35x6xf32>) {
  %t = tp.t %x : tensor<20x3xf32> -> tensor<3x20xf32>
  %r = tp.reshape %t {size = array<i64: 60>} : tensor<3x20xf32> -> tensor<60xf32>
  %n = tp.neg %r : tensor<60xf32> -> tensor<60xf32>
  %p = tp.permute %y {dims = array<i64: 1, 0, 2>} : tensor<7x5x6xf32> -> tensor<5x7x6xf32>
  %q = tp.reshape %p {size = array<i64: 35, 6>} : tensor<5x7x6xf32> -> tensor<35x6xf32>
  %u = tp.t %q : tensor<35x6xf32> -> tensor<6x35xf32>
  %v = tp.reshape %u {size = array<i64: 210>} : tensor<6x35xf32> -> tensor<210xf32>
  %w = tp.reshape %v {size = array<i64: 35, 6>} : tensor<210xf32> -> tensor<35x6xf32>
  %z = tp.add %w, %q : tensor<35x6xf32>, tensor<35x6xf32> -> tensor<35x6xf32>
  return %n, %z : tensor<60xf32>, tensor<35x6xf32>
}
