//===- Stax.cpp - the C API -----------------------------------------------===//
//
// Each call builds its own MLIRContext: calls are independent and safe to
// make from any thread, at the cost of re-registering dialects (microseconds).
//
//===----------------------------------------------------------------------===//

#include "Stax-c/Stax.h"
#include "Stax-c/Passes.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/ExecutionEngine/CompiledModule.h"
#include "Stax/InitAll.h"
#include "Stax/Interpreter/Interpreter.h"
#include "Stax/Interpreter/Npy.h"
#include "Stax/Runtime/CudaLauncher.h"
#include "Stax/Runtime/Runtime.h"
#include "Stax/Support/BugReport.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

using namespace mlir;

namespace {
char *copyString(llvm::StringRef s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}

/// Sets *error to "`function`: `what`" for an argument the caller got
/// wrong (a null handle or pointer, a negative count); returns 1.
int badArgument(const char *function, const std::string &what, char **error) {
  if (error)
    *error = copyString(std::string(function) + ": " + what);
  return 1;
}

/// A context with everything registered and diagnostics captured as text.
struct Session {
  Session() : context(makeRegistry()), handler(sourceMgr, &context, os) {
    context.loadAllAvailableDialects();
    // The location names the op; printing the op as well renames every
    // value of its function per diagnostic (quadratic with many remarks).
    context.printOpOnDiagnostic(false);
    // An error message carries the errors (and their notes) only: passes'
    // remarks (kernels fused, external calls) are for stax-opt users, and
    // a failing compile printed hundreds of them before its one error.
    // Handlers run newest first; a remark handled here goes no further.
    context.getDiagEngine().registerHandler([](Diagnostic &diag) {
      return success(diag.getSeverity() == DiagnosticSeverity::Remark);
    });
  }
  static DialectRegistry makeRegistry() {
    staxRegisterAllPasses(); // once per process, shared with Stax-c/Passes.h
    DialectRegistry registry;
    stax::registerAllDialects(registry);
    return registry;
  }
  OwningOpRef<ModuleOp> parse(const char *text) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "<input>"), llvm::SMLoc());
    auto module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (module && failed(verify(*module)))
      return nullptr;
    return module;
  }
  /// Removes MLIR's "Failures have been detected ..." error and its
  /// "reproducer generated at" notes (with their source lines and carets)
  /// from the diagnostics.
  void dropReproducerNotes() {
    os.flush();
    SmallVector<StringRef> lines;
    StringRef(diagnostics).split(lines, '\n');
    std::string kept;
    bool dropping = false;
    for (StringRef line : lines) {
      bool header = line.contains(": error: ") || line.contains(": note: ") ||
                    line.contains(": warning: ");
      if (header)
        dropping = line.contains("reproducer generated at") ||
                   line.contains("Failures have been detected while processing");
      if (!dropping)
        kept += line.str() + "\n";
    }
    diagnostics = StringRef(kept).rtrim().str();
  }
  char *fail(char **error) {
    os.flush();
    if (error)
      *error = copyString(diagnostics.empty() ? "unknown error" : diagnostics);
    return nullptr;
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  llvm::raw_string_ostream os{diagnostics};
  SourceMgrDiagnosticHandler handler;
};

/// The tensor of buffer `b`, for an argument of element type `expected`
/// (null when unknown). NumPy has no bfloat16, so float32 data for a bf16
/// argument is accepted and rounded to nearest even, as `.bfloat16()` does.
FailureOr<stax::Tensor> fromBuffer(const StaxBuffer &b, Type expected,
                                   MLIRContext *ctx, std::string &error) {
  Type elt = stax::typeFromNpyDescr(b.dtype, ctx);
  if (!elt) {
    error = std::string("unsupported dtype '") + b.dtype + "'";
    return failure();
  }
  if (b.rank < 0 || (b.rank > 0 && !b.shape)) {
    error = b.rank < 0 ? "negative rank " + std::to_string(b.rank)
                       : std::string("null shape");
    return failure();
  }
  llvm::ArrayRef<int64_t> shape(b.shape, b.rank);
  int64_t numel = 1;
  for (int64_t d : shape) {
    if (d < 0) {
      error = "negative dimension " + std::to_string(d);
      return failure();
    }
    if (d != 0 && numel > INT64_MAX / d) {
      error = "a shape whose element count overflows int64";
      return failure();
    }
    numel *= d;
  }
  if (numel > 0 && !b.data) {
    error = "null data";
    return failure();
  }
  stax::Tensor raw(shape, elt);
  unsigned size = stax::rawElementSize(elt);
  for (int64_t i = 0; i < raw.numel(); ++i)
    stax::loadRawElement(raw, i, static_cast<const char *>(b.data) + i * size);
  if (expected && expected.isBF16() && elt.isF32())
    return raw.castTo(expected);
  return raw;
}

StaxBuffer toBuffer(const stax::Tensor &t) {
  StaxBuffer b;
  b.rank = t.rank();
  b.shape = static_cast<int64_t *>(std::malloc(sizeof(int64_t) * (t.rank() + 1)));
  for (int64_t i = 0; i < t.rank(); ++i)
    b.shape[i] = t.dim(i);
  std::string descr = stax::npyDescr(t.elementType());
  std::strncpy(b.dtype, descr.c_str(), sizeof(b.dtype) - 1);
  b.dtype[sizeof(b.dtype) - 1] = '\0';
  unsigned size = stax::rawElementSize(t.elementType());
  b.data = std::malloc(size * t.numel() + 1);
  for (int64_t i = 0; i < t.numel(); ++i)
    stax::storeRawElement(t, i, static_cast<char *>(b.data) + i * size);
  return b;
}
} // namespace

struct StaxExecutable {
  std::shared_ptr<stax::CompiledModule> compiled;
};

namespace {
/// Compiled modules by (keep IR, options, module text). The last
/// kRecentModules compiled or found stay alive here; an older one lives as
/// long as an executable holds it (a process that compiled thousands of
/// distinct modules, the differential tester, grew by 2-4 MiB per module
/// when every one was kept). Never destroyed: at exit, static destructors
/// would tear down JITs after LLVM's own statics are gone.
class ModuleCache {
public:
  static constexpr size_t kRecentModules = 32;

  std::shared_ptr<stax::CompiledModule> find(const std::string &key) {
    std::shared_ptr<stax::CompiledModule> found, evicted;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = byKey.find(key);
      if (it == byKey.end())
        return nullptr;
      found = it->second.lock();
      if (found)
        evicted = keep(found);
    }
    return found; // `evicted` is destroyed here, outside the lock
  }

  /// The modules alive: the recent ones and those executables hold.
  size_t alive() {
    std::lock_guard<std::mutex> lock(mutex);
    return std::count_if(byKey.begin(), byKey.end(),
                         [](const auto &e) { return !e.second.expired(); });
  }

  void insert(const std::string &key,
              std::shared_ptr<stax::CompiledModule> compiled) {
    std::shared_ptr<stax::CompiledModule> evicted;
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = byKey.begin(); it != byKey.end();)
      it = it->second.expired() ? byKey.erase(it) : std::next(it);
    byKey[key] = compiled;
    evicted = keep(std::move(compiled));
  }

private:
  /// Moves `m` to the most recent place; returns the module that falls
  /// out, for the caller to release after unlocking.
  std::shared_ptr<stax::CompiledModule>
  keep(std::shared_ptr<stax::CompiledModule> m) {
    auto it = std::find(recent.begin(), recent.end(), m);
    if (it != recent.end())
      recent.erase(it);
    recent.push_back(std::move(m));
    if (recent.size() <= kRecentModules)
      return nullptr;
    std::shared_ptr<stax::CompiledModule> oldest = std::move(recent.front());
    recent.pop_front();
    return oldest;
  }

  std::mutex mutex;
  std::map<std::string, std::weak_ptr<stax::CompiledModule>> byKey;
  std::deque<std::shared_ptr<stax::CompiledModule>> recent;
};

ModuleCache &compiledCache() {
  static ModuleCache *cache = new ModuleCache();
  return *cache;
}

/// Parses --stax-pipeline options into `out`; on failure, the message
/// names the options and what is wrong. An unknown option name comes with
/// the parser's own message; a value that does not parse for its option's
/// type is reported by LLVM's command-line library on stderr only, so the
/// first such `key=value` is found by parsing each alone.
LogicalResult parsePipelineOptions(llvm::StringRef options,
                                   stax::PipelineOptions &out,
                                   std::string &error) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (succeeded(out.parseFromString(options, os))) {
    std::string problem = out.firstInvalidValue();
    if (problem.empty())
      return success();
    error = "invalid --stax-pipeline option " + problem;
    return failure();
  }
  if (message.empty()) {
    llvm::SmallVector<llvm::StringRef> items;
    options.split(items, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef item : items) {
      stax::PipelineOptions one;
      std::string ignored;
      llvm::raw_string_ostream ignoredOs(ignored);
      if (failed(one.parseFromString(item, ignoredOs))) {
        message = "'" + item.str() + "' is not a valid value for option '" +
                  item.split('=').first.str() + "' (stax-opt --help)";
        break;
      }
    }
  }
  error = "invalid --stax-pipeline options '" + options.str() +
          "': " + llvm::StringRef(message).trim().str();
  return failure();
}
} // namespace

int staxCheckPipelineOptions(const char *options, char **error) {
  stax::PipelineOptions parsed;
  std::string message;
  if (succeeded(parsePipelineOptions(options ? options : "", parsed, message)))
    return 0;
  if (error)
    *error = copyString(message);
  return 1;
}

size_t staxCompiledModuleCount(void) { return compiledCache().alive(); }

StaxExecutable *staxCompile(const char *module, const char *options,
                            char **llvmIR, char **error) {
  return staxCompileCached(module, options, std::getenv("STAX_CACHE_DIR"),
                           llvmIR, error);
}

char *staxCpuTakeProfile(void) {
  char *raw = stax_rt_take_profile();
  char *out = copyString(raw ? raw : "");
  std::free(raw);
  return out;
}

int staxExecutableFromCache(StaxExecutable *exe) {
  return exe && exe->compiled->isFromCache();
}

StaxExecutable *staxCompileCached(const char *module, const char *options,
                                  const char *cacheDir, char **llvmIR,
                                  char **error) {
  if (!module) {
    badArgument("staxCompile", "null module", error);
    return nullptr;
  }
  options = options ? options : "";
  std::string key = std::string(llvmIR ? "ir;" : ";") + options + ";" + module;
  std::optional<stax::DiskCacheEntry> disk;
  if (cacheDir && *cacheDir)
    disk = stax::DiskCacheEntry{cacheDir, stax::diskCacheKey(module, options)};
  std::shared_ptr<stax::CompiledModule> compiled = compiledCache().find(key);
  if (compiled && disk && !llvmIR) // compiled here for another cache, or none
    compiled->storeInCacheOnce(*disk);
  if (!compiled) {
    Session s;
    OwningOpRef<ModuleOp> m = s.parse(module);
    if (!m)
      return reinterpret_cast<StaxExecutable *>(s.fail(error));
    stax::PipelineOptions pipelineOptions;
    std::string optionError;
    if (failed(parsePipelineOptions(options, pipelineOptions, optionError))) {
      if (error)
        *error = copyString(optionError);
      return nullptr;
    }
    auto result = stax::CompiledModule::compile(
        *m, pipelineOptions, llvmIR != nullptr, disk ? &*disk : nullptr);
    if (failed(result))
      return reinterpret_cast<StaxExecutable *>(s.fail(error));
    compiled = std::move(*result);
    compiledCache().insert(key, compiled);
  }
  if (llvmIR)
    *llvmIR = copyString(compiled->llvmIR());
  return new StaxExecutable{compiled};
}

/// Looks `entry` up and calls it through `call` (CompiledModule::call or
/// callOnHost); 0 on success, else 1 with *error set.
static int callEntry(StaxExecutable *exe, const char *entry, void **buffers,
                     int64_t numBuffers, char **error,
                     std::string (stax::CompiledModule::*call)(
                         const stax::EntryPoint &, llvm::ArrayRef<void *>)
                         const) {
  if (!exe || !entry)
    return badArgument("staxExecutableCall", !exe ? "null executable" : "null entry",
                       error);
  if (numBuffers < 0 || (numBuffers > 0 && !buffers))
    return badArgument("staxExecutableCall",
                       numBuffers < 0 ? "negative buffer count " +
                                            std::to_string(numBuffers)
                                      : std::string("null buffer array"),
                       error);
  const stax::EntryPoint *e = exe->compiled->lookup(entry);
  std::string message =
      e ? (exe->compiled.get()->*call)(
              *e, llvm::ArrayRef<void *>(buffers,
                                         static_cast<size_t>(numBuffers)))
        : std::string("no compiled function '") + entry + "'";
  if (message.empty())
    return 0;
  if (error)
    *error = copyString(message);
  return 1;
}

int staxExecutableCall(StaxExecutable *exe, const char *entry, void **buffers,
                       int64_t numBuffers, char **error) {
  return callEntry(exe, entry, buffers, numBuffers, error,
                   &stax::CompiledModule::call);
}

int staxExecutableCallHost(StaxExecutable *exe, const char *entry,
                           void **buffers, int64_t numBuffers, char **error) {
  return callEntry(exe, entry, buffers, numBuffers, error,
                   &stax::CompiledModule::callOnHost);
}

char *staxExecutableKernels(StaxExecutable *exe) {
  if (!exe)
    return nullptr;
  std::string out;
  llvm::raw_string_ostream os(out);
  for (const auto &entry : exe->compiled->getKernelBytes())
    os << entry.getKey() << " " << entry.getValue() << "\n";
  return copyString(os.str());
}

int staxCudaInitialize(char **device, char **error) {
  stax::cuda::takeError(); // drop a stale error
  if (!stax::cuda::initialize()) {
    if (error)
      *error = copyString(stax::cuda::takeError());
    return 1;
  }
  if (device)
    *device = copyString(stax::cuda::deviceName());
  return 0;
}

void staxCudaSetProfiling(int enable) { stax::cuda::setProfiling(enable); }

char *staxCudaTakeProfile(void) {
  std::string out;
  llvm::raw_string_ostream os(out);
  for (const stax::cuda::KernelTime &t : stax::cuda::takeProfile())
    os << t.name << " " << t.launches << " " << t.totalMs << " " << t.minMs
       << "\n";
  return copyString(os.str());
}

int staxCudaCopyBandwidth(int64_t bytes, int reps, double *gbps,
                          char **error) {
  stax::cuda::takeError();
  *gbps = stax::cuda::copyBandwidth(static_cast<size_t>(bytes), reps);
  std::string message = stax::cuda::takeError();
  if (message.empty() && *gbps > 0)
    return 0;
  if (error)
    *error = copyString(message.empty() ? "no copy was timed" : message);
  return 1;
}

char *staxExecutableSignature(StaxExecutable *exe, const char *entry) {
  if (!exe || !entry)
    return nullptr;
  const stax::EntryPoint *e = exe->compiled->lookup(entry);
  if (!e)
    return nullptr;
  std::string out;
  llvm::raw_string_ostream os(out);
  auto type = [&](const stax::BufferType &b) { os << b.type; };
  llvm::interleave(e->inputs, type, [&] { os << ","; });
  os << ";";
  llvm::interleave(e->results, type, [&] { os << ","; });
  return copyString(os.str());
}

void *staxHostAllocate(size_t bytes) {
  return _mlir_memref_to_llvm_aligned_alloc(64, bytes);
}

void staxHostRelease(void *ptr) { _mlir_memref_to_llvm_free(ptr); }

size_t staxHostCachedBytes(void) { return stax_rt_arena_cached_bytes(); }

void staxHostTrim(void) { stax_rt_arena_trim(); }

void staxSetNumThreads(int threads) {
  stax::CompiledModule::setNumThreads(threads);
}

void staxExecutableDestroy(StaxExecutable *exe) { delete exe; }

char *staxRunPipeline(const char *module, const char *pipeline, int print,
                      char **error) {
  if (!module) {
    badArgument("staxRunPipeline", "null module", error);
    return nullptr;
  }
  Session s;
  OwningOpRef<ModuleOp> m = s.parse(module);
  if (!m)
    return s.fail(error);
  if (pipeline && *pipeline) {
    std::string errorText;
    llvm::raw_string_ostream errs(errorText);
    FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, errs);
    if (failed(parsed)) {
      if (error)
        *error = copyString("invalid pass pipeline: " + errs.str());
      return nullptr;
    }
    PassManager pm(&s.context, parsed->getOpAnchorName());
    static_cast<OpPassManager &>(pm) = *parsed;
    // A crash writes MLIR's reproducer and the error says where, as
    // stax-opt does. An ordinary failure (stax.compile expects some: no
    // result depends differentiably on the inputs) leaves no file behind:
    // its errors say what is wrong.
    std::string reproducer = stax::uniqueReproducerPath();
    pm.enableCrashReproducerGeneration(reproducer);
    if (failed(pm.run(*m))) {
      s.os.flush();
      if (!StringRef(s.diagnostics).contains("signal was caught")) {
        llvm::sys::fs::remove(reproducer);
        s.dropReproducerNotes();
      }
      return s.fail(error);
    }
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  OpPrintingFlags flags;
  if (print & STAX_PRINT_GENERIC)
    flags.printGenericOpForm();
  if (print & STAX_PRINT_LOCATIONS)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  m->print(os, flags);
  return copyString(os.str());
}

int staxTimePipeline(const char *module, const char *pipeline, int64_t reps,
                     int verify, double *bestMs, double *medianMs,
                     char **error) {
  if (!module || !pipeline || !bestMs || !medianMs)
    return badArgument("staxTimePipeline",
                       !module     ? "null module"
                       : !pipeline ? "null pipeline"
                                   : "null result",
                       error);
  if (reps < 1)
    return badArgument("staxTimePipeline",
                       "reps must be at least 1, got " + std::to_string(reps),
                       error);
  Session s;
  OwningOpRef<ModuleOp> m = s.parse(module);
  if (!m) {
    s.fail(error);
    return 1;
  }
  std::string errorText;
  llvm::raw_string_ostream errs(errorText);
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, errs);
  if (failed(parsed)) {
    if (error)
      *error = copyString("invalid pass pipeline: " + errs.str());
    return 1;
  }
  // The input was verified above; verifying the output is the caller's
  // choice (functorch's partitioner checks nothing).
  PassManager pm(&s.context, parsed->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = *parsed;
  pm.enableVerifier(verify != 0);
  std::vector<double> times;
  for (int64_t i = 0; i < reps; ++i) {
    OwningOpRef<ModuleOp> copy = m->clone();
    auto start = std::chrono::steady_clock::now();
    LogicalResult result = pm.run(*copy);
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    if (failed(result)) {
      s.fail(error);
      return 1;
    }
  }
  std::sort(times.begin(), times.end());
  *bestMs = times.front();
  *medianMs = times[times.size() / 2];
  return 0;
}

int staxInterpret(const char *module, const char *entry, int64_t numArgs,
                  const StaxBuffer *args, int f64, StaxBuffer **results,
                  int64_t *numResults, char **error) {
  if (!module || !entry || !results || !numResults ||
      numArgs < 0 || (numArgs > 0 && !args))
    return badArgument("staxInterpret",
                       !module  ? std::string("null module")
                       : !entry ? std::string("null entry")
                       : numArgs < 0
                           ? "negative argument count " + std::to_string(numArgs)
                           : std::string("null arguments or results"),
                       error);
  Session s;
  OwningOpRef<ModuleOp> m = s.parse(module);
  if (!m) {
    s.fail(error);
    return 1;
  }
  auto fn = m->lookupSymbol<func::FuncOp>(entry);
  llvm::SmallVector<stax::Tensor> tensors;
  for (int64_t i = 0; i < numArgs; ++i) {
    Type expected;
    if (fn && i < fn.getNumArguments())
      if (auto t = dyn_cast<RankedTensorType>(fn.getArgumentTypes()[i]))
        expected = t.getElementType();
    std::string why;
    auto t = fromBuffer(args[i], expected, &s.context, why);
    if (failed(t)) {
      if (error)
        *error = copyString("argument #" + std::to_string(i) + ": " + why);
      return 1;
    }
    tensors.push_back(std::move(*t));
  }
  stax::InterpreterOptions options;
  options.promoteToF64 = f64 != 0;
  auto out = stax::interpret(*m, entry, tensors, options);
  if (failed(out)) {
    s.fail(error);
    return 1;
  }
  *numResults = out->size();
  *results = static_cast<StaxBuffer *>(std::malloc(sizeof(StaxBuffer) * (out->size() + 1)));
  for (auto [i, t] : llvm::enumerate(*out))
    (*results)[i] = toBuffer(t);
  return 0;
}

int staxInterpreterHasKernel(const char *name) { return stax::hasKernel(name); }

char *staxListOperations(const char *dialect) {
  Session s;
  std::string out;
  for (RegisteredOperationName name : s.context.getRegisteredOperations())
    if (name.getDialectNamespace() == dialect)
      out += name.getStringRef().str() + "\n";
  return copyString(out);
}

int staxOpIsDifferentiable(const char *name) {
  Session s;
  auto op = RegisteredOperationName::lookup(name, &s.context);
  return op && op->hasInterface<tp::DifferentiableOpInterface>();
}

void staxFreeString(char *s) { std::free(s); }

void staxFreeBuffers(StaxBuffer *buffers, int64_t count) {
  if (!buffers)
    return;
  for (int64_t i = 0; i < count; ++i) {
    std::free(buffers[i].shape);
    std::free(buffers[i].data);
  }
  std::free(buffers);
}
