//===- stax-opt.cpp - the Stax optimizer driver ---------------------------===//
//
// Parses `tp`/`stax` IR, runs passes and pipelines, prints the result: the
// tool that lit tests and compiler engineers use.
//
//===----------------------------------------------------------------------===//

#include "Stax/InitAll.h"
#include "Stax/Support/BugReport.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

/// A pass pipeline that fails or crashes writes MLIR's reproducer (the
/// input and the pipeline, runnable with --run-reproducer) to a fresh file
/// in the temporary directory and says where, unless the command line asks
/// for a file of its own or checks diagnostics (-verify-diagnostics: a
/// failure is then what the test expects).
static std::string defaultReproducerPath(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = llvm::StringRef(argv[i]).ltrim('-');
    if (arg.starts_with("mlir-pass-pipeline-crash-reproducer") ||
        arg.starts_with("verify-diagnostics") || arg == "help" ||
        arg.starts_with("help-"))
      return {};
  }
  return "--mlir-pass-pipeline-crash-reproducer=" +
         mlir::stax::uniqueReproducerPath();
}

/// Whether the command line sets `option` (with or without a value).
static bool hasOption(int argc, char **argv, llvm::StringRef option) {
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).ltrim('-').starts_with(option))
      return true;
  return false;
}

int main(int argc, char **argv) {
  mlir::stax::installBugReportMessage();
  mlir::DialectRegistry registry;
  mlir::stax::registerAllDialects(registry);
  mlir::stax::registerAllPasses();
  std::vector<char *> args(argv, argv + argc);
  std::string reproducer = defaultReproducerPath(argc, argv);
  if (!reproducer.empty())
    args.push_back(reproducer.data());
  // A diagnostic is one line at its location: MLIR would follow it with the
  // whole op it was emitted on (a function, for a function-level error).
  std::string quiet = "--mlir-print-op-on-diagnostic=false";
  if (!hasOption(argc, argv, "mlir-print-op-on-diagnostic"))
    args.push_back(quiet.data());
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(args.size()), args.data(),
      "Stax optimizer: tp/stax dialects, autodiff and lowering passes\n",
      registry));
}
