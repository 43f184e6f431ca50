// RUN: stax-opt --stax-pipeline="target=cuda" %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=CHECK-HOST --input-file=%t.mlir
// RUN: stax-translate --stax-to-llvmir %t.mlir | FileCheck %s

// target=cuda host functions reach the LLVM dialect: they take bare device
// pointers and call the CUDA launcher's mgpu* functions (the ABI of MLIR's
// gpu-to-llvm and gpu.binary translation, Stax/Runtime/CudaLauncher.h) on
// one stream per call; copies and constants move to device memory.

// CHECK-HOST-LABEL: llvm.func @twice(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {stax.output}, %{{.*}}: !llvm.ptr {stax.output})
// CHECK-HOST: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// Kernels take bare pointers too.
// CHECK-HOST: gpu.launch_func <%[[S]] : !llvm.ptr> @{{.*}}::@twice_kernel {{.*}} args(%{{.*}} : i64, %{{.*}} : i64, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr)
// CHECK-HOST: llvm.call @mgpuMemcpy({{.*}}, %[[S]])
// CHECK-HOST: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-HOST: llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK-HOST-NOT: memref.
// CHECK-HOST-NOT: func.func

// The PTX, a NUL-terminated string (which the driver compiles), is loaded
// by a global constructor (lazily: the launcher reaches the driver at the
// first launch); each launch looks its kernel up by name.
// CHECK: @[[MOD:[a-z_0-9]+]]_binary = internal constant {{.*}}\0A}\0A\00", align 8
// CHECK: @llvm.global_ctors = {{.*}} ptr @[[MOD]]_load
// CHECK: @llvm.global_dtors = {{.*}} ptr @[[MOD]]_unload

// The second result is the first: a device-to-device copy, in stream order.
// CHECK-LABEL: define void @twice(
// CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK: %[[F:.*]] = call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @[[MOD]]_twice_kernel_name)
// CHECK: call void @mgpuLaunchKernel(ptr %[[F]], i64 1, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 4)
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr %{{.*}}, i64 256, ptr %[[S]])
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK: call void @mgpuStreamDestroy(ptr %[[S]])

// A constant stays a host global, copied into a device buffer per call.
// CHECK-LABEL: define void @constant(
// CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK: %[[D:.*]] = call ptr @mgpuMemAlloc(i64 24, ptr %[[S]], i8 0)
// CHECK: call void @mgpuMemcpy(ptr %{{.*}}, ptr @constant_const0, i64 24, ptr %[[S]])
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 1, i64 1, i64 1, i64 6, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 5)
// CHECK: call void @mgpuMemFree(ptr %{{.*}}, ptr %[[S]])
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])

// CHECK: define internal void @[[MOD]]_load()
// CHECK: call ptr @mgpuModuleLoadJIT(ptr @[[MOD]]_binary, i32 2)
// CHECK: define internal void @[[MOD]]_unload()
// CHECK: call void @mgpuModuleUnload(

func.func @twice(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0 = tp.relu %x : tensor<64xf32> -> tensor<64xf32>
  return %0, %0 : tensor<64xf32>, tensor<64xf32>
}

func.func @constant(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = tp.constant dense<[[1.5, -4.0, 0.25], [-1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %0 = tp.add %x, %c : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
