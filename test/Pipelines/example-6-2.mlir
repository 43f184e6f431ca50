// RUN: stax-opt --stax-lowering-pipeline="target=cuda" --mlir-print-local-scope %s | FileCheck %s --check-prefix=CHECK-CUDA
// RUN: stax-opt --stax-lowering-pipeline="target=cpu" --mlir-print-local-scope %s | FileCheck %s --check-prefix=CHECK-CPU

// Example 6.2, (x * x).sum(-1) with x 64x16384, through the whole pipeline.
// On cuda the reduction splits in k = 2 (Algorithm 6.1) and the first level,
// normalized, reads 8192*x0 + r over a merged loop of 128 (Listing 6.4 and
// Section 6.8); addresses fit in 32 bits. The cpu never splits.

// CHECK-CUDA-LABEL: func.func @f
// CHECK-CUDA: stax.reduction sum [8192] ranges [128] layout <[1]> : tensor<64x2xf32> attributes {stax.index_bitwidth = 32 : i64}
// CHECK-CUDA: affine.apply affine_map<(d0, d1) -> (d0 * 8192 + d1)>
// CHECK-CUDA: stax.reduction sum [2] layout <[1]> : tensor<64xf32>

// CHECK-CPU-LABEL: func.func @f
// CHECK-CPU: stax.reduction sum [16384]
// CHECK-CPU-NOT: stax.reduction
func.func @f(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %0 = tp.mul %x, %x : tensor<64x16384xf32>, tensor<64x16384xf32> -> tensor<64x16384xf32>
  %1 = tp.sum %0 {dims = array<i64: -1>} : tensor<64x16384xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
