//===- TpElementwiseOps.cpp - tp elementwise ops with attributes ----------===//
//
// Inference, verification and folding of the tp elementwise ops with attributes that are not
// covered by a family rule of TypeInference.cpp (ODS: TpElementwiseOps.td).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::detail;

//===----------------------------------------------------------------------===//
// Elementwise ops with attributes
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("needs at least one of min and max");
  return success();
}

LogicalResult ToCopyOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, getOperationName(), adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  Type elt = adaptor.getDtype() ? *adaptor.getDtype() : t->getElementType();
  if (getTypeCategory(elt) == TypeCategory::Unsupported)
    return emitInferError(loc, getOperationName(), "unsupported dtype");
  return push(types, t->getShape(), elt);
}

LogicalResult DivOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  return inferBinary(loc, getOperationName(), adaptor.getSelf().getType(),
                     adaptor.getOther().getType(),
                     adaptor.getRoundingMode() ? Promotion::Default
                                               : Promotion::IntToFloat,
                     types);
}

LogicalResult DivScalarOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferBinaryScalar(loc, getOperationName(),
                           adaptor.getSelf().getType(), adaptor.getOther(),
                           adaptor.getRoundingMode() ? Promotion::Default
                                                     : Promotion::IntToFloat,
                           types);
}
OpFoldResult DivScalarOp::fold(FoldAdaptor) {
  // x / 1 == x bitwise for every float, and for integers with either mode.
  if (isScalarOne(getOther()) && getSelf().getType() == getType())
    return getSelf();
  return {};
}

OpFoldResult MulScalarOp::fold(FoldAdaptor) {
  // x * 1 == x bitwise (including -0, infinities and quiet NaNs).
  if (isScalarOne(getOther()) && getSelf().getType() == getType())
    return getSelf();
  return {};
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  SmallVector<Type> valueType;
  if (failed(inferBinary(loc, op, adaptor.getSelf().getType(),
                         adaptor.getOther().getType(), Promotion::Default,
                         valueType)))
    return failure();
  auto cond = tensorOf(loc, op, adaptor.getCondition(), "condition");
  if (failed(cond))
    return failure();
  auto v = cast<RankedTensorType>(valueType[0]);
  auto shape = broadcastShapes(cond->getShape(), v.getShape());
  if (failed(shape))
    return emitInferError(loc, op,
                          "condition shape " + shapeStr(cond->getShape()) +
                              " does not broadcast with " +
                              shapeStr(v.getShape()));
  return push(types, *shape, v.getElementType());
}

LogicalResult MaskedFillScalarOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto mask = tensorOf(loc, op, adaptor.getMask(), "mask");
  if (failed(self) || failed(mask))
    return failure();
  auto shape = broadcastShapes(self->getShape(), mask->getShape());
  if (failed(shape) || *shape != SmallVector<int64_t>(self->getShape()))
    return emitInferError(loc, op,
                          "mask shape " + shapeStr(mask->getShape()) +
                              " does not broadcast to self shape " +
                              shapeStr(self->getShape()));
  return push(types, self->getShape(), self->getElementType());
}
