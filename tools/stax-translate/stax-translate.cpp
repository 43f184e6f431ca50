//===- stax-translate.cpp - translations out of MLIR ----------------------===//
//
// Translations of Stax modules. `--stax-to-llvmir` reads any module of the
// Stax dialects (tp, stax and the upstream dialects their IR uses) and writes
// LLVM IR once every op is in the LLVM dialect; on a module that still holds
// tp or stax ops it names the first one and the pipeline that lowers it.
// Upstream's `--mlir-to-llvmir` is registered as well.
//
//===----------------------------------------------------------------------===//

#include "Stax/InitAll.h"
#include "Stax/Support/BugReport.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The first op that is not in the LLVM (or builtin) dialect, if any.
static Operation *firstUntranslatable(ModuleOp module) {
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    Dialect *d = op->getDialect();
    if (d && isa<LLVM::LLVMDialect, BuiltinDialect>(d))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

static LogicalResult staxToLLVMIR(Operation *op, raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("stax-to-llvmir: expected a builtin.module");
  if (Operation *bad = firstUntranslatable(module))
    return bad->emitError()
           << "'" << bad->getName()
           << "' is not in the LLVM dialect: lower the module to LLVM first "
              "(stax-opt with the code-generation pipeline)";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return module.emitError("stax-to-llvmir: translation to LLVM IR failed");
  llvmModule->print(os, nullptr);
  return success();
}

int main(int argc, char **argv) {
  stax::installBugReportMessage();
  registerToLLVMIRTranslation();
  TranslateFromMLIRRegistration staxToLLVM(
      "stax-to-llvmir", "Translate a Stax module lowered to LLVM into LLVM IR",
      staxToLLVMIR, [](DialectRegistry &registry) {
        stax::registerAllDialects(registry);
        registry.insert<LLVM::LLVMDialect>();
        registerBuiltinDialectTranslation(registry);
        registerLLVMDialectTranslation(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "Stax translation driver\n"));
}
