// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[W:.*]]: tensor<6x4xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NEXT: %[[F:.*]] = tp.view %[[I]] {size = array<i64: 6>}
// CHECK-NEXT: %[[S:.*]] = tp.index_select %[[W]], %[[F]] {dim = 0 : i64}
// CHECK-NEXT: %[[R:.*]] = tp.view %[[S]] {size = array<i64: 2, 3, 4>}
// CHECK-NEXT: return %[[R]]
func.func @embedding(%w: tensor<6x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %0 = tp.embedding %w, %i : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Rows of padding_idx are zeroed, then scatter-added in the kernel's order.
// CHECK-LABEL: func.func @embedding_backward
// CHECK-SAME: (%[[G:.*]]: tensor<2x5x4xf32>, %[[I:.*]]: tensor<2x5xi64>)
// CHECK-NEXT: %[[F:.*]] = tp.view %[[I]] {size = array<i64: 10>}
// CHECK-NEXT: %[[P:.*]] = tp.eq.Scalar %[[F]] {other = 2 : i64}
// CHECK-NEXT: %[[S:.*]] = tp.masked_fill.Scalar %[[F]], %[[P]] {value = 0 : i64}
// CHECK-NEXT: %[[GV:.*]] = tp.view %[[G]] {size = array<i64: 10, 4>}
// CHECK-NEXT: %[[PU:.*]] = tp.unsqueeze %[[P]] {dim = 1 : i64}
// CHECK-NEXT: %[[GM:.*]] = tp.masked_fill.Scalar %[[GV]], %[[PU]] {value = 0.000000e+00 : f64}
// CHECK-NEXT: %[[SU:.*]] = tp.unsqueeze %[[S]] {dim = 1 : i64}
// CHECK-NEXT: %[[IX:.*]] = tp.expand %[[SU]] {size = array<i64: 10, 4>}
// CHECK-NEXT: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<6x4xf32>
// CHECK-NEXT: %[[R:.*]] = tp.scatter_add %[[Z]], %[[IX]], %[[GM]] {dim = 0 : i64}
// CHECK-NEXT: return %[[R]]
func.func @embedding_backward(%g: tensor<2x5x4xf32>, %i: tensor<2x5xi64>) -> tensor<6x4xf32> {
  %0 = tp.embedding_dense_backward %g, %i {num_weights = 6 : i64, padding_idx = 2 : i64}
      : (tensor<2x5x4xf32>, tensor<2x5xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// CHECK-LABEL: func.func @stack
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<3x4xf32>)
// CHECK-NEXT: %[[UA:.*]] = tp.unsqueeze %[[A]] {dim = -1 : i64}
// CHECK-NEXT: %[[UB:.*]] = tp.unsqueeze %[[B]] {dim = -1 : i64}
// CHECK-NEXT: %[[R:.*]] = tp.cat %[[UA]], %[[UB]] {dim = -1 : i64}
// CHECK-NEXT: return %[[R]]
func.func @stack(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4x2xf32> {
  %0 = tp.stack %a, %b {dim = -1 : i64} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

// CHECK-LABEL: func.func @unbind
// CHECK-NEXT: %[[S0:.*]] = tp.select %{{.*}} {dim = 1 : i64, index = 0 : i64}
// CHECK-NEXT: %[[S1:.*]] = tp.select %{{.*}} {dim = 1 : i64, index = 1 : i64}
// CHECK-NEXT: return %[[S0]], %[[S1]]
func.func @unbind(%a: tensor<3x2xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0:2 = tp.unbind %a {dim = 1 : i64} : tensor<3x2xf32> -> tensor<3xf32>, tensor<3xf32>
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @split
// CHECK-NEXT: %[[A:.*]] = tp.slice %{{.*}} {end = 3 : i64} : tensor<7x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %[[B:.*]] = tp.slice %{{.*}} {end = 6 : i64, start = 3 : i64}
// CHECK-NEXT: %[[C:.*]] = tp.slice %{{.*}} {end = 7 : i64, start = 6 : i64} : tensor<7x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT: %[[D:.*]] = tp.slice %{{.*}} {dim = 1 : i64, end = 1 : i64}
// CHECK-NEXT: %[[E:.*]] = tp.slice %{{.*}} {dim = 1 : i64, end = 4 : i64, start = 1 : i64}
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
func.func @split(%a: tensor<7x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x4xf32>, tensor<7x1xf32>, tensor<7x3xf32>) {
  %0:3 = tp.split %a {split_size = 3 : i64} : tensor<7x4xf32> -> tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x4xf32>
  %1:2 = tp.split_with_sizes %a {split_sizes = array<i64: 1, 3>, dim = -1 : i64} : tensor<7x4xf32> -> tensor<7x1xf32>, tensor<7x3xf32>
  return %0#0, %0#1, %0#2, %1#0, %1#1 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<1x4xf32>, tensor<7x1xf32>, tensor<7x3xf32>
}
