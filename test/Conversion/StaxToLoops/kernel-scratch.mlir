// RUN: stax-opt --stax-to-loops="vector-width=1 parallel=false" %s | FileCheck %s

// A kernel-local value read at the same outer index lives in a scratch
// buffer of one iteration (allocated once: the loops are sequential),
// reached through a view shifted by the iteration's part of the address.
// CHECK-LABEL: func.func @same_row(
// CHECK-NOT: memref.alloc(
// CHECK: %[[ROW:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[SHIFT:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[ROW]] to offset: [%[[SHIFT]]], sizes: [32], strides: [1]
// CHECK: memref.store %{{.*}}, %[[VIEW]]
// CHECK: memref.load %[[VIEW]]
func.func @same_row(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stax.kernel [4] : tensor<4x8xf32> {
    %1 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
      %v = stax.load %x[%a] : tensor<4x8xf32>
      %e = math.exp %v : f32
      stax.yield %e : f32
    }
    %2 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
      %v = stax.load %1[%a] : tensor<4x8xf32>
      %w = arith.mulf %v, %v : f32
      stax.yield %w : f32
    }
    stax.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// Read at another outer index (row 0's value from every row: the sequential
// order computed it first), the value keeps its whole-tensor buffer.
// CHECK-LABEL: func.func @other_row(
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @other_row(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stax.kernel [4] : tensor<4x8xf32> {
    %1 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
      %v = stax.load %x[%a] : tensor<4x8xf32>
      %e = math.exp %v : f32
      stax.yield %e : f32
    }
    %2 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i0: index, %i1: index):
      %v = stax.load %1[%i1] : tensor<4x8xf32>
      %w = arith.mulf %v, %v : f32
      stax.yield %w : f32
    }
    stax.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// A value the kernel yields (read after it) keeps its buffer: here the
// function's output.
// CHECK-LABEL: func.func @yielded(
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @yielded(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0:2 = stax.kernel [4] : tensor<4x8xf32>, tensor<4x8xf32> {
    %1 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
      %v = stax.load %x[%a] : tensor<4x8xf32>
      %e = math.exp %v : f32
      stax.yield %e : f32
    }
    %2 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
    ^bb0(%i0: index, %i1: index):
      %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
      %v = stax.load %1[%a] : tensor<4x8xf32>
      %w = arith.mulf %v, %v : f32
      stax.yield %w : f32
    }
    stax.yield %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
