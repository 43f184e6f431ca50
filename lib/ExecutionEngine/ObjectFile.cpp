//===- ObjectFile.cpp - ahead-of-time code for the host -------------------===//
#include "Stax/ExecutionEngine/ObjectFile.h"
#include "Stax/Dialect/Stax/IR/DiscardableAttrs.h"
#include "Stax/Support/CSymbols.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

void stax::registerCodegenTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  // target=cuda: gpu.binary becomes a global holding the PTX and
  // gpu.launch_func calls of the CUDA launcher.
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

namespace {
/// The first op outside the LLVM, OpenMP, builtin and (host-side) GPU
/// dialects, if any.
Operation *firstUntranslatable(ModuleOp module) {
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    Dialect *d = op->getDialect();
    if (d && isa<LLVM::LLVMDialect, omp::OpenMPDialect, BuiltinDialect>(d))
      return WalkResult::advance();
    if (isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

struct HostModule {
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::Module> module;
};

FailureOr<HostModule> translate(ModuleOp module, llvm::LLVMContext &ctx,
                                bool optimize) {
  if (Operation *bad = firstUntranslatable(module))
    return bad->emitError()
           << "'" << bad->getName()
           << "' is not in the LLVM dialect: lower the module to LLVM first "
              "(stax-opt --stax-pipeline)";
  // The stax.output marks served the signature; LLVM has no use for them.
  module.walk([](FunctionOpInterface fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      fn.removeArgAttr(i, StringAttr::get(fn->getContext(), stax::kOutputAttr));
  });
  module->removeAttr(stax::kErrorSitesAttr);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  HostModule host;
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return mlir::emitError(module.getLoc())
           << llvm::toString(builder.takeError());
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  // An object for a C program or a shared library: position independent,
  // small code model (the JIT's defaults left text relocations against
  // libm and libmvec, which a PIE links only with a warning).
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeModel(llvm::CodeModel::Small);
  auto tm = builder->createTargetMachine();
  if (!tm)
    return mlir::emitError(module.getLoc()) << llvm::toString(tm.takeError());
  host.tm = std::move(*tm);
  host.module = translateModuleToLLVMIR(module, ctx);
  if (!host.module)
    return mlir::emitError(module.getLoc(), "translation to LLVM IR failed");
  host.module->setDataLayout(host.tm->createDataLayout());
  host.module->setTargetTriple(host.tm->getTargetTriple());
  if (optimize) {
    if (llvm::Error err =
            makeOptimizingTransformer(3, 0, host.tm.get())(host.module.get()))
      return mlir::emitError(module.getLoc()) << llvm::toString(std::move(err));
  }
  return host;
}
} // namespace

LogicalResult stax::writeLLVMIR(ModuleOp module, llvm::raw_ostream &os,
                                bool optimize) {
  llvm::LLVMContext ctx;
  FailureOr<HostModule> host = translate(module, ctx, optimize);
  if (failed(host))
    return failure();
  host->module->print(os, nullptr);
  return success();
}

LogicalResult stax::writeObjectFile(ModuleOp module, llvm::raw_ostream &os) {
  llvm::LLVMContext ctx;
  FailureOr<HostModule> host = translate(module, ctx, /*optimize=*/true);
  if (failed(host))
    return failure();
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream object(buffer);
  llvm::legacy::PassManager pm;
  if (host->tm->addPassesToEmitFile(pm, object, nullptr,
                                    llvm::CodeGenFileType::ObjectFile))
    return mlir::emitError(module.getLoc(),
                           "the host target cannot emit object files");
  pm.run(*host->module);
  os << buffer;
  return success();
}

LogicalResult stax::writePTX(ModuleOp module, llvm::raw_ostream &os) {
  unsigned count = 0;
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute a : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        return binary.emitError()
               << "holds no PTX assembly (compile with format=isa, as "
                  "--stax-pipeline=\"target=cuda\" does)";
      os << "// gpu.binary @" << binary.getSymName() << " (" << object.getTarget()
         << ")\n"
         << object.getObject().getValue() << "\n";
      ++count;
    }
  if (!count)
    return mlir::emitError(module.getLoc())
           << "no gpu.binary: lower the module with "
              "stax-opt --stax-pipeline=\"target=cuda\" first";
  return success();
}

static FailureOr<StringRef> cType(Operation *fn, Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt || !rt.hasStaticShape())
    return fn->emitError() << "a C prototype needs static tensor types, not "
                           << t;
  Type e = rt.getElementType();
  if (e.isF32())
    return StringRef("float");
  if (e.isF64())
    return StringRef("double");
  if (e.isInteger(1))
    return StringRef("bool");
  if (e.isUnsignedInteger(8))
    return StringRef("uint8_t");
  if (e.isInteger(8))
    return StringRef("int8_t");
  if (e.isInteger(16))
    return StringRef("int16_t");
  if (e.isInteger(32))
    return StringRef("int32_t");
  if (e.isInteger(64))
    return StringRef("int64_t");
  // C has no standard 16-bit float: the buffers hold the raw bits.
  if (e.isF16() || e.isBF16())
    return StringRef("uint16_t");
  return fn->emitError() << "no C type for element type " << e;
}

LogicalResult stax::writeCHeader(ModuleOp module, llvm::raw_ostream &stream) {
  // Written whole or not at all: a failure leaves no partial header.
  std::string text;
  llvm::raw_string_ostream os(text);
  unsigned declared = 0;
  os << "/* Entry points compiled by Stax (stax-opt --stax-pipeline).\n"
        " * Each pointer is the contiguous row-major storage of a tensor; the\n"
        " * callee writes the results into the caller's buffers. Link with\n"
        " * libStaxRuntime.a, a BLAS (cblas), libomp, -lmvec -lm (glibc's\n"
        " * vector math, which f64 functions on vectors call) and -lstdc++\n"
        " * (the runtime is C++). */\n"
        "#pragma once\n#include <stdbool.h>\n#include <stdint.h>\n\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
        "/* After a call: the kind of the first run-time error it met, or 0\n"
        " * (1: an index `value` outside [0, `size`), 2: a NaN stored at\n"
        " * position `value` (check-nan), 3: an integer division by zero);\n"
        " * `site` indexes the module's error sites. Clears it. */\n"
        "int stax_rt_take_error(int64_t *site, int64_t *value, int64_t *size);"
        "\n\n";
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    StringRef name = fn.getSymName();
    // `main` compiles (the JIT has none of its own), but a program linking
    // the object has.
    if (!isCIdentifier(name) || isCKeyword(name) || isReservedCSymbol(name) ||
        name == "main")
      return fn.emitError()
             << "function name '" << name << "' cannot be a C entry point: "
             << (!isCIdentifier(name) ? "not a C identifier"
                 : isCKeyword(name)   ? "a C or C++ keyword"
                 : name == "main"     ? "the program's own entry point"
                     : "a symbol compiled code calls or links against");
    std::string decl;
    llvm::raw_string_ostream d(decl);
    d << "void " << name << "(";
    bool first = true;
    auto param = [&](Type t, bool output, unsigned i) -> LogicalResult {
      FailureOr<StringRef> c = cType(fn, t);
      if (failed(c))
        return failure();
      auto rt = cast<RankedTensorType>(t);
      d << (first ? "" : ", ") << (output ? "" : "const ") << *c << " *"
        << (output ? "out" : "in") << i << " /* ";
      llvm::interleave(rt.getShape(), d, "x");
      d << (rt.getRank() ? "" : "scalar");
      Type e = rt.getElementType();
      if (e.isF16() || e.isBF16())
        d << ", " << (e.isF16() ? "float16" : "bfloat16") << " bits";
      d << " */";
      first = false;
      return success();
    };
    for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
      if (failed(param(t, false, i)))
        return failure();
    for (auto [i, t] : llvm::enumerate(fn.getResultTypes()))
      if (failed(param(t, true, i)))
        return failure();
    d << (first ? "void" : "") << ");\n";
    os << decl;
    ++declared;
  }
  if (!declared)
    return module.emitError()
           << "no func.func with a body to declare: --stax-to-c-header "
              "reads the tp or stax module --stax-pipeline lowers, not its "
              "output";
  os << "\n#ifdef __cplusplus\n}\n#endif\n";
  stream << text;
  return success();
}
