// RUN: stax-opt %s -split-input-file | stax-opt -split-input-file | FileCheck %s
// RUN: stax-opt %s -split-input-file --mlir-print-op-generic | stax-opt -split-input-file | FileCheck %s

// stax.special_function: the kind as a keyword, polygamma's order as `n`.
// CHECK-LABEL: func.func @kinds
func.func @kinds(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf64>, tensor<4xi32>) {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %v = stax.load %x[%i] : tensor<4xf32>
    // CHECK: stax.special_function lgamma(%{{.*}}) : (f32) -> f32
    %a = stax.special_function lgamma(%v) : (f32) -> f32
    // CHECK: stax.special_function digamma(%{{.*}}) : (f32) -> f32
    %b = stax.special_function digamma(%a) : (f32) -> f32
    // CHECK: stax.special_function polygamma(%{{.*}}) {n = 2 : i64} : (f32) -> f32
    %c = stax.special_function polygamma(%b) {n = 2 : i64} : (f32) -> f32
    // CHECK: stax.special_function erfinv(%{{.*}}) : (f32) -> f32
    %d = stax.special_function erfinv(%c) : (f32) -> f32
    // CHECK: stax.special_function nextafter(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
    %e = stax.special_function nextafter(%d, %v) : (f32, f32) -> f32
    stax.yield %e : f32
  }
  %q = stax.pointwise layout <[1]> : tensor<4xf64> {
  ^bb0(%i: index):
    %v = stax.load %y[%i] : tensor<4xf64>
    // CHECK: stax.special_function ndtri(%{{.*}}) : (f64) -> f64
    %a = stax.special_function ndtri(%v) : (f64) -> f64
    // CHECK: stax.special_function erfcx(%{{.*}}) : (f64) -> f64
    %b = stax.special_function erfcx(%a) : (f64) -> f64
    // CHECK: stax.special_function frexp_mantissa(%{{.*}}) : (f64) -> f64
    %c = stax.special_function frexp_mantissa(%b) : (f64) -> f64
    stax.yield %c : f64
  }
  %r = stax.pointwise layout <[1]> : tensor<4xi32> {
  ^bb0(%i: index):
    %v = stax.load %y[%i] : tensor<4xf64>
    // CHECK: stax.special_function frexp_exponent(%{{.*}}) : (f64) -> i32
    %e = stax.special_function frexp_exponent(%v) : (f64) -> i32
    stax.yield %e : i32
  }
  return %p, %q, %r : tensor<4xf32>, tensor<4xf64>, tensor<4xi32>
}
