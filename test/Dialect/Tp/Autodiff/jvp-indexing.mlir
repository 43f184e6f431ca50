// RUN: stax-opt %s --stax-jvp | FileCheck %s

// The JVPs of IndexingRules.cpp (--stax-jvp): gathers and scatters are
// linear in their float operands, so the tangent is the same op on the
// tangents %T... with the primal (integer) indices; integer arguments get no
// tangent argument. embedding also zeroes the rows read at padding_idx, so
// that its JVP is the transpose of its VJP (embedding_dense_backward).

// CHECK-LABEL: func.func @index_select
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<6xi64>, %[[T:.*]]: tensor<5x4xf32> {tp.tangent}) -> (tensor<5x6xf32>, tensor<5x6xf32>)
// CHECK-NEXT: %[[Y:.*]] = tp.index_select %[[X]], %[[I]] {dim = 1 : i64} :
// CHECK-NEXT: %[[DY:.*]] = tp.index_select %[[T]], %[[I]] {dim = 1 : i64} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @index_select(%x: tensor<5x4xf32>, %i: tensor<6xi64>) -> tensor<5x6xf32> {
  %y = tp.index_select %x, %i {dim = 1 : i64} : (tensor<5x4xf32>, tensor<6xi64>) -> tensor<5x6xf32>
  return %y : tensor<5x6xf32>
}

// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[I:.*]]: tensor<5x2xi64>, %[[T:.*]]: tensor<4x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.gather %[[X]], %[[I]] {dim = 0 : i64} :
// CHECK-NEXT: %[[DY:.*]] = tp.gather %[[T]], %[[I]] {dim = 0 : i64} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @gather(%x: tensor<4x3xf32>, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  %y = tp.gather %x, %i {dim = 0 : i64} : (tensor<4x3xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}

// index_put: both the destination's and the values' tangents are written.
// CHECK-LABEL: func.func @index_put
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[I:.*]]: tensor<2xi64>, %[[V:.*]]: tensor<2x3xf32>, %[[TX:.*]]: tensor<4x3xf32> {tp.tangent}, %[[TV:.*]]: tensor<2x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.index_put %[[X]][%[[I]]], %[[V]] {dims = array<i64: 0>} :
// CHECK-NEXT: %[[DY:.*]] = tp.index_put %[[TX]][%[[I]]], %[[TV]] {dims = array<i64: 0>} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @index_put(%x: tensor<4x3xf32>, %i: tensor<2xi64>, %v: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %y = tp.index_put %x[%i], %v {dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[I:.*]]: tensor<3x2xi64>, %[[S:.*]]: tensor<3x3xf32>, %[[TX:.*]]: tensor<4x3xf32> {tp.tangent}, %[[TS:.*]]: tensor<3x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.scatter_add %[[X]], %[[I]], %[[S]] {dim = 1 : i64} :
// CHECK-NEXT: %[[DY:.*]] = tp.scatter_add %[[TX]], %[[I]], %[[TS]] {dim = 1 : i64} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @scatter_add(%x: tensor<4x3xf32>, %i: tensor<3x2xi64>, %s: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %y = tp.scatter_add %x, %i, %s {dim = 1 : i64} : (tensor<4x3xf32>, tensor<3x2xi64>, tensor<3x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// embedding with padding_idx 5: the tangent rows are read, then the rows
// whose index is 5 are multiplied by 0.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[W:.*]]: tensor<6x4xf32>, %[[I:.*]]: tensor<2x3xi64>, %[[T:.*]]: tensor<6x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.embedding %[[W]], %[[I]] {padding_idx = 5 : i64} :
// CHECK-NEXT: %[[ROWS:.*]] = tp.embedding %[[T]], %[[I]] {padding_idx = 5 : i64} :
// CHECK-NEXT: %[[KEEP:.*]] = tp.ne.Scalar %[[I]] {other = 5 : i64} :
// CHECK-NEXT: %[[KEEP3:.*]] = tp.view %[[KEEP]] {size = array<i64: 2, 3, 1>} :
// CHECK-NEXT: %[[KEEPF:.*]] = tp._to_copy %[[KEEP3]] {dtype = f32} :
// CHECK-NEXT: %[[DY:.*]] = tp.mul %[[ROWS]], %[[KEEPF]] :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @embedding(%w: tensor<6x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %y = tp.embedding %w, %i {padding_idx = 5 : i64} : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
