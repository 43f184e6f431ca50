// RUN: not stax-run --jit %s 2>&1 | FileCheck %s
// RUN: not stax-run %s 2>&1 | FileCheck %s --check-prefix=CHECK-INTERP

// An out-of-range index in a node that fused into a later op: the run-time
// error names the tp.index that indexed (line 12), like the interpreter,
// not the op that materialized the fused node (line 13).
// CHECK: run-time error: index 9 is out of bounds for a dimension of size 8 in stax.indirect_index at loc("{{.*}}jit-index-error-fused.mlir":12:8)
// CHECK-INTERP: jit-index-error-fused.mlir:12:8: error: 'tp.index' op index 9 is out of bounds
func.func @g1() -> tensor<4xf32> {
  %x = tp.arange {start = 0 : i64, end = 8 : i64} : tensor<8xf32>
  %idx = tp.constant dense<[1, -2, 9, 3]> : tensor<4xi64>
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<8xf32>, tensor<4xi64>) -> tensor<4xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
