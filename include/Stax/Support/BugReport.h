//===- BugReport.h - what a crashing Stax tool tells the user --*- C++ -*-===//
//
// LLVM's crash handler asks users to report bugs to llvm-project, which is
// wrong for a crash in Stax. The tools replace that message.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_BUGREPORT_H
#define STAX_SUPPORT_BUGREPORT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"

#include <string>

namespace mlir::stax {

/// Makes a crash ask for a Stax bug report with a reproducer.
inline void installBugReportMessage() {
  llvm::setBugReportMsg(
      "Stax crashed. Please report it to the Stax maintainers with the input "
      "and the command line; for a pass pipeline, "
      "--mlir-pass-pipeline-crash-reproducer=FILE writes a reproducer.\n");
}

/// A fresh path in the temporary directory ($TMPDIR or /tmp) for MLIR's
/// pass pipeline reproducer: the file exists only once a pipeline failed.
inline std::string uniqueReproducerPath() {
  llvm::SmallString<128> pattern;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, pattern);
  llvm::sys::path::append(pattern, "stax-reproducer-%%%%%%%%.mlir");
  llvm::SmallString<128> path;
  llvm::sys::fs::createUniquePath(pattern, path, /*MakeAbsolute=*/true);
  return path.str().str();
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_BUGREPORT_H
