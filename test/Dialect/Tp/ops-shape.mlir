// RUN: stax-opt %s | stax-opt | FileCheck %s
// RUN: stax-opt %s --mlir-print-op-generic | stax-opt | FileCheck %s

// CHECK-LABEL: func.func @views
func.func @views(%x: tensor<4x3x2xf32>, %m: tensor<4x3xf32>) {
  // CHECK: tp.t %{{.*}} : tensor<4x3xf32> -> tensor<3x4xf32>
  %0 = tp.t %m : tensor<4x3xf32> -> tensor<3x4xf32>
  // CHECK: tp.transpose %{{.*}} {dim0 = 0 : i64, dim1 = -1 : i64} : tensor<4x3x2xf32> -> tensor<2x3x4xf32>
  %1 = tp.transpose %x {dim0 = 0 : i64, dim1 = -1 : i64} : tensor<4x3x2xf32> -> tensor<2x3x4xf32>
  // CHECK: tp.permute %{{.*}} {dims = array<i64: 2, 0, 1>} : tensor<4x3x2xf32> -> tensor<2x4x3xf32>
  %2 = tp.permute %x {dims = array<i64: 2, 0, 1>} : tensor<4x3x2xf32> -> tensor<2x4x3xf32>
  // CHECK: tp.view %{{.*}} {size = array<i64: 4, -1>} : tensor<4x3x2xf32> -> tensor<4x6xf32>
  %3 = tp.view %x {size = array<i64: 4, -1>} : tensor<4x3x2xf32> -> tensor<4x6xf32>
  // CHECK: tp.reshape
  %4 = tp.reshape %x {size = array<i64: 24>} : tensor<4x3x2xf32> -> tensor<24xf32>
  // CHECK: tp._unsafe_view
  %5 = tp._unsafe_view %x {size = array<i64: 12, 2>} : tensor<4x3x2xf32> -> tensor<12x2xf32>
  // CHECK: tp._reshape_alias %{{.*}} {size = array<i64: 12, 2>, stride = array<i64: 2, 1>}
  %6 = tp._reshape_alias %x {size = array<i64: 12, 2>, stride = array<i64: 2, 1>} : tensor<4x3x2xf32> -> tensor<12x2xf32>
  // CHECK: tp.expand %{{.*}} {size = array<i64: 5, 4, -1, 2>} : tensor<4x3x1xf32> -> tensor<5x4x3x2xf32>
  %u = tp.unsqueeze %m {dim = -1 : i64} : tensor<4x3xf32> -> tensor<4x3x1xf32>
  %7 = tp.expand %u {size = array<i64: 5, 4, -1, 2>} : tensor<4x3x1xf32> -> tensor<5x4x3x2xf32>
  // CHECK: tp.squeeze %{{.*}} : tensor<4x3x1xf32> -> tensor<4x3xf32>
  %8 = tp.squeeze %u : tensor<4x3x1xf32> -> tensor<4x3xf32>
  // A squeezed dim that is not of size 1 stays.
  // CHECK: tp.squeeze %{{.*}} {dims = array<i64: 0>} : tensor<4x3x2xf32> -> tensor<4x3x2xf32>
  %9 = tp.squeeze %x {dims = array<i64: 0>} : tensor<4x3x2xf32> -> tensor<4x3x2xf32>
  // Python slice semantics: end clamps to the size.
  // The default end (INT64_MAX) is elided.
  // CHECK: tp.slice %{{.*}} {dim = 1 : i64, start = 1 : i64, step = 2 : i64} : tensor<4x3x2xf32> -> tensor<4x1x2xf32>
  %10 = tp.slice %x {dim = 1 : i64, start = 1 : i64, end = 9223372036854775807 : i64, step = 2 : i64} : tensor<4x3x2xf32> -> tensor<4x1x2xf32>
  // CHECK: tp.select %{{.*}} {dim = 0 : i64, index = -1 : i64} : tensor<4x3x2xf32> -> tensor<3x2xf32>
  %11 = tp.select %x {dim = 0 : i64, index = -1 : i64} : tensor<4x3x2xf32> -> tensor<3x2xf32>
  // CHECK: tp.as_strided %{{.*}} {size = array<i64: 3, 2>, storage_offset = 1 : i64, stride = array<i64: 1, 3>}
  %12 = tp.as_strided %x {size = array<i64: 3, 2>, stride = array<i64: 1, 3>, storage_offset = 1 : i64} : tensor<4x3x2xf32> -> tensor<3x2xf32>
  // CHECK: tp.slice_backward %{{.*}} {dim = 1 : i64, end = 9223372036854775807 : i64, input_sizes = array<i64: 4, 3, 2>, start = 1 : i64, step = 2 : i64}
  %13 = tp.slice_backward %10 {input_sizes = array<i64: 4, 3, 2>, dim = 1 : i64, start = 1 : i64, end = 9223372036854775807 : i64, step = 2 : i64} : tensor<4x1x2xf32> -> tensor<4x3x2xf32>
  // CHECK: tp.select_backward
  %14 = tp.select_backward %11 {input_sizes = array<i64: 4, 3, 2>, dim = 0 : i64, index = 3 : i64} : tensor<3x2xf32> -> tensor<4x3x2xf32>
  return
}

// CHECK-LABEL: func.func @split_join
func.func @split_join(%x: tensor<5x4xf32>, %y: tensor<2x4xf32>) {
  // CHECK: tp.split %{{.*}} {split_size = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>
  %0:3 = tp.split %x {split_size = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>
  // CHECK: tp.split_with_sizes %{{.*}} {dim = 1 : i64, split_sizes = array<i64: 1, 3>}
  %1:2 = tp.split_with_sizes %x {split_sizes = array<i64: 1, 3>, dim = 1 : i64} : tensor<5x4xf32> -> tensor<5x1xf32>, tensor<5x3xf32>
  // CHECK: tp.unbind %{{.*}} : tensor<2x4xf32> -> tensor<4xf32>, tensor<4xf32>
  %2:2 = tp.unbind %y : tensor<2x4xf32> -> tensor<4xf32>, tensor<4xf32>
  // CHECK: tp.cat %{{.*}}, %{{.*}} : (tensor<5x4xf32>, tensor<2x4xf32>) -> tensor<7x4xf32>
  %3 = tp.cat %x, %y : (tensor<5x4xf32>, tensor<2x4xf32>) -> tensor<7x4xf32>
  // CHECK: tp.stack %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x2x4xf32>
  %4 = tp.stack %y, %y {dim = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x2x4xf32>
  return
}

// CHECK-LABEL: func.func @indexing
func.func @indexing(%x: tensor<5x4x3xf32>, %i: tensor<2xi64>, %j: tensor<2x2xi64>, %w: tensor<10x4xf32>,
                    %g: tensor<2x2x4xf32>, %gi: tensor<5x4x3xi64>) {
  // Adjacent indexed dims are replaced in place.
  // CHECK: tp.index %{{.*}}[%{{.*}}] {dims = array<i64: 1>} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<5x2x3xf32>
  %0 = tp.index %x[%i] {dims = array<i64: 1>} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<5x2x3xf32>
  // Non-adjacent indexed dims move the broadcast index shape first.
  // CHECK: tp.index %{{.*}}[%{{.*}}, %{{.*}}] {dims = array<i64: 0, 2>} : (tensor<5x4x3xf32>, tensor<2xi64>, tensor<2x2xi64>) -> tensor<2x2x4xf32>
  %1 = tp.index %x[%i, %j] {dims = array<i64: 0, 2>} : (tensor<5x4x3xf32>, tensor<2xi64>, tensor<2x2xi64>) -> tensor<2x2x4xf32>
  // CHECK: tp.index_put %{{.*}}[%{{.*}}], %{{.*}} {accumulate = true, dims = array<i64: 1>}
  %2 = tp.index_put %x[%i], %0 {dims = array<i64: 1>, accumulate = true} : (tensor<5x4x3xf32>, tensor<2xi64>, tensor<5x2x3xf32>) -> tensor<5x4x3xf32>
  // CHECK: tp.index_select %{{.*}}, %{{.*}} {dim = 0 : i64} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<2x4x3xf32>
  %3 = tp.index_select %x, %i {dim = 0 : i64} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<2x4x3xf32>
  // CHECK: tp.gather
  %4 = tp.gather %x, %gi {dim = 2 : i64} : (tensor<5x4x3xf32>, tensor<5x4x3xi64>) -> tensor<5x4x3xf32>
  // CHECK: tp.scatter %{{.*}}, %{{.*}}, %{{.*}} {dim = 2 : i64}
  %5 = tp.scatter %x, %gi, %x {dim = 2 : i64} : (tensor<5x4x3xf32>, tensor<5x4x3xi64>, tensor<5x4x3xf32>) -> tensor<5x4x3xf32>
  // CHECK: tp.scatter_add
  %6 = tp.scatter_add %x, %gi, %x {dim = 2 : i64} : (tensor<5x4x3xf32>, tensor<5x4x3xi64>, tensor<5x4x3xf32>) -> tensor<5x4x3xf32>
  // CHECK: tp.embedding %{{.*}}, %{{.*}} : (tensor<10x4xf32>, tensor<2x2xi64>) -> tensor<2x2x4xf32>
  %7 = tp.embedding %w, %j : (tensor<10x4xf32>, tensor<2x2xi64>) -> tensor<2x2x4xf32>
  // CHECK: tp.embedding_dense_backward %{{.*}}, %{{.*}} {num_weights = 10 : i64, padding_idx = 0 : i64}
  %8 = tp.embedding_dense_backward %g, %j {num_weights = 10 : i64, padding_idx = 0 : i64} : (tensor<2x2x4xf32>, tensor<2x2xi64>) -> tensor<10x4xf32>
  return
}

// CHECK-LABEL: func.func @creation
func.func @creation() {
  // CHECK: tp.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = tp.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: tp.full {value = 0 : i64} : tensor<2x3xf32>
  %1 = tp.full {value = 0 : i64} : tensor<2x3xf32>
  // CHECK: tp.full {value = true} : tensor<3x3xi1>
  %2 = tp.full {value = true} : tensor<3x3xi1>
  // CHECK: tp.arange {end = 10 : i64, start = 0 : i64, step = 3 : i64} : tensor<4xi64>
  %3 = tp.arange {start = 0 : i64, end = 10 : i64, step = 3 : i64} : tensor<4xi64>
  return
}
