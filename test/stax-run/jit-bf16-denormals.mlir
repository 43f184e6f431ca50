// bf16 denormals through compiled extremes: LLVM keeps scalar bf16 values
// (a scan's running extreme) as f32 and narrows them, and computes a bf16
// vector.reduction (a vectorized argmax's horizontal maximum) in f32 and
// narrows the result, both with AVX512-BF16's vcvtneps2bf16, which flushes
// denormals to zero. The argmax then matched no element and returned
// INT64_MAX, a min of a negative denormal gave 0, cummin lost its running
// minimum after 8 elements (found by a probe). Compiled code must equal the
// interpreter bitwise, vectorized or not.
// RUN: stax-run %s --print=exact | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-run %s --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar

// The first maximum (5.97e-39 at 17), the minimum (-5.97e-39 at 30), the
// first of 40 equal denormals.
// CHECK-VALUES:      result #0: tensor<i64>
// CHECK-VALUES-NEXT: [] 17
// CHECK-VALUES-NEXT: result #1: tensor<i64>
// CHECK-VALUES-NEXT: [] 30
// CHECK-VALUES-NEXT: result #2: tensor<i64>
// CHECK-VALUES-NEXT: [] 0
// CHECK-VALUES-NEXT: result #3: tensor<bf16>
// CHECK-VALUES-NEXT: [] -5.969e-39
// CHECK-VALUES-NEXT: result #4: tensor<i64>
// CHECK-VALUES-NEXT: [] 30
// cummin: 0 until the denormal at 5, which stays the minimum until 30.
// CHECK-VALUES:      result #5: tensor<40xbf16>
// CHECK-VALUES:      [8] -9.184e-41
// CHECK-VALUES:      result #6: tensor<40xi64>
// CHECK-VALUES:      [8] 5
// CHECK-VALUES:      [29] 5
// CHECK-VALUES-NEXT: [30] 30
func.func @extremes() -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<bf16>, tensor<i64>, tensor<40xbf16>, tensor<40xi64>, tensor<40xbf16>, tensor<40xi64>) {
  %x = tp.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, -9.18354962e-41, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.96930725e-39, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -5.96930725e-39, 0.0, 0.0, 5.96930725e-39, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : tensor<40xbf16>
  %same = tp.constant dense<5.96930725e-39> : tensor<40xbf16>
  %0 = tp.argmax %x : tensor<40xbf16> -> tensor<i64>
  %1 = tp.argmin %x : tensor<40xbf16> -> tensor<i64>
  %2 = tp.argmax %same : tensor<40xbf16> -> tensor<i64>
  %3:2 = tp.min.dim %x {dim = 0 : i64} : tensor<40xbf16> -> tensor<bf16>, tensor<i64>
  %4:2 = tp.cummin %x {dim = 0 : i64} : tensor<40xbf16> -> tensor<40xbf16>, tensor<40xi64>
  %5:2 = tp.cummax %x {dim = 0 : i64} : tensor<40xbf16> -> tensor<40xbf16>, tensor<40xi64>
  return %0, %1, %2, %3#0, %3#1, %4#0, %4#1, %5#0, %5#1 : tensor<i64>, tensor<i64>, tensor<i64>, tensor<bf16>, tensor<i64>, tensor<40xbf16>, tensor<40xi64>, tensor<40xbf16>, tensor<40xi64>
}
