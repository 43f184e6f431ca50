// RUN: stax-opt --stax-lower --stax-to-loops="target=cuda" %s -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=CHECK-CUDA

// On CUDA a stax.special_function calls libdevice's twin through an
// llvm.func: convert-gpu-to-nvvm would give a func.func a C-interface
// wrapper (_mlir_ciface_<name>), which libdevice does not define.

// libdevice's names: lgamma, erfinv, normcdfinv (ndtri), erfcx, nextafter,
// with an `f` suffix for f32.
// CHECK-CUDA-LABEL: func.func @libdevice
// CHECK-CUDA-DAG: llvm.call @__nv_lgammaf(%{{.*}}) : (f32) -> f32
// CHECK-CUDA-DAG: llvm.call @__nv_erfinv(%{{.*}}) : (f64) -> f64
// CHECK-CUDA-DAG: llvm.call @__nv_normcdfinvf(%{{.*}}) : (f32) -> f32
// CHECK-CUDA-DAG: llvm.call @__nv_erfcx(%{{.*}}) : (f64) -> f64
// CHECK-CUDA-DAG: llvm.call @__nv_nextafterf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-CUDA-DAG: llvm.func @__nv_erfinv(f64) -> f64
// CHECK-CUDA-DAG: llvm.func @__nv_normcdfinvf(f32) -> f32
// CHECK-CUDA-DAG: llvm.func @__nv_erfcx(f64) -> f64
// CHECK-CUDA-DAG: llvm.func @__nv_nextafterf(f32, f32) -> f32
func.func @libdevice(%x: tensor<64xf32>, %y: tensor<64xf64>)
    -> (tensor<64xf64>, tensor<64xf32>, tensor<64xf64>, tensor<64xf32>) {
  %0 = tp.erfinv %y : tensor<64xf64> -> tensor<64xf64>
  %l = tp.lgamma %x : tensor<64xf32> -> tensor<64xf32>
  %1 = tp.special_ndtri %l : tensor<64xf32> -> tensor<64xf32>
  %2 = tp.special_erfcx %y : tensor<64xf64> -> tensor<64xf64>
  %3 = tp.nextafter %x, %1 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %0, %1, %2, %3 : tensor<64xf64>, tensor<64xf32>, tensor<64xf64>, tensor<64xf32>
}

// -----

// libdevice has no digamma, polygamma or frexp: one error naming the
// function (the CPU target compiles them).
func.func @no_libdevice(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'digamma' has no CUDA code generation (libdevice lacks it; use the cpu target)}}
  %0 = tp.digamma %x : tensor<64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
