// RUN: stax-opt --stax-lowering-pipeline %s | stax-opt --stax-to-loops | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline="target=cuda" %s | stax-opt --stax-to-loops="target=cuda" | FileCheck %s --check-prefix=CUDA

// Integer division by a tensor: x86 traps on a zero divisor and on
// INT_MIN / -1, so the compiled body checks the divisor: zero calls the
// runtime's error (PyTorch's ZeroDivisionError; the GPU traps with the
// message), and both divide by 1 instead; by -1 the quotient is -x,
// wrapping. Such bodies keep the scalar loop. A constant divisor other
// than 0 and -1 needs no check and vectorizes.

// CHECK: module attributes {stax.error_sites = ["arith.divsi at
// CHECK-LABEL: func.func @by_tensor(
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load %arg0
// CHECK: %[[D:.*]] = memref.load %arg1
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[D]], %c0_i32
// CHECK: scf.if %[[ZERO]] {
// CHECK-NEXT: %[[SITE:.*]] = arith.constant 0 : i64
// CHECK-NEXT: func.call @stax_rt_division_error(%[[SITE]])
// CHECK: %[[M1:.*]] = arith.cmpi eq, %[[D]], %c-1_i32
// CHECK: %[[BAD:.*]] = arith.ori %[[ZERO]], %[[M1]]
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %c1_i32, %[[D]]
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[SAFE]]
// CHECK: %[[NEG:.*]] = arith.subi %c0_i32, %[[X]]
// CHECK: arith.select %[[M1]], %[[NEG]], %[[Q]]
// CHECK-NOT: vector
// CHECK-LABEL: func.func @by_constant(
// CHECK: arith.divsi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK-NOT: stax_rt_division_error(
// CHECK: func.func private @stax_rt_division_error(i64)

// CUDA-LABEL: func.func @by_tensor(
// CUDA: cf.assert %{{.*}}, "integer division by zero in arith.divsi at
// CUDA: arith.divsi
func.func @by_tensor(%x: tensor<64xi32>, %y: tensor<64xi32>) -> tensor<64xi32> {
  %0 = tp.div %x, %y {rounding_mode = #tp.rounding_mode<trunc>} : tensor<64xi32>, tensor<64xi32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}

func.func @by_constant(%x: tensor<64xi32>) -> tensor<64xi32> {
  %0 = tp.div.Scalar %x {other = 3 : i64, rounding_mode = #tp.rounding_mode<trunc>} : tensor<64xi32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
