// RUN: stax-opt %s --stax-functionalize -split-input-file | FileCheck %s

// A chain of mutations of a local tensor: each in-place op becomes its
// functional twin and later reads (through self or through the in-place
// op's result) see the newest value.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK: %[[Y:.*]] = tp.clone %[[X]]
// CHECK: %[[M:.*]] = tp.mul.Scalar %[[Y]] {other = 2 : i64}
// CHECK: %[[R:.*]] = tp.relu %[[M]]
// CHECK: %[[E:.*]] = tp.exp %[[R]]
// CHECK: return %[[R]], %[[E]]
// CHECK-NOT: tp.mul_
func.func @chain(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = tp.clone %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %0 = tp.mul_.Scalar %y {other = 2 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  %1 = tp.relu_ %0 : tensor<4x3xf32> -> tensor<4x3xf32>
  %e = tp.exp %y : tensor<4x3xf32> -> tensor<4x3xf32>
  return %y, %e : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Reads before the mutation keep the old value.
// CHECK-LABEL: func.func @read_before
// CHECK: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<4xf32>
// CHECK: %[[OLD:.*]] = tp.exp %[[Z]]
// CHECK: %[[NEW:.*]] = tp.add %[[Z]], %{{.*}} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: return %[[OLD]], %[[NEW]]
func.func @read_before(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = tp.full {value = 0.0 : f64} : tensor<4xf32>
  %old = tp.exp %z : tensor<4xf32> -> tensor<4xf32>
  %0 = tp.add_ %z, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %old, %z : tensor<4xf32>, tensor<4xf32>
}

// -----

// copy_ casts and broadcasts the source; fill_ becomes tp.full;
// index_put_ becomes index_put; a promoted computation is cast back.
// CHECK-LABEL: func.func @writes
// CHECK: %[[C:.*]] = tp._to_copy %{{.*}} {dtype = f32} : tensor<3xf64> -> tensor<3xf32>
// CHECK: %[[B:.*]] = tp.expand %[[C]] {size = array<i64: 4, 3>} : tensor<3xf32> -> tensor<4x3xf32>
// CHECK: %[[P:.*]] = tp.index_put %[[B]][%{{.*}}], %{{.*}} {dims = array<i64: 0>}
// CHECK: %[[S:.*]] = tp.add %[[P]], %{{.*}} : tensor<4x3xf32>, tensor<4x3xf64> -> tensor<4x3xf64>
// CHECK: %[[D:.*]] = tp._to_copy %[[S]] {dtype = f32} : tensor<4x3xf64> -> tensor<4x3xf32>
// CHECK: %[[W:.*]] = tp.clone %[[D]]
// CHECK: %[[F:.*]] = tp.full {value = 7 : i64} : tensor<4x3xf32>
// CHECK: return %[[W]], %[[F]]
func.func @writes(%src: tensor<3xf64>, %i: tensor<2xi64>, %v: tensor<2x3xf32>,
                  %d: tensor<4x3xf64>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %z = tp.full {value = 0.0 : f64} : tensor<4x3xf32>
  %0 = tp.copy_ %z, %src : tensor<4x3xf32>, tensor<3xf64> -> tensor<4x3xf32>
  %1 = tp.index_put_ %z[%i], %v {dims = array<i64: 0>}
      : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %2 = tp.add_ %z, %d : tensor<4x3xf32>, tensor<4x3xf64> -> tensor<4x3xf32>
  %w = tp.clone %z : tensor<4x3xf32> -> tensor<4x3xf32>
  %3 = tp.fill_.Scalar %z {value = 7 : i64} : tensor<4x3xf32> -> tensor<4x3xf32>
  return %w, %z : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// copy_ of a tensor of self's type is a clone, so that mutating the source
// afterwards does not change the copy.
// CHECK-LABEL: func.func @copy_then_mutate_source
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>)
// CHECK: %[[S:.*]] = tp.exp %[[A]]
// CHECK: %[[OUT:.*]] = tp.clone %[[S]]
// CHECK: %[[S2:.*]] = tp.neg %[[S]]
// CHECK: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<4xf32>
// CHECK: return %[[OUT]], %[[S2]], %[[Z]]
func.func @copy_then_mutate_source(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s = tp.exp %a : tensor<4xf32> -> tensor<4xf32>
  %out = tp.full {value = 1.0 : f64} : tensor<4xf32>
  %0 = tp.copy_ %out, %s : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = tp.neg_ %s : tensor<4xf32> -> tensor<4xf32>
  %z = tp.clone %s : tensor<4xf32> -> tensor<4xf32>
  %2 = tp.zero_ %z : tensor<4xf32> -> tensor<4xf32>
  return %out, %s, %z : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Every in-place op has a twin.
// CHECK-LABEL: func.func @twins
// CHECK: tp.sub %{{.*}}, %{{.*}} {alpha = 2 : i64}
// CHECK: tp.div %{{.*}}, %{{.*}} {rounding_mode = #tp.rounding_mode<floor>}
// CHECK: tp.add.Scalar %{{.*}} {alpha = 3 : i64, other = 1 : i64}
// CHECK: tp.sub.Scalar %{{.*}} {other = 1 : i64}
// CHECK: tp.div.Scalar %{{.*}} {other = 2 : i64}
// CHECK: tp.sigmoid
// CHECK: tp.tanh
// CHECK: tp.clamp %{{.*}} {max = 1.000000e+00 : f64}
// CHECK: tp.masked_fill.Scalar %{{.*}}, %{{.*}} {value = 5 : i64}
// CHECK-NOT: _ %
// CHECK: return
func.func @twins(%x: tensor<4xf32>, %y: tensor<4xf32>, %m: tensor<4xi1>) -> tensor<4xf32> {
  %t = tp.clone %x : tensor<4xf32> -> tensor<4xf32>
  %0 = tp.sub_ %t, %y {alpha = 2 : i64} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = tp.div_ %t, %y {rounding_mode = #tp.rounding_mode<floor>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = tp.add_.Scalar %t {other = 1 : i64, alpha = 3 : i64} : tensor<4xf32> -> tensor<4xf32>
  %3 = tp.sub_.Scalar %t {other = 1 : i64} : tensor<4xf32> -> tensor<4xf32>
  %4 = tp.div_.Scalar %t {other = 2 : i64} : tensor<4xf32> -> tensor<4xf32>
  %5 = tp.sigmoid_ %t : tensor<4xf32> -> tensor<4xf32>
  %6 = tp.tanh_ %t : tensor<4xf32> -> tensor<4xf32>
  %7 = tp.clamp_ %t {max = 1.0 : f64} : tensor<4xf32> -> tensor<4xf32>
  %8 = tp.masked_fill_.Scalar %t, %m {value = 5 : i64} : (tensor<4xf32>, tensor<4xi1>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// A mutation through a view of a temporary that nothing else reads is a
// plain mutation (matmul's _unsafe_view followed by relu_).
// CHECK-LABEL: func.func @view_of_temporary
// CHECK: %[[V:.*]] = tp._unsafe_view
// CHECK: %[[R:.*]] = tp.relu %[[V]]
// CHECK: return %[[R]]
func.func @view_of_temporary(%a: tensor<6x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %p = tp.mm %a, %b : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %v = tp._unsafe_view %p {size = array<i64: 2, 3, 5>} : tensor<6x5xf32> -> tensor<2x3x5xf32>
  %0 = tp.relu_ %v : tensor<2x3x5xf32> -> tensor<2x3x5xf32>
  return %v : tensor<2x3x5xf32>
}
