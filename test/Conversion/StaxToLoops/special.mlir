// RUN: stax-opt --stax-lower --stax-to-loops %s | FileCheck %s

// A stax.special_function becomes a call of the runtime's
// stax_rt_<kind>_<type> (polygamma's order first, as an i64), declared once
// per module; the loop stays scalar (no vector ops: one call per element).
// (CUDA: special-cuda.mlir.)
// CHECK-LABEL: func.func @calls
// CHECK-NOT: vector.
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load
// CHECK: func.call @stax_rt_lgamma_f32(%[[X]]) : (f32) -> f32
// CHECK: %[[N:.*]] = arith.constant 3 : i64
// CHECK: func.call @stax_rt_polygamma_f64(%[[N]], %{{.*}}) : (i64, f64) -> f64
// CHECK: func.call @stax_rt_nextafter_f32(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: func.call @stax_rt_frexp_mantissa_f64(%{{.*}}) : (f64) -> f64
// CHECK: func.call @stax_rt_frexp_exponent_f64(%{{.*}}) : (f64) -> i32
// CHECK: func.call @stax_rt_lgamma_f32
func.func @calls(%x: tensor<64xf32>, %y: tensor<64xf64>)
    -> (tensor<64xf32>, tensor<64xf64>, tensor<64xf32>, tensor<64xf64>, tensor<64xi32>, tensor<64xf32>) {
  %0 = tp.lgamma %x : tensor<64xf32> -> tensor<64xf32>
  %1 = tp.polygamma %y {n = 3 : i64} : tensor<64xf64> -> tensor<64xf64>
  %2 = tp.nextafter %x, %0 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  %m, %e = tp.frexp %y : tensor<64xf64> -> tensor<64xf64>, tensor<64xi32>
  %3 = tp.lgamma %0 : tensor<64xf32> -> tensor<64xf32>
  return %0, %1, %2, %m, %e, %3 : tensor<64xf32>, tensor<64xf64>, tensor<64xf32>, tensor<64xf64>, tensor<64xi32>, tensor<64xf32>
}


// Every other kind, by name.
// CHECK-LABEL: func.func @libdevice
// CHECK-DAG: func.call @stax_rt_erfinv_f64
// CHECK-DAG: func.call @stax_rt_ndtri_f32
// CHECK-DAG: func.call @stax_rt_erfcx_f64
// CHECK-DAG: func.call @stax_rt_nextafter_f32
func.func @libdevice(%x: tensor<64xf32>, %y: tensor<64xf64>)
    -> (tensor<64xf64>, tensor<64xf32>, tensor<64xf64>, tensor<64xf32>) {
  %0 = tp.erfinv %y : tensor<64xf64> -> tensor<64xf64>
  %1 = tp.special_ndtri %x : tensor<64xf32> -> tensor<64xf32>
  %2 = tp.special_erfcx %y : tensor<64xf64> -> tensor<64xf64>
  %3 = tp.nextafter %x, %1 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %0, %1, %2, %3 : tensor<64xf64>, tensor<64xf32>, tensor<64xf64>, tensor<64xf32>
}

// Each runtime function is declared once, after the functions.
// CHECK-DAG: func.func private @stax_rt_lgamma_f32(f32) -> f32
// CHECK-DAG: func.func private @stax_rt_polygamma_f64(i64, f64) -> f64
// CHECK-DAG: func.func private @stax_rt_nextafter_f32(f32, f32) -> f32
// CHECK-DAG: func.func private @stax_rt_frexp_mantissa_f64(f64) -> f64
// CHECK-DAG: func.func private @stax_rt_frexp_exponent_f64(f64) -> i32
// CHECK-DAG: func.func private @stax_rt_erfinv_f64(f64) -> f64
// CHECK-DAG: func.func private @stax_rt_ndtri_f32(f32) -> f32
