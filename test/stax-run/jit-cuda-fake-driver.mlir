// The CUDA launcher without a GPU: a fake driver (Inputs/fake-cuda.c, which
// runs no kernel) shows the host code's calls and each error path. Every
// failure is one line naming the driver call (and the kernel), never a crash.
// The fake declares handles as void * where cuda.h has struct pointers; like
// the real driver, it carries no UBSan function-type data (-fno-sanitize:
// in a sanitizer build %clang would add it and the launcher's checked
// indirect calls would report the mismatch).
// RUN: %clang -shared -fPIC -fno-sanitize=function %S/Inputs/fake-cuda.c -o %t.so
// RUN: env STAX_CUDA_DRIVER=%t.so stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s
// RUN: env STAX_CUDA_DRIVER=%t.so FAKE_CUDA_FAIL=cuLaunchKernel:719 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: env STAX_CUDA_DRIVER=%t.so FAKE_CUDA_FAIL=cuStreamSynchronize:710 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=ASYNC
// RUN: env STAX_CUDA_DRIVER=%t.so STAX_CUDA_SYNC=1 FAKE_CUDA_FAIL=cuStreamSynchronize:710 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: env STAX_CUDA_DRIVER=%t.so FAKE_CUDA_FAIL=cuModuleLoadDataEx:218 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: env STAX_CUDA_DRIVER=%t.so FAKE_CUDA_FAIL=cuMemAlloc:2 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: env STAX_CUDA_DRIVER=%t.so FAKE_CUDA_FAIL=cuInit:100 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: env STAX_CUDA_DRIVER=libm.so.6 not stax-run %s --jit --pipeline-options=target=cuda 2>&1 | FileCheck %s --check-prefix=NOTCUDA

// The PTX is loaded once, at the first launch; the arena between the two
// kernels is device memory. The fake runs nothing: the result stays zero.
// CHECK: fake-cuda: load {{[0-9]+}} bytes of PTX at O2
// CHECK-NEXT: fake-cuda: launch main_kernel grid 1x1x1 block 4x1x1, 5 params
// CHECK-NEXT: fake-cuda: launch main_kernel_0 grid 1x1x1 block 1x1x1, 4 params
// CHECK-NEXT: @main (compiled)
// CHECK-NEXT: result #0: tensor<f32> min=0 max=0 mean=0

// LAUNCH: fake-cuda: load
// LAUNCH-NEXT: stax-run: run-time error: CUDA error CUDA_ERROR_LAUNCH_FAILED in cuLaunchKernel for kernel 'main_kernel': unspecified launch failure
// LAUNCH-NOT: fake-cuda: launch

// An error that surfaces at synchronization names the last kernel launched;
// STAX_CUDA_SYNC=1 synchronizes after each launch, naming the one that failed.
// ASYNC: fake-cuda: launch main_kernel_0
// ASYNC-NEXT: stax-run: run-time error: CUDA error CUDA_ERROR_ASSERT in cuStreamSynchronize after kernel 'main_kernel_0' (the last one launched; STAX_CUDA_SYNC=1 names the kernel that failed): device-side assert triggered
// SYNC: fake-cuda: launch main_kernel grid
// SYNC-NEXT: stax-run: run-time error: CUDA error CUDA_ERROR_ASSERT in cuStreamSynchronize for kernel 'main_kernel': device-side assert triggered
// SYNC-NOT: fake-cuda: launch

// PTX: stax-run: run-time error: CUDA error CUDA_ERROR_INVALID_PTX in cuModuleLoadDataEx for kernel 'main_kernel': a PTX JIT compilation failed
// PTX-NOT: fake-cuda

// OOM: stax-run: run-time error: CUDA error CUDA_ERROR_OUT_OF_MEMORY in cuMemAlloc: out of memory
// OOM-NOT: fake-cuda

// NODEVICE: stax-run: run-time error: CUDA error CUDA_ERROR_NO_DEVICE in cuInit: no CUDA-capable device is detected
// NOTCUDA: stax-run: run-time error: no CUDA driver: libm.so.6 has no cuInit

// A matmul (a kernel of one thread per output, into the arena) and the sum
// of its gelu (a kernel of one thread), on constants.
func.func @main() -> tensor<f32> {
  %x = tp.constant dense<[[1.5, -4.0, 0.25], [-1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %w = tp.constant dense<[[1.0, 0.5], [0.25, -1.0], [2.0, 1.0]]> : tensor<3x2xf32>
  %0 = tp.mm %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = tp.gelu %0 : tensor<2x2xf32> -> tensor<2x2xf32>
  %2 = tp.sum %1 {dims = array<i64: 0, 1>} : tensor<2x2xf32> -> tensor<f32>
  return %2 : tensor<f32>
}
