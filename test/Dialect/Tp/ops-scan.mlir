// RUN: stax-opt %s | FileCheck %s
// RUN: stax-opt %s | stax-opt | FileCheck %s

// The scans (TpScanOps.td) round-trip; `reverse` is printed only when set,
// the dim as written (negative dims are normalized by their users).
// CHECK-LABEL: func.func @scans
// CHECK: tp.cumsum %{{.*}} {dim = 1 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
// CHECK: tp.cumsum %{{.*}} {dim = -2 : i64, reverse = true} : tensor<4x5xi32> -> tensor<4x5xi32>
// CHECK: tp.logcumsumexp %{{.*}} {dim = 0 : i64} : tensor<4x5xf64> -> tensor<4x5xf64>
// CHECK: tp.cumprod %{{.*}} {dim = 0 : i64, reverse = true} : tensor<4x5xf64> -> tensor<4x5xf64>
// CHECK: tp.cummax %{{.*}} {dim = 1 : i64} : tensor<4x5xi1> -> tensor<4x5xi1>, tensor<4x5xi64>
// CHECK: tp.cummin %{{.*}} {dim = -1 : i64, reverse = true} : tensor<f32> -> tensor<f32>, tensor<i64>
func.func @scans(%x: tensor<4x5xf32>, %i: tensor<4x5xi32>, %d: tensor<4x5xf64>,
                 %b: tensor<4x5xi1>, %s: tensor<f32>) {
  %0 = tp.cumsum %x {dim = 1 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  %1 = tp.cumsum %i {dim = -2 : i64, reverse = true} : tensor<4x5xi32> -> tensor<4x5xi32>
  %2 = tp.logcumsumexp %d {dim = 0 : i64, reverse = false} : tensor<4x5xf64> -> tensor<4x5xf64>
  %5 = tp.cumprod %d {dim = 0 : i64, reverse = true} : tensor<4x5xf64> -> tensor<4x5xf64>
  %3:2 = tp.cummax %b {dim = 1 : i64} : tensor<4x5xi1> -> tensor<4x5xi1>, tensor<4x5xi64>
  %4:2 = tp.cummin %s {dim = -1 : i64, reverse = true} : tensor<f32> -> tensor<f32>, tensor<i64>
  return
}
