//===- CompiledModule.cpp - JIT-compiled Stax modules ---------------------===//
#include "Stax/ExecutionEngine/CompiledModule.h"
#include "Stax/Dialect/Stax/IR/DiscardableAttrs.h"
#include "Stax/Runtime/Runtime.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
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

static void registerRuntimeSymbols(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](const char *name, auto *fn) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                             llvm::JITSymbolFlags::Exported};
    };
    add("stax_rt_matmul_f32", &stax_rt_matmul_f32);
    add("stax_rt_matmul_f64", &stax_rt_matmul_f64);
    add("stax_rt_matmul_i64", &stax_rt_matmul_i64);
    add("stax_rt_sort_f32", &stax_rt_sort_f32);
    add("stax_rt_sort_f64", &stax_rt_sort_f64);
    add("stax_rt_sort_i8", &stax_rt_sort_i8);
    add("stax_rt_sort_u8", &stax_rt_sort_u8);
    add("stax_rt_sort_i16", &stax_rt_sort_i16);
    add("stax_rt_sort_i32", &stax_rt_sort_i32);
    add("stax_rt_sort_i64", &stax_rt_sort_i64);
    add("stax_rt_index_error", &stax_rt_index_error);
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
  });
}

/// libomp's workers spin for 200 ms after each parallel loop by default
/// (KMP_BLOCKTIME), taking the cores from whatever runs next in the
/// process: PyTorch's own OpenMP threads, BLAS. Measured: an eager
/// TransformerEncoderLayer step went from 2.1 to 32 ms after a compiled
/// call. libomp reads the variable when it starts (at the first parallel
/// loop), so setting it before then makes the workers sleep at once; a
/// value the user set is kept.
static void configureOpenMP() {
  static bool done = [] {
    ::setenv("KMP_BLOCKTIME", "0", /*overwrite=*/0);
    return true;
  }();
  (void)done;
}

FailureOr<std::unique_ptr<CompiledModule>>
CompiledModule::compile(ModuleOp module, const PipelineOptions &options,
                        bool keepLLVMIR) {
  if (options.target != Target::CPU)
    return module.emitError()
           << "the JIT runs CPU code: target=cuda makes GPU kernels, which "
              "need the CUDA launcher (not written yet); lower with "
              "--stax-lowering-pipeline=\"target=cuda\" to run the CUDA "
              "schedule on the CPU";
  std::unique_ptr<CompiledModule> result(new CompiledModule());
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    EntryPoint e;
    e.name = fn.getSymName().str();
    auto describe = [](Type t) {
      BufferType b;
      llvm::raw_string_ostream os(b.type);
      os << t;
      if (auto rt = dyn_cast<RankedTensorType>(t); rt && rt.hasStaticShape())
        b.elements = rt.getNumElements();
      return b;
    };
    for (Type t : fn.getArgumentTypes())
      e.inputs.push_back(describe(t));
    for (Type t : fn.getResultTypes())
      e.results.push_back(describe(t));
    result->entries.push_back(std::move(e));
  }

  configureOpenMP();
  PassManager pm(module.getContext());
  buildPipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();
  if (auto sites = module->getAttrOfType<ArrayAttr>(kErrorSitesAttr))
    for (Attribute s : sites)
      result->errorSites.push_back(cast<StringAttr>(s).str());
  // The stax.output marks served the signature; LLVM has no use for them.
  module.walk([](FunctionOpInterface fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      fn.removeArgAttr(i, StringAttr::get(fn->getContext(), kOutputAttr));
  });

  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return module.emitError() << "no host target: "
                              << llvm::toString(tmBuilder.takeError());
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return module.emitError() << "no host target machine: "
                              << llvm::toString(tm.takeError());
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
  SmallVector<StringRef> libs;
  if (options.parallel)
    libs.push_back(STAX_LIBOMP_PATH);
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return module.emitError() << "JIT compilation failed: "
                              << llvm::toString(engine.takeError());
  result->engine = std::move(*engine);
  registerRuntimeSymbols(*result->engine);
  for (EntryPoint &e : result->entries) {
    auto fn = result->engine->lookupPacked(e.name);
    if (!fn)
      return module.emitError() << "no compiled function '" << e.name
                                << "': " << llvm::toString(fn.takeError());
    e.packed = *fn;
  }
  return result;
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
  entry.packed(packed.data());
  if (!stax_rt_take_error(&site, &value, &size))
    return "";
  std::string where = site >= 0 && size_t(site) < errorSites.size()
                          ? errorSites[site]
                          : "an unknown site";
  return "index " + std::to_string(value) +
         " is out of bounds for a dimension of size " + std::to_string(size) +
         " in " + where;
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
