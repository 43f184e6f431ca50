// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s

// A data-dependent index (stax.indirect_index with check_bounds) and a
// scatter address are checked at run time: out of range, the code calls
// stax_rt_index_error(site, value, size) and goes on with a clamped index.
// The module lists each site's location in stax.error_sites, in site
// order (one site per op: a vector loop and its scalar tail share it).

// (g1's line is not checked: its site carries the location of the fused
// node, the tp.mul.Scalar, not the tp.index. The scatter's
// indirect index and address are both at the tp.scatter_add.)
// CHECK-DAG: #[[MOD:.*]] = affine_map<(d0) -> ((d0 * 3) mod 128)>
// CHECK: module attributes {stax.error_sites = ["stax.indirect_index at loc({{.*}}indirect.mlir{{.*}}:{{[0-9]+}}:8)", "stax.indirect_index at loc({{.*}}indirect.mlir{{.*}}:[[@LINE+102]]:8)", "stax.scatter at loc({{.*}}indirect.mlir{{.*}}:[[@LINE+102]]:8)"]}

// Example 6.3's g1: idx comes from memory, so negative indices wrap (+128)
// and the bounds check stays (Listing 6.5). With vector-width=16 the
// indices of 16 lanes are checked at once: one test per vector, the first
// bad lane's value reported; the reads are one gather (32-bit offsets: the
// buffer has fewer than 2^31 elements). The scalar tail
// checks one index at a time, at the same site.
// CHECK-LABEL: func.func @g1(
// CHECK-SAME: %[[X:[^:]*]]: memref<128xf32>, %[[IDX:[^:]*]]: memref<128xi64>, %[[OUT:[^:]*]]: memref<128xf32> {stax.output})
// CHECK: %[[VRAW:.*]] = vector.load %[[IDX]][%{{.*}}] : memref<128xi64>, vector<16xi64>
// CHECK: %[[VSIZE:.*]] = arith.constant dense<128> : vector<16xi64>
// CHECK: %[[VNEG:.*]] = arith.cmpi slt, %[[VRAW]], %{{.*}} : vector<16xi64>
// CHECK: %[[VPLUS:.*]] = arith.addi %[[VRAW]], %[[VSIZE]] : vector<16xi64>
// CHECK: %[[VWRAPPED:.*]] = arith.select %[[VNEG]], %[[VPLUS]], %[[VRAW]]
// CHECK: %[[VOK:.*]] = arith.cmpi ult, %[[VWRAPPED]], %[[VSIZE]] : vector<16xi64>
// CHECK: %[[VBAD:.*]] = arith.xori %[[VOK]], %{{.*}} : vector<16xi1>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[VBAD]] : vector<16xi1> into i1
// CHECK: scf.if %[[ANY]] {
// CHECK: %[[VSITE:.*]] = arith.constant 0 : i64
// CHECK: %[[LANE:.*]] = vector.reduction <minsi>
// CHECK: %[[L:.*]] = arith.index_cast %[[LANE]] : i64 to index
// CHECK: %[[BADRAW:.*]] = vector.extract %[[VRAW]][%[[L]]] : i64 from vector<16xi64>
// CHECK: func.call @stax_rt_index_error(%[[VSITE]], %[[BADRAW]], %{{.*}}) : (i64, i64, i64) -> ()
// CHECK: }
// CHECK: %[[VCLAMPED:.*]] = arith.select %[[VOK]], %[[VWRAPPED]], %{{.*}} : vector<16xi1>, vector<16xi64>
// CHECK: %[[VI:.*]] = arith.index_cast %[[VCLAMPED]] : vector<16xi64> to vector<16xindex>
// CHECK: %[[VI32:.*]] = arith.index_cast %[[VI]] : vector<16xindex> to vector<16xi32>
// CHECK: vector.gather %[[X]][%{{.*}}] [%[[VI32]]]
// CHECK: vector.store
// CHECK: %[[RAW:.*]] = memref.load %[[IDX]][%{{.*}}] : memref<128xi64>
// CHECK: %[[SIZE:.*]] = arith.constant 128 : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[RAW]], %[[ZERO]] : i64
// CHECK: %[[PLUS:.*]] = arith.addi %[[RAW]], %[[SIZE]] : i64
// CHECK: %[[WRAPPED:.*]] = arith.select %[[NEG]], %[[PLUS]], %[[RAW]] : i64
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[WRAPPED]], %[[SIZE]] : i64
// CHECK: %[[BAD:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK: scf.if %[[BAD]] {
// CHECK: %[[SITE:.*]] = arith.constant 0 : i64
// CHECK: func.call @stax_rt_index_error(%[[SITE]], %[[RAW]], %[[SIZE]]) : (i64, i64, i64) -> ()
// CHECK: }
// CHECK: %[[CLAMPED:.*]] = arith.select %[[OK]], %[[WRAPPED]], %{{.*}} : i64
// CHECK: %[[I:.*]] = arith.index_cast %[[CLAMPED]] : i64 to index
// CHECK: %[[A:.*]] = affine.apply #{{.*}}()[%[[I]]]
// CHECK: memref.load %[[X]][%[[A]]] : memref<128xf32>
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: return
func.func @g1(%x: tensor<128xf32>, %idx: tensor<128xi64>) -> tensor<128xf32> {
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// g2: the index is (3 i) mod 128, proven in [0, 127] (Listing 6.6): a
// direct read at the address (3 i) mod 128, no check, no error site. Lanes
// of a mod are no constant stride apart, so the loop stays scalar.
// CHECK-LABEL: func.func @g2(
// CHECK-SAME: %[[X:[^:]*]]: memref<128xf32>, %[[OUT:[^:]*]]: memref<128xf32> {stax.output})
// CHECK-NOT: stax_rt_index_error
// CHECK-NOT: vector.
// CHECK: %[[A:.*]] = affine.apply #[[MOD]](%{{.*}})
// CHECK: memref.load %[[X]][%[[A]]] : memref<128xf32>
// CHECK-NOT: stax_rt_index_error
// CHECK-NOT: vector.
// CHECK: return
func.func @g2(%x: tensor<128xf32>) -> tensor<128xf32> {
  %a = tp.arange {start = 0 : i64, end = 128 : i64} : tensor<128xi64>
  %m = tp.mul.Scalar %a {other = 3 : i64} : tensor<128xi64> -> tensor<128xi64>
  %r = tp.remainder.Scalar %m {other = 128 : i64} : tensor<128xi64> -> tensor<128xi64>
  %0 = tp.index %x[%r] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// A scatter copies its base into its own buffer (an arena slot here, read
// by the negation) and adds in lexicographic order, checking the index
// (site 1, no wrap) and the final address (site 2) against the buffer.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME: %[[Z:[^:]*]]: memref<12xf32>, %[[I:[^:]*]]: memref<6xi64>, %[[S:[^:]*]]: memref<6xf32>, %[[OUT:[^:]*]]: memref<12xf32> {stax.output})
// CHECK: %[[BUF:.*]] = memref.view
// CHECK: memref.copy %[[Z]], %[[BUF]] : memref<12xf32> to memref<12xf32>
// CHECK-NOT: scf.parallel
// CHECK: %[[RAW:.*]] = memref.load %[[I]]
// CHECK-NOT: arith.cmpi slt
// CHECK: arith.cmpi ult, %[[RAW]], %{{.*}} : i64
// CHECK: scf.if
// CHECK: func.call @stax_rt_index_error(%{{.*}}, %[[RAW]], %{{.*}})
// CHECK: %[[ADDR:.*]] = affine.apply
// CHECK: %[[V:.*]] = memref.load %[[S]]
// CHECK: %[[C12:.*]] = arith.constant 12 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ADDR]], %[[C12]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[OLD:.*]] = memref.load %[[BUF]][%[[ADDR]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[V]] : f32
// CHECK: memref.store %[[NEW]], %[[BUF]][%[[ADDR]]]
// CHECK: } else {
// CHECK: %[[SITE:.*]] = arith.constant 2 : i64
// CHECK: func.call @stax_rt_index_error(%[[SITE]],
// CHECK: arith.negf
// CHECK: func.func private @stax_rt_index_error(i64, i64, i64)
func.func @scatter_add(%z: tensor<4x3xf32>, %i: tensor<2x3xi64>, %s: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %r = tp.scatter_add %z, %i, %s {dim = 0 : i64} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %n = tp.neg %r : tensor<4x3xf32> -> tensor<4x3xf32>
  return %n : tensor<4x3xf32>
}
