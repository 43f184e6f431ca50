// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// tp.sort: values of self's type and int64 indices of self's shape; dim may
// be negative, descending defaults to false (and is then not printed).
// CHECK-LABEL: func.func @sort
func.func @sort(%x: tensor<4x3x2xf32>, %i: tensor<5xi32>, %b: tensor<2x3xi1>,
                %s: tensor<f64>, %e: tensor<0x3xf16>) {
  // CHECK: %{{.*}}, %{{.*}} = tp.sort %{{.*}} {dim = 1 : i64} : tensor<4x3x2xf32> -> tensor<4x3x2xf32>, tensor<4x3x2xi64>
  %0:2 = tp.sort %x {dim = 1 : i64} : tensor<4x3x2xf32> -> tensor<4x3x2xf32>, tensor<4x3x2xi64>
  // CHECK: tp.sort %{{.*}} {descending = true, dim = -1 : i64} : tensor<4x3x2xf32> -> tensor<4x3x2xf32>, tensor<4x3x2xi64>
  %1:2 = tp.sort %x {dim = -1 : i64, descending = true} : tensor<4x3x2xf32> -> tensor<4x3x2xf32>, tensor<4x3x2xi64>
  // CHECK: tp.sort %{{.*}} {dim = 0 : i64} : tensor<5xi32> -> tensor<5xi32>, tensor<5xi64>
  %2:2 = tp.sort %i {dim = 0 : i64, descending = false} : tensor<5xi32> -> tensor<5xi32>, tensor<5xi64>
  // CHECK: tp.sort %{{.*}} {dim = -2 : i64} : tensor<2x3xi1> -> tensor<2x3xi1>, tensor<2x3xi64>
  %3:2 = tp.sort %b {dim = -2 : i64} : tensor<2x3xi1> -> tensor<2x3xi1>, tensor<2x3xi64>
  // A 0-d tensor takes dim 0 or -1.
  // CHECK: tp.sort %{{.*}} {dim = 0 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  %4:2 = tp.sort %s {dim = 0 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  // CHECK: tp.sort %{{.*}} {dim = -1 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  %5:2 = tp.sort %s {dim = -1 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  // CHECK: tp.sort %{{.*}} {dim = 0 : i64} : tensor<0x3xf16> -> tensor<0x3xf16>, tensor<0x3xi64>
  %6:2 = tp.sort %e {dim = 0 : i64} : tensor<0x3xf16> -> tensor<0x3xf16>, tensor<0x3xi64>
  return
}

// GENERIC: "tp.sort"(%{{.*}}) <{descending = true, dim = -1 : i64}> : (tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xi64>)
