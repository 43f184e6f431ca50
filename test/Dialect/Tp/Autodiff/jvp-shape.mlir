// RUN: stax-opt %s --stax-jvp | FileCheck %s
// RUN: stax-opt %s --stax-jvp="function=cat wrt=0" | FileCheck %s --check-prefix=WRT

// The JVPs of ShapeRules.cpp (--stax-jvp): shape ops are linear, so the
// tangent of the result is the same op (same attributes) applied to the
// tangents %T...; an operand without a tangent contributes zeros.

// CHECK-LABEL: func.func @view
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[T:.*]]: tensor<3x4xf32> {tp.tangent}) -> (tensor<2x6xf32>, tensor<2x6xf32>)
// CHECK-NEXT: %[[Y:.*]] = tp.view %[[X]] {size = array<i64: 2, -1>} :
// CHECK-NEXT: %[[DY:.*]] = tp.view %[[T]] {size = array<i64: 2, -1>} : tensor<3x4xf32> -> tensor<2x6xf32>
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @view(%x: tensor<3x4xf32>) -> tensor<2x6xf32> {
  %y = tp.view %x {size = array<i64: 2, -1>} : tensor<3x4xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// CHECK-LABEL: func.func @permute
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>, %[[T:.*]]: tensor<2x3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.permute %[[X]] {dims = array<i64: 2, 0, 1>} :
// CHECK-NEXT: %[[DY:.*]] = tp.permute %[[T]] {dims = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @permute(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %y = tp.permute %x {dims = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @expand
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xf32>, %[[T:.*]]: tensor<3x1xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.expand %[[X]] {size = array<i64: 2, -1, 4>} :
// CHECK-NEXT: %[[DY:.*]] = tp.expand %[[T]] {size = array<i64: 2, -1, 4>} : tensor<3x1xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %y = tp.expand %x {size = array<i64: 2, -1, 4>} : tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[T:.*]]: tensor<5x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.slice %[[X]] {end = 5 : i64, start = 1 : i64, step = 2 : i64} :
// CHECK-NEXT: %[[DY:.*]] = tp.slice %[[T]] {end = 5 : i64, start = 1 : i64, step = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return %[[Y]], %[[DY]] :
func.func @slice(%x: tensor<5x4xf32>) -> tensor<2x4xf32> {
  %y = tp.slice %x {dim = 0 : i64, start = 1 : i64, end = 5 : i64, step = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// cat: the tangents concatenated in operand order. With wrt=0 only the
// first operand has a tangent; the second contributes zeros.
// CHECK-LABEL: func.func @cat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x1xf32>, %[[TA:.*]]: tensor<2x3xf32> {tp.tangent}, %[[TB:.*]]: tensor<2x1xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.cat %[[A]], %[[B]] {dim = 1 : i64} :
// CHECK-NEXT: %[[DY:.*]] = tp.cat %[[TA]], %[[TB]] {dim = 1 : i64} :
// CHECK-NEXT: return %[[Y]], %[[DY]] :
// WRT-LABEL: func.func @cat
// WRT-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x1xf32>, %[[TA:.*]]: tensor<2x3xf32> {tp.tangent}) -> (tensor<2x4xf32>, tensor<2x4xf32>)
// WRT-NEXT: %[[Y:.*]] = tp.cat %[[A]], %[[B]] {dim = 1 : i64} :
// WRT-NEXT: %[[Z:.*]] = tp.full {value = 0.000000e+00 : f64} : tensor<2x1xf32>
// WRT-NEXT: %[[DY:.*]] = tp.cat %[[TA]], %[[Z]] {dim = 1 : i64} :
// WRT-NEXT: return %[[Y]], %[[DY]] :
func.func @cat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %y = tp.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// split: the tangent is split the same way; each returned chunk's tangent
// is the matching chunk of the tangent.
// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[T:.*]]: tensor<5x4xf32> {tp.tangent}) -> (tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>)
// CHECK-NEXT: %[[Y:.*]]:3 = tp.split %[[X]] {split_size = 2 : i64} :
// CHECK-NEXT: %[[DY:.*]]:3 = tp.split %[[T]] {split_size = 2 : i64} :
// CHECK-NEXT: return %[[Y]]#1, %[[Y]]#2, %[[DY]]#1, %[[DY]]#2 :
func.func @split(%x: tensor<5x4xf32>) -> (tensor<2x4xf32>, tensor<1x4xf32>) {
  %y:3 = tp.split %x {split_size = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>
  return %y#1, %y#2 : tensor<2x4xf32>, tensor<1x4xf32>
}
