// Integer division by a nonzero constant lowers (a zero or tensor divisor
// stays a tp op: division by zero is the op's run-time error) and compiles
// bitwise equal to the interpreter: truncating and flooring, negative
// divisors, and -1, which negates with wrap-around (INT_MIN / -1 would
// trap on x86).
// RUN: stax-run %s --entry=idiv --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=idiv --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=idiv --random-inputs --int-low=-50 --int-high=50 --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-run %s --entry=edges --print-values --jit | FileCheck %s
// RUN: stax-run %s --entry=edges --print-values | FileCheck %s
// RUN: stax-opt --stax-decompose --stax-lower="strict=true" %s -o /dev/null

func.func @idiv(%x: tensor<4x9xi32>, %y: tensor<40xi64>)
    -> (tensor<4x9xi32>, tensor<4x9xi32>, tensor<4x9xi32>, tensor<40xi64>, tensor<40xi64>, tensor<40xi64>) {
  %0 = tp.div.Scalar %x {other = 3 : i64, rounding_mode = #tp.rounding_mode<floor>} : tensor<4x9xi32> -> tensor<4x9xi32>
  %1 = tp.div.Scalar %x {other = -3 : i64, rounding_mode = #tp.rounding_mode<floor>} : tensor<4x9xi32> -> tensor<4x9xi32>
  %2 = tp.div.Scalar %x {other = -1 : i64, rounding_mode = #tp.rounding_mode<trunc>} : tensor<4x9xi32> -> tensor<4x9xi32>
  %3 = tp.div.Scalar %y {other = 7 : i64, rounding_mode = #tp.rounding_mode<trunc>} : tensor<40xi64> -> tensor<40xi64>
  %4 = tp.div.Scalar %y {other = -2 : i64, rounding_mode = #tp.rounding_mode<trunc>} : tensor<40xi64> -> tensor<40xi64>
  %5 = tp.div.Scalar %y {other = -1 : i64, rounding_mode = #tp.rounding_mode<floor>} : tensor<40xi64> -> tensor<40xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<4x9xi32>, tensor<4x9xi32>, tensor<4x9xi32>, tensor<40xi64>, tensor<40xi64>, tensor<40xi64>
}

// INT_MIN / -1 wraps to INT_MIN; floor(-2147483647 / 2) = -1073741824
// (values print with 9 significant digits).
// CHECK: result #0: tensor<4xi32>
// CHECK-NEXT: [-2.14748365e+09, 2.14748365e+09, -2, 3]
// CHECK: result #1: tensor<4xi32>
// CHECK-NEXT: [-1.07374182e+09, -1.07374182e+09, 1, -2]
func.func @edges() -> (tensor<4xi32>, tensor<4xi32>) {
  %x = tp.constant dense<[-2147483648, -2147483647, 2, -3]> : tensor<4xi32>
  %0 = tp.div.Scalar %x {other = -1 : i64, rounding_mode = #tp.rounding_mode<floor>} : tensor<4xi32> -> tensor<4xi32>
  %1 = tp.div.Scalar %x {other = 2 : i64, rounding_mode = #tp.rounding_mode<floor>} : tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}
