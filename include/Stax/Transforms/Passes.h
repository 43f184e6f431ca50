//===- Passes.h - tp-level transformations ----------------------*- C++ -*-===//
#ifndef STAX_TRANSFORMS_PASSES_H
#define STAX_TRANSFORMS_PASSES_H

#include "Stax/Dialect/Tp/IR/TpDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace stax {

#define GEN_PASS_DECL
#include "Stax/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stax/Transforms/Passes.h.inc"

/// Attribute names shared by the autodiff passes.
constexpr llvm::StringLiteral kRequiresGradAttr = "tp.requires_grad";
constexpr llvm::StringLiteral kTangentAttr = "tp.tangent";
constexpr llvm::StringLiteral kPhaseAttr = "tp.phase";
/// On a joint function: how many leading results are forward outputs (the
/// rest are gradients).
constexpr llvm::StringLiteral kJointOutputsAttr = "tp.joint_outputs";

} // namespace stax

#endif // STAX_TRANSFORMS_PASSES_H
