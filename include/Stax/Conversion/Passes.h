//===- Passes.h - conversion passes of Stax ---------------------*- C++ -*-===//
#ifndef STAX_CONVERSION_PASSES_H
#define STAX_CONVERSION_PASSES_H

#include "Stax/Conversion/MathKernels.h"
#include "Stax/Conversion/VectorMathLibrary.h"
#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "Stax/Support/Target.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stax {

#define GEN_PASS_DECL
#include "Stax/Conversion/Passes.h.inc"

/// The first of --stax-to-loops' numeric options below its least value, as
/// "option=value: must be at least N"; "" if all are usable.
std::string firstInvalidValue(const StaxToLoopsOptions &options);

#define GEN_PASS_REGISTRATION
#include "Stax/Conversion/Passes.h.inc"

} // namespace mlir::stax

#endif // STAX_CONVERSION_PASSES_H
