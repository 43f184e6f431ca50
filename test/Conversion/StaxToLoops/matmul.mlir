// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline="fuse=false" --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-DECL
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1" %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-FUSED

// tp.mm and tp.bmm stay tp through the lowering (external calls) and
// become calls of the runtime's stax_rt_matmul_<type>(batch, m, n, k, a, b, c)
// with the aligned pointers of the row-major operand and result buffers
// as i64. Each runtime function is declared once per module.

// A result written straight into the caller's buffer.
// CHECK-LABEL: func.func @direct(
// CHECK-SAME: %[[X:[^:]*]]: memref<32xf32>, %[[W:[^:]*]]: memref<24xf32>, %[[OUT:[^:]*]]: memref<12xf32> {stax.output}) {
// CHECK-DAG: %[[BATCH:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[M:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[TA:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[TB:.*]] = arith.constant 0 : i64
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<32xf32> -> index
// CHECK: %[[AX:.*]] = arith.index_cast %[[PX]] : index to i64
// CHECK: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %[[W]] : memref<24xf32> -> index
// CHECK: %[[AW:.*]] = arith.index_cast %[[PW]] : index to i64
// CHECK: %[[PO:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]] : memref<12xf32> -> index
// CHECK: %[[AO:.*]] = arith.index_cast %[[PO]] : index to i64
// CHECK: call @stax_rt_matmul_f32(%[[BATCH]], %[[M]], %[[N]], %[[K]], %[[TA]], %[[TB]], %[[AX]], %[[AW]], %[[AO]]) : (i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK-NEXT: return
func.func @direct(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %0 = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Example 5.1's forward, gelu(x @ W).sum(): the product lives in the arena
// and the call writes there; gelu and the sum read it back.
// CHECK-LABEL: func.func @example_5_1(
// CHECK-SAME: %[[X:[^:]*]]: memref<2048xf32>, %[[W:[^:]*]]: memref<4096xf32>, %[[OUT:[^:]*]]: memref<1xf32> {stax.output}) {
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
// CHECK: %[[H:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<8192xi8> to memref<2048xf32>
// CHECK: %[[PH:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK: %[[AH:.*]] = arith.index_cast %[[PH]] : index to i64
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[AH]])
// CHECK: memref.load %[[H]]
// CHECK: math.erf
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: memref.dealloc %[[ARENA]]
func.func @example_5_1(%x: tensor<32x64xf32>, %w: tensor<64x64xf32>) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %g = tp.gelu %h : tensor<32x64xf32> -> tensor<32x64xf32>
  %s = tp.sum %g {dims = array<i64>} : tensor<32x64xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// tp.bmm passes its batch; f64 calls the f64 entry.
// CHECK-LABEL: func.func @bmm(
// CHECK-DAG: %[[BATCH:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[M:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 8 : i64
// CHECK: call @stax_rt_matmul_f64(%[[BATCH]], %[[M]], %[[N]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
func.func @bmm(%x: tensor<2x4x8xf64>, %w: tensor<2x8x3xf64>) -> tensor<2x4x3xf64> {
  %0 = tp.bmm %x, %w : (tensor<2x4x8xf64>, tensor<2x8x3xf64>) -> tensor<2x4x3xf64>
  return %0 : tensor<2x4x3xf64>
}

// Integer products call the i64 entry.
// CHECK-LABEL: func.func @mm_i64(
// CHECK: call @stax_rt_matmul_i64(
func.func @mm_i64(%x: tensor<4x8xi64>, %w: tensor<8x3xi64>) -> tensor<4x3xi64> {
  %0 = tp.mm %x, %w : (tensor<4x8xi64>, tensor<8x3xi64>) -> tensor<4x3xi64>
  %1 = tp.add %0, %0 : tensor<4x3xi64>, tensor<4x3xi64> -> tensor<4x3xi64>
  return %1 : tensor<4x3xi64>
}

// One private declaration per runtime function (f32 has two callers).
// CHECK-DECL: func.func private @stax_rt_matmul_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DECL-NOT: func.func private @stax_rt_matmul_f32
// CHECK-DECL: func.func private @stax_rt_matmul_f64(i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DECL-NOT: func.func private @stax_rt_matmul_f64
// CHECK-DECL: func.func private @stax_rt_matmul_i64(i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DECL-NOT: func.func private @stax_rt_matmul

// A transposed operand (x @ w.t(), as nn.Linear computes) is not copied:
// BLAS reads w with a transpose flag and the transpose node disappears.
// CHECK-LABEL: func.func @linear(
// CHECK-SAME: %[[X:[^:]*]]: memref<32xf32>, %[[W:[^:]*]]: memref<24xf32>, %[[OUT:[^:]*]]: memref<12xf32> {stax.output}) {
// CHECK-NOT: scf.for
// CHECK: %[[TA:.*]] = arith.constant 0 : i64
// CHECK: %[[TB:.*]] = arith.constant 1 : i64
// CHECK: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TA]], %[[TB]],
// CHECK-NOT: scf.for
// CHECK: return
func.func @linear(%x: tensor<4x8xf32>, %w: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %t = tp.t %w : tensor<3x8xf32> -> tensor<8x3xf32>
  %0 = tp.mm %x, %t : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// A product read only through its transpose (a weight gradient:
// (x^T g)^T, as PyTorch's linear backward computes it) is computed
// transposed, g^T x, by one call with the operands swapped and their
// flags flipped, straight into the transpose's buffer (here the output).
// CHECK-LABEL: func.func @transposed_result(
// CHECK-SAME: %[[X:[^:]*]]: memref<32xf32>, %[[G:[^:]*]]: memref<12xf32>, %[[OUT:[^:]*]]: memref<24xf32> {stax.output}) {
// CHECK-NOT: scf.for
// CHECK: %[[BATCH:.*]] = arith.constant 1 : i64
// CHECK: %[[M:.*]] = arith.constant 3 : i64
// CHECK: %[[N:.*]] = arith.constant 8 : i64
// CHECK: %[[K:.*]] = arith.constant 4 : i64
// CHECK: %[[TA:.*]] = arith.constant 1 : i64
// CHECK: %[[TB:.*]] = arith.constant 0 : i64
// CHECK: %[[PG:.*]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: %[[PO:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[AO:.*]] = arith.index_cast %[[PO]]
// CHECK: call @stax_rt_matmul_f32(%[[BATCH]], %[[M]], %[[N]], %[[K]], %[[TA]], %[[TB]], %{{.*}}, %{{.*}}, %[[AO]])
// CHECK-NOT: scf.for
// CHECK: return
func.func @transposed_result(%x: tensor<4x8xf32>, %g: tensor<4x3xf32>) -> tensor<3x8xf32> {
  %xt = tp.t %x : tensor<4x8xf32> -> tensor<8x4xf32>
  %0 = tp.mm %xt, %g : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %1 = tp.t %0 : tensor<8x3xf32> -> tensor<3x8xf32>
  return %1 : tensor<3x8xf32>
}

// A product that is also read untransposed keeps its own buffer and the
// transpose stays a loop.
// CHECK-LABEL: func.func @transposed_and_direct(
// CHECK: call @stax_rt_matmul_f32
// CHECK: scf.for
// CHECK: return
func.func @transposed_and_direct(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<3x4xf32>) {
  %0 = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = tp.t %0 : tensor<4x3xf32> -> tensor<3x4xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<3x4xf32>
}

// An operand whose copy would read along its rows (neg of a transpose; an
// im2col matrix read transposed in a weight gradient) is stored as its
// transpose, a contiguous loop, and BLAS reads that with a transpose flag:
// one loop of 128 elements, no loop for the transpose.
// CHECK-LABEL: func.func @rows_read_operand(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c128 step
// CHECK-NOT: scf.for
// CHECK: %[[TA:.*]] = arith.constant 0 : i64
// CHECK: %[[TB:.*]] = arith.constant 1 : i64
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TA]], %[[TB]],
// CHECK-NOT: scf.for
// CHECK: return
func.func @rows_read_operand(%x: tensor<8x16xf32>, %y: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %t = tp.t %x : tensor<8x16xf32> -> tensor<16x8xf32>
  %n = tp.neg %t : tensor<16x8xf32> -> tensor<16x8xf32>
  %m = tp.mm %y, %n : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// A weight [O, C, kh, kw] read as the transpose of [O, C * kh * kw] by a
// product over a unit batch (a convolution's input gradient): loop
// normalization drops the unit dim, and BLAS still reads the weight's own
// storage with a transpose flag, no copy.
// CHECK-LABEL: func.func @reshaped_weight_transposed(
// CHECK-SAME: %[[W:[^:]*]]: memref<144xf32>
// CHECK-NOT: scf.for
// CHECK: %[[BATCH:.*]] = arith.constant 1 : i64
// CHECK: %[[TA:.*]] = arith.constant 1 : i64
// CHECK: %[[TB:.*]] = arith.constant 0 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TA]], %[[TB]],
// CHECK-NOT: scf.for
// CHECK: return
func.func @reshaped_weight_transposed(%w: tensor<4x4x3x3xf32>, %g: tensor<1x4x10xf32>) -> tensor<1x36x10xf32> {
  %v = tp.view %w {size = array<i64: 1, 4, 36>} : tensor<4x4x3x3xf32> -> tensor<1x4x36xf32>
  %t = tp.transpose %v {dim0 = 1 : i64, dim1 = 2 : i64} : tensor<1x4x36xf32> -> tensor<1x36x4xf32>
  %m = tp.bmm %t, %g : (tensor<1x36x4xf32>, tensor<1x4x10xf32>) -> tensor<1x36x10xf32>
  return %m : tensor<1x36x10xf32>
}

// With fusion, the stored transpose and the transpose node over a unit
// batch share the (unit) outer loop, but the transpose node stays out of a
// kernel: BLAS reads the stored buffer with a flag and the node never runs.
// CHECK-FUSED-LABEL: func.func @unit_batch_rows_read(
// CHECK-FUSED: scf.for %{{.*}} = %{{.*}} to %c128 step
// CHECK-FUSED-NOT: scf.for
// CHECK-FUSED: arith.constant 0 : i64
// CHECK-FUSED-NEXT: %[[TB:.*]] = arith.constant 1 : i64
// CHECK-FUSED: call @stax_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TB]],
// CHECK-FUSED-NOT: scf.for
// CHECK-FUSED: return
func.func @unit_batch_rows_read(%x: tensor<1x8x16xf32>, %g: tensor<1x4x16xf32>) -> tensor<1x4x8xf32> {
  %t = tp.transpose %x {dim0 = 1 : i64, dim1 = 2 : i64} : tensor<1x8x16xf32> -> tensor<1x16x8xf32>
  %n = tp.neg %t : tensor<1x16x8xf32> -> tensor<1x16x8xf32>
  %m = tp.bmm %g, %n : (tensor<1x4x16xf32>, tensor<1x16x8xf32>) -> tensor<1x4x8xf32>
  return %m : tensor<1x4x8xf32>
}
