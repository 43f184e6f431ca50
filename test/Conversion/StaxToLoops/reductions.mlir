// RUN: stax-opt --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s

// Reduction states travel through scf.for iter_args: argmax as (value,
// position, count), Welford as (mean, M2, count), the second level of a
// split Welford (welford_combine) merging partial states and skipping
// empty ones. None of these is vectorized: the Welford kinds never are,
// and argmax here reduces fewer elements than a vector holds (longer ones:
// vectorize.mlir).

// CHECK-LABEL: func.func @argmax(
// CHECK-SAME: %[[X:[^:]*]]: memref<60xf32>, %[[OUT:[^:]*]]: memref<4xi64> {stax.output})
// CHECK-NOT: vector.
// CHECK: scf.for
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[S:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[V:.*]] = %[[NEGINF]], %[[P:.*]] = %[[ZERO]], %[[N:.*]] = %[[ZERO]]) -> (f32, i64, i64) {
// CHECK: %[[Y:.*]] = memref.load %[[X]]
// The first NaN wins, then the first strict maximum.
// CHECK-DAG: %[[ORD:.*]] = arith.cmpf ord, %[[V]], %[[V]] : f32
// CHECK-DAG: %[[YNAN:.*]] = arith.cmpf uno, %[[Y]], %[[Y]] : f32
// CHECK-DAG: %[[GT:.*]] = arith.cmpf ogt, %[[Y]], %[[V]] : f32
// CHECK: %[[EITHER:.*]] = arith.ori %[[YNAN]], %[[GT]] : i1
// CHECK: %[[TAKE:.*]] = arith.andi %[[ORD]], %[[EITHER]] : i1
// CHECK: %[[V2:.*]] = arith.select %[[TAKE]], %[[Y]], %[[V]] : f32
// CHECK: %[[P2:.*]] = arith.select %[[TAKE]], %[[N]], %[[P]] : i64
// CHECK: %[[N2:.*]] = arith.addi %[[N]], %{{.*}} : i64
// CHECK: scf.yield %[[V2]], %[[P2]], %[[N2]] : f32, i64, i64
// CHECK: memref.store %[[S]]#1, %[[OUT]]
// CHECK-NOT: vector.
// CHECK: return
func.func @argmax(%x: tensor<4x15xf32>) -> tensor<4xi64> {
  %am = stax.reduction argmax [15] layout <[1]> : tensor<4xi64> {
  ^bb0(%i: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 15 + d1)>(%i, %r)
    %v = stax.load %x[%a] : tensor<4x15xf32>
    stax.yield %v : f32
  }
  return %am : tensor<4xi64>
}

// CHECK-LABEL: func.func @welford(
// CHECK-NOT: vector.
// CHECK: %[[S:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32, f32) {
// CHECK: arith.divf
// CHECK: scf.yield
// The partial states are three buffers in the arena.
// CHECK-COUNT-3: memref.store %[[S]]#{{[0-2]}}, %view
// The combine: the merged state unless a side is empty (count 0).
// CHECK: %[[C:.*]]:3 = scf.for {{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[M2:.*]] = %{{.*}}, %[[NA:.*]] = %{{.*}}) -> (f32, f32, f32) {
// CHECK-COUNT-3: memref.load %view
// CHECK: %[[EMPTYB:.*]] = arith.cmpf oeq, %[[NB:.*]], %[[Z:.*]] : f32
// CHECK: %[[EMPTYA:.*]] = arith.cmpf oeq, %[[NA]], %[[Z]] : f32
// CHECK: %[[T0:.*]] = arith.select %[[EMPTYA]], %{{.*}}, %{{.*}} : f32
// CHECK: %[[R0:.*]] = arith.select %[[EMPTYB]], %[[M]], %[[T0]] : f32
// CHECK: %[[T1:.*]] = arith.select %[[EMPTYA]], %{{.*}}, %{{.*}} : f32
// CHECK: %[[R1:.*]] = arith.select %[[EMPTYB]], %[[M2]], %[[T1]] : f32
// CHECK: %[[T2:.*]] = arith.select %[[EMPTYA]], %[[NB]], %{{.*}} : f32
// CHECK: %[[R2:.*]] = arith.select %[[EMPTYB]], %[[NA]], %[[T2]] : f32
// CHECK: scf.yield %[[R0]], %[[R1]], %[[R2]] : f32, f32, f32
// CHECK: memref.store %[[C]]#0, %arg1
// CHECK: memref.store %[[C]]#1, %arg2
// CHECK: memref.store %[[C]]#2, %arg3
func.func @welford(%arg0: tensor<8x64xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:3 = stax.reduction welford [8] ranges [8, 8] layout <[8, 1]> : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32> {
  ^bb0(%i0: index, %i1: index, %r0: index):
    %3 = affine.apply affine_map<(d0, d1, d2) -> (d0 * 64 + d1 * 8 + d2)>(%i0, %i1, %r0)
    %4 = stax.load %arg0[%3] : tensor<8x64xf32>
    stax.yield %4 : f32
  }
  %1:3 = stax.reduction welford_combine [8] layout <[1]> : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> {
  ^bb0(%i0: index, %r0: index):
    %3 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %r0)
    %4 = stax.load %0#0[%3] : tensor<8x8xf32>
    %5 = stax.load %0#1[%3] : tensor<8x8xf32>
    %6 = stax.load %0#2[%3] : tensor<8x8xf32>
    stax.yield %4, %5, %6 : f32, f32, f32
  }
  return %1#0, %1#1, %1#2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
