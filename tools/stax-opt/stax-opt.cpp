//===- stax-opt.cpp - the Stax optimizer driver ---------------------------===//
//
// Parses `tp`/`stax` IR, runs passes and pipelines, prints the result: the
// tool that lit tests and compiler engineers use.
//
//===----------------------------------------------------------------------===//

#include "Stax/InitAll.h"
#include "Stax/Support/BugReport.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::stax::installBugReportMessage();
  mlir::DialectRegistry registry;
  mlir::stax::registerAllDialects(registry);
  mlir::stax::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Stax optimizer: tp/stax dialects, autodiff and lowering passes\n",
      registry));
}
