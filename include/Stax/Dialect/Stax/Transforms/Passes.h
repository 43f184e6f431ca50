//===- Passes.h - scheduling passes on stax ---------------------*- C++ -*-===//
#ifndef STAX_DIALECT_STAX_TRANSFORMS_PASSES_H
#define STAX_DIALECT_STAX_TRANSFORMS_PASSES_H

#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "Stax/Support/Target.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stax {

#define GEN_PASS_DECL
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"

} // namespace mlir::stax

#endif // STAX_DIALECT_STAX_TRANSFORMS_PASSES_H
