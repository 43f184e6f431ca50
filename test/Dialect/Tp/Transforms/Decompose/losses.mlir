// RUN: stax-opt %s --stax-decompose -split-input-file | FileCheck %s

// nll_loss via gather (both results); ignored samples count 0.
// CHECK-LABEL: func.func @nll_mean_weighted
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[T:.*]]: tensor<5xi64>, %[[W:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[IGN:.*]] = tp.eq.Scalar %[[T]] {other = -100 : i64}
// CHECK-NEXT: %[[SAFE:.*]] = tp.masked_fill.Scalar %[[T]], %[[IGN]] {value = 0 : i64}
// CHECK-NEXT: %[[IDX:.*]] = tp.unsqueeze %[[SAFE]] {dim = 1 : i64}
// CHECK-NEXT: %[[P:.*]] = tp.gather %[[X]], %[[IDX]] {dim = 1 : i64} : (tensor<5x4xf32>, tensor<5x1xi64>) -> tensor<5x1xf32>
// CHECK-NEXT: %[[PV:.*]] = tp.view %[[P]] {size = array<i64: 5>}
// CHECK-NEXT: %[[NEG:.*]] = tp.neg %[[PV]]
// CHECK-NEXT: %[[WS:.*]] = tp.index_select %[[W]], %[[SAFE]] {dim = 0 : i64}
// CHECK-NEXT: %[[L:.*]] = tp.mul %[[NEG]], %[[WS]]
// CHECK-NEXT: %[[W0:.*]] = tp.masked_fill.Scalar %[[WS]], %[[IGN]] {value = 0.000000e+00 : f64}
// CHECK-NEXT: %[[L0:.*]] = tp.masked_fill.Scalar %[[L]], %[[IGN]] {value = 0.000000e+00 : f64}
// CHECK-NEXT: %[[LS:.*]] = tp.sum %[[L0]] {dims = array<i64>}
// CHECK-NEXT: %[[WSUM:.*]] = tp.sum %[[W0]] {dims = array<i64>}
// CHECK-NEXT: %[[R:.*]] = tp.div %[[LS]], %[[WSUM]]
// CHECK-NEXT: return %[[R]], %[[WSUM]]
func.func @nll_mean_weighted(%x: tensor<5x4xf32>, %t: tensor<5xi64>, %w: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = tp.nll_loss_forward %x, %t weight(%w) {reduction = #tp.reduction<mean>}
      : (tensor<5x4xf32>, tensor<5xi64>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

// Per-sample losses of a 2-D self: total_weight is 0.
// CHECK-LABEL: func.func @nll_none
// CHECK: %[[NEG:.*]] = tp.neg
// CHECK-NEXT: %[[NI:.*]] = tp.logical_not
// CHECK-NEXT: %[[WF:.*]] = tp._to_copy %[[NI]] {dtype = f32}
// CHECK-NEXT: %[[L:.*]] = tp.masked_fill.Scalar %[[NEG]]
// CHECK: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<f32>
// CHECK-NEXT: return %[[L]], %[[Z]]
func.func @nll_none(%x: tensor<5x4xf32>, %t: tensor<5xi64>) -> (tensor<5xf32>, tensor<f32>) {
  %0:2 = tp.nll_loss_forward %x, %t {reduction = #tp.reduction<none>, ignore_index = 1 : i64}
      : (tensor<5x4xf32>, tensor<5xi64>) -> (tensor<5xf32>, tensor<f32>)
  return %0#0, %0#1 : tensor<5xf32>, tensor<f32>
}

// -----

// The gradient is scattered into zeros.
// CHECK-LABEL: func.func @nll_backward
// CHECK-SAME: (%[[G:.*]]: tensor<f32>, %[[X:.*]]: tensor<5x4xf32>, %[[T:.*]]: tensor<5xi64>, %[[TW:.*]]: tensor<f32>)
// CHECK: %[[NG:.*]] = tp.neg %[[G]]
// CHECK-NEXT: %[[V:.*]] = tp.expand %[[NG]] {size = array<i64: 5>}
// CHECK-NEXT: %[[VD:.*]] = tp.div %[[V]], %[[TW]]
// CHECK-NEXT: %[[VM:.*]] = tp.masked_fill.Scalar %[[VD]]
// CHECK-NEXT: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<5x4xf32>
// CHECK-NEXT: %[[I:.*]] = tp.unsqueeze
// CHECK-NEXT: %[[S:.*]] = tp.unsqueeze %[[VM]] {dim = 1 : i64}
// CHECK-NEXT: %[[R:.*]] = tp.scatter %[[Z]], %[[I]], %[[S]] {dim = 1 : i64}
// CHECK-NEXT: return %[[R]]
func.func @nll_backward(%g: tensor<f32>, %x: tensor<5x4xf32>, %t: tensor<5xi64>, %tw: tensor<f32>) -> tensor<5x4xf32> {
  %0 = tp.nll_loss_backward %g, %x, %t, %tw {reduction = #tp.reduction<mean>}
      : (tensor<f32>, tensor<5x4xf32>, tensor<5xi64>, tensor<f32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// CHECK-LABEL: func.func @mse_loss
// CHECK-SAME: (%[[A:.*]]: tensor<4x6xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[A]], %[[B]]
// CHECK-NEXT: %[[D2:.*]] = tp.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[S:.*]] = tp.sum %[[D2]] {dims = array<i64>}
// CHECK-NEXT: %[[R:.*]] = tp.div.Scalar %[[S]] {other = 2.400000e+01 : f64}
// CHECK-NEXT: return %[[R]]
func.func @mse_loss(%a: tensor<4x6xf32>, %b: tensor<6xf32>) -> tensor<f32> {
  %0 = tp.mse_loss %a, %b : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
