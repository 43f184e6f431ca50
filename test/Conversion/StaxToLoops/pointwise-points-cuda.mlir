// RUN: stax-opt --stax-lowering-pipeline="target=cuda" %s | stax-opt --stax-to-loops="target=cuda" | FileCheck %s
// RUN: stax-opt --stax-pipeline="target=cuda" %s | stax-translate --stax-to-ptx | FileCheck %s --check-prefix=PTX

// target=cuda: an elementwise node of 2^20 points or more gives each thread
// 4 points, k*1024 + j*256 + t for j = 0..3 (a warp's j-th points are
// neighbours); all 4 values are computed before the first store, so the
// thread has all its loads in flight at once. A point past the end
// computes at the last point and is not stored.

// CHECK-LABEL: func.func @add(
// CHECK: scf.parallel (%[[BLK:.*]]) = (%{{.*}}) to (%c2048) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256) step
// CHECK: %[[P0:.*]] = affine.apply #{{.*}}(%[[BLK]], %[[T]])
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[P0]], %c2097152
// CHECK: %[[C0:.*]] = arith.minui %[[P0]], %c2097151
// CHECK-COUNT-3: arith.minui
// CHECK-COUNT-4: arith.addf
// CHECK-NOT: memref.load
// CHECK: scf.if %[[IN0]] {
// CHECK-NEXT: affine.apply
// CHECK-NEXT: memref.store
// CHECK-COUNT-3: memref.store
func.func @add(%x: tensor<2048x1024xf32>, %y: tensor<2048x1024xf32>) -> tensor<2048x1024xf32> {
  %0 = tp.add %x, %y : tensor<2048x1024xf32>, tensor<2048x1024xf32> -> tensor<2048x1024xf32>
  return %0 : tensor<2048x1024xf32>
}

// Not a multiple of 1024: 1025 blocks, the last one's points past 1048579
// not stored.
// CHECK-LABEL: func.func @odd(
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1025) step
// CHECK: arith.cmpi ult, %{{.*}}, %c1048579
// CHECK: arith.minui %{{.*}}, %c1048578
func.func @odd(%x: tensor<1048579xf32>) -> tensor<1048579xf32> {
  %0 = tp.neg %x : tensor<1048579xf32> -> tensor<1048579xf32>
  return %0 : tensor<1048579xf32>
}

// Small nodes keep a thread per point.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: arith.minui
// CHECK: return
func.func @small(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tp.add %x, %y : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// PTX-LABEL: .entry add_kernel(
// PTX-COUNT-8: ld.global.b32
// PTX-NOT: ld.global
// PTX: st.global.b32
// PTX-LABEL: .entry odd_kernel(
