// RUN: stax-opt --stax-to-loops="target=cuda" %s | FileCheck %s
// RUN: stax-opt --stax-pipeline="target=cuda" %s | stax-translate --stax-to-ptx | FileCheck %s --check-prefix=PTX

// target=cuda: a scatter runs a thread per scattered value, after a launch
// that copies the base into the result. Accumulations add atomically and
// overwrites store (the op's semantics: any order gives the same sum, and
// repeated overwritten addresses have no defined winner). Accumulations of
// 8- or 16-bit elements keep one thread, in order.

// CHECK-LABEL: func.func @scatter_add(
// The copy of the base: 8 threads.
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c8) step
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.*}}, %arg3
// A thread per value.
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4) step
// CHECK: cf.assert %{{.*}}, "index out of bounds for a dimension of size 8
// CHECK: scf.if
// CHECK-NEXT: memref.atomic_rmw addf %{{.*}}, %arg3[%{{.*}}] : (f32, memref<8xf32>) -> f32
// CHECK: } else {
// CHECK: cf.assert %false, "scatter address out of bounds in stax.scatter
// CHECK-NOT: memref.store
// CHECK: return
func.func @scatter_add(%arg0: tensor<8xf32>, %arg1: tensor<4xi64>, %arg2: tensor<4xf32>) -> tensor<8xf32> {
  %0 = stax.scatter accumulate %arg0 [4] layout <[1]> : tensor<8xf32> {
  ^bb0(%i0: index):
    %1 = stax.load %arg1[%i0] : tensor<4xi64>
    %2 = stax.indirect_index %1, 8 {check_bounds} : i64
    %3 = stax.load %arg2[%i0] : tensor<4xf32>
    stax.yield %2, %3 : index, f32
  }
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @index_put(
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4) step
// CHECK-NOT: atomic_rmw
// CHECK: memref.store %{{.*}}, %arg3
// CHECK: return
func.func @index_put(%arg0: tensor<8xf32>, %arg1: tensor<4xi64>, %arg2: tensor<4xf32>) -> tensor<8xf32> {
  %0 = stax.scatter overwrite %arg0 [4] layout <[1]> : tensor<8xf32> {
  ^bb0(%i0: index):
    %1 = stax.load %arg1[%i0] : tensor<4xi64>
    %2 = stax.indirect_index %1, 8 {check_bounds} : i64
    %3 = stax.load %arg2[%i0] : tensor<4xf32>
    stax.yield %2, %3 : index, f32
  }
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @narrow(
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1) step
// CHECK: memref.copy %arg0, %arg3
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4
// CHECK-NOT: atomic_rmw
// CHECK: return
func.func @narrow(%arg0: tensor<8xi8>, %arg1: tensor<4xi64>, %arg2: tensor<4xi8>) -> tensor<8xi8> {
  %0 = stax.scatter accumulate %arg0 [4] layout <[1]> : tensor<8xi8> {
  ^bb0(%i0: index):
    %1 = stax.load %arg1[%i0] : tensor<4xi64>
    %2 = stax.indirect_index %1, 8 {check_bounds} : i64
    %3 = stax.load %arg2[%i0] : tensor<4xi8>
    stax.yield %2, %3 : index, i8
  }
  return %0 : tensor<8xi8>
}

// PTX-LABEL: .entry scatter_add_kernel_0(
// PTX: atom.global.add.f32
