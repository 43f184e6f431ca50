//===- Target.h - the targets Stax compiles for -----------------*- C++ -*-===//
//
// The target of lowering and code generation, shared by every layer: the
// materialization thresholds (Section 6.6), the split-reduction rule and the
// pipelines depend on it. Pass options of this type list their choices in
// `--help` and reject unknown ones at parse time (`targetOptionValues`).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_TARGET_H
#define STAX_SUPPORT_TARGET_H

#include "llvm/Support/CommandLine.h"

namespace mlir::stax {

enum class Target { CPU, CUDA };

/// The `cl::values` of a Target option.
inline auto targetOptionValues() {
  return llvm::cl::values(
      clEnumValN(Target::CPU, "cpu",
                 "CPU thresholds (Section 6.6); splits reductions of few "
                 "outputs across threads and narrow column sums into rows"),
      clEnumValN(Target::CUDA, "cuda",
                 "GPU thresholds; splits long reductions across the SMs"));
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_TARGET_H
