// RUN: stax-opt %s --stax-joint-graph --stax-mincut | FileCheck %s
// The split forward lowers (cpu) and interprets, and runs compiled (scalar
// code: its sum in the interpreter's order), bit for bit as before.
// RUN: stax-opt %s --stax-joint-graph --stax-mincut -o %t.split.mlir
// RUN: stax-opt %t.split.mlir --stax-lowering-pipeline -o %t.lowered.mlir 2>/dev/null
// RUN: stax-run %t.split.mlir --entry=topk_forward --random-inputs --print=hash | sed 1d > %t.fw.tp
// RUN: stax-run %t.lowered.mlir --entry=topk_forward --random-inputs --print=hash | sed 1d > %t.fw.lowered
// RUN: diff %t.fw.tp %t.fw.lowered
// RUN: stax-run %t.lowered.mlir --entry=topk_forward --random-inputs --print=hash --jit --pipeline-options="vector-width=1" | sed 1d > %t.fw.jit
// RUN: diff %t.fw.tp %t.fw.jit

// topk by a sort and a slice: a sort is not cheap to recompute (no
// pointwise op, view or reduction), so the cut saves its int64 indices,
// the one value the backward needs, and the backward scatters the
// adjoint there.
// CHECK-LABEL: func.func @topk_forward
// CHECK: %[[V:.*]], %[[I:.*]] = tp.sort %{{.*}} {descending = true, dim = 1 : i64
// CHECK: return %{{.*}}, %[[I]] : tensor<f32>, tensor<4x6xi64>
// CHECK-LABEL: func.func @topk_backward
// CHECK-SAME: %[[SI:[^:]*]]: tensor<4x6xi64>
// CHECK-NOT: tp.sort
// CHECK: tp.scatter %{{.*}}, %[[SI]], %{{.*}} {dim = 1 : i64
func.func @topk(%x: tensor<4x6xf32> {tp.requires_grad}) -> tensor<f32> {
  %e = tp.mul %x, %x : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  %s:2 = tp.sort %e {dim = 1 : i64, descending = true} : tensor<4x6xf32> -> tensor<4x6xf32>, tensor<4x6xi64>
  %k = tp.slice %s#0 {dim = 1 : i64, start = 0 : i64, end = 3 : i64} : tensor<4x6xf32> -> tensor<4x3xf32>
  %r = tp.sum %k {dims = array<i64>} : tensor<4x3xf32> -> tensor<f32>
  return %r : tensor<f32>
}
