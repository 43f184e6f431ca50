//===- stax-translate.cpp - translations out of MLIR ----------------------===//
//
// Translations of Stax modules. `--stax-to-llvmir` reads any module of the
// Stax dialects (tp, stax and the upstream dialects their IR uses) and writes
// LLVM IR once every op is in the LLVM dialect; on a module that still holds
// tp or stax ops it names the first one and the pipeline that lowers it.
// Upstream's `--mlir-to-llvmir` is registered as well.
//
//===----------------------------------------------------------------------===//

#include "Stax/ExecutionEngine/ObjectFile.h"
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

static LogicalResult withModule(Operation *op, StringRef name,
                                function_ref<LogicalResult(ModuleOp)> fn) {
  // A diagnostic is one line at its location, as in stax-opt: the driver
  // would follow it with the whole op it was emitted on (a function).
  op->getContext()->printOpOnDiagnostic(false);
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError() << name << ": expected a builtin.module";
  return fn(module);
}

static void codegenDialects(DialectRegistry &registry) {
  stax::registerAllDialects(registry);
  stax::registerCodegenTranslations(registry);
}

int main(int argc, char **argv) {
  stax::installBugReportMessage();
  registerToLLVMIRTranslation();
  TranslateFromMLIRRegistration staxToLLVM(
      "stax-to-llvmir",
      "Translate a module lowered by --stax-pipeline into LLVM IR",
      [](Operation *op, raw_ostream &os) {
        return withModule(op, "stax-to-llvmir", [&](ModuleOp m) {
          return stax::writeLLVMIR(m, os, /*optimize=*/false);
        });
      },
      codegenDialects);
  TranslateFromMLIRRegistration staxToObject(
      "stax-to-object",
      "Write an object file for the host CPU (-O3) of a module lowered by "
      "--stax-pipeline",
      [](Operation *op, raw_ostream &os) {
        return withModule(op, "stax-to-object", [&](ModuleOp m) {
          return stax::writeObjectFile(m, os);
        });
      },
      codegenDialects);
  TranslateFromMLIRRegistration staxToPTX(
      "stax-to-ptx",
      "Write the PTX of the kernels of a module lowered by "
      "--stax-pipeline=\"target=cuda\"",
      [](Operation *op, raw_ostream &os) {
        return withModule(op, "stax-to-ptx",
                          [&](ModuleOp m) { return stax::writePTX(m, os); });
      },
      [](DialectRegistry &registry) { stax::registerAllDialects(registry); });
  TranslateFromMLIRRegistration staxToCHeader(
      "stax-to-c-header",
      "Write the C prototypes of a tp/stax module's compiled functions",
      [](Operation *op, raw_ostream &os) {
        return withModule(op, "stax-to-c-header", [&](ModuleOp m) {
          return stax::writeCHeader(m, os);
        });
      },
      [](DialectRegistry &registry) { stax::registerAllDialects(registry); });
  return failed(mlirTranslateMain(argc, argv, "Stax translation driver\n"));
}
