//===- BugReport.h - what a crashing Stax tool tells the user --*- C++ -*-===//
//
// LLVM's crash handler asks users to report bugs to llvm-project, which is
// wrong for a crash in Stax. The tools replace that message.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_BUGREPORT_H
#define STAX_SUPPORT_BUGREPORT_H

#include "llvm/Support/PrettyStackTrace.h"

namespace mlir::stax {

/// Makes a crash ask for a Stax bug report with a reproducer.
inline void installBugReportMessage() {
  llvm::setBugReportMsg(
      "Stax crashed. Please report it to the Stax maintainers with the input "
      "and the command line; for a pass pipeline, "
      "--mlir-pass-pipeline-crash-reproducer=FILE writes a reproducer.\n");
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_BUGREPORT_H
