// argmax/argmin along one reduction loop run 16 lanes at a time, each lane
// keeping its (value, position) in one of four accumulators, merged lane
// by lane, then one combine by value and position
// (Vectorize.cpp, argExtremeLanes). Positions are exact, so the default
// configuration must equal the interpreter bitwise; the data are made to
// stress the order rules: many ties (values rounded to halves), NaNs (the
// first NaN wins), rows of -inf and +inf (the first position wins), on
// i64 as well; 104 = 4 x 16 (four accumulators, merged by position) +
// 2 x 16 (one accumulator) + 8 (the scalar tail).
// RUN: stax-run %s --entry=extremes --random-inputs --print=exact | sed 1d > %t.exact
// RUN: FileCheck %s --input-file=%t.exact
// RUN: stax-run %s --entry=extremes --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=extremes --random-inputs --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=extremes --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.threads
// RUN: diff %t.interp %t.threads
// The vectorized form is what runs:
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR
// CHECK-IR: scf.for {{.*}} -> (vector<16xf32>, vector<16xi64>, vector<16xf32>, vector<16xi64>, vector<16xf32>, vector<16xi64>, vector<16xf32>, vector<16xi64>)
// CHECK-IR: scf.for {{.*}} -> (vector<16xf32>, vector<16xi64>)
// CHECK-IR: vector.reduction <minsi>

// CHECK: result #0: tensor<9xi64>
// CHECK: result #5: tensor<9xi64>
// CHECK: result #6: tensor<9xi64>
// CHECK-COUNT-9: ] 0{{$}}
func.func @extremes(%x: tensor<9x104xf32>) -> (tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>) {
  %two = tp.constant dense<2.0> : tensor<f32>
  %one = tp.constant dense<0.6> : tensor<f32>
  %nan = tp.constant dense<0x7FC00000> : tensor<f32>
  %ninf = tp.constant dense<0xFF800000> : tensor<f32>
  %pinf = tp.constant dense<0x7F800000> : tensor<f32>
  // Halves: a few distinct values per row, so ties everywhere.
  %s = tp.mul %x, %two : tensor<9x104xf32>, tensor<f32> -> tensor<9x104xf32>
  %q = tp.floor %s : tensor<9x104xf32> -> tensor<9x104xf32>
  %0 = tp.argmax %q {dim = 1 : i64} : tensor<9x104xf32> -> tensor<9xi64>
  %1 = tp.argmin %q {dim = 1 : i64} : tensor<9x104xf32> -> tensor<9xi64>
  // NaN where x < -0.8 (random inputs are in [-1, 1): most rows have
  // some, away from the maxima).
  %mone = tp.constant dense<-0.8> : tensor<f32>
  %low = tp.lt %x, %mone : tensor<9x104xf32>, tensor<f32> -> tensor<9x104xi1>
  %n = tp.where %low, %nan, %q : (tensor<9x104xi1>, tensor<f32>, tensor<9x104xf32>) -> tensor<9x104xf32>
  %big = tp.gt %x, %one : tensor<9x104xf32>, tensor<f32> -> tensor<9x104xi1>
  %2 = tp.argmax %n {dim = 1 : i64} : tensor<9x104xf32> -> tensor<9xi64>
  // -inf for argmax and +inf for argmin except where x > 0.6.
  %lo = tp.where %big, %q, %ninf : (tensor<9x104xi1>, tensor<9x104xf32>, tensor<f32>) -> tensor<9x104xf32>
  %3 = tp.argmax %lo {dim = 1 : i64} : tensor<9x104xf32> -> tensor<9xi64>
  %hi = tp.where %big, %q, %pinf : (tensor<9x104xi1>, tensor<9x104xf32>, tensor<f32>) -> tensor<9x104xf32>
  %4 = tp.argmin %hi {dim = 1 : i64} : tensor<9x104xf32> -> tensor<9xi64>
  // i64 with ties.
  %i = tp._to_copy %q {dtype = i64} : tensor<9x104xf32> -> tensor<9x104xi64>
  %5 = tp.argmax %i {dim = 1 : i64} : tensor<9x104xi64> -> tensor<9xi64>
  // Rows of -inf only: position 0.
  %huge = tp.constant dense<100.0> : tensor<f32>
  %never = tp.gt %x, %huge : tensor<9x104xf32>, tensor<f32> -> tensor<9x104xi1>
  %all = tp.where %never, %q, %ninf : (tensor<9x104xi1>, tensor<9x104xf32>, tensor<f32>) -> tensor<9x104xf32>
  %6 = tp.argmax %all {dim = 1 : i64} : tensor<9x104xf32> -> tensor<9xi64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>, tensor<9xi64>
}
