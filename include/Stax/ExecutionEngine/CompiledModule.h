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
#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm
namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::stax {

/// The type of one buffer, kept as text: it outlives the MLIRContext the
/// module was compiled in. `type` is the tensor type ("tensor<4x8xf32>").
struct BufferType {
  std::string type;
  int64_t elements = 0;
};

/// A function of a compiled module, with its signature before code
/// generation: it is called with one buffer per input, then one per result,
/// each the contiguous row-major storage of that tensor type.
struct EntryPoint {
  std::string name;
  llvm::SmallVector<BufferType> inputs, results;
  void (*packed)(void **) = nullptr; ///< the ExecutionEngine's wrapper
};

class CompiledModule {
public:
  ~CompiledModule();

  /// Lowers `module` in place to the LLVM dialect with buildPipeline and
  /// JIT-compiles it for the host. Diagnostics go to the module's context.
  /// With `keepLLVMIR`, llvmIR() returns the optimized LLVM IR.
  static FailureOr<std::unique_ptr<CompiledModule>>
  compile(ModuleOp module, const PipelineOptions &options,
          bool keepLLVMIR = false);

  llvm::ArrayRef<EntryPoint> entryPoints() const { return entries; }
  const EntryPoint *lookup(llvm::StringRef name) const;

  /// Runs `entry` on `buffers` (inputs, then results). Returns the empty
  /// string, or the message of a failed run-time check, naming its op and
  /// location.
  std::string call(const EntryPoint &entry,
                   llvm::ArrayRef<void *> buffers) const;

  const std::string &llvmIR() const { return ir; }

  /// Threads of the parallel loops (OpenMP); <= 0 means all cores.
  static void setNumThreads(int threads);

private:
  CompiledModule() = default;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  std::unique_ptr<ExecutionEngine> engine;
  llvm::SmallVector<EntryPoint> entries;
  llvm::SmallVector<std::string> errorSites;
  std::string ir;
};

} // namespace mlir::stax

#endif // STAX_EXECUTIONENGINE_COMPILEDMODULE_H
