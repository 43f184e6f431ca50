//===- CompiledModule.h - JIT-compiled Stax modules -------------*- C++ -*-===//
//
// Compiles a tp (or lowered stax) module to machine code with
// buildPipeline() and MLIR's ExecutionEngine, and calls its functions on
// caller-owned buffers without copying them.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_EXECUTIONENGINE_COMPILEDMODULE_H
#define STAX_EXECUTIONENGINE_COMPILEDMODULE_H

#include "Stax/Pipelines/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm
namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc
namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::stax {

/// The type of one buffer, kept as text: it outlives the MLIRContext the
/// module was compiled in. `type` is the tensor type ("tensor<4x8xf32>").
struct BufferType {
  std::string type;
  int64_t elements = 0;
  int64_t bytes = 0; ///< of the storage (a byte per i1)
};

/// A function of a compiled module, with its signature before code
/// generation: it is called with one buffer per input, then one per result,
/// each the contiguous row-major storage of that tensor type.
struct EntryPoint {
  std::string name;
  llvm::SmallVector<BufferType> inputs, results;
  void (*packed)(void **) = nullptr; ///< the ExecutionEngine's wrapper
};

/// Where compiled code is kept on disk (lib/ExecutionEngine/DiskCache.h):
/// a directory and the key of the module text and options.
struct DiskCacheEntry {
  std::string dir, key;
};

/// The disk cache key of `moduleText` compiled with `options` (their
/// text) by this build of Stax for this host (hex SHA-256).
std::string diskCacheKey(llvm::StringRef moduleText, llvm::StringRef options);

struct CachedCode;

class CompiledModule {
public:
  ~CompiledModule();

  /// Lowers `module` in place to the LLVM dialect with buildPipeline and
  /// JIT-compiles it for the host. Diagnostics go to the module's context.
  /// target=cuda compiles host code that launches the kernels through the
  /// CUDA launcher (Stax/Runtime/CudaLauncher.h); compiling needs no GPU.
  /// With `keepLLVMIR`, llvmIR() returns the optimized LLVM IR.
  /// With `cache` (target=cpu, not keepLLVMIR), the machine code comes
  /// from that disk cache entry when it holds usable code (and the module
  /// is not lowered), else it is compiled and stored there.
  static FailureOr<std::unique_ptr<CompiledModule>>
  compile(ModuleOp module, const PipelineOptions &options,
          bool keepLLVMIR = false, const DiskCacheEntry *cache = nullptr);

  /// The code came from the disk cache.
  bool isFromCache() const { return fromCache; }

  /// Stores the code in `cache` unless this module stored it there
  /// already: code compiled earlier in the process (an in-memory cache
  /// hit) asked for by a caller with a disk cache it is not in yet. Only
  /// code this process compiled for target=cpu has an object to store.
  void storeInCacheOnce(const DiskCacheEntry &cache) const;

  llvm::ArrayRef<EntryPoint> entryPoints() const { return entries; }
  const EntryPoint *lookup(llvm::StringRef name) const;

  /// Runs `entry` on `buffers` (inputs, then results). Returns the empty
  /// string, or the message of the first failed run-time check, naming its
  /// op and location: an index out of bounds, or (check-nan) a NaN stored,
  /// with its element and the function.
  /// target=cuda: `buffers` are device pointers, and a driver error (no
  /// driver, a failed launch) is returned the same way, naming the kernel.
  std::string call(const EntryPoint &entry,
                   llvm::ArrayRef<void *> buffers) const;

  /// Like call, on host buffers for every target: target=cuda copies the
  /// inputs to device memory, calls, and copies the results back.
  std::string callOnHost(const EntryPoint &entry,
                         llvm::ArrayRef<void *> buffers) const;

  Target getTarget() const { return target; }

  /// target=cuda: each kernel's name and the bytes of the distinct buffers
  /// it is launched on (its ideal traffic, for bandwidth figures).
  const llvm::StringMap<int64_t> &getKernelBytes() const {
    return kernelBytes;
  }

  const std::string &llvmIR() const { return ir; }

  /// Threads of the parallel loops (OpenMP); <= 0 means all cores.
  static void setNumThreads(int threads);

private:
  CompiledModule() = default;
  LogicalResult adoptCachedCode(CachedCode code);
  void storeInCache(const DiskCacheEntry &cache) const;

  std::unique_ptr<llvm::TargetMachine> targetMachine;
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<llvm::orc::LLJIT> cachedJit; ///< code from the disk cache
  /// The disk cache directories this code was stored in (storeInCacheOnce).
  mutable std::mutex storedMutex;
  mutable llvm::StringSet<> storedIn;
  bool fromCache = false;
  llvm::SmallVector<EntryPoint> entries;
  llvm::SmallVector<std::string> errorSites;
  std::string ir;
  Target target = Target::CPU;
  /// The code has OpenMP parallel loops (their workers spin during a call).
  bool parallelLoops = false;
  llvm::StringMap<int64_t> kernelBytes;
};

} // namespace mlir::stax

#endif // STAX_EXECUTIONENGINE_COMPILEDMODULE_H
