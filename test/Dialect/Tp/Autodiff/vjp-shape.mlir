// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=as_strided --input=%t/result0.npy --input=%t/result1.npy --print-values | FileCheck %s --check-prefix=STRIDED

// The VJPs of ShapeRules.cpp (--stax-joint-graph): shape ops are linear,
// and each VJP is the transposed index map applied to the adjoint %T (view
// back, inverse permutation, sum over broadcast dims, slice_backward, cat of
// the pieces, slices of a cat). The phase attribute is not matched.

// Inputs for the value check (no requires_grad: left alone).
func.func @inputs() -> (tensor<6xf32>, tensor<3x3xf32>) {
  %x = tp.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %t = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  return %x, %t : tensor<6xf32>, tensor<3x3xf32>
}

// view: the adjoint is viewed back to the input's shape.
// CHECK-LABEL: func.func @view
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x6xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.view %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.view %[[T]] {size = array<i64: 3, 4>{{.*}}} : tensor<2x6xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @view(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<2x6xf32> {
  %y = tp.view %x {size = array<i64: 2, -1>} : tensor<3x4xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// unsqueeze is a reshape: a view back.
// CHECK-LABEL: func.func @unsqueeze
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x1x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.unsqueeze %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.view %[[T]] {size = array<i64: 3, 4>{{.*}}} : tensor<3x1x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @unsqueeze(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x1x4xf32> {
  %y = tp.unsqueeze %x {dim = 1 : i64} : tensor<3x4xf32> -> tensor<3x1x4xf32>
  return %y : tensor<3x1x4xf32>
}

// permute [2, 0, 1]: the inverse permutation [1, 2, 0].
// CHECK-LABEL: func.func @permute
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4x2x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.permute %[[X]] {dims = array<i64: 2, 0, 1>{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.permute %[[T]] {dims = array<i64: 1, 2, 0>{{.*}}} : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @permute(%x: tensor<2x3x4xf32> {tp.requires_grad}) -> tensor<4x2x3xf32> {
  %y = tp.permute %x {dims = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

// transpose and t are their own transposes.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4x3x2xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.transpose %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.transpose %[[T]] {dim0 = 0 : i64, dim1 = -1 : i64{{.*}}} : tensor<4x3x2xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @transpose(%x: tensor<2x3x4xf32> {tp.requires_grad}) -> tensor<4x3x2xf32> {
  %y = tp.transpose %x {dim0 = 0 : i64, dim1 = -1 : i64} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  return %y : tensor<4x3x2xf32>
}

// CHECK-LABEL: func.func @matrix_t
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.t %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.t %[[T]] {{.*}}: tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @matrix_t(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<4x3xf32> {
  %y = tp.t %x : tensor<3x4xf32> -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// expand 3x1 -> 2x3x4: sum the new leading dim and the broadcast size-1 dim
// (keepdim), then view to 3x1.
// CHECK-LABEL: func.func @expand
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.expand %[[X]] {
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[T]] {dims = array<i64: 0, 2>, keepdim = true{{.*}}} : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[G:.*]] = tp.view %[[S]] {size = array<i64: 3, 1>{{.*}}} : tensor<1x3x1xf32> -> tensor<3x1xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @expand(%x: tensor<3x1xf32> {tp.requires_grad}) -> tensor<2x3x4xf32> {
  %y = tp.expand %x {size = array<i64: 2, -1, 4>} : tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// slice: slice_backward writes the adjoint into zeros of the input's shape
// with the same dim/start/end/step.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.slice %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.slice_backward %[[T]] {dim = 0 : i64, end = 5 : i64, input_sizes = array<i64: 5, 4>, start = 1 : i64, step = 2 : i64{{.*}}} : tensor<2x4xf32> -> tensor<5x4xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @slice(%x: tensor<5x4xf32> {tp.requires_grad}) -> tensor<2x4xf32> {
  %y = tp.slice %x {dim = 0 : i64, start = 1 : i64, end = 5 : i64, step = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// select: select_backward at the same dim and index.
// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.select %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.select_backward %[[T]] {dim = 1 : i64, index = -1 : i64, input_sizes = array<i64: 4, 3>{{.*}}} : tensor<4xf32> -> tensor<4x3xf32>
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @select(%x: tensor<4x3xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.select %x {dim = 1 : i64, index = -1 : i64} : tensor<4x3xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// cat along the last dim: each input gets its slice [0, 3), [3, 4), [4, 6)
// of the adjoint (the dim normalized to 1).
// CHECK-LABEL: func.func @cat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32> {tp.requires_grad}, %[[B:.*]]: tensor<2x1xf32> {tp.requires_grad}, %[[C:.*]]: tensor<2x2xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x6xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.cat %[[A]], %[[B]], %[[C]] {
// CHECK-NEXT: %[[GA:.*]] = tp.slice %[[T]] {dim = 1 : i64, end = 3 : i64{{.*}}} : tensor<2x6xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[GB:.*]] = tp.slice %[[T]] {dim = 1 : i64, end = 4 : i64, start = 3 : i64{{.*}}} : tensor<2x6xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[GC:.*]] = tp.slice %[[T]] {dim = 1 : i64, end = 6 : i64, start = 4 : i64{{.*}}} : tensor<2x6xf32> -> tensor<2x2xf32>
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]], %[[GC]] :
func.func @cat(%a: tensor<2x3xf32> {tp.requires_grad}, %b: tensor<2x1xf32> {tp.requires_grad}, %c: tensor<2x2xf32> {tp.requires_grad}) -> tensor<2x6xf32> {
  %y = tp.cat %a, %b, %c {dim = -1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// stack: each input gets its index along the new dim.
// CHECK-LABEL: func.func @stack
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32> {tp.requires_grad}, %[[B:.*]]: tensor<2x3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x2x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.stack %[[A]], %[[B]] {
// CHECK-NEXT: %[[GA:.*]] = tp.select %[[T]] {dim = 1 : i64, index = 0 : i64{{.*}}}
// CHECK-NEXT: %[[GB:.*]] = tp.select %[[T]] {dim = 1 : i64, index = 1 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[GA]], %[[GB]] :
func.func @stack(%a: tensor<2x3xf32> {tp.requires_grad}, %b: tensor<2x3xf32> {tp.requires_grad}) -> tensor<2x2x3xf32> {
  %y = tp.stack %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  return %y : tensor<2x2x3xf32>
}

// split with only the middle chunk returned: the unused chunks' adjoints are
// zeros, and the chunks are concatenated back in order.
// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<2x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]]:3 = tp.split %[[X]] {
// CHECK-NEXT: %[[Z0:.*]] = tp.full {{.*}} : tensor<2x4xf32>
// CHECK-NEXT: %[[Z2:.*]] = tp.full {{.*}} : tensor<1x4xf32>
// CHECK-NEXT: %[[G:.*]] = tp.cat %[[Z0]], %[[T]], %[[Z2]] {{.*}} -> tensor<5x4xf32>
// CHECK-NEXT: return %[[Y]]#1, %[[G]] :
func.func @split(%x: tensor<5x4xf32> {tp.requires_grad}) -> tensor<2x4xf32> {
  %y:3 = tp.split %x {split_size = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>
  return %y#1 : tensor<2x4xf32>
}

// unbind: the two results' adjoints are stacked back along the dim.
// CHECK-LABEL: func.func @unbind
// CHECK-SAME: (%[[X:.*]]: tensor<3x2xf32> {tp.requires_grad}, %[[T0:.*]]: tensor<3xf32> {tp.tangent}, %[[T1:.*]]: tensor<3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]]:2 = tp.unbind %[[X]] {
// CHECK-NEXT: %[[G:.*]] = tp.stack %[[T0]], %[[T1]] {dim = 1 : i64{{.*}}}
// CHECK-NEXT: return %[[Y]]#0, %[[Y]]#1, %[[G]] :
func.func @unbind(%x: tensor<3x2xf32> {tp.requires_grad}) -> (tensor<3xf32>, tensor<3xf32>) {
  %y:2 = tp.unbind %x {dim = 1 : i64} : tensor<3x2xf32> -> tensor<3xf32>, tensor<3xf32>
  return %y#0, %y#1 : tensor<3xf32>, tensor<3xf32>
}

// as_strided with overlapping windows (each view dim steps along one source
// dim and never past it): per value of the enumerated first view dim, the
// adjoint's row is embedded where that window read (slice_backward at
// start i), and the rows add: col2im as a gather, no scatter.
// CHECK-LABEL: func.func @as_strided
// CHECK-SAME: (%[[X:.*]]: tensor<6xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x3xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.as_strided %[[X]] {
// CHECK-NEXT: %[[R0:.*]] = tp.select %[[T]] {dim = 0 : i64, index = 0 : i64
// CHECK-NEXT: %[[E0:.*]] = tp.slice_backward %[[R0]] {dim = 0 : i64, end = 3 : i64, input_sizes = array<i64: 6>, start = 0 : i64, step = 1 : i64
// CHECK-NEXT: %[[R1:.*]] = tp.select %[[T]] {dim = 0 : i64, index = 1 : i64
// CHECK-NEXT: %[[E1:.*]] = tp.slice_backward %[[R1]] {dim = 0 : i64, end = 4 : i64, input_sizes = array<i64: 6>, start = 1 : i64, step = 1 : i64
// CHECK-NEXT: %[[S1:.*]] = tp.add %[[E0]], %[[E1]]
// CHECK-NEXT: %[[R2:.*]] = tp.select %[[T]] {dim = 0 : i64, index = 2 : i64
// CHECK-NEXT: %[[E2:.*]] = tp.slice_backward %[[R2]] {dim = 0 : i64, end = 5 : i64, input_sizes = array<i64: 6>, start = 2 : i64, step = 1 : i64
// CHECK-NEXT: %[[G:.*]] = tp.add %[[S1]], %[[E2]]
// CHECK-NEXT: return %[[Y]], %[[G]] :
// x̄[k] sums t over the window positions that read x[k]:
// [1, 2 + 4, 3 + 5 + 7, 6 + 8, 9, 0].
// STRIDED: result #1: tensor<6xf32>
// STRIDED-NEXT: [1, 6, 15, 14, 9, 0]
func.func @as_strided(%x: tensor<6xf32> {tp.requires_grad}) -> tensor<3x3xf32> {
  %y = tp.as_strided %x {size = array<i64: 3, 3>, stride = array<i64: 1, 1>} : tensor<6xf32> -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}

// A view whose steps carry into another source dim (4 consecutive elements
// of a 2 x 3 tensor) is no window: its storage positions are a constant,
// and the flattened adjoint is accumulated into zeros there.
// CHECK-LABEL: func.func @as_strided_carry
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32> {tp.requires_grad}, %[[T:.*]]: tensor<4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.as_strided %[[X]] {
// CHECK-NEXT: %[[POS:.*]] = tp.constant {{.*}}dense<[1, 2, 3, 4]> : tensor<4xi64>
// CHECK-NEXT: %[[FLAT:.*]] = tp.view %[[T]] {size = array<i64: 4>{{.*}}}
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}} : tensor<6xf32>
// CHECK-NEXT: %[[ACC:.*]] = tp.index_put %[[Z]][%[[POS]]], %[[FLAT]] {accumulate = true, dims = array<i64: 0>{{.*}}}
// CHECK-NEXT: %[[G:.*]] = tp.view %[[ACC]] {size = array<i64: 2, 3>{{.*}}}
// CHECK-NEXT: return %[[Y]], %[[G]] :
func.func @as_strided_carry(%x: tensor<2x3xf32> {tp.requires_grad}) -> tensor<4xf32> {
  %y = tp.as_strided %x {size = array<i64: 4>, stride = array<i64: 1>, storage_offset = 1 : i64} : tensor<2x3xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
