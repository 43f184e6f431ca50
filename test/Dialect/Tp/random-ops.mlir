// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s
// RUN: stax-opt %s --cse | FileCheck %s --check-prefix=CSE

// Counter-based random ops: the state [seed, offset] is an operand and
// `counter` is the op's position (in Philox blocks) in the function's stream.
// Verifier diagnostics: random-ops-invalid.mlir.

// CHECK-LABEL: func.func @random
// CSE-LABEL: func.func @random
func.func @random(%x: tensor<4x3xf32>, %h: tensor<5xf16>, %d: tensor<3xf64>,
                  %state: tensor<2xi64> {tp.rng_state})
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<5xbf16>, tensor<3xf64>,
        tensor<4x3xf32>, tensor<5xf16>, tensor<4x3xf32>, tensor<4x3xi1>,
        tensor<4x3xf32>, tensor<4x3xf32>) {
  // CHECK: tp.rand %{{.*}} {counter = 0 : i64} : tensor<2xi64> -> tensor<4x3xf32>
  %0 = tp.rand %state {counter = 0 : i64} : tensor<2xi64> -> tensor<4x3xf32>
  // CHECK: tp.randn %{{.*}} {counter = 3 : i64} : tensor<2xi64> -> tensor<4x3xf32>
  %1 = tp.randn %state {counter = 3 : i64} : tensor<2xi64> -> tensor<4x3xf32>
  // CHECK: tp.rand %{{.*}} {counter = 6 : i64} : tensor<2xi64> -> tensor<5xbf16>
  %2 = tp.rand %state {counter = 6 : i64} : tensor<2xi64> -> tensor<5xbf16>
  // CHECK: tp.randn %{{.*}} {counter = 8 : i64} : tensor<2xi64> -> tensor<3xf64>
  %3 = tp.randn %state {counter = 8 : i64} : tensor<2xi64> -> tensor<3xf64>
  // CHECK: tp.bernoulli %{{.*}}, %{{.*}} {counter = 10 : i64, p = 2.500000e-01 : f64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  %4 = tp.bernoulli %x, %state {counter = 10 : i64, p = 0.25 : f64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  // Probabilities from the operand when `p` is absent.
  // CHECK: tp.bernoulli %{{.*}}, %{{.*}} {counter = 13 : i64} : (tensor<5xf16>, tensor<2xi64>) -> tensor<5xf16>
  %5 = tp.bernoulli %h, %state {counter = 13 : i64} : (tensor<5xf16>, tensor<2xi64>) -> tensor<5xf16>
  // CHECK: tp.dropout_seeded %{{.*}}, %{{.*}} {counter = 15 : i64, p = 5.000000e-01 : f64} : (tensor<4x3xf32>, tensor<2xi64>) -> (tensor<4x3xf32>, tensor<4x3xi1>)
  %6:2 = tp.dropout_seeded %x, %state {counter = 15 : i64, p = 0.5 : f64} : (tensor<4x3xf32>, tensor<2xi64>) -> (tensor<4x3xf32>, tensor<4x3xi1>)
  // A recomputation (same state and counter) draws the same numbers, so CSE
  // may merge it; a different counter is a different draw.
  // CSE: %[[R:.*]] = tp.rand %{{.*}} {counter = 0 : i64}
  // CSE-NOT: tp.rand %{{.*}} {counter = 0 : i64}
  // CSE: %[[S:.*]] = tp.rand %{{.*}} {counter = 18 : i64}
  // CSE: return %[[R]], {{.*}}, %[[R]], %[[S]] :
  %7 = tp.rand %state {counter = 0 : i64} : tensor<2xi64> -> tensor<4x3xf32>
  %8 = tp.rand %state {counter = 18 : i64} : tensor<2xi64> -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5, %6#0, %6#1, %7, %8
      : tensor<4x3xf32>, tensor<4x3xf32>, tensor<5xbf16>, tensor<3xf64>,
        tensor<4x3xf32>, tensor<5xf16>, tensor<4x3xf32>, tensor<4x3xi1>,
        tensor<4x3xf32>, tensor<4x3xf32>
}

// A constant state works as well as an argument.
// CHECK-LABEL: func.func @constant_state
func.func @constant_state() -> tensor<2x2xf32> {
  %s = tp.constant dense<[42, 7]> : tensor<2xi64>
  // CHECK: tp.randn %{{.*}} {counter = 0 : i64} : tensor<2xi64> -> tensor<2x2xf32>
  %0 = tp.randn %s {counter = 0 : i64} : tensor<2xi64> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
