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

// tp.topk: dim keeps its place with size k; largest and sorted default to
// true (and are then not printed). A 0-d tensor (k 0 or 1) stays 0-d.
// CHECK-LABEL: func.func @topk
func.func @topk(%x: tensor<4x30xf32>, %i: tensor<6x2xi32>, %s: tensor<f64>) {
  // CHECK: tp.topk %{{.*}} {dim = -1 : i64, k = 3 : i64} : tensor<4x30xf32> -> tensor<4x3xf32>, tensor<4x3xi64>
  %0:2 = tp.topk %x {k = 3 : i64, dim = -1 : i64} : tensor<4x30xf32> -> tensor<4x3xf32>, tensor<4x3xi64>
  // CHECK: tp.topk %{{.*}} {dim = 0 : i64, k = 6 : i64, largest = false, sorted = false} : tensor<6x2xi32> -> tensor<6x2xi32>, tensor<6x2xi64>
  %1:2 = tp.topk %i {k = 6 : i64, dim = 0 : i64, largest = false, sorted = false} : tensor<6x2xi32> -> tensor<6x2xi32>, tensor<6x2xi64>
  // CHECK: tp.topk %{{.*}} {dim = 1 : i64, k = 0 : i64} : tensor<4x30xf32> -> tensor<4x0xf32>, tensor<4x0xi64>
  %2:2 = tp.topk %x {k = 0 : i64, dim = 1 : i64} : tensor<4x30xf32> -> tensor<4x0xf32>, tensor<4x0xi64>
  // CHECK: tp.topk %{{.*}} {dim = 0 : i64, k = 1 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  %3:2 = tp.topk %s {k = 1 : i64, dim = 0 : i64} : tensor<f64> -> tensor<f64>, tensor<i64>
  return
}
