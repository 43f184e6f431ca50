// RUN: stax-run %s | FileCheck %s
// RUN: stax-opt %s --stax-lowering-pipeline | stax-run - | FileCheck %s

// Integer tensors wrap in two's complement, as in PyTorch: -INT64_MIN,
// abs(INT64_MIN), INT64_MIN + INT64_MIN, INT64_MIN * 3, and INT64_MIN / -1
// (truncating and floor), which used to trap (SIGFPE); the remainder is 0.
// The interpreter computes them without signed overflow, which the ASan +
// UBSan build checks; the lowered form goes through math.absi (a unary op)
// and arith.divsi.
func.func @main() -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>,
                      tensor<i64>, tensor<i64>, tensor<i64>) {
  %a = tp.full {value = -9223372036854775808 : i64} : tensor<i64>
  %0 = tp.neg %a : tensor<i64> -> tensor<i64>
  %1 = tp.abs %a : tensor<i64> -> tensor<i64>
  %2 = tp.add %a, %a : tensor<i64>, tensor<i64> -> tensor<i64>
  %3 = tp.mul.Scalar %a {other = 3 : i64} : tensor<i64> -> tensor<i64>
  %m = tp.full {value = -1 : i64} : tensor<i64>
  %4 = tp.div %a, %m {rounding_mode = #tp.rounding_mode<trunc>} : tensor<i64>, tensor<i64> -> tensor<i64>
  %5 = tp.div %a, %m {rounding_mode = #tp.rounding_mode<floor>} : tensor<i64>, tensor<i64> -> tensor<i64>
  %6 = tp.remainder %a, %m : tensor<i64>, tensor<i64> -> tensor<i64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>,
                                      tensor<i64>, tensor<i64>, tensor<i64>
}
// CHECK: result #0: tensor<i64> min=-9.22337204e+18 max=-9.22337204e+18
// CHECK: result #1: tensor<i64> min=-9.22337204e+18 max=-9.22337204e+18
// CHECK: result #2: tensor<i64> min=0 max=0
// CHECK: result #3: tensor<i64> min=-9.22337204e+18 max=-9.22337204e+18
// CHECK: result #4: tensor<i64> min=-9.22337204e+18 max=-9.22337204e+18
// CHECK: result #5: tensor<i64> min=-9.22337204e+18 max=-9.22337204e+18
// CHECK: result #6: tensor<i64> min=0 max=0
