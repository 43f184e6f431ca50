//===- LoopUtils.h - rewriting the loops of stax nodes ----------*- C++ -*-===//
//
// Helpers shared by --stax-normalize-loops and --stax-split-reductions: both
// change a node's loops (its body's index arguments) while keeping every
// index the body computes, so they substitute affine expressions of the new
// loops for the old ones.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_DIALECT_STAX_TRANSFORMS_LOOPUTILS_H
#define STAX_LIB_DIALECT_STAX_TRANSFORMS_LOOPUTILS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Block.h"
#include <optional>

namespace mlir::stax::loops {

/// The coefficient of the block argument `arg` in the index `apply`
/// computes, or nullopt when the index is not linear in it (it appears
/// under a floordiv, mod or a product with another non-constant).
std::optional<int64_t> coefficientOf(mlir::affine::AffineApplyOp apply,
                                     mlir::Value arg);

/// Replaces all index arguments of `block` by `numNew` new ones: old
/// argument k becomes `exprs[k]`, an affine expression of the new
/// arguments (dims 0..numNew-1). An affine.apply reading old arguments is
/// recomposed (so `16384*i0 + r0` with r0 = 8192*j + r' reads
/// `16384*i0 + 8192*j + r'`); any other user reads the new argument, a
/// constant or an affine.apply of the expression.
void substituteIndices(mlir::Block &block, unsigned numNew,
                       llvm::ArrayRef<mlir::AffineExpr> exprs);

/// Folds floordiv and mod by constants in every affine.apply of `block`
/// where the ranges of its index arguments (argument k in [0, ranges[k]))
/// prove them: (32 a + b) floordiv 32 = a and (32 a + b) mod 32 = b when
/// b < 32. Every index keeps its value. Returns whether any changed.
bool simplifyWithRanges(mlir::Block &block, llvm::ArrayRef<int64_t> ranges);

} // namespace mlir::stax::loops

#endif // STAX_LIB_DIALECT_STAX_TRANSFORMS_LOOPUTILS_H
