//===- Passes.h - tp-level transformations ----------------------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_TRANSFORMS_PASSES_H
#define STAX_DIALECT_TP_TRANSFORMS_PASSES_H

#include "Stax/Analysis/Checkpointing.h"
#include "Stax/Analysis/MaxFlow.h"
#include "Stax/Dialect/Tp/IR/DiscardableAttrs.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tp {

#define GEN_PASS_DECL
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"

} // namespace mlir::tp

#endif // STAX_DIALECT_TP_TRANSFORMS_PASSES_H
