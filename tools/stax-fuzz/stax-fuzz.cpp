//===- stax-fuzz.cpp - libFuzzer target for the whole compiler ------------===//
//
// Bytes -> parse as MLIR (every dialect Stax registers) -> verify -> the
// whole pipeline (--stax-pipeline) for target=cpu and target=cuda. Errors
// are expected and swallowed; what counts is a crash, a hang, a sanitizer
// report, or a pass that succeeds and leaves invalid IR behind (that one
// aborts, so libFuzzer keeps the input). Built with -DSTAX_FUZZ=ON and run
// by scripts/fuzz.sh (docs/Testing.md).
//
// Environment:
//   STAX_FUZZ_CUDA=0   skip the cuda pipeline (it roughly doubles the time
//                      of an input that gets that far)
//   STAX_FUZZ_VERBOSE=1  print the diagnostics instead of swallowing them
//
//===----------------------------------------------------------------------===//

#include "Stax/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

/// Set up once: the registry and the two pipelines' options (PassOptions
/// register command-line parsers, so they are built once, not per input).
struct FuzzState {
  DialectRegistry registry;
  stax::PipelineOptions cpu;
  stax::PipelineOptions cuda;
  bool runCuda = true;
  bool verbose = false;
};
FuzzState *state = nullptr;

/// The pipeline compiles, it never runs the program, so big shapes cost no
/// memory by themselves; but constant folding, unrolling and analyses do
/// loop over static sizes at compile time. Inputs whose types or integer
/// arrays (loop bounds of `stax` nodes, layouts) describe more than this
/// many elements are rejected, so that slow-by-size is not reported as a
/// hang. Real programs this size still compile; they are not what the
/// fuzzer is after.
constexpr uint64_t kMaxElements = uint64_t(1) << 22;

/// Product of `dims`, or kMaxElements + 1 when it is larger (or overflows).
template <typename Range>
uint64_t boundedProduct(Range dims) {
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d == ShapedType::kDynamic)
      continue;
    uint64_t u = d < 0 ? uint64_t(-(d + 1)) + 1 : uint64_t(d);
    if (u > kMaxElements)
      return kMaxElements + 1;
    n *= u == 0 ? 1 : u; // A zero dimension must not hide a huge one.
    if (n > kMaxElements)
      return kMaxElements + 1;
  }
  return n;
}

bool isTooLarge(Type type) {
  bool large = false;
  type.walk([&](Type t) {
    if (auto shaped = dyn_cast<ShapedType>(t))
      if (shaped.hasRank() && boundedProduct(shaped.getShape()) > kMaxElements)
        large = true;
  });
  return large;
}

bool isTooLarge(Attribute attr) {
  if (!attr) // An op without properties or attributes.
    return false;
  bool large = false;
  attr.walk(
      [&](Attribute a) {
        if (auto array = dyn_cast<DenseI64ArrayAttr>(a))
          if (boundedProduct(array.asArrayRef()) > kMaxElements)
            large = true;
      },
      [&](Type t) {
        if (isTooLarge(t))
          large = true;
      });
  return large;
}

/// The dialects whose ops may appear in an input: Stax's two, and what tp
/// and stax functions are written with. Upstream's own dialects (llvm, gpu,
/// scf...) are fuzzed upstream; the pipeline still produces and transforms
/// them from Stax's output.
bool isAcceptedDialect(StringRef name) {
  return name == "builtin" || name == "func" || name == "tp" ||
         name == "stax" || name == "arith" || name == "math";
}

/// Whether the module is one the fuzzer should compile.
bool accept(ModuleOp module) {
  WalkResult result = module->walk([](Operation *op) {
    if (!isAcceptedDialect(op->getName().getDialectNamespace()))
      return WalkResult::interrupt();
    for (Type t : op->getResultTypes())
      if (isTooLarge(t))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isTooLarge(arg.getType()))
            return WalkResult::interrupt();
    if (isTooLarge(op->getRawDictionaryAttrs()) ||
        (op->getPropertiesStorageSize() &&
         isTooLarge(op->getPropertiesAsAttribute())))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Verifies the IR after every pass that succeeded: a pass that reports
/// success must leave valid IR (the pass manager's own verifier would turn
/// that bug into an ordinary error, which the fuzzer swallows).
struct VerifyAfterEachPass : public PassInstrumentation {
  std::string *lastDiagnostics;
  explicit VerifyAfterEachPass(std::string *lastDiagnostics)
      : lastDiagnostics(lastDiagnostics) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    lastDiagnostics->clear();
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "stax-fuzz: pass '" << pass->getName() << "' ("
                 << pass->getArgument()
                 << ") succeeded but left invalid IR:\n"
                 << *lastDiagnostics << "\n";
    abort();
  }
};

void runPipeline(ModuleOp module, const stax::PipelineOptions &options,
                 std::string *lastDiagnostics) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  pm.enableVerifier(false); // VerifyAfterEachPass does it, more strictly.
  pm.addInstrumentation(
      std::make_unique<VerifyAfterEachPass>(lastDiagnostics));
  stax::buildPipeline(pm, options);
  (void)pm.run(*clone);
}

} // namespace

/// ASan defaults for this binary (ASAN_OPTIONS still overrides them):
/// - allow_user_poisoning=0: llvm::BumpPtrAllocator poisons the slabs it
///   starts and unpoisons what it hands out, but only in the copies of its
///   inline code compiled into instrumented Stax code; libMLIR's own copies
///   carve from the same slabs (MLIRContext's uniquer) without unpoisoning,
///   so every mix is a false use-after-poison.
/// - detect_container_overflow=0: std containers in the uninstrumented
///   libMLIR/libLLVM are not annotated; a vector grown there and read here
///   looks like an overflow.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_container_overflow=0";
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  state = new FuzzState;
  stax::registerAllDialects(state->registry);
  state->cuda.target = stax::Target::CUDA;
  const char *cuda = std::getenv("STAX_FUZZ_CUDA");
  state->runCuda = !cuda || std::string(cuda) != "0";
  const char *verbose = std::getenv("STAX_FUZZ_VERBOSE");
  state->verbose = verbose && std::string(verbose) != "0";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: a crash then depends on that input alone, and
  // uniqued types and attributes do not pile up over millions of runs.
  MLIRContext context(state->registry, MLIRContext::Threading::DISABLED);
  std::string lastDiagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (state->verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(lastDiagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
    }
    return success();
  });

  // NUL-terminated, as the files that stax-opt reads are (MemoryBuffer
  // guarantees it, and MLIR's lexer looks for that terminator at the end).
  std::string source(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, config, "fuzz-input");
  if (!module || failed(verify(*module)) || !accept(*module))
    return -1; // Not added to the corpus.

  runPipeline(*module, state->cpu, &lastDiagnostics);
  if (state->runCuda)
    runPipeline(*module, state->cuda, &lastDiagnostics);
  return 0;
}
