// Integer powers lower and compile bitwise equal to the interpreter, with
// eager's semantics (powi): wrapping products, and for a negative tensor
// exponent 1 for a base of 1, +-1 for -1 and 0 otherwise. A negative scalar
// exponent is an error of the op (eager refuses it): that op stays tp
// (fallback.mlir, errors.mlir); everything here lowers.
// RUN: stax-opt --stax-decompose --stax-lower=strict=true %s -o /dev/null
// RUN: stax-run %s --entry=ipow --random-inputs --int-low=-5 --int-high=70 --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=ipow --random-inputs --int-low=-5 --int-high=70 --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=ipow --random-inputs --int-low=-5 --int-high=70 --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-run %s --entry=edges --print=exact --jit | FileCheck %s
// RUN: stax-run %s --entry=edges --print=exact | FileCheck %s

func.func @ipow(%a: tensor<7x9xi32>, %b: tensor<7x9xi32>, %c: tensor<40xi64>, %d: tensor<40xi64>,
                %u: tensor<40xui8>, %v: tensor<40xui8>, %s: tensor<40xi8>)
    -> (tensor<7x9xi32>, tensor<40xi64>, tensor<40xui8>, tensor<40xi8>, tensor<40xi64>, tensor<7x9xi32>) {
  %0 = tp.pow %a, %b : tensor<7x9xi32>, tensor<7x9xi32> -> tensor<7x9xi32>
  %1 = tp.pow %c, %d : tensor<40xi64>, tensor<40xi64> -> tensor<40xi64>
  %2 = tp.pow %u, %v : tensor<40xui8>, tensor<40xui8> -> tensor<40xui8>
  %3 = tp.pow.Tensor_Scalar %s {other = 3 : i64} : tensor<40xi8> -> tensor<40xi8>
  %4 = tp.pow.Tensor_Scalar %c {other = 13 : i64} : tensor<40xi64> -> tensor<40xi64>
  %5 = tp.pow.Tensor_Scalar %a {other = 0 : i64} : tensor<7x9xi32> -> tensor<7x9xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<7x9xi32>, tensor<40xi64>, tensor<40xui8>, tensor<40xi8>, tensor<40xi64>, tensor<7x9xi32>
}

// Negative exponents; 2^31 wraps to INT_MIN in i32; INT_MIN^2 is 0; 0^0 is
// 1; exponents of 2^40 and 10^6 take their 41 and 20 bits.
// CHECK-LABEL: result #0: tensor<8xi32>
// CHECK-NEXT: [0] 0
// CHECK-NEXT: [1] 1
// CHECK-NEXT: [2] -1
// CHECK-NEXT: [3] 1
// CHECK-NEXT: [4] 0
// CHECK-NEXT: [5] -2147483648
// CHECK-NEXT: [6] 0
// CHECK-NEXT: [7] 1
// CHECK-LABEL: result #1: tensor<3xi64>
// CHECK-NEXT: [0] -7860764868738023423
// CHECK-NEXT: [1] 5135550532504518653
// CHECK-NEXT: [2] 7991162334936828423
// CHECK-LABEL: result #2: tensor<3xui8>
// CHECK-NEXT: [0] 64
// CHECK-NEXT: [1] 243
// CHECK-NEXT: [2] 255
func.func @edges() -> (tensor<8xi32>, tensor<3xi64>, tensor<3xui8>) {
  %a = tp.constant dense<[2, 1, -1, -1, 0, 2, -2147483648, 0]> : tensor<8xi32>
  %b = tp.constant dense<[-1, -7, -3, -2, -1, 31, 2, 0]> : tensor<8xi32>
  %0 = tp.pow %a, %b : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32>
  %c = tp.constant dense<[3, -3, 7]> : tensor<3xi64>
  %d = tp.constant dense<[1099511627776, 1099511627777, 1000001]> : tensor<3xi64>
  %1 = tp.pow %c, %d : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  %u = tp.constant dense<[200, 3, 255]> : tensor<3xui8>
  %v = tp.constant dense<[2, 5, 3]> : tensor<3xui8>
  %2 = tp.pow %u, %v : tensor<3xui8>, tensor<3xui8> -> tensor<3xui8>
  return %0, %1, %2 : tensor<8xi32>, tensor<3xi64>, tensor<3xui8>
}
