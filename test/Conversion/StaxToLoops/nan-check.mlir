// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=8 parallel=false check-nan=true" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=8 parallel=false" %s | FileCheck %s --check-prefix=CHECK-OFF
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="target=cuda check-nan=true" %s | FileCheck %s --check-prefix=CHECK-CUDA

// With check-nan, every floating-point value a node stores is tested just
// before the store: a NaN calls stax_rt_nan_error(site, position), where
// the site (one per node) indexes stax.error_sites and the position is the
// element's index in the result's storage. A vector is tested with one
// cmpf uno and an `or` reduction; only on that cold path is its first NaN
// lane found (a select of the lane numbers and a min reduction). Integer
// results get no check. The scatter's NaN check and its address check
// share the scatter's site (one site per op).
// CHECK: module attributes {stax.error_sites = ["stax.pointwise at loc({{[^)]*}}:[[@LINE+43]]:8)", "stax.reduction at loc({{[^)]*}}:[[@LINE+61]]:8)", "stax.reduction at loc({{[^)]*}}:[[@LINE+77]]:8)", "tp.mm at loc({{[^)]*}}:[[@LINE+103]]:8)", "stax.indirect_index at {{[^"]*}}", "stax.scatter at {{[^"]*}}"]}

// Without the option nothing is emitted: no check, no callee, and only the
// scatter's index checks have sites.
// CHECK-OFF: module attributes {stax.error_sites = ["stax.indirect_index at {{[^"]*}}", "stax.scatter at {{[^"]*}}"]}
// CHECK-OFF-NOT: cmpf uno
// CHECK-OFF-NOT: stax_rt_nan_error

// CHECK-LABEL: func.func @pointwise(
// CHECK-SAME: %[[X:[^:]*]]: memref<37xf32>, %[[OUT:[^:]*]]: memref<37xf32> {stax.output})
// CHECK: scf.for
// CHECK: %[[V:.*]] = arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: %[[ADDR:.*]] = affine.apply
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<8xf32>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[NAN]] : vector<8xi1> into i1
// CHECK: scf.if %[[ANY]] {
// CHECK: %[[SITE:.*]] = arith.constant 0 : i64
// CHECK: %[[BASE:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi64>
// CHECK: %[[NONE:.*]] = arith.constant dense<8> : vector<8xi64>
// CHECK: %[[PICKED:.*]] = arith.select %[[NAN]], %[[LANES]], %[[NONE]] : vector<8xi1>, vector<8xi64>
// CHECK: %[[FIRST:.*]] = vector.reduction <minsi>, %[[PICKED]] : vector<8xi64> into i64
// CHECK: %[[POS:.*]] = arith.addi %[[BASE]], %[[FIRST]] : i64
// CHECK: func.call @stax_rt_nan_error(%[[SITE]], %[[POS]]) : (i64, i64) -> ()
// CHECK: }
// CHECK: vector.store %[[V]], %[[OUT]][%[[ADDR]]]
// The scalar tail: the same site.
// CHECK: scf.for
// CHECK: %[[S:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[SADDR:.*]] = affine.apply
// CHECK: %[[SNAN:.*]] = arith.cmpf uno, %[[S]], %[[S]] : f32
// CHECK: scf.if %[[SNAN]] {
// CHECK: %[[SSITE:.*]] = arith.constant 0 : i64
// CHECK: %[[SPOS:.*]] = arith.index_cast %[[SADDR]] : index to i64
// CHECK: func.call @stax_rt_nan_error(%[[SSITE]], %[[SPOS]])
// CHECK: }
// CHECK: memref.store %[[S]], %[[OUT]][%[[SADDR]]]
// CHECK-CUDA-LABEL: func.func @pointwise(
// CHECK-CUDA: %[[V:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-CUDA: %[[OK:.*]] = arith.cmpf ord, %[[V]], %[[V]] : f32
// CHECK-CUDA: cf.assert %[[OK]], "NaN in the result of 'stax.pointwise' at loc({{.*}}nan-check.mlir{{.*}}:[[@LINE+3]]:8)"
// CHECK-CUDA: memref.store %[[V]]
func.func @pointwise(%x: tensor<37xf32>) -> tensor<37xf32> {
  %0 = tp.div %x, %x : tensor<37xf32>, tensor<37xf32> -> tensor<37xf32>
  return %0 : tensor<37xf32>
}

// A reduction's final store (here after a vector accumulator along the
// row) is checked like any other.
// CHECK-LABEL: func.func @rows(
// CHECK: %[[LANES:.*]] = vector.reduction <add>
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[LANES]] : f64
// CHECK: %[[ADDR:.*]] = affine.apply
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[SUM]], %[[SUM]] : f64
// CHECK: scf.if %[[NAN]] {
// CHECK: %[[SITE:.*]] = arith.constant 1 : i64
// CHECK: %[[POS:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: func.call @stax_rt_nan_error(%[[SITE]], %[[POS]])
// CHECK: }
// CHECK: memref.store %[[SUM]], %{{.*}}[%[[ADDR]]] : memref<4xf64>
func.func @rows(%x: tensor<4x32xf64>) -> tensor<4xf64> {
  %s = tp.sum %x {dims = array<i64: 1>} : tensor<4x32xf64> -> tensor<4xf64>
  return %s : tensor<4xf64>
}

// Eight outputs per vector: the vector of sums is checked before its store.
// CHECK-LABEL: func.func @columns(
// CHECK: %[[SUMS:.*]] = scf.for {{.*}} -> (vector<8xf32>)
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[SUMS]], %[[SUMS]] : vector<8xf32>
// CHECK: vector.reduction <or>, %[[NAN]]
// CHECK: %[[SITE:.*]] = arith.constant 2 : i64
// CHECK: vector.reduction <minsi>
// CHECK: func.call @stax_rt_nan_error(%[[SITE]],
// CHECK: vector.store %[[SUMS]]
// CHECK: arith.cmpf uno, %{{.*}}, %{{.*}} : f32
// CHECK: memref.store
func.func @columns(%x: tensor<32x16xf32>) -> tensor<16xf32> {
  %s = tp.sum %x {dims = array<i64: 0>} : tensor<32x16xf32> -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// CHECK-LABEL: func.func @integers(
// CHECK-NOT: stax_rt_nan_error
// CHECK: return
func.func @integers(%x: tensor<37xi64>) -> tensor<37xi64> {
  %0 = tp.add %x, %x : tensor<37xi64>, tensor<37xi64> -> tensor<37xi64>
  return %0 : tensor<37xi64>
}

// BLAS writes the output itself: a loop checks it after the call.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[OUT:[^:]*]]: memref<8xf32> {stax.output})
// CHECK: call @stax_rt_matmul_f32(
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = memref.load %[[OUT]][%[[I]]] : memref<8xf32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK: scf.if %[[NAN]] {
// CHECK: %[[SITE:.*]] = arith.constant 3 : i64
// CHECK: %[[POS:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: func.call @stax_rt_nan_error(%[[SITE]], %[[POS]])
// CHECK-CUDA-LABEL: func.func @matmul(
// CHECK-CUDA: cf.assert %{{.*}}, "NaN in the result of 'tp.mm' at loc(
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %m = tp.mm %a, %b : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// A scatter checks the value it stores (the sum, when accumulating).
// CHECK-LABEL: func.func @scatter(
// CHECK: %[[OLD:.*]] = memref.load %{{.*}} : memref<12xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[SUM]], %[[SUM]] : f32
// CHECK: scf.if %[[NAN]] {
// CHECK: func.call @stax_rt_nan_error(
// CHECK: memref.store %[[SUM]]
// CHECK: func.call @stax_rt_index_error(
// CHECK: func.func private @stax_rt_nan_error(i64, i64)
func.func @scatter(%z: tensor<4x3xf32>, %s: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %i = tp.constant dense<[[0, 1, 2], [3, 1, 0]]> : tensor<2x3xi64>
  %r = tp.scatter_add %z, %i, %s {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
