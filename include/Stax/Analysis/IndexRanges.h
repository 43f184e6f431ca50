//===- IndexRanges.h - interval rules of index arithmetic -------*- C++ -*-===//
//
// The interval transfer function of affine expressions that
// --stax-range-analysis uses for affine.apply (Definition 6.4). Upstream's
// intrange::inferAffineExpr (LLVM 22) is unsound for `mod` when the
// dividend's interval crosses a multiple of the divisor ([1, 3] mod 3 gives
// [0, 1]), so the analysis uses this rule instead.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_INDEXRANGES_H
#define STAX_ANALYSIS_INDEXRANGES_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

namespace mlir::stax {
/// A signed 64-bit interval containing every value of `expr` when its dims
/// and symbols range over `dims` and `symbols` (the full range when a bound
/// overflows or the expression is not affine in a form handled here).
mlir::ConstantIntRanges
inferAffineRange(mlir::AffineExpr expr,
                 llvm::ArrayRef<mlir::ConstantIntRanges> dims,
                 llvm::ArrayRef<mlir::ConstantIntRanges> symbols);
} // namespace mlir::stax

#endif // STAX_ANALYSIS_INDEXRANGES_H
