//===- DiskCache.h - compiled CPU code kept between processes ---*- C++ -*-===//
//
// When asked (stax.compile(cache_dir=...), STAX_CACHE_DIR, the C API's
// staxCompileCached), CompiledModule keeps the machine code of a module on
// disk: <dir>/<key>.o, the object the JIT compiled (packed entry wrappers
// included), and <dir>/<key>.json, what a call needs besides the code (the
// error sites, whether there are parallel loops). The key hashes the module
// text, the pipeline options, the host CPU and this build of Stax, so a
// rebuilt compiler or another machine never reads stale code. A later
// process links the object into an LLJIT instead of lowering and compiling
// again. An unreadable or corrupt entry is compiled again and replaced;
// a write that fails only loses the cache.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_EXECUTIONENGINE_DISKCACHE_H
#define STAX_LIB_EXECUTIONENGINE_DISKCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stax {

/// What a call needs besides the code.
struct CachedMetadata {
  std::vector<std::string> errorSites;
  bool parallelLoops = false;
};

/// Code loaded from the cache.
struct CachedCode {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  CachedMetadata metadata;
};

/// Runtime symbols the code calls, as absolute definitions.
using SymbolsFn =
    llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>;

/// The code and metadata of `key` in `dir`, linked with `symbols`, libomp
/// and the process's libraries; nullopt when absent or unusable.
std::optional<CachedCode>
loadCachedCode(llvm::StringRef dir, llvm::StringRef key, SymbolsFn symbols);

/// Stores `object` and `metadata` under `key` in `dir` (each written to a
/// temporary file and renamed, so a reader sees all or nothing). Returns
/// false when it could not.
bool storeCachedCode(llvm::StringRef dir, llvm::StringRef key,
                     llvm::StringRef object, const CachedMetadata &metadata);

} // namespace mlir::stax

#endif // STAX_LIB_EXECUTIONENGINE_DISKCACHE_H
