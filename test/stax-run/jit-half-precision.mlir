// f16 and bf16 compile and run bitwise equal to the interpreter: element-wise
// ops computed in f32 and rounded once per op, reductions, matrix products,
// sorts and scatters. The products, sorts and scatters run on f32 copies of
// their operands (the runtime has no half-precision kernels); the reference
// accumulates half precision in f32 and rounds once, so this is exact. The
// scalar code (vector-width=1, libm calls) keeps the interpreter's order and
// is bitwise equal everywhere; the default configuration is bitwise equal
// where its reordering cannot round differently: the products and scatters
// here sum small integers (exact in any order), the float sums run in scalar
// form only.
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash | sed 1d > %t.ew.interp
// RUN: FileCheck %s --check-prefix=CHECK-EW --input-file=%t.ew.interp
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.ew.scalar
// RUN: diff %t.ew.interp %t.ew.scalar
// RUN: stax-run %s --entry=elementwise --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.ew.vector
// RUN: diff %t.ew.interp %t.ew.vector
// RUN: stax-run %s --entry=rows --random-inputs --print=hash | sed 1d > %t.rows.interp
// RUN: FileCheck %s --check-prefix=CHECK-ROWS --input-file=%t.rows.interp
// RUN: stax-run %s --entry=rows --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false" | sed 1d > %t.rows.scalar
// RUN: diff %t.rows.interp %t.rows.scalar
// RUN: stax-run %s --entry=rows --random-inputs --print=hash --jit --pipeline-options="vector-width=1 approximate-math=false grain=1" --num-threads=4 | sed 1d > %t.rows.threads
// RUN: diff %t.rows.interp %t.rows.threads
// RUN: stax-run %s --entry=externals --random-inputs --print=hash | sed 1d > %t.ext.interp
// RUN: FileCheck %s --check-prefix=CHECK-EXT --input-file=%t.ext.interp
// RUN: stax-run %s --entry=externals --random-inputs --print=hash --jit | sed 1d > %t.ext.default
// RUN: diff %t.ext.interp %t.ext.default
// RUN: stax-run %s --entry=externals --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.ext.threads
// RUN: diff %t.ext.interp %t.ext.threads
// RUN: stax-run %s --entry=edges --print-values --jit | FileCheck %s --check-prefix=CHECK-EDGES
// RUN: stax-run %s --entry=edges --print-values | FileCheck %s --check-prefix=CHECK-EDGES

// CHECK-EW: result #0: tensor<6x37xbf16>
// CHECK-EW: result #1: tensor<6x37xf16>
// CHECK-EW: result #2: tensor<6x37xf32>
func.func @elementwise(%x: tensor<6x37xbf16>, %y: tensor<6x37xbf16>, %h: tensor<6x37xf16>)
    -> (tensor<6x37xbf16>, tensor<6x37xf16>, tensor<6x37xf32>) {
  %0 = tp.mul %x, %y : tensor<6x37xbf16>, tensor<6x37xbf16> -> tensor<6x37xbf16>
  %1 = tp.tanh %0 : tensor<6x37xbf16> -> tensor<6x37xbf16>
  %2 = tp.div %1, %y : tensor<6x37xbf16>, tensor<6x37xbf16> -> tensor<6x37xbf16>
  %3 = tp.add.Scalar %2 {other = 0.1 : f64} : tensor<6x37xbf16> -> tensor<6x37xbf16>
  %4 = tp.exp %h : tensor<6x37xf16> -> tensor<6x37xf16>
  %5 = tp.sigmoid %4 : tensor<6x37xf16> -> tensor<6x37xf16>
  %6 = tp._to_copy %3 {dtype = f32} : tensor<6x37xbf16> -> tensor<6x37xf32>
  %7 = tp._to_copy %5 {dtype = f32} : tensor<6x37xf16> -> tensor<6x37xf32>
  %8 = tp.sub %6, %7 : tensor<6x37xf32>, tensor<6x37xf32> -> tensor<6x37xf32>
  return %3, %5, %8 : tensor<6x37xbf16>, tensor<6x37xf16>, tensor<6x37xf32>
}

// CHECK-ROWS: result #0: tensor<5x70xbf16>
// CHECK-ROWS: result #1: tensor<5xbf16>
// CHECK-ROWS: result #2: tensor<70xi64>
// CHECK-ROWS: result #3: tensor<5x70xf16>
func.func @rows(%x: tensor<5x70xbf16>, %h: tensor<5x70xf16>)
    -> (tensor<5x70xbf16>, tensor<5xbf16>, tensor<70xi64>, tensor<5x70xf16>) {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<5x70xbf16> -> tensor<5x70xbf16>
  %1 = tp.sum %x {dims = array<i64: 1>} : tensor<5x70xbf16> -> tensor<5xbf16>
  %2 = tp.argmax %x {dim = 0 : i64} : tensor<5x70xbf16> -> tensor<70xi64>
  %3 = tp._log_softmax %h {dim = 1 : i64} : tensor<5x70xf16> -> tensor<5x70xf16>
  return %0, %1, %2, %3 : tensor<5x70xbf16>, tensor<5xbf16>, tensor<70xi64>, tensor<5x70xf16>
}

// Operands scaled to integers in [-16, 16]: every product and sum is exact
// in f32, so the BLAS call's order does not matter.
// CHECK-EXT: result #0: tensor<9x5xbf16>
// CHECK-EXT: result #1: tensor<2x9x5xf16>
// CHECK-EXT: result #2: tensor<9x40xbf16>
// CHECK-EXT: result #3: tensor<9x40xi64>
// CHECK-EXT: result #4: tensor<9x3xf16>
// CHECK-EXT: result #5: tensor<4x40xbf16>
func.func @externals(%a: tensor<9x40xbf16>, %b: tensor<40x5xbf16>, %c: tensor<2x9x40xf16>,
                     %d: tensor<2x40x5xf16>, %i: tensor<9x40xi64>)
    -> (tensor<9x5xbf16>, tensor<2x9x5xf16>, tensor<9x40xbf16>, tensor<9x40xi64>,
        tensor<9x3xf16>, tensor<4x40xbf16>) {
  %a16 = tp.mul.Scalar %a {other = 16.0 : f64} : tensor<9x40xbf16> -> tensor<9x40xbf16>
  %ai = tp.round %a16 : tensor<9x40xbf16> -> tensor<9x40xbf16>
  %b16 = tp.mul.Scalar %b {other = 16.0 : f64} : tensor<40x5xbf16> -> tensor<40x5xbf16>
  %bi = tp.round %b16 : tensor<40x5xbf16> -> tensor<40x5xbf16>
  %c16 = tp.mul.Scalar %c {other = 16.0 : f64} : tensor<2x9x40xf16> -> tensor<2x9x40xf16>
  %ci = tp.round %c16 : tensor<2x9x40xf16> -> tensor<2x9x40xf16>
  %d16 = tp.mul.Scalar %d {other = 16.0 : f64} : tensor<2x40x5xf16> -> tensor<2x40x5xf16>
  %di = tp.round %d16 : tensor<2x40x5xf16> -> tensor<2x40x5xf16>
  %0 = tp.mm %ai, %bi : (tensor<9x40xbf16>, tensor<40x5xbf16>) -> tensor<9x5xbf16>
  %1 = tp.bmm %ci, %di : (tensor<2x9x40xf16>, tensor<2x40x5xf16>) -> tensor<2x9x5xf16>
  %2:2 = tp.sort %a {dim = 1 : i64, descending = true} : tensor<9x40xbf16> -> tensor<9x40xbf16>, tensor<9x40xi64>
  %c0 = tp.select %c {dim = 0 : i64, index = 0 : i64} : tensor<2x9x40xf16> -> tensor<9x40xf16>
  %3:2 = tp.topk %c0 {k = 3 : i64, dim = 1 : i64} : tensor<9x40xf16> -> tensor<9x3xf16>, tensor<9x3xi64>
  %z = tp.full {value = 0.0 : f64} : tensor<4x40xbf16>
  %ii = tp.mul.Scalar %i {other = 3 : i64} : tensor<9x40xi64> -> tensor<9x40xi64>
  %4 = tp.scatter_add %z, %ii, %ai {dim = 0 : i64} : (tensor<4x40xbf16>, tensor<9x40xi64>, tensor<9x40xbf16>) -> tensor<4x40xbf16>
  return %0, %1, %2#0, %2#1, %3#0, %4 : tensor<9x5xbf16>, tensor<2x9x5xf16>, tensor<9x40xbf16>,
      tensor<9x40xi64>, tensor<9x3xf16>, tensor<4x40xbf16>
}

// Rounding once per op: 1 + 2^-8 is a bf16 tie (rounds to 1), 3 * 0.1 in
// f16 is 0.2998; a sum of 300 ones in bf16 accumulates in f32 (300, not the
// 256 that bf16 partial sums would stall at); the f16 maximum overflows.
// CHECK-EDGES: result #0: tensor<3xbf16>
// CHECK-EDGES-NEXT: [1, 1.0078125, 300]
// CHECK-EDGES: result #1: tensor<2xf16>
// CHECK-EDGES-NEXT: [0.299804688, inf]
func.func @edges() -> (tensor<3xbf16>, tensor<2xf16>) {
  %a = tp.constant dense<[1.0, 1.0078125]> : tensor<2xbf16>
  %b = tp.constant dense<[0.00390625, 0.0]> : tensor<2xbf16>
  %s = tp.add %a, %b : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  %ones = tp.full {value = 1.0 : f64} : tensor<300xbf16>
  %n = tp.sum %ones {dims = array<i64: 0>, keepdim = true} : tensor<300xbf16> -> tensor<1xbf16>
  %r = tp.cat %s, %n {dim = 0 : i64} : (tensor<2xbf16>, tensor<1xbf16>) -> tensor<3xbf16>
  %h = tp.constant dense<[0.1, 60000.0]> : tensor<2xf16>
  %t = tp.mul.Scalar %h {other = 3.0 : f64} : tensor<2xf16> -> tensor<2xf16>
  return %r, %t : tensor<3xbf16>, tensor<2xf16>
}
