// Without a GPU, target=cuda still compiles (no driver is needed for that);
// calling gives one line naming what is missing, not a crash.
// UNSUPPORTED: cuda-driver
// RUN: not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s
// RUN: not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | count 1
// The same wherever a driver exists, with STAX_CUDA_DRIVER naming none.
// RUN: env STAX_CUDA_DRIVER=%t.missing.so not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: stax-run: run-time error: no CUDA driver: libcuda.so.1 not found (libcuda.so.1: cannot open shared object file: No such file or directory)
// MISSING: stax-run: run-time error: no CUDA driver: {{.*}}.missing.so not found ({{.*}}.missing.so: cannot open shared object file: No such file or directory)

func.func @main() -> tensor<2xf32> {
  %x = tp.constant dense<[[1.5, -4.0, 0.25], [-1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %y = tp.constant dense<[[1.0, 1.0, 1.0], [0.5, 0.5, -10.0]]> : tensor<2x3xf32>
  %0 = tp.add %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tp.relu %0 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}
