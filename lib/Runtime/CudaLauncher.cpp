//===- CudaLauncher.cpp - runs target=cuda code over the CUDA driver ------===//
//
// The driver is loaded with dlopen on first use: no CUDA header or library
// is needed to build (CI installs Debian packages only), so the few driver
// types and constants used here are declared below. Their values are the
// driver's stable ABI (cuda.h); versioned entry points are looked up by
// their versioned names (cuMemAlloc_v2), as cuda.h's macros would.
//
//===----------------------------------------------------------------------===//
#include "Stax/Runtime/CudaLauncher.h"
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_set>

namespace {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;
constexpr CUresult kSuccess = 0;
constexpr int kJitErrorLogBuffer = 5, kJitErrorLogBufferSize = 6,
              kJitOptimizationLevel = 7;       // CUjit_option
constexpr int kMemPoolReleaseThreshold = 4;     // CUmemPool_attribute
constexpr int kComputeMajor = 75, kComputeMinor = 76; // CUdevice_attribute
constexpr unsigned kMemAttachGlobal = 1;

/// The driver entry points the launcher calls, resolved once.
struct Driver {
  std::string error; ///< why the driver is unusable; empty when loaded
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  // Optional (CUDA 11.2+): stream-ordered allocation from a pool, so that
  // a call's arena costs no cuMemAlloc/cuMemFree (which synchronizes).
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream) = nullptr;
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream) = nullptr;
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *, CUdevice) = nullptr;
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *) = nullptr;
};

template <typename Fn>
void bind(void *lib, const char *name, Fn *&fn, std::string *missing) {
  fn = reinterpret_cast<Fn *>(dlsym(lib, name));
  if (!fn && missing)
    *missing += (missing->empty() ? "" : ", ") + std::string(name);
}

/// Binds every entry point; returns the names libcuda lacks.
std::string bindAll(void *lib, Driver &d) {
  std::string m;
  bind(lib, "cuInit", d.cuInit, &m);
  bind(lib, "cuDeviceGet", d.cuDeviceGet, &m);
  bind(lib, "cuDeviceGetName", d.cuDeviceGetName, &m);
  bind(lib, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, &m);
  bind(lib, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain, &m);
  bind(lib, "cuCtxGetCurrent", d.cuCtxGetCurrent, &m);
  bind(lib, "cuCtxGetDevice", d.cuCtxGetDevice, &m);
  bind(lib, "cuCtxPushCurrent_v2", d.cuCtxPushCurrent, &m);
  bind(lib, "cuCtxPopCurrent_v2", d.cuCtxPopCurrent, &m);
  bind(lib, "cuGetErrorName", d.cuGetErrorName, &m);
  bind(lib, "cuGetErrorString", d.cuGetErrorString, &m);
  bind(lib, "cuModuleLoadDataEx", d.cuModuleLoadDataEx, &m);
  bind(lib, "cuModuleUnload", d.cuModuleUnload, &m);
  bind(lib, "cuModuleGetFunction", d.cuModuleGetFunction, &m);
  bind(lib, "cuLaunchKernel", d.cuLaunchKernel, &m);
  bind(lib, "cuStreamCreate", d.cuStreamCreate, &m);
  bind(lib, "cuStreamDestroy_v2", d.cuStreamDestroy, &m);
  bind(lib, "cuStreamSynchronize", d.cuStreamSynchronize, &m);
  bind(lib, "cuStreamWaitEvent", d.cuStreamWaitEvent, &m);
  bind(lib, "cuEventCreate", d.cuEventCreate, &m);
  bind(lib, "cuEventDestroy_v2", d.cuEventDestroy, &m);
  bind(lib, "cuEventRecord", d.cuEventRecord, &m);
  bind(lib, "cuEventSynchronize", d.cuEventSynchronize, &m);
  // CUDA 12.8 added a _v2 (cuda.h 13 maps the name to it); older drivers
  // have only the first, which newer ones keep.
  bind(lib, "cuEventElapsedTime_v2", d.cuEventElapsedTime, nullptr);
  if (!d.cuEventElapsedTime)
    bind(lib, "cuEventElapsedTime", d.cuEventElapsedTime, &m);
  bind(lib, "cuMemAlloc_v2", d.cuMemAlloc, &m);
  bind(lib, "cuMemAllocManaged", d.cuMemAllocManaged, &m);
  bind(lib, "cuMemFree_v2", d.cuMemFree, &m);
  bind(lib, "cuMemcpyAsync", d.cuMemcpyAsync, &m);
  bind(lib, "cuMemcpyHtoD_v2", d.cuMemcpyHtoD, &m);
  bind(lib, "cuMemcpyDtoH_v2", d.cuMemcpyDtoH, &m);
  bind(lib, "cuMemcpyDtoDAsync_v2", d.cuMemcpyDtoDAsync, &m);
  bind(lib, "cuMemsetD32Async", d.cuMemsetD32Async, &m);
  bind(lib, "cuMemsetD16Async", d.cuMemsetD16Async, &m);
  bind(lib, "cuMemAllocAsync", d.cuMemAllocAsync, nullptr);
  bind(lib, "cuMemFreeAsync", d.cuMemFreeAsync, nullptr);
  bind(lib, "cuDeviceGetDefaultMemPool", d.cuDeviceGetDefaultMemPool, nullptr);
  bind(lib, "cuMemPoolSetAttribute", d.cuMemPoolSetAttribute, nullptr);
  if (!d.cuMemAllocAsync || !d.cuMemFreeAsync)
    d.cuMemAllocAsync = nullptr; // both or neither: a pointer is freed as
  return m;                      // it was allocated
}

Driver loadDriver() {
  Driver d{};
  const char *env = std::getenv("STAX_CUDA_DRIVER");
  std::string path = env && *env ? env : "libcuda.so.1";
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    d.error = "no CUDA driver: " + path + " not found (" +
              (why ? why : "dlopen failed") + ")";
    return d;
  }
  std::string missing = bindAll(lib, d);
  if (!d.cuInit)
    d.error = "no CUDA driver: " + path + " has no cuInit";
  else if (!missing.empty())
    d.error = "the CUDA driver " + path + " lacks " + missing +
              " (a driver older than CUDA 11?)";
  return d;
}

/// Loaded on first use, never unloaded (kernels may run until exit).
const Driver &driver() {
  static const Driver d = loadDriver();
  return d;
}

//===--- Errors -----------------------------------------------------------===//

struct ErrorState {
  std::mutex mutex;
  std::atomic<bool> set{false};
  std::string message;
};

ErrorState &errorState() {
  static ErrorState state;
  return state;
}

/// Keeps the first error: what follows it is usually its consequence.
void recordError(const std::string &message) {
  ErrorState &s = errorState();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.set.load()) {
    s.message = message;
    s.set.store(true);
  }
}

/// Once an error is recorded, launches, copies and allocations are skipped
/// (their inputs may be missing); frees and stream synchronization still run.
bool failed() { return errorState().set.load(std::memory_order_relaxed); }

/// "CUDA error <name> in <call><where>: <description>".
std::string describe(CUresult r, const char *call, const std::string &where) {
  const Driver &d = driver();
  const char *name = nullptr, *text = nullptr;
  if (d.cuGetErrorName(r, &name) != kSuccess || !name)
    name = nullptr;
  if (d.cuGetErrorString(r, &text) != kSuccess || !text)
    text = "unknown error";
  std::string n = name ? name : "CUresult " + std::to_string(r);
  return "CUDA error " + n + " in " + call + where + ": " + text;
}

bool check(CUresult r, const char *call, const std::string &where = "") {
  if (r == kSuccess)
    return true;
  recordError(describe(r, call, where));
  return false;
}

std::string forKernel(const std::string &name) {
  return " for kernel '" + name + "'";
}

//===--- The context ------------------------------------------------------===//

std::atomic<int> defaultDevice{0};

struct ContextState {
  CUcontext context = nullptr;
  CUdevice device = 0;
  std::string error;
};

/// The context every launcher call uses: the one current on the first
/// calling thread (PyTorch's, so that its tensors are valid here) or the
/// default device's primary context.
ContextState createContext() {
  ContextState s;
  const Driver &d = driver();
  if (!d.error.empty()) {
    s.error = d.error;
    return s;
  }
  auto fail = [&](CUresult r, const char *call) {
    s.error = describe(r, call, "");
    s.context = nullptr;
    return s;
  };
  if (CUresult r = d.cuInit(0))
    return fail(r, "cuInit");
  if (CUresult r = d.cuCtxGetCurrent(&s.context))
    return fail(r, "cuCtxGetCurrent");
  if (s.context) {
    if (CUresult r = d.cuCtxGetDevice(&s.device))
      return fail(r, "cuCtxGetDevice");
  } else {
    if (CUresult r = d.cuDeviceGet(&s.device, defaultDevice.load()))
      return fail(r, "cuDeviceGet");
    if (CUresult r = d.cuDevicePrimaryCtxRetain(&s.context, s.device))
      return fail(r, "cuDevicePrimaryCtxRetain");
  }
  // Keep freed pool memory across synchronizations: the next call's arena
  // reuses it instead of asking the OS again.
  CUmemoryPool pool = nullptr;
  if (d.cuDeviceGetDefaultMemPool && d.cuMemPoolSetAttribute &&
      d.cuDeviceGetDefaultMemPool(&pool, s.device) == kSuccess) {
    uint64_t keepAll = UINT64_MAX;
    d.cuMemPoolSetAttribute(pool, kMemPoolReleaseThreshold, &keepAll);
  }
  return s;
}

const ContextState &contextState() {
  static const ContextState s = createContext();
  return s;
}

/// Makes the launcher's context current for a scope (and restores the
/// caller's). `ok` is false, with the error recorded, without a driver.
class ScopedContext {
public:
  ScopedContext() {
    const ContextState &s = contextState();
    if (!s.context) {
      recordError(s.error);
      return;
    }
    ok = true;
    CUcontext current = nullptr;
    const Driver &d = driver();
    if (d.cuCtxGetCurrent(&current) == kSuccess && current == s.context)
      return;
    pushed = check(d.cuCtxPushCurrent(s.context), "cuCtxPushCurrent");
    ok = pushed;
  }
  ~ScopedContext() {
    CUcontext previous;
    if (pushed)
      driver().cuCtxPopCurrent(&previous);
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
  bool ok = false;

private:
  bool pushed = false;
};

//===--- Modules and kernels ----------------------------------------------===//

struct Kernel {
  CUfunction function = nullptr;
  std::string name;
};

/// A gpu.binary object, loaded into the context on first use.
struct Module {
  const void *image = nullptr;
  int optLevel = -1; ///< PTX: the driver's JIT optimization level
  std::mutex mutex;
  CUmodule handle = nullptr;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
};

/// Loads `m` (mutex held); `kernel` names the kernel that needed it.
bool load(Module &m, const std::string &kernel) {
  if (m.handle)
    return true;
  char log[8192] = {0};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                   kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(intptr_t(m.optLevel))};
  unsigned count = m.optLevel >= 0 ? 3 : 2;
  CUresult r =
      driver().cuModuleLoadDataEx(&m.handle, m.image, count, options, values);
  if (r == kSuccess)
    return true;
  m.handle = nullptr;
  std::string where = forKernel(kernel);
  if (log[0])
    where += std::string(" (") + log + ")";
  return check(r, "cuModuleLoadDataEx", where);
}

Kernel *getKernel(Module &m, const char *name) {
  std::lock_guard<std::mutex> lock(m.mutex);
  if (!load(m, name))
    return nullptr;
  std::unique_ptr<Kernel> &k = m.kernels[name];
  if (!k) {
    CUfunction f = nullptr;
    if (!check(driver().cuModuleGetFunction(&f, m.handle, name),
               "cuModuleGetFunction", forKernel(name)))
      return nullptr;
    k.reset(new Kernel{f, name});
  }
  return k.get();
}

/// The last kernel this thread launched (in this call: mgpuStreamCreate
/// clears it): an error that surfaces when the stream is synchronized
/// names it.
thread_local std::string lastLaunched;

bool syncEachLaunch() {
  static const bool sync = [] {
    const char *env = std::getenv("STAX_CUDA_SYNC");
    return env && *env && std::string(env) != "0";
  }();
  return sync;
}

//===--- Profiling --------------------------------------------------------===//

struct PendingTime {
  CUstream stream;
  const Kernel *kernel;
  CUevent start, stop;
};

struct Profile {
  std::atomic<bool> enabled{false};
  std::mutex mutex;
  std::vector<PendingTime> pending;
  std::map<std::string, mlir::stax::cuda::KernelTime> times;
};

Profile &profile() {
  static Profile p;
  return p;
}

void addTime(const std::string &name, double ms) {
  mlir::stax::cuda::KernelTime &t = profile().times[name];
  t.name = name;
  t.minMs = t.launches ? std::min(t.minMs, ms) : ms;
  t.totalMs += ms;
  ++t.launches;
}

/// Reads the times of `stream`'s launches (after it was synchronized).
void collectTimes(CUstream stream) {
  Profile &p = profile();
  const Driver &d = driver();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto done = [&](PendingTime &t) {
    if (t.stream != stream)
      return false;
    float ms = 0;
    if (d.cuEventElapsedTime(&ms, t.start, t.stop) == kSuccess)
      addTime(t.kernel->name, ms);
    d.cuEventDestroy(t.start);
    d.cuEventDestroy(t.stop);
    return true;
  };
  p.pending.erase(std::remove_if(p.pending.begin(), p.pending.end(), done),
                  p.pending.end());
}

std::mutex asyncMutex;
std::unordered_set<void *> asyncAllocations;

CUdeviceptr devicePtr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}
void *hostPtr(CUdeviceptr p) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(p));
}

void launch(const Kernel &k, const intptr_t grid[3], const intptr_t block[3],
            int32_t smem, CUstream stream, void **params, void **extra) {
  const Driver &d = driver();
  bool timed = profile().enabled.load();
  PendingTime t{stream, &k, nullptr, nullptr};
  if (timed && (d.cuEventCreate(&t.start, 0) != kSuccess ||
                d.cuEventCreate(&t.stop, 0) != kSuccess))
    timed = false;
  if (timed)
    d.cuEventRecord(t.start, stream);
  CUresult r = d.cuLaunchKernel(k.function, grid[0], grid[1], grid[2],
                                block[0], block[1], block[2], smem, stream,
                                params, extra);
  lastLaunched = k.name;
  if (timed) {
    d.cuEventRecord(t.stop, stream);
    std::lock_guard<std::mutex> lock(profile().mutex);
    profile().pending.push_back(t);
  }
  if (check(r, "cuLaunchKernel", forKernel(k.name)) && syncEachLaunch())
    check(d.cuStreamSynchronize(stream), "cuStreamSynchronize",
          forKernel(k.name));
}
} // namespace

//===--- The mgpu* ABI ----------------------------------------------------===//

extern "C" {
void *mgpuModuleLoad(void *data, size_t) {
  auto *m = new Module;
  m->image = data;
  return m;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  auto *m = new Module;
  m->image = data;
  m->optLevel = optLevel;
  return m;
}

void mgpuModuleUnload(void *module) {
  auto *m = static_cast<Module *>(module);
  if (!m)
    return;
  if (m->handle) {
    ScopedContext scope;
    if (scope.ok)
      driver().cuModuleUnload(m->handle);
  }
  delete m;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (failed())
    return nullptr;
  if (!module) { // the JIT's global constructors did not run
    recordError(std::string("no module loaded for kernel '") + name + "'");
    return nullptr;
  }
  ScopedContext scope;
  if (!scope.ok)
    return nullptr;
  return getKernel(*static_cast<Module *>(module), name);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t) {
  auto *k = static_cast<Kernel *>(function);
  if (failed())
    return;
  if (!k) { // mgpuModuleGetFunction failed without recording why
    recordError("a kernel launch without a kernel");
    return;
  }
  ScopedContext scope;
  if (!scope.ok)
    return;
  intptr_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  launch(*k, grid, block, smem, static_cast<CUstream>(stream), params, extra);
}

void *mgpuStreamCreate(void) {
  lastLaunched.clear();
  if (failed())
    return nullptr;
  ScopedContext scope;
  CUstream s = nullptr;
  if (scope.ok)
    check(driver().cuStreamCreate(&s, 0), "cuStreamCreate");
  return s;
}

void mgpuStreamSynchronize(void *stream) {
  if (!stream)
    return;
  ScopedContext scope;
  auto *s = static_cast<CUstream>(stream);
  std::string where;
  if (!lastLaunched.empty())
    where = " after kernel '" + lastLaunched +
            "' (the last one launched; STAX_CUDA_SYNC=1 names the kernel "
            "that failed)";
  if (scope.ok)
    check(driver().cuStreamSynchronize(s), "cuStreamSynchronize", where);
  collectTimes(s);
}

void mgpuStreamDestroy(void *stream) {
  if (!stream)
    return;
  mgpuStreamSynchronize(stream);
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuStreamDestroy(static_cast<CUstream>(stream)),
          "cuStreamDestroy");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (failed() || !stream || !event)
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                     static_cast<CUevent>(event), 0),
          "cuStreamWaitEvent");
}

void *mgpuEventCreate(void) {
  if (failed())
    return nullptr;
  ScopedContext scope;
  CUevent e = nullptr;
  if (scope.ok)
    check(driver().cuEventCreate(&e, 0), "cuEventCreate");
  return e;
}

void mgpuEventDestroy(void *event) {
  if (!event)
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuEventDestroy(static_cast<CUevent>(event)),
          "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  if (!event)
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuEventSynchronize(static_cast<CUevent>(event)),
          "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  if (failed() || !event)
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuEventRecord(static_cast<CUevent>(event),
                                 static_cast<CUstream>(stream)),
          "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  if (failed() || sizeBytes == 0)
    return nullptr;
  ScopedContext scope;
  if (!scope.ok)
    return nullptr;
  const Driver &d = driver();
  CUdeviceptr p = 0;
  if (isHostShared) {
    check(d.cuMemAllocManaged(&p, sizeBytes, kMemAttachGlobal),
          "cuMemAllocManaged");
    return hostPtr(p);
  }
  if (!d.cuMemAllocAsync || !stream) {
    check(d.cuMemAlloc(&p, sizeBytes), "cuMemAlloc");
    return hostPtr(p);
  }
  if (check(d.cuMemAllocAsync(&p, sizeBytes, static_cast<CUstream>(stream)),
            "cuMemAllocAsync")) {
    std::lock_guard<std::mutex> lock(asyncMutex);
    asyncAllocations.insert(hostPtr(p));
  }
  return hostPtr(p);
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  ScopedContext scope;
  if (!scope.ok)
    return;
  bool async;
  {
    std::lock_guard<std::mutex> lock(asyncMutex);
    async = asyncAllocations.erase(ptr) > 0;
  }
  const Driver &d = driver();
  if (async)
    check(d.cuMemFreeAsync(devicePtr(ptr), static_cast<CUstream>(stream)),
          "cuMemFreeAsync");
  else
    check(d.cuMemFree(devicePtr(ptr)), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (failed())
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuMemcpyAsync(devicePtr(dst), devicePtr(src), sizeBytes,
                                 static_cast<CUstream>(stream)),
          "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  if (failed())
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuMemsetD32Async(devicePtr(dst), value, count,
                                    static_cast<CUstream>(stream)),
          "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  if (failed())
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuMemsetD16Async(devicePtr(dst), value, count,
                                    static_cast<CUstream>(stream)),
          "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) { defaultDevice.store(device); }
} // extern "C"

//===--- Stax's own entry points ------------------------------------------===//

namespace mlir::stax::cuda {

bool initialize() {
  ScopedContext scope;
  return scope.ok;
}

std::string takeError() {
  ErrorState &s = errorState();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.set.load())
    return "";
  s.set.store(false);
  return std::move(s.message);
}

void *allocate(size_t bytes) {
  ScopedContext scope;
  CUdeviceptr p = 0;
  if (scope.ok && bytes)
    check(driver().cuMemAlloc(&p, bytes), "cuMemAlloc");
  return hostPtr(p);
}

void release(void *device) {
  if (!device)
    return;
  ScopedContext scope;
  if (scope.ok)
    check(driver().cuMemFree(devicePtr(device)), "cuMemFree");
}

void copyToDevice(void *device, const void *host, size_t bytes) {
  ScopedContext scope;
  if (scope.ok && bytes)
    check(driver().cuMemcpyHtoD(devicePtr(device), host, bytes),
          "cuMemcpyHtoD");
}

void copyToHost(void *host, const void *device, size_t bytes) {
  ScopedContext scope;
  if (scope.ok && bytes)
    check(driver().cuMemcpyDtoH(host, devicePtr(device), bytes),
          "cuMemcpyDtoH");
}

std::string deviceName() {
  ScopedContext scope;
  if (!scope.ok)
    return "";
  const Driver &d = driver();
  CUdevice device = contextState().device;
  char name[256] = {0};
  int major = 0, minor = 0;
  d.cuDeviceGetName(name, sizeof(name) - 1, device);
  d.cuDeviceGetAttribute(&major, kComputeMajor, device);
  d.cuDeviceGetAttribute(&minor, kComputeMinor, device);
  return std::string(name) + " (sm_" + std::to_string(major) +
         std::to_string(minor) + ")";
}

void setProfiling(bool enabled) { profile().enabled.store(enabled); }

std::vector<KernelTime> takeProfile() {
  Profile &p = profile();
  std::lock_guard<std::mutex> lock(p.mutex);
  std::vector<KernelTime> result;
  for (auto &entry : p.times)
    result.push_back(entry.second);
  p.times.clear();
  return result;
}

namespace {
/// The best of `reps` timed copies from `src` to `dst` on `stream`, in ms.
float bestCopyMs(CUdeviceptr dst, CUdeviceptr src, size_t bytes, int reps,
                 CUstream stream, CUevent start, CUevent stop) {
  const Driver &d = driver();
  float best = 0;
  for (int i = 0; i <= reps && !failed(); ++i) { // i == 0 warms up
    check(d.cuEventRecord(start, stream), "cuEventRecord");
    check(d.cuMemcpyDtoDAsync(dst, src, bytes, stream), "cuMemcpyDtoDAsync");
    check(d.cuEventRecord(stop, stream), "cuEventRecord");
    check(d.cuEventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    check(d.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    if (i > 0 && (best == 0 || ms < best))
      best = ms;
  }
  return best;
}
} // namespace

double copyBandwidth(size_t bytes, int reps) {
  ScopedContext scope;
  if (!scope.ok || failed())
    return 0;
  const Driver &d = driver();
  CUdeviceptr src = 0, dst = 0;
  CUstream stream = nullptr;
  CUevent start = nullptr, stop = nullptr;
  float ms = 0;
  if (check(d.cuMemAlloc(&src, bytes), "cuMemAlloc") &&
      check(d.cuMemAlloc(&dst, bytes), "cuMemAlloc") &&
      check(d.cuStreamCreate(&stream, 0), "cuStreamCreate") &&
      check(d.cuEventCreate(&start, 0), "cuEventCreate") &&
      check(d.cuEventCreate(&stop, 0), "cuEventCreate"))
    ms = bestCopyMs(dst, src, bytes, reps, stream, start, stop);
  if (start)
    d.cuEventDestroy(start);
  if (stop)
    d.cuEventDestroy(stop);
  if (stream)
    d.cuStreamDestroy(stream);
  if (src)
    d.cuMemFree(src);
  if (dst)
    d.cuMemFree(dst);
  return ms > 0 && !failed() ? 2.0 * double(bytes) / (ms * 1e-3) / 1e9 : 0;
}

} // namespace mlir::stax::cuda
