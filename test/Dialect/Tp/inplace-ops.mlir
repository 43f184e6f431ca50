// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s
// RUN: stax-opt %s --cse --canonicalize | FileCheck %s --check-prefix=KEEP

// Every in-place op round-trips; its result has self's type even where the
// computation promotes (an f32 tensor receives an f64 sum).

// CHECK-LABEL: func.func @arith
func.func @arith(%x: tensor<4x3xf32>, %y: tensor<3xf32>, %d: tensor<4x3xf64>,
                 %i: tensor<4x3xi64>) {
  // CHECK: tp.add_ %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %0 = tp.add_ %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.add_ %{{.*}}, %{{.*}} {alpha = 2.500000e+00 : f64} : tensor<4x3xf32>, tensor<4x3xf64> -> tensor<4x3xf32>
  %1 = tp.add_ %x, %d {alpha = 2.5 : f64} : tensor<4x3xf32>, tensor<4x3xf64> -> tensor<4x3xf32>
  // CHECK: tp.sub_
  %2 = tp.sub_ %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.mul_ %{{.*}}, %{{.*}} : tensor<4x3xi64>, tensor<4x3xi64> -> tensor<4x3xi64>
  %3 = tp.mul_ %i, %i : tensor<4x3xi64>, tensor<4x3xi64> -> tensor<4x3xi64>
  // CHECK: tp.div_ %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %4 = tp.div_ %x, %y : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: tp.div_ %{{.*}}, %{{.*}} {rounding_mode = #tp.rounding_mode<floor>} : tensor<4x3xi64>, tensor<4x3xi64> -> tensor<4x3xi64>
  %5 = tp.div_ %i, %i {rounding_mode = #tp.rounding_mode<floor>} : tensor<4x3xi64>, tensor<4x3xi64> -> tensor<4x3xi64>
  // CHECK: tp.add_.Scalar %{{.*}} {alpha = 2 : i64, other = 1 : i64} : tensor<4x3xi64> -> tensor<4x3xi64>
  %6 = tp.add_.Scalar %i {other = 1 : i64, alpha = 2 : i64} : tensor<4x3xi64> -> tensor<4x3xi64>
  // CHECK: tp.sub_.Scalar %{{.*}} {other = 1.500000e+00 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %7 = tp.sub_.Scalar %x {other = 1.5 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.mul_.Scalar %{{.*}} {other = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %8 = tp.mul_.Scalar %x {other = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.div_.Scalar %{{.*}} {other = 2 : i64, rounding_mode = #tp.rounding_mode<trunc>} : tensor<4x3xi64> -> tensor<4x3xi64>
  %9 = tp.div_.Scalar %i {other = 2 : i64, rounding_mode = #tp.rounding_mode<trunc>} : tensor<4x3xi64> -> tensor<4x3xi64>
  return
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4x3xf32>, %i: tensor<4x3xi64>) {
  // CHECK: tp.neg_ %{{.*}} : tensor<4x3xi64> -> tensor<4x3xi64>
  %0 = tp.neg_ %i : tensor<4x3xi64> -> tensor<4x3xi64>
  // CHECK: tp.relu_ %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %1 = tp.relu_ %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.sigmoid_
  %2 = tp.sigmoid_ %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.tanh_
  %3 = tp.tanh_ %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.clamp_ %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %4 = tp.clamp_ %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.clamp_ %{{.*}} {min = 0 : i64} : tensor<4x3xi64> -> tensor<4x3xi64>
  %5 = tp.clamp_ %i {min = 0 : i64} : tensor<4x3xi64> -> tensor<4x3xi64>
  return
}

// CHECK-LABEL: func.func @writes
func.func @writes(%x: tensor<4x3xf32>, %src: tensor<3xf64>, %m: tensor<4x1xi1>,
                  %idx: tensor<2xi64>, %v: tensor<2x3xf32>) {
  // CHECK: tp.copy_ %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf64> -> tensor<4x3xf32>
  %0 = tp.copy_ %x, %src : tensor<4x3xf32>, tensor<3xf64> -> tensor<4x3xf32>
  // CHECK: tp.fill_.Scalar %{{.*}} {value = 7 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %1 = tp.fill_.Scalar %x {value = 7 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.zero_ %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %2 = tp.zero_ %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.masked_fill_.Scalar %{{.*}}, %{{.*}} {value = -1.000000e+00 : f64} : (tensor<4x3xf32>, tensor<4x1xi1>) -> tensor<4x3xf32>
  %3 = tp.masked_fill_.Scalar %x, %m {value = -1.0 : f64} : (tensor<4x3xf32>, tensor<4x1xi1>) -> tensor<4x3xf32>
  // CHECK: tp.index_put_ %{{.*}}[%{{.*}}], %{{.*}} {accumulate = true, dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %4 = tp.index_put_ %x[%idx], %v {dims = array<i64: 0>, accumulate = true} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// In-place ops have unknown side effects: CSE does not merge them and
// canonicalization does not erase them although their results are unused.
// KEEP-LABEL: func.func @not_pure
// KEEP-COUNT-2: tp.add_.Scalar
// KEEP: tp.zero_
func.func @not_pure(%x: tensor<4xf32>) {
  %0 = tp.add_.Scalar %x {other = 1 : i64} : tensor<4xf32> -> tensor<4xf32>
  %1 = tp.add_.Scalar %x {other = 1 : i64} : tensor<4xf32> -> tensor<4xf32>
  %2 = tp.zero_ %x : tensor<4xf32> -> tensor<4xf32>
  return
}
