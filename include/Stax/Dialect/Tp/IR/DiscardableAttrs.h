//===- DiscardableAttrs.h - the tp attributes that passes read --*- C++ -*-===//
//
// The discardable attributes of the `tp` dialect form the contract between the
// importer and the passes. Each has one accessor here, and TpDialect verifies
// each wherever it appears (TpAttrs.cpp), so a pass never string-compares an
// attribute name nor meets a malformed value.
//
//   tp.requires_grad  unit, argument  differentiate with respect to it
//   tp.tangent        unit, argument  a (co)tangent input added by autodiff
//   tp.rng_state      unit, argument  the [seed, offset] state of random ops
//   tp.mutated        unit, argument  written by an in-place op (functionalize)
//   tp.copy_back      i64, result     the argument this result is copied into
//   tp.phase          #tp.phase<fw|bw>, op   phase of an op in a joint graph
//   tp.joint_outputs  i64, function   how many leading results are outputs
//   tp.rng_blocks     i64, function   Philox blocks its random ops draw
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_IR_DISCARDABLEATTRS_H
#define STAX_DIALECT_TP_IR_DISCARDABLEATTRS_H

#include "Stax/Dialect/Tp/IR/TpDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include <optional>

namespace mlir::tp {

constexpr llvm::StringLiteral kRequiresGradAttr = "tp.requires_grad";
constexpr llvm::StringLiteral kTangentAttr = "tp.tangent";
constexpr llvm::StringLiteral kRngStateAttr = "tp.rng_state";
constexpr llvm::StringLiteral kMutatedAttr = "tp.mutated";
constexpr llvm::StringLiteral kCopyBackAttr = "tp.copy_back";
constexpr llvm::StringLiteral kPhaseAttr = "tp.phase";
constexpr llvm::StringLiteral kJointOutputsAttr = "tp.joint_outputs";
constexpr llvm::StringLiteral kRngBlocksAttr = "tp.rng_blocks";

/// Argument flags.
bool requiresGrad(FunctionOpInterface fn, unsigned arg);
bool isTangent(FunctionOpInterface fn, unsigned arg);
/// `{tp.tangent}` for the argument attributes of a new function.
NamedAttribute getTangentArgAttr(MLIRContext *ctx);
void setMutated(FunctionOpInterface fn, unsigned arg);

/// `{tp.copy_back = arg}` for a result that is copied back into `arg`.
NamedAttribute getCopyBackResultAttr(MLIRContext *ctx, unsigned arg);

/// The phase of an op of a joint graph; nullopt outside joint graphs.
std::optional<Phase> getPhase(Operation *op);
void setPhase(Operation *op, Phase phase);
inline bool isForward(Operation *op) {
  return op && getPhase(op) == Phase::Forward;
}
inline bool isBackward(Operation *op) {
  return op && getPhase(op) == Phase::Backward;
}

/// The number of leading results of a joint function that are forward
/// outputs; nullopt when `fn` is not a joint function. The verifier
/// guarantees 0 <= n < number of results.
std::optional<unsigned> getJointOutputs(Operation *fn);
void setJointOutputs(Operation *fn, unsigned numOutputs);
void removeJointOutputs(Operation *fn);

/// Checks what the partitioners (--stax-mincut, --stax-checkpoint) rely on:
/// a single-block joint function whose ops all carry a phase, whose forward
/// reads neither a backward value nor a tangent argument, and whose forward
/// outputs are computed by the forward. Errors name the offending op.
LogicalResult verifyJointFunction(FunctionOpInterface fn);

} // namespace mlir::tp

#endif // STAX_DIALECT_TP_IR_DISCARDABLEATTRS_H
