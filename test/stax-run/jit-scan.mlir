// Differential tests of the scans (tp.cumsum, logcumsumexp, cummax,
// cummin) compiled against the interpreter: the same order and
// accumulation type, so the results are bitwise equal in every layout the
// code generator distinguishes (16-slice vectors with scalar remainders,
// rows, one long slice), sequential or on threads, and reversed. The f64
// logcumsumexp's log1p stays libm's (vector-math=none): libmvec's is within
// 2 ulp, not bitwise.
//
// @mixed: f32/f64/i32/i8 along each dim of 3-d tensors, both directions.
// RUN: stax-run %s --entry=mixed --random-inputs --int-low=-100 --int-high=100 --print=hash | sed 1d > %t.mixed.interp
// RUN: FileCheck %s --check-prefix=CHECK-MIXED --input-file=%t.mixed.interp
// RUN: stax-run %s --entry=mixed --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="vector-math=none" 2>/dev/null | sed 1d > %t.mixed.default
// RUN: diff %t.mixed.interp %t.mixed.default
// RUN: stax-run %s --entry=mixed --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="grain=1 vector-math=none" --num-threads=4 2>/dev/null | sed 1d > %t.mixed.threads
// RUN: diff %t.mixed.interp %t.mixed.threads
// RUN: stax-run %s --entry=mixed --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="vector-width=8 vector-math=none" 2>/dev/null | sed 1d > %t.mixed.w8
// RUN: diff %t.mixed.interp %t.mixed.w8
// RUN: stax-run %s --entry=mixed --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="vector-width=1 parallel=false vector-math=none" 2>/dev/null | sed 1d > %t.mixed.scalar
// RUN: diff %t.mixed.interp %t.mixed.scalar
//
// @products: cumprod of f32 (f64 accumulation), f64 reversed and i32
// (int64 accumulation wrapping to 32 bits).
// RUN: stax-run %s --entry=products --random-inputs --int-low=-100 --int-high=100 --print=hash | sed 1d > %t.products.interp
// RUN: stax-run %s --entry=products --random-inputs --int-low=-100 --int-high=100 --print=hash --jit 2>/dev/null | sed 1d > %t.products.default
// RUN: diff %t.products.interp %t.products.default
// RUN: stax-run %s --entry=products --random-inputs --int-low=-100 --int-high=100 --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 2>/dev/null | sed 1d > %t.products.scalar
// RUN: diff %t.products.interp %t.products.scalar
//
// @special: NaN, infinities, ties, -0.0, i8 wrapping, bool, a 0-d and an
// empty tensor; every element printed.
// RUN: stax-run %s --entry=special --print=exact | sed 1d > %t.special.interp
// RUN: stax-run %s --entry=special --print=exact --jit 2>/dev/null | sed 1d > %t.special.jit
// RUN: diff %t.special.interp %t.special.jit
// RUN: FileCheck %s --check-prefix=CHECK-SPECIAL --input-file=%t.special.jit

// CHECK-MIXED: result #0: tensor<4x5x33xf32>
// CHECK-MIXED: result #9: tensor<3x70xi8>
func.func @mixed(%x: tensor<4x5x33xf32>, %d: tensor<2x3x17xf64>, %i: tensor<6x2x40xi32>, %c: tensor<3x70xi8>)
    -> (tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<4x5x33xi64>,
        tensor<2x3x17xf64>, tensor<2x3x17xf64>, tensor<6x2x40xi32>, tensor<6x2x40xi64>, tensor<3x70xi8>) {
  %a = tp.cumsum %x {dim = 1 : i64} : tensor<4x5x33xf32> -> tensor<4x5x33xf32>
  %b = tp.cumsum %x {dim = 0 : i64, reverse = true} : tensor<4x5x33xf32> -> tensor<4x5x33xf32>
  %l = tp.logcumsumexp %x {dim = -1 : i64} : tensor<4x5x33xf32> -> tensor<4x5x33xf32>
  %m:2 = tp.cummax %x {dim = 1 : i64, reverse = true} : tensor<4x5x33xf32> -> tensor<4x5x33xf32>, tensor<4x5x33xi64>
  %e = tp.cumsum %d {dim = 2 : i64} : tensor<2x3x17xf64> -> tensor<2x3x17xf64>
  %f = tp.logcumsumexp %d {dim = 0 : i64, reverse = true} : tensor<2x3x17xf64> -> tensor<2x3x17xf64>
  %n:2 = tp.cummin %i {dim = 0 : i64} : tensor<6x2x40xi32> -> tensor<6x2x40xi32>, tensor<6x2x40xi64>
  %s = tp.cumsum %c {dim = 1 : i64} : tensor<3x70xi8> -> tensor<3x70xi8>
  return %a, %b, %l, %m#0, %m#1, %e, %f, %n#0, %n#1, %s
      : tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<4x5x33xi64>,
        tensor<2x3x17xf64>, tensor<2x3x17xf64>, tensor<6x2x40xi32>, tensor<6x2x40xi64>, tensor<3x70xi8>
}

// cummax keeps the later of equal values, and a NaN once seen (a later NaN
// takes its place); cummin of
// bools is the running "all"; logcumsumexp of -inf, -inf is -inf, a +inf
// stays +inf, a NaN stays NaN; 100 + 100 wraps to -56 in i8.
// CHECK-SPECIAL: result #0: tensor<6xf32>
// CHECK-SPECIAL-NEXT: [0] 1
// CHECK-SPECIAL-NEXT: [1] 3
// CHECK-SPECIAL-NEXT: [2] 3
// CHECK-SPECIAL-NEXT: [3] nan
// CHECK-SPECIAL-NEXT: [4] nan
// CHECK-SPECIAL-NEXT: [5] nan
// CHECK-SPECIAL: result #1: tensor<6xi64>
// CHECK-SPECIAL-NEXT: [0] 0
// CHECK-SPECIAL-NEXT: [1] 1
// CHECK-SPECIAL-NEXT: [2] 2
// CHECK-SPECIAL-NEXT: [3] 3
// CHECK-SPECIAL-NEXT: [4] 3
// CHECK-SPECIAL-NEXT: [5] 5
// CHECK-SPECIAL: result #2: tensor<5xf32>
// CHECK-SPECIAL-NEXT: [0] -inf
// CHECK-SPECIAL-NEXT: [1] -inf
// CHECK-SPECIAL-NEXT: [2] 0
// CHECK-SPECIAL-NEXT: [3] inf
// CHECK-SPECIAL-NEXT: [4] inf
// CHECK-SPECIAL: result #3: tensor<4xi1>
// CHECK-SPECIAL-NEXT: [0] 1
// CHECK-SPECIAL-NEXT: [1] 1
// CHECK-SPECIAL-NEXT: [2] 0
// CHECK-SPECIAL-NEXT: [3] 0
// CHECK-SPECIAL: result #4: tensor<4xi64>
// CHECK-SPECIAL-NEXT: [0] 0
// CHECK-SPECIAL-NEXT: [1] 1
// CHECK-SPECIAL-NEXT: [2] 2
// CHECK-SPECIAL-NEXT: [3] 2
// CHECK-SPECIAL: result #5: tensor<3xi8>
// CHECK-SPECIAL-NEXT: [0] 100
// CHECK-SPECIAL-NEXT: [1] -56
// CHECK-SPECIAL-NEXT: [2] -55
// CHECK-SPECIAL: result #6: tensor<f32>
// CHECK-SPECIAL-NEXT: [] 2.5
// CHECK-SPECIAL: result #7: tensor<0x3xf32>
func.func @special() -> (tensor<6xf32>, tensor<6xi64>, tensor<5xf32>, tensor<4xi1>, tensor<4xi64>,
                         tensor<3xi8>, tensor<f32>, tensor<0x3xf32>) {
  %x = tp.constant dense<[1.0, 3.0, 3.0, 0x7FC00000, 5.0, 0x7FC00000]> : tensor<6xf32>
  %m:2 = tp.cummax %x {dim = 0 : i64} : tensor<6xf32> -> tensor<6xf32>, tensor<6xi64>
  %y = tp.constant dense<[0xFF800000, 0xFF800000, 0.0, 0x7F800000, 1.0]> : tensor<5xf32>
  %l = tp.logcumsumexp %y {dim = 0 : i64} : tensor<5xf32> -> tensor<5xf32>
  %b = tp.constant dense<[true, true, false, true]> : tensor<4xi1>
  %n:2 = tp.cummin %b {dim = 0 : i64} : tensor<4xi1> -> tensor<4xi1>, tensor<4xi64>
  %c = tp.constant dense<[100, 100, 1]> : tensor<3xi8>
  %s = tp.cumsum %c {dim = 0 : i64} : tensor<3xi8> -> tensor<3xi8>
  %z = tp.constant dense<2.5> : tensor<f32>
  %zs = tp.cumsum %z {dim = -1 : i64} : tensor<f32> -> tensor<f32>
  %e = tp.constant dense<0.0> : tensor<0x3xf32>
  %es = tp.cumsum %e {dim = 1 : i64, reverse = true} : tensor<0x3xf32> -> tensor<0x3xf32>
  return %m#0, %m#1, %l, %n#0, %n#1, %s, %zs, %es
      : tensor<6xf32>, tensor<6xi64>, tensor<5xf32>, tensor<4xi1>, tensor<4xi64>, tensor<3xi8>, tensor<f32>, tensor<0x3xf32>
}

func.func @products(%x: tensor<4x5x33xf32>, %d: tensor<2x3x17xf64>, %i: tensor<6x2x40xi32>)
    -> (tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<2x3x17xf64>, tensor<6x2x40xi32>) {
  %a = tp.cumprod %x {dim = 2 : i64} : tensor<4x5x33xf32> -> tensor<4x5x33xf32>
  %b = tp.cumprod %x {dim = 0 : i64} : tensor<4x5x33xf32> -> tensor<4x5x33xf32>
  %c = tp.cumprod %d {dim = 1 : i64, reverse = true} : tensor<2x3x17xf64> -> tensor<2x3x17xf64>
  %e = tp.cumprod %i {dim = -1 : i64} : tensor<6x2x40xi32> -> tensor<6x2x40xi32>
  return %a, %b, %c, %e : tensor<4x5x33xf32>, tensor<4x5x33xf32>, tensor<2x3x17xf64>, tensor<6x2x40xi32>
}
