//===- Passes.h - scheduling passes on stax ---------------------*- C++ -*-===//
#ifndef STAX_DIALECT_STAX_TRANSFORMS_PASSES_H
#define STAX_DIALECT_STAX_TRANSFORMS_PASSES_H

#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace stax {

#define GEN_PASS_DECL
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"

} // namespace stax

#endif // STAX_DIALECT_STAX_TRANSFORMS_PASSES_H
