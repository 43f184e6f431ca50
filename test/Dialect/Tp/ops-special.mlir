// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s

// The special functions (TpSpecialOps.td): integers promote to the default
// float type, nextafter broadcasts and promotes like the binary ops, frexp
// gives the mantissa in self's type and an i32 exponent.
// CHECK-LABEL: func.func @special
func.func @special(%x: tensor<4x3xf32>, %d: tensor<3xf64>, %i: tensor<4xi64>,
                   %h: tensor<2xbf16>, %s: tensor<f64>) {
  // CHECK: tp.lgamma %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %0 = tp.lgamma %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.lgamma %{{.*}} : tensor<4xi64> -> tensor<4xf32>
  %1 = tp.lgamma %i : tensor<4xi64> -> tensor<4xf32>
  // CHECK: tp.digamma %{{.*}} : tensor<3xf64> -> tensor<3xf64>
  %2 = tp.digamma %d : tensor<3xf64> -> tensor<3xf64>
  // CHECK: tp.polygamma %{{.*}} {n = 0 : i64} : tensor<4xi64> -> tensor<4xf32>
  %3 = tp.polygamma %i {n = 0 : i64} : tensor<4xi64> -> tensor<4xf32>
  // CHECK: tp.polygamma %{{.*}} {n = 3 : i64} : tensor<2xbf16> -> tensor<2xbf16>
  %4 = tp.polygamma %h {n = 3 : i64} : tensor<2xbf16> -> tensor<2xbf16>
  // CHECK: tp.erfinv %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>
  %5 = tp.erfinv %x : tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: tp.special_ndtri %{{.*}} : tensor<3xf64> -> tensor<3xf64>
  %6 = tp.special_ndtri %d : tensor<3xf64> -> tensor<3xf64>
  // CHECK: tp.special_erfcx %{{.*}} : tensor<4xi64> -> tensor<4xf32>
  %7 = tp.special_erfcx %i : tensor<4xi64> -> tensor<4xf32>
  // A 0-d f64 operand does not widen a dimensioned f32 one.
  // CHECK: tp.nextafter %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<f64> -> tensor<4x3xf32>
  %8 = tp.nextafter %x, %s : tensor<4x3xf32>, tensor<f64> -> tensor<4x3xf32>
  // CHECK: tp.nextafter %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf64> -> tensor<4x3xf64>
  %9 = tp.nextafter %x, %d : tensor<4x3xf32>, tensor<3xf64> -> tensor<4x3xf64>
  // CHECK: %{{.*}}, %{{.*}} = tp.frexp %{{.*}} : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi32>
  %10:2 = tp.frexp %x : tensor<4x3xf32> -> tensor<4x3xf32>, tensor<4x3xi32>
  // CHECK: tp.frexp %{{.*}} : tensor<2xbf16> -> tensor<2xbf16>, tensor<2xi32>
  %11:2 = tp.frexp %h : tensor<2xbf16> -> tensor<2xbf16>, tensor<2xi32>
  return
}
