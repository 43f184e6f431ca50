// A function result whose node's loops normalization permuted: the
// transpose of a square [4, 4, 5] tensor is computed by iterating the
// untransposed index space with a transposed layout (no `ranges`, since
// the permuted ranges equal the shape). The compiled code must return the
// stored values as they are, like the interpreter (found by stax.difftest,
// seed 1043).
// RUN: stax-run %s --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="approximate-math=false" | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --random-inputs --print=hash --jit --pipeline-options="vector-width=1 parallel=false approximate-math=false" | sed 1d > %t.scalar
// RUN: diff %t.interp %t.scalar
// RUN: stax-opt %s --stax-lowering-pipeline | FileCheck %s
// CHECK: stax.pointwise {{.*}}layout <[5, 20, 1]>
// CHECK: return

func.func @forward(%x: tensor<4x4x5xf32>, %y: tensor<4x4x5xf32>) -> tensor<4x4x5xf32> {
  %0 = tp.logsumexp %y {dims = array<i64: 2>, keepdim = true} : tensor<4x4x5xf32> -> tensor<4x4x1xf32>
  %1 = tp.sub %x, %0 : tensor<4x4x5xf32>, tensor<4x4x1xf32> -> tensor<4x4x5xf32>
  %2 = tp.transpose %1 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<4x4x5xf32> -> tensor<4x4x5xf32>
  return %2 : tensor<4x4x5xf32>
}
