// A 2x2 max pool with indices (make_fx's decomposition of
// max_pool2d_with_indices): an argmax over each window of 4 and the value
// at its position. The windows are too short for lanes along them, so the
// lanes run along the outputs (Vectorize.cpp, analyzeReductionOutputs),
// each keeping its (value, position) in window order, with the stride-2
// reads as whole vectors and shuffles; a map 8 or 6 wide runs on vectors
// of 8 or 4 lanes (narrowLanes) instead of one element at a time. Positions
// are exact: the results equal the interpreter's bitwise, with ties
// (values rounded to halves) and NaNs (the first NaN wins).
// RUN: stax-run %s --entry=pool8 --random-inputs --print=hash | sed 1d > %t.interp8
// RUN: stax-run %s --entry=pool8 --random-inputs --print=hash --jit | sed 1d > %t.jit8
// RUN: diff %t.interp8 %t.jit8
// RUN: stax-run %s --entry=pool8 --random-inputs --print=hash --jit --pipeline-options="grain=1" --num-threads=3 | sed 1d > %t.threads8
// RUN: diff %t.interp8 %t.threads8
// RUN: stax-run %s --entry=pool6 --random-inputs --print=hash | sed 1d > %t.interp6
// RUN: stax-run %s --entry=pool6 --random-inputs --print=hash --jit | sed 1d > %t.jit6
// RUN: diff %t.interp6 %t.jit6
// A kernel of 6 outputs (a sum over 3 and the pointwise after it) runs in
// strips of 4 lanes, and the buffer planning sees the same strips (the sum
// lives in per-strip scratch):
// RUN: stax-run %s --entry=kernel6 --random-inputs --print=hash | sed 1d > %t.interpk
// RUN: stax-run %s --entry=kernel6 --random-inputs --print=hash --jit | sed 1d > %t.jitk
// RUN: diff %t.interpk %t.jitk
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s --check-prefix=CHECK-IR

// The argmax of pool8: 8 lanes, (value, position, count) carried per lane.
// CHECK-IR-LABEL: func.func @pool8(
// CHECK-IR: scf.for {{.*}} -> (vector<8xf32>, vector<8xi64>, vector<8xi64>)
// CHECK-IR-NOT: vector.gather
// CHECK-IR: vector.shuffle
// CHECK-IR-LABEL: func.func @pool6(
// CHECK-IR: scf.for {{.*}} -> (vector<4xf32>, vector<4xi64>, vector<4xi64>)
// CHECK-IR-LABEL: func.func @kernel6(
// CHECK-IR: scf.for {{.*}} -> (vector<4xf32>)
// CHECK-IR: arith.negf {{.*}} : vector<4xf32>

func.func @pool8(%x: tensor<2x3x16x16xf32>) -> (tensor<2x3x8x8xf32>, tensor<2x3x8x8xi64>) {
  %two = tp.constant dense<2.0> : tensor<f32>
  %nan = tp.constant dense<0x7FC00000> : tensor<f32>
  %mone = tp.constant dense<-0.9> : tensor<f32>
  %s = tp.mul %x, %two : tensor<2x3x16x16xf32>, tensor<f32> -> tensor<2x3x16x16xf32>
  %q = tp.floor %s : tensor<2x3x16x16xf32> -> tensor<2x3x16x16xf32>
  %low = tp.lt %x, %mone : tensor<2x3x16x16xf32>, tensor<f32> -> tensor<2x3x16x16xi1>
  %n = tp.where %low, %nan, %q : (tensor<2x3x16x16xi1>, tensor<f32>, tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %1 = tp.as_strided %n {size = array<i64: 2, 3, 2, 2, 8, 8>, stride = array<i64: 768, 256, 16, 1, 32, 2>} : tensor<2x3x16x16xf32> -> tensor<2x3x2x2x8x8xf32>
  %2 = tp.clone %1 : tensor<2x3x2x2x8x8xf32> -> tensor<2x3x2x2x8x8xf32>
  %3 = tp._unsafe_view %2 {size = array<i64: 2, 3, 4, 8, 8>} : tensor<2x3x2x2x8x8xf32> -> tensor<2x3x4x8x8xf32>
  %values, %indices = tp.max.dim %3 {dim = 2 : i64, keepdim = true} : tensor<2x3x4x8x8xf32> -> tensor<2x3x1x8x8xf32>, tensor<2x3x1x8x8xi64>
  %v = tp.squeeze %values {dims = array<i64: 2>} : tensor<2x3x1x8x8xf32> -> tensor<2x3x8x8xf32>
  %i = tp.squeeze %indices {dims = array<i64: 2>} : tensor<2x3x1x8x8xi64> -> tensor<2x3x8x8xi64>
  return %v, %i : tensor<2x3x8x8xf32>, tensor<2x3x8x8xi64>
}

func.func @pool6(%x: tensor<2x3x12x12xf32>) -> (tensor<2x3x6x6xf32>, tensor<2x3x6x6xi64>) {
  %two = tp.constant dense<2.0> : tensor<f32>
  %s = tp.mul %x, %two : tensor<2x3x12x12xf32>, tensor<f32> -> tensor<2x3x12x12xf32>
  %q = tp.floor %s : tensor<2x3x12x12xf32> -> tensor<2x3x12x12xf32>
  %1 = tp.as_strided %q {size = array<i64: 2, 3, 2, 2, 6, 6>, stride = array<i64: 432, 144, 12, 1, 24, 2>} : tensor<2x3x12x12xf32> -> tensor<2x3x2x2x6x6xf32>
  %2 = tp.clone %1 : tensor<2x3x2x2x6x6xf32> -> tensor<2x3x2x2x6x6xf32>
  %3 = tp._unsafe_view %2 {size = array<i64: 2, 3, 4, 6, 6>} : tensor<2x3x2x2x6x6xf32> -> tensor<2x3x4x6x6xf32>
  %values, %indices = tp.max.dim %3 {dim = 2 : i64, keepdim = true} : tensor<2x3x4x6x6xf32> -> tensor<2x3x1x6x6xf32>, tensor<2x3x1x6x6xi64>
  %v = tp.squeeze %values {dims = array<i64: 2>} : tensor<2x3x1x6x6xf32> -> tensor<2x3x6x6xf32>
  %i = tp.squeeze %indices {dims = array<i64: 2>} : tensor<2x3x1x6x6xi64> -> tensor<2x3x6x6xi64>
  return %v, %i : tensor<2x3x6x6xf32>, tensor<2x3x6x6xi64>
}

func.func @kernel6(%x: tensor<6x3xf32>) -> tensor<6xf32> {
  %s = tp.sum %x {dims = array<i64: 1>} : tensor<6x3xf32> -> tensor<6xf32>
  %n = tp.neg %s : tensor<6xf32> -> tensor<6xf32>
  return %n : tensor<6xf32>
}
