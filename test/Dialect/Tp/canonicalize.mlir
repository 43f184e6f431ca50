// RUN: stax-opt %s -canonicalize -split-input-file | FileCheck %s

// Folds are limited to rewrites whose results are bitwise identical.

// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>)
// CHECK-NEXT: %[[D:.*]] = tp.detach %[[X]]
// CHECK-NEXT: return %[[D]], %[[D]], %[[D]], %[[D]]
func.func @identities(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = tp.clone %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %1 = tp.detach %0 : tensor<4x3xf32> -> tensor<4x3xf32>
  %2 = tp.mul.Scalar %1 {other = 1 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %3 = tp.div.Scalar %2 {other = 1.0 : f64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %4 = tp.view %3 {size = array<i64: 4, 3>} : tensor<4x3xf32> -> tensor<4x3xf32>
  %5 = tp.expand %4 {size = array<i64: 4, 3>} : tensor<4x3xf32> -> tensor<4x3xf32>
  %6 = tp.permute %5 {dims = array<i64: 0, 1>} : tensor<4x3xf32> -> tensor<4x3xf32>
  %7 = tp.t %6 : tensor<4x3xf32> -> tensor<3x4xf32>
  %8 = tp.t %7 : tensor<3x4xf32> -> tensor<4x3xf32>
  %9 = tp.alias %8 : tensor<4x3xf32> -> tensor<4x3xf32>
  return %9, %1, %3, %6 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Not folded: x + 0 changes -0.0 to +0.0; x * 1 that changes the dtype;
// x * 2.
// CHECK-LABEL: func.func @kept
// CHECK: tp.add.Scalar
// CHECK: tp.mul.Scalar %{{.*}} {other = 1.000000e+00 : f64} : tensor<4xi32> -> tensor<4xf32>
// CHECK: tp.mul.Scalar %{{.*}} {other = 2 : i64}
func.func @kept(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = tp.add.Scalar %x {other = 0 : i64} : tensor<4xf32> -> tensor<4xf32>
  %1 = tp.mul.Scalar %i {other = 1.0 : f64} : tensor<4xi32> -> tensor<4xf32>
  %2 = tp.mul.Scalar %x {other = 2 : i64} : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A clone whose copy or original is mutated in place stays a copy: folding
// it would make the mutation visible through both names.
// CHECK-LABEL: func.func @mutated_clone
// CHECK: %[[C:.*]] = tp.clone %arg0
// CHECK: tp.mul_.Scalar %[[C]]
func.func @mutated_clone(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = tp.clone %x : tensor<4xf32> -> tensor<4xf32>
  %m = "tp.mul_.Scalar"(%c) <{other = 2 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  return %x, %m : tensor<4xf32>, tensor<4xf32>
}
