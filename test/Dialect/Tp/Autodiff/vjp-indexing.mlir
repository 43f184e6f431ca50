// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=index_select --input=%t/result0.npy --input=%t/result1.npy --input=%t/result2.npy --print-values | FileCheck %s --check-prefix=SELECT
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=embedding --input=%t/result3.npy --input=%t/result4.npy --input=%t/result5.npy --print-values | FileCheck %s --check-prefix=EMBED

// The VJPs of IndexingRules.cpp (--stax-joint-graph): a read (index,
// index_select, gather, embedding) accumulates the adjoint %T into zeros at
// the positions it read; a write (index_put, scatter, scatter_add) reads %T
// at the written positions for the written values and, unless it
// accumulates, zeroes them in the destination's adjoint. Integer index
// operands get no gradient. The phase attribute is not matched.

// Inputs for the value checks (no requires_grad: left alone).
func.func @inputs() -> (tensor<2x3xf32>, tensor<3xi64>, tensor<2x3xf32>,
                        tensor<4x2xf32>, tensor<2x2xi64>, tensor<2x2x2xf32>) {
  %x = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = tp.constant dense<[2, 0, 2]> : tensor<3xi64>
  %t = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %w = tp.constant dense<1.0> : tensor<4x2xf32>
  %e = tp.constant dense<[[1, 3], [1, 0]]> : tensor<2x2xi64>
  %et = tp.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  return %x, %i, %t, %w, %e, %et : tensor<2x3xf32>, tensor<3xi64>, tensor<2x3xf32>,
                                   tensor<4x2xf32>, tensor<2x2xi64>, tensor<2x2x2xf32>
}

// index_select along dim 1: an accumulating index_put of T into zeros.
// CHECK-LABEL: func.func @index_select
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<3xi64>, %[[T:.*]]: tensor<2x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.index_select %[[X]], %[[I]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT: %[[G:.*]] = tp.index_put %[[Z]][%[[I]]], %[[T]] {accumulate = true, dims = array<i64: 1>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
// Index 2 is read twice, so its gradient is the sum of two columns of T.
// SELECT: result #1: tensor<2x3xf32>
// SELECT-NEXT: [2, 0, 4, 5, 0, 10]
func.func @index_select(%x: tensor<2x3xf32> {tp.requires_grad}, %i: tensor<3xi64>) -> tensor<2x3xf32> {
  %y = tp.index_select %x, %i {dim = 1 : i64} : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// gather: scatter_add T into zeros along the same dim and index.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<5x2xi64>, %[[T:.*]]: tensor<5x2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.gather %[[X]], %[[I]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}} : tensor<4x3xf32>
// CHECK-NEXT: %[[G:.*]] = tp.scatter_add %[[Z]], %[[I]], %[[T]] {dim = 0 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @gather(%x: tensor<4x3xf32> {tp.requires_grad}, %i: tensor<5x2xi64>) -> tensor<5x2xf32> {
  %y = tp.gather %x, %i {dim = 0 : i64} : (tensor<4x3xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}

// index (advanced indexing on dim 1): an accumulating index_put with the
// same indices and dims.
// CHECK-LABEL: func.func @index(
// CHECK-SAME: %[[X:.*]]: tensor<5x4x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<2xi64>, %[[T:.*]]: tensor<5x2x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.index %[[X]][%[[I]]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}} : tensor<5x4x3xf32>
// CHECK-NEXT: %[[G:.*]] = tp.index_put %[[Z]][%[[I]]], %[[T]] {accumulate = true, dims = array<i64: 1>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @index(%x: tensor<5x4x3xf32> {tp.requires_grad}, %i: tensor<2xi64>) -> tensor<5x2x3xf32> {
  %y = tp.index %x[%i] {dims = array<i64: 1>} : (tensor<5x4x3xf32>, tensor<2xi64>) -> tensor<5x2x3xf32>
  return %y : tensor<5x2x3xf32>
}

// index_put (overwriting): x̄ is T with the written rows set to 0 (an
// index_put of a 0-d zero); v̄ is T read at the written rows.
// CHECK-LABEL: func.func @index_put(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<2xi64>, %[[V:.*]]: tensor<2x3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.index_put %[[X]][%[[I]]], %[[V]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<f32>
// CHECK-NEXT: %[[GX:.*]] = tp.index_put %[[T]][%[[I]]], %[[Z]] {dims = array<i64: 0>{{.*}}}
// CHECK-NEXT: %[[GV:.*]] = tp.index %[[T]][%[[I]]] {dims = array<i64: 0>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GX]], %[[GV]] :
func.func @index_put(%x: tensor<4x3xf32> {tp.requires_grad}, %i: tensor<2xi64>, %v: tensor<2x3xf32> {tp.requires_grad}) -> tensor<4x3xf32> {
  %y = tp.index_put %x[%i], %v {dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// index_put with accumulate: x̄ is T itself; v (broadcast along the
// trailing dim) gets T read at the indices, summed over the broadcast dims.
// CHECK-LABEL: func.func @index_put_accumulate
// CHECK-SAME: (%[[X:.*]]: tensor<5x4x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<3xi64>, %[[V:.*]]: tensor<3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<5x4x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.index_put %[[X]][%[[I]]], %[[V]] {
// CHECK-NEXT: %[[R:.*]] = tp.index %[[T]][%[[I]]] {dims = array<i64: 1>{{.*}}} : (tensor<5x4x3xf32>, tensor<3xi64>) -> tensor<5x3x3xf32>
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[R]] {dims = array<i64: 0, 1>, keepdim = true{{.*}}}
// CHECK-NEXT: %[[GV:.*]] = tp.view %[[S]] {size = array<i64: 3>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[T]], %[[GV]] :
func.func @index_put_accumulate(%x: tensor<5x4x3xf32> {tp.requires_grad}, %i: tensor<3xi64>, %v: tensor<3xf32> {tp.requires_grad}) -> tensor<5x4x3xf32> {
  %y = tp.index_put %x[%i], %v {dims = array<i64: 1>, accumulate = true} : (tensor<5x4x3xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<5x4x3xf32>
  return %y : tensor<5x4x3xf32>
}

// scatter: x̄ scatters zeros into T at the written positions; src (larger
// than the index) gets T gathered there, zero-padded to its shape.
// CHECK-LABEL: func.func @scatter(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<2x3xi64>, %[[S:.*]]: tensor<3x3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.scatter %[[X]], %[[I]], %[[S]] {
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}} : tensor<3x3xf32>
// CHECK-NEXT: %[[GX:.*]] = tp.scatter %[[T]], %[[I]], %[[Z]] {dim = 0 : i64{{.*}}}
// CHECK-NEXT: %[[R:.*]] = tp.gather %[[T]], %[[I]] {dim = 0 : i64{{.*}}} : (tensor<4x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[GS:.*]] = tp.slice_backward %[[R]] {dim = 0 : i64, end = 2 : i64, input_sizes = array<i64: 3, 3>, start = 0 : i64, step = 1 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GX]], %[[GS]] :
func.func @scatter(%x: tensor<4x3xf32> {tp.requires_grad}, %i: tensor<2x3xi64>, %s: tensor<3x3xf32> {tp.requires_grad}) -> tensor<4x3xf32> {
  %y = tp.scatter %x, %i, %s {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<3x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// scatter_add: x̄ is T; src gets T gathered (and padded) as for scatter.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32> {tp.requires_grad}, %[[I:.*]]: tensor<3x2xi64>, %[[S:.*]]: tensor<3x3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.scatter_add %[[X]], %[[I]], %[[S]] {
// CHECK-NEXT: %[[R:.*]] = tp.gather %[[T]], %[[I]] {dim = 1 : i64{{.*}}}
// CHECK-NEXT: %[[GS:.*]] = tp.slice_backward %[[R]] {dim = 1 : i64, end = 2 : i64, input_sizes = array<i64: 3, 3>, start = 0 : i64, step = 1 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[T]], %[[GS]] :
func.func @scatter_add(%x: tensor<4x3xf32> {tp.requires_grad}, %i: tensor<3x2xi64>, %s: tensor<3x3xf32> {tp.requires_grad}) -> tensor<4x3xf32> {
  %y = tp.scatter_add %x, %i, %s {dim = 1 : i64} : (tensor<4x3xf32>, tensor<3x2xi64>, tensor<3x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// embedding: embedding_dense_backward of T with the weight's row count and
// the padding index (that row gets no gradient).
// CHECK-LABEL: func.func @embedding(
// CHECK-SAME: %[[W:.*]]: tensor<4x2xf32> {tp.requires_grad}, %[[I:.*]]: tensor<2x2xi64>, %[[T:.*]]: tensor<2x2x2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.embedding %[[W]], %[[I]] {
// CHECK-NEXT: %[[G:.*]] = tp.embedding_dense_backward %[[T]], %[[I]] {num_weights = 4 : i64, padding_idx = 3 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
// Row 1 is read twice; row 3 is the padding row; row 2 is not read.
// EMBED: result #1: tensor<4x2xf32>
// EMBED-NEXT: [7, 8, 6, 8, 0, 0, 0, 0]
func.func @embedding(%w: tensor<4x2xf32> {tp.requires_grad}, %i: tensor<2x2xi64>) -> tensor<2x2x2xf32> {
  %y = tp.embedding %w, %i {padding_idx = 3 : i64} : (tensor<4x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  return %y : tensor<2x2x2xf32>
}

// embedding_dense_backward (scale_grad_by_freq, padding_idx 2) is linear in
// grad_output: its transpose reads T's rows at the indices, divided by the
// count of each index (an embedding_dense_backward of ones, read back), and
// zeroed where the index is the padding index.
// CHECK-LABEL: func.func @embedding_dense_backward
// CHECK-SAME: (%[[G:.*]]: tensor<7x4xf32> {tp.requires_grad}, %[[I:.*]]: tensor<7xi64>, %[[T:.*]]: tensor<4x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.embedding_dense_backward %[[G]], %[[I]] {
// CHECK-NEXT: %[[ROWS:.*]] = tp.embedding %[[T]], %[[I]] {
// CHECK-NEXT: %[[ONES:.*]] = tp.full {{.*}}value = 1.000000e+00 : f64} : tensor<7x1xf32>
// CHECK-NEXT: %[[CNT:.*]] = tp.embedding_dense_backward %[[ONES]], %[[I]] {num_weights = 4 : i64{{.*}}}
// CHECK-NEXT: %[[CNTI:.*]] = tp.embedding %[[CNT]], %[[I]] {
// CHECK-NEXT: %[[SC:.*]] = tp.div %[[ROWS]], %[[CNTI]] {
// CHECK-NEXT: %[[KEEP:.*]] = tp.ne.Scalar %[[I]] {other = 2 : i64{{.*}}}
// CHECK-NEXT: %[[KEEP2:.*]] = tp.view %[[KEEP]] {size = array<i64: 7, 1>{{.*}}}
// CHECK-NEXT: %[[KEEPF:.*]] = tp._to_copy %[[KEEP2]] {dtype = f32{{.*}}}
// CHECK-NEXT: %[[GG:.*]] = tp.mul %[[SC]], %[[KEEPF]] {
// CHECK-NEXT: return %[[Y]], %[[GG]] :
func.func @embedding_dense_backward(%g: tensor<7x4xf32> {tp.requires_grad}, %i: tensor<7xi64>) -> tensor<4x4xf32> {
  %y = tp.embedding_dense_backward %g, %i {num_weights = 4 : i64, padding_idx = 2 : i64, scale_grad_by_freq = true} : (tensor<7x4xf32>, tensor<7xi64>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
