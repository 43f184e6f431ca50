// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x3x2xf32>, %i: tensor<4x3xi32>, %b: tensor<4x3xi1>) {
  // CHECK: tp.sum %{{.*}} {dims = array<i64: -1>} : tensor<4x3x2xf32> -> tensor<4x3xf32>
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<4x3x2xf32> -> tensor<4x3xf32>
  // Empty dims reduce everything; keepdim keeps size-1 dims.
  // CHECK: tp.sum %{{.*}} {dims = array<i64>} : tensor<4x3x2xf32> -> tensor<f32>
  %1 = tp.sum %x {dims = array<i64>} : tensor<4x3x2xf32> -> tensor<f32>
  // CHECK: tp.sum %{{.*}} {dims = array<i64: 0, 2>, keepdim = true} : tensor<4x3x2xf32> -> tensor<1x3x1xf32>
  %2 = tp.sum %x {dims = array<i64: 0, 2>, keepdim = true} : tensor<4x3x2xf32> -> tensor<1x3x1xf32>
  // Integers accumulate in i64 unless a dtype is given.
  // CHECK: tp.sum %{{.*}} {dims = array<i64: 1>} : tensor<4x3xi32> -> tensor<4xi64>
  %3 = tp.sum %i {dims = array<i64: 1>} : tensor<4x3xi32> -> tensor<4xi64>
  // CHECK: tp.sum %{{.*}} {dims = array<i64: 1>, dtype = f32} : tensor<4x3xi32> -> tensor<4xf32>
  %4 = tp.sum %i {dims = array<i64: 1>, dtype = f32} : tensor<4x3xi32> -> tensor<4xf32>
  // CHECK: tp.prod
  %5 = tp.prod %x {dims = array<i64: 1>} : tensor<4x3x2xf32> -> tensor<4x2xf32>
  // CHECK: tp.mean
  %6 = tp.mean %x {dims = array<i64: 1>} : tensor<4x3x2xf32> -> tensor<4x2xf32>
  // CHECK: tp.amax
  %7 = tp.amax %x {dims = array<i64: 1>} : tensor<4x3x2xf32> -> tensor<4x2xf32>
  // CHECK: tp.amin
  %8 = tp.amin %x {dims = array<i64: 1>} : tensor<4x3x2xf32> -> tensor<4x2xf32>
  // CHECK: tp.logsumexp
  %9 = tp.logsumexp %x {dims = array<i64: 1>} : tensor<4x3x2xf32> -> tensor<4x2xf32>
  // CHECK: tp.any %{{.*}} : tensor<4x3xi1> -> tensor<3xi1>
  %10 = tp.any %b {dims = array<i64: 0>} : tensor<4x3xi1> -> tensor<3xi1>
  // CHECK: tp.all
  %11 = tp.all %b {dims = array<i64: 0>} : tensor<4x3xi1> -> tensor<3xi1>
  // CHECK: tp.var %{{.*}} {correction = 0.000000e+00 : f64, dims = array<i64: 2>}
  %12 = tp.var %x {dims = array<i64: 2>, correction = 0.0 : f64} : tensor<4x3x2xf32> -> tensor<4x3xf32>
  // CHECK: tp.max.dim %{{.*}} {dim = 1 : i64} : tensor<4x3x2xf32> -> tensor<4x2xf32>, tensor<4x2xi64>
  %13:2 = tp.max.dim %x {dim = 1 : i64} : tensor<4x3x2xf32> -> tensor<4x2xf32>, tensor<4x2xi64>
  // CHECK: tp.min.dim %{{.*}} {dim = 1 : i64, keepdim = true}
  %14:2 = tp.min.dim %x {dim = 1 : i64, keepdim = true} : tensor<4x3x2xf32> -> tensor<4x1x2xf32>, tensor<4x1x2xi64>
  // CHECK: tp.argmax %{{.*}} : tensor<4x3x2xf32> -> tensor<i64>
  %15 = tp.argmax %x : tensor<4x3x2xf32> -> tensor<i64>
  // CHECK: tp.argmin %{{.*}} {dim = -1 : i64} : tensor<4x3x2xf32> -> tensor<4x3xi64>
  %16 = tp.argmin %x {dim = -1 : i64} : tensor<4x3x2xf32> -> tensor<4x3xi64>
  return
}

// CHECK-LABEL: func.func @nn
func.func @nn(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %t: tensor<4xi64>, %g: tensor<f32>) {
  // CHECK: tp._softmax %{{.*}} {dim = 1 : i64}
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: tp._log_softmax
  %1 = tp._log_softmax %x {dim = -1 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: tp._softmax_backward_data %{{.*}}, %{{.*}} {dim = 1 : i64, input_dtype = f32}
  %2 = tp._softmax_backward_data %x, %0 {dim = 1 : i64, input_dtype = f32} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp._log_softmax_backward_data
  %3 = tp._log_softmax_backward_data %x, %1 {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.native_layer_norm %{{.*}} weight(%{{.*}}) bias(%{{.*}}) {eps = 1.000000e-05 : f64, normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  %4:3 = tp.native_layer_norm %x weight(%w) bias(%w) {normalized_shape = array<i64: 8>, eps = 1.0e-5 : f64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  // CHECK: tp.native_layer_norm %{{.*}} {eps
  %5:3 = tp.native_layer_norm %x {normalized_shape = array<i64: 8>, eps = 1.0e-5 : f64} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  // CHECK: tp.native_layer_norm_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} weight(%{{.*}})
  %6:3 = tp.native_layer_norm_backward %x, %x, %4#1, %4#2 weight(%w) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  // CHECK: tp.nll_loss_forward %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
  %7:2 = tp.nll_loss_forward %1, %t : (tensor<4x8xf32>, tensor<4xi64>) -> (tensor<f32>, tensor<f32>)
  // CHECK: tp.nll_loss_forward %{{.*}}, %{{.*}} weight(%{{.*}}) {reduction = #tp.reduction<none>}
  %8:2 = tp.nll_loss_forward %1, %t weight(%w) {reduction = #tp.reduction<none>} : (tensor<4x8xf32>, tensor<4xi64>, tensor<8xf32>) -> (tensor<4xf32>, tensor<f32>)
  // CHECK: tp.nll_loss_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = 1 : i64}
  %9 = tp.nll_loss_backward %g, %1, %t, %7#1 {ignore_index = 1 : i64} : (tensor<f32>, tensor<4x8xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x8xf32>
  // CHECK: tp.mse_loss %{{.*}}, %{{.*}} {reduction = #tp.reduction<sum>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  %10 = tp.mse_loss %x, %0 {reduction = #tp.reduction<sum>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  // CHECK: tp.mse_loss_backward
  %11 = tp.mse_loss_backward %g, %x, %0 : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.gelu_backward %{{.*}}, %{{.*}} {approximate = #tp.approximate<tanh>}
  %12 = tp.gelu_backward %x, %x {approximate = #tp.approximate<tanh>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.threshold_backward %{{.*}}, %{{.*}} {threshold = 0 : i64}
  %13 = tp.threshold_backward %x, %x {threshold = 0 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.tanh_backward
  %14 = tp.tanh_backward %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.sigmoid_backward
  %15 = tp.sigmoid_backward %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.silu_backward
  %16 = tp.silu_backward %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tp.native_dropout %{{.*}} {p = 0.000000e+00 : f64} : tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x8xi1>
  %17:2 = tp.native_dropout %x {p = 0.0 : f64} : tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x8xi1>
  // CHECK: tp.native_dropout_backward %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f64}
  %18 = tp.native_dropout_backward %x, %17#1 {scale = 1.0 : f64} : (tensor<4x8xf32>, tensor<4x8xi1>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @linalg
func.func @linalg(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %bias: tensor<5xf32>,
                  %p: tensor<2x4x8xf32>, %q: tensor<2x8x5xf32>, %v: tensor<8xf32>) {
  // CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %0 = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  // CHECK: tp.bmm
  %1 = tp.bmm %p, %q : (tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32>
  // CHECK: tp.matmul %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<8x5xf32>) -> tensor<2x4x5xf32>
  %2 = tp.matmul %p, %b : (tensor<2x4x8xf32>, tensor<8x5xf32>) -> tensor<2x4x5xf32>
  // CHECK: tp.matmul %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8x5xf32>) -> tensor<5xf32>
  %3 = tp.matmul %v, %b : (tensor<8xf32>, tensor<8x5xf32>) -> tensor<5xf32>
  // CHECK: tp.dot
  %4 = tp.dot %v, %v : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  // CHECK: tp.addmm %{{.*}}, %{{.*}}, %{{.*}} {alpha = 5.000000e-01 : f64}
  %5 = tp.addmm %bias, %a, %b {alpha = 0.5 : f64} : (tensor<5xf32>, tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  // CHECK: tp.baddbmm
  %6 = tp.baddbmm %bias, %p, %q : (tensor<5xf32>, tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32>
  return
}
