//===- LinearIndex.h - coefficients of linear index maps --------*- C++ -*-===//
//
// Vectorization (lane strides) and kernel scratch (outer-loop strides) both
// need how an index that a body computes with affine.apply moves with each
// of its operands.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_LINEARINDEX_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_LINEARINDEX_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace mlir::stax::codegen {

/// The coefficient of each operand of `apply` (a one-result map), or
/// failure when the map is not linear in its operands: mod, floordiv and
/// ceildiv by constants are pure affine but move by no constant step.
FailureOr<SmallVector<int64_t>> linearCoefficients(affine::AffineApplyOp apply);

/// The coefficient of operand `operand` of `apply` (a one-result map) when
/// the map is linear in it, whatever the others do (`d0 * 131072 + d2 -
/// (d0 floordiv 64) * 523264` is linear in d2), or nullopt: it appears under
/// a mod, floordiv or ceildiv, or in a product with a non-constant.
std::optional<int64_t> linearCoefficientOf(affine::AffineApplyOp apply,
                                           unsigned operand);

/// The coefficient of each argument of `body` in `address` (an argument
/// itself, or an affine.apply of arguments that is linear in them), or
/// failure.
FailureOr<SmallVector<int64_t>> argumentCoefficients(Value address,
                                                     Block &body);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_LINEARINDEX_H
