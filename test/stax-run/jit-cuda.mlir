// target=cuda on a GPU: the kernels run through the CUDA launcher and agree
// with the interpreter. Elsewhere see jit-cuda-fake-driver.mlir.
// REQUIRES: cuda-driver
// RUN: stax-run %s --jit --pipeline-options=target=cuda | FileCheck %s
// RUN: env STAX_CUDA_SYNC=1 stax-run %s --jit --pipeline-options=target=cuda | FileCheck %s
// RUN: stax-run %s --entry=f --random-inputs --print=hash | sed 1d > %t.interp
// RUN: stax-run %s --entry=f --random-inputs --print=hash --jit --pipeline-options=target=cuda | sed 1d > %t.cuda
// Elementwise (class 1: correctly rounded ops only) is bitwise the same.
// RUN: diff %t.interp %t.cuda

// Row 0: relu([1.5, -4, 0.25] + [1, 1, 1]) * 2 = [5, 0, 2.5] -> 7.5
// Row 1: relu([-1, 2, 3] + [0.5, 0.5, -10]) * 2 = [0, 5, 0]  -> 5
// CHECK: @main (compiled)
// CHECK-NEXT: result #0: tensor<2xf32> min=5 max=7.5 mean=6.25
// CHECK-NEXT: [7.5, 5]
func.func @main() -> tensor<2xf32> {
  %x = tp.constant dense<[[1.5, -4.0, 0.25], [-1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %y = tp.constant dense<[[1.0, 1.0, 1.0], [0.5, 0.5, -10.0]]> : tensor<2x3xf32>
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// 300 x 1000: 300000 threads in blocks of 256, one result per thread.
func.func @f(%x: tensor<300x1000xf32>, %y: tensor<300x1000xf32>) -> tensor<300x1000xf32> {
  %0 = tp.add %x, %y : tensor<300x1000xf32>, tensor<300x1000xf32> -> tensor<300x1000xf32>
  %1 = tp.relu %0 : tensor<300x1000xf32> -> tensor<300x1000xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<300x1000xf32> -> tensor<300x1000xf32>
  return %2 : tensor<300x1000xf32>
}
