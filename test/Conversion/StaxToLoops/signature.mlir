// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-GONE

// Destination-passing style over flat memrefs: inputs become
// memref<numel x T>, each result one more argument marked stax.output, and
// the function returns nothing. Intermediates live in one arena
// (memref.alloc of bytes, memref.view per buffer, 64-byte aligned slots)
// that is freed at the end.

// The globals of @constant below come first in the module.
// CHECK: memref.global "private" constant @constant_const0 : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> {alignment = 64 : i64}

// Two matmuls make four intermediates: a = 2x (operand of the first call),
// b = a @ w, c = relu(b) (operand of the second call), d = c @ w; the
// result -d is written straight into the output argument. Lifetimes:
// a [0, 1], b [1, 2], c [2, 3], d [3, 4]: c reuses a's bytes and d
// reuses b's (first fit), so the arena holds two 128-byte slots.
// CHECK-LABEL: func.func @arena(
// CHECK-SAME: %[[X:.*]]: memref<32xf32>, %[[W:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<32xf32> {stax.output}) {
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK-NEXT: %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]][%[[O0]]][] : memref<256xi8> to memref<32xf32>
// CHECK-NEXT: %[[O1:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]][%[[O1]]][] : memref<256xi8> to memref<32xf32>
// CHECK-NEXT: %[[O2:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[ARENA]][%[[O2]]][] : memref<256xi8> to memref<32xf32>
// CHECK-NEXT: %[[O3:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[D:.*]] = memref.view %[[ARENA]][%[[O3]]][] : memref<256xi8> to memref<32xf32>
// CHECK-NOT: memref.alloc
// CHECK: memref.load %[[X]]
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.load %[[B]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: memref.load %[[D]]
// CHECK: arith.negf
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: memref.dealloc %[[ARENA]] : memref<256xi8>
// CHECK-NEXT: return{{$}}
// CHECK-NEXT: }
func.func @arena(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = tp.mul.Scalar %x {other = 2 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  %b = tp.mm %a, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = tp.relu %b : tensor<4x8xf32> -> tensor<4x8xf32>
  %d = tp.mm %c, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %e = tp.neg %d : tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// Several results: one output argument each, in order. Nodes write their
// outputs directly (no arena, the sum reads the first output back); an
// argument returned as is is copied into its output.
// CHECK-LABEL: func.func @results(
// CHECK-SAME: %[[X:[^:]*]]: memref<6xf32>, %[[Y:[^:]*]]: memref<3xf32>,
// CHECK-SAME: %[[O0:[^:]*]]: memref<6xf32> {stax.output}, %[[O1:[^:]*]]: memref<2xf32> {stax.output}, %[[O2:[^:]*]]: memref<3xf32> {stax.output}) {
// CHECK-NOT: memref.alloc
// CHECK: memref.store %{{.*}}, %[[O0]]
// CHECK: memref.load %[[O0]]
// CHECK: memref.store %{{.*}}, %[[O1]]
// CHECK: memref.copy %[[Y]], %[[O2]] : memref<3xf32> to memref<3xf32>
// CHECK-NOT: memref.dealloc
// CHECK: return{{$}}
func.func @results(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>) {
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0, %1, %y : tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>
}

// Constants become private 64-byte-aligned globals of their flat values;
// a 0-d result is a memref<1xT>. (Globals print first in the module.)
// CHECK-LABEL: func.func @constant(
// CHECK-SAME: %[[OUT:.*]]: memref<1xf32> {stax.output}) {
// CHECK: %[[G:.*]] = memref.get_global @constant_const0 : memref<6xf32>
// CHECK: memref.load %[[G]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
func.func @constant() -> tensor<f32> {
  %c = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = tp.sum %c {dims = array<i64>} : tensor<2x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// Nothing of tp or stax is left, and no tensor anywhere.
// CHECK-GONE-LABEL: func.func @arena
// CHECK-GONE-NOT: {{tensor<|tp\.|stax\.(pointwise|reduction|kernel|load|yield)}}
