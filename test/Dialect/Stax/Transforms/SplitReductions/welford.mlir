// RUN: stax-opt %s --stax-split-reductions | FileCheck %s --check-prefix=CHECK-SPLIT
// RUN: stax-opt %s --stax-split-reductions | stax-run - --random-inputs --entry=forward --seed 7 --print-values | FileCheck %s --check-prefix=CHECK-COUNT

// A Welford reduction (mean, M2, count) over 16384 values with 64 outputs
// splits like Example 6.2 into k = 2: the first level computes partial
// triples in three 64x2 buffers, the second combines them with Chan's
// formula (welford_combine), loading the three partials at 2*i0 + r0.

// CHECK-SPLIT-LABEL: func.func @forward
// CHECK-SPLIT: %[[P:.*]]:3 = stax.reduction welford [8192] layout <[2, 1]> : tensor<64x2xf32>, tensor<64x2xf32>, tensor<64x2xf32> {
// CHECK-SPLIT-NEXT: ^bb0(%[[I0:.*]]: index, %[[I1:.*]]: index, %[[R0:.*]]: index):
// CHECK-SPLIT-NEXT: affine.apply #[[FIRST:.*]](%[[I0]], %[[I1]], %[[R0]])
// CHECK-SPLIT: %[[C:.*]]:3 = stax.reduction welford_combine [2] layout <[1]> : tensor<64xf32>, tensor<64xf32>, tensor<64xf32> {
// CHECK-SPLIT-NEXT: ^bb0(%[[J0:.*]]: index, %[[S0:.*]]: index):
// CHECK-SPLIT-NEXT: %[[A:.*]] = affine.apply #[[SECOND:.*]](%[[J0]], %[[S0]])
// CHECK-SPLIT-NEXT: %[[M:.*]] = stax.load %[[P]]#0[%[[A]]] : tensor<64x2xf32>
// CHECK-SPLIT-NEXT: %[[M2:.*]] = stax.load %[[P]]#1[%[[A]]] : tensor<64x2xf32>
// CHECK-SPLIT-NEXT: %[[N:.*]] = stax.load %[[P]]#2[%[[A]]] : tensor<64x2xf32>
// CHECK-SPLIT-NEXT: stax.yield %[[M]], %[[M2]], %[[N]] : f32, f32, f32
// CHECK-SPLIT: return %[[C]]#0, %[[C]]#1, %[[C]]#2

// The count is exact: 16384 per output.
// CHECK-COUNT: result #2: tensor<64xf32> min=16384 max=16384
// CHECK-COUNT-NEXT: [16384, 16384, 16384,
func.func @forward(%x: tensor<64x16384xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %w:3 = stax.reduction welford [16384] layout <[1]> : tensor<64xf32>, tensor<64xf32>, tensor<64xf32> {
  ^bb0(%i: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 16384 + d1)>(%i, %r)
    %v = stax.load %x[%a] : tensor<64x16384xf32>
    stax.yield %v : f32
  }
  return %w#0, %w#1, %w#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
