//===- CompiledModule.cpp - JIT-compiled Stax modules ---------------------===//
#include "Stax/ExecutionEngine/CompiledModule.h"
#include "DiskCache.h"
#include "OpenMPWorkers.h"
#include "Stax/Dialect/Stax/IR/DiscardableAttrs.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "Stax/Runtime/CudaLauncher.h"
#include "Stax/Runtime/Runtime.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include <cstdlib>

using namespace mlir;
using namespace mlir::stax;

CompiledModule::~CompiledModule() = default;

const EntryPoint *CompiledModule::lookup(llvm::StringRef name) const {
  for (const EntryPoint &e : entries)
    if (e.name == name)
      return &e;
  return nullptr;
}

/// The runtime functions generated CPU code calls.
static llvm::orc::SymbolMap
runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *name, auto *fn) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                             llvm::JITSymbolFlags::Exported};
    };
    add("_mlir_memref_to_llvm_alloc", &_mlir_memref_to_llvm_alloc);
    add("_mlir_memref_to_llvm_aligned_alloc",
        &_mlir_memref_to_llvm_aligned_alloc);
    add("_mlir_memref_to_llvm_free", &_mlir_memref_to_llvm_free);
    add("stax_rt_matmul_f32", &stax_rt_matmul_f32);
    add("stax_rt_matmul_f64", &stax_rt_matmul_f64);
    add("stax_rt_matmul_i8", &stax_rt_matmul_i8);
    add("stax_rt_matmul_i16", &stax_rt_matmul_i16);
    add("stax_rt_matmul_i32", &stax_rt_matmul_i32);
    add("stax_rt_matmul_i64", &stax_rt_matmul_i64);
    add("stax_rt_sort_f32", &stax_rt_sort_f32);
    add("stax_rt_sort_f64", &stax_rt_sort_f64);
    add("stax_rt_sort_i8", &stax_rt_sort_i8);
    add("stax_rt_sort_u8", &stax_rt_sort_u8);
    add("stax_rt_sort_i16", &stax_rt_sort_i16);
    add("stax_rt_sort_i32", &stax_rt_sort_i32);
    add("stax_rt_sort_i64", &stax_rt_sort_i64);
    add("stax_rt_topk_f32", &stax_rt_topk_f32);
    add("stax_rt_topk_f64", &stax_rt_topk_f64);
    add("stax_rt_topk_i8", &stax_rt_topk_i8);
    add("stax_rt_topk_u8", &stax_rt_topk_u8);
    add("stax_rt_topk_i16", &stax_rt_topk_i16);
    add("stax_rt_topk_i32", &stax_rt_topk_i32);
    add("stax_rt_topk_i64", &stax_rt_topk_i64);
    add("stax_rt_ctc_loss_f32", &stax_rt_ctc_loss_f32);
    add("stax_rt_ctc_loss_f64", &stax_rt_ctc_loss_f64);
    add("stax_rt_ctc_loss_backward_f32", &stax_rt_ctc_loss_backward_f32);
    add("stax_rt_ctc_loss_backward_f64", &stax_rt_ctc_loss_backward_f64);
    add("stax_rt_index_error", &stax_rt_index_error);
    add("stax_rt_nan_error", &stax_rt_nan_error);
    add("stax_rt_division_error", &stax_rt_division_error);
    add("stax_rt_clock_ns", &stax_rt_clock_ns);
    add("stax_rt_profile_record", &stax_rt_profile_record);
#define STAX_ADD_SPECIAL(NAME)                                                 \
  add("stax_rt_" #NAME "_f32", &stax_rt_##NAME##_f32);                          \
  add("stax_rt_" #NAME "_f64", &stax_rt_##NAME##_f64);
    STAX_ADD_SPECIAL(lgamma)
    STAX_ADD_SPECIAL(digamma)
    STAX_ADD_SPECIAL(polygamma)
    STAX_ADD_SPECIAL(erfinv)
    STAX_ADD_SPECIAL(ndtri)
    STAX_ADD_SPECIAL(erfcx)
    STAX_ADD_SPECIAL(nextafter)
    STAX_ADD_SPECIAL(frexp_mantissa)
    STAX_ADD_SPECIAL(frexp_exponent)
#undef STAX_ADD_SPECIAL
    return map;
  }
}

/// The CUDA launcher's mgpu* functions, which target=cuda host code calls
/// (the module loads run as global constructors at initialize()).
static void registerCudaLauncherSymbols(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *name, auto *fn) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                             llvm::JITSymbolFlags::Exported};
    };
    add("mgpuModuleLoad", &mgpuModuleLoad);
    add("mgpuModuleLoadJIT", &mgpuModuleLoadJIT);
    add("mgpuModuleUnload", &mgpuModuleUnload);
    add("mgpuModuleGetFunction", &mgpuModuleGetFunction);
    add("mgpuLaunchKernel", &mgpuLaunchKernel);
    add("mgpuStreamCreate", &mgpuStreamCreate);
    add("mgpuStreamDestroy", &mgpuStreamDestroy);
    add("mgpuStreamSynchronize", &mgpuStreamSynchronize);
    add("mgpuStreamWaitEvent", &mgpuStreamWaitEvent);
    add("mgpuEventCreate", &mgpuEventCreate);
    add("mgpuEventDestroy", &mgpuEventDestroy);
    add("mgpuEventSynchronize", &mgpuEventSynchronize);
    add("mgpuEventRecord", &mgpuEventRecord);
    add("mgpuMemAlloc", &mgpuMemAlloc);
    add("mgpuMemFree", &mgpuMemFree);
    add("mgpuMemcpy", &mgpuMemcpy);
    add("mgpuMemset32", &mgpuMemset32);
    add("mgpuMemset16", &mgpuMemset16);
    add("mgpuSetDefaultDevice", &mgpuSetDefaultDevice);
    return map;
  });
}

namespace {
/// The bytes of the distinct buffers a kernel is launched on: its ideal
/// traffic, each buffer read or written once.
int64_t launchBytes(gpu::LaunchFuncOp launch) {
  llvm::SmallPtrSet<Value, 8> seen;
  int64_t bytes = 0;
  for (Value v : launch.getKernelOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape() || !seen.insert(v).second)
      continue;
    Type e = type.getElementType();
    if (e.isIntOrFloat())
      bytes += type.getNumElements() * ((e.getIntOrFloatBitWidth() + 7) / 8);
  }
  return bytes;
}

/// Reads the kernels' buffer sizes while the host side still has memref
/// types: before gpu-to-llvm.
struct KernelBytesRecorder : public PassInstrumentation {
  explicit KernelBytesRecorder(llvm::StringMap<int64_t> &bytes)
      : bytes(bytes) {}
  void runBeforePass(Pass *pass, Operation *op) override {
    if (pass->getArgument() != "gpu-to-llvm")
      return;
    op->walk([&](gpu::LaunchFuncOp launch) {
      bytes[launch.getKernelName().getValue()] = launchBytes(launch);
    });
  }
  llvm::StringMap<int64_t> &bytes;
};
} // namespace

FailureOr<std::unique_ptr<CompiledModule>>
CompiledModule::compile(ModuleOp module, const PipelineOptions &options,
                        bool keepLLVMIR, const DiskCacheEntry *cache) {
  // The disk cache holds CPU code only (target=cuda's registers its PTX
  // in global constructors), and never serves a request for the IR.
  if (options.target != Target::CPU || keepLLVMIR)
    cache = nullptr;
  configureOpenMPWorkers();
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  std::unique_ptr<CompiledModule> result(new CompiledModule());
  result->target = options.target;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    // A function that only returns its arguments has no op to reject an
    // element type that neither the buffers nor the code can hold.
    for (Type t :
         llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes()))
      if (auto rt = dyn_cast<RankedTensorType>(t);
          rt && tp::getTypeCategory(rt.getElementType()) ==
                    tp::TypeCategory::Unsupported)
        return fn.emitError()
               << "compiled code cannot take or return " << t
               << ": its element type is no PyTorch dtype's (f16, bf16, "
                  "f32, f64, i1, i8, ui8, i16, i32, i64)";
    EntryPoint e;
    e.name = fn.getSymName().str();
    auto describe = [](Type t) {
      BufferType b;
      llvm::raw_string_ostream os(b.type);
      os << t;
      auto rt = dyn_cast<RankedTensorType>(t);
      if (rt && rt.hasStaticShape())
        b.elements = rt.getNumElements();
      if (rt && rt.getElementType().isIntOrFloat()) // i1: a byte each
        b.bytes = b.elements *
                  ((rt.getElementType().getIntOrFloatBitWidth() + 7) / 8);
      return b;
    };
    for (Type t : fn.getArgumentTypes())
      e.inputs.push_back(describe(t));
    for (Type t : fn.getResultTypes())
      e.results.push_back(describe(t));
    result->entries.push_back(std::move(e));
  }
  if (cache)
    if (std::optional<CachedCode> code =
            loadCachedCode(cache->dir, cache->key, runtimeSymbols))
      if (succeeded(result->adoptCachedCode(std::move(*code))))
        return result;

  configureOpenMPWorkers();
  PassManager pm(module.getContext());
  buildPipeline(pm, options);
  if (options.target == Target::CUDA)
    pm.addInstrumentation(
        std::make_unique<KernelBytesRecorder>(result->kernelBytes));
  if (failed(pm.run(module)))
    return failure();
  result->parallelLoops =
      module.walk([](omp::ParallelOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (auto sites = module->getAttrOfType<ArrayAttr>(kErrorSitesAttr))
    for (Attribute s : sites)
      result->errorSites.push_back(cast<StringAttr>(s).str());
  // The stax.output marks served the signature; LLVM has no use for them.
  module.walk([](FunctionOpInterface fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      fn.removeArgAttr(i, StringAttr::get(fn->getContext(), kOutputAttr));
  });

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  module.getContext()->appendDialectRegistry(registry);

  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return mlir::emitError(module.getLoc())
           << "no host target: " << llvm::toString(tmBuilder.takeError());
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return mlir::emitError(module.getLoc())
           << "no host target machine: " << llvm::toString(tm.takeError());
  // ORC may materialize (and so transform) after this function returns,
  // e.g. the destructors at teardown: the transformer owns what it uses.
  result->targetMachine = std::move(*tm);
  auto optimize =
      makeOptimizingTransformer(3, 0, result->targetMachine.get());
  std::string *ir = keepLLVMIR ? &result->ir : nullptr;
  auto transformer = [optimize, ir](llvm::Module *m) -> llvm::Error {
    if (llvm::Error err = optimize(m))
      return err;
    if (ir) {
      llvm::raw_string_ostream os(*ir);
      m->print(os, nullptr);
    }
    return llvm::Error::success();
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // The object stays in memory for a disk cache, this one or one a later
  // caller asks for (storeInCacheOnce).
  engineOptions.enableObjectDump = options.target == Target::CPU;
  SmallVector<StringRef> libs;
  if (options.parallel && options.target == Target::CPU)
    libs.push_back(STAX_LIBOMP_PATH);
#ifdef STAX_LIBMVEC_PATH
  if (options.target == Target::CPU)
    libs.push_back(STAX_LIBMVEC_PATH); // --stax-vector-math-calls' functions
#endif
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return mlir::emitError(module.getLoc())
           << "JIT compilation failed: " << llvm::toString(engine.takeError());
  result->engine = std::move(*engine);
  result->engine->registerSymbols(runtimeSymbols);
  if (options.target == Target::CUDA) {
    registerCudaLauncherSymbols(*result->engine);
    // Runs the global constructors, which register the kernels' PTX with
    // the launcher (it loads them into the driver on first use only).
    result->engine->initialize();
  }
  for (EntryPoint &e : result->entries) {
    auto fn = result->engine->lookupPacked(e.name);
    if (!fn)
      return mlir::emitError(module.getLoc())
             << "no compiled function '" << e.name
             << "': " << llvm::toString(fn.takeError());
    e.packed = *fn;
  }
  if (cache)
    result->storeInCacheOnce(*cache);
  return result;
}

LogicalResult CompiledModule::adoptCachedCode(CachedCode code) {
  for (EntryPoint &e : entries) {
    // The ExecutionEngine's packed wrapper of each function.
    auto fn = code.jit->lookup("_mlir_" + e.name);
    if (!fn) {
      llvm::consumeError(fn.takeError());
      return failure();
    }
    e.packed = fn->toPtr<void (*)(void **)>();
  }
  cachedJit = std::move(code.jit);
  errorSites.assign(code.metadata.errorSites.begin(),
                    code.metadata.errorSites.end());
  parallelLoops = code.metadata.parallelLoops;
  fromCache = true;
  return success();
}

void CompiledModule::storeInCacheOnce(const DiskCacheEntry &cache) const {
  if (!engine || target != Target::CPU)
    return;
  std::lock_guard<std::mutex> lock(storedMutex);
  if (storedIn.insert(cache.dir).second)
    storeInCache(cache);
}

void CompiledModule::storeInCache(const DiskCacheEntry &cache) const {
  // The JIT's object, through a file: ExecutionEngine only dumps to one.
  llvm::SmallString<256> tmp;
  if (llvm::sys::fs::createTemporaryFile("stax-object", "o", tmp))
    return;
  engine->dumpToObjectFile(tmp);
  if (auto object = llvm::MemoryBuffer::getFile(tmp))
    (void)storeCachedCode(
        cache.dir, cache.key, (*object)->getBuffer(),
        CachedMetadata{
            std::vector<std::string>(errorSites.begin(), errorSites.end()),
            parallelLoops});
  llvm::sys::fs::remove(tmp);
}

/// "NaN at element 7 of the result of 'stax.pointwise' at loc(...) in @f":
/// an error site reads "<op name> at <location>", and op names have no
/// spaces.
static std::string nanMessage(llvm::StringRef where, int64_t position,
                              llvm::StringRef function) {
  auto [name, loc] = where.split(' ');
  std::string node = loc.empty() ? where.str()
                                 : ("'" + name + "' " + loc).str();
  std::string element =
      position >= 0 ? "at element " + std::to_string(position) + " of" : "in";
  return "NaN " + element + " the result of " + node + " in @" +
         function.str();
}

std::string CompiledModule::call(const EntryPoint &entry,
                                 llvm::ArrayRef<void *> buffers) const {
  size_t expected = entry.inputs.size() + entry.results.size();
  if (buffers.size() != expected)
    return "'" + entry.name + "' takes " + std::to_string(expected) +
           " buffers (inputs then results), got " +
           std::to_string(buffers.size());
  llvm::SmallVector<void *> values(buffers.begin(), buffers.end());
  llvm::SmallVector<void *> packed;
  for (void *&v : values)
    packed.push_back(&v);
  int64_t site, value, size;
  stax_rt_take_error(&site, &value, &size); // drop a stale error
  if (target == Target::CUDA)
    cuda::takeError();
  {
    SpinningWorkers spin(parallelLoops);
    entry.packed(packed.data());
  }
  if (target == Target::CUDA) // a driver error precedes everything after it
    if (std::string error = cuda::takeError(); !error.empty())
      return error;
  int kind = stax_rt_take_error(&site, &value, &size);
  if (!kind)
    return "";
  std::string where = site >= 0 && size_t(site) < errorSites.size()
                          ? errorSites[site]
                          : "an unknown site";
  if (kind == STAX_RT_NAN_ERROR)
    return nanMessage(where, value, entry.name);
  if (kind == STAX_RT_DIVISION_ERROR)
    return "integer division by zero in " + where;
  return "index " + std::to_string(value) +
         " is out of bounds for a dimension of size " + std::to_string(size) +
         " in " + where;
}

/// Copies `buffers` (host memory) to fresh device buffers, calls `entry` on
/// them and copies its results back; returns the first error.
static std::string callThroughDevice(const CompiledModule &module,
                                     const EntryPoint &entry,
                                     llvm::ArrayRef<void *> buffers) {
  llvm::SmallVector<BufferType> types(entry.inputs);
  types.append(entry.results.begin(), entry.results.end());
  size_t numInputs = entry.inputs.size();
  cuda::takeError(); // drop a stale error
  llvm::SmallVector<void *> device;
  for (auto [i, t] : llvm::enumerate(types)) {
    device.push_back(cuda::allocate(t.bytes));
    if (i < numInputs)
      cuda::copyToDevice(device.back(), buffers[i], t.bytes);
  }
  std::string error = cuda::takeError();
  if (error.empty())
    error = module.call(entry, device);
  for (size_t i = numInputs; error.empty() && i < types.size(); ++i)
    cuda::copyToHost(buffers[i], device[i], types[i].bytes);
  for (void *d : device)
    cuda::release(d);
  std::string late = cuda::takeError();
  return error.empty() ? late : error;
}

std::string CompiledModule::callOnHost(const EntryPoint &entry,
                                       llvm::ArrayRef<void *> buffers) const {
  size_t expected = entry.inputs.size() + entry.results.size();
  if (target != Target::CUDA || buffers.size() != expected)
    return call(entry, buffers); // which reports a wrong count
  return callThroughDevice(*this, entry, buffers);
}

using SetThreadsFn = void (*)(int);

void CompiledModule::setNumThreads(int threads) {
  std::string err;
  llvm::sys::DynamicLibrary lib =
      llvm::sys::DynamicLibrary::getPermanentLibrary(STAX_LIBOMP_PATH, &err);
  if (!lib.isValid())
    return;
  auto set = reinterpret_cast<SetThreadsFn>(
      lib.getAddressOfSymbol("omp_set_num_threads"));
  auto procs = reinterpret_cast<int (*)()>(
      lib.getAddressOfSymbol("omp_get_num_procs"));
  if (set && procs)
    set(threads > 0 ? threads : procs());
}
