//===- OpHelpers.h - helpers of the tp op implementations -------*- C++ -*-===//
//
// Operand checks and result builders shared by the Tp<Family>Ops.cpp files.
// Private to lib/Dialect/Tp/IR.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_DIALECT_TP_IR_OPHELPERS_H
#define STAX_LIB_DIALECT_TP_IR_OPHELPERS_H

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "llvm/ADT/STLExtras.h"
#include <string>

namespace mlir::tp::detail {
using Loc = std::optional<Location>;

/// The static ranked tensor type of an operand, or a diagnostic.
inline FailureOr<RankedTensorType> tensorOf(Loc loc, StringRef op, Value v,
                                            StringRef what) {
  auto t = dyn_cast_if_present<RankedTensorType>(v ? v.getType() : Type());
  if (!t)
    return emitInferError(loc, op, Twine(what) + " must be a ranked tensor");
  if (!t.hasStaticShape())
    return emitInferError(loc, op, "dynamic dimensions are not supported yet");
  return t;
}

inline FailureOr<int64_t> dimOf(Loc loc, StringRef op, int64_t dim,
                                int64_t rank, StringRef what = "dim") {
  auto d = normalizeDim(dim, rank);
  if (!d)
    return emitInferError(loc, op,
                          Twine(what) + " " + Twine(dim) +
                              " is out of range for rank " + Twine(rank));
  return *d;
}

inline std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

inline Type i64Type(MLIRContext *ctx) { return IntegerType::get(ctx, 64); }

inline LogicalResult push(SmallVectorImpl<Type> &types, ArrayRef<int64_t> shape,
                          Type elt) {
  types.push_back(RankedTensorType::get(shape, elt));
  return success();
}

inline LogicalResult requireFloat(Loc loc, StringRef op, RankedTensorType t,
                                  StringRef what) {
  if (!isa<FloatType>(t.getElementType()))
    return emitInferError(loc, op, Twine(what) + " must be floating point");
  return success();
}

inline LogicalResult requireSameShape(Loc loc, StringRef op, RankedTensorType a,
                                      RankedTensorType b, StringRef what) {
  if (a.getShape() != b.getShape())
    return emitInferError(loc, op,
                          Twine(what) + " shapes " + shapeStr(a.getShape()) +
                              " and " + shapeStr(b.getShape()) + " differ");
  return success();
}

/// Loss reduction: none keeps the elementwise shape, mean and sum are 0-d.
inline SmallVector<int64_t> lossShape(LossReduction reduction,
                                      ArrayRef<int64_t> elementwise) {
  if (reduction == LossReduction::None)
    return SmallVector<int64_t>(elementwise);
  return SmallVector<int64_t>{};
}

inline bool isScalarOne(TypedAttr attr) {
  return attr && getScalarAsDouble(attr) == 1.0;
}
} // namespace mlir::tp::detail

#endif // STAX_LIB_DIALECT_TP_IR_OPHELPERS_H
