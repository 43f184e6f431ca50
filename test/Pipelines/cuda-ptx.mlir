// RUN: stax-opt --stax-pipeline="target=cuda" %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=CHECK-HOST --input-file=%t.mlir
// RUN: stax-translate --stax-to-llvmir %t.mlir | FileCheck %s --check-prefix=CHECK-LAUNCH
// RUN: stax-translate --stax-to-ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=CHECK-PTX --input-file=%t.ptx
// RUN: stax-opt --stax-pipeline="target=cuda chip=sm_80" %s | stax-translate --stax-to-ptx | FileCheck %s --check-prefix=CHECK-SM80
// RUN: stax-opt --stax-pipeline="target=cuda threads-per-block=128" %s | stax-translate --stax-to-llvmir | FileCheck %s --check-prefix=CHECK-TPB
// RUN: not stax-translate --stax-to-ptx %s 2>&1 | FileCheck %s --check-prefix=CHECK-NOPTX

// target=cuda: a node runs one thread per output element (blocks of
// threads-per-block threads), or, reducing contiguous rows, one block per
// output (test/Conversion/StaxToLoops/block-reductions-cuda.mlir); all
// kernels of the module in one PTX module. Example 1.1,
// (relu(x + y) * 2).sum(-1) with x, y 64x4096, and a matmul (Example 5.1's
// forward shape), which becomes a thread per output.

// The host functions are LLVM, launching the kernels (test/Pipelines/cuda-host.mlir).
// CHECK-HOST-LABEL: llvm.func @example(
// CHECK-HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @[[MOD:[a-z_0-9]+]]::@example_kernel
// CHECK-HOST-NOT: llvm.br
// All kernels in one gpu.binary (placed where the first kernel module was).
// CHECK-HOST: gpu.binary @[[MOD]] {{ *}}[#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80"
// CHECK-HOST-LABEL: llvm.func @matmul_gelu(
// CHECK-HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @[[MOD]]::@matmul_gelu_kernel
// CHECK-HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @[[MOD]]::@matmul_gelu_kernel_0
// CHECK-HOST-NOT: llvm.br
// CHECK-HOST-NOT: gpu.binary

// The launch configurations: grid x, y, z, then block x, y, z.
// CHECK-LAUNCH-LABEL: define void @example(
// A block of 256 threads per row.
// CHECK-LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 64, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,
// CHECK-LAUNCH-LABEL: define void @matmul_gelu(
// The matmul, 32 x 64 outputs: 8 blocks of 256 threads.
// CHECK-LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 8, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,
// The whole-tensor sum: one block (not the host).
// CHECK-LAUNCH: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 1, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,

// CHECK-PTX: // gpu.binary @
// CHECK-PTX: .version 8.0
// CHECK-PTX: .target sm_90
// CHECK-PTX: .visible .entry example_kernel(
// CHECK-PTX: .visible .entry
// CHECK-PTX-NOT: .version

// CHECK-SM80: .target sm_80
// CHECK-TPB-LABEL: define void @matmul_gelu(
// CHECK-TPB: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 16, i64 1, i64 1, i64 128, i64 1, i64 1, i32 0,

// CHECK-NOPTX: error: no gpu.binary: lower the module with stax-opt --stax-pipeline="target=cuda" first

func.func @example(%x: tensor<64x4096xf32>, %y: tensor<64x4096xf32>) -> tensor<64xf32> {
  %0 = tp.add %x, %y : tensor<64x4096xf32>, tensor<64x4096xf32> -> tensor<64x4096xf32>
  %1 = tp.relu %0 : tensor<64x4096xf32> -> tensor<64x4096xf32>
  %2 = tp.mul.Scalar %1 {other = 2 : i64} : tensor<64x4096xf32> -> tensor<64x4096xf32>
  %3 = tp.sum %2 {dims = array<i64: -1>} : tensor<64x4096xf32> -> tensor<64xf32>
  return %3 : tensor<64xf32>
}

func.func @matmul_gelu(%x: tensor<32x64xf32>, %w: tensor<64x64xf32>) -> tensor<f32> {
  %0 = tp.mm %x, %w : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
  %1 = tp.gelu %0 : tensor<32x64xf32> -> tensor<32x64xf32>
  %2 = tp.sum %1 {dims = array<i64: 0, 1>} : tensor<32x64xf32> -> tensor<f32>
  return %2 : tensor<f32>
}
