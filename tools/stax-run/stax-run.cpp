//===- stax-run.cpp - run a function with the reference interpreter -------===//
//
//   stax-run model.mlir --entry f --input x.npy --input w.npy --output-dir out
//   stax-run model.mlir --random-inputs --seed 3 --f64
//   stax-run model.mlir --random-inputs --print=exact
//
// Every argument needs an --input file, or --random-inputs, which fills the
// arguments without one with seeded (--seed) random values: floats uniform
// in [-1, 1), bools 0 or 1, other integers uniform in [--int-low,
// --int-high). Arguments and results must have static shapes.
//
// No tensor may need more than --max-bytes bytes (default 16 GiB; the
// interpreter stores 8 bytes per element, whatever the element type). An
// argument or op result over it, or one whose byte count overflows int64, is
// an error that names it and its size, never an abort. The limit is per
// tensor: a run keeps every value alive, so it may hold several. A limit
// above the machine's free memory lets an allocation fail, which aborts.
//
// Output (--print): `summary` (the default) prints min/max/mean and the first
// 8 elements of each result, at 9 significant digits; `exact` prints every
// element on its own line with its multi-index, with the digits that make
// every value of its element type round-trip (max_digits10: %.17g for f64,
// %.9g for f32, %.5g for f16, %.4g for bf16; integers in full), so two
// outputs are textually equal iff every element of every result is (NaN
// payloads aside); `hash` prints one FNV-1a 64-bit hash per result over its
// element type, shape and every element (as its float64 bit pattern, or as
// an int64), row-major. Tests that `diff` two runs use `exact` (or `hash`
// for large results).
//
//===----------------------------------------------------------------------===//

#include "Stax/ExecutionEngine/CompiledModule.h"
#include "Stax/InitAll.h"
#include "Stax/Interpreter/Interpreter.h"
#include "Stax/Interpreter/Npy.h"
#include "Stax/Support/BugReport.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("stax-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: the "
                                           "module's first function with a "
                                           "body)"),
                                  cl::cat(category));
static cl::list<std::string> inputs("input",
                                    cl::desc("An argument as a .npy file, in "
                                             "argument order (repeatable)"),
                                    cl::cat(category));
static cl::opt<bool> randomInputs(
    "random-inputs",
    cl::desc("Fill the arguments that have no --input with seeded random "
             "values (floats uniform in [-1, 1), bools 0/1, integers in "
             "[--int-low, --int-high)); without it, every argument needs an "
             "--input"),
    cl::cat(category));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of --random-inputs (default 0)"),
                              cl::init(0), cl::cat(category));
static cl::opt<int64_t> intLow("int-low",
                               cl::desc("Lowest integer that --random-inputs "
                                        "draws (default 0)"),
                               cl::init(0), cl::cat(category));
static cl::opt<int64_t> intHigh("int-high",
                                cl::desc("One past the highest integer that "
                                         "--random-inputs draws (default 2)"),
                                cl::init(2), cl::cat(category));
static cl::opt<int64_t> maxBytes(
    "max-bytes",
    cl::desc("Refuse, with an error naming it, any argument or op result "
             "whose storage needs more bytes than this (8 bytes per element; "
             "default 17179869184 = 16 GiB)"),
    cl::init(stax::kDefaultMaxTensorBytes), cl::cat(category));
static cl::opt<bool> f64("f64",
                         cl::desc("Compute every floating value in float64"),
                         cl::cat(category));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("Write result<i>.npy files here"),
                                      cl::cat(category));
static cl::opt<bool> jit(
    "jit",
    cl::desc("Compile the module to machine code (--stax-pipeline) and run "
             "that instead of the interpreter"),
    cl::cat(category));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("With --jit, the --stax-pipeline options, e.g. "
             "\"vector-width=1 parallel=false\""),
    cl::init(""), cl::cat(category));
static cl::opt<int> threads(
    "num-threads", cl::desc("With --jit, threads of parallel loops (0: all cores)"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> printValues("print-values",
                                 cl::desc("With --print=summary, print every "
                                          "result element (at 9 significant "
                                          "digits)"),
                                 cl::cat(category));

namespace {
enum class PrintMode { Summary, Exact, Hash };
} // namespace
static cl::opt<PrintMode> printMode(
    "print", cl::desc("How results are printed"),
    cl::values(
        clEnumValN(PrintMode::Summary, "summary",
                   "min/max/mean and the first 8 elements at 9 significant "
                   "digits (default)"),
        clEnumValN(PrintMode::Exact, "exact",
                   "every element, one per line with its index, in the "
                   "round-tripping precision of its type (%.17g f64, %.9g "
                   "f32, %.5g f16, %.4g bf16, integers in full): outputs "
                   "are equal iff all elements are"),
        clEnumValN(PrintMode::Hash, "hash",
                   "type, shape and an FNV-1a 64-bit hash of every element "
                   "(float64 bit patterns or int64), row-major")),
    cl::init(PrintMode::Summary), cl::cat(category));

/// Seeded values that do not depend on the C++ library's distributions.
static stax::Tensor randomTensor(RankedTensorType type, std::mt19937_64 &gen) {
  stax::Tensor t(type.getShape(), type.getElementType());
  for (int64_t i = 0; i < t.numel(); ++i) {
    uint64_t bits = gen();
    if (t.isFloat()) {
      double u = static_cast<double>(bits >> 11) * 0x1.0p-53; // [0, 1)
      t.setF(i, 2.0 * u - 1.0);
    } else if (type.getElementType().isInteger(1)) {
      t.setI(i, bits & 1);
    } else {
      // In [1, 2^64 - 1]: main checks --int-high > --int-low.
      uint64_t span = static_cast<uint64_t>(intHigh) - static_cast<uint64_t>(intLow);
      t.setI(i, static_cast<int64_t>(static_cast<uint64_t>(intLow) + bits % span));
    }
  }
  return t;
}

static void printSummary(llvm::raw_ostream &os, unsigned index,
                         const stax::Tensor &t) {
  os << "result #" << index << ": " << t.type();
  if (t.numel() > 0) {
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
      double v = t.getF(i);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    os << " min=" << llvm::format("%.9g", lo) << " max="
       << llvm::format("%.9g", hi) << " mean="
       << llvm::format("%.9g", sum / t.numel());
  }
  os << "\n";
  int64_t shown = printValues ? t.numel() : std::min<int64_t>(t.numel(), 8);
  os << "  [";
  for (int64_t i = 0; i < shown; ++i)
    os << (i ? ", " : "") << llvm::format("%.9g", t.getF(i));
  if (shown < t.numel())
    os << ", ...";
  os << "]\n";
}

/// Significant decimal digits that make every value of floating type `t`
/// round-trip (max_digits10).
static int roundTripDigits(Type t) {
  if (t.isF64())
    return 17;
  if (t.isF16())
    return 5;
  if (t.isBF16())
    return 4;
  return 9; // f32 (and any narrower type)
}

static void printExact(llvm::raw_ostream &os, unsigned index,
                       const stax::Tensor &t) {
  os << "result #" << index << ": " << t.type() << "\n";
  std::string fmt = "%." + std::to_string(roundTripDigits(t.elementType())) +
                    "g";
  stax::forEachIndex(t.shape(), [&](int64_t linear, ArrayRef<int64_t> idx) {
    os << "  [";
    llvm::interleave(idx, os, ",");
    os << "] ";
    if (t.isFloat())
      os << llvm::format(fmt.c_str(), t.getF(linear));
    else
      os << t.getI(linear);
    os << "\n";
  });
}

/// FNV-1a over 64-bit words, each fed little-endian: stable across hosts.
struct Fnv1a64 {
  uint64_t h = 0xcbf29ce484222325ULL;
  void add(uint64_t word) {
    for (int b = 0; b < 8; ++b) {
      h ^= (word >> (8 * b)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
};

static void printHash(llvm::raw_ostream &os, unsigned index,
                      const stax::Tensor &t) {
  Fnv1a64 hash;
  std::string typeStr;
  llvm::raw_string_ostream(typeStr) << t.type();
  for (char c : typeStr)
    hash.add(static_cast<unsigned char>(c));
  hash.add(static_cast<uint64_t>(t.rank()));
  for (int64_t d : t.shape())
    hash.add(static_cast<uint64_t>(d));
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (t.isFloat()) {
      double v = t.getF(i);
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof(bits));
      hash.add(bits);
    } else {
      hash.add(static_cast<uint64_t>(t.getI(i)));
    }
  }
  os << "result #" << index << ": " << t.type() << " fnv1a64="
     << llvm::format_hex(hash.h, 18) << "\n";
}

/// Copies `t` into `bytes` as its element type's machine representation.
static void packTensor(const stax::Tensor &t, std::vector<char> &bytes) {
  unsigned size = stax::rawElementSize(t.elementType());
  bytes.assign(t.numel() * size, 0);
  for (int64_t i = 0; i < t.numel(); ++i)
    stax::storeRawElement(t, i, bytes.data() + i * size);
}

/// The tensor of `type` whose machine representation `bytes` holds.
static stax::Tensor unpackTensor(RankedTensorType type,
                                 const std::vector<char> &bytes) {
  stax::Tensor t(type.getShape(), type.getElementType());
  unsigned size = stax::rawElementSize(type.getElementType());
  for (int64_t i = 0; i < t.numel(); ++i)
    stax::loadRawElement(t, i, bytes.data() + i * size);
  return t;
}

/// The --input tensors against `fn`'s argument types (the interpreter
/// checks its own): their number, shapes and element types.
static LogicalResult checkArguments(func::FuncOp fn,
                                    ArrayRef<stax::Tensor> args) {
  TypeRange inputs = fn.getArgumentTypes();
  if (inputs.size() != args.size())
    return fn.emitError() << "expects " << inputs.size()
                          << " arguments, got " << args.size();
  for (auto [i, type, arg] : llvm::enumerate(inputs, args)) {
    auto t = dyn_cast<RankedTensorType>(type);
    if (!t || t.getShape() != arg.shape() ||
        t.getElementType() != arg.elementType())
      return fn.emitError() << "argument #" << i << " has type " << arg.type()
                            << " but the function expects " << type;
  }
  return success();
}

/// Compiles the module and runs `name` on `args`.
static FailureOr<SmallVector<stax::Tensor>>
runCompiled(ModuleOp module, StringRef name, ArrayRef<stax::Tensor> args) {
  stax::PipelineOptions options;
  if (failed(options.parseFromString(pipelineOptions))) {
    llvm::errs() << "stax-run: bad --pipeline-options '" << pipelineOptions
                 << "'\n";
    return failure();
  }
  if (std::string problem = options.firstInvalidValue(); !problem.empty()) {
    llvm::errs() << "stax-run: invalid --pipeline-options " << problem << "\n";
    return failure();
  }
  // Compiled code reads each buffer as its argument's type, unchecked.
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (failed(checkArguments(fn, args)))
    return failure();
  SmallVector<RankedTensorType> resultTypes;
  for (Type t : fn.getResultTypes())
    resultTypes.push_back(cast<RankedTensorType>(t));
  auto compiled = stax::CompiledModule::compile(module, options);
  if (failed(compiled))
    return failure();
  stax::CompiledModule::setNumThreads(threads);
  const stax::EntryPoint *entryPoint = (*compiled)->lookup(name);
  SmallVector<std::vector<char>> storage;
  for (const stax::Tensor &t : args)
    packTensor(t, storage.emplace_back());
  for (RankedTensorType r : resultTypes) {
    stax::Tensor zero(r.getShape(), r.getElementType());
    packTensor(zero, storage.emplace_back());
  }
  SmallVector<void *> buffers;
  for (auto &s : storage)
    buffers.push_back(s.data());
  // target=cuda copies the buffers through device memory.
  std::string error = (*compiled)->callOnHost(*entryPoint, buffers);
  if (!error.empty()) {
    llvm::errs() << "stax-run: run-time error: " << error << "\n";
    return failure();
  }
  SmallVector<stax::Tensor> results;
  for (auto [k, r] : llvm::enumerate(resultTypes))
    results.push_back(unpackTensor(r, storage[args.size() + k]));
  return results;
}

int main(int argc, char **argv) {
  stax::installBugReportMessage();
  llvm::InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Stax reference interpreter: runs a tp or lowered stax function on concrete inputs\n");

  DialectRegistry registry;
  stax::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors carry their locations; the op they are attached to (a whole
  // function or module) would follow each one in generic form.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "stax-run: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(verify(*module)))
    return 1;

  func::FuncOp fn;
  if (entry.empty()) {
    // The first definition: a declaration before it (an external
    // function the module calls) has nothing to run.
    for (auto candidate : module->getOps<func::FuncOp>())
      if (!candidate.isExternal()) {
        fn = candidate;
        break;
      }
    if (!fn) {
      llvm::errs() << "stax-run: the module has no function with a body\n";
      return 1;
    }
  } else {
    fn = module->lookupSymbol<func::FuncOp>(entry);
    if (!fn) {
      llvm::errs() << "stax-run: no function named '" << entry << "'\n";
      return 1;
    }
  }

  if (maxBytes < 1) {
    llvm::errs() << "stax-run: --max-bytes must be at least 1\n";
    return 1;
  }
  stax::setMaxTensorBytes(maxBytes);
  if (intHigh <= intLow) {
    llvm::errs() << "stax-run: --int-high (" << intHigh
                 << ") must be above --int-low (" << intLow << ")\n";
    return 1;
  }

  auto argTypes = fn.getFunctionType().getInputs();
  if (inputs.size() > argTypes.size()) {
    llvm::errs() << "stax-run: " << inputs.size() << " --input files for "
                 << argTypes.size() << " arguments\n";
    return 1;
  }
  // Check the whole signature before reading or inventing any value.
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType) {
      llvm::errs() << "stax-run: argument #" << i << " (" << type
                   << ") is not a ranked tensor\n";
      return 1;
    }
    if (!isa<FloatType, IntegerType>(tensorType.getElementType())) {
      llvm::errs() << "stax-run: argument #" << i << " (" << type
                   << ") has element type '" << tensorType.getElementType()
                   << "'; tensors hold integers, bools or floats\n";
      return 1;
    }
    std::string why = stax::allocationError(tensorType.getShape());
    if (!why.empty()) {
      llvm::errs() << "stax-run: argument #" << i << " (" << type << ") "
                   << why << "\n";
      return 1;
    }
    if (i >= inputs.size() && !randomInputs) {
      llvm::errs() << "stax-run: argument #" << i << " (" << type
                   << ") has no --input; pass one, or --random-inputs\n";
      return 1;
    }
  }
  for (auto [i, type] : llvm::enumerate(fn.getFunctionType().getResults())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (tensorType && stax::hasDynamicDim(tensorType.getShape())) {
      llvm::errs() << "stax-run: result #" << i << " (" << type << ") "
                   << stax::allocationError(tensorType.getShape()) << "\n";
      return 1;
    }
  }
  std::mt19937_64 gen(seed);
  SmallVector<stax::Tensor> args;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    auto tensorType = cast<RankedTensorType>(type);
    if (i < inputs.size()) {
      auto t = stax::readNpy(inputs[i], &context, error);
      if (failed(t)) {
        llvm::errs() << "stax-run: " << error << "\n";
        return 1;
      }
      args.push_back(std::move(*t));
    } else {
      args.push_back(randomTensor(tensorType, gen));
    }
  }

  stax::InterpreterOptions options;
  options.promoteToF64 = f64;
  if (!jit && pipelineOptions.getNumOccurrences()) {
    llvm::errs() << "stax-run: --pipeline-options apply to --jit; the "
                    "interpreter runs the module as it is\n";
    return 1;
  }
  if (jit && f64) {
    llvm::errs() << "stax-run: --f64 is an interpreter mode; --jit runs the "
                    "module's own types\n";
    return 1;
  }
  std::string name = fn.getSymName().str();
  auto results = jit ? runCompiled(*module, name, args)
                     : stax::interpret(*module, name, args, options);
  if (failed(results))
    return 1;
  llvm::outs() << "@" << name << (f64 ? " (float64)" : "")
               << (jit ? " (compiled)" : "") << "\n";
  for (auto [i, t] : llvm::enumerate(*results)) {
    switch (printMode) {
    case PrintMode::Summary:
      printSummary(llvm::outs(), i, t);
      break;
    case PrintMode::Exact:
      printExact(llvm::outs(), i, t);
      break;
    case PrintMode::Hash:
      printHash(llvm::outs(), i, t);
      break;
    }
    if (!outputDir.empty()) {
      llvm::sys::fs::create_directories(outputDir);
      llvm::SmallString<128> path(outputDir);
      llvm::sys::path::append(path, "result" + std::to_string(i) + ".npy");
      if (failed(stax::writeNpy(path, t, error))) {
        llvm::errs() << "stax-run: " << error << "\n";
        return 1;
      }
    }
  }
  return 0;
}
