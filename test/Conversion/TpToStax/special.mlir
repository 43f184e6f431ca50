// RUN: stax-opt %s --stax-lower | FileCheck %s

// The special functions lower to one stax.special_function each, computed
// in computeType (f16 widens to f32 and rounds once on store, integers
// convert to the default float type), as their interpreter kernels do;
// nextafter steps in the result type (its operands converted to it), frexp
// gives two nodes of one input.
func.func @lower(%x: tensor<4xf16>, %i: tensor<4xi64>, %a: tensor<4xf32>, %b: tensor<f64>)
    -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf16>, tensor<4xi32>) {
  %0 = tp.lgamma %x : tensor<4xf16> -> tensor<4xf16>
  %1 = tp.polygamma %i {n = 2 : i64} : tensor<4xi64> -> tensor<4xf32>
  %2 = tp.nextafter %a, %b : tensor<4xf32>, tensor<f64> -> tensor<4xf32>
  %3 = tp.special_erfcx %b : tensor<f64> -> tensor<f64>
  %4 = tp.expand %3 {size = array<i64: 4>} : tensor<f64> -> tensor<4xf64>
  %m, %e = tp.frexp %x : tensor<4xf16> -> tensor<4xf16>, tensor<4xi32>
  return %0, %1, %2, %4, %m, %e : tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>, tensor<4xf16>, tensor<4xi32>
}
// CHECK-LABEL: func.func @lower
// CHECK: stax.pointwise layout <[1]> : tensor<4xf16>
// CHECK:   %[[L:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:   %[[G:.*]] = stax.special_function lgamma(%[[L]]) : (f32) -> f32
// CHECK:   %[[T:.*]] = arith.truncf %[[G]] : f32 to f16
// CHECK:   stax.yield %[[T]] : f16
// CHECK: stax.pointwise layout <[1]> : tensor<4xf32>
// CHECK:   %[[I:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK:   %[[P:.*]] = stax.special_function polygamma(%[[I]]) {n = 2 : i64} : (f32) -> f32
// CHECK:   stax.yield %[[P]] : f32
// CHECK: stax.pointwise layout <[1]> : tensor<4xf32>
// CHECK:   %[[A:.*]] = stax.load %arg2
// CHECK:   %[[B:.*]] = stax.load %arg3
// CHECK:   %[[B32:.*]] = arith.truncf %[[B]] : f64 to f32
// CHECK:   stax.special_function nextafter(%[[A]], %[[B32]]) : (f32, f32) -> f32
// CHECK: stax.pointwise layout <[1]> : tensor<4xf64>
// CHECK:   stax.special_function erfcx(%{{.*}}) : (f64) -> f64
// CHECK: stax.pointwise layout <[1]> : tensor<4xf16>
// CHECK:   stax.special_function frexp_mantissa(%{{.*}}) : (f32) -> f32
// CHECK: stax.pointwise layout <[1]> : tensor<4xi32>
// CHECK:   %[[E:.*]] = stax.special_function frexp_exponent(%{{.*}}) : (f32) -> i32
// CHECK:   stax.yield %[[E]] : i32
// CHECK-NOT: tp.

// nextafter of a half type has no lowering (one step of bf16 is not one of
// f32, and the runtime has no half entry point): it stays a tp op.
// CHECK-LABEL: func.func @half_nextafter
// CHECK: tp.nextafter
func.func @half_nextafter(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tp.nextafter %a, %b : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
