//===- TpInPlaceOps.cpp - in-place op inference and verification ----------===//
//
// The in-place ops of TpInPlaceOps.td always return self's type. Their
// inference checks what eager checks before mutating: the other operands
// broadcast to self (never the other way round: self cannot grow), and the
// functional op's promoted element type can be cast back to self's without
// going up a category (PyTorch's can_cast: no floating result into an
// integer tensor, no integer result into a bool tensor). The op classes are
// defined with the others in TpOps.cpp (TpOps.cpp.inc).
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
using Loc = std::optional<Location>;

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

FailureOr<RankedTensorType> selfType(Loc loc, StringRef op, Value self) {
  auto t = dyn_cast_if_present<RankedTensorType>(self ? self.getType() : Type());
  if (!t)
    return emitInferError(loc, op, "self must be a ranked tensor");
  if (!t.hasStaticShape())
    return emitInferError(loc, op, "dynamic dimensions are not supported yet");
  return t;
}

/// Accepts the functional op's result type `computed` for an in-place op on
/// `self`: same shape (the other operands broadcast to self) and an element
/// type that may be cast back to self's. Pushes self's type.
LogicalResult acceptInto(Loc loc, StringRef op, RankedTensorType self,
                         Type computed, SmallVectorImpl<Type> &types) {
  auto c = cast<RankedTensorType>(computed);
  if (c.getShape() != self.getShape())
    return emitInferError(loc, op,
                          "the operands broadcast to shape " +
                              shapeStr(c.getShape()) +
                              ", which differs from self's shape " +
                              shapeStr(self.getShape()) +
                              " (an in-place op cannot resize self)");
  if (getTypeCategory(c.getElementType()) >
      getTypeCategory(self.getElementType()))
    return emitInferError(loc, op,
                          "result type '" + typeStr(c.getElementType()) +
                              "' cannot be cast to self's element type '" +
                              typeStr(self.getElementType()) + "' in place");
  types.push_back(self);
  return success();
}

/// Binary in-place ops: the functional twin's broadcasting and promotion.
LogicalResult inferBinaryInPlace(Loc loc, StringRef op, Value self,
                                 Value other, Promotion promotion,
                                 SmallVectorImpl<Type> &types) {
  auto s = selfType(loc, op, self);
  if (failed(s))
    return failure();
  SmallVector<Type> computed;
  if (failed(inferBinary(loc, op, self.getType(), other.getType(), promotion,
                         computed)))
    return failure();
  return acceptInto(loc, op, *s, computed[0], types);
}

LogicalResult inferScalarInPlace(Loc loc, StringRef op, Value self,
                                 TypedAttr scalar, Promotion promotion,
                                 SmallVectorImpl<Type> &types) {
  auto s = selfType(loc, op, self);
  if (failed(s))
    return failure();
  SmallVector<Type> computed;
  if (failed(inferBinaryScalar(loc, op, self.getType(), scalar, promotion,
                               computed)))
    return failure();
  return acceptInto(loc, op, *s, computed[0], types);
}

LogicalResult inferUnaryInPlace(Loc loc, StringRef op, Value self,
                                Promotion promotion,
                                SmallVectorImpl<Type> &types) {
  auto s = selfType(loc, op, self);
  if (failed(s))
    return failure();
  SmallVector<Type> computed;
  if (failed(inferUnary(loc, op, self.getType(), promotion, computed)))
    return failure();
  return acceptInto(loc, op, *s, computed[0], types);
}

/// `other` (a mask, a copy source) must broadcast to self's shape.
LogicalResult requireBroadcastsToSelf(Loc loc, StringRef op,
                                      RankedTensorType self, Value other,
                                      StringRef what) {
  auto t = dyn_cast<RankedTensorType>(other.getType());
  if (!t || !t.hasStaticShape())
    return emitInferError(loc, op, Twine(what) + " must be a static ranked tensor");
  auto b = broadcastShapes(self.getShape(), t.getShape());
  if (failed(b) || ArrayRef<int64_t>(*b) != self.getShape())
    return emitInferError(loc, op,
                          Twine(what) + " shape " + shapeStr(t.getShape()) +
                              " does not broadcast to self shape " +
                              shapeStr(self.getShape()));
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

LogicalResult AddInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferBinaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(), Promotion::Default, types);
}
LogicalResult SubInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferBinaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(), Promotion::Default, types);
}
LogicalResult MulInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferBinaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(), Promotion::Default, types);
}
LogicalResult DivInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferBinaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(),
                            adaptor.getRoundingMode() ? Promotion::Default
                                                      : Promotion::IntToFloat,
                            types);
}

LogicalResult AddScalarInPlaceOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferScalarInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(), Promotion::Default, types);
}
LogicalResult SubScalarInPlaceOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferScalarInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(), Promotion::Default, types);
}
LogicalResult MulScalarInPlaceOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferScalarInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(), Promotion::Default, types);
}
LogicalResult DivScalarInPlaceOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferScalarInPlace(loc, getOperationName(), adaptor.getSelf(),
                            adaptor.getOther(),
                            adaptor.getRoundingMode() ? Promotion::Default
                                                      : Promotion::IntToFloat,
                            types);
}

LogicalResult NegInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferUnaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                           Promotion::Same, types);
}
LogicalResult ReluInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  return inferUnaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                           Promotion::Same, types);
}
LogicalResult SigmoidInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  return inferUnaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                           Promotion::IntToFloat, types);
}
LogicalResult TanhInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  return inferUnaryInPlace(loc, getOperationName(), adaptor.getSelf(),
                           Promotion::IntToFloat, types);
}

LogicalResult ClampInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto s = selfType(loc, op, adaptor.getSelf());
  if (failed(s))
    return failure();
  // Eager promotes self with each bound (a floating bound makes an integer
  // clamp floating), which an in-place clamp cannot store.
  for (TypedAttr bound : {adaptor.getMinAttr(), adaptor.getMaxAttr()}) {
    if (!bound)
      continue;
    SmallVector<Type> computed, accepted;
    if (failed(inferBinaryScalar(loc, op, *s, bound, Promotion::Default,
                                 computed)) ||
        failed(acceptInto(loc, op, *s, computed[0], accepted)))
      return failure();
  }
  types.push_back(*s);
  return success();
}
LogicalResult ClampInPlaceOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("needs at least one of min and max");
  return success();
}

//===----------------------------------------------------------------------===//
// Writes
//===----------------------------------------------------------------------===//

LogicalResult CopyInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto s = selfType(loc, op, adaptor.getSelf());
  if (failed(s) ||
      failed(requireBroadcastsToSelf(loc, op, *s, adaptor.getSrc(), "src")))
    return failure();
  if (getTypeCategory(cast<RankedTensorType>(adaptor.getSrc().getType())
                          .getElementType()) == TypeCategory::Unsupported)
    return emitInferError(loc, op, "unsupported src element type");
  types.push_back(*s);
  return success();
}

LogicalResult FillScalarInPlaceOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto s = selfType(loc, getOperationName(), adaptor.getSelf());
  if (failed(s))
    return failure();
  types.push_back(*s);
  return success();
}

LogicalResult ZeroInPlaceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  auto s = selfType(loc, getOperationName(), adaptor.getSelf());
  if (failed(s))
    return failure();
  types.push_back(*s);
  return success();
}

LogicalResult MaskedFillScalarInPlaceOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto s = selfType(loc, op, adaptor.getSelf());
  if (failed(s) ||
      failed(requireBroadcastsToSelf(loc, op, *s, adaptor.getMask(), "mask")))
    return failure();
  types.push_back(*s);
  return success();
}

LogicalResult IndexPutInPlaceOp::inferReturnTypes(
    MLIRContext *ctx, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto s = selfType(loc, op, adaptor.getSelf());
  if (failed(s))
    return failure();
  // The indexing rules are tp.index_put's: infer through its adaptor, with
  // its diagnostics renamed to this op.
  IndexPutOp::Properties props;
  props.dims = adaptor.getDimsAttr();
  props.accumulate = adaptor.getAccumulateAttr();
  IndexPutOp::Adaptor functional(adaptor.getOperands(), DictionaryAttr(),
                                 props);
  SmallVector<std::string> messages;
  SmallVector<Type> computed;
  LogicalResult inferred = success();
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      messages.push_back(diag.str());
      return success();
    });
    inferred = IndexPutOp::inferReturnTypes(ctx, loc, functional, computed);
  }
  if (failed(inferred)) {
    std::string prefix =
        "'" + IndexPutOp::getOperationName().str() + "' op ";
    for (StringRef m : messages)
      (void)emitInferError(loc, op, m.starts_with(prefix)
                                        ? m.drop_front(prefix.size())
                                        : m);
    return failure();
  }
  auto values = cast<RankedTensorType>(adaptor.getValues().getType());
  if (values.getElementType() != s->getElementType())
    return emitInferError(loc, op,
                          "values element type '" +
                              typeStr(values.getElementType()) +
                              "' differs from self's '" +
                              typeStr(s->getElementType()) +
                              "' (index_put_ does not convert)");
  types.push_back(*s);
  return success();
}
