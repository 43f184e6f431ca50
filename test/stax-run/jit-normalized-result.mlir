// A function result computed by a transpose: normalization ordered the
// loops of the returned node by its reads, leaving a transposed layout
// over the untransposed index space that only "return the storage as it
// is" read right (found by stax.difftest, seed 1043). A returned node is
// the tensor in the order of its loops, so its loops keep their order and
// its layout stays row-major; interpreter and compiled code agree.
// RUN: stax-run %s --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=1 parallel=false approximate-math=false" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-opt %s --stax-lowering-pipeline | FileCheck %s
// CHECK: stax.pointwise layout <[20, 5, 1]> : tensor<4x4x5xf32>
// CHECK: return

func.func @forward(%x: tensor<4x4x5xf32>, %y: tensor<4x4x5xf32>) -> tensor<4x4x5xf32> {
  %0 = tp.logsumexp %y {dims = array<i64: 2>, keepdim = true} : tensor<4x4x5xf32> -> tensor<4x4x1xf32>
  %1 = tp.sub %x, %0 : tensor<4x4x5xf32>, tensor<4x4x1xf32> -> tensor<4x4x5xf32>
  %2 = tp.transpose %1 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<4x4x5xf32> -> tensor<4x4x5xf32>
  return %2 : tensor<4x4x5xf32>
}
