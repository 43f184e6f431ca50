// Differential tests of tp.sort compiled (a call of the runtime's
// stax_rt_sort_*) against the interpreter: the same stable order, so the
// results are bitwise equal, sequential or on threads, scalar or vectorized.
// With enough work (grain=1 here) the slices of the dims before the sorted
// one sort in parallel, one call per slice with its pointers advanced by
// the slice's bytes (f64, i64, i32 and bool keys below).
//
// @floats: f32 rounded to a few integers (many ties, -0.0 among them),
// sorted along each dim of a 3-d tensor, ascending and descending; the
// values and indices are read back by nodes (scaled, gathered).
// RUN: stax-run %s --entry=floats --random-inputs --print=hash | sed 1d > %t.floats.interp
// RUN: FileCheck %s --check-prefix=CHECK-FLOATS --input-file=%t.floats.interp
// RUN: stax-run %s --entry=floats --random-inputs --print=hash --jit | sed 1d > %t.floats.default
// RUN: diff %t.floats.interp %t.floats.default
// RUN: stax-run %s --entry=floats --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.floats.threads
// RUN: diff %t.floats.interp %t.floats.threads
// @f64: float64, the last dim, as a function's argument and result.
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash | sed 1d > %t.f64.interp
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash --jit | sed 1d > %t.f64.default
// RUN: diff %t.f64.interp %t.f64.default
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.f64.threads
// RUN: diff %t.f64.interp %t.f64.threads
// @ints: i64, i32 and bool with ties; a 0-d and an empty tensor.
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.ints.interp
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-3 --int-high=3 --print=hash --jit | sed 1d > %t.ints.default
// RUN: diff %t.ints.interp %t.ints.default
// RUN: stax-run %s --entry=ints --random-inputs --int-low=-3 --int-high=3 --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.ints.threads
// RUN: diff %t.ints.interp %t.ints.threads
// @nan: NaN first descending, last ascending (every element printed).
// @long: slices of at least kRadixSortMinLength (64) elements, which the
// runtime sorts by radix (the interpreter by comparisons): f32 with ties
// and both zeros, f64 of both signs unrounded, i64 and i16 with ties.
// RUN: stax-run %s --entry=long --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.long.interp
// RUN: stax-run %s --entry=long --random-inputs --int-low=-3 --int-high=3 --print=hash --jit | sed 1d > %t.long.default
// RUN: diff %t.long.interp %t.long.default
// RUN: stax-run %s --entry=nan --print=exact | sed 1d > %t.nan.interp
// RUN: stax-run %s --entry=nan --print=exact --jit | sed 1d > %t.nan.default
// RUN: diff %t.nan.interp %t.nan.default
// RUN: FileCheck %s --check-prefix=CHECK-NAN --input-file=%t.nan.default
// @topk: tp.topk (stax_rt_topk_*: a partial sort) on the same kind of
// data, k below and above the insertion-buffer limit (32), k = 0, k = len,
// a 0-d input; bitwise the interpreter's, which is the sort's prefix.
// RUN: stax-run %s --entry=topk --random-inputs --int-low=-3 --int-high=3 --print=hash | sed 1d > %t.topk.interp
// RUN: stax-run %s --entry=topk --random-inputs --int-low=-3 --int-high=3 --print=hash --jit | sed 1d > %t.topk.default
// RUN: diff %t.topk.interp %t.topk.default
// RUN: stax-run %s --entry=topk --random-inputs --int-low=-3 --int-high=3 --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.topk.threads
// RUN: diff %t.topk.interp %t.topk.threads
// RUN: stax-run %s --entry=topk_nan --print=exact --jit | FileCheck %s --check-prefix=CHECK-TOPK

// CHECK-FLOATS: result #0: tensor<5x6x7xf32>
// CHECK-FLOATS: result #5: tensor<5x6x7xi64>
// CHECK-FLOATS: result #7: tensor<5x6x7xf32>
func.func @long(%x: tensor<3x300xf32>, %d: tensor<70x2xf64>, %i: tensor<2x500xi64>, %h: tensor<130xi16>)
    -> (tensor<3x300xf32>, tensor<3x300xi64>, tensor<3x300xi64>, tensor<70x2xi64>,
        tensor<2x500xi64>, tensor<130xi64>) {
  %s = tp.mul.Scalar %x {other = 3.0 : f64} : tensor<3x300xf32> -> tensor<3x300xf32>
  %r = tp.round %s : tensor<3x300xf32> -> tensor<3x300xf32>
  %a:2 = tp.sort %r {dim = 1 : i64} : tensor<3x300xf32> -> tensor<3x300xf32>, tensor<3x300xi64>
  %b:2 = tp.sort %r {dim = 1 : i64, descending = true} : tensor<3x300xf32> -> tensor<3x300xf32>, tensor<3x300xi64>
  %c:2 = tp.sort %d {dim = 0 : i64} : tensor<70x2xf64> -> tensor<70x2xf64>, tensor<70x2xi64>
  %e:2 = tp.sort %i {dim = 1 : i64, descending = true} : tensor<2x500xi64> -> tensor<2x500xi64>, tensor<2x500xi64>
  %f:2 = tp.sort %h {dim = 0 : i64} : tensor<130xi16> -> tensor<130xi16>, tensor<130xi64>
  return %a#0, %a#1, %b#1, %c#1, %e#1, %f#1
      : tensor<3x300xf32>, tensor<3x300xi64>, tensor<3x300xi64>, tensor<70x2xi64>,
        tensor<2x500xi64>, tensor<130xi64>
}

func.func @floats(%x: tensor<5x6x7xf32>)
    -> (tensor<5x6x7xf32>, tensor<5x6x7xi64>, tensor<5x6x7xf32>, tensor<5x6x7xi64>,
        tensor<5x6x7xf32>, tensor<5x6x7xi64>, tensor<5x6x7xf32>, tensor<5x6x7xf32>) {
  %s = tp.mul.Scalar %x {other = 3.0 : f64} : tensor<5x6x7xf32> -> tensor<5x6x7xf32>
  %r = tp.round %s : tensor<5x6x7xf32> -> tensor<5x6x7xf32>
  %a:2 = tp.sort %r {dim = 0 : i64} : tensor<5x6x7xf32> -> tensor<5x6x7xf32>, tensor<5x6x7xi64>
  %b:2 = tp.sort %r {dim = 1 : i64, descending = true} : tensor<5x6x7xf32> -> tensor<5x6x7xf32>, tensor<5x6x7xi64>
  %c:2 = tp.sort %r {dim = -1 : i64} : tensor<5x6x7xf32> -> tensor<5x6x7xf32>, tensor<5x6x7xi64>
  %m = tp.mul.Scalar %c#0 {other = 2.0 : f64} : tensor<5x6x7xf32> -> tensor<5x6x7xf32>
  %g = tp.gather %x, %b#1 {dim = 1 : i64} : (tensor<5x6x7xf32>, tensor<5x6x7xi64>) -> tensor<5x6x7xf32>
  return %a#0, %a#1, %b#0, %b#1, %c#0, %c#1, %m, %g
      : tensor<5x6x7xf32>, tensor<5x6x7xi64>, tensor<5x6x7xf32>, tensor<5x6x7xi64>,
        tensor<5x6x7xf32>, tensor<5x6x7xi64>, tensor<5x6x7xf32>, tensor<5x6x7xf32>
}

func.func @f64(%x: tensor<3x100xf64>) -> (tensor<3x100xf64>, tensor<3x100xi64>) {
  %s:2 = tp.sort %x {dim = 1 : i64, descending = true} : tensor<3x100xf64> -> tensor<3x100xf64>, tensor<3x100xi64>
  return %s#0, %s#1 : tensor<3x100xf64>, tensor<3x100xi64>
}

func.func @ints(%i: tensor<4x9xi64>, %j: tensor<9x4xi32>, %b: tensor<2x8xi1>, %s: tensor<i64>, %e: tensor<0x5xf32>)
    -> (tensor<4x9xi64>, tensor<4x9xi64>, tensor<9x4xi32>, tensor<9x4xi64>, tensor<2x8xi1>, tensor<2x8xi64>,
        tensor<i64>, tensor<i64>, tensor<0x5xf32>, tensor<0x5xi64>) {
  %0:2 = tp.sort %i {dim = 1 : i64, descending = true} : tensor<4x9xi64> -> tensor<4x9xi64>, tensor<4x9xi64>
  %1:2 = tp.sort %j {dim = 0 : i64} : tensor<9x4xi32> -> tensor<9x4xi32>, tensor<9x4xi64>
  %2:2 = tp.sort %b {dim = 1 : i64, descending = true} : tensor<2x8xi1> -> tensor<2x8xi1>, tensor<2x8xi64>
  %3:2 = tp.sort %s {dim = -1 : i64} : tensor<i64> -> tensor<i64>, tensor<i64>
  %4:2 = tp.sort %e {dim = 1 : i64} : tensor<0x5xf32> -> tensor<0x5xf32>, tensor<0x5xi64>
  return %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1, %4#0, %4#1
      : tensor<4x9xi64>, tensor<4x9xi64>, tensor<9x4xi32>, tensor<9x4xi64>, tensor<2x8xi1>, tensor<2x8xi64>,
        tensor<i64>, tensor<i64>, tensor<0x5xf32>, tensor<0x5xi64>
}

// CHECK-NAN:      result #0: tensor<6xf32>
// CHECK-NAN-NEXT:   [0] nan
// CHECK-NAN:      result #1: tensor<6xi64>
// CHECK-NAN-NEXT:   [0] 1{{$}}
// CHECK-NAN-NEXT:   [1] 4{{$}}
// CHECK-NAN-NEXT:   [2] 0{{$}}
// CHECK-NAN-NEXT:   [3] 2{{$}}
// CHECK-NAN-NEXT:   [4] 5{{$}}
// CHECK-NAN-NEXT:   [5] 3{{$}}
// CHECK-NAN:      result #2: tensor<6xi64>
// CHECK-NAN-NEXT:   [0] 3{{$}}
// CHECK-NAN-NEXT:   [1] 2{{$}}
// CHECK-NAN-NEXT:   [2] 5{{$}}
// CHECK-NAN-NEXT:   [3] 0{{$}}
// CHECK-NAN-NEXT:   [4] 1{{$}}
// CHECK-NAN-NEXT:   [5] 4{{$}}
func.func @nan() -> (tensor<6xf32>, tensor<6xi64>, tensor<6xi64>) {
  %x = tp.constant dense<[2.0, 0x7FC00000, 0.0, -1.0, 0x7FC00000, -0.0]> : tensor<6xf32>
  %d:2 = tp.sort %x {dim = 0 : i64, descending = true} : tensor<6xf32> -> tensor<6xf32>, tensor<6xi64>
  %a:2 = tp.sort %x {dim = 0 : i64} : tensor<6xf32> -> tensor<6xf32>, tensor<6xi64>
  return %d#0, %d#1, %a#1 : tensor<6xf32>, tensor<6xi64>, tensor<6xi64>
}

func.func @topk(%x: tensor<5x60x3xf32>, %i: tensor<7x40xi32>, %s: tensor<f64>)
    -> (tensor<5x4x3xf32>, tensor<5x4x3xi64>, tensor<5x40x3xf32>, tensor<5x40x3xi64>,
        tensor<7x0xi32>, tensor<7x0xi64>, tensor<7x40xi32>, tensor<7x40xi64>,
        tensor<3x40xi32>, tensor<3x40xi64>, tensor<f64>, tensor<i64>) {
  %m = tp.mul.Scalar %x {other = 3.0 : f64} : tensor<5x60x3xf32> -> tensor<5x60x3xf32>
  %r = tp.round %m : tensor<5x60x3xf32> -> tensor<5x60x3xf32>
  %a:2 = tp.topk %r {k = 4 : i64, dim = 1 : i64} : tensor<5x60x3xf32> -> tensor<5x4x3xf32>, tensor<5x4x3xi64>
  %b:2 = tp.topk %r {k = 40 : i64, dim = 1 : i64, largest = false} : tensor<5x60x3xf32> -> tensor<5x40x3xf32>, tensor<5x40x3xi64>
  %c:2 = tp.topk %i {k = 0 : i64, dim = 1 : i64} : tensor<7x40xi32> -> tensor<7x0xi32>, tensor<7x0xi64>
  %d:2 = tp.topk %i {k = 40 : i64, dim = -1 : i64, largest = false} : tensor<7x40xi32> -> tensor<7x40xi32>, tensor<7x40xi64>
  %e:2 = tp.topk %i {k = 3 : i64, dim = 0 : i64} : tensor<7x40xi32> -> tensor<3x40xi32>, tensor<3x40xi64>
  %f:2 = tp.topk %s {k = 0 : i64, dim = 0 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  return %a#0, %a#1, %b#0, %b#1, %c#0, %c#1, %d#0, %d#1, %e#0, %e#1, %f#0, %f#1
      : tensor<5x4x3xf32>, tensor<5x4x3xi64>, tensor<5x40x3xf32>, tensor<5x40x3xi64>,
        tensor<7x0xi32>, tensor<7x0xi64>, tensor<7x40xi32>, tensor<7x40xi64>,
        tensor<3x40xi32>, tensor<3x40xi64>, tensor<f64>, tensor<i64>
}

// The largest 3 of [2, NaN, 0, -1, NaN, -0.0, 2]: the NaNs first (in input
// order), then the first 2; the smallest 3: -1, then 0 and -0.0 in input
// order.
// CHECK-TOPK:      result #0: tensor<3xf32>
// CHECK-TOPK-NEXT:   [0] nan
// CHECK-TOPK-NEXT:   [1] nan
// CHECK-TOPK-NEXT:   [2] 2{{$}}
// CHECK-TOPK:      result #1: tensor<3xi64>
// CHECK-TOPK-NEXT:   [0] 1{{$}}
// CHECK-TOPK-NEXT:   [1] 4{{$}}
// CHECK-TOPK-NEXT:   [2] 0{{$}}
// CHECK-TOPK:      result #2: tensor<3xi64>
// CHECK-TOPK-NEXT:   [0] 3{{$}}
// CHECK-TOPK-NEXT:   [1] 2{{$}}
// CHECK-TOPK-NEXT:   [2] 5{{$}}
func.func @topk_nan() -> (tensor<3xf32>, tensor<3xi64>, tensor<3xi64>) {
  %x = tp.constant dense<[2.0, 0x7FC00000, 0.0, -1.0, 0x7FC00000, -0.0, 2.0]> : tensor<7xf32>
  %l:2 = tp.topk %x {k = 3 : i64, dim = 0 : i64} : tensor<7xf32> -> tensor<3xf32>, tensor<3xi64>
  %s:2 = tp.topk %x {k = 3 : i64, dim = 0 : i64, largest = false} : tensor<7xf32> -> tensor<3xf32>, tensor<3xi64>
  return %l#0, %l#1, %s#1 : tensor<3xf32>, tensor<3xi64>, tensor<3xi64>
}
