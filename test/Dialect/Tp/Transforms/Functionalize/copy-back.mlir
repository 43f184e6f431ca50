// RUN: stax-opt %s --stax-functionalize -split-input-file | FileCheck %s

// A mutated argument: its final value is returned after the original
// results, the argument is marked tp.mutated and the new result
// tp.copy_back = <argument index>. Uses of the argument after the mutation
// (here the original result) read the new value.
// CHECK-LABEL: func.func @add_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {tp.mutated}) -> (tensor<4xf32>, tensor<4xf32> {tp.copy_back = 0 : i64})
// CHECK: %[[N:.*]] = tp.add.Scalar %[[X]] {other = 1 : i64}
// CHECK: return %[[N]], %[[N]] : tensor<4xf32>, tensor<4xf32>
func.func @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.add_.Scalar %x {other = 1 : i64} : tensor<4xf32> -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// Several mutated arguments: one copy-back result each, in argument order,
// holding the last value; untouched arguments keep their attributes.
// CHECK-LABEL: func.func @two_args
// CHECK-SAME: (%[[A:[^:]*]]: tensor<3xf32> {tp.mutated}, %[[B:[^:]*]]: tensor<3xf32> {tp.requires_grad}, %[[C:[^:]*]]: tensor<3xf32> {tp.mutated})
// CHECK-SAME: -> (tensor<f32>, tensor<3xf32> {tp.copy_back = 0 : i64}, tensor<3xf32> {tp.copy_back = 2 : i64})
// CHECK: %[[C1:.*]] = tp.mul %[[C]], %[[B]]
// CHECK: %[[A1:.*]] = tp.add %[[A]], %[[C1]]
// CHECK: %[[C2:.*]] = tp.full {value = 0 : i64} : tensor<3xf32>
// CHECK: %[[S:.*]] = tp.sum %[[A1]]
// CHECK: return %[[S]], %[[A1]], %[[C2]]
func.func @two_args(%a: tensor<3xf32>, %b: tensor<3xf32> {tp.requires_grad}, %c: tensor<3xf32>) -> tensor<f32> {
  %0 = tp.mul_ %c, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %1 = tp.add_ %a, %0 : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %2 = tp.fill_.Scalar %c {value = 0 : i64} : tensor<3xf32> -> tensor<3xf32>
  %s = tp.sum %a {dims = array<i64>} : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// An argument written by copy_ (out.copy_(a)) and by index_put_.
// CHECK-LABEL: func.func @out_param
// CHECK-SAME: (%[[OUT:.*]]: tensor<2x3xf32> {tp.mutated}, %[[A:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<1xi64>, %[[V:.*]]: tensor<1x3xf32>)
// CHECK-SAME: -> (tensor<2x3xf32> {tp.copy_back = 0 : i64})
// CHECK: %[[E:.*]] = tp.expand %[[A]] {size = array<i64: 2, 3>}
// CHECK: %[[P:.*]] = tp.index_put %[[E]][%[[I]]], %[[V]] {accumulate = true, dims = array<i64: 0>}
// CHECK: return %[[P]]
func.func @out_param(%out: tensor<2x3xf32>, %a: tensor<3xf32>, %i: tensor<1xi64>, %v: tensor<1x3xf32>) {
  %0 = tp.copy_ %out, %a : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %1 = tp.index_put_ %0[%i], %v {dims = array<i64: 0>, accumulate = true}
      : (tensor<2x3xf32>, tensor<1xi64>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return
}
