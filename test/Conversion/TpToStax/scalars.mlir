// RUN: stax-opt --stax-lower %s | FileCheck %s
// RUN: stax-run %s --print=exact | FileCheck %s --check-prefix=CHECK-VALUES
// RUN: stax-opt --stax-lower %s | stax-run --print=exact | FileCheck %s --check-prefix=CHECK-VALUES

// Scalar attributes as the kernels read them. A bool scalar is 1, not the
// -1 an i1 `true` sign-extends to (`x + True` once subtracted one, and
// `x // True` negated); a float scalar stored into a bool is `!= 0`
// (-0.5 is true); int64 scalars past 2^53 stay exact (no trip through a
// double); clamp keeps x where it equals a bound (-0 clamped to min 0
// stays -0, as eager's max(min, x)); a ui8 remainder by a constant lowers
// with the divisor taken modulo 256 (-2 is 254).

// CHECK-LABEL: func.func @f
// CHECK: stax.pointwise layout <[1]> : tensor<3xi64> {
// CHECK:   %[[X:.*]] = stax.load
// CHECK:   %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:   arith.addi %[[X]], %[[ONE]] : i64
// CHECK: stax.pointwise layout <[1]> : tensor<3xi64> {
// CHECK:   %[[Y:.*]] = stax.load
// CHECK:   %[[ONE2:.*]] = arith.constant 1 : i64
// CHECK:   arith.divsi %[[Y]], %[[ONE2]] : i64
// CHECK: stax.pointwise layout <[1]> : tensor<3xi1> {
// CHECK:   arith.constant true
// CHECK: stax.pointwise layout <[1]> : tensor<3xi64> {
// CHECK:   arith.constant 1152921504606846977 : i64
// CHECK: stax.pointwise layout <[1]> : tensor<4xf32> {
// CHECK:   %[[V:.*]] = stax.load
// CHECK:   %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   %[[GT:.*]] = arith.cmpf ogt, %[[LO]], %[[V]] : f32
// CHECK:   arith.select %[[GT]], %[[LO]], %[[V]] : f32
// CHECK: stax.pointwise layout <[1]> : tensor<3xui8> {
// CHECK:   %[[D:.*]] = arith.constant 254 : i16
// CHECK:   arith.remsi %{{.*}}, %[[D]] : i16

// CHECK-VALUES: result #0: tensor<3xi64>
// CHECK-VALUES-NEXT: [0] -6
// CHECK-VALUES-NEXT: [1] 1
// CHECK-VALUES-NEXT: [2] 8
// CHECK-VALUES: result #1: tensor<3xi64>
// CHECK-VALUES-NEXT: [0] -7
// CHECK-VALUES-NEXT: [1] 0
// CHECK-VALUES-NEXT: [2] 7
// CHECK-VALUES: result #2: tensor<3xi1>
// CHECK-VALUES-NEXT: [0] 1
// CHECK-VALUES-NEXT: [1] 0
// CHECK-VALUES-NEXT: [2] 1
// CHECK-VALUES: result #3: tensor<3xi64>
// CHECK-VALUES-NEXT: [0] 1152921504606846977
// CHECK-VALUES-NEXT: [1] 1152921504606846977
// CHECK-VALUES-NEXT: [2] 1152921504606846977
// CHECK-VALUES: result #4: tensor<4xf32>
// CHECK-VALUES-NEXT: [0] -0
// CHECK-VALUES-NEXT: [1] 0
// CHECK-VALUES-NEXT: [2] 0
// CHECK-VALUES-NEXT: [3] 2
// CHECK-VALUES: result #5: tensor<3xui8>
// CHECK-VALUES-NEXT: [0] 0
// CHECK-VALUES-NEXT: [1] 1
// CHECK-VALUES-NEXT: [2] 200
func.func @f() -> (tensor<3xi64>, tensor<3xi64>, tensor<3xi1>, tensor<3xi64>,
                   tensor<4xf32>, tensor<3xui8>) {
  %x = tp.constant dense<[-7, 0, 7]> : tensor<3xi64>
  %b = tp.constant dense<[true, false, true]> : tensor<3xi1>
  %z = tp.constant dense<[-0.0, 0.0, -1.0, 2.0]> : tensor<4xf32>
  %u = tp.constant dense<[0, 255, 200]> : tensor<3xui8>
  %0 = tp.add.Scalar %x {other = true} : tensor<3xi64> -> tensor<3xi64>
  %1 = tp.div.Scalar %x {other = true, rounding_mode = #tp.rounding_mode<floor>} : tensor<3xi64> -> tensor<3xi64>
  %2 = tp.masked_fill.Scalar %b, %b {value = -5.000000e-01 : f64} : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %3 = tp.clamp %x {min = 1152921504606846977 : i64} : tensor<3xi64> -> tensor<3xi64>
  %4 = tp.clamp %z {min = 0.0 : f64} : tensor<4xf32> -> tensor<4xf32>
  %5 = tp.fmod.Scalar %u {other = -2 : i64} : tensor<3xui8> -> tensor<3xui8>
  return %0, %1, %2, %3, %4, %5 : tensor<3xi64>, tensor<3xi64>, tensor<3xi1>, tensor<3xi64>, tensor<4xf32>, tensor<3xui8>
}
