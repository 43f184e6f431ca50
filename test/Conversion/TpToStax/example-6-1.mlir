// RUN: stax-opt --stax-decompose --stax-lower="target=cuda" %s | FileCheck %s --check-prefix=CHECK-LOWER

// Example 6.1 (Listing 6.3): the transpose is no node of its own, only the
// index i0 + 256*i1 of x; y is read contiguously at 512*i0 + i1.

// CHECK-LOWER-DAG: #[[XT:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 256)>
// CHECK-LOWER-DAG: #[[Y:.*]] = affine_map<(d0, d1) -> (d0 * 512 + d1)>
// CHECK-LOWER-LABEL: func.func @f
// CHECK-LOWER-NEXT: %[[BUF:.*]] = stax.pointwise layout <[512, 1]> : tensor<256x512xf32> {
// CHECK-LOWER-NEXT: ^bb0(%[[I0:.*]]: index, %[[I1:.*]]: index):
// CHECK-LOWER-NEXT:   %[[A:.*]] = affine.apply #[[XT]](%[[I0]], %[[I1]])
// CHECK-LOWER-NEXT:   %[[LX:.*]] = stax.load %arg0[%[[A]]] : tensor<512x256xf32>
// CHECK-LOWER-NEXT:   %[[B:.*]] = affine.apply #[[Y]](%[[I0]], %[[I1]])
// CHECK-LOWER-NEXT:   %[[LY:.*]] = stax.load %arg1[%[[B]]] : tensor<256x512xf32>
// CHECK-LOWER-NEXT:   %[[S:.*]] = arith.addf %[[LX]], %[[LY]] : f32
// CHECK-LOWER-NEXT:   stax.yield %[[S]] : f32
// CHECK-LOWER-NEXT: }
// CHECK-LOWER-NEXT: return %[[BUF]]
func.func @f(%x: tensor<512x256xf32>, %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %0 = tp.t %x : tensor<512x256xf32> -> tensor<256x512xf32>
  %1 = tp.add %0, %y : tensor<256x512xf32>, tensor<256x512xf32> -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
}
