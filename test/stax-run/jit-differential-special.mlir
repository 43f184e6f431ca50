// Differential tests of the special functions compiled (calls of the
// runtime's stax_rt_<kind>_<type>, the interpreter's own definitions from
// Stax/Support/SpecialFunctions.h) against the interpreter, on random
// inputs scaled to cover poles, negative arguments and both tails: bitwise
// equal, with the default configuration (bodies with a call stay scalar)
// and on threads.
//
// @f32 and @f64: every function, fused with the arithmetic around it.
// RUN: stax-run %s --entry=f32 --random-inputs --print=hash | sed 1d > %t.f32.interp
// RUN: FileCheck %s --check-prefix=CHECK-FLOAT --input-file=%t.f32.interp
// RUN: stax-run %s --entry=f32 --random-inputs --print=hash --jit | sed 1d > %t.f32.default
// RUN: diff %t.f32.interp %t.f32.default
// RUN: stax-run %s --entry=f32 --random-inputs --print=hash --jit --pipeline-options="vector-width=1 grain=1" --num-threads=4 | sed 1d > %t.f32.threads
// RUN: diff %t.f32.interp %t.f32.threads
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash | sed 1d > %t.f64.interp
// RUN: stax-run %s --entry=f64 --random-inputs --print=hash --jit | sed 1d > %t.f64.default
// RUN: diff %t.f64.interp %t.f64.default
// @f16: half precision computes in f32 and rounds once (lgamma), frexp is
// exact (the arguments and results are f32, which --jit passes); a 0-d
// operand broadcasts into nextafter.
// RUN: stax-run %s --entry=f16 --random-inputs --print=hash | sed 1d > %t.f16.interp
// RUN: stax-run %s --entry=f16 --random-inputs --print=hash --jit | sed 1d > %t.f16.default
// RUN: diff %t.f16.interp %t.f16.default
//
// The lowered functions interpret bitwise like the tp ones.
// RUN: stax-opt %s --stax-lower | stax-run - --entry=f32 --random-inputs --print=hash | sed 1d > %t.f32.lowered
// RUN: diff %t.f32.interp %t.f32.lowered

// CHECK-FLOAT: result #0: tensor<64x33xf32>
// CHECK-FLOAT: result #9: tensor<64x33xf32>
// CHECK-FLOAT: result #10: tensor<64x33xi32>
func.func @f32(%x: tensor<64x33xf32>, %y: tensor<33xf32>)
    -> (tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>,
        tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>,
        tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xi32>) {
  %x8 = tp.mul.Scalar %x {other = 8.0 : f64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %a = tp.lgamma %x8 : tensor<64x33xf32> -> tensor<64x33xf32>
  %b = tp.digamma %x8 : tensor<64x33xf32> -> tensor<64x33xf32>
  %c = tp.polygamma %x8 {n = 1 : i64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %d = tp.polygamma %x8 {n = 3 : i64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %e = tp.erfinv %x : tensor<64x33xf32> -> tensor<64x33xf32>
  %h = tp.add.Scalar %x {other = 1.0 : f64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %p = tp.mul.Scalar %h {other = 0.5 : f64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %f = tp.special_ndtri %p : tensor<64x33xf32> -> tensor<64x33xf32>
  %x30 = tp.mul.Scalar %x {other = 30.0 : f64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %g = tp.special_erfcx %x30 : tensor<64x33xf32> -> tensor<64x33xf32>
  %n = tp.nextafter %x, %y : tensor<64x33xf32>, tensor<33xf32> -> tensor<64x33xf32>
  %s = tp.add %a, %b : tensor<64x33xf32>, tensor<64x33xf32> -> tensor<64x33xf32>
  %x1k = tp.mul.Scalar %x {other = 1000.0 : f64} : tensor<64x33xf32> -> tensor<64x33xf32>
  %m, %k = tp.frexp %x1k : tensor<64x33xf32> -> tensor<64x33xf32>, tensor<64x33xi32>
  return %a, %b, %c, %d, %e, %f, %g, %n, %s, %m, %k
      : tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>,
        tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xf32>,
        tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xi32>
}

func.func @f64(%x: tensor<40x17xf64>, %y: tensor<40x1xf64>)
    -> (tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>,
        tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>,
        tensor<40x17xi32>) {
  %x8 = tp.mul.Scalar %x {other = 8.0 : f64} : tensor<40x17xf64> -> tensor<40x17xf64>
  %a = tp.lgamma %x8 : tensor<40x17xf64> -> tensor<40x17xf64>
  %b = tp.digamma %x8 : tensor<40x17xf64> -> tensor<40x17xf64>
  %c = tp.polygamma %x8 {n = 2 : i64} : tensor<40x17xf64> -> tensor<40x17xf64>
  %e = tp.erfinv %x : tensor<40x17xf64> -> tensor<40x17xf64>
  %h = tp.add.Scalar %x {other = 1.0 : f64} : tensor<40x17xf64> -> tensor<40x17xf64>
  %p = tp.mul.Scalar %h {other = 0.5 : f64} : tensor<40x17xf64> -> tensor<40x17xf64>
  %f = tp.special_ndtri %p : tensor<40x17xf64> -> tensor<40x17xf64>
  %x30 = tp.mul.Scalar %x {other = 30.0 : f64} : tensor<40x17xf64> -> tensor<40x17xf64>
  %g = tp.special_erfcx %x30 : tensor<40x17xf64> -> tensor<40x17xf64>
  %n = tp.nextafter %x, %y : tensor<40x17xf64>, tensor<40x1xf64> -> tensor<40x17xf64>
  %m, %k = tp.frexp %x8 : tensor<40x17xf64> -> tensor<40x17xf64>, tensor<40x17xi32>
  return %a, %b, %c, %e, %f, %g, %n, %m, %k
      : tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>,
        tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>, tensor<40x17xf64>,
        tensor<40x17xi32>
}

func.func @f16(%x: tensor<8x16xf32>, %y: tensor<f32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xf32>) {
  %x8 = tp.mul.Scalar %x {other = 8.0 : f64} : tensor<8x16xf32> -> tensor<8x16xf32>
  %h = tp._to_copy %x8 {dtype = f16} : tensor<8x16xf32> -> tensor<8x16xf16>
  %a = tp.lgamma %h : tensor<8x16xf16> -> tensor<8x16xf16>
  %m, %k = tp.frexp %h : tensor<8x16xf16> -> tensor<8x16xf16>, tensor<8x16xi32>
  %a32 = tp._to_copy %a {dtype = f32} : tensor<8x16xf16> -> tensor<8x16xf32>
  %m32 = tp._to_copy %m {dtype = f32} : tensor<8x16xf16> -> tensor<8x16xf32>
  %n = tp.nextafter %x, %y : tensor<8x16xf32>, tensor<f32> -> tensor<8x16xf32>
  return %a32, %m32, %k, %n : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xf32>
}
