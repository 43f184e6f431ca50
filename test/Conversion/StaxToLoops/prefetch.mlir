// RUN: stax-opt --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s
// RUN: stax-opt --stax-to-loops="vector-width=1 parallel=false" %s | FileCheck %s --check-prefix=SCALAR

// Inside a kernel, a pointwise node's contiguous load of memory outside the
// kernel also prefetches the same lanes of the next outer iteration
// (affine.min: the last row prefetches itself, never past the buffer), so
// that softmax's exponentials of row i overlap row i + 1's trip from memory.
// Loads of kernel-local values (just written, in cache) do not prefetch.
// CHECK-DAG: #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 1, 63)>
// CHECK-LABEL: func.func @softmax_like(
// CHECK-SAME: %[[X:[^:]*]]: memref<2048xf32>
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[N:.*]] = affine.min #[[NEXT]](%[[I]])
// CHECK: %[[D:.*]] = arith.subi %[[N]], %[[I]]
// CHECK: %[[OFF:.*]] = arith.muli %[[D]], %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[A:.*]] = affine.apply
// CHECK: %[[P:.*]] = arith.addi %[[A]], %[[OFF]]
// CHECK: memref.prefetch %[[X]][%[[P]]], read, locality<3>, data
// CHECK: vector.load %[[X]][%[[A]]]
// CHECK: math.exp
// The second node reads the kernel's own value: no prefetch.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK-NOT: memref.prefetch
// CHECK: return
// SCALAR-LABEL: func.func @softmax_like(
// SCALAR-NOT: memref.prefetch
// SCALAR: return
func.func @softmax_like(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = stax.kernel [64] : tensor<64x32xf32> {
    %1 = stax.pointwise layout <[32, 1]> : tensor<64x32xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%i0, %i1)
      %v = stax.load %x[%a] : tensor<64x32xf32>
      %e = math.exp %v : f32
      stax.yield %e : f32
    }
    %2 = stax.pointwise layout <[32, 1]> : tensor<64x32xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%i0, %i1)
      %v = stax.load %1[%a] : tensor<64x32xf32>
      %w = arith.mulf %v, %v : f32
      stax.yield %w : f32
    }
    stax.yield %2 : tensor<64x32xf32>
  }
  return %0 : tensor<64x32xf32>
}

// A load that does not move with the outer loop (a bias row) or is not
// contiguous along the lanes (a column) prefetches nothing.
// CHECK-LABEL: func.func @no_prefetch(
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @no_prefetch(%b: tensor<32xf32>, %c: tensor<32x64xf32>) -> tensor<64x32xf32> {
  %0 = stax.kernel [64] : tensor<64x32xf32> {
    %1 = stax.pointwise layout <[32, 1]> : tensor<64x32xf32> {
    ^bb0(%i0: index, %i1: index):
      %v = stax.load %b[%i1] : tensor<32xf32>
      %a = affine.apply affine_map<(d0, d1) -> (d1 * 64 + d0)>(%i0, %i1)
      %w = stax.load %c[%a] : tensor<32x64xf32>
      %s = arith.addf %v, %w : f32
      stax.yield %s : f32
    }
    stax.yield %1 : tensor<64x32xf32>
  }
  return %0 : tensor<64x32xf32>
}
