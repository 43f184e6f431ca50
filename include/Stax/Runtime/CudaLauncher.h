//===- CudaLauncher.h - runs target=cuda code over the CUDA driver -*- C++ -*-===//
//
// The host code of --stax-pipeline="target=cuda" calls the `mgpu*` functions
// that MLIR's gpu-to-llvm conversion and gpu.binary translation emit (the ABI
// of upstream's CudaRuntimeWrappers, which Debian does not package). This
// launcher implements them over the CUDA driver API, with libcuda.so.1
// loaded on first use (dlopen): everything builds, links and runs on
// machines without a GPU, where the first driver call records one error.
//
// Errors never abort: the first one is recorded (naming the driver call and
// the kernel), every later launch, copy and allocation is skipped, and the
// caller (CompiledModule::call) reads it with takeError().
//
// STAX_CUDA_DRIVER names another driver library (tests load a fake one);
// STAX_CUDA_SYNC=1 synchronizes after every launch, so that an error that
// surfaces asynchronously names the kernel that failed.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_RUNTIME_CUDALAUNCHER_H
#define STAX_RUNTIME_CUDALAUNCHER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" {
/// Modules: `data` is the embedded gpu.binary object (PTX text for
/// format=isa, NUL-terminated, compiled by the driver at `optLevel`).
/// Loading is deferred to the first mgpuModuleGetFunction, so that JIT
/// initialization (which runs the loads as global constructors) needs no
/// driver.
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);

void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream);
void mgpuSetDefaultDevice(int32_t device);
}

namespace mlir::stax::cuda {

/// Loads the driver and makes a context ready (the one current on the
/// calling thread, e.g. PyTorch's, else device 0's primary context).
/// Returns false and records why.
bool initialize();

/// The first error recorded since the last call ("" when none), e.g.
/// "CUDA error CUDA_ERROR_LAUNCH_FAILED in cuLaunchKernel for kernel 'k':
/// unspecified launch failure" or "no CUDA driver: libcuda.so.1 not found
/// (...)". Clears it.
std::string takeError();

/// Device memory for callers that hold host buffers. Errors are recorded;
/// allocate returns nullptr then.
void *allocate(size_t bytes);
void release(void *device);
void copyToDevice(void *device, const void *host, size_t bytes);
void copyToHost(void *host, const void *device, size_t bytes);

/// The device's name and compute capability, e.g. "NVIDIA H200 (sm_90)".
std::string deviceName();

/// With profiling on, every launch is timed with a pair of events (read
/// when its stream is synchronized). takeProfile returns the times per
/// kernel name since the last call.
struct KernelTime {
  std::string name;
  int64_t launches = 0;
  double totalMs = 0, minMs = 0;
};
void setProfiling(bool enabled);
std::vector<KernelTime> takeProfile();

/// Device-to-device copy bandwidth in GB/s (bytes read plus bytes written,
/// per second) of the best of `reps` timed cuMemcpyDtoDAsync of `bytes`;
/// 0 with an error recorded on failure.
double copyBandwidth(size_t bytes, int reps);

} // namespace mlir::stax::cuda

#endif // STAX_RUNTIME_CUDALAUNCHER_H
