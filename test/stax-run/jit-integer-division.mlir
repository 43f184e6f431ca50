// Integer division lowers and compiles bitwise equal to the interpreter:
// by a nonzero constant (truncating and flooring, negative divisors, and
// -1, which negates with wrap-around: INT_MIN / -1 would trap on x86), and
// by a tensor, whose divisors the compiled code checks (a zero is the
// run-time error "integer division by zero", as in PyTorch; -1 wraps).
// RUN: stax-run %s --entry=idiv --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=idiv --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=idiv --random-inputs --int-low=-50 --int-high=50 --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-run %s --entry=by_tensor --random-inputs --int-low=-50 --int-high=50 --print=hash | sed 1d > %t.tinterp
// RUN: stax-run %s --entry=by_tensor --random-inputs --int-low=-50 --int-high=50 --print=hash --jit | sed 1d > %t.tjit
// RUN: diff %t.tinterp %t.tjit
// RUN: stax-run %s --entry=edges --print-values --jit | FileCheck %s
// RUN: stax-run %s --entry=edges --print-values | FileCheck %s
// RUN: stax-run %s --entry=tensor_edges --print-values --jit | FileCheck %s --check-prefix=TENSOR
// RUN: stax-run %s --entry=tensor_edges --print-values | FileCheck %s --check-prefix=TENSOR
// RUN: not stax-run %s --entry=by_zero --jit 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stax-run %s --entry=by_zero 2>&1 | FileCheck %s --check-prefix=ZERO-INTERP
// RUN: stax-opt --stax-decompose --stax-lower="strict=true" %s -o /dev/null
// fmod by a nonzero integer constant (C's remainder: the dividend's sign)
// lowers too; it ran in PyTorch (i8, i16, i64; -1 gives 0, INT_MIN too).
// RUN: stax-run %s --entry=fmod_scalar --random-inputs --int-low=-100 --int-high=100 --print=hash | sed 1d > %t.finterp
// RUN: stax-run %s --entry=fmod_scalar --random-inputs --int-low=-100 --int-high=100 --print=hash --jit | sed 1d > %t.fjit
// RUN: diff %t.finterp %t.fjit

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

// Tensor divisors 2y+1 (odd: never zero, -1 among them): truncating and
// flooring quotients, Python's remainder and fmod, in i32 and i64.
func.func @by_tensor(%x: tensor<6x9xi32>, %y: tensor<6x9xi32>, %u: tensor<50xi64>, %v: tensor<50xi64>)
    -> (tensor<6x9xi32>, tensor<6x9xi32>, tensor<6x9xi32>, tensor<6x9xi32>, tensor<50xi64>, tensor<50xi64>) {
  %y2 = tp.mul.Scalar %y {other = 2 : i64} : tensor<6x9xi32> -> tensor<6x9xi32>
  %d = tp.add.Scalar %y2 {other = 1 : i64} : tensor<6x9xi32> -> tensor<6x9xi32>
  %v2 = tp.mul.Scalar %v {other = 2 : i64} : tensor<50xi64> -> tensor<50xi64>
  %e = tp.add.Scalar %v2 {other = 1 : i64} : tensor<50xi64> -> tensor<50xi64>
  %0 = tp.div %x, %d {rounding_mode = #tp.rounding_mode<trunc>} : tensor<6x9xi32>, tensor<6x9xi32> -> tensor<6x9xi32>
  %1 = tp.div %x, %d {rounding_mode = #tp.rounding_mode<floor>} : tensor<6x9xi32>, tensor<6x9xi32> -> tensor<6x9xi32>
  %2 = tp.remainder %x, %d : tensor<6x9xi32>, tensor<6x9xi32> -> tensor<6x9xi32>
  %3 = tp.fmod %x, %d : tensor<6x9xi32>, tensor<6x9xi32> -> tensor<6x9xi32>
  %4 = tp.div %u, %e {rounding_mode = #tp.rounding_mode<floor>} : tensor<50xi64>, tensor<50xi64> -> tensor<50xi64>
  %5 = tp.remainder %u, %e : tensor<50xi64>, tensor<50xi64> -> tensor<50xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<6x9xi32>, tensor<6x9xi32>, tensor<6x9xi32>, tensor<6x9xi32>, tensor<50xi64>, tensor<50xi64>
}

// By -1 from a tensor: INT_MIN wraps; floor and trunc agree; remainders 0.
// TENSOR: result #0: tensor<4xi32>
// TENSOR-NEXT: [-2.14748365e+09, 2.14748365e+09, -2, 1]
// TENSOR: result #1: tensor<4xi32>
// TENSOR-NEXT: [0, 0, 0, -1]
func.func @tensor_edges() -> (tensor<4xi32>, tensor<4xi32>) {
  %x = tp.constant dense<[-2147483648, -2147483647, 2, -3]> : tensor<4xi32>
  %y = tp.constant dense<[-1, -1, -1, -2]> : tensor<4xi32>
  %0 = tp.div %x, %y {rounding_mode = #tp.rounding_mode<floor>} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = tp.remainder %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// ZERO: run-time error: integer division by zero in arith.divsi at {{.*}}jit-integer-division.mlir
// ZERO-INTERP: integer division by zero
func.func @by_zero() -> tensor<3xi64> {
  %x = tp.constant dense<[7, 8, 9]> : tensor<3xi64>
  %y = tp.constant dense<[2, 0, 3]> : tensor<3xi64>
  %0 = tp.div %x, %y {rounding_mode = #tp.rounding_mode<trunc>} : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

func.func @fmod_scalar(%a: tensor<64xi16>, %b: tensor<64xi64>, %c: tensor<64xi8>)
    -> (tensor<64xi16>, tensor<64xi64>, tensor<64xi64>, tensor<64xi8>) {
  %0 = tp.fmod.Scalar %a {other = 7 : i64} : tensor<64xi16> -> tensor<64xi16>
  %1 = tp.fmod.Scalar %b {other = -3 : i64} : tensor<64xi64> -> tensor<64xi64>
  %2 = tp.fmod.Scalar %b {other = -1 : i64} : tensor<64xi64> -> tensor<64xi64>
  %3 = tp.fmod.Scalar %c {other = 5 : i64} : tensor<64xi8> -> tensor<64xi8>
  return %0, %1, %2, %3 : tensor<64xi16>, tensor<64xi64>, tensor<64xi64>, tensor<64xi8>
}

// Remainders by a zero constant lower too (they stayed in tp and ran in
// PyTorch): the compiled code reports the zero, as eager does, and an
// empty tensor divides nothing.
// RUN: not stax-run %s --entry=remainder_by_zero --jit 2>&1 | FileCheck %s --check-prefix=REMZERO
// RUN: not stax-run %s --entry=fmod_by_zero --jit 2>&1 | FileCheck %s --check-prefix=FMODZERO
// RUN: stax-run %s --entry=empty_by_zero --print-values --jit | FileCheck %s --check-prefix=EMPTY
// REMZERO: run-time error: integer division by zero in arith.remsi at {{.*}}jit-integer-division.mlir":[[# @LINE + 3]]
func.func @remainder_by_zero() -> tensor<3xi64> {
  %x = tp.constant dense<[7, -8, 9]> : tensor<3xi64>
  %0 = tp.remainder.Scalar %x {other = 0 : i64} : tensor<3xi64> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}
// FMODZERO: run-time error: integer division by zero in arith.remsi at {{.*}}jit-integer-division.mlir":[[# @LINE + 3]]
func.func @fmod_by_zero() -> tensor<5xi32> {
  %x = tp.constant dense<[7, -8, 9, 1, 2]> : tensor<5xi32>
  %0 = tp.fmod.Scalar %x {other = 0 : i64} : tensor<5xi32> -> tensor<5xi32>
  return %0 : tensor<5xi32>
}
// EMPTY: result #0: tensor<0xi64>
// EMPTY-NEXT: []
// EMPTY: result #1: tensor<0xi64>
// EMPTY-NEXT: []
func.func @empty_by_zero() -> (tensor<0xi64>, tensor<0xi64>) {
  %x = tp.arange {end = 0 : i64, start = 0 : i64} : tensor<0xi64>
  %0 = tp.remainder.Scalar %x {other = 0 : i64} : tensor<0xi64> -> tensor<0xi64>
  %1 = tp.fmod.Scalar %x {other = 0 : i64} : tensor<0xi64> -> tensor<0xi64>
  return %0, %1 : tensor<0xi64>, tensor<0xi64>
}
