// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 call-grain=0" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 parallel=false" %s | FileCheck %s --check-prefix=CHECK-SEQ
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 grain=1000 call-grain=0" %s | FileCheck %s --check-prefix=CHECK-GRAIN

// A node runs its outer loops as one scf.parallel when parallel is set
// (the default) and it does at least `grain` body evaluations (default
// 32768); the innermost loop stays sequential. A single loop is cut into
// chunks of max(grain / 4, 64) elements.

// Example 6.1: 256 x 512 = 131072 evaluations. It reads x transposed, so
// its loops run in 16 x 16 tiles (transpose-tiles.mlir): parallel over the
// 16 blocks of one row tile, each walking its 4 blocks of 8 column tiles.
// CHECK-LABEL: func.func @example_6_1
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[C16]]) step
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.reduce
// CHECK: return
// CHECK-SEQ-LABEL: func.func @example_6_1
// CHECK-SEQ-NOT: scf.parallel
// CHECK-SEQ: return
// CHECK-GRAIN-LABEL: func.func @example_6_1
// CHECK-GRAIN: scf.parallel
// CHECK-GRAIN: return
func.func @example_6_1(%x: tensor<512x256xf32>, %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %0 = tp.t %x : tensor<512x256xf32> -> tensor<256x512xf32>
  %1 = tp.add %0, %y : tensor<256x512xf32>, tensor<256x512xf32> -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
}

// Exactly the grain, one loop: 4 chunks of 8192, the last bounded by min.
// CHECK-LABEL: func.func @at_grain
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.parallel (%[[K:.*]]) = (%[[C0]]) to (%[[C4]]) step
// CHECK: %[[C8192:.*]] = arith.constant 8192 : index
// CHECK: %[[LB:.*]] = arith.muli %[[K]], %[[C8192]] : index
// CHECK: %[[END:.*]] = arith.addi %[[LB]]
// CHECK: %[[UB:.*]] = arith.minsi %[[END]]
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[UB]] step
// CHECK: return
// CHECK-SEQ-LABEL: func.func @at_grain
// CHECK-SEQ-NOT: scf.parallel
// CHECK-SEQ: return
func.func @at_grain(%x: tensor<32768xf32>) -> tensor<32768xf32> {
  %0 = tp.relu %x : tensor<32768xf32> -> tensor<32768xf32>
  return %0 : tensor<32768xf32>
}

// One evaluation below the grain: sequential.
// CHECK-LABEL: func.func @below_grain
// CHECK-NOT: scf.parallel
// CHECK: return
// With grain=1000 it is parallel, in chunks of max(1000 / 4, 64) = 250.
// CHECK-GRAIN-LABEL: func.func @below_grain
// CHECK-GRAIN: scf.parallel
// CHECK-GRAIN: arith.constant 250 : index
// CHECK-GRAIN: return
func.func @below_grain(%x: tensor<32767xf32>) -> tensor<32767xf32> {
  %0 = tp.relu %x : tensor<32767xf32> -> tensor<32767xf32>
  return %0 : tensor<32767xf32>
}

// Example 1.1 (2 x 3): far below any grain.
// CHECK-LABEL: func.func @example_1_1
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-GRAIN-LABEL: func.func @example_1_1
// CHECK-GRAIN-NOT: scf.parallel
// CHECK-GRAIN: return
func.func @example_1_1(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// A reduction counts its reduction range too: 999 rows of 33 = 32967
// evaluations runs its rows in parallel (one loop: chunks), each row
// summing sequentially.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.for {{.*}} iter_args
// CHECK: return
// CHECK-SEQ-LABEL: func.func @row_sum
// CHECK-SEQ-NOT: scf.parallel
// CHECK-SEQ: return
func.func @row_sum(%x: tensor<999x33xf32>) -> tensor<999xf32> {
  %0 = tp.sum %x {dims = array<i64: -1>} : tensor<999x33xf32> -> tensor<999xf32>
  return %0 : tensor<999xf32>
}

// A fused kernel (softmax over rows: max, exp, sum, division) runs its
// outer range [64] as one scf.parallel holding all its nodes in order.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C64]]) step
// CHECK-NOT: scf.parallel
// CHECK: arith.cmpf ogt
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: scf.reduce
// CHECK: return
// CHECK-SEQ-LABEL: func.func @softmax
// CHECK-SEQ-NOT: scf.parallel
// CHECK-SEQ: return
func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<64x1024xf32> -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}
