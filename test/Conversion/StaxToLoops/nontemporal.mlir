// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false nontemporal-bytes=4096" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 parallel=false" %s | FileCheck %s --check-prefix=DEFAULT
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=12 parallel=false nontemporal-bytes=4096" %s | FileCheck %s --check-prefix=ODD
// RUN: stax-run %s --entry=big --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=big --random-inputs --print=hash --jit --pipeline-options="nontemporal-bytes=4096" | sed 1d > %t.nt
// RUN: diff %t.interp %t.nt
// RUN: stax-run %s --entry=big --random-inputs --print=hash --jit --pipeline-options="nontemporal-bytes=4096 grain=1" --num-threads=4 | sed 1d > %t.nt4
// RUN: diff %t.interp %t.nt4

// A vectorized pointwise result of at least nontemporal-bytes (default
// 32 MiB: beyond the caches), in rows of at least 4 KiB, is stored with
// non-temporal vector stores:
// a scalar prologue up to the first 64-byte aligned element (the result's
// byte address from its aligned pointer and offset), the vector loop, the
// scalar tail, then a fence that orders the weakly ordered stores.
// CHECK-LABEL: func.func @big(
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[OUT:[^ ]*]]
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[OUT]]
// CHECK: arith.andi %{{.*}}, %c63
// CHECK: %[[START:.*]] = arith.minsi
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[START]] step
// CHECK: memref.store
// CHECK: scf.for %{{.*}} = %[[START]] to %{{.*}} step %c16
// CHECK: vector.store %{{.*}}, %[[OUT]][%{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK: scf.for
// CHECK: memref.store
// CHECK: llvm.fence seq_cst
// DEFAULT-LABEL: func.func @big(
// DEFAULT-NOT: nontemporal
// DEFAULT: return
// 12 lanes of f32 are 48 bytes: no aligned vector store, no prologue.
// ODD-LABEL: func.func @big(
// ODD-NOT: nontemporal
// ODD-NOT: llvm.fence
// ODD: return
func.func @big(%x: tensor<37x1031xf32>, %y: tensor<1031xf32>) -> tensor<37x1031xf32> {
  %0 = tp.add %x, %y : tensor<37x1031xf32>, tensor<1031xf32> -> tensor<37x1031xf32>
  %1 = tp.mul %0, %x : tensor<37x1031xf32>, tensor<37x1031xf32> -> tensor<37x1031xf32>
  return %1 : tensor<37x1031xf32>
}

// Rows (innermost loops) under 4 KiB: ordinary stores, though the result
// is large enough. Each row would pay a fence and two partial lines (rows
// of 32 f32 here; im2col's ran 10x slower with non-temporal stores).
// CHECK-LABEL: func.func @short_rows(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
// CHECK: return
func.func @short_rows(%x: tensor<128x32xf32>, %b: tensor<128x1xf32>) -> tensor<128x32xf32> {
  %0 = tp.add %x, %b : tensor<128x32xf32>, tensor<128x1xf32> -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
}

// Below the threshold: ordinary stores.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: nontemporal
// CHECK: return
func.func @small(%x: tensor<32xf32>) -> tensor<32xf32> {
  %0 = tp.neg %x : tensor<32xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// f16: 16 lanes are 32 bytes, so the stores are aligned to 32.
// CHECK-LABEL: func.func @half(
// CHECK: arith.andi %{{.*}}, %c31
// CHECK: vector.store {{.*}} {alignment = 32 : i64, nontemporal = true} : memref<{{.*}}xf16>, vector<16xf16>
// CHECK: llvm.fence seq_cst
func.func @half(%x: tensor<4096xf16>) -> tensor<4096xf16> {
  %0 = tp.neg %x : tensor<4096xf16> -> tensor<4096xf16>
  return %0 : tensor<4096xf16>
}

// Inside a kernel only the yielded result leaves it: the row's
// exponentials (kernel-local, read again at once) keep ordinary stores.
// CHECK-LABEL: func.func @softmax(
// CHECK: scf.for
// CHECK-NOT: nontemporal
// CHECK: math.exp
// CHECK: vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK: llvm.fence seq_cst
func.func @softmax(%x: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %0 = tp._softmax %x {dim = 1 : i64, half_to_float = false} : tensor<16x1024xf32> -> tensor<16x1024xf32>
  return %0 : tensor<16x1024xf32>
}

// Two functions or divisions per element make the loop compute bound:
// ordinary stores (the fence would cost more than the saved reads).
// CHECK-LABEL: func.func @compute_bound(
// CHECK-NOT: nontemporal
// CHECK: return
func.func @compute_bound(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = tp.sigmoid %x : tensor<4096xf32> -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
